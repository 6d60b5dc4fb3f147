// utf8dfa: NEON validation and counting for ARM64 (16-byte vectors, 64-byte blocks). NEON is always
// present on ARM64, so no run-time check or target region is needed.
#ifndef UTF8DFA_DETAIL_SIMD_NEON_VALIDATE_HPP
#define UTF8DFA_DETAIL_SIMD_NEON_VALIDATE_HPP

#include "../generic.hpp"
#include "../target.hpp"

#if UTF8DFA_NEON_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace neon {

/// Subtracted (saturating) from the last 16 bytes: non-zero when they end inside a character.
inline constexpr std::uint8_t incomplete_limit[16] = {0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      static_cast<std::uint8_t>(lead4_min - 1),
                                                      static_cast<std::uint8_t>(lead3_min - 1),
                                                      utf8_tail.hi};

/// The block check with its constants loaded once.
struct checker {
  uint8x16_t first_high, first_low, second_high, nibble, lead3, lead4, high_bit, limit;

  checker() noexcept
      : first_high(vld1q_u8(pair_lookup.first_high)),
        first_low(vld1q_u8(pair_lookup.first_low)),
        second_high(vld1q_u8(pair_lookup.second_high)),
        nibble(vdupq_n_u8(0x0F)),
        lead3(vdupq_n_u8(static_cast<std::uint8_t>(lead3_min - 0x80u))),
        lead4(vdupq_n_u8(static_cast<std::uint8_t>(lead4_min - 0x80u))),
        high_bit(vdupq_n_u8(0x80)),
        limit(vld1q_u8(incomplete_limit)) {}

  /// Non-zero where the pair check or the 3-/4-byte continuation check fails in `in`.
  uint8x16_t operator()(uint8x16_t in, uint8x16_t prev) const noexcept {
    const uint8x16_t prev1 = vextq_u8(prev, in, 15);
    const uint8x16_t a = vqtbl1q_u8(first_high, vshrq_n_u8(prev1, 4));
    const uint8x16_t b = vqtbl1q_u8(first_low, vandq_u8(prev1, nibble));
    const uint8x16_t c = vqtbl1q_u8(second_high, vshrq_n_u8(in, 4));
    const uint8x16_t flags = vandq_u8(vandq_u8(a, b), c);
    // Saturating subtraction leaves bit 7 set exactly for prev2 >= lead3_min, prev3 >= lead4_min.
    const uint8x16_t is3 = vqsubq_u8(vextq_u8(prev, in, 14), lead3);
    const uint8x16_t is4 = vqsubq_u8(vextq_u8(prev, in, 13), lead4);
    return veorq_u8(flags, vandq_u8(vorrq_u8(is3, is4), high_bit));
  }
  uint8x16_t ends_incomplete(uint8x16_t in) const noexcept { return vqsubq_u8(in, limit); }
};

/// Whether a byte of v is not 0: a saturating narrowing to 64 bits (one instruction, quicker than
/// a reduction across the lanes), then a test of those.
inline bool any(uint8x16_t v) noexcept {
  return vget_lane_u64(vreinterpret_u64_u8(vqmovn_u16(vreinterpretq_u16_u8(v))), 0) != 0;
}

struct block {
  uint8x16_t v[4];
};

inline block load_block(const unsigned char* p) noexcept {
  return {{vld1q_u8(p), vld1q_u8(p + 16), vld1q_u8(p + 32), vld1q_u8(p + 48)}};
}

/// Checks the 64 bytes `b` (preceded by `prev`); returns the error vector.
inline uint8x16_t check_block(const checker& check, const block& b, uint8x16_t prev, uint8x16_t& incomplete) noexcept {
  const uint8x16_t all = vorrq_u8(vorrq_u8(b.v[0], b.v[1]), vorrq_u8(b.v[2], b.v[3]));
  if (vmaxvq_u8(all) < 0x80) return incomplete;  // ASCII: only a cut character before it fails
  uint8x16_t err = vorrq_u8(check(b.v[0], prev), check(b.v[1], b.v[0]));
  err = vorrq_u8(err, vorrq_u8(check(b.v[2], b.v[1]), check(b.v[3], b.v[2])));
  incomplete = check.ends_incomplete(b.v[3]);
  return err;
}

/// Inputs shorter than this go to the scalar DFA (the checks need 80 readable bytes).
inline constexpr std::size_t min_block_input = 80;

/// How far past the block start a failing check_blocks step reaches.
inline constexpr std::size_t block_span = 64;

/// Runs the block checks over [p, p+n) (n >= min_block_input): `blocks_pass` when they all pass
/// (the input is well-formed), else b such that [0, b) passed and [b, b + block_span) failed.
inline std::size_t check_blocks(const unsigned char* p, std::size_t n) noexcept {
  const checker check;
  uint8x16_t prev = vdupq_n_u8(0), incomplete = vdupq_n_u8(0);
  std::size_t i = 0;
  while (n - i >= 64) {
    const block b = load_block(p + i);
    // ASCII: only a character cut before it fails; then the run of ASCII blocks after it in a
    // loop of its own, with nothing else to check.
    if (vmaxvq_u8(vorrq_u8(vorrq_u8(b.v[0], b.v[1]), vorrq_u8(b.v[2], b.v[3]))) < 0x80) {
      if (UTF8DFA_UNLIKELY(any(incomplete))) return i;
      for (i += 64; n - i >= 64; i += 64) {
        const uint8x16x4_t v = vld1q_u8_x4(p + i);
        if (vmaxvq_u8(vorrq_u8(vorrq_u8(v.val[0], v.val[1]), vorrq_u8(v.val[2], v.val[3]))) >= 0x80) break;
      }
      prev = vld1q_u8(p + i - 16);
      continue;
    }
    if (UTF8DFA_UNLIKELY(any(check_block(check, b, prev, incomplete)))) return i;
    prev = b.v[3];
    i += 64;
  }
  // The last 64 bytes again (re-checking bytes that passed is harmless), then the end of input.
  uint8x16_t err = incomplete;
  if (i < n) {
    const block b = load_block(p + n - 64);
    uint8x16_t ignored = incomplete;
    err = vorrq_u8(check_block(check, b, vld1q_u8(p + n - 80), ignored), check.ends_incomplete(b.v[3]));
  }
  if (UTF8DFA_UNLIKELY(any(err))) return i;
  return blocks_pass;
}

/// validate_scalar's answer, 64 bytes per step.
inline packed_validation validate(const unsigned char* p, std::size_t n) noexcept {
  if (n < min_block_input) return validate_scalar(p, n);
  const std::size_t b = check_blocks(p, n);
  if (UTF8DFA_LIKELY(b == blocks_pass)) return {n, 0, error_code::none};
  return rescan_from(p, n, b);
}

/// Counts the lead bytes (and with `extra` also the bytes >= F0) of [i, n): 64 bytes a step in
/// byte lanes (two sums of two comparisons each, so that the accumulator's chain is two adds long),
/// flushed before a lane could wrap; then whole vectors. Advances i past what it counted.
inline std::size_t count_vectors(const unsigned char* p, std::size_t n, bool extra, std::size_t& i) noexcept {
  const int8x16_t limit = vdupq_n_s8(-65);
  const uint8x16_t four = vdupq_n_u8(lead4_min);
  std::size_t count = 0;
  // Lanes of a comparison are 0 or -1: the accumulators subtract them.
  const auto leads = [&](uint8x16_t v) { return vcgtq_s8(vreinterpretq_s8_u8(v), limit); };
  while (n - i >= 64) {
    const std::size_t most = extra ? 31 : 63;  // a lane gains 4 a step, or 8 with `extra`
    const std::size_t blocks = (n - i) / 64 < most ? (n - i) / 64 : most;
    uint8x16_t acc = vdupq_n_u8(0);
    for (std::size_t k = 0; k < blocks; ++k, i += 64) {
      const uint8x16x4_t b = vld1q_u8_x4(p + i);
      acc = vsubq_u8(acc, vaddq_u8(leads(b.val[0]), leads(b.val[1])));
      acc = vsubq_u8(acc, vaddq_u8(leads(b.val[2]), leads(b.val[3])));
      if (extra) {
        acc = vsubq_u8(acc, vaddq_u8(vcgeq_u8(b.val[0], four), vcgeq_u8(b.val[1], four)));
        acc = vsubq_u8(acc, vaddq_u8(vcgeq_u8(b.val[2], four), vcgeq_u8(b.val[3], four)));
      }
    }
    count += vaddlvq_u8(acc);
  }
  for (; n - i >= 16; i += 16) {
    const uint8x16_t in = vld1q_u8(p + i);
    uint8x16_t acc = vsubq_u8(vdupq_n_u8(0), leads(in));
    if (extra) acc = vsubq_u8(acc, vcgeq_u8(in, four));
    count += vaddvq_u8(acc);
  }
  return count;
}

/// Bytes that are not continuation bytes.
inline std::size_t count_leads(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  const std::size_t count = count_vectors(p, n, false, i);
  return count + count_leads_scalar(p + i, n - i);
}

/// UTF-16 units of well-formed input: leads, plus one more for each 4-byte lead (F0..FF).
inline std::size_t utf16_length(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  const std::size_t count = count_vectors(p, n, true, i);
  return count + utf16_length_scalar(p + i, n - i);
}

}  // namespace neon
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
