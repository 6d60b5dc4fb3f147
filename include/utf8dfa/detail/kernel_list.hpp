// utf8dfa: the kernels of this build, and the definitions dispatch.hpp declares. Header-only, every
// translation unit that dispatches includes this (through dispatch.hpp); with
// UTF8DFA_SEPARATE_COMPILATION only <utf8dfa/src.hpp> does, and these functions are not inline.
//
// A kernel is a kernel_table (kernel_table.hpp) defined in its simd/<isa>/kernels.hpp; a new bulk
// operation is a new kernel_table field filled in every table: nothing here changes.
#ifndef UTF8DFA_DETAIL_KERNEL_LIST_HPP
#define UTF8DFA_DETAIL_KERNEL_LIST_HPP

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "cpu.hpp"
#include "dispatch.hpp"
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

UTF8DFA_KERNELS_DECL const kernel_table* const* available_kernels(std::size_t& count) noexcept {
  static const kernel_list supported = make_kernel_list();
  count = supported.count;
  return supported.list;
}

UTF8DFA_KERNELS_DECL const kernel_table* default_kernel() noexcept {
  std::size_t count = 0;
  const kernel_table* k = available_kernels(count)[0];
#if !defined(_MSC_VER)
  if (const char* env = std::getenv("UTF8DFA_KERNEL"))
    if (const kernel_table* chosen = find_kernel(env)) k = chosen;
#endif
  return k;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
