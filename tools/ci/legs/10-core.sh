# The library and its tests with both compilers, C++17, warnings as errors; every kernel the CPU has.
legs+=(core-gcc core-clang)
leg_core_gcc() { cmake_leg core-gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=17 -DUTF8DFA_BUILD_BENCHMARKS=OFF; }
leg_core_clang() { cmake_leg core-clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_STANDARD=17 -DUTF8DFA_BUILD_BENCHMARKS=OFF; }
