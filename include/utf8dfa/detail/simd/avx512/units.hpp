// utf8dfa: AVX-512 kernels for Latin-1 and UTF-16 / UTF-32 input (F/BW/VL/VBMI/VBMI2). Same results
// as the scalar functions of units.hpp: a block that holds an error (or, into Latin-1, a character
// above U+00FF) is run through the scalar code up to its end and the vector loop resumes behind it.
// Tails use masked loads and stores: nothing is read past the input nor written past the output.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_UNITS_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_UNITS_HPP

#include "../../kernel_table.hpp"
#include "../../scalar_kernels.hpp"
#include "../../units.hpp"
#include "../target.hpp"
#include "../transcode_common.hpp"
#include "transcode.hpp"

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

/// The low `k` bits set (k <= 255: bzhi reads the low 8 bits of its index, and leaves every bit
/// set from the width on).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __mmask16 mask16(std::size_t k) noexcept {
  return static_cast<__mmask16>(_bzhi_u32(0xFFFFu, static_cast<unsigned>(k)));
}
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __mmask32 mask32(std::size_t k) noexcept {
  return static_cast<__mmask32>(_bzhi_u32(~0u, static_cast<unsigned>(k)));
}
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __mmask64 mask64(std::size_t k) noexcept {
  return static_cast<__mmask64>(_bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(k)));
}

// ---- Latin-1 to UTF-8 -----------------------------------------------------------------------

/// 64-bit word e of the byte permute that puts byte j in byte 2j and byte 32 + j in byte 2j + 1.
constexpr long long pair_halves_word(int e) noexcept {
  unsigned long long v = 0;
  for (int t = 0; t < 4; ++t) {
    const auto j = static_cast<unsigned long long>(4 * e + t);
    v |= j << (16 * t) | (32 + j) << (16 * t + 8);
  }
  return static_cast<long long>(v);
}

/// The 64 bytes x with byte j and byte 32 + j paired in 16-bit lane j (low, high).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i paired_halves(__m512i x) noexcept {
  return _mm512_permutexvar_epi8(
      _mm512_set_epi64(pair_halves_word(7), pair_halves_word(6), pair_halves_word(5), pair_halves_word(4),
                       pair_halves_word(3), pair_halves_word(2), pair_halves_word(1), pair_halves_word(0)),
      x);
}

/// Each Latin-1 byte c (the high byte of a 16-bit lane of t, whose low bytes are zero) as the
/// little-endian word [lead, tail] of its UTF-8: lead C2 and tail c below C0, lead C3 and tail
/// c - 40 from C0 on. The C0..FF test is made on the lanes themselves: a 64-bit byte mask split
/// into halves went through the stack with clang++ 14, the halves' load waiting for the mask's
/// store (Latin-1 to UTF-8 at a quarter of g++'s speed).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i lead_tail_words(__m512i t) noexcept {
  const __m512i w = _mm512_or_si512(t, _mm512_set1_epi16(0xC2));
  return _mm512_mask_add_epi16(w, _mm512_cmpge_epu16_mask(w, _mm512_set1_epi16(static_cast<short>(0xC000))), w,
                               _mm512_set1_epi16(1 - 0x4000));  // lead C2 -> C3, tail c -> c - 40
}

/// The UTF-8 of 64 Latin-1 bytes `x` with `high` (their bytes 80..FF) not zero, with whole-vector
/// stores: the caller has at least 128 bytes of room at `o`. One byte permute pairs byte j with byte
/// 32 + j in a 16-bit lane; each half then makes every byte c a little-endian word [lead, tail]: lead
/// C2 and tail c for c < C0, lead C3 and tail c - 40 above (c's two top bits move into the lead); an
/// ASCII byte keeps only its tail, which is c itself.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE unsigned char* widen_latin1_64(unsigned char* o, __m512i x,
                                                                           std::uint64_t high) noexcept {
  const __m512i y = paired_halves(x);
  const __m512i a = lead_tail_words(_mm512_slli_epi16(y, 8));
  const __m512i b = lead_tail_words(_mm512_and_si512(y, _mm512_set1_epi16(static_cast<short>(0xFF00))));
  const auto lo = static_cast<std::uint32_t>(high), hi = static_cast<std::uint32_t>(high >> 32);
  const std::uint64_t keep_a = 0xAAAAAAAAAAAAAAAAull | _pdep_u64(lo, 0x5555555555555555ull);
  const std::uint64_t keep_b = 0xAAAAAAAAAAAAAAAAull | _pdep_u64(hi, 0x5555555555555555ull);
  _mm512_storeu_si512(o, _mm512_maskz_compress_epi8(static_cast<__mmask64>(keep_a), a));
  o += 32 + _mm_popcnt_u32(lo);
  _mm512_storeu_si512(o, _mm512_maskz_compress_epi8(static_cast<__mmask64>(keep_b), b));
  return o + 32 + _mm_popcnt_u32(hi);
}

/// widen_latin1_64 for the first `k` (<= 64) bytes of x (zero past k) with masked stores: exactly the
/// UTF-8 of those k bytes is written.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE unsigned char* widen_latin1_64_tail(unsigned char* o, __m512i x,
                                                                                std::uint64_t high,
                                                                                std::size_t k) noexcept {
  const __m512i y = paired_halves(x);
  const __m512i a = lead_tail_words(_mm512_slli_epi16(y, 8));
  const auto lo = static_cast<std::uint32_t>(high), hi = static_cast<std::uint32_t>(high >> 32);
  const std::uint64_t keep_a = 0xAAAAAAAAAAAAAAAAull | _pdep_u64(lo, 0x5555555555555555ull);
  const std::size_t na = (k < 32 ? k : 32) + static_cast<std::size_t>(_mm_popcnt_u32(lo));
  _mm512_mask_storeu_epi8(o, mask64(na), _mm512_maskz_compress_epi8(static_cast<__mmask64>(keep_a), a));
  o += na;
  if (k <= 32) return o;
  const __m512i b = lead_tail_words(_mm512_and_si512(y, _mm512_set1_epi16(static_cast<short>(0xFF00))));
  const std::uint64_t keep_b = 0xAAAAAAAAAAAAAAAAull | _pdep_u64(hi, 0x5555555555555555ull);
  const std::size_t nb = (k - 32) + static_cast<std::size_t>(_mm_popcnt_u32(hi));
  _mm512_mask_storeu_epi8(o, mask64(nb), _mm512_maskz_compress_epi8(static_cast<__mmask64>(keep_b), b));
  return o + nb;
}

/// The UTF-8 of the k (1 to 64) Latin-1 bytes at p, with a masked load and masked stores: exactly
/// that UTF-8 is written at o. Returns the end of it.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE unsigned char* latin1_to_utf8_masked(const unsigned char* p, std::size_t k,
                                                                                 unsigned char* o) noexcept {
  const auto live = static_cast<__mmask64>(low_bits(k));
  const __m512i x = _mm512_maskz_loadu_epi8(live, p);
  const std::uint64_t high = _mm512_movepi8_mask(x);
  if (high == 0) {
    _mm512_mask_storeu_epi8(o, live, x);
    return o + k;
  }
  return widen_latin1_64_tail(o, x, high, k);
}

/// Latin-1 to UTF-8 of more than 64 bytes. While 128 or more input bytes remain, the output (exactly
/// sized, at least a byte per input byte) has room for two whole vectors: whole-vector loads and
/// stores; then masked ones.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t latin1_to_utf8_long(const unsigned char* p, std::size_t n,
                                                                              unsigned char* out) noexcept {
  unsigned char* o = out;
  std::size_t i = 0;
  for (; n - i >= 128; i += 64) {
    const __m512i x = _mm512_loadu_si512(p + i);
    const std::uint64_t high = _mm512_movepi8_mask(x);
    if (high == 0) {
      _mm512_storeu_si512(o, x);
      o += 64;
    } else {
      o = widen_latin1_64(o, x, high);
    }
  }
  while (i < n) {
    const std::size_t k = n - i < 64 ? n - i : 64;
    o = latin1_to_utf8_masked(p + i, k, o);
    i += k;
  }
  return static_cast<std::size_t>(o - out);
}

/// Latin-1 to UTF-8: up to 64 bytes by one masked block, in a leaf that saves no registers (the
/// loop above, which does, by a tail call).
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline std::size_t latin1_to_utf8(
    const unsigned char* p, std::size_t n, unsigned char* out) noexcept {
  if (n > 64) return latin1_to_utf8_long(p, n, out);
  if (n == 0) return 0;  // (a masked store of nothing can cost a fault assist)
  return static_cast<std::size_t>(latin1_to_utf8_masked(p, n, out) - out);
}

// ---- UTF-8 to Latin-1 -----------------------------------------------------------------------

/// UTF-8 to Latin-1 under Policy: blocks of ASCII and C2/C3 pairs in vectors, the others scalar.
/// A pair cut by a block's end is carried: the lead is dropped in its block, and the next block
/// writes the character at its continuation byte (80..BF, or C0..FF after a C3 lead: 40 added).
/// Every block is whole (64 bytes) but the last, so the loads stay on the alignment they started on.
/// From byte `start` on: the end of the ASCII bytes the caller has copied.
template <class Policy>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion utf8_to_latin1_by(const unsigned char* p, std::size_t n,
                                                                           unsigned char* out, unsigned char repl,
                                                                           std::size_t start) noexcept {
  // Built once (opaque: the compiler would otherwise build them again in the loop).
  const __m512i fe = opaque(_mm512_set1_epi8(static_cast<char>(0xFE)));
  const __m512i c2 = opaque(_mm512_set1_epi8(static_cast<char>(0xC2)));
  const __m512i c0 = opaque(_mm512_set1_epi8(static_cast<char>(0xC0)));
  const __m512i c3 = opaque(_mm512_set1_epi8(static_cast<char>(0xC3)));
  const __m512i x40 = opaque(_mm512_set1_epi8(0x40));
  latin1_progress s;
  std::size_t i = start, w = start;      // s.read and s.written, in registers
  std::uint64_t lead_in = 0, c3_in = 0;  // the last block ended with a lead (1), a C3 one (1)
  while (i < n) {
    const bool whole = n - i >= 64;
    const std::size_t k = whole ? 64 : n - i;
    const std::uint64_t live = whole ? ~std::uint64_t{0} : _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(k));
    const __m512i x = whole ? _mm512_loadu_si512(p + i) : _mm512_maskz_loadu_epi8(static_cast<__mmask64>(live), p + i);
    const std::uint64_t high = _mm512_movepi8_mask(x);
    // An ASCII block (not after a cut pair: its continuation comes first) is copied as it is.
    // One test (not one on lead_in first: in dense text a pair is cut at every other block end).
    if ((high | lead_in) == 0) {
      if (!whole) {
        _mm512_mask_storeu_epi8(out + w, static_cast<__mmask64>(live), x);
        w += k;
        break;
      }
      _mm512_storeu_si512(out + w, x);
      i += 64;
      w += 64;
      while (n - i >= 64) {  // the ASCII run that follows
        const __m512i a = _mm512_loadu_si512(p + i);
        if (_mm512_movepi8_mask(a) != 0) break;
        _mm512_storeu_si512(out + w, a);
        i += 64;
        w += 64;
      }
      continue;
    }
    const std::uint64_t lead = _mm512_mask_cmpeq_epi8_mask(static_cast<__mmask64>(high), _mm512_and_si512(x, fe), c2);
    const std::uint64_t cont = _mm512_mask_cmplt_epu8_mask(static_cast<__mmask64>(high), x, c0);  // 80..BF
    // Each high byte a lead or a continuation, each continuation after a lead, the other way round
    // in the block (a lead at the end of the last block is seen below).
    if (UTF8DFA_UNLIKELY(((high & ~lead & ~cont) | ((((lead << 1) | lead_in) & live) ^ cont)) != 0)) {
      s.read = i - lead_in;  // the cut pair's lead wrote nothing yet
      s.written = w;
      UTF8DFA_LEAVE_AVX();
      if (!to_latin1_until<Policy>(p, n, i + k, out, s, repl)) return latin1_result(s, n, true);
      i = s.read;
      w = s.written;
      lead_in = c3_in = 0;
      continue;
    }
    const std::uint64_t is_c3 = _mm512_cmpeq_epi8_mask(x, c3);
    const __m512i bytes = _mm512_mask_add_epi8(x, static_cast<__mmask64>(((is_c3 << 1) | c3_in) & cont), x, x40);
    const std::uint64_t keep = live & ~lead;
    const auto count = static_cast<unsigned>(_mm_popcnt_u64(keep));
    _mm512_mask_storeu_epi8(out + w, static_cast<__mmask64>(_bzhi_u64(~std::uint64_t{0}, count)),
                            _mm512_maskz_compress_epi8(static_cast<__mmask64>(keep), bytes));
    // The last byte's bit (the block is whole but at the end, where a lead is an error anyway).
    lead_in = (lead >> (k - 1)) & 1u;
    c3_in = is_c3 >> 63;
    i += k;
    w += count;
  }
  if (UTF8DFA_UNLIKELY(lead_in != 0)) {  // a lead ends the input: the scalar code says what it is
    s.read = n - 1;
    s.written = w;
    UTF8DFA_LEAVE_AVX();
    if (!to_latin1_until<Policy>(p, n, n, out, s, repl)) return latin1_result(s, n, true);
    w = s.written;
  }
  s.read = n;
  s.written = w;
  return latin1_result(s, n, false);
}

/// The kernel entry: a short input of ASCII and whole C2/C3 pairs (the same result under every
/// policy) in one masked block, a longer one's ASCII blocks here (with no call between the kernel
/// table and them), the rest by utf8_to_latin1_by.
UTF8DFA_TARGET_AVX512 inline packed_conversion utf8_to_latin1(const unsigned char* p, std::size_t n, unsigned char* out,
                                                              char32_t replacement) noexcept {
  std::size_t i = 0;
  if (n > 64) {
    // 128 bytes a test while they are ASCII, then 64.
    for (; n - i >= 128; i += 128) {
      const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + 64);
      if (_mm512_movepi8_mask(_mm512_or_si512(a, b)) != 0) break;
      _mm512_storeu_si512(out + i, a);
      _mm512_storeu_si512(out + i + 64, b);
    }
    while (n - i >= 64) {
      const __m512i x = _mm512_loadu_si512(p + i);
      if (_mm512_movepi8_mask(x) != 0) break;
      _mm512_storeu_si512(out + i, x);
      i += 64;
    }
    if (i == n) return {n, n, error_code::none};
  } else {
    const __m512i x = _mm512_maskz_loadu_epi8(mask64(n), p);
    const std::uint64_t high = _mm512_movepi8_mask(x);
    if (high == 0) {
      _mm512_mask_storeu_epi8(out, mask64(n), x);
      return {n, n, error_code::none};
    }
    const std::uint64_t lead =
        _mm512_mask_cmpeq_epi8_mask(high, _mm512_and_si512(x, _mm512_set1_epi8(static_cast<char>(0xFE))),
                                    _mm512_set1_epi8(static_cast<char>(0xC2)));
    const std::uint64_t cont = _mm512_mask_cmplt_epu8_mask(high, x, _mm512_set1_epi8(static_cast<char>(0xC0)));
    // Each high byte a lead or a continuation, each continuation right after a lead, no lead last.
    if (((high & ~lead & ~cont) | ((lead << 1) ^ cont) | (lead >> 63)) == 0) {
      const std::uint64_t is_c3 = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(static_cast<char>(0xC3)));
      const __m512i bytes = _mm512_mask_add_epi8(x, is_c3 << 1, x, _mm512_set1_epi8(0x40));
      const std::uint64_t keep = mask64(n) & ~lead;
      const auto count = static_cast<std::size_t>(_mm_popcnt_u64(keep));
      _mm512_mask_storeu_epi8(out, mask64(count), _mm512_maskz_compress_epi8(keep, bytes));
      return {n, count, error_code::none};
    }
  }
  if (replacement == strict_marker) return utf8_to_latin1_by<strict>(p, n, out, 0, i);
  if (replacement == skip_marker) return utf8_to_latin1_by<skip>(p, n, out, 0, i);
  return utf8_to_latin1_by<replace>(p, n, out, static_cast<unsigned char>(replacement), i);
}

// ---- UTF-16 -----------------------------------------------------------------------------------

/// The high and the low surrogates among the n (at most 64) UTF-16 units at p, bit j for unit j.
struct surrogate_masks {
  std::uint64_t high, low;
};

/// u with the bytes of each 16-bit unit exchanged when Swap.
template <bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i swap_if(__m512i u) noexcept {
  if constexpr (Swap)
    return _mm512_shuffle_epi8(
        u, _mm512_broadcast_i32x4(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)));
  else
    return u;
}

/// Short input: one or two masked loads (nothing read past p + n), bytes exchanged when Swap.
template <bool Swap = false>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE surrogate_masks surrogates64(const char16_t* p, std::size_t n) noexcept {
  const __m512i tag = _mm512_set1_epi16(static_cast<short>(0xFC00));
  const __m512i high = _mm512_set1_epi16(static_cast<short>(0xD800));
  const __m512i low = _mm512_set1_epi16(static_cast<short>(0xDC00));
  const __m512i a = _mm512_and_si512(swap_if<Swap>(_mm512_maskz_loadu_epi16(mask32(n), p)), tag);
  std::uint64_t h = _mm512_cmpeq_epi16_mask(a, high), l = _mm512_cmpeq_epi16_mask(a, low);
  if (n > 32) {
    const __m512i b = _mm512_and_si512(swap_if<Swap>(_mm512_maskz_loadu_epi16(mask32(n - 32), p + 32)), tag);
    h |= std::uint64_t{_mm512_cmpeq_epi16_mask(b, high)} << 32;
    l |= std::uint64_t{_mm512_cmpeq_epi16_mask(b, low)} << 32;
  }
  return {h, l};
}

/// The surrogate test of UTF-16 units without exchanging their bytes: `key` maps a vector so that
/// the surrogates, and only they, become the least keys, `least` keeps the lesser of two keys lane
/// by lane, `none` says whether no key of a minimum is a surrogate's. In the host's byte order a
/// unit is a 16-bit key (D800..DFFF to 0000..07FF); with its bytes exchanged (Swap) only its high
/// byte, the first in memory, is: 28 added to each even byte takes D8..DF, and only them, to
/// 00..07, and the odd bytes (added 0) are left out of the test (no byte shuffle: the swapped tests
/// run as fast). A unit masked off (zero) is no surrogate either way.
template <bool Swap>
struct surrogate_key {
  __m512i add;
  UTF8DFA_TARGET_AVX512 surrogate_key() noexcept : add(_mm512_set1_epi16(Swap ? 0x0028 : 0x2800)) {}
  UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i key(__m512i u) const noexcept {
    return Swap ? _mm512_add_epi8(u, add) : _mm512_add_epi16(u, add);
  }
  UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE static __m512i least(__m512i a, __m512i b) noexcept {
    return Swap ? _mm512_min_epu8(a, b) : _mm512_min_epu16(a, b);
  }
  UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE static bool none(__m512i least) noexcept {
    if constexpr (Swap)
      return _mm512_mask_cmplt_epu8_mask(static_cast<__mmask64>(0x5555555555555555u), least, _mm512_set1_epi8(8)) == 0;
    else
      return _mm512_cmplt_epu16_mask(least, _mm512_set1_epi16(0x0800)) == 0;
  }
};

/// True when none of the n (at most 64) units at p is a surrogate (bytes exchanged when Swap): one
/// add a vector (surrogate_key), their minimum and one compare; nothing read past p + n.
template <bool Swap = false>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool no_surrogate64(const char16_t* p, std::size_t n) noexcept {
  const surrogate_key<Swap> s;
  __m512i least = s.key(_mm512_maskz_loadu_epi16(mask32(n), p));
  if (n > 32) least = s.least(least, s.key(_mm512_maskz_loadu_epi16(mask32(n - 32), p + 32)));
  return s.none(least);
}

/// True when the surrogates of a short input (at most 64 units) pair up: each high one followed
/// by a low one (not the last unit), each low one after a high one.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool paired64(const surrogate_masks& m) noexcept {
  return (((m.high << 1) ^ m.low) | (m.high >> 63)) == 0;
}

/// The units after each of the `k` (at most 32) at p + i, zero past n.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i units_after(const char16_t* p, std::size_t i,
                                                                std::size_t n) noexcept {
  return n - i > 32 ? _mm512_loadu_si512(p + i + 1) : _mm512_maskz_loadu_epi16(mask32(n - i - 1), p + i + 1);
}

/// True when the surrogates of the n (at most 1024) UTF-16 units at p (bytes exchanged when Swap)
/// pair up. Vectors of 32 from the start (unaligned), the last one masked: first whether there is
/// any surrogate at all (one add and one min a vector), then, only if there is, the pairs, a vector
/// at a time (a high surrogate in the last unit of one carried to the next).
template <bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool utf16_pairs_up(const char16_t* p, std::size_t n) noexcept {
  const surrogate_key<Swap> s;
  // Two chains of minima (bound by the loads, not by one chain's latency).
  __m512i least = _mm512_set1_epi16(-1), least2 = least;
  std::size_t i = 0;
  for (; n - i > 64; i += 64) {
    least = s.least(least, s.key(_mm512_loadu_si512(p + i)));
    least2 = s.least(least2, s.key(_mm512_loadu_si512(p + i + 32)));
  }
  if (n - i > 32) {
    least = s.least(least, s.key(_mm512_loadu_si512(p + i)));
    i += 32;
  }
  least = s.least(s.least(least, least2), s.key(_mm512_maskz_loadu_epi16(mask32(n - i), p + i)));
  if (s.none(least)) return true;
  const __m512i tag = _mm512_set1_epi16(static_cast<short>(0xFC00));
  const __m512i high = _mm512_set1_epi16(static_cast<short>(0xD800));
  const __m512i low = _mm512_set1_epi16(static_cast<short>(0xDC00));
  // Each unit's tag against the next unit's (loaded one unit on: no carry from vector to vector,
  // whose mask shifts in general registers ran text of pairs among ASCII words at 0.7x simdutf's
  // speed at 256 B and 1 KiB); past the input the lanes are zero, so a high surrogate last in the
  // input finds no low one. A low surrogate first in the input is unpaired too.
  const auto tags = [&](__m512i u) UTF8DFA_TARGET_AVX512 { return _mm512_and_si512(swap_if<Swap>(u), tag); };
  __mmask32 bad = _mm512_cmpeq_epi16_mask(tags(_mm512_maskz_loadu_epi16(1, p)), low);
  for (i = 0; i < n; i += 32) {
    const __m512i u = tags(n - i >= 32 ? _mm512_loadu_si512(p + i) : _mm512_maskz_loadu_epi16(mask32(n - i), p + i));
    bad |= _mm512_cmpeq_epi16_mask(u, high) ^ _mm512_cmpeq_epi16_mask(tags(units_after(p, i, n)), low);
  }
  return bad == 0;
}

/// The surrogates among 32 UTF-16 units that start a pair (a high one followed by a low one), that
/// end one (a low one after a high one), and the others (`bad`: unpaired).
struct pair_lanes {
  __mmask32 starts, ends, bad;
};

/// The constants of find_pairs and of the surrogate test, built once before a loop (opaque: GCC
/// would otherwise broadcast them again in each step, on the shuffle port).
struct pair_constants {
  __m512i tag, start_key, end_key, shift, limit;
  UTF8DFA_TARGET_AVX512 pair_constants() noexcept
      : tag(opaque(_mm512_set1_epi16(static_cast<short>(0xFC00)))),
        start_key(opaque(_mm512_set1_epi16(static_cast<short>(0xD837)))),
        end_key(opaque(_mm512_set1_epi16(static_cast<short>(0xDC36)))),
        shift(opaque(_mm512_set1_epi16(0x2800))),  // D800..DFFF to 0000..07FF
        limit(opaque(_mm512_set1_epi16(0x0800))) {}
  /// The surrogates among the 32 units u.
  UTF8DFA_TARGET_AVX512 __mmask32 surrogates(__m512i u) const noexcept {
    return _mm512_cmplt_epu16_mask(_mm512_add_epi16(u, shift), limit);
  }
};

/// pair_lanes of the 32 units `cur`, from `before` and `after`, the unit before and after each (zero
/// outside the input). A fixed step: which units pair up does not wait on the block before. One
/// compare for each kind: (unit & FC00) | (unit after >> 10) is D837 exactly at a start, (unit &
/// FC00) | (unit before >> 10) DC36 exactly at an end (a high surrogate shifted is 36, a low one 37).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE pair_lanes find_pairs(const pair_constants& pc, __m512i cur, __m512i before,
                                                                  __m512i after) noexcept {
  // ternary logic 0xEC: A & C | B.
  const __mmask32 starts =
      _mm512_cmpeq_epi16_mask(_mm512_ternarylogic_epi32(cur, _mm512_srli_epi16(after, 10), pc.tag, 0xEC), pc.start_key);
  const __mmask32 ends =
      _mm512_cmpeq_epi16_mask(_mm512_ternarylogic_epi32(cur, _mm512_srli_epi16(before, 10), pc.tag, 0xEC), pc.end_key);
  return {starts, ends, static_cast<__mmask32>(pc.surrogates(cur) & ~(starts | ends))};
}

/// The units before each of the `k` (at most 32) at p + i: p[i - 1] on; before the input (i == 0)
/// a zero, from a masked load that touches nothing it masks out.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i units_before(const char16_t* p, std::size_t i,
                                                                 std::size_t k) noexcept {
  if (i != 0) return k == 32 ? _mm512_loadu_si512(p + i - 1) : _mm512_maskz_loadu_epi16(mask32(k), p + i - 1);
  return _mm512_maskz_loadu_epi16(mask32(k) & 0xFFFFFFFEu,
                                  reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) - 2));
}

/// The 32 UTF-16 units at p, with the bytes of each exchanged when Swap.
template <bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i load_units(const char16_t* p) noexcept {
  const __m512i u = _mm512_loadu_si512(p);
  if constexpr (Swap)
    return _mm512_shuffle_epi8(
        u, _mm512_broadcast_i32x4(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)));
  else
    return u;
}

/// True when none of the 128 units at p (bytes exchanged when Swap) is a surrogate.
template <bool Swap = false>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool plain128(const char16_t* p, __m512i shift, __m512i limit) noexcept {
  if constexpr (Swap) {  // (surrogate_key: no byte shuffle)
    const surrogate_key<true> s;
    const __m512i ab = s.least(s.key(_mm512_loadu_si512(p)), s.key(_mm512_loadu_si512(p + 32)));
    const __m512i cd = s.least(s.key(_mm512_loadu_si512(p + 64)), s.key(_mm512_loadu_si512(p + 96)));
    return s.none(s.least(ab, cd));
  }
  const __m512i a = _mm512_add_epi16(load_units<Swap>(p), shift);
  const __m512i b = _mm512_add_epi16(load_units<Swap>(p + 32), shift);
  const __m512i c = _mm512_add_epi16(load_units<Swap>(p + 64), shift);
  const __m512i d = _mm512_add_epi16(load_units<Swap>(p + 96), shift);
  const __m512i m = _mm512_min_epu16(_mm512_min_epu16(a, b), _mm512_min_epu16(c, d));
  return _mm512_cmplt_epu16_mask(m, limit) == 0;
}

/// Units to skip so that p + skip is on a 64-byte line when the units before hold no surrogate (a
/// whole-line load is one access, and this loop is bound by loads), else 0.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t to_line(const char16_t* p, std::size_t n, __m512i shift,
                                                                __m512i limit) noexcept {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  if (n < 256 || (at & 63) == 0 || (at & 1) != 0) return 0;
  const std::size_t head = (64 - (at & 63)) / 2;
  const __m512i u = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(low_bits(head)), p);
  return _mm512_cmplt_epu16_mask(_mm512_add_epi16(u, shift), limit) == 0 ? head : 0;
}

/// The high and the low surrogates among 32 UTF-16 units, a bit a lane.
struct surrogate_marks {
  std::uint32_t high, low;
  /// Lane j set where unit j - 1 is a high surrogate and unit j not a low one, or the other way
  /// round (`carry`: 1 when the unit before the block is a high surrogate): zero exactly where the
  /// surrogates pair up, but for a high one in the last lane, which the next block checks.
  std::uint32_t odd(std::uint32_t carry) const noexcept { return ((high << 1) | carry) ^ low; }
};

/// The constants of the UTF-16 surrogate tests, built once before a loop (opaque: GCC would
/// otherwise broadcast them again in each step, on the shuffle port).
struct surrogate_tests {
  __m512i shift, limit, tag, high, low;
  UTF8DFA_TARGET_AVX512 surrogate_tests() noexcept
      : shift(opaque(_mm512_set1_epi16(0x2800))),  // D800..DFFF to 0000..07FF
        limit(opaque(_mm512_set1_epi16(0x0800))),
        tag(opaque(_mm512_set1_epi16(static_cast<short>(0xFC00)))),
        high(opaque(_mm512_set1_epi16(static_cast<short>(0xD800)))),
        low(opaque(_mm512_set1_epi16(static_cast<short>(0xDC00)))) {}
  /// The surrogates among the 32 units u (one add, one compare).
  UTF8DFA_TARGET_AVX512 __mmask32 any(__m512i u) const noexcept {
    return _mm512_cmplt_epu16_mask(_mm512_add_epi16(u, shift), limit);
  }
  UTF8DFA_TARGET_AVX512 surrogate_marks marks(__m512i u) const noexcept {
    const __m512i t = _mm512_and_si512(u, tag);
    return {_mm512_cmpeq_epi16_mask(t, high), _mm512_cmpeq_epi16_mask(t, low)};
  }
};

/// validate_utf16 of the units at p from i on (bytes exchanged when Swap; `Scalar` the matching
/// scalar validation): 128 units without a surrogate a test, the others 32 a step, the high
/// surrogates (shifted by one lane, the last carried to the next block) against the low ones. The
/// scalar code finds the error from the block that has one, or from the unit before it when that
/// is a high surrogate.
template <bool Swap, packed_validation (*Scalar)(const char16_t*, std::size_t)>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE packed_validation validate_utf16_blocks(const char16_t* p, std::size_t n,
                                                                                    std::size_t i) noexcept {
  const surrogate_tests st;
  std::uint32_t carry = 0;  // the unit before the block is a high surrogate
  while (i < n) {
    if (n - i >= 128 && carry == 0 && plain128<Swap>(p + i, st.shift, st.limit)) {
      i += 128;
      continue;
    }
    const std::size_t k = n - i < 32 ? n - i : 32;
    const __m512i u = k == 32 ? load_units<Swap>(p + i) : swap_if<Swap>(_mm512_maskz_loadu_epi16(mask32(k), p + i));
    const surrogate_marks m = st.marks(u);
    // A lane out of pair, or a high surrogate last in the input.
    if (UTF8DFA_UNLIKELY(m.odd(carry) != 0 || (m.high >> (k - 1)) > (n - i > 32 ? 1u : 0u))) break;
    carry = m.high >> 31;
    i += k;
  }
  if (i == n) return {n, 0, error_code::none};
  UTF8DFA_LEAVE_AVX();
  i -= carry;
  const packed_validation r = Scalar(p + i, n - i);
  return {i + r.valid_up_to, r.error_length, r.error};
}

/// `Scalar` (a scalar UTF-16 validation) on the input from its start, out of line: the short
/// paths that call it keep no registers to save.
template <packed_validation (*Scalar)(const char16_t*, std::size_t)>
UTF8DFA_NOINLINE packed_validation validate_utf16_again(const char16_t* p, std::size_t n) noexcept {
  return Scalar(p, n);
}

/// validate_utf16 of more than 1024 units: to a 64-byte boundary, then validate_utf16_blocks.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_utf16_long(const char16_t* p,
                                                                                    std::size_t n) noexcept {
  const __m512i shift = _mm512_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m512i limit = _mm512_set1_epi16(0x0800);
  return validate_utf16_blocks<false, &validate_utf<char16_t>>(p, n, to_line(p, n, shift, limit));
}

/// The kernel entry: up to 1024 units without an error in a straight line of vectors (out of line
/// of the rest, so that it saves no registers); an error there: the scalar code from the start.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_utf16(const char16_t* p,
                                                                               std::size_t n) noexcept {
  if (n <= 64) {  // short input: one or two masked vectors
    if (UTF8DFA_LIKELY(no_surrogate64(p, n) || paired64(surrogates64(p, n)))) return {n, 0, error_code::none};
  } else if (n <= 1024) {  // vectors from the start, one test
    if (UTF8DFA_LIKELY(utf16_pairs_up<false>(p, n))) return {n, 0, error_code::none};
  } else {
    return validate_utf16_long(p, n);
  }
  UTF8DFA_LEAVE_AVX();
  return validate_utf16_again<&validate_utf<char16_t>>(p, n);
}

/// True when none of the 64 units in a and b is a surrogate (`shift` 0x2800 takes D800..DFFF to
/// below `limit`, 0x0800).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool no_surrogate64(__m512i a, __m512i b, __m512i shift,
                                                                __m512i limit) noexcept {
  return _mm512_cmplt_epu16_mask(_mm512_min_epu16(_mm512_add_epi16(a, shift), _mm512_add_epi16(b, shift)), limit) == 0;
}

/// to_well_formed_utf16: 32 units a step, each against the unit before it (the block before's last
/// unit and its own first 31, one lane permute of the two loaded vectors: no carry from block to
/// block, and no load of the units before, which in place would wait on the store of the block
/// before): lane j is out of pair when unit j is a low surrogate and unit j - 1 not a high one, or
/// the other way round. A lone high surrogate last in a block is replaced by the next block (its
/// lane 0), last in the input at the end. In place (not Copy), a block without a replacement is
/// left as it is: no store, which the next read of these units would wait for. A copy of more than
/// 32 units ends with the whole block that ends at n (at 256 B and 1 KiB against simdutf icelake:
/// 1.11x -> 1.15x, 1.16x -> 1.25x).
template <bool Copy>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE std::size_t to_well_formed_utf16_by(const char16_t* p, std::size_t n,
                                                                           char16_t* out, std::size_t start) noexcept {
  if (n == 0) return 0;
  const __m512i tag = _mm512_set1_epi16(static_cast<short>(0xFC00));
  const __m512i high = _mm512_set1_epi16(static_cast<short>(0xD800));
  const __m512i low = _mm512_set1_epi16(static_cast<short>(0xDC00));
  // Lane j of the units before: lane 31 + j of (the block before, this block).
  const __m512i before_lanes =
      _mm512_add_epi16(_mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12,
                                        11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                       _mm512_set1_epi16(31));
  __m512i last = _mm512_setzero_si512();         // the block before (none before the input)
  for (std::size_t i = start; i < n; i += 32) {  // (the unit before `start` no surrogate: as none before)
    bool whole = n - i >= 32;
    __mmask32 live = whole ? 0xFFFFFFFFu : mask32(n - i);
    __m512i u, before;
    if (Copy && !whole && n > 32) {
      // A copy's last units: the whole block that ends at n, over units already written (with the
      // same values), each against the unit before it loaded one unit back: no masked store.
      i = n - 32;
      whole = true;
      live = 0xFFFFFFFFu;
      u = _mm512_loadu_si512(p + i);
      before = _mm512_loadu_si512(p + i - 1);
    } else {
      u = whole ? _mm512_loadu_si512(p + i) : _mm512_maskz_loadu_epi16(live, p + i);
      before = _mm512_permutex2var_epi16(last, before_lanes, u);
    }
    const __mmask32 is_low = _mm512_cmpeq_epi16_mask(_mm512_and_si512(u, tag), low);
    const __mmask32 after_high = _mm512_cmpeq_epi16_mask(_mm512_and_si512(before, tag), high);
    last = u;
    __m512i v = u;
    const std::uint32_t odd = is_low ^ after_high;
    if (UTF8DFA_UNLIKELY(odd != 0)) {
      const std::uint32_t lone_high = odd & after_high;  // lane j: unit j - 1
      if (lone_high & 1u) out[i - 1] = u'\xFFFD';
      v = _mm512_mask_mov_epi16(u, (odd & is_low) | (lone_high >> 1), _mm512_set1_epi16(static_cast<short>(0xFFFD)));
    } else if (!Copy) {
      continue;
    }
    if (whole)
      _mm512_storeu_si512(out + i, v);
    else
      _mm512_mask_storeu_epi16(out + i, live, v);
  }
  if ((p[n - 1] & 0xFC00) == 0xD800) out[n - 1] = u'\xFFFD';
  return n;
}

/// The kernel entry: from 32 units on, input without a surrogate 64 units a step and the last 64
/// (or 32) whole, in a function that calls nothing then (to_well_formed_utf16_by saves registers);
/// from the first block with a surrogate on (and under 32 units), a tail call to
/// to_well_formed_utf16_by.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t to_well_formed_utf16(const char16_t* p, std::size_t n,
                                                                               char16_t* out) noexcept {
  const bool copy = out != p;
  std::size_t i = 0;
  if (n >= 32) {
    const __m512i shift = _mm512_set1_epi16(0x2800), limit = _mm512_set1_epi16(0x0800);  // D800..DFFF to 0..07FF
    // The 32 units at a and at b, copied (in place, left as they are) when neither holds a surrogate.
    const auto pass = [&](std::size_t a, std::size_t b) UTF8DFA_TARGET_AVX512 {
      const __m512i u = _mm512_loadu_si512(p + a), v = _mm512_loadu_si512(p + b);
      if (!no_surrogate64(u, v, shift, limit)) return false;
      if (copy) {
        _mm512_storeu_si512(out + a, u);
        _mm512_storeu_si512(out + b, v);
      }
      return true;
    };
    if (n <= 64) {
      if (pass(0, n - 32)) return n;
    } else {
      while (n - i >= 64 && pass(i, i + 32)) i += 64;
      if (i == n || (n - i < 64 && pass(n - 64, n - 32))) return n;
    }
  }
  return copy ? to_well_formed_utf16_by<true>(p, n, out, i) : to_well_formed_utf16_by<false>(p, n, out, i);
}

/// The first k (at most 32) units of u zero-extended to 32 bits, stored at o (masked stores).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void widen_units_masked(__m512i u, std::size_t k, char32_t* o) noexcept {
  _mm512_mask_storeu_epi32(o, mask16(k), _mm512_cvtepu16_epi32(_mm512_castsi512_si256(u)));
  if (k > 16) _mm512_mask_storeu_epi32(o + 16, mask16(k - 16), _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(u, 1)));
}

/// The 32 units at x and the 32 at y zero-extended to 32 bits at ox and at oy when none of them is
/// a surrogate (true; `shift` 0x2800 takes D800..DFFF to below `limit`, 0x0800); false (nothing
/// written) otherwise.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool widen_two_blocks(const char16_t* x, const char16_t* y, char32_t* ox,
                                                                  char32_t* oy, __m512i shift, __m512i limit) noexcept {
  const __m512i a = _mm512_loadu_si512(x), b = _mm512_loadu_si512(y);
  if (!no_surrogate64(a, b, shift, limit)) return false;
  _mm512_storeu_si512(ox, _mm512_cvtepu16_epi32(_mm512_castsi512_si256(a)));
  _mm512_storeu_si512(ox + 16, _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(a, 1)));
  _mm512_storeu_si512(oy, _mm512_cvtepu16_epi32(_mm512_castsi512_si256(b)));
  _mm512_storeu_si512(oy + 16, _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(b, 1)));
  return true;
}

/// The n (at most 64) units at p zero-extended to 32 bits at out when none is a surrogate (true):
/// from 32 units on, the first 32 and the last 32 by whole loads and stores, below one masked load
/// and masked stores; false (nothing written) otherwise.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool widen_few_units(const char16_t* p, std::size_t n,
                                                                 char32_t* out) noexcept {
  const __m512i shift = _mm512_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  if (n >= 32)  // the first 32 units and the last 32, whole (the second stored over the first)
    return widen_two_blocks(p, p + n - 32, out, out + n - 32, shift, _mm512_set1_epi16(0x0800));
  const __m512i a = _mm512_maskz_loadu_epi16(mask32(n), p);
  if (_mm512_cmplt_epu16_mask(_mm512_add_epi16(a, shift), _mm512_set1_epi16(0x0800)) != 0) return false;
  widen_units_masked(a, n, out);
  return true;
}

/// Text of supplementary characters only (emoji) from i: while the next 32 units are 16 pairs, each
/// pair one 32-bit lane (the high surrogate in its low half), written as 16 code points. A unit at i
/// that is the low half of a pair the block before wrote (a high surrogate before it) is passed
/// over first. Returns where it stopped (i when it took nothing); o moves past what it wrote. (Out
/// of line, a call in the block loop made it keep its vector constants on the stack; with every
/// other text 4-7% slower either way, at 256 B to 1 KiB, for emoji 2-3.6x as fast.)
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t pairs_only_run(const char16_t* p, std::size_t n, std::size_t i,
                                                                       char32_t*& o) noexcept {
  std::size_t j = i + std::size_t{i > 0 && (p[i] & 0xFC00u) == 0xDC00u && (p[i - 1] & 0xFC00u) == 0xD800u};
  const __m512i tags = _mm512_set1_epi32(static_cast<int>(0xFC00FC00u));
  const __m512i pair = _mm512_set1_epi32(static_cast<int>(0xDC00D800u));
  const __m512i ten = _mm512_set1_epi32(0x3FF);
  while (n - j >= 32) {
    const __m512i x = _mm512_loadu_si512(p + j);
    if (_mm512_cmpneq_epi32_mask(_mm512_and_si512(x, tags), pair) != 0) break;
    const __m512i hi = _mm512_slli_epi32(_mm512_and_si512(x, ten), 10);
    const __m512i lo = _mm512_and_si512(_mm512_srli_epi32(x, 16), ten);
    _mm512_storeu_si512(o, _mm512_add_epi32(_mm512_add_epi32(hi, lo), _mm512_set1_epi32(0x10000)));
    o += 16;
    j += 32;
    i = j;
  }
  return i;
}

/// The values of the k (at most 32) units u at o, `next` the unit after each, `starts` where pairs
/// start: each unit in `keep` (all but the low halves of pairs) one value, at a high surrogate the
/// pair's code point; o moves past them. A block of 32 units writes at least 16 values (at most
/// every other lane ends a pair), so when k is 32 the first half's 16 lanes are stored whole: the
/// second half's store writes over those past the first half's values (a masked store costs more).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void store_unit_values(__m512i u, __m512i next, __mmask32 starts,
                                                                   std::uint32_t keep, bool whole, __m512i pair_offset,
                                                                   char32_t*& o) noexcept {
  for (unsigned h = 0; h < 2; ++h) {
    const __m512i a = _mm512_cvtepu16_epi32(h == 0 ? _mm512_castsi512_si256(u) : _mm512_extracti64x4_epi64(u, 1));
    const __m512i d = _mm512_cvtepu16_epi32(h == 0 ? _mm512_castsi512_si256(next) : _mm512_extracti64x4_epi64(next, 1));
    const auto hi = static_cast<__mmask16>(starts >> (16 * h));
    const __m512i cp = _mm512_mask_add_epi32(a, hi, _mm512_add_epi32(_mm512_slli_epi32(a, 10), d), pair_offset);
    const auto sel = static_cast<__mmask16>(keep >> (16 * h));
    const auto count = static_cast<unsigned>(_mm_popcnt_u32(sel));
    if (h == 0 && whole)
      _mm512_storeu_si512(o, _mm512_maskz_compress_epi32(sel, cp));
    else
      _mm512_mask_storeu_epi32(o, static_cast<__mmask16>(low_bits(count)), _mm512_maskz_compress_epi32(sel, cp));
    o += count;
  }
}

/// UTF-16 to UTF-32 from unit `start` on (the units before it converted one to one): 64 units a
/// step while there is no surrogate, else 32; a block with an unpaired surrogate scalar (to its
/// end, or past it to finish a pair). A pair across a block's end is written by the block of its
/// high surrogate.
template <bool Strict>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion utf16_to_utf32_by(const char16_t* p, std::size_t n,
                                                                           char32_t* out, char32_t repl,
                                                                           std::size_t start) noexcept {
  const pair_constants pc;
  // (hi << 10) + lo + this: the code point of the pair (hi, lo) (modulo 2^32).
  const __m512i pair_offset = opaque(_mm512_set1_epi32(static_cast<int>(0x10000u - (0xD800u << 10) - 0xDC00u)));
  // The position in locals (in registers); the cursor only for the scalar code after an error.
  transcode_cursor<char32_t> c{0, out, error_code::none};
  std::size_t i = start;
  char32_t* o = out + start;
  while (i < n) {
    // 64 units a step while neither block of 32 has a surrogate: a tight loop. On long input from
    // a 64-byte boundary of the input (its loads would otherwise cross two cache lines each).
    while (n - i >= 64 && (n - i < 256 || units_to_line(p + i) == 0) &&
           widen_two_blocks(p + i, p + i + 32, o, o + 32, pc.shift, pc.limit)) {
      i += 64;
      o += 64;
    }
    if (i == n) break;
    if (n - i < 64) {  // the last units
      if (n - i < 32 && n >= 32 && o == out + i) {
        // Each unit so far one value at its own index: the last 32 whole, over values written
        // (those before i are their units: a surrogate among them fails the test).
        if (widen_few_units(p + n - 32, 32, out + n - 32)) {
          o = out + n;
          break;
        }
      } else if (widen_few_units(p + i, n - i, o)) {
        o += n - i;
        break;
      }
    }
    // Then blocks of 32 (on long input the first up to a 64-byte boundary), each the same way
    // whether it has a surrogate or not (text that mixes pairs with other units mispredicted a
    // branch on it about every other block), back to the tight loop after two blocks in a row
    // without one. The run of pairs only is tried first and after a block of 12 pairs or more.
    bool entry = true, pairs = true;
    unsigned plain = 0;
    while (i < n) {
      if (pairs && n - i >= 33) {
        i = pairs_only_run(p, n, i, o);
        if (i == n) break;
      }
      pairs = false;
      if (!entry && i != 0) {
        // Whole blocks with whole loads of the units before and after, and no other branch than
        // the ones that leave: out of the loop below at an unpaired surrogate (to the code after
        // it), at a block of 12 pairs or more (to the run of pairs), after two blocks in a row
        // without a surrogate (to the tight loop).
        bool leave = false;
        while (n - i >= 33) {
          const __m512i u = _mm512_loadu_si512(p + i), next = _mm512_loadu_si512(p + i + 1);
          const pair_lanes l = find_pairs(pc, u, _mm512_loadu_si512(p + i - 1), next);
          if (UTF8DFA_UNLIKELY(l.bad != 0)) break;
          store_unit_values(u, next, l.starts, ~static_cast<std::uint32_t>(l.ends), true, pair_offset, o);
          i += 32;
          plain = l.ends == 0 && l.starts == 0 ? plain + 1 : 0;
          pairs = _mm_popcnt_u32(l.starts) >= 12;
          if (plain == 2 || pairs) {
            leave = plain == 2;
            break;
          }
        }
        if (leave || i == n) break;  // back to the tight loop, or the end
        if (pairs) continue;
      }
      const std::size_t head = entry && n - i >= 256 ? units_to_line(p + i) : 0;
      entry = false;
      const std::size_t k = head != 0 ? head : n - i < 32 ? n - i : 32;
      const bool whole = k == 32;
      const __m512i u = whole ? _mm512_loadu_si512(p + i) : _mm512_maskz_loadu_epi16(mask32(k), p + i);
      const __m512i next = units_after(p, i, n);
      const pair_lanes l = find_pairs(pc, u, units_before(p, i, k), next);
      if (UTF8DFA_UNLIKELY(l.bad != 0)) {
        UTF8DFA_LEAVE_AVX();
        c.i = i + (l.ends & 1u);  // past the low half of a pair the block before wrote
        c.o = o;
        if (!scalar_region<Strict>(p, n, i + k, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
        i = c.i;
        o = c.o;
        break;
      }
      // Every unit but the low halves of pairs: a unit, or at a high surrogate the pair's code point.
      store_unit_values(u, next, l.starts, static_cast<std::uint32_t>(mask32(k)) & ~static_cast<std::uint32_t>(l.ends),
                        whole, pair_offset, o);
      i += k;
      plain = l.ends == 0 && l.starts == 0 ? plain + 1 : 0;
      if (plain == 2) break;  // back to the tight loop
      pairs = _mm_popcnt_u32(l.starts) >= 12;
    }
  }
  return {n, static_cast<std::size_t>(o - out), c.first};
}

/// UTF-16 to UTF-32 of more than 64 units while none is a surrogate: utf16_to_utf32_by's tight
/// loop and its last units, in a function that calls nothing then and keeps its few constants in
/// registers (utf16_to_utf32_by saves five registers and four vector constants on the stack); from
/// the first block with a surrogate on, a tail call to utf16_to_utf32_by (against simdutf icelake
/// at 256 B and 1 KiB: 1.48x -> 1.95x, 1.30x -> 1.50x).
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_conversion utf16_to_utf32_plain(const char16_t* p, std::size_t n,
                                                                                     char32_t* out,
                                                                                     char32_t repl) noexcept {
  const __m512i shift = _mm512_set1_epi16(0x2800), limit = _mm512_set1_epi16(0x0800);
  std::size_t i = 0;
  while (n - i >= 64 && (n - i < 256 || units_to_line(p + i) == 0) &&
         widen_two_blocks(p + i, p + i + 32, out + i, out + i + 32, shift, limit))
    i += 64;
  if (i == n) return {n, n, error_code::none};
  // The last units: from 32 on by widen_few_units, fewer as the last 32 over values written (each
  // unit before i one value at its own index; a surrogate among them fails the test).
  if (n - i < 64 &&
      (n - i >= 32 ? widen_few_units(p + i, n - i, out + i) : n >= 32 && widen_few_units(p + n - 32, 32, out + n - 32)))
    return {n, n, error_code::none};
  return repl == strict_marker ? utf16_to_utf32_by<true>(p, n, out, repl, i)
                               : utf16_to_utf32_by<false>(p, n, out, repl, i);
}

/// The kernel entry: up to 64 units without a surrogate in widen_few_units (before any constant of
/// the loop is set up), other input under 16 units by the scalar code, other input up to 64 units
/// by utf16_to_utf32_by, longer input by utf16_to_utf32_plain.
/// (Empty input touches no memory: a masked store of nothing to a page never written costs a
/// fault assist of hundreds of nanoseconds.)
UTF8DFA_TARGET_AVX512 inline packed_conversion utf16_to_utf32(const char16_t* p, std::size_t n, char32_t* out,
                                                              char32_t repl) noexcept {
  if (n <= 64) {
    if (n == 0) return {0, 0, error_code::none};
    if (widen_few_units(p, n, out)) return {n, n, error_code::none};
    if (n < 16) {
      UTF8DFA_LEAVE_AVX();
      return scalar_utf16_to_utf32(p, n, out, repl);
    }
    return repl == strict_marker ? utf16_to_utf32_by<true>(p, n, out, repl, 0)
                                 : utf16_to_utf32_by<false>(p, n, out, repl, 0);
  }
  return utf16_to_utf32_plain(p, n, out, repl);
}

/// Word j of the result: word 2j of the pair of vectors (the low word of value j of two vectors
/// of 32-bit values).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i low_words_index() noexcept {
  const __m512i words = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(byte_iota()));
  return _mm512_add_epi16(words, words);
}

/// The 32 values of v0 and v1 as 16-bit units into w when they are all of the BMP and none is a
/// surrogate (true); `evens` is low_words_index().
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool bmp_units(__m512i v0, __m512i v1, __m512i evens, __m512i& w) noexcept {
  w = _mm512_permutex2var_epi16(v0, evens, v1);
  return _mm512_test_epi32_mask(_mm512_or_si512(v0, v1), _mm512_set1_epi32(static_cast<int>(0xFFFF0000u))) == 0 &&
         _mm512_cmpeq_epi16_mask(_mm512_and_si512(w, _mm512_set1_epi16(static_cast<short>(0xF800))),
                                 _mm512_set1_epi16(static_cast<short>(0xD800))) == 0;
}

/// bmp_units on the 64 values at p, into w and x, with one test for all (the surrogate test as
/// (unit & F800) ^ D800 in one ternary-logic step, its zero lanes found after an unsigned minimum).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool bmp_units64(const char32_t* p, __m512i evens, __m512i& w,
                                                             __m512i& x) noexcept {
  const __m512i v0 = _mm512_loadu_si512(p), v1 = _mm512_loadu_si512(p + 16);
  const __m512i v2 = _mm512_loadu_si512(p + 32), v3 = _mm512_loadu_si512(p + 48);
  w = _mm512_permutex2var_epi16(v0, evens, v1);
  x = _mm512_permutex2var_epi16(v2, evens, v3);
  const __m512i top = _mm512_set1_epi16(static_cast<short>(0xF800)),
                sur = _mm512_set1_epi16(static_cast<short>(0xD800));
  const __m512i sw = _mm512_ternarylogic_epi32(w, top, sur, 0x6A), sx = _mm512_ternarylogic_epi32(x, top, sur, 0x6A);
  const __mmask16 big = _mm512_test_epi32_mask(_mm512_ternarylogic_epi32(_mm512_or_si512(v0, v1), v2, v3, 0xFE),
                                               _mm512_set1_epi32(static_cast<int>(0xFFFF0000u)));
  const __m512i m = _mm512_min_epu16(sw, sx);
  return (big | _mm512_testn_epi16_mask(m, m)) == 0;
}

/// The n values at p as 16-bit units at out by blocks of 32 (the last masked), while they are of
/// the BMP and no surrogate (bmp_units): the values converted, n or a multiple of 32.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t few_bmp_units(const char32_t* p, std::size_t n, char16_t* out,
                                                                      __m512i evens) noexcept {
  std::size_t i = 0;
  __m512i w;
  for (; n - i > 32; i += 32) {
    if (!bmp_units(_mm512_loadu_si512(p + i), _mm512_loadu_si512(p + i + 16), evens, w)) return i;
    _mm512_storeu_si512(out + i, w);
  }
  const std::size_t k = n - i;
  if (!bmp_units(_mm512_maskz_loadu_epi32(mask16(k < 16 ? k : 16), p + i),
                 _mm512_maskz_loadu_epi32(mask16(k > 16 ? k - 16 : 0), p + i + 16), evens, w))
    return i;
  _mm512_mask_storeu_epi16(out + i, mask32(k), w);
  return n;
}

/// UTF-32 to UTF-16 from unit `start` on (the units before it converted one to one): blocks of
/// 64, then 32 values of the BMP in a tight loop (64 with one test: against simdutf icelake at 1 KiB
/// 1.05x -> 1.36x), other blocks of 16 in vectors, blocks with an error scalar.
template <bool Strict>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE packed_conversion
utf32_to_utf16_by(const char32_t* p, std::size_t n, char16_t* out, char32_t repl, std::size_t start) noexcept {
  const cp_constants kc;
  transcode_cursor<char16_t> c{0, out, error_code::none};
  const __m512i evens = low_words_index();
  // The position in locals (in registers); the cursor only for the scalar code after an error.
  std::size_t i = start;
  char16_t* o = out + start;
  // Up to 256 values, the entry's blocks of the BMP failed at `start`: the blocks of 16 first.
  bool tight = n > 256;
  while (i < n) {
    // 64, then 32 values of the BMP other than surrogates a step: a tight loop. On long input from
    // a 64-byte boundary of the input (a load across two lines costs a third more).
    const std::size_t from = i;
    while (tight && n - i >= 64 && (n - i < 256 || units_to_line(p + i) == 0)) {
      __m512i w, x;
      if (!bmp_units64(p + i, evens, w, x)) break;
      _mm512_storeu_si512(o, w);
      _mm512_storeu_si512(o + 32, x);
      o += 64;
      i += 64;
    }
    while (tight && n - i >= 32 && (n - i < 256 || units_to_line(p + i) == 0)) {
      __m512i w;
      if (!bmp_units(_mm512_loadu_si512(p + i), _mm512_loadu_si512(p + i + 16), evens, w)) break;
      _mm512_storeu_si512(o, w);
      o += 32;
      i += 32;
    }
    if (n - i <= 32 && i != from) {  // the last values after BMP blocks, masked
      const std::size_t done = few_bmp_units(p + i, n - i, o, evens);
      i += done;
      o += done;
      if (i == n) break;
    }
    // Then blocks of 16 of any values (on long input the first up to a 64-byte boundary), back to
    // the tight loop after two blocks of the BMP in a row (or at the end). Whole blocks are stored
    // without a branch on the kinds of values in them: text that mixes the BMP with supplementary
    // characters mispredicted such a branch about every other block.
    unsigned bmp_blocks = 0;
    while (i < n) {
      const std::size_t head = n - i >= 256 ? units_to_line(p + i) : 0;
      const std::size_t k = head != 0 ? head : n - i < 16 ? n - i : 16;
      const __m512i v = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(low_bits(k)), p + i);
      const __mmask16 sur =
          _mm512_cmplt_epu32_mask(_mm512_sub_epi32(v, _mm512_set1_epi32(0xD800)), _mm512_set1_epi32(0x800));
      const __mmask16 big = _mm512_cmpgt_epu32_mask(v, _mm512_set1_epi32(0x10FFFF));
      if (UTF8DFA_UNLIKELY((sur | big) != 0)) {
        UTF8DFA_LEAVE_AVX();
        c.i = i;
        c.o = o;
        if (!scalar_region<Strict>(p, n, i + k, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
        i = c.i;
        o = c.o;
        break;
      }
      char16_t* const next =
          k == 16 ? store_utf16_values16(kc, o, v) : store_code_points(kc, o, v, static_cast<unsigned>(k));
      bmp_blocks = static_cast<std::size_t>(next - o) == k ? bmp_blocks + 1 : 0;  // one unit each
      o = next;
      i += k;
      if (bmp_blocks == 2) break;  // back to the tight loop
    }
    tight = true;
  }
  return {n, static_cast<std::size_t>(o - out), c.first};
}

/// The kernel entry: up to 16 values in one masked vector of any scalar values (an error there: the
/// scalar code); up to 256, blocks of 32 of the BMP in few_bmp_units (before any constant of the
/// loop is set up); the rest by utf32_to_utf16_by (from the first block with others on). Empty
/// input touches no memory (see utf16_to_utf32).
UTF8DFA_TARGET_AVX512 inline packed_conversion utf32_to_utf16(const char32_t* p, std::size_t n, char16_t* out,
                                                              char32_t repl) noexcept {
  std::size_t i = 0;
  if (n <= 16) {
    if (n == 0) return {0, 0, error_code::none};
    const __m512i v = _mm512_maskz_loadu_epi32(mask16(n), p);
    const __mmask16 sur =
        _mm512_cmplt_epu32_mask(_mm512_sub_epi32(v, _mm512_set1_epi32(0xD800)), _mm512_set1_epi32(0x800));
    if (UTF8DFA_LIKELY((sur | _mm512_cmpgt_epu32_mask(v, _mm512_set1_epi32(0x10FFFF))) == 0)) {
      const cp_constants kc;
      return {n, static_cast<std::size_t>(store_code_points(kc, out, v, static_cast<unsigned>(n)) - out),
              error_code::none};
    }
    UTF8DFA_LEAVE_AVX();
    return scalar_utf32_to_utf16(p, n, out, repl);
  }
  if (n <= 256) {
    i = few_bmp_units(p, n, out, low_words_index());
    if (i == n) return {n, n, error_code::none};
  }
  return repl == strict_marker ? utf32_to_utf16_by<true>(p, n, out, repl, i)
                               : utf32_to_utf16_by<false>(p, n, out, repl, i);
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
