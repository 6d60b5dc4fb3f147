// utf8dfa: the portable kernels. Every loop here runs the one DFA of dfa.hpp (through `step` or
// `decode_at`); the SIMD kernels accelerate these and are tested against them.
#ifndef UTF8DFA_DETAIL_SCALAR_HPP
#define UTF8DFA_DETAIL_SCALAR_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../policy.hpp"
#include "bytes.hpp"
#include "dfa.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Precise validation from a character boundary, one character at a time (constexpr path and the
/// re-scan that locates an error found by a faster loop).
template <class T>
constexpr validation_result validate_from(const T* p, std::size_t n, std::size_t pos) noexcept {
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

/// Validation at run time, one stream: ASCII skipped 16 bytes at a time, everything else through
/// the shift DFA in blocks of 64 bytes (written out eight steps at a time); only a failing block
/// (or one that ends the input inside a character) is re-scanned to say where and why.
inline validation_result validate_one_stream(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  std::uint64_t st = s_accept;
  for (;;) {
    if ((st & state_mask) == s_accept)
      while (n - i >= 16 && ascii16(p + i)) i += 16;
    const std::size_t block = i;
    const std::uint64_t entry = st & state_mask;
    const bool last = n - i < 64;
    if (last) {
      st = run_dfa(st, p, i, n);
    } else {
      for (std::size_t k = 0; k < 64; k += 8) st = step8(st, p + i + k);
      i += 64;
    }
    if (UTF8DFA_UNLIKELY((st & state_mask) == s_reject || (last && (st & state_mask) != s_accept)))
      return validate_from(p, n, entry == s_accept ? block : partial_start(p, block));
    if (last) return {n, 0, error_code::none};
  }
}

/// One stream of the two-stream check: skips ASCII while at a character boundary, keeping at
/// least 64 bytes before `end`.
UTF8DFA_ALWAYS_INLINE void skip_ascii(const unsigned char* p, std::size_t& i, std::size_t end,
                                      std::uint64_t st) noexcept {
  if ((st & state_mask) == s_accept)
    while (end - i >= 80 && ascii16(p + i)) i += 16;
}

/// True when [0, mid) and [mid, n) are both well-formed (mid starts a character), checked as two
/// interleaved DFA chains, which doubles the bytes per cycle of one chain of dependent shifts.
/// False says nothing about where: the caller re-runs one stream for the exact answer.
inline bool two_streams_valid(const unsigned char* p, std::size_t mid, std::size_t n) noexcept {
  std::size_t a = 0, b = mid;
  std::uint64_t sa = s_accept, sb = s_accept;
  for (;;) {
    skip_ascii(p, a, mid, sa);
    skip_ascii(p, b, n, sb);
    if (mid - a < 64 || n - b < 64) break;
    for (std::size_t k = 0; k < 64; k += 8) {
      sa = step8(sa, p + a + k);
      sb = step8(sb, p + b + k);
    }
    a += 64;
    b += 64;
    if (UTF8DFA_UNLIKELY(((sa & state_mask) == s_reject) | ((sb & state_mask) == s_reject))) return false;
  }
  // The rest of each stream alone.
  for (std::size_t* pos : {&a, &b}) {
    const std::size_t end = pos == &a ? mid : n;
    std::uint64_t& st = pos == &a ? sa : sb;
    for (std::size_t& i = *pos;;) {
      skip_ascii(p, i, end, st);
      if (end - i < 64) break;
      for (std::size_t k = 0; k < 64; k += 8) st = step8(st, p + i + k);
      i += 64;
      if ((st & state_mask) == s_reject) return false;
    }
    st = run_dfa(st, p, *pos, end);
  }
  return (sa & state_mask) == s_accept && (sb & state_mask) == s_accept;
}

/// Validation at run time: long inputs as two interleaved streams split at a character start near
/// the middle; anything ill-formed (and short input) through one stream, which says where and why.
inline validation_result validate_scalar(const unsigned char* p, std::size_t n) noexcept {
  if (n >= 1024) {
    std::size_t mid = n / 2;
    for (int k = 0; k < 3 && is_continuation(p[mid]); ++k) ++mid;
    if (!is_continuation(p[mid]) && two_streams_valid(p, mid, n)) return {n, 0, error_code::none};
  }
  return validate_one_stream(p, n);
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

/// UTF-8 to UTF-32 or UTF-16 (by the size of Out).
template <class Policy, class Out>
conversion_result utf8_to_utf_scalar(const unsigned char* p, std::size_t n, Out* out,
                                     [[maybe_unused]] Policy pol) noexcept {
  std::size_t i = 0;
  Out* o = out;
  error_code first = error_code::none;
  while (i < n) {
    if (n - i >= 8 && (load64(p + i) & high_bits) == 0) {
      for (std::size_t k = 0; k < 8; ++k) o[k] = static_cast<Out>(p[i + k]);
      i += 8;
      o += 8;
      continue;
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

/// UTF-16 or UTF-32 (by the size of In) to UTF-8.
template <class Policy, class In>
conversion_result utf_to_utf8_scalar(const In* p, std::size_t n, unsigned char* out,
                                     [[maybe_unused]] Policy pol) noexcept {
  std::size_t i = 0;
  unsigned char* o = out;
  error_code first = error_code::none;
  while (i < n) {
    if (p[i] < 0x80) {
      *o++ = static_cast<unsigned char>(p[i++]);
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

/// UTF-8 bytes the conversion writes for the characters of UTF-16 or UTF-32 that start in [i, end)
/// (same contract as utf8_units_region).
template <class In>
inline std::size_t utf8_bytes_region(const In* p, std::size_t n, std::size_t& i, std::size_t end,
                                     std::size_t repl_bytes) noexcept {
  std::size_t total = 0, j = i;
  while (j < end) {
    // The common case, no decoding: a run of units below the surrogates.
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

/// The units of UTF-8 [p, p+n) after conversion, by a kernel's validation and counting functions:
/// the well-formed stretches counted, each maximal ill-formed subpart one replacement `repl`
/// (skip_marker: none).
template <bool Utf16, validation_result (*Validate)(const unsigned char*, std::size_t) noexcept,
          std::size_t (*Count)(const unsigned char*, std::size_t) noexcept>
std::size_t utf8_units_by(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  const std::size_t repl_units = replacement_units<Utf16>(repl);
  std::size_t total = 0, pos = 0;
  for (;;) {
    const validation_result v = Validate(p + pos, n - pos);
    total += Count(p + pos, v.valid_up_to);
    if (v.error == error_code::none) return total;
    pos += v.valid_up_to;
    total += utf8_units_region<Utf16>(p, n, pos, pos + 1, repl_units);  // the maximal ill-formed subpart
  }
}

/// UTF-8 bytes of UTF-16 or UTF-32 [p, p+n) after conversion, replacements written as `repl`
/// (skip_marker: none).
template <class In>
std::size_t utf8_length_scalar(const In* p, std::size_t n, char32_t repl) noexcept {
  std::size_t i = 0;
  return utf8_bytes_region(p, n, i, n, replacement_bytes(repl));
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
