// utf8dfa: ISO-8859-1 (Latin-1), where each byte is the code point of the same value
// (U+0000..U+00FF), to and from UTF-8, UTF-16 and UTF-32. Latin-1 to UTF-8 and UTF-8 to Latin-1 are
// kernel operations (vector code where the kernel has it); the others are scalar.
//
// Into Latin-1, a character above U+00FF is `unrepresentable`: strict stops before it (as before
// an ill-formed subpart, whose kind is reported as usual), replace writes the policy's replacement
// for it, which must itself be Latin-1: replace{U'?'}. A replacement above U+00FF (U+FFFD, the
// default, included) is refused whatever the input: the call writes nothing and returns
// {0, 0, error_code::unrepresentable}. assume_valid writes '?' for what it cannot convert; skip
// writes nothing for it (nor for an ill-formed subpart).
#ifndef UTF8DFA_LATIN1_HPP
#define UTF8DFA_LATIN1_HPP

#include <cstddef>
#include <string_view>
#include <type_traits>

#include "detail/bytes.hpp"
#include "detail/dfa.hpp"
#include "detail/dispatch.hpp"
#include "detail/scalar.hpp"
#include "detail/units.hpp"
#include "error.hpp"
#include "policy.hpp"
#include "transcode.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// Latin-1 bytes to UTF-16 or UTF-32 units (one each).
template <class Bytes, class Out>
std::size_t latin1_widen(const Bytes& bytes, Out* out) noexcept {
  const auto s = as_span(bytes);
  const unsigned char* p = as_uchars(s.data);
  for (std::size_t i = 0; i < s.size; ++i) out[i] = static_cast<Out>(p[i]);
  return s.size;
}

}  // namespace detail

/// Latin-1 to UTF-8 into `out` (size it with utf8_length_from_latin1); never fails. Returns the bytes written.
template <class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_byte<Byte> = 0>
std::size_t latin1_to_utf8(const Bytes& bytes, Byte* out) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::latin1_to_utf8>()(detail::as_uchars(s.data), s.size,
                                                                    detail::as_uchars(out));
}

/// Bytes latin1_to_utf8 writes: one per byte, two for 80..FF.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf8_length_from_latin1(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  const unsigned char* p = detail::as_uchars(s.data);
  std::size_t n = s.size;
  for (std::size_t i = 0; i < s.size; ++i) n += p[i] >> 7;
  return n;
}

/// UTF-8 to Latin-1 into `out`; a character above U+00FF is `unrepresentable` (see the header comment).
template <class Policy = strict, class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_latin1(const Bytes& bytes, Byte* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  unsigned char repl = '?';
  if (!detail::latin1_replacement(policy, repl)) return {0, 0, error_code::unrepresentable};
  char32_t kernel_repl = repl;
  if constexpr (Policy::stops_on_error)
    kernel_repl = detail::strict_marker;
  else if constexpr (detail::skips_errors_v<Policy>)
    kernel_repl = detail::skip_marker;
  return detail::kernel_fn<&detail::kernel_table::utf8_to_latin1>()(detail::as_uchars(s.data), s.size,
                                                                    detail::as_uchars(out), kernel_repl);
}

/// Bytes utf8_to_latin1 writes: one per character or maximal ill-formed subpart. Exact for replace,
/// assume_valid and well-formed input; an upper bound for strict.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_length_from_utf8(const Bytes& bytes) noexcept {
  return utf32_length_from_utf8(bytes);
}

/// Bytes utf8_to_latin1 writes under skip (exact): the characters up to U+00FF.
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_length_from_utf8(const Bytes& bytes, Skip) noexcept {
  const auto s = detail::as_span(bytes);
  const unsigned char* p = detail::as_uchars(s.data);
  std::size_t count = 0;
  for (std::size_t i = 0; i < s.size;) {
    const decoded d = detail::decode_at(p, s.size, i);
    count += d.error == error_code::none && d.code_point <= 0xFF;
    i += d.length;
  }
  return count;
}

/// Latin-1 to UTF-16 into `out` (one unit per byte); never fails. Returns the units written.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_to_utf16(const Bytes& bytes, char16_t* out) noexcept {
  return detail::latin1_widen(bytes, out);
}

/// Latin-1 to UTF-32 into `out` (one unit per byte); never fails. Returns the units written.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_to_utf32(const Bytes& bytes, char32_t* out) noexcept {
  return detail::latin1_widen(bytes, out);
}

/// UTF-16 to Latin-1 into `out` (at most in.size() bytes): unpaired surrogates as in
/// utf16_to_utf8, a character above U+00FF `unrepresentable`.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf16_to_latin1(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::to_latin1(in.data(), in.size(), detail::as_uchars(out), policy);
}

/// UTF-32 to Latin-1 into `out` (at most in.size() bytes): surrogates and values above 0x10FFFF as
/// in utf32_to_utf8, a value above U+00FF `unrepresentable`.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf32_to_latin1(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::to_latin1(in.data(), in.size(), detail::as_uchars(out), policy);
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
