// utf8dfa: code_points(bytes), a view of UTF-8 bytes as char32_t code points.
//
//   for (char32_t c : utf8dfa::code_points(text)) ...
//
// The view holds two byte iterators and hands out code_point_iterator: bidirectional over
// contiguous ranges, C strings and bidirectional iterator pairs, forward or single-pass over the
// other iterator kinds. In C++20 it is a std::ranges::view (and a borrowed range: its iterators
// do not refer to it), so it composes with std::views::reverse, take, filter, ...
#ifndef UTF8DFA_VIEWS_HPP
#define UTF8DFA_VIEWS_HPP

#include <cstddef>
#include <iterator>
#include <string_view>
#include <type_traits>

#include "detail/bytes.hpp"
#include "iterator.hpp"

// The C++20 integration (std::ranges::view_interface, enable_borrowed_range). Off for clang
// before 16 with libstdc++, which cannot compile libstdc++'s ranges machinery; the view still
// works in range-for and with the classic algorithms there.
#if UTF8DFA_HAS_RANGES && !(defined(__clang__) && __clang_major__ < 16 && defined(__GLIBCXX__))
#define UTF8DFA_HAS_RANGES_VIEWS 1
#include <ranges>
#else
#define UTF8DFA_HAS_RANGES_VIEWS 0
#endif
#if UTF8DFA_HAS_SPAN
#include <span>
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// The code points of the UTF-8 bytes [first, last), as a range of char32_t (see code_points),
/// read in `Dialect` (dialect.hpp).
template <class It, class Sent = It, class Dialect = dialect::utf8>
class code_point_view
#if UTF8DFA_HAS_RANGES_VIEWS
    : public std::ranges::view_interface<code_point_view<It, Sent, Dialect>>
#endif
{
 public:
  using iterator = code_point_iterator<It, Sent, Dialect>;
  /// The end: an iterator when It and Sent are one type (a common range), else Sent itself.
  using sentinel = std::conditional_t<std::is_same_v<It, Sent>, iterator, Sent>;

  constexpr code_point_view() = default;
  constexpr code_point_view(It first, Sent last) : first_(first), last_(last) {}

  /// The first code point (for single-pass input, reading it).
  constexpr iterator begin() const {
    return iterator(first_, last_);
  }

  constexpr sentinel end() const {
    if constexpr (!std::is_same_v<It, Sent>)
      return last_;
    else if constexpr (detail::is_forward_iter_v<It>)
      return iterator(first_, last_, last_);
    else
      return iterator(last_, last_);
  }

  /// The underlying bytes' bounds.
  constexpr It bytes_begin() const {
    return first_;
  }
  constexpr Sent bytes_end() const {
    return last_;
  }

 private:
  It first_{};
  Sent last_{};
};

namespace detail {

template <class R>
using uncvref_t = std::remove_cv_t<std::remove_reference_t<R>>;

/// Types whose data outlives them (views), so code_points may take them as temporaries.
template <class R>
inline constexpr bool is_borrowed_bytes_v =
#if UTF8DFA_HAS_RANGES_VIEWS
    std::ranges::borrowed_range<R>;
#else
    false;
#endif
template <class C, class Tr>
inline constexpr bool is_borrowed_bytes_v<std::basic_string_view<C, Tr>> = true;
template <class T>
inline constexpr bool is_borrowed_bytes_v<byte_span_range<T>> = true;
#if UTF8DFA_HAS_SPAN
template <class T, std::size_t E>
inline constexpr bool is_borrowed_bytes_v<std::span<T, E>> = true;
#endif

template <class R, class = void>
struct is_iterable_bytes : std::false_type {};
template <class R>
struct is_iterable_bytes<
    R, std::void_t<decltype(std::begin(std::declval<const R&>())), decltype(std::end(std::declval<const R&>()))>>
    : std::bool_constant<
          is_byte_v<typename std::iterator_traits<decltype(std::begin(std::declval<const R&>()))>::value_type>> {};

/// Byte containers that code_points reads through their iterators (std::list<char>, std::deque, ...).
template <class R>
inline constexpr bool is_other_byte_container_v =
    !std::is_array_v<R> && !std::is_pointer_v<R> && !is_bytes_v<R> && is_iterable_bytes<R>::value;

}  // namespace detail

/// The code points of UTF-8 bytes: any contiguous range of 1-byte elements (std::string,
/// std::string_view, std::u8string(_view), std::span<const std::byte>, std::vector<unsigned char>,
/// ...) or other byte container. One U+FFFD per maximal ill-formed subpart. The view refers to the
/// bytes: a temporary container is refused (it would dangle), a temporary view is fine.
template <class R, std::enable_if_t<detail::is_byte_range<detail::uncvref_t<R>>::value ||
                                        detail::is_other_byte_container_v<detail::uncvref_t<R>>,
                                    int> = 0>
constexpr auto code_points(R&& bytes) noexcept {
  using B = detail::uncvref_t<R>;
  static_assert(std::is_lvalue_reference_v<R> || detail::is_borrowed_bytes_v<B>,
                "code_points of a temporary container would dangle: keep the container in a variable");
  if constexpr (detail::is_byte_range<B>::value) {
    const auto s = detail::as_span(bytes);
    return code_point_view<decltype(s.data)>(s.data, s.data + s.size);
  } else {
    return code_point_view<decltype(std::begin(bytes))>(std::begin(bytes), std::end(bytes));
  }
}

/// The code points of a null-terminated string (a pointer or a character array: both end at the
/// first zero byte, which is found while iterating, not by a separate strlen pass).
template <class T, detail::enable_if_byte<T> = 0>
constexpr code_point_view<const T*, null_sentinel_t> code_points(const T* c_string) noexcept {
  return {c_string, null_sentinel};
}

/// The code points of `size` bytes at `data`.
template <class T, detail::enable_if_byte<T> = 0>
constexpr code_point_view<const T*> code_points(const T* data, std::size_t size) noexcept {
  return {data, data + size};
}

/// The code points of the bytes [first, last) of any iterator pair (e.g. std::istreambuf_iterator:
/// single-pass, decoded as it is read).
template <class It, class Sent,
          std::enable_if_t<detail::is_byte_v<typename std::iterator_traits<It>::value_type> &&
                               !std::is_integral_v<Sent> && !detail::is_dialect_v<Sent>,
                           int> = 0>
constexpr code_point_view<It, Sent> code_points(It first, Sent last) {
  return {first, last};
}

/// The code points of contiguous bytes (a range, not a temporary container) read in a dialect
/// (code_points(bytes, dialect::wtf8{})): surrogates and legacy values come out as read.
template <
    class R, class Dialect,
    std::enable_if_t<detail::is_byte_range<detail::uncvref_t<R>>::value && detail::is_dialect_v<Dialect>, int> = 0>
constexpr auto code_points(R&& bytes, Dialect) noexcept {
  using B = detail::uncvref_t<R>;
  static_assert(std::is_lvalue_reference_v<R> || detail::is_borrowed_bytes_v<B>,
                "code_points of a temporary container would dangle: keep the container in a variable");
  const auto s = detail::as_span(bytes);
  return code_point_view<decltype(s.data), decltype(s.data), Dialect>(s.data, s.data + s.size);
}

/// The code points of the bytes [first, last) of any iterator pair, read in a dialect.
template <class It, class Sent, class Dialect,
          std::enable_if_t<detail::is_byte_v<typename std::iterator_traits<It>::value_type> &&
                               !std::is_integral_v<Sent> && detail::is_dialect_v<Dialect>,
                           int> = 0>
constexpr code_point_view<It, Sent, Dialect> code_points(It first, Sent last, Dialect) {
  return {first, last};
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if UTF8DFA_HAS_RANGES_VIEWS
namespace std::ranges {
/// The view holds only iterators, so its iterators stay valid after it is gone.
template <class It, class Sent, class Dialect>
inline constexpr bool enable_borrowed_range<utf8dfa::code_point_view<It, Sent, Dialect>> = true;
}  // namespace std::ranges
#endif

#endif
