// utf8dfa: the NEON kernel table (ARM64).
#ifndef UTF8DFA_DETAIL_SIMD_NEON_KERNELS_HPP
#define UTF8DFA_DETAIL_SIMD_NEON_KERNELS_HPP

#include "../../kernel_table.hpp"
#include "../../scalar_kernels.hpp"
#include "../short_input.hpp"
#include "transcode.hpp"
#include "units.hpp"
#include "validate.hpp"

#if UTF8DFA_NEON_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace neon {

/// UTF-8 inputs shorter than this are converted in a padded copy.
inline constexpr std::size_t short_below = 256;

inline constexpr kernel_table table{
    "neon",
    &validate,
    &count_leads,
    &utf16_length,
    // UTF-8 input under 32 bytes: the scalar DFA; up to short_below bytes: in a padded copy, so
    // that the blocks cover the whole input (short_input.hpp).
    &padded_from<unsigned char, char32_t, &utf8_to_utf32, scalar_utf8_to_utf32, 32, short_below, 80>,
    &padded_from<unsigned char, char16_t, &utf8_to_utf16, scalar_utf8_to_utf16, 32, short_below, 80>,
    &vector_from<char16_t, unsigned char, &utf16_to_utf8, scalar_utf16_to_utf8, 16>,
    &vector_from<char32_t, unsigned char, &utf32_to_utf8, scalar_utf32_to_utf8, 16>,
    &utf8_units_by<true, &validate, &utf16_length>,
    &utf8_units_by<false, &validate, &count_leads>,
    &utf8_length_from_utf16,
    &utf8_length_from_utf32,
    &latin1_to_utf8,
    &utf8_to_latin1,
    &validate_utf16,
    &vector_from<char16_t, char32_t, &utf16_to_utf32, scalar_utf16_to_utf32, 16>,
    &vector_from<char32_t, char16_t, &utf32_to_utf16, scalar_utf32_to_utf16, 16>,
    &to_well_formed_utf16,
    &count_utf16,
    &validate_utf32,
    &utf_to_latin1<char16_t>,
    &utf_to_latin1<char32_t>,
    &latin1_widen<char16_t>,
    &latin1_widen<char32_t>,
    &utf8_length_from_latin1,
    &change_endianness<char16_t>,
    &change_endianness<char32_t>,
    &validate_utf16_swapped,
    &vector_from<char16_t, unsigned char, &utf16_swapped_to_utf8, scalar_utf16_swapped_to_utf8, 16>,
    &padded_from<unsigned char, char16_t, &utf8_to_utf16_swapped, scalar_utf8_to_utf16_swapped, 32, short_below, 80>,
};

}  // namespace neon
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
