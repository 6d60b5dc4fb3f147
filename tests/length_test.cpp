// The output-length helpers (utf16_length_from_utf8, utf32_length_from_utf8, utf8_length_from_utf16,
// utf8_length_from_utf32) against the length of what the conversions actually write, under every
// policy: exact for replace (any replacement) and on well-formed input, an upper bound for strict
// and assume_valid. Random well-formed and ill-formed text, every length 0..300 at every alignment
// mod 64 (the vector blocks' edges), long inputs past the kernels' counter flushes, and the allocating
// helpers built on them. ctest runs this file once per kernel (UTF8DFA_KERNEL).
#include <utf8dfa.hpp>
#include <utf8dfa/detail/scalar_kernels.hpp>  // the scalar kernel table, also under separate compilation

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "catch.hpp"

// The test of counts past 2^32 units maps one page many times (Linux, x86-64), and is skipped under
// AddressSanitizer: it reads 24 GB, and a read out of bounds would fault anyway.
#if defined(__SANITIZE_ADDRESS__)
#define UTF8DFA_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UTF8DFA_TEST_ASAN 1
#endif
#endif
#if defined(__linux__) && defined(__x86_64__) && !defined(UTF8DFA_TEST_ASAN)
#define UTF8DFA_TEST_HUGE_MAPPING 1
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace utf8dfa_test_length {  // the file's own names (the suite also builds as unity sources)

namespace length_test {

/// A small deterministic generator (the same text on every platform).
struct rng {
  std::uint64_t x;
  std::uint32_t next() {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(x >> 33);
  }
  std::uint32_t below(std::uint32_t n) { return next() % n; }
};

/// UTF-8 text: runs of ASCII and of 2-, 3- and 4-byte characters (runs make whole vector blocks of
/// one kind); with `bad`, ill-formed pieces of every kind in between, about one per `bad` pieces.
inline std::string make_utf8(rng& r, std::size_t size, unsigned bad) {
  static const char* const bad_pieces[] = {"\x80",     "\xBF\xBF",     "\xC0\xAF",     "\xC1\xBF",
                                           "\xE0\x80", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xF0\x8F\xBF\xBF",
                                           "\xF4\x90", "\xF5",         "\xFF",         "\xE2\x82",
                                           "\xF0\x9F", "\xC3",         "\xF0\x9F\x98", "\xF8\x88\x80\x80\x80"};
  std::string s;
  char buf[4];
  while (s.size() < size) {
    if (bad != 0 && r.below(bad) == 0) {
      s += bad_pieces[r.below(sizeof bad_pieces / sizeof bad_pieces[0])];
      continue;
    }
    const std::uint32_t kind = r.below(5), run = 1 + r.below(kind == 0 ? 80 : 24);
    for (std::uint32_t k = 0; k < run; ++k) {
      char32_t c = 0;
      switch (kind) {
        case 0:
          c = r.below(0x80);
          break;
        case 1:
          c = 0x80 + r.below(0x800 - 0x80);
          break;
        case 2:
          c = 0x800 + r.below(0xD800 - 0x800);
          break;
        case 3:
          c = 0xE000 + r.below(0x10000 - 0xE000);
          break;
        default:
          c = 0x10000 + r.below(0x110000 - 0x10000);
          break;
      }
      s.append(buf, utf8dfa::encode(c, buf));
    }
  }
  return s;
}

/// UTF-16 of random text; with `bad`, about one unit in `bad` replaced by a lone surrogate.
inline std::u16string make_utf16(rng& r, std::size_t size, unsigned bad) {
  std::u16string s = utf8dfa::to_utf16_lossy(make_utf8(r, size * 4, 0));
  s.resize(std::min(s.size(), size));
  if (bad != 0)
    for (char16_t& u : s)
      if (r.below(bad) == 0) u = static_cast<char16_t>(r.below(2) ? 0xD800 + r.below(0x400) : 0xDC00 + r.below(0x400));
  return s;
}

/// UTF-32 of random text; with `bad`, about one unit in `bad` a surrogate or a value above 0x10FFFF.
inline std::u32string make_utf32(rng& r, std::size_t size, unsigned bad) {
  std::u32string s = utf8dfa::to_utf32_lossy(make_utf8(r, size * 4, 0));
  s.resize(std::min(s.size(), size));
  if (bad != 0)
    for (char32_t& u : s)
      if (r.below(bad) == 0) u = r.below(2) ? 0xD800 + r.below(0x800) : 0x110000 + r.next();
  return s;
}

/// First failure, for the report; counting keeps the inner loops fast.
struct failures {
  std::size_t count = 0;
  std::string first;
  void expect(bool ok, const char* what, std::size_t len, std::size_t align) {
    if (ok) return;
    if (count++ == 0)
      first = std::string(what) + " (length " + std::to_string(len) + ", alignment " + std::to_string(align) + ")";
  }
};

// Replacement values of every UTF-8 width (and so of both UTF-16 widths).
inline constexpr char32_t replacements[] = {0xFFFD, 0x3F, 0xE9, 0x1F600};

/// UTF-8 input [p, p+n): both length helpers against every policy's conversion.
inline void check_utf8(const char* p, std::size_t n, failures& f, std::size_t align) {
  namespace u = utf8dfa;
  const std::string_view in(p, n);
  const bool valid = u::is_valid(in);
  std::vector<char16_t> o16(2 * n + 1);
  std::vector<char32_t> o32(n + 1);
  for (const char32_t rv : replacements) {
    const u::replace rep{rv};
    const std::size_t n16 = u::utf16_length_from_utf8(in, rep), n32 = u::utf32_length_from_utf8(in, rep);
    f.expect(n16 == u::utf8_to_utf16(in, o16.data(), rep).written, "utf16_length_from_utf8 == replace", n, align);
    f.expect(n32 == u::utf8_to_utf32(in, o32.data(), rep).written, "utf32_length_from_utf8 == replace", n, align);
    const u::conversion_result s16 = u::utf8_to_utf16(in, o16.data()), s32 = u::utf8_to_utf32(in, o32.data());
    f.expect(valid ? s16.written == n16 : s16.written <= n16, "utf16_length_from_utf8 vs strict", n, align);
    f.expect(valid ? s32.written == n32 : s32.written <= n32, "utf32_length_from_utf8 vs strict", n, align);
  }
  const std::size_t n16 = u::utf16_length_from_utf8(in), n32 = u::utf32_length_from_utf8(in);
  const std::size_t a16 = u::utf8_to_utf16(in, o16.data(), u::assume_valid{}).written;
  const std::size_t a32 = u::utf8_to_utf32(in, o32.data(), u::assume_valid{}).written;
  f.expect(valid ? a16 == n16 : a16 <= n16, "utf16_length_from_utf8 vs assume_valid", n, align);
  f.expect(valid ? a32 == n32 : a32 <= n32, "utf32_length_from_utf8 vs assume_valid", n, align);
}

/// UTF-16 or UTF-32 input [p, p+n): utf8_length_from_utf16/32 against every policy's conversion.
template <class In>
void check_utf(const In* p, std::size_t n, failures& f, std::size_t align) {
  namespace u = utf8dfa;
  const std::basic_string_view<In> in(p, n);
  std::vector<char> out(4 * n + 1);
  const auto length = [&](u::replace r) {
    if constexpr (sizeof(In) == 2)
      return u::utf8_length_from_utf16(in, r);
    else
      return u::utf8_length_from_utf32(in, r);
  };
  const auto convert = [&](auto policy) {
    if constexpr (sizeof(In) == 2)
      return u::utf16_to_utf8(in, out.data(), policy);
    else
      return u::utf32_to_utf8(in, out.data(), policy);
  };
  const char* what = sizeof(In) == 2 ? "utf8_length_from_utf16" : "utf8_length_from_utf32";
  const u::conversion_result s = convert(u::strict{});
  const bool valid = s.error == u::error_code::none;
  for (const char32_t rv : replacements) {
    const std::size_t len = length(u::replace{rv});
    f.expect(len == convert(u::replace{rv}).written, what, n, align);
    f.expect(valid ? s.written == len : s.written <= len, what, n, align);
  }
  const std::size_t a = convert(u::assume_valid{}).written, len = length(u::replace{});
  f.expect(valid ? a == len : a <= len, what, n, align);
}

}  // namespace length_test

TEST_CASE("length helpers: every length 0..300 at every alignment, every policy") {
  using namespace length_test;
  failures f;
  for (const unsigned bad : {0u, 40u, 6u}) {
    rng r{0x5EED + bad};
    const std::string t8 = make_utf8(r, 300 + 64 + 8, bad);
    const std::u16string t16 = make_utf16(r, 300 + 64 + 8, bad);
    const std::u32string t32 = make_utf32(r, 300 + 64 + 8, bad);
    // Aligned storage: `align` is then the input's address modulo 64 (in bytes for UTF-8, units else).
    alignas(64) static char b8[512];
    alignas(64) static char16_t b16[512];
    alignas(64) static char32_t b32[512];
    for (std::size_t len = 0; len <= 300; ++len)
      for (std::size_t align = 0; align < 64; ++align) {
        const std::size_t phase = (len * 7 + align) % 64;  // where in the text the slice starts
        std::copy(t8.begin() + static_cast<std::ptrdiff_t>(phase),
                  t8.begin() + static_cast<std::ptrdiff_t>(phase + len), b8 + align);
        check_utf8(b8 + align, len, f, align);
        if (align % 4 == 0) {
          std::copy(t16.begin() + static_cast<std::ptrdiff_t>(phase),
                    t16.begin() + static_cast<std::ptrdiff_t>(phase + len), b16 + align);
          check_utf(b16 + align, len, f, align);
          std::copy(t32.begin() + static_cast<std::ptrdiff_t>(phase),
                    t32.begin() + static_cast<std::ptrdiff_t>(phase + len), b32 + align);
          check_utf(b32 + align, len, f, align);
        }
      }
  }
  INFO(utf8dfa::active_kernel() << ": " << f.first);
  CHECK(f.count == 0);
}

TEST_CASE("length helpers: long inputs (past the counters' flush points), errors far apart and dense") {
  using namespace length_test;
  failures f;
  for (const unsigned bad : {0u, 3000u, 5u}) {
    rng r{0xC0FFEE + bad};
    // Over 2^19 units: more than the 16-bit lane counters hold before a flush.
    const std::string t8 = make_utf8(r, std::size_t{1} << 20, bad);
    check_utf8(t8.data(), t8.size(), f, 0);
    const std::u16string t16 = make_utf16(r, 600000, bad);
    check_utf(t16.data(), t16.size(), f, 0);
    const std::u32string t32 = make_utf32(r, 300000, bad);
    check_utf(t32.data(), t32.size(), f, 0);
  }
  // Long runs of one width: every unit of a block counts the most it can.
  const std::u16string cjk(600000, u'\x4E2D');
  const std::u16string pairs = [] {
    std::u16string s;
    for (int k = 0; k < 300000; ++k) s += u"\xD83D\xDE00";
    return s;
  }();
  check_utf(cjk.data(), cjk.size(), f, 0);
  check_utf(pairs.data(), pairs.size(), f, 0);
  const std::string emoji = utf8dfa::to_utf8_lossy(pairs);
  check_utf8(emoji.data(), emoji.size(), f, 0);
  const std::u32string supp(300000, U'\x10FFFF');
  check_utf(supp.data(), supp.size(), f, 0);
  INFO(utf8dfa::active_kernel() << ": " << f.first);
  CHECK(f.count == 0);
}

TEST_CASE("length helpers: ill-formed input at block edges") {
  using namespace length_test;
  failures f;
  // One ill-formed piece (or a lone surrogate, or an out-of-range value) at every position of
  // inputs of 3-byte characters and of ASCII, so that it meets every edge of every block size.
  for (const char* piece : {"\x80", "\xE2\x82", "\xF0\x9F\x98", "\xC3", "\xED\xA0\x80", "\xF4\x90\x80\x80"})
    for (const char* fill : {"a", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80"})
      for (std::size_t at = 0; at < 200; ++at) {
        std::string s;
        while (s.size() < at) s += fill;
        s += piece;
        while (s.size() < 260) s += fill;
        check_utf8(s.data(), s.size(), f, at);
        check_utf8(s.data(), at + std::string(piece).size(), f, at);  // the piece ends the input
      }
  for (const char16_t lone : {u'\xD800', u'\xDBFF', u'\xDC00', u'\xDFFF'})
    for (const char16_t fill : {u'a', u'\x4E2D'})
      for (std::size_t at = 0; at < 140; ++at) {
        std::u16string s(150, fill);
        s[at] = lone;
        check_utf(s.data(), s.size(), f, at);
        check_utf(s.data(), at + 1, f, at);
        // A pair straddling every position, and a pair cut at the end.
        std::u16string t(150, fill);
        t[at] = u'\xD83D';
        t[at + 1] = u'\xDE00';
        check_utf(t.data(), t.size(), f, at);
        check_utf(t.data(), at + 1, f, at);
      }
  for (const char32_t bad : {U'\xD800', U'\xDFFF', char32_t(0x110000), char32_t(0xFFFFFFFF)})
    for (std::size_t at = 0; at < 80; ++at) {
      std::u32string s(90, U'\x1F600');
      s[at] = bad;
      check_utf(s.data(), s.size(), f, at);
    }
  INFO(utf8dfa::active_kernel() << ": " << f.first);
  CHECK(f.count == 0);
}

TEST_CASE("length helpers and validate: UTF-8 errors and 4-byte characters at every position of the 256-byte steps") {
  using namespace length_test;
  failures f;
  // Inputs of 700 bytes: a first block, two 256-byte steps (checked as a whole, the 4-byte check
  // only where a step or the one before holds an F0..FF byte), then blocks and a tail. Fills of
  // ASCII (steps only checked for a character cut before them), 2-byte and 3-byte characters.
  const char* const fills[] = {"a", "\xD0\x96", "\xE4\xB8\xAD"};
  const char* const pieces[] = {"\x80",
                                "\xE2\x82",
                                "\xF0\x9F\x98",
                                "\xED\xA0\x80",
                                "\xF4\x90\x80\x80",
                                "\xF0\x9F\x98\x80",      // well-formed: a 4-byte character in steps without one
                                "\xF0\x9F\x98\x80\x80",  // one continuation too many
                                "\xF0\x9F\x98\x61"};     // cut before its 4th byte (by an 'a')
  for (const char* piece : pieces)
    for (const char* fill : fills)
      for (std::size_t at = 0; at < 640; ++at) {
        std::string s;
        while (s.size() < at) s += fill;
        s += piece;
        while (s.size() < 700) s += fill;
        check_utf8(s.data(), s.size(), f, at);
        // The kernels' validation runs the same steps.
        const utf8dfa::validation_result v = utf8dfa::validate(s),
                                         ref = utf8dfa::detail::validate_scalar(
                                             reinterpret_cast<const unsigned char*>(s.data()), s.size());
        f.expect(v.valid_up_to == ref.valid_up_to && v.error == ref.error && v.error_length == ref.error_length,
                 "validate", s.size(), at);
      }
  INFO(utf8dfa::active_kernel() << ": " << f.first);
  CHECK(f.count == 0);
}

TEST_CASE("length helpers: long runs without surrogates between pairs and lone surrogates") {
  // The vector counts take runs of units free of surrogates (UTF-16) or of BMP values (UTF-32) in
  // big steps and check pairs and values in smaller ones: runs of every length around those steps,
  // ASCII or not, then a pair, a lone surrogate or an out-of-range value.
  using namespace length_test;
  failures f;
  rng r{0x16B10C};
  for (int round = 0; round < 24; ++round) {
    std::u16string s16;
    std::u32string s32;
    while (s16.size() < 1500) {
      const std::size_t run = 1 + r.below(300);
      const char16_t base = r.below(3) == 0 ? u'a' : (r.below(2) ? u'\x4E2D' : u'\x00E9');
      s16.append(run, base);
      s32.append(run, static_cast<char32_t>(base));
      switch (r.below(4)) {
        case 0:
          s16 += u"\xD83D\xDE00";
          s32 += U'\x1F600';
          break;
        case 1:
          s16 += static_cast<char16_t>(r.below(2) ? 0xD800 + r.below(0x400) : 0xDC00 + r.below(0x400));
          s32 += static_cast<char32_t>(r.below(2) ? 0xD800 + r.below(0x800) : 0x110000 + r.below(0x1000));
          break;
        default:
          break;
      }
    }
    for (const std::size_t len : {s16.size(), s16.size() - 1 - r.below(200)}) {
      check_utf(s16.data(), len, f, static_cast<std::size_t>(round));
      check_utf(s32.data(), std::min(len, s32.size()), f, static_cast<std::size_t>(round));
    }
  }
  INFO(utf8dfa::active_kernel() << ": " << f.first);
  CHECK(f.count == 0);
}

TEST_CASE("length helpers: long runs of supplementary characters, one unit changed at every position") {
  // The vector counts take runs of surrogate pairs (UTF-16) and of supplementary values (UTF-32)
  // in big steps of their own: runs at every phase against those steps, each unit in turn made a
  // lone high or low surrogate, an out-of-range value, or a BMP character, and the run cut short.
  using namespace length_test;
  failures f;
  rng r{0x1F600};
  for (std::size_t phase = 0; phase < 4; ++phase) {
    std::u32string base(phase, U'x');
    for (int k = 0; k < 160; ++k) base += static_cast<char32_t>(0x10000 + r.below(0x100000));
    base += U"tail";
    const std::u16string base16 = utf8dfa::to_utf16_lossy(utf8dfa::to_utf8_lossy(base));
    // (Copies of exactly the input's size, so that a read past its end is one past an allocation.)
    for (std::size_t at = 0; at < base16.size(); ++at)
      for (const char16_t unit : {char16_t{0xD83D}, char16_t{0xDE00}, char16_t{0x4E2D}, char16_t{0x41}}) {
        std::vector<char16_t> s(base16.begin(), base16.end());
        s[at] = unit;
        check_utf(s.data(), s.size(), f, phase);
      }
    for (std::size_t at = 0; at < base.size(); ++at)
      for (const char32_t unit : {char32_t{0xD83D}, char32_t{0x110000}, char32_t{0xFFFF}, char32_t{0x41},
                                  char32_t{0x10000}, char32_t{0x10FFFF}, char32_t{0xFFFFFFFF}}) {
        std::vector<char32_t> s(base.begin(), base.end());
        s[at] = unit;
        check_utf(s.data(), s.size(), f, phase);
      }
    for (std::size_t len = 0; len <= base16.size(); len += 1 + r.below(7)) {
      const std::vector<char16_t> s16(base16.begin(), base16.begin() + static_cast<std::ptrdiff_t>(len));
      const std::vector<char32_t> s32(base.begin(),
                                      base.begin() + static_cast<std::ptrdiff_t>(std::min(len, base.size())));
      check_utf(s16.data(), s16.size(), f, phase);
      check_utf(s32.data(), s32.size(), f, phase);
    }
  }
  // A pair then 61 ASCII units, over and over: the steps that check pairs count each high unit
  // twice (once before handing it to the next step), the most a counter lane can take per unit.
  std::u16string worst;
  while (worst.size() < 300000) worst += u"\xD83D\xDE00" + std::u16string(61, u'a');
  check_utf(worst.data(), worst.size(), f, 99);
  INFO(utf8dfa::active_kernel() << ": " << f.first);
  CHECK(f.count == 0);
}

TEST_CASE("length helpers: the allocating conversions hold exactly what the pointer forms write") {
  using namespace length_test;
  namespace u = utf8dfa;
  for (const unsigned bad : {0u, 7u}) {
    rng r{0xA110C + bad};
    for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{64}, std::size_t{257},
                                   std::size_t{5000}, std::size_t{200000}}) {
      INFO("size " << size << ", bad " << bad);
      const std::string t8 = make_utf8(r, size, bad);
      std::vector<char16_t> o16(t8.size() + 1);
      std::vector<char32_t> o32(t8.size() + 1);
      const u::conversion_result w16 = u::utf8_to_utf16(t8, o16.data(), u::replace{});
      const u::conversion_result w32 = u::utf8_to_utf32(t8, o32.data(), u::replace{});
      CHECK(u::to_utf16_lossy(t8) == std::u16string(o16.data(), w16.written));
      CHECK(u::to_utf32_lossy(t8) == std::u32string(o32.data(), w32.written));
      u::conversion_result s{};
      const std::u16string strict16 = u::to_utf16(t8, s);
      const u::conversion_result p16 = u::utf8_to_utf16(t8, o16.data());
      CHECK((s.read == p16.read && s.written == p16.written && s.error == p16.error));
      CHECK(strict16 == std::u16string(o16.data(), p16.written));
      const std::u32string strict32 = u::to_utf32(t8, s);
      const u::conversion_result p32 = u::utf8_to_utf32(t8, o32.data());
      CHECK((s.read == p32.read && s.written == p32.written && s.error == p32.error));
      CHECK(strict32 == std::u32string(o32.data(), p32.written));

      const std::u16string t16 = make_utf16(r, size, bad);
      const std::u32string t32 = make_utf32(r, size, bad);
      std::vector<char> o8(4 * size + 1);
      const u::conversion_result q16 = u::utf16_to_utf8(t16, o8.data());
      const std::string a16 = u::to_utf8(std::u16string_view(t16), s);
      CHECK((s.read == q16.read && s.written == q16.written && s.error == q16.error));
      CHECK(a16 == std::string(o8.data(), q16.written));
      CHECK(u::to_utf8_lossy(std::u16string_view(t16)) ==
            std::string(o8.data(), u::utf16_to_utf8(t16, o8.data(), u::replace{}).written));
      const u::conversion_result q32 = u::utf32_to_utf8(t32, o8.data());
      const std::string a32 = u::to_utf8(std::u32string_view(t32), s);
      CHECK((s.read == q32.read && s.written == q32.written && s.error == q32.error));
      CHECK(a32 == std::string(o8.data(), q32.written));
      CHECK(u::to_utf8_lossy(std::u32string_view(t32)) ==
            std::string(o8.data(), u::utf32_to_utf8(t32, o8.data(), u::replace{}).written));
#if UTF8DFA_HAS_EXCEPTIONS
      CHECK_NOTHROW(u::to_utf16(make_utf8(r, size, 0)));
      if (p16.error != u::error_code::none) CHECK_THROWS_AS(u::to_utf16(t8), u::conversion_error);
      if (q16.error != u::error_code::none) CHECK_THROWS_AS(u::to_utf8(std::u16string_view(t16)), u::conversion_error);
      if (q32.error != u::error_code::none) CHECK_THROWS_AS(u::to_utf8(std::u32string_view(t32)), u::conversion_error);
#endif
    }
  }
}

TEST_CASE("length helpers: the allocating conversions at their chunk edges") {
  // The allocating helpers convert long inputs in chunks (a few KiB of input each): an error, a
  // character or a surrogate pair at every position around the chunk edges gives the same string and
  // status as the pointer form (error code included: a character cut by a chunk end is not
  // `incomplete` when the whole input goes on).
  namespace u = utf8dfa;
  std::size_t bad = 0;
  std::string first;
  const auto expect = [&](bool ok, const char* what, std::size_t at) {
    if (!ok && bad++ == 0) first = std::string(what) + " at " + std::to_string(at);
  };
  const auto same = [](const u::conversion_result& a, const u::conversion_result& b) {
    return a.read == b.read && a.written == b.written && a.error == b.error;
  };
  for (const std::size_t edge :
       {std::size_t{4096}, std::size_t{5440}, std::size_t{5461}, std::size_t{8192}, std::size_t{16384}})
    for (std::size_t at = edge - 6; at <= edge + 6; ++at) {
      for (const char* piece : {"\xE2\x82", "\xF0\x9F\x98", "\xC3", "\x80", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"})
        for (const char* fill : {"a", "\xC3\xA9"}) {
          std::string s;
          while (s.size() < at) s += fill;
          s.resize(at, 'a');
          s += piece;
          while (s.size() < 3 * edge) s += fill;
          std::vector<char16_t> o16(s.size() + 1);
          std::vector<char32_t> o32(s.size() + 1);
          u::conversion_result st{};
          const std::u16string a16 = u::to_utf16(s, st);
          const u::conversion_result p16 = u::utf8_to_utf16(s, o16.data());
          expect(same(st, p16) && a16 == std::u16string(o16.data(), p16.written), "to_utf16", at);
          const std::u32string a32 = u::to_utf32(s, st);
          const u::conversion_result p32 = u::utf8_to_utf32(s, o32.data());
          expect(same(st, p32) && a32 == std::u32string(o32.data(), p32.written), "to_utf32", at);
          const u::conversion_result r16 = u::utf8_to_utf16(s, o16.data(), u::replace{});
          expect(u::to_utf16_lossy(s) == std::u16string(o16.data(), r16.written), "to_utf16_lossy", at);
        }
      for (const char16_t unit : {u'\xD83D', u'\xDE00', u'\x20AC'})
        for (const bool pair : {false, true}) {
          std::u16string t(3 * edge, u'\x439');
          t[at] = unit;
          if (pair) t[at + 1] = u'\xDE00';
          std::vector<char> o8(9 * edge + 4);
          u::conversion_result st{};
          const std::string a8 = u::to_utf8(std::u16string_view(t), st);
          const u::conversion_result p8 = u::utf16_to_utf8(t, o8.data());
          expect(same(st, p8) && a8 == std::string(o8.data(), p8.written), "to_utf8 (UTF-16)", at);
          const u::conversion_result r8 = u::utf16_to_utf8(t, o8.data(), u::replace{});
          expect(u::to_utf8_lossy(std::u16string_view(t)) == std::string(o8.data(), r8.written), "to_utf8_lossy", at);
          std::u32string w(3 * edge, U'\x1F600');
          w[at] = unit;
          std::vector<char> q8(12 * edge + 4);
          const std::string b8 = u::to_utf8(std::u32string_view(w), st);
          const u::conversion_result p32 = u::utf32_to_utf8(w, q8.data());
          expect(same(st, p32) && b8 == std::string(q8.data(), p32.written), "to_utf8 (UTF-32)", at);
        }
    }
  INFO(utf8dfa::active_kernel() << ": " << first);
  CHECK(bad == 0);
}

TEST_CASE("length helpers: the allocating conversions cut their pieces at multiples of 64 input units") {
  // On text of one-unit characters every piece but the first then starts with its input and output
  // offset by a multiple of 64 units from the whole call's, as aligned as one call would be.
  namespace u = utf8dfa;
  const std::u16string ascii(100000, u'a');
  std::vector<std::size_t> starts;
  u::conversion_result status{};
  const std::string out = u::detail::convert_in_chunks<std::string, 3>(
      ascii.data(), ascii.size(),
      [&](const char16_t* q, std::size_t m, char* o) {
        starts.push_back(static_cast<std::size_t>(q - ascii.data()));
        return u::utf16_to_utf8(std::u16string_view(q, m), o);
      },
      [](const char16_t* q, std::size_t cut) { return u::detail::utf16_chunk_end(q, cut); },
      [](const char16_t* q, std::size_t m) { return u::utf8_length_from_utf16(std::u16string_view(q, m)); }, status);
  CHECK(out == std::string(ascii.size(), 'a'));
  CHECK(status.read == ascii.size());
  CHECK(starts.size() > 2);
  for (const std::size_t at : starts) CHECK(at % 64 == 0);
}

// The compiled library with libstdc++'s new string ABI must have the setter (else its C++17 string
// conversions would quietly fill their strings again).
#if defined(UTF8DFA_SEPARATE_COMPILATION) && defined(__GLIBCXX__) && defined(_GLIBCXX_USE_CXX11_ABI) && \
    _GLIBCXX_USE_CXX11_ABI == 1 && !defined(UTF8DFA_DETAIL_SET_LENGTH_UNWRITTEN)
#error "utf8dfa::detail::set_length_unwritten is missing in the separate-compilation mode"
#endif
#if defined(UTF8DFA_DETAIL_SET_LENGTH_UNWRITTEN)
TEST_CASE("length helpers: the compiled library sets a string's length without writing its characters") {
  // The C++17 route of the allocating conversions with libstdc++ (transcode.hpp): the length moves,
  // what was written stays, a terminator follows, and the string goes on working.
  std::u16string s16 = u"abc";
  s16.reserve(100);
  utf8dfa::detail::set_length_unwritten(s16, 64);
  CHECK(s16.size() == 64);
  CHECK(s16.compare(0, 3, u"abc") == 0);
  CHECK(s16.c_str()[64] == u'\0');
  s16.resize(3);
  s16 += u"d";
  CHECK(s16 == u"abcd");
  std::u32string s32;
  s32.reserve(10);
  utf8dfa::detail::set_length_unwritten(s32, 10);
  CHECK(s32.size() == 10);
  CHECK(s32.c_str()[10] == U'\0');
  std::string s8(40, 'x');
  utf8dfa::detail::set_length_unwritten(s8, 5);
  CHECK(s8 == "xxxxx");
}
#endif

TEST_CASE("length helpers: the allocating conversions where they switch strategy, and when they grow or shrink") {
  // Input whose output bound fits 16 KiB (8192 bytes to UTF-16, 4096 to UTF-32, 5461 UTF-16 units,
  // 4096 UTF-32 units) is converted in one go; longer input is sized from its first chunk and the rest
  // converted in pieces that fit. A first chunk that writes less per unit than the rest makes the
  // string grow, more makes it shrink. At the sizes around the switch, with an error at its end, and
  // through those texts with an error every so often: the same string and status as the pointer form,
  // under strict, replace and skip, and no more than a quarter of spare capacity.
  namespace u = utf8dfa;
  std::size_t bad = 0;
  std::string first;
  const auto expect = [&](bool ok, const char* what, std::size_t size, std::size_t at) {
    if (!ok && bad++ == 0)
      first = std::string(what) + ", size " + std::to_string(size) + ", error at " + std::to_string(at);
  };
  const auto same = [](const u::conversion_result& a, const u::conversion_result& b) {
    return a.read == b.read && a.written == b.written && a.error == b.error;
  };
  const auto tight = [](const auto& str) { return str.capacity() <= str.size() + str.size() / 4 + 4096 + 32; };
  const auto check8 = [&](const std::string& s, std::size_t at) {
    std::vector<char16_t> o16(s.size() + 1);
    std::vector<char32_t> o32(s.size() + 1);
    u::conversion_result st{};
    const std::u16string a16 = u::to_utf16(s, st);
    const u::conversion_result p16 = u::utf8_to_utf16(s, o16.data());
    expect(same(st, p16) && a16 == std::u16string(o16.data(), p16.written) && tight(a16), "to_utf16", s.size(), at);
    const std::u32string a32 = u::to_utf32(s, st);
    const u::conversion_result p32 = u::utf8_to_utf32(s, o32.data());
    expect(same(st, p32) && a32 == std::u32string(o32.data(), p32.written) && tight(a32), "to_utf32", s.size(), at);
    const std::u16string l16 = u::to_utf16_lossy(s);
    expect(l16 == std::u16string(o16.data(), u::utf8_to_utf16(s, o16.data(), u::replace{}).written) && tight(l16),
           "to_utf16_lossy", s.size(), at);
    const std::u32string l32 = u::to_utf32_lossy(s, u::skip{});
    expect(l32 == std::u32string(o32.data(), u::utf8_to_utf32(s, o32.data(), u::skip{}).written) && tight(l32),
           "to_utf32_lossy (skip)", s.size(), at);
  };
  const auto check16 = [&](const std::u16string& t, std::size_t at) {
    std::vector<char> o8(3 * t.size() + 1);
    u::conversion_result st{};
    const std::string a8 = u::to_utf8(std::u16string_view(t), st);
    const u::conversion_result p8 = u::utf16_to_utf8(t, o8.data());
    expect(same(st, p8) && a8 == std::string(o8.data(), p8.written) && tight(a8), "to_utf8 (UTF-16)", t.size(), at);
    const std::string l8 = u::to_utf8_lossy(std::u16string_view(t), u::skip{});
    expect(l8 == std::string(o8.data(), u::utf16_to_utf8(t, o8.data(), u::skip{}).written) && tight(l8),
           "to_utf8_lossy (UTF-16, skip)", t.size(), at);
  };
  const auto check32 = [&](const std::u32string& t, std::size_t at) {
    std::vector<char> o8(4 * t.size() + 1);
    u::conversion_result st{};
    const std::string a8 = u::to_utf8(std::u32string_view(t), st);
    const u::conversion_result p8 = u::utf32_to_utf8(t, o8.data());
    expect(same(st, p8) && a8 == std::string(o8.data(), p8.written) && tight(a8), "to_utf8 (UTF-32)", t.size(), at);
    const std::string l8 = u::to_utf8_lossy(std::u32string_view(t));
    expect(l8 == std::string(o8.data(), u::utf32_to_utf8(t, o8.data(), u::replace{}).written) && tight(l8),
           "to_utf8_lossy (UTF-32)", t.size(), at);
  };
  const std::size_t none = ~std::size_t{0};
  // Around the switch: well-formed, an error as the last unit, a character cut by the end.
  for (const std::size_t edge : {std::size_t{4096}, std::size_t{5461}, std::size_t{8192}})
    for (std::size_t size = edge - 2; size <= edge + 2; ++size) {
      std::string s(size, 'a');
      check8(s, none);
      s[size - 1] = '\x80';
      check8(s, size - 1);
      s[size - 2] = '\xE2';
      s[size - 1] = '\x82';
      check8(s, size - 2);
      std::u16string t(size, u'a');
      check16(t, none);
      t[size - 1] = u'\xD83D';
      check16(t, size - 1);
      t[size - 1] = u'\xDE00';
      check16(t, size - 1);
      std::u32string w(size, U'a');
      check32(w, none);
      w[size - 1] = U'\xD800';
      check32(w, size - 1);
    }
  // A first chunk that misjudges the rest: CJK then ASCII (to UTF-16/32: grows), ASCII then CJK
  // (shrinks); to UTF-8 the other way round; an error every 2999 units.
  for (const bool grow : {false, true})
    for (std::size_t at = 0; at < 60000; at += 2999) {
      std::string s;
      while (s.size() < 60000) s += (s.size() < 9000) == grow ? "\xE4\xB8\xAD" : "a";
      if (at != 0) s[at] = '\xFF';
      check8(s, at);
      std::u16string t(30000, u'a');
      std::u32string w(30000, U'a');
      for (std::size_t i = grow ? 6000 : 0; i < (grow ? t.size() : 6000); ++i) {
        t[i] = u'\x4E2D';
        w[i] = U'\x1F600';
      }
      if (at != 0 && at < t.size()) {
        t[at] = u'\xDC00';
        w[at] = U'\x110000';
      }
      check16(t, at);
      check32(w, at);
    }
  // Strings past 256 KiB (C++17: converted in chunks on the stack and appended): errors around the
  // chunks' edges.
  for (const std::size_t at : {none, std::size_t{40959}, std::size_t{40960}, std::size_t{43687}, std::size_t{43688}}) {
    std::string s(9000, 'a');
    while (s.size() < 100000) s += "\xD0\x96";
    std::u16string t(100000, u'\x4E2D');
    std::u32string w(100000, U'\x1F600');
    if (at != none) {
      s[at] = '\xC3';
      t[at] = u'\xD800';
      w[at] = U'\xDFFF';
    }
    check8(s, at);
    check16(t, at);
    check32(w, at);
  }
  INFO(utf8dfa::active_kernel() << ": " << first);
  CHECK(bad == 0);
}

TEST_CASE("length helpers: every kernel agrees with the scalar one") {
  // The kernel table's length functions called directly, for every kernel this CPU runs.
  using namespace length_test;
  namespace d = utf8dfa::detail;
  std::size_t count = 0;
  const d::kernel_table* const* list = d::available_kernels(count);
  std::size_t bad_results = 0;
  std::string first;
  for (const unsigned bad : {0u, 9u}) {
    rng r{0xBEEF + bad};
    const std::string t8 = make_utf8(r, 4000, bad);
    const std::u16string t16 = make_utf16(r, 2000, bad);
    const std::u32string t32 = make_utf32(r, 1000, bad);
    const auto* p8 = reinterpret_cast<const unsigned char*>(t8.data());
    for (std::size_t len = 0; len < 700; len += 1 + len / 16)
      for (std::size_t k = 0; k < count; ++k) {
        const d::kernel_table& kt = *list[k];
        const d::kernel_table& sc = d::scalar_kernels;
        for (const char32_t rv : replacements) {
          const bool ok =
              kt.utf16_length_from_utf8(p8, len, rv) == sc.utf16_length_from_utf8(p8, len, rv) &&
              kt.utf32_length_from_utf8(p8, len, rv) == sc.utf32_length_from_utf8(p8, len, rv) &&
              kt.utf8_length_from_utf16(t16.data(), len, rv) == sc.utf8_length_from_utf16(t16.data(), len, rv) &&
              kt.utf8_length_from_utf32(t32.data(), len, rv) == sc.utf8_length_from_utf32(t32.data(), len, rv);
          if (!ok && bad_results++ == 0) first = std::string(kt.name) + " length " + std::to_string(len);
        }
      }
  }
  INFO(first);
  CHECK(bad_results == 0);
}

#if defined(UTF8DFA_TEST_HUGE_MAPPING)
TEST_CASE("length helpers: a count of 6e9 units (one page of text mapped again and again)") {
  // The vector counts keep partial sums in narrow lanes; a run long enough to overflow one that is
  // never widened must still be counted exactly. One 16 MiB page of UTF-32 (31 emoji and an 'A'
  // per 32 units: no block is within the BMP) mapped 1432 times: 24 GB read, no memory used.
  const std::string_view kernel = utf8dfa::active_kernel();
  if (kernel != "avx2" && kernel != "avx512") return;  // the scalar kernel would take seconds
  const std::size_t page = std::size_t{16} << 20, units = page / 4, pages = 1432;
  const int fd = static_cast<int>(memfd_create("utf8dfa-length-test", 0));
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(page)) != 0) {
    WARN("memfd_create failed: skipped");
    return;
  }
  void* w = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  void* base = mmap(nullptr, page * pages, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  bool mapped = w != MAP_FAILED && base != MAP_FAILED;
  if (mapped) {
    char32_t* text = static_cast<char32_t*>(w);
    for (std::size_t i = 0; i < units; ++i) text[i] = i % 32 == 0 ? U'A' : U'\U0001F600';
    for (std::size_t k = 0; k < pages && mapped; ++k)
      mapped = mmap(static_cast<char*>(base) + k * page, page, PROT_READ, MAP_SHARED | MAP_FIXED | MAP_POPULATE, fd,
                    0) != MAP_FAILED;
  }
  if (mapped) {
    const std::u32string_view in(static_cast<const char32_t*>(base), units * pages);
    CHECK(utf8dfa::utf8_length_from_utf32(in) == in.size() / 32 * (31 * 4 + 1));
  } else {
    WARN("mmap failed: skipped");
  }
  if (base != MAP_FAILED) munmap(base, page * pages);
  if (w != MAP_FAILED) munmap(w, page);
  close(fd);
}
#endif

namespace length_test {

/// What the assume_valid lengths are documented to return on any input (a plain loop over units).
inline std::size_t documented_utf16_length(std::string_view in) {
  std::size_t n = 0;
  for (const char c : in) {
    const auto b = static_cast<unsigned char>(c);
    n += std::size_t{(b & 0xC0) != 0x80} + std::size_t{b >= 0xF0};
  }
  return n;
}
inline std::size_t documented_utf32_length(std::string_view in) {
  std::size_t n = 0;
  for (const char c : in) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}
inline std::size_t documented_utf8_length(std::u16string_view in) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char16_t u = in[i];
    const bool pair = u >= 0xD800 && u <= 0xDBFF && i + 1 < in.size() && in[i + 1] >= 0xDC00 && in[i + 1] <= 0xDFFF;
    n += u < 0x80 ? 1 : u < 0x800 ? 2 : pair ? 4 : 3;  // a lone surrogate: U+FFFD, 3 bytes
    i += pair;
  }
  return n;
}
/// utf8_length_from_utf16(assume_valid)'s count: each unit on its own (a surrogate 2 bytes).
inline std::size_t documented_valid_utf8_length(std::u16string_view in) {
  std::size_t n = 0;
  for (const char16_t u : in) n += u < 0x80 ? 1 : u < 0x800 ? 2 : (u & 0xF800) == 0xD800 ? 2 : 3;
  return n;
}
inline std::size_t documented_utf8_length(std::u32string_view in) {
  std::size_t n = 0;
  for (const char32_t c : in) n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 || c > 0x10FFFF ? 3 : 4;
  return n;
}

/// The assume_valid lengths of one input, held in a buffer of exactly its size (so that a read past
/// it is caught by the sanitizers): the validating helpers' result on well-formed input, the
/// documented count on any input.
inline void check_assume_valid(const std::string& t8, const std::u16string& t16, const std::u32string& t32, failures& f,
                               std::size_t align) {
  namespace u = utf8dfa;
  const std::vector<char> b8(t8.begin(), t8.end());
  const std::vector<char16_t> b16(t16.begin(), t16.end());
  const std::vector<char32_t> b32(t32.begin(), t32.end());
  const std::string_view in8(b8.data(), b8.size());
  const std::u16string_view in16(b16.data(), b16.size());
  const std::u32string_view in32(b32.data(), b32.size());
  const std::size_t a16 = u::utf16_length_from_utf8(in8, u::assume_valid{});
  const std::size_t a32 = u::utf32_length_from_utf8(in8, u::assume_valid{});
  const std::size_t a8_16 = u::utf8_length_from_utf16(in16, u::assume_valid{});
  const std::size_t a8_32 = u::utf8_length_from_utf32(in32, u::assume_valid{});
  f.expect(a16 == documented_utf16_length(in8), "utf16_length_from_utf8(assume_valid): documented count", t8.size(),
           align);
  f.expect(a32 == documented_utf32_length(in8), "utf32_length_from_utf8(assume_valid): documented count", t8.size(),
           align);
  f.expect(a8_16 == documented_valid_utf8_length(in16), "utf8_length_from_utf16(assume_valid): documented count",
           t16.size(), align);
  f.expect(a8_32 == documented_utf8_length(in32), "utf8_length_from_utf32(assume_valid): documented count", t32.size(),
           align);
  if (u::is_valid(in8)) {
    f.expect(a16 == u::utf16_length_from_utf8(in8), "utf16_length_from_utf8(assume_valid) on valid", t8.size(), align);
    f.expect(a32 == u::utf32_length_from_utf8(in8), "utf32_length_from_utf8(assume_valid) on valid", t8.size(), align);
  }
  if (u::validate_utf16(in16))
    f.expect(a8_16 == u::utf8_length_from_utf16(in16), "utf8_length_from_utf16(assume_valid) on valid", t16.size(),
             align);
  if (u::validate_utf32(in32))
    f.expect(a8_32 == u::utf8_length_from_utf32(in32), "utf8_length_from_utf32(assume_valid) on valid", t32.size(),
             align);
}

}  // namespace length_test

TEST_CASE("length helpers: assume_valid, exact on well-formed input, the documented count on any input") {
  using namespace length_test;
  failures f;
  std::size_t valid_inputs = 0;
  for (const unsigned bad : {0u, 30u, 4u}) {
    rng r{0xA55 + bad};
    const std::string t8 = make_utf8(r, 400, bad);
    const std::u16string t16 = make_utf16(r, 400, bad);
    const std::u32string t32 = make_utf32(r, 400, bad);
    // Every length 0..300 from a few starting points (slices may cut characters: ill-formed then).
    for (std::size_t len = 0; len <= 300; ++len)
      for (const std::size_t at : {std::size_t{0}, std::size_t{1}, std::size_t{37}, std::size_t{64}}) {
        check_assume_valid(t8.substr(at, len), t16.substr(at, len), t32.substr(at, len), f, at);
        valid_inputs += utf8dfa::is_valid(std::string_view(t8).substr(at, len));
      }
    // Long inputs: past the kernels' counter flushes and the 4096-unit blocks of the UTF-16/32 sums.
    const std::string l8 = make_utf8(r, 300000, bad);
    const std::u16string l16 = make_utf16(r, 20000, bad);
    const std::u32string l32 = make_utf32(r, 20000, bad);
    check_assume_valid(l8, l16, l32, f, 0);
    check_assume_valid(l8.substr(3), l16.substr(3), l32.substr(3), f, 3);
  }
  INFO(utf8dfa::active_kernel() << ": " << f.first);
  CHECK(f.count == 0);
  CHECK(valid_inputs > 300);  // the well-formed comparison did run
  // Documented values on ill-formed input, one by one.
  using utf8dfa::assume_valid;
  CHECK(utf8dfa::utf16_length_from_utf8(std::string_view("\x80\xBF"), assume_valid{}) == 0);
  CHECK(utf8dfa::utf16_length_from_utf8(std::string_view("\xF5\xFF"), assume_valid{}) == 4);
  CHECK(utf8dfa::utf32_length_from_utf8(std::string_view("\xE2\x82"), assume_valid{}) == 1);
  CHECK(utf8dfa::utf8_length_from_utf16(std::u16string_view(u"\xD800"
                                                            u"a"),
                                        assume_valid{}) == 3);  // the lone surrogate 2, 'a' 1
  CHECK(utf8dfa::utf8_length_from_utf32(std::u32string_view(U"\xD800\x110000"), assume_valid{}) == 6);
  // One byte repeated past the kernels' byte-wide sums (every lane of every vector at its most).
  for (const unsigned b : {0x00u, 0x7Fu, 0x80u, 0xBFu, 0xC3u, 0xEFu, 0xF0u, 0xFFu})
    for (const std::size_t n : {std::size_t{8127}, std::size_t{8192}, std::size_t{20000}, std::size_t{70001}}) {
      const std::string s(n, static_cast<char>(b));
      const std::size_t weight = b >= 0x80 && b < 0xC0 ? 0 : b >= 0xF0 ? 2 : 1;
      INFO("byte " << b << ", length " << n);
      CHECK(utf8dfa::utf16_length_from_utf8(s, assume_valid{}) == n * weight);
      CHECK(utf8dfa::utf32_length_from_utf8(s, assume_valid{}) == n * (weight != 0));
    }
  // ASCII text with one other character every 64 units, past the vector counts' lane widenings (no
  // 64-unit step all ASCII, every lane at its most), or every 200 (ASCII steps between others), or
  // that character alone (every lane at its most in the other way).
  for (const char32_t other : {U'\u00E9', U'\u20AC', U'\U0001F600', char32_t{0x110000}})
    for (const std::size_t n : {std::size_t{300000}, std::size_t{300017}, std::size_t{3001}, std::size_t{300001}}) {
      const std::size_t every = n == 3001 ? 200 : n == 300001 ? 1 : 64;
      std::u32string s32(n, U'a');
      for (std::size_t i = every == 1 ? 0 : 5; i < n; i += every) s32[i] = other;
      std::u16string s16;
      for (const char32_t c : s32)
        if (c >= 0x10000) {
          s16 += static_cast<char16_t>(0xD7C0 + (c >> 10));
          s16 += static_cast<char16_t>(0xDC00 + (c & 0x3FF));
        } else {
          s16 += static_cast<char16_t>(c);
        }
      const std::size_t others = every == 1 ? n : (n - 5 + every - 1) / every;
      const std::size_t width = other < 0x800 ? 2 : other < 0x10000 || other > 0x10FFFF ? 3 : 4;
      INFO("U+" << std::hex << static_cast<unsigned>(other) << std::dec << ", length " << n);
      CHECK(utf8dfa::utf8_length_from_utf32(s32, assume_valid{}) == n + others * (width - 1));
      if (other <= 0x10FFFF) CHECK(utf8dfa::utf8_length_from_utf16(s16, assume_valid{}) == n + others * (width - 1));
    }
}
}  // namespace utf8dfa_test_length
