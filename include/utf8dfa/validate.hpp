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

/// Run-time validation in a dialect other than utf8: ASCII skipped 16 bytes at a time at the plain
/// boundary (and, where 00 is not a character, only when none is 00), the rest character by character.
template <class D>
validation_result validate_dialect(const unsigned char* p, std::size_t n) noexcept {
  using M = machine_of<D>;
  typename M::state at = M::start;
  for (std::size_t pos = 0; pos < n;) {
    if (at == M::start)
      while (n - pos >= 16 && ascii16(p + pos)) {
        if constexpr (!dialect_traits<D>::nul_byte) {
          const std::uint64_t a = load64(p + pos), b = load64(p + pos + 8);
          // A zero byte leaves bit 7 clear in (x | (x + 7F..)) for ASCII x: 00 is the only one.
          if ((((a + 0x7F7F7F7F7F7F7F7Full) | a) & ((b + 0x7F7F7F7F7F7F7F7Full) | b) & high_bits) != high_bits) break;
        }
        pos += 16;
      }
    if (pos == n) break;
    const decoded d = decode_with<M>(p, n, pos, at);
    if (d.error != error_code::none)
      return {pos, d.error == error_code::incomplete ? 0u : std::size_t{d.length}, d.error};
    pos += d.length;
  }
  return {n, 0, error_code::none};
}

}  // namespace detail

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
