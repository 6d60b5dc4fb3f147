# Compiler/standard/flag matrix. Each leg builds the test suite (no benchmarks, no consumer tests)
# and runs it; strict-headers builds only the header checks. C++20, -fno-exceptions and -fno-rtti: 20-cxx20.sh.
packages+=(clang-16)
legs+=(cxx23-gcc cxx23-clang16 strict-headers nochar8 single-header)

matrix_common=("${suite_once[@]}" -DCMAKE_CXX_EXTENSIONS=OFF)

leg_cxx23_gcc() {
  cmake_leg cxx23-gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=23 -DUTF8DFA_BUILD_EXAMPLES=OFF "${matrix_common[@]}"
}
leg_cxx23_clang16() {
  cmake_leg cxx23-clang16 -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_CXX_STANDARD=23 -DUTF8DFA_BUILD_EXAMPLES=OFF \
    "${matrix_common[@]}"
}
leg_nochar8() {
  cmake_leg nochar8 -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=20 -DCMAKE_CXX_FLAGS=-fno-char8_t \
    -DUTF8DFA_BUILD_EXAMPLES=OFF "${matrix_common[@]}"
}
# The whole suite, examples included, against the generated single header alone.
leg_single_header() {
  cmake_leg single-header -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=17 -DUTF8DFA_TEST_SINGLE_HEADER=ON \
    -DUTF8DFA_BUILD_EXAMPLES=ON -DUTF8DFA_BUILD_HEADER_CHECKS=OFF "${matrix_common[@]}"
}
# The library headers (each alone, and the templates instantiated) under
# -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror, with g++ 12 and clang++ 14
# in C++17, and with g++ under UTF8DFA_NO_SIMD (the other legs build the same targets with the same
# flags in C++20/23). Only those targets are built.
leg_strict_headers() {
  local cfg
  for cfg in g++:17: clang++:17: g++:17:-DUTF8DFA_NO_SIMD; do
    local cxx std flags
    IFS=: read -r cxx std flags <<<"$cfg"
    local dir="$build_root/strict-headers/$cxx-$std${flags:+-nosimd}"
    mkdir -p "$dir"
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DUTF8DFA_WERROR=ON -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_CXX_STANDARD="$std" -DCMAKE_CXX_FLAGS="$flags" -DUTF8DFA_BUILD_TESTS=ON -DUTF8DFA_BUILD_EXAMPLES=OFF \
      "${matrix_common[@]}" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; return 1; }
    echo "-- strict headers: $cxx -std=c++$std $flags"
    cmake --build "$dir" -j "$jobs" --target utf8dfa_headers_alone utf8dfa_strict_instantiate
  done
}
