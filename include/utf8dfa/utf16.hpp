// utf8dfa: UTF-16 and UTF-32 as inputs in their own right (validation, counting, repair, conversion
// between the two) and UTF-16 and UTF-32 stored in a stated byte order (UTF-16LE/BE, UTF-32LE/BE).
//
// One definition of an unpaired surrogate serves the whole library (detail::decode_utf16_at, also
// behind utf16_to_utf8): a surrogate that is not a high one followed by a low one. A high surrogate
// that ends the input is `incomplete` (a later chunk could pair it), every other one `surrogate`.
// Offsets and lengths are in code units. Validation, count_utf16, UTF-16 <-> UTF-32,
// to_well_formed_utf16 and the byte-order changes are kernel operations (vector code where the kernel
// has it); UTF-16 <-> UTF-8 in the other byte order are kernel operations too (the vector kernels
// exchange the bytes of each vector as loaded or stored), the other forms in the other byte order swap
// a chunk at a time with the kernel's byte shuffle and run the host-order kernel on it; the lengths
// of UTF-32 <-> UTF-16 are scalar.
#ifndef UTF8DFA_UTF16_HPP
#define UTF8DFA_UTF16_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "detail/bytes.hpp"
#include "detail/dispatch.hpp"
#include "detail/scalar.hpp"
#include "detail/units.hpp"
#include "detail/units_kernels.hpp"
#include "error.hpp"
#include "policy.hpp"
#include "transcode.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// The kernel's change_endianness_utf16 / _utf32 (by Unit).
template <class Unit>
std::size_t swap_units(const Unit* p, std::size_t n, Unit* out) noexcept {
  if constexpr (sizeof(Unit) == 2)
    return kernel_fn<&kernel_table::change_endianness_utf16>()(p, n, out);
  else
    return kernel_fn<&kernel_table::change_endianness_utf32>()(p, n, out);
}

/// Calls f(units, count, offset) on the `n` UTF-16 or UTF-32 units (by Unit) at `p` (Src: Unit, or
/// a byte type when `p` may not be aligned for Unit), stored little-endian (Little) or big-endian:
/// put into host order a chunk at a time in a buffer (the kernel's byte shuffle, straight from `p`
/// when it holds units). A chunk ends on a value D800..DBFF only where the input does, so surrogate
/// pairs (and, in UTF-32, a lead surrogate and what follows it) stay together. f returns false to
/// stop.
template <bool Little, class Unit, class Src, class F>
void for_each_host_chunk(const Src* p, std::size_t n, F f) {
  constexpr std::size_t chunk = 8192 / sizeof(Unit);
  Unit buf[chunk];
  for (std::size_t pos = 0; pos < n;) {
    std::size_t len = n - pos < chunk ? n - pos : chunk;
    if constexpr (std::is_same_v<Src, Unit> && Little != host_little_endian) {
      swap_units(p + pos, len, buf);
    } else {
      std::memcpy(buf, reinterpret_cast<const unsigned char*>(p) + pos * sizeof(Unit), len * sizeof(Unit));
      if constexpr (Little != host_little_endian) swap_units(buf, len, buf);
    }
    if (pos + len < n && buf[len - 1] >= 0xD800 && buf[len - 1] <= 0xDBFF) --len;
    // (A chunk that then still ends on a high surrogate, one before another, meets it as
    // `incomplete`: chunk_error makes that the `surrogate` it is.)
    if (!f(static_cast<const Unit*>(buf), len, pos)) return;
    pos += len;
  }
}

/// validate_utf16 (the kernel's) or validate_utf32 (by Unit) on host-order units.
template <class Unit>
validation_result validate_units(const Unit* p, std::size_t n) noexcept {
  if constexpr (sizeof(Unit) == 2)
    return kernel_fn<&kernel_table::validate_utf16>()(p, n);
  else
    return kernel_fn<&kernel_table::validate_utf32>()(p, n);
}

/// The error `e` met in a chunk of for_each_host_chunk that ends at `end`, in the whole
/// input of `n` units: a high surrogate that ends a chunk but not the input is followed by another.
inline error_code chunk_error(error_code e, std::size_t end, std::size_t n) noexcept {
  return e == error_code::incomplete && end < n ? error_code::surrogate : e;
}

/// validate_units on the `n` units at `p` (Src: as for for_each_host_chunk), stored little-endian
/// (Little) or big-endian.
template <bool Little, class Unit, class Src>
validation_result validate_stored(const Src* p, std::size_t n) noexcept {
  validation_result r{n, 0, error_code::none};
  for_each_host_chunk<Little, Unit>(p, n, [&](const Unit* b, std::size_t len, std::size_t base) {
    const validation_result v = validate_units(b, len);
    if (v) return true;
    const error_code e = chunk_error(v.error, base + len, n);
    r = {base + v.valid_up_to, e == v.error ? v.error_length : std::size_t{1}, e};
    return false;
  });
  return r;
}

/// validate_utf16 / validate_utf32 (by Unit) on units stored little-endian (Little) or big-endian.
template <bool Little, class Unit>
validation_result validate_utf_in_order(std::basic_string_view<Unit> in) noexcept {
  if constexpr (Little == host_little_endian)
    return validate_units(in.data(), in.size());
  else if constexpr (sizeof(Unit) == 2)
    return kernel_fn<&kernel_table::validate_utf16_swapped>()(in.data(), in.size());
  else
    return validate_stored<Little, Unit>(in.data(), in.size());
}

/// The host-order UTF-16 or UTF-32 (by Unit) to UTF-8 conversion.
template <class Policy, class Unit, class Byte>
conversion_result utf_to_utf8(std::basic_string_view<Unit> in, Byte* out, Policy policy) noexcept {
  if constexpr (sizeof(Unit) == 2)
    return utf16_to_utf8(in, out, policy);
  else
    return utf32_to_utf8(in, out, policy);
}

/// utf16_to_utf8 / utf32_to_utf8 (by Unit) on units stored little-endian (Little) or big-endian.
/// UTF-16 in the other byte order is the kernel's utf16_swapped_to_utf8; UTF-32 is swapped a chunk
/// at a time.
template <bool Little, class Policy, class Unit, class Byte>
conversion_result utf_in_order_to_utf8(std::basic_string_view<Unit> in, Byte* out, Policy policy) noexcept {
  if constexpr (Little == host_little_endian) {
    return utf_to_utf8(in, out, policy);
  } else if constexpr (sizeof(Unit) == 2) {
    return kernel_fn<&kernel_table::utf16_swapped_to_utf8>()(in.data(), in.size(), as_uchars(out),
                                                             kernel_replacement(policy));
  } else {
    conversion_result r{in.size(), 0, error_code::none};
    for_each_host_chunk<Little, Unit>(in.data(), in.size(), [&](const Unit* b, std::size_t len, std::size_t base) {
      const conversion_result c = utf_to_utf8(std::basic_string_view<Unit>(b, len), out + r.written, policy);
      r.written += c.written;
      if (c.error != error_code::none) {
        if (r.error == error_code::none) r.error = chunk_error(c.error, base + len, in.size());
        if constexpr (Policy::stops_on_error) {
          r.read = base + c.read;
          return false;
        }
      }
      return true;
    });
    return r;
  }
}

/// The host-order UTF-8 to UTF-16 or UTF-32 (by Unit) conversion.
template <class Policy, class Unit, class Bytes>
conversion_result utf8_to_utf(const Bytes& bytes, Unit* out, Policy policy) noexcept {
  if constexpr (sizeof(Unit) == 2)
    return utf8_to_utf16(bytes, out, policy);
  else
    return utf8_to_utf32(bytes, out, policy);
}

/// utf8_to_utf16 / utf8_to_utf32 (by Unit) writing units little-endian (Little) or big-endian.
/// UTF-16 in the other byte order is the kernel's utf8_to_utf16_swapped. UTF-32 in the other byte
/// order: pieces of 8 KiB that end before a byte other than a continuation are
/// converted and swapped while in cache; a piece with an error (or one cut inside a character: an
/// `incomplete` error) is taken again with the rest of the input in one call, so results are those
/// of one call. (assume_valid, which reports no error, converts in one call.)
template <bool Little, class Policy, class Unit, class Bytes>
conversion_result utf8_to_utf_in_order(const Bytes& bytes, Unit* out, Policy policy) noexcept {
  if constexpr (Little != host_little_endian && sizeof(Unit) == 2) {
    const auto s = as_span(bytes);
    return kernel_fn<&kernel_table::utf8_to_utf16_swapped>()(as_uchars(s.data), s.size, out,
                                                             decode_replacement(policy));
  } else if constexpr (Little == host_little_endian || std::is_same_v<Policy, assume_valid>) {
    const conversion_result r = utf8_to_utf(bytes, out, policy);
    if constexpr (Little != host_little_endian) swap_units(out, r.written, out);
    return r;
  } else {
    const auto s = as_span(bytes);
    using Byte = std::remove_cv_t<std::remove_pointer_t<decltype(s.data)>>;
    constexpr std::size_t piece = 8192;
    std::size_t pos = 0, written = 0;
    while (s.size - pos > piece) {
      std::size_t cut = pos + piece;
      while (cut > pos + piece - 4 && (octet(s.data[cut]) & 0xC0u) == 0x80u) --cut;
      const conversion_result r = utf8_to_utf(byte_span_range<Byte>{s.data + pos, cut - pos}, out + written, policy);
      if (r.error != error_code::none) break;
      swap_units(out + written, r.written, out + written);
      written += r.written;
      pos = cut;
    }
    const conversion_result r = utf8_to_utf(byte_span_range<Byte>{s.data + pos, s.size - pos}, out + written, policy);
    swap_units(out + written, r.written, out + written);
    return {pos + r.read, written + r.written, r.error};
  }
}

/// utf8_length_from_utf16 / utf8_length_from_utf32 (by Unit) on units stored little-endian (Little)
/// or big-endian (R: replace or skip).
template <bool Little, class Unit, class R>
std::size_t utf8_length_from_utf_in_order(std::basic_string_view<Unit> in, R r) noexcept {
  const auto length = [r](std::basic_string_view<Unit> units) {
    if constexpr (sizeof(Unit) == 2)
      return utf8_length_from_utf16(units, r);
    else
      return utf8_length_from_utf32(units, r);
  };
  if constexpr (Little == host_little_endian) {
    return length(in);
  } else {
    std::size_t total = 0;
    for_each_host_chunk<Little, Unit>(in.data(), in.size(), [&](const Unit* b, std::size_t len, std::size_t) {
      total += length(std::basic_string_view<Unit>(b, len));
      return true;
    });
    return total;
  }
}

}  // namespace detail

// ---- UTF-16 and UTF-32 input (host byte order). ----------------------------------------------

/// Checks UTF-16: valid_up_to is the units before the first unpaired surrogate (error_length 1,
/// `surrogate`), or before a high surrogate that ends the input (error_length 0, `incomplete`).
constexpr validation_result validate_utf16(std::u16string_view in) noexcept {
  if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::validate_utf(in.data(), in.size());
  return detail::kernel_fn<&detail::kernel_table::validate_utf16>()(in.data(), in.size());
}

/// Checks UTF-32: a surrogate value is `surrogate`, a value above 0x10FFFF `too_large` (length 1).
constexpr validation_result validate_utf32(std::u32string_view in) noexcept {
  if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::validate_utf32_scalar(in.data(), in.size());
  return detail::kernel_fn<&detail::kernel_table::validate_utf32>()(in.data(), in.size());
}

/// Code points in UTF-16: one per surrogate pair or other unit; each unpaired surrogate counts
/// as one (the U+FFFD a lossy conversion writes for it).
constexpr std::size_t count_utf16(std::u16string_view in) noexcept {
  if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::count_utf16_scalar(in.data(), in.size());
  return detail::kernel_fn<&detail::kernel_table::count_utf16>()(in.data(), in.size());
}

/// Copies UTF-16 to `out` (in.size() units) with each unpaired surrogate replaced by U+FFFD;
/// `out` may be in.data() (in place) but must not otherwise overlap. Returns the units written.
inline std::size_t to_well_formed_utf16(std::u16string_view in, char16_t* out) noexcept {
  return detail::kernel_fn<&detail::kernel_table::to_well_formed_utf16>()(in.data(), in.size(), out);
}

/// UTF-16 to UTF-32 into `out`; an unpaired surrogate is an error (see validate_utf16). Policies
/// as for utf8_to_utf32: strict stops before it, replace writes the replacement, assume_valid.
template <class Policy = strict, detail::enable_if_policy<Policy> = 0>
conversion_result utf16_to_utf32(std::u16string_view in, char32_t* out, Policy policy = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf16_to_utf32>()(in.data(), in.size(), out,
                                                                    detail::kernel_replacement(policy));
}

/// UTF-32 to UTF-16 into `out`; surrogates (`surrogate`) and values above 0x10FFFF (`too_large`) are errors.
template <class Policy = strict, detail::enable_if_policy<Policy> = 0>
conversion_result utf32_to_utf16(std::u32string_view in, char16_t* out, Policy policy = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf32_to_utf16>()(in.data(), in.size(), out,
                                                                    detail::kernel_replacement(policy));
}

/// char32_t units utf16_to_utf32 writes: exact for every policy on well-formed input and for
/// replace and assume_valid on any input; an upper bound for strict.
constexpr std::size_t utf32_length_from_utf16(std::u16string_view in, replace = {}) noexcept {
  return count_utf16(in);
}

/// char16_t units utf32_to_utf16 writes (same guarantees; replacements counted with `r`'s).
constexpr std::size_t utf16_length_from_utf32(std::u32string_view in, replace r = {}) noexcept {
  std::size_t total = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const decoded d = detail::decode_utf32_at(in.data(), in.size(), i);
    total += (d.error == error_code::none ? d.code_point : r.replacement_value()) >= 0x10000 ? 2u : 1u;
  }
  return total;
}

/// char32_t units utf16_to_utf32 writes under skip (exact): utf32_length_from_utf16(in, skip{}).
template <class Skip, detail::enable_if_skip<Skip> = 0>
constexpr std::size_t utf32_length_from_utf16(std::u16string_view in, Skip) noexcept {
  std::size_t count = 0;
  for (std::size_t i = 0; i < in.size();) {
    const decoded d = detail::decode_utf16_at(in.data(), in.size(), i);
    count += d.error == error_code::none;
    i += d.length;
  }
  return count;
}

/// char16_t units utf32_to_utf16 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
constexpr std::size_t utf16_length_from_utf32(std::u32string_view in, Skip) noexcept {
  std::size_t total = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const decoded d = detail::decode_utf32_at(in.data(), in.size(), i);
    if (d.error == error_code::none) total += d.code_point >= 0x10000 ? 2u : 1u;
  }
  return total;
}

// ---- UTF-16 and UTF-32 in a stated byte order. ----------------------------------------------
// A std::u16string_view / std::u32string_view or char16_t* / char32_t* here holds units whose bytes
// are stored in the named order (UTF-16LE, UTF-32LE: lowest byte first), whatever the host's order;
// on a host of that order these are the plain UTF-16 / UTF-32 functions.

/// True when the host stores units little-endian: host-order UTF-16 and UTF-32 (what the plain
/// functions read and write) are then UTF-16LE and UTF-32LE, else UTF-16BE and UTF-32BE.
inline constexpr bool host_is_little_endian = detail::host_little_endian;

/// Exchanges the two bytes of every unit (UTF-16LE <-> UTF-16BE) into `out` (in.size() units);
/// `out` may be in.data(). Returns the units written.
inline std::size_t change_endianness_utf16(std::u16string_view in, char16_t* out) noexcept {
  return detail::kernel_fn<&detail::kernel_table::change_endianness_utf16>()(in.data(), in.size(), out);
}

/// Reverses the four bytes of every unit (UTF-32LE <-> UTF-32BE) into `out` (in.size() units);
/// `out` may be in.data(). Returns the units written.
inline std::size_t change_endianness_utf32(std::u32string_view in, char32_t* out) noexcept {
  return detail::kernel_fn<&detail::kernel_table::change_endianness_utf32>()(in.data(), in.size(), out);
}

/// validate_utf16 on UTF-16LE.
inline validation_result validate_utf16le(std::u16string_view in) noexcept {
  return detail::validate_utf_in_order<true>(in);
}

/// validate_utf16 on UTF-16BE.
inline validation_result validate_utf16be(std::u16string_view in) noexcept {
  return detail::validate_utf_in_order<false>(in);
}

/// validate_utf32 on UTF-32LE.
inline validation_result validate_utf32le(std::u32string_view in) noexcept {
  return detail::validate_utf_in_order<true>(in);
}

/// validate_utf32 on UTF-32BE.
inline validation_result validate_utf32be(std::u32string_view in) noexcept {
  return detail::validate_utf_in_order<false>(in);
}

/// utf8_to_utf16 writing UTF-16LE (same policies and result; size `out` with utf16_length_from_utf8).
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf16le(const Bytes& bytes, char16_t* out, Policy policy = {}) noexcept {
  return detail::utf8_to_utf_in_order<true>(bytes, out, policy);
}

/// utf8_to_utf16 writing UTF-16BE.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf16be(const Bytes& bytes, char16_t* out, Policy policy = {}) noexcept {
  return detail::utf8_to_utf_in_order<false>(bytes, out, policy);
}

/// utf8_to_utf32 writing UTF-32LE (same policies and result; size `out` with utf32_length_from_utf8).
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf32le(const Bytes& bytes, char32_t* out, Policy policy = {}) noexcept {
  return detail::utf8_to_utf_in_order<true>(bytes, out, policy);
}

/// utf8_to_utf32 writing UTF-32BE.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf32be(const Bytes& bytes, char32_t* out, Policy policy = {}) noexcept {
  return detail::utf8_to_utf_in_order<false>(bytes, out, policy);
}

/// utf16_to_utf8 reading UTF-16LE (same policies and result; size `out` with utf8_length_from_utf16le).
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf16le_to_utf8(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::utf_in_order_to_utf8<true>(in, out, policy);
}

/// utf16_to_utf8 reading UTF-16BE.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf16be_to_utf8(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::utf_in_order_to_utf8<false>(in, out, policy);
}

/// utf32_to_utf8 reading UTF-32LE (same policies and result; size `out` with utf8_length_from_utf32le).
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf32le_to_utf8(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::utf_in_order_to_utf8<true>(in, out, policy);
}

/// utf32_to_utf8 reading UTF-32BE.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf32be_to_utf8(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::utf_in_order_to_utf8<false>(in, out, policy);
}

/// Bytes utf16le_to_utf8 writes (the guarantees of utf8_length_from_utf16).
inline std::size_t utf8_length_from_utf16le(std::u16string_view in, replace r = {}) noexcept {
  return detail::utf8_length_from_utf_in_order<true>(in, r);
}

/// Bytes utf16be_to_utf8 writes.
inline std::size_t utf8_length_from_utf16be(std::u16string_view in, replace r = {}) noexcept {
  return detail::utf8_length_from_utf_in_order<false>(in, r);
}

/// Bytes utf32le_to_utf8 writes (the guarantees of utf8_length_from_utf32).
inline std::size_t utf8_length_from_utf32le(std::u32string_view in, replace r = {}) noexcept {
  return detail::utf8_length_from_utf_in_order<true>(in, r);
}

/// Bytes utf32be_to_utf8 writes.
inline std::size_t utf8_length_from_utf32be(std::u32string_view in, replace r = {}) noexcept {
  return detail::utf8_length_from_utf_in_order<false>(in, r);
}

/// Bytes utf16le_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf16le(std::u16string_view in, Skip) noexcept {
  return detail::utf8_length_from_utf_in_order<true>(in, skip{});
}

/// Bytes utf16be_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf16be(std::u16string_view in, Skip) noexcept {
  return detail::utf8_length_from_utf_in_order<false>(in, skip{});
}

/// Bytes utf32le_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf32le(std::u32string_view in, Skip) noexcept {
  return detail::utf8_length_from_utf_in_order<true>(in, skip{});
}

/// Bytes utf32be_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf32be(std::u32string_view in, Skip) noexcept {
  return detail::utf8_length_from_utf_in_order<false>(in, skip{});
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
