// Independent references for the fuzz targets of the functions added after the first ones (Latin-1,
// UTF-16 <-> UTF-32, the LE/BE forms, skip, the bounded conversions, detection, the views): input
// of any UTF form read as a list of steps (a character, or an ill-formed unit or maximal subpart),
// written to any form under any policy by the arithmetic of RFC 3629 / RFC 2781. Slow and obvious
// on purpose; it shares no code with the library (UTF-8 steps come from reference.hpp's decoder).
#ifndef UTF8DFA_FUZZ_REFERENCE_UNITS_HPP
#define UTF8DFA_FUZZ_REFERENCE_UNITS_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "reference.hpp"

namespace fuzzref {

/// One step of input in any form, at `at` (input units).
struct unit_step {
  char32_t cp;  // the scalar value; unspecified on error
  std::size_t at, length;
  error_code error;
};

inline std::vector<unit_step> steps_utf8(const unsigned char* p, std::size_t n) {
  std::vector<unit_step> out;
  for (std::size_t i = 0; i < n;) {
    const step s = decode(p, n, i);
    out.push_back({s.cp, i, s.length, s.error});
    i += s.length;
  }
  return out;
}

/// UTF-16: a pair, or a unit; an unpaired surrogate is `surrogate`, `incomplete` for a high one
/// that ends the input.
inline std::vector<unit_step> steps_utf16(const char16_t* p, std::size_t n) {
  std::vector<unit_step> out;
  for (std::size_t i = 0; i < n;) {
    const char32_t u = p[i];
    const bool high = u >= 0xD800 && u <= 0xDBFF, low = u >= 0xDC00 && u <= 0xDFFF;
    if (high && i + 1 < n && p[i + 1] >= 0xDC00 && p[i + 1] <= 0xDFFF) {
      out.push_back({0x10000 + ((u - 0xD800) << 10) + (p[i + 1] - 0xDC00u), i, 2, error_code::none});
      i += 2;
      continue;
    }
    const error_code e = high && i + 1 == n ? error_code::incomplete
                         : high || low      ? error_code::surrogate
                                            : error_code::none;
    out.push_back({u, i, 1, e});
    ++i;
  }
  return out;
}

inline std::vector<unit_step> steps_utf32(const char32_t* p, std::size_t n) {
  std::vector<unit_step> out;
  for (std::size_t i = 0; i < n; ++i) {
    const char32_t u = p[i];
    const error_code e = u >= 0xD800 && u <= 0xDFFF ? error_code::surrogate
                         : u > 0x10FFFF             ? error_code::too_large
                                                    : error_code::none;
    out.push_back({u, i, 1, e});
  }
  return out;
}

inline std::vector<unit_step> steps_latin1(const unsigned char* p, std::size_t n) {
  std::vector<unit_step> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back({p[i], i, 1, error_code::none});
  return out;
}

enum class pol { strict, replace, skip };

/// Writes one scalar value in form Out (char: UTF-8, char16_t: UTF-16, char32_t: UTF-32).
template <class Out>
void put(std::basic_string<Out>& s, char32_t c) {
  if constexpr (sizeof(Out) == 4) {
    s.push_back(c);
  } else if constexpr (sizeof(Out) == 2) {
    for (char16_t u : to_utf16(std::u32string(1, c))) s.push_back(u);
  } else {
    for (char b : to_utf8(std::u32string(1, c))) s.push_back(b);
  }
}

/// What a conversion writes and returns.
template <class Out>
struct converted {
  std::basic_string<Out> out;
  utf8dfa::conversion_result r;
};

/// The conversion of `steps` (of an input of `n` units) to form Out, or to Latin-1 (`latin1`: Out is
/// char, a value above U+00FF is `unrepresentable`), under policy `p` with replacement `repl`
/// (already a scalar value; for Latin-1 at most U+00FF). strict stops before the first error;
/// replace writes `repl` for it; skip nothing; both report the first error's kind.
template <class Out>
converted<Out> convert(const std::vector<unit_step>& steps, std::size_t n, pol p, char32_t repl, bool latin1 = false) {
  converted<Out> c{{}, {n, 0, error_code::none}};
  for (const unit_step& s : steps) {
    error_code e = s.error;
    if (e == error_code::none && latin1 && s.cp > 0xFF) e = error_code::unrepresentable;
    if (e != error_code::none) {
      if (c.r.error == error_code::none) c.r.error = e;
      if (p == pol::strict) {
        c.r.read = s.at;
        break;
      }
      if (p == pol::skip) continue;
    }
    const char32_t v = e == error_code::none ? s.cp : repl;
    if (latin1)
      c.out.push_back(static_cast<Out>(static_cast<unsigned char>(v)));
    else
      put(c.out, v);
  }
  c.r.written = c.out.size();
  return c;
}

/// The first error of `steps`: validation's result (valid_up_to, error_length: 0 when incomplete).
inline utf8dfa::validation_result first_error(const std::vector<unit_step>& steps, std::size_t n) {
  for (const unit_step& s : steps)
    if (s.error != error_code::none) return {s.at, s.error == error_code::incomplete ? 0 : s.length, s.error};
  return {n, 0, error_code::none};
}

inline char16_t swap16(char16_t u) {
  return static_cast<char16_t>(((u & 0xFFu) << 8) | (u >> 8));
}
inline char32_t swap32(char32_t u) {
  return ((u & 0xFFu) << 24) | ((u & 0xFF00u) << 8) | ((u >> 8) & 0xFF00u) | (u >> 24);
}

/// A small deterministic generator fed by the fuzzer's bytes (capacities, splits).
struct byte_rng {
  const std::uint8_t* p;
  std::size_t n, i = 0;
  unsigned next() { return n == 0 ? 1u : p[i++ % n]; }
};

}  // namespace fuzzref

#endif
