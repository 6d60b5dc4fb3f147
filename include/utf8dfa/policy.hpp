// utf8dfa: what a conversion does with ill-formed input.
#ifndef UTF8DFA_POLICY_HPP
#define UTF8DFA_POLICY_HPP

#include <type_traits>

#include "error.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Stop at the first ill-formed subpart and report it (conversion_result::read points at it).
struct strict {
  static constexpr bool stops_on_error = true;
  constexpr char32_t replacement_value() const noexcept { return replacement_character; }
};

/// Write one replacement character (U+FFFD unless chosen) per maximal ill-formed subpart and go on,
/// as the Unicode Standard (ch. 3) and the WHATWG decoder do. A replacement that is not a Unicode
/// scalar value is ignored in favour of U+FFFD.
struct replace {
  char32_t replacement = replacement_character;
  static constexpr bool stops_on_error = false;
  constexpr char32_t replacement_value() const noexcept {
    return (replacement >= 0xD800 && replacement <= 0xDFFF) || replacement > 0x10FFFF ? replacement_character
                                                                                      : replacement;
  }
};

/// For input already validated: the fastest path, which may skip validation (the NEON and AVX2
/// UTF-8 decoders do). On ill-formed input the output is unspecified: any UTF-32 value up to
/// 0x1FFFFFF, any UTF-16 unit (lone or reversed surrogates too), with no error reported; never use
/// it on untrusted input. Nothing is read or written out of bounds, and the output never exceeds
/// the length helpers' size.
struct assume_valid {
  static constexpr bool stops_on_error = false;
  constexpr char32_t replacement_value() const noexcept { return replacement_character; }
};

/// Drop each maximal ill-formed subpart and go on: what replace does, with nothing written for it
/// (Python's errors='ignore', ICU's SKIP callback). The result still reports the first error.
struct skip {
  static constexpr bool stops_on_error = false;
};

namespace detail {
/// True for the policy that writes nothing for an error (skip).
template <class Policy>
inline constexpr bool skips_errors_v = std::is_same_v<std::remove_cv_t<Policy>, skip>;
/// A policy type (a class with a `stops_on_error` constant): what keeps a deduced Policy parameter
/// from matching a capacity argument.
template <class T, class = void>
struct is_policy : std::false_type {};
template <class T>
struct is_policy<T, std::void_t<decltype(T::stops_on_error)>> : std::is_class<T> {};
template <class T>
inline constexpr bool is_policy_v = is_policy<T>::value;
template <class T>
using enable_if_policy = std::enable_if_t<is_policy_v<T>, int>;
}  // namespace detail

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
