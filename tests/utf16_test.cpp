// UTF-16 and UTF-32 input (utf16.hpp): every single unit, every pair of units around the
// surrogates and the boundaries, every scalar value round-tripped, random ill-formed input against a
// reference decoder written here, and the byte-order functions on explicit byte sequences.
#include <utf8dfa/utf16.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <utf8dfa/encode.hpp>
#include <utf8dfa/transcode.hpp>

#include "catch.hpp"

namespace utf8dfa_test_utf16 {  // the file's own names (the suite also builds as unity sources)

namespace utf16_test {

using utf8dfa::error_code;

// The reference: one item per code point or unpaired surrogate.
struct item {
  char32_t cp;  // the scalar value, or the lone surrogate itself
  std::size_t offset;
  std::size_t length;
  error_code error;
};

bool is_high(char16_t u) {
  return u >= 0xD800 && u <= 0xDBFF;
}
bool is_low(char16_t u) {
  return u >= 0xDC00 && u <= 0xDFFF;
}

std::vector<item> reference(const std::u16string& s) {
  std::vector<item> out;
  for (std::size_t i = 0; i < s.size();) {
    const char16_t u = s[i];
    if (is_high(u) && i + 1 < s.size() && is_low(s[i + 1])) {
      out.push_back({static_cast<char32_t>(0x10000 + (char32_t{u} - 0xD800) * 0x400 + (char32_t{s[i + 1]} - 0xDC00)), i,
                     2, error_code::none});
      i += 2;
    } else if (is_high(u) && i + 1 == s.size()) {
      out.push_back({u, i, 1, error_code::incomplete});
      ++i;
    } else if (is_high(u) || is_low(u)) {
      out.push_back({u, i, 1, error_code::surrogate});
      ++i;
    } else {
      out.push_back({u, i, 1, error_code::none});
      ++i;
    }
  }
  return out;
}

// Everything the UTF-16 functions must say about `s`, checked against the reference.
void check_utf16(const std::u16string& s) {
  const std::vector<item> ref = reference(s);
  std::size_t first = ref.size();
  for (std::size_t k = 0; k < ref.size(); ++k)
    if (ref[k].error != error_code::none) {
      first = k;
      break;
    }
  const auto v = utf8dfa::validate_utf16(s);
  if (first == ref.size()) {
    REQUIRE(v);
    REQUIRE(v.valid_up_to == s.size());
    REQUIRE(v.error_length == 0);
  } else {
    REQUIRE(v.error == ref[first].error);
    REQUIRE(v.valid_up_to == ref[first].offset);
    REQUIRE(v.error_length == (ref[first].error == error_code::incomplete ? 0u : 1u));
  }
  REQUIRE(utf8dfa::count_utf16(s) == ref.size());
  REQUIRE(utf8dfa::utf32_length_from_utf16(s) == ref.size());

  std::u32string lossy, strict_part;
  std::u16string fixed;
  for (std::size_t k = 0; k < ref.size(); ++k) {
    const char32_t c = ref[k].error == error_code::none ? ref[k].cp : U'\uFFFD';
    lossy.push_back(c);
    if (k < first) strict_part.push_back(c);
    if (c >= 0x10000) {
      fixed.push_back(static_cast<char16_t>(0xD800 + ((c - 0x10000) >> 10)));
      fixed.push_back(static_cast<char16_t>(0xDC00 + (c & 0x3FF)));
    } else {
      fixed.push_back(static_cast<char16_t>(c));
    }
  }

  std::u16string out16(s.size(), u'\0');
  REQUIRE(utf8dfa::to_well_formed_utf16(s, out16.data()) == s.size());
  REQUIRE(out16 == fixed);
  std::u16string in_place = s;
  utf8dfa::to_well_formed_utf16(in_place, in_place.data());
  REQUIRE(in_place == fixed);
  REQUIRE(utf8dfa::validate_utf16(fixed));

  std::u32string out32(s.size(), U'\0');
  auto r = utf8dfa::utf16_to_utf32(s, out32.data());
  REQUIRE(r.error == (first == ref.size() ? error_code::none : ref[first].error));
  REQUIRE(r.read == (first == ref.size() ? s.size() : ref[first].offset));
  REQUIRE(out32.substr(0, r.written) == strict_part);
  r = utf8dfa::utf16_to_utf32(s, out32.data(), utf8dfa::replace{});
  REQUIRE(r.read == s.size());
  REQUIRE(r.error == (first == ref.size() ? error_code::none : ref[first].error));
  REQUIRE(out32.substr(0, r.written) == lossy);
  r = utf8dfa::utf16_to_utf32(s, out32.data(), utf8dfa::replace{U'?'});
  REQUIRE(r.written == lossy.size());
  for (std::size_t k = 0; k < ref.size(); ++k)
    REQUIRE(out32[k] == (ref[k].error == error_code::none ? ref[k].cp : U'?'));
  r = utf8dfa::utf16_to_utf32(s, out32.data(), utf8dfa::assume_valid{});
  REQUIRE(r.written <= utf8dfa::utf32_length_from_utf16(s));
}

// The UTF-32 functions on `s` against a per-value reference.
void check_utf32(const std::u32string& s) {
  std::size_t first = s.size();
  for (std::size_t k = 0; k < s.size(); ++k)
    if (!utf8dfa::is_scalar_value(s[k])) {
      first = k;
      break;
    }
  const auto kind = [](char32_t c) { return c > 0x10FFFF ? error_code::too_large : error_code::surrogate; };
  const auto v = utf8dfa::validate_utf32(s);
  REQUIRE(v.valid_up_to == first);
  REQUIRE(v.error == (first == s.size() ? error_code::none : kind(s[first])));
  REQUIRE(v.error_length == (first == s.size() ? 0u : 1u));

  std::u16string expected;
  for (char32_t c : s) {
    if (!utf8dfa::is_scalar_value(c)) c = U'\uFFFD';
    if (c >= 0x10000) {
      expected.push_back(static_cast<char16_t>(0xD800 + ((c - 0x10000) >> 10)));
      expected.push_back(static_cast<char16_t>(0xDC00 + (c & 0x3FF)));
    } else {
      expected.push_back(static_cast<char16_t>(c));
    }
  }
  REQUIRE(utf8dfa::utf16_length_from_utf32(s) == expected.size());
  std::u16string out(2 * s.size(), u'\0');
  auto r = utf8dfa::utf32_to_utf16(s, out.data(), utf8dfa::replace{});
  REQUIRE(r.read == s.size());
  REQUIRE(out.substr(0, r.written) == expected);
  r = utf8dfa::utf32_to_utf16(s, out.data());
  REQUIRE(r.read == first);
  REQUIRE(r.error == v.error);
  REQUIRE(utf8dfa::utf16_length_from_utf32(s.substr(0, first)) == r.written);
  // A supplementary replacement takes two units, and the length helper knows it.
  r = utf8dfa::utf32_to_utf16(s, out.data(), utf8dfa::replace{U'\U0001F4A9'});
  REQUIRE(r.written == utf8dfa::utf16_length_from_utf32(s, utf8dfa::replace{U'\U0001F4A9'}));
}

// Units whose neighbours matter: the surrogates' edges and the other boundaries.
const std::vector<char16_t> edges = {0x0000, 0x0041, 0x007F, 0x0080, 0x07FF, 0x0800, 0xD7FF, 0xD800, 0xD801,
                                     0xDBFE, 0xDBFF, 0xDC00, 0xDC01, 0xDFFE, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF};

// The verdicts on the two units a b, in bulk and without allocating: validation, count, the lossy
// and the strict conversion and the repair, against the rules spelled out here.
bool pair_ok(char16_t a, char16_t b) {
  const char16_t s[2] = {a, b};
  const std::u16string_view in(s, 2);
  const bool pair = is_high(a) && is_low(b);
  const bool a_bad = !pair && (is_high(a) || is_low(a)), b_bad = !pair && (is_high(b) || is_low(b));
  const auto v = utf8dfa::validate_utf16(in);
  bool ok = true;
  if (!a_bad && !b_bad) {
    ok = ok && v && v.valid_up_to == 2;
  } else if (a_bad) {
    ok = ok && v.valid_up_to == 0 && v.error == error_code::surrogate && v.error_length == 1;
  } else {
    const error_code e = is_high(b) ? error_code::incomplete : error_code::surrogate;
    ok = ok && v.valid_up_to == 1 && v.error == e && v.error_length == (is_high(b) ? 0u : 1u);
  }
  ok = ok && utf8dfa::count_utf16(in) == (pair ? 1u : 2u);
  char32_t out[2] = {};
  const auto r = utf8dfa::utf16_to_utf32(in, out, utf8dfa::replace{});
  ok = ok && r.read == 2 && r.written == (pair ? 1u : 2u) && r.error == v.error;
  if (pair) {
    ok = ok && out[0] == 0x10000 + (char32_t{a} - 0xD800) * 0x400 + (char32_t{b} - 0xDC00);
  } else {
    ok = ok && out[0] == (a_bad ? U'\uFFFD' : a) && out[1] == (b_bad ? U'\uFFFD' : b);
  }
  const auto st = utf8dfa::utf16_to_utf32(in, out);
  ok = ok && st.error == v.error && st.read == v.valid_up_to && st.written == (pair ? 1u : v.valid_up_to);
  char16_t fixed[2] = {};
  utf8dfa::to_well_formed_utf16(in, fixed);
  ok = ok && fixed[0] == (a_bad ? u'\uFFFD' : a) && fixed[1] == (b_bad ? u'\uFFFD' : b);
  return ok;
}

std::u16string from_bytes(const std::vector<unsigned char>& b) {
  std::u16string s(b.size() / 2, u'\0');
  std::memcpy(&s[0], b.data(), b.size());
  return s;
}

std::vector<unsigned char> to_bytes(const char16_t* p, std::size_t n) {
  std::vector<unsigned char> b(2 * n);
  std::memcpy(b.data(), p, 2 * n);
  return b;
}

// The bytes of UTF-32 units as stored, and units from stored bytes.
std::vector<unsigned char> to_bytes32(const char32_t* p, std::size_t n) {
  std::vector<unsigned char> b(4 * n);
  std::memcpy(b.data(), p, 4 * n);
  return b;
}

std::u32string from_bytes32(const std::vector<unsigned char>& b) {
  std::u32string s(b.size() / 4, U'\0');
  std::memcpy(&s[0], b.data(), b.size());
  return s;
}

// The bytes of `values` written in the given order, spelled out byte by byte (host-independent).
std::vector<unsigned char> ordered_bytes32(const std::u32string& values, bool little) {
  std::vector<unsigned char> b;
  for (const char32_t v : values)
    for (int k = 0; k < 4; ++k) b.push_back(static_cast<unsigned char>(v >> (8 * (little ? k : 3 - k))));
  return b;
}

}  // namespace utf16_test

using namespace utf16_test;

TEST_CASE("utf16: every single unit") {
  for (char32_t u = 0; u <= 0xFFFF; ++u) {
    const std::u16string s(1, static_cast<char16_t>(u));
    const auto v = utf8dfa::validate_utf16(s);
    if (u >= 0xD800 && u <= 0xDBFF) {
      REQUIRE(v.error == error_code::incomplete);
      REQUIRE(v.error_length == 0);
    } else if (u >= 0xDC00 && u <= 0xDFFF) {
      REQUIRE(v.error == error_code::surrogate);
      REQUIRE(v.error_length == 1);
    } else {
      REQUIRE(v);
    }
    REQUIRE(static_cast<bool>(v) == static_cast<bool>(utf8dfa::validate_utf32(std::u32string(1, u))));
    REQUIRE(utf8dfa::count_utf16(s) == 1);
    char16_t fixed = 0;
    utf8dfa::to_well_formed_utf16(s, &fixed);
    REQUIRE(fixed == (v ? s[0] : u'\uFFFD'));
  }
  check_utf16(u"");
  check_utf32(U"");
}

TEST_CASE("utf16: every pair of units with an edge unit, both orders") {
  for (char16_t e : edges) {
    for (char32_t u = 0; u <= 0xFFFF; ++u) {
      const char16_t a = static_cast<char16_t>(u);
      if (!pair_ok(e, a) || !pair_ok(a, e)) {
        INFO("units " << unsigned{e} << " " << unsigned{a});
        check_utf16(std::u16string{e, a});  // says what is wrong
        check_utf16(std::u16string{a, e});
      }
    }
  }
  for (char16_t a : edges)
    for (char16_t b : edges) check_utf16(std::u16string{a, b});
}

TEST_CASE("utf16: every pair of surrogates and edge units", "[exhaustive]") {
  std::vector<char16_t> units(edges);
  for (char32_t u = 0xD800; u <= 0xDFFF; ++u) units.push_back(static_cast<char16_t>(u));
  for (char16_t a : units) {
    for (char16_t b : units) {
      if (!pair_ok(a, b)) {
        INFO("units " << unsigned{a} << " " << unsigned{b});
        check_utf16(std::u16string{a, b});
      }
    }
  }
}

TEST_CASE("utf16: every scalar value round-trips through UTF-32, UTF-16, UTF-16LE and UTF-16BE") {
  std::u32string all;
  for (char32_t c = 0; c <= 0x10FFFF; ++c)
    if (utf8dfa::is_scalar_value(c)) all.push_back(c);
  REQUIRE(utf8dfa::validate_utf32(all));
  const std::size_t units = utf8dfa::utf16_length_from_utf32(all);
  REQUIRE(units == all.size() + 0x100000);
  std::u16string u16(units, u'\0');
  auto r = utf8dfa::utf32_to_utf16(all, u16.data());
  REQUIRE(r);
  REQUIRE(r.written == units);
  REQUIRE(u16 == utf8dfa::to_utf16_lossy(utf8dfa::to_utf8_lossy(all)));
  REQUIRE(utf8dfa::validate_utf16(u16));
  REQUIRE(utf8dfa::count_utf16(u16) == all.size());
  std::u32string back(utf8dfa::utf32_length_from_utf16(u16), U'\0');
  r = utf8dfa::utf16_to_utf32(u16, back.data());
  REQUIRE(r);
  REQUIRE(back == all);
  std::u16string copy(units, u'\0');
  utf8dfa::to_well_formed_utf16(u16, copy.data());
  REQUIRE(copy == u16);

  // Through UTF-8 and each byte order: the bytes are the native units with the bytes placed.
  const std::string utf8 = utf8dfa::to_utf8_lossy(all);
  for (bool little : {true, false}) {
    std::u16string ordered(units, u'\0');
    r = little ? utf8dfa::utf8_to_utf16le(utf8, ordered.data()) : utf8dfa::utf8_to_utf16be(utf8, ordered.data());
    REQUIRE(r);
    REQUIRE(r.written == units);
    const auto bytes = to_bytes(ordered.data(), ordered.size());
    bool placed = true;
    for (std::size_t i = 0; i < units; ++i) {
      const unsigned lo = bytes[2 * i + (little ? 0 : 1)], hi = bytes[2 * i + (little ? 1 : 0)];
      placed = placed && (hi << 8 | lo) == u16[i];
    }
    REQUIRE(placed);
    REQUIRE((little ? utf8dfa::validate_utf16le(ordered) : utf8dfa::validate_utf16be(ordered)));
    const std::size_t n8 =
        little ? utf8dfa::utf8_length_from_utf16le(ordered) : utf8dfa::utf8_length_from_utf16be(ordered);
    REQUIRE(n8 == utf8.size());
    std::string again(n8, '\0');
    r = little ? utf8dfa::utf16le_to_utf8(ordered, again.data()) : utf8dfa::utf16be_to_utf8(ordered, again.data());
    REQUIRE(r);
    REQUIRE(again == utf8);
  }
}

TEST_CASE("utf16: random ill-formed UTF-16 and UTF-32 against the reference") {
  std::mt19937 rng(16);
  const std::vector<char16_t> pool = {0x41,   0xE9,   0x20AC, 0xD7FF, 0xE000, 0xFFFF, 0xD800,
                                      0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00, 0xDA00, 0xDD00};
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
  for (int round = 0; round < 3000; ++round) {
    std::u16string s(std::uniform_int_distribution<std::size_t>(0, round < 2900 ? 12 : 700)(rng), u'\0');
    for (char16_t& u : s) u = pool[pick(rng)];
    check_utf16(s);
  }
  const std::vector<char32_t> pool32 = {0x41,   0xE9,    0x20AC,   0xD7FF,   0xD800,   0xDFFF,     0xE000,
                                        0xFFFF, 0x10000, 0x10FFFF, 0x110000, 0x1FFFFF, 0x7FFFFFFF, 0xFFFFFFFF};
  std::uniform_int_distribution<std::size_t> pick32(0, pool32.size() - 1);
  for (int round = 0; round < 2000; ++round) {
    std::u32string s(std::uniform_int_distribution<std::size_t>(0, 10)(rng), U'\0');
    for (char32_t& c : s) c = pool32[pick32(rng)];
    check_utf32(s);
  }
}

TEST_CASE("utf16: byte order on explicit byte sequences") {
  // "a€😀" = U+0061 U+20AC U+1F600 (D83D DE00).
  const std::vector<unsigned char> le = {0x61, 0x00, 0xAC, 0x20, 0x3D, 0xD8, 0x00, 0xDE};
  const std::vector<unsigned char> be = {0x00, 0x61, 0x20, 0xAC, 0xD8, 0x3D, 0xDE, 0x00};
  const std::string utf8 = "a\xE2\x82\xAC\xF0\x9F\x98\x80";
  const std::u16string sle = from_bytes(le), sbe = from_bytes(be);

  REQUIRE(utf8dfa::validate_utf16le(sle));
  REQUIRE(utf8dfa::validate_utf16be(sbe));
  char16_t out[4] = {};
  auto r = utf8dfa::utf8_to_utf16le(utf8, out);
  REQUIRE(r.written == 4);
  REQUIRE(to_bytes(out, 4) == le);
  r = utf8dfa::utf8_to_utf16be(utf8, out);
  REQUIRE(r.written == 4);
  REQUIRE(to_bytes(out, 4) == be);
  REQUIRE(utf8dfa::change_endianness_utf16(sle, out) == 4);
  REQUIRE(to_bytes(out, 4) == be);
  std::u16string swapped = sbe;
  utf8dfa::change_endianness_utf16(swapped, swapped.data());
  REQUIRE(to_bytes(swapped.data(), 4) == le);

  char bytes[8] = {};
  r = utf8dfa::utf16le_to_utf8(sle, bytes);
  REQUIRE(r);
  REQUIRE(std::string(bytes, r.written) == utf8);
  r = utf8dfa::utf16be_to_utf8(sbe, bytes);
  REQUIRE(r);
  REQUIRE(std::string(bytes, r.written) == utf8);
  REQUIRE(utf8dfa::utf8_length_from_utf16le(sle) == 8);
  REQUIRE(utf8dfa::utf8_length_from_utf16be(sbe) == 8);

  // D800 0041 in LE is a lone surrogate; the same bytes read as BE are U+00D8 U+4100.
  const std::u16string odd = from_bytes({0x00, 0xD8, 0x41, 0x00});
  auto v = utf8dfa::validate_utf16le(odd);
  REQUIRE(v.error == error_code::surrogate);
  REQUIRE(v.valid_up_to == 0);
  REQUIRE(v.error_length == 1);
  REQUIRE(utf8dfa::validate_utf16be(odd));
  r = utf8dfa::utf16be_to_utf8(odd, bytes);
  REQUIRE(std::string(bytes, r.written) == "\xC3\x98\xE4\x84\x80");
  r = utf8dfa::utf16le_to_utf8(odd, bytes);
  REQUIRE(r.error == error_code::surrogate);
  REQUIRE(r.read == 0);
  REQUIRE(r.written == 0);
  r = utf8dfa::utf16le_to_utf8(odd, bytes, utf8dfa::replace{});
  REQUIRE(r.error == error_code::surrogate);
  REQUIRE(std::string(bytes, r.written) ==
          "\xEF\xBF\xBD"
          "A");
  // A high surrogate ending the input (BE D8 3D) is incomplete.
  v = utf8dfa::validate_utf16be(from_bytes({0x00, 0x61, 0xD8, 0x3D}));
  REQUIRE(v.error == error_code::incomplete);
  REQUIRE(v.valid_up_to == 1);
  // An ill-formed UTF-8 input: the policies act as in utf8_to_utf16, the output is in order.
  r = utf8dfa::utf8_to_utf16be("a\xFF", out, utf8dfa::replace{});
  REQUIRE(r.written == 2);
  REQUIRE(to_bytes(out, 2) == std::vector<unsigned char>{0x00, 0x61, 0xFF, 0xFD});
  r = utf8dfa::utf8_to_utf16le("a\xFF", out);
  REQUIRE(r.error == error_code::invalid_byte);
  REQUIRE(r.read == 1);
  REQUIRE(to_bytes(out, 1) == std::vector<unsigned char>{0x61, 0x00});
}

TEST_CASE("utf16: each byte order agrees with host-order UTF-16 on long random input (pairs across chunks)") {
  std::mt19937 rng(1616);
  const std::vector<char16_t> pool = {0x41, 0x20AC, 0xD83D, 0xDE00, 0xD800, 0xDC00, 0xDBFF, 0xDFFF, 0xFFFD};
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
  for (int round = 0; round < 200; ++round) {
    std::u16string s(std::uniform_int_distribution<std::size_t>(200, 1100)(rng), u'\0');
    for (char16_t& u : s) u = pool[pick(rng)];
    // The host order's bytes, and the same units with the bytes exchanged.
    std::u16string other(s.size(), u'\0');
    utf8dfa::change_endianness_utf16(s, other.data());
    const bool host_little = utf8dfa::detail::host_little_endian;
    const std::u16string& le = host_little ? s : other;
    const std::u16string& be = host_little ? other : s;

    const auto v = utf8dfa::validate_utf16(s);
    for (const auto& w : {utf8dfa::validate_utf16le(le), utf8dfa::validate_utf16be(be)}) {
      REQUIRE(w.valid_up_to == v.valid_up_to);
      REQUIRE(w.error == v.error);
      REQUIRE(w.error_length == v.error_length);
    }
    const std::size_t n8 = utf8dfa::utf8_length_from_utf16(s);
    REQUIRE(utf8dfa::utf8_length_from_utf16le(le) == n8);
    REQUIRE(utf8dfa::utf8_length_from_utf16be(be) == n8);
    std::string a(n8, '\0'), b(n8, '\0'), c(n8, '\0');
    for (bool lossy : {false, true}) {
      const auto ra =
          lossy ? utf8dfa::utf16_to_utf8(s, a.data(), utf8dfa::replace{}) : utf8dfa::utf16_to_utf8(s, a.data());
      const auto rb =
          lossy ? utf8dfa::utf16le_to_utf8(le, b.data(), utf8dfa::replace{}) : utf8dfa::utf16le_to_utf8(le, b.data());
      const auto rc =
          lossy ? utf8dfa::utf16be_to_utf8(be, c.data(), utf8dfa::replace{}) : utf8dfa::utf16be_to_utf8(be, c.data());
      for (const auto& r : {rb, rc}) {
        REQUIRE(r.read == ra.read);
        REQUIRE(r.written == ra.written);
        REQUIRE(r.error == ra.error);
      }
      REQUIRE(a.substr(0, ra.written) == b.substr(0, ra.written));
      REQUIRE(a.substr(0, ra.written) == c.substr(0, ra.written));
    }
  }
}

TEST_CASE("utf16: constant expressions") {
  STATIC_REQUIRE(utf8dfa::validate_utf16(u"a\U0001F600").valid_up_to == 3);
  STATIC_REQUIRE(utf8dfa::validate_utf32(U"a\x110000").error == error_code::too_large);
  STATIC_REQUIRE(utf8dfa::count_utf16(u"a\U0001F600") == 2);
  STATIC_REQUIRE(utf8dfa::utf16_length_from_utf32(U"a\U0001F600") == 3);
}

TEST_CASE("utf16: an error or a pair at every position of long plain runs (the 32-unit blocks)") {
  for (std::size_t i = 0; i < 100; ++i) {
    for (char16_t u : {u'\xD800', u'\xDBFF', u'\xDC00', u'\xDFFF'}) {
      std::u16string s(100, u'a');
      s[i] = u;
      check_utf16(s);
      if (i + 1 < s.size()) {  // a pair, or a reversed one, across every block edge
        s[i + 1] = is_high(u) ? u'\xDC00' : u'\xD800';
        check_utf16(s);
      }
    }
    for (char32_t c : {U'\xD800', U'\xDFFF', char32_t{0x110000}, char32_t{0xFFFFFFFF}}) {
      std::u32string s(100, U'\U0010FFFF');
      s[i] = c;
      check_utf32(s);
    }
  }
}

TEST_CASE("utf16: UTF-32LE and UTF-32BE round trips on every plane") {
  std::u32string values;
  for (char32_t plane = 0; plane <= 0x10; ++plane) {
    const char32_t base = plane << 16;
    for (char32_t off : {0x0u, 0x1u, 0x7Fu, 0x80u, 0x7FFu, 0x800u, 0xD7FFu, 0xE000u, 0xFFFDu, 0xFFFEu, 0xFFFFu})
      if (utf8dfa::is_scalar_value(base + off)) values.push_back(base + off);
    for (char32_t c = base; c <= base + 0xFFFF; c += 251)
      if (utf8dfa::is_scalar_value(c)) values.push_back(c);
  }
  REQUIRE(values.size() > 4000);  // several chunks of the byte-order machinery
  const std::string utf8 = utf8dfa::to_utf8_lossy(values);
  REQUIRE(utf8dfa::utf32_length_from_utf8(utf8) == values.size());
  for (bool little : {true, false}) {
    const std::vector<unsigned char> want = ordered_bytes32(values, little);
    std::u32string ordered(values.size(), U'\0');
    auto r = little ? utf8dfa::utf8_to_utf32le(utf8, ordered.data()) : utf8dfa::utf8_to_utf32be(utf8, ordered.data());
    REQUIRE(r);
    REQUIRE(r.read == utf8.size());
    REQUIRE(r.written == values.size());
    REQUIRE(to_bytes32(ordered.data(), ordered.size()) == want);
    REQUIRE((little ? utf8dfa::validate_utf32le(ordered) : utf8dfa::validate_utf32be(ordered)));
    const std::size_t n8 =
        little ? utf8dfa::utf8_length_from_utf32le(ordered) : utf8dfa::utf8_length_from_utf32be(ordered);
    REQUIRE(n8 == utf8.size());
    std::string again(n8, '\0');
    r = little ? utf8dfa::utf32le_to_utf8(ordered, again.data()) : utf8dfa::utf32be_to_utf8(ordered, again.data());
    REQUIRE(r);
    REQUIRE(r.written == n8);
    REQUIRE(again == utf8);
    // The other order's bytes, by exchanging them (into a copy, then in place back).
    std::u32string other(values.size(), U'\0');
    REQUIRE(utf8dfa::change_endianness_utf32(ordered, other.data()) == values.size());
    REQUIRE(to_bytes32(other.data(), other.size()) == ordered_bytes32(values, !little));
    utf8dfa::change_endianness_utf32(other, other.data());
    REQUIRE(other == ordered);
  }
  // Host order is one of the two.
  std::u32string host_le(values.size(), U'\0');
  utf8dfa::utf8_to_utf32le(utf8, host_le.data());
  REQUIRE((host_le == values) == utf8dfa::host_is_little_endian);
}

TEST_CASE("utf16: UTF-32LE and UTF-32BE errors on explicit byte sequences") {
  // LE: U+0041, D800 (a surrogate), U+0042. Read as BE, the first unit is 0x41000000 (too large).
  const std::u32string s = from_bytes32({0x41, 0, 0, 0, 0x00, 0xD8, 0, 0, 0x42, 0, 0, 0});
  auto v = utf8dfa::validate_utf32le(s);
  REQUIRE(v.error == error_code::surrogate);
  REQUIRE(v.valid_up_to == 1);
  REQUIRE(v.error_length == 1);
  v = utf8dfa::validate_utf32be(s);
  REQUIRE(v.error == error_code::too_large);
  REQUIRE(v.valid_up_to == 0);
  char out[16] = {};
  auto r = utf8dfa::utf32le_to_utf8(s, out);
  REQUIRE(r.error == error_code::surrogate);
  REQUIRE(r.read == 1);
  REQUIRE(std::string(out, r.written) == "A");
  r = utf8dfa::utf32le_to_utf8(s, out, utf8dfa::replace{});
  REQUIRE(r.read == 3);
  REQUIRE(r.error == error_code::surrogate);
  REQUIRE(std::string(out, r.written) ==
          "A\xEF\xBF\xBD"
          "B");
  REQUIRE(utf8dfa::utf8_length_from_utf32le(s) == 5);
  r = utf8dfa::utf32be_to_utf8(s, out, utf8dfa::replace{U'?'});
  REQUIRE(r.error == error_code::too_large);
  REQUIRE(std::string(out, r.written) == "???");
  REQUIRE(utf8dfa::utf8_length_from_utf32be(s, utf8dfa::replace{U'?'}) == 3);

  // 0x110000 stored LE (00 00 11 00) is too large; the same bytes as BE are U+1100.
  const std::u32string big = from_bytes32({0x00, 0x00, 0x11, 0x00});
  REQUIRE(utf8dfa::validate_utf32le(big).error == error_code::too_large);
  REQUIRE(utf8dfa::validate_utf32be(big));
  r = utf8dfa::utf32be_to_utf8(big, out);
  REQUIRE(std::string(out, r.written) == "\xE1\x84\x80");
  // Each surrogate edge, a lone high one at the end included (UTF-32 has no pairs: not `incomplete`).
  for (char32_t bad : {0xD800u, 0xDBFFu, 0xDC00u, 0xDFFFu}) {
    for (bool little : {true, false}) {
      const std::u32string in = from_bytes32(ordered_bytes32(std::u32string{U'x', bad}, little));
      v = little ? utf8dfa::validate_utf32le(in) : utf8dfa::validate_utf32be(in);
      REQUIRE(v.error == error_code::surrogate);
      REQUIRE(v.valid_up_to == 1);
      REQUIRE(v.error_length == 1);
    }
  }
  // An error past the first chunks: offsets count from the start of the input.
  std::u32string values(700, U'\u00E9');
  values[613] = 0xDFFF;
  for (bool little : {true, false}) {
    const std::u32string in = from_bytes32(ordered_bytes32(values, little));
    v = little ? utf8dfa::validate_utf32le(in) : utf8dfa::validate_utf32be(in);
    REQUIRE(v.valid_up_to == 613);
    std::string o(4 * 700, '\0');
    r = little ? utf8dfa::utf32le_to_utf8(in, o.data()) : utf8dfa::utf32be_to_utf8(in, o.data());
    REQUIRE(r.read == 613);
    REQUIRE(r.written == 2 * 613);
    REQUIRE(r.error == error_code::surrogate);
  }
  // Ill-formed UTF-8 in: the policies as in utf8_to_utf32, the output in order.
  char32_t units[2] = {};
  r = utf8dfa::utf8_to_utf32be("a\xFF", units, utf8dfa::replace{});
  REQUIRE(r.written == 2);
  REQUIRE(to_bytes32(units, 2) == std::vector<unsigned char>{0, 0, 0, 0x61, 0, 0, 0xFF, 0xFD});
  r = utf8dfa::utf8_to_utf32le("a\xED\xA0\x80", units);
  REQUIRE(r.error == error_code::surrogate);
  REQUIRE(r.read == 1);
  REQUIRE(to_bytes32(units, 1) == std::vector<unsigned char>{0x61, 0, 0, 0});
}

TEST_CASE("utf16: UTF-32LE and UTF-32BE agree with host-order UTF-32 on random input") {
  std::mt19937 rng(3232);
  const std::vector<char32_t> pool = {0x41, 0x20AC, 0x1F600, 0x10FFFF, 0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF, 0xFFFD};
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
  for (int round = 0; round < 100; ++round) {
    std::u32string s(std::uniform_int_distribution<std::size_t>(200, 1100)(rng), U'\0');
    for (char32_t& u : s) u = pool[pick(rng)];
    if (round % 4 == 0)
      for (char32_t& u : s) u = utf8dfa::is_scalar_value(u) ? u : U'\u00E9';  // some well-formed ones
    std::u32string other(s.size(), U'\0');
    utf8dfa::change_endianness_utf32(s, other.data());
    const std::u32string& le = utf8dfa::host_is_little_endian ? s : other;
    const std::u32string& be = utf8dfa::host_is_little_endian ? other : s;
    const auto v = utf8dfa::validate_utf32(s);
    for (const auto& w : {utf8dfa::validate_utf32le(le), utf8dfa::validate_utf32be(be)}) {
      REQUIRE(w.valid_up_to == v.valid_up_to);
      REQUIRE(w.error == v.error);
      REQUIRE(w.error_length == v.error_length);
    }
    const std::size_t n8 = utf8dfa::utf8_length_from_utf32(s);
    REQUIRE(utf8dfa::utf8_length_from_utf32le(le) == n8);
    REQUIRE(utf8dfa::utf8_length_from_utf32be(be) == n8);
    std::string a(n8, '\0'), b(n8, '\0'), c(n8, '\0');
    for (bool lossy : {false, true}) {
      const auto ra =
          lossy ? utf8dfa::utf32_to_utf8(s, a.data(), utf8dfa::replace{}) : utf8dfa::utf32_to_utf8(s, a.data());
      const auto rb =
          lossy ? utf8dfa::utf32le_to_utf8(le, b.data(), utf8dfa::replace{}) : utf8dfa::utf32le_to_utf8(le, b.data());
      const auto rc =
          lossy ? utf8dfa::utf32be_to_utf8(be, c.data(), utf8dfa::replace{}) : utf8dfa::utf32be_to_utf8(be, c.data());
      for (const auto& r : {rb, rc}) {
        REQUIRE(r.read == ra.read);
        REQUIRE(r.written == ra.written);
        REQUIRE(r.error == ra.error);
      }
      REQUIRE(a.substr(0, ra.written) == b.substr(0, ra.written));
      REQUIRE(a.substr(0, ra.written) == c.substr(0, ra.written));
    }
  }
}

}  // namespace utf8dfa_test_utf16
