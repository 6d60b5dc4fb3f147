// as_utf8 / as_utf16 / as_utf32: against the bulk `_lossy` (and strict) conversions on every UTF-8
// string of up to 3 bytes, dense UTF-16 and UTF-32 samples and random corrupted text; forward
// against backward; every iterator category (pointer, list, forward_list, istreambuf_iterator,
// null-terminated strings); the error reports; strict stopping; custom replacements; constexpr;
// the C++20 range concepts and composition with std::views.
#include <utf8dfa/utf_views.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <forward_list>
#include <iterator>
#include <list>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <utf8dfa/decode.hpp>
#include <utf8dfa/encode.hpp>
#include <utf8dfa/transcode.hpp>
#include <utf8dfa/validate.hpp>

#if UTF8DFA_HAS_SPAN
#include <span>
#endif
#if UTF8DFA_HAS_RANGES_VIEWS
#include <ranges>
#endif

#include "catch.hpp"
#include "sample.hpp"

#if defined(__unix__) || defined(__APPLE__)
#define UTF8DFA_VIEWS_TEST_MMAP 1
#include <sys/mman.h>
#include <unistd.h>
#else
#define UTF8DFA_VIEWS_TEST_MMAP 0
#endif

namespace utf8dfa_test_utf_views {  // the file's own names (the suite also builds as unity sources)

namespace utf_views_test {

using utf8dfa::error_code;

// One segment of the input: where a character or ill-formed subpart starts, its length, its error.
struct segment {
  std::size_t pos;
  std::size_t length;
  error_code error;
};

// The segmentation the views must follow: decode_next for UTF-8, the bulk decoders' UTF-16 and
// UTF-32 readers for the others.
template <class T>
std::vector<segment> segments(const T* p, std::size_t n) {
  std::vector<segment> out;
  for (std::size_t i = 0; i < n;) {
    utf8dfa::decoded d{};
    if constexpr (sizeof(T) == 1) {
      d = utf8dfa::decode_next(utf8dfa::detail::byte_span_range<T>{p, n}, i);
    } else if constexpr (sizeof(T) == 2) {
      d = utf8dfa::detail::decode_utf16_at(reinterpret_cast<const char16_t*>(p), n, i);
    } else {
      d = utf8dfa::detail::decode_utf32_at(reinterpret_cast<const char32_t*>(p), n, i);
    }
    out.push_back({i, d.length, d.error});
    i += d.length;
  }
  return out;
}

// Everything a view yields, walking forwards, with each unit's offset() and error().
template <class Out>
struct walk {
  std::basic_string<Out> units;
  std::vector<utf8dfa::input_error> errors;
  utf8dfa::input_error end_error{0, 0, error_code::none};
};

template <class View>
auto walk_forward(const View& v) {
  using Out = typename View::iterator::value_type;
  walk<Out> w;
  auto it = v.begin();
  for (; it != v.end(); ++it) {
    w.units.push_back(*it);
    w.errors.push_back(it.error());
  }
  w.end_error = it.error();
  return w;
}

template <class View>
auto walk_backward(const View& v) {
  using Out = typename View::iterator::value_type;
  walk<Out> w;
  auto it = v.begin();
  while (it != v.end()) ++it;  // common and sentinel-terminated views alike
  const auto first = v.begin();
  while (it != first) {
    --it;
    w.units.push_back(*it);
    w.errors.push_back(it.error());
  }
  std::reverse(w.units.begin(), w.units.end());
  std::reverse(w.errors.begin(), w.errors.end());
  return w;
}

bool same_error(const utf8dfa::input_error& a, const utf8dfa::input_error& b) {
  return a.offset == b.offset && a.length == b.length && a.code == b.code;
}

template <class Out>
bool same_walk(const walk<Out>& a, const walk<Out>& b) {
  if (a.units != b.units || a.errors.size() != b.errors.size()) return false;
  for (std::size_t k = 0; k < a.errors.size(); ++k)
    if (!same_error(a.errors[k], b.errors[k])) return false;
  return true;
}

// The error() each unit must report, from the segmentation and the units each segment becomes.
template <class Out>
std::vector<utf8dfa::input_error> expected_errors(const std::vector<segment>& segs, char32_t repl,
                                                  const std::vector<char32_t>& values) {
  std::vector<utf8dfa::input_error> out;
  for (std::size_t k = 0; k < segs.size(); ++k) {
    const char32_t c = segs[k].error == error_code::none ? values[k] : repl;
    const std::size_t units = sizeof(Out) == 4   ? 1
                              : sizeof(Out) == 2 ? (c >= 0x10000 ? 2 : 1)
                                                 : utf8dfa::encoded_length(c);
    const utf8dfa::input_error e = segs[k].error == error_code::none
                                       ? utf8dfa::input_error{segs[k].pos, 0, error_code::none}
                                       : utf8dfa::input_error{segs[k].pos, segs[k].length, segs[k].error};
    for (std::size_t u = 0; u < units; ++u) out.push_back(e);
  }
  return out;
}

// The code point of each segment (U+FFFD where ill-formed).
template <class T>
std::vector<char32_t> segment_values(const T* p, std::size_t n, const std::vector<segment>& segs) {
  std::vector<char32_t> out;
  for (const segment& s : segs) {
    if constexpr (sizeof(T) == 1) {
      out.push_back(utf8dfa::decode_next(utf8dfa::detail::byte_span_range<T>{p, n}, s.pos).code_point);
    } else if constexpr (sizeof(T) == 2) {
      out.push_back(utf8dfa::detail::decode_utf16_at(reinterpret_cast<const char16_t*>(p), n, s.pos).code_point);
    } else {
      out.push_back(utf8dfa::detail::decode_utf32_at(reinterpret_cast<const char32_t*>(p), n, s.pos).code_point);
    }
  }
  return out;
}

// The bulk lossy conversions of any input form to each output form.
std::u32string bulk32(std::string_view s) {
  return utf8dfa::to_utf32_lossy(s);
}
std::u32string bulk32(std::u16string_view s) {
  return utf8dfa::to_utf32_lossy(utf8dfa::to_utf8_lossy(s));
}
std::u32string bulk32(std::u32string_view s) {
  return utf8dfa::to_utf32_lossy(utf8dfa::to_utf8_lossy(s));
}
template <class S>
std::u16string bulk16(const S& s) {
  if constexpr (std::is_same_v<S, std::string_view>)
    return utf8dfa::to_utf16_lossy(s);
  else
    return utf8dfa::to_utf16_lossy(utf8dfa::to_utf8_lossy(s));
}
template <class S>
std::string bulk8(const S& s) {
  if constexpr (std::is_same_v<S, std::string_view>)
    return utf8dfa::to_utf8_lossy(utf8dfa::to_utf32_lossy(s));
  else
    return utf8dfa::to_utf8_lossy(s);
}

std::size_t failures = 0;

// Checks the three views of [p, p+n) against the bulk conversions, forwards and backwards, with
// every unit's error report; over pointers, and (`generic`) a list, a forward_list and a
// single-pass stream.
template <class T>
void check_all(const T* p, std::size_t n, bool generic = true) {
  using sv = std::basic_string_view<
      std::conditional_t<sizeof(T) == 1, char, std::conditional_t<sizeof(T) == 2, char16_t, char32_t>>>;
  const sv in(reinterpret_cast<const typename sv::value_type*>(p), n);
  const std::vector<segment> segs = segments(p, n);
  const std::vector<char32_t> values = segment_values(p, n, segs);
  const auto run = [&](auto out_tag, const auto& expected) {
    using Out = decltype(out_tag);
    const std::vector<utf8dfa::input_error> errs = expected_errors<Out>(segs, utf8dfa::replacement_character, values);
    const auto make = [](auto first, auto last) {
      if constexpr (std::is_same_v<Out, char>)
        return utf8dfa::as_utf8(first, last);
      else if constexpr (std::is_same_v<Out, char16_t>)
        return utf8dfa::as_utf16(first, last);
      else
        return utf8dfa::as_utf32(first, last);
    };
    const auto v = make(p, p + n);
    const walk<Out> f = walk_forward(v);
    if (f.units != expected || f.errors.size() != errs.size()) return void(++failures);
    for (std::size_t k = 0; k < errs.size(); ++k)
      if (!same_error(f.errors[k], errs[k])) return void(++failures);
    if (f.end_error || f.end_error.offset != n) ++failures;
    if (!same_walk(walk_backward(v), f)) ++failures;
    if (!generic) return;
    const std::list<T> l(p, p + n);
    const auto lv = make(l.begin(), l.end());
    if (!same_walk(walk_forward(lv), f) || !same_walk(walk_backward(lv), f)) ++failures;
    const std::forward_list<T> fl(p, p + n);
    if (!same_walk(walk_forward(make(fl.begin(), fl.end())), f)) ++failures;
  };
  run(char{}, bulk8(in));
  run(char16_t{}, bulk16(in));
  run(char32_t{}, bulk32(in));
}

std::string random_text(std::mt19937& rng, std::size_t chars) {
  std::string s;
  std::uniform_int_distribution<int> kind(0, 9);
  for (std::size_t i = 0; i < chars; ++i) {
    char32_t cp = 0;
    switch (kind(rng)) {
      case 0:
      case 1:
      case 2:
        cp = static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(0, 0x7F)(rng));
        break;
      case 3:
      case 4:
        cp = static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(0x80, 0x7FF)(rng));
        break;
      case 5:
      case 6:
        cp = static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(0x800, 0xFFFF)(rng));
        break;
      default:
        cp = static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(0x10000, 0x10FFFF)(rng));
        break;
    }
    char buf[4];
    s.append(buf, utf8dfa::encode(cp, buf));  // 0 bytes for surrogates: skipped
  }
  return s;
}

// Flipped bits, random bytes, deletions, insertions of continuation-range bytes, cuts.
void corrupt(std::mt19937& rng, std::string& s) {
  std::uniform_int_distribution<int> edits(1, 6);
  for (int e = edits(rng); e > 0 && !s.empty(); --e) {
    const std::size_t at = std::uniform_int_distribution<std::size_t>(0, s.size() - 1)(rng);
    switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
      case 0:
        s[at] = static_cast<char>(s[at] ^ (1 << std::uniform_int_distribution<int>(0, 7)(rng)));
        break;
      case 1:
        s[at] = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
        break;
      case 2:
        s.erase(at, 1);
        break;
      case 3:
        s.insert(at, 1, static_cast<char>(std::uniform_int_distribution<int>(0x80, 0xFF)(rng)));
        break;
      default:
        s.resize(at);
        break;
    }
  }
}

std::u16string random_utf16(std::mt19937& rng, std::size_t units) {
  std::u16string s;
  for (std::size_t i = 0; i < units; ++i) {
    switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
      case 0:
        s.push_back(static_cast<char16_t>(std::uniform_int_distribution<int>(0, 0x7F)(rng)));
        break;
      case 1:
        s.push_back(static_cast<char16_t>(std::uniform_int_distribution<int>(0xD800, 0xDBFF)(rng)));
        break;
      case 2:
        s.push_back(static_cast<char16_t>(std::uniform_int_distribution<int>(0xDC00, 0xDFFF)(rng)));
        break;
      case 3:  // a well-formed pair
        s.push_back(static_cast<char16_t>(std::uniform_int_distribution<int>(0xD800, 0xDBFF)(rng)));
        s.push_back(static_cast<char16_t>(std::uniform_int_distribution<int>(0xDC00, 0xDFFF)(rng)));
        break;
      default:
        s.push_back(static_cast<char16_t>(std::uniform_int_distribution<int>(0x80, 0xFFFF)(rng)));
        break;
    }
  }
  return s;
}

template <class Str>
Str without_zeros(Str s) {
  for (auto& c : s)
    if (c == 0) c = 'x';
  return s;
}

// Collects a view through its iterators (works for sentinel-terminated views too).
template <class View>
auto collect(const View& v) {
  std::basic_string<typename View::iterator::value_type> out;
  for (auto it = v.begin(); it != v.end(); ++it) out.push_back(*it);
  return out;
}

// A sample with every UTF-8 length and several kinds of ill-formed subparts.
const std::string sample =
    "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"  // A, e acute, euro sign, grinning face
    "\xC0\xAF"                               // overlong '/': two subparts
    "\xE2\x82"                               // a truncated euro sign: one subpart
    "z\xED\xA0\x80\xF4\x90\x80\x80\xFF\x80"  // z, a surrogate, above U+10FFFF, invalid byte, lone continuation
    "\xCE\xA9";                              // Omega

// Text of ASCII runs of every length up to 20 between other characters and ill-formed subparts:
// the views step over such runs without decoding them, up to the last units of the input.
std::string run_text(std::mt19937& rng) {
  static const char* const others[] = {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xFF",
                                       "\xE2\x82", "\xC0\xAF",     "\xED\xA0\x80"};
  std::string s;
  const int pieces = std::uniform_int_distribution<int>(0, 5)(rng);
  for (int k = 0; k < pieces; ++k) {
    const int ascii = std::uniform_int_distribution<int>(0, 20)(rng);
    for (int i = 0; i < ascii; ++i) s.push_back(static_cast<char>(std::uniform_int_distribution<int>(0, 0x7F)(rng)));
    s += others[std::uniform_int_distribution<int>(0, 6)(rng)];
  }
  const int tail = std::uniform_int_distribution<int>(0, 20)(rng);
  for (int i = 0; i < tail; ++i) s.push_back(static_cast<char>(std::uniform_int_distribution<int>(0x20, 0x7E)(rng)));
  return s;
}

// Steps a view's iterator forwards and backwards at random, checking each unit and error report
// against the forward walk f.
template <class View, class Out>
bool mixed_walk(const View& v, const walk<Out>& f, std::mt19937& rng) {
  auto it = v.begin();
  std::size_t k = 0;
  const std::size_t n = f.units.size();
  for (std::size_t step = 0; step < 3 * n + 8; ++step) {
    if (k < n && (k == 0 || rng() % 3 != 0)) {
      ++it;
      ++k;
    } else if (k > 0) {
      --it;
      --k;
    }
    if (k == n) {
      if (!(it == v.end())) return false;
    } else if (it == v.end() || *it != f.units[k] || !same_error(it.error(), f.errors[k])) {
      return false;
    }
  }
  return true;
}

// Whether as_utf16 takes an argument of type R (a temporary container is refused).
template <class R, class = void>
struct can_view16 : std::false_type {};
template <class R>
struct can_view16<R, std::void_t<decltype(utf8dfa::as_utf16(std::declval<R>()))>> : std::true_type {};

}  // namespace utf_views_test

using namespace utf_views_test;

TEST_CASE("as_utf*: every UTF-8 string of up to 3 bytes against the bulk lossy conversions", "[exhaustive]") {
  failures = 0;
  unsigned char one[1]{}, two[2]{}, three[3]{};  // each length in an array of exactly that size
  check_all(three, 0);
  for (unsigned a = 0; a < 256; ++a) {
    one[0] = two[0] = static_cast<unsigned char>(a);
    check_all(one, 1);
    for (unsigned b = 0; b < 256; ++b) {
      two[1] = static_cast<unsigned char>(b);
      check_all(two, 2);
    }
  }
  REQUIRE(failures == 0);
  // Three bytes: pointers, both directions, as UTF-16 and UTF-32, against the bulk conversion into
  // a buffer (no allocation per input) and the decode_next segmentation for the error reports.
  std::size_t inputs = 0;
  char16_t want16[8];
  char32_t want32[8];
  for (unsigned a = 0; a < 256; ++a)
    for (unsigned b = 0; b < 256; ++b)
      for (unsigned c = 0; c < 256 && utf8dfa_sample::keep(a, b); ++c) {
        three[0] = static_cast<unsigned char>(a);
        three[1] = static_cast<unsigned char>(b);
        three[2] = static_cast<unsigned char>(c);
        ++inputs;
        const utf8dfa::detail::byte_span_range<unsigned char> bytes{three, 3};
        const std::size_t n16 = utf8dfa::utf8_to_utf16(bytes, want16, utf8dfa::replace{}).written;
        const std::size_t n32 = utf8dfa::utf8_to_utf32(bytes, want32, utf8dfa::replace{}).written;
        const auto v16 = utf8dfa::as_utf16(three, three + 3);
        std::size_t k = 0, pos = 0;
        for (auto it = v16.begin(); it != v16.end(); ++it, ++k) {
          if (k == n16 || *it != want16[k]) {
            ++failures;
            break;
          }
          if (it.unit_index() == 0) {
            const utf8dfa::decoded d = utf8dfa::decode_next(bytes, pos);
            if (it.offset() != pos || it.error().code != d.error || it.length() != d.length) ++failures;
            pos += d.length;
          }
        }
        if (k != n16 || pos != 3) ++failures;
        auto back = v16.end();
        for (; back != v16.begin() && k > 0;) {
          --back;
          if (*back != want16[--k]) ++failures;
        }
        if (k != 0 || back != v16.begin()) ++failures;
        const auto v32 = utf8dfa::as_utf32(three, three + 3);
        k = 0;
        for (auto it = v32.begin(); it != v32.end(); ++it, ++k)
          if (k == n32 || *it != want32[k]) {
            ++failures;
            break;
          }
        if (k != n32) ++failures;
        for (auto it = v32.end(); it != v32.begin() && k > 0;)
          if (*--it != want32[--k]) ++failures;
        if (k != 0) ++failures;
      }
  CHECK(inputs == utf8dfa_sample::inputs_of_length(3));
  REQUIRE(failures == 0);
}

// (Sampled under the clang sanitizer leg, like the enumerations: tests/sample.hpp.)
TEST_CASE("as_utf*: UTF-8 strings of 4 and 5 bytes over every byte class's edges") {
  failures = 0;
  const unsigned char alphabet[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1,
                                    0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF};
  const std::size_t m = sizeof alphabet;
  unsigned char four[4]{};
  for (std::size_t i = 0; i < m * m * m * m; ++i) {
    std::size_t x = i;
    for (int k = 0; k < 4; ++k, x /= m) four[k] = alphabet[x % m];
    if (utf8dfa_sample::keep_index(i)) check_all(four, 4, i % 8 == 0);
  }
  const unsigned char small[] = {0x41, 0x80, 0x90, 0xA0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4};
  const std::size_t q = sizeof small;
  unsigned char five[5]{};
  for (std::size_t i = 0; i < q * q * q * q * q; ++i) {
    std::size_t x = i;
    for (int k = 0; k < 5; ++k, x /= q) five[k] = small[x % q];
    if (utf8dfa_sample::keep_index(i)) check_all(five, 5, false);
  }
  REQUIRE(failures == 0);
}

// Contiguous UTF-8 is read by a fast path while 4 bytes are left and by the DFA after that: every
// first byte, with the edges of the second byte's ranges and tails, at each distance from the end.
TEST_CASE("as_utf*: every first byte at each distance from the end of the input") {
  failures = 0;
  const unsigned char seconds[] = {0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4};
  const unsigned char tails[] = {0x80, 0xBF, 0x41, 0xC2};
  unsigned char buf[12]{};
  for (unsigned lead = 0; lead < 256; ++lead)
    for (const unsigned char second : seconds)
      for (const unsigned char tail : tails)
        for (std::size_t after = 0; after <= 4; ++after) {
          // "x" lead second tail tail, then `after` more bytes of "yz\xC3\xA9", then the end.
          const unsigned char head[] = {'x', static_cast<unsigned char>(lead), second, tail, tail};
          std::size_t n = 0;
          for (const unsigned char b : head) buf[n++] = b;
          const unsigned char rest[] = {'y', 'z', 0xC3, 0xA9};
          for (std::size_t k = 0; k < after; ++k) buf[n++] = rest[k];
          check_all(buf, n, false);
          // The character cut short by the end of the input, as far as it goes.
          check_all(buf, 1 + std::min<std::size_t>(after, 4), false);
        }
  REQUIRE(failures == 0);
}

TEST_CASE("as_utf*: UTF-16 units, every surrogate combination, against the bulk lossy conversions") {
  failures = 0;
  // Every single unit.
  for (unsigned u = 0; u < 0x10000; ++u) {
    const char16_t one[1] = {static_cast<char16_t>(u)};
    check_all(one, 1, false);
  }
  // Every surrogate followed by a dense sample of units (and the other way round), with pointers.
  const char16_t edges[] = {u'\0',     u'A',      u'\x7F',   u'\x80',   u'\x7FF',  u'\x800',  u'\xD7FF',
                            u'\xD800', u'\xDBFF', u'\xDC00', u'\xDFFF', u'\xE000', u'\xFFFD', u'\xFFFF'};
  std::vector<char16_t> sample16(std::begin(edges), std::end(edges));
  for (unsigned u = 0; u < 0x10000; u += 1021) sample16.push_back(static_cast<char16_t>(u));
  char16_t two[2]{};
  for (unsigned s = 0xD800; s < 0xE000; ++s)
    for (std::size_t k = 0; k < sample16.size(); ++k) {
      if (k >= std::size(edges) && s % 31 != 0) break;  // every surrogate with the edges, some with the rest
      two[0] = static_cast<char16_t>(s);
      two[1] = sample16[k];
      check_all(two, 2, false);
      two[0] = sample16[k];
      two[1] = static_cast<char16_t>(s);
      check_all(two, 2, false);
    }
  // Sequences of up to 4 units over an alphabet of the edges, through every iterator kind.
  const char16_t alphabet[] = {u'A',      u'\x80',   u'\x800',  u'\xD7FF', u'\xD800',
                               u'\xDBFF', u'\xDC00', u'\xDFFF', u'\xE000', u'\xFFFF'};
  const std::size_t m = std::size(alphabet);
  char16_t buf[4]{};
  for (std::size_t len = 3; len <= 4; ++len) {
    std::size_t total = 1;
    for (std::size_t k = 0; k < len; ++k) total *= m;
    for (std::size_t i = 0; i < total; ++i) {
      std::size_t x = i;
      for (std::size_t k = 0; k < len; ++k, x /= m) buf[k] = alphabet[x % m];
      check_all(buf, len);
    }
  }
  REQUIRE(failures == 0);
}

TEST_CASE("as_utf*: UTF-32 values, surrogates and values above U+10FFFF, against the bulk lossy conversions") {
  failures = 0;
  std::vector<char32_t> values = {0,       0x41,     0x7F,     0x80,       0x7FF,     0x800,  0xD7FF,
                                  0xD800,  0xDBFF,   0xDC00,   0xDFFF,     0xE000,    0xFFFD, 0xFFFF,
                                  0x10000, 0x10FFFF, 0x110000, 0x7FFFFFFF, 0xFFFFFFFF};
  for (char32_t c = 0; c < 0x120000; c += 257) values.push_back(c);
  for (const char32_t c : values) {
    const char32_t one[1] = {c};
    check_all(one, 1, false);
  }
  char32_t three[3]{};
  for (const char32_t a : {char32_t{0x41}, char32_t{0xD800}, char32_t{0x110000}, char32_t{0x1F600}})
    for (const char32_t b : values)
      for (const char32_t c : {char32_t{0xDC00}, char32_t{0xE9}, char32_t{0xFFFFFFFF}}) {
        three[0] = a;
        three[1] = b;
        three[2] = c;
        check_all(three, 3);
      }
  REQUIRE(failures == 0);
}

TEST_CASE("as_utf*: random well-formed and corrupted text in every form and iterator kind") {
  failures = 0;
  std::mt19937 rng(20261125);
  for (int round = 0; round < 1500; ++round) {
    std::string s = random_text(rng, std::uniform_int_distribution<std::size_t>(0, 30)(rng));
    check_all(s.data(), s.size());
    corrupt(rng, s);
    check_all(s.data(), s.size());
    const std::u16string u = random_utf16(rng, std::uniform_int_distribution<std::size_t>(0, 20)(rng));
    check_all(u.data(), u.size());
    std::u32string w = utf8dfa::to_utf32_lossy(s);
    if (!w.empty())
      w[w.size() / 2] = static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(0xD000, 0x110010)(rng));
    check_all(w.data(), w.size());
  }
  REQUIRE(failures == 0);
}

TEST_CASE("as_utf*: runs of ASCII (and of UTF-16 outside the surrogates) up to the end, both ways") {
  failures = 0;
  std::mt19937 rng(7);
  for (int round = 0; round < 400; ++round) {
    const std::string s = run_text(rng);
    check_all(s.data(), s.size(), false);
    std::u16string u = utf8dfa::to_utf16_lossy(s);
    for (char16_t& c : u)  // BMP characters of every kind, and now and then a lone surrogate
      if (c >= 0x41 && c <= 0x5A) c = static_cast<char16_t>(std::uniform_int_distribution<int>(0x80, 0xFFFF)(rng));
    check_all(u.data(), u.size(), false);
    std::u32string w = utf8dfa::to_utf32_lossy(s);
    if (!w.empty() && round % 3 == 0)
      w[w.size() / 3] = static_cast<char32_t>(std::uniform_int_distribution<std::uint32_t>(0xD000, 0x110010)(rng));
    check_all(w.data(), w.size(), false);
    // Forward and backward steps mixed, over each input form.
    const auto v16 = utf8dfa::as_utf16(s);
    if (!mixed_walk(v16, walk_forward(v16), rng)) ++failures;
    const auto v8 = utf8dfa::as_utf8(u);
    if (!mixed_walk(v8, walk_forward(v8), rng)) ++failures;
    const auto v32 = utf8dfa::as_utf32(u);
    if (!mixed_walk(v32, walk_forward(v32), rng)) ++failures;
    const auto w8 = utf8dfa::as_utf8(w);
    if (!mixed_walk(w8, walk_forward(w8), rng)) ++failures;
    const auto s8 = utf8dfa::as_utf8(s, utf8dfa::skip{});
    if (collect(s8) != utf8dfa::to_utf8_lossy(utf8dfa::to_utf32_lossy(s, utf8dfa::skip{}))) ++failures;
  }
  REQUIRE(failures == 0);
}

#if UTF8DFA_VIEWS_TEST_MMAP
TEST_CASE("as_utf*: input flush against an inaccessible page: nothing past the end or the terminator is read") {
  failures = 0;
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* m = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(m != MAP_FAILED);
  unsigned char* const base = static_cast<unsigned char*>(m);
  REQUIRE(mprotect(base + page, page, PROT_NONE) == 0);
  unsigned char* const end = base + page;
  const std::string text =
      "Mars \xC3\xA9t\xC3\xA9 \xE2\x82\xAC 0123456789 abcdefghij \xF0\x9F\x98\x80 klmnopqrstuvwxyz";
  const std::u16string text16 = utf8dfa::to_utf16_lossy(text);
  const std::u32string text32 = utf8dfa::to_utf32_lossy(text);
  const auto each = [&](const auto& src) {
    using T = typename std::decay_t<decltype(src)>::value_type;
    for (std::size_t n = 0; n <= src.size(); ++n) {
      for (std::size_t from = 0; from + n <= src.size(); from += 7) {
        // [p, p + n) ends at the inaccessible page.
        T* p = reinterpret_cast<T*>(end) - n;
        if (n != 0) std::memcpy(p, src.data() + from, n * sizeof(T));
        check_all(static_cast<const T*>(p), n, false);
        // The same units and a terminator, which ends at the inaccessible page.
        T* z = reinterpret_cast<T*>(end) - (n + 1);
        if (n != 0) std::memcpy(z, src.data() + from, n * sizeof(T));
        z[n] = T{};
        const std::basic_string_view<T> sv(z, n);
        if (collect(utf8dfa::as_utf8(static_cast<const T*>(z))) != bulk8(sv)) ++failures;
        if (collect(utf8dfa::as_utf16(static_cast<const T*>(z))) != bulk16(sv)) ++failures;
        if (walk_backward(utf8dfa::as_utf32(static_cast<const T*>(z))).units != bulk32(sv)) ++failures;
      }
    }
  };
  each(text);
  each(text16);
  each(text32);
  munmap(m, 2 * page);
  REQUIRE(failures == 0);
}
#endif

TEST_CASE("as_utf*: lvalues and borrowed ranges are viewed, temporary containers refused") {
  STATIC_REQUIRE(can_view16<const std::string&>::value);
  STATIC_REQUIRE(can_view16<std::string&>::value);
  STATIC_REQUIRE(can_view16<std::string_view>::value);
  STATIC_REQUIRE(can_view16<std::u32string_view>::value);
  STATIC_REQUIRE(can_view16<const char*>::value);
  STATIC_REQUIRE(!can_view16<std::string>::value);
  STATIC_REQUIRE(!can_view16<std::u16string&&>::value);
  STATIC_REQUIRE(!can_view16<std::vector<std::byte>>::value);
  STATIC_REQUIRE(!can_view16<std::vector<int>&>::value);  // not code units
#if UTF8DFA_HAS_SPAN
  STATIC_REQUIRE(can_view16<std::span<const char16_t>>::value);
#endif
}

TEST_CASE("as_utf*: the input types (containers, views, spans, wchar_t, std::byte, char8_t)") {
  const std::u16string want16 = utf8dfa::to_utf16_lossy(sample);
  const std::u32string want32 = utf8dfa::to_utf32_lossy(sample);
  const std::string_view sv = sample;
  const auto v = utf8dfa::as_utf16(sample);
  REQUIRE(std::u16string(v.begin(), v.end()) == want16);
  REQUIRE(collect(utf8dfa::as_utf16(sv)) == want16);
  REQUIRE(collect(utf8dfa::as_utf16(std::string_view(sample))) == want16);  // a temporary view is fine
  const std::vector<unsigned char> uc(sample.begin(), sample.end());
  REQUIRE(collect(utf8dfa::as_utf32(uc)) == want32);
  std::vector<std::byte> bytes;
  for (char c : sample) bytes.push_back(static_cast<std::byte>(c));
  REQUIRE(collect(utf8dfa::as_utf32(bytes)) == want32);
  const std::deque<char> dq(sample.begin(), sample.end());
  REQUIRE(collect(utf8dfa::as_utf32(dq)) == want32);
  // UTF-16 and UTF-32 containers.
  REQUIRE(collect(utf8dfa::as_utf32(want16)) == want32);
  REQUIRE(collect(utf8dfa::as_utf16(want32)) == want16);
  REQUIRE(collect(utf8dfa::as_utf8(want32)) == utf8dfa::to_utf8_lossy(want32));
  const std::vector<char16_t> vec16(want16.begin(), want16.end());
  REQUIRE(collect(utf8dfa::as_utf8(vec16)) == utf8dfa::to_utf8_lossy(want16));
  // wchar_t is UTF-16 or UTF-32 by its size.
  std::wstring wide;
  if constexpr (sizeof(wchar_t) == 2)
    for (char16_t c : want16) wide.push_back(static_cast<wchar_t>(c));
  else
    for (char32_t c : want32) wide.push_back(static_cast<wchar_t>(c));
  REQUIRE(collect(utf8dfa::as_utf32(wide)) == want32);
  REQUIRE(collect(utf8dfa::as_utf16(wide.c_str())) == want16);
#if UTF8DFA_HAS_SPAN
  REQUIRE(collect(utf8dfa::as_utf16(std::span<const std::byte>(bytes))) == want16);
  REQUIRE(collect(utf8dfa::as_utf8(std::span<const char16_t>(vec16))) == utf8dfa::to_utf8_lossy(want16));
#endif
#if UTF8DFA_HAS_CHAR8_T
  const std::u8string u8(sample.begin(), sample.end());
  REQUIRE(collect(utf8dfa::as_utf16(u8)) == want16);
  REQUIRE(collect(utf8dfa::as_utf16(u8.c_str())) == want16);
#endif
  // The element types.
  STATIC_REQUIRE(std::is_same_v<decltype(*utf8dfa::as_utf8(want16).begin()), char>);
  STATIC_REQUIRE(std::is_same_v<decltype(*utf8dfa::as_utf16(sample).begin()), char16_t>);
  STATIC_REQUIRE(std::is_same_v<decltype(*utf8dfa::as_utf32(sample).begin()), char32_t>);
}

TEST_CASE("as_utf*: null-terminated strings stop at the first zero unit, without a length pass") {
  std::mt19937 rng(11);
  for (int round = 0; round < 400; ++round) {
    std::string s = random_text(rng, 20);
    corrupt(rng, s);
    s = without_zeros(s);
    const std::u16string u = without_zeros(random_utf16(rng, 15));
    const std::u32string w = without_zeros(utf8dfa::to_utf32_lossy(s));
    const auto c8 = utf8dfa::as_utf16(s.c_str());
    REQUIRE(collect(c8) == utf8dfa::to_utf16_lossy(s));
    REQUIRE(walk_backward(c8).units == utf8dfa::to_utf16_lossy(s));
    REQUIRE(collect(utf8dfa::as_utf32(u.c_str())) == bulk32(std::u16string_view(u)));
    REQUIRE(walk_backward(utf8dfa::as_utf8(u.c_str())).units == utf8dfa::to_utf8_lossy(u));
    REQUIRE(collect(utf8dfa::as_utf8(w.c_str())) == utf8dfa::to_utf8_lossy(w));
    // The end is where the terminator is.
    auto it = c8.begin();
    while (it != utf8dfa::null_sentinel) ++it;
    REQUIRE(it.base() == s.c_str() + s.size());
    REQUIRE(it.offset() == s.size());
  }
  // String literals are null-terminated strings too.
  REQUIRE(collect(utf8dfa::as_utf8(u"\xD83D\xDE00x\xDC00")) == "\xF0\x9F\x98\x80x\xEF\xBF\xBD");
  REQUIRE(collect(utf8dfa::as_utf16("ab\0cd")) == u"ab");
  REQUIRE(collect(utf8dfa::as_utf32(U"\x10FFFF\x110000")) == U"\x10FFFF\xFFFD");
}

TEST_CASE("as_utf*: single-pass input (std::istreambuf_iterator) is decoded as it is read") {
  std::mt19937 rng(99);
  for (int round = 0; round < 300; ++round) {
    std::string s = random_text(rng, 25);
    if (round % 2) corrupt(rng, s);
    std::istringstream in(s);
    const auto v = utf8dfa::as_utf16(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::u16string got;
    std::vector<utf8dfa::input_error> errors;
    for (auto it = v.begin(); it != v.end(); ++it) {
      got.push_back(*it);
      if (it.error()) errors.push_back(it.error());
    }
    REQUIRE(got == utf8dfa::to_utf16_lossy(s));
    // The same error reports as the multi-pass walk.
    std::vector<utf8dfa::input_error> want;
    for (const utf8dfa::input_error& e : walk_forward(utf8dfa::as_utf16(s)).errors)
      if (e && (want.empty() || want.back().offset != e.offset)) want.push_back(e);
    std::vector<utf8dfa::input_error> got_once;
    for (const utf8dfa::input_error& e : errors)
      if (got_once.empty() || got_once.back().offset != e.offset) got_once.push_back(e);
    REQUIRE(got_once.size() == want.size());
    for (std::size_t k = 0; k < want.size(); ++k) REQUIRE(same_error(got_once[k], want[k]));
    // Strict, single-pass: stops at the first error, base() after the subpart.
    std::istringstream in2(s);
    const auto sv =
        utf8dfa::as_utf32(std::istreambuf_iterator<char>(in2), std::istreambuf_iterator<char>(), utf8dfa::strict{});
    std::u32string prefix;
    auto it = sv.begin();
    for (; it != sv.end(); ++it) prefix.push_back(*it);
    const utf8dfa::validation_result vr = utf8dfa::validate(s);
    REQUIRE(it.error().code == vr.error);
    if (!vr) REQUIRE(it.error().offset == vr.valid_up_to);
    REQUIRE(prefix == utf8dfa::to_utf32_lossy(s.substr(0, vr.valid_up_to)));
  }
  std::istringstream in("\xE2\x82\xAC\xFF!");
  const auto v =
      utf8dfa::as_utf8(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), utf8dfa::replace{U'?'});
  REQUIRE(std::string(v.begin(), v.end()) == "\xE2\x82\xAC?!");
}

TEST_CASE("as_utf*: strict stops at the first ill-formed subpart and says where and why") {
  std::mt19937 rng(3);
  for (int round = 0; round < 1000; ++round) {
    std::string s = random_text(rng, 12);
    if (round % 4 != 0) corrupt(rng, s);
    // UTF-8 input: the units before the error are the strict bulk conversion's output.
    utf8dfa::conversion_result status{};
    const std::u16string prefix16 = utf8dfa::to_utf16(s, status);
    const auto v = utf8dfa::as_utf16(s, utf8dfa::strict{});
    auto it = v.begin();
    std::u16string got;
    for (; it != v.end(); ++it) {
      got.push_back(*it);
      REQUIRE(!it.error());
    }
    REQUIRE(got == prefix16);
    REQUIRE(it.error().code == status.error);
    REQUIRE(it.error().offset == status.read);
    REQUIRE(it.base() == s.data() + status.read);
    if (status.error != error_code::none)
      REQUIRE(it.error().length == utf8dfa::decode_next(s, status.read).length);
    else
      REQUIRE(it.error().length == 0);
    ++it;  // stays stopped
    REQUIRE(it == v.end());
    REQUIRE(it.error().code == status.error);
    // Over a list (forward) and a C string (a sentinel): the same stop.
    const std::list<char> l(s.begin(), s.end());
    const auto lv = utf8dfa::as_utf8(l.begin(), l.end(), utf8dfa::strict{});
    auto lit = lv.begin();
    std::string got8;
    for (; lit != lv.end(); ++lit) got8.push_back(*lit);
    REQUIRE(got8 == s.substr(0, status.read));
    REQUIRE(lit.error().offset == status.read);
    REQUIRE(lit.error().code == status.error);
    const std::string z = without_zeros(s);
    const utf8dfa::validation_result vz = utf8dfa::validate(z);
    auto zit = utf8dfa::as_utf32(z.c_str(), utf8dfa::strict{}).begin();
    std::size_t count = 0;
    for (; zit != utf8dfa::null_sentinel; ++zit) ++count;
    REQUIRE(count == utf8dfa::to_utf32_lossy(z.substr(0, vz.valid_up_to)).size());
    REQUIRE(zit.error().code == vz.error);
    REQUIRE(zit.offset() == vz.valid_up_to);
    // UTF-16 input against utf16_to_utf8 strict.
    const std::u16string u = random_utf16(rng, 8);
    const std::string want8 = utf8dfa::to_utf8(u, status);
    const auto uv = utf8dfa::as_utf8(u, utf8dfa::strict{});
    auto uit = uv.begin();
    got8.clear();
    for (; uit != uv.end(); ++uit) got8.push_back(*uit);
    REQUIRE(got8 == want8);
    REQUIRE(uit.error().code == status.error);
    REQUIRE(uit.error().offset == status.read);
    REQUIRE(uit.error().length == (status.error == error_code::none ? 0u : 1u));
  }
  // UTF-32 input.
  const std::u32string w = U"ab\x110000z";
  auto it = utf8dfa::as_utf16(w, utf8dfa::strict{}).begin();
  REQUIRE(*it == u'a');
  ++it;
  ++it;
  REQUIRE(it == utf8dfa::as_utf16(w, utf8dfa::strict{}).end());
  REQUIRE(it.error().code == error_code::too_large);
  REQUIRE(it.error().offset == 2);
  REQUIRE(it.error().length == 1);
}

TEST_CASE("as_utf*: a custom replacement, as the bulk conversions write it") {
  std::mt19937 rng(17);
  for (int round = 0; round < 500; ++round) {
    std::string s = random_text(rng, 15);
    corrupt(rng, s);
    for (const char32_t r : {U'?', U'\x1F4A9', char32_t{0xD800}}) {  // a surrogate falls back to U+FFFD
      std::u16string want(s.size() * 2 + 2, u'\0');
      want.resize(utf8dfa::utf8_to_utf16(s, want.data(), utf8dfa::replace{r}).written);
      const auto v = utf8dfa::as_utf16(s, utf8dfa::replace{r});
      REQUIRE(std::u16string(v.begin(), v.end()) == want);
      REQUIRE(walk_backward(v).units == want);
      const std::u16string u = random_utf16(rng, 10);
      std::string want8(u.size() * 4, '\0');  // up to 4 bytes per unit (a 4-byte replacement)
      want8.resize(utf8dfa::utf16_to_utf8(u, want8.data(), utf8dfa::replace{r}).written);
      const auto uv = utf8dfa::as_utf8(u, utf8dfa::replace{r});
      REQUIRE(std::string(uv.begin(), uv.end()) == want8);
    }
  }
}

TEST_CASE("as_utf*: iterators: categories, base(), length(), walks in both directions") {
  using ptr = decltype(utf8dfa::as_utf16(std::declval<const std::string&>()).begin());
  using list16 = decltype(utf8dfa::as_utf8(std::declval<const std::list<char16_t>&>()).begin());
  using fwd = decltype(utf8dfa::as_utf32(std::declval<const std::forward_list<char>&>()).begin());
  using in = decltype(utf8dfa::as_utf16(std::istreambuf_iterator<char>(), std::istreambuf_iterator<char>()).begin());
  using cstr = decltype(utf8dfa::as_utf8(std::declval<const char16_t*>()).begin());
  using strict_ptr = decltype(utf8dfa::as_utf16(std::declval<const std::string&>(), utf8dfa::strict{}).begin());
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<ptr>::iterator_category, std::bidirectional_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<list16>::iterator_category, std::bidirectional_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<cstr>::iterator_category, std::bidirectional_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<fwd>::iterator_category, std::forward_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<in>::iterator_category, std::input_iterator_tag>);
  // Strict is forward only: a backward walk cannot know where the forward walk stops.
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<strict_ptr>::iterator_category, std::forward_iterator_tag>);

  // base() and length() per character; a random walk stays on the unit sequence.
  const auto v = utf8dfa::as_utf16(sample);
  const std::u16string want = utf8dfa::to_utf16_lossy(sample);
  std::vector<std::size_t> starts;  // the character start of each unit
  for (auto it = v.begin(); it != v.end(); ++it) {
    starts.push_back(static_cast<std::size_t>(it.base() - sample.data()));
    const utf8dfa::decoded d = utf8dfa::decode_next(sample, starts.back());
    REQUIRE(it.length() == d.length);
  }
  REQUIRE(starts.size() == want.size());
  std::mt19937 rng(5);
  auto it = v.begin();
  std::size_t k = 0;
  for (int step = 0; step < 2000; ++step) {
    if (std::uniform_int_distribution<int>(0, 1)(rng) == 1) {
      if (it != v.end()) {
        ++it;
        ++k;
      }
    } else if (it != v.begin()) {
      --it;
      --k;
    }
    if (k == want.size()) {
      REQUIRE(it == v.end());
      REQUIRE(it.base() == sample.data() + sample.size());
    } else {
      REQUIRE(*it == want[k]);
      REQUIRE(static_cast<std::size_t>(it.base() - sample.data()) == starts[k]);
    }
  }
  // ++ at the end and -- at the start stay put.
  auto e = v.end();
  ++e;
  REQUIRE(e == v.end());
  auto b = v.begin();
  --b;
  REQUIRE(b == v.begin());
  REQUIRE(*b == u'A');
  // The units of one character share its base(); unit_index() counts within it.
  const std::string euro = "\xE2\x82\xAC";
  const std::u32string w = U"\x20AC";
  const auto ev = utf8dfa::as_utf8(w);
  auto eit = ev.begin();
  std::string got;
  for (std::size_t u = 0; eit != ev.end(); ++eit, ++u) {
    REQUIRE(eit.unit_index() == u);
    REQUIRE(eit.base() == w.data());
    got.push_back(*eit);
  }
  REQUIRE(got == euro);
}

TEST_CASE("as_utf*: standard algorithms and C++17 construction") {
  const std::u16string want16 = utf8dfa::to_utf16_lossy(sample);
  const auto v = utf8dfa::as_utf16(sample);
  REQUIRE(std::u16string(v.begin(), v.end()) == want16);
  REQUIRE(std::u16string(std::make_reverse_iterator(v.end()), std::make_reverse_iterator(v.begin())) ==
          std::u16string(want16.rbegin(), want16.rend()));
  REQUIRE(static_cast<std::size_t>(std::distance(v.begin(), v.end())) == want16.size());
  REQUIRE(std::equal(v.begin(), v.end(), want16.begin(), want16.end()));
  REQUIRE(std::count(v.begin(), v.end(), u'\xFFFD') == std::count(want16.begin(), want16.end(), u'\xFFFD'));
  std::u16string appended = u"<";
  std::copy(v.begin(), v.end(), std::back_inserter(appended));
  REQUIRE(appended == u"<" + want16);
  const auto e8 = utf8dfa::as_utf8(want16);
  REQUIRE(std::string(e8.begin(), e8.end()) == utf8dfa::to_utf8_lossy(want16));
  // The round trip of well-formed text is the identity.
  const std::string text = "Gr\xC3\xBC\xC3\x9F \xF0\x9F\x91\x8B \xE6\x97\xA5\xE6\x9C\xAC";
  const auto u16 = utf8dfa::as_utf16(text);
  const std::u16string mid(u16.begin(), u16.end());
  const auto back = utf8dfa::as_utf8(mid);
  REQUIRE(std::string(back.begin(), back.end()) == text);
}

namespace utf_views_test {

// Compile-time transcoding: a u8 literal with an ill-formed byte, forwards and backwards.
template <class View, class Str>
constexpr bool equals(const View& v, Str want) {
  std::size_t k = 0;
  auto it = v.begin();
  for (; it != v.end(); ++it, ++k)
    if (k == want.size() || *it != want[k]) return false;
  if (k != want.size()) return false;
  while (it != v.begin())  // back from the end the forward walk reached (a sentinel cannot move)
    if (*--it != want[--k]) return false;
  return k == 0;
}

constexpr std::string_view ill_formed = "h\xC3\xA9\xF0\x9F\x98\x80\xFF\xE2\x82z";
static_assert(equals(utf8dfa::as_utf16(ill_formed), std::u16string_view(u"h\u00E9\xD83D\xDE00\xFFFD\xFFFDz")),
              "as_utf16 of UTF-8 in a constant expression");
static_assert(equals(utf8dfa::as_utf8(std::u16string_view(u"a\xDC00\xD83D\xDE00")),
                     std::string_view("a\xEF\xBF\xBD\xF0\x9F\x98\x80")),
              "as_utf8 of UTF-16 in a constant expression");
static_assert(equals(utf8dfa::as_utf32(std::u32string_view(U"\x10FFFF\xD800")), std::u32string_view(U"\x10FFFF\xFFFD")),
              "as_utf32 of UTF-32 in a constant expression");
#if UTF8DFA_HAS_CHAR8_T
static_assert(equals(utf8dfa::as_utf16(u8"\u00E9\xC0\xAF!"), std::u16string_view(u"\u00E9\xFFFD\xFFFD!")),
              "as_utf16 of a u8 literal (a null-terminated string) in a constant expression");
#endif
constexpr utf8dfa::input_error first_error() {
  auto it = utf8dfa::as_utf16(ill_formed, utf8dfa::strict{}).begin();
  while (it != utf8dfa::as_utf16(ill_formed, utf8dfa::strict{}).end()) ++it;
  return it.error();
}
static_assert(first_error().offset == 7 && first_error().length == 1 &&
                  first_error().code == utf8dfa::error_code::invalid_byte,
              "strict stops at the FF byte");

}  // namespace utf_views_test

TEST_CASE("as_utf*: constant expressions") {
  STATIC_REQUIRE(equals(utf8dfa::as_utf16(ill_formed), std::u16string_view(u"h\u00E9\xD83D\xDE00\xFFFD\xFFFDz")));
  STATIC_REQUIRE(first_error().code == utf8dfa::error_code::invalid_byte);
}

#if UTF8DFA_HAS_RANGES_VIEWS
TEST_CASE("as_utf*: C++20 range concepts") {
  using str16 = decltype(utf8dfa::as_utf16(std::declval<const std::string&>()));
  using sv8 = decltype(utf8dfa::as_utf8(std::declval<std::u16string_view>()));
  using cstr = decltype(utf8dfa::as_utf32(std::declval<const char*>()));
  using list8 = decltype(utf8dfa::as_utf8(std::declval<const std::list<char32_t>&>()));
  using fwd = decltype(utf8dfa::as_utf16(std::declval<const std::forward_list<char>&>()));
  using stream = decltype(utf8dfa::as_utf16(std::istreambuf_iterator<char>(), std::istreambuf_iterator<char>()));
  using strict16 = decltype(utf8dfa::as_utf16(std::declval<const std::string&>(), utf8dfa::strict{}));
  STATIC_REQUIRE(std::ranges::view<str16>);
  STATIC_REQUIRE(std::ranges::bidirectional_range<str16>);
  STATIC_REQUIRE(std::ranges::common_range<str16>);
  STATIC_REQUIRE(std::ranges::borrowed_range<str16>);
  STATIC_REQUIRE(!std::ranges::random_access_range<str16>);
  STATIC_REQUIRE(std::same_as<std::ranges::range_value_t<str16>, char16_t>);
  STATIC_REQUIRE(std::same_as<std::ranges::range_value_t<sv8>, char>);
  STATIC_REQUIRE(std::ranges::borrowed_range<sv8>);
  STATIC_REQUIRE(std::ranges::borrowed_range<cstr>);
  STATIC_REQUIRE(std::ranges::borrowed_range<stream>);  // it holds the iterators only
  STATIC_REQUIRE(std::ranges::borrowed_range<decltype(utf8dfa::as_utf16(std::declval<std::span<const std::byte>>()))>);
  STATIC_REQUIRE(std::ranges::borrowed_range<decltype(utf8dfa::as_utf8(std::declval<std::wstring_view>()))>);
  STATIC_REQUIRE(std::ranges::view<cstr>);
  STATIC_REQUIRE(std::ranges::bidirectional_range<cstr>);
  STATIC_REQUIRE(!std::ranges::common_range<cstr>);
  STATIC_REQUIRE(std::sentinel_for<utf8dfa::null_sentinel_t, const char16_t*>);
  STATIC_REQUIRE(std::ranges::bidirectional_range<list8>);
  STATIC_REQUIRE(std::ranges::forward_range<fwd>);
  STATIC_REQUIRE(!std::ranges::bidirectional_range<fwd>);
  STATIC_REQUIRE(std::ranges::input_range<stream>);
  STATIC_REQUIRE(!std::ranges::forward_range<stream>);
  STATIC_REQUIRE(std::ranges::view<stream>);
  STATIC_REQUIRE(std::ranges::forward_range<strict16>);
  STATIC_REQUIRE(!std::ranges::bidirectional_range<strict16>);
  STATIC_REQUIRE(std::bidirectional_iterator<std::ranges::iterator_t<str16>>);
  STATIC_REQUIRE(std::forward_iterator<std::ranges::iterator_t<fwd>>);
  STATIC_REQUIRE(std::input_iterator<std::ranges::iterator_t<stream>>);
}

TEST_CASE("as_utf*: composes with std::views") {
  const std::u16string want = utf8dfa::to_utf16_lossy(sample);
  const std::u16string rev(want.rbegin(), want.rend());
  const auto not_ascii = [](char16_t c) { return c >= 0x80; };
  std::u16string got;
  for (char16_t c : utf8dfa::as_utf16(sample) | std::views::reverse) got.push_back(c);
  REQUIRE(got == rev);
  got.clear();
  for (char16_t c : utf8dfa::as_utf16(sample) | std::views::take(5)) got.push_back(c);
  REQUIRE(got == want.substr(0, 5));
  std::u16string filtered;
  std::copy_if(want.begin(), want.end(), std::back_inserter(filtered), not_ascii);
  got.clear();
  for (char16_t c : utf8dfa::as_utf16(sample) | std::views::filter(not_ascii)) got.push_back(c);
  REQUIRE(got == filtered);
  got.clear();
  for (char16_t c :
       utf8dfa::as_utf16(sample.c_str()) | std::views::reverse | std::views::filter(not_ascii) | std::views::take(3))
    got.push_back(c);
  REQUIRE(got == std::u16string(filtered.rbegin(), filtered.rend()).substr(0, 3));
  REQUIRE(std::ranges::equal(utf8dfa::as_utf16(sample), want));
  REQUIRE(std::ranges::distance(utf8dfa::as_utf16(sample.c_str())) == std::ssize(want));
  // Views of views: UTF-8 -> UTF-16 -> UTF-8 round trip of well-formed text.
  const std::string text = "\xCE\xB1\xF0\x9F\x98\x80z";
  std::u32string round;
  for (char32_t c : utf8dfa::as_utf32(text) | std::views::reverse | std::views::reverse) round.push_back(c);
  REQUIRE(round == U"\u03B1\U0001F600z");
  // Borrowed: the iterator outlives the view it came from.
  const auto it = std::ranges::find(utf8dfa::as_utf16(sample), u'\x20AC');
  STATIC_REQUIRE(!std::is_same_v<std::remove_cv_t<decltype(it)>, std::ranges::dangling>);
  REQUIRE(*it == u'\x20AC');
  REQUIRE(utf8dfa::as_utf16(sample).front() == u'A');
  REQUIRE(utf8dfa::as_utf16(sample).back() == want.back());
  // Into a container without std::ranges::to (C++20): ranges::copy into a back_inserter, and the
  // iterator-pair constructor of a common view (a sentinel-terminated one through views::common).
  std::u16string copied;
  std::ranges::copy(utf8dfa::as_utf16(sample), std::back_inserter(copied));
  REQUIRE(copied == want);
  std::string copied8;
  std::ranges::copy(utf8dfa::as_utf8(want.c_str()), std::back_inserter(copied8));
  REQUIRE(copied8 == utf8dfa::to_utf8_lossy(want));
  const auto common = utf8dfa::as_utf16(sample.c_str()) | std::views::common;
  REQUIRE(std::u16string(common.begin(), common.end()) == want);
#if defined(__cpp_lib_ranges_to_container) && __cpp_lib_ranges_to_container >= 202202L
  REQUIRE(std::ranges::to<std::u16string>(utf8dfa::as_utf16(sample)) == want);
  REQUIRE(std::ranges::to<std::u16string>(utf8dfa::as_utf16(sample.c_str())) == want);
  REQUIRE(std::ranges::to<std::u32string>(utf8dfa::as_utf32(want) | std::views::reverse) ==
          std::u32string(utf8dfa::to_utf32_lossy(sample).rbegin(), utf8dfa::to_utf32_lossy(sample).rend()));
  REQUIRE(std::ranges::to<std::string>(utf8dfa::as_utf8(want)) == utf8dfa::to_utf8_lossy(want));
#endif
}

// Collects a view iterated as non-const (views that cannot be iterated as const), with each unit's
// error report.
template <class View>
auto collect_mut(View&& v) {
  walk<std::ranges::range_value_t<View>> w;
  auto it = v.begin();
  for (; it != v.end(); ++it) {
    w.units.push_back(*it);
    w.errors.push_back(it.error());
  }
  w.end_error = it.error();
  return w;
}

// Each unit's error report where it starts an error (reports of single-pass iterators and of
// iterators over a filtered copy are compared this way).
std::vector<utf8dfa::input_error> error_starts(const std::vector<utf8dfa::input_error>& all) {
  std::vector<utf8dfa::input_error> out;
  for (const utf8dfa::input_error& e : all)
    if (e && (out.empty() || out.back().offset != e.offset)) out.push_back(e);
  return out;
}

bool same_errors(const std::vector<utf8dfa::input_error>& a, const std::vector<utf8dfa::input_error>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (!same_error(a[k], b[k])) return false;
  return true;
}

// A view that can be neither copied nor iterated as const (it owns its string, and filters it).
using owned_filter = decltype(std::views::all(std::string()) | std::views::filter([](char) { return true; }));

template <class It, class Sent, class = void>
struct can_view16_pair : std::false_type {};
template <class It, class Sent>
struct can_view16_pair<It, Sent, std::void_t<decltype(utf8dfa::as_utf16(std::declval<It>(), std::declval<Sent>()))>>
    : std::true_type {};

TEST_CASE("as_utf*: views iterated only when not const (std::views::filter), held by value") {
  std::mt19937 rng(2820);
  const auto keep = [](char c) { return c != 'a' && c != '\x80'; };
  for (int round = 0; round < 200; ++round) {
    std::string s = random_text(rng, 20);
    if (round % 2) corrupt(rng, s);
    std::string kept;
    std::copy_if(s.begin(), s.end(), std::back_inserter(kept), keep);
    // The filtered copy is what the view reads, with the same offsets (in filtered units).
    const walk<char16_t> want = walk_forward(utf8dfa::as_utf16(kept));
    auto lvalue = s | std::views::filter(keep);
    const walk<char16_t> got = collect_mut(utf8dfa::as_utf16(lvalue));
    REQUIRE(same_walk(got, want));
    REQUIRE(same_walk(collect_mut(utf8dfa::as_utf16(s | std::views::filter(keep))), want));
    // Bidirectional: backwards the same units.
    auto v = utf8dfa::as_utf32(s | std::views::filter(keep));
    std::u32string back;
    for (auto it = std::ranges::next(v.begin(), v.end()); it != v.begin();) back.push_back(*--it);
    REQUIRE(std::u32string(back.rbegin(), back.rend()) == utf8dfa::to_utf32_lossy(kept));
    // Strict stops at the first error of what it reads.
    const utf8dfa::validation_result vr = utf8dfa::validate(kept);
    const walk<char> strict = collect_mut(utf8dfa::as_utf8(lvalue, utf8dfa::strict{}));
    REQUIRE(strict.units == kept.substr(0, vr.valid_up_to));
    REQUIRE(strict.end_error.code == vr.error);
    if (!vr) REQUIRE(strict.end_error.offset == vr.valid_up_to);
  }
  // A named filter of UTF-16 and of UTF-32, and a const one (copied into the view).
  const std::u16string u16 =
      u"a\xD83D\xDE00"
      u"b\xDC00"
      u"c";
  auto not_b = std::views::filter([](auto c) { return c != 'b'; });
  auto f16 = u16 | not_b;
  REQUIRE(collect_mut(utf8dfa::as_utf8(f16)).units ==
          "a\xF0\x9F\x98\x80\xEF\xBF\xBD"
          "c");
  const auto cf16 = u16 | not_b;
  REQUIRE(collect_mut(utf8dfa::as_utf32(cf16)).units ==
          U"a\U0001F600\xFFFD"
          "c");
  const std::u32string u32 = U"xb\x110000y";
  REQUIRE(collect_mut(utf8dfa::as_utf16(u32 | not_b, utf8dfa::skip{})).units == u"xy");
  using F = decltype(utf8dfa::as_utf16(std::declval<decltype((f16))>()));
  STATIC_REQUIRE(std::ranges::view<F>);
  STATIC_REQUIRE(std::ranges::bidirectional_range<F>);
  STATIC_REQUIRE(!std::ranges::range<const F>);  // as std::views::filter itself
  STATIC_REQUIRE(std::ranges::borrowed_range<F> == std::ranges::borrowed_range<decltype(f16)>);
}

TEST_CASE("as_utf*: ends of another type (std::views::take_while), as iterators or held") {
  std::mt19937 rng(2821);
  const auto before_z = [](char c) { return c != 'z'; };
  for (int round = 0; round < 200; ++round) {
    std::string s = random_text(rng, 20);
    if (round % 2) corrupt(rng, s);
    s.insert(std::uniform_int_distribution<std::size_t>(0, s.size())(rng), 1, 'z');
    const std::string head = s.substr(0, s.find('z'));
    const std::string_view sv = s;
    const walk<char16_t> want = walk_forward(utf8dfa::as_utf16(head));
    // An lvalue: viewed by its iterators (a pointer and take_while's sentinel), both ways.
    const auto named = sv | std::views::take_while(before_z);
    const auto v = utf8dfa::as_utf16(named);
    REQUIRE(same_walk(walk_forward(v), want));
    REQUIRE(same_walk(walk_backward(v), walk_backward(utf8dfa::as_utf16(head))));
    // A temporary: held by value.
    REQUIRE(same_walk(collect_mut(utf8dfa::as_utf16(sv | std::views::take_while(before_z))), want));
    REQUIRE(collect_mut(utf8dfa::as_utf32(sv | std::views::take_while(before_z), utf8dfa::skip{})).units ==
            utf8dfa::to_utf32_lossy(head, utf8dfa::skip{}));
    // Ends where the predicate says, inside a character too (the bytes before it are its subpart).
    const auto upto_x80 = [](char c) { return c != '\x80'; };
    const std::string cut = s.substr(0, s.find('\x80'));
    REQUIRE(collect_mut(utf8dfa::as_utf8(sv | std::views::take_while(upto_x80))).units ==
            utf8dfa::to_utf8_lossy(utf8dfa::to_utf16_lossy(cut)));
  }
  using T =
      decltype(utf8dfa::as_utf16(std::declval<std::string_view>() | std::views::take_while([](char) { return true; })));
  STATIC_REQUIRE(std::ranges::view<T>);
  STATIC_REQUIRE(std::ranges::bidirectional_range<T>);
  STATIC_REQUIRE(!std::ranges::common_range<T>);
  using N = decltype(utf8dfa::as_utf16(
      std::declval<const std::ranges::take_while_view<std::string_view, bool (*)(char)>&>()));
  STATIC_REQUIRE(std::ranges::bidirectional_range<N>);
  STATIC_REQUIRE(std::ranges::borrowed_range<N>);  // it holds the iterators only
  STATIC_REQUIRE(!std::ranges::common_range<N>);
}

TEST_CASE("as_utf*: input-only views (std::views::istream) are read as they are iterated") {
  std::mt19937 rng(2822);
  for (int round = 0; round < 200; ++round) {
    std::string s = random_text(rng, 25);
    if (round % 2) corrupt(rng, s);
    const walk<char16_t> all = walk_forward(utf8dfa::as_utf16(s));
    std::istringstream in(s);
    in >> std::noskipws;
    const walk<char16_t> got = collect_mut(utf8dfa::as_utf16(std::views::istream<char>(in)));
    REQUIRE(got.units == all.units);
    REQUIRE(same_errors(error_starts(got.errors), error_starts(all.errors)));
    // Named, and strict: the iteration ends at the first error, which the iterator reports.
    std::istringstream in2(s);
    in2 >> std::noskipws;
    auto named = std::views::istream<char>(in2);
    const walk<char32_t> strict = collect_mut(utf8dfa::as_utf32(named, utf8dfa::strict{}));
    const utf8dfa::validation_result vr = utf8dfa::validate(s);
    REQUIRE(strict.units == utf8dfa::to_utf32_lossy(s.substr(0, vr.valid_up_to)));
    REQUIRE(strict.end_error.code == vr.error);
    if (!vr) REQUIRE(strict.end_error.offset == vr.valid_up_to);
  }
  // UTF-16 and UTF-32 units read from wide streams are not needed: the element type decides the form.
  std::istringstream in("h\xC3\xA9\xF0\x9F\x98\x80!");
  in >> std::noskipws;
  std::string round_trip;
  std::ranges::copy(utf8dfa::as_utf8(utf8dfa::as_utf16(std::views::istream<char>(in))), std::back_inserter(round_trip));
  REQUIRE(round_trip == "h\xC3\xA9\xF0\x9F\x98\x80!");
  // The view's move-only iterator and its end, as a pair.
  std::istringstream in3(
      "a\xC3\xA9\xFF"
      "b");
  in3 >> std::noskipws;
  auto chars = std::views::istream<char>(in3);
  REQUIRE(collect_mut(utf8dfa::as_utf16(chars.begin(), chars.end(), utf8dfa::replace{U'?'})).units == u"a\u00E9?b");
  using I = decltype(utf8dfa::as_utf16(std::views::istream<char>(in)));
  STATIC_REQUIRE(std::ranges::view<I>);
  STATIC_REQUIRE(std::ranges::input_range<I>);
  STATIC_REQUIRE(!std::ranges::forward_range<I>);
  STATIC_REQUIRE(!std::copy_constructible<std::ranges::iterator_t<I>>);  // as istream's own iterator
  STATIC_REQUIRE(std::same_as<decltype(std::declval<std::ranges::iterator_t<I>&>()++), void>);
}

TEST_CASE("as_utf*: temporary views (std::views::transform) are held; what cannot be viewed does not compile") {
  const std::u16string want = utf8dfa::to_utf16_lossy(sample);
  const auto same = [](char c) { return c; };
  // A temporary transform view, held: bidirectional (its iterators are random access in C++20).
  auto t = utf8dfa::as_utf16(sample | std::views::transform(same));
  REQUIRE(collect_mut(t).units == want);
  REQUIRE(std::ranges::equal(t | std::views::reverse, want | std::views::reverse));
  STATIC_REQUIRE(std::ranges::bidirectional_range<decltype(t)>);
  STATIC_REQUIRE(std::ranges::range<const decltype(t)>);
  STATIC_REQUIRE(!std::ranges::borrowed_range<decltype(t)>);  // it holds the transform view
  // Views of views.
  REQUIRE(collect_mut(
              utf8dfa::as_utf8(utf8dfa::as_utf16(sample) | std::views::filter([](char16_t c) { return c != 0xFFFD; })))
              .units == "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z\xCE\xA9");
  // Refused at the call: temporary containers (they would dangle), an lvalue view that can be neither
  // copied nor iterated as const (move it in instead), units that are not code units, iterator
  // pairs of move-only iterators or of an iterator and an end it cannot be compared with.
  STATIC_REQUIRE(!can_view16<std::string>::value);
  STATIC_REQUIRE(!can_view16<std::list<char>>::value);
  STATIC_REQUIRE(!can_view16<owned_filter&>::value);
  STATIC_REQUIRE(can_view16<owned_filter>::value);
  STATIC_REQUIRE(!can_view16<decltype(std::views::iota(0, 3))>::value);
  STATIC_REQUIRE(!can_view16<decltype(std::views::istream<int>(std::declval<std::istream&>()))>::value);
  STATIC_REQUIRE(can_view16<decltype(std::views::istream<char>(std::declval<std::istream&>()))>::value);
  using istream_it = std::ranges::iterator_t<decltype(std::views::istream<char>(std::declval<std::istream&>()))>;
  STATIC_REQUIRE(can_view16_pair<istream_it, std::default_sentinel_t>::value);  // held in a subrange
  STATIC_REQUIRE(!can_view16_pair<istream_it, const char*>::value);
  STATIC_REQUIRE(can_view16_pair<const char*, const char*>::value);
  STATIC_REQUIRE(!can_view16_pair<const char*, int>::value);
  STATIC_REQUIRE(!can_view16_pair<std::string, std::string>::value);  // not iterators
  // The moved-in view works.
  std::string owned_text = sample;
  auto moved =
      utf8dfa::as_utf16(std::views::all(std::move(owned_text)) | std::views::filter([](char) { return true; }));
  REQUIRE(collect_mut(moved).units == want);
}
#endif

}  // namespace utf8dfa_test_utf_views
