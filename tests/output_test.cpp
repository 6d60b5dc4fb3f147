// utf8_output_iterator / utf16_output_iterator: every scalar value round trip, every surrogate and
// a spread of values above U+10FFFF under strict and replace, many kinds of underlying iterator.
#include <utf8dfa/output.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <list>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <utf8dfa/decode.hpp>
#include <utf8dfa/encode.hpp>
#include <utf8dfa/transcode.hpp>
#include <utf8dfa/validate.hpp>
#include <utf8dfa/views.hpp>

#include "catch.hpp"

namespace utf8dfa_test_output {  // the file's own names (the suite also builds as unity sources)

namespace output_test {

// Values that are not scalar values: every surrogate, and values above U+10FFFF up to 2^32 - 1.
std::vector<char32_t> invalid_values() {
  std::vector<char32_t> v;
  for (char32_t c = 0xD800; c <= 0xDFFF; ++c) v.push_back(c);
  for (char32_t c = 0x110000; c < 0x110100; ++c) v.push_back(c);
  for (unsigned shift = 21; shift < 32; ++shift) {
    v.push_back(char32_t{1} << shift);
    v.push_back((char32_t{1} << shift) - 1);  // 0x1FFFFF, ...: filtered below when a scalar value
    v.push_back((char32_t{1} << shift) | 0x1234);
  }
  v.push_back(0xFFFFFFFFu);
  v.erase(std::remove_if(v.begin(), v.end(), [](char32_t c) { return utf8dfa::is_scalar_value(c); }), v.end());
  return v;
}

}  // namespace output_test

using namespace output_test;

TEST_CASE("utf8_output: every scalar value encodes as encode() does and decodes back") {
  std::string out;
  auto it = utf8dfa::utf8_output(std::back_inserter(out));
  std::size_t values = 0;
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    if (!utf8dfa::is_scalar_value(c)) continue;
    *it++ = c;
    ++values;
  }
  REQUIRE(values == 0x110000 - 0x800);
  REQUIRE(it.error() == utf8dfa::error_code::none);
  REQUIRE(it.result().read == values);
  REQUIRE(it.result().written == out.size());

  std::size_t pos = 0, failures = 0;
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    if (!utf8dfa::is_scalar_value(c)) continue;
    char expected[4];
    const std::size_t n = utf8dfa::encode(c, expected);
    const utf8dfa::decoded d = utf8dfa::decode_next(out, pos);
    if (out.compare(pos, n, expected, n) != 0 || d.code_point != c || d.length != n ||
        d.error != utf8dfa::error_code::none)
      ++failures;
    pos += n;
  }
  REQUIRE(pos == out.size());
  REQUIRE(failures == 0);
  REQUIRE(utf8dfa::is_valid(out));
}

TEST_CASE("utf16_output: every scalar value agrees with the UTF-8 to UTF-16 transcoder") {
  std::string utf8;
  std::u16string utf16;
  auto o8 = utf8dfa::utf8_output(std::back_inserter(utf8));
  auto o16 = utf8dfa::utf16_output(std::back_inserter(utf16));
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    if (!utf8dfa::is_scalar_value(c)) continue;
    *o8++ = c;
    *o16++ = c;
  }
  REQUIRE(o16.error() == utf8dfa::error_code::none);
  REQUIRE(o16.result().written == utf16.size());
  REQUIRE(utf16.size() == 0x110000 - 0x800 + 0x100000);  // one unit each, a second for supplementary
  REQUIRE(utf16 == utf8dfa::to_utf16_lossy(utf8));
  // And back: UTF-16 to UTF-8 through the core gives the UTF-8 the other iterator wrote.
  REQUIRE(utf8dfa::to_utf8_lossy(utf16) == utf8);
}

TEST_CASE("output iterators: strict rejects the first invalid value and writes nothing more") {
  for (char32_t bad : invalid_values()) {
    std::string out;
    const char32_t input[] = {U'a', U'\u00E9', bad, U'b', U'\U0001F600'};
    const auto it = std::copy(std::begin(input), std::end(input), utf8dfa::utf8_output(std::back_inserter(out)));
    const utf8dfa::error_code expected_kind =
        bad > 0x10FFFF ? utf8dfa::error_code::too_large : utf8dfa::error_code::surrogate;
    REQUIRE(it.error() == expected_kind);
    REQUIRE(!it.result());
    REQUIRE(it.result().read == 2);
    REQUIRE(out == "a\xC3\xA9");
    REQUIRE(it.result().written == out.size());

    std::u16string out16;
    const auto it16 = std::copy(std::begin(input), std::end(input), utf8dfa::utf16_output(std::back_inserter(out16)));
    REQUIRE(it16.error() == expected_kind);
    REQUIRE(it16.result().read == 2);
    REQUIRE(out16 == u"a\u00E9");
  }
}

TEST_CASE("output iterators: replace writes the replacement for each invalid value and goes on") {
  const std::vector<char32_t> bad = invalid_values();
  std::vector<char32_t> input;
  std::u32string expected;
  std::mt19937 rng(1);
  for (char32_t b : bad) {
    const char32_t good = static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(0, 0xD7FF)(rng));
    input.push_back(good);
    input.push_back(b);
    expected.push_back(good);
    expected.push_back(utf8dfa::replacement_character);
  }
  std::string out;
  const auto it =
      std::copy(input.begin(), input.end(), utf8dfa::utf8_output(std::back_inserter(out), utf8dfa::replace{}));
  REQUIRE(it.error() == utf8dfa::error_code::surrogate);  // the first invalid value
  REQUIRE(it.result().read == input.size());
  REQUIRE(it.result().written == out.size());
  REQUIRE(utf8dfa::to_utf32_lossy(out) == expected);
  REQUIRE(utf8dfa::is_valid(out));

  std::u16string out16;
  std::copy(input.begin(), input.end(), utf8dfa::utf16_output(std::back_inserter(out16), utf8dfa::replace{}));
  REQUIRE(utf8dfa::to_utf8_lossy(out16) == out);

  // A chosen replacement; one that is not a scalar value falls back to U+FFFD.
  std::string q;
  auto qi = utf8dfa::utf8_output(std::back_inserter(q), utf8dfa::replace{U'?'});
  *qi++ = 0xD800;
  *qi++ = U'x';
  *qi++ = 0x110000;
  REQUIRE(q == "?x?");
  std::u16string e16;
  auto ei = utf8dfa::utf16_output(std::back_inserter(e16), utf8dfa::replace{U'\U0001F4A9'});
  *ei++ = 0xDFFF;
  REQUIRE(e16 == u"\U0001F4A9");
  std::string f;
  auto fi = utf8dfa::utf8_output(std::back_inserter(f), utf8dfa::replace{0xDC00});
  *fi++ = 0xDC00;
  REQUIRE(utf8dfa::to_utf32_lossy(f) == std::u32string(1, utf8dfa::replacement_character));
}

TEST_CASE("output iterators: underlying iterators of every kind and code-unit type") {
  const std::u32string text = U"a\u00E9\u20AC\U0001F600";
  std::string reference;
  std::copy(text.begin(), text.end(), utf8dfa::utf8_output(std::back_inserter(reference)));
  REQUIRE(reference == utf8dfa::to_utf8_lossy(text));

  std::vector<unsigned char> uc;
  std::copy(text.begin(), text.end(), utf8dfa::utf8_output(std::back_inserter(uc)));
  REQUIRE(std::equal(uc.begin(), uc.end(), reference.begin(), reference.end(),
                     [](unsigned char a, char b) { return a == static_cast<unsigned char>(b); }));

  std::vector<std::byte> bytes;
  std::copy(text.begin(), text.end(), utf8dfa::utf8_output(std::back_inserter(bytes)));
  REQUIRE(bytes.size() == reference.size());
  REQUIRE(utf8dfa::to_utf32_lossy(bytes) == text);

#if UTF8DFA_HAS_CHAR8_T
  std::u8string u8;
  std::copy(text.begin(), text.end(), utf8dfa::utf8_output(std::back_inserter(u8)));
  REQUIRE(utf8dfa::to_utf32_lossy(u8) == text);
#endif

  char buffer[16] = {};
  const auto end = std::copy(text.begin(), text.end(), utf8dfa::utf8_output(buffer));
  REQUIRE(std::string(buffer, end.base()) == reference);

  std::ostringstream stream;
  std::copy(text.begin(), text.end(), utf8dfa::utf8_output(std::ostreambuf_iterator<char>(stream)));
  REQUIRE(stream.str() == reference);

  std::list<char> list;
  std::copy(text.begin(), text.end(), utf8dfa::utf8_output(std::back_inserter(list)));
  REQUIRE(std::string(list.begin(), list.end()) == reference);

  std::vector<char16_t> units;
  std::copy(text.begin(), text.end(), utf8dfa::utf16_output(std::back_inserter(units)));
  REQUIRE(std::u16string(units.begin(), units.end()) == utf8dfa::to_utf16_lossy(reference));
  char16_t u16buf[8] = {};
  const auto u16end = std::copy(text.begin(), text.end(), utf8dfa::utf16_output(u16buf));
  REQUIRE(std::u16string(u16buf, u16end.base()) == utf8dfa::to_utf16_lossy(reference));
}

TEST_CASE("output iterators: sanitizing = decoding with code_points, encoding with utf8_output") {
  std::mt19937 rng(8);
  for (int round = 0; round < 500; ++round) {
    std::string s(std::uniform_int_distribution<std::size_t>(0, 40)(rng), '\0');
    for (char& c : s) c = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
    std::string clean;
    const auto v = utf8dfa::code_points(s);
    const auto out = std::copy(v.begin(), v.end(), utf8dfa::utf8_output(std::back_inserter(clean)));
    REQUIRE(out.error() == utf8dfa::error_code::none);  // the decoder only yields scalar values
    REQUIRE(utf8dfa::is_valid(clean));
    REQUIRE(clean == utf8dfa::to_utf8_lossy(utf8dfa::to_utf32_lossy(s)));
  }
}

TEST_CASE("output iterators: iterator requirements") {
  using it8 = utf8dfa::utf8_output_iterator<std::back_insert_iterator<std::string>>;
  using it16 = utf8dfa::utf16_output_iterator<char16_t*, utf8dfa::replace>;
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<it8>::iterator_category, std::output_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<it16>::iterator_category, std::output_iterator_tag>);
#if UTF8DFA_HAS_RANGES
  STATIC_REQUIRE(std::output_iterator<it8, char32_t>);
  STATIC_REQUIRE(std::output_iterator<it16, char32_t>);
#endif
}

namespace output_test {

constexpr bool constexpr_encoding() {
  char buf[8] = {};
  auto it = utf8dfa::utf8_output(static_cast<char*>(buf));
  *it++ = U'\u00E9';
  *it++ = U'\U0001F600';
  *it++ = 0xD800;  // rejected: nothing written
  const auto n = static_cast<std::size_t>(it.base() - buf);
  char16_t units[4] = {};
  auto u = utf8dfa::utf16_output(static_cast<char16_t*>(units));
  *u++ = U'\U0001F600';
  return n == 6 && it.error() == utf8dfa::error_code::surrogate &&
         utf8dfa::decode_next(std::string_view(buf, n), 0).code_point == U'\u00E9' &&
         utf8dfa::decode_next(std::string_view(buf, n), 2).code_point == U'\U0001F600' && units[0] == 0xD83D &&
         units[1] == 0xDE00 && u.result().written == 2;
}
static_assert(constexpr_encoding(), "the output iterators work in constant expressions");

}  // namespace output_test

namespace output_test {

// The code unit each factory would write, through the same deduction the iterators use.
template <class OutIt>
using unit8 = utf8dfa::detail::output_unit_t<OutIt, char>;
template <class OutIt>
using unit16 = utf8dfa::detail::output_unit_t<OutIt, char16_t>;

template <class OutIt>
constexpr bool utf8_ok = utf8dfa::detail::is_utf8_output_unit_v<unit8<OutIt>>;
template <class OutIt>
constexpr bool utf16_ok = utf8dfa::detail::is_utf16_output_unit_v<unit16<OutIt>>;

}  // namespace output_test

TEST_CASE("output iterators: an output whose code unit cannot hold the encoding's units does not compile") {
  using namespace output_test;
  // UTF-16 into bytes would truncate every unit (U+20AC U+1F600 came out as AC 3D 00): refused.
  STATIC_REQUIRE_FALSE(utf16_ok<std::back_insert_iterator<std::string>>);
  STATIC_REQUIRE_FALSE(utf16_ok<std::back_insert_iterator<std::vector<unsigned char>>>);
  STATIC_REQUIRE_FALSE(utf16_ok<std::back_insert_iterator<std::vector<std::byte>>>);
  STATIC_REQUIRE_FALSE(utf16_ok<std::back_insert_iterator<std::vector<std::int16_t>>>);
  STATIC_REQUIRE_FALSE(utf16_ok<std::back_insert_iterator<std::vector<bool>>>);
  STATIC_REQUIRE_FALSE(utf16_ok<char*>);
  STATIC_REQUIRE_FALSE(utf16_ok<std::ostreambuf_iterator<char>>);
#if UTF8DFA_HAS_CHAR8_T
  STATIC_REQUIRE_FALSE(utf16_ok<std::back_insert_iterator<std::u8string>>);
#endif
  // UTF-8 into 16- or 32-bit units is lossless but almost always a mix-up: refused too.
  STATIC_REQUIRE_FALSE(utf8_ok<std::back_insert_iterator<std::u16string>>);
  STATIC_REQUIRE_FALSE(utf8_ok<std::back_insert_iterator<std::u32string>>);
  STATIC_REQUIRE_FALSE(utf8_ok<std::back_insert_iterator<std::vector<int>>>);
  STATIC_REQUIRE_FALSE(utf8_ok<char16_t*>);
  STATIC_REQUIRE_FALSE(utf8_ok<std::back_insert_iterator<std::vector<bool>>>);
  // What works.
  STATIC_REQUIRE(utf8_ok<std::back_insert_iterator<std::string>>);
  STATIC_REQUIRE(utf8_ok<std::back_insert_iterator<std::vector<unsigned char>>>);
  STATIC_REQUIRE(utf8_ok<std::back_insert_iterator<std::vector<signed char>>>);
  STATIC_REQUIRE(utf8_ok<std::back_insert_iterator<std::vector<std::byte>>>);
  STATIC_REQUIRE(utf8_ok<std::ostreambuf_iterator<char>>);
  STATIC_REQUIRE(utf8_ok<char*>);
#if UTF8DFA_HAS_CHAR8_T
  STATIC_REQUIRE(utf8_ok<std::back_insert_iterator<std::u8string>>);
#endif
  STATIC_REQUIRE(utf16_ok<std::back_insert_iterator<std::u16string>>);
  STATIC_REQUIRE(utf16_ok<std::back_insert_iterator<std::vector<std::uint16_t>>>);
  STATIC_REQUIRE(utf16_ok<std::back_insert_iterator<std::u32string>>);
  STATIC_REQUIRE(utf16_ok<std::back_insert_iterator<std::vector<int>>>);
  STATIC_REQUIRE(utf16_ok<char16_t*>);
  STATIC_REQUIRE(utf16_ok<std::uint16_t*>);

  // The accepted wider units get the right values (no truncation, no sign trouble).
  const std::u32string text = U"a\u20AC\U0001F600";
  std::vector<std::uint16_t> u16;
  std::copy(text.begin(), text.end(), utf8dfa::utf16_output(std::back_inserter(u16)));
  REQUIRE(u16 == std::vector<std::uint16_t>{0x61, 0x20AC, 0xD83D, 0xDE00});
  std::u32string wide;
  std::copy(text.begin(), text.end(), utf8dfa::utf16_output(std::back_inserter(wide)));
  REQUIRE(wide == std::u32string{0x61, 0x20AC, 0xD83D, 0xDE00});
  std::vector<int> ints;
  std::copy(text.begin(), text.end(), utf8dfa::utf16_output(std::back_inserter(ints)));
  REQUIRE(ints == std::vector<int>{0x61, 0x20AC, 0xD83D, 0xDE00});
  std::vector<signed char> sc;
  std::copy(text.begin(), text.end(), utf8dfa::utf8_output(std::back_inserter(sc)));
  REQUIRE(sc.size() == 8);
  REQUIRE(static_cast<unsigned char>(sc[1]) == 0xE2);
  REQUIRE(static_cast<unsigned char>(sc[4]) == 0xF0);
}

}  // namespace utf8dfa_test_output
