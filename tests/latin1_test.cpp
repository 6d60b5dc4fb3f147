// Latin-1 (latin1.hpp): every byte each way, every scalar value into Latin-1, random ill-formed
// UTF-8, UTF-16 and UTF-32 against the rules spelled out here, and the replacement a policy may use.
#include <utf8dfa/latin1.hpp>

#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <utf8dfa/decode.hpp>
#include <utf8dfa/encode.hpp>
#include <utf8dfa/error.hpp>
#include <utf8dfa/transcode.hpp>
#include <utf8dfa/utf16.hpp>
#include <utf8dfa/validate.hpp>

#include "catch.hpp"

namespace utf8dfa_test_latin1 {  // the file's own names (the suite also builds as unity sources)

namespace latin1_test {

using utf8dfa::error_code;

// Latin-1 byte b as UTF-8, from the bit patterns.
std::string utf8_of(unsigned b) {
  if (b < 0x80) return std::string(1, static_cast<char>(b));
  return {static_cast<char>(0xC0 | (b >> 6)), static_cast<char>(0x80 | (b & 0x3F))};
}

struct expected {
  std::string strict_out, lossy_out;  // lossy with '?' as the replacement
  std::size_t strict_read;
  error_code strict_error, first_error;
};

// The reference for UTF-8 input: the decoder's segmentation (decode_next), then the Latin-1 rule.
expected reference8(const std::string& s) {
  expected e{{}, {}, s.size(), error_code::none, error_code::none};
  bool stopped = false;
  for (std::size_t i = 0; i < s.size();) {
    const utf8dfa::decoded d = utf8dfa::decode_next(s, i);
    error_code k = d.error;
    if (k == error_code::none && d.code_point > 0xFF) k = error_code::unrepresentable;
    if (k != error_code::none && e.first_error == error_code::none) e.first_error = k;
    if (k != error_code::none && !stopped) {
      stopped = true;
      e.strict_read = i;
      e.strict_error = k;
    }
    const char c = k == error_code::none ? static_cast<char>(d.code_point) : '?';
    e.lossy_out.push_back(c);
    if (!stopped) e.strict_out.push_back(c);
    i += d.length;
  }
  return e;
}

template <class Str, class Convert>
void check_against(const Str& in, const expected& e, Convert convert) {
  std::string out(in.size() + 1, '\x7F');
  auto r = convert(in, out.data(), utf8dfa::strict{});
  REQUIRE(r.read == e.strict_read);
  REQUIRE(r.error == e.strict_error);
  REQUIRE(out.substr(0, r.written) == e.strict_out);
  r = convert(in, out.data(), utf8dfa::replace{U'?'});
  REQUIRE(r.read == in.size());
  REQUIRE(r.error == e.first_error);
  REQUIRE(out.substr(0, r.written) == e.lossy_out);
  REQUIRE(out[r.written] == '\x7F');  // nothing past the count
  r = convert(in, out.data(), utf8dfa::assume_valid{});
  REQUIRE(r.written <= in.size());
}

void check_utf8(const std::string& s) {
  const expected e = reference8(s);
  check_against(s, e, [](const std::string& in, char* o, auto pol) { return utf8dfa::utf8_to_latin1(in, o, pol); });
  REQUIRE(utf8dfa::latin1_length_from_utf8(s) == e.lossy_out.size());
}

// The same for UTF-16 and UTF-32, through the already-tested conversions to UTF-32.
void check_utf16(const std::u16string& s) {
  expected e{{}, {}, s.size(), error_code::none, error_code::none};
  bool stopped = false;
  for (std::size_t i = 0; i < s.size();) {
    char32_t c[2] = {};
    const bool pair = s[i] >= 0xD800 && s[i] <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF;
    const std::size_t len = pair ? 2 : 1;
    const auto r = utf8dfa::utf16_to_utf32(std::u16string_view(s.data() + i, len), c, utf8dfa::replace{});
    error_code k = r.error == error_code::none ? error_code::none : utf8dfa::validate_utf16(s.substr(i)).error;
    if (k == error_code::none && c[0] > 0xFF) k = error_code::unrepresentable;
    if (k != error_code::none && e.first_error == error_code::none) e.first_error = k;
    if (k != error_code::none && !stopped) {
      stopped = true;
      e.strict_read = i;
      e.strict_error = k;
    }
    const char b = k == error_code::none ? static_cast<char>(c[0]) : '?';
    e.lossy_out.push_back(b);
    if (!stopped) e.strict_out.push_back(b);
    i += len;
  }
  check_against(s, e, [](const std::u16string& in, char* o, auto pol) { return utf8dfa::utf16_to_latin1(in, o, pol); });
}

void check_utf32(const std::u32string& s) {
  expected e{{}, {}, s.size(), error_code::none, error_code::none};
  bool stopped = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char32_t c = s[i];
    const error_code k = c > 0x10FFFF                 ? error_code::too_large
                         : c >= 0xD800 && c <= 0xDFFF ? error_code::surrogate
                         : c > 0xFF                   ? error_code::unrepresentable
                                                      : error_code::none;
    if (k != error_code::none && e.first_error == error_code::none) e.first_error = k;
    if (k != error_code::none && !stopped) {
      stopped = true;
      e.strict_read = i;
      e.strict_error = k;
    }
    const char b = k == error_code::none ? static_cast<char>(c) : '?';
    e.lossy_out.push_back(b);
    if (!stopped) e.strict_out.push_back(b);
  }
  check_against(s, e, [](const std::u32string& in, char* o, auto pol) { return utf8dfa::utf32_to_latin1(in, o, pol); });
}

}  // namespace latin1_test

using namespace latin1_test;

TEST_CASE("latin1: every byte, alone and all together, to UTF-8, UTF-16, UTF-32 and back") {
  std::string all;
  std::string all_utf8;
  for (unsigned b = 0; b < 256; ++b) {
    const std::string one(1, static_cast<char>(b));
    all += one;
    all_utf8 += utf8_of(b);
    char buf[2] = {};
    REQUIRE(utf8dfa::latin1_to_utf8(one, buf) == utf8_of(b).size());
    REQUIRE(std::string(buf, utf8_of(b).size()) == utf8_of(b));
    REQUIRE(utf8dfa::utf8_length_from_latin1(one) == utf8_of(b).size());
    char back = 0;
    const auto r = utf8dfa::utf8_to_latin1(utf8_of(b), &back);
    REQUIRE(r);
    REQUIRE(r.written == 1);
    REQUIRE(back == one[0]);
    REQUIRE(utf8dfa::latin1_length_from_utf8(utf8_of(b)) == 1);
    char16_t u = 0;
    char32_t c = 0;
    REQUIRE(utf8dfa::latin1_to_utf16(one, &u) == 1);
    REQUIRE(utf8dfa::latin1_to_utf32(one, &c) == 1);
    REQUIRE(u == b);
    REQUIRE(c == b);
    REQUIRE(utf8dfa::utf16_to_latin1(std::u16string_view(&u, 1), &back).written == 1);
    REQUIRE(back == one[0]);
    REQUIRE(utf8dfa::utf32_to_latin1(std::u32string_view(&c, 1), &back).written == 1);
    REQUIRE(back == one[0]);
  }
  // 00..FF at once, from each kind of byte range.
  REQUIRE(utf8dfa::utf8_length_from_latin1(all) == 384);
  std::string out(384, '\0');
  REQUIRE(utf8dfa::latin1_to_utf8(all, out.data()) == 384);
  REQUIRE(out == all_utf8);
  REQUIRE(utf8dfa::is_valid(out));
  REQUIRE(utf8dfa::to_utf32_lossy(out).size() == 256);
  std::vector<unsigned char> uc(all.begin(), all.end());
  std::vector<unsigned char> out_uc(384);
  REQUIRE(utf8dfa::latin1_to_utf8(uc, out_uc.data()) == 384);
  REQUIRE(std::string(out_uc.begin(), out_uc.end()) == all_utf8);
  std::string latin(256, '\0');
  const auto r = utf8dfa::utf8_to_latin1(all_utf8, latin.data());
  REQUIRE(r);
  REQUIRE(r.read == 384);
  REQUIRE(latin == all);
  std::u16string u16(256, u'\0');
  std::u32string u32(256, U'\0');
  utf8dfa::latin1_to_utf16(all, u16.data());
  utf8dfa::latin1_to_utf32(all, u32.data());
  REQUIRE(u16 == utf8dfa::to_utf16_lossy(all_utf8));
  REQUIRE(u32 == utf8dfa::to_utf32_lossy(all_utf8));
  REQUIRE(utf8dfa::utf16_to_latin1(u16, latin.data()).written == 256);
  REQUIRE(latin == all);
  REQUIRE(utf8dfa::utf32_to_latin1(u32, latin.data()).written == 256);
  REQUIRE(latin == all);
  REQUIRE(utf8dfa::latin1_to_utf8("", out.data()) == 0);
}

TEST_CASE("latin1: every scalar value into Latin-1") {
  bool ok = true;
  std::u32string all;
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    if (!utf8dfa::is_scalar_value(c)) continue;
    all.push_back(c);
    char u8[4] = {};
    const std::size_t n = utf8dfa::encode(c, u8);
    char b = 0;
    const auto r8 = utf8dfa::utf8_to_latin1(std::string_view(u8, n), &b);
    const auto r32 = utf8dfa::utf32_to_latin1(std::u32string_view(&c, 1), &b);
    if (c <= 0xFF) {
      ok = ok && r8 && r8.written == 1 && r32 && static_cast<unsigned char>(b) == c;
    } else {
      ok = ok && r8.error == error_code::unrepresentable && r8.read == 0 && r8.written == 0 &&
           r32.error == error_code::unrepresentable && r32.read == 0;
    }
  }
  REQUIRE(ok);
  // In bulk: strict stops after U+00FF, replace writes one '?' per character above it.
  const std::string utf8 = utf8dfa::to_utf8_lossy(all);
  std::string out(all.size(), '\0');
  auto r = utf8dfa::utf8_to_latin1(utf8, out.data());
  REQUIRE(r.error == error_code::unrepresentable);
  REQUIRE(r.read == 384);
  REQUIRE(r.written == 256);
  r = utf8dfa::utf8_to_latin1(utf8, out.data(), utf8dfa::replace{U'?'});
  REQUIRE(r.read == utf8.size());
  REQUIRE(r.written == all.size());
  REQUIRE(r.error == error_code::unrepresentable);
  REQUIRE(utf8dfa::latin1_length_from_utf8(utf8) == all.size());
  bool tail = true;
  for (std::size_t i = 0; i < all.size(); ++i)
    tail = tail && static_cast<unsigned char>(out[i]) == (i < 256 ? i : std::size_t{'?'});
  REQUIRE(tail);
  const std::u16string u16 = utf8dfa::to_utf16_lossy(utf8);
  r = utf8dfa::utf16_to_latin1(u16, out.data(), utf8dfa::replace{0xBF});
  REQUIRE(r.written == all.size());
  REQUIRE(static_cast<unsigned char>(out[all.size() - 1]) == 0xBF);
}

TEST_CASE("latin1: a replacement above U+00FF is refused whatever the input") {
  std::string out(8, '\x7F');
  for (char32_t bad : {U'\uFFFD', U'\u0100', U'\U0001F600'}) {
    for (const std::string in : {"", "abc", "a\xFF"}) {
      const auto r = utf8dfa::utf8_to_latin1(in, out.data(), utf8dfa::replace{bad});
      REQUIRE(r.read == 0);
      REQUIRE(r.written == 0);
      REQUIRE(r.error == error_code::unrepresentable);
      REQUIRE(out == std::string(8, '\x7F'));
    }
    REQUIRE(utf8dfa::utf16_to_latin1(u"a", out.data(), utf8dfa::replace{bad}).error == error_code::unrepresentable);
    REQUIRE(utf8dfa::utf32_to_latin1(U"a", out.data(), utf8dfa::replace{bad}).error == error_code::unrepresentable);
    REQUIRE(out == std::string(8, '\x7F'));
  }
  // The default replace{} (U+FFFD) is one of them; U+00FF and below are fine.
  REQUIRE(utf8dfa::utf8_to_latin1("a", out.data(), utf8dfa::replace{}).error == error_code::unrepresentable);
  const auto r = utf8dfa::utf8_to_latin1("a\xFF\xC3\xBF", out.data(), utf8dfa::replace{0xFF});
  REQUIRE(r.written == 3);
  REQUIRE(out.substr(0, 3) == "a\xFF\xFF");
  REQUIRE(r.error == error_code::invalid_byte);
  REQUIRE(utf8dfa::error_name(error_code::unrepresentable) == "unrepresentable");
}

TEST_CASE("latin1: random ill-formed UTF-8, UTF-16 and UTF-32 against the reference") {
  std::mt19937 rng(1);
  const std::vector<std::string> pieces = {
      "a",    "\x7F",     "\xC3\xA9",     "\xC3\xBF",         "\xC4\x80", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x80",
      "\xC0", "\xE0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF",     "\xF0\x9F",     "abcdefghij"};
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  for (int round = 0; round < 3000; ++round) {
    std::string s;
    const std::size_t n = std::uniform_int_distribution<std::size_t>(0, round < 2900 ? 8 : 60)(rng);
    for (std::size_t k = 0; k < n; ++k) s += pieces[pick(rng)];
    check_utf8(s);
  }
  const std::vector<char16_t> units = {0x41, 0xE9, 0xFF, 0x100, 0x20AC, 0xD83D, 0xDE00, 0xD800, 0xDFFF, 0xFFFD};
  std::uniform_int_distribution<std::size_t> pick16(0, units.size() - 1);
  for (int round = 0; round < 2000; ++round) {
    std::u16string s(std::uniform_int_distribution<std::size_t>(0, 10)(rng), u'\0');
    for (char16_t& u : s) u = units[pick16(rng)];
    check_utf16(s);
  }
  const std::vector<char32_t> values = {0x41, 0xE9, 0xFF, 0x100, 0x20AC, 0xD800, 0x1F600, 0x10FFFF, 0x110000};
  std::uniform_int_distribution<std::size_t> pick32(0, values.size() - 1);
  for (int round = 0; round < 2000; ++round) {
    std::u32string s(std::uniform_int_distribution<std::size_t>(0, 10)(rng), U'\0');
    for (char32_t& c : s) c = values[pick32(rng)];
    check_utf32(s);
  }
}

// skip into a buffer of exactly the bytes it writes, `want` (followed by guard bytes that must
// stay as they are): a conversion that writes ahead by blocks or words must land nothing past it.
template <class Str, class Convert>
void check_skip_into_exact(const Str& in, const std::string& want, Convert convert) {
  std::string out(want.size() + 64, '\x7F');
  const auto r = convert(in, out.data(), utf8dfa::skip{});
  REQUIRE(r.read == in.size());
  REQUIRE(r.written == want.size());
  REQUIRE(out.substr(0, r.written) == want);
  REQUIRE(out.substr(want.size()) == std::string(64, '\x7F'));
}

// check_skip_into_exact for UTF-8: what skip writes, by the decoder's segmentation.
void check_skip_exact_utf8(const std::string& t) {
  std::string want;
  for (std::size_t i = 0; i < t.size();) {
    const utf8dfa::decoded d = utf8dfa::decode_next(t, i);
    if (d.error == error_code::none && d.code_point <= 0xFF) want += static_cast<char>(d.code_point);
    i += d.length;
  }
  check_skip_into_exact(t, want,
                        [](const std::string& in, char* o, auto pol) { return utf8dfa::utf8_to_latin1(in, o, pol); });
}

// UTF-8 rich in 2-byte characters, 160 bytes and more (past the vector kernels' first blocks):
// every piece that ends a run of them, at every offset of the first 40 bytes and of 40 bytes about
// the end of the first 128, and lengths near it; against the reference, and check_skip_exact_utf8.
TEST_CASE("latin1: UTF-8 runs of 2-byte characters, every break at every offset") {
  std::mt19937 rng(5);
  const std::vector<std::string> breaks = {"\xC3",
                                           "\xC2",
                                           "\x80",
                                           "\xBF",
                                           "\xC0\x80",
                                           "\xC1\xBF",
                                           "\xC4\x80",
                                           "\xE2\x82\xAC",
                                           "\xED\xA0\x80",
                                           "\xF0\x9F\x98\x80",
                                           "\xFF",
                                           "\xC3\xC3",
                                           "\xC3"
                                           "a",
                                           "a"};
  for (int round = 0; round < 80; ++round) {
    // 2-byte characters, with ASCII one byte in `ascii` of ten (none, some, most).
    const unsigned ascii = round % 4 == 0 ? 0u : round % 4 == 1 ? 2u : round % 4 == 2 ? 5u : 9u;
    std::string base;
    while (base.size() < 160) {
      if (ascii != 0 && rng() % 10 < ascii)
        base += static_cast<char>(0x20 + rng() % 0x5F);
      else
        base += utf8_of(0x80 + rng() % 0x80);
    }
    // A lead last (cut off, or with its character) after a pairs and b ASCII bytes.
    if (round == 0)
      for (std::size_t a = 0; a <= 16; ++a)
        for (std::size_t b = 0; b <= 9; ++b)
          for (const char* last : {"\xC3", "\xC2", "\xC3\xA9", "\xE2\x82"}) {
            std::string t(b, 'x');
            for (std::size_t k = 0; k < a; ++k) t.insert(0, utf8_of(0xE0 + k));
            t += last;
            check_skip_exact_utf8(t);
          }
    for (const std::string& piece : breaks)
      for (std::size_t pos = 0; pos <= 150; pos = pos == 40 ? 100 : pos + 1) {
        if ((base[pos] & 0xC0) == 0x80 && rng() % 4 != 0) continue;  // inside a pair: a quarter of them
        std::string s = base;
        s.insert(pos, piece);
        for (const std::size_t len : {s.size(), pos + piece.size(), pos + piece.size() + 7, pos + piece.size() + 64}) {
          const std::string t = s.substr(0, len);
          check_utf8(t);
          check_skip_exact_utf8(t);
        }
      }
  }
}

// check_skip_into_exact for UTF-16 or UTF-32: skip writes one byte per unit up to FF, whatever
// blocks a kernel works in.
template <class Str, class Convert>
void check_skip_exact(const Str& in, Convert convert) {
  std::string want;
  for (const auto u : in)
    if (u <= 0xFF) want.push_back(static_cast<char>(u));
  check_skip_into_exact(in, want, convert);
}

TEST_CASE("latin1: skip into a buffer of exactly the bytes it writes, long UTF-16 and UTF-32 input") {
  std::mt19937 rng(7);
  for (const std::size_t n : {20, 64, 127, 128, 129, 300, 1000, 4100}) {
    for (const unsigned every : {1u, 2u, 17u, 100u, 1000u}) {  // a unit above FF every so many
      std::u16string s16(n, u'\0');
      std::u32string s32(n, U'\0');
      for (std::size_t i = 0; i < n; ++i) {
        const bool above = rng() % every == 0;
        s16[i] = static_cast<char16_t>(above ? 0x100 + rng() % 0x7000 : 0x20 + rng() % 0xE0);
        s32[i] = above ? static_cast<char32_t>(0x100 + rng() % 0x7000) : static_cast<char32_t>(0x20 + rng() % 0xE0);
      }
      check_skip_exact(
          s16, [](const std::u16string& in, char* o, auto pol) { return utf8dfa::utf16_to_latin1(in, o, pol); });
      check_skip_exact(
          s32, [](const std::u32string& in, char* o, auto pol) { return utf8dfa::utf32_to_latin1(in, o, pol); });
    }
  }
}

// strict, replace and assume_valid into a buffer of exactly latin1_length_from_utf16/32's bytes
// (followed by guard bytes): every kernel writes exactly the bytes it reports, none past them,
// whatever blocks it narrows in. UTF-16 Latin-1 text whose second part is surrogate pairs (one byte
// for two units) is the tightest case for the length.
TEST_CASE("latin1: UTF-16 and UTF-32 into a buffer of their Latin-1 length get nothing past the bytes written") {
  std::mt19937 rng(13);
  const auto check = [](const auto& in, std::size_t length, auto convert) {
    for (int pol = 0; pol < 3; ++pol) {
      std::string out(length + 64, '\x7F');
      const utf8dfa::conversion_result r = pol == 0   ? convert(in, out.data(), utf8dfa::strict{})
                                           : pol == 1 ? convert(in, out.data(), utf8dfa::replace{U'?'})
                                                      : convert(in, out.data(), utf8dfa::assume_valid{});
      INFO("policy " << pol << ", " << in.size() << " units, length " << length);
      REQUIRE(r.written <= length);
      if (pol == 1) REQUIRE(r.written == length);
      REQUIRE(out.substr(r.written) == std::string(length + 64 - r.written, '\x7F'));
    }
  };
  for (std::size_t n = 32; n <= 1100; n += n < 300 ? 1 : 37) {
    for (int shape = 0; shape < 4; ++shape) {
      // UTF-16: Latin-1 units, then from `from` on surrogate pairs (all, or among Latin-1 units),
      // or one pair at a random place; UTF-32: values above FF among Latin-1 ones from `from` on.
      const std::size_t from = shape == 0 ? 0 : shape == 1 ? n / 2 : shape == 2 ? n / 3 : rng() % n;
      std::u16string s16;
      bool paired = false;
      while (s16.size() < n) {
        if (s16.size() >= from && (shape != 2 || rng() % 2 == 0) && !(shape == 3 && paired) && s16.size() + 2 <= n) {
          s16 += u'\xD83D';
          s16 += static_cast<char16_t>(0xDC00 + rng() % 0x400);
          paired = true;
        } else {
          s16 += static_cast<char16_t>(0x20 + rng() % 0xE0);
        }
      }
      check(s16, utf8dfa::latin1_length_from_utf16(s16),
            [](const std::u16string& in, char* o, auto pol) { return utf8dfa::utf16_to_latin1(in, o, pol); });
      std::u32string s32(n, U'\0');
      for (std::size_t i = 0; i < n; ++i)
        s32[i] = i >= from && rng() % 3 == 0 ? static_cast<char32_t>(0x100 + rng() % 0x10000)
                                             : static_cast<char32_t>(0x20 + rng() % 0xE0);
      check(s32, utf8dfa::latin1_length_from_utf32(s32),
            [](const std::u32string& in, char* o, auto pol) { return utf8dfa::utf32_to_latin1(in, o, pol); });
    }
  }
}

TEST_CASE("latin1: widening to UTF-16 and UTF-32, every length to 300 and longer input, nothing past the end") {
  std::mt19937 rng(11);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 300; ++n) lengths.push_back(n);
  for (const std::size_t n : {1000, 1023, 1024, 1025, 4095, 4096, 4097, 10000}) lengths.push_back(n);
  for (const std::size_t n : lengths) {
    std::string in(n, '\0');
    for (char& c : in) c = static_cast<char>(rng());
    std::u16string o16(n + 8, u'\xFFFF');
    std::u32string o32(n + 8, U'\xFFFFFFFF');
    REQUIRE(utf8dfa::latin1_to_utf16(in, o16.data()) == n);
    REQUIRE(utf8dfa::latin1_to_utf32(in, o32.data()) == n);
    bool same = true;
    for (std::size_t i = 0; i < n; ++i)
      same = same && o16[i] == static_cast<unsigned char>(in[i]) && o32[i] == static_cast<unsigned char>(in[i]);
    for (std::size_t i = n; i < n + 8; ++i) same = same && o16[i] == u'\xFFFF' && o32[i] == U'\xFFFFFFFF';
    INFO("length " << n);
    REQUIRE(same);
  }
}

#if defined(__wasm32__)
TEST_CASE("latin1: utf8_length_from_latin1 past a 32-bit size_t's range is SIZE_MAX") {
  // 2 GiB and 64 KiB of E9 (two UTF-8 bytes each: 2^32 + 128 KiB, past SIZE_MAX), in WebAssembly
  // pages of their own (the C library's malloc refuses 2 GiB at once). Memory cannot shrink: the
  // case comes last in its file, which runs alone in its process.
  const std::size_t pages = 32769, n = pages * 65536;
  const std::size_t first = __builtin_wasm_memory_grow(0, pages);
  if (first == static_cast<std::size_t>(-1)) {
    WARN("could not grow the memory by 2 GiB: skipped");
    return;
  }
  auto* const p = reinterpret_cast<unsigned char*>(first * 65536);
  std::memset(p, 0xE9, n);
  CHECK(utf8dfa::utf8_length_from_latin1(std::string_view(reinterpret_cast<const char*>(p), n)) ==
        static_cast<std::size_t>(-1));
  // Just below: 2^31 - 1 bytes E9 (2^32 - 2 bytes of UTF-8) fit.
  const std::size_t fits = (std::size_t{1} << 31) - 1;
  CHECK(utf8dfa::utf8_length_from_latin1(std::string_view(reinterpret_cast<const char*>(p), fits)) == 2 * fits);
  // The first total past the range, 2^32 (which wraps to 0): all n bytes, 2^32 - n of them E9.
  const std::size_t high = static_cast<std::size_t>(-1) - n + 1;
  std::memset(p + high, 'a', n - high);
  CHECK(utf8dfa::utf8_length_from_latin1(std::string_view(reinterpret_cast<const char*>(p), n)) ==
        static_cast<std::size_t>(-1));
  // One E9 fewer: 2^32 - 1, SIZE_MAX itself, the largest total that fits.
  p[high - 1] = 'a';
  CHECK(utf8dfa::utf8_length_from_latin1(std::string_view(reinterpret_cast<const char*>(p), n)) ==
        static_cast<std::size_t>(-1));
  CHECK(utf8dfa::utf8_length_from_latin1(std::string_view(reinterpret_cast<const char*>(p), n - 1)) ==
        static_cast<std::size_t>(-2));
}
#endif

}  // namespace utf8dfa_test_latin1
