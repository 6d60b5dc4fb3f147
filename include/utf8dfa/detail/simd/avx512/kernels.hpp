// utf8dfa: the AVX-512 kernel table (transcoding: the scalar kernels until SIMD ones are plugged in).
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_KERNELS_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_KERNELS_HPP

#include "../../kernel_table.hpp"
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
    scalar_kernels.utf8_to_utf32,
    scalar_kernels.utf8_to_utf16,
    scalar_kernels.utf16_to_utf8,
    scalar_kernels.utf32_to_utf8,
};

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
