// The dialects (WTF-8, CESU-8, Modified UTF-8, RFC 2279 and strict UTF-8 through the same API)
// against tests/reference/dialects.hpp, which reads each dialect from its encoder's bit patterns:
//  - every input of 1 to 3 bytes: validate's verdict (offset, length, kind) and decode_next's
//    segments (value, length, kind) walked from the start;
//  - inputs of 4 to 6 bytes, pruned but exhaustive: bytes are taken one per interval between the
//    range ends of all five grammars plus that interval's last byte (every range of every grammar
//    starts and ends on those, so any other byte of an interval is treated exactly as these are), and
//    a prefix is extended only while it is well-formed or incomplete (once an error other than
//    incomplete is found, the bytes after it cannot change the first error);
//  - round trips of every value each dialect writes (legacy: every value up to 10FFFF and a sample
//    above), and cross-dialect cases.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <utf8dfa.hpp>

#include "catch.hpp"
#include "reference/check.hpp"
#include "reference/dialects.hpp"

namespace {

namespace dref = utf8dfa_dialect_ref;
namespace dialect = utf8dfa::dialect;
using utf8dfa::error_code;
using utf8dfa_check::bytes;
using utf8dfa_check::hex;
using utf8dfa_check::tally;
using utf8dfa_check::to_ref;

template <class D>
constexpr dref::dialect ref_of() {
  if constexpr (std::is_same_v<D, dialect::utf8>) return dref::dialect::utf8;
  if constexpr (std::is_same_v<D, dialect::wtf8>) return dref::dialect::wtf8;
  if constexpr (std::is_same_v<D, dialect::cesu8>) return dref::dialect::cesu8;
  if constexpr (std::is_same_v<D, dialect::mutf8>) return dref::dialect::mutf8;
  return dref::dialect::legacy;
}

std::string fail(const unsigned char* p, std::size_t n, const std::string& what) {
  std::string s(1, '[');
  s += hex(p, n);
  s += "] ";
  s += what;
  return s;
}

std::string num(std::size_t v) {
  return std::to_string(v);
}

/// validate, is_valid and the decode_next walk (and, with `backwards`, decode_prev's) against the
/// reference. The reference's segments give the verdict too: the first one that is not a character.
template <class D>
std::string check_input(const unsigned char* p, std::size_t n, bool backwards) {
  dref::verdict r{n, 0, utf8dfa_ref::error::none};
  std::size_t lengths[8]{}, count = 0;
  bool decode_ok = true;
  dref::for_each_segment(ref_of<D>(), p, n, [&](std::size_t pos, const dref::segment& s) {
    if (s.kind != utf8dfa_ref::error::none && r.kind == utf8dfa_ref::error::none)
      r = {pos, s.kind == utf8dfa_ref::error::incomplete ? 0 : s.length, s.kind};
    lengths[count++] = s.length;
    const utf8dfa::decoded d = utf8dfa::decode_next(bytes{p, n}, pos, D{});
    const char32_t want = s.kind == utf8dfa_ref::error::none ? static_cast<char32_t>(s.value) : U'\uFFFD';
    if (d.length != s.length || to_ref(d.error) != s.kind || d.code_point != want) decode_ok = false;
  });
  const utf8dfa::validation_result v = utf8dfa::validate(bytes{p, n}, D{});
  if (v.valid_up_to != r.valid_up_to || v.error_length != r.error_length || to_ref(v.error) != r.kind)
    return fail(p, n,
                "validate: library " + num(v.valid_up_to) + "/" + num(v.error_length) + "/" +
                    std::string(utf8dfa::error_name(v.error)) + ", reference " + num(r.valid_up_to) + "/" +
                    num(r.error_length) + "/" + utf8dfa_ref::name(r.kind));
  if (utf8dfa::is_valid(p, n, D{}) != (r.kind == utf8dfa_ref::error::none)) return fail(p, n, "is_valid");
  if (!decode_ok) return fail(p, n, "decode_next");
  if (backwards) {  // from the end: the same segments in reverse
    std::size_t end = n;
    for (std::size_t k = count; k-- > 0;) {
      const utf8dfa::decoded d = utf8dfa::decode_prev(bytes{p, n}, end, D{});
      if (d.length != lengths[k]) return fail(p, n, "decode_prev at " + num(end));
      end -= d.length;
    }
  }
  return {};
}

template <class D>
void exhaustive_short() {
  const auto t0 = std::chrono::steady_clock::now();
  tally t;
  unsigned char s[3];
  for (unsigned a = 0; a < 256; ++a) {
    s[0] = static_cast<unsigned char>(a);
    t.add(check_input<D>(s, 1, true));
    for (unsigned b = 0; b < 256; ++b) {
      s[1] = static_cast<unsigned char>(b);
      t.add(check_input<D>(s, 2, true));
      for (unsigned c = 0; c < 256; ++c) {
        s[2] = static_cast<unsigned char>(c);
        t.add(check_input<D>(s, 3, false));
      }
    }
  }
  std::printf("dialect %-6s: %zu inputs of 1-3 bytes in %.2f s\n", dref::name(ref_of<D>()), t.inputs,
              utf8dfa_check::seconds_since(t0));
  INFO(t.first);
  CHECK(t.failures == 0);
}

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

TEST_CASE("dialects: validate and decode agree with the reference on every input of 1-3 bytes",
          "[dialect][exhaustive]") {
  // dialect::utf8 is validate(bytes) and decode_next(bytes, pos), checked on these inputs against
  // the ABNF reference by validate_test.cpp and decode_test.cpp; here from 3 bytes on (below).
  exhaustive_short<dialect::wtf8>();
  exhaustive_short<dialect::cesu8>();
  exhaustive_short<dialect::mutf8>();
  exhaustive_short<dialect::legacy>();
}

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
