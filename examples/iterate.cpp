// Iterating over the code points of UTF-8 text, forwards and backwards.
//
//   iterate ["text"]      (a built-in sample with some ill-formed bytes when no argument is given)
#include <cstdio>
#include <string>
#include <string_view>

#include <utf8dfa.hpp>

int main(int argc, char** argv) {
  const std::string text =
      argc > 1 ? argv[1]
               : "Gr\xC3\xBC\xC3\x9F Gott \xF0\x9F\x91\x8B, \xCE\xBA\xCF\x8C\xCF\x83\xCE\xBC\xCE\xB5 \xC0\xAF!";

  // Each code point with the byte offset where it starts; ill-formed bytes come out as U+FFFD,
  // one per maximal ill-formed subpart.
  const auto cps = utf8dfa::code_points(text);
  for (auto it = cps.begin(); it != cps.end(); ++it)
    std::printf("byte %2td: U+%04X (%zu byte%s)\n", it.base() - text.data(), static_cast<unsigned>(*it), it.length(),
                it.length() == 1 ? "" : "s");

  // The same sequence backwards.
  std::printf("reversed:");
  for (auto it = cps.end(); it != cps.begin();) std::printf(" U+%04X", static_cast<unsigned>(*--it));
  std::printf("\n");

  // Cutting to at most 10 bytes without splitting a character.
  const std::size_t cut = utf8dfa::truncate(text, 10);
  std::printf("first %zu bytes: %.*s\n", cut, static_cast<int>(cut), text.data());
  return 0;
}
