// utf8dfa: byte order marks and encoding detection. detect_bom reads the mark that starts some bytes;
// detect_encodings says which of the encodings the library reads the bytes are well-formed in, with
// the library's own validators (UTF-8 through the run-time dispatched kernels). Neither guesses: bytes
// valid in several encodings are reported valid in each, and the caller (or a BOM) decides.
#ifndef UTF8DFA_DETECT_HPP
#define UTF8DFA_DETECT_HPP

#include <cstddef>
#include <cstdint>

#include "detail/bytes.hpp"
#include "utf16.hpp"
#include "validate.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// The encodings detect_bom and detect_encodings name (`none`: no BOM).
enum class encoding : std::uint8_t { none, utf8, utf16le, utf16be, utf32le, utf32be, latin1 };

/// A byte order mark: which encoding it announces and its length in bytes ({none, 0} when there is none).
struct bom_result {
  utf8dfa::encoding encoding;
  std::size_t length;
};

/// The byte order mark `bytes` starts with: EF BB BF (UTF-8, 3 bytes), FF FE 00 00 (UTF-32LE, 4),
/// 00 00 FE FF (UTF-32BE, 4), FF FE (UTF-16LE, 2), FE FF (UTF-16BE, 2). FF FE 00 00 is read as
/// UTF-32LE, not as UTF-16LE's mark followed by U+0000; a mark cut short is no mark ({none, 0}).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr bom_result detect_bom(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  const auto starts = [&s](unsigned b0, unsigned b1, unsigned b2, unsigned b3, std::size_t len) {
    const unsigned b[4] = {b0, b1, b2, b3};
    for (std::size_t i = 0; i < len; ++i)
      if (i >= s.size || detail::octet(s.data[i]) != b[i]) return false;
    return true;
  };
  if (starts(0xEF, 0xBB, 0xBF, 0, 3)) return {encoding::utf8, 3};
  if (starts(0xFF, 0xFE, 0x00, 0x00, 4)) return {encoding::utf32le, 4};
  if (starts(0x00, 0x00, 0xFE, 0xFF, 4)) return {encoding::utf32be, 4};
  if (starts(0xFF, 0xFE, 0, 0, 2)) return {encoding::utf16le, 2};
  if (starts(0xFE, 0xFF, 0, 0, 2)) return {encoding::utf16be, 2};
  return {encoding::none, 0};
}

/// Same, for a pointer and a length.
template <class T, detail::enable_if_byte<T> = 0>
constexpr bom_result detect_bom(const T* data, std::size_t size) noexcept {
  return detect_bom(detail::byte_span_range<T>{data, size});
}

/// A set of encodings (a bitmask): what detect_encodings returns.
class encoding_set {
 public:
  /// The empty set.
  constexpr encoding_set() noexcept = default;
  /// True when `e` is in the set (never for encoding::none).
  constexpr bool contains(encoding e) const noexcept { return (bits_ & bit(e)) != 0; }
  /// Adds `e` (encoding::none adds nothing).
  constexpr encoding_set& insert(encoding e) noexcept {
    bits_ = static_cast<std::uint8_t>(bits_ | bit(e));
    return *this;
  }
  constexpr bool empty() const noexcept { return bits_ == 0; }
  /// Number of encodings in the set.
  constexpr std::size_t size() const noexcept { return detail::popcount64(bits_); }
  /// The set as bits: bit k stands for the encoding of value k.
  constexpr std::uint8_t bits() const noexcept { return bits_; }
  friend constexpr bool operator==(encoding_set a, encoding_set b) noexcept { return a.bits_ == b.bits_; }
  friend constexpr bool operator!=(encoding_set a, encoding_set b) noexcept { return a.bits_ != b.bits_; }

 private:
  static constexpr std::uint8_t bit(encoding e) noexcept {
    return e == encoding::none ? std::uint8_t{0} : static_cast<std::uint8_t>(1u << static_cast<unsigned>(e));
  }
  std::uint8_t bits_ = 0;
};

/// The encodings `bytes` is well-formed in: utf8 (validate), utf16le / utf16be (an even length, no
/// unpaired surrogate), utf32le / utf32be (a length that is a multiple of 4, every unit a scalar
/// value), and latin1 always. A BOM is data here (U+FEFF is valid in each); empty input is in all six.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
encoding_set detect_encodings(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  const unsigned char* p = detail::as_uchars(s.data);
  const std::size_t n = s.size;
  encoding_set set;
  set.insert(encoding::latin1);
  if (is_valid(bytes)) set.insert(encoding::utf8);
  if (n % 2 == 0) {
    if (detail::validate_stored<true, char16_t>(p, n / 2)) set.insert(encoding::utf16le);
    if (detail::validate_stored<false, char16_t>(p, n / 2)) set.insert(encoding::utf16be);
  }
  if (n % 4 == 0) {
    if (detail::validate_stored<true, char32_t>(p, n / 4)) set.insert(encoding::utf32le);
    if (detail::validate_stored<false, char32_t>(p, n / 4)) set.insert(encoding::utf32be);
  }
  return set;
}

/// Same, for a pointer and a length.
template <class T, detail::enable_if_byte<T> = 0>
encoding_set detect_encodings(const T* data, std::size_t size) noexcept {
  return detect_encodings(detail::byte_span_range<T>{data, size});
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
