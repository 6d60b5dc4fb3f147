// decode_next / decode_prev against the reference: every input of 1 to 3 bytes and the pruned
// 4-byte enumeration (decode_prev at every end), the backward walk as the forward segmentation read
// backwards on random and corrupted input, the Unicode Standard's maximal-subpart examples and the
// RFC 3629 / RFC 2279 security cases.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <utf8dfa.hpp>

#include "catch.hpp"
#include "reference/check.hpp"

namespace utf8dfa_test_decode {  // the file's own names (the suite also builds as unity sources)

using namespace utf8dfa_check;
using utf8dfa::error_code;

namespace decode_test {

/// decode_next and decode_prev never go through the run-time kernels (they are the constexpr DFA),
/// so their exhaustive enumerations run once, not again in ctest's per-kernel runs
/// (UTF8DFA_KERNEL set to a SIMD kernel); a direct run of the binary always includes them.
bool kernel_independent_run_needed() {
  const char* k = std::getenv("UTF8DFA_KERNEL");
  return k == nullptr || std::string_view(k) == "scalar" || std::string_view(k).empty();
}

}  // namespace decode_test

TEST_CASE("decode_next and decode_prev agree with the reference on every input of 1, 2 and 3 bytes",
          "[decode][exhaustive]") {
  if (!decode_test::kernel_independent_run_needed()) return;
  for (std::size_t n = 1; n <= 3; ++n) {
    const auto t0 = std::chrono::steady_clock::now();
    tally t;
    for_each_sequence(n, [&](const unsigned char* p, std::size_t len) { t.add(check_decode(p, len, true)); });
    std::printf("decode: all %zu inputs of %zu bytes in %.2f s\n", t.inputs, n, seconds_since(t0));
    INFO(t.first);
    CHECK(t.failures == 0);
    CHECK(t.inputs == utf8dfa_sample::inputs_of_length(n));
  }
}

TEST_CASE("decode_next and decode_prev agree with the reference on every 4-byte input (pruned)",
          "[decode][exhaustive]") {
  if (!decode_test::kernel_independent_run_needed()) return;
  const auto t0 = std::chrono::steady_clock::now();
  tally t;
  for_each_pruned4([&](const unsigned char* p, std::size_t n) { t.add(check_decode(p, n, true)); });
  std::printf("decode: %zu pruned 4-byte inputs in %.2f s\n", t.inputs, seconds_since(t0));
  INFO(t.first);
  CHECK(t.failures == 0);
  CHECK(t.inputs > 10000000 / utf8dfa_sample::divisor());
}

TEST_CASE("decode_prev walks the forward segmentation backwards on random and corrupted input", "[decode][random]") {
  std::mt19937 rng(2279);
  tally t;
  for (int round = 0; round < 4; ++round) {
    const std::string text = random_valid(rng, 40);
    t.add(check_decode(u8p(text), text.size(), true));
    for (std::size_t i = 0; i <= text.size(); ++i)
      for (const std::string& bad : bad_pieces()) {
        std::string s = text;
        s.insert(i, bad);
        t.add(check_decode(u8p(s), s.size()));
      }
  }
  for (int i = 0; i < 20000; ++i) {
    const std::string s = random_mix(rng, 1 + rng() % 12);
    t.add(check_decode(u8p(s), s.size(), i % 8 == 0));
  }
  for (int i = 0; i < 20000; ++i) {
    const std::string s = random_bytes(rng, rng() % 100);
    t.add(check_decode(u8p(s), s.size(), i % 8 == 0));
  }
  // Corruption: flip, delete or duplicate one byte of valid text.
  for (int i = 0; i < 20000; ++i) {
    std::string s = random_valid(rng, 1 + rng() % 10);
    const std::size_t at = rng() % s.size();
    switch (rng() % 3) {
      case 0:
        s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8)));
        break;
      case 1:
        s.erase(at, 1);
        break;
      default:
        s.insert(at, 1, s[at]);
    }
    t.add(check_decode(u8p(s), s.size(), true));
  }
  INFO(t.first);
  CHECK(t.failures == 0);
}

namespace decode_test {

/// The code points decode_next yields walking forwards (U+FFFD per subpart).
std::u32string forward(std::string_view s) {
  std::u32string out;
  for (std::size_t pos = 0; pos < s.size();) {
    const utf8dfa::decoded d = utf8dfa::decode_next(s, pos);
    out += d.code_point;
    pos += d.length;
  }
  return out;
}

/// The same, walking backwards with decode_prev, then reversed.
std::u32string backward(std::string_view s) {
  std::u32string out;
  for (std::size_t end = s.size(); end > 0;) {
    const utf8dfa::decoded d = utf8dfa::decode_prev(s, end);
    out.insert(out.begin(), d.code_point);
    end -= d.length;
  }
  return out;
}

struct subpart_example {
  std::string_view bytes;
  std::u32string_view expected;
};

// The Unicode Standard, ch. 3, "U+FFFD Substitution of Maximal Subparts" (Tables 3-8 to 3-11).
constexpr subpart_example unicode_examples[] = {
    {"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64",
     U"a\uFFFD\uFFFD\uFFFD"
     U"b\uFFFD"
     U"c\uFFFD\uFFFD"
     U"d"},
    // Non-shortest forms: every byte its own subpart.
    {"\xC0\xAF\xE0\x80\xBF\xF0\x81\x82\x41", U"\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\u0041"},
    // Ill-formed sequences for surrogates.
    {"\xED\xA0\x80\xED\xBF\xBF\xED\xAF\x41", U"\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\u0041"},
    // Other ill-formed sequences.
    {"\xF4\x91\x92\x93\xFF\x41\x80\xBF\x42", U"\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\u0041\uFFFD\uFFFD\u0042"},
    // Truncated sequences.
    {"\xE1\x80\xE2\xF0\x91\x92\xF1\xBF\x41", U"\uFFFD\uFFFD\uFFFD\uFFFD\u0041"},
};

}  // namespace decode_test

TEST_CASE("the Unicode Standard's maximal-subpart examples", "[decode][unicode]") {
  using namespace decode_test;
  for (const subpart_example& ex : unicode_examples) {
    INFO(hex(std::string(ex.bytes)));
    CHECK(utf8dfa_ref::decode_lossy(ex.bytes) == ex.expected);  // the reference reads them so too
    CHECK(utf8dfa::to_utf32_lossy(ex.bytes) == ex.expected);
    CHECK(forward(ex.bytes) == ex.expected);
    CHECK(backward(ex.bytes) == ex.expected);
    CHECK(check_decode(u8p(std::string(ex.bytes)), ex.bytes.size(), true).empty());
    CHECK(check_transcode(u8p(std::string(ex.bytes)), ex.bytes.size(), U'\uFFFD', true).empty());
  }
}

TEST_CASE("security cases are never decoded to a code point, under any checking policy", "[decode][security]") {
  // RFC 3629 section 10 and RFC 2279's draft (seed 002): overlong NUL, overlong '.', a surrogate
  // pair encoded as two 3-byte forms (CESU-8), overlong '/' in 2, 3 and 4 bytes, 5- and 6-byte forms.
  const std::string_view cases[] = {"\xC0\x80",
                                    "\x2F\xC0\xAE\x2E\x2F",
                                    "\xED\xA1\x8C\xED\xBE\xB4",
                                    "\xC0\xAF",
                                    "\xE0\x80\xAF",
                                    "\xF0\x80\x80\xAF",
                                    "\xF8\x88\x80\x80\x80",
                                    "\xFC\x84\x80\x80\x80\x80",
                                    "\xF8\x80\x80\x80\xAF",
                                    "\xFC\x80\x80\x80\x80\xAF",
                                    "\xF4\x90\x80\x80",
                                    "\xF7\xBF\xBF\xBF"};
  for (std::string_view c : cases) {
    const std::string s(c);
    INFO(hex(s));
    // What the well-formed characters of the input are, by the reference (only ASCII here).
    std::u32string wellformed;
    for (std::size_t pos = 0; pos < s.size();) {
      const utf8dfa_ref::piece p = utf8dfa_ref::decode_at(u8p(s), s.size(), pos);
      if (p.well_formed) wellformed += p.value;
      pos += p.length;
    }
    CHECK_FALSE(utf8dfa::is_valid(c));
    CHECK(utf8dfa::validate(c).error != error_code::none);
    std::u32string nonreplaced;
    for (std::size_t pos = 0; pos < s.size();) {
      const utf8dfa::decoded d = utf8dfa::decode_next(c, pos);
      if (d.error == error_code::none)
        nonreplaced += d.code_point;
      else
        CHECK(d.code_point == U'\uFFFD');
      pos += d.length;
    }
    CHECK(nonreplaced == wellformed);
    CHECK(check_decode(u8p(s), s.size(), true).empty());
    CHECK(check_transcode(u8p(s), s.size(), U'\uFFFD', true).empty());
    CHECK(check_transcode(u8p(s), s.size(), U'?', false).empty());
    // strict stops; replace produces nothing but replacements and the input's well-formed
    // characters; assume_valid's output is unspecified on such input, but reads it all and stays
    // within replace's size (the canary after it).
    const std::size_t cap = utf8dfa::utf32_length_from_utf8(c);
    std::u32string out(cap + 1, U'\0');
    CHECK(utf8dfa::utf8_to_utf32(c, &out[0]).error != error_code::none);
    for (int policy = 0; policy < 2; ++policy) {
      out[cap] = U'\x2A';
      const utf8dfa::conversion_result r = policy == 0 ? utf8dfa::utf8_to_utf32(c, &out[0], utf8dfa::replace{})
                                                       : utf8dfa::utf8_to_utf32(c, &out[0], utf8dfa::assume_valid{});
      REQUIRE(r.written <= cap);
      CHECK(r.read == c.size());
      CHECK(out[cap] == U'\x2A');
      if (policy == 1) continue;
      std::u32string kept;
      for (std::size_t i = 0; i < r.written; ++i)
        if (out[i] != U'\uFFFD') kept += out[i];
      CHECK(kept == wellformed);
    }
    const std::size_t cap16 = utf8dfa::utf16_length_from_utf8(c);
    std::u16string out16(cap16 + 1, u'\0');
    for (int policy = 0; policy < 2; ++policy) {
      out16[cap16] = u'\x2A';
      const utf8dfa::conversion_result r = policy == 0 ? utf8dfa::utf8_to_utf16(c, &out16[0], utf8dfa::replace{})
                                                       : utf8dfa::utf8_to_utf16(c, &out16[0], utf8dfa::assume_valid{});
      REQUIRE(r.written <= cap16);
      CHECK(r.read == c.size());
      CHECK(out16[cap16] == u'\x2A');
      if (policy == 1) continue;
      std::u32string kept;
      for (std::size_t i = 0; i < r.written; ++i)
        if (out16[i] != u'\uFFFD') kept += out16[i];
      CHECK(kept == wellformed);
    }
  }
}

TEST_CASE("decode_next and decode_prev at and past the ends", "[decode]") {
  const std::string_view s = "a\xC3\xA9";
  CHECK(utf8dfa::decode_next(s, 3).length == 0);
  CHECK(utf8dfa::decode_next(s, 3).error == error_code::incomplete);
  CHECK(utf8dfa::decode_next(s, 100).length == 0);
  CHECK(utf8dfa::decode_prev(s, 0).length == 0);
  CHECK(utf8dfa::decode_prev(s, 0).error == error_code::incomplete);
  // An end past the input is clamped to its size.
  CHECK(utf8dfa::decode_prev(s, 100).code_point == U'\u00E9');
  CHECK(utf8dfa::decode_prev(s, 100).length == 2);
  // decode_prev in the middle of a character treats [0, end) as the input: C3 alone is incomplete.
  CHECK(utf8dfa::decode_prev(s, 2).length == 1);
  CHECK(utf8dfa::decode_prev(s, 2).error == error_code::incomplete);
  // At a boundary, the kinds are decode_next's: C3 cut by 'x' is too_short both ways.
  const std::string_view t = "\xC3x";
  CHECK(utf8dfa::decode_next(t, 0).error == error_code::too_short);
  CHECK(utf8dfa::decode_prev(t, 1).error == error_code::too_short);
  CHECK(utf8dfa::decode_prev(t, 1).length == 1);
}

}  // namespace utf8dfa_test_decode
