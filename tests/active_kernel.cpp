// The kernel the library dispatches to, for the test runner (tests/main.cpp) to report.
#include <utf8dfa.hpp>

const char* utf8dfa_tests_active_kernel() {
  return utf8dfa::active_kernel().data();  // a kernel's name is a string literal
}
