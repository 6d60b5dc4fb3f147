// utf8dfa: the dialects of UTF-8 that real systems exchange, each one a grammar and a table.
//
// A dialect is a tag type passed after the other arguments of validate, is_valid, decode_next,
// encode, encoded_length and the conversions (validate(bytes, dialect::wtf8{})), and as a
// template argument of code_point_iterator, the views, validator and decoder. dialect::utf8 is the
// default everywhere and runs the strict code paths (and SIMD kernels) unchanged; the others run
// the same DFA engine on their own table, scalar.
//
// Each grammar below is the RFC 3629 ABNF with the differences written next to it; the tables are
// built from it at compile time (detail/dialect_dfa.hpp).
#ifndef UTF8DFA_DIALECT_HPP
#define UTF8DFA_DIALECT_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "detail/bytes.hpp"
#include "detail/dfa.hpp"
#include "detail/dialect_dfa.hpp"
#include "error.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace dialect {
/// Strict UTF-8 (RFC 3629): scalar values only, shortest form, 1 to 4 octets. The default.
struct utf8 {};
/// WTF-8: UTF-8 plus surrogate code points as 3-octet sequences (UTF-16 with unpaired
/// surrogates, losslessly), except a lead surrogate followed by a trail surrogate.
struct wtf8 {};
/// CESU-8 (UTR #26): supplementary characters as two 3-octet surrogates (6 octets); no 4-octet
/// forms and no unpaired surrogates.
struct cesu8 {};
/// Java's Modified UTF-8: CESU-8 with U+0000 as C0 80; the octet 00 never occurs.
struct mutf8 {};
/// A reader for RFC 2279: 1 to 6 octets, values up to 0x7FFFFFFF (surrogate code points
/// included), still in shortest form only.
struct legacy {};
}  // namespace dialect

namespace detail {

inline constexpr octet_range tail = utf8_tail;  // UTF8-tail = %x80-BF

/// An octet range that refuses with `why`; a single octet when hi is left out.
constexpr octet_range octets(unsigned lo, unsigned hi, error_code why = error_code::none) noexcept {
  return {static_cast<std::uint8_t>(lo), static_cast<std::uint8_t>(hi), why};
}

// ---- WTF-8 ------------------------------------------------------------------------------------
//   WTF-8-char      = UTF8-1 / UTF8-2 / UTF8-3 / UTF8-4 / lead-surrogate / trail-surrogate
//   lead-surrogate  = %xED %xA0-AF UTF8-tail      ; U+D800..U+DBFF (new)
//   trail-surrogate = %xED %xB0-BF UTF8-tail      ; U+DC00..U+DFFF (new)
//   ; and no lead-surrogate immediately followed by a trail-surrogate: that pair is a
//   ; supplementary character, which must be a UTF8-4. After a lead surrogate the automaton
//   ; stands at a second boundary where trail-surrogate may not start; ED B0-BF there is the
//   ; error `surrogate` at the ED (the lead surrogate before it is well-formed).
inline constexpr dialect_rule wtf8_grammar[] = {
    {1, {octets(0x00, 0x7F)}},                                                         // UTF8-1
    {2, {octets(0xC2, 0xDF), tail}},                                                   // UTF8-2
    {3, {octets(0xE0, 0xE0), octets(0xA0, 0xBF, error_code::overlong), tail}},         // UTF8-3
    {3, {octets(0xE1, 0xEC), tail, tail}},                                             //
    {3, {octets(0xED, 0xED), octets(0x80, 0x9F, error_code::surrogate), tail}},        //
    {3, {octets(0xEE, 0xEF), tail, tail}},                                             //
    {4, {octets(0xF0, 0xF0), octets(0x90, 0xBF, error_code::overlong), tail, tail}},   // UTF8-4
    {4, {octets(0xF1, 0xF3), tail, tail, tail}},                                       //
    {4, {octets(0xF4, 0xF4), octets(0x80, 0x8F, error_code::too_large), tail, tail}},  //
    {3,
     {octets(0xED, 0xED), octets(0xA0, 0xAF, error_code::surrogate), tail},
     at_any_boundary,
     after_lead_boundary},  // lead-surrogate
    {3,
     {octets(0xED, 0xED), octets(0xB0, 0xBF, error_code::surrogate), tail},
     at_plain_boundary,
     plain_boundary},  // trail-surrogate, not right after a lead-surrogate
};

// ---- CESU-8 -----------------------------------------------------------------------------------
//   CESU-8-char     = UTF8-1 / UTF8-2 / UTF8-3 / surrogate-pair        ; no UTF8-4: F0-F4 invalid
//   surrogate-pair  = %xED %xA0-AF UTF8-tail %xED %xB0-BF UTF8-tail    ; U+10000..U+10FFFF (new)
//   ; An unpaired surrogate is ill-formed (`surrogate`), as in UTF-8. The maximal ill-formed
//   ; subpart of a broken pair is the longest prefix of a pair (up to 5 octets: ED A0 80 ED B0).
inline constexpr dialect_rule cesu8_grammar[] = {
    {1, {octets(0x00, 0x7F)}},                                                   // UTF8-1
    {2, {octets(0xC2, 0xDF), tail}},                                             // UTF8-2
    {3, {octets(0xE0, 0xE0), octets(0xA0, 0xBF, error_code::overlong), tail}},   // UTF8-3
    {3, {octets(0xE1, 0xEC), tail, tail}},                                       //
    {3, {octets(0xED, 0xED), octets(0x80, 0x9F, error_code::surrogate), tail}},  //
    {3, {octets(0xEE, 0xEF), tail, tail}},                                       //
    {6,
     {octets(0xED, 0xED), octets(0xA0, 0xAF, error_code::surrogate), tail, octets(0xED, 0xED, error_code::surrogate),
      octets(0xB0, 0xBF, error_code::surrogate), tail}},  // surrogate-pair
};

// ---- Modified UTF-8 ---------------------------------------------------------------------------
//   MUTF-8-char     = %x01-7F / null / UTF8-2 / UTF8-3 / surrogate-pair  ; UTF8-1 without %x00
//   null            = %xC0 %x80                                          ; U+0000 (new)
inline constexpr dialect_rule mutf8_grammar[] = {
    {1, {octets(0x01, 0x7F)}},                                                   // UTF8-1 but 00
    {2, {octets(0xC0, 0xC0), octets(0x80, 0x80, error_code::overlong)}},         // null
    {2, {octets(0xC2, 0xDF), tail}},                                             // UTF8-2
    {3, {octets(0xE0, 0xE0), octets(0xA0, 0xBF, error_code::overlong), tail}},   // UTF8-3
    {3, {octets(0xE1, 0xEC), tail, tail}},                                       //
    {3, {octets(0xED, 0xED), octets(0x80, 0x9F, error_code::surrogate), tail}},  //
    {3, {octets(0xEE, 0xEF), tail, tail}},                                       //
    {6,
     {octets(0xED, 0xED), octets(0xA0, 0xAF, error_code::surrogate), tail, octets(0xED, 0xED, error_code::surrogate),
      octets(0xB0, 0xBF, error_code::surrogate), tail}},  // surrogate-pair
};

// ---- RFC 2279 ---------------------------------------------------------------------------------
//   legacy-char = UTF8-1 / UTF8-2 / legacy-3 / legacy-4 / legacy-5 / legacy-6
//   legacy-3    = %xE0 %xA0-BF UTF8-tail / %xE1-EF 2( UTF8-tail )       ; ED A0-BF allowed
//   legacy-4    = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F7 3( UTF8-tail )  ; up to 0x1FFFFF
//   legacy-5    = %xF8 %x88-BF 3( UTF8-tail ) / %xF9-FB 4( UTF8-tail )  ; up to 0x3FFFFFF
//   legacy-6    = %xFC %x84-BF 4( UTF8-tail ) / %xFD 5( UTF8-tail )     ; up to 0x7FFFFFFF
//   ; The shortest-form rule stays (E0 80-9F, F0 80-8F, F8 80-87, FC 80-83 are `overlong`; C0, C1,
//   ; FE, FF `invalid_byte`). Surrogate code points are accepted: RFC 2279 encodes UCS-4 values and
//   ; predates their exclusion; they, and values above 0x10FFFF, are reported as read, and are
//   ; errors only where the output cannot hold them (UTF-16, UTF-8, CESU-8, MUTF-8).
inline constexpr dialect_rule legacy_grammar[] = {
    {1, {octets(0x00, 0x7F)}},                                                                    // UTF8-1
    {2, {octets(0xC2, 0xDF), tail}},                                                              // UTF8-2
    {3, {octets(0xE0, 0xE0), octets(0xA0, 0xBF, error_code::overlong), tail}},                    // legacy-3
    {3, {octets(0xE1, 0xEF), tail, tail}},                                                        //
    {4, {octets(0xF0, 0xF0), octets(0x90, 0xBF, error_code::overlong), tail, tail}},              // legacy-4
    {4, {octets(0xF1, 0xF7), tail, tail, tail}},                                                  //
    {5, {octets(0xF8, 0xF8), octets(0x88, 0xBF, error_code::overlong), tail, tail, tail}},        // legacy-5
    {5, {octets(0xF9, 0xFB), tail, tail, tail, tail}},                                            //
    {6, {octets(0xFC, 0xFC), octets(0x84, 0xBF, error_code::overlong), tail, tail, tail, tail}},  // legacy-6
    {6, {octets(0xFD, 0xFD), tail, tail, tail, tail, tail}},                                      //
};

// The tables are built from these grammars when a dialect is first used (dialect_table in
// detail/dialect_dfa.hpp); tests/tables_test.cpp pins their shapes and checks that the builder,
// given dfa.hpp's RFC 3629 grammar, yields dfa.hpp's automaton.

// ---- Writers ----------------------------------------------------------------------------------

/// Writes one 3-octet form (any value below 0x10000, surrogates included).
template <class Byte>
constexpr void put3(Byte* out, char32_t c) noexcept {
  out[0] = static_cast<Byte>(0xE0 | (c >> 12));
  out[1] = static_cast<Byte>(0x80 | ((c >> 6) & 0x3F));
  out[2] = static_cast<Byte>(0x80 | (c & 0x3F));
}

/// Writes the RFC 2279 form of c <= 0x7FFFFFFF (1..6 octets, the shortest); returns the count.
/// For values up to 0x10FFFF this is the UTF-8 bit pattern (surrogates as 3 octets).
template <class Byte>
constexpr std::size_t put_ucs4(Byte* out, char32_t c) noexcept {
  if (c < 0x80) {
    out[0] = static_cast<Byte>(c);
    return 1;
  }
  std::size_t n = c < 0x800 ? 2 : c < 0x10000 ? 3 : c < 0x200000 ? 4 : c < 0x4000000 ? 5 : 6;
  for (std::size_t k = n; k-- > 1;) {
    out[k] = static_cast<Byte>(0x80 | (c & 0x3F));
    c >>= 6;
  }
  out[0] = static_cast<Byte>((0xFF00u >> n) | c);  // n leading one bits, then the payload
  return n;
}

/// What one dialect needs beyond its table: the machine that runs it, the longest character,
/// which values it can write, and its writer.
template <class D>
struct dialect_traits;

template <>
struct dialect_traits<dialect::utf8> {
  using machine = utf8_machine;
  static constexpr std::size_t max_length = 4;
  static constexpr bool nul_byte = true;  // the octet 00 is a character
  static constexpr bool encodable(char32_t c) noexcept { return c < 0xD800 || (c > 0xDFFF && c <= 0x10FFFF); }
  static constexpr std::size_t width(char32_t c) noexcept { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }
  template <class Byte>
  static constexpr std::size_t put(Byte* out, char32_t c) noexcept {
    return put_ucs4(out, c);
  }
};

template <>
struct dialect_traits<dialect::wtf8> : dialect_traits<dialect::utf8> {
  using machine = table_machine<wtf8_grammar, false>;
  static constexpr bool encodable(char32_t c) noexcept { return c <= 0x10FFFF; }
};

template <>
struct dialect_traits<dialect::cesu8> : dialect_traits<dialect::utf8> {
  using machine = table_machine<cesu8_grammar, true>;
  static constexpr std::size_t max_length = 6;
  static constexpr std::size_t width(char32_t c) noexcept { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 6; }
  template <class Byte>
  static constexpr std::size_t put(Byte* out, char32_t c) noexcept {
    if (c < 0x10000) return put_ucs4(out, c);
    put3(out, 0xD7C0 + (c >> 10));
    put3(out + 3, 0xDC00 + (c & 0x3FF));
    return 6;
  }
};

template <>
struct dialect_traits<dialect::mutf8> : dialect_traits<dialect::cesu8> {
  using machine = table_machine<mutf8_grammar, true>;
  static constexpr bool nul_byte = false;
  static constexpr std::size_t width(char32_t c) noexcept {
    return c == 0 ? 2 : dialect_traits<dialect::cesu8>::width(c);
  }
  template <class Byte>
  static constexpr std::size_t put(Byte* out, char32_t c) noexcept {
    if (c != 0) return dialect_traits<dialect::cesu8>::put(out, c);
    out[0] = static_cast<Byte>(0xC0);
    out[1] = static_cast<Byte>(0x80);
    return 2;
  }
};

template <>
struct dialect_traits<dialect::legacy> : dialect_traits<dialect::utf8> {
  using machine = table_machine<legacy_grammar, false>;
  static constexpr std::size_t max_length = 6;
  static constexpr bool encodable(char32_t c) noexcept { return c <= 0x7FFFFFFF; }
  static constexpr std::size_t width(char32_t c) noexcept {
    return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : c < 0x200000 ? 4 : c < 0x4000000 ? 5 : 6;
  }
};

template <class D, class = void>
struct is_dialect : std::false_type {};
template <class D>
struct is_dialect<D, std::void_t<typename dialect_traits<D>::machine>> : std::true_type {};

/// True for the dialect tag types.
template <class D>
inline constexpr bool is_dialect_v = is_dialect<std::remove_cv_t<D>>::value;
template <class D>
using enable_if_dialect = std::enable_if_t<is_dialect_v<D>, int>;

template <class D>
inline constexpr bool is_strict_v = std::is_same_v<std::remove_cv_t<D>, dialect::utf8>;

template <class D>
using machine_of = typename dialect_traits<D>::machine;

/// The boundary state at `pos`, a character boundary of [p, ...): a dialect with one boundary has
/// only its start state; WTF-8's second boundary follows a character (the last lead byte before
/// pos starts it: WTF-8 has no lead byte inside a character) that leaves it there.
template <class D, class T>
constexpr typename machine_of<D>::state boundary_before(const T* p, std::size_t pos) noexcept {
  using M = machine_of<D>;
  typename M::state at = M::start;
  if constexpr (std::is_same_v<std::remove_cv_t<D>, dialect::wtf8>) {
    for (std::size_t k = 1; k <= dialect_traits<D>::max_length && k <= pos; ++k)
      if (!is_continuation(octet(p[pos - k]))) {
        typename M::state s = M::start;
        const decoded d = decode_with<M>(p, pos, pos - k, s);
        if (d.error == error_code::none && d.length == k) at = s;
        break;
      }
  } else {
    static_cast<void>(p);
    static_cast<void>(pos);
  }
  return at;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
