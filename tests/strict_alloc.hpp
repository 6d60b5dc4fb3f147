// The strict allocating converters for well-formed test input: utf8dfa::to_utf32/to_utf16/to_utf8
// (which throw on ill-formed input) when the build has exceptions, else their status overloads
// with the status checked. So these checks also run in -fno-exceptions builds.
#ifndef UTF8DFA_TESTS_STRICT_ALLOC_HPP
#define UTF8DFA_TESTS_STRICT_ALLOC_HPP

#include <utf8dfa.hpp>

#include "catch.hpp"

namespace strict_alloc {

#if UTF8DFA_HAS_EXCEPTIONS
template <class In>
std::u32string to_utf32(const In& in) {
  return utf8dfa::to_utf32(in);
}
template <class In>
std::u16string to_utf16(const In& in) {
  return utf8dfa::to_utf16(in);
}
template <class In>
std::string to_utf8(const In& in) {
  return utf8dfa::to_utf8(in);
}
#else
template <class In>
std::u32string to_utf32(const In& in) {
  utf8dfa::conversion_result status{};
  std::u32string out = utf8dfa::to_utf32(in, status);
  CHECK(status);
  return out;
}
template <class In>
std::u16string to_utf16(const In& in) {
  utf8dfa::conversion_result status{};
  std::u16string out = utf8dfa::to_utf16(in, status);
  CHECK(status);
  return out;
}
template <class In>
std::string to_utf8(const In& in) {
  utf8dfa::conversion_result status{};
  std::string out = utf8dfa::to_utf8(in, status);
  CHECK(status);
  return out;
}
#endif

}  // namespace strict_alloc

#endif
