// utf8dfa: bulk conversion between UTF-8 and UTF-16 / UTF-32, with exact output-length helpers.
#ifndef UTF8DFA_TRANSCODE_HPP
#define UTF8DFA_TRANSCODE_HPP

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "detail/bytes.hpp"
#include "detail/dispatch.hpp"
#include "detail/scalar.hpp"
#include "dialect.hpp"
#include "error.hpp"
#include "policy.hpp"

#if UTF8DFA_HAS_EXCEPTIONS
#include <stdexcept>
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// Overloads for the skip policy are templates on it, so that a `{}` argument still means replace{}.
template <class Policy>
using enable_if_skip = std::enable_if_t<skips_errors_v<Policy>, int>;

/// The assume_valid overloads of the length helpers are templates on it for the same reason.
template <class Policy>
using enable_if_assume_valid = std::enable_if_t<std::is_same_v<Policy, assume_valid>, int>;

/// A policy as the kernels take it (kernel_table.hpp): strict_marker, skip_marker or the replacement.
template <class Policy>
constexpr char32_t kernel_replacement([[maybe_unused]] const Policy& pol) noexcept {
  if constexpr (Policy::stops_on_error)
    return strict_marker;
  else if constexpr (skips_errors_v<Policy>)
    return skip_marker;
  else
    return pol.replacement_value();
}

/// kernel_replacement for the UTF-8 decoders (utf8_to_utf32, utf8_to_utf16 and its other byte
/// order), which take assume_valid as valid_marker: a kernel may then skip validation (NEON, AVX2).
template <class Policy>
constexpr char32_t decode_replacement(const Policy& pol) noexcept {
  if constexpr (std::is_same_v<Policy, assume_valid>)
    return valid_marker;
  else
    return kernel_replacement(pol);
}

// ---- The dialects: scalar, one character at a time on the dialect's DFA. ---------------------

/// Why `c`, read in dialect D, cannot be written as Unicode text of code unit Out (char16_t,
/// char32_t, or a dialect tag To): error_code::none when it can. UTF-16 holds WTF-8's surrogates
/// (unpaired, as read) but no other dialect's; UTF-32 holds every value read, as read.
template <class D, class Out>
constexpr error_code unrepresentable(char32_t c) noexcept {
  if constexpr (std::is_same_v<Out, char32_t>) {
    return error_code::none;
  } else if constexpr (std::is_same_v<Out, char16_t>) {
    if (c > 0x10FFFF) return error_code::too_large;
    if (c >= 0xD800 && c <= 0xDFFF && !std::is_same_v<D, dialect::wtf8>) return error_code::surrogate;
    return error_code::none;
  } else {
    if (dialect_traits<Out>::encodable(c)) return error_code::none;
    return c >= 0xD800 && c <= 0xDFFF ? error_code::surrogate : error_code::too_large;
  }
}

/// Writes code points in dialect D, or only counts the bytes (out == nullptr). WTF-8 joins a lead
/// surrogate and the trail surrogate right after it into their supplementary character (the WTF-8
/// encoding of a code point sequence), so what it writes is always well-formed WTF-8.
template <class D>
struct dialect_writer {
  unsigned char* out;
  std::size_t written = 0;
  char32_t lead = 0;  // WTF-8: the lead surrogate just written, else 0

  void put(char32_t c) noexcept {
    if constexpr (std::is_same_v<D, dialect::wtf8>) {
      if (lead != 0 && c >= 0xDC00 && c <= 0xDFFF) {
        written -= 3;  // replace the lead surrogate's 3 bytes
        c = 0x10000 + ((lead - 0xD800) << 10) + (c - 0xDC00);
        lead = 0;
      } else {
        lead = c >= 0xD800 && c <= 0xDBFF ? c : 0;
      }
    }
    if (out != nullptr) {
      written += dialect_traits<D>::put(out + written, c);
    } else {
      written += dialect_traits<D>::width(c);
    }
  }
};

/// Dialect-D bytes to UTF-32 or UTF-16 (by Out); out == nullptr only counts. A character the
/// output cannot hold (see unrepresentable) is an error at its offset, like an ill-formed one.
template <class D, class Policy, class Out>
conversion_result dialect_to_utf(const unsigned char* p, std::size_t n, Out* out,
                                 [[maybe_unused]] Policy pol) noexcept {
  using M = machine_of<D>;
  typename M::state at = M::start;
  std::size_t i = 0, o = 0;
  error_code first = error_code::none;
  while (i < n) {
    const decoded d = decode_with<M>(p, n, i, at);
    char32_t c = d.code_point;
    error_code e = d.error;
    if (e == error_code::none) e = unrepresentable<D, Out>(c);
    const piece_action a = act_on(e, first, c, pol);
    if (a == piece_action::stop) return {i, o, e};
    if (a == piece_action::write) {
      if (out != nullptr)
        o += static_cast<std::size_t>(put_unit(out + o, c) - (out + o));
      else
        o += sizeof(Out) == 2 && c >= 0x10000 ? 2 : 1;
    }
    i += d.length;
  }
  return {n, o, first};
}

/// UTF-16 or UTF-32 (by In) to dialect-D bytes; out == nullptr only counts. An unpaired UTF-16
/// surrogate is written as such where D can encode it (WTF-8, legacy), else is an error.
template <class D, class Policy, class In>
conversion_result utf_to_dialect(const In* p, std::size_t n, unsigned char* out, [[maybe_unused]] Policy pol) noexcept {
  dialect_writer<D> w{out};
  error_code first = error_code::none;
  for (std::size_t i = 0; i < n;) {
    decoded d = decode_utf_at(p, n, i);
    if (d.error != error_code::none && dialect_traits<D>::encodable(p[i]))
      d = {static_cast<char32_t>(p[i]), 1, error_code::none};
    char32_t c = d.code_point;
    if (d.error == error_code::none && !dialect_traits<D>::encodable(c)) d.error = unrepresentable<dialect::utf8, D>(c);
    const piece_action a = act_on(d.error, first, c, pol);
    if (a == piece_action::stop) return {i, w.written, d.error};
    if (a == piece_action::write) w.put(c);
    i += d.length;
  }
  return {n, w.written, first};
}

/// Dialect-From bytes to dialect-To bytes; out == nullptr only counts.
template <class From, class To, class Policy>
conversion_result recode_scalar(const unsigned char* p, std::size_t n, unsigned char* out,
                                [[maybe_unused]] Policy pol) noexcept {
  using M = machine_of<From>;
  typename M::state at = M::start;
  dialect_writer<To> w{out};
  error_code first = error_code::none;
  for (std::size_t i = 0; i < n;) {
    const decoded d = decode_with<M>(p, n, i, at);
    char32_t c = d.code_point;
    error_code e = d.error;
    if (e == error_code::none) e = unrepresentable<From, To>(c);
    const piece_action a = act_on(e, first, c, pol);
    if (a == piece_action::stop) return {i, w.written, e};
    if (a == piece_action::write) w.put(c);
    i += d.length;
  }
  return {n, w.written, first};
}

template <class Str, class Run>
Str make_string(std::size_t size, Run run, conversion_result& status) {
  Str out(size, typename Str::value_type{});
  status = run(out.data());
  out.resize(status.written);
  return out;
}

/// Where a chunk of UTF-8 that would end at `cut` (inside the input, at least 3 bytes in) ends:
/// before the lead byte of the character or maximal ill-formed subpart that `cut` falls in, so that
/// none is split. Behind a run of four continuation bytes, the one at `cut` is a stray one (a
/// subpart of its own): the chunk ends at `cut`.
inline std::size_t utf8_chunk_end(const unsigned char* p, std::size_t cut) noexcept {
  std::size_t end = cut;
  for (int k = 0; k < 3 && is_continuation(p[end]); ++k) --end;
  return is_continuation(p[end]) ? cut : end;
}

/// Where a chunk of UTF-16 ends: not between a high surrogate and the unit after it.
inline std::size_t utf16_chunk_end(const char16_t* p, std::size_t cut) noexcept {
  return (p[cut - 1] & 0xFC00) == 0xD800 ? cut - 1 : cut;
}

inline std::size_t utf32_chunk_end(const char32_t*, std::size_t cut) noexcept {
  return cut;
}

/// Converts `p[base, end)` into `o + w`, advances `base` and `w`, records the first error in
/// `status`; true when it stopped at an error (strict), `status.read` then set.
template <class Out, class In, class Convert>
bool convert_piece(const In* p, std::size_t end, const Convert& convert, Out* o, std::size_t& base, std::size_t& w,
                   conversion_result& status) noexcept {
  const std::size_t len = end - base;
  const conversion_result r = convert(p + base, len, o + w);
  w += r.written;
  if (status.error == error_code::none) status.error = r.error;
  if (r.read != len) {
    status.read = base + r.read;
    return true;
  }
  base = end;
  status.read = end;
  return false;
}

/// Where a piece that may end at `cut` is cut: a multiple of 64 input units, so that on text whose
/// characters are all one unit long the next piece starts with its input and output as aligned as
/// the first (the vector kernels slow down by up to a quarter on ASCII when their loads and stores
/// cross cache lines that one call over the whole input would not cross).
constexpr std::size_t aligned_cut(std::size_t cut) noexcept {
  return cut & ~std::size_t{63};
}

/// Converts `p[base, n)` into `o` (room for `cap` units, `w` of them written) in pieces that surely
/// fit (each input unit writes at most `per_unit`), each cut by `chunk_end`. True when done (the end
/// of the input, or under strict the first error); false when the room left surely holds too little
/// of the rest (under 1024 units of input, or under an eighth of the rest).
template <std::size_t per_unit, class Out, class In, class Convert, class ChunkEnd>
bool convert_pieces(const In* p, std::size_t n, const Convert& convert, const ChunkEnd& chunk_end, Out* o,
                    std::size_t cap, std::size_t& base, std::size_t& w, conversion_result& status) noexcept {
  while (base < n) {
    const std::size_t fits = (cap - w) / per_unit;
    std::size_t end = n;
    if (n - base > fits) {
      if (fits < 1024 || fits < (n - base) / 8) return false;
      end = chunk_end(p, aligned_cut(base + fits));
    }
    if (convert_piece(p, end, convert, o, base, w, status)) return true;
  }
  return true;
}

// Before C++23 (no resize_and_overwrite) a string's characters cannot be left unwritten by standard
// means. The compiled library (UTF8DFA_SEPARATE_COMPILATION, whose implementation unit holds the
// string conversions) does it with libstdc++ through the library's own member that sets the length,
// reached once per program in that unit (detail/string_instances.hpp): a header-only library could
// not keep to once. UTF8DFA_NO_UNINITIALIZED_STRINGS, defined where the library is compiled, makes
// it fill its strings as other C++17 builds do.
#if defined(UTF8DFA_SEPARATE_COMPILATION) && defined(__GLIBCXX__) && defined(_GLIBCXX_USE_CXX11_ABI) && \
    _GLIBCXX_USE_CXX11_ABI == 1
#define UTF8DFA_DETAIL_SET_LENGTH_UNWRITTEN 1
/// Makes the length of `s` n (n <= s.capacity()) without writing the characters it adds (a
/// terminator follows them). Defined in the UTF8DFA_IMPLEMENTATION unit.
void set_length_unwritten(std::string& s, std::size_t n) noexcept;
void set_length_unwritten(std::u16string& s, std::size_t n) noexcept;
void set_length_unwritten(std::u32string& s, std::size_t n) noexcept;
#endif
#if defined(__cpp_lib_string_resize_and_overwrite) || \
    (defined(UTF8DFA_DETAIL_SET_LENGTH_UNWRITTEN) && !defined(UTF8DFA_NO_UNINITIALIZED_STRINGS))
#define UTF8DFA_DETAIL_UNWRITTEN_STRINGS 1
/// s.resize_and_overwrite(n, op): `op(data, n)` writes after the characters `s` holds and returns
/// the new length; the characters between are never written, copied or read.
template <class Str, class Op>
void overwrite_string(Str& s, std::size_t n, Op op) {
#if defined(__cpp_lib_string_resize_and_overwrite)
  s.resize_and_overwrite(n, op);
#else
  s.reserve(n);  // (copies the characters `s` holds, nothing more)
  set_length_unwritten(s, n);
  s.resize(op(&s[0], n));
#endif
}
#endif

/// A string more than 1/4 (and 4096 units) bigger than its contents gets a copy of just its contents
/// (shrink_to_fit is only a request: libstdc++ ignores it without exceptions).
template <class Str>
void shrink_if_far_too_big(Str& out) {
  const std::size_t w = out.size();
  if (out.capacity() - w > w / 4 + 4096) out = Str(out.data(), w);
}

/// The string a kernel conversion `convert(p, n, out)` writes, for input of which each unit writes at
/// most `per_unit` output units (`length(p, n)`: at least what it writes), with no length pass:
/// - output bound within 1 KiB (short strings, every build): one kernel call into a buffer on the
///   stack, copied into a string of the exact size (AVX-512, 64 B of UTF-8 to UTF-32: 1.28x -> 1.74x
///   simdutf's validate, length, allocate and convert, with g++; the pieces' code and a 16 KiB frame
///   around one call cost more than the call at that size);
/// - output bound within 16 KiB: one conversion into the string (C++23) or into a buffer on the stack;
/// - longer: the first 16 KiB of output, on the stack, give the ratio; the string is sized once to
///   the rest at that ratio plus 1/8 and one more piece (at most the bound), and the rest converted
///   straight into it in pieces that surely fit (a few calls). When the room left surely holds too
///   little of the rest, the rest's length is counted and the string grows only if it must.
/// Chosen by measurement (real text in cache, AVX-512 and AVX2) against the previous 16 KiB chunks
/// appended to the string (C++17) or grown into it (C++23), a length pass then one conversion (the
/// length helpers cost a third of a conversion or more: too much on the fast, mostly-ASCII text) and
/// one allocation of the upper bound (in C++17 all zero-filled; up to 4 times the output). Where a
/// string's characters cannot be left unwritten (no overwrite_string): up to 256 KiB of string, it
/// is filled once before the conversion (by memcpy appends: faster than resize's fill), which on
/// ASCII costs about half a conversion; a longer one (out of cache: a fill then a conversion would
/// pass over it twice, and filling and converting 64 KiB at a time was no faster) is reserved once
/// and the rest converted in 16 KiB chunks on the stack, each appended to it. A string more than 1/4 too big is
/// shrunk. The status is the one conversion's: `read` and `written` as if in one call; a piece's end
/// never changes what is written, only (under strict, at an error right before it) the error code,
/// which the caller may re-derive from the whole input.
template <class Str, std::size_t per_unit, class In, class Convert, class ChunkEnd, class Length>
Str convert_in_chunks(const In* p, std::size_t n, Convert convert, ChunkEnd chunk_end, Length length,
                      conversion_result& status) {
  using Out = typename Str::value_type;
  constexpr std::size_t buffer_units = 16384 / sizeof(Out);
  constexpr std::size_t short_units = 1024 / sizeof(Out);
  if (n <= short_units / per_unit) {
    alignas(64) Out small[short_units];
    const conversion_result r = convert(p, n, small);
    // Field by field: a copy of the whole stored the error byte and read it back in a wider load,
    // which waited for the store.
    status.read = r.read;
    status.written = r.written;
    status.error = r.error;
    return Str(small, r.written);
  }
  status = {0, 0, error_code::none};
  std::size_t base = 0, w = 0;
  alignas(64) Out buffer[buffer_units];  // not initialised: the conversion writes what is copied
  std::size_t cap = n * per_unit;
  if (n > buffer_units / per_unit) {
    const std::size_t first = chunk_end(p, aligned_cut(buffer_units / per_unit));
    if (convert_piece(p, first, convert, buffer, base, w, status)) {
      status.written = w;
      return Str(buffer, w);
    }
    // Room: what is written, the rest at the ratio so far plus 1/8, one more piece; at most the bound.
    const double rest = static_cast<double>(n - base);
    double want = static_cast<double>(w) + static_cast<double>(w) / static_cast<double>(base) * rest * 1.125 +
                  static_cast<double>(1024 * per_unit);
    const double bound = static_cast<double>(w) + rest * static_cast<double>(per_unit);
    if (want > bound) want = bound;
    const double limit = static_cast<double>(Str().max_size());
    cap = static_cast<std::size_t>(want < limit ? want : limit);
  }
#if !defined(__cpp_lib_string_resize_and_overwrite)
  if (base == 0) {  // short: on the stack, then copied at its exact size
    convert_pieces<per_unit>(p, n, convert, chunk_end, buffer, buffer_units, base, w, status);
    status.written = w;
    return Str(buffer, w);
  }
#endif
#if defined(UTF8DFA_DETAIL_UNWRITTEN_STRINGS)
  Str out;
  bool done = false;
  overwrite_string(out, cap, [&](Out* o, std::size_t) {
    Str::traits_type::copy(o, buffer, w);
    done = convert_pieces<per_unit>(p, n, convert, chunk_end, o, cap, base, w, status);
    return w;
  });
  if (!done) {  // the rest's length (an upper bound under strict): the string grows only if it must
    const std::size_t need = w + length(p + base, n - base);
    overwrite_string(out, need > cap ? need : cap, [&](Out* o, std::size_t) {
      convert_piece(p, n, convert, o, base, w, status);
      return w;
    });
  }
#else
  Str out;
  out.reserve(cap);
  out.append(buffer, w);
  if (cap > (256 << 10) / sizeof(Out)) {  // out of cache: the rest converted on the stack and appended
    const std::size_t chunk = aligned_cut(buffer_units / per_unit);
    while (base < n) {
      std::size_t chunk_written = 0;
      const bool stop = convert_piece(p, n - base <= chunk ? n : chunk_end(p, base + chunk), convert, buffer, base,
                                      chunk_written, status);
      out.append(buffer, chunk_written);
      w += chunk_written;
      if (stop) break;
    }
    shrink_if_far_too_big(out);
    status.written = w;
    return out;
  }
  // In cache: sized by appends (each a memcpy) of a zeroed buffer (the fill of resize and of the
  // (size, value) constructor goes one char16_t/char32_t at a time), then converted into.
  std::memset(buffer, 0, sizeof buffer);
  while (out.size() < cap) out.append(buffer, cap - out.size() < buffer_units ? cap - out.size() : buffer_units);
  if (!convert_pieces<per_unit>(p, n, convert, chunk_end, &out[0], cap, base, w, status)) {
    const std::size_t need = w + length(p + base, n - base);  // as above
    if (need > cap) out.resize(need);
    convert_piece(p, n, convert, &out[0], base, w, status);
  }
  out.resize(w);
#endif
  shrink_if_far_too_big(out);  // the rest wrote less than its room
  status.written = w;
  return out;
}

/// The replacement the length helpers take for `replacement` as the kernels take it: under strict,
/// U+FFFD, whose length is an upper bound of what strict writes.
constexpr char32_t length_replacement(char32_t replacement) noexcept {
  return replacement == strict_marker ? replacement_character : replacement;
}

/// UTF-8 to UTF-16 or UTF-32 (by Str) as a string, `replacement` as the kernels take it.
template <class Str>
Str utf8_to_string(const unsigned char* p, std::size_t n, char32_t replacement, conversion_result& status) {
  using Out = typename Str::value_type;
  Str out = convert_in_chunks<Str, 1>(
      p, n,
      [replacement](const unsigned char* q, std::size_t m, Out* o) {
        if constexpr (sizeof(Out) == 2)
          return kernel_fn<&kernel_table::utf8_to_utf16>()(q, m, o, replacement);
        else
          return kernel_fn<&kernel_table::utf8_to_utf32>()(q, m, o, replacement);
      },
      &utf8_chunk_end,
      [replacement](const unsigned char* q, std::size_t m) {
        if constexpr (sizeof(Out) == 2)
          return kernel_fn<&kernel_table::utf16_length_from_utf8>()(q, m, length_replacement(replacement));
        else
          return kernel_fn<&kernel_table::utf32_length_from_utf8>()(q, m, length_replacement(replacement));
      },
      status);
  // A chunk's end may have cut an incomplete character off from the byte that ends it: its error
  // code is the whole input's.
  if (status.error != error_code::none && status.read < n) status.error = decode_at(p, n, status.read).error;
  return out;
}

/// UTF-16 or UTF-32 (by In) to UTF-8 as a string.
template <class In>
std::string utf_to_utf8_string(const In* p, std::size_t n, char32_t replacement, conversion_result& status) {
  return convert_in_chunks < std::string,
         sizeof(In) == 2
             ? 3
             : 4 > (
                       p, n,
                       [replacement](const In* q, std::size_t m, char* o) {
                         if constexpr (sizeof(In) == 2)
                           return kernel_fn<&kernel_table::utf16_to_utf8>()(q, m, as_uchars(o), replacement);
                         else
                           return kernel_fn<&kernel_table::utf32_to_utf8>()(q, m, as_uchars(o), replacement);
                       },
                       [](const In* q, std::size_t cut) {
                         if constexpr (sizeof(In) == 2)
                           return utf16_chunk_end(q, cut);
                         else
                           return utf32_chunk_end(q, cut);
                       },
                       [replacement](const In* q, std::size_t m) {
                         if constexpr (sizeof(In) == 2)
                           return kernel_fn<&kernel_table::utf8_length_from_utf16>()(q, m,
                                                                                     length_replacement(replacement));
                         else
                           return kernel_fn<&kernel_table::utf8_length_from_utf32>()(q, m,
                                                                                     length_replacement(replacement));
                       },
                       status);
}

// With UTF8DFA_SEPARATE_COMPILATION the four string conversions behind the allocating helpers are
// compiled once, with the kernels (detail/string_instances.hpp, in the UTF8DFA_IMPLEMENTATION unit):
// a translation unit that includes this header neither instantiates them nor compiles them when it
// calls them. Two kinds of unit compile their own instead (both correct; the linker keeps one copy,
// as for any inline function): one whose strings have resize_and_overwrite (C++23), since the
// library, perhaps built as C++17, may fill its strings before writing them; and one built for
// libstdc++'s old string ABI (_GLIBCXX_USE_CXX11_ABI=0), whose strings are another type.
#if defined(UTF8DFA_SEPARATE_COMPILATION) && !defined(__cpp_lib_string_resize_and_overwrite) && \
    !(defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI == 0)
extern template std::u16string utf8_to_string<std::u16string>(const unsigned char*, std::size_t, char32_t,
                                                              conversion_result&);
extern template std::u32string utf8_to_string<std::u32string>(const unsigned char*, std::size_t, char32_t,
                                                              conversion_result&);
extern template std::string utf_to_utf8_string<char16_t>(const char16_t*, std::size_t, char32_t, conversion_result&);
extern template std::string utf_to_utf8_string<char32_t>(const char32_t*, std::size_t, char32_t, conversion_result&);
#endif

}  // namespace detail

// ---- Non-allocating core: the caller sizes `out` with the length helpers below. -----------------

/// UTF-8 to UTF-32 into `out`; under strict, stops before the first ill-formed subpart.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf32(const Bytes& bytes, char32_t* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf8_to_utf32>()(detail::as_uchars(s.data), s.size, out,
                                                                   detail::decode_replacement(policy));
}

/// UTF-8 to UTF-16 into `out` (supplementary characters as surrogate pairs).
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf16(const Bytes& bytes, char16_t* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf8_to_utf16>()(detail::as_uchars(s.data), s.size, out,
                                                                   detail::decode_replacement(policy));
}

/// UTF-16 to UTF-8 into `out`. Each unpaired surrogate is one error (`surrogate`, or `incomplete`
/// for a high surrogate that ends the input).
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf16_to_utf8(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf16_to_utf8>()(in.data(), in.size(), detail::as_uchars(out),
                                                                   detail::kernel_replacement(policy));
}

/// UTF-32 to UTF-8 into `out`. Surrogates (`surrogate`) and values above 0x10FFFF (`too_large`) are errors.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf32_to_utf8(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf32_to_utf8>()(in.data(), in.size(), detail::as_uchars(out),
                                                                   detail::kernel_replacement(policy));
}

// ---- Exact output sizes. ---------------------------------------------------------------------

/// char32_t units utf8_to_utf32 writes: exact for replace (with `r`'s replacement), assume_valid and
/// well-formed input; an upper bound for strict.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, replace r = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf32_length_from_utf8>()(detail::as_uchars(s.data), s.size,
                                                                            r.replacement_value());
}

/// char16_t units utf8_to_utf16 writes (same guarantees).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, replace r = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf16_length_from_utf8>()(detail::as_uchars(s.data), s.size,
                                                                            r.replacement_value());
}

/// Bytes utf16_to_utf8 writes (same guarantees).
inline std::size_t utf8_length_from_utf16(std::u16string_view in, replace r = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf16>()(in.data(), in.size(),
                                                                            r.replacement_value());
}

/// Bytes utf32_to_utf8 writes (same guarantees).
inline std::size_t utf8_length_from_utf32(std::u32string_view in, replace r = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf32>()(in.data(), in.size(),
                                                                            r.replacement_value());
}

/// char32_t units utf8_to_utf32 writes under skip (exact): utf32_length_from_utf8(bytes, skip{}).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, Skip) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf32_length_from_utf8>()(detail::as_uchars(s.data), s.size,
                                                                            detail::skip_marker);
}

/// char16_t units utf8_to_utf16 writes under skip (exact).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, Skip) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf16_length_from_utf8>()(detail::as_uchars(s.data), s.size,
                                                                            detail::skip_marker);
}

/// Bytes utf16_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf16(std::u16string_view in, Skip) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf16>()(in.data(), in.size(), detail::skip_marker);
}

/// Bytes utf32_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf32(std::u32string_view in, Skip) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf32>()(in.data(), in.size(), detail::skip_marker);
}

// Lengths of input known to be valid (assume_valid): the cost of count_code_points (no validation of
// UTF-8). Exact on well-formed input. On ill-formed input the result is the count described at each one,
// which need not be the size of any conversion's output (size buffers for such input with the
// replace overloads); nothing is read out of bounds.

/// char16_t units of valid UTF-8: its non-continuation bytes (not 80..BF), plus one for each byte
/// F0..FF.
template <class AssumeValid, class Bytes, detail::enable_if_assume_valid<AssumeValid> = 0,
          detail::enable_if_bytes<Bytes> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, AssumeValid) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf16_length>()(detail::as_uchars(s.data), s.size);
}

/// char32_t units of valid UTF-8: its non-continuation bytes (not 80..BF), as count_code_points.
template <class AssumeValid, class Bytes, detail::enable_if_assume_valid<AssumeValid> = 0,
          detail::enable_if_bytes<Bytes> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, AssumeValid) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::count_leads>()(detail::as_uchars(s.data), s.size);
}

/// Bytes of valid UTF-16 as UTF-8, no check made: each unit counted on its own, so on ill-formed
/// input a lone surrogate counts 2 (a pair's half).
template <class AssumeValid, detail::enable_if_assume_valid<AssumeValid> = 0>
std::size_t utf8_length_from_utf16(std::u16string_view in, AssumeValid) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf16>()(in.data(), in.size(), detail::valid_marker);
}

/// Bytes of valid UTF-32 as UTF-8, no check made: on ill-formed input, a surrogate or a value above
/// 0x10FFFF counts 3 (U+FFFD).
template <class AssumeValid, detail::enable_if_assume_valid<AssumeValid> = 0>
std::size_t utf8_length_from_utf32(std::u32string_view in, AssumeValid) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf32>()(in.data(), in.size(), detail::valid_marker);
}

// ---- Allocating helpers. ---------------------------------------------------------------------

/// UTF-8 to UTF-32, strict without exceptions: `status` reports the error; the result holds the
/// characters before it.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32(const Bytes& bytes, conversion_result& status) {
  const auto s = detail::as_span(bytes);
  return detail::utf8_to_string<std::u32string>(detail::as_uchars(s.data), s.size, detail::strict_marker, status);
}

/// UTF-8 to UTF-32, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32_lossy(const Bytes& bytes) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::utf8_to_string<std::u32string>(detail::as_uchars(s.data), s.size, replacement_character, status);
}

/// UTF-8 to UTF-16, strict without exceptions.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16(const Bytes& bytes, conversion_result& status) {
  const auto s = detail::as_span(bytes);
  return detail::utf8_to_string<std::u16string>(detail::as_uchars(s.data), s.size, detail::strict_marker, status);
}

/// UTF-8 to UTF-16, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16_lossy(const Bytes& bytes) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::utf8_to_string<std::u16string>(detail::as_uchars(s.data), s.size, replacement_character, status);
}

/// UTF-8 to UTF-32 with each maximal ill-formed subpart dropped (to_utf32_lossy(bytes, skip{})).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32_lossy(const Bytes& bytes, Skip) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::utf8_to_string<std::u32string>(detail::as_uchars(s.data), s.size, detail::skip_marker, status);
}

/// UTF-8 to UTF-16 with each maximal ill-formed subpart dropped (to_utf16_lossy(bytes, skip{})).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16_lossy(const Bytes& bytes, Skip) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::utf8_to_string<std::u16string>(detail::as_uchars(s.data), s.size, detail::skip_marker, status);
}

/// UTF-16 to UTF-8, strict without exceptions.
inline std::string to_utf8(std::u16string_view in, conversion_result& status) {
  return detail::utf_to_utf8_string(in.data(), in.size(), detail::strict_marker, status);
}

/// UTF-32 to UTF-8, strict without exceptions.
inline std::string to_utf8(std::u32string_view in, conversion_result& status) {
  return detail::utf_to_utf8_string(in.data(), in.size(), detail::strict_marker, status);
}

/// UTF-16 to UTF-8, one U+FFFD per unpaired surrogate; never fails.
inline std::string to_utf8_lossy(std::u16string_view in) {
  conversion_result status{};
  return detail::utf_to_utf8_string(in.data(), in.size(), replacement_character, status);
}

/// UTF-32 to UTF-8, one U+FFFD per surrogate or value above 0x10FFFF; never fails.
inline std::string to_utf8_lossy(std::u32string_view in) {
  conversion_result status{};
  return detail::utf_to_utf8_string(in.data(), in.size(), replacement_character, status);
}

/// UTF-16 to UTF-8 with each unpaired surrogate dropped (to_utf8_lossy(in, skip{})).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::string to_utf8_lossy(std::u16string_view in, Skip) {
  conversion_result status{};
  return detail::utf_to_utf8_string(in.data(), in.size(), detail::skip_marker, status);
}

/// UTF-32 to UTF-8 with each surrogate or value above 0x10FFFF dropped.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::string to_utf8_lossy(std::u32string_view in, Skip) {
  conversion_result status{};
  return detail::utf_to_utf8_string(in.data(), in.size(), detail::skip_marker, status);
}

// ---- The dialects (see dialect.hpp): the same functions with a dialect tag last. -------------
// dialect::utf8 runs the functions above. For the others: WTF-8 <-> UTF-16 is lossless (unpaired
// surrogates both ways); UTF-16 cannot hold a legacy value above 0x10FFFF (too_large) or a legacy
// surrogate (surrogate); UTF-32 output holds every value read, as read (WTF-8 surrogates, legacy
// values up to 0x7FFFFFFF): check them with is_scalar_value if they are to be Unicode text.

/// Dialect bytes to UTF-32 into `out` (utf8_to_utf32(bytes, out, strict{}, dialect::cesu8{})).
template <class Policy, class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf8_to_utf32(const Bytes& bytes, char32_t* out, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf8_to_utf32(bytes, out, policy);
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, out, policy);
  }
}

/// Dialect bytes to UTF-16 into `out`; WTF-8's unpaired surrogates become unpaired units.
template <class Policy, class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf8_to_utf16(const Bytes& bytes, char16_t* out, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf8_to_utf16(bytes, out, policy);
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, out, policy);
  }
}

/// UTF-16 to dialect bytes into `out`: WTF-8 (and legacy) write unpaired surrogates as 3 bytes and
/// never fail; CESU-8 and MUTF-8 write pairs as 6 bytes and refuse unpaired surrogates.
template <class Policy, class Dialect, class Byte, detail::enable_if_byte<Byte> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf16_to_utf8(std::u16string_view in, Byte* out, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf16_to_utf8(in, out, policy);
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), detail::as_uchars(out), policy);
}

/// UTF-32 to dialect bytes into `out`: a value the dialect cannot encode is an error (surrogate or
/// too_large). WTF-8 joins a lead surrogate followed by a trail surrogate into one character.
template <class Policy, class Dialect, class Byte, detail::enable_if_byte<Byte> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf32_to_utf8(std::u32string_view in, Byte* out, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf32_to_utf8(in, out, policy);
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), detail::as_uchars(out), policy);
}

/// Dialect-From bytes to dialect-To bytes into `out` (recode(bytes, out, replace{},
/// dialect::mutf8{}, dialect::utf8{})): a character To cannot encode is an error at its offset.
template <class Policy, class From, class To, class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_byte<Byte> = 0, detail::enable_if_dialect<From> = 0, detail::enable_if_dialect<To> = 0>
conversion_result recode(const Bytes& bytes, Byte* out, Policy policy, From, To) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::recode_scalar<From, To>(detail::as_uchars(s.data), s.size, detail::as_uchars(out), policy);
}

/// char32_t units utf8_to_utf32 writes in the dialect (the guarantees of utf32_length_from_utf8).
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, replace r, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf32_length_from_utf8(bytes, r);
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, static_cast<char32_t*>(nullptr), r)
        .written;
  }
}

/// char16_t units utf8_to_utf16 writes in the dialect.
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, replace r, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf16_length_from_utf8(bytes, r);
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, static_cast<char16_t*>(nullptr), r)
        .written;
  }
}

/// Bytes utf16_to_utf8 writes in the dialect.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf8_length_from_utf16(std::u16string_view in, replace r, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf8_length_from_utf16(in, r);
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), nullptr, r).written;
}

/// Bytes utf32_to_utf8 writes in the dialect.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf8_length_from_utf32(std::u32string_view in, replace r, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf8_length_from_utf32(in, r);
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), nullptr, r).written;
}

/// char32_t units utf8_to_utf32 writes in the dialect under skip (exact).
template <class Skip, class Dialect, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, Skip, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf32_length_from_utf8(bytes, skip{});
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, static_cast<char32_t*>(nullptr), skip{})
        .written;
  }
}

/// char16_t units utf8_to_utf16 writes in the dialect under skip (exact).
template <class Skip, class Dialect, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, Skip, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf16_length_from_utf8(bytes, skip{});
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, static_cast<char16_t*>(nullptr), skip{})
        .written;
  }
}

/// Bytes utf16_to_utf8 writes in the dialect under skip (exact).
template <class Skip, class Dialect, detail::enable_if_skip<Skip> = 0, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf8_length_from_utf16(std::u16string_view in, Skip, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf8_length_from_utf16(in, skip{});
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), nullptr, skip{}).written;
}

/// Bytes utf32_to_utf8 writes in the dialect under skip (exact).
template <class Skip, class Dialect, detail::enable_if_skip<Skip> = 0, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf8_length_from_utf32(std::u32string_view in, Skip, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf8_length_from_utf32(in, skip{});
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), nullptr, skip{}).written;
}

/// Bytes recode writes (exact for replace and well-formed input, an upper bound for strict).
template <class From, class To, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<From> = 0,
          detail::enable_if_dialect<To> = 0>
std::size_t recoded_length(const Bytes& bytes, replace r, From, To) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::recode_scalar<From, To>(detail::as_uchars(s.data), s.size, nullptr, r).written;
}

/// Bytes recode writes under skip (exact).
template <class Skip, class From, class To, class Bytes, detail::enable_if_skip<Skip> = 0,
          detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<From> = 0, detail::enable_if_dialect<To> = 0>
std::size_t recoded_length(const Bytes& bytes, Skip, From, To) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::recode_scalar<From, To>(detail::as_uchars(s.data), s.size, nullptr, skip{}).written;
}

/// Dialect bytes to UTF-32, strict without exceptions.
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::u32string to_utf32(const Bytes& bytes, conversion_result& status, Dialect d) {
  return detail::make_string<std::u32string>(
      utf32_length_from_utf8(bytes, replace{}, d), [&](char32_t* o) { return utf8_to_utf32(bytes, o, strict{}, d); },
      status);
}

/// Dialect bytes to UTF-32, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::u32string to_utf32_lossy(const Bytes& bytes, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::u32string>(
      utf32_length_from_utf8(bytes, replace{}, d), [&](char32_t* o) { return utf8_to_utf32(bytes, o, replace{}, d); },
      status);
}

/// Dialect bytes to UTF-16, strict without exceptions.
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::u16string to_utf16(const Bytes& bytes, conversion_result& status, Dialect d) {
  return detail::make_string<std::u16string>(
      utf16_length_from_utf8(bytes, replace{}, d), [&](char16_t* o) { return utf8_to_utf16(bytes, o, strict{}, d); },
      status);
}

/// Dialect bytes to UTF-16, one U+FFFD per maximal ill-formed subpart or unrepresentable character.
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::u16string to_utf16_lossy(const Bytes& bytes, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::u16string>(
      utf16_length_from_utf8(bytes, replace{}, d), [&](char16_t* o) { return utf8_to_utf16(bytes, o, replace{}, d); },
      status);
}

/// UTF-16 to dialect bytes, strict without exceptions.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8(std::u16string_view in, conversion_result& status, Dialect d) {
  return detail::make_string<std::string>(
      utf8_length_from_utf16(in, replace{}, d), [&](char* o) { return utf16_to_utf8(in, o, strict{}, d); }, status);
}

/// UTF-32 to dialect bytes, strict without exceptions.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8(std::u32string_view in, conversion_result& status, Dialect d) {
  return detail::make_string<std::string>(
      utf8_length_from_utf32(in, replace{}, d), [&](char* o) { return utf32_to_utf8(in, o, strict{}, d); }, status);
}

/// UTF-16 to dialect bytes, one U+FFFD per unit the dialect cannot write; never fails.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8_lossy(std::u16string_view in, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf16(in, replace{}, d), [&](char* o) { return utf16_to_utf8(in, o, replace{}, d); }, status);
}

/// UTF-32 to dialect bytes, one U+FFFD per value the dialect cannot write; never fails.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8_lossy(std::u32string_view in, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf32(in, replace{}, d), [&](char* o) { return utf32_to_utf8(in, o, replace{}, d); }, status);
}

/// Dialect-From bytes to dialect-To bytes, strict without exceptions (recode(bytes, status,
/// dialect::cesu8{}, dialect::utf8{})): the result holds the characters before the error.
template <class From, class To, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<From> = 0,
          detail::enable_if_dialect<To> = 0>
std::string recode(const Bytes& bytes, conversion_result& status, From from, To to) {
  return detail::make_string<std::string>(
      recoded_length(bytes, replace{}, from, to), [&](char* o) { return recode(bytes, o, strict{}, from, to); },
      status);
}

/// Dialect-From bytes to dialect-To bytes, one U+FFFD per maximal ill-formed subpart or character
/// To cannot write; never fails.
template <class From, class To, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<From> = 0,
          detail::enable_if_dialect<To> = 0>
std::string recode_lossy(const Bytes& bytes, From from, To to) {
  conversion_result status{};
  return detail::make_string<std::string>(
      recoded_length(bytes, replace{}, from, to), [&](char* o) { return recode(bytes, o, replace{}, from, to); },
      status);
}

/// Dialect bytes to UTF-32 with each error dropped (to_utf32_lossy(bytes, skip{}, d)).
template <class Skip, class Dialect, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
std::u32string to_utf32_lossy(const Bytes& bytes, Skip, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::u32string>(
      utf32_length_from_utf8(bytes, skip{}, d), [&](char32_t* o) { return utf8_to_utf32(bytes, o, skip{}, d); },
      status);
}

/// Dialect bytes to UTF-16 with each error dropped.
template <class Skip, class Dialect, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
std::u16string to_utf16_lossy(const Bytes& bytes, Skip, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::u16string>(
      utf16_length_from_utf8(bytes, skip{}, d), [&](char16_t* o) { return utf8_to_utf16(bytes, o, skip{}, d); },
      status);
}

/// UTF-16 to dialect bytes with each unit the dialect cannot write dropped.
template <class Skip, class Dialect, detail::enable_if_skip<Skip> = 0, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8_lossy(std::u16string_view in, Skip, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf16(in, skip{}, d), [&](char* o) { return utf16_to_utf8(in, o, skip{}, d); }, status);
}

/// UTF-32 to dialect bytes with each value the dialect cannot write dropped.
template <class Skip, class Dialect, detail::enable_if_skip<Skip> = 0, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8_lossy(std::u32string_view in, Skip, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf32(in, skip{}, d), [&](char* o) { return utf32_to_utf8(in, o, skip{}, d); }, status);
}

/// Dialect-From bytes to dialect-To bytes with each error dropped (recode_lossy(bytes, skip{}, from, to)).
template <class Skip, class From, class To, class Bytes, detail::enable_if_skip<Skip> = 0,
          detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<From> = 0, detail::enable_if_dialect<To> = 0>
std::string recode_lossy(const Bytes& bytes, Skip, From from, To to) {
  conversion_result status{};
  return detail::make_string<std::string>(
      recoded_length(bytes, skip{}, from, to), [&](char* o) { return recode(bytes, o, skip{}, from, to); }, status);
}

#if UTF8DFA_HAS_EXCEPTIONS

/// Thrown by the strict allocating helpers: where (input code units) and why the input is ill-formed.
class conversion_error : public std::runtime_error {
 public:
  conversion_error(const char* encoding, const char* unit, std::size_t offset, error_code code)
      : std::runtime_error(std::string("invalid ") + encoding + " at " + unit + " " + std::to_string(offset) + ": " +
                           std::string(error_name(code))),
        offset_(offset),
        code_(code) {}
  /// Offset of the first ill-formed subpart, in input code units (bytes for UTF-8).
  std::size_t offset() const noexcept { return offset_; }
  error_code code() const noexcept { return code_; }

 private:
  std::size_t offset_;
  error_code code_;
};

namespace detail {
template <class Str>
Str or_throw(Str&& s, const conversion_result& status, const char* encoding, const char* unit) {
  if (status.error != error_code::none) throw conversion_error(encoding, unit, status.read, status.error);
  return std::move(s);
}
}  // namespace detail

/// UTF-8 to UTF-32; throws conversion_error on ill-formed input.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32(const Bytes& bytes) {
  conversion_result status{};
  return detail::or_throw(to_utf32(bytes, status), status, "UTF-8", "byte");
}

/// UTF-8 to UTF-16; throws conversion_error on ill-formed input.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16(const Bytes& bytes) {
  conversion_result status{};
  return detail::or_throw(to_utf16(bytes, status), status, "UTF-8", "byte");
}

/// UTF-16 to UTF-8; throws conversion_error on an unpaired surrogate.
inline std::string to_utf8(std::u16string_view in) {
  conversion_result status{};
  return detail::or_throw(to_utf8(in, status), status, "UTF-16", "unit");
}

/// UTF-32 to UTF-8; throws conversion_error on a surrogate or a value above 0x10FFFF.
inline std::string to_utf8(std::u32string_view in) {
  conversion_result status{};
  return detail::or_throw(to_utf8(in, status), status, "UTF-32", "unit");
}

#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

// The explicit instantiations, in the one unit that compiles the library (<utf8dfa/src.hpp>, or the
// single header with UTF8DFA_IMPLEMENTATION).
#if defined(UTF8DFA_SEPARATE_COMPILATION) && defined(UTF8DFA_IMPLEMENTATION)
#include "detail/string_instances.hpp"
#endif

#endif
