// Fuzz target: iterating code_points() forwards and backwards gives the reference lossy decode
// (one U+FFFD per maximal ill-formed subpart) and its reverse, over contiguous memory (decode_at /
// decode_before) and over a std::list<char> (the byte-at-a-time DFA path); base() walks the same
// character boundaries as decode_next.
#include <utf8dfa/iterator.hpp>
#include <utf8dfa/views.hpp>

#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <vector>

#include "reference.hpp"

namespace fuzz_iterator {

template <class View>
void check(const View& view, const std::u32string& lossy) {
  std::u32string fwd;
  for (char32_t c : view) fwd.push_back(c);
  FUZZ_CHECK(fwd == lossy);
  std::u32string back;
  auto it = view.end();
  const auto first = view.begin();
  while (it != first) {
    --it;
    back.push_back(*it);
    FUZZ_CHECK(back.size() <= lossy.size());
  }
  FUZZ_CHECK(std::u32string(back.rbegin(), back.rend()) == lossy);
}

}  // namespace fuzz_iterator

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::u32string lossy = fuzzref::decode_lossy(data, size);
  fuzz_iterator::check(utf8dfa::code_points(text), lossy);
  const std::list<char> bytes(text.begin(), text.end());
  fuzz_iterator::check(utf8dfa::code_points(bytes), lossy);
  // base() steps through the same boundaries as the reference segmentation.
  const auto view = utf8dfa::code_points(text);
  std::size_t i = 0;
  for (auto it = view.begin(); it != view.end(); ++it) {
    FUZZ_CHECK(static_cast<std::size_t>(it.base() - text.data()) == i);
    i += fuzzref::decode(data, size, i).length;
  }
  FUZZ_CHECK(i == size);
  return 0;
}
