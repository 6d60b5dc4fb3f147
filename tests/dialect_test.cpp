// The dialects (WTF-8, CESU-8, Modified UTF-8, RFC 2279 and strict UTF-8 through the same API)
// against tests/reference/dialects.hpp, which reads each dialect from its encoder's bit patterns:
//  - every input of 1 to 3 bytes: in dialect_exhaustive_test.cpp;
//  - inputs of 3 to 6 bytes, pruned but exhaustive: bytes are taken one per interval between the
//    range ends of all five grammars plus that interval's last byte (every range of every grammar
//    starts and ends on those, so any other byte of an interval is treated exactly as these are), and
//    a prefix is extended only while it is well-formed or incomplete (once an error other than
//    incomplete is found, the bytes after it cannot change the first error);
//  - round trips of every value each dialect writes (legacy: every value up to 10FFFF and a sample
//    above), and cross-dialect cases.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <list>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <utf8dfa.hpp>

#include "catch.hpp"
#include "reference/dialect_check.hpp"

namespace utf8dfa_test_dialect {  // the file's own names (the suite also builds as unity sources)

namespace {

using namespace utf8dfa_dialect_check;

/// One byte per interval between the range ends of the five grammars (its last: the first bytes
/// are the interval starts, which every other test meets often).
std::vector<unsigned char> representatives() {
  const unsigned starts[] = {0x00, 0x01, 0x80, 0x84, 0x88, 0x90, 0xA0, 0xB0, 0xC0, 0xC1, 0xC2, 0xE0, 0xE1,
                             0xED, 0xEE, 0xF0, 0xF1, 0xF4, 0xF5, 0xF8, 0xF9, 0xFC, 0xFD, 0xFE, 0x100};
  std::vector<unsigned char> r;
  for (std::size_t k = 0; k + 1 < sizeof starts / sizeof starts[0]; ++k) {
    r.push_back(static_cast<unsigned char>(starts[k + 1] - 1));
  }
  return r;
}

template <class D>
void pruned_long() {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<unsigned char> reps = representatives();
  tally t;
  std::vector<std::vector<unsigned char>> live{{}};
  for (std::size_t n = 1; n <= 6; ++n) {
    std::vector<std::vector<unsigned char>> next;
    for (const auto& prefix : live)
      for (unsigned char b : reps) {
        std::vector<unsigned char> s = prefix;
        s.push_back(b);
        if (n >= 3) t.add(check_input<D>(s.data(), n, true));
        const dref::verdict r = dref::validate(ref_of<D>(), s.data(), n);
        if (r.kind == utf8dfa_ref::error::none || r.kind == utf8dfa_ref::error::incomplete)
          next.push_back(std::move(s));
      }
    live = std::move(next);
  }
  std::printf("dialect %-6s: %zu inputs of 3-6 bytes in %.2f s\n", dref::name(ref_of<D>()), t.inputs,
              utf8dfa_check::seconds_since(t0));
  INFO(t.first);
  CHECK(t.failures == 0);
}

/// Every value the dialect writes (legacy: up to 10FFFF, then a stride) through encode, validate and
/// decode_next, against the reference's encoder.
template <class D>
void round_trips() {
  tally t;
  auto one = [&](std::uint32_t v) {
    unsigned char out[6]{};
    const std::size_t len = utf8dfa::encode(static_cast<char32_t>(v), out, D{});
    const std::string want = dref::encode(ref_of<D>(), v);
    std::string m;
    if (len != want.size() || std::string(reinterpret_cast<char*>(out), len) != want ||
        utf8dfa::encoded_length(static_cast<char32_t>(v), D{}) != len ||
        utf8dfa::is_encodable(static_cast<char32_t>(v), D{}) != !want.empty()) {
      m = "encode " + num(v);
    } else if (len != 0) {
      const utf8dfa::decoded d = utf8dfa::decode_next(bytes{out, len}, 0, D{});
      if (d.error != error_code::none || d.code_point != v || d.length != len ||
          !utf8dfa::is_valid(bytes{out, len}, D{}))
        m = "decode " + num(v);
    }
    t.add(std::move(m));
  };
  for (std::uint32_t v = 0; v <= 0x110000; ++v) one(v);
  for (std::uint64_t v = 0x110000; v <= 0x80000000u; v += 0x1003F) one(static_cast<std::uint32_t>(v));
  for (std::uint32_t v : {0x1FFFFFu, 0x200000u, 0x3FFFFFFu, 0x4000000u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu}) one(v);
  INFO(t.first);
  CHECK(t.failures == 0);
}

template <class D>
std::size_t valid_up_to(std::string_view s) {
  return utf8dfa::validate(s, D{}).valid_up_to;
}

}  // namespace

TEST_CASE("dialects: validate and decode agree with the reference on inputs of 3-6 bytes", "[dialect][exhaustive]") {
  pruned_long<dialect::utf8>();
  pruned_long<dialect::wtf8>();
  pruned_long<dialect::cesu8>();
  pruned_long<dialect::mutf8>();
  pruned_long<dialect::legacy>();
}

TEST_CASE("dialects: every value round-trips through encode and decode", "[dialect]") {
  round_trips<dialect::utf8>();
  round_trips<dialect::wtf8>();
  round_trips<dialect::cesu8>();
  round_trips<dialect::mutf8>();
  round_trips<dialect::legacy>();
}

TEST_CASE("dialects: what each accepts that another rejects", "[dialect]") {
  using namespace std::string_view_literals;
  const auto pair = "\xED\xA0\x80\xED\xB0\x80"sv;  // U+10000 as two surrogates
  CHECK(utf8dfa::is_valid(pair, dialect::cesu8{}));
  CHECK(utf8dfa::is_valid(pair, dialect::mutf8{}));
  CHECK(utf8dfa::is_valid(pair, dialect::legacy{}));  // two surrogate code points
  CHECK(utf8dfa::validate(pair, dialect::wtf8{}).valid_up_to == 3);
  CHECK(utf8dfa::validate(pair, dialect::wtf8{}).error == error_code::surrogate);
  CHECK(utf8dfa::validate(pair, dialect::utf8{}).error == error_code::surrogate);
  CHECK(utf8dfa::decode_next(pair, 0, dialect::cesu8{}).code_point == U'\U00010000');

  const auto lone = "\xED\xA0\x80"sv;  // a lone lead surrogate
  CHECK(utf8dfa::is_valid(lone, dialect::wtf8{}));
  CHECK(utf8dfa::is_valid(lone, dialect::legacy{}));
  CHECK(utf8dfa::validate(lone, dialect::cesu8{}).error == error_code::incomplete);  // a pair may follow
  CHECK(utf8dfa::validate("\xED\xA0\x80!"sv, dialect::cesu8{}).error == error_code::surrogate);
  CHECK(utf8dfa::validate("\xED\xA0\x80!"sv, dialect::cesu8{}).error_length == 3);
  CHECK(utf8dfa::validate("\xED\xB0\x80"sv, dialect::cesu8{}).error == error_code::surrogate);
  CHECK(utf8dfa::is_valid("\xED\xB0\x80\xED\xA0\x80"sv, dialect::wtf8{}));  // trail then lead: fine

  const auto null = "a\xC0\x80z"sv;
  CHECK(utf8dfa::is_valid(null, dialect::mutf8{}));
  CHECK(utf8dfa::decode_next(null, 1, dialect::mutf8{}).code_point == 0);
  CHECK(utf8dfa::validate(null, dialect::utf8{}).error == error_code::invalid_byte);
  CHECK(utf8dfa::validate(null, dialect::cesu8{}).error == error_code::invalid_byte);
  CHECK(utf8dfa::validate(null, dialect::legacy{}).error == error_code::invalid_byte);
  CHECK(utf8dfa::validate("a\0z"sv, dialect::mutf8{}).valid_up_to == 1);
  CHECK(utf8dfa::validate("a\0z"sv, dialect::mutf8{}).error == error_code::invalid_byte);
  CHECK(utf8dfa::validate(std::string(40, 'a') + '\0', dialect::mutf8{}).valid_up_to == 40);

  const auto big = "\xF4\x90\x80\x80"sv;  // 0x110000
  CHECK(utf8dfa::decode_next(big, 0, dialect::legacy{}).code_point == 0x110000);
  CHECK(utf8dfa::validate(big, dialect::utf8{}).error == error_code::too_large);
  CHECK(utf8dfa::validate(big, dialect::wtf8{}).error == error_code::too_large);
  CHECK(utf8dfa::validate(big, dialect::cesu8{}).error == error_code::invalid_byte);
  const auto top = "\xFD\xBF\xBF\xBF\xBF\xBF"sv;
  CHECK(utf8dfa::decode_next(top, 0, dialect::legacy{}).code_point == 0x7FFFFFFF);
  CHECK(utf8dfa::decode_next(top, 0, dialect::legacy{}).length == 6);
  CHECK(utf8dfa::validate("\xFC\x83\xBF\xBF\xBF\xBF"sv, dialect::legacy{}).error == error_code::overlong);
  CHECK(utf8dfa::validate("\xFE"sv, dialect::legacy{}).error == error_code::invalid_byte);

  const auto four = "\xF0\x9F\x98\x80"sv;  // U+1F600
  CHECK(utf8dfa::is_valid(four, dialect::utf8{}));
  CHECK(utf8dfa::is_valid(four, dialect::wtf8{}));
  CHECK(utf8dfa::is_valid(four, dialect::legacy{}));
  CHECK(valid_up_to<dialect::cesu8>(four) == 0);
  CHECK(valid_up_to<dialect::mutf8>(four) == 0);
}

TEST_CASE("dialects: validate and decode are constexpr", "[dialect]") {
  using namespace std::string_view_literals;
  static_assert(utf8dfa::is_valid("\xED\xA0\x80\xED\xB0\x80"sv, dialect::cesu8{}));
  static_assert(!utf8dfa::is_valid("\xED\xA0\x80\xED\xB0\x80"sv, dialect::wtf8{}));
  static_assert(utf8dfa::decode_next("\xC0\x80"sv, 0, dialect::mutf8{}).length == 2);
  constexpr auto enc = [] {
    char out[6]{};
    return utf8dfa::encode(U'\U0010FFFF', out, dialect::cesu8{});
  }();
  static_assert(enc == 6);
  SUCCEED();
}

// ---- Conversions ------------------------------------------------------------------------------

namespace {

/// Random UTF-16 biased towards surrogates (lone, paired, out of order) and the unit edges.
std::u16string random_utf16(std::mt19937& rng, std::size_t n) {
  static const char16_t picks[] = {0x0000, 0x0041, 0x007F, 0x0080, 0x07FF, 0x0800, 0xD7FF, 0xD800,
                                   0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF, 0xD83D, 0xDE00};
  std::u16string s;
  for (std::size_t k = 0; k < n; ++k)
    s += rng() % 2 ? picks[rng() % (sizeof picks / sizeof picks[0])] : static_cast<char16_t>(rng() & 0xFFFF);
  return s;
}

/// Random bytes drawn from the interval representatives and ASCII, so that every dialect's forms
/// and errors occur.
std::string random_bytes(std::mt19937& rng, std::size_t n) {
  static const unsigned char picks[] = {0x00, 0x41, 0x80, 0x84, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0,
                                        0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xED, 0xED,
                                        0xEF, 0xF0, 0xF4, 0xF5, 0xF8, 0xFC, 0xFD, 0xFE};
  std::string s;
  for (std::size_t k = 0; k < n; ++k) s += static_cast<char>(picks[rng() % sizeof picks]);
  return s;
}

/// Every code point of the dialect's decode, with each error (and character UTF-16 cannot hold:
/// `utf16`) replaced by U+FFFD, from the reference.
std::u32string ref_lossy(dref::dialect d, const std::string& s, bool utf16) {
  std::u32string out;
  dref::for_each_segment(d, reinterpret_cast<const unsigned char*>(s.data()), s.size(),
                         [&](std::size_t, const dref::segment& g) {
                           std::uint32_t v = g.kind == utf8dfa_ref::error::none ? g.value : 0xFFFD;
                           if (utf16 && (v > 0x10FFFF || (d != dref::dialect::wtf8 && v >= 0xD800 && v <= 0xDFFF)))
                             v = 0xFFFD;
                           out += static_cast<char32_t>(v);
                         });
  return out;
}

std::u16string to16(const std::u32string& s) {
  std::u16string out;
  for (char32_t c : s) {
    if (c < 0x10000) {
      out += static_cast<char16_t>(c);
    } else {
      out += static_cast<char16_t>(0xD7C0 + (c >> 10));
      out += static_cast<char16_t>(0xDC00 + (c & 0x3FF));
    }
  }
  return out;
}

template <class D>
void lossy_matches_reference(std::mt19937& rng) {
  tally t;
  for (int k = 0; k < 3000; ++k) {
    const std::string s = random_bytes(rng, rng() % 24);
    const std::u32string want32 = ref_lossy(ref_of<D>(), s, false);
    const std::u16string want16 = to16(ref_lossy(ref_of<D>(), s, true));
    std::string m;
    if (utf8dfa::to_utf32_lossy(s, D{}) != want32) m = "to_utf32_lossy";
    if (utf8dfa::to_utf16_lossy(s, D{}) != want16) m = "to_utf16_lossy";
    if (utf8dfa::utf32_length_from_utf8(s, utf8dfa::replace{}, D{}) != want32.size()) m = "utf32_length";
    if (utf8dfa::utf16_length_from_utf8(s, utf8dfa::replace{}, D{}) != want16.size()) m = "utf16_length";
    // Strict stops at the first error, with the prefix before it.
    utf8dfa::conversion_result st{};
    const std::u32string strict32 = utf8dfa::to_utf32(s, st, D{});
    const utf8dfa::validation_result v = utf8dfa::validate(s, D{});
    if (v && (!st || strict32 != want32)) m = "to_utf32 (well-formed)";
    if (!v && (st.error != v.error || st.read != v.valid_up_to)) m = "to_utf32 (ill-formed)";
    t.add(m.empty() ? std::string() : fail(reinterpret_cast<const unsigned char*>(s.data()), s.size(), m));
  }
  INFO(t.first);
  CHECK(t.failures == 0);
}

}  // namespace

TEST_CASE("dialects: UTF-16 with unpaired surrogates round-trips through WTF-8", "[dialect][transcode]") {
  tally t;
  auto one = [&](const std::u16string& u) {
    utf8dfa::conversion_result st{};
    const std::string w = utf8dfa::to_utf8(u, st, dialect::wtf8{});
    std::string m;
    if (!st || w.size() != utf8dfa::utf8_length_from_utf16(u, {}, dialect::wtf8{})) m = "to WTF-8";
    if (m.empty() && !utf8dfa::is_valid(w, dialect::wtf8{})) m = "WTF-8 ill-formed";
    const std::u16string back = utf8dfa::to_utf16(w, st, dialect::wtf8{});
    if (m.empty() && (!st || back != u)) m = "back to UTF-16";
    // Well-formed UTF-16 gives the UTF-8 bytes.
    utf8dfa::conversion_result st8{};
    const std::string strict8 = utf8dfa::to_utf8(u, st8);
    if (m.empty() && st8 && strict8 != w) m = "not UTF-8 for well-formed UTF-16";
    t.add(m.empty() ? std::string() : m + " " + std::to_string(u.size()) + " units, first " + num(u[0]));
  };
  for (char32_t c = 0; c < 0x10000; ++c) one(std::u16string(1, static_cast<char16_t>(c)));
  for (char16_t a = 0xD800; a < 0xE000; a = static_cast<char16_t>(a + 7))
    for (char16_t b = 0xD800; b < 0xE000; b = static_cast<char16_t>(b + 5)) one(std::u16string{a, b});
  std::mt19937 rng(2026);
  for (int k = 0; k < 20000; ++k) one(random_utf16(rng, 1 + rng() % 12));
  INFO(t.first);
  CHECK(t.failures == 0);
}

TEST_CASE("dialects: every scalar value through UTF-16, UTF-32 and UTF-8 in CESU-8 and MUTF-8",
          "[dialect][transcode]") {
  tally t;
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    if (c == 0xD800) c = 0xE000;
    const std::u32string u32(1, c);
    const std::u16string u16 = to16(u32);
    utf8dfa::conversion_result st{};
    const std::string utf8 = utf8dfa::to_utf8(u32, st);
    std::string m;
    for (dref::dialect d : {dref::dialect::cesu8, dref::dialect::mutf8}) {
      const std::string want = dref::encode(d, c);
      std::string a, b, r;
      std::u16string back16;
      std::u32string back32;
      if (d == dref::dialect::cesu8) {
        a = utf8dfa::to_utf8(u16, st, dialect::cesu8{});
        b = utf8dfa::to_utf8(u32, st, dialect::cesu8{});
        r = utf8dfa::recode(utf8, st, dialect::utf8{}, dialect::cesu8{});
        back16 = utf8dfa::to_utf16(want, st, dialect::cesu8{});
        back32 = utf8dfa::to_utf32(want, st, dialect::cesu8{});
        if (utf8dfa::recode(want, st, dialect::cesu8{}, dialect::utf8{}) != utf8) m = "CESU-8 to UTF-8";
      } else {
        a = utf8dfa::to_utf8(u16, st, dialect::mutf8{});
        b = utf8dfa::to_utf8(u32, st, dialect::mutf8{});
        r = utf8dfa::recode(utf8, st, dialect::utf8{}, dialect::mutf8{});
        back16 = utf8dfa::to_utf16(want, st, dialect::mutf8{});
        back32 = utf8dfa::to_utf32(want, st, dialect::mutf8{});
        if (utf8dfa::recode(want, st, dialect::mutf8{}, dialect::utf8{}) != utf8) m = "MUTF-8 to UTF-8";
      }
      if (a != want || b != want || r != want) m = "to the dialect";
      if (back16 != u16 || back32 != u32) m = "from the dialect";
    }
    if (!m.empty()) t.add(m + " U+" + num(c));
    ++t.inputs;
  }
  INFO(t.first);
  CHECK(t.failures == 0);
}

TEST_CASE("dialects: lossy and strict decoding agree with the reference", "[dialect][transcode]") {
  std::mt19937 rng(7);
  lossy_matches_reference<dialect::utf8>(rng);
  lossy_matches_reference<dialect::wtf8>(rng);
  lossy_matches_reference<dialect::cesu8>(rng);
  lossy_matches_reference<dialect::mutf8>(rng);
  lossy_matches_reference<dialect::legacy>(rng);
}

TEST_CASE("dialects: conversions report what the target cannot hold", "[dialect][transcode]") {
  using namespace std::string_view_literals;
  utf8dfa::conversion_result st{};
  // WTF-8's lone surrogate is not UTF-8 (nor CESU-8).
  const std::string u8 = utf8dfa::recode("ab\xED\xA0\x80z"sv, st, dialect::wtf8{}, dialect::utf8{});
  CHECK(u8 == "ab");
  CHECK(st.error == error_code::surrogate);
  CHECK(st.read == 2);
  CHECK(utf8dfa::recode_lossy("ab\xED\xA0\x80z"sv, dialect::wtf8{}, dialect::utf8{}) == "ab\xEF\xBF\xBDz");
  // Legacy values above 10FFFF: kept in UTF-32, refused by UTF-16 and UTF-8.
  const auto big = "\xF8\x88\x80\x80\x80"sv;  // 0x200000
  CHECK(utf8dfa::to_utf32(big, st, dialect::legacy{}) == std::u32string(1, char32_t{0x200000}));
  CHECK(st);
  CHECK(utf8dfa::to_utf16(big, st, dialect::legacy{}).empty());
  CHECK(st.error == error_code::too_large);
  CHECK(utf8dfa::to_utf16_lossy(big, dialect::legacy{}) == u"\uFFFD");
  CHECK(utf8dfa::recode(big, st, dialect::legacy{}, dialect::utf8{}).empty());
  CHECK(st.error == error_code::too_large);
  CHECK(utf8dfa::to_utf16("\xED\xA0\x80"sv, st, dialect::legacy{}).empty());
  CHECK(st.error == error_code::surrogate);
  // Legacy pairs of surrogate code points become one character in WTF-8 (its encoder joins them).
  CHECK(utf8dfa::recode("\xED\xA0\x80\xED\xB0\x80"sv, st, dialect::legacy{}, dialect::wtf8{}) == "\xF0\x90\x80\x80");
  CHECK(utf8dfa::to_utf8(std::u32string{0xD800, 0xDC00, 0xDC00}, st, dialect::wtf8{}) ==
        "\xF0\x90\x80\x80\xED\xB0\x80");
  // UTF-16 unpaired surrogates: refused by CESU-8 and MUTF-8.
  CHECK(utf8dfa::to_utf8(u"a\xDC00", st, dialect::cesu8{}) == "a");
  CHECK(st.error == error_code::surrogate);
  CHECK(utf8dfa::to_utf8(u"a\xD800", st, dialect::mutf8{}) == "a");
  CHECK(st.error == error_code::incomplete);
  // MUTF-8: U+0000 as C0 80 both ways.
  CHECK(utf8dfa::to_utf8(std::u16string(2, u'\0'), st, dialect::mutf8{}) == "\xC0\x80\xC0\x80");
  CHECK(utf8dfa::recode("\xC0\x80"sv, st, dialect::mutf8{}, dialect::utf8{}) == std::string(1, '\0'));
  CHECK(utf8dfa::recode(std::string(1, '\0'), st, dialect::utf8{}, dialect::mutf8{}) == "\xC0\x80");
}

// ---- Iterators, views and streaming -----------------------------------------------------------

namespace {

template <class D>
void iterate_and_stream(std::mt19937& rng) {
  tally t;
  for (int k = 0; k < 2000; ++k) {
    const std::string s = random_bytes(rng, rng() % 20);
    const std::u32string want = ref_lossy(ref_of<D>(), s, false);
    std::string m;
    // Forward and backward over contiguous bytes.
    std::u32string fwd, back;
    const auto view = utf8dfa::code_points(s, D{});
    for (char32_t c : view) fwd += c;
    for (auto it = view.end(); it != view.begin();) back.insert(back.begin(), *--it);
    if (fwd != want) m = "forward iteration";
    if (back != want) m = "backward iteration";
    // Forward over a list, single-pass over a stream.
    const std::list<char> l(s.begin(), s.end());
    std::u32string from_list;
    for (char32_t c : utf8dfa::code_points(l.begin(), l.end(), D{})) from_list += c;
    if (from_list != want) m = "list iteration";
    std::istringstream in(s);
    std::u32string from_stream;
    for (char32_t c : utf8dfa::code_points(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), D{}))
      from_stream += c;
    if (from_stream != want) m = "input iteration";
    // Streaming, in random chunks.
    utf8dfa::basic_validator<D> v;
    utf8dfa::decoder<utf8dfa::replace, char32_t, D> dec32;
    utf8dfa::decoder<utf8dfa::strict, char16_t, D> dec16;
    utf8dfa::decoder<utf8dfa::replace, char, D> sanitizer;
    std::u32string out32;
    std::u16string out16;
    std::string clean;
    for (std::size_t pos = 0; pos < s.size();) {
      const std::size_t len = std::min<std::size_t>(s.size() - pos, rng() % 4);
      const std::string_view chunk(s.data() + pos, len);
      v.feed(chunk);
      dec32.feed(chunk, std::back_inserter(out32));
      dec16.feed(chunk, std::back_inserter(out16));
      sanitizer.feed(chunk, std::back_inserter(clean));
      pos += len;
    }
    dec32.finish(std::back_inserter(out32));
    dec16.finish(std::back_inserter(out16));
    sanitizer.finish(std::back_inserter(clean));
    const utf8dfa::validation_result whole = utf8dfa::validate(s, D{}), streamed = v.finish();
    if (whole.valid_up_to != streamed.valid_up_to || whole.error != streamed.error ||
        whole.error_length != streamed.error_length)
      m = "validator";
    if (out32 != want) m = "decoder (replace, UTF-32)";
    utf8dfa::conversion_result st{};
    const std::u16string strict16 = utf8dfa::to_utf16(s, st, D{});
    if (out16 != strict16 || dec16.result().error != st.error || (!st && dec16.result().valid_up_to != st.read))
      m = "decoder (strict, UTF-16)";
    if (clean != utf8dfa::recode_lossy(s, D{}, D{})) m = "decoder (replace, bytes)";
    t.add(m.empty() ? std::string() : fail(reinterpret_cast<const unsigned char*>(s.data()), s.size(), m));
  }
  INFO(t.first);
  CHECK(t.failures == 0);
}

}  // namespace

TEST_CASE("dialects: iterators, views and the streaming classes give the one-shot results",
          "[dialect][iterator][stream]") {
  std::mt19937 rng(99);
  iterate_and_stream<dialect::utf8>(rng);
  iterate_and_stream<dialect::wtf8>(rng);
  iterate_and_stream<dialect::cesu8>(rng);
  iterate_and_stream<dialect::mutf8>(rng);
  iterate_and_stream<dialect::legacy>(rng);
}

TEST_CASE("dialects: a WTF-8 iterator started inside the text sees the lead surrogate before it",
          "[dialect][iterator]") {
  using namespace std::string_view_literals;
  const auto s = "\xED\xA0\x80\xED\xB0\x80"sv;
  utf8dfa::code_point_iterator<const char*, const char*, dialect::wtf8> it(s.data(), s.data() + 3, s.data() + s.size());
  CHECK(*it == U'\uFFFD');  // ED: a trail surrogate may not follow a lead surrogate
  CHECK(it.length() == 1);
  utf8dfa::code_point_iterator<const char*, const char*, dialect::wtf8> fresh(s.data() + 3, s.data() + s.size());
  CHECK(*fresh == 0xDC00);  // read on its own, it is a lone trail surrogate
}

namespace {

/// Long inputs (past the 16-byte blocks and ASCII runs of the run-time loop; every third from 1 KiB,
/// where two streams cut near the middle run first): well-formed text of the dialect, with long
/// ASCII runs or (every other input) none, then with one or two bytes planted anywhere.
template <class D>
void long_inputs(std::mt19937& rng) {
  tally t;
  static const unsigned char planted[] = {0x00, 0x80, 0xA0, 0xB0, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF0, 0xF4, 0xF8, 0xFE};
  for (int k = 0; k < 600; ++k) {
    std::string s;
    std::string last;  // the last character appended (empty after ASCII)
    const std::size_t size = k % 3 == 0 ? 1024 + rng() % 2048 : 40 + rng() % 400;
    const bool ascii_runs = k % 2 == 0;
    while (s.size() < size) {
      if (ascii_runs && rng() % 3 == 0) {
        s.append(16 + rng() % 40, static_cast<char>('a' + rng() % 26));
        last.clear();
      } else {
        std::uint32_t v = rng() % 4 == 0 ? rng() % 0x110000 : rng() % 0x3000;
        if (rng() % 8 == 0 && ref_of<D>() == dref::dialect::legacy) v = rng() & 0x7FFFFFFF;
        if (rng() % 8 == 0 && ref_of<D>() == dref::dialect::wtf8) v = 0xD800 + rng() % 0x800;
        const std::string e = dref::encode(ref_of<D>(), v);
        // WTF-8: no trail surrogate right after a lead surrogate. The text so far is valid, so the
        // last character and the new one are what the reference checks (the whole text each time
        // made the test quadratic: 6 s of 12 of the dialect tests, minutes under the sanitizers).
        const std::string pair = last + e;
        if (dref::validate(ref_of<D>(), reinterpret_cast<const unsigned char*>(pair.data()), pair.size()).kind ==
            utf8dfa_ref::error::none) {
          s += e;
          last = e;
        }
      }
    }
    const int plants = k % 3;
    for (int j = 0; j < plants; ++j) s[rng() % s.size()] = static_cast<char>(planted[rng() % sizeof planted]);
    if (k % 5 == 0) s.resize(s.size() - rng() % 4);
    const dref::verdict r = dref::validate(ref_of<D>(), reinterpret_cast<const unsigned char*>(s.data()), s.size());
    const utf8dfa::validation_result v = utf8dfa::validate(s, D{});
    t.add(v.valid_up_to == r.valid_up_to && v.error_length == r.error_length && to_ref(v.error) == r.kind
              ? std::string()
              : "input " + num(static_cast<std::size_t>(k)) + ": library " + num(v.valid_up_to) + " " +
                    std::string(utf8dfa::error_name(v.error)) + ", reference " + num(r.valid_up_to) + " " +
                    utf8dfa_ref::name(r.kind));
  }
  INFO(t.first);
  CHECK(t.failures == 0);
}

}  // namespace

TEST_CASE("dialects: long inputs, well-formed and with planted errors", "[dialect]") {
  std::mt19937 rng(31);
  long_inputs<dialect::utf8>(rng);
  long_inputs<dialect::wtf8>(rng);
  long_inputs<dialect::cesu8>(rng);
  long_inputs<dialect::mutf8>(rng);
  long_inputs<dialect::legacy>(rng);
}

TEST_CASE("dialects: the cut of two streams near the middle keeps rules across characters", "[dialect]") {
  // A piece of 3-6 bytes at each position around the middle of 1 KiB and more of ASCII: the cut
  // must not fall between a WTF-8 lead surrogate and a trail surrogate (ill-formed together, each
  // well-formed alone), nor inside a CESU-8 pair or an MUTF-8 NUL.
  tally t;
  auto check = [&t](auto d, const std::string& piece) {
    using D = decltype(d);
    for (std::size_t n : {1024u, 1500u})
      for (std::size_t at = n / 2 - 8; at <= n / 2 + 8; ++at) {
        std::string s(n, 'a');
        s.replace(at, piece.size(), piece);
        const dref::verdict r = dref::validate(ref_of<D>(), reinterpret_cast<const unsigned char*>(s.data()), s.size());
        const utf8dfa::validation_result v = utf8dfa::validate(s, D{});
        t.add(v.valid_up_to == r.valid_up_to && to_ref(v.error) == r.kind
                  ? std::string()
                  : "piece at " + num(at) + " of " + num(n) + ": library " + num(v.valid_up_to) + ", reference " +
                        num(r.valid_up_to));
      }
  };
  check(dialect::wtf8{}, "\xED\xA0\x80\xED\xB0\x80");  // lead then trail: ill-formed
  check(dialect::wtf8{}, "\xED\xB0\x80\xED\xA0\x80");  // trail then lead: well-formed
  check(dialect::cesu8{}, "\xED\xA0\x81\xED\xB0\x80");
  check(dialect::cesu8{}, "\xED\xA0\x81\xED\x80\x80");
  check(dialect::mutf8{}, "\xC0\x80\xED\xA0\x81\xED\xB0\x80");
  check(dialect::legacy{}, "\xFC\x83\xBF\xBF\xBF\xBF");
  INFO(t.first);
  CHECK(t.failures == 0);
}

TEST_CASE("dialects: byte output fits max_output with a supplementary replacement", "[dialect]") {
  // In CESU-8 and MUTF-8 a supplementary replacement is 6 bytes; every input byte of garbage may
  // be its own ill-formed subpart. Exactly sized buffers (sanitizer builds catch any overrun).
  using utf8dfa::dialect::cesu8;
  using utf8dfa::dialect::mutf8;
  const utf8dfa::replace emoji{U'\U0001F600'};
  const std::string garbage = "\x80\xFF\xC0\xED\xA0\x80\xED\xC1\xF5";
  const auto run = [&](auto dialect_tag) {
    using dec = utf8dfa::decoder<utf8dfa::replace, char, decltype(dialect_tag)>;
    dec d(emoji);
    std::string out;
    for (char c : garbage) {
      std::vector<char> buf(dec::max_output(1));
      const auto r = d.feed(&c, 1, buf.data());
      REQUIRE(r.written <= buf.size());
      out.append(buf.data(), r.written);
    }
    std::vector<char> tail(dec::max_output(0));
    const auto r = d.finish(tail.data());
    REQUIRE(r.written <= tail.size());
    out.append(tail.data(), r.written);
    // The one-shot lossy re-encoding of the same input, chunked or not.
    dec whole(emoji);
    std::vector<char> all(dec::max_output(garbage.size()));
    std::size_t n = whole.feed(garbage, all.data()).written;
    std::vector<char> end(dec::max_output(0));
    const std::size_t m = whole.finish(end.data()).written;
    CHECK(out == std::string(all.data(), n) + std::string(end.data(), m));
    CHECK(out.size() >= 6);
  };
  run(cesu8{});
  run(mutf8{});
}

}  // namespace utf8dfa_test_dialect
