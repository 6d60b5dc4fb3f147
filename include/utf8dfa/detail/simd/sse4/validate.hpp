// utf8dfa: SSE4.2 validation and counting (16-byte vectors, 64-byte blocks).
#ifndef UTF8DFA_DETAIL_SIMD_SSE4_VALIDATE_HPP
#define UTF8DFA_DETAIL_SIMD_SSE4_VALIDATE_HPP

#include "../generic.hpp"
#include "../target.hpp"

#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace sse4 {

UTF8DFA_TARGET_SSE4 inline __m128i splat(unsigned v) noexcept {
  return _mm_set1_epi8(static_cast<char>(v));
}

UTF8DFA_TARGET_SSE4 inline __m128i load(const void* p) noexcept {
  return _mm_loadu_si128(static_cast<const __m128i*>(p));
}

/// The block check with its constants loaded once (outside the loops that use it).
struct checker {
  __m128i first_high, first_low, second_high, nibble, lead3, lead4, high_bit;

  UTF8DFA_TARGET_SSE4 checker() noexcept
      : first_high(load(pair_lookup.first_high)),
        first_low(load(pair_lookup.first_low)),
        second_high(load(pair_lookup.second_high)),
        nibble(splat(0x0F)),
        lead3(splat(lead3_min - 0x80u)),
        lead4(splat(lead4_min - 0x80u)),
        high_bit(splat(0x80)) {}

  /// Non-zero where the pair check or the 3-/4-byte continuation check fails in `in`, given the
  /// 16 bytes before it.
  UTF8DFA_TARGET_SSE4 __m128i operator()(__m128i in, __m128i prev) const noexcept {
    const __m128i prev1 = _mm_alignr_epi8(in, prev, 15);
    const __m128i a = _mm_shuffle_epi8(first_high, _mm_and_si128(_mm_srli_epi16(prev1, 4), nibble));
    const __m128i b = _mm_shuffle_epi8(first_low, _mm_and_si128(prev1, nibble));
    const __m128i c = _mm_shuffle_epi8(second_high, _mm_and_si128(_mm_srli_epi16(in, 4), nibble));
    const __m128i flags = _mm_and_si128(_mm_and_si128(a, b), c);
    // Saturating subtraction leaves bit 7 set exactly for prev2 >= lead3_min, prev3 >= lead4_min.
    const __m128i is3 = _mm_subs_epu8(_mm_alignr_epi8(in, prev, 14), lead3);
    const __m128i is4 = _mm_subs_epu8(_mm_alignr_epi8(in, prev, 13), lead4);
    const __m128i must_continue = _mm_and_si128(_mm_or_si128(is3, is4), high_bit);
    return _mm_xor_si128(flags, must_continue);
  }
};

/// Non-zero when `in` ends inside a character.
UTF8DFA_TARGET_SSE4 inline __m128i ends_incomplete(__m128i in) noexcept {
  const __m128i limit =
      _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, static_cast<char>(lead4_min - 1),
                    static_cast<char>(lead3_min - 1), static_cast<char>(utf8_tail.hi));
  return _mm_subs_epu8(in, limit);
}

struct block {
  __m128i v[4];
};

/// Checks the 64 bytes `b` (preceded by `prev`); returns the error vector.
UTF8DFA_TARGET_SSE4 inline __m128i check_block(const checker& check, const block& b, __m128i prev,
                                               __m128i& incomplete) noexcept {
  const __m128i any = _mm_or_si128(_mm_or_si128(b.v[0], b.v[1]), _mm_or_si128(b.v[2], b.v[3]));
  if (_mm_movemask_epi8(any) == 0) return incomplete;  // ASCII: only a cut character before it fails
  __m128i err = _mm_or_si128(check(b.v[0], prev), check(b.v[1], b.v[0]));
  err = _mm_or_si128(err, _mm_or_si128(check(b.v[2], b.v[1]), check(b.v[3], b.v[2])));
  incomplete = ends_incomplete(b.v[3]);
  return err;
}

UTF8DFA_TARGET_SSE4 inline block load_block(const unsigned char* p) noexcept {
  return {{load(p), load(p + 16), load(p + 32), load(p + 48)}};
}

/// Inputs shorter than this go to the scalar DFA (the checks need 80 readable bytes).
inline constexpr std::size_t min_block_input = 80;

/// How far past the block start a failing check_blocks step reaches.
inline constexpr std::size_t block_span = 64;

/// Runs the block checks over [p, p+n) (n >= min_block_input): `blocks_pass` when they all pass
/// (the input is well-formed), else b such that [0, b) passed and [b, b + block_span) failed.
UTF8DFA_TARGET_SSE4 inline std::size_t check_blocks(const unsigned char* p, std::size_t n) noexcept {
  const checker check;
  __m128i prev = _mm_setzero_si128(), incomplete = _mm_setzero_si128();
  std::size_t i = 0;
  for (; n - i >= 64; i += 64) {
    const block b = load_block(p + i);
    const __m128i err = check_block(check, b, prev, incomplete);
    if (UTF8DFA_UNLIKELY(!_mm_testz_si128(err, err))) return i;
    prev = b.v[3];
  }
  // The last 64 bytes again (re-checking bytes that passed is harmless), then the end of input.
  __m128i err = incomplete;
  if (i < n) {
    const block b = load_block(p + n - 64);
    __m128i ignored = incomplete;
    err = _mm_or_si128(check_block(check, b, load(p + n - 80), ignored), ends_incomplete(b.v[3]));
  }
  if (UTF8DFA_UNLIKELY(!_mm_testz_si128(err, err))) return i;
  return blocks_pass;
}

/// validate_scalar's answer for n >= min_block_input, 64 bytes per step.
UTF8DFA_TARGET_SSE4 UTF8DFA_NOINLINE inline packed_validation validate_blocks(const unsigned char* p,
                                                                              std::size_t n) noexcept {
  const std::size_t b = check_blocks(p, n);
  if (UTF8DFA_LIKELY(b == blocks_pass)) return {n, 0, error_code::none};
  return rescan_from(p, n, b);
}

/// validate_scalar's answer. Short inputs take the scalar DFA: this function is plain code (no
/// target region), so they run exactly as in the scalar kernel.
inline packed_validation validate(const unsigned char* p, std::size_t n) noexcept {
  return n < min_block_input ? validate_scalar(p, n) : validate_blocks(p, n);
}

/// Bytes that are not continuation bytes (80..BF are the signed bytes below -64).
UTF8DFA_TARGET_SSE4 inline std::size_t count_leads(const unsigned char* p, std::size_t n) noexcept {
  const __m128i limit = splat(0xBF);  // -65
  std::size_t count = 0, i = 0;
  for (; n - i >= 16; i += 16) {
    const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpgt_epi8(load(p + i), limit)));
    count += static_cast<unsigned>(_mm_popcnt_u32(m));
  }
  return count + count_leads_scalar(p + i, n - i);
}

/// UTF-16 units of well-formed input: leads, plus one more for each 4-byte lead (F0..FF).
UTF8DFA_TARGET_SSE4 inline std::size_t utf16_length(const unsigned char* p, std::size_t n) noexcept {
  const __m128i cont_limit = splat(0xBF), four_limit = splat(lead4_min - 1u);
  std::size_t count = 0, i = 0;
  for (; n - i >= 16; i += 16) {
    const __m128i in = load(p + i);
    const unsigned leads = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpgt_epi8(in, cont_limit)));
    // Signed: F0..FF are -16..-1, the only negative bytes above -17.
    const unsigned fours = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(in, four_limit), in)));
    count += static_cast<unsigned>(_mm_popcnt_u32(leads) + _mm_popcnt_u32(fours));
  }
  return count + utf16_length_scalar(p + i, n - i);
}

}  // namespace sse4
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
