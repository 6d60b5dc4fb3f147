// Fuzz target: round trips. Valid input decodes (decode_next, UTF-32, UTF-16) and re-encodes to
// the same bytes; for any input, decode_next forwards and decode_prev backwards give the same
// sequence, and a lossy decode re-encoded is well-formed and stable.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference.hpp"

namespace fuzz_roundtrip {

void check(std::string_view text) {
  const bool valid = utf8dfa::is_valid(text);
  // Forward and backward segmentation are the same sequence, whatever the input.
  std::vector<utf8dfa::decoded> fwd;
  for (std::size_t i = 0; i < text.size();) {
    const utf8dfa::decoded d = utf8dfa::decode_next(text, i);
    FUZZ_CHECK(d.length >= 1 && d.length <= 4 && i + d.length <= text.size());
    FUZZ_CHECK(d.error == utf8dfa::error_code::none || d.code_point == utf8dfa::replacement_character);
    fwd.push_back(d);
    i += d.length;
  }
  std::size_t k = fwd.size();
  for (std::size_t end = text.size(); end > 0;) {
    const utf8dfa::decoded d = utf8dfa::decode_prev(text, end);
    FUZZ_CHECK(k > 0);
    --k;
    FUZZ_CHECK(d.length == fwd[k].length && d.code_point == fwd[k].code_point);
    // decode_prev treats [0, end) as the whole input, so a subpart that the byte at `end` cut
    // short (too_short, or a continuation byte out of range) is `incomplete` backwards.
    const bool cut = fwd[k].error != utf8dfa::error_code::none && d.error == utf8dfa::error_code::incomplete;
    FUZZ_CHECK(d.error == fwd[k].error || cut);
    end -= d.length;
  }
  FUZZ_CHECK(k == 0);

  // decode -> encode gives back the bytes.
  std::string re;
  for (const utf8dfa::decoded& d : fwd) {
    char buf[4];
    if (d.error != utf8dfa::error_code::none) {
      FUZZ_CHECK(!valid);
      continue;
    }
    const std::size_t len = utf8dfa::encode(d.code_point, buf);
    FUZZ_CHECK(len == d.length && len == utf8dfa::encoded_length(d.code_point));
    re.append(buf, len);
  }
  if (valid) FUZZ_CHECK(re == text);

  if (valid) {
    // UTF-8 -> UTF-32 -> UTF-8 and UTF-8 -> UTF-16 -> UTF-8, with exact buffers.
    const std::size_t n32 = utf8dfa::utf32_length_from_utf8(text);
    FUZZ_CHECK(n32 == fwd.size() && n32 == utf8dfa::count_code_points(text));
    std::unique_ptr<char32_t[]> u32(new char32_t[n32]);
    const utf8dfa::conversion_result a = utf8dfa::utf8_to_utf32(text, u32.get());
    FUZZ_CHECK(a && a.read == text.size() && a.written == n32);
    const std::u32string_view v32(u32.get(), n32);
    const std::size_t b8 = utf8dfa::utf8_length_from_utf32(v32);
    FUZZ_CHECK(b8 == text.size());
    std::unique_ptr<char[]> back(new char[b8]);
    const utf8dfa::conversion_result b = utf8dfa::utf32_to_utf8(v32, back.get());
    FUZZ_CHECK(b && b.read == n32 && b.written == b8 && std::string_view(back.get(), b8) == text);

    const std::size_t n16 = utf8dfa::utf16_length_from_utf8(text);
    std::unique_ptr<char16_t[]> u16(new char16_t[n16]);
    const utf8dfa::conversion_result c = utf8dfa::utf8_to_utf16(text, u16.get());
    FUZZ_CHECK(c && c.read == text.size() && c.written == n16);
    const std::u16string_view v16(u16.get(), n16);
    const std::size_t c8 = utf8dfa::utf8_length_from_utf16(v16);
    FUZZ_CHECK(c8 == text.size());
    std::unique_ptr<char[]> back16(new char[c8]);
    const utf8dfa::conversion_result d = utf8dfa::utf16_to_utf8(v16, back16.get());
    FUZZ_CHECK(d && d.read == n16 && d.written == c8 && std::string_view(back16.get(), c8) == text);

    // Allocating helpers agree.
    FUZZ_CHECK(utf8dfa::to_utf8(utf8dfa::to_utf32(text)) == text);
    FUZZ_CHECK(utf8dfa::to_utf8(utf8dfa::to_utf16(text)) == text);
  } else {
    // A lossy decode re-encodes to well-formed UTF-8, which decodes to itself.
    const std::u32string lossy = utf8dfa::to_utf32_lossy(text);
    const std::string clean = utf8dfa::to_utf8(lossy);
    FUZZ_CHECK(utf8dfa::is_valid(clean));
    FUZZ_CHECK(utf8dfa::to_utf32(clean) == lossy);
    FUZZ_CHECK(utf8dfa::to_utf8(utf8dfa::to_utf16_lossy(text)) == clean);
  }
}

}  // namespace fuzz_roundtrip

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<std::string> kernels = fuzzref::kernel_names();
  for (const std::string& k : kernels) {
    FUZZ_CHECK(utf8dfa::select_kernel(k));
    fuzz_roundtrip::check(std::string_view(reinterpret_cast<const char*>(data), size));
  }
  return 0;
}
