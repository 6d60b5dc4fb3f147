// Prints the kernels this CPU supports, best first (run at configure time to choose the kernels
// the test suite runs under).
#include <utf8dfa.hpp>

#include <cstdio>

int main() {
  std::size_t count = 0;
  const utf8dfa::detail::kernel_table* const* list = utf8dfa::detail::available_kernels(count);
  for (std::size_t k = 0; k < count; ++k) std::printf("%s%s", k ? ";" : "", list[k]->name);
  return 0;
}
