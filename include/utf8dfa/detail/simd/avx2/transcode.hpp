// utf8dfa: AVX2 transcoding kernels. Same results as the scalar functions of scalar.hpp, byte for
// byte, for both policies. Valid blocks go through the vector path; a block holding an error is
// re-run through the scalar DFA up to the block end. AVX2 has no byte-masked stores: a store writes
// exactly the units produced (vpmaskmovd plus single bytes), unless the next block is known to be
// valid, so that its output will overwrite whatever a full-width store wrote past ours. The last
// few units of the input are finished by the scalar function.
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_TRANSCODE_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_TRANSCODE_HPP

#include "../../kernel_table.hpp"
#include "../../scalar.hpp"
#include "../target.hpp"
#include "../transcode_common.hpp"
#include "utf8_block.hpp"
#include "validate.hpp"

#if UTF8DFA_X86_KERNELS
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

/// Shuffle tables, built here rather than written out, at run time: as constants they were
/// evaluated in every translation unit that includes the kernels (about 50 ms of g++'s time and
/// 150 ms of clang's). `tables` is zero until prepare_tables() fills it; every kernel entry below
/// that reads it calls prepare_tables() first (tests/first_use checks each in a fresh process).
struct shuffle_tables {
  /// For an 8-bit mask: the indices of its set bits, one per byte, lowest first (left-packing dwords).
  std::uint64_t pack_dwords[256]{};
  /// For four dwords holding UTF-8 forms of lengths 1..4, indexed by the bits of length - 1 (bit c:
  /// bit 0 of form c's, bit c + 4: bit 1 of form c's): the vpshufb control that packs their bytes,
  /// and the packed length.
  std::uint8_t pack_utf8[256][16]{};
  std::uint8_t packed_length[256]{};
  /// The same for four dwords holding a 1-byte form in byte 0, a 2-byte form in bytes 1-2 or a
  /// 3-byte form in bytes 0-2 (bit c: form c is 1 byte long, bit c + 4: at most 2 bytes); byte 15
  /// of the control is the packed length (at most 12: the shuffle's byte 15 is never kept).
  std::uint8_t pack_bmp_utf8[256][16]{};
  /// For an 8-bit mask: the vpshufb control that packs the words it selects, lowest first.
  std::uint8_t pack_words[256][16]{};
  /// For 8 words holding UTF-8 forms of 1 or 2 bytes (bit k set: word k's form is 2 bytes long):
  /// the vpshufb control that packs them (the packed length is 8 plus the set bits).
  std::uint8_t pack_short_utf8[256][16]{};
};

inline shuffle_tables build_shuffle_tables() noexcept {
  shuffle_tables t{};
  for (unsigned m = 0; m < 256; ++m) {
    unsigned k = 0;
    for (unsigned b = 0; b < 8; ++b)
      if ((m >> b) & 1u) t.pack_dwords[m] |= std::uint64_t{b} << (8 * k++);
    unsigned pos = 0;
    for (unsigned c = 0; c < 4; ++c)
      for (unsigned b = 0; b <= ((m >> c) & 1u) + 2 * ((m >> (c + 4)) & 1u); ++b)
        t.pack_utf8[m][pos++] = static_cast<std::uint8_t>(4 * c + b);
    t.packed_length[m] = static_cast<std::uint8_t>(pos);
    unsigned at = 0;
    for (unsigned c = 0; c < 4; ++c) {
      const unsigned len = ((m >> c) & 1u) != 0 ? 1 : ((m >> (c + 4)) & 1u) != 0 ? 2 : 3;
      const unsigned first = len == 2 ? 1 : 0;
      for (unsigned b = 0; b < len; ++b) t.pack_bmp_utf8[m][at++] = static_cast<std::uint8_t>(4 * c + first + b);
    }
    t.pack_bmp_utf8[m][15] = static_cast<std::uint8_t>(at);
    for (; at < 15; ++at) t.pack_bmp_utf8[m][at] = 0x80;
    unsigned w = 0;
    for (unsigned b = 0; b < 8; ++b)
      if ((m >> b) & 1u) {
        t.pack_words[m][w++] = static_cast<std::uint8_t>(2 * b);
        t.pack_words[m][w++] = static_cast<std::uint8_t>(2 * b + 1);
      }
    for (; w < 16; ++w) t.pack_words[m][w] = 0x80;
    for (; pos < 16; ++pos) t.pack_utf8[m][pos] = 0x80;  // zero
    unsigned bytes = 0;
    for (unsigned u = 0; u < 8; ++u)
      for (unsigned b = 0; b <= ((m >> u) & 1u); ++b)
        t.pack_short_utf8[m][bytes++] = static_cast<std::uint8_t>(2 * u + b);
    for (; bytes < 16; ++bytes) t.pack_short_utf8[m][bytes] = 0x80;
  }
  return t;
}

inline shuffle_tables tables{};

/// True once `tables` is filled.
inline std::atomic<bool> tables_ready{false};

/// Fills `tables`, once (a thread-safe local static). Out of line: inlined into each kernel entry,
/// its 18 KB temporary gave every call a frame of that size and six registers to save (the entries
/// of the conversions, 5-15% of the time of a 64-byte call).
UTF8DFA_NOINLINE inline void build_tables_once() noexcept {
  static const bool ready =
      (tables = build_shuffle_tables(), tables_ready.store(true, std::memory_order_release), true);
  static_cast<void>(ready);
}

/// Makes sure `tables` is filled, before the first kernel that reads them.
UTF8DFA_ALWAYS_INLINE void prepare_tables() noexcept {
  if (UTF8DFA_UNLIKELY(!tables_ready.load(std::memory_order_acquire))) build_tables_once();
}

/// w with the two bytes of each 16-bit unit exchanged when Swap (UTF-16 in the byte order opposite
/// to the host's, as loaded or to be stored): one byte shuffle.
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i in_order16(__m256i w) noexcept {
  if constexpr (Swap)
    return _mm256_shuffle_epi8(w, _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5,
                                                   4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  else
    return w;
}

template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i in_order16(__m128i w) noexcept {
  if constexpr (Swap)
    return _mm_shuffle_epi8(w, _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  else
    return w;
}

/// The 16 UTF-16 units at p in host order (exchanged as loaded when Swap).
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i load16(const char16_t* p) noexcept {
  return in_order16<Swap>(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

/// Stores the first `count` (< 8) bytes of v at o, and nothing else (in pieces of 4, 2 and 1 bytes:
/// masked stores are slow on some CPUs).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void store_bytes(unsigned char* o, __m128i v, unsigned count) noexcept {
  std::uint64_t bytes = static_cast<std::uint64_t>(_mm_cvtsi128_si64(v));
  if ((count & 4u) != 0) {
    const auto four = static_cast<std::uint32_t>(bytes);
    std::memcpy(o, &four, 4);
    o += 4;
    bytes >>= 32;
  }
  if ((count & 2u) != 0) {
    const auto two = static_cast<std::uint16_t>(bytes);
    std::memcpy(o, &two, 2);
    o += 2;
    bytes >>= 16;
  }
  if ((count & 1u) != 0) *o = static_cast<unsigned char>(bytes);
}

/// v's bytes from byte `from` on, moved to the front (a shuffle by an index of `from` added).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i bytes_from(__m128i v, unsigned from) noexcept {
  return _mm_shuffle_epi8(v, _mm_add_epi8(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                          _mm_set1_epi8(static_cast<char>(from))));
}

/// Stores the first `count` (<= 16) bytes of v at o, and nothing else. From 8 on by two stores of
/// 8 bytes, the first 8 and the last 8 (moved to the front by a shuffle), over each other when
/// fewer than 16; below by store_bytes. (On AMD Zen 4 the masked store this replaced held a
/// quarter of the profile of UTF-32 to UTF-16 on text with emoji; without it UTF-8 to UTF-32 at
/// 64 B ran 1.38x -> 1.78x simdutf haswell.)
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void store_exact(unsigned char* o, __m128i v, unsigned count) noexcept {
  if (count >= 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), v);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o + count - 8), bytes_from(v, count - 8));
  } else {
    store_bytes(o, v, count);
  }
}

/// Stores the first `count` (<= 8) dwords of v at o: from 4 on, the first 4 and the last 4 (as
/// store_exact of bytes does), below by store_exact of their bytes.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void store_exact(char32_t* o, __m256i v, unsigned count) noexcept {
  if (count >= 4) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), _mm256_castsi256_si128(v));
    const __m256i last = _mm256_permutevar8x32_epi32(
        v, _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(static_cast<int>(count - 4))));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + count - 4), _mm256_castsi256_si128(last));
  } else {
    store_exact(reinterpret_cast<unsigned char*>(o), _mm256_castsi256_si128(v), 4 * count);
  }
}

/// Stores the first `count` (<= 8) words of v at o (store_exact of their bytes).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void store_exact(char16_t* o, __m128i v, unsigned count) noexcept {
  store_exact(reinterpret_cast<unsigned char*>(o), v, 2 * count);
}

/// Decodes, in each 16-bit lane holding (byte, next byte) in `pairs` and the byte after them in the
/// low byte of `thirds`, the 1-, 2- or 3-byte form starting there (meaningful at lead bytes only).
template <bool Three>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i decode_bmp(__m256i pairs, __m256i thirds) noexcept {
  // (b0 & 1F) * 64 + (b1 & 3F): the 2-byte value; a 3-byte lead has bit 4 clear, so shifting this by
  // 6 in a 16-bit lane leaves (b0 & 0F) << 12 | (b1 & 3F) << 6, and b2's payload completes it.
  const __m256i two =
      _mm256_maddubs_epi16(_mm256_and_si256(pairs, _mm256_set1_epi16(0x3F1F)), _mm256_set1_epi16(0x0140));
  const __m256i multi = _mm256_srai_epi16(_mm256_slli_epi16(pairs, 8), 15);  // b0 >= 80 (C0..EF at a lead)
  __m256i wide = two;
  if constexpr (Three) {
    const __m256i full = _mm256_or_si256(_mm256_slli_epi16(two, 6), _mm256_and_si256(thirds, _mm256_set1_epi16(0x3F)));
    wide = _mm256_blendv_epi8(two, full, _mm256_srai_epi16(_mm256_slli_epi16(pairs, 10), 15));  // bit 5: E0..EF
  } else {
    static_cast<void>(thirds);
  }
  return _mm256_blendv_epi8(_mm256_and_si256(pairs, _mm256_set1_epi16(0x7F)), wide, multi);
}

/// Writes the 8 words of `units` selected by `sel` (not 0), packed, as UTF-32 or UTF-16, with
/// full-width stores: up to 7 units past the result are overwritten. (UTF-16 with its bytes
/// exchanged when Swap, here and below.)
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* spill_short(Out* o, __m128i units, unsigned sel) noexcept {
  const __m128i packed =
      _mm_shuffle_epi8(units, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[sel])));
  if constexpr (sizeof(Out) == 2)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), in_order16<Swap>(packed));
  else
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm256_cvtepu16_epi32(packed));
  return o + _mm_popcnt_u32(sel);
}

/// Writes the BMP code points of the 8 words of `units` selected by `sel`, packed, as UTF-32 or UTF-16.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* store_short(Out* o, __m128i units, unsigned sel) noexcept {
  const __m128i packed =
      _mm_shuffle_epi8(units, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[sel])));
  const auto count = static_cast<unsigned>(__builtin_popcount(sel));
  if constexpr (sizeof(Out) == 2)
    store_exact(o, in_order16<Swap>(packed), count);
  else
    store_exact(o, _mm256_cvtepu16_epi32(packed), count);
  return o + count;
}

/// The 1..3-byte forms of the valid block v decoded at every position (meaningful at leads), in four
/// groups of 8 words: positions 0-7, 8-15, 16-23, 24-31. `next` and `after` hold the byte after
/// each position and the one after that (`after` is used only with Three).
struct bmp_groups {
  __m128i group[4];
};

template <bool Three>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bmp_groups decode_bmp_groups(__m256i v, __m256i next,
                                                                       __m256i after) noexcept {
  // Each position's (byte, next byte) as a word, and the byte after: unpacking gives positions
  // 0-7|16-23 (even) and 8-15|24-31 (odd).
  __m256i third_lo = next, third_hi = next;
  if constexpr (Three) {
    third_lo = _mm256_unpacklo_epi8(after, after);
    third_hi = _mm256_unpackhi_epi8(after, after);
  } else {
    static_cast<void>(after);
  }
  const __m256i even = decode_bmp<Three>(_mm256_unpacklo_epi8(v, next), third_lo);
  const __m256i odd = decode_bmp<Three>(_mm256_unpackhi_epi8(v, next), third_hi);
  return {{_mm256_castsi256_si128(even), _mm256_castsi256_si128(odd), _mm256_extracti128_si256(even, 1),
           _mm256_extracti128_si256(odd, 1)}};
}

/// Decodes the characters of the valid block v (forms of 1..3 bytes) that start at the positions
/// `starts` and writes them (decode_bmp_groups); `spill` allows full-width stores (see spill_short).
template <bool Three, bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* decode_bmp_forms(Out* o, __m256i v, __m256i next, __m256i after,
                                                                std::uint32_t starts, bool spill) noexcept {
  const bmp_groups g = decode_bmp_groups<Three>(v, next, after);
  const unsigned s0 = starts & 0xFFu, s1 = (starts >> 8) & 0xFFu, s2 = (starts >> 16) & 0xFFu, s3 = starts >> 24;
  if (spill) {
    if (s0 != 0) o = spill_short<Swap>(o, g.group[0], s0);
    if (s1 != 0) o = spill_short<Swap>(o, g.group[1], s1);
    if (s2 != 0) o = spill_short<Swap>(o, g.group[2], s2);
    if (s3 != 0) o = spill_short<Swap>(o, g.group[3], s3);
    return o;
  }
  o = store_short<Swap>(o, g.group[0], s0);
  o = store_short<Swap>(o, g.group[1], s1);
  o = store_short<Swap>(o, g.group[2], s2);
  return store_short<Swap>(o, g.group[3], s3);
}

/// decode_bmp_forms on the block v at p, the bytes after each position loaded (34 bytes readable).
template <bool Three, bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* decode_block_bmp(Out* o, const unsigned char* p, __m256i v,
                                                                std::uint32_t starts, bool spill) noexcept {
  const __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1));
  const __m256i after = Three ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 2)) : next;
  return decode_bmp_forms<Three, Swap>(o, v, next, after, starts, spill);
}

/// The 32 bytes of v moved down by N (bytes N..31 to positions 0..31-N), zeros shifted in: the
/// bytes after each position without a read past the block.
template <int N>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i next_bytes(__m256i v) noexcept {
  return _mm256_alignr_epi8(_mm256_permute2x128_si256(v, v, 0x81), v, N);
}

/// Writes the first `count` (1..8) code points of cp (scalar values) as UTF-32 or UTF-16; with
/// `spill`, full-width stores may write up to 8 units past the result.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* store_code_points(Out* o, __m256i cp, unsigned count,
                                                                 bool spill) noexcept {
  if constexpr (sizeof(Out) == 4) {
    if (spill)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), cp);
    else
      store_exact(o, cp, count);
    return o + count;
  } else {
    const __m256i live =
        _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i supp = _mm256_and_si256(_mm256_cmpgt_epi32(cp, _mm256_set1_epi32(0xFFFF)), live);
    if (_mm256_testz_si256(supp, supp)) {
      const __m128i words =
          in_order16<Swap>(_mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi32(cp, cp), 0x08)));
      if (spill)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(o), words);
      else
        store_exact(o, words, count);
      return o + count;
    }
    // A supplementary value becomes the dword (low surrogate << 16 | high surrogate); the words kept
    // are the first of each live dword and the second of each supplementary one.
    const __m256i high = _mm256_add_epi32(_mm256_srli_epi32(cp, 10), _mm256_set1_epi32(0xD7C0));
    const __m256i low = _mm256_or_si256(_mm256_and_si256(cp, _mm256_set1_epi32(0x3FF)), _mm256_set1_epi32(0xDC00));
    const __m256i units =
        in_order16<Swap>(_mm256_blendv_epi8(cp, _mm256_or_si256(high, _mm256_slli_epi32(low, 16)), supp));
    const __m256i keep = _mm256_or_si256(_mm256_and_si256(live, _mm256_set1_epi32(0xFFFF)),
                                         _mm256_and_si256(supp, _mm256_set1_epi32(static_cast<int>(0xFFFF0000u))));
    const auto m = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_packs_epi16(keep, keep)));
    const unsigned k0 = m & 0xFFu, k1 = (m >> 16) & 0xFFu;
    const __m128i first = _mm_shuffle_epi8(_mm256_castsi256_si128(units),
                                           _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[k0])));
    const __m128i second = _mm_shuffle_epi8(_mm256_extracti128_si256(units, 1),
                                            _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[k1])));
    const auto n0 = static_cast<unsigned>(_mm_popcnt_u32(k0)), n1 = static_cast<unsigned>(_mm_popcnt_u32(k1));
    if (spill) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o), first);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o + n0), second);
    } else {
      store_exact(o, first, n0);
      store_exact(o + n0, second, n1);
    }
    return o + n0 + n1;
  }
}

/// Copies the `n` (4 <= n <= 128) bytes at p to `to`, which has room for 128 bytes (those after the
/// copy become zero), reading nothing past p + n: masked dword loads (masked-out dwords are not
/// read) and the last n % 4 bytes merged in registers (a store of its own would delay the loads
/// that read the copy back). No library call: GCC turns copy loops into memcpy, whose AVX-512 form
/// can leave vector state that makes the SSE code after it (the caller's) slow.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void copy_short(unsigned char* to, const unsigned char* p,
                                                          std::size_t n) noexcept {
  const auto dwords = static_cast<int>(n / 4);
  const auto rest = static_cast<unsigned>(n % 4);
  std::uint32_t last = 0;
  std::memcpy(&last, p + n - 4, 4);
  const __m256i partial = _mm256_set1_epi32(rest == 0 ? 0 : static_cast<int>(last >> (8 * (4 - rest))));
  const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (int k = 0; k < 4; ++k) {
    const __m256i at = _mm256_set1_epi32(dwords - 8 * k);
    const __m256i whole =
        _mm256_maskload_epi32(reinterpret_cast<const int*>(p + 32 * k), _mm256_cmpgt_epi32(at, index));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 32 * k),
                        _mm256_blendv_epi8(whole, partial, _mm256_cmpeq_epi32(at, index)));
  }
}

/// Copies `count` units from `from` to o with vector loads and stores, writing nothing past o + count
/// (and no library call, see copy_short).
template <class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void copy_units_out(Out* o, const Out* from, std::size_t count) noexcept {
  constexpr std::size_t per = 32 / sizeof(Out);
  if (count >= per) {
    for (std::size_t j = 0; j < count - per; j += per) {
      __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + j));
      __asm__("" : "+x"(v));  // (not a memcpy)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + j), v);
    }
    // The last vector ends at o + count (overlapping the one before: the same units again).
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + count - per),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + count - per)));
    return;
  }
  // Fewer than 32 bytes: from 16 on the first 16 and the last 16, below store_exact.
  const auto bytes = static_cast<unsigned>(count * sizeof(Out));
  const auto* src = reinterpret_cast<const unsigned char*>(from);
  auto* dst = reinterpret_cast<unsigned char*>(o);
  if (bytes >= 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + bytes - 16),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + bytes - 16)));
  } else {
    store_exact(dst, _mm_loadu_si128(reinterpret_cast<const __m128i*>(src)), bytes);
  }
}

/// Decodes, from p + i on, eight 3-byte forms at a time (24 bytes, each a lead E0..EF and two
/// continuation bytes whose value is neither below U+0800 nor a surrogate) while such a run follows
/// and at least 32 bytes are left; returns the position it stopped at (i when none was taken).
/// Reads at most 28 bytes past each position it starts a group at; writes exactly what it decodes.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t decode_three_run(const unsigned char* p, std::size_t i,
                                                                       std::size_t n, Out*& o) noexcept {
  // Each lane holds four forms in bytes 0..11 (positions i..i+11, then i+12..i+23).
  const __m256i class_mask = _mm256_setr_epi8(-16, -64, -64, -16, -64, -64, -16, -64, -64, -16, -64, -64, 0, 0, 0, 0,
                                              -16, -64, -64, -16, -64, -64, -16, -64, -64, -16, -64, -64, 0, 0, 0, 0);
  const __m256i class_want =
      _mm256_setr_epi8(-32, -128, -128, -32, -128, -128, -32, -128, -128, -32, -128, -128, 0, 0, 0, 0, -32, -128, -128,
                       -32, -128, -128, -32, -128, -128, -32, -128, -128, 0, 0, 0, 0);
  // Per dword: (third byte, second byte, lead, zero).
  const __m256i gather = _mm256_setr_epi8(2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1, 2, 1, 0, -1, 5, 4, 3,
                                          -1, 8, 7, 6, -1, 11, 10, 9, -1);
  while (n - i >= 32) {
    const __m256i v =
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))),
                                _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 12)), 1);
    const __m256i shape = _mm256_cmpeq_epi8(_mm256_and_si256(v, class_mask), class_want);
    const __m256i bits = _mm256_and_si256(_mm256_shuffle_epi8(v, gather), _mm256_set1_epi32(0x000F3F3F));
    const __m256i cp =
        _mm256_madd_epi16(_mm256_maddubs_epi16(bits, _mm256_set1_epi16(0x4001)), _mm256_set1_epi32(0x10000001));
    // Overlong (below 800) or a surrogate (D800..DFFF).
    const __m256i bad =
        _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(0x800), cp),
                        _mm256_cmpeq_epi32(_mm256_and_si256(cp, _mm256_set1_epi32(0xF800)), _mm256_set1_epi32(0xD800)));
    if (static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_andnot_si256(bad, shape))) != 0xFFFFFFFFu) break;
    if constexpr (sizeof(Out) == 4) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), cp);
    } else {
      const __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(cp, cp), 0x08);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o), in_order16<Swap>(_mm256_castsi256_si128(words)));
    }
    o += 8;
    i += 24;
  }
  return i;
}

/// Bytes of zeros after the input that the blocks of utf8_to_utf_impl need (a block and the 8
/// bytes its last window may touch).
inline constexpr std::size_t utf8_block_reach = 40;

/// Bytes left below which utf8_to_utf_impl's blocks stop and finish_padded takes the rest: what a
/// block needs. The blocks with no next block to check store exactly (the last blocks, in the
/// padded copy, store full-width into its buffer).
inline constexpr std::size_t padded_below = utf8_block_reach;

/// UTF-8 input under this many bytes goes to the scalar DFA when it is mostly ASCII (kernels.hpp).
inline constexpr std::size_t mostly_ascii_below = 72;

/// assume_valid's stand-in for utf8_block_has_error on the block at q (its first 32 bytes v; 40
/// readable), as in the NEON kernel: true when the block goes to the scalar DFA, because it holds
/// a run of continuation bytes as long as its longest form (so every piece the block loop takes,
/// a byte that is no continuation byte and those after it, has 1 to 4 bytes, and the loop
/// advances), or a byte F0..FF not followed by three continuation bytes (so a value that takes a
/// surrogate pair comes only from 4 bytes). Each piece then writes one unit, or two for 4 bytes,
/// where replace writes at least as many: unchecked, the output stays within replace's size.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf8_block_unguarded(const unsigned char* q, __m256i v,
                                                                    const byte_constants& k) noexcept {
  const __m256i limit = k.lead_min;
  const auto cont = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(limit, v)));
  const auto four = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_subs_epu8(v, k.four_min)));
  const std::uint32_t two = cont & (cont >> 1);  // bit k: bytes k, k+1 are continuation bytes
  if (four != 0) {
    const auto after = static_cast<std::uint32_t>(_mm256_movemask_epi8(
                           _mm256_cmpgt_epi8(limit, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 8))))) >>
                       24;  // bytes 32..39
    const std::uint64_t all = cont | std::uint64_t{after} << 32;
    const auto follow = static_cast<std::uint32_t>((all >> 1) & (all >> 2) & (all >> 3));
    return ((two & (two >> 2)) | (four & ~follow)) != 0;
  }
  const auto three = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_subs_epu8(v, k.three_min)));
  return (three != 0 ? two & (cont >> 2) : two) != 0;
}

/// The block test of utf8_to_utf_impl: the check, or without Check (assume_valid) the guard.
template <bool Check>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf8_block_fails(const unsigned char* q, __m256i v,
                                                                const byte_constants& k) noexcept {
  if constexpr (Check)
    return utf8_block_has_error(v, k);
  else
    return utf8_block_unguarded(q, v, k);
}

/// utf8_block_fails for the block v at q that follows the block `before` and may start inside a
/// character that `before` starts (its first bytes continuation bytes, at most 3 when it passes).
template <bool Check>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf8_block_after_fails(const unsigned char* q, __m256i v, __m256i before,
                                                                      const byte_constants& k) noexcept {
  if constexpr (Check)
    return utf8_block_after_has_error(v, before, k);
  else
    return utf8_block_unguarded(q, v, k);
}

/// The block loop of utf8_to_utf_impl (with `Tail`): over a copy of the input's last `n` (< 40)
/// bytes followed by zero bytes; blocks run until they have passed the input's end. Each zero byte
/// is a character of its own (U+0000) that writes one zero unit; so when no block holds an error,
/// the input's output is the copy's less one unit per zero byte the blocks passed.
/// UTF-16 is written with the bytes of each unit exchanged when Swap. Without Check (assume_valid),
/// blocks are guarded (utf8_block_unguarded), not checked. Aligned to 64 bytes: where the linker
/// left it, the allocating UTF-8 to UTF-16 of 64 bytes moved from 1.67x simdutf to 1.36x with a
/// change of the block loop that a 64-byte call does not run (1.58x aligned).
template <bool Strict, class Out, bool Tail = false, bool Swap = false, bool Check = true>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALIGN_CODE packed_conversion utf8_to_utf_impl(const unsigned char* p, std::size_t n,
                                                                          Out* out, char32_t replacement) noexcept;

/// The `left` (8 to padded_below - 1) bytes at q widened into o when they are all ASCII (true);
/// false, nothing written, otherwise. Groups of 8 or 16 bytes, the last one ending at the end
/// (overlapping the one before): no read or write outside the bytes and their units.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool widen_ascii_tail(const unsigned char* q, std::size_t left,
                                                                Out* o) noexcept {
  static_assert(padded_below <= 96, "three vectors test the tail");
  if (left >= 32) {
    __m256i any = _mm256_or_si256(load(q), load(q + left - 32));
    if (left > 64) any = _mm256_or_si256(any, load(q + 32));
    if (_mm256_movemask_epi8(any) != 0) return false;
  } else {
    std::uint64_t any = load64(q) | load64(q + left - 8);
    if (left > 16) any |= load64(q + 8);
    if (left > 24) any |= load64(q + 16);
    if ((any & high_bits) != 0) return false;
  }
  if constexpr (sizeof(Out) == 4) {
    for (std::size_t k = 0; k < left; k += 8) {
      const std::size_t at = left - k >= 8 ? k : left - 8;
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + at),
                          _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + at))));
    }
  } else if (left >= 16) {
    std::size_t k = 0;
    for (; left - k >= 16; k += 16)
      _mm256_storeu_si256(
          reinterpret_cast<__m256i*>(o + k),
          in_order16<Swap>(_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + k)))));
    if (k < left)
      _mm256_storeu_si256(
          reinterpret_cast<__m256i*>(o + left - 16),
          in_order16<Swap>(_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + left - 16)))));
  } else {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o),
                     in_order16<Swap>(_mm_cvtepu8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q)))));
    _mm_storeu_si128(
        reinterpret_cast<__m128i*>(o + left - 8),
        in_order16<Swap>(_mm_cvtepu8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + left - 8)))));
  }
  return true;
}

/// The bytes of the 32 at v that are not continuation bytes (ASCII and leads), a bit each.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::uint32_t non_continuation(__m256i v, const byte_constants& k) noexcept {
  return ~static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(k.lead_min, v)));
}

/// The bytes of the 32 at v that are F0..FF, a bit each.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::uint32_t four_leads(__m256i v, const byte_constants& k) noexcept {
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_subs_epu8(v, k.four_min)));
}

/// Bytes FF at the positions from `from` (at most 31) on, 00 before.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i byte_mask_from(unsigned from) noexcept {
  const __m256i position = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                            21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
  return _mm256_cmpgt_epi8(position, _mm256_set1_epi8(static_cast<char>(static_cast<int>(from) - 1)));
}

/// True when the 32 bytes v, read as the start of a text, hold an error (utf8_block_errors) at a
/// position from `from` on.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool errors_from(__m256i v, unsigned from, const byte_constants& k) noexcept {
  return !_mm256_testz_si256(utf8_block_errors(v, k), byte_mask_from(from));
}

/// The length of the form a lead byte (or ASCII byte) b starts: 1 to 4.
constexpr unsigned lead_length(unsigned b) noexcept {
  return b < 0x80u ? 1u : b < 0xE0u ? 2u : b < 0xF0u ? 3u : 4u;
}

/// True when the input's bytes from `from` on (8 to 29 of them, n >= 32) are well-formed, end with a
/// whole character and hold 8 characters or more: whatever the policy, they then write 8 units or
/// more. (Checked in the input's last 32 bytes, from the fourth on, the three before being those of
/// whole characters.)
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool rest_writes_8(const unsigned char* p, std::size_t n, std::size_t from,
                                                             const byte_constants& k) noexcept {
  const __m256i last = load(p + n - 32);
  const auto s = static_cast<unsigned>(from - (n - 32));
  const std::uint32_t starts = non_continuation(last, k);
  if (_mm_popcnt_u32(starts >> s) < 8 || errors_from(last, s, k)) return false;
  const unsigned at = 31u - static_cast<unsigned>(__builtin_clz(starts));
  const unsigned b = p[n - 32 + at];
  return at + lead_length(b) <= 32;
}

/// decode_bmp_forms writing exactly up to `end`: a group's 8 units in full while they end by it,
/// the group that would pass it by exact stores.
template <bool Three, bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* decode_bmp_until(Out* o, __m256i v, __m256i next, __m256i after,
                                                                std::uint32_t starts, const Out* end) noexcept {
  const bmp_groups g = decode_bmp_groups<Three>(v, next, after);
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned sel = (starts >> (8 * k)) & 0xFFu;
    if (sel == 0) continue;
    o = end - o >= 8 ? spill_short<Swap>(o, g.group[k], sel) : store_short<Swap>(o, g.group[k], sel);
  }
  return o;
}

/// The last bytes of a conversion (from c.i: 8 to padded_below - 1 of them, n >= 32) decoded in
/// place, with no read past the input and no write past their output: first checked whole (Check)
/// by overlapping blocks (the 32 bytes at c.i and the input's last 32, read from its fourth byte on
/// or more where the first ends) and their units counted (one per byte that is no
/// continuation byte), then decoded by blocks, each the 32 bytes at c.i or, fewer being left, the
/// input's last 32 with their positions before c.i (characters already written) left out; the
/// bytes after each position come from the block by shifts, and the stores that would pass the
/// output's end are exact. Forms of 1 to 3 bytes only. Returns true at the input's end; false at a
/// byte F0..FF, an error, the input ending inside a character or (unchecked) a block that would not
/// advance: nothing written when checked, and the caller's padded copy or the scalar DFA takes the
/// rest from c.i (unchecked, what was written stays within the units counted, one for each piece
/// that replace writes at least one for).
template <bool Swap, bool Check, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool finish_in_place(const unsigned char* p, std::size_t n,
                                                               transcode_cursor<Out>& c,
                                                               const byte_constants& k) noexcept {
  static_assert(padded_below <= 62, "the block at c.i and the last overlap by 3 bytes or more");
  const std::size_t left = n - c.i;
  const __m256i last = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 32));
  std::size_t units = 0;
  std::size_t covered = c.i;  // the bytes before it checked and counted
  if (left > 32) {            // (32 bytes: the last block alone, from its start)
    const __m256i first = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    if (four_leads(first, k) != 0 || (Check && errors_from(first, 0, k))) return false;
    units = static_cast<std::size_t>(_mm_popcnt_u32(non_continuation(first, k)));
    covered += 32;
  }
  const auto s = static_cast<unsigned>(covered - (n - 32));  // (3 to 31 when the blocks before cover c.i)
  const std::uint32_t last_starts = non_continuation(last, k), tail_starts = last_starts >> s;
  if (four_leads(last, k) >> s != 0) return false;
  if constexpr (Check) {
    // Without blocks before, the bytes before c.i read as zeros: c.i starts the text checked, as
    // the first block does. (It follows whole characters here: the blocks resume after an error
    // 37 bytes or more before the end. Were it a continuation byte that the bytes before would
    // take, as after ED A0 | 80, the check would then still see it.)
    const __m256i checked = covered == c.i ? _mm256_and_si256(last, byte_mask_from(s)) : last;
    if (errors_from(checked, s, k)) return false;
  }
  units += static_cast<std::size_t>(_mm_popcnt_u32(tail_starts));
  if (last_starts != 0) {  // the input may not end inside a character (whose lead may come before s)
    const unsigned at = 31u - static_cast<unsigned>(__builtin_clz(last_starts));
    const unsigned b = p[n - 32 + at];
    if (at + lead_length(b) > 32) return false;
  }
  const Out* const end = c.o + units;
  while (c.i < n) {
    const std::size_t at = n - c.i >= 32 ? c.i : n - 32;
    const auto from = static_cast<unsigned>(c.i - at);  // positions already written
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + at));
    const std::uint32_t leads = non_continuation(v, k) & (~std::uint32_t{0} << from);
    if (leads == 0) return false;  // (checked input never stops here, nor below)
    const unsigned last_lead = 31u - static_cast<unsigned>(__builtin_clz(leads));
    const unsigned b = p[at + last_lead];
    unsigned take = 32;
    if (last_lead + lead_length(b) > 32) {  // a character cut by the block's end
      if (at + 32 == n) return false;
      take = last_lead;
    }
    const std::uint32_t starts = leads & static_cast<std::uint32_t>((std::uint64_t{1} << take) - 1);
    if (starts == 0) return false;
    const __m256i next = next_bytes<1>(v);
    if (_mm256_movemask_epi8(_mm256_subs_epu8(v, k.three_min)) == 0)
      c.o = decode_bmp_until<false, Swap>(c.o, v, next, next, starts, end);
    else
      c.o = decode_bmp_until<true, Swap>(c.o, v, next, next_bytes<2>(v), starts, end);
    c.i = at + take;
  }
  return true;
}

/// Finishes a conversion whose blocks stopped with fewer than padded_below bytes left: an
/// ASCII tail widened in place, other last bytes decoded in place (finish_in_place, UTF-16) or in
/// a padded copy (utf8_to_utf_impl with `Tail`; UTF-32, and from a 4-byte form on), the scalar DFA when they hold
/// an error (which says where the error is and whether the input ends inside a character).
template <bool Strict, bool Swap, bool Check, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE packed_conversion finish_padded(const unsigned char* p, std::size_t n,
                                                                          Out* out, transcode_cursor<Out> c,
                                                                          char32_t repl,
                                                                          const byte_constants& k) noexcept {
  if (n - c.i >= 8) {
    if ((load64(p + n - 8) & high_bits) == 0 && widen_ascii_tail<Swap>(p + c.i, n - c.i, c.o))
      return {n, static_cast<std::size_t>(c.o - out) + (n - c.i), c.first};
    // (UTF-16 only: for UTF-32 the padded copy was 3-4% faster at 64 and 256 bytes.)
    if constexpr (sizeof(Out) == 2)
      if (n >= 32 && finish_in_place<Swap, Check>(p, n, c, k)) return {n, static_cast<std::size_t>(c.o - out), c.first};
  }
  const std::size_t left = n - c.i;
  if (left >= 8) {
    alignas(32) unsigned char in[128];
    alignas(32) Out converted[160];
    copy_short(in, p + c.i, left);
    const packed_conversion r = utf8_to_utf_impl<true, Out, true, Swap, Check>(in, left, converted, 0);
    if (r.error == error_code::none) {
      const std::size_t written = r.written - (r.read - left);
      copy_units_out(c.o, converted, written);
      return {n, static_cast<std::size_t>(c.o - out) + written, c.first};
    }
  }
  UTF8DFA_LEAVE_AVX();
  return finish_scalar_in_order<Strict, Swap>(p, n, out, c, repl);
}

/// The 32 ASCII bytes v (read from q) widened into 32 units at o (UTF-16 in the order Swap says).
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void widen_ascii32(__m256i v, const unsigned char* q, Out* o) noexcept {
  if constexpr (sizeof(Out) == 4) {
    for (int g = 0; g < 4; ++g)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 8 * g),
                          _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + 8 * g))));
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o),
                        in_order16<Swap>(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(v))));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 16),
                        in_order16<Swap>(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1))));
  }
}

template <bool Strict, class Out, bool Tail, bool Swap, bool Check>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALIGN_CODE packed_conversion utf8_to_utf_impl(const unsigned char* p, std::size_t n,
                                                                          Out* out, char32_t replacement) noexcept {
  transcode_cursor<Out> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  const std::size_t stop = n;  // (Tail: the input's end in the copy)
  if constexpr (Tail) n += utf8_block_reach;
  // Bytes (lead+3, lead+2, lead+1, lead) of positions 0..3 in the low lane and 4..7 in the high one.
  const __m256i window =
      _mm256_setr_epi8(3, 2, 1, 0, 4, 3, 2, 1, 5, 4, 3, 2, 6, 5, 4, 3, 7, 6, 5, 4, 8, 7, 6, 5, 9, 8, 7, 6, 10, 9, 8, 7);
  // Lead-byte high nibble C..F (taken modulo 8) -> right shift and payload mask of the gathered value.
  const __m256i shifts = _mm256_setr_epi32(0, 0, 0, 0, 12, 12, 6, 0);
  const __m256i masks = _mm256_setr_epi32(0, 0, 0, 0, 0x7FF, 0x7FF, 0xFFFF, 0x1FFFFF);
  const byte_constants k = make_byte_constants();
  bool checked = false;  // the block at c.i is known to pass the check
  // A block and the 8 bytes its last window may touch.
  while (Tail ? c.i < stop : n - c.i >= padded_below) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(v));
    if (high == 0) {
      widen_ascii32<Swap>(v, p + c.i, c.o);
      c.i += 32;
      c.o += 32;
      if constexpr (!Tail) {
        // A run of ASCII (English text, markup): 64 bytes a test while it lasts.
        while (n - c.i >= 64) {
          const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
          const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 32));
          if (_mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0) break;
          widen_ascii32<Swap>(a, p + c.i, c.o);
          widen_ascii32<Swap>(b, p + c.i + 32, c.o + 32);
          c.i += 64;
          c.o += 64;
        }
      }
      checked = false;
      continue;
    }
    if constexpr (!Tail) {
      // A run of 3-byte forms (CJK text) may start here: tried only in blocks without ASCII (text
      // with spaces between its words fails too often for the attempt to pay).
      if (high == 0xFFFFFFFFu && (p[c.i] & 0xF0u) == 0xE0u) {
        const std::size_t from = c.i;
        c.i = decode_three_run<Swap>(p, c.i, n, c.o);
        if (c.i != from) {
          checked = false;
          continue;
        }
      }
    }
    if (!checked && UTF8DFA_UNLIKELY(utf8_block_fails<Check>(p + c.i, v, k))) {
      if constexpr (Tail) return {c.i, 0, error_code::invalid_byte};  // (any error: the DFA decides)
      UTF8DFA_LEAVE_AVX();
      if (!scalar_region_in_order<Strict, Swap>(p, n, c.i + 32, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    const auto cont = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(k.lead_min, v)));
    // (Not 0: a block that passed the check or the guard has a lead in its first 4 bytes.)
    const std::uint32_t leads = ~cont;
    const auto fours = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_subs_epu8(v, k.four_min)));
    if (fours == 0x11111111u && leads == fours) {
      // Eight 4-byte forms, one per dword: bytes reversed (the lead highest), payloads gathered.
      const __m256i reversed =
          _mm256_shuffle_epi8(v, _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7,
                                                  6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
      const __m256i bits = _mm256_and_si256(reversed, _mm256_set1_epi32(0x073F3F3F));
      const __m256i cp =
          _mm256_madd_epi16(_mm256_maddubs_epi16(bits, _mm256_set1_epi16(0x4001)), _mm256_set1_epi32(0x10000001));
      if constexpr (sizeof(Out) == 4) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o), cp);
        c.o += 8;
      } else {  // (low surrogate << 16 | high surrogate) per dword
        const __m256i lead = _mm256_add_epi32(_mm256_srli_epi32(cp, 10), _mm256_set1_epi32(0xD7C0));
        const __m256i trail =
            _mm256_or_si256(_mm256_and_si256(cp, _mm256_set1_epi32(0x3FF)), _mm256_set1_epi32(0xDC00));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o),
                            in_order16<Swap>(_mm256_or_si256(lead, _mm256_slli_epi32(trail, 16))));
        c.o += 16;
      }
      c.i += 32;
      checked = false;
      continue;
    }
    const bool four = fours != 0;
    unsigned take = 32;
    // Full-width stores write at most 8 units past the result: safe when the next block passes the
    // check, as its characters complete inside it then cover at least 26 bytes (up to 3 bytes of a
    // character of this block before them, up to 3 of one that it does not finish after): 9 UTF-16
    // units (a unit for 3 bytes at least) or 7 UTF-32 units, as many as full-width stores of UTF-32
    // write past the result (7: a group of 8 of which one at least is kept). (Unchecked: the next
    // block passes the guard, so at least 8 of its bytes are leads, each of which writes a unit or
    // more, in that block or, deferred to its successor, after it.)
    // The next block is checked first, as it follows this one: when it passes, the characters that
    // this block starts are all decoded, the last ones with bytes of the next block, and the next
    // block starts inside a character, which its check has seen (no branch on where the block ends,
    // and the next block's address does not wait for this one's bytes). Not with 4-byte forms: text
    // of them alone goes 8 forms a block from a lead (below), which blocks of 32 bytes from inside
    // a form would never reach again (emoji lipsum after its 3-byte BOM ran at 0.4x the speed).
    checked = !Tail && !four && n - c.i >= 32 + padded_below &&
              !utf8_block_after_fails<Check>(p + c.i + 32,
                                             _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 32)), v, k);
    if (!checked) {
      const unsigned last = 31u - static_cast<unsigned>(__builtin_clz(leads));
      if constexpr (Tail) {  // (the test below made the 64-byte emoji calls 30% slower here)
        const unsigned b = p[c.i + last];
        if (last + lead_length(b) > 32) take = last;
      } else {
        // The block ends inside a character when byte 31 is a lead of 2 or more bytes, byte 30 one
        // of 3 or more, or byte 29 one of 4: then the block takes the bytes before that (its last)
        // lead, and the next block starts with it (a new text for its check).
        const __m256i cut_at = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0x70, 0x60, 0x40);
        if (_mm256_movemask_epi8(_mm256_subs_epu8(v, cut_at)) != 0) take = last;
      }
      checked = n - c.i - take >= 40 &&
                !utf8_block_fails<Check>(p + c.i + take,
                                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + take)), k);
    }
    const std::uint32_t starts = leads & static_cast<std::uint32_t>((std::uint64_t{1} << take) - 1);
    // (With Tail the output is finish_padded's buffer, which has room for them whatever follows.)
    // Else, near the end, when the bytes after the block surely write 8 units or more.
    bool spill = Tail || checked;
    if constexpr (!Tail)
      if (!spill && n - c.i - take <= 29) spill = rest_writes_8(p, n, c.i + take, k);
    if (!four) {  // forms of 1..3 bytes
      if (_mm256_movemask_epi8(_mm256_subs_epu8(v, k.three_min)) == 0)
        c.o = decode_block_bmp<false, Swap>(c.o, p + c.i, v, starts, spill);
      else
        c.o = decode_block_bmp<true, Swap>(c.o, p + c.i, v, starts, spill);
      c.i += take;
      continue;
    }
    for (unsigned g = 0; g < 4; ++g) {
      const unsigned sel = (starts >> (8 * g)) & 0xFFu;
      if (sel == 0) continue;
      const __m256i raw = _mm256_shuffle_epi8(
          _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + c.i + 8 * g))), window);
      const __m256i bits = _mm256_and_si256(raw, _mm256_set1_epi32(0x7F3F3F3F));
      const __m256i value =
          _mm256_madd_epi16(_mm256_maddubs_epi16(bits, _mm256_set1_epi16(0x4001)), _mm256_set1_epi32(0x10000001));
      const __m256i nibble = _mm256_srli_epi32(raw, 28);
      const __m256i multi = _mm256_and_si256(_mm256_srlv_epi32(value, _mm256_permutevar8x32_epi32(shifts, nibble)),
                                             _mm256_permutevar8x32_epi32(masks, nibble));
      const __m256i ascii = _mm256_cmpgt_epi32(raw, _mm256_set1_epi32(-1));  // lead < 0x80
      const __m256i cp = _mm256_blendv_epi8(multi, _mm256_srli_epi32(raw, 24), ascii);
      const __m256i packed = _mm256_permutevar8x32_epi32(
          cp, _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(tables.pack_dwords[sel]))));
      c.o = store_code_points<Swap>(c.o, packed, static_cast<unsigned>(_mm_popcnt_u32(sel)), spill);
    }
    c.i += take;
  }
  if constexpr (Tail)
    return {c.i, static_cast<std::size_t>(c.o - out), error_code::none};
  else
    return finish_padded<Strict, Swap, Check>(p, n, out, c, repl, k);
}

/// The vpshufb control that moves a vector's bytes up by 16 - k (k <= 16) or down by k - 16
/// (16 <= k <= 32), zeros shifted in: 16 bytes of a sliding window.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i slide_control(unsigned k) noexcept {
  alignas(16) static constexpr std::int8_t slide[48] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                                        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(slide + k));
}

/// Stores the `len` (4 to 12) bytes of v at o, and nothing at or past `end` (o + len <= end): one
/// 16-byte store when it ends by `end`, else two overlapping stores of 8 or of 4 bytes.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* put_within(unsigned char* o, __m128i v, unsigned len,
                                                                    const unsigned char* end) noexcept {
  if (end - o >= 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), v);
  } else if (len >= 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), v);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o + len - 8), _mm_shuffle_epi8(v, slide_control(len + 8)));
  } else {
    const auto first = static_cast<std::uint32_t>(_mm_cvtsi128_si32(v));
    const auto last = static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_shuffle_epi8(v, slide_control(len + 12))));
    std::memcpy(o, &first, 4);
    std::memcpy(o + len - 4, &last, 4);
  }
  return o + len;
}

/// Stores the first `a` (at most 16) bytes of `first` and then the first `b` (at most 16) of
/// `second` (the bytes after them zero; a + b >= 8) at o, and nothing past them: the 16 bytes at o
/// and the 16 that end at o + a + b, each assembled from both by shuffles (no masked store); below
/// 16 bytes in all, 8 and 8 the same way.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* put_joined(unsigned char* o, __m128i first, unsigned a,
                                                                    __m128i second, unsigned b) noexcept {
  const __m128i head = _mm_or_si128(first, _mm_shuffle_epi8(second, slide_control(16 - a)));
  if (a + b < 16) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), head);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o + a + b - 8), _mm_shuffle_epi8(head, slide_control(a + b + 8)));
    return o + a + b;
  }
  const __m128i tail =
      _mm_or_si128(_mm_shuffle_epi8(first, slide_control(a + b)), _mm_shuffle_epi8(second, slide_control(b)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o), head);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o + a + b - 16), tail);
  return o + a + b;
}

/// Packs the four 1..4-byte forms of v (one per dword, see pack_utf8).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i pack_utf8_forms(__m128i v, unsigned index) noexcept {
  return _mm_shuffle_epi8(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_utf8[index])));
}

/// The payload fields of the 4-byte forms of the 8 values of cp, first byte lowest (shorter forms
/// drop the leading ones).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i utf8_spread(__m256i cp) noexcept {
  return _mm256_or_si256(
      _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32(cp, 24), k32<0x3F000000u>()),
                      _mm256_and_si256(_mm256_slli_epi32(cp, 10), k32<0x003F0000u>())),
      _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(cp, 4), k32<0x00003F00u>()), _mm256_srli_epi32(cp, 18)));
}

/// The 4-byte forms of the 8 supplementary scalar values of cp, in place.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i four_byte_forms(__m256i cp) noexcept {
  return _mm256_or_si256(utf8_spread(cp), k32<0x808080F0u>());
}

/// Writes the UTF-8 forms of the 8 scalar values of cp; returns the new output position. With
/// `spill`, full 16-byte stores may write up to 12 bytes past the result.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* encode8(unsigned char* o, __m256i cp, bool spill) noexcept {
  const __m256i ge80 = _mm256_cmpgt_epi32(cp, k32<0x7Fu>());
  const __m256i ge800 = _mm256_cmpgt_epi32(cp, k32<0x7FFu>());
  const __m256i ge10000 = _mm256_cmpgt_epi32(cp, k32<0xFFFFu>());
  const __m256i spread = utf8_spread(cp);
  if (_mm256_movemask_ps(_mm256_castsi256_ps(ge10000)) == 0xFF) {  // 4-byte forms only: the bytes are in place
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), four_byte_forms(cp));
    return o + 32;
  }
  const __m256i shift =
      _mm256_add_epi32(k32<24u>(), _mm256_slli_epi32(_mm256_add_epi32(_mm256_add_epi32(ge80, ge800), ge10000), 3));
  __m256i tag = _mm256_and_si256(ge80, k32<0x80C0u>());
  tag = _mm256_blendv_epi8(tag, k32<0x8080E0u>(), ge800);
  tag = _mm256_blendv_epi8(tag, k32<0x808080F0u>(), ge10000);
  const __m256i bytes = _mm256_blendv_epi8(cp, _mm256_or_si256(_mm256_srlv_epi32(spread, shift), tag), ge80);
  // Length - 1 of each form as 2 bits: (ge80 ^ ge800 ^ ge10000, ge800).
  const auto a = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ge80)));
  const auto b = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ge800)));
  const auto c = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ge10000)));
  const unsigned odd = a ^ b ^ c;
  const unsigned lo = (odd & 0x0Fu) | ((b & 0x0Fu) << 4), hi = (odd >> 4) | (b & 0xF0u);
  const __m128i first = pack_utf8_forms(_mm256_castsi256_si128(bytes), lo);
  const __m128i second = pack_utf8_forms(_mm256_extracti128_si256(bytes, 1), hi);
  const unsigned len0 = tables.packed_length[lo], len1 = tables.packed_length[hi];
  if (spill) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), first);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + len0), second);
    return o + len0 + len1;
  }
  return put_joined(o, first, len0, second, len1);
}

/// Stores the 16 bytes v at o when `spill`, else only the first `count` of them; returns o + count.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* put_bytes(unsigned char* o, __m128i v, unsigned count,
                                                                   bool spill) noexcept {
  if (spill)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), v);
  else
    store_exact(o, v, count);
  return o + count;
}

/// The four 1..3-byte forms of v (one per dword) packed with the pack_bmp_utf8 row at byte offset
/// `at` (16 times its index), whose byte 15 is their length.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i bmp_group(__m128i v, unsigned at) noexcept {
  return _mm_shuffle_epi8(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(&tables.pack_bmp_utf8[0][0] + at)));
}

/// Packs the four 1..3-byte forms of v (one per dword) with the pack_bmp_utf8 row at byte offset
/// `at` (16 times its index: GCC then needs no shift) and stores them at o; returns the end.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* pack_bmp_forms(unsigned char* o, __m128i v, unsigned at,
                                                                        bool spill) noexcept {
  const unsigned char* rows = &tables.pack_bmp_utf8[0][0];
  const std::size_t i = at;  // (row + 15 then folds into the address)
  return put_bytes(o, bmp_group(v, at), rows[i + 15], spill);
}

/// The splats encode16 uses, loaded once: a loop that keeps them keeps them in registers (or on
/// its stack, read by the instructions using them), with no address computed per use.
struct unit_constants {
  __m256i ff80, f800, x7ff, x7f, x3f00, x80c0, x80e0, x3f, x80, x4000;
};

UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unit_constants load_unit_constants() noexcept {
  return {k16<0xFF80>(), k16<0xF800>(), k16<0x7FF>(), k16<0x7F>(), k16<0x3F00>(),
          k16<0x80C0>(), k16<0x80E0>(), k16<0x3F>(),  k16<0x80>(), k16<0x4000>()};
}

/// Two-byte forms of the units of w as words (lead, continuation): (110 | u >> 6, 10 | u & 3F).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i two_byte_forms(__m256i w, const unit_constants& k) noexcept {
  return _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi16(w, 6), _mm256_and_si256(_mm256_slli_epi16(w, 8), k.x3f00)),
                         k.x80c0);
}

/// The UTF-16 unit before each unit of w (0 before the first).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i prev_units(__m256i w) noexcept {
  return _mm256_alignr_epi8(w, _mm256_permute2x128_si256(w, w, 0x08), 14);
}

/// The 2 bytes each half of a surrogate pair writes, as words: the scalar value is 10000 +
/// (h & 3FF) << 10 + (l & 3FF); with v = (h & 3FF) + 40, its bytes are F0 | v >> 8, 80 | (v >> 2) & 3F
/// (the high unit's) and 80 | (v & 3) << 4 | (l & 3FF) >> 6, 80 | l & 3F (the low unit's, v & 3
/// being h & 3, taken from the unit before).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i pair_halves(__m256i w, __m256i hs) noexcept {
  const __m256i v = _mm256_add_epi16(_mm256_and_si256(w, k16<0x3FF>()), k16<0x40>());
  const __m256i high_head = _mm256_or_si256(
      _mm256_or_si256(_mm256_srli_epi16(v, 8), _mm256_and_si256(_mm256_slli_epi16(v, 6), k16<0x3F00>())),
      k16<0x80F0>());
  const __m256i low_head =
      _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(prev_units(w), 4), k16<0x30>()),
                                      _mm256_and_si256(_mm256_srli_epi16(w, 6), k16<0x0F>())),
                      _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(w, 8), k16<0x3F00>()), k16<0x8080>()));
  return _mm256_blendv_epi8(low_head, high_head, hs);
}

/// Writes the UTF-8 forms of the 16 UTF-16 units of w: BMP scalar values, and with `Pairs` also
/// surrogate pairs (high units `hs`, low units `ls`, as 16-bit masks), each pair complete inside w
/// except a high unit last, whose 2 bytes are dropped when `drop_last`. A pair's high unit writes
/// the first two bytes of its 4-byte form and its low unit the last two, so every unit gives 1..3
/// bytes. Returns the new output position; with `spill`, full 16-byte stores may write up to 12
/// bytes past the result. `k`: load_unit_constants().
template <bool Pairs>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* encode16(unsigned char* o, __m256i w, __m256i hs, __m256i ls,
                                                                  bool drop_last, bool spill,
                                                                  const unit_constants& k) noexcept {
  if (Pairs && _mm256_movemask_epi8(_mm256_or_si256(hs, ls)) == -1) {  // pairs only: 2 bytes per unit
    const __m256i bytes = pair_halves(w, hs);
    const unsigned count = drop_last ? 30u : 32u;
    if (spill) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), bytes);
    } else {
      store_exact(o, _mm256_castsi256_si128(bytes), 16);
      store_exact(o + 16, _mm256_extracti128_si256(bytes, 1), count - 16);
    }
    return o + count;
  }
  if (!Pairs && _mm256_testz_si256(w, k.f800)) {
    // Forms of 1 and 2 bytes: 8 words per 128-bit lane. The units are below 800: signed compares.
    const __m256i longer = _mm256_cmpgt_epi16(w, k.x7f);
    const __m256i words = _mm256_blendv_epi8(w, two_byte_forms(w, k), longer);
    // Bits 0-7: 2-byte units 0-7, 16-23: units 8-15; the rows are found by byte offset (16 times
    // the index: no shift of the index).
    const auto m = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_packs_epi16(longer, longer)));
    const unsigned char* rows = &tables.pack_short_utf8[0][0];
    const __m128i first = _mm_shuffle_epi8(
        _mm256_castsi256_si128(words), _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + ((m << 4) & 0xFF0u))));
    const __m128i second =
        _mm_shuffle_epi8(_mm256_extracti128_si256(words, 1),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + ((m >> 12) & 0xFF0u))));
    const unsigned a = 8u + static_cast<unsigned>(_mm_popcnt_u32(m & 0xFFu));
    const unsigned b = 8u + static_cast<unsigned>(_mm_popcnt_u32(m & 0xFF0000u));
    if (spill) return put_bytes(put_bytes(o, first, a, true), second, b, true);
    return put_joined(o, first, a, second, b);
  }
  const __m256i ascii = _mm256_cmpeq_epi16(_mm256_min_epu16(w, k.x7f), w);
  const __m256i short2 = _mm256_cmpeq_epi16(_mm256_min_epu16(w, k.x7ff), w);
  // Three-byte forms as the word (1110 | u >> 12, 10 | (u >> 6) & 3F) and the byte 10 | u & 3F.
  const __m256i three = _mm256_or_si256(
      _mm256_or_si256(_mm256_srli_epi16(w, 12), _mm256_and_si256(_mm256_slli_epi16(w, 2), k.x3f00)), k.x80e0);
  const __m256i tail = _mm256_or_si256(_mm256_and_si256(w, k.x3f), k.x80);
  if (!Pairs && _mm256_testz_si256(short2, short2)) {  // 3-byte forms only: 12 bytes per 4 units
    const __m256i drop4th = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6,
                                             8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const __m256i lo = _mm256_shuffle_epi8(_mm256_unpacklo_epi16(three, tail), drop4th);  // units 0-3 | 8-11
    const __m256i hi = _mm256_shuffle_epi8(_mm256_unpackhi_epi16(three, tail), drop4th);  // units 4-7 | 12-15
    // The first three stores spill into the next 12 bytes, which the next store writes.
    o = put_bytes(o, _mm256_castsi256_si128(lo), 12, true);
    o = put_bytes(o, _mm256_castsi256_si128(hi), 12, true);
    o = put_bytes(o, _mm256_extracti128_si256(lo, 1), 12, true);
    const __m128i last = _mm256_extracti128_si256(hi, 1);
    if (spill) return put_bytes(o, last, 12, true);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), last);
    const auto top = static_cast<std::uint32_t>(_mm_extract_epi32(last, 2));
    std::memcpy(o + 8, &top, 4);
    return o + 12;
  }
  if constexpr (!Pairs) {
    // Forms of 1, 2 and 3 bytes (CJK, Korean and Indic text with its spaces and punctuation): per
    // unit the dword (3-byte lead or ASCII, 2nd byte, 3rd byte); a 2-byte form is the last two bytes
    // of the 3-byte one with 40 added to the first of them (ASCII units take w whole).
    static_cast<void>(hs);
    static_cast<void>(ls);
    static_cast<void>(drop_last);
    const __m256i head = _mm256_blendv_epi8(_mm256_or_si256(three, _mm256_and_si256(short2, k.x4000)), w, ascii);
    const __m256i quads_lo = _mm256_unpacklo_epi16(head, tail);  // units 0-3 | 8-11, a dword each
    const __m256i quads_hi = _mm256_unpackhi_epi16(head, tail);  // units 4-7 | 12-15
    // Byte k of m: (2-byte-or-less bits << 4 | 1-byte bits) of units 4k..4k+3, the pack_bmp_utf8 index.
    const __m256i masks = _mm256_shuffle_epi8(
        _mm256_packs_epi16(ascii, short2), _mm256_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15, 0, 1,
                                                            2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15));
    const auto m = static_cast<unsigned>(_mm256_movemask_epi8(masks));
    const unsigned at0 = (m << 4) & 0xFF0u, at1 = (m >> 4) & 0xFF0u, at2 = (m >> 12) & 0xFF0u, at3 = (m >> 20) & 0xFF0u;
    if (spill) {
      o = pack_bmp_forms(o, _mm256_castsi256_si128(quads_lo), at0, true);
      o = pack_bmp_forms(o, _mm256_castsi256_si128(quads_hi), at1, true);
      o = pack_bmp_forms(o, _mm256_extracti128_si256(quads_lo, 1), at2, true);
      return pack_bmp_forms(o, _mm256_extracti128_si256(quads_hi, 1), at3, true);
    }
    // Exactly: the groups (4 to 12 bytes each) by put_within, up to the end of the last.
    const unsigned char* rows = &tables.pack_bmp_utf8[0][0];
    const unsigned char* const end = o + rows[at0 + 15] + rows[at1 + 15] + rows[at2 + 15] + rows[at3 + 15];
    o = put_within(o, bmp_group(_mm256_castsi256_si128(quads_lo), at0), rows[at0 + 15], end);
    o = put_within(o, bmp_group(_mm256_castsi256_si128(quads_hi), at1), rows[at1 + 15], end);
    o = put_within(o, bmp_group(_mm256_extracti128_si256(quads_lo, 1), at2), rows[at2 + 15], end);
    return put_within(o, bmp_group(_mm256_extracti128_si256(quads_hi, 1), at3), rows[at3 + 15], end);
  }
  __m256i twos = _mm256_andnot_si256(ascii, short2);
  // Blocks of pairs without 2-byte forms skip them (those without pairs returned above).
  const __m256i wide = _mm256_testz_si256(twos, twos) ? three : _mm256_blendv_epi8(three, two_byte_forms(w, k), short2);
  __m256i head = _mm256_blendv_epi8(wide, w, ascii);
  __m256i threes = _mm256_cmpeq_epi16(short2, _mm256_setzero_si256());
  if constexpr (Pairs) {
    head = _mm256_blendv_epi8(head, pair_halves(w, hs), _mm256_or_si256(hs, ls));
    const __m256i halves = _mm256_or_si256(hs, ls);
    twos = _mm256_or_si256(twos, halves);
    threes = _mm256_andnot_si256(halves, threes);
  } else {
    static_cast<void>(hs);
    static_cast<void>(ls);
    static_cast<void>(drop_last);
  }
  const __m256i quads_lo = _mm256_unpacklo_epi16(head, tail);  // units 0-3 | 8-11, a dword each
  const __m256i quads_hi = _mm256_unpackhi_epi16(head, tail);  // units 4-7 | 12-15
  // Bits 0-7: 2-byte units 0-7, 8-15: 3-byte units 0-7, 16-23 and 24-31 the same for units 8-15.
  const auto m = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_packs_epi16(twos, threes)));
  const unsigned i0 = (m & 0x0Fu) | ((m >> 4) & 0xF0u), i1 = ((m >> 4) & 0x0Fu) | ((m >> 8) & 0xF0u);
  const unsigned i2 = ((m >> 16) & 0x0Fu) | ((m >> 20) & 0xF0u), i3 = ((m >> 20) & 0x0Fu) | ((m >> 24) & 0xF0u);
  o = put_bytes(o, pack_utf8_forms(_mm256_castsi256_si128(quads_lo), i0), tables.packed_length[i0], spill);
  o = put_bytes(o, pack_utf8_forms(_mm256_castsi256_si128(quads_hi), i1), tables.packed_length[i1], spill);
  o = put_bytes(o, pack_utf8_forms(_mm256_extracti128_si256(quads_lo, 1), i2), tables.packed_length[i2], spill);
  const unsigned last = tables.packed_length[i3] - (Pairs && drop_last ? 2u : 0u);
  return put_bytes(o, pack_utf8_forms(_mm256_extracti128_si256(quads_hi, 1), i3), last, spill);
}

/// encode16 for BMP scalar values.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* encode16_bmp(unsigned char* o, __m256i w,
                                                                      bool spill) noexcept {
  return encode16<false>(o, w, w, w, false, spill, load_unit_constants());
}

/// encode16_bmp with full-width stores, and 16 bytes at once for ASCII units.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* encode16_ascii_or_bmp(unsigned char* o, __m256i w,
                                                                               const unit_constants& k) noexcept {
  if (_mm256_testz_si256(w, k.ff80)) {
    const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(w, w), 0x08);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), _mm256_castsi256_si128(bytes));
    return o + 16;
  }
  return encode16<false>(o, w, w, w, false, true, k);
}

/// The last units of a conversion to UTF-8, fewer than 16, with the 16 units that end the input
/// in w, none a surrogate: the block converted from the output position of its first unit, `done`
/// of them already converted (their bytes written again, the same), the last stored exactly.
/// Returns the end of the output.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* encode16_again(unsigned char* o, __m256i w,
                                                                        unsigned done) noexcept {
  // Bits 0-15: the units of 1 byte, 16-31: those of 1 or 2 bytes.
  const __m256i one = _mm256_cmpeq_epi16(_mm256_min_epu16(w, k16<0x7F>()), w);
  const __m256i upto2 = _mm256_cmpeq_epi16(_mm256_min_epu16(w, k16<0x7FF>()), w);
  const auto m =
      static_cast<unsigned>(_mm256_movemask_epi8(_mm256_permute4x64_epi64(_mm256_packs_epi16(one, upto2), 0xD8)));
  const unsigned before = (1u << done) - 1u;
  const unsigned again = 3 * done - static_cast<unsigned>(_mm_popcnt_u32(m & before)) -
                         static_cast<unsigned>(_mm_popcnt_u32((m >> 16) & before));
  return encode16_bmp(o - again, w, false);
}

/// True when one of the 16 units of w is a surrogate.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool any_surrogate(__m256i w) noexcept {
  const __m256i s = _mm256_cmpeq_epi16(_mm256_and_si256(w, k16<0xF800>()), k16<0xD800>());
  return !_mm256_testz_si256(s, s);
}

/// The high- and low-surrogate units among the 16 UTF-16 units of w: as 16-bit masks, and as
/// one bit per unit.
struct surrogates {
  __m256i hs, ls;
  unsigned high, low;
};

UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE surrogates find_surrogates(__m256i w) noexcept {
  const __m256i top = _mm256_and_si256(w, k16<0xFC00>());
  const __m256i hs = _mm256_cmpeq_epi16(top, k16<0xD800>());
  const __m256i ls = _mm256_cmpeq_epi16(top, k16<0xDC00>());
  // Bits 0-7: high units 0-7, 8-15: low units 0-7, 16-23 and 24-31 the same for units 8-15.
  const auto m = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_packs_epi16(hs, ls)));
  return {hs, ls, (m & 0xFFu) | ((m >> 8) & 0xFF00u), ((m >> 8) & 0xFFu) | ((m >> 16) & 0xFF00u)};
}

/// True when the 16 UTF-16 units at p are well-formed on their own (every surrogate paired inside
/// them): converted, they give at least 16 bytes whatever the policy.
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool pairs_complete(const char16_t* p) noexcept {
  const __m256i w = load16<Swap>(p);
  if (!any_surrogate(w)) return true;
  const surrogates s = find_surrogates(w);
  return (s.high & 0x8000u) == 0 && s.low == ((s.high << 1) & 0xFFFFu);
}

/// True when none of the 8 UTF-32 units is a surrogate or above U+10FFFF.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool all_scalar_values(__m256i cp) noexcept {
  // Surrogates: (cp ^ 0xD800) < 0x800; too large: cp > 0x10FFFF (unsigned, hence the bias).
  const __m256i bias = k32<0x80000000u>();
  const __m256i surrogate =
      _mm256_cmpgt_epi32(k32<0x80000800u>(), _mm256_xor_si256(_mm256_xor_si256(cp, k32<0xD800u>()), bias));
  const __m256i large = _mm256_cmpgt_epi32(_mm256_xor_si256(cp, bias), k32<0x8010FFFFu>());
  const __m256i bad = _mm256_or_si256(surrogate, large);
  return _mm256_testz_si256(bad, bad);
}

/// Where utf16_bulk stopped: the units read, the output end, and whether the 16 units at `i` are
/// known to hold no surrogate.
struct bulk_position {
  std::size_t i;
  unsigned char* o;
  bool plain;
};

/// The 64-unit steps of utf16_to_utf8_impl, from i while 80 units or more are left and the 64 units
/// at i are ASCII, surrogate pairs only, or free of surrogates (and so are the 16 after them). Out of
/// line, so that the constants and pointers of its loop stay in registers.
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline bulk_position utf16_bulk(const char16_t* p, std::size_t i, std::size_t n,
                                                                     unsigned char* o) noexcept {
  bool plain = false;
  const unit_constants k = load_unit_constants();
  while (n - i >= 80) {
    // Four blocks at once when they and the block after them hold no surrogate: full-width stores
    // throughout (the fifth block gives at least 16 bytes after them).
    const __m256i w0 = load16<Swap>(p + i);
    const __m256i w1 = load16<Swap>(p + i + 16);
    const __m256i w2 = load16<Swap>(p + i + 32);
    const __m256i w3 = load16<Swap>(p + i + 48);
    const __m256i all = _mm256_or_si256(_mm256_or_si256(w0, w1), _mm256_or_si256(w2, w3));
    if (_mm256_testz_si256(all, k.ff80)) {
      const __m256i b01 = _mm256_permute4x64_epi64(_mm256_packus_epi16(w0, w1), 0xD8);
      const __m256i b23 = _mm256_permute4x64_epi64(_mm256_packus_epi16(w2, w3), 0xD8);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), b01);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32), b23);
      i += 64;
      o += 64;
      plain = false;
      continue;
    }
    const __m256i w4 = load16<Swap>(p + i + 64);
    const __m256i bias = k16<0xD800>();
    const __m256i low =
        _mm256_min_epu16(_mm256_min_epu16(_mm256_min_epu16(_mm256_sub_epi16(w0, bias), _mm256_sub_epi16(w1, bias)),
                                          _mm256_min_epu16(_mm256_sub_epi16(w2, bias), _mm256_sub_epi16(w3, bias))),
                         _mm256_sub_epi16(w4, bias));
    // Every unit minus D800 is 800 or more (unsigned): no surrogate.
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_max_epu16(low, k16<0x800>()), low)) == -1) {
      o = encode16_ascii_or_bmp(o, w0, k);
      o = encode16_ascii_or_bmp(o, w1, k);
      o = encode16_ascii_or_bmp(o, w2, k);
      o = encode16_ascii_or_bmp(o, w3, k);
      i += 64;
      plain = true;
      continue;
    }
    // Surrogate pairs only, each in a dword (most emoji): 32 bytes per block, in place.
    const __m256i tops = k32<0xDC00D800u>();
    const __m256i ten = k16<0xFC00>();
    const __m256i pairs = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi16(_mm256_and_si256(w0, ten), tops),
                                                            _mm256_cmpeq_epi16(_mm256_and_si256(w1, ten), tops)),
                                           _mm256_and_si256(_mm256_cmpeq_epi16(_mm256_and_si256(w2, ten), tops),
                                                            _mm256_cmpeq_epi16(_mm256_and_si256(w3, ten), tops)));
    if (_mm256_movemask_epi8(pairs) != -1) break;
    const __m256i hs = k32<0xFFFFu>();
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), pair_halves(w0, hs));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32), pair_halves(w1, hs));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 64), pair_halves(w2, hs));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 96), pair_halves(w3, hs));
    i += 64;
    o += 128;
    plain = false;
  }
  return {i, o, plain};
}

/// UTF-16 to UTF-8: 64 units at a time when they are ASCII, surrogate pairs only, or free of
/// surrogates (and so are the 16 after them); else 16 units at a time (15 when the last is the high
/// half of a pair: the pair waits for the next block); a block holding an unpaired surrogate goes
/// scalar. With Swap, the units are stored in the byte order opposite to the host's: exchanged as loaded.
template <bool Strict, bool Swap = false>
UTF8DFA_TARGET_AVX2 packed_conversion utf16_to_utf8_impl(const char16_t* p, std::size_t n, unsigned char* out,
                                                         char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  bool plain = false;  // the block at c.i is known to hold no surrogate
  std::size_t careful_to = 0;
  while (n - c.i >= 16) {
    if (c.i >= careful_to && n - c.i >= 80) {
      const bulk_position b = utf16_bulk<Swap>(p, c.i, n, c.o);  // (leaves 16 units or more)
      if (b.i != c.i) plain = b.plain;
      c.i = b.i;
      c.o = b.o;
      if (n - c.i >= 80) careful_to = c.i + 64;  // other surrogates: block by block for a while
    }
    const __m256i w = load16<Swap>(p + c.i);
    if (_mm256_testz_si256(w, k16<0xFF80>())) {
      const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(w, w), 0x08);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o), _mm256_castsi256_si128(bytes));
      c.i += 16;
      c.o += 16;
      plain = false;
      continue;
    }
    if (plain || !any_surrogate(w)) {
      // Full-width stores spill at most 12 bytes: safe when the next block converts to at least 16.
      const bool next_plain = n - c.i >= 32 && !any_surrogate(load16<Swap>(p + c.i + 16));
      const bool spill = next_plain || (n - c.i >= 32 && pairs_complete<Swap>(p + c.i + 16));
      // (Each branch inlines the encoder with `spill` constant: no test per store.)
      c.o = spill ? encode16_bmp(c.o, w, true) : encode16_bmp(c.o, w, false);
      c.i += 16;
      plain = next_plain;
      continue;
    }
    plain = false;
    const surrogates s = find_surrogates(w);
    unsigned high = s.high;
    const unsigned low = s.low;
    unsigned take = 16;
    if ((high & 0x8000u) != 0) {  // the pair is cut by the block end
      high &= 0x7FFFu;
      take = 15;
    }
    if (UTF8DFA_UNLIKELY(low != ((high << 1) & 0xFFFFu))) {
      UTF8DFA_LEAVE_AVX();
      if (!scalar_region_in_order<Strict, Swap>(p, n, c.i + take, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    const bool spill = n - c.i >= take + 16u && pairs_complete<Swap>(p + c.i + take);
    c.o = spill ? encode16<true>(c.o, w, s.hs, s.ls, take == 15, true, load_unit_constants())
                : encode16<true>(c.o, w, s.hs, s.ls, take == 15, false, load_unit_constants());
    c.i += take;
  }
  if (c.i != n && n >= 16) {
    // Fewer than 16 units left: when the 16 that end the input are ASCII, one store of their bytes
    // ending at the end of the output (those of the units already converted are written again);
    // when none is a surrogate, encode16_again.
    const __m256i w = load16<Swap>(p + n - 16);
    if (_mm256_testz_si256(w, k16<0xFF80>())) {
      const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(w, w), 0x08);
      c.o += n - c.i;
      _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o - 16), _mm256_castsi256_si128(bytes));
      c.i = n;
    } else if (!any_surrogate(w)) {
      c.o = encode16_again(c.o, w, static_cast<unsigned>(16 - (n - c.i)));
      c.i = n;
    }
  }
  UTF8DFA_LEAVE_AVX();
  return finish_scalar_in_order<Strict, Swap>(p, n, out, c, repl);
}

/// The 8 ASCII values of cp as 8 bytes, the first lowest.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::uint64_t ascii_bytes8(__m256i cp) noexcept {
  const __m256i words = _mm256_packus_epi32(cp, cp);
  const __m256i bytes = _mm256_packus_epi16(words, words);
  return static_cast<std::uint32_t>(_mm256_cvtsi256_si32(bytes)) |
         std::uint64_t{static_cast<std::uint32_t>(_mm256_extract_epi32(bytes, 4))} << 32;
}

/// True when the 16 UTF-32 units at p are all below D800.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool all_below_surrogates(const char32_t* p) noexcept {
  const __m256i top = _mm256_max_epu32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                                       _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 8)));
  return _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_min_epu32(top, k32<0xD7FFu>()), top)) == -1;
}

/// The 64-unit steps of utf32_to_utf8_impl, from i while 80 units or more are left and the 64 units
/// at i are ASCII, BMP scalar values followed by 16 scalar values, or supplementary scalar values
/// only. Out of line, so that the constants and pointers of its loop stay in registers.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline bulk_position utf32_bulk(const char32_t* p, std::size_t i, std::size_t n,
                                                                     unsigned char* o) noexcept {
  const unit_constants k = load_unit_constants();
  while (n - i >= 80) {
    // 64 units at once: ASCII, or BMP scalar values (as UTF-16 does, with full-width stores: the
    // 16 units after them must be scalar values), or supplementary ones only.
    __m256i a[8];
    for (int j = 0; j < 8; ++j) a[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 8 * j));
    const __m256i all = _mm256_or_si256(_mm256_or_si256(_mm256_or_si256(a[0], a[1]), _mm256_or_si256(a[2], a[3])),
                                        _mm256_or_si256(_mm256_or_si256(a[4], a[5]), _mm256_or_si256(a[6], a[7])));
    if (_mm256_testz_si256(all, k32<~0x7Fu>())) {
      // Bytes of units (0-3, 8-11, 16-19, 24-27 | 4-7, 12-15, 20-23, 28-31) per 32 units.
      const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
      for (int h = 0; h < 2; ++h) {
        const __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(a[4 * h], a[4 * h + 1]),
                                                  _mm256_packus_epi32(a[4 * h + 2], a[4 * h + 3]));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32 * h), _mm256_permutevar8x32_epi32(bytes, order));
      }
      i += 64;
      o += 64;
      continue;
    }
    if (_mm256_testz_si256(all, k32<0xFFFF0000u>())) {
      __m256i w[4];
      for (int j = 0; j < 4; ++j) w[j] = _mm256_permute4x64_epi64(_mm256_packus_epi32(a[2 * j], a[2 * j + 1]), 0xD8);
      const __m256i bias = k16<0xD800>();
      const __m256i low =
          _mm256_min_epu16(_mm256_min_epu16(_mm256_sub_epi16(w[0], bias), _mm256_sub_epi16(w[1], bias)),
                           _mm256_min_epu16(_mm256_sub_epi16(w[2], bias), _mm256_sub_epi16(w[3], bias)));
      if (_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_max_epu16(low, k16<0x800>()), low)) == -1 &&
          all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 64))) &&
          all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 72)))) {
        o = encode16_ascii_or_bmp(o, w[0], k);
        o = encode16_ascii_or_bmp(o, w[1], k);
        o = encode16_ascii_or_bmp(o, w[2], k);
        o = encode16_ascii_or_bmp(o, w[3], k);
        i += 64;
        continue;
      }
    } else {
      __m256i lowest = a[0], highest = a[0];
      for (int j = 1; j < 8; ++j) {
        lowest = _mm256_min_epu32(lowest, a[j]);
        highest = _mm256_max_epu32(highest, a[j]);
      }
      const __m256i supplementary =
          _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(lowest, k32<0x10000u>()), lowest),
                           _mm256_cmpeq_epi32(_mm256_min_epu32(highest, k32<0x10FFFFu>()), highest));
      if (_mm256_movemask_epi8(supplementary) == -1) {  // 4-byte forms only, in place
        for (int j = 0; j < 8; ++j) _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32 * j), four_byte_forms(a[j]));
        i += 64;
        o += 256;
        continue;
      }
    }
    break;
  }
  return {i, o, false};
}

/// UTF-32 to UTF-8: 64 units at a time when they are ASCII, supplementary scalar values only, or
/// BMP scalar values (narrowed to UTF-16's encoder) followed by 16 scalar values; else 16 units at
/// a time when they are ASCII or BMP scalar values, else 8; blocks holding a surrogate or a value
/// above U+10FFFF go scalar.
template <bool Strict>
UTF8DFA_TARGET_AVX2 packed_conversion utf32_to_utf8_impl(const char32_t* p, std::size_t n, unsigned char* out,
                                                         char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  bool below = false;        // the 16 units at c.i are known to be below D800
  std::size_t valid_to = 0;  // [c.i, valid_to) is known to hold scalar values only
  std::size_t careful_to = 0;
  while (n - c.i >= 8) {
    if (c.i >= careful_to && n - c.i >= 80) {
      const bulk_position b = utf32_bulk(p, c.i, n, c.o);  // (leaves 16 units or more)
      if (b.i != c.i) below = false;
      c.i = b.i;
      c.o = b.o;
      if (n - c.i >= 80) careful_to = c.i + 64;  // 16 units at a time for a while
    }
    if (n - c.i >= 16) {  // 16 units of the BMP, as UTF-16 does
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 8));
      if (_mm256_testz_si256(_mm256_or_si256(a, b), k32<~0x7Fu>())) {  // ASCII
        const __m256i words = _mm256_packus_epi32(a, b);               // units 0-3 8-11 | 4-7 12-15
        const __m256i bytes = _mm256_packus_epi16(words, words);
        const __m128i ordered = _mm_unpacklo_epi32(_mm256_castsi256_si128(bytes), _mm256_extracti128_si256(bytes, 1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o), ordered);
        c.i += 16;
        c.o += 16;
        below = false;
        continue;
      }
      const __m256i w = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
      if (below || (_mm256_testz_si256(_mm256_or_si256(a, b), k32<0xFFFF0000u>()) && !any_surrogate(w))) {
        // Full-width stores spill at most 12 bytes: safe when the next 16 units are scalar values.
        const bool next_below = n - c.i >= 32 && all_below_surrogates(p + c.i + 16);
        const bool spill =
            next_below ||
            (n - c.i >= 32 && all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 16))) &&
             all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 24))));
        c.o = spill ? encode16_bmp(c.o, w, true) : encode16_bmp(c.o, w, false);
        c.i += 16;
        below = next_below;
        continue;
      }
      // Supplementary characters only (emoji): 64 bytes, in place, nothing written past them.
      const __m256i lowest = _mm256_min_epu32(a, b), highest = _mm256_max_epu32(a, b);
      const __m256i supplementary =
          _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(lowest, k32<0x10000u>()), lowest),
                           _mm256_cmpeq_epi32(_mm256_min_epu32(highest, k32<0x10FFFFu>()), highest));
      if (_mm256_movemask_epi8(supplementary) == -1) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o), four_byte_forms(a));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o + 32), four_byte_forms(b));
        c.i += 16;
        c.o += 64;
        below = false;
        continue;
      }
    }
    below = false;
    const __m256i cp = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    if (_mm256_testz_si256(cp, k32<~0x7Fu>())) {
      const std::uint64_t eight = ascii_bytes8(cp);
      std::memcpy(c.o, &eight, 8);
      c.i += 8;
      c.o += 8;
      continue;
    }
    if (c.i + 8 > valid_to) {
      if (UTF8DFA_UNLIKELY(!all_scalar_values(cp))) {
        UTF8DFA_LEAVE_AVX();
        if (!scalar_region<Strict>(p, n, c.i + 8, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
        continue;
      }
      valid_to = c.i + 8;
    }
    // Full-width stores spill at most 12 bytes: safe when the next 16 units are scalar values.
    while (valid_to < c.i + 24 && n - valid_to >= 8 &&
           all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + valid_to))))
      valid_to += 8;
    const bool spill = valid_to >= c.i + 24;
    c.o = encode8(c.o, cp, spill);
    c.i += 8;
  }
  if (c.i != n && n >= 8) {
    // Fewer than 8 units left: when the 8 that end the input are ASCII, one store of their bytes
    // ending at the end of the output (those of the units already converted are written again).
    const __m256i cp = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 8));
    if (_mm256_testz_si256(cp, k32<~0x7Fu>())) {
      const std::uint64_t eight = ascii_bytes8(cp);
      c.o += n - c.i;
      std::memcpy(c.o - 8, &eight, 8);
      c.i = n;
    } else if (all_scalar_values(cp)) {
      // Else, when they are all scalar values, encode8 from the output position of the first of
      // them (the bytes of the `done` already converted written again, the same).
      const auto done = static_cast<unsigned>(8 - (n - c.i));
      const unsigned before = (1u << done) - 1u;
      const auto longer =
          static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(cp, k32<0x7Fu>()))));
      const auto three =
          static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(cp, k32<0x7FFu>()))));
      const auto four =
          static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(cp, k32<0xFFFFu>()))));
      const unsigned again = done + static_cast<unsigned>(_mm_popcnt_u32(longer & before)) +
                             static_cast<unsigned>(_mm_popcnt_u32(three & before)) +
                             static_cast<unsigned>(_mm_popcnt_u32(four & before));
      c.o = encode8(c.o - again, cp, false);
      c.i = n;
    }
  }
  UTF8DFA_LEAVE_AVX();
  return finish_scalar<Strict>(p, n, out, c, repl);
}

// The kernel-table entry points (`replacement == strict_marker` means strict).

UTF8DFA_TARGET_AVX2 inline packed_conversion utf8_to_utf32(const unsigned char* p, std::size_t n, char32_t* out,
                                                           char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char32_t, false, false, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline packed_conversion utf8_to_utf16(const unsigned char* p, std::size_t n, char16_t* out,
                                                           char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char16_t, false, false, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline packed_conversion utf16_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                                           char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf16_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf16_to_utf8_impl<false>(p, n, out, replacement);
}

// UTF-16 in the byte order opposite to the host's.

UTF8DFA_TARGET_AVX2 inline packed_conversion utf8_to_utf16_swapped(const unsigned char* p, std::size_t n, char16_t* out,
                                                                   char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true, char16_t, false, true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char16_t, false, true, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false, char16_t, false, true>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline packed_conversion utf16_swapped_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                                                   char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf16_to_utf8_impl<true, true>(p, n, out, replacement)
                                      : utf16_to_utf8_impl<false, true>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline packed_conversion utf32_to_utf8(const char32_t* p, std::size_t n, unsigned char* out,
                                                           char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf32_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf32_to_utf8_impl<false>(p, n, out, replacement);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
#endif
