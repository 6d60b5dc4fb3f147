// utf8dfa: AVX-512 check of one block of UTF-8 that starts on a character boundary (the
// Keiser-Lemire idea: three nibble lookups on each pair of adjacent bytes, plus a check that the
// 3rd/4th bytes of long sequences are continuations). Used by the transcoding kernels; it says only
// whether the block holds an error, the scalar DFA says where and what.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_UTF8_BLOCK_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_UTF8_BLOCK_HPP

#include "../target.hpp"

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

/// Error bits of a pair (previous byte, current byte); a pair is ill-formed when the three
/// lookups (previous high nibble, previous low nibble, current high nibble) share a bit.
namespace pair_error {
inline constexpr std::uint8_t too_short = 1 << 0;                        // lead byte followed by a non-continuation
inline constexpr std::uint8_t too_long = 1 << 1;                         // ASCII followed by a continuation
inline constexpr std::uint8_t overlong_3 = 1 << 2;                       // E0 80..9F
inline constexpr std::uint8_t too_large = 1 << 3;                        // F4 90..BF, F5..FF 90..BF
inline constexpr std::uint8_t surrogate = 1 << 4;                        // ED A0..BF
inline constexpr std::uint8_t overlong_2 = 1 << 5;                       // C0/C1 followed by a continuation
inline constexpr std::uint8_t overlong_4 = 1 << 6;                       // F0 80..8F, and F5..FF 80..8F
inline constexpr std::uint8_t two_conts = 1 << 7;                        // continuation after continuation
inline constexpr std::uint8_t carry = too_short | too_long | two_conts;  // independent of the low nibble

/// Indexed by the high nibble of the previous byte.
inline constexpr std::uint8_t prev_high[16] = {too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               two_conts,
                                               two_conts,
                                               two_conts,
                                               two_conts,
                                               too_short | overlong_2,
                                               too_short,
                                               too_short | overlong_3 | surrogate,
                                               too_short | too_large | overlong_4};
/// Indexed by the low nibble of the previous byte.
inline constexpr std::uint8_t prev_low[16] = {carry | overlong_2 | overlong_3 | overlong_4,
                                              carry | overlong_2,
                                              carry,
                                              carry,
                                              carry | too_large,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4 | surrogate,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4};
/// Indexed by the high nibble of the current byte.
inline constexpr std::uint8_t cur_high[16] = {too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_long | overlong_2 | two_conts | overlong_3 | overlong_4,
                                              too_long | overlong_2 | two_conts | overlong_3 | too_large,
                                              too_long | overlong_2 | two_conts | surrogate | too_large,
                                              too_long | overlong_2 | two_conts | surrogate | too_large,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short};
}  // namespace pair_error

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
