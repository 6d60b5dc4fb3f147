// utf8dfa: the shape of a kernel (one implementation of every bulk operation) and the portable one.
#ifndef UTF8DFA_DETAIL_KERNEL_TABLE_HPP
#define UTF8DFA_DETAIL_KERNEL_TABLE_HPP

#include <cstddef>

#include "../policy.hpp"
#include "scalar.hpp"
#include "units.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A replacement value that no policy can produce: the kernels' encoding of `strict`.
inline constexpr char32_t strict_marker = 0xFFFFFFFFu;

/// The replacement a kernel writes for `replacement` as it takes it: strict_marker and skip_marker
/// (write nothing) as they are, anything else a scalar value (U+FFFD for one that is not).
constexpr char32_t kernel_repl(char32_t replacement) noexcept {
  return replacement == strict_marker || replacement == skip_marker ? replacement
                                                                    : replace{replacement}.replacement_value();
}

/// One implementation of every bulk operation. `replacement == strict_marker` means strict,
/// `skip_marker` skip (and for the lengths: nothing counted for an error). The UTF-8 decoders
/// (utf8_to_utf32, utf8_to_utf16, utf8_to_utf16_swapped) also take valid_marker, assume_valid: on
/// well-formed input what replace writes; on ill-formed input anything (the error reported or not)
/// within what replace with U+FFFD writes, which is what a kernel that does not tell it apart does.
struct kernel_table {
  const char* name;
  packed_validation (*validate)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*count_leads)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*utf16_length)(const unsigned char*, std::size_t) noexcept;  // of well-formed input
  packed_conversion (*utf8_to_utf32)(const unsigned char*, std::size_t, char32_t*, char32_t) noexcept;
  packed_conversion (*utf8_to_utf16)(const unsigned char*, std::size_t, char16_t*, char32_t) noexcept;
  packed_conversion (*utf16_to_utf8)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept;
  packed_conversion (*utf32_to_utf8)(const char32_t*, std::size_t, unsigned char*, char32_t) noexcept;
  // Exact output lengths of the conversions above, ill-formed input included: each error counted as
  // the replacement `repl` (a scalar value) that the replace policy writes for it, or as nothing
  // (repl == skip_marker).
  std::size_t (*utf16_length_from_utf8)(const unsigned char*, std::size_t, char32_t repl) noexcept;
  std::size_t (*utf32_length_from_utf8)(const unsigned char*, std::size_t, char32_t repl) noexcept;
  // (These two also take valid_marker: assume_valid's count, no check; scalar.hpp.)
  std::size_t (*utf8_length_from_utf16)(const char16_t*, std::size_t, char32_t repl) noexcept;
  std::size_t (*utf8_length_from_utf32)(const char32_t*, std::size_t, char32_t repl) noexcept;
  // Latin-1 and UTF-16 / UTF-32 input (latin1.hpp, utf16.hpp). utf8_to_latin1's replacement is
  // strict_marker, skip_marker or a value up to 0xFF.
  std::size_t (*latin1_to_utf8)(const unsigned char*, std::size_t, unsigned char*) noexcept;
  packed_conversion (*utf8_to_latin1)(const unsigned char*, std::size_t, unsigned char*, char32_t) noexcept;
  packed_validation (*validate_utf16)(const char16_t*, std::size_t) noexcept;
  packed_conversion (*utf16_to_utf32)(const char16_t*, std::size_t, char32_t*, char32_t) noexcept;
  packed_conversion (*utf32_to_utf16)(const char32_t*, std::size_t, char16_t*, char32_t) noexcept;
  std::size_t (*to_well_formed_utf16)(const char16_t*, std::size_t, char16_t*) noexcept;
  // count_utf16, validate_utf32, UTF-16 / UTF-32 to Latin-1 (replacement as for utf8_to_latin1),
  // Latin-1 to UTF-16 / UTF-32 and its UTF-8 length, byte-order changes (out may be the input).
  std::size_t (*count_utf16)(const char16_t*, std::size_t) noexcept;
  packed_validation (*validate_utf32)(const char32_t*, std::size_t) noexcept;
  packed_conversion (*utf16_to_latin1)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept;
  packed_conversion (*utf32_to_latin1)(const char32_t*, std::size_t, unsigned char*, char32_t) noexcept;
  std::size_t (*latin1_to_utf16)(const unsigned char*, std::size_t, char16_t*) noexcept;
  std::size_t (*latin1_to_utf32)(const unsigned char*, std::size_t, char32_t*) noexcept;
  std::size_t (*utf8_length_from_latin1)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*change_endianness_utf16)(const char16_t*, std::size_t, char16_t*) noexcept;
  std::size_t (*change_endianness_utf32)(const char32_t*, std::size_t, char32_t*) noexcept;
  // validate_utf16 on units whose bytes are in the order opposite to the host's.
  packed_validation (*validate_utf16_swapped)(const char16_t*, std::size_t) noexcept;
  // utf16_to_utf8 reading, and utf8_to_utf16 writing, units whose bytes are in the order opposite to
  // the host's (same results, error positions and policy encoding as the host-order entries).
  packed_conversion (*utf16_swapped_to_utf8)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept;
  packed_conversion (*utf8_to_utf16_swapped)(const unsigned char*, std::size_t, char16_t*, char32_t) noexcept;
};

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
