// utf8dfa: AVX-512 transcoding kernels (F/BW/VL/DQ/VBMI/VBMI2). Same results as the scalar functions
// of scalar.hpp, byte for byte, for both policies: blocks that are valid go through the vector path;
// a block holding an error is re-run through the scalar DFA (decode_at, decode_utf16_at, ...) up to
// the block end and the vector path resumes behind it. Tails use masked loads and stores: nothing is
// read past the input nor written past the exact output length.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_TRANSCODE_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_TRANSCODE_HPP

#include "../../kernel_table.hpp"
#include "../../scalar.hpp"
#include "../target.hpp"
#include "../transcode_common.hpp"
#include "utf8_block.hpp"

#if UTF8DFA_X86_KERNELS
#include <cstddef>
#include <cstdint>

// GCC 12's AVX-512 intrinsics seed their results with a self-initialised "undefined" vector, which
// -Wmaybe-uninitialized / -Wuninitialized report once they are inlined (GCC bug 105593); nothing
// here is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

namespace avx512 {

/// Bits [0, k) of a 64-bit mask (k <= 64).
inline std::uint64_t low_bits(std::size_t k) noexcept {
  return k >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;
}

/// w with the two bytes of each 16-bit unit exchanged when Swap (UTF-16 in the byte order opposite
/// to the host's, as loaded or to be stored): one rotate, no constant.
template <bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i in_order16(__m512i w) noexcept {
  if constexpr (Swap)
    return _mm512_shldi_epi16(w, w, 8);
  else
    return w;
}

template <bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m256i in_order16(__m256i w) noexcept {
  if constexpr (Swap)
    return _mm256_shldi_epi16(w, w, 8);
  else
    return w;
}

/// The bytes 0, 1, .. 63.
UTF8DFA_TARGET_AVX512 inline __m512i byte_iota() noexcept {
  return _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40,
                         39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                         15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}

/// The constants of store_code_points and decode16, built once before a loop.
struct cp_constants {
  __m512i supp, high, low_bits10, low_tag, raw_bits, raw_weights, raw_fold, quad_offsets;

  UTF8DFA_TARGET_AVX512 cp_constants() noexcept
      : supp(opaque(_mm512_set1_epi32(0x10000))),
        high(opaque(_mm512_set1_epi32(0xD7C0))),
        low_bits10(opaque(_mm512_set1_epi32(0x3FF))),
        low_tag(opaque(_mm512_set1_epi32(0xDC00))),
        raw_bits(opaque(_mm512_set1_epi32(0x7F3F3F3F))),
        raw_weights(opaque(_mm512_set1_epi16(0x4001))),
        raw_fold(opaque(_mm512_set1_epi32(0x10000001))),
        quad_offsets(opaque(_mm512_set1_epi32(0x00010203))) {}
};

/// Each of the 16 code points cp as the dword (low surrogate << 16 | high surrogate) of its pair
/// (those of the BMP too, to be blended out).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i surrogate_pairs(const cp_constants& k, __m512i cp) noexcept {
  const __m512i hi = _mm512_add_epi32(_mm512_srli_epi32(cp, 10), k.high);
  const __m512i lo = _mm512_or_si512(_mm512_and_si512(cp, k.low_bits10), k.low_tag);
  return _mm512_or_si512(hi, _mm512_slli_epi32(lo, 16));
}

/// The code points of cp in `live` (valid scalar values; `supp` those above FFFF) as UTF-16 at o
/// (its bytes exchanged when Swap), by one compress of their units, without a branch.
template <bool Swap = false>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE char16_t* store_utf16_units(const cp_constants& k, char16_t* o, __m512i cp,
                                                                        __mmask16 live, __mmask16 supp) noexcept {
  const __m512i words = _mm512_mask_blend_epi32(supp, cp, surrogate_pairs(k, cp));
  const auto keep = static_cast<__mmask32>(_pdep_u32(live, 0x55555555u) | _pdep_u32(supp, 0xAAAAAAAAu));
  const unsigned units = static_cast<unsigned>(__builtin_popcount(keep));
  _mm512_mask_storeu_epi16(o, static_cast<__mmask32>(low_bits(units)),
                           _mm512_maskz_compress_epi16(keep, in_order16<Swap>(words)));
  return o + units;
}

/// The 16 code points cp (valid scalar values) as UTF-16 at o: 16 pairs by one whole store, else
/// store_utf16_units (without a branch on whether there is a pair: in text that mixes the BMP with
/// supplementary characters, such a branch mispredicted about every other block).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE char16_t* store_utf16_values16(const cp_constants& k, char16_t* o,
                                                                           __m512i cp) noexcept {
  const __mmask16 supp = _mm512_cmpge_epu32_mask(cp, k.supp);
  if (supp == 0xFFFF) {
    _mm512_storeu_si512(o, surrogate_pairs(k, cp));
    return o + 32;
  }
  return store_utf16_units(k, o, cp, 0xFFFF, supp);
}

/// Writes up to 16 code points (valid scalar values) as UTF-32 or UTF-16 (its bytes exchanged when Swap).
template <bool Swap = false, class Out>
UTF8DFA_TARGET_AVX512 inline Out* store_code_points(const cp_constants& k, Out* o, __m512i cp,
                                                    unsigned count) noexcept {
  const auto live = static_cast<__mmask16>(low_bits(count));
  if constexpr (sizeof(Out) == 4) {
    _mm512_mask_storeu_epi32(o, live, cp);
    return o + count;
  } else {
    const __mmask16 supp = _mm512_mask_cmpge_epu32_mask(live, cp, k.supp);
    if (supp == 0) {
      _mm256_mask_storeu_epi16(o, live, in_order16<Swap>(_mm512_cvtepi32_epi16(cp)));
      return o + count;
    }
    if (supp == 0xFFFF) {  // 16 pairs: 32 units, in order, one whole store (emoji at 1 KiB: 1.00x -> 1.31x)
      _mm512_storeu_si512(o, in_order16<Swap>(surrogate_pairs(k, cp)));
      return o + 32;
    }
    return store_utf16_units<Swap>(k, o, cp, live, supp);
  }
}

/// Decodes the 16 characters of the valid block v whose lead positions are the bytes of `pos`
/// selected by `quads` (each dword: one index, four times).
UTF8DFA_TARGET_AVX512 inline __m512i decode16(const cp_constants& k, __m512i v, __m512i pos, __m512i quads,
                                              __m512i shifts, __m512i masks) noexcept {
  // Bytes lead+3, lead+2, lead+1, lead from low to high: the lead ends up in the top byte.
  const __m512i idx = _mm512_add_epi8(_mm512_permutexvar_epi8(quads, pos), k.quad_offsets);
  const __m512i raw = _mm512_permutexvar_epi8(idx, v);
  const __m512i bits = _mm512_and_si512(raw, k.raw_bits);
  const __m512i pairs = _mm512_maddubs_epi16(bits, k.raw_weights);  // b3 + b2 * 64
  const __m512i value = _mm512_madd_epi16(pairs, k.raw_fold);       // .. + b1b0 * 4096
  const __m512i nibble = _mm512_srli_epi32(raw, 28);
  return _mm512_and_si512(_mm512_srlv_epi32(value, _mm512_permutexvar_epi32(nibble, shifts)),
                          _mm512_permutexvar_epi32(nibble, masks));
}

/// Writes the first `count` (0..32, more is cut) of the 32 code points in cp0, cp1 (as store_code_points).
template <bool Swap = false, class Out>
UTF8DFA_TARGET_AVX512 inline Out* store_code_points2(const cp_constants& k, Out* o, __m512i cp0, __m512i cp1,
                                                     unsigned count) noexcept {
  const unsigned n0 = count < 16 ? count : 16u, n1 = count < 16 ? 0u : count < 32 ? count - 16 : 16u;
  if constexpr (sizeof(Out) == 2) {
    const __mmask16 supp = _mm512_mask_cmpge_epu32_mask(static_cast<__mmask16>(low_bits(n0)), cp0, k.supp) |
                           _mm512_mask_cmpge_epu32_mask(static_cast<__mmask16>(low_bits(n1)), cp1, k.supp);
    if (supp == 0) {  // one store of up to 32 units
      const __m512i words =
          _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(cp0)), _mm512_cvtepi32_epi16(cp1), 1);
      _mm512_mask_storeu_epi16(o, static_cast<__mmask32>(low_bits(n0 + n1)), in_order16<Swap>(words));
      return o + n0 + n1;
    }
  }
  return store_code_points<Swap>(k, store_code_points<Swap>(k, o, cp0, n0), cp1, n1);
}

/// The constants of decode_block, beyond cp_constants.
struct gather_constants {
  __m512i iota, quads, shifts, masks;

  UTF8DFA_TARGET_AVX512 gather_constants() noexcept
      : iota(byte_iota()),
        quads(_mm512_set_epi8(15, 15, 15, 15, 14, 14, 14, 14, 13, 13, 13, 13, 12, 12, 12, 12, 11, 11, 11, 11, 10, 10,
                              10, 10, 9, 9, 9, 9, 8, 8, 8, 8, 7, 7, 7, 7, 6, 6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3,
                              3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0)),
        // Lead-byte high nibble -> right shift and payload mask of the gathered value (8..B never lead).
        shifts(_mm512_setr_epi32(18, 18, 18, 18, 18, 18, 18, 18, 0, 0, 0, 0, 12, 12, 6, 0)),
        masks(_mm512_setr_epi32(0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0, 0, 0, 0, 0x7FF, 0x7FF, 0xFFFF,
                                0x1FFFFF)) {}
};

/// Writes the characters of the valid block v that start at the bits of `starts` (ASCII bytes and
/// leads), each decoded from its 4 bytes gathered into a dword (any form: the path of blocks with a
/// 4-byte one); returns the end of the output.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE Out* decode_block(const cp_constants& cpk, const gather_constants& g,
                                                              __m512i v, std::uint64_t starts, Out* o) noexcept {
  const auto chars = static_cast<unsigned>(__builtin_popcountll(starts));
  const __m512i pos = _mm512_maskz_compress_epi8(starts, g.iota);
  // Text of mostly 4-byte forms has at most 16 characters a block, one group of 16.
  if (chars <= 16) return store_code_points<Swap>(cpk, o, decode16(cpk, v, pos, g.quads, g.shifts, g.masks), chars);
  o = store_code_points2<Swap>(cpk, o, decode16(cpk, v, pos, g.quads, g.shifts, g.masks),
                               decode16(cpk, v, pos, _mm512_add_epi8(g.quads, _mm512_set1_epi8(16)), g.shifts, g.masks),
                               chars);
  if (UTF8DFA_UNLIKELY(chars > 32))
    o = store_code_points2<Swap>(
        cpk, o, decode16(cpk, v, pos, _mm512_add_epi8(g.quads, _mm512_set1_epi8(32)), g.shifts, g.masks),
        decode16(cpk, v, pos, _mm512_add_epi8(g.quads, _mm512_set1_epi8(48)), g.shifts, g.masks), chars - 32);
  return o;
}

/// The constants of decode_bmp, built once before a loop.
struct bmp_constants {
  __m512i payload, weights, low6, ascii;

  UTF8DFA_TARGET_AVX512 bmp_constants() noexcept
      : payload(opaque(_mm512_set1_epi16(0x3F1F))),
        weights(opaque(_mm512_set1_epi16(0x0140))),
        low6(opaque(_mm512_set1_epi16(0x3F))),
        ascii(opaque(_mm512_set1_epi16(0x7F))) {}
};

/// Decodes, in each 16-bit lane holding (byte, next byte) in `pairs` and the byte after them in the
/// low byte of `thirds`, the 1-, 2- or 3-byte form starting there; `multi` selects the lanes whose
/// first byte is not ASCII, `three` those whose form is 3 bytes long.
UTF8DFA_TARGET_AVX512 inline __m512i decode_bmp(const bmp_constants& k, __m512i pairs, __m512i thirds, __mmask32 multi,
                                                __mmask32 three) noexcept {
  // (b0 & 1F) * 64 + (b1 & 3F): the 2-byte value; a 3-byte lead has bit 4 clear, so shifting this by
  // 6 in a 16-bit lane leaves (b0 & 0F) << 12 | (b1 & 3F) << 6, and b2's payload completes it.
  const __m512i two = _mm512_maddubs_epi16(_mm512_and_si512(pairs, k.payload), k.weights);
  const __m512i full = _mm512_ternarylogic_epi32(_mm512_slli_epi16(two, 6), thirds, k.low6, 0xF8);  // a | b & c
  return _mm512_mask_blend_epi16(three, _mm512_mask_blend_epi16(multi, _mm512_and_si512(pairs, k.ascii), two), full);
}

/// Writes the BMP code points of the first `count` 16-bit lanes selected by `sel`, packed, as UTF-32
/// or UTF-16. (`sel` may select more lanes after those: a mask straight from a compare, taken
/// without a round trip through a general register, which is slow on AMD Zen 5.) UTF-16 has its
/// bytes exchanged when Swap.
template <bool Swap = false, class Out>
UTF8DFA_TARGET_AVX512 inline Out* store_units(Out* o, __m512i units, __mmask32 sel, unsigned count) noexcept {
  if constexpr (sizeof(Out) == 2) {
    const __m512i packed = _mm512_maskz_compress_epi16(sel, in_order16<Swap>(units));
    _mm512_mask_storeu_epi16(o, static_cast<__mmask32>(low_bits(count)), packed);
  } else {
    const __m512i packed = _mm512_maskz_compress_epi16(sel, units);
    const unsigned n0 = count < 16 ? count : 16u;
    _mm512_mask_storeu_epi32(o, static_cast<__mmask16>(low_bits(n0)),
                             _mm512_cvtepu16_epi32(_mm512_castsi512_si256(packed)));
    _mm512_mask_storeu_epi32(o + 16, static_cast<__mmask16>(low_bits(count - n0)),
                             _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(packed, 1)));
  }
  return o + count;
}

/// Widens the 32 ASCII bytes at q to 32 units at o (UTF-32, or UTF-16 with its bytes exchanged when
/// Swap). Each widening reads its bytes from memory: one load and one shuffle-port uop, where a lane
/// extract from a register would be a second. (q is made opaque: clang++ 14 otherwise took the bytes
/// from the block its caller loaded from q, through general registers and 32 byte inserts, UTF-8 to
/// UTF-16 of English text at a quarter of g++'s speed.)
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void widen_ascii32(Out* o, const unsigned char* q) noexcept {
  q = detail::opaque(q);
  if constexpr (sizeof(Out) == 4) {
    _mm512_storeu_si512(o, _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q))));
    _mm512_storeu_si512(o + 16, _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 16))));
  } else {
    _mm512_storeu_si512(
        o, in_order16<Swap>(_mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q)))));
  }
}

/// Widens the first n (at most 64) bytes of v, ASCII (`live`: their mask), to units at o with masked
/// stores: nothing is written past o + n.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void widen_ascii_first(Out* o, __m512i v, std::size_t n,
                                                                   __mmask64 live) noexcept {
  if constexpr (sizeof(Out) == 2) {
    _mm512_mask_storeu_epi16(o, static_cast<__mmask32>(live),
                             in_order16<Swap>(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(v))));
    if (n > 32)
      _mm512_mask_storeu_epi16(o + 32, static_cast<__mmask32>(live >> 32),
                               in_order16<Swap>(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1))));
  } else {
    _mm512_mask_storeu_epi32(o, static_cast<__mmask16>(live), _mm512_cvtepu8_epi32(_mm512_castsi512_si128(v)));
    if (n > 16)
      _mm512_mask_storeu_epi32(o + 16, static_cast<__mmask16>(live >> 16),
                               _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 1)));
    if (n > 32) {
      _mm512_mask_storeu_epi32(o + 32, static_cast<__mmask16>(live >> 32),
                               _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 2)));
      _mm512_mask_storeu_epi32(o + 48, static_cast<__mmask16>(live >> 48),
                               _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 3)));
    }
  }
}

/// 64-bit word e of the byte permute that puts bytes (base + j, base + j + 1) in 16-bit lane j.
constexpr long long lane_pair_word(int base, int e) noexcept {
  unsigned long long v = 0;
  for (int t = 0; t < 4; ++t) {
    const auto j = static_cast<unsigned long long>(base + 4 * e + t);
    v |= (j & 63) << (16 * t) | ((j + 1) & 63) << (16 * t + 8);
  }
  return static_cast<long long>(v);
}

/// The lane_pair_word permute of `base`.
template <int Base>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i lane_pairs() noexcept {
  return _mm512_set_epi64(lane_pair_word(Base, 7), lane_pair_word(Base, 6), lane_pair_word(Base, 5),
                          lane_pair_word(Base, 4), lane_pair_word(Base, 3), lane_pair_word(Base, 2),
                          lane_pair_word(Base, 1), lane_pair_word(Base, 0));
}

/// The leads C2..DF of v, when v (`high`: its bytes 80..FF) holds no byte E0..FF, and whether its
/// 2-byte forms are well-formed: every continuation right after a lead and every lead but one at
/// bit 63 right before one. Set in the result: the bytes that break this (a C0, C1 or F5..FF byte
/// is neither; a lead before the end of a shorter block wants the zero loaded past it).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::uint64_t two_byte_errors(__m512i v, std::uint64_t high,
                                                                          std::uint64_t& lead) noexcept {
  lead = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8(static_cast<char>(0xC2))), _mm512_set1_epi8(0x1E));
  const std::uint64_t cont = _mm512_mask_cmplt_epu8_mask(high, v, _mm512_set1_epi8(static_cast<char>(0xC0)));
  return (high & ~lead & ~cont) | ((lead << 1) ^ cont);
}

/// Decodes the block v (from a character boundary; `high` and `lead` its bytes 80..FF and its
/// leads, no byte E0..FF, well-formed by two_byte_errors) up to byte `take`: its length, less one
/// when a whole block ends in a lead (which waits for the next block; read from memory by the
/// caller, so that the next block's address waits on a short chain).
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void two_byte_block(const bmp_constants& k, __m512i v, std::uint64_t high,
                                                                std::uint64_t lead, std::size_t take,
                                                                transcode_cursor<Out>& c) noexcept {
  // The characters' first bytes: ASCII and leads, not the zeros loaded past a shorter block.
  const std::uint64_t starts = (~high | lead) & low_bits(take);
  const auto count0 = static_cast<unsigned>(_mm_popcnt_u32(static_cast<std::uint32_t>(starts)));
  const auto count1 = static_cast<unsigned>(_mm_popcnt_u32(static_cast<std::uint32_t>(starts >> 32)));
  c.o = store_units<Swap>(c.o,
                          decode_bmp(k, _mm512_permutexvar_epi8(lane_pairs<0>(), v), _mm512_setzero_si512(),
                                     static_cast<__mmask32>(high), 0),
                          static_cast<__mmask32>(starts), count0);
  c.o = store_units<Swap>(c.o,
                          decode_bmp(k, _mm512_permutexvar_epi8(lane_pairs<32>(), v), _mm512_setzero_si512(),
                                     static_cast<__mmask32>(high >> 32), 0),
                          static_cast<__mmask32>(starts >> 32), count1);
  c.i += take;
}

/// A valid input of 64 bytes or fewer, converted in one masked block without the block loop's setup
/// (which costs more than such an input). False, with nothing written, for any other input: one
/// with an error, or (unless Supplementary) with a 4-byte form. (The entry points leave 4-byte forms
/// to utf8_short_supplementary: decoding them inline made the entries save registers on every call.)
template <bool Swap, bool Supplementary, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool utf8_short_to_units(const unsigned char* p, std::size_t n, Out* out,
                                                                     packed_conversion& r) noexcept {
  if (n > 64) return false;
  const auto live = static_cast<__mmask64>(low_bits(n));
  const __m512i v = _mm512_maskz_loadu_epi8(live, p);
  const std::uint64_t high = _mm512_movepi8_mask(v);
  if (high == 0) {
    widen_ascii_first<Swap>(out, v, n, live);
    r = {n, n, error_code::none};
    return true;
  }
  const std::uint64_t ge_e0 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xE0)));
  if (ge_e0 == 0) {
    // Leads C2..DF, continuations 80..BF: each continuation right after a lead and the other way
    // round, no lead last (a lead at n - 1 wants a continuation at n, where the load put a zero).
    std::uint64_t lead;
    if ((two_byte_errors(v, high, lead) | (lead >> 63)) != 0) return false;
  } else {
    // 3- and 4-byte forms too: the block check (a form cut by the end of the input is an error there,
    // the load having put zeros after it; with 64 bytes, a lead among the last three that needs more
    // is one too).
    const std::uint64_t ge_f0 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xF0)));
    if (!Supplementary && ge_f0 != 0) return false;
    const std::uint64_t ge_c0 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xC0)));
    if (((ge_c0 >> 63) | (ge_e0 >> 62) | (ge_f0 >> 61)) != 0 || utf8_block_checker().has_error(v, ge_e0, ge_f0))
      return false;
    if (Supplementary && ge_f0 != 0) {  // decoded as the block loop decodes a block with a 4-byte form
      const std::uint64_t starts = _mm512_mask_cmpge_epi8_mask(live, v, _mm512_set1_epi8(static_cast<char>(0xC0)));
      r = {n, static_cast<std::size_t>(decode_block<Swap>(cp_constants(), gather_constants(), v, starts, out) - out),
           error_code::none};
      return true;
    }
  }
  const bmp_constants k;
  // The characters' first bytes: ASCII and leads (signed, at or above C0).
  const std::uint64_t starts = _mm512_mask_cmpge_epi8_mask(live, v, _mm512_set1_epi8(static_cast<char>(0xC0)));
  const auto count0 = static_cast<unsigned>(_mm_popcnt_u32(static_cast<std::uint32_t>(starts)));
  const auto count1 = static_cast<unsigned>(_mm_popcnt_u32(static_cast<std::uint32_t>(starts >> 32)));
  const __m512i thirds0 = ge_e0 == 0 ? _mm512_setzero_si512() : _mm512_permutexvar_epi8(lane_pairs<2>(), v);
  Out* o = store_units<Swap>(out,
                             decode_bmp(k, _mm512_permutexvar_epi8(lane_pairs<0>(), v), thirds0,
                                        static_cast<__mmask32>(high), static_cast<__mmask32>(ge_e0)),
                             static_cast<__mmask32>(starts), count0);
  if (n > 32) {
    const __m512i thirds1 = ge_e0 == 0 ? _mm512_setzero_si512() : _mm512_permutexvar_epi8(lane_pairs<34>(), v);
    o = store_units<Swap>(o,
                          decode_bmp(k, _mm512_permutexvar_epi8(lane_pairs<32>(), v), thirds1,
                                     static_cast<__mmask32>(high >> 32), static_cast<__mmask32>(ge_e0 >> 32)),
                          static_cast<__mmask32>(starts >> 32), count1);
  }
  r = {n, static_cast<std::size_t>(o - out), error_code::none};
  return true;
}

/// UTF-8 to UTF-32 or UTF-16, from byte `start` on (the end of the ASCII bytes the caller has
/// written, one output unit each). Blocks of 64 bytes start on a character boundary; a valid block is
/// decoded up to its last complete character by gathering each character's 4 bytes into a dword.
/// UTF-16 is written with the bytes of each unit exchanged when Swap.
template <bool Strict, class Out, bool Swap = false>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion utf8_to_utf_impl(const unsigned char* p, std::size_t n,
                                                                          Out* out, char32_t replacement,
                                                                          std::size_t start) noexcept {
  transcode_cursor<Out> c{start, out + start, error_code::none};
  // Blocks of ASCII and 2-byte forms, then a valid rest of up to 64 bytes without a 4-byte form,
  // each before the constants of the next are built: those of the block loop took a fifth of the
  // time of a 256-byte conversion.
  const bmp_constants bmp;
  const __m512i e0 = opaque(_mm512_set1_epi8(static_cast<char>(0xE0)));
  while (n - c.i >= 64) {
    const __m512i v = _mm512_loadu_si512(p + c.i);
    const std::uint64_t high = _mm512_movepi8_mask(v);
    if (high == 0) {
      widen_ascii32<Swap>(c.o, p + c.i);
      widen_ascii32<Swap>(c.o + 32, p + c.i + 32);
      c.i += 64;
      c.o += 64;
      continue;
    }
    std::uint64_t lead;
    if (_mm512_cmpge_epu8_mask(v, e0) != 0 || two_byte_errors(v, high, lead) != 0) break;
    two_byte_block<Swap>(bmp, v, high, lead, 64u - (p[c.i + 63] >= 0xC0), c);
  }
  if (n - c.i <= 64 && c.i != 0) {  // (the entry points try an input of up to 64 bytes whole)
    if (c.i == n) return {n, static_cast<std::size_t>(c.o - out), error_code::none};
    packed_conversion r;
    if (utf8_short_to_units<Swap, false>(p + c.i, n - c.i, c.o, r))
      return {n, static_cast<std::size_t>(c.o - out) + r.written, error_code::none};
  }
  const char32_t repl = kernel_repl(replacement);
  // Byte indices (k, k+1) and (k+2, k+3) for the positions k = 0..31 and 32..63 (wrapping past 63:
  // never needed by a lead that is taken).
  const __m512i pairs_lo = lane_pairs<0>(), pairs_hi = lane_pairs<32>();
  const __m512i thirds_lo = lane_pairs<2>(), thirds_hi = lane_pairs<34>();
  // The constants of the loop's paths, built here once (see opaque).
  const utf8_block_checker checker;
  const cp_constants cpk;
  const gather_constants gather;
  const __m512i f0 = opaque(_mm512_set1_epi8(static_cast<char>(0xF0)));
  const __m512i c0 = opaque(_mm512_set1_epi8(static_cast<char>(0xC0)));
  while (c.i < n) {
    const std::size_t avail = n - c.i < 64 ? n - c.i : 64;
    const __mmask64 live = low_bits(avail);
    const __m512i v = _mm512_maskz_loadu_epi8(live, p + c.i);
    const __mmask64 high = _mm512_movepi8_mask(v);
    if (avail == 64 && static_cast<std::uint32_t>(high) == 0) {  // the first half is ASCII: widen it
      widen_ascii32<Swap>(c.o, p + c.i);
      c.o += 32;
      c.i += 32;
      if (high == 0) {  // and the second
        widen_ascii32<Swap>(c.o, p + c.i);
        c.o += 32;
        c.i += 32;
        // The ASCII run that follows, 64 bytes per step.
        for (; n - c.i >= 64; c.i += 64, c.o += 64) {
          const __m512i a = _mm512_loadu_si512(p + c.i);
          if (_mm512_movepi8_mask(a) != 0) break;
          widen_ascii32<Swap>(c.o, p + c.i);
          widen_ascii32<Swap>(c.o + 32, p + c.i + 32);
        }
      }
      continue;
    }
    if (high == 0) {  // a short ASCII tail: widen with masked stores
      widen_ascii_first<Swap>(c.o, v, avail, live);
      c.o += avail;
      c.i += avail;
      continue;
    }
    const __mmask64 ge_e0 = _mm512_cmpge_epu8_mask(v, e0);
    const __mmask64 ge_f0 = _mm512_cmpge_epu8_mask(v, f0);
    if (ge_e0 == 0) {  // 1- and 2-byte forms only: checked with masks
      std::uint64_t lead;
      if (UTF8DFA_LIKELY(two_byte_errors(v, high, lead) == 0)) {
        two_byte_block<Swap>(bmp, v, high, lead, avail == 64 ? 64u - (p[c.i + 63] >= 0xC0) : avail, c);
        continue;
      }
    } else if (UTF8DFA_LIKELY(!checker.has_error(v, ge_e0, ge_f0))) {
      // The lead bytes (with, in a final block, the zero bytes past the input: past the characters).
      const __mmask64 leads = _mm512_cmpge_epi8_mask(v, c0);
      // A character cut by the block end (a lead among the last 1..3 bytes that needs more) waits for
      // the next block; in a shorter, final block it would have been an error. Read from memory
      // rather than from the masks: the next block's address then waits on a short chain.
      std::size_t take = avail;
      if (avail == 64) {
        const unsigned b61 = p[c.i + 61], b62 = p[c.i + 62], b63 = p[c.i + 63];
        take = b63 >= 0xC0 ? 63u : b62 >= 0xE0 ? 62u : b61 >= 0xF0 ? 61u : 64u;
      }
      const __mmask64 starts = leads & low_bits(take);
      const auto count0 = static_cast<unsigned>(__builtin_popcount(static_cast<std::uint32_t>(starts)));
      const auto count1 = static_cast<unsigned>(__builtin_popcountll(starts >> 32));
      if (ge_f0 == 0) {
        // 1-, 2- and 3-byte forms only: each position's (byte, next byte) and the byte after as 16-bit
        // lanes, decoded there, and the lanes at lead positions packed.
        c.o = store_units<Swap>(
            c.o,
            decode_bmp(bmp, _mm512_permutexvar_epi8(pairs_lo, v), _mm512_permutexvar_epi8(thirds_lo, v),
                       static_cast<__mmask32>(high), static_cast<__mmask32>(ge_e0)),
            static_cast<__mmask32>(leads), count0);
        c.o = store_units<Swap>(
            c.o,
            decode_bmp(bmp, _mm512_permutexvar_epi8(pairs_hi, v), _mm512_permutexvar_epi8(thirds_hi, v),
                       static_cast<__mmask32>(high >> 32), static_cast<__mmask32>(ge_e0 >> 32)),
            static_cast<__mmask32>(leads >> 32), count1);
        c.i += take;
        continue;
      }
      // Only blocks holding a 4-byte form come here.
      c.o = decode_block<Swap>(cpk, gather, v, starts, c.o);
      c.i += take;
      continue;
    }
    UTF8DFA_LEAVE_AVX();
    if (!scalar_region_in_order<Strict, Swap>(p, n, c.i + avail, c, repl))
      return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  }
  return {n, static_cast<std::size_t>(c.o - out), c.first};
}

/// Writes the UTF-8 form of the 16 scalar values in `cp` selected by `keep`, in order.
UTF8DFA_TARGET_AVX512 inline unsigned char* encode16(unsigned char* o, __m512i cp, __mmask16 keep) noexcept {
  const __mmask16 one = _mm512_cmplt_epu32_mask(cp, _mm512_set1_epi32(0x80));
  const __mmask16 two = _mm512_cmplt_epu32_mask(cp, _mm512_set1_epi32(0x800));
  const __mmask16 three = _mm512_cmplt_epu32_mask(cp, _mm512_set1_epi32(0x10000));
  // The 4-byte payload fields, first byte lowest: cp>>18, cp>>12 & 3F, cp>>6 & 3F, cp & 3F.
  const __m512i spread =
      _mm512_or_si512(_mm512_or_si512(_mm512_and_si512(_mm512_slli_epi32(cp, 24), _mm512_set1_epi32(0x3F000000)),
                                      _mm512_and_si512(_mm512_slli_epi32(cp, 10), _mm512_set1_epi32(0x003F0000))),
                      _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(cp, 4), _mm512_set1_epi32(0x00003F00)),
                                      _mm512_srli_epi32(cp, 18)));
  // Shorter forms drop the leading fields; then the RFC 3629 tag bits.
  __m512i shift = _mm512_mask_mov_epi32(_mm512_setzero_si512(), three, _mm512_set1_epi32(8));
  shift = _mm512_mask_mov_epi32(shift, two, _mm512_set1_epi32(16));
  __m512i tag =
      _mm512_mask_mov_epi32(_mm512_set1_epi32(static_cast<int>(0x808080F0u)), three, _mm512_set1_epi32(0x008080E0));
  tag = _mm512_mask_mov_epi32(tag, two, _mm512_set1_epi32(0x000080C0));
  __m512i bytes = _mm512_or_si512(_mm512_srlv_epi32(spread, shift), tag);
  bytes = _mm512_mask_mov_epi32(bytes, one, cp);
  // Every byte of a multi-byte form is nonzero; the first byte of each dword is always kept.
  const std::uint64_t nibbles = _pdep_u64(keep, 0x1111111111111111ull) * 0xF;
  const __mmask64 sel = (_mm512_test_epi8_mask(bytes, bytes) | 0x1111111111111111ull) & nibbles;
  const unsigned count = static_cast<unsigned>(__builtin_popcountll(sel));
  _mm512_mask_storeu_epi8(o, low_bits(count), _mm512_maskz_compress_epi8(sel, bytes));
  return o + count;
}

/// The constants of the UTF-16/UTF-32 to UTF-8 encoders (16-bit lanes unless said otherwise), made
/// once per call. Each is passed through an empty asm statement, which hides its value from the
/// compiler: GCC otherwise rebuilds a vector constant at each use inside the loop from an immediate
/// (mov, vpbroadcastw: a port-5 uop, the port the permutes and compresses also need).
struct encode_consts {
  __m512i x80, x800, xD800, xFC00, xDC00;   // classification
  __m512i x80C0, x3F00, xC000, x80E0, x3F;  // tags and payload fields
  __m512i x3FF, x40, x80F0, x30, x0F;       // surrogate pairs
  __m512i dw_idx0, dw_idx1;                 // pack_triples: (first | last << 16) as dwords, units 0..15, 16..31
  __m512i even;                             // bytes 0, 2, .. 126
  __m512i x00800000;                        // pack_triples: the sign bit of each dword's third byte
  __m512i short_fields, x3F1F;              // encode_short32: multishift offsets (6, 0 of each lane), masks
  // 16 aligned pairs (encode_pairs16, 32-bit lanes): payload masks, the madd factors (1024, 1), 10000,
  // the multishift fields (18, 12, 6, 0 of each dword), the field masks and the tag bits.
  __m512i pair_payload, pair_madd, x10000, pair_fields, x3F3F3F3F, x808080F0;
};

/// 64 bytes of a vector constant, made at compile time (x86 is little-endian).
struct vector_bytes {
  unsigned char b[64];
};

/// The value v (of `width` bytes) in every lane.
constexpr vector_bytes splat_bytes(std::uint64_t v, unsigned width) noexcept {
  vector_bytes r{};
  for (unsigned i = 0; i < 64; ++i) r.b[i] = static_cast<unsigned char>(v >> (8 * (i % width)));
  return r;
}

/// pack_triples' byte indices: dword j takes the bytes 2j, 2j+1 of `first` and of `last` (+64),
/// offset by `base` units.
constexpr vector_bytes triple_indices(unsigned base) noexcept {
  vector_bytes r{};
  for (unsigned j = 0; j < 16; ++j) {
    r.b[4 * j] = static_cast<unsigned char>(2 * (base + j));
    r.b[4 * j + 1] = static_cast<unsigned char>(2 * (base + j) + 1);
    r.b[4 * j + 2] = static_cast<unsigned char>(64 + 2 * (base + j));
    r.b[4 * j + 3] = static_cast<unsigned char>(65 + 2 * (base + j));
  }
  return r;
}

/// The bytes 0, 2, .. 126.
constexpr vector_bytes even_bytes() noexcept {
  vector_bytes r{};
  for (unsigned i = 0; i < 64; ++i) r.b[i] = static_cast<unsigned char>(2 * i);
  return r;
}

/// The vector holding the bytes of v.
UTF8DFA_TARGET_AVX512 constexpr __m512i as_vector(const vector_bytes& v) noexcept {
  long long q[8]{};
  for (unsigned i = 0; i < 64; ++i)
    q[i / 8] = static_cast<long long>(static_cast<unsigned long long>(q[i / 8]) |
                                      (static_cast<unsigned long long>(v.b[i]) << (8 * (i % 8))));
  return __m512i{q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]};
}

UTF8DFA_TARGET_AVX512 constexpr __m512i splat16(std::uint16_t v) noexcept {
  return as_vector(splat_bytes(v, 2));
}

UTF8DFA_TARGET_AVX512 constexpr __m512i splat32(std::uint32_t v) noexcept {
  return as_vector(splat_bytes(v, 4));
}

/// The encoder constants, in memory. A call loads those its blocks use (loads folded into the
/// instructions, no ALU work): building all of them in registers first, and spilling them for the
/// out-of-line block functions, cost a short input more than its conversion.
inline constexpr encode_consts encode_table = {splat16(0x80),
                                               splat16(0x800),
                                               splat16(0xD800),
                                               splat16(0xFC00),
                                               splat16(0xDC00),
                                               splat16(0x80C0),
                                               splat16(0x3F00),
                                               splat16(0xC000),
                                               splat16(0x80E0),
                                               splat16(0x3F),
                                               splat16(0x3FF),
                                               splat16(0x40),
                                               splat16(0x80F0),
                                               splat16(0x30),
                                               splat16(0x0F),
                                               as_vector(triple_indices(0)),
                                               as_vector(triple_indices(16)),
                                               as_vector(even_bytes()),
                                               splat32(0x00800000),
                                               as_vector(splat_bytes(0x3036202610160006, 8)),
                                               splat16(0x3F1F),
                                               splat32(0x03FF03FF),
                                               splat32(0x00010400),
                                               splat32(0x10000),
                                               as_vector(splat_bytes(0x20262C3200060C12, 8)),
                                               splat32(0x3F3F3F3F),
                                               splat32(0x808080F0u)};

/// encode_table, its address hidden from the compiler: GCC would otherwise rebuild the values from
/// immediates (mov, vpbroadcast: a port-5 uop) instead of loading them.
inline const encode_consts& encode_constants() noexcept {
  const encode_consts* k = &encode_table;
  __asm__("" : "+r"(k));
  return *k;
}

/// Writes the UTF-8 forms of the code points below U+0800 in the first `units` 16-bit lanes of w (32
/// unless Tail; the others are zero); `two` marks the lanes at or above U+0080. One compress: the
/// bytes kept are those with the sign bit set (both bytes of a 2-byte form) and every low byte.
template <bool Tail>
UTF8DFA_TARGET_AVX512 inline unsigned char* encode_short32(unsigned char* o, __m512i w, __mmask32 two,
                                                           std::size_t units, const encode_consts& k) noexcept {
  // Per unit: lead byte low, continuation byte high (RFC 3629 section 3), or the ASCII byte.
  // One multishift puts w >> 6 (below 20 here) in the low byte and w in the high byte of each lane.
  const __m512i fields = _mm512_multishift_epi64_epi8(k.short_fields, w);
  const __m512i forms =
      _mm512_mask_blend_epi16(two, w, _mm512_ternarylogic_epi32(fields, k.x3F1F, k.x80C0, 0xEA));  // a & b | c
  // Each low byte is kept: its sign bit is forced in the copy the mask is taken from.
  __mmask64 keep = _mm512_movepi8_mask(_mm512_or_si512(forms, k.x80));
  if (Tail) keep = _kand_mask64(keep, _cvtu64_mask64(low_bits(2 * units)));
  // The byte count from `two` (known early), not from `keep`: the next block's output address then
  // does not wait for this block's multishift and mask chain (short inputs are latency-bound).
  const auto count = static_cast<unsigned>(units) + static_cast<unsigned>(__builtin_popcount(two));
  _mm512_mask_storeu_epi8(o, _bzhi_u64(~std::uint64_t{0}, count), _mm512_maskz_compress_epi8(keep, forms));
  return o + count;
}

/// Writes, for each of the first `units` (32 unless Tail) of 32 units in order, the bytes of its
/// `first` lane that have the sign bit set (low byte, then high byte) and the low byte of its `last`
/// lane: the lanes are interleaved as dwords and the bytes packed with one compress per 16 units.
template <bool Tail>
UTF8DFA_TARGET_AVX512 inline unsigned char* pack_triples(unsigned char* o, __m512i first, __m512i last,
                                                         std::size_t units, const encode_consts& k,
                                                         unsigned known0 = ~0u, unsigned known1 = ~0u) noexcept {
  const __m512i dw0 = _mm512_permutex2var_epi8(first, k.dw_idx0, last);
  const __m512i dw1 = _mm512_permutex2var_epi8(first, k.dw_idx1, last);
  // The high byte of a `last` lane is zero (never kept); its low byte is always kept: its sign bit is
  // forced in the copies the masks are taken from.
  __mmask64 keep0 = _mm512_movepi8_mask(_mm512_or_si512(dw0, k.x00800000));
  __mmask64 keep1 = _mm512_movepi8_mask(_mm512_or_si512(dw1, k.x00800000));
  if (Tail) {
    const std::size_t u0 = units < 16 ? units : 16;
    keep0 = _kand_mask64(keep0, _cvtu64_mask64(low_bits(4 * u0)));
    keep1 = _kand_mask64(keep1, _cvtu64_mask64(low_bits(4 * (units - u0))));
  }
  // The caller may know the byte counts (`known0`, `known1`) before the masks are ready.
  const auto count0 = known0 != ~0u ? known0 : static_cast<unsigned>(__builtin_popcountll(_cvtmask64_u64(keep0)));
  const auto count1 = known1 != ~0u ? known1 : static_cast<unsigned>(__builtin_popcountll(_cvtmask64_u64(keep1)));
  _mm512_mask_storeu_epi8(o, _bzhi_u64(~std::uint64_t{0}, count0), _mm512_maskz_compress_epi8(keep0, dw0));
  _mm512_mask_storeu_epi8(o + count0, _bzhi_u64(~std::uint64_t{0}, count1), _mm512_maskz_compress_epi8(keep1, dw1));
  return o + count0 + count1;
}

/// The `first` lanes of pack_triples for the BMP scalar values of w: E0 | w >> 12 low and
/// 80 | (w >> 6 & 3F) high in a 3-byte form (`three`), 0 low and C0 | w >> 6 high in a 2-byte form
/// (`two` without `three`), bytes with the sign bit clear otherwise.
UTF8DFA_TARGET_AVX512 inline __m512i first_bytes(__m512i w, __mmask32 two, __mmask32 three,
                                                 const encode_consts& k) noexcept {
  // (w >> 6 & 3F) << 8 | w >> 12: below U+0800 the low byte is zero and the high byte w >> 6.
  const __m512i bare =
      _mm512_ternarylogic_epi32(_mm512_slli_epi16(w, 2), k.x3F00, _mm512_srli_epi16(w, 12), 0xEA);  // a & b | c
  return _mm512_mask_add_epi16(_mm512_mask_add_epi16(bare, two, bare, k.xC000), three, bare, k.x80E0);
}

/// The `last` lanes of pack_triples: w itself below 80, else 80 | (w & 3F) (the smaller of the two).
UTF8DFA_TARGET_AVX512 inline __m512i last_bytes(__m512i w, const encode_consts& k) noexcept {
  return _mm512_min_epu16(w, _mm512_ternarylogic_epi32(w, k.x3F, k.x80, 0xEA));
}

/// Writes the UTF-8 forms of the BMP scalar values (no surrogates) in the first `units` 16-bit lanes of
/// w (32 unless Tail; the others are zero); `two` marks the lanes at or above U+0080, `three` those at
/// or above U+0800. Each unit becomes the dword (3-byte lead, the byte before the last, the last byte,
/// 0), built in 16-bit lanes; the bytes its form uses are packed with one compress per 16 units.
/// With `Whole3`, 32 3-byte forms skip the compress (the test is one kortest on `three`; CJK text
/// has long runs of such blocks).
template <bool Whole3, bool Tail>
UTF8DFA_TARGET_AVX512 inline unsigned char* encode_bmp32(unsigned char* o, __m512i w, __mmask32 two, __mmask32 three,
                                                         std::size_t units, const encode_consts& k) noexcept {
  const __m512i first = first_bytes(w, two, three, k);
  const __m512i last = last_bytes(w, k);
  if (Whole3 && three == 0xFFFFFFFFu) {  // 32 3-byte forms: 96 bytes in a fixed order, no compress
    const __m512i head =
        _mm512_set_epi8(42, 104, 41, 40, 102, 39, 38, 100, 37, 36, 98, 35, 34, 96, 33, 32, 94, 31, 30, 92, 29, 28, 90,
                        27, 26, 88, 25, 24, 86, 23, 22, 84, 21, 20, 82, 19, 18, 80, 17, 16, 78, 15, 14, 76, 13, 12, 74,
                        11, 10, 72, 9, 8, 70, 7, 6, 68, 5, 4, 66, 3, 2, 64, 1, 0);
    const __m512i rest = _mm512_set_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                         0, 0, 0, 0, 0, 0, 126, 63, 62, 124, 61, 60, 122, 59, 58, 120, 57, 56, 118, 55,
                                         54, 116, 53, 52, 114, 51, 50, 112, 49, 48, 110, 47, 46, 108, 45, 44, 106, 43);
    _mm512_storeu_si512(o, _mm512_permutex2var_epi8(first, head, last));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 64),
                        _mm512_castsi512_si256(_mm512_permutex2var_epi8(first, rest, last)));
    return o + 96;
  }
  // 1 + (>= 80) + (>= 800) bytes per unit (lanes past the units are zero: in neither mask).
  const std::size_t u0 = units < 16 ? units : 16;
  const auto count0 = static_cast<unsigned>(u0) + static_cast<unsigned>(__builtin_popcount(two & 0xFFFFu)) +
                      static_cast<unsigned>(__builtin_popcount(three & 0xFFFFu));
  const auto count1 = static_cast<unsigned>(units - u0) + static_cast<unsigned>(__builtin_popcount(two >> 16)) +
                      static_cast<unsigned>(__builtin_popcount(three >> 16));
  return pack_triples<Tail>(o, first, last, units, k, count0, count1);
}

/// Writes the UTF-8 forms of the first `units` units of w (the others are zero), where `high` marks the
/// high surrogates (each followed by a low one, marked by `low`, among those units) and `next` holds
/// the unit after each one; `two` and `three` as in encode_bmp32. As encode_bmp32, with the 4-byte form
/// of a pair split between its lanes: F0 | u >> 8, 80 | (u >> 2 & 3F), 80 | (u & 3) << 4 | (lo >> 6 & F)
/// in the high surrogate's (u is its payload plus 40: the plane, then the rest) and 80 | (lo & 3F) in
/// the low one's, whose `first` lane keeps no byte.
template <bool Tail>
UTF8DFA_TARGET_AVX512 inline unsigned char* encode_pairs32(unsigned char* o, __m512i w, __m512i next, __mmask32 two,
                                                           __mmask32 three, __mmask32 high, __mmask32 low,
                                                           std::size_t units, const encode_consts& k) noexcept {
  const __m512i u = _mm512_add_epi16(_mm512_and_si512(w, k.x3FF), k.x40);
  const __m512i lead =
      _mm512_ternarylogic_epi32(_mm512_slli_epi16(u, 6), k.x3F00, _mm512_or_si512(_mm512_srli_epi16(u, 8), k.x80F0),
                                0xEA);  // a & b | c
  const __m512i third = _mm512_ternarylogic_epi32(
      _mm512_slli_epi16(u, 4), k.x30, _mm512_ternarylogic_epi32(_mm512_srli_epi16(next, 6), k.x0F, k.x80, 0xEA), 0xEA);
  // A low surrogate's `first` lane, untagged, has the sign bits clear (D | (w >> 6 & 3F) << 8).
  const __m512i first = _mm512_mask_blend_epi16(high, first_bytes(w, two & ~low, three & ~low, k), lead);
  const __m512i last = _mm512_mask_blend_epi16(high, last_bytes(w, k), third);
  return pack_triples<Tail>(o, first, last, units, k);
}

/// Writes the UTF-8 forms of the 16 surrogate pairs of w (high surrogates in the even lanes): each
/// pair, a dword, becomes its code point (madd of the payloads, plus 10000) and then its 4 bytes, the
/// fields picked by one multishift. 64 bytes, no compress.
UTF8DFA_TARGET_AVX512 inline unsigned char* encode_pairs16(unsigned char* o, __m512i w,
                                                           const encode_consts& k) noexcept {
  const __m512i cp = _mm512_add_epi32(_mm512_madd_epi16(_mm512_and_si512(w, k.pair_payload), k.pair_madd), k.x10000);
  _mm512_storeu_si512(o, _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(k.pair_fields, cp), k.x3F3F3F3F,
                                                   k.x808080F0, 0xEA));  // a & b | c
  return o + 64;
}

/// Converts the block of `avail` units at p (32 unless Tail; w holds them, zero past them) that is not
/// all ASCII (`two` marks its units at or above U+0080). Returns the units converted (the block, or
/// all but its last unit when that is a high surrogate of a pair cut by the block end), or minus the
/// units to run through the scalar path when the block holds an unpaired surrogate.
template <bool Tail, bool Swap = false>
UTF8DFA_TARGET_AVX512 UTF8DFA_CLANG_ALWAYS_INLINE std::ptrdiff_t utf16_block(const char16_t* p, std::size_t avail,
                                                                             __m512i w, __mmask32 two,
                                                                             unsigned char*& o,
                                                                             const encode_consts& k) noexcept {
  const __mmask32 three = _mm512_cmpge_epu16_mask(w, k.x800);
  if (three == 0) {  // 1- and 2-byte forms only
    o = encode_short32<Tail>(o, w, two, avail, k);
    return static_cast<std::ptrdiff_t>(avail);
  }
  if (_mm512_cmplt_epu16_mask(_mm512_sub_epi16(w, k.xD800), k.x800) == 0) {  // BMP only, no surrogates
    o = encode_bmp32<!Tail, Tail>(o, w, two, three, avail, k);
    return static_cast<std::ptrdiff_t>(avail);
  }
  const __m512i top = _mm512_and_si512(w, k.xFC00);
  auto high = static_cast<std::uint32_t>(_mm512_cmpeq_epi16_mask(top, k.xD800));
  const auto low = static_cast<std::uint32_t>(_mm512_cmpeq_epi16_mask(top, k.xDC00));
  std::size_t take = avail;
  if (!Tail && (high >> 31) != 0) {  // the pair is cut by the block end
    high &= 0x7FFFFFFFu;
    take = 31;
  }
  if (UTF8DFA_UNLIKELY(low != (high << 1))) return -static_cast<std::ptrdiff_t>(take);
  if (!Tail && high == 0x55555555u) {  // 16 pairs, as text of supplementary characters only gives
    o = encode_pairs16(o, w, k);
    return 32;
  }
  const __m512i next = in_order16<Swap>(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(low_bits(avail - 1)), p + 1));
  // A cut pair's high surrogate lies past `take`: pack_triples drops it (a tail, for it).
  if (!Tail && take == 31) {
    o = encode_pairs32<true>(o, w, next, two, three, high, low, take, k);
  } else {
    o = encode_pairs32<Tail>(o, w, next, two, three, high, low, take, k);
  }
  return static_cast<std::ptrdiff_t>(take);
}

/// After utf16_block returned `took` for the block at c.i: its units taken, or (took <= 0) the
/// units it left converted by the scalar code; false when that stopped at an error (strict).
template <bool Strict, bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool take_block(const char16_t* p, std::size_t n, std::ptrdiff_t took,
                                                            transcode_cursor<unsigned char>& c,
                                                            char32_t repl) noexcept {
  if (UTF8DFA_LIKELY(took > 0)) {
    c.i += static_cast<std::size_t>(took);
    return true;
  }
  UTF8DFA_LEAVE_AVX();
  return scalar_region_in_order<Strict, Swap>(p, n, c.i + static_cast<std::size_t>(-took), c, repl);
}

/// UTF-16 to UTF-8, 32 units at a time (surrogate pairs combined in-register; a pair cut by the
/// block end waits for the next block; a block holding an unpaired surrogate goes scalar). With Swap,
/// the units are stored in the byte order opposite to the host's: exchanged as loaded.
template <bool Strict, bool Swap = false>
UTF8DFA_TARGET_AVX512 packed_conversion utf16_to_utf8_impl(const char16_t* p, std::size_t n, unsigned char* out,
                                                           char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  // A short input (up to 64 units) block by block here, each loaded once: an ASCII one stored before
  // the constants are made (longer inputs amortise them and take the 64-unit ASCII loop below), the
  // others by utf16_block (masked for the last).
  if (n <= 64) {
    do {
      const std::size_t avail = n - c.i < 32 ? n - c.i : 32;
      const auto live = static_cast<__mmask32>(low_bits(avail));
      const __m512i w = in_order16<Swap>(_mm512_maskz_loadu_epi16(live, p + c.i));
      const __mmask32 two = _mm512_cmpge_epu16_mask(w, _mm512_set1_epi16(0x80));
      if (two == 0) {
        _mm256_mask_storeu_epi8(c.o, live, _mm512_cvtepi16_epi8(w));
        c.i += avail;
        c.o += avail;
        continue;
      }
      const encode_consts& k = encode_constants();
      // (A whole block, last or not, as in the loop below: a pair cut by its end waits.)
      const std::ptrdiff_t took = avail < 32 ? utf16_block<true, Swap>(p + c.i, avail, w, two, c.o, k)
                                             : utf16_block<false, Swap>(p + c.i, 32, w, two, c.o, k);
      if (!take_block<Strict, Swap>(p, n, took, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
    } while (c.i < n);
    return {n, static_cast<std::size_t>(c.o - out), c.first};
  }
  const encode_consts& k = encode_constants();
  while (n - c.i >= 32) {
    const __m512i w = in_order16<Swap>(_mm512_loadu_si512(p + c.i));
    const __mmask32 two = _mm512_cmpge_epu16_mask(w, k.x80);
    if (two == 0) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o), _mm512_cvtepi16_epi8(w));
      c.i += 32;
      c.o += 32;
      // The ASCII run that follows, 64 units per step: the low bytes picked by one permute.
      while (n - c.i >= 64) {
        const __m512i w0 = in_order16<Swap>(_mm512_loadu_si512(p + c.i));
        const __m512i w1 = in_order16<Swap>(_mm512_loadu_si512(p + c.i + 32));
        if (_mm512_cmpge_epu16_mask(_mm512_or_si512(w0, w1), k.x80) != 0) break;
        _mm512_storeu_si512(c.o, _mm512_permutex2var_epi8(w0, k.even, w1));
        c.i += 64;
        c.o += 64;
      }
      continue;
    }
    const std::ptrdiff_t took = utf16_block<false, Swap>(p + c.i, 32, w, two, c.o, k);
    if (!take_block<Strict, Swap>(p, n, took, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  }
  if (c.i < n) {  // the last 1..31 units (lanes past them are zero)
    const std::size_t avail = n - c.i;
    const __m512i w = in_order16<Swap>(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(low_bits(avail)), p + c.i));
    const __mmask32 two = _mm512_cmpge_epu16_mask(w, k.x80);
    if (two == 0) {
      _mm256_mask_storeu_epi8(c.o, static_cast<__mmask32>(low_bits(avail)), _mm512_cvtepi16_epi8(w));
      c.o += avail;
    } else {
      const std::ptrdiff_t took = utf16_block<true, Swap>(p + c.i, avail, w, two, c.o, k);
      if (took <= 0 && !scalar_region_in_order<Strict, Swap>(p, n, n, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
    }
  }
  return {n, static_cast<std::size_t>(c.o - out), c.first};
}

/// True when no lane of cp is a surrogate or above U+10FFFF (zero lanes pass).
UTF8DFA_TARGET_AVX512 inline bool all_scalar_values(__m512i cp) noexcept {
  return (_mm512_cmplt_epu32_mask(_mm512_sub_epi32(cp, _mm512_set1_epi32(0xD800)), _mm512_set1_epi32(0x800)) |
          _mm512_cmpgt_epu32_mask(cp, _mm512_set1_epi32(0x10FFFF))) == 0;
}

/// UTF-32 to UTF-8, 32 units at a time; a block holding a surrogate or a value above U+10FFFF goes
/// scalar (its first 16 units, then the vector path resumes).
template <bool Strict>
UTF8DFA_TARGET_AVX512 packed_conversion utf32_to_utf8_impl(const char32_t* p, std::size_t n, unsigned char* out,
                                                           char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  // A short input that is ASCII returns before the constants are made (longer ones amortise them and
  // take the 64-unit ASCII loop below).
  while (n <= 64) {
    const std::size_t avail = n - c.i < 32 ? n - c.i : 32;
    const std::size_t a0 = avail < 16 ? avail : 16;
    const __m512i cp = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(low_bits(a0)), p + c.i);
    const __m512i cp1 = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(low_bits(avail - a0)), p + c.i + 16);
    if (_mm512_cmpge_epu32_mask(_mm512_or_si512(cp, cp1), _mm512_set1_epi32(0x80)) != 0) break;
    _mm256_mask_storeu_epi8(
        c.o, static_cast<__mmask32>(low_bits(avail)),
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_cvtepi32_epi8(cp)), _mm512_cvtepi32_epi8(cp1), 1));
    c.i += avail;
    c.o += avail;
    if (c.i == n) return {n, static_cast<std::size_t>(c.o - out), c.first};
  }
  const encode_consts& k = encode_constants();
  while (c.i < n) {
    const std::size_t avail = n - c.i < 32 ? n - c.i : 32;
    const std::size_t a0 = avail < 16 ? avail : 16;
    const auto live = static_cast<__mmask16>(low_bits(a0));
    const __m512i cp = _mm512_maskz_loadu_epi32(live, p + c.i);
    const __m512i cp1 = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(low_bits(avail - a0)), p + c.i + 16);
    const __m512i top = _mm512_max_epu32(cp, cp1);
    if (_mm512_cmpge_epu32_mask(top, _mm512_set1_epi32(0x80)) == 0) {
      _mm256_mask_storeu_epi8(
          c.o, static_cast<__mmask32>(low_bits(avail)),
          _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_cvtepi32_epi8(cp)), _mm512_cvtepi32_epi8(cp1), 1));
      c.i += avail;
      c.o += avail;
      // The ASCII run that follows, 64 units per step: the low bytes picked by byte permutes.
      const __m512i even = _mm512_add_epi8(byte_iota(), byte_iota());
      const __m512i fourth = _mm512_add_epi8(even, even);  // 0, 4, .. 124 in the low half (the rest unused)
      while (n - c.i >= 64) {
        const __m512i u0 = _mm512_loadu_si512(p + c.i), u1 = _mm512_loadu_si512(p + c.i + 16);
        const __m512i u2 = _mm512_loadu_si512(p + c.i + 32), u3 = _mm512_loadu_si512(p + c.i + 48);
        const __m512i any = _mm512_or_si512(_mm512_or_si512(u0, u1), _mm512_or_si512(u2, u3));
        if (_mm512_cmpge_epu32_mask(any, _mm512_set1_epi32(0x80)) != 0) break;
        _mm512_storeu_si512(c.o,
                            _mm512_inserti64x4(_mm512_permutex2var_epi8(u0, fourth, u1),
                                               _mm512_castsi512_si256(_mm512_permutex2var_epi8(u2, fourth, u3)), 1));
        c.i += 64;
        c.o += 64;
      }
      continue;
    }
    if (_mm512_cmpge_epu32_mask(top, _mm512_set1_epi32(0x800)) == 0) {  // 1- and 2-byte forms only
      const __m512i words =
          _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(cp)), _mm512_cvtepi32_epi16(cp1), 1);
      const __mmask32 two = _mm512_cmpge_epu16_mask(words, k.x80);
      c.o =
          avail == 32 ? encode_short32<false>(c.o, words, two, 32, k) : encode_short32<true>(c.o, words, two, avail, k);
      c.i += avail;
      continue;
    }
    if (_mm512_cmpge_epu32_mask(top, _mm512_set1_epi32(0x10000)) == 0) {  // BMP: 16-bit lanes
      const __m512i words =
          _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(cp)), _mm512_cvtepi32_epi16(cp1), 1);
      const __m512i sur = _mm512_sub_epi16(words, _mm512_set1_epi16(static_cast<short>(0xD800)));
      if (UTF8DFA_LIKELY(_mm512_cmplt_epu16_mask(sur, _mm512_set1_epi16(0x800)) == 0)) {
        const __mmask32 two = _mm512_cmpge_epu16_mask(words, k.x80);
        const __mmask32 three = _mm512_cmpge_epu16_mask(words, k.x800);
        c.o = avail == 32 ? encode_bmp32<true, false>(c.o, words, two, three, 32, k)
                          : encode_bmp32<true, true>(c.o, words, two, three, avail, k);
        c.i += avail;
        continue;
      }
    }
    if (UTF8DFA_UNLIKELY(!all_scalar_values(cp) || !all_scalar_values(cp1))) {
      UTF8DFA_LEAVE_AVX();
      if (!scalar_region<Strict>(p, n, c.i + a0, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    c.o = encode16(c.o, cp, live);
    c.o = encode16(c.o, cp1, static_cast<__mmask16>(low_bits(avail - a0)));
    c.i += avail;
  }
  return {n, static_cast<std::size_t>(c.o - out), c.first};
}

// The kernel-table entry points (`replacement == strict_marker` means strict).

/// utf8_to_utf_impl by policy, from byte `start` on.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE packed_conversion utf8_to_utf_from(const unsigned char* p, std::size_t n,
                                                                               Out* out, char32_t replacement,
                                                                               std::size_t start) noexcept {
  return replacement == strict_marker ? utf8_to_utf_impl<true, Out, Swap>(p, n, out, replacement, start)
                                      : utf8_to_utf_impl<false, Out, Swap>(p, n, out, replacement, start);
}

/// An input of up to 64 bytes that the entry points' short path does not take: one masked block with
/// a 4-byte form, or else (an error) the block loop.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion utf8_short_supplementary(const unsigned char* p, std::size_t n,
                                                                                  Out* out,
                                                                                  char32_t replacement) noexcept {
  packed_conversion r;
  if (utf8_short_to_units<Swap, true>(p, n, out, r)) return r;
  return utf8_to_utf_from<Swap>(p, n, out, replacement, 0);
}

/// UTF-8 to UTF-32 or UTF-16 (its bytes exchanged when Swap), from the kernel table: an input of
/// up to 64 bytes in one masked block when it can, a longer one's ASCII blocks here and, when 64
/// bytes or fewer follow them, those in one masked block too; the rest by utf8_to_utf_impl. The ASCII blocks come
/// first, before any constant of the other paths is built and with no call between the kernel table and them: each call
/// level cost 1.5-3 ns on 256 ASCII bytes, timed alone outside the benchmark (docs/performance.md, the round of the
/// ASCII blocks of AVX-512 UTF-8 decoding).
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 inline packed_conversion utf8_to_units(const unsigned char* p, std::size_t n, Out* out,
                                                             char32_t replacement) noexcept {
  std::size_t i = 0;
  if (n > 64) {
    do {
      if (_mm512_movepi8_mask(_mm512_loadu_si512(p + i)) != 0) break;
      widen_ascii32<Swap>(out + i, p + i);
      widen_ascii32<Swap>(out + i + 32, p + i + 32);
      i += 64;
    } while (n - i >= 64);
    if (i == n) return {n, n, error_code::none};
    if (n - i > 64) return utf8_to_utf_from<Swap>(p, n, out, replacement, i);
  }
  // Up to 64 bytes left (the whole input, or those after its ASCII blocks): one masked block.
  packed_conversion r;
  if (utf8_short_to_units<Swap, false>(p + i, n - i, out + i, r)) return {n, i + r.written, error_code::none};
  r = utf8_short_supplementary<Swap>(p + i, n - i, out + i, replacement);
  return {i + r.read, i + r.written, r.error};
}

// The two entries start on a cache line: where the code before them ended decided the speed of short
// ASCII input (64 B of English to UTF-16 1.16x simdutf icelake's in one binary, 1.00x in the next, the
// same instructions 16 bytes further on).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE inline packed_conversion utf8_to_utf32(const unsigned char* p, std::size_t n,
                                                                                char32_t* out,
                                                                                char32_t replacement) noexcept {
  return utf8_to_units<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE inline packed_conversion utf8_to_utf16(const unsigned char* p, std::size_t n,
                                                                                char16_t* out,
                                                                                char32_t replacement) noexcept {
  return utf8_to_units<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX512 inline packed_conversion utf16_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                                             char32_t replacement) noexcept {
  return replacement == strict_marker ? utf16_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf16_to_utf8_impl<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX512 inline packed_conversion utf32_to_utf8(const char32_t* p, std::size_t n, unsigned char* out,
                                                             char32_t replacement) noexcept {
  return replacement == strict_marker ? utf32_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf32_to_utf8_impl<false>(p, n, out, replacement);
}

// UTF-16 in the byte order opposite to the host's.

UTF8DFA_TARGET_AVX512 inline packed_conversion utf8_to_utf16_swapped(const unsigned char* p, std::size_t n,
                                                                     char16_t* out, char32_t replacement) noexcept {
  return utf8_to_units<true>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX512 inline packed_conversion utf16_swapped_to_utf8(const char16_t* p, std::size_t n,
                                                                     unsigned char* out,
                                                                     char32_t replacement) noexcept {
  return replacement == strict_marker ? utf16_to_utf8_impl<true, true>(p, n, out, replacement)
                                      : utf16_to_utf8_impl<false, true>(p, n, out, replacement);
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
