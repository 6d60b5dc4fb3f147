// The kernel operations on Latin-1 and UTF-16 / UTF-32 input (latin1_to_utf8, utf8_to_latin1,
// validate_utf16, utf16_to_utf32, utf32_to_utf16, to_well_formed_utf16, count_utf16, validate_utf32,
// utf16_to_latin1, utf32_to_latin1, latin1_to_utf16 / _utf32, utf8_length_from_latin1, the byte-order
// changes and the forms that read or write the other byte order) through the public API, so under
// the kernel this run uses, against the scalar functions of detail/units.hpp and units_kernels.hpp:
// result, output, nothing written past the result (canaries), for each policy; with an error or a
// character that does not fit planted at every position of the first vector blocks, blocks ending
// inside a pair, random inputs, and inputs and outputs that end right before an inaccessible page.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "utf8dfa.hpp"

#include "guard_pages.hpp"
#define UTF8DFA_UNITS_TEST_MMAP UTF8DFA_TEST_GUARD_PAGES

namespace utf8dfa_test_simd_units {  // the file's own names (the suite also builds as unity sources)

namespace simd_units {

namespace d = utf8dfa::detail;
using utf8dfa::conversion_result;
using utf8dfa::error_code;
using utf8dfa::validation_result;

constexpr std::size_t canary = 24;

bool same(const conversion_result& a, const conversion_result& b) {
  return a.read == b.read && a.written == b.written && a.error == b.error;
}
bool same(const validation_result& a, const validation_result& b) {
  return a.valid_up_to == b.valid_up_to && a.error_length == b.error_length && a.error == b.error;
}

/// Latin-1 to UTF-8 against the scalar function, with canaries.
void check_latin1_to_utf8(const std::string& in) {
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  std::vector<unsigned char> want(2 * in.size() + canary, 0xEE), got(want);
  const std::size_t w = d::latin1_to_utf8_scalar(p, in.size(), want.data());
  INFO("length " << in.size());
  REQUIRE(utf8dfa::latin1_to_utf8(in, got.data()) == w);
  REQUIRE(w == utf8dfa::utf8_length_from_latin1(in));
  REQUIRE(got == want);
}

/// UTF-8 to Latin-1 under strict, replace{'?'} and skip against the scalar function, with canaries.
void check_utf8_to_latin1(const std::string& in) {
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  for (int policy = 0; policy < 3; ++policy) {
    std::vector<unsigned char> want(n + canary, 0xEE), got(want);
    conversion_result a{}, b{};
    if (policy == 0) {
      a = d::to_latin1(p, n, want.data(), utf8dfa::strict{});
      b = utf8dfa::utf8_to_latin1(in, got.data());
    } else if (policy == 1) {
      a = d::to_latin1(p, n, want.data(), utf8dfa::replace{U'?'});
      b = utf8dfa::utf8_to_latin1(in, got.data(), utf8dfa::replace{U'?'});
    } else {
      a = d::to_latin1(p, n, want.data(), utf8dfa::skip{});
      b = utf8dfa::utf8_to_latin1(in, got.data(), utf8dfa::skip{});
    }
    INFO("policy " << policy << " length " << n << " read " << b.read << "/" << a.read << " written " << b.written
                   << "/" << a.written);
    REQUIRE(same(a, b));
    REQUIRE(got == want);
  }
}

/// validate_utf16, to_well_formed_utf16 (also in place) and utf16_to_utf32 (three policies).
void check_utf16(const std::u16string& in) {
  const std::size_t n = in.size();
  INFO("length " << n);
  REQUIRE(same(utf8dfa::validate_utf16(in), d::validate_utf(in.data(), n)));
  std::u16string want(n + canary, u'\xEEEE'), got(want);
  d::to_well_formed_utf16_scalar(in.data(), n, &want[0]);
  REQUIRE(utf8dfa::to_well_formed_utf16(in, &got[0]) == n);
  REQUIRE(got == want);
  std::u16string inplace = in + std::u16string(canary, u'\xEEEE');  // in place, nothing written past n
  utf8dfa::to_well_formed_utf16(std::u16string_view(inplace.data(), n), &inplace[0]);
  REQUIRE(inplace == want);
  for (int policy = 0; policy < 3; ++policy) {
    std::u32string w32(n + canary, U'\xEEEE'), g32(w32);
    conversion_result a{}, b{};
    if (policy == 0) {
      a = d::utf_to_utf(in.data(), n, &w32[0], utf8dfa::strict{});
      b = utf8dfa::utf16_to_utf32(in, &g32[0]);
    } else if (policy == 1) {
      a = d::utf_to_utf(in.data(), n, &w32[0], utf8dfa::replace{});
      b = utf8dfa::utf16_to_utf32(in, &g32[0], utf8dfa::replace{});
    } else {
      a = d::utf_to_utf(in.data(), n, &w32[0], utf8dfa::skip{});
      b = utf8dfa::utf16_to_utf32(in, &g32[0], utf8dfa::skip{});
    }
    INFO("policy " << policy);
    REQUIRE(same(a, b));
    REQUIRE(g32 == w32);
  }
}

/// utf32_to_utf16 under the three policies.
void check_utf32(const std::u32string& in) {
  const std::size_t n = in.size();
  INFO("length " << n);
  for (int policy = 0; policy < 3; ++policy) {
    std::u16string want(2 * n + canary, u'\xEEEE'), got(want);
    conversion_result a{}, b{};
    if (policy == 0) {
      a = d::utf_to_utf(in.data(), n, &want[0], utf8dfa::strict{});
      b = utf8dfa::utf32_to_utf16(in, &got[0]);
    } else if (policy == 1) {
      a = d::utf_to_utf(in.data(), n, &want[0], utf8dfa::replace{U'*'});
      b = utf8dfa::utf32_to_utf16(in, &got[0], utf8dfa::replace{U'*'});
    } else {
      a = d::utf_to_utf(in.data(), n, &want[0], utf8dfa::skip{});
      b = utf8dfa::utf32_to_utf16(in, &got[0], utf8dfa::skip{});
    }
    INFO("policy " << policy);
    REQUIRE(same(a, b));
    REQUIRE(got == want);
  }
}

/// Latin-1 text as UTF-8 of `chars` characters: ASCII with a two-byte character every `every`.
std::string latin1_utf8_text(std::size_t chars, std::size_t every) {
  std::string s;
  for (std::size_t k = 0; k < chars; ++k) {
    if (every != 0 && k % every == every - 1) {
      const unsigned c = 0x80 + (k * 37) % 0x80;
      s += static_cast<char>(0xC0 | (c >> 6));
      s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      s += static_cast<char>('a' + k % 26);
    }
  }
  return s;
}

/// UTF-16 text of `units` units: BMP characters with a surrogate pair every `every` units.
std::u16string utf16_text(std::size_t units, std::size_t every) {
  std::u16string s;
  while (s.size() < units) {
    if (every != 0 && s.size() % every == every - 1 && s.size() + 2 <= units) {
      s += u'\xD83D';
      s += u'\xDE00';
    } else {
      s += static_cast<char16_t>(s.size() % 3 == 0 ? 0x4E00 + s.size() : 0x61 + s.size() % 26);
    }
  }
  return s;
}

TEST_CASE("latin1_to_utf8: every length to 130, every density, random bytes") {
  std::mt19937 rng(7);
  for (std::size_t n = 0; n <= 130; ++n)
    for (unsigned density : {0u, 1u, 8u, 64u}) {  // one in `density` bytes at 80..FF (0: none)
      std::string s(n, 'x');
      for (std::size_t k = 0; k < n; ++k)
        s[k] = static_cast<char>(density != 0 && rng() % density == 0 ? 0x80 + rng() % 0x80 : rng() % 0x80);
      check_latin1_to_utf8(s);
    }
}

TEST_CASE("utf8_to_latin1: an error or a character above U+00FF at every position of two blocks") {
  for (const std::size_t every : {0u, 2u, 5u}) {
    const std::string base = latin1_utf8_text(150, every);
    check_utf8_to_latin1(base);
    // Every planted sequence at every byte position (inside a pair too) of the first 130 bytes.
    for (const char* planted : {"\xFF", "\x80", "\xC3", "\xC1\xBF", "\xE2\x82\xAC", "\xC4\x80", "\xF0\x9F\x98\x80"})
      for (std::size_t pos = 0; pos <= 130; ++pos) {
        std::string s = base;
        s.insert(pos, planted);
        check_utf8_to_latin1(s);
        s.resize(pos + std::strlen(planted));  // the planted sequence ends the input
        check_utf8_to_latin1(s);
      }
  }
  // Every length of a text that is all pairs, so that blocks end inside one.
  const std::string pairs = latin1_utf8_text(100, 1);
  for (std::size_t n = 0; n <= pairs.size(); ++n) check_utf8_to_latin1(pairs.substr(0, n));
}

TEST_CASE("utf8_to_latin1: random text") {
  std::mt19937 rng(11);
  for (int round = 0; round < 300; ++round) {
    std::string s;
    const std::size_t chars = rng() % 200;
    for (std::size_t k = 0; k < chars; ++k) {
      const auto r = static_cast<unsigned>(rng() % 16);
      if (r < 9) {
        s += static_cast<char>(rng() % 0x80);
      } else if (r < 14) {
        const auto c = static_cast<unsigned>(0x80 + rng() % 0x80);
        s += static_cast<char>(0xC0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3F));
      } else if (r == 14) {
        s += "\xE2\x82\xAC";
      } else {
        s += static_cast<char>(0x80 + rng() % 0x80);
      }
    }
    check_utf8_to_latin1(s);
  }
  // The assume_valid policy writes what replace{'?'} writes; a replacement above U+00FF is refused.
  const std::string s = latin1_utf8_text(100, 3) + "\xE2\x82\xAC" + latin1_utf8_text(50, 2);
  std::vector<unsigned char> a(s.size()), b(s.size());
  const conversion_result ra = utf8dfa::utf8_to_latin1(s, a.data(), utf8dfa::assume_valid{});
  const conversion_result rb = utf8dfa::utf8_to_latin1(s, b.data(), utf8dfa::replace{U'?'});
  REQUIRE(same(ra, rb));
  REQUIRE(a == b);
  const conversion_result rc = utf8dfa::utf8_to_latin1(s, a.data(), utf8dfa::replace{});
  REQUIRE((rc.read == 0 && rc.written == 0 && rc.error == error_code::unrepresentable));
}

TEST_CASE("UTF-16 validation, repair and conversion to UTF-32: a lone surrogate at every position") {
  for (const std::size_t every : {0u, 3u, 31u}) {
    const std::u16string base = utf16_text(140, every);
    check_utf16(base);
    for (const char16_t lone : {u'\xD800', u'\xDBFF', u'\xDC00', u'\xDFFF'})
      for (std::size_t pos = 0; pos <= 136; ++pos) {
        std::u16string s = base;
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(pos), lone);
        check_utf16(s);
        s.resize(pos + 1);  // the lone surrogate ends the input
        check_utf16(s);
      }
  }
  // Every length of text that is all pairs (blocks end between the halves of one) or all BMP.
  const std::u16string pairs = utf16_text(140, 1), bmp = utf16_text(140, 0);
  for (std::size_t n = 0; n <= pairs.size(); ++n) {
    check_utf16(pairs.substr(0, n));
    check_utf16(bmp.substr(0, n));
  }
}

TEST_CASE("UTF-16 and UTF-32 kernels: random units") {
  std::mt19937 rng(13);
  for (int round = 0; round < 400; ++round) {
    const std::size_t n = rng() % 160;
    std::u16string s(n, u'a');
    for (auto& c : s) {
      const auto r = static_cast<unsigned>(rng() % 24);
      c = static_cast<char16_t>(r == 0 ? 0xD800 + rng() % 0x800 : r < 3 ? 0xE000 + rng() % 0x2000 : rng() % 0xD800);
    }
    for (std::size_t k = 0; k + 1 < n; ++k)
      if (rng() % 6 == 0) {
        s[k] = static_cast<char16_t>(0xD800 + rng() % 0x400);
        s[k + 1] = static_cast<char16_t>(0xDC00 + rng() % 0x400);
      }
    check_utf16(s);
    std::u32string t(n, U'a');
    for (auto& c : t) {
      const auto r = static_cast<unsigned>(rng() % 40);
      c = static_cast<char32_t>(r == 0   ? 0xD800 + rng() % 0x800
                                : r == 1 ? 0x110000 + rng() % 0x1000
                                : r < 8  ? 0x10000 + rng() % 0x100000
                                         : rng() % 0xD800);
    }
    check_utf32(t);
  }
  // A bad value at every position of the first blocks of BMP and supplementary text.
  for (const char32_t other : {U'\x4E00', U'\x1F600'})
    for (const char32_t bad : {char32_t{0xD800}, char32_t{0xDFFF}, char32_t{0x110000}, char32_t{0xFFFFFFFF}})
      for (std::size_t pos = 0; pos < 40; ++pos) {
        std::u32string t(40, other);
        t[pos] = bad;
        check_utf32(t);
      }
}

// ---- count_utf16, validate_utf32, UTF-16 / UTF-32 to Latin-1, Latin-1 to UTF-16 / UTF-32, byte
// orders: against the scalar functions of detail/units_kernels.hpp and units.hpp.

/// UTF-16 or UTF-32 (by Unit) to Latin-1 under strict, replace{'*'}, skip and assume_valid (what
/// replace{'?'} does) against the scalar function, with canaries; a replacement above U+00FF refused.
template <class Unit>
void check_units_to_latin1(std::basic_string_view<Unit> in) {
  const std::size_t n = in.size();
  INFO("length " << n);
  const auto convert = [&](unsigned char* out, int policy) {
    const std::basic_string_view<Unit> v = in;
    if constexpr (sizeof(Unit) == 2) {
      return policy == 0   ? utf8dfa::utf16_to_latin1(v, out)
             : policy == 1 ? utf8dfa::utf16_to_latin1(v, out, utf8dfa::replace{U'*'})
             : policy == 2 ? utf8dfa::utf16_to_latin1(v, out, utf8dfa::skip{})
                           : utf8dfa::utf16_to_latin1(v, out, utf8dfa::assume_valid{});
    } else {
      return policy == 0   ? utf8dfa::utf32_to_latin1(v, out)
             : policy == 1 ? utf8dfa::utf32_to_latin1(v, out, utf8dfa::replace{U'*'})
             : policy == 2 ? utf8dfa::utf32_to_latin1(v, out, utf8dfa::skip{})
                           : utf8dfa::utf32_to_latin1(v, out, utf8dfa::assume_valid{});
    }
  };
  for (int policy = 0; policy < 4; ++policy) {
    std::vector<unsigned char> want(n + canary, 0xEE), got(want);
    const conversion_result a = policy == 0   ? d::to_latin1(in.data(), n, want.data(), utf8dfa::strict{})
                                : policy == 1 ? d::to_latin1(in.data(), n, want.data(), utf8dfa::replace{U'*'})
                                : policy == 2 ? d::to_latin1(in.data(), n, want.data(), utf8dfa::skip{})
                                              : d::to_latin1(in.data(), n, want.data(), utf8dfa::replace{U'?'});
    const conversion_result b = convert(got.data(), policy);
    INFO("policy " << policy << " read " << b.read << "/" << a.read << " written " << b.written << "/" << a.written);
    REQUIRE(same(a, b));
    REQUIRE(got == want);
  }
  unsigned char none[1] = {0xEE};
  const conversion_result r = sizeof(Unit) == 2 ? utf8dfa::utf16_to_latin1(std::u16string(), none, utf8dfa::replace{})
                                                : utf8dfa::utf32_to_latin1(std::u32string(), none, utf8dfa::replace{});
  REQUIRE((r.read == 0 && r.written == 0 && r.error == error_code::unrepresentable && none[0] == 0xEE));
}

/// count_utf16, UTF-16 to Latin-1 and the UTF-16BE / UTF-16LE forms on `in` (host order) and its
/// byte-swapped copy.
void check_utf16_more(std::u16string_view in) {
  const std::size_t n = in.size();
  INFO("length " << n);
  REQUIRE(utf8dfa::count_utf16(in) == d::count_utf16_scalar(in.data(), n));
  check_units_to_latin1(in);
  std::u16string swapped(n + canary, u'\xEEEE'), want(swapped);
  d::change_endianness_scalar(in.data(), n, &want[0]);
  REQUIRE(utf8dfa::change_endianness_utf16(in, &swapped[0]) == n);
  REQUIRE(swapped == want);
  swapped.resize(n);
  // In place, nothing written past n (a canary that the byte exchange would change).
  const std::u16string guard(canary, u'\xEEDD');
  std::u16string inplace = std::u16string(in) + guard;
  utf8dfa::change_endianness_utf16(std::u16string_view(inplace.data(), n), &inplace[0]);
  REQUIRE(inplace == swapped + guard);
  // The other byte order reads as the host's: validation, length and conversion to UTF-8.
  const bool le = utf8dfa::host_is_little_endian;
  REQUIRE(same(le ? utf8dfa::validate_utf16be(swapped) : utf8dfa::validate_utf16le(swapped),
               d::validate_utf(in.data(), n)));
  const std::size_t len8 = utf8dfa::utf8_length_from_utf16(in);
  REQUIRE((le ? utf8dfa::utf8_length_from_utf16be(swapped) : utf8dfa::utf8_length_from_utf16le(swapped)) == len8);
  std::string a(len8 + canary, '\xEE'), b(a);
  for (int policy = 0; policy < 2; ++policy) {
    const conversion_result ra =
        policy == 0 ? utf8dfa::utf16_to_utf8(in, &a[0]) : utf8dfa::utf16_to_utf8(in, &a[0], utf8dfa::replace{});
    const conversion_result rb =
        policy == 0 ? (le ? utf8dfa::utf16be_to_utf8(swapped, &b[0]) : utf8dfa::utf16le_to_utf8(swapped, &b[0]))
                    : (le ? utf8dfa::utf16be_to_utf8(swapped, &b[0], utf8dfa::replace{})
                          : utf8dfa::utf16le_to_utf8(swapped, &b[0], utf8dfa::replace{}));
    REQUIRE(same(ra, rb));
    REQUIRE(a == b);
  }
}

/// validate_utf32, UTF-32 to Latin-1 and the UTF-32BE / UTF-32LE forms on `in` and its byte-swapped copy.
void check_utf32_more(std::u32string_view in) {
  const std::size_t n = in.size();
  INFO("length " << n);
  const validation_result v = d::validate_utf32_scalar(in.data(), n);
  REQUIRE(same(utf8dfa::validate_utf32(in), v));
  check_units_to_latin1(in);
  std::u32string swapped(n + canary, U'\xEEEE'), want(swapped);
  d::change_endianness_scalar(in.data(), n, &want[0]);
  REQUIRE(utf8dfa::change_endianness_utf32(in, &swapped[0]) == n);
  REQUIRE(swapped == want);
  swapped.resize(n);
  // In place, nothing written past n (a canary that the byte exchange would change).
  const std::u32string guard(canary, U'\xEEDD');
  std::u32string inplace = std::u32string(in) + guard;
  utf8dfa::change_endianness_utf32(std::u32string_view(inplace.data(), n), &inplace[0]);
  REQUIRE(inplace == swapped + guard);
  const bool le = utf8dfa::host_is_little_endian;
  REQUIRE(same(le ? utf8dfa::validate_utf32be(swapped) : utf8dfa::validate_utf32le(swapped), v));
  const std::size_t len8 = utf8dfa::utf8_length_from_utf32(in);
  REQUIRE((le ? utf8dfa::utf8_length_from_utf32be(swapped) : utf8dfa::utf8_length_from_utf32le(swapped)) == len8);
  std::string a(len8 + canary, '\xEE'), b(a);
  const conversion_result ra = utf8dfa::utf32_to_utf8(in, &a[0]);
  const conversion_result rb = le ? utf8dfa::utf32be_to_utf8(swapped, &b[0]) : utf8dfa::utf32le_to_utf8(swapped, &b[0]);
  REQUIRE(same(ra, rb));
  REQUIRE(a == b);
}

/// UTF-8 (errors where it is not) to UTF-16 and UTF-32 in the other byte order under strict,
/// replace and skip: the host-order conversion's result and units, swapped.
void check_utf8_other_order(std::string_view in) {
  const std::size_t n = in.size();
  const bool le = utf8dfa::host_is_little_endian;
  for (int policy = 0; policy < 3; ++policy) {
    INFO("policy " << policy);
    std::u16string h16(n + canary, u'\xEEEE'), o16(h16);
    std::u32string h32(n + canary, U'\xEEEE'), o32(h32);
    conversion_result r16{}, g16{}, r32{}, g32{};
    if (policy == 0) {
      r16 = utf8dfa::utf8_to_utf16(in, &h16[0]);
      g16 = le ? utf8dfa::utf8_to_utf16be(in, &o16[0]) : utf8dfa::utf8_to_utf16le(in, &o16[0]);
      r32 = utf8dfa::utf8_to_utf32(in, &h32[0]);
      g32 = le ? utf8dfa::utf8_to_utf32be(in, &o32[0]) : utf8dfa::utf8_to_utf32le(in, &o32[0]);
    } else if (policy == 1) {
      const utf8dfa::replace r{};
      r16 = utf8dfa::utf8_to_utf16(in, &h16[0], r);
      g16 = le ? utf8dfa::utf8_to_utf16be(in, &o16[0], r) : utf8dfa::utf8_to_utf16le(in, &o16[0], r);
      r32 = utf8dfa::utf8_to_utf32(in, &h32[0], r);
      g32 = le ? utf8dfa::utf8_to_utf32be(in, &o32[0], r) : utf8dfa::utf8_to_utf32le(in, &o32[0], r);
    } else {
      const utf8dfa::skip k{};
      r16 = utf8dfa::utf8_to_utf16(in, &h16[0], k);
      g16 = le ? utf8dfa::utf8_to_utf16be(in, &o16[0], k) : utf8dfa::utf8_to_utf16le(in, &o16[0], k);
      r32 = utf8dfa::utf8_to_utf32(in, &h32[0], k);
      g32 = le ? utf8dfa::utf8_to_utf32be(in, &o32[0], k) : utf8dfa::utf8_to_utf32le(in, &o32[0], k);
    }
    d::change_endianness_scalar(h16.data(), r16.written, &h16[0]);
    d::change_endianness_scalar(h32.data(), r32.written, &h32[0]);
    REQUIRE(same(g16, r16));
    REQUIRE(o16 == h16);
    REQUIRE(same(g32, r32));
    REQUIRE(o32 == h32);
  }
}

/// Latin-1 to UTF-16 and UTF-32, the UTF-8 length of Latin-1, and UTF-8 to UTF-16 / UTF-32 in the
/// other byte order, against the scalar functions, with canaries.
void check_latin1_more(std::string_view in) {
  const std::size_t n = in.size();
  INFO("length " << n);
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  REQUIRE(utf8dfa::utf8_length_from_latin1(in) == d::utf8_length_from_latin1_scalar(p, n));
  std::u16string w16(n + canary, u'\xEEEE'), g16(w16);
  d::latin1_widen_scalar(p, n, &w16[0]);
  REQUIRE(utf8dfa::latin1_to_utf16(in, &g16[0]) == n);
  REQUIRE(g16 == w16);
  std::u32string w32(n + canary, U'\xEEEE'), g32(w32);
  d::latin1_widen_scalar(p, n, &w32[0]);
  REQUIRE(utf8dfa::latin1_to_utf32(in, &g32[0]) == n);
  REQUIRE(g32 == w32);
  check_utf8_other_order(in);
}

/// UTF-32 text of `units` values up to U+00FF (Latin-1) with one in `every` above it (0: none).
std::u32string latin1_utf32_text(std::size_t units, std::size_t every) {
  std::u32string s;
  for (std::size_t k = 0; k < units; ++k)
    s += static_cast<char32_t>(every != 0 && k % every == every - 1 ? 0x1F600 + k
                               : k % 5 == 4                         ? 0xA0 + k % 0x60
                                                                    : 0x61 + k % 26);
  return s;
}

TEST_CASE("UTF-16 kernels: pairs or a lone surrogate, then a run of BMP units of every length to 40") {
  // The kernels may finish with the last units read again: an output shorter or longer than the
  // input before them, and a surrogate just before them, must not change their result.
  for (std::size_t pairs = 0; pairs <= 20; ++pairs)
    for (const char16_t lone : {u'\0', u'\xD800', u'\xDC00'})
      for (std::size_t run = 0; run <= 40; ++run) {
        std::u16string s;
        for (std::size_t k = 0; k < pairs; ++k) s += u"\xD83D\xDE00";
        if (lone != 0) s += lone;
        for (std::size_t k = 0; k < run; ++k) s += static_cast<char16_t>(k % 3 == 0 ? 0x4E00 + k : 0x61 + k % 26);
        check_utf16(s);
        check_utf16_more(s);
      }
}

TEST_CASE("count_utf16, UTF-16 to Latin-1, byte orders: a surrogate or a value above U+00FF at every position") {
  for (const std::size_t every : {0u, 3u, 31u}) {
    const std::u16string base = utf16_text(300, every);
    check_utf16_more(base);
    for (const char16_t planted : {u'\xD800', u'\xDBFF', u'\xDC00', u'\x0100'})
      for (std::size_t pos = 0; pos <= 200; ++pos) {
        std::u16string s = base;
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(pos), planted);
        check_utf16_more(s);
        s.resize(pos + 1);  // the planted unit ends the input
        check_utf16_more(s);
      }
  }
  // Every length of Latin-1 text (all in vectors) and of all-pair text (blocks end inside a pair).
  std::u16string latin1, pairs = utf16_text(300, 1);
  for (std::size_t k = 0; k < 300; ++k) latin1 += static_cast<char16_t>(k % 7 == 0 ? 0xE9 : 0x41 + k % 26);
  for (std::size_t n = 0; n <= 300; ++n) {
    check_utf16_more(latin1.substr(0, n));
    check_utf16_more(pairs.substr(0, n));
  }
}

TEST_CASE("validate_utf32, UTF-32 to Latin-1, byte orders: a bad value at every position") {
  for (const std::size_t every : {0u, 7u}) {
    const std::u32string base = latin1_utf32_text(200, every);
    check_utf32_more(base);
    for (const char32_t bad : {char32_t{0xD800}, char32_t{0xDFFF}, char32_t{0x110000}, char32_t{0xFFFFFFFF},
                               char32_t{0x100}, char32_t{0x10FFFF}})
      for (std::size_t pos = 0; pos <= 150; ++pos) {
        std::u32string s = base;
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(pos), bad);
        check_utf32_more(s);
        s.resize(pos + 1);
        check_utf32_more(s);
      }
  }
  const std::u32string latin1 = latin1_utf32_text(200, 0);
  for (std::size_t n = 0; n <= latin1.size(); ++n) check_utf32_more(latin1.substr(0, n));
}

/// validate_utf16 and to_well_formed_utf16 of `in` (both byte orders for validation, in place and
/// not for the repair) against the scalar code.
void check_utf16_long(std::u16string_view in) {
  const std::size_t n = in.size();
  const validation_result want = d::validate_utf(in.data(), n);
  REQUIRE(same(utf8dfa::validate_utf16(in), want));
  std::u16string swapped(n, u'\0');
  d::change_endianness_scalar(in.data(), n, &swapped[0]);
  const bool le = utf8dfa::host_is_little_endian;
  REQUIRE(same(le ? utf8dfa::validate_utf16be(swapped) : utf8dfa::validate_utf16le(swapped), want));
  std::u16string fixed(n, u'#'), expect(n, u'#'), inplace(in);
  d::to_well_formed_until(in.data(), n, 0, n, &expect[0]);
  REQUIRE(utf8dfa::to_well_formed_utf16(in, &fixed[0]) == n);
  REQUIRE(fixed == expect);
  utf8dfa::to_well_formed_utf16(inplace, &inplace[0]);
  REQUIRE(inplace == expect);
}

TEST_CASE(
    "validate_utf16, to_well_formed_utf16, long input: a lone surrogate or a pair at every position near the ends") {
  // Kernels may step 128 units without a surrogate and 32 with one, a high surrogate last in a step
  // carried to the next: a lone one there must not be skipped by the next step.
  for (const std::size_t n : {1100u, 2100u}) {
    std::u16string base;
    for (std::size_t k = 0; k < n; ++k) base += static_cast<char16_t>(k % 3 == 0 ? 0x4E00 + k % 512 : 0x61 + k % 26);
    std::u16string pairs = base;
    for (std::size_t k = 0; k + 1 < n; k += 5) {
      pairs[k] = u'\xD83D';
      pairs[k + 1] = static_cast<char16_t>(0xDC00 + k % 0x400);
    }
    for (const std::u16string* text : {&base, &pairs})
      for (std::size_t pos = 0; pos < n; pos = pos == 300 ? n - 300 : pos + 1)
        for (const char16_t* planted : {u"\xD800", u"\xDC00", u"\xDBFF\xDFFF", u"\xD800\x61"}) {
          std::u16string s = *text;
          for (std::size_t j = 0; planted[j] != 0 && pos + j < n; ++j) s[pos + j] = planted[j];
          INFO("length " << n << ", planted at " << pos);
          check_utf16_long(s);
        }
  }
  // Every length past 1024 for a while (every end of the last step): a high surrogate last, or
  // before the last unit or the last 32.
  std::u16string text;
  for (std::size_t k = 0; k < 1100; ++k) text += static_cast<char16_t>(k % 4 == 0 ? 0x3042 : 0x62);
  for (std::size_t n = 1025; n <= 1090; ++n)
    for (const std::size_t back : {1u, 2u, 33u}) {
      std::u16string s = text.substr(0, n);
      s[n - back] = u'\xD83D';
      INFO("length " << n << ", high surrogate " << back << " from the end");
      check_utf16_long(s);
    }
}

TEST_CASE("validate_utf16, both byte orders: each of the 2048 surrogate values alone, among units near them") {
  // The kernels find surrogates by a key of each unit (in the other byte order, of its high byte
  // alone): every surrogate value must be found, and no unit whose low byte, or whose high byte
  // but for one bit, is a surrogate's.
  // (Units past the surrogates, E000 on, and plain text, where a test of the wrong bytes would
  // find no surrogate.)
  const char16_t nearby[] = {u'\x00D8', u'\x00DF', u'\xD7FF', u'\xE000', u'\x58DC', u'\x98DF', u'\xD0D8', u'a'};
  const char16_t plain[] = {u'a', u'\x4E2D', u'\x00E9', u'\x0431'};
  const bool le = utf8dfa::host_is_little_endian;
  for (const std::size_t n : {1u, 20u, 33u, 64u, 65u, 100u, 136u, 200u, 1024u, 1500u})
    for (const bool is_near : {true, false}) {
      std::u16string base(n, u'\0');
      for (std::size_t k = 0; k < n; ++k) base[k] = is_near ? nearby[k % 8] : plain[k % 4];
      std::u16string swapped(n, u'\0');
      d::change_endianness_scalar(base.data(), n, &swapped[0]);
      REQUIRE(utf8dfa::validate_utf16(base));
      REQUIRE((le ? utf8dfa::validate_utf16be(swapped) : utf8dfa::validate_utf16le(swapped)));
      // The ends, and a unit in every vector of 32 (every third one past 200 units; the lane moves
      // with the vector): each chain of minima and each vector of a step of 128 meets one.
      std::vector<std::size_t> positions = {0, n / 2, n - 1};
      for (std::size_t b = 0; 32 * b<n; b += n> 200 ? 3 : 1) positions.push_back(std::min(n - 1, 32 * b + b % 32));
      for (std::uint32_t lone = 0xD800; lone <= 0xDFFF; ++lone)
        for (const std::size_t pos : positions) {
          std::u16string s = base;
          s[pos] = static_cast<char16_t>(lone);
          d::change_endianness_scalar(s.data(), n, &swapped[0]);
          const validation_result want = d::validate_utf(s.data(), n);
          INFO("length " << n << ", " << std::hex << lone << std::dec << " at " << pos);
          REQUIRE(want.valid_up_to == pos);
          REQUIRE(same(utf8dfa::validate_utf16(s), want));
          REQUIRE(same(le ? utf8dfa::validate_utf16be(swapped) : utf8dfa::validate_utf16le(swapped), want));
        }
    }
}

#if UTF8DFA_X86_KERNELS
/// The AVX-512 surrogate test (surrogate_key) on 32 copies of the unit stored as `a` (bytes
/// exchanged when Swap), its keys kept by `least` against 32 copies of `b`'s: true when it sees a
/// surrogate.
template <bool Swap>
UTF8DFA_TARGET_AVX512 bool key_sees_surrogate(char16_t a, char16_t b) {
  const d::avx512::surrogate_key<Swap> s;
  return !s.none(
      s.least(s.key(_mm512_set1_epi16(static_cast<short>(a))), s.key(_mm512_set1_epi16(static_cast<short>(b)))));
}
#endif

TEST_CASE("AVX-512 surrogate keys: every unit value in both byte orders, against other units") {
  // The quick tests fall back to exact ones, so a unit wrongly seen as a surrogate changes no
  // validation result: the key itself is checked here.
#if UTF8DFA_X86_KERNELS
  if (!d::cpu_has(d::cpu_needs_avx512)) return;
  const auto swap = [](std::uint32_t u) { return static_cast<char16_t>((u >> 8) | (u << 8 & 0xFF00u)); };
  const auto is_surrogate = [](std::uint32_t u) { return u - 0xD800u < 0x800u; };
  for (std::uint32_t u = 0; u <= 0xFFFF; ++u)
    for (const std::uint32_t other : {0x0000u, 0x0061u, 0x00D8u, 0x28DBu, 0xDBFFu, 0xE000u, 0xFFFFu}) {
      INFO(std::hex << u << " against " << other);
      const bool want = is_surrogate(u) || is_surrogate(other);
      REQUIRE(key_sees_surrogate<false>(static_cast<char16_t>(u), static_cast<char16_t>(other)) == want);
      REQUIRE(key_sees_surrogate<true>(swap(u), swap(other)) == want);
    }
#endif
}

TEST_CASE("validate_utf32: values whose low 16 bits are a surrogate's, then an error in the same or a later block") {
  // A vector kernel may test the 16-bit halves of long input first: U+1D800 or U+10DFFF looks like
  // a surrogate there and must be cleared exactly, without losing an error behind it.
  for (const std::size_t n : {100u, 1500u, 9000u}) {
    const std::u32string base = latin1_utf32_text(n, 9);
    for (const char32_t look : {char32_t{0x1D800}, char32_t{0x2DFFF}, char32_t{0x10D800}, char32_t{0x10DFFF}})
      for (const std::size_t pos : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{63}, n / 2, n - 1}) {
        std::u32string s = base;
        s[pos] = look;
        for (std::size_t skip = 0; skip < 3; ++skip) check_utf32_more(std::u32string_view(s).substr(skip));
        for (const std::size_t later : {pos + 1, pos + 17, pos + 4200})
          for (const char32_t bad : {char32_t{0xDC00}, char32_t{0x11D800}, char32_t{0x110000}})
            if (later < n) {
              std::u32string t = s;
              t[later] = bad;
              check_utf32_more(t);
            }
      }
  }
}

TEST_CASE("Latin-1 to UTF-16 / UTF-32, its UTF-8 length, UTF-8 to the other byte order: every length, random") {
  std::mt19937 rng(17);
  for (std::size_t n = 0; n <= 300; ++n)
    for (unsigned density : {0u, 1u, 8u}) {  // one in `density` bytes at 80..FF (0: none)
      std::string s(n, 'x');
      for (std::size_t k = 0; k < n; ++k)
        s[k] = static_cast<char>(density != 0 && rng() % density == 0 ? 0x80 + rng() % 0x80 : rng() % 0x80);
      check_latin1_more(s);
    }
  // UTF-8 text long enough for several chunks of the byte-order forms.
  std::string text;
  while (text.size() < 20000) text += "caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x98\x80 x";
  check_latin1_more(text);
}

TEST_CASE("count_utf16, validate_utf32, to Latin-1, byte orders: random units, long inputs") {
  std::mt19937 rng(19);
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = rng() % 400;
    std::u16string s(n, u'a');
    for (auto& c : s) {
      const auto r = static_cast<unsigned>(rng() % 24);
      c = static_cast<char16_t>(r == 0  ? 0xD800 + rng() % 0x800
                                : r < 3 ? 0xE000 + rng() % 0x2000
                                : r < 6 ? rng() % 0xD800
                                        : rng() % 0x100);
    }
    for (std::size_t k = 0; k + 1 < n; ++k)
      if (rng() % 6 == 0) {
        s[k] = static_cast<char16_t>(0xD800 + rng() % 0x400);
        s[k + 1] = static_cast<char16_t>(0xDC00 + rng() % 0x400);
      }
    check_utf16_more(s);
    std::u32string t(n, U'a');
    for (auto& c : t) {
      const auto r = static_cast<unsigned>(rng() % 40);
      c = static_cast<char32_t>(r == 0   ? 0xD800 + rng() % 0x800
                                : r == 1 ? 0x110000 + rng() % 0x1000
                                : r < 4  ? 0x10000 + rng() % 0x100000
                                : r < 8  ? rng() % 0xD800
                                         : rng() % 0x100);
    }
    check_utf32_more(t);
  }
  // Several chunks of the byte-order forms, with a pair across each chunk edge and an error late.
  std::u16string long16 = utf16_text(9000, 5);
  for (std::size_t edge = 2047; edge < long16.size(); edge += 2048) {
    long16[edge] = u'\xD83D';
    long16[edge + 1] = u'\xDE00';
  }
  check_utf16_more(long16);
  long16[8500] = u'\xDC00';
  check_utf16_more(long16);
  // Pairs only and a 3-byte form only, past the vector kernels' byte-lane counters (each step
  // counts the most it can), at either alignment.
  std::u16string pairs;
  for (int k = 0; k < 6000; ++k) pairs += u"\xD83D\xDE00";
  check_utf16_more(pairs);
  check_utf16_more(std::u16string_view(pairs).substr(1));
  check_utf16_more(std::u16string(9000, u'\x4E2D'));
  std::u32string long32 = latin1_utf32_text(5000, 9);
  check_utf32_more(long32);
  long32[4500] = 0xD800;
  check_utf32_more(long32);
}

TEST_CASE("count_utf16, validate_utf32, to Latin-1, byte orders: every start alignment, an error near it") {
  // The kernels start their blocks at 64-byte boundaries: inputs starting at every unit of a line,
  // with a bad unit at every position of the first blocks.
  const std::u16string text16 = utf16_text(2100, 9);  // 2048 units or more: AVX2 aligns too
  std::u16string latin16;
  for (std::size_t k = 0; k < 2100; ++k) latin16 += static_cast<char16_t>(k % 4 == 0 ? 0xE9 : 0x61 + k % 26);
  const std::u32string text32 = latin1_utf32_text(2100, 0);
  for (std::size_t offset = 0; offset < 32; ++offset)
    for (std::size_t pos = 0; pos < 80; pos += 11) {
      std::u16string s16 = std::u16string(offset, u'a') + text16, l16 = std::u16string(offset, u'a') + latin16;
      s16[offset + pos] = u'\xDC00';
      l16[offset + pos] = u'\x0100';
      check_utf16_more(std::u16string_view(s16).substr(offset));
      check_utf16_more(std::u16string_view(l16).substr(offset));
      std::u32string s32 = std::u32string(offset, U'a') + text32;
      check_utf32_more(std::u32string_view(s32).substr(offset));
      s32[offset + pos] = pos % 2 == 0 ? char32_t{0xD800} : char32_t{0x110000};
      check_utf32_more(std::u32string_view(s32).substr(offset));
      std::string l8 = std::string(offset, 'a');
      for (std::size_t k = 0; k < 2100; ++k) l8 += static_cast<char>(k == pos ? 0xFF : k % 3 == 0 ? 0xE9 : 0x61);
      check_latin1_more(std::string_view(l8).substr(offset));
    }
}

TEST_CASE("UTF-8 to UTF-16 / UTF-32 in the other byte order: errors and characters across 8 KiB pieces") {
  std::string text;
  while (text.size() < 17000) text += "ab \xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80";
  check_utf8_other_order(text);
  for (const std::size_t edge : {std::size_t{8192}, std::size_t{16384}})
    for (std::size_t pos = edge - 4; pos <= edge + 3; ++pos)
      for (const char* planted : {"\xFF", "\x80\x80\x80\x80\x80", "\xF0\x9F\x98\x80", "\xE4\xB8"}) {
        std::string s = text;
        s.insert(pos, planted);
        check_utf8_other_order(s);
      }
}

TEST_CASE("short inputs: every length to 130, a bad unit or sequence at every position, every start in a line") {
  // The kernels take inputs of up to 64 units in one or a few masked vectors, without alignment;
  // an error sends them to the scalar code from the start. Latin-1 text (so that every conversion
  // to Latin-1 takes that path) with one planted unit or sequence, from every start unit of a line.
  std::u16string latin16;
  std::u32string latin32;
  for (std::size_t k = 0; k < 130 + 16; ++k) {
    latin16 += static_cast<char16_t>(k % 5 == 0 ? 0xE9 : 0x61 + k % 26);
    latin32 += static_cast<char32_t>(k % 5 == 0 ? 0xE9 : 0x61 + k % 26);
  }
  for (std::size_t n = 0; n <= 130; ++n)
    for (std::size_t pos = 0; pos <= n; ++pos) {  // pos == n: nothing planted
      const std::size_t offset = (n + pos) % 16;
      for (const char16_t planted : {u'\xD800', u'\xDC00', u'\x0100', u'\xD83D'}) {
        if (pos == n && planted != u'\xD800') continue;
        std::u16string s = latin16.substr(0, offset + n);
        if (pos < n) s[offset + pos] = planted;
        if (planted == u'\xD83D' && pos + 1 < n) s[offset + pos + 1] = u'\xDE00';  // a pair
        const std::u16string_view v = std::u16string_view(s).substr(offset);
        check_utf16_more(v);
        REQUIRE(same(utf8dfa::validate_utf16(v), d::validate_utf(v.data(), n)));
      }
      for (const char32_t planted : {char32_t{0xD800}, char32_t{0x110000}, char32_t{0x100}, char32_t{0x10FFFF}}) {
        if (pos == n && planted != 0xD800) continue;
        std::u32string s = latin32.substr(0, offset + n);
        if (pos < n) s[offset + pos] = planted;
        check_utf32_more(std::u32string_view(s).substr(offset));
      }
      // UTF-8: Latin-1 text as pairs and ASCII, cut at n bytes, with a sequence planted at pos.
      for (const char* planted : {"\xFF", "\x80", "\xC3", "\xE2\x82\xAC", "\xC4\x80", "\xF0\x9F\x98\x80", "\xE4"}) {
        if (pos == n && *planted != '\xFF') continue;
        std::string s = std::string(offset, 'a') + latin1_utf8_text(n, 3);
        s.resize(offset + n);
        if (pos < n) s.replace(offset + pos, std::strlen(planted), planted);
        s.resize(offset + n);
        const std::string t = s.substr(offset);
        check_utf8_to_latin1(t);
        const auto* p = reinterpret_cast<const unsigned char*>(t.data());
        INFO("UTF-8 length " << n << " planted at " << pos);
        REQUIRE(same(utf8dfa::validate(t), d::validate_scalar(p, n)));
      }
    }
}

#if UTF8DFA_UNITS_TEST_MMAP
/// A page of usable memory between two inaccessible ones.
class guarded {
 public:
  guarded() {
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* m = mmap(nullptr, 3 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(m != MAP_FAILED);
    base_ = static_cast<unsigned char*>(m);
    REQUIRE(mprotect(base_, page_, PROT_NONE) == 0);
    REQUIRE(mprotect(base_ + 2 * page_, page_, PROT_NONE) == 0);
  }
  ~guarded() { munmap(base_, 3 * page_); }
  guarded(const guarded&) = delete;
  guarded& operator=(const guarded&) = delete;
  /// `n` units that end where the inaccessible page starts (a copy of src, or uninitialised).
  template <class T>
  T* at_end(std::size_t n, const T* src = nullptr) const {
    T* p = reinterpret_cast<T*>(base_ + 2 * page_) - n;
    if (src != nullptr && n != 0) std::memcpy(p, src, n * sizeof(T));
    return p;
  }
  /// `n` units that start where the inaccessible page before them ends (a copy of src).
  template <class T>
  T* at_start(std::size_t n, const T* src) const {
    T* p = reinterpret_cast<T*>(base_ + page_);
    if (n != 0) std::memcpy(p, src, n * sizeof(T));
    return p;
  }

 private:
  std::size_t page_ = 0;
  unsigned char* base_ = nullptr;
};

TEST_CASE("in place: byte-order change and UTF-16 repair of runs that start or end at an inaccessible page") {
  // In place, a kernel reads what it (or a store of the block before) just wrote: neither its loads
  // nor its stores may reach past either end of the run.
  const guarded page;
  std::u16string text16 = utf16_text(300, 5);
  for (std::size_t i = 4; i < text16.size(); i += 23) text16[i] = i % 2 ? u'\xD800' : u'\xDC00';  // lone surrogates
  std::u32string text32;
  for (std::size_t k = 0; k < 300; ++k) text32 += static_cast<char32_t>(k % 7 == 0 ? 0x1F600 + k : 0x61 + k);
  for (std::size_t n = 0; n <= 300; ++n)
    for (const bool at_end : {true, false}) {
      INFO("length " << n << (at_end ? ", ending at the page" : ", starting at the page"));
      std::u16string want16(n, u'\0');
      d::change_endianness_scalar(text16.data(), n, &want16[0]);
      char16_t* u16 = at_end ? page.at_end(n, text16.data()) : page.at_start(n, text16.data());
      REQUIRE(utf8dfa::change_endianness_utf16(std::u16string_view(u16, n), u16) == n);
      REQUIRE(std::u16string_view(u16, n) == want16);
      d::to_well_formed_utf16_scalar(text16.data(), n, &want16[0]);
      u16 = at_end ? page.at_end(n, text16.data()) : page.at_start(n, text16.data());
      REQUIRE(utf8dfa::to_well_formed_utf16(std::u16string_view(u16, n), u16) == n);
      REQUIRE(std::u16string_view(u16, n) == want16);
      std::u32string want32(n, U'\0');
      d::change_endianness_scalar(text32.data(), n, &want32[0]);
      char32_t* u32 = at_end ? page.at_end(n, text32.data()) : page.at_start(n, text32.data());
      REQUIRE(utf8dfa::change_endianness_utf32(std::u32string_view(u32, n), u32) == n);
      REQUIRE(std::u32string_view(u32, n) == want32);
    }
}

TEST_CASE("Latin-1 and UTF-16 / UTF-32 kernels: input and output ending at an inaccessible page") {
  const guarded in, out;
  const std::string latin1_utf8 = latin1_utf8_text(200, 3);
  const std::u16string text16 = utf16_text(200, 7);
  std::u32string text32;
  for (std::size_t k = 0; k < 200; ++k) text32 += static_cast<char32_t>(k % 9 == 0 ? 0x1F600 + k : 0x4E00 + k);
  for (std::size_t n = 0; n <= 200; ++n) {
    INFO("length " << n);
    // Latin-1 (the first n bytes of the UTF-8 text, read as Latin-1) to UTF-8, and back (a prefix
    // that may end inside a pair: an error at the end).
    const auto* l1 = in.at_end(n, reinterpret_cast<const unsigned char*>(latin1_utf8.data()));
    const std::size_t len8 = utf8dfa::utf8_length_from_latin1(std::string_view(reinterpret_cast<const char*>(l1), n));
    unsigned char* o8 = out.at_end<unsigned char>(len8);
    REQUIRE(utf8dfa::latin1_to_utf8(std::string_view(reinterpret_cast<const char*>(l1), n), o8) == len8);
    std::vector<unsigned char> want(n + 1);
    const conversion_result wl = d::to_latin1(l1, n, want.data(), utf8dfa::replace{U'?'});
    unsigned char* ol = out.at_end<unsigned char>(wl.written);
    REQUIRE(same(
        utf8dfa::utf8_to_latin1(std::string_view(reinterpret_cast<const char*>(l1), n), ol, utf8dfa::replace{U'?'}),
        wl));
    REQUIRE(std::memcmp(ol, want.data(), wl.written) == 0);
    // UTF-16 (a prefix may end with a high surrogate) and UTF-32.
    const char16_t* u16 = in.at_end(n, text16.data());
    const std::u16string_view v16(u16, n);
    REQUIRE(same(utf8dfa::validate_utf16(v16), d::validate_utf(u16, n)));
    REQUIRE(utf8dfa::to_well_formed_utf16(v16, out.at_end<char16_t>(n)) == n);
    std::u32string want32(n, U'\0');
    const conversion_result w32 = d::utf_to_utf(u16, n, &want32[0], utf8dfa::replace{});
    char32_t* o32 = out.at_end<char32_t>(w32.written);
    REQUIRE(same(utf8dfa::utf16_to_utf32(v16, o32, utf8dfa::replace{}), w32));
    REQUIRE(std::memcmp(o32, want32.data(), w32.written * 4) == 0);
    const char32_t* u32 = in.at_end(n, text32.data());
    const std::size_t len16 = utf8dfa::utf16_length_from_utf32(std::u32string_view(u32, n));
    char16_t* o16 = out.at_end<char16_t>(len16);
    REQUIRE(utf8dfa::utf32_to_utf16(std::u32string_view(u32, n), o16).written == len16);
  }
}

TEST_CASE("count_utf16, validate_utf32, Latin-1 <-> UTF-16 / UTF-32, byte orders: ending at an inaccessible page") {
  const guarded in, out;
  std::u16string text16;
  for (std::size_t k = 0; k < 300; ++k) text16 += static_cast<char16_t>(k % 11 == 10 ? 0xD800 : 0x41 + k % 0xC0);
  const std::u32string text32 = latin1_utf32_text(300, 0);
  std::string latin1;
  for (std::size_t k = 0; k < 300; ++k) latin1 += static_cast<char>(k % 3 == 0 ? 0xE0 + k % 0x20 : 0x41 + k % 26);
  for (std::size_t n = 0; n <= 300; ++n) {
    INFO("length " << n);
    const char16_t* u16 = in.at_end(n, text16.data());
    const std::u16string_view v16(u16, n);
    REQUIRE(utf8dfa::count_utf16(v16) == d::count_utf16_scalar(u16, n));
    const conversion_result w16 = d::to_latin1(u16, n, out.at_end<unsigned char>(n), utf8dfa::replace{U'?'});
    REQUIRE(same(utf8dfa::utf16_to_latin1(v16, out.at_end<unsigned char>(w16.written), utf8dfa::replace{U'?'}), w16));
    REQUIRE(utf8dfa::change_endianness_utf16(v16, out.at_end<char16_t>(n)) == n);
    const char32_t* u32 = in.at_end(n, text32.data());
    const std::u32string_view v32(u32, n);
    REQUIRE(same(utf8dfa::validate_utf32(v32), d::validate_utf32_scalar(u32, n)));
    REQUIRE(utf8dfa::utf32_to_latin1(v32, out.at_end<unsigned char>(n)).written == n);
    REQUIRE(utf8dfa::change_endianness_utf32(v32, out.at_end<char32_t>(n)) == n);
    const auto* l1 = in.at_end(n, reinterpret_cast<const unsigned char*>(latin1.data()));
    const std::string_view vl(reinterpret_cast<const char*>(l1), n);
    REQUIRE(utf8dfa::utf8_length_from_latin1(vl) == d::utf8_length_from_latin1_scalar(l1, n));
    REQUIRE(utf8dfa::latin1_to_utf16(vl, out.at_end<char16_t>(n)) == n);
    REQUIRE(utf8dfa::latin1_to_utf32(vl, out.at_end<char32_t>(n)) == n);
  }
}
TEST_CASE("short inputs ending at an inaccessible page: a bad unit at every position") {
  const guarded in, out;
  for (std::size_t n = 0; n <= 130; ++n)
    for (std::size_t pos = 0; pos <= n; ++pos) {
      INFO("length " << n << " bad unit at " << pos);
      std::u16string t16(n, u'\xE9');
      std::u32string t32(n, U'\xE9');
      std::string t8(n, 'a');
      if (pos < n) {
        t16[pos] = pos % 2 == 0 ? u'\xDC00' : u'\x0100';
        t32[pos] = pos % 2 == 0 ? char32_t{0xD800} : char32_t{0x100};
        t8[pos] = pos % 2 == 0 ? '\xC3' : '\xFF';
      }
      const char16_t* u16 = in.at_end(n, t16.data());
      const std::u16string_view v16(u16, n);
      REQUIRE(same(utf8dfa::validate_utf16(v16), d::validate_utf(u16, n)));
      REQUIRE(utf8dfa::count_utf16(v16) == d::count_utf16_scalar(u16, n));
      const conversion_result w16 = d::to_latin1(u16, n, out.at_end<unsigned char>(n), utf8dfa::strict{});
      REQUIRE(same(utf8dfa::utf16_to_latin1(v16, out.at_end<unsigned char>(n)), w16));
      REQUIRE(utf8dfa::change_endianness_utf16(v16, out.at_end<char16_t>(n)) == n);
      const char32_t* u32 = in.at_end(n, t32.data());
      const std::u32string_view v32(u32, n);
      REQUIRE(same(utf8dfa::validate_utf32(v32), d::validate_utf32_scalar(u32, n)));
      const conversion_result w32 = d::to_latin1(u32, n, out.at_end<unsigned char>(n), utf8dfa::strict{});
      REQUIRE(same(utf8dfa::utf32_to_latin1(v32, out.at_end<unsigned char>(n)), w32));
      const auto* u8 = in.at_end(n, reinterpret_cast<const unsigned char*>(t8.data()));
      const std::string_view v8(reinterpret_cast<const char*>(u8), n);
      REQUIRE(same(utf8dfa::validate(v8), d::validate_scalar(u8, n)));
      const conversion_result w8 = d::to_latin1(u8, n, out.at_end<unsigned char>(n), utf8dfa::strict{});
      REQUIRE(same(utf8dfa::utf8_to_latin1(v8, out.at_end<unsigned char>(n)), w8));
      REQUIRE(utf8dfa::latin1_to_utf16(v8, out.at_end<char16_t>(n)) == n);
      REQUIRE(utf8dfa::latin1_to_utf32(v8, out.at_end<char32_t>(n)) == n);
    }
}
#endif

TEST_CASE("UTF-16 repair: pairs across every block end, a lone or broken surrogate at every position") {
  // After one unit, every pair straddles the ends of blocks of an even number of units, so that a
  // block can end with a high surrogate whose pair (or the error after it) is in the next block.
  const std::u16string base = u"a" + utf16_text(300, 1);
  for (const char16_t lone : {u'\xD800', u'\xDBFF', u'\xDC00', u'\xDFFF', u'x'})
    for (std::size_t pos = 0; pos < base.size(); ++pos) {
      std::u16string s = base;
      s[pos] = lone;  // (breaks a pair, or a lone surrogate where 'a' was)
      check_utf16(s);
      s = base;
      s.insert(s.begin() + static_cast<std::ptrdiff_t>(pos), lone);
      check_utf16(s);
    }
}

TEST_CASE("utf8_to_latin1: ASCII blocks after blocks of pairs (one cut at the block end), an error in each") {
  // Runs of pairs and of ASCII whose lengths put the block ends inside a pair, at a run's start and at
  // its end; each tried whole, cut at every length, and with a planted sequence at every position.
  const std::string pairs = latin1_utf8_text(40, 1);  // 80 bytes
  for (const std::size_t lead : {0u, 1u, 31u, 63u}) {
    const std::string text = std::string(lead, 'x') + pairs.substr(0, 63 - (lead % 2)) + std::string(130, 'y') + pairs +
                             std::string(64, 'z') + pairs.substr(0, 33);
    for (std::size_t n = 0; n <= text.size(); n += (n < 140 ? 1 : 7)) check_utf8_to_latin1(text.substr(0, n));
    for (const char* planted : {"\xFF", "\x80", "\xC3", "\xC4\x80", "A"})
      for (std::size_t pos = 0; pos < text.size(); pos += (pos < 200 ? 1 : 5)) {
        std::string s = text;
        s.replace(pos, std::strlen(planted), planted);
        check_utf8_to_latin1(s);
      }
  }
}

TEST_CASE("UTF-32 to UTF-16 and to Latin-1: a run of every length after supplementary values or an error") {
  // utf32_to_utf16 may finish with the last 8 values read again, their units stored over the ones
  // before them: only right when those were written one unit per value by the same call.
  for (const char32_t lead : {U'\0', U'\x1F600', char32_t{0xD800}, char32_t{0x110000}})
    for (std::size_t before : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{9}, std::size_t{17}})
      for (std::size_t run = 0; run <= 72; ++run) {
        std::u32string s;
        for (std::size_t k = 0; k < before; ++k) s += static_cast<char32_t>(0x4E00 + k);
        if (lead != 0) s += lead;
        for (std::size_t k = 0; k < run; ++k) s += static_cast<char32_t>(k % 3 == 0 ? 0x4E00 + k : 0x61 + k % 26);
        check_utf32(s);
        if (s.empty()) continue;
        s.back() = U'\x10FFFF';  // a supplementary value in the last 8
        check_utf32(s);
      }
  // Latin-1 from inputs of 64 to 2100 values (the vector loop without alignment below 2048) with a
  // value above FF at a few places.
  for (const std::size_t n :
       {std::size_t{65}, std::size_t{96}, std::size_t{1000}, std::size_t{2047}, std::size_t{2100}})
    for (const std::size_t at : {std::size_t{0}, std::size_t{31}, std::size_t{32}, n / 2, n - 33, n - 1, n}) {
      std::u16string w;
      std::u32string u;
      for (std::size_t k = 0; k < n; ++k) {
        const auto c = static_cast<char16_t>(k % 5 == 0 ? 0xE9 : 0x41 + k % 26);
        w += c;
        u += c;
      }
      if (at < n) {
        w[at] = u'\x0100';
        u[at] = U'\x20AC';
      }
      check_units_to_latin1(std::u16string_view(w));
      check_units_to_latin1(std::u32string_view(u));
    }
}

}  // namespace simd_units

}  // namespace utf8dfa_test_simd_units
