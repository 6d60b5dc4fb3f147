// utf8dfa: AVX2 kernels for count_utf16, validate_utf32, UTF-16 / UTF-32 to Latin-1, Latin-1 to
// UTF-16 / UTF-32 and its UTF-8 length, and byte-order changes. Same results as the scalar functions
// of units.hpp and units_kernels.hpp: a block that holds an error (or, into Latin-1, a character
// above U+00FF) is run through the scalar code and the vector loop resumes behind it. Most tails are
// scalar (Latin-1 widening and the byte-order change end with a vector over units already written);
// nothing is read past the input nor written past the output.
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_UNITS_BULK_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_UNITS_BULK_HPP

#include "../../kernel_table.hpp"
#include "../../units.hpp"
#include "../../units_kernels.hpp"
#include "../target.hpp"
#include "units.hpp"

#if UTF8DFA_X86_KERNELS
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

/// Inputs of at least this many units start their vector loops at a 64-byte boundary.
inline constexpr std::size_t align_from = 2048;

/// Units of scalar work before the vector loop: to the next 64-byte boundary of `p` (so that the
/// loop's loads or stores do not straddle cache lines), none under align_from units, where that costs
/// more than it saves (the loops use unaligned loads and stores, which cost nothing more when
/// aligned).
template <class Unit>
std::size_t scalar_head(const Unit* p, std::size_t n) noexcept {
  const std::size_t head = units_to_line(p);
  return n < align_from || head > n ? 0 : head;
}

/// The pairs that start among the 16 UTF-16 units `u` (`next`: the units after each), as -1 in
/// their lanes: a high surrogate before a low one ((next & FC00) | (u >> 10) is DC00 | D800 >> 10).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i pair_starts(__m256i u, __m256i next) noexcept {
  const __m256i key =
      _mm256_or_si256(_mm256_and_si256(next, _mm256_set1_epi16(static_cast<short>(0xFC00))), _mm256_srli_epi16(u, 10));
  return _mm256_cmpeq_epi16(key, _mm256_set1_epi16(static_cast<short>(0xDC00 | (0xD800 >> 10))));
}

/// pair_starts of the 16 UTF-16 units at p (p[16] read too).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i pair_starts16(const char16_t* p) noexcept {
  return pair_starts(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                     _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1)));
}

/// The pairs that start among the 8 UTF-16 units at p (the unit after them read), 2 bits a unit.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::uint32_t pair_starts8(const char16_t* p) noexcept {
  const __m128i u = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
  const __m128i key =
      _mm_or_si128(_mm_and_si128(next, _mm_set1_epi16(static_cast<short>(0xFC00))), _mm_srli_epi16(u, 10));
  return static_cast<std::uint32_t>(
      _mm_movemask_epi8(_mm_cmpeq_epi16(key, _mm_set1_epi16(static_cast<short>(0xDC00 | (0xD800 >> 10))))));
}

/// count_utf16 of 9 to 16 units: the pairs that start among the first 8 units, and among the 8
/// before the last one past those.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t count_utf16_short(const char16_t* p, std::size_t n) noexcept {
  const std::uint32_t first = pair_starts8(p), last = pair_starts8(p + n - 9) >> (2 * (17 - n));
  return n - static_cast<std::size_t>(_mm_popcnt_u32(first) + _mm_popcnt_u32(last)) / 2;
}

/// The pairs that start among the 16 UTF-16 units at p (p[16] read too), 2 bits a unit.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::uint32_t pair_bits16(const char16_t* p) noexcept {
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(pair_starts16(p)));
}

/// Units below which count_utf16 takes the short count.
inline constexpr std::size_t count16_short_below = 1024;

/// count_utf16 of 9 to count16_short_below units, out of line (the long loop's registers stay out
/// of it): 64 units with the unit after them at a time, none counted when none is a surrogate, else
/// in blocks of 16; then the same for the last 64 (those before counted), or blocks of 16 and the
/// last 16 before the last unit, from where those ended.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t count_utf16_upto(const char16_t* p, std::size_t n) noexcept {
  if (n <= 16) return count_utf16_short(p, n);
  const __m256i shift = _mm256_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m256i top = _mm256_set1_epi16(0x07FF);
  std::size_t pairs = 0, k = 0;
  for (; n - k >= 65; k += 64)
    if (!plain64(p + k, shift, top))
      for (std::size_t j = k; j < k + 64; j += 16)
        pairs += static_cast<std::size_t>(_mm_popcnt_u32(pair_bits16(p + j)));
  if (n >= 64 && plain64(p + n - 64, shift, top)) return n - pairs / 2;
  for (; n - k >= 17; k += 16) pairs += static_cast<std::size_t>(_mm_popcnt_u32(pair_bits16(p + k)));
  if (n - k >= 2)  // [k, n - 1) left: lanes k - (n - 17) on of the block at n - 17
    pairs += static_cast<std::size_t>(_mm_popcnt_u32(pair_bits16(p + n - 17) >> (2 * (k - (n - 17)))));
  return n - pairs / 2;
}

/// count_utf16 (aligned: moved by other code, its plain loop ran 1.9x -> 1.3x simdutf): the units
/// less the pairs (a high surrogate right before a low one). From a 64-byte
/// boundary: 64 units without a surrogate at a time, tried again after 64 units (16 near the end) without a
/// pair, the others 16 at a time against the units after them, counted in 16-bit lanes; the head
/// and the tail scalar.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline std::size_t count_utf16(const char16_t* p,
                                                                                       std::size_t n) noexcept {
  const __m256i shift = _mm256_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m256i top = _mm256_set1_epi16(0x07FF);
  if (n - 9 < count16_short_below - 9) return count_utf16_upto(p, n);
  if (n <= 8) {
    UTF8DFA_LEAVE_AVX();
    return n - pair_starts_scalar(p, n, 0, n);
  }
  std::size_t i = scalar_head(p, n);
  UTF8DFA_LEAVE_AVX();
  std::size_t pairs = pair_starts_scalar(p, n, 0, i);
  bool try_plain = true;
  while (n - i > 16) {  // the unit after the block is there
    if (try_plain && n - i >= 64) {
      if (plain64(p + i, shift, top)) {
        i += 64;
        continue;
      }
      try_plain = false;
    }
    // Up to 1024 blocks counted in 16-bit lanes (-1 a pair), summed when pairs are found.
    __m256i counts = _mm256_setzero_si256();
    const std::size_t end = n - i - 1 < 16 * 1024 ? i + (n - i - 1) / 16 * 16 : i + 16 * 1024;
    bool back = false;  // a block without a pair: back to the test for plain blocks
    // (four blocks a step while they fit, one test for them)
    for (; end - i >= 64; i += 64) {
      const __m256i s0 = pair_starts16(p + i), s1 = pair_starts16(p + i + 16);
      const __m256i s2 = pair_starts16(p + i + 32), s3 = pair_starts16(p + i + 48);
      counts = _mm256_sub_epi16(_mm256_sub_epi16(counts, _mm256_add_epi16(s0, s1)), _mm256_add_epi16(s2, s3));
      // (back to the plain test after 64 units without a pair: one test a step, not one a block;
      // emoji at ~100 KB 0.76x -> 0.83x simdutf haswell)
      const __m256i any = _mm256_or_si256(_mm256_or_si256(s0, s1), _mm256_or_si256(s2, s3));
      if (_mm256_testz_si256(any, any)) {
        i += 64;
        back = true;
        break;
      }
    }
    for (; !back && i < end; i += 16) {
      const __m256i starts = pair_starts16(p + i);
      counts = _mm256_sub_epi16(counts, starts);
      if (_mm256_testz_si256(starts, starts)) {
        i += 16;
        back = true;
        break;
      }
    }
    if (back) try_plain = true;
    const __m256i sums = _mm256_madd_epi16(counts, _mm256_set1_epi16(1));
    const __m128i half = _mm_add_epi32(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    const __m128i quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
    pairs += static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_add_epi32(quarter, _mm_srli_si128(quarter, 4))));
  }
  if (i < n && n > 16) {
    // The pairs that start in [i, n - 1): those that end among the last 16 units past i + 1.
    const std::size_t rest = n - i;  // 1..16
    const __m256i ends = pair_starts(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 17)),
                                     _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 16)));
    const std::uint64_t bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(ends));  // 2 a lane
    return n - pairs - static_cast<std::size_t>(_mm_popcnt_u64(bits >> (2 * (17 - rest)))) / 2;
  }
  UTF8DFA_LEAVE_AVX();
  return n - pairs - pair_starts_scalar(p, n, i, n);
}

/// Takes the 8 values at q into `top`, the largest of (value ^ D800) - 800: that maps D800..DFFF
/// to FFFFF800..FFFFFFFF and values above 10FFFF above 10F7FF, the scalar values to 0..10F7FF, so
/// the values taken are all scalar values exactly when top <= 10F7FF (three operations a vector,
/// one accumulator).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void take_utf32(__m256i& top, const char32_t* q) noexcept {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
  top =
      _mm256_max_epu32(top, _mm256_sub_epi32(_mm256_xor_si256(v, _mm256_set1_epi32(0xD800)), _mm256_set1_epi32(0x800)));
}

/// A quicker filter for long input: takes the 16-bit halves of the 8 values at q, 2000 added to the
/// low ones (D800..DFFF, and only they, become F800..FFFF), into `top`, the largest of each (two
/// operations a vector). Exact for values above 10FFFF; a surrogate is flagged with every value
/// whose low half is one (U+1D800, ...), which take_utf32 clears.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void take_halves(__m256i& top, const char32_t* q) noexcept {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
  top = _mm256_max_epu16(top, _mm256_add_epi16(v, _mm256_set1_epi32(0x2000)));
}

/// True when the values take_utf32 took into `top` are all scalar values.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf32_top_ok(__m256i top) noexcept {
  const __m256i limit = _mm256_set1_epi32(0x10F7FF);
  return _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(top, limit), limit)) == -1;
}

/// validate_utf32: from a 64-byte boundary, blocks of up to 1024 values checked once each through
/// take_utf32; the scalar code finds the error in a block that has one, and checks the head and the
/// tail.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline packed_validation validate_utf32(const char32_t* p,
                                                                             std::size_t n) noexcept {
  if (n - 8 <= 64 - 8) {
    // 8 to 64 values: the first and the last 8, and those between in groups of 8 (the last ones
    // overlapping), as many as it takes (2, 4 or 8 groups), into two accumulators.
    const std::size_t last = n - 8;
    __m256i top = _mm256_setzero_si256(), more = top;
    take_utf32(top, p);
    take_utf32(more, p + last);
    if (n > 16) {
      take_utf32(top, p + 8);
      take_utf32(more, p + (last < 16 ? last : 16));
      if (n > 32)
        for (std::size_t k = 24; k < 56; k += 16) {
          take_utf32(top, p + (last < k ? last : k));
          take_utf32(more, p + (last < k + 8 ? last : k + 8));
        }
    }
    if (utf32_top_ok(_mm256_max_epu32(top, more))) return {n, 0, error_code::none};
    UTF8DFA_LEAVE_AVX();
    return validate_utf(p, n);
  }
  std::size_t i = scalar_head(p, n);
  UTF8DFA_LEAVE_AVX();
  packed_validation r = validate_utf(p, i);
  if (!r) return r;
  // Each 32-bit lane's high half at most 10, its low half (plus 2000) at most F7FF.
  const __m256i limit = _mm256_set1_epi32(0x0010F7FF);
  while (n - i >= 32) {
    __m256i top0 = _mm256_setzero_si256(), top1 = top0, top2 = top0, top3 = top0;
    const std::size_t step = n - i < 1024 ? (n - i) / 32 * 32 : 1024;
    for (const char32_t* q = p + i; q < p + i + step; q += 32) {
      take_halves(top0, q);
      take_halves(top1, q + 8);
      take_halves(top2, q + 16);
      take_halves(top3, q + 24);
    }
    const __m256i top = _mm256_max_epu16(_mm256_max_epu16(top0, top1), _mm256_max_epu16(top2, top3));
    if (UTF8DFA_UNLIKELY(_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_max_epu16(top, limit), limit)) != -1)) {
      // Flagged: checked exactly (a value such as U+1D800 passes).
      top0 = top1 = top2 = top3 = _mm256_setzero_si256();
      for (const char32_t* q = p + i; q < p + i + step; q += 32) {
        take_utf32(top0, q);
        take_utf32(top1, q + 8);
        take_utf32(top2, q + 16);
        take_utf32(top3, q + 24);
      }
      if (!utf32_top_ok(_mm256_max_epu32(_mm256_max_epu32(top0, top1), _mm256_max_epu32(top2, top3)))) break;
    }
    i += step;
  }
  if (n - i < 32 && n >= 8 && i < n) {
    // The rest in four groups of 8, overlapping, that end at n (read again by the scalar code when
    // one holds an error).
    const std::size_t last = n - 8;
    const char32_t* q = p + i;
    __m256i top = _mm256_setzero_si256();
    take_utf32(top, p + last);
    take_utf32(top, n - i > 8 ? q : p + last);
    take_utf32(top, n - i > 16 ? q + 8 : p + last);
    take_utf32(top, n - i > 24 ? q + 16 : p + last);
    if (utf32_top_ok(top)) return {n, 0, error_code::none};
  }
  UTF8DFA_LEAVE_AVX();
  r = validate_utf(p + i, n - i);
  return {i + r.valid_up_to, r.error_length, r.error};
}

/// The 32 bytes at q (aligned to 32 bytes if Aligned).
template <bool Aligned>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i load256(const __m256i* q) noexcept {
  return Aligned ? _mm256_load_si256(q) : _mm256_loadu_si256(q);
}

/// Writes the 32 values at p (64-byte aligned if Aligned) as bytes at o when they are all at most FF; false
/// (nothing written) when one is not.
template <bool Aligned, class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool narrow32(const In* p, unsigned char* o) noexcept {
  const auto* v = reinterpret_cast<const __m256i*>(p);
  __m256i bytes;
  if constexpr (sizeof(In) == 2) {
    const __m256i a = load256<Aligned>(v), b = load256<Aligned>(v + 1);
    if (!_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16(static_cast<short>(0xFF00)))) return false;
    // packus interleaves the 128-bit lanes: a0 b0 a1 b1, put back in order.
    bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
  } else {
    const __m256i a = load256<Aligned>(v), b = load256<Aligned>(v + 1);
    const __m256i c = load256<Aligned>(v + 2), d = load256<Aligned>(v + 3);
    if (!_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)),
                            _mm256_set1_epi32(static_cast<int>(0xFFFFFF00u))))
      return false;
    // Dwords of 4 bytes: a0 b0 c0 d0 | a1 b1 c1 d1 (by 128-bit lane), put back in order.
    const __m256i mixed = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
    bytes = _mm256_permutevar8x32_epi32(mixed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), bytes);
  return true;
}

/// 32 values at p narrowed to bytes, with their bits or'ed into `over` (in 16- or 32-bit lanes).
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i narrow_any32(const In* p, __m256i& over) noexcept {
  const auto* v = reinterpret_cast<const __m256i*>(p);
  if constexpr (sizeof(In) == 2) {
    const __m256i a = _mm256_loadu_si256(v), b = _mm256_loadu_si256(v + 1);
    over = _mm256_or_si256(over, _mm256_or_si256(a, b));
    return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
  } else {
    const __m256i a = _mm256_loadu_si256(v), b = _mm256_loadu_si256(v + 1);
    const __m256i c = _mm256_loadu_si256(v + 2), d = _mm256_loadu_si256(v + 3);
    over = _mm256_or_si256(over, _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)));
    const __m256i mixed = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
    return _mm256_permutevar8x32_epi32(mixed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  }
}

/// narrow32 of the 64 values at p, with one test: false (nothing written) when one of them is
/// above FF.
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool narrow64(const In* p, unsigned char* o) noexcept {
  __m256i over = _mm256_setzero_si256();
  const __m256i first = narrow_any32(p, over), second = narrow_any32(p + 32, over);
  const __m256i limit = sizeof(In) == 2 ? _mm256_set1_epi16(static_cast<short>(0xFF00))
                                        : _mm256_set1_epi32(static_cast<int>(0xFFFFFF00u));
  if (!_mm256_testz_si256(over, limit)) return false;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), first);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32), second);
  return true;
}

/// The 8 values at p narrowed to bytes, in the low 8 bytes, with the bits above FF of any of them
/// or'ed into `over` (In char16_t: one 16-byte load; char32_t: one 32-byte load).
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i narrow8(const In* p, __m128i& over) noexcept {
  if constexpr (sizeof(In) == 2) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    over = _mm_or_si128(over, v);
    return _mm_packus_epi16(v, v);
  } else {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    over = _mm_or_si128(over, _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
    const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return _mm_packus_epi16(words, words);
  }
}

/// Latin-1 of 8 to 31 values that are all up to FF: four groups of 8, overlapping, that cover
/// [0, n) (nothing read or written outside it); false, and nothing written, when a value is above FF.
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool narrow_short(const In* p, std::size_t n, unsigned char* out) noexcept {
  const std::size_t last = n - 8, second = last < 8 ? last : 8, third = last < 16 ? last : 16;
  __m128i over = _mm_setzero_si128();
  const __m128i a = narrow8(p, over), b = narrow8(p + second, over);
  const __m128i c = narrow8(p + third, over), d = narrow8(p + last, over);
  const __m128i limit =
      sizeof(In) == 2 ? _mm_set1_epi16(static_cast<short>(0xFF00)) : _mm_set1_epi32(static_cast<int>(0xFFFFFF00u));
  if (!_mm_testz_si128(over, limit)) return false;
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), a);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + second), b);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + third), c);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + last), d);
  return true;
}

/// UTF-16 (In char16_t) or UTF-32 to Latin-1 under Policy: blocks of 32 values up to FF from a
/// 64-byte boundary narrowed in vectors, the others scalar.
/// The output of [0, start) is written already, a byte per value.
template <class Policy, class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE packed_conversion units_to_latin1_by(const In* p, std::size_t n,
                                                                          unsigned char* out, unsigned char repl,
                                                                          std::size_t start = 0) noexcept {
  latin1_progress s;
  // s.read, and s.read - s.written (which the vector blocks leave as it is), in registers.
  std::size_t i = start, lag = 0;
  std::size_t same_lag = 0;  // where lag last changed (the output of [same_lag, i) is p's)
  const bool align = n >= align_from;
  while (n - i >= 32) {
    const std::size_t head = align ? units_to_line(p + i) : 0;
    if (head != 0) {  // scalar to the next 64-byte boundary
      s.read = i;
      s.written = i - lag;
      UTF8DFA_LEAVE_AVX();
      if (!to_latin1_until<Policy>(p, n, i + head, out, s, repl)) return latin1_result(s, n, true);
      i = s.read;
      if (i - s.written != lag) same_lag = i;
      lag = i - s.written;
      continue;
    }
    // From the boundary on, blocks of 64 and then of 32 while they fit (tight loops), then the block
    // that does not.
    while (n - i >= 64 && narrow64(p + i, out + (i - lag))) i += 64;
    if (align)
      while (n - i >= 32 && narrow32<true>(p + i, out + (i - lag))) i += 32;
    else
      while (n - i >= 32 && narrow32<false>(p + i, out + (i - lag))) i += 32;
    if (n - i < 32) break;
    s.read = i;
    s.written = i - lag;
    UTF8DFA_LEAVE_AVX();
    if (!to_latin1_until<Policy>(p, n, i + 32, out, s, repl)) return latin1_result(s, n, true);
    i = s.read;
    if (i - s.written != lag) same_lag = i;
    lag = i - s.written;
  }
  // The tail in the last 32 values, when the output before it is theirs as they are.
  if (i < n && n >= 32 && n - 32 >= same_lag && narrow32<false>(p + n - 32, out + (n - 32 - lag))) i = n;
  s.read = i;
  s.written = i - lag;
  UTF8DFA_LEAVE_AVX();
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

/// Latin-1 of 8 to 64 values when they are all up to FF (false, and nothing written, otherwise):
/// overlapping groups of 8 below 32 values, else the first 32 and the last 32.
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool narrow_upto64(const In* p, std::size_t n, unsigned char* out) noexcept {
  if (n < 32) return narrow_short(p, n, out);
  __m256i over = _mm256_setzero_si256();
  const __m256i first = narrow_any32(p, over), last = narrow_any32(p + n - 32, over);
  const __m256i limit = sizeof(In) == 2 ? _mm256_set1_epi16(static_cast<short>(0xFF00))
                                        : _mm256_set1_epi32(static_cast<int>(0xFFFFFF00u));
  if (!_mm256_testz_si256(over, limit)) return false;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), first);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n - 32), last);
  return true;
}

/// Latin-1 of 64 to align_from values, 32 at a time (the last 32 ending at n) while they are all
/// up to FF: returns n, or the start of the first block of 32 that is not (its output not written).
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t narrow_medium(const In* p, std::size_t n,
                                                                    unsigned char* out) noexcept {
  std::size_t i = 0;
  while (n - i >= 64 && narrow64(p + i, out + i)) i += 64;  // (the block of 32 that fails found below)
  for (; n - i >= 32; i += 32)
    if (!narrow32<false>(p + i, out + i)) return i;
  if (i != n && narrow32<false>(p + n - 32, out + n - 32)) i = n;
  return i;
}

/// units_to_latin1 of input that the entry does not take whole: from 65 to align_from units, blocks
/// from the start while they narrow; then units_to_latin1_by.
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE packed_conversion units_to_latin1_rest(const In* p, std::size_t n,
                                                                            unsigned char* out,
                                                                            char32_t replacement) noexcept {
  std::size_t start = 0;
  if (n - 65 < align_from - 65) {
    start = narrow_medium(p, n, out);
    if (start == n) return {n, n, error_code::none};
  }
  if (replacement == strict_marker) return units_to_latin1_by<strict>(p, n, out, 0, start);
  if (replacement == skip_marker) return units_to_latin1_by<skip>(p, n, out, 0, start);
  return units_to_latin1_by<replace>(p, n, out, static_cast<unsigned char>(replacement), start);
}

/// The kernel entry: 8 to 64 units narrowed here when they all are at most FF, in a function that
/// calls nothing then (so it saves no registers); anything else by a tail call.
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALIGN_CODE packed_conversion units_to_latin1(const In* p, std::size_t n, unsigned char* out,
                                                                         char32_t replacement) noexcept {
  if (n - 8 <= 64 - 8 && narrow_upto64(p, n, out)) return {n, n, error_code::none};
  return units_to_latin1_rest(p, n, out, replacement);
}

/// The `group` (16 or 8) Latin-1 bytes at p widened into one 32-byte store at o.
template <class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void widen_group(const unsigned char* p, Out* o) noexcept {
  if constexpr (sizeof(Out) == 2)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o),
                        _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  else
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o),
                        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}

/// Latin-1 to UTF-16 (Out char16_t) or UTF-32: 32 or 16 bytes widened a step; from align_from bytes
/// on, stored from a 64-byte boundary of the output (the two groups before it written first,
/// unaligned); the last group ends at n, over the one before. A leaf: under 8 or 4 bytes the scalar
/// loop is a tail call, so that no call saves registers or aligns the stack (which cost 2-3 cycles
/// a call, a quarter of the time of 32 bytes).
template <class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE std::size_t latin1_widen(const unsigned char* p, std::size_t n,
                                                                                 Out* out) noexcept {
  constexpr std::size_t group = 32 / sizeof(Out);  // bytes a 32-byte store takes: 16 or 8
  if (n < group) {
    // group / 2 to group - 1 bytes: two groups of group / 2, overlapping (one 16-byte store each).
    if (n >= group / 2) {
      if constexpr (sizeof(Out) == 2) {
        const __m128i a = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
        const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + n - 8));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_cvtepu8_epi16(a));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - 8), _mm_cvtepu8_epi16(b));
      } else {
        std::uint32_t a, b;
        std::memcpy(&a, p, 4);
        std::memcpy(&b, p + n - 4, 4);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_cvtepu8_epi32(_mm_cvtsi32_si128(static_cast<int>(a))));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - 4),
                         _mm_cvtepu8_epi32(_mm_cvtsi32_si128(static_cast<int>(b))));
      }
      return n;
    }
    UTF8DFA_LEAVE_AVX();
    return latin1_widen_scalar(p, n, out);
  }
  std::size_t i = 0;
  if (n >= align_from) {  // units_to_line(out) < 2 * group
    widen_group(p, out);
    widen_group(p + group, out + group);
    i = units_to_line(out);
  }
  // Four groups a step (each loop test and jump spread over four stores: at 1 KiB into UTF-16 1.1x
  // as fast as by two, 256 B 1.15x; the compiler had placed that loop across a cache line), then single groups.
  for (; n - i >= 4 * group; i += 4 * group) {
    widen_group(p + i, out + i);
    widen_group(p + i + group, out + i + group);
    widen_group(p + i + 2 * group, out + i + 2 * group);
    widen_group(p + i + 3 * group, out + i + 3 * group);
  }
  for (; n - i >= group; i += group) widen_group(p + i, out + i);
  if (i < n) widen_group(p + n - group, out + n - group);
  return n;
}

/// The bytes 80..FF among the 32 at p, as -1 in their lanes.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i high_bytes(const unsigned char* p) noexcept {
  return _mm256_cmpgt_epi8(_mm256_setzero_si256(), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

/// The sum of the 32 byte lanes of `counts`.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t sum_bytes(__m256i counts) noexcept {
  const __m256i sums = _mm256_sad_epu8(counts, _mm256_setzero_si256());
  const __m128i half = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
  return static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_add_epi64(half, _mm_unpackhi_epi64(half, half))));
}

/// Bytes of the UTF-8 of Latin-1: n plus the bytes 80..FF, counted (from a 64-byte boundary for
/// long inputs) in four sets of byte lanes, up to 255 blocks of 128 between two sums; the rest 32
/// at a time, the tail in one overlapping vector (scalar under 32 bytes).
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t utf8_length_from_latin1(const unsigned char* p,
                                                                                std::size_t n) noexcept {
  std::size_t i = scalar_head(p, n);
  UTF8DFA_LEAVE_AVX();
  std::size_t total = utf8_length_from_latin1_scalar(p, i) + (n - i);
  while (n - i >= 128) {
    const std::size_t end = i + ((n - i) / 128 < 255 ? (n - i) / 128 : 255) * 128;
    __m256i c0 = _mm256_setzero_si256(), c1 = c0, c2 = c0, c3 = c0;  // -1 for each byte 80..FF
    for (; i < end; i += 128) {
      c0 = _mm256_add_epi8(c0, high_bytes(p + i));
      c1 = _mm256_add_epi8(c1, high_bytes(p + i + 32));
      c2 = _mm256_add_epi8(c2, high_bytes(p + i + 64));
      c3 = _mm256_add_epi8(c3, high_bytes(p + i + 96));
    }
    const __m256i zero = _mm256_setzero_si256();
    total += sum_bytes(_mm256_sub_epi8(zero, c0)) + sum_bytes(_mm256_sub_epi8(zero, c1)) +
             sum_bytes(_mm256_sub_epi8(zero, c2)) + sum_bytes(_mm256_sub_epi8(zero, c3));
  }
  for (; n - i >= 32; i += 32)
    total +=
        static_cast<std::size_t>(_mm_popcnt_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(high_bytes(p + i)))));
  if (n >= 32 && i < n) {  // the last 32 bytes, those before i left out
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(high_bytes(p + n - 32)));
    return total + static_cast<std::size_t>(_mm_popcnt_u64(std::uint64_t{high} >> (32 - (n - i))));
  }
  UTF8DFA_LEAVE_AVX();
  return total + utf8_length_from_latin1_scalar(p + i, n - i) - (n - i);
}

/// The byte shuffles of change_endianness: in 16 bytes, and in both lanes of 32.
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i unit_byte_reversal16() noexcept {
  return sizeof(Unit) == 2 ? _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)
                           : _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
}

/// Exchanges in place the bytes of the k units at o (under 32 bytes) by pieces of 16, 8, 4 and 2
/// bytes that do not overlap: the next read of these units then loads each piece from one store (a
/// load that spans two stores waits until both are written to the cache).
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void change_endianness_rest_in_place(Unit* units, std::size_t k,
                                                                               __m128i lane_order) noexcept {
  unsigned char* o = reinterpret_cast<unsigned char*>(units);
  const std::size_t rest = k * sizeof(Unit);
  if (rest & 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o),
                     _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(o)), lane_order));
    o += 16;
  }
  if (rest & 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o),
                     _mm_shuffle_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(o)), lane_order));
    o += 8;
  }
  if (rest & 4) {
    std::int32_t w;  // (memcpy and movd: _mm_loadu_si32 is missing or wrong in some GCC versions)
    std::memcpy(&w, o, 4);
    w = _mm_cvtsi128_si32(_mm_shuffle_epi8(_mm_cvtsi32_si128(w), lane_order));
    std::memcpy(o, &w, 4);
    o += 4;
  }
  if (sizeof(Unit) == 2 && (rest & 2) != 0) {
    const unsigned char b = o[0];
    o[0] = o[1];
    o[1] = b;
  }
}

/// change_endianness from unit i on (16 bytes of units at least from i to n): 128 bytes a step, then
/// 32; in place, the rest by change_endianness_rest_in_place; into another buffer, 16 bytes and the
/// last 16 bytes, stored over units before them.
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void change_endianness_from(const Unit* p, std::size_t n, Unit* out,
                                                                      std::size_t i) noexcept {
  constexpr std::size_t lanes = 32 / sizeof(Unit), half = lanes / 2;  // units in 32 and 16 bytes
  const __m128i lane_order = unit_byte_reversal16<Unit>();
  const __m256i order = _mm256_broadcastsi128_si256(lane_order);
  for (; n - i >= 4 * lanes; i += 4 * lanes) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + lanes));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 2 * lanes));
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 3 * lanes));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_shuffle_epi8(a, order));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + lanes), _mm256_shuffle_epi8(b, order));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 2 * lanes), _mm256_shuffle_epi8(c, order));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 3 * lanes), _mm256_shuffle_epi8(d, order));
  }
  for (; n - i >= lanes; i += lanes) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_shuffle_epi8(a, order));
  }
  if (out == p) {
    change_endianness_rest_in_place<Unit>(out + i, n - i, lane_order);
    return;
  }
  const __m128i last = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - half)), lane_order);
  if (n - i >= half) {  // 16 bytes
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm_shuffle_epi8(x, lane_order));
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - half), last);
}

/// change_endianness of align_from units or more: scalar up to a 64-byte boundary of the output
/// (a vector store there, over units still to be read in place, would exchange them twice), the
/// rest from it. Out of line, so that the entry saves no registers around the scalar call.
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE std::size_t change_endianness_long(const Unit* p, std::size_t n,
                                                                        Unit* out) noexcept {
  const std::size_t i = scalar_head(out, n);
  UTF8DFA_LEAVE_AVX();
  change_endianness_scalar(p, i, out);
  change_endianness_from(p, n, out, i);
  return n;
}

/// change_endianness_utf16 / _utf32 (by Unit): one byte shuffle a vector; `out` may be `p`. Up to
/// 128 bytes: in place, whole vectors and the rest by change_endianness_rest_in_place; into another
/// buffer, two or four vectors, overlapping. Then 128 bytes a step. A leaf below align_from units (as
/// latin1_widen).
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE std::size_t change_endianness(const Unit* p, std::size_t n,
                                                                                      Unit* out) noexcept {
  constexpr std::size_t lanes = 32 / sizeof(Unit);
  constexpr std::size_t half = lanes / 2;  // units in 16 bytes
  if (n < half) {
    UTF8DFA_LEAVE_AVX();
    return change_endianness_scalar(p, n, out);
  }
  const __m128i lane_order = unit_byte_reversal16<Unit>();
  const __m256i order = _mm256_broadcastsi128_si256(lane_order);
  if (n <= 4 * lanes) {  // 16 to 128 bytes
    if (out == p) {
      // In place, stores that do not overlap: the next read of these units then loads each piece
      // from one store (a load that spans two stores waits until both are written to the cache).
      std::size_t i = 0;
      for (; n - i >= lanes; i += lanes)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                            _mm256_shuffle_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)), order));
      change_endianness_rest_in_place<Unit>(out + i, n - i, lane_order);
      return n;
    }
    // Into another buffer: two or four vectors, overlapping, all read before any store.
    if (n < lanes) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - half));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi8(a, lane_order));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - half), _mm_shuffle_epi8(b, lane_order));
    } else {
      const std::size_t second = n <= 2 * lanes ? n - lanes : lanes, third = n <= 2 * lanes ? 0 : n - 2 * lanes;
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + second));
      const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + third));
      const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - lanes));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_shuffle_epi8(a, order));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + second), _mm256_shuffle_epi8(b, order));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + third), _mm256_shuffle_epi8(c, order));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n - lanes), _mm256_shuffle_epi8(d, order));
    }
    return n;
  }
  if (n >= align_from) return change_endianness_long(p, n, out);
  change_endianness_from(p, n, out, 0);
  return n;
}

/// validate_utf16 on units with their bytes exchanged.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline packed_validation validate_utf16_swapped(const char16_t* p,
                                                                                     std::size_t n) noexcept {
  return validate_utf16_by<true>(p, n);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
