// utf8dfa: UTF-16 <-> UTF-8 with the UTF-16 units in the byte order opposite to the host's, built
// from a kernel's byte-order change and host-order conversion (the kernels without conversions of
// their own in that order, and the vector kernels' short inputs). Plain code: any kernel's table
// may name these.
#ifndef UTF8DFA_DETAIL_SWAPPED_KERNELS_HPP
#define UTF8DFA_DETAIL_SWAPPED_KERNELS_HPP

#include <cstddef>

#include "kernel_result.hpp"
#include "kernel_table.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A kernel's change_endianness_utf16.
using swap16_fn = std::size_t (*)(const char16_t*, std::size_t, char16_t*) noexcept;

/// utf16_to_utf8 (Convert, a kernel's, same policy encoding) on the `n` units at p stored in the
/// other byte order: put into host order (Swap) a chunk at a time in a buffer and converted. A chunk
/// ends on a high surrogate only where the input does, so pairs stay together; a chunk that still
/// ends on one (a high surrogate before another) meets it as `incomplete`, reported as the
/// `surrogate` it is. Results are those of one call on the swapped input.
template <swap16_fn Swap, packed_conversion (*Convert)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept>
packed_conversion utf16_swapped_to_utf8_by_chunks(const char16_t* p, std::size_t n, unsigned char* out,
                                                  char32_t replacement) noexcept {
  constexpr std::size_t chunk = 4096;
  char16_t buf[chunk];
  packed_conversion r{n, 0, error_code::none};
  for (std::size_t pos = 0; pos < n;) {
    std::size_t len = n - pos < chunk ? n - pos : chunk;
    Swap(p + pos, len, buf);
    if (pos + len < n && buf[len - 1] >= 0xD800 && buf[len - 1] <= 0xDBFF) --len;
    const packed_conversion c = Convert(buf, len, out + r.written, replacement);
    r.written += c.written;
    if (c.error != error_code::none) {
      if (r.error == error_code::none)
        r.error = c.error == error_code::incomplete && pos + len < n ? error_code::surrogate : c.error;
      if (replacement == strict_marker) {
        r.read = pos + c.read;
        return r;
      }
    }
    pos += len;
  }
  return r;
}

/// utf8_to_utf16 (Convert, a kernel's) writing units in the other byte order: pieces of 8 KiB that
/// end before a byte other than a continuation are converted and swapped (Swap, in place) while in
/// cache; a piece with an error (or one cut inside a character: an `incomplete` error) is taken
/// again with the rest of the input in one call, so results are those of one call.
template <swap16_fn Swap, packed_conversion (*Convert)(const unsigned char*, std::size_t, char16_t*, char32_t) noexcept>
packed_conversion utf8_to_utf16_swapped_by_pieces(const unsigned char* p, std::size_t n, char16_t* out,
                                                  char32_t replacement) noexcept {
  constexpr std::size_t piece = 8192;
  std::size_t pos = 0, written = 0;
  while (n - pos > piece) {
    std::size_t cut = pos + piece;
    while (cut > pos + piece - 4 && (p[cut] & 0xC0u) == 0x80u) --cut;
    const packed_conversion r = Convert(p + pos, cut - pos, out + written, replacement);
    if (r.error != error_code::none) break;
    Swap(out + written, r.written, out + written);
    written += r.written;
    pos = cut;
  }
  const packed_conversion r = Convert(p + pos, n - pos, out + written, replacement);
  Swap(out + written, r.written, out + written);
  return {pos + r.read, written + r.written, r.error};
}

/// Exchanges the two bytes of each of the `n` units at p, in place (a vector kernel's scalar steps).
inline void swap_units_in_place(char16_t* p, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<char16_t>((p[i] >> 8) | ((p[i] & 0xFFu) << 8));
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
