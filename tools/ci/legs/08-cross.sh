# Other architectures, cross-compiled with Debian's g++ cross compilers and run under qemu-user
# (correctness only: emulation says nothing about speed):
#  - aarch64: the NEON kernel, which the dispatcher must pick there (the scalar kernel is the same
#    code as on x86-64, where every native leg runs it, and big-endian runs it emulated);
#  - big-endian: s390x, scalar kernel; where a word-at-a-time trick that assumes little-endian byte
#    order would show, and utf8tool's utf16be/utf32be conversions run on a big-endian host.
# The whole test suite (and on big-endian utf8tool's tests, each run with the default chunk size),
# without the [exhaustive] enumerations (the native legs run them; emulated they would take most of
# the CI budget) and without the memory group (it measures the process, here the emulator). Built in the separate-compilation mode
# (the kernels compiled once, in utf8dfa_compiled): the legs are about the target, not the mode, and
# the suite builds in about half the time. The test files are built at -O1 (g++ builds them about
# 40% faster than at -O2; they run as fast under the emulator), the kernels at -O2.
packages+=(qemu-user g++-aarch64-linux-gnu g++-s390x-linux-gnu)
legs+=(aarch64 big-endian)

# cross_leg NAME TRIPLE KERNELS [cmake args...]
cross_leg() {
  local name=$1 triple=$2 kernels=$3
  shift 3
  local dir="$build_root/$name"
  # Catch2 is header-only: the cross compiler sees it through a folder that holds only catch2/.
  local catch2="$dir-catch2"
  mkdir -p "$catch2"
  ln -sfn /usr/include/catch2 "$catch2/catch2"
  # The package checks (Python scripts, consumers built for the host) are the package leg's.
  local ctest_args=(-LE package ${cross_ctest_extra[@]+"${cross_ctest_extra[@]}"})
  cmake_leg "$name" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/$triple.cmake" -DCMAKE_CXX_STANDARD=17 \
    -DUTF8DFA_CATCH2_INCLUDE_DIR="$catch2" "-DUTF8DFA_TEST_KERNELS=$kernels" -DUTF8DFA_TEST_EXHAUSTIVE=NONE \
    -DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF -DUTF8DFA_BUILD_HEADER_CHECKS=OFF \
    -DUTF8DFA_TEST_SEPARATE_COMPILATION=ON -DUTF8DFA_TEST_UNITY=ON -DUTF8DFA_COMPILED_OPTIONS=-O2 "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "$@"
}
# On aarch64 only the files about the bulk operations (tests/CMakeLists.txt, UTF8DFA_TEST_PER_KERNEL),
# and no utf8tool: the rest is the scalar code that big-endian runs on another host whose `char` is
# unsigned too.
leg_aarch64() { cross_leg aarch64 aarch64-linux-gnu neon -DUTF8DFA_TEST_PER_KERNEL_ONLY=ON -DUTF8DFA_BUILD_EXAMPLES=OFF; }
# utf8tool there: every group but dialect and corpora (about two minutes of emulation: the dialect
# validators and the corpora through the same scalar code the suite runs on this host; the UTF-16BE
# and UTF-32BE conversions are in convert).
leg_big_endian() {
  cross_leg big-endian s390x-linux-gnu scalar \
    "-DUTF8DFA_UTF8TOOL_TEST_GROUPS=validate;sanitize;count;convert;usage;io;stream_file;platform;encodings"
}
