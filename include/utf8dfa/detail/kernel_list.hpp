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

#include "../config.hpp"
#include "cpu.hpp"
#include "kernel_table.hpp"
#include "scalar_kernels.hpp"
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

// Code that reads compiled_kernels at run time pulls every table, so every kernel function, into
// the program. What the dispatcher reads at run time is therefore copied out at compile time: the
// names and needs, and for each operation the list of its implementations (kernel_ops), so that a
// header-only translation unit compiles only the kernels of the operations it calls.

/// The names and CPU needs of compiled_kernels.
struct kernel_facts {
  const char* name[compiled_kernel_count]{};
  std::uint32_t needs[compiled_kernel_count]{};
};

constexpr kernel_facts make_kernel_facts() noexcept {
  kernel_facts f{};
  for (std::size_t k = 0; k < compiled_kernel_count; ++k) {
    f.name[k] = compiled_kernels[k].table->name;
    f.needs[k] = compiled_kernels[k].needs;
  }
  return f;
}
inline constexpr kernel_facts compiled_kernel_facts = make_kernel_facts();

template <class M>
struct member_type;
template <class T, class C>
struct member_type<T C::*> {
  using type = T;
};

/// One operation (a kernel_table member, e.g. &kernel_table::validate) of every compiled kernel.
template <auto Op>
struct kernel_op_list {
  typename member_type<decltype(Op)>::type fn[compiled_kernel_count]{};
};

template <auto Op>
constexpr kernel_op_list<Op> make_kernel_op_list() noexcept {
  kernel_op_list<Op> l{};
  for (std::size_t k = 0; k < compiled_kernel_count; ++k) l.fn[k] = compiled_kernels[k].table->*Op;
  return l;
}
template <auto Op>
inline constexpr kernel_op_list<Op> kernel_ops = make_kernel_op_list<Op>();

/// True when this CPU runs compiled kernel k.
inline bool kernel_runs(std::size_t k) noexcept {
  return compiled_kernel_facts.needs[k] == 0 || cpu_has(compiled_kernel_facts.needs[k]);
}

/// The index of the kernel named `name` that this CPU runs; compiled_kernel_count if none.
inline std::size_t kernel_index(std::string_view name) noexcept {
  for (std::size_t k = 0; k < compiled_kernel_count; ++k)
    if (name == compiled_kernel_facts.name[k] && kernel_runs(k)) return k;
  return compiled_kernel_count;
}

/// The index of the kernel to start with: the best one this CPU runs, or the one UTF8DFA_KERNEL names.
inline std::size_t default_kernel_index() noexcept {
  std::size_t k = 0;
  while (!kernel_runs(k)) ++k;  // the last, scalar, always runs
#if !defined(_MSC_VER)
  if (const char* env = std::getenv("UTF8DFA_KERNEL")) {
    const std::size_t chosen = kernel_index(env);
    if (chosen != compiled_kernel_count) k = chosen;
  }
#endif
  return k;
}

/// The kernels this CPU supports, best first (filled once, by a thread-safe local static).
struct kernel_list {
  const kernel_table* list[compiled_kernel_count]{};
  std::size_t count = 0;
};

inline kernel_list make_kernel_list() noexcept {
  kernel_list l{};
  for (std::size_t k = 0; k < compiled_kernel_count; ++k)
    if (kernel_runs(k)) l.list[l.count++] = compiled_kernels[k].table;
  return l;
}

UTF8DFA_KERNELS_DECL const kernel_table* const* available_kernels(std::size_t& count) noexcept {
  static const kernel_list supported = make_kernel_list();
  count = supported.count;
  return supported.list;
}

UTF8DFA_KERNELS_DECL const kernel_table* default_kernel() noexcept {
  return compiled_kernels[default_kernel_index()].table;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
