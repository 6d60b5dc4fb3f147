// utf8dfa: the scalar forms of the bulk operations on Latin-1, UTF-16 and UTF-32 that are kernel
// operations in their own right (counting UTF-16, validating UTF-32, Latin-1 to UTF-16 / UTF-32 and
// the UTF-8 length of Latin-1, byte-order changes): the kernel table's portable entries and the
// reference of the vector kernels. Constexpr where the public function is.
#ifndef UTF8DFA_DETAIL_UNITS_KERNELS_HPP
#define UTF8DFA_DETAIL_UNITS_KERNELS_HPP

#include <cstddef>
#include <cstdint>

#include "../policy.hpp"
#include "kernel_table.hpp"
#include "scalar.hpp"
#include "units.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// The unit with its bytes in the opposite order.
constexpr char16_t swap_bytes(char16_t u) noexcept {
  return static_cast<char16_t>(((u & 0xFFu) << 8) | (u >> 8));
}
constexpr char32_t swap_bytes(char32_t u) noexcept {
  return ((u & 0xFFu) << 24) | ((u & 0xFF00u) << 8) | ((u >> 8) & 0xFF00u) | (u >> 24);
}

/// Code points in UTF-16: one per surrogate pair or other unit.
constexpr std::size_t count_utf16_scalar(const char16_t* p, std::size_t n) noexcept {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++count) i += decode_utf16_at(p, n, i).length;
  return count;
}

/// The pairs (a high surrogate, then a low one) that start in [from, to) of the `n` units at p:
/// count_utf16 is n less the pairs.
inline std::size_t pair_starts_scalar(const char16_t* p, std::size_t n, std::size_t from, std::size_t to) noexcept {
  std::size_t pairs = 0;
  for (std::size_t i = from; i < to && i + 1 < n; ++i)
    pairs += (p[i] & 0xFC00u) == 0xD800u && (p[i + 1] & 0xFC00u) == 0xDC00u;
  return pairs;
}

/// The kernel table's count_utf16: n less the pairs, counted without a branch: in blocks of 256
/// units with 16-bit sums (which the compilers vectorise in 16-bit lanes), the rest (short input
/// too) in one loop of run-time length (with g++, 64 B ran 1.6x faster than by words of four
/// units); rather than count_utf16_scalar's walk from character to character. With clang++ the
/// unit after each is read through opaque (see paired_units): 256 B 1.26x as fast.
inline std::size_t count_utf16_by_pairs(const char16_t* p, std::size_t n) noexcept {
  if (n < 2) return n;
  const char16_t* next = clang_codegen ? opaque(p + 1) : p + 1;
  const auto starts_pair = [p, next](std::size_t i) {
    return static_cast<unsigned>(((p[i] & 0xFC00u) == 0xD800u) & ((next[i] & 0xFC00u) == 0xDC00u));
  };
  std::size_t pairs = 0, i = 0;
  for (; n - i > 256; i += 256) {  // the unit after the block is read too
    std::uint16_t block = 0;
    for (std::size_t k = 0; k < 256; ++k) block = static_cast<std::uint16_t>(block + starts_pair(i + k));
    pairs += block;
  }
  // Up to 256 units left: one loop of run-time length over the units a pair can start at (all but
  // the last), on a pointer to them (through starts_pair, g++ 12 did not vectorise it: 64 B 0.22x).
  const char16_t* q = p + i;
  const char16_t* qn = next + i;
  const std::size_t m = n - i - 1;
  std::uint16_t rest = 0;
  for (std::size_t k = 0; k < m; ++k)
    rest = static_cast<std::uint16_t>(rest + (((q[k] & 0xFC00u) == 0xD800u) & ((qn[k] & 0xFC00u) == 0xDC00u)));
  return n - pairs - rest;
}

/// validate_utf16 on the `n` units at p with the bytes of each exchanged (UTF-16 in the byte order
/// opposite to the host's).
inline packed_validation validate_utf16_swapped_scalar(const char16_t* p, std::size_t n) noexcept {
  for (std::size_t i = skip_paired_blocks<true>(p, n, 0); i < n; ++i) {
    const char16_t u = swap_bytes(p[i]);
    if (u < 0xD800 || u > 0xDFFF) continue;
    if (u >= 0xDC00) return {i, 1, error_code::surrogate};
    if (i + 1 == n) return {i, 0, error_code::incomplete};
    const char16_t v = swap_bytes(p[i + 1]);
    if (v < 0xDC00 || v > 0xDFFF) return {i, 1, error_code::surrogate};
    ++i;
  }
  return {n, 0, error_code::none};
}

/// The kernel entry for UTF-32 validation.
constexpr packed_validation validate_utf32_scalar(const char32_t* p, std::size_t n) noexcept {
  return validate_utf(p, n);
}

/// The `n` units or bytes at p, each through `f`, into out (which does not overlap them): blocks
/// of 64 (the last one ending at n, written again in part, when n is 64 or more).
template <class In, class Out, class F>
void map_units(const In* p, std::size_t n, Out* out, F f) noexcept {
  constexpr std::size_t block = 64;
  if (n < block) {
    for (std::size_t i = 0; i < n; ++i) out[i] = f(p[i]);
    return;
  }
  std::size_t i = 0;
  for (; n - i >= block; i += block) map_block<block>(p + i, out + i, f);
  if (i < n) map_block<block>(p + n - block, out + n - block, f);
}

/// Latin-1 bytes to UTF-16 or UTF-32 units (one each). Returns n.
template <class Out>
std::size_t latin1_widen_scalar(const unsigned char* p, std::size_t n, Out* out) noexcept {
  // Input under 16 bytes, and input of 256 bytes or more into UTF-32, by a plain loop (which compilers
  // vectorise with a scalar tail); the rest by blocks on pointers that do not overlap, the last one
  // overlapping the one before. With g++ 12, UTF-16 output of 64 B to 1 KiB of text ran 1.2-1.4x
  // faster than by the loop (a copy of each block through the stack, which g++ 12 kept storing,
  // cost a third more at 1 KiB); UTF-32 output of ~100 KB ran by blocks at 0.7x the loop's speed
  // on an Intel Xeon (the same on an AMD EPYC).
  if (n < 16 || (sizeof(Out) == 4 && n >= 256)) {
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<Out>(p[i]);
    return n;
  }
  const auto widen = [](unsigned char b) { return static_cast<Out>(b); };
  std::size_t i = 0;
  for (; n - i >= 32; i += 32) map_block<32>(p + i, out + i, widen);
  if (n - i >= 16) {
    map_block<16>(p + i, out + i, widen);
    i += 16;
  }
  if (i < n) map_block<16>(p + n - 16, out + n - 16, widen);
  return n;
}

/// Bytes of the UTF-8 of Latin-1: one per byte, two for 80..FF.
inline std::size_t utf8_length_from_latin1_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t total = n;
  for (std::size_t i = 0; i < n; ++i) total += p[i] >> 7;
  return total;
}

/// The units with their bytes in the opposite order into `out` (which may be `p`). Returns n.
template <class Unit>
std::size_t change_endianness_scalar(const Unit* p, std::size_t n, Unit* out) noexcept {
  if (out == p) {
    // Blocks of 64 units (a loop of fixed count, which compilers unroll: the loop of run-time length
    // they vectorised one vector a step, 0.67x simdutf fallback's speed in place), then the rest.
    std::size_t i = 0;
    for (; n - i >= 64; i += 64)
      for (std::size_t k = 0; k < 64; ++k) out[i + k] = swap_bytes(out[i + k]);
    for (; i < n; ++i) out[i] = swap_bytes(out[i]);
  } else {
    map_units(p, n, out, [](Unit u) { return swap_bytes(u); });
  }
  return n;
}

/// Units of `Unit` from p to the next 64-byte boundary (0 when p is on one): the vector kernels'
/// loads from there on do not straddle cache lines.
template <class Unit>
std::size_t units_to_line(const Unit* p) noexcept {
  return (64 - reinterpret_cast<std::uintptr_t>(p) % 64) % 64 / sizeof(Unit);
}

/// The kernels' encoding of a policy into Latin-1 (strict_marker, skip_marker or the replacement
/// byte, '?' for assume_valid); false for a replacement above U+00FF.
template <class Policy>
constexpr bool latin1_kernel_replacement(const Policy& pol, char32_t& repl) noexcept {
  unsigned char byte = '?';
  if (!latin1_replacement(pol, byte)) return false;
  repl = byte;
  if constexpr (Policy::stops_on_error)
    repl = strict_marker;
  else if constexpr (skips_errors_v<Policy>)
    repl = skip_marker;
  return true;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
