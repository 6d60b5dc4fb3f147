// utf8dfa: the AVX2 kernel table.
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_KERNELS_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_KERNELS_HPP

#include "../../kernel_table.hpp"
#include "transcode.hpp"
#include "validate.hpp"

#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

inline constexpr kernel_table table{
    "avx2", &validate, &count_leads, &utf16_length, &utf8_to_utf32, &utf8_to_utf16, &utf16_to_utf8, &utf32_to_utf8,
};

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
