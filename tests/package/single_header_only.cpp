// In the single-header build the utf8dfa target offers <utf8dfa.hpp>, the generated single header,
// and no <utf8dfa/...> header: the test suite really runs on the single header alone.
#include <utf8dfa.hpp>

#if __has_include(<utf8dfa/version.hpp>) || __has_include(<utf8dfa/detail/dfa.hpp>)
#error "the single-header build can see the individual headers"
#endif

static_assert(UTF8DFA_VERSION >= 0, "the single header defines the version");
