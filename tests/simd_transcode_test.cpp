// The SIMD transcoding kernels against the scalar functions, byte for byte: read, written, error,
// output, and nothing written past `written` (canaries), for strict and replace policies, on valid
// multilingual text, random bytes, planted errors at every position, every short length, sequences
// straddling vector boundaries and inputs ending right before an unmapped page.
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "guard_pages.hpp"
#include "sample.hpp"
#include "utf8dfa.hpp"
#include "utf8dfa/detail/cpu.hpp"
#include "utf8dfa/detail/dispatch.hpp"
#include "utf8dfa/detail/scalar.hpp"
#include "utf8dfa/detail/scalar_kernels.hpp"
#include "utf8dfa/detail/simd/avx2/kernels.hpp"
#include "utf8dfa/detail/simd/avx2/transcode.hpp"
#include "utf8dfa/detail/simd/avx2/validate.hpp"
#include "utf8dfa/detail/simd/avx512/transcode.hpp"
#include "utf8dfa/detail/simd/neon/kernels.hpp"

namespace utf8dfa_test_simd_transcode {  // the file's own names (the suite also builds as unity sources)

namespace {

using utf8dfa::conversion_result;
using utf8dfa::error_code;
namespace d = utf8dfa::detail;

using u8_to_32 = d::packed_conversion (*)(const unsigned char*, std::size_t, char32_t*, char32_t) noexcept;
using u8_to_16 = d::packed_conversion (*)(const unsigned char*, std::size_t, char16_t*, char32_t) noexcept;
using u16_to_8 = d::packed_conversion (*)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept;
using u32_to_8 = d::packed_conversion (*)(const char32_t*, std::size_t, unsigned char*, char32_t) noexcept;

struct simd_kernel {
  const char* name;
  bool supported;
  u8_to_32 to32;
  u8_to_16 to16;
  u16_to_8 from16;
  u32_to_8 from32;
};

std::vector<simd_kernel> kernels_under_test() {
  std::vector<simd_kernel> k;
#if UTF8DFA_X86_KERNELS
  __builtin_cpu_init();
  const bool has512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
                      __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
                      __builtin_cpu_supports("bmi2");
  k.push_back({"avx512", has512, &d::avx512::utf8_to_utf32, &d::avx512::utf8_to_utf16, &d::avx512::utf16_to_utf8,
               &d::avx512::utf32_to_utf8});
  const bool has2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
  k.push_back({"avx2", has2, &d::avx2::utf8_to_utf32, &d::avx2::utf8_to_utf16, &d::avx2::utf16_to_utf8,
               &d::avx2::utf32_to_utf8});
  // As the dispatcher calls them: short inputs through the scalar DFA or a padded copy (short_input.hpp).
  k.push_back({"avx2 table", has2, d::avx2::table.utf8_to_utf32, d::avx2::table.utf8_to_utf16,
               d::avx2::table.utf16_to_utf8, d::avx2::table.utf32_to_utf8});
#endif
#if UTF8DFA_NEON_KERNELS
  k.push_back({"neon", true, &d::neon::utf8_to_utf32, &d::neon::utf8_to_utf16, &d::neon::utf16_to_utf8,
               &d::neon::utf32_to_utf8});
  k.push_back({"neon table", true, d::neon::table.utf8_to_utf32, d::neon::table.utf8_to_utf16,
               d::neon::table.utf16_to_utf8, d::neon::table.utf32_to_utf8});
#endif
  return k;
}

// The replacement values exercised: strict, U+FFFD, a chosen one, an invalid one (which the
// policy turns back into U+FFFD), and assume_valid.
constexpr char32_t replacements[] = {d::strict_marker, 0xFFFD, U'?', 0x1F600, 0xD800, d::valid_marker};

struct tally {
  std::size_t cases = 0;
  std::string failure;
};

tally& stats() {
  static tally t;
  return t;
}

template <class Out>
constexpr Out canary() {
  return static_cast<Out>(sizeof(Out) == 1 ? 0xA5 : sizeof(Out) == 2 ? 0xA5A5 : 0xA5A5A5A5);
}

std::string describe(const char* what, const char* kernel, char32_t repl, std::size_t n, const conversion_result& want,
                     const conversion_result& got) {
  std::ostringstream s;
  s << what << " kernel=" << kernel << " replacement=" << std::hex << static_cast<std::uint32_t>(repl) << std::dec
    << " n=" << n << " want{" << want.read << "," << want.written << "," << int(want.error) << "} got{" << got.read
    << "," << got.written << "," << int(got.error) << "}";
  return s.str();
}

/// Runs `kernel` and `reference` on the same input with canary-filled outputs and compares.
template <class In, class Out, class K, class R>
void compare(const char* what, const char* kname, const In* in, std::size_t n, std::size_t out_cap, K kernel,
             R reference) {
  static std::vector<Out> want_buf, got_buf;
  const std::size_t cap = out_cap + 64;
  for (char32_t repl : replacements) {
    want_buf.assign(cap, canary<Out>());
    got_buf.assign(cap, canary<Out>());
    // (assume_valid from UTF-8: compared with replace's output, which it must equal on well-formed
    // input and stay within on ill-formed input; the scalar kernel's own assume_valid skips the DFA.)
    const bool valid_utf8 = sizeof(In) == 1 && repl == d::valid_marker;
    const conversion_result want = reference(in, n, want_buf.data(), valid_utf8 ? char32_t{0xFFFD} : repl);
    const conversion_result got = kernel(in, n, got_buf.data(), repl);
    ++stats().cases;
    bool ok = want.read == got.read && want.written == got.written && want.error == got.error &&
              std::memcmp(want_buf.data(), got_buf.data(), cap * sizeof(Out)) == 0;
    if (valid_utf8 && want.error != utf8dfa::error_code::none) {
      // assume_valid on ill-formed UTF-8 (kernel_table.hpp): anything, within replace's output;
      // the whole input read, and nothing written past what is reported.
      ok = got.read == n && got.written <= want.written;
      for (std::size_t k = got.written; ok && k < cap; ++k) ok = got_buf[k] == canary<Out>();
    }
    if (!ok && stats().failure.empty()) {
      std::string msg = describe(what, kname, repl, n, want, got);
      for (std::size_t k = 0; k < cap; ++k)
        if (want_buf[k] != got_buf[k]) {
          msg += " first output difference at unit " + std::to_string(k) + ": want " +
                 std::to_string(static_cast<std::uint32_t>(want_buf[k])) + " got " +
                 std::to_string(static_cast<std::uint32_t>(got_buf[k]));
          break;
        }
      stats().failure = msg;
    }
  }
}

conversion_result scalar_to32(const unsigned char* p, std::size_t n, char32_t* o, char32_t r) noexcept {
  return d::scalar_kernels.utf8_to_utf32(p, n, o, r);
}
conversion_result scalar_to16(const unsigned char* p, std::size_t n, char16_t* o, char32_t r) noexcept {
  return d::scalar_kernels.utf8_to_utf16(p, n, o, r);
}
conversion_result scalar_from16(const char16_t* p, std::size_t n, unsigned char* o, char32_t r) noexcept {
  return d::scalar_kernels.utf16_to_utf8(p, n, o, r);
}
conversion_result scalar_from32(const char32_t* p, std::size_t n, unsigned char* o, char32_t r) noexcept {
  return d::scalar_kernels.utf32_to_utf8(p, n, o, r);
}

void check_utf8(const simd_kernel& k, const unsigned char* p, std::size_t n) {
  compare<unsigned char, char32_t>("utf8_to_utf32", k.name, p, n, n, k.to32, scalar_to32);
  compare<unsigned char, char16_t>("utf8_to_utf16", k.name, p, n, n, k.to16, scalar_to16);
}
void check_utf16(const simd_kernel& k, const char16_t* p, std::size_t n) {
  compare<char16_t, unsigned char>("utf16_to_utf8", k.name, p, n, 3 * n, k.from16, scalar_from16);
}
void check_utf32(const simd_kernel& k, const char32_t* p, std::size_t n) {
  compare<char32_t, unsigned char>("utf32_to_utf8", k.name, p, n, 4 * n, k.from32, scalar_from32);
}

void check_utf8(const simd_kernel& k, const std::vector<unsigned char>& v) {
  check_utf8(k, v.data(), v.size());
}
void check_utf16(const simd_kernel& k, const std::u16string& v) {
  check_utf16(k, v.data(), v.size());
}
void check_utf32(const simd_kernel& k, const std::u32string& v) {
  check_utf32(k, v.data(), v.size());
}

// ---- inputs

/// A random scalar value of the given UTF-8 width (1..4); 0 picks a width at random.
char32_t random_scalar(std::mt19937& rng, int width) {
  if (width == 0) width = 1 + static_cast<int>(rng() % 4);
  for (;;) {
    char32_t c = 0;
    switch (width) {
      case 1:
        c = rng() % 0x80;
        break;
      case 2:
        c = 0x80 + rng() % (0x800 - 0x80);
        break;
      case 3:
        c = 0x800 + rng() % (0x10000 - 0x800);
        break;
      default:
        c = 0x10000 + rng() % (0x110000 - 0x10000);
        break;
    }
    if (c < 0xD800 || c > 0xDFFF) return c;
  }
}

/// Random text: `mix` gives the chance (out of 100) of each width 1..4, e.g. {70, 20, 8, 2}.
std::u32string random_text(std::mt19937& rng, std::size_t chars, const int* mix) {
  std::u32string s;
  const int total = mix[0] + mix[1] + mix[2] + mix[3];
  for (std::size_t k = 0; k < chars; ++k) {
    int r = static_cast<int>(rng() % static_cast<unsigned>(total)), w = 0;
    while (r >= mix[w]) r -= mix[w++];
    s.push_back(random_scalar(rng, w + 1));
  }
  return s;
}

std::vector<unsigned char> to_utf8(const std::u32string& s) {
  std::vector<unsigned char> v;
  unsigned char buf[4];
  for (char32_t c : s) v.insert(v.end(), buf, buf + d::put_utf8(buf, c));
  return v;
}

std::u16string to_utf16(const std::u32string& s) {
  std::u16string v;
  char16_t buf[2];
  for (char32_t c : s) v.append(buf, static_cast<std::size_t>(d::put_unit(buf, c) - buf));
  return v;
}

constexpr int mixes[][4] = {{100, 0, 0, 0}, {0, 100, 0, 0},   {0, 0, 100, 0},  {0, 0, 0, 100},
                            {70, 20, 8, 2}, {25, 25, 25, 25}, {10, 60, 30, 0}, {30, 0, 70, 0},
                            {50, 0, 0, 50}, {97, 1, 1, 1},    {0, 40, 60, 0}};

}  // namespace

TEST_CASE("SIMD transcoding: valid multilingual text, all widths and mixes") {
  std::mt19937 rng(1);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (const auto& mix : mixes)
      for (int rep = 0; rep < 40; ++rep) {
        const std::u32string s = random_text(rng, rng() % 700, mix);
        check_utf8(k, to_utf8(s));
        check_utf16(k, to_utf16(s));
        check_utf32(k, s);
      }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: blocks of 1- and 3-byte forms, every pattern of each 4 units, at every end") {
  // The UTF-16 and UTF-32 encoders pack 4 units at a time by which of them are 3-byte forms: every
  // such pattern at each quarter of a 16-unit block, the rest random, the input cut after the
  // block at each unit (the last stores exact), or followed by an unpaired surrogate.
  std::mt19937 rng(12);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (unsigned quarter = 0; quarter < 4; ++quarter)
      for (unsigned pattern = 0; pattern < 16; ++pattern) {
        std::u32string s;
        for (unsigned u = 0; u < 32; ++u) {
          const bool three = u / 4 == quarter ? ((pattern >> (u % 4)) & 1u) != 0 : rng() % 2 == 0;
          s.push_back(random_scalar(rng, three ? 3 : 1));
        }
        for (std::size_t n = 16; n <= s.size(); n += 1 + rng() % 3) {
          const std::u32string t = s.substr(0, n);
          check_utf16(k, to_utf16(t));
          check_utf32(k, t);
          check_utf8(k, to_utf8(t));
        }
        std::u16string bad = to_utf16(s);
        bad[16 + rng() % 16] = static_cast<char16_t>(0xD800 + rng() % 0x800);
        check_utf16(k, bad);
        std::u32string bad32 = s;
        bad32[16 + rng() % 16] = static_cast<char32_t>(0xD800 + rng() % 0x800);
        check_utf32(k, bad32);
      }
    // UTF-32 blocks of supplementary characters only (written in place), with a value above
    // U+10FFFF, a surrogate or a BMP character at each unit.
    for (std::size_t at = 0; at < 40; ++at)
      for (char32_t odd : {char32_t{0x110000}, char32_t{0xDFFF}, char32_t{0xFFFF}, char32_t{0x41}}) {
        std::u32string s;
        for (int u = 0; u < 40; ++u) s.push_back(random_scalar(rng, 4));
        s[at] = odd;
        check_utf32(k, s);
        check_utf32(k, s.substr(0, 16 + at % 8));
      }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: blocks of 1-, 2- and 3-byte forms, every pattern of each 4 units") {
  // The UTF-16 and UTF-32 encoders pack 4 units at a time by the lengths of their forms: every
  // pattern of 1-, 2- and 3-byte forms at one quarter of every 16-unit block (the rest random), in
  // inputs long enough for the 64-unit loop, and cut at a few ends.
  std::mt19937 rng(13);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (unsigned quarter = 0; quarter < 4; ++quarter)
      for (unsigned pattern = 0; pattern < 81; ++pattern) {
        std::u32string s;
        for (unsigned u = 0; u < 100; ++u) {
          auto width = static_cast<unsigned>(1 + rng() % 3);
          if (u % 16 / 4 == quarter) {
            unsigned digits = pattern;
            for (unsigned j = 0; j < u % 4; ++j) digits /= 3;
            width = 1 + digits % 3;
          }
          s.push_back(random_scalar(rng, static_cast<int>(width)));
        }
        check_utf16(k, to_utf16(s));
        check_utf32(k, s);
        const std::u32string t = s.substr(0, 16 + rng() % 84);
        check_utf16(k, to_utf16(t));
        check_utf32(k, t);
      }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: 64-unit blocks with an odd unit at every position") {
  // UTF-16 and UTF-32 go 64 units at a time when they are ASCII, BMP characters (the 16 units after
  // them checked before full-width stores) or surrogate pairs only (4-byte forms): put an unpaired
  // surrogate, a character of another width or a value out of range at each of the first 100 units,
  // also a character of the other width at the start (pairs out of step with the blocks).
  constexpr int contents[][4] = {{100, 0, 0, 0}, {50, 50, 0, 0}, {30, 0, 70, 0}, {40, 30, 30, 0}, {0, 0, 0, 100}};
  std::mt19937 rng(14);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (const auto& mix : contents) {
      const std::u32string s = random_text(rng, 110, mix);
      const std::u16string w = to_utf16(s).substr(0, 110);
      for (std::size_t at = 0; at < 100; ++at) {
        for (char16_t odd : {u'\xD800', u'\xDFFF', u'A', u'\x20AC', u'\x0416'}) {
          std::u16string v = w;
          v[at] = odd;
          check_utf16(k, v);
          check_utf16(k, v.substr(1));
        }
        for (char32_t odd : {char32_t{0xD800}, char32_t{0x110000}, char32_t{0x41}, char32_t{0x7FF}, char32_t{0xFFFD},
                             char32_t{0x1F600}}) {
          std::u32string v = s;
          v[at] = odd;
          check_utf32(k, v);
        }
      }
      for (std::size_t n = 64; n <= 100; n += 1 + rng() % 4) {
        check_utf16(k, w.substr(0, n));
        check_utf16(k, u"\x20AC" + w.substr(0, n));
        check_utf32(k, s.substr(0, n));
      }
    }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: random bytes and units") {
  std::mt19937 rng(2);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (int rep = 0; rep < 1500; ++rep) {
      const std::size_t n = rng() % 300;
      std::vector<unsigned char> b(n);
      const unsigned style = rep % 3;  // uniform, mostly ASCII, mostly C0..FF/80..BF
      for (auto& x : b) {
        const unsigned r = rng();
        x = static_cast<unsigned char>(style == 0   ? r
                                       : style == 1 ? (r % 8 == 0 ? r >> 8 : r % 0x80)
                                                    : 0x80 + (r >> 8) % 0x80);
      }
      check_utf8(k, b);
      std::u16string w(n, u'\0');
      for (auto& x : w) {
        const unsigned r = rng();
        x = static_cast<char16_t>(style == 0   ? r
                                  : style == 1 ? (r % 4 == 0 ? 0xD800 + (r >> 8) % 0x800 : r % 0x900)
                                               : 0xD800 + (r >> 8) % 0x800);
      }
      check_utf16(k, w);
      std::u32string u(n, U'\0');
      for (auto& x : u) {
        const std::uint32_t r = static_cast<std::uint32_t>(rng());
        x = static_cast<char32_t>(style == 0 ? r : style == 1 ? r % 0x110800 : 0xD000 + r % 0x1000);
      }
      check_utf32(k, u);
    }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: every UTF-8 error kind at every position") {
  // Each is planted over the base text; the last ones are cut at the end of the input when planted there.
  const std::vector<std::vector<unsigned char>> errors = {{0xC0},
                                                          {0xC1, 0x80},
                                                          {0xF5},
                                                          {0xFF},
                                                          {0x80},
                                                          {0xBF, 0xBF},
                                                          {0xE0, 0x80},
                                                          {0xE0, 0x9F, 0xBF},
                                                          {0xED, 0xA0, 0x80},
                                                          {0xF4, 0x90, 0x80, 0x80},
                                                          {0xF0, 0x8F, 0xBF, 0xBF},
                                                          {0xC3, 0x41},
                                                          {0xE1, 0x80, 0x41},
                                                          {0xF1, 0x80, 0x80, 0x41},
                                                          {0xC3},
                                                          {0xE2, 0x82},
                                                          {0xF0, 0x9F, 0x98},
                                                          {0xF8, 0x88, 0x80, 0x80, 0x80}};
  std::mt19937 rng(3);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    // ASCII, mixed, all four widths, 3-byte forms only, 2- and 3-byte forms only.
    for (const auto& mix : {mixes[0], mixes[4], mixes[5], mixes[2], mixes[10]}) {
      const std::vector<unsigned char> base = to_utf8(random_text(rng, 200, mix));
      // (Short lengths: inputs and tails that the kernels convert in a padded copy.)
      for (std::size_t len : {std::size_t{8}, std::size_t{13}, std::size_t{31}, std::size_t{39}, std::size_t{47},
                              std::size_t{64}, std::size_t{71}, std::size_t{128}, std::size_t{200}}) {
        if (len > base.size()) continue;
        for (const auto& e : errors)
          for (std::size_t at = 0; at < len; ++at) {
            if (at >= 64 && at < len - 64 && len > 128) continue;  // first block and the last 64 bytes
            std::vector<unsigned char> v(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(len));
            for (std::size_t j = 0; j < e.size() && at + j < len; ++j) v[at + j] = e[j];
            check_utf8(k, v);
          }
      }
    }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: every length 0..256 and sequences straddling vector boundaries") {
  std::mt19937 rng(4);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (const auto& mix : mixes) {
      const std::u32string s = random_text(rng, 300, mix);
      const std::vector<unsigned char> b = to_utf8(s);
      const std::u16string w = to_utf16(s);
      for (std::size_t n = 0; n <= 256; ++n) {
        check_utf8(k, b.data(), n < b.size() ? n : b.size());  // cuts characters: incomplete at the end
        check_utf16(k, w.data(), n < w.size() ? n : w.size());
        check_utf32(k, s.data(), n < s.size() ? n : s.size());
      }
    }
    // Every alignment of 2-, 3- and 4-byte characters against the 64-byte blocks, and of
    // surrogate pairs against the 16/32-unit groups.
    for (int width = 2; width <= 4; ++width)
      for (std::size_t pad = 0; pad < 64; ++pad) {
        std::u32string s(pad, U'a');
        const std::u32string t = random_text(rng, 100, mixes[width - 1]);
        s += t;
        check_utf8(k, to_utf8(s));
        check_utf16(k, to_utf16(s));
        check_utf32(k, s);
      }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: unpaired surrogates and invalid UTF-32 at every position") {
  std::mt19937 rng(5);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (const auto& mix : {mixes[4], mixes[3], mixes[1], mixes[8], mixes[2]}) {
      const std::u32string s = random_text(rng, 150, mix);
      const std::u16string w = to_utf16(s).substr(0, 130);
      for (char16_t bad : {u'\xD800', u'\xDBFF', u'\xDC00', u'\xDFFF'})
        for (std::size_t at = 0; at < w.size(); ++at) {
          std::u16string v = w;
          v[at] = bad;
          check_utf16(k, v);
          check_utf16(k, v.data(), at + 1);  // ending on it
        }
      const std::u32string u = s.substr(0, 130);
      for (char32_t bad :
           {char32_t{0xD800}, char32_t{0xDFFF}, char32_t{0x110000}, char32_t{0xFFFFFFFF}, char32_t{0x80000000}})
        for (std::size_t at = 0; at < u.size(); ++at) {
          std::u32string v = u;
          v[at] = bad;
          check_utf32(k, v);
        }
    }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: an error at every position of the block after a vector block (full-width stores)") {
  // A block may write past its result only when the next one is known to be well-formed: plant an
  // error at every position of the next few blocks, after text of each width and mix.
  const std::vector<std::vector<unsigned char>> errors = {
      {0x80}, {0xC3, 0x41}, {0xE2, 0x82}, {0xED, 0xA0, 0x80}, {0xF0, 0x9F, 0x98}, {0xF4, 0x90, 0x80, 0x80}, {0xFF}};
  std::mt19937 rng(10);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (const auto& mix : {mixes[1], mixes[2], mixes[3], mixes[6], mixes[7], mixes[8], mixes[10], mixes[5]}) {
      const std::u32string s = random_text(rng, 120, mix);
      const std::vector<unsigned char> b = to_utf8(s);
      const std::u16string w = to_utf16(s);
      for (std::size_t at = 0; at < 160 && at < b.size(); ++at)
        for (const auto& e : errors) {
          std::vector<unsigned char> v = b;
          for (std::size_t j = 0; j < e.size() && at + j < v.size(); ++j) v[at + j] = e[j];
          check_utf8(k, v);
        }
      for (std::size_t at = 0; at < 80 && at < w.size(); ++at)
        for (char16_t bad : {u'\xD800', u'\xDC00', u'\xDBFF'}) {
          std::u16string v = w;
          v[at] = bad;
          check_utf16(k, v);
        }
      for (std::size_t at = 0; at < 80 && at < s.size(); ++at)
        for (char32_t bad : {char32_t{0xDFFF}, char32_t{0x110000}}) {
          std::u32string v = s;
          v[at] = bad;
          check_utf32(k, v);
        }
    }
    // Surrogate pairs at every unit of a block and across its end (units 15 and 16), between BMP
    // characters of 1, 2 and 3 bytes.
    for (int width = 1; width <= 3; ++width)
      for (std::size_t pad = 0; pad < 40; ++pad) {
        std::u32string t = random_text(rng, pad, mixes[width - 1]);
        t += random_text(rng, 3, mixes[3]);
        t += random_text(rng, 40, mixes[width - 1]);
        check_utf16(k, to_utf16(t));
        check_utf8(k, to_utf8(t));
        check_utf32(k, t);
      }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: long text with a few errors (the replace path resumes the vector loop)") {
  const std::vector<std::vector<unsigned char>> errors = {{0xC0},       {0x80},       {0xE0, 0x80},       {0xED, 0xA0},
                                                          {0xF4, 0x90}, {0xE1, 0x41}, {0xF0, 0x9F, 0x98}, {0xFF, 0xFE}};
  std::mt19937 rng(8);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (const auto& mix : mixes)
      for (int rep = 0; rep < 20; ++rep) {
        const std::u32string s = random_text(rng, 1000 + rng() % 2000, mix);
        std::vector<unsigned char> b = to_utf8(s);
        std::u16string w = to_utf16(s);
        std::u32string u = s;
        for (unsigned e = 1 + rng() % 6; e > 0; --e) {
          const auto& err = errors[rng() % errors.size()];
          const std::size_t at = rng() % b.size();
          for (std::size_t j = 0; j < err.size() && at + j < b.size(); ++j) b[at + j] = err[j];
          w[rng() % w.size()] = static_cast<char16_t>(0xD800 + rng() % 0x800);
          u[rng() % u.size()] = rng() % 2 ? char32_t{0xDABC} : static_cast<char32_t>(0x110000 + rng() % 0x1000);
        }
        check_utf8(k, b);
        check_utf16(k, w);
        check_utf32(k, u);
      }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: assume_valid on damaged text stays within replace's output") {
  // Valid text with damage that an unchecked decoder must survive: runs of 1..7 continuation
  // bytes, lone and cut leads, overlong and surrogate forms, bytes F5..FF, bytes dropped.
  static const std::vector<std::vector<unsigned char>> damage = {{0x80},
                                                                 {0xBF, 0x80},
                                                                 {0x80, 0x80, 0x80},
                                                                 {0x80, 0x80, 0x80, 0x80},
                                                                 {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80},
                                                                 {0xC2},
                                                                 {0xE2, 0x82},
                                                                 {0xF0, 0x9F, 0x98},
                                                                 {0xC0, 0xAF},
                                                                 {0xE0, 0x80, 0xAF},
                                                                 {0xF0, 0x80, 0x80, 0xAF},
                                                                 {0xED, 0xA0, 0x80},
                                                                 {0xF4, 0x90, 0x80, 0x80},
                                                                 {0xF8, 0x88, 0x80, 0x80, 0x80},
                                                                 {0xFF},
                                                                 {0xF0, 0x80, 0x80, 0x80, 0x80},
                                                                 {0xE2, 0x80, 0x80, 0x80},
                                                                 {0xC3, 0x80, 0x80}};
  std::mt19937 rng(11);
  // The scalar kernel too: its assume_valid passes the DFA by (scalar.hpp, decode_run).
  std::vector<simd_kernel> under_test = kernels_under_test();
  under_test.push_back({"scalar", true, d::scalar_kernels.utf8_to_utf32, d::scalar_kernels.utf8_to_utf16,
                        d::scalar_kernels.utf16_to_utf8, d::scalar_kernels.utf32_to_utf8});
  for (const simd_kernel& k : under_test) {
    if (!k.supported) continue;
    for (int rep = 0; rep < 400; ++rep) {
      const std::u32string s = random_text(rng, 20 + rng() % 300, mixes[rep % 11]);
      std::vector<unsigned char> b = to_utf8(s);
      const int hits = 1 + static_cast<int>(rng() % 12);
      for (int h = 0; h < hits && !b.empty(); ++h) {
        const std::size_t at = rng() % b.size();
        if (rng() % 4 == 0) {
          b.erase(b.begin() + static_cast<std::ptrdiff_t>(at));
        } else {
          const auto& dmg = damage[rng() % damage.size()];
          b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), dmg.begin(), dmg.end());
        }
      }
      check_utf8(k, b);
    }
    // Spill stores near the end: an ASCII run, then 16..45 bytes of 3- or 4-byte forms only (the
    // fewest units a byte), whole or damaged.
    for (int rep = 0; rep < 600; ++rep) {
      std::vector<unsigned char> b(60 + rng() % 90, static_cast<unsigned char>('a' + rng() % 26));
      const std::size_t tail = 16 + rng() % 30;
      const int width = 3 + static_cast<int>(rng() % 2);
      std::u32string t;
      while (to_utf8(t).size() < tail) t.push_back(random_scalar(rng, width));
      const std::vector<unsigned char> forms = to_utf8(t);
      b.insert(b.end(), forms.begin(), forms.end());
      if (rep % 2 == 1) {
        const auto& dmg = damage[rng() % damage.size()];
        const std::size_t at = b.size() - 1 - rng() % 40;
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), dmg.begin(), dmg.end());
      }
      check_utf8(k, b);
    }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

#if UTF8DFA_TEST_GUARD_PAGES
TEST_CASE("SIMD transcoding: input ending right before an unmapped page") {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  REQUIRE(mprotect(static_cast<char*>(map) + page, page, PROT_NONE) == 0);
  unsigned char* const end = static_cast<unsigned char*>(map) + page;
  std::mt19937 rng(6);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (const auto& mix : {mixes[0], mixes[4], mixes[5], mixes[3]}) {
      const std::u32string s = random_text(rng, 300, mix);
      const std::vector<unsigned char> b = to_utf8(s);
      const std::u16string w = to_utf16(s);
      for (std::size_t n = 0; n <= 300; ++n) {
        const std::size_t n8 = n < b.size() ? n : b.size();
        std::memcpy(end - n8, b.data() + b.size() - n8, n8);  // suffixes: may start mid-character
        check_utf8(k, end - n8, n8);
        const std::size_t n16 = n < w.size() ? n : w.size();
        std::memcpy(end - 2 * n16, w.data() + w.size() - n16, 2 * n16);
        check_utf16(k, reinterpret_cast<const char16_t*>(end - 2 * n16), n16);
        const std::size_t n32 = n < s.size() ? n : s.size();
        std::memcpy(end - 4 * n32, s.data() + s.size() - n32, 4 * n32);
        check_utf32(k, reinterpret_cast<const char32_t*>(end - 4 * n32), n32);
      }
    }
  }
  munmap(map, 2 * page);
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: output ending right before an unmapped page") {
  // The output buffer is exactly as long as the conversion needs: a write past it would fault.
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  REQUIRE(mprotect(static_cast<char*>(map) + 2 * page, page, PROT_NONE) == 0);
  unsigned char* const end = static_cast<unsigned char*>(map) + 2 * page;
  std::mt19937 rng(7);
  std::size_t mismatches = 0;
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (const auto& mix : {mixes[0], mixes[4], mixes[5], mixes[3], mixes[2]})
      for (int rep = 0; rep < 40; ++rep) {
        const std::u32string s = random_text(rng, rng() % 400, mix);
        const std::vector<unsigned char> b = to_utf8(s);
        const std::u16string w = to_utf16(s);
        for (char32_t repl : {d::strict_marker, char32_t{0xFFFD}}) {
          auto* o32 = reinterpret_cast<char32_t*>(end - 4 * s.size());
          mismatches += k.to32(b.data(), b.size(), o32, repl).written != s.size();
          mismatches += std::u32string(o32, s.size()) != s;
          auto* o16 = reinterpret_cast<char16_t*>(end - 2 * w.size());
          mismatches += k.to16(b.data(), b.size(), o16, repl).written != w.size();
          mismatches += std::u16string(o16, w.size()) != w;
          mismatches += k.from16(w.data(), w.size(), end - b.size(), repl).written != b.size();
          mismatches += !b.empty() && std::memcmp(end - b.size(), b.data(), b.size()) != 0;
          mismatches += k.from32(s.data(), s.size(), end - b.size(), repl).written != b.size();
          mismatches += !b.empty() && std::memcmp(end - b.size(), b.data(), b.size()) != 0;
          stats().cases += 4;
        }
      }
  }
  munmap(map, 3 * page);
  CHECK(mismatches == 0);
  WARN("simd transcode comparisons so far: " << stats().cases);
}

#endif

TEST_CASE("SIMD counting: long inputs, across the byte counters' flush every 127 steps of 128 bytes") {
#if UTF8DFA_X86_KERNELS
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("bmi2")) return;
  std::mt19937 rng(9);
  std::vector<unsigned char> b(3 * 127 * 128 + 300);
  for (int style = 0; style < 3; ++style) {
    // Uniform bytes, all non-continuations (a counter's worst case), all continuations.
    for (auto& x : b) {
      const unsigned r = rng();
      x = static_cast<unsigned char>(style == 0   ? r
                                     : style == 1 ? (r % 2 ? r % 0x80 : 0xC0 + r % 0x40)
                                                  : 0x80 + r % 0x40);
    }
    for (std::size_t n : {std::size_t{127 * 128 - 1}, std::size_t{127 * 128}, std::size_t{127 * 128 + 1},
                          std::size_t{127 * 128 + 159}, std::size_t{2 * 127 * 128 + 128}, b.size()})
      for (std::size_t off : {std::size_t{0}, std::size_t{1}, std::size_t{31}}) {
        const std::size_t len = n - off;
        CHECK(d::avx2::count_leads(b.data() + off, len) == d::count_leads_scalar(b.data() + off, len));
      }
  }
#endif
}

// ---- UTF-16 in the byte order opposite to the host's (utf16_swapped_to_utf8, utf8_to_utf16_swapped):
// under the kernel this run dispatches to, each equals its host-order conversion on byte-swapped
// input or output, for every policy encoding.

namespace {

constexpr char32_t swapped_replacements[] = {d::strict_marker, 0xFFFD, U'?', 0x1F600, d::skip_marker, d::valid_marker};

char16_t swap16(char16_t u) {
  return static_cast<char16_t>((u >> 8) | ((u & 0xFFu) << 8));
}

std::u16string swapped(const char16_t* p, std::size_t n) {
  std::u16string s(p, n);
  for (char16_t& u : s) u = swap16(u);
  return s;
}

/// utf16_swapped_to_utf8 on `sw` (the `n` units of `host`, swapped) against utf16_to_utf8 on `host`.
void check_swapped_from16(const d::kernel_table& k, const char16_t* host, const char16_t* sw, std::size_t n) {
  static std::vector<unsigned char> want_buf, got_buf;
  const std::size_t cap = 4 * n + 64;  // (a replacement of 4 bytes for each unit)
  for (char32_t repl : swapped_replacements) {
    want_buf.assign(cap, canary<unsigned char>());
    got_buf.assign(cap, canary<unsigned char>());
    const conversion_result want = k.utf16_to_utf8(host, n, want_buf.data(), repl);
    const conversion_result got = k.utf16_swapped_to_utf8(sw, n, got_buf.data(), repl);
    ++stats().cases;
    const bool ok =
        want.read == got.read && want.written == got.written && want.error == got.error && want_buf == got_buf;
    if (!ok && stats().failure.empty()) stats().failure = describe("utf16_swapped_to_utf8", k.name, repl, n, want, got);
  }
}

void check_swapped_from16(const d::kernel_table& k, const std::u16string& host) {
  check_swapped_from16(k, host.data(), swapped(host.data(), host.size()).data(), host.size());
}

/// utf8_to_utf16_swapped on the `n` bytes at p against utf8_to_utf16 with its output swapped.
void check_swapped_to16(const d::kernel_table& k, const unsigned char* p, std::size_t n) {
  static std::vector<char16_t> want_buf, got_buf;
  const std::size_t cap = 2 * n + 64;  // (a replacement of 2 units for each byte)
  for (char32_t repl : swapped_replacements) {
    want_buf.assign(cap, canary<char16_t>());
    got_buf.assign(cap, static_cast<char16_t>(0x5A5A));  // a canary that swapping changes
    const conversion_result want = k.utf8_to_utf16(p, n, want_buf.data(), repl);
    for (std::size_t j = 0; j < want.written; ++j) want_buf[j] = swap16(want_buf[j]);
    for (std::size_t j = want.written; j < cap; ++j) want_buf[j] = static_cast<char16_t>(0x5A5A);
    const conversion_result got = k.utf8_to_utf16_swapped(p, n, got_buf.data(), repl);
    ++stats().cases;
    const bool ok =
        want.read == got.read && want.written == got.written && want.error == got.error && want_buf == got_buf;
    if (!ok && stats().failure.empty()) {
      std::string msg = describe("utf8_to_utf16_swapped", k.name, repl, n, want, got);
      for (std::size_t j = 0; j < cap; ++j)
        if (want_buf[j] != got_buf[j]) {
          msg += " first output difference at unit " + std::to_string(j);
          break;
        }
      stats().failure = msg;
    }
  }
}

void check_swapped_to16(const d::kernel_table& k, const std::vector<unsigned char>& v) {
  check_swapped_to16(k, v.data(), v.size());
}

/// The public other-byte-order functions (every policy) against the host-order ones.
void check_swapped_api(const std::vector<unsigned char>& b, const std::u16string& w) {
  const std::u16string sw = swapped(w.data(), w.size());
  const auto from16 = [&](auto policy) {
    std::vector<unsigned char> x(3 * w.size() + 1, 0), y(3 * w.size() + 1, 0);
    const conversion_result want = utf8dfa::utf16_to_utf8(w, x.data(), policy);
    const conversion_result got = utf8dfa::host_is_little_endian ? utf8dfa::utf16be_to_utf8(sw, y.data(), policy)
                                                                 : utf8dfa::utf16le_to_utf8(sw, y.data(), policy);
    ++stats().cases;
    if ((want.read != got.read || want.written != got.written || want.error != got.error || x != y) &&
        stats().failure.empty())
      stats().failure = describe("utf16 other order to utf8 (api)", "dispatched", char32_t{0}, w.size(), want, got);
  };
  const auto to16 = [&](auto policy) {
    std::u16string x(b.size() + 1, u'\0'), y(b.size() + 1, u'\0');
    const conversion_result want = utf8dfa::utf8_to_utf16(b, x.data(), policy);
    const conversion_result got = utf8dfa::host_is_little_endian ? utf8dfa::utf8_to_utf16be(b, y.data(), policy)
                                                                 : utf8dfa::utf8_to_utf16le(b, y.data(), policy);
    ++stats().cases;
    if ((want.read != got.read || want.written != got.written || want.error != got.error ||
         swapped(x.data(), x.size()) != y) &&
        stats().failure.empty())
      stats().failure = describe("utf8 to utf16 other order (api)", "dispatched", char32_t{0}, b.size(), want, got);
  };
  from16(utf8dfa::strict{});
  from16(utf8dfa::replace{});
  from16(utf8dfa::skip{});
  to16(utf8dfa::strict{});
  to16(utf8dfa::replace{U'?'});
  to16(utf8dfa::skip{});
  if (utf8dfa::validate_utf16(w)) from16(utf8dfa::assume_valid{});
  if (utf8dfa::validate(b)) to16(utf8dfa::assume_valid{});
}

}  // namespace

TEST_CASE("UTF-16 in the other byte order: every length 0..300 and planted errors") {
  const d::kernel_table& k = *d::default_kernel();
  std::mt19937 rng(41);
  for (const auto& mix : mixes) {
    const std::u32string s = random_text(rng, 300, mix);
    const std::vector<unsigned char> b = to_utf8(s);
    const std::u16string w = to_utf16(s);
    for (std::size_t n = 0; n <= 300; ++n) {
      check_swapped_to16(k, b.data(), n < b.size() ? n : b.size());  // (may end inside a character)
      check_swapped_from16(k, w.data(), swapped(w.data(), n < w.size() ? n : w.size()).data(),
                           n < w.size() ? n : w.size());
    }
    check_swapped_api(b, w);
    // An error at every position of the first blocks: UTF-8 (a bad byte, a lone continuation, a
    // truncated form) and UTF-16 (a lone high or low surrogate, a high one at the end).
    for (std::size_t at = 0; at < 140 && at < b.size(); ++at)
      for (const std::vector<unsigned char>& bad :
           {std::vector<unsigned char>{0xFF}, {0x80}, {0xE2, 0x82}, {0xF0, 0x9F, 0x98}, {0xED, 0xA0, 0x80}}) {
        std::vector<unsigned char> e = b;
        e.insert(e.begin() + static_cast<std::ptrdiff_t>(at), bad.begin(), bad.end());
        e.resize(200);
        check_swapped_to16(k, e);
      }
    for (std::size_t at = 0; at < 100 && at < w.size(); ++at)
      for (char16_t bad : {u'\xD83D', u'\xDE00'}) {
        std::u16string e = w;
        e.insert(e.begin() + static_cast<std::ptrdiff_t>(at), bad);
        e.resize(e.size() < 130 ? e.size() : 130);
        check_swapped_from16(k, e);
        e.resize(at + 1);  // the error last
        check_swapped_from16(k, e);
      }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("UTF-16 in the other byte order: random units and bytes, long inputs") {
  const d::kernel_table& k = *d::default_kernel();
  std::mt19937 rng(42);
  for (int rep = 0; rep < 300; ++rep) {
    const std::size_t n = rep < 280 ? rng() % 400 : 9000 + rng() % 12000;  // (past the 8 KiB pieces)
    std::u16string w(n, u'\0');
    const unsigned kind = rng() % 4;
    for (char16_t& u : w) {
      const unsigned r = rng() % 100;
      u = static_cast<char16_t>(kind == 0 ? rng() : r < 3 ? 0xD800 + rng() % 0x800 : r < 60 ? rng() % 0x80 : rng());
    }
    if (kind == 3) w = to_utf16(random_text(rng, n, mixes[rng() % 11]));  // valid, with pairs
    check_swapped_from16(k, w);
    std::vector<unsigned char> b(n);
    for (unsigned char& c : b) {
      const unsigned r = rng() % 100;
      c = static_cast<unsigned char>(kind == 0 ? rng() : r < 2 ? rng() : r < 70 ? rng() % 0x80 : 0x80 + rng() % 0x40);
    }
    if (kind >= 2) b = to_utf8(random_text(rng, n, mixes[rng() % 11]));
    if (kind == 2 && !b.empty()) b[rng() % b.size()] = 0xFF;  // one error, perhaps late
    check_swapped_to16(k, b);
    check_swapped_api(b, w);
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

#if UTF8DFA_TEST_GUARD_PAGES
TEST_CASE("UTF-16 in the other byte order: input and output ending right before an unmapped page") {
  const d::kernel_table& k = *d::default_kernel();
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  REQUIRE(mprotect(static_cast<char*>(map) + page, page, PROT_NONE) == 0);
  unsigned char* const end = static_cast<unsigned char*>(map) + page;
  std::mt19937 rng(43);
  std::size_t mismatches = 0;
  for (const auto& mix : {mixes[0], mixes[4], mixes[5], mixes[3], mixes[2]}) {
    const std::u32string s = random_text(rng, 300, mix);
    const std::vector<unsigned char> b = to_utf8(s);
    const std::u16string w = to_utf16(s);
    for (std::size_t n = 0; n <= 300; ++n) {
      const std::size_t n8 = n < b.size() ? n : b.size();
      std::memcpy(end - n8, b.data() + b.size() - n8, n8);  // suffixes: may start mid-character
      check_swapped_to16(k, end - n8, n8);
      const std::size_t n16 = n < w.size() ? n : w.size();
      const std::u16string host = w.substr(w.size() - n16), sw = swapped(host.data(), n16);
      std::memcpy(end - 2 * n16, sw.data(), 2 * n16);
      check_swapped_from16(k, host.data(), reinterpret_cast<const char16_t*>(end - 2 * n16), n16);
      // Output exactly as long as the conversion needs.
      const std::vector<unsigned char> pb = to_utf8(s.substr(0, n));
      const std::u16string pw = to_utf16(s.substr(0, n)), psw = swapped(pw.data(), pw.size());
      for (char32_t repl : {d::strict_marker, char32_t{0xFFFD}}) {
        auto* o16 = reinterpret_cast<char16_t*>(end - 2 * pw.size());
        mismatches += k.utf8_to_utf16_swapped(pb.data(), pb.size(), o16, repl).written != pw.size();
        mismatches += std::u16string(o16, pw.size()) != psw;
        mismatches += k.utf16_swapped_to_utf8(psw.data(), psw.size(), end - pb.size(), repl).written != pb.size();
        mismatches += !pb.empty() && std::memcmp(end - pb.size(), pb.data(), pb.size()) != 0;
      }
    }
  }
  munmap(map, 2 * page);
  CHECK(mismatches == 0);
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}
#endif

TEST_CASE("SIMD transcoding: inputs of up to 64 bytes (one masked block), every length, an error at every position") {
  // ASCII, 2-byte forms, 3-byte forms, and mixes of them (the forms the entries' one-block
  // conversion takes), then all four widths, 4-byte forms alone and with ASCII (AVX-512 takes a block
  // with a 4-byte form in a second try), and 60 ASCII bytes with one 4-byte form (more than 32
  // characters in a block with one); in both UTF-16 byte orders, and ending right before an unmapped
  // page.
  const std::vector<std::vector<unsigned char>> errors = {
      {0x80}, {0xC1, 0xBF}, {0xC2}, {0xDF, 0x41}, {0xE0, 0x9F, 0xBF}, {0xED, 0xA0, 0x80}, {0xE2, 0x82}, {0xF0}, {0xFF}};
  const d::kernel_table& table = *d::default_kernel();
#if UTF8DFA_TEST_GUARD_PAGES
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  REQUIRE(mprotect(static_cast<char*>(map) + page, page, PROT_NONE) == 0);
  unsigned char* const end = static_cast<unsigned char*>(map) + page;
#else
  std::vector<unsigned char> buffer(256);
  unsigned char* const end = buffer.data() + buffer.size();
#endif
  std::mt19937 rng(71);
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    std::vector<std::vector<unsigned char>> bases;
    for (const auto& mix :
         {mixes[0], mixes[1], mixes[2], mixes[6], mixes[10], mixes[9], mixes[4], mixes[3], mixes[8], mixes[5]})
      bases.push_back(to_utf8(random_text(rng, 80, mix)));
    bases.push_back(to_utf8(std::u32string(60, U'a') + U"\U0001F600" + std::u32string(10, U'b')));
    std::size_t planted = 0;
    for (const std::vector<unsigned char>& base : bases) {
      for (std::size_t n = 0; n <= 70 && n <= base.size(); ++n) {
        std::memcpy(end - n, base.data(), n);  // may end inside a character
        check_utf8(k, end - n, n);
        check_swapped_to16(table, end - n, n);
        for (std::size_t at = 0; at < n; ++at)
          for (const auto& e : errors) {
            if (!utf8dfa_sample::keep_index(planted++)) continue;  // every one unless sampled
            for (std::size_t j = 0; j < e.size() && at + j < n; ++j)
              end[static_cast<std::ptrdiff_t>(at + j) - static_cast<std::ptrdiff_t>(n)] = e[j];
            check_utf8(k, end - n, n);
            check_swapped_to16(table, end - n, n);
            std::memcpy(end - n, base.data(), n);
          }
      }
    }
  }
#if UTF8DFA_TEST_GUARD_PAGES
  munmap(map, 2 * page);
#endif
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: the last bytes after an error, decoded in place: every error piece at every position") {
  // Inputs of 64 to 140 bytes: the last bytes that a kernel's blocks leave (fewer than 72 on AVX2)
  // are decoded where they lie once checked. An error before them leaves the conversion's position
  // on any byte of the pieces that follow it, also a continuation byte that the bytes before it
  // would take (ED A0 | 80): the check of the last bytes must read it as the start of a text.
  const std::vector<std::vector<unsigned char>> errors = {{0xED, 0xA0, 0x80},
                                                          {0xF4, 0x90, 0x80, 0x80},
                                                          {0xE0, 0x80, 0x80},
                                                          {0xF0, 0x80, 0x80, 0x80},
                                                          {0xC0, 0x80},
                                                          {0xE1, 0x80},
                                                          {0xF1, 0x80, 0x80, 0xC3},
                                                          {0x80, 0x80, 0x80, 0x80, 0x80}};
  std::mt19937 rng(83);
  std::size_t planted = 0;
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (const auto& mix : {mixes[0], mixes[1], mixes[2], mixes[10]}) {
      const std::vector<unsigned char> base = to_utf8(random_text(rng, 150, mix));
      for (std::size_t n = 64; n <= 140 && n <= base.size(); n += 3) {
        std::vector<unsigned char> v(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(n));
        for (std::size_t at = 0; at < n; ++at)
          for (const auto& e : errors) {
            if (!utf8dfa_sample::keep_index(planted++)) continue;  // every one unless sampled
            for (std::size_t j = 0; j < e.size() && at + j < n; ++j) v[at + j] = e[j];
            check_utf8(k, v);
            std::copy(base.begin() + static_cast<std::ptrdiff_t>(at),
                      base.begin() + static_cast<std::ptrdiff_t>(std::min(at + e.size(), n)),
                      v.begin() + static_cast<std::ptrdiff_t>(at));
          }
      }
    }
  }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: runs of 3-byte forms with an error, an ASCII byte or a boundary value at every place") {
  // Long runs of 3-byte forms take the kernels' 3-byte path 24 bytes at a time; a planted byte
  // sequence, the values next to the 3-byte range's holes, and the ends of the input stop it.
  const std::vector<std::vector<unsigned char>> plants = {{0x41},
                                                          {0xE0, 0x9F, 0xBF},
                                                          {0xED, 0xA0, 0x80},
                                                          {0xED, 0xBF, 0xBF},
                                                          {0xE0, 0x80, 0x80},
                                                          {0xE1, 0x41, 0x80},
                                                          {0xE1, 0x80, 0x41},
                                                          {0xE1, 0xC0, 0x80},
                                                          {0xF0, 0x9F, 0x98},
                                                          {0xC3, 0xA9},
                                                          {0x80},
                                                          {0xE0, 0xA0, 0x80},
                                                          {0xED, 0x9F, 0xBF},
                                                          {0xEE, 0x80, 0x80},
                                                          {0xEF, 0xBF, 0xBF},
                                                          {0xF0, 0x9F, 0x98, 0x80}};
  std::mt19937 rng(77);
  const int three_only[4] = {0, 0, 100, 0};
  for (const simd_kernel& k : kernels_under_test()) {
    if (!k.supported) continue;
    for (std::size_t len : {std::size_t{48}, std::size_t{72}, std::size_t{99}, std::size_t{150}, std::size_t{301}}) {
      const std::vector<unsigned char> base = to_utf8(random_text(rng, len / 3 + 1, three_only));
      for (std::size_t shift = 0; shift < 3; ++shift) {  // the run starting at a lead or not
        std::vector<unsigned char> whole(base.begin() + static_cast<std::ptrdiff_t>(shift),
                                         base.begin() + static_cast<std::ptrdiff_t>(shift + len - 2));
        check_utf8(k, whole);
        for (const auto& e : plants)
          for (std::size_t at = 0; at < whole.size(); ++at) {
            std::vector<unsigned char> v = whole;
            for (std::size_t j = 0; j < e.size() && at + j < v.size(); ++j) v[at + j] = e[j];
            check_utf8(k, v);
          }
      }
    }
  }
  // The other byte order (the same path, its output swapped) against the host order.
  const std::vector<unsigned char> base = to_utf8(random_text(rng, 100, three_only));
  for (std::size_t at = 0; at < base.size(); ++at)
    for (const unsigned char b : {0x41, 0x80, 0xED}) {
      std::vector<unsigned char> v = base;
      v[at] = b;
      check_swapped_to16(*d::default_kernel(), v);
    }
  INFO(stats().failure);
  CHECK(stats().failure.empty());
}

TEST_CASE("SIMD transcoding: the scalar rest of UTF-16 in the other byte order, in pieces of 64 units") {
  // finish_scalar_in_order swaps the rest 64 units at a time: a pair across a piece's end, and a
  // lone surrogate anywhere, against the scalar conversion of the units in host order.
  for (std::size_t len : {1u, 15u, 63u, 64u, 65u, 127u, 128u, 129u, 200u})
    for (std::size_t at = 0; at < len; ++at)
      for (const std::u16string& piece : {std::u16string(u"\xD83D\xDE00"), std::u16string(1, char16_t(0xD800)),
                                          std::u16string(1, char16_t(0xDC00)), std::u16string(u"\x20AC")}) {
        std::u16string s(len, u'a');
        s.replace(at, piece.size(), piece);
        s.resize(len);
        std::u16string swapped = s;
        for (char16_t& u : swapped) u = static_cast<char16_t>((u >> 8) | ((u & 0xFF) << 8));
        for (const char32_t repl : {d::strict_marker, d::skip_marker, char32_t{0xFFFD}}) {
          std::vector<unsigned char> want(4 * len + 4), got(4 * len + 4);
          const conversion_result w = d::scalar_utf16_to_utf8(s.data(), len, want.data(), repl);
          const d::transcode_cursor<unsigned char> c{0, got.data(), error_code::none};
          const conversion_result r =
              repl == d::strict_marker
                  ? d::finish_scalar_in_order<true, true>(swapped.data(), len, got.data(), c, repl)
                  : d::finish_scalar_in_order<false, true>(swapped.data(), len, got.data(), c, repl);
          INFO("length " << len << ", piece at " << at << ", policy " << std::hex << static_cast<std::uint32_t>(repl));
          REQUIRE(r.read == w.read);
          REQUIRE(r.written == w.written);
          REQUIRE(r.error == w.error);
          REQUIRE(std::memcmp(got.data(), want.data(), w.written) == 0);
        }
      }
}

TEST_CASE("Kernel results: the 16-byte forms the kernels return keep every field of the public results") {
  // written up to 2^56 - 1 where size_t has 64 bits (no buffer holds more units), all of it elsewhere.
  constexpr std::size_t most = sizeof(std::size_t) >= 8 ? SIZE_MAX >> 8 : SIZE_MAX;
  for (const error_code e : {error_code::none, error_code::overlong, error_code::unrepresentable}) {
    for (const std::size_t w : {std::size_t{0}, std::size_t{1}, most / 2 + 1, most}) {
      const conversion_result c = d::packed_conversion(conversion_result{SIZE_MAX - w, w, e});
      CHECK(c.read == SIZE_MAX - w);
      CHECK(c.written == w);
      CHECK(c.error == e);
      const utf8dfa::validation_result v = d::packed_validation(utf8dfa::validation_result{w, 5, e});
      CHECK(v.valid_up_to == w);
      CHECK(v.error_length == 5);
      CHECK(v.error == e);
    }
  }
  static_assert(conversion_result(d::packed_conversion(3, 2, error_code::too_short)).written == 2);
  static_assert(conversion_result(d::packed_conversion(3, 2, error_code::too_short)).error == error_code::too_short);
}

}  // namespace utf8dfa_test_simd_transcode
