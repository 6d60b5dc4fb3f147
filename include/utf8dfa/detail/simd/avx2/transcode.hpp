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

#if UTF8DFA_X86_KERNELS
#include <cstddef>
#include <cstdint>

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

/// Shuffle tables, built here rather than written out.
struct shuffle_tables {
  /// For an 8-bit mask: the indices of its set bits, one per byte, lowest first (left-packing dwords).
  std::uint64_t pack_dwords[256]{};
  /// For four dwords holding UTF-8 forms of lengths 1..4 (2 bits each, length - 1): the vpshufb
  /// control that packs their bytes, and the packed length.
  std::uint8_t pack_utf8[256][16]{};
  std::uint8_t packed_length[256]{};
  /// For an 8-bit mask: the vpshufb control that packs the words it selects, lowest first.
  std::uint8_t pack_words[256][16]{};
};

constexpr shuffle_tables build_shuffle_tables() {
  shuffle_tables t{};
  for (unsigned m = 0; m < 256; ++m) {
    unsigned k = 0;
    for (unsigned b = 0; b < 8; ++b)
      if ((m >> b) & 1u) t.pack_dwords[m] |= std::uint64_t{b} << (8 * k++);
    unsigned pos = 0;
    for (unsigned c = 0; c < 4; ++c)
      for (unsigned b = 0; b <= ((m >> (2 * c)) & 3u); ++b)
        t.pack_utf8[m][pos++] = static_cast<std::uint8_t>(4 * c + b);
    t.packed_length[m] = static_cast<std::uint8_t>(pos);
    unsigned w = 0;
    for (unsigned b = 0; b < 8; ++b)
      if ((m >> b) & 1u) {
        t.pack_words[m][w++] = static_cast<std::uint8_t>(2 * b);
        t.pack_words[m][w++] = static_cast<std::uint8_t>(2 * b + 1);
      }
    for (; w < 16; ++w) t.pack_words[m][w] = 0x80;
    for (; pos < 16; ++pos) t.pack_utf8[m][pos] = 0x80;  // zero
  }
  return t;
}

inline constexpr shuffle_tables tables = build_shuffle_tables();

/// Stores the first `count` (<= 16) bytes of v at o, and nothing else.
UTF8DFA_TARGET_AVX2 inline void store_exact(unsigned char* o, __m128i v, unsigned count) noexcept {
  const __m128i whole = _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(count / 4)), _mm_setr_epi32(0, 1, 2, 3));
  _mm_maskstore_epi32(reinterpret_cast<int*>(o), whole, v);
  if ((count & 3u) != 0) {
    alignas(16) unsigned char bytes[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(bytes), v);
    for (unsigned j = count & ~3u; j < count; ++j) o[j] = bytes[j];
  }
}

/// Stores the first `count` (<= 8) dwords of v at o.
UTF8DFA_TARGET_AVX2 inline void store_exact(char32_t* o, __m256i v, unsigned count) noexcept {
  const __m256i live =
      _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_epi32(reinterpret_cast<int*>(o), live, v);
}

/// Stores the first `count` (<= 8) words of v at o.
UTF8DFA_TARGET_AVX2 inline void store_exact(char16_t* o, __m128i v, unsigned count) noexcept {
  const __m128i pairs = _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(count / 2)), _mm_setr_epi32(0, 1, 2, 3));
  _mm_maskstore_epi32(reinterpret_cast<int*>(o), pairs, v);
  if ((count & 1u) != 0) {
    alignas(16) char16_t words[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(words), v);
    o[count - 1] = words[count - 1];
  }
}

/// The scalar function on the rest of the input, merged with what the vector loop did.
template <bool Strict, class In, class Out>
inline conversion_result finish_scalar(const In* p, std::size_t n, Out* out, transcode_cursor<Out> c,
                                       char32_t repl) noexcept {
  conversion_result r{};
  if constexpr (sizeof(In) == 1) {
    r = Strict ? utf8_to_utf_scalar(p + c.i, n - c.i, c.o, strict{})
               : utf8_to_utf_scalar(p + c.i, n - c.i, c.o, replace{repl});
  } else {
    r = Strict ? utf_to_utf8_scalar(p + c.i, n - c.i, c.o, strict{})
               : utf_to_utf8_scalar(p + c.i, n - c.i, c.o, replace{repl});
  }
  const error_code e = c.first != error_code::none ? c.first : r.error;
  return {c.i + r.read, static_cast<std::size_t>(c.o - out) + r.written, e};
}

/// Decodes, in each 16-bit lane holding (byte, next byte), the 1- or 2-byte form starting there.
UTF8DFA_TARGET_AVX2 inline __m256i decode_short(__m256i pairs) noexcept {
  const __m256i multi = _mm256_cmpeq_epi16(_mm256_and_si256(pairs, _mm256_set1_epi16(0x80)), _mm256_set1_epi16(0x80));
  const __m256i value = _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(pairs, _mm256_set1_epi16(0x1F)), 6),
                                        _mm256_and_si256(_mm256_srli_epi16(pairs, 8), _mm256_set1_epi16(0x3F)));
  return _mm256_blendv_epi8(_mm256_and_si256(pairs, _mm256_set1_epi16(0x7F)), value, multi);
}

/// Writes the BMP code points of the 8 words of `units` selected by `sel`, packed, as UTF-32 or UTF-16.
template <class Out>
UTF8DFA_TARGET_AVX2 inline Out* store_short(Out* o, __m128i units, unsigned sel) noexcept {
  const __m128i packed =
      _mm_shuffle_epi8(units, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[sel])));
  const auto count = static_cast<unsigned>(__builtin_popcount(sel));
  if constexpr (sizeof(Out) == 2)
    store_exact(o, packed, count);
  else
    store_exact(o, _mm256_cvtepu16_epi32(packed), count);
  return o + count;
}

/// UTF-8 to UTF-32 or UTF-16, 32-byte blocks starting on a character boundary.
template <bool Strict, class Out>
UTF8DFA_TARGET_AVX2 conversion_result utf8_to_utf_impl(const unsigned char* p, std::size_t n, Out* out,
                                                       char32_t replacement) noexcept {
  transcode_cursor<Out> c{0, out, error_code::none};
  const char32_t repl = replace{replacement}.replacement_value();
  // Bytes (lead+3, lead+2, lead+1, lead) of positions 0..3 in the low lane and 4..7 in the high one.
  const __m256i window =
      _mm256_setr_epi8(3, 2, 1, 0, 4, 3, 2, 1, 5, 4, 3, 2, 6, 5, 4, 3, 7, 6, 5, 4, 8, 7, 6, 5, 9, 8, 7, 6, 10, 9, 8, 7);
  // Lead-byte high nibble C..F (taken modulo 8) -> right shift and payload mask of the gathered value.
  const __m256i shifts = _mm256_setr_epi32(0, 0, 0, 0, 12, 12, 6, 0);
  const __m256i masks = _mm256_setr_epi32(0, 0, 0, 0, 0x7FF, 0x7FF, 0xFFFF, 0x1FFFFF);
  while (n - c.i >= 40) {  // a block and the 8 bytes its last window may touch
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(v));
    if (high == 0) {
      if constexpr (sizeof(Out) == 4) {
        for (int g = 0; g < 4; ++g)
          _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o + 8 * g),
                              _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + c.i + 8 * g))));
      } else {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o), _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v)));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o + 16), _mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1)));
      }
      c.i += 32;
      c.o += 32;
      continue;
    }
    if (UTF8DFA_UNLIKELY(utf8_block_has_error(v))) {
      if (!scalar_region<Strict>(p, n, c.i + 32, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    const auto cont = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v)));
    const std::uint32_t leads = ~cont;
    const unsigned last = 31u - static_cast<unsigned>(__builtin_clz(leads));
    const unsigned b = p[c.i + last];
    const unsigned len = b < 0x80 ? 1u : b < 0xE0 ? 2u : b < 0xF0 ? 3u : 4u;
    const unsigned take = last + len <= 32 ? 32u : last;
    const std::uint32_t starts = leads & static_cast<std::uint32_t>((std::uint64_t{1} << take) - 1);
    if (_mm256_movemask_epi8(_mm256_subs_epu8(v, _mm256_set1_epi8(0x60))) == 0) {
      // 1- and 2-byte forms only (no byte reaches E0): each position's (byte, next byte) as a word,
      // decoded in 16-bit lanes. Unpacking gives positions 0-7|16-23 and 8-15|24-31.
      const __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 1));
      const __m256i even = decode_short(_mm256_unpacklo_epi8(v, next));
      const __m256i odd = decode_short(_mm256_unpackhi_epi8(v, next));
      c.o = store_short(c.o, _mm256_castsi256_si128(even), starts & 0xFFu);
      c.o = store_short(c.o, _mm256_castsi256_si128(odd), (starts >> 8) & 0xFFu);
      c.o = store_short(c.o, _mm256_extracti128_si256(even, 1), (starts >> 16) & 0xFFu);
      c.o = store_short(c.o, _mm256_extracti128_si256(odd, 1), starts >> 24);
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
      const auto count = static_cast<unsigned>(__builtin_popcount(sel));
      if constexpr (sizeof(Out) == 4) {
        store_exact(c.o, packed, count);
        c.o += count;
      } else if (UTF8DFA_LIKELY(
                     _mm256_testz_si256(packed, _mm256_set1_epi32(~0xFFFF)) ||
                     (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(packed, _mm256_set1_epi32(0xFFFF)))) &
                      ((1 << count) - 1)) == 0)) {
        const __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(packed, packed), 0x08);
        store_exact(c.o, _mm256_castsi256_si128(words), count);
        c.o += count;
      } else {  // surrogate pairs: written one by one
        alignas(32) char32_t values[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(values), packed);
        for (unsigned k = 0; k < count; ++k) c.o = put_unit(c.o, values[k]);
      }
    }
    c.i += take;
  }
  return finish_scalar<Strict>(p, n, out, c, repl);
}

/// Writes the UTF-8 forms of the scalar values in the lanes of cp selected by `keep`, packed; returns
/// the new output position. With `spill`, full 16-byte stores may write up to 16 bytes past the
/// result (the caller knows they will be overwritten).
UTF8DFA_TARGET_AVX2 inline unsigned char* encode8(unsigned char* o, __m256i cp, unsigned keep, bool spill) noexcept {
  unsigned dead0 = 0, dead1 = 0;  // zero lanes appended by the packing (1 byte each, at the end)
  if (keep != 0xFFu) {
    const auto count = static_cast<unsigned>(__builtin_popcount(keep));
    const __m256i live =
        _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    cp = _mm256_and_si256(
        live, _mm256_permutevar8x32_epi32(
                  cp, _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(tables.pack_dwords[keep])))));
    dead0 = count >= 4 ? 0u : 4u - count;
    dead1 = count >= 8 ? 0u : count >= 4 ? 8u - count : 4u;
  }
  const __m256i ge80 = _mm256_cmpgt_epi32(cp, _mm256_set1_epi32(0x7F));
  const __m256i ge800 = _mm256_cmpgt_epi32(cp, _mm256_set1_epi32(0x7FF));
  const __m256i ge10000 = _mm256_cmpgt_epi32(cp, _mm256_set1_epi32(0xFFFF));
  // The 4-byte payload fields, first byte lowest; shorter forms drop the leading ones.
  const __m256i spread =
      _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32(cp, 24), _mm256_set1_epi32(0x3F000000)),
                                      _mm256_and_si256(_mm256_slli_epi32(cp, 10), _mm256_set1_epi32(0x003F0000))),
                      _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(cp, 4), _mm256_set1_epi32(0x00003F00)),
                                      _mm256_srli_epi32(cp, 18)));
  const __m256i shift = _mm256_add_epi32(
      _mm256_set1_epi32(24), _mm256_slli_epi32(_mm256_add_epi32(_mm256_add_epi32(ge80, ge800), ge10000), 3));
  __m256i tag = _mm256_and_si256(ge80, _mm256_set1_epi32(0x80C0));
  tag = _mm256_blendv_epi8(tag, _mm256_set1_epi32(0x8080E0), ge800);
  tag = _mm256_blendv_epi8(tag, _mm256_set1_epi32(static_cast<int>(0x808080F0u)), ge10000);
  const __m256i bytes = _mm256_blendv_epi8(cp, _mm256_or_si256(_mm256_srlv_epi32(spread, shift), tag), ge80);
  // Length - 1 of each form as 2 bits: (ge80 ^ ge800 ^ ge10000, ge800).
  const auto a = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ge80)));
  const auto b = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ge800)));
  const auto c = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ge10000)));
  const unsigned index = _pdep_u32(a ^ b ^ c, 0x5555u) | _pdep_u32(b, 0xAAAAu);
  const unsigned lo = index & 0xFFu, hi = index >> 8;
  const __m128i first = _mm_shuffle_epi8(_mm256_castsi256_si128(bytes),
                                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_utf8[lo])));
  const __m128i second = _mm_shuffle_epi8(_mm256_extracti128_si256(bytes, 1),
                                          _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_utf8[hi])));
  const unsigned len0 = tables.packed_length[lo] - dead0, len1 = tables.packed_length[hi] - dead1;
  if (spill) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), first);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + len0), second);
  } else {
    store_exact(o, first, len0);
    store_exact(o + len0, second, len1);
  }
  return o + len0 + len1;
}

/// The high- and low-surrogate units among the 16 UTF-16 units of w, one bit per unit.
UTF8DFA_TARGET_AVX2 inline void surrogate_masks(__m256i w, unsigned& high, unsigned& low) noexcept {
  const __m256i top = _mm256_and_si256(w, _mm256_set1_epi16(static_cast<short>(0xFC00)));
  high = _pext_u32(static_cast<std::uint32_t>(
                       _mm256_movemask_epi8(_mm256_cmpeq_epi16(top, _mm256_set1_epi16(static_cast<short>(0xD800))))),
                   0x55555555u);
  low = _pext_u32(static_cast<std::uint32_t>(
                      _mm256_movemask_epi8(_mm256_cmpeq_epi16(top, _mm256_set1_epi16(static_cast<short>(0xDC00))))),
                  0x55555555u);
}

/// True when the 16 UTF-16 units at p are well-formed on their own (every surrogate paired inside
/// them): converted, they give at least 16 bytes whatever the policy.
UTF8DFA_TARGET_AVX2 inline bool pairs_complete(const char16_t* p) noexcept {
  unsigned high = 0, low = 0;
  surrogate_masks(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), high, low);
  return (high & 0x8000u) == 0 && low == ((high << 1) & 0xFFFFu);
}

/// True when none of the 8 UTF-32 units is a surrogate or above U+10FFFF.
UTF8DFA_TARGET_AVX2 inline bool all_scalar_values(__m256i cp) noexcept {
  // Surrogates: (cp ^ 0xD800) < 0x800; too large: cp > 0x10FFFF (unsigned, hence the bias).
  const __m256i bias = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  const __m256i surrogate = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(0x80000800u)),
                                               _mm256_xor_si256(_mm256_xor_si256(cp, _mm256_set1_epi32(0xD800)), bias));
  const __m256i large =
      _mm256_cmpgt_epi32(_mm256_xor_si256(cp, bias), _mm256_set1_epi32(static_cast<int>(0x8010FFFFu)));
  const __m256i bad = _mm256_or_si256(surrogate, large);
  return _mm256_testz_si256(bad, bad);
}

/// UTF-16 to UTF-8, 16 units at a time; surrogate pairs are combined in-register (a pair cut by the
/// block end waits for the next block), a block holding an unpaired surrogate goes scalar.
template <bool Strict>
UTF8DFA_TARGET_AVX2 conversion_result utf16_to_utf8_impl(const char16_t* p, std::size_t n, unsigned char* out,
                                                         char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = replace{replacement}.replacement_value();
  while (n - c.i >= 17) {  // a block and the unit after it (the low half of a pair at its end)
    const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    if (_mm256_testz_si256(w, _mm256_set1_epi16(static_cast<short>(0xFF80)))) {
      const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(w, w), 0x08);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o), _mm256_castsi256_si128(bytes));
      c.i += 16;
      c.o += 16;
      continue;
    }
    unsigned high = 0, low = 0;
    surrogate_masks(w, high, low);
    unsigned take = 16;
    __m256i cp0 = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(w));
    __m256i cp1 = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(w, 1));
    if ((high | low) != 0) {
      if ((high & 0x8000u) != 0) {  // the pair is cut by the block end
        high &= 0x7FFFu;
        take = 15;
      }
      if (UTF8DFA_UNLIKELY(low != ((high << 1) & 0xFFFFu))) {
        if (!scalar_region<Strict>(p, n, c.i + take, c, repl))
          return {c.i, static_cast<std::size_t>(c.o - out), c.first};
        continue;
      }
      const __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 1));
      const __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
      const __m256i offset = _mm256_set1_epi32(0x10000 - (0xD800 << 10) - 0xDC00);
      const __m256i next0 = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(next));
      const __m256i next1 = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(next, 1));
      const __m256i h0 =
          _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(high & 0xFFu)), bits), bits);
      const __m256i h1 =
          _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(high >> 8)), bits), bits);
      cp0 = _mm256_blendv_epi8(cp0, _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(cp0, 10), next0), offset), h0);
      cp1 = _mm256_blendv_epi8(cp1, _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(cp1, 10), next1), offset), h1);
    }
    // Full-width stores spill at most 16 bytes: safe when the next block converts to at least as many.
    const bool spill = n - c.i >= take + 16u && pairs_complete(p + c.i + take);
    const unsigned keep = ((1u << take) - 1) & ~low;
    c.o = encode8(c.o, cp0, keep & 0xFFu, spill);
    c.o = encode8(c.o, cp1, keep >> 8, spill);
    c.i += take;
  }
  return finish_scalar<Strict>(p, n, out, c, repl);
}

/// UTF-32 to UTF-8, 8 units at a time; blocks holding a surrogate or a value above U+10FFFF go scalar.
template <bool Strict>
UTF8DFA_TARGET_AVX2 conversion_result utf32_to_utf8_impl(const char32_t* p, std::size_t n, unsigned char* out,
                                                         char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = replace{replacement}.replacement_value();
  while (n - c.i >= 8) {
    const __m256i cp = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    if (_mm256_testz_si256(cp, _mm256_set1_epi32(~0x7F))) {
      const __m256i words = _mm256_packus_epi32(cp, cp);
      const __m256i bytes = _mm256_packus_epi16(words, words);
      const auto lo = static_cast<std::uint32_t>(_mm256_cvtsi256_si32(bytes));
      const auto hi = static_cast<std::uint32_t>(_mm256_extract_epi32(bytes, 4));
      const std::uint64_t eight = lo | (std::uint64_t{hi} << 32);
      std::memcpy(c.o, &eight, 8);
      c.i += 8;
      c.o += 8;
      continue;
    }
    if (UTF8DFA_UNLIKELY(!all_scalar_values(cp))) {
      if (!scalar_region<Strict>(p, n, c.i + 8, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    // Full-width stores spill at most 12 bytes: safe when the next 16 units are scalar values.
    const bool spill = n - c.i >= 24 &&
                       all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 8))) &&
                       all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 16)));
    c.o = encode8(c.o, cp, 0xFFu, spill);
    c.i += 8;
  }
  return finish_scalar<Strict>(p, n, out, c, repl);
}

// The kernel-table entry points (`replacement == strict_marker` means strict).

UTF8DFA_TARGET_AVX2 inline conversion_result utf8_to_utf32(const unsigned char* p, std::size_t n, char32_t* out,
                                                           char32_t replacement) noexcept {
  return replacement == strict_marker ? utf8_to_utf_impl<true>(p, n, out, replacement)
                                      : utf8_to_utf_impl<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline conversion_result utf8_to_utf16(const unsigned char* p, std::size_t n, char16_t* out,
                                                           char32_t replacement) noexcept {
  return replacement == strict_marker ? utf8_to_utf_impl<true>(p, n, out, replacement)
                                      : utf8_to_utf_impl<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline conversion_result utf16_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                                           char32_t replacement) noexcept {
  return replacement == strict_marker ? utf16_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf16_to_utf8_impl<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline conversion_result utf32_to_utf8(const char32_t* p, std::size_t n, unsigned char* out,
                                                           char32_t replacement) noexcept {
  return replacement == strict_marker ? utf32_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf32_to_utf8_impl<false>(p, n, out, replacement);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
#endif
