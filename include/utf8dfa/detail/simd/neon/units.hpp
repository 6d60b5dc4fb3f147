// utf8dfa: NEON kernels of the Latin-1 and UTF-16 / UTF-32 operations (ARM64). Same results as the
// scalar functions of units.hpp, unit for unit: a block holding a surrogate that is not part of a
// pair, or anything else the vector step does not take, goes to the scalar code of the same
// operation, and so do the last few units.
#ifndef UTF8DFA_DETAIL_SIMD_NEON_UNITS_HPP
#define UTF8DFA_DETAIL_SIMD_NEON_UNITS_HPP

#include <cstddef>
#include <cstdint>

#include "../../kernel_table.hpp"
#include "../../units.hpp"
#include "../../units_kernels.hpp"
#include "../target.hpp"
#include "../transcode_common.hpp"
#include "tables.hpp"
#include "transcode.hpp"

#if UTF8DFA_NEON_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace neon {

/// Latin-1 to UTF-8: 16 ASCII bytes copied, else each half of 8 bytes as 8 forms of 1 or 2 bytes.
inline std::size_t latin1_to_utf8(const unsigned char* p, std::size_t n, unsigned char* out) noexcept {
  prepare_tables();
  const shuffle_tables& t = tables;
  const uint16x8_t weights = vld1q_u16(word_weights);
  std::size_t i = 0;
  unsigned char* o = out;
  while (n - i >= 16) {
    const uint8x16_t v = vld1q_u8(p + i);
    if (vmaxvq_u8(v) < 0x80) {
      vst1q_u8(o, v);
      i += 16;
      o += 16;
      continue;
    }
    for (int h = 0; h < 2; ++h) {
      const uint16x8_t w = h == 0 ? vmovl_u8(vget_low_u8(v)) : vmovl_high_u8(v);
      const uint16x8_t ge80 = vcgtq_u16(w, vdupq_n_u16(0x7F));
      const uint16x8_t lead = vbslq_u16(ge80, vorrq_u16(vshrq_n_u16(w, 6), vdupq_n_u16(0xC0)), w);
      const uint16x8_t tail = vorrq_u16(vandq_u16(w, vdupq_n_u16(0x3F)), vdupq_n_u16(0x80));
      const unsigned m = vaddvq_u16(vandq_u16(ge80, weights));
      const uint8x16_t packed =
          vqtbl1q_u8(vreinterpretq_u8_u16(vsliq_n_u16(lead, tail, 8)), vld1q_u8(t.pack_short_utf8[m]));
      const unsigned len = 8 + static_cast<unsigned>(__builtin_popcount(m));
      // Every byte after these 8 writes one output byte or two: a spill of up to 8 is overwritten.
      put_bytes(o, packed, len, n - i - 8 * static_cast<std::size_t>(h) >= 16);
      o += len;
    }
    i += 16;
  }
  return static_cast<std::size_t>(o - out) + latin1_to_utf8_scalar(p + i, n - i, o);
}

/// UTF-8 to Latin-1 (Policy strict, replace or skip), in 16-byte vectors at fixed steps: runs of
/// 64 ASCII bytes copied; a vector of ASCII and well-formed 2-byte forms of U+0080..U+00FF only (C2
/// or C3 and a continuation; the last lead's continuation is the next vector's first byte) packed
/// in two halves; a vector holding anything else through the scalar code. A vector's packed bytes
/// are stored once the next vector passed its check (it writes 8 bytes or more, so a store may
/// spill into its output), the last exactly.
template <class Policy>
inline packed_conversion utf8_to_latin1_impl(const unsigned char* p, std::size_t n, unsigned char* out,
                                             Policy pol) noexcept {
  unsigned char repl = '?';
  if (!latin1_replacement(pol, repl)) return {0, 0, error_code::unrepresentable};
  const uint8x16_t weights = vld1q_u8(bit_weights);
  const std::uint8_t* const low_rows = in_register(&tables.pack_bytes[0][0]);
  const std::uint8_t* const high_rows = in_register(&tables.pack_high_bytes[0][0]);
  const std::uint8_t* const counts = in_register(tables.bit_count);
  const uint8x16_t lead_bits = in_register(vdupq_n_u8(0xFE)), lead_value = in_register(vdupq_n_u8(0xC2));
  const uint8x16_t c0 = in_register(vdupq_n_u8(0xC0));
  const int8x16_t cont_limit = vreinterpretq_s8_u8(in_register(vdupq_n_u8(0xC0)));  // -64
  latin1_progress s;
  std::size_t read = 0, written = 0;  // (s's, kept in registers; s is set before the scalar code runs)
  // The packed bytes of the last vector, not stored yet: `lo` (n0 of them) and `hi` (n1) end at
  // out + written.
  uint8x8_t lo = vdup_n_u8(0), hi = vdup_n_u8(0);
  unsigned n0 = 0, n1 = 0;
  const auto store_pending = [&](bool spill) {
    unsigned char* const o = out + written - n0 - n1;
    if (spill) {
      vst1_u8(o, lo);
      vst1_u8(o + n0, hi);
    } else {
      store_exact(o, vcombine_u8(lo, lo), n0);
      store_exact(o + n0, vcombine_u8(hi, hi), n1);
    }
    n0 = n1 = 0;
  };
  std::size_t i = 0;                       // the vector's start: read, or one before (`carry`)
  uint8x16_t lead_before = vdupq_n_u8(0);  // the last vector's leads
  bool carry = false;                      // the last vector ended in a lead
  while (n - i >= 32) {
    const uint8x16_t v = vld1q_u8(p + i);
    if (!carry && vmaxvq_u8(v) < 0x80) {
      // ASCII (16 bytes or more: they cover a spill of the pending bytes), then runs of 64.
      store_pending(true);
      vst1q_u8(out + written, v);
      written += 16;
      i += 16;
      for (; n - i >= 64; i += 64) {
        const uint8x16x4_t b = vld1q_u8_x4(p + i);
        if (vmaxvq_u8(vorrq_u8(vorrq_u8(b.val[0], b.val[1]), vorrq_u8(b.val[2], b.val[3]))) >= 0x80) break;
        vst1q_u8_x4(out + written, b);
        written += 64;
      }
      read = i;
      lead_before = vdupq_n_u8(0);
      continue;
    }
    const uint8x16_t next = vextq_u8(v, vld1q_u8(p + i + 16), 1);
    const uint8x16_t cont = vcltq_s8(vreinterpretq_s8_u8(v), cont_limit);
    const uint8x16_t next_cont = vcltq_s8(vreinterpretq_s8_u8(next), cont_limit);
    const uint8x16_t lead = vceqq_u8(vandq_u8(v, lead_bits), lead_value);
    // A continuation exactly after each lead, and no other byte from C0 up.
    const uint8x16_t bad =
        vorrq_u8(vorrq_u8(veorq_u8(cont, vextq_u8(lead_before, lead, 15)), vbicq_u8(lead, next_cont)),
                 vbicq_u8(vcgeq_u8(v, c0), lead));
    if (UTF8DFA_UNLIKELY(vmaxvq_u8(bad) != 0)) {
      store_pending(false);
      // (From read: after a carried lead, the vector's first byte belongs to the last one.)
      s.read = read;
      s.written = written;
      if (!to_latin1_until<Policy>(p, n, i + 16, out, s, repl)) return latin1_result(s, n, true);
      i = read = s.read;
      written = s.written;
      carry = false;
      lead_before = vdupq_n_u8(0);
      continue;
    }
    store_pending(true);
    const uint8x16_t value = vbslq_u8(lead, vsliq_n_u8(next, v, 6), v);
    const uint8x16_t keep = vbicq_u8(weights, cont);
    const std::size_t k0 = vaddv_u8(vget_low_u8(keep)), k1 = vaddv_u8(vget_high_u8(keep));
    lo = vqtbl1_u8(value, vld1_u8(low_rows + 8 * k0));
    hi = vqtbl1_u8(value, vld1_u8(high_rows + 8 * k1));
    n0 = counts[k0];
    n1 = counts[k1];
    written += n0 + n1;
    carry = vgetq_lane_u8(lead, 15) != 0;
    lead_before = lead;
    i += 16;
    read = i + (carry ? 1 : 0);
  }
  store_pending(false);
  s.read = read;
  s.written = written;
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

inline packed_conversion utf8_to_latin1(const unsigned char* p, std::size_t n, unsigned char* out,
                                        char32_t replacement) noexcept {
  prepare_tables();
  if (replacement == strict_marker) return utf8_to_latin1_impl(p, n, out, strict{});
  if (replacement == skip_marker) return utf8_to_latin1_impl(p, n, out, skip{});
  return utf8_to_latin1_impl(p, n, out, replace{replacement});
}

/// 8 UTF-16 units at q, with the bytes of each exchanged when Swap.
template <bool Swap = false>
UTF8DFA_ALWAYS_INLINE uint16x8_t load_units(const std::uint16_t* q) noexcept {
  const uint16x8_t v = vld1q_u16(q);
  return Swap ? vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(v))) : v;
}

/// For 16 UTF-16 units (a, b) that start on a character boundary: 0 when a surrogate in them is
/// not part of a pair (a high surrogate in the last unit counts as paired), else the units to take
/// (15 when the last is a high surrogate, whose pair waits for the next block).
UTF8DFA_ALWAYS_INLINE unsigned paired16(uint16x8_t a, uint16x8_t b) noexcept {
  const uint16x8_t ten = vdupq_n_u16(0xFC00);
  const uint16x8_t high_a = vceqq_u16(vandq_u16(a, ten), vdupq_n_u16(0xD800));
  const uint16x8_t high_b = vceqq_u16(vandq_u16(b, ten), vdupq_n_u16(0xD800));
  const uint16x8_t low_a = vceqq_u16(vandq_u16(a, ten), vdupq_n_u16(0xDC00));
  const uint16x8_t low_b = vceqq_u16(vandq_u16(b, ten), vdupq_n_u16(0xDC00));
  // A low surrogate exactly after each high one.
  const uint16x8_t bad =
      vorrq_u16(veorq_u16(low_a, vextq_u16(vdupq_n_u16(0), high_a, 7)), veorq_u16(low_b, vextq_u16(high_a, high_b, 7)));
  if (vmaxvq_u16(bad) != 0) return 0;
  return vgetq_lane_u16(high_b, 7) != 0 ? 15 : 16;
}

/// paired16 for the 32 units at q: 0, 31 or 32.
template <bool Swap = false>
UTF8DFA_ALWAYS_INLINE unsigned paired32(const std::uint16_t* q) noexcept {
  const uint16x8_t ten = vdupq_n_u16(0xFC00);
  uint16x8_t prev_high = vdupq_n_u16(0), bad = vdupq_n_u16(0);
  for (int k = 0; k < 4; ++k) {
    const uint16x8_t w = vandq_u16(load_units<Swap>(q + 8 * k), ten);
    const uint16x8_t high = vceqq_u16(w, vdupq_n_u16(0xD800));
    bad = vorrq_u16(bad, veorq_u16(vceqq_u16(w, vdupq_n_u16(0xDC00)), vextq_u16(prev_high, high, 7)));
    prev_high = high;
  }
  if (vmaxvq_u16(bad) != 0) return 0;
  return vgetq_lane_u16(prev_high, 7) != 0 ? 31 : 32;
}

/// True when none of the 32 units at q is a surrogate.
template <bool Swap = false>
UTF8DFA_ALWAYS_INLINE bool no_surrogate32(const std::uint16_t* q) noexcept {
  const uint16x8_t bias = vdupq_n_u16(0xD800);
  const uint16x8_t a = vminq_u16(vsubq_u16(load_units<Swap>(q), bias), vsubq_u16(load_units<Swap>(q + 8), bias));
  const uint16x8_t b = vminq_u16(vsubq_u16(load_units<Swap>(q + 16), bias), vsubq_u16(load_units<Swap>(q + 24), bias));
  return vminvq_u16(vminq_u16(a, b)) >= 0x800;
}

/// validate_utf's answer (with Swap, on the units with their bytes exchanged): 32 units without
/// surrogates at a time, else 16 whose surrogates pair up; the scalar code finds the error.
template <bool Swap>
inline packed_validation validate_utf16_impl(const char16_t* p, std::size_t n) noexcept {
  const auto* q = reinterpret_cast<const std::uint16_t*>(p);
  std::size_t i = 0;
  for (bool pass = true; pass && n - i >= 16;) {
    while (n - i >= 32 && no_surrogate32<Swap>(q + i)) i += 32;
    // Surrogates: up to 16 blocks of 32 whose surrogates pair up; when one does not, a few of 16;
    // then try again.
    unsigned take = 32;
    for (unsigned k = 0; k < 16 && n - i >= 32; ++k) {
      take = paired32<Swap>(q + i);
      if (take == 0) break;
      i += take;
    }
    if (take != 0 && n - i >= 32) continue;
    for (int k = 0; k < 4 && n - i >= 16; ++k) {
      const unsigned take = paired16(load_units<Swap>(q + i), load_units<Swap>(q + i + 8));
      if (take == 0) {
        pass = false;
        break;
      }
      i += take;
    }
  }
  packed_validation r = Swap ? validate_utf16_swapped_scalar(p + i, n - i) : validate_utf(p + i, n - i);
  r.valid_up_to += i;
  return r;
}

inline packed_validation validate_utf16(const char16_t* p, std::size_t n) noexcept {
  return validate_utf16_impl<false>(p, n);
}

/// validate_utf16 on units with their bytes exchanged: a byte reversal a vector, then the same checks.
inline packed_validation validate_utf16_swapped(const char16_t* p, std::size_t n) noexcept {
  return validate_utf16_impl<true>(p, n);
}

/// The scalar UTF-16 <-> UTF-32 conversion on the rest of the input, merged with the vector loop's.
template <bool Strict, class In, class Out>
inline packed_conversion finish_units(const In* p, std::size_t n, Out* out, transcode_cursor<Out> c,
                                      char32_t repl) noexcept {
  packed_conversion r{};
  if (Strict)
    r = utf_to_utf(p + c.i, n - c.i, c.o, strict{});
  else if (repl == skip_marker)
    r = utf_to_utf(p + c.i, n - c.i, c.o, skip{});
  else
    r = utf_to_utf(p + c.i, n - c.i, c.o, replace{repl});
  const error_code e = c.first != error_code::none ? c.first : r.error;
  // The written count from the output pointer: written as two sums of counts, g++ 12 pairs them
  // into one vector sum, whose 16-byte load of r (two 8-byte stores by the call just returned)
  // cannot be forwarded from those stores and waits for them (10-20 cycles a call).
  return {c.i + r.read, static_cast<std::size_t>(c.o + r.written - out), e};
}

/// UTF-16 to UTF-32: 16 units without surrogates widened; other blocks through the scalar decoder.
template <bool Strict>
inline packed_conversion utf16_to_utf32_impl(const char16_t* p, std::size_t n, char32_t* out,
                                             char32_t replacement) noexcept {
  transcode_cursor<char32_t> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  const auto* q = reinterpret_cast<const std::uint16_t*>(p);
  while (n - c.i >= 16) {
    const uint16x8_t a = vld1q_u16(q + c.i), b = vld1q_u16(q + c.i + 8);
    if (no_surrogate16(a, b)) {
      auto* o = reinterpret_cast<std::uint32_t*>(c.o);
      vst1q_u32(o, vmovl_u16(vget_low_u16(a)));
      vst1q_u32(o + 4, vmovl_high_u16(a));
      vst1q_u32(o + 8, vmovl_u16(vget_low_u16(b)));
      vst1q_u32(o + 12, vmovl_high_u16(b));
      c.i += 16;
      c.o += 16;
      continue;
    }
    if (!scalar_region<Strict>(p, n, c.i + 16, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  }
  return finish_units<Strict>(p, n, out, c, repl);
}

/// True when the 8 units of x and y are scalar values (no surrogate, none above 0x10FFFF).
UTF8DFA_ALWAYS_INLINE bool all_scalar_values(uint32x4_t x, uint32x4_t y) noexcept {
  const uint32x4_t bias = vdupq_n_u32(0xD800);
  const uint32x4_t off = vminq_u32(vsubq_u32(x, bias), vsubq_u32(y, bias));
  return vminvq_u32(off) >= 0x800 && vmaxvq_u32(vmaxq_u32(x, y)) <= 0x10FFFF;
}

/// Writes the 4 scalar values of cp as UTF-16 (a supplementary one as a pair); with `spill`, 8
/// units whatever their count. Returns the units of the values.
UTF8DFA_ALWAYS_INLINE unsigned put_pairs(char16_t* o, uint32x4_t cp, bool spill) noexcept {
  const uint32x4_t supp = vcgtq_u32(cp, vdupq_n_u32(0xFFFF));
  const unsigned sm = vaddvq_u32(vandq_u32(supp, vld1q_u32(dword_weights)));
  const uint32x4_t high = vaddq_u32(vshrq_n_u32(cp, 10), vdupq_n_u32(0xD7C0));
  const uint32x4_t low = vorrq_u32(vandq_u32(cp, vdupq_n_u32(0x3FF)), vdupq_n_u32(0xDC00));
  const uint32x4_t units = vbslq_u32(supp, vsliq_n_u32(high, low, 16), cp);
  const uint8x16_t packed = vqtbl1q_u8(vreinterpretq_u8_u32(units), vld1q_u8(tables.pack_pairs[sm]));
  const unsigned written = 4 + static_cast<unsigned>(__builtin_popcount(sm));
  put8(o, vreinterpretq_u16_u8(packed), written, spill);
  return written;
}

/// UTF-32 to UTF-16: 16 BMP scalar values narrowed; other blocks through the scalar decoder.
template <bool Strict>
inline packed_conversion utf32_to_utf16_impl(const char32_t* p, std::size_t n, char16_t* out,
                                             char32_t replacement) noexcept {
  transcode_cursor<char16_t> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  while (n - c.i >= 16) {
    uint16x8_t a = vdupq_n_u16(0), b = vdupq_n_u16(0);
    if (load16(p + c.i, a, b) && no_surrogate16(a, b)) {
      vst1q_u16(reinterpret_cast<std::uint16_t*>(c.o), a);
      vst1q_u16(reinterpret_cast<std::uint16_t*>(c.o) + 8, b);
      c.i += 16;
      c.o += 16;
      continue;
    }
    // 8 scalar values, supplementary ones among them (emoji): each a unit or a pair.
    const auto* q = reinterpret_cast<const std::uint32_t*>(p + c.i);
    const uint32x4_t x = vld1q_u32(q), y = vld1q_u32(q + 4);
    if (all_scalar_values(x, y)) {
      const unsigned nx = put_pairs(c.o, x, true);  // (y writes 4 units or more over its spill)
      c.o += nx;
      c.o += put_pairs(c.o, y, false);
      c.i += 8;
      continue;
    }
    if (!scalar_region<Strict>(p, n, c.i + 16, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  }
  return finish_units<Strict>(p, n, out, c, repl);
}

inline packed_conversion utf16_to_utf32(const char16_t* p, std::size_t n, char32_t* out,
                                        char32_t replacement) noexcept {
  return replacement == strict_marker ? utf16_to_utf32_impl<true>(p, n, out, replacement)
                                      : utf16_to_utf32_impl<false>(p, n, out, replacement);
}

inline packed_conversion utf32_to_utf16(const char32_t* p, std::size_t n, char16_t* out,
                                        char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf32_to_utf16_impl<true>(p, n, out, replacement)
                                      : utf32_to_utf16_impl<false>(p, n, out, replacement);
}

/// For 16 UTF-16 units v0, v1 (little-endian lanes): lanes 0xFF where a low surrogate is not
/// preceded by a high one or a high one is not followed by a low one, given in `high` the lanes of
/// the 16 units before (0xFF at a high surrogate), which becomes these units'. Looks at the high
/// byte of each unit only, 16 to a vector.
UTF8DFA_ALWAYS_INLINE uint8x16_t unpaired16(uint8x16_t v0, uint8x16_t v1, uint8x16_t& high) noexcept {
  const uint8x16_t w = vandq_u8(vuzp2q_u8(v0, v1), vdupq_n_u8(0xFC));
  const uint8x16_t h = vceqq_u8(w, vdupq_n_u8(0xD8));
  const uint8x16_t bad = veorq_u8(vceqq_u8(w, vdupq_n_u8(0xDC)), vextq_u8(high, h, 15));
  high = h;
  return bad;
}

/// True when a lane of the mask m (lanes 0 or 0xFF) is set: a narrowing shift to 64 bits, which is
/// quicker than a reduction across the lanes.
UTF8DFA_ALWAYS_INLINE bool any_lane(uint8x16_t m) noexcept {
  return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(m), 4)), 0) != 0;
}

/// UTF-16 with each unpaired surrogate replaced by U+FFFD (out may be p): blocks of 64 units, then
/// of 16, copied when their surrogates pair up (a high surrogate that ends a block is checked with
/// the next); a block where one does not, from the character before it on, and the last units, by
/// the scalar code.
inline std::size_t to_well_formed_utf16(const char16_t* p, std::size_t n, char16_t* out) noexcept {
  const auto* s = reinterpret_cast<const std::uint8_t*>(p);  // (the byte at p + i)
  const auto* const end = reinterpret_cast<const std::uint8_t*>(p + n);
  const std::ptrdiff_t to_out = reinterpret_cast<std::uint8_t*>(out) - s;
  uint8x16_t high = vdupq_n_u8(0);  // last lane: whether the unit before s is a high surrogate
  // After a block with an unpaired surrogate: its units from the character before it (a high
  // surrogate left open by the block before) by the scalar code, which ends after a character.
  const auto fix = [&](std::size_t units) {
    const auto i = static_cast<std::size_t>(s - reinterpret_cast<const std::uint8_t*>(p)) / 2;
    const std::size_t j = to_well_formed_until(p, n, i - (vgetq_lane_u8(high, 15) != 0 ? 1 : 0), i + units, out);
    s = reinterpret_cast<const std::uint8_t*>(p + j);
    high = vdupq_n_u8(0);
  };
  while (end - s >= 128) {
    const uint8x16x4_t a = vld1q_u8_x4(s), b = vld1q_u8_x4(s + 64);
    uint8x16_t h = high;
    const uint8x16_t b0 = unpaired16(a.val[0], a.val[1], h), b1 = unpaired16(a.val[2], a.val[3], h);
    const uint8x16_t b2 = unpaired16(b.val[0], b.val[1], h), b3 = unpaired16(b.val[2], b.val[3], h);
    if (any_lane(vorrq_u8(vorrq_u8(b0, b1), vorrq_u8(b2, b3)))) {
      fix(64);
      continue;
    }
    vst1q_u8_x4(const_cast<std::uint8_t*>(s) + to_out, a);
    vst1q_u8_x4(const_cast<std::uint8_t*>(s) + to_out + 64, b);
    high = h;
    s += 128;
  }
  while (end - s >= 32) {
    const uint8x16_t v0 = vld1q_u8(s), v1 = vld1q_u8(s + 16);
    uint8x16_t h = high;
    if (any_lane(unpaired16(v0, v1, h))) {
      fix(16);
      continue;
    }
    vst1q_u8(const_cast<std::uint8_t*>(s) + to_out, v0);
    vst1q_u8(const_cast<std::uint8_t*>(s) + to_out + 16, v1);
    high = h;
    s += 32;
  }
  // (a high surrogate that ends the blocks again, with the unit after it)
  const auto i = static_cast<std::size_t>(s - reinterpret_cast<const std::uint8_t*>(p)) / 2;
  to_well_formed_until(p, n, i - (vgetq_lane_u8(high, 15) != 0 ? 1 : 0), n, out);
  return n;
}

/// For 16 UTF-16 units given as their low and high bytes, and `sur` their surrogate lanes (all ones):
/// acc plus, in each lane, the UTF-8 bytes of the unit past its first (one more from 0x80, one more
/// from 0x800, one less for a surrogate, a half of a 4-byte form). At most 2 a lane.
UTF8DFA_ALWAYS_INLINE uint8x16_t add_utf8_extra(uint8x16_t acc, uint8x16_t lo, uint8x16_t hi, uint8x16_t sur) noexcept {
  const uint8x16_t from800 = vcgtq_u8(hi, vdupq_n_u8(7));
  // (a high byte from 2 saturates to FF, 1 gives 80: the larger of it and the low byte is 80 or
  // more exactly from 0x80)
  const uint8x16_t from80 = vcgtq_u8(vmaxq_u8(vqshlq_n_u8(hi, 7), lo), vdupq_n_u8(0x7F));
  return vaddq_u8(vsubq_u8(vsubq_u8(acc, from800), from80), sur);
}

/// add_utf8_extra of the 32 UTF-16 units loaded in v (their low and high bytes by uzp). At most 4 a lane.
UTF8DFA_ALWAYS_INLINE uint8x16_t add_utf8_extra32(uint8x16_t acc, const uint8x16x4_t& v) noexcept {
  const uint8x16_t f8 = vdupq_n_u8(0xF8), d8 = vdupq_n_u8(0xD8);
  const uint8x16_t hi0 = vuzp2q_u8(v.val[0], v.val[1]), hi1 = vuzp2q_u8(v.val[2], v.val[3]);
  acc = add_utf8_extra(acc, vuzp1q_u8(v.val[0], v.val[1]), hi0, vceqq_u8(vandq_u8(hi0, f8), d8));
  return add_utf8_extra(acc, vuzp1q_u8(v.val[2], v.val[3]), hi1, vceqq_u8(vandq_u8(hi1, f8), d8));
}

/// utf8_length_valid (scalar.hpp) for UTF-16 or UTF-32: UTF-16 32 units a step, by their low and high
/// bytes (16 to a vector), summed in byte lanes; UTF-32 4 units a vector, each test's lanes (all
/// ones where true) subtracted from counters; the last units by the scalar count.
template <class In>
std::size_t utf8_length_valid(const In* p, std::size_t n) noexcept {
  std::size_t total = n, i = 0;
  if constexpr (sizeof(In) == 2) {
    const auto* s = reinterpret_cast<const std::uint8_t*>(p);
    while (n - i >= 32) {
      const std::size_t steps = (n - i) / 32 < 63 ? (n - i) / 32 : 63;  // (4 a lane a step)
      uint8x16_t acc = vdupq_n_u8(0);
      for (std::size_t k = 0; k < steps; ++k, i += 32) acc = add_utf8_extra32(acc, vld1q_u8_x4(s + 2 * i));
      total += vaddlvq_u8(acc);
    }
  } else {
    constexpr std::size_t step = 4;
    const auto* q = reinterpret_cast<const std::uint32_t*>(p);
    while (n - i >= step) {
      const std::size_t steps = (n - i) / step < (std::size_t{1} << 14) ? (n - i) / step : std::size_t{1} << 14;
      uint32x4_t acc = vdupq_n_u32(0);
      for (std::size_t k = 0; k < steps; ++k, i += step) {
        const uint32x4_t u = vld1q_u32(q + i);
        const uint32x4_t supp = vcltq_u32(vsubq_u32(u, vdupq_n_u32(0x10000)), vdupq_n_u32(0x100000));
        acc = vsubq_u32(acc,
                        vaddq_u32(supp, vaddq_u32(vcgtq_u32(u, vdupq_n_u32(0x7F)), vcgtq_u32(u, vdupq_n_u32(0x7FF)))));
      }
      total += vaddvq_u32(acc);
    }
  }
  return total - (n - i) + detail::utf8_length_valid<In>(p + i, n - i);
}

/// UTF-8 bytes of UTF-16 after conversion (utf8_length_scalar's answer): 32 units a step whose
/// surrogates pair up, by their low and high bytes (a high surrogate that ends a step checked with
/// the next), counted in byte lanes; from a step with an unpaired surrogate, its units (from the
/// character before it) through the scalar count.
inline std::size_t utf8_length_from_utf16(const char16_t* p, std::size_t n, char32_t repl) noexcept {
  if (repl == valid_marker) return utf8_length_valid(p, n);
  const std::size_t repl_bytes = replacement_bytes(repl);
  const auto* s = reinterpret_cast<const std::uint8_t*>(p);
  uint8x16_t high = vdupq_n_u8(0);  // last lane: whether the unit before i is a high surrogate
  std::size_t i = 0, total = 0;
  const auto open_pair = [&] { return i > 0 && vgetq_lane_u8(high, 15) != 0; };
  while (n - i >= 32) {
    const std::size_t steps = (n - i) / 32 < 63 ? (n - i) / 32 : 63;  // (4 a lane a step)
    uint8x16_t acc = vdupq_n_u8(0);
    std::size_t k = 0;
    for (; k < steps; ++k, i += 32) {
      const uint8x16x4_t v = vld1q_u8_x4(s + 2 * i);
      uint8x16_t h = high;
      const uint8x16_t bad = vorrq_u8(unpaired16(v.val[0], v.val[1], h), unpaired16(v.val[2], v.val[3], h));
      if (any_lane(bad)) break;
      acc = add_utf8_extra32(acc, v);
      high = h;
    }
    total += 32 * k + vaddlvq_u8(acc);
    if (k == steps) continue;
    // A step with an unpaired surrogate: from the character before it (a high surrogate left open,
    // counted 2 bytes, decoded again with its unit) by the scalar count.
    if (open_pair()) {
      total -= 2;
      --i;
    }
    total += utf8_bytes_region(p, n, i, i + 32, repl_bytes);
    high = vdupq_n_u8(0);
  }
  if (open_pair()) {
    total -= 2;
    --i;
  }
  return total + utf8_bytes_region(p, n, i, n, repl_bytes);
}

/// UTF-8 bytes of UTF-32 after conversion: 8 scalar values a step counted in vector lanes, blocks
/// holding another value through the scalar count.
inline std::size_t utf8_length_from_utf32(const char32_t* p, std::size_t n, char32_t repl) noexcept {
  if (repl == valid_marker) return utf8_length_valid(p, n);
  const auto* q = reinterpret_cast<const std::uint32_t*>(p);
  const std::size_t repl_bytes = replacement_bytes(repl);
  uint32x4_t acc = vdupq_n_u32(0);  // bytes past one a unit (at most 6 a lane a step)
  std::size_t i = 0, total = 0, steps = 0;
  while (n - i >= 8) {
    const uint32x4_t x = vld1q_u32(q + i), y = vld1q_u32(q + i + 4);
    if (!all_scalar_values(x, y)) {
      total += utf8_bytes_region(p, n, i, i + 8, repl_bytes);
      continue;
    }
    const uint32x4_t lim80 = vdupq_n_u32(0x7F), lim800 = vdupq_n_u32(0x7FF), lim10000 = vdupq_n_u32(0xFFFF);
    const uint32x4_t ex = vaddq_u32(vaddq_u32(vcgtq_u32(x, lim80), vcgtq_u32(x, lim800)), vcgtq_u32(x, lim10000));
    const uint32x4_t ey = vaddq_u32(vaddq_u32(vcgtq_u32(y, lim80), vcgtq_u32(y, lim800)), vcgtq_u32(y, lim10000));
    acc = vsubq_u32(acc, vaddq_u32(ex, ey));
    i += 8;
    total += 8;
    if (++steps == (std::size_t{1} << 28)) {  // before a lane could wrap
      total += vaddlvq_u32(acc);
      acc = vdupq_n_u32(0);
      steps = 0;
    }
  }
  total += vaddlvq_u32(acc);
  return total + utf8_bytes_region(p, n, i, n, repl_bytes);
}

/// Latin-1 bytes widened to UTF-16 or UTF-32 (by Out), 16 at a time. Returns n.
template <class Out>
inline std::size_t latin1_widen(const unsigned char* p, std::size_t n, Out* out) noexcept {
  std::size_t i = 0;
  for (; n - i >= 16; i += 16) {
    const uint8x16_t v = vld1q_u8(p + i);
    put8(out + i, vmovl_u8(vget_low_u8(v)), 8, true);
    put8(out + i + 8, vmovl_high_u8(v), 8, true);
  }
  latin1_widen_scalar(p + i, n - i, out + i);
  return n;
}

/// Bytes of the UTF-8 of Latin-1: n, and one more for each byte 80..FF (counted in byte lanes).
inline std::size_t utf8_length_from_latin1(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0, total = n;
  while (n - i >= 16) {
    const std::size_t vectors = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
    uint8x16_t acc = vdupq_n_u8(0);
    for (std::size_t k = 0; k < vectors; ++k, i += 16) acc = vsraq_n_u8(acc, vld1q_u8(p + i), 7);
    total += vaddlvq_u8(acc);
  }
  return total + utf8_length_from_latin1_scalar(p + i, n - i) - (n - i);
}

/// The units with their bytes in the opposite order (out may be p), one instruction a vector, 64
/// bytes a step.
template <class Unit>
inline std::size_t change_endianness(const Unit* p, std::size_t n, Unit* out) noexcept {
  const auto* q = reinterpret_cast<const std::uint8_t*>(p);
  auto* o = reinterpret_cast<std::uint8_t*>(out);
  const auto rev = [](uint8x16_t v) { return sizeof(Unit) == 2 ? vrev16q_u8(v) : vrev32q_u8(v); };
  std::size_t b = 0;
  const std::size_t bytes = n * sizeof(Unit);
  for (; bytes - b >= 64; b += 64) {
    uint8x16x4_t v = vld1q_u8_x4(q + b);
    v.val[0] = rev(v.val[0]);
    v.val[1] = rev(v.val[1]);
    v.val[2] = rev(v.val[2]);
    v.val[3] = rev(v.val[3]);
    vst1q_u8_x4(o + b, v);
  }
  for (; bytes - b >= 16; b += 16) vst1q_u8(o + b, rev(vld1q_u8(q + b)));
  const std::size_t i = b / sizeof(Unit);
  change_endianness_scalar(p + i, n - i, out + i);
  return n;
}

/// Code points in UTF-16: n less the pairs (a high surrogate, then a low one). 32 units a step by
/// the high byte of each unit (16 to a vector): the low surrogates after a high one, counted in
/// byte lanes.
inline std::size_t count_utf16(const char16_t* p, std::size_t n) noexcept {
  const auto* s = reinterpret_cast<const std::uint8_t*>(p);
  const uint8x16_t fc = vdupq_n_u8(0xFC), d8 = vdupq_n_u8(0xD8), dc = vdupq_n_u8(0xDC);
  uint8x16_t high = vdupq_n_u8(0);  // last lane: whether the unit before i is a high surrogate
  std::size_t i = 0, pairs = 0;
  while (n - i >= 32) {
    const std::size_t steps = (n - i) / 32 < 127 ? (n - i) / 32 : 127;  // (2 a lane a step)
    uint8x16_t acc = vdupq_n_u8(0);
    for (std::size_t k = 0; k < steps; ++k, i += 32) {
      const uint8x16x4_t v = vld1q_u8_x4(s + 2 * i);
      const uint8x16_t w0 = vandq_u8(vuzp2q_u8(v.val[0], v.val[1]), fc);
      const uint8x16_t w1 = vandq_u8(vuzp2q_u8(v.val[2], v.val[3]), fc);
      const uint8x16_t h0 = vceqq_u8(w0, d8), h1 = vceqq_u8(w1, d8);
      acc = vsubq_u8(acc, vandq_u8(vceqq_u8(w0, dc), vextq_u8(high, h0, 15)));
      acc = vsubq_u8(acc, vandq_u8(vceqq_u8(w1, dc), vextq_u8(h0, h1, 15)));
      high = h1;
    }
    pairs += vaddlvq_u8(acc);
  }
  // (the pairs whose low surrogate is at i or after, one of them possibly starting at i - 1)
  return n - pairs - pair_starts_scalar(p, n, i == 0 ? 0 : i - 1, n);
}

/// validate_utf's answer for UTF-32: 32 units a step, each as (u ^ D800) - 800 (wrapping), which
/// takes a surrogate to FFFFF800 and up and a value above 10FFFF above 10F7FF, so that one maximum
/// tells whether all are scalar values; from a step holding another value on, the scalar code.
inline packed_validation validate_utf32(const char32_t* p, std::size_t n) noexcept {
  const auto* q = reinterpret_cast<const std::uint32_t*>(p);
  const uint32x4_t flip = vdupq_n_u32(0xD800), bias = vdupq_n_u32(0x800);
  const auto off = [&](uint32x4_t u) { return vsubq_u32(veorq_u32(u, flip), bias); };
  std::size_t i = 0;
  for (; n - i >= 32; i += 32) {
    const uint32x4x4_t a = vld1q_u32_x4(q + i), b = vld1q_u32_x4(q + i + 16);
    const uint32x4_t m0 = vmaxq_u32(vmaxq_u32(off(a.val[0]), off(a.val[1])), vmaxq_u32(off(a.val[2]), off(a.val[3])));
    const uint32x4_t m1 = vmaxq_u32(vmaxq_u32(off(b.val[0]), off(b.val[1])), vmaxq_u32(off(b.val[2]), off(b.val[3])));
    if (vmaxvq_u32(vmaxq_u32(m0, m1)) > 0x10F7FF) break;
  }
  while (n - i >= 8 && all_scalar_values(vld1q_u32(q + i), vld1q_u32(q + i + 4))) i += 8;
  packed_validation r = validate_utf(p + i, n - i);
  r.valid_up_to += i;
  return r;
}

/// UTF-16 or UTF-32 (by In) to Latin-1 (Policy strict, replace or skip): 64 bytes of units up to
/// 0xFF a step narrowed (UTF-16: then 16 units); other blocks through the scalar code.
template <class Policy, class In>
inline packed_conversion utf_to_latin1_impl(const In* p, std::size_t n, unsigned char* out, Policy pol) noexcept {
  unsigned char repl = '?';
  if (!latin1_replacement(pol, repl)) return {0, 0, error_code::unrepresentable};
  latin1_progress s;
  const auto* b = reinterpret_cast<const std::uint8_t*>(p);
  while (n - s.read >= 16) {
    if constexpr (sizeof(In) == 2) {
      // 32 units: their high bytes all zero, their low bytes the output.
      for (; n - s.read >= 32; s.read += 32, s.written += 32) {
        const uint8x16x4_t v = vld1q_u8_x4(b + 2 * s.read);
        const uint8x16_t hi = vorrq_u8(vuzp2q_u8(v.val[0], v.val[1]), vuzp2q_u8(v.val[2], v.val[3]));
        if (vmaxvq_u8(hi) != 0) break;
        vst1q_u8(out + s.written, vuzp1q_u8(v.val[0], v.val[1]));
        vst1q_u8(out + s.written + 16, vuzp1q_u8(v.val[2], v.val[3]));
      }
    } else {
      // 16 units up to 0xFF: their low bytes, taken by two narrowing steps.
      for (; n - s.read >= 16; s.read += 16, s.written += 16) {
        const uint32x4x4_t v = vld1q_u32_x4(reinterpret_cast<const std::uint32_t*>(b) + s.read);
        const uint32x4_t top = vmaxq_u32(vmaxq_u32(v.val[0], v.val[1]), vmaxq_u32(v.val[2], v.val[3]));
        if (vmaxvq_u32(top) > 0xFF) break;
        const uint16x8_t h0 = vuzp1q_u16(vreinterpretq_u16_u32(v.val[0]), vreinterpretq_u16_u32(v.val[1]));
        const uint16x8_t h1 = vuzp1q_u16(vreinterpretq_u16_u32(v.val[2]), vreinterpretq_u16_u32(v.val[3]));
        vst1q_u8(out + s.written, vuzp1q_u8(vreinterpretq_u8_u16(h0), vreinterpretq_u8_u16(h1)));
      }
    }
    if (n - s.read < 16) break;
    if constexpr (sizeof(In) == 2) {  // (the first 16 of a failing block of 32 may pass)
      const uint16x8_t lo = vld1q_u16(reinterpret_cast<const std::uint16_t*>(p + s.read));
      const uint16x8_t hi = vld1q_u16(reinterpret_cast<const std::uint16_t*>(p + s.read) + 8);
      if (vmaxvq_u16(vmaxq_u16(lo, hi)) <= 0xFF) {
        vst1q_u8(out + s.written, vuzp1q_u8(vreinterpretq_u8_u16(lo), vreinterpretq_u8_u16(hi)));
        s.read += 16;
        s.written += 16;
        continue;
      }
    }
    if (!to_latin1_until<Policy>(p, n, s.read + 16, out, s, repl)) return latin1_result(s, n, true);
  }
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

template <class In>
inline packed_conversion utf_to_latin1(const In* p, std::size_t n, unsigned char* out, char32_t replacement) noexcept {
  if (replacement == strict_marker) return utf_to_latin1_impl(p, n, out, strict{});
  if (replacement == skip_marker) return utf_to_latin1_impl(p, n, out, skip{});
  return utf_to_latin1_impl(p, n, out, replace{replacement});
}

}  // namespace neon
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
