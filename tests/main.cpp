// The test runner: Catch2's session, after saying which kernel the library dispatches to
// (UTF8DFA_KERNEL forces one). With UTF8DFA_TEST_EXPECT_KERNEL set, a run on any other kernel fails:
// a forced kernel the CPU lacks would otherwise fall back to the best one silently.
// Built unoptimised (the top-level CMakeLists.txt), so it uses no library code itself:
// tests/active_kernel.cpp asks the library.
#if __has_include(<catch2/catch_session.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#if defined(__wasi__)
#define CATCH_CONFIG_NO_POSIX_SIGNALS  // WASI has no signals (a fault traps the whole module)
#endif
#include <catch2/catch.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>

const char* utf8dfa_tests_active_kernel();

int main(int argc, char* argv[]) {
  const char* kernel = utf8dfa_tests_active_kernel();
  std::printf("utf8dfa_tests: kernel %s\n", kernel);
  const char* expected = std::getenv("UTF8DFA_TEST_EXPECT_KERNEL");
  if (expected != nullptr && *expected != '\0' && std::strcmp(expected, kernel) != 0) {
    std::fprintf(stderr, "utf8dfa_tests: expected the %s kernel, the library runs %s\n", expected, kernel);
    return 1;
  }
  return Catch::Session().run(argc, argv);
}
