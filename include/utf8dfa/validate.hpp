// utf8dfa: validation of UTF-8 against RFC 3629, with where and why it fails.
#ifndef UTF8DFA_VALIDATE_HPP
#define UTF8DFA_VALIDATE_HPP

#include "detail/bytes.hpp"
#include "detail/dispatch.hpp"
#include "detail/scalar.hpp"
#include "error.hpp"

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
