// The second translation unit of the link_twice program (see link_twice_a.cpp).
#include <utf8dfa.hpp>

#include <string_view>

std::size_t link_twice_b(std::string_view s) {
  return utf8dfa::to_utf32_lossy(s).size();
}
