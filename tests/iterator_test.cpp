// code_point_iterator: forward and backward traversal against decode_next / decode_prev, over
// every byte string of up to 3 bytes, strings over an adversarial alphabet, and random corrupted
// text; every iterator category (pointer, bidirectional, forward, single-pass); bounds checked.
#include <utf8dfa/iterator.hpp>

#include <cstddef>
#include <cstdint>
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

#include "catch.hpp"
#include "sample.hpp"

namespace utf8dfa_test_iterator {  // the file's own names (the suite also builds as unity sources)

namespace iterator_test {

using utf8dfa::code_point_iterator;

// One segment of decode_next's segmentation: the definition the iterator must follow.
struct segment {
  std::size_t pos;
  char32_t cp;
  std::size_t length;
};

void reference(const unsigned char* p, std::size_t n, std::vector<segment>& out) {
  out.clear();
  const utf8dfa::detail::byte_span_range<unsigned char> bytes{p, n};
  for (std::size_t i = 0; i < n;) {
    const utf8dfa::decoded d = utf8dfa::decode_next(bytes, i);
    out.push_back({i, d.code_point, d.length});
    i += d.length;
  }
}

std::vector<segment> reference(const unsigned char* p, std::size_t n) {
  std::vector<segment> out;
  reference(p, n, out);
  return out;
}

// A byte iterator over [lo, hi) of category Tag that counts every attempt to read or move outside
// the range (instead of doing it). Not contiguous: the iterator must run its byte-by-byte DFA path.
template <class Tag>
struct checked_iterator {
  using iterator_category = Tag;
  using value_type = unsigned char;
  using difference_type = std::ptrdiff_t;
  using pointer = const unsigned char*;
  using reference = const unsigned char&;

  const unsigned char* p = nullptr;
  const unsigned char* lo = nullptr;
  const unsigned char* hi = nullptr;
  std::size_t* violations = nullptr;

  reference operator*() const {
    if (p == hi) {
      ++*violations;
      return *lo;  // lo is readable whenever a test reaches here with hi > lo
    }
    return *p;
  }
  checked_iterator& operator++() {
    if (p == hi)
      ++*violations;
    else
      ++p;
    return *this;
  }
  checked_iterator operator++(int) {
    checked_iterator t = *this;
    ++*this;
    return t;
  }
  checked_iterator& operator--() {
    if (p == lo)
      ++*violations;
    else
      --p;
    return *this;
  }
  checked_iterator operator--(int) {
    checked_iterator t = *this;
    --*this;
    return t;
  }
  friend bool operator==(const checked_iterator& a, const checked_iterator& b) { return a.p == b.p; }
  friend bool operator!=(const checked_iterator& a, const checked_iterator& b) { return a.p != b.p; }
};

// A single-pass byte source: all copies share one read position (like std::istreambuf_iterator);
// equality is "both at the end or both not".
struct input_source {
  const unsigned char* data;
  std::size_t size;
  std::size_t pos = 0;
  std::size_t violations = 0;
};

struct single_pass_iterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = unsigned char;
  using difference_type = std::ptrdiff_t;
  using pointer = const unsigned char*;
  using reference = unsigned char;

  input_source* src = nullptr;  // nullptr: the end iterator

  bool at_end() const { return src == nullptr || src->pos == src->size; }
  unsigned char operator*() const {
    if (at_end()) {
      if (src) ++src->violations;
      return 0;
    }
    return src->data[src->pos];
  }
  single_pass_iterator& operator++() {
    if (at_end()) {
      if (src) ++src->violations;
    } else {
      ++src->pos;
    }
    return *this;
  }
  single_pass_iterator operator++(int) {
    single_pass_iterator t = *this;
    ++*this;
    return t;
  }
  friend bool operator==(const single_pass_iterator& a, const single_pass_iterator& b) {
    return a.at_end() == b.at_end();
  }
  friend bool operator!=(const single_pass_iterator& a, const single_pass_iterator& b) { return !(a == b); }
};

using bidi_it = checked_iterator<std::bidirectional_iterator_tag>;
using fwd_it = checked_iterator<std::forward_iterator_tag>;

// Counts disagreements between the iterators and the reference on the bytes [p, p+n).
struct checker {
  std::size_t failures = 0;
  std::size_t violations = 0;
  std::size_t inputs = 0;
  bool multipass_generic = true;  // also run the forward-only and single-pass iterators
  std::vector<segment> segments;  // reused: no allocation per input

  void fail() { ++failures; }

  template <class It, class Base>
  void forward(It it, It end, const std::vector<segment>& ref, Base base_of) {
    std::size_t k = 0;
    for (; it != end; ++it, ++k) {
      if (k == ref.size()) return fail();
      if (*it != ref[k].cp || base_of(it.base()) != ref[k].pos || it.length() != ref[k].length) return fail();
    }
    if (k != ref.size()) fail();
  }

  template <class It, class Base>
  void backward(It begin, It it, const std::vector<segment>& ref, Base base_of) {
    std::size_t k = ref.size();
    while (it != begin) {
      --it;
      if (k == 0) return fail();
      --k;
      if (*it != ref[k].cp || base_of(it.base()) != ref[k].pos || it.length() != ref[k].length) return fail();
    }
    if (k != 0) fail();
  }

  void run(const unsigned char* p, std::size_t n) {
    ++inputs;
    reference(p, n, segments);
    const std::vector<segment>& ref = segments;
    // Ill-formed subparts never decode to anything but U+FFFD, and decode_prev agrees at every boundary.
    for (const segment& s : ref) {
      const utf8dfa::detail::byte_span_range<unsigned char> bytes{p, n};
      const utf8dfa::decoded back = utf8dfa::decode_prev(bytes, s.pos + s.length);
      if (back.code_point != s.cp || back.length != s.length) fail();
    }

    // Pointers: the contiguous path (decode_at / decode_before).
    using ptr_it = code_point_iterator<const unsigned char*>;
    auto ptr_base = [p](const unsigned char* q) { return static_cast<std::size_t>(q - p); };
    forward(ptr_it(p, p, p + n), ptr_it(p, p + n, p + n), ref, ptr_base);
    backward(ptr_it(p, p, p + n), ptr_it(p, p + n, p + n), ref, ptr_base);

    // A bidirectional iterator that is not contiguous: the byte-by-byte DFA path, bounds checked.
    const bidi_it b0{p, p, p + n, &violations}, b1{p + n, p, p + n, &violations};
    auto it_base = [p](const auto& q) { return static_cast<std::size_t>(q.p - p); };
    using bidi_cp = code_point_iterator<bidi_it>;
    forward(bidi_cp(b0, b0, b1), bidi_cp(b0, b1, b1), ref, it_base);
    backward(bidi_cp(b0, b0, b1), bidi_cp(b0, b1, b1), ref, it_base);

    if (!multipass_generic) return;
    // Forward-only.
    const fwd_it f0{p, p, p + n, &violations}, f1{p + n, p, p + n, &violations};
    using fwd_cp = code_point_iterator<fwd_it>;
    forward(fwd_cp(f0, f1), fwd_cp(f1, f1), ref, it_base);

    // Single-pass: base() is the position after the current character.
    input_source src{p, n};
    using in_cp = code_point_iterator<single_pass_iterator>;
    std::size_t k = 0;
    for (in_cp it(single_pass_iterator{&src}, single_pass_iterator{}), end; it != end; ++it, ++k) {
      if (k == ref.size() || *it != ref[k].cp || src.pos != ref[k].pos + ref[k].length) {
        fail();
        break;
      }
    }
    if (k != ref.size()) fail();
    violations += src.violations;
  }
};

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
    const std::size_t len = utf8dfa::encode(cp, buf);  // 0 for surrogates: skipped
    s.append(buf, len);
  }
  return s;
}

// Corrupts a well-formed string: flipped bits, random bytes, deleted and inserted bytes, cuts.
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

const unsigned char* bytes_of(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace iterator_test

using namespace iterator_test;

TEST_CASE("code_point_iterator: every byte string of up to 3 bytes, both directions, all iterator kinds",
          "[exhaustive]") {
  checker c;
  // Each length in an array of exactly that size, so that AddressSanitizer builds catch overreads.
  unsigned char one[1]{}, two[2]{}, buf[3]{};
  c.run(buf, 0);
  for (unsigned a = 0; a < 256; ++a) {
    one[0] = two[0] = static_cast<unsigned char>(a);
    c.run(one, 1);
    for (unsigned b = 0; b < 256; ++b) {
      two[1] = static_cast<unsigned char>(b);
      c.run(two, 2);
    }
  }
  // Three bytes: pointers and the bidirectional DFA path for all 2^24 strings.
  c.multipass_generic = false;
  for (unsigned a = 0; a < 256; ++a)
    for (unsigned b = 0; b < 256; ++b)
      for (unsigned d = 0; d < 256 && utf8dfa_sample::keep(a, b); ++d) {
        buf[0] = static_cast<unsigned char>(a);
        buf[1] = static_cast<unsigned char>(b);
        buf[2] = static_cast<unsigned char>(d);
        c.run(buf, 3);
      }
  CHECK(c.inputs == 1 + 256 + 256 * 256 + utf8dfa_sample::inputs_of_length(3));
  CHECK(c.violations == 0);
  REQUIRE(c.failures == 0);
}

TEST_CASE("code_point_iterator: strings of 4 and 5 bytes over every byte class's edges") {
  // The ends of each of the 12 byte classes and of the restricted second-byte ranges.
  const unsigned char alphabet[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                                    0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
  const std::size_t m = sizeof alphabet;
  checker c;
  unsigned char four[4]{}, buf[5]{};
  for (std::size_t i = 0; i < m * m * m * m; ++i) {
    std::size_t x = i;
    for (int k = 0; k < 4; ++k, x /= m) four[k] = alphabet[x % m];
    c.run(four, 4);
  }
  // Five bytes over a smaller set: one byte per class plus the restricted ranges' edges.
  const unsigned char small[] = {0x41, 0x80, 0x90, 0xA0, 0xC0, 0xC2, 0xE0, 0xE1, 0xED, 0xF0, 0xF1, 0xF4};
  const std::size_t q = sizeof small;
  for (std::size_t i = 0; i < q * q * q * q * q; ++i) {
    std::size_t x = i;
    for (int k = 0; k < 5; ++k, x /= q) buf[k] = small[x % q];
    c.run(buf, 5);
  }
  CHECK(c.inputs == m * m * m * m + q * q * q * q * q);
  CHECK(c.violations == 0);
  REQUIRE(c.failures == 0);
}

TEST_CASE("code_point_iterator: random well-formed and corrupted text") {
  std::mt19937 rng(20261123);
  checker c;
  for (int round = 0; round < 4000; ++round) {
    std::string s = random_text(rng, std::uniform_int_distribution<std::size_t>(0, 40)(rng));
    // Well-formed: the iterator gives exactly the code points the bulk decoder gives.
    const std::u32string expected = utf8dfa::to_utf32_lossy(s);
    std::u32string got;
    using ptr_it = code_point_iterator<const char*>;
    for (ptr_it it(s.data(), s.data() + s.size()), end(s.data() + s.size(), s.data() + s.size()); it != end; ++it)
      got.push_back(*it);
    if (got != expected) c.fail();
    c.run(bytes_of(s), s.size());
    corrupt(rng, s);
    c.run(bytes_of(s), s.size());
  }
  CHECK(c.violations == 0);
  REQUIRE(c.failures == 0);
}

TEST_CASE("code_point_iterator: random walks forwards and backwards stay on the segmentation") {
  std::mt19937 rng(7);
  std::size_t failures = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string s = random_text(rng, 30);
    corrupt(rng, s);
    const std::vector<segment> ref = reference(bytes_of(s), s.size());
    using it_t = code_point_iterator<std::string::const_iterator>;
    const it_t begin(s.begin(), s.begin(), s.end()), end(s.begin(), s.end(), s.end());
    it_t it = begin;
    std::size_t k = 0;
    for (int step = 0; step < 200; ++step) {
      const bool forward = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
      if (forward && it != end) {
        ++it;
        ++k;
      } else if (!forward && it != begin) {
        --it;
        --k;
      }
      const std::size_t pos = static_cast<std::size_t>(it.base() - s.begin());
      if (k == ref.size() ? pos != s.size() : (pos != ref[k].pos || *it != ref[k].cp)) ++failures;
    }
  }
  REQUIRE(failures == 0);
}

TEST_CASE("code_point_iterator: an iterator started mid-string at a boundary") {
  const std::string s = "a\xE2\x82\xAC\xF0\x9F\x98\x80\xE2\x82z";
  const std::vector<segment> ref = reference(bytes_of(s), s.size());
  using it_t = code_point_iterator<const char*>;
  const char* p = s.data();
  for (std::size_t k = 0; k < ref.size(); ++k) {
    it_t it(p, p + ref[k].pos, p + s.size());
    REQUIRE(*it == ref[k].cp);
    if (k > 0) {
      --it;
      REQUIRE(*it == ref[k - 1].cp);
    }
  }
}

TEST_CASE("code_point_iterator: std::istreambuf_iterator input") {
  std::mt19937 rng(99);
  for (int round = 0; round < 300; ++round) {
    std::string s = random_text(rng, 25);
    if (round % 2) corrupt(rng, s);
    std::istringstream in(s);
    using it_t = code_point_iterator<std::istreambuf_iterator<char>>;
    std::u32string got;
    for (it_t it{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()}, end; it != end; ++it)
      got.push_back(*it);
    REQUIRE(got == utf8dfa::to_utf32_lossy(s));
  }
}

TEST_CASE("code_point_iterator: std::list and std::forward_list of bytes") {
  const std::string s = "\xCE\x91\xF0\x9F\x98\x80\xED\xA0\x80x\xC3";
  const std::u32string expected = utf8dfa::to_utf32_lossy(s);
  const std::list<char> l(s.begin(), s.end());
  using lit = code_point_iterator<std::list<char>::const_iterator>;
  const lit lb(l.begin(), l.begin(), l.end()), le(l.begin(), l.end(), l.end());
  REQUIRE(std::u32string(lb, le) == expected);
  REQUIRE(std::u32string(std::make_reverse_iterator(le), std::make_reverse_iterator(lb)) ==
          std::u32string(expected.rbegin(), expected.rend()));
  const std::forward_list<unsigned char> fl(s.begin(), s.end());
  using fit = code_point_iterator<std::forward_list<unsigned char>::const_iterator>;
  REQUIRE(std::u32string(fit(fl.begin(), fl.end()), fit(fl.end(), fl.end())) == expected);
}

TEST_CASE("code_point_iterator: null-terminated strings through null_sentinel") {
  std::mt19937 rng(5);
  for (int round = 0; round < 500; ++round) {
    std::string s = random_text(rng, 20);
    corrupt(rng, s);
    for (char& ch : s)
      if (ch == '\0') ch = 'x';
    using it_t = code_point_iterator<const char*, utf8dfa::null_sentinel_t>;
    std::u32string got;
    for (it_t it(s.c_str(), utf8dfa::null_sentinel); it != utf8dfa::null_sentinel; ++it) got.push_back(*it);
    REQUIRE(got == utf8dfa::to_utf32_lossy(s));
    // Backwards from the end that forward iteration reached.
    it_t it(s.c_str(), utf8dfa::null_sentinel);
    while (it != utf8dfa::null_sentinel) ++it;
    REQUIRE(it.base() == s.c_str() + s.size());
    std::u32string back;
    const it_t begin(s.c_str(), utf8dfa::null_sentinel);
    while (it != begin) back.insert(back.begin(), *--it);
    REQUIRE(back == got);
  }
}

TEST_CASE("code_point_iterator: categories and member types") {
  using ptr = code_point_iterator<const char*>;
  using bidi = code_point_iterator<std::list<char>::const_iterator>;
  using fwd = code_point_iterator<std::forward_list<char>::const_iterator>;
  using in = code_point_iterator<std::istreambuf_iterator<char>>;
  using cstr = code_point_iterator<const char*, utf8dfa::null_sentinel_t>;
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<ptr>::iterator_category, std::bidirectional_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<bidi>::iterator_category, std::bidirectional_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<fwd>::iterator_category, std::forward_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<in>::iterator_category, std::input_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<cstr>::iterator_category, std::bidirectional_iterator_tag>);
  STATIC_REQUIRE(std::is_same_v<std::iterator_traits<ptr>::value_type, char32_t>);
  STATIC_REQUIRE(std::is_same_v<decltype(*std::declval<ptr>()), char32_t>);
#if UTF8DFA_HAS_RANGES
  STATIC_REQUIRE(std::bidirectional_iterator<ptr>);
  STATIC_REQUIRE(std::bidirectional_iterator<bidi>);
  STATIC_REQUIRE(std::bidirectional_iterator<cstr>);
  STATIC_REQUIRE(std::sentinel_for<utf8dfa::null_sentinel_t, cstr>);
  STATIC_REQUIRE(std::forward_iterator<fwd>);
  STATIC_REQUIRE(!std::bidirectional_iterator<fwd>);
  STATIC_REQUIRE(std::input_iterator<in>);
  STATIC_REQUIRE(!std::forward_iterator<in>);
  STATIC_REQUIRE(std::same_as<std::iter_value_t<ptr>, char32_t>);
#endif
}

namespace iterator_test {

// Compile-time iteration: the code points of a literal, forwards and backwards, must match
// decode_next's and decode_prev's results (both usable in constant expressions).
constexpr bool constexpr_traversal() {
  constexpr std::string_view s = "h\xC3\xA9\xF0\x9F\x98\x80\xE2\x82\xFF\xED\xA0\x80z";
  using it_t = code_point_iterator<const char*>;
  const it_t begin(s.data(), s.data(), s.data() + s.size());
  const it_t end(s.data(), s.data() + s.size(), s.data() + s.size());
  std::size_t pos = 0;
  for (it_t it = begin; it != end; ++it) {
    const utf8dfa::decoded d = utf8dfa::decode_next(s, pos);
    if (*it != d.code_point || it.length() != d.length) return false;
    pos += d.length;
  }
  if (pos != s.size()) return false;
  for (it_t it = end; it != begin;) {
    --it;
    const utf8dfa::decoded d = utf8dfa::decode_prev(s, pos);
    if (*it != d.code_point) return false;
    pos -= d.length;
  }
  return pos == 0 && *begin == U'h' && *++it_t(begin) == U'\u00E9';
}
static_assert(constexpr_traversal(), "code_point_iterator works in constant expressions");

constexpr std::size_t constexpr_c_string_length() {
  std::size_t n = 0;
  using it_t = code_point_iterator<const char*, utf8dfa::null_sentinel_t>;
  for (it_t it("\xCE\xB1\xCE\xB2\xCE", utf8dfa::null_sentinel); it != utf8dfa::null_sentinel; ++it) ++n;
  return n;
}
static_assert(constexpr_c_string_length() == 3, "two Greek letters and one incomplete sequence");

}  // namespace iterator_test

TEST_CASE("code_point_iterator: ++ at the end and -- at the start stay put") {
  const std::string s = "\xC3\xA9\xFF";
  const std::list<char> l(s.begin(), s.end());
  using ptr_it = code_point_iterator<const char*>;
  using list_it = code_point_iterator<std::list<char>::const_iterator>;
  const ptr_it pb(s.data(), s.data(), s.data() + s.size()), pe(s.data(), s.data() + s.size(), s.data() + s.size());
  const list_it lb(l.begin(), l.begin(), l.end()), le(l.begin(), l.end(), l.end());
  ptr_it p = pb;
  list_it q = lb;
  --p;
  --q;
  REQUIRE(p == pb);
  REQUIRE(q == lb);
  REQUIRE(*p == U'\u00E9');
  REQUIRE(*q == U'\u00E9');
  p = pe;
  q = le;
  ++p;
  ++q;
  REQUIRE(p == pe);
  REQUIRE(q == le);
  REQUIRE(p.length() == 0);
  --p;
  --q;
  REQUIRE(*p == utf8dfa::replacement_character);
  REQUIRE(*q == utf8dfa::replacement_character);
}

}  // namespace utf8dfa_test_iterator
