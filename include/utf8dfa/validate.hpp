// utf8dfa: validation of UTF-8 against RFC 3629, with where and why it fails.
#ifndef UTF8DFA_VALIDATE_HPP
#define UTF8DFA_VALIDATE_HPP

#include <cstddef>

#include "detail/bytes.hpp"
#include "detail/dfa.hpp"
#include "detail/dispatch.hpp"
#include "detail/scalar.hpp"
#include "dialect.hpp"
#include "error.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// True when the 16 bytes at p hold no 00 (p holds only ASCII there: x + 7F sets bit 7 unless x is 0).
UTF8DFA_ALWAYS_INLINE bool no_nul16(const unsigned char* p) noexcept {
  const std::uint64_t a = load64(p), b = load64(p + 8);
  return (((a + 0x7F7F7F7F7F7F7F7Full) & (b + 0x7F7F7F7F7F7F7F7Full)) & high_bits) == high_bits;
}

/// Run-time validation in a dialect other than utf8: long input first as two streams
/// (dialect_two_streams_valid, which can only say "well-formed"); else ASCII skipped 16 bytes at a
/// time at the plain boundary (where 00 is not a character, only blocks without it), the rest
/// through the shift form of the dialect's table in blocks of 16 bytes (reject absorbs, so one test
/// per block). Only when that fails, or ends inside a character, does the character-by-character
/// walk run, from the last block that began at a boundary, to say where and why.
template <class D>
validation_result validate_dialect(const unsigned char* p, std::size_t n) noexcept {
  using M = machine_of<D>;
  if (n >= 1024 && dialect_two_streams_valid<M, dialect_traits<D>::nul_byte>(p, n)) return {n, 0, error_code::none};
  std::uint64_t s4 = 4 * std::uint64_t{M::start};  // the state, shift form
  typename M::state safe_state = M::start;
  std::size_t i = 0, safe = 0;  // a block start at a boundary, and the state there
  for (;;) {
    auto st = static_cast<typename M::state>(s4 >> 2);
    if (st == M::start)
      while (n - i >= 16 && ascii16(p + i) && (dialect_traits<D>::nul_byte || no_nul16(p + i))) i += 16;
    if (M::boundary(st)) {
      safe = i;
      safe_state = st;
    }
    const std::size_t end = n - i < dialect_block ? n : i + dialect_block;
    for (; i < end; ++i) s4 = M::shift_step(s4, p[i]);
    st = static_cast<typename M::state>(s4 >> 2);
    if (UTF8DFA_UNLIKELY(M::rejected(st) || (i == n && !M::boundary(st)))) break;
    if (i == n) return {n, 0, error_code::none};
  }
  for (std::size_t pos = safe; pos < n;) {  // the exact first error
    const decoded d = decode_with<M>(p, n, pos, safe_state);
    if (d.error != error_code::none)
      return {pos, d.error == error_code::incomplete ? 0u : std::size_t{d.length}, d.error};
    pos += d.length;
  }
  return {n, 0, error_code::none};  // not reached: the walk meets the error the table met
}

}  // namespace detail

/// Checks `bytes`; on failure says where the first maximal ill-formed subpart starts, its length and kind.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr validation_result validate(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::validate_from(s.data, s.size, 0);
  return detail::kernel_fn<&detail::kernel_table::validate>()(detail::as_uchars(s.data), s.size);
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

/// Checks `bytes` in a dialect (validate(bytes, dialect::wtf8{})); dialect::utf8 is validate(bytes).
/// Error lengths reach 5 in CESU-8/MUTF-8 (a broken surrogate pair) and 5 in legacy.
template <class Bytes, class Dialect, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr validation_result validate(const Bytes& bytes, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return validate(bytes);
  } else {
    const auto s = detail::as_span(bytes);
    if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::validate_with<detail::machine_of<Dialect>>(s.data, s.size);
    return detail::validate_dialect<Dialect>(detail::as_uchars(s.data), s.size);
  }
}

/// Same, for a pointer and a length.
template <class T, class Dialect, detail::enable_if_byte<T> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr validation_result validate(const T* data, std::size_t size, Dialect d) noexcept {
  return validate(detail::byte_span_range<T>{data, size}, d);
}

/// True when `bytes` is well-formed in the dialect.
template <class Bytes, class Dialect, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr bool is_valid(const Bytes& bytes, Dialect d) noexcept {
  return validate(bytes, d).error == error_code::none;
}

/// Same, for a pointer and a length.
template <class T, class Dialect, detail::enable_if_byte<T> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr bool is_valid(const T* data, std::size_t size, Dialect d) noexcept {
  return validate(data, size, d).error == error_code::none;
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
