// utf8dfa: the run-time kernel table. On x86-64 the best of avx512, avx2, sse4 that cpu.hpp finds
// (CPU and OS support), on ARM64 neon, else scalar; UTF8DFA_NO_SIMD leaves only scalar. Resolved
// once, on first use (no static-initialisation order issue: the pointer is constant-initialised),
// overridable by the UTF8DFA_KERNEL environment variable or select_kernel().
//
// The kernels themselves are registered in kernel_list.hpp. Header-only (the default), it is
// included below; with UTF8DFA_SEPARATE_COMPILATION (config.hpp) only the declarations here are
// seen, and the one translation unit that includes <utf8dfa/src.hpp> compiles kernel_list.hpp.
#ifndef UTF8DFA_DETAIL_DISPATCH_HPP
#define UTF8DFA_DETAIL_DISPATCH_HPP

#include <atomic>
#include <cstddef>
#include <string_view>

#include "../config.hpp"
#include "kernel_table.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Every kernel this build and this CPU can run, best first; the scalar table is always last.
UTF8DFA_KERNELS_DECL const kernel_table* const* available_kernels(std::size_t& count) noexcept;

/// The kernel kernels() starts with: the first available, or the one UTF8DFA_KERNEL names.
UTF8DFA_KERNELS_DECL const kernel_table* default_kernel() noexcept;

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
  k = default_kernel();
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

// The definitions: here when header-only, in the one UTF8DFA_IMPLEMENTATION translation unit
// (<utf8dfa/src.hpp>) with UTF8DFA_SEPARATE_COMPILATION.
#if !defined(UTF8DFA_SEPARATE_COMPILATION) || defined(UTF8DFA_IMPLEMENTATION)
#include "kernel_list.hpp"
#endif

#endif
