# Cross build for 64-bit Windows with Debian's mingw-w64 (g++-mingw-w64-x86-64-posix: the posix
# thread model, for std::thread and std::mutex); programs (the tests, utf8tool) run under wine
# (Debian's wine64, through its `wine` launcher): ctest prefixes CMAKE_CROSSCOMPILING_EMULATOR itself.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
# Static runtime (libstdc++, libgcc, winpthread): the programs run without the mingw DLLs on wine's
# path.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
# wine64 with its debug channels off; the first run creates the wine prefix ($WINEPREFIX or ~/.wine).
set(CMAKE_CROSSCOMPILING_EMULATOR env WINEDEBUG=-all wine)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
