// An independent reference for UTF-8, written from the specifications only, for tests and fuzz
// targets. It shares no code with the library (it does not include it) and reads the rules two ways:
//
//  1. `segment_at` / `validate`: walk the alternatives of the RFC 3629 section 4 ABNF literally and
//     report the first error's offset, kind and maximal-subpart length (the rules of the project's
//     issue 2: C0, C1, F5..FF invalid_byte; stray 80..BF unexpected_continuation; E0 80..9F and
//     F0 80..8F overlong; ED A0..BF surrogate; F4 90..BF too_large; cut by a non-continuation
//     too_short; cut by the end of the input incomplete, error length 0).
//  2. `decode_at` / `decode_lossy`: no grammar at all, but the bit patterns of RFC 3629 section 3,
//     the definition of a Unicode scalar value and the Unicode Standard's definition (ch. 3,
//     "U+FFFD Substitution of Maximal Subparts"): a maximal subpart is the longest prefix of a
//     well-formed sequence, at least one byte; each becomes one U+FFFD.
//
// The two readings are checked against each other exhaustively (tests/validate_test.cpp), then
// against the library. Slow and simple on purpose.
#ifndef UTF8DFA_TESTS_REFERENCE_ABNF_HPP
#define UTF8DFA_TESTS_REFERENCE_ABNF_HPP

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace utf8dfa_ref {

/// The error kinds, spelled as the library's (tests map one onto the other by name).
enum class error : unsigned char {
  none,
  invalid_byte,
  unexpected_continuation,
  too_short,
  incomplete,
  overlong,
  surrogate,
  too_large
};

inline const char* name(error e) {
  switch (e) {
    case error::none:
      return "none";
    case error::invalid_byte:
      return "invalid_byte";
    case error::unexpected_continuation:
      return "unexpected_continuation";
    case error::too_short:
      return "too_short";
    case error::incomplete:
      return "incomplete";
    case error::overlong:
      return "overlong";
    case error::surrogate:
      return "surrogate";
    case error::too_large:
      return "too_large";
  }
  return "?";
}

// ---- Reading 1: the ABNF of RFC 3629 section 4 ------------------------------------------------

/// %xLO-HI
struct octets {
  unsigned lo, hi;
  bool has(unsigned b) const { return lo <= b && b <= hi; }
};

/// One alternative of UTF8-char: a concatenation of octet ranges.
struct alternative {
  const char* rule;
  std::size_t length;
  octets seq[4];
};

inline constexpr octets utf8_tail{0x80, 0xBF};  // UTF8-tail = %x80-BF

/// UTF8-char = UTF8-1 / UTF8-2 / UTF8-3 / UTF8-4, every alternative spelled out.
inline constexpr alternative utf8_char[] = {
    {"UTF8-1", 1, {{0x00, 0x7F}}},                                      // %x00-7F
    {"UTF8-2", 2, {{0xC2, 0xDF}, utf8_tail}},                           // %xC2-DF UTF8-tail
    {"UTF8-3", 3, {{0xE0, 0xE0}, {0xA0, 0xBF}, utf8_tail}},             // %xE0 %xA0-BF UTF8-tail
    {"UTF8-3", 3, {{0xE1, 0xEC}, utf8_tail, utf8_tail}},                // %xE1-EC 2( UTF8-tail )
    {"UTF8-3", 3, {{0xED, 0xED}, {0x80, 0x9F}, utf8_tail}},             // %xED %x80-9F UTF8-tail
    {"UTF8-3", 3, {{0xEE, 0xEF}, utf8_tail, utf8_tail}},                // %xEE-EF 2( UTF8-tail )
    {"UTF8-4", 4, {{0xF0, 0xF0}, {0x90, 0xBF}, utf8_tail, utf8_tail}},  // %xF0 %x90-BF 2( UTF8-tail )
    {"UTF8-4", 4, {{0xF1, 0xF3}, utf8_tail, utf8_tail, utf8_tail}},     // %xF1-F3 3( UTF8-tail )
    {"UTF8-4", 4, {{0xF4, 0xF4}, {0x80, 0x8F}, utf8_tail, utf8_tail}},  // %xF4 %x80-8F 2( UTF8-tail )
};

/// How many leading octets of p[pos..n) match the alternative (0..a.length).
inline std::size_t matched(const alternative& a, const unsigned char* p, std::size_t n, std::size_t pos) {
  std::size_t k = 0;
  while (k < a.length && pos + k < n && a.seq[k].has(p[pos + k])) ++k;
  return k;
}

/// A UTF8-char (kind none) or the maximal ill-formed subpart (kind says why) at some position.
struct segment {
  std::size_t length;
  error kind;
};

/// The UTF8-char or maximal ill-formed subpart that starts at pos < n. The subpart is the longest
/// partial match of any alternative (at least one octet); the kind comes from the octet that stops it.
inline segment segment_at(const unsigned char* p, std::size_t n, std::size_t pos) {
  std::size_t best = 0;
  for (const alternative& a : utf8_char) {
    const std::size_t m = matched(a, p, n, pos);
    if (m == a.length) return {m, error::none};
    if (m > best) best = m;
  }
  const unsigned lead = p[pos];
  if (best == 0) return {1, utf8_tail.has(lead) ? error::unexpected_continuation : error::invalid_byte};
  if (pos + best == n) return {best, error::incomplete};
  const unsigned stop = p[pos + best];
  if (!utf8_tail.has(stop)) return {best, error::too_short};
  // A UTF8-tail octet refused: only the restricted second ranges refuse one, so best == 1 here.
  if (best == 1) {
    if (lead == 0xE0 || lead == 0xF0) return {1, error::overlong};  // would encode a shorter form
    if (lead == 0xED) return {1, error::surrogate};                 // would encode U+D800..U+DFFF
    if (lead == 0xF4) return {1, error::too_large};                 // would encode > U+10FFFF
  }
  std::abort();  // unreachable if the table above is the ABNF
}

/// What validation says about a whole input.
struct verdict {
  std::size_t valid_up_to;
  std::size_t error_length;  // 0 when valid or incomplete
  error kind;
};

inline verdict validate(const unsigned char* p, std::size_t n) {
  for (std::size_t pos = 0; pos < n;) {
    const segment s = segment_at(p, n, pos);
    if (s.kind != error::none) return {pos, s.kind == error::incomplete ? 0 : s.length, s.kind};
    pos += s.length;
  }
  return {n, 0, error::none};
}

inline verdict validate(std::string_view s) {
  return validate(reinterpret_cast<const unsigned char*>(s.data()), s.size());
}

// ---- Reading 2: RFC 3629 section 3 and the Unicode Standard's maximal subparts -----------------

/// Section 3's table: a lead octet's high-order bits give the octet count; the rest is payload.
struct lead_form {
  std::size_t length;  // 0: not a lead octet (10xxxxxx, or 11111xxx which the table lacks)
  std::uint32_t payload;
};

inline lead_form lead_of(unsigned b) {
  if ((b & 0x80) == 0x00) return {1, b};         // 0xxxxxxx
  if ((b & 0xE0) == 0xC0) return {2, b & 0x1F};  // 110xxxxx
  if ((b & 0xF0) == 0xE0) return {3, b & 0x0F};  // 1110xxxx
  if ((b & 0xF8) == 0xF0) return {4, b & 0x07};  // 11110xxx
  return {0, 0};
}

/// Section 3's table again: the values each octet count is for (the shortest form is the only one).
inline constexpr std::uint32_t first_value[5] = {0, 0x0000, 0x0080, 0x0800, 0x10000};
inline constexpr std::uint32_t last_value[5] = {0, 0x007F, 0x07FF, 0xFFFF, 0x10FFFF};

/// True when p[pos..pos+k) (k >= 1) begins the UTF-8 form of some Unicode scalar value: its bits fix
/// a range of candidate values, which must meet the octet count's range outside D800..DFFF.
inline bool begins_scalar_value(const unsigned char* p, std::size_t pos, std::size_t k) {
  const lead_form lead = lead_of(p[pos]);
  if (lead.length == 0 || k > lead.length) return false;
  std::uint32_t value = lead.payload;
  for (std::size_t i = 1; i < k; ++i) {
    if ((p[pos + i] & 0xC0) != 0x80) return false;  // 10xxxxxx
    value = (value << 6) | (p[pos + i] & 0x3Fu);
  }
  const unsigned missing = 6 * static_cast<unsigned>(lead.length - k);
  const std::uint32_t lo = value << missing, hi = lo | ((1u << missing) - 1);
  const std::uint32_t a = lo > first_value[lead.length] ? lo : first_value[lead.length];
  const std::uint32_t b = hi < last_value[lead.length] ? hi : last_value[lead.length];
  return a <= b && !(a >= 0xD800 && b <= 0xDFFF);
}

/// One decoded piece: a scalar value, or (well_formed false) a maximal subpart for one U+FFFD.
struct piece {
  char32_t value;
  std::size_t length;
  bool well_formed;
};

/// The piece at pos < n: the longest prefix that begins a scalar value's form; complete means decoded.
inline piece decode_at(const unsigned char* p, std::size_t n, std::size_t pos) {
  std::size_t k = 0;
  while (pos + k < n && k < 4 && begins_scalar_value(p, pos, k + 1)) ++k;
  const lead_form lead = lead_of(p[pos]);
  if (k > 0 && k == lead.length) {
    std::uint32_t value = lead.payload;
    for (std::size_t i = 1; i < k; ++i) value = (value << 6) | (p[pos + i] & 0x3Fu);
    return {static_cast<char32_t>(value), k, true};
  }
  return {U'\uFFFD', k == 0 ? 1 : k, false};
}

/// The whole input decoded, one `replacement` per maximal subpart.
inline std::u32string decode_lossy(const unsigned char* p, std::size_t n, char32_t replacement = U'\uFFFD') {
  std::u32string out;
  for (std::size_t pos = 0; pos < n;) {
    const piece c = decode_at(p, n, pos);
    out += c.well_formed ? c.value : replacement;
    pos += c.length;
  }
  return out;
}

inline std::u32string decode_lossy(std::string_view s, char32_t replacement = U'\uFFFD') {
  return decode_lossy(reinterpret_cast<const unsigned char*>(s.data()), s.size(), replacement);
}

/// True for the Unicode scalar values: 0..10FFFF without the surrogates D800..DFFF.
inline bool is_scalar_value(std::uint32_t v) {
  return v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF);
}

/// RFC 3629 section 3, encoding: pick the row of the table, fill the x bits from the low end.
/// Empty for a value that is not a scalar value.
inline std::string encode_utf8(std::uint32_t v) {
  if (!is_scalar_value(v)) return {};
  std::size_t length = 1;
  while (v > last_value[length]) ++length;
  const std::uint32_t marker[5] = {0, 0x00, 0xC0, 0xE0, 0xF0};  // 0, 110, 1110, 11110
  std::string out(length, '\0');
  for (std::size_t i = length; i-- > 1;) {
    out[i] = static_cast<char>(0x80 | (v & 0x3F));
    v >>= 6;
  }
  out[0] = static_cast<char>(marker[length] | v);
  return out;
}

/// RFC 2781 section 2.1: one scalar value as UTF-16 (empty for a non-scalar value).
inline std::u16string encode_utf16(std::uint32_t v) {
  if (!is_scalar_value(v)) return {};
  if (v < 0x10000) return std::u16string(1, static_cast<char16_t>(v));
  const std::uint32_t u = v - 0x10000;
  return {static_cast<char16_t>(0xD800 | (u >> 10)), static_cast<char16_t>(0xDC00 | (u & 0x3FF))};
}

/// RFC 2781 section 2.2 with errors: the scalar value or unpaired surrogate at i < n of UTF-16.
/// A high surrogate that ends the input is `incomplete` (a later chunk could pair it), every other
/// unpaired surrogate `surrogate`; each is one U+FFFD.
struct utf16_piece {
  char32_t value;
  std::size_t length;
  error kind;
};

inline utf16_piece utf16_at(const char16_t* p, std::size_t n, std::size_t i) {
  const std::uint32_t w1 = p[i];
  if (w1 < 0xD800 || w1 > 0xDFFF) return {static_cast<char32_t>(w1), 1, error::none};
  if (w1 >= 0xDC00) return {U'\uFFFD', 1, error::surrogate};  // a low surrogate first
  if (i + 1 == n) return {U'\uFFFD', 1, error::incomplete};
  const std::uint32_t w2 = p[i + 1];
  if (w2 < 0xDC00 || w2 > 0xDFFF) return {U'\uFFFD', 1, error::surrogate};
  return {static_cast<char32_t>((((w1 & 0x3FF) << 10) | (w2 & 0x3FF)) + 0x10000), 2, error::none};
}

/// UTF-32 unit: surrogates and values above 10FFFF are errors.
inline error utf32_error(std::uint32_t v) {
  if (v >= 0xD800 && v <= 0xDFFF) return error::surrogate;
  if (v > 0x10FFFF) return error::too_large;
  return error::none;
}

}  // namespace utf8dfa_ref

#endif
