// Streaming validator and decoder: for many inputs and every way of cutting them (every 2-way split,
// 1-byte chunks, random multi-way splits with empty chunks), the streamed results must equal the
// one-shot functions on the whole input: verdict, error offset, kind and length, code points and
// replacements, in UTF-32 and UTF-16, strict and replace.
#include <utf8dfa.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "sample.hpp"

namespace utf8dfa_test_stream {  // the file's own names (the suite also builds as unity sources)

namespace stream_test {

using bytes = std::string;

std::string hex(const bytes& s) {
  std::string out;
  char buf[4];
  for (unsigned char c : s) {
    std::snprintf(buf, sizeof buf, "%02X ", c);
    out += buf;
  }
  return out;
}

bool same(const utf8dfa::validation_result& a, const utf8dfa::validation_result& b) {
  return a.valid_up_to == b.valid_up_to && a.error_length == b.error_length && a.error == b.error;
}

// What the one-shot functions say about a whole input.
struct oracle {
  utf8dfa::validation_result verdict;
  std::u32string strict32, lossy32, question32;
  std::u16string strict16, lossy16, emoji16;
  std::string lossy8, emoji8;  // the lossy decodes, encoded back to UTF-8
  utf8dfa::conversion_result status32, lossy_status;

  explicit oracle(const bytes& in) : verdict(utf8dfa::validate(in)) {
    strict32 = utf8dfa::to_utf32(in, status32);
    utf8dfa::conversion_result status16{};
    strict16 = utf8dfa::to_utf16(in, status16);
    lossy32 = utf8dfa::to_utf32_lossy(in);
    lossy16 = utf8dfa::to_utf16_lossy(in);
    question32.resize(utf8dfa::utf32_length_from_utf8(in, utf8dfa::replace{U'?'}));
    lossy_status = utf8dfa::utf8_to_utf32(in, &question32[0], utf8dfa::replace{U'?'});
    question32.resize(lossy_status.written);
    const utf8dfa::replace emoji{U'\U0001F600'};
    emoji16.resize(utf8dfa::utf16_length_from_utf8(in, emoji));
    emoji16.resize(utf8dfa::utf8_to_utf16(in, &emoji16[0], emoji).written);
    lossy8 = utf8dfa::to_utf8_lossy(lossy32);
    std::u32string emoji32(utf8dfa::utf32_length_from_utf8(in, emoji), U'\0');
    emoji32.resize(utf8dfa::utf8_to_utf32(in, &emoji32[0], emoji).written);
    emoji8 = utf8dfa::to_utf8_lossy(emoji32);
  }
};

struct tally {
  std::size_t inputs = 0, splits = 0, failures = 0;
  std::string first_failure;
  void fail(const bytes& in, const std::vector<std::size_t>& cuts, const char* what) {
    if (failures++ != 0) return;
    first_failure = std::string(what) + " on input [" + hex(in) + "] chunk sizes [";
    for (std::size_t c : cuts) first_failure += std::to_string(c) + " ";
    first_failure += "]";
  }
};

// Streams `in` cut into chunks of the given sizes (summing to in.size()) through every streaming
// object and compares with the oracle.
void check_split(const bytes& in, const oracle& o, const std::vector<std::size_t>& cuts, tally& t) {
  ++t.splits;
  const char* p = in.data();

  {  // validator
    utf8dfa::validator v;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      const utf8dfa::validation_result r = v.feed(p + at, c);
      at += c;
      // An error, once reported, is the whole input's first error; before it, only complete
      // well-formed characters are claimed.
      if (r.error != utf8dfa::error_code::none ? !same(r, o.verdict) : r.valid_up_to > o.verdict.valid_up_to)
        return t.fail(in, cuts, "validator feed");
      if (v.pending() > 3) return t.fail(in, cuts, "validator pending");
    }
    if (!same(v.finish(), o.verdict)) return t.fail(in, cuts, "validator finish");
    if (v.position() != (o.verdict ? in.size() : o.verdict.valid_up_to)) return t.fail(in, cuts, "validator position");
  }
  {  // strict UTF-32 through a pointer, the output buffer exactly max_output long
    utf8dfa::decoder<> d;
    std::u32string out;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      std::vector<char32_t> buf(utf8dfa::decoder<>::max_output(c));
      const auto r = d.feed(std::string_view(p + at, c), buf.data());
      at += c;
      if (r.written > buf.size() || r.out != buf.data() + r.written) return t.fail(in, cuts, "strict32 written");
      out.append(buf.data(), r.written);
    }
    char32_t tail[1];
    const auto r = d.finish(tail);
    if (r.written != 0) return t.fail(in, cuts, "strict32 finish wrote");
    if (r.error != o.status32.error) return t.fail(in, cuts, "strict32 error");
    if (out != o.strict32) return t.fail(in, cuts, "strict32 output");
    if (!same(d.result(), o.verdict)) return t.fail(in, cuts, "strict32 result");
    if (d.position() != (o.verdict ? in.size() : o.verdict.valid_up_to)) return t.fail(in, cuts, "strict32 position");
  }
  {  // replace UTF-32 through a pointer
    utf8dfa::decoder<utf8dfa::replace> d;
    std::u32string out;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      std::vector<char32_t> buf(utf8dfa::decoder<utf8dfa::replace>::max_output(c));
      const auto r = d.feed(p + at, c, buf.data());
      at += c;
      out.append(buf.data(), r.written);
    }
    char32_t tail[1];
    const auto r = d.finish(tail);
    out.append(tail, r.written);
    if (out != o.lossy32) return t.fail(in, cuts, "replace32 output");
    if (r.error != o.lossy_status.error) return t.fail(in, cuts, "replace32 error");
    if (!same(d.result(), o.verdict)) return t.fail(in, cuts, "replace32 result");
    if (d.position() != in.size() || d.pending() != 0) return t.fail(in, cuts, "replace32 position");
  }
  if (o.verdict) {  // assume_valid, on the input it is meant for
    utf8dfa::decoder<utf8dfa::assume_valid> d;
    std::u32string out;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      d.feed(std::string_view(p + at, c), std::back_inserter(out));
      at += c;
    }
    d.finish(std::back_inserter(out));
    if (out != o.strict32) return t.fail(in, cuts, "assume_valid output");
  }
  {  // replace with '?' to UTF-32 through an output iterator
    utf8dfa::decoder<utf8dfa::replace> d(utf8dfa::replace{U'?'});
    std::u32string out;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      d.feed(std::string_view(p + at, c), std::back_inserter(out));
      at += c;
    }
    d.finish(std::back_inserter(out));
    if (out != o.question32) return t.fail(in, cuts, "question32 output");
  }
  {  // replace to UTF-16 through an output iterator
    utf8dfa::decoder<utf8dfa::replace, char16_t> d;
    std::u16string out;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      d.feed(std::string_view(p + at, c), std::back_inserter(out));
      at += c;
    }
    d.finish(std::back_inserter(out));
    if (out != o.lossy16) return t.fail(in, cuts, "replace16 output");
    if (!same(d.result(), o.verdict)) return t.fail(in, cuts, "replace16 result");
  }
  {  // a supplementary replacement to UTF-16 through a pointer: two units per replacement
    using dec = utf8dfa::decoder<utf8dfa::replace, char16_t>;
    dec d(utf8dfa::replace{U'\U0001F600'});
    std::u16string out;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      std::vector<char16_t> buf(dec::max_output(c));
      out.append(buf.data(), d.feed(p + at, c, buf.data()).written);
      at += c;
    }
    std::vector<char16_t> buf(dec::max_output(0));
    out.append(buf.data(), d.finish(buf.data()).written);
    if (out != o.emoji16) return t.fail(in, cuts, "emoji16 output");
  }
  {  // UTF-8 out (the streaming sanitizer), a 4-byte replacement, through a pointer
    using dec = utf8dfa::decoder<utf8dfa::replace, char>;
    dec d(utf8dfa::replace{U'\U0001F600'});
    std::string out;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      std::vector<char> buf(dec::max_output(c));
      out.append(buf.data(), d.feed(p + at, c, buf.data()).written);
      at += c;
    }
    std::vector<char> buf(dec::max_output(0));
    out.append(buf.data(), d.finish(buf.data()).written);
    if (out != o.emoji8) return t.fail(in, cuts, "emoji8 output");
    if (!same(d.result(), o.verdict)) return t.fail(in, cuts, "emoji8 result");
  }
  {  // UTF-8 out, U+FFFD, through an output iterator
    utf8dfa::decoder<utf8dfa::replace, unsigned char> d;
    std::basic_string<unsigned char> out;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      d.feed(std::string_view(p + at, c), std::back_inserter(out));
      at += c;
    }
    d.finish(std::back_inserter(out));
    if (std::string(out.begin(), out.end()) != o.lossy8) return t.fail(in, cuts, "lossy8 output");
  }
  {  // UTF-8 out, strict: exactly the bytes before the first error
    utf8dfa::decoder<utf8dfa::strict, char> d;
    std::string out;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      d.feed(std::string_view(p + at, c), std::back_inserter(out));
      at += c;
    }
    const auto r = d.finish(std::back_inserter(out));
    if (out != in.substr(0, o.verdict ? in.size() : o.verdict.valid_up_to)) return t.fail(in, cuts, "strict8 output");
    if (r.error != o.verdict.error || !same(d.result(), o.verdict)) return t.fail(in, cuts, "strict8 result");
  }
  {  // strict UTF-16 through a pointer
    using dec = utf8dfa::decoder<utf8dfa::strict, char16_t>;
    dec d;
    std::u16string out;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      std::vector<char16_t> buf(dec::max_output(c));
      out.append(buf.data(), d.feed(p + at, c, buf.data()).written);
      at += c;
    }
    char16_t tail[2];
    d.finish(tail);
    if (out != o.strict16) return t.fail(in, cuts, "strict16 output");
    if (!same(d.result(), o.verdict)) return t.fail(in, cuts, "strict16 result");
  }
}

// Every 2-way split, 1-byte chunks, and `random_splits` random multi-way splits (with empty chunks).
void check_input(const bytes& in, tally& t, std::mt19937& rng, int random_splits) {
  ++t.inputs;
  const oracle o(in);
  const std::size_t n = in.size();
  for (std::size_t i = 0; i <= n; ++i) check_split(in, o, {i, n - i}, t);
  check_split(in, o, std::vector<std::size_t>(n, 1), t);
  for (int k = 0; k < random_splits; ++k) {
    std::vector<std::size_t> cuts;
    std::size_t left = n;
    std::uniform_int_distribution<std::size_t> size(0, 9);
    while (left != 0) {
      const std::size_t c = std::min(left, size(rng) == 9 ? left : size(rng) % 5);
      cuts.push_back(c);
      left -= c;
    }
    check_split(in, o, cuts, t);
  }
}

void report(const char* what, const tally& t) {
  INFO(t.first_failure);
  CHECK(t.failures == 0);
  if (std::getenv("UTF8DFA_TEST_VERBOSE"))
    std::printf("stream_test %s: %zu inputs, %zu splits, %zu failures\n", what, t.inputs, t.splits, t.failures);
}

bytes from_hex(std::initializer_list<unsigned> v) {
  bytes s;
  for (unsigned b : v) s += static_cast<char>(b);
  return s;
}

// A random well-formed character of `width` bytes (0: any width).
void append_char(bytes& s, std::mt19937& rng, int width = 0) {
  static constexpr char32_t lo[] = {0, 0, 0x80, 0x800, 0x10000};
  static constexpr char32_t hi[] = {0, 0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
  if (width == 0) width = std::uniform_int_distribution<int>(1, 4)(rng);
  char32_t cp;
  do cp = static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(lo[width], hi[width])(rng));
  while (cp >= 0xD800 && cp <= 0xDFFF);
  char buf[4];
  s.append(buf, utf8dfa::encode(cp, buf));
}

}  // namespace stream_test

using namespace stream_test;

TEST_CASE("stream: the Unicode maximal-subpart examples, every split") {
  // Unicode ch. 3 (U+FFFD substitution) examples, plus the RFC 3629 section 10 / seed 002 cases.
  const bytes inputs[] = {
      from_hex({0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64}),
      from_hex({0xC0, 0xAF, 0xE0, 0x80, 0xBF, 0xF0, 0x81, 0x82, 0x41}),
      from_hex({0xED, 0xA0, 0x80, 0xED, 0xBF, 0xBF, 0xED, 0xAF, 0x41}),
      from_hex({0xF4, 0x91, 0x92, 0x93, 0xFF, 0x41, 0x80, 0xBF, 0x42}),
      from_hex({0xE1, 0x80, 0xE2, 0xF0, 0x91, 0x92, 0xF1, 0xBF, 0x41}),
      from_hex({0xC0, 0x80}),
      from_hex({0x2F, 0xC0, 0xAE, 0x2E, 0x2F}),
      from_hex({0xED, 0xA1, 0x8C, 0xED, 0xBE, 0xB4}),
      from_hex({0x41, 0xE2, 0x89, 0xA2, 0xCE, 0x91, 0x2E}),
      from_hex({0xEF, 0xBB, 0xBF, 0xF0, 0xA3, 0x8E, 0xB4}),
      from_hex({0xF0, 0x9F, 0x98}),
      from_hex({0xE2}),
      bytes(),
  };
  tally t;
  std::mt19937 rng(1);
  for (const bytes& in : inputs) check_input(in, t, rng, 200);
  report("maximal-subpart examples", t);
}

TEST_CASE("stream: every sequence of 1 to 4 byte classes, every split") {
  // One byte per DFA class (a different member each time), all sequences of up to 4 of them,
  // alone and between ASCII.
  std::vector<std::vector<unsigned>> members(utf8dfa::detail::byte_classes.count);
  for (unsigned b = 0; b < 256; ++b) members[utf8dfa::detail::byte_classes.of[b]].push_back(b);
  const std::size_t k = members.size();
  std::mt19937 rng(2);
  auto pick = [&](std::size_t c) {
    return static_cast<char>(members[c][std::uniform_int_distribution<std::size_t>(0, members[c].size() - 1)(rng)]);
  };
  tally t;
  for (std::size_t len = 1; len <= 4; ++len) {
    std::size_t total = 1;
    for (std::size_t i = 0; i < len; ++i) total *= k;
    for (std::size_t code = 0; code < total; ++code) {
      bytes s;
      for (std::size_t i = 0, c = code; i < len; ++i, c /= k) s += pick(c % k);
      check_input(s, t, rng, len < 4 ? 4 : 0);
      if (len <= 3) check_input("x" + s + "y", t, rng, 2);
    }
  }
  report("byte-class sequences", t);
}

TEST_CASE("stream: every 1- and 2-byte input, and every one after an unfinished character, every split",
          "[exhaustive]") {
  std::mt19937 rng(6);
  tally t;
  for (unsigned a = 0; a < 256; ++a) {
    check_input(bytes(1, static_cast<char>(a)), t, rng, 0);
    for (unsigned b = 0; b < 256; ++b) {
      if (!utf8dfa_sample::keep(a, b)) continue;  // sampled where UTF8DFA_TEST_SAMPLE says so
      const bytes pair{static_cast<char>(a), static_cast<char>(b)};
      check_input(pair, t, rng, 0);
      check_input("\xF0\x90" + pair, t, rng, 0);  // completes, breaks or extends a 4-byte prefix
    }
  }
  report("all 1-2 byte inputs", t);
}

TEST_CASE("stream: valid text with an error planted at every position, every split", "[exhaustive]") {
  std::mt19937 rng(3);
  const unsigned char planted[] = {0xC0, 0xC1, 0xF5, 0xFF, 0x80, 0xBF, 0xE0, 0xED, 0xF0, 0xF4, 0xC2, 0x41};
  tally t;
  for (int round = 0; round < 24; ++round) {
    if (!utf8dfa_sample::keep_index(static_cast<std::size_t>(round))) continue;
    bytes text;
    while (text.size() < 40) append_char(text, rng);
    check_input(text, t, rng, 20);
    for (std::size_t pos = 0; pos < text.size(); ++pos) {
      const unsigned char b = planted[std::uniform_int_distribution<std::size_t>(0, sizeof planted - 1)(rng)];
      bytes replaced = text, inserted = text, removed = text;
      replaced[pos] = static_cast<char>(b);
      inserted.insert(pos, 1, static_cast<char>(b));
      removed.erase(pos, 1);  // cuts a character short when pos is inside one
      check_input(replaced, t, rng, 5);
      check_input(inserted, t, rng, 5);
      check_input(removed, t, rng, 5);
    }
  }
  report("planted errors", t);
}

TEST_CASE("stream: random bytes, every split", "[exhaustive]") {
  std::mt19937 rng(4);
  // Biased towards the bytes that matter: leads, continuations, invalid bytes, ASCII.
  const unsigned char interesting[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF,
                                       0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
  tally t;
  for (int round = 0; round < 6000; ++round) {
    if (!utf8dfa_sample::keep_index(static_cast<std::size_t>(round))) continue;
    bytes s(std::uniform_int_distribution<std::size_t>(0, 40)(rng), '\0');
    for (char& c : s)
      c = static_cast<char>(round % 2 ? interesting[std::uniform_int_distribution<std::size_t>(0, 23)(rng)]
                                      : std::uniform_int_distribution<int>(0, 255)(rng));
    check_input(s, t, rng, 10);
  }
  report("random bytes", t);
}

TEST_CASE("stream: long text through the bulk path, random splits") {
  // Long runs exercise the (SIMD) bulk kernels and the output iterator's internal pieces.
  std::mt19937 rng(5);
  tally t;
  for (int round = 0; round < 40; ++round) {
    bytes s;
    const int width = round % 5;  // one width, or mixed
    while (s.size() < 3000) append_char(s, rng, width);
    for (int e = 0; e < round % 4; ++e)  // a few planted errors
      s[std::uniform_int_distribution<std::size_t>(0, s.size() - 1)(rng)] = static_cast<char>(0x80 + round);
    if (round % 3 == 0) s.resize(s.size() - 1);  // maybe end inside a character
    const oracle o(s);
    ++t.inputs;
    for (int k = 0; k < 30; ++k) {
      std::vector<std::size_t> cuts;
      std::size_t left = s.size();
      const std::size_t max = k % 3 == 0 ? 7 : k % 3 == 1 ? 300 : 2000;
      while (left != 0) {
        const std::size_t c = std::min(left, std::uniform_int_distribution<std::size_t>(0, max)(rng));
        cuts.push_back(c);
        left -= c;
      }
      check_split(s, o, cuts, t);
    }
  }
  report("long text", t);
}

TEST_CASE("stream: state accessors, finish, reset") {
  utf8dfa::validator v;
  CHECK(same(v.feed("a\xE2\x82"), {1, 0, utf8dfa::error_code::none}));
  CHECK(v.pending() == 2);
  CHECK(v.position() == 3);
  CHECK(!v.failed());
  const auto fin = v.finish();
  CHECK(fin.valid_up_to == 1);
  CHECK(fin.error_length == 0);
  CHECK(fin.error == utf8dfa::error_code::incomplete);
  v.reset();
  CHECK(same(v.feed(""), {0, 0, utf8dfa::error_code::none}));
  CHECK(v.finish());

  // Strict stops at the first error and ignores what follows.
  utf8dfa::decoder<> d;
  std::u32string out;
  d.feed("ab\xE2\x82", std::back_inserter(out));
  CHECK(d.pending() == 2);
  const auto r = d.feed("cd", std::back_inserter(out));
  CHECK(r.error == utf8dfa::error_code::too_short);
  CHECK(out == U"ab");
  CHECK(d.feed("ef", std::back_inserter(out)).written == 0);
  CHECK(d.result().valid_up_to == 2);
  CHECK(d.result().error_length == 2);

  // Replace: an unfinished last character is one replacement, written by finish().
  utf8dfa::decoder<utf8dfa::replace> lossy;
  out.clear();
  lossy.feed("x\xF0\x9F", std::back_inserter(out));
  lossy.feed("\x98", std::back_inserter(out));
  CHECK(out == U"x");
  const auto f = lossy.finish(std::back_inserter(out));
  CHECK(f.written == 1);
  CHECK(f.error == utf8dfa::error_code::incomplete);
  CHECK(out == U"x\uFFFD");
  lossy.reset();
  out.clear();
  lossy.feed("\xF0\x9F", std::back_inserter(out));
  lossy.feed("\x98\x80", std::back_inserter(out));
  CHECK(lossy.finish(std::back_inserter(out)).written == 0);
  CHECK(out == U"\U0001F600");
  CHECK(lossy.result());
}

#if UTF8DFA_HAS_EXCEPTIONS
static_assert(noexcept(std::declval<utf8dfa::validator&>().feed("")), "validation never throws");
#endif

TEST_CASE("stream: every kind of byte input") {
  const std::vector<unsigned char> u{0x61, 0xE2, 0x82};
  const std::byte b[] = {std::byte{0xAC}, std::byte{0x62}};
  utf8dfa::decoder<> d;
  std::u32string out;
  d.feed(u, std::back_inserter(out));
  d.feed(b, sizeof b, std::back_inserter(out));
  d.finish(std::back_inserter(out));
  CHECK(out == U"a\u20ACb");
  utf8dfa::validator v;
  v.feed(u);
  v.feed(b, 1);
  CHECK(v.finish());
#if UTF8DFA_HAS_CHAR8_T
  utf8dfa::validator v8;
  v8.feed(std::u8string_view(u8"\u00e9"));
  CHECK(v8.finish());
#endif
}

}  // namespace utf8dfa_test_stream
