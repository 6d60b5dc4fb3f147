// utf8dfa: counting code points.
#ifndef UTF8DFA_COUNT_HPP
#define UTF8DFA_COUNT_HPP

#include <cstddef>

#include "detail/bytes.hpp"
#include "detail/dispatch.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Code points in well-formed UTF-8, at memory speed: the bytes that are not continuation bytes.
/// It does not validate; on ill-formed input use utf32_length_from_utf8 (the lossy decode's count).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t count_code_points(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::count_leads>()(detail::as_uchars(s.data), s.size);
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
