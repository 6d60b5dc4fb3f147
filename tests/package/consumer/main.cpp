#include <utf8dfa.hpp>

#include <cstdio>
#include <string>

int main() {
  const std::string good = "h\xC3\xA9llo w\xC3\xB6rld \xF0\x9F\x98\x80 ";
  const std::string text = good + "\xC0\xAF";  // C0 AF: an overlong '/', ill-formed
  const utf8dfa::validation_result r = utf8dfa::validate(text);
#if defined(UTF8DFA_SEPARATE_COMPILATION)
  const char* const mode = "compiled library";  // the kernels come from utf8dfa_compiled (or UTF8DFA_IMPLEMENTATION)
#else
  const char* const mode = "header-only";
#endif
  std::printf("utf8dfa %d.%d.%d (%s): valid up to byte %zu of %zu; %zu code points after lossy decoding\n",
              UTF8DFA_VERSION_MAJOR, UTF8DFA_VERSION_MINOR, UTF8DFA_VERSION_PATCH, mode, r.valid_up_to, text.size(),
              utf8dfa::to_utf32_lossy(text).size());
  return !r && r.valid_up_to == good.size() ? 0 : 1;
}
