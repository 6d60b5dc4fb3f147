// Boundaries, truncate and the BOM helpers against their definitions: a boundary is where
// decode_next's segmentation starts a segment, or the end. Exhaustive on short inputs.
#include <utf8dfa/boundary.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <utf8dfa/decode.hpp>
#include <utf8dfa/encode.hpp>
#include <utf8dfa/transcode.hpp>
#include <utf8dfa/validate.hpp>

#include "sample.hpp"

#if UTF8DFA_HAS_SPAN
#include <span>
#endif

#include "catch.hpp"

namespace utf8dfa_test_boundary {  // the file's own names (the suite also builds as unity sources)

namespace boundary_test {

struct checker {
  std::size_t failures = 0;
  std::size_t inputs = 0;
  bool check_decoding = false;  // also check what the truncated prefix decodes to (slower)
  std::vector<bool> boundary;   // reused: no allocation per input

  void run(std::string_view s) {
    ++inputs;
    const std::size_t n = s.size();
    // The definition: segment starts from decode_next, plus the end.
    boundary.assign(n + 1, false);
    for (std::size_t pos = 0; pos < n; pos += utf8dfa::decode_next(s, pos).length) boundary[pos] = true;
    boundary[n] = true;

    for (std::size_t i = 0; i <= n + 2; ++i) {
      const bool expected = i <= n && boundary[i];
      if (utf8dfa::is_char_boundary(s, i) != expected) ++failures;

      std::size_t floor = i < n ? i : n;
      while (!boundary[floor]) --floor;
      std::size_t ceil = i < n ? i : n;
      while (!boundary[ceil]) ++ceil;
      if (utf8dfa::floor_char_boundary(s, i) != floor) ++failures;
      if (utf8dfa::ceil_char_boundary(s, i) != ceil) ++failures;

      // truncate: a boundary, at most i bytes, and no longer prefix of at most i bytes is one.
      const std::size_t t = utf8dfa::truncate(s, i);
      if (t > i || t > n || !boundary[t]) ++failures;
      for (std::size_t k = t + 1; k <= i && k <= n; ++k)
        if (boundary[k]) ++failures;
      if (check_decoding) {
        const std::u32string whole = utf8dfa::to_utf32_lossy(s);
        const std::u32string prefix = utf8dfa::to_utf32_lossy(s.substr(0, t));
        if (whole.compare(0, prefix.size(), prefix) != 0) ++failures;
        if (utf8dfa::is_valid(s) && !utf8dfa::is_valid(s.substr(0, t))) ++failures;
      }
    }

    const bool bom = n >= 3 && s[0] == '\xEF' && s[1] == '\xBB' && s[2] == '\xBF';
    if (utf8dfa::has_bom(s) != bom) ++failures;
    if (utf8dfa::skip_bom(s) != (bom ? s.substr(3) : s)) ++failures;
  }
};

}  // namespace boundary_test

using boundary_test::checker;

TEST_CASE("boundaries: every byte string of up to 3 bytes", "[exhaustive]") {
  checker c;
  // Each length in an array of exactly that size, so that AddressSanitizer builds catch overreads.
  char one[1] = {}, two[2] = {}, buf[3] = {};
  c.run(std::string_view(buf, 0));
  for (unsigned a = 0; a < 256; ++a) {
    one[0] = two[0] = buf[0] = static_cast<char>(a);
    c.run(std::string_view(one, 1));
    for (unsigned b = 0; b < 256; ++b) {
      two[1] = buf[1] = static_cast<char>(b);
      c.run(std::string_view(two, 2));
      if (!utf8dfa_sample::keep(a, b)) continue;
      for (unsigned d = 0; d < 256; ++d) {
        buf[2] = static_cast<char>(d);
        c.run(std::string_view(buf, 3));
      }
    }
  }
  CHECK(c.inputs == 1 + 256 + 256 * 256 + utf8dfa_sample::inputs_of_length(3));
  REQUIRE(c.failures == 0);
}

TEST_CASE("boundaries: strings of 4 and 5 bytes over the byte classes' edges, with decoding checks", "[exhaustive]") {
  const char alphabet[] = "\x00\x41\x7F\x80\x8F\x90\x9F\xA0\xBF\xC0\xC2\xDF\xE0\xE1\xED\xEF\xF0\xF3\xF4\xF5\xBB";
  const std::size_t m = sizeof alphabet - 1;
  checker c;
  char four[4] = {}, buf[5] = {};
  for (std::size_t i = 0; i < m * m * m * m; ++i) {
    std::size_t x = i;
    for (int k = 0; k < 4; ++k, x /= m) four[k] = alphabet[x % m];
    c.run(std::string_view(four, 4));
  }
  const char small[] = "\x41\x80\xA0\xC2\xE0\xE1\xED\xF0\xF4\xEF\xBB\xBF";
  const std::size_t q = sizeof small - 1;
  c.check_decoding = true;
  for (std::size_t i = 0; i < q * q * q * q * q; ++i) {
    std::size_t x = i;
    for (int k = 0; k < 5; ++k, x /= q) buf[k] = small[x % q];
    c.run(std::string_view(buf, 5));
  }
  CHECK(c.inputs == m * m * m * m + q * q * q * q * q);
  REQUIRE(c.failures == 0);
}

TEST_CASE("boundaries: random corrupted text") {
  std::mt19937 rng(42);
  checker c;
  c.check_decoding = true;
  for (int round = 0; round < 1500; ++round) {
    std::string s;
    const int chars = std::uniform_int_distribution<int>(0, 12)(rng);
    for (int i = 0; i < chars; ++i) {
      char buf[4];
      s.append(buf, utf8dfa::encode(
                        static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(0, 0x10FFFF)(rng)), buf));
    }
    if (round % 2 == 1 && !s.empty())
      s[std::uniform_int_distribution<std::size_t>(0, s.size() - 1)(rng)] =
          static_cast<char>(std::uniform_int_distribution<int>(0x80, 0xFF)(rng));
    c.run(s);
  }
  REQUIRE(c.failures == 0);
}

TEST_CASE("truncate: examples from the definition") {
  const std::string euro = "ab\xE2\x82\xAC";  // the euro sign is bytes 2..4
  CHECK(utf8dfa::truncate(euro, 4) == 2);
  CHECK(utf8dfa::truncate(euro, 5) == 5);
  CHECK(utf8dfa::truncate(euro, 100) == 5);
  CHECK(utf8dfa::truncate(euro, 0) == 0);
  // "E2 82" cut by 'z' is one maximal ill-formed subpart: kept or dropped whole.
  const std::string bad = "a\xE2\x82z";
  CHECK(utf8dfa::truncate(bad, 2) == 1);
  CHECK(utf8dfa::truncate(bad, 3) == 3);
  // Lone continuation bytes are one subpart each: any cut between them is a boundary.
  const std::string lone = "\x80\x80\x80\x80\x80";
  for (std::size_t i = 0; i <= lone.size(); ++i) CHECK(utf8dfa::truncate(lone, i) == i);
  std::string s = "na\xC3\xAFve";
  s.resize(utf8dfa::truncate(s, 3));
  CHECK(s == "na");
}

TEST_CASE("boundaries: every input type") {
  const std::string s = "x\xF0\x9F\x98\x80y";
  const std::vector<unsigned char> v(s.begin(), s.end());
  CHECK(utf8dfa::floor_char_boundary(v, 3) == 1);
  CHECK(utf8dfa::ceil_char_boundary(v, 3) == 5);
  CHECK(utf8dfa::is_char_boundary(s.c_str(), 5));
  CHECK(!utf8dfa::is_char_boundary(s.c_str(), 2));
#if UTF8DFA_HAS_CHAR8_T
  const std::u8string u8 = u8"\uFEFF\u00E9";
  CHECK(utf8dfa::has_bom(u8));
  CHECK(utf8dfa::skip_bom(std::u8string_view(u8)) == u8"\u00E9");
  CHECK(utf8dfa::truncate(u8, 4) == 3);
#endif
#if UTF8DFA_HAS_SPAN
  std::vector<std::byte> raw(3 + s.size());
  const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
  for (std::size_t i = 0; i < raw.size(); ++i)
    raw[i] = static_cast<std::byte>(i < 3 ? bom[i] : static_cast<unsigned char>(s[i - 3]));
  const std::span<const std::byte> span(raw);
  CHECK(utf8dfa::has_bom(span));
  const std::span<const std::byte> rest = utf8dfa::skip_bom(span);
  CHECK(rest.data() == span.data() + 3);
  CHECK(rest.size() == s.size());
  CHECK(utf8dfa::skip_bom(rest).size() == rest.size());
#endif
}

TEST_CASE("BOM: only a leading EF BB BF, once") {
  CHECK(utf8dfa::has_bom("\xEF\xBB\xBFx"));
  CHECK(utf8dfa::skip_bom("\xEF\xBB\xBF\xEF\xBB\xBFx") == "\xEF\xBB\xBFx");  // a second BOM is data
  CHECK(!utf8dfa::has_bom("x\xEF\xBB\xBF"));
  CHECK(!utf8dfa::has_bom("\xEF\xBB"));
  CHECK(utf8dfa::skip_bom("\xEF\xBB") == "\xEF\xBB");
  CHECK(utf8dfa::skip_bom(std::string("\xEF\xBB\xBF")).empty());
}

namespace boundary_test {
constexpr bool constexpr_boundaries() {
  constexpr std::string_view s =
      "\xEF\xBB\xBF"
      "a\xE2\x82\xAC";
  return utf8dfa::has_bom(s) && utf8dfa::skip_bom(s) == "a\xE2\x82\xAC" && !utf8dfa::is_char_boundary(s, 5) &&
         utf8dfa::floor_char_boundary(s, 5) == 4 && utf8dfa::ceil_char_boundary(s, 5) == 7 &&
         utf8dfa::truncate(s, 6) == 4;
}
static_assert(constexpr_boundaries(), "the boundary functions work in constant expressions");
}  // namespace boundary_test

}  // namespace utf8dfa_test_boundary
