// utf8dfa: AVX-512 validation and counting (64-byte vectors; tails through masked loads, which never
// touch the bytes they mask out).
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_VALIDATE_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_VALIDATE_HPP

#include "../generic.hpp"
#include "../target.hpp"

#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx512 {

UTF8DFA_TARGET_AVX512 inline __m512i splat(unsigned v) noexcept {
  return _mm512_set1_epi8(static_cast<char>(v));
}

UTF8DFA_TARGET_AVX512 inline __m512i load(const void* p) noexcept {
  return _mm512_loadu_si512(p);
}

/// The first `k` (< 64) bytes at p, zeros after them; reads nothing beyond p + k.
UTF8DFA_TARGET_AVX512 inline __m512i load_first(const void* p, std::size_t k) noexcept {
  return _mm512_maskz_loadu_epi8(_bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(k)), p);
}

/// A 16-entry table in all four 128-bit lanes (vpshufb looks up within each lane). The maskz forms
/// here and below avoid a false -Wmaybe-uninitialized of GCC 12 in the unmasked intrinsics.
UTF8DFA_TARGET_AVX512 inline __m512i lanes(const std::uint8_t* table16) noexcept {
  return _mm512_maskz_broadcast_i32x4(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(table16)));
}

/// The block check with its constants loaded once (outside the loops that use it).
struct checker {
  __m512i first_high, first_low, second_high, nibble, lead3, lead4, high_bit;

  UTF8DFA_TARGET_AVX512 checker() noexcept
      : first_high(lanes(pair_lookup.first_high)),
        first_low(lanes(pair_lookup.first_low)),
        second_high(lanes(pair_lookup.second_high)),
        nibble(splat(0x0F)),
        lead3(splat(lead3_min - 0x80u)),
        lead4(splat(lead4_min - 0x80u)),
        high_bit(splat(0x80)) {}

  /// Non-zero where the pair check or the 3-/4-byte continuation check fails in `in`.
  UTF8DFA_TARGET_AVX512 __m512i operator()(__m512i in, __m512i prev) const noexcept {
    // Each 128-bit lane of `before` is the lane preceding the same lane of `in`.
    const __m512i before = _mm512_maskz_alignr_epi64(0xFF, in, prev, 6);
    const __m512i prev1 = _mm512_alignr_epi8(in, before, 15);
    const __m512i a = _mm512_shuffle_epi8(first_high, _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nibble));
    const __m512i b = _mm512_shuffle_epi8(first_low, _mm512_and_si512(prev1, nibble));
    const __m512i c = _mm512_shuffle_epi8(second_high, _mm512_and_si512(_mm512_srli_epi16(in, 4), nibble));
    // Saturating subtraction leaves bit 7 set exactly for prev2 >= lead3_min, prev3 >= lead4_min.
    const __m512i is3 = _mm512_subs_epu8(_mm512_alignr_epi8(in, before, 14), lead3);
    const __m512i is4 = _mm512_subs_epu8(_mm512_alignr_epi8(in, before, 13), lead4);
    // (a & b & c) ^ ((is3 | is4) & 0x80) in two ternary-logic steps.
    const __m512i flags = _mm512_ternarylogic_epi32(a, b, c, 0x80);
    const __m512i must_continue = _mm512_ternarylogic_epi32(is3, is4, high_bit, 0xA8);
    return _mm512_xor_si512(flags, must_continue);
  }
};

/// Non-zero when `in` (64 bytes) ends inside a character.
UTF8DFA_TARGET_AVX512 inline __m512i ends_incomplete(__m512i in) noexcept {
  const __m512i last3 = _mm512_set_epi64(
      static_cast<long long>((std::uint64_t{utf8_tail.hi} << 56) | (std::uint64_t{lead3_min - 1u} << 48) |
                             (std::uint64_t{lead4_min - 1u} << 40) | 0xFFFFFFFFFFull),
      -1, -1, -1, -1, -1, -1, -1);
  return _mm512_subs_epu8(in, last3);
}

/// The error vector of the block `in` preceded by `prev`; `incomplete` carries a cut character.
UTF8DFA_TARGET_AVX512 inline __m512i check_block(const checker& check, __m512i in, __m512i prev,
                                                 __m512i& incomplete) noexcept {
  if (_mm512_movepi8_mask(in) == 0) return incomplete;
  incomplete = ends_incomplete(in);
  return check(in, prev);
}

UTF8DFA_TARGET_AVX512 inline bool any(__m512i v) noexcept {
  return _mm512_test_epi8_mask(v, v) != 0;
}

/// Every length works (masked loads).
inline constexpr std::size_t min_block_input = 0;

/// How far past the block start a failing check_blocks step reaches.
inline constexpr std::size_t block_span = 128;

/// Runs the block checks over [p, p+n) (n >= min_block_input): `blocks_pass` when they all pass
/// (the input is well-formed), else b such that [0, b) passed and [b, b + block_span) failed.
UTF8DFA_TARGET_AVX512 inline std::size_t check_blocks(const unsigned char* p, std::size_t n) noexcept {
  const checker check;
  __m512i prev = _mm512_setzero_si512(), incomplete = _mm512_setzero_si512();
  std::size_t i = 0;
  // Two blocks per step: one ASCII test and one error test for both.
  for (; n - i >= 128; i += 128) {
    const __m512i in0 = load(p + i), in1 = load(p + i + 64);
    __m512i err = incomplete;
    if (_mm512_movepi8_mask(_mm512_or_si512(in0, in1)) != 0) {
      err = _mm512_or_si512(check(in0, prev), check(in1, in0));
      incomplete = ends_incomplete(in1);
    }
    if (UTF8DFA_UNLIKELY(any(err))) return i;
    prev = in1;
  }
  for (; n - i >= 64; i += 64) {
    const __m512i in = load(p + i);
    if (UTF8DFA_UNLIKELY(any(check_block(check, in, prev, incomplete)))) return i;
    prev = in;
  }
  __m512i err = incomplete;
  if (i < n) err = check_block(check, load_first(p + i, n - i), prev, incomplete);
  if (UTF8DFA_UNLIKELY(any(err))) return i;
  return blocks_pass;
}

/// validate_scalar's answer, 64 bytes per step; the tail (and a short input) is one masked block
/// whose zero padding makes a character cut by the end fail the pair checks.
UTF8DFA_TARGET_AVX512 inline validation_result validate(const unsigned char* p, std::size_t n) noexcept {
  const std::size_t b = check_blocks(p, n);
  if (UTF8DFA_LIKELY(b == blocks_pass)) return {n, 0, error_code::none};
  return rescan_from(p, n, b);
}

/// Bytes that are not continuation bytes (80..BF are the signed bytes below -64).
UTF8DFA_TARGET_AVX512 inline std::size_t count_leads(const unsigned char* p, std::size_t n) noexcept {
  const __m512i limit = splat(0xBF);
  std::size_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, i = 0;
  for (; n - i >= 256; i += 256) {  // four independent counts keep the loads flowing
    c0 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i), limit)));
    c1 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i + 64), limit)));
    c2 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i + 128), limit)));
    c3 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i + 192), limit)));
  }
  std::size_t count = c0 + c1 + c2 + c3;
  for (; n - i >= 64; i += 64)
    count += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i), limit)));
  if (i < n) {
    const std::uint64_t valid = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(n - i));
    count +=
        static_cast<std::size_t>(_mm_popcnt_u64(_mm512_mask_cmpgt_epi8_mask(valid, load_first(p + i, n - i), limit)));
  }
  return count;
}

/// UTF-16 units of well-formed input: leads, plus one more for each 4-byte lead (F0..FF).
UTF8DFA_TARGET_AVX512 inline std::size_t utf16_length(const unsigned char* p, std::size_t n) noexcept {
  const __m512i cont_limit = splat(0xBF), four_min = splat(lead4_min);
  std::size_t count = 0, i = 0;
  for (; n - i >= 64; i += 64) {
    const __m512i in = load(p + i);
    count += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(in, cont_limit)) +
                                      _mm_popcnt_u64(_mm512_cmpge_epu8_mask(in, four_min)));
  }
  if (i < n) {
    const std::uint64_t valid = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(n - i));
    const __m512i in = load_first(p + i, n - i);
    count += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_mask_cmpgt_epi8_mask(valid, in, cont_limit)) +
                                      _mm_popcnt_u64(_mm512_cmpge_epu8_mask(in, four_min)));
  }
  return count;
}

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
