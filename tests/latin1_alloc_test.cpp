// Latin-1's allocating conversions (latin1_to_utf8/16/32(bytes), to_latin1, to_latin1_lossy) and the
// length helpers with a policy: every Latin-1 byte, random input against the pointer forms (which
// latin1_test.cpp checks against the rules), long input whose pieces end at an error, refused
// replacements. Runs under every kernel.
#include <utf8dfa/latin1.hpp>

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <utf8dfa/error.hpp>
#include <utf8dfa/transcode.hpp>

#include "catch.hpp"

namespace utf8dfa_test_latin1_alloc {  // the file's own names (the suite also builds as unity sources)

namespace latin1_alloc_test {

using utf8dfa::conversion_result;
using utf8dfa::error_code;

// What the pointer form writes for `in` under `pol`, with its result.
struct pointer_out {
  std::string out;
  conversion_result r;
};

template <class Str, class Policy>
pointer_out by_pointer(const Str& in, Policy pol) {
  std::string out(in.size() + 1, '\0');
  conversion_result r{};
  if constexpr (sizeof(typename Str::value_type) == 1)
    r = utf8dfa::utf8_to_latin1(in, out.data(), pol);
  else if constexpr (sizeof(typename Str::value_type) == 2)
    r = utf8dfa::utf16_to_latin1(in, out.data(), pol);
  else
    r = utf8dfa::utf32_to_latin1(in, out.data(), pol);
  out.resize(r.written);
  return {out, r};
}

template <class Str>
std::size_t length_of(const Str& in, utf8dfa::replace r) {
  if constexpr (sizeof(typename Str::value_type) == 1)
    return utf8dfa::latin1_length_from_utf8(in, r);
  else if constexpr (sizeof(typename Str::value_type) == 2)
    return utf8dfa::latin1_length_from_utf16(in, r);
  else
    return utf8dfa::latin1_length_from_utf32(in, r);
}

template <class Str>
std::size_t length_of(const Str& in, utf8dfa::skip) {
  if constexpr (sizeof(typename Str::value_type) == 1)
    return utf8dfa::latin1_length_from_utf8(in, utf8dfa::skip{});
  else if constexpr (sizeof(typename Str::value_type) == 2)
    return utf8dfa::latin1_length_from_utf16(in, utf8dfa::skip{});
  else
    return utf8dfa::latin1_length_from_utf32(in, utf8dfa::skip{});
}

template <class Str>
std::size_t length_of(const Str& in) {
  if constexpr (sizeof(typename Str::value_type) == 1)
    return utf8dfa::latin1_length_from_utf8(in);
  else if constexpr (sizeof(typename Str::value_type) == 2)
    return utf8dfa::latin1_length_from_utf16(in);
  else
    return utf8dfa::latin1_length_from_utf32(in);
}

int failures = 0;

// to_latin1 of input that must be well-formed Latin-1 text (a failure otherwise).
template <class Str>
std::string well_formed_latin1(const Str& in) {
  conversion_result status{};
  std::string out = utf8dfa::to_latin1(in, status);
  if (status.error != error_code::none || status.read != in.size() || status.written != out.size()) ++failures;
  return out;
}

// Every allocating form into Latin-1, and the length helpers, against the pointer forms.
template <class Str>
void check_into_latin1(const Str& in) {
  const pointer_out strict_ptr = by_pointer(in, utf8dfa::strict{});
  conversion_result status{7, 7, error_code::too_large};
  const std::string strict_out = utf8dfa::to_latin1(in, status);
  if (strict_out != strict_ptr.out || status.read != strict_ptr.r.read || status.written != strict_ptr.r.written ||
      status.error != strict_ptr.r.error)
    ++failures;
#if UTF8DFA_HAS_EXCEPTIONS
  try {
    if (utf8dfa::to_latin1(in) != strict_ptr.out || strict_ptr.r.error != error_code::none) ++failures;
  } catch (const utf8dfa::conversion_error& e) {
    if (e.offset() != strict_ptr.r.read || e.code() != strict_ptr.r.error || strict_ptr.r.error == error_code::none)
      ++failures;
  }
#endif
  for (char32_t c : {U'?', char32_t{0}, char32_t{0xBF}, char32_t{0xFF}}) {
    const pointer_out p = by_pointer(in, utf8dfa::replace{c});
    if (utf8dfa::to_latin1_lossy(in, utf8dfa::replace{c}) != p.out ||
        length_of(in, utf8dfa::replace{c}) != p.out.size())
      ++failures;
  }
  const pointer_out q = by_pointer(in, utf8dfa::replace{U'?'});
  if (utf8dfa::to_latin1_lossy(in) != q.out || length_of(in) != q.out.size()) ++failures;
  const pointer_out s = by_pointer(in, utf8dfa::skip{});
  if (utf8dfa::to_latin1_lossy(in, utf8dfa::skip{}) != s.out || length_of(in, utf8dfa::skip{}) != s.out.size())
    ++failures;
  // strict writes at most what replace writes
  if (length_of(in) < strict_ptr.out.size()) ++failures;
}

// Latin-1 bytes to each UTF form against the pointer forms.
void check_from_latin1(const std::string& in) {
  std::string u8(utf8dfa::utf8_length_from_latin1(in), '\0');
  u8.resize(utf8dfa::latin1_to_utf8(in, u8.data()));
  std::u16string u16(in.size(), u'\0');
  u16.resize(utf8dfa::latin1_to_utf16(in, u16.data()));
  std::u32string u32(in.size(), U'\0');
  u32.resize(utf8dfa::latin1_to_utf32(in, u32.data()));
  if (utf8dfa::latin1_to_utf8(in) != u8 || utf8dfa::latin1_to_utf16(in) != u16 || utf8dfa::latin1_to_utf32(in) != u32)
    ++failures;
}

}  // namespace latin1_alloc_test

using namespace latin1_alloc_test;

TEST_CASE("latin1 allocating: every byte, alone and all together, each way") {
  failures = 0;
  std::string all;
  for (unsigned b = 0; b < 256; ++b) {
    const std::string one(1, static_cast<char>(b));
    all += one;
    const std::string u8 = utf8dfa::latin1_to_utf8(one);
    REQUIRE(u8.size() == (b < 0x80 ? 1u : 2u));
    REQUIRE(utf8dfa::to_utf32_lossy(u8) == std::u32string(1, static_cast<char32_t>(b)));
    REQUIRE(utf8dfa::latin1_to_utf16(one) == std::u16string(1, static_cast<char16_t>(b)));
    REQUIRE(utf8dfa::latin1_to_utf32(one) == std::u32string(1, static_cast<char32_t>(b)));
    REQUIRE(well_formed_latin1(u8) == one);
    REQUIRE(well_formed_latin1(utf8dfa::latin1_to_utf16(one)) == one);
    REQUIRE(well_formed_latin1(utf8dfa::latin1_to_utf32(one)) == one);
    REQUIRE(utf8dfa::latin1_length_from_utf8(u8, utf8dfa::replace{U'?'}) == 1);
    check_from_latin1(one);
    check_into_latin1(u8);
  }
  const std::string u8 = utf8dfa::latin1_to_utf8(all);
  REQUIRE(u8.size() == 384);
  REQUIRE(utf8dfa::to_utf32_lossy(u8) == utf8dfa::latin1_to_utf32(all));
  REQUIRE(utf8dfa::to_utf16_lossy(u8) == utf8dfa::latin1_to_utf16(all));
  REQUIRE(well_formed_latin1(u8) == all);
  REQUIRE(well_formed_latin1(utf8dfa::latin1_to_utf16(all)) == all);
  REQUIRE(well_formed_latin1(utf8dfa::latin1_to_utf32(all)) == all);
  // Other byte ranges, and the empty input.
  const std::vector<unsigned char> uc(all.begin(), all.end());
  REQUIRE(utf8dfa::latin1_to_utf8(uc) == u8);
  REQUIRE(utf8dfa::latin1_to_utf8("").empty());
  REQUIRE(utf8dfa::latin1_to_utf16(std::string_view()).empty());
  conversion_result status{1, 1, error_code::too_large};
  REQUIRE(utf8dfa::to_latin1(std::u32string_view(), status).empty());
  REQUIRE((status.read == 0 && status.written == 0 && status.error == error_code::none));
  REQUIRE(failures == 0);
}

TEST_CASE("latin1 allocating: random input against the pointer forms") {
  failures = 0;
  std::mt19937 rng(28);
  const std::vector<std::string> pieces = {
      "a",    "\x7F",     "\xC3\xA9",     "\xC3\xBF",         "\xC4\x80", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x80",
      "\xC0", "\xE0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF",     "\xF0\x9F",     "abcdefghij"};
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  for (int round = 0; round < 1500; ++round) {
    std::string s;
    const std::size_t n = std::uniform_int_distribution<std::size_t>(0, round < 1400 ? 8 : 80)(rng);
    for (std::size_t k = 0; k < n; ++k) s += pieces[pick(rng)];
    check_into_latin1(s);
    check_from_latin1(s);
  }
  const std::vector<char16_t> units = {0x41, 0xE9, 0xFF, 0x100, 0x20AC, 0xD83D, 0xDE00, 0xD800, 0xDFFF, 0xFFFD};
  std::uniform_int_distribution<std::size_t> pick16(0, units.size() - 1);
  for (int round = 0; round < 1000; ++round) {
    std::u16string s(std::uniform_int_distribution<std::size_t>(0, round < 900 ? 10 : 100)(rng), u'\0');
    for (char16_t& u : s) u = units[pick16(rng)];
    check_into_latin1(s);
  }
  const std::vector<char32_t> values = {0x41, 0xE9, 0xFF, 0x100, 0x20AC, 0xD800, 0x1F600, 0x10FFFF, 0x110000};
  std::uniform_int_distribution<std::size_t> pick32(0, values.size() - 1);
  for (int round = 0; round < 1000; ++round) {
    std::u32string s(std::uniform_int_distribution<std::size_t>(0, round < 900 ? 10 : 100)(rng), U'\0');
    for (char32_t& c : s) c = values[pick32(rng)];
    check_into_latin1(s);
  }
  REQUIRE(failures == 0);
}

TEST_CASE("latin1 allocating: long input, pieces that end at an error or inside a pair") {
  failures = 0;
  std::mt19937 rng(2028);
  // Past the first piece (16 KiB of output, cut at a multiple of 64 input units): Latin-1 text, and
  // the error or pair placed across each cut near it.
  std::string latin(40000, 'x');
  for (char& c : latin) c = static_cast<char>(std::uniform_int_distribution<int>(0x20, 0xFF)(rng));
  check_from_latin1(latin);
  check_from_latin1(std::string(70000, '\xE9'));
  const std::string u8 = utf8dfa::latin1_to_utf8(latin);
  REQUIRE(well_formed_latin1(u8) == latin);
  for (std::size_t cut : {std::size_t{16384}, std::size_t{16320}, std::size_t{32768}}) {
    for (std::size_t back = 0; back < 4; ++back) {
      // "E2 82" ends right before the cut, a plain byte after it: too_short for the whole input.
      std::string s(40000, 'a');
      s.replace(cut - 2 - back, 2, "\xE2\x82");
      check_into_latin1(s);
      conversion_result status{};
      utf8dfa::to_latin1(s, status);
      REQUIRE(status.error == error_code::too_short);
      REQUIRE(status.read == cut - 2 - back);
      // A character above U+00FF across the cut.
      std::string t(40000, '\xC3');
      for (std::size_t i = 1; i < t.size(); i += 2) t[i] = '\xA9';
      t.replace(cut - 1 - back, 3, "\xE2\x82\xAC");
      check_into_latin1(t);
      // A surrogate pair across the cut, then an unpaired one.
      std::u16string u(40000, u'\xE9');
      u[cut - 1 - back] = 0xD83D;
      u[cut - back] = 0xDE00;
      u[cut + 100] = 0xD800;
      check_into_latin1(u);
      std::u32string w(40000, U'\xE9');
      w[cut - back] = 0x20AC;
      check_into_latin1(w);
    }
  }
  REQUIRE(failures == 0);
}

TEST_CASE("latin1 allocating: a replacement above U+00FF is refused: an empty result, whatever the input") {
  for (char32_t bad : {U'\uFFFD', U'\u0100', U'\U0001F600'}) {
    const utf8dfa::replace r{bad};
    REQUIRE(utf8dfa::to_latin1_lossy("abc\xC3\xA9", r).empty());
    REQUIRE(utf8dfa::to_latin1_lossy(u"abc\u20AC", r).empty());
    REQUIRE(utf8dfa::to_latin1_lossy(U"abc", r).empty());
    REQUIRE(utf8dfa::latin1_length_from_utf8("abc\xC3\xA9", r) == 0);
    REQUIRE(utf8dfa::latin1_length_from_utf16(u"abc", r) == 0);
    REQUIRE(utf8dfa::latin1_length_from_utf32(U"abc", r) == 0);
  }
  // replace{} is U+FFFD: refused; the default argument is replace{U'?'}.
  REQUIRE(utf8dfa::to_latin1_lossy("a\xC4\x80", {}).empty());
  REQUIRE(utf8dfa::to_latin1_lossy("a\xC4\x80") == "a?");
  REQUIRE(utf8dfa::to_latin1_lossy(u"a\u0100\xD800") == "a??");
  REQUIRE(utf8dfa::to_latin1_lossy(U"a\u0100", utf8dfa::skip{}) == "a");
  REQUIRE(utf8dfa::to_latin1_lossy("\xFF"
                                   "a\xC3\xBF",
                                   utf8dfa::replace{0xBF}) ==
          "\xBF"
          "a\xFF");
  REQUIRE(utf8dfa::latin1_length_from_utf8("a\xC4\x80\xFF", utf8dfa::replace{U'?'}) == 3);
  REQUIRE(utf8dfa::latin1_length_from_utf8("a\xC4\x80\xFF", utf8dfa::skip{}) == 1);
}

#if UTF8DFA_HAS_EXCEPTIONS
TEST_CASE("latin1 allocating: to_latin1 throws conversion_error with the offset and the kind") {
  struct case8 {
    std::string in;
    std::size_t offset;
    error_code code;
  };
  for (const case8& c :
       {case8{"ab\xC4\x80", 2, error_code::unrepresentable}, case8{"\xC3\xA9\xFF", 2, error_code::invalid_byte},
        case8{"a\xE2\x82", 1, error_code::incomplete}, case8{"a\xED\xA0\x80", 1, error_code::surrogate}}) {
    try {
      (void)utf8dfa::to_latin1(c.in);
      FAIL("no exception");
    } catch (const utf8dfa::conversion_error& e) {
      REQUIRE(e.offset() == c.offset);
      REQUIRE(e.code() == c.code);
    }
  }
  try {
    (void)utf8dfa::to_latin1(u"\xE9\x20AC");
    FAIL("no exception");
  } catch (const utf8dfa::conversion_error& e) {
    REQUIRE(e.offset() == 1);
    REQUIRE(e.code() == error_code::unrepresentable);
  }
  try {
    (void)utf8dfa::to_latin1(U"ab\xD800");
    FAIL("no exception");
  } catch (const utf8dfa::conversion_error& e) {
    REQUIRE(e.offset() == 2);
    REQUIRE(e.code() == error_code::surrogate);
  }
  REQUIRE(utf8dfa::to_latin1(U"\xFF") == "\xFF");
}
#endif

}  // namespace utf8dfa_test_latin1_alloc
