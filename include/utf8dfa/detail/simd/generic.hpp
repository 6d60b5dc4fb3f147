// utf8dfa: what every SIMD validation kernel shares: the byte-pair lookup tables of the vectorised
// check (Keiser & Lemire, "Validating UTF-8 In Less Than One Instruction Per Byte", 2021) derived
// from the grammar of dfa.hpp and proved against the DFA at compile time (tests/tables_test.cpp),
// and the scalar re-scan that turns "this block is bad" into the exact answer of validate_scalar.
//
// The vector check looks at every byte b2 together with the byte before it, b1:
//   flags = first_high[b1 >> 4] & first_low[b1 & 15] & second_high[b2 >> 4]
// Each flag bit is one kind of forbidden pair whose set of b1 factors into (high nibbles x low
// nibbles) and whose set of b2 is a union of high nibbles, so the AND of three 16-entry lookups
// is non-zero exactly for the forbidden pairs. The bit `pair_two_conts` (continuation after
// continuation) is not an error by itself: it must be set exactly where the byte two places back
// is a lead of 3 or 4 bytes, or the byte three places back a lead of 4 bytes.
#ifndef UTF8DFA_DETAIL_SIMD_GENERIC_HPP
#define UTF8DFA_DETAIL_SIMD_GENERIC_HPP

#include <cstddef>
#include <cstdint>

#include "../dfa.hpp"
#include "../scalar.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A forbidden kind of byte pair: b1 in [lo1, hi1] followed by b2 in [lo2, hi2].
struct pair_rule {
  std::uint8_t bit, lo1, hi1, lo2, hi2;
};

inline constexpr std::uint8_t pair_too_short = 0x01;   // lead of 2..4 bytes, then no continuation
inline constexpr std::uint8_t pair_too_long = 0x02;    // ASCII, then a continuation
inline constexpr std::uint8_t pair_overlong_3 = 0x04;  // E0 80..9F
inline constexpr std::uint8_t pair_too_large = 0x08;   // F4..FF 90..BF
inline constexpr std::uint8_t pair_surrogate = 0x10;   // ED A0..BF
inline constexpr std::uint8_t pair_overlong_2 = 0x20;  // C0..C1 continuation
inline constexpr std::uint8_t pair_overlong_4 = 0x40;  // F0 80..8F, and F5..FF 80..8F
inline constexpr std::uint8_t pair_two_conts = 0x80;   // continuation after continuation

// The grammar rows the rules read their ranges from.
inline constexpr const sequence_rule& rule_ascii = grammar[0];
inline constexpr const sequence_rule& rule_c2 = grammar[1];
inline constexpr const sequence_rule& rule_e0 = grammar[2];
inline constexpr const sequence_rule& rule_ed = grammar[4];
inline constexpr const sequence_rule& rule_f0 = grammar[6];
inline constexpr const sequence_rule& rule_f4 = grammar[8];
static_assert(rule_c2.lead.lo == 0xC2 && rule_e0.lead.lo == 0xE0 && rule_ed.lead.lo == 0xED &&
                  rule_f0.lead.lo == 0xF0 && rule_f4.lead.lo == 0xF4,
              "grammar rows in RFC 3629 order");

constexpr std::uint8_t u8(unsigned v) noexcept {
  return static_cast<std::uint8_t>(v);
}

/// The forbidden pairs, each range read off the grammar: a restricted second byte's complement
/// within UTF8-tail, the bytes no rule starts with, and the continuation structure.
inline constexpr pair_rule pair_rules[] = {
    {pair_too_short, u8(rule_c2.lead.lo & 0xF0), 0xFF, rule_ascii.lead.lo, rule_ascii.lead.hi},
    {pair_too_short, u8(rule_c2.lead.lo & 0xF0), 0xFF, u8(utf8_tail.hi + 1), 0xFF},
    {pair_too_long, rule_ascii.lead.lo, rule_ascii.lead.hi, utf8_tail.lo, utf8_tail.hi},
    {pair_overlong_3, rule_e0.lead.lo, rule_e0.lead.hi, utf8_tail.lo, u8(rule_e0.tail[0].lo - 1)},
    {pair_too_large, rule_f4.lead.lo, 0xFF, u8(rule_f4.tail[0].hi + 1), utf8_tail.hi},
    {pair_surrogate, rule_ed.lead.lo, rule_ed.lead.hi, u8(rule_ed.tail[0].hi + 1), utf8_tail.hi},
    {pair_overlong_2, u8(utf8_tail.hi + 1), u8(rule_c2.lead.lo - 1), utf8_tail.lo, utf8_tail.hi},
    {pair_overlong_4, rule_f0.lead.lo, rule_f0.lead.hi, utf8_tail.lo, u8(rule_f0.tail[0].lo - 1)},
    {pair_overlong_4, u8(rule_f4.lead.hi + 1), 0xFF, utf8_tail.lo, rule_f4.tail[0].hi},
    {pair_two_conts, utf8_tail.lo, utf8_tail.hi, utf8_tail.lo, utf8_tail.hi},
};

/// The three 16-entry lookups (each 16 bytes, as one vector register lane loads them).
struct pair_tables {
  std::uint8_t first_high[16]{}, first_low[16]{}, second_high[16]{};
  bool factorable = true;  // every rule has the (nibble x nibble) x nibble shape
};

constexpr pair_tables build_pair_tables() {
  pair_tables t{};
  for (const pair_rule& r : pair_rules) {
    const unsigned h_lo = r.lo1 >> 4, h_hi = r.hi1 >> 4;
    const bool one_row = h_lo == h_hi;
    if (!one_row && ((r.lo1 & 15) != 0 || (r.hi1 & 15) != 15)) t.factorable = false;
    if ((r.lo2 & 15) != 0 || (r.hi2 & 15) != 15) t.factorable = false;
    for (unsigned h = h_lo; h <= h_hi; ++h) t.first_high[h] |= r.bit;
    for (unsigned l = one_row ? (r.lo1 & 15u) : 0u; l <= (one_row ? (r.hi1 & 15u) : 15u); ++l) t.first_low[l] |= r.bit;
    for (unsigned h = r.lo2 >> 4; h <= (r.hi2 >> 4); ++h) t.second_high[h] |= r.bit;
  }
  return t;
}

inline constexpr pair_tables pair_lookup = build_pair_tables();
static_assert(pair_lookup.factorable, "every forbidden pair set is a product of nibble ranges");

/// The flags the vector check computes for the pair (b1, b2).
constexpr std::uint8_t pair_flags(unsigned b1, unsigned b2) noexcept {
  return pair_lookup.first_high[b1 >> 4] & pair_lookup.first_low[b1 & 15] & pair_lookup.second_high[b2 >> 4];
}

/// What the DFA says about the pair: b1 read as the start of a character (b1 not a continuation)
/// fails at b1 or at b2. A continuation b1 is judged by its context (the two_conts rule).
constexpr bool dfa_rejects_pair(unsigned b1, unsigned b2) noexcept {
  if (utf8_tail.contains(b1)) return false;
  const std::uint8_t s = dfa.next(accept_state, b1);
  if (s == reject_state) return true;
  if (s == accept_state) return utf8_tail.contains(b2);
  return dfa.next(s, b2) == reject_state;
}

/// The tables agree with the DFA on every pair whose first byte lies in [lo, hi).
constexpr bool pair_tables_match_dfa(unsigned lo, unsigned hi) noexcept {
  for (unsigned b1 = lo; b1 < hi; ++b1)
    for (unsigned b2 = 0; b2 < 256; ++b2) {
      const unsigned f = pair_flags(b1, b2);
      if (((f & 0x7Fu) != 0) != dfa_rejects_pair(b1, b2)) return false;
      if (((f & pair_two_conts) != 0) != (utf8_tail.contains(b1) && utf8_tail.contains(b2))) return false;
    }
  return true;
}
// tests/tables_test.cpp checks every one of the 65536 pairs at compile time (once, not in every
// translation unit that includes the kernels).

/// Leads from these values on need a continuation two (three) places after them.
inline constexpr std::uint8_t lead3_min = rule_e0.lead.lo;
inline constexpr std::uint8_t lead4_min = rule_f0.lead.lo;

constexpr bool continuation_thresholds_match_dfa() noexcept {
  for (unsigned b = 0; b < 256; ++b) {
    const std::uint8_t s = dfa.next(accept_state, b);
    if (s == reject_state) continue;  // C0, C1, F5..FF, continuations: caught by the pair rules
    const unsigned tails = s == accept_state ? 0u : dfa.desc[s].count;
    if ((tails >= 2) != (b >= lead3_min) || (tails >= 3) != (b >= lead4_min)) return false;
  }
  return true;
}
static_assert(continuation_thresholds_match_dfa(), "3- and 4-byte leads are exactly E0.. and F0..");

// ---------------------------------------------------------------------------------------------
// Exact answers. A kernel checks blocks; once [0, b) passed every check (it is well-formed except
// perhaps a character cut by b) and the block at b fails, the first error starts at or after the
// last character start before b, and the scalar decoder from there gives validate_scalar's answer.

/// What a kernel's block checker returns when every block passed.
inline constexpr std::size_t blocks_pass = ~std::size_t{0};

/// The start of the character that contains the byte before b (or b itself), for a prefix
/// [0, b) that passed the block checks.
inline std::size_t boundary_before(const unsigned char* p, std::size_t b) noexcept {
  for (std::size_t j = b; j > 0 && b - j < 3;) {
    --j;
    if (!is_continuation(p[j])) return j;
  }
  return b;
}

/// The exact result for [0, n), given that [0, b) passed the block checks.
inline packed_validation rescan_from(const unsigned char* p, std::size_t n, std::size_t b) noexcept {
  return validate_from(p, n, boundary_before(p, b));
}

/// True when the well-formed prefix [0, n) ends inside a character (a lead in its last 3 bytes
/// that needs more bytes than remain).
inline bool ends_incomplete(const unsigned char* p, std::size_t n) noexcept {
  return (n >= 1 && p[n - 1] >= 0xC0) || (n >= 2 && p[n - 2] >= lead3_min) || (n >= 3 && p[n - 3] >= lead4_min);
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
