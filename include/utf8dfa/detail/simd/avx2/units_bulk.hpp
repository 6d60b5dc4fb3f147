// utf8dfa: AVX2 kernels for count_utf16, validate_utf32, UTF-16 / UTF-32 to Latin-1, Latin-1 to
// UTF-16 / UTF-32 and its UTF-8 length, and byte-order changes. Same results as the scalar functions
// of units.hpp and units_kernels.hpp: a block that holds an error (or, into Latin-1, a character
// above U+00FF) is run through the scalar code and the vector loop resumes behind it. Tails are
// scalar; nothing is read past the input nor written past the output.
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

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

/// count_utf16: the units less the pairs (a high surrogate right before a low one); 64 units
/// without a surrogate at a time, else blocks of 16 with the high surrogate that ends one carried.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t count_utf16(const char16_t* p, std::size_t n) noexcept {
  const __m256i shift = _mm256_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m256i top = _mm256_set1_epi16(0x07FF);
  const __m256i fc00 = _mm256_set1_epi16(static_cast<short>(0xFC00));
  const __m256i d800 = _mm256_set1_epi16(static_cast<short>(0xD800));
  const __m256i dc00 = _mm256_set1_epi16(static_cast<short>(0xDC00));
  std::size_t pairs2 = 0;   // twice the pairs: two mask bits a unit
  std::uint32_t carry = 0;  // 3 when the block before ended with a high surrogate
  std::size_t i = 0;
  while (n - i >= 16) {
    if (n - i >= 64 && plain64(p + i, shift, top)) {
      i += 64;
      carry = 0;
      continue;
    }
    const __m256i u = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)), fc00);
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi16(u, d800)));
    const auto low = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi16(u, dc00)));
    pairs2 += static_cast<std::size_t>(_mm_popcnt_u32(((high << 2) | carry) & low));
    carry = high >> 30;
    i += 16;
  }
  std::size_t pairs = pairs2 / 2;
  if (carry != 0 && i < n && (p[i] & 0xFC00u) == 0xDC00u) ++pairs;  // a pair across the tail's start
  // The tail's count is its units less its pairs (its first unit, a low surrogate, starts none).
  return n - pairs - ((n - i) - count_utf16_scalar(p + i, n - i));
}

/// True when every value of `big` (the largest of a block) is at most `top` (10FFFF) and none of
/// `sur` (the least v - D800) at most `gap` (7FF).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf32_block_good(__m256i big, __m256i sur, __m256i top,
                                                                __m256i gap) noexcept {
  const __m256i in_range = _mm256_cmpeq_epi32(_mm256_max_epu32(big, top), top);
  const __m256i surrogate = _mm256_cmpeq_epi32(_mm256_min_epu32(sur, gap), sur);
  return _mm256_movemask_epi8(_mm256_andnot_si256(surrogate, in_range)) == -1;
}

/// validate_utf32: 32 values at a time, then 8 (the scalar code finds the error in a block that
/// has one, and checks the tail).
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline validation_result validate_utf32(const char32_t* p,
                                                                             std::size_t n) noexcept {
  const __m256i d800 = _mm256_set1_epi32(0xD800);
  const __m256i gap = _mm256_set1_epi32(0x7FF);
  const __m256i top = _mm256_set1_epi32(0x10FFFF);
  const auto* v = reinterpret_cast<const __m256i*>(p);
  std::size_t i = 0;
  for (; n - i >= 32; i += 32) {
    const __m256i a = _mm256_loadu_si256(v + i / 8), b = _mm256_loadu_si256(v + i / 8 + 1);
    const __m256i c = _mm256_loadu_si256(v + i / 8 + 2), d = _mm256_loadu_si256(v + i / 8 + 3);
    const __m256i big = _mm256_max_epu32(_mm256_max_epu32(a, b), _mm256_max_epu32(c, d));
    const __m256i sur = _mm256_min_epu32(_mm256_min_epu32(_mm256_sub_epi32(a, d800), _mm256_sub_epi32(b, d800)),
                                         _mm256_min_epu32(_mm256_sub_epi32(c, d800), _mm256_sub_epi32(d, d800)));
    if (UTF8DFA_UNLIKELY(!utf32_block_good(big, sur, top, gap))) break;
  }
  for (; n - i >= 8; i += 8) {
    const __m256i a = _mm256_loadu_si256(v + i / 8);
    if (UTF8DFA_UNLIKELY(!utf32_block_good(a, _mm256_sub_epi32(a, d800), top, gap))) break;
  }
  const validation_result r = validate_utf(p + i, n - i);
  return {i + r.valid_up_to, r.error_length, r.error};
}

/// UTF-16 (In char16_t) or UTF-32 to Latin-1 under Policy: blocks of 32 values up to FF narrowed
/// in vectors, the others scalar.
template <class Policy, class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE conversion_result units_to_latin1_by(const In* p, std::size_t n,
                                                                          unsigned char* out,
                                                                          unsigned char repl) noexcept {
  latin1_progress s;
  std::size_t i = 0, w = 0;  // s.read and s.written, in registers
  while (n - i >= 32) {
    const auto* v = reinterpret_cast<const __m256i*>(p + i);
    __m256i bytes;
    bool fits = false;
    if constexpr (sizeof(In) == 2) {
      const __m256i a = _mm256_loadu_si256(v), b = _mm256_loadu_si256(v + 1);
      fits = _mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16(static_cast<short>(0xFF00))) != 0;
      // packus interleaves the 128-bit lanes: a0 b0 a1 b1, put back in order.
      bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
    } else {
      const __m256i a = _mm256_loadu_si256(v), b = _mm256_loadu_si256(v + 1);
      const __m256i c = _mm256_loadu_si256(v + 2), d = _mm256_loadu_si256(v + 3);
      fits = _mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)),
                                _mm256_set1_epi32(static_cast<int>(0xFFFFFF00u))) != 0;
      // Dwords of 4 bytes: a0 b0 c0 d0 | a1 b1 c1 d1 (by 128-bit lane), put back in order.
      const __m256i mixed = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
      bytes = _mm256_permutevar8x32_epi32(mixed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    }
    if (UTF8DFA_LIKELY(fits)) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + w), bytes);
      i += 32;
      w += 32;
      continue;
    }
    s.read = i;
    s.written = w;
    if (!to_latin1_until<Policy>(p, n, i + 32, out, s, repl)) return latin1_result(s, n, true);
    i = s.read;
    w = s.written;
  }
  s.read = i;
  s.written = w;
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

template <class In>
conversion_result units_to_latin1(const In* p, std::size_t n, unsigned char* out, char32_t replacement) noexcept {
  if (replacement == strict_marker) return units_to_latin1_by<strict>(p, n, out, 0);
  if (replacement == skip_marker) return units_to_latin1_by<skip>(p, n, out, 0);
  return units_to_latin1_by<replace>(p, n, out, static_cast<unsigned char>(replacement));
}

/// Latin-1 to UTF-16 (Out char16_t) or UTF-32: 32 or 16 bytes widened a step.
template <class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE std::size_t latin1_widen(const unsigned char* p, std::size_t n,
                                                              Out* out) noexcept {
  std::size_t i = 0;
  if constexpr (sizeof(Out) == 2) {
    for (; n - i >= 32; i += 32) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 16));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_cvtepu8_epi16(a));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 16), _mm256_cvtepu8_epi16(b));
    }
  } else {
    for (; n - i >= 16; i += 16) {
      const __m128i a = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + i));
      const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + i + 8));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_cvtepu8_epi32(a));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 8), _mm256_cvtepu8_epi32(b));
    }
  }
  latin1_widen_scalar(p + i, n - i, out + i);
  return n;
}

/// Bytes of the UTF-8 of Latin-1: n plus the bytes 80..FF, counted 64 at a time.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t utf8_length_from_latin1(const unsigned char* p,
                                                                                std::size_t n) noexcept {
  std::size_t total = n;
  std::size_t i = 0;
  for (; n - i >= 64; i += 64) {
    const auto* v = reinterpret_cast<const __m256i*>(p + i);
    const auto a = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_loadu_si256(v)));
    const auto b = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_loadu_si256(v + 1)));
    total += static_cast<std::size_t>(_mm_popcnt_u64((std::uint64_t{b} << 32) | a));
  }
  return total + utf8_length_from_latin1_scalar(p + i, n - i) - (n - i);
}

/// change_endianness_utf16 / _utf32 (by Unit): one byte shuffle a vector; `out` may be `p`.
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE std::size_t change_endianness(const Unit* p, std::size_t n, Unit* out) noexcept {
  constexpr std::size_t lanes = 32 / sizeof(Unit);
  const __m128i lane_order = sizeof(Unit) == 2 ? _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)
                                               : _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  const __m256i order = _mm256_broadcastsi128_si256(lane_order);
  std::size_t i = 0;
  for (; n - i >= 2 * lanes; i += 2 * lanes) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + lanes));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_shuffle_epi8(a, order));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + lanes), _mm256_shuffle_epi8(b, order));
  }
  change_endianness_scalar(p + i, n - i, out + i);
  return n;
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
