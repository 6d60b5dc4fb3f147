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

/// The (at most 32) units at p masked by `live`, each with its top six bits only.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i surrogate_tags(const char16_t* p, __mmask32 live) noexcept {
  return _mm512_and_si512(_mm512_maskz_loadu_epi16(live, p), _mm512_set1_epi16(static_cast<short>(0xFC00)));
}

/// count_utf16: the units less the pairs (a high surrogate right before a low one); 128 units
/// without a surrogate at a time, else blocks of 32 with the high surrogate that ends one carried.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t count_utf16(const char16_t* p, std::size_t n) noexcept {
  const __m512i shift = _mm512_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m512i limit = _mm512_set1_epi16(0x0800);
  const __m512i d800 = _mm512_set1_epi16(static_cast<short>(0xD800));
  const __m512i dc00 = _mm512_set1_epi16(static_cast<short>(0xDC00));
  std::size_t pairs = 0;
  std::uint64_t carry = 0;  // 1 when the block before ended with a high surrogate
  for (std::size_t i = 0; i < n;) {
    if (n - i >= 128 && plain128(p + i, shift, limit)) {
      i += 128;
      carry = 0;
      continue;
    }
    const std::size_t k = n - i < 32 ? n - i : 32;
    const __m512i u = surrogate_tags(p + i, static_cast<__mmask32>(low_bits(k)));
    const std::uint64_t high = _mm512_cmpeq_epi16_mask(u, d800);
    const std::uint64_t low = _mm512_cmpeq_epi16_mask(u, dc00);
    pairs += static_cast<std::size_t>(_mm_popcnt_u64(((high << 1) | carry) & low));
    carry = high >> 31;
    i += k;
  }
  return n - pairs;
}

/// validate_utf32: 64 values at a time (the scalar code finds the error in a block that has one),
/// the tail in masked blocks of 16 (zeros are valid).
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline validation_result validate_utf32(const char32_t* p,
                                                                               std::size_t n) noexcept {
  const __m512i d800 = _mm512_set1_epi32(0xD800);
  const __m512i gap = _mm512_set1_epi32(0x800);
  const __m512i top = _mm512_set1_epi32(0x10FFFF);
  std::size_t i = 0;
  for (; n - i >= 64; i += 64) {
    const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + 16);
    const __m512i c = _mm512_loadu_si512(p + i + 32), d = _mm512_loadu_si512(p + i + 48);
    const __m512i big = _mm512_max_epu32(_mm512_max_epu32(a, b), _mm512_max_epu32(c, d));
    const __m512i sur = _mm512_min_epu32(_mm512_min_epu32(_mm512_sub_epi32(a, d800), _mm512_sub_epi32(b, d800)),
                                         _mm512_min_epu32(_mm512_sub_epi32(c, d800), _mm512_sub_epi32(d, d800)));
    if (UTF8DFA_UNLIKELY((_mm512_cmpgt_epu32_mask(big, top) | _mm512_cmplt_epu32_mask(sur, gap)) != 0)) break;
  }
  for (; i < n; i += 16) {
    const std::size_t k = n - i < 16 ? n - i : 16;
    const __m512i v = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(low_bits(k)), p + i);
    if (UTF8DFA_UNLIKELY((_mm512_cmpgt_epu32_mask(v, top) | _mm512_cmplt_epu32_mask(_mm512_sub_epi32(v, d800), gap)) !=
                         0))
      break;
  }
  if (i >= n) return {n, 0, error_code::none};
  const validation_result r = validate_utf(p + i, n - i);
  return {i + r.valid_up_to, r.error_length, r.error};
}

/// UTF-16 (In char16_t, 32 units a vector) or UTF-32 (16) to Latin-1 under Policy: blocks of
/// values up to FF narrowed in vectors, the others scalar.
template <class Policy, class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE conversion_result units_to_latin1_by(const In* p, std::size_t n,
                                                                            unsigned char* out,
                                                                            unsigned char repl) noexcept {
  constexpr std::size_t lanes = 64 / sizeof(In);
  latin1_progress s;
  std::size_t i = 0, w = 0;  // s.read and s.written, in registers
  while (i < n) {
    const std::size_t k = n - i < lanes ? n - i : lanes;
    const std::uint64_t live = low_bits(k);
    bool fits = false;
    if constexpr (sizeof(In) == 2) {
      const __m512i u = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(live), p + i);
      fits = _mm512_test_epi16_mask(u, _mm512_set1_epi16(static_cast<short>(0xFF00))) == 0;
      if (fits) _mm512_mask_cvtepi16_storeu_epi8(out + w, static_cast<__mmask32>(live), u);
    } else {
      const __m512i v = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(live), p + i);
      fits = _mm512_test_epi32_mask(v, _mm512_set1_epi32(static_cast<int>(0xFFFFFF00u))) == 0;
      if (fits) _mm512_mask_cvtepi32_storeu_epi8(out + w, static_cast<__mmask16>(live), v);
    }
    if (UTF8DFA_LIKELY(fits)) {
      i += k;
      w += k;
      continue;
    }
    s.read = i;
    s.written = w;
    if (!to_latin1_until<Policy>(p, n, i + k, out, s, repl)) return latin1_result(s, n, true);
    i = s.read;
    w = s.written;
  }
  s.written = w;
  return latin1_result(s, n, false);
}

template <class In>
conversion_result units_to_latin1(const In* p, std::size_t n, unsigned char* out, char32_t replacement) noexcept {
  if (replacement == strict_marker) return units_to_latin1_by<strict>(p, n, out, 0);
  if (replacement == skip_marker) return units_to_latin1_by<skip>(p, n, out, 0);
  return units_to_latin1_by<replace>(p, n, out, static_cast<unsigned char>(replacement));
}

/// Latin-1 to UTF-16 (Out char16_t) or UTF-32: 32 or 16 bytes widened a vector at a time.
template <class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE std::size_t latin1_widen(const unsigned char* p, std::size_t n,
                                                                Out* out) noexcept {
  constexpr std::size_t lanes = 64 / sizeof(Out);
  std::size_t i = 0;
  for (; n - i >= 2 * lanes; i += 2 * lanes) {  // two vectors a step
    if constexpr (sizeof(Out) == 2) {
      _mm512_storeu_si512(out + i, _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i))));
      _mm512_storeu_si512(out + i + lanes,
                          _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + lanes))));
    } else {
      _mm512_storeu_si512(out + i, _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))));
      _mm512_storeu_si512(out + i + lanes,
                          _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + lanes))));
    }
  }
  for (; i < n; i += lanes) {
    const std::size_t k = n - i < lanes ? n - i : lanes;
    const std::uint64_t live = low_bits(k);
    const __m512i x = _mm512_maskz_loadu_epi8(static_cast<__mmask64>(live), p + i);
    if constexpr (sizeof(Out) == 2)
      _mm512_mask_storeu_epi16(out + i, static_cast<__mmask32>(live), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(x)));
    else
      _mm512_mask_storeu_epi32(out + i, static_cast<__mmask16>(live), _mm512_cvtepu8_epi32(_mm512_castsi512_si128(x)));
  }
  return n;
}

/// Bytes of the UTF-8 of Latin-1: n plus the bytes 80..FF, counted 64 at a time.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t utf8_length_from_latin1(const unsigned char* p,
                                                                                  std::size_t n) noexcept {
  std::size_t total = n;
  std::size_t i = 0;
  for (; n - i >= 128; i += 128)
    total += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_movepi8_mask(_mm512_loadu_si512(p + i))) +
                                      _mm_popcnt_u64(_mm512_movepi8_mask(_mm512_loadu_si512(p + i + 64))));
  for (; i < n; i += 64) {
    const std::size_t k = n - i < 64 ? n - i : 64;
    const __m512i x = _mm512_maskz_loadu_epi8(static_cast<__mmask64>(low_bits(k)), p + i);
    total += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_movepi8_mask(x)));
  }
  return total;
}

/// The byte shuffle that reverses each unit of `Unit`'s size.
template <class Unit>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i unit_byte_reversal() noexcept {
  if constexpr (sizeof(Unit) == 2)
    return _mm512_broadcast_i32x4(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  else
    return _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
}

/// change_endianness_utf16 / _utf32 (by Unit): one byte shuffle a vector; `out` may be `p`.
template <class Unit>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE std::size_t change_endianness(const Unit* p, std::size_t n, Unit* out) noexcept {
  constexpr std::size_t lanes = 64 / sizeof(Unit);
  const __m512i order = unit_byte_reversal<Unit>();
  std::size_t i = 0;
  for (; n - i >= 2 * lanes; i += 2 * lanes) {
    const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + lanes);
    _mm512_storeu_si512(out + i, _mm512_shuffle_epi8(a, order));
    _mm512_storeu_si512(out + i + lanes, _mm512_shuffle_epi8(b, order));
  }
  for (; i < n; i += lanes) {
    const std::size_t k = n - i < lanes ? n - i : lanes;
    const auto live = static_cast<__mmask64>(low_bits(k * sizeof(Unit)));
    const __m512i x = _mm512_maskz_loadu_epi8(live, p + i);
    _mm512_mask_storeu_epi8(out + i, live, _mm512_shuffle_epi8(x, order));
  }
  return n;
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
