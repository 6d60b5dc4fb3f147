// utf8dfa: AVX-512 kernels for count_utf16, validate_utf32, UTF-16 / UTF-32 to Latin-1, Latin-1 to
// UTF-16 / UTF-32 and its UTF-8 length, and byte-order changes. Same results as the scalar functions
// of units.hpp and units_kernels.hpp: a block that holds an error (or, into Latin-1, a character
// above U+00FF) is run through the scalar code and the vector loop resumes behind it. Tails use
// masked loads and stores: nothing is read past the input nor written past the output.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_UNITS_BULK_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_UNITS_BULK_HPP

#include "../../kernel_table.hpp"
#include "../../units.hpp"
#include "../../units_kernels.hpp"
#include "../target.hpp"
#include "transcode.hpp"
#include "units.hpp"

#if UTF8DFA_X86_KERNELS
#include <cstddef>
#include <cstdint>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx512 {

/// The pairs ending in a block of (at most 32) UTF-16 units `u`: the low surrogates that follow a
/// high one (`carry`: 1 when the unit before the block is a high surrogate). Sets `carry` for the
/// next block.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t pairs_ending(__m512i u, std::uint64_t& carry) noexcept {
  const __m512i top = _mm512_and_si512(u, _mm512_set1_epi16(static_cast<short>(0xFC00)));
  const std::uint64_t high = _mm512_cmpeq_epi16_mask(top, _mm512_set1_epi16(static_cast<short>(0xD800)));
  const std::uint64_t low = _mm512_cmpeq_epi16_mask(top, _mm512_set1_epi16(static_cast<short>(0xDC00)));
  const auto pairs = static_cast<std::size_t>(_mm_popcnt_u64(((high << 1) | carry) & low));
  carry = high >> 31;
  return pairs;
}

/// The lanes of the `k` (at most 32) UTF-16 units at q that end a pair, the unit before them (q[-1])
/// read: a low surrogate whose unit before is a high one. One compare a block: the key (unit & FC00)
/// | (unit before >> 10) is DC36 exactly there (a high surrogate shifted is 36, a low one 37).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __mmask32 pair_ends(const char16_t* q, std::size_t k) noexcept {
  const auto live = static_cast<__mmask32>(low_bits(k));
  const __m512i cur = k == 32 ? _mm512_loadu_si512(q) : _mm512_maskz_loadu_epi16(live, q);
  const __m512i before = k == 32 ? _mm512_loadu_si512(q - 1) : _mm512_maskz_loadu_epi16(live, q - 1);
  // (cur & FC00) | (before >> 10): ternary logic 0xEC is A & C | B.
  const __m512i key = _mm512_ternarylogic_epi32(cur, _mm512_srli_epi16(before, 10),
                                                _mm512_set1_epi16(static_cast<short>(0xFC00)), 0xEC);
  return _mm512_cmpeq_epi16_mask(key, _mm512_set1_epi16(static_cast<short>(0xDC36)));
}

/// count_utf16: the units less the pairs (a high surrogate right before a low one). From a 64-byte
/// boundary: 128 units without a surrogate at a time, tried again after four blocks of 32 without a
/// pair, the others 32 at a time (each block reads the unit before it as well; its pairs counted by
/// a popcount of the compare's mask, which also says whether it had one: the mask added into 16-bit
/// lanes, summed at the end, cost 1 KiB of text 1.2x the time).
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t count_utf16(const char16_t* p, std::size_t n) noexcept {
  if (n <= 64) {  // short input: one or two masked vectors, the pairs by one mask shift
    const surrogate_masks m = surrogates64(p, n);
    return n - static_cast<std::size_t>(_mm_popcnt_u64((m.high << 1) & m.low));
  }
  const __m512i shift = _mm512_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m512i limit = _mm512_set1_epi16(0x0800);
  std::size_t i = units_to_line(p) < n ? units_to_line(p) : n;
  std::uint64_t carry = 0;
  // The pairs inside the head (shorter than 32 units; a pair across its end is the next block's).
  std::size_t pairs = pairs_ending(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(low_bits(i)), p), carry);
  if (i == 0 && n >= 32) {  // a first block with no unit before it
    pairs += pairs_ending(_mm512_load_si512(p), carry);
    i = 32;
  }
  while (n - i >= 32) {
    if (n - i >= 128 && plain128(p + i, shift, limit)) {
      i += 128;
      continue;
    }
    // Blocks of 32 until four in a row end no pair (then 128 without a surrogate are tried again).
    const char16_t* q = p + i;
    const char16_t* const last = p + n - 32;
    unsigned quiet = 0;  // blocks in a row without a pair
    do {
      const std::uint32_t ends = pair_ends(q, 32);
      pairs += static_cast<std::size_t>(_mm_popcnt_u32(ends));
      quiet = ends == 0 ? quiet + 1 : 0;
      q += 32;
    } while (quiet < 4 && q <= last);
    i = static_cast<std::size_t>(q - p);
  }
  if (i < n)
    pairs += i == 0 ? pairs_ending(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(low_bits(n)), p), carry)
                    : static_cast<std::size_t>(_mm_popcnt_u32(pair_ends(p + i, n - i)));
  return n - pairs;
}

/// The largest of the values and of the values plus FFFF2000 (which takes D800..DFFF, and them
/// only, to FFFFF800..FFFFFFFF) of blocks of UTF-32.
struct utf32_maxima {
  __m512i value, shifted;
};

UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void take_utf32(utf32_maxima& m, __m512i v) noexcept {
  m.value = _mm512_max_epu32(m.value, v);
  m.shifted = _mm512_max_epu32(m.shifted, _mm512_add_epi32(v, _mm512_set1_epi32(static_cast<int>(0xFFFF2000u))));
}

/// True when the values taken into `m` hold no surrogate and none above 10FFFF.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool utf32_fine(const utf32_maxima& m) noexcept {
  return (_mm512_cmpgt_epu32_mask(m.value, _mm512_set1_epi32(0x10FFFF)) |
          _mm512_cmpgt_epu32_mask(m.shifted, _mm512_set1_epi32(static_cast<int>(0xFFFFF7FFu)))) == 0;
}

/// True when the `live` lanes of the 16-value vector at q (the others not read) hold no surrogate
/// and no value above 10FFFF.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool utf32_vector_fine(const char32_t* q, __mmask16 live) noexcept {
  utf32_maxima a{_mm512_setzero_si512(), _mm512_setzero_si512()};
  take_utf32(a, _mm512_maskz_loadu_epi32(live, q));
  return utf32_fine(a);
}

/// A quicker filter for long input: the 16-bit halves of the values, 2000 added to the low ones
/// (D800..DFFF, and only they, become F800..FFFF), the largest of each kept. One add and one max a
/// vector instead of the two maxima's three operations. Exact for values above 10FFFF; a surrogate
/// is flagged with every value whose low half is one (U+1D800, ...), which the exact check clears.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i take_halves(__m512i m, __m512i v) noexcept {
  return _mm512_max_epu16(m, _mm512_add_epi16(v, _mm512_set1_epi32(0x2000)));
}

/// validate_utf32's answer from value i on (the values before it valid), by the scalar code.
UTF8DFA_NOINLINE inline packed_validation validate_utf32_from(const char32_t* p, std::size_t n,
                                                              std::size_t i) noexcept {
  const packed_validation r = validate_utf(p + i, n - i);
  return {i + r.valid_up_to, r.error_length, r.error};
}

/// validate_utf32 of more than 64 values: blocks of up to 4096 values (64-byte aligned above 1024),
/// four vectors a step, through the halves' filter (the last block with the masked rest). A block
/// the filter flags is checked exactly a vector at a time: the scalar code reports the error from
/// the first failing vector, or the blocks go on.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_utf32_long(const char32_t* p,
                                                                                    std::size_t n) noexcept {
  std::size_t i = 0;
  if (n > 1024) {  // the values before the first 64-byte boundary
    const std::size_t head = units_to_line(p);
    if (!utf32_vector_fine(p, static_cast<__mmask16>(low_bits(head)))) goto scalar;
    i = head;
  }
  {
    // Each 32-bit lane's high half at most 10, its low half (plus 2000) at most F7FF.
    const __m512i limit = _mm512_set1_epi32(0x0010F7FF);
    for (;;) {
      const std::size_t left = n - i, step = left < 4096 + 64 ? left / 64 * 64 : 4096;
      __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
      for (const char32_t *q = p + i, *const end = q + step; q != end; q += 64) {
        a = take_halves(a, _mm512_loadu_si512(q));
        b = take_halves(b, _mm512_loadu_si512(q + 16));
        c = take_halves(c, _mm512_loadu_si512(q + 32));
        d = take_halves(d, _mm512_loadu_si512(q + 48));
      }
      const std::size_t r = left - step < 64 ? left - step : 0;  // the masked rest (last block)
      if (r != 0) {
        const char32_t* q = p + i + step;
        a = take_halves(a, _mm512_maskz_loadu_epi32(mask16(r), q));
        if (r > 16) {
          b = take_halves(b, _mm512_maskz_loadu_epi32(mask16(r - 16), q + 16));
          if (r > 32) c = take_halves(c, _mm512_maskz_loadu_epi32(mask16(r - 32), q + 32));
          if (r > 48) d = take_halves(d, _mm512_maskz_loadu_epi32(mask16(r - 48), q + 48));
        }
      }
      const __m512i m = _mm512_max_epu16(_mm512_max_epu16(a, b), _mm512_max_epu16(c, d));
      const std::size_t end = i + step + r;
      if (UTF8DFA_UNLIKELY(_mm512_cmpgt_epu16_mask(m, limit) != 0)) {  // checked exactly
        for (; i < end; i += 16)
          if (!utf32_vector_fine(p + i, mask16(end - i < 16 ? end - i : 16))) goto scalar;
      }
      if (end == n) return {n, 0, error_code::none};
      i = end;
    }
  }
scalar:
  UTF8DFA_LEAVE_AVX();
  return validate_utf32_from(p, n, i);
}

/// The kernel entry: up to 64 values in masked vectors, exactly, in a function that calls nothing
/// on valid input (so it saves no registers); longer input by a tail call to validate_utf32_long.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE inline packed_validation validate_utf32(const char32_t* p,
                                                                                 std::size_t n) noexcept {
  if (n > 64) return validate_utf32_long(p, n);
  utf32_maxima a{_mm512_setzero_si512(), _mm512_setzero_si512()};
  take_utf32(a, _mm512_maskz_loadu_epi32(mask16(n), p));
  if (n > 16) {
    take_utf32(a, _mm512_maskz_loadu_epi32(mask16(n - 16), p + 16));
    if (n > 32) {
      take_utf32(a, _mm512_maskz_loadu_epi32(mask16(n - 32), p + 32));
      if (n > 48) take_utf32(a, _mm512_maskz_loadu_epi32(mask16(n - 48), p + 48));
    }
  }
  if (UTF8DFA_LIKELY(utf32_fine(a))) return {n, 0, error_code::none};
  UTF8DFA_LEAVE_AVX();
  return validate_utf32_from(p, n, 0);
}

/// Writes the 64 values at p (64-byte aligned) as bytes at o when they are all at most FF (with
/// `low_bytes`, the index of the low byte of each value in two vectors); false (nothing written)
/// when one is not.
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool narrow64(const In* p, unsigned char* o, __m512i low_bytes) noexcept {
  const __m512i* v = reinterpret_cast<const __m512i*>(p);
  __m512i bytes;
  if constexpr (sizeof(In) == 2) {
    const __m512i a = _mm512_load_si512(v), b = _mm512_load_si512(v + 1);
    if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), _mm512_set1_epi16(static_cast<short>(0xFF00))) != 0) return false;
    bytes = _mm512_permutex2var_epi8(a, low_bytes, b);
  } else {
    const __m512i a = _mm512_load_si512(v), b = _mm512_load_si512(v + 1);
    const __m512i c = _mm512_load_si512(v + 2), d = _mm512_load_si512(v + 3);
    if (_mm512_test_epi32_mask(_mm512_or_si512(_mm512_or_si512(a, b), _mm512_or_si512(c, d)),
                               _mm512_set1_epi32(static_cast<int>(0xFFFFFF00u))) != 0)
      return false;
    const __m512i ab = _mm512_permutex2var_epi8(a, low_bytes, b), cd = _mm512_permutex2var_epi8(c, low_bytes, d);
    bytes = _mm512_inserti64x4(ab, _mm512_castsi512_si256(cd), 1);
  }
  _mm512_storeu_si512(o, bytes);
  return true;
}

/// Writes the n (at most 64) values at p as bytes at out when they are all at most FF (with
/// `low_bytes` as for narrow64): straight-line loads, from 33 UTF-16 units or 17 UTF-32 values on
/// whole ones (the last ending at n) and whole stores, below masked ones; false (nothing written)
/// when one is not (against simdutf icelake at 256 B: UTF-16 1.25x -> 1.40x, UTF-32 1.45x ->
/// 1.58x; at 64 B UTF-16 1.27x -> 1.35x, UTF-32 unchanged).
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool narrow_short(const In* p, std::size_t n, unsigned char* out,
                                                              __m512i low_bytes) noexcept {
  if constexpr (sizeof(In) == 2) {
    const __m512i over = _mm512_set1_epi16(static_cast<short>(0xFF00));
    if (n <= 32) {
      const __m512i u = _mm512_maskz_loadu_epi16(mask32(n), p);
      if (_mm512_test_epi16_mask(u, over) != 0) return false;
      _mm256_mask_storeu_epi8(out, mask32(n), _mm512_cvtepi16_epi8(u));
      return true;
    }
    // The first 32 units and the last 32, each stored whole (the second over the first).
    const __m512i a = _mm512_loadu_si512(p), b = _mm512_loadu_si512(p + n - 32);
    if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), over) != 0) return false;
    const __m512i ab = _mm512_permutex2var_epi8(a, low_bytes, b);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_castsi512_si256(ab));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n - 32), _mm512_extracti64x4_epi64(ab, 1));
    return true;
  } else {
    const __m512i over = _mm512_set1_epi32(static_cast<int>(0xFFFFFF00u));
    if (n <= 16) {
      const __m512i v = _mm512_maskz_loadu_epi32(mask16(n), p);
      if (_mm512_test_epi32_mask(v, over) != 0) return false;
      _mm_mask_storeu_epi8(out, mask16(n), _mm512_cvtepi32_epi8(v));
      return true;
    }
    // Whole pieces of 16 values: the first ones and the last one (stored over the one before).
    const __m512i a = _mm512_loadu_si512(p);
    if (n <= 32) {
      const __m512i b = _mm512_loadu_si512(p + n - 16);
      if (_mm512_test_epi32_mask(_mm512_or_si512(a, b), over) != 0) return false;
      const __m512i ab = _mm512_permutex2var_epi8(a, low_bytes, b);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm512_castsi512_si128(ab));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - 16), _mm512_extracti32x4_epi32(ab, 1));
      return true;
    }
    const __m512i b = _mm512_loadu_si512(p + 16), c = _mm512_loadu_si512(p + n - 32);
    const __m512i d = _mm512_loadu_si512(p + n - 16);
    if (_mm512_test_epi32_mask(_mm512_ternarylogic_epi32(_mm512_or_si512(a, b), c, d, 0xFE), over) != 0) return false;
    const __m512i ab = _mm512_permutex2var_epi8(a, low_bytes, b), cd = _mm512_permutex2var_epi8(c, low_bytes, d);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_castsi512_si256(ab));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n - 32), _mm512_castsi512_si256(cd));
    return true;
  }
}

/// narrow64 on 64 values at any alignment.
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool narrow64u(const In* p, unsigned char* o, __m512i low_bytes) noexcept {
  __m512i bytes;
  if constexpr (sizeof(In) == 2) {
    const __m512i a = _mm512_loadu_si512(p), b = _mm512_loadu_si512(p + 32);
    if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), _mm512_set1_epi16(static_cast<short>(0xFF00))) != 0) return false;
    bytes = _mm512_permutex2var_epi8(a, low_bytes, b);
  } else {
    const __m512i a = _mm512_loadu_si512(p), b = _mm512_loadu_si512(p + 16);
    const __m512i c = _mm512_loadu_si512(p + 32), d = _mm512_loadu_si512(p + 48);
    if (_mm512_test_epi32_mask(_mm512_ternarylogic_epi32(_mm512_or_si512(a, b), c, d, 0xFE),
                               _mm512_set1_epi32(static_cast<int>(0xFFFFFF00u))) != 0)
      return false;
    const __m512i ab = _mm512_permutex2var_epi8(a, low_bytes, b), cd = _mm512_permutex2var_epi8(c, low_bytes, d);
    bytes = _mm512_inserti64x4(ab, _mm512_castsi512_si256(cd), 1);
  }
  _mm512_storeu_si512(o, bytes);
  return true;
}

/// UTF-16 (In char16_t, 32 units a vector) or UTF-32 (16) to Latin-1 under Policy: blocks of
/// values up to FF narrowed in vectors, the others scalar.
template <class Policy, class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion units_to_latin1_by(const In* p, std::size_t n,
                                                                            unsigned char* out, unsigned char repl,
                                                                            std::size_t start) noexcept {
  constexpr std::size_t lanes = 64 / sizeof(In);
  // The low byte of each 16-bit (32-bit) lane of two vectors: bytes 2j (4j; the first 32 only used).
  const __m512i twice = _mm512_add_epi8(byte_iota(), byte_iota());
  const __m512i low_bytes = sizeof(In) == 2 ? twice : _mm512_add_epi8(twice, twice);
  latin1_progress s;
  // s.read, and s.read - s.written (which the vector blocks leave as it is), in registers.
  std::size_t i = start, lag = 0;
  while (i < n) {
    // From a 64-byte boundary, blocks of 64 while they fit (a tight loop); then, or before the
    // boundary, a masked block up to it.
    std::size_t head = units_to_line(p + i);
    if (head == 0) {
      while (n - i >= 64 && narrow64(p + i, out + (i - lag), low_bytes)) i += 64;
      if (i == n) break;
      head = units_to_line(p + i);
    }
    std::size_t k = n - i < lanes ? n - i : lanes;  // to the next 64-byte boundary at most
    if (head != 0 && head < k) k = head;
    const std::uint64_t live = low_bits(k);
    bool fits = false;
    if constexpr (sizeof(In) == 2) {
      const __m512i u = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(live), p + i);
      fits = _mm512_test_epi16_mask(u, _mm512_set1_epi16(static_cast<short>(0xFF00))) == 0;
      if (fits) _mm512_mask_cvtepi16_storeu_epi8(out + (i - lag), static_cast<__mmask32>(live), u);
    } else {
      const __m512i v = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(live), p + i);
      fits = _mm512_test_epi32_mask(v, _mm512_set1_epi32(static_cast<int>(0xFFFFFF00u))) == 0;
      if (fits) _mm512_mask_cvtepi32_storeu_epi8(out + (i - lag), static_cast<__mmask16>(live), v);
    }
    if (UTF8DFA_LIKELY(fits)) {
      i += k;
      continue;
    }
    s.read = i;
    s.written = i - lag;
    UTF8DFA_LEAVE_AVX();
    if (!to_latin1_until<Policy>(p, n, i + k, out, s, repl)) return latin1_result(s, n, true);
    i = s.read;
    lag = i - s.written;
  }
  s.written = i - lag;
  return latin1_result(s, n, false);
}

/// units_to_latin1 of more than 64 units, or of up to 64 that do not all narrow: up to 1024
/// units, blocks of 64 from the start (unaligned) while their values are all up to FF, then the rest
/// in straight-line masked vectors (the same result under every policy); a block with a larger
/// value, and longer input, go to units_to_latin1_by from that block (which aligns its blocks).
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion units_to_latin1_rest(const In* p, std::size_t n,
                                                                              unsigned char* out,
                                                                              char32_t replacement) noexcept {
  std::size_t i = 0;
  if (n - 65 < 1024 - 64) {  // 65 to 1024
    const __m512i twice = _mm512_add_epi8(byte_iota(), byte_iota());
    const __m512i low_bytes = sizeof(In) == 2 ? twice : _mm512_add_epi8(twice, twice);
    while (n - i > 64 && narrow64u(p + i, out + i, low_bytes)) i += 64;
    if (n - i <= 64 && narrow_short(p + i, n - i, out + i, low_bytes)) return {n, n, error_code::none};
  }
  if (replacement == strict_marker) return units_to_latin1_by<strict>(p, n, out, 0, i);
  if (replacement == skip_marker) return units_to_latin1_by<skip>(p, n, out, 0, i);
  return units_to_latin1_by<replace>(p, n, out, static_cast<unsigned char>(replacement), i);
}

/// The kernel entry: up to 64 units narrowed here in straight-line masked vectors when they all are
/// at most FF, in a function that calls nothing then (so it saves no registers); anything else by a
/// tail call to units_to_latin1_rest.
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE packed_conversion units_to_latin1(const In* p, std::size_t n,
                                                                           unsigned char* out,
                                                                           char32_t replacement) noexcept {
  if (n <= 64) {
    if (n == 0) return {0, 0, error_code::none};  // (a masked store of nothing: see utf16_to_utf32)
    const __m512i twice = _mm512_add_epi8(byte_iota(), byte_iota());
    const __m512i low_bytes = sizeof(In) == 2 ? twice : _mm512_add_epi8(twice, twice);
    if (narrow_short(p, n, out, low_bytes)) return {n, n, error_code::none};
  }
  return units_to_latin1_rest(p, n, out, replacement);
}

/// Widens the k (at most 32 or 16) Latin-1 bytes at p into UTF-16 (Out char16_t) or UTF-32 at o.
template <class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void widen_masked(const unsigned char* p, std::size_t k, Out* o) noexcept {
  const std::uint64_t live = low_bits(k);
  const __m512i x = _mm512_maskz_loadu_epi8(static_cast<__mmask64>(live), p);
  if constexpr (sizeof(Out) == 2)
    _mm512_mask_storeu_epi16(o, static_cast<__mmask32>(live), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(x)));
  else
    _mm512_mask_storeu_epi32(o, static_cast<__mmask16>(live), _mm512_cvtepu8_epi32(_mm512_castsi512_si128(x)));
}

/// Widens the r (at most 64) Latin-1 bytes at p into UTF-16 (Out char16_t) or UTF-32 at o: from 32
/// bytes (UTF-16) or 8 (UTF-32) on by whole vectors, the last one ending at r over the one before;
/// below, one masked load and masked stores (against simdutf icelake at 64 B of the corpora's
/// Latin-1, UTF-32 1.09x -> 1.30x, UTF-16 1.04x -> 1.09x; whole 16-byte halves for 16-31 bytes of
/// UTF-16 were slower than one masked store).
template <class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void widen_short(const unsigned char* p, std::size_t r, Out* o) noexcept {
  if constexpr (sizeof(Out) == 2) {
    if (r >= 32) {
      _mm512_storeu_si512(o, _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
      _mm512_storeu_si512(o + r - 32,
                          _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + r - 32))));
      return;
    }
  } else {
    if (r >= 16) {
      for (std::size_t k = 0; k + 16 < r; k += 16)
        _mm512_storeu_si512(o + k, _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k))));
      _mm512_storeu_si512(o + r - 16,
                          _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + r - 16))));
      return;
    }
    if (r >= 8) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o),
                          _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + r - 8),
                          _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + r - 8))));
      return;
    }
  }
  const __m512i x = _mm512_maskz_loadu_epi8(mask64(r), p);
  if constexpr (sizeof(Out) == 2) {
    _mm512_mask_storeu_epi16(o, mask32(r), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(x)));
    if (r > 32) _mm512_mask_storeu_epi16(o + 32, mask32(r - 32), _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(x, 1)));
  } else {
    _mm512_mask_storeu_epi32(o, mask16(r), _mm512_cvtepu8_epi32(_mm512_castsi512_si128(x)));
    if (r > 16) {
      _mm512_mask_storeu_epi32(o + 16, mask16(r - 16), _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(x, 1)));
      if (r > 32) {
        _mm512_mask_storeu_epi32(o + 32, mask16(r - 32), _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(x, 2)));
        if (r > 48)
          _mm512_mask_storeu_epi32(o + 48, mask16(r - 48), _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(x, 3)));
      }
    }
  }
}

/// Latin-1 to UTF-16 (Out char16_t) or UTF-32: 32 or 16 bytes widened a vector at a time, stored
/// from a 64-byte boundary of the output on (the head and the tail masked); up to 256 bytes, from
/// the start with unaligned stores and the rest masked (UTF-32 against simdutf icelake at 256 B of
/// the corpora's Latin-1: 0.94x [0.74] -> 1.04x [1.00], by that alone).
template <class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE std::size_t latin1_widen(const unsigned char* p,
                                                                                   std::size_t n, Out* out) noexcept {
  constexpr std::size_t lanes = 64 / sizeof(Out);
  if (n <= 64) {           // short input: one masked load, masked stores
    if (n == 0) return 0;  // (a masked store of nothing can cost a fault assist: see utf16_to_utf32)
    widen_short(p, n, out);
    return n;
  }
  if (n <= 256) {  // 64 bytes a step from the start (unaligned stores), the rest masked
    std::size_t i = 0;
    for (; n - i > 64; i += 64) {
      if constexpr (sizeof(Out) == 2) {
        _mm512_storeu_si512(out + i, _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i))));
        _mm512_storeu_si512(out + i + 32,
                            _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32))));
      } else {
        for (std::size_t k = 0; k < 64; k += 16)
          _mm512_storeu_si512(out + i + k,
                              _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + k))));
      }
    }
    widen_short(p + i, n - i, out + i);
    return n;
  }
  std::size_t i = units_to_line(out) < n ? units_to_line(out) : n;
  if (i != 0) widen_masked(p, i, out);          // (as change_endianness: no masked store of nothing)
  for (; n - i >= 2 * lanes; i += 2 * lanes) {  // two vectors a step
    if constexpr (sizeof(Out) == 2) {
      _mm512_store_si512(out + i, _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i))));
      _mm512_store_si512(out + i + lanes,
                         _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + lanes))));
    } else {
      _mm512_store_si512(out + i, _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))));
      _mm512_store_si512(out + i + lanes,
                         _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + lanes))));
    }
  }
  for (; i < n; i += lanes) widen_masked(p + i, n - i < lanes ? n - i : lanes, out + i);
  return n;
}

/// Bytes of the UTF-8 of Latin-1: n plus the bytes 80..FF, counted in byte lanes (up to 255
/// blocks of 64 between two sums), the rest with a masked load.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t utf8_length_from_latin1(const unsigned char* p,
                                                                                  std::size_t n) noexcept {
  const __m512i one = _mm512_set1_epi8(1);
  std::size_t total = n;
  std::size_t i = units_to_line(p) < n ? units_to_line(p) : n;  // to a 64-byte boundary first
  total += static_cast<std::size_t>(
      _mm_popcnt_u64(_mm512_movepi8_mask(_mm512_maskz_loadu_epi8(static_cast<__mmask64>(low_bits(i)), p))));
  while (n - i >= 64) {
    const std::size_t blocks = (n - i) / 64 < 255 ? (n - i) / 64 : 255;
    __m512i counts = _mm512_setzero_si512();
    for (std::size_t b = 0; b < blocks; ++b, i += 64)
      counts = _mm512_add_epi8(counts, _mm512_and_si512(_mm512_srli_epi16(_mm512_load_si512(p + i), 7), one));
    const __m512i sums = _mm512_sad_epu8(counts, _mm512_setzero_si512());
    total += static_cast<std::size_t>(_mm512_reduce_add_epi64(sums));
  }
  const __m512i x = _mm512_maskz_loadu_epi8(static_cast<__mmask64>(low_bits(n - i)), p + i);
  return total + static_cast<std::size_t>(_mm_popcnt_u64(_mm512_movepi8_mask(x)));
}

/// The byte shuffle that reverses each unit of `Unit`'s size.
template <class Unit>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i unit_byte_reversal() noexcept {
  if constexpr (sizeof(Unit) == 2)
    return _mm512_broadcast_i32x4(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  else
    return _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
}

/// change_endianness_utf16 / _utf32 (by Unit): one byte shuffle a vector, stored from a 64-byte
/// boundary of the output on (the head and the tail masked in place; in a copy, whole vectors over
/// the units next to them: at 64 B against simdutf icelake 1.13x -> 1.26x); `out` may be `p`.
template <class Unit>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE std::size_t change_endianness(const Unit* p, std::size_t n,
                                                                                        Unit* out) noexcept {
  constexpr std::size_t lanes = 64 / sizeof(Unit);
  if (n == 0) return 0;  // (a masked store of nothing can cost a fault assist: see utf16_to_utf32)
  const __m512i order = unit_byte_reversal<Unit>();
  const auto masked = [&](std::size_t i, std::size_t k) UTF8DFA_TARGET_AVX512 {  // k units at i
    const auto live = static_cast<__mmask64>(low_bits(k * sizeof(Unit)));
    _mm512_mask_storeu_epi8(out + i, live, _mm512_shuffle_epi8(_mm512_maskz_loadu_epi8(live, p + i), order));
  };
  if (n * sizeof(Unit) <= 512) {  // short input: whole vectors from the start (unaligned), the rest masked
    const auto* in = reinterpret_cast<const unsigned char*>(p);
    auto* o = reinterpret_cast<unsigned char*>(out);
    const std::size_t bytes = n * sizeof(Unit);
    std::size_t j = 0;
    for (; bytes - j >= 128; j += 128) {  // (each vector read before it is stored: out may be p)
      const __m512i a = _mm512_loadu_si512(in + j), b = _mm512_loadu_si512(in + j + 64);
      _mm512_storeu_si512(o + j, _mm512_shuffle_epi8(a, order));
      _mm512_storeu_si512(o + j + 64, _mm512_shuffle_epi8(b, order));
    }
    if (bytes - j >= 64) {
      _mm512_storeu_si512(o + j, _mm512_shuffle_epi8(_mm512_loadu_si512(in + j), order));
      j += 64;
    }
    // The last bytes (under 64) masked, and only they: in place, a load of bytes that a masked store
    // wrote waits until that store completes (a whole 128 bytes of input stored as one whole vector and
    // one masked: 64 B in place 0.90x [0.53] -> 1.01x [1.00] simdutf icelake).
    const std::size_t r = bytes - j;
    if (r != 0 && out != p && j != 0) {  // a copy: the whole vector that ends at the end
      _mm512_storeu_si512(o + bytes - 64, _mm512_shuffle_epi8(_mm512_loadu_si512(in + bytes - 64), order));
      return n;
    }
    if (r != 0)
      _mm512_mask_storeu_epi8(o + j, mask64(r), _mm512_shuffle_epi8(_mm512_maskz_loadu_epi8(mask64(r), in + j), order));
    return n;
  }
  std::size_t i = units_to_line(out) < n ? units_to_line(out) : n;  // stores from a 64-byte boundary
  // (Not when there is no head: in place, the next load waited for a masked store of nothing to
  // the same line to complete; at 1 KiB 0.76x simdutf icelake's speed.) A copy's head and tail:
  // whole vectors over the units next to them.
  const bool copy = out != p;
  if (i != 0) {
    if (copy)
      _mm512_storeu_si512(out, _mm512_shuffle_epi8(_mm512_loadu_si512(p), order));
    else
      masked(0, i);
  }
  for (; n - i >= 2 * lanes; i += 2 * lanes) {
    const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + lanes);
    _mm512_store_si512(out + i, _mm512_shuffle_epi8(a, order));
    _mm512_store_si512(out + i + lanes, _mm512_shuffle_epi8(b, order));
  }
  if (n - i >= lanes) {
    _mm512_store_si512(out + i, _mm512_shuffle_epi8(_mm512_loadu_si512(p + i), order));
    i += lanes;
  }
  if (i < n) {
    if (copy)
      _mm512_storeu_si512(out + n - lanes, _mm512_shuffle_epi8(_mm512_loadu_si512(p + n - lanes), order));
    else
      masked(i, n - i);
  }
  return n;
}

/// validate_utf16 on units with their bytes exchanged (the surrogate tests by surrogate_key, no byte
/// shuffle; the pair checks of blocks that hold a surrogate exchange the bytes as loaded).
/// validate_utf16_swapped of more than 1024 units.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_utf16_swapped_long(const char16_t* p,
                                                                                            std::size_t n) noexcept {
  return validate_utf16_blocks<true, &validate_utf16_swapped_scalar>(p, n, 0);
}

/// The kernel entry, as validate_utf16's.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_utf16_swapped(const char16_t* p,
                                                                                       std::size_t n) noexcept {
  if (n <= 64) {  // short input: one or two masked vectors
    if (UTF8DFA_LIKELY(no_surrogate64<true>(p, n) || paired64(surrogates64<true>(p, n))))
      return {n, 0, error_code::none};
  } else if (n <= 1024) {  // vectors from the start, one test
    if (UTF8DFA_LIKELY(utf16_pairs_up<true>(p, n))) return {n, 0, error_code::none};
  } else {
    return validate_utf16_swapped_long(p, n);
  }
  UTF8DFA_LEAVE_AVX();
  return validate_utf16_again<&validate_utf16_swapped_scalar>(p, n);
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
