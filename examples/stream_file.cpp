// Streams a file (or stdin) through utf8dfa::decoder in small chunks and reports what it holds:
// code points, lines, characters outside ASCII, and where the first ill-formed subpart is. A
// character cut by a chunk boundary is carried over by the decoder, so the chunk size never
// changes the result.
//
//   stream_file [FILE]
#include <utf8dfa.hpp>

#include <cstdio>
#include <string>
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
  std::FILE* f = argc > 1 ? std::fopen(argv[1], "rb") : stdin;
  if (f == nullptr) {
    std::perror(argv[1]);
    return 1;
  }

  // replace: one U+FFFD per maximal ill-formed subpart; utf8dfa::strict would stop at the first.
  utf8dfa::decoder<utf8dfa::replace> decoder;
  using dec = decltype(decoder);
  char bytes[4096];
  char32_t text[dec::max_output(sizeof bytes)];  // room for what one chunk can produce
  std::size_t code_points = 0, lines = 0, non_ascii = 0, replaced = 0;

  auto tally = [&](const char32_t* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      lines += out[i] == U'\n';
      non_ascii += out[i] >= 0x80;
      replaced += out[i] == utf8dfa::replacement_character;
    }
    code_points += n;
  };

  std::size_t n;
  while ((n = std::fread(bytes, 1, sizeof bytes, f)) != 0) {
    const auto r = decoder.feed(bytes, n, text);  // r.written units in text[0..)
    tally(text, r.written);
  }
  const auto r = decoder.finish(text);  // an unfinished last character becomes one U+FFFD
  tally(text, r.written);
  if (f != stdin) std::fclose(f);

  std::printf("%zu code points, %zu lines, %zu outside ASCII, %zu replaced\n", code_points, lines, non_ascii, replaced);
  const utf8dfa::validation_result status = decoder.result();
  if (!status) {
    std::printf("first ill-formed subpart: byte %zu, %zu byte(s), %s\n", status.valid_up_to, status.error_length,
                std::string(utf8dfa::error_name(status.error)).c_str());
    return 1;
  }
  return 0;
}
