// utf8dfa: the portable kernels. Every loop here runs the one DFA of dfa.hpp (through `step` or
// `decode_at`); the SIMD kernels accelerate these and are tested against them.
#ifndef UTF8DFA_DETAIL_SCALAR_HPP
#define UTF8DFA_DETAIL_SCALAR_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../policy.hpp"
#include "bytes.hpp"
#include "dfa.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Some scalar loops are written for the compiler at hand (measured with g++ 12 and clang++ 14).
/// Narrowing into Latin-1: clang++ vectorises loops of run-time length and ORs of units well, but
/// keeps the words of a short block's OR and narrows from them byte by byte. Loops that read a
/// UTF-16 unit and the one after it: clang++ carries p[k + 1] into the next step with shuffles, four
/// units at a time, unless it is read through opaque.
#if defined(__clang__)
inline constexpr bool clang_codegen = true;
#else
inline constexpr bool clang_codegen = false;
#endif

/// p, as a value the compiler cannot relate to any other (an empty asm statement where there is
/// one): a loop reading p[k] and opaque(p + 1)[k] loads both, rather than carrying one into the
/// next step; a table's address stays in a register rather than being made again at each use.
template <class T>
UTF8DFA_ALWAYS_INLINE const T* opaque(const T* p) noexcept {
#if defined(__GNUC__)
  __asm__("" : "+r"(p));
#endif
  return p;
}

/// n, as a value the compiler cannot see (as opaque): a loop of that count stays a loop.
UTF8DFA_ALWAYS_INLINE std::size_t opaque_count(std::size_t n) noexcept {
#if defined(__GNUC__)
  __asm__("" : "+r"(n));
#endif
  return n;
}

/// Precise validation from a character boundary, one character at a time (constexpr path and the
/// re-scan that locates an error found by a faster loop).
template <class T>
constexpr packed_validation validate_from(const T* p, std::size_t n, std::size_t pos) noexcept {
  while (pos < n) {
    const decoded d = decode_at(p, n, pos);
    if (d.error != error_code::none)
      return {pos, d.error == error_code::incomplete ? 0u : std::size_t{d.length}, d.error};
    pos += d.length;
  }
  return {n, 0, error_code::none};
}

/// True when the 16 bytes at p are all ASCII.
UTF8DFA_ALWAYS_INLINE bool ascii16(const unsigned char* p) noexcept {
  return ((load64(p) | load64(p + 8)) & high_bits) == 0;
}

/// True when the 32 bytes at p are all ASCII.
UTF8DFA_ALWAYS_INLINE bool ascii32(const unsigned char* p) noexcept {
  return ((load64(p) | load64(p + 8) | load64(p + 16) | load64(p + 24)) & high_bits) == 0;
}

/// Runs the shift DFA over [i, end) from `st`; the whole loop-carried chain is one shift per byte.
UTF8DFA_ALWAYS_INLINE std::uint64_t run_dfa(std::uint64_t st, const unsigned char* p, std::size_t i,
                                            std::size_t end) noexcept {
  for (; i < end; ++i) st = step(st, p[i]);
  return st;
}

/// Eight transitions, written out (compilers do not unroll the byte loop by themselves).
UTF8DFA_ALWAYS_INLINE std::uint64_t step8(std::uint64_t st, const unsigned char* q) noexcept {
  st = step(st, q[0]);
  st = step(st, q[1]);
  st = step(st, q[2]);
  st = step(st, q[3]);
  st = step(st, q[4]);
  st = step(st, q[5]);
  st = step(st, q[6]);
  return step(st, q[7]);
}

/// Sixteen bytes through the DFA.
UTF8DFA_ALWAYS_INLINE std::uint64_t step16(std::uint64_t st, const unsigned char* q) noexcept {
  return step8(step8(st, q), q + 8);
}

/// Skips 16-byte blocks of ASCII from a character boundary while 16 bytes remain before `end`.
UTF8DFA_ALWAYS_INLINE void skip_ascii(const unsigned char* p, std::size_t& i, std::size_t end,
                                      std::uint64_t st) noexcept {
  if ((st & state_mask) == s_accept) {
    while (end - i >= 32 && ascii32(p + i)) i += 32;
    while (end - i >= 16 && ascii16(p + i)) i += 16;
  }
}

/// The last `end - i` (under 16) bytes from `st`: at once when they are ASCII after a character
/// boundary (tested as the 16 bytes that end at `end`, when there are 16), else byte by byte.
UTF8DFA_ALWAYS_INLINE std::uint64_t run_tail(std::uint64_t st, const unsigned char* p, std::size_t i,
                                             std::size_t end) noexcept {
  if ((st & state_mask) == s_accept && end >= 16 && ascii16(p + end - 16)) return st;
  return run_dfa(st, p, i, end);
}

/// The DFA over the next 8 or 16 of the bytes from i (at least 16 before `end`), from `st`: 8 ASCII
/// bytes at a character boundary are passed over first (when 16 more follow them), and the second
/// 8 are run only when they are not ASCII after a character boundary. In mostly-ASCII text the DFA so reads about 8
/// bytes around each other character rather than the 16-byte block it falls in; in text of other scripts the blocks
/// stay 16 bytes long. `start` is where the DFA began, from the state `entry`.
UTF8DFA_ALWAYS_INLINE std::uint64_t dfa_block(std::uint64_t st, const unsigned char* p, std::size_t& i, std::size_t end,
                                              std::size_t& start, std::uint64_t& entry) noexcept {
  if (end - i >= 24 && (st & state_mask) == s_accept && (load64(p + i) & high_bits) == 0) i += 8;
  start = i;
  entry = st & state_mask;
  st = step8(st, p + i);
  i += 8;
  if ((st & state_mask) != s_accept || (load64(p + i) & high_bits) != 0) {
    st = step8(st, p + i);
    i += 8;
  }
  return st;
}

/// Validation at run time from the character boundary i, one stream: ASCII skipped 16 bytes at a time, everything else
/// through the shift DFA in dfa_block's blocks of 8 or 16 bytes (with clang++, 16), so that mostly-ASCII text, an
/// accented letter every few words, returns to the ASCII test soon after each one; only a failing block (or the tail,
/// when the input ends inside a character) is re-scanned to say where and why.
inline packed_validation validate_one_stream(const unsigned char* p, std::size_t n, std::size_t i) noexcept {
  std::uint64_t st = s_accept;
  for (;;) {
    skip_ascii(p, i, n, st);
    std::size_t start = i;
    std::uint64_t entry = st & state_mask;
    const bool last = n - i < 16;
    if (last) {
      st = run_tail(st, p, i, n);
    } else if constexpr (clang_codegen) {  // (its code for dfa_block ran other scripts 0.6-0.8x as fast)
      st = step16(st, p + i);
      i += 16;
    } else {
      st = dfa_block(st, p, i, n, start, entry);
    }
    if (UTF8DFA_UNLIKELY((st & state_mask) == s_reject || (last && (st & state_mask) != s_accept)))
      return validate_from(p, n, entry == s_accept ? start : partial_start(p, start));
    if (last) return {n, 0, error_code::none};
  }
}

/// True when [start, mid) and [mid, n) are both well-formed (start and mid start characters), checked as two
/// interleaved DFA chains, which doubles the bytes per cycle of one chain of dependent shifts.
/// False says nothing about where: the caller re-runs one stream for the exact answer.
inline bool two_streams_valid(const unsigned char* p, std::size_t start, std::size_t mid, std::size_t n) noexcept {
  std::size_t a = start, b = mid;
  std::uint64_t sa = s_accept, sb = s_accept;
  for (;;) {
    skip_ascii(p, a, mid, sa);
    skip_ascii(p, b, n, sb);
    if (mid - a < 16 || n - b < 16) break;
    if constexpr (clang_codegen) {
      sa = step16(sa, p + a);
      sb = step16(sb, p + b);
      a += 16;
      b += 16;
    } else {
      std::size_t from = 0;  // (where and from which state: unused, a failure is located by one stream)
      std::uint64_t entry = 0;
      sa = dfa_block(sa, p, a, mid, from, entry);
      sb = dfa_block(sb, p, b, n, from, entry);
    }
    if (UTF8DFA_UNLIKELY(((sa & state_mask) == s_reject) | ((sb & state_mask) == s_reject))) return false;
  }
  // The rest of each stream alone.
  for (std::size_t* pos : {&a, &b}) {
    const std::size_t end = pos == &a ? mid : n;
    std::uint64_t& st = pos == &a ? sa : sb;
    for (std::size_t& i = *pos;;) {
      skip_ascii(p, i, end, st);
      if (end - i < 16) break;
      st = step16(st, p + i);
      i += 16;
      if ((st & state_mask) == s_reject) return false;
    }
    st = run_tail(st, p, *pos, end);
  }
  return (sa & state_mask) == s_accept && (sb & state_mask) == s_accept;
}

/// True when the n (under 16) bytes at p are ASCII.
UTF8DFA_ALWAYS_INLINE bool ascii_short(const unsigned char* p, std::size_t n) noexcept {
  std::uint64_t w = 0;
  if (n >= 8) {
    w = load64(p) | load64(p + n - 8);
  } else {
    for (std::size_t k = 0; k < n; ++k) w |= p[k];
  }
  return (w & high_bits) == 0;
}

/// validate_scalar after its ASCII start, from the character boundary i: long inputs as two
/// interleaved streams split at a character start near the middle; anything ill-formed (and short
/// input) through one stream, which says where and why.
UTF8DFA_NOINLINE inline packed_validation validate_after_ascii(const unsigned char* p, std::size_t n,
                                                               std::size_t i) noexcept {
  if (n - i >= 1024) {
    std::size_t mid = i + (n - i) / 2;
    for (int k = 0; k < 3 && is_continuation(p[mid]); ++k) ++mid;
    if (!is_continuation(p[mid]) && two_streams_valid(p, i, mid, n)) return {n, 0, error_code::none};
  }
  return validate_one_stream(p, n, i);
}

/// Validation at run time. The ASCII start is skipped here, in a small function that short ASCII
/// input (keys, identifiers) leaves at once; the rest by validate_after_ascii.
inline packed_validation validate_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  while (n - i >= 32 && ascii32(p + i)) i += 32;
  if (n - i >= 16 && ascii16(p + i)) i += 16;
  if (n - i < 16 && (n >= 16 ? ascii16(p + n - 16) : ascii_short(p, n))) return {n, 0, error_code::none};
  return validate_after_ascii(p, n, i);
}

/// The sum of the eight bytes of `acc` (each at most 255).
constexpr std::size_t byte_sum(std::uint64_t acc) noexcept {
  const std::uint64_t pairs = (acc & 0x00FF00FF00FF00FFull) + ((acc >> 8) & 0x00FF00FF00FF00FFull);
  return static_cast<std::size_t>((pairs * 0x0001000100010001ull) >> 48);
}

/// Bytes of [p, p+n) that match `Pick` (a word-at-a-time test leaving bit 7 of each chosen byte),
/// counted as 0/1 bytes in one word for up to 255 words at a time.
template <class Pick>
UTF8DFA_ALWAYS_INLINE std::size_t count_bytes_swar(const unsigned char* p, std::size_t n, Pick pick) noexcept {
  std::size_t count = 0, i = 0;
  while (n - i >= 8) {
    const std::size_t words = (n - i) / 8 < 255 ? (n - i) / 8 : 255;
    const std::size_t end = i + words * 8;
    std::uint64_t acc = 0;
    for (; i < end; i += 8) acc += (pick(load64(p + i)) & high_bits) >> 7;
    count += byte_sum(acc);
  }
  return count;
}

/// Number of bytes in [p, p+n) that are not continuation bytes (80..BF).
inline std::size_t count_leads_scalar(const unsigned char* p, std::size_t n) noexcept {
  const std::size_t words = n - n % 8;
  std::size_t count = words - count_bytes_swar(p, words, [](std::uint64_t w) { return w & ~(w << 1); });
  for (std::size_t i = words; i < n; ++i) count += !is_continuation(p[i]);
  return count;
}

/// UTF-16 units of well-formed UTF-8: one per lead byte, two for the 4-byte leads (F0..F4).
inline std::size_t utf16_length_scalar(const unsigned char* p, std::size_t n) noexcept {
  const std::size_t words = n - n % 8;
  std::size_t count = count_leads_scalar(p, words) +
                      count_bytes_swar(p, words, [](std::uint64_t w) { return w & (w << 1) & (w << 2) & (w << 3); });
  for (std::size_t i = words; i < n; ++i) count += std::size_t{!is_continuation(p[i])} + std::size_t{p[i] >= 0xF0};
  return count;
}

// ---------------------------------------------------------------------------------------------
// Transcoding. `Policy` is one of the public policy types; what it changes is what happens at an
// error: strict stops, replace/assume_valid write the replacement and go on, skip goes on.

template <class Policy>
inline constexpr bool stops_on_error = Policy::stops_on_error;

/// A replacement value that no policy can produce: the kernels' encoding of `skip` (kernel_table.hpp).
inline constexpr char32_t skip_marker = 0xFFFFFFFEu;

/// The encoding of assume_valid for the UTF-8 lengths of UTF-16 and UTF-32 (no check): each UTF-16
/// unit counted on its own (a surrogate 2 bytes, so a pair 4), each UTF-32 value by its width (3 for
/// a surrogate or a value above 10FFFF, as U+FFFD).
inline constexpr char32_t valid_marker = 0xFFFFFFFDu;

/// What a conversion does with a piece whose error is `e` (none: a character) under Policy: write
/// it (a character, or the policy's replacement, put in `c`), drop it (skip) or stop (strict).
/// The first error of a conversion that goes on is kept in `first`.
enum class piece_action { write, drop, stop };

template <class Policy>
constexpr piece_action act_on(error_code e, error_code& first, char32_t& c,
                              [[maybe_unused]] const Policy& pol) noexcept {
  if (UTF8DFA_LIKELY(e == error_code::none)) return piece_action::write;
  if constexpr (stops_on_error<Policy>) {
    return piece_action::stop;
  } else {
    if (first == error_code::none) first = e;
    if constexpr (skips_errors_v<Policy>) {
      return piece_action::drop;
    } else {
      c = pol.replacement_value();
      return piece_action::write;
    }
  }
}

/// Writes one scalar value as UTF-32 or UTF-16; returns the new output position.
template <class Out>
UTF8DFA_ALWAYS_INLINE Out* put_unit(Out* o, char32_t c) noexcept {
  if constexpr (sizeof(Out) == 4) {
    *o++ = static_cast<Out>(c);
  } else {
    if (c < 0x10000) {
      *o++ = static_cast<Out>(c);
    } else {
      *o++ = static_cast<Out>(0xD7C0 + (c >> 10));
      *o++ = static_cast<Out>(0xDC00 + (c & 0x3FF));
    }
  }
  return o;
}

/// Copies the units [p, p + count) to `o`, each converted to Out: one loop over the whole run, which
/// compilers vectorise (a copy written out per block of 16 they do not).
template <class In, class Out>
UTF8DFA_ALWAYS_INLINE Out* copy_units(const In* p, std::size_t count, Out* o) noexcept {
  for (std::size_t k = 0; k < count; ++k) o[k] = static_cast<Out>(p[k]);
  return o + count;
}

/// The `Block` units or bytes at p, each through `f`, into o (which does not overlap them): a
/// fixed count on restrict pointers, which compilers vectorise with no run-time overlap test.
template <std::size_t Block, class In, class Out, class F>
UTF8DFA_ALWAYS_INLINE void map_block(const In* UTF8DFA_RESTRICT p, Out* UTF8DFA_RESTRICT o, F f) noexcept {
  for (std::size_t k = 0; k < Block; ++k) o[k] = f(p[k]);
}

/// The N bytes at p widened into `o` (map_block: clang++ 14 widened a block copied through the
/// stack byte by byte, with spills, at half the speed).
template <std::size_t N, class Out>
UTF8DFA_ALWAYS_INLINE Out* widen_block(const unsigned char* p, Out* o) noexcept {
  map_block<N>(p, o, [](unsigned char b) { return static_cast<Out>(b); });
  return o + N;
}

/// The end of the run of 16-byte ASCII blocks from i (i itself when the first block is not ASCII).
UTF8DFA_ALWAYS_INLINE std::size_t ascii_run_end(const unsigned char* p, std::size_t i, std::size_t n) noexcept {
  while (n - i >= 16 && ascii16(p + i)) i += 16;
  return i;
}

/// At an ASCII byte p[i]: the run of 16-byte ASCII blocks from i widened into `o` (with g++, each
/// block checked and written in one go; with clang++, which widened such blocks a byte at a time,
/// the run found first and widened in one loop: UTF-16 output of English text 1.07x -> 1.6x
/// simdutf's fallback), or else one ASCII word of eight; false (nothing done) when the bytes from
/// i start neither.
template <class Out>
UTF8DFA_ALWAYS_INLINE bool copy_ascii(const unsigned char* p, std::size_t n, std::size_t& i, Out*& o) noexcept {
  if (n - i >= 16 && ascii16(p + i)) {
    if constexpr (clang_codegen) {  // the run found first, then widened in one loop of run-time length
      const std::size_t j = ascii_run_end(p, i + 16, n);
      o = copy_units(p + i, j - i, o);
      i = j;
      return true;
    }
    do {
      o = widen_block<16>(p + i, o);
      i += 16;
    } while (n - i >= 16 && ascii16(p + i));
    return true;
  }
  if (n - i >= 8 && (load64(p + i) & high_bits) == 0) {
    o = widen_block<8>(p + i, o);
    i += 8;
    return true;
  }
  return false;
}

/// copy_ascii from the ASCII byte at i, or where it takes nothing (a byte above 7F among the next 8,
/// or fewer than 8 left) the ASCII bytes up to that byte in one loop, not each through the window
/// tests again.
template <class Out>
UTF8DFA_ALWAYS_INLINE void copy_ascii_run(const unsigned char* p, std::size_t n, std::size_t& i, Out*& o) noexcept {
  if (copy_ascii(p, n, i, o)) return;
  const std::size_t stop = n - i < 8 ? n : i + 8;
  do {
    *o++ = static_cast<Out>(p[i]);
    ++i;
  } while (i < stop && p[i] < 0x80u);
}

/// After a character of a run of one form: true when the run goes on, the next piece starting with
/// a lead `b` of the form ((b & mask) == value) and four bytes or more left from it; a single ASCII
/// byte before such a lead (a space between words) is written on the way.
template <class Out>
UTF8DFA_ALWAYS_INLINE bool run_goes_on(const unsigned char* p, std::size_t n, std::size_t& i, Out*& o,
                                       std::uint32_t mask, std::uint32_t value) noexcept {
  if (n - i < 5) return n - i >= 4 && (p[i] & mask) == value;
  const std::uint32_t b = p[i];
  if ((b & mask) == value) return true;
  if (b >= 0x80u || (p[i + 1] & mask) != value) return false;
  *o++ = static_cast<Out>(b);
  ++i;
  return true;
}

/// The well-formed characters from i decoded into `o` (UTF-32, or UTF-16 when Out has two bytes):
/// ASCII runs widened in one loop, each other character (while four bytes remain) by its bytes run
/// through the shift DFA from accept (the lead byte only chooses how many steps to take and how to
/// assemble the value); runs of 2-byte and of 3-byte forms each in a loop of their own, which tests
/// one lead a character (run_goes_on). Stops at the first piece the DFA does not accept, or a non-ASCII byte
/// within three bytes of the end, leaving i there. Without `Check` (assume_valid) the DFA is not
/// run: each piece is taken as the form its lead says, and a continuation byte where a lead should
/// be is passed over with nothing written, so that no more units are written than lead bytes (two
/// for F0..FF) are read: the length helpers' count, and no more than replace writes.
template <bool Check, class Out>
UTF8DFA_ALWAYS_INLINE Out* decode_run(const unsigned char* p, std::size_t n, std::size_t& i, Out* o) noexcept {
  while (i < n) {
    std::uint32_t b0 = p[i];
    if (b0 < 0x80u) {
      copy_ascii_run(p, n, i, o);
      continue;
    }
    if (n - i < 4) break;
    if constexpr (!Check) {
      if (UTF8DFA_UNLIKELY(b0 < 0xC0u)) {
        ++i;
        continue;
      }
    }
    std::uint32_t b1 = p[i + 1];
    std::uint64_t s1 = step(step(s_accept, static_cast<std::uint8_t>(b0)), static_cast<std::uint8_t>(b1));
    if (b0 < 0xE0u) {  // a run of 2-byte forms
      for (;;) {
        if (Check && UTF8DFA_UNLIKELY((s1 & state_mask) != s_accept)) return o;
        *o++ = static_cast<Out>(((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu));
        i += 2;
        // (The space between words taken in the run with clang++ only: g++ 12 ran Arabic and Hebrew
        // text 0.75x as fast with it, clang++ 14 emoji 0.65x as fast without it.)
        if (clang_codegen ? !run_goes_on(p, n, i, o, 0xE0u, 0xC0u) : n - i < 4 || (p[i] & 0xE0u) != 0xC0u) break;
        b0 = p[i];
        b1 = p[i + 1];
        s1 = step(step(s_accept, static_cast<std::uint8_t>(b0)), static_cast<std::uint8_t>(b1));
      }
      continue;
    }
    std::uint32_t b2 = p[i + 2];
    std::uint64_t s2 = step(s1, static_cast<std::uint8_t>(b2));
    if (b0 < 0xF0u) {  // a run of 3-byte forms
      for (;;) {
        if (Check && UTF8DFA_UNLIKELY((s2 & state_mask) != s_accept)) return o;
        *o++ = static_cast<Out>(((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu));
        i += 3;
        if (!run_goes_on(p, n, i, o, 0xF0u, 0xE0u)) break;
        b0 = p[i];
        b1 = p[i + 1];
        b2 = p[i + 2];
        s2 = step(step(step(s_accept, static_cast<std::uint8_t>(b0)), static_cast<std::uint8_t>(b1)),
                  static_cast<std::uint8_t>(b2));
      }
      continue;
    }
    const std::uint32_t b3 = p[i + 3];
    if (Check && UTF8DFA_UNLIKELY((step(s2, static_cast<std::uint8_t>(b3)) & state_mask) != s_accept)) break;
    const std::uint32_t c = ((b0 & 0x07u) << 18) | ((b1 & 0x3Fu) << 12) | ((b2 & 0x3Fu) << 6) | (b3 & 0x3Fu);
    if constexpr (sizeof(Out) == 4) {
      *o++ = static_cast<Out>(c);
    } else {
      o[0] = static_cast<Out>(0xD7C0u + (c >> 10));
      o[1] = static_cast<Out>(0xDC00u + (c & 0x3FFu));
      o += 2;
    }
    i += 4;
  }
  return o;
}

/// UTF-8 to UTF-32 or UTF-16 (by the size of Out): decode_run while it goes, and the piece where it
/// stops (an error, or the last bytes) by decode_at.
template <class Policy, class Out>
UTF8DFA_NOINLINE UTF8DFA_GCC_ALIGN_CODE packed_conversion utf8_to_utf_scalar(const unsigned char* p, std::size_t n,
                                                                             Out* out,
                                                                             [[maybe_unused]] Policy pol) noexcept {
  std::size_t i = 0;
  Out* o = out;
  error_code first = error_code::none;
  for (;;) {
    o = decode_run<!std::is_same_v<Policy, assume_valid>>(p, n, i, o);
    if (i >= n) break;
    if constexpr (std::is_same_v<Policy, assume_valid>) {
      if (is_continuation(p[i])) {  // (as decode_run: nothing written for it)
        ++i;
        continue;
      }
    }
    const decoded d = decode_at(p, n, i);
    char32_t c = d.code_point;
    const piece_action a = act_on(d.error, first, c, pol);
    if (a == piece_action::stop) return {i, static_cast<std::size_t>(o - out), d.error};
    if (a == piece_action::write) o = put_unit(o, c);
    i += d.length;
  }
  return {n, static_cast<std::size_t>(o - out), first};
}

/// One scalar value (or an error) read from UTF-16 at i < n. A high surrogate that ends the input
/// is `incomplete` (a later chunk could pair it); every other unpaired surrogate is `surrogate`.
constexpr decoded decode_utf16_at(const char16_t* p, std::size_t n, std::size_t i) noexcept {
  const char32_t c = p[i];
  if (c < 0xD800 || c > 0xDFFF) return {c, 1, error_code::none};
  if (c <= 0xDBFF) {
    if (i + 1 == n) return {replacement_character, 1, error_code::incomplete};
    const char32_t d = p[i + 1];
    if (d >= 0xDC00 && d <= 0xDFFF) return {0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00), 2, error_code::none};
  }
  return {replacement_character, 1, error_code::surrogate};
}

/// One scalar value (or an error) read from UTF-32 at i < n.
constexpr decoded decode_utf32_at(const char32_t* p, std::size_t, std::size_t i) noexcept {
  const char32_t c = p[i];
  if (c >= 0xD800 && c <= 0xDFFF) return {replacement_character, 1, error_code::surrogate};
  if (c > 0x10FFFF) return {replacement_character, 1, error_code::too_large};
  return {c, 1, error_code::none};
}

template <class In>
constexpr decoded decode_utf_at(const In* p, std::size_t n, std::size_t i) noexcept {
  if constexpr (sizeof(In) == 2)
    return decode_utf16_at(p, n, i);
  else
    return decode_utf32_at(p, n, i);
}

/// Bytes of the UTF-8 form of a scalar value (1..4).
constexpr std::size_t utf8_width(char32_t c) noexcept {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/// Writes a scalar value as UTF-8 (the RFC 3629 section 3 bit patterns); returns the byte count.
template <class Byte>
constexpr std::size_t put_utf8(Byte* out, char32_t c) noexcept {
  if (c < 0x80) {
    out[0] = static_cast<Byte>(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = static_cast<Byte>(0xC0 | (c >> 6));
    out[1] = static_cast<Byte>(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = static_cast<Byte>(0xE0 | (c >> 12));
    out[1] = static_cast<Byte>(0x80 | ((c >> 6) & 0x3F));
    out[2] = static_cast<Byte>(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = static_cast<Byte>(0xF0 | (c >> 18));
  out[1] = static_cast<Byte>(0x80 | ((c >> 12) & 0x3F));
  out[2] = static_cast<Byte>(0x80 | ((c >> 6) & 0x3F));
  out[3] = static_cast<Byte>(0x80 | (c & 0x3F));
  return 4;
}

/// Word-at-a-time tests on UTF-16 or UTF-32 units: eight bytes loaded as one native word hold 4 or
/// 2 whole units in their lanes whatever the byte order, and each test looks at every lane alike.
template <std::size_t UnitSize>
struct unit_lanes;
template <>
struct unit_lanes<2> {
  static constexpr std::uint64_t ones = 0x0001000100010001ull, top = 0x8000800080008000ull;
  static constexpr std::uint64_t not_ascii = 0xFF80FF80FF80FF80ull, above_bmp = 0;
  static constexpr std::uint64_t latin1 = 0x00FF00FF00FF00FFull;
  static constexpr std::uint64_t sur_mask = 0xF800F800F800F800ull, sur = 0xD800D800D800D800ull;
};
template <>
struct unit_lanes<4> {
  static constexpr std::uint64_t ones = 0x0000000100000001ull, top = 0x8000000080000000ull;
  static constexpr std::uint64_t not_ascii = 0xFFFFFF80FFFFFF80ull, above_bmp = 0xFFFF0000FFFF0000ull;
  static constexpr std::uint64_t latin1 = 0x000000FF000000FFull;
  static constexpr std::uint64_t sur_mask = 0x0000F8000000F800ull, sur = 0x0000D8000000D800ull;
};

/// The 16 units at p, OR-ed lane by lane (a word of 4 or 2 lanes).
template <class In>
UTF8DFA_ALWAYS_INLINE std::uint64_t or_units16(const In* p) noexcept {
  std::uint64_t any = 0;
  for (std::size_t k = 0; k < 16; k += 8 / sizeof(In)) any |= load64(p + k);
  return any;
}

/// True when the 4 UTF-16 or UTF-32 units at p are ASCII (one or two word loads).
template <class In>
UTF8DFA_ALWAYS_INLINE bool ascii_units4(const In* p) noexcept {
  static_assert(sizeof(In) == 2 || sizeof(In) == 4, "UTF-16 or UTF-32 units");
  const std::uint64_t w = sizeof(In) == 2 ? load64(p) : load64(p) | load64(p + 2);
  return (w & unit_lanes<sizeof(In)>::not_ascii) == 0;
}

/// True when the 16 units at p are ASCII.
template <class In>
UTF8DFA_ALWAYS_INLINE bool ascii_units16(const In* p) noexcept {
  return (or_units16(p) & unit_lanes<sizeof(In)>::not_ascii) == 0;
}

/// True when none of the 16 units at p is a surrogate or (UTF-32) above 0xFFFF: each is one UTF-16
/// unit and one character. A lane is a surrogate when (u & F800) ^ D800 is zero: the has-zero test
/// (x - 1) & ~x & top, exact for "some lane" (a borrow only leaves a lane that is zero).
template <class In>
UTF8DFA_ALWAYS_INLINE bool bmp_units16(const In* p) noexcept {
  using L = unit_lanes<sizeof(In)>;
  std::uint64_t bad = 0;
  for (std::size_t k = 0; k < 16; k += 8 / sizeof(In)) {
    const std::uint64_t w = load64(p + k);
    const std::uint64_t t = (w & L::sur_mask) ^ L::sur;
    bad |= ((t - L::ones) & ~t & L::top) | (w & L::above_bmp);
  }
  return bad == 0;
}

/// Stores the low Count bytes of v at o, least significant first.
template <std::size_t Count>
UTF8DFA_ALWAYS_INLINE void store_low(unsigned char* o, std::uint64_t v) noexcept {
  if constexpr (host_little_endian && Count <= 8) {
    using word =
        std::conditional_t<Count == 8, std::uint64_t, std::conditional_t<Count == 4, std::uint32_t, std::uint16_t>>;
    static_assert(Count == sizeof(word), "store_low stores 2, 4 or 8 bytes");
    const word x = static_cast<word>(v);
    std::memcpy(o, &x, Count);
  } else {
    for (std::size_t k = 0; k < Count; ++k) o[k] = static_cast<unsigned char>(v >> (8 * k));
  }
}

/// The 4-byte UTF-8 form of a supplementary code point c, first byte lowest.
constexpr std::uint64_t four_byte_form(std::uint64_t c) noexcept {
  return 0x808080F0u | (c >> 18) | ((c >> 4) & 0x3F00u) | ((c << 10) & 0x3F0000u) | ((c & 0x3Fu) << 24);
}

/// True when the 4 UTF-16 units at p are two surrogate pairs.
UTF8DFA_ALWAYS_INLINE bool surrogate_pairs2(const char16_t* p) noexcept {
  return ((std::uint32_t{p[0]} & 0xFC00u) | (std::uint32_t{p[2]} & 0xFC00u) << 16) == 0xD800D800u &&
         ((std::uint32_t{p[1]} & 0xFC00u) | (std::uint32_t{p[3]} & 0xFC00u) << 16) == 0xDC00DC00u;
}

/// Where a run of conversion stopped: the next unit and the next output byte.
struct run_end {
  std::size_t i;
  unsigned char* o;
};

/// True when u has a 3-byte UTF-8 form (0x800..0xFFFF, not a surrogate).
constexpr bool three_byte_unit(std::uint32_t u) noexcept {
  return u - 0x800u < 0xF800u && u - 0xD800u >= 0x800u;
}

/// The run of 3-byte forms of UTF-16 at p[i], unit by unit, with the single ASCII units between
/// them (spaces between words of a script of 3-byte forms).
UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline run_end three_byte_run(const char16_t* p, std::size_t n, std::size_t i,
                                                                  unsigned char* o) noexcept {
  std::uint32_t u = p[i];
  for (;;) {
    if (u >= 0x80u) {
      o[0] = static_cast<unsigned char>(0xE0u | (u >> 12));
      o[1] = static_cast<unsigned char>(0x80u | ((u >> 6) & 0x3Fu));
      o[2] = static_cast<unsigned char>(0x80u | (u & 0x3Fu));
      o += 3;
    } else {
      *o++ = static_cast<unsigned char>(u);
    }
    if (++i == n) break;
    u = p[i];
    if (three_byte_unit(u)) continue;
    if (u >= 0x80u || i + 1 == n || !three_byte_unit(p[i + 1])) break;
  }
  return {i, o};
}

/// The 4 UTF-16 units at p as the 16-bit lanes of a word, unit k in bits 16k..16k+15.
UTF8DFA_ALWAYS_INLINE std::uint64_t lanes4(const char16_t* p) noexcept {
  if constexpr (host_little_endian)
    return load64(p);
  else
    return std::uint64_t{p[0]} | std::uint64_t{p[1]} << 16 | std::uint64_t{p[2]} << 32 | std::uint64_t{p[3]} << 48;
}

/// For each set of 2-byte lanes among 4 (bit k for lane k), the output offsets of lanes 1 to 3 and
/// the group's length, 4 bits each.
struct lane_offsets {
  std::uint16_t at[16];
  constexpr lane_offsets() noexcept : at() {
    for (unsigned m = 0; m < 16; ++m) {
      unsigned off = 0, packed = 0;
      for (unsigned k = 0; k < 4; ++k) {
        off += 1 + ((m >> k) & 1);
        packed |= off << (4 * k);
      }
      at[m] = static_cast<std::uint16_t>(packed);
    }
  }
};
inline constexpr lane_offsets below800_offsets{};

/// True when the 4 UTF-16 units at p are below U+0800, not all ASCII, and the unit after them is
/// below U+D800 (it writes at least the one byte that a group may store past its end).
UTF8DFA_ALWAYS_INLINE bool below800_group(const char16_t* p, std::uint64_t& w) noexcept {
  w = lanes4(p);
  return (w & (0xF800 * unit_lanes<2>::ones)) == 0 && (w & unit_lanes<2>::not_ascii) != 0 &&
         std::uint32_t{p[4]} < 0xD800u;
}

/// The run of 1- and 2-byte forms of UTF-16 at p[i], 4 units at a time (below800_group): each
/// unit stored as 2 bytes at its offset in the group's output, from a table by its 2-byte lanes.
UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline run_end below800_run(const char16_t* p, std::size_t n, std::size_t i,
                                                                unsigned char* o) noexcept {
  std::uint64_t w;
  while (n - i >= 5 && below800_group(p + i, w)) {
    const std::uint64_t two = ((w + 0x7F80 * unit_lanes<2>::ones) >> 15) & unit_lanes<2>::ones;  // 1 in lanes >= 0x80
    const std::uint64_t form = (0x80C0 * unit_lanes<2>::ones) | ((w >> 6) & (0x1F * unit_lanes<2>::ones)) |
                               ((w & (0x3F * unit_lanes<2>::ones)) << 8);
    const std::uint64_t m = two * 0xFFFF;
    const std::uint64_t v = (form & m) | (w & ~m);
    const unsigned at = below800_offsets.at[(two * 0x0001000200040008ull) >> 48];  // lane k's bit to bit 48 + k
    store_low<2>(o, v);
    store_low<2>(o + (at & 15), v >> 16);
    store_low<2>(o + ((at >> 4) & 15), v >> 32);
    store_low<2>(o + ((at >> 8) & 15), v >> 48);
    o += at >> 12;
    i += 4;
  }
  return {i, o};
}

/// The run of 16-unit ASCII blocks of UTF-16 at p[i] (the first one is), narrowed.
UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline run_end ascii_block_run(const char16_t* p, std::size_t n, std::size_t i,
                                                                   unsigned char* o) noexcept {
  std::size_t j = i + 16;
  while (n - j >= 16 && ascii_units16(p + j)) j += 16;
  return {j, copy_units(p + i, j - i, o)};
}

/// The run of surrogate pairs of UTF-16 at p[i] (surrogate_pairs2), two pairs (8 bytes) at a time.
UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline run_end surrogate_pair_run(const char16_t* p, std::size_t n, std::size_t i,
                                                                      unsigned char* o) noexcept {
  do {
    const std::uint64_t c0 = 0x10000u + ((std::uint64_t{p[i]} & 0x3FFu) << 10) + (std::uint64_t{p[i + 1]} & 0x3FFu);
    const std::uint64_t c1 = 0x10000u + ((std::uint64_t{p[i + 2]} & 0x3FFu) << 10) + (std::uint64_t{p[i + 3]} & 0x3FFu);
    store_low<8>(o, four_byte_form(c0) | four_byte_form(c1) << 32);
    o += 8;
    i += 4;
  } while (n - i >= 4 && surrogate_pairs2(p + i));
  return {i, o};
}

/// True when the 2 UTF-32 units at p are both supplementary (U+10000..U+10FFFF).
UTF8DFA_ALWAYS_INLINE bool supplementary2(const char32_t* p) noexcept {
  return (std::uint32_t{p[0]} - 0x10000u < 0x100000u) & (std::uint32_t{p[1]} - 0x10000u < 0x100000u);
}

/// The run of supplementary characters of UTF-32 at p[i] (supplementary2), two (8 bytes) at a time.
UTF8DFA_ALWAYS_INLINE run_end supplementary_run(const char32_t* p, std::size_t n, std::size_t i,
                                                unsigned char* o) noexcept {
  do {
    store_low<8>(o, four_byte_form(p[i]) | four_byte_form(p[i + 1]) << 32);
    o += 8;
    i += 2;
  } while (n - i >= 2 && supplementary2(p + i));
  return {i, o};
}

/// UTF-16 or UTF-32 (by the size of In) to UTF-8, unit by unit by the unit's class; at an ASCII
/// unit, a run of 16-unit ASCII blocks narrowed in one loop. UTF-16 text in runs of one class goes
/// to a loop for that class (out of line, so that each loop keeps its place in the code whatever
/// changes around it): 1- and 2-byte forms by groups of 4 units, 3-byte forms with the spaces
/// between them, surrogate pairs two at a time. UTF-32 takes a 2- or 3-byte form with the next
/// unit's when it has the same width, and runs of supplementary characters two at a time (emoji:
/// 0.96x -> 1.75x simdutf's fallback). (A loop without a branch per unit, writing three bytes and
/// moving by the width, ran 2-4x slower on Hebrew and Arabic text, and blocks of 13 units each
/// stored as 4 bytes 0.66-0.9x as fast for UTF-32; the same run loops for UTF-32, whose units take
/// more work to gather, ran slower than this loop; 3-byte forms of UTF-16 stored as 4 bytes where
/// the next unit writes over the fourth ran 0.8x as fast on Chinese text.)
template <class Policy, class In>
UTF8DFA_ALIGN_CODE packed_conversion utf_to_utf8_scalar(const In* p, std::size_t n, unsigned char* out,
                                                        [[maybe_unused]] Policy pol) noexcept {
  std::size_t i = 0;
  unsigned char* o = out;
  error_code first = error_code::none;
  while (i < n) {
    const std::uint32_t u = p[i];
    if (u < 0x80u) {
      // 4 ASCII units first (one or two word loads: a lone space between words of another script
      // costs little), and only then a run of 16-unit blocks.
      const bool word = n - i >= 4 && ascii_units4(p + i);
      if (word && n - i >= 16 && ascii_units16(p + i)) {
        if constexpr (sizeof(In) == 2) {
          const run_end e = ascii_block_run(p, n, i, o);
          i = e.i;
          o = e.o;
        } else {
          std::size_t j = i + 16;
          while (n - j >= 16 && ascii_units16(p + j)) j += 16;
          o = copy_units(p + i, j - i, o);
          i = j;
        }
        continue;
      }
      if (word) {
        o[0] = static_cast<unsigned char>(u);
        o[1] = static_cast<unsigned char>(p[i + 1]);
        o[2] = static_cast<unsigned char>(p[i + 2]);
        o[3] = static_cast<unsigned char>(p[i + 3]);
        o += 4;
        i += 4;
        // The next 4 too, before the test of 16 again: in Latin text with accented letters, which
        // mostly fails (0.64x -> 0.94x simdutf fallback's speed on UTF-16 at 1 KiB). Not for UTF-32
        // under clang++, which ran UTF-32 to UTF-8 0.96x as fast with it.
        if ((sizeof(In) == 2 || !clang_codegen) && n - i >= 4 && ascii_units4(p + i)) {
          o[0] = static_cast<unsigned char>(p[i]);
          o[1] = static_cast<unsigned char>(p[i + 1]);
          o[2] = static_cast<unsigned char>(p[i + 2]);
          o[3] = static_cast<unsigned char>(p[i + 3]);
          o += 4;
          i += 4;
        }
        continue;
      }
      *o++ = static_cast<unsigned char>(u);
      ++i;
      continue;
    }
    if (u < 0x800u) {
      // UTF-16 text of 2-byte forms (the next unit one too) by 4-unit groups; a lone accented
      // letter in ASCII text stays here.
      if constexpr (sizeof(In) == 2) {
        std::uint64_t w;
        if (n - i >= 5 && std::uint32_t{p[i + 1]} - 0x80u < 0x780u && below800_group(p + i, w)) {
          const run_end e = below800_run(p, n, i, o);
          i = e.i;
          o = e.o;
          continue;
        }
      }
      const std::uint32_t form = 0x80C0u | (u >> 6) | ((u & 0x3Fu) << 8);
      if constexpr (sizeof(In) == 4) {  // UTF-32: two 2-byte forms in one store
        const std::uint32_t v = n - i >= 2 ? std::uint32_t{p[i + 1]} : 0u;
        if (v - 0x80u < 0x780u) {
          store_low<4>(o, form | (0x80C0u | (v >> 6) | ((v & 0x3Fu) << 8)) << 16);
          o += 4;
          i += 2;
          continue;
        }
      }
      store_low<2>(o, form);
      o += 2;
      ++i;
      continue;
    }
    if (u - 0xD800u >= 0x800u && u <= 0xFFFFu) {
      if constexpr (sizeof(In) == 2) {
        if (n - i >= 4 && three_byte_unit(p[i + 1]) && three_byte_unit(p[i + 3])) {  // likely a run
          const run_end e = three_byte_run(p, n, i, o);
          i = e.i;
          o = e.o;
          continue;
        }
      }
      const std::uint32_t form = 0x8080E0u | (u >> 12) | ((u << 2) & 0x3F00u) | ((u & 0x3Fu) << 16);
      if constexpr (sizeof(In) == 4) {  // UTF-32: two 3-byte forms in two stores
        const std::uint32_t v = n - i >= 2 ? std::uint32_t{p[i + 1]} : 0u;
        if (three_byte_unit(v)) {
          store_low<4>(o, form | (0xE0u | (v >> 12)) << 24);
          store_low<2>(o + 4, 0x8080u | ((v >> 6) & 0x3Fu) | ((v & 0x3Fu) << 8));
          o += 6;
          i += 2;
          continue;
        }
      }
      o[0] = static_cast<unsigned char>(form);
      o[1] = static_cast<unsigned char>(form >> 8);
      o[2] = static_cast<unsigned char>(form >> 16);
      o += 3;
      ++i;
      continue;
    }
    if constexpr (sizeof(In) == 2) {
      if (n - i >= 4 && surrogate_pairs2(p + i)) {
        const run_end e = surrogate_pair_run(p, n, i, o);
        i = e.i;
        o = e.o;
        continue;
      }
    }
    std::uint32_t v = u;
    std::size_t len = 1;
    if constexpr (sizeof(In) == 2) {
      if (u < 0xDC00u && n - i >= 2 && std::uint32_t{p[i + 1]} - 0xDC00u < 0x400u) {  // a pair
        v = 0x10000u + ((u - 0xD800u) << 10) + (std::uint32_t{p[i + 1]} - 0xDC00u);
        len = 2;
      }
    }
    if (v - 0x10000u < 0x100000u) {
      if constexpr (sizeof(In) == 4) {
        if (n - i >= 2 && std::uint32_t{p[i + 1]} - 0x10000u < 0x100000u) {
          const run_end e = supplementary_run(p, n, i, o);
          i = e.i;
          o = e.o;
          continue;
        }
      }
      o[0] = static_cast<unsigned char>(0xF0u | (v >> 18));
      o[1] = static_cast<unsigned char>(0x80u | ((v >> 12) & 0x3Fu));
      o[2] = static_cast<unsigned char>(0x80u | ((v >> 6) & 0x3Fu));
      o[3] = static_cast<unsigned char>(0x80u | (v & 0x3Fu));
      o += 4;
      i += len;
      continue;
    }
    const decoded d = decode_utf_at(p, n, i);
    char32_t c = d.code_point;
    const piece_action a = act_on(d.error, first, c, pol);
    if (a == piece_action::stop) return {i, static_cast<std::size_t>(o - out), d.error};
    if (a == piece_action::write) o += put_utf8(o, c);
    i += d.length;
  }
  return {n, static_cast<std::size_t>(o - out), first};
}

// ---------------------------------------------------------------------------------------------
// Output lengths: what a conversion writes, counted without writing (replacements included, each
// `repl_units` or `repl_bytes` long). The kernels' length functions run these around errors.

/// Units of UTF-16 (Utf16) or UTF-32 the kernels write for one error: `repl`, or none for skip_marker.
template <bool Utf16>
constexpr std::size_t replacement_units(char32_t repl) noexcept {
  return repl == skip_marker ? 0 : Utf16 && repl >= 0x10000 ? 2 : 1;
}

/// Bytes of UTF-8 the kernels write for one error (none for skip_marker).
constexpr std::size_t replacement_bytes(char32_t repl) noexcept {
  return repl == skip_marker ? 0 : repl < 0x80 ? 1 : repl < 0x800 ? 2 : repl < 0x10000 ? 3 : 4;
}

/// Units (UTF-16 when Utf16, else UTF-32) the conversion writes for the characters of UTF-8 that
/// start in [i, end): the decoder runs from i, a character start, and leaves i on the first
/// character start at or past `end` (a character crossing `end` is read whole).
template <bool Utf16>
inline std::size_t utf8_units_region(const unsigned char* p, std::size_t n, std::size_t& i, std::size_t end,
                                     std::size_t repl_units) noexcept {
  std::size_t total = 0;
  while (i < end) {
    const decoded d = decode_at(p, n, i);
    total += d.error != error_code::none ? repl_units : Utf16 && d.code_point >= 0x10000 ? 2 : 1;
    i += d.length;
  }
  return total;
}

// g++ 12 warns (-Warray-bounds) of the block loads below when it inlines a call on a short array,
// behind the length checks that keep them from running there: a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif

/// Units per block of utf8_bytes_block: long enough for compilers to vectorise its loops as loops;
/// what is left of an input after them (up to 256 units, most of a 1 KiB text) in short blocks.
inline constexpr std::size_t length_block = 256, short_length_block = 32;

/// Adds to `total` the UTF-8 bytes of the Block units at p, which start a character, and returns
/// true, when none of them is an error (a UTF-16 pair may end on p[Block], which must be readable);
/// else returns false and leaves `total`. Each surrogate of a pair counts two bytes.
template <std::size_t Block = length_block, class In>
UTF8DFA_ALWAYS_INLINE bool utf8_bytes_block(const In* p, std::size_t& total) noexcept {
  // In 16-bit lanes for UTF-16 (the sum stays below 3 * 256): twice the units per vector.
  using acc = std::conditional_t<sizeof(In) == 2, std::uint16_t, std::uint32_t>;
  acc sum = 0, bad = 0;
  const In* next = clang_codegen ? opaque(p + 1) : p + 1;
  for (std::size_t k = 0; k < Block; ++k) {
    const acc u = static_cast<acc>(p[k]);
    if constexpr (sizeof(In) == 2) {
      // A high surrogate exactly where the next unit is a low one (read through opaque with
      // clang++: see paired_units).
      const acc high = (u & 0xFC00u) == 0xD800u, low_next = (next[k] & 0xFC00u) == 0xDC00u;
      bad = static_cast<acc>(bad | (high ^ low_next));
      sum = static_cast<acc>(sum + 1u + (u >= 0x80u) + (u >= 0x800u) - ((u & 0xF800u) == 0xD800u));
    } else {
      bad |= static_cast<acc>((u & 0xFFFFF800u) == 0xD800u) | static_cast<acc>(u > 0x10FFFFu);
      sum += 1u + (u >= 0x80u) + (u >= 0x800u) + (u >= 0x10000u);
    }
  }
  if constexpr (sizeof(In) == 2) bad |= (std::uint32_t{p[0]} & 0xFC00u) == 0xDC00u;  // a low half without its high
  if (bad != 0) return false;
  total += sum;
  if constexpr (sizeof(In) == 2) total += 2u * ((p[Block - 1] & 0xFC00u) == 0xD800u);  // its pair's low half
  return true;
}

/// UTF-8 bytes the conversion writes for the characters of UTF-16 or UTF-32 that start in [i, end)
/// (same contract as utf8_units_region).
template <class In>
inline std::size_t utf8_bytes_region(const In* p, std::size_t n, std::size_t& i, std::size_t end,
                                     std::size_t repl_bytes) noexcept {
  std::size_t total = 0, j = i;
  while (j < end) {
    // The common case: blocks of 256 (or 32) units without an error, summed by a loop without branches.
    if (end - j >= length_block && n - j >= length_block + (sizeof(In) == 2) && utf8_bytes_block(p + j, total)) {
      j += length_block;
      if (sizeof(In) == 2 && p[j - 1] - 0xD800u < 0x400u) ++j;  // the low half, counted with the high
      continue;
    }
    if (end - j >= short_length_block && n - j >= short_length_block + (sizeof(In) == 2) &&
        utf8_bytes_block<short_length_block>(p + j, total)) {
      j += short_length_block;
      if (sizeof(In) == 2 && p[j - 1] - 0xD800u < 0x400u) ++j;
      continue;
    }
    // A run of units below the surrogates.
    std::size_t k = j;
    for (; k < end && p[k] < 0xD800; ++k) total += std::size_t{p[k] >= 0x80} + std::size_t{p[k] >= 0x800};
    total += k - j;
    j = k;
    if (j == end) break;
    const decoded d = decode_utf_at(p, n, j);
    total += d.error != error_code::none ? repl_bytes : utf8_width(d.code_point);
    j += d.length;
  }
  i = j;
  return total;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/// The units of UTF-8 [p, p+n) after conversion, by a kernel's validation and counting functions:
/// the well-formed stretches counted, each maximal ill-formed subpart one replacement `repl`
/// (skip_marker: none).
template <bool Utf16, packed_validation (*Validate)(const unsigned char*, std::size_t) noexcept,
          std::size_t (*Count)(const unsigned char*, std::size_t) noexcept>
std::size_t utf8_units_by(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  const std::size_t repl_units = replacement_units<Utf16>(repl);
  std::size_t total = 0, pos = 0;
  for (;;) {
    const packed_validation v = Validate(p + pos, n - pos);
    total += Count(p + pos, v.valid_up_to);
    if (v.error == error_code::none) return total;
    pos += v.valid_up_to;
    total += utf8_units_region<Utf16>(p, n, pos, pos + 1, repl_units);  // the maximal ill-formed subpart
  }
}

/// UTF-8 bytes of UTF-16 or UTF-32 [p, p+n) counted as valid_marker says: one byte a unit, one more
/// from 0x80, one more from 0x800, one less for a surrogate (UTF-16) or one more for a supplementary
/// value (UTF-32). Each unit on its own, in blocks whose sums compilers vectorise.
template <class In>
constexpr std::size_t utf8_length_valid(const In* p, std::size_t n) noexcept {
  std::size_t total = n;
  for (std::size_t i = 0; i < n;) {
    const std::size_t m = n - i < 4096 ? n - i : 4096;
    std::uint32_t extra = 0;
    for (std::size_t k = 0; k < m; ++k) {
      const std::uint32_t u = p[i + k];
      if constexpr (sizeof(In) == 2)
        extra += std::uint32_t{u >= 0x80u} + std::uint32_t{u >= 0x800u} - std::uint32_t{(u & 0xF800u) == 0xD800u};
      else
        extra += std::uint32_t{u >= 0x80u} + std::uint32_t{u >= 0x800u} + std::uint32_t{u - 0x10000u < 0x100000u};
    }
    total += extra;
    i += m;
  }
  return total;
}

/// UTF-8 bytes of UTF-16 or UTF-32 [p, p+n) after conversion, replacements written as `repl`
/// (skip_marker: none; valid_marker: utf8_length_valid).
template <class In>
std::size_t utf8_length_scalar(const In* p, std::size_t n, char32_t repl) noexcept {
  // (One expression: with an early return for valid_marker, g++ 12 -O3 saw the block loads of
  // utf8_bytes_region on a two-unit literal as out of bounds, behind the length checks that skip them.)
  std::size_t i = 0;
  return repl == valid_marker ? utf8_length_valid(p, n) : utf8_bytes_region(p, n, i, n, replacement_bytes(repl));
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
