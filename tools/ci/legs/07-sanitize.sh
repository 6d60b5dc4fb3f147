# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer with clang++ (every report
# fatal), through cmake_leg, under the CPU's first kernel and the scalar one: sse4 and avx2 are left
# out where the CPU has a better one (sse4's entries beyond validation and counting are the scalar
# ones; the fuzz leg runs both under the sanitizers, every target switching through every kernel,
# and core-gcc and core-clang run the suite under them, the page-boundary cases against guard pages;
# on a CPU without AVX-512, avx2 is the first kernel and runs here): the big [exhaustive] enumerations under the
# first kernel, sampled (UTF8DFA_TEST_SAMPLE=8 checks the inputs of 3 and more bytes that start with
# about an eighth of the byte pairs, tests/sample.hpp; the short-input transcoding tests' error at every
# position of every length likewise), utf8tool once (one chunk size). Every kernel
# runs the files about the bulk operations under a sanitizer, the first kernel all of them
# (tests/CMakeLists.txt); valgrind runs utf8tool too. (Its g++ twin, the dispatcher's
# kernel at -O0, was dropped to keep CI within its time on a slower machine: g++'s sanitizers no
# longer run in CI.)
legs+=(asan-clang)
# The suite is built in the separate-compilation mode (the kernels compiled once, in
# utf8dfa_compiled, at -O1), so that each test file does not compile the kernels again; the test
# files at -O1 too, since clang's -O0 code runs the [exhaustive] cases several times slower than the
# build saves.
utf8dfa_sanitize_flags="-g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
utf8dfa_sanitize_mode=(-DUTF8DFA_TEST_SEPARATE_COMPILATION=ON -DUTF8DFA_COMPILED_OPTIONS=-O1 -DUTF8DFA_TEST_UNITY=ON)
leg_asan_clang() {
  # utf8tool's runs under one chunk size (1, which cuts the input everywhere) besides the default
  # instead of four: the native legs run four.
  UTF8DFA_TOOL_CHUNKS=${UTF8DFA_TOOL_CHUNKS:-1} UTF8DFA_TEST_SAMPLE=${UTF8DFA_TEST_SAMPLE:-8} \
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    cmake_leg asan-clang -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_STANDARD=17 \
    -DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF -DUTF8DFA_BUILD_HEADER_CHECKS=OFF \
    -DUTF8DFA_TEST_EXHAUSTIVE=ONCE -DUTF8DFA_TEST_ODR=OFF '-DUTF8DFA_TEST_KERNELS_EXCLUDE=sse4;avx2' \
    "${utf8dfa_sanitize_mode[@]}" \
    "-DCMAKE_CXX_FLAGS=-O1 $utf8dfa_sanitize_flags" \
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined"
}
