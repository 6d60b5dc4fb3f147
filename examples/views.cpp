// Lazy transcoding views: UTF-8, UTF-16 and UTF-32 into each other, one code unit at a time, with
// the ill-formed input reported where it is replaced. Exits 1 if a view disagrees with the bulk
// conversions (the program doubles as a test).
//
//   views ["text"]      (a built-in sample with some ill-formed bytes when no argument is given)
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>

#include <utf8dfa.hpp>

int main(int argc, char** argv) {
  const std::string text =
      argc > 1 ? argv[1] : "Gr\xC3\xBC\xC3\x9F \xF0\x9F\x91\x8B \xC0\xAF \xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA";
  int status = 0;

  // UTF-8 to UTF-16, with each replacement reported as it is met (no second pass).
  const auto u16 = utf8dfa::as_utf16(text);
  std::u16string out;
  for (auto it = u16.begin(); it != u16.end(); ++it) {
    out.push_back(*it);
    if (const utf8dfa::input_error e = it.error())
      std::printf("byte %zu: %zu byte%s replaced (%s)\n", e.offset, e.length, e.length == 1 ? "" : "s",
                  std::string(utf8dfa::error_name(e.code)).c_str());
  }
  std::printf("%zu UTF-8 bytes -> %zu UTF-16 units\n", text.size(), out.size());
  if (out != utf8dfa::to_utf16_lossy(text)) status = 1;

  // Or in one line (C++17): any view's begin() and end() build a string.
  const std::u16string same(u16.begin(), u16.end());
  if (same != out) status = 1;

  // UTF-16 back to UTF-8, and to UTF-32 backwards (the views over contiguous input are bidirectional).
  const auto u8 = utf8dfa::as_utf8(out);
  const std::string round(u8.begin(), u8.end());
  std::printf("UTF-8 again: %s\n", round.c_str());
  const auto u32 = utf8dfa::as_utf32(out);
  std::printf("UTF-32 reversed:");
  for (auto it = u32.end(); it != u32.begin();) std::printf(" U+%04X", static_cast<unsigned>(*--it));
  std::printf("\n");

  // Strict: the iteration ends at the first ill-formed subpart; the iterator says where and why.
  const auto checked = utf8dfa::as_utf32(text, utf8dfa::strict{});
  auto it = checked.begin();
  std::size_t n = 0;
  for (; it != checked.end(); ++it) ++n;
  const utf8dfa::input_error e = it.error();
  std::printf("strict: %zu code points, then %s at byte %zu\n", n, std::string(utf8dfa::error_name(e.code)).c_str(),
              e.offset);
  if (e.offset != utf8dfa::validate(text).valid_up_to) status = 1;

  // A null-terminated UTF-16 string, read up to its terminator (no length pass), '?' for errors.
  const char16_t* wide = u"\xD83D\xDE00 \xDC00!";
  std::string narrow;
  for (char c : utf8dfa::as_utf8(wide, utf8dfa::replace{U'?'})) narrow.push_back(c);
  std::printf("from UTF-16: %s\n", narrow.c_str());
  if (narrow != "\xF0\x9F\x98\x80 ?!") status = 1;

#if UTF8DFA_HAS_RANGES_VIEWS
  // C++20: the views compose with std::views.
  std::size_t non_ascii = 0;
  for (char16_t c : utf8dfa::as_utf16(text) | std::views::filter([](char16_t c) { return c >= 0x80; })) {
    (void)c;
    ++non_ascii;
  }
  std::printf("non-ASCII UTF-16 units: %zu\n", non_ascii);
  // Into a container: std::ranges::copy (C++23 also has std::ranges::to<std::u16string>(u16)).
  std::u16string copied;
  std::ranges::copy(u16, std::back_inserter(copied));
  if (copied != out) status = 1;
#if defined(__cpp_lib_ranges_to_container) && __cpp_lib_ranges_to_container >= 202202L
  if (std::ranges::to<std::u16string>(u16) != out) status = 1;
#endif
#endif
  return status;
}
