// utf8dfa 0.1.0: single-header edition.
// GENERATED FILE: do not edit. Produced by tools/amalgamate.py from include/utf8dfa.hpp and every
// project header it includes; edit those and rerun the script (CI checks that this copy is in sync).
// SPDX-License-Identifier: MIT -- Copyright (c) 2026 The utf8dfa authors
// Headers inlined, in order:
//   utf8dfa.hpp
//   utf8dfa/config.hpp
//   utf8dfa/version.hpp
//   utf8dfa/count.hpp
//   utf8dfa/detail/bytes.hpp
//   utf8dfa/detail/dispatch.hpp
//   utf8dfa/policy.hpp
//   utf8dfa/error.hpp
//   utf8dfa/detail/scalar.hpp
//   utf8dfa/detail/dfa.hpp
//   utf8dfa/decode.hpp
//   utf8dfa/encode.hpp
//   utf8dfa/transcode.hpp
//   utf8dfa/validate.hpp

// ---- begin utf8dfa.hpp ----
// utf8dfa: a header-only UTF-8 codec on one DFA. Include this header for everything.
#ifndef UTF8DFA_HPP
#define UTF8DFA_HPP

// ---- begin utf8dfa/config.hpp ----
// utf8dfa: feature detection and portability macros.
#ifndef UTF8DFA_CONFIG_HPP
#define UTF8DFA_CONFIG_HPP

// ---- begin utf8dfa/version.hpp ----
// utf8dfa: version macros. CMake reads the version from this file; it is the single source of truth.
#ifndef UTF8DFA_VERSION_HPP
#define UTF8DFA_VERSION_HPP

#define UTF8DFA_VERSION_MAJOR 0
#define UTF8DFA_VERSION_MINOR 1
#define UTF8DFA_VERSION_PATCH 0

/// The version as one integer: major * 10000 + minor * 100 + patch.
#define UTF8DFA_VERSION (UTF8DFA_VERSION_MAJOR * 10000 + UTF8DFA_VERSION_MINOR * 100 + UTF8DFA_VERSION_PATCH)

/// Every declaration lives in `namespace utf8dfa::inline UTF8DFA_ABI_NAMESPACE`, named for the
/// major and minor version, so two incompatible versions in one program fail to link instead of
/// silently mixing. Changed together with the version (tests/version_test.cpp checks it).
#define UTF8DFA_ABI_NAMESPACE v0_1

#endif
// ---- end utf8dfa/version.hpp ----

#if !defined(__cplusplus) || (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#error "utf8dfa needs C++17 or later"
#endif

#if defined(__cpp_char8_t) && __cpp_char8_t >= 201811L
#define UTF8DFA_HAS_CHAR8_T 1
#else
#define UTF8DFA_HAS_CHAR8_T 0
#endif

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define UTF8DFA_HAS_EXCEPTIONS 1
#else
#define UTF8DFA_HAS_EXCEPTIONS 0
#endif

#if defined(__has_include)
#if __has_include(<version>)
#include <version>
#endif
#endif

#if defined(__cpp_lib_span) && __cpp_lib_span >= 202002L
#define UTF8DFA_HAS_SPAN 1
#else
#define UTF8DFA_HAS_SPAN 0
#endif

#if defined(__cpp_lib_ranges) && __cpp_lib_ranges >= 201911L && defined(__cpp_concepts)
#define UTF8DFA_HAS_RANGES 1
#else
#define UTF8DFA_HAS_RANGES 0
#endif

// True while the compiler evaluates a constant expression; lets one function keep a constexpr
// path and a fast run-time path. Every compiler the library supports has the builtin in C++17 mode.
#if defined(__cpp_lib_is_constant_evaluated) && __cpp_lib_is_constant_evaluated >= 201811L
#include <type_traits>
#define UTF8DFA_IS_CONSTANT_EVALUATED() std::is_constant_evaluated()
#elif defined(__GNUC__) || defined(__clang__) || (defined(_MSC_VER) && _MSC_VER >= 1925)
#define UTF8DFA_IS_CONSTANT_EVALUATED() __builtin_is_constant_evaluated()
#else
#error "utf8dfa needs __builtin_is_constant_evaluated (GCC 9, Clang 9, MSVC 19.25 or later)"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define UTF8DFA_ALWAYS_INLINE inline __attribute__((always_inline))
#define UTF8DFA_LIKELY(x) __builtin_expect(!!(x), 1)
#define UTF8DFA_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define UTF8DFA_ALWAYS_INLINE inline
#define UTF8DFA_LIKELY(x) (x)
#define UTF8DFA_UNLIKELY(x) (x)
#endif

#if defined(__x86_64__) || defined(_M_X64)
#define UTF8DFA_X86_64 1
#else
#define UTF8DFA_X86_64 0
#endif

#if defined(__aarch64__) || defined(_M_ARM64)
#define UTF8DFA_ARM64 1
#else
#define UTF8DFA_ARM64 0
#endif

#endif
// ---- end utf8dfa/config.hpp ----
// ---- begin utf8dfa/count.hpp ----
// utf8dfa: counting code points.
#ifndef UTF8DFA_COUNT_HPP
#define UTF8DFA_COUNT_HPP

#include <cstddef>

// ---- begin utf8dfa/detail/bytes.hpp ----
// utf8dfa: how public functions accept "bytes": any contiguous range of 1-byte elements.
#ifndef UTF8DFA_DETAIL_BYTES_HPP
#define UTF8DFA_DETAIL_BYTES_HPP

#include <cstdint>
#include <cstring>
#include <iterator>
#include <string_view>
#include <type_traits>
#include <utility>


namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A 1-byte element type the library reads as an octet: char, signed/unsigned char, char8_t, std::byte.
template <class T, class U = std::remove_cv_t<T>>
inline constexpr bool is_byte_v = sizeof(U) == 1 && !std::is_same_v<U, bool> &&
                                  (std::is_integral_v<U> || std::is_same_v<U, std::byte>);

/// A pointer and a length: the one shape every algorithm works on.
template <class T>
struct byte_span {
  const T* data;
  std::size_t size;
};

template <class R, class = void>
struct is_byte_range : std::false_type {};
template <class R>
struct is_byte_range<
    R, std::void_t<decltype(std::data(std::declval<const R&>())), decltype(std::size(std::declval<const R&>()))>>
    : std::bool_constant<!std::is_array_v<R> && std::is_pointer_v<decltype(std::data(std::declval<const R&>()))> &&
                         is_byte_v<std::remove_pointer_t<decltype(std::data(std::declval<const R&>()))>>> {};

// Character arrays and pointers are C strings (string literals): they end at their first NUL.
template <class R>
inline constexpr bool is_c_string_v = std::is_convertible_v<const R&, std::string_view> && !is_byte_range<R>::value;
#if UTF8DFA_HAS_CHAR8_T
template <class R>
inline constexpr bool is_u8_c_string_v =
    std::is_convertible_v<const R&, std::u8string_view> && !is_byte_range<R>::value && !is_c_string_v<R>;
#else
template <class R>
inline constexpr bool is_u8_c_string_v = false;
#endif

/// True for the types public functions accept as UTF-8 input.
template <class R>
inline constexpr bool is_bytes_v = is_byte_range<R>::value || is_c_string_v<R> || is_u8_c_string_v<R>;

template <class R>
using enable_if_bytes = std::enable_if_t<is_bytes_v<R>, int>;
template <class T>
using enable_if_byte = std::enable_if_t<is_byte_v<T>, int>;

/// Views any accepted input as a pointer and a length (no copy).
template <class R>
constexpr auto as_span(const R& r) noexcept {
  if constexpr (is_byte_range<R>::value) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(std::data(r))>>;
    return byte_span<T>{std::data(r), static_cast<std::size_t>(std::size(r))};
  } else if constexpr (is_c_string_v<R>) {
    const std::string_view s = r;
    return byte_span<char>{s.data(), s.size()};
  } else {
#if UTF8DFA_HAS_CHAR8_T
    const std::u8string_view s = r;
    return byte_span<char8_t>{s.data(), s.size()};
#endif
  }
}

/// A pointer and a length as a range (for the pointer + length overloads).
template <class T>
struct byte_span_range {
  const T* ptr;
  std::size_t len;
  constexpr const T* data() const noexcept { return ptr; }
  constexpr std::size_t size() const noexcept { return len; }
};

/// The run-time kernels read every input as unsigned char (allowed for any byte-sized type).
template <class T>
inline const unsigned char* as_uchars(const T* p) noexcept {
  return reinterpret_cast<const unsigned char*>(p);
}
template <class T>
inline unsigned char* as_uchars(T* p) noexcept {
  return reinterpret_cast<unsigned char*>(p);
}

/// The octet value of one input element.
template <class T>
constexpr std::uint8_t octet(T c) noexcept {
  return static_cast<std::uint8_t>(c);
}

/// Eight bytes as one little-endian-agnostic word (only bit 7 of each byte is ever examined).
template <class T>
UTF8DFA_ALWAYS_INLINE std::uint64_t load64(const T* p) noexcept {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

inline constexpr std::uint64_t high_bits = 0x8080808080808080ull;

/// Number of set bits.
constexpr unsigned popcount64(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return static_cast<unsigned>(__builtin_popcountll(x));
#else
  unsigned c = 0;
  for (; x != 0; x &= x - 1) ++c;
  return c;
#endif
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/bytes.hpp ----
// ---- begin utf8dfa/detail/dispatch.hpp ----
// utf8dfa: the run-time kernel table. Resolved once, on first use (no static-initialisation
// order issue: the pointer is constant-initialised), overridable by UTF8DFA_KERNEL or select_kernel().
#ifndef UTF8DFA_DETAIL_DISPATCH_HPP
#define UTF8DFA_DETAIL_DISPATCH_HPP

#include <atomic>
#include <cstdlib>

// ---- begin utf8dfa/policy.hpp ----
// utf8dfa: what a conversion does with ill-formed input.
#ifndef UTF8DFA_POLICY_HPP
#define UTF8DFA_POLICY_HPP

// ---- begin utf8dfa/error.hpp ----
// utf8dfa: error kinds and the result types shared by every facility.
#ifndef UTF8DFA_ERROR_HPP
#define UTF8DFA_ERROR_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Why input is ill-formed. The first error of a UTF-8 sequence decides the kind.
enum class error_code : std::uint8_t {
  none,                     ///< well-formed
  invalid_byte,             ///< C0, C1 or F5..FF: bytes that never occur in UTF-8
  unexpected_continuation,  ///< a continuation byte (80..BF) where a character must start
  too_short,                ///< a sequence cut short by a byte that is not a continuation byte
  incomplete,               ///< the input ends inside a sequence (more input could complete it)
  overlong,                 ///< E0 80..9F or F0 80..8F: a longer form than the value needs
  surrogate,                ///< ED A0..BF (U+D800..U+DFFF); in UTF-16/32 input, an unpaired surrogate
  too_large,                ///< F4 90..BF (above U+10FFFF); in UTF-32 input, a value above 0x10FFFF
};

/// The enumerator's name ("invalid_byte", ...), as utf8tool prints it.
constexpr std::string_view error_name(error_code e) noexcept {
  switch (e) {
    case error_code::none:
      return "none";
    case error_code::invalid_byte:
      return "invalid_byte";
    case error_code::unexpected_continuation:
      return "unexpected_continuation";
    case error_code::too_short:
      return "too_short";
    case error_code::incomplete:
      return "incomplete";
    case error_code::overlong:
      return "overlong";
    case error_code::surrogate:
      return "surrogate";
    case error_code::too_large:
      return "too_large";
  }
  return "unknown";
}

/// Outcome of validation, like Rust's Utf8Error plus a kind; true when the input is well-formed.
struct validation_result {
  std::size_t valid_up_to;   ///< bytes before the first ill-formed subpart (== size when valid)
  std::size_t error_length;  ///< length of that maximal ill-formed subpart: 1..3; 0 when incomplete or valid
  error_code error;          ///< error_code::none when valid
  constexpr explicit operator bool() const noexcept { return error == error_code::none; }
};

/// One step of decoding. On error: U+FFFD, and length is that of the maximal ill-formed subpart.
struct decoded {
  char32_t code_point;  ///< the scalar value, or U+FFFD on error
  std::uint8_t length;  ///< bytes consumed: 1..4; 0 only at the end of the input
  error_code error;     ///< error_code::none for a well-formed character
};

/// Progress of a bulk conversion on both sides. Under `strict`, `read` stops before the first error;
/// under `replace`, `read` is the whole input and `error` is the kind of the first replaced subpart.
struct conversion_result {
  std::size_t read;     ///< input code units consumed
  std::size_t written;  ///< output code units written
  error_code error;     ///< error_code::none when the input was well-formed
  constexpr explicit operator bool() const noexcept { return error == error_code::none; }
};

/// U+FFFD REPLACEMENT CHARACTER.
inline constexpr char32_t replacement_character = U'\uFFFD';

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/error.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Stop at the first ill-formed subpart and report it (conversion_result::read points at it).
struct strict {
  static constexpr bool stops_on_error = true;
  constexpr char32_t replacement_value() const noexcept { return replacement_character; }
};

/// Write one replacement character (U+FFFD unless chosen) per maximal ill-formed subpart and go on,
/// as the Unicode Standard (ch. 3) and the WHATWG decoder do. A replacement that is not a Unicode
/// scalar value is ignored in favour of U+FFFD.
struct replace {
  char32_t replacement = replacement_character;
  static constexpr bool stops_on_error = false;
  constexpr char32_t replacement_value() const noexcept {
    return (replacement >= 0xD800 && replacement <= 0xDFFF) || replacement > 0x10FFFF ? replacement_character
                                                                                      : replacement;
  }
};

/// For input already validated: the fastest path. On ill-formed input the output is unspecified,
/// but nothing is read or written out of bounds and the output never exceeds the length helpers' size.
struct assume_valid {
  static constexpr bool stops_on_error = false;
  constexpr char32_t replacement_value() const noexcept { return replacement_character; }
};

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/policy.hpp ----
// ---- begin utf8dfa/detail/scalar.hpp ----
// utf8dfa: the portable kernels. Every loop here runs the one DFA of dfa.hpp (through `step` or
// `decode_at`); the SIMD kernels accelerate these and are tested against them.
#ifndef UTF8DFA_DETAIL_SCALAR_HPP
#define UTF8DFA_DETAIL_SCALAR_HPP


// ---- begin utf8dfa/detail/dfa.hpp ----
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

/// The automaton in plain form: states x bytes.
struct automaton {
  struct state_desc {
    std::uint8_t count;  // ranges still expected
    octet_range need[3];
  };
  std::size_t states = 0;
  state_desc desc[max_states]{};
  std::uint8_t next[max_states][256]{};
  error_code kind[max_states][256]{};  // why `next` is reject
  std::uint8_t lead_mask[256]{};       // payload bits of a lead byte

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
  for (unsigned b = 0; b < 256; ++b) {
    const bool continuation = utf8_tail.contains(b);
    // From accept: b must start one of the alternatives.
    a.next[accept_state][b] = reject_state;
    a.kind[accept_state][b] = continuation ? error_code::unexpected_continuation : error_code::invalid_byte;
    for (const sequence_rule& r : grammar)
      if (r.lead.contains(b)) {
        a.next[accept_state][b] = a.intern(r.tail, r.tails);
        a.kind[accept_state][b] = error_code::none;
        a.lead_mask[b] = static_cast<std::uint8_t>(0x7F >> (r.tails == 0 ? 0 : r.tails + 1));
      }
    // Reject absorbs.
    a.next[reject_state][b] = reject_state;
    a.kind[reject_state][b] = error_code::none;
    // Inside a character: b must fall in the next expected range.
    for (std::uint8_t s = 2; s < a.states; ++s) {
      const auto& d = a.desc[s];
      if (d.need[0].contains(b)) {
        a.next[s][b] = a.intern(d.need + 1, static_cast<std::uint8_t>(d.count - 1));
        a.kind[s][b] = error_code::none;
      } else {
        a.next[s][b] = reject_state;
        a.kind[s][b] = continuation ? d.need[0].outside : error_code::too_short;
      }
    }
  }
  return a;
}

inline constexpr automaton dfa = build_automaton();

/// Byte classes: bytes with identical columns (next state and error kind in every state).
struct class_map {
  std::size_t count = 0;
  std::uint8_t of[256]{};
  std::uint8_t representative[max_classes]{};
};

constexpr class_map build_classes() {
  class_map m{};
  for (unsigned b = 0; b < 256; ++b) {
    std::size_t c = 0;
    for (; c < m.count; ++c) {
      const unsigned r = m.representative[c];
      bool same = dfa.lead_mask[r] == dfa.lead_mask[b];
      for (std::size_t s = 0; same && s < dfa.states; ++s)
        same = dfa.next[s][r] == dfa.next[s][b] && dfa.kind[s][r] == dfa.kind[s][b];
      if (same) break;
    }
    if (c == m.count) m.representative[m.count++] = static_cast<std::uint8_t>(b);
    m.of[b] = static_cast<std::uint8_t>(c);
  }
  return m;
}

inline constexpr class_map byte_classes = build_classes();

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
  shift_table t{};
  for (unsigned b = 0; b < 256; ++b)
    for (std::size_t s = 0; s < dfa.states; ++s)
      t.row[b] |= static_cast<std::uint64_t>(dfa.next[s][b] * state_bits) << (s * state_bits);
  return t;
}

inline constexpr shift_table shift = build_shift_table();

/// One transition; `state` may carry garbage above its low 6 bits (the shift ignores it).
constexpr std::uint64_t step(std::uint64_t state, std::uint8_t byte) noexcept {
  return shift.row[byte] >> (state & state_mask);
}

/// The error kind when `byte` drives the (masked) shift-form state `state` to reject.
constexpr error_code reject_kind(std::uint64_t state, std::uint8_t byte) noexcept {
  return dfa.kind[(state & state_mask) / state_bits][byte];
}

/// True for 80..BF, which never starts a character.
constexpr bool is_continuation(std::uint8_t b) noexcept {
  return utf8_tail.contains(b);
}

/// Decodes the character or maximal ill-formed subpart that starts at `pos` (pos < n).
/// This is the only scalar decoder: everything else that decodes calls it or the shift loop.
template <class T>
constexpr decoded decode_at(const T* p, std::size_t n, std::size_t pos) noexcept {
  const std::uint8_t lead = octet(p[pos]);
  std::uint64_t st = step(s_accept, lead) & state_mask;
  if (st == s_accept) return {lead, 1, error_code::none};
  if (st == s_reject) return {replacement_character, 1, reject_kind(s_accept, lead)};
  char32_t cp = lead & dfa.lead_mask[lead];
  for (std::size_t i = pos + 1; i < n; ++i) {
    const std::uint8_t b = octet(p[i]);
    const std::uint64_t nx = step(st, b) & state_mask;
    if (nx == s_reject) return {replacement_character, static_cast<std::uint8_t>(i - pos), reject_kind(st, b)};
    cp = (cp << 6) | (b & 0x3Fu);
    if (nx == s_accept) return {cp, static_cast<std::uint8_t>(i + 1 - pos), error_code::none};
    st = nx;
  }
  return {replacement_character, static_cast<std::uint8_t>(n - pos), error_code::incomplete};
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
// ---- end utf8dfa/detail/dfa.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Precise validation from a character boundary, one character at a time (constexpr path and the
/// re-scan that locates an error found by a faster loop).
template <class T>
constexpr validation_result validate_from(const T* p, std::size_t n, std::size_t pos) noexcept {
  while (pos < n) {
    const decoded d = decode_at(p, n, pos);
    if (d.error != error_code::none)
      return {pos, d.error == error_code::incomplete ? 0u : std::size_t{d.length}, d.error};
    pos += d.length;
  }
  return {n, 0, error_code::none};
}

/// True when the 16 bytes at p are all ASCII.
UTF8DFA_ALWAYS_INLINE bool ascii16(const unsigned char* p) noexcept {
  return ((load64(p) | load64(p + 8)) & high_bits) == 0;
}

/// Validation at run time: ASCII skipped 16 bytes at a time, everything else through the shift
/// DFA in blocks of 64 bytes; only a failing block is re-scanned to say where and why.
inline validation_result validate_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  std::uint64_t st = s_accept;
  while (i < n) {
    if ((st & state_mask) == s_accept)
      while (n - i >= 16 && ascii16(p + i)) i += 16;
    const std::size_t block = i;
    const std::uint64_t entry = st & state_mask;
    const std::size_t end = n - i < 64 ? n : i + 64;
    for (; i < end; ++i) st = step(st, p[i]);
    if (UTF8DFA_UNLIKELY((st & state_mask) == s_reject))
      return validate_from(p, n, entry == s_accept ? block : partial_start(p, block));
  }
  if ((st & state_mask) != s_accept) return validate_from(p, n, partial_start(p, n));
  return {n, 0, error_code::none};
}

/// Number of bytes in [p, p+n) that are not continuation bytes (80..BF).
inline std::size_t count_leads_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t count = 0, i = 0;
  for (; n - i >= 8; i += 8) {
    const std::uint64_t w = load64(p + i);
    const std::uint64_t cont = w & ~(w << 1) & high_bits;  // bit 7 set, bit 6 clear
    count += 8 - popcount64(cont);
  }
  for (; i < n; ++i) count += !is_continuation(p[i]);
  return count;
}

/// UTF-16 units of well-formed UTF-8: one per lead byte, two for the 4-byte leads (F0..F4).
inline std::size_t utf16_length_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t count = 0, i = 0;
  for (; n - i >= 8; i += 8) {
    const std::uint64_t w = load64(p + i);
    const std::uint64_t cont = w & ~(w << 1) & high_bits;
    const std::uint64_t four = w & (w << 1) & (w << 2) & (w << 3) & high_bits;  // F0..FF
    count += 8 - popcount64(cont) + popcount64(four);
  }
  for (; i < n; ++i) count += static_cast<std::size_t>(!is_continuation(p[i])) + (p[i] >= 0xF0 ? 1u : 0u);
  return count;
}

// ---------------------------------------------------------------------------------------------
// Transcoding. `Policy` is one of the public policy types; what it changes is what happens at an
// error: strict stops, replace/assume_valid write the replacement and go on.

template <class Policy>
inline constexpr bool stops_on_error = Policy::stops_on_error;

/// Writes one scalar value as UTF-32 or UTF-16; returns the new output position.
template <class Out>
UTF8DFA_ALWAYS_INLINE Out* put_unit(Out* o, char32_t c) noexcept {
  if constexpr (sizeof(Out) == 4) {
    *o++ = static_cast<Out>(c);
  } else {
    if (c < 0x10000) {
      *o++ = static_cast<Out>(c);
    } else {
      *o++ = static_cast<Out>(0xD7C0 + (c >> 10));
      *o++ = static_cast<Out>(0xDC00 + (c & 0x3FF));
    }
  }
  return o;
}

/// UTF-8 to UTF-32 or UTF-16 (by the size of Out).
template <class Policy, class Out>
conversion_result utf8_to_utf_scalar(const unsigned char* p, std::size_t n, Out* out, Policy pol) noexcept {
  std::size_t i = 0;
  Out* o = out;
  error_code first = error_code::none;
  while (i < n) {
    if (n - i >= 8 && (load64(p + i) & high_bits) == 0) {
      for (std::size_t k = 0; k < 8; ++k) o[k] = static_cast<Out>(p[i + k]);
      i += 8;
      o += 8;
      continue;
    }
    const decoded d = decode_at(p, n, i);
    char32_t c = d.code_point;
    if (UTF8DFA_UNLIKELY(d.error != error_code::none)) {
      if constexpr (stops_on_error<Policy>) {
        return {i, static_cast<std::size_t>(o - out), d.error};
      } else {
        if (first == error_code::none) first = d.error;
        c = pol.replacement_value();
      }
    }
    o = put_unit(o, c);
    i += d.length;
  }
  return {n, static_cast<std::size_t>(o - out), first};
}

/// One scalar value (or an error) read from UTF-16 at i < n. A high surrogate that ends the input
/// is `incomplete` (a later chunk could pair it); every other unpaired surrogate is `surrogate`.
constexpr decoded decode_utf16_at(const char16_t* p, std::size_t n, std::size_t i) noexcept {
  const char32_t c = p[i];
  if (c < 0xD800 || c > 0xDFFF) return {c, 1, error_code::none};
  if (c <= 0xDBFF) {
    if (i + 1 == n) return {replacement_character, 1, error_code::incomplete};
    const char32_t d = p[i + 1];
    if (d >= 0xDC00 && d <= 0xDFFF) return {0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00), 2, error_code::none};
  }
  return {replacement_character, 1, error_code::surrogate};
}

/// One scalar value (or an error) read from UTF-32 at i < n.
constexpr decoded decode_utf32_at(const char32_t* p, std::size_t, std::size_t i) noexcept {
  const char32_t c = p[i];
  if (c >= 0xD800 && c <= 0xDFFF) return {replacement_character, 1, error_code::surrogate};
  if (c > 0x10FFFF) return {replacement_character, 1, error_code::too_large};
  return {c, 1, error_code::none};
}

template <class In>
constexpr decoded decode_utf_at(const In* p, std::size_t n, std::size_t i) noexcept {
  if constexpr (sizeof(In) == 2)
    return decode_utf16_at(p, n, i);
  else
    return decode_utf32_at(p, n, i);
}

/// Bytes of the UTF-8 form of a scalar value (1..4).
constexpr std::size_t utf8_width(char32_t c) noexcept {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/// Writes a scalar value as UTF-8 (the RFC 3629 section 3 bit patterns); returns the byte count.
template <class Byte>
constexpr std::size_t put_utf8(Byte* out, char32_t c) noexcept {
  if (c < 0x80) {
    out[0] = static_cast<Byte>(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = static_cast<Byte>(0xC0 | (c >> 6));
    out[1] = static_cast<Byte>(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = static_cast<Byte>(0xE0 | (c >> 12));
    out[1] = static_cast<Byte>(0x80 | ((c >> 6) & 0x3F));
    out[2] = static_cast<Byte>(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = static_cast<Byte>(0xF0 | (c >> 18));
  out[1] = static_cast<Byte>(0x80 | ((c >> 12) & 0x3F));
  out[2] = static_cast<Byte>(0x80 | ((c >> 6) & 0x3F));
  out[3] = static_cast<Byte>(0x80 | (c & 0x3F));
  return 4;
}

/// UTF-16 or UTF-32 (by the size of In) to UTF-8.
template <class Policy, class In>
conversion_result utf_to_utf8_scalar(const In* p, std::size_t n, unsigned char* out, Policy pol) noexcept {
  std::size_t i = 0;
  unsigned char* o = out;
  error_code first = error_code::none;
  while (i < n) {
    if (p[i] < 0x80) {
      *o++ = static_cast<unsigned char>(p[i++]);
      continue;
    }
    const decoded d = decode_utf_at(p, n, i);
    char32_t c = d.code_point;
    if (UTF8DFA_UNLIKELY(d.error != error_code::none)) {
      if constexpr (stops_on_error<Policy>) {
        return {i, static_cast<std::size_t>(o - out), d.error};
      } else {
        if (first == error_code::none) first = d.error;
        c = pol.replacement_value();
      }
    }
    o += put_utf8(o, c);
    i += d.length;
  }
  return {n, static_cast<std::size_t>(o - out), first};
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/scalar.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A replacement value that no policy can produce: the kernels' encoding of `strict`.
inline constexpr char32_t strict_marker = 0xFFFFFFFFu;

/// One implementation of every bulk operation. `replacement == strict_marker` means strict.
struct kernel_table {
  const char* name;
  validation_result (*validate)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*count_leads)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*utf16_length)(const unsigned char*, std::size_t) noexcept;  // of well-formed input
  conversion_result (*utf8_to_utf32)(const unsigned char*, std::size_t, char32_t*, char32_t) noexcept;
  conversion_result (*utf8_to_utf16)(const unsigned char*, std::size_t, char16_t*, char32_t) noexcept;
  conversion_result (*utf16_to_utf8)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept;
  conversion_result (*utf32_to_utf8)(const char32_t*, std::size_t, unsigned char*, char32_t) noexcept;
};

/// Runs a policy-templated kernel with the policy encoded as a replacement value.
template <class In, class Out, conversion_result (*Strict)(const In*, std::size_t, Out*, strict) noexcept,
          conversion_result (*Replace)(const In*, std::size_t, Out*, replace) noexcept>
conversion_result by_policy(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  if (replacement == strict_marker) return Strict(p, n, out, strict{});
  return Replace(p, n, out, replace{replacement});
}

inline constexpr kernel_table scalar_kernels{
    "scalar",
    &validate_scalar,
    &count_leads_scalar,
    &utf16_length_scalar,
    &by_policy<unsigned char, char32_t, &utf8_to_utf_scalar<strict, char32_t>, &utf8_to_utf_scalar<replace, char32_t>>,
    &by_policy<unsigned char, char16_t, &utf8_to_utf_scalar<strict, char16_t>, &utf8_to_utf_scalar<replace, char16_t>>,
    &by_policy<char16_t, unsigned char, &utf_to_utf8_scalar<strict, char16_t>, &utf_to_utf8_scalar<replace, char16_t>>,
    &by_policy<char32_t, unsigned char, &utf_to_utf8_scalar<strict, char32_t>, &utf_to_utf8_scalar<replace, char32_t>>,
};

/// Every kernel this build and this CPU can run, best first; the scalar table is always last.
inline const kernel_table* const* available_kernels(std::size_t& count) noexcept {
  static const kernel_table* const list[] = {&scalar_kernels};
  count = sizeof list / sizeof list[0];
  return list;
}

inline const kernel_table* find_kernel(std::string_view name) noexcept {
  std::size_t count = 0;
  const kernel_table* const* list = available_kernels(count);
  for (std::size_t k = 0; k < count; ++k)
    if (name == list[k]->name) return list[k];
  return nullptr;
}

inline std::atomic<const kernel_table*>& active_kernel_slot() noexcept {
  static std::atomic<const kernel_table*> slot{nullptr};
  return slot;
}

/// The kernel in use: the best one the CPU supports, or the one UTF8DFA_KERNEL names.
inline const kernel_table& kernels() noexcept {
  const kernel_table* k = active_kernel_slot().load(std::memory_order_acquire);
  if (UTF8DFA_LIKELY(k != nullptr)) return *k;
  std::size_t count = 0;
  k = available_kernels(count)[0];
#if !defined(_MSC_VER)
  if (const char* env = std::getenv("UTF8DFA_KERNEL"))
    if (const kernel_table* chosen = find_kernel(env)) k = chosen;
#endif
  active_kernel_slot().store(k, std::memory_order_release);
  return *k;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Name of the kernel in use ("scalar", "avx2", ...).
inline std::string_view active_kernel() noexcept {
  return detail::kernels().name;
}

/// Forces a kernel by name (for tests and benchmarks); false if this build or CPU lacks it.
inline bool select_kernel(std::string_view name) noexcept {
  const detail::kernel_table* k = detail::find_kernel(name);
  if (k == nullptr) return false;
  detail::active_kernel_slot().store(k, std::memory_order_release);
  return true;
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/dispatch.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Code points in well-formed UTF-8, at memory speed: the bytes that are not continuation bytes.
/// It does not validate; on ill-formed input use utf32_length_from_utf8 (the lossy decode's count).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t count_code_points(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernels().count_leads(detail::as_uchars(s.data), s.size);
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/count.hpp ----
// ---- begin utf8dfa/decode.hpp ----
// utf8dfa: decoding one character at a time, forwards (Go's DecodeRune) and backwards (DecodeLastRune).
#ifndef UTF8DFA_DECODE_HPP
#define UTF8DFA_DECODE_HPP


namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// The last character or maximal ill-formed subpart of [p, p+end): exactly the forward
/// segmentation read backwards. Every non-continuation byte starts a segment, so the segment that
/// ends at `end` starts at the last such byte within four bytes if decoding from there reaches
/// `end`, and is the single byte before `end` otherwise.
template <class T>
constexpr decoded decode_before(const T* p, std::size_t end) noexcept {
  const std::size_t lo = end >= 4 ? end - 4 : 0;
  for (std::size_t j = end; j-- > lo;) {
    if (!is_continuation(octet(p[j]))) {
      const decoded d = decode_at(p, end, j);
      if (j + d.length == end) return d;
      break;
    }
  }
  return decode_at(p, end, end - 1);
}

}  // namespace detail

/// Decodes the character at byte `pos`; on error U+FFFD with the subpart's length and kind.
/// At or past the end: {U+FFFD, 0, incomplete}.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr decoded decode_next(const Bytes& bytes, std::size_t pos) noexcept {
  const auto s = detail::as_span(bytes);
  if (pos >= s.size) return {replacement_character, 0, error_code::incomplete};
  return detail::decode_at(s.data, s.size, pos);
}

/// Decodes the character that ends just before byte `end`, treating [0, end) as the whole input,
/// so that it agrees with decode_next's segmentation. At the start: {U+FFFD, 0, incomplete}.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr decoded decode_prev(const Bytes& bytes, std::size_t end) noexcept {
  const auto s = detail::as_span(bytes);
  if (end > s.size) end = s.size;
  if (end == 0) return {replacement_character, 0, error_code::incomplete};
  return detail::decode_before(s.data, end);
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/decode.hpp ----
// ---- begin utf8dfa/encode.hpp ----
// utf8dfa: encoding one Unicode scalar value as UTF-8 (RFC 3629 section 3).
#ifndef UTF8DFA_ENCODE_HPP
#define UTF8DFA_ENCODE_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// True for U+0000..U+D7FF and U+E000..U+10FFFF: the values UTF-8 can encode.
constexpr bool is_scalar_value(char32_t cp) noexcept {
  return cp < 0xD800 || (cp > 0xDFFF && cp <= 0x10FFFF);
}

/// Bytes needed to encode `cp` (1..4), or 0 for a surrogate or a value above 0x10FFFF.
constexpr std::size_t encoded_length(char32_t cp) noexcept {
  return is_scalar_value(cp) ? detail::utf8_width(cp) : 0;
}

/// Writes `cp` to out[0..3]; returns the byte count, or 0 (writing nothing) for a surrogate or > 0x10FFFF.
template <class Byte, detail::enable_if_byte<Byte> = 0>
constexpr std::size_t encode(char32_t cp, Byte* out4) noexcept {
  return is_scalar_value(cp) ? detail::put_utf8(out4, cp) : 0;
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/encode.hpp ----
// ---- begin utf8dfa/transcode.hpp ----
// utf8dfa: bulk conversion between UTF-8 and UTF-16 / UTF-32, with exact output-length helpers.
#ifndef UTF8DFA_TRANSCODE_HPP
#define UTF8DFA_TRANSCODE_HPP

#include <string>


#if UTF8DFA_HAS_EXCEPTIONS
#include <stdexcept>
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

template <class Policy>
constexpr char32_t kernel_replacement(const Policy& pol) noexcept {
  if constexpr (Policy::stops_on_error)
    return strict_marker;
  else
    return pol.replacement_value();
}

/// Output units a lossy decode of UTF-8 writes (UTF-16 when `utf16`): exact for every policy on
/// well-formed input, and an upper bound for strict on ill-formed input.
inline std::size_t utf8_decoded_units(const unsigned char* p, std::size_t n, bool utf16, char32_t repl) noexcept {
  const kernel_table& k = kernels();
  const std::size_t repl_units = utf16 && repl >= 0x10000 ? 2 : 1;
  std::size_t total = 0, pos = 0;
  for (;;) {
    const validation_result v = k.validate(p + pos, n - pos);
    total += utf16 ? k.utf16_length(p + pos, v.valid_up_to) : k.count_leads(p + pos, v.valid_up_to);
    if (v.error == error_code::none) return total;
    pos += v.valid_up_to;
    pos += decode_at(p, n, pos).length;  // the maximal ill-formed subpart
    total += repl_units;
  }
}

/// UTF-8 bytes that converting UTF-16/UTF-32 writes (replacements counted with `repl`).
template <class In>
std::size_t utf8_encoded_bytes(const In* p, std::size_t n, char32_t repl) noexcept {
  std::size_t total = 0;
  for (std::size_t i = 0; i < n;) {
    if (p[i] < 0x80) {
      ++total;
      ++i;
      continue;
    }
    const decoded d = decode_utf_at(p, n, i);
    total += utf8_width(d.error == error_code::none ? d.code_point : repl);
    i += d.length;
  }
  return total;
}

template <class Str, class Run>
Str make_string(std::size_t size, Run run, conversion_result& status) {
  Str out(size, typename Str::value_type{});
  status = run(out.data());
  out.resize(status.written);
  return out;
}

}  // namespace detail

// ---- Non-allocating core: the caller sizes `out` with the length helpers below. -----------------

/// UTF-8 to UTF-32 into `out`; under strict, stops before the first ill-formed subpart.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0>
conversion_result utf8_to_utf32(const Bytes& bytes, char32_t* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernels().utf8_to_utf32(detail::as_uchars(s.data), s.size, out, detail::kernel_replacement(policy));
}

/// UTF-8 to UTF-16 into `out` (supplementary characters as surrogate pairs).
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0>
conversion_result utf8_to_utf16(const Bytes& bytes, char16_t* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernels().utf8_to_utf16(detail::as_uchars(s.data), s.size, out, detail::kernel_replacement(policy));
}

/// UTF-16 to UTF-8 into `out`. Each unpaired surrogate is one error (`surrogate`, or `incomplete`
/// for a high surrogate that ends the input).
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0>
conversion_result utf16_to_utf8(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::kernels().utf16_to_utf8(in.data(), in.size(), detail::as_uchars(out),
                                         detail::kernel_replacement(policy));
}

/// UTF-32 to UTF-8 into `out`. Surrogates (`surrogate`) and values above 0x10FFFF (`too_large`) are errors.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0>
conversion_result utf32_to_utf8(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::kernels().utf32_to_utf8(in.data(), in.size(), detail::as_uchars(out),
                                         detail::kernel_replacement(policy));
}

// ---- Exact output sizes. ---------------------------------------------------------------------

/// char32_t units utf8_to_utf32 writes: exact for replace (with `r`'s replacement), assume_valid and
/// well-formed input; an upper bound for strict.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, replace r = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::utf8_decoded_units(detail::as_uchars(s.data), s.size, false, r.replacement_value());
}

/// char16_t units utf8_to_utf16 writes (same guarantees).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, replace r = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::utf8_decoded_units(detail::as_uchars(s.data), s.size, true, r.replacement_value());
}

/// Bytes utf16_to_utf8 writes (same guarantees).
inline std::size_t utf8_length_from_utf16(std::u16string_view in, replace r = {}) noexcept {
  return detail::utf8_encoded_bytes(in.data(), in.size(), r.replacement_value());
}

/// Bytes utf32_to_utf8 writes (same guarantees).
inline std::size_t utf8_length_from_utf32(std::u32string_view in, replace r = {}) noexcept {
  return detail::utf8_encoded_bytes(in.data(), in.size(), r.replacement_value());
}

// ---- Allocating helpers. ---------------------------------------------------------------------

/// UTF-8 to UTF-32, strict without exceptions: `status` reports the error; the result holds the
/// characters before it.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32(const Bytes& bytes, conversion_result& status) {
  return detail::make_string<std::u32string>(
      utf32_length_from_utf8(bytes), [&](char32_t* o) { return utf8_to_utf32(bytes, o); }, status);
}

/// UTF-8 to UTF-32, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32_lossy(const Bytes& bytes) {
  conversion_result status{};
  return detail::make_string<std::u32string>(
      utf32_length_from_utf8(bytes), [&](char32_t* o) { return utf8_to_utf32(bytes, o, replace{}); }, status);
}

/// UTF-8 to UTF-16, strict without exceptions.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16(const Bytes& bytes, conversion_result& status) {
  return detail::make_string<std::u16string>(
      utf16_length_from_utf8(bytes), [&](char16_t* o) { return utf8_to_utf16(bytes, o); }, status);
}

/// UTF-8 to UTF-16, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16_lossy(const Bytes& bytes) {
  conversion_result status{};
  return detail::make_string<std::u16string>(
      utf16_length_from_utf8(bytes), [&](char16_t* o) { return utf8_to_utf16(bytes, o, replace{}); }, status);
}

/// UTF-16 to UTF-8, strict without exceptions.
inline std::string to_utf8(std::u16string_view in, conversion_result& status) {
  return detail::make_string<std::string>(
      utf8_length_from_utf16(in), [&](char* o) { return utf16_to_utf8(in, o); }, status);
}

/// UTF-32 to UTF-8, strict without exceptions.
inline std::string to_utf8(std::u32string_view in, conversion_result& status) {
  return detail::make_string<std::string>(
      utf8_length_from_utf32(in), [&](char* o) { return utf32_to_utf8(in, o); }, status);
}

/// UTF-16 to UTF-8, one U+FFFD per unpaired surrogate; never fails.
inline std::string to_utf8_lossy(std::u16string_view in) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf16(in), [&](char* o) { return utf16_to_utf8(in, o, replace{}); }, status);
}

/// UTF-32 to UTF-8, one U+FFFD per surrogate or value above 0x10FFFF; never fails.
inline std::string to_utf8_lossy(std::u32string_view in) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf32(in), [&](char* o) { return utf32_to_utf8(in, o, replace{}); }, status);
}

#if UTF8DFA_HAS_EXCEPTIONS

/// Thrown by the strict allocating helpers: where (input code units) and why the input is ill-formed.
class conversion_error : public std::runtime_error {
 public:
  conversion_error(const char* encoding, const char* unit, std::size_t offset, error_code code)
      : std::runtime_error(std::string("invalid ") + encoding + " at " + unit + " " + std::to_string(offset) + ": " +
                           std::string(error_name(code))),
        offset_(offset),
        code_(code) {}
  /// Offset of the first ill-formed subpart, in input code units (bytes for UTF-8).
  std::size_t offset() const noexcept { return offset_; }
  error_code code() const noexcept { return code_; }

 private:
  std::size_t offset_;
  error_code code_;
};

namespace detail {
template <class Str>
Str or_throw(Str&& s, const conversion_result& status, const char* encoding, const char* unit) {
  if (status.error != error_code::none) throw conversion_error(encoding, unit, status.read, status.error);
  return std::move(s);
}
}  // namespace detail

/// UTF-8 to UTF-32; throws conversion_error on ill-formed input.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32(const Bytes& bytes) {
  conversion_result status{};
  return detail::or_throw(to_utf32(bytes, status), status, "UTF-8", "byte");
}

/// UTF-8 to UTF-16; throws conversion_error on ill-formed input.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16(const Bytes& bytes) {
  conversion_result status{};
  return detail::or_throw(to_utf16(bytes, status), status, "UTF-8", "byte");
}

/// UTF-16 to UTF-8; throws conversion_error on an unpaired surrogate.
inline std::string to_utf8(std::u16string_view in) {
  conversion_result status{};
  return detail::or_throw(to_utf8(in, status), status, "UTF-16", "unit");
}

/// UTF-32 to UTF-8; throws conversion_error on a surrogate or a value above 0x10FFFF.
inline std::string to_utf8(std::u32string_view in) {
  conversion_result status{};
  return detail::or_throw(to_utf8(in, status), status, "UTF-32", "unit");
}

#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/transcode.hpp ----
// ---- begin utf8dfa/validate.hpp ----
// utf8dfa: validation of UTF-8 against RFC 3629, with where and why it fails.
#ifndef UTF8DFA_VALIDATE_HPP
#define UTF8DFA_VALIDATE_HPP


namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Checks `bytes`; on failure says where the first maximal ill-formed subpart starts, its length and kind.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr validation_result validate(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::validate_from(s.data, s.size, 0);
  return detail::kernels().validate(detail::as_uchars(s.data), s.size);
}

/// Same, for a pointer and a length.
template <class T, detail::enable_if_byte<T> = 0>
constexpr validation_result validate(const T* data, std::size_t size) noexcept {
  return validate(detail::byte_span_range<T>{data, size});
}

/// True when `bytes` is well-formed UTF-8.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr bool is_valid(const Bytes& bytes) noexcept {
  return validate(bytes).error == error_code::none;
}

/// Same, for a pointer and a length.
template <class T, detail::enable_if_byte<T> = 0>
constexpr bool is_valid(const T* data, std::size_t size) noexcept {
  return validate(data, size).error == error_code::none;
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/validate.hpp ----

#endif
// ---- end utf8dfa.hpp ----
