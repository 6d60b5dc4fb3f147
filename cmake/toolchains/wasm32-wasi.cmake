# Cross build for WebAssembly (wasm32-wasi, preview1) with clang++ 16 and Debian's WASI sysroot
# (wasi-libc, libc++-16-dev-wasm32, libc++abi-16-dev-wasm32, libclang-rt-16-dev-wasm32). Programs
# (the tests, utf8tool) run under Node's WASI through tools/wasi_run.mjs: ctest prefixes
# CMAKE_CROSSCOMPILING_EMULATOR itself. No exceptions there (these packages have no wasm exception
# handling): everything builds with -fno-exceptions, the library's exception-free paths. size_t is
# 32 bits.
set(CMAKE_SYSTEM_NAME WASI)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_CXX_COMPILER clang++-16)
set(CMAKE_C_COMPILER clang-16)
set(CMAKE_CXX_COMPILER_TARGET wasm32-wasi)
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(_utf8dfa_wasi_sysroot /usr/include/wasm32-wasi)
set(CMAKE_CXX_FLAGS_INIT "-fno-exceptions -nostdinc++ -isystem ${_utf8dfa_wasi_sysroot}/c++/v1 -isystem ${_utf8dfa_wasi_sysroot}")
set(CMAKE_C_FLAGS_INIT "-isystem ${_utf8dfa_wasi_sysroot}")
# (-nostdinc++ above reaches the link too, where clang warns that it is unused.)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wno-unused-command-line-argument -fuse-ld=lld -L/usr/lib/wasm32-wasi -L/usr/lib/llvm-16/lib/wasm32-wasi")
# --no-warnings: Node prints an ExperimentalWarning for WASI on stderr, which the tool's tests
# compare. --single-threaded: with its background compiler threads, Node 20 sometimes crashed
# (SIGSEGV) while exiting after a test program had passed (about one run in two of output_test).
set(CMAKE_CROSSCOMPILING_EMULATOR "node;--no-warnings;--single-threaded;${CMAKE_CURRENT_LIST_DIR}/../../tools/wasi_run.mjs")
set(CMAKE_FIND_ROOT_PATH /usr/lib/wasm32-wasi)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
