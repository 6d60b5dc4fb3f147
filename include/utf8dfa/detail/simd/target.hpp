// utf8dfa: per-function instruction-set regions for the x86-64 kernels (and NEON on ARM64). Kernels are compiled
// through these attributes only, never through -m flags imposed on users; dispatch.hpp calls a kernel only after
// cpu.hpp has confirmed the CPU and the OS support it.
#ifndef UTF8DFA_DETAIL_SIMD_TARGET_HPP
#define UTF8DFA_DETAIL_SIMD_TARGET_HPP

#include "../../config.hpp"

#if UTF8DFA_X86_64 && !defined(UTF8DFA_NO_SIMD) && (defined(__GNUC__) || defined(__clang__))
#define UTF8DFA_X86_KERNELS 1
#include <immintrin.h>
// Keeps a kernel's vector loop out of its caller, so a short input's scalar path stays lean.
#define UTF8DFA_NOINLINE __attribute__((noinline))
#define UTF8DFA_TARGET_SSE4 __attribute__((target("sse4.2,popcnt")))
#define UTF8DFA_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt")))
#define UTF8DFA_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt,lzcnt")))
#else
#define UTF8DFA_X86_KERNELS 0
#endif

// ARM64: NEON is part of the base architecture, so its kernel is chosen at compile time.
#if UTF8DFA_ARM64 && !defined(UTF8DFA_NO_SIMD) && (defined(__ARM_NEON) || defined(_M_ARM64))
#define UTF8DFA_NEON_KERNELS 1
#include <arm_neon.h>
#else
#define UTF8DFA_NEON_KERNELS 0
#endif

#endif
