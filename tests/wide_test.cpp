// to_wstring and to_utf8(std::wstring_view) (wide.hpp), for 2-byte wchar_t (UTF-16: Windows) and
// 4-byte wchar_t (UTF-32: Linux, macOS): every scalar value both ways, errors and their offsets under
// strict, replacement and skip, unpaired surrogates in 2-byte wchar_t text, and the views over wchar_t.
#include <cstddef>
#include <string>
#include <string_view>

#include <utf8dfa.hpp>

#include "catch.hpp"

namespace utf8dfa_test_wide {  // the file's own names (the suite also builds as unity sources)

using utf8dfa::conversion_result;
using utf8dfa::error_code;

constexpr bool wide_is_utf16 = sizeof(wchar_t) == 2;

/// `cp` appended to `w` in wchar_t's UTF form (a surrogate pair where wchar_t is 2 bytes).
void put_wide(std::wstring& w, char32_t cp) {
  if (wide_is_utf16 && cp >= 0x10000) {
    w += static_cast<wchar_t>(0xD800 + ((cp - 0x10000) >> 10));
    w += static_cast<wchar_t>(0xDC00 + ((cp - 0x10000) & 0x3FF));
  } else {
    w += static_cast<wchar_t>(cp);
  }
}

std::string utf8_of(char32_t cp) {
  char buf[4];
  return std::string(buf, utf8dfa::encode(cp, buf));
}

const std::string_view fffd = "\xEF\xBF\xBD";

TEST_CASE("wide: every scalar value, UTF-8 to wchar_t and back, all policies") {
  // Each class of scalar value: ASCII, 2-byte, 3-byte below and above the surrogates, 4-byte (a
  // surrogate pair in 2-byte wchar_t); all of them, in one string.
  std::string utf8;
  std::wstring wide;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    utf8 += utf8_of(cp);
    put_wide(wide, cp);
  }
  conversion_result status{};
  CHECK(utf8dfa::to_wstring(utf8, status) == wide);
  CHECK(status.error == error_code::none);
  CHECK(status.read == utf8.size());
  CHECK(status.written == wide.size());
  CHECK(utf8dfa::to_wstring_lossy(utf8) == wide);
  CHECK(utf8dfa::to_wstring_lossy(utf8, utf8dfa::skip{}) == wide);
  CHECK(utf8dfa::to_utf8(wide, status) == utf8);
  CHECK(status.error == error_code::none);
  CHECK(status.read == wide.size());
  CHECK(utf8dfa::to_utf8_lossy(wide) == utf8);
  CHECK(utf8dfa::to_utf8_lossy(wide, utf8dfa::skip{}) == utf8);
#if UTF8DFA_HAS_EXCEPTIONS
  CHECK(utf8dfa::to_wstring(utf8) == wide);
  CHECK(utf8dfa::to_utf8(wide) == utf8);
#endif
  // One character of each class alone, and a literal (a const wchar_t* as std::wstring_view).
  for (char32_t cp : {U'A', U'\u00E9', U'\u20AC', U'\uFFFD', U'\U0001F600', U'\U0010FFFF'}) {
    std::wstring w;
    put_wide(w, cp);
    CHECK(utf8dfa::to_wstring_lossy(utf8_of(cp)) == w);
    CHECK(utf8dfa::to_utf8_lossy(w) == utf8_of(cp));
  }
  CHECK(utf8dfa::to_utf8_lossy(L"a\u00E9\u20AC") == "a\xC3\xA9\xE2\x82\xAC");
  CHECK(utf8dfa::to_wstring_lossy(std::string()).empty());
  CHECK(utf8dfa::to_utf8_lossy(std::wstring_view()).empty());
}

TEST_CASE("wide: ill-formed UTF-8, offsets in bytes") {
  const std::string bad = "ab\xC3(\xF0\x9F\x98z\xFF";  // C3 then '(': 1 subpart; F0 9F 98 then 'z'; FF
  conversion_result status{};
  const std::wstring got = utf8dfa::to_wstring(bad, status);
  CHECK(got == L"ab");  // the characters before the error
  CHECK(status.error == error_code::too_short);
  CHECK(status.read == 2);
  CHECK(status.written == 2);
  CHECK(utf8dfa::to_wstring_lossy(bad) == L"ab\uFFFD(\uFFFDz\uFFFD");
  CHECK(utf8dfa::to_wstring_lossy(bad, utf8dfa::skip{}) == L"ab(z");
  // A long input (the conversion goes in pieces): the error offset is still the whole input's.
  const std::string longer = std::string(100000, 'x') + "\xE2\x82" + "y";
  const std::wstring w = utf8dfa::to_wstring(longer, status);
  CHECK(status.read == 100000);
  CHECK(w == std::wstring(100000, L'x'));
  CHECK(utf8dfa::to_wstring_lossy(longer) == std::wstring(100000, L'x') + L"\uFFFDy");
#if UTF8DFA_HAS_EXCEPTIONS
  try {
    (void)utf8dfa::to_wstring(bad);
    FAIL("no exception");
  } catch (const utf8dfa::conversion_error& e) {
    CHECK(e.offset() == 2);
    CHECK(e.code() == error_code::too_short);
    CHECK(std::string(e.what()).find("UTF-8 at byte 2") != std::string::npos);
  }
#endif
}

TEST_CASE("wide: wchar_t values that are not characters, offsets in wchar_t units") {
  conversion_result status{};
  // A surrogate is an error in both forms: in UTF-16 an unpaired one, in UTF-32 any.
  std::wstring w = L"ab";
  w += static_cast<wchar_t>(0xDC00);  // a trail surrogate with no lead
  w += L"c";
  CHECK(utf8dfa::to_utf8(w, status) == "ab");
  CHECK(status.error == error_code::surrogate);
  CHECK(status.read == 2);
  CHECK(utf8dfa::to_utf8_lossy(w) == "ab" + std::string(fffd) + "c");
  CHECK(utf8dfa::to_utf8_lossy(w, utf8dfa::skip{}) == "abc");
  // A lead surrogate followed by something other than a trail surrogate; one that ends the text.
  std::wstring lead = L"x";
  lead += static_cast<wchar_t>(0xD83D);
  lead += L"y";
  lead += static_cast<wchar_t>(0xD83D);
  CHECK(utf8dfa::to_utf8(lead, status) == "x");
  CHECK(status.read == 1);
  CHECK(status.error == error_code::surrogate);
  CHECK(utf8dfa::to_utf8_lossy(lead) == "x" + std::string(fffd) + "y" + std::string(fffd));
  if constexpr (wide_is_utf16) {
    // The pair's halves reversed: two unpaired surrogates, one replacement each.
    std::wstring reversed;
    reversed += static_cast<wchar_t>(0xDE00);
    reversed += static_cast<wchar_t>(0xD83D);
    CHECK(utf8dfa::to_utf8_lossy(reversed) == std::string(fffd) + std::string(fffd));
    std::wstring last = L"z";
    last += static_cast<wchar_t>(0xD83D);  // a lead surrogate that ends the text
    CHECK(utf8dfa::to_utf8(last, status) == "z");
    CHECK(status.read == 1);
    CHECK(status.error == error_code::incomplete);
  } else {
    // 4-byte wchar_t: a value above 0x10FFFF (a negative one too, where wchar_t is signed).
    std::wstring big = L"ab";
    big += static_cast<wchar_t>(0x110000);
    big += static_cast<wchar_t>(-1);
    CHECK(utf8dfa::to_utf8(big, status) == "ab");
    CHECK(status.read == 2);
    CHECK(status.error == error_code::too_large);
    CHECK(utf8dfa::to_utf8_lossy(big) == "ab" + std::string(fffd) + std::string(fffd));
    CHECK(utf8dfa::to_utf8_lossy(big, utf8dfa::skip{}) == "ab");
  }
#if UTF8DFA_HAS_EXCEPTIONS
  try {
    (void)utf8dfa::to_utf8(w);
    FAIL("no exception");
  } catch (const utf8dfa::conversion_error& e) {
    CHECK(e.offset() == 2);
    CHECK(e.code() == error_code::surrogate);
    CHECK(std::string(e.what()).find(wide_is_utf16 ? "UTF-16 at unit 2" : "UTF-32 at unit 2") != std::string::npos);
  }
#endif
}

TEST_CASE("wide: the views over wchar_t text agree with the conversions") {
  std::wstring w = L"a\u00E9";
  put_wide(w, U'\U0001F600');
  w += static_cast<wchar_t>(0xDC00);  // an error in either form
  w += L"z";
  const auto v = utf8dfa::as_utf8(w);
  CHECK(std::string(v.begin(), v.end()) == utf8dfa::to_utf8_lossy(w));
  const auto u32 = utf8dfa::as_utf32(w);
  CHECK(std::u32string(u32.begin(), u32.end()) == U"a\u00E9\U0001F600\uFFFDz");
  // UTF-8 through a view into wchar_t units: as_utf16 or as_utf32 by wchar_t's form.
  const std::string utf8 = utf8dfa::to_utf8_lossy(w);
  std::wstring back;
  if constexpr (wide_is_utf16) {
    for (char16_t u : utf8dfa::as_utf16(utf8)) back += static_cast<wchar_t>(u);
  } else {
    for (char32_t u : utf8dfa::as_utf32(utf8)) back += static_cast<wchar_t>(u);
  }
  CHECK(back == utf8dfa::to_wstring_lossy(utf8));
}

}  // namespace utf8dfa_test_wide
