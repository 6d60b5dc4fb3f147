// utf8dfa: the automaton builder for the grammars beyond RFC 3629 (see dialect.hpp), run by the one
// decoding engine of dfa.hpp (decode_with).
//
// dfa.hpp builds strict UTF-8 from one list of alternatives whose lead ranges never overlap, so a
// state there is one suffix of one alternative. The dialects need two more things, both still
// written as data:
//  - alternatives that share a lead byte and part ways later (CESU-8's ED 80-9F tail next to the
//    six-byte pair ED A0-AF tail ED B0-BF tail): a state is the SET of suffixes still possible;
//  - a rule across characters (WTF-8: a lead surrogate must not be followed by a trail surrogate):
//    more than one character boundary. Each alternative says at which boundaries it may start and
//    at which it ends; a boundary is an accepting state of its own.
// The build is a subset construction over those suffixes, evaluated at compile time; tests compare
// every table with a reference written from the grammars (tests/reference/dialects.hpp), and
// tests/tables_test.cpp checks that this builder, given RFC 3629, yields the table of dfa.hpp.
#ifndef UTF8DFA_DETAIL_DIALECT_DFA_HPP
#define UTF8DFA_DETAIL_DIALECT_DFA_HPP

#include <cstddef>
#include <cstdint>

#include "../error.hpp"
#include "bytes.hpp"
#include "dfa.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

inline constexpr std::size_t rule_max_length = 6;

/// Character boundaries a rule may start at (a bit mask) or ends at (an index).
inline constexpr std::uint8_t plain_boundary = 0;       // index of the ordinary boundary
inline constexpr std::uint8_t after_lead_boundary = 1;  // index: just after a lead surrogate (WTF-8)
inline constexpr std::uint8_t at_any_boundary = 3;      // mask: both
inline constexpr std::uint8_t at_plain_boundary = 1;    // mask: the ordinary boundary only

/// One alternative: `length` octet ranges (the first is the lead). A range that is not a
/// continuation range inside a sequence (ED in the CESU-8 pair) names in `outside` the error for
/// any byte it refuses; a continuation range names the error for a continuation byte it refuses.
struct dialect_rule {
  std::uint8_t length;
  octet_range seq[rule_max_length];
  std::uint8_t starts = at_any_boundary;  // mask of boundaries it may start at
  std::uint8_t ends = plain_boundary;     // boundary it leaves
};

inline constexpr std::size_t dialect_max_states = 24;
inline constexpr std::size_t dialect_max_items = 4;
inline constexpr std::uint8_t dialect_reject = 1;  // state 0 is the plain boundary, 1 reject

/// The rest of one alternative: the ranges still expected and the boundary it ends at.
struct rule_suffix {
  std::uint8_t count = 0;
  octet_range need[rule_max_length - 1]{};
  std::uint8_t ends = plain_boundary;

  constexpr bool same(const rule_suffix& o) const noexcept {
    if (count != o.count || ends != o.ends) return false;
    for (std::uint8_t k = 0; k < count; ++k)
      if (need[k].lo != o.need[k].lo || need[k].hi != o.need[k].hi || need[k].outside != o.need[k].outside)
        return false;
    return true;
  }
};

/// A state: a boundary (no items, `boundary` says which) or the set of suffixes still possible.
struct dialect_state {
  std::uint8_t items = 0;
  rule_suffix item[dialect_max_items]{};
  std::uint8_t boundary = 0;

  constexpr bool contains(const rule_suffix& s) const noexcept {
    for (std::uint8_t k = 0; k < items; ++k)
      if (item[k].same(s)) return true;
    return false;
  }
  constexpr bool same(const dialect_state& o) const noexcept {
    if (items != o.items || boundary != o.boundary) return false;
    for (std::uint8_t k = 0; k < items; ++k)
      if (!o.contains(item[k])) return false;
    return true;
  }
};

/// The automaton in plain form (a state is an index); `ok` is false when the grammar is not one
/// this builder can take (ambiguous, or too many states): static_asserts check it.
struct dialect_automaton {
  bool ok = true;
  std::size_t states = 0;
  dialect_state desc[dialect_max_states]{};
  bool is_boundary[dialect_max_states]{};
  std::uint8_t next[dialect_max_states][256]{};
  error_code kind[dialect_max_states][256]{};  // why `next` is reject
  std::uint8_t lead_mask[256]{};               // payload bits of a lead byte

  constexpr std::uint8_t intern(const dialect_state& s) {
    for (std::uint8_t k = 0; k < states; ++k)
      if (k != dialect_reject && desc[k].same(s)) return k;
    if (states == dialect_max_states) {
      ok = false;
      return dialect_reject;
    }
    desc[states] = s;
    is_boundary[states] = s.items == 0;
    return static_cast<std::uint8_t>(states++);
  }

  /// The state after byte b in state s, and the error kind when that is reject.
  constexpr std::uint8_t advance(const dialect_rule* g, std::size_t rules, std::uint8_t s, unsigned b,
                                 error_code& why) {
    const bool continuation = utf8_tail.contains(b);
    dialect_state to{};
    const dialect_state from = desc[s];
    std::uint8_t completed = 0, ends = plain_boundary;
    auto add = [&](const octet_range* rest, std::uint8_t count, std::uint8_t end) {
      if (count == 0) {
        ++completed;
        ends = end;
        return;
      }
      rule_suffix x{};
      x.count = count;
      x.ends = end;
      for (std::uint8_t k = 0; k < count; ++k) x.need[k] = rest[k];
      if (to.contains(x)) return;
      if (to.items == dialect_max_items) {
        ok = false;
        return;
      }
      to.item[to.items++] = x;
    };
    if (from.items == 0) {  // at a boundary: b must start an alternative allowed here
      for (std::size_t r = 0; r < rules; ++r)
        if ((g[r].starts >> from.boundary & 1u) != 0 && g[r].seq[0].contains(b))
          add(g[r].seq + 1, static_cast<std::uint8_t>(g[r].length - 1), g[r].ends);
      why = continuation ? error_code::unexpected_continuation : error_code::invalid_byte;
    } else {  // inside a character: b must fall in the next range of a suffix still possible
      for (std::uint8_t k = 0; k < from.items; ++k)
        if (from.item[k].need[0].contains(b))
          add(from.item[k].need + 1, static_cast<std::uint8_t>(from.item[k].count - 1), from.item[k].ends);
      const octet_range& first = from.item[0].need[0];
      why = continuation || !utf8_tail.contains(first.lo) ? first.outside : error_code::too_short;
    }
    if (completed + to.items == 0) return dialect_reject;
    why = error_code::none;
    if (completed != 0) {
      if (completed + to.items != 1) ok = false;  // a character that is also the prefix of another
      dialect_state b_state{};
      b_state.boundary = ends;
      return intern(b_state);
    }
    return intern(to);
  }
};

/// The payload bits of a lead byte, by its leading one bits (0xxxxxxx: 7 bits ... 1111110x: 1).
constexpr std::uint8_t payload_mask(unsigned b) noexcept {
  unsigned ones = 0;
  while (ones < 7 && (b << ones & 0x80u) != 0) ++ones;
  return static_cast<std::uint8_t>(ones == 0 ? 0x7F : 0x7F >> ones);
}

/// Builds the automaton of a grammar. Bytes are grouped first into the intervals between range
/// ends (every byte of an interval behaves alike), so the subset construction runs per interval.
constexpr dialect_automaton build_dialect_automaton(const dialect_rule* g, std::size_t rules) {
  dialect_automaton a{};
  a.states = 2;  // the plain boundary and reject
  a.is_boundary[0] = true;
  // Interval starts: 0, 80, C0 and every lo and hi + 1 of the grammar.
  bool cut[257]{};
  cut[0] = cut[0x80] = cut[0xC0] = cut[256] = true;
  for (std::size_t r = 0; r < rules; ++r)
    for (std::uint8_t k = 0; k < g[r].length; ++k) {
      cut[g[r].seq[k].lo] = true;
      cut[g[r].seq[k].hi + 1u] = true;
    }
  for (std::size_t s = 0; s < a.states; ++s) {  // a.states grows while new states are found
    for (unsigned b = 0; b < 256;) {
      unsigned e = b + 1;
      while (!cut[e]) ++e;
      error_code why = error_code::none;
      std::uint8_t to = dialect_reject;
      if (s != dialect_reject) to = a.advance(g, rules, static_cast<std::uint8_t>(s), b, why);
      for (; b < e; ++b) {
        a.next[s][b] = to;
        a.kind[s][b] = why;
      }
    }
  }
  for (std::size_t r = 0; r < rules; ++r)
    for (unsigned b = g[r].seq[0].lo; b <= g[r].seq[0].hi; ++b) a.lead_mask[b] = payload_mask(b);
  return a;
}

// ---------------------------------------------------------------------------------------------
// The dialects' machine: the plain form above, run by decode_with of dfa.hpp, and a shift form
// for the validation loop.

/// The shift form of a dialect table: a state is 4 * its index, and the row of a byte holds every
/// state's successor index at bit 4 * index + 2, so that one step is `(row[b] >> state) & 0x3C`:
/// a shift and a mask on the loop-carried chain (dfa.hpp's form needs 6 bits a state; this one
/// takes the up to 15 states of a dialect in 64 bits).
struct dialect_shift_table {
  std::uint64_t row[256]{};
};

constexpr dialect_shift_table build_dialect_shift(const dialect_automaton& a) {
  dialect_shift_table t{};
  for (unsigned b = 0; b < 256; ++b)
    for (std::size_t s = 0; s < a.states; ++s) t.row[b] |= std::uint64_t{a.next[s][b]} << (4 * s + 2);
  return t;
}

template <const dialect_automaton& A>
inline constexpr dialect_shift_table dialect_shift = build_dialect_shift(A);

/// The bytes before which an input may be cut into two streams, the second run from the plain
/// boundary: from every boundary state the byte leads to the same state, and from every state
/// inside a character it rejects (so the first stream, ended there, says so by its last state).
/// ASCII, and the leads that only start characters (not CESU-8's ED, which also starts a pair's
/// second half, nor WTF-8's, which a lead surrogate changes).
struct dialect_split_table {
  bool at[256]{};
};

constexpr dialect_split_table build_dialect_split(const dialect_automaton& a) {
  dialect_split_table t{};
  for (unsigned b = 0; b < 256; ++b) {
    bool ok = a.next[0][b] != dialect_reject;
    for (std::size_t s = 0; s < a.states; ++s)
      if (s != dialect_reject && a.next[s][b] != (a.is_boundary[s] ? a.next[0][b] : dialect_reject)) ok = false;
    t.at[b] = ok;
  }
  return t;
}

template <const dialect_automaton& A>
inline constexpr dialect_split_table dialect_split = build_dialect_split(A);

/// The table of a grammar (an array of dialect_rule). A variable template: built the first time a
/// function that runs the dialect is instantiated, so a program that uses no dialect never pays
/// for the subset construction.
template <const auto& Grammar>
inline constexpr dialect_automaton dialect_table = build_dialect_automaton(Grammar, sizeof Grammar / sizeof Grammar[0]);

/// A dialect: the table of `Grammar`. `Pairs`: a lead byte may occur inside a character (the
/// second half of a CESU-8 surrogate pair).
template <const auto& Grammar, bool Pairs>
struct table_machine {
  using state = std::uint8_t;
  static constexpr state start = 0;
  static constexpr bool pairs = Pairs;
  static constexpr const dialect_automaton& table() noexcept {
    static_assert(dialect_table<Grammar>.ok, "the grammar is unambiguous and fits the builder");
    // The shift form: a state times 4.
    static_assert(dialect_table<Grammar>.states <= 15, "the shift form holds 15 states");
    return dialect_table<Grammar>;
  }
  static constexpr state advance(state s, std::uint8_t b) noexcept { return table().next[s][b]; }
  static constexpr bool rejected(state s) noexcept { return s == dialect_reject; }
  static constexpr bool boundary(state s) noexcept { return table().is_boundary[s]; }
  static constexpr error_code why(state s, std::uint8_t b) noexcept { return table().kind[s][b]; }
  static constexpr std::uint8_t lead_mask(std::uint8_t b) noexcept { return table().lead_mask[b]; }
  static constexpr std::uint64_t shift_step(std::uint64_t s4, std::uint8_t b) noexcept {
    return (dialect_shift<table()>.row[b] >> s4) & 0x3C;
  }
  static constexpr bool split_before(std::uint8_t b) noexcept { return dialect_split<table()>.at[b]; }
};

/// Eight steps of a dialect's shift form (s4 = 4 * state), written out.
template <class M>
UTF8DFA_ALWAYS_INLINE std::uint64_t dialect_step8(std::uint64_t s4, const unsigned char* q) noexcept {
  for (std::size_t k = 0; k < 8; ++k) s4 = M::shift_step(s4, q[k]);
  return s4;
}

/// True when the 16 bytes at p are ASCII without 00 (NulByte false: 00 is not a character).
template <bool NulByte>
UTF8DFA_ALWAYS_INLINE bool dialect_ascii16(const unsigned char* p) noexcept {
  const std::uint64_t a = load64(p), b = load64(p + 8);
  if (((a | b) & high_bits) != 0) return false;
  if constexpr (NulByte) return true;
  return (((a + 0x7F7F7F7F7F7F7F7Full) & (b + 0x7F7F7F7F7F7F7F7Full)) & high_bits) == high_bits;
}

/// The bytes the two streams run through the table at a time: after an ASCII run, 16 bytes, so that
/// mostly-ASCII text returns to the ASCII test soon after each other character.
inline constexpr std::size_t dialect_block = 16;

/// One stream of dialect_two_streams_valid over [i, end) from the shift-form state s4: ASCII
/// skipped while at the plain boundary, then one block; false when rejected.
template <class M, bool NulByte>
UTF8DFA_ALWAYS_INLINE bool dialect_stream_block(const unsigned char* p, std::size_t& i, std::size_t end,
                                                std::uint64_t& s4) noexcept {
  if (s4 == 4u * M::start)
    while (end - i >= dialect_block + 16 && dialect_ascii16<NulByte>(p + i)) i += 16;
  if (end - i < dialect_block) return true;
  for (std::size_t k = 0; k < dialect_block; k += 8) s4 = dialect_step8<M>(s4, p + i + k);
  i += dialect_block;
  return !M::rejected(static_cast<typename M::state>(s4 >> 2));
}

/// True when [p, p + n) is well-formed in the dialect of machine M, checked as two interleaved
/// chains of the shift form (twice the bytes per cycle of one chain of dependent shifts), cut before
/// a byte near the middle that M::split_before allows: the second chain begins there from M::start,
/// the first must end at a boundary. False (no such byte within 256 bytes of the middle, or an
/// error) says nothing: the caller walks one stream for the answer.
template <class M, bool NulByte>
bool dialect_two_streams_valid(const unsigned char* p, std::size_t n) noexcept {
  std::size_t mid = n / 2;
  const std::size_t last = mid + 256;
  while (mid < last && !M::split_before(p[mid])) ++mid;
  if (mid == last) return false;
  std::size_t a = 0, b = mid;
  std::uint64_t sa = 4u * M::start, sb = 4u * M::start;
  for (;;) {
    if (!dialect_stream_block<M, NulByte>(p, a, mid, sa) || !dialect_stream_block<M, NulByte>(p, b, n, sb))
      return false;
    if (mid - a < dialect_block || n - b < dialect_block) break;
  }
  while (mid - a >= dialect_block)
    if (!dialect_stream_block<M, NulByte>(p, a, mid, sa)) return false;
  while (n - b >= dialect_block)
    if (!dialect_stream_block<M, NulByte>(p, b, n, sb)) return false;
  for (; a < mid; ++a) sa = M::shift_step(sa, p[a]);
  for (; b < n; ++b) sb = M::shift_step(sb, p[b]);
  return M::boundary(static_cast<typename M::state>(sa >> 2)) && M::boundary(static_cast<typename M::state>(sb >> 2));
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
