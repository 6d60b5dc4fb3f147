// An independent reference for the UTF-8 dialects (WTF-8, CESU-8, Modified UTF-8, RFC 2279), for
// tests. It shares no code with the library and no grammar table with it: a dialect is read here as
// the set of byte strings its encoder writes, from the bit patterns and value ranges of the
// specifications, not from ABNF alternatives:
//
//   utf8    the RFC 3629 form of every scalar value (1-4 octets)
//   wtf8    the RFC 3629 bit pattern of every code point up to 10FFFF, surrogates included (3
//           octets); a trail surrogate (DC00-DFFF) may not follow a lead surrogate (D800-DBFF)
//   cesu8   below 10000: the RFC 3629 form (no surrogates); 10000-10FFFF: the 3-octet patterns of
//           its UTF-16 lead and trail surrogates, concatenated (UTR #26)
//   mutf8   cesu8, but U+0000 is C0 80 (the 2-octet pattern of 0) and never 00
//   legacy  RFC 2279 section 2: the shortest 1-6 octet pattern of every value up to 7FFFFFFF
//
// A maximal ill-formed subpart is the longest prefix of such a string (at least one octet); its
// kind follows from the octet that stops it, described in words in `classify`.
#ifndef UTF8DFA_TESTS_REFERENCE_DIALECTS_HPP
#define UTF8DFA_TESTS_REFERENCE_DIALECTS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "abnf.hpp"

namespace utf8dfa_dialect_ref {

using utf8dfa_ref::error;

enum class dialect { utf8, wtf8, cesu8, mutf8, legacy };

inline const char* name(dialect d) {
  switch (d) {
    case dialect::utf8:
      return "utf8";
    case dialect::wtf8:
      return "wtf8";
    case dialect::cesu8:
      return "cesu8";
    case dialect::mutf8:
      return "mutf8";
    case dialect::legacy:
      return "legacy";
  }
  return "?";
}

inline bool is_tail(unsigned b) {
  return (b & 0xC0) == 0x80;
}  // 10xxxxxx

/// RFC 2279 section 2: the octet count a lead announces by its high-order one bits, and its payload.
struct lead_form {
  std::size_t length;  // 0: 10xxxxxx or 1111111x
  std::uint32_t payload;
};

inline lead_form lead_of(unsigned b) {
  if (b < 0x80) return {1, b};
  std::size_t ones = 0;
  while (ones < 8 && ((b << ones) & 0x80)) ++ones;
  if (ones == 1 || ones > 6) return {0, 0};
  return {ones, b & (0x7Fu >> ones)};
}

/// The smallest value each octet count is for (shortest form) and the largest it can hold.
inline constexpr std::uint32_t first_value[7] = {0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000};
inline constexpr std::uint32_t last_value[7] = {0, 0x7F, 0x7FF, 0xFFFF, 0x1FFFFF, 0x3FFFFFF, 0x7FFFFFFF};

/// The values a dialect writes in the single (non-pair) pattern of `length` octets. A set of up to
/// two intervals (enough for "0800-FFFF without D800-DFFF").
struct value_set {
  std::uint32_t lo[2], hi[2];
  int count;
  bool meets(std::uint32_t a, std::uint32_t b) const {
    for (int i = 0; i < count; ++i)
      if (a <= hi[i] && lo[i] <= b) return true;
    return false;
  }
};

/// `after_lead`: WTF-8 right after a lead surrogate (no trail surrogate may start).
inline value_set single_values(dialect d, std::size_t length, bool after_lead) {
  const value_set none{{0, 0}, {0, 0}, 0};
  const std::uint32_t a = first_value[length], b = last_value[length];
  switch (d) {
    case dialect::legacy:
      return {{a, 0}, {b, 0}, 1};
    case dialect::utf8:
      if (length > 4) return none;
      if (length == 3) return {{0x800, 0xE000}, {0xD7FF, 0xFFFF}, 2};
      if (length == 4) return {{0x10000, 0}, {0x10FFFF, 0}, 1};
      return {{a, 0}, {b, 0}, 1};
    case dialect::wtf8:
      if (length > 4) return none;
      if (length == 3 && after_lead) return {{0x800, 0xE000}, {0xDBFF, 0xFFFF}, 2};
      if (length == 4) return {{0x10000, 0}, {0x10FFFF, 0}, 1};
      return {{a, 0}, {b, 0}, 1};
    case dialect::cesu8:
    case dialect::mutf8:
      if (length > 3) return none;
      if (length == 3) return {{0x800, 0xE000}, {0xD7FF, 0xFFFF}, 2};
      if (d == dialect::mutf8 && length == 1) return {{1, 0}, {0x7F, 0}, 1};
      if (d == dialect::mutf8 && length == 2) return {{0, 0x80}, {0, 0x7FF}, 2};  // 0 as C0 80
      return {{a, 0}, {b, 0}, 1};
  }
  return none;
}

/// The interval of values p[0..k) can still become in the `length`-octet pattern (k <= length),
/// or false when the octets do not fit the pattern at all.
inline bool pattern_interval(const unsigned char* p, std::size_t k, std::size_t length, std::uint32_t& lo,
                             std::uint32_t& hi) {
  const lead_form lead = lead_of(p[0]);
  if (lead.length != length) return false;
  std::uint64_t v = lead.payload;
  for (std::size_t i = 1; i < k; ++i) {
    if (!is_tail(p[i])) return false;
    v = (v << 6) | (p[i] & 0x3Fu);
  }
  const unsigned missing = 6 * static_cast<unsigned>(length - k);
  lo = static_cast<std::uint32_t>(v << missing);
  hi = static_cast<std::uint32_t>((v << missing) | ((std::uint64_t{1} << missing) - 1));
  return true;
}

/// True when p[0..k) (1 <= k) begins a single pattern the dialect writes here.
inline bool begins_single(dialect d, const unsigned char* p, std::size_t k, bool after_lead) {
  const std::size_t length = lead_of(p[0]).length;
  if (length == 0 || k > length) return false;
  std::uint32_t lo = 0, hi = 0;
  if (!pattern_interval(p, k, length, lo, hi)) return false;
  return single_values(d, length, after_lead).meets(lo, hi);
}

/// True when p[0..k) begins a CESU-8 pair: a lead surrogate's 3 octets, then a trail surrogate's.
inline bool begins_pair(dialect d, const unsigned char* p, std::size_t k) {
  if (d != dialect::cesu8 && d != dialect::mutf8) return false;
  if (k > 6) return false;
  const value_set lead{{0xD800, 0}, {0xDBFF, 0}, 1}, trail{{0xDC00, 0}, {0xDFFF, 0}, 1};
  std::uint32_t lo = 0, hi = 0;
  const std::size_t first = k < 3 ? k : 3;
  if (!pattern_interval(p, first, 3, lo, hi) || !lead.meets(lo, hi)) return false;
  if (k <= 3) return true;
  return pattern_interval(p + 3, k - 3, 3, lo, hi) && trail.meets(lo, hi);
}

inline bool begins(dialect d, const unsigned char* p, std::size_t k, bool after_lead) {
  return begins_single(d, p, k, after_lead) || begins_pair(d, p, k);
}

/// A character (kind none) or a maximal ill-formed subpart.
struct segment {
  std::size_t length;
  error kind;
  std::uint32_t value;  // the character's value when kind is none
};

/// The kind of the subpart p[0..k) stopped by the octet p[k] (k >= 1), in words:
///  - where the pair's second lead (ED) is due, anything else leaves a lead surrogate unpaired:
///    surrogate;
///  - elsewhere an octet that is not 10xxxxxx cuts the sequence short: too_short;
///  - a 10xxxxxx refused in the pair's second half is not a trail surrogate: surrogate;
///  - a 10xxxxxx refused says what the sequence would have encoded: a value the shortest form
///    does not allow in that length (overlong), a surrogate (surrogate), above 10FFFF (too_large).
inline error classify(dialect d, const unsigned char* p, std::size_t k) {
  if (k == 3 && begins_pair(d, p, 3)) return error::surrogate;
  if (!is_tail(p[k])) return error::too_short;
  if (k >= 4) return error::surrogate;  // only a pair refuses a 10xxxxxx this late: no trail surrogate
  std::uint32_t lo = 0, hi = 0;
  const std::size_t length = lead_of(p[0]).length;
  if (!pattern_interval(p, k + 1, length, lo, hi)) return error::none;  // unreachable
  if (hi < first_value[length] || (length == 2 && d == dialect::mutf8 && lo > 0)) return error::overlong;
  if (lo >= 0xD800 && hi <= 0xDFFF) return error::surrogate;
  if (lo > 0x10FFFF) return error::too_large;
  return error::none;  // unreachable when the dialects are what the header says
}

inline segment segment_at(dialect d, const unsigned char* p, std::size_t n, std::size_t pos, bool after_lead) {
  std::size_t k = 0;
  while (pos + k < n && k < 6 && begins(d, p + pos, k + 1, after_lead)) ++k;
  const unsigned lead = p[pos];
  if (k == 0) return {1, is_tail(lead) ? error::unexpected_continuation : error::invalid_byte, 0};
  // Complete?
  const lead_form lf = lead_of(lead);
  if (k == 6 && begins_pair(d, p + pos, 6)) {
    std::uint32_t hi = 0, lo = 0, x = 0;
    pattern_interval(p + pos, 3, 3, hi, x);
    pattern_interval(p + pos + 3, 3, 3, lo, x);
    return {6, error::none, 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)};
  }
  if (k == lf.length && begins_single(d, p + pos, k, after_lead)) {
    std::uint32_t v = 0, x = 0;
    pattern_interval(p + pos, k, k, v, x);
    return {k, error::none, v};
  }
  if (pos + k == n) return {k, error::incomplete, 0};
  return {k, classify(d, p + pos, k), 0};
}

/// What validation says about a whole input.
struct verdict {
  std::size_t valid_up_to;
  std::size_t error_length;
  error kind;
};

/// The segments of the input, in order, each read with the WTF-8 context of the one before;
/// calls f(position, segment) for each.
template <class F>
void for_each_segment(dialect d, const unsigned char* p, std::size_t n, F f) {
  bool after_lead = false;
  for (std::size_t pos = 0; pos < n;) {
    const segment s = segment_at(d, p, n, pos, after_lead);
    after_lead = d == dialect::wtf8 && s.kind == error::none && s.value >= 0xD800 && s.value <= 0xDBFF;
    f(pos, s);
    pos += s.length;
  }
}

inline std::vector<segment> segments(dialect d, const unsigned char* p, std::size_t n) {
  std::vector<segment> out;
  for_each_segment(d, p, n, [&](std::size_t, const segment& s) { out.push_back(s); });
  return out;
}

/// The first error (or none), as validation reports it.
inline verdict validate(dialect d, const unsigned char* p, std::size_t n) {
  bool after_lead = false;
  for (std::size_t pos = 0; pos < n;) {
    const segment s = segment_at(d, p, n, pos, after_lead);
    if (s.kind != error::none) return {pos, s.kind == error::incomplete ? 0 : s.length, s.kind};
    after_lead = d == dialect::wtf8 && s.value >= 0xD800 && s.value <= 0xDBFF;
    pos += s.length;
  }
  return {n, 0, error::none};
}

/// The values each dialect writes, and its form of one (empty when it cannot write it).
inline bool encodable(dialect d, std::uint32_t v) {
  switch (d) {
    case dialect::utf8:
    case dialect::cesu8:
    case dialect::mutf8:
      return v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF);
    case dialect::wtf8:
      return v <= 0x10FFFF;
    case dialect::legacy:
      return v <= 0x7FFFFFFF;
  }
  return false;
}

/// RFC 2279's table: the bits of v in the `length`-octet pattern.
inline std::string pattern(std::uint32_t v, std::size_t length) {
  std::string out(length, '\0');
  const unsigned char marker[7] = {0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC};
  for (std::size_t i = length; i-- > 1;) {
    out[i] = static_cast<char>(0x80 | (v & 0x3F));
    v >>= 6;
  }
  out[0] = static_cast<char>(length == 1 ? v : (marker[length] | v));
  return out;
}

inline std::string encode(dialect d, std::uint32_t v) {
  if (!encodable(d, v)) return {};
  if (d == dialect::mutf8 && v == 0) return pattern(0, 2);
  if ((d == dialect::cesu8 || d == dialect::mutf8) && v >= 0x10000) {
    const std::uint32_t u = v - 0x10000;
    return pattern(0xD800 + (u >> 10), 3) + pattern(0xDC00 + (u & 0x3FF), 3);
  }
  std::size_t length = 1;
  while (v > last_value[length]) ++length;
  return pattern(v, length);
}

}  // namespace utf8dfa_dialect_ref

#endif
