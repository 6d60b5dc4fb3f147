// The kernel operations on Latin-1 and UTF-16 / UTF-32 input (latin1_to_utf8, utf8_to_latin1,
// validate_utf16, utf16_to_utf32, utf32_to_utf16, to_well_formed_utf16) through the public API, so
// under the kernel this run uses, against the scalar functions of detail/units.hpp: result, output,
// nothing written past the result (canaries), for each policy; with an error or a character that
// does not fit planted at every position of the first vector blocks, blocks ending inside a pair,
// random inputs, and inputs and outputs that end right before an inaccessible page.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "utf8dfa.hpp"

#if defined(__unix__) || defined(__APPLE__)
#define UTF8DFA_UNITS_TEST_MMAP 1
#include <sys/mman.h>
#include <unistd.h>
#else
#define UTF8DFA_UNITS_TEST_MMAP 0
#endif

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
  std::u16string inplace = in;
  utf8dfa::to_well_formed_utf16(inplace, &inplace[0]);
  REQUIRE(inplace == want.substr(0, n));
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

 private:
  std::size_t page_ = 0;
  unsigned char* base_ = nullptr;
};

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
#endif

}  // namespace simd_units

}  // namespace utf8dfa_test_simd_units
