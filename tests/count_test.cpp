// count_code_points: the number of bytes that are not continuation bytes (its documented meaning);
// on well-formed input the number of scalar values, on any input compared with the lossy count.
#include <cstddef>
#include <random>
#include <string>

#include <utf8dfa.hpp>

#include "catch.hpp"
#include "reference/check.hpp"

namespace utf8dfa_test_count {  // the file's own names (the suite also builds as unity sources)

using namespace utf8dfa_check;

TEST_CASE("count_code_points on well-formed input is the number of characters", "[count]") {
  std::mt19937 rng(1996);
  std::size_t bad = 0;
  for (int i = 0; i < 5000; ++i) {
    const std::size_t chars = rng() % 300;
    const std::string s = std::string(rng() % 70, 'z') + random_valid(rng, chars);
    const std::size_t want = utf8dfa_ref::decode_lossy(s).size();
    bad += utf8dfa::count_code_points(s) != want || utf8dfa::utf32_length_from_utf8(s) != want;
  }
  CHECK(bad == 0);
  CHECK(utf8dfa::count_code_points(std::string_view{}) == 0);
  CHECK(utf8dfa::count_code_points("\x41\xE2\x89\xA2\xCE\x91\x2E") == 4);
}

TEST_CASE("count_code_points on any input counts the bytes that are not 80..BF", "[count]") {
  std::mt19937 rng(1997);
  std::size_t bad = 0, lossy_bad = 0;
  for (int i = 0; i < 5000; ++i) {
    const std::string s = i % 2 ? random_bytes(rng, rng() % 300) : random_mix(rng, rng() % 20);
    std::size_t leads = 0;
    for (unsigned char c : s) leads += !(c >= 0x80 && c <= 0xBF);
    bad += utf8dfa::count_code_points(s) != leads;
    // What counts characters of ill-formed input is the lossy length.
    lossy_bad += utf8dfa::utf32_length_from_utf8(s) != utf8dfa_ref::decode_lossy(s).size();
  }
  CHECK(bad == 0);
  CHECK(lossy_bad == 0);
}

}  // namespace utf8dfa_test_count
