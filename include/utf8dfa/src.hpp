// utf8dfa: the kernels compiled once, for UTF8DFA_SEPARATE_COMPILATION builds (config.hpp). Include
// this header in exactly one source file of the program, e.g. a utf8dfa.cpp holding only
//
//   #include <utf8dfa/src.hpp>
//
// with UTF8DFA_SEPARATE_COMPILATION defined there as everywhere else (the CMake targets
// utf8dfa::utf8dfa, by default, and utf8dfa::utf8dfa_compiled do this for their users). With the
// single header, the same file is `#define UTF8DFA_IMPLEMENTATION` then `#include "utf8dfa.hpp"`.
#ifndef UTF8DFA_SRC_HPP
#define UTF8DFA_SRC_HPP

#include "config.hpp"

#if !defined(UTF8DFA_SEPARATE_COMPILATION)
#error "<utf8dfa/src.hpp> is for builds that define UTF8DFA_SEPARATE_COMPILATION in every translation unit"
#endif

// The kernels (detail/kernel_list.hpp) and the explicit instantiations of what the headers declare
// `extern template` in this mode (detail/string_instances.hpp: the string conversions of
// transcode.hpp; detail/latin1_instances.hpp: those of latin1.hpp); all are included here directly,
// so that they are compiled even where a header was included before this one.
#if !defined(UTF8DFA_IMPLEMENTATION)
#define UTF8DFA_IMPLEMENTATION 1
#endif
#include "detail/dispatch.hpp"
#include "detail/kernel_list.hpp"
#include "detail/latin1_instances.hpp"
#include "detail/string_instances.hpp"

#endif
