# Separate compilation with the single header: one file compiles the kernels (UTF8DFA_IMPLEMENTATION),
# main.cpp only declares them; both define UTF8DFA_SEPARATE_COMPILATION.
set -e
printf '#define UTF8DFA_IMPLEMENTATION 1\n#include "utf8dfa.hpp"\n' > utf8dfa_impl.cpp
c++ -std=c++17 -O2 -DUTF8DFA_SEPARATE_COMPILATION -I. -c utf8dfa_impl.cpp -o utf8dfa_impl.o
c++ -std=c++17 -O2 -DUTF8DFA_SEPARATE_COMPILATION -I. -c main.cpp -o main.o
c++ main.o utf8dfa_impl.o -o main
# The kernels are in utf8dfa_impl.o only.
if command -v nm > /dev/null; then
  nm -C utf8dfa_impl.o | grep -q 'detail::available_kernels'
  if nm -C main.o | grep -q 'detail::sse4::'; then
    echo "main.o compiled the kernels" >&2
    exit 1
  fi
fi
