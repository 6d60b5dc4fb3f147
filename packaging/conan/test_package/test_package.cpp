// Conan's test_package: the installed package compiles, links and decodes.
#include <utf8dfa.hpp>

#include <cstdio>
#include <string>

int main() {
  const bool ok = utf8dfa::is_valid("caf\xC3\xA9") && !utf8dfa::is_valid("\xED\xA0\x80");
  std::printf("utf8dfa %d.%d.%d (%s kernel): %s\n", UTF8DFA_VERSION_MAJOR, UTF8DFA_VERSION_MINOR, UTF8DFA_VERSION_PATCH,
              std::string(utf8dfa::active_kernel()).c_str(), ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
