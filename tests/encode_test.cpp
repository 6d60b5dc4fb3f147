// encode / encoded_length / is_scalar_value: every Unicode scalar value against the reference's
// RFC 3629 section 3 encoder and decoder, round trips through decode_next and decode_prev, the
// section 3 bit patterns, the section 7 examples, and refusal of every non-scalar value.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include <utf8dfa.hpp>

#include "catch.hpp"
#include "reference/check.hpp"
#include "strict_alloc.hpp"

namespace utf8dfa_test_encode {  // the file's own names (the suite also builds as unity sources)

using namespace utf8dfa_check;
using utf8dfa::error_code;

TEST_CASE("every scalar value: encode, decode_next and decode_prev against the reference", "[encode][exhaustive]") {
  const auto t0 = std::chrono::steady_clock::now();
  tally t;
  std::size_t scalars = 0;
  for (std::uint32_t v = 0; v <= 0x10FFFF; ++v) {
    if (v >= 0xD800 && v <= 0xDFFF) continue;
    ++scalars;
    const char32_t cp = static_cast<char32_t>(v);
    const std::string want = utf8dfa_ref::encode_utf8(v);
    const unsigned char* w = u8p(want);
    unsigned char out[5] = {0xAA, 0xAA, 0xAA, 0xAA, 0xAA};
    const std::size_t n = utf8dfa::encode(cp, out);
    std::string m;
    if (n != want.size() || std::string(reinterpret_cast<const char*>(out), n) != want || out[n] != 0xAA)
      m = "encode(" + std::to_string(v) + ") wrote [" + hex(out, n) + "], reference [" + hex(want) + "]";
    else if (utf8dfa::encoded_length(cp) != n || !utf8dfa::is_scalar_value(cp))
      m = "encoded_length / is_scalar_value(" + std::to_string(v) + ")";
    else {
      // The reference's two readings agree on the form, and the library decodes it both ways.
      const utf8dfa_ref::piece back = utf8dfa_ref::decode_at(w, n, 0);
      const utf8dfa_ref::verdict ok = utf8dfa_ref::validate(w, n);
      const utf8dfa::decoded f = utf8dfa::decode_next(bytes{out, n}, 0);
      const utf8dfa::decoded b = utf8dfa::decode_prev(bytes{out, n}, n);
      if (!back.well_formed || back.value != cp || back.length != n || ok.kind != error::none)
        m = "reference round trip of " + std::to_string(v);
      else if (f.code_point != cp || f.length != n || f.error != error_code::none)
        m = "decode_next of " + hex(out, n);
      else if (b.code_point != cp || b.length != n || b.error != error_code::none)
        m = "decode_prev of " + hex(out, n);
    }
    t.add(std::move(m));
  }
  std::printf("encode: %zu scalar values in %.2f s\n", scalars, seconds_since(t0));
  INFO(t.first);
  CHECK(t.failures == 0);
  CHECK(scalars == 0x110000 - 0x800);
}

TEST_CASE("RFC 3629 section 3: the ranges and bit patterns", "[encode][rfc3629]") {
  // Char. number range  |  UTF-8 octet sequence
  // 0000 0000-0000 007F | 0xxxxxxx
  // 0000 0080-0000 07FF | 110xxxxx 10xxxxxx
  // 0000 0800-0000 FFFF | 1110xxxx 10xxxxxx 10xxxxxx
  // 0001 0000-0010 FFFF | 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
  struct row {
    std::uint32_t first, last;
    std::size_t length;
    unsigned lead_mask, lead_bits;
  };
  const row table[] = {{0x0000, 0x007F, 1, 0x80, 0x00},
                       {0x0080, 0x07FF, 2, 0xE0, 0xC0},
                       {0x0800, 0xFFFF, 3, 0xF0, 0xE0},
                       {0x10000, 0x10FFFF, 4, 0xF8, 0xF0}};
  std::size_t mismatches = 0;
  for (const row& r : table) {
    CHECK(utf8dfa::encoded_length(static_cast<char32_t>(r.first)) == r.length);
    CHECK(utf8dfa::encoded_length(static_cast<char32_t>(r.last)) == r.length);
    for (std::uint32_t v = r.first; v <= r.last; ++v) {
      if (v >= 0xD800 && v <= 0xDFFF) continue;
      unsigned char o[4] = {};
      const std::size_t n = utf8dfa::encode(static_cast<char32_t>(v), o);
      bool good = n == r.length && (o[0] & r.lead_mask) == r.lead_bits;
      // The x bits, read back from high to low, are the value's bits.
      std::uint32_t bits = o[0] & ~r.lead_mask & 0xFFu;
      for (std::size_t i = 1; i < n; ++i) {
        good = good && (o[i] & 0xC0) == 0x80;
        bits = (bits << 6) | (o[i] & 0x3Fu);
      }
      mismatches += !(good && bits == v);
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("RFC 3629 section 7 examples", "[encode][rfc3629]") {
  struct example {
    std::u32string_view chars;
    std::string_view utf8;
  };
  const example examples[] = {
      {U"\u0041\u2262\u0391\u002E", "\x41\xE2\x89\xA2\xCE\x91\x2E"},
      {U"\uD55C\uAD6D\uC5B4", "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"},
      {U"\u65E5\u672C\u8A9E", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"},
      {U"\uFEFF\U000233B4", "\xEF\xBB\xBF\xF0\xA3\x8E\xB4"},
  };
  for (const example& ex : examples) {
    INFO(hex(std::string(ex.utf8)));
    std::string enc;
    for (char32_t c : ex.chars) {
      char o[4];
      enc.append(o, utf8dfa::encode(c, o));
    }
    CHECK(enc == ex.utf8);
    CHECK(utf8dfa::is_valid(ex.utf8));
    CHECK(strict_alloc::to_utf32(ex.utf8) == ex.chars);
    CHECK(strict_alloc::to_utf8(ex.chars) == ex.utf8);
    std::u32string walked;
    for (std::size_t pos = 0; pos < ex.utf8.size();) {
      const utf8dfa::decoded d = utf8dfa::decode_next(ex.utf8, pos);
      walked += d.code_point;
      pos += d.length;
    }
    CHECK(walked == ex.chars);
  }
}

TEST_CASE("encode refuses surrogates and values above 0x10FFFF and writes nothing", "[encode]") {
  std::size_t accepted = 0, checked = 0;
  auto refuse = [&](std::uint32_t v) {
    unsigned char o[4] = {0xAA, 0xAA, 0xAA, 0xAA};
    const std::size_t n = utf8dfa::encode(static_cast<char32_t>(v), o);
    accepted += n != 0 || o[0] != 0xAA || o[1] != 0xAA || o[2] != 0xAA || o[3] != 0xAA ||
                utf8dfa::encoded_length(static_cast<char32_t>(v)) != 0 ||
                utf8dfa::is_scalar_value(static_cast<char32_t>(v));
    ++checked;
  };
  for (std::uint32_t v = 0xD800; v <= 0xDFFF; ++v) refuse(v);
  for (std::uint32_t v = 0x110000; v <= 0x120000; ++v) refuse(v);
  // Above that, every 2^k and its neighbours, and a stride through the rest.
  for (unsigned k = 21; k < 32; ++k) {
    const std::uint32_t p = std::uint32_t{1} << k;
    refuse(p - 1 > 0x10FFFF ? p - 1 : 0x110000);
    refuse(p);
    refuse(p + 1);
  }
  for (std::uint64_t v = 0x120000; v <= 0xFFFFFFFFu; v += 0x10001) refuse(static_cast<std::uint32_t>(v));
  refuse(0xFFFFFFFFu);
  refuse(0x7FFFFFFFu);
  refuse(0x80000000u);
  CHECK(accepted == 0);
  CHECK(checked > 0x10000);
  // The neighbours of the refused ranges are accepted.
  char o[4];
  CHECK(utf8dfa::encode(U'\uD7FF', o) == 3);
  CHECK(utf8dfa::encode(U'\uE000', o) == 3);
  CHECK(utf8dfa::encode(U'\U0010FFFF', o) == 4);
}

TEST_CASE("encode writes any byte type", "[encode][types]") {
  const char32_t cp = U'\U0001F600';
  char c[4];
  unsigned char u[4];
  signed char s[4];
  std::byte b[4];
  REQUIRE(utf8dfa::encode(cp, c) == 4);
  REQUIRE(utf8dfa::encode(cp, u) == 4);
  REQUIRE(utf8dfa::encode(cp, s) == 4);
  REQUIRE(utf8dfa::encode(cp, b) == 4);
  const std::string want = utf8dfa_ref::encode_utf8(0x1F600);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(static_cast<unsigned char>(c[i]) == static_cast<unsigned char>(want[i]));
    CHECK(u[i] == static_cast<unsigned char>(want[i]));
    CHECK(static_cast<unsigned char>(s[i]) == static_cast<unsigned char>(want[i]));
    CHECK(std::to_integer<unsigned char>(b[i]) == static_cast<unsigned char>(want[i]));
  }
#if UTF8DFA_HAS_CHAR8_T
  char8_t e[4];
  REQUIRE(utf8dfa::encode(cp, e) == 4);
  CHECK(e[0] == static_cast<char8_t>(0xF0));
#endif
}

}  // namespace utf8dfa_test_encode
