// utf8dfa: AVX2 output lengths of the conversions, exact on ill-formed input too: the block check
// and a count in one pass over well-formed blocks, the scalar decoder over a block that holds an
// error and over the tail shorter than a block (length_common.hpp).
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_LENGTH_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_LENGTH_HPP

#include "../../scalar.hpp"
#include "../length_common.hpp"
#include "../target.hpp"
#include "validate.hpp"

#if UTF8DFA_X86_KERNELS
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

/// UTF-16 units per UTF-8 byte of well-formed text, by its high nibble: one per lead, none per
/// continuation, two per 4-byte lead.
inline constexpr std::uint8_t utf16_units_per_nibble[16] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 2};

/// The sum of the four 64-bit lanes.
UTF8DFA_TARGET_AVX2 inline std::size_t sum_epi64(__m256i v) noexcept {
  const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  return static_cast<std::size_t>(_mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1));
}

/// The sum of the eight 32-bit lanes (as signed values).
UTF8DFA_TARGET_AVX2 inline std::ptrdiff_t sum_epi32(__m256i v) noexcept {
  const __m256i wide = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)),
                                        _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)));
  const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
  return static_cast<std::ptrdiff_t>(_mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1));
}

/// Units per byte of the 32 bytes `in` (by the high nibble).
UTF8DFA_TARGET_AVX2 inline __m256i units_of(__m256i table, __m256i nibble, __m256i in) noexcept {
  return _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(in, 4), nibble));
}

/// Units of the 64 bytes lo, hi of well-formed UTF-8, in bytes (0..4 a lane): for UTF-16 by the
/// nibble table, for UTF-32 one compare a vector (its limit loaded: no table register taken).
template <bool Utf16>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i block_units(__m256i table, __m256i nibble, __m256i lo,
                                                              __m256i hi) noexcept {
  if constexpr (Utf16) {
    return _mm256_add_epi8(units_of(table, nibble, lo), units_of(table, nibble, hi));
  } else {
    const __m256i limit = k8<0xBF>();
    return _mm256_sub_epi8(_mm256_setzero_si256(),
                           _mm256_add_epi8(_mm256_cmpgt_epi8(lo, limit), _mm256_cmpgt_epi8(hi, limit)));
  }
}

/// The UTF-16 (Utf16) or UTF-32 units of the 32 bytes `in` of well-formed UTF-8, one bit a byte:
/// `units` has a bit for each lead, `fours` (UTF-16 only) one more for each 4-byte lead.
template <bool Utf16>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void unit_bits(__m256i in, std::uint32_t& units,
                                                         std::uint32_t& fours) noexcept {
  units = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(in, k8<0xBF>())));
  // Signed: F0..FF are -16..-1, the only negative bytes above -17.
  fours = Utf16 ? static_cast<std::uint32_t>(
                      _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpgt_epi8(in, k8<lead4_min - 1u>()), in)))
                : 0;
}

/// The units of the last `r` (1..63) bytes of the 64 in lo and hi.
template <bool Utf16>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t units_of_last(__m256i lo, __m256i hi, std::size_t r) noexcept {
  std::uint32_t u0, f0, u1, f1;
  unit_bits<Utf16>(lo, u0, f0);
  unit_bits<Utf16>(hi, u1, f1);
  const std::uint64_t units = (std::uint64_t{u1} << 32 | u0) >> (64 - r);
  const std::uint64_t fours = (std::uint64_t{f1} << 32 | f0) >> (64 - r);
  return static_cast<std::size_t>(_mm_popcnt_u64(units) + _mm_popcnt_u64(fours));
}

/// The units of 32 to 64 bytes of UTF-8 when they are well-formed (false otherwise), with no copy:
/// the checks of validate_short, and the units of the first 32 bytes and of those after them in
/// the last 32.
template <bool Utf16>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE bool utf8_units_short(const unsigned char* p, std::size_t n,
                                                           std::size_t& count) noexcept {
  const std::size_t q = n - 32;  // where the last 32 bytes start (0..31)
  std::uint32_t before = 0;      // the 4 bytes before q, the last highest
  if (q >= 4) {
    std::memcpy(&before, p + q - 4, 4);
  } else if (q > 0) {
    std::memcpy(&before, p, 4);
    before <<= 8 * (4 - q);
  }
  const checker check;
  const __m256i lo = load(p), hi = load(p + q);
  const __m256i prev = _mm256_insert_epi32(_mm256_setzero_si256(), static_cast<int>(before), 7);
  const __m256i err =
      _mm256_or_si256(_mm256_or_si256(check(lo, _mm256_setzero_si256()), check(hi, prev)), ends_incomplete(hi));
  if (any(err)) return false;
  std::uint32_t u0, f0, u1, f1;
  unit_bits<Utf16>(lo, u0, f0);
  unit_bits<Utf16>(hi, u1, f1);
  const unsigned skip = static_cast<unsigned>(32 - q);  // bytes of hi among the first 32 (1..32)
  count = static_cast<std::size_t>(_mm_popcnt_u32(u0) + _mm_popcnt_u32(f0) + _mm_popcnt_u64(std::uint64_t{u1} >> skip) +
                                   _mm_popcnt_u64(std::uint64_t{f1} >> skip));
  return true;
}

/// The length_segment of UTF-8 (see length_common.hpp): the block checks of validate.hpp over whole
/// 64-byte blocks, each block that passes also counted, then the last 1..63 bytes in the last 64
/// (checked after the 32 bytes before them); a tail that fails is left to the scalar decoder.
template <bool Utf16>
UTF8DFA_TARGET_AVX2 std::size_t utf8_units_segment(const unsigned char* p, std::size_t n, std::size_t& count) noexcept {
  const checker check;
  const __m256i table = Utf16 ? lanes(utf16_units_per_nibble) : _mm256_setzero_si256();  // (UTF-32: unused)
  const __m256i zero = _mm256_setzero_si256();
  __m256i incomplete = zero, sums = zero;
  std::size_t ascii = 0, i = 0, stop = blocks_pass;
  bool go_on = n >= 64;
  if (go_on) {  // the first block, with nothing before it (out of the loop, whose registers it would take)
    const __m256i lo = load(p), hi = load(p + 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0) {
      ascii = 64;
      i = 64;
    } else {
      const __m256i err = _mm256_or_si256(check(lo, zero), check(hi, lo));
      go_on = !any(err);
      if (go_on) {
        incomplete = ends_incomplete(hi);
        sums = _mm256_sad_epu8(block_units<Utf16>(table, check.nibble, lo, hi), zero);
        i = 64;
      }
    }
  }
  // The other blocks read the bytes before them.
  for (; go_on && n - i >= 64; i += 64) {
    const __m256i lo = load(p + i), hi = load(p + i + 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0) {
      if (UTF8DFA_UNLIKELY(any(incomplete))) break;
      ascii += 64;
    } else {
      const __m256i err = _mm256_or_si256(check_at(check, p + i, lo), check_at(check, p + i + 32, hi));
      incomplete = ends_incomplete(hi);
      if (UTF8DFA_UNLIKELY(any(err))) break;
      sums = _mm256_add_epi64(sums, _mm256_sad_epu8(block_units<Utf16>(table, check.nibble, lo, hi), zero));
    }
  }
  std::size_t tail = 0;
  if (i < n && n - i < 64 && i >= 64) {
    const __m256i lo = load(p + n - 64), hi = load(p + n - 32);
    __m256i err = _mm256_or_si256(check(hi, lo), ends_incomplete(hi));
    if (n - i > 32) err = _mm256_or_si256(err, check(lo, load(p + n - 96)));  // (n >= 97)
    if (!any(err)) {
      tail = units_of_last<Utf16>(lo, hi, n - i);
      i = n;
      incomplete = zero;
    }
  }
  if (i < n || any(incomplete)) stop = i;
  count = ascii + sum_epi64(sums) + tail;
  return stop;
}

/// The constants and steps shared by the UTF-16 and UTF-32 counts of BMP units: (>= 0x80) +
/// (>= 0x800) of 32 units summed in bytes, and the test for surrogates among 16-bit units.
struct bmp_count_constants {
  __m256i zero, x_d800, x0800, max8, fifteen8;

  UTF8DFA_TARGET_AVX2 bmp_count_constants() noexcept
      : zero(_mm256_setzero_si256()), x_d800(k16<0xD800>()), x0800(k16<0x800>()), max8(k8<127>()), fifteen8(k8<15>()) {}

  /// u >> 7 of the 32 units of a and b, one byte each (in some order), with signed saturation:
  /// 0 below 0x80, 1..15 below 0x800, 16..127 above (127 from 0x3F80: surrogates among them).
  UTF8DFA_TARGET_AVX2 __m256i shifted(__m256i a, __m256i b) const noexcept {
    return _mm256_packs_epi16(_mm256_srli_epi16(a, 7), _mm256_srli_epi16(b, 7));
  }
  /// Minus (>= 0x80) + (>= 0x800) of each unit, from shifted() (compares give -1).
  UTF8DFA_TARGET_AVX2 __m256i minus_more(__m256i x) const noexcept {
    return _mm256_add_epi8(_mm256_cmpgt_epi8(x, zero), _mm256_cmpgt_epi8(x, fifteen8));
  }
  /// w ^ 0xD800: below 0x800 for the surrogates; the least of such vectors goes to surrogate_in().
  UTF8DFA_TARGET_AVX2 __m256i flipped(__m256i w) const noexcept { return _mm256_xor_si256(w, x_d800); }
  /// Whether some lane of `least`, the least of some flipped() units, stands for a surrogate.
  UTF8DFA_TARGET_AVX2 bool surrogate_in(__m256i least) const noexcept {
    const __m256i below = _mm256_subs_epu16(x0800, least);
    return !_mm256_testz_si256(below, below);
  }
};

/// The constants of the UTF-16 count, built once per call.
struct utf16_count_constants : bmp_count_constants {
  __m256i tag, low, x_f800, x_ff80, one;

  UTF8DFA_TARGET_AVX2 utf16_count_constants() noexcept
      : tag(k16<0xFC00>()), low(k16<0xDC00>()), x_f800(k16<0xF800>()), x_ff80(k16<0xFF80>()), one(k16<1>()) {}

  /// Minus the units of w below 0x80 and below 0x800 (compares give -1), `top` being w & 0xF800.
  UTF8DFA_TARGET_AVX2 __m256i minus_short(__m256i w, __m256i top) const noexcept {
    return _mm256_add_epi16(_mm256_cmpeq_epi16(_mm256_and_si256(w, x_ff80), zero), _mm256_cmpeq_epi16(top, zero));
  }
  /// Whether the 64 units w0..w3, of which x and y are shifted(), hold a surrogate: none unless
  /// some byte of x or y is 127.
  UTF8DFA_TARGET_AVX2 bool any_surrogate(__m256i w0, __m256i w1, __m256i w2, __m256i w3, __m256i x,
                                         __m256i y) const noexcept {
    const __m256i top = _mm256_cmpeq_epi8(_mm256_max_epu8(x, y), max8);
    return !_mm256_testz_si256(top, top) && surrogate_in(_mm256_min_epu16(_mm256_min_epu16(flipped(w0), flipped(w1)),
                                                                          _mm256_min_epu16(flipped(w2), flipped(w3))));
  }
};

/// The units at p, in steps of 64 while 64 are left, that are surrogate pairs only, each pair a
/// dword (most emoji). Out of line: its constants stay out of the registers of the caller's loop.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t pair_run(const char16_t* p, std::size_t n) noexcept {
  const __m256i tag = k32<0xFC00FC00u>();
  const __m256i pair = k32<0xDC00D800u>();
  std::size_t i = 0;
  for (; n - i >= 64; i += 64) {
    const __m256i a = _mm256_cmpeq_epi32(_mm256_and_si256(load(p + i), tag), pair);
    const __m256i b = _mm256_cmpeq_epi32(_mm256_and_si256(load(p + i + 16), tag), pair);
    const __m256i c = _mm256_cmpeq_epi32(_mm256_and_si256(load(p + i + 32), tag), pair);
    const __m256i d = _mm256_cmpeq_epi32(_mm256_and_si256(load(p + i + 48), tag), pair);
    if (_mm256_movemask_epi8(_mm256_and_si256(_mm256_and_si256(a, b), _mm256_and_si256(c, d))) != -1) break;
  }
  return i;
}

/// The length_segment of UTF-16: 64 units per step while they hold no surrogate or only surrogate
/// pairs aligned with dwords, else 16 with the pair checks (the units at and after each position
/// say whether every surrogate is paired); the tail, 1..16 units, is left to the scalar decoder.
/// A step of 64 without a surrogate counts 1 a unit plus (>= 0x80) + (>= 0x800) summed in bytes
/// (at most 4 a lane per step, widened every 63 steps). The others count 3 a unit, minus 1 below
/// 0x800, minus 1 more below 0x80, minus 2 for a high surrogate (a pair is 1 + 3), as the negative
/// compare results in 16-bit lanes (at most 2 a lane per vector of 16 units added, a unit counted
/// again after a cut pair included), widened before they could overflow.
UTF8DFA_TARGET_AVX2 inline std::size_t utf16_bytes_segment(const char16_t* p, std::size_t n,
                                                           std::size_t& count) noexcept {
  count = 0;
  if (n == 0) return blocks_pass;
  const utf16_count_constants k;
  __m256i acc = k.zero, more = k.zero, sums = k.zero;
  std::size_t i = 0, ascii = 0, wide = 0;  // wide: units counted in `more`, 1 + its bytes each
  unsigned pending = 0;  // vectors of 16 units added to acc since it was last widened (-2 a lane each at most)
  unsigned steps = 0;    // steps added to `more` since it was last widened (+4 a lane each at most)
  std::ptrdiff_t less = 0;
  bool paired = true;
  while (paired) {
    // Blocks of 64 units without a surrogate: nothing to pair (a high surrogate before them was
    // checked against their first unit by the step that counted it).
    while (n - i >= 64) {
      const __m256i w0 = load(p + i), w1 = load(p + i + 16), w2 = load(p + i + 32), w3 = load(p + i + 48);
      if (_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(w0, w1), _mm256_or_si256(w2, w3)), k.x_ff80)) {
        ascii += 64;  // one byte each
        i += 64;
        continue;
      }
      const __m256i x = k.shifted(w0, w1), y = k.shifted(w2, w3);
      if (k.any_surrogate(w0, w1, w2, w3, x, y)) {
        // Surrogate pairs only (most emoji): 4 bytes a pair, 3 a unit less 1. A high surrogate
        // before them was checked against their first unit, a high one.
        const std::size_t run = pair_run(p + i, n - i);
        if (run == 0) break;
        less -= static_cast<std::ptrdiff_t>(run);
        i += run;
        continue;
      }
      more = _mm256_sub_epi8(more, _mm256_add_epi8(k.minus_more(x), k.minus_more(y)));
      i += 64;
      wide += 64;
      if (++steps == 63) {  // 252 a lane at most
        sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, k.zero));
        more = k.zero;
        steps = 0;
      }
    }
    if (n - i <= 16) break;
    // A low surrogate first must follow a high one (only the steps below check pairs).
    if ((p[i] & 0xFC00) == 0xDC00 && (i == 0 || (p[i - 1] & 0xFC00) != 0xD800)) break;
    // Up to 64 units, 16 per step, with the pair checks, and 64 more after each step with a high
    // surrogate among other units (text that mixes pairs with other units went back and forth
    // between the loops, at a mispredicted branch each time; a step of 8 pairs goes back to the
    // run of pairs) while acc has room for them (see below).
    for (std::size_t end = i + 64; i < end && n - i > 16; i += 16) {
      const __m256i w = load(p + i), next = load(p + i + 1);
      const __m256i hi = _mm256_cmpeq_epi16(_mm256_and_si256(w, k.tag), k.x_d800);
      const __m256i lo_next = _mm256_cmpeq_epi16(_mm256_and_si256(next, k.tag), k.low);
      const __m256i unpaired = _mm256_xor_si256(hi, lo_next);
      if (UTF8DFA_UNLIKELY(!_mm256_testz_si256(unpaired, unpaired))) {
        paired = false;
        break;
      }
      acc = _mm256_add_epi16(
          acc, _mm256_add_epi16(k.minus_short(w, _mm256_and_si256(w, k.x_f800)), _mm256_add_epi16(hi, hi)));
      ++pending;
      const auto highs = static_cast<std::uint32_t>(_mm256_movemask_epi8(hi));
      if (highs != 0 && highs != 0x33333333u && highs != 0xCCCCCCCCu && pending < 16000 - 8) end = i + 16 + 64;
    }
    // A pair cut by the last step (its high unit counted 3 - 2): the high unit goes to the next
    // step instead, so that a run of pairs lines up with the dwords of the big steps.
    if (paired && (p[i - 1] & 0xFC00) == 0xD800) {
      --i;
      less += 2;
    }
    if (pending > 16000 - 4) {  // (the steps above add at most 4 vectors after pending reached 16000 - 8)
      less += sum_epi32(_mm256_madd_epi16(acc, k.one));
      acc = k.zero;
      pending = 0;
    }
  }
  if (paired && i < n && n - i <= 16 && n > 16) {
    // The last 16 units against the units before them, those before i left out: a unit in them
    // at i or past it that is a low surrogate must follow a high one, and a high one (the last
    // unit included) must precede a low one. (The unit before i is no high surrogate.)
    const __m256i w = load(p + n - 16), prev = load(p + n - 17);
    const __m256i top = _mm256_and_si256(w, k.tag);
    const __m256i hi = _mm256_cmpeq_epi16(top, k.x_d800);
    const __m256i unpaired =
        _mm256_xor_si256(_mm256_cmpeq_epi16(_mm256_and_si256(prev, k.tag), k.x_d800), _mm256_cmpeq_epi16(top, k.low));
    const unsigned skip = static_cast<unsigned>(2 * (16 - (n - i)));  // the bits of the lanes before i
    const auto hi_bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(hi));
    if (((static_cast<std::uint32_t>(_mm256_movemask_epi8(unpaired)) | (hi_bits & 0xC0000000u)) >> skip) == 0) {
      // 3 bytes a unit, less 1 below 0x80, 1 more below 0x800, 2 for a high surrogate (2 bits a lane).
      const auto small =
          static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_and_si256(w, k.x_ff80), k.zero)));
      const auto mid =
          static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_and_si256(w, k.x_f800), k.zero)));
      less -= (_mm_popcnt_u32(small >> skip) + _mm_popcnt_u32(mid >> skip)) / 2 + _mm_popcnt_u32(hi_bits >> skip);
      i = n;
    }
  }
  less += sum_epi32(_mm256_madd_epi16(acc, k.one));
  sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, k.zero));
  count = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(3 * i - 2 * ascii - 2 * wide + sum_epi64(sums)) + less);
  return i == n ? blocks_pass : i;
}

/// The constants of the UTF-32 count, built once per call.
struct utf32_count_constants : bmp_count_constants {
  __m256i sur, sur_len, top, x7f, x7ff, xffff, ones, not7f, not_ffff, below_sur;

  UTF8DFA_TARGET_AVX2 utf32_count_constants() noexcept
      : sur(k32<0xD800>()),
        sur_len(k32<0x800>()),
        top(k32<0x10FFFF>()),
        x7f(k32<0x7F>()),
        x7ff(k32<0x7FF>()),
        xffff(k32<0xFFFF>()),
        ones(k32<0xFFFFFFFFu>()),
        not7f(k32<0xFFFFFF80u>()),
        not_ffff(k32<0xFFFF0000u>()),
        below_sur(k32<0xD7FF>()) {}

  /// Whether every lane of lowest (the least of some units, each less 0xD800) and highest (their
  /// greatest) says scalar value: not a surrogate (unsigned cp - 0xD800 >= 0x800), at most 0x10FFFF.
  UTF8DFA_TARGET_AVX2 bool scalar_values(__m256i lowest, __m256i highest) const noexcept {
    const __m256i ok = _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(lowest, sur_len), lowest),
                                        _mm256_cmpeq_epi32(_mm256_max_epu32(highest, top), top));
    return _mm256_testc_si256(ok, ones) != 0;
  }
  /// Whether `highest` (the greatest of some units) reaches the surrogates: only then can they hold
  /// one (signed compare: exact up to 0x7FFFFFFF).
  UTF8DFA_TARGET_AVX2 bool reaches_surrogates(__m256i highest) const noexcept {
    const __m256i high = _mm256_cmpgt_epi32(highest, below_sur);
    return !_mm256_testz_si256(high, high);
  }
  /// Whether `highest` (the greatest of some units) is at most 0x10FFFF.
  UTF8DFA_TARGET_AVX2 bool in_range(__m256i highest) const noexcept {
    return _mm256_testc_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(highest, top), top), ones) != 0;
  }
  /// Minus the UTF-8 bytes past the first of each scalar value (compares give -1; signed compares
  /// are exact up to 0x10FFFF).
  UTF8DFA_TARGET_AVX2 __m256i minus_extra(__m256i cp) const noexcept {
    return _mm256_add_epi32(_mm256_add_epi32(_mm256_cmpgt_epi32(cp, x7f), _mm256_cmpgt_epi32(cp, x7ff)),
                            _mm256_cmpgt_epi32(cp, xffff));
  }
};

/// Units beyond_bmp_run takes at most in one call: its 32-bit lanes add at most 12 per block.
inline constexpr std::size_t beyond_bmp_max = std::size_t{1} << 24;

/// The blocks of 32 units at p, while 32 are left (and at most beyond_bmp_max units), that hold
/// scalar values only: the first one, then those that reach past the BMP; their UTF-8 bytes are
/// added to `bytes`. Stops at a block that holds a surrogate or a value above 0x10FFFF. Out of
/// line, as pair_run: most text never comes here.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t beyond_bmp_run(const char32_t* p, std::size_t n,
                                                                       std::size_t& bytes) noexcept {
  if (n > beyond_bmp_max) n = beyond_bmp_max;
  const utf32_count_constants k;
  // Each unit less 0x10000 is at most 0xFFFFF (unsigned) in a block of supplementary values only.
  const __m256i base = k32<0x10000>(), span = k32<0xFFFFF>();
  __m256i acc = k.zero;
  std::size_t i = 0, supplementary = 0;
  for (; n - i >= 32; i += 32) {
    const __m256i a = load(p + i), b = load(p + i + 8), c = load(p + i + 16), d = load(p + i + 24);
    const __m256i over = _mm256_max_epu32(_mm256_max_epu32(_mm256_sub_epi32(a, base), _mm256_sub_epi32(b, base)),
                                          _mm256_max_epu32(_mm256_sub_epi32(c, base), _mm256_sub_epi32(d, base)));
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_min_epu32(over, span), over)) == -1) {
      supplementary += 32;  // (most emoji)
      continue;
    }
    const __m256i highest = _mm256_max_epu32(_mm256_max_epu32(a, b), _mm256_max_epu32(c, d));
    if ((i != 0 && _mm256_testz_si256(highest, k.not_ffff)) || !k.in_range(highest) ||
        k.surrogate_in(_mm256_min_epu16(k.flipped(_mm256_packus_epi32(a, b)), k.flipped(_mm256_packus_epi32(c, d)))))
      break;
    acc = _mm256_add_epi32(_mm256_add_epi32(acc, _mm256_add_epi32(k.minus_extra(a), k.minus_extra(b))),
                           _mm256_add_epi32(k.minus_extra(c), k.minus_extra(d)));
  }
  bytes += static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i + 3 * supplementary) - sum_epi32(acc));
  return i;
}

/// The length_segment of UTF-32, 64 units per step while the input lasts (ASCII steps only
/// checked), then 8 (the tail left to the scalar decoder): bytes are 1 + (> 0x7F) + (> 0x7FF) +
/// (> 0xFFFF). Steps within the BMP sum the first two in bytes (at most 4 a lane per step, widened
/// every 63 steps); a step reaching past it goes to beyond_bmp_run. A block holding a surrogate or
/// a value above 0x10FFFF stops it.
UTF8DFA_TARGET_AVX2 inline std::size_t utf32_bytes_segment(const char32_t* p, std::size_t n,
                                                           std::size_t& count) noexcept {
  const utf32_count_constants k;
  __m256i acc = k.zero, more = k.zero, sums = k.zero;
  std::size_t i = 0, steps = 0;
  std::size_t extra = 0;  // bytes past the first of the values counted by beyond_bmp_run
  std::ptrdiff_t less = 0;
  while (n - i >= 64) {
    const __m256i a = load(p + i), b = load(p + i + 8), c = load(p + i + 16), d = load(p + i + 24);
    const __m256i e = load(p + i + 32), f = load(p + i + 40), g = load(p + i + 48), h = load(p + i + 56);
    const __m256i highest = _mm256_max_epu32(_mm256_max_epu32(_mm256_max_epu32(a, b), _mm256_max_epu32(c, d)),
                                             _mm256_max_epu32(_mm256_max_epu32(e, f), _mm256_max_epu32(g, h)));
    if (_mm256_testz_si256(highest, k.not7f)) {  // ASCII: one byte each
      i += 64;
      continue;
    }
    if (UTF8DFA_UNLIKELY(!_mm256_testz_si256(highest, k.not_ffff))) {
      std::size_t bytes = 0;
      const std::size_t run = beyond_bmp_run(p + i, n - i, bytes);
      if (run == 0) break;  // (found again by the 8-unit steps)
      extra += bytes - run;
      i += run;
      continue;
    }
    const __m256i ab = _mm256_packus_epi32(a, b), cd = _mm256_packus_epi32(c, d);
    const __m256i ef = _mm256_packus_epi32(e, f), gh = _mm256_packus_epi32(g, h);
    if (k.reaches_surrogates(highest) &&  // (narrowed with unsigned saturation: exact below 0x10000)
        UTF8DFA_UNLIKELY(k.surrogate_in(_mm256_min_epu16(_mm256_min_epu16(k.flipped(ab), k.flipped(cd)),
                                                         _mm256_min_epu16(k.flipped(ef), k.flipped(gh))))))
      break;
    more = _mm256_sub_epi8(more, _mm256_add_epi8(k.minus_more(k.shifted(ab, cd)), k.minus_more(k.shifted(ef, gh))));
    i += 64;
    if (++steps == 63) {  // 252 a lane at most
      sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, k.zero));
      more = k.zero;
      steps = 0;
    }
  }
  sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, k.zero));
  for (; n - i >= 8; i += 8) {
    const __m256i cp = load(p + i);
    if (UTF8DFA_UNLIKELY(!k.scalar_values(_mm256_sub_epi32(cp, k.sur), cp))) break;
    acc = _mm256_add_epi32(acc, k.minus_extra(cp));
  }
  if (i < n && n - i < 8 && n >= 8) {
    // The last 8 units, those before i left out of the count.
    const __m256i cp = load(p + n - 8);
    if (k.scalar_values(_mm256_sub_epi32(cp, k.sur), cp)) {
      const __m256i fresh = _mm256_cmpgt_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                               _mm256_set1_epi32(static_cast<int>(7 - (n - i))));
      acc = _mm256_add_epi32(acc, _mm256_and_si256(k.minus_extra(cp), fresh));
      i = n;
    }
  }
  less += sum_epi32(acc);
  count = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) - less) + extra + sum_epi64(sums);
  return i == n ? blocks_pass : i;
}

// The kernel-table entry points (a failing step reaches one block past its start; the tail left to
// the scalar decoder is shorter than a block).

// The short counts under valid_marker below (16 units a step) sum, in 16-bit lanes, compare results
// (-1 where true) whose sum, with 3 bytes a unit, is what utf8_length_valid (scalar.hpp) counts: -1
// below 0x80, -1 below 0x800, then -1 for a UTF-16 surrogate or +1 for a UTF-32 supplementary value:
// at most 2 a lane for 16 units (utf32_valid_bytes's steps that hold a value above 0x10FFFF too,
// widened to 32-bit lanes every `valid_widen_steps` steps of 64 units). The long counts sum bytes.

/// Units below which the lengths under valid_marker take the short counts, from which the long
/// counts of 64 a step with a test for ASCII (which at 1 KiB ran UTF-32 and UTF-16 1.3x as fast;
/// from 64 units, UTF-16 at 256 B 0.8x as fast).
inline constexpr std::size_t valid_below = 256;

/// Steps of 64 units (at most 8 a lane each) between two widenings of valid_marks's 16-bit lanes.
inline constexpr std::size_t valid_widen_steps = 2048;

/// The compare results of the 16 UTF-16 units u.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i valid_marks(__m256i u) noexcept {
  const __m256i zero = _mm256_setzero_si256(), top = _mm256_srli_epi16(u, 11);
  const __m256i small = _mm256_cmpeq_epi16(_mm256_srli_epi16(u, 7), zero);
  const __m256i mid = _mm256_cmpeq_epi16(top, zero);
  const __m256i sur = _mm256_cmpeq_epi16(top, _mm256_set1_epi16(0x1B));
  return _mm256_add_epi16(_mm256_add_epi16(small, mid), sur);
}

/// The compare results of the 16 UTF-32 values at q, in 16-bit lanes out of order (those of
/// q[0..3], q[8..11], q[4..7], q[12..15]: valid16_order). The tests read u >> 7 packed to words with
/// unsigned saturation (exact below 0x7FFF80, beyond it FFFF): 0 below 0x80, below 0x10 below 0x800,
/// 0x200..0x21FF for 0x10000..0x10FFFF (any value counts as utf8_length_valid counts it).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i valid_marks(const char32_t* q) noexcept {
  const __m256i t = _mm256_packus_epi32(_mm256_srli_epi32(load(q), 7), _mm256_srli_epi32(load(q + 8), 7));
  const __m256i zero = _mm256_setzero_si256();
  const __m256i small = _mm256_cmpeq_epi16(t, zero);
  const __m256i mid = _mm256_cmpeq_epi16(_mm256_srli_epi16(t, 4), zero);
  const __m256i planes = _mm256_sub_epi16(t, _mm256_set1_epi16(0x200));
  const __m256i supp = _mm256_cmpeq_epi16(_mm256_min_epu16(planes, _mm256_set1_epi16(0x1FFF)), planes);
  return _mm256_sub_epi16(_mm256_add_epi16(small, mid), supp);
}

/// The 16-bit lanes of the last 16 units of a short count, which end at n, that the steps before
/// counted (those before the `left` units left), as -1; `order` gives each lane's unit.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i counted_lanes(std::size_t left, __m256i order) noexcept {
  return _mm256_cmpgt_epi16(_mm256_set1_epi16(static_cast<short>(16 - left)), order);
}

/// 3 bytes a unit for n units, plus the (negative) sum of the lane counters `acc`.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t valid_total(std::size_t n, __m256i acc) noexcept {
  return 3 * n + static_cast<std::size_t>(sum_epi32(_mm256_madd_epi16(acc, _mm256_set1_epi16(1))));
}

/// Returned by utf8_length16<true> for UTF-16 that is not well-formed.
inline constexpr std::size_t paired_failed = static_cast<std::size_t>(-1);

/// utf8_length_valid (scalar.hpp) of the n (16 <= n < 1024) UTF-16 units at p: 16 a step, the last
/// 16 ending at n. With Paired, paired_failed unless they are well-formed (each step also tests that a high surrogate
/// comes exactly before a low one, p[i + 16] read too; the last 16 test their pairs among themselves): on well-formed
/// input the count is that of every policy.
template <bool Paired>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE std::size_t utf8_length16(const char16_t* p, std::size_t n) noexcept {
  const __m256i fc00 = _mm256_set1_epi16(static_cast<short>(0xFC00));
  const __m256i high = _mm256_set1_epi16(static_cast<short>(0xD800)),
                low = _mm256_set1_epi16(static_cast<short>(0xDC00));
  if (Paired && (p[0] & 0xFC00) == 0xDC00) return paired_failed;
  __m256i acc = _mm256_setzero_si256(), bad = _mm256_setzero_si256();
  std::size_t i = 0;
  for (; n - i > 16; i += 16) {
    const __m256i u = load(p + i);
    if constexpr (Paired)
      bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_cmpeq_epi16(_mm256_and_si256(u, fc00), high),
                                                  _mm256_cmpeq_epi16(_mm256_and_si256(load(p + i + 1), fc00), low)));
    acc = _mm256_add_epi16(acc, valid_marks(u));
  }
  const __m256i u = load(p + n - 16);
  if constexpr (Paired) {
    // The low surrogates moved down a lane (none after the last unit, which so must not be a high one).
    const __m256i tags = _mm256_and_si256(u, fc00), lows = _mm256_cmpeq_epi16(tags, low);
    const __m256i next_lows = _mm256_alignr_epi8(_mm256_permute2x128_si256(lows, lows, 0x81), lows, 2);
    bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_cmpeq_epi16(tags, high), next_lows));
    if (!_mm256_testz_si256(bad, bad)) return paired_failed;
  }
  const __m256i order = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  acc = _mm256_add_epi16(acc, _mm256_andnot_si256(counted_lanes(n - i, order), valid_marks(u)));
  return valid_total(n, acc);
}

/// utf8_length_valid (scalar.hpp) of the n (16 <= n < 1024) UTF-32 values at p: 16 a step, the last
/// 16 ending at n.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t utf8_length32(const char32_t* p, std::size_t n) noexcept {
  std::size_t i = 0;
  __m256i acc = _mm256_setzero_si256();
  for (; n - i > 16; i += 16) acc = _mm256_add_epi16(acc, valid_marks(p + i));
  const __m256i order = _mm256_setr_epi16(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);  // valid_marks's
  acc = _mm256_add_epi16(acc, _mm256_andnot_si256(counted_lanes(n - i, order), valid_marks(p + n - 16)));
  return valid_total(n, acc);
}

/// For valid UTF-16, the UTF-8 bytes past the first of a unit w by the high nibble of the byte
/// packs(w >> 7, arithmetic): 0 below 0x80 (and 1..15 below 0x800, counted apart), 0x10..0x7F for
/// 0x800..0x7FFF, 0x80..0xAF for 0x8000..0xD7FF, 0xB0..0xBF for the surrogates (one each: a pair is
/// 4 bytes), 0xC0..0xFF for 0xE000..0xFFFF.
inline constexpr std::uint8_t utf16_more_by_nibble[16] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1};

/// utf8_length_valid (scalar.hpp) of the n (n >= valid_below) UTF-16 units at p: 64 a step while 64
/// are left, an ASCII step one test, the others by packs(w >> 7, arithmetic): (>= 0x80) from its
/// byte, capped at 1, plus utf16_more_by_nibble by its high nibble, summed in bytes (at most 4 a
/// lane a step) and widened every 63 steps; the last units by utf8_length16.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t utf16_valid_bytes(const char16_t* p, std::size_t n) noexcept {
  const __m256i table =
      _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(utf16_more_by_nibble)));
  const __m256i x_ff80 = k16<0xFF80>(), low4 = k8<0x0F>(), one = k8<1>(), zero = _mm256_setzero_si256();
  const auto more_of = [&](__m256i a, __m256i b) UTF8DFA_TARGET_AVX2 {
    const __m256i x = _mm256_packs_epi16(_mm256_srai_epi16(a, 7), _mm256_srai_epi16(b, 7));
    const __m256i high = _mm256_and_si256(_mm256_srli_epi16(x, 4), low4);
    return _mm256_add_epi8(_mm256_min_epu8(x, one), _mm256_shuffle_epi8(table, high));
  };
  __m256i more = zero, sums = zero;
  std::size_t i = 0, steps = 0;
  for (; n - i >= 64; i += 64) {
    const __m256i w0 = load(p + i), w1 = load(p + i + 16), w2 = load(p + i + 32), w3 = load(p + i + 48);
    if (_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(w0, w1), _mm256_or_si256(w2, w3)), x_ff80)) continue;
    more = _mm256_add_epi8(more, _mm256_add_epi8(more_of(w0, w1), more_of(w2, w3)));
    if (++steps == 63) {  // 252 a lane at most
      sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, zero));
      more = zero;
      steps = 0;
    }
  }
  sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, zero));
  const std::size_t rest = n - i < 16 ? detail::utf8_length_valid(p + i, n - i) : utf8_length16<false>(p + i, n - i);
  return i + sum_epi64(sums) + rest;
}

/// utf8_length_valid (scalar.hpp) of the n (n >= valid_below) UTF-32 values at p: 64 a step while 64
/// are left, an ASCII step one test, a step within the BMP counted as utf32_bytes_segment counts it,
/// one that reaches past it (values up to 0x10FFFF) with one more a value above 0xFFFF, summed in
/// bytes (at most 6 a lane a step) and widened every 42 steps; a step holding a greater value by
/// valid_marks, as the last units are (utf8_length32).
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t utf32_valid_bytes(const char32_t* p, std::size_t n) noexcept {
  const utf32_count_constants k;
  __m256i more = k.zero, sums = k.zero, marks = k.zero;
  std::size_t i = 0, steps = 0, marked = 0, extra = 0;
  // The bytes past one a unit of `count` steps counted by valid_marks into `lanes`.
  const auto marked_extra = [](std::size_t count, __m256i lanes) UTF8DFA_TARGET_AVX2 {
    return 2 * 64 * count + static_cast<std::size_t>(sum_epi32(_mm256_madd_epi16(lanes, k16<1>())));
  };
  for (; n - i >= 64; i += 64) {
    const __m256i a = load(p + i), b = load(p + i + 8), c = load(p + i + 16), d = load(p + i + 24);
    const __m256i e = load(p + i + 32), f = load(p + i + 40), g = load(p + i + 48), h = load(p + i + 56);
    const __m256i highest = _mm256_max_epu32(_mm256_max_epu32(_mm256_max_epu32(a, b), _mm256_max_epu32(c, d)),
                                             _mm256_max_epu32(_mm256_max_epu32(e, f), _mm256_max_epu32(g, h)));
    if (_mm256_testz_si256(highest, k.not7f)) continue;  // ASCII: one byte each
    if (UTF8DFA_UNLIKELY(!k.in_range(highest))) {
      marks = _mm256_add_epi16(_mm256_add_epi16(marks, _mm256_add_epi16(valid_marks(p + i), valid_marks(p + i + 16))),
                               _mm256_add_epi16(valid_marks(p + i + 32), valid_marks(p + i + 48)));
      if (++marked == valid_widen_steps) {  // (at most 8 a lane a step)
        extra += marked_extra(marked, marks);
        marks = k.zero;
        marked = 0;
      }
      continue;
    }
    // (narrowed with unsigned saturation: exact below 0x10000, 0xFFFF above, which counts 2 more)
    const __m256i ab = _mm256_packus_epi32(a, b), cd = _mm256_packus_epi32(c, d);
    const __m256i ef = _mm256_packus_epi32(e, f), gh = _mm256_packus_epi32(g, h);
    __m256i minus = _mm256_add_epi8(k.minus_more(k.shifted(ab, cd)), k.minus_more(k.shifted(ef, gh)));
    if (!_mm256_testz_si256(highest, k.not_ffff)) {
      const auto beyond = [&](__m256i u0, __m256i u1, __m256i u2, __m256i u3) UTF8DFA_TARGET_AVX2 {
        return _mm256_packs_epi16(_mm256_packs_epi32(_mm256_cmpgt_epi32(u0, k.xffff), _mm256_cmpgt_epi32(u1, k.xffff)),
                                  _mm256_packs_epi32(_mm256_cmpgt_epi32(u2, k.xffff), _mm256_cmpgt_epi32(u3, k.xffff)));
      };
      minus = _mm256_add_epi8(minus, _mm256_add_epi8(beyond(a, b, c, d), beyond(e, f, g, h)));
    }
    more = _mm256_sub_epi8(more, minus);
    if (++steps == 42) {  // 252 a lane at most
      sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, k.zero));
      more = k.zero;
      steps = 0;
    }
  }
  sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, k.zero));
  const std::size_t rest = n - i < 16 ? detail::utf8_length_valid(p + i, n - i) : utf8_length32(p + i, n - i);
  return i + sum_epi64(sums) + extra + marked_extra(marked, marks) + rest;
}

/// utf8_length_valid (scalar.hpp) of UTF-16 or UTF-32: the scalar count below 16 units.
inline std::size_t utf8_length_valid(const char16_t* p, std::size_t n) noexcept {
  return n < 16            ? detail::utf8_length_valid(p, n)
         : n < valid_below ? utf8_length16<false>(p, n)
                           : utf16_valid_bytes(p, n);
}

inline std::size_t utf8_length_valid(const char32_t* p, std::size_t n) noexcept {
  return n < 16 ? detail::utf8_length_valid(p, n) : n < valid_below ? utf8_length32(p, n) : utf32_valid_bytes(p, n);
}

inline std::size_t utf16_length_from_utf8(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  std::size_t count = 0;
  if (n >= 32 && n <= 64 && utf8_units_short<true>(p, n, count)) return count;
  return utf8_units_blocks<true, &utf8_units_segment<true>, 64>(p, n, repl);
}

inline std::size_t utf32_length_from_utf8(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  std::size_t count = 0;
  if (n >= 32 && n <= 64 && utf8_units_short<false>(p, n, count)) return count;
  return utf8_units_blocks<false, &utf8_units_segment<false>, 64>(p, n, repl);
}

inline std::size_t utf8_length_from_utf16(const char16_t* p, std::size_t n, char32_t repl) noexcept {
  if (repl == valid_marker) return utf8_length_valid(p, n);
  if (n >= 16 && n < 256) {  // short well-formed text: no error to count (longer: the blocks)
    const std::size_t bytes = utf8_length16<true>(p, n);
    if (bytes != paired_failed) return bytes;
  }
  return utf8_bytes_blocks<char16_t, &utf16_bytes_segment, 16>(p, n, repl);
}

inline std::size_t utf8_length_from_utf32(const char32_t* p, std::size_t n, char32_t repl) noexcept {
  if (repl == valid_marker) return utf8_length_valid(p, n);
  return utf8_bytes_blocks<char32_t, &utf32_bytes_segment, 8>(p, n, repl);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
#endif
