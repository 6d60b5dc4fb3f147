// Every input of 1, 2 and 3 bytes in every dialect: validate's verdict (offset, length, kind) and
// decode_next's segments (value, length, kind) walked from the start, against
// tests/reference/dialects.hpp (decode_prev's segments too, up to 2 bytes; dialect_test.cpp checks
// them from 3 bytes on).
#include <chrono>
#include <cstdio>

#include <utf8dfa.hpp>

#include "catch.hpp"
#include "reference/dialect_check.hpp"
#include "sample.hpp"

namespace utf8dfa_test_dialect_exhaustive {  // the file's own names (the suite also builds as unity sources)

namespace {

using namespace utf8dfa_dialect_check;

template <class D>
void exhaustive_short() {
  const auto t0 = std::chrono::steady_clock::now();
  tally t;
  unsigned char s[3];
  for (unsigned a = 0; a < 256; ++a) {
    s[0] = static_cast<unsigned char>(a);
    t.add(check_input<D>(s, 1, true));
    for (unsigned b = 0; b < 256; ++b) {
      s[1] = static_cast<unsigned char>(b);
      t.add(check_input<D>(s, 2, true));
      if (!utf8dfa_sample::keep(a, b)) continue;
      for (unsigned c = 0; c < 256; ++c) {
        s[2] = static_cast<unsigned char>(c);
        t.add(check_input<D>(s, 3, false));
      }
    }
  }
  std::printf("dialect %-6s: %zu inputs of 1-3 bytes in %.2f s\n", dref::name(ref_of<D>()), t.inputs,
              utf8dfa_check::seconds_since(t0));
  INFO(t.first);
  CHECK(t.inputs == 256 + 256 * 256 + utf8dfa_sample::inputs_of_length(3));
  CHECK(t.failures == 0);
}

}  // namespace

TEST_CASE("dialects: validate and decode agree with the reference on every input of 1-3 bytes",
          "[dialect][exhaustive]") {
  // dialect::utf8 is validate(bytes) and decode_next(bytes, pos), checked on these inputs against
  // the ABNF reference by validate_test.cpp and decode_test.cpp; here from 3 bytes on (below).
  exhaustive_short<dialect::wtf8>();
  exhaustive_short<dialect::cesu8>();
  exhaustive_short<dialect::mutf8>();
  exhaustive_short<dialect::legacy>();
}

}  // namespace utf8dfa_test_dialect_exhaustive
