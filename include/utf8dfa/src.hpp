// utf8dfa: the kernels compiled once, for UTF8DFA_SEPARATE_COMPILATION builds (config.hpp). Include
// this header in exactly one source file of the program, e.g. a utf8dfa.cpp holding only
//
//   #include <utf8dfa/src.hpp>
//
// with UTF8DFA_SEPARATE_COMPILATION defined there as everywhere else (CMake users link
// utf8dfa::utf8dfa_compiled instead, which does this). With the single header, the same file is
// `#define UTF8DFA_IMPLEMENTATION` then `#include "utf8dfa.hpp"`.
#ifndef UTF8DFA_SRC_HPP
#define UTF8DFA_SRC_HPP

#include "config.hpp"

#if !defined(UTF8DFA_SEPARATE_COMPILATION)
#error "<utf8dfa/src.hpp> is for builds that define UTF8DFA_SEPARATE_COMPILATION in every translation unit"
#endif

// The kernels (detail/kernel_list.hpp) and the explicit instantiations of what the headers declare
// `extern template` in this mode (the string conversions of transcode.hpp).
#if !defined(UTF8DFA_IMPLEMENTATION)
#define UTF8DFA_IMPLEMENTATION 1
#endif
#include "detail/dispatch.hpp"
#include "detail/kernel_list.hpp"
#include "transcode.hpp"

#endif
