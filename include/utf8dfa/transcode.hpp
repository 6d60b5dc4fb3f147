// utf8dfa: bulk conversion between UTF-8 and UTF-16 / UTF-32, with exact output-length helpers.
#ifndef UTF8DFA_TRANSCODE_HPP
#define UTF8DFA_TRANSCODE_HPP

#include <cstddef>
#include <string>
#include <string_view>

#include "detail/bytes.hpp"
#include "detail/dispatch.hpp"
#include "detail/scalar.hpp"
#include "error.hpp"
#include "policy.hpp"

#if UTF8DFA_HAS_EXCEPTIONS
#include <stdexcept>
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

template <class Policy>
constexpr char32_t kernel_replacement(const Policy& pol) noexcept {
  if constexpr (Policy::stops_on_error)
    return strict_marker;
  else
    return pol.replacement_value();
}

/// Output units a lossy decode of UTF-8 writes (UTF-16 when `utf16`): exact for every policy on
/// well-formed input, and an upper bound for strict on ill-formed input.
inline std::size_t utf8_decoded_units(const unsigned char* p, std::size_t n, bool utf16, char32_t repl) noexcept {
  const kernel_table& k = kernels();
  const std::size_t repl_units = utf16 && repl >= 0x10000 ? 2 : 1;
  std::size_t total = 0, pos = 0;
  for (;;) {
    const validation_result v = k.validate(p + pos, n - pos);
    total += utf16 ? k.utf16_length(p + pos, v.valid_up_to) : k.count_leads(p + pos, v.valid_up_to);
    if (v.error == error_code::none) return total;
    pos += v.valid_up_to;
    pos += decode_at(p, n, pos).length;  // the maximal ill-formed subpart
    total += repl_units;
  }
}

/// UTF-8 bytes that converting UTF-16/UTF-32 writes (replacements counted with `repl`).
template <class In>
std::size_t utf8_encoded_bytes(const In* p, std::size_t n, char32_t repl) noexcept {
  std::size_t total = 0;
  for (std::size_t i = 0; i < n;) {
    if (p[i] < 0x80) {
      ++total;
      ++i;
      continue;
    }
    const decoded d = decode_utf_at(p, n, i);
    total += utf8_width(d.error == error_code::none ? d.code_point : repl);
    i += d.length;
  }
  return total;
}

template <class Str, class Run>
Str make_string(std::size_t size, Run run, conversion_result& status) {
  Str out(size, typename Str::value_type{});
  status = run(out.data());
  out.resize(status.written);
  return out;
}

}  // namespace detail

// ---- Non-allocating core: the caller sizes `out` with the length helpers below. -----------------

/// UTF-8 to UTF-32 into `out`; under strict, stops before the first ill-formed subpart.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0>
conversion_result utf8_to_utf32(const Bytes& bytes, char32_t* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernels().utf8_to_utf32(detail::as_uchars(s.data), s.size, out, detail::kernel_replacement(policy));
}

/// UTF-8 to UTF-16 into `out` (supplementary characters as surrogate pairs).
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0>
conversion_result utf8_to_utf16(const Bytes& bytes, char16_t* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernels().utf8_to_utf16(detail::as_uchars(s.data), s.size, out, detail::kernel_replacement(policy));
}

/// UTF-16 to UTF-8 into `out`. Each unpaired surrogate is one error (`surrogate`, or `incomplete`
/// for a high surrogate that ends the input).
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0>
conversion_result utf16_to_utf8(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::kernels().utf16_to_utf8(in.data(), in.size(), detail::as_uchars(out),
                                         detail::kernel_replacement(policy));
}

/// UTF-32 to UTF-8 into `out`. Surrogates (`surrogate`) and values above 0x10FFFF (`too_large`) are errors.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0>
conversion_result utf32_to_utf8(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::kernels().utf32_to_utf8(in.data(), in.size(), detail::as_uchars(out),
                                         detail::kernel_replacement(policy));
}

// ---- Exact output sizes. ---------------------------------------------------------------------

/// char32_t units utf8_to_utf32 writes: exact for replace (with `r`'s replacement), assume_valid and
/// well-formed input; an upper bound for strict.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, replace r = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::utf8_decoded_units(detail::as_uchars(s.data), s.size, false, r.replacement_value());
}

/// char16_t units utf8_to_utf16 writes (same guarantees).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, replace r = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::utf8_decoded_units(detail::as_uchars(s.data), s.size, true, r.replacement_value());
}

/// Bytes utf16_to_utf8 writes (same guarantees).
inline std::size_t utf8_length_from_utf16(std::u16string_view in, replace r = {}) noexcept {
  return detail::utf8_encoded_bytes(in.data(), in.size(), r.replacement_value());
}

/// Bytes utf32_to_utf8 writes (same guarantees).
inline std::size_t utf8_length_from_utf32(std::u32string_view in, replace r = {}) noexcept {
  return detail::utf8_encoded_bytes(in.data(), in.size(), r.replacement_value());
}

// ---- Allocating helpers. ---------------------------------------------------------------------

/// UTF-8 to UTF-32, strict without exceptions: `status` reports the error; the result holds the
/// characters before it.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32(const Bytes& bytes, conversion_result& status) {
  return detail::make_string<std::u32string>(
      utf32_length_from_utf8(bytes), [&](char32_t* o) { return utf8_to_utf32(bytes, o); }, status);
}

/// UTF-8 to UTF-32, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32_lossy(const Bytes& bytes) {
  conversion_result status{};
  return detail::make_string<std::u32string>(
      utf32_length_from_utf8(bytes), [&](char32_t* o) { return utf8_to_utf32(bytes, o, replace{}); }, status);
}

/// UTF-8 to UTF-16, strict without exceptions.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16(const Bytes& bytes, conversion_result& status) {
  return detail::make_string<std::u16string>(
      utf16_length_from_utf8(bytes), [&](char16_t* o) { return utf8_to_utf16(bytes, o); }, status);
}

/// UTF-8 to UTF-16, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16_lossy(const Bytes& bytes) {
  conversion_result status{};
  return detail::make_string<std::u16string>(
      utf16_length_from_utf8(bytes), [&](char16_t* o) { return utf8_to_utf16(bytes, o, replace{}); }, status);
}

/// UTF-16 to UTF-8, strict without exceptions.
inline std::string to_utf8(std::u16string_view in, conversion_result& status) {
  return detail::make_string<std::string>(
      utf8_length_from_utf16(in), [&](char* o) { return utf16_to_utf8(in, o); }, status);
}

/// UTF-32 to UTF-8, strict without exceptions.
inline std::string to_utf8(std::u32string_view in, conversion_result& status) {
  return detail::make_string<std::string>(
      utf8_length_from_utf32(in), [&](char* o) { return utf32_to_utf8(in, o); }, status);
}

/// UTF-16 to UTF-8, one U+FFFD per unpaired surrogate; never fails.
inline std::string to_utf8_lossy(std::u16string_view in) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf16(in), [&](char* o) { return utf16_to_utf8(in, o, replace{}); }, status);
}

/// UTF-32 to UTF-8, one U+FFFD per surrogate or value above 0x10FFFF; never fails.
inline std::string to_utf8_lossy(std::u32string_view in) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf32(in), [&](char* o) { return utf32_to_utf8(in, o, replace{}); }, status);
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

#endif
