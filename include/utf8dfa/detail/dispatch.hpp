// utf8dfa: the run-time kernel table. On x86-64 the best of avx512, avx2, sse4 that cpu.hpp finds
// (CPU and OS support), on ARM64 neon, else scalar; UTF8DFA_NO_SIMD leaves only scalar. Resolved
// once, on first use (no static-initialisation order issue: the slot is constant-initialised),
// overridable by the UTF8DFA_KERNEL environment variable or select_kernel().
//
// The kernels are registered in kernel_list.hpp. Header-only, it is included here,
// and a bulk function calls kernel_fn<&kernel_table::op>(): that operation's implementation in the
// kernel in use, read from the operation's own list, so a translation unit compiles only the
// kernels of the operations it calls. With UTF8DFA_SEPARATE_COMPILATION (config.hpp) only the
// declarations here are seen, kernel_fn reads the active table, and the one translation unit that
// includes <utf8dfa/src.hpp> compiles kernel_list.hpp. Either way a call is one load of the
// active-kernel slot, one load of the function pointer and an indirect call.
#ifndef UTF8DFA_DETAIL_DISPATCH_HPP
#define UTF8DFA_DETAIL_DISPATCH_HPP

#include <cstddef>
#include <string_view>

#include "../config.hpp"
#include "kernel_table.hpp"
#include "slot.hpp"

// The definitions: here when header-only, in the one UTF8DFA_IMPLEMENTATION translation unit
// (<utf8dfa/src.hpp>) with UTF8DFA_SEPARATE_COMPILATION.
#if !defined(UTF8DFA_SEPARATE_COMPILATION) || defined(UTF8DFA_IMPLEMENTATION)
#include "kernel_list.hpp"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Every kernel this build and this CPU can run, best first; the scalar table is always last.
UTF8DFA_KERNELS_DECL const kernel_table* const* available_kernels(std::size_t& count) noexcept;

/// The kernel to start with: the best one the CPU runs, or the one UTF8DFA_KERNEL names.
UTF8DFA_KERNELS_DECL const kernel_table* default_kernel() noexcept;

inline const kernel_table* find_kernel(std::string_view name) noexcept {
  std::size_t count = 0;
  const kernel_table* const* list = available_kernels(count);
  for (std::size_t k = 0; k < count; ++k)
    if (name == list[k]->name) return list[k];
  return nullptr;
}

#if defined(UTF8DFA_SEPARATE_COMPILATION)

inline atomic_slot<const kernel_table*>& active_kernel_slot() noexcept {
  static atomic_slot<const kernel_table*> slot;
  return slot;
}

/// The kernel to start with, stored as the kernel in use (out of line: kernels() stays small
/// enough to inline into each call).
UTF8DFA_NOINLINE inline const kernel_table& choose_kernel() noexcept {
  const kernel_table* k = default_kernel();
  active_kernel_slot().store(k);
  return *k;
}

/// The kernel in use.
inline const kernel_table& kernels() noexcept {
  const kernel_table* k = active_kernel_slot().load();
  if (UTF8DFA_LIKELY(k != nullptr)) return *k;
  return choose_kernel();
}

/// One operation of the kernel in use: kernel_fn<&kernel_table::validate>()(p, n).
template <auto Op>
inline auto kernel_fn() noexcept {
  return kernels().*Op;
}

inline const char* active_kernel_name() noexcept {
  return kernels().name;
}

inline bool select_kernel_named(std::string_view name) noexcept {
  const kernel_table* k = find_kernel(name);
  if (k == nullptr) return false;
  active_kernel_slot().store(k);
  return true;
}

#else

/// The kernel in use as its index in compiled_kernels plus one; 0 until chosen.
inline atomic_slot<std::size_t>& active_kernel_slot() noexcept {
  static atomic_slot<std::size_t> slot;
  return slot;
}

/// The kernel to start with, stored as the kernel in use; its index (out of line: the function
/// below stays small enough to inline into each call).
UTF8DFA_NOINLINE inline std::size_t choose_kernel_index() noexcept {
  const std::size_t k = default_kernel_index();
  active_kernel_slot().store(k + 1);
  return k;
}

/// The index in compiled_kernels of the kernel in use.
inline std::size_t active_kernel_index() noexcept {
  const std::size_t k = active_kernel_slot().load();
  if (UTF8DFA_LIKELY(k != 0)) return k - 1;
  return choose_kernel_index();
}

/// The kernel in use, every operation (compiles every kernel: bulk functions use kernel_fn).
inline const kernel_table& kernels() noexcept {
  return *compiled_kernels[active_kernel_index()].table;
}

/// One operation of the kernel in use: kernel_fn<&kernel_table::validate>()(p, n).
template <auto Op>
inline auto kernel_fn() noexcept {
  return kernel_ops<Op>.fn[active_kernel_index()];
}

inline const char* active_kernel_name() noexcept {
  return compiled_kernel_facts.name[active_kernel_index()];
}

inline bool select_kernel_named(std::string_view name) noexcept {
  const std::size_t k = kernel_index(name);
  if (k == compiled_kernel_count) return false;
  active_kernel_slot().store(k + 1);
  return true;
}

#endif

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Name of the kernel in use ("scalar", "avx2", ...).
inline std::string_view active_kernel() noexcept {
  return detail::active_kernel_name();
}

/// Forces a kernel by name (for tests and benchmarks); false if this build or CPU lacks it.
inline bool select_kernel(std::string_view name) noexcept {
  return detail::select_kernel_named(name);
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
