// Sanitizing untrusted input: read bytes from stdin, write well-formed UTF-8 to stdout.
//
//   sanitize_input [MAX_BYTES] < in > out
//
// A leading byte order mark is dropped, every maximal ill-formed subpart becomes U+FFFD, control
// characters (C0, DEL, C1) other than tab and newline are dropped, and the output is cut to at most
// MAX_BYTES bytes (default 4096) on a character boundary. The count of U+FFFD goes to stderr.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>

#include <utf8dfa.hpp>
#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#endif

int main(int argc, char** argv) {
#if defined(_WIN32)
  // Bytes as they are: text mode would turn CR LF into LF and end the input at a Ctrl-Z byte.
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
#endif
  const std::size_t max_bytes = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 4096;

  // Decode while reading: the view over istreambuf_iterator is single-pass and never buffers the input.
  std::string clean;
  auto out = utf8dfa::utf8_output(std::back_inserter(clean));
  std::size_t replacements = 0, count = 0;
  for (char32_t c : utf8dfa::code_points(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>())) {
    if (count++ == 0 && c == U'\uFEFF') continue;  // the BOM
    const bool control = c < 0x20 || (c >= 0x7F && c < 0xA0);
    if (control && c != U'\t' && c != U'\n') continue;
    replacements += c == utf8dfa::replacement_character;
    *out++ = c;
    if (clean.size() > max_bytes) break;
  }
  clean.resize(utf8dfa::truncate(clean, max_bytes));

  std::cout << clean;
  std::fprintf(stderr, "%zu U+FFFD in the output\n", replacements);
  return 0;
}
