// utf8dfa: UTF-8 to and from std::wstring. wchar_t holds UTF-16 where it is 2 bytes (Windows) and
// UTF-32 where it is 4 bytes (Linux, macOS, the BSDs): each function is the UTF-16 or UTF-32 one
// of transcode.hpp with the same policies, offsets (in wchar_t units) and errors.
//
//   std::wstring w = utf8dfa::to_wstring(bytes);   // throws conversion_error on ill-formed UTF-8
//   std::string s = utf8dfa::to_utf8(w);            // throws on an unpaired surrogate (2-byte wchar_t)
//
// How: wchar_t is a type of its own, distinct from char16_t and char32_t even where it has the same
// size, so the kernels (which read and write char16_t or char32_t objects) never see wchar_t
// storage through a cast pointer, which would break the aliasing rule. The wide string is copied
// unit by unit into a std::u16string or std::u32string (a value-preserving conversion between
// integer types of one size; the compiler makes it a plain copy) and converted there, or the
// conversion's result copied into the std::wstring the same way. The copy costs one pass at memory
// speed over the wide text, and one more allocation, on top of the conversion, and needs no kernel
// or compiled-library instance of its own: with UTF8DFA_SEPARATE_COMPILATION these functions call
// the library's compiled UTF-16 and UTF-32 conversions.
#ifndef UTF8DFA_WIDE_HPP
#define UTF8DFA_WIDE_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include "detail/bytes.hpp"
#include "error.hpp"
#include "policy.hpp"
#include "transcode.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

static_assert(sizeof(wchar_t) == 2 || sizeof(wchar_t) == 4, "utf8dfa: wchar_t is neither UTF-16 nor UTF-32");

/// The code unit type that wchar_t's UTF form uses: char16_t or char32_t.
using wchar_utf_unit = std::conditional_t<sizeof(wchar_t) == 2, char16_t, char32_t>;
using wchar_utf_string = std::basic_string<wchar_utf_unit>;

/// The name of wchar_t's UTF form, for conversion_error's message.
constexpr const char* wide_encoding_name() noexcept {
  return sizeof(wchar_t) == 2 ? "UTF-16" : "UTF-32";
}

/// `in` as UTF-16 or UTF-32 units (a wchar_t that is negative, where it is signed, becomes a value
/// above 0x10FFFF: an error, as in the UTF-32 form).
inline wchar_utf_string wide_to_units(std::wstring_view in) {
  return wchar_utf_string(in.begin(), in.end());
}

inline std::wstring units_to_wide(const wchar_utf_string& in) {
  return std::wstring(in.begin(), in.end());
}

}  // namespace detail

/// UTF-8 to wchar_t text (UTF-16 or UTF-32), strict without exceptions: `status` reports the
/// error (offset in bytes); the result holds the characters before it.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::wstring to_wstring(const Bytes& bytes, conversion_result& status) {
  if constexpr (sizeof(wchar_t) == 2)
    return detail::units_to_wide(to_utf16(bytes, status));
  else
    return detail::units_to_wide(to_utf32(bytes, status));
}

/// UTF-8 to wchar_t text, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::wstring to_wstring_lossy(const Bytes& bytes) {
  if constexpr (sizeof(wchar_t) == 2)
    return detail::units_to_wide(to_utf16_lossy(bytes));
  else
    return detail::units_to_wide(to_utf32_lossy(bytes));
}

/// UTF-8 to wchar_t text with each maximal ill-formed subpart dropped (to_wstring_lossy(bytes, skip{})).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::wstring to_wstring_lossy(const Bytes& bytes, Skip) {
  if constexpr (sizeof(wchar_t) == 2)
    return detail::units_to_wide(to_utf16_lossy(bytes, skip{}));
  else
    return detail::units_to_wide(to_utf32_lossy(bytes, skip{}));
}

/// wchar_t text to UTF-8, strict without exceptions: an unpaired surrogate (2-byte wchar_t), or a
/// surrogate or value above 0x10FFFF (4-byte wchar_t), is the error; offsets in wchar_t units.
inline std::string to_utf8(std::wstring_view in, conversion_result& status) {
  return to_utf8(detail::wide_to_units(in), status);
}

/// wchar_t text to UTF-8, one U+FFFD per unit or value that is not a character; never fails.
inline std::string to_utf8_lossy(std::wstring_view in) {
  return to_utf8_lossy(detail::wide_to_units(in));
}

/// wchar_t text to UTF-8 with each unit or value that is not a character dropped.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::string to_utf8_lossy(std::wstring_view in, Skip) {
  return to_utf8_lossy(detail::wide_to_units(in), skip{});
}

#if UTF8DFA_HAS_EXCEPTIONS

/// UTF-8 to wchar_t text; throws conversion_error (offset in bytes) on ill-formed input.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::wstring to_wstring(const Bytes& bytes) {
  conversion_result status{};
  return detail::or_throw(to_wstring(bytes, status), status, "UTF-8", "byte");
}

/// wchar_t text to UTF-8; throws conversion_error (offset in wchar_t units) on an unpaired
/// surrogate (2-byte wchar_t), or a surrogate or value above 0x10FFFF (4-byte wchar_t).
inline std::string to_utf8(std::wstring_view in) {
  conversion_result status{};
  return detail::or_throw(to_utf8(in, status), status, detail::wide_encoding_name(), "unit");
}

#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
