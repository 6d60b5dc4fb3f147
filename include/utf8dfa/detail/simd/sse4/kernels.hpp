// utf8dfa: the SSE4.2 kernel table (transcoding: the scalar kernels until SIMD ones are plugged in).
#ifndef UTF8DFA_DETAIL_SIMD_SSE4_KERNELS_HPP
#define UTF8DFA_DETAIL_SIMD_SSE4_KERNELS_HPP

#include "../../kernel_table.hpp"
#include "../../scalar_kernels.hpp"
#include "validate.hpp"

#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace sse4 {

inline constexpr kernel_table table{
    "sse4",
    &validate,
    &count_leads,
    &utf16_length,
    scalar_kernels.utf8_to_utf32,
    scalar_kernels.utf8_to_utf16,
    scalar_kernels.utf16_to_utf8,
    scalar_kernels.utf32_to_utf8,
    &utf8_units_by<true, &validate, &utf16_length>,
    &utf8_units_by<false, &validate, &count_leads>,
    scalar_kernels.utf8_length_from_utf16,
    scalar_kernels.utf8_length_from_utf32,
    scalar_kernels.latin1_to_utf8,
    scalar_kernels.utf8_to_latin1,
    scalar_kernels.validate_utf16,
    scalar_kernels.utf16_to_utf32,
    scalar_kernels.utf32_to_utf16,
    scalar_kernels.to_well_formed_utf16,
    scalar_kernels.count_utf16,
    scalar_kernels.validate_utf32,
    scalar_kernels.utf16_to_latin1,
    scalar_kernels.utf32_to_latin1,
    scalar_kernels.latin1_to_utf16,
    scalar_kernels.latin1_to_utf32,
    scalar_kernels.utf8_length_from_latin1,
    scalar_kernels.change_endianness_utf16,
    scalar_kernels.change_endianness_utf32,
    scalar_kernels.validate_utf16_swapped,
    scalar_kernels.utf16_swapped_to_utf8,
    scalar_kernels.utf8_to_utf16_swapped,
};

}  // namespace sse4
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
