// utf8dfa: code_point_iterator, a char32_t iterator over UTF-8 bytes.
//
// It yields the segmentation of decode_next: one code point per well-formed character and one
// U+FFFD per maximal ill-formed subpart. Backwards it yields the same sequence in reverse order
// (decode_prev's segmentation). Over contiguous bytes it runs detail::decode_at / decode_before;
// over any other iterator it runs the same DFA (detail::step) one byte at a time, never reading
// a byte before comparing its position with the end, and never consuming the byte that ends an
// ill-formed subpart (so single-pass iterators such as std::istreambuf_iterator work).
#ifndef UTF8DFA_ITERATOR_HPP
#define UTF8DFA_ITERATOR_HPP

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

#include "decode.hpp"
#include "detail/bytes.hpp"
#include "detail/dfa.hpp"
#include "dialect.hpp"
#include "error.hpp"

#if UTF8DFA_HAS_RANGES
#include <memory>  // std::to_address
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

template <class It>
using iter_category_t = typename std::iterator_traits<It>::iterator_category;

/// At least a forward iterator (multi-pass: positions can be kept and revisited).
template <class It>
inline constexpr bool is_forward_iter_v = std::is_base_of_v<std::forward_iterator_tag, iter_category_t<It>>;

/// At least a bidirectional iterator.
template <class It>
inline constexpr bool is_bidi_iter_v = std::is_base_of_v<std::bidirectional_iterator_tag, iter_category_t<It>>;

/// Iterators over contiguous memory, read through a pointer: any pointer, and in C++20 every
/// std::contiguous_iterator.
template <class It>
inline constexpr bool is_contiguous_iter_v =
#if UTF8DFA_HAS_RANGES
    std::contiguous_iterator<It>;
#else
    std::is_pointer_v<It>;
#endif

template <class It>
constexpr auto to_pointer(const It& it) noexcept {
#if UTF8DFA_HAS_RANGES
  return std::to_address(it);
#else
  return it;
#endif
}

/// Decodes the character or maximal ill-formed subpart at `it` (it != last) and moves `it` past
/// it, on machine M entering in boundary state `at`: decode_iter, through a pointer when the input
/// is contiguous with a known end.
template <class M, class It, class Sent>
constexpr decoded decode_advance(It& it, const Sent& last, typename M::state& at) {
  if constexpr (is_contiguous_iter_v<It> && std::is_same_v<It, Sent>) {
    const decoded d = decode_with<M>(to_pointer(it), static_cast<std::size_t>(last - it), 0, at);
    it += d.length;
    return d;
  } else {
    return decode_iter<M>(it, last, at);
  }
}

/// The same in strict UTF-8.
template <class It, class Sent>
constexpr decoded decode_advance(It& it, const Sent& last) {
  utf8_machine::state at = utf8_machine::start;
  return decode_advance<utf8_machine>(it, last, at);
}

/// The segment that ends at `pos` (first != pos), treating [first, pos) as the whole input, as
/// decode_before does; moves `pos` to its start.
template <class It>
constexpr decoded decode_retreat(const It& first, It& pos) {
  if constexpr (is_contiguous_iter_v<It>) {
    const decoded d = decode_before(to_pointer(first), static_cast<std::size_t>(pos - first));
    pos -= d.length;
    return d;
  } else {
    // The last non-continuation byte within four bytes starts the segment if decoding from it
    // reaches `pos`; otherwise the segment is the single byte before `pos`.
    It j = pos;
    for (int k = 0; k < 4 && j != first; ++k) {
      --j;
      if (!is_continuation(octet(*j))) {
        It t = j;
        const decoded d = decode_advance(t, pos);
        if (t == pos) {
          pos = j;
          return d;
        }
        break;
      }
    }
    It start = pos;
    --start;
    It t = start;
    const decoded d = decode_advance(t, pos);
    pos = start;
    return d;
  }
}

}  // namespace detail

/// A char32_t iterator over the UTF-8 bytes [first, last): one code point per character, one
/// U+FFFD per maximal ill-formed subpart. Bidirectional over bidirectional byte iterators (going
/// back needs the `first` bound), forward over forward ones, single-pass over input iterators.
/// `Sent` may differ from `It` (e.g. null_sentinel_t for C strings). `Dialect` (dialect.hpp) reads
/// the bytes in another dialect; those iterators carry the DFA's boundary state from character to
/// character and are bidirectional only over contiguous bytes (forward over other multi-pass ones).
template <class It, class Sent = It, class Dialect = dialect::utf8>
class code_point_iterator {
  static_assert(detail::is_byte_v<typename std::iterator_traits<It>::value_type>,
                "code_point_iterator reads 1-byte elements (char, unsigned char, char8_t, std::byte)");
  static_assert(detail::is_dialect_v<Dialect>, "Dialect is one of the utf8dfa::dialect tags");
  static constexpr bool strict = detail::is_strict_v<Dialect>;
  using machine = detail::machine_of<Dialect>;
  static constexpr bool multipass = detail::is_forward_iter_v<It>;
  static constexpr bool bidirectional = detail::is_bidi_iter_v<It> && (strict || detail::is_contiguous_iter_v<It>);

 public:
  using value_type = char32_t;
  using reference = char32_t;
  using pointer = void;
  using difference_type = std::ptrdiff_t;
  using iterator_category =
      std::conditional_t<bidirectional, std::bidirectional_iterator_tag,
                         std::conditional_t<multipass, std::forward_iterator_tag, std::input_iterator_tag>>;
  using iterator_concept = iterator_category;

  constexpr code_point_iterator() = default;

  /// An iterator at the start of [pos, last); it cannot move before `pos`. For input iterators
  /// this reads the first character.
  constexpr code_point_iterator(It pos, Sent last) : first_(pos), pos_(pos), last_(last) { load(); }

  /// An iterator at `pos`, a character boundary in [first, last), that can move back to `first`.
  template <bool M = multipass, std::enable_if_t<M, int> = 0>
  constexpr code_point_iterator(It first, It pos, Sent last) : first_(first), pos_(pos), last_(last) {
    if constexpr (!strict) {  // the boundary state at pos: what the character before it left
      if (pos_ == last_) {    // the end: nothing to decode
      } else if constexpr (detail::is_contiguous_iter_v<It>) {
        at_ = detail::boundary_before<Dialect>(detail::to_pointer(first_), static_cast<std::size_t>(pos_ - first_));
      } else {
        for (It t = first_; t != pos_;) detail::decode_advance<machine>(t, pos_, at_);
      }
    }
    load();
  }

  /// The current code point, or U+FFFD for an ill-formed subpart. Not at the end.
  constexpr char32_t operator*() const noexcept { return cp_; }

  /// Multi-pass iterators: where the current character starts (the end when at the end).
  /// Input iterators: the position after the current character (the bytes consumed so far).
  constexpr It base() const { return pos_; }

  /// Bytes of the current character or ill-formed subpart (1..4); 0 at the end.
  constexpr std::size_t length() const noexcept { return len_; }

  /// Steps to the next character; at the end it stays there.
  constexpr code_point_iterator& operator++() {
    if constexpr (!strict) at_ = after_;
    if constexpr (multipass) {
      if constexpr (detail::is_contiguous_iter_v<It> ||
                    std::is_base_of_v<std::random_access_iterator_tag, detail::iter_category_t<It>>)
        pos_ += static_cast<difference_type>(len_);
      else
        for (std::uint8_t k = 0; k < len_; ++k) ++pos_;
    }
    load();
    return *this;
  }

  constexpr code_point_iterator operator++(int) {
    code_point_iterator old = *this;
    ++*this;
    return old;
  }

  /// Steps back one character; at the first position it stays there (as ++ stays at the end).
  template <bool B = bidirectional, std::enable_if_t<B, int> = 0>
  constexpr code_point_iterator& operator--() {
    if (pos_ == first_) return *this;
    if constexpr (strict) {
      const decoded d = detail::decode_retreat(first_, pos_);
      cp_ = d.code_point;
      len_ = d.length;
    } else {
      const auto* base = detail::to_pointer(first_);
      const auto end = static_cast<std::size_t>(pos_ - first_);
      const decoded d = detail::decode_before_in<Dialect>(base, end);
      pos_ -= static_cast<difference_type>(d.length);
      cp_ = d.code_point;
      len_ = d.length;
      after_ = at_;
      at_ = detail::boundary_before<Dialect>(base, end - d.length);
    }
    return *this;
  }

  template <bool B = bidirectional, std::enable_if_t<B, int> = 0>
  constexpr code_point_iterator operator--(int) {
    code_point_iterator old = *this;
    --*this;
    return old;
  }

  /// Multi-pass: same position. Single-pass: both at the end or both not (like istreambuf_iterator).
  friend constexpr bool operator==(const code_point_iterator& a, const code_point_iterator& b) {
    if constexpr (multipass)
      return a.pos_ == b.pos_;
    else
      return (a.len_ == 0) == (b.len_ == 0);
  }
  friend constexpr bool operator!=(const code_point_iterator& a, const code_point_iterator& b) { return !(a == b); }

  // Comparisons with a sentinel of another type.
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator==(const code_point_iterator& a, const S& s) {
    return a.at(s);
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator==(const S& s, const code_point_iterator& a) {
    return a.at(s);
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator!=(const code_point_iterator& a, const S& s) {
    return !a.at(s);
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator!=(const S& s, const code_point_iterator& a) {
    return !a.at(s);
  }

 private:
  constexpr bool at(const Sent& s) const {
    if constexpr (multipass)
      return pos_ == s;
    else
      return len_ == 0;
  }

  // Decodes the character at pos_ (multi-pass: pos_ stays at its start; single-pass: pos_ moves past it).
  constexpr void load() {
    if (pos_ == last_) {
      cp_ = 0;
      len_ = 0;
      return;
    }
    decoded d{};
    if constexpr (strict) {
      if constexpr (multipass) {
        It t = pos_;
        d = detail::decode_advance(t, last_);
      } else {
        d = detail::decode_advance(pos_, last_);
      }
    } else {
      typename machine::state st = at_;
      if constexpr (multipass) {
        It t = pos_;
        d = detail::decode_advance<machine>(t, last_, st);
      } else {
        d = detail::decode_advance<machine>(pos_, last_, st);
      }
      after_ = st;
    }
    cp_ = d.code_point;
    len_ = d.length;
  }

  It first_{};
  It pos_{};
  Sent last_{};
  char32_t cp_ = 0;
  std::uint8_t len_ = 0;
  std::uint8_t at_ = 0;     // dialects: the boundary state at pos_ (strict UTF-8 has one)
  std::uint8_t after_ = 0;  // dialects: the boundary state after the current character
};

/// A sentinel for null-terminated byte strings: a pointer equals it when it points at a zero byte.
/// Lets C strings be iterated without a strlen pass.
struct null_sentinel_t {
  template <class T, detail::enable_if_byte<T> = 0>
  friend constexpr bool operator==(const T* p, null_sentinel_t) noexcept {
    return detail::octet(*p) == 0;
  }
  template <class T, detail::enable_if_byte<T> = 0>
  friend constexpr bool operator==(null_sentinel_t, const T* p) noexcept {
    return detail::octet(*p) == 0;
  }
  template <class T, detail::enable_if_byte<T> = 0>
  friend constexpr bool operator!=(const T* p, null_sentinel_t) noexcept {
    return detail::octet(*p) != 0;
  }
  template <class T, detail::enable_if_byte<T> = 0>
  friend constexpr bool operator!=(null_sentinel_t, const T* p) noexcept {
    return detail::octet(*p) != 0;
  }
};

/// The null_sentinel_t value.
inline constexpr null_sentinel_t null_sentinel{};

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
