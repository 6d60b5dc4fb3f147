// utf8dfa: what the SIMD length functions of every instruction set share: the loop that runs a
// kernel's vector count over the well-formed stretches of the input and the scalar decoder
// (scalar.hpp) over the blocks that hold an error (plain code, no target attributes).
#ifndef UTF8DFA_DETAIL_SIMD_LENGTH_COMMON_HPP
#define UTF8DFA_DETAIL_SIMD_LENGTH_COMMON_HPP

#include <cstddef>

#include "../scalar.hpp"
#include "generic.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A vector count over [p, p+n) read as the start of a text: returns blocks_pass when the whole
/// input is well-formed (`count` is then its length), else b such that [0, b) passed the checks
/// (`count` holds the length of its characters, a character cut by b counted by its lead) and the
/// scalar decoder must take over at the character start before b, for at most `span` units past b.
template <class In>
using length_segment = std::size_t (*)(const In*, std::size_t, std::size_t& count) noexcept;

/// Units of UTF-8 after conversion (UTF-16 when Utf16, else UTF-32), by a vector count.
template <bool Utf16, length_segment<unsigned char> Segment, std::size_t Span>
std::size_t utf8_units_blocks(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  const std::size_t repl_units = replacement_units<Utf16>(repl);
  std::size_t total = 0, pos = 0;
  for (;;) {
    std::size_t count = 0;
    const std::size_t b = Segment(p + pos, n - pos, count);
    if (b == blocks_pass) return total + count;
    // The character cut by b was counted by its lead: the decoder reads it again.
    const std::size_t s = boundary_before(p + pos, b);
    total += count - (Utf16 ? utf16_length_scalar(p + pos + s, b - s) : count_leads_scalar(p + pos + s, b - s));
    const std::size_t end = n - (pos + b) < Span ? n : pos + b + Span;
    pos += s;
    total += utf8_units_region<Utf16>(p, n, pos, end, repl_units);
  }
}

/// UTF-8 bytes of UTF-16 or UTF-32 after conversion, by a vector count (for UTF-16, a high surrogate
/// is counted as 1 byte and its low surrogate as 3).
template <class In, length_segment<In> Segment, std::size_t Span>
std::size_t utf8_bytes_blocks(const In* p, std::size_t n, char32_t repl) noexcept {
  const std::size_t repl_bytes = replacement_bytes(repl);
  std::size_t total = 0, pos = 0;
  for (;;) {
    std::size_t count = 0;
    const std::size_t b = Segment(p + pos, n - pos, count);
    if (b == blocks_pass) return total + count;
    std::size_t s = b;
    if (sizeof(In) == 2 && s > 0 && (p[pos + s - 1] & 0xFC00) == 0xD800) {  // a pair cut by b: decode it whole
      --s;
      --count;
    }
    total += count;
    const std::size_t end = n - (pos + b) < Span ? n : pos + b + Span;
    pos += s;
    total += utf8_bytes_region(p, n, pos, end, repl_bytes);
  }
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
