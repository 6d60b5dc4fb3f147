// utf8dfa: AVX-512 output lengths of the conversions, exact on ill-formed input too: the block check
// and a count in one pass over well-formed blocks, the scalar decoder over a block that holds an
// error (length_common.hpp). Tails use masked loads: nothing is read past the input.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_LENGTH_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_LENGTH_HPP

#include "../../scalar.hpp"
#include "../length_common.hpp"
#include "../target.hpp"
#include "utf8_block.hpp"
#include "validate.hpp"

#if UTF8DFA_X86_KERNELS
#include <cstddef>
#include <cstdint>

// GCC 12's AVX-512 intrinsics seed their results with a self-initialised "undefined" vector, which
// -Wmaybe-uninitialized reports once they are inlined (GCC bug 105593); nothing here is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx512 {

/// Output units per UTF-8 byte of well-formed text, by its high nibble: one per lead, none per
/// continuation, and for UTF-16 two per 4-byte lead.
inline constexpr std::uint8_t utf32_units_per_nibble[16] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1};
inline constexpr std::uint8_t utf16_units_per_nibble[16] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 2};

/// Units per byte of the 64 bytes `in` (by the high nibble).
UTF8DFA_TARGET_AVX512 inline __m512i units_of(__m512i table, __m512i nibble, __m512i in) noexcept {
  return _mm512_shuffle_epi8(table, _mm512_and_si512(_mm512_srli_epi16(in, 4), nibble));
}

/// The F0..FF bytes among the 3 before p + i (i >= 3): for UTF-16, step_checker counts the second
/// unit of a 4-byte character at its 4th byte, the nibble lookup at its lead.
inline std::size_t fours_before(const unsigned char* p, std::size_t i) noexcept {
  return std::size_t{p[i - 1] >= lead4_min} + std::size_t{p[i - 2] >= lead4_min} + std::size_t{p[i - 3] >= lead4_min};
}

/// The length_segment of UTF-8 (see length_common.hpp): the block checks of validate.hpp, each block
/// that passes also counted. After a first block, 256 bytes a step with one error test: ASCII steps
/// only checked for a character cut before them; others get step_checker's check and count (the
/// 4-byte part only when the step or the one before holds an F0..FF byte); then 64-byte blocks and
/// the masked tail, counted by a nibble lookup per byte as the first block is.
template <bool Utf16>
UTF8DFA_TARGET_AVX512 std::size_t utf8_units_segment(const unsigned char* p, std::size_t n,
                                                     std::size_t& count) noexcept {
  // ASCII first, before the constants are built (as check_blocks does).
  std::size_t i = ascii_prefix(p, n), ascii = i, stop = blocks_pass;
  if (n - i < 64 && (i == n || _mm512_movepi8_mask(load_first(p + i, n - i)) == 0)) {
    count = n;
    return blocks_pass;
  }
  const checker check;
  const step_checker lc;
  const __m512i table = lanes(Utf16 ? utf16_units_per_nibble : utf32_units_per_nibble);
  const __m512i zero = _mm512_setzero_si512();
  __m512i prev = zero, incomplete = zero, sums = zero;
  bool four = i == 0;       // an F0..FF byte may be in the block before the step
  if (i == 0 && n >= 64) {  // the first block: nothing before it
    const __m512i in = load(p);
    if (UTF8DFA_UNLIKELY(any(check_block(check, in, prev, incomplete)))) {
      count = 0;
      return 0;
    }
    sums = _mm512_sad_epu8(units_of(table, check.nibble, in), zero);
    i = 64;
    if (Utf16) ascii -= fours_before(p, i);
  }
  for (; n - i >= 256; i += 256) {
    const __m512i in0 = load(p + i), in1 = load(p + i + 64), in2 = load(p + i + 128), in3 = load(p + i + 192);
    const __m512i top = _mm512_max_epu8(_mm512_max_epu8(in0, in1), _mm512_max_epu8(in2, in3));
    if (_mm512_movepi8_mask(top) == 0) {
      // ASCII: an error only if a character before it is cut.
      if (UTF8DFA_UNLIKELY(p[i - 1] >= 0xC0 || p[i - 2] >= lead3_min || p[i - 3] >= lead4_min)) break;
      ascii += 256;
      four = false;
      continue;
    }
    const __m512i hi0 = lc.high(in0), hi1 = lc.high(in1), hi2 = lc.high(in2), hi3 = lc.high(in3);
    const bool has4 = _mm512_cmpge_epu8_mask(top, lc.lead4) != 0;
    std::size_t conts = 0;
    __m512i e0, e1, e2, e3;
    if (has4 || four) {
      e0 = lc.error<true, Utf16>(p + i, hi0, conts);
      e1 = lc.error<true, Utf16>(p + i + 64, hi1, conts);
      e2 = lc.error<true, Utf16>(p + i + 128, hi2, conts);
      e3 = lc.error<true, Utf16>(p + i + 192, hi3, conts);
    } else {
      e0 = lc.error<false, Utf16>(p + i, hi0, conts);
      e1 = lc.error<false, Utf16>(p + i + 64, hi1, conts);
      e2 = lc.error<false, Utf16>(p + i + 128, hi2, conts);
      e3 = lc.error<false, Utf16>(p + i + 192, hi3, conts);
    }
    const __m512i err = _mm512_ternarylogic_epi32(_mm512_or_si512(e0, e1), e2, e3, 0xFE);  // any of them
    four = has4;
    if (UTF8DFA_UNLIKELY(any(err))) break;
    ascii += 256 - conts;
  }
  if (Utf16 && i >= 64) ascii += fours_before(p, i);
  if (n - i >= 256) {
    stop = i;
  } else {
    if (i >= 64) {  // the block before: the checks below read it
      prev = load(p + i - 64);
      incomplete = ends_incomplete(prev);
    }
    for (; n - i >= 64; i += 64) {
      const __m512i in = load(p + i);
      if (UTF8DFA_UNLIKELY(any(check_block(check, in, prev, incomplete)))) break;
      sums = _mm512_add_epi64(sums, _mm512_sad_epu8(units_of(table, check.nibble, in), zero));
      prev = in;
    }
    if (n - i >= 64) {
      stop = i;
    } else if (i < n) {
      const __m512i in = load_first(p + i, n - i);
      if (UTF8DFA_UNLIKELY(any(check_block(check, in, prev, incomplete)))) {
        stop = i;
      } else {
        const __m512i live = _mm512_maskz_mov_epi8(_bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(n - i)),
                                                   units_of(table, check.nibble, in));
        sums = _mm512_add_epi64(sums, _mm512_sad_epu8(live, zero));
      }
    } else if (UTF8DFA_UNLIKELY(any(incomplete))) {
      stop = i;
    }
  }
  count = ascii + static_cast<std::size_t>(_mm512_reduce_add_epi64(sums));
  return stop;
}

/// UTF-8 bytes less one of a UTF-16 unit w (not a surrogate), by w >> 7 below 64 (2 from 64 on).
inline constexpr std::uint8_t utf16_more_by_x[64] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2,
                                                     2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                                                     2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};

/// The constants of the UTF-16 count.
struct utf16_count_constants {
  __m512i tag, high, low, x80, x800, one, two, f800, more_low, more_high;

  UTF8DFA_TARGET_AVX512 utf16_count_constants() noexcept
      : tag(opaque(_mm512_set1_epi16(static_cast<short>(0xFC00)))),
        high(opaque(_mm512_set1_epi16(static_cast<short>(0xD800)))),
        low(opaque(_mm512_set1_epi16(static_cast<short>(0xDC00)))),
        x80(opaque(_mm512_set1_epi16(0x80))),
        x800(opaque(_mm512_set1_epi16(0x800))),
        one(opaque(_mm512_set1_epi16(1))),
        two(opaque(_mm512_set1_epi16(2))),
        f800(opaque(_mm512_set1_epi16(static_cast<short>(0xF800)))),
        more_low(opaque(_mm512_loadu_si512(utf16_more_by_x))),
        more_high(opaque(_mm512_set1_epi8(2))) {}

  /// The UTF-8 bytes less one of each unit of a and b, scalar values, one per byte (in some
  /// order): (>= 0x80) + (>= 0x800), looked up by w >> 7 narrowed to a byte with signed saturation
  /// (no compares: their masks would wait on the mask ports).
  UTF8DFA_TARGET_AVX512 __m512i more(__m512i a, __m512i b) const noexcept {
    const __m512i x = _mm512_packs_epi16(_mm512_srli_epi16(a, 7), _mm512_srli_epi16(b, 7));
    return _mm512_permutex2var_epi8(more_low, x, more_high);
  }
  /// Zero in the lanes of w that hold a surrogate.
  UTF8DFA_TARGET_AVX512 __m512i not_surrogate(__m512i w) const noexcept {
    return _mm512_ternarylogic_epi32(w, f800, high, 0x6A);  // (w & f800) ^ high
  }
};

/// Adds the UTF-8 bytes of the 32 units w, less one each, to the 16-bit lanes of acc, unless a
/// surrogate is unpaired (`next`: the units one position later; lanes past the input are zero, so
/// they add nothing and a high surrogate before them is unpaired): then returns false.
UTF8DFA_TARGET_AVX512 inline bool count_utf16_block(const utf16_count_constants& k, __m512i w, __m512i next,
                                                    __m512i& acc) noexcept {
  const __mmask32 hi = _mm512_cmpeq_epi16_mask(_mm512_and_si512(w, k.tag), k.high);
  const __mmask32 lo_next = _mm512_cmpeq_epi16_mask(_mm512_and_si512(next, k.tag), k.low);
  if (UTF8DFA_UNLIKELY(hi != lo_next)) return false;
  __m512i t = _mm512_maskz_mov_epi16(_mm512_cmpge_epu16_mask(w, k.x80), k.one);
  t = _mm512_mask_add_epi16(t, _mm512_cmpge_epu16_mask(w, k.x800), t, k.one);
  acc = _mm512_add_epi16(acc, _mm512_mask_sub_epi16(t, hi, t, k.two));
  return true;
}

/// The length_segment of UTF-16: 128 units per step while they hold no surrogate (ASCII steps only
/// checked), else 32 with the pair checks, then the masked tail. Bytes are 1 + (>= 0x80) +
/// (>= 0x800), minus 2 for a high surrogate (a pair is 1 + 3); the 16-bit lanes (at most 2 a lane
/// per 32 units) are widened before they could overflow.
UTF8DFA_TARGET_AVX512 inline std::size_t utf16_bytes_segment(const char16_t* p, std::size_t n,
                                                             std::size_t& count) noexcept {
  count = 0;
  if (n == 0) return blocks_pass;
  const utf16_count_constants k;
  const __m512i zero = _mm512_setzero_si512();
  __m512i acc = zero, bytes = zero, sums = zero;
  std::size_t i = 0, flushed = 0, extra = 0, steps = 0, stop = blocks_pass;
  for (;;) {
    // Blocks of 128 units without a surrogate: nothing to pair (a high surrogate before them was
    // checked against their first unit by the step that counted it).
    while (n - i >= 128) {
      const __m512i w0 = _mm512_loadu_si512(p + i), w1 = _mm512_loadu_si512(p + i + 32);
      const __m512i w2 = _mm512_loadu_si512(p + i + 64), w3 = _mm512_loadu_si512(p + i + 96);
      if (_mm512_cmpge_epu16_mask(_mm512_or_si512(_mm512_or_si512(w0, w1), _mm512_or_si512(w2, w3)), k.x80) != 0) {
        // Zero in the lanes of a surrogate.
        const __m512i sur = _mm512_min_epu16(_mm512_min_epu16(k.not_surrogate(w0), k.not_surrogate(w1)),
                                             _mm512_min_epu16(k.not_surrogate(w2), k.not_surrogate(w3)));
        if (_mm512_testn_epi16_mask(sur, sur) != 0) break;
        bytes = _mm512_add_epi8(bytes, _mm512_add_epi8(k.more(w0, w1), k.more(w2, w3)));
        if (++steps == 60) {  // at most 4 a lane per step
          sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, zero));
          bytes = zero;
          steps = 0;
        }
      }
      i += 128;
    }
    if (n == i) break;
    // A low surrogate first must follow a high one (only the steps below check pairs).
    if ((p[i] & 0xFC00) == 0xDC00 && (i == 0 || (p[i - 1] & 0xFC00) != 0xD800)) {
      stop = i;
      break;
    }
    if (n - i <= 32) {  // the tail, masked
      const std::size_t avail = n - i;
      const __m512i w = _mm512_maskz_loadu_epi16(_bzhi_u32(~0u, static_cast<unsigned>(avail)), p + i);
      const __m512i next = _mm512_maskz_loadu_epi16(_bzhi_u32(~0u, static_cast<unsigned>(avail - 1)), p + i + 1);
      if (count_utf16_block(k, w, next, acc))
        i = n;
      else
        stop = i;
      break;
    }
    // Up to 128 units, 32 per step, with the pair checks.
    for (const std::size_t end = i + 128; i < end && n - i > 32; i += 32)
      if (UTF8DFA_UNLIKELY(!count_utf16_block(k, _mm512_loadu_si512(p + i), _mm512_loadu_si512(p + i + 1), acc))) {
        stop = i;
        break;
      }
    if (stop != blocks_pass) break;
    if (i - flushed >= 32 * 16000) {
      extra += static_cast<std::size_t>(_mm512_reduce_add_epi32(_mm512_madd_epi16(acc, k.one)));
      acc = _mm512_setzero_si512();
      flushed = i;
    }
  }
  sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, zero));
  count = i + extra + static_cast<std::size_t>(_mm512_reduce_add_epi64(sums)) +
          static_cast<std::size_t>(_mm512_reduce_add_epi32(_mm512_madd_epi16(acc, k.one)));
  return stop;
}

/// The constants of the UTF-32 count.
struct utf32_count_constants {
  __m512i sur, sur_len, top, x80, x10000, xffff, below_sur, one, f800, high16, more_low, more_high;

  UTF8DFA_TARGET_AVX512 utf32_count_constants() noexcept
      : sur(opaque(_mm512_set1_epi32(0xD800))),
        sur_len(opaque(_mm512_set1_epi32(0x800))),
        top(opaque(_mm512_set1_epi32(0x10FFFF))),
        x80(opaque(_mm512_set1_epi32(0x80))),
        x10000(opaque(_mm512_set1_epi32(0x10000))),
        xffff(opaque(_mm512_set1_epi32(0xFFFF))),
        below_sur(opaque(_mm512_set1_epi32(0xD7FF))),
        one(opaque(_mm512_set1_epi32(1))),
        f800(opaque(_mm512_set1_epi16(static_cast<short>(0xF800)))),
        high16(opaque(_mm512_set1_epi16(static_cast<short>(0xD800)))),
        more_low(opaque(_mm512_loadu_si512(utf16_more_by_x))),
        more_high(opaque(_mm512_set1_epi8(2))) {}

  /// Whether the units narrowed to 16 bits with unsigned saturation (exact below 0x10000), ab and
  /// cd, and their greatest `highest`, say scalar values: at most 0x10FFFF, not surrogates.
  UTF8DFA_TARGET_AVX512 bool scalar_values64(__m512i ab, __m512i cd, __m512i highest) const noexcept {
    // (u & 0xF800) ^ 0xD800: zero in the lanes of a surrogate.
    const __m512i least = _mm512_min_epu16(_mm512_ternarylogic_epi32(ab, f800, high16, 0x6A),
                                           _mm512_ternarylogic_epi32(cd, f800, high16, 0x6A));
    return (_mm512_testn_epi16_mask(least, least) | _mm512_cmpgt_epu32_mask(highest, top)) == 0;
  }
  /// (>= 0x80) + (>= 0x800) for each of the units narrowed to 16 bits ab and cd, one per byte (in
  /// some order), looked up by u >> 7 narrowed to a byte with signed saturation (as for UTF-16).
  UTF8DFA_TARGET_AVX512 __m512i more64(__m512i ab, __m512i cd) const noexcept {
    const __m512i x = _mm512_packs_epi16(_mm512_srli_epi16(ab, 7), _mm512_srli_epi16(cd, 7));
    return _mm512_permutex2var_epi8(more_low, x, more_high);
  }
  /// (>= 0x10000) for each of the 64 units a, b, c, d (all at most 0x10FFFF), one per byte (in some
  /// order): its plane narrowed to a byte, capped at 1. (The popcnt of the masks of four compares
  /// was slower: 1 KiB of emoji 0.80x -> 0.95x simdutf icelake with the planes, assume_valid.)
  UTF8DFA_TARGET_AVX512 __m512i supplementary64(__m512i a, __m512i b, __m512i c, __m512i d) const noexcept {
    const __m512i planes = _mm512_packus_epi16(_mm512_packus_epi32(_mm512_srli_epi32(a, 16), _mm512_srli_epi32(b, 16)),
                                               _mm512_packus_epi32(_mm512_srli_epi32(c, 16), _mm512_srli_epi32(d, 16)));
    return _mm512_min_epu8(planes, _mm512_set1_epi8(1));
  }

  /// The lanes holding a surrogate or a value above 0x10FFFF.
  UTF8DFA_TARGET_AVX512 __mmask16 bad(__m512i cp) const noexcept {
    return static_cast<__mmask16>(_mm512_cmplt_epu32_mask(_mm512_sub_epi32(cp, sur), sur_len) |
                                  _mm512_cmpgt_epu32_mask(cp, top));
  }
  /// The UTF-8 bytes of each unit less one: (>= 0x80) + (>= 0x800) + (>= 0x10000).
  UTF8DFA_TARGET_AVX512 __m512i more(__m512i cp) const noexcept {
    __m512i t = _mm512_maskz_mov_epi32(_mm512_cmpge_epu32_mask(cp, x80), one);
    t = _mm512_mask_add_epi32(t, _mm512_cmpge_epu32_mask(cp, sur_len), t, one);
    return _mm512_mask_add_epi32(t, _mm512_cmpge_epu32_mask(cp, x10000), t, one);
  }
};

/// Adds the UTF-8 bytes of the 16 units cp, less one each, to acc, unless one is a surrogate or
/// above 0x10FFFF: then returns false (lanes past the input are zero: they add nothing).
UTF8DFA_TARGET_AVX512 inline bool count_utf32_block(const utf32_count_constants& k, __m512i cp, __m512i& acc) noexcept {
  if (UTF8DFA_UNLIKELY(k.bad(cp) != 0)) return false;
  acc = _mm512_add_epi32(acc, k.more(cp));
  return true;
}

/// Adds to the byte sums `bytes` the UTF-8 bytes past one a unit of the 64 units a, b, c, d (values
/// at most 0x10FFFF; ab and cd narrowed to 16 bits; `highest` their greatest): at most 3 a byte lane,
/// moved into `sums` every 64 steps (counted by `steps`).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void add_bytes64(const utf32_count_constants& k, __m512i a, __m512i b,
                                                             __m512i c, __m512i d, __m512i ab, __m512i cd,
                                                             __m512i highest, __m512i& bytes, __m512i& sums,
                                                             std::size_t& steps) noexcept {
  bytes = _mm512_add_epi8(bytes, k.more64(ab, cd));
  if (_mm512_cmpgt_epu32_mask(highest, k.xffff) != 0) bytes = _mm512_add_epi8(bytes, k.supplementary64(a, b, c, d));
  if (++steps == 64) {
    sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, _mm512_setzero_si512()));
    bytes = _mm512_setzero_si512();
    steps = 0;
  }
}

/// The length_segment of UTF-32, 64 units per step while the input lasts (ASCII steps only checked),
/// then 16, then the masked tail: bytes are 1 + (>= 0x80) + (>= 0x800) + (>= 0x10000); in the big
/// steps the three are summed in bytes (at most 3 a lane per step, widened every 64 steps); a block
/// holding a surrogate or a value above 0x10FFFF stops it.
UTF8DFA_TARGET_AVX512 inline std::size_t utf32_bytes_segment(const char32_t* p, std::size_t n,
                                                             std::size_t& count) noexcept {
  const utf32_count_constants k;
  const __m512i zero = _mm512_setzero_si512();
  __m512i acc = zero, bytes = zero, sums = zero;
  std::size_t i = 0, steps = 0, stop = blocks_pass;
  for (; n - i >= 64; i += 64) {
    const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + 16);
    const __m512i c = _mm512_loadu_si512(p + i + 32), d = _mm512_loadu_si512(p + i + 48);
    const __m512i highest = _mm512_max_epu32(_mm512_max_epu32(a, b), _mm512_max_epu32(c, d));
    if (_mm512_cmpge_epu32_mask(highest, k.x80) == 0) continue;  // ASCII: one byte each, nothing to add
    const __m512i ab = _mm512_packus_epi32(a, b), cd = _mm512_packus_epi32(c, d);
    // Below 0xD800 (most text) they are scalar values; else a surrogate or a value above 0x10FFFF
    // anywhere stops the step (the 16-unit steps find the block).
    if (_mm512_cmpgt_epu32_mask(highest, k.below_sur) != 0 && UTF8DFA_UNLIKELY(!k.scalar_values64(ab, cd, highest)))
      break;
    add_bytes64(k, a, b, c, d, ab, cd, highest, bytes, sums, steps);
  }
  sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, zero));
  for (; n - i >= 16; i += 16)
    if (UTF8DFA_UNLIKELY(!count_utf32_block(k, _mm512_loadu_si512(p + i), acc))) break;
  if (n - i >= 16) {
    stop = i;
  } else if (i < n) {
    const auto live = static_cast<__mmask16>(_bzhi_u32(0xFFFFu, static_cast<unsigned>(n - i)));
    if (count_utf32_block(k, _mm512_maskz_loadu_epi32(live, p + i), acc))
      i = n;
    else
      stop = i;
  }
  // At most 4 16-unit steps (within the 64-unit block that failed, or the tail) added to acc.
  count = i + static_cast<std::size_t>(_mm512_reduce_add_epi64(sums)) +
          static_cast<std::size_t>(_mm512_reduce_add_epi32(acc));
  return stop;
}

/// Adds to the lane counters `acc` the bytes past one a unit that utf8_length_valid (scalar.hpp)
/// counts for the UTF-32 values (32-bit lanes) in u: summed apart and then added, so that `acc`
/// waits on one add a vector, not three.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i valid_add(__m512i acc, __m512i u, char32_t) noexcept {
  const __m512i one = _mm512_set1_epi32(1);
  __m512i more = _mm512_maskz_mov_epi32(_mm512_cmpgt_epu32_mask(u, _mm512_set1_epi32(0x7F)), one);
  more = _mm512_mask_add_epi32(more, _mm512_cmpgt_epu32_mask(u, _mm512_set1_epi32(0x7FF)), more, one);
  const __mmask16 supp =
      _mm512_cmplt_epu32_mask(_mm512_sub_epi32(u, _mm512_set1_epi32(0x10000)), _mm512_set1_epi32(0x100000));
  return _mm512_add_epi32(acc, _mm512_mask_add_epi32(more, supp, more, one));
}

/// The sum of valid_add's lane counters.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t valid_sum(__m512i acc, char32_t) noexcept {
  return static_cast<unsigned>(_mm512_reduce_add_epi32(acc));
}

/// utf8_length_valid (scalar.hpp) for UTF-32, on short input (under valid_below units: the 32-bit
/// lane counters take at most 16 a lane): a vector a step, the last units by a masked load, whose
/// zeros count nothing.
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE std::size_t utf8_length_valid(const In* p, std::size_t n) noexcept {
  constexpr std::size_t step = 64 / sizeof(In);
  std::size_t i = 0;
  __m512i acc = _mm512_setzero_si512();
  for (; n - i >= step; i += step) acc = valid_add(acc, _mm512_loadu_si512(p + i), In{});
  if (i < n) {
    const std::uint64_t live = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(n - i));
    if constexpr (sizeof(In) == 2)
      acc = valid_add(acc, _mm512_maskz_loadu_epi16(static_cast<__mmask32>(live), p + i), In{});
    else
      acc = valid_add(acc, _mm512_maskz_loadu_epi32(static_cast<__mmask16>(live), p + i), In{});
  }
  return n + valid_sum(acc, In{});
}

/// For valid UTF-16, by w >> 9 of a unit w (0..127): 1 from 0x800 on but for a surrogate, whose
/// pair is 4 bytes (each of its units counts 1 + 1 with the 0x80 step of valid_more64).
struct valid_more_table {
  std::uint8_t t[128]{};
};

constexpr valid_more_table build_valid_more_table() {
  valid_more_table v{};
  for (unsigned j = 0; j < 128; ++j) v.t[j] = j >= (0x800 >> 9) && (j < (0xD800 >> 9) || j > (0xDFFF >> 9)) ? 1 : 0;
  return v;
}
inline constexpr valid_more_table valid_more_lookup = build_valid_more_table();

/// The constants of valid_more64.
struct valid16_constants {
  __m512i lo, hi, one;

  UTF8DFA_TARGET_AVX512 valid16_constants() noexcept
      : lo(opaque(_mm512_loadu_si512(valid_more_lookup.t))),
        hi(opaque(_mm512_loadu_si512(valid_more_lookup.t + 64))),
        one(opaque(_mm512_set1_epi8(1))) {}
};

/// The UTF-8 bytes less one of each unit of a and b, valid UTF-16, one per byte (in some order):
/// (>= 0x80), from w >> 7 narrowed with signed saturation and capped at 1, plus valid_more_lookup by
/// w >> 9 (no compares: their masks would wait on one port). A zero unit counts nothing.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i valid_more64(const valid16_constants& k, __m512i a,
                                                                 __m512i b) noexcept {
  const __m512i ge80 = _mm512_min_epu8(_mm512_packs_epi16(_mm512_srli_epi16(a, 7), _mm512_srli_epi16(b, 7)), k.one);
  const __m512i x = _mm512_packs_epi16(_mm512_srli_epi16(a, 9), _mm512_srli_epi16(b, 9));
  return _mm512_add_epi8(ge80, _mm512_permutex2var_epi8(k.lo, x, k.hi));
}

/// utf8_length_valid (scalar.hpp) for UTF-16 at any length: 128 units a step (an ASCII step one
/// test, the others valid_more64 summed in bytes, at most 4 a lane a step, added up every 60 steps),
/// the last units by masked loads.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t utf16_valid_bytes(const char16_t* p, std::size_t n) noexcept {
  const valid16_constants k;
  const __m512i x80 = _mm512_set1_epi16(0x80), zero = _mm512_setzero_si512();
  __m512i bytes = zero;
  std::size_t i = 0, extra = 0, steps = 0;
  for (; n - i >= 128; i += 128) {
    const __m512i w0 = _mm512_loadu_si512(p + i), w1 = _mm512_loadu_si512(p + i + 32);
    const __m512i w2 = _mm512_loadu_si512(p + i + 64), w3 = _mm512_loadu_si512(p + i + 96);
    if (_mm512_cmpge_epu16_mask(_mm512_or_si512(_mm512_or_si512(w0, w1), _mm512_or_si512(w2, w3)), x80) == 0) continue;
    bytes = _mm512_add_epi8(bytes, _mm512_add_epi8(valid_more64(k, w0, w1), valid_more64(k, w2, w3)));
    if (++steps == 60) {
      extra += static_cast<std::size_t>(_mm512_reduce_add_epi64(_mm512_sad_epu8(bytes, zero)));
      bytes = zero;
      steps = 0;
    }
  }
  if (i < n) {  // up to 127 units: up to four masked loads
    const auto r = static_cast<unsigned>(n - i);
    __m512i w[4];
    for (unsigned j = 0; j < 4; ++j)
      w[j] = r > 32 * j ? _mm512_maskz_loadu_epi16(static_cast<__mmask32>(_bzhi_u32(~0u, r - 32 * j)), p + i + 32 * j)
                        : zero;
    bytes = _mm512_add_epi8(bytes, _mm512_add_epi8(valid_more64(k, w[0], w[1]), valid_more64(k, w[2], w[3])));
  }
  return n + extra + static_cast<std::size_t>(_mm512_reduce_add_epi64(_mm512_sad_epu8(bytes, zero)));
}

// The kernel-table entry points.

/// UTF-32 units below which the length under valid_marker takes utf8_length_valid, above which
/// utf32_valid_bytes, whose 64-unit steps are faster from about 128 units on (the replace count's
/// steps, which it took before, were 1.3-1.5x as fast at 256 units on text outside ASCII; at 64,
/// emoji, 0.7x).
inline constexpr std::size_t valid_below = 128;

/// Input lengths (below this) that the validating UTF-8 lengths check with validate's block checks
/// and then count as well-formed text (after their ASCII start): at 256 bytes 1.2-1.3x as fast as
/// utf8_units_segment, whose 64-byte blocks each look up and sum their units. Ill-formed input is
/// then counted by utf8_units_blocks.
inline constexpr std::size_t checked_count_below = 512;

/// The UTF-16 (Utf16) or UTF-32 length of the n bytes at p when they are well-formed, else
/// blocks_pass (out of line: the entry, which short input leaves at once, saves no registers). Up
/// to 64 bytes one masked block; up to short_check_max bytes checked by short_check, as validate
/// checks them (at 256 B, against simdutf icelake's validate and length: UTF-32 1.25x [0.87] ->
/// 1.29x [0.91]).
template <bool Utf16>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE std::size_t checked_count(const unsigned char* p, std::size_t n) noexcept {
  if (n <= 64) {  // one masked block, checked as validate checks it and counted from its bytes
    const __m512i in = load_first(p, n);
    if (_mm512_movepi8_mask(in) == 0) return n;
    if (!block_well_formed(in, n)) return blocks_pass;
    // Less the continuation bytes (the signed bytes up to BF; not the zero padding), plus a second
    // UTF-16 unit for each 4-byte character.
    std::size_t units = n - static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmple_epi8_mask(in, splat(0xBF))));
    if (Utf16) units += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpge_epu8_mask(in, splat(0xF0))));
    return units;
  }
  std::size_t ascii = 0;
  if (n <= short_check_max) {  // (as validate checks it)
    if (!short_check(p, n, ascii)) return blocks_pass;
    if (ascii == n) return n;
  } else {
    ascii = ascii_prefix(p, n);
    if (ascii == n) return n;
    if (check_blocks_from<true>(p, n, ascii) != blocks_pass) return blocks_pass;
  }
  return ascii + (Utf16 ? utf16_length(p + ascii, n - ascii) : count_leads(p + ascii, n - ascii));
}

inline std::size_t utf16_length_from_utf8(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  if (n < checked_count_below) {
    const std::size_t units = checked_count<true>(p, n);
    if (units != blocks_pass) return units;
  }
  return utf8_units_blocks<true, &utf8_units_segment<true>, 256>(p, n, repl);
}

inline std::size_t utf32_length_from_utf8(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  if (n < checked_count_below) {
    const std::size_t units = checked_count<false>(p, n);
    if (units != blocks_pass) return units;
  }
  return utf8_units_blocks<false, &utf8_units_segment<false>, 256>(p, n, repl);
}

UTF8DFA_NOINLINE inline std::size_t utf8_length_from_utf16_blocks(const char16_t* p, std::size_t n,
                                                                  char32_t repl) noexcept {
  if (repl == valid_marker) return utf16_valid_bytes(p, n);
  return utf8_bytes_blocks<char16_t, &utf16_bytes_segment, 32>(p, n, repl);
}

/// The high and the low surrogates of the UTF-16 units u and their UTF-8 bytes past one a unit (a
/// high surrogate counted as 3, as any unit from 0x800 on).
struct utf16_short_block {
  std::uint32_t high, low;
  std::size_t more;
};

UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE utf16_short_block utf16_short_counts(__m512i u) noexcept {
  const __m512i top = _mm512_and_si512(u, _mm512_set1_epi16(static_cast<short>(0xFC00)));
  const std::uint32_t high = _mm512_cmpeq_epi16_mask(top, _mm512_set1_epi16(static_cast<short>(0xD800)));
  const std::uint32_t low = _mm512_cmpeq_epi16_mask(top, _mm512_set1_epi16(static_cast<short>(0xDC00)));
  const std::uint32_t ge80 = _mm512_cmpge_epu16_mask(u, _mm512_set1_epi16(0x80));
  const std::uint32_t ge800 = _mm512_cmpge_epu16_mask(u, _mm512_set1_epi16(0x800));
  return {high, low, static_cast<std::size_t>(_mm_popcnt_u32(ge80) + _mm_popcnt_u32(ge800))};
}

/// Units up to which utf8_length_from_utf16 counts without the blocks, whose constants cost a
/// shorter input more than its count.
inline constexpr std::size_t utf16_short_count_max = 512;

/// The pair check of utf8_length_from_utf16's short count on the 32 units w, only when they hold a
/// surrogate or follow a high one (`carry`): each low one right after a high one and the other way
/// round, within 32 bits of `bad` unless Last (a high surrogate last fails: bit 32, or the zero
/// loaded after it).
template <bool Last>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void pair_check16(__m512i w, std::uint64_t& carry,
                                                              std::uint64_t& bad) noexcept {
  const __mmask32 sur = _mm512_cmpeq_epi16_mask(_mm512_and_si512(w, _mm512_set1_epi16(static_cast<short>(0xF800))),
                                                _mm512_set1_epi16(static_cast<short>(0xD800)));
  if (sur == 0 && carry == 0) return;
  const std::uint32_t low = _mm512_mask_test_epi16_mask(sur, w, _mm512_set1_epi16(0x400));
  const std::uint32_t high = sur & ~low;
  const std::uint64_t mismatch = (std::uint64_t{high} << 1 | carry) ^ low;
  bad |= Last ? mismatch : mismatch & 0xFFFFFFFFu;
  carry = high >> 31;
}

/// utf8_length_from_utf16 of 65 to utf16_short_count_max units whose surrogates pair up:
/// valid_more64 and pair_check16, 64 units a step, the last step masked (out of line: the entry
/// stays a leaf that saves no registers). Any other input by the blocks.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t utf8_length_from_utf16_medium(const char16_t* p,
                                                                                        std::size_t n,
                                                                                        char32_t repl) noexcept {
  // 64 units a step, counted as utf16_valid_bytes counts them (at most 2 a byte lane a step: 16
  // steps at most), their pairs checked; the last 1..64 units by masked loads.
  const valid16_constants k;
  __m512i bytes = _mm512_setzero_si512();
  std::uint64_t bad = 0, carry = 0;
  std::size_t i = 0;
  for (; n - i > 64; i += 64) {
    const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + 32);
    bytes = _mm512_add_epi8(bytes, valid_more64(k, a, b));
    pair_check16<false>(a, carry, bad);
    pair_check16<false>(b, carry, bad);
  }
  const auto r = static_cast<unsigned>(n - i);  // 1..64
  const __m512i a = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(_bzhi_u32(~0u, r)), p + i);
  __m512i b = _mm512_setzero_si512();
  if (r > 32) {
    b = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(_bzhi_u32(~0u, r - 32)), p + i + 32);
    pair_check16<false>(a, carry, bad);
    pair_check16<true>(b, carry, bad);
  } else {
    pair_check16<true>(a, carry, bad);
  }
  bytes = _mm512_add_epi8(bytes, valid_more64(k, a, b));
  if (UTF8DFA_LIKELY(bad == 0))
    return n + static_cast<std::size_t>(_mm512_reduce_add_epi64(_mm512_sad_epu8(bytes, _mm512_setzero_si512())));
  return utf8_length_from_utf16_blocks(p, n, repl);
}

/// The kernel entry. An input of up to utf16_short_count_max units whose surrogates pair up: its
/// bytes (n, plus 1 from 0x80 on, plus 1 from 0x800 on, less 2 a pair: a pair is 3 + 3 counted as
/// 4) from one or two masked vectors by utf16_short_counts up to 64 units (no lane sum to add up),
/// above by utf8_length_from_utf16_medium. Any other input by the blocks (or, under valid_marker,
/// utf16_valid_bytes).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE inline std::size_t utf8_length_from_utf16(const char16_t* p, std::size_t n,
                                                                                   char32_t repl) noexcept {
  if (n <= 64 && repl != valid_marker) {
    const utf16_short_block a = utf16_short_counts(
        _mm512_maskz_loadu_epi16(static_cast<__mmask32>(_bzhi_u32(~0u, static_cast<unsigned>(n))), p));
    std::uint64_t high = a.high, low = a.low;
    std::size_t more = a.more;
    if (n > 32) {
      const utf16_short_block b = utf16_short_counts(
          _mm512_maskz_loadu_epi16(static_cast<__mmask32>(_bzhi_u32(~0u, static_cast<unsigned>(n - 32))), p + 32));
      high |= std::uint64_t{b.high} << 32;
      low |= std::uint64_t{b.low} << 32;
      more += b.more;
    }
    if (UTF8DFA_LIKELY((((high << 1) ^ low) | (high >> 63)) == 0))
      return n + more - 2 * static_cast<std::size_t>(_mm_popcnt_u64(high));
  } else if (n <= utf16_short_count_max && repl != valid_marker) {
    return utf8_length_from_utf16_medium(p, n, repl);
  }
  return utf8_length_from_utf16_blocks(p, n, repl);
}

/// utf8_length_valid (scalar.hpp) for UTF-32 at any length: 64 units a step. An ASCII step is one
/// test; a step of values up to 0x10FFFF adds (>= 0x80) + (>= 0x800) from the units narrowed to 16
/// bits and (>= 0x10000) from their planes, summed in bytes as utf32_bytes_segment sums them; a step
/// holding a greater value goes by valid_add, as the last units do (masked loads).
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t utf32_valid_bytes(const char32_t* p, std::size_t n) noexcept {
  const utf32_count_constants k;
  const __m512i zero = _mm512_setzero_si512();
  __m512i bytes = zero, sums = zero, acc = zero;
  std::size_t i = 0, steps = 0, extra = 0, wide = 0;
  for (; n - i >= 64; i += 64) {
    const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + 16);
    const __m512i c = _mm512_loadu_si512(p + i + 32), d = _mm512_loadu_si512(p + i + 48);
    const __m512i highest = _mm512_max_epu32(_mm512_max_epu32(a, b), _mm512_max_epu32(c, d));
    if (_mm512_cmpge_epu32_mask(highest, k.x80) == 0) continue;  // ASCII: one byte each
    if (UTF8DFA_UNLIKELY(_mm512_cmpgt_epu32_mask(highest, k.top) != 0)) {
      acc = valid_add(valid_add(valid_add(valid_add(acc, a, U'\0'), b, U'\0'), c, U'\0'), d, U'\0');
      if (++wide == (std::size_t{1} << 24)) {  // (at most 3 a lane a step in acc's 32-bit lanes)
        extra += valid_sum(acc, U'\0');
        acc = zero;
        wide = 0;
      }
      continue;
    }
    add_bytes64(k, a, b, c, d, _mm512_packus_epi32(a, b), _mm512_packus_epi32(c, d), highest, bytes, sums, steps);
  }
  sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, zero));
  for (std::size_t j = i; j < n; j += 16)  // the last 0..63 units
    acc = valid_add(
        acc, _mm512_maskz_loadu_epi32(static_cast<__mmask16>(_bzhi_u32(0xFFFFu, static_cast<unsigned>(n - j))), p + j),
        U'\0');
  return n + extra + static_cast<std::size_t>(_mm512_reduce_add_epi64(sums)) + valid_sum(acc, U'\0');
}

/// utf8_length_from_utf32 past its short input (and short input that is not all scalar values).
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t utf8_length_from_utf32_long(const char32_t* p, std::size_t n,
                                                                                      char32_t repl) noexcept {
  if (repl == valid_marker) return n < valid_below ? utf8_length_valid(p, n) : utf32_valid_bytes(p, n);
  return utf8_bytes_blocks<char32_t, &utf32_bytes_segment, 16>(p, n, repl);
}

/// The UTF-8 bytes past one a unit of the 16 UTF-32 units u when they are scalar values, and the
/// lanes of those that are not (surrogates, values above 10FFFF).
struct utf32_short_block {
  std::uint32_t bad;
  std::size_t more;
};

UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE utf32_short_block utf32_short_counts(__m512i u) noexcept {
  const std::uint32_t ge80 = _mm512_cmpge_epu32_mask(u, _mm512_set1_epi32(0x80));
  const std::uint32_t ge800 = _mm512_cmpge_epu32_mask(u, _mm512_set1_epi32(0x800));
  const std::uint32_t four = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(u, _mm512_set1_epi32(0x10000)),
                                                     _mm512_set1_epi32(0x100000));  // 10000..10FFFF
  const std::uint32_t surrogate =
      _mm512_cmplt_epu32_mask(_mm512_sub_epi32(u, _mm512_set1_epi32(0xD800)), _mm512_set1_epi32(0x800));
  const std::uint32_t over = _mm512_cmpgt_epu32_mask(u, _mm512_set1_epi32(0x10FFFF));
  return {surrogate | over,
          static_cast<std::size_t>(_mm_popcnt_u32(ge80) + _mm_popcnt_u32(ge800) + _mm_popcnt_u32(four))};
}

/// The kernel entry. Up to 64 units that are all scalar values, by masked vectors of 16 in a leaf:
/// their bytes (n, plus 1 from 0x80 on, 1 from 0x800 on, 1 from 0x10000 to 0x10FFFF); at 64 B
/// against simdutf icelake 1.17x [0.91] -> 1.77x [1.14] (up to 32 units only: 1.39x). Short input
/// under valid_marker by utf8_length_valid, which the compiler vectorises, here too; any other
/// input by utf8_length_from_utf32_long.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE inline std::size_t utf8_length_from_utf32(const char32_t* p, std::size_t n,
                                                                                   char32_t repl) noexcept {
  if (repl == valid_marker) {
    if (n < valid_below) return utf8_length_valid(p, n);
  } else if (n <= 64) {
    std::size_t more = 0;
    std::uint32_t bad = 0;
    for (std::size_t i = 0; i < n; i += 16) {
      const utf32_short_block b = utf32_short_counts(
          _mm512_maskz_loadu_epi32(static_cast<__mmask16>(_bzhi_u32(0xFFFFu, static_cast<unsigned>(n - i))), p + i));
      more += b.more;
      bad |= b.bad;
    }
    if (UTF8DFA_LIKELY(bad == 0)) return n + more;
  }
  return utf8_length_from_utf32_long(p, n, repl);
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
