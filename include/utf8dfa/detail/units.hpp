// utf8dfa: the scalar forms of the Latin-1 and UTF-16 / UTF-32 bulk operations (latin1.hpp,
// utf16.hpp): the kernel table's portable entries, and what a vector kernel hands a block to when
// it meets an error or a character it does not take.
#ifndef UTF8DFA_DETAIL_UNITS_HPP
#define UTF8DFA_DETAIL_UNITS_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../policy.hpp"
#include "bytes.hpp"
#include "dfa.hpp"
#include "kernel_result.hpp"
#include "scalar.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

// ---- Latin-1 --------------------------------------------------------------------------------

/// Latin-1 to UTF-8: one byte for 00..7F, two for 80..FF. Returns the bytes written. Runs of ASCII
/// blocks of 16 are copied in one loop, blocks of 16 bytes all above 7F written two bytes each
/// without a branch, the others eight bytes at a time (copied when ASCII, else byte by byte).
inline std::size_t latin1_to_utf8_scalar(const unsigned char* p, std::size_t n, unsigned char* out) noexcept {
  std::size_t w = 0, i = 0;
  while (n - i >= 16) {
    const std::uint64_t a = load64(p + i), b = load64(p + i + 8);
    if (((a | b) & high_bits) == 0) {
      const std::size_t j = ascii_run_end(p, i + 16, n);
      copy_units(p + i, j - i, out + w);
      w += j - i;
      i = j;
      continue;
    }
    if ((a & b & high_bits) == high_bits) {
      for (std::size_t k = 0; k < 16; ++k) {
        out[w + 2 * k] = static_cast<unsigned char>(0xC0u | (p[i + k] >> 6));
        out[w + 2 * k + 1] = static_cast<unsigned char>(0x80u | (p[i + k] & 0x3Fu));
      }
      i += 16;
      w += 32;
      continue;
    }
    // Mixed: the first eight bytes, copied when they are ASCII.
    if ((a & high_bits) == 0) {
      for (std::size_t k = 0; k < 8; ++k) out[w + k] = p[i + k];
      i += 8;
      w += 8;
      continue;
    }
    const std::size_t end = i + 8;
    for (; i < end; ++i) w += put_utf8(out + w, char32_t{p[i]});
  }
  for (; i < n; ++i) w += put_utf8(out + w, char32_t{p[i]});
  return w;
}

/// Where a conversion into Latin-1 stands: input read, output written, the first error met.
struct latin1_progress {
  std::size_t read = 0;
  std::size_t written = 0;
  error_code first = error_code::none;
};

/// Input bytes per chunk of the UTF-16 / UTF-32 to Latin-1 loop (128 or 64 units: of 64, 128, 256
/// and 512 bytes, both ran fastest at 256 with g++ 12).
inline constexpr std::size_t latin1_chunk_bytes = 256;

/// The `Block` UTF-16 or UTF-32 units at p narrowed into out (one byte a unit) when none is above
/// FF: true; false, and nothing written, otherwise. ORed in one loop, narrowed in another, both
/// vectorised (a fixed count and pointers that do not overlap: no run-time tests around them). The
/// units are ORed by words (g++ 12 ORs a block of 16 units one by one, but its 4 words in 3
/// instructions), but for UTF-32 under clang++ (which ran UTF-32 0.8x as fast so).
template <std::size_t Block, class In>
UTF8DFA_GCC_ALWAYS_INLINE bool latin1_block(const In* UTF8DFA_RESTRICT p,
                                            unsigned char* UTF8DFA_RESTRICT out) noexcept {
  static_assert(Block * sizeof(In) % 8 == 0, "whole words");
  if constexpr (sizeof(In) == 4 && clang_codegen) {
    In any = 0;
    for (std::size_t k = 0; k < Block; ++k) any = static_cast<In>(any | p[k]);
    if (any > 0xFFu) return false;
  } else {
    std::uint64_t any = 0;
    for (std::size_t k = 0; k < Block; k += 8 / sizeof(In)) any |= load64(p + k);
    if ((any & ~unit_lanes<sizeof(In)>::latin1) != 0) return false;
  }
  if constexpr (sizeof(In) == 4 && Block >= 64 && !clang_codegen) {
    // g++ narrows 32-bit lanes to bytes by a ladder of unpacks; 16-bit lanes it narrows in two
    // instructions a vector. So the values are narrowed as 16-bit halves (each value one byte and
    // one zero byte, in either byte order), and those halves again: 1.3x as fast with g++ 12.
    std::uint16_t halves[2 * Block];
    std::memcpy(halves, p, sizeof halves);
    unsigned char pairs[2 * Block];
    for (std::size_t k = 0; k < 2 * Block; ++k) pairs[k] = static_cast<unsigned char>(halves[k]);
    std::uint16_t values[Block];
    std::memcpy(values, pairs, sizeof values);
    for (std::size_t k = 0; k < Block; ++k) out[k] = static_cast<unsigned char>(values[k]);
  } else {
    for (std::size_t k = 0; k < Block; ++k) out[k] = static_cast<unsigned char>(p[k]);
  }
  return true;
}

/// UTF-8 (In a byte type, decoded by the DFA), UTF-16 or UTF-32 to Latin-1, the characters that
/// start before `stop` (the last may end after it), from and into `s`; `repl` is what replace
/// writes. False when strict stopped at an error (s.read is where, s.first what).
template <class Policy, class In>
bool to_latin1_until(const In* p, std::size_t n, std::size_t stop, unsigned char* out, latin1_progress& s,
                     [[maybe_unused]] unsigned char repl) noexcept {
  std::size_t i = s.read, o = s.written;
  [[maybe_unused]] std::size_t checked = 0;  // UTF-16/32: the end of the last chunk found not all Latin-1
  bool go_on = true;
  while (i < stop) {
    decoded d{};
    if constexpr (sizeof(In) == 1) {
      const std::uint32_t b0 = octet(p[i]);
      if (b0 < 0x80u) {  // ASCII: a run of 16-byte blocks in one loop, or one byte
        const std::size_t j = ascii_run_end(as_uchars(p), i, stop);
        if (j != i) {
          copy_units(as_uchars(p) + i, j - i, out + o);
          o += j - i;
          i = j;
        } else {
          out[o++] = static_cast<unsigned char>(b0);
          ++i;
        }
        continue;
      }
      if ((b0 & 0xFEu) == 0xC2u && n - i >= 2) {  // C2 or C3: U+0080..U+00FF when the DFA accepts
        const std::uint32_t b1 = octet(p[i + 1]);
        if ((step(step(s_accept, octet(p[i])), octet(p[i + 1])) & state_mask) == s_accept) {
          out[o++] = static_cast<unsigned char>(((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu));
          i += 2;
          continue;
        }
      }
      d = decode_at(p, n, i);
    } else {
      // Chunks of up to latin1_chunk_bytes: checked a word at a time (the lanes all alike, so in
      // either byte order), then narrowed in one loop (both vectorised, short chunks too; nothing is
      // written past what the conversion writes). A chunk with a value above FF (or a surrogate, or
      // one too large) goes unit by unit below.
      const std::size_t limit = stop < n ? stop : n;
      if constexpr (sizeof(In) == 4) {  // UTF-32: blocks of 32 values checked and copied, while they last
        bool copied = false;
        while (i >= checked && limit - i >= 32) {
          if (!latin1_block<32>(p + i, out + o)) {
            checked = i + 32;
            break;
          }
          i += 32;
          o += 32;
          copied = true;
        }
        if (copied) continue;
      }
      if (i >= checked) {
        constexpr std::size_t chunk = latin1_chunk_bytes / sizeof(In);
        const std::size_t m = limit - i < chunk ? limit - i : chunk;
        const In* q = p + i;
        std::uint64_t any = 0;
        std::size_t k = 0;
        for (; m - k >= 8 / sizeof(In); k += 8 / sizeof(In)) any |= load64(q + k);
        any = (any & ~unit_lanes<sizeof(In)>::latin1) != 0 ? 0x100u : 0u;
        for (; k < m; ++k) any |= q[k];
        if (any <= 0xFFu) {
          for (k = 0; k < m; ++k) out[o + k] = static_cast<unsigned char>(q[k]);
          i += m;
          o += m;
          continue;
        }
        checked = i + m;
      }
      d = decode_utf_at(p, n, i);
    }
    error_code e = d.error;
    if (e == error_code::none && d.code_point > 0xFF) e = error_code::unrepresentable;
    if (UTF8DFA_UNLIKELY(e != error_code::none)) {
      if (s.first == error_code::none) s.first = e;
      if constexpr (stops_on_error<Policy>) {
        go_on = false;
        break;
      } else if constexpr (!skips_errors_v<Policy>) {
        out[o++] = repl;
      }
    } else {
      out[o++] = static_cast<unsigned char>(d.code_point);
    }
    i += d.length;
  }
  s.read = i;
  s.written = o;
  return go_on;
}

/// The result of a conversion into Latin-1 that stands at `s` after the whole input of `n` units.
inline packed_conversion latin1_result(const latin1_progress& s, std::size_t n, bool stopped) noexcept {
  return {stopped ? s.read : n, s.written, s.first};
}

/// The replacement byte of a policy into Latin-1 (assume_valid: '?'); false for one above U+00FF.
template <class Policy>
constexpr bool latin1_replacement([[maybe_unused]] const Policy& pol, unsigned char& repl) noexcept {
  repl = '?';
  if constexpr (std::is_same_v<Policy, replace>) {
    const char32_t r = pol.replacement_value();
    if (r > 0xFF) return false;
    repl = static_cast<unsigned char>(r);
  }
  return true;
}

/// The start of the `n` UTF-16 or UTF-32 units at p up to the first block with a unit above FF,
/// narrowed into out (one byte a unit, under any policy): latin1_block's blocks (of the size that
/// both g++ and clang++ ran fastest), then what is left (short input too): in blocks of 16, 8 or 4,
/// the last one overlapping the one before (with g++ 12, 64 B of UTF-16 ran 1.2x faster than in
/// loops of run-time length, whose set-up and scalar tails cost short input the most), or, under
/// clang++ (whose short blocks ran 0.6x as fast), in such loops. Returns the units done (n when
/// all); nothing is written for the block with an error.
template <class In>
std::size_t latin1_prefix(const In* p, std::size_t n, unsigned char* out) noexcept {
  constexpr std::size_t block = sizeof(In) == 2 ? 128 : 64;
  std::size_t i = 0;
  for (; n - i >= block; i += block)
    if (!latin1_block<block>(p + i, out + i)) return i;
  if constexpr (clang_codegen) {
    const In* q = p + i;
    const std::size_t m = n - i;
    In any = 0;
    for (std::size_t k = 0; k < m; ++k) any = static_cast<In>(any | q[k]);
    if (any > 0xFFu) return i;
    for (std::size_t k = 0; k < m; ++k) out[i + k] = static_cast<unsigned char>(q[k]);
    return n;
  }
  const auto blocks_of = [&](auto size) {  // then the last `size` units, ending at n
    constexpr std::size_t b = decltype(size)::value;
    for (; n - i >= b; i += b)
      if (!latin1_block<b>(p + i, out + i)) return;
    if (i < n && !latin1_block<b>(p + n - b, out + n - b)) return;
    i = n;
  };
  if (n - i >= 16) {
    blocks_of(std::integral_constant<std::size_t, 16>{});
  } else if (n - i >= 8) {
    blocks_of(std::integral_constant<std::size_t, 8>{});
  } else if (n - i >= 4) {
    blocks_of(std::integral_constant<std::size_t, 4>{});
  } else {
    for (; i < n && p[i] <= 0xFFu; ++i) out[i] = static_cast<unsigned char>(p[i]);
  }
  return i;
}

/// UTF-8, UTF-16 or UTF-32 to Latin-1 (latin1.hpp's header comment says what each policy does).
template <class Policy, class In>
packed_conversion to_latin1(const In* p, std::size_t n, unsigned char* out, Policy pol) noexcept {
  unsigned char repl = '?';
  if (!latin1_replacement(pol, repl)) return {0, 0, error_code::unrepresentable};
  latin1_progress s;
  // UTF-16 and UTF-32: Latin-1 from the start by blocks, the rest below.
  if constexpr (sizeof(In) > 1) {
    s.read = s.written = latin1_prefix(p, n, out);
    if (s.read == n) return {n, n, error_code::none};
  }
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

// ---- UTF-16 and UTF-32 ----------------------------------------------------------------------

/// True when none of the m units at p is a surrogate (or, in UTF-32, above 0x10FFFF): one test for
/// them all, a loop without branches that compilers vectorise.
template <class In>
constexpr bool plain_units(const In* p, std::size_t m) noexcept {
  unsigned bad = 0;
  for (std::size_t k = 0; k < m; ++k) {
    const std::uint32_t u = p[k];
    bad |= static_cast<unsigned>(u - 0xD800u < 0x800u) | static_cast<unsigned>(sizeof(In) == 4 && u > 0x10FFFFu);
  }
  return bad == 0;
}

/// plain_units on 32 units.
template <class In>
constexpr bool plain_block(const In* p) noexcept {
  return plain_units(p, 32);
}

/// From i, past the chunks (up to 256 units) that plain_units passes: where the first that fails
/// starts, or n. The chunks' loop has a run-time length: clang++ 14 made a fixed block of 32 units
/// into loads of single units.
template <class In>
constexpr std::size_t skip_plain_chunks(const In* p, std::size_t n, std::size_t i) noexcept {
  while (i < n) {
    const std::size_t m = n - i < 256 ? n - i : 256;
    if (!plain_units(p + i, m)) break;
    i += m;
  }
  return i;
}

/// The surrogate tests of UTF-16 units in host order (Swap false) or with their bytes exchanged:
/// u & mask is `high` for D800..DBFF, `low` for DC00..DFFF.
template <bool Swap>
struct surrogate_bits {
  static constexpr std::uint16_t mask = Swap ? 0x00FC : 0xFC00, high = Swap ? 0x00D8 : 0xD800,
                                 low = Swap ? 0x00DC : 0xDC00;
};

/// Where blocks checked pair by pair (paired_block32, or a kernel's vector form of it) that began at
/// the character boundary `start` and passed up to `i` leave one: i, or i - 1 when they stopped
/// inside a pair (p[i - 1] its high surrogate, checked with its low one, p[i]).
template <bool Swap = false>
constexpr std::size_t pair_boundary(const char16_t* p, std::size_t start, std::size_t i) noexcept {
  using S = surrogate_bits<Swap>;
  return i != start && (p[i - 1] & S::mask) == S::high ? i - 1 : i;
}

/// True when each of the m UTF-16 units at p is a high surrogate exactly when the unit after it is
/// a low one (p[m] is read too). UTF-16 is well-formed exactly when that holds of every unit but
/// the last, the first is not a low surrogate and the last not a high one: blocks checked so chain
/// on from one another wherever they start (inside a pair too), with no test per unit, and the
/// compilers vectorise the loop. A block that fails holds an error among p[0..m].
template <bool Swap = false>
constexpr bool paired_units(const char16_t* p, std::size_t m) noexcept {
  using S = surrogate_bits<Swap>;
  if constexpr (clang_codegen) {
    // clang++ 14 vectorised p[k + 1] as the next p[k] (shuffles, 4 units a step: 8 GB/s where
    // g++ ran 26); read through a pointer it cannot relate to p, into a flag, it ran 34.
    const char16_t* q = p + 1;
    if (!UTF8DFA_IS_CONSTANT_EVALUATED()) q = opaque(q);
    bool bad = false;
    for (std::size_t k = 0; k < m; ++k) bad |= ((p[k] & S::mask) == S::high) != ((q[k] & S::mask) == S::low);
    return !bad;
  } else {
    // Whole-lane masks: g++ 12 ran this 1.1x as fast as an OR of the comparisons' 0 or 1.
    std::uint16_t bad = 0;
    for (std::size_t k = 0; k < m; ++k) {
      const auto high = static_cast<std::uint16_t>(-static_cast<int>((p[k] & S::mask) == S::high));
      const auto low = static_cast<std::uint16_t>(-static_cast<int>((p[k + 1] & S::mask) == S::low));
      bad = static_cast<std::uint16_t>(bad | (high ^ low));
    }
    return bad == 0;
  }
}

/// paired_units on 32 units (p[32] is read too).
template <bool Swap = false>
constexpr bool paired_block32(const char16_t* p) noexcept {
  // A count clang++ 14 cannot see: with 32 it unrolled the loop into tests of one unit at a time.
  std::size_t m = 32;
  if (clang_codegen && !UTF8DFA_IS_CONSTANT_EVALUATED()) m = opaque_count(m);
  return paired_units<Swap>(p, m);
}

/// From the character boundary i of the `n` UTF-16 units at p, past the chunks (a multiple of 8
/// units, up to 256; the last 1..8 units are left to the caller) that paired_units passes; returns
/// a character boundary at or before the first that fails (i when none passes). The chunks' loop
/// has a run-time length: clang++ 14 turned a fixed block of 32 units into loads of single units,
/// at a fifth of the speed.
template <bool Swap = false>
constexpr std::size_t skip_paired_blocks(const char16_t* p, std::size_t n, std::size_t i) noexcept {
  using S = surrogate_bits<Swap>;
  if (n - i < 9 || (p[i] & S::mask) == S::low) return i;
  const std::size_t start = i;
  while (n - i >= 9) {
    const std::size_t m = (n - i - 1 < 256 ? n - i - 1 : 256) & ~std::size_t{7};
    if (!paired_units<Swap>(p + i, m)) break;
    i += m;
  }
  return pair_boundary<Swap>(p, start, i);
}

/// Validation of UTF-16 or UTF-32 (by In), offsets in units: UTF-16 by paired chunks, UTF-32 by
/// plain chunks, then from the chunk that fails, blocks of 32 plain units and the rest unit by unit.
template <class In>
constexpr packed_validation validate_utf(const In* p, std::size_t n) noexcept {
  // UTF-16 by pairs, UTF-32 by plain chunks: in well-formed input neither stops before the end.
  std::size_t start = 0;
  if constexpr (sizeof(In) == 2)
    start = skip_paired_blocks(p, n, 0);
  else
    start = skip_plain_chunks(p, n, 0);
  for (std::size_t i = start; i < n;) {
    if (n - i >= 32 && plain_block(p + i)) {
      i += 32;
      continue;
    }
    const std::size_t end = n - i < 32 ? n : i + 32;
    while (i < end) {  // a pair may end one unit past `end`
      if (p[i] < 0xD800) {
        ++i;
        continue;
      }
      const decoded d = decode_utf_at(p, n, i);
      if (d.error != error_code::none) return {i, d.error == error_code::incomplete ? 0u : std::size_t{1}, d.error};
      i += d.length;
    }
  }
  return {n, 0, error_code::none};
}

/// The kernel entry for UTF-16 validation.
inline packed_validation validate_utf16_scalar(const char16_t* p, std::size_t n) noexcept {
  return validate_utf(p, n);
}

/// Nonzero when the UTF-32 value u is not a scalar value (a surrogate, or above 0x10FFFF): shifts
/// and compares of small values, which the compilers vectorise with SSE2.
constexpr std::uint32_t not_scalar_value(std::uint32_t u) noexcept {
  return static_cast<std::uint32_t>((u >> 11) == 0x1Bu) | static_cast<std::uint32_t>((u >> 16) > 0x10u);
}

/// Nonzero when the UTF-16 or UTF-32 unit u does not map to one unit of the other form (a
/// surrogate, or above FFFF).
constexpr std::uint32_t not_one_unit(std::uint32_t u) noexcept {
  return static_cast<std::uint32_t>((u >> 11) == 0x1Bu) | (u >> 16);
}

/// What a block of 16 UTF-32 values is, by one pass over it: not all scalar values, all at or
/// below FFFF (one unit each), all above FFFF (a run of pairs), or scalar values of both kinds.
enum class utf32_block : unsigned char { ill_formed, bmp, supplementary, mixed };

template <class In>
UTF8DFA_NOINLINE utf32_block classify_utf32_block16(const In* p) noexcept {
  // Three ORs, by shifts and signed compares of small values, which SSE2 has. A function of its
  // own: inlined in utf_to_utf's loop, g++ 12 tested the values one by one; and clang++ 14 did so
  // with one OR of flags.
  std::uint32_t bad = 0;
  std::uint32_t bmp = 0;
  std::uint32_t sup = 0;
  for (std::size_t k = 0; k < 16; ++k) {
    const std::uint32_t u = p[k];
    bad |= not_scalar_value(u);
    bmp |= static_cast<std::uint32_t>((u >> 16) == 0);
    sup |= u >> 16;
  }
  if (bad != 0) return utf32_block::ill_formed;
  return sup == 0 ? utf32_block::bmp : bmp == 0 ? utf32_block::supplementary : utf32_block::mixed;
}

/// UTF-32 to UTF-16: the 16 values at p without a branch per value when all are scalar values
/// (returns the end of the output); nullptr, and nothing written, when not. The units of each value
/// and the test are made first, in a loop the compilers vectorise (both units in one word, as they
/// lie in memory, and the value's width); then each word is stored whole and the output moves by
/// the width (a unit written past one value's is the next one's first), the last value only what
/// it takes, so nothing is written past the end. Before, one loop did both, at 2.3x simdutf
/// fallback's time on text of emoji among ASCII words; with the test apart (classify_utf32_block16
/// before each block), that corpus at 1 KiB ran 0.66x -> 0.78x simdutf fallback's speed with g++ 12
/// and 0.74x -> 1.10x with clang++ 14 once it moved here.
template <class Out>
Out* mixed_block16(const char32_t* p, Out* o) noexcept {
  static_assert(sizeof(Out) == 2, "UTF-16 output");
  std::uint32_t units[16];
  std::uint32_t widths[16];
  std::uint32_t bad = 0;
  for (std::size_t k = 0; k < 16; ++k) {
    const std::uint32_t u = p[k];
    bad |= not_scalar_value(u);
    const bool sup = u > 0xFFFFu;
    const std::uint32_t first = sup ? 0xD7C0u + (u >> 10) : u;
    const std::uint32_t second = 0xDC00u + (u & 0x3FFu);
    units[k] = host_little_endian ? first | second << 16 : first << 16 | second;
    widths[k] = 1u + static_cast<std::uint32_t>(sup);
  }
  if (bad != 0) return nullptr;
  // Through opaque, or clang++ 14 joins the loops into one that makes and stores a value at a time.
  const std::uint32_t* const made = opaque(units);
  const std::uint32_t* const width = opaque(widths);
  for (std::size_t k = 0; k < 15; ++k) {
    std::memcpy(o, made + k, 4);
    o += width[k];
  }
  if (width[15] == 2) {
    std::memcpy(o, made + 15, 4);
    return o + 2;
  }
  *o = static_cast<Out>(p[15]);
  return o + 1;
}

/// True when the 16 values at p are all above FFFF (and scalar values).
constexpr bool supplementary16(const char32_t* p) noexcept {
  unsigned bad = 0;
  for (std::size_t k = 0; k < 16; ++k) bad |= static_cast<unsigned>(std::uint32_t{p[k]} - 0x10000u > 0xFFFFFu);
  return bad == 0;
}

/// UTF-32 to UTF-16: the `m` values at p, all above FFFF, written as pairs at fixed places (a loop
/// with a count known only at run time, which g++ -O3 vectorises rather than unrolls).
template <class Out>
Out* supplementary_run(const char32_t* p, std::size_t m, Out* o) noexcept {
  for (std::size_t k = 0; k < m; ++k) {
    o[2 * k] = static_cast<Out>(0xD7C0u + (std::uint32_t{p[k]} >> 10));
    o[2 * k + 1] = static_cast<Out>(0xDC00u + (std::uint32_t{p[k]} & 0x3FFu));
  }
  return o + 2 * m;
}

/// UTF-16 to UTF-32: the 32 units at p converted as 16 values at fixed places when they are 16
/// surrogate pairs (text of emoji); false, nothing written, when not. Always inlined, as is
/// paired_block32_to_utf32: an out-of-line copy is an inline (COMDAT) function, and mingw-w64's g++
/// (12) lets an -O2 caller keep values in call-clobbered registers across the call that its own
/// copy leaves alone (-fipa-ra), while the linker may keep another unit's copy (one built at -O1,
/// which uses those registers): the caller's loop state was lost. ELF targets treat such copies as
/// replaceable and do not do that.
template <class Out>
UTF8DFA_ALWAYS_INLINE bool pairs_block32_to_utf32(const char16_t* p, Out* o) noexcept {
  using S = surrogate_bits<false>;
  constexpr std::uint32_t pair_offset = 0x10000u - (std::uint32_t{S::high} << 10) - S::low;  // modulo 2^32
  unsigned bad = 0;
  for (std::size_t k = 0; k < 16; ++k) bad |= ((p[2 * k] & S::mask) ^ S::high) | ((p[2 * k + 1] & S::mask) ^ S::low);
  if (bad != 0) return false;
  for (std::size_t k = 0; k < 16; ++k)
    o[k] = static_cast<Out>((std::uint32_t{p[2 * k]} << 10) + p[2 * k + 1] + pair_offset);
  return true;
}

/// UTF-16 to UTF-32: the 32 units at p, which start a character, converted without a branch per
/// unit when paired_block32 would pass them (p[32] is read too): returns the end of the output
/// (the units taken: 33 when p[31] starts a pair); nullptr, and nothing written, when not. By
/// words of two units (2j, 2j + 1), each of which writes the one or two values its units start (a
/// word that starts with a low surrogate ends the pair of the word before). What each word writes
/// (two values, the second unused when the word writes one) and how far the output moves (1 or 2)
/// are made first, in a loop the compilers vectorise; then each word's two values are stored and
/// the output moves, so that an unused second value is overwritten by the next word; the last word
/// writes only what it takes, so nothing is written past the end. Against a step a unit (a value
/// and a move each), text of emoji among ASCII words at 1 KiB went 0.71x -> 0.87x simdutf
/// fallback's speed with g++ 12 (with the pairing test in this loop) and 0.57x -> 0.68x with
/// clang++ 14.
template <class Out>
UTF8DFA_ALWAYS_INLINE Out* paired_block32_to_utf32(const char16_t* p, Out* o) noexcept {
  static_assert(sizeof(Out) == 4, "UTF-32 output");
  using S = surrogate_bits<false>;
  constexpr std::uint32_t pair_offset = 0x10000u - (std::uint32_t{S::high} << 10) - S::low;  // modulo 2^32
  // clang++ 14 made the test below, in the loop, into scalar code with branches (at 2.2x the time)
  if constexpr (clang_codegen)
    if (!paired_block32(p)) return nullptr;
  std::uint32_t words[16];  // units 2j and 2j + 1, as they lie in memory
  std::uint32_t nexts[16];  // units 2j + 1 and 2j + 2 (read so: one unit past the block at most)
  std::memcpy(words, p, sizeof words);
  std::memcpy(nexts, p + 1, sizeof nexts);
  std::uint32_t values[32];  // word j's two values at 2j and 2j + 1
  std::uint32_t moves[16];
  std::uint32_t bad = 0;
  for (std::size_t j = 0; j < 16; ++j) {
    const std::uint32_t u0 = host_little_endian ? words[j] & 0xFFFFu : words[j] >> 16;
    const std::uint32_t u1 = host_little_endian ? words[j] >> 16 : words[j] & 0xFFFFu;
    const std::uint32_t u2 = host_little_endian ? nexts[j] >> 16 : nexts[j] & 0xFFFFu;
    const std::uint32_t high0 = 0u - static_cast<std::uint32_t>((u0 & S::mask) == S::high);  // all ones or 0
    const std::uint32_t high1 = 0u - static_cast<std::uint32_t>((u1 & S::mask) == S::high);
    const std::uint32_t low0 = 0u - static_cast<std::uint32_t>((u0 & S::mask) == S::low);
    const std::uint32_t low1 = static_cast<std::uint32_t>((u1 & S::mask) == S::low);  // 0 or 1
    if constexpr (!clang_codegen) {
      // paired_block32's test, by words: a high surrogate exactly where a low one follows
      const std::uint32_t low2 = 0u - static_cast<std::uint32_t>((u2 & S::mask) == S::low);
      bad |= (high0 ^ (0u - low1)) | (high1 ^ low2);
    }
    const std::uint32_t v0 = (u0 & ~high0) | (((u0 << 10) + u1 + pair_offset) & high0);
    const std::uint32_t v1 = (u1 & ~high1) | (((u1 << 10) + u2 + pair_offset) & high1);
    values[2 * j] = (v0 & ~low0) | (v1 & low0);
    values[2 * j + 1] = v1;
    moves[j] = 2u + low0 - low1;  // 2, less one for a low surrogate (low0 is all ones: -1)
  }
  if (bad != 0) return nullptr;
  const std::uint32_t* const value = opaque(values);  // as in mixed_block16
  const std::uint32_t* const move = opaque(moves);
  for (std::size_t j = 0; j < 15; ++j) {
    std::memcpy(o, value + 2 * j, 8);
    o += move[j];
  }
  o[0] = static_cast<Out>(value[30]);
  if (move[15] == 2) o[1] = static_cast<Out>(value[31]);
  return o + move[15];
}

/// The `Block` UTF-16 or UTF-32 units at p converted one to one into o (UTF-32 to UTF-16 or back)
/// when none is a surrogate or above FFFF: true; false, and nothing written, otherwise. Tested in
/// one loop, copied in another, both vectorised (a fixed count, pointers that do not overlap).
template <std::size_t Block, class In, class Out>
UTF8DFA_ALWAYS_INLINE bool one_to_one_block(const In* UTF8DFA_RESTRICT p, Out* UTF8DFA_RESTRICT o) noexcept {
  std::uint32_t bad = 0;
  for (std::size_t k = 0; k < Block; ++k) {
    const std::uint32_t u = p[k];
    bad |= not_one_unit(u);
  }
  if (bad != 0) return false;
  for (std::size_t k = 0; k < Block; ++k) o[k] = static_cast<Out>(p[k]);
  return true;
}

/// utf_to_utf's blocks in a row without a pair (UTF-16) or a value above FFFF (UTF-32) after which
/// text that mixes both goes back to the test for blocks of one-to-one units.
inline constexpr unsigned mixed_run_end = 4;

/// UTF-16 to UTF-32 or UTF-32 to UTF-16 (by In and Out), like the UTF-8 conversions: blocks of 16
/// units that map one to one copied as they are, well-formed UTF-16 blocks with pairs by
/// paired_block32_to_utf32, UTF-32 runs of blocks above FFFF by supplementary_run, other blocks of scalar values by
/// mixed_block16, the others unit by unit. Text that mixes pairs with other units stays on
/// paired_block32_to_utf32 or mixed_block16 from block to block (see mixed_run_end).
template <class Policy, class In, class Out>
packed_conversion utf_to_utf(const In* p, std::size_t n, Out* out, [[maybe_unused]] Policy pol) noexcept {
  Out* o = out;
  error_code first = error_code::none;
  bool wide = true;  // no block of 64 has failed since the last one-to-one block of 16: worth a try
  for (std::size_t i = 0; i < n;) {
    if (wide && n - i >= 64) {
      if (one_to_one_block<64>(p + i, o)) {
        i += 64;
        o += 64;
        continue;
      }
      wide = false;
    }
    // UTF-32: what the next 16 values are, by one pass over them
    [[maybe_unused]] const utf32_block kind =
        sizeof(In) == 4 && n - i >= 16 ? classify_utf32_block16(p + i) : utf32_block::ill_formed;
    if (n - i >= 16 && (sizeof(In) == 4 ? kind == utf32_block::bmp : bmp_units16(p + i))) {
      std::size_t j = i + 16;
      while (n - j >= 16 && bmp_units16(p + j)) j += 16;
      o = copy_units(p + i, j - i, o);
      i = j;
      wide = true;
      continue;
    }
    if constexpr (sizeof(In) == 2) {  // a well-formed block with pairs
      if (n - i >= 32 && pairs_block32_to_utf32(p + i, o)) {
        i += 32;
        o += 16;
        continue;
      }
      Out* e = n - i >= 33 && (p[i] & 0xFC00u) != 0xDC00u ? paired_block32_to_utf32(p + i, o) : nullptr;
      if (e != nullptr) {
        // Text with pairs here and there: the next blocks this way too, with or without pairs (a
        // branch on which mispredicts), until one fails, one was all pairs (to the test above) or
        // mixed_run_end blocks in a row had none.
        unsigned plain_blocks = 0;
        for (;;) {
          i += 32 + ((p[i + 31] & 0xFC00u) == 0xD800u);
          const std::ptrdiff_t written = e - o;
          plain_blocks = written == 32 ? plain_blocks + 1 : 0;
          o = e;
          if (written <= 16 || plain_blocks == mixed_run_end || n - i < 33 || (p[i] & 0xFC00u) == 0xDC00u) break;
          e = paired_block32_to_utf32(p + i, o);
          if (e == nullptr) break;
        }
        continue;
      }
    }
    if constexpr (sizeof(In) == 4) {  // a valid block with characters above FFFF
      if (n - i >= 16) {
        if (kind == utf32_block::supplementary) {
          std::size_t j = i + 16;
          while (n - j >= 16 && supplementary16(p + j)) j += 16;
          o = supplementary_run(p + i, j - i, o);
          i = j;
          continue;
        }
        if (kind == utf32_block::mixed) {
          // As for UTF-16 above: the next blocks this way too, until one is ill-formed (mixed_block16
          // writes nothing), was all above FFFF (to the run of pairs) or mixed_run_end blocks in a
          // row had none above FFFF.
          unsigned plain_blocks = 0;
          Out* e = mixed_block16(p + i, o);
          while (e != nullptr) {
            const std::ptrdiff_t written = e - o;
            i += 16;
            plain_blocks = written == 16 ? plain_blocks + 1 : 0;
            o = e;
            if (written == 32 || plain_blocks == mixed_run_end || n - i < 16) break;
            e = mixed_block16(p + i, o);
          }
          continue;
        }
      }
    }
    const std::size_t stop = n - i < 16 ? n : i + 16;
    while (i < stop) {  // a pair may end one unit past `stop`
      const std::uint32_t u = p[i];
      if (u - 0xD800u >= 0x800u && (sizeof(In) == 2 || u <= 0xFFFFu)) {  // one unit either way
        *o++ = static_cast<Out>(u);
        ++i;
        continue;
      }
      if constexpr (sizeof(In) == 4) {
        if (u - 0x10000u < 0x100000u) {  // a supplementary character: a pair
          o[0] = static_cast<Out>(0xD7C0u + (u >> 10));
          o[1] = static_cast<Out>(0xDC00u + (u & 0x3FFu));
          o += 2;
          ++i;
          continue;
        }
      } else {
        if (u < 0xDC00u && n - i >= 2 && std::uint32_t{p[i + 1]} - 0xDC00u < 0x400u) {  // a pair
          *o++ = static_cast<Out>(0x10000u + ((u - 0xD800u) << 10) + (std::uint32_t{p[i + 1]} - 0xDC00u));
          i += 2;
          continue;
        }
      }
      const decoded d = decode_utf_at(p, n, i);
      char32_t c = d.code_point;
      const piece_action a = act_on(d.error, first, c, pol);
      if (a == piece_action::stop) return {i, static_cast<std::size_t>(o - out), d.error};
      if (a == piece_action::write) o = put_unit(o, c);
      i += d.length;
    }
  }
  return {n, static_cast<std::size_t>(o - out), first};
}

/// The scalar kernel's UTF-16 to UTF-32 or UTF-32 to UTF-16: utf_to_utf, but input under 64 units
/// first tested whole and copied whole when every unit maps to one, by loops of a run-time length
/// that both compilers vectorise (utf_to_utf's blocks start at 16 units and leave the rest to its
/// loop by unit: at 64 bytes of UTF-8, 1.3-2.0x as fast on text without characters above FFFF).
/// Not for the vector kernels' calls on what they leave, which holds pairs or errors.
template <class Policy, class In, class Out>
packed_conversion utf_to_utf_entry(const In* p, std::size_t n, Out* out, Policy pol) noexcept {
  if (n < 64) {
    std::uint32_t bad = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint32_t u = p[k];
      bad |= not_one_unit(u);
    }
    if (bad == 0) {
      copy_units(p, n, out);
      return {n, n, error_code::none};
    }
  }
  return utf_to_utf(p, n, out, pol);
}

/// to_well_formed_utf16 on the characters of the `n` units at p that start in [i, stop) (the last
/// may end after it); returns where it stopped.
inline std::size_t to_well_formed_until(const char16_t* p, std::size_t n, std::size_t i, std::size_t stop,
                                        char16_t* out) noexcept {
  while (i < stop) {
    const decoded d = decode_utf16_at(p, n, i);
    if (d.error != error_code::none) {
      out[i] = static_cast<char16_t>(replacement_character);
    } else {  // the well-formed units as they are (one, or a pair)
      out[i] = p[i];
      if (d.length == 2) out[i + 1] = p[i + 1];
    }
    i += d.length;
  }
  return i;
}

/// UTF-16 with each unpaired surrogate replaced by U+FFFD into `out` (which may be `p`). Returns n.
/// The chunks skip_paired_blocks passes are copied as they are (not at all in place); the chunk
/// where it stops (up to 256 units, and the unit after it) goes character by character.
inline std::size_t to_well_formed_utf16_scalar(const char16_t* p, std::size_t n, char16_t* out) noexcept {
  std::size_t i = 0;
  while (i < n) {
    const std::size_t j = skip_paired_blocks(p, n, i);
    if (j != i && out != p) std::memcpy(out + i, p + i, (j - i) * sizeof(char16_t));
    i = to_well_formed_until(p, n, j, n - j < 257 ? n : j + 257, out);
  }
  return n;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
