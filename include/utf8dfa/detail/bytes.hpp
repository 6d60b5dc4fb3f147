// utf8dfa: how public functions accept "bytes": any contiguous range of 1-byte elements.
#ifndef UTF8DFA_DETAIL_BYTES_HPP
#define UTF8DFA_DETAIL_BYTES_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>  // also declares std::data and std::size
#include <type_traits>
#include <utility>
#if !defined(__BYTE_ORDER__) && !defined(_WIN32) && defined(__has_include)
#if __has_include(<bit>)
#include <bit>
#endif
#endif

#include "../config.hpp"

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

/// The host's byte order.
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && defined(__ORDER_BIG_ENDIAN__)
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ || __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__,
              "utf8dfa supports little- and big-endian hosts");
inline constexpr bool host_little_endian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
#elif defined(_WIN32)
inline constexpr bool host_little_endian = true;  // every Windows target is little-endian
#elif defined(__cpp_lib_endian)
static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "utf8dfa supports little- and big-endian hosts");
inline constexpr bool host_little_endian = std::endian::native == std::endian::little;
#else
#error "utf8dfa: cannot tell this platform's byte order (no std::endian, no __BYTE_ORDER__)"
#endif

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
