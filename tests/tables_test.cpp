// The compile-time proofs of the tables the headers build: run here once, at compile time, instead
// of in every translation unit that includes the library (they cost about half a second of constant
// evaluation). Each is also checked at run time, so a case fails if the checks were ever bypassed.
#include <cstddef>
#include <cstdint>

#include <utf8dfa.hpp>
#include <utf8dfa/detail/dfa.hpp>
#include <utf8dfa/detail/dialect_dfa.hpp>
#include <utf8dfa/detail/simd/generic.hpp>

#include "catch.hpp"

namespace utf8dfa_test_tables {  // the file's own names (the suite also builds as unity sources)

namespace tables_test {

namespace d = utf8dfa::detail;

// ---- The SIMD pair tables (detail/simd/generic.hpp) against the DFA, all 65536 pairs, in slices
// that stay under the compilers' constant-evaluation step limits.
static_assert(d::pair_tables_match_dfa(0x00, 0x40), "pair tables agree with the DFA (00..3F first)");
static_assert(d::pair_tables_match_dfa(0x40, 0x80), "pair tables agree with the DFA (40..7F first)");
static_assert(d::pair_tables_match_dfa(0x80, 0xC0), "pair tables agree with the DFA (80..BF first)");
static_assert(d::pair_tables_match_dfa(0xC0, 0x100), "pair tables agree with the DFA (C0..FF first)");

// ---- The dialect tables (dialect.hpp's grammars through detail/dialect_dfa.hpp's builder).
constexpr const d::dialect_automaton& wtf8 = d::dialect_table<d::wtf8_grammar>;
constexpr const d::dialect_automaton& cesu8 = d::dialect_table<d::cesu8_grammar>;
constexpr const d::dialect_automaton& mutf8 = d::dialect_table<d::mutf8_grammar>;
constexpr const d::dialect_automaton& legacy = d::dialect_table<d::legacy_grammar>;

static_assert(wtf8.ok && cesu8.ok && mutf8.ok && legacy.ok,
              "every dialect grammar is unambiguous and fits the builder");
static_assert(wtf8.states == 12, "WTF-8: two boundaries, reject and 9 partial-character states");
static_assert(cesu8.states == 9, "CESU-8: the UTF-8 states without UTF8-4, and the pair's 4");
static_assert(mutf8.states == 10, "MUTF-8: CESU-8 and the state after C0");
static_assert(legacy.states == 11, "RFC 2279: accept, reject and 9 partial-character states");

/// RFC 3629 (dfa.hpp's `grammar`) in the dialect builder's form.
constexpr d::dialect_automaton build_utf8_with_dialect_builder() {
  d::dialect_rule g[sizeof d::grammar / sizeof d::grammar[0]]{};
  std::size_t r = 0;
  for (const d::sequence_rule& s : d::grammar) {
    g[r].length = static_cast<std::uint8_t>(s.tails + 1);
    g[r].seq[0] = s.lead;
    for (std::uint8_t k = 0; k < s.tails; ++k) g[r].seq[k + 1] = s.tail[k];
    ++r;
  }
  return d::build_dialect_automaton(g, r);
}

/// True when the dialect builder reproduces dfa.hpp's automaton from RFC 3629, state for state.
constexpr bool builders_agree() {
  const d::dialect_automaton a = build_utf8_with_dialect_builder();
  if (!a.ok || a.states != d::dfa.states) return false;
  for (std::size_t s = 0; s < a.states; ++s) {
    if (a.is_boundary[s] != (s == d::accept_state)) return false;
    for (unsigned b = 0; b < 256; ++b)
      if (a.next[s][b] != d::dfa.next(s, b) || a.kind[s][b] != d::dfa.kind(s, b)) return false;
  }
  for (unsigned b = 0; b < 256; ++b)
    if (a.lead_mask[b] != d::dfa.lead_mask[b]) return false;
  return true;
}
static_assert(builders_agree(), "the dialect builder given RFC 3629 yields the strict automaton");

TEST_CASE("the table proofs hold at run time too", "[tables]") {
  // The same functions, evaluated at run time (volatile bounds keep them out of constant folding).
  volatile unsigned lo = 0x00, hi = 0x100;
  CHECK(d::pair_tables_match_dfa(lo, hi));
  CHECK(builders_agree());
  CHECK(d::continuation_thresholds_match_dfa());
  CHECK(wtf8.states + cesu8.states + mutf8.states + legacy.states == 42);
  // The machines the dialects run use these very tables.
  CHECK(&utf8dfa::detail::machine_of<utf8dfa::dialect::wtf8>::table() == &wtf8);
  CHECK(&utf8dfa::detail::machine_of<utf8dfa::dialect::legacy>::table() == &legacy);
}

}  // namespace tables_test

}  // namespace utf8dfa_test_tables
