// utf8dfa: decoding one character at a time, forwards (Go's DecodeRune) and backwards (DecodeLastRune).
#ifndef UTF8DFA_DECODE_HPP
#define UTF8DFA_DECODE_HPP

#include "detail/bytes.hpp"
#include "detail/dfa.hpp"
#include "dialect.hpp"
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

/// decode_before in a dialect. The window is the dialect's longest character. A lead byte starts
/// a segment, except (pair dialects) an ED that follows ED A0-AF 80-BF: the walk from that first
/// ED always takes it as the second half of a pair. The segment found starts where the state
/// before it is known (boundary_before).
template <class D, class T>
constexpr decoded decode_before_in(const T* p, std::size_t end) noexcept {
  using M = machine_of<D>;
  constexpr std::size_t window = dialect_traits<D>::max_length;
  const std::size_t lo = end >= window ? end - window : 0;
  for (std::size_t j = end; j-- > lo;) {
    if (!is_continuation(octet(p[j]))) {
      if constexpr (M::pairs) {
        if (j >= 3 && octet(p[j]) == 0xED && octet(p[j - 3]) == 0xED && octet(p[j - 2]) >= 0xA0 &&
            octet(p[j - 2]) <= 0xAF && is_continuation(octet(p[j - 1])))
          j -= 3;
      }
      typename M::state at = boundary_before<D>(p, j);
      const decoded d = decode_with<M>(p, end, j, at);
      if (j + d.length == end) return d;
      break;
    }
  }
  typename M::state at = boundary_before<D>(p, end - 1);
  return decode_with<M>(p, end, end - 1, at);
}

/// decode_before in a dialect when the input goes on after `end` (as decode_before above).
template <class D, class T>
constexpr decoded decode_before_in(const T* p, std::size_t end, std::size_t size) noexcept {
  decoded d = decode_before_in<D>(p, end);
  if (d.error == error_code::incomplete && end < size) {
    typename machine_of<D>::state at = boundary_before<D>(p, end - d.length);
    const decoded whole = decode_with<machine_of<D>>(p, size, end - d.length, at);
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

/// decode_next in a dialect (decode_next(bytes, pos, dialect::cesu8{})). `pos` must be a character
/// boundary; in WTF-8 the character before it decides whether a trail surrogate may start there.
/// Values are those the dialect encodes: surrogates (WTF-8, legacy), up to 0x7FFFFFFF (legacy).
template <class Bytes, class Dialect, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr decoded decode_next(const Bytes& bytes, std::size_t pos, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return decode_next(bytes, pos);
  } else {
    const auto s = detail::as_span(bytes);
    if (pos >= s.size) return {replacement_character, 0, error_code::incomplete};
    auto at = detail::boundary_before<Dialect>(s.data, pos);
    return detail::decode_with<detail::machine_of<Dialect>>(s.data, s.size, pos, at);
  }
}

/// decode_prev in a dialect: decode_next's segments, walking back from a boundary.
template <class Bytes, class Dialect, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr decoded decode_prev(const Bytes& bytes, std::size_t end, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return decode_prev(bytes, end);
  } else {
    const auto s = detail::as_span(bytes);
    if (end > s.size) end = s.size;
    if (end == 0) return {replacement_character, 0, error_code::incomplete};
    return detail::decode_before_in<Dialect>(s.data, end, s.size);
  }
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
