// Bounded conversions (bounded.hpp): for generated well-formed and ill-formed input, every
// capacity from 0 to the whole output, the calls resumed from `read` until the input is done write
// exactly what one unbounded call writes, never past the capacity (a guard region after the buffer
// stays untouched), end only between characters (never inside a surrogate pair or a replacement),
// take every character that fits, and report the unbounded call's errors. Also the WHATWG
// TextEncoder.encodeInto and .NET DestinationTooSmall cases, and overload resolution.
#include <utf8dfa/bounded.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <utf8dfa/decode.hpp>
#include <utf8dfa/error.hpp>
#include <utf8dfa/latin1.hpp>
#include <utf8dfa/policy.hpp>
#include <utf8dfa/transcode.hpp>
#include <utf8dfa/utf16.hpp>

#include "catch.hpp"
#include "sample.hpp"

namespace utf8dfa_test_bounded {  // the file's own names (the suite also builds as unity sources)

namespace bounded_test {

using utf8dfa::conversion_result;
using utf8dfa::error_code;

// One character or maximal ill-formed subpart of the input, as the reference reads it.
struct piece {
  std::size_t start, length;
  char32_t code_point;
  error_code kind;  // none for a character the target holds
  // Ill-formed subparts joined after it (a WTF-8 lead surrogate and the ED B0 refused after it):
  // how many, each written as a replacement, and the first one's kind.
  std::size_t tail_errors = 0;
  error_code tail_kind = error_code::none;
};

std::vector<piece> pieces_of(const std::string& s) {
  std::vector<piece> v;
  for (std::size_t i = 0; i < s.size();) {
    const utf8dfa::decoded d = utf8dfa::decode_next(s, i);
    v.push_back({i, d.length, d.code_point, d.error});
    i += d.length;
  }
  return v;
}

std::vector<piece> pieces_of(const std::u16string& s) {
  std::vector<piece> v;
  for (std::size_t i = 0; i < s.size();) {
    const char32_t c = s[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
      v.push_back({i, 2, 0x10000 + ((c - 0xD800) << 10) + (s[i + 1] - 0xDC00u), error_code::none});
      i += 2;
      continue;
    }
    error_code k = error_code::none;
    if (c >= 0xD800 && c <= 0xDFFF)
      k = c <= 0xDBFF && i + 1 == s.size() ? error_code::incomplete : error_code::surrogate;
    v.push_back({i, 1, c, k});
    ++i;
  }
  return v;
}

std::vector<piece> pieces_of(const std::u32string& s) {
  std::vector<piece> v;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char32_t c = s[i];
    const error_code k = c >= 0xD800 && c <= 0xDFFF ? error_code::surrogate
                         : c > 0x10FFFF             ? error_code::too_large
                                                    : error_code::none;
    v.push_back({i, 1, c, k});
  }
  return v;
}

// Latin-1 input: every byte is a character.
std::vector<piece> latin1_pieces(const std::string& s) {
  std::vector<piece> v;
  for (std::size_t i = 0; i < s.size(); ++i) v.push_back({i, 1, static_cast<unsigned char>(s[i]), error_code::none});
  return v;
}

enum class target { utf8, utf16, utf32, latin1, wtf8, cesu8, mutf8, legacy };

std::size_t units(target t, char32_t c) {
  switch (t) {
    case target::utf8:
    case target::wtf8:
      return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    case target::mutf8:
      if (c == 0) return 2;
      [[fallthrough]];
    case target::cesu8:
      return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 6;
    case target::legacy:
      return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : c < 0x200000 ? 4 : c < 0x4000000 ? 5 : 6;
    case target::utf16:
      return c >= 0x10000 ? 2 : 1;
    default:
      return 1;
  }
}

// What a policy does, for the reference.
struct policy_facts {
  bool stops;
  char32_t replacement;
  bool drops = false;  // skip: nothing written for an error
};
policy_facts facts(utf8dfa::strict) {
  return {true, U'\uFFFD'};
}
policy_facts facts(utf8dfa::replace r) {
  return {false, r.replacement_value()};
}
policy_facts facts(utf8dfa::assume_valid) {
  return {false, U'\uFFFD'};
}
policy_facts facts(utf8dfa::skip) {
  return {false, U'\uFFFD', true};
}

struct totals {
  std::size_t inputs = 0, calls = 0;
};

// Checks `bounded(in-from-pos, out, capacity)` resumed until done against `plain(in, out)`, for
// every capacity from 0 to the whole output plus one (or `caps`, when given), on input whose
// pieces are `pcs` (positions in `in`'s units).
// (The conversions are passed as std::function: one instance of this per pair of unit types.)
template <class Out, class Str>
void check_resumed(
    const Str& in, const std::vector<piece>& pcs_in, target t, policy_facts pol,
    const std::function<conversion_result(std::basic_string_view<typename Str::value_type>, Out*)>& plain,
    const std::function<conversion_result(std::basic_string_view<typename Str::value_type>, Out*, std::size_t)>&
        bounded,
    totals& tot, const std::vector<std::size_t>* caps = nullptr) {
  using view = std::basic_string_view<typename Str::value_type>;
  const std::size_t n = in.size();
  std::vector<piece> pcs = pcs_in;
  if (t == target::latin1)
    for (piece& p : pcs)
      if (p.kind == error_code::none && p.code_point > 0xFF) p.kind = error_code::unrepresentable;
  // Output before each piece, up to the first error under strict.
  std::vector<std::size_t> cum{0};
  std::size_t stop = pcs.size();  // the piece strict stops at
  for (std::size_t k = 0; k < pcs.size(); ++k) {
    if (pol.stops && pcs[k].kind != error_code::none) {
      stop = k;
      break;
    }
    const std::size_t replaced = pol.drops ? 0 : units(t, pol.replacement);
    cum.push_back(cum.back() + (pcs[k].kind != error_code::none ? replaced : units(t, pcs[k].code_point)) +
                  pcs[k].tail_errors * replaced);
  }
  const auto out_of = [&](std::size_t k) { return cum[k + 1] - cum[k]; };
  std::vector<Out> ref(6 * n + 8);
  const conversion_result whole = plain(view(in), ref.data());
  INFO("input units " << n << ", pieces " << pcs.size());
  REQUIRE(whole.written == cum.back());
  REQUIRE(whole.read == (stop < pcs.size() ? pcs[stop].start : n));
  ++tot.inputs;

  std::vector<std::size_t> all_caps;
  if (caps == nullptr) {
    for (std::size_t c = 0; c <= whole.written + 1; ++c) all_caps.push_back(c);
    caps = &all_caps;
  }
  constexpr std::size_t guard = 8;
  const Out fill = static_cast<Out>(0x5A);
  std::vector<Out> buf;
  for (const std::size_t cap : *caps) {
    INFO("capacity " << cap);
    std::size_t pos = 0, k = 0;
    for (;;) {
      std::size_t room = cap;
      buf.assign(room + guard, fill);
      conversion_result r = bounded(view(in).substr(pos), buf.data(), room);
      ++tot.calls;
      if (r.read == 0 && r.written == 0 && r.error == error_code::none && pos < n) {
        // Nothing fits: the next piece needs more room. Fresh space for it.
        REQUIRE(k < stop);
        REQUIRE(out_of(k) > room);
        room = cap + 24;
        buf.assign(room + guard, fill);
        r = bounded(view(in).substr(pos), buf.data(), room);
        ++tot.calls;
        REQUIRE(r.read > 0);
      }
      INFO("at " << pos << ": read " << r.read << ", written " << r.written);
      REQUIRE(r.written <= room);
      REQUIRE(
          std::all_of(buf.begin() + static_cast<std::ptrdiff_t>(room), buf.end(), [&](Out u) { return u == fill; }));
      // Ends between pieces, having written exactly their output.
      const std::size_t end = pos + r.read;
      std::size_t k2 = k;
      while (k2 < pcs.size() && pcs[k2].start < end) ++k2;
      REQUIRE((k2 == pcs.size() ? n : pcs[k2].start) == end);
      REQUIRE(k2 <= stop);
      REQUIRE(r.written == cum[k2] - cum[k]);
      REQUIRE(std::equal(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(r.written),
                         ref.begin() + static_cast<std::ptrdiff_t>(cum[k])));
      // The error: strict's at its stop, else the first replaced in what was read.
      error_code expect = error_code::none;
      if (pol.stops) {
        if (k2 == stop && stop < pcs.size()) expect = pcs[stop].kind;
      } else {
        for (std::size_t j = k; j < k2 && expect == error_code::none; ++j)
          expect = pcs[j].kind != error_code::none ? pcs[j].kind : pcs[j].tail_kind;
      }
      REQUIRE(r.error == expect);
      pos = end;
      k = k2;
      if (k == stop) {
        REQUIRE(pos == whole.read);
        REQUIRE(cum[k] == whole.written);
        break;
      }
      // Full: the next piece did not fit.
      REQUIRE(out_of(k) > room - r.written);
    }
  }
}

// ---- Inputs. ---------------------------------------------------------------------------------

// Atoms: characters of every length, the replacement character, and ill-formed pieces of each kind.
const std::vector<std::string> utf8_atoms = {
    "a",        "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xEF\xBF\xBD",     "\x80", "\xC0",
    "\xE0\x80", "\xE2\x82", "\xF0\x9F\x98", "\xED\xA0\x80",     "\xF4\x90\x80\x80", "\xFF", "\xF0\x90\x80\x80\x80",
};
const std::vector<std::u16string> utf16_atoms = {u"a",
                                                 u"\u00E9",
                                                 u"\u20AC",
                                                 u"\U0001F600",
                                                 u"\uFFFD",
                                                 std::u16string(1, char16_t{0xD800}),
                                                 std::u16string(1, char16_t{0xDC00})};
const std::vector<std::u32string> utf32_atoms = {U"a",
                                                 U"\u00E9",
                                                 U"\u20AC",
                                                 U"\U0001F600",
                                                 U"\uFFFD",
                                                 std::u32string(1, char32_t{0xD800}),
                                                 std::u32string(1, char32_t{0x110000})};

// Every sequence of `len` atoms (from 3 atoms on, those that a sampling run keeps: tests/sample.hpp).
template <class Str, class F>
void for_each_sequence(const std::vector<Str>& atoms, std::size_t len, F f) {
  std::vector<std::size_t> idx(len, 0);
  for (std::size_t k = 0;; ++k) {
    Str s;
    for (std::size_t i : idx) s += atoms[i];
    if (len < 3 || utf8dfa_sample::keep_index(k)) f(s);
    std::size_t j = 0;
    while (j < len && ++idx[j] == atoms.size()) idx[j++] = 0;
    if (j == len) return;
  }
}

template <class Str>
Str random_sequence(const std::vector<Str>& atoms, std::size_t len, std::mt19937& rng, bool valid_only = false) {
  Str s;
  const std::size_t limit = valid_only ? 5 : atoms.size();
  for (std::size_t i = 0; i < len; ++i) s += atoms[rng() % limit];
  return s;
}

// A long input (for the SIMD kernels' blocks): well-formed text of every length, ASCII runs, and,
// unless valid, ill-formed pieces at a few places.
template <class Str>
Str long_input(const std::vector<Str>& atoms, std::size_t len, std::mt19937& rng, bool valid) {
  Str s;
  while (s.size() < len) {
    const unsigned r = rng() % 16;
    if (r < 6) {
      for (unsigned k = 0; k < 20; ++k) s += atoms[0];
    } else if (!valid && r == 15) {
      s += atoms[5 + rng() % (atoms.size() - 5)];
    } else {
      s += atoms[1 + rng() % 4];
    }
  }
  return s;
}

// Capacities for a long input: the first ones, a sample, and the ends.
std::vector<std::size_t> sampled_caps(std::size_t total) {
  std::vector<std::size_t> caps;
  for (std::size_t c = 0; c <= total + 1; ++c)
    if (c < 16 || c % 53 == 0 || c + 3 > total) caps.push_back(c);
  return caps;
}

// ---- The conversions, each under each policy. ------------------------------------------------

template <class Policy>
void utf8_conversions(const std::string& s, Policy pol, totals& tot, const std::vector<std::size_t>* caps = nullptr) {
  const auto pcs = pieces_of(s);
  check_resumed<char16_t>(
      s, pcs, target::utf16, facts(pol),
      [&](std::string_view in, char16_t* o) { return utf8dfa::utf8_to_utf16(in, o, pol); },
      [&](std::string_view in, char16_t* o, std::size_t c) { return utf8dfa::utf8_to_utf16(in, o, c, pol); }, tot,
      caps);
  check_resumed<char32_t>(
      s, pcs, target::utf32, facts(pol),
      [&](std::string_view in, char32_t* o) { return utf8dfa::utf8_to_utf32(in, o, pol); },
      [&](std::string_view in, char32_t* o, std::size_t c) { return utf8dfa::utf8_to_utf32(in, o, c, pol); }, tot,
      caps);
}

template <class Policy>
void utf16_conversions(const std::u16string& s, Policy pol, totals& tot,
                       const std::vector<std::size_t>* caps = nullptr) {
  const auto pcs = pieces_of(s);
  check_resumed<char>(
      s, pcs, target::utf8, facts(pol),
      [&](std::u16string_view in, char* o) { return utf8dfa::utf16_to_utf8(in, o, pol); },
      [&](std::u16string_view in, char* o, std::size_t c) { return utf8dfa::utf16_to_utf8(in, o, c, pol); }, tot, caps);
  check_resumed<char32_t>(
      s, pcs, target::utf32, facts(pol),
      [&](std::u16string_view in, char32_t* o) { return utf8dfa::utf16_to_utf32(in, o, pol); },
      [&](std::u16string_view in, char32_t* o, std::size_t c) { return utf8dfa::utf16_to_utf32(in, o, c, pol); }, tot,
      caps);
}

template <class Policy>
void utf32_conversions(const std::u32string& s, Policy pol, totals& tot,
                       const std::vector<std::size_t>* caps = nullptr) {
  const auto pcs = pieces_of(s);
  check_resumed<char>(
      s, pcs, target::utf8, facts(pol),
      [&](std::u32string_view in, char* o) { return utf8dfa::utf32_to_utf8(in, o, pol); },
      [&](std::u32string_view in, char* o, std::size_t c) { return utf8dfa::utf32_to_utf8(in, o, c, pol); }, tot, caps);
  check_resumed<char16_t>(
      s, pcs, target::utf16, facts(pol),
      [&](std::u32string_view in, char16_t* o) { return utf8dfa::utf32_to_utf16(in, o, pol); },
      [&](std::u32string_view in, char16_t* o, std::size_t c) { return utf8dfa::utf32_to_utf16(in, o, c, pol); }, tot,
      caps);
}

// Into Latin-1: strict, and replace with a Latin-1 replacement.
template <class Policy>
void latin1_conversions(const std::string& s8, const std::u16string& s16, const std::u32string& s32, Policy pol,
                        totals& tot) {
  check_resumed<char>(
      s8, pieces_of(s8), target::latin1, facts(pol),
      [&](std::string_view in, char* o) { return utf8dfa::utf8_to_latin1(in, o, pol); },
      [&](std::string_view in, char* o, std::size_t c) { return utf8dfa::utf8_to_latin1(in, o, c, pol); }, tot);
  check_resumed<char>(
      s16, pieces_of(s16), target::latin1, facts(pol),
      [&](std::u16string_view in, char* o) { return utf8dfa::utf16_to_latin1(in, o, pol); },
      [&](std::u16string_view in, char* o, std::size_t c) { return utf8dfa::utf16_to_latin1(in, o, c, pol); }, tot);
  check_resumed<char>(
      s32, pieces_of(s32), target::latin1, facts(pol),
      [&](std::u32string_view in, char* o) { return utf8dfa::utf32_to_latin1(in, o, pol); },
      [&](std::u32string_view in, char* o, std::size_t c) { return utf8dfa::utf32_to_latin1(in, o, c, pol); }, tot);
}

template <class F>
void for_each_policy(F f) {
  f(utf8dfa::strict{});
  f(utf8dfa::replace{});
  f(utf8dfa::replace{U'?'});
  f(utf8dfa::replace{U'\U0001F600'});  // wider than most characters it replaces
  f(utf8dfa::skip{});                  // nothing for an error
}

TEST_CASE("Bounded UTF-8 to UTF-16/32, resumed at every capacity, equals one call", "[bounded]") {
  totals tot;
  std::mt19937 rng(1);
  for_each_policy([&](auto pol) {
    for_each_sequence(utf8_atoms, 2, [&](const std::string& s) { utf8_conversions(s, pol, tot); });
    for (int k = 0; k < 40; ++k) utf8_conversions(random_sequence(utf8_atoms, 8, rng), pol, tot);
  });
  for (int k = 0; k < 20; ++k)
    utf8_conversions(random_sequence(utf8_atoms, 8, rng, true), utf8dfa::assume_valid{}, tot);
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded UTF-16 to UTF-8/32, resumed at every capacity, equals one call", "[bounded]") {
  totals tot;
  std::mt19937 rng(2);
  for_each_policy([&](auto pol) {
    for_each_sequence(utf16_atoms, 3, [&](const std::u16string& s) { utf16_conversions(s, pol, tot); });
    for (int k = 0; k < 20; ++k) utf16_conversions(random_sequence(utf16_atoms, 8, rng), pol, tot);
  });
  for (int k = 0; k < 20; ++k)
    utf16_conversions(random_sequence(utf16_atoms, 8, rng, true), utf8dfa::assume_valid{}, tot);
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded UTF-32 to UTF-8/16, resumed at every capacity, equals one call", "[bounded]") {
  totals tot;
  std::mt19937 rng(3);
  for_each_policy([&](auto pol) {
    for_each_sequence(utf32_atoms, 3, [&](const std::u32string& s) { utf32_conversions(s, pol, tot); });
    for (int k = 0; k < 20; ++k) utf32_conversions(random_sequence(utf32_atoms, 8, rng), pol, tot);
  });
  for (int k = 0; k < 20; ++k)
    utf32_conversions(random_sequence(utf32_atoms, 8, rng, true), utf8dfa::assume_valid{}, tot);
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded conversions of long input (SIMD blocks), errors included", "[bounded]") {
  totals tot;
  std::mt19937 rng(4);
  for (const bool valid : {true, false}) {
    const std::string s8 = long_input(utf8_atoms, 700, rng, valid);
    const std::u16string s16 = long_input(utf16_atoms, 400, rng, valid);
    const std::u32string s32 = long_input(utf32_atoms, 300, rng, valid);
    const auto c8 = sampled_caps(s8.size()), c16 = sampled_caps(s16.size() * 3), c32 = sampled_caps(s32.size() * 4);
    for_each_policy([&](auto pol) {
      utf8_conversions(s8, pol, tot, &c8);
      utf16_conversions(s16, pol, tot, &c16);
      utf32_conversions(s32, pol, tot, &c32);
    });
    if (valid) {
      utf8_conversions(s8, utf8dfa::assume_valid{}, tot, &c8);
      utf16_conversions(s16, utf8dfa::assume_valid{}, tot, &c16);
      utf32_conversions(s32, utf8dfa::assume_valid{}, tot, &c32);
    }
  }
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded conversions: every sequence of three atoms, long input at every capacity", "[bounded][exhaustive]") {
  totals tot;
  std::mt19937 rng(5);
  for_each_policy([&](auto pol) {
    for_each_sequence(utf8_atoms, 3, [&](const std::string& s) { utf8_conversions(s, pol, tot); });
    for (int k = 0; k < 300; ++k) utf8_conversions(random_sequence(utf8_atoms, 12, rng), pol, tot);
    for (int k = 0; k < 300; ++k) utf16_conversions(random_sequence(utf16_atoms, 12, rng), pol, tot);
    for (int k = 0; k < 300; ++k) utf32_conversions(random_sequence(utf32_atoms, 12, rng), pol, tot);
    for (const bool valid : {true, false}) {
      utf8_conversions(long_input(utf8_atoms, 1500, rng, valid), pol, tot);
      utf16_conversions(long_input(utf16_atoms, 800, rng, valid), pol, tot);
      utf32_conversions(long_input(utf32_atoms, 500, rng, valid), pol, tot);
    }
  });
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded conversions: one error at every position of a long input", "[bounded][exhaustive]") {
  totals tot;
  std::mt19937 rng(6);
  const std::string base = long_input(utf8_atoms, 96, rng, true);
  const auto starts = pieces_of(base);
  for (const piece& at : starts) {
    if (!utf8dfa_sample::keep_index(at.start)) continue;
    for (const char* bad : {"\xE2\x82", "\xF0\x9F\x98", "\x80", "\xED\xA0\x80"}) {
      const std::string s = base.substr(0, at.start) + bad + base.substr(at.start);
      utf8_conversions(s, utf8dfa::strict{}, tot);
      utf8_conversions(s, utf8dfa::replace{}, tot);
      utf8_conversions(s, utf8dfa::skip{}, tot);
    }
  }
  const std::u16string base16 = long_input(utf16_atoms, 64, rng, true);
  for (std::size_t i = 0; i <= base16.size(); ++i) {
    if (i > 0 && i < base16.size() && base16[i] >= 0xDC00 && base16[i] <= 0xDFFF) continue;
    if (!utf8dfa_sample::keep_index(i)) continue;
    for (const char16_t bad : {char16_t{0xD800}, char16_t{0xDFFF}}) {
      const std::u16string s = base16.substr(0, i) + bad + base16.substr(i);
      utf16_conversions(s, utf8dfa::strict{}, tot);
      utf16_conversions(s, utf8dfa::replace{}, tot);
      utf16_conversions(s, utf8dfa::skip{}, tot);
    }
  }
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded conversions into and out of Latin-1", "[bounded]") {
  totals tot;
  std::mt19937 rng(7);
  const std::vector<std::string> atoms8 = {"a",    "\xC3\xA9", "\xC3\xBF", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                           "\x80", "\xE2\x82"};
  for (int k = 0; k < 40; ++k) {
    const std::string s8 = random_sequence(atoms8, 6, rng);
    const std::u16string s16 = random_sequence(utf16_atoms, 6, rng);
    const std::u32string s32 = random_sequence(utf32_atoms, 6, rng);
    latin1_conversions(s8, s16, s32, utf8dfa::strict{}, tot);
    latin1_conversions(s8, s16, s32, utf8dfa::replace{U'?'}, tot);
    latin1_conversions(s8, s16, s32, utf8dfa::skip{}, tot);
  }
  // A replacement Latin-1 cannot hold is refused whatever the capacity, as by the unbounded call.
  char out[8];
  for (std::size_t cap = 0; cap < 4; ++cap) {
    const conversion_result r = utf8dfa::utf8_to_latin1(std::string("ab"), out, cap, utf8dfa::replace{});
    CHECK((r.read == 0 && r.written == 0 && r.error == error_code::unrepresentable));
    const conversion_result e = utf8dfa::utf16_to_latin1(u"", out, cap, utf8dfa::replace{});
    CHECK(e.error == error_code::unrepresentable);
  }
  // Latin-1 to Unicode never fails; every byte, every capacity.
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  all += all;
  const auto pcs = latin1_pieces(all);
  const auto caps = sampled_caps(all.size() * 2);
  check_resumed<char>(
      all, pcs, target::utf8, {false, U'\uFFFD'},
      [](std::string_view in, char* o) {
        return conversion_result{in.size(), utf8dfa::latin1_to_utf8(in, o), error_code::none};
      },
      [](std::string_view in, char* o, std::size_t c) { return utf8dfa::latin1_to_utf8(in, o, c); }, tot, &caps);
  check_resumed<char16_t>(
      all, pcs, target::utf16, {false, U'\uFFFD'},
      [](std::string_view in, char16_t* o) {
        return conversion_result{in.size(), utf8dfa::latin1_to_utf16(in, o), error_code::none};
      },
      [](std::string_view in, char16_t* o, std::size_t c) { return utf8dfa::latin1_to_utf16(in, o, c); }, tot, &caps);
  check_resumed<char32_t>(
      all, pcs, target::utf32, {false, U'\uFFFD'},
      [](std::string_view in, char32_t* o) {
        return conversion_result{in.size(), utf8dfa::latin1_to_utf32(in, o), error_code::none};
      },
      [](std::string_view in, char32_t* o, std::size_t c) { return utf8dfa::latin1_to_utf32(in, o, c); }, tot, &caps);
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded UTF-16LE and UTF-16BE conversions", "[bounded]") {
  totals tot;
  std::mt19937 rng(8);
  for (int k = 0; k < 30; ++k) {
    // Long enough for the byte-swapped input's chunks (256 units) to end inside it.
    const std::u16string host =
        k < 29 ? random_sequence(utf16_atoms, 8, rng) : long_input(utf16_atoms, 600, rng, false);
    std::u16string swapped(host.size(), u'\0');
    utf8dfa::change_endianness_utf16(host, swapped.data());
    const bool little = utf8dfa::detail::host_little_endian;
    const std::u16string& le = little ? host : swapped;
    const std::u16string& be = little ? swapped : host;
    const auto pcs = pieces_of(host);
    const auto caps = sampled_caps(host.size() * 3);
    const auto* cp = host.size() > 100 ? &caps : nullptr;
    for_each_policy([&](auto pol) {
      check_resumed<char>(
          le, pcs, target::utf8, facts(pol),
          [&](std::u16string_view in, char* o) { return utf8dfa::utf16le_to_utf8(in, o, pol); },
          [&](std::u16string_view in, char* o, std::size_t c) { return utf8dfa::utf16le_to_utf8(in, o, c, pol); }, tot,
          cp);
      check_resumed<char>(
          be, pcs, target::utf8, facts(pol),
          [&](std::u16string_view in, char* o) { return utf8dfa::utf16be_to_utf8(in, o, pol); },
          [&](std::u16string_view in, char* o, std::size_t c) { return utf8dfa::utf16be_to_utf8(in, o, c, pol); }, tot,
          cp);
    });
  }
  for (int k = 0; k < 20; ++k) {
    const std::string s = random_sequence(utf8_atoms, 8, rng);
    const auto pcs = pieces_of(s);
    for_each_policy([&](auto pol) {
      check_resumed<char16_t>(
          s, pcs, target::utf16, facts(pol),
          [&](std::string_view in, char16_t* o) { return utf8dfa::utf8_to_utf16le(in, o, pol); },
          [&](std::string_view in, char16_t* o, std::size_t c) { return utf8dfa::utf8_to_utf16le(in, o, c, pol); },
          tot);
      check_resumed<char16_t>(
          s, pcs, target::utf16, facts(pol),
          [&](std::string_view in, char16_t* o) { return utf8dfa::utf8_to_utf16be(in, o, pol); },
          [&](std::string_view in, char16_t* o, std::size_t c) { return utf8dfa::utf8_to_utf16be(in, o, c, pol); },
          tot);
    });
  }
  CHECK(tot.calls > 0);
}

// assume_valid on ill-formed input: the output is unspecified, but stays within the capacity.
TEST_CASE("Bounded conversions under assume_valid never write past the capacity on ill-formed input", "[bounded]") {
  std::mt19937 rng(9);
  for (int k = 0; k < 30; ++k) {
    const std::string s8 = k < 25 ? random_sequence(utf8_atoms, 8, rng) : long_input(utf8_atoms, 300, rng, false);
    const std::u16string s16 = random_sequence(utf16_atoms, 8, rng);
    for (std::size_t cap = 0; cap <= 4 * s8.size() + 4; cap += k < 25 ? 1 : 7) {
      std::vector<char16_t> o16(cap + 8, u'\x5A');
      conversion_result r = utf8dfa::utf8_to_utf16(s8, o16.data(), cap, utf8dfa::assume_valid{});
      REQUIRE((r.written <= cap && r.read <= s8.size()));
      REQUIRE(
          std::all_of(o16.begin() + static_cast<std::ptrdiff_t>(cap), o16.end(), [](char16_t u) { return u == 0x5A; }));
      std::vector<char> o8(cap + 8, '\x5A');
      r = utf8dfa::utf16_to_utf8(s16, o8.data(), cap, utf8dfa::assume_valid{});
      REQUIRE((r.written <= cap && r.read <= s16.size()));
      REQUIRE(std::all_of(o8.begin() + static_cast<std::ptrdiff_t>(cap), o8.end(), [](char c) { return c == 0x5A; }));
    }
  }
}

// ---- The dialects, UTF-32LE/BE. -------------------------------------------------------------

namespace dialect = utf8dfa::dialect;

bool is_lead(char32_t c) {
  return c >= 0xD800 && c <= 0xDBFF;
}
bool is_trail(char32_t c) {
  return c >= 0xDC00 && c <= 0xDFFF;
}
char32_t joined(char32_t lead, char32_t trail) {
  return 0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00);
}

// Why a value read can't be written to `t` (dialect.hpp, transcode.hpp): UTF-16 holds WTF-8's
// surrogates, UTF-32 and legacy every value read, WTF-8 every code point, the rest scalar values.
error_code refused(target t, char32_t c, bool surrogates_read) {
  const bool surrogate = c >= 0xD800 && c <= 0xDFFF;
  switch (t) {
    case target::utf32:
      return error_code::none;
    case target::utf16:
      return c > 0x10FFFF                    ? error_code::too_large
             : surrogate && !surrogates_read ? error_code::surrogate
                                             : error_code::none;
    case target::wtf8:
      return c > 0x10FFFF ? error_code::too_large : error_code::none;
    case target::legacy:
      return c > 0x7FFFFFFF ? error_code::too_large : error_code::none;
    default:
      return surrogate ? error_code::surrogate : c > 0x10FFFF ? error_code::too_large : error_code::none;
  }
}

// Joins a lead surrogate and the trail surrogate after it, both written (WTF-8 writes them as one
// character), and under skip (`drops`: nothing written for an error) the errors between them (a
// replacement between them keeps them apart).
std::vector<piece> join_surrogates(const std::vector<piece>& v, bool drops) {
  std::vector<piece> out;
  for (std::size_t j = 0; j < v.size(); ++j) {
    piece p = v[j];
    if (p.kind == error_code::none && is_lead(p.code_point) && (drops || p.tail_errors == 0)) {
      std::size_t m = j + 1;
      while (drops && m < v.size() && v[m].kind != error_code::none) ++m;
      if (m < v.size() && v[m].kind == error_code::none && is_trail(v[m].code_point)) {
        for (std::size_t e = j + 1; e < m; ++e) {
          if (p.tail_kind == error_code::none) p.tail_kind = v[e].kind;
          ++p.tail_errors;
        }
        p.code_point = joined(p.code_point, v[m].code_point);
        p.length = v[m].start + v[m].length - p.start;
        j = m;
      }
    }
    out.push_back(p);
  }
  return out;
}

// Dialect-D bytes written to `t`, as decode_next reads them; unless the policy stops, a WTF-8 lead
// surrogate and the ED B0 refused after it (read alone, ED B0 could begin a trail surrogate) are one piece.
template <class D>
std::vector<piece> dialect_pieces_of(const std::string& s, D d, target t, policy_facts pol) {
  constexpr bool wtf8_in = std::is_same_v<D, dialect::wtf8>;
  std::vector<utf8dfa::decoded> xs;
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < s.size();) {
    xs.push_back(utf8dfa::decode_next(s, i, d));
    at.push_back(i);
    i += xs.back().length;
  }
  std::vector<piece> v;
  for (std::size_t j = 0; j < xs.size(); ++j) {
    const utf8dfa::decoded& x = xs[j];
    piece p{at[j], x.length, x.code_point, x.error != error_code::none ? x.error : refused(t, x.code_point, wtf8_in)};
    if (wtf8_in && !pol.stops && x.error == error_code::none && is_lead(x.code_point) && j + 1 < xs.size() &&
        s[at[j + 1]] == '\xED' && at[j + 1] + 1 < s.size() && (s[at[j + 1] + 1] & 0xF0) == 0xB0) {
      REQUIRE(j + 2 < xs.size());
      REQUIRE((xs[j + 1].length == 1 && xs[j + 1].error == error_code::surrogate));
      REQUIRE((xs[j + 2].length == 1 && xs[j + 2].error != error_code::none));
      p.length += 2;
      p.tail_errors = 2;
      p.tail_kind = xs[j + 1].error;
      j += 2;
    }
    v.push_back(p);
  }
  return t == target::wtf8 ? join_surrogates(v, pol.drops) : v;
}

// UTF-16 or UTF-32 written to dialect `t`: WTF-8 and legacy write unpaired surrogates.
std::vector<piece> to_dialect_pieces(const std::u16string& s, target t) {
  std::vector<piece> v = pieces_of(s);
  if (t == target::wtf8 || t == target::legacy)
    for (piece& p : v) p.kind = error_code::none;
  return v;
}
std::vector<piece> to_dialect_pieces(const std::u32string& s, target t, policy_facts pol) {
  std::vector<piece> v = pieces_of(s);
  for (piece& p : v) p.kind = refused(t, p.code_point, false);
  return t == target::wtf8 ? join_surrogates(v, pol.drops) : v;
}

template <class D>
constexpr target target_of() {
  if constexpr (std::is_same_v<D, dialect::utf8>)
    return target::utf8;
  else if constexpr (std::is_same_v<D, dialect::wtf8>)
    return target::wtf8;
  else if constexpr (std::is_same_v<D, dialect::cesu8>)
    return target::cesu8;
  else if constexpr (std::is_same_v<D, dialect::mutf8>)
    return target::mutf8;
  else
    return target::legacy;
}

template <class F>
void for_each_dialect(F f) {
  f(dialect::utf8{});
  f(dialect::wtf8{});
  f(dialect::cesu8{});
  f(dialect::mutf8{});
  f(dialect::legacy{});
}

// Characters of every dialect and the pieces that break them.
const std::vector<std::string> dialect_atoms = {
    "a",
    "\xC3\xA9",
    "\xE2\x82\xAC",
    "\xED\xA0\x80\xED\xB0\x80",  // CESU-8 U+10000; in WTF-8 a lead surrogate then a refused ED B0
    "\xF0\x9F\x98\x80",
    std::string(1, '\0'),
    "\xC0\x80",          // MUTF-8 U+0000
    "\xED\xA0\x80",      // a lead surrogate
    "\xED\xB0\x80",      // a trail surrogate
    "\xED\xB0",          //
    "\xED\xA0\x80\xED",  // a pair cut short
    "\xF4\x90\x80\x80",  // legacy 0x110000
    "\xF8\x88\x80\x80\x80",
    "\xFD\xBF\xBF\xBF\xBF\xBF",  // legacy 0x7FFFFFFF
    "\x80",
    "\xE2\x82",
    "\xFF",
};
const std::vector<std::u16string> utf16_dialect_atoms = {u"a",
                                                         u"\u00E9",
                                                         u"\u20AC",
                                                         u"\U0001F600",
                                                         std::u16string(1, u'\0'),
                                                         std::u16string(1, char16_t{0xD800}),
                                                         std::u16string(1, char16_t{0xDC00})};
const std::vector<std::u32string> utf32_dialect_atoms = {U"a",
                                                         U"\u00E9",
                                                         U"\u20AC",
                                                         U"\U0001F600",
                                                         std::u32string(1, U'\0'),
                                                         std::u32string(1, char32_t{0xD800}),
                                                         std::u32string(1, char32_t{0xDC00}),
                                                         std::u32string(1, char32_t{0x110000}),
                                                         std::u32string(1, char32_t{0x7FFFFFFF}),
                                                         std::u32string(1, char32_t{0x80000000})};

// Dialect-D input to UTF-32, UTF-16 and other dialects.
template <class D, class Policy>
void dialect_conversions(const std::string& s, D d, Policy pol, totals& tot,
                         const std::vector<std::size_t>* caps = nullptr) {
  check_resumed<char32_t>(
      s, dialect_pieces_of(s, d, target::utf32, facts(pol)), target::utf32, facts(pol),
      [&](std::string_view in, char32_t* o) { return utf8dfa::utf8_to_utf32(in, o, pol, d); },
      [&](std::string_view in, char32_t* o, std::size_t c) { return utf8dfa::utf8_to_utf32(in, o, c, pol, d); }, tot,
      caps);
  check_resumed<char16_t>(
      s, dialect_pieces_of(s, d, target::utf16, facts(pol)), target::utf16, facts(pol),
      [&](std::string_view in, char16_t* o) { return utf8dfa::utf8_to_utf16(in, o, pol, d); },
      [&](std::string_view in, char16_t* o, std::size_t c) { return utf8dfa::utf8_to_utf16(in, o, c, pol, d); }, tot,
      caps);
  const auto recode_to = [&](auto to) {
    constexpr target t = target_of<decltype(to)>();
    check_resumed<char>(
        s, dialect_pieces_of(s, d, t, facts(pol)), t, facts(pol),
        [&](std::string_view in, char* o) { return utf8dfa::recode(in, o, pol, d, to); },
        [&](std::string_view in, char* o, std::size_t c) { return utf8dfa::recode(in, o, c, pol, d, to); }, tot, caps);
  };
  // Into the writers with something of their own (fewer pairs than all 25, to keep the build short):
  // WTF-8 joins surrogates, CESU-8 writes 6-byte pairs, MUTF-8 writes U+0000 as 2 bytes, legacy
  // holds every value read.
  recode_to(dialect::wtf8{});
  recode_to(dialect::cesu8{});
  if constexpr (std::is_same_v<D, dialect::mutf8> || std::is_same_v<D, dialect::wtf8>)
    recode_to(dialect::utf8{});
  else if constexpr (std::is_same_v<D, dialect::legacy>)
    recode_to(dialect::legacy{});
  else
    recode_to(dialect::mutf8{});
}

// UTF-16 and UTF-32 input to dialect D.
template <class D, class Policy>
void to_dialect_conversions(const std::u16string& s16, const std::u32string& s32, D d, Policy pol, totals& tot) {
  constexpr target t = target_of<D>();
  check_resumed<char>(
      s16, to_dialect_pieces(s16, t), t, facts(pol),
      [&](std::u16string_view in, char* o) { return utf8dfa::utf16_to_utf8(in, o, pol, d); },
      [&](std::u16string_view in, char* o, std::size_t c) { return utf8dfa::utf16_to_utf8(in, o, c, pol, d); }, tot);
  check_resumed<char>(
      s32, to_dialect_pieces(s32, t, facts(pol)), t, facts(pol),
      [&](std::u32string_view in, char* o) { return utf8dfa::utf32_to_utf8(in, o, pol, d); },
      [&](std::u32string_view in, char* o, std::size_t c) { return utf8dfa::utf32_to_utf8(in, o, c, pol, d); }, tot);
}

template <class F>
void for_each_dialect_policy(F f) {
  f(utf8dfa::strict{});
  f(utf8dfa::replace{});
  f(utf8dfa::replace{U'\U0001F600'});  // 6 bytes in CESU-8
  f(utf8dfa::skip{});
}

TEST_CASE("Bounded dialect conversions, resumed at every capacity, equal one call", "[bounded]") {
  totals tot;
  std::mt19937 rng(10);
  for_each_dialect([&](auto d) {
    for_each_dialect_policy([&](auto pol) {
      for (int k = 0; k < 3; ++k) dialect_conversions(random_sequence(dialect_atoms, 5, rng), d, pol, tot);
      for (int k = 0; k < 2; ++k)
        to_dialect_conversions(random_sequence(utf16_dialect_atoms, 5, rng),
                               random_sequence(utf32_dialect_atoms, 5, rng), d, pol, tot);
    });
  });
  // A lead surrogate and what follows it, each way, in WTF-8.
  for (const char* after : {"\xED\xB0\x80", "\xED\xB0", "\xED\xA0\x80", "\xED", "a"}) {
    const std::string s = std::string("x\xED\xA0\x80") + after + "\xED\xA0\x80" + after;
    for_each_dialect_policy([&](auto pol) { dialect_conversions(s, dialect::wtf8{}, pol, tot); });
    dialect_conversions(s, dialect::legacy{}, utf8dfa::skip{}, tot);
  }
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded dialect conversions of long input", "[bounded]") {
  totals tot;
  std::mt19937 rng(11);
  for_each_dialect([&](auto d) {
    // Room for chunks of 64 bytes and more (the chunk path), and errors in them.
    const std::string s = long_input(dialect_atoms, 400, rng, false);
    std::vector<std::size_t> caps = {0, 1, 5};
    for (std::size_t c = 130; c < 2 * s.size(); c += 101) caps.push_back(c);
    caps.push_back(2 * s.size());
    dialect_conversions(s, d, utf8dfa::strict{}, tot, &caps);
    dialect_conversions(s, d, utf8dfa::skip{}, tot, &caps);
  });
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded dialect conversions: every sequence of two atoms", "[bounded][exhaustive]") {
  totals tot;
  std::mt19937 rng(12);
  std::vector<std::u16string> pairs16;
  for_each_sequence(utf16_dialect_atoms, 2, [&](const std::u16string& s) { pairs16.push_back(s); });
  for_each_dialect([&](auto d) {
    const auto each_policy = [&](auto f) {
      f(utf8dfa::strict{});
      f(utf8dfa::replace{U'\U0001F600'});
      f(utf8dfa::skip{});
    };
    each_policy([&](auto pol) {
      for_each_sequence(dialect_atoms, 2, [&](const std::string& s) { dialect_conversions(s, d, pol, tot); });
      for (int k = 0; k < 10; ++k) dialect_conversions(random_sequence(dialect_atoms, 10, rng), d, pol, tot);
      std::size_t k = 0;
      for_each_sequence(utf32_dialect_atoms, 2, [&](const std::u32string& s) {
        to_dialect_conversions(pairs16[k++ % pairs16.size()], s, d, pol, tot);
      });
      const std::string s = long_input(dialect_atoms, 300, rng, false);
      const auto caps = sampled_caps(2 * s.size());
      dialect_conversions(s, d, pol, tot, &caps);
    });
  });
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded UTF-32LE and UTF-32BE conversions", "[bounded]") {
  totals tot;
  std::mt19937 rng(13);
  const bool little = utf8dfa::detail::host_little_endian;
  for (int k = 0; k < 7; ++k) {
    const std::u32string host = k < 6 ? random_sequence(utf32_atoms, 8, rng) : long_input(utf32_atoms, 300, rng, false);
    std::u32string swapped(host.size(), U'\0');
    utf8dfa::change_endianness_utf32(host, swapped.data());
    const std::u32string& le = little ? host : swapped;
    const std::u32string& be = little ? swapped : host;
    const auto pcs = pieces_of(host);
    const auto caps = sampled_caps(host.size() * 4);
    const auto* cp = host.size() > 100 ? &caps : nullptr;
    for_each_dialect_policy([&](auto pol) {
      check_resumed<char>(
          le, pcs, target::utf8, facts(pol),
          [&](std::u32string_view in, char* o) { return utf8dfa::utf32le_to_utf8(in, o, pol); },
          [&](std::u32string_view in, char* o, std::size_t c) { return utf8dfa::utf32le_to_utf8(in, o, c, pol); }, tot,
          cp);
      check_resumed<char>(
          be, pcs, target::utf8, facts(pol),
          [&](std::u32string_view in, char* o) { return utf8dfa::utf32be_to_utf8(in, o, pol); },
          [&](std::u32string_view in, char* o, std::size_t c) { return utf8dfa::utf32be_to_utf8(in, o, c, pol); }, tot,
          cp);
    });
  }
  for (int k = 0; k < 4; ++k) {
    const std::string s = random_sequence(utf8_atoms, 8, rng);
    const auto pcs = pieces_of(s);
    for_each_dialect_policy([&](auto pol) {
      check_resumed<char32_t>(
          s, pcs, target::utf32, facts(pol),
          [&](std::string_view in, char32_t* o) { return utf8dfa::utf8_to_utf32le(in, o, pol); },
          [&](std::string_view in, char32_t* o, std::size_t c) { return utf8dfa::utf8_to_utf32le(in, o, c, pol); },
          tot);
      check_resumed<char32_t>(
          s, pcs, target::utf32, facts(pol),
          [&](std::string_view in, char32_t* o) { return utf8dfa::utf8_to_utf32be(in, o, pol); },
          [&](std::string_view in, char32_t* o, std::size_t c) { return utf8dfa::utf8_to_utf32be(in, o, c, pol); },
          tot);
    });
  }
  CHECK(tot.calls > 0);
}

TEST_CASE("Bounded dialect conversions: the pieces never split", "[bounded]") {
  char out[16];
  char16_t u16[4];
  // A CESU-8 pair is 6 bytes, its UTF-16 is 2 units: nothing with less room.
  const std::string pair = "\xED\xA0\x80\xED\xB0\x80";
  conversion_result r = utf8dfa::recode(pair, out, 5, utf8dfa::strict{}, dialect::cesu8{}, dialect::cesu8{});
  CHECK((r.read == 0 && r.written == 0 && r.error == error_code::none));
  r = utf8dfa::recode(pair, out, 6, utf8dfa::strict{}, dialect::cesu8{}, dialect::cesu8{});
  CHECK((r.read == 6 && r.written == 6 && r.error == error_code::none));
  r = utf8dfa::utf8_to_utf16(pair, u16, 1, utf8dfa::strict{}, dialect::cesu8{});
  CHECK((r.read == 0 && r.written == 0));
  r = utf8dfa::utf8_to_utf16(pair, u16, 2, utf8dfa::strict{}, dialect::cesu8{});
  CHECK((r.read == 6 && r.written == 2 && u16[0] == 0xD800 && u16[1] == 0xDC00));
  // WTF-8: a lead surrogate before a refused ED B0 is not left alone (from the ED, ED B0 80 would
  // read as a trail surrogate, and the calls joined would write U+10000).
  const std::string lead_trail = "\xED\xA0\x80\xED\xB0\x80";
  std::u16string joined16;
  for (std::size_t pos = 0; pos < lead_trail.size();) {
    r = utf8dfa::utf8_to_utf16(std::string_view(lead_trail).substr(pos), u16, 1, utf8dfa::replace{}, dialect::wtf8{});
    if (r.read == 0)
      r = utf8dfa::utf8_to_utf16(std::string_view(lead_trail).substr(pos), u16, 4, utf8dfa::replace{}, dialect::wtf8{});
    REQUIRE(r.read > 0);
    joined16.append(u16, r.written);
    pos += r.read;
  }
  CHECK(joined16 == std::u16string({char16_t{0xD800}, u'\uFFFD', u'\uFFFD', u'\uFFFD'}));
  // Under strict the lead surrogate is written and the call stops at the ED, as the unbounded one does.
  r = utf8dfa::utf8_to_utf16(lead_trail, u16, 1, utf8dfa::strict{}, dialect::wtf8{});
  CHECK((r.read == 3 && r.written == 1 && r.error == error_code::surrogate));
  // UTF-32 D800 DC00 written as WTF-8 is one 4-byte character.
  const std::u32string lt = {char32_t{0xD800}, char32_t{0xDC00}};
  r = utf8dfa::utf32_to_utf8(lt, out, 3, utf8dfa::strict{}, dialect::wtf8{});
  CHECK((r.read == 0 && r.written == 0 && r.error == error_code::none));
  r = utf8dfa::utf32_to_utf8(lt, out, 4, utf8dfa::strict{}, dialect::wtf8{});
  CHECK((r.read == 2 && r.written == 4 && std::string(out, 4) == "\xF0\x90\x80\x80"));
  // Legacy surrogates recoded to WTF-8 likewise.
  r = utf8dfa::recode(lead_trail, out, 3, utf8dfa::strict{}, dialect::legacy{}, dialect::wtf8{});
  CHECK((r.read == 0 && r.written == 0 && r.error == error_code::none));
  r = utf8dfa::recode(lead_trail, out, 4, utf8dfa::strict{}, dialect::legacy{}, dialect::wtf8{});
  CHECK((r.read == 6 && r.written == 4));
}

// ---- Specific cases. -------------------------------------------------------------------------

TEST_CASE("A capacity that fits nothing reads nothing, writes nothing, and is no error", "[bounded]") {
  char16_t u16[4] = {u'x', u'x', u'x', u'x'};
  char u8[4] = {'x', 'x', 'x', 'x'};
  conversion_result r = utf8dfa::utf8_to_utf16(
      "\xF0\x9F\x98\x80"
      "a",
      u16, 1);  // a surrogate pair needs 2
  CHECK((r.read == 0 && r.written == 0 && r.error == error_code::none));
  CHECK(u16[0] == u'x');
  r = utf8dfa::utf16_to_utf8(u"\u20ACa", u8, 2);  // 3 bytes needed
  CHECK((r.read == 0 && r.written == 0 && r.error == error_code::none));
  CHECK(u8[0] == 'x');
  r = utf8dfa::utf8_to_utf32("abc", static_cast<char32_t*>(nullptr), 0);  // nothing is written through out
  CHECK((r.read == 0 && r.written == 0 && r.error == error_code::none));
  // A replacement is one unit of output like a character: U+FFFD needs 3 bytes.
  r = utf8dfa::utf16_to_utf8(std::u16string(1, char16_t{0xDC00}), u8, 2, utf8dfa::replace{});
  CHECK((r.read == 0 && r.written == 0 && r.error == error_code::none));
  // Under strict an error needs no room: it is reported where the unbounded call reports it.
  r = utf8dfa::utf8_to_utf16("\xC0", u16, 0);
  CHECK((r.read == 0 && r.written == 0 && r.error == error_code::invalid_byte));
  // Empty input: done, whatever the capacity.
  r = utf8dfa::utf8_to_utf16("", u16, 0);
  CHECK((r.read == 0 && r.written == 0 && r.error == error_code::none));
}

TEST_CASE("A capacity argument picks the bounded overload", "[bounded]") {
  static_assert(!utf8dfa::detail::is_policy_v<int>);
  static_assert(!utf8dfa::detail::is_policy_v<std::size_t>);
  static_assert(utf8dfa::detail::is_policy_v<utf8dfa::strict>);
  static_assert(utf8dfa::detail::is_policy_v<utf8dfa::replace>);
  static_assert(utf8dfa::detail::is_policy_v<utf8dfa::assume_valid>);
  char16_t out[8] = {};
  const std::string s = "abcdef";
  const conversion_result r = utf8dfa::utf8_to_utf16(s, out, 4);  // an int literal: the capacity
  CHECK((r.read == 4 && r.written == 4 && r.error == error_code::none));
  const conversion_result q = utf8dfa::utf8_to_utf16(s, out, 100, utf8dfa::replace{});
  CHECK((q.read == 6 && q.written == 6));
  // A braced third argument is still the default policy of the unbounded overload.
  const conversion_result d = utf8dfa::utf8_to_utf16(s, out, {});
  CHECK((d.read == 6 && d.written == 6));
  // Any integer type is a capacity; a negative one is none.
  CHECK(utf8dfa::utf8_to_utf16(s, out, std::uint16_t{2}).written == 2);
  CHECK(utf8dfa::utf16_to_utf8(u"abc", reinterpret_cast<char*>(out), -1).written == 0);
  // The dialect forms: a capacity before the policy; without one, unbounded as before.
  CHECK(utf8dfa::utf8_to_utf16(s, out, 3, utf8dfa::strict{}, utf8dfa::dialect::wtf8{}).written == 3);
  CHECK(utf8dfa::utf8_to_utf16(s, out, utf8dfa::strict{}, utf8dfa::dialect::wtf8{}).written == 6);
  char bytes[8] = {};
  CHECK(utf8dfa::recode(s, bytes, 2, utf8dfa::replace{}, utf8dfa::dialect::cesu8{}, utf8dfa::dialect::utf8{}).written ==
        2);
  CHECK(utf8dfa::recode(s, bytes, utf8dfa::replace{}, utf8dfa::dialect::cesu8{}, utf8dfa::dialect::utf8{}).written ==
        6);
  char32_t out32[8] = {};
  CHECK(utf8dfa::utf8_to_utf32le(s, out32, 5).written == 5);
  CHECK(utf8dfa::utf8_to_utf32be(s, out32, {}).written == 6);
  // U"abc" is in the host's byte order: read it in that order.
  const auto host_utf32_to_utf8 = [&](unsigned capacity) {
    return utf8dfa::host_is_little_endian ? utf8dfa::utf32le_to_utf8(U"abc", bytes, capacity)
                                          : utf8dfa::utf32be_to_utf8(U"abc", bytes, capacity);
  };
  CHECK(host_utf32_to_utf8(1u).written == 1);
}

// WHATWG Encoding, TextEncoder.encodeInto(source, destination): UTF-16 (lone surrogates as U+FFFD)
// into a fixed byte buffer, {read (code units), written (bytes)}, whole characters only.
TEST_CASE("TextEncoder.encodeInto: UTF-16 into a fixed byte buffer", "[bounded]") {
  struct encode_into_result {
    std::size_t read, written;
  };
  const auto encode_into = [](std::u16string_view source, char* dest, std::size_t size) {
    const conversion_result r = utf8dfa::utf16_to_utf8(source, dest, size, utf8dfa::replace{});
    return encode_into_result{r.read, r.written};
  };
  char buf[16];
  const std::u16string smile = u"\U0001F600";
  for (std::size_t size = 0; size < 4; ++size) {  // a 4-byte character in less than 4 bytes: nothing
    const encode_into_result r = encode_into(smile, buf, size);
    CHECK((r.read == 0 && r.written == 0));
  }
  encode_into_result r = encode_into(smile, buf, 4);
  CHECK((r.read == 2 && r.written == 4));  // read counts both surrogates
  CHECK(std::string(buf, 4) == "\xF0\x9F\x98\x80");
  r = encode_into(u"A\U0001F600", buf, 4);
  CHECK((r.read == 1 && r.written == 1));
  r = encode_into(u"\u00E9t\u00E9", buf, 4);  // 2 + 1 bytes fit, the next 2 do not
  CHECK((r.read == 2 && r.written == 3));
  const std::u16string lone(1, char16_t{0xD800});
  r = encode_into(lone + u"a", buf, 2);  // U+FFFD takes 3 bytes
  CHECK((r.read == 0 && r.written == 0));
  r = encode_into(lone + u"a", buf, 3);
  CHECK((r.read == 1 && r.written == 3));
  CHECK(std::string(buf, 3) == "\xEF\xBF\xBD");
  // Filling a 5-byte buffer again and again gives the whole text.
  const std::u16string text = u"Gr\u00FC\u00DFe, \u4E16\u754C \U0001F44B!";
  std::string joined;
  for (std::size_t pos = 0; pos < text.size();) {
    r = encode_into(std::u16string_view(text).substr(pos), buf, 5);
    REQUIRE(r.read > 0);
    joined.append(buf, r.written);
    pos += r.read;
  }
  CHECK(joined == utf8dfa::to_utf8_lossy(text));
}

// .NET System.Text.Unicode.Utf8.ToUtf16 / FromUtf16: OperationStatus Done, DestinationTooSmall
// (bytesRead/charsWritten up to the last whole character), InvalidData (strict).
TEST_CASE(".NET-style OperationStatus: DestinationTooSmall and InvalidData", "[bounded]") {
  enum class status { done, destination_too_small, invalid_data };
  const auto to_utf16 = [](std::string_view src, char16_t* dest, std::size_t size, bool replace_invalid,
                           std::size_t& read, std::size_t& written) {
    const conversion_result r = replace_invalid ? utf8dfa::utf8_to_utf16(src, dest, size, utf8dfa::replace{})
                                                : utf8dfa::utf8_to_utf16(src, dest, size, utf8dfa::strict{});
    read = r.read;
    written = r.written;
    if (!replace_invalid && r.error != error_code::none) return status::invalid_data;
    return r.read < src.size() ? status::destination_too_small : status::done;
  };
  char16_t dest[8];
  std::size_t read = 0, written = 0;
  CHECK(to_utf16("abc", dest, 8, false, read, written) == status::done);
  CHECK((read == 3 && written == 3));
  CHECK(to_utf16("ab\xF0\x9F\x98\x80", dest, 3, false, read, written) == status::destination_too_small);
  CHECK((read == 2 && written == 2));  // the pair does not fit in the one unit left
  CHECK(to_utf16("ab\xF0\x9F\x98\x80", dest, 4, false, read, written) == status::done);
  CHECK((read == 6 && written == 4));
  CHECK(to_utf16("a\xE2\x82"
                 "b",
                 dest, 8, false, read, written) == status::invalid_data);
  CHECK((read == 1 && written == 1));
  CHECK(to_utf16("a\xE2\x82"
                 "b",
                 dest, 1, true, read, written) == status::destination_too_small);
  CHECK((read == 1 && written == 1));
  CHECK(to_utf16("a\xE2\x82"
                 "b",
                 dest, 2, true, read, written) == status::destination_too_small);
  CHECK((read == 3 && written == 2));  // the replacement for E2 82 fitted
  CHECK(dest[1] == u'\uFFFD');
  CHECK(to_utf16("a\xE2\x82"
                 "b",
                 dest, 3, true, read, written) == status::done);
  // FromUtf16: a pair is never split; strict stops at a lone surrogate.
  char bytes[8];
  const conversion_result r = utf8dfa::utf16_to_utf8(u"a\U00010000", bytes, 4);
  CHECK((r.read == 1 && r.written == 1 && r.error == error_code::none));
  const conversion_result e = utf8dfa::utf16_to_utf8(u"a" + std::u16string(1, char16_t{0xDC00}), bytes, 8);
  CHECK((e.read == 1 && e.written == 1 && e.error == error_code::surrogate));
}

// The chunked allocating conversions cut UTF-8 between characters: a 4-byte character followed by
// a stray continuation byte at a chunk's end was once split (two replacements too many).
TEST_CASE("Chunked UTF-8 conversion does not split a character before a stray continuation byte", "[bounded]") {
  for (std::size_t pad = 8180; pad < 8196; ++pad) {
    std::string s(pad, 'a');
    s += "\xF0\x90\x80\x80\x80"
         "bb";
    std::u16string direct(s.size(), u'\0');
    direct.resize(utf8dfa::utf8_to_utf16(s, direct.data(), utf8dfa::replace{}).written);
    CHECK(utf8dfa::to_utf16_lossy(s) == direct);
  }
}

}  // namespace bounded_test

}  // namespace utf8dfa_test_bounded
