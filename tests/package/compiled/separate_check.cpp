// Linking utf8dfa::utf8dfa_compiled puts its users in the separate compilation mode.
#include <utf8dfa.hpp>

#if !defined(UTF8DFA_SEPARATE_COMPILATION)
#error "utf8dfa::utf8dfa_compiled did not define UTF8DFA_SEPARATE_COMPILATION for its users"
#endif
