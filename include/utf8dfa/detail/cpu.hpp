// utf8dfa: what the x86-64 CPU and the operating system let the kernels use (cpuid + xgetbv).
// Detected once, on first use; the cache is a constant-initialised atomic slot, so there is no
// static-initialisation order issue and concurrent first calls merely detect twice.
#ifndef UTF8DFA_DETAIL_CPU_HPP
#define UTF8DFA_DETAIL_CPU_HPP

#include <cstdint>

#include "../config.hpp"
#include "slot.hpp"

#if UTF8DFA_X86_CPU_DETECTION && UTF8DFA_MSVC
#include <intrin.h>  // __cpuidex, _xgetbv
#elif UTF8DFA_X86_CPU_DETECTION
#include <cpuid.h>  // GCC and Clang (mingw-w64 too): __get_cpuid_count
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Instruction-set bits; a kernel runs only when every bit its target region enables is set.
enum cpu_feature : std::uint32_t {
  cpu_sse42 = 1u << 0,
  cpu_popcnt = 1u << 1,
  cpu_avx2 = 1u << 2,
  cpu_bmi1 = 1u << 3,
  cpu_bmi2 = 1u << 4,
  cpu_lzcnt = 1u << 5,
  cpu_avx512f = 1u << 6,
  cpu_avx512bw = 1u << 7,
  cpu_avx512vl = 1u << 8,
  cpu_avx512dq = 1u << 9,
  cpu_avx512vbmi = 1u << 10,
  cpu_avx512vbmi2 = 1u << 11,
  cpu_detected = 1u << 31,  // marks the cache as filled
};

/// What each kernel's target region (simd/target.hpp) needs.
inline constexpr std::uint32_t cpu_needs_sse4 = cpu_sse42 | cpu_popcnt;
inline constexpr std::uint32_t cpu_needs_avx2 = cpu_needs_sse4 | cpu_avx2 | cpu_bmi1 | cpu_bmi2 | cpu_lzcnt;
inline constexpr std::uint32_t cpu_needs_avx512 =
    cpu_needs_avx2 | cpu_avx512f | cpu_avx512bw | cpu_avx512vl | cpu_avx512dq | cpu_avx512vbmi | cpu_avx512vbmi2;

#if UTF8DFA_X86_CPU_DETECTION
struct cpuid_regs {
  std::uint32_t eax, ebx, ecx, edx;
};

#if UTF8DFA_MSVC
// MSVC (not compiled in CI): its intrinsics, which need no target option. Zeros for a leaf above
// the highest of its range (basic or extended), as __get_cpuid_count gives.
inline cpuid_regs cpuid_query(std::uint32_t leaf, std::uint32_t subleaf) noexcept {
  int r[4] = {0, 0, 0, 0};
  __cpuidex(r, static_cast<int>(leaf & 0x80000000u), 0);
  if (static_cast<std::uint32_t>(r[0]) < leaf) return {0, 0, 0, 0};
  __cpuidex(r, static_cast<int>(leaf), static_cast<int>(subleaf));
  return {static_cast<std::uint32_t>(r[0]), static_cast<std::uint32_t>(r[1]), static_cast<std::uint32_t>(r[2]),
          static_cast<std::uint32_t>(r[3])};
}

inline std::uint64_t xgetbv0() noexcept {
  return _xgetbv(0);
}
#else
inline cpuid_regs cpuid_query(std::uint32_t leaf, std::uint32_t subleaf) noexcept {
  cpuid_regs r{0, 0, 0, 0};
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_count(leaf, subleaf, &a, &b, &c, &d)) r = {a, b, c, d};
  return r;
}

/// XCR0: which register states the OS saves on a context switch. Plain asm, so no target region
/// (-mxsave) is needed; only called once cpuid said OSXSAVE is on.
inline std::uint64_t xgetbv0() noexcept {
  std::uint32_t lo = 0, hi = 0;
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0u));
  return (std::uint64_t{hi} << 32) | lo;
}
#endif

inline std::uint32_t detect_cpu_features() noexcept {
  auto bit = [](std::uint32_t reg, unsigned n) { return (reg >> n) & 1u; };
  std::uint32_t f = cpu_detected;
  const std::uint32_t max_leaf = cpuid_query(0, 0).eax;
  const cpuid_regs l1 = cpuid_query(1, 0);
  if (bit(l1.ecx, 20)) f |= cpu_sse42;
  if (bit(l1.ecx, 23)) f |= cpu_popcnt;
  const cpuid_regs ext = cpuid_query(0x80000001u, 0);
  if (bit(ext.ecx, 5)) f |= cpu_lzcnt;
  if (max_leaf < 7) return f;
  const cpuid_regs l7 = cpuid_query(7, 0);
  if (bit(l7.ebx, 3)) f |= cpu_bmi1;
  if (bit(l7.ebx, 8)) f |= cpu_bmi2;
  // AVX state needs the OS to save XMM and YMM (XCR0 bits 1, 2); AVX-512 also the opmask and
  // ZMM states (bits 5, 6, 7).
  if (!bit(l1.ecx, 27) || !bit(l1.ecx, 28)) return f;  // OSXSAVE, AVX
  const std::uint64_t xcr0 = xgetbv0();
  if ((xcr0 & 0x6) != 0x6) return f;
  if (bit(l7.ebx, 5)) f |= cpu_avx2;
  if ((xcr0 & 0xE6) != 0xE6) return f;
  if (bit(l7.ebx, 16)) f |= cpu_avx512f;
  if (bit(l7.ebx, 17)) f |= cpu_avx512dq;
  if (bit(l7.ebx, 30)) f |= cpu_avx512bw;
  if (bit(l7.ebx, 31)) f |= cpu_avx512vl;
  if (bit(l7.ecx, 1)) f |= cpu_avx512vbmi;
  if (bit(l7.ecx, 6)) f |= cpu_avx512vbmi2;
  return f;
}
#else
inline std::uint32_t detect_cpu_features() noexcept {
  return cpu_detected;
}
#endif

/// The features of this CPU (cpu_feature bits), detected on the first call.
inline std::uint32_t cpu_features() noexcept {
  static atomic_slot<std::uint32_t> cache;  // constant-initialised
  std::uint32_t f = cache.load();
  if (f == 0) {
    f = detect_cpu_features();
    cache.store(f);
  }
  return f;
}

/// True when the CPU has every feature in `needs`.
inline bool cpu_has(std::uint32_t needs) noexcept {
  return (cpu_features() & needs) == needs;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
