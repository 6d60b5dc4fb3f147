// Fuzz target: validation under every kernel agrees with the reference reading of RFC 3629
// (verdict, offset, length and kind), and validate, is_valid and the strict converters agree.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const utf8dfa::validation_result ref = fuzzref::validate(data, size);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const std::vector<std::string> kernels = fuzzref::kernel_names();
  for (const std::string& k : kernels) {
    FUZZ_CHECK(utf8dfa::select_kernel(k));
    const utf8dfa::validation_result v = utf8dfa::validate(text);
    FUZZ_CHECK(v.valid_up_to == ref.valid_up_to);
    FUZZ_CHECK(v.error_length == ref.error_length);
    FUZZ_CHECK(v.error == ref.error);
    FUZZ_CHECK(utf8dfa::is_valid(text) == (ref.error == utf8dfa::error_code::none));
    FUZZ_CHECK(utf8dfa::validate(data, size).valid_up_to == ref.valid_up_to);
    // Every suffix that starts at a character boundary validates to the same first error.
    if (ref.error != utf8dfa::error_code::none && ref.valid_up_to > 0) {
      const utf8dfa::validation_result tail = utf8dfa::validate(text.substr(ref.valid_up_to));
      FUZZ_CHECK(tail.valid_up_to == 0 && tail.error == ref.error && tail.error_length == ref.error_length);
    }
    // Strict conversion stops exactly where validation says.
    const std::size_t units = utf8dfa::utf32_length_from_utf8(text);
    std::unique_ptr<char32_t[]> out32(new char32_t[units]);
    const utf8dfa::conversion_result c32 = utf8dfa::utf8_to_utf32(text, out32.get());
    FUZZ_CHECK(c32.read == ref.valid_up_to && c32.error == ref.error);
    const std::size_t units16 = utf8dfa::utf16_length_from_utf8(text);
    std::unique_ptr<char16_t[]> out16(new char16_t[units16]);
    const utf8dfa::conversion_result c16 = utf8dfa::utf8_to_utf16(text, out16.get());
    FUZZ_CHECK(c16.read == ref.valid_up_to && c16.error == ref.error);
    // decode_next agrees with the reference at the first error.
    if (ref.error != utf8dfa::error_code::none) {
      const utf8dfa::decoded d = utf8dfa::decode_next(text, ref.valid_up_to);
      FUZZ_CHECK(d.error == ref.error && d.code_point == utf8dfa::replacement_character);
      FUZZ_CHECK(d.length ==
                 (ref.error == utf8dfa::error_code::incomplete ? size - ref.valid_up_to : ref.error_length));
    }
  }
  return 0;
}
