// utf8dfa: the shape of a kernel (one implementation of every bulk operation) and the portable one.
#ifndef UTF8DFA_DETAIL_KERNEL_TABLE_HPP
#define UTF8DFA_DETAIL_KERNEL_TABLE_HPP

#include <cstddef>

#include "../policy.hpp"
#include "scalar.hpp"
#include "units.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A replacement value that no policy can produce: the kernels' encoding of `strict`.
inline constexpr char32_t strict_marker = 0xFFFFFFFFu;

/// The replacement a kernel writes for `replacement` as it takes it: strict_marker and skip_marker
/// (write nothing) as they are, anything else a scalar value (U+FFFD for one that is not).
constexpr char32_t kernel_repl(char32_t replacement) noexcept {
  return replacement == strict_marker || replacement == skip_marker ? replacement
                                                                    : replace{replacement}.replacement_value();
}

/// One implementation of every bulk operation. `replacement == strict_marker` means strict,
/// `skip_marker` skip (and for the lengths: nothing counted for an error).
struct kernel_table {
  const char* name;
  validation_result (*validate)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*count_leads)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*utf16_length)(const unsigned char*, std::size_t) noexcept;  // of well-formed input
  conversion_result (*utf8_to_utf32)(const unsigned char*, std::size_t, char32_t*, char32_t) noexcept;
  conversion_result (*utf8_to_utf16)(const unsigned char*, std::size_t, char16_t*, char32_t) noexcept;
  conversion_result (*utf16_to_utf8)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept;
  conversion_result (*utf32_to_utf8)(const char32_t*, std::size_t, unsigned char*, char32_t) noexcept;
  // Exact output lengths of the conversions above, ill-formed input included: each error counted as
  // the replacement `repl` (a scalar value) that the replace policy writes for it, or as nothing
  // (repl == skip_marker).
  std::size_t (*utf16_length_from_utf8)(const unsigned char*, std::size_t, char32_t repl) noexcept;
  std::size_t (*utf32_length_from_utf8)(const unsigned char*, std::size_t, char32_t repl) noexcept;
  std::size_t (*utf8_length_from_utf16)(const char16_t*, std::size_t, char32_t repl) noexcept;
  std::size_t (*utf8_length_from_utf32)(const char32_t*, std::size_t, char32_t repl) noexcept;
  // Latin-1 and UTF-16 / UTF-32 input (latin1.hpp, utf16.hpp). utf8_to_latin1's replacement is
  // strict_marker, skip_marker or a value up to 0xFF.
  std::size_t (*latin1_to_utf8)(const unsigned char*, std::size_t, unsigned char*) noexcept;
  conversion_result (*utf8_to_latin1)(const unsigned char*, std::size_t, unsigned char*, char32_t) noexcept;
  validation_result (*validate_utf16)(const char16_t*, std::size_t) noexcept;
  conversion_result (*utf16_to_utf32)(const char16_t*, std::size_t, char32_t*, char32_t) noexcept;
  conversion_result (*utf32_to_utf16)(const char32_t*, std::size_t, char16_t*, char32_t) noexcept;
  std::size_t (*to_well_formed_utf16)(const char16_t*, std::size_t, char16_t*) noexcept;
};

/// Runs a policy-templated kernel with the policy encoded as a replacement value.
template <class In, class Out, conversion_result (*Strict)(const In*, std::size_t, Out*, strict) noexcept,
          conversion_result (*Replace)(const In*, std::size_t, Out*, replace) noexcept,
          conversion_result (*Skip)(const In*, std::size_t, Out*, skip) noexcept>
conversion_result by_policy(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  if (replacement == strict_marker) return Strict(p, n, out, strict{});
  if (replacement == skip_marker) return Skip(p, n, out, skip{});
  return Replace(p, n, out, replace{replacement});
}

// The scalar DFA's conversions with the policy as a replacement value.
inline constexpr auto scalar_utf8_to_utf32 =
    &by_policy<unsigned char, char32_t, &utf8_to_utf_scalar<strict, char32_t>, &utf8_to_utf_scalar<replace, char32_t>,
               &utf8_to_utf_scalar<skip, char32_t>>;
inline constexpr auto scalar_utf8_to_utf16 =
    &by_policy<unsigned char, char16_t, &utf8_to_utf_scalar<strict, char16_t>, &utf8_to_utf_scalar<replace, char16_t>,
               &utf8_to_utf_scalar<skip, char16_t>>;
inline constexpr auto scalar_utf16_to_utf8 =
    &by_policy<char16_t, unsigned char, &utf_to_utf8_scalar<strict, char16_t>, &utf_to_utf8_scalar<replace, char16_t>,
               &utf_to_utf8_scalar<skip, char16_t>>;
inline constexpr auto scalar_utf32_to_utf8 =
    &by_policy<char32_t, unsigned char, &utf_to_utf8_scalar<strict, char32_t>, &utf_to_utf8_scalar<replace, char32_t>,
               &utf_to_utf8_scalar<skip, char32_t>>;

inline constexpr auto scalar_utf8_to_latin1 =
    &by_policy<unsigned char, unsigned char, &to_latin1<strict, unsigned char>, &to_latin1<replace, unsigned char>,
               &to_latin1<skip, unsigned char>>;
inline constexpr auto scalar_utf16_to_utf32 =
    &by_policy<char16_t, char32_t, &utf_to_utf<strict, char16_t, char32_t>, &utf_to_utf<replace, char16_t, char32_t>,
               &utf_to_utf<skip, char16_t, char32_t>>;
inline constexpr auto scalar_utf32_to_utf16 =
    &by_policy<char32_t, char16_t, &utf_to_utf<strict, char32_t, char16_t>, &utf_to_utf<replace, char32_t, char16_t>,
               &utf_to_utf<skip, char32_t, char16_t>>;

inline constexpr kernel_table scalar_kernels{
    "scalar",
    &validate_scalar,
    &count_leads_scalar,
    &utf16_length_scalar,
    scalar_utf8_to_utf32,
    scalar_utf8_to_utf16,
    scalar_utf16_to_utf8,
    scalar_utf32_to_utf8,
    &utf8_units_by<true, &validate_scalar, &utf16_length_scalar>,
    &utf8_units_by<false, &validate_scalar, &count_leads_scalar>,
    &utf8_length_scalar<char16_t>,
    &utf8_length_scalar<char32_t>,
    &latin1_to_utf8_scalar,
    scalar_utf8_to_latin1,
    &validate_utf16_scalar,
    scalar_utf16_to_utf32,
    scalar_utf32_to_utf16,
    &to_well_formed_utf16_scalar,
};

/// A vector conversion for inputs of at least `MinUnits` code units, the scalar one below: a vector
/// kernel's setup (masks, permute tables) costs more than the DFA on a few characters.
template <class In, class Out, conversion_result (*Vector)(const In*, std::size_t, Out*, char32_t) noexcept,
          conversion_result (*Scalar)(const In*, std::size_t, Out*, char32_t) noexcept, std::size_t MinUnits>
conversion_result vector_from(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  return n < MinUnits ? Scalar(p, n, out, replacement) : Vector(p, n, out, replacement);
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
