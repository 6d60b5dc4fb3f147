// utf8dfa: AVX-512 check of one block of UTF-8 that starts on a character boundary (the
// Keiser-Lemire idea: three nibble lookups on each pair of adjacent bytes, plus a check that the
// 3rd/4th bytes of long sequences are continuations). Used by the transcoding kernels; it says only
// whether the block holds an error, the scalar DFA says where and what.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_UTF8_BLOCK_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_UTF8_BLOCK_HPP

#include "../target.hpp"
#include "../transcode_common.hpp"

#if UTF8DFA_X86_KERNELS
#include <cstdint>

// GCC 12's AVX-512 intrinsics seed their results with a self-initialised "undefined" vector, which
// -Wmaybe-uninitialized / -Wuninitialized report once they are inlined (GCC bug 105593); nothing
// here is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

namespace avx512 {

/// x, opaque to the compiler: a constant built before a loop stays in its register. (GCC otherwise
/// rebuilds broadcast constants inside the loop, moving a general register to a vector register
/// each time, which is slow on AMD Zen 5.)
UTF8DFA_TARGET_AVX512 inline __m512i opaque(__m512i x) noexcept {
  __asm__("" : "+v"(x));
  return x;
}

/// A 16-byte table repeated in every 128-bit lane (for vpshufb lookups).
UTF8DFA_TARGET_AVX512 inline __m512i lane_table(const std::uint8_t (&t)[16]) noexcept {
  return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}

/// The block check, its constants built once (before a loop) and kept in
/// registers (GCC otherwise rebuilds broadcast constants in every iteration, moving a general
/// register to a vector register each time, which is slow on AMD Zen 5).
struct utf8_block_checker {
  __m512i before, prev_high, prev_low, cur_high, nib, low7;

  UTF8DFA_TARGET_AVX512 utf8_block_checker() noexcept
      // The byte before each one (zero before the first, index 64: the second table): one permute,
      // with no mask (a constant mask would be rebuilt in a mask register in every iteration).
      : before(
            opaque(_mm512_set_epi8(62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42,
                                   41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21,
                                   20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 64))),
        prev_high(opaque(lane_table(pair_error::prev_high))),
        prev_low(opaque(lane_table(pair_error::prev_low))),
        cur_high(opaque(lane_table(pair_error::cur_high))),
        nib(opaque(_mm512_set1_epi8(0x0F))),
        low7(opaque(_mm512_set1_epi8(0x7F))) {}

  /// True when the 64 bytes v, read as the start of a text (preceded by a character boundary), hold
  /// an ill-formed pair or a long sequence cut before its end inside the block. A character cut by
  /// the end of the block is not an error here (bytes past the input must be loaded as zeros, so a
  /// character cut by the end of the input is one). `ge_e0` and `ge_f0` are the masks of the bytes
  /// of v at or above E0 and F0 (the callers need them too).
  UTF8DFA_TARGET_AVX512 bool has_error(__m512i v, __mmask64 ge_e0, __mmask64 ge_f0) const noexcept {
    const __m512i p1 = _mm512_permutex2var_epi8(v, before, _mm512_setzero_si512());
    const __m512i e1 = _mm512_shuffle_epi8(prev_high, _mm512_and_si512(_mm512_srli_epi16(p1, 4), nib));
    const __m512i e2 = _mm512_shuffle_epi8(prev_low, _mm512_and_si512(p1, nib));
    const __m512i e3 = _mm512_shuffle_epi8(cur_high, _mm512_and_si512(_mm512_srli_epi16(v, 4), nib));
    const __m512i special = _mm512_ternarylogic_epi32(e1, e2, e3, 0x80);  // e1 & e2 & e3
    // Bit 7 (two continuations in a row) is expected exactly 2 bytes after an E0..FF lead and 3
    // bytes after an F0..FF lead; every other bit is an error.
    const __mmask64 must23 = (ge_e0 << 2) | (ge_f0 << 3);
    return (_mm512_test_epi8_mask(special, low7) | (_mm512_movepi8_mask(special) ^ must23)) != 0;
  }
};

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif
#endif
