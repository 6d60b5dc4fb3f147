// utf8dfa: output iterators that encode char32_t code points as UTF-8 or UTF-16.
//
//   std::string s;
//   auto out = std::copy(u.begin(), u.end(), utf8dfa::utf8_output(std::back_inserter(s)));
//   if (!out.result()) ...  // a surrogate or a value above 0x10FFFF was rejected
//
// A value that is not a Unicode scalar value (U+D800..U+DFFF, > U+10FFFF) is an error. Under
// `strict` (the default) nothing is written for it nor for anything after it, and result() says
// how many code points were accepted and why the next was refused. Under `replace` the policy's
// replacement (U+FFFD by default) is written instead and encoding goes on; under `skip` nothing is
// written for it (it still counts as read) and encoding goes on. Output iterators are
// copied by value through algorithms: query the copy the algorithm returns.
//
// The output's code unit must fit the encoding, checked at compile time: utf8_output writes to
// byte types only (not char16_t or char32_t, though they could hold bytes: that is almost always a
// mix-up), utf16_output to integer types holding 0..0xFFFF (not char, not std::int16_t).
#ifndef UTF8DFA_OUTPUT_HPP
#define UTF8DFA_OUTPUT_HPP

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

#include "detail/scalar.hpp"
#include "encode.hpp"
#include "error.hpp"
#include "policy.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

template <class It, class = void>
struct container_value {
  using type = void;
};
template <class It>
struct container_value<It, std::void_t<typename It::container_type::value_type>> {
  using type = typename It::container_type::value_type;
};
template <class It, class = void>
struct stream_char {
  using type = void;
};
template <class It>
struct stream_char<It, std::void_t<typename It::char_type>> {
  using type = typename It::char_type;
};

/// The code-unit type an output iterator takes: its container's value type (back_inserter and
/// friends), its stream's char type (ostreambuf_iterator), its value type (pointers), else `Fallback`.
template <class It, class Fallback>
using output_unit_t = std::conditional_t<
    !std::is_void_v<typename container_value<It>::type>, typename container_value<It>::type,
    std::conditional_t<!std::is_void_v<typename stream_char<It>::type>, typename stream_char<It>::type,
                       std::conditional_t<!std::is_void_v<typename std::iterator_traits<It>::value_type>,
                                          typename std::iterator_traits<It>::value_type, Fallback>>>;

template <class Unit>
constexpr std::size_t encode_utf8_units(char32_t cp, Unit* out) noexcept {
  return put_utf8(out, cp);
}

template <class Unit>
constexpr std::size_t encode_utf16_units(char32_t cp, Unit* out) noexcept {
  if (cp < 0x10000) {
    out[0] = static_cast<Unit>(cp);
    return 1;
  }
  out[0] = static_cast<Unit>(0xD7C0 + (cp >> 10));
  out[1] = static_cast<Unit>(0xDC00 + (cp & 0x3FF));
  return 2;
}

/// Code units utf8_output may write: the byte types (char, signed/unsigned char, char8_t, std::byte).
/// Wider units would hold the bytes losslessly but are refused: UTF-8 into char16_t/char32_t is
/// almost always a mix-up with utf16_output or plain char32_t.
template <class Unit>
inline constexpr bool is_utf8_output_unit_v = is_byte_v<Unit>;

/// Code units utf16_output may write: integer types that hold every value 0..0xFFFF (char16_t,
/// std::uint16_t, char32_t, int, ...). Bytes and std::int16_t would truncate or wrap units.
template <class Unit>
inline constexpr bool is_utf16_output_unit_v =
    std::is_integral_v<Unit> && !std::is_same_v<Unit, bool> &&
    (sizeof(Unit) > 2 || (sizeof(Unit) == 2 && std::is_unsigned_v<Unit>));  // 16 value bits or more

template <class Policy>
inline constexpr bool is_output_policy_v =
    std::is_same_v<Policy, strict> || std::is_same_v<Policy, replace> || std::is_same_v<Policy, skip>;

/// Whether two functions are the same, decided by template argument matching (comparing the
/// pointers in a constant expression is refused by GCC under -fsanitize=undefined).
template <auto F, auto G>
inline constexpr bool same_function_v = false;
template <auto F>
inline constexpr bool same_function_v<F, F> = true;

/// What the UTF-8 and UTF-16 output iterators share: the policy, the progress, the error.
/// `Encode(cp, units)` writes a scalar value's code units to `units` and returns their count.
template <class OutIt, class Policy, class Unit, std::size_t (*Encode)(char32_t, Unit*) noexcept>
class encoding_output_iterator {
  static_assert(is_output_policy_v<Policy>, "output iterators take the strict, replace or skip policy");
  static_assert(!same_function_v<Encode, &encode_utf8_units<Unit>> || is_utf8_output_unit_v<Unit>,
                "utf8_output writes bytes: its output must take a byte type (char, unsigned char, char8_t, "
                "std::byte); for char16_t output use utf16_output, for char32_t store the code points");
  static_assert(!same_function_v<Encode, &encode_utf16_units<Unit>> || is_utf16_output_unit_v<Unit>,
                "utf16_output writes 16-bit units: its output must take an integer type holding 0..0xFFFF "
                "(char16_t, std::uint16_t, ...); a byte or std::int16_t output would truncate every unit");

 public:
  using iterator_category = std::output_iterator_tag;
  using value_type = void;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = void;

  constexpr encoding_output_iterator() = default;
  constexpr explicit encoding_output_iterator(OutIt out, Policy policy = {}) : out_(std::move(out)), policy_(policy) {}

  /// Encodes one code point (see the header comment for invalid values).
  constexpr encoding_output_iterator& operator=(char32_t cp) {
    if constexpr (Policy::stops_on_error) {
      if (error_ != error_code::none) return *this;
    }
    if (!is_scalar_value(cp)) {
      if (error_ == error_code::none) error_ = cp > 0x10FFFF ? error_code::too_large : error_code::surrogate;
      if constexpr (Policy::stops_on_error) {
        return *this;
      } else if constexpr (skips_errors_v<Policy>) {
        ++read_;
        return *this;
      } else {
        cp = policy_.replacement_value();
      }
    }
    Unit units[4]{};
    const std::size_t n = Encode(cp, units);
    for (std::size_t i = 0; i < n; ++i) {
      *out_ = units[i];
      ++out_;
    }
    ++read_;
    written_ += n;
    return *this;
  }

  constexpr encoding_output_iterator& operator*() noexcept { return *this; }
  constexpr encoding_output_iterator& operator++() noexcept { return *this; }
  constexpr encoding_output_iterator& operator++(int) noexcept { return *this; }

  /// The underlying output iterator, past everything written.
  constexpr OutIt base() const { return out_; }

  /// Code points accepted (under strict: before the first error), code units written, and the
  /// kind of the first invalid value (surrogate or too_large; none if there was none).
  constexpr conversion_result result() const noexcept { return {read_, written_, error_}; }

  /// The first error, error_code::none if every value was a scalar value.
  constexpr error_code error() const noexcept { return error_; }

 private:
  OutIt out_{};
  Policy policy_{};
  std::size_t read_ = 0;
  std::size_t written_ = 0;
  error_code error_ = error_code::none;
};

}  // namespace detail

/// Output iterator: char32_t in, UTF-8 out to `OutIt` as `Byte`s (by default the type `OutIt`
/// takes: char for std::back_inserter(std::string&), char8_t for a u8string, ...).
template <class OutIt, class Policy = strict, class Byte = detail::output_unit_t<OutIt, char>>
using utf8_output_iterator = detail::encoding_output_iterator<OutIt, Policy, Byte, &detail::encode_utf8_units<Byte>>;

/// Output iterator: char32_t in, UTF-16 out to `OutIt` (supplementary characters as surrogate pairs).
template <class OutIt, class Policy = strict, class Unit = detail::output_unit_t<OutIt, char16_t>>
using utf16_output_iterator = detail::encoding_output_iterator<OutIt, Policy, Unit, &detail::encode_utf16_units<Unit>>;

/// A UTF-8 output iterator writing to `out`, e.g. utf8_output(std::back_inserter(s), utf8dfa::replace{}).
template <class OutIt, class Policy = strict>
constexpr utf8_output_iterator<OutIt, Policy> utf8_output(OutIt out, Policy policy = {}) {
  return utf8_output_iterator<OutIt, Policy>(std::move(out), policy);
}

/// A UTF-16 output iterator writing to `out`.
template <class OutIt, class Policy = strict>
constexpr utf16_output_iterator<OutIt, Policy> utf16_output(OutIt out, Policy policy = {}) {
  return utf16_output_iterator<OutIt, Policy>(std::move(out), policy);
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
