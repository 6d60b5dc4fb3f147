// utf8dfa: what the SIMD transcoding kernels of every instruction set share: the pair tables of the
// block UTF-8 check, and the scalar re-run of a block that holds an error (plain code, no target
// attributes, so any kernel may call it).
#ifndef UTF8DFA_DETAIL_SIMD_TRANSCODE_COMMON_HPP
#define UTF8DFA_DETAIL_SIMD_TRANSCODE_COMMON_HPP

#include <cstddef>
#include <cstdint>

#include "../bytes.hpp"
#include "../dfa.hpp"
#include "../kernel_result.hpp"
#include "../scalar.hpp"
#include "../swapped_kernels.hpp"
#include "../units_kernels.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Error bits of a pair (previous byte, current byte); a pair is ill-formed when the three
/// lookups (previous high nibble, previous low nibble, current high nibble) share a bit.
namespace pair_error {
inline constexpr std::uint8_t too_short = 1 << 0;                        // lead byte followed by a non-continuation
inline constexpr std::uint8_t too_long = 1 << 1;                         // ASCII followed by a continuation
inline constexpr std::uint8_t overlong_3 = 1 << 2;                       // E0 80..9F
inline constexpr std::uint8_t too_large = 1 << 3;                        // F4 90..BF, F5..FF 90..BF
inline constexpr std::uint8_t surrogate = 1 << 4;                        // ED A0..BF
inline constexpr std::uint8_t overlong_2 = 1 << 5;                       // C0/C1 followed by a continuation
inline constexpr std::uint8_t overlong_4 = 1 << 6;                       // F0 80..8F, and F5..FF 80..8F
inline constexpr std::uint8_t two_conts = 1 << 7;                        // continuation after continuation
inline constexpr std::uint8_t carry = too_short | too_long | two_conts;  // independent of the low nibble

/// Indexed by the high nibble of the previous byte.
inline constexpr std::uint8_t prev_high[16] = {too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               two_conts,
                                               two_conts,
                                               two_conts,
                                               two_conts,
                                               too_short | overlong_2,
                                               too_short,
                                               too_short | overlong_3 | surrogate,
                                               too_short | too_large | overlong_4};
/// Indexed by the low nibble of the previous byte.
inline constexpr std::uint8_t prev_low[16] = {carry | overlong_2 | overlong_3 | overlong_4,
                                              carry | overlong_2,
                                              carry,
                                              carry,
                                              carry | too_large,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4 | surrogate,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4};
/// Indexed by the high nibble of the current byte.
inline constexpr std::uint8_t cur_high[16] = {too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_long | overlong_2 | two_conts | overlong_3 | overlong_4,
                                              too_long | overlong_2 | two_conts | overlong_3 | too_large,
                                              too_long | overlong_2 | two_conts | surrogate | too_large,
                                              too_long | overlong_2 | two_conts | surrogate | too_large,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short};
}  // namespace pair_error

/// Progress of a kernel: where it stands on both sides and the first error seen (replace policy).
template <class Out>
struct transcode_cursor {
  std::size_t i;
  Out* o;
  error_code first;
};

/// Runs the scalar decoder of the input form (decode_at for UTF-8, decode_utf_at for UTF-16/32) over
/// [c.i, end) and the rest of a sequence crossing `end`, writing the output form; under strict
/// policy returns false at the first error, leaving c.i on it. `replacement` is written for each
/// error, or nothing when it is skip_marker.
template <bool Strict, class In, class Out>
inline bool scalar_region(const In* p, std::size_t n, std::size_t end, transcode_cursor<Out>& c,
                          char32_t replacement) noexcept {
  while (c.i < end) {
    decoded d{};
    if constexpr (sizeof(In) == 1)
      d = decode_at(p, n, c.i);
    else
      d = decode_utf_at(p, n, c.i);
    char32_t cp = d.code_point;
    if (UTF8DFA_UNLIKELY(d.error != error_code::none)) {
      if constexpr (Strict) {
        c.first = d.error;
        return false;
      } else {
        if (c.first == error_code::none) c.first = d.error;
        if (replacement == skip_marker) {
          c.i += d.length;
          continue;
        }
        cp = replacement;
      }
    }
    if constexpr (sizeof(Out) == 1)
      c.o += put_utf8(c.o, cp);
    else
      c.o = put_unit(c.o, cp);
    c.i += d.length;
  }
  return true;
}

/// scalar_region for a conversion whose UTF-16 side (the input when In is char16_t, else the output)
/// is stored in the byte order opposite to the host's when Swap: input units are swapped into a
/// buffer 64 at a time (with the unit after, which completes a pair crossing the buffer's end), output
/// units are swapped in place once written.
template <bool Strict, bool Swap, class In, class Out>
inline bool scalar_region_in_order(const In* p, std::size_t n, std::size_t end, transcode_cursor<Out>& c,
                                   char32_t replacement) noexcept {
  if constexpr (!Swap) {
    return scalar_region<Strict>(p, n, end, c, replacement);
  } else if constexpr (sizeof(In) == 2) {
    char16_t buf[65];
    while (c.i < end) {
      const std::size_t base = c.i, stop = end - base < 64 ? end : base + 64;
      const std::size_t len = (stop < n ? stop + 1 : n) - base;
      for (std::size_t j = 0; j < len; ++j) buf[j] = swap_bytes(p[base + j]);
      transcode_cursor<Out> local{0, c.o, c.first};
      const bool ok = scalar_region<Strict>(buf, len, stop - base, local, replacement);
      c = {base + local.i, local.o, local.first};
      if (!ok) return false;
    }
    return true;
  } else {
    static_assert(sizeof(Out) == 2, "a swapped conversion has a UTF-16 side");
    Out* const from = c.o;
    const bool ok = scalar_region<Strict>(p, n, end, c, replacement);
    swap_units_in_place(from, static_cast<std::size_t>(c.o - from));
    return ok;
  }
}

/// The scalar function on the rest of the input, merged with what the vector loop did.
template <bool Strict, class In, class Out>
inline packed_conversion finish_scalar(const In* p, std::size_t n, Out* out, transcode_cursor<Out> c,
                                       char32_t repl) noexcept {
  if (c.i == n) return {n, static_cast<std::size_t>(c.o - out), c.first};  // (no call when nothing is left)
  packed_conversion r{};
  if constexpr (sizeof(In) == 1) {
    r = Strict                ? utf8_to_utf_scalar(p + c.i, n - c.i, c.o, strict{})
        : repl == skip_marker ? utf8_to_utf_scalar(p + c.i, n - c.i, c.o, skip{})
                              : utf8_to_utf_scalar(p + c.i, n - c.i, c.o, replace{repl});
  } else {
    r = Strict                ? utf_to_utf8_scalar(p + c.i, n - c.i, c.o, strict{})
        : repl == skip_marker ? utf_to_utf8_scalar(p + c.i, n - c.i, c.o, skip{})
                              : utf_to_utf8_scalar(p + c.i, n - c.i, c.o, replace{repl});
  }
  const error_code e = c.first != error_code::none ? c.first : r.error;
  // The written count from the output pointer: written as two sums of counts, g++ 12 pairs them
  // into one vector sum, whose 16-byte load of r (two 8-byte stores by the call just returned)
  // cannot be forwarded from those stores and waits for them (10-20 cycles a call).
  return {c.i + r.read, static_cast<std::size_t>(c.o + r.written - out), e};
}

/// finish_scalar for a conversion whose UTF-16 side is in the other byte order when Swap (see
/// scalar_region_in_order).
template <bool Strict, bool Swap, class In, class Out>
inline packed_conversion finish_scalar_in_order(const In* p, std::size_t n, Out* out, transcode_cursor<Out> c,
                                                char32_t repl) noexcept {
  if constexpr (!Swap) {
    return finish_scalar<Strict>(p, n, out, c, repl);
  } else if constexpr (sizeof(In) == 2) {
    // The rest swapped 64 units at a time into a buffer, each piece through the scalar conversion
    // (finish_scalar's, not scalar_region's character by character). A high surrogate last in a
    // piece waits for the next one, where its pair (or its error) is whole.
    char16_t buf[64];
    while (c.i < n) {
      std::size_t len = n - c.i < 64 ? n - c.i : 64;
      for (std::size_t j = 0; j < len; ++j) buf[j] = swap_bytes(p[c.i + j]);
      if (c.i + len < n && (buf[len - 1] & 0xFC00u) == 0xD800u) --len;
      const packed_conversion r = finish_scalar<Strict>(buf, len, c.o, transcode_cursor<Out>{0, c.o, c.first}, repl);
      c.o += r.written;
      if (Strict && r.error != error_code::none) return {c.i + r.read, static_cast<std::size_t>(c.o - out), r.error};
      c.i += len;
      c.first = r.error;
    }
    return {n, static_cast<std::size_t>(c.o - out), c.first};
  } else {
    const packed_conversion r = finish_scalar<Strict>(p, n, out, c, repl);
    swap_units_in_place(c.o, r.written - static_cast<std::size_t>(c.o - out));
    return r;
  }
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
