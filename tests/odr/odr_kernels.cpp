// Every kernel of the library compiled once, optimised, for check_transitions.py (CMakeLists.txt
// here): the AVX2 and AVX-512 kernels must clear the upper vector halves before calling scalar code.
#include <utf8dfa/src.hpp>
