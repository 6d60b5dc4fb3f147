// utf8dfa: NEON transcoding kernels (ARM64). Same results as the scalar functions of scalar.hpp,
// byte for byte, for every policy: what the vector steps take is well-formed, and a block holding
// an error (or a form they do not take) is re-run through the scalar decoder up to the block end.
//
// UTF-8 input: 64-byte blocks starting on a character boundary are checked as the start of a text
// would be (validate.hpp's checker); a valid block is decoded in windows of 12 bytes, each step
// taking the characters that end in the window (up to 8 of 1..3 bytes, or up to 4 of 1..4 bytes)
// by one tbl lookup indexed by the window's character ends. NEON has no masked stores: a store of a
// full vector writes past the units produced only where the rest of the checked block is known to
// produce at least as many units (its complete characters); elsewhere exactly the units produced
// are written.
#ifndef UTF8DFA_DETAIL_SIMD_NEON_TRANSCODE_HPP
#define UTF8DFA_DETAIL_SIMD_NEON_TRANSCODE_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../../kernel_table.hpp"
#include "../../scalar.hpp"
#include "../target.hpp"
#include "../transcode_common.hpp"
#include "tables.hpp"
#include "validate.hpp"

#if UTF8DFA_NEON_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace neon {

/// Payload bits of a byte by its high nibble: ASCII 7, continuation 6, leads 5, 4 and 3.
inline constexpr std::uint8_t payload_masks[16] = {0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F,
                                                   0x3F, 0x3F, 0x3F, 0x3F, 0x1F, 0x1F, 0x0F, 0x07};
inline constexpr std::uint8_t bit_weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
inline constexpr std::uint16_t word_weights[8] = {1, 2, 4, 8, 16, 32, 64, 128};
inline constexpr std::uint32_t dword_weights[4] = {1, 2, 4, 8};

/// p, as a value the compiler keeps in a register rather than recomputing it from the address of
/// the table it points into (which costs two instructions a use in a loop): opaque.
template <class T>
UTF8DFA_ALWAYS_INLINE const T* in_register(const T* p) noexcept {
  return opaque(p);
}

/// v, as a value the compiler keeps in a register rather than making it again in a loop.
UTF8DFA_ALWAYS_INLINE uint8x16_t in_register(uint8x16_t v) noexcept {
#if defined(__GNUC__)
  __asm__("" : "+w"(v));
#endif
  return v;
}

/// The 64-bit mask of four 16-byte comparison results (bit k: byte k of the 64 is 0xFF).
UTF8DFA_ALWAYS_INLINE std::uint64_t bits64(uint8x16_t m0, uint8x16_t m1, uint8x16_t m2, uint8x16_t m3) noexcept {
  const uint8x16_t w = vld1q_u8(bit_weights);
  const uint8x16_t t0 = vpaddq_u8(vandq_u8(m0, w), vandq_u8(m1, w));
  const uint8x16_t t1 = vpaddq_u8(vandq_u8(m2, w), vandq_u8(m3, w));
  const uint8x16_t t2 = vpaddq_u8(t0, t1);
  return vgetq_lane_u64(vreinterpretq_u64_u8(vpaddq_u8(t2, t2)), 0);
}

UTF8DFA_ALWAYS_INLINE unsigned popcount64(std::uint64_t v) noexcept {
  return vaddv_u8(vcnt_u8(vcreate_u8(v)));
}

/// Stores the first `bytes` (0..16) bytes of v at o, and nothing else.
UTF8DFA_ALWAYS_INLINE void store_exact(unsigned char* o, uint8x16_t v, unsigned bytes) noexcept {
  if (bytes == 16) {
    vst1q_u8(o, v);
    return;
  }
  if ((bytes & 8u) != 0) {
    vst1_u8(o, vget_low_u8(v));
    o += 8;
    v = vextq_u8(v, v, 8);
  }
  if ((bytes & 4u) != 0) {
    const std::uint32_t x = vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
    std::memcpy(o, &x, 4);
    o += 4;
    v = vextq_u8(v, v, 4);
  }
  if ((bytes & 2u) != 0) {
    const std::uint16_t x = vgetq_lane_u16(vreinterpretq_u16_u8(v), 0);
    std::memcpy(o, &x, 2);
    o += 2;
    v = vextq_u8(v, v, 2);
  }
  if ((bytes & 1u) != 0) *o = vgetq_lane_u8(v, 0);
}

/// u with the two bytes of each unit exchanged when Swap (UTF-16 in the byte order opposite to the
/// host's, as loaded or to be stored): one instruction.
template <bool Swap>
UTF8DFA_ALWAYS_INLINE uint16x8_t in_order16(uint16x8_t u) noexcept {
  return Swap ? vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(u))) : u;
}

/// Stores the first `count` units of the 8 in `u` at o, as UTF-16 (in the other byte order when
/// Swap) or UTF-32 (by Out); with `spill`, all 8.
template <bool Swap = false, class Out>
UTF8DFA_ALWAYS_INLINE void put8(Out* o, uint16x8_t u, unsigned count, bool spill) noexcept {
  auto* const bytes = reinterpret_cast<unsigned char*>(o);
  if constexpr (sizeof(Out) == 2) {
    u = in_order16<Swap>(u);
    if (spill)
      vst1q_u16(reinterpret_cast<std::uint16_t*>(o), u);
    else
      store_exact(bytes, vreinterpretq_u8_u16(u), 2 * count);
  } else {
    const uint32x4_t lo = vmovl_u16(vget_low_u16(u)), hi = vmovl_high_u16(u);
    if (spill) {
      vst1q_u32(reinterpret_cast<std::uint32_t*>(o), lo);
      vst1q_u32(reinterpret_cast<std::uint32_t*>(o) + 4, hi);
    } else if (count <= 4) {
      store_exact(bytes, vreinterpretq_u8_u32(lo), 4 * count);
    } else {
      vst1q_u32(reinterpret_cast<std::uint32_t*>(o), lo);
      store_exact(bytes + 16, vreinterpretq_u8_u32(hi), 4 * (count - 4));
    }
  }
}

/// Stores the first `count` bytes of v at o; with `spill`, all 16.
UTF8DFA_ALWAYS_INLINE void put_bytes(unsigned char* o, uint8x16_t v, unsigned count, bool spill) noexcept {
  if (spill)
    vst1q_u8(o, v);
  else
    store_exact(o, v, count);
}

/// tbl controls that widen bytes 4k..4k+3 of a vector to four 32-bit lanes (k = 0..3).
inline constexpr std::uint8_t widen32_controls[64] = {
    0,  0xFF, 0xFF, 0xFF, 1,  0xFF, 0xFF, 0xFF, 2,  0xFF, 0xFF, 0xFF, 3,  0xFF, 0xFF, 0xFF,
    4,  0xFF, 0xFF, 0xFF, 5,  0xFF, 0xFF, 0xFF, 6,  0xFF, 0xFF, 0xFF, 7,  0xFF, 0xFF, 0xFF,
    8,  0xFF, 0xFF, 0xFF, 9,  0xFF, 0xFF, 0xFF, 10, 0xFF, 0xFF, 0xFF, 11, 0xFF, 0xFF, 0xFF,
    12, 0xFF, 0xFF, 0xFF, 13, 0xFF, 0xFF, 0xFF, 14, 0xFF, 0xFF, 0xFF, 15, 0xFF, 0xFF, 0xFF};

/// The 64 ASCII bytes of v widened to 64 units at o (UTF-32: each vector by four single-register
/// table lookups, which cores run two or more a cycle, rather than a tree of six widenings).
template <bool Swap, class Out>
UTF8DFA_ALWAYS_INLINE void widen64(Out* o, const uint8x16x4_t& v, const uint8x16x4_t& controls) noexcept {
  if constexpr (sizeof(Out) == 2 && Swap) {
    // (each byte after a zero byte: the unit in the other byte order)
    auto* q = reinterpret_cast<std::uint8_t*>(o);
    const uint8x16_t zero = vdupq_n_u8(0);
    for (int k = 0; k < 4; k += 2) {
      const uint8x16x4_t w = {{vzip1q_u8(zero, v.val[k]), vzip2q_u8(zero, v.val[k]), vzip1q_u8(zero, v.val[k + 1]),
                               vzip2q_u8(zero, v.val[k + 1])}};
      vst1q_u8_x4(q + 32 * k, w);
    }
  } else if constexpr (sizeof(Out) == 2) {
    auto* q = reinterpret_cast<std::uint16_t*>(o);
    for (int k = 0; k < 4; k += 2) {
      const uint16x8x4_t w = {{vmovl_u8(vget_low_u8(v.val[k])), vmovl_high_u8(v.val[k]),
                               vmovl_u8(vget_low_u8(v.val[k + 1])), vmovl_high_u8(v.val[k + 1])}};
      vst1q_u16_x4(q + 16 * k, w);
    }
  } else {
    auto* q = reinterpret_cast<std::uint8_t*>(o);
    for (int k = 0; k < 4; ++k) {
      const uint8x16x4_t w = {{vqtbl1q_u8(v.val[k], controls.val[0]), vqtbl1q_u8(v.val[k], controls.val[1]),
                               vqtbl1q_u8(v.val[k], controls.val[2]), vqtbl1q_u8(v.val[k], controls.val[3])}};
      vst1q_u8_x4(q + 64 * k, w);
    }
  }
}

/// Widens the ASCII block `first` at c.i, and the ASCII blocks after it while 80 bytes are left,
/// in a loop of their own.
template <bool Swap, class Out>
UTF8DFA_ALWAYS_INLINE void widen_ascii_blocks(const unsigned char* p, std::size_t n, const block& first,
                                              transcode_cursor<Out>& c) noexcept {
  const unsigned char* s = p + c.i;
  const unsigned char* const last = p + n - 80;
  Out* o = c.o;
  const uint8x16x4_t controls = vld1q_u8_x4(widen32_controls);
  widen64<Swap>(o, uint8x16x4_t{{first.v[0], first.v[1], first.v[2], first.v[3]}}, controls);
  for (s += 64, o += 64; s <= last; s += 64, o += 64) {
    const uint8x16x4_t v = vld1q_u8_x4(s);
    if (vmaxvq_u8(vorrq_u8(vorrq_u8(v.val[0], v.val[1]), vorrq_u8(v.val[2], v.val[3]))) >= 0x80) break;
    widen64<Swap>(o, v, controls);
  }
  c.i = static_cast<std::size_t>(s - p);
  c.o = o;
}

/// Writes the 16 units of 16 3-byte characters whose bytes are t (first, second, last).
template <bool Swap, class Out>
UTF8DFA_ALWAYS_INLINE void put_threes(Out* o, const uint8x16x3_t& t) noexcept {
  const uint8x16_t low = vsliq_n_u8(t.val[2], t.val[1], 6);                  // bbcccccc
  const uint8x16_t high = vsliq_n_u8(vshrq_n_u8(t.val[1], 2), t.val[0], 4);  // aaaabbbb
  if constexpr (sizeof(Out) == 2) {
    vst2q_u8(reinterpret_cast<std::uint8_t*>(o), Swap ? uint8x16x2_t{{high, low}} : uint8x16x2_t{{low, high}});
  } else {
    const uint8x16_t zero = vdupq_n_u8(0);
    vst4q_u8(reinterpret_cast<std::uint8_t*>(o), (uint8x16x4_t{{low, high, zero, zero}}));
  }
}

/// The ends (bits 0..14 of a window's) of five 3-byte characters, and the tbl controls that put
/// their (last byte, byte before) and their lead's bits in 16-bit lanes 0..4.
inline constexpr std::uint64_t five3_ends = 0x4924;
inline constexpr std::uint8_t five3_controls[32] = {2,    1,    5,    4,    8,    7,    11,   10,   14,   13,  0xFF,
                                                    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0,    0xFF, 3,    0xFF, 6,   0xFF,
                                                    9,    0xFF, 12,   0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

/// Decodes the characters of the block at p + start (its character ends `ends`), which passed the
/// check (or, unchecked, the guard of utf8_to_utf_impl), in windows, from c.i while the window's ends
/// lie in the block: Any, characters of 1..4 bytes; else of 1..3 (Three) or 1..2; Ascii, runs of 8
/// ASCII bytes or more 16 at a time (in a checked block, a run of ends from a character start is a
/// run of ASCII bytes; unchecked, it is a run of 1-byte pieces, written as they are).
template <bool Any, bool Three, bool Ascii, bool Swap, class Out>
UTF8DFA_ALWAYS_INLINE void decode_windows(const unsigned char* p, std::size_t start, std::uint64_t ends, Out* safe_end,
                                          transcode_cursor<Out>& c) noexcept {
  const shuffle_tables& t = tables;
  const std::uint8_t* const shuffle = in_register(Any ? &t.any_shuffle[0][0] : &t.bmp_shuffle[0][0]);
  const std::uint16_t* const bmp_meta = in_register(t.bmp_meta);
  const std::uint32_t* const any_meta = in_register(t.any_meta);
  const uint8x16_t payload = vld1q_u8(payload_masks);
  const uint8x16_t five3_low = vld1q_u8(five3_controls), five3_lead = vld1q_u8(five3_controls + 16);
  const std::size_t limit = start + 64 - window_bytes;  // window ends read in the block
  std::uint64_t e = ends >> (c.i - start);              // the ends from c.i on (none past the block)
  while (c.i < limit) {
    if (Ascii && (e & 0xFF) == 0xFF) {  // 8 ASCII characters or more: 16 units
      unsigned k = static_cast<unsigned>(__builtin_ctzll(~e));
      if (k > 16) k = 16;
      const uint8x16_t v = vld1q_u8(p + c.i);
      const bool spill = k == 16 || c.o + 16 <= safe_end;
      put8<Swap>(c.o, vmovl_u8(vget_low_u8(v)), k < 8 ? k : 8, spill);
      put8<Swap>(c.o + 8, vmovl_high_u8(v), k - 8, spill);
      c.i += k;
      c.o += k;
      e >>= k;
      continue;
    }
    const std::size_t m = static_cast<std::size_t>(e) & 0xFFFu;
    const uint8x16_t v = vld1q_u8(p + c.i);
    const uint8x16_t bits = vandq_u8(v, vqtbl1q_u8(payload, vshrq_n_u8(v, 4)));
    if constexpr (!Any) {
      // (Bit 14 of e is a byte of the block, as bit 63 of `ends` is 0: the 15 bytes are in it.)
      if (Three && (e & 0x7FFFu) == five3_ends) {
        // Five 3-byte characters: one step of 15 bytes, fixed controls.
        const uint16x8_t two = vreinterpretq_u16_u8(vqtbl1q_u8(bits, five3_low));
        const uint16x8_t cp = vmlsq_n_u16(two, vshrq_n_u16(two, 8), 192);
        put8<Swap>(c.o, vsliq_n_u16(cp, vreinterpretq_u16_u8(vqtbl1q_u8(bits, five3_lead)), 12), 5,
                   c.o + 8 <= safe_end);
        c.i += 15;
        c.o += 5;
        e >>= 15;
        continue;
      }
      // Lane j: (last byte, byte before) = lo + 256 hi -> lo + 64 hi; a 3-byte lead's 4 bits on top.
      const uint8x16x2_t controls = vld1q_u8_x2(shuffle + 32 * m);
      const uint16x8_t two = vreinterpretq_u16_u8(vqtbl1q_u8(bits, controls.val[0]));
      uint16x8_t cp = vmlsq_n_u16(two, vshrq_n_u16(two, 8), 192);
      if constexpr (Three) cp = vsliq_n_u16(cp, vreinterpretq_u16_u8(vqtbl1q_u8(bits, controls.val[1])), 12);
      const unsigned md = bmp_meta[m], count = md >> 8, taken = md & 0xFFu;
      put8<Swap>(c.o, cp, count, c.o + 8 <= safe_end);
      c.i += taken;
      c.o += count;
      e >>= taken;
      continue;
    }
    // Lane j: (last, before, before, first) bytes; two 12-bit halves as above, then joined.
    const uint16x8_t halves = vreinterpretq_u16_u8(vqtbl1q_u8(bits, vld1q_u8(shuffle + 16 * m)));
    const uint32x4_t x = vreinterpretq_u32_u16(vmlsq_n_u16(halves, vshrq_n_u16(halves, 8), 192));
    const uint32x4_t cp = vsliq_n_u32(x, vshrq_n_u32(x, 16), 12);
    const std::uint32_t md = any_meta[m];
    const unsigned taken = md & 0xFFu;
    c.i += taken;
    e >>= taken;
    if constexpr (sizeof(Out) == 4) {
      const unsigned count = (md >> 8) & 0xFFu;
      if (c.o + 4 <= safe_end)
        vst1q_u32(reinterpret_cast<std::uint32_t*>(c.o), cp);
      else
        store_exact(reinterpret_cast<unsigned char*>(c.o), vreinterpretq_u8_u32(cp), 4 * count);
      c.o += count;
    } else {
      // A supplementary value as the dword (low surrogate << 16 | high surrogate); the units kept
      // and their count come from the window's ends (two for a 4-byte form, else one), so that
      // unchecked, only a 4-byte piece writes two units whatever its value.
      const uint32x4_t supp = vcgtq_u32(cp, vdupq_n_u32(0xFFFF));
      const uint32x4_t high = vaddq_u32(vshrq_n_u32(cp, 10), vdupq_n_u32(0xD7C0));
      const uint32x4_t low = vorrq_u32(vandq_u32(cp, vdupq_n_u32(0x3FF)), vdupq_n_u32(0xDC00));
      const uint32x4_t units = vbslq_u32(supp, vsliq_n_u32(high, low, 16), cp);
      const uint8x16_t packed = vqtbl1q_u8(vreinterpretq_u8_u32(units), vld1q_u8(t.pack_pairs[md >> 24]));
      const unsigned written = (md >> 16) & 0xFFu;
      put8<Swap>(c.o, vreinterpretq_u16_u8(packed), written, c.o + 8 <= safe_end);
      c.o += written;
    }
  }
}

/// UTF-8 to UTF-32 or UTF-16 (by Out; in the byte order opposite to the host's when Swap). Without
/// Check (assume_valid) the blocks are not validated, only guarded: no run of continuation bytes as
/// long as the block's longest form (2, 3 or 4 bytes, by its largest byte). Then every piece the
/// windows take (a byte that is no continuation, or the block's first byte, and the continuation
/// bytes after it) has 1 to 4 bytes and writes one unit, or two for 4 bytes, where the replace
/// policy writes at least as many for the same bytes: the output stays within utf16/32_length_from_
/// utf8 (and the spill bound below holds), whatever the input. A block that fails the guard is
/// decoded by the scalar DFA under replace.
template <bool Strict, class Out, bool Swap = false, bool Check = true>
inline packed_conversion utf8_to_utf_impl(const unsigned char* p, std::size_t n, Out* out,
                                          char32_t replacement) noexcept {
  transcode_cursor<Out> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  [[maybe_unused]] const checker check;
  [[maybe_unused]] const uint8x16_t zero = vdupq_n_u8(0);
  const int8x16_t cont_limit = vdupq_n_s8(-65);
  while (n - c.i >= 80) {  // a block, and the 16 bytes a window load past it may touch
    const unsigned char* const b = p + c.i;
    const block bl = load_block(b);
    const std::uint8_t top = vmaxvq_u8(vmaxq_u8(vmaxq_u8(bl.v[0], bl.v[1]), vmaxq_u8(bl.v[2], bl.v[3])));
    if (top < 0x80) {
      widen_ascii_blocks<Swap>(p, n, bl, c);
      continue;
    }
    // Bit k: byte k is no continuation byte.
    const std::uint64_t heads =
        bits64(vcgtq_s8(vreinterpretq_s8_u8(bl.v[0]), cont_limit), vcgtq_s8(vreinterpretq_s8_u8(bl.v[1]), cont_limit),
               vcgtq_s8(vreinterpretq_s8_u8(bl.v[2]), cont_limit), vcgtq_s8(vreinterpretq_s8_u8(bl.v[3]), cont_limit));
    bool pass;
    if constexpr (Check) {
      pass = !any(vorrq_u8(vorrq_u8(check(bl.v[0], zero), check(bl.v[1], bl.v[0])),
                           vorrq_u8(check(bl.v[2], bl.v[1]), check(bl.v[3], bl.v[2]))));
    } else {
      // (Runs of 4, 3 or 2 fail: a piece of the windows' longest (tables.hpp) or more would stall them.)
      static_assert(any_longest == 4 && bmp_longest == 3, "the guard below fails pieces the windows do not take");
      const std::uint64_t cont = ~heads, two = cont & (cont >> 1);  // bit k: bytes k.. are 1 or 2 of them
      pass = (top >= 0xF0 ? two & (two >> 2) : top >= 0xE0 ? two & (cont >> 2) : two) == 0;
    }
    if (UTF8DFA_UNLIKELY(!pass)) {
      if (!scalar_region_in_order<Strict, Swap>(p, n, c.i + 64, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    // Bit k of `ends`: byte k + 1 is no continuation (byte k ends a character; bit 63: unknown, 0).
    const std::uint64_t ends = heads >> 1;
    // The characters that end in bytes 0..62 are complete and valid: they will be written, one
    // unit or more each, whatever comes after them; stores may spill up to there.
    Out* const safe_end = c.o + popcount64(ends);
    const std::size_t start = c.i;
    if (top >= 0xE0 && (ends & 0xFFFFFFFFFFFFu) == 0x924924924924u) {
      // Sixteen 3-byte characters (CJK text): their first, second and last bytes in three vectors
      // by one structure load; 16 units by two shift-inserts a byte.
      put_threes<Swap>(c.o, vld3q_u8(b));
      c.i += 48;
      c.o += 16;
    }
    // Runs of 8 ends (bit k: bytes k..k+7), ASCII bytes from a character start.
    std::uint64_t runs = ends & (ends >> 1);
    runs &= runs >> 2;
    runs &= runs >> 4;
    if (top >= 0xF0)
      decode_windows<true, true, true, Swap>(p, start, ends, safe_end, c);
    else if (top >= 0xE0)
      runs != 0 ? decode_windows<false, true, true, Swap>(p, start, ends, safe_end, c)
                : decode_windows<false, true, false, Swap>(p, start, ends, safe_end, c);
    else
      runs != 0 ? decode_windows<false, false, true, Swap>(p, start, ends, safe_end, c)
                : decode_windows<false, false, false, Swap>(p, start, ends, safe_end, c);
  }
  return finish_scalar_in_order<Strict, Swap>(p, n, out, c, repl);
}

/// The packing rows and lengths of encode_short8 and encode_bmp8.
struct utf8_packers {
  const std::uint8_t* short_rows;
  const std::uint8_t* short_lengths;
  const std::uint8_t* bmp_rows;
  const std::uint8_t* bmp_lengths;

  utf8_packers() noexcept
      : short_rows(in_register(&tables.pack_short_utf8[0][0])),
        short_lengths(in_register(tables.short_utf8_length)),
        bmp_rows(in_register(&tables.pack_bmp_utf8[0][0])),
        bmp_lengths(in_register(tables.bmp_utf8_length)) {}
};

/// Writes the UTF-8 forms (1 or 2 bytes) of the 8 values below 0x800 in w; with `spill`, up to 8
/// bytes past them.
UTF8DFA_ALWAYS_INLINE unsigned char* encode_short8(unsigned char* o, uint16x8_t w, bool spill,
                                                   const utf8_packers& k) noexcept {
  const uint16x8_t ge80 = vcgtq_u16(w, vdupq_n_u16(0x7F));
  // (w >> 6, w's low byte) as (lead, last byte) with their marker bits (one bit select); an ASCII
  // unit as it is.
  const uint16x8_t pair = vbslq_u16(vdupq_n_u16(0x3F1F), vsliq_n_u16(vshrq_n_u16(w, 6), w, 8), vdupq_n_u16(0x80C0));
  const unsigned m = vaddvq_u16(vandq_u16(ge80, vld1q_u16(word_weights)));
  const uint8x16_t packed =
      vqtbl1q_u8(vreinterpretq_u8_u16(vbslq_u16(ge80, pair, w)), vld1q_u8(k.short_rows + 16 * std::size_t{m}));
  const unsigned len = k.short_lengths[m];
  put_bytes(o, packed, len, spill);
  return o + len;
}

/// Bits 0..3 (8..11): units 0..3 (4..7) are ASCII; bits 4..7 (12..15): they are below 0x800.
inline constexpr std::uint16_t ascii_unit_bits[8] = {0x1, 0x2, 0x4, 0x8, 0x100, 0x200, 0x400, 0x800};
inline constexpr std::uint16_t short_unit_bits[8] = {0x10, 0x20, 0x40, 0x80, 0x1000, 0x2000, 0x4000, 0x8000};

/// Writes the UTF-8 forms of the 8 BMP scalar values in w; with `spill`, up to 12 bytes past them.
UTF8DFA_ALWAYS_INLINE unsigned char* encode_bmp8(unsigned char* o, uint16x8_t w, bool spill,
                                                 const utf8_packers& k) noexcept {
  const uint16x8_t ge80 = vcgtq_u16(w, vdupq_n_u16(0x7F));
  const uint16x8_t ge800 = vcgtq_u16(w, vdupq_n_u16(0x7FF));
  // Bytes 0, 1 of each dword: the unit's low byte (a 1-byte form), 0x80 | its low 6 bits (the
  // last byte of a longer form).
  // (Each marker bits put in by one bit select.)
  const uint16x8_t low = vsliq_n_u16(w, vbslq_u16(vdupq_n_u16(0x3F), w, vdupq_n_u16(0x80)), 8);
  // Bytes 2, 3: 0xE0 | bits 12..15 (a 3-byte lead); bits 6..11 with 0x80 (a 3-byte form's second
  // byte) or with 0xC0 (a 2-byte lead: bits 11 and up are 0).
  const uint16x8_t marker = vbslq_u16(ge800, vdupq_n_u16(0x80E0), vdupq_n_u16(0xC0E0));
  const uint16x8_t high = vbslq_u16(vdupq_n_u16(0x3F0F), vsriq_n_u16(vshlq_n_u16(w, 2), w, 12), marker);
  const uint8x16_t lo = vreinterpretq_u8_u16(vzip1q_u16(low, high));
  const uint8x16_t hi = vreinterpretq_u8_u16(vzip2q_u16(low, high));
  const unsigned m =
      vaddvq_u16(vorrq_u16(vbicq_u16(vld1q_u16(ascii_unit_bits), ge80), vbicq_u16(vld1q_u16(short_unit_bits), ge800)));
  const unsigned i0 = m & 0xFFu, i1 = m >> 8;
  const unsigned n0 = k.bmp_lengths[i0], n1 = k.bmp_lengths[i1];
  const uint8x16_t p0 = vqtbl1q_u8(lo, vld1q_u8(k.bmp_rows + 16 * i0));
  const uint8x16_t p1 = vqtbl1q_u8(hi, vld1q_u8(k.bmp_rows + 16 * i1));
  put_bytes(o, p0, n0, spill || n0 + n1 >= 16);
  put_bytes(o + n0, p1, n1, spill);
  return o + n0 + n1;
}

/// True when none of the 16 units of a and b is a surrogate.
UTF8DFA_ALWAYS_INLINE bool no_surrogate16(uint16x8_t a, uint16x8_t b) noexcept {
  const uint16x8_t bias = vdupq_n_u16(0xD800);
  return vminvq_u16(vminq_u16(vsubq_u16(a, bias), vsubq_u16(b, bias))) >= 0x800;
}

/// The 16 units at p as two vectors of 16-bit lanes (UTF-16 in host order, exchanged as loaded when
/// Swap); false (UTF-32) when one is above 0xFFFF.
template <bool Swap = false, class In>
UTF8DFA_ALWAYS_INLINE bool load16(const In* p, uint16x8_t& a, uint16x8_t& b) noexcept {
  if constexpr (sizeof(In) == 2) {
    const auto* q = reinterpret_cast<const std::uint16_t*>(p);
    a = in_order16<Swap>(vld1q_u16(q));
    b = in_order16<Swap>(vld1q_u16(q + 8));
  } else {
    const auto* q = reinterpret_cast<const std::uint32_t*>(p);
    const uint32x4_t x0 = vld1q_u32(q), x1 = vld1q_u32(q + 4), x2 = vld1q_u32(q + 8), x3 = vld1q_u32(q + 12);
    if (vmaxvq_u32(vorrq_u32(vorrq_u32(x0, x1), vorrq_u32(x2, x3))) > 0xFFFF) return false;
    a = vuzp1q_u16(vreinterpretq_u16_u32(x0), vreinterpretq_u16_u32(x1));
    b = vuzp1q_u16(vreinterpretq_u16_u32(x2), vreinterpretq_u16_u32(x3));
  }
  return true;
}

/// True when the 16 units at p are BMP scalar values.
template <class In>
UTF8DFA_ALWAYS_INLINE bool plain16(const In* p) noexcept {
  uint16x8_t a, b;
  return load16(p, a, b) && no_surrogate16(a, b);
}

/// True when the 8 units at p are BMP scalar values (UTF-16: no surrogate; UTF-32: nor above FFFF).
template <class In>
UTF8DFA_ALWAYS_INLINE bool plain8(const In* p) noexcept {
  if constexpr (sizeof(In) == 2) {
    const uint16x8_t w = vld1q_u16(reinterpret_cast<const std::uint16_t*>(p));
    return vminvq_u16(vsubq_u16(w, vdupq_n_u16(0xD800))) >= 0x800;
  } else {
    const uint32x4_t a = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p));
    const uint32x4_t b = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p) + 4);
    const uint32x4_t lo = vminq_u32(vsubq_u32(a, vdupq_n_u32(0xD800)), vsubq_u32(b, vdupq_n_u32(0xD800)));
    return vmaxvq_u32(vorrq_u32(a, b)) <= 0xFFFF && vminvq_u32(lo) >= 0x800;
  }
}

/// The 8 units at p (BMP values) as 16-bit lanes.
template <class In>
UTF8DFA_ALWAYS_INLINE uint16x8_t load8(const In* p) noexcept {
  if constexpr (sizeof(In) == 2) {
    return vld1q_u16(reinterpret_cast<const std::uint16_t*>(p));
  } else {
    const uint32x4_t a = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p));
    const uint32x4_t b = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p) + 4);
    return vuzp1q_u16(vreinterpretq_u16_u32(a), vreinterpretq_u16_u32(b));
  }
}

/// Copies the ASCII units from c.i on, narrowed, 64 bytes of input a step (32 UTF-16 units, 16
/// UTF-32 ones), while they are ASCII (UTF-16 exchanged when Swap: its ASCII bytes come second).
template <bool Swap = false, class In>
UTF8DFA_ALWAYS_INLINE void ascii_runs(const In* p, std::size_t n, transcode_cursor<unsigned char>& c) noexcept {
  constexpr std::size_t step = 64 / sizeof(In);
  for (; n - c.i >= step; c.i += step, c.o += step) {
    if constexpr (sizeof(In) == 2) {
      const uint8x16x4_t v = vld1q_u8_x4(reinterpret_cast<const std::uint8_t*>(p + c.i));
      const uint16x8_t any = vreinterpretq_u16_u8(vorrq_u8(vorrq_u8(v.val[0], v.val[1]), vorrq_u8(v.val[2], v.val[3])));
      // (exchanged, an ASCII unit is its byte << 8: no bit of 0x80FF set)
      if (Swap ? vmaxvq_u16(vandq_u16(any, vdupq_n_u16(0x80FF))) != 0 : vmaxvq_u16(any) >= 0x80) return;
      vst1q_u8(c.o, Swap ? vuzp2q_u8(v.val[0], v.val[1]) : vuzp1q_u8(v.val[0], v.val[1]));
      vst1q_u8(c.o + 16, Swap ? vuzp2q_u8(v.val[2], v.val[3]) : vuzp1q_u8(v.val[2], v.val[3]));
    } else {
      const uint32x4x4_t v = vld1q_u32_x4(reinterpret_cast<const std::uint32_t*>(p + c.i));
      if (vmaxvq_u32(vorrq_u32(vorrq_u32(v.val[0], v.val[1]), vorrq_u32(v.val[2], v.val[3]))) >= 0x80) return;
      const uint16x8_t lo = vuzp1q_u16(vreinterpretq_u16_u32(v.val[0]), vreinterpretq_u16_u32(v.val[1]));
      const uint16x8_t hi = vuzp1q_u16(vreinterpretq_u16_u32(v.val[2]), vreinterpretq_u16_u32(v.val[3]));
      vst1q_u8(c.o, vuzp1q_u8(vreinterpretq_u8_u16(lo), vreinterpretq_u8_u16(hi)));
    }
  }
}

/// UTF-16 or UTF-32 (by In) to UTF-8, 16 units at a time: ASCII, or BMP scalar values (encoded 8 at
/// a time, as forms of 1 or 2 bytes when all are below 0x800); 16 units holding anything else go
/// scalar. A step that encodes loads and classifies the next 16 units (its stores may spill into
/// their output when they are BMP scalar values), and the next step takes them from there.
template <bool Strict, class In, bool Swap = false>
inline packed_conversion utf_to_utf8_impl(const In* p, std::size_t n, unsigned char* out,
                                          char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  const utf8_packers k;
  uint16x8_t a = vdupq_n_u16(0), b = vdupq_n_u16(0);
  unsigned top = 0;     // the largest of the 16 units at c.i (0xFFFF: UTF-32 above the BMP)
  bool plain = false;   // they are BMP scalar values
  bool loaded = false;  // a, b, top and plain hold the 16 units at c.i
  while (n - c.i >= 16) {
    if (!loaded) {
      const bool bmp = load16<Swap>(p + c.i, a, b);
      top = bmp ? vmaxvq_u16(vmaxq_u16(a, b)) : 0xFFFFu;
      plain = bmp && (top < 0xD800 || no_surrogate16(a, b));
    }
    loaded = false;
    if (top < 0x80) {
      vst1q_u8(c.o, vuzp1q_u8(vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b)));
      c.i += 16;
      c.o += 16;
      ascii_runs<Swap>(p, n, c);
      continue;
    }
    if (!plain) {
      if (!scalar_region_in_order<Strict, Swap>(p, n, c.i + 16, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    uint16x8_t next_a = vdupq_n_u16(0), next_b = vdupq_n_u16(0);
    unsigned next_top = 0;
    bool next_plain = false;
    if (n - c.i >= 32) {
      const bool bmp = load16<Swap>(p + c.i + 16, next_a, next_b);
      next_top = bmp ? vmaxvq_u16(vmaxq_u16(next_a, next_b)) : 0xFFFFu;
      next_plain = bmp && (next_top < 0xD800 || no_surrogate16(next_a, next_b));
      loaded = true;
    }
    // A full-width store spills up to 12 bytes: safe when the next 16 units are BMP scalar values.
    if (top < 0x800) {
      // (The first half's spill is overwritten: the two write 16 bytes or more.)
      c.o = encode_short8(c.o, a, true, k);
      c.o = encode_short8(c.o, b, next_plain, k);
    } else {
      c.o = encode_bmp8(c.o, a, next_plain, k);
      c.o = encode_bmp8(c.o, b, next_plain, k);
    }
    c.i += 16;
    a = next_a;
    b = next_b;
    top = next_top;
    plain = next_plain;
  }
  return finish_scalar_in_order<Strict, Swap>(p, n, out, c, repl);
}

// The kernel-table entry points (`replacement == strict_marker` means strict).

inline packed_conversion utf8_to_utf32(const unsigned char* p, std::size_t n, char32_t* out,
                                       char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char32_t, false, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false>(p, n, out, replacement);
}

inline packed_conversion utf8_to_utf16(const unsigned char* p, std::size_t n, char16_t* out,
                                       char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char16_t, false, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false>(p, n, out, replacement);
}

inline packed_conversion utf16_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                       char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf_to_utf8_impl<false>(p, n, out, replacement);
}

/// UTF-8 to UTF-16 in the byte order opposite to the host's.
inline packed_conversion utf8_to_utf16_swapped(const unsigned char* p, std::size_t n, char16_t* out,
                                               char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true, char16_t, true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char16_t, true, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false, char16_t, true>(p, n, out, replacement);
}

/// UTF-16 in the byte order opposite to the host's to UTF-8.
inline packed_conversion utf16_swapped_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                               char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf_to_utf8_impl<true, char16_t, true>(p, n, out, replacement)
                                      : utf_to_utf8_impl<false, char16_t, true>(p, n, out, replacement);
}

inline packed_conversion utf32_to_utf8(const char32_t* p, std::size_t n, unsigned char* out,
                                       char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf_to_utf8_impl<false>(p, n, out, replacement);
}

}  // namespace neon
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
