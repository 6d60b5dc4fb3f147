// utf8dfa: character boundaries, truncation, and the byte order mark.
//
// A boundary is a byte offset where decode_next's segmentation starts a new segment (or the end
// of the input). Segments are the well-formed characters and, in ill-formed input, the maximal
// ill-formed subparts (each replaced by one U+FFFD when decoding); no function here splits either.
// Every non-continuation byte starts a segment, so a boundary is found by looking at most three
// bytes back: each function is O(1) and reads only bytes inside the input.
#ifndef UTF8DFA_BOUNDARY_HPP
#define UTF8DFA_BOUNDARY_HPP

#include <cstddef>
#include <string_view>

#include "detail/bytes.hpp"
#include "detail/dfa.hpp"

#if UTF8DFA_HAS_SPAN
#include <span>
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

template <class T>
constexpr bool is_boundary(const T* p, std::size_t n, std::size_t i) noexcept {
  if (i == 0 || i == n) return true;
  if (i > n) return false;
  if (!is_continuation(octet(p[i]))) return true;
  // A continuation byte starts a segment unless the segment of the last lead within three bytes
  // before it reaches over it.
  const std::size_t lo = i >= 3 ? i - 3 : 0;
  for (std::size_t j = i; j-- > lo;)
    if (!is_continuation(octet(p[j]))) return j + decode_at(p, n, j).length <= i;
  return true;
}

inline constexpr unsigned char bom[3] = {0xEF, 0xBB, 0xBF};

template <class T>
constexpr bool starts_with_bom(const T* p, std::size_t n) noexcept {
  return n >= 3 && octet(p[0]) == bom[0] && octet(p[1]) == bom[1] && octet(p[2]) == bom[2];
}

}  // namespace detail

/// True when byte offset `index` starts a character or a maximal ill-formed subpart, or is 0 or
/// the size; false inside one and past the end.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr bool is_char_boundary(const Bytes& bytes, std::size_t index) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::is_boundary(s.data, s.size, index);
}

/// The largest boundary <= `index` (the size when `index` is past the end).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr std::size_t floor_char_boundary(const Bytes& bytes, std::size_t index) noexcept {
  const auto s = detail::as_span(bytes);
  if (index >= s.size) return s.size;
  while (!detail::is_boundary(s.data, s.size, index)) --index;
  return index;
}

/// The smallest boundary >= `index` (the size when `index` is past the end).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr std::size_t ceil_char_boundary(const Bytes& bytes, std::size_t index) noexcept {
  const auto s = detail::as_span(bytes);
  if (index >= s.size) return s.size;
  while (!detail::is_boundary(s.data, s.size, index)) ++index;
  return index;
}

/// The length of the longest prefix of at most `max_bytes` bytes that ends on a boundary
/// (floor_char_boundary): it never splits a character. Ill-formed input: a maximal ill-formed
/// subpart is kept or dropped whole, as if it were a character, and is not repaired, so the prefix
/// decodes to a prefix of what the input decodes to (and is well-formed when the input is).
/// Use: `s.resize(utf8dfa::truncate(s, n))`.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr std::size_t truncate(const Bytes& bytes, std::size_t max_bytes) noexcept {
  return floor_char_boundary(bytes, max_bytes);
}

/// True when the input starts with the UTF-8 byte order mark EF BB BF (U+FEFF).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr bool has_bom(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::starts_with_bom(s.data, s.size);
}

/// The input without a leading EF BB BF (RFC 3629 section 6); unchanged when there is none.
/// Only the first three bytes are looked at: a second BOM, or U+FEFF later on, is data.
constexpr std::string_view skip_bom(std::string_view bytes) noexcept {
  return detail::starts_with_bom(bytes.data(), bytes.size()) ? bytes.substr(3) : bytes;
}

#if UTF8DFA_HAS_CHAR8_T
/// The same for UTF-8 in char8_t.
constexpr std::u8string_view skip_bom(std::u8string_view bytes) noexcept {
  return detail::starts_with_bom(bytes.data(), bytes.size()) ? bytes.substr(3) : bytes;
}
#endif

#if UTF8DFA_HAS_SPAN
/// The same for a span of bytes (std::span<const std::byte>, ...).
template <class T, std::size_t Extent, detail::enable_if_byte<T> = 0>
constexpr std::span<T> skip_bom(std::span<T, Extent> bytes) noexcept {
  return detail::starts_with_bom(bytes.data(), bytes.size()) ? std::span<T>(bytes).subspan(3) : std::span<T>(bytes);
}
#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
