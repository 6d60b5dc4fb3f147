// The skip policy everywhere a policy is taken: bulk conversions (every kernel: ctest runs this file
// once per kernel), their dialect and byte-order forms, Latin-1, the exact length helpers, the
// allocating `_lossy(..., skip{})` forms, the transcoding views (forwards and backwards), the
// streaming decoder and the output iterators. What skip writes is checked against replace: the
// input converted with replace{U'A'} and with replace{U'B'} differs exactly at the replacements
// (one unit each in every form), so the units where the two agree are replace's output without
// them, which is what skip must write.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <utf8dfa.hpp>

#include "catch.hpp"
#include "reference/abnf.hpp"
#include "reference/check.hpp"

namespace utf8dfa_test_skip {  // the file's own names (the suite also builds as unity sources)

namespace {

using namespace utf8dfa_check;
using utf8dfa::conversion_result;
using utf8dfa::error_code;
using utf8dfa::replace;
using utf8dfa::skip;
namespace dialect = utf8dfa::dialect;

const replace ra{U'A'}, rb{U'B'};

template <class T>
using str = std::basic_string<T>;

/// The units where a and b agree (a and b: one input converted with replace{'A'} and replace{'B'});
/// `ok` is cleared when they differ in length.
template <class T>
str<T> strip(const str<T>& a, const str<T>& b, bool& ok) {
  if (a.size() != b.size()) {
    ok = false;
    return {};
  }
  str<T> s;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k] == b[k]) s += a[k];
  return s;
}

/// What `convert(out)` writes into a heap buffer of exactly `size` units (an overrun is a sanitizer
/// error), and its result.
template <class T, class F>
str<T> convert_exact(std::size_t size, F convert, conversion_result& r) {
  std::vector<T> buf(size + (size == 0));
  r = convert(buf.data());
  return str<T>(buf.data(), r.written <= size ? r.written : size);
}

/// The units a range yields forwards, and backwards (reversed back), for bidirectional views.
template <class T, class View>
str<T> forwards(const View& v) {
  str<T> s;
  for (auto it = v.begin(); it != v.end(); ++it) s += static_cast<T>(*it);
  return s;
}
template <class T, class View>
str<T> backwards(const View& v) {
  str<T> s;
  const auto first = v.begin();
  for (auto it = v.end(); it != first;) s += static_cast<T>(*--it);
  std::reverse(s.begin(), s.end());
  return s;
}

/// Collects the first disagreement; message() names the input (described only then).
struct report {
  const char* first = "";
  std::size_t failures = 0;
  void check(bool good, const char* what) {
    if (!good && failures++ == 0) first = what;
  }
  template <class Describe>
  std::string message(Describe describe) const {
    if (failures == 0) return {};
    std::string m = describe();
    m += ": ";
    m += first;
    return m;
  }
};

template <class T>
str<T> swapped(const str<T>& s) {
  str<T> t = s;
  for (T& u : t) {
    if constexpr (sizeof(T) == 2) {
      u = static_cast<T>(((u & 0xFF) << 8) | (u >> 8));
    } else {
      const auto v = static_cast<std::uint32_t>(u);
      u = static_cast<T>((v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24));
    }
  }
  return t;
}

constexpr bool little_host() {
  return utf8dfa::detail::host_little_endian;
}

/// skip against replace for one conversion `conv(out, policy)` whose output is sized by
/// `length(policy)`: exact for replace and skip, or (exact = false) an upper bound for both.
/// Returns what skip must write.
template <class T, class Conv, class Length>
str<T> check_conversion(report& rep, std::size_t n, Conv conv, Length length, const char* what, bool exact = true) {
  conversion_result r1{}, r2{}, rs{};
  const str<T> a = convert_exact<T>(
      length(ra), [&](T* o) { return conv(o, ra); }, r1);
  const str<T> b = convert_exact<T>(
      length(rb), [&](T* o) { return conv(o, rb); }, r2);
  bool ok = exact ? r1.written == length(ra) && r2.written == length(rb)
                  : r1.written <= length(ra) && r2.written <= length(rb);
  const str<T> want = strip(a, b, ok);
  const std::size_t ls = length(skip{});
  const str<T> got = convert_exact<T>(
      ls, [&](T* o) { return conv(o, skip{}); }, rs);
  rep.check(ok, what);
  rep.check(got == want, what);
  rep.check(exact ? ls == want.size() && rs.written == ls : rs.written == want.size(), what);
  rep.check(rs.read == n && rs.error == r1.error, what);
  return want;
}

// ---- UTF-8 input ---------------------------------------------------------------------------------

template <class D>
void check_utf8_dialect(report& rep, const std::string& s) {
  const bytes b{u8p(s), s.size()};
  const str<char32_t> w32 = check_conversion<char32_t>(
      rep, s.size(), [&](char32_t* o, auto pol) { return utf8dfa::utf8_to_utf32(b, o, pol, D{}); },
      [&](auto pol) { return utf8dfa::utf32_length_from_utf8(b, pol, D{}); }, "dialect utf8_to_utf32");
  rep.check(utf8dfa::to_utf32_lossy(b, skip{}, D{}) == w32, "dialect to_utf32_lossy(skip)");
  const str<char16_t> w16 = check_conversion<char16_t>(
      rep, s.size(), [&](char16_t* o, auto pol) { return utf8dfa::utf8_to_utf16(b, o, pol, D{}); },
      [&](auto pol) { return utf8dfa::utf16_length_from_utf8(b, pol, D{}); }, "dialect utf8_to_utf16");
  rep.check(utf8dfa::to_utf16_lossy(b, skip{}, D{}) == w16, "dialect to_utf16_lossy(skip)");
  const str<char> w8 = check_conversion<char>(
      rep, s.size(), [&](char* o, auto pol) { return utf8dfa::recode(b, o, pol, D{}, dialect::utf8{}); },
      [&](auto pol) { return utf8dfa::recoded_length(b, pol, D{}, dialect::utf8{}); }, "recode to UTF-8");
  rep.check(utf8dfa::recode_lossy(b, skip{}, D{}, dialect::utf8{}) == w8, "recode_lossy(skip)");
  // The streaming decoder in the dialect, in chunks of 3 bytes.
  utf8dfa::decoder<skip, char32_t, D> dec;
  str<char32_t> streamed;
  for (std::size_t i = 0; i < s.size(); i += 3)
    dec.feed(u8p(s) + i, std::min<std::size_t>(3, s.size() - i), std::back_inserter(streamed));
  dec.finish(std::back_inserter(streamed));
  rep.check(streamed == w32, "dialect decoder<skip>");
}

/// Every form that reads UTF-8, under skip against replace. `dialects`: also the dialect forms.
std::string check_utf8(const std::string& s, bool dialects = false) {
  report rep;
  const bytes b{u8p(s), s.size()};
  const std::size_t n = s.size();
  const str<char32_t> w32 = check_conversion<char32_t>(
      rep, n, [&](char32_t* o, auto pol) { return utf8dfa::utf8_to_utf32(b, o, pol); },
      [&](auto pol) { return utf8dfa::utf32_length_from_utf8(b, pol); }, "utf8_to_utf32");
  const str<char16_t> w16 = check_conversion<char16_t>(
      rep, n, [&](char16_t* o, auto pol) { return utf8dfa::utf8_to_utf16(b, o, pol); },
      [&](auto pol) { return utf8dfa::utf16_length_from_utf8(b, pol); }, "utf8_to_utf16");
  rep.check(utf8dfa::to_utf32_lossy(b, skip{}) == w32, "to_utf32_lossy(skip)");
  rep.check(utf8dfa::to_utf16_lossy(b, skip{}) == w16, "to_utf16_lossy(skip)");
  // Byte orders.
  conversion_result r{};
  const str<char16_t> be = convert_exact<char16_t>(
      w16.size(), [&](char16_t* o) { return utf8dfa::utf8_to_utf16be(b, o, skip{}); }, r);
  rep.check(be == (little_host() ? swapped(w16) : w16), "utf8_to_utf16be(skip)");
  // Latin-1 (the characters above U+00FF are dropped too).
  check_conversion<char>(
      rep, n, [&](char* o, auto pol) { return utf8dfa::utf8_to_latin1(b, o, pol); },
      [&](auto pol) {
        if constexpr (utf8dfa::detail::skips_errors_v<decltype(pol)>)
          return utf8dfa::latin1_length_from_utf8(b, pol);
        else
          return utf8dfa::latin1_length_from_utf8(b);
      },
      "utf8_to_latin1");
  // The views, forwards and backwards.
  rep.check(forwards<char32_t>(utf8dfa::as_utf32(s, skip{})) == w32, "as_utf32(skip)");
  rep.check(backwards<char32_t>(utf8dfa::as_utf32(s, skip{})) == w32, "as_utf32(skip) backwards");
  rep.check(forwards<char16_t>(utf8dfa::as_utf16(s, skip{})) == w16, "as_utf16(skip)");
  rep.check(backwards<char16_t>(utf8dfa::as_utf16(s, skip{})) == w16, "as_utf16(skip) backwards");
  bool ok = true;
  const str<char> w8 = strip(forwards<char>(utf8dfa::as_utf8(s, ra)), forwards<char>(utf8dfa::as_utf8(s, rb)), ok);
  rep.check(ok, "as_utf8(replace)");
  rep.check(forwards<char>(utf8dfa::as_utf8(s, skip{})) == w8, "as_utf8(skip)");
  rep.check(backwards<char>(utf8dfa::as_utf8(s, skip{})) == w8, "as_utf8(skip) backwards");
  // The streaming decoder to UTF-32 and to UTF-8 (the sanitizer), in chunks of 1, 2 and 5 bytes.
  for (std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
    utf8dfa::decoder<skip, char32_t> d32;
    utf8dfa::decoder<skip, char> d8;
    str<char32_t> o32;
    str<char> o8;
    for (std::size_t i = 0; i < n; i += chunk) {
      const std::size_t m = std::min(chunk, n - i);
      d32.feed(u8p(s) + i, m, std::back_inserter(o32));
      d8.feed(u8p(s) + i, m, std::back_inserter(o8));
    }
    d32.finish(std::back_inserter(o32));
    d8.finish(std::back_inserter(o8));
    rep.check(o32 == w32, "decoder<skip, char32_t>");
    rep.check(o8 == w8, "decoder<skip, char>");
    rep.check(d32.result().error == utf8dfa::validate(b).error, "decoder<skip> result");
  }
  if (dialects) {
    check_utf8_dialect<dialect::wtf8>(rep, s);
    check_utf8_dialect<dialect::cesu8>(rep, s);
    check_utf8_dialect<dialect::mutf8>(rep, s);
    check_utf8_dialect<dialect::legacy>(rep, s);
  }
  return rep.message([&] { return "[" + hex(s) + "]"; });
}

/// The bulk conversions of UTF-8 alone (the enumerations).
std::string check_utf8_bulk(const unsigned char* p, std::size_t n) {
  report rep;
  const bytes b{p, n};
  check_conversion<char32_t>(
      rep, n, [&](char32_t* o, auto pol) { return utf8dfa::utf8_to_utf32(b, o, pol); },
      [&](auto pol) { return utf8dfa::utf32_length_from_utf8(b, pol); }, "utf8_to_utf32");
  check_conversion<char16_t>(
      rep, n, [&](char16_t* o, auto pol) { return utf8dfa::utf8_to_utf16(b, o, pol); },
      [&](auto pol) { return utf8dfa::utf16_length_from_utf8(b, pol); }, "utf8_to_utf16");
  return rep.message([&] { return "[" + hex(p, n) + "]"; });
}

// ---- UTF-16 and UTF-32 input -------------------------------------------------------------------

template <class T>
std::string units_text(const str<T>& u) {
  std::string s;
  char buf[16];
  for (T c : u) {
    std::snprintf(buf, sizeof buf, "%X ", static_cast<unsigned>(c));
    s += buf;
  }
  return s;
}

std::string check_utf16(const str<char16_t>& u) {
  report rep;
  const std::u16string_view v = u;
  const str<char> w8 = check_conversion<char>(
      rep, u.size(), [&](char* o, auto pol) { return utf8dfa::utf16_to_utf8(v, o, pol); },
      [&](auto pol) { return utf8dfa::utf8_length_from_utf16(v, pol); }, "utf16_to_utf8");
  const str<char32_t> w32 = check_conversion<char32_t>(
      rep, u.size(), [&](char32_t* o, auto pol) { return utf8dfa::utf16_to_utf32(v, o, pol); },
      [&](auto pol) { return utf8dfa::utf32_length_from_utf16(v, pol); }, "utf16_to_utf32");
  rep.check(utf8dfa::to_utf8_lossy(v, skip{}) == w8, "to_utf8_lossy(u16, skip)");
  const str<char16_t> other = swapped(u);  // the units in the other byte order
  conversion_result r{};
  const std::u16string_view ov = other;
  const std::size_t ol =
      little_host() ? utf8dfa::utf8_length_from_utf16be(ov, skip{}) : utf8dfa::utf8_length_from_utf16le(ov, skip{});
  const str<char> o8 = convert_exact<char>(
      ol,
      [&](char* o) {
        return little_host() ? utf8dfa::utf16be_to_utf8(ov, o, skip{}) : utf8dfa::utf16le_to_utf8(ov, o, skip{});
      },
      r);
  rep.check(o8 == w8 && ol == w8.size(), "utf16 (other byte order) to utf8 (skip)");
  check_conversion<char>(
      rep, u.size(), [&](char* o, auto pol) { return utf8dfa::utf16_to_latin1(v, o, pol); },
      [&](auto) { return u.size(); }, "utf16_to_latin1", false);
  rep.check(forwards<char>(utf8dfa::as_utf8(u, skip{})) == w8, "as_utf8(u16, skip)");
  rep.check(backwards<char>(utf8dfa::as_utf8(u, skip{})) == w8, "as_utf8(u16, skip) backwards");
  rep.check(forwards<char32_t>(utf8dfa::as_utf32(u, skip{})) == w32, "as_utf32(u16, skip)");
  rep.check(backwards<char32_t>(utf8dfa::as_utf32(u, skip{})) == w32, "as_utf32(u16, skip) backwards");
  const str<char> c8 = check_conversion<char>(
      rep, u.size(), [&](char* o, auto pol) { return utf8dfa::utf16_to_utf8(v, o, pol, dialect::cesu8{}); },
      [&](auto pol) { return utf8dfa::utf8_length_from_utf16(v, pol, dialect::cesu8{}); }, "utf16 to CESU-8");
  rep.check(utf8dfa::to_utf8_lossy(v, skip{}, dialect::cesu8{}) == c8, "to_utf8_lossy(u16, skip, cesu8)");
  return rep.message([&] { return "UTF-16 [" + units_text(u) + "]"; });
}

std::string check_utf32(const str<char32_t>& u) {
  report rep;
  const std::u32string_view v = u;
  const str<char> w8 = check_conversion<char>(
      rep, u.size(), [&](char* o, auto pol) { return utf8dfa::utf32_to_utf8(v, o, pol); },
      [&](auto pol) { return utf8dfa::utf8_length_from_utf32(v, pol); }, "utf32_to_utf8");
  const str<char16_t> w16 = check_conversion<char16_t>(
      rep, u.size(), [&](char16_t* o, auto pol) { return utf8dfa::utf32_to_utf16(v, o, pol); },
      [&](auto pol) { return utf8dfa::utf16_length_from_utf32(v, pol); }, "utf32_to_utf16");
  rep.check(utf8dfa::to_utf8_lossy(v, skip{}) == w8, "to_utf8_lossy(u32, skip)");
  {
    const str<char32_t> other = swapped(u);  // the units in the other byte order
    conversion_result r{};
    const std::u32string_view ov = other;
    const std::size_t ol =
        little_host() ? utf8dfa::utf8_length_from_utf32be(ov, skip{}) : utf8dfa::utf8_length_from_utf32le(ov, skip{});
    const str<char> o8 = convert_exact<char>(
        ol,
        [&](char* o) {
          return little_host() ? utf8dfa::utf32be_to_utf8(ov, o, skip{}) : utf8dfa::utf32le_to_utf8(ov, o, skip{});
        },
        r);
    rep.check(o8 == w8 && ol == w8.size(), "utf32 (other byte order) to utf8 (skip)");
  }
  check_conversion<char>(
      rep, u.size(), [&](char* o, auto pol) { return utf8dfa::utf32_to_latin1(v, o, pol); },
      [&](auto) { return u.size(); }, "utf32_to_latin1", false);
  rep.check(forwards<char>(utf8dfa::as_utf8(u, skip{})) == w8, "as_utf8(u32, skip)");
  rep.check(backwards<char>(utf8dfa::as_utf8(u, skip{})) == w8, "as_utf8(u32, skip) backwards");
  rep.check(forwards<char16_t>(utf8dfa::as_utf16(u, skip{})) == w16, "as_utf16(u32, skip)");
  rep.check(backwards<char16_t>(utf8dfa::as_utf16(u, skip{})) == w16, "as_utf16(u32, skip) backwards");
  // The output iterators: every value counts as read, nothing is written for an invalid one.
  std::string o8;
  const auto it8 = std::copy(u.begin(), u.end(), utf8dfa::utf8_output(std::back_inserter(o8), skip{}));
  std::u16string o16;
  const auto it16 = std::copy(u.begin(), u.end(), utf8dfa::utf16_output(std::back_inserter(o16), skip{}));
  rep.check(o8 == w8 && o16 == w16, "utf8_output / utf16_output (skip)");
  rep.check(it8.result().read == u.size() && it8.result().written == w8.size() &&
                it8.result().error == utf8dfa::validate_utf32(v).error,
            "utf8_output(skip).result()");
  rep.check(it16.result().read == u.size() && it16.result().written == w16.size(), "utf16_output(skip).result()");
  const str<char> m8 = check_conversion<char>(
      rep, u.size(), [&](char* o, auto pol) { return utf8dfa::utf32_to_utf8(v, o, pol, dialect::mutf8{}); },
      [&](auto pol) { return utf8dfa::utf8_length_from_utf32(v, pol, dialect::mutf8{}); }, "utf32 to MUTF-8");
  rep.check(utf8dfa::to_utf8_lossy(v, skip{}, dialect::mutf8{}) == m8, "to_utf8_lossy(u32, skip, mutf8)");
  return rep.message([&] { return "UTF-32 [" + units_text(u) + "]"; });
}

// Units of every kind: ASCII, 2- and 3-byte BMP, supplementary (UTF-16: pairs), and errors.
char16_t random_unit16(std::mt19937& rng) {
  static const char16_t units[] = {0x41, 0xE9, 0x20AC, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF};
  return units[rng() % (sizeof units / sizeof units[0])];
}

str<char16_t> random_utf16(std::mt19937& rng, std::size_t n) {
  str<char16_t> u;
  for (std::size_t i = 0; i < n; ++i) {
    if (rng() % 3 == 0)
      u.append(rng() % 20, u'a');
    else
      u += random_unit16(rng);
  }
  return u;
}

str<char32_t> random_utf32(std::mt19937& rng, std::size_t n) {
  static const char32_t bad[] = {0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x110000, 0xFFFFFFFF, 0x7FFFFFFF};
  str<char32_t> u;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned k = rng() % 6;
    if (k == 0)
      u += bad[rng() % (sizeof bad / sizeof bad[0])];
    else if (k == 1)
      u.append(rng() % 20, U'a');
    else
      u += random_scalar(rng);
  }
  return u;
}

// A skip view in a constant expression (a C string: null_sentinel ends it).
constexpr std::size_t constexpr_skip_count() {
  std::size_t n = 0;
  for (char32_t c : utf8dfa::as_utf32("a\xFF"
                                      "b\xC0\xAF\xE2\x82",
                                      skip{}))
    n += c == U'a' || c == U'b' ? 1 : 100;
  return n;
}
static_assert(constexpr_skip_count() == 2, "a skip view drops the ill-formed subparts");

}  // namespace

TEST_CASE("skip: single-pass input (an input iterator)", "[skip]") {
  const std::string s = "\xFFx\xE2\x82\xACy\xE2\x82\xC0z\xF0";
  std::istringstream in(s);
  const auto v =
      utf8dfa::as_utf16(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), utf8dfa::skip{});
  CHECK(std::u16string(v.begin(), v.end()) == u"x\u20ACyz");
  std::istringstream in2(s);
  auto it = utf8dfa::as_utf32(std::istreambuf_iterator<char>(in2), std::istreambuf_iterator<char>(), skip{}).begin();
  CHECK(*it == U'x');
  CHECK(it.offset() == 1);
}

TEST_CASE("skip: short examples", "[skip]") {
  using utf8dfa::to_utf32_lossy;
  const std::string s =
      "a\xC0\xAF"
      "b\xE2\x82"
      "c\xF0\x9F\x98\x80\xED\xA0\x80\xEF\xBF\xBD\xFF";
  CHECK(to_utf32_lossy(s, skip{}) == U"abc\U0001F600\uFFFD");  // U+FFFD of the input kept
  CHECK(utf8dfa::utf32_length_from_utf8(s, skip{}) == 5);
  CHECK(utf8dfa::utf16_length_from_utf8(s, skip{}) == 6);
  char32_t out[8] = {};
  const conversion_result r = utf8dfa::utf8_to_utf32(s, out, skip{});
  CHECK(r.read == s.size());
  CHECK(r.written == 5);
  CHECK(r.error == error_code::invalid_byte);  // the first error, as replace reports it
  CHECK(utf8dfa::to_utf16_lossy(std::string("\x80\x80\x80"), skip{}).empty());
  CHECK(utf8dfa::to_utf8_lossy(std::u16string_view(u"x\xD800y\xDC00"), skip{}) == "xy");
  CHECK(utf8dfa::to_utf8_lossy(std::u32string_view(U"x\x110000y"), skip{}) == "xy");
  // `{}` still means replace{} where a skip overload exists.
  CHECK(utf8dfa::utf32_length_from_utf8(std::string("\xFF"), {}) == 1);
  CHECK(utf8dfa::utf8_length_from_utf16(std::u16string_view(u"\xD800"), {}) == 3);
  // A view's iterator never stands on a dropped subpart; at the start, going back stays put.
  const std::string t = "\xFF\xFEok\xC0";
  const auto v = utf8dfa::as_utf32(t, skip{});
  auto it = v.begin();
  CHECK(it.offset() == 2);
  CHECK(*it == U'o');
  --it;
  CHECK(*it == U'o');
  ++it;
  ++it;
  CHECK(it == v.end());
  CHECK(std::distance(v.begin(), v.end()) == 2);
  const std::string bad = "\xFF\xFF";
  CHECK(forwards<char32_t>(utf8dfa::as_utf32(bad, skip{})).empty());
  CHECK(backwards<char32_t>(utf8dfa::as_utf32(bad, skip{})).empty());
}

TEST_CASE("skip: every UTF-8 input of 1 and 2 bytes, every form", "[skip]") {
  tally t;
  for (std::size_t n = 1; n <= 2; ++n)
    for_each_sequence(n, [&](const unsigned char* p, std::size_t len) {
      const std::string s(reinterpret_cast<const char*>(p), len);
      t.add(n == 1 || p[0] >= 0x80 ? check_utf8(s, n == 1) : check_utf8_bulk(p, len));
    });
  INFO(t.first);
  CHECK(t.failures == 0);
}

TEST_CASE("skip: every UTF-8 input of 3 bytes (pruned), bulk conversions", "[skip][exhaustive]") {
  // Byte i takes every value while the automaton is inside the first character, else one byte of
  // each ABNF run: exhaustive by the argument of for_each_pruned4 (tests/reference/check.hpp).
  static const std::vector<std::pair<unsigned char, unsigned char>> runs = byte_runs();
  tally t;
  unsigned char s[3];
  auto values = [&](std::size_t i, auto&& body) {
    if (i == 0 || inside_first_char(s, i))
      for (unsigned v = 0; v < 256; ++v) body(static_cast<unsigned char>(v));
    else
      for (const auto& r : runs) body((i + s[0]) % 2 == 0 ? r.first : r.second);
  };
  values(0, [&](unsigned char b0) {
    s[0] = b0;
    values(1, [&](unsigned char b1) {
      s[1] = b1;
      if (!utf8dfa_sample::keep(b0, b1)) return;
      values(2, [&](unsigned char b2) {
        s[2] = b2;
        t.add(check_utf8_bulk(s, 3));
      });
    });
  });
  INFO(t.first);
  CHECK(t.failures == 0);
  CHECK(t.inputs > 500000 / utf8dfa_sample::divisor());
}

TEST_CASE("skip: random ill-formed UTF-8, every form", "[skip]") {
  std::mt19937 rng(1605);
  tally t;
  for (int i = 0; i < 300; ++i) t.add(check_utf8(random_mix(rng, 1 + rng() % 10), i % 10 == 0));
  for (int i = 0; i < 300; ++i) t.add(check_utf8(random_bytes(rng, rng() % 120), i % 10 == 0));
  INFO(t.first);
  CHECK(t.failures == 0);
}

TEST_CASE("skip: errors at the SIMD kernels' block edges, dense errors, long inputs", "[skip]") {
  std::mt19937 rng(77);
  tally t;
  const std::string texts[] = {std::string(300, 'q'), std::string(20, 'q') + random_valid(rng, 120)};
  for (const std::string& text : texts)
    for (std::size_t i : block_edges(text.size()))
      if (i % 3 == 0 || i >= 80) {
        std::string s = text;
        s.insert(i, bad_pieces()[i % bad_pieces().size()]);
        t.add(check_utf8_bulk(u8p(s), s.size()));
      }
  // Every other character ill-formed: the kernels' scalar re-runs all the way.
  std::string dense;
  for (int i = 0; i < 400; ++i) dense += random_valid(rng, 1) + bad_pieces()[rng() % bad_pieces().size()];
  t.add(check_utf8(dense));
  // Past the allocating forms' 16 KiB chunks, with errors cut by a chunk's end.
  std::string big;
  while (big.size() < 70000) big += random_valid(rng, 30) + bad_pieces()[rng() % bad_pieces().size()];
  t.add(check_utf8_bulk(u8p(big), big.size()));
  const bytes b{u8p(big), big.size()};
  std::u32string a = utf8dfa::to_utf32_lossy(b), bb;
  bool ok = true;
  {
    std::u32string x(utf8dfa::utf32_length_from_utf8(b, rb), U'\0');
    utf8dfa::utf8_to_utf32(b, x.data(), rb);
    std::u32string y(a.size(), U'\0');
    utf8dfa::utf8_to_utf32(b, y.data(), ra);
    bb = strip(y, x, ok);
  }
  CHECK(ok);
  CHECK(utf8dfa::to_utf32_lossy(b, skip{}) == bb);
  INFO(t.first);
  CHECK(t.failures == 0);
}

TEST_CASE("skip: UTF-16 and UTF-32 input, every form", "[skip]") {
  std::mt19937 rng(4242);
  tally t;
  // Every sequence of up to 3 units from the interesting ones.
  static const char16_t u16[] = {0x41, 0xE9, 0x20AC, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xFFFD};
  for (char16_t a : u16) {
    t.add(check_utf16(str<char16_t>(1, a)));
    for (char16_t b : u16) {
      t.add(check_utf16(str<char16_t>{a, b}));
      for (char16_t c : u16) t.add(check_utf16(str<char16_t>{a, b, c}));
    }
  }
  static const char32_t u32[] = {0x41, 0xE9, 0xFFFD, 0x1F600, 0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF};
  for (char32_t a : u32)
    for (char32_t b : u32) t.add(check_utf32(str<char32_t>{a, b}));
  for (int i = 0; i < 200; ++i) t.add(check_utf16(random_utf16(rng, rng() % 60)));
  for (int i = 0; i < 200; ++i) t.add(check_utf32(random_utf32(rng, rng() % 60)));
  // Errors at block edges of the vector kernels (16, 32, 64 units).
  for (std::size_t i = 0; i < 100; ++i) {
    str<char16_t> u(100, u'\u00E9');
    u[i] = static_cast<char16_t>(i % 2 ? 0xDC00 : 0xD800);
    t.add(check_utf16(u));
    str<char32_t> w(100, U'\u20AC');
    w[i] = i % 2 ? 0xD800 : 0x110000;
    t.add(check_utf32(w));
  }
  INFO(t.first);
  CHECK(t.failures == 0);
}

TEST_CASE("skip: WTF-8 joins a lead and a trail surrogate that only a dropped value separated", "[skip]") {
  // UTF-32 D800 110000 DC00: replace writes the two surrogates apart; skip drops the middle value,
  // and WTF-8 encodes a lead surrogate followed by a trail surrogate as their supplementary character.
  const std::u32string_view in(U"\xD800\x110000\xDC00", 3);
  CHECK(utf8dfa::to_utf8_lossy(in, dialect::wtf8{}) == "\xED\xA0\x80\xEF\xBF\xBD\xED\xB0\x80");
  CHECK(utf8dfa::to_utf8_lossy(in, skip{}, dialect::wtf8{}) == "\xF0\x90\x80\x80");
  CHECK(utf8dfa::utf8_length_from_utf32(in, skip{}, dialect::wtf8{}) == 4);
}

}  // namespace utf8dfa_test_skip
