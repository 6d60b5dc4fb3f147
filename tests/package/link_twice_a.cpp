// Two translation units include the library and are linked into one program: every definition in
// the headers must be inline (or a template), or this fails to link. Both TUs also use the kernel
// table, so the function-local statics behind dispatch must be one object program-wide.
#include <utf8dfa.hpp>

#include <cstdio>
#include <string_view>

std::size_t link_twice_b(std::string_view s);

int main() {
  const std::string_view s = "\xC3\xA9t\xC3\xA9";
  const bool ok = utf8dfa::is_valid(s) && link_twice_b(s) == utf8dfa::count_code_points(s) &&
                  utf8dfa::active_kernel() == utf8dfa::active_kernel();
  std::puts(ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
