// utf8dfa: the results of validation and conversion as the kernels return them. The public
// validation_result and conversion_result (error.hpp) take 24 bytes, which the x86-64 and ARM64
// calling conventions return through memory: the caller passes a pointer, the callee stores three
// fields, and a kernel entry that hands its work to another function cannot end in a tail call.
// The same fields in 16 bytes come back in two registers; each converts to and from its public type.
#ifndef UTF8DFA_DETAIL_KERNEL_RESULT_HPP
#define UTF8DFA_DETAIL_KERNEL_RESULT_HPP

#include <cstddef>
#include <cstdint>

#include "../error.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// validation_result in 16 bytes (error_length is 0..5).
struct packed_validation {
  std::size_t valid_up_to;
  std::uint32_t error_length;
  error_code error;

  packed_validation() = default;
  constexpr packed_validation(std::size_t valid, std::size_t length, error_code e) noexcept
      : valid_up_to(valid), error_length(static_cast<std::uint32_t>(length)), error(e) {}
  constexpr packed_validation(const validation_result& r) noexcept  // NOLINT: implicit by design
      : packed_validation(r.valid_up_to, r.error_length, r.error) {}
  constexpr operator validation_result() const noexcept {  // NOLINT: implicit by design
    return {valid_up_to, error_length, error};
  }
  constexpr explicit operator bool() const noexcept { return error == error_code::none; }
};

/// conversion_result in 16 bytes where size_t has 64 bits: `written` and `error` share the second
/// word (no buffer holds 2^56 units). (24 bytes under the Windows bit-field layout, where an 8-byte
/// result is the most that comes back in a register anyway.)
struct packed_conversion {
  std::size_t read;
#if SIZE_MAX > 0xFFFFFFFFu
  std::size_t written : 56;
  error_code error : 8;
#else
  std::size_t written;
  error_code error;
#endif

  packed_conversion() = default;
  constexpr packed_conversion(std::size_t r, std::size_t w, error_code e) noexcept
      : read(r), written(w & written_max), error(e) {}
  constexpr packed_conversion(const conversion_result& r) noexcept  // NOLINT: implicit by design
      : packed_conversion(r.read, r.written, r.error) {}
  constexpr operator conversion_result() const noexcept {  // NOLINT: implicit by design
    return {read, written, error};
  }
  constexpr explicit operator bool() const noexcept {
    return error == error_code::none;
  }

 private:
  static constexpr std::size_t written_max = SIZE_MAX > 0xFFFFFFFFu ? SIZE_MAX >> 8 : SIZE_MAX;
};

// Two registers in the System V and ARM64 calling conventions (Windows returns only 8 bytes there).
#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(_WIN32)
static_assert(sizeof(packed_validation) == 16 && sizeof(packed_conversion) == 16, "a kernel's result in two registers");
#endif

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
