// utf8dfa: the explicit instantiations of the string conversions that transcode.hpp declares
// `extern template` with UTF8DFA_SEPARATE_COMPILATION, compiled once in the UTF8DFA_IMPLEMENTATION
// unit (<utf8dfa/src.hpp> includes this after transcode.hpp, whatever was included before it).
#ifndef UTF8DFA_DETAIL_STRING_INSTANCES_HPP
#define UTF8DFA_DETAIL_STRING_INSTANCES_HPP

#include "../transcode.hpp"

#if defined(UTF8DFA_SEPARATE_COMPILATION)

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

#if defined(UTF8DFA_DETAIL_SET_LENGTH_UNWRITTEN)
// libstdc++'s basic_string::_M_set_length(n) (private: it sets the length and writes the terminator)
// named in an explicit instantiation, where access is not checked ([temp.spec.general]); the
// instantiation defines a friend that hands the member out. Such an instantiation may appear once
// per program: this unit is the one.
template <class Tag, typename Tag::type Member>
struct member_access {
  friend typename Tag::type member_of(Tag) noexcept { return Member; }
};
struct set_length_8 {
  using type = void (std::string::*)(std::string::size_type);
  friend type member_of(set_length_8) noexcept;
};
struct set_length_16 {
  using type = void (std::u16string::*)(std::u16string::size_type);
  friend type member_of(set_length_16) noexcept;
};
struct set_length_32 {
  using type = void (std::u32string::*)(std::u32string::size_type);
  friend type member_of(set_length_32) noexcept;
};
template struct member_access<set_length_8, &std::string::_M_set_length>;
template struct member_access<set_length_16, &std::u16string::_M_set_length>;
template struct member_access<set_length_32, &std::u32string::_M_set_length>;

void set_length_unwritten(std::string& s, std::size_t n) noexcept {
  (s.*member_of(set_length_8{}))(n);
}
void set_length_unwritten(std::u16string& s, std::size_t n) noexcept {
  (s.*member_of(set_length_16{}))(n);
}
void set_length_unwritten(std::u32string& s, std::size_t n) noexcept {
  (s.*member_of(set_length_32{}))(n);
}
#endif

template std::u16string utf8_to_string<std::u16string>(const unsigned char*, std::size_t, char32_t, conversion_result&);
template std::u32string utf8_to_string<std::u32string>(const unsigned char*, std::size_t, char32_t, conversion_result&);
template std::string utf_to_utf8_string<char16_t>(const char16_t*, std::size_t, char32_t, conversion_result&);
template std::string utf_to_utf8_string<char32_t>(const char32_t*, std::size_t, char32_t, conversion_result&);

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif

#endif
