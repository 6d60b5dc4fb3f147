// validate / is_valid against the reference reading of the RFC 3629 ABNF: every input of 1 to 3
// bytes, a pruned but exhaustive enumeration of 4-byte inputs, random longer inputs, and the
// offsets, lengths and kinds of every kind of error.
#include <array>
#include <cstddef>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <utf8dfa.hpp>

#include "catch.hpp"
#if UTF8DFA_HAS_SPAN
#include <span>
#endif
#include "reference/check.hpp"

namespace utf8dfa_test_validate {  // the file's own names (the suite also builds as unity sources)

using namespace utf8dfa_check;
using utf8dfa::error_code;

TEST_CASE("the reference and the library name the error kinds alike", "[validate][reference]") {
  for (unsigned k = 0; k < 8; ++k) {
    const auto e = static_cast<error_code>(k);
    CHECK(utf8dfa::error_name(e) == std::string_view(utf8dfa_ref::name(to_ref(e))));
  }
}

TEST_CASE("the reference's two readings accept exactly the scalar values' forms", "[validate][reference]") {
  // Of the 4-byte inputs only lead F0..F4 with three continuation bytes can be one UTF8-char; count
  // those both readings accept: one per value of RFC 3629 section 3's last row.
  std::size_t abnf = 0, bits = 0, disagree = 0;
  unsigned char s[4];
  for (unsigned b0 = 0xF0; b0 <= 0xF4; ++b0)
    for (unsigned t = 0; t < 64 * 64 * 64; ++t) {
      s[0] = static_cast<unsigned char>(b0);
      s[1] = static_cast<unsigned char>(0x80 | (t >> 12));
      s[2] = static_cast<unsigned char>(0x80 | ((t >> 6) & 63));
      s[3] = static_cast<unsigned char>(0x80 | (t & 63));
      const bool a = utf8dfa_ref::segment_at(s, 4, 0).kind == error::none;
      const bool b = utf8dfa_ref::decode_at(s, 4, 0).well_formed;
      abnf += a;
      bits += b;
      disagree += a != b;
    }
  CHECK(abnf == 0x110000 - 0x10000);
  CHECK(bits == abnf);
  CHECK(disagree == 0);
}

TEST_CASE("validate agrees with the ABNF on every input of 1, 2 and 3 bytes", "[validate][exhaustive]") {
  for (std::size_t n = 1; n <= 3; ++n) {
    const auto t0 = std::chrono::steady_clock::now();
    tally t;
    std::size_t one_char = 0;  // inputs that are exactly one UTF8-char
    for_each_sequence(n, [&](const unsigned char* p, std::size_t len) {
      t.add(check_validate(p, len));
      const utf8dfa_ref::segment s = utf8dfa_ref::segment_at(p, len, 0);
      one_char += s.kind == error::none && s.length == len;
    });
    std::printf("validate: all %zu inputs of %zu bytes in %.2f s\n", t.inputs, n, seconds_since(t0));
    INFO(t.first);
    CHECK(t.failures == 0);
    CHECK(t.inputs == utf8dfa_sample::inputs_of_length(n));
    // The reference itself: the n-byte forms are exactly the scalar values of RFC 3629 section 3's row n
    // (when every input was enumerated).
    const std::size_t scalars[] = {0, 0x80, 0x800 - 0x80, 0x10000 - 0x800 - 0x800};
    if (t.inputs == std::size_t{1} << (8 * n)) CHECK(one_char == scalars[n]);
  }
}

TEST_CASE("a sampled enumeration keeps about one leading pair in N, and second bytes of every range for every lead") {
  for (unsigned n = 2; n <= 8; ++n) {
    std::size_t kept = 0;
    for (unsigned a = 0; a < 256; ++a) {
      bool range[4] = {};  // second bytes 00..7F, 80..8F, 90..9F, A0..BF kept after the lead a
      for (unsigned b = 0; b < 256; ++b) {
        if (!utf8dfa_sample::keep(a, b, n)) continue;
        ++kept;
        if (b < 0xC0) range[b < 0x80 ? 0 : b < 0x90 ? 1 : b < 0xA0 ? 2 : 3] = true;
      }
      CHECK((range[0] && range[1] && range[2] && range[3]));
    }
    CHECK(kept * n > 65536 * 9 / 10);
    CHECK(kept * n < 65536 * 11 / 10);
  }
  CHECK(utf8dfa_sample::keep(0xE0, 0xA0, 1));
}

TEST_CASE("validate agrees with the ABNF on every 4-byte input (pruned enumeration)", "[validate][exhaustive]") {
  auto t0 = std::chrono::steady_clock::now();
  tally t;
  const std::size_t count =
      for_each_pruned4([&](const unsigned char* p, std::size_t n) { t.add(check_validate(p, n)); });
  std::printf("validate: %zu pruned 4-byte inputs in %.2f s\n", count, seconds_since(t0));
  INFO(t.first);
  CHECK(t.failures == 0);
  CHECK(count > 10000000 / utf8dfa_sample::divisor());

  t0 = std::chrono::steady_clock::now();
  tally r;
  std::mt19937 rng(20031101);
  for (int i = 0; i < 1000000; ++i) {
    const std::uint32_t v = rng();
    const unsigned char b[4] = {static_cast<unsigned char>(v >> 24), static_cast<unsigned char>(v >> 16),
                                static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
    r.add(check_validate(b, 4));
  }
  std::printf("validate: %zu random 4-byte inputs in %.2f s\n", r.inputs, seconds_since(t0));
  INFO(r.first);
  CHECK(r.failures == 0);
}

TEST_CASE("validate agrees with the ABNF on random longer inputs", "[validate][random]") {
  std::mt19937 rng(3629);
  tally t;
  // Valid text with an ill-formed piece planted at every position (crossing every block and tail
  // boundary of the fast paths), and the text alone.
  for (int round = 0; round < 6; ++round) {
    std::string text = random_valid(rng, 10 + 20 * static_cast<std::size_t>(round));
    if (round % 2) text = std::string(70, 'x') + text;  // ASCII runs before the error
    t.add(check_validate(u8p(text), text.size()));
    for (std::size_t i = 0; i <= text.size(); ++i) {
      for (const std::string& bad : bad_pieces()) {
        std::string s = text;
        s.insert(i, bad);
        t.add(check_validate(u8p(s), s.size()));
      }
      std::string cut = text.substr(0, i);  // truncated anywhere, maybe inside a character
      t.add(check_validate(u8p(cut), cut.size()));
    }
  }
  // Long inputs (ASCII, then mixed text) with errors at the block edges of the SIMD kernels.
  for (int round = 0; round < 2; ++round) {
    const std::string text = round == 0 ? std::string(700, 'q') : std::string(40, 'q') + random_valid(rng, 300);
    for (std::size_t i : block_edges(text.size()))
      for (const std::string& bad : bad_pieces()) {
        std::string s = text;
        s.insert(i, bad);
        t.add(check_validate(u8p(s), s.size()));
      }
  }
  for (int i = 0; i < 20000; ++i) {
    const std::string s = random_mix(rng, 1 + rng() % 12);
    t.add(check_validate(u8p(s), s.size()));
  }
  for (int i = 0; i < 20000; ++i) {
    const std::string s = random_bytes(rng, rng() % 200);
    t.add(check_validate(u8p(s), s.size()));
  }
  INFO(t.first);
  CHECK(t.failures == 0);
  CHECK(t.inputs > 50000);
}

namespace validate_test {

struct error_case {
  std::string_view input;
  std::size_t valid_up_to, error_length;
  error_code kind;
};

// From the rules of the project's issue 2 (the kinds) and the Unicode Standard (the subparts).
constexpr error_case error_cases[] = {
    {"ab\xC0\x80", 2, 1, error_code::invalid_byte},         // C0: never in UTF-8 (overlong NUL)
    {"\xC1\xBF", 0, 1, error_code::invalid_byte},           // C1
    {"x\xF5\x80\x80\x80", 1, 1, error_code::invalid_byte},  // F5: would be above U+10FFFF
    {"\xFF", 0, 1, error_code::invalid_byte},               // FF
    {"\xF8\x88\x80\x80\x80", 0, 1, error_code::invalid_byte},
    {"\xFC\x84\x80\x80\x80\x80", 0, 1, error_code::invalid_byte},
    {"a\x80", 1, 1, error_code::unexpected_continuation},
    {"\xC3\xA9\xBF", 2, 1, error_code::unexpected_continuation},
    {"\xC3"
     "a",
     0, 1, error_code::too_short},
    {"\xE2\x82"
     "a",
     0, 2, error_code::too_short},
    {"\xF0\x9F\x98"
     "a",
     0, 3, error_code::too_short},
    {"\xF0\x9F\x98\xC3\xA9", 0, 3, error_code::too_short},  // cut by a new lead
    {"a\xC3", 1, 0, error_code::incomplete},
    {"\xE2\x82", 0, 0, error_code::incomplete},
    {"ok\xF0\x9F\x98", 2, 0, error_code::incomplete},
    {"\xE0\x80\xAF", 0, 1, error_code::overlong},
    {"\xE0\x9F\xBF", 0, 1, error_code::overlong},
    {"\xF0\x80\x80\xAF", 0, 1, error_code::overlong},
    {"\xF0\x8F\xBF\xBF", 0, 1, error_code::overlong},
    {"\xED\xA0\x80", 0, 1, error_code::surrogate},
    {"\xED\xBF\xBF", 0, 1, error_code::surrogate},
    {"\xF4\x90\x80\x80", 0, 1, error_code::too_large},
    {"\xF4\xBF\xBF\xBF", 0, 1, error_code::too_large},
};

}  // namespace validate_test

using validate_test::error_case;
using validate_test::error_cases;

TEST_CASE("every kind of error: offset, length and kind", "[validate][errors]") {
  for (const error_case& c : error_cases) {
    INFO(hex(std::string(c.input)));
    const utf8dfa::validation_result r = utf8dfa::validate(c.input);
    CHECK(r.valid_up_to == c.valid_up_to);
    CHECK(r.error_length == c.error_length);
    CHECK(r.error == c.kind);
    CHECK_FALSE(r);
    CHECK_FALSE(utf8dfa::is_valid(c.input));
    // The same, after 100 ASCII bytes (the fast paths) and inside the reference's view.
    const std::string shifted = std::string(100, '.') + std::string(c.input);
    const utf8dfa::validation_result s = utf8dfa::validate(shifted);
    CHECK(s.valid_up_to == c.valid_up_to + 100);
    CHECK(s.error_length == c.error_length);
    CHECK(s.error == c.kind);
    CHECK(check_validate(u8p(shifted), shifted.size()).empty());
  }
  // Every kind is covered.
  for (unsigned k = 1; k < 8; ++k) {
    bool seen = false;
    for (const error_case& c : error_cases) seen = seen || c.kind == static_cast<error_code>(k);
    CHECK(seen);
  }
}

TEST_CASE("validate on valid input and the empty input", "[validate]") {
  const utf8dfa::validation_result e = utf8dfa::validate(std::string_view{});
  CHECK(e.valid_up_to == 0);
  CHECK(e.error_length == 0);
  CHECK(e.error == error_code::none);
  CHECK(static_cast<bool>(e));
  const std::string s = "\x41\xE2\x89\xA2\xCE\x91\x2E\xF0\xA3\x8E\xB4";
  const utf8dfa::validation_result r = utf8dfa::validate(s);
  CHECK(r.valid_up_to == s.size());
  CHECK(r.error_length == 0);
  CHECK(static_cast<bool>(r));
}

TEST_CASE("every accepted input type", "[validate][types]") {
  const char raw[] = "h\xC3\xA9\xED\xA0\x80z";  // valid up to 3, then a surrogate
  const std::size_t n = sizeof raw - 1;
  auto same = [](const utf8dfa::validation_result& r) {
    return r.valid_up_to == 3 && r.error_length == 1 && r.error == error_code::surrogate;
  };
  CHECK(same(utf8dfa::validate(std::string(raw, n))));
  CHECK(same(utf8dfa::validate(std::string_view(raw, n))));
  CHECK(same(utf8dfa::validate(std::vector<unsigned char>(raw, raw + n))));
  CHECK(same(utf8dfa::validate(std::vector<char>(raw, raw + n))));
  CHECK(same(utf8dfa::validate(std::vector<signed char>(raw, raw + n))));
  std::array<unsigned char, n> arr{};
  for (std::size_t i = 0; i < n; ++i) arr[i] = static_cast<unsigned char>(raw[i]);
  CHECK(same(utf8dfa::validate(arr)));
  CHECK(same(utf8dfa::validate(raw, n)));                                          // const char* + length
  CHECK(same(utf8dfa::validate(reinterpret_cast<const unsigned char*>(raw), n)));  // unsigned char* + length
  CHECK(same(utf8dfa::validate(reinterpret_cast<const std::byte*>(raw), n)));      // std::byte* + length
  CHECK(same(utf8dfa::validate(raw)));                                             // a char array: a C string
  const char* c_str = raw;
  CHECK(same(utf8dfa::validate(c_str)));
  CHECK_FALSE(utf8dfa::is_valid(raw));
  CHECK_FALSE(utf8dfa::is_valid(std::string(raw, n)));
#if UTF8DFA_HAS_CHAR8_T
  const std::u8string u8(reinterpret_cast<const char8_t*>(raw), n);
  CHECK(same(utf8dfa::validate(u8)));
  CHECK(same(utf8dfa::validate(std::u8string_view(u8))));
  CHECK(same(utf8dfa::validate(u8.c_str())));
  CHECK(utf8dfa::validate(u8"h\u00E9").valid_up_to == 3);  // a u8 literal: a C string too
#endif
#if UTF8DFA_HAS_SPAN
  std::vector<std::byte> bytes(n);
  for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<std::byte>(raw[i]);
  CHECK(same(utf8dfa::validate(std::span<const std::byte>(bytes))));
  CHECK(same(utf8dfa::validate(std::span<std::byte>(bytes))));
#endif
}

TEST_CASE("string literals and char arrays are C strings; sized inputs keep embedded NULs", "[validate][types]") {
  // detail/bytes.hpp: character arrays and pointers end at their first NUL.
  CHECK(utf8dfa::is_valid("ok\0\xFF"));
  CHECK(utf8dfa::validate("ok\0\xFF").valid_up_to == 2);
  // A length, a std::string or a string_view with a length counts every byte, NULs included.
  const char bad[] = "ok\0\xFF";
  const utf8dfa::validation_result r = utf8dfa::validate(bad, 4);
  CHECK(r.valid_up_to == 3);
  CHECK(r.error == error_code::invalid_byte);
  CHECK(utf8dfa::validate(std::string(bad, 4)).valid_up_to == 3);
  CHECK(utf8dfa::validate(std::string_view(bad, 4)).valid_up_to == 3);
  CHECK(utf8dfa::is_valid(std::string(5, '\0')));  // NUL is UTF8-1
}

}  // namespace utf8dfa_test_validate
