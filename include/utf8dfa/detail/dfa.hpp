// utf8dfa: the one automaton behind every facility, built at compile time from the RFC 3629 ABNF.
//
//   UTF8-1 = %x00-7F
//   UTF8-2 = %xC2-DF UTF8-tail
//   UTF8-3 = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) / %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
//   UTF8-4 = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) / %xF4 %x80-8F 2( UTF8-tail )
//   UTF8-tail = %x80-BF
//
// `grammar` below is that ABNF as data. A state is "what the rest of the current character must
// be": the list of byte ranges still expected, so the states are the distinct suffixes of the
// alternatives (plus accept and reject). Byte classes are the groups of bytes that behave alike in
// every state. Nothing below is a hand-written number; static_asserts pin the shape (9 states, 12
// classes) and tests/reference checks the result against an independent reading of the ABNF.
#ifndef UTF8DFA_DETAIL_DFA_HPP
#define UTF8DFA_DETAIL_DFA_HPP

#include <cstddef>
#include <cstdint>

#include "../error.hpp"
#include "bytes.hpp"
#include "kernel_result.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// An octet range of the grammar; `outside` names the error when a continuation byte (80-BF)
/// arrives where this range is expected but falls outside it.
struct octet_range {
  std::uint8_t lo, hi;
  error_code outside;
  constexpr bool contains(unsigned b) const noexcept { return lo <= b && b <= hi; }
};

/// One alternative of UTF8-1 .. UTF8-4: a lead range followed by `tails` further ranges.
struct sequence_rule {
  octet_range lead;
  std::uint8_t tails;
  octet_range tail[3];
};

inline constexpr octet_range utf8_tail{0x80, 0xBF, error_code::none};  // UTF8-tail

/// RFC 3629 section 4, one entry per alternative. The error kinds on the restricted second-byte
/// ranges say what a continuation byte outside them would have encoded.
inline constexpr sequence_rule grammar[] = {
    {{0x00, 0x7F, error_code::none}, 0, {}},                                                           // UTF8-1
    {{0xC2, 0xDF, error_code::none}, 1, {utf8_tail}},                                                  // UTF8-2
    {{0xE0, 0xE0, error_code::none}, 2, {{0xA0, 0xBF, error_code::overlong}, utf8_tail}},              // UTF8-3
    {{0xE1, 0xEC, error_code::none}, 2, {utf8_tail, utf8_tail}},                                       //
    {{0xED, 0xED, error_code::none}, 2, {{0x80, 0x9F, error_code::surrogate}, utf8_tail}},             //
    {{0xEE, 0xEF, error_code::none}, 2, {utf8_tail, utf8_tail}},                                       //
    {{0xF0, 0xF0, error_code::none}, 3, {{0x90, 0xBF, error_code::overlong}, utf8_tail, utf8_tail}},   // UTF8-4
    {{0xF1, 0xF3, error_code::none}, 3, {utf8_tail, utf8_tail, utf8_tail}},                            //
    {{0xF4, 0xF4, error_code::none}, 3, {{0x80, 0x8F, error_code::too_large}, utf8_tail, utf8_tail}},  //
};

inline constexpr std::size_t max_states = 16;
inline constexpr std::size_t max_classes = 32;
inline constexpr std::uint8_t accept_state = 0;
inline constexpr std::uint8_t reject_state = 1;

/// Byte classes: bytes with identical columns (next state, error kind and payload mask in every
/// state), numbered in the order of their first byte.
struct class_map {
  std::size_t count = 0;
  std::uint8_t of[256]{};
  std::uint8_t representative[max_classes]{};
};

/// The automaton in plain form: states x byte classes.
struct automaton {
  struct state_desc {
    std::uint8_t count;  // ranges still expected
    octet_range need[3];
  };
  std::size_t states = 0;
  state_desc desc[max_states]{};
  class_map classes{};
  std::uint8_t to[max_states][max_classes]{};  // next state, by class
  error_code why[max_states][max_classes]{};   // why `to` is reject
  std::uint8_t lead_mask[256]{};               // payload bits of a lead byte

  constexpr std::uint8_t next(std::size_t s, unsigned b) const noexcept { return to[s][classes.of[b]]; }
  constexpr error_code kind(std::size_t s, unsigned b) const noexcept { return why[s][classes.of[b]]; }

  constexpr std::uint8_t intern(const octet_range* need, std::uint8_t count) {
    if (count == 0) return accept_state;
    for (std::uint8_t s = 2; s < states; ++s) {
      bool same = desc[s].count == count;
      for (std::uint8_t k = 0; same && k < count; ++k)
        same = desc[s].need[k].lo == need[k].lo && desc[s].need[k].hi == need[k].hi &&
               desc[s].need[k].outside == need[k].outside;
      if (same) return s;
    }
    desc[states].count = count;
    for (std::uint8_t k = 0; k < count; ++k) desc[states].need[k] = need[k];
    return static_cast<std::uint8_t>(states++);
  }
};

constexpr automaton build_automaton() {
  automaton a{};
  a.states = 2;  // accept, reject
  // First all suffixes (states), in grammar order; then the transitions, which need them all.
  for (const sequence_rule& r : grammar)
    for (std::uint8_t k = 0; k < r.tails; ++k) a.intern(r.tail + k, static_cast<std::uint8_t>(r.tails - k));
  // Every range of the grammar starts and ends on an edge of an interval (as do 80 and C0), so all
  // bytes of an interval behave alike: each interval's column is worked out once, from its first
  // byte, and intervals with equal columns share a class.
  bool cut[257]{};
  cut[0] = cut[0x80] = cut[0xC0] = cut[256] = true;
  for (const sequence_rule& r : grammar) {
    cut[r.lead.lo] = cut[r.lead.hi + 1u] = true;
    for (std::uint8_t k = 0; k < r.tails; ++k) cut[r.tail[k].lo] = cut[r.tail[k].hi + 1u] = true;
  }
  for (unsigned b = 0; b < 256;) {
    unsigned end = b + 1;
    while (!cut[end]) ++end;
    std::uint8_t next[max_states]{};
    error_code kind[max_states]{};
    std::uint8_t mask = 0;
    const bool continuation = utf8_tail.contains(b);
    // From accept: b must start one of the alternatives.
    next[accept_state] = reject_state;
    kind[accept_state] = continuation ? error_code::unexpected_continuation : error_code::invalid_byte;
    for (const sequence_rule& r : grammar)
      if (r.lead.contains(b)) {
        next[accept_state] = a.intern(r.tail, r.tails);
        kind[accept_state] = error_code::none;
        mask = static_cast<std::uint8_t>(0x7F >> (r.tails == 0 ? 0 : r.tails + 1));
      }
    // Reject absorbs.
    next[reject_state] = reject_state;
    // Inside a character: b must fall in the next expected range.
    for (std::uint8_t s = 2; s < a.states; ++s) {
      const auto& d = a.desc[s];
      if (d.need[0].contains(b)) {
        next[s] = a.intern(d.need + 1, static_cast<std::uint8_t>(d.count - 1));
      } else {
        next[s] = reject_state;
        kind[s] = continuation ? d.need[0].outside : error_code::too_short;
      }
    }
    // The class of the interval: an earlier one with the same column, or a new one.
    std::size_t c = 0;
    for (; c < a.classes.count; ++c) {
      bool same = a.lead_mask[a.classes.representative[c]] == mask;
      for (std::size_t s = 0; same && s < a.states; ++s) same = a.to[s][c] == next[s] && a.why[s][c] == kind[s];
      if (same) break;
    }
    if (c == a.classes.count) {
      a.classes.representative[a.classes.count++] = static_cast<std::uint8_t>(b);
      for (std::size_t s = 0; s < a.states; ++s) {
        a.to[s][c] = next[s];
        a.why[s][c] = kind[s];
      }
    }
    for (; b < end; ++b) {
      a.classes.of[b] = static_cast<std::uint8_t>(c);
      a.lead_mask[b] = mask;
    }
  }
  return a;
}

inline constexpr automaton dfa = build_automaton();
inline constexpr const class_map& byte_classes = dfa.classes;

static_assert(dfa.states == 9, "RFC 3629 gives accept, reject and 7 partial-character states");
static_assert(byte_classes.count == 12, "RFC 3629 gives 12 byte classes");
static_assert(byte_classes.of[0xC0] == byte_classes.of[0xF5] && byte_classes.of[0xC1] == byte_classes.of[0xFF],
              "C0, C1 and F5..FF never occur in UTF-8 and form one class");
static_assert(byte_classes.of[0xE1] == byte_classes.of[0xEE], "E1..EC and EE..EF behave alike");

// ---------------------------------------------------------------------------------------------
// The shift-based form for hot loops. A state is a bit offset (index * 6); the row of a byte packs
// every state's successor as a 6-bit field at that state's offset, so one step is
// `state = row[byte] >> state` (callers mask with 63; x86 shifts mask the count themselves).

inline constexpr unsigned state_bits = 6;
inline constexpr std::uint64_t state_mask = 63;
inline constexpr std::uint32_t s_accept = accept_state * state_bits;
inline constexpr std::uint32_t s_reject = reject_state * state_bits;
static_assert(dfa.states * state_bits <= 64, "every state's successor fits in one 64-bit row");

struct shift_table {
  std::uint64_t row[256]{};
};

constexpr shift_table build_shift_table() {
  std::uint64_t by_class[max_classes]{};
  for (std::size_t c = 0; c < byte_classes.count; ++c)
    for (std::size_t s = 0; s < dfa.states; ++s)
      by_class[c] |= static_cast<std::uint64_t>(dfa.to[s][c] * state_bits) << (s * state_bits);
  shift_table t{};
  for (unsigned b = 0; b < 256; ++b) t.row[b] = by_class[byte_classes.of[b]];
  return t;
}

inline constexpr shift_table shift = build_shift_table();

/// One transition; `state` may carry garbage above its low 6 bits (the shift ignores it).
constexpr std::uint64_t step(std::uint64_t state, std::uint8_t byte) noexcept {
  return shift.row[byte] >> (state & state_mask);
}

/// The error kind when `byte` drives the (masked) shift-form state `state` to reject.
constexpr error_code reject_kind(std::uint64_t state, std::uint8_t byte) noexcept {
  return dfa.kind((state & state_mask) / state_bits, byte);
}

/// True for 80..BF, which never starts a character.
constexpr bool is_continuation(std::uint8_t b) noexcept {
  return utf8_tail.contains(b);
}

// ---------------------------------------------------------------------------------------------
// The engine. A machine is the interface the decoding loops need from an automaton: strict UTF-8
// runs the shift form above (utf8_machine), the dialects the plain form of dialect_dfa.hpp.

/// Strict UTF-8: the shift-form table; a state is a masked bit offset.
struct utf8_machine {
  using state = std::uint64_t;
  static constexpr state start = s_accept;
  static constexpr bool pairs = false;  // no lead byte inside a character
  static constexpr state advance(state s, std::uint8_t b) noexcept { return step(s, b) & state_mask; }
  static constexpr bool rejected(state s) noexcept { return s == s_reject; }
  static constexpr bool boundary(state s) noexcept { return s == s_accept; }
  static constexpr error_code why(state s, std::uint8_t b) noexcept { return reject_kind(s, b); }
  static constexpr std::uint8_t lead_mask(std::uint8_t b) noexcept { return dfa.lead_mask[b]; }
};

/// Decodes the character or maximal ill-formed subpart at `it` (it != last) and moves `it` past it,
/// entering in boundary state `at` (the boundary the previous character left); `at` becomes the
/// boundary after it (after an error: the plain boundary). The one decoder, for any iterator: a
/// byte is read only after `it != last`, and the byte that drives the DFA to reject is not consumed
/// (it starts the next segment). The value accumulates six bits per continuation byte; with pairs,
/// a lead byte inside a character starts the second surrogate and the two combine at the end.
template <class M, class It, class Sent>
constexpr decoded decode_iter(It& it, const Sent& last, typename M::state& at) {
  const std::uint8_t lead = octet(*it);
  ++it;
  typename M::state st = M::advance(at, lead);
  if (M::rejected(st)) {
    const error_code e = M::why(at, lead);
    at = M::start;
    return {replacement_character, 1, e};
  }
  if (M::boundary(st)) {
    at = st;
    return {lead, 1, error_code::none};
  }
  char32_t cp = lead & M::lead_mask(lead);
  [[maybe_unused]] char32_t high = 0;
  std::uint8_t length = 1;
  while (it != last) {
    const std::uint8_t b = octet(*it);
    const typename M::state nx = M::advance(st, b);
    if (M::rejected(nx)) {
      at = M::start;
      return {replacement_character, length, M::why(st, b)};
    }
    ++it;
    ++length;
    if constexpr (M::pairs) {
      if (!is_continuation(b)) {
        high = cp;
        cp = b & M::lead_mask(b);
      } else {
        cp = (cp << 6) | (b & 0x3Fu);
      }
    } else {
      cp = (cp << 6) | (b & 0x3Fu);
    }
    if (M::boundary(nx)) {
      if constexpr (M::pairs)
        if (high != 0) cp = 0x10000 + ((high & 0x3FFu) << 10) + (cp & 0x3FFu);
      at = nx;
      return {cp, length, error_code::none};
    }
    st = nx;
  }
  at = M::start;
  return {replacement_character, length, error_code::incomplete};
}

/// decode_iter on the bytes [p + pos, p + n) (pos < n).
template <class M, class T>
constexpr decoded decode_with(const T* p, std::size_t n, std::size_t pos, typename M::state& at) noexcept {
  const T* it = p + pos;
  return decode_iter<M>(it, p + n, at);
}

/// Validation from the start of the input, one character at a time, carrying the boundary state.
template <class M, class T>
constexpr packed_validation validate_with(const T* p, std::size_t n) noexcept {
  typename M::state at = M::start;
  for (std::size_t pos = 0; pos < n;) {
    const decoded d = decode_with<M>(p, n, pos, at);
    if (d.error != error_code::none)
      return {pos, d.error == error_code::incomplete ? 0u : std::size_t{d.length}, d.error};
    pos += d.length;
  }
  return {n, 0, error_code::none};
}

/// Decodes the character or maximal ill-formed subpart that starts at `pos` (pos < n).
/// This is the only scalar decoder: everything else that decodes calls it or the shift loop.
template <class T>
constexpr decoded decode_at(const T* p, std::size_t n, std::size_t pos) noexcept {
  utf8_machine::state at = utf8_machine::start;
  return decode_with<utf8_machine>(p, n, pos, at);
}

/// Where the character containing the byte before `pos` starts, given that the DFA consumed
/// [.., pos) without rejecting and stands in a partial-character state: the last lead byte.
template <class T>
constexpr std::size_t partial_start(const T* p, std::size_t pos) noexcept {
  std::size_t k = pos;
  while (k > 0 && is_continuation(octet(p[k - 1])) && pos - k < 3) --k;
  return k > 0 ? k - 1 : 0;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
