// Inputs both halves of the ODR test validate: well-formed text of several lengths and scripts,
// and one error of each kind placed before, inside and after the first 64-byte block.
#ifndef UTF8DFA_TESTS_ODR_INPUTS_HPP
#define UTF8DFA_TESTS_ODR_INPUTS_HPP

#include <string>
#include <vector>

inline std::vector<std::string> odr_inputs() {
  const std::string texts[] = {"plain ASCII text, long enough to fill a few blocks of every vector width. ",
                               "\xC3\xA9t\xC3\xA9 \xD0\x96\xD0\xB8\xD0\xB7\xD0\xBD\xD1\x8C ",
                               "\xE4\xB8\xAD\xE6\x96\x87 \xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4 ",
                               "\xF0\x9F\x98\x80\xF0\x9F\x8C\x8D "};
  const std::string errors[] = {"\x80", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                "\xF5", "\xE2\x82", "\xC2"};
  std::vector<std::string> out;
  for (const std::string& t : texts) {
    std::string s;
    while (s.size() < 300) s += t;
    out.push_back(s);
    for (const std::string& e : errors)
      for (std::size_t at : {std::size_t{3}, std::size_t{61}, std::size_t{130}, s.size()}) {
        std::string bad = s;
        bad.insert(at, e);
        out.push_back(bad);
      }
  }
  return out;
}

#endif
