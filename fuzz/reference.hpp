// Independent references for the fuzz targets: written from the RFC 3629 table of well-formed
// byte sequences and the Unicode "maximal subpart" substitution rule, sharing no code with the
// library (no DFA, no tables from it). Slow and obvious on purpose.
#ifndef UTF8DFA_FUZZ_REFERENCE_HPP
#define UTF8DFA_FUZZ_REFERENCE_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <utf8dfa.hpp>

namespace fuzzref {

using utf8dfa::error_code;

/// Aborts with a message: libFuzzer records the input as a crash.
#define FUZZ_CHECK(...)                                                                          \
  do {                                                                                           \
    if (!(__VA_ARGS__)) {                                                                        \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s (%s:%d)\n", #__VA_ARGS__, __FILE__, __LINE__); \
      std::abort();                                                                              \
    }                                                                                            \
  } while (0)

/// One step of the reference decoder: a character, or a maximal ill-formed subpart.
struct step {
  char32_t cp;         // the scalar value; 0xFFFD on error
  std::size_t length;  // bytes consumed (>= 1)
  error_code error;    // none when well-formed
};

/// RFC 3629 section 4 read as a table: for a lead byte, how many continuation bytes follow and
/// which range the first of them must fall in (the others are always 80..BF).
struct lead_info {
  int tails;  // -1: never a lead byte
  unsigned lo, hi;
  error_code outside;  // kind when the second byte is a continuation byte outside [lo, hi]
};

inline lead_info lead_of(unsigned b) {
  if (b <= 0x7F) return {0, 0, 0, error_code::none};
  if (b >= 0xC2 && b <= 0xDF) return {1, 0x80, 0xBF, error_code::none};
  if (b == 0xE0) return {2, 0xA0, 0xBF, error_code::overlong};
  if (b == 0xED) return {2, 0x80, 0x9F, error_code::surrogate};
  if (b >= 0xE1 && b <= 0xEF) return {2, 0x80, 0xBF, error_code::none};
  if (b == 0xF0) return {3, 0x90, 0xBF, error_code::overlong};
  if (b == 0xF4) return {3, 0x80, 0x8F, error_code::too_large};
  if (b >= 0xF1 && b <= 0xF3) return {3, 0x80, 0xBF, error_code::none};
  return {-1, 0, 0, error_code::none};
}

inline step decode(const unsigned char* p, std::size_t n, std::size_t i) {
  const unsigned b = p[i];
  const lead_info li = lead_of(b);
  if (li.tails < 0)
    return {0xFFFD, 1, b >= 0x80 && b <= 0xBF ? error_code::unexpected_continuation : error_code::invalid_byte};
  if (li.tails == 0) return {b, 1, error_code::none};
  // Value bits of the lead: 5, 4 or 3 of them.
  char32_t cp = b & (0x3Fu >> li.tails);
  for (int k = 1; k <= li.tails; ++k) {
    const std::size_t at = i + static_cast<std::size_t>(k);
    if (at >= n) return {0xFFFD, static_cast<std::size_t>(k), error_code::incomplete};
    const unsigned c = p[at];
    const unsigned lo = k == 1 ? li.lo : 0x80, hi = k == 1 ? li.hi : 0xBF;
    if (c < lo || c > hi) {
      const bool cont = c >= 0x80 && c <= 0xBF;
      return {0xFFFD, static_cast<std::size_t>(k), cont ? li.outside : error_code::too_short};
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  return {cp, static_cast<std::size_t>(li.tails) + 1, error_code::none};
}

/// Reference validation: first maximal subpart's offset, length (0 when incomplete) and kind.
inline utf8dfa::validation_result validate(const unsigned char* p, std::size_t n) {
  for (std::size_t i = 0; i < n;) {
    const step s = decode(p, n, i);
    if (s.error != error_code::none) return {i, s.error == error_code::incomplete ? 0 : s.length, s.error};
    i += s.length;
  }
  return {n, 0, error_code::none};
}

/// Reference lossy decode: each maximal ill-formed subpart becomes `repl`.
inline std::u32string decode_lossy(const unsigned char* p, std::size_t n, char32_t repl = 0xFFFD) {
  std::u32string out;
  for (std::size_t i = 0; i < n;) {
    const step s = decode(p, n, i);
    out.push_back(s.error == error_code::none ? s.cp : repl);
    i += s.length;
  }
  return out;
}

/// Scalar values as UTF-16 (the arithmetic of RFC 2781 section 2.1).
inline std::u16string to_utf16(const std::u32string& cps) {
  std::u16string out;
  for (char32_t c : cps) {
    if (c < 0x10000) {
      out.push_back(static_cast<char16_t>(c));
    } else {
      const char32_t v = c - 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 | (v >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 | (v & 0x3FF)));
    }
  }
  return out;
}

/// Scalar values as UTF-8 (the bit patterns of RFC 3629 section 3).
inline std::string to_utf8(const std::u32string& cps) {
  std::string out;
  for (char32_t c : cps) {
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (c >> 12)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (c >> 18)));
      out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
  return out;
}

/// Reference UTF-16 decode: scalar values, each unpaired surrogate as `repl`. `first_error` and
/// `error_at` describe the first unpaired surrogate (a high surrogate ending the input is
/// `incomplete`, every other one `surrogate`).
inline std::u32string decode_utf16(const char16_t* p, std::size_t n, char32_t repl, error_code& first_error,
                                   std::size_t& error_at, std::size_t& good_before) {
  std::u32string out;
  first_error = error_code::none;
  error_at = n;
  good_before = 0;
  for (std::size_t i = 0; i < n;) {
    const char32_t u = p[i];
    const bool high = u >= 0xD800 && u <= 0xDBFF, low = u >= 0xDC00 && u <= 0xDFFF;
    if (high && i + 1 < n && p[i + 1] >= 0xDC00 && p[i + 1] <= 0xDFFF) {
      out.push_back(0x10000 + ((u - 0xD800) << 10) + (p[i + 1] - 0xDC00u));
      i += 2;
    } else if (high || low) {
      if (first_error == error_code::none) {
        first_error = high && i + 1 == n ? error_code::incomplete : error_code::surrogate;
        error_at = i;
        good_before = out.size();
      }
      out.push_back(repl);
      ++i;
    } else {
      out.push_back(u);
      ++i;
    }
  }
  if (first_error == error_code::none) good_before = out.size();
  return out;
}

/// Reference UTF-32 decode (same conventions): surrogates and values above 0x10FFFF are errors.
inline std::u32string decode_utf32(const char32_t* p, std::size_t n, char32_t repl, error_code& first_error,
                                   std::size_t& error_at, std::size_t& good_before) {
  std::u32string out;
  first_error = error_code::none;
  error_at = n;
  good_before = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char32_t u = p[i];
    error_code e = error_code::none;
    if (u >= 0xD800 && u <= 0xDFFF) e = error_code::surrogate;
    if (u > 0x10FFFF) e = error_code::too_large;
    if (e != error_code::none && first_error == error_code::none) {
      first_error = e;
      error_at = i;
      good_before = out.size();
    }
    out.push_back(e == error_code::none ? u : repl);
  }
  if (first_error == error_code::none) good_before = out.size();
  return out;
}

/// The kernels this build and CPU can run.
inline std::vector<std::string> kernel_names() {
  std::size_t count = 0;
  const auto* const* list = utf8dfa::detail::available_kernels(count);
  std::vector<std::string> names;
  for (std::size_t k = 0; k < count; ++k) names.emplace_back(list[k]->name);
  return names;
}

/// A replacement character chosen from the input (U+FFFD, ASCII, supplementary, or an invalid
/// value that the policy must turn back into U+FFFD).
inline char32_t pick_replacement(std::size_t selector) {
  constexpr char32_t choices[] = {0xFFFD, U'?', 0x1F4A9, 0xD800, 0x110000, 0x7FF};
  return choices[selector % (sizeof choices / sizeof choices[0])];
}

/// What replace{} does with a chosen replacement.
inline char32_t effective_replacement(char32_t r) {
  return (r >= 0xD800 && r <= 0xDFFF) || r > 0x10FFFF ? char32_t{0xFFFD} : r;
}

}  // namespace fuzzref

#endif
