// utf8dfa: per-function instruction-set regions for the x86-64 kernels (and NEON on ARM64). Kernels are compiled
// through these attributes only, never through -m flags imposed on users; dispatch.hpp calls a kernel only after
// cpu.hpp has confirmed the CPU and the OS support it. config.hpp says which kernels the build has.
#ifndef UTF8DFA_DETAIL_SIMD_TARGET_HPP
#define UTF8DFA_DETAIL_SIMD_TARGET_HPP

#include "../../config.hpp"

#if UTF8DFA_X86_KERNELS
#include <immintrin.h>
#define UTF8DFA_TARGET_SSE4 __attribute__((target("sse4.2,popcnt")))
#define UTF8DFA_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt")))
#define UTF8DFA_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt,lzcnt")))
// Before an AVX2 or AVX-512 kernel calls scalar code (compiled without AVX: its SSE instructions are
// the legacy encoding): clears the upper halves of the vector registers. g++ 12 leaves them dirty on
// some paths to such calls, and legacy SSE code then runs very slowly (a 32-unit UTF-16 to Latin-1
// conversion took 530 ns instead of 28 on an Intel Xeon). Nothing vector-valued lives across a call.
#define UTF8DFA_LEAVE_AVX() _mm256_zeroupper()
#endif

// ARM64: NEON is part of the base architecture, so its kernel is chosen at compile time.
#if UTF8DFA_NEON_KERNELS
#include <arm_neon.h>
#endif

#endif
