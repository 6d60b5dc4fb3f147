// utf8dfa: AVX2 check of one 32-byte block of UTF-8 that starts on a character boundary: the same
// nibble lookups as the AVX-512 check (tables in transcode_common.hpp).
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_UTF8_BLOCK_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_UTF8_BLOCK_HPP

#include "../target.hpp"
#include "../transcode_common.hpp"

#if UTF8DFA_X86_KERNELS

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

/// A 16-byte table repeated in both 128-bit lanes (for vpshufb lookups).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i lane_table(const std::uint8_t (&t)[16]) noexcept {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}

/// The block shifted towards higher addresses by N bytes, zeros shifted in.
template <int N>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i prev_bytes(__m256i v) noexcept {
  const __m256i up16 = _mm256_permute2x128_si256(v, v, 0x08);  // (0, low lane)
  return _mm256_alignr_epi8(v, up16, 16 - N);
}

/// True when the 32 bytes v, read as the start of a text, hold an ill-formed pair or a long
/// sequence cut before its end inside the block (a character cut by the block end is no error).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf8_block_has_error(__m256i v) noexcept {
  const __m256i nib = _mm256_set1_epi8(0x0F);
  const __m256i p1 = prev_bytes<1>(v);
  const __m256i e1 =
      _mm256_shuffle_epi8(lane_table(pair_error::prev_high), _mm256_and_si256(_mm256_srli_epi16(p1, 4), nib));
  const __m256i e2 = _mm256_shuffle_epi8(lane_table(pair_error::prev_low), _mm256_and_si256(p1, nib));
  const __m256i e3 =
      _mm256_shuffle_epi8(lane_table(pair_error::cur_high), _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
  const __m256i special = _mm256_and_si256(_mm256_and_si256(e1, e2), e3);
  // Bit 7 set exactly where the byte two back is E0..FF or the byte three back is F0..FF.
  const __m256i must23 = _mm256_or_si256(_mm256_subs_epu8(prev_bytes<2>(v), _mm256_set1_epi8(0x60)),
                                         _mm256_subs_epu8(prev_bytes<3>(v), _mm256_set1_epi8(0x70)));
  const __m256i expected = _mm256_and_si256(must23, _mm256_set1_epi8(static_cast<char>(0x80)));
  const __m256i err = _mm256_xor_si256(special, expected);
  return !_mm256_testz_si256(err, err);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
#endif
