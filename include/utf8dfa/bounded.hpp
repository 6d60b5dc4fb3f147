// utf8dfa: output-bounded, resumable conversion. Every bulk conversion also takes a capacity
// (`utf8_to_utf16(bytes, out, capacity, policy)`, `recode(bytes, out, capacity, policy, From{},
// To{})`): it writes at most `capacity` output units, only whole characters (never half a surrogate
// pair, nor part of a replacement character), and returns {read, written, error}. When `out` is
// full, error is none (under strict) and read < the input size: a call on the input from `read`,
// with fresh space, goes on. The calls' outputs, joined, are exactly what one unbounded call writes,
// for every capacity, every policy and every kernel; the error is that of the unbounded call over
// the input each one read (under strict, a call that meets the first error stops there as the
// unbounded call does, even with no room left).
//
// How: chunks of input go through the plain (kernel-dispatched) conversion while their output surely
// fits (sized by the room left and the widest output a unit can give); a short rest that may fit is
// converted once into a buffer on the stack and kept if it does; with little room left, a stretch
// whose output length (the length helpers) fits; the last characters one at a time, each converted
// alone and kept if it fits. Chunks end only between characters or maximal ill-formed subparts,
// where the DFA starts afresh (the pieces below; a few are more than one character), so nothing
// differs from one call but, at a chunk's end, an error's kind, which is taken from the whole input.
// A policy may write less than its replacement_value() for an error (or nothing), never more.
#ifndef UTF8DFA_BOUNDED_HPP
#define UTF8DFA_BOUNDED_HPP

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
/// subpart at i in the whole input (a piece is never split: the calls from there on, each reading
/// from a piece's start, write what one call writes); `cut` is a piece boundary at or before c, given
/// one at `from` (from < c < n); `last_piece` is where the last piece of [begin, end) starts.
struct utf8_pieces {
  using unit = unsigned char;
  static decoded piece(const unit* p, std::size_t n, std::size_t i) noexcept { return decode_at(p, n, i); }
  static std::size_t cut(const unit* p, std::size_t, std::size_t, std::size_t c) noexcept {
    return utf8_chunk_end(p, c);
  }
  static std::size_t last_piece(const unit* p, std::size_t, std::size_t begin, std::size_t end) noexcept {
    std::size_t j = end - 1;
    while (j > begin && end - j < 4 && is_continuation(p[j])) --j;
    return j;
  }
};

struct utf16_pieces {
  using unit = char16_t;
  static decoded piece(const unit* p, std::size_t n, std::size_t i) noexcept { return decode_utf16_at(p, n, i); }
  static std::size_t cut(const unit* p, std::size_t, std::size_t, std::size_t c) noexcept {
    return (p[c - 1] & 0xFC00) == 0xD800 && (p[c] & 0xFC00) == 0xDC00 ? c - 1 : c;
  }
  static std::size_t last_piece(const unit*, std::size_t, std::size_t, std::size_t end) noexcept { return end - 1; }
};

struct utf32_pieces {
  using unit = char32_t;
  static decoded piece(const unit* p, std::size_t n, std::size_t i) noexcept { return decode_utf32_at(p, n, i); }
  static std::size_t cut(const unit*, std::size_t, std::size_t, std::size_t c) noexcept { return c; }
  static std::size_t last_piece(const unit*, std::size_t, std::size_t, std::size_t end) noexcept { return end - 1; }
};

struct latin1_pieces {
  using unit = unsigned char;
  static decoded piece(const unit* p, std::size_t, std::size_t i) noexcept { return {p[i], 1, error_code::none}; }
  static std::size_t cut(const unit*, std::size_t, std::size_t, std::size_t c) noexcept { return c; }
  static std::size_t last_piece(const unit*, std::size_t, std::size_t, std::size_t end) noexcept { return end - 1; }
};

constexpr bool is_lead_surrogate(char32_t c) noexcept {
  return c >= 0xD800 && c <= 0xDBFF;
}
constexpr bool is_trail_surrogate(char32_t c) noexcept {
  return c >= 0xDC00 && c <= 0xDFFF;
}

/// A piece that may be longer than a character (decoded's length is at most 6).
struct piece_span {
  std::size_t length;
  error_code error;
};

/// UTF-32 written as WTF-8, which joins a lead surrogate and the trail surrogate after it into one
/// character: the two values are one piece, with (Skip: skip writes nothing for them, so the writer
/// still joins) the values above 0x10FFFF between them.
template <bool Skip>
struct utf32_joined_pieces : utf32_pieces {
  static bool skipped(char32_t u) noexcept { return Skip && u > 0x10FFFF; }
  static piece_span piece(const unit* p, std::size_t n, std::size_t i) noexcept {
    if (is_lead_surrogate(p[i])) {
      std::size_t k = i + 1;
      while (k < n && skipped(p[k])) ++k;
      if (k < n && is_trail_surrogate(p[k])) return {k + 1 - i, error_code::none};
    }
    return {1, decode_utf32_at(p, n, i).error};
  }
  /// The lead surrogate whose piece ends with a trail surrogate at or after c, else c.
  static std::size_t cut(const unit* p, std::size_t n, std::size_t from, std::size_t c) noexcept {
    std::size_t k = c;
    while (k < n && skipped(p[k])) ++k;
    if (k == n || !is_trail_surrogate(p[k])) return c;
    std::size_t j = c;
    while (j > from && skipped(p[j - 1])) --j;
    return j > from && is_lead_surrogate(p[j - 1]) ? j - 1 : c;
  }
  static std::size_t last_piece(const unit* p, std::size_t n, std::size_t begin, std::size_t end) noexcept {
    return end - 1 > begin ? cut(p, n, begin, end - 1) : begin;
  }
};

/// UTF-32 stored in the other byte order than the host's.
struct swapped_utf32_pieces : utf32_pieces {
  static decoded piece(const unit* p, std::size_t, std::size_t i) noexcept {
    const char32_t u = swap_bytes(p[i]);
    return decode_utf32_at(&u, 1, 0);
  }
};

/// Dialect-D bytes, read by D's automaton from the boundary state where each piece starts. More
/// than one character or subpart is one piece where a call from the second would read or write
/// otherwise than one call:
///  - WTF-8: a lead surrogate before ED B0-BF. There the ED is refused (no trail surrogate right
///    after a lead one); read from the ED, ED B0 would begin a trail surrogate. The piece takes the
///    ED and the byte after it (a stray continuation byte either way).
///  - Written as WTF-8 (Join): a lead surrogate character, and a trail surrogate character after it
///    (legacy input), which the writer joins into one 4-byte character; under skip (Skip), which
///    writes nothing for an error, with the errors between them.
template <class D, bool Join, bool Skip>
struct dialect_pieces {
  using unit = unsigned char;
  static decoded read(const unit* p, std::size_t n, std::size_t i) noexcept {
    auto at = boundary_before<D>(p, i);
    return decode_with<machine_of<D>>(p, n, i, at);
  }
  static piece_span piece(const unit* p, std::size_t n, std::size_t i) noexcept {
    const decoded d = read(p, n, i);
    if (d.error != error_code::none || !is_lead_surrogate(d.code_point)) return {d.length, d.error};
    if constexpr (Join) {
      for (std::size_t k = i + d.length; k < n;) {
        const decoded t = read(p, n, k);
        if (t.error == error_code::none && is_trail_surrogate(t.code_point))
          return {k + t.length - i, error_code::none};
        if (!Skip || (t.error == error_code::none && t.code_point <= 0x10FFFF)) break;
        k += t.length;
      }
    }
    if constexpr (std::is_same_v<D, dialect::wtf8>) {
      const std::size_t next = i + d.length;
      if (next + 1 < n && p[next] == 0xED && (p[next + 1] & 0xF0) == 0xB0) return {d.length + 2u, error_code::none};
    }
    return {d.length, d.error};
  }
  /// Where a piece surely starts: at a byte that is neither a continuation byte nor ED (a pair or
  /// a prefix of one, in any dialect, holds only those), or after ED B0-BF and a continuation byte
  /// (a trail surrogate, the end of a pair, or stray bytes). Not so under Skip.
  static bool starts_piece(const unit* p, std::size_t j) noexcept {
    if (!is_continuation(p[j]) && p[j] != 0xED) return true;
    return j >= 3 && p[j - 3] == 0xED && (p[j - 2] & 0xF0) == 0xB0 && is_continuation(p[j - 1]);
  }
  static std::size_t cut(const unit* p, std::size_t n, std::size_t from, std::size_t c) noexcept {
    std::size_t at = from;  // pieces read forward from a nearby start, else from `from`
    if constexpr (!(Join && Skip)) {
      for (std::size_t j = c; j > from && c - j < 16; --j)
        if (starts_piece(p, j)) {
          at = j;
          break;
        }
    }
    for (std::size_t k = at; k <= c; k += piece(p, n, k).length) at = k;
    return at;
  }
  static std::size_t last_piece(const unit* p, std::size_t n, std::size_t begin, std::size_t end) noexcept {
    return end - 1 > begin ? cut(p, n, begin, end - 1) : begin;
  }
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
          for (std::size_t k = 0; k < r.written; ++k) out[o + k] = scratch[k];
          if (r.read < rest) return {i + r.read, o + r.written, kind(r.error, i + r.read)};
          return {n, o + r.written, first != error_code::none ? first : r.error};
        }
      }
      if (sure >= min_chunk) {
        end = Pieces::cut(p, n, i, i + sure);
      } else {  // little room: the input that could fill it, halved until its output fits
        const std::size_t window = room * max_in + max_in;
        end = rest <= window ? n : Pieces::cut(p, n, i, i + window);
        while (end > i && length(p + i, end - i) > room)
          end = end - i <= few ? i : Pieces::cut(p, n, i, i + (end - i) / 2);
      }
    }
    if (end > i || rest == 0) {
      const conversion_result r = convert(p + i, end - i, out + o);
      if (r.read < end - i) return {i + r.read, o + r.written, kind(r.error, i + r.read)};  // stopped at an error
      if (first == error_code::none && r.error != error_code::none)
        first = end < n ? kind(r.error, Pieces::last_piece(p, n, i, end)) : r.error;
      o += r.written;
      i = end;
      if (i == n) return {n, o, first};
      continue;
    }
    // One piece at a time, each converted alone and kept if it fits.
    for (std::size_t k = 0; k < few && i < n; ++k) {
      const auto d = Pieces::piece(p, n, i);
      Out piece[24];  // the most a piece writes: three subparts (WTF-8), 6 units each
      const conversion_result r = convert(p + i, d.length, piece);
      if (r.written > capacity - o) return {i, o, first};
      for (std::size_t u = 0; u < r.written; ++u) out[o + u] = piece[u];
      // Stopped at an error: at the piece's start, or after the character a joined piece begins with.
      if (r.read < d.length) return {i + r.read, o + r.written, kind(r.error, i + r.read)};
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

/// utf8_to_utf32le writing at most `capacity` units.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf32le(const Bytes& bytes, char32_t* out, Size capacity, Policy policy = {}) noexcept {
  const conversion_result r = utf8_to_utf32(bytes, out, detail::capacity_of(capacity), policy);
  if constexpr (!detail::host_little_endian) change_endianness_utf32(std::u32string_view(out, r.written), out);
  return r;
}

/// utf8_to_utf32be writing at most `capacity` units.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf32be(const Bytes& bytes, char32_t* out, Size capacity, Policy policy = {}) noexcept {
  const conversion_result r = utf8_to_utf32(bytes, out, detail::capacity_of(capacity), policy);
  if constexpr (detail::host_little_endian) change_endianness_utf32(std::u32string_view(out, r.written), out);
  return r;
}

namespace detail {
/// utf32le/be_to_utf8 (Little), bounded.
template <bool Little, class Policy>
conversion_result utf32_in_order_to_utf8_bounded(std::u32string_view in, unsigned char* out, std::size_t capacity,
                                                 Policy policy) noexcept {
  if constexpr (Little == host_little_endian) {
    return utf32_to_utf8(in, out, capacity, policy);
  } else {
    const char32_t w = widest_write(policy);
    return convert_bounded<swapped_utf32_pieces>(
        in.data(), in.size(), out, capacity, 4, 1,
        [&](const char32_t* q, std::size_t m, unsigned char* o) {
          return utf_in_order_to_utf8<Little>(std::u32string_view(q, m), o, policy);
        },
        [&](const char32_t* q, std::size_t m) {
          return utf8_length_from_utf_in_order<Little>(std::u32string_view(q, m), replace{w});
        });
  }
}
}  // namespace detail

/// utf32le_to_utf8 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf32le_to_utf8(std::u32string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  return detail::utf32_in_order_to_utf8_bounded<true>(in, detail::as_uchars(out), detail::capacity_of(capacity),
                                                      policy);
}

/// utf32be_to_utf8 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf32be_to_utf8(std::u32string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  return detail::utf32_in_order_to_utf8_bounded<false>(in, detail::as_uchars(out), detail::capacity_of(capacity),
                                                       policy);
}

// ---- The dialects (transcode.hpp), the capacity after `out` and the dialect tags last. --------
// A dialect's character (a CESU-8 pair, a WTF-8 surrogate, a legacy 6-byte form) is never split,
// nor a WTF-8 lead surrogate from a refused ED B0-BF after it (read alone, ED B0 could be a trail
// surrogate), nor, in WTF-8 output, a lead surrogate from the trail surrogate it joins.

/// Dialect bytes to UTF-32, at most `capacity` units (utf8_to_utf32(bytes, out, 64, replace{},
/// dialect::cesu8{})).
template <class Policy, class Dialect, class Bytes, class Size, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_capacity<Size> = 0, detail::enable_if_policy<Policy> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf8_to_utf32(const Bytes& bytes, char32_t* out, Size capacity, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf8_to_utf32(bytes, out, detail::capacity_of(capacity), policy);
  } else {
    const auto s = detail::as_span(bytes);
    const replace w{detail::widest_write(policy)};
    return detail::convert_bounded<detail::dialect_pieces<Dialect, false, false>>(
        detail::as_uchars(s.data), s.size, out, detail::capacity_of(capacity), 1, 6,
        [&](const unsigned char* q, std::size_t m, char32_t* o) {
          return detail::dialect_to_utf<Dialect>(q, m, o, policy);
        },
        [&](const unsigned char* q, std::size_t m) {
          return detail::dialect_to_utf<Dialect>(q, m, static_cast<char32_t*>(nullptr), w).written;
        });
  }
}

/// Dialect bytes to UTF-16, at most `capacity` units (a surrogate pair whole or not at all).
template <class Policy, class Dialect, class Bytes, class Size, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_capacity<Size> = 0, detail::enable_if_policy<Policy> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf8_to_utf16(const Bytes& bytes, char16_t* out, Size capacity, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf8_to_utf16(bytes, out, detail::capacity_of(capacity), policy);
  } else {
    const auto s = detail::as_span(bytes);
    const replace w{detail::widest_write(policy)};
    return detail::convert_bounded<detail::dialect_pieces<Dialect, false, false>>(
        detail::as_uchars(s.data), s.size, out, detail::capacity_of(capacity),
        detail::utf16_units(w.replacement_value()), 6,
        [&](const unsigned char* q, std::size_t m, char16_t* o) {
          return detail::dialect_to_utf<Dialect>(q, m, o, policy);
        },
        [&](const unsigned char* q, std::size_t m) {
          return detail::dialect_to_utf<Dialect>(q, m, static_cast<char16_t*>(nullptr), w).written;
        });
  }
}

/// UTF-16 to dialect bytes, at most `capacity` bytes.
template <class Policy, class Dialect, class Byte, class Size, detail::enable_if_byte<Byte> = 0,
          detail::enable_if_capacity<Size> = 0, detail::enable_if_policy<Policy> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf16_to_utf8(std::u16string_view in, Byte* out, Size capacity, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf16_to_utf8(in, out, detail::capacity_of(capacity), policy);
  } else {
    const replace w{detail::widest_write(policy)};
    const std::size_t width = detail::dialect_traits<Dialect>::width(w.replacement_value());
    const std::size_t widest = width > 3 ? width : 3;
    return detail::convert_bounded<detail::utf16_pieces>(
        in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity), widest, 1,
        [&](const char16_t* q, std::size_t m, unsigned char* o) {
          return detail::utf_to_dialect<Dialect>(q, m, o, policy);
        },
        [&](const char16_t* q, std::size_t m) { return detail::utf_to_dialect<Dialect>(q, m, nullptr, w).written; });
  }
}

/// UTF-32 to dialect bytes, at most `capacity` bytes.
template <class Policy, class Dialect, class Byte, class Size, detail::enable_if_byte<Byte> = 0,
          detail::enable_if_capacity<Size> = 0, detail::enable_if_policy<Policy> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf32_to_utf8(std::u32string_view in, Byte* out, Size capacity, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf32_to_utf8(in, out, detail::capacity_of(capacity), policy);
  } else {
    using pieces =
        std::conditional_t<std::is_same_v<Dialect, dialect::wtf8>,
                           detail::utf32_joined_pieces<detail::skips_errors_v<Policy>>, detail::utf32_pieces>;
    const replace w{detail::widest_write(policy)};
    return detail::convert_bounded<pieces>(
        in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity),
        detail::dialect_traits<Dialect>::max_length, 1,
        [&](const char32_t* q, std::size_t m, unsigned char* o) {
          return detail::utf_to_dialect<Dialect>(q, m, o, policy);
        },
        [&](const char32_t* q, std::size_t m) { return detail::utf_to_dialect<Dialect>(q, m, nullptr, w).written; });
  }
}

/// Dialect-From bytes to dialect-To bytes, at most `capacity` bytes (recode(bytes, out, 64,
/// replace{}, dialect::mutf8{}, dialect::utf8{})).
template <class Policy, class From, class To, class Bytes, class Byte, class Size, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_byte<Byte> = 0, detail::enable_if_capacity<Size> = 0, detail::enable_if_policy<Policy> = 0,
          detail::enable_if_dialect<From> = 0, detail::enable_if_dialect<To> = 0>
conversion_result recode(const Bytes& bytes, Byte* out, Size capacity, Policy policy, From, To) noexcept {
  const auto s = detail::as_span(bytes);
  const replace w{detail::widest_write(policy)};
  // Per input byte: 00 may become C0 80 (MUTF-8), a 4-byte character a 6-byte pair, one byte a replacement.
  const std::size_t width = detail::dialect_traits<To>::width(w.replacement_value());
  const std::size_t widest = width > 2 ? width : 2;
  return detail::convert_bounded<
      detail::dialect_pieces<From, std::is_same_v<To, dialect::wtf8>, detail::skips_errors_v<Policy>>>(
      detail::as_uchars(s.data), s.size, detail::as_uchars(out), detail::capacity_of(capacity), widest, 6,
      [&](const unsigned char* q, std::size_t m, unsigned char* o) {
        return detail::recode_scalar<From, To>(q, m, o, policy);
      },
      [&](const unsigned char* q, std::size_t m) { return detail::recode_scalar<From, To>(q, m, nullptr, w).written; });
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
