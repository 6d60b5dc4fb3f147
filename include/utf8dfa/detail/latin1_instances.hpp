// utf8dfa: the explicit instantiations of the Latin-1 string conversions that latin1.hpp declares
// `extern template` with UTF8DFA_SEPARATE_COMPILATION, compiled once in the UTF8DFA_IMPLEMENTATION
// unit: latin1.hpp includes this at its end, and <utf8dfa/src.hpp> directly (latin1.hpp may have
// come before it, without UTF8DFA_IMPLEMENTATION). Not in string_instances.hpp: transcode.hpp
// includes that one at its end, which may be while latin1.hpp, which includes transcode.hpp, has
// not declared its own functions yet.
#ifndef UTF8DFA_DETAIL_LATIN1_INSTANCES_HPP
#define UTF8DFA_DETAIL_LATIN1_INSTANCES_HPP

#include "../latin1.hpp"

#if defined(UTF8DFA_SEPARATE_COMPILATION) && defined(UTF8DFA_IMPLEMENTATION)

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

template std::string latin1_to_string<std::string>(const unsigned char*, std::size_t);
template std::u16string latin1_to_string<std::u16string>(const unsigned char*, std::size_t);
template std::u32string latin1_to_string<std::u32string>(const unsigned char*, std::size_t);
template std::string to_latin1_string<strict, unsigned char>(const unsigned char*, std::size_t, strict,
                                                             conversion_result&);
template std::string to_latin1_string<replace, unsigned char>(const unsigned char*, std::size_t, replace,
                                                              conversion_result&);
template std::string to_latin1_string<skip, unsigned char>(const unsigned char*, std::size_t, skip, conversion_result&);
template std::string to_latin1_string<strict, char16_t>(const char16_t*, std::size_t, strict, conversion_result&);
template std::string to_latin1_string<replace, char16_t>(const char16_t*, std::size_t, replace, conversion_result&);
template std::string to_latin1_string<skip, char16_t>(const char16_t*, std::size_t, skip, conversion_result&);
template std::string to_latin1_string<strict, char32_t>(const char32_t*, std::size_t, strict, conversion_result&);
template std::string to_latin1_string<replace, char32_t>(const char32_t*, std::size_t, replace, conversion_result&);
template std::string to_latin1_string<skip, char32_t>(const char32_t*, std::size_t, skip, conversion_result&);

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif

#endif
