// utf8dfa: output-bounded, resumable conversion. Every bulk conversion also takes a capacity
// (`utf8_to_utf16(bytes, out, capacity, policy)`): it writes at most `capacity` output units, only
// whole characters (never half a surrogate pair, nor part of a replacement character), and returns
// {read, written, error}. When `out` is full, error is none (under strict) and read < the input
// size: a call on the input from `read`, with fresh space, goes on. The calls' outputs, joined, are
// exactly what one unbounded call writes, for every capacity, every policy and every kernel; the
// error is that of the unbounded call over the input each one read (under strict, a call that meets
// the first error stops there as the unbounded call does, even with no room left).
//
// How: chunks of input go through the plain (kernel-dispatched) conversion while their output surely
// fits (sized by the room left and the widest output a unit can give); a short rest that may fit is
// converted once into a buffer on the stack and kept if it does; with little room left, a stretch
// whose output length (the length helpers) fits; the last characters one at a time, each converted
// alone and kept if it fits. Chunks end only between characters or maximal ill-formed subparts,
// where the DFA starts afresh, so nothing differs from one call but, at a chunk's end, an error's
// kind, which is taken from the whole input. A policy may write less than its replacement_value()
// for an error (or nothing), never more.
#ifndef UTF8DFA_BOUNDED_HPP
#define UTF8DFA_BOUNDED_HPP

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "detail/bytes.hpp"
#include "detail/dfa.hpp"
#include "detail/dispatch.hpp"
#include "detail/scalar.hpp"
#include "error.hpp"
#include "latin1.hpp"
#include "policy.hpp"
#include "transcode.hpp"
#include "utf16.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

template <class T, class = void>
struct has_replacement_value : std::false_type {};
template <class T>
struct has_replacement_value<T, std::void_t<decltype(std::declval<const T&>().replacement_value())>> : std::true_type {
};

/// A scalar value at least as long, in every encoding, as what the policy writes for one error: its
/// replacement (a policy that writes less, or nothing, is bounded by it too), else the longest.
template <class Policy>
constexpr char32_t widest_write(const Policy& pol) noexcept {
  if constexpr (has_replacement_value<Policy>::value) {
    const char32_t r = pol.replacement_value();
    if (r <= 0x10FFFF && (r < 0xD800 || r > 0xDFFF)) return r;
  }
  return 0x10FFFF;
}

constexpr std::size_t utf16_units(char32_t c) noexcept {
  return c >= 0x10000 ? 2 : 1;
}

/// How the bounded driver reads an input form: `piece` decodes the character or maximal ill-formed
/// subpart at i in the whole input; `cut` is a piece boundary at or before c (c < n); `last_piece`
/// is where the last piece of [begin, end) starts.
struct utf8_pieces {
  using unit = unsigned char;
  static decoded piece(const unit* p, std::size_t n, std::size_t i) noexcept { return decode_at(p, n, i); }
  static std::size_t cut(const unit* p, std::size_t c) noexcept { return utf8_chunk_end(p, c); }
  static std::size_t last_piece(const unit* p, std::size_t begin, std::size_t end) noexcept {
    std::size_t j = end - 1;
    while (j > begin && end - j < 4 && is_continuation(p[j])) --j;
    return j;
  }
};

struct utf16_pieces {
  using unit = char16_t;
  static decoded piece(const unit* p, std::size_t n, std::size_t i) noexcept { return decode_utf16_at(p, n, i); }
  static std::size_t cut(const unit* p, std::size_t c) noexcept {
    return (p[c - 1] & 0xFC00) == 0xD800 && (p[c] & 0xFC00) == 0xDC00 ? c - 1 : c;
  }
  static std::size_t last_piece(const unit*, std::size_t, std::size_t end) noexcept { return end - 1; }
};

struct utf32_pieces {
  using unit = char32_t;
  static decoded piece(const unit* p, std::size_t n, std::size_t i) noexcept { return decode_utf32_at(p, n, i); }
  static std::size_t cut(const unit*, std::size_t c) noexcept { return c; }
  static std::size_t last_piece(const unit*, std::size_t, std::size_t end) noexcept { return end - 1; }
};

struct latin1_pieces {
  using unit = unsigned char;
  static decoded piece(const unit* p, std::size_t, std::size_t i) noexcept { return {p[i], 1, error_code::none}; }
  static std::size_t cut(const unit*, std::size_t c) noexcept { return c; }
  static std::size_t last_piece(const unit*, std::size_t, std::size_t end) noexcept { return end - 1; }
};

/// A capacity: any integer type but bool (a braced `{}` third argument stays the default policy of
/// the unbounded overload); a negative one is 0.
template <class T>
using enable_if_capacity = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int>;

template <class T>
constexpr std::size_t capacity_of(T capacity) noexcept {
  if constexpr (std::is_signed_v<T>) {
    if (capacity < 0) return 0;
  }
  return static_cast<std::size_t>(capacity);
}

/// The bounded form of `convert(q, m, o)` (a plain conversion of input [q, q+m) into o) on input
/// [p, p+n) read by Pieces: each input unit writes at most `max_out` units, each output unit takes at
/// most `max_in` input units (short of errors a policy drops), `length(q, m)` is at least what
/// convert writes (exact for replace and well-formed input).
template <class Pieces, class Out, class Convert, class Length>
conversion_result convert_bounded(const typename Pieces::unit* p, std::size_t n, Out* out, std::size_t capacity,
                                  std::size_t max_out, std::size_t max_in, Convert convert, Length length) noexcept {
  constexpr std::size_t min_chunk = 64;  // a chunk sure to fit, of fewer input units, is not worth a call
  constexpr std::size_t few = 16;        // pieces converted one at a time before chunks again
  std::size_t i = 0, o = 0;
  error_code first = error_code::none;
  constexpr std::size_t scratch_units = 16384 / sizeof(Out);
  bool tried = false;
  // The kind of an error reported at `at` by a conversion of input that ended after it: cut off by
  // a chunk's end, a piece reads as incomplete; the whole input says what it is.
  const auto kind = [&](error_code e, std::size_t at) noexcept {
    if (e != error_code::incomplete) return e;
    const error_code whole = Pieces::piece(p, n, at).error;
    return whole != error_code::none ? whole : e;
  };
  for (;;) {
    const std::size_t rest = n - i, room = capacity - o;
    std::size_t end = n;
    if (rest > room / max_out) {
      const std::size_t sure = room / max_out;
      // Once, when the rest is short and may fit: converted into a buffer, kept if it fits. (Cheaper
      // than ever smaller chunks sure to fit, or than a length pass, where the conversion is fast.)
      if (!tried && rest <= scratch_units / max_out && rest / max_in <= room) {
        tried = true;
        Out scratch[scratch_units];
        const conversion_result r = convert(p + i, rest, scratch);
        if (r.written <= room) {
          std::copy_n(scratch, r.written, out + o);
          if (r.read < rest) return {i + r.read, o + r.written, kind(r.error, i + r.read)};
          return {n, o + r.written, first != error_code::none ? first : r.error};
        }
      }
      if (sure >= min_chunk) {
        end = Pieces::cut(p, i + sure);
      } else {  // little room: the input that could fill it, halved until its output fits
        const std::size_t window = room * max_in + max_in;
        end = rest <= window ? n : Pieces::cut(p, i + window);
        while (end > i && length(p + i, end - i) > room) end = end - i <= few ? i : Pieces::cut(p, i + (end - i) / 2);
      }
    }
    if (end > i || rest == 0) {
      const conversion_result r = convert(p + i, end - i, out + o);
      if (r.read < end - i) return {i + r.read, o + r.written, kind(r.error, i + r.read)};  // stopped at an error
      if (first == error_code::none && r.error != error_code::none)
        first = end < n ? kind(r.error, Pieces::last_piece(p, i, end)) : r.error;
      o += r.written;
      i = end;
      if (i == n) return {n, o, first};
      continue;
    }
    // One piece at a time, each converted alone and kept if it fits.
    for (std::size_t k = 0; k < few && i < n; ++k) {
      const decoded d = Pieces::piece(p, n, i);
      Out piece[8];
      const conversion_result r = convert(p + i, d.length, piece);
      if (r.read < d.length) return {i, o, kind(r.error, i)};
      if (r.written > capacity - o) return {i, o, first};
      for (std::size_t u = 0; u < r.written; ++u) out[o + u] = piece[u];
      if (first == error_code::none && r.error != error_code::none) first = kind(r.error, i);
      o += r.written;
      i += d.length;
    }
    if (i == n) return {n, o, first};
  }
}

/// utf16le/be_to_utf8, bounded, for units stored in the other byte order: chunks swapped into a
/// buffer, each converted bounded, an error's kind taken from the whole input.
template <class Policy>
conversion_result swapped_utf16_to_utf8_bounded(const char16_t* p, std::size_t n, unsigned char* out,
                                                std::size_t capacity, Policy policy) noexcept {
  const auto kind = [&](error_code e, std::size_t at) noexcept {
    if (e != error_code::incomplete) return e;
    const char16_t two[2] = {swap_bytes(p[at]), at + 1 < n ? swap_bytes(p[at + 1]) : char16_t{0}};
    return decode_utf16_at(two, at + 1 < n ? 2 : 1, 0).error;
  };
  constexpr std::size_t chunk = 256;
  char16_t buf[chunk];
  std::size_t o = 0;
  error_code first = error_code::none;
  for (std::size_t pos = 0; pos < n;) {
    std::size_t len = n - pos < chunk ? n - pos : chunk;
    for (std::size_t k = 0; k < len; ++k) buf[k] = swap_bytes(p[pos + k]);
    if (pos + len < n && (buf[len - 1] & 0xFC00) == 0xD800 && (swap_bytes(p[pos + len]) & 0xFC00) == 0xDC00) --len;
    const conversion_result r = utf16_to_utf8(std::u16string_view(buf, len), out + o, capacity - o, policy);
    if (r.error != error_code::none) {
      if (r.read < len && Policy::stops_on_error) return {pos + r.read, o + r.written, kind(r.error, pos + r.read)};
      if (first == error_code::none) first = kind(r.error, pos + len - 1);  // incomplete: the chunk's last unit
    }
    o += r.written;
    if (r.read < len) return {pos + r.read, o, first};
    pos += len;
  }
  return {n, o, first};
}

}  // namespace detail

// ---- UTF-8 <-> UTF-16 / UTF-32 (transcode.hpp). ------------------------------------------------

/// utf8_to_utf32 writing at most `capacity` units into `out`. Output full: read < size, no error
/// (under strict); call again from `read`.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf32(const Bytes& bytes, char32_t* out, Size capacity, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  const char32_t w = detail::widest_write(policy);
  return detail::convert_bounded<detail::utf8_pieces>(
      detail::as_uchars(s.data), s.size, out, detail::capacity_of(capacity), 1, 4,
      [&](const unsigned char* q, std::size_t m, char32_t* o) {
        return utf8_to_utf32(detail::byte_span_range<unsigned char>{q, m}, o, policy);
      },
      [&](const unsigned char* q, std::size_t m) {
        return detail::kernel_fn<&detail::kernel_table::utf32_length_from_utf8>()(q, m, w);
      });
}

/// utf8_to_utf16 writing at most `capacity` units (a surrogate pair whole or not at all).
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf16(const Bytes& bytes, char16_t* out, Size capacity, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  const char32_t w = detail::widest_write(policy);
  return detail::convert_bounded<detail::utf8_pieces>(
      detail::as_uchars(s.data), s.size, out, detail::capacity_of(capacity), detail::utf16_units(w), 3,
      [&](const unsigned char* q, std::size_t m, char16_t* o) {
        return utf8_to_utf16(detail::byte_span_range<unsigned char>{q, m}, o, policy);
      },
      [&](const unsigned char* q, std::size_t m) {
        return detail::kernel_fn<&detail::kernel_table::utf16_length_from_utf8>()(q, m, w);
      });
}

/// utf16_to_utf8 writing at most `capacity` bytes, whole characters only (WHATWG encodeInto: a
/// fixed byte buffer filled as far as whole characters go, `read` units and `written` bytes).
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf16_to_utf8(std::u16string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  const char32_t w = detail::widest_write(policy);
  const std::size_t widest = detail::utf8_width(w) > 3 ? 4 : 3;
  return detail::convert_bounded<detail::utf16_pieces>(
      in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity), widest, 1,
      [&](const char16_t* q, std::size_t m, unsigned char* o) {
        return utf16_to_utf8(std::u16string_view(q, m), o, policy);
      },
      [&](const char16_t* q, std::size_t m) {
        return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf16>()(q, m, w);
      });
}

/// utf32_to_utf8 writing at most `capacity` bytes, whole characters only.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf32_to_utf8(std::u32string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  const char32_t w = detail::widest_write(policy);
  return detail::convert_bounded<detail::utf32_pieces>(
      in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity), 4, 1,
      [&](const char32_t* q, std::size_t m, unsigned char* o) {
        return utf32_to_utf8(std::u32string_view(q, m), o, policy);
      },
      [&](const char32_t* q, std::size_t m) {
        return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf32>()(q, m, w);
      });
}

// ---- UTF-16 <-> UTF-32 and UTF-16 in a stated byte order (utf16.hpp). -------------------------

/// utf16_to_utf32 writing at most `capacity` units.
template <class Policy = strict, detail::enable_if_policy<Policy> = 0, class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf16_to_utf32(std::u16string_view in, char32_t* out, Size capacity, Policy policy = {}) noexcept {
  return detail::convert_bounded<detail::utf16_pieces>(
      in.data(), in.size(), out, detail::capacity_of(capacity), 1, 2,
      [&](const char16_t* q, std::size_t m, char32_t* o) {
        return utf16_to_utf32(std::u16string_view(q, m), o, policy);
      },
      [](const char16_t* q, std::size_t m) { return count_utf16(std::u16string_view(q, m)); });
}

/// utf32_to_utf16 writing at most `capacity` units (a surrogate pair whole or not at all).
template <class Policy = strict, detail::enable_if_policy<Policy> = 0, class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf32_to_utf16(std::u32string_view in, char16_t* out, Size capacity, Policy policy = {}) noexcept {
  const char32_t w = detail::widest_write(policy);
  return detail::convert_bounded<detail::utf32_pieces>(
      in.data(), in.size(), out, detail::capacity_of(capacity), 2, 1,
      [&](const char32_t* q, std::size_t m, char16_t* o) {
        return utf32_to_utf16(std::u32string_view(q, m), o, policy);
      },
      [&](const char32_t* q, std::size_t m) { return utf16_length_from_utf32(std::u32string_view(q, m), replace{w}); });
}

/// utf8_to_utf16le writing at most `capacity` units.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf16le(const Bytes& bytes, char16_t* out, Size capacity, Policy policy = {}) noexcept {
  const conversion_result r = utf8_to_utf16(bytes, out, detail::capacity_of(capacity), policy);
  if constexpr (!detail::host_little_endian) change_endianness_utf16(std::u16string_view(out, r.written), out);
  return r;
}

/// utf8_to_utf16be writing at most `capacity` units.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf16be(const Bytes& bytes, char16_t* out, Size capacity, Policy policy = {}) noexcept {
  const conversion_result r = utf8_to_utf16(bytes, out, detail::capacity_of(capacity), policy);
  if constexpr (detail::host_little_endian) change_endianness_utf16(std::u16string_view(out, r.written), out);
  return r;
}

/// utf16le_to_utf8 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf16le_to_utf8(std::u16string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  if constexpr (detail::host_little_endian)
    return utf16_to_utf8(in, out, detail::capacity_of(capacity), policy);
  else
    return detail::swapped_utf16_to_utf8_bounded(in.data(), in.size(), detail::as_uchars(out),
                                                 detail::capacity_of(capacity), policy);
}

/// utf16be_to_utf8 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf16be_to_utf8(std::u16string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  if constexpr (!detail::host_little_endian)
    return utf16_to_utf8(in, out, detail::capacity_of(capacity), policy);
  else
    return detail::swapped_utf16_to_utf8_bounded(in.data(), in.size(), detail::as_uchars(out),
                                                 detail::capacity_of(capacity), policy);
}

// ---- Latin-1 (latin1.hpp). -------------------------------------------------------------------

/// latin1_to_utf8 writing at most `capacity` bytes (80..FF take two); never fails.
template <class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_byte<Byte> = 0, class Size,
          detail::enable_if_capacity<Size> = 0>
conversion_result latin1_to_utf8(const Bytes& bytes, Byte* out, Size capacity) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::convert_bounded<detail::latin1_pieces>(
      detail::as_uchars(s.data), s.size, detail::as_uchars(out), detail::capacity_of(capacity), 2, 1,
      [](const unsigned char* q, std::size_t m, unsigned char* o) {
        return conversion_result{m, latin1_to_utf8(detail::byte_span_range<unsigned char>{q, m}, o), error_code::none};
      },
      [](const unsigned char* q, std::size_t m) {
        return utf8_length_from_latin1(detail::byte_span_range<unsigned char>{q, m});
      });
}

/// latin1_to_utf16 writing at most `capacity` units; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0, class Size, detail::enable_if_capacity<Size> = 0>
conversion_result latin1_to_utf16(const Bytes& bytes, char16_t* out, Size capacity) noexcept {
  const auto s = detail::as_span(bytes);
  const std::size_t m = s.size < detail::capacity_of(capacity) ? s.size : detail::capacity_of(capacity);
  return {m, latin1_to_utf16(detail::byte_span_range<unsigned char>{detail::as_uchars(s.data), m}, out),
          error_code::none};
}

/// latin1_to_utf32 writing at most `capacity` units; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0, class Size, detail::enable_if_capacity<Size> = 0>
conversion_result latin1_to_utf32(const Bytes& bytes, char32_t* out, Size capacity) noexcept {
  const auto s = detail::as_span(bytes);
  const std::size_t m = s.size < detail::capacity_of(capacity) ? s.size : detail::capacity_of(capacity);
  return {m, latin1_to_utf32(detail::byte_span_range<unsigned char>{detail::as_uchars(s.data), m}, out),
          error_code::none};
}

/// utf8_to_latin1 writing at most `capacity` bytes.
template <class Policy = strict, class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0, class Size,
          detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_latin1(const Bytes& bytes, Byte* out, Size capacity, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::convert_bounded<detail::utf8_pieces>(
      detail::as_uchars(s.data), s.size, detail::as_uchars(out), detail::capacity_of(capacity), 1, 4,
      [&](const unsigned char* q, std::size_t m, unsigned char* o) {
        return utf8_to_latin1(detail::byte_span_range<unsigned char>{q, m}, o, policy);
      },
      [](const unsigned char* q, std::size_t m) {
        return detail::kernel_fn<&detail::kernel_table::utf32_length_from_utf8>()(q, m, replacement_character);
      });
}

/// utf16_to_latin1 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf16_to_latin1(std::u16string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  return detail::convert_bounded<detail::utf16_pieces>(
      in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity), 1, 2,
      [&](const char16_t* q, std::size_t m, unsigned char* o) {
        return utf16_to_latin1(std::u16string_view(q, m), o, policy);
      },
      [](const char16_t* q, std::size_t m) { return count_utf16(std::u16string_view(q, m)); });
}

/// utf32_to_latin1 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf32_to_latin1(std::u32string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  return detail::convert_bounded<detail::utf32_pieces>(
      in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity), 1, 1,
      [&](const char32_t* q, std::size_t m, unsigned char* o) {
        return utf32_to_latin1(std::u32string_view(q, m), o, policy);
      },
      [](const char32_t*, std::size_t m) { return m; });
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
