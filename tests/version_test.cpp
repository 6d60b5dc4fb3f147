// The version macros and the ABI inline namespace agree, and every public entity's linkage name
// carries the ABI namespace, so code built against two different versions cannot silently mix.
#include <utf8dfa.hpp>

#include <string>
#include <string_view>
#include <type_traits>
#if defined(__cpp_rtti) || defined(__GXX_RTTI) || defined(_CPPRTTI)
#include <typeinfo>
#endif

#include "catch.hpp"

#define VERSION_TEST_STR2(x) #x
#define VERSION_TEST_STR(x) VERSION_TEST_STR2(x)

namespace utf8dfa_test_version {  // the file's own names (the suite also builds as unity sources)

namespace version_test {

constexpr std::string_view abi_namespace = VERSION_TEST_STR(UTF8DFA_ABI_NAMESPACE);
constexpr std::string_view expected_abi_namespace =
    "v" VERSION_TEST_STR(UTF8DFA_VERSION_MAJOR) "_" VERSION_TEST_STR(UTF8DFA_VERSION_MINOR);

// The ABI namespace is named after major and minor: bump one, and the namespace must follow.
static_assert(abi_namespace == expected_abi_namespace, "UTF8DFA_ABI_NAMESPACE must be v<MAJOR>_<MINOR>");
static_assert(UTF8DFA_VERSION == UTF8DFA_VERSION_MAJOR * 10000 + UTF8DFA_VERSION_MINOR * 100 + UTF8DFA_VERSION_PATCH,
              "UTF8DFA_VERSION is major * 10000 + minor * 100 + patch");

// Public names are reached through the inline namespace (the same entities, not copies).
static_assert(std::is_same_v<utf8dfa::validation_result, utf8dfa::UTF8DFA_ABI_NAMESPACE::validation_result>);
static_assert(std::is_same_v<utf8dfa::strict, utf8dfa::UTF8DFA_ABI_NAMESPACE::strict>);
static_assert(std::is_same_v<utf8dfa::conversion_result, utf8dfa::UTF8DFA_ABI_NAMESPACE::conversion_result>);

// A declaration of the same name in another version's namespace is another entity.
namespace other {
struct validation_result {};
}  // namespace other
static_assert(!std::is_same_v<utf8dfa::validation_result, other::validation_result>);

}  // namespace version_test

#if defined(__cpp_rtti) || defined(__GXX_RTTI) || defined(_CPPRTTI)
namespace version_test {
template <auto F>
struct function_tag {};
}  // namespace version_test

// The linkage names themselves (what the linker compares), read through RTTI: a -fno-rtti build
// keeps the static_asserts above only. (__PRETTY_FUNCTION__ would not do: Clang omits inline
// namespaces from it.)
TEST_CASE("mangled names contain the ABI namespace") {
  // Itanium and MSVC manglings both spell each namespace's name as written; a type named after a
  // function embeds that function's own linkage name (e.g. _ZN7utf8dfa4v0_113active_kernelEv).
  const std::string_view abi = version_test::abi_namespace;
  CHECK(std::string_view(typeid(utf8dfa::validation_result).name()).find(abi) != std::string_view::npos);
  CHECK(std::string_view(typeid(utf8dfa::strict).name()).find(abi) != std::string_view::npos);
  const std::string_view fn = typeid(version_test::function_tag<&utf8dfa::active_kernel>).name();
  CHECK(fn.find(abi) != std::string_view::npos);
  CHECK(fn.find("active_kernel") != std::string_view::npos);
  const std::string_view tmpl = typeid(version_test::function_tag<&utf8dfa::is_valid<std::string_view, 0>>).name();
  CHECK(tmpl.find(abi) != std::string_view::npos);
#if defined(__GNUC__) || defined(__clang__)
  // Itanium: the namespace is a length-prefixed component right after utf8dfa's.
  const std::string component = "7utf8dfa" + std::to_string(abi.size()) + std::string(abi);
  CHECK(fn.find(component) != std::string_view::npos);
  CHECK(tmpl.find(component) != std::string_view::npos);
#endif
}
#endif

#ifdef UTF8DFA_TEST_CMAKE_VERSION
TEST_CASE("CMake read the version from version.hpp") {
  CHECK(std::string(UTF8DFA_TEST_CMAKE_VERSION) ==
        VERSION_TEST_STR(UTF8DFA_VERSION_MAJOR) "." VERSION_TEST_STR(UTF8DFA_VERSION_MINOR) "." VERSION_TEST_STR(
            UTF8DFA_VERSION_PATCH));
}
#endif

}  // namespace utf8dfa_test_version
