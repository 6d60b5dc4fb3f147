# The library and its tests with both compilers, C++17, warnings as errors; every kernel the CPU has.
legs+=(core-gcc core-clang)
core_args=(-DCMAKE_CXX_STANDARD=17 -DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF)
leg_core_gcc() { cmake_leg core-gcc -DCMAKE_CXX_COMPILER=g++ "${core_args[@]}"; }
leg_core_clang() { cmake_leg core-clang -DCMAKE_CXX_COMPILER=clang++ "${core_args[@]}"; }
