// utf8dfa: what a vector kernel does with inputs too short for its blocks. Plain code (no target
// attributes): the kernels' tables wrap their conversions in these.
#ifndef UTF8DFA_DETAIL_SIMD_SHORT_INPUT_HPP
#define UTF8DFA_DETAIL_SIMD_SHORT_INPUT_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../../config.hpp"
#include "../bytes.hpp"
#include "../kernel_result.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A vector conversion for inputs of at least `MinUnits` code units, the scalar one below: a vector
/// kernel's setup (masks, permute tables) costs more than the DFA on a few characters.
template <class In, class Out, packed_conversion (*Vector)(const In*, std::size_t, Out*, char32_t) noexcept,
          packed_conversion (*Scalar)(const In*, std::size_t, Out*, char32_t) noexcept, std::size_t MinUnits>
packed_conversion vector_from(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  return n < MinUnits ? Scalar(p, n, out, replacement) : Vector(p, n, out, replacement);
}

/// True when the n bytes at p (8 <= n) start with 8 ASCII bytes and have at most one byte in 16
/// above 7F, or with Four, a byte F0..FF (the lead of a 4-byte form): text the scalar DFA, which
/// takes ASCII runs 8 or 16 bytes a step, converts faster than a vector kernel's padded copy does
/// (and into UTF-16, emoji among ASCII words: the AVX2 blocks write their surrogate pairs 8 code
/// points a step, the DFA one at a time, at 64 bytes 2x as fast). Bytes above 7F are counted in the
/// byte lanes of a word and the lanes summed in its top byte (no popcnt in the baseline instruction
/// set), which holds the sum for n under 240; bytes in two of the words read count twice. (Other
/// scripts than Latin leave at the first word.)
template <bool Four = false>
inline bool mostly_ascii(const unsigned char* p, std::size_t n) noexcept {
  if ((load64(p) & high_bits) != 0) return false;
  std::uint64_t lanes = (load64(p + n - 8) & high_bits) >> 7;
  for (std::size_t k = 0; n - k >= 16; k += 8) lanes += (load64(p + k) & high_bits) >> 7;
  if (((lanes * 0x0101010101010101ull) >> 56) * 16 <= n) return true;
  if constexpr (Four) {  // (a pass of its own: in the loop above it cost ASCII text 20% at 64 bytes)
    // Bit 7 of a byte of `four`: its bits 7, 6, 5 and 4 all set (pairs of neighbours, then pairs of pairs).
    const auto top4 = [](std::uint64_t w) {
      w &= w << 1;
      return w & (w << 2);
    };
    std::uint64_t four = top4(load64(p + n - 8));
    for (std::size_t k = 0; n - k >= 16; k += 8) four |= top4(load64(p + k));
    return (four & high_bits) != 0;
  }
  return false;
}

/// vector_from for UTF-8 input, where the vector kernel's way with inputs under `Below` bytes (a
/// padded copy) costs more than the scalar DFA on mostly_ascii text (64 bytes of Portuguese text
/// with one accented letter, timed alone: 16 ns against 24).
template <class Out, packed_conversion (*Vector)(const unsigned char*, std::size_t, Out*, char32_t) noexcept,
          packed_conversion (*Scalar)(const unsigned char*, std::size_t, Out*, char32_t) noexcept, std::size_t MinUnits,
          std::size_t Below, bool Four = false>
packed_conversion vector_unless_mostly_ascii(const unsigned char* p, std::size_t n, Out* out,
                                             char32_t replacement) noexcept {
  static_assert(MinUnits >= 8 && Below <= 240, "whole words, a byte for the count");
  if (n < MinUnits) return Scalar(p, n, out, replacement);
  if (n < Below && mostly_ascii<Four>(p, n)) return Scalar(p, n, out, replacement);
  return Vector(p, n, out, replacement);
}

/// Output units a conversion may write per input unit: a byte of UTF-8 or a unit of UTF-16 or
/// UTF-32 read as an error becomes one replacement, which may be a supplementary character.
template <class Out>
inline constexpr std::size_t most_out_per_unit = sizeof(Out) == 1   ? 4
                                                 : sizeof(Out) == 2 ? 2
                                                                    : 1;

/// vector_from for a kernel without masked loads and stores, whose blocks need `Pad` units of
/// input after them and whose last few units go to the scalar DFA: an input of MinUnits up to
/// PadBelow units is copied into a buffer and followed by Pad zero units, the vector conversion
/// runs there, and its output is copied out. A zero unit is a character of its own in every
/// encoding (U+0000), so it ends a character cut by the end of the input exactly as the end does,
/// and it writes one zero unit: the input's output is the buffer's output less its last Pad units.
/// An input with an error is converted again by the scalar DFA, into `out`, which says whether an
/// error at the end is an incomplete character (the buffer's run sees it cut by a zero).
template <class In, class Out, packed_conversion (*Vector)(const In*, std::size_t, Out*, char32_t) noexcept,
          packed_conversion (*Scalar)(const In*, std::size_t, Out*, char32_t) noexcept, std::size_t PadBelow,
          std::size_t Pad>
UTF8DFA_NOINLINE packed_conversion convert_padded(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  In in[PadBelow + Pad];
  Out converted[(PadBelow + Pad) * most_out_per_unit<Out>];
  std::memcpy(in, p, n * sizeof(In));
  std::memset(in + n, 0, Pad * sizeof(In));
  const packed_conversion r = Vector(in, n + Pad, converted, replacement);
  if (r.error != error_code::none || r.read != n + Pad || r.written < Pad) return Scalar(p, n, out, replacement);
  std::memcpy(out, converted, (r.written - Pad) * sizeof(Out));
  return {n, r.written - Pad, error_code::none};
}

template <class In, class Out, packed_conversion (*Vector)(const In*, std::size_t, Out*, char32_t) noexcept,
          packed_conversion (*Scalar)(const In*, std::size_t, Out*, char32_t) noexcept, std::size_t MinUnits,
          std::size_t PadBelow, std::size_t Pad>
packed_conversion padded_from(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  static_assert(Pad > 0 && MinUnits <= PadBelow, "at least one zero unit ends the copied input");
  if (n < MinUnits) return Scalar(p, n, out, replacement);
  if (n >= PadBelow) return Vector(p, n, out, replacement);
  return convert_padded<In, Out, Vector, Scalar, PadBelow, Pad>(p, n, out, replacement);
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
