// utf8dfa: decoding one character at a time, forwards (Go's DecodeRune) and backwards (DecodeLastRune).
#ifndef UTF8DFA_DECODE_HPP
#define UTF8DFA_DECODE_HPP

#include "detail/bytes.hpp"
#include "detail/dfa.hpp"
#include "error.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// The last character or maximal ill-formed subpart of [p, p+end): exactly the forward
/// segmentation read backwards. Every non-continuation byte starts a segment, so the segment that
/// ends at `end` starts at the last such byte within four bytes if decoding from there reaches
/// `end`, and is the single byte before `end` otherwise.
template <class T>
constexpr decoded decode_before(const T* p, std::size_t end) noexcept {
  const std::size_t lo = end >= 4 ? end - 4 : 0;
  for (std::size_t j = end; j-- > lo;) {
    if (!is_continuation(octet(p[j]))) {
      const decoded d = decode_at(p, end, j);
      if (j + d.length == end) return d;
      break;
    }
  }
  return decode_at(p, end, end - 1);
}

/// The same segment when [p, p+size) goes on after `end`: if the input continues and its byte at
/// `end` cuts that segment short, the kind is the one the forward walk reports (too_short,
/// overlong, ...) rather than incomplete.
template <class T>
constexpr decoded decode_before(const T* p, std::size_t end, std::size_t size) noexcept {
  decoded d = decode_before(p, end);
  if (d.error == error_code::incomplete && end < size) {
    const decoded whole = decode_at(p, size, end - d.length);
    if (whole.length == d.length) d.error = whole.error;
  }
  return d;
}

}  // namespace detail

/// Decodes the character at byte `pos`; on error U+FFFD with the subpart's length and kind.
/// At or past the end: {U+FFFD, 0, incomplete}.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr decoded decode_next(const Bytes& bytes, std::size_t pos) noexcept {
  const auto s = detail::as_span(bytes);
  if (pos >= s.size) return {replacement_character, 0, error_code::incomplete};
  return detail::decode_at(s.data, s.size, pos);
}

/// Decodes the character that ends just before byte `end`, segmenting [0, end) as decode_next
/// does, so that walking back from a boundary gives decode_next's segments (kinds included) in
/// reverse. At the start: {U+FFFD, 0, incomplete}.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr decoded decode_prev(const Bytes& bytes, std::size_t end) noexcept {
  const auto s = detail::as_span(bytes);
  if (end > s.size) end = s.size;
  if (end == 0) return {replacement_character, 0, error_code::incomplete};
  return detail::decode_before(s.data, end, s.size);
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
