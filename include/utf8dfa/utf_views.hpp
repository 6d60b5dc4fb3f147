// utf8dfa: as_utf8, as_utf16, as_utf32: lazy views that transcode between any two UTF forms.
//
//   for (char16_t u : utf8dfa::as_utf16(bytes)) ...          // UTF-8 in, UTF-16 out
//   std::string s(v.begin(), v.end());                        // v = utf8dfa::as_utf8(u16string)
//
// The input is any range of UTF-8 (char, char8_t, unsigned char, std::byte), UTF-16 (char16_t, and
// wchar_t where it is 2 bytes) or UTF-32 (char32_t, wchar_t where it is 4 bytes) code units, an
// iterator pair, or a null-terminated string (read up to its terminator, without a length pass).
// Each ill-formed subpart becomes one replacement character, exactly as the bulk `_lossy`
// functions do: a maximal ill-formed subpart of UTF-8 (the well-formed characters of contiguous
// input inline, by the byte ranges of the DFA's grammar; everything else by the one DFA, through
// code_point_iterator's decode_advance / decode_retreat), an unpaired UTF-16 surrogate, a UTF-32
// surrogate or value above 0x10FFFF. Under `skip` each ill-formed subpart is dropped (nothing is
// produced for it). Under `strict` the iteration ends at the first error, and the
// iterator that reached the end says where and why. Views over bidirectional input are
// bidirectional (replace policies), over forward input forward, over input iterators single-pass.
// This header also lets null_sentinel end UTF-16 and UTF-32 strings.
#ifndef UTF8DFA_UTF_VIEWS_HPP
#define UTF8DFA_UTF_VIEWS_HPP

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

#include "decode.hpp"
#include "detail/bytes.hpp"
#include "detail/dfa.hpp"
#include "detail/scalar.hpp"
#include "error.hpp"
#include "iterator.hpp"
#include "policy.hpp"
#include "views.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// An ill-formed subpart met by a transcoding view's iterator (error()): where it starts, in input
/// code units from the start of the view's input, its length in code units (for `incomplete`, the
/// units the input ended with), and why. False (code == none) on a well-formed character.
struct input_error {
  std::size_t offset;  ///< input code units before the subpart
  std::size_t length;  ///< code units of the subpart (0 when there is none)
  error_code code;     ///< error_code::none for a well-formed character
  constexpr explicit operator bool() const noexcept { return code != error_code::none; }
};

namespace detail {

/// The UTF form of a code unit type: 8, 16 or 32; 0 for anything else.
template <class T, class U = std::remove_cv_t<T>>
inline constexpr int utf_form_v = is_byte_v<U>                                                                    ? 8
                                  : std::is_same_v<U, char16_t> || (std::is_same_v<U, wchar_t> && sizeof(U) == 2) ? 16
                                  : std::is_same_v<U, char32_t> || (std::is_same_v<U, wchar_t> && sizeof(U) == 4) ? 32
                                                                                                                  : 0;

template <class T>
inline constexpr bool is_code_unit_v = utf_form_v<T> != 0;

/// An iterator's legacy category (iterator_traits), or void where it has none (C++20 iterators that
/// are not C++17 iterators, e.g. move-only input iterators such as std::views::istream's).
template <class It, class = void>
struct legacy_category {
  using type = void;
};
template <class It>
struct legacy_category<It, std::void_t<typename std::iterator_traits<It>::iterator_category>> {
  using type = typename std::iterator_traits<It>::iterator_category;
};
template <class It, class Tag>
inline constexpr bool legacy_at_least_v = std::is_base_of_v<Tag, typename legacy_category<It>::type>;

/// What a view's iterator can do with the input's iterators: the better of the C++17 category and
/// (C++20) the iterator concept (a std::views::transform iterator is a C++17 input iterator whose
/// concept may be random access).
#if UTF8DFA_HAS_RANGES
template <class It>
inline constexpr bool view_forward_v = std::forward_iterator<It> || legacy_at_least_v<It, std::forward_iterator_tag>;
template <class It>
inline constexpr bool view_bidi_v =
    std::bidirectional_iterator<It> || legacy_at_least_v<It, std::bidirectional_iterator_tag>;
template <class It>
inline constexpr bool view_random_v =
    std::random_access_iterator<It> || legacy_at_least_v<It, std::random_access_iterator_tag>;
/// The value type of an iterator (C++20: std::iter_value_t, which needs no iterator_traits).
template <class It>
using view_unit_t = std::remove_cv_t<std::iter_value_t<It>>;
#else
template <class It>
inline constexpr bool view_forward_v = legacy_at_least_v<It, std::forward_iterator_tag>;
template <class It>
inline constexpr bool view_bidi_v = legacy_at_least_v<It, std::bidirectional_iterator_tag>;
template <class It>
inline constexpr bool view_random_v = legacy_at_least_v<It, std::random_access_iterator_tag>;
template <class It>
using view_unit_t = std::remove_cv_t<typename std::iterator_traits<It>::value_type>;
#endif

/// A UTF-16 or UTF-32 code unit's value (wchar_t may be signed: a negative value reads as above
/// 0x10FFFF, an error).
template <class T>
constexpr char32_t wide_unit(T c) noexcept {
  if constexpr (sizeof(T) == 2)
    return static_cast<char16_t>(c);
  else
    return static_cast<char32_t>(static_cast<std::make_unsigned_t<T>>(c));
}

constexpr bool is_surrogate(char32_t c) noexcept {
  return c >= 0xD800 && c <= 0xDFFF;
}

/// Decodes the UTF-16 character at `it` (it != last) and moves `it` past it, as decode_utf16_at
/// does: a high surrogate that ends the input is `incomplete`, any other unpaired surrogate one
/// `surrogate` error. A unit that does not complete a pair is not consumed.
template <class It, class Sent>
constexpr decoded utf16_advance(It& it, const Sent& last) {
  const char32_t c = wide_unit(*it);
  ++it;
  if (!is_surrogate(c)) return {c, 1, error_code::none};
  if (c <= 0xDBFF) {
    if (it == last) return {replacement_character, 1, error_code::incomplete};
    const char32_t d = wide_unit(*it);
    if (d >= 0xDC00 && d <= 0xDFFF) {
      ++it;
      return {0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00), 2, error_code::none};
    }
  }
  return {replacement_character, 1, error_code::surrogate};
}

/// The UTF-16 character that ends at `pos` (a character boundary after `first`); moves `pos` to its
/// start. The same segmentation and kinds as utf16_advance read forwards.
template <class It, class Sent>
constexpr decoded utf16_retreat(const It& first, It& pos, const Sent& last) {
  const It end = pos;
  --pos;
  const char32_t c = wide_unit(*pos);
  if (!is_surrogate(c)) return {c, 1, error_code::none};
  if (c >= 0xDC00) {
    if (pos != first) {
      It q = pos;
      --q;
      const char32_t h = wide_unit(*q);
      if (h >= 0xD800 && h <= 0xDBFF) {
        pos = q;
        return {0x10000 + ((h - 0xD800) << 10) + (c - 0xDC00), 2, error_code::none};
      }
    }
    return {replacement_character, 1, error_code::surrogate};
  }
  // A high surrogate before a boundary is unpaired; incomplete only where the input ends.
  return {replacement_character, 1, end == last ? error_code::incomplete : error_code::surrogate};
}

/// One UTF-32 unit, as decode_utf32_at reads it.
constexpr decoded utf32_unit(char32_t c) noexcept {
  if (is_surrogate(c)) return {replacement_character, 1, error_code::surrogate};
  if (c > 0x10FFFF) return {replacement_character, 1, error_code::too_large};
  return {c, 1, error_code::none};
}

/// The character at `it` (it != last) in UTF form W; moves `it` past it.
template <int W, class It, class Sent>
constexpr decoded utf_advance(It& it, const Sent& last) {
  if constexpr (W == 8) {
    return decode_advance(it, last);
  } else if constexpr (W == 16) {
    return utf16_advance(it, last);
  } else {
    const char32_t c = wide_unit(*it);
    ++it;
    return utf32_unit(c);
  }
}

/// The character that ends at the boundary `pos` (pos != first) in UTF form W; moves `pos` to its
/// start. Error kinds are the forward walk's (an incomplete UTF-8 sequence that the input goes on
/// after is re-read forwards for its kind).
template <int W, class It, class Sent>
constexpr decoded utf_retreat(const It& first, It& pos, const Sent& last) {
  if constexpr (W == 8) {
    const It end = pos;
    decoded d = decode_retreat(first, pos);
    if (d.error == error_code::incomplete && !(end == last)) {
      It t = pos;
      const decoded whole = decode_advance(t, last);
      if (whole.length == d.length) d.error = whole.error;
    }
    return d;
  } else if constexpr (W == 16) {
    return utf16_retreat(first, pos, last);
  } else {
    --pos;
    return utf32_unit(wide_unit(*pos));
  }
}

/// The range of the second byte of UTF8-3 and UTF8-4 by their lead byte (E0..F4), read off the
/// grammar: the views' fast path checks a character by these ranges (the third and fourth bytes
/// are UTF8-tail) and leaves anything else to the DFA.
struct second_byte_ranges {
  static constexpr unsigned first_lead = 0xE0, leads = 0x15;  // E0..F4
  std::uint8_t lo[leads]{}, hi[leads]{};
  std::uint8_t tails[leads]{};
};

constexpr second_byte_ranges build_second_byte_ranges() {
  second_byte_ranges t{};
  for (const sequence_rule& r : grammar)
    if (r.tails >= 2)
      for (unsigned b = r.lead.lo; b <= r.lead.hi; ++b) {
        t.lo[b - second_byte_ranges::first_lead] = r.tail[0].lo;
        t.hi[b - second_byte_ranges::first_lead] = r.tail[0].hi;
        t.tails[b - second_byte_ranges::first_lead] = r.tails;
      }
  return t;
}

inline constexpr second_byte_ranges second_byte = build_second_byte_ranges();

/// What the fast path assumes of the grammar: UTF8-2 is C2..DF then UTF8-tail, UTF8-3 has the leads
/// E0..EF and UTF8-4 F0..F4 (one rule each covers every one of them), and only the second byte's
/// range varies.
constexpr bool fast_path_fits_grammar() {
  if (!(grammar[1].lead.lo == 0xC2 && grammar[1].lead.hi == 0xDF && grammar[1].tails == 1 &&
        grammar[1].tail[0].lo == utf8_tail.lo && grammar[1].tail[0].hi == utf8_tail.hi))
    return false;
  for (unsigned k = 0; k < second_byte_ranges::leads; ++k)
    if (second_byte.tails[k] != (k < 0x10 ? 2 : 3)) return false;
  for (const sequence_rule& r : grammar)
    for (unsigned k = 1; k < r.tails; ++k)
      if (r.tail[k].lo != utf8_tail.lo || r.tail[k].hi != utf8_tail.hi) return false;
  return utf8_tail.lo == 0x80 && utf8_tail.hi == 0xBF;
}
static_assert(fast_path_fits_grammar(), "the views' fast path reads the grammar's byte ranges as laid out in RFC 3629");

/// Of the 8 bytes in `w` (code units of `unit_bytes` each, in memory order), how many lead that each
/// stand for themselves as one output unit: ASCII (`ascii`), or any unit but a surrogate (UTF-16
/// into UTF-16 or UTF-32). Where the host's byte order or compiler is not known, 0 unless all are.
template <std::size_t unit_bytes, bool ascii>
UTF8DFA_ALWAYS_INLINE unsigned leading_identity_units(std::uint64_t w) noexcept {
  constexpr unsigned lanes = 8 / unit_bytes;
  std::uint64_t m;  // the high bit of each lane that is not one
  if constexpr (ascii) {
    constexpr std::uint64_t keep = unit_bytes == 1   ? 0x8080808080808080ull
                                   : unit_bytes == 2 ? 0xFF80FF80FF80FF80ull
                                                     : 0xFFFFFF80FFFFFF80ull;
    m = w & keep;
  } else {
    // A lane is a surrogate where (unit & F800) == D800: t is 0 there; the lowest zero lane is
    // found exactly (the borrow runs only upwards from it).
    const std::uint64_t t = (w & 0xF800F800F800F800ull) ^ 0xD800D800D800D800ull;
    m = (t - 0x0001000100010001ull) & ~t & 0x8000800080008000ull;
  }
  if (m == 0) return lanes;
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return static_cast<unsigned>(__builtin_ctzll(m)) / (8 * unit_bytes);
#else
  return 0;
#endif
}

template <class P>
inline constexpr bool is_view_policy_v = std::is_same_v<P, strict> || std::is_same_v<P, replace> ||
                                         std::is_same_v<P, assume_valid> || std::is_same_v<P, skip>;

/// The replacement a view's iterator holds (none is ever used under skip).
template <class P>
constexpr char32_t view_replacement([[maybe_unused]] const P& policy) noexcept {
  if constexpr (skips_errors_v<P>)
    return replacement_character;
  else
    return policy.replacement_value();
}

}  // namespace detail

/// The iterator of a transcoding view: code units of type Out (char, char16_t or char32_t) from the
/// code units [first, last) of another (or the same) UTF form. Policy: replace (one replacement per
/// ill-formed subpart), assume_valid (the same), skip (nothing for an ill-formed subpart: the
/// iterator never stands on one), or strict (the iteration ends at the first error).
/// Bidirectional over bidirectional input unless strict, forward over forward input, single-pass
/// over input iterators (then move-only where the input's iterator is, e.g. std::views::istream's:
/// it reads each character as it steps to it, and `it++` returns nothing). Besides the values:
/// base(), length(), error(), offset().
/// Strict is forward only: its iteration ends at the first error, so its end is a position that
/// only a walk from the start finds; stepping back from the input's end would yield the characters
/// after the error, which the forward walk never reaches, and finding that end first would make
/// end() linear instead of constant time, which ranges require of it.
/// It holds the current character (its output units, input length and error), never more (over
/// contiguous UTF-8, also where the input's last 3 bytes start; over contiguous input, how many of
/// the next units are ASCII, or UTF-16 outside the surrogates into UTF-16 or UTF-32: those it steps
/// over without decoding, still one unit per increment).
template <class Out, class It, class Sent = It, class Policy = replace>
class utf_iterator {
  using in_unit = detail::view_unit_t<It>;
  static constexpr int in_form = detail::utf_form_v<in_unit>;
  static constexpr int out_form = detail::utf_form_v<Out>;
  static_assert(in_form != 0, "the input's code units are UTF-8 (1-byte), UTF-16 (char16_t) or UTF-32 (char32_t)");
  static_assert(std::is_same_v<Out, char> || std::is_same_v<Out, char16_t> || std::is_same_v<Out, char32_t>,
                "the output code unit is char, char16_t or char32_t");
  static_assert(detail::is_view_policy_v<Policy>, "Policy is strict, replace, assume_valid or skip");
  static constexpr bool stops = Policy::stops_on_error;
  static constexpr bool skips = detail::skips_errors_v<Policy>;
  static constexpr bool multipass = detail::view_forward_v<It>;
  static constexpr bool bidirectional = detail::view_bidi_v<It> && !stops;
  static constexpr bool random_access = detail::view_random_v<It> || detail::is_contiguous_iter_v<It>;
  // Single-pass iterators keep no `first` (the input's iterator may be move-only).
  struct no_first {};
  using first_type = std::conditional_t<multipass, It, no_first>;
  // The current character's units, packed: unit k at bits [k * bits, (k + 1) * bits).
  static constexpr unsigned bits = out_form == 32 ? 0 : static_cast<unsigned>(out_form);
  using packed = std::conditional_t<out_form == 32, char32_t, std::uint32_t>;
  // Contiguous UTF-8 whose end is a pointer too: the fast path of fill() applies.
  static constexpr bool fast_utf8 = in_form == 8 && detail::is_contiguous_iter_v<It> && std::is_same_v<It, Sent>;
  struct no_limit {};
  using limit = std::conditional_t<fast_utf8, It, no_limit>;
  // Contiguous input whose end is a pointer too: after a character that is one unit in and the same
  // unit out, the iterator learns from one 8-byte load how many of the next units are such too
  // (run_), and steps over those one unit at a time without decoding them.
  static constexpr bool runs = detail::is_contiguous_iter_v<It> && std::is_same_v<It, Sent>;
  // Which units stand for themselves: ASCII, or (UTF-16 into UTF-16 or UTF-32) any non-surrogate.
  static constexpr bool ascii_runs = !(in_form == 16 && out_form != 8);

 public:
  using value_type = Out;
  using reference = Out;
  using pointer = void;
  using difference_type = std::ptrdiff_t;
  using iterator_category =
      std::conditional_t<bidirectional, std::bidirectional_iterator_tag,
                         std::conditional_t<multipass, std::forward_iterator_tag, std::input_iterator_tag>>;
  using iterator_concept = iterator_category;

  constexpr utf_iterator() = default;

  /// An iterator at the start of [pos, last); it cannot move before `pos`. For input iterators this
  /// reads the first character.
  UTF8DFA_ALWAYS_INLINE constexpr utf_iterator(It pos, Sent last, Policy policy = {})
      : first_(first_of(pos)), pos_(std::move(pos)), last_(std::move(last)), repl_(detail::view_replacement(policy)) {
    start();
  }

  /// An iterator at `pos`, a character boundary in [first, last) (or last), that can move back to
  /// `first`; offsets count from `first`.
  template <bool M = multipass, std::enable_if_t<M, int> = 0>
  UTF8DFA_ALWAYS_INLINE constexpr utf_iterator(It first, It pos, Sent last, Policy policy = {})
      : first_(first), pos_(pos), last_(last), repl_(detail::view_replacement(policy)) {
    start();
  }

  /// The current code unit. Not at the end.
  UTF8DFA_ALWAYS_INLINE constexpr Out operator*() const noexcept {
    if constexpr (out_form == 32)
      return units_;
    else
      return static_cast<Out>(units_ & ((1u << bits) - 1));
  }

  /// Multi-pass: where the current character starts in the input (at the end: the end, or under
  /// strict the start of the ill-formed subpart that ended the iteration). Single-pass: the
  /// position after the current character (the input consumed so far).
  constexpr It base() const { return pos_; }

  /// Input code units of the current character or ill-formed subpart; 0 at the end.
  constexpr std::size_t length() const noexcept { return n_ == 0 ? 0 : len_; }

  /// The ill-formed subpart the current unit replaces (replace), or the one that ended the
  /// iteration (strict, at the end); code == error_code::none otherwise.
  constexpr input_error error() const {
    if (err_ == error_code::none) return {offset(), 0, error_code::none};
    return {offset(), len_, err_};
  }

  /// Input code units before the current character (at the end: before the end, or the error);
  /// counted from the view's start (linear time over multi-pass iterators that are not random-access).
  constexpr std::size_t offset() const {
    if constexpr (multipass)
#if UTF8DFA_HAS_RANGES_VIEWS
      return static_cast<std::size_t>(std::ranges::distance(first_, pos_));
#else
      return static_cast<std::size_t>(std::distance(first_, pos_));
#endif
    else
      return off_;
  }

  /// The index of the current unit within its character's encoding (0 for the first).
  constexpr std::size_t unit_index() const noexcept {
    return n_ == 0 ? 0u : n_ - 1u - rem_;
  }

  /// Steps to the next code unit; at the end it stays there.
  UTF8DFA_ALWAYS_INLINE constexpr utf_iterator& operator++() {
    // The next unit of the same character: common in UTF-8 output, so tested first there.
    if constexpr (out_form == 8) {
      if (UTF8DFA_LIKELY(rem_ != 0)) {  // (laid out straight too)
        --rem_;
        units_ >>= bits;
        return *this;
      }
    }
    // The next input unit is known to be its own output unit.
    if constexpr (runs) {
      if (UTF8DFA_LIKELY(run_ != 0)) {  // (laid out straight: a run's units cost one branch each)
        --run_;
        ++pos_;
        if constexpr (in_form == 8)
          units_ = first_byte(detail::to_pointer(pos_));
        else
          units_ = static_cast<packed>(detail::wide_unit(*pos_));
        return *this;
      }
    }
    // The low half of a surrogate pair: rare.
    if constexpr (out_form == 16) {
      if (UTF8DFA_UNLIKELY(rem_ != 0)) {
        --rem_;
        units_ >>= bits;
        return *this;
      }
    }
    if constexpr (!multipass || stops)
      if (n_ == 0) return *this;  // the end, or stopped at an error: stay
    // (At the end len_ is 0 and fill() finds the end again.)
    if constexpr (multipass) {
      if constexpr (random_access)
        pos_ += static_cast<difference_type>(len_);
      else
        for (std::uint8_t i = 0; i < len_; ++i) ++pos_;
    } else {
      off_ += len_;
    }
    fill();
    return *this;
  }

  /// The iterator before the step; nothing where the input's iterator cannot be copied.
  constexpr auto operator++(int) {
    if constexpr (std::is_copy_constructible_v<It>) {
      utf_iterator old = *this;
      ++*this;
      return old;
    } else {
      ++*this;
    }
  }

  /// Steps back one code unit; at the first position it stays there.
  template <bool B = bidirectional, std::enable_if_t<B, int> = 0>
  constexpr utf_iterator& operator--() {
    if constexpr (runs) run_ = 0;
    if (rem_ + 1 < n_) {
      ++rem_;
      units_ = full_ >> ((n_ - 1u - rem_) * bits);
      return *this;
    }
    if (pos_ == first_) return *this;
    const It at = pos_;
    decoded d = detail::utf_retreat<in_form>(first_, pos_, last_);
    if constexpr (skips) {
      while (d.error != error_code::none) {  // dropped: the character before it
        if (pos_ == first_) {                // only dropped subparts before: stay
          pos_ = at;
          return *this;
        }
        d = detail::utf_retreat<in_form>(first_, pos_, last_);
      }
    } else {
      (void)at;
    }
    hold(d);
    rem_ = 0;
    units_ = full_ >> ((n_ - 1u) * bits);
    return *this;
  }

  template <bool B = bidirectional, std::enable_if_t<B, int> = 0>
  constexpr utf_iterator operator--(int) {
    utf_iterator old = *this;
    --*this;
    return old;
  }

  /// Both at the end (or stopped), or both at the same unit of the same character. Single-pass:
  /// both at the end or both not.
  friend constexpr bool operator==(const utf_iterator& a, const utf_iterator& b) {
    if (a.n_ == 0 || b.n_ == 0) return a.n_ == b.n_;
    if constexpr (multipass)
      return a.pos_ == b.pos_ && a.rem_ == b.rem_;
    else
      return true;
  }
  friend constexpr bool operator!=(const utf_iterator& a, const utf_iterator& b) {
    return !(a == b);
  }

  // Comparisons with a sentinel of another type: true at the end (or stopped at an error).
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator==(const utf_iterator& a, const S&) {
    return a.n_ == 0;
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator==(const S&, const utf_iterator& a) {
    return a.n_ == 0;
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator!=(const utf_iterator& a, const S&) {
    return a.n_ != 0;
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator!=(const S&, const utf_iterator& a) {
    return a.n_ != 0;
  }

 private:
  static constexpr first_type first_of([[maybe_unused]] const It& pos) {
    if constexpr (multipass)
      return pos;
    else
      return first_type{};
  }

  // Holds one character with its input length and error: its units, or its replacement's.
  UTF8DFA_ALWAYS_INLINE constexpr void hold(const decoded& d) {
    const char32_t c = d.error == error_code::none ? d.code_point : repl_;
    len_ = d.length;
    err_ = d.error;
    if constexpr (out_form == 32) {
      units_ = c;
      n_ = 1;
    } else if constexpr (out_form == 16) {
      if (c < 0x10000) {
        units_ = c;
        n_ = 1;
      } else {
        units_ = (0xD7C0 + (c >> 10)) | ((0xDC00 + (c & 0x3FF)) << 16);
        n_ = 2;
      }
    } else {
      if (c < 0x80) {
        units_ = c;
        n_ = 1;
      } else if (c < 0x800) {
        units_ = (0xC0 | (c >> 6)) | ((0x80 | (c & 0x3F)) << 8);
        n_ = 2;
      } else if (c < 0x10000) {
        units_ = (0xE0 | (c >> 12)) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | ((0x80 | (c & 0x3F)) << 16);
        n_ = 3;
      } else {
        units_ = (0xF0 | (c >> 18)) | ((0x80 | ((c >> 12) & 0x3F)) << 8) | ((0x80 | ((c >> 6) & 0x3F)) << 16) |
                 ((0x80u | (c & 0x3F)) << 24);
        n_ = 4;
      }
    }
    rem_ = static_cast<std::uint8_t>(n_ - 1);
    if constexpr (bidirectional) full_ = units_;
  }

  // Holds a well-formed character of L input units (UTF-8 input: its value tells its output length).
  template <int L>
  UTF8DFA_ALWAYS_INLINE constexpr void hold_valid(char32_t c) {
    if constexpr (in_form != 8 || (out_form == 16 && L == 4)) {
      hold({c, static_cast<std::uint8_t>(L), error_code::none});
    } else {
      len_ = L;
      err_ = error_code::none;
      if constexpr (out_form == 32) {
        units_ = c;
        n_ = 1;
      } else if constexpr (out_form == 16) {
        units_ = c;  // L < 4: one unit
        n_ = 1;
      } else if constexpr (L == 1) {
        units_ = c;
        n_ = 1;
      } else if constexpr (L == 2) {
        units_ = (0xC0 | (c >> 6)) | ((0x80 | (c & 0x3F)) << 8);
        n_ = 2;
      } else if constexpr (L == 3) {
        units_ = (0xE0 | (c >> 12)) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | ((0x80 | (c & 0x3F)) << 16);
        n_ = 3;
      } else {
        units_ = (0xF0 | (c >> 18)) | ((0x80 | ((c >> 12) & 0x3F)) << 8) | ((0x80 | ((c >> 6) & 0x3F)) << 16) |
                 ((0x80u | (c & 0x3F)) << 24);
        n_ = 4;
      }
      rem_ = static_cast<std::uint8_t>(n_ - 1);
      if constexpr (bidirectional) full_ = units_;
    }
  }

  // fast_utf8: the positions before lim_ have 4 bytes readable (none when the input is shorter).
  // (The test of the end first: the compiler then sees that a view's end() holds no character.)
  UTF8DFA_ALWAYS_INLINE constexpr void start() {
    if constexpr (fast_utf8) {
      lim_ = last_ - first_ >= 4 ? last_ - 3 : first_;
      if (pos_ == last_) return stop(0, error_code::none);
    }
    fill();
  }

  // The end, or (strict) stopped at an ill-formed subpart of `length` units at pos_.
  constexpr void stop(std::uint8_t length, error_code e) {
    n_ = 0;
    rem_ = 0;
    len_ = length;
    err_ = e;
  }

  // The byte at p of contiguous UTF-8. (Read through unsigned char at run time: a sign-extending
  // load of a plain char would merge into the previous character's register.)
  template <class T>
  UTF8DFA_ALWAYS_INLINE static constexpr std::uint8_t first_byte(const T* p) noexcept {
    if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::octet(*p);
    return *detail::as_uchars(p);
  }

  // After a character of one unit that is its own output unit at pos_: how many units after it are
  // such too, from the 8 bytes after it (none when fewer are left, or in a constant expression).
  UTF8DFA_ALWAYS_INLINE constexpr void scan_run() {
    if constexpr (runs) {
      if (UTF8DFA_IS_CONSTANT_EVALUATED()) return;
      const auto* p = detail::to_pointer(pos_);
      constexpr std::ptrdiff_t lanes = 8 / sizeof(*p);
      if (detail::to_pointer(last_) - p <= lanes) return;
      run_ = static_cast<std::uint8_t>(detail::leading_identity_units<sizeof(*p), ascii_runs>(detail::load64(p + 1)));
    }
  }

  // Contiguous input: what the inline paths leave (ill-formed input, the last bytes of UTF-8) goes to
  // the general decoders out of line, so that the loop that iterates keeps its state in registers.
  UTF8DFA_NOINLINE static constexpr decoded decode_out_of_line(It pos, Sent last) {
    return detail::utf_advance<in_form>(pos, last);
  }

  // Reads from pos_ (multi-pass: pos_ stays; single-pass: pos_ moves past what is read). Under
  // skip, moves past the ill-formed subparts there first.
  UTF8DFA_ALWAYS_INLINE constexpr void fill() {
    for (;;) {
      // The common characters of contiguous input inline; the rest through the general decoders.
      if constexpr (fast_utf8) {
        // While the longest character fits, one test of the bound covers the end too, and the bytes
        // are read without bound checks. Each form is told by compares (its length a predicted
        // branch, not a table load that the next character's position would wait for); anything
        // that is not a well-formed character goes to the DFA below.
        if (UTF8DFA_LIKELY(pos_ < lim_)) {
          const auto* p = detail::to_pointer(pos_);
          const std::uint8_t b0 = first_byte(p);
          if (UTF8DFA_LIKELY(b0 < 0x80)) {
            hold_valid<1>(b0);
            return scan_run();
          }
          const std::uint8_t b1 = detail::octet(p[1]);
          // UTF8-2, both bytes tested at once (one branch).
          const bool lead2 = detail::grammar[1].lead.contains(b0), tail = detail::is_continuation(b1);
          if (UTF8DFA_LIKELY(static_cast<unsigned>(lead2) & static_cast<unsigned>(tail)))
            return hold_valid<2>(((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu));
          // UTF8-3 and UTF8-4: the second byte by its lead's range, the others as UTF8-tail.
          if (const unsigned k = b0 - detail::second_byte_ranges::first_lead; k < detail::second_byte_ranges::leads) {
            const std::uint8_t b2 = detail::octet(p[2]);
            const bool second = detail::second_byte.lo[k] <= b1 && b1 <= detail::second_byte.hi[k];
            const bool third = detail::is_continuation(b2);
            const unsigned v = ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
            if (k < 0x10) {
              if (UTF8DFA_LIKELY(static_cast<unsigned>(second) & static_cast<unsigned>(third)))
                return hold_valid<3>(((b0 & 0x0Fu) << 12) | v);
            } else {
              const std::uint8_t b3 = detail::octet(p[3]);
              const bool fourth = detail::is_continuation(b3);
              if (UTF8DFA_LIKELY(static_cast<unsigned>(second) & static_cast<unsigned>(third) &
                                 static_cast<unsigned>(fourth)))
                return hold_valid<4>(((b0 & 0x07u) << 18) | (v << 6) | (b3 & 0x3Fu));
            }
          }
        } else if (pos_ == last_) {
          return stop(0, error_code::none);
        }
      } else {
        if (pos_ == last_) return stop(0, error_code::none);
      }
      if constexpr (in_form == 8 && detail::is_contiguous_iter_v<It> && !std::is_same_v<It, Sent>) {
        const std::uint8_t b0 = first_byte(detail::to_pointer(pos_));
        if (b0 < 0x80) return hold_valid<1>(b0);
      } else if constexpr (in_form != 8 && detail::is_contiguous_iter_v<It>) {
        const char32_t c = detail::wide_unit(*detail::to_pointer(pos_));
        if (in_form == 32 ? c < 0xD800 : !detail::is_surrogate(c)) {
          hold({c, 1, error_code::none});
          if constexpr (runs) {
            if (!ascii_runs || c < 0x80) scan_run();
          }
          return;
        }
        // A well-formed surrogate pair inline (with the end a pointer too).
        if constexpr (in_form == 16 && runs) {
          if (c <= 0xDBFF && detail::to_pointer(last_) - detail::to_pointer(pos_) >= 2) {
            const char32_t d = detail::wide_unit(detail::to_pointer(pos_)[1]);
            if (UTF8DFA_LIKELY(d >= 0xDC00 && d <= 0xDFFF))
              return hold({0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00), 2, error_code::none});
          }
        }
      }
      decoded d{};
      if constexpr (runs) {
        d = decode_out_of_line(pos_, last_);
        if constexpr (skips) {
          if (d.error != error_code::none) {
            pos_ += d.length;
            continue;
          }
        }
      } else if constexpr (multipass) {
        It t = pos_;
        d = detail::utf_advance<in_form>(t, last_);
        if constexpr (skips) {
          if (d.error != error_code::none) {
            pos_ = t;
            continue;
          }
        }
      } else {
        d = detail::utf_advance<in_form>(pos_, last_);
        if constexpr (skips) {
          if (d.error != error_code::none) {
            off_ += d.length;
            continue;
          }
        }
      }
      if constexpr (stops) {
        if (d.error != error_code::none) return stop(d.length, d.error);
      }
      return hold(d);
    }
  }

  first_type first_{};
  It pos_{};
  Sent last_{};
  std::size_t off_ = 0;  // single-pass: input units consumed before the current character
  char32_t repl_ = replacement_character;
  packed units_ = 0;      // the current character's units from the current one on
  packed full_ = 0;       // bidirectional: all of them
  std::uint8_t n_ = 0;    // units of the current character; 0 at the end (or stopped)
  std::uint8_t rem_ = 0;  // units of it after the current one
  std::uint8_t len_ = 0;  // input units of the current character (stopped: of the ill-formed subpart)
  std::uint8_t run_ = 0;  // runs: units after the current one that are their own output unit
  error_code err_ = error_code::none;
  limit lim_{};  // fast_utf8: see set_limit
};

/// The code units [first, last) transcoded to Out (see utf_iterator), as a range: as_utf8,
/// as_utf16 and as_utf32 make these. In C++20 a std::ranges::view and a borrowed range (it holds
/// only iterators and the replacement).
template <class Out, class It, class Sent = It, class Policy = replace>
class utf_view
#if UTF8DFA_HAS_RANGES_VIEWS
    : public std::ranges::view_interface<utf_view<Out, It, Sent, Policy>>
#endif
{
 public:
  using iterator = utf_iterator<Out, It, Sent, Policy>;
  /// The end: an iterator when It and Sent are one type (a common range), else Sent itself.
  using sentinel = std::conditional_t<std::is_same_v<It, Sent>, iterator, Sent>;

  constexpr utf_view() = default;
  constexpr utf_view(It first, Sent last, Policy policy = {}) : first_(first), last_(last), policy_(policy) {}

  /// The first unit (for single-pass input, reading the first character).
  UTF8DFA_ALWAYS_INLINE constexpr iterator begin() const {
    return iterator(first_, last_, policy_);
  }

  UTF8DFA_ALWAYS_INLINE constexpr sentinel end() const {
    if constexpr (!std::is_same_v<It, Sent>)
      return last_;
    else if constexpr (detail::view_forward_v<It>)
      return iterator(first_, last_, last_, policy_);
    else
      return iterator(last_, last_, policy_);
  }

  /// The input's bounds.
  constexpr It base_begin() const {
    return first_;
  }
  constexpr Sent base_end() const {
    return last_;
  }

 private:
  It first_{};
  Sent last_{};
  Policy policy_{};
};

#if UTF8DFA_HAS_RANGES_VIEWS
/// A std::ranges::view V of code units transcoded to Out, holding V itself (as_utf8, as_utf16 and
/// as_utf32 make these, C++20, for views and ranges that utf_view cannot hold by their iterators:
/// a view passed as a temporary, one that can only be iterated when not const, such as
/// std::views::filter's or std::views::istream's, or one whose iterators are move-only). Its
/// iterators are utf_iterator over V's iterator and sentinel; begin() and end() are const where V
/// can be iterated as const. Over an input-only V (std::views::istream) it is an input range, read
/// as it is iterated: call begin() once. A borrowed range where V is one.
template <class Out, class V, class Policy = replace>
class utf_owning_view : public std::ranges::view_interface<utf_owning_view<Out, V, Policy>> {
  template <class R>
  using iterator_of = utf_iterator<Out, std::ranges::iterator_t<R>, std::ranges::sentinel_t<R>, Policy>;

  template <class R>
  static constexpr iterator_of<R> begin_of(R& r, const Policy& policy) {
    return iterator_of<R>(std::ranges::begin(r), std::ranges::end(r), policy);
  }

  template <class R>
  static constexpr auto end_of(R& r, const Policy& policy) {
    if constexpr (!std::ranges::common_range<R>)
      return std::ranges::end(r);
    else if constexpr (detail::view_forward_v<std::ranges::iterator_t<R>>)
      return iterator_of<R>(std::ranges::begin(r), std::ranges::end(r), std::ranges::end(r), policy);
    else
      return iterator_of<R>(std::ranges::end(r), std::ranges::end(r), policy);
  }

 public:
  using iterator = iterator_of<V>;

  constexpr utf_owning_view() requires std::default_initializable<V>
  = default;
  constexpr explicit utf_owning_view(V base, Policy policy = {}) : base_(std::move(base)), policy_(policy) {}

  /// The first unit (for single-pass input, reading the first character).
  constexpr iterator begin() { return begin_of(base_, policy_); }
  constexpr auto end() { return end_of(base_, policy_); }
  constexpr auto begin() const requires std::ranges::range<const V> { return begin_of(base_, policy_); }
  constexpr auto end() const requires std::ranges::range<const V> { return end_of(base_, policy_); }

  /// The view of the input.
  constexpr V base() const& requires std::copy_constructible<V> { return base_; }
  constexpr V base() && { return std::move(base_); }

 private:
  V base_ = V();
  Policy policy_{};
};
#endif

// ---- null-terminated UTF-16 and UTF-32 strings: null_sentinel for wide code units --------------

/// A pointer to a UTF-16 or UTF-32 unit equals null_sentinel where it points at a zero unit.
template <class T, std::enable_if_t<detail::utf_form_v<T> == 16 || detail::utf_form_v<T> == 32, int> = 0>
constexpr bool operator==(const T* p, null_sentinel_t) noexcept {
  return *p == T{};
}
template <class T, std::enable_if_t<detail::utf_form_v<T> == 16 || detail::utf_form_v<T> == 32, int> = 0>
constexpr bool operator==(null_sentinel_t, const T* p) noexcept {
  return *p == T{};
}
template <class T, std::enable_if_t<detail::utf_form_v<T> == 16 || detail::utf_form_v<T> == 32, int> = 0>
constexpr bool operator!=(const T* p, null_sentinel_t) noexcept {
  return *p != T{};
}
template <class T, std::enable_if_t<detail::utf_form_v<T> == 16 || detail::utf_form_v<T> == 32, int> = 0>
constexpr bool operator!=(null_sentinel_t, const T* p) noexcept {
  return *p != T{};
}

namespace detail {

template <class R>
using range_iter_t = decltype(std::begin(std::declval<const R&>()));
template <class R>
using range_sent_t = decltype(std::end(std::declval<const R&>()));

struct not_a_unit {};

/// The code unit of a range iterated as const with copyable iterators (what utf_view holds), else
/// not_a_unit.
template <class R, class = void>
struct range_unit {
  using type = not_a_unit;
};
template <class R>
struct range_unit<R, std::void_t<range_iter_t<R>, range_sent_t<R>>> {
  using type =
      std::conditional_t<std::is_copy_constructible_v<range_iter_t<R>>, view_unit_t<range_iter_t<R>>, not_a_unit>;
};

template <class B>
inline constexpr bool is_input_of_views_v = !std::is_array_v<B> && !std::is_pointer_v<B> && !is_view_policy_v<B>;

/// Ranges of code units iterated as const (utf_view holds their iterators).
template <class R, class B = uncvref_t<R>>
inline constexpr bool is_const_unit_range_v = is_input_of_views_v<B>&& is_code_unit_v<typename range_unit<B>::type>;

template <class R, class = void>
struct is_contiguous_units : std::false_type {};
template <class R>
struct is_contiguous_units<
    R, std::void_t<decltype(std::data(std::declval<const R&>())), decltype(std::size(std::declval<const R&>()))>>
    : std::bool_constant<std::is_pointer_v<decltype(std::data(std::declval<const R&>()))>> {};

template <class R>
inline constexpr bool is_borrowed_units_v = is_borrowed_bytes_v<R>;

/// A range utf_view can view by its iterators without dangling: an lvalue, or a borrowed range (a
/// view, a span) iterated as const.
template <class R>
inline constexpr bool is_viewable_by_iterators_v = is_const_unit_range_v<R> &&
                                                   (std::is_lvalue_reference_v<R> || is_borrowed_units_v<uncvref_t<R>>);

#if UTF8DFA_HAS_RANGES_VIEWS
/// C++20: an input range of code units (iterated as it is passed: non-const for a non-const lvalue
/// or a temporary).
template <class R>
concept unit_input_range = is_input_of_views_v<uncvref_t<R>> && std::ranges::input_range<R&> &&
    is_code_unit_v<std::remove_cv_t<std::ranges::range_value_t<R&>>>;

/// C++20: the view utf_owning_view holds for R: std::views::all's (a ref_view of an lvalue
/// container, a copy of a view, a view moved in), or a copy of a view that is a const lvalue but can
/// only be iterated when not const (std::views::all cannot take it: it is no range as const).
template <class R>
constexpr auto hold_view(R&& r) {
  if constexpr (std::ranges::viewable_range<R>)
    return std::views::all(static_cast<R&&>(r));
  else
    return uncvref_t<R>(r);
}
template <class R>
using held_view_t = decltype(hold_view(std::declval<R>()));

template <class R>
inline constexpr bool is_holdable_v = std::ranges::viewable_range<R> ||
                                      (std::is_lvalue_reference_v<R> && std::ranges::view<uncvref_t<R>> &&
                                       std::copy_constructible<uncvref_t<R>>);

/// C++20: a range whose held view (held_view_t) is a range of code units.
template <class R>
concept unit_all_range =
    is_input_of_views_v<uncvref_t<R>> && is_holdable_v<R> && std::ranges::input_range<held_view_t<R>> &&
    is_code_unit_v<std::remove_cv_t<std::ranges::range_value_t<held_view_t<R>>>>;

template <class R>
inline constexpr bool is_lvalue_or_view_v = std::is_lvalue_reference_v<R> || std::ranges::view<uncvref_t<R>>;

/// C++20: a range utf_owning_view can hold: an lvalue (through std::views::all: a ref_view, or a copy
/// of a view) or a view passed as a temporary (moved in); not a temporary container (it would
/// dangle, or be moved into the view).
template <class R>
concept unit_ownable_range = unit_all_range<R> && is_lvalue_or_view_v<R>;
#endif

/// Ranges of code units as_utf* take: containers and views of any UTF form (not arrays or pointers,
/// which are null-terminated strings).
template <class R>
inline constexpr bool is_unit_range_v = is_const_unit_range_v<R>
#if UTF8DFA_HAS_RANGES_VIEWS
                                        || unit_input_range<R> || unit_all_range<R>
#endif
    ;

/// The ranges as_utf* view: by their iterators (utf_view), or (C++20) held (utf_owning_view).
template <class R>
inline constexpr bool is_viewable_units_v = is_viewable_by_iterators_v<R>
#if UTF8DFA_HAS_RANGES_VIEWS
                                            || unit_ownable_range<R>
#endif
    ;

template <class Out, class Policy, class R>
constexpr auto make_utf_view(R&& r, Policy policy) {
  using B = uncvref_t<R>;
  if constexpr (!is_viewable_by_iterators_v<R>) {
#if UTF8DFA_HAS_RANGES_VIEWS
    return utf_owning_view<Out, held_view_t<R>, Policy>(hold_view(static_cast<R&&>(r)), policy);
#endif
  } else if constexpr (is_contiguous_units<B>::value) {
    const auto* p = std::data(r);
    using P = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
    const P* first = p;
    return utf_view<Out, const P*, const P*, Policy>(first, first + std::size(r), policy);
  } else {
    const B& c = r;
    return utf_view<Out, range_iter_t<B>, range_sent_t<B>, Policy>(std::begin(c), std::end(c), policy);
  }
}

/// An iterator pair as_utf* take: an iterator of code units that can be copied (utf_view holds the
/// pair and begins again at each begin()), and an end that compares with it.
template <class It>
inline constexpr bool is_iterator_v = !std::is_void_v<typename legacy_category<It>::type>
#if UTF8DFA_HAS_RANGES
                                      || std::input_iterator<It>
#endif
    ;
template <class It, class Sent, class = void>
struct is_unit_iterator_pair : std::false_type {};
template <class It, class Sent>
struct is_unit_iterator_pair<
    It, Sent, std::void_t<view_unit_t<It>, decltype(std::declval<const It&>() == std::declval<const Sent&>())>>
    : std::bool_constant<is_iterator_v<It> && is_code_unit_v<view_unit_t<It>> && std::is_copy_constructible_v<It> &&
                         !is_view_policy_v<Sent>> {};

}  // namespace detail

// ---- as_utf8, as_utf16, as_utf32 ----------------------------------------------------------------
// Each takes: a range of code units (std::string, std::u16string_view, std::vector<char32_t>,
// std::span<const std::byte>, std::list<char16_t>, ...; a temporary container is refused, it would
// dangle); in C++20 also any view of code units, held by value where the view cannot be viewed
// through its iterators (a temporary view such as `s | std::views::take_while(p)`, a view that is
// iterated only when not const such as std::views::filter's or the input-only
// std::views::istream<char>(in); see utf_owning_view); a null-terminated string (const CharT*, or a
// string literal); or an iterator pair (e.g. std::istreambuf_iterator<char>, read as it is decoded;
// the end may be a sentinel of another type; in C++20 the iterator may be move-only). An optional
// last argument is the policy: replace{} (the default, U+FFFD), replace{U'?'}, skip{} (errors
// dropped), or strict{}.

/// UTF-8 code units (char) of any UTF input.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_viewable_units_v<R> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf8(R&& r, Policy policy = {}) {
  return detail::make_utf_view<char>(static_cast<R&&>(r), policy);
}
/// Refused: a view of a temporary container would dangle (keep the container in a variable); a
/// view passed as an lvalue that can neither be copied nor iterated as const must be moved in.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_unit_range_v<R> && !detail::is_viewable_units_v<R>, int> = 0>
constexpr void as_utf8(R&& r, Policy policy = {}) = delete;

/// UTF-16 code units (char16_t) of any UTF input.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_viewable_units_v<R> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf16(R&& r, Policy policy = {}) {
  return detail::make_utf_view<char16_t>(static_cast<R&&>(r), policy);
}
/// Refused: a view of a temporary container would dangle (keep the container in a variable); a
/// view passed as an lvalue that can neither be copied nor iterated as const must be moved in.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_unit_range_v<R> && !detail::is_viewable_units_v<R>, int> = 0>
constexpr void as_utf16(R&& r, Policy policy = {}) = delete;

/// UTF-32 code units (char32_t) of any UTF input.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_viewable_units_v<R> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf32(R&& r, Policy policy = {}) {
  return detail::make_utf_view<char32_t>(static_cast<R&&>(r), policy);
}
/// Refused: a view of a temporary container would dangle (keep the container in a variable); a
/// view passed as an lvalue that can neither be copied nor iterated as const must be moved in.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_unit_range_v<R> && !detail::is_viewable_units_v<R>, int> = 0>
constexpr void as_utf32(R&& r, Policy policy = {}) = delete;

/// A null-terminated string (up to its first zero unit, found while iterating) as UTF-8.
template <class T, class Policy = replace,
          std::enable_if_t<detail::is_code_unit_v<T> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char, const T*, null_sentinel_t, Policy> as_utf8(const T* s, Policy policy = {}) noexcept {
  return {s, null_sentinel, policy};
}

/// A null-terminated string as UTF-16.
template <class T, class Policy = replace,
          std::enable_if_t<detail::is_code_unit_v<T> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char16_t, const T*, null_sentinel_t, Policy> as_utf16(const T* s, Policy policy = {}) noexcept {
  return {s, null_sentinel, policy};
}

/// A null-terminated string as UTF-32.
template <class T, class Policy = replace,
          std::enable_if_t<detail::is_code_unit_v<T> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char32_t, const T*, null_sentinel_t, Policy> as_utf32(const T* s, Policy policy = {}) noexcept {
  return {s, null_sentinel, policy};
}

/// The code units [first, last) of any iterator pair, as UTF-8.
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::is_unit_iterator_pair<It, Sent>::value && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char, It, Sent, Policy> as_utf8(It first, Sent last, Policy policy = {}) {
  return {first, last, policy};
}

/// The code units [first, last) of any iterator pair, as UTF-16.
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::is_unit_iterator_pair<It, Sent>::value && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char16_t, It, Sent, Policy> as_utf16(It first, Sent last, Policy policy = {}) {
  return {first, last, policy};
}

/// The code units [first, last) of any iterator pair, as UTF-32.
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::is_unit_iterator_pair<It, Sent>::value && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char32_t, It, Sent, Policy> as_utf32(It first, Sent last, Policy policy = {}) {
  return {first, last, policy};
}

#if UTF8DFA_HAS_RANGES_VIEWS
namespace detail {
/// C++20: a move-only input iterator of code units and its end (e.g. std::views::istream's), which
/// utf_view cannot hold: held as a std::ranges::subrange in a utf_owning_view, an input range.
template <class It, class Sent>
concept move_only_unit_pair = std::input_iterator<It> && !std::copy_constructible<It> && std::sentinel_for<Sent, It> &&
                              is_code_unit_v<view_unit_t<It>> && !is_view_policy_v<Sent>;
}  // namespace detail

/// The code units [first, last) of a move-only input iterator and its end, as UTF-8 (read once).
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::move_only_unit_pair<It, Sent> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf8(It first, Sent last, Policy policy = {}) {
  using S = std::ranges::subrange<It, Sent>;
  return utf_owning_view<char, S, Policy>(S(std::move(first), std::move(last)), policy);
}

/// The same as UTF-16.
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::move_only_unit_pair<It, Sent> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf16(It first, Sent last, Policy policy = {}) {
  using S = std::ranges::subrange<It, Sent>;
  return utf_owning_view<char16_t, S, Policy>(S(std::move(first), std::move(last)), policy);
}

/// The same as UTF-32.
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::move_only_unit_pair<It, Sent> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf32(It first, Sent last, Policy policy = {}) {
  using S = std::ranges::subrange<It, Sent>;
  return utf_owning_view<char32_t, S, Policy>(S(std::move(first), std::move(last)), policy);
}
#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if UTF8DFA_HAS_RANGES_VIEWS
namespace std::ranges {
/// The view holds only iterators, so its iterators stay valid after it is gone.
template <class Out, class It, class Sent, class Policy>
inline constexpr bool enable_borrowed_range<utf8dfa::utf_view<Out, It, Sent, Policy>> = true;
/// The held view's iterators are the view's: borrowed where the held view is.
template <class Out, class V, class Policy>
inline constexpr bool enable_borrowed_range<utf8dfa::utf_owning_view<Out, V, Policy>> = enable_borrowed_range<V>;
}  // namespace std::ranges
#endif

#endif
