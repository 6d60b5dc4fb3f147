// utf8dfa: error kinds and the result types shared by every facility.
#ifndef UTF8DFA_ERROR_HPP
#define UTF8DFA_ERROR_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "config.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Why input is ill-formed. The first error of a UTF-8 sequence decides the kind. The dialects
/// (dialect.hpp) use the same kinds; where their meaning widens, it is said below.
enum class error_code : std::uint8_t {
  none,                     ///< well-formed
  invalid_byte,             ///< C0, C1 or F5..FF: bytes that never occur in UTF-8 (or in the dialect:
                            ///< F0..F4 in CESU-8, 00 in MUTF-8, only C0, C1, FE, FF in legacy)
  unexpected_continuation,  ///< a continuation byte (80..BF) where a character must start
  too_short,                ///< a sequence cut short by a byte that is not a continuation byte
  incomplete,               ///< the input ends inside a sequence (more input could complete it)
  overlong,                 ///< E0 80..9F or F0 80..8F: a longer form than the value needs (also
                            ///< C0 81..BF in MUTF-8, F8 80..87 and FC 80..83 in legacy)
  surrogate,                ///< ED A0..BF (U+D800..U+DFFF); in UTF-16/32 input, an unpaired surrogate;
                            ///< in WTF-8 a trail surrogate right after a lead one, in CESU-8/MUTF-8
                            ///< a surrogate that is not half of a pair; a surrogate read (WTF-8,
                            ///< legacy) where the output cannot hold it
  too_large,                ///< F4 90..BF (above U+10FFFF); in UTF-32 input, a value above 0x10FFFF;
                            ///< a legacy value above 0x10FFFF where the output cannot hold it
  unrepresentable,          ///< a well-formed character the target encoding has no code for
                            ///< (above U+00FF for Latin-1); also a replacement it cannot hold
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
    case error_code::unrepresentable:
      return "unrepresentable";
  }
  return "unknown";
}

/// Outcome of validation, like Rust's Utf8Error plus a kind; true when the input is well-formed.
struct validation_result {
  std::size_t valid_up_to;   ///< bytes before the first ill-formed subpart (== size when valid)
  std::size_t error_length;  ///< length of that maximal ill-formed subpart: 1..3 (1..5 in CESU-8,
                             ///< MUTF-8, legacy); 0 when incomplete or valid
  error_code error;          ///< error_code::none when valid
  constexpr explicit operator bool() const noexcept { return error == error_code::none; }
};

/// One step of decoding. On error: U+FFFD, and length is that of the maximal ill-formed subpart.
struct decoded {
  char32_t code_point;  ///< the scalar value, or U+FFFD on error
  std::uint8_t length;  ///< bytes consumed: 1..4 (1..6 in CESU-8, MUTF-8, legacy); 0 only at the end of the input
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
