// utf8dfa: encoding one Unicode scalar value as UTF-8 (RFC 3629 section 3).
#ifndef UTF8DFA_ENCODE_HPP
#define UTF8DFA_ENCODE_HPP

#include <cstddef>

#include "detail/bytes.hpp"
#include "detail/scalar.hpp"
#include "dialect.hpp"

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

/// True when the dialect can encode `cp`: scalar values (utf8, cesu8, mutf8), up to 0x10FFFF with
/// surrogates (wtf8), up to 0x7FFFFFFF (legacy).
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
constexpr bool is_encodable(char32_t cp, Dialect) noexcept {
  return detail::dialect_traits<Dialect>::encodable(cp);
}

/// Bytes the dialect's form of `cp` takes (1..6), or 0 when it cannot encode it.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
constexpr std::size_t encoded_length(char32_t cp, Dialect) noexcept {
  return detail::dialect_traits<Dialect>::encodable(cp) ? detail::dialect_traits<Dialect>::width(cp) : 0;
}

/// Writes the dialect's form of `cp` to out[0..5] (encode(cp, out, dialect::mutf8{})); returns the
/// byte count, or 0 (writing nothing) when the dialect cannot encode it. A WTF-8 caller pairing
/// surrogates itself must not write a lead surrogate before a trail one (see utf16_to_utf8).
template <class Byte, class Dialect, detail::enable_if_byte<Byte> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr std::size_t encode(char32_t cp, Byte* out6, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return encode(cp, out6);
  else
    return detail::dialect_traits<Dialect>::encodable(cp) ? detail::dialect_traits<Dialect>::put(out6, cp) : 0;
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
