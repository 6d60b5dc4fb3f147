#include <utf8dfa.hpp>

#include <cstdio>
#include <string_view>

int main() {
  std::string_view text = "h\xC3\xA9llo w\xC3\xB6rld \xF0\x9F\x98\x80 \xC0\xAF";
  utf8dfa::validation_result r = utf8dfa::validate(text);
  std::printf("utf8dfa %d.%d.%d: valid up to byte %zu of %zu; %zu code points after lossy decoding\n",
              UTF8DFA_VERSION_MAJOR, UTF8DFA_VERSION_MINOR, UTF8DFA_VERSION_PATCH, r.valid_up_to, text.size(),
              utf8dfa::to_utf32_lossy(text).size());
  return r.valid_up_to == 19 && !r ? 0 : 1;
}
