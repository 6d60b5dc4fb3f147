// utf8dfa: the run-time kernel table. On x86-64 the best of avx512, avx2, sse4 that cpu.hpp finds
// (CPU and OS support), on ARM64 neon, else scalar; UTF8DFA_NO_SIMD leaves only scalar. Resolved
// once, on first use (no static-initialisation order issue: the pointer is constant-initialised),
// overridable by the UTF8DFA_KERNEL environment variable or select_kernel().
#ifndef UTF8DFA_DETAIL_DISPATCH_HPP
#define UTF8DFA_DETAIL_DISPATCH_HPP

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "cpu.hpp"
#include "kernel_table.hpp"
#include "simd/avx2/kernels.hpp"
#include "simd/avx512/kernels.hpp"
#include "simd/neon/kernels.hpp"
#include "simd/sse4/kernels.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// The kernels of this build with what each needs from the CPU, best first.
struct kernel_entry {
  const kernel_table* table;
  std::uint32_t needs;
};
inline constexpr kernel_entry compiled_kernels[] = {
#if UTF8DFA_X86_KERNELS
    {&avx512::table, cpu_needs_avx512},
    {&avx2::table, cpu_needs_avx2},
    {&sse4::table, cpu_needs_sse4},
#endif
#if UTF8DFA_NEON_KERNELS
    {&neon::table, 0},
#endif
    {&scalar_kernels, 0},
};
inline constexpr std::size_t compiled_kernel_count = sizeof compiled_kernels / sizeof compiled_kernels[0];

/// The kernels this CPU supports, best first (filled once, by a thread-safe local static).
struct kernel_list {
  const kernel_table* list[compiled_kernel_count]{};
  std::size_t count = 0;
};

inline kernel_list make_kernel_list() noexcept {
  kernel_list l{};
  for (const kernel_entry& e : compiled_kernels)
    if (e.needs == 0 || cpu_has(e.needs)) l.list[l.count++] = e.table;
  return l;
}

/// Every kernel this build and this CPU can run, best first; the scalar table is always last.
inline const kernel_table* const* available_kernels(std::size_t& count) noexcept {
  static const kernel_list supported = make_kernel_list();
  count = supported.count;
  return supported.list;
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
