// utf8dfa: the portable kernel, the scalar DFA's implementation of every bulk operation. Only the
// translation units that compile the kernel list include it (kernel_list.hpp: every unit that
// dispatches when header-only, <utf8dfa/src.hpp> alone with UTF8DFA_SEPARATE_COMPILATION), so the
// others do not instantiate the scalar kernels that its table names.
#ifndef UTF8DFA_DETAIL_SCALAR_KERNELS_HPP
#define UTF8DFA_DETAIL_SCALAR_KERNELS_HPP

#include <cstddef>

#include "../policy.hpp"
#include "kernel_table.hpp"
#include "scalar.hpp"
#include "swapped_kernels.hpp"
#include "units.hpp"
#include "units_kernels.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Runs a policy-templated kernel with the policy encoded as a replacement value (the kernels
/// inlined into it; aligned, since on the AMD machine of README's benchmarks the scalar UTF-16 and
/// UTF-32 to UTF-8 loops ran 16-20% slower starting 32 bytes past a cache line than at its start).
template <class In, class Out, packed_conversion (*Strict)(const In*, std::size_t, Out*, strict) noexcept,
          packed_conversion (*Replace)(const In*, std::size_t, Out*, replace) noexcept,
          packed_conversion (*Skip)(const In*, std::size_t, Out*, skip) noexcept,
          packed_conversion (*Valid)(const In*, std::size_t, Out*, assume_valid) noexcept = nullptr>
UTF8DFA_ALIGN_CODE packed_conversion by_policy(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  if (replacement == strict_marker) return Strict(p, n, out, strict{});
  if (replacement == skip_marker) return Skip(p, n, out, skip{});
  if constexpr (Valid != nullptr) {
    if (replacement == valid_marker) return Valid(p, n, out, assume_valid{});
  }
  return Replace(p, n, out, replace{replacement});
}

/// UTF-8 to Latin-1: ASCII runs copied in one loop and C2/C3 pairs (U+0080..U+00FF) that the shift
/// DFA accepts written in the same loop; any other piece (an error, a character above U+00FF, the
/// last byte) by decode_at, as to_latin1 does it.
template <class Policy>
packed_conversion utf8_to_latin1_scalar(const unsigned char* p, std::size_t n, unsigned char* out,
                                        Policy pol) noexcept {
  unsigned char repl = '?';
  if (!latin1_replacement(pol, repl)) return {0, 0, error_code::unrepresentable};
  std::size_t i = 0;
  unsigned char* o = out;
  error_code first = error_code::none;
  for (;;) {
    while (i < n) {
      const std::uint32_t b0 = p[i];
      if (b0 < 0x80u) {
        if (!copy_ascii(p, n, i, o)) {
          *o++ = static_cast<unsigned char>(b0);
          ++i;
        }
        continue;
      }
      if ((b0 & 0xFEu) != 0xC2u || n - i < 2) break;
      const std::uint32_t b1 = p[i + 1];
      if ((step(step(s_accept, static_cast<std::uint8_t>(b0)), static_cast<std::uint8_t>(b1)) & state_mask) != s_accept)
        break;
      *o++ = static_cast<unsigned char>(((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu));
      i += 2;
    }
    if (i >= n) break;
    const decoded d = decode_at(p, n, i);
    error_code e = d.error;
    if (e == error_code::none && d.code_point > 0xFF) e = error_code::unrepresentable;
    if (UTF8DFA_UNLIKELY(e != error_code::none)) {
      if (first == error_code::none) first = e;
      if constexpr (stops_on_error<Policy>) {
        return {i, static_cast<std::size_t>(o - out), e};
      } else if constexpr (!skips_errors_v<Policy>) {
        *o++ = repl;
      }
    } else {
      *o++ = static_cast<unsigned char>(d.code_point);
    }
    i += d.length;
  }
  return {n, static_cast<std::size_t>(o - out), first};
}

// The scalar DFA's conversions with the policy as a replacement value.
inline constexpr auto scalar_utf8_to_utf32 =
    &by_policy<unsigned char, char32_t, &utf8_to_utf_scalar<strict, char32_t>, &utf8_to_utf_scalar<replace, char32_t>,
               &utf8_to_utf_scalar<skip, char32_t>, &utf8_to_utf_scalar<assume_valid, char32_t>>;
inline constexpr auto scalar_utf8_to_utf16 =
    &by_policy<unsigned char, char16_t, &utf8_to_utf_scalar<strict, char16_t>, &utf8_to_utf_scalar<replace, char16_t>,
               &utf8_to_utf_scalar<skip, char16_t>, &utf8_to_utf_scalar<assume_valid, char16_t>>;
inline constexpr auto scalar_utf16_to_utf8 =
    &by_policy<char16_t, unsigned char, &utf_to_utf8_scalar<strict, char16_t>, &utf_to_utf8_scalar<replace, char16_t>,
               &utf_to_utf8_scalar<skip, char16_t>>;
inline constexpr auto scalar_utf32_to_utf8 =
    &by_policy<char32_t, unsigned char, &utf_to_utf8_scalar<strict, char32_t>, &utf_to_utf8_scalar<replace, char32_t>,
               &utf_to_utf8_scalar<skip, char32_t>>;

inline constexpr auto scalar_utf8_to_latin1 = &by_policy<unsigned char, unsigned char, &utf8_to_latin1_scalar<strict>,
                                                         &utf8_to_latin1_scalar<replace>, &utf8_to_latin1_scalar<skip>>;
inline constexpr auto scalar_utf16_to_utf32 =
    &by_policy<char16_t, char32_t, &utf_to_utf<strict, char16_t, char32_t>, &utf_to_utf<replace, char16_t, char32_t>,
               &utf_to_utf<skip, char16_t, char32_t>>;
inline constexpr auto scalar_utf32_to_utf16 =
    &by_policy<char32_t, char16_t, &utf_to_utf<strict, char32_t, char16_t>, &utf_to_utf<replace, char32_t, char16_t>,
               &utf_to_utf<skip, char32_t, char16_t>>;
// The scalar kernel's own entries (the vector kernels call the two above on what they leave).
inline constexpr auto scalar_entry_utf16_to_utf32 =
    &by_policy<char16_t, char32_t, &utf_to_utf_entry<strict, char16_t, char32_t>,
               &utf_to_utf_entry<replace, char16_t, char32_t>, &utf_to_utf_entry<skip, char16_t, char32_t>>;
inline constexpr auto scalar_entry_utf32_to_utf16 =
    &by_policy<char32_t, char16_t, &utf_to_utf_entry<strict, char32_t, char16_t>,
               &utf_to_utf_entry<replace, char32_t, char16_t>, &utf_to_utf_entry<skip, char32_t, char16_t>>;

inline constexpr auto scalar_utf16_to_latin1 = &by_policy<char16_t, unsigned char, &to_latin1<strict, char16_t>,
                                                          &to_latin1<replace, char16_t>, &to_latin1<skip, char16_t>>;
inline constexpr auto scalar_utf32_to_latin1 = &by_policy<char32_t, unsigned char, &to_latin1<strict, char32_t>,
                                                          &to_latin1<replace, char32_t>, &to_latin1<skip, char32_t>>;

// UTF-16 in the other byte order: the scalar conversions on swapped chunks.
inline constexpr auto scalar_utf16_swapped_to_utf8 =
    &utf16_swapped_to_utf8_by_chunks<&change_endianness_scalar<char16_t>, scalar_utf16_to_utf8>;
inline constexpr auto scalar_utf8_to_utf16_swapped =
    &utf8_to_utf16_swapped_by_pieces<&change_endianness_scalar<char16_t>, scalar_utf8_to_utf16>;

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
    scalar_entry_utf16_to_utf32,
    scalar_entry_utf32_to_utf16,
    &to_well_formed_utf16_scalar,
    &count_utf16_by_pairs,
    &validate_utf32_scalar,
    scalar_utf16_to_latin1,
    scalar_utf32_to_latin1,
    &latin1_widen_scalar<char16_t>,
    &latin1_widen_scalar<char32_t>,
    &utf8_length_from_latin1_scalar,
    &change_endianness_scalar<char16_t>,
    &change_endianness_scalar<char32_t>,
    &validate_utf16_swapped_scalar,
    scalar_utf16_swapped_to_utf8,
    scalar_utf8_to_utf16_swapped,
};

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
