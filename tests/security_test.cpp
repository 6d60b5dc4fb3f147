// Security cases (RFC 3629 section 10; the RFC 2279 draft's security section): overlong forms of
// '/', '.' and NUL, surrogates (also as CESU-8 pairs), values above U+10FFFF and the old 5- and
// 6-byte forms are never decoded to a code point. Each is embedded in a path "a/" X "../b" and
// pushed through every API: validation, decode_next/decode_prev, the bulk converters under every
// policy that defines its output, the allocating helpers, under every kernel.
#include <utf8dfa.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <list>
#include <utf8dfa/stream.hpp>
#include <utf8dfa/views.hpp>
#include "catch.hpp"
#include "strict_alloc.hpp"

namespace utf8dfa_test_security {  // the file's own names (the suite also builds as unity sources)

namespace security {

using utf8dfa::error_code;

struct attack {
  const char* bytes;
  error_code kind;  // the kind of the first ill-formed subpart
  const char* what;
};

// clang-format off
inline const attack attacks[] = {
    {"\xC0\x80", error_code::invalid_byte, "overlong NUL (2 bytes; the draft's example)"},
    {"\xC0\xAE", error_code::invalid_byte, "overlong '.' (2 bytes)"},
    {"\xC0\xAF", error_code::invalid_byte, "overlong '/' (2 bytes)"},
    {"\xC1\xBF", error_code::invalid_byte, "overlong DEL (2 bytes)"},
    {"\xE0\x80\x80", error_code::overlong, "overlong NUL (3 bytes)"},
    {"\xE0\x80\xAE", error_code::overlong, "overlong '.' (3 bytes)"},
    {"\xE0\x80\xAF", error_code::overlong, "overlong '/' (3 bytes)"},
    {"\xE0\x9F\xBF", error_code::overlong, "overlong U+07FF (3 bytes)"},
    {"\xF0\x80\x80\x80", error_code::overlong, "overlong NUL (4 bytes)"},
    {"\xF0\x80\x80\xAF", error_code::overlong, "overlong '/' (4 bytes)"},
    {"\xF0\x8F\xBF\xBF", error_code::overlong, "overlong U+FFFF (4 bytes)"},
    {"\xED\xA0\x80", error_code::surrogate, "U+D800"},
    {"\xED\xAD\xBF", error_code::surrogate, "U+DB7F"},
    {"\xED\xB0\x80", error_code::surrogate, "U+DC00"},
    {"\xED\xBF\xBF", error_code::surrogate, "U+DFFF"},
    {"\xED\xA1\x8C\xED\xBE\xB4", error_code::surrogate, "CESU-8 pair for U+1F0B4"},
    {"\xED\xA0\xBD\xED\xB8\x80", error_code::surrogate, "CESU-8 pair for U+1F600"},
    {"\xF4\x90\x80\x80", error_code::too_large, "U+110000"},
    {"\xF4\xBF\xBF\xBF", error_code::too_large, "U+13FFFF"},
    {"\xF5\x80\x80\x80", error_code::invalid_byte, "F5 lead (U+140000)"},
    {"\xF7\xBF\xBF\xBF", error_code::invalid_byte, "F7 lead (U+1FFFFF)"},
    {"\xF8\x88\x80\x80\x80", error_code::invalid_byte, "RFC 2279 5-byte form (U+200000)"},
    {"\xF8\x80\x80\x80\xAF", error_code::invalid_byte, "RFC 2279 5-byte overlong '/'"},
    {"\xFC\x84\x80\x80\x80\x80", error_code::invalid_byte, "RFC 2279 6-byte form (U+4000000)"},
    {"\xFC\x80\x80\x80\x80\xAF", error_code::invalid_byte, "RFC 2279 6-byte overlong '/'"},
    {"\xFD\xBF\xBF\xBF\xBF\xBF", error_code::invalid_byte, "RFC 2279 6-byte U+7FFFFFFF"},
    {"\xFE", error_code::invalid_byte, "FE (never in UTF-8)"},
    {"\xFF", error_code::invalid_byte, "FF (never in UTF-8)"},
    {"\xC0\xAE\xC0\xAE\xC0\xAF", error_code::invalid_byte, "overlong '../'"},
};
// clang-format on

/// The kernels to go through (all of them: the cases are few).
inline std::vector<std::string> kernel_names() {
  std::size_t count = 0;
  const auto* const* list = utf8dfa::detail::available_kernels(count);
  std::vector<std::string> names;
  for (std::size_t k = 0; k < count; ++k) names.emplace_back(list[k]->name);
  return names;
}

/// True when `out` is `prefix`, then one or more `repl`, then `suffix`, and nothing else.
template <class Str>
bool only_replaced(const Str& out, const Str& prefix, const Str& suffix, const Str& repl) {
  if (out.size() < prefix.size() + suffix.size() + repl.size()) return false;
  if (out.compare(0, prefix.size(), prefix) != 0) return false;
  if (out.compare(out.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
  const std::size_t middle = out.size() - prefix.size() - suffix.size();
  if (middle % repl.size() != 0) return false;
  for (std::size_t i = prefix.size(); i < out.size() - suffix.size(); i += repl.size())
    if (out.compare(i, repl.size(), repl) != 0) return false;
  return true;
}

/// Every segment that starts inside [from, to) of `s` is an error decoded as U+FFFD, forwards
/// and backwards.
inline bool never_decoded(std::string_view s, std::size_t from, std::size_t to) {
  for (std::size_t i = 0; i < s.size();) {
    const utf8dfa::decoded d = utf8dfa::decode_next(s, i);
    if (i >= from && i < to && (d.error == error_code::none || d.code_point != utf8dfa::replacement_character))
      return false;
    if (d.length == 0) return false;
    i += d.length;
  }
  for (std::size_t end = s.size(); end > 0;) {
    const utf8dfa::decoded d = utf8dfa::decode_prev(s, end);
    if (d.length == 0) return false;
    end -= d.length;
    if (end >= from && end < to && (d.error == error_code::none || d.code_point != utf8dfa::replacement_character))
      return false;
  }
  return true;
}

/// Lossy decodes of X alone contain nothing but U+FFFD (for the exhaustive families).
inline bool only_fffd(std::string_view x) {
  for (char32_t c : utf8dfa::to_utf32_lossy(x))
    if (c != utf8dfa::replacement_character) return false;
  return !x.empty();
}

/// Puts back the kernel that was active when it was made (test cases that loop over the kernels
/// must not leave the last one selected for the cases that run after them).
struct kernel_restore {
  std::string before{utf8dfa::active_kernel()};
  kernel_restore() = default;
  kernel_restore(const kernel_restore&) = delete;
  kernel_restore& operator=(const kernel_restore&) = delete;
  ~kernel_restore() { utf8dfa::select_kernel(before); }
};

}  // namespace security

TEST_CASE("security: hostile UTF-8 in a path is never decoded to a code point") {
  using namespace utf8dfa;
  const std::string prefix = "a/", suffix = "../b";
  const std::string before(active_kernel());
  for (const std::string& kernel : security::kernel_names()) {
    REQUIRE(select_kernel(kernel));
    for (const security::attack& a : security::attacks) {
      const std::string x = a.bytes;
      const std::string s = prefix + x + suffix;
      INFO("kernel " << kernel << ": " << a.what);

      const validation_result v = validate(s);
      CHECK(!v);
      CHECK(!is_valid(s));
      CHECK(v.valid_up_to == prefix.size());
      CHECK(v.error == a.kind);
      CHECK(security::never_decoded(s, prefix.size(), prefix.size() + x.size()));

      // Lossy decodes: "a/", replacements only, "../b".
      CHECK(security::only_replaced(to_utf32_lossy(s), std::u32string(U"a/"), std::u32string(U"../b"),
                                    std::u32string(U"\uFFFD")));
      CHECK(security::only_replaced(to_utf16_lossy(s), std::u16string(u"a/"), std::u16string(u"../b"),
                                    std::u16string(u"\uFFFD")));
      // A chosen replacement appears instead, never a decoded value.
      const replace underscore{U'_'};
      std::u32string out32(utf32_length_from_utf8(s, underscore), U'\0');
      conversion_result r = utf8_to_utf32(s, out32.data(), underscore);
      CHECK(r.read == s.size());
      CHECK(r.written == out32.size());
      CHECK(r.error == a.kind);
      CHECK(security::only_replaced(out32, std::u32string(U"a/"), std::u32string(U"../b"), std::u32string(U"_")));
      std::u16string out16(utf16_length_from_utf8(s, underscore), u'\0');
      r = utf8_to_utf16(s, out16.data(), underscore);
      CHECK(r.written == out16.size());
      CHECK(security::only_replaced(out16, std::u16string(u"a/"), std::u16string(u"../b"), std::u16string(u"_")));

      // Strict: stops before X, having written only "a/".
      r = utf8_to_utf32(s, out32.data());
      CHECK(r.read == prefix.size());
      CHECK(r.written == prefix.size());
      CHECK(r.error == a.kind);
      r = utf8_to_utf16(s, out16.data());
      CHECK(r.read == prefix.size());
      CHECK(r.written == prefix.size());
      conversion_result status{};
      CHECK(to_utf32(s, status) == U"a/");
      CHECK(status.error == a.kind);
      CHECK(to_utf16(s, status) == u"a/");
#if UTF8DFA_HAS_EXCEPTIONS
      try {
        (void)to_utf32(s);
        FAIL("to_utf32 accepted hostile input");
      } catch (const conversion_error& e) {
        CHECK(e.offset() == prefix.size());
        CHECK(e.code() == a.kind);
      }
#endif
      // Sanitizing through UTF-32 gives well-formed UTF-8 without the dangerous bytes.
      const std::string clean = strict_alloc::to_utf8(to_utf32_lossy(s));
      CHECK(is_valid(clean));
      CHECK(security::only_replaced(clean, prefix, suffix, std::string("\xEF\xBF\xBD")));
    }
  }
  select_kernel(before);
}

TEST_CASE("security: the draft's example 2F C0 AE 2E 2F is not \"/../\"") {
  using namespace utf8dfa;
  const std::string s = "\x2F\xC0\xAE\x2E\x2F";
  const security::kernel_restore restore;
  for (const std::string& kernel : security::kernel_names()) {
    REQUIRE(select_kernel(kernel));
    CHECK(validate(s).valid_up_to == 1);
    CHECK(to_utf32_lossy(s) == U"/\uFFFD\uFFFD./");  // C0 and AE: two maximal subparts
    CHECK(strict_alloc::to_utf8(to_utf16_lossy(s)) == "/\xEF\xBF\xBD\xEF\xBF\xBD./");
    CHECK(to_utf32_lossy(s).find(U"/../") == std::u32string::npos);
  }
}

TEST_CASE("security: every overlong, surrogate and out-of-range form decodes to U+FFFD only") {
  std::size_t checked = 0, failed = 0;
  const auto check = [&](std::string x) {
    ++checked;
    if (!security::only_fffd(x) || utf8dfa::is_valid(x)) ++failed;
  };
  for (unsigned b = 0x80; b <= 0xBF; ++b) {
    check({'\xC0', char(b)});  // overlong U+0000..U+003F
    check({'\xC1', char(b)});  // overlong U+0040..U+007F
  }
  for (unsigned b1 = 0x80; b1 <= 0x9F; ++b1)
    for (unsigned b2 = 0x80; b2 <= 0xBF; ++b2) {
      check({'\xE0', char(b1), char(b2)});         // overlong U+0000..U+07FF
      check({'\xED', char(b1 + 0x20), char(b2)});  // U+D800..U+DFFF
    }
  for (unsigned b1 = 0x80; b1 <= 0x8F; ++b1)
    for (unsigned b2 = 0x80; b2 <= 0xBF; ++b2)
      for (unsigned b3 = 0x80; b3 <= 0xBF; ++b3) check({'\xF0', char(b1), char(b2), char(b3)});  // overlong
  for (unsigned b1 = 0x90; b1 <= 0xBF; ++b1)
    for (unsigned b2 = 0x80; b2 <= 0xBF; ++b2)
      for (unsigned b3 = 0x80; b3 <= 0xBF; b3 += 0x3F) check({'\xF4', char(b1), char(b2), char(b3)});  // > U+10FFFF
  for (unsigned lead = 0xF5; lead <= 0xFF; ++lead)
    for (unsigned b1 = 0x80; b1 <= 0xBF; ++b1) {
      check({char(lead), char(b1), '\x80', '\x80'});
      check({char(lead), char(b1), '\xBF', '\xBF', '\xBF', '\xBF'});  // 5- and 6-byte RFC 2279 shapes
    }
  INFO(failed << " of " << checked << " hostile sequences decoded to something other than U+FFFD");
  CHECK(failed == 0);
  CHECK(checked > 70000);
}

TEST_CASE("security: UTF-16 and UTF-32 input never yields a surrogate or an out-of-range value") {
  using namespace utf8dfa;
  const std::string fffd = "\xEF\xBF\xBD";
  const std::u16string bad16[] = {u"\xD800", u"\xDBFF", u"\xDC00", u"\xDFFF", std::u16string(u"\xDC00\xD800")};
  const char32_t bad32[] = {0xD800, 0xDFFF, 0x110000, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000};
  const security::kernel_restore restore;
  for (const std::string& kernel : security::kernel_names()) {
    REQUIRE(select_kernel(kernel));
    for (const std::u16string& x : bad16) {
      const std::u16string s = u"a/" + x + u"../b";
      const std::string out = to_utf8_lossy(s);
      CHECK(is_valid(out));
      CHECK(security::only_replaced(out, std::string("a/"), std::string("../b"), fffd));
      conversion_result status{};
      CHECK(to_utf8(s, status) == "a/");
      CHECK(status.read == 2);
      CHECK(status.error == error_code::surrogate);
    }
    // A high surrogate that ends the input is `incomplete` (a later chunk could pair it).
    conversion_result status{};
    CHECK(to_utf8(std::u16string(u"a/\xD83D"), status) == "a/");
    CHECK(status.error == error_code::incomplete);
    for (char32_t x : bad32) {
      const std::u32string s = U"a/" + std::u32string(1, x) + U"../b";
      const std::string out = to_utf8_lossy(s);
      CHECK(is_valid(out));
      CHECK(security::only_replaced(out, std::string("a/"), std::string("../b"), fffd));
      CHECK(to_utf8(s, status) == "a/");
      CHECK(status.error == (x > 0x10FFFF ? error_code::too_large : error_code::surrogate));
    }
  }
  // encode refuses what UTF-8 cannot carry.
  char buf[4] = {'x', 'x', 'x', 'x'};
  for (char32_t x : bad32) CHECK(encode(x, buf) == 0);
  CHECK(std::string(buf, 4) == "xxxx");
}

TEST_CASE("security: the replacement policy ignores a replacement that is not a scalar value") {
  using namespace utf8dfa;
  const std::string s = "a/\xC0\xAF../b";
  for (char32_t bad : {char32_t(0xD800), char32_t(0xDFFF), char32_t(0x110000), char32_t(0xFFFFFFFE)}) {
    const replace r{bad};
    std::u32string out(utf32_length_from_utf8(s, r), U'\0');
    CHECK(utf8_to_utf32(s, out.data(), r).written == out.size());
    CHECK(security::only_replaced(out, std::u32string(U"a/"), std::u32string(U"../b"), std::u32string(U"\uFFFD")));
  }
}

// Size arithmetic. The length helpers add at most 4 output units per input unit, so none can wrap:
// the worst expansions are 4 bytes of UTF-8 per 2-byte UTF-16 unit (an unpaired surrogate with a
// supplementary replacement) and 2 UTF-16 units per UTF-8 byte (each byte its own ill-formed
// subpart, again with a supplementary replacement): at most twice the input's size in bytes, and
// no object exceeds PTRDIFF_MAX = SIZE_MAX / 2 bytes. These cases pin those worst ratios exactly.
TEST_CASE("size arithmetic: the worst expansions are exact and bounded by twice the input bytes") {
  using namespace utf8dfa;
  const std::size_t n = std::size_t{1} << 20;
  const replace wide{U'\U0001F4A9'};
  const std::u16string lone(n, u'\xD800');
  CHECK(utf8_length_from_utf16(lone, wide) == 4 * n);
  CHECK(utf8_length_from_utf16(lone) == 3 * n);
  CHECK(utf8_length_from_utf16(lone, wide) <= 2 * (n * sizeof(char16_t)));
  const std::u32string big(n, char32_t{0x10FFFF});
  CHECK(utf8_length_from_utf32(big) == 4 * n);  // == the input's size in bytes
  const std::u32string bad32(n, char32_t{0xFFFFFFFF});
  CHECK(utf8_length_from_utf32(bad32, wide) == 4 * n);
  const std::string junk(n, '\x80');  // every byte its own maximal subpart
  CHECK(utf16_length_from_utf8(junk, wide) == 2 * n);
  CHECK(utf32_length_from_utf8(junk, wide) == n);
  const std::string four = "\xF0\x9F\x98\x80";
  std::string emoji;
  for (std::size_t i = 0; i < n / 4; ++i) emoji += four;
  CHECK(utf16_length_from_utf8(emoji) == n / 2);  // 2 units per 4 bytes
  // The conversions write exactly what the helpers said.
  std::string out(utf8_length_from_utf16(lone, wide), '\0');
  CHECK(utf16_to_utf8(lone, out.data(), wide).written == out.size());
  std::u16string out16(utf16_length_from_utf8(junk, wide), u'\0');
  CHECK(utf8_to_utf16(junk, out16.data(), wide).written == out16.size());
}

#if __has_include(<utf8dfa/views.hpp>)

TEST_CASE("security: code_points never yields a decoded hostile sequence, forwards or backwards") {
  for (const security::attack& a : security::attacks) {
    const std::string s = std::string("a/") + a.bytes + "../b";
    const std::list<char> bytes(s.begin(), s.end());  // the byte-at-a-time path
    INFO(a.what);
    std::u32string fwd, fwd_list, back;
    for (char32_t c : utf8dfa::code_points(s)) fwd += c;
    for (char32_t c : utf8dfa::code_points(bytes)) fwd_list += c;
    const auto view = utf8dfa::code_points(s);
    for (auto it = view.end(); it != view.begin();) back.insert(back.begin(), *--it);
    CHECK(security::only_replaced(fwd, std::u32string(U"a/"), std::u32string(U"../b"), std::u32string(U"\uFFFD")));
    CHECK(fwd_list == fwd);
    CHECK(back == fwd);
  }
}
#endif

#if __has_include(<utf8dfa/stream.hpp>)

TEST_CASE("security: streaming one byte at a time never decodes a hostile sequence") {
  for (const security::attack& a : security::attacks) {
    const std::string s = std::string("a/") + a.bytes + "../b";
    INFO(a.what);
    utf8dfa::validator v;
    utf8dfa::decoder<utf8dfa::replace, char32_t> d;
    std::u32string out;
    char32_t buf[8];
    for (char c : s) {
      v.feed(&c, 1);
      const auto r = d.feed(&c, 1, buf);
      out.append(buf, r.written);
    }
    std::vector<char32_t> tail;
    d.finish(std::back_inserter(tail));
    out.append(tail.begin(), tail.end());
    const utf8dfa::validation_result r = v.finish();
    CHECK(r.valid_up_to == 2);
    CHECK(r.error == a.kind);
    CHECK(security::only_replaced(out, std::u32string(U"a/"), std::u32string(U"../b"), std::u32string(U"\uFFFD")));
    CHECK(out == utf8dfa::to_utf32_lossy(s));
  }
}
#endif

}  // namespace utf8dfa_test_security
