// utf8dfa: feature detection and portability macros.
#ifndef UTF8DFA_CONFIG_HPP
#define UTF8DFA_CONFIG_HPP

#include "version.hpp"

#if !defined(__cplusplus) || (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#error "utf8dfa needs C++17 or later"
#endif

#if defined(__cpp_char8_t) && __cpp_char8_t >= 201811L
#define UTF8DFA_HAS_CHAR8_T 1
#else
#define UTF8DFA_HAS_CHAR8_T 0
#endif

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define UTF8DFA_HAS_EXCEPTIONS 1
#else
#define UTF8DFA_HAS_EXCEPTIONS 0
#endif

#if defined(__has_include)
#if __has_include(<version>)
#include <version>
#endif
#endif

#if defined(__cpp_lib_span) && __cpp_lib_span >= 202002L
#define UTF8DFA_HAS_SPAN 1
#else
#define UTF8DFA_HAS_SPAN 0
#endif

#if defined(__cpp_lib_ranges) && __cpp_lib_ranges >= 201911L && defined(__cpp_concepts)
#define UTF8DFA_HAS_RANGES 1
#else
#define UTF8DFA_HAS_RANGES 0
#endif

// True while the compiler evaluates a constant expression; lets one function keep a constexpr
// path and a fast run-time path. Every compiler the library supports has the builtin in C++17 mode.
#if defined(__cpp_lib_is_constant_evaluated) && __cpp_lib_is_constant_evaluated >= 201811L
#include <type_traits>
#define UTF8DFA_IS_CONSTANT_EVALUATED() std::is_constant_evaluated()
#elif defined(__GNUC__) || defined(__clang__) || (defined(_MSC_VER) && _MSC_VER >= 1925)
#define UTF8DFA_IS_CONSTANT_EVALUATED() __builtin_is_constant_evaluated()
#else
#error "utf8dfa needs __builtin_is_constant_evaluated (GCC 9, Clang 9, MSVC 19.25 or later)"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define UTF8DFA_ALWAYS_INLINE inline __attribute__((always_inline))
#define UTF8DFA_LIKELY(x) __builtin_expect(!!(x), 1)
#define UTF8DFA_UNLIKELY(x) __builtin_expect(!!(x), 0)
// Keeps a cold or bulky path out of its caller, so the caller's common path stays lean.
#define UTF8DFA_NOINLINE __attribute__((noinline))
// Starts a function on a cache line: the speed of its loops then does not depend on where the
// code around it happened to end.
#define UTF8DFA_ALIGN_CODE __attribute__((aligned(64)))
#else
#define UTF8DFA_ALIGN_CODE
#define UTF8DFA_ALWAYS_INLINE inline
#define UTF8DFA_LIKELY(x) (x)
#define UTF8DFA_UNLIKELY(x) (x)
#if defined(_MSC_VER)
#define UTF8DFA_NOINLINE __declspec(noinline)
#else
#define UTF8DFA_NOINLINE
#endif
#endif

// Always inlined by GCC, left to Clang's judgement (a few short blocks that g++ 12 kept out of
// line ran 1.3x faster inlined; clang++ 14 ran the same blocks 3x slower when forced).
#if defined(__GNUC__) && !defined(__clang__)
#define UTF8DFA_GCC_ALWAYS_INLINE UTF8DFA_ALWAYS_INLINE
#else
#define UTF8DFA_GCC_ALWAYS_INLINE inline
#endif

// Always inlined by Clang, left to GCC's judgement (a block function that clang++ 14 kept out of
// line, its output pointer passed through memory, ran 1.6-1.9x slower; g++ 12 inlines it where it
// pays, and forced everywhere ran 64-byte input 7% slower).
#if defined(__clang__)
#define UTF8DFA_CLANG_ALWAYS_INLINE UTF8DFA_ALWAYS_INLINE
#else
#define UTF8DFA_CLANG_ALWAYS_INLINE inline
#endif

// UTF8DFA_ALIGN_CODE under GCC only: a function whose loops' speed g++ 12 left to where the code
// before it ended, and which clang++ 14 ran slower aligned.
#if defined(__GNUC__) && !defined(__clang__)
#define UTF8DFA_GCC_ALIGN_CODE UTF8DFA_ALIGN_CODE
#else
#define UTF8DFA_GCC_ALIGN_CODE
#endif

// A pointer parameter whose data no other pointer of the call reaches, so that loops over it are
// vectorised without a run-time overlap test (GCC, Clang and MSVC all spell it __restrict).
#if defined(__GNUC__) || defined(__clang__) || defined(_MSC_VER)
#define UTF8DFA_RESTRICT __restrict
#else
#define UTF8DFA_RESTRICT
#endif

#if defined(__x86_64__) || defined(_M_X64)
#define UTF8DFA_X86_64 1
#else
#define UTF8DFA_X86_64 0
#endif

#if defined(__aarch64__) || defined(_M_ARM64)
#define UTF8DFA_ARM64 1
#else
#define UTF8DFA_ARM64 0
#endif

// Which SIMD kernels this build has (detail/simd/target.hpp holds their instruction-set regions):
// x86-64 with GCC or Clang (mingw-w64 and clang-cl included) gets sse4, avx2 and avx512 (chosen at
// run time), ARM64 neon; UTF8DFA_NO_SIMD leaves the scalar kernel only.
// MSVC (cl.exe: _MSC_VER without __clang__) gets the scalar kernel on x86-64: the x86 kernels are
// written for GCC and Clang (per-function __attribute__((target)) regions, __builtin_popcount and
// __builtin_ctzll). Its CPU detection is ready (detail/cpu.hpp: __cpuidex and _xgetbv). Neither is
// compiled in CI, which has no MSVC: CI builds Windows programs with mingw-w64 only.
#if defined(_MSC_VER) && !defined(__clang__)
#define UTF8DFA_MSVC 1
#else
#define UTF8DFA_MSVC 0
#endif
#if UTF8DFA_X86_64 && !defined(UTF8DFA_NO_SIMD) && (defined(__GNUC__) || defined(__clang__))
#define UTF8DFA_X86_KERNELS 1
#else
#define UTF8DFA_X86_KERNELS 0
#endif
// Whether detail/cpu.hpp asks the CPU (cpuid, xgetbv) for its features: where there are x86 kernels
// to choose, and under MSVC on x86-64.
#if UTF8DFA_X86_KERNELS || (UTF8DFA_X86_64 && UTF8DFA_MSVC && !defined(UTF8DFA_NO_SIMD))
#define UTF8DFA_X86_CPU_DETECTION 1
#else
#define UTF8DFA_X86_CPU_DETECTION 0
#endif
#if UTF8DFA_ARM64 && !defined(UTF8DFA_NO_SIMD) && (defined(__ARM_NEON) || defined(_M_ARM64))
#define UTF8DFA_NEON_KERNELS 1
#else
#define UTF8DFA_NEON_KERNELS 0
#endif

// Separate compilation. Without UTF8DFA_SEPARATE_COMPILATION the headers are the whole library: every
// translation unit that calls a bulk function (validate, the conversions, count_code_points)
// compiles the kernels again. Define it in every translation unit of the program (the CMake target
// utf8dfa::utf8dfa does by default, as utf8dfa::utf8dfa_compiled always does) and the headers only
// declare the kernels; exactly one source file then includes <utf8dfa/src.hpp> (with the single
// header: defines UTF8DFA_IMPLEMENTATION before including it) to compile them once.
// UTF8DFA_KERNELS_DECL marks the functions it moves there.
#if defined(UTF8DFA_SEPARATE_COMPILATION)
#define UTF8DFA_KERNELS_DECL
#else
#define UTF8DFA_KERNELS_DECL inline
#endif

#endif
