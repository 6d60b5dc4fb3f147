// BOM and encoding detection (detect.hpp) and the streaming decoder's bom_handling::strip: every
// BOM, every BOM cut short, the ambiguous FF FE 00 00, crafted inputs valid in exactly the expected
// encodings, and a BOM split at every point across chunks, checked against the decoder without the
// option on the same bytes.
#include <utf8dfa/detect.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <utf8dfa/stream.hpp>
#include <utf8dfa/transcode.hpp>

#include "catch.hpp"

namespace utf8dfa_test_detect {  // the file's own names (the suite also builds as unity sources)

namespace detect_test {

using utf8dfa::encoding;

// Bytes from a list of values (NULs included).
std::string b(std::initializer_list<unsigned> values) {
  std::string s;
  for (unsigned v : values) s.push_back(static_cast<char>(v));
  return s;
}

utf8dfa::encoding_set set_of(std::initializer_list<encoding> es) {
  utf8dfa::encoding_set s;
  for (encoding e : es) s.insert(e);
  return s;
}

std::string names(utf8dfa::encoding_set s) {
  const char* const name[] = {"none", "utf8", "utf16le", "utf16be", "utf32le", "utf32be", "latin1"};
  std::string out;
  for (unsigned k = 0; k < 7; ++k)
    if (s.contains(static_cast<encoding>(k))) out += std::string(name[k]) + " ";
  return out;
}

// Decodes `in` cut into the pieces given by `cuts` (ascending offsets), to UTF-8 bytes (Policy
// replace) or UTF-32, with the given BOM handling; returns the output and the decoder's final result.
template <class Policy, class Unit>
std::basic_string<Unit> decode_split(const std::string& in, std::vector<std::size_t> cuts, utf8dfa::bom_handling bom,
                                     utf8dfa::validation_result& result, std::size_t* position_after_first = nullptr) {
  utf8dfa::decoder<Policy, Unit> d({}, bom);
  std::basic_string<Unit> out;
  cuts.push_back(in.size());
  std::size_t at = 0;
  for (std::size_t k = 0; k < cuts.size(); ++k) {
    Unit buf[utf8dfa::decoder<Policy, Unit>::max_output(8)];
    const std::string piece = in.substr(at, cuts[k] - at);
    REQUIRE(piece.size() <= 8);
    const auto r = d.feed(piece, buf);
    out.append(buf, r.written);
    if (k == 0 && position_after_first != nullptr) *position_after_first = d.position();
    at = cuts[k];
  }
  d.finish(std::back_inserter(out));
  result = d.result();
  return out;
}

}  // namespace detect_test

using namespace detect_test;

TEST_CASE("detect: every BOM, and what is not one") {
  struct row {
    std::string bytes;
    encoding e;
    std::size_t length;
  };
  const std::vector<row> rows = {
      {b({0xEF, 0xBB, 0xBF}), encoding::utf8, 3},
      {b({0xEF, 0xBB, 0xBF, 0x41}), encoding::utf8, 3},
      {b({0xFE, 0xFF}), encoding::utf16be, 2},
      {b({0xFE, 0xFF, 0x00, 0x00}), encoding::utf16be, 2},
      {b({0xFF, 0xFE}), encoding::utf16le, 2},
      {b({0xFF, 0xFE, 0x41, 0x00}), encoding::utf16le, 2},
      {b({0xFF, 0xFE, 0x00}), encoding::utf16le, 2},        // too short for UTF-32LE's mark
      {b({0xFF, 0xFE, 0x00, 0x41}), encoding::utf16le, 2},  // 00 41 is not 00 00
      {b({0xFF, 0xFE, 0x00, 0x00}), encoding::utf32le, 4},  // UTF-32LE before UTF-16LE + U+0000
      {b({0xFF, 0xFE, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00}), encoding::utf32le, 4},
      {b({0x00, 0x00, 0xFE, 0xFF}), encoding::utf32be, 4},
      {b({0x00, 0x00, 0xFE, 0xFF, 0x00}), encoding::utf32be, 4},
      // cut short or wrong: no mark
      {"", encoding::none, 0},
      {b({0xEF}), encoding::none, 0},
      {b({0xEF, 0xBB}), encoding::none, 0},
      {b({0xEF, 0xBB, 0xBE}), encoding::none, 0},
      {b({0xEF, 0xBF, 0xBF}), encoding::none, 0},
      {b({0xFF}), encoding::none, 0},
      {b({0xFE}), encoding::none, 0},
      {b({0xFF, 0xFF}), encoding::none, 0},
      {b({0x00}), encoding::none, 0},
      {b({0x00, 0x00}), encoding::none, 0},
      {b({0x00, 0x00, 0xFE}), encoding::none, 0},
      {b({0x00, 0x00, 0xFF, 0xFE}), encoding::none, 0},
      {b({0x00, 0xFE, 0xFF}), encoding::none, 0},
      {b({0x41, 0xEF, 0xBB, 0xBF}), encoding::none, 0},  // only at the start
  };
  for (const row& r : rows) {
    INFO("row " << (&r - rows.data()));
    const utf8dfa::bom_result got = utf8dfa::detect_bom(r.bytes);
    REQUIRE(got.encoding == r.e);
    REQUIRE(got.length == r.length);
    const utf8dfa::bom_result ptr = utf8dfa::detect_bom(r.bytes.data(), r.bytes.size());
    REQUIRE(ptr.encoding == r.e);
    REQUIRE(ptr.length == r.length);
    const std::vector<unsigned char> u(r.bytes.begin(), r.bytes.end());
    REQUIRE(utf8dfa::detect_bom(u).encoding == r.e);
  }
  // A string literal is a C string: it ends at its first NUL.
  REQUIRE(utf8dfa::detect_bom("\xFF\xFE\0\0").encoding == encoding::utf16le);
  STATIC_REQUIRE(utf8dfa::detect_bom("\xEF\xBB\xBF").length == 3);
  STATIC_REQUIRE(utf8dfa::detect_bom(std::string_view("\0\0\xFE\xFF", 4)).encoding == encoding::utf32be);
}

TEST_CASE("detect: encoding_set") {
  utf8dfa::encoding_set s;
  REQUIRE(s.empty());
  REQUIRE(s.size() == 0);
  s.insert(encoding::utf16be).insert(encoding::latin1).insert(encoding::utf16be);
  REQUIRE(s.size() == 2);
  REQUIRE(s.contains(encoding::utf16be));
  REQUIRE(s.contains(encoding::latin1));
  REQUIRE_FALSE(s.contains(encoding::utf16le));
  REQUIRE_FALSE(s.contains(encoding::none));
  s.insert(encoding::none);
  REQUIRE(s.size() == 2);
  REQUIRE(s.bits() == ((1u << 3) | (1u << 6)));
  REQUIRE(s == set_of({encoding::latin1, encoding::utf16be}));
  REQUIRE(s != set_of({encoding::latin1}));
  STATIC_REQUIRE(utf8dfa::encoding_set{}.insert(encoding::utf8).contains(encoding::utf8));
}

TEST_CASE("detect: detect_encodings on crafted inputs") {
  const encoding u8 = encoding::utf8, l1 = encoding::latin1, le16 = encoding::utf16le, be16 = encoding::utf16be,
                 le32 = encoding::utf32le, be32 = encoding::utf32be;
  struct row {
    std::string bytes;
    utf8dfa::encoding_set want;
  };
  const std::vector<row> rows = {
      {"", set_of({u8, le16, be16, le32, be32, l1})},
      {"A", set_of({u8, l1})},                                            // odd length: no UTF-16/32
      {"AB", set_of({u8, le16, be16, l1})},                               // 4241 / 4142
      {"ABC", set_of({u8, l1})},                                          //
      {"ABCD", set_of({u8, le16, be16, l1})},                             // 0x44434241 is too large
      {b({0x41, 0, 0, 0}), set_of({u8, le16, be16, le32, l1})},           // BE: 0x41000000
      {b({0, 0, 0, 0x41}), set_of({u8, le16, be16, be32, l1})},           // LE: 0x41000000
      {b({0xC3, 0xA9}), set_of({u8, le16, be16, l1})},                    // é in UTF-8
      {b({0xE9}), set_of({l1})},                                          // é in Latin-1 only
      {b({0xE9, 0x00}), set_of({le16, be16, l1})},                        // é in UTF-16LE (E900 in BE)
      {b({0x00, 0xD8, 0x00, 0xDC}), set_of({le16, be16, l1})},            // LE pair D800 DC00; BE 00D8 00DC
      {b({0xD8, 0x3D, 0xDE, 0x00}), set_of({le16, be16, l1})},            // BE pair D83D DE00; LE 3DD8 00DE
      {b({0xDC, 0xD8, 0xD8, 0xDC}), set_of({le16, l1})},                  // LE pair D8DC DCD8; BE DCD8 D8DC
      {b({0x00, 0xD8, 0x41, 0x00}), set_of({be16, l1})},                  // LE: lone D800; BE: 00D8 4100
      {b({0xD8, 0x00, 0x00, 0x41}), set_of({le16, l1})},                  // BE: lone D800
      {b({0x00, 0xDC, 0x00, 0xD8}), set_of({be16, l1})},                  // LE: DC00 D800, reversed pair
      {b({0x00, 0xD8, 0x00, 0x00}), set_of({be16, l1})},                  // LE: D800 0000, UTF-32LE D800
      {b({0x00, 0x00, 0x11, 0x00}), set_of({u8, le16, be16, be32, l1})},  // LE 0x110000 too large
      {b({0x00, 0x11, 0x00, 0x00}), set_of({u8, le16, be16, le32, l1})},  // BE 0x110000 too large
      {b({0xFF, 0xFF, 0x10, 0x00}), set_of({le16, be16, le32, l1})},      // U+10FFFF LE
      {b({0xFF, 0xFE, 0x00, 0x00}), set_of({le16, be16, le32, l1})},      // the ambiguous BOM
      {b({0xEF, 0xBB, 0xBF, 0x41}), set_of({u8, le16, be16, l1})},
      {"AB\xED\xA0\x80"
       "C",
       set_of({le16, be16, l1})},  // a UTF-8 surrogate; 6 bytes
  };
  for (const row& r : rows) {
    INFO("row " << (&r - rows.data()));
    const utf8dfa::encoding_set got = utf8dfa::detect_encodings(r.bytes);
    CAPTURE(names(got), names(r.want));
    REQUIRE(got == r.want);
    REQUIRE(utf8dfa::detect_encodings(r.bytes.data(), r.bytes.size()) == r.want);
  }
}

TEST_CASE("detect: detect_encodings on long inputs (chunks, an error at the end, partial units)") {
  // U+470D8 in each form, 600 times: past several 256-unit chunks. Its UTF-16 pair D8DC DCD8 read
  // in the other byte order is DCD8 D8DC (a low surrogate, then a high one).
  const std::u32string text(600, U'\U000470D8');
  const std::string utf8 = utf8dfa::to_utf8_lossy(text);
  std::string le16, be16, le32, be32;
  for (int k = 0; k < 600; ++k) {
    le16 += b({0xDC, 0xD8, 0xD8, 0xDC});
    be16 += b({0xD8, 0xDC, 0xDC, 0xD8});
    le32 += b({0xD8, 0x70, 0x04, 0x00});
    be32 += b({0x00, 0x04, 0x70, 0xD8});
  }
  using E = encoding;
  REQUIRE(utf8dfa::detect_encodings(utf8) == set_of({E::utf8, E::utf16le, E::utf16be, E::latin1}));
  REQUIRE(utf8dfa::detect_encodings(le16).contains(E::utf16le));
  REQUIRE_FALSE(utf8dfa::detect_encodings(le16).contains(E::utf16be));
  REQUIRE(utf8dfa::detect_encodings(be16).contains(E::utf16be));
  REQUIRE_FALSE(utf8dfa::detect_encodings(be16).contains(E::utf16le));
  REQUIRE(utf8dfa::detect_encodings(le32).contains(E::utf32le));
  REQUIRE_FALSE(utf8dfa::detect_encodings(le32).contains(E::utf32be));  // 0xD8700400 is too large
  REQUIRE(utf8dfa::detect_encodings(be32).contains(E::utf32be));
  REQUIRE_FALSE(utf8dfa::detect_encodings(be32).contains(E::utf32le));
  // One error in the last unit removes each form.
  REQUIRE_FALSE(utf8dfa::detect_encodings(utf8.substr(0, utf8.size() - 1)).contains(E::utf8));
  REQUIRE_FALSE(utf8dfa::detect_encodings(le16.substr(0, le16.size() - 2)).contains(E::utf16le));  // lone high
  REQUIRE_FALSE(utf8dfa::detect_encodings(be16.substr(0, be16.size() - 2)).contains(E::utf16be));
  REQUIRE_FALSE(utf8dfa::detect_encodings(le32 + b({0x00, 0xDC, 0x00, 0x00})).contains(E::utf32le));
  REQUIRE_FALSE(utf8dfa::detect_encodings(be32 + b({0x00, 0x00, 0xDF, 0xFF})).contains(E::utf32be));
  // A partial unit at the end: no UTF-16 (odd) or UTF-32 (not a multiple of 4).
  for (std::size_t extra = 1; extra < 4; ++extra) {
    const std::string tail(extra, 'A');
    const auto s32 = utf8dfa::detect_encodings(le32 + tail);
    REQUIRE_FALSE(s32.contains(E::utf32le));
    REQUIRE(s32.contains(E::utf16le) == (extra == 2));
    REQUIRE(utf8dfa::detect_encodings(le16 + tail).contains(E::utf16le) == (extra == 2));
    REQUIRE(utf8dfa::detect_encodings(le16 + tail).contains(E::latin1));
  }
}

TEST_CASE("detect: the decoder strips a BOM split at every point") {
  using utf8dfa::bom_handling;
  const std::string bom = b({0xEF, 0xBB, 0xBF});
  // After the BOM: nothing, text, a second BOM (data), an error; and BOM prefixes cut short.
  const std::vector<std::string> inputs = {
      bom,
      bom + "A\xC3\xA9",
      bom + bom + "x",
      bom +
          "\xFF"
          "A",
      bom + "\xE2\x82",
      b({0xEF}),
      b({0xEF, 0xBB}),
      b({0xEF, 0x41}),
      b({0xEF, 0xBB, 0x41}),
      b({0xEF, 0xBB, 0xBE, 0x41}),
      b({0xEF, 0xBF, 0xBD}),
      b({0xEF, 0xEF, 0xBB, 0xBF}),
      b({0xEF, 0xBB, 0xEF, 0xBB, 0xBF}),
      "A" + bom,
      "",
  };
  for (const std::string& in : inputs) {
    const bool has = in.compare(0, 3, bom) == 0;
    const std::string rest = has ? in.substr(3) : in;
    // What the decoder without the option gives: on the rest (BOM) or on all of it (no BOM).
    utf8dfa::validation_result whole{};
    const std::string want8 = decode_split<utf8dfa::replace, char>(rest, {}, bom_handling::keep, whole);
    utf8dfa::validation_result whole_strict{};
    const std::u32string want32 = decode_split<utf8dfa::strict, char32_t>(rest, {}, bom_handling::keep, whole_strict);
    // Every 2-way and 3-way split of the first 8 bytes.
    for (std::size_t i = 0; i <= in.size() && i <= 8; ++i) {
      for (std::size_t j = i; j <= in.size() && j <= i + 8 && in.size() - j <= 8; ++j) {
        INFO("input of " << in.size() << " bytes, cuts " << i << " " << j);
        utf8dfa::validation_result r{};
        std::size_t position = 0;
        const std::string got8 = decode_split<utf8dfa::replace, char>(in, {i, j}, bom_handling::strip, r, &position);
        REQUIRE(got8 == want8);
        // Offsets count the stripped BOM's bytes.
        REQUIRE(r.valid_up_to == whole.valid_up_to + (has ? 3 : 0));
        REQUIRE(r.error == whole.error);
        REQUIRE(r.error_length == whole.error_length);
        REQUIRE(position == i);  // every byte fed is counted, held BOM bytes included
        const std::u32string got32 = decode_split<utf8dfa::strict, char32_t>(in, {i, j}, bom_handling::strip, r);
        REQUIRE(got32 == want32);
        REQUIRE(r.valid_up_to == whole_strict.valid_up_to + (has ? 3 : 0));
        REQUIRE(r.error == whole_strict.error);
        // Without the option, the BOM is U+FEFF.
        const std::u32string kept = decode_split<utf8dfa::strict, char32_t>(in, {i, j}, bom_handling::keep, r);
        REQUIRE(kept == (has ? U"\uFEFF" : U"") + want32);
      }
    }
  }
}

TEST_CASE("detect: the decoder's BOM state: pending bytes, reset, byte-wise feeding") {
  using utf8dfa::bom_handling;
  utf8dfa::decoder<utf8dfa::replace, char16_t> d({}, bom_handling::strip);
  std::u16string out;
  d.feed(b({0xEF}), std::back_inserter(out));
  REQUIRE(d.pending() == 1);
  REQUIRE(d.position() == 1);
  d.feed(b({0xBB}), std::back_inserter(out));
  REQUIRE(d.pending() == 2);
  d.feed(b({0xBF}), std::back_inserter(out));
  REQUIRE(d.pending() == 0);
  REQUIRE(d.position() == 3);
  REQUIRE(out.empty());
  d.feed(b({0xEF, 0xBB, 0xBF}), std::back_inserter(out));  // a second BOM is data
  REQUIRE(out == u"\uFEFF");
  d.finish(std::back_inserter(out));
  // reset() starts a new stream, which may start with a BOM again.
  d.reset();
  out.clear();
  d.feed(b({0xEF, 0xBB}), std::back_inserter(out));
  d.feed(b({0x41}), std::back_inserter(out));  // "EF BB" then "41": an ill-formed subpart and 'A'
  d.finish(std::back_inserter(out));
  REQUIRE(out == u"\uFFFDA");
  REQUIRE(d.result().error == utf8dfa::error_code::too_short);
  REQUIRE(d.result().valid_up_to == 0);
  REQUIRE(d.result().error_length == 2);
  // A held prefix at the end of the input is the incomplete character it is without the option.
  d.reset();
  out.clear();
  d.feed(b({0xEF, 0xBB}), std::back_inserter(out));
  d.finish(std::back_inserter(out));
  REQUIRE(out == u"\uFFFD");
  REQUIRE(d.result().error == utf8dfa::error_code::incomplete);
  // After a stream whose BOM was stripped (its start decided), reset() strips again.
  d.reset();
  out.clear();
  d.feed(b({0xEF, 0xBB, 0xBF, 0x61}), std::back_inserter(out));
  d.finish(std::back_inserter(out));
  REQUIRE(out == u"a");
  d.reset();
  out.clear();
  d.feed(b({0xEF, 0xBB, 0xBF, 0x62}), std::back_inserter(out));
  d.finish(std::back_inserter(out));
  REQUIRE(out == u"b");
  REQUIRE(d.position() == 4);
  // The default keeps it.
  utf8dfa::decoder<utf8dfa::strict, char> keep;
  std::string kept;
  keep.feed(b({0xEF, 0xBB, 0xBF, 0x41}), std::back_inserter(kept));
  REQUIRE(kept == b({0xEF, 0xBB, 0xBF, 0x41}));
}

TEST_CASE("detect: the decoder strips a BOM in every dialect") {
  using utf8dfa::bom_handling;
  const auto check = [](auto dialect) {
    using D = decltype(dialect);
    for (const std::string& in : {b({0xEF, 0xBB, 0xBF, 0x41}), b({0xEF, 0xBB, 0x41}), b({0xEF, 0xBB})}) {
      const auto decode = [&in](std::size_t cut, bom_handling bom) {
        utf8dfa::decoder<utf8dfa::replace, char32_t, D> d({}, bom);
        std::u32string out;
        d.feed(in.substr(0, cut), std::back_inserter(out));
        d.feed(in.substr(cut), std::back_inserter(out));
        d.finish(std::back_inserter(out));
        return out;
      };
      const std::u32string kept = decode(0, bom_handling::keep);
      const std::u32string want = kept.size() == 2 && kept[0] == U'\uFEFF' ? kept.substr(1) : kept;
      for (std::size_t cut = 0; cut <= in.size(); ++cut) REQUIRE(decode(cut, bom_handling::strip) == want);
    }
  };
  check(utf8dfa::dialect::wtf8{});
  check(utf8dfa::dialect::cesu8{});
  check(utf8dfa::dialect::mutf8{});
  check(utf8dfa::dialect::legacy{});
}

}  // namespace utf8dfa_test_detect
