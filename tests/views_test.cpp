// code_points(bytes): every accepted input type, range-for, standard algorithms, and in C++20 the
// range concepts and composition with std::views.
#include <utf8dfa/views.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <list>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <utf8dfa/decode.hpp>
#include <utf8dfa/encode.hpp>
#include <utf8dfa/transcode.hpp>

#if UTF8DFA_HAS_SPAN
#include <span>
#endif
#if UTF8DFA_HAS_RANGES_VIEWS
#include <ranges>
#endif

#include "catch.hpp"

namespace utf8dfa_test_views {  // the file's own names (the suite also builds as unity sources)

namespace views_test {

// Well-formed text from every UTF-8 length, then some ill-formed subparts.
const std::string sample =
    "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"  // A, e acute, euro sign, grinning face
    "\xC0\xAF"                               // overlong '/': two subparts
    "\xE2\x82"                               // a truncated euro sign: one subpart
    "z\xED\xA0\x80\xF4\x90\x80\x80\xFF\x80"  // z, a surrogate, above U+10FFFF, invalid byte, lone continuation
    "\xCE\xA9";                              // Omega

std::u32string collect_range_for(const std::string& s) {
  std::u32string out;
  for (char32_t c : utf8dfa::code_points(s)) out.push_back(c);
  return out;
}

template <class View>
std::u32string collect(const View& v) {
  std::u32string out;
  for (auto it = v.begin(); it != v.end(); ++it) out.push_back(*it);
  return out;
}

template <class View>
std::u32string collect_backwards(const View& v) {
  std::u32string out;
  auto it = v.begin();
  while (it != v.end()) ++it;  // works for common and sentinel-terminated views alike
  while (it != v.begin()) out.push_back(*--it);
  return out;
}

std::u32string reversed(std::u32string s) {
  std::reverse(s.begin(), s.end());
  return s;
}

}  // namespace views_test

using namespace views_test;

TEST_CASE("code_points: the lossy decode of every accepted input type") {
  const std::u32string expected = utf8dfa::to_utf32_lossy(sample);
  REQUIRE(expected.size() > 10);
  REQUIRE(collect_range_for(sample) == expected);

  const std::string_view sv = sample;
  REQUIRE(collect(utf8dfa::code_points(sv)) == expected);
  REQUIRE(collect_backwards(utf8dfa::code_points(sv)) == reversed(expected));
  REQUIRE(collect(utf8dfa::code_points(std::string_view(sample))) == expected);  // a temporary view is fine

  const std::vector<unsigned char> bytes(sample.begin(), sample.end());
  REQUIRE(collect(utf8dfa::code_points(bytes)) == expected);
  REQUIRE(collect_backwards(utf8dfa::code_points(bytes)) == reversed(expected));

  std::vector<std::byte> raw(sample.size());
  std::transform(sample.begin(), sample.end(), raw.begin(), [](char c) { return static_cast<std::byte>(c); });
  REQUIRE(collect(utf8dfa::code_points(raw)) == expected);
#if UTF8DFA_HAS_SPAN
  const std::span<const std::byte> span(raw);
  REQUIRE(collect(utf8dfa::code_points(span)) == expected);
  REQUIRE(collect(utf8dfa::code_points(std::span<const std::byte>(raw))) == expected);
  REQUIRE(collect_backwards(utf8dfa::code_points(span)) == reversed(expected));
#endif
#if UTF8DFA_HAS_CHAR8_T
  const std::u8string u8(sample.begin(), sample.end());
  REQUIRE(collect(utf8dfa::code_points(u8)) == expected);
  REQUIRE(collect(utf8dfa::code_points(std::u8string_view(u8))) == expected);
  REQUIRE(collect(utf8dfa::code_points(u8.c_str())) == expected);
  REQUIRE(collect(utf8dfa::code_points(u8"\u00E9t\u00E9")) == U"\u00E9t\u00E9");
#endif

  // Pointer and length; iterator pairs; containers read through their iterators.
  REQUIRE(collect(utf8dfa::code_points(sample.data(), sample.size())) == expected);
  REQUIRE(collect(utf8dfa::code_points(sample.begin(), sample.end())) == expected);
  const std::list<char> list(sample.begin(), sample.end());
  REQUIRE(collect(utf8dfa::code_points(list)) == expected);
  REQUIRE(collect_backwards(utf8dfa::code_points(list)) == reversed(expected));
  const std::deque<unsigned char> deque(sample.begin(), sample.end());
  REQUIRE(collect(utf8dfa::code_points(deque)) == expected);
  REQUIRE(collect_backwards(utf8dfa::code_points(deque)) == reversed(expected));
}

TEST_CASE("code_points: null-terminated strings stop at the first zero byte") {
  const std::u32string expected = utf8dfa::to_utf32_lossy(sample);
  const char* c_string = sample.c_str();
  auto v = utf8dfa::code_points(c_string);
  STATIC_REQUIRE(std::is_same_v<decltype(v.end()), utf8dfa::null_sentinel_t>);
  REQUIRE(collect(v) == expected);
  REQUIRE(collect_backwards(v) == reversed(expected));
  REQUIRE(collect(utf8dfa::code_points("x\xC3\xA9\0ignored")) == U"x\u00E9");  // an array is a C string too
  REQUIRE(collect(utf8dfa::code_points("")).empty());
  unsigned char zero_first[] = {0, 0x41};
  REQUIRE(collect(utf8dfa::code_points(static_cast<const unsigned char*>(zero_first))).empty());
}

TEST_CASE("code_points: std::istreambuf_iterator is decoded as it is read") {
  std::mt19937 rng(3);
  for (int round = 0; round < 200; ++round) {
    std::string s = sample;
    std::shuffle(s.begin(), s.end(), rng);  // mostly ill-formed
    std::istringstream in(s);
    const auto v = utf8dfa::code_points(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::u32string got;
    for (char32_t c : v) got.push_back(c);
    REQUIRE(got == utf8dfa::to_utf32_lossy(s));
  }
}

TEST_CASE("code_points: standard algorithms") {
  const std::u32string expected = utf8dfa::to_utf32_lossy(sample);
  const auto v = utf8dfa::code_points(sample);
  REQUIRE(static_cast<std::size_t>(std::distance(v.begin(), v.end())) == expected.size());
  REQUIRE(std::count(v.begin(), v.end(), utf8dfa::replacement_character) ==
          std::count(expected.begin(), expected.end(), utf8dfa::replacement_character));
  REQUIRE(std::count_if(v.begin(), v.end(), [](char32_t c) { return c >= 0x80; }) ==
          std::count_if(expected.begin(), expected.end(), [](char32_t c) { return c >= 0x80; }));
  const auto euro = std::find(v.begin(), v.end(), U'\u20AC');
  REQUIRE(euro != v.end());
  REQUIRE(sample.compare(static_cast<std::size_t>(euro.base() - sample.data()), 3, "\xE2\x82\xAC") == 0);
  REQUIRE(std::equal(v.begin(), v.end(), expected.begin(), expected.end()));
  REQUIRE(std::equal(std::make_reverse_iterator(v.end()), std::make_reverse_iterator(v.begin()), expected.rbegin(),
                     expected.rend()));
  REQUIRE(std::u32string(v.begin(), v.end()) == expected);
  std::u32string copied;
  std::copy(v.begin(), v.end(), std::back_inserter(copied));
  REQUIRE(copied == expected);
  REQUIRE(std::find(v.begin(), v.end(), U'\U0010FFFF') == v.end());
  REQUIRE(std::lexicographical_compare(v.begin(), v.end(), expected.begin(), expected.end()) == false);
}

TEST_CASE("code_points: random corrupted text agrees with decode_next, both directions, every input type") {
  std::mt19937 rng(11);
  for (int round = 0; round < 1000; ++round) {
    std::string s;
    const int chars = std::uniform_int_distribution<int>(0, 30)(rng);
    for (int i = 0; i < chars; ++i) {
      char buf[4];
      s.append(buf, utf8dfa::encode(
                        static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(0, 0x10FFFF)(rng)), buf));
      if (std::uniform_int_distribution<int>(0, 9)(rng) == 0)
        s.push_back(static_cast<char>(std::uniform_int_distribution<int>(0x80, 0xFF)(rng)));
    }
    std::u32string expected;
    for (std::size_t pos = 0; pos < s.size();) {
      const utf8dfa::decoded d = utf8dfa::decode_next(s, pos);
      expected.push_back(d.code_point);
      pos += d.length;
    }
    REQUIRE(collect(utf8dfa::code_points(s)) == expected);
    REQUIRE(collect_backwards(utf8dfa::code_points(s)) == reversed(expected));
    const std::list<char> list(s.begin(), s.end());
    REQUIRE(collect_backwards(utf8dfa::code_points(list)) == reversed(expected));
  }
}

#if UTF8DFA_HAS_RANGES_VIEWS
TEST_CASE("code_points: C++20 range concepts") {
  using string_view_cps = decltype(utf8dfa::code_points(std::declval<const std::string&>()));
  using c_string_cps = decltype(utf8dfa::code_points(std::declval<const char*>()));
  using list_cps = decltype(utf8dfa::code_points(std::declval<const std::list<char>&>()));
  using stream_cps = decltype(utf8dfa::code_points(std::istreambuf_iterator<char>(), std::istreambuf_iterator<char>()));
  STATIC_REQUIRE(std::ranges::bidirectional_range<string_view_cps>);
  STATIC_REQUIRE(std::ranges::view<string_view_cps>);
  STATIC_REQUIRE(std::ranges::common_range<string_view_cps>);
  STATIC_REQUIRE(std::ranges::borrowed_range<string_view_cps>);
  STATIC_REQUIRE(std::same_as<std::ranges::range_value_t<string_view_cps>, char32_t>);
  STATIC_REQUIRE(!std::ranges::random_access_range<string_view_cps>);
  STATIC_REQUIRE(std::ranges::bidirectional_range<c_string_cps>);
  STATIC_REQUIRE(std::ranges::view<c_string_cps>);
  STATIC_REQUIRE(!std::ranges::common_range<c_string_cps>);
  STATIC_REQUIRE(std::ranges::bidirectional_range<list_cps>);
  STATIC_REQUIRE(std::ranges::input_range<stream_cps>);
  STATIC_REQUIRE(!std::ranges::forward_range<stream_cps>);
  STATIC_REQUIRE(std::ranges::view<stream_cps>);
#if UTF8DFA_HAS_SPAN
  STATIC_REQUIRE(std::ranges::bidirectional_range<decltype(utf8dfa::code_points(std::span<const std::byte>()))>);
#endif
}

TEST_CASE("code_points: composes with std::views") {
  const std::u32string expected = utf8dfa::to_utf32_lossy(sample);
  const auto not_ascii = [](char32_t c) { return c >= 0x80; };

  std::u32string got;
  for (char32_t c : utf8dfa::code_points(sample) | std::views::reverse) got.push_back(c);
  REQUIRE(got == reversed(expected));

  got.clear();
  for (char32_t c : utf8dfa::code_points(sample) | std::views::take(4)) got.push_back(c);
  REQUIRE(got == expected.substr(0, 4));

  std::u32string filtered;
  std::copy_if(expected.begin(), expected.end(), std::back_inserter(filtered), not_ascii);
  got.clear();
  for (char32_t c : utf8dfa::code_points(sample) | std::views::filter(not_ascii)) got.push_back(c);
  REQUIRE(got == filtered);

  got.clear();
  for (char32_t c :
       utf8dfa::code_points(sample.c_str()) | std::views::reverse | std::views::filter(not_ascii) | std::views::take(3))
    got.push_back(c);
  REQUIRE(got == reversed(filtered).substr(0, 3));

  REQUIRE(std::ranges::distance(utf8dfa::code_points(sample.c_str())) == std::ssize(expected));
  REQUIRE(std::ranges::equal(utf8dfa::code_points(sample), expected));
  REQUIRE(std::ranges::equal(utf8dfa::code_points(sample) | std::views::reverse, expected | std::views::reverse));
  REQUIRE(std::ranges::count(utf8dfa::code_points(sample), utf8dfa::replacement_character) ==
          std::ranges::count(expected, utf8dfa::replacement_character));
  // Borrowed: the iterator outlives the view it came from.
  const auto it = std::ranges::find(utf8dfa::code_points(sample), U'\u20AC');
  STATIC_REQUIRE(!std::is_same_v<std::remove_cv_t<decltype(it)>, std::ranges::dangling>);
  REQUIRE(*it == U'\u20AC');
  REQUIRE(!utf8dfa::code_points(sample).empty());
  REQUIRE(utf8dfa::code_points(sample).front() == expected.front());
  REQUIRE(utf8dfa::code_points(sample).back() == expected.back());
}
#endif

namespace views_test {

// Compile-time iteration through the view, forwards and backwards (and, in C++20, std::views).
constexpr bool constexpr_view() {
  constexpr std::string_view s = "\xCE\xB1\xFF\xF0\x9F\x98\x80!";
  std::size_t n = 0;
  char32_t first = 0, last = 0;
  for (char32_t c : utf8dfa::code_points(s)) {
    if (n++ == 0) first = c;
    last = c;
  }
  const auto v = utf8dfa::code_points(s);
  auto it = v.end();
  --it;
  if (*it != last) return false;
  for (std::size_t k = 1; k < n; ++k) --it;
  if (*it != first || it != v.begin()) return false;
  std::size_t from_c_string = 0;
  for (char32_t c : utf8dfa::code_points("\xCE\xB1\xFF\xF0\x9F\x98\x80!")) from_c_string += c != 0;
#if UTF8DFA_HAS_RANGES_VIEWS
  if (std::ranges::distance(v | std::views::reverse) != static_cast<std::ptrdiff_t>(n)) return false;
#endif
  return n == 4 && from_c_string == n && first == utf8dfa::decode_next(s, 0).code_point &&
         last == utf8dfa::decode_prev(s, s.size()).code_point;
}
static_assert(constexpr_view(), "code_points works in constant expressions");

}  // namespace views_test

}  // namespace utf8dfa_test_views
