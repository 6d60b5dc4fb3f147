// utf8dfa: the AVX-512 kernel table.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_KERNELS_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_KERNELS_HPP

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
namespace avx512 {

inline constexpr kernel_table table{
    "avx512",
    &validate,
    &count_leads,
    &utf16_length,
    // Short inputs (under 12 UTF-8 bytes, 8 UTF-16 or UTF-32 units) go to the scalar DFA: the vector
    // path costs about 10-15 ns from one unit up, the DFA about 1 ns a byte of non-ASCII text.
    &vector_from<unsigned char, char32_t, &utf8_to_utf32, scalar_utf8_to_utf32, 12>,
    &vector_from<unsigned char, char16_t, &utf8_to_utf16, scalar_utf8_to_utf16, 12>,
    &vector_from<char16_t, unsigned char, &utf16_to_utf8, scalar_utf16_to_utf8, 8>,
    &vector_from<char32_t, unsigned char, &utf32_to_utf8, scalar_utf32_to_utf8, 8>,
    &utf16_length_from_utf8,
    &utf32_length_from_utf8,
    &utf8_length_from_utf16,
    &utf8_length_from_utf32,  // Latin-1 and UTF-16 / UTF-32 input (masked loads and stores: no size too small); the
    // conversions with a policy take the scalar code under 16 units.
    &latin1_to_utf8,
    &vector_from<unsigned char, unsigned char, &utf8_to_latin1, scalar_utf8_to_latin1, 16>,
    &validate_utf16,
    &utf16_to_utf32,  // (the scalar code under 16 units chosen inside, after a masked vector)
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
    &vector_from<char16_t, unsigned char, &utf16_swapped_to_utf8, scalar_utf16_swapped_to_utf8, 8>,
    &vector_from<unsigned char, char16_t, &utf8_to_utf16_swapped, scalar_utf8_to_utf16_swapped, 12>,
};

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
