// The ODR test, AVX2 half: this translation unit is built with -mavx2 (and BMI/FMA), as a user's
// hot file might be, and includes the same headers as the baseline one.
#include <utf8dfa.hpp>

#include <string>

#if !defined(__AVX2__)
#error "odr_avx2.cpp must be compiled with -mavx2"
#endif

utf8dfa::validation_result validate_in_avx2_tu(const std::string& s) {
  return utf8dfa::validate(s);
}

bool avx2_tu_was_built_with_avx2() {
  return true;
}
