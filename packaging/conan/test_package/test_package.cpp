// Conan's test_package: the installed package compiles, links and decodes.
#include <utf8dfa.hpp>

#include <cstdio>
#include <string>

int main() {
  const bool ok = utf8dfa::is_valid("caf\xC3\xA9") && !utf8dfa::is_valid("\xED\xA0\x80");
#if defined(UTF8DFA_SEPARATE_COMPILATION)
  const char* const mode = "compiled library";  // the default package
#else
  const char* const mode = "header-only";  // -o utf8dfa/*:header_only=True
#endif
  std::printf("utf8dfa %d.%d.%d (%s, %s kernel): %s\n", UTF8DFA_VERSION_MAJOR, UTF8DFA_VERSION_MINOR,
              UTF8DFA_VERSION_PATCH, mode, std::string(utf8dfa::active_kernel()).c_str(), ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
