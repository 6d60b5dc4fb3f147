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
// -Wmaybe-uninitialized reports once they are inlined (GCC bug 105593); nothing here is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

namespace avx512 {

/// A 16-byte table repeated in every 128-bit lane (for vpshufb lookups).
UTF8DFA_TARGET_AVX512 inline __m512i lane_table(const std::uint8_t (&t)[16]) noexcept {
  return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}

/// The block shifted towards higher addresses by N bytes, zeros shifted in (the bytes N before).
template <int N>
UTF8DFA_TARGET_AVX512 inline __m512i prev_bytes(__m512i v) noexcept {
  const __m512i up16 = _mm512_alignr_epi32(v, _mm512_setzero_si512(), 12);  // lanes moved up by one
  return _mm512_alignr_epi8(v, up16, 16 - N);
}

/// True when the 64 bytes v, read as the start of a text (preceded by a character boundary), hold
/// an ill-formed pair or a long sequence cut before its end inside the block. A character cut by
/// the end of the block is not an error here (bytes past the input must be loaded as zeros, so a
/// character cut by the end of the input is one).
UTF8DFA_TARGET_AVX512 inline bool utf8_block_has_error(__m512i v) noexcept {
  const __m512i nib = _mm512_set1_epi8(0x0F);
  const __m512i p1 = prev_bytes<1>(v);
  const __m512i e1 =
      _mm512_shuffle_epi8(lane_table(pair_error::prev_high), _mm512_and_si512(_mm512_srli_epi16(p1, 4), nib));
  const __m512i e2 = _mm512_shuffle_epi8(lane_table(pair_error::prev_low), _mm512_and_si512(p1, nib));
  const __m512i e3 =
      _mm512_shuffle_epi8(lane_table(pair_error::cur_high), _mm512_and_si512(_mm512_srli_epi16(v, 4), nib));
  const __m512i special = _mm512_ternarylogic_epi32(e1, e2, e3, 0x80);  // e1 & e2 & e3
  const __mmask64 must23 = _mm512_cmpge_epu8_mask(prev_bytes<2>(v), _mm512_set1_epi8(static_cast<char>(0xE0))) |
                           _mm512_cmpge_epu8_mask(prev_bytes<3>(v), _mm512_set1_epi8(static_cast<char>(0xF0)));
  const __m512i expected = _mm512_maskz_mov_epi8(must23, _mm512_set1_epi8(static_cast<char>(0x80)));
  const __m512i err = _mm512_xor_si512(special, expected);
  return _mm512_test_epi8_mask(err, err) != 0;
}

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif
#endif
