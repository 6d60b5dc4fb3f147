// Instantiates the library's templates with every input type it accepts, so that warnings that only
// appear on instantiation (-Wconversion, -Wsign-conversion, -Wshadow) show up in the strict-headers
// build. Compiled, not run: the behaviour is tested elsewhere.
#include <utf8dfa.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace strict_check {

template <class Bytes>
std::size_t use_bytes(const Bytes& b) {
  std::size_t sum = utf8dfa::validate(b).valid_up_to + (utf8dfa::is_valid(b) ? 1u : 0u);
  sum += std::size_t{utf8dfa::decode_next(b, 0).length} + std::size_t{utf8dfa::decode_prev(b, 1).length};
  sum += utf8dfa::count_code_points(b) + utf8dfa::utf32_length_from_utf8(b) + utf8dfa::utf16_length_from_utf8(b);
  std::vector<char32_t> u32(utf8dfa::utf32_length_from_utf8(b) + 1);
  std::vector<char16_t> u16(utf8dfa::utf16_length_from_utf8(b) + 1);
  sum += utf8dfa::utf8_to_utf32(b, u32.data()).written + utf8dfa::utf8_to_utf16(b, u16.data()).written;
  sum += utf8dfa::utf8_to_utf32(b, u32.data(), utf8dfa::replace{}).written;
  sum += utf8dfa::utf8_to_utf16(b, u16.data(), utf8dfa::assume_valid{}).written;
  utf8dfa::conversion_result status{};
  sum += utf8dfa::to_utf32(b, status).size() + utf8dfa::to_utf16(b, status).size();
  sum += utf8dfa::to_utf32_lossy(b).size() + utf8dfa::to_utf16_lossy(b).size();
  return sum;
}

template <class Byte>
std::size_t use_byte_type() {
  std::array<Byte, 8> buf{};
  std::size_t sum = utf8dfa::encode(U'\u20AC', buf.data());
  sum += utf8dfa::validate(buf.data(), buf.size()).valid_up_to + (utf8dfa::is_valid(buf.data(), buf.size()) ? 1u : 0u);
  sum += utf8dfa::utf16_to_utf8(u"ab", buf.data()).written + utf8dfa::utf32_to_utf8(U"ab", buf.data()).written;
  sum += utf8dfa::utf32_to_utf8(U"\U0010FFFF", buf.data(), utf8dfa::replace{U'?'}).written;
  return sum + use_bytes(buf) + use_bytes(std::vector<Byte>(buf.begin(), buf.end()));
}

std::size_t use_all() {
  std::size_t sum = use_byte_type<char>() + use_byte_type<signed char>() + use_byte_type<unsigned char>() +
                    use_byte_type<std::byte>();
#if UTF8DFA_HAS_CHAR8_T
  sum += use_byte_type<char8_t>() + use_bytes(std::u8string_view(u8"x")) + use_bytes(u8"x");
#endif
  sum += use_bytes(std::string("x")) + use_bytes(std::string_view("x")) + use_bytes("x");
  sum += utf8dfa::to_utf8_lossy(std::u16string_view(u"x")).size() +
         utf8dfa::to_utf8_lossy(std::u32string_view(U"x")).size();
  utf8dfa::conversion_result status{};
  sum += utf8dfa::to_utf8(std::u16string_view(u"x"), status).size() +
         utf8dfa::to_utf8(std::u32string_view(U"x"), status).size();
  sum += utf8dfa::utf8_length_from_utf16(u"x") + utf8dfa::utf8_length_from_utf32(U"x");
  sum += utf8dfa::active_kernel().size() + (utf8dfa::select_kernel("scalar") ? 1u : 0u);
#if UTF8DFA_HAS_EXCEPTIONS
  sum += utf8dfa::to_utf32(std::string("x")).size() + utf8dfa::to_utf16("x").size() + utf8dfa::to_utf8(u"x").size();
#endif
  return sum;
}

}  // namespace strict_check
