// utf8dfa: AVX2 kernels for Latin-1 and UTF-16 / UTF-32 input. Same results as the scalar functions
// of units.hpp: a block that holds an error (or, into Latin-1, a character above U+00FF) is run
// through the scalar code up to its end and the vector loop resumes behind it. Tails are scalar;
// full-width stores go past the result only where later output of the same call overwrites them.
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_UNITS_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_UNITS_HPP

#include "../../kernel_table.hpp"
#include "../../units.hpp"
#include "../../units_kernels.hpp"
#include "../target.hpp"
#include "../transcode_common.hpp"
#include "transcode.hpp"

#if UTF8DFA_X86_KERNELS
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

// ---- Latin-1 to UTF-8 -----------------------------------------------------------------------

/// Writes the UTF-8 of 8 Latin-1 bytes, widened to words in `words` (two-byte forms where `high`
/// has a bit), with a 16-byte store: up to 8 bytes past the result are overwritten.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* spill_latin1_8(unsigned char* o, __m128i words,
                                                                        unsigned high) noexcept {
  const __m128i packed =
      _mm_shuffle_epi8(words, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_short_utf8[high])));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o), packed);
  return o + 8 + _mm_popcnt_u32(high);
}

/// The UTF-8 forms of the 8 Latin-1 bytes at q as words (a two-byte form where `high` has a bit).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i latin1_words8(const unsigned char* q, unsigned& high) noexcept {
  const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(q));
  high = static_cast<unsigned>(_mm_movemask_epi8(x)) & 0xFFu;
  const __m128i w = _mm_cvtepu8_epi16(x);
  const __m128i two =
      _mm_or_si128(_mm_or_si128(_mm_srli_epi16(w, 6), _mm_slli_epi16(_mm_and_si128(w, _mm_set1_epi16(0x3F)), 8)),
                   _mm_set1_epi16(static_cast<short>(0x80C0)));
  return _mm_blendv_epi8(w, two, _mm_cmpgt_epi16(w, _mm_set1_epi16(0x7F)));
}

UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t latin1_to_utf8(const unsigned char* p, std::size_t n,
                                                                       unsigned char* out) noexcept {
  prepare_tables();
  const __m256i low6 = _mm256_set1_epi16(0x3F);
  const __m256i tags = _mm256_set1_epi16(static_cast<short>(0x80C0));
  const __m256i ascii_max = _mm256_set1_epi16(0x7F);
  unsigned char* o = out;
  std::size_t i = 0;
  // At least 8 bytes follow each block, so at least 8 more output bytes cover the overwrite.
  for (; n - i >= 40; i += 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(x));
    if (high == 0) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), x);
      o += 32;
      continue;
    }
    for (unsigned h = 0; h < 2; ++h) {
      const __m256i w = _mm256_cvtepu8_epi16(h == 0 ? _mm256_castsi256_si128(x) : _mm256_extracti128_si256(x, 1));
      // The two-byte form as a little-endian word: lead C0 | c >> 6, then 80 | (c & 3F).
      const __m256i two = _mm256_or_si256(
          _mm256_or_si256(_mm256_srli_epi16(w, 6), _mm256_slli_epi16(_mm256_and_si256(w, low6), 8)), tags);
      const __m256i words = _mm256_blendv_epi8(w, two, _mm256_cmpgt_epi16(w, ascii_max));
      const unsigned bits = high >> (16 * h);
      o = spill_latin1_8(o, _mm256_castsi256_si128(words), bits & 0xFFu);
      o = spill_latin1_8(o, _mm256_extracti128_si256(words, 1), (bits >> 8) & 0xFFu);
    }
  }
  // The rest: 32 ASCII bytes copied, else 8 bytes at a time, spilling while 8 more follow, the last
  // 8 exactly (short input mixes the two forms more than the byte loop of the scalar code predicts).
  if (n - i >= 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    if (_mm256_movemask_epi8(x) == 0) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), x);
      o += 32;
      i += 32;
    }
  }
  for (; n - i >= 16; i += 8) {
    unsigned high = 0;
    const __m128i words = latin1_words8(p + i, high);  // (sets high first)
    o = spill_latin1_8(o, words, high);
  }
  if (n - i >= 8) {
    unsigned high = 0;
    const __m128i words = latin1_words8(p + i, high);
    const __m128i packed =
        _mm_shuffle_epi8(words, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_short_utf8[high])));
    const unsigned len = 8 + static_cast<unsigned>(_mm_popcnt_u32(high));
    store_exact(o, packed, len);
    o += len;
    i += 8;
  }
  UTF8DFA_LEAVE_AVX();
  return static_cast<std::size_t>(o - out) + latin1_to_utf8_scalar(p + i, n - i, o);
}

// ---- UTF-8 to Latin-1 -----------------------------------------------------------------------

/// Stores the first `count` (<= 8) dwords of v at o, and nothing else (in pieces, as store_bytes).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void store_dwords(char32_t* o, __m256i v, unsigned count) noexcept {
  if (count == 8) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), v);
    return;
  }
  __m128i part = _mm256_castsi256_si128(v);
  if ((count & 4u) != 0) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), part);
    o += 4;
    part = _mm256_extracti128_si256(v, 1);
  }
  if ((count & 2u) != 0) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), part);
    o += 2;
    part = _mm_srli_si128(part, 8);
  }
  if ((count & 1u) != 0) *o = static_cast<char32_t>(static_cast<std::uint32_t>(_mm_cvtsi128_si32(part)));
}

/// Writes the `count` bytes of the low 8 of v at o, ending no later than `end`.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* put_packed8(unsigned char* o, const unsigned char* end,
                                                                     __m128i v, unsigned count) noexcept {
  if (end - o >= 8)
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), v);
  else
    store_bytes(o, v, count);
  return o + count;
}

/// UTF-8 to Latin-1 under Policy: blocks of ASCII and C2/C3 pairs in vectors, the others scalar.
template <class Policy>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE packed_conversion utf8_to_latin1_by(const unsigned char* p, std::size_t n,
                                                                         unsigned char* out,
                                                                         unsigned char repl) noexcept {
  const __m256i fe = _mm256_set1_epi8(static_cast<char>(0xFE));
  const __m256i c2 = _mm256_set1_epi8(static_cast<char>(0xC2));
  const __m256i c0 = _mm256_set1_epi8(static_cast<char>(0xC0));
  const __m256i low6 = _mm256_set1_epi8(0x3F);
  latin1_progress s;
  std::size_t i = 0, w = 0;  // s.read and s.written, in registers
  // The byte after each block is read (the continuation of a pair that ends it).
  while (n - i >= 33) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(x));
    if (high == 0) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + w), x);
      i += 32;
      w += 32;
      while (n - i >= 64) {  // the ASCII run that follows, 64 bytes a test
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32));
        if (_mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0) break;
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + w), a);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + w + 32), b);
        i += 64;
        w += 64;
      }
      continue;
    }
    const __m256i leads = _mm256_cmpeq_epi8(_mm256_and_si256(x, fe), c2);
    auto lead = static_cast<std::uint32_t>(_mm256_movemask_epi8(leads));
    const auto cont = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(c0, x)));  // 80..BF
    std::uint32_t live = 0xFFFFFFFFu;
    std::size_t take = 32;
    if ((lead >> 31) != 0) {  // a pair cut by the block end: the next block takes it
      take = 31;
      lead &= 0x7FFFFFFFu;
      live = 0x7FFFFFFFu;
    }
    if (UTF8DFA_UNLIKELY((high & live & ~lead & ~cont) != 0 || (std::uint64_t{lead} << 1) != (cont & live))) {
      s.read = i;
      s.written = w;
      UTF8DFA_LEAVE_AVX();
      if (!to_latin1_until<Policy>(p, n, i + take, out, s, repl)) return latin1_result(s, n, true);
      i = s.read;
      w = s.written;
      continue;
    }
    // At each lead: (lead & 3) << 6 | (next & 3F); the continuations are dropped.
    const __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 1));
    const __m256i value = _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(x, 6), c0), _mm256_and_si256(next, low6));
    const __m256i bytes = _mm256_blendv_epi8(x, value, leads);
    const std::uint32_t keep = live & ~cont;
    unsigned char* o = out + w;
    unsigned char* const end = o + _mm_popcnt_u32(keep);
    for (unsigned h = 0; h < 2; ++h) {
      const unsigned k16 = (keep >> (16 * h)) & 0xFFFFu;
      const __m128i lane = h == 0 ? _mm256_castsi256_si128(bytes) : _mm256_extracti128_si256(bytes, 1);
      const __m128i control =
          _mm_set_epi64x(static_cast<long long>(tables.pack_dwords[k16 >> 8] + 0x0808080808080808ull),
                         static_cast<long long>(tables.pack_dwords[k16 & 0xFFu]));
      const __m128i packed = _mm_shuffle_epi8(lane, control);
      o = put_packed8(o, end, packed, static_cast<unsigned>(_mm_popcnt_u32(k16 & 0xFFu)));
      o = put_packed8(o, end, _mm_unpackhi_epi64(packed, packed), static_cast<unsigned>(_mm_popcnt_u32(k16 >> 8)));
    }
    i += take;
    w = static_cast<std::size_t>(end - out);
  }
  s.read = i;
  s.written = w;
  UTF8DFA_LEAVE_AVX();
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

inline packed_conversion utf8_to_latin1(const unsigned char* p, std::size_t n, unsigned char* out,
                                        char32_t replacement) noexcept {
  prepare_tables();
  if (replacement == strict_marker) return utf8_to_latin1_by<strict>(p, n, out, 0);
  if (replacement == skip_marker) return utf8_to_latin1_by<skip>(p, n, out, 0);
  return utf8_to_latin1_by<replace>(p, n, out, static_cast<unsigned char>(replacement));
}

// ---- UTF-16 -----------------------------------------------------------------------------------

/// A block of 16 UTF-16 units: how many of them a vector loop takes (a high surrogate at its end
/// is left to the next block), whether it has surrogates, and whether they pair up.
struct unit_block {
  std::size_t take;
  bool plain, clean;
  std::uint32_t lows;  // the low surrogates
};

/// The surrogates among the 16 units u, a bit per unit.
struct surrogate_lanes {
  std::uint32_t any, lows, highs;
};

UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE surrogate_lanes find_surrogate_lanes(__m256i u) noexcept {
  const __m256i top = _mm256_and_si256(u, _mm256_set1_epi16(static_cast<short>(0xF800)));
  const __m256i any = _mm256_cmpeq_epi16(top, _mm256_set1_epi16(static_cast<short>(0xD800)));
  const auto any_bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(any));
  if (any_bits == 0) return {0, 0, 0};
  const __m256i low = _mm256_and_si256(any, _mm256_slli_epi16(u, 5));  // bit 10 (DC00..DFFF) to the sign bit
  const std::uint32_t lows = _pext_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(low)), 0xAAAAAAAAu);
  return {any_bits, lows, _pext_u32(any_bits, 0x55555555u) & ~lows};
}

UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unit_block check_utf16(__m256i u, std::size_t i, std::size_t n) noexcept {
  const surrogate_lanes s = find_surrogate_lanes(u);
  if (s.any == 0) return {16, true, true, 0};
  const std::uint32_t lows = s.lows;
  std::uint32_t highs = s.highs;
  std::size_t take = 16;
  if (n - i > 16 && (highs >> 15) != 0) {
    take = 15;
    highs &= 0x7FFFu;
  }
  return {take, false, (highs << 1) == lows, lows};
}

/// The 16 UTF-16 units at p, with the bytes of each exchanged when Swap.
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i load_units(const char16_t* p) noexcept {
  const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  if constexpr (Swap)
    return _mm256_shuffle_epi8(
        u, _mm256_broadcastsi128_si256(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)));
  else
    return u;
}

/// True when none of the 32 units in a and b is a surrogate (`shift` 0x2800 takes D800..DFFF to at
/// most `top`, 0x07FF).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool no_surrogate(__m256i a, __m256i b, __m256i shift, __m256i top) noexcept {
  const __m256i m = _mm256_min_epu16(_mm256_add_epi16(a, shift), _mm256_add_epi16(b, shift));
  return _mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_min_epu16(m, top), m)) == 0;
}

/// True when none of the 64 units at p (bytes exchanged when Swap) is a surrogate.
template <bool Swap = false>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool plain64(const char16_t* p, __m256i shift, __m256i top) noexcept {
  const __m256i a = _mm256_add_epi16(load_units<Swap>(p), shift);
  const __m256i b = _mm256_add_epi16(load_units<Swap>(p + 16), shift);
  const __m256i c = _mm256_add_epi16(load_units<Swap>(p + 32), shift);
  const __m256i d = _mm256_add_epi16(load_units<Swap>(p + 48), shift);
  const __m256i m = _mm256_min_epu16(_mm256_min_epu16(a, b), _mm256_min_epu16(c, d));
  return _mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_min_epu16(m, top), m)) == 0;
}

/// The units among the 16 at p (bytes exchanged when Swap) that break the pairing: all ones where
/// a unit is a high surrogate and the unit after it (p[16] is read too) not a low one, or the other
/// way round (paired_block32's test, 16 units a vector, in either byte order without a shuffle).
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i unpaired16(const char16_t* p) noexcept {
  using S = surrogate_bits<Swap>;
  const __m256i mask = _mm256_set1_epi16(static_cast<short>(S::mask));
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1));
  return _mm256_xor_si256(_mm256_cmpeq_epi16(_mm256_and_si256(a, mask), _mm256_set1_epi16(static_cast<short>(S::high))),
                          _mm256_cmpeq_epi16(_mm256_and_si256(b, mask), _mm256_set1_epi16(static_cast<short>(S::low))));
}

/// validate_utf16 (bytes exchanged when Swap): from the start, blocks of 64 units checked pair by
/// pair (p[64] read too), which chain on from one another; then, from the character boundary
/// before the first block that fails, blocks of 16 checked for surrogates; the scalar code finds
/// the error in the first block that has one, and checks the tail.
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE packed_validation validate_utf16_by(const char16_t* p,
                                                                              std::size_t n) noexcept {
  using S = surrogate_bits<Swap>;
  std::size_t i = 0;
  if (n >= 65 && (p[0] & S::mask) != S::low) {
    while (n - i >= 65) {
      const __m256i bad = _mm256_or_si256(_mm256_or_si256(unpaired16<Swap>(p + i), unpaired16<Swap>(p + i + 16)),
                                          _mm256_or_si256(unpaired16<Swap>(p + i + 32), unpaired16<Swap>(p + i + 48)));
      if (!_mm256_testz_si256(bad, bad)) break;
      i += 64;
    }
    i = pair_boundary<Swap>(p, 0, i);
  }
  const __m256i shift = _mm256_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m256i top = _mm256_set1_epi16(0x07FF);
  while (n - i >= 16) {
    if (n - i >= 64 && plain64<Swap>(p + i, shift, top)) {
      i += 64;
      continue;
    }
    const unit_block b = check_utf16(load_units<Swap>(p + i), i, n);
    if (UTF8DFA_UNLIKELY(!b.clean)) break;  // the scalar code finds the error
    i += b.take;
  }
  UTF8DFA_LEAVE_AVX();
  const packed_validation r = Swap ? validate_utf16_swapped_scalar(p + i, n - i) : validate_utf(p + i, n - i);
  return {i + r.valid_up_to, r.error_length, r.error};
}

UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline packed_validation validate_utf16(const char16_t* p,
                                                                             std::size_t n) noexcept {
  return validate_utf16_by<false>(p, n);
}

/// to_well_formed_utf16: blocks of 16 units checked pair by pair (p[16] read too) copied as they
/// are (in place, left as they are: no store, which the next read of these units, a load one unit
/// off the stores, would wait for); a block that fails repaired by the scalar code from the
/// character boundary before it, and a low surrogate where a character starts after it replaced
/// (the check does not see it); the last 16 units copied in one store when they are well-formed
/// (in place, left as they are), else repaired.
template <bool Copy>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE std::size_t to_well_formed_utf16_by(const char16_t* p, std::size_t n,
                                                                         char16_t* out, std::size_t from) noexcept {
  using S = surrogate_bits<false>;
  std::size_t i = from;  // (a character boundary)
  while (n - i >= 17) {
    if (UTF8DFA_UNLIKELY((p[i] & S::mask) == S::low)) {  // a character cannot start with it
      out[i++] = static_cast<char16_t>(replacement_character);
      continue;
    }
    const std::size_t start = i;
    for (; n - i >= 33; i += 32) {  // two blocks a test while they pass, then one
      const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 16));
      const __m256i bad = _mm256_or_si256(unpaired16<false>(p + i), unpaired16<false>(p + i + 16));
      if (!_mm256_testz_si256(bad, bad)) break;
      if constexpr (Copy) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), u);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 16), v);
      }
    }
    for (; n - i >= 17; i += 16) {
      const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
      const __m256i bad = unpaired16<false>(p + i);
      if (!_mm256_testz_si256(bad, bad)) break;
      if constexpr (Copy) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), u);
    }
    i = pair_boundary(p, start, i);
    if (n - i < 17) break;
    UTF8DFA_LEAVE_AVX();
    i = to_well_formed_until(p, n, i, i + 16, out);
  }
  if (i < n && n >= 16) {
    // The last 16 units, when they are well-formed (a low surrogate first counts as lone): their
    // copy, the units before i among them written again as they were (in place, nothing written).
    const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 16));
    if (check_utf16(u, n - 16, n).clean) {
      if constexpr (Copy) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n - 16), u);
      return n;
    }
  }
  UTF8DFA_LEAVE_AVX();
  to_well_formed_until(p, n, i, n, out);
  return n;
}

/// The kernel entry: input without a surrogate, 32 units a step and the last 32 whole, in a function
/// that calls nothing then (to_well_formed_utf16_by saves registers); 17 to 32 units also when
/// their pairs are whole (each unit a high surrogate just when the unit after it is a low one, the
/// first no low one and the last no high one). From the first block with a surrogate on (the unit
/// before it none: a character boundary), a tail call to to_well_formed_utf16_by.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t to_well_formed_utf16(const char16_t* p, std::size_t n,
                                                                             char16_t* out) noexcept {
  const bool copy = out != p;
  std::size_t i = 0;
  if (n >= 16) {
    const __m256i shift = _mm256_set1_epi16(0x2800), top = _mm256_set1_epi16(0x07FF);  // D800..DFFF to 0..07FF
    // The 16 units at a and at b, copied (in place, left as they are) when neither holds a
    // surrogate, or when `pairs` (the 17 units from a and from b - 1 read: b - 1 >= a).
    const auto pass = [&](std::size_t a, std::size_t b, bool pairs) UTF8DFA_TARGET_AVX2 {
      const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + a));
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + b));
      if (!no_surrogate(u, v, shift, top)) {
        if (!pairs || (p[a] & 0xFC00u) == 0xDC00u || (p[b + 15] & 0xFC00u) == 0xD800u) return false;
        const __m256i bad = _mm256_or_si256(unpaired16<false>(p + a), unpaired16<false>(p + b - 1));
        if (!_mm256_testz_si256(bad, bad)) return false;
      }
      if (copy) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + a), u);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + b), v);
      }
      return true;
    };
    if (n <= 32) {
      if (pass(0, n - 16, n >= 17)) return n;
    } else {
      while (n - i >= 32 && pass(i, i + 16, false)) i += 32;
      if (i == n || (n - i < 32 && pass(n - 32, n - 16, false))) return n;
    }
  }
  return copy ? to_well_formed_utf16_by<true>(p, n, out, i) : to_well_formed_utf16_by<false>(p, n, out, i);
}

/// The 16 units u moved down one unit (unit k holds unit k + 1; the last is zero).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i units_after(__m256i u) noexcept {
  return _mm256_alignr_epi8(_mm256_permute2x128_si256(u, u, 0x81), u, 2);
}

/// Writes the code points of the units of u that `keep` selects, none a low surrogate: of each
/// high surrogate, that of the pair it starts with the unit after it (in `next`, see units_after).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE char32_t* pairs_to_utf32(char32_t* o, __m256i u, __m256i next,
                                                                   std::uint32_t keep) noexcept {
  // (hi << 10) + lo + this: the code point of the pair (hi, lo) (modulo 2^32).
  const __m256i pair_offset = _mm256_set1_epi32(static_cast<int>(0x10000u - (0xD800u << 10) - 0xDC00u));
  for (unsigned h = 0; h < 2; ++h) {
    const __m256i a = _mm256_cvtepu16_epi32(h == 0 ? _mm256_castsi256_si128(u) : _mm256_extracti128_si256(u, 1));
    const __m256i d = _mm256_cvtepu16_epi32(h == 0 ? _mm256_castsi256_si128(next) : _mm256_extracti128_si256(next, 1));
    const __m256i high = _mm256_cmpeq_epi32(_mm256_and_si256(a, _mm256_set1_epi32(0xFC00)), _mm256_set1_epi32(0xD800));
    const __m256i pair = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(a, 10), d), pair_offset);
    const __m256i cp = _mm256_blendv_epi8(a, pair, high);
    const unsigned sel = (keep >> (8 * h)) & 0xFFu;
    const __m256i order = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(tables.pack_dwords[sel])));
    const auto count = static_cast<unsigned>(_mm_popcnt_u32(sel));
    store_dwords(o, _mm256_permutevar8x32_epi32(cp, order), count);
    o += count;
  }
  return o;
}

/// The 32 units at q zero-extended to 32 bits at o when none is a surrogate (true; `shift` 0x2800
/// takes D800..DFFF to at most `top`, 0x07FF); false (nothing written) otherwise.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool widen_plain32(const char16_t* q, char32_t* o, __m256i shift,
                                                             __m256i top) noexcept {
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
  const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 16));
  if (!no_surrogate(a, d, shift, top)) return false;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(a)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 8), _mm256_cvtepu16_epi32(_mm256_extracti128_si256(a, 1)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 16), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(d)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 24), _mm256_cvtepu16_epi32(_mm256_extracti128_si256(d, 1)));
  return true;
}

/// UTF-16 to UTF-32 from unit `start` on (the units before it converted one to one): blocks of 16
/// units without surrogates in vectors (32 at a time after one, and from `start` when `wide`), the
/// others scalar.
template <bool Strict>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE packed_conversion utf16_to_utf32_by(const char16_t* p, std::size_t n,
                                                                         char32_t* out, char32_t repl,
                                                                         std::size_t start, bool wide) noexcept {
  prepare_tables();
  transcode_cursor<char32_t> c{start, out + start, error_code::none};
  if (n < 16) {  // (utf16_to_utf32_short has taken those without a surrogate from 8 units)
    UTF8DFA_LEAVE_AVX();
    if (!scalar_region<Strict>(p, n, n, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
    return {n, static_cast<std::size_t>(c.o - out), c.first};
  }
  const __m256i shift = _mm256_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m256i top = _mm256_set1_epi16(0x07FF);
  // `wide`: the last block of 16 had no surrogate, 32 at a time are worth a try (not where the
  // caller's test of the 32 units at `start` failed).
  while (n - c.i >= 16) {
    // 32 units at a time while they hold no surrogate.
    while (wide && n - c.i >= 32 && widen_plain32(p + c.i, c.o, shift, top)) {
      c.i += 32;
      c.o += 32;
    }
    if (n - c.i < 16) break;
    const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    const unit_block b = check_utf16(u, c.i, n);
    wide = b.plain;
    if (UTF8DFA_LIKELY(b.plain)) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(u)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o + 8), _mm256_cvtepu16_epi32(_mm256_extracti128_si256(u, 1)));
      c.o += 16;
      c.i += 16;
    } else if (b.clean) {
      // (The last block: the unit after the last one is not read, nor used, as it is no high surrogate.)
      const __m256i next =
          n - c.i >= 17 ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 1)) : units_after(u);
      c.o = pairs_to_utf32(c.o, u, next, ~b.lows & (b.take == 16 ? 0xFFFFu : 0x7FFFu));
      c.i += b.take;
    } else {
      UTF8DFA_LEAVE_AVX();
      if (!scalar_region<Strict>(p, n, c.i + b.take, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
    }
  }
  if (c.i < n) {  // (n >= 16)
    // The last 16 units, when none is a surrogate: the units before c.i among them wrote one value
    // each, the last before c.o, which are written again.
    const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 16));
    const surrogate_lanes sur = find_surrogate_lanes(u);
    if (sur.any == 0) {
      char32_t* const o = c.o - (16 - (n - c.i));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(u)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 8), _mm256_cvtepu16_epi32(_mm256_extracti128_si256(u, 1)));
      return {n, static_cast<std::size_t>(o + 16 - out), c.first};
    }
    // Else the units from c.i on (a character boundary: unit `from` of the 16), when their pairs
    // are complete.
    const auto from = static_cast<unsigned>(16 - (n - c.i));
    if ((sur.highs >> from) << 1 == (sur.lows >> from)) {
      c.o = pairs_to_utf32(c.o, u, units_after(u), ~sur.lows & (0xFFFFu << from) & 0xFFFFu);
      return {n, static_cast<std::size_t>(c.o - out), c.first};
    }
  }
  UTF8DFA_LEAVE_AVX();
  if (!scalar_region<Strict>(p, n, n, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  return {n, static_cast<std::size_t>(c.o - out), c.first};
}

/// UTF-16 to UTF-32 of 8 to 64 units without a surrogate (false, and nothing written, otherwise):
/// two groups of 8 below 16 units, else four of 16 that cover them, overlapping.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf16_to_utf32_short(const char16_t* p, std::size_t n,
                                                                    char32_t* out) noexcept {
  if (n < 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 8));
    const __m128i top = _mm_set1_epi16(static_cast<short>(0xF800));
    const __m128i sur = _mm_set1_epi16(static_cast<short>(0xD800));
    const __m128i any =
        _mm_or_si128(_mm_cmpeq_epi16(_mm_and_si128(a, top), sur), _mm_cmpeq_epi16(_mm_and_si128(b, top), sur));
    if (!_mm_testz_si128(any, any)) return false;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_cvtepu16_epi32(a));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n - 8), _mm256_cvtepu16_epi32(b));
    return true;
  }
  const std::size_t last = n - 16, second = last < 16 ? last : 16, third = last < 32 ? last : 32;
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + second));
  const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + third));
  const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + last));
  // D800..DFFF to 0000..07FF: the least of the four below 0800 where one is a surrogate.
  const __m256i shift = _mm256_set1_epi16(0x2800), top = _mm256_set1_epi16(0x07FF);
  const __m256i m = _mm256_min_epu16(_mm256_min_epu16(_mm256_add_epi16(a, shift), _mm256_add_epi16(b, shift)),
                                     _mm256_min_epu16(_mm256_add_epi16(c, shift), _mm256_add_epi16(d, shift)));
  if (_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_min_epu16(m, top), m)) != 0) return false;
  const std::size_t at[4] = {0, second, third, last};
  const __m256i v[4] = {a, b, c, d};
  for (unsigned k = 0; k < 4; ++k) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + at[k]), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v[k])));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + at[k] + 8),
                        _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v[k], 1)));
  }
  return true;
}

/// UTF-16 to UTF-32 while no unit is a surrogate, in a function that calls nothing then (no
/// registers to save or stack to align, as utf16_to_utf32_by has): up to 64 units by
/// utf16_to_utf32_short, more 32 a step and the last 32 whole (over values written, one a unit).
/// From the first block with a surrogate on (and under 8 units), a tail call to utf16_to_utf32_by.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline packed_conversion utf16_to_utf32(const char16_t* p, std::size_t n,
                                                                             char32_t* out, char32_t repl) noexcept {
  std::size_t i = 0;
  if (n <= 64) {
    if (n >= 8 && utf16_to_utf32_short(p, n, out)) return {n, n, error_code::none};
  } else {
    const __m256i shift = _mm256_set1_epi16(0x2800), top = _mm256_set1_epi16(0x07FF);
    while (n - i >= 32 && widen_plain32(p + i, out + i, shift, top)) i += 32;
    if (i == n || (n - i < 32 && widen_plain32(p + n - 32, out + n - 32, shift, top))) return {n, n, error_code::none};
  }
  return repl == strict_marker ? utf16_to_utf32_by<true>(p, n, out, repl, i, false)
                               : utf16_to_utf32_by<false>(p, n, out, repl, i, false);
}

/// UTF-32 to UTF-16: blocks of 16 or 8 values without an error in vectors (BMP ones packed, supplementary
/// ones split by a shuffle per lane), blocks with an error scalar.
template <bool Strict>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE packed_conversion utf32_to_utf16_by(const char32_t* p, std::size_t n,
                                                                         char16_t* out, char32_t repl) noexcept {
  // Loaded, not built (k32, k16): g++ rebuilt each broadcast in every block, three instructions
  // each, and constants kept in registers from the start cost short input more.
  const __m256i d800 = k32<0xD800>(), top = k32<0x07FF>();
  const __m256i f800 = k16<0xF800>(), d800w = k16<0xD800>();
  const __m256i plane16 = k32<0x10>(), ffff = k32<0xFFFF>();
  const __m256i high_base = k32<0xD7C0>();
  const __m256i low10 = k32<0x3FF>(), low_tag = k32<0xDC00>();
  // The position in locals, not in a cursor whose address scalar_region takes: clang++ kept such a
  // cursor in memory through the loop, each block's stores of the position waited on by the next.
  std::size_t ci = 0;
  char16_t* co = out;
  error_code cfirst = error_code::none;
  bool bmp = true;          // the last block was in the BMP: 16 values at a time are worth a try
  bool one_to_one = false;  // the 8 values before ci were converted here, to a unit each
  while (n - ci >= 8) {
    if (bmp && n - ci >= 16) {
      // 16 values at a time while they are BMP values other than surrogates: packed to words (a value
      // above FFFF saturates, and is seen by its high half), the two vectors' lanes then put in order.
      std::size_t i = ci;
      char16_t* o = co;
      do {
        const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
        const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 8));
        const __m256i w = _mm256_packus_epi32(v0, v1);
        const __m256i bad = _mm256_or_si256(_mm256_srli_epi32(_mm256_or_si256(v0, v1), 16),
                                            _mm256_cmpeq_epi16(_mm256_and_si256(w, f800), d800w));
        if (!_mm256_testz_si256(bad, bad)) break;
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm256_permute4x64_epi64(w, 0xD8));
        o += 16;
        i += 16;
      } while (n - i >= 16);
      if (i != ci) one_to_one = true;
      ci = i;
      co = o;
      if (n - ci < 8) break;
    }
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + ci));
    // An error: a surrogate (v - D800 below 800) or a value above 10FFFF (its high half above 10).
    const __m256i t = _mm256_sub_epi32(v, d800);
    const __m256i bad = _mm256_or_si256(_mm256_cmpeq_epi32(_mm256_min_epu32(t, top), t),
                                        _mm256_cmpgt_epi32(_mm256_srli_epi32(v, 16), plane16));
    if (UTF8DFA_UNLIKELY(!_mm256_testz_si256(bad, bad))) {
      UTF8DFA_LEAVE_AVX();
      one_to_one = false;
      transcode_cursor<char16_t> c{ci, co, cfirst};
      const bool ok = scalar_region<Strict>(p, n, ci + 8, c, repl);
      ci = c.i;
      co = c.o;
      cfirst = c.first;
      if (!ok) return {ci, static_cast<std::size_t>(co - out), cfirst};
      continue;
    }
    const __m256i supp = _mm256_cmpgt_epi32(v, ffff);
    bmp = _mm256_testz_si256(supp, supp) != 0;
    one_to_one = bmp;
    if (bmp) {
      // Lanes 0..3 and 4..7 packed to words (the values are at most FFFF), then put in order.
      const __m256i words = _mm256_packus_epi32(v, v);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(co), _mm256_castsi256_si128(_mm256_permute4x64_epi64(words, 0x08)));
      co += 8;
      ci += 8;
    } else {
      // Supplementary values: each value becomes a dword, the pair (high surrogate, low surrogate) or
      // the value and a word to drop; a shuffle per lane packs the words. The first lane's 8 units
      // are all the block's (each lane gives at least 4); the second lane's are stored exactly.
      const __m256i pair = _mm256_or_si256(_mm256_add_epi32(_mm256_srli_epi32(v, 10), high_base),
                                           _mm256_slli_epi32(_mm256_or_si256(_mm256_and_si256(v, low10), low_tag), 16));
      const __m256i d = _mm256_blendv_epi8(v, pair, supp);
      // Word 2j of each dword is kept, word 2j + 1 where value j is supplementary.
      const unsigned words =
          _pdep_u32(static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(supp))), 0xAAAAu) | 0x5555u;
      const __m128i lo =
          _mm_shuffle_epi8(_mm256_castsi256_si128(d),
                           _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[words & 0xFFu])));
      const __m128i hi =
          _mm_shuffle_epi8(_mm256_extracti128_si256(d, 1),
                           _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[words >> 8])));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(co), lo);
      co += _mm_popcnt_u32(words & 0xFFu);
      const auto count = static_cast<unsigned>(_mm_popcnt_u32(words >> 8));
      store_exact(co, hi, count);
      co += count;
      ci += 8;
    }
  }
  if (one_to_one && ci != n) {
    // The last 1..7 values: the 8 values ending at n, when they are BMP values other than surrogates,
    // stored over the units of the ones before them (the same units again).
    const std::size_t back = 8 - (n - ci);
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 8));
    const __m256i words = _mm256_packus_epi32(v, v);
    const __m256i bad =
        _mm256_or_si256(_mm256_srli_epi32(v, 16), _mm256_cmpeq_epi16(_mm256_and_si256(words, f800), d800w));
    if (_mm256_testz_si256(bad, bad)) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(co - back),
                       _mm256_castsi256_si128(_mm256_permute4x64_epi64(words, 0x08)));
      UTF8DFA_LEAVE_AVX();
      return {n, static_cast<std::size_t>(co - back + 8 - out), cfirst};
    }
  }
  UTF8DFA_LEAVE_AVX();
  transcode_cursor<char16_t> c{ci, co, cfirst};
  if (!scalar_region<Strict>(p, n, n, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  return {n, static_cast<std::size_t>(c.o - out), c.first};
}

inline packed_conversion utf32_to_utf16(const char32_t* p, std::size_t n, char16_t* out, char32_t repl) noexcept {
  prepare_tables();
  return repl == strict_marker ? utf32_to_utf16_by<true>(p, n, out, repl) : utf32_to_utf16_by<false>(p, n, out, repl);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
