// Fuzz target: lossy UTF-8 decoding (to_utf32_lossy, to_utf16_lossy, utf8_to_utf32/16 with
// `replace` and a fuzzer-chosen replacement) against the reference maximal-subpart decoder, with
// output buffers sized exactly by the length helpers.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const char32_t chosen = fuzzref::pick_replacement(size);
  const char32_t repl = fuzzref::effective_replacement(chosen);
  const std::u32string ref = fuzzref::decode_lossy(data, size);
  const std::u32string ref_chosen = fuzzref::decode_lossy(data, size, repl);
  const std::u16string ref16 = fuzzref::to_utf16(ref_chosen);
  const utf8dfa::validation_result first = fuzzref::validate(data, size);
  static const std::vector<std::string> kernels = fuzzref::kernel_names();
  for (const std::string& k : kernels) {
    FUZZ_CHECK(utf8dfa::select_kernel(k));
    FUZZ_CHECK(utf8dfa::to_utf32_lossy(text) == ref);
    FUZZ_CHECK(utf8dfa::to_utf16_lossy(text) == fuzzref::to_utf16(ref));

    const utf8dfa::replace policy{chosen};
    const std::size_t n32 = utf8dfa::utf32_length_from_utf8(text, policy);
    FUZZ_CHECK(n32 == ref_chosen.size());
    std::unique_ptr<char32_t[]> out32(new char32_t[n32]);
    const utf8dfa::conversion_result r32 = utf8dfa::utf8_to_utf32(text, out32.get(), policy);
    FUZZ_CHECK(r32.read == size && r32.written == n32 && r32.error == first.error);
    FUZZ_CHECK(std::u32string_view(out32.get(), n32) == ref_chosen);

    const std::size_t n16 = utf8dfa::utf16_length_from_utf8(text, policy);
    FUZZ_CHECK(n16 == ref16.size());
    std::unique_ptr<char16_t[]> out16(new char16_t[n16]);
    const utf8dfa::conversion_result r16 = utf8dfa::utf8_to_utf16(text, out16.get(), policy);
    FUZZ_CHECK(r16.read == size && r16.written == n16 && r16.error == first.error);
    FUZZ_CHECK(std::u16string_view(out16.get(), n16) == ref16);

    // Strict conversion writes exactly the characters before the first error.
    std::size_t good = 0;
    for (std::size_t i = 0; i < first.valid_up_to; ++good) i += fuzzref::decode(data, size, i).length;
    const std::size_t s32 = utf8dfa::utf32_length_from_utf8(text);
    std::unique_ptr<char32_t[]> strict32(new char32_t[s32]);
    const utf8dfa::conversion_result t32 = utf8dfa::utf8_to_utf32(text, strict32.get());
    FUZZ_CHECK(t32.read == first.valid_up_to && t32.written == good && t32.error == first.error);
    FUZZ_CHECK(std::u32string_view(strict32.get(), good) == std::u32string_view(ref).substr(0, good));

    // assume_valid on arbitrary input: unspecified values, but never more output than the
    // helpers' size (the buffers are exactly that size, so ASan sees any overrun).
    const std::size_t a32 = utf8dfa::utf32_length_from_utf8(text);
    std::unique_ptr<char32_t[]> any32(new char32_t[a32]);
    FUZZ_CHECK(utf8dfa::utf8_to_utf32(text, any32.get(), utf8dfa::assume_valid{}).written <= a32);
    const std::size_t a16 = utf8dfa::utf16_length_from_utf8(text);
    std::unique_ptr<char16_t[]> any16(new char16_t[a16]);
    FUZZ_CHECK(utf8dfa::utf8_to_utf16(text, any16.get(), utf8dfa::assume_valid{}).written <= a16);
  }
  return 0;
}
