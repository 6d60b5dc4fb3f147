# The library headers under the strictest warnings users may apply: each header compiled alone
# (twice) and the templates instantiated with every accepted input type, under
# -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror, with g++ 12 and clang++ 14
# in C++17, and with g++ under UTF8DFA_NO_SIMD. Only those targets are built (the other legs build
# the test suite without them). Both modes: header-only, and UTF8DFA_SEPARATE_COMPILATION (g++).
packages+=(clang-16)
legs+=(strict-headers)
leg_strict_headers() {
  local cfg
  for cfg in g++:17: clang++:17: g++:17:-DUTF8DFA_NO_SIMD; do
    local cxx std flags
    IFS=: read -r cxx std flags <<<"$cfg"
    local dir="$build_root/strict-headers/$cxx-$std${flags:+-nosimd}"
    mkdir -p "$dir"
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DUTF8DFA_WERROR=ON -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_CXX_STANDARD="$std" -DCMAKE_CXX_FLAGS="$flags" -DUTF8DFA_BUILD_TESTS=ON -DUTF8DFA_BUILD_EXAMPLES=OFF \
      -DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF \
      >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
    echo "-- strict headers: $cxx -std=c++$std $flags"
    # Every header alone in the separate-compilation mode (declarations only) once, with g++.
    local separate=()
    if [[ $cxx == g++ && -z $flags ]]; then
      separate=(utf8dfa_headers_alone_separate utf8dfa_separate_old_abi utf8dfa_separate_cxx23)
    fi
    cmake --build "$dir" -j "$jobs" --target utf8dfa_headers_alone "${separate[@]}" utf8dfa_strict_instantiate ||
      return 1
    # The separate-mode programs link (src.hpp included after the umbrella still defines everything;
    # old-ABI and C++23 users compile their own string conversions) and their allocating helpers work.
    local t
    for t in "${separate[@]}"; do "$dir/tests/package/$t" || return 1; done
  done
}
