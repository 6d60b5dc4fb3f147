// utf8dfa: ISO-8859-1 (Latin-1), where each byte is the code point of the same value
// (U+0000..U+00FF), to and from UTF-8, UTF-16 and UTF-32. The conversions and utf8_length_from_latin1
// are kernel operations (vector code where the kernel has it).
//
// Into Latin-1, a character above U+00FF is `unrepresentable`: strict stops before it (as before
// an ill-formed subpart, whose kind is reported as usual), replace writes the policy's replacement
// for it, which must itself be Latin-1: replace{U'?'}. A replacement above U+00FF (U+FFFD, the
// default, included) is refused whatever the input: the call writes nothing and returns
// {0, 0, error_code::unrepresentable}. assume_valid writes '?' for what it cannot convert; skip
// writes nothing for it (nor for an ill-formed subpart).
#ifndef UTF8DFA_LATIN1_HPP
#define UTF8DFA_LATIN1_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include "detail/bytes.hpp"
#include "detail/dfa.hpp"
#include "detail/dispatch.hpp"
#include "detail/scalar.hpp"
#include "detail/units.hpp"
#include "detail/units_kernels.hpp"
#include "error.hpp"
#include "policy.hpp"
#include "transcode.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Latin-1 to UTF-8 into `out` (size it with utf8_length_from_latin1); never fails. Returns the bytes written.
template <class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_byte<Byte> = 0>
std::size_t latin1_to_utf8(const Bytes& bytes, Byte* out) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::latin1_to_utf8>()(detail::as_uchars(s.data), s.size,
                                                                    detail::as_uchars(out));
}

/// Bytes latin1_to_utf8 writes: one per byte, two for 80..FF; SIZE_MAX when that many does not fit
/// in std::size_t (where it has 32 bits: over 2 GiB of bytes 80..FF), so that allocating it fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf8_length_from_latin1(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  const std::size_t total =
      detail::kernel_fn<&detail::kernel_table::utf8_length_from_latin1>()(detail::as_uchars(s.data), s.size);
  // The kernels add the bytes 80..FF (at most all of them) to the count of bytes, modulo
  // std::size_t's range: a sum that went past it wrapped to less than the count.
  return total < s.size ? static_cast<std::size_t>(-1) : total;
}

/// UTF-8 to Latin-1 into `out`; a character above U+00FF is `unrepresentable` (see the header comment).
template <class Policy = strict, class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_latin1(const Bytes& bytes, Byte* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  char32_t kernel_repl = 0;
  if (!detail::latin1_kernel_replacement(policy, kernel_repl)) return {0, 0, error_code::unrepresentable};
  return detail::kernel_fn<&detail::kernel_table::utf8_to_latin1>()(detail::as_uchars(s.data), s.size,
                                                                    detail::as_uchars(out), kernel_repl);
}

/// Bytes utf8_to_latin1 writes: one per character or maximal ill-formed subpart. Exact for replace,
/// assume_valid and well-formed input; an upper bound for strict.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_length_from_utf8(const Bytes& bytes) noexcept {
  return utf32_length_from_utf8(bytes);
}

/// Bytes utf8_to_latin1 writes under skip (exact): the characters up to U+00FF.
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_length_from_utf8(const Bytes& bytes, Skip) noexcept {
  const auto s = detail::as_span(bytes);
  const unsigned char* p = detail::as_uchars(s.data);
  std::size_t count = 0;
  for (std::size_t i = 0; i < s.size;) {
    const decoded d = detail::decode_at(p, s.size, i);
    count += d.error == error_code::none && d.code_point <= 0xFF;
    i += d.length;
  }
  return count;
}

/// Latin-1 to UTF-16 into `out` (one unit per byte); never fails. Returns the units written.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_to_utf16(const Bytes& bytes, char16_t* out) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::latin1_to_utf16>()(detail::as_uchars(s.data), s.size, out);
}

/// Latin-1 to UTF-32 into `out` (one unit per byte); never fails. Returns the units written.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_to_utf32(const Bytes& bytes, char32_t* out) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::latin1_to_utf32>()(detail::as_uchars(s.data), s.size, out);
}

/// UTF-16 to Latin-1 into `out` (at most in.size() bytes): unpaired surrogates as in
/// utf16_to_utf8, a character above U+00FF `unrepresentable`.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf16_to_latin1(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  char32_t repl = 0;
  if (!detail::latin1_kernel_replacement(policy, repl)) return {0, 0, error_code::unrepresentable};
  return detail::kernel_fn<&detail::kernel_table::utf16_to_latin1>()(in.data(), in.size(), detail::as_uchars(out),
                                                                     repl);
}

/// UTF-32 to Latin-1 into `out` (at most in.size() bytes): surrogates and values above 0x10FFFF as
/// in utf32_to_utf8, a value above U+00FF `unrepresentable`.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf32_to_latin1(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  char32_t repl = 0;
  if (!detail::latin1_kernel_replacement(policy, repl)) return {0, 0, error_code::unrepresentable};
  return detail::kernel_fn<&detail::kernel_table::utf32_to_latin1>()(in.data(), in.size(), detail::as_uchars(out),
                                                                     repl);
}

// ---- Allocating conversions and the length helpers with a policy (the pointer forms above do
// the work, in pieces, as transcode.hpp's allocating conversions do: detail::convert_in_chunks). ----

namespace detail {

/// The bytes utf8_to_latin1 or utf16/utf32_to_latin1 (by In) writes for [p, p+n): one per character
/// or error (Skip: one per character up to U+00FF).
template <bool Skip, class In>
constexpr std::size_t latin1_units_from_utf(const In* p, std::size_t n) noexcept {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n;) {
    const decoded d = decode_utf_at(p, n, i);
    count += !Skip || (d.error == error_code::none && d.code_point <= 0xFF);
    i += d.length;
  }
  return count;
}

/// Latin-1 bytes as UTF-8, UTF-16 or UTF-32 (by Str), through the pointer conversions.
template <class Str>
Str latin1_to_string(const unsigned char* p, std::size_t n) {
  using Out = typename Str::value_type;
  conversion_result status{};
  return convert_in_chunks < Str,
         sizeof(Out) == 1 ? 2
                          : 1 > (
                                    p, n,
                                    [](const unsigned char* q, std::size_t m, Out* o) {
                                      const byte_span_range<unsigned char> in{q, m};
                                      std::size_t w = 0;
                                      if constexpr (sizeof(Out) == 1)
                                        w = utf8dfa::latin1_to_utf8(in, o);
                                      else if constexpr (sizeof(Out) == 2)
                                        w = utf8dfa::latin1_to_utf16(in, o);
                                      else
                                        w = utf8dfa::latin1_to_utf32(in, o);
                                      return conversion_result{m, w, error_code::none};
                                    },
                                    [](const unsigned char*, std::size_t cut) { return cut; },
                                    [](const unsigned char* q, std::size_t m) {
                                      if constexpr (sizeof(Out) == 1)
                                        return utf8dfa::utf8_length_from_latin1(byte_span_range<unsigned char>{q, m});
                                      else
                                        return m;
                                    },
                                    status);
}

/// UTF-8, UTF-16 or UTF-32 (by In) to Latin-1 as a string under Policy (strict, replace or skip);
/// a replacement above U+00FF is refused as the pointer forms refuse it (an empty string, status
/// {0, 0, unrepresentable}).
template <class Policy, class In>
std::string to_latin1_string(const In* p, std::size_t n, Policy pol, conversion_result& status) {
  unsigned char repl = '?';
  if (!latin1_replacement(pol, repl)) {
    status = {0, 0, error_code::unrepresentable};
    return std::string();
  }
  std::string out = convert_in_chunks<std::string, 1>(
      p, n,
      [pol](const In* q, std::size_t m, char* o) {
        if constexpr (sizeof(In) == 1)
          return utf8dfa::utf8_to_latin1(byte_span_range<unsigned char>{q, m}, o, pol);
        else if constexpr (sizeof(In) == 2)
          return utf8dfa::utf16_to_latin1(std::u16string_view(q, m), o, pol);
        else
          return utf8dfa::utf32_to_latin1(std::u32string_view(q, m), o, pol);
      },
      [](const In* q, std::size_t cut) {
        if constexpr (sizeof(In) == 1)
          return utf8_chunk_end(q, cut);
        else if constexpr (sizeof(In) == 2)
          return utf16_chunk_end(q, cut);
        else
          return utf32_chunk_end(q, cut);
      },
      [](const In* q, std::size_t m) {  // at least what the rest writes: one byte per character or error
        if constexpr (sizeof(In) == 1)
          return utf8dfa::utf32_length_from_utf8(byte_span_range<unsigned char>{q, m});
        else
          return m;
      },
      status);
  // Strict: a piece's end may have cut an incomplete character off from the byte that ends it, so
  // the kind of the error is read again from the whole input (none there: the character is above
  // U+00FF).
  if constexpr (sizeof(In) == 1) {
    if (status.error != error_code::none && status.read < n) {
      const error_code e = decode_at(p, n, status.read).error;
      status.error = e == error_code::none ? error_code::unrepresentable : e;
    }
  }
  return out;
}

// Compiled once with UTF8DFA_SEPARATE_COMPILATION (detail/latin1_instances.hpp), on the same terms
// as transcode.hpp's string conversions.
#if defined(UTF8DFA_SEPARATE_COMPILATION) && !defined(__cpp_lib_string_resize_and_overwrite) && \
    !(defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI == 0)
extern template std::string latin1_to_string<std::string>(const unsigned char*, std::size_t);
extern template std::u16string latin1_to_string<std::u16string>(const unsigned char*, std::size_t);
extern template std::u32string latin1_to_string<std::u32string>(const unsigned char*, std::size_t);
extern template std::string to_latin1_string<strict, unsigned char>(const unsigned char*, std::size_t, strict,
                                                                    conversion_result&);
extern template std::string to_latin1_string<replace, unsigned char>(const unsigned char*, std::size_t, replace,
                                                                     conversion_result&);
extern template std::string to_latin1_string<skip, unsigned char>(const unsigned char*, std::size_t, skip,
                                                                  conversion_result&);
extern template std::string to_latin1_string<strict, char16_t>(const char16_t*, std::size_t, strict,
                                                               conversion_result&);
extern template std::string to_latin1_string<replace, char16_t>(const char16_t*, std::size_t, replace,
                                                                conversion_result&);
extern template std::string to_latin1_string<skip, char16_t>(const char16_t*, std::size_t, skip, conversion_result&);
extern template std::string to_latin1_string<strict, char32_t>(const char32_t*, std::size_t, strict,
                                                               conversion_result&);
extern template std::string to_latin1_string<replace, char32_t>(const char32_t*, std::size_t, replace,
                                                                conversion_result&);
extern template std::string to_latin1_string<skip, char32_t>(const char32_t*, std::size_t, skip, conversion_result&);
#endif

}  // namespace detail

/// Bytes utf8_to_latin1(bytes, out, r) writes (exact): one per character or maximal ill-formed
/// subpart; 0 for a replacement above U+00FF (replace{} included), which is refused.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_length_from_utf8(const Bytes& bytes, replace r) noexcept {
  unsigned char repl = '?';
  return detail::latin1_replacement(r, repl) ? utf32_length_from_utf8(bytes) : 0;
}

/// Bytes utf16_to_latin1 writes: one per character or unpaired surrogate. Exact for replace,
/// assume_valid and well-formed input; an upper bound for strict.
inline std::size_t latin1_length_from_utf16(std::u16string_view in) noexcept {
  return detail::latin1_units_from_utf<false>(in.data(), in.size());
}

/// Bytes utf16_to_latin1(in, out, r) writes (exact); 0 for a replacement above U+00FF.
inline std::size_t latin1_length_from_utf16(std::u16string_view in, replace r) noexcept {
  unsigned char repl = '?';
  return detail::latin1_replacement(r, repl) ? latin1_length_from_utf16(in) : 0;
}

/// Bytes utf16_to_latin1 writes under skip (exact): the characters up to U+00FF.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t latin1_length_from_utf16(std::u16string_view in, Skip) noexcept {
  return detail::latin1_units_from_utf<true>(in.data(), in.size());
}

/// Bytes utf32_to_latin1 writes: one per unit (exact for replace, assume_valid and well-formed
/// input; an upper bound for strict).
inline std::size_t latin1_length_from_utf32(std::u32string_view in) noexcept {
  return in.size();
}

/// Bytes utf32_to_latin1(in, out, r) writes (exact); 0 for a replacement above U+00FF.
inline std::size_t latin1_length_from_utf32(std::u32string_view in, replace r) noexcept {
  unsigned char repl = '?';
  return detail::latin1_replacement(r, repl) ? in.size() : 0;
}

/// Bytes utf32_to_latin1 writes under skip (exact): the values up to U+00FF.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t latin1_length_from_utf32(std::u32string_view in, Skip) noexcept {
  return detail::latin1_units_from_utf<true>(in.data(), in.size());
}

/// Latin-1 to UTF-8 as a string; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::string latin1_to_utf8(const Bytes& bytes) {
  const auto s = detail::as_span(bytes);
  return detail::latin1_to_string<std::string>(detail::as_uchars(s.data), s.size);
}

/// Latin-1 to UTF-16 as a string (one unit per byte); never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string latin1_to_utf16(const Bytes& bytes) {
  const auto s = detail::as_span(bytes);
  return detail::latin1_to_string<std::u16string>(detail::as_uchars(s.data), s.size);
}

/// Latin-1 to UTF-32 as a string (one unit per byte); never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string latin1_to_utf32(const Bytes& bytes) {
  const auto s = detail::as_span(bytes);
  return detail::latin1_to_string<std::u32string>(detail::as_uchars(s.data), s.size);
}

/// UTF-8 to Latin-1, strict without exceptions: `status` reports the first error (`unrepresentable`
/// for a character above U+00FF); the result holds the characters before it.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::string to_latin1(const Bytes& bytes, conversion_result& status) {
  const auto s = detail::as_span(bytes);
  return detail::to_latin1_string(detail::as_uchars(s.data), s.size, strict{}, status);
}

/// UTF-16 to Latin-1, strict without exceptions.
inline std::string to_latin1(std::u16string_view in, conversion_result& status) {
  return detail::to_latin1_string(in.data(), in.size(), strict{}, status);
}

/// UTF-32 to Latin-1, strict without exceptions.
inline std::string to_latin1(std::u32string_view in, conversion_result& status) {
  return detail::to_latin1_string(in.data(), in.size(), strict{}, status);
}

/// UTF-8 to Latin-1 with one `r.replacement` per character above U+00FF or maximal ill-formed
/// subpart; never fails. A replacement above U+00FF (replace{}'s U+FFFD included) is refused as
/// utf8_to_latin1 refuses it: the result is empty, whatever the input.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::string to_latin1_lossy(const Bytes& bytes, replace r = replace{U'?'}) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::to_latin1_string(detail::as_uchars(s.data), s.size, r, status);
}

/// UTF-16 to Latin-1 with one replacement per character above U+00FF or unpaired surrogate (a
/// replacement above U+00FF: an empty result).
inline std::string to_latin1_lossy(std::u16string_view in, replace r = replace{U'?'}) {
  conversion_result status{};
  return detail::to_latin1_string(in.data(), in.size(), r, status);
}

/// UTF-32 to Latin-1 with one replacement per value above U+00FF (a replacement above U+00FF: an
/// empty result).
inline std::string to_latin1_lossy(std::u32string_view in, replace r = replace{U'?'}) {
  conversion_result status{};
  return detail::to_latin1_string(in.data(), in.size(), r, status);
}

/// UTF-8 to Latin-1 with each character above U+00FF and maximal ill-formed subpart dropped
/// (to_latin1_lossy(bytes, skip{})).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::string to_latin1_lossy(const Bytes& bytes, Skip) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::to_latin1_string(detail::as_uchars(s.data), s.size, skip{}, status);
}

/// UTF-16 to Latin-1 with each character above U+00FF and unpaired surrogate dropped.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::string to_latin1_lossy(std::u16string_view in, Skip) {
  conversion_result status{};
  return detail::to_latin1_string(in.data(), in.size(), skip{}, status);
}

/// UTF-32 to Latin-1 with each value above U+00FF, surrogate and value above 0x10FFFF dropped.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::string to_latin1_lossy(std::u32string_view in, Skip) {
  conversion_result status{};
  return detail::to_latin1_string(in.data(), in.size(), skip{}, status);
}

#if UTF8DFA_HAS_EXCEPTIONS

/// UTF-8 to Latin-1; throws conversion_error at the first ill-formed subpart or character above
/// U+00FF (code() == error_code::unrepresentable).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::string to_latin1(const Bytes& bytes) {
  conversion_result status{};
  return detail::or_throw(to_latin1(bytes, status), status, "UTF-8", "byte");
}

/// UTF-16 to Latin-1; throws conversion_error at an unpaired surrogate or a character above U+00FF.
inline std::string to_latin1(std::u16string_view in) {
  conversion_result status{};
  return detail::or_throw(to_latin1(in, status), status, "UTF-16", "unit");
}

/// UTF-32 to Latin-1; throws conversion_error at a surrogate or a value above U+00FF.
inline std::string to_latin1(std::u32string_view in) {
  conversion_result status{};
  return detail::or_throw(to_latin1(in, status), status, "UTF-32", "unit");
}

#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

// The explicit instantiations, in the one unit that compiles the library.
#if defined(UTF8DFA_SEPARATE_COMPILATION) && defined(UTF8DFA_IMPLEMENTATION)
#include "detail/latin1_instances.hpp"
#endif

#endif
