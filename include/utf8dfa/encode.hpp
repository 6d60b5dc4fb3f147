// utf8dfa: encoding one Unicode scalar value as UTF-8 (RFC 3629 section 3).
#ifndef UTF8DFA_ENCODE_HPP
#define UTF8DFA_ENCODE_HPP

#include <cstddef>

#include "detail/bytes.hpp"
#include "detail/scalar.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// True for U+0000..U+D7FF and U+E000..U+10FFFF: the values UTF-8 can encode.
constexpr bool is_scalar_value(char32_t cp) noexcept {
  return cp < 0xD800 || (cp > 0xDFFF && cp <= 0x10FFFF);
}

/// Bytes needed to encode `cp` (1..4), or 0 for a surrogate or a value above 0x10FFFF.
constexpr std::size_t encoded_length(char32_t cp) noexcept {
  return is_scalar_value(cp) ? detail::utf8_width(cp) : 0;
}

/// Writes `cp` to out[0..3]; returns the byte count, or 0 (writing nothing) for a surrogate or > 0x10FFFF.
template <class Byte, detail::enable_if_byte<Byte> = 0>
constexpr std::size_t encode(char32_t cp, Byte* out4) noexcept {
  return is_scalar_value(cp) ? detail::put_utf8(out4, cp) : 0;
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
