// The scalar kernel's block paths (detail/scalar.hpp, detail/units.hpp) at their edges, under the
// scalar kernel whatever the CPU, against the references: runs of 16-byte / 16-unit ASCII blocks,
// blocks of 16 units below 0x10000 (UTF-16 <-> UTF-32, UTF-16/32 -> UTF-8), the 256-unit blocks of
// utf8_length_from_utf16/32 (a pair across their end, an error anywhere in them), UTF-8 characters
// decoded while four bytes remain and within the last four, Latin-1 blocks of 16 bytes above 7F,
// UTF-16/32 to Latin-1 in chunks of 256 bytes, UTF-8 to Latin-1 under each policy, count_utf16 by
// blocks and words; text of pairs only (blocks of 32 UTF-16 units checked pair by pair, runs of
// UTF-32 values above FFFF);
// and the dialect validators' two streams on long input (detail/dialect_dfa.hpp). Each case puts
// one character or error at every position of a short input, or around the split of a long one.
#include <utf8dfa.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "catch.hpp"
#include "reference/abnf.hpp"
#include "reference/check.hpp"
#include "reference/dialect_check.hpp"

namespace utf8dfa_test_scalar_blocks {  // the file's own names (the suite also builds as unity sources)

using utf8dfa_check::check_to_utf8;
using utf8dfa_check::check_transcode;
using utf8dfa_ref::error;

/// Selects the scalar kernel for its lifetime, then puts back the one before.
struct scalar_kernel {
  std::string before{utf8dfa::active_kernel()};
  scalar_kernel() { REQUIRE(utf8dfa::select_kernel("scalar")); }
  scalar_kernel(const scalar_kernel&) = delete;
  scalar_kernel& operator=(const scalar_kernel&) = delete;
  ~scalar_kernel() { utf8dfa::select_kernel(before); }
};

/// `base` with `piece` put in at `pos` (of whole units).
template <class S>
S with(const S& base, std::size_t pos, const S& piece) {
  S s = base;
  s.insert(pos, piece);
  return s;
}

/// Text of `n` units cycling through ASCII runs and 2-, 3- and 4-byte characters (UTF-32).
std::u32string mixed32(std::size_t n) {
  static const char32_t cycle[] = {U'a', U'b',     U'c', U'd',  U'e',  U'f',   U'g',   U'h',  U'i',
                                   U'j', U'k',     U'l', U'm',  U'n',  U'o',   U'p',   U'q',  U'r',
                                   U's', U't',     0xE9, 0x5D0, 0x800, 0x4E2D, 0xFFFD, U' ',  0x1F600,
                                   U'.', 0x10FFFF, 0x7F, 0x80,  0x7FF, 0xD7FF, 0xE000, 0xFFFF};
  std::u32string s;
  for (std::size_t k = 0; k < n; ++k) s.push_back(cycle[k % (sizeof cycle / sizeof cycle[0])]);
  return s;
}

std::u16string to16(const std::u32string& s) {
  std::u16string r;
  for (const char32_t c : s) r += utf8dfa_ref::encode_utf16(c);
  return r;
}

std::string to8(const std::u32string& s) {
  std::string r;
  for (const char32_t c : s) r += utf8dfa_ref::encode_utf8(c);
  return r;
}

TEST_CASE("scalar blocks: UTF-8 to UTF-16/32 with a character or error at every position near the edges",
          "[scalar_blocks]") {
  const scalar_kernel scalar;
  const std::string plain(40, 'x'), text = to8(mixed32(30));
  const char* const pieces[] = {"\xC3\xA9",     "\xE4\xB8\xAD", "\xF0\x9F\x98\x80", "\xC3",         "\xE4\xB8",
                                "\xF0\x9F\x98", "\x80",         "\xC0\xAF",         "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                "\xE0\x80",     "\xFF"};
  for (const std::string& base : {plain, text})
    for (const char* piece : pieces)
      for (std::size_t pos = 0; pos <= base.size(); ++pos) {
        const std::string s = with(base, pos, std::string(piece));
        const auto* p = reinterpret_cast<const unsigned char*>(s.data());
        INFO("piece at " << pos);
        CHECK(check_transcode(p, s.size()).empty());
        for (std::size_t cut = s.size() > 6 ? s.size() - 6 : 0; cut < s.size(); ++cut)  // the last bytes
          CHECK(check_transcode(p, cut).empty());
      }
}

TEST_CASE("scalar blocks: UTF-16 and UTF-32 to UTF-8 and lengths with a pair or error at every position",
          "[scalar_blocks]") {
  const scalar_kernel scalar;
  // 300 units: one 256-unit length block and the rest; the ASCII base makes 16-unit ASCII runs.
  const std::u32string ascii(300, U'a'), text = mixed32(300);
  for (const std::u32string& base : {ascii, text}) {
    const std::u16string base16 = to16(base);
    for (const std::u16string& piece :
         {std::u16string(u"\xD83D\xDE00"), std::u16string(1, char16_t(0xD800)), std::u16string(1, char16_t(0xDC00)),
          std::u16string(u"\xE9"), std::u16string(u"\x4E2D")})
      for (std::size_t pos = 0; pos <= base16.size(); pos += (pos < 20 || (pos > 230 && pos < 280)) ? 1 : 7) {
        const std::u16string s = with(base16, pos, piece);
        INFO("UTF-16, piece at " << pos);
        CHECK(check_to_utf8(s.data(), s.size()).empty());
        CHECK(check_to_utf8(s.data(), s.size() < 257 ? s.size() : 257).empty());
      }
    for (const char32_t piece :
         {char32_t{0x1F600}, char32_t{0xD800}, char32_t{0x110000}, char32_t{0xE9}, char32_t{0xFFFFFFFF}})
      for (std::size_t pos = 0; pos <= base.size(); pos += (pos < 20 || (pos > 230 && pos < 280)) ? 1 : 7) {
        const std::u32string s = with(base, pos, std::u32string(1, piece));
        INFO("UTF-32, piece at " << pos);
        CHECK(check_to_utf8(s.data(), s.size()).empty());
      }
  }
}

/// UTF-16 to UTF-32 (strict and replace) by the reference pairing, and UTF-32 to UTF-16.
std::string check_utf16_utf32(const std::u16string& s16, const std::u32string& s32) {
  std::u32string want32;
  std::size_t valid16 = s16.size(), units32 = 0;
  for (std::size_t i = 0; i < s16.size();) {
    const utf8dfa_ref::utf16_piece u = utf8dfa_ref::utf16_at(s16.data(), s16.size(), i);
    if (u.kind != error::none && valid16 == s16.size()) {
      valid16 = i;
      units32 = want32.size();
    }
    want32 += u.value;
    i += u.length;
  }
  if (valid16 == s16.size()) units32 = want32.size();
  std::u32string out32(want32.size() + 1, U'\U0010ABCD');
  utf8dfa::conversion_result r = utf8dfa::utf16_to_utf32(s16, &out32[0], utf8dfa::replace{});
  if (r.read != s16.size() || r.written != want32.size() || out32.compare(0, want32.size(), want32) != 0 ||
      out32.back() != U'\U0010ABCD')
    return "utf16_to_utf32 replace";
  r = utf8dfa::utf16_to_utf32(s16, &out32[0], utf8dfa::strict{});
  if (r.read != valid16 || r.written != units32 || out32.compare(0, units32, want32, 0, units32) != 0)
    return "utf16_to_utf32 strict";

  std::u16string want16;
  std::size_t valid32 = s32.size(), units16 = 0;
  for (std::size_t i = 0; i < s32.size(); ++i) {
    const bool bad = utf8dfa_ref::utf32_error(s32[i]) != error::none;
    if (bad && valid32 == s32.size()) {
      valid32 = i;
      units16 = want16.size();
    }
    want16 += utf8dfa_ref::encode_utf16(bad ? 0xFFFD : s32[i]);
  }
  if (valid32 == s32.size()) units16 = want16.size();
  std::u16string out16(want16.size() + 1, u'\uABCD');
  r = utf8dfa::utf32_to_utf16(s32, &out16[0], utf8dfa::replace{});
  if (r.read != s32.size() || r.written != want16.size() || out16.compare(0, want16.size(), want16) != 0 ||
      out16.back() != u'\uABCD')
    return "utf32_to_utf16 replace";
  r = utf8dfa::utf32_to_utf16(s32, &out16[0], utf8dfa::strict{});
  if (r.read != valid32 || r.written != units16 || out16.compare(0, units16, want16, 0, units16) != 0)
    return "utf32_to_utf16 strict";
  return {};
}

TEST_CASE("scalar blocks: UTF-16 <-> UTF-32 with a pair or error at every position", "[scalar_blocks]") {
  const scalar_kernel scalar;
  const std::u32string base = mixed32(24) + std::u32string(40, U'a');
  const std::u16string base16 = to16(base);
  for (std::size_t pos = 0; pos <= base16.size(); ++pos) {
    INFO("position " << pos);
    for (const std::u16string& piece :
         {std::u16string(u"\xD83D\xDE00"), std::u16string(1, char16_t(0xD800)), std::u16string(1, char16_t(0xDFFF))}) {
      const std::u16string s16 = with(base16, pos, piece);
      CHECK(check_utf16_utf32(s16, {}).empty());
      CHECK(check_utf16_utf32(s16.substr(0, s16.size() - 1), {}).empty());
    }
    if (pos <= base.size())
      for (const char32_t piece : {char32_t{0x10000}, char32_t{0xDBFF}, char32_t{0x110000}, char32_t{0xFFFF}})
        CHECK(check_utf16_utf32({}, with(base, pos, std::u32string(1, piece))).empty());
  }
}

TEST_CASE("scalar blocks: Latin-1 to UTF-8 and back with blocks above 7F at every offset", "[scalar_blocks]") {
  const scalar_kernel scalar;
  for (std::size_t pos = 0; pos < 48; ++pos)
    for (std::size_t len : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{33}}) {
      std::string latin1(48, 'a');
      for (std::size_t k = 0; k < len; ++k)
        latin1.insert(latin1.begin() + static_cast<std::ptrdiff_t>(pos), char(0x80 + 5 * k));
      std::string want;
      for (const char c : latin1) want += utf8dfa_ref::encode_utf8(static_cast<unsigned char>(c));
      std::string out(want.size() + 1, '#');
      INFO("offset " << pos << ", run " << len);
      CHECK(utf8dfa::latin1_to_utf8(latin1, &out[0]) == want.size());
      CHECK(out.compare(0, want.size(), want) == 0);
      CHECK(out.back() == '#');
      std::string back(latin1.size() + 1, '#');
      utf8dfa::conversion_result r = utf8dfa::utf8_to_latin1(want, &back[0]);
      CHECK((r.read == want.size() && r.written == latin1.size() && r.error == utf8dfa::error_code::none));
      CHECK(back.compare(0, latin1.size(), latin1) == 0);
      // A character above U+00FF, and an ill-formed C3, where the run starts: strict stops there.
      const std::size_t at = pos;  // the bytes of the 'a's before the run
      for (const char* bad : {"\xC4\x80", "\xC3", "\xC3\x41"}) {
        const std::string s = with(want, at, std::string(bad));
        r = utf8dfa::utf8_to_latin1(s, &back[0]);
        CHECK((r.read == at && r.written == pos && r.error != utf8dfa::error_code::none));
        std::string lossy(s.size() + 1, '#');
        r = utf8dfa::utf8_to_latin1(s, &lossy[0], utf8dfa::replace{U'?'});
        const std::string bad_out = std::string(bad) == "\xC3\x41" ? "?A" : "?";
        CHECK(r.written == latin1.size() + bad_out.size());
        CHECK(lossy.compare(0, r.written, latin1.substr(0, pos) + bad_out + latin1.substr(pos)) == 0);
      }
    }
}

/// What utf16_to_latin1 / utf32_to_latin1 (by Unit) under `pol` give for `s`, worked out one unit or
/// pair at a time: the result and the bytes.
template <class Unit, class Policy>
utf8dfa::conversion_result latin1_expected(const std::basic_string<Unit>& s, Policy, std::string& bytes) {
  using utf8dfa::error_code;
  constexpr bool strict = std::is_same<Policy, utf8dfa::strict>::value,
                 skip = std::is_same<Policy, utf8dfa::skip>::value;
  error_code first = error_code::none;
  bytes.clear();
  for (std::size_t i = 0; i < s.size();) {
    const std::uint32_t u = s[i];
    std::size_t len = 1;
    error_code e = error_code::none;
    if (u >= 0xD800 && u <= 0xDFFF) {
      if (sizeof(Unit) == 2 && u <= 0xDBFF && i + 1 == s.size())
        e = error_code::incomplete;
      else if (sizeof(Unit) == 2 && u <= 0xDBFF && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF)
        e = error_code::unrepresentable, len = 2;
      else
        e = error_code::surrogate;
    } else if (u > 0x10FFFF) {
      e = error_code::too_large;
    } else if (u > 0xFF) {
      e = error_code::unrepresentable;
    }
    if (e == error_code::none) {
      bytes += static_cast<char>(u);
    } else {
      if (strict) return {i, bytes.size(), e};
      if (first == error_code::none) first = e;
      if (!skip) bytes += '?';
    }
    i += len;
  }
  return {s.size(), bytes.size(), first};
}

/// utf16_to_latin1 / utf32_to_latin1 of `s` under `pol` against latin1_expected, into a buffer of
/// exactly the bytes replace writes (the most any policy writes), with guard bytes after it; the
/// bytes past those written must stay as they were.
template <class Unit, class Policy>
std::string check_to_latin1(const std::basic_string<Unit>& s, Policy pol) {
  std::string want, room;
  const utf8dfa::conversion_result expect = latin1_expected(s, pol, want);
  latin1_expected(s, utf8dfa::replace{U'?'}, room);
  std::string out(room.size() + 16, '#');
  utf8dfa::conversion_result r{};
  if constexpr (sizeof(Unit) == 2)
    r = utf8dfa::utf16_to_latin1(std::u16string_view(s), &out[0], pol);
  else
    r = utf8dfa::utf32_to_latin1(std::u32string_view(s), &out[0], pol);
  if (r.read != expect.read || r.written != expect.written || r.error != expect.error) return "result";
  if (out.compare(0, want.size(), want) != 0) return "bytes";
  if (out.compare(want.size(), std::string::npos, std::string(out.size() - want.size(), '#')) != 0)
    return "wrote past the bytes written";
  return {};
}

TEST_CASE("scalar blocks: UTF-16/32 to Latin-1 with a character or error at every position near the chunk edges",
          "[scalar_blocks]") {
  const scalar_kernel scalar;
  // 600 units: UTF-32 blocks of 32, chunks of 128 (UTF-16) or 64 (UTF-32) units and the rest; each ends with words of
  // four (two) units and one at a time. Nothing may be written past the room that replace takes, nor past what is
  // written.
  std::u32string base;
  for (std::size_t k = 0; k < 600; ++k) base.push_back(static_cast<char32_t>((k * 37 + 11) % 256));
  const std::u16string base16(base.begin(), base.end());
  const auto near_edge = [](std::size_t pos, std::size_t size) {  // blocks of 32, chunks of 64 or 128 units
    return pos % 32 <= 3 || pos % 32 >= 29 || pos + 8 >= size;
  };
  for (const std::u16string& piece :
       {std::u16string(u"\xD83D\xDE00"), std::u16string(1, char16_t(0xD800)), std::u16string(1, char16_t(0xDC00)),
        std::u16string(u"\x100"), std::u16string(u"\xD83D\xDE00\xD83D\xDE00\xD83D\xDE00")})
    for (const std::size_t size : {std::size_t{600}, std::size_t{97}, std::size_t{40}, std::size_t{9}})
      for (std::size_t pos = 0; pos <= size; ++pos) {
        if (!near_edge(pos, size) && pos % 29 != 0) continue;
        const std::u16string s = with(base16.substr(0, size), pos, piece);
        INFO("UTF-16 of " << s.size() << ", piece at " << pos);
        CHECK(check_to_latin1(s, utf8dfa::strict{}).empty());
        CHECK(check_to_latin1(s, utf8dfa::replace{U'?'}).empty());
        CHECK(check_to_latin1(s, utf8dfa::skip{}).empty());
      }
  // Input that is all pairs after a Latin-1 start: replace writes a byte per pair.
  for (std::size_t lead = 0; lead < 80; ++lead) {
    std::u16string s = base16.substr(0, lead);
    for (std::size_t k = 0; k < 300; ++k) s += u"\xD83D\xDE00";
    INFO("pairs after " << lead);
    CHECK(check_to_latin1(s, utf8dfa::strict{}).empty());
    CHECK(check_to_latin1(s, utf8dfa::replace{U'?'}).empty());
    CHECK(check_to_latin1(s, utf8dfa::skip{}).empty());
  }
  for (const char32_t piece : {char32_t{0x100}, char32_t{0xD800}, char32_t{0x110000}, char32_t{0x1F600}})
    for (const std::size_t size : {std::size_t{600}, std::size_t{40}})
      for (std::size_t pos = 0; pos <= size; ++pos) {
        if (!near_edge(pos, size) && pos % 29 != 0) continue;
        const std::u32string s = with(base.substr(0, size), pos, std::u32string(1, piece));
        INFO("UTF-32 of " << s.size() << ", piece at " << pos);
        CHECK(check_to_latin1(s, utf8dfa::strict{}).empty());
        CHECK(check_to_latin1(s, utf8dfa::replace{U'?'}).empty());
        CHECK(check_to_latin1(s, utf8dfa::skip{}).empty());
      }
}

TEST_CASE("scalar blocks: count_utf16 with a pair or lone surrogate at every position", "[scalar_blocks]") {
  const scalar_kernel scalar;
  // 256-unit blocks, then four units a word, then one at a time.
  const std::u16string base = to16(mixed32(20)) + std::u16string(300, u'a');
  for (const std::u16string& piece :
       {std::u16string(u"\xD83D\xDE00"), std::u16string(1, char16_t(0xD800)), std::u16string(1, char16_t(0xDC00)),
        std::u16string(u"\xDC00\xD800"), std::u16string(u"\xDBFF\xDFFF\xD800")})
    for (std::size_t pos = 0; pos <= base.size(); ++pos) {
      const std::u16string s = with(base, pos, piece);
      for (const std::size_t cut : {s.size(), pos + piece.size(), pos + 1, pos, std::size_t{pos + 7}}) {
        if (cut > s.size()) continue;
        std::size_t want = 0;
        for (std::size_t i = 0; i < cut; ++want) i += utf8dfa_ref::utf16_at(s.data(), cut, i).length;
        INFO("piece at " << pos << ", " << cut << " units");
        CHECK(utf8dfa::count_utf16(std::u16string_view(s.data(), cut)) == want);
      }
    }
}

/// validate(bytes, D{}) on `text` with each of `pieces` put in around its middle (where the two
/// streams split), near its ends and at a stride elsewhere, against the dialect reference.
template <class D>
void dialect_long(const std::string& text) {
  namespace dref = utf8dfa_dialect_ref;
  const char* const pieces[] = {"\xFF",         "\x80",         "\xC0\x80",         "\xE4\xB8",
                                "\xED\xA0\x80", "\xED\xB0\x80", "\xF4\x90\x80\x80", "\xF8\x88\x80\x80\x80"};
  for (const char* piece : pieces)
    for (std::size_t pos = 0; pos <= text.size();
         pos +=
         (pos < 8 || pos + 8 > text.size() || (pos + 40 > text.size() / 2 && pos < text.size() / 2 + 40)) ? 1 : 61) {
      const std::string s = with(text, pos, std::string(piece));
      const auto* p = reinterpret_cast<const unsigned char*>(s.data());
      const dref::verdict want = dref::validate(utf8dfa_dialect_check::ref_of<D>(), p, s.size());
      const utf8dfa::validation_result got = utf8dfa::validate(s, D{});
      INFO(dref::name(utf8dfa_dialect_check::ref_of<D>()) << ": piece at " << pos << " of " << s.size());
      CHECK((got.valid_up_to == want.valid_up_to && got.error_length == want.error_length &&
             utf8dfa_check::to_ref(got.error) == want.kind));
    }
  // NUL where Modified UTF-8 has no such character, and the text alone.
  const std::string nul = with(text, text.size() / 2, std::string(1, '\0'));
  CHECK(utf8dfa::validate(nul, D{}).valid_up_to == dref::validate(utf8dfa_dialect_check::ref_of<D>(),
                                                                  reinterpret_cast<const unsigned char*>(nul.data()),
                                                                  nul.size())
                                                       .valid_up_to);
  CHECK(utf8dfa::is_valid(text, D{}) ==
        (dref::validate(utf8dfa_dialect_check::ref_of<D>(), reinterpret_cast<const unsigned char*>(text.data()),
                        text.size())
             .kind == error::none));
}

TEST_CASE("scalar blocks: dialect validation of long input (two streams) with an error around the split",
          "[scalar_blocks][dialect]") {
  // Over 1024 bytes: mixed text with ASCII throughout, and one whose middle holds no ASCII for 900
  // bytes (no split: one stream).
  const std::string mixed = to8(mixed32(800)), cjk = to8(mixed32(400) + std::u32string(300, 0x4E2D) + mixed32(400));
  for (const std::string& t : {mixed, cjk}) {
    dialect_long<utf8dfa::dialect::wtf8>(t);
    dialect_long<utf8dfa::dialect::legacy>(t);
    dialect_long<utf8dfa::dialect::cesu8>(
        utf8dfa::recode_lossy(t, utf8dfa::dialect::utf8{}, utf8dfa::dialect::cesu8{}));
    dialect_long<utf8dfa::dialect::mutf8>(
        utf8dfa::recode_lossy(t, utf8dfa::dialect::utf8{}, utf8dfa::dialect::mutf8{}));
  }
}

/// What utf8_to_latin1 gives for the UTF-8 `s`, worked out piece by piece from the ABNF reference:
/// under strict up to the first piece that is ill-formed or above U+00FF, else
/// each such piece as `repl` (or nothing when `skip`). `bytes` gets the output.
utf8dfa::conversion_result utf8_latin1_expected(const std::string& s, bool strict, bool skip, char repl,
                                                std::string& bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  bytes.clear();
  utf8dfa::conversion_result r{s.size(), 0, utf8dfa::error_code::none};
  for (std::size_t i = 0; i < s.size();) {
    const utf8dfa_ref::piece d = utf8dfa_ref::decode_at(p, s.size(), i);
    if (d.well_formed && d.value <= 0xFF) {
      bytes.push_back(static_cast<char>(d.value));
    } else {
      if (r.error == utf8dfa::error_code::none)
        r.error = d.well_formed ? utf8dfa::error_code::unrepresentable : utf8dfa::error_code::incomplete;
      if (strict) {
        r.read = i;
        break;
      }
      if (!skip) bytes.push_back(repl);
    }
    i += d.length;
  }
  r.written = bytes.size();
  return r;
}

TEST_CASE("scalar blocks: UTF-8 to Latin-1 with a character or error at every position near the edges",
          "[scalar_blocks]") {
  const scalar_kernel scalar;
  std::string latin;  // ASCII words and U+0080..U+00FF in C2/C3 pairs
  for (std::size_t k = 0; k < 40; ++k)
    latin += to8(std::u32string(1, k % 5 == 4 ? char32_t(0x80 + 3 * k) : U'a' + k % 26));
  const std::string plain(40, 'x');
  const char* const pieces[] = {"\xC3\xA9",         "\xC2\x80",     "\xC3\xBF",         "\xC4\x80", "\xE4\xB8\xAD",
                                "\xF0\x9F\x98\x80", "\xC3",         "\xC2\x41",         "\x80",     "\xC0\xAF",
                                "\xC1\xBF",         "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE0\x80", "\xFF"};
  for (const std::string& base : {plain, latin})
    for (const char* piece : pieces)
      for (std::size_t pos = 0; pos <= base.size(); ++pos) {
        const std::string full = with(base, pos, std::string(piece));
        for (std::size_t cut = full.size() > 6 ? full.size() - 6 : 0; cut <= full.size(); ++cut) {
          const std::string s = full.substr(0, cut);
          INFO("piece " << static_cast<unsigned>(static_cast<unsigned char>(piece[0])) << " at " << pos << ", length "
                        << cut);
          for (int policy = 0; policy < 3; ++policy) {
            std::string want;
            const utf8dfa::conversion_result expect = utf8_latin1_expected(s, policy == 0, policy == 2, '?', want);
            std::string out(s.size() + 1, '#');
            const utf8dfa::conversion_result r = policy == 0 ? utf8dfa::utf8_to_latin1(s, &out[0])
                                                 : policy == 1
                                                     ? utf8dfa::utf8_to_latin1(s, &out[0], utf8dfa::replace{U'?'})
                                                     : utf8dfa::utf8_to_latin1(s, &out[0], utf8dfa::skip{});
            CHECK(r.read == expect.read);
            CHECK(r.written == expect.written);
            CHECK((r.error == utf8dfa::error_code::none) == (expect.error == utf8dfa::error_code::none));
            if (expect.error == utf8dfa::error_code::unrepresentable) CHECK(r.error == expect.error);
            CHECK(out.compare(0, want.size(), want) == 0);
            CHECK(out[want.size()] == '#');  // nothing written past the output
          }
        }
      }
}

}  // namespace utf8dfa_test_scalar_blocks

namespace utf8dfa_test_scalar_blocks {

/// utf16_to_utf32 (Unit char16_t) or utf32_to_utf16 (char32_t) of `s` under `pol` against the
/// reference worked out a character at a time, into a buffer with guard units after the room replace
/// takes: the units past those written must stay as they were.
template <class Unit, class Policy>
std::string check_utf16_utf32(const std::basic_string<Unit>& s, Policy pol) {
  using Out = std::conditional_t<sizeof(Unit) == 2, char32_t, char16_t>;
  constexpr bool strict = std::is_same<Policy, utf8dfa::strict>::value,
                 skip = std::is_same<Policy, utf8dfa::skip>::value;
  std::basic_string<Out> want;
  utf8dfa::conversion_result expect{s.size(), 0, utf8dfa::error_code::none};
  for (std::size_t i = 0; i < s.size();) {
    char32_t c = s[i];
    std::size_t len = 1;
    error e = error::none;
    if constexpr (sizeof(Unit) == 2) {
      const utf8dfa_ref::utf16_piece piece = utf8dfa_ref::utf16_at(s.data(), s.size(), i);
      c = piece.value, len = piece.length, e = piece.kind;
    } else {
      e = utf8dfa_ref::utf32_error(c);
    }
    if (e != error::none) {
      if (strict) {
        expect.read = i;
        expect.error = static_cast<utf8dfa::error_code>(static_cast<unsigned>(e));
        break;
      }
      if (expect.error == utf8dfa::error_code::none)
        expect.error = static_cast<utf8dfa::error_code>(static_cast<unsigned>(e));
      if (skip) {
        i += len;
        continue;
      }
      c = U'\uFFFD';
    }
    if constexpr (sizeof(Out) == 4)
      want.push_back(c);
    else
      want += utf8dfa_ref::encode_utf16(c);
    i += len;
  }
  expect.written = want.size();
  std::basic_string<Out> out(2 * s.size() + 8, Out(0x2323));
  utf8dfa::conversion_result r{};
  if constexpr (sizeof(Unit) == 2)
    r = utf8dfa::utf16_to_utf32(std::u16string_view(s), &out[0], pol);
  else
    r = utf8dfa::utf32_to_utf16(std::u32string_view(s), &out[0], pol);
  if (r.read != expect.read || r.written != expect.written || r.error != expect.error) return "result";
  if (out.compare(0, want.size(), want) != 0) return "units";
  if (out.compare(want.size(), std::basic_string<Out>::npos,
                  std::basic_string<Out>(out.size() - want.size(), Out(0x2323))) != 0)
    return "wrote past the units written";
  return {};
}

TEST_CASE("scalar blocks: UTF-16 <-> UTF-32 blocks with pairs, and an error at every position near them",
          "[scalar_blocks]") {
  const scalar_kernel scalar;
  // Text with a pair (a character above FFFF) every few units, so that 16-unit blocks take the path
  // for blocks that are not all one unit a character; errors put in at every position of the first
  // blocks and near the end, every length near the block sizes.
  std::u32string base;
  for (std::size_t k = 0; k < 90; ++k) base.push_back(k % 3 == 1 ? char32_t(0x1F600 + k) : char32_t(0x41 + k % 26));
  const std::u16string base16 = to16(base);
  const char32_t bad32[] = {0xD800, 0xDFFF, 0x110000, 0x1F600, 0x41};
  for (std::size_t size = 0; size <= 70; ++size)
    for (std::size_t pos = 0; pos <= size; ++pos)
      for (const char32_t b : bad32) {
        const std::u32string s = with(base.substr(0, size), pos, std::u32string(1, b));
        INFO("UTF-32 of " << s.size() << ", " << static_cast<std::uint32_t>(b) << " at " << pos);
        CHECK(check_utf16_utf32(s, utf8dfa::strict{}).empty());
        CHECK(check_utf16_utf32(s, utf8dfa::replace{}).empty());
        CHECK(check_utf16_utf32(s, utf8dfa::skip{}).empty());
      }
  const std::u16string bad16[] = {std::u16string(1, char16_t(0xD800)), std::u16string(1, char16_t(0xDC00)),
                                  std::u16string(u"\xDC00\xD800"), std::u16string(u"\xD83D\xDE00"),
                                  std::u16string(u"x")};
  for (std::size_t size = 0; size <= 80; ++size)
    for (std::size_t pos = 0; pos <= size; ++pos)
      for (const std::u16string& b : bad16) {
        const std::u16string s = with(base16.substr(0, size), pos, b);  // may cut a pair: an error too
        INFO("UTF-16 of " << s.size() << ", piece at " << pos);
        CHECK(check_utf16_utf32(s, utf8dfa::strict{}).empty());
        CHECK(check_utf16_utf32(s, utf8dfa::replace{}).empty());
        CHECK(check_utf16_utf32(s, utf8dfa::skip{}).empty());
      }
}

/// Pairs (in UTF-32, values above FFFF) with 0 to 6 BMP characters between them, the first at every
/// offset from a block's start, so that blocks converted by words of two units see pairs within a
/// word and across two; every length to 140 units, both directions, under the kernel selected.
void check_pairs_among_bmp() {
  for (std::size_t gap = 0; gap <= 6; ++gap)
    for (std::size_t lead = 0; lead <= gap + 2; ++lead) {
      std::u32string text(lead, U'\u00E9');
      while (text.size() < 140)
        for (std::size_t k = 0; k <= gap; ++k)
          text.push_back(k == 0  ? char32_t(0x1F600 + text.size())
                         : k % 2 ? char32_t(0x41 + text.size() % 26)
                                 : U'\u4E00');
      const std::u16string text16 = to16(text);
      for (std::size_t size = 0; size <= 140; ++size) {
        INFO("gap " << gap << ", lead " << lead << ", " << size << " units");
        const std::u16string s16 = text16.substr(0, size);  // may end inside a pair: an error
        CHECK(check_utf16_utf32(s16, utf8dfa::strict{}).empty());
        CHECK(check_utf16_utf32(s16, utf8dfa::replace{}).empty());
        CHECK(check_utf16_utf32(s16, utf8dfa::skip{}).empty());
        const std::u32string s32 = text.substr(0, size);
        CHECK(check_utf16_utf32(s32, utf8dfa::strict{}).empty());
        CHECK(check_utf16_utf32(s32, utf8dfa::replace{}).empty());
      }
    }
}

TEST_CASE("scalar blocks: UTF-16 <-> UTF-32 of pairs among BMP characters at every spacing and offset",
          "[scalar_blocks]") {
  check_pairs_among_bmp();  // the kernel of this run
  const scalar_kernel scalar;
  check_pairs_among_bmp();
}

/// UTF-16 validation (valid_up_to, error_length, error) by the reference, character by character.
utf8dfa::validation_result validate16_ref(const std::u16string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const utf8dfa_ref::utf16_piece piece = utf8dfa_ref::utf16_at(s.data(), s.size(), i);
    if (piece.kind != error::none)
      return {i, piece.kind == error::incomplete ? std::size_t{0} : std::size_t{1},
              static_cast<utf8dfa::error_code>(static_cast<unsigned>(piece.kind))};
    i += piece.length;
  }
  return {s.size(), 0, utf8dfa::error_code::none};
}

/// The units of `s` stored little-endian (little) or big-endian, read back as host units.
std::u16string in_order(const std::u16string& s, bool little) {
  std::u16string r;
  for (const char16_t u : s) {
    const unsigned char b[2] = {static_cast<unsigned char>(little ? u & 0xFF : u >> 8),
                                static_cast<unsigned char>(little ? u >> 8 : u & 0xFF)};
    char16_t v;
    std::memcpy(&v, b, 2);
    r.push_back(v);
  }
  return r;
}

/// `s` with each unpaired surrogate replaced by U+FFFD, by the ABNF reference.
std::u16string repaired_ref(const std::u16string& s) {
  std::u16string r;
  for (std::size_t i = 0; i < s.size();) {
    const utf8dfa_ref::utf16_piece piece = utf8dfa_ref::utf16_at(s.data(), s.size(), i);
    r += piece.kind == error::none ? s.substr(i, piece.length) : std::u16string(1, u'\uFFFD');
    i += piece.length;
  }
  return r;
}

bool same(const utf8dfa::validation_result& a, const utf8dfa::validation_result& b) {
  return a.valid_up_to == b.valid_up_to && a.error_length == b.error_length && a.error == b.error;
}

/// Text of pairs only (emoji) with an error at every position, every length to 140 UTF-16 units:
/// blocks that are all pairs (UTF-16 blocks of 32 or 64 units checked pair by pair, UTF-32 runs of
/// values above FFFF), at either alignment (one BMP unit first or none), validated in both byte
/// orders, converted and repaired, under the kernel selected.
void check_pairs_only() {
  for (const std::size_t lead : {std::size_t{0}, std::size_t{1}}) {
    std::u32string base(lead, U'\u00E9');
    for (std::size_t k = 0; k < 75; ++k) base.push_back(static_cast<char32_t>(0x1F300 + 37 * k));
    const std::u16string base16 = to16(base);
    const std::u16string bad16[] = {std::u16string(1, char16_t(0xD83D)), std::u16string(1, char16_t(0xDE00)),
                                    std::u16string(u"\xDE00\xD83D"), std::u16string(u"x")};
    for (std::size_t size = 0; size <= 140; ++size)
      for (std::size_t pos = 0; pos <= size; ++pos)
        for (const std::u16string& b : bad16) {
          const std::u16string s = with(base16.substr(0, size), pos, b);  // may cut a pair: an error too
          INFO("UTF-16 of " << s.size() << " (lead " << lead << "), piece at " << pos);
          const utf8dfa::validation_result want = validate16_ref(s);
          CHECK(same(utf8dfa::validate_utf16(s), want));
          CHECK(same(utf8dfa::validate_utf16le(in_order(s, true)), want));
          CHECK(same(utf8dfa::validate_utf16be(in_order(s, false)), want));
          CHECK(check_utf16_utf32(s, utf8dfa::strict{}).empty());
          CHECK(check_utf16_utf32(s, utf8dfa::replace{}).empty());
          std::u16string fixed(s.size(), u'#');
          utf8dfa::to_well_formed_utf16(s, &fixed[0]);
          const std::u16string want_fixed = repaired_ref(s);
          CHECK(fixed == want_fixed);
        }
    const char32_t bad32[] = {0xD800, 0x110000, 0x41};
    for (std::size_t size = 0; size <= base.size(); ++size)
      for (std::size_t pos = 0; pos <= size; ++pos)
        for (const char32_t b : bad32) {
          const std::u32string s = with(base.substr(0, size), pos, std::u32string(1, b));
          INFO("UTF-32 of " << s.size() << " (lead " << lead << "), " << static_cast<std::uint32_t>(b) << " at "
                            << pos);
          CHECK(check_utf16_utf32(s, utf8dfa::strict{}).empty());
          CHECK(check_utf16_utf32(s, utf8dfa::skip{}).empty());
        }
  }
}

TEST_CASE("scalar blocks: text of pairs only (emoji), with an error at every position, every length to 140",
          "[scalar_blocks]") {
  check_pairs_only();  // the kernel of this run
  const scalar_kernel scalar;
  check_pairs_only();
}

TEST_CASE("scalar blocks: UTF-16/32 to Latin-1 with one unit above FF at every position of 600", "[scalar_blocks]") {
  const scalar_kernel scalar;
  // Latin-1 from the start in chunks of 256 units (the chunk with the unit above FF written by the
  // general loop), every length: nothing written past what is written.
  std::u32string base;
  for (std::size_t k = 0; k < 600; ++k) base.push_back(static_cast<char32_t>((k * 53 + 7) % 256));
  const std::u16string base16(base.begin(), base.end());
  for (std::size_t pos = 0; pos < 600; ++pos) {
    std::u32string s = base;
    s[pos] = 0x100;
    const std::u16string t(s.begin(), s.end());
    for (const std::size_t cut : {std::size_t{600}, pos + 1, pos + 40}) {
      if (cut > 600) continue;
      INFO("value above FF at " << pos << " of " << cut);
      CHECK(check_to_latin1(s.substr(0, cut), utf8dfa::strict{}).empty());
      CHECK(check_to_latin1(t.substr(0, cut), utf8dfa::strict{}).empty());
      CHECK(check_to_latin1(t.substr(0, cut), utf8dfa::skip{}).empty());
    }
    INFO("Latin-1 of " << pos);
    CHECK(check_to_latin1(base.substr(0, pos), utf8dfa::strict{}).empty());
    CHECK(check_to_latin1(base16.substr(0, pos), utf8dfa::strict{}).empty());
  }
}

TEST_CASE("scalar blocks: UTF-16/32 to Latin-1, every length to 200 with an error at every position",
          "[scalar_blocks]") {
  const scalar_kernel scalar;
  // The units after the last whole chunk go in blocks of 16, 8 or 4, the last overlapping the one
  // before: each length and each position of a unit above FF, a pair or a lone surrogate in them.
  std::u32string base;
  for (std::size_t k = 0; k < 200; ++k) base.push_back(static_cast<char32_t>((k * 71 + 3) % 256));
  const std::u16string base16(base.begin(), base.end());
  for (std::size_t size = 0; size <= 200; ++size)
    for (std::size_t pos = 0; pos <= size; ++pos) {
      INFO("length " << size << ", piece at " << pos);
      for (const std::u16string& piece :
           {std::u16string(u"\x100"), std::u16string(u"\xD83D\xDE00"), std::u16string(1, char16_t(0xDC00))}) {
        const std::u16string s = with(base16.substr(0, size), pos, piece);
        CHECK(check_to_latin1(s, utf8dfa::strict{}).empty());
        CHECK(check_to_latin1(s, utf8dfa::replace{U'?'}).empty());
        CHECK(check_to_latin1(s, utf8dfa::skip{}).empty());
      }
      const std::u32string s = with(base.substr(0, size), pos, std::u32string(1, char32_t{0x1F600}));
      CHECK(check_to_latin1(s, utf8dfa::strict{}).empty());
      CHECK(check_to_latin1(s, utf8dfa::skip{}).empty());
    }
}

TEST_CASE(
    "scalar blocks: UTF-16 and UTF-32 validation and UTF-16 repair around the 256-unit chunks, an error at "
    "every position",
    "[scalar_blocks]") {
  const scalar_kernel scalar;
  // Chunks of up to 256 units (UTF-16: a multiple of 8, with the unit after each read too), then the
  // chunk that failed unit by unit: every length from 0 to 40 and around one and two chunks, with an
  // error at every position (UTF-16 a pair among the units too, so that chunks start inside pairs).
  std::u32string base;
  for (std::size_t k = 0; k < 560; ++k) base.push_back(k % 7 == 3 ? 0x1F600 + k : 0x400 + (k * 13) % 0x900);
  const std::u16string base16 = to16(base);
  std::vector<std::size_t> sizes;
  for (std::size_t s = 0; s <= 40; ++s) sizes.push_back(s);
  for (std::size_t s = 246; s <= 266; ++s) sizes.push_back(s);
  for (std::size_t s = 505; s <= 520; ++s) sizes.push_back(s);
  const std::u16string bad16[] = {std::u16string(1, char16_t(0xD83D)), std::u16string(1, char16_t(0xDE00)),
                                  std::u16string(u"\xDE00\xD83D")};
  for (const std::size_t size : sizes) {
    const std::u16string s0 = base16.substr(0, size);
    CHECK(same(utf8dfa::validate_utf16(s0), validate16_ref(s0)));
    for (std::size_t pos = 0; pos <= size; ++pos)
      for (const std::u16string& b : bad16) {
        const std::u16string s = with(s0, pos, b);
        INFO("UTF-16 of " << s.size() << ", error at " << pos);
        const utf8dfa::validation_result want = validate16_ref(s);
        CHECK(same(utf8dfa::validate_utf16(s), want));
        CHECK(same(utf8dfa::validate_utf16be(in_order(s, false)), want));
        CHECK(same(utf8dfa::validate_utf16le(in_order(s, true)), want));
        const std::u16string want_fixed = repaired_ref(s);
        std::u16string fixed(s.size(), u'#'), in_place = s;
        utf8dfa::to_well_formed_utf16(s, &fixed[0]);
        utf8dfa::to_well_formed_utf16(in_place, &in_place[0]);
        CHECK(fixed == want_fixed);
        CHECK(in_place == want_fixed);
      }
    const std::u32string t0 = base.substr(0, size);
    CHECK(same(utf8dfa::validate_utf32(t0), {t0.size(), 0, utf8dfa::error_code::none}));
    for (std::size_t pos = 0; pos < size; ++pos)
      for (const char32_t b : {char32_t{0xD800}, char32_t{0xDFFF}, char32_t{0x110000}}) {
        std::u32string t = t0;
        t[pos] = b;
        INFO("UTF-32 of " << t.size() << ", " << static_cast<std::uint32_t>(b) << " at " << pos);
        const utf8dfa::error_code e = b > 0x10FFFF ? utf8dfa::error_code::too_large : utf8dfa::error_code::surrogate;
        CHECK(same(utf8dfa::validate_utf32(t), {pos, 1, e}));
      }
  }
}

}  // namespace utf8dfa_test_scalar_blocks
