// The constexpr API in constant expressions: is_valid, validate, decode_next, decode_prev, encode.
#include <cstddef>
#include <string_view>

#include <utf8dfa.hpp>

#include "catch.hpp"

namespace utf8dfa_test_constexpr {  // the file's own names (the suite also builds as unity sources)

namespace constexpr_test {

using utf8dfa::error_code;
using namespace std::string_view_literals;

// is_valid and validate.
static_assert(utf8dfa::is_valid(""sv));
static_assert(utf8dfa::is_valid("\x41\xE2\x89\xA2\xCE\x91\x2E"sv));
static_assert(utf8dfa::is_valid("\xEF\xBB\xBF\xF0\xA3\x8E\xB4"sv));
static_assert(!utf8dfa::is_valid("\xC0\x80"sv));
static_assert(!utf8dfa::is_valid("\xED\xA0\x80"sv));
static_assert(utf8dfa::is_valid("h\xC3\xA9"));  // a string literal (a C string)
static_assert(utf8dfa::is_valid("h\xC3\xA9", 3));
static_assert(utf8dfa::validate("ab\xF4\x90\x80\x80"sv).valid_up_to == 2);
static_assert(utf8dfa::validate("ab\xF4\x90\x80\x80"sv).error_length == 1);
static_assert(utf8dfa::validate("ab\xF4\x90\x80\x80"sv).error == error_code::too_large);
static_assert(utf8dfa::validate("\xE2\x82"sv).error == error_code::incomplete);
static_assert(utf8dfa::validate("\xE2\x82"sv).error_length == 0);
static_assert(utf8dfa::validate("\xE2\x82x"sv).error == error_code::too_short);
static_assert(utf8dfa::validate("\xE2\x82x"sv).error_length == 2);
static_assert(utf8dfa::validate("\xE0\x80\xAF"sv).error == error_code::overlong);
static_assert(utf8dfa::validate("\xED\xBF\xBF"sv).error == error_code::surrogate);
static_assert(utf8dfa::validate("\xFF"sv).error == error_code::invalid_byte);
static_assert(utf8dfa::validate("\xBF"sv).error == error_code::unexpected_continuation);
static_assert(static_cast<bool>(utf8dfa::validate("ok"sv)));

// decode_next.
constexpr std::string_view text = "a\xCE\x91\xE2\x89\xA2\xF0\xA3\x8E\xB4\xC0";
static_assert(utf8dfa::decode_next(text, 0).code_point == U'a');
static_assert(utf8dfa::decode_next(text, 1).code_point == U'\u0391');
static_assert(utf8dfa::decode_next(text, 1).length == 2);
static_assert(utf8dfa::decode_next(text, 3).code_point == U'\u2262');
static_assert(utf8dfa::decode_next(text, 6).code_point == U'\U000233B4');
static_assert(utf8dfa::decode_next(text, 6).length == 4);
static_assert(utf8dfa::decode_next(text, 10).code_point == U'\uFFFD');
static_assert(utf8dfa::decode_next(text, 10).error == error_code::invalid_byte);
static_assert(utf8dfa::decode_next(text, 11).length == 0);
static_assert(utf8dfa::decode_next(text, 2).error == error_code::unexpected_continuation);

// decode_prev: the same segments, backwards.
static_assert(utf8dfa::decode_prev(text, 11).error == error_code::invalid_byte);
static_assert(utf8dfa::decode_prev(text, 10).code_point == U'\U000233B4');
static_assert(utf8dfa::decode_prev(text, 10).length == 4);
static_assert(utf8dfa::decode_prev(text, 6).code_point == U'\u2262');
static_assert(utf8dfa::decode_prev(text, 3).code_point == U'\u0391');
static_assert(utf8dfa::decode_prev(text, 1).code_point == U'a');
static_assert(utf8dfa::decode_prev(text, 0).length == 0);
static_assert(utf8dfa::decode_prev("\xE2\x82x"sv, 2).error == error_code::too_short);

// encode.
constexpr bool encodes(char32_t cp, std::string_view want) {
  char out[4] = {};
  const std::size_t n = utf8dfa::encode(cp, out);
  if (n != want.size()) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (out[i] != want[i]) return false;
  return true;
}
static_assert(encodes(U'A', "A"));
static_assert(encodes(U'\u0391', "\xCE\x91"));
static_assert(encodes(U'\uD55C', "\xED\x95\x9C"));
static_assert(encodes(U'\U000233B4', "\xF0\xA3\x8E\xB4"));
static_assert(encodes(U'\U0010FFFF', "\xF4\x8F\xBF\xBF"));
static_assert(encodes(static_cast<char32_t>(0xD800), ""));
static_assert(encodes(static_cast<char32_t>(0x110000), ""));
static_assert(utf8dfa::encoded_length(U'\u07FF') == 2);
static_assert(utf8dfa::is_scalar_value(U'\uE000') && !utf8dfa::is_scalar_value(static_cast<char32_t>(0xDFFF)));

// A round trip evaluated entirely at compile time.
constexpr bool round_trip(char32_t cp) {
  char buf[4] = {};
  const std::size_t n = utf8dfa::encode(cp, buf);
  const std::string_view s(buf, n);
  const utf8dfa::decoded f = utf8dfa::decode_next(s, 0);
  const utf8dfa::decoded b = utf8dfa::decode_prev(s, n);
  return f.code_point == cp && f.length == n && b.code_point == cp && b.length == n && utf8dfa::is_valid(s);
}
static_assert(round_trip(U'\0') && round_trip(U'\u0080') && round_trip(U'\uFFFD') && round_trip(U'\U00010000'));

}  // namespace constexpr_test

TEST_CASE("the constexpr API also runs at run time with the same answers", "[constexpr]") {
  // The static_asserts above are the test; this repeats a few at run time (possibly another path).
  using namespace std::string_view_literals;
  constexpr utf8dfa::validation_result r = utf8dfa::validate("ab\xF4\x90\x80\x80"sv);
  const utf8dfa::validation_result s = utf8dfa::validate("ab\xF4\x90\x80\x80"sv);
  CHECK(r.valid_up_to == s.valid_up_to);
  CHECK(r.error_length == s.error_length);
  CHECK(r.error == s.error);
  constexpr utf8dfa::decoded d = utf8dfa::decode_prev("\xE2\x82x"sv, 2);
  CHECK(d.error == utf8dfa::decode_next("\xE2\x82x"sv, 0).error);
}

}  // namespace utf8dfa_test_constexpr
