// utf8dfa: the run-time kernel table. Resolved once, on first use (no static-initialisation
// order issue: the pointer is constant-initialised), overridable by UTF8DFA_KERNEL or select_kernel().
#ifndef UTF8DFA_DETAIL_DISPATCH_HPP
#define UTF8DFA_DETAIL_DISPATCH_HPP

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <string_view>

#include "../policy.hpp"
#include "scalar.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A replacement value that no policy can produce: the kernels' encoding of `strict`.
inline constexpr char32_t strict_marker = 0xFFFFFFFFu;

/// One implementation of every bulk operation. `replacement == strict_marker` means strict.
struct kernel_table {
  const char* name;
  validation_result (*validate)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*count_leads)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*utf16_length)(const unsigned char*, std::size_t) noexcept;  // of well-formed input
  conversion_result (*utf8_to_utf32)(const unsigned char*, std::size_t, char32_t*, char32_t) noexcept;
  conversion_result (*utf8_to_utf16)(const unsigned char*, std::size_t, char16_t*, char32_t) noexcept;
  conversion_result (*utf16_to_utf8)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept;
  conversion_result (*utf32_to_utf8)(const char32_t*, std::size_t, unsigned char*, char32_t) noexcept;
};

/// Runs a policy-templated kernel with the policy encoded as a replacement value.
template <class In, class Out, conversion_result (*Strict)(const In*, std::size_t, Out*, strict) noexcept,
          conversion_result (*Replace)(const In*, std::size_t, Out*, replace) noexcept>
conversion_result by_policy(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  if (replacement == strict_marker) return Strict(p, n, out, strict{});
  return Replace(p, n, out, replace{replacement});
}

inline constexpr kernel_table scalar_kernels{
    "scalar",
    &validate_scalar,
    &count_leads_scalar,
    &utf16_length_scalar,
    &by_policy<unsigned char, char32_t, &utf8_to_utf_scalar<strict, char32_t>, &utf8_to_utf_scalar<replace, char32_t>>,
    &by_policy<unsigned char, char16_t, &utf8_to_utf_scalar<strict, char16_t>, &utf8_to_utf_scalar<replace, char16_t>>,
    &by_policy<char16_t, unsigned char, &utf_to_utf8_scalar<strict, char16_t>, &utf_to_utf8_scalar<replace, char16_t>>,
    &by_policy<char32_t, unsigned char, &utf_to_utf8_scalar<strict, char32_t>, &utf_to_utf8_scalar<replace, char32_t>>,
};

/// Every kernel this build and this CPU can run, best first; the scalar table is always last.
inline const kernel_table* const* available_kernels(std::size_t& count) noexcept {
  static const kernel_table* const list[] = {&scalar_kernels};
  count = sizeof list / sizeof list[0];
  return list;
}

inline const kernel_table* find_kernel(std::string_view name) noexcept {
  std::size_t count = 0;
  const kernel_table* const* list = available_kernels(count);
  for (std::size_t k = 0; k < count; ++k)
    if (name == list[k]->name) return list[k];
  return nullptr;
}

inline std::atomic<const kernel_table*>& active_kernel_slot() noexcept {
  static std::atomic<const kernel_table*> slot{nullptr};
  return slot;
}

/// The kernel in use: the best one the CPU supports, or the one UTF8DFA_KERNEL names.
inline const kernel_table& kernels() noexcept {
  const kernel_table* k = active_kernel_slot().load(std::memory_order_acquire);
  if (UTF8DFA_LIKELY(k != nullptr)) return *k;
  std::size_t count = 0;
  k = available_kernels(count)[0];
#if !defined(_MSC_VER)
  if (const char* env = std::getenv("UTF8DFA_KERNEL"))
    if (const kernel_table* chosen = find_kernel(env)) k = chosen;
#endif
  active_kernel_slot().store(k, std::memory_order_release);
  return *k;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Name of the kernel in use ("scalar", "avx2", ...).
inline std::string_view active_kernel() noexcept {
  return detail::kernels().name;
}

/// Forces a kernel by name (for tests and benchmarks); false if this build or CPU lacks it.
inline bool select_kernel(std::string_view name) noexcept {
  const detail::kernel_table* k = detail::find_kernel(name);
  if (k == nullptr) return false;
  detail::active_kernel_slot().store(k, std::memory_order_release);
  return true;
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
