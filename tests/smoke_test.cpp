#include <utf8dfa.hpp>

#include "catch.hpp"

namespace utf8dfa_test_smoke {  // the file's own names (the suite also builds as unity sources)

TEST_CASE("RFC 3629 section 7 examples decode") {
  const char s[] = "\x41\xE2\x89\xA2\xCE\x91\x2E";
  utf8dfa::conversion_result status{};  // the non-throwing overload: the suite also builds with -fno-exceptions
  REQUIRE(utf8dfa::to_utf32(s, status) == U"\u0041\u2262\u0391\u002E");
  REQUIRE(status);
}

}  // namespace utf8dfa_test_smoke
