// utf8dfa: the AVX2 kernel table.
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_KERNELS_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_KERNELS_HPP

#include "../../kernel_table.hpp"
#include "../../scalar_kernels.hpp"
#include "../short_input.hpp"
#include "length.hpp"
#include "transcode.hpp"
#include "units.hpp"
#include "units_bulk.hpp"
#include "validate.hpp"

#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

inline constexpr kernel_table table{
    "avx2",
    &validate,
    &count_leads,
    &utf16_length,
    // Short inputs: under 8 UTF-8 bytes (16 UTF-16 or UTF-32 units) the scalar DFA, and UTF-8 under
    // mostly_ascii_below bytes when it is mostly ASCII or, into UTF-16, starts with ASCII and has a
    // 4-byte form (short_input.hpp). The UTF-8 conversions finish their last bytes in a padded copy
    // of their own (transcode.hpp); for UTF-16 and UTF-32 input the blocks are shorter and the
    // scalar tail cheaper.
    &vector_unless_mostly_ascii<char32_t, &utf8_to_utf32, scalar_utf8_to_utf32, 8, mostly_ascii_below>,
    &vector_unless_mostly_ascii<char16_t, &utf8_to_utf16, scalar_utf8_to_utf16, 8, mostly_ascii_below, true>,
    &vector_from<char16_t, unsigned char, &utf16_to_utf8, scalar_utf16_to_utf8, 16>,
    &vector_from<char32_t, unsigned char, &utf32_to_utf8, scalar_utf32_to_utf8, 16>,
    &utf16_length_from_utf8,
    &utf32_length_from_utf8,
    &utf8_length_from_utf16,
    &utf8_length_from_utf32,  // Latin-1 and UTF-16 / UTF-32 input (the tails scalar in the kernels).
    &latin1_to_utf8,
    &utf8_to_latin1,
    &validate_utf16,
    &utf16_to_utf32,
    &utf32_to_utf16,
    &to_well_formed_utf16,
    &count_utf16,
    &validate_utf32,
    &units_to_latin1<char16_t>,
    &units_to_latin1<char32_t>,
    &latin1_widen<char16_t>,
    &latin1_widen<char32_t>,
    &utf8_length_from_latin1,
    &change_endianness<char16_t>,
    &change_endianness<char32_t>,
    &validate_utf16_swapped,
    &vector_from<char16_t, unsigned char, &utf16_swapped_to_utf8, scalar_utf16_swapped_to_utf8, 16>,
    &vector_unless_mostly_ascii<char16_t, &utf8_to_utf16_swapped, scalar_utf8_to_utf16_swapped, 8, mostly_ascii_below,
                                true>,
};

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
