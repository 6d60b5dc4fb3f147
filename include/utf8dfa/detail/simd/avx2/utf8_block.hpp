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

/// The block v shifted towards higher addresses by N bytes, with the bytes before it shifted in:
/// `up16` holds, per 128-bit lane, the 16 bytes before that lane (zeros before the block, or the
/// high lane of the block before it, for its low lane; v's low lane for its high lane).
template <int N>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i prev_bytes(__m256i v, __m256i up16) noexcept {
  return _mm256_alignr_epi8(v, up16, 16 - N);
}

/// Byte constants of the block loop of utf8_to_utf_impl (transcode.hpp), made once a call and kept
/// in registers (GCC otherwise builds each of them again in every block, three instructions apiece).
struct byte_constants {
  __m256i lead_min;   // C0 (-64): continuation bytes are below it, as signed bytes
  __m256i four_min;   // 70: a byte minus it (saturated) has bit 7 set from F0 on
  __m256i three_min;  // 60: the same from E0 on
  __m256i nibble;     // 0F
  __m256i top_bit;    // 80
};

UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE byte_constants make_byte_constants() noexcept {
  byte_constants k{_mm256_set1_epi8(-64), _mm256_set1_epi8(0x70), _mm256_set1_epi8(0x60), _mm256_set1_epi8(0x0F),
                   _mm256_set1_epi8(static_cast<char>(0x80))};
  // (Opaque to the compiler, so not rebuilt.)
  __asm__("" : "+x"(k.lead_min), "+x"(k.four_min), "+x"(k.three_min), "+x"(k.nibble), "+x"(k.top_bit));
  return k;
}

/// The errors of the 32 bytes v whose bytes before are those of `up16` (see prev_bytes): a byte
/// not zero where an ill-formed pair ends or a long sequence is cut before its end inside the block
/// (a character cut by the block end is no error).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i utf8_block_errors_in(__m256i v, __m256i up16,
                                                                       const byte_constants& k) noexcept {
  const __m256i nib = k.nibble;
  const __m256i p1 = prev_bytes<1>(v, up16);
  const __m256i e1 =
      _mm256_shuffle_epi8(lane_table(pair_error::prev_high), _mm256_and_si256(_mm256_srli_epi16(p1, 4), nib));
  const __m256i e2 = _mm256_shuffle_epi8(lane_table(pair_error::prev_low), _mm256_and_si256(p1, nib));
  const __m256i e3 =
      _mm256_shuffle_epi8(lane_table(pair_error::cur_high), _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
  const __m256i special = _mm256_and_si256(_mm256_and_si256(e1, e2), e3);
  // Bit 7 set exactly where the byte two back is E0..FF or the byte three back is F0..FF.
  const __m256i must23 = _mm256_or_si256(_mm256_subs_epu8(prev_bytes<2>(v, up16), k.three_min),
                                         _mm256_subs_epu8(prev_bytes<3>(v, up16), k.four_min));
  return _mm256_xor_si256(special, _mm256_and_si256(must23, k.top_bit));
}

/// The errors of the 32 bytes v read as the start of a text (utf8_block_errors_in).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i utf8_block_errors(__m256i v, const byte_constants& k) noexcept {
  return utf8_block_errors_in(v, _mm256_permute2x128_si256(v, v, 0x08), k);  // (zeros, low lane)
}

/// True when the 32 bytes v that follow the 32 bytes `before` hold an error (utf8_block_errors_in):
/// v may start inside a character that `before` starts.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf8_block_after_has_error(__m256i v, __m256i before,
                                                                          const byte_constants& k) noexcept {
  const __m256i err = utf8_block_errors_in(v, _mm256_permute2x128_si256(before, v, 0x21), k);
  return !_mm256_testz_si256(err, err);
}

/// True when the 32 bytes v, read as the start of a text, hold an error (utf8_block_errors).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf8_block_has_error(__m256i v, const byte_constants& k) noexcept {
  const __m256i err = utf8_block_errors(v, k);
  return !_mm256_testz_si256(err, err);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
#endif
