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

template std::u16string utf8_to_string<std::u16string>(const unsigned char*, std::size_t, char32_t, conversion_result&);
template std::u32string utf8_to_string<std::u32string>(const unsigned char*, std::size_t, char32_t, conversion_result&);
template std::string utf_to_utf8_string<char16_t>(const char16_t*, std::size_t, char32_t, conversion_result&);
template std::string utf_to_utf8_string<char32_t>(const char32_t*, std::size_t, char32_t, conversion_result&);

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif

#endif
