// The ODR test, baseline half: built with the project's flags only (no -m options). See
// CMakeLists.txt here for what the test proves and how.
#include <utf8dfa.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "odr_inputs.hpp"

// Defined in odr_avx2.cpp, which is built with -mavx2.
utf8dfa::validation_result validate_in_avx2_tu(const std::string& s);
bool avx2_tu_was_built_with_avx2();

int main() {
#if defined(__AVX2__)
  std::puts("odr_test: the baseline translation unit was built with AVX2 enabled; nothing to prove");
  return 77;  // ctest SKIP_RETURN_CODE
#else
  if (!avx2_tu_was_built_with_avx2()) {
    std::puts("odr_test: odr_avx2.cpp was not built with -mavx2");
    return 1;
  }
  std::size_t count = 0;
  const utf8dfa::detail::kernel_table* const* kernels = utf8dfa::detail::available_kernels(count);
  int failures = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const std::string name = kernels[k]->name;
    if (!utf8dfa::select_kernel(name)) return 1;
    for (const std::string& s : odr_inputs()) {
      // The reference: the constexpr-capable one-character-at-a-time path, no kernel involved.
      const auto* p = reinterpret_cast<const unsigned char*>(s.data());
      const utf8dfa::validation_result want = utf8dfa::detail::validate_from(p, s.size(), 0);
      const utf8dfa::validation_result here = utf8dfa::validate(s);
      const utf8dfa::validation_result there = validate_in_avx2_tu(s);
      for (const auto& got : {here, there})
        if (got.valid_up_to != want.valid_up_to || got.error != want.error || got.error_length != want.error_length) {
          std::printf("odr_test: kernel %s: wrong result for an input of %zu bytes\n", name.c_str(), s.size());
          ++failures;
        }
    }
    std::printf("odr_test: kernel %s: both translation units agree with the DFA\n", name.c_str());
  }
  return failures == 0 ? 0 : 1;
#endif
}
