// Comparisons of the library with the reference (abnf.hpp), input generators and the exhaustive
// enumerations shared by the core test files. Each check returns "" when library and reference
// agree, else a description of the first disagreement (built only then, so hot loops stay cheap).
#ifndef UTF8DFA_TESTS_REFERENCE_CHECK_HPP
#define UTF8DFA_TESTS_REFERENCE_CHECK_HPP

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <utf8dfa.hpp>

#include "../sample.hpp"
#include "abnf.hpp"

// Scratch buffers reused across calls: one per thread, except under WASI, whose programs here are
// single-threaded and whose C++ runtime has no thread-exit destructors (__cxa_thread_atexit).
#if defined(__wasi__)
#define UTF8DFA_CHECK_SCRATCH static
#else
#define UTF8DFA_CHECK_SCRATCH thread_local
#endif

namespace utf8dfa_check {

using utf8dfa_ref::error;

/// The library's kind in the reference's terms (the enumerations list the same names in the same
/// order; tests/validate_test.cpp checks that by name).
inline error to_ref(utf8dfa::error_code e) {
  return static_cast<error>(static_cast<unsigned>(e));
}

/// A pointer and a length as the contiguous byte range the public functions take.
struct bytes {
  const unsigned char* p;
  std::size_t n;
  const unsigned char* data() const { return p; }
  std::size_t size() const { return n; }
};

inline std::string hex(const unsigned char* p, std::size_t n) {
  static const char digits[] = "0123456789ABCDEF";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) s += ' ';
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s.empty() ? "(empty)" : s;
}

inline std::string hex(const std::string& s) {
  return hex(reinterpret_cast<const unsigned char*>(s.data()), s.size());
}

inline std::string fail(const unsigned char* p, std::size_t n, const std::string& what) {
  std::string s(1, '[');  // appended piece by piece: GCC 12's -Wrestrict misfires on "lit" + string
  s += hex(p, n);
  s += "] ";
  s += what;
  return s;
}

/// A tally of checked inputs and disagreements, keeping the first description.
struct tally {
  std::size_t inputs = 0, failures = 0;
  std::string first;
  void add(std::string&& m) {
    ++inputs;
    if (!m.empty() && failures++ == 0) first = std::move(m);
  }
};

/// Seconds since t0: the exhaustive tests print their run time (nothing asserts on it).
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ---- The checks -------------------------------------------------------------------------------

/// validate (range and pointer forms) and is_valid against the ABNF walk.
inline std::string check_validate(const unsigned char* p, std::size_t n) {
  const utf8dfa_ref::verdict r = utf8dfa_ref::validate(p, n);
  const utf8dfa::validation_result v = utf8dfa::validate(bytes{p, n});
  if (v.valid_up_to != r.valid_up_to || v.error_length != r.error_length || to_ref(v.error) != r.kind ||
      static_cast<bool>(v) != (r.kind == error::none))
    return fail(p, n,
                "validate {" + std::to_string(v.valid_up_to) + ", " + std::to_string(v.error_length) + ", " +
                    std::string(utf8dfa::error_name(v.error)) + "}, reference {" + std::to_string(r.valid_up_to) +
                    ", " + std::to_string(r.error_length) + ", " + utf8dfa_ref::name(r.kind) + "}");
  const utf8dfa::validation_result w = utf8dfa::validate(p, n);
  if (w.valid_up_to != v.valid_up_to || w.error_length != v.error_length || w.error != v.error)
    return fail(p, n, "validate(pointer, size) differs from validate(range)");
  if (utf8dfa::is_valid(bytes{p, n}) != (r.kind == error::none) || utf8dfa::is_valid(p, n) != (r.kind == error::none))
    return fail(p, n, "is_valid disagrees");
  return {};
}

inline std::string describe(const char* fn, std::size_t at, const utf8dfa::decoded& d, char32_t cp, std::size_t len,
                            error kind) {
  return std::string(fn) + "(" + std::to_string(at) + ") = {" + std::to_string(std::uint32_t(d.code_point)) + ", " +
         std::to_string(d.length) + ", " + std::string(utf8dfa::error_name(d.error)) + "}, reference {" +
         std::to_string(std::uint32_t(cp)) + ", " + std::to_string(len) + ", " + utf8dfa_ref::name(kind) + "}";
}

/// The forward segmentation by decode_next against both readings of the reference, then decode_prev
/// walked back from the end, which must give the same segments in reverse order. With `every_end`,
/// decode_prev(s, end) is also checked at every end against the last segment of s[0, end).
inline std::string check_decode(const unsigned char* p, std::size_t n, bool every_end = false) {
  struct seg {
    std::size_t pos;
    char32_t cp;
    std::size_t len;
    error kind;
  };
  UTF8DFA_CHECK_SCRATCH std::vector<seg> segs;
  segs.clear();
  const bytes b{p, n};
  for (std::size_t pos = 0; pos < n;) {
    const utf8dfa_ref::segment s = utf8dfa_ref::segment_at(p, n, pos);
    const utf8dfa_ref::piece c = utf8dfa_ref::decode_at(p, n, pos);
    if (s.length != c.length || (s.kind == error::none) != c.well_formed)
      return fail(p, n, "the two readings of the reference disagree at " + std::to_string(pos));
    const utf8dfa::decoded d = utf8dfa::decode_next(b, pos);
    if (d.code_point != c.value || d.length != s.length || to_ref(d.error) != s.kind)
      return fail(p, n, describe("decode_next", pos, d, c.value, s.length, s.kind));
    segs.push_back({pos, c.value, s.length, s.kind});
    pos += s.length;
  }
  const utf8dfa::decoded at_end = utf8dfa::decode_next(b, n);
  if (at_end.length != 0 || at_end.error != utf8dfa::error_code::incomplete || at_end.code_point != U'\uFFFD')
    return fail(p, n, "decode_next at the end is not {U+FFFD, 0, incomplete}");
  std::size_t end = n;
  for (std::size_t k = segs.size(); k-- > 0;) {
    const seg& s = segs[k];
    const utf8dfa::decoded d = utf8dfa::decode_prev(b, end);
    if (d.code_point != s.cp || d.length != s.len || to_ref(d.error) != s.kind || end - s.len != s.pos)
      return fail(p, n, describe("decode_prev", end, d, s.cp, s.len, s.kind));
    end -= d.length;
  }
  const utf8dfa::decoded at_start = utf8dfa::decode_prev(b, 0);
  if (at_start.length != 0 || at_start.error != utf8dfa::error_code::incomplete)
    return fail(p, n, "decode_prev at the start is not {U+FFFD, 0, incomplete}");
  if (every_end) {
    for (std::size_t e = 1; e < n; ++e) {  // e == n was walked above
      std::size_t pos = 0;
      utf8dfa_ref::segment last{0, error::none};
      std::size_t last_pos = 0;
      while (pos < e) {
        last = utf8dfa_ref::segment_at(p, e, pos);
        last_pos = pos;
        pos += last.length;
      }
      // At an end inside the input, a segment the prefix leaves incomplete takes the kind the whole
      // input gives it when the byte at `e` cuts it short (same length): decode_next's kind.
      if (last.kind == error::incomplete) {
        const utf8dfa_ref::segment whole = utf8dfa_ref::segment_at(p, n, last_pos);
        if (whole.length == last.length) last.kind = whole.kind;
      }
      const utf8dfa_ref::piece c = utf8dfa_ref::decode_at(p, e, last_pos);
      const utf8dfa::decoded d = utf8dfa::decode_prev(b, e);
      if (d.code_point != c.value || d.length != last.length || to_ref(d.error) != last.kind)
        return fail(p, n, describe("decode_prev", e, d, c.value, last.length, last.kind));
    }
  }
  return {};
}

/// The reference's lossy decoding as UTF-32 and UTF-16, and the first error.
struct expected {
  std::u32string utf32;
  std::u16string utf16;
  std::size_t valid_up_to = 0;  // bytes before the first error
  std::size_t units32 = 0;      // UTF-32 units before the first error
  std::size_t units16 = 0;      // UTF-16 units before the first error
  error first = error::none;
};

inline void compute(expected& e, const unsigned char* p, std::size_t n, char32_t repl) {
  e.utf32.clear();
  e.utf16.clear();
  e.first = error::none;
  e.valid_up_to = n;
  for (std::size_t pos = 0; pos < n;) {
    const utf8dfa_ref::piece c = utf8dfa_ref::decode_at(p, n, pos);
    if (!c.well_formed && e.first == error::none) {
      e.first = utf8dfa_ref::segment_at(p, n, pos).kind;
      e.valid_up_to = pos;
      e.units32 = e.utf32.size();
      e.units16 = e.utf16.size();
    }
    const char32_t v = c.well_formed ? c.value : repl;
    e.utf32 += v;
    e.utf16 += utf8dfa_ref::encode_utf16(v);
    pos += c.length;
  }
  if (e.first == error::none) {
    e.units32 = e.utf32.size();
    e.units16 = e.utf16.size();
  }
}

inline std::string result_text(const utf8dfa::conversion_result& r) {
  return "{read " + std::to_string(r.read) + ", written " + std::to_string(r.written) + ", " +
         std::string(utf8dfa::error_name(r.error)) + "}";
}

/// utf8_to_utf32 and utf8_to_utf16 under strict and replace (with `repl`; U+FFFD uses the default
/// policy object), the length helpers, on well-formed input assume_valid and count_code_points, and
/// on ill-formed input that assume_valid writes no more than the length helpers say; to_utf32_lossy.
/// With `allocating`, to_utf16_lossy and the status helpers too.
inline std::string check_transcode(const unsigned char* p, std::size_t n, char32_t repl = U'\uFFFD',
                                   bool allocating = false) {
  UTF8DFA_CHECK_SCRATCH expected e;
  UTF8DFA_CHECK_SCRATCH std::u32string out32;
  UTF8DFA_CHECK_SCRATCH std::u16string out16;
  compute(e, p, n, repl);
  const bytes b{p, n};
  const bool ok = e.first == error::none;
  const utf8dfa::replace pol = repl == U'\uFFFD' ? utf8dfa::replace{} : utf8dfa::replace{repl};
  const std::size_t len32 = utf8dfa::utf32_length_from_utf8(b, pol);
  const std::size_t len16 = utf8dfa::utf16_length_from_utf8(b, pol);
  if (len32 != e.utf32.size() || len16 != e.utf16.size())
    return fail(p, n,
                "length helpers " + std::to_string(len32) + "/" + std::to_string(len16) + ", reference " +
                    std::to_string(e.utf32.size()) + "/" + std::to_string(e.utf16.size()));
  // Canary units after the exact size catch writes past what the length helpers promise.
  const char32_t canary32 = U'\U0010ABCD';
  const char16_t canary16 = u'\uABCD';
  out32.assign(len32 + 1, canary32);
  out16.assign(len16 + 1, canary16);

  utf8dfa::conversion_result r = utf8dfa::utf8_to_utf32(b, &out32[0], utf8dfa::strict{});
  if (r.read != e.valid_up_to || r.written != e.units32 || to_ref(r.error) != e.first ||
      out32.compare(0, e.units32, e.utf32, 0, e.units32) != 0 || out32[len32] != canary32)
    return fail(p, n, "utf8_to_utf32 strict " + result_text(r));
  const utf8dfa::conversion_result r_default = utf8dfa::utf8_to_utf32(b, &out32[0]);
  if (r_default.read != r.read || r_default.written != r.written || r_default.error != r.error)
    return fail(p, n, "utf8_to_utf32 with the default policy is not strict");
  r = utf8dfa::utf8_to_utf32(b, &out32[0], pol);
  if (r.read != n || r.written != e.utf32.size() || to_ref(r.error) != e.first ||
      out32.compare(0, len32, e.utf32) != 0 || out32[len32] != canary32)
    return fail(p, n, "utf8_to_utf32 replace " + result_text(r));
  r = utf8dfa::utf8_to_utf16(b, &out16[0], utf8dfa::strict{});
  if (r.read != e.valid_up_to || r.written != e.units16 || to_ref(r.error) != e.first ||
      out16.compare(0, e.units16, e.utf16, 0, e.units16) != 0 || out16[len16] != canary16)
    return fail(p, n, "utf8_to_utf16 strict " + result_text(r));
  r = utf8dfa::utf8_to_utf16(b, &out16[0], pol);
  if (r.read != n || r.written != e.utf16.size() || to_ref(r.error) != e.first ||
      out16.compare(0, len16, e.utf16) != 0 || out16[len16] != canary16)
    return fail(p, n, "utf8_to_utf16 replace " + result_text(r));
  if (ok) {
    r = utf8dfa::utf8_to_utf32(b, &out32[0], utf8dfa::assume_valid{});
    if (r.read != n || r.written != len32 || r.error != utf8dfa::error_code::none ||
        out32.compare(0, len32, e.utf32) != 0)
      return fail(p, n, "utf8_to_utf32 assume_valid " + result_text(r));
    r = utf8dfa::utf8_to_utf16(b, &out16[0], utf8dfa::assume_valid{});
    if (r.read != n || r.written != len16 || r.error != utf8dfa::error_code::none ||
        out16.compare(0, len16, e.utf16) != 0)
      return fail(p, n, "utf8_to_utf16 assume_valid " + result_text(r));
    if (utf8dfa::count_code_points(b) != len32) return fail(p, n, "count_code_points");
  } else if (repl == U'\uFFFD') {
    // assume_valid on ill-formed input: the output is unspecified, but stays within the size the
    // length helpers give (policy.hpp), which the canaries check.
    r = utf8dfa::utf8_to_utf32(b, &out32[0], utf8dfa::assume_valid{});
    if (r.written > len32 || out32[len32] != canary32)
      return fail(p, n, "utf8_to_utf32 assume_valid overflows " + result_text(r));
    r = utf8dfa::utf8_to_utf16(b, &out16[0], utf8dfa::assume_valid{});
    if (r.written > len16 || out16[len16] != canary16)
      return fail(p, n, "utf8_to_utf16 assume_valid overflows " + result_text(r));
  }
  if (repl == U'\uFFFD' && utf8dfa::to_utf32_lossy(b) != e.utf32) return fail(p, n, "to_utf32_lossy");
  if (allocating) {
    if (repl == U'\uFFFD' && utf8dfa::to_utf16_lossy(b) != e.utf16) return fail(p, n, "to_utf16_lossy");
    utf8dfa::conversion_result status{0, 0, utf8dfa::error_code::none};
    const std::u32string s32 = utf8dfa::to_utf32(b, status);
    if (status.read != e.valid_up_to || status.written != e.units32 || to_ref(status.error) != e.first ||
        s32 != e.utf32.substr(0, e.units32))
      return fail(p, n, "to_utf32(bytes, status) " + result_text(status));
    status = {0, 0, utf8dfa::error_code::none};
    const std::u16string s16 = utf8dfa::to_utf16(b, status);
    if (status.read != e.valid_up_to || status.written != e.units16 || to_ref(status.error) != e.first ||
        s16 != e.utf16.substr(0, e.units16))
      return fail(p, n, "to_utf16(bytes, status) " + result_text(status));
  }
  return {};
}

inline std::string units_hex(const char16_t* p, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n && i < 64; ++i) {
    if (i) s += ' ';
    s += std::to_string(std::uint32_t(p[i]));
  }
  return s;
}

inline std::string units_hex(const char32_t* p, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n && i < 64; ++i) {
    if (i) s += ' ';
    s += std::to_string(std::uint32_t(p[i]));
  }
  return s;
}

/// utf16_to_utf8 / utf32_to_utf8 (by the unit type) under strict, replace (with `repl`) and, on
/// well-formed input, assume_valid; utf8_length_from_utf16/32; the allocating helpers when `allocating`.
/// The reference: RFC 2781 pairing (UTF-16) or the scalar-value test (UTF-32), one replacement
/// per unpaired surrogate or bad unit, RFC 3629 section 3 encoding.
template <class Unit>
std::string check_to_utf8(const Unit* p, std::size_t n, char32_t repl = U'\uFFFD', bool allocating = false) {
  UTF8DFA_CHECK_SCRATCH std::string want, out;
  want.clear();
  std::size_t valid_up_to = n, bytes_before = 0;
  error first = error::none;
  for (std::size_t i = 0; i < n;) {
    char32_t v;
    std::size_t len = 1;
    error kind;
    if constexpr (sizeof(Unit) == 2) {
      const utf8dfa_ref::utf16_piece u = utf8dfa_ref::utf16_at(p, n, i);
      v = u.value;
      len = u.length;
      kind = u.kind;
    } else {
      v = p[i];
      kind = utf8dfa_ref::utf32_error(p[i]);
    }
    if (kind != error::none) {
      if (first == error::none) {
        first = kind;
        valid_up_to = i;
        bytes_before = want.size();
      }
      v = repl;
    }
    want += utf8dfa_ref::encode_utf8(v);
    i += len;
  }
  if (first == error::none) bytes_before = want.size();
  using view = std::basic_string_view<Unit>;
  const view in(p, n);
  auto where = [&](const std::string& what) {
    std::string m(1, '[');
    m += units_hex(p, n);
    m += "] ";
    m += what;
    return m;
  };
  const utf8dfa::replace pol = repl == U'\uFFFD' ? utf8dfa::replace{} : utf8dfa::replace{repl};
  std::size_t len;
  if constexpr (sizeof(Unit) == 2)
    len = utf8dfa::utf8_length_from_utf16(in, pol);
  else
    len = utf8dfa::utf8_length_from_utf32(in, pol);
  if (len != want.size())
    return where("length helper " + std::to_string(len) + ", reference " + std::to_string(want.size()));
  auto convert = [&](auto policy) {
    if constexpr (sizeof(Unit) == 2)
      return utf8dfa::utf16_to_utf8(in, &out[0], policy);
    else
      return utf8dfa::utf32_to_utf8(in, &out[0], policy);
  };
  out.assign(len + 1, '\x5A');
  utf8dfa::conversion_result r = convert(utf8dfa::strict{});
  if (r.read != valid_up_to || r.written != bytes_before || to_ref(r.error) != first ||
      out.compare(0, bytes_before, want, 0, bytes_before) != 0 || out[len] != '\x5A')
    return where("strict " + result_text(r));
  r = convert(pol);
  if (r.read != n || r.written != want.size() || to_ref(r.error) != first || out.compare(0, len, want) != 0 ||
      out[len] != '\x5A')
    return where("replace " + result_text(r));
  if (first == error::none) {
    r = convert(utf8dfa::assume_valid{});
    if (r.read != n || r.written != len || r.error != utf8dfa::error_code::none || out.compare(0, len, want) != 0)
      return where("assume_valid " + result_text(r));
  }
  if (allocating) {
    utf8dfa::conversion_result status{0, 0, utf8dfa::error_code::none};
    const std::string s = utf8dfa::to_utf8(in, status);
    if (status.read != valid_up_to || status.written != bytes_before || to_ref(status.error) != first ||
        s != want.substr(0, bytes_before))
      return where("to_utf8(in, status) " + result_text(status));
    if (repl == U'\uFFFD' && utf8dfa::to_utf8_lossy(in) != want) return where("to_utf8_lossy");
  }
  return {};
}

// ---- Enumerations -----------------------------------------------------------------------------

/// Bytes that lie in the same ranges of the ABNF behave alike wherever they occur. The runs of
/// consecutive such bytes (00-7F, 80-8F, 90-9F, A0-BF, C0-C1, C2-DF, E0, E1-EC, ED, EE-EF, F0, F1-F3,
/// F4, F5-FF), derived from the reference's table, as {first, last} byte pairs.
inline std::vector<std::pair<unsigned char, unsigned char>> byte_runs() {
  auto signature = [](unsigned b) {
    std::uint64_t s = 0;
    unsigned bit = 0;
    for (const utf8dfa_ref::alternative& a : utf8dfa_ref::utf8_char)
      for (std::size_t k = 0; k < a.length; ++k, ++bit)
        if (a.seq[k].has(b)) s |= std::uint64_t{1} << bit;
    return s;
  };
  std::vector<std::pair<unsigned char, unsigned char>> runs;
  for (unsigned b = 0; b < 256; ++b)
    if (b == 0 || signature(b - 1) != signature(b))
      runs.emplace_back(static_cast<unsigned char>(b), static_cast<unsigned char>(b));
    else
      runs.back().second = static_cast<unsigned char>(b);
  return runs;
}

/// The first and the last byte of every run.
inline std::vector<unsigned char> representatives() {
  std::vector<unsigned char> reps;
  for (const auto& r : byte_runs()) {
    reps.push_back(r.first);
    if (r.second != r.first) reps.push_back(r.second);
  }
  return reps;
}

/// Calls f(p, n) for every byte sequence of length n (256^n of them; from 3 bytes on, those that
/// utf8dfa_sample::keep: all of them unless the run samples).
template <class F>
std::size_t for_each_sequence(std::size_t n, F&& f) {
  unsigned char buf[4] = {};
  std::size_t count = 0;
  const std::size_t total = std::size_t{1} << (8 * n);
  for (std::size_t v = 0; v < total; ++v) {
    for (std::size_t i = 0; i < n; ++i) buf[i] = static_cast<unsigned char>(v >> (8 * (n - 1 - i)));
    if (n >= 3 && !utf8dfa_sample::keep(buf[0], buf[1])) continue;
    f(static_cast<const unsigned char*>(buf), n);
    ++count;
  }
  return count;
}

/// True when p[0, k) is a proper prefix of a UTF8-char (some alternative matches all k octets and
/// wants more): the automaton is still inside the first character.
inline bool inside_first_char(const unsigned char* p, std::size_t k) {
  for (const utf8dfa_ref::alternative& a : utf8dfa_ref::utf8_char)
    if (k < a.length && utf8dfa_ref::matched(a, p, k, 0) == k) return true;
  return false;
}

/// The pruned enumeration of 4-byte sequences. Why it is exhaustive:
///
/// Every sequence of 1 to 3 bytes is checked on its own (all 256^n). A 4-byte input s = b0 b1 b2 b3
/// splits at the end k of its first segment (its first UTF8-char or maximal ill-formed subpart,
/// 1 <= k <= 4) into that segment and a rest s[k, 4) of at most 3 bytes. The library is specified as
/// one automaton whose only memory is its state (plus, when decoding, the bits of the current
/// character): at k it is back in the start state (a byte that cut the segment short is re-read as a
/// lead), so its answer on s is its answer on the first segment followed by its answer on the rest,
/// an input checked exhaustively on its own; the reference composes the same way by construction.
/// What is left to check is therefore (a) the first segment with every value of every byte it
/// depends on, and (b) that the composition happens, for a rest of every shape. Hence byte i takes
/// all 256 values whenever s[0, i) is still inside the first character (the automaton is live and
/// byte i decides how the character goes on or ends: a valid continuation, a refused continuation,
/// a new lead), and once the first segment is over, one byte of every run of bytes the ABNF does not
/// tell apart (`byte_runs`: all bytes of a run go through the same transitions), alternately its
/// first and its last byte so that both ends of every range meet every position. So every live state
/// is entered with every byte and every state after the first segment with every run. About 11.2
/// million inputs instead of 2^32 (and tests add random 4-byte inputs drawn from all 2^32). A sampling
/// run (tests/sample.hpp) keeps the first two bytes that utf8dfa_sample::keep.
template <class F>
std::size_t for_each_pruned4(F&& f) {
  static const std::vector<std::pair<unsigned char, unsigned char>> runs = byte_runs();
  std::size_t count = 0;
  unsigned char s[4];
  auto values = [&](std::size_t i, auto&& body) {
    if (i == 0 || inside_first_char(s, i)) {
      for (unsigned v = 0; v < 256; ++v) body(static_cast<unsigned char>(v));
    } else {
      for (const auto& r : runs) body((i + s[0]) % 2 == 0 ? r.first : r.second);
    }
  };
  values(0, [&](unsigned char b0) {
    s[0] = b0;
    values(1, [&](unsigned char b1) {
      s[1] = b1;
      if (!utf8dfa_sample::keep(b0, b1)) return;
      values(2, [&](unsigned char b2) {
        s[2] = b2;
        values(3, [&](unsigned char b3) {
          s[3] = b3;
          f(static_cast<const unsigned char*>(s), std::size_t{4});
          ++count;
        });
      });
    });
  });
  return count;
}

// ---- Random inputs with fixed seeds -----------------------------------------------------------

/// A random scalar value, each UTF-8 length about equally likely.
inline char32_t random_scalar(std::mt19937& rng) {
  switch (rng() % 4) {
    case 0:
      return static_cast<char32_t>(rng() % 0x80);
    case 1:
      return static_cast<char32_t>(0x80 + rng() % (0x800 - 0x80));
    case 2: {
      char32_t c;
      do c = static_cast<char32_t>(0x800 + rng() % (0x10000 - 0x800));
      while (c >= 0xD800 && c <= 0xDFFF);
      return c;
    }
    default:
      return static_cast<char32_t>(0x10000 + rng() % (0x110000 - 0x10000));
  }
}

/// Well-formed UTF-8 of `chars` random characters.
inline std::string random_valid(std::mt19937& rng, std::size_t chars) {
  std::string s;
  for (std::size_t i = 0; i < chars; ++i) s += utf8dfa_ref::encode_utf8(random_scalar(rng));
  return s;
}

/// Ill-formed pieces of every kind (and truncations of every length).
inline const std::vector<std::string>& bad_pieces() {
  static const std::vector<std::string> pieces = {"\xC0",
                                                  "\xC1\xBF",
                                                  "\xF5",
                                                  "\xFF",
                                                  "\x80",
                                                  "\xBF",
                                                  "\x80\x80",
                                                  "\xC2",
                                                  "\xE1\x80",
                                                  "\xF1\x80\x80",
                                                  "\xF0\x9F\x98",
                                                  "\xE0\x80",
                                                  "\xE0\x9F\xBF",
                                                  "\xF0\x80\x80",
                                                  "\xF0\x8F",
                                                  "\xED\xA0\x80",
                                                  "\xED\xBF\xBF",
                                                  "\xF4\x90\x80\x80",
                                                  "\xF4\xBF",
                                                  "\xF8\x88\x80",
                                                  "\xFC\x84",
                                                  "\xFE",
                                                  "\xC0\xAF",
                                                  "\xE0\x80\xAF",
                                                  "\xF0\x80\x80\xAF"};
  return pieces;
}

/// Random bytes drawn mostly from the interesting ones, so that valid stretches occur.
inline std::string random_bytes(std::mt19937& rng, std::size_t n) {
  static const std::vector<unsigned char> reps = representatives();
  std::string s(n, '\0');
  for (char& c : s) {
    const unsigned r = rng() % 8;
    unsigned v;
    if (r < 3)
      v = rng() % 256;
    else if (r < 5)
      v = 0x80 + rng() % 0x40;
    else if (r < 6)
      v = rng() % 0x80;
    else
      v = reps[rng() % reps.size()];
    c = static_cast<char>(v);
  }
  return s;
}

/// Random valid text and ill-formed pieces, concatenated.
inline std::string random_mix(std::mt19937& rng, std::size_t pieces) {
  std::string s;
  for (std::size_t i = 0; i < pieces; ++i) {
    if (rng() % 3 == 0)
      s += bad_pieces()[rng() % bad_pieces().size()];
    else
      s += random_valid(rng, rng() % 6);
    if (rng() % 5 == 0) s.append(rng() % 40, 'a');  // an ASCII run, for the ASCII fast paths
  }
  return s;
}

/// Where to plant errors in a long input: everywhere in the first 80 bytes, then around every
/// multiple of 16 (the block edges of 16-, 32- and 64-byte kernels), and the end.
inline std::vector<std::size_t> block_edges(std::size_t size) {
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i <= size; ++i)
    if (i < 80 || i % 16 <= 2 || i % 16 >= 14 || i == size) at.push_back(i);
  return at;
}

inline const unsigned char* u8p(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace utf8dfa_check

#endif
