// Bulk conversion against the reference: every UTF-8 input of 1 to 3 bytes and the pruned 4-byte
// enumeration under strict and replace (UTF-32 and UTF-16 output, length helpers, conversion_result
// exact on error), every scalar value through UTF-8, UTF-16 and UTF-32 with all three policies,
// UTF-16 and UTF-32 errors, custom replacements, the throwing and status helpers.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <utf8dfa.hpp>

#include "catch.hpp"
#include "strict_alloc.hpp"
#if UTF8DFA_HAS_SPAN
#include <span>
#endif
#include "reference/check.hpp"

namespace utf8dfa_test_transcode {  // the file's own names (the suite also builds as unity sources)

using namespace utf8dfa_check;
using utf8dfa::error_code;

TEST_CASE("UTF-8 conversion agrees with the reference on every input of 1, 2 and 3 bytes", "[transcode][exhaustive]") {
  for (std::size_t n = 1; n <= 3; ++n) {
    const auto t0 = std::chrono::steady_clock::now();
    tally t;
    for_each_sequence(n, [&](const unsigned char* p, std::size_t len) {
      t.add(check_transcode(p, len, U'\uFFFD', len <= 2));
      if (len <= 2) t.add(check_transcode(p, len, U'?'));
    });
    std::printf("transcode: all %zu inputs of %zu bytes in %.2f s\n", t.inputs, n, seconds_since(t0));
    INFO(t.first);
    CHECK(t.failures == 0);
  }
}

TEST_CASE("UTF-8 conversion agrees with the reference on every 4-byte input (pruned)", "[transcode][exhaustive]") {
  const auto t0 = std::chrono::steady_clock::now();
  tally t;
  for_each_pruned4([&](const unsigned char* p, std::size_t n) { t.add(check_transcode(p, n)); });
  std::printf("transcode: %zu pruned 4-byte inputs in %.2f s\n", t.inputs, seconds_since(t0));
  INFO(t.first);
  CHECK(t.failures == 0);
  CHECK(t.inputs > 10000000 / utf8dfa_sample::divisor());
}

TEST_CASE("UTF-8 conversion agrees with the reference on random longer inputs", "[transcode][random]") {
  std::mt19937 rng(2781);
  tally t;
  const char32_t replacements[] = {U'\uFFFD', U'?', U'\U0001F600', U'\u00E9', U'\0'};
  const std::string text = random_valid(rng, 60);
  for (std::size_t i = 0; i <= text.size(); ++i)
    for (const std::string& bad : bad_pieces()) {
      std::string s = text;
      s.insert(i, bad);
      t.add(check_transcode(u8p(s), s.size(), replacements[i % 5], i % 7 == 0));
    }
  // Long inputs (ASCII, then mixed text) with errors at the block edges of the SIMD kernels.
  for (int round = 0; round < 2; ++round) {
    const std::string long_text = round == 0 ? std::string(700, 'q') : std::string(40, 'q') + random_valid(rng, 300);
    for (std::size_t i : block_edges(long_text.size()))
      for (std::size_t k = 0; k < bad_pieces().size(); k += 1 + i % 3) {
        std::string s = long_text;
        s.insert(i, bad_pieces()[k]);
        t.add(check_transcode(u8p(s), s.size(), replacements[k % 5]));
      }
  }
  for (int i = 0; i < 20000; ++i) {
    const std::string s = random_mix(rng, 1 + rng() % 12);
    t.add(check_transcode(u8p(s), s.size(), replacements[i % 5], i % 10 == 0));
  }
  for (int i = 0; i < 20000; ++i) {
    const std::string s = random_bytes(rng, rng() % 200);
    t.add(check_transcode(u8p(s), s.size(), replacements[i % 5], i % 10 == 0));
  }
  for (int i = 0; i < 2000; ++i) {  // long valid text: the ASCII and bulk paths
    const std::string s = std::string(rng() % 50, 'a') + random_valid(rng, rng() % 300);
    t.add(check_transcode(u8p(s), s.size(), U'\uFFFD', i % 10 == 0));
  }
  INFO(t.first);
  CHECK(t.failures == 0);
}

namespace transcode_test {

struct all_scalars {
  std::u32string utf32;
  std::u16string utf16;
  std::string utf8;
  all_scalars() {
    for (std::uint32_t v = 0; v <= 0x10FFFF; ++v)
      if (utf8dfa_ref::is_scalar_value(v)) {
        utf32 += static_cast<char32_t>(v);
        utf16 += utf8dfa_ref::encode_utf16(v);
        utf8 += utf8dfa_ref::encode_utf8(v);
      }
  }
};

const all_scalars& scalars() {
  static const all_scalars s;
  return s;
}

template <class Out, class Policy, class Convert>
void convert_all(std::size_t size, Policy pol, Convert convert, const std::basic_string<Out>& want,
                 std::size_t in_size) {
  std::basic_string<Out> out(size + 1, Out{0x5A});
  const utf8dfa::conversion_result r = convert(&out[0], pol);
  CHECK(r.read == in_size);
  CHECK(r.written == want.size());
  CHECK(r.error == error_code::none);
  CHECK(out[size] == Out{0x5A});
  out.resize(r.written);
  CHECK(out == want);
}

}  // namespace transcode_test

TEST_CASE("every scalar value round-trips through UTF-8, UTF-16 and UTF-32 under every policy",
          "[transcode][exhaustive]") {
  using namespace transcode_test;
  const auto t0 = std::chrono::steady_clock::now();
  const all_scalars& a = scalars();
  REQUIRE(a.utf32.size() == 0x110000 - 0x800);
  const std::string& u8 = a.utf8;
  // Length helpers, exact.
  REQUIRE(utf8dfa::utf32_length_from_utf8(u8) == a.utf32.size());
  REQUIRE(utf8dfa::utf16_length_from_utf8(u8) == a.utf16.size());
  REQUIRE(utf8dfa::utf8_length_from_utf16(a.utf16) == u8.size());
  REQUIRE(utf8dfa::utf8_length_from_utf32(a.utf32) == u8.size());
  CHECK(utf8dfa::count_code_points(u8) == a.utf32.size());
  CHECK(utf8dfa::is_valid(u8));

  auto from8to32 = [&](char32_t* o, auto pol) { return utf8dfa::utf8_to_utf32(u8, o, pol); };
  auto from8to16 = [&](char16_t* o, auto pol) { return utf8dfa::utf8_to_utf16(u8, o, pol); };
  auto from16 = [&](char* o, auto pol) { return utf8dfa::utf16_to_utf8(a.utf16, o, pol); };
  auto from32 = [&](char* o, auto pol) { return utf8dfa::utf32_to_utf8(a.utf32, o, pol); };
  convert_all(a.utf32.size(), utf8dfa::strict{}, from8to32, a.utf32, u8.size());
  convert_all(a.utf32.size(), utf8dfa::replace{}, from8to32, a.utf32, u8.size());
  convert_all(a.utf32.size(), utf8dfa::assume_valid{}, from8to32, a.utf32, u8.size());
  convert_all(a.utf16.size(), utf8dfa::strict{}, from8to16, a.utf16, u8.size());
  convert_all(a.utf16.size(), utf8dfa::replace{}, from8to16, a.utf16, u8.size());
  convert_all(a.utf16.size(), utf8dfa::assume_valid{}, from8to16, a.utf16, u8.size());
  convert_all(u8.size(), utf8dfa::strict{}, from16, u8, a.utf16.size());
  convert_all(u8.size(), utf8dfa::replace{}, from16, u8, a.utf16.size());
  convert_all(u8.size(), utf8dfa::assume_valid{}, from16, u8, a.utf16.size());
  convert_all(u8.size(), utf8dfa::strict{}, from32, u8, a.utf32.size());
  convert_all(u8.size(), utf8dfa::replace{}, from32, u8, a.utf32.size());
  convert_all(u8.size(), utf8dfa::assume_valid{}, from32, u8, a.utf32.size());

  // The allocating helpers: throwing, status and lossy.
  CHECK(strict_alloc::to_utf32(u8) == a.utf32);
  CHECK(strict_alloc::to_utf16(u8) == a.utf16);
  CHECK(strict_alloc::to_utf8(a.utf16) == u8);
  CHECK(strict_alloc::to_utf8(a.utf32) == u8);
  CHECK(utf8dfa::to_utf32_lossy(u8) == a.utf32);
  CHECK(utf8dfa::to_utf16_lossy(u8) == a.utf16);
  CHECK(utf8dfa::to_utf8_lossy(a.utf16) == u8);
  CHECK(utf8dfa::to_utf8_lossy(a.utf32) == u8);
  utf8dfa::conversion_result status{1, 1, error_code::overlong};
  CHECK(utf8dfa::to_utf16(u8, status) == a.utf16);
  CHECK(status.read == u8.size());
  CHECK(status.written == a.utf16.size());
  CHECK(status.error == error_code::none);
  std::printf("transcode: all scalar values, 4 directions x 3 policies + helpers in %.2f s\n", seconds_since(t0));
}

TEST_CASE("every scalar value one at a time through UTF-16 and UTF-32", "[transcode][exhaustive]") {
  // Short inputs: each value alone (the conversions' tails) against the reference.
  tally t16, t32;
  for (std::uint32_t v = 0; v <= 0x10FFFF; v += (v < 0x3000 || (v > 0xD000 && v < 0x11000) || v > 0x10F000) ? 1 : 7) {
    if (!utf8dfa_ref::is_scalar_value(v)) continue;
    const std::u16string s16 = utf8dfa_ref::encode_utf16(v);
    const char32_t s32[1] = {static_cast<char32_t>(v)};
    t16.add(check_to_utf8(s16.data(), s16.size()));
    t32.add(check_to_utf8(s32, 1));
  }
  INFO(t16.first);
  INFO(t32.first);
  CHECK(t16.failures == 0);
  CHECK(t32.failures == 0);
}

TEST_CASE("UTF-16 input: each unpaired surrogate is one error", "[transcode][utf16]") {
  tally t;
  for (char16_t u = 0xD800; u <= 0xDFFF && u >= 0xD800; ++u) {
    const std::u16string contexts[] = {
        {u},                    // alone (a high one: incomplete)
        {u'a', u, u'b'},        // between ASCII
        {u, u'\u00E9'},         // before a BMP character
        {u'\u4E2D', u},         // at the end
        {u, u},                 // twice
        {u, 0xD83D, 0xDE00},    // before a pair
        {char16_t(0xDC00), u},  // after a low surrogate
        {u, char16_t(0xD800)},  // before a high surrogate
    };
    for (std::size_t k = 0; k < sizeof contexts / sizeof contexts[0]; ++k)
      t.add(check_to_utf8(contexts[k].data(), contexts[k].size(), k % 2 ? U'?' : U'\uFFFD', u % 64 == 0));
  }
  INFO(t.first);
  CHECK(t.failures == 0);

  // Every high x low pair is well-formed, in one string; and reversed, two errors each.
  std::u16string pairs;
  std::string want;
  for (std::uint32_t hi = 0xD800; hi <= 0xDBFF; ++hi)
    for (std::uint32_t lo = 0xDC00; lo <= 0xDFFF; ++lo) {
      pairs += static_cast<char16_t>(hi);
      pairs += static_cast<char16_t>(lo);
      want += utf8dfa_ref::encode_utf8(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
    }
  CHECK(strict_alloc::to_utf8(pairs) == want);
  CHECK(check_to_utf8(pairs.data(), pairs.size()).empty());
  const std::u16string reversed = u"\xDC00\xD800";
  CHECK(utf8dfa::to_utf8_lossy(reversed) == "\xEF\xBF\xBD\xEF\xBF\xBD");

  // The documented decision: a high surrogate that ends the input is `incomplete` (more input could
  // pair it), any other unpaired surrogate `surrogate`; either way one U+FFFD under replace.
  std::string out(16, '\0');
  const std::u16string high_last = u"ab\xD83D";
  utf8dfa::conversion_result r = utf8dfa::utf16_to_utf8(high_last, &out[0]);
  CHECK(r.read == 2);
  CHECK(r.written == 2);
  CHECK(r.error == error_code::incomplete);
  r = utf8dfa::utf16_to_utf8(high_last, &out[0], utf8dfa::replace{});
  CHECK(r.read == 3);
  CHECK(r.written == 5);
  CHECK(r.error == error_code::incomplete);
  CHECK(out.substr(0, 5) == "ab\xEF\xBF\xBD");
  const std::u16string low_last = u"ab\xDE00";
  r = utf8dfa::utf16_to_utf8(low_last, &out[0]);
  CHECK(r.read == 2);
  CHECK(r.error == error_code::surrogate);
  const std::u16string high_then_ascii = u"\xD83Dx";
  r = utf8dfa::utf16_to_utf8(high_then_ascii, &out[0], utf8dfa::replace{U'?'});
  CHECK(r.written == 2);
  CHECK(r.error == error_code::surrogate);
  CHECK(out.substr(0, 2) == "?x");

  // Random UTF-16 with surrogates sprinkled in.
  std::mt19937 rng(2781);
  tally rt;
  for (int i = 0; i < 20000; ++i) {
    std::u16string s;
    const std::size_t len = rng() % 40;
    for (std::size_t k = 0; k < len; ++k) {
      const unsigned r3 = rng() % 6;
      if (r3 == 0)
        s += static_cast<char16_t>(0xD800 + rng() % 0x800);
      else if (r3 == 1)
        s += static_cast<char16_t>(rng() % 0x80);
      else
        s += utf8dfa_ref::encode_utf16(random_scalar(rng));
    }
    rt.add(check_to_utf8(s.data(), s.size(), i % 3 ? U'\uFFFD' : U'\U0001F600', i % 10 == 0));
  }
  // Long UTF-16 and UTF-32 (ASCII, then mixed) with a bad unit at the block edges of the kernels.
  for (int round = 0; round < 2; ++round) {
    std::u16string text16(round == 0 ? 600 : 40, u'q');
    std::u32string text32(text16.begin(), text16.end());
    if (round == 1)
      for (int k = 0; k < 250; ++k) {
        const char32_t c = random_scalar(rng);
        text16 += utf8dfa_ref::encode_utf16(c);
        text32 += c;
      }
    for (std::size_t i : block_edges(text16.size())) {
      std::u16string s16 = text16;
      s16.insert(i, 1, static_cast<char16_t>(i % 2 ? 0xDC00 + i % 0x400 : 0xD800 + i % 0x400));
      rt.add(check_to_utf8(s16.data(), s16.size(), U'\uFFFD', i % 16 == 0));
    }
    for (std::size_t i : block_edges(text32.size())) {
      std::u32string s32 = text32;
      s32.insert(i, 1, static_cast<char32_t>(i % 2 ? 0xD800 + i : 0x110000 + i));
      rt.add(check_to_utf8(s32.data(), s32.size(), U'\uFFFD', i % 16 == 0));
    }
  }
  INFO(rt.first);
  CHECK(rt.failures == 0);
}

TEST_CASE("UTF-32 input: surrogates and values above 0x10FFFF are errors", "[transcode][utf32]") {
  tally t;
  std::vector<std::uint32_t> bad;
  for (std::uint32_t v = 0xD800; v <= 0xDFFF; ++v) bad.push_back(v);
  for (std::uint32_t v = 0x110000; v < 0x110100; ++v) bad.push_back(v);
  for (unsigned k = 21; k < 32; ++k) bad.push_back(std::uint32_t{1} << k);
  bad.push_back(0x7FFFFFFF);
  bad.push_back(0xFFFFFFFF);
  bad.push_back(0xFFFFFFFE);
  for (std::uint32_t v : bad) {
    const char32_t c = static_cast<char32_t>(v);
    const std::u32string contexts[] = {std::u32string(1, c), std::u32string{U'a', c, U'\U0010FFFF'},
                                       std::u32string(2, c)};
    for (const std::u32string& s : contexts) t.add(check_to_utf8(s.data(), s.size(), U'\uFFFD', v % 16 == 0));
    t.add(check_to_utf8(contexts[1].data(), contexts[1].size(), U'?'));
  }
  INFO(t.first);
  CHECK(t.failures == 0);
  std::string out(16, '\0');
  const std::u32string s{U'a', U'b', static_cast<char32_t>(0x110000)};
  utf8dfa::conversion_result r = utf8dfa::utf32_to_utf8(s, &out[0]);
  CHECK(r.read == 2);
  CHECK(r.written == 2);
  CHECK(r.error == error_code::too_large);
  const std::u32string t2{U'a', static_cast<char32_t>(0xDFFF)};
  r = utf8dfa::utf32_to_utf8(t2, &out[0]);
  CHECK(r.read == 1);
  CHECK(r.error == error_code::surrogate);
}

namespace transcode_test {

struct kind_case {
  std::string_view input;
  std::size_t read, written;  // strict, UTF-32 units written before the error
  error_code kind;
  std::u32string_view lossy;   // with U+FFFD
  std::u32string_view custom;  // with replace{U'?'}
};

// The lossy output of every kind of error: one replacement per maximal subpart.
constexpr kind_case kind_cases[] = {
    {"a\xC0\xAF"
     "b",
     1, 1, error_code::invalid_byte,
     U"a\uFFFD\uFFFD"
     U"b",
     U"a??b"},
    {"ab\x80\xBF", 2, 2, error_code::unexpected_continuation, U"ab\uFFFD\uFFFD", U"ab??"},
    {"\xE2\x82x\xF0\x9F\x98", 0, 0, error_code::too_short, U"\uFFFDx\uFFFD", U"?x?"},
    {"x\xF0\x9F\x98", 1, 1, error_code::incomplete, U"x\uFFFD", U"x?"},
    {"\xC3\xA9\xE0\x80\x80", 2, 1, error_code::overlong, U"\u00E9\uFFFD\uFFFD\uFFFD", U"\u00E9???"},
    {"\xED\xA0\x80\xED\xB0\x80", 0, 0, error_code::surrogate, U"\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD", U"??????"},
    {"\xF4\x90\x80\x80!", 0, 0, error_code::too_large, U"\uFFFD\uFFFD\uFFFD\uFFFD!",
     U"????"
     U"!"},
};

}  // namespace transcode_test

TEST_CASE("every kind of error: conversion_result and lossy output", "[transcode][errors]") {
  using namespace transcode_test;
  for (const kind_case& c : kind_cases) {
    INFO(hex(std::string(c.input)));
    std::u32string out(16, U'\0');
    utf8dfa::conversion_result r = utf8dfa::utf8_to_utf32(c.input, &out[0]);
    CHECK(r.read == c.read);
    CHECK(r.written == c.written);
    CHECK(r.error == c.kind);
    CHECK_FALSE(r);
    r = utf8dfa::utf8_to_utf32(c.input, &out[0], utf8dfa::replace{});
    CHECK(r.read == c.input.size());
    CHECK(r.written == c.lossy.size());
    CHECK(r.error == c.kind);
    CHECK(out.substr(0, r.written) == c.lossy);
    CHECK(utf8dfa::to_utf32_lossy(c.input) == c.lossy);
    r = utf8dfa::utf8_to_utf32(c.input, &out[0], utf8dfa::replace{U'?'});
    CHECK(out.substr(0, r.written) == c.custom);
    CHECK(utf8dfa::utf32_length_from_utf8(c.input, utf8dfa::replace{U'?'}) == c.custom.size());
    std::u16string out16(16, u'\0');
    r = utf8dfa::utf8_to_utf16(c.input, &out16[0], utf8dfa::replace{U'?'});
    CHECK(r.written == c.custom.size());
    const std::string s(c.input);
    CHECK(check_transcode(u8p(s), s.size(), U'\uFFFD', true).empty());
  }
}

TEST_CASE("replacement choices", "[transcode][policy]") {
  const std::string_view s =
      "a\xFF"
      "b";
  // A supplementary replacement takes two UTF-16 units, and the length helper knows it.
  const utf8dfa::replace emoji{U'\U0001F600'};
  CHECK(utf8dfa::utf16_length_from_utf8(s, emoji) == 4);
  std::u16string o16(4, u'\0');
  CHECK(utf8dfa::utf8_to_utf16(s, &o16[0], emoji).written == 4);
  CHECK(o16 == u"a\U0001F600b");
  // A replacement that is not a scalar value is ignored in favour of U+FFFD.
  for (char32_t r : {char32_t(0xD800), char32_t(0xDFFF), char32_t(0x110000), char32_t(0xFFFFFFFF)}) {
    const utf8dfa::replace pol{r};
    CHECK(pol.replacement_value() == U'\uFFFD');
    std::u32string o(3, U'\0');
    CHECK(utf8dfa::utf8_to_utf32(s, &o[0], pol).written == 3);
    CHECK(o == U"a\uFFFDb");
    std::string o8(5, '\0');
    const std::u32string bad32{U'a', char32_t(0xD800), U'b'};
    CHECK(utf8dfa::utf8_length_from_utf32(bad32, pol) == 5);
    CHECK(utf8dfa::utf32_to_utf8(bad32, &o8[0], pol).written == 5);
    CHECK(o8 ==
          "a\xEF\xBF\xBD"
          "b");
  }
  // U+0000 is a valid replacement.
  std::u32string z(3, U'x');
  CHECK(utf8dfa::utf8_to_utf32(s, &z[0], utf8dfa::replace{U'\0'}).written == 3);
  CHECK(z == std::u32string(U"a\0b", 3));
}

#if UTF8DFA_HAS_EXCEPTIONS
TEST_CASE("the throwing helpers throw conversion_error with the offset and the kind", "[transcode][errors]") {
  auto expect = [](auto&& call, std::size_t offset, error_code code) {
    try {
      call();
      FAIL("no exception");
    } catch (const utf8dfa::conversion_error& e) {
      CHECK(e.offset() == offset);
      CHECK(e.code() == code);
      const std::string what = e.what();
      CHECK(what.find(std::to_string(offset)) != std::string::npos);
      CHECK(what.find(std::string(utf8dfa::error_name(code))) != std::string::npos);
    }
  };
  expect([] { return utf8dfa::to_utf32(std::string_view("abc\xE0\x80\xAF")); }, 3, error_code::overlong);
  expect([] { return utf8dfa::to_utf16(std::string("\xC3\xA9\xF0\x9F")); }, 2, error_code::incomplete);
  expect([] { return utf8dfa::to_utf32(std::string_view("\x80")); }, 0, error_code::unexpected_continuation);
  expect([] { return utf8dfa::to_utf8(std::u16string_view(u"\u00E9\xDC00")); }, 1, error_code::surrogate);
  expect([] { return utf8dfa::to_utf8(std::u16string_view(u"x\xD800")); }, 1, error_code::incomplete);
  const std::u32string big{U'a', U'b', U'c', U'd', char32_t(0x110000)};
  expect([&] { return utf8dfa::to_utf8(big); }, 4, error_code::too_large);
  // It is a std::runtime_error.
  CHECK_THROWS_AS(utf8dfa::to_utf16(std::string_view("\xFF")), std::runtime_error);
  CHECK_NOTHROW(utf8dfa::to_utf16(std::string_view("ok")));
  // Offsets after long valid prefixes (the bulk paths).
  const std::string long_bad = std::string(1000, 'a') + "\xC3\xA9" + std::string(100, 'b') + "\xED\xA0\x80";
  expect([&] { return utf8dfa::to_utf32(long_bad); }, 1102, error_code::surrogate);
  expect([&] { return utf8dfa::to_utf16(long_bad); }, 1102, error_code::surrogate);
}
#endif

TEST_CASE("status overloads set the status and keep the text before the error", "[transcode][errors]") {
  const std::string s = "h\xC3\xA9llo\xE2\x82";
  utf8dfa::conversion_result st{99, 99, error_code::none};
  CHECK(utf8dfa::to_utf32(s, st) == U"h\u00E9llo");
  CHECK(st.read == 6);
  CHECK(st.written == 5);
  CHECK(st.error == error_code::incomplete);
  st = {99, 99, error_code::none};
  CHECK(utf8dfa::to_utf16(s, st) == u"h\u00E9llo");
  CHECK(st.read == 6);
  CHECK(st.error == error_code::incomplete);
  st = {99, 99, error_code::none};
  const std::u16string w = u"ok\xDFFF!";
  CHECK(utf8dfa::to_utf8(w, st) == "ok");
  CHECK(st.read == 2);
  CHECK(st.written == 2);
  CHECK(st.error == error_code::surrogate);
  st = {99, 99, error_code::none};
  const std::u32string d{U'\u00E9', char32_t(0xFFFFFFFF)};
  CHECK(utf8dfa::to_utf8(d, st) == "\xC3\xA9");
  CHECK(st.read == 1);
  CHECK(st.written == 2);
  CHECK(st.error == error_code::too_large);
}

TEST_CASE("conversions accept every input type", "[transcode][types]") {
  const char raw[] = "\xE6\x97\xA5\xFF";
  const std::size_t n = 4;
  const std::u32string want = U"\u65E5\uFFFD";
  CHECK(utf8dfa::to_utf32_lossy(std::string(raw, n)) == want);
  CHECK(utf8dfa::to_utf32_lossy(std::string_view(raw, n)) == want);
  CHECK(utf8dfa::to_utf32_lossy(std::vector<unsigned char>(raw, raw + n)) == want);
  CHECK(utf8dfa::to_utf32_lossy(raw) == want);                        // a C string
  CHECK(utf8dfa::to_utf32_lossy("\xE6\x97\xA5\0\xFF") == U"\u65E5");  // ends at the NUL
  CHECK(utf8dfa::to_utf16_lossy(std::vector<char>(raw, raw + n)) == u"\u65E5\uFFFD");
#if UTF8DFA_HAS_CHAR8_T
  CHECK(utf8dfa::to_utf32_lossy(u8"\u65E5") == U"\u65E5");
  CHECK(utf8dfa::to_utf32_lossy(std::u8string_view(reinterpret_cast<const char8_t*>(raw), n)) == want);
#endif
#if UTF8DFA_HAS_SPAN
  std::vector<std::byte> b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::byte>(raw[i]);
  CHECK(utf8dfa::to_utf32_lossy(std::span<const std::byte>(b)) == want);
#endif
  // Output to any byte type.
  unsigned char o[8];
  CHECK(utf8dfa::utf32_to_utf8(std::u32string_view(U"\u65E5"), o).written == 3);
  std::byte ob[8];
  CHECK(utf8dfa::utf16_to_utf8(std::u16string_view(u"\u65E5"), ob).written == 3);
  CHECK(std::to_integer<unsigned>(ob[0]) == 0xE6);
}

TEST_CASE("empty input through every function, with null pointers", "[transcode][types]") {
  const std::string_view e8{};
  const std::u16string_view e16{};
  const std::u32string_view e32{};
  auto empty = [](const utf8dfa::conversion_result& r) {
    return r.read == 0 && r.written == 0 && r.error == error_code::none && static_cast<bool>(r);
  };
  char32_t* n32 = nullptr;
  char16_t* n16 = nullptr;
  char* n8 = nullptr;
  CHECK(empty(utf8dfa::utf8_to_utf32(e8, n32)));
  CHECK(empty(utf8dfa::utf8_to_utf32(e8, n32, utf8dfa::replace{})));
  CHECK(empty(utf8dfa::utf8_to_utf32(e8, n32, utf8dfa::assume_valid{})));
  CHECK(empty(utf8dfa::utf8_to_utf16(e8, n16)));
  CHECK(empty(utf8dfa::utf8_to_utf16(e8, n16, utf8dfa::replace{})));
  CHECK(empty(utf8dfa::utf16_to_utf8(e16, n8)));
  CHECK(empty(utf8dfa::utf16_to_utf8(e16, n8, utf8dfa::replace{})));
  CHECK(empty(utf8dfa::utf32_to_utf8(e32, n8)));
  CHECK(empty(utf8dfa::utf32_to_utf8(e32, n8, utf8dfa::assume_valid{})));
  const char* null_data = nullptr;
  CHECK(utf8dfa::is_valid(null_data, 0));
  CHECK(utf8dfa::validate(null_data, 0).valid_up_to == 0);
  CHECK(utf8dfa::utf32_length_from_utf8(e8) == 0);
  CHECK(utf8dfa::utf16_length_from_utf8(e8) == 0);
  CHECK(utf8dfa::utf8_length_from_utf16(e16) == 0);
  CHECK(utf8dfa::utf8_length_from_utf32(e32) == 0);
  CHECK(utf8dfa::count_code_points(e8) == 0);
  CHECK(strict_alloc::to_utf32(e8).empty());
  CHECK(utf8dfa::to_utf16_lossy(e8).empty());
  CHECK(strict_alloc::to_utf8(e16).empty());
  CHECK(utf8dfa::to_utf8_lossy(e32).empty());
  CHECK(utf8dfa::decode_next(e8, 0).length == 0);
  CHECK(utf8dfa::decode_prev(e8, 0).length == 0);
}

}  // namespace utf8dfa_test_transcode
