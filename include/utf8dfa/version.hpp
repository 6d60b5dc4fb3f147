// utf8dfa: version macros. CMake reads the version from this file; it is the single source of truth.
#ifndef UTF8DFA_VERSION_HPP
#define UTF8DFA_VERSION_HPP

#define UTF8DFA_VERSION_MAJOR 0
#define UTF8DFA_VERSION_MINOR 1
#define UTF8DFA_VERSION_PATCH 0

/// The version as one integer: major * 10000 + minor * 100 + patch.
#define UTF8DFA_VERSION (UTF8DFA_VERSION_MAJOR * 10000 + UTF8DFA_VERSION_MINOR * 100 + UTF8DFA_VERSION_PATCH)

/// Every declaration lives in `namespace utf8dfa::inline UTF8DFA_ABI_NAMESPACE`, named for the
/// major and minor version, so two incompatible versions in one program fail to link instead of
/// silently mixing. Changed together with the version (tests/version_test.cpp checks it).
#define UTF8DFA_ABI_NAMESPACE v0_1

#endif
