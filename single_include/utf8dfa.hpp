// utf8dfa 0.1.0: single-header edition.
// GENERATED FILE: do not edit. Produced by tools/amalgamate.py from include/utf8dfa.hpp and every
// project header it includes; edit those and rerun the script (CI checks that this copy is in sync).
// SPDX-License-Identifier: MIT -- Copyright (c) 2026 The utf8dfa authors
// Headers inlined, in order:
//   utf8dfa.hpp
//   utf8dfa/boundary.hpp
//   utf8dfa/detail/bytes.hpp
//   utf8dfa/config.hpp
//   utf8dfa/version.hpp
//   utf8dfa/detail/dfa.hpp
//   utf8dfa/error.hpp
//   utf8dfa/detail/kernel_result.hpp
//   utf8dfa/bounded.hpp
//   utf8dfa/detail/dispatch.hpp
//   utf8dfa/detail/kernel_table.hpp
//   utf8dfa/policy.hpp
//   utf8dfa/detail/scalar.hpp
//   utf8dfa/detail/units.hpp
//   utf8dfa/detail/slot.hpp
//   utf8dfa/detail/kernel_list.hpp
//   utf8dfa/detail/cpu.hpp
//   utf8dfa/detail/scalar_kernels.hpp
//   utf8dfa/detail/swapped_kernels.hpp
//   utf8dfa/detail/units_kernels.hpp
//   utf8dfa/detail/simd/avx2/kernels.hpp
//   utf8dfa/detail/simd/short_input.hpp
//   utf8dfa/detail/simd/avx2/length.hpp
//   utf8dfa/detail/simd/length_common.hpp
//   utf8dfa/detail/simd/generic.hpp
//   utf8dfa/detail/simd/target.hpp
//   utf8dfa/detail/simd/avx2/validate.hpp
//   utf8dfa/detail/simd/avx2/transcode.hpp
//   utf8dfa/detail/simd/transcode_common.hpp
//   utf8dfa/detail/simd/avx2/utf8_block.hpp
//   utf8dfa/detail/simd/avx2/units.hpp
//   utf8dfa/detail/simd/avx2/units_bulk.hpp
//   utf8dfa/detail/simd/avx512/kernels.hpp
//   utf8dfa/detail/simd/avx512/length.hpp
//   utf8dfa/detail/simd/avx512/utf8_block.hpp
//   utf8dfa/detail/simd/avx512/validate.hpp
//   utf8dfa/detail/simd/avx512/transcode.hpp
//   utf8dfa/detail/simd/avx512/units.hpp
//   utf8dfa/detail/simd/avx512/units_bulk.hpp
//   utf8dfa/detail/simd/neon/kernels.hpp
//   utf8dfa/detail/simd/neon/transcode.hpp
//   utf8dfa/detail/simd/neon/tables.hpp
//   utf8dfa/detail/simd/neon/validate.hpp
//   utf8dfa/detail/simd/neon/units.hpp
//   utf8dfa/detail/simd/sse4/kernels.hpp
//   utf8dfa/detail/simd/sse4/validate.hpp
//   utf8dfa/latin1.hpp
//   utf8dfa/detail/units_kernels.hpp
//   utf8dfa/transcode.hpp
//   utf8dfa/dialect.hpp
//   utf8dfa/detail/dialect_dfa.hpp
//   utf8dfa/detail/string_instances.hpp
//   utf8dfa/detail/latin1_instances.hpp
//   utf8dfa/utf16.hpp
//   utf8dfa/count.hpp
//   utf8dfa/decode.hpp
//   utf8dfa/detect.hpp
//   utf8dfa/validate.hpp
//   utf8dfa/encode.hpp
//   utf8dfa/iterator.hpp
//   utf8dfa/output.hpp
//   utf8dfa/stream.hpp
//   utf8dfa/utf_views.hpp
//   utf8dfa/views.hpp
//   utf8dfa/wide.hpp

// ---- begin utf8dfa.hpp ----
// utf8dfa: a header-only UTF-8 codec on one DFA. Include this header for everything.
#ifndef UTF8DFA_HPP
#define UTF8DFA_HPP

// ---- begin utf8dfa/boundary.hpp ----
// utf8dfa: character boundaries, truncation, and the byte order mark.
//
// A boundary is a byte offset where decode_next's segmentation starts a new segment (or the end
// of the input). Segments are the well-formed characters and, in ill-formed input, the maximal
// ill-formed subparts (each replaced by one U+FFFD when decoding); no function here splits either.
// Every non-continuation byte starts a segment, so a boundary is found by looking at most three
// bytes back: each function is O(1) and reads only bytes inside the input.
#ifndef UTF8DFA_BOUNDARY_HPP
#define UTF8DFA_BOUNDARY_HPP

#include <cstddef>
#include <string_view>

// ---- begin utf8dfa/detail/bytes.hpp ----
// utf8dfa: how public functions accept "bytes": any contiguous range of 1-byte elements.
#ifndef UTF8DFA_DETAIL_BYTES_HPP
#define UTF8DFA_DETAIL_BYTES_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#if !defined(__BYTE_ORDER__) && !defined(_WIN32) && defined(__has_include)
#if __has_include(<bit>)
#include <bit>
#endif
#endif

// ---- begin utf8dfa/config.hpp ----
// utf8dfa: feature detection and portability macros.
#ifndef UTF8DFA_CONFIG_HPP
#define UTF8DFA_CONFIG_HPP

// ---- begin utf8dfa/version.hpp ----
// utf8dfa: version macros. CMake reads the version from this file; it is the single source of truth.
#ifndef UTF8DFA_VERSION_HPP
#define UTF8DFA_VERSION_HPP

#define UTF8DFA_VERSION_MAJOR 0
#define UTF8DFA_VERSION_MINOR 1
#define UTF8DFA_VERSION_PATCH 0

/// The version as one integer: major * 10000 + minor * 100 + patch.
#define UTF8DFA_VERSION (UTF8DFA_VERSION_MAJOR * 10000 + UTF8DFA_VERSION_MINOR * 100 + UTF8DFA_VERSION_PATCH)

/// Every declaration lives in `namespace utf8dfa::inline UTF8DFA_ABI_NAMESPACE`, named for the
/// major and minor version, so two incompatible versions in one program fail to link instead of
/// silently mixing. Changed together with the version (tests/version_test.cpp checks it).
#define UTF8DFA_ABI_NAMESPACE v0_1

#endif
// ---- end utf8dfa/version.hpp ----

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
// ---- end utf8dfa/config.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A 1-byte element type the library reads as an octet: char, signed/unsigned char, char8_t, std::byte.
template <class T, class U = std::remove_cv_t<T>>
inline constexpr bool is_byte_v = sizeof(U) == 1 && !std::is_same_v<U, bool> &&
                                  (std::is_integral_v<U> || std::is_same_v<U, std::byte>);

/// A pointer and a length: the one shape every algorithm works on.
template <class T>
struct byte_span {
  const T* data;
  std::size_t size;
};

template <class R, class = void>
struct is_byte_range : std::false_type {};
template <class R>
struct is_byte_range<
    R, std::void_t<decltype(std::data(std::declval<const R&>())), decltype(std::size(std::declval<const R&>()))>>
    : std::bool_constant<!std::is_array_v<R> && std::is_pointer_v<decltype(std::data(std::declval<const R&>()))> &&
                         is_byte_v<std::remove_pointer_t<decltype(std::data(std::declval<const R&>()))>>> {};

// Character arrays and pointers are C strings (string literals): they end at their first NUL.
template <class R>
inline constexpr bool is_c_string_v = std::is_convertible_v<const R&, std::string_view> && !is_byte_range<R>::value;
#if UTF8DFA_HAS_CHAR8_T
template <class R>
inline constexpr bool is_u8_c_string_v =
    std::is_convertible_v<const R&, std::u8string_view> && !is_byte_range<R>::value && !is_c_string_v<R>;
#else
template <class R>
inline constexpr bool is_u8_c_string_v = false;
#endif

/// True for the types public functions accept as UTF-8 input.
template <class R>
inline constexpr bool is_bytes_v = is_byte_range<R>::value || is_c_string_v<R> || is_u8_c_string_v<R>;

template <class R>
using enable_if_bytes = std::enable_if_t<is_bytes_v<R>, int>;
template <class T>
using enable_if_byte = std::enable_if_t<is_byte_v<T>, int>;

/// Views any accepted input as a pointer and a length (no copy).
template <class R>
constexpr auto as_span(const R& r) noexcept {
  if constexpr (is_byte_range<R>::value) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(std::data(r))>>;
    return byte_span<T>{std::data(r), static_cast<std::size_t>(std::size(r))};
  } else if constexpr (is_c_string_v<R>) {
    const std::string_view s = r;
    return byte_span<char>{s.data(), s.size()};
  } else {
#if UTF8DFA_HAS_CHAR8_T
    const std::u8string_view s = r;
    return byte_span<char8_t>{s.data(), s.size()};
#endif
  }
}

/// A pointer and a length as a range (for the pointer + length overloads).
template <class T>
struct byte_span_range {
  const T* ptr;
  std::size_t len;
  constexpr const T* data() const noexcept { return ptr; }
  constexpr std::size_t size() const noexcept { return len; }
};

/// The run-time kernels read every input as unsigned char (allowed for any byte-sized type).
template <class T>
inline const unsigned char* as_uchars(const T* p) noexcept {
  return reinterpret_cast<const unsigned char*>(p);
}
template <class T>
inline unsigned char* as_uchars(T* p) noexcept {
  return reinterpret_cast<unsigned char*>(p);
}

/// The octet value of one input element.
template <class T>
constexpr std::uint8_t octet(T c) noexcept {
  return static_cast<std::uint8_t>(c);
}

/// Eight bytes as one little-endian-agnostic word (only bit 7 of each byte is ever examined).
template <class T>
UTF8DFA_ALWAYS_INLINE std::uint64_t load64(const T* p) noexcept {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

inline constexpr std::uint64_t high_bits = 0x8080808080808080ull;

/// The host's byte order.
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && defined(__ORDER_BIG_ENDIAN__)
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ || __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__,
              "utf8dfa supports little- and big-endian hosts");
inline constexpr bool host_little_endian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
#elif defined(_WIN32)
inline constexpr bool host_little_endian = true;  // every Windows target is little-endian
#elif defined(__cpp_lib_endian)
static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "utf8dfa supports little- and big-endian hosts");
inline constexpr bool host_little_endian = std::endian::native == std::endian::little;
#else
#error "utf8dfa: cannot tell this platform's byte order (no std::endian, no __BYTE_ORDER__)"
#endif

/// Number of set bits.
constexpr unsigned popcount64(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return static_cast<unsigned>(__builtin_popcountll(x));
#else
  unsigned c = 0;
  for (; x != 0; x &= x - 1) ++c;
  return c;
#endif
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/bytes.hpp ----
// ---- begin utf8dfa/detail/dfa.hpp ----
// utf8dfa: the one automaton behind every facility, built at compile time from the RFC 3629 ABNF.
//
//   UTF8-1 = %x00-7F
//   UTF8-2 = %xC2-DF UTF8-tail
//   UTF8-3 = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) / %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
//   UTF8-4 = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) / %xF4 %x80-8F 2( UTF8-tail )
//   UTF8-tail = %x80-BF
//
// `grammar` below is that ABNF as data. A state is "what the rest of the current character must
// be": the list of byte ranges still expected, so the states are the distinct suffixes of the
// alternatives (plus accept and reject). Byte classes are the groups of bytes that behave alike in
// every state. Nothing below is a hand-written number; static_asserts pin the shape (9 states, 12
// classes) and tests/reference checks the result against an independent reading of the ABNF.
#ifndef UTF8DFA_DETAIL_DFA_HPP
#define UTF8DFA_DETAIL_DFA_HPP


// ---- begin utf8dfa/error.hpp ----
// utf8dfa: error kinds and the result types shared by every facility.
#ifndef UTF8DFA_ERROR_HPP
#define UTF8DFA_ERROR_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Why input is ill-formed. The first error of a UTF-8 sequence decides the kind. The dialects
/// (dialect.hpp) use the same kinds; where their meaning widens, it is said below.
enum class error_code : std::uint8_t {
  none,                     ///< well-formed
  invalid_byte,             ///< C0, C1 or F5..FF: bytes that never occur in UTF-8 (or in the dialect:
                            ///< F0..F4 in CESU-8, 00 in MUTF-8, only C0, C1, FE, FF in legacy)
  unexpected_continuation,  ///< a continuation byte (80..BF) where a character must start
  too_short,                ///< a sequence cut short by a byte that is not a continuation byte
  incomplete,               ///< the input ends inside a sequence (more input could complete it)
  overlong,                 ///< E0 80..9F or F0 80..8F: a longer form than the value needs (also
                            ///< C0 81..BF in MUTF-8, F8 80..87 and FC 80..83 in legacy)
  surrogate,                ///< ED A0..BF (U+D800..U+DFFF); in UTF-16/32 input, an unpaired surrogate;
                            ///< in WTF-8 a trail surrogate right after a lead one, in CESU-8/MUTF-8
                            ///< a surrogate that is not half of a pair; a surrogate read (WTF-8,
                            ///< legacy) where the output cannot hold it
  too_large,                ///< F4 90..BF (above U+10FFFF); in UTF-32 input, a value above 0x10FFFF;
                            ///< a legacy value above 0x10FFFF where the output cannot hold it
  unrepresentable,          ///< a well-formed character the target encoding has no code for
                            ///< (above U+00FF for Latin-1); also a replacement it cannot hold
};

/// The enumerator's name ("invalid_byte", ...), as utf8tool prints it.
constexpr std::string_view error_name(error_code e) noexcept {
  switch (e) {
    case error_code::none:
      return "none";
    case error_code::invalid_byte:
      return "invalid_byte";
    case error_code::unexpected_continuation:
      return "unexpected_continuation";
    case error_code::too_short:
      return "too_short";
    case error_code::incomplete:
      return "incomplete";
    case error_code::overlong:
      return "overlong";
    case error_code::surrogate:
      return "surrogate";
    case error_code::too_large:
      return "too_large";
    case error_code::unrepresentable:
      return "unrepresentable";
  }
  return "unknown";
}

/// Outcome of validation, like Rust's Utf8Error plus a kind; true when the input is well-formed.
struct validation_result {
  std::size_t valid_up_to;   ///< bytes before the first ill-formed subpart (== size when valid)
  std::size_t error_length;  ///< length of that maximal ill-formed subpart: 1..3 (1..5 in CESU-8,
                             ///< MUTF-8, legacy); 0 when incomplete or valid
  error_code error;          ///< error_code::none when valid
  constexpr explicit operator bool() const noexcept { return error == error_code::none; }
};

/// One step of decoding. On error: U+FFFD, and length is that of the maximal ill-formed subpart.
struct decoded {
  char32_t code_point;  ///< the scalar value, or U+FFFD on error
  std::uint8_t length;  ///< bytes consumed: 1..4 (1..6 in CESU-8, MUTF-8, legacy); 0 only at the end of the input
  error_code error;     ///< error_code::none for a well-formed character
};

/// Progress of a bulk conversion on both sides. Under `strict`, `read` stops before the first error;
/// under `replace`, `read` is the whole input and `error` is the kind of the first replaced subpart.
struct conversion_result {
  std::size_t read;     ///< input code units consumed
  std::size_t written;  ///< output code units written
  error_code error;     ///< error_code::none when the input was well-formed
  constexpr explicit operator bool() const noexcept { return error == error_code::none; }
};

/// U+FFFD REPLACEMENT CHARACTER.
inline constexpr char32_t replacement_character = U'\uFFFD';

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/error.hpp ----
// ---- begin utf8dfa/detail/kernel_result.hpp ----
// utf8dfa: the results of validation and conversion as the kernels return them. The public
// validation_result and conversion_result (error.hpp) take 24 bytes, which the x86-64 and ARM64
// calling conventions return through memory: the caller passes a pointer, the callee stores three
// fields, and a kernel entry that hands its work to another function cannot end in a tail call.
// The same fields in 16 bytes come back in two registers; each converts to and from its public type.
#ifndef UTF8DFA_DETAIL_KERNEL_RESULT_HPP
#define UTF8DFA_DETAIL_KERNEL_RESULT_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// validation_result in 16 bytes (error_length is 0..5).
struct packed_validation {
  std::size_t valid_up_to;
  std::uint32_t error_length;
  error_code error;

  packed_validation() = default;
  constexpr packed_validation(std::size_t valid, std::size_t length, error_code e) noexcept
      : valid_up_to(valid), error_length(static_cast<std::uint32_t>(length)), error(e) {}
  constexpr packed_validation(const validation_result& r) noexcept  // NOLINT: implicit by design
      : packed_validation(r.valid_up_to, r.error_length, r.error) {}
  constexpr operator validation_result() const noexcept {  // NOLINT: implicit by design
    return {valid_up_to, error_length, error};
  }
  constexpr explicit operator bool() const noexcept { return error == error_code::none; }
};

/// conversion_result in 16 bytes where size_t has 64 bits: `written` and `error` share the second
/// word (no buffer holds 2^56 units). (24 bytes under the Windows bit-field layout, where an 8-byte
/// result is the most that comes back in a register anyway.)
struct packed_conversion {
  std::size_t read;
#if SIZE_MAX > 0xFFFFFFFFu
  std::size_t written : 56;
  error_code error : 8;
#else
  std::size_t written;
  error_code error;
#endif

  packed_conversion() = default;
  constexpr packed_conversion(std::size_t r, std::size_t w, error_code e) noexcept
      : read(r), written(w & written_max), error(e) {}
  constexpr packed_conversion(const conversion_result& r) noexcept  // NOLINT: implicit by design
      : packed_conversion(r.read, r.written, r.error) {}
  constexpr operator conversion_result() const noexcept {  // NOLINT: implicit by design
    return {read, written, error};
  }
  constexpr explicit operator bool() const noexcept {
    return error == error_code::none;
  }

 private:
  static constexpr std::size_t written_max = SIZE_MAX > 0xFFFFFFFFu ? SIZE_MAX >> 8 : SIZE_MAX;
};

// Two registers in the System V and ARM64 calling conventions (Windows returns only 8 bytes there).
#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(_WIN32)
static_assert(sizeof(packed_validation) == 16 && sizeof(packed_conversion) == 16, "a kernel's result in two registers");
#endif

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/kernel_result.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// An octet range of the grammar; `outside` names the error when a continuation byte (80-BF)
/// arrives where this range is expected but falls outside it.
struct octet_range {
  std::uint8_t lo, hi;
  error_code outside;
  constexpr bool contains(unsigned b) const noexcept { return lo <= b && b <= hi; }
};

/// One alternative of UTF8-1 .. UTF8-4: a lead range followed by `tails` further ranges.
struct sequence_rule {
  octet_range lead;
  std::uint8_t tails;
  octet_range tail[3];
};

inline constexpr octet_range utf8_tail{0x80, 0xBF, error_code::none};  // UTF8-tail

/// RFC 3629 section 4, one entry per alternative. The error kinds on the restricted second-byte
/// ranges say what a continuation byte outside them would have encoded.
inline constexpr sequence_rule grammar[] = {
    {{0x00, 0x7F, error_code::none}, 0, {}},                                                           // UTF8-1
    {{0xC2, 0xDF, error_code::none}, 1, {utf8_tail}},                                                  // UTF8-2
    {{0xE0, 0xE0, error_code::none}, 2, {{0xA0, 0xBF, error_code::overlong}, utf8_tail}},              // UTF8-3
    {{0xE1, 0xEC, error_code::none}, 2, {utf8_tail, utf8_tail}},                                       //
    {{0xED, 0xED, error_code::none}, 2, {{0x80, 0x9F, error_code::surrogate}, utf8_tail}},             //
    {{0xEE, 0xEF, error_code::none}, 2, {utf8_tail, utf8_tail}},                                       //
    {{0xF0, 0xF0, error_code::none}, 3, {{0x90, 0xBF, error_code::overlong}, utf8_tail, utf8_tail}},   // UTF8-4
    {{0xF1, 0xF3, error_code::none}, 3, {utf8_tail, utf8_tail, utf8_tail}},                            //
    {{0xF4, 0xF4, error_code::none}, 3, {{0x80, 0x8F, error_code::too_large}, utf8_tail, utf8_tail}},  //
};

inline constexpr std::size_t max_states = 16;
inline constexpr std::size_t max_classes = 32;
inline constexpr std::uint8_t accept_state = 0;
inline constexpr std::uint8_t reject_state = 1;

/// Byte classes: bytes with identical columns (next state, error kind and payload mask in every
/// state), numbered in the order of their first byte.
struct class_map {
  std::size_t count = 0;
  std::uint8_t of[256]{};
  std::uint8_t representative[max_classes]{};
};

/// The automaton in plain form: states x byte classes.
struct automaton {
  struct state_desc {
    std::uint8_t count;  // ranges still expected
    octet_range need[3];
  };
  std::size_t states = 0;
  state_desc desc[max_states]{};
  class_map classes{};
  std::uint8_t to[max_states][max_classes]{};  // next state, by class
  error_code why[max_states][max_classes]{};   // why `to` is reject
  std::uint8_t lead_mask[256]{};               // payload bits of a lead byte

  constexpr std::uint8_t next(std::size_t s, unsigned b) const noexcept { return to[s][classes.of[b]]; }
  constexpr error_code kind(std::size_t s, unsigned b) const noexcept { return why[s][classes.of[b]]; }

  constexpr std::uint8_t intern(const octet_range* need, std::uint8_t count) {
    if (count == 0) return accept_state;
    for (std::uint8_t s = 2; s < states; ++s) {
      bool same = desc[s].count == count;
      for (std::uint8_t k = 0; same && k < count; ++k)
        same = desc[s].need[k].lo == need[k].lo && desc[s].need[k].hi == need[k].hi &&
               desc[s].need[k].outside == need[k].outside;
      if (same) return s;
    }
    desc[states].count = count;
    for (std::uint8_t k = 0; k < count; ++k) desc[states].need[k] = need[k];
    return static_cast<std::uint8_t>(states++);
  }
};

constexpr automaton build_automaton() {
  automaton a{};
  a.states = 2;  // accept, reject
  // First all suffixes (states), in grammar order; then the transitions, which need them all.
  for (const sequence_rule& r : grammar)
    for (std::uint8_t k = 0; k < r.tails; ++k) a.intern(r.tail + k, static_cast<std::uint8_t>(r.tails - k));
  // Every range of the grammar starts and ends on an edge of an interval (as do 80 and C0), so all
  // bytes of an interval behave alike: each interval's column is worked out once, from its first
  // byte, and intervals with equal columns share a class.
  bool cut[257]{};
  cut[0] = cut[0x80] = cut[0xC0] = cut[256] = true;
  for (const sequence_rule& r : grammar) {
    cut[r.lead.lo] = cut[r.lead.hi + 1u] = true;
    for (std::uint8_t k = 0; k < r.tails; ++k) cut[r.tail[k].lo] = cut[r.tail[k].hi + 1u] = true;
  }
  for (unsigned b = 0; b < 256;) {
    unsigned end = b + 1;
    while (!cut[end]) ++end;
    std::uint8_t next[max_states]{};
    error_code kind[max_states]{};
    std::uint8_t mask = 0;
    const bool continuation = utf8_tail.contains(b);
    // From accept: b must start one of the alternatives.
    next[accept_state] = reject_state;
    kind[accept_state] = continuation ? error_code::unexpected_continuation : error_code::invalid_byte;
    for (const sequence_rule& r : grammar)
      if (r.lead.contains(b)) {
        next[accept_state] = a.intern(r.tail, r.tails);
        kind[accept_state] = error_code::none;
        mask = static_cast<std::uint8_t>(0x7F >> (r.tails == 0 ? 0 : r.tails + 1));
      }
    // Reject absorbs.
    next[reject_state] = reject_state;
    // Inside a character: b must fall in the next expected range.
    for (std::uint8_t s = 2; s < a.states; ++s) {
      const auto& d = a.desc[s];
      if (d.need[0].contains(b)) {
        next[s] = a.intern(d.need + 1, static_cast<std::uint8_t>(d.count - 1));
      } else {
        next[s] = reject_state;
        kind[s] = continuation ? d.need[0].outside : error_code::too_short;
      }
    }
    // The class of the interval: an earlier one with the same column, or a new one.
    std::size_t c = 0;
    for (; c < a.classes.count; ++c) {
      bool same = a.lead_mask[a.classes.representative[c]] == mask;
      for (std::size_t s = 0; same && s < a.states; ++s) same = a.to[s][c] == next[s] && a.why[s][c] == kind[s];
      if (same) break;
    }
    if (c == a.classes.count) {
      a.classes.representative[a.classes.count++] = static_cast<std::uint8_t>(b);
      for (std::size_t s = 0; s < a.states; ++s) {
        a.to[s][c] = next[s];
        a.why[s][c] = kind[s];
      }
    }
    for (; b < end; ++b) {
      a.classes.of[b] = static_cast<std::uint8_t>(c);
      a.lead_mask[b] = mask;
    }
  }
  return a;
}

inline constexpr automaton dfa = build_automaton();
inline constexpr const class_map& byte_classes = dfa.classes;

static_assert(dfa.states == 9, "RFC 3629 gives accept, reject and 7 partial-character states");
static_assert(byte_classes.count == 12, "RFC 3629 gives 12 byte classes");
static_assert(byte_classes.of[0xC0] == byte_classes.of[0xF5] && byte_classes.of[0xC1] == byte_classes.of[0xFF],
              "C0, C1 and F5..FF never occur in UTF-8 and form one class");
static_assert(byte_classes.of[0xE1] == byte_classes.of[0xEE], "E1..EC and EE..EF behave alike");

// ---------------------------------------------------------------------------------------------
// The shift-based form for hot loops. A state is a bit offset (index * 6); the row of a byte packs
// every state's successor as a 6-bit field at that state's offset, so one step is
// `state = row[byte] >> state` (callers mask with 63; x86 shifts mask the count themselves).

inline constexpr unsigned state_bits = 6;
inline constexpr std::uint64_t state_mask = 63;
inline constexpr std::uint32_t s_accept = accept_state * state_bits;
inline constexpr std::uint32_t s_reject = reject_state * state_bits;
static_assert(dfa.states * state_bits <= 64, "every state's successor fits in one 64-bit row");

struct shift_table {
  std::uint64_t row[256]{};
};

constexpr shift_table build_shift_table() {
  std::uint64_t by_class[max_classes]{};
  for (std::size_t c = 0; c < byte_classes.count; ++c)
    for (std::size_t s = 0; s < dfa.states; ++s)
      by_class[c] |= static_cast<std::uint64_t>(dfa.to[s][c] * state_bits) << (s * state_bits);
  shift_table t{};
  for (unsigned b = 0; b < 256; ++b) t.row[b] = by_class[byte_classes.of[b]];
  return t;
}

inline constexpr shift_table shift = build_shift_table();

/// One transition; `state` may carry garbage above its low 6 bits (the shift ignores it).
constexpr std::uint64_t step(std::uint64_t state, std::uint8_t byte) noexcept {
  return shift.row[byte] >> (state & state_mask);
}

/// The error kind when `byte` drives the (masked) shift-form state `state` to reject.
constexpr error_code reject_kind(std::uint64_t state, std::uint8_t byte) noexcept {
  return dfa.kind((state & state_mask) / state_bits, byte);
}

/// True for 80..BF, which never starts a character.
constexpr bool is_continuation(std::uint8_t b) noexcept {
  return utf8_tail.contains(b);
}

// ---------------------------------------------------------------------------------------------
// The engine. A machine is the interface the decoding loops need from an automaton: strict UTF-8
// runs the shift form above (utf8_machine), the dialects the plain form of dialect_dfa.hpp.

/// Strict UTF-8: the shift-form table; a state is a masked bit offset.
struct utf8_machine {
  using state = std::uint64_t;
  static constexpr state start = s_accept;
  static constexpr bool pairs = false;  // no lead byte inside a character
  static constexpr state advance(state s, std::uint8_t b) noexcept { return step(s, b) & state_mask; }
  static constexpr bool rejected(state s) noexcept { return s == s_reject; }
  static constexpr bool boundary(state s) noexcept { return s == s_accept; }
  static constexpr error_code why(state s, std::uint8_t b) noexcept { return reject_kind(s, b); }
  static constexpr std::uint8_t lead_mask(std::uint8_t b) noexcept { return dfa.lead_mask[b]; }
};

/// Decodes the character or maximal ill-formed subpart at `it` (it != last) and moves `it` past it,
/// entering in boundary state `at` (the boundary the previous character left); `at` becomes the
/// boundary after it (after an error: the plain boundary). The one decoder, for any iterator: a
/// byte is read only after `it != last`, and the byte that drives the DFA to reject is not consumed
/// (it starts the next segment). The value accumulates six bits per continuation byte; with pairs,
/// a lead byte inside a character starts the second surrogate and the two combine at the end.
template <class M, class It, class Sent>
constexpr decoded decode_iter(It& it, const Sent& last, typename M::state& at) {
  const std::uint8_t lead = octet(*it);
  ++it;
  typename M::state st = M::advance(at, lead);
  if (M::rejected(st)) {
    const error_code e = M::why(at, lead);
    at = M::start;
    return {replacement_character, 1, e};
  }
  if (M::boundary(st)) {
    at = st;
    return {lead, 1, error_code::none};
  }
  char32_t cp = lead & M::lead_mask(lead);
  [[maybe_unused]] char32_t high = 0;
  std::uint8_t length = 1;
  while (it != last) {
    const std::uint8_t b = octet(*it);
    const typename M::state nx = M::advance(st, b);
    if (M::rejected(nx)) {
      at = M::start;
      return {replacement_character, length, M::why(st, b)};
    }
    ++it;
    ++length;
    if constexpr (M::pairs) {
      if (!is_continuation(b)) {
        high = cp;
        cp = b & M::lead_mask(b);
      } else {
        cp = (cp << 6) | (b & 0x3Fu);
      }
    } else {
      cp = (cp << 6) | (b & 0x3Fu);
    }
    if (M::boundary(nx)) {
      if constexpr (M::pairs)
        if (high != 0) cp = 0x10000 + ((high & 0x3FFu) << 10) + (cp & 0x3FFu);
      at = nx;
      return {cp, length, error_code::none};
    }
    st = nx;
  }
  at = M::start;
  return {replacement_character, length, error_code::incomplete};
}

/// decode_iter on the bytes [p + pos, p + n) (pos < n).
template <class M, class T>
constexpr decoded decode_with(const T* p, std::size_t n, std::size_t pos, typename M::state& at) noexcept {
  const T* it = p + pos;
  return decode_iter<M>(it, p + n, at);
}

/// Validation from the start of the input, one character at a time, carrying the boundary state.
template <class M, class T>
constexpr packed_validation validate_with(const T* p, std::size_t n) noexcept {
  typename M::state at = M::start;
  for (std::size_t pos = 0; pos < n;) {
    const decoded d = decode_with<M>(p, n, pos, at);
    if (d.error != error_code::none)
      return {pos, d.error == error_code::incomplete ? 0u : std::size_t{d.length}, d.error};
    pos += d.length;
  }
  return {n, 0, error_code::none};
}

/// Decodes the character or maximal ill-formed subpart that starts at `pos` (pos < n).
/// This is the only scalar decoder: everything else that decodes calls it or the shift loop.
template <class T>
constexpr decoded decode_at(const T* p, std::size_t n, std::size_t pos) noexcept {
  utf8_machine::state at = utf8_machine::start;
  return decode_with<utf8_machine>(p, n, pos, at);
}

/// Where the character containing the byte before `pos` starts, given that the DFA consumed
/// [.., pos) without rejecting and stands in a partial-character state: the last lead byte.
template <class T>
constexpr std::size_t partial_start(const T* p, std::size_t pos) noexcept {
  std::size_t k = pos;
  while (k > 0 && is_continuation(octet(p[k - 1])) && pos - k < 3) --k;
  return k > 0 ? k - 1 : 0;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/dfa.hpp ----

#if UTF8DFA_HAS_SPAN
#include <span>
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

template <class T>
constexpr bool is_boundary(const T* p, std::size_t n, std::size_t i) noexcept {
  if (i == 0 || i == n) return true;
  if (i > n) return false;
  if (!is_continuation(octet(p[i]))) return true;
  // A continuation byte starts a segment unless the segment of the last lead within three bytes
  // before it reaches over it.
  const std::size_t lo = i >= 3 ? i - 3 : 0;
  for (std::size_t j = i; j-- > lo;)
    if (!is_continuation(octet(p[j]))) return j + decode_at(p, n, j).length <= i;
  return true;
}

inline constexpr unsigned char bom[3] = {0xEF, 0xBB, 0xBF};

template <class T>
constexpr bool starts_with_bom(const T* p, std::size_t n) noexcept {
  return n >= 3 && octet(p[0]) == bom[0] && octet(p[1]) == bom[1] && octet(p[2]) == bom[2];
}

}  // namespace detail

/// True when byte offset `index` starts a character or a maximal ill-formed subpart, or is 0 or
/// the size; false inside one and past the end.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr bool is_char_boundary(const Bytes& bytes, std::size_t index) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::is_boundary(s.data, s.size, index);
}

/// The largest boundary <= `index` (the size when `index` is past the end).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr std::size_t floor_char_boundary(const Bytes& bytes, std::size_t index) noexcept {
  const auto s = detail::as_span(bytes);
  if (index >= s.size) return s.size;
  while (!detail::is_boundary(s.data, s.size, index)) --index;
  return index;
}

/// The smallest boundary >= `index` (the size when `index` is past the end).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr std::size_t ceil_char_boundary(const Bytes& bytes, std::size_t index) noexcept {
  const auto s = detail::as_span(bytes);
  if (index >= s.size) return s.size;
  while (!detail::is_boundary(s.data, s.size, index)) ++index;
  return index;
}

/// The length of the longest prefix of at most `max_bytes` bytes that ends on a boundary
/// (floor_char_boundary): it never splits a character. Ill-formed input: a maximal ill-formed
/// subpart is kept or dropped whole, as if it were a character, and is not repaired, so the prefix
/// decodes to a prefix of what the input decodes to (and is well-formed when the input is).
/// Use: `s.resize(utf8dfa::truncate(s, n))`.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr std::size_t truncate(const Bytes& bytes, std::size_t max_bytes) noexcept {
  return floor_char_boundary(bytes, max_bytes);
}

/// True when the input starts with the UTF-8 byte order mark EF BB BF (U+FEFF).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr bool has_bom(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::starts_with_bom(s.data, s.size);
}

/// The input without a leading EF BB BF (RFC 3629 section 6); unchanged when there is none.
/// Only the first three bytes are looked at: a second BOM, or U+FEFF later on, is data.
constexpr std::string_view skip_bom(std::string_view bytes) noexcept {
  return detail::starts_with_bom(bytes.data(), bytes.size()) ? bytes.substr(3) : bytes;
}

#if UTF8DFA_HAS_CHAR8_T
/// The same for UTF-8 in char8_t.
constexpr std::u8string_view skip_bom(std::u8string_view bytes) noexcept {
  return detail::starts_with_bom(bytes.data(), bytes.size()) ? bytes.substr(3) : bytes;
}
#endif

#if UTF8DFA_HAS_SPAN
/// The same for a span of bytes (std::span<const std::byte>, ...).
template <class T, std::size_t Extent, detail::enable_if_byte<T> = 0>
constexpr std::span<T> skip_bom(std::span<T, Extent> bytes) noexcept {
  return detail::starts_with_bom(bytes.data(), bytes.size()) ? std::span<T>(bytes).subspan(3) : std::span<T>(bytes);
}
#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/boundary.hpp ----
// ---- begin utf8dfa/bounded.hpp ----
// utf8dfa: output-bounded, resumable conversion. Every bulk conversion also takes a capacity
// (`utf8_to_utf16(bytes, out, capacity, policy)`, `recode(bytes, out, capacity, policy, From{},
// To{})`): it writes at most `capacity` output units, only whole characters (never half a surrogate
// pair, nor part of a replacement character), and returns {read, written, error}. When `out` is
// full, error is none (under strict) and read < the input size: a call on the input from `read`,
// with fresh space, goes on. The calls' outputs, joined, are exactly what one unbounded call writes,
// for every capacity, every policy and every kernel; the error is that of the unbounded call over
// the input each one read (under strict, a call that meets the first error stops there as the
// unbounded call does, even with no room left).
//
// How: chunks of input go through the plain (kernel-dispatched) conversion while their output surely
// fits (sized by the room left and the widest output a unit can give); a short rest that may fit is
// converted once into a buffer on the stack and kept if it does; with little room left, a stretch
// whose output length (the length helpers) fits; the last characters one at a time, each converted
// alone and kept if it fits. Chunks end only between characters or maximal ill-formed subparts,
// where the DFA starts afresh (the pieces below; a few are more than one character), so nothing
// differs from one call but, at a chunk's end, an error's kind, which is taken from the whole input.
// A policy may write less than its replacement_value() for an error (or nothing), never more.
#ifndef UTF8DFA_BOUNDED_HPP
#define UTF8DFA_BOUNDED_HPP


// ---- begin utf8dfa/detail/dispatch.hpp ----
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


// ---- begin utf8dfa/detail/kernel_table.hpp ----
// utf8dfa: the shape of a kernel (one implementation of every bulk operation) and the portable one.
#ifndef UTF8DFA_DETAIL_KERNEL_TABLE_HPP
#define UTF8DFA_DETAIL_KERNEL_TABLE_HPP


// ---- begin utf8dfa/policy.hpp ----
// utf8dfa: what a conversion does with ill-formed input.
#ifndef UTF8DFA_POLICY_HPP
#define UTF8DFA_POLICY_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Stop at the first ill-formed subpart and report it (conversion_result::read points at it).
struct strict {
  static constexpr bool stops_on_error = true;
  constexpr char32_t replacement_value() const noexcept { return replacement_character; }
};

/// Write one replacement character (U+FFFD unless chosen) per maximal ill-formed subpart and go on,
/// as the Unicode Standard (ch. 3) and the WHATWG decoder do. A replacement that is not a Unicode
/// scalar value is ignored in favour of U+FFFD.
struct replace {
  char32_t replacement = replacement_character;
  static constexpr bool stops_on_error = false;
  constexpr char32_t replacement_value() const noexcept {
    return (replacement >= 0xD800 && replacement <= 0xDFFF) || replacement > 0x10FFFF ? replacement_character
                                                                                      : replacement;
  }
};

/// For input already validated: the fastest path, which may skip validation (the NEON and AVX2
/// UTF-8 decoders do). On ill-formed input the output is unspecified: any UTF-32 value up to
/// 0x1FFFFFF, any UTF-16 unit (lone or reversed surrogates too), with no error reported; never use
/// it on untrusted input. Nothing is read or written out of bounds, and the output never exceeds
/// the length helpers' size.
struct assume_valid {
  static constexpr bool stops_on_error = false;
  constexpr char32_t replacement_value() const noexcept { return replacement_character; }
};

/// Drop each maximal ill-formed subpart and go on: what replace does, with nothing written for it
/// (Python's errors='ignore', ICU's SKIP callback). The result still reports the first error.
struct skip {
  static constexpr bool stops_on_error = false;
};

namespace detail {
/// True for the policy that writes nothing for an error (skip).
template <class Policy>
inline constexpr bool skips_errors_v = std::is_same_v<std::remove_cv_t<Policy>, skip>;
/// A policy type (a class with a `stops_on_error` constant): what keeps a deduced Policy parameter
/// from matching a capacity argument.
template <class T, class = void>
struct is_policy : std::false_type {};
template <class T>
struct is_policy<T, std::void_t<decltype(T::stops_on_error)>> : std::is_class<T> {};
template <class T>
inline constexpr bool is_policy_v = is_policy<T>::value;
template <class T>
using enable_if_policy = std::enable_if_t<is_policy_v<T>, int>;
}  // namespace detail

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/policy.hpp ----
// ---- begin utf8dfa/detail/scalar.hpp ----
// utf8dfa: the portable kernels. Every loop here runs the one DFA of dfa.hpp (through `step` or
// `decode_at`); the SIMD kernels accelerate these and are tested against them.
#ifndef UTF8DFA_DETAIL_SCALAR_HPP
#define UTF8DFA_DETAIL_SCALAR_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Some scalar loops are written for the compiler at hand (measured with g++ 12 and clang++ 14).
/// Narrowing into Latin-1: clang++ vectorises loops of run-time length and ORs of units well, but
/// keeps the words of a short block's OR and narrows from them byte by byte. Loops that read a
/// UTF-16 unit and the one after it: clang++ carries p[k + 1] into the next step with shuffles, four
/// units at a time, unless it is read through opaque.
#if defined(__clang__)
inline constexpr bool clang_codegen = true;
#else
inline constexpr bool clang_codegen = false;
#endif

/// p, as a value the compiler cannot relate to any other (an empty asm statement where there is
/// one): a loop reading p[k] and opaque(p + 1)[k] loads both, rather than carrying one into the
/// next step; a table's address stays in a register rather than being made again at each use.
template <class T>
UTF8DFA_ALWAYS_INLINE const T* opaque(const T* p) noexcept {
#if defined(__GNUC__)
  __asm__("" : "+r"(p));
#endif
  return p;
}

/// Precise validation from a character boundary, one character at a time (constexpr path and the
/// re-scan that locates an error found by a faster loop).
template <class T>
constexpr packed_validation validate_from(const T* p, std::size_t n, std::size_t pos) noexcept {
  while (pos < n) {
    const decoded d = decode_at(p, n, pos);
    if (d.error != error_code::none)
      return {pos, d.error == error_code::incomplete ? 0u : std::size_t{d.length}, d.error};
    pos += d.length;
  }
  return {n, 0, error_code::none};
}

/// True when the 16 bytes at p are all ASCII.
UTF8DFA_ALWAYS_INLINE bool ascii16(const unsigned char* p) noexcept {
  return ((load64(p) | load64(p + 8)) & high_bits) == 0;
}

/// True when the 32 bytes at p are all ASCII.
UTF8DFA_ALWAYS_INLINE bool ascii32(const unsigned char* p) noexcept {
  return ((load64(p) | load64(p + 8) | load64(p + 16) | load64(p + 24)) & high_bits) == 0;
}

/// Runs the shift DFA over [i, end) from `st`; the whole loop-carried chain is one shift per byte.
UTF8DFA_ALWAYS_INLINE std::uint64_t run_dfa(std::uint64_t st, const unsigned char* p, std::size_t i,
                                            std::size_t end) noexcept {
  for (; i < end; ++i) st = step(st, p[i]);
  return st;
}

/// Eight transitions, written out (compilers do not unroll the byte loop by themselves).
UTF8DFA_ALWAYS_INLINE std::uint64_t step8(std::uint64_t st, const unsigned char* q) noexcept {
  st = step(st, q[0]);
  st = step(st, q[1]);
  st = step(st, q[2]);
  st = step(st, q[3]);
  st = step(st, q[4]);
  st = step(st, q[5]);
  st = step(st, q[6]);
  return step(st, q[7]);
}

/// Sixteen bytes through the DFA.
UTF8DFA_ALWAYS_INLINE std::uint64_t step16(std::uint64_t st, const unsigned char* q) noexcept {
  return step8(step8(st, q), q + 8);
}

/// Skips 16-byte blocks of ASCII from a character boundary while 16 bytes remain before `end`.
UTF8DFA_ALWAYS_INLINE void skip_ascii(const unsigned char* p, std::size_t& i, std::size_t end,
                                      std::uint64_t st) noexcept {
  if ((st & state_mask) == s_accept) {
    while (end - i >= 32 && ascii32(p + i)) i += 32;
    while (end - i >= 16 && ascii16(p + i)) i += 16;
  }
}

/// The last `end - i` (under 16) bytes from `st`: at once when they are ASCII after a character
/// boundary (tested as the 16 bytes that end at `end`, when there are 16), else byte by byte.
UTF8DFA_ALWAYS_INLINE std::uint64_t run_tail(std::uint64_t st, const unsigned char* p, std::size_t i,
                                             std::size_t end) noexcept {
  if ((st & state_mask) == s_accept && end >= 16 && ascii16(p + end - 16)) return st;
  return run_dfa(st, p, i, end);
}

/// The DFA over the next 8 or 16 of the bytes from i (at least 16 before `end`), from `st`: 8 ASCII
/// bytes at a character boundary are passed over first (when 16 more follow them), and the second
/// 8 are run only when they are not ASCII after a character boundary. In mostly-ASCII text the DFA so reads about 8
/// bytes around each other character rather than the 16-byte block it falls in; in text of other scripts the blocks
/// stay 16 bytes long. `start` is where the DFA began, from the state `entry`.
UTF8DFA_ALWAYS_INLINE std::uint64_t dfa_block(std::uint64_t st, const unsigned char* p, std::size_t& i, std::size_t end,
                                              std::size_t& start, std::uint64_t& entry) noexcept {
  if (end - i >= 24 && (st & state_mask) == s_accept && (load64(p + i) & high_bits) == 0) i += 8;
  start = i;
  entry = st & state_mask;
  st = step8(st, p + i);
  i += 8;
  if ((st & state_mask) != s_accept || (load64(p + i) & high_bits) != 0) {
    st = step8(st, p + i);
    i += 8;
  }
  return st;
}

/// Validation at run time from the character boundary i, one stream: ASCII skipped 16 bytes at a time, everything else
/// through the shift DFA in dfa_block's blocks of 8 or 16 bytes (with clang++, 16), so that mostly-ASCII text, an
/// accented letter every few words, returns to the ASCII test soon after each one; only a failing block (or the tail,
/// when the input ends inside a character) is re-scanned to say where and why.
inline packed_validation validate_one_stream(const unsigned char* p, std::size_t n, std::size_t i) noexcept {
  std::uint64_t st = s_accept;
  for (;;) {
    skip_ascii(p, i, n, st);
    std::size_t start = i;
    std::uint64_t entry = st & state_mask;
    const bool last = n - i < 16;
    if (last) {
      st = run_tail(st, p, i, n);
    } else if constexpr (clang_codegen) {  // (its code for dfa_block ran other scripts 0.6-0.8x as fast)
      st = step16(st, p + i);
      i += 16;
    } else {
      st = dfa_block(st, p, i, n, start, entry);
    }
    if (UTF8DFA_UNLIKELY((st & state_mask) == s_reject || (last && (st & state_mask) != s_accept)))
      return validate_from(p, n, entry == s_accept ? start : partial_start(p, start));
    if (last) return {n, 0, error_code::none};
  }
}

/// True when [start, mid) and [mid, n) are both well-formed (start and mid start characters), checked as two
/// interleaved DFA chains, which doubles the bytes per cycle of one chain of dependent shifts.
/// False says nothing about where: the caller re-runs one stream for the exact answer.
inline bool two_streams_valid(const unsigned char* p, std::size_t start, std::size_t mid, std::size_t n) noexcept {
  std::size_t a = start, b = mid;
  std::uint64_t sa = s_accept, sb = s_accept;
  for (;;) {
    skip_ascii(p, a, mid, sa);
    skip_ascii(p, b, n, sb);
    if (mid - a < 16 || n - b < 16) break;
    if constexpr (clang_codegen) {
      sa = step16(sa, p + a);
      sb = step16(sb, p + b);
      a += 16;
      b += 16;
    } else {
      std::size_t from = 0;  // (where and from which state: unused, a failure is located by one stream)
      std::uint64_t entry = 0;
      sa = dfa_block(sa, p, a, mid, from, entry);
      sb = dfa_block(sb, p, b, n, from, entry);
    }
    if (UTF8DFA_UNLIKELY(((sa & state_mask) == s_reject) | ((sb & state_mask) == s_reject))) return false;
  }
  // The rest of each stream alone.
  for (std::size_t* pos : {&a, &b}) {
    const std::size_t end = pos == &a ? mid : n;
    std::uint64_t& st = pos == &a ? sa : sb;
    for (std::size_t& i = *pos;;) {
      skip_ascii(p, i, end, st);
      if (end - i < 16) break;
      st = step16(st, p + i);
      i += 16;
      if ((st & state_mask) == s_reject) return false;
    }
    st = run_tail(st, p, *pos, end);
  }
  return (sa & state_mask) == s_accept && (sb & state_mask) == s_accept;
}

/// True when the n (under 16) bytes at p are ASCII.
UTF8DFA_ALWAYS_INLINE bool ascii_short(const unsigned char* p, std::size_t n) noexcept {
  std::uint64_t w = 0;
  if (n >= 8) {
    w = load64(p) | load64(p + n - 8);
  } else {
    for (std::size_t k = 0; k < n; ++k) w |= p[k];
  }
  return (w & high_bits) == 0;
}

/// validate_scalar after its ASCII start, from the character boundary i: long inputs as two
/// interleaved streams split at a character start near the middle; anything ill-formed (and short
/// input) through one stream, which says where and why.
UTF8DFA_NOINLINE inline packed_validation validate_after_ascii(const unsigned char* p, std::size_t n,
                                                               std::size_t i) noexcept {
  if (n - i >= 1024) {
    std::size_t mid = i + (n - i) / 2;
    for (int k = 0; k < 3 && is_continuation(p[mid]); ++k) ++mid;
    if (!is_continuation(p[mid]) && two_streams_valid(p, i, mid, n)) return {n, 0, error_code::none};
  }
  return validate_one_stream(p, n, i);
}

/// Validation at run time. The ASCII start is skipped here, in a small function that short ASCII
/// input (keys, identifiers) leaves at once; the rest by validate_after_ascii.
inline packed_validation validate_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  while (n - i >= 32 && ascii32(p + i)) i += 32;
  if (n - i >= 16 && ascii16(p + i)) i += 16;
  if (n - i < 16 && (n >= 16 ? ascii16(p + n - 16) : ascii_short(p, n))) return {n, 0, error_code::none};
  return validate_after_ascii(p, n, i);
}

/// The sum of the eight bytes of `acc` (each at most 255).
constexpr std::size_t byte_sum(std::uint64_t acc) noexcept {
  const std::uint64_t pairs = (acc & 0x00FF00FF00FF00FFull) + ((acc >> 8) & 0x00FF00FF00FF00FFull);
  return static_cast<std::size_t>((pairs * 0x0001000100010001ull) >> 48);
}

/// Bytes of [p, p+n) that match `Pick` (a word-at-a-time test leaving bit 7 of each chosen byte),
/// counted as 0/1 bytes in one word for up to 255 words at a time.
template <class Pick>
UTF8DFA_ALWAYS_INLINE std::size_t count_bytes_swar(const unsigned char* p, std::size_t n, Pick pick) noexcept {
  std::size_t count = 0, i = 0;
  while (n - i >= 8) {
    const std::size_t words = (n - i) / 8 < 255 ? (n - i) / 8 : 255;
    const std::size_t end = i + words * 8;
    std::uint64_t acc = 0;
    for (; i < end; i += 8) acc += (pick(load64(p + i)) & high_bits) >> 7;
    count += byte_sum(acc);
  }
  return count;
}

/// Number of bytes in [p, p+n) that are not continuation bytes (80..BF).
inline std::size_t count_leads_scalar(const unsigned char* p, std::size_t n) noexcept {
  const std::size_t words = n - n % 8;
  std::size_t count = words - count_bytes_swar(p, words, [](std::uint64_t w) { return w & ~(w << 1); });
  for (std::size_t i = words; i < n; ++i) count += !is_continuation(p[i]);
  return count;
}

/// UTF-16 units of well-formed UTF-8: one per lead byte, two for the 4-byte leads (F0..F4).
inline std::size_t utf16_length_scalar(const unsigned char* p, std::size_t n) noexcept {
  const std::size_t words = n - n % 8;
  std::size_t count = count_leads_scalar(p, words) +
                      count_bytes_swar(p, words, [](std::uint64_t w) { return w & (w << 1) & (w << 2) & (w << 3); });
  for (std::size_t i = words; i < n; ++i) count += std::size_t{!is_continuation(p[i])} + std::size_t{p[i] >= 0xF0};
  return count;
}

// ---------------------------------------------------------------------------------------------
// Transcoding. `Policy` is one of the public policy types; what it changes is what happens at an
// error: strict stops, replace/assume_valid write the replacement and go on, skip goes on.

template <class Policy>
inline constexpr bool stops_on_error = Policy::stops_on_error;

/// A replacement value that no policy can produce: the kernels' encoding of `skip` (kernel_table.hpp).
inline constexpr char32_t skip_marker = 0xFFFFFFFEu;

/// The encoding of assume_valid for the UTF-8 lengths of UTF-16 and UTF-32 (no check): each UTF-16
/// unit counted on its own (a surrogate 2 bytes, so a pair 4), each UTF-32 value by its width (3 for
/// a surrogate or a value above 10FFFF, as U+FFFD).
inline constexpr char32_t valid_marker = 0xFFFFFFFDu;

/// What a conversion does with a piece whose error is `e` (none: a character) under Policy: write
/// it (a character, or the policy's replacement, put in `c`), drop it (skip) or stop (strict).
/// The first error of a conversion that goes on is kept in `first`.
enum class piece_action { write, drop, stop };

template <class Policy>
constexpr piece_action act_on(error_code e, error_code& first, char32_t& c,
                              [[maybe_unused]] const Policy& pol) noexcept {
  if (UTF8DFA_LIKELY(e == error_code::none)) return piece_action::write;
  if constexpr (stops_on_error<Policy>) {
    return piece_action::stop;
  } else {
    if (first == error_code::none) first = e;
    if constexpr (skips_errors_v<Policy>) {
      return piece_action::drop;
    } else {
      c = pol.replacement_value();
      return piece_action::write;
    }
  }
}

/// Writes one scalar value as UTF-32 or UTF-16; returns the new output position.
template <class Out>
UTF8DFA_ALWAYS_INLINE Out* put_unit(Out* o, char32_t c) noexcept {
  if constexpr (sizeof(Out) == 4) {
    *o++ = static_cast<Out>(c);
  } else {
    if (c < 0x10000) {
      *o++ = static_cast<Out>(c);
    } else {
      *o++ = static_cast<Out>(0xD7C0 + (c >> 10));
      *o++ = static_cast<Out>(0xDC00 + (c & 0x3FF));
    }
  }
  return o;
}

/// Copies the units [p, p + count) to `o`, each converted to Out: one loop over the whole run, which
/// compilers vectorise (a copy written out per block of 16 they do not).
template <class In, class Out>
UTF8DFA_ALWAYS_INLINE Out* copy_units(const In* p, std::size_t count, Out* o) noexcept {
  for (std::size_t k = 0; k < count; ++k) o[k] = static_cast<Out>(p[k]);
  return o + count;
}

/// The `Block` units or bytes at p, each through `f`, into o (which does not overlap them): a
/// fixed count on restrict pointers, which compilers vectorise with no run-time overlap test.
template <std::size_t Block, class In, class Out, class F>
UTF8DFA_ALWAYS_INLINE void map_block(const In* UTF8DFA_RESTRICT p, Out* UTF8DFA_RESTRICT o, F f) noexcept {
  for (std::size_t k = 0; k < Block; ++k) o[k] = f(p[k]);
}

/// The N bytes at p widened into `o` (map_block: clang++ 14 widened a block copied through the
/// stack byte by byte, with spills, at half the speed).
template <std::size_t N, class Out>
UTF8DFA_ALWAYS_INLINE Out* widen_block(const unsigned char* p, Out* o) noexcept {
  map_block<N>(p, o, [](unsigned char b) { return static_cast<Out>(b); });
  return o + N;
}

/// The end of the run of 16-byte ASCII blocks from i (i itself when the first block is not ASCII).
UTF8DFA_ALWAYS_INLINE std::size_t ascii_run_end(const unsigned char* p, std::size_t i, std::size_t n) noexcept {
  while (n - i >= 16 && ascii16(p + i)) i += 16;
  return i;
}

/// At an ASCII byte p[i]: the run of 16-byte ASCII blocks from i widened into `o` (with g++, each
/// block checked and written in one go; with clang++, which widened such blocks a byte at a time,
/// the run found first and widened in one loop: UTF-16 output of English text 1.07x -> 1.6x
/// simdutf's fallback), or else one ASCII word of eight; false (nothing done) when the bytes from
/// i start neither.
template <class Out>
UTF8DFA_ALWAYS_INLINE bool copy_ascii(const unsigned char* p, std::size_t n, std::size_t& i, Out*& o) noexcept {
  if (n - i >= 16 && ascii16(p + i)) {
    if constexpr (clang_codegen) {  // the run found first, then widened in one loop of run-time length
      const std::size_t j = ascii_run_end(p, i + 16, n);
      o = copy_units(p + i, j - i, o);
      i = j;
      return true;
    }
    do {
      o = widen_block<16>(p + i, o);
      i += 16;
    } while (n - i >= 16 && ascii16(p + i));
    return true;
  }
  if (n - i >= 8 && (load64(p + i) & high_bits) == 0) {
    o = widen_block<8>(p + i, o);
    i += 8;
    return true;
  }
  return false;
}

/// copy_ascii from the ASCII byte at i, or where it takes nothing (a byte above 7F among the next 8,
/// or fewer than 8 left) the ASCII bytes up to that byte in one loop, not each through the window
/// tests again.
template <class Out>
UTF8DFA_ALWAYS_INLINE void copy_ascii_run(const unsigned char* p, std::size_t n, std::size_t& i, Out*& o) noexcept {
  if (copy_ascii(p, n, i, o)) return;
  const std::size_t stop = n - i < 8 ? n : i + 8;
  do {
    *o++ = static_cast<Out>(p[i]);
    ++i;
  } while (i < stop && p[i] < 0x80u);
}

/// The well-formed characters from i decoded into `o` (UTF-32, or UTF-16 when Out has two bytes):
/// ASCII runs widened in one loop, each other character (while four bytes remain) by its bytes run
/// through the shift DFA from accept (the lead byte only chooses how many steps to take and how to
/// assemble the value). Stops at the first piece the DFA does not accept, or a non-ASCII byte
/// within three bytes of the end, leaving i there.
template <class Out>
UTF8DFA_ALWAYS_INLINE Out* decode_run(const unsigned char* p, std::size_t n, std::size_t& i, Out* o) noexcept {
  while (i < n) {
    const std::uint32_t b0 = p[i];
    if (b0 < 0x80u) {
      copy_ascii_run(p, n, i, o);
      continue;
    }
    if (n - i < 4) break;
    const std::uint32_t b1 = p[i + 1];
    const std::uint64_t s1 = step(step(s_accept, static_cast<std::uint8_t>(b0)), static_cast<std::uint8_t>(b1));
    if (b0 < 0xE0u) {
      if (UTF8DFA_UNLIKELY((s1 & state_mask) != s_accept)) break;
      *o++ = static_cast<Out>(((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu));
      i += 2;
      continue;
    }
    const std::uint32_t b2 = p[i + 2];
    const std::uint64_t s2 = step(s1, static_cast<std::uint8_t>(b2));
    if (b0 < 0xF0u) {
      if (UTF8DFA_UNLIKELY((s2 & state_mask) != s_accept)) break;
      *o++ = static_cast<Out>(((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu));
      i += 3;
      continue;
    }
    const std::uint32_t b3 = p[i + 3];
    if (UTF8DFA_UNLIKELY((step(s2, static_cast<std::uint8_t>(b3)) & state_mask) != s_accept)) break;
    const std::uint32_t c = ((b0 & 0x07u) << 18) | ((b1 & 0x3Fu) << 12) | ((b2 & 0x3Fu) << 6) | (b3 & 0x3Fu);
    if constexpr (sizeof(Out) == 4) {
      *o++ = static_cast<Out>(c);
    } else {
      o[0] = static_cast<Out>(0xD7C0u + (c >> 10));
      o[1] = static_cast<Out>(0xDC00u + (c & 0x3FFu));
      o += 2;
    }
    i += 4;
  }
  return o;
}

/// UTF-8 to UTF-32 or UTF-16 (by the size of Out): decode_run while it goes, and the piece where it
/// stops (an error, or the last bytes) by decode_at.
template <class Policy, class Out>
packed_conversion utf8_to_utf_scalar(const unsigned char* p, std::size_t n, Out* out,
                                     [[maybe_unused]] Policy pol) noexcept {
  std::size_t i = 0;
  Out* o = out;
  error_code first = error_code::none;
  for (;;) {
    o = decode_run(p, n, i, o);
    if (i >= n) break;
    const decoded d = decode_at(p, n, i);
    char32_t c = d.code_point;
    const piece_action a = act_on(d.error, first, c, pol);
    if (a == piece_action::stop) return {i, static_cast<std::size_t>(o - out), d.error};
    if (a == piece_action::write) o = put_unit(o, c);
    i += d.length;
  }
  return {n, static_cast<std::size_t>(o - out), first};
}

/// One scalar value (or an error) read from UTF-16 at i < n. A high surrogate that ends the input
/// is `incomplete` (a later chunk could pair it); every other unpaired surrogate is `surrogate`.
constexpr decoded decode_utf16_at(const char16_t* p, std::size_t n, std::size_t i) noexcept {
  const char32_t c = p[i];
  if (c < 0xD800 || c > 0xDFFF) return {c, 1, error_code::none};
  if (c <= 0xDBFF) {
    if (i + 1 == n) return {replacement_character, 1, error_code::incomplete};
    const char32_t d = p[i + 1];
    if (d >= 0xDC00 && d <= 0xDFFF) return {0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00), 2, error_code::none};
  }
  return {replacement_character, 1, error_code::surrogate};
}

/// One scalar value (or an error) read from UTF-32 at i < n.
constexpr decoded decode_utf32_at(const char32_t* p, std::size_t, std::size_t i) noexcept {
  const char32_t c = p[i];
  if (c >= 0xD800 && c <= 0xDFFF) return {replacement_character, 1, error_code::surrogate};
  if (c > 0x10FFFF) return {replacement_character, 1, error_code::too_large};
  return {c, 1, error_code::none};
}

template <class In>
constexpr decoded decode_utf_at(const In* p, std::size_t n, std::size_t i) noexcept {
  if constexpr (sizeof(In) == 2)
    return decode_utf16_at(p, n, i);
  else
    return decode_utf32_at(p, n, i);
}

/// Bytes of the UTF-8 form of a scalar value (1..4).
constexpr std::size_t utf8_width(char32_t c) noexcept {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/// Writes a scalar value as UTF-8 (the RFC 3629 section 3 bit patterns); returns the byte count.
template <class Byte>
constexpr std::size_t put_utf8(Byte* out, char32_t c) noexcept {
  if (c < 0x80) {
    out[0] = static_cast<Byte>(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = static_cast<Byte>(0xC0 | (c >> 6));
    out[1] = static_cast<Byte>(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = static_cast<Byte>(0xE0 | (c >> 12));
    out[1] = static_cast<Byte>(0x80 | ((c >> 6) & 0x3F));
    out[2] = static_cast<Byte>(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = static_cast<Byte>(0xF0 | (c >> 18));
  out[1] = static_cast<Byte>(0x80 | ((c >> 12) & 0x3F));
  out[2] = static_cast<Byte>(0x80 | ((c >> 6) & 0x3F));
  out[3] = static_cast<Byte>(0x80 | (c & 0x3F));
  return 4;
}

/// Word-at-a-time tests on UTF-16 or UTF-32 units: eight bytes loaded as one native word hold 4 or
/// 2 whole units in their lanes whatever the byte order, and each test looks at every lane alike.
template <std::size_t UnitSize>
struct unit_lanes;
template <>
struct unit_lanes<2> {
  static constexpr std::uint64_t ones = 0x0001000100010001ull, top = 0x8000800080008000ull;
  static constexpr std::uint64_t not_ascii = 0xFF80FF80FF80FF80ull, above_bmp = 0;
  static constexpr std::uint64_t latin1 = 0x00FF00FF00FF00FFull;
  static constexpr std::uint64_t sur_mask = 0xF800F800F800F800ull, sur = 0xD800D800D800D800ull;
};
template <>
struct unit_lanes<4> {
  static constexpr std::uint64_t ones = 0x0000000100000001ull, top = 0x8000000080000000ull;
  static constexpr std::uint64_t not_ascii = 0xFFFFFF80FFFFFF80ull, above_bmp = 0xFFFF0000FFFF0000ull;
  static constexpr std::uint64_t latin1 = 0x000000FF000000FFull;
  static constexpr std::uint64_t sur_mask = 0x0000F8000000F800ull, sur = 0x0000D8000000D800ull;
};

/// The 16 units at p, OR-ed lane by lane (a word of 4 or 2 lanes).
template <class In>
UTF8DFA_ALWAYS_INLINE std::uint64_t or_units16(const In* p) noexcept {
  std::uint64_t any = 0;
  for (std::size_t k = 0; k < 16; k += 8 / sizeof(In)) any |= load64(p + k);
  return any;
}

/// True when the 16 units at p are ASCII.
template <class In>
UTF8DFA_ALWAYS_INLINE bool ascii_units16(const In* p) noexcept {
  return (or_units16(p) & unit_lanes<sizeof(In)>::not_ascii) == 0;
}

/// True when none of the 16 units at p is a surrogate or (UTF-32) above 0xFFFF: each is one UTF-16
/// unit and one character. A lane is a surrogate when (u & F800) ^ D800 is zero: the has-zero test
/// (x - 1) & ~x & top, exact for "some lane" (a borrow only leaves a lane that is zero).
template <class In>
UTF8DFA_ALWAYS_INLINE bool bmp_units16(const In* p) noexcept {
  using L = unit_lanes<sizeof(In)>;
  std::uint64_t bad = 0;
  for (std::size_t k = 0; k < 16; k += 8 / sizeof(In)) {
    const std::uint64_t w = load64(p + k);
    const std::uint64_t t = (w & L::sur_mask) ^ L::sur;
    bad |= ((t - L::ones) & ~t & L::top) | (w & L::above_bmp);
  }
  return bad == 0;
}

/// Stores the low Count bytes of v at o, least significant first.
template <std::size_t Count>
UTF8DFA_ALWAYS_INLINE void store_low(unsigned char* o, std::uint64_t v) noexcept {
  if constexpr (host_little_endian && Count <= 8) {
    using word =
        std::conditional_t<Count == 8, std::uint64_t, std::conditional_t<Count == 4, std::uint32_t, std::uint16_t>>;
    static_assert(Count == sizeof(word), "store_low stores 2, 4 or 8 bytes");
    const word x = static_cast<word>(v);
    std::memcpy(o, &x, Count);
  } else {
    for (std::size_t k = 0; k < Count; ++k) o[k] = static_cast<unsigned char>(v >> (8 * k));
  }
}

/// The 4-byte UTF-8 form of a supplementary code point c, first byte lowest.
constexpr std::uint64_t four_byte_form(std::uint64_t c) noexcept {
  return 0x808080F0u | (c >> 18) | ((c >> 4) & 0x3F00u) | ((c << 10) & 0x3F0000u) | ((c & 0x3Fu) << 24);
}

/// True when the 4 UTF-16 units at p are two surrogate pairs.
UTF8DFA_ALWAYS_INLINE bool surrogate_pairs2(const char16_t* p) noexcept {
  return ((std::uint32_t{p[0]} & 0xFC00u) | (std::uint32_t{p[2]} & 0xFC00u) << 16) == 0xD800D800u &&
         ((std::uint32_t{p[1]} & 0xFC00u) | (std::uint32_t{p[3]} & 0xFC00u) << 16) == 0xDC00DC00u;
}

/// Where a run of conversion stopped: the next unit and the next output byte.
struct run_end {
  std::size_t i;
  unsigned char* o;
};

/// True when u has a 3-byte UTF-8 form (0x800..0xFFFF, not a surrogate).
constexpr bool three_byte_unit(std::uint32_t u) noexcept {
  return u - 0x800u < 0xF800u && u - 0xD800u >= 0x800u;
}

/// The run of 3-byte forms of UTF-16 at p[i], unit by unit, with the single ASCII units between
/// them (spaces between words of a script of 3-byte forms).
UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline run_end three_byte_run(const char16_t* p, std::size_t n, std::size_t i,
                                                                  unsigned char* o) noexcept {
  std::uint32_t u = p[i];
  for (;;) {
    if (u >= 0x80u) {
      o[0] = static_cast<unsigned char>(0xE0u | (u >> 12));
      o[1] = static_cast<unsigned char>(0x80u | ((u >> 6) & 0x3Fu));
      o[2] = static_cast<unsigned char>(0x80u | (u & 0x3Fu));
      o += 3;
    } else {
      *o++ = static_cast<unsigned char>(u);
    }
    if (++i == n) break;
    u = p[i];
    if (three_byte_unit(u)) continue;
    if (u >= 0x80u || i + 1 == n || !three_byte_unit(p[i + 1])) break;
  }
  return {i, o};
}

/// The 4 UTF-16 units at p as the 16-bit lanes of a word, unit k in bits 16k..16k+15.
UTF8DFA_ALWAYS_INLINE std::uint64_t lanes4(const char16_t* p) noexcept {
  if constexpr (host_little_endian)
    return load64(p);
  else
    return std::uint64_t{p[0]} | std::uint64_t{p[1]} << 16 | std::uint64_t{p[2]} << 32 | std::uint64_t{p[3]} << 48;
}

/// For each set of 2-byte lanes among 4 (bit k for lane k), the output offsets of lanes 1 to 3 and
/// the group's length, 4 bits each.
struct lane_offsets {
  std::uint16_t at[16];
  constexpr lane_offsets() noexcept : at() {
    for (unsigned m = 0; m < 16; ++m) {
      unsigned off = 0, packed = 0;
      for (unsigned k = 0; k < 4; ++k) {
        off += 1 + ((m >> k) & 1);
        packed |= off << (4 * k);
      }
      at[m] = static_cast<std::uint16_t>(packed);
    }
  }
};
inline constexpr lane_offsets below800_offsets{};

/// True when the 4 UTF-16 units at p are below U+0800, not all ASCII, and the unit after them is
/// below U+D800 (it writes at least the one byte that a group may store past its end).
UTF8DFA_ALWAYS_INLINE bool below800_group(const char16_t* p, std::uint64_t& w) noexcept {
  w = lanes4(p);
  return (w & (0xF800 * unit_lanes<2>::ones)) == 0 && (w & unit_lanes<2>::not_ascii) != 0 &&
         std::uint32_t{p[4]} < 0xD800u;
}

/// The run of 1- and 2-byte forms of UTF-16 at p[i], 4 units at a time (below800_group): each
/// unit stored as 2 bytes at its offset in the group's output, from a table by its 2-byte lanes.
UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline run_end below800_run(const char16_t* p, std::size_t n, std::size_t i,
                                                                unsigned char* o) noexcept {
  std::uint64_t w;
  while (n - i >= 5 && below800_group(p + i, w)) {
    const std::uint64_t two = ((w + 0x7F80 * unit_lanes<2>::ones) >> 15) & unit_lanes<2>::ones;  // 1 in lanes >= 0x80
    const std::uint64_t form = (0x80C0 * unit_lanes<2>::ones) | ((w >> 6) & (0x1F * unit_lanes<2>::ones)) |
                               ((w & (0x3F * unit_lanes<2>::ones)) << 8);
    const std::uint64_t m = two * 0xFFFF;
    const std::uint64_t v = (form & m) | (w & ~m);
    const unsigned at = below800_offsets.at[(two * 0x0001000200040008ull) >> 48];  // lane k's bit to bit 48 + k
    store_low<2>(o, v);
    store_low<2>(o + (at & 15), v >> 16);
    store_low<2>(o + ((at >> 4) & 15), v >> 32);
    store_low<2>(o + ((at >> 8) & 15), v >> 48);
    o += at >> 12;
    i += 4;
  }
  return {i, o};
}

/// The run of 16-unit ASCII blocks of UTF-16 at p[i] (the first one is), narrowed.
UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline run_end ascii_block_run(const char16_t* p, std::size_t n, std::size_t i,
                                                                   unsigned char* o) noexcept {
  std::size_t j = i + 16;
  while (n - j >= 16 && ascii_units16(p + j)) j += 16;
  return {j, copy_units(p + i, j - i, o)};
}

/// The run of surrogate pairs of UTF-16 at p[i] (surrogate_pairs2), two pairs (8 bytes) at a time.
UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline run_end surrogate_pair_run(const char16_t* p, std::size_t n, std::size_t i,
                                                                      unsigned char* o) noexcept {
  do {
    const std::uint64_t c0 = 0x10000u + ((std::uint64_t{p[i]} & 0x3FFu) << 10) + (std::uint64_t{p[i + 1]} & 0x3FFu);
    const std::uint64_t c1 = 0x10000u + ((std::uint64_t{p[i + 2]} & 0x3FFu) << 10) + (std::uint64_t{p[i + 3]} & 0x3FFu);
    store_low<8>(o, four_byte_form(c0) | four_byte_form(c1) << 32);
    o += 8;
    i += 4;
  } while (n - i >= 4 && surrogate_pairs2(p + i));
  return {i, o};
}

/// True when the 2 UTF-32 units at p are both supplementary (U+10000..U+10FFFF).
UTF8DFA_ALWAYS_INLINE bool supplementary2(const char32_t* p) noexcept {
  return (std::uint32_t{p[0]} - 0x10000u < 0x100000u) & (std::uint32_t{p[1]} - 0x10000u < 0x100000u);
}

/// The run of supplementary characters of UTF-32 at p[i] (supplementary2), two (8 bytes) at a time.
UTF8DFA_ALWAYS_INLINE run_end supplementary_run(const char32_t* p, std::size_t n, std::size_t i,
                                                unsigned char* o) noexcept {
  do {
    store_low<8>(o, four_byte_form(p[i]) | four_byte_form(p[i + 1]) << 32);
    o += 8;
    i += 2;
  } while (n - i >= 2 && supplementary2(p + i));
  return {i, o};
}

/// UTF-16 or UTF-32 (by the size of In) to UTF-8, unit by unit by the unit's class; at an ASCII
/// unit, a run of 16-unit ASCII blocks narrowed in one loop. UTF-16 text in runs of one class goes
/// to a loop for that class (out of line, so that each loop keeps its place in the code whatever
/// changes around it): 1- and 2-byte forms by groups of 4 units, 3-byte forms with the spaces
/// between them, surrogate pairs two at a time. UTF-32 takes a 2- or 3-byte form with the next
/// unit's when it has the same width, and runs of supplementary characters two at a time (emoji:
/// 0.96x -> 1.75x simdutf's fallback). (A loop without a branch per unit, writing three bytes and
/// moving by the width, ran 2-4x slower on Hebrew and Arabic text, and blocks of 13 units each
/// stored as 4 bytes 0.66-0.9x as fast for UTF-32; the same run loops for UTF-32, whose units take
/// more work to gather, ran slower than this loop; 3-byte forms of UTF-16 stored as 4 bytes where
/// the next unit writes over the fourth ran 0.8x as fast on Chinese text.)
template <class Policy, class In>
UTF8DFA_ALIGN_CODE packed_conversion utf_to_utf8_scalar(const In* p, std::size_t n, unsigned char* out,
                                                        [[maybe_unused]] Policy pol) noexcept {
  std::size_t i = 0;
  unsigned char* o = out;
  error_code first = error_code::none;
  while (i < n) {
    const std::uint32_t u = p[i];
    if (u < 0x80u) {
      // 4 ASCII units first (one or two word loads: a lone space between words of another script
      // costs little), and only then a run of 16-unit blocks.
      const bool word = n - i >= 4 && ((sizeof(In) == 2 ? load64(p + i) : load64(p + i) | load64(p + i + 2)) &
                                       unit_lanes<sizeof(In)>::not_ascii) == 0;
      if (word && n - i >= 16 && ascii_units16(p + i)) {
        if constexpr (sizeof(In) == 2) {
          const run_end e = ascii_block_run(p, n, i, o);
          i = e.i;
          o = e.o;
        } else {
          std::size_t j = i + 16;
          while (n - j >= 16 && ascii_units16(p + j)) j += 16;
          o = copy_units(p + i, j - i, o);
          i = j;
        }
        continue;
      }
      if (word) {
        o[0] = static_cast<unsigned char>(u);
        o[1] = static_cast<unsigned char>(p[i + 1]);
        o[2] = static_cast<unsigned char>(p[i + 2]);
        o[3] = static_cast<unsigned char>(p[i + 3]);
        o += 4;
        i += 4;
        continue;
      }
      *o++ = static_cast<unsigned char>(u);
      ++i;
      continue;
    }
    if (u < 0x800u) {
      // UTF-16 text of 2-byte forms (the next unit one too) by 4-unit groups; a lone accented
      // letter in ASCII text stays here.
      if constexpr (sizeof(In) == 2) {
        std::uint64_t w;
        if (n - i >= 5 && std::uint32_t{p[i + 1]} - 0x80u < 0x780u && below800_group(p + i, w)) {
          const run_end e = below800_run(p, n, i, o);
          i = e.i;
          o = e.o;
          continue;
        }
      }
      const std::uint32_t form = 0x80C0u | (u >> 6) | ((u & 0x3Fu) << 8);
      if constexpr (sizeof(In) == 4) {  // UTF-32: two 2-byte forms in one store
        const std::uint32_t v = n - i >= 2 ? std::uint32_t{p[i + 1]} : 0u;
        if (v - 0x80u < 0x780u) {
          store_low<4>(o, form | (0x80C0u | (v >> 6) | ((v & 0x3Fu) << 8)) << 16);
          o += 4;
          i += 2;
          continue;
        }
      }
      store_low<2>(o, form);
      o += 2;
      ++i;
      continue;
    }
    if (u - 0xD800u >= 0x800u && u <= 0xFFFFu) {
      if constexpr (sizeof(In) == 2) {
        if (n - i >= 4 && three_byte_unit(p[i + 1]) && three_byte_unit(p[i + 3])) {  // likely a run
          const run_end e = three_byte_run(p, n, i, o);
          i = e.i;
          o = e.o;
          continue;
        }
      }
      const std::uint32_t form = 0x8080E0u | (u >> 12) | ((u << 2) & 0x3F00u) | ((u & 0x3Fu) << 16);
      if constexpr (sizeof(In) == 4) {  // UTF-32: two 3-byte forms in two stores
        const std::uint32_t v = n - i >= 2 ? std::uint32_t{p[i + 1]} : 0u;
        if (three_byte_unit(v)) {
          store_low<4>(o, form | (0xE0u | (v >> 12)) << 24);
          store_low<2>(o + 4, 0x8080u | ((v >> 6) & 0x3Fu) | ((v & 0x3Fu) << 8));
          o += 6;
          i += 2;
          continue;
        }
      }
      o[0] = static_cast<unsigned char>(form);
      o[1] = static_cast<unsigned char>(form >> 8);
      o[2] = static_cast<unsigned char>(form >> 16);
      o += 3;
      ++i;
      continue;
    }
    if constexpr (sizeof(In) == 2) {
      if (n - i >= 4 && surrogate_pairs2(p + i)) {
        const run_end e = surrogate_pair_run(p, n, i, o);
        i = e.i;
        o = e.o;
        continue;
      }
    }
    std::uint32_t v = u;
    std::size_t len = 1;
    if constexpr (sizeof(In) == 2) {
      if (u < 0xDC00u && n - i >= 2 && std::uint32_t{p[i + 1]} - 0xDC00u < 0x400u) {  // a pair
        v = 0x10000u + ((u - 0xD800u) << 10) + (std::uint32_t{p[i + 1]} - 0xDC00u);
        len = 2;
      }
    }
    if (v - 0x10000u < 0x100000u) {
      if constexpr (sizeof(In) == 4) {
        if (n - i >= 2 && std::uint32_t{p[i + 1]} - 0x10000u < 0x100000u) {
          const run_end e = supplementary_run(p, n, i, o);
          i = e.i;
          o = e.o;
          continue;
        }
      }
      o[0] = static_cast<unsigned char>(0xF0u | (v >> 18));
      o[1] = static_cast<unsigned char>(0x80u | ((v >> 12) & 0x3Fu));
      o[2] = static_cast<unsigned char>(0x80u | ((v >> 6) & 0x3Fu));
      o[3] = static_cast<unsigned char>(0x80u | (v & 0x3Fu));
      o += 4;
      i += len;
      continue;
    }
    const decoded d = decode_utf_at(p, n, i);
    char32_t c = d.code_point;
    const piece_action a = act_on(d.error, first, c, pol);
    if (a == piece_action::stop) return {i, static_cast<std::size_t>(o - out), d.error};
    if (a == piece_action::write) o += put_utf8(o, c);
    i += d.length;
  }
  return {n, static_cast<std::size_t>(o - out), first};
}

// ---------------------------------------------------------------------------------------------
// Output lengths: what a conversion writes, counted without writing (replacements included, each
// `repl_units` or `repl_bytes` long). The kernels' length functions run these around errors.

/// Units of UTF-16 (Utf16) or UTF-32 the kernels write for one error: `repl`, or none for skip_marker.
template <bool Utf16>
constexpr std::size_t replacement_units(char32_t repl) noexcept {
  return repl == skip_marker ? 0 : Utf16 && repl >= 0x10000 ? 2 : 1;
}

/// Bytes of UTF-8 the kernels write for one error (none for skip_marker).
constexpr std::size_t replacement_bytes(char32_t repl) noexcept {
  return repl == skip_marker ? 0 : repl < 0x80 ? 1 : repl < 0x800 ? 2 : repl < 0x10000 ? 3 : 4;
}

/// Units (UTF-16 when Utf16, else UTF-32) the conversion writes for the characters of UTF-8 that
/// start in [i, end): the decoder runs from i, a character start, and leaves i on the first
/// character start at or past `end` (a character crossing `end` is read whole).
template <bool Utf16>
inline std::size_t utf8_units_region(const unsigned char* p, std::size_t n, std::size_t& i, std::size_t end,
                                     std::size_t repl_units) noexcept {
  std::size_t total = 0;
  while (i < end) {
    const decoded d = decode_at(p, n, i);
    total += d.error != error_code::none ? repl_units : Utf16 && d.code_point >= 0x10000 ? 2 : 1;
    i += d.length;
  }
  return total;
}

// g++ 12 warns (-Warray-bounds) of the block loads below when it inlines a call on a short array,
// behind the length checks that keep them from running there: a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif

/// Units per block of utf8_bytes_block: long enough for compilers to vectorise its loops as loops;
/// what is left of an input after them (up to 256 units, most of a 1 KiB text) in short blocks.
inline constexpr std::size_t length_block = 256, short_length_block = 32;

/// Adds to `total` the UTF-8 bytes of the Block units at p, which start a character, and returns
/// true, when none of them is an error (a UTF-16 pair may end on p[Block], which must be readable);
/// else returns false and leaves `total`. Each surrogate of a pair counts two bytes.
template <std::size_t Block = length_block, class In>
UTF8DFA_ALWAYS_INLINE bool utf8_bytes_block(const In* p, std::size_t& total) noexcept {
  // In 16-bit lanes for UTF-16 (the sum stays below 3 * 256): twice the units per vector.
  using acc = std::conditional_t<sizeof(In) == 2, std::uint16_t, std::uint32_t>;
  acc sum = 0, bad = 0;
  const In* next = clang_codegen ? opaque(p + 1) : p + 1;
  for (std::size_t k = 0; k < Block; ++k) {
    const acc u = static_cast<acc>(p[k]);
    if constexpr (sizeof(In) == 2) {
      // A high surrogate exactly where the next unit is a low one (read through opaque with
      // clang++: see paired_units).
      const acc high = (u & 0xFC00u) == 0xD800u, low_next = (next[k] & 0xFC00u) == 0xDC00u;
      bad = static_cast<acc>(bad | (high ^ low_next));
      sum = static_cast<acc>(sum + 1u + (u >= 0x80u) + (u >= 0x800u) - ((u & 0xF800u) == 0xD800u));
    } else {
      bad |= static_cast<acc>((u & 0xFFFFF800u) == 0xD800u) | static_cast<acc>(u > 0x10FFFFu);
      sum += 1u + (u >= 0x80u) + (u >= 0x800u) + (u >= 0x10000u);
    }
  }
  if constexpr (sizeof(In) == 2) bad |= (std::uint32_t{p[0]} & 0xFC00u) == 0xDC00u;  // a low half without its high
  if (bad != 0) return false;
  total += sum;
  if constexpr (sizeof(In) == 2) total += 2u * ((p[Block - 1] & 0xFC00u) == 0xD800u);  // its pair's low half
  return true;
}

/// UTF-8 bytes the conversion writes for the characters of UTF-16 or UTF-32 that start in [i, end)
/// (same contract as utf8_units_region).
template <class In>
inline std::size_t utf8_bytes_region(const In* p, std::size_t n, std::size_t& i, std::size_t end,
                                     std::size_t repl_bytes) noexcept {
  std::size_t total = 0, j = i;
  while (j < end) {
    // The common case: blocks of 256 (or 32) units without an error, summed by a loop without branches.
    if (end - j >= length_block && n - j >= length_block + (sizeof(In) == 2) && utf8_bytes_block(p + j, total)) {
      j += length_block;
      if (sizeof(In) == 2 && p[j - 1] - 0xD800u < 0x400u) ++j;  // the low half, counted with the high
      continue;
    }
    if (end - j >= short_length_block && n - j >= short_length_block + (sizeof(In) == 2) &&
        utf8_bytes_block<short_length_block>(p + j, total)) {
      j += short_length_block;
      if (sizeof(In) == 2 && p[j - 1] - 0xD800u < 0x400u) ++j;
      continue;
    }
    // A run of units below the surrogates.
    std::size_t k = j;
    for (; k < end && p[k] < 0xD800; ++k) total += std::size_t{p[k] >= 0x80} + std::size_t{p[k] >= 0x800};
    total += k - j;
    j = k;
    if (j == end) break;
    const decoded d = decode_utf_at(p, n, j);
    total += d.error != error_code::none ? repl_bytes : utf8_width(d.code_point);
    j += d.length;
  }
  i = j;
  return total;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/// The units of UTF-8 [p, p+n) after conversion, by a kernel's validation and counting functions:
/// the well-formed stretches counted, each maximal ill-formed subpart one replacement `repl`
/// (skip_marker: none).
template <bool Utf16, packed_validation (*Validate)(const unsigned char*, std::size_t) noexcept,
          std::size_t (*Count)(const unsigned char*, std::size_t) noexcept>
std::size_t utf8_units_by(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  const std::size_t repl_units = replacement_units<Utf16>(repl);
  std::size_t total = 0, pos = 0;
  for (;;) {
    const packed_validation v = Validate(p + pos, n - pos);
    total += Count(p + pos, v.valid_up_to);
    if (v.error == error_code::none) return total;
    pos += v.valid_up_to;
    total += utf8_units_region<Utf16>(p, n, pos, pos + 1, repl_units);  // the maximal ill-formed subpart
  }
}

/// UTF-8 bytes of UTF-16 or UTF-32 [p, p+n) counted as valid_marker says: one byte a unit, one more
/// from 0x80, one more from 0x800, one less for a surrogate (UTF-16) or one more for a supplementary
/// value (UTF-32). Each unit on its own, in blocks whose sums compilers vectorise.
template <class In>
constexpr std::size_t utf8_length_valid(const In* p, std::size_t n) noexcept {
  std::size_t total = n;
  for (std::size_t i = 0; i < n;) {
    const std::size_t m = n - i < 4096 ? n - i : 4096;
    std::uint32_t extra = 0;
    for (std::size_t k = 0; k < m; ++k) {
      const std::uint32_t u = p[i + k];
      if constexpr (sizeof(In) == 2)
        extra += std::uint32_t{u >= 0x80u} + std::uint32_t{u >= 0x800u} - std::uint32_t{(u & 0xF800u) == 0xD800u};
      else
        extra += std::uint32_t{u >= 0x80u} + std::uint32_t{u >= 0x800u} + std::uint32_t{u - 0x10000u < 0x100000u};
    }
    total += extra;
    i += m;
  }
  return total;
}

/// UTF-8 bytes of UTF-16 or UTF-32 [p, p+n) after conversion, replacements written as `repl`
/// (skip_marker: none; valid_marker: utf8_length_valid).
template <class In>
std::size_t utf8_length_scalar(const In* p, std::size_t n, char32_t repl) noexcept {
  // (One expression: with an early return for valid_marker, g++ 12 -O3 saw the block loads of
  // utf8_bytes_region on a two-unit literal as out of bounds, behind the length checks that skip them.)
  std::size_t i = 0;
  return repl == valid_marker ? utf8_length_valid(p, n) : utf8_bytes_region(p, n, i, n, replacement_bytes(repl));
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/scalar.hpp ----
// ---- begin utf8dfa/detail/units.hpp ----
// utf8dfa: the scalar forms of the Latin-1 and UTF-16 / UTF-32 bulk operations (latin1.hpp,
// utf16.hpp): the kernel table's portable entries, and what a vector kernel hands a block to when
// it meets an error or a character it does not take.
#ifndef UTF8DFA_DETAIL_UNITS_HPP
#define UTF8DFA_DETAIL_UNITS_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

// ---- Latin-1 --------------------------------------------------------------------------------

/// Latin-1 to UTF-8: one byte for 00..7F, two for 80..FF. Returns the bytes written. Runs of ASCII
/// blocks of 16 are copied in one loop, blocks of 16 bytes all above 7F written two bytes each
/// without a branch, the others eight bytes at a time (copied when ASCII, else byte by byte).
inline std::size_t latin1_to_utf8_scalar(const unsigned char* p, std::size_t n, unsigned char* out) noexcept {
  std::size_t w = 0, i = 0;
  while (n - i >= 16) {
    const std::uint64_t a = load64(p + i), b = load64(p + i + 8);
    if (((a | b) & high_bits) == 0) {
      const std::size_t j = ascii_run_end(p, i + 16, n);
      copy_units(p + i, j - i, out + w);
      w += j - i;
      i = j;
      continue;
    }
    if ((a & b & high_bits) == high_bits) {
      for (std::size_t k = 0; k < 16; ++k) {
        out[w + 2 * k] = static_cast<unsigned char>(0xC0u | (p[i + k] >> 6));
        out[w + 2 * k + 1] = static_cast<unsigned char>(0x80u | (p[i + k] & 0x3Fu));
      }
      i += 16;
      w += 32;
      continue;
    }
    // Mixed: the first eight bytes, copied when they are ASCII.
    if ((a & high_bits) == 0) {
      for (std::size_t k = 0; k < 8; ++k) out[w + k] = p[i + k];
      i += 8;
      w += 8;
      continue;
    }
    const std::size_t end = i + 8;
    for (; i < end; ++i) w += put_utf8(out + w, char32_t{p[i]});
  }
  for (; i < n; ++i) w += put_utf8(out + w, char32_t{p[i]});
  return w;
}

/// Where a conversion into Latin-1 stands: input read, output written, the first error met.
struct latin1_progress {
  std::size_t read = 0;
  std::size_t written = 0;
  error_code first = error_code::none;
};

/// Input bytes per chunk of the UTF-16 / UTF-32 to Latin-1 loop (128 or 64 units: of 64, 128, 256
/// and 512 bytes, both ran fastest at 256 with g++ 12).
inline constexpr std::size_t latin1_chunk_bytes = 256;

/// The `Block` UTF-16 or UTF-32 units at p narrowed into out (one byte a unit) when none is above
/// FF: true; false, and nothing written, otherwise. ORed in one loop, narrowed in another, both
/// vectorised (a fixed count and pointers that do not overlap: no run-time tests around them). The
/// units are ORed by words (g++ 12 ORs a block of 16 units one by one, but its 4 words in 3
/// instructions), but for UTF-32 under clang++ (which ran UTF-32 0.8x as fast so).
template <std::size_t Block, class In>
UTF8DFA_GCC_ALWAYS_INLINE bool latin1_block(const In* UTF8DFA_RESTRICT p,
                                            unsigned char* UTF8DFA_RESTRICT out) noexcept {
  static_assert(Block * sizeof(In) % 8 == 0, "whole words");
  if constexpr (sizeof(In) == 4 && clang_codegen) {
    In any = 0;
    for (std::size_t k = 0; k < Block; ++k) any = static_cast<In>(any | p[k]);
    if (any > 0xFFu) return false;
  } else {
    std::uint64_t any = 0;
    for (std::size_t k = 0; k < Block; k += 8 / sizeof(In)) any |= load64(p + k);
    if ((any & ~unit_lanes<sizeof(In)>::latin1) != 0) return false;
  }
  if constexpr (sizeof(In) == 4 && Block >= 64 && !clang_codegen) {
    // g++ narrows 32-bit lanes to bytes by a ladder of unpacks; 16-bit lanes it narrows in two
    // instructions a vector. So the values are narrowed as 16-bit halves (each value one byte and
    // one zero byte, in either byte order), and those halves again: 1.3x as fast with g++ 12.
    std::uint16_t halves[2 * Block];
    std::memcpy(halves, p, sizeof halves);
    unsigned char pairs[2 * Block];
    for (std::size_t k = 0; k < 2 * Block; ++k) pairs[k] = static_cast<unsigned char>(halves[k]);
    std::uint16_t values[Block];
    std::memcpy(values, pairs, sizeof values);
    for (std::size_t k = 0; k < Block; ++k) out[k] = static_cast<unsigned char>(values[k]);
  } else {
    for (std::size_t k = 0; k < Block; ++k) out[k] = static_cast<unsigned char>(p[k]);
  }
  return true;
}

/// UTF-8 (In a byte type, decoded by the DFA), UTF-16 or UTF-32 to Latin-1, the characters that
/// start before `stop` (the last may end after it), from and into `s`; `repl` is what replace
/// writes. False when strict stopped at an error (s.read is where, s.first what).
template <class Policy, class In>
bool to_latin1_until(const In* p, std::size_t n, std::size_t stop, unsigned char* out, latin1_progress& s,
                     [[maybe_unused]] unsigned char repl) noexcept {
  std::size_t i = s.read, o = s.written;
  [[maybe_unused]] std::size_t checked = 0;  // UTF-16/32: the end of the last chunk found not all Latin-1
  bool go_on = true;
  while (i < stop) {
    decoded d{};
    if constexpr (sizeof(In) == 1) {
      const std::uint32_t b0 = octet(p[i]);
      if (b0 < 0x80u) {  // ASCII: a run of 16-byte blocks in one loop, or one byte
        const std::size_t j = ascii_run_end(as_uchars(p), i, stop);
        if (j != i) {
          copy_units(as_uchars(p) + i, j - i, out + o);
          o += j - i;
          i = j;
        } else {
          out[o++] = static_cast<unsigned char>(b0);
          ++i;
        }
        continue;
      }
      if ((b0 & 0xFEu) == 0xC2u && n - i >= 2) {  // C2 or C3: U+0080..U+00FF when the DFA accepts
        const std::uint32_t b1 = octet(p[i + 1]);
        if ((step(step(s_accept, octet(p[i])), octet(p[i + 1])) & state_mask) == s_accept) {
          out[o++] = static_cast<unsigned char>(((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu));
          i += 2;
          continue;
        }
      }
      d = decode_at(p, n, i);
    } else {
      // Chunks of up to latin1_chunk_bytes: checked a word at a time (the lanes all alike, so in
      // either byte order), then narrowed in one loop (both vectorised, short chunks too; nothing is
      // written past what the conversion writes). A chunk with a value above FF (or a surrogate, or
      // one too large) goes unit by unit below.
      const std::size_t limit = stop < n ? stop : n;
      if constexpr (sizeof(In) == 4) {  // UTF-32: blocks of 32 values checked and copied, while they last
        bool copied = false;
        while (i >= checked && limit - i >= 32) {
          if (!latin1_block<32>(p + i, out + o)) {
            checked = i + 32;
            break;
          }
          i += 32;
          o += 32;
          copied = true;
        }
        if (copied) continue;
      }
      if (i >= checked) {
        constexpr std::size_t chunk = latin1_chunk_bytes / sizeof(In);
        const std::size_t m = limit - i < chunk ? limit - i : chunk;
        const In* q = p + i;
        std::uint64_t any = 0;
        std::size_t k = 0;
        for (; m - k >= 8 / sizeof(In); k += 8 / sizeof(In)) any |= load64(q + k);
        any = (any & ~unit_lanes<sizeof(In)>::latin1) != 0 ? 0x100u : 0u;
        for (; k < m; ++k) any |= q[k];
        if (any <= 0xFFu) {
          for (k = 0; k < m; ++k) out[o + k] = static_cast<unsigned char>(q[k]);
          i += m;
          o += m;
          continue;
        }
        checked = i + m;
      }
      d = decode_utf_at(p, n, i);
    }
    error_code e = d.error;
    if (e == error_code::none && d.code_point > 0xFF) e = error_code::unrepresentable;
    if (UTF8DFA_UNLIKELY(e != error_code::none)) {
      if (s.first == error_code::none) s.first = e;
      if constexpr (stops_on_error<Policy>) {
        go_on = false;
        break;
      } else if constexpr (!skips_errors_v<Policy>) {
        out[o++] = repl;
      }
    } else {
      out[o++] = static_cast<unsigned char>(d.code_point);
    }
    i += d.length;
  }
  s.read = i;
  s.written = o;
  return go_on;
}

/// The result of a conversion into Latin-1 that stands at `s` after the whole input of `n` units.
inline packed_conversion latin1_result(const latin1_progress& s, std::size_t n, bool stopped) noexcept {
  return {stopped ? s.read : n, s.written, s.first};
}

/// The replacement byte of a policy into Latin-1 (assume_valid: '?'); false for one above U+00FF.
template <class Policy>
constexpr bool latin1_replacement([[maybe_unused]] const Policy& pol, unsigned char& repl) noexcept {
  repl = '?';
  if constexpr (std::is_same_v<Policy, replace>) {
    const char32_t r = pol.replacement_value();
    if (r > 0xFF) return false;
    repl = static_cast<unsigned char>(r);
  }
  return true;
}

/// The start of the `n` UTF-16 or UTF-32 units at p up to the first block with a unit above FF,
/// narrowed into out (one byte a unit, under any policy): latin1_block's blocks (of the size that
/// both g++ and clang++ ran fastest), then what is left (short input too): in blocks of 16, 8 or 4,
/// the last one overlapping the one before (with g++ 12, 64 B of UTF-16 ran 1.2x faster than in
/// loops of run-time length, whose set-up and scalar tails cost short input the most), or, under
/// clang++ (whose short blocks ran 0.6x as fast), in such loops. Returns the units done (n when
/// all); nothing is written for the block with an error.
template <class In>
std::size_t latin1_prefix(const In* p, std::size_t n, unsigned char* out) noexcept {
  constexpr std::size_t block = sizeof(In) == 2 ? 128 : 64;
  std::size_t i = 0;
  for (; n - i >= block; i += block)
    if (!latin1_block<block>(p + i, out + i)) return i;
  if constexpr (clang_codegen) {
    const In* q = p + i;
    const std::size_t m = n - i;
    In any = 0;
    for (std::size_t k = 0; k < m; ++k) any = static_cast<In>(any | q[k]);
    if (any > 0xFFu) return i;
    for (std::size_t k = 0; k < m; ++k) out[i + k] = static_cast<unsigned char>(q[k]);
    return n;
  }
  const auto blocks_of = [&](auto size) {  // then the last `size` units, ending at n
    constexpr std::size_t b = decltype(size)::value;
    for (; n - i >= b; i += b)
      if (!latin1_block<b>(p + i, out + i)) return;
    if (i < n && !latin1_block<b>(p + n - b, out + n - b)) return;
    i = n;
  };
  if (n - i >= 16) {
    blocks_of(std::integral_constant<std::size_t, 16>{});
  } else if (n - i >= 8) {
    blocks_of(std::integral_constant<std::size_t, 8>{});
  } else if (n - i >= 4) {
    blocks_of(std::integral_constant<std::size_t, 4>{});
  } else {
    for (; i < n && p[i] <= 0xFFu; ++i) out[i] = static_cast<unsigned char>(p[i]);
  }
  return i;
}

/// UTF-8, UTF-16 or UTF-32 to Latin-1 (latin1.hpp's header comment says what each policy does).
template <class Policy, class In>
packed_conversion to_latin1(const In* p, std::size_t n, unsigned char* out, Policy pol) noexcept {
  unsigned char repl = '?';
  if (!latin1_replacement(pol, repl)) return {0, 0, error_code::unrepresentable};
  latin1_progress s;
  // UTF-16 and UTF-32: Latin-1 from the start by blocks, the rest below.
  if constexpr (sizeof(In) > 1) {
    s.read = s.written = latin1_prefix(p, n, out);
    if (s.read == n) return {n, n, error_code::none};
  }
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

// ---- UTF-16 and UTF-32 ----------------------------------------------------------------------

/// True when none of the m units at p is a surrogate (or, in UTF-32, above 0x10FFFF): one test for
/// them all, a loop without branches that compilers vectorise.
template <class In>
constexpr bool plain_units(const In* p, std::size_t m) noexcept {
  unsigned bad = 0;
  for (std::size_t k = 0; k < m; ++k) {
    const std::uint32_t u = p[k];
    bad |= static_cast<unsigned>(u - 0xD800u < 0x800u) | static_cast<unsigned>(sizeof(In) == 4 && u > 0x10FFFFu);
  }
  return bad == 0;
}

/// plain_units on 32 units.
template <class In>
constexpr bool plain_block(const In* p) noexcept {
  return plain_units(p, 32);
}

/// From i, past the chunks (up to 256 units) that plain_units passes: where the first that fails
/// starts, or n. The chunks' loop has a run-time length: clang++ 14 made a fixed block of 32 units
/// into loads of single units.
template <class In>
constexpr std::size_t skip_plain_chunks(const In* p, std::size_t n, std::size_t i) noexcept {
  while (i < n) {
    const std::size_t m = n - i < 256 ? n - i : 256;
    if (!plain_units(p + i, m)) break;
    i += m;
  }
  return i;
}

/// The surrogate tests of UTF-16 units in host order (Swap false) or with their bytes exchanged:
/// u & mask is `high` for D800..DBFF, `low` for DC00..DFFF.
template <bool Swap>
struct surrogate_bits {
  static constexpr std::uint16_t mask = Swap ? 0x00FC : 0xFC00, high = Swap ? 0x00D8 : 0xD800,
                                 low = Swap ? 0x00DC : 0xDC00;
};

/// Where blocks checked pair by pair (paired_block32, or a kernel's vector form of it) that began at
/// the character boundary `start` and passed up to `i` leave one: i, or i - 1 when they stopped
/// inside a pair (p[i - 1] its high surrogate, checked with its low one, p[i]).
template <bool Swap = false>
constexpr std::size_t pair_boundary(const char16_t* p, std::size_t start, std::size_t i) noexcept {
  using S = surrogate_bits<Swap>;
  return i != start && (p[i - 1] & S::mask) == S::high ? i - 1 : i;
}

/// True when each of the m UTF-16 units at p is a high surrogate exactly when the unit after it is
/// a low one (p[m] is read too). UTF-16 is well-formed exactly when that holds of every unit but
/// the last, the first is not a low surrogate and the last not a high one: blocks checked so chain
/// on from one another wherever they start (inside a pair too), with no test per unit, and the
/// compilers vectorise the loop. A block that fails holds an error among p[0..m].
template <bool Swap = false>
constexpr bool paired_units(const char16_t* p, std::size_t m) noexcept {
  using S = surrogate_bits<Swap>;
  if constexpr (clang_codegen) {
    // clang++ 14 vectorised p[k + 1] as the next p[k] (shuffles, 4 units a step: 8 GB/s where
    // g++ ran 26); read through a pointer it cannot relate to p, into a flag, it ran 34.
    const char16_t* q = p + 1;
    if (!UTF8DFA_IS_CONSTANT_EVALUATED()) q = opaque(q);
    bool bad = false;
    for (std::size_t k = 0; k < m; ++k) bad |= ((p[k] & S::mask) == S::high) != ((q[k] & S::mask) == S::low);
    return !bad;
  } else {
    // Whole-lane masks: g++ 12 ran this 1.1x as fast as an OR of the comparisons' 0 or 1.
    std::uint16_t bad = 0;
    for (std::size_t k = 0; k < m; ++k) {
      const auto high = static_cast<std::uint16_t>(-static_cast<int>((p[k] & S::mask) == S::high));
      const auto low = static_cast<std::uint16_t>(-static_cast<int>((p[k + 1] & S::mask) == S::low));
      bad = static_cast<std::uint16_t>(bad | (high ^ low));
    }
    return bad == 0;
  }
}

/// paired_units on 32 units (p[32] is read too).
template <bool Swap = false>
constexpr bool paired_block32(const char16_t* p) noexcept {
  return paired_units<Swap>(p, 32);
}

/// From the character boundary i of the `n` UTF-16 units at p, past the chunks (a multiple of 8
/// units, up to 256; the last 1..8 units are left to the caller) that paired_units passes; returns
/// a character boundary at or before the first that fails (i when none passes). The chunks' loop
/// has a run-time length: clang++ 14 turned a fixed block of 32 units into loads of single units,
/// at a fifth of the speed.
template <bool Swap = false>
constexpr std::size_t skip_paired_blocks(const char16_t* p, std::size_t n, std::size_t i) noexcept {
  using S = surrogate_bits<Swap>;
  if (n - i < 9 || (p[i] & S::mask) == S::low) return i;
  const std::size_t start = i;
  while (n - i >= 9) {
    const std::size_t m = (n - i - 1 < 256 ? n - i - 1 : 256) & ~std::size_t{7};
    if (!paired_units<Swap>(p + i, m)) break;
    i += m;
  }
  return pair_boundary<Swap>(p, start, i);
}

/// Validation of UTF-16 or UTF-32 (by In), offsets in units: UTF-16 by paired chunks, UTF-32 by
/// plain chunks, then from the chunk that fails, blocks of 32 plain units and the rest unit by unit.
template <class In>
constexpr packed_validation validate_utf(const In* p, std::size_t n) noexcept {
  // UTF-16 by pairs, UTF-32 by plain chunks: in well-formed input neither stops before the end.
  std::size_t start = 0;
  if constexpr (sizeof(In) == 2)
    start = skip_paired_blocks(p, n, 0);
  else
    start = skip_plain_chunks(p, n, 0);
  for (std::size_t i = start; i < n;) {
    if (n - i >= 32 && plain_block(p + i)) {
      i += 32;
      continue;
    }
    const std::size_t end = n - i < 32 ? n : i + 32;
    while (i < end) {  // a pair may end one unit past `end`
      if (p[i] < 0xD800) {
        ++i;
        continue;
      }
      const decoded d = decode_utf_at(p, n, i);
      if (d.error != error_code::none) return {i, d.error == error_code::incomplete ? 0u : std::size_t{1}, d.error};
      i += d.length;
    }
  }
  return {n, 0, error_code::none};
}

/// The kernel entry for UTF-16 validation.
inline packed_validation validate_utf16_scalar(const char16_t* p, std::size_t n) noexcept {
  return validate_utf(p, n);
}

/// UTF-32 to UTF-16: the 16 values at p converted without a branch per value when all are scalar
/// values, the end of the output returned (nullptr, nothing written, when not). Each writes two
/// units and moves by its width (a unit written past one value's is the next one's first), the last
/// only what it takes, so nothing is written past the end. (Text that mixes characters above FFFF
/// with others, emoji among spaces, mispredicts a branch per character.)
template <class Out>
Out* mixed_block16(const char32_t* p, Out* o) noexcept {
  unsigned bad = 0;
  for (std::size_t k = 0; k < 16; ++k)
    bad |= static_cast<unsigned>(std::uint32_t{p[k]} - 0xD800u < 0x800u) |
           static_cast<unsigned>(std::uint32_t{p[k]} > 0x10FFFFu);
  if (bad != 0) return nullptr;
  for (std::size_t k = 0; k < 15; ++k) {
    const std::uint32_t u = p[k];
    const bool sup = u > 0xFFFFu;
    o[0] = static_cast<Out>(sup ? 0xD7C0u + (u >> 10) : u);
    o[1] = static_cast<Out>(0xDC00u + (u & 0x3FFu));
    o += 1 + sup;
  }
  const std::uint32_t u = p[15];
  if (u > 0xFFFFu) {
    o[0] = static_cast<Out>(0xD7C0u + (u >> 10));
    o[1] = static_cast<Out>(0xDC00u + (u & 0x3FFu));
    return o + 2;
  }
  *o = static_cast<Out>(u);
  return o + 1;
}

/// True when the 16 values at p are all above FFFF (and scalar values).
constexpr bool supplementary16(const char32_t* p) noexcept {
  unsigned bad = 0;
  for (std::size_t k = 0; k < 16; ++k) bad |= static_cast<unsigned>(std::uint32_t{p[k]} - 0x10000u > 0xFFFFFu);
  return bad == 0;
}

/// UTF-32 to UTF-16: the `m` values at p, all above FFFF, written as pairs at fixed places (a loop
/// with a count known only at run time, which g++ -O3 vectorises rather than unrolls).
template <class Out>
Out* supplementary_run(const char32_t* p, std::size_t m, Out* o) noexcept {
  for (std::size_t k = 0; k < m; ++k) {
    o[2 * k] = static_cast<Out>(0xD7C0u + (std::uint32_t{p[k]} >> 10));
    o[2 * k + 1] = static_cast<Out>(0xDC00u + (std::uint32_t{p[k]} & 0x3FFu));
  }
  return o + 2 * m;
}

/// UTF-16 to UTF-32: the 32 units at p converted as 16 values at fixed places when they are 16
/// surrogate pairs (text of emoji); false, nothing written, when not. Always inlined, as is
/// paired_block32_to_utf32: an out-of-line copy is an inline (COMDAT) function, and mingw-w64's g++
/// (12) lets an -O2 caller keep values in call-clobbered registers across the call that its own
/// copy leaves alone (-fipa-ra), while the linker may keep another unit's copy (one built at -O1,
/// which uses those registers): the caller's loop state was lost. ELF targets treat such copies as
/// replaceable and do not do that.
template <class Out>
UTF8DFA_ALWAYS_INLINE bool pairs_block32_to_utf32(const char16_t* p, Out* o) noexcept {
  using S = surrogate_bits<false>;
  constexpr std::uint32_t pair_offset = 0x10000u - (std::uint32_t{S::high} << 10) - S::low;  // modulo 2^32
  unsigned bad = 0;
  for (std::size_t k = 0; k < 16; ++k) bad |= ((p[2 * k] & S::mask) ^ S::high) | ((p[2 * k + 1] & S::mask) ^ S::low);
  if (bad != 0) return false;
  for (std::size_t k = 0; k < 16; ++k)
    o[k] = static_cast<Out>((std::uint32_t{p[2 * k]} << 10) + p[2 * k + 1] + pair_offset);
  return true;
}

/// UTF-16 to UTF-32: the 32 units at p, which start a character and which paired_block32 passed,
/// converted without a branch per unit; returns the end of the output (the units taken: 33 when
/// p[31] starts a pair). Each unit but the last writes a value, its own or (a high surrogate) its
/// pair's, and the output moves on unless the unit is a low surrogate, whose write the next one
/// overwrites; the last writes only what it takes, so nothing is written past the end.
template <class Out>
UTF8DFA_ALWAYS_INLINE Out* paired_block32_to_utf32(const char16_t* p, Out* o) noexcept {
  using S = surrogate_bits<false>;
  constexpr std::uint32_t pair_offset = 0x10000u - (std::uint32_t{S::high} << 10) - S::low;  // modulo 2^32
  for (std::size_t k = 0; k < 31; ++k) {
    const std::uint32_t u = p[k];
    const std::uint32_t high = 0u - static_cast<std::uint32_t>((u & S::mask) == S::high);  // all ones or 0
    *o = static_cast<Out>((u & ~high) | (((u << 10) + p[k + 1] + pair_offset) & high));
    o += (u & S::mask) != S::low;
  }
  const std::uint32_t u = p[31];
  if ((u & S::mask) == S::high)
    *o++ = static_cast<Out>((u << 10) + p[32] + pair_offset);
  else if ((u & S::mask) != S::low)
    *o++ = static_cast<Out>(u);
  return o;
}

/// The `Block` UTF-16 or UTF-32 units at p converted one to one into o (UTF-32 to UTF-16 or back)
/// when none is a surrogate or above FFFF: true; false, and nothing written, otherwise. Tested in
/// one loop, copied in another, both vectorised (a fixed count, pointers that do not overlap).
template <std::size_t Block, class In, class Out>
UTF8DFA_ALWAYS_INLINE bool one_to_one_block(const In* UTF8DFA_RESTRICT p, Out* UTF8DFA_RESTRICT o) noexcept {
  std::uint32_t bad = 0;
  for (std::size_t k = 0; k < Block; ++k) {
    const std::uint32_t u = p[k];
    bad |= static_cast<std::uint32_t>((u >> 11) == 0x1Bu) | (u >> 16);  // D800..DFFF, or above FFFF
  }
  if (bad != 0) return false;
  for (std::size_t k = 0; k < Block; ++k) o[k] = static_cast<Out>(p[k]);
  return true;
}

/// UTF-16 to UTF-32 or UTF-32 to UTF-16 (by In and Out), like the UTF-8 conversions: blocks of 16
/// units that map one to one copied as they are, well-formed UTF-16 blocks with pairs by
/// paired_block32_to_utf32, UTF-32 runs of blocks above FFFF by supplementary_run, other blocks of scalar values by
/// mixed_block16, the others unit by unit.
template <class Policy, class In, class Out>
packed_conversion utf_to_utf(const In* p, std::size_t n, Out* out, [[maybe_unused]] Policy pol) noexcept {
  Out* o = out;
  error_code first = error_code::none;
  bool wide = true;  // no block of 64 has failed since the last one-to-one block of 16: worth a try
  for (std::size_t i = 0; i < n;) {
    if (wide && n - i >= 64) {
      if (one_to_one_block<64>(p + i, o)) {
        i += 64;
        o += 64;
        continue;
      }
      wide = false;
    }
    if (n - i >= 16 && bmp_units16(p + i)) {
      std::size_t j = i + 16;
      while (n - j >= 16 && bmp_units16(p + j)) j += 16;
      o = copy_units(p + i, j - i, o);
      i = j;
      wide = true;
      continue;
    }
    if constexpr (sizeof(In) == 2) {  // a well-formed block with pairs
      if (n - i >= 32 && pairs_block32_to_utf32(p + i, o)) {
        i += 32;
        o += 16;
        continue;
      }
      if (n - i >= 33 && (p[i] & 0xFC00u) != 0xDC00u && paired_block32(p + i)) {
        o = paired_block32_to_utf32(p + i, o);
        i += 32 + ((p[i + 31] & 0xFC00u) == 0xD800u);
        continue;
      }
    }
    if constexpr (sizeof(In) == 4) {  // a valid block with characters above FFFF
      if (n - i >= 16) {
        if (supplementary16(p + i)) {
          std::size_t j = i + 16;
          while (n - j >= 16 && supplementary16(p + j)) j += 16;
          o = supplementary_run(p + i, j - i, o);
          i = j;
          continue;
        }
        if (Out* const e = mixed_block16(p + i, o)) {
          i += 16;
          o = e;
          continue;
        }
      }
    }
    const std::size_t stop = n - i < 16 ? n : i + 16;
    while (i < stop) {  // a pair may end one unit past `stop`
      const std::uint32_t u = p[i];
      if (u - 0xD800u >= 0x800u && (sizeof(In) == 2 || u <= 0xFFFFu)) {  // one unit either way
        *o++ = static_cast<Out>(u);
        ++i;
        continue;
      }
      if constexpr (sizeof(In) == 4) {
        if (u - 0x10000u < 0x100000u) {  // a supplementary character: a pair
          o[0] = static_cast<Out>(0xD7C0u + (u >> 10));
          o[1] = static_cast<Out>(0xDC00u + (u & 0x3FFu));
          o += 2;
          ++i;
          continue;
        }
      } else {
        if (u < 0xDC00u && n - i >= 2 && std::uint32_t{p[i + 1]} - 0xDC00u < 0x400u) {  // a pair
          *o++ = static_cast<Out>(0x10000u + ((u - 0xD800u) << 10) + (std::uint32_t{p[i + 1]} - 0xDC00u));
          i += 2;
          continue;
        }
      }
      const decoded d = decode_utf_at(p, n, i);
      char32_t c = d.code_point;
      const piece_action a = act_on(d.error, first, c, pol);
      if (a == piece_action::stop) return {i, static_cast<std::size_t>(o - out), d.error};
      if (a == piece_action::write) o = put_unit(o, c);
      i += d.length;
    }
  }
  return {n, static_cast<std::size_t>(o - out), first};
}

/// to_well_formed_utf16 on the characters of the `n` units at p that start in [i, stop) (the last
/// may end after it); returns where it stopped.
inline std::size_t to_well_formed_until(const char16_t* p, std::size_t n, std::size_t i, std::size_t stop,
                                        char16_t* out) noexcept {
  while (i < stop) {
    const decoded d = decode_utf16_at(p, n, i);
    if (d.error != error_code::none) {
      out[i] = static_cast<char16_t>(replacement_character);
    } else {  // the well-formed units as they are (one, or a pair)
      out[i] = p[i];
      if (d.length == 2) out[i + 1] = p[i + 1];
    }
    i += d.length;
  }
  return i;
}

/// UTF-16 with each unpaired surrogate replaced by U+FFFD into `out` (which may be `p`). Returns n.
/// The chunks skip_paired_blocks passes are copied as they are (not at all in place); the chunk
/// where it stops (up to 256 units, and the unit after it) goes character by character.
inline std::size_t to_well_formed_utf16_scalar(const char16_t* p, std::size_t n, char16_t* out) noexcept {
  std::size_t i = 0;
  while (i < n) {
    const std::size_t j = skip_paired_blocks(p, n, i);
    if (j != i && out != p) std::memcpy(out + i, p + i, (j - i) * sizeof(char16_t));
    i = to_well_formed_until(p, n, j, n - j < 257 ? n : j + 257, out);
  }
  return n;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/units.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A replacement value that no policy can produce: the kernels' encoding of `strict`.
inline constexpr char32_t strict_marker = 0xFFFFFFFFu;

/// The replacement a kernel writes for `replacement` as it takes it: strict_marker and skip_marker
/// (write nothing) as they are, anything else a scalar value (U+FFFD for one that is not).
constexpr char32_t kernel_repl(char32_t replacement) noexcept {
  return replacement == strict_marker || replacement == skip_marker ? replacement
                                                                    : replace{replacement}.replacement_value();
}

/// One implementation of every bulk operation. `replacement == strict_marker` means strict,
/// `skip_marker` skip (and for the lengths: nothing counted for an error). The UTF-8 decoders
/// (utf8_to_utf32, utf8_to_utf16, utf8_to_utf16_swapped) also take valid_marker, assume_valid: on
/// well-formed input what replace writes; on ill-formed input anything (the error reported or not)
/// within what replace with U+FFFD writes, which is what a kernel that does not tell it apart does.
struct kernel_table {
  const char* name;
  packed_validation (*validate)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*count_leads)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*utf16_length)(const unsigned char*, std::size_t) noexcept;  // of well-formed input
  packed_conversion (*utf8_to_utf32)(const unsigned char*, std::size_t, char32_t*, char32_t) noexcept;
  packed_conversion (*utf8_to_utf16)(const unsigned char*, std::size_t, char16_t*, char32_t) noexcept;
  packed_conversion (*utf16_to_utf8)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept;
  packed_conversion (*utf32_to_utf8)(const char32_t*, std::size_t, unsigned char*, char32_t) noexcept;
  // Exact output lengths of the conversions above, ill-formed input included: each error counted as
  // the replacement `repl` (a scalar value) that the replace policy writes for it, or as nothing
  // (repl == skip_marker).
  std::size_t (*utf16_length_from_utf8)(const unsigned char*, std::size_t, char32_t repl) noexcept;
  std::size_t (*utf32_length_from_utf8)(const unsigned char*, std::size_t, char32_t repl) noexcept;
  // (These two also take valid_marker: assume_valid's count, no check; scalar.hpp.)
  std::size_t (*utf8_length_from_utf16)(const char16_t*, std::size_t, char32_t repl) noexcept;
  std::size_t (*utf8_length_from_utf32)(const char32_t*, std::size_t, char32_t repl) noexcept;
  // Latin-1 and UTF-16 / UTF-32 input (latin1.hpp, utf16.hpp). utf8_to_latin1's replacement is
  // strict_marker, skip_marker or a value up to 0xFF.
  std::size_t (*latin1_to_utf8)(const unsigned char*, std::size_t, unsigned char*) noexcept;
  packed_conversion (*utf8_to_latin1)(const unsigned char*, std::size_t, unsigned char*, char32_t) noexcept;
  packed_validation (*validate_utf16)(const char16_t*, std::size_t) noexcept;
  packed_conversion (*utf16_to_utf32)(const char16_t*, std::size_t, char32_t*, char32_t) noexcept;
  packed_conversion (*utf32_to_utf16)(const char32_t*, std::size_t, char16_t*, char32_t) noexcept;
  std::size_t (*to_well_formed_utf16)(const char16_t*, std::size_t, char16_t*) noexcept;
  // count_utf16, validate_utf32, UTF-16 / UTF-32 to Latin-1 (replacement as for utf8_to_latin1),
  // Latin-1 to UTF-16 / UTF-32 and its UTF-8 length, byte-order changes (out may be the input).
  std::size_t (*count_utf16)(const char16_t*, std::size_t) noexcept;
  packed_validation (*validate_utf32)(const char32_t*, std::size_t) noexcept;
  packed_conversion (*utf16_to_latin1)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept;
  packed_conversion (*utf32_to_latin1)(const char32_t*, std::size_t, unsigned char*, char32_t) noexcept;
  std::size_t (*latin1_to_utf16)(const unsigned char*, std::size_t, char16_t*) noexcept;
  std::size_t (*latin1_to_utf32)(const unsigned char*, std::size_t, char32_t*) noexcept;
  std::size_t (*utf8_length_from_latin1)(const unsigned char*, std::size_t) noexcept;
  std::size_t (*change_endianness_utf16)(const char16_t*, std::size_t, char16_t*) noexcept;
  std::size_t (*change_endianness_utf32)(const char32_t*, std::size_t, char32_t*) noexcept;
  // validate_utf16 on units whose bytes are in the order opposite to the host's.
  packed_validation (*validate_utf16_swapped)(const char16_t*, std::size_t) noexcept;
  // utf16_to_utf8 reading, and utf8_to_utf16 writing, units whose bytes are in the order opposite to
  // the host's (same results, error positions and policy encoding as the host-order entries).
  packed_conversion (*utf16_swapped_to_utf8)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept;
  packed_conversion (*utf8_to_utf16_swapped)(const unsigned char*, std::size_t, char16_t*, char32_t) noexcept;
};

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/kernel_table.hpp ----
// ---- begin utf8dfa/detail/slot.hpp ----
// utf8dfa: a constant-initialised value that threads load and store atomically (the kernel in use,
// the CPU features). GCC and Clang: a plain object read and written with the compiler's __atomic
// built-ins, so that no header needs <atomic> (a few thousand lines in every including unit);
// other compilers: std::atomic.
#ifndef UTF8DFA_DETAIL_SLOT_HPP
#define UTF8DFA_DETAIL_SLOT_HPP

#if !(defined(__GNUC__) || defined(__clang__))
#include <atomic>
#endif


namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A T (a pointer or an integer) with acquire loads and release stores.
template <class T>
class atomic_slot {
 public:
  constexpr atomic_slot() noexcept = default;
  atomic_slot(const atomic_slot&) = delete;
  atomic_slot& operator=(const atomic_slot&) = delete;

#if defined(__GNUC__) || defined(__clang__)
  T load() const noexcept {
    return __atomic_load_n(&value_, __ATOMIC_ACQUIRE);
  }
  void store(T v) noexcept {
    __atomic_store_n(&value_, v, __ATOMIC_RELEASE);
  }

 private:
  T value_{};
#else
  T load() const noexcept {
    return value_.load(std::memory_order_acquire);
  }
  void store(T v) noexcept {
    value_.store(v, std::memory_order_release);
  }

 private:
  std::atomic<T> value_{};
#endif
};

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif  // UTF8DFA_DETAIL_SLOT_HPP
// ---- end utf8dfa/detail/slot.hpp ----

// The definitions: here when header-only, in the one UTF8DFA_IMPLEMENTATION translation unit
// (<utf8dfa/src.hpp>) with UTF8DFA_SEPARATE_COMPILATION.
#if !defined(UTF8DFA_SEPARATE_COMPILATION) || defined(UTF8DFA_IMPLEMENTATION)
// ---- begin utf8dfa/detail/kernel_list.hpp ----
// utf8dfa: the kernels of this build, and the definitions dispatch.hpp declares. Header-only, every
// translation unit that dispatches includes this (through dispatch.hpp); with
// UTF8DFA_SEPARATE_COMPILATION only <utf8dfa/src.hpp> does, and these functions are not inline.
//
// A kernel is a kernel_table (kernel_table.hpp) defined in its simd/<isa>/kernels.hpp; a new bulk
// operation is a new kernel_table field filled in every table: nothing here changes.
#ifndef UTF8DFA_DETAIL_KERNEL_LIST_HPP
#define UTF8DFA_DETAIL_KERNEL_LIST_HPP

#include <cstdlib>

// ---- begin utf8dfa/detail/cpu.hpp ----
// utf8dfa: what the x86-64 CPU and the operating system let the kernels use (cpuid + xgetbv).
// Detected once, on first use; the cache is a constant-initialised atomic slot, so there is no
// static-initialisation order issue and concurrent first calls merely detect twice.
#ifndef UTF8DFA_DETAIL_CPU_HPP
#define UTF8DFA_DETAIL_CPU_HPP



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
// ---- end utf8dfa/detail/cpu.hpp ----
// ---- begin utf8dfa/detail/scalar_kernels.hpp ----
// utf8dfa: the portable kernel, the scalar DFA's implementation of every bulk operation. Only the
// translation units that compile the kernel list include it (kernel_list.hpp: every unit that
// dispatches when header-only, <utf8dfa/src.hpp> alone with UTF8DFA_SEPARATE_COMPILATION), so the
// others do not instantiate the scalar kernels that its table names.
#ifndef UTF8DFA_DETAIL_SCALAR_KERNELS_HPP
#define UTF8DFA_DETAIL_SCALAR_KERNELS_HPP


// ---- begin utf8dfa/detail/swapped_kernels.hpp ----
// utf8dfa: UTF-16 <-> UTF-8 with the UTF-16 units in the byte order opposite to the host's, built
// from a kernel's byte-order change and host-order conversion (the kernels without conversions of
// their own in that order, and the vector kernels' short inputs). Plain code: any kernel's table
// may name these.
#ifndef UTF8DFA_DETAIL_SWAPPED_KERNELS_HPP
#define UTF8DFA_DETAIL_SWAPPED_KERNELS_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A kernel's change_endianness_utf16.
using swap16_fn = std::size_t (*)(const char16_t*, std::size_t, char16_t*) noexcept;

/// utf16_to_utf8 (Convert, a kernel's, same policy encoding) on the `n` units at p stored in the
/// other byte order: put into host order (Swap) a chunk at a time in a buffer and converted. A chunk
/// ends on a high surrogate only where the input does, so pairs stay together; a chunk that still
/// ends on one (a high surrogate before another) meets it as `incomplete`, reported as the
/// `surrogate` it is. Results are those of one call on the swapped input.
template <swap16_fn Swap, packed_conversion (*Convert)(const char16_t*, std::size_t, unsigned char*, char32_t) noexcept>
packed_conversion utf16_swapped_to_utf8_by_chunks(const char16_t* p, std::size_t n, unsigned char* out,
                                                  char32_t replacement) noexcept {
  constexpr std::size_t chunk = 4096;
  char16_t buf[chunk];
  packed_conversion r{n, 0, error_code::none};
  for (std::size_t pos = 0; pos < n;) {
    std::size_t len = n - pos < chunk ? n - pos : chunk;
    Swap(p + pos, len, buf);
    if (pos + len < n && buf[len - 1] >= 0xD800 && buf[len - 1] <= 0xDBFF) --len;
    const packed_conversion c = Convert(buf, len, out + r.written, replacement);
    r.written += c.written;
    if (c.error != error_code::none) {
      if (r.error == error_code::none)
        r.error = c.error == error_code::incomplete && pos + len < n ? error_code::surrogate : c.error;
      if (replacement == strict_marker) {
        r.read = pos + c.read;
        return r;
      }
    }
    pos += len;
  }
  return r;
}

/// utf8_to_utf16 (Convert, a kernel's) writing units in the other byte order: pieces of 8 KiB that
/// end before a byte other than a continuation are converted and swapped (Swap, in place) while in
/// cache; a piece with an error (or one cut inside a character: an `incomplete` error) is taken
/// again with the rest of the input in one call, so results are those of one call.
template <swap16_fn Swap, packed_conversion (*Convert)(const unsigned char*, std::size_t, char16_t*, char32_t) noexcept>
packed_conversion utf8_to_utf16_swapped_by_pieces(const unsigned char* p, std::size_t n, char16_t* out,
                                                  char32_t replacement) noexcept {
  constexpr std::size_t piece = 8192;
  std::size_t pos = 0, written = 0;
  while (n - pos > piece) {
    std::size_t cut = pos + piece;
    while (cut > pos + piece - 4 && (p[cut] & 0xC0u) == 0x80u) --cut;
    const packed_conversion r = Convert(p + pos, cut - pos, out + written, replacement);
    if (r.error != error_code::none) break;
    Swap(out + written, r.written, out + written);
    written += r.written;
    pos = cut;
  }
  const packed_conversion r = Convert(p + pos, n - pos, out + written, replacement);
  Swap(out + written, r.written, out + written);
  return {pos + r.read, written + r.written, r.error};
}

/// Exchanges the two bytes of each of the `n` units at p, in place (a vector kernel's scalar steps).
inline void swap_units_in_place(char16_t* p, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<char16_t>((p[i] >> 8) | ((p[i] & 0xFFu) << 8));
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/swapped_kernels.hpp ----
// ---- begin utf8dfa/detail/units_kernels.hpp ----
// utf8dfa: the scalar forms of the bulk operations on Latin-1, UTF-16 and UTF-32 that are kernel
// operations in their own right (counting UTF-16, validating UTF-32, Latin-1 to UTF-16 / UTF-32 and
// the UTF-8 length of Latin-1, byte-order changes): the kernel table's portable entries and the
// reference of the vector kernels. Constexpr where the public function is.
#ifndef UTF8DFA_DETAIL_UNITS_KERNELS_HPP
#define UTF8DFA_DETAIL_UNITS_KERNELS_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// The unit with its bytes in the opposite order.
constexpr char16_t swap_bytes(char16_t u) noexcept {
  return static_cast<char16_t>(((u & 0xFFu) << 8) | (u >> 8));
}
constexpr char32_t swap_bytes(char32_t u) noexcept {
  return ((u & 0xFFu) << 24) | ((u & 0xFF00u) << 8) | ((u >> 8) & 0xFF00u) | (u >> 24);
}

/// Code points in UTF-16: one per surrogate pair or other unit.
constexpr std::size_t count_utf16_scalar(const char16_t* p, std::size_t n) noexcept {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++count) i += decode_utf16_at(p, n, i).length;
  return count;
}

/// The pairs (a high surrogate, then a low one) that start in [from, to) of the `n` units at p:
/// count_utf16 is n less the pairs.
inline std::size_t pair_starts_scalar(const char16_t* p, std::size_t n, std::size_t from, std::size_t to) noexcept {
  std::size_t pairs = 0;
  for (std::size_t i = from; i < to && i + 1 < n; ++i)
    pairs += (p[i] & 0xFC00u) == 0xD800u && (p[i + 1] & 0xFC00u) == 0xDC00u;
  return pairs;
}

/// The kernel table's count_utf16: n less the pairs, counted without a branch: in blocks of 256
/// units with 16-bit sums (which the compilers vectorise in 16-bit lanes), the rest (short input
/// too) in one loop of run-time length (with g++, 64 B ran 1.6x faster than by words of four
/// units); rather than count_utf16_scalar's walk from character to character. With clang++ the
/// unit after each is read through opaque (see paired_units): 256 B 1.26x as fast.
inline std::size_t count_utf16_by_pairs(const char16_t* p, std::size_t n) noexcept {
  if (n < 2) return n;
  const char16_t* next = clang_codegen ? opaque(p + 1) : p + 1;
  const auto starts_pair = [p, next](std::size_t i) {
    return static_cast<unsigned>(((p[i] & 0xFC00u) == 0xD800u) & ((next[i] & 0xFC00u) == 0xDC00u));
  };
  std::size_t pairs = 0, i = 0;
  for (; n - i > 256; i += 256) {  // the unit after the block is read too
    std::uint16_t block = 0;
    for (std::size_t k = 0; k < 256; ++k) block = static_cast<std::uint16_t>(block + starts_pair(i + k));
    pairs += block;
  }
  // Up to 256 units left: one loop of run-time length over the units a pair can start at (all but
  // the last), on a pointer to them (through starts_pair, g++ 12 did not vectorise it: 64 B 0.22x).
  const char16_t* q = p + i;
  const char16_t* qn = next + i;
  const std::size_t m = n - i - 1;
  std::uint16_t rest = 0;
  for (std::size_t k = 0; k < m; ++k)
    rest = static_cast<std::uint16_t>(rest + (((q[k] & 0xFC00u) == 0xD800u) & ((qn[k] & 0xFC00u) == 0xDC00u)));
  return n - pairs - rest;
}

/// validate_utf16 on the `n` units at p with the bytes of each exchanged (UTF-16 in the byte order
/// opposite to the host's).
inline packed_validation validate_utf16_swapped_scalar(const char16_t* p, std::size_t n) noexcept {
  for (std::size_t i = skip_paired_blocks<true>(p, n, 0); i < n; ++i) {
    const char16_t u = swap_bytes(p[i]);
    if (u < 0xD800 || u > 0xDFFF) continue;
    if (u >= 0xDC00) return {i, 1, error_code::surrogate};
    if (i + 1 == n) return {i, 0, error_code::incomplete};
    const char16_t v = swap_bytes(p[i + 1]);
    if (v < 0xDC00 || v > 0xDFFF) return {i, 1, error_code::surrogate};
    ++i;
  }
  return {n, 0, error_code::none};
}

/// The kernel entry for UTF-32 validation.
constexpr packed_validation validate_utf32_scalar(const char32_t* p, std::size_t n) noexcept {
  return validate_utf(p, n);
}

/// The `n` units or bytes at p, each through `f`, into out (which does not overlap them): blocks
/// of 64 (the last one ending at n, written again in part, when n is 64 or more).
template <class In, class Out, class F>
void map_units(const In* p, std::size_t n, Out* out, F f) noexcept {
  constexpr std::size_t block = 64;
  if (n < block) {
    for (std::size_t i = 0; i < n; ++i) out[i] = f(p[i]);
    return;
  }
  std::size_t i = 0;
  for (; n - i >= block; i += block) map_block<block>(p + i, out + i, f);
  if (i < n) map_block<block>(p + n - block, out + n - block, f);
}

/// Latin-1 bytes to UTF-16 or UTF-32 units (one each). Returns n.
template <class Out>
std::size_t latin1_widen_scalar(const unsigned char* p, std::size_t n, Out* out) noexcept {
  // Input under 16 bytes, and input of 256 bytes or more into UTF-32, by a plain loop (which compilers
  // vectorise with a scalar tail); the rest by blocks on pointers that do not overlap, the last one
  // overlapping the one before. With g++ 12, UTF-16 output of 64 B to 1 KiB of text ran 1.2-1.4x
  // faster than by the loop (a copy of each block through the stack, which g++ 12 kept storing,
  // cost a third more at 1 KiB); UTF-32 output of ~100 KB ran by blocks at 0.7x the loop's speed
  // on an Intel Xeon (the same on an AMD EPYC).
  if (n < 16 || (sizeof(Out) == 4 && n >= 256)) {
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<Out>(p[i]);
    return n;
  }
  const auto widen = [](unsigned char b) { return static_cast<Out>(b); };
  std::size_t i = 0;
  for (; n - i >= 32; i += 32) map_block<32>(p + i, out + i, widen);
  if (n - i >= 16) {
    map_block<16>(p + i, out + i, widen);
    i += 16;
  }
  if (i < n) map_block<16>(p + n - 16, out + n - 16, widen);
  return n;
}

/// Bytes of the UTF-8 of Latin-1: one per byte, two for 80..FF.
inline std::size_t utf8_length_from_latin1_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t total = n;
  for (std::size_t i = 0; i < n; ++i) total += p[i] >> 7;
  return total;
}

/// The units with their bytes in the opposite order into `out` (which may be `p`). Returns n.
template <class Unit>
std::size_t change_endianness_scalar(const Unit* p, std::size_t n, Unit* out) noexcept {
  if (out == p) {
    // Blocks of 64 units (a loop of fixed count, which compilers unroll: the loop of run-time length
    // they vectorised one vector a step, 0.67x simdutf fallback's speed in place), then the rest.
    std::size_t i = 0;
    for (; n - i >= 64; i += 64)
      for (std::size_t k = 0; k < 64; ++k) out[i + k] = swap_bytes(out[i + k]);
    for (; i < n; ++i) out[i] = swap_bytes(out[i]);
  } else {
    map_units(p, n, out, [](Unit u) { return swap_bytes(u); });
  }
  return n;
}

/// Units of `Unit` from p to the next 64-byte boundary (0 when p is on one): the vector kernels'
/// loads from there on do not straddle cache lines.
template <class Unit>
std::size_t units_to_line(const Unit* p) noexcept {
  return (64 - reinterpret_cast<std::uintptr_t>(p) % 64) % 64 / sizeof(Unit);
}

/// The kernels' encoding of a policy into Latin-1 (strict_marker, skip_marker or the replacement
/// byte, '?' for assume_valid); false for a replacement above U+00FF.
template <class Policy>
constexpr bool latin1_kernel_replacement(const Policy& pol, char32_t& repl) noexcept {
  unsigned char byte = '?';
  if (!latin1_replacement(pol, byte)) return false;
  repl = byte;
  if constexpr (Policy::stops_on_error)
    repl = strict_marker;
  else if constexpr (skips_errors_v<Policy>)
    repl = skip_marker;
  return true;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/units_kernels.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Runs a policy-templated kernel with the policy encoded as a replacement value (the kernels
/// inlined into it; aligned, since on the AMD machine of README's benchmarks the scalar UTF-16 and
/// UTF-32 to UTF-8 loops ran 16-20% slower starting 32 bytes past a cache line than at its start).
template <class In, class Out, packed_conversion (*Strict)(const In*, std::size_t, Out*, strict) noexcept,
          packed_conversion (*Replace)(const In*, std::size_t, Out*, replace) noexcept,
          packed_conversion (*Skip)(const In*, std::size_t, Out*, skip) noexcept>
UTF8DFA_ALIGN_CODE packed_conversion by_policy(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  if (replacement == strict_marker) return Strict(p, n, out, strict{});
  if (replacement == skip_marker) return Skip(p, n, out, skip{});
  return Replace(p, n, out, replace{replacement});
}

/// UTF-8 to Latin-1: ASCII runs copied in one loop and C2/C3 pairs (U+0080..U+00FF) that the shift
/// DFA accepts written in the same loop; any other piece (an error, a character above U+00FF, the
/// last byte) by decode_at, as to_latin1 does it.
template <class Policy>
packed_conversion utf8_to_latin1_scalar(const unsigned char* p, std::size_t n, unsigned char* out,
                                        Policy pol) noexcept {
  unsigned char repl = '?';
  if (!latin1_replacement(pol, repl)) return {0, 0, error_code::unrepresentable};
  std::size_t i = 0;
  unsigned char* o = out;
  error_code first = error_code::none;
  for (;;) {
    while (i < n) {
      const std::uint32_t b0 = p[i];
      if (b0 < 0x80u) {
        if (!copy_ascii(p, n, i, o)) {
          *o++ = static_cast<unsigned char>(b0);
          ++i;
        }
        continue;
      }
      if ((b0 & 0xFEu) != 0xC2u || n - i < 2) break;
      const std::uint32_t b1 = p[i + 1];
      if ((step(step(s_accept, static_cast<std::uint8_t>(b0)), static_cast<std::uint8_t>(b1)) & state_mask) != s_accept)
        break;
      *o++ = static_cast<unsigned char>(((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu));
      i += 2;
    }
    if (i >= n) break;
    const decoded d = decode_at(p, n, i);
    error_code e = d.error;
    if (e == error_code::none && d.code_point > 0xFF) e = error_code::unrepresentable;
    if (UTF8DFA_UNLIKELY(e != error_code::none)) {
      if (first == error_code::none) first = e;
      if constexpr (stops_on_error<Policy>) {
        return {i, static_cast<std::size_t>(o - out), e};
      } else if constexpr (!skips_errors_v<Policy>) {
        *o++ = repl;
      }
    } else {
      *o++ = static_cast<unsigned char>(d.code_point);
    }
    i += d.length;
  }
  return {n, static_cast<std::size_t>(o - out), first};
}

// The scalar DFA's conversions with the policy as a replacement value.
inline constexpr auto scalar_utf8_to_utf32 =
    &by_policy<unsigned char, char32_t, &utf8_to_utf_scalar<strict, char32_t>, &utf8_to_utf_scalar<replace, char32_t>,
               &utf8_to_utf_scalar<skip, char32_t>>;
inline constexpr auto scalar_utf8_to_utf16 =
    &by_policy<unsigned char, char16_t, &utf8_to_utf_scalar<strict, char16_t>, &utf8_to_utf_scalar<replace, char16_t>,
               &utf8_to_utf_scalar<skip, char16_t>>;
inline constexpr auto scalar_utf16_to_utf8 =
    &by_policy<char16_t, unsigned char, &utf_to_utf8_scalar<strict, char16_t>, &utf_to_utf8_scalar<replace, char16_t>,
               &utf_to_utf8_scalar<skip, char16_t>>;
inline constexpr auto scalar_utf32_to_utf8 =
    &by_policy<char32_t, unsigned char, &utf_to_utf8_scalar<strict, char32_t>, &utf_to_utf8_scalar<replace, char32_t>,
               &utf_to_utf8_scalar<skip, char32_t>>;

inline constexpr auto scalar_utf8_to_latin1 = &by_policy<unsigned char, unsigned char, &utf8_to_latin1_scalar<strict>,
                                                         &utf8_to_latin1_scalar<replace>, &utf8_to_latin1_scalar<skip>>;
inline constexpr auto scalar_utf16_to_utf32 =
    &by_policy<char16_t, char32_t, &utf_to_utf<strict, char16_t, char32_t>, &utf_to_utf<replace, char16_t, char32_t>,
               &utf_to_utf<skip, char16_t, char32_t>>;
inline constexpr auto scalar_utf32_to_utf16 =
    &by_policy<char32_t, char16_t, &utf_to_utf<strict, char32_t, char16_t>, &utf_to_utf<replace, char32_t, char16_t>,
               &utf_to_utf<skip, char32_t, char16_t>>;

inline constexpr auto scalar_utf16_to_latin1 = &by_policy<char16_t, unsigned char, &to_latin1<strict, char16_t>,
                                                          &to_latin1<replace, char16_t>, &to_latin1<skip, char16_t>>;
inline constexpr auto scalar_utf32_to_latin1 = &by_policy<char32_t, unsigned char, &to_latin1<strict, char32_t>,
                                                          &to_latin1<replace, char32_t>, &to_latin1<skip, char32_t>>;

// UTF-16 in the other byte order: the scalar conversions on swapped chunks.
inline constexpr auto scalar_utf16_swapped_to_utf8 =
    &utf16_swapped_to_utf8_by_chunks<&change_endianness_scalar<char16_t>, scalar_utf16_to_utf8>;
inline constexpr auto scalar_utf8_to_utf16_swapped =
    &utf8_to_utf16_swapped_by_pieces<&change_endianness_scalar<char16_t>, scalar_utf8_to_utf16>;

inline constexpr kernel_table scalar_kernels{
    "scalar",
    &validate_scalar,
    &count_leads_scalar,
    &utf16_length_scalar,
    scalar_utf8_to_utf32,
    scalar_utf8_to_utf16,
    scalar_utf16_to_utf8,
    scalar_utf32_to_utf8,
    &utf8_units_by<true, &validate_scalar, &utf16_length_scalar>,
    &utf8_units_by<false, &validate_scalar, &count_leads_scalar>,
    &utf8_length_scalar<char16_t>,
    &utf8_length_scalar<char32_t>,
    &latin1_to_utf8_scalar,
    scalar_utf8_to_latin1,
    &validate_utf16_scalar,
    scalar_utf16_to_utf32,
    scalar_utf32_to_utf16,
    &to_well_formed_utf16_scalar,
    &count_utf16_by_pairs,
    &validate_utf32_scalar,
    scalar_utf16_to_latin1,
    scalar_utf32_to_latin1,
    &latin1_widen_scalar<char16_t>,
    &latin1_widen_scalar<char32_t>,
    &utf8_length_from_latin1_scalar,
    &change_endianness_scalar<char16_t>,
    &change_endianness_scalar<char32_t>,
    &validate_utf16_swapped_scalar,
    scalar_utf16_swapped_to_utf8,
    scalar_utf8_to_utf16_swapped,
};

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/scalar_kernels.hpp ----
// ---- begin utf8dfa/detail/simd/avx2/kernels.hpp ----
// utf8dfa: the AVX2 kernel table.
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_KERNELS_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_KERNELS_HPP

// ---- begin utf8dfa/detail/simd/short_input.hpp ----
// utf8dfa: what a vector kernel does with inputs too short for its blocks. Plain code (no target
// attributes): the kernels' tables wrap their conversions in these.
#ifndef UTF8DFA_DETAIL_SIMD_SHORT_INPUT_HPP
#define UTF8DFA_DETAIL_SIMD_SHORT_INPUT_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A vector conversion for inputs of at least `MinUnits` code units, the scalar one below: a vector
/// kernel's setup (masks, permute tables) costs more than the DFA on a few characters.
template <class In, class Out, packed_conversion (*Vector)(const In*, std::size_t, Out*, char32_t) noexcept,
          packed_conversion (*Scalar)(const In*, std::size_t, Out*, char32_t) noexcept, std::size_t MinUnits>
packed_conversion vector_from(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  return n < MinUnits ? Scalar(p, n, out, replacement) : Vector(p, n, out, replacement);
}

/// True when the n bytes at p (8 <= n) start with 8 ASCII bytes and have at most one byte in 16
/// above 7F: text the scalar DFA, which takes ASCII runs 8 or 16 bytes a step, converts faster than
/// a vector kernel's padded copy does. Bytes above 7F are counted in the byte lanes of a word and
/// the lanes summed in its top byte (no popcnt in the baseline instruction set), which holds the sum
/// for n under 240; bytes in two of the words read count twice. (Other scripts than Latin leave at
/// the first word.)
inline bool mostly_ascii(const unsigned char* p, std::size_t n) noexcept {
  if ((load64(p) & high_bits) != 0) return false;
  std::uint64_t lanes = (load64(p + n - 8) & high_bits) >> 7;
  for (std::size_t k = 0; n - k >= 16; k += 8) lanes += (load64(p + k) & high_bits) >> 7;
  return ((lanes * 0x0101010101010101ull) >> 56) * 16 <= n;
}

/// vector_from for UTF-8 input, where the vector kernel's way with inputs under `Below` bytes (a
/// padded copy) costs more than the scalar DFA on mostly_ascii text (64 bytes of Portuguese text
/// with one accented letter, timed alone: 16 ns against 24).
template <class Out, packed_conversion (*Vector)(const unsigned char*, std::size_t, Out*, char32_t) noexcept,
          packed_conversion (*Scalar)(const unsigned char*, std::size_t, Out*, char32_t) noexcept, std::size_t MinUnits,
          std::size_t Below>
packed_conversion vector_unless_mostly_ascii(const unsigned char* p, std::size_t n, Out* out,
                                             char32_t replacement) noexcept {
  static_assert(MinUnits >= 8 && Below <= 240, "whole words, a byte for the count");
  if (n < MinUnits) return Scalar(p, n, out, replacement);
  if (n < Below && mostly_ascii(p, n)) return Scalar(p, n, out, replacement);
  return Vector(p, n, out, replacement);
}

/// Output units a conversion may write per input unit: a byte of UTF-8 or a unit of UTF-16 or
/// UTF-32 read as an error becomes one replacement, which may be a supplementary character.
template <class Out>
inline constexpr std::size_t most_out_per_unit = sizeof(Out) == 1   ? 4
                                                 : sizeof(Out) == 2 ? 2
                                                                    : 1;

/// vector_from for a kernel without masked loads and stores, whose blocks need `Pad` units of
/// input after them and whose last few units go to the scalar DFA: an input of MinUnits up to
/// PadBelow units is copied into a buffer and followed by Pad zero units, the vector conversion
/// runs there, and its output is copied out. A zero unit is a character of its own in every
/// encoding (U+0000), so it ends a character cut by the end of the input exactly as the end does,
/// and it writes one zero unit: the input's output is the buffer's output less its last Pad units.
/// An input with an error is converted again by the scalar DFA, into `out`, which says whether an
/// error at the end is an incomplete character (the buffer's run sees it cut by a zero).
template <class In, class Out, packed_conversion (*Vector)(const In*, std::size_t, Out*, char32_t) noexcept,
          packed_conversion (*Scalar)(const In*, std::size_t, Out*, char32_t) noexcept, std::size_t PadBelow,
          std::size_t Pad>
UTF8DFA_NOINLINE packed_conversion convert_padded(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  In in[PadBelow + Pad];
  Out converted[(PadBelow + Pad) * most_out_per_unit<Out>];
  std::memcpy(in, p, n * sizeof(In));
  std::memset(in + n, 0, Pad * sizeof(In));
  const packed_conversion r = Vector(in, n + Pad, converted, replacement);
  if (r.error != error_code::none || r.read != n + Pad || r.written < Pad) return Scalar(p, n, out, replacement);
  std::memcpy(out, converted, (r.written - Pad) * sizeof(Out));
  return {n, r.written - Pad, error_code::none};
}

template <class In, class Out, packed_conversion (*Vector)(const In*, std::size_t, Out*, char32_t) noexcept,
          packed_conversion (*Scalar)(const In*, std::size_t, Out*, char32_t) noexcept, std::size_t MinUnits,
          std::size_t PadBelow, std::size_t Pad>
packed_conversion padded_from(const In* p, std::size_t n, Out* out, char32_t replacement) noexcept {
  static_assert(Pad > 0 && MinUnits <= PadBelow, "at least one zero unit ends the copied input");
  if (n < MinUnits) return Scalar(p, n, out, replacement);
  if (n >= PadBelow) return Vector(p, n, out, replacement);
  return convert_padded<In, Out, Vector, Scalar, PadBelow, Pad>(p, n, out, replacement);
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/simd/short_input.hpp ----
// ---- begin utf8dfa/detail/simd/avx2/length.hpp ----
// utf8dfa: AVX2 output lengths of the conversions, exact on ill-formed input too: the block check
// and a count in one pass over well-formed blocks, the scalar decoder over a block that holds an
// error and over the tail shorter than a block (length_common.hpp).
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_LENGTH_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_LENGTH_HPP

// ---- begin utf8dfa/detail/simd/length_common.hpp ----
// utf8dfa: what the SIMD length functions of every instruction set share: the loop that runs a
// kernel's vector count over the well-formed stretches of the input and the scalar decoder
// (scalar.hpp) over the blocks that hold an error (plain code, no target attributes).
#ifndef UTF8DFA_DETAIL_SIMD_LENGTH_COMMON_HPP
#define UTF8DFA_DETAIL_SIMD_LENGTH_COMMON_HPP


// ---- begin utf8dfa/detail/simd/generic.hpp ----
// utf8dfa: what every SIMD validation kernel shares: the byte-pair lookup tables of the vectorised
// check (Keiser & Lemire, "Validating UTF-8 In Less Than One Instruction Per Byte", 2021) derived
// from the grammar of dfa.hpp and proved against the DFA at compile time (tests/tables_test.cpp),
// and the scalar re-scan that turns "this block is bad" into the exact answer of validate_scalar.
//
// The vector check looks at every byte b2 together with the byte before it, b1:
//   flags = first_high[b1 >> 4] & first_low[b1 & 15] & second_high[b2 >> 4]
// Each flag bit is one kind of forbidden pair whose set of b1 factors into (high nibbles x low
// nibbles) and whose set of b2 is a union of high nibbles, so the AND of three 16-entry lookups
// is non-zero exactly for the forbidden pairs. The bit `pair_two_conts` (continuation after
// continuation) is not an error by itself: it must be set exactly where the byte two places back
// is a lead of 3 or 4 bytes, or the byte three places back a lead of 4 bytes.
#ifndef UTF8DFA_DETAIL_SIMD_GENERIC_HPP
#define UTF8DFA_DETAIL_SIMD_GENERIC_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A forbidden kind of byte pair: b1 in [lo1, hi1] followed by b2 in [lo2, hi2].
struct pair_rule {
  std::uint8_t bit, lo1, hi1, lo2, hi2;
};

inline constexpr std::uint8_t pair_too_short = 0x01;   // lead of 2..4 bytes, then no continuation
inline constexpr std::uint8_t pair_too_long = 0x02;    // ASCII, then a continuation
inline constexpr std::uint8_t pair_overlong_3 = 0x04;  // E0 80..9F
inline constexpr std::uint8_t pair_too_large = 0x08;   // F4..FF 90..BF
inline constexpr std::uint8_t pair_surrogate = 0x10;   // ED A0..BF
inline constexpr std::uint8_t pair_overlong_2 = 0x20;  // C0..C1 continuation
inline constexpr std::uint8_t pair_overlong_4 = 0x40;  // F0 80..8F, and F5..FF 80..8F
inline constexpr std::uint8_t pair_two_conts = 0x80;   // continuation after continuation

// The grammar rows the rules read their ranges from.
inline constexpr const sequence_rule& rule_ascii = grammar[0];
inline constexpr const sequence_rule& rule_c2 = grammar[1];
inline constexpr const sequence_rule& rule_e0 = grammar[2];
inline constexpr const sequence_rule& rule_ed = grammar[4];
inline constexpr const sequence_rule& rule_f0 = grammar[6];
inline constexpr const sequence_rule& rule_f4 = grammar[8];
static_assert(rule_c2.lead.lo == 0xC2 && rule_e0.lead.lo == 0xE0 && rule_ed.lead.lo == 0xED &&
                  rule_f0.lead.lo == 0xF0 && rule_f4.lead.lo == 0xF4,
              "grammar rows in RFC 3629 order");

constexpr std::uint8_t u8(unsigned v) noexcept {
  return static_cast<std::uint8_t>(v);
}

/// The forbidden pairs, each range read off the grammar: a restricted second byte's complement
/// within UTF8-tail, the bytes no rule starts with, and the continuation structure.
inline constexpr pair_rule pair_rules[] = {
    {pair_too_short, u8(rule_c2.lead.lo & 0xF0), 0xFF, rule_ascii.lead.lo, rule_ascii.lead.hi},
    {pair_too_short, u8(rule_c2.lead.lo & 0xF0), 0xFF, u8(utf8_tail.hi + 1), 0xFF},
    {pair_too_long, rule_ascii.lead.lo, rule_ascii.lead.hi, utf8_tail.lo, utf8_tail.hi},
    {pair_overlong_3, rule_e0.lead.lo, rule_e0.lead.hi, utf8_tail.lo, u8(rule_e0.tail[0].lo - 1)},
    {pair_too_large, rule_f4.lead.lo, 0xFF, u8(rule_f4.tail[0].hi + 1), utf8_tail.hi},
    {pair_surrogate, rule_ed.lead.lo, rule_ed.lead.hi, u8(rule_ed.tail[0].hi + 1), utf8_tail.hi},
    {pair_overlong_2, u8(utf8_tail.hi + 1), u8(rule_c2.lead.lo - 1), utf8_tail.lo, utf8_tail.hi},
    {pair_overlong_4, rule_f0.lead.lo, rule_f0.lead.hi, utf8_tail.lo, u8(rule_f0.tail[0].lo - 1)},
    {pair_overlong_4, u8(rule_f4.lead.hi + 1), 0xFF, utf8_tail.lo, rule_f4.tail[0].hi},
    {pair_two_conts, utf8_tail.lo, utf8_tail.hi, utf8_tail.lo, utf8_tail.hi},
};

/// The three 16-entry lookups (each 16 bytes, as one vector register lane loads them).
struct pair_tables {
  std::uint8_t first_high[16]{}, first_low[16]{}, second_high[16]{};
  bool factorable = true;  // every rule has the (nibble x nibble) x nibble shape
};

constexpr pair_tables build_pair_tables() {
  pair_tables t{};
  for (const pair_rule& r : pair_rules) {
    const unsigned h_lo = r.lo1 >> 4, h_hi = r.hi1 >> 4;
    const bool one_row = h_lo == h_hi;
    if (!one_row && ((r.lo1 & 15) != 0 || (r.hi1 & 15) != 15)) t.factorable = false;
    if ((r.lo2 & 15) != 0 || (r.hi2 & 15) != 15) t.factorable = false;
    for (unsigned h = h_lo; h <= h_hi; ++h) t.first_high[h] |= r.bit;
    for (unsigned l = one_row ? (r.lo1 & 15u) : 0u; l <= (one_row ? (r.hi1 & 15u) : 15u); ++l) t.first_low[l] |= r.bit;
    for (unsigned h = r.lo2 >> 4; h <= (r.hi2 >> 4); ++h) t.second_high[h] |= r.bit;
  }
  return t;
}

inline constexpr pair_tables pair_lookup = build_pair_tables();
static_assert(pair_lookup.factorable, "every forbidden pair set is a product of nibble ranges");

/// The flags the vector check computes for the pair (b1, b2).
constexpr std::uint8_t pair_flags(unsigned b1, unsigned b2) noexcept {
  return pair_lookup.first_high[b1 >> 4] & pair_lookup.first_low[b1 & 15] & pair_lookup.second_high[b2 >> 4];
}

/// What the DFA says about the pair: b1 read as the start of a character (b1 not a continuation)
/// fails at b1 or at b2. A continuation b1 is judged by its context (the two_conts rule).
constexpr bool dfa_rejects_pair(unsigned b1, unsigned b2) noexcept {
  if (utf8_tail.contains(b1)) return false;
  const std::uint8_t s = dfa.next(accept_state, b1);
  if (s == reject_state) return true;
  if (s == accept_state) return utf8_tail.contains(b2);
  return dfa.next(s, b2) == reject_state;
}

/// The tables agree with the DFA on every pair whose first byte lies in [lo, hi).
constexpr bool pair_tables_match_dfa(unsigned lo, unsigned hi) noexcept {
  for (unsigned b1 = lo; b1 < hi; ++b1)
    for (unsigned b2 = 0; b2 < 256; ++b2) {
      const unsigned f = pair_flags(b1, b2);
      if (((f & 0x7Fu) != 0) != dfa_rejects_pair(b1, b2)) return false;
      if (((f & pair_two_conts) != 0) != (utf8_tail.contains(b1) && utf8_tail.contains(b2))) return false;
    }
  return true;
}
// tests/tables_test.cpp checks every one of the 65536 pairs at compile time (once, not in every
// translation unit that includes the kernels).

/// Leads from these values on need a continuation two (three) places after them.
inline constexpr std::uint8_t lead3_min = rule_e0.lead.lo;
inline constexpr std::uint8_t lead4_min = rule_f0.lead.lo;

constexpr bool continuation_thresholds_match_dfa() noexcept {
  for (unsigned b = 0; b < 256; ++b) {
    const std::uint8_t s = dfa.next(accept_state, b);
    if (s == reject_state) continue;  // C0, C1, F5..FF, continuations: caught by the pair rules
    const unsigned tails = s == accept_state ? 0u : dfa.desc[s].count;
    if ((tails >= 2) != (b >= lead3_min) || (tails >= 3) != (b >= lead4_min)) return false;
  }
  return true;
}
static_assert(continuation_thresholds_match_dfa(), "3- and 4-byte leads are exactly E0.. and F0..");

// ---------------------------------------------------------------------------------------------
// Exact answers. A kernel checks blocks; once [0, b) passed every check (it is well-formed except
// perhaps a character cut by b) and the block at b fails, the first error starts at or after the
// last character start before b, and the scalar decoder from there gives validate_scalar's answer.

/// What a kernel's block checker returns when every block passed.
inline constexpr std::size_t blocks_pass = ~std::size_t{0};

/// The start of the character that contains the byte before b (or b itself), for a prefix
/// [0, b) that passed the block checks.
inline std::size_t boundary_before(const unsigned char* p, std::size_t b) noexcept {
  for (std::size_t j = b; j > 0 && b - j < 3;) {
    --j;
    if (!is_continuation(p[j])) return j;
  }
  return b;
}

/// The exact result for [0, n), given that [0, b) passed the block checks.
inline packed_validation rescan_from(const unsigned char* p, std::size_t n, std::size_t b) noexcept {
  return validate_from(p, n, boundary_before(p, b));
}

/// True when the well-formed prefix [0, n) ends inside a character (a lead in its last 3 bytes
/// that needs more bytes than remain).
inline bool ends_incomplete(const unsigned char* p, std::size_t n) noexcept {
  return (n >= 1 && p[n - 1] >= 0xC0) || (n >= 2 && p[n - 2] >= lead3_min) || (n >= 3 && p[n - 3] >= lead4_min);
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/simd/generic.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A vector count over [p, p+n) read as the start of a text: returns blocks_pass when the whole
/// input is well-formed (`count` is then its length), else b such that [0, b) passed the checks
/// (`count` holds the length of its characters, a character cut by b counted by its lead) and the
/// scalar decoder must take over at the character start before b, for at most `span` units past b.
template <class In>
using length_segment = std::size_t (*)(const In*, std::size_t, std::size_t& count) noexcept;

/// Units of UTF-8 after conversion (UTF-16 when Utf16, else UTF-32), by a vector count.
template <bool Utf16, length_segment<unsigned char> Segment, std::size_t Span>
std::size_t utf8_units_blocks(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  const std::size_t repl_units = replacement_units<Utf16>(repl);
  std::size_t total = 0, pos = 0;
  for (;;) {
    std::size_t count = 0;
    const std::size_t b = Segment(p + pos, n - pos, count);
    if (b == blocks_pass) return total + count;
    // The character cut by b was counted by its lead: the decoder reads it again.
    const std::size_t s = boundary_before(p + pos, b);
    total += count - (Utf16 ? utf16_length_scalar(p + pos + s, b - s) : count_leads_scalar(p + pos + s, b - s));
    const std::size_t end = n - (pos + b) < Span ? n : pos + b + Span;
    pos += s;
    total += utf8_units_region<Utf16>(p, n, pos, end, repl_units);
  }
}

/// UTF-8 bytes of UTF-16 or UTF-32 after conversion, by a vector count (for UTF-16, a high surrogate
/// is counted as 1 byte and its low surrogate as 3).
template <class In, length_segment<In> Segment, std::size_t Span>
std::size_t utf8_bytes_blocks(const In* p, std::size_t n, char32_t repl) noexcept {
  const std::size_t repl_bytes = replacement_bytes(repl);
  std::size_t total = 0, pos = 0;
  for (;;) {
    std::size_t count = 0;
    const std::size_t b = Segment(p + pos, n - pos, count);
    if (b == blocks_pass) return total + count;
    std::size_t s = b;
    if (sizeof(In) == 2 && s > 0 && (p[pos + s - 1] & 0xFC00) == 0xD800) {  // a pair cut by b: decode it whole
      --s;
      --count;
    }
    total += count;
    const std::size_t end = n - (pos + b) < Span ? n : pos + b + Span;
    pos += s;
    total += utf8_bytes_region(p, n, pos, end, repl_bytes);
  }
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/simd/length_common.hpp ----
// ---- begin utf8dfa/detail/simd/target.hpp ----
// utf8dfa: per-function instruction-set regions for the x86-64 kernels (and NEON on ARM64). Kernels are compiled
// through these attributes only, never through -m flags imposed on users; dispatch.hpp calls a kernel only after
// cpu.hpp has confirmed the CPU and the OS support it. config.hpp says which kernels the build has.
#ifndef UTF8DFA_DETAIL_SIMD_TARGET_HPP
#define UTF8DFA_DETAIL_SIMD_TARGET_HPP


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
// ---- end utf8dfa/detail/simd/target.hpp ----
// ---- begin utf8dfa/detail/simd/avx2/validate.hpp ----
// utf8dfa: AVX2 validation and counting (32-byte vectors, 64-byte blocks).
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_VALIDATE_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_VALIDATE_HPP



#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

UTF8DFA_TARGET_AVX2 inline __m256i splat(unsigned v) noexcept {
  return _mm256_set1_epi8(static_cast<char>(v));
}

UTF8DFA_TARGET_AVX2 inline __m256i load(const void* p) noexcept {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

/// A 16-entry table in both 128-bit lanes (vpshufb looks up within each lane).
UTF8DFA_TARGET_AVX2 inline __m256i lanes(const std::uint8_t* table16) noexcept {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(table16)));
}

/// Vector constants, every 8-, 16- or 32-bit lane V, read from memory: GCC rebuilds a splat that
/// does not stay in a register with three instructions (immediate, move, broadcast) at each use;
/// the empty asm hides the values from it, so that the load folds into the instruction using it.
template <class T>
struct alignas(32) lanes_of {
  T v[32 / sizeof(T)];
};

template <class T, T V>
constexpr lanes_of<T> make_lanes() {
  lanes_of<T> l{};
  for (T& x : l.v) x = V;
  return l;
}

template <class T, T V>
inline constexpr lanes_of<T> splat_lanes = make_lanes<T, V>();

template <class T, T V>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i splat_load() noexcept {
  const lanes_of<T>* l = &splat_lanes<T, V>;
  __asm__("" : "+r"(l));
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(l->v));
}

template <std::uint8_t V>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i k8() noexcept {
  return splat_load<std::uint8_t, V>();
}

template <std::uint16_t V>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i k16() noexcept {
  return splat_load<std::uint16_t, V>();
}

template <std::uint32_t V>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i k32() noexcept {
  return splat_load<std::uint32_t, V>();
}

/// The block check with its constants loaded once (outside the loops that use it).
struct checker {
  __m256i first_high, first_low, second_high, nibble, lead3, lead4, high_bit;

  UTF8DFA_TARGET_AVX2 checker() noexcept
      : first_high(lanes(pair_lookup.first_high)),
        first_low(lanes(pair_lookup.first_low)),
        second_high(lanes(pair_lookup.second_high)),
        nibble(splat(0x0F)),
        lead3(splat(lead3_min - 0x80u)),
        lead4(splat(lead4_min - 0x80u)),
        high_bit(splat(0x80)) {}

  /// Non-zero where the pair check or the 3-/4-byte continuation check fails in `in`.
  UTF8DFA_TARGET_AVX2 __m256i operator()(__m256i in, __m256i prev) const noexcept {
    // The 16 bytes before each 128-bit lane of `in`, for vpalignr.
    const __m256i before = _mm256_permute2x128_si256(prev, in, 0x21);
    const __m256i prev1 = _mm256_alignr_epi8(in, before, 15);
    const __m256i a = _mm256_shuffle_epi8(first_high, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble));
    const __m256i b = _mm256_shuffle_epi8(first_low, _mm256_and_si256(prev1, nibble));
    const __m256i c = _mm256_shuffle_epi8(second_high, _mm256_and_si256(_mm256_srli_epi16(in, 4), nibble));
    const __m256i flags = _mm256_and_si256(_mm256_and_si256(a, b), c);
    // Saturating subtraction leaves bit 7 set exactly for prev2 >= lead3_min, prev3 >= lead4_min.
    const __m256i is3 = _mm256_subs_epu8(_mm256_alignr_epi8(in, before, 14), lead3);
    const __m256i is4 = _mm256_subs_epu8(_mm256_alignr_epi8(in, before, 13), lead4);
    const __m256i must_continue = _mm256_and_si256(_mm256_or_si256(is3, is4), high_bit);
    return _mm256_xor_si256(flags, must_continue);
  }
};

/// checker's error vector for the 32 bytes `in` at q, the bytes before them read from memory (q - 3
/// lies inside the input): three loads instead of the lane permute and shifts that build them.
UTF8DFA_TARGET_AVX2 inline __m256i check_at(const checker& c, const unsigned char* q, __m256i in) noexcept {
  const __m256i prev1 = load(q - 1);
  const __m256i a = _mm256_shuffle_epi8(c.first_high, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), c.nibble));
  const __m256i b = _mm256_shuffle_epi8(c.first_low, _mm256_and_si256(prev1, c.nibble));
  const __m256i d = _mm256_shuffle_epi8(c.second_high, _mm256_and_si256(_mm256_srli_epi16(in, 4), c.nibble));
  const __m256i flags = _mm256_and_si256(_mm256_and_si256(a, b), d);
  const __m256i is3 = _mm256_subs_epu8(load(q - 2), c.lead3);
  const __m256i is4 = _mm256_subs_epu8(load(q - 3), c.lead4);
  const __m256i must_continue = _mm256_and_si256(_mm256_or_si256(is3, is4), c.high_bit);
  return _mm256_xor_si256(flags, must_continue);
}

/// Non-zero when `in` ends inside a character.
UTF8DFA_TARGET_AVX2 inline __m256i ends_incomplete(__m256i in) noexcept {
  const char x = -1;
  const __m256i limit = _mm256_setr_epi8(x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x,
                                         x, x, x, static_cast<char>(lead4_min - 1), static_cast<char>(lead3_min - 1),
                                         static_cast<char>(utf8_tail.hi));
  return _mm256_subs_epu8(in, limit);
}

UTF8DFA_TARGET_AVX2 inline bool any(__m256i v) noexcept {
  return !_mm256_testz_si256(v, v);
}

/// Inputs shorter than this are checked in a padded copy (the checks need 64 readable bytes).
inline constexpr std::size_t min_block_input = 64;

/// How far past the block start a failing check_blocks step reaches.
inline constexpr std::size_t block_span = 64;

/// Where a run of ASCII from j on ends: j past every 128 bytes that are all ASCII (four vectors
/// passed by one test), while 128 are left.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t ascii_run_end(const unsigned char* p, std::size_t n,
                                                                    std::size_t j) noexcept {
  while (n - j >= 128 &&
         _mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(load(p + j), load(p + j + 32)),
                                              _mm256_or_si256(load(p + j + 64), load(p + j + 96)))) == 0)
    j += 128;
  return j;
}

/// Runs the block checks over [p, p+n) (n >= min_block_input): `blocks_pass` when they all pass
/// (the input is well-formed), else b such that [0, b) passed and [b, b + block_span) failed.
UTF8DFA_TARGET_AVX2 inline std::size_t check_blocks(const unsigned char* p, std::size_t n) noexcept {
  const checker check;
  const __m256i zero = _mm256_setzero_si256();
  __m256i incomplete = zero;
  std::size_t i = 64;
  {  // The first block, with nothing before it (out of the loop, whose blocks read the bytes before them).
    const __m256i lo = load(p), hi = load(p + 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) != 0) {
      if (UTF8DFA_UNLIKELY(any(_mm256_or_si256(check(lo, zero), check(hi, lo))))) return 0;
      incomplete = ends_incomplete(hi);
    } else {
      i = ascii_run_end(p, n, 64);
    }
  }
  for (; n - i >= 64; i += 64) {
    const __m256i lo = load(p + i), hi = load(p + i + 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0) {
      if (UTF8DFA_UNLIKELY(any(incomplete))) return i;  // a character cut before the ASCII
      i = ascii_run_end(p, n, i + 64) - 64;
      continue;
    }
    const __m256i err = _mm256_or_si256(check_at(check, p + i, lo), check_at(check, p + i + 32, hi));
    if (UTF8DFA_UNLIKELY(any(err))) return i;
    incomplete = ends_incomplete(hi);
  }
  // The last 1..63 bytes: the last 32 after the 32 before them, and those after the 32 before them
  // when more than 32 are left (then i >= 64 and n >= 96); re-checking bytes that passed is harmless.
  __m256i err = incomplete;
  if (i < n) {
    const __m256i lo = load(p + n - 64), hi = load(p + n - 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) != 0) {
      err = _mm256_or_si256(check(hi, lo), ends_incomplete(hi));
      if (n - i > 32) err = _mm256_or_si256(err, check(lo, load(p + n - 96)));
    }
  }
  if (UTF8DFA_UNLIKELY(any(err))) return i;
  return blocks_pass;
}

/// rescan_from, out of line (the scalar DFA after a failing check).
UTF8DFA_NOINLINE inline packed_validation rescan_after(const unsigned char* p, std::size_t n, std::size_t b) noexcept {
  return rescan_from(p, n, b);
}

/// validate_scalar's answer for 32 <= n < min_block_input, with no copy (a copy's stores delay the
/// loads that read it back): the first 32 bytes after zero bytes (ASCII), and the last 32 after the
/// 4 bytes before them (zero bytes where these are before the input). An input that fails is
/// validated again by the scalar DFA, which says where and why.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline packed_validation validate_short(const unsigned char* p,
                                                                             std::size_t n) noexcept {
  const std::size_t q = n - 32;  // where the last 32 bytes start (0..31)
  std::uint32_t before = 0;      // the 4 bytes before q, the last highest
  if (q >= 4) {
    std::memcpy(&before, p + q - 4, 4);
  } else if (q > 0) {
    std::memcpy(&before, p, 4);
    before <<= 8 * (4 - q);
  }
  const checker check;
  const __m256i lo = load(p), hi = load(p + q);
  const __m256i prev = _mm256_insert_epi32(_mm256_setzero_si256(), static_cast<int>(before), 7);
  const __m256i err =
      _mm256_or_si256(_mm256_or_si256(check(lo, _mm256_setzero_si256()), check(hi, prev)), ends_incomplete(hi));
  if (UTF8DFA_LIKELY(!any(err))) return {n, 0, error_code::none};
  UTF8DFA_LEAVE_AVX();
  return validate_scalar(p, n);
}

/// validate_scalar's answer: 64-byte blocks from 64 bytes up, one block over a padded copy from 32,
/// the scalar DFA below.
UTF8DFA_TARGET_AVX2 inline packed_validation validate(const unsigned char* p, std::size_t n) noexcept {
  if (UTF8DFA_LIKELY(n >= min_block_input)) {
    const std::size_t b = check_blocks(p, n);
    if (UTF8DFA_LIKELY(b == blocks_pass)) return {n, 0, error_code::none};
    return rescan_after(p, n, b);
  }
  UTF8DFA_LEAVE_AVX();
  return n < 32 ? validate_scalar(p, n) : validate_short(p, n);
}

/// Bytes that are not continuation bytes (80..BF are the signed bytes below -64). Each compare
/// gives -1 per such byte; byte counters (two, for independent chains) subtract them for up to 127
/// steps of 128 bytes (at most 254 per counter), then vpsadbw adds the counters into 64-bit sums;
/// n is 32 or more. (The limit is loaded, not built: GCC turns a compare with a known splat into a
/// min and an equality, two instructions.)
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t count_leads_long(const unsigned char* p,
                                                                         std::size_t n) noexcept {
  const __m256i limit = k8<0xBF>(), zero = _mm256_setzero_si256();
  __m256i sums = zero;
  std::size_t i = 0;
  while (n - i >= 128) {
    const std::size_t steps = (n - i) / 128 < 127 ? (n - i) / 128 : 127;
    __m256i acc0 = zero, acc1 = zero;
    for (std::size_t s = 0; s < steps; ++s, i += 128) {
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpgt_epi8(load(p + i), limit));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpgt_epi8(load(p + i + 32), limit));
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpgt_epi8(load(p + i + 64), limit));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpgt_epi8(load(p + i + 96), limit));
    }
    sums = _mm256_add_epi64(sums, _mm256_add_epi64(_mm256_sad_epu8(acc0, zero), _mm256_sad_epu8(acc1, zero)));
  }
  const __m128i half = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
  auto count = static_cast<std::size_t>(_mm_cvtsi128_si64(half)) +
               static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(half, half)));
  for (; n - i >= 32; i += 32)
    count += static_cast<std::size_t>(
        _mm_popcnt_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(load(p + i), limit)))));
  if (i < n) {  // the last 32 bytes, those before i left out
    const auto leads = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(load(p + n - 32), limit)));
    count += static_cast<std::size_t>(_mm_popcnt_u64(std::uint64_t{leads} >> (32 - (n - i))));
  }
  return count;
}

/// count_leads: from 512 bytes count_leads_long; 32 to 511 bytes a vector a step, the last one
/// overlapping (no registers to save, no loop set-up); below, the scalar count.
UTF8DFA_TARGET_AVX2 inline std::size_t count_leads(const unsigned char* p, std::size_t n) noexcept {
  if (n >= 512) return count_leads_long(p, n);
  if (n < 32) {
    UTF8DFA_LEAVE_AVX();
    return count_leads_scalar(p, n);
  }
  const __m256i limit = k8<0xBF>();
  std::size_t count = 0, i = 0;
  for (; n - i >= 32; i += 32)
    count += static_cast<std::size_t>(
        _mm_popcnt_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(load(p + i), limit)))));
  if (i < n) {
    const auto leads = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(load(p + n - 32), limit)));
    count += static_cast<std::size_t>(_mm_popcnt_u64(std::uint64_t{leads} >> (32 - (n - i))));
  }
  return count;
}

/// utf16_length from i on (count: the units before i): 32 bytes a step, the last one overlapping.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t utf16_length_from(const unsigned char* p, std::size_t n,
                                                                        std::size_t i, std::size_t count) noexcept {
  const __m256i cont_limit = k8<0xBF>(), four_limit = k8<lead4_min - 1u>();
  for (; n - i >= 32; i += 32) {
    const __m256i in = load(p + i);
    const unsigned leads = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(in, cont_limit)));
    // Signed: F0..FF are -16..-1, the only negative bytes above -17.
    const unsigned fours =
        static_cast<unsigned>(_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpgt_epi8(in, four_limit), in)));
    count += static_cast<std::size_t>(_mm_popcnt_u32(leads)) + static_cast<std::size_t>(_mm_popcnt_u32(fours));
  }
  if (i < n && n >= 32) {  // the last 32 bytes, those before i left out
    const __m256i in = load(p + n - 32);
    const std::uint64_t leads = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(in, cont_limit)));
    const std::uint64_t fours =
        static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpgt_epi8(in, four_limit), in)));
    const unsigned skip = static_cast<unsigned>(32 - (n - i));
    return count + static_cast<std::size_t>(_mm_popcnt_u64(leads >> skip) + _mm_popcnt_u64(fours >> skip));
  }
  UTF8DFA_LEAVE_AVX();
  return count + utf16_length_scalar(p + i, n - i);
}

/// utf16_length of 128 bytes or more: as count_leads_long, with each byte F0..FF subtracted once
/// more (at most 4 a counter per step, so 63 steps between the sums).
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t utf16_length_long(const unsigned char* p,
                                                                          std::size_t n) noexcept {
  const __m256i limit = k8<0xBF>(), four = splat(lead4_min), zero = _mm256_setzero_si256();
  __m256i sums = zero;
  std::size_t i = 0;
  while (n - i >= 128) {
    const std::size_t steps = (n - i) / 128 < 63 ? (n - i) / 128 : 63;
    __m256i acc0 = zero, acc1 = zero;
    for (std::size_t s = 0; s < steps; ++s, i += 128) {
      const __m256i a = load(p + i), b = load(p + i + 32), c = load(p + i + 64), d = load(p + i + 96);
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpgt_epi8(a, limit));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpgt_epi8(b, limit));
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpeq_epi8(_mm256_max_epu8(a, four), a));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpeq_epi8(_mm256_max_epu8(b, four), b));
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpgt_epi8(c, limit));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpgt_epi8(d, limit));
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpeq_epi8(_mm256_max_epu8(c, four), c));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpeq_epi8(_mm256_max_epu8(d, four), d));
    }
    sums = _mm256_add_epi64(sums, _mm256_add_epi64(_mm256_sad_epu8(acc0, zero), _mm256_sad_epu8(acc1, zero)));
  }
  const __m128i half = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
  const auto count = static_cast<std::size_t>(_mm_cvtsi128_si64(half)) +
                     static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(half, half)));
  return utf16_length_from(p, n, i, count);
}

/// UTF-16 units of well-formed input: leads, plus one more for each 4-byte lead (F0..FF).
UTF8DFA_TARGET_AVX2 inline std::size_t utf16_length(const unsigned char* p, std::size_t n) noexcept {
  if (n >= 128) return utf16_length_long(p, n);
  return utf16_length_from(p, n, 0, 0);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/avx2/validate.hpp ----

#if UTF8DFA_X86_KERNELS

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

/// UTF-16 units per UTF-8 byte of well-formed text, by its high nibble: one per lead, none per
/// continuation, two per 4-byte lead.
inline constexpr std::uint8_t utf16_units_per_nibble[16] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 2};

/// The sum of the four 64-bit lanes.
UTF8DFA_TARGET_AVX2 inline std::size_t sum_epi64(__m256i v) noexcept {
  const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  return static_cast<std::size_t>(_mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1));
}

/// The sum of the eight 32-bit lanes (as signed values).
UTF8DFA_TARGET_AVX2 inline std::ptrdiff_t sum_epi32(__m256i v) noexcept {
  const __m256i wide = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)),
                                        _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)));
  const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
  return static_cast<std::ptrdiff_t>(_mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1));
}

/// Units per byte of the 32 bytes `in` (by the high nibble).
UTF8DFA_TARGET_AVX2 inline __m256i units_of(__m256i table, __m256i nibble, __m256i in) noexcept {
  return _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(in, 4), nibble));
}

/// Units of the 64 bytes lo, hi of well-formed UTF-8, in bytes (0..4 a lane): for UTF-16 by the
/// nibble table, for UTF-32 one compare a vector (its limit loaded: no table register taken).
template <bool Utf16>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i block_units(__m256i table, __m256i nibble, __m256i lo,
                                                              __m256i hi) noexcept {
  if constexpr (Utf16) {
    return _mm256_add_epi8(units_of(table, nibble, lo), units_of(table, nibble, hi));
  } else {
    const __m256i limit = k8<0xBF>();
    return _mm256_sub_epi8(_mm256_setzero_si256(),
                           _mm256_add_epi8(_mm256_cmpgt_epi8(lo, limit), _mm256_cmpgt_epi8(hi, limit)));
  }
}

/// The UTF-16 (Utf16) or UTF-32 units of the 32 bytes `in` of well-formed UTF-8, one bit a byte:
/// `units` has a bit for each lead, `fours` (UTF-16 only) one more for each 4-byte lead.
template <bool Utf16>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void unit_bits(__m256i in, std::uint32_t& units,
                                                         std::uint32_t& fours) noexcept {
  units = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(in, k8<0xBF>())));
  // Signed: F0..FF are -16..-1, the only negative bytes above -17.
  fours = Utf16 ? static_cast<std::uint32_t>(
                      _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpgt_epi8(in, k8<lead4_min - 1u>()), in)))
                : 0;
}

/// The units of the last `r` (1..63) bytes of the 64 in lo and hi.
template <bool Utf16>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t units_of_last(__m256i lo, __m256i hi, std::size_t r) noexcept {
  std::uint32_t u0, f0, u1, f1;
  unit_bits<Utf16>(lo, u0, f0);
  unit_bits<Utf16>(hi, u1, f1);
  const std::uint64_t units = (std::uint64_t{u1} << 32 | u0) >> (64 - r);
  const std::uint64_t fours = (std::uint64_t{f1} << 32 | f0) >> (64 - r);
  return static_cast<std::size_t>(_mm_popcnt_u64(units) + _mm_popcnt_u64(fours));
}

/// The units of 32 to 64 bytes of UTF-8 when they are well-formed (false otherwise), with no copy:
/// the checks of validate_short, and the units of the first 32 bytes and of those after them in
/// the last 32.
template <bool Utf16>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE bool utf8_units_short(const unsigned char* p, std::size_t n,
                                                           std::size_t& count) noexcept {
  const std::size_t q = n - 32;  // where the last 32 bytes start (0..31)
  std::uint32_t before = 0;      // the 4 bytes before q, the last highest
  if (q >= 4) {
    std::memcpy(&before, p + q - 4, 4);
  } else if (q > 0) {
    std::memcpy(&before, p, 4);
    before <<= 8 * (4 - q);
  }
  const checker check;
  const __m256i lo = load(p), hi = load(p + q);
  const __m256i prev = _mm256_insert_epi32(_mm256_setzero_si256(), static_cast<int>(before), 7);
  const __m256i err =
      _mm256_or_si256(_mm256_or_si256(check(lo, _mm256_setzero_si256()), check(hi, prev)), ends_incomplete(hi));
  if (any(err)) return false;
  std::uint32_t u0, f0, u1, f1;
  unit_bits<Utf16>(lo, u0, f0);
  unit_bits<Utf16>(hi, u1, f1);
  const unsigned skip = static_cast<unsigned>(32 - q);  // bytes of hi among the first 32 (1..32)
  count = static_cast<std::size_t>(_mm_popcnt_u32(u0) + _mm_popcnt_u32(f0) + _mm_popcnt_u64(std::uint64_t{u1} >> skip) +
                                   _mm_popcnt_u64(std::uint64_t{f1} >> skip));
  return true;
}

/// The length_segment of UTF-8 (see length_common.hpp): the block checks of validate.hpp over whole
/// 64-byte blocks, each block that passes also counted, then the last 1..63 bytes in the last 64
/// (checked after the 32 bytes before them); a tail that fails is left to the scalar decoder.
template <bool Utf16>
UTF8DFA_TARGET_AVX2 std::size_t utf8_units_segment(const unsigned char* p, std::size_t n, std::size_t& count) noexcept {
  const checker check;
  const __m256i table = Utf16 ? lanes(utf16_units_per_nibble) : _mm256_setzero_si256();  // (UTF-32: unused)
  const __m256i zero = _mm256_setzero_si256();
  __m256i incomplete = zero, sums = zero;
  std::size_t ascii = 0, i = 0, stop = blocks_pass;
  bool go_on = n >= 64;
  if (go_on) {  // the first block, with nothing before it (out of the loop, whose registers it would take)
    const __m256i lo = load(p), hi = load(p + 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0) {
      ascii = 64;
      i = 64;
    } else {
      const __m256i err = _mm256_or_si256(check(lo, zero), check(hi, lo));
      go_on = !any(err);
      if (go_on) {
        incomplete = ends_incomplete(hi);
        sums = _mm256_sad_epu8(block_units<Utf16>(table, check.nibble, lo, hi), zero);
        i = 64;
      }
    }
  }
  // The other blocks read the bytes before them.
  for (; go_on && n - i >= 64; i += 64) {
    const __m256i lo = load(p + i), hi = load(p + i + 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0) {
      if (UTF8DFA_UNLIKELY(any(incomplete))) break;
      ascii += 64;
    } else {
      const __m256i err = _mm256_or_si256(check_at(check, p + i, lo), check_at(check, p + i + 32, hi));
      incomplete = ends_incomplete(hi);
      if (UTF8DFA_UNLIKELY(any(err))) break;
      sums = _mm256_add_epi64(sums, _mm256_sad_epu8(block_units<Utf16>(table, check.nibble, lo, hi), zero));
    }
  }
  std::size_t tail = 0;
  if (i < n && n - i < 64 && i >= 64) {
    const __m256i lo = load(p + n - 64), hi = load(p + n - 32);
    __m256i err = _mm256_or_si256(check(hi, lo), ends_incomplete(hi));
    if (n - i > 32) err = _mm256_or_si256(err, check(lo, load(p + n - 96)));  // (n >= 97)
    if (!any(err)) {
      tail = units_of_last<Utf16>(lo, hi, n - i);
      i = n;
      incomplete = zero;
    }
  }
  if (i < n || any(incomplete)) stop = i;
  count = ascii + sum_epi64(sums) + tail;
  return stop;
}

/// The constants and steps shared by the UTF-16 and UTF-32 counts of BMP units: (>= 0x80) +
/// (>= 0x800) of 32 units summed in bytes, and the test for surrogates among 16-bit units.
struct bmp_count_constants {
  __m256i zero, x_d800, x0800, max8, fifteen8;

  UTF8DFA_TARGET_AVX2 bmp_count_constants() noexcept
      : zero(_mm256_setzero_si256()), x_d800(k16<0xD800>()), x0800(k16<0x800>()), max8(k8<127>()), fifteen8(k8<15>()) {}

  /// u >> 7 of the 32 units of a and b, one byte each (in some order), with signed saturation:
  /// 0 below 0x80, 1..15 below 0x800, 16..127 above (127 from 0x3F80: surrogates among them).
  UTF8DFA_TARGET_AVX2 __m256i shifted(__m256i a, __m256i b) const noexcept {
    return _mm256_packs_epi16(_mm256_srli_epi16(a, 7), _mm256_srli_epi16(b, 7));
  }
  /// Minus (>= 0x80) + (>= 0x800) of each unit, from shifted() (compares give -1).
  UTF8DFA_TARGET_AVX2 __m256i minus_more(__m256i x) const noexcept {
    return _mm256_add_epi8(_mm256_cmpgt_epi8(x, zero), _mm256_cmpgt_epi8(x, fifteen8));
  }
  /// w ^ 0xD800: below 0x800 for the surrogates; the least of such vectors goes to surrogate_in().
  UTF8DFA_TARGET_AVX2 __m256i flipped(__m256i w) const noexcept { return _mm256_xor_si256(w, x_d800); }
  /// Whether some lane of `least`, the least of some flipped() units, stands for a surrogate.
  UTF8DFA_TARGET_AVX2 bool surrogate_in(__m256i least) const noexcept {
    const __m256i below = _mm256_subs_epu16(x0800, least);
    return !_mm256_testz_si256(below, below);
  }
};

/// The constants of the UTF-16 count, built once per call.
struct utf16_count_constants : bmp_count_constants {
  __m256i tag, low, x_f800, x_ff80, one;

  UTF8DFA_TARGET_AVX2 utf16_count_constants() noexcept
      : tag(k16<0xFC00>()), low(k16<0xDC00>()), x_f800(k16<0xF800>()), x_ff80(k16<0xFF80>()), one(k16<1>()) {}

  /// Minus the units of w below 0x80 and below 0x800 (compares give -1), `top` being w & 0xF800.
  UTF8DFA_TARGET_AVX2 __m256i minus_short(__m256i w, __m256i top) const noexcept {
    return _mm256_add_epi16(_mm256_cmpeq_epi16(_mm256_and_si256(w, x_ff80), zero), _mm256_cmpeq_epi16(top, zero));
  }
  /// Whether the 64 units w0..w3, of which x and y are shifted(), hold a surrogate: none unless
  /// some byte of x or y is 127.
  UTF8DFA_TARGET_AVX2 bool any_surrogate(__m256i w0, __m256i w1, __m256i w2, __m256i w3, __m256i x,
                                         __m256i y) const noexcept {
    const __m256i top = _mm256_cmpeq_epi8(_mm256_max_epu8(x, y), max8);
    return !_mm256_testz_si256(top, top) && surrogate_in(_mm256_min_epu16(_mm256_min_epu16(flipped(w0), flipped(w1)),
                                                                          _mm256_min_epu16(flipped(w2), flipped(w3))));
  }
};

/// The units at p, in steps of 64 while 64 are left, that are surrogate pairs only, each pair a
/// dword (most emoji). Out of line: its constants stay out of the registers of the caller's loop.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t pair_run(const char16_t* p, std::size_t n) noexcept {
  const __m256i tag = k32<0xFC00FC00u>();
  const __m256i pair = k32<0xDC00D800u>();
  std::size_t i = 0;
  for (; n - i >= 64; i += 64) {
    const __m256i a = _mm256_cmpeq_epi32(_mm256_and_si256(load(p + i), tag), pair);
    const __m256i b = _mm256_cmpeq_epi32(_mm256_and_si256(load(p + i + 16), tag), pair);
    const __m256i c = _mm256_cmpeq_epi32(_mm256_and_si256(load(p + i + 32), tag), pair);
    const __m256i d = _mm256_cmpeq_epi32(_mm256_and_si256(load(p + i + 48), tag), pair);
    if (_mm256_movemask_epi8(_mm256_and_si256(_mm256_and_si256(a, b), _mm256_and_si256(c, d))) != -1) break;
  }
  return i;
}

/// The length_segment of UTF-16: 64 units per step while they hold no surrogate or only surrogate
/// pairs aligned with dwords, else 16 with the pair checks (the units at and after each position
/// say whether every surrogate is paired); the tail, 1..16 units, is left to the scalar decoder.
/// A step of 64 without a surrogate counts 1 a unit plus (>= 0x80) + (>= 0x800) summed in bytes
/// (at most 4 a lane per step, widened every 63 steps). The others count 3 a unit, minus 1 below
/// 0x800, minus 1 more below 0x80, minus 2 for a high surrogate (a pair is 1 + 3), as the negative
/// compare results in 16-bit lanes (at most 2 a lane per vector of 16 units added, a unit counted
/// again after a cut pair included), widened before they could overflow.
UTF8DFA_TARGET_AVX2 inline std::size_t utf16_bytes_segment(const char16_t* p, std::size_t n,
                                                           std::size_t& count) noexcept {
  count = 0;
  if (n == 0) return blocks_pass;
  const utf16_count_constants k;
  __m256i acc = k.zero, more = k.zero, sums = k.zero;
  std::size_t i = 0, ascii = 0, wide = 0;  // wide: units counted in `more`, 1 + its bytes each
  unsigned pending = 0;  // vectors of 16 units added to acc since it was last widened (-2 a lane each at most)
  unsigned steps = 0;    // steps added to `more` since it was last widened (+4 a lane each at most)
  std::ptrdiff_t less = 0;
  bool paired = true;
  while (paired) {
    // Blocks of 64 units without a surrogate: nothing to pair (a high surrogate before them was
    // checked against their first unit by the step that counted it).
    while (n - i >= 64) {
      const __m256i w0 = load(p + i), w1 = load(p + i + 16), w2 = load(p + i + 32), w3 = load(p + i + 48);
      if (_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(w0, w1), _mm256_or_si256(w2, w3)), k.x_ff80)) {
        ascii += 64;  // one byte each
        i += 64;
        continue;
      }
      const __m256i x = k.shifted(w0, w1), y = k.shifted(w2, w3);
      if (k.any_surrogate(w0, w1, w2, w3, x, y)) {
        // Surrogate pairs only (most emoji): 4 bytes a pair, 3 a unit less 1. A high surrogate
        // before them was checked against their first unit, a high one.
        const std::size_t run = pair_run(p + i, n - i);
        if (run == 0) break;
        less -= static_cast<std::ptrdiff_t>(run);
        i += run;
        continue;
      }
      more = _mm256_sub_epi8(more, _mm256_add_epi8(k.minus_more(x), k.minus_more(y)));
      i += 64;
      wide += 64;
      if (++steps == 63) {  // 252 a lane at most
        sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, k.zero));
        more = k.zero;
        steps = 0;
      }
    }
    if (n - i <= 16) break;
    // A low surrogate first must follow a high one (only the steps below check pairs).
    if ((p[i] & 0xFC00) == 0xDC00 && (i == 0 || (p[i - 1] & 0xFC00) != 0xD800)) break;
    // Up to 64 units, 16 per step, with the pair checks.
    for (const std::size_t end = i + 64; i < end && n - i > 16; i += 16) {
      const __m256i w = load(p + i), next = load(p + i + 1);
      const __m256i hi = _mm256_cmpeq_epi16(_mm256_and_si256(w, k.tag), k.x_d800);
      const __m256i lo_next = _mm256_cmpeq_epi16(_mm256_and_si256(next, k.tag), k.low);
      const __m256i unpaired = _mm256_xor_si256(hi, lo_next);
      if (UTF8DFA_UNLIKELY(!_mm256_testz_si256(unpaired, unpaired))) {
        paired = false;
        break;
      }
      acc = _mm256_add_epi16(
          acc, _mm256_add_epi16(k.minus_short(w, _mm256_and_si256(w, k.x_f800)), _mm256_add_epi16(hi, hi)));
      ++pending;
    }
    // A pair cut by the last step (its high unit counted 3 - 2): the high unit goes to the next
    // step instead, so that a run of pairs lines up with the dwords of the big steps.
    if (paired && (p[i - 1] & 0xFC00) == 0xD800) {
      --i;
      less += 2;
    }
    if (pending > 16000 - 4) {  // (the steps above add at most 4 vectors)
      less += sum_epi32(_mm256_madd_epi16(acc, k.one));
      acc = k.zero;
      pending = 0;
    }
  }
  if (paired && i < n && n - i <= 16 && n > 16) {
    // The last 16 units against the units before them, those before i left out: a unit in them
    // at i or past it that is a low surrogate must follow a high one, and a high one (the last
    // unit included) must precede a low one. (The unit before i is no high surrogate.)
    const __m256i w = load(p + n - 16), prev = load(p + n - 17);
    const __m256i top = _mm256_and_si256(w, k.tag);
    const __m256i hi = _mm256_cmpeq_epi16(top, k.x_d800);
    const __m256i unpaired =
        _mm256_xor_si256(_mm256_cmpeq_epi16(_mm256_and_si256(prev, k.tag), k.x_d800), _mm256_cmpeq_epi16(top, k.low));
    const unsigned skip = static_cast<unsigned>(2 * (16 - (n - i)));  // the bits of the lanes before i
    const auto hi_bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(hi));
    if (((static_cast<std::uint32_t>(_mm256_movemask_epi8(unpaired)) | (hi_bits & 0xC0000000u)) >> skip) == 0) {
      // 3 bytes a unit, less 1 below 0x80, 1 more below 0x800, 2 for a high surrogate (2 bits a lane).
      const auto small =
          static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_and_si256(w, k.x_ff80), k.zero)));
      const auto mid =
          static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_and_si256(w, k.x_f800), k.zero)));
      less -= (_mm_popcnt_u32(small >> skip) + _mm_popcnt_u32(mid >> skip)) / 2 + _mm_popcnt_u32(hi_bits >> skip);
      i = n;
    }
  }
  less += sum_epi32(_mm256_madd_epi16(acc, k.one));
  sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, k.zero));
  count = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(3 * i - 2 * ascii - 2 * wide + sum_epi64(sums)) + less);
  return i == n ? blocks_pass : i;
}

/// The constants of the UTF-32 count, built once per call.
struct utf32_count_constants : bmp_count_constants {
  __m256i sur, sur_len, top, x7f, x7ff, xffff, ones, not7f, not_ffff, below_sur;

  UTF8DFA_TARGET_AVX2 utf32_count_constants() noexcept
      : sur(k32<0xD800>()),
        sur_len(k32<0x800>()),
        top(k32<0x10FFFF>()),
        x7f(k32<0x7F>()),
        x7ff(k32<0x7FF>()),
        xffff(k32<0xFFFF>()),
        ones(k32<0xFFFFFFFFu>()),
        not7f(k32<0xFFFFFF80u>()),
        not_ffff(k32<0xFFFF0000u>()),
        below_sur(k32<0xD7FF>()) {}

  /// Whether every lane of lowest (the least of some units, each less 0xD800) and highest (their
  /// greatest) says scalar value: not a surrogate (unsigned cp - 0xD800 >= 0x800), at most 0x10FFFF.
  UTF8DFA_TARGET_AVX2 bool scalar_values(__m256i lowest, __m256i highest) const noexcept {
    const __m256i ok = _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(lowest, sur_len), lowest),
                                        _mm256_cmpeq_epi32(_mm256_max_epu32(highest, top), top));
    return _mm256_testc_si256(ok, ones) != 0;
  }
  /// Whether `highest` (the greatest of some units) reaches the surrogates: only then can they hold
  /// one (signed compare: exact up to 0x7FFFFFFF).
  UTF8DFA_TARGET_AVX2 bool reaches_surrogates(__m256i highest) const noexcept {
    const __m256i high = _mm256_cmpgt_epi32(highest, below_sur);
    return !_mm256_testz_si256(high, high);
  }
  /// Whether `highest` (the greatest of some units) is at most 0x10FFFF.
  UTF8DFA_TARGET_AVX2 bool in_range(__m256i highest) const noexcept {
    return _mm256_testc_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(highest, top), top), ones) != 0;
  }
  /// Minus the UTF-8 bytes past the first of each scalar value (compares give -1; signed compares
  /// are exact up to 0x10FFFF).
  UTF8DFA_TARGET_AVX2 __m256i minus_extra(__m256i cp) const noexcept {
    return _mm256_add_epi32(_mm256_add_epi32(_mm256_cmpgt_epi32(cp, x7f), _mm256_cmpgt_epi32(cp, x7ff)),
                            _mm256_cmpgt_epi32(cp, xffff));
  }
};

/// Units beyond_bmp_run takes at most in one call: its 32-bit lanes add at most 12 per block.
inline constexpr std::size_t beyond_bmp_max = std::size_t{1} << 24;

/// The blocks of 32 units at p, while 32 are left (and at most beyond_bmp_max units), that hold
/// scalar values only: the first one, then those that reach past the BMP; their UTF-8 bytes are
/// added to `bytes`. Stops at a block that holds a surrogate or a value above 0x10FFFF. Out of
/// line, as pair_run: most text never comes here.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t beyond_bmp_run(const char32_t* p, std::size_t n,
                                                                       std::size_t& bytes) noexcept {
  if (n > beyond_bmp_max) n = beyond_bmp_max;
  const utf32_count_constants k;
  // Each unit less 0x10000 is at most 0xFFFFF (unsigned) in a block of supplementary values only.
  const __m256i base = k32<0x10000>(), span = k32<0xFFFFF>();
  __m256i acc = k.zero;
  std::size_t i = 0, supplementary = 0;
  for (; n - i >= 32; i += 32) {
    const __m256i a = load(p + i), b = load(p + i + 8), c = load(p + i + 16), d = load(p + i + 24);
    const __m256i over = _mm256_max_epu32(_mm256_max_epu32(_mm256_sub_epi32(a, base), _mm256_sub_epi32(b, base)),
                                          _mm256_max_epu32(_mm256_sub_epi32(c, base), _mm256_sub_epi32(d, base)));
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_min_epu32(over, span), over)) == -1) {
      supplementary += 32;  // (most emoji)
      continue;
    }
    const __m256i highest = _mm256_max_epu32(_mm256_max_epu32(a, b), _mm256_max_epu32(c, d));
    if ((i != 0 && _mm256_testz_si256(highest, k.not_ffff)) || !k.in_range(highest) ||
        k.surrogate_in(_mm256_min_epu16(k.flipped(_mm256_packus_epi32(a, b)), k.flipped(_mm256_packus_epi32(c, d)))))
      break;
    acc = _mm256_add_epi32(_mm256_add_epi32(acc, _mm256_add_epi32(k.minus_extra(a), k.minus_extra(b))),
                           _mm256_add_epi32(k.minus_extra(c), k.minus_extra(d)));
  }
  bytes += static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i + 3 * supplementary) - sum_epi32(acc));
  return i;
}

/// The length_segment of UTF-32, 64 units per step while the input lasts (ASCII steps only
/// checked), then 8 (the tail left to the scalar decoder): bytes are 1 + (> 0x7F) + (> 0x7FF) +
/// (> 0xFFFF). Steps within the BMP sum the first two in bytes (at most 4 a lane per step, widened
/// every 63 steps); a step reaching past it goes to beyond_bmp_run. A block holding a surrogate or
/// a value above 0x10FFFF stops it.
UTF8DFA_TARGET_AVX2 inline std::size_t utf32_bytes_segment(const char32_t* p, std::size_t n,
                                                           std::size_t& count) noexcept {
  const utf32_count_constants k;
  __m256i acc = k.zero, more = k.zero, sums = k.zero;
  std::size_t i = 0, steps = 0;
  std::size_t extra = 0;  // bytes past the first of the values counted by beyond_bmp_run
  std::ptrdiff_t less = 0;
  while (n - i >= 64) {
    const __m256i a = load(p + i), b = load(p + i + 8), c = load(p + i + 16), d = load(p + i + 24);
    const __m256i e = load(p + i + 32), f = load(p + i + 40), g = load(p + i + 48), h = load(p + i + 56);
    const __m256i highest = _mm256_max_epu32(_mm256_max_epu32(_mm256_max_epu32(a, b), _mm256_max_epu32(c, d)),
                                             _mm256_max_epu32(_mm256_max_epu32(e, f), _mm256_max_epu32(g, h)));
    if (_mm256_testz_si256(highest, k.not7f)) {  // ASCII: one byte each
      i += 64;
      continue;
    }
    if (UTF8DFA_UNLIKELY(!_mm256_testz_si256(highest, k.not_ffff))) {
      std::size_t bytes = 0;
      const std::size_t run = beyond_bmp_run(p + i, n - i, bytes);
      if (run == 0) break;  // (found again by the 8-unit steps)
      extra += bytes - run;
      i += run;
      continue;
    }
    const __m256i ab = _mm256_packus_epi32(a, b), cd = _mm256_packus_epi32(c, d);
    const __m256i ef = _mm256_packus_epi32(e, f), gh = _mm256_packus_epi32(g, h);
    if (k.reaches_surrogates(highest) &&  // (narrowed with unsigned saturation: exact below 0x10000)
        UTF8DFA_UNLIKELY(k.surrogate_in(_mm256_min_epu16(_mm256_min_epu16(k.flipped(ab), k.flipped(cd)),
                                                         _mm256_min_epu16(k.flipped(ef), k.flipped(gh))))))
      break;
    more = _mm256_sub_epi8(more, _mm256_add_epi8(k.minus_more(k.shifted(ab, cd)), k.minus_more(k.shifted(ef, gh))));
    i += 64;
    if (++steps == 63) {  // 252 a lane at most
      sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, k.zero));
      more = k.zero;
      steps = 0;
    }
  }
  sums = _mm256_add_epi64(sums, _mm256_sad_epu8(more, k.zero));
  for (; n - i >= 8; i += 8) {
    const __m256i cp = load(p + i);
    if (UTF8DFA_UNLIKELY(!k.scalar_values(_mm256_sub_epi32(cp, k.sur), cp))) break;
    acc = _mm256_add_epi32(acc, k.minus_extra(cp));
  }
  if (i < n && n - i < 8 && n >= 8) {
    // The last 8 units, those before i left out of the count.
    const __m256i cp = load(p + n - 8);
    if (k.scalar_values(_mm256_sub_epi32(cp, k.sur), cp)) {
      const __m256i fresh = _mm256_cmpgt_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                               _mm256_set1_epi32(static_cast<int>(7 - (n - i))));
      acc = _mm256_add_epi32(acc, _mm256_and_si256(k.minus_extra(cp), fresh));
      i = n;
    }
  }
  less += sum_epi32(acc);
  count = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(i) - less) + extra + sum_epi64(sums);
  return i == n ? blocks_pass : i;
}

// The kernel-table entry points (a failing step reaches one block past its start; the tail left to
// the scalar decoder is shorter than a block).

// The short counts below sum, in 16-bit lanes, compare results (-1 where true) whose sum, with 3
// bytes a unit, is what utf8_length_valid (scalar.hpp) counts: -1 below 0x80, -1 below 0x800, then
// -1 for a UTF-16 surrogate or +1 for a UTF-32 supplementary value. Up to 64 steps of at most -2 a
// lane: under `valid_below` units.

/// Units below which the lengths under valid_marker take the short counts (no checks), above which
/// the replace count, whose blocks are faster on long input (ASCII text above all).
inline constexpr std::size_t valid_below = 1024;

/// The compare results of the 16 UTF-16 units u.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i valid_marks(__m256i u) noexcept {
  const __m256i zero = _mm256_setzero_si256(), top = _mm256_srli_epi16(u, 11);
  const __m256i small = _mm256_cmpeq_epi16(_mm256_srli_epi16(u, 7), zero);
  const __m256i mid = _mm256_cmpeq_epi16(top, zero);
  const __m256i sur = _mm256_cmpeq_epi16(top, _mm256_set1_epi16(0x1B));
  return _mm256_add_epi16(_mm256_add_epi16(small, mid), sur);
}

/// The compare results of the 16 UTF-32 values at q, in 16-bit lanes out of order (those of
/// q[0..3], q[8..11], q[4..7], q[12..15]: valid16_order). The tests read u >> 7 packed to words with
/// unsigned saturation (exact below 0x7FFF80, beyond it FFFF): 0 below 0x80, below 0x10 below 0x800,
/// 0x200..0x21FF for 0x10000..0x10FFFF (any value counts as utf8_length_valid counts it).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i valid_marks(const char32_t* q) noexcept {
  const __m256i t = _mm256_packus_epi32(_mm256_srli_epi32(load(q), 7), _mm256_srli_epi32(load(q + 8), 7));
  const __m256i zero = _mm256_setzero_si256();
  const __m256i small = _mm256_cmpeq_epi16(t, zero);
  const __m256i mid = _mm256_cmpeq_epi16(_mm256_srli_epi16(t, 4), zero);
  const __m256i planes = _mm256_sub_epi16(t, _mm256_set1_epi16(0x200));
  const __m256i supp = _mm256_cmpeq_epi16(_mm256_min_epu16(planes, _mm256_set1_epi16(0x1FFF)), planes);
  return _mm256_sub_epi16(_mm256_add_epi16(small, mid), supp);
}

/// The 16-bit lanes of the last 16 units of a short count, which end at n, that the steps before
/// counted (those before the `left` units left), as -1; `order` gives each lane's unit.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i counted_lanes(std::size_t left, __m256i order) noexcept {
  return _mm256_cmpgt_epi16(_mm256_set1_epi16(static_cast<short>(16 - left)), order);
}

/// 3 bytes a unit for n units, plus the (negative) sum of the lane counters `acc`.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t valid_total(std::size_t n, __m256i acc) noexcept {
  return 3 * n + static_cast<std::size_t>(sum_epi32(_mm256_madd_epi16(acc, _mm256_set1_epi16(1))));
}

/// Returned by utf8_length16<true> for UTF-16 that is not well-formed.
inline constexpr std::size_t paired_failed = static_cast<std::size_t>(-1);

/// utf8_length_valid (scalar.hpp) of the n (16 <= n < valid_below) UTF-16 units at p: 16 a step, the
/// last 16 ending at n. With Paired, paired_failed unless they are well-formed (each step also
/// tests that a high surrogate comes exactly before a low one, p[i + 16] read too; the last 16 test
/// their pairs among themselves): on well-formed input the count is that of every policy.
template <bool Paired>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE std::size_t utf8_length16(const char16_t* p, std::size_t n) noexcept {
  const __m256i fc00 = _mm256_set1_epi16(static_cast<short>(0xFC00));
  const __m256i high = _mm256_set1_epi16(static_cast<short>(0xD800)),
                low = _mm256_set1_epi16(static_cast<short>(0xDC00));
  if (Paired && (p[0] & 0xFC00) == 0xDC00) return paired_failed;
  __m256i acc = _mm256_setzero_si256(), bad = _mm256_setzero_si256();
  std::size_t i = 0;
  for (; n - i > 16; i += 16) {
    const __m256i u = load(p + i);
    if constexpr (Paired)
      bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_cmpeq_epi16(_mm256_and_si256(u, fc00), high),
                                                  _mm256_cmpeq_epi16(_mm256_and_si256(load(p + i + 1), fc00), low)));
    acc = _mm256_add_epi16(acc, valid_marks(u));
  }
  const __m256i u = load(p + n - 16);
  if constexpr (Paired) {
    // The low surrogates moved down a lane (none after the last unit, which so must not be a high one).
    const __m256i tags = _mm256_and_si256(u, fc00), lows = _mm256_cmpeq_epi16(tags, low);
    const __m256i next_lows = _mm256_alignr_epi8(_mm256_permute2x128_si256(lows, lows, 0x81), lows, 2);
    bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_cmpeq_epi16(tags, high), next_lows));
    if (!_mm256_testz_si256(bad, bad)) return paired_failed;
  }
  const __m256i order = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  acc = _mm256_add_epi16(acc, _mm256_andnot_si256(counted_lanes(n - i, order), valid_marks(u)));
  return valid_total(n, acc);
}

/// utf8_length_valid (scalar.hpp) of the n (16 <= n < valid_below) UTF-32 values at p: 16 a step, the
/// last 16 ending at n.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t utf8_length32(const char32_t* p, std::size_t n) noexcept {
  std::size_t i = 0;
  __m256i acc = _mm256_setzero_si256();
  for (; n - i > 16; i += 16) acc = _mm256_add_epi16(acc, valid_marks(p + i));
  const __m256i order = _mm256_setr_epi16(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);  // valid_marks's
  acc = _mm256_add_epi16(acc, _mm256_andnot_si256(counted_lanes(n - i, order), valid_marks(p + n - 16)));
  return valid_total(n, acc);
}

/// utf8_length_valid (scalar.hpp) of short UTF-16 or UTF-32 (under valid_below units): the scalar
/// count below 16 units.
inline std::size_t utf8_length_valid(const char16_t* p, std::size_t n) noexcept {
  return n < 16 ? detail::utf8_length_valid(p, n) : utf8_length16<false>(p, n);
}

inline std::size_t utf8_length_valid(const char32_t* p, std::size_t n) noexcept {
  return n < 16 ? detail::utf8_length_valid(p, n) : utf8_length32(p, n);
}

inline std::size_t utf16_length_from_utf8(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  std::size_t count = 0;
  if (n >= 32 && n <= 64 && utf8_units_short<true>(p, n, count)) return count;
  return utf8_units_blocks<true, &utf8_units_segment<true>, 64>(p, n, repl);
}

inline std::size_t utf32_length_from_utf8(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  std::size_t count = 0;
  if (n >= 32 && n <= 64 && utf8_units_short<false>(p, n, count)) return count;
  return utf8_units_blocks<false, &utf8_units_segment<false>, 64>(p, n, repl);
}

inline std::size_t utf8_length_from_utf16(const char16_t* p, std::size_t n, char32_t repl) noexcept {
  // valid_marker: on long input the replace count with a 2-byte replacement (U+0080), which is the
  // same count (the errors of UTF-16 are its lone surrogates).
  if (repl == valid_marker) {
    if (n < valid_below) return utf8_length_valid(p, n);
    repl = 0x80;
  } else if (n >= 16 && n < 256) {  // short well-formed text: no error to count (longer: the blocks)
    const std::size_t bytes = utf8_length16<true>(p, n);
    if (bytes != paired_failed) return bytes;
  }
  return utf8_bytes_blocks<char16_t, &utf16_bytes_segment, 16>(p, n, repl);
}

inline std::size_t utf8_length_from_utf32(const char32_t* p, std::size_t n, char32_t repl) noexcept {
  // valid_marker: on long input the replace count (U+FFFD, 3 bytes, is what it counts for an error).
  if (repl == valid_marker) {
    if (n < valid_below) return utf8_length_valid(p, n);
    repl = replacement_character;
  }
  return utf8_bytes_blocks<char32_t, &utf32_bytes_segment, 8>(p, n, repl);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
#endif
// ---- end utf8dfa/detail/simd/avx2/length.hpp ----
// ---- begin utf8dfa/detail/simd/avx2/transcode.hpp ----
// utf8dfa: AVX2 transcoding kernels. Same results as the scalar functions of scalar.hpp, byte for
// byte, for both policies. Valid blocks go through the vector path; a block holding an error is
// re-run through the scalar DFA up to the block end. AVX2 has no byte-masked stores: a store writes
// exactly the units produced (vpmaskmovd plus single bytes), unless the next block is known to be
// valid, so that its output will overwrite whatever a full-width store wrote past ours. The last
// few units of the input are finished by the scalar function.
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_TRANSCODE_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_TRANSCODE_HPP

// ---- begin utf8dfa/detail/simd/transcode_common.hpp ----
// utf8dfa: what the SIMD transcoding kernels of every instruction set share: the pair tables of the
// block UTF-8 check, and the scalar re-run of a block that holds an error (plain code, no target
// attributes, so any kernel may call it).
#ifndef UTF8DFA_DETAIL_SIMD_TRANSCODE_COMMON_HPP
#define UTF8DFA_DETAIL_SIMD_TRANSCODE_COMMON_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// Error bits of a pair (previous byte, current byte); a pair is ill-formed when the three
/// lookups (previous high nibble, previous low nibble, current high nibble) share a bit.
namespace pair_error {
inline constexpr std::uint8_t too_short = 1 << 0;                        // lead byte followed by a non-continuation
inline constexpr std::uint8_t too_long = 1 << 1;                         // ASCII followed by a continuation
inline constexpr std::uint8_t overlong_3 = 1 << 2;                       // E0 80..9F
inline constexpr std::uint8_t too_large = 1 << 3;                        // F4 90..BF, F5..FF 90..BF
inline constexpr std::uint8_t surrogate = 1 << 4;                        // ED A0..BF
inline constexpr std::uint8_t overlong_2 = 1 << 5;                       // C0/C1 followed by a continuation
inline constexpr std::uint8_t overlong_4 = 1 << 6;                       // F0 80..8F, and F5..FF 80..8F
inline constexpr std::uint8_t two_conts = 1 << 7;                        // continuation after continuation
inline constexpr std::uint8_t carry = too_short | too_long | two_conts;  // independent of the low nibble

/// Indexed by the high nibble of the previous byte.
inline constexpr std::uint8_t prev_high[16] = {too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               too_long,
                                               two_conts,
                                               two_conts,
                                               two_conts,
                                               two_conts,
                                               too_short | overlong_2,
                                               too_short,
                                               too_short | overlong_3 | surrogate,
                                               too_short | too_large | overlong_4};
/// Indexed by the low nibble of the previous byte.
inline constexpr std::uint8_t prev_low[16] = {carry | overlong_2 | overlong_3 | overlong_4,
                                              carry | overlong_2,
                                              carry,
                                              carry,
                                              carry | too_large,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4 | surrogate,
                                              carry | too_large | overlong_4,
                                              carry | too_large | overlong_4};
/// Indexed by the high nibble of the current byte.
inline constexpr std::uint8_t cur_high[16] = {too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_long | overlong_2 | two_conts | overlong_3 | overlong_4,
                                              too_long | overlong_2 | two_conts | overlong_3 | too_large,
                                              too_long | overlong_2 | two_conts | surrogate | too_large,
                                              too_long | overlong_2 | two_conts | surrogate | too_large,
                                              too_short,
                                              too_short,
                                              too_short,
                                              too_short};
}  // namespace pair_error

/// Progress of a kernel: where it stands on both sides and the first error seen (replace policy).
template <class Out>
struct transcode_cursor {
  std::size_t i;
  Out* o;
  error_code first;
};

/// Runs the scalar decoder of the input form (decode_at for UTF-8, decode_utf_at for UTF-16/32) over
/// [c.i, end) and the rest of a sequence crossing `end`, writing the output form; under strict
/// policy returns false at the first error, leaving c.i on it. `replacement` is written for each
/// error, or nothing when it is skip_marker.
template <bool Strict, class In, class Out>
inline bool scalar_region(const In* p, std::size_t n, std::size_t end, transcode_cursor<Out>& c,
                          char32_t replacement) noexcept {
  while (c.i < end) {
    decoded d{};
    if constexpr (sizeof(In) == 1)
      d = decode_at(p, n, c.i);
    else
      d = decode_utf_at(p, n, c.i);
    char32_t cp = d.code_point;
    if (UTF8DFA_UNLIKELY(d.error != error_code::none)) {
      if constexpr (Strict) {
        c.first = d.error;
        return false;
      } else {
        if (c.first == error_code::none) c.first = d.error;
        if (replacement == skip_marker) {
          c.i += d.length;
          continue;
        }
        cp = replacement;
      }
    }
    if constexpr (sizeof(Out) == 1)
      c.o += put_utf8(c.o, cp);
    else
      c.o = put_unit(c.o, cp);
    c.i += d.length;
  }
  return true;
}

/// scalar_region for a conversion whose UTF-16 side (the input when In is char16_t, else the output)
/// is stored in the byte order opposite to the host's when Swap: input units are swapped into a
/// buffer 64 at a time (with the unit after, which completes a pair crossing the buffer's end), output
/// units are swapped in place once written.
template <bool Strict, bool Swap, class In, class Out>
inline bool scalar_region_in_order(const In* p, std::size_t n, std::size_t end, transcode_cursor<Out>& c,
                                   char32_t replacement) noexcept {
  if constexpr (!Swap) {
    return scalar_region<Strict>(p, n, end, c, replacement);
  } else if constexpr (sizeof(In) == 2) {
    char16_t buf[65];
    while (c.i < end) {
      const std::size_t base = c.i, stop = end - base < 64 ? end : base + 64;
      const std::size_t len = (stop < n ? stop + 1 : n) - base;
      for (std::size_t j = 0; j < len; ++j) buf[j] = swap_bytes(p[base + j]);
      transcode_cursor<Out> local{0, c.o, c.first};
      const bool ok = scalar_region<Strict>(buf, len, stop - base, local, replacement);
      c = {base + local.i, local.o, local.first};
      if (!ok) return false;
    }
    return true;
  } else {
    static_assert(sizeof(Out) == 2, "a swapped conversion has a UTF-16 side");
    Out* const from = c.o;
    const bool ok = scalar_region<Strict>(p, n, end, c, replacement);
    swap_units_in_place(from, static_cast<std::size_t>(c.o - from));
    return ok;
  }
}

/// The scalar function on the rest of the input, merged with what the vector loop did.
template <bool Strict, class In, class Out>
inline packed_conversion finish_scalar(const In* p, std::size_t n, Out* out, transcode_cursor<Out> c,
                                       char32_t repl) noexcept {
  if (c.i == n) return {n, static_cast<std::size_t>(c.o - out), c.first};  // (no call when nothing is left)
  packed_conversion r{};
  if constexpr (sizeof(In) == 1) {
    r = Strict                ? utf8_to_utf_scalar(p + c.i, n - c.i, c.o, strict{})
        : repl == skip_marker ? utf8_to_utf_scalar(p + c.i, n - c.i, c.o, skip{})
                              : utf8_to_utf_scalar(p + c.i, n - c.i, c.o, replace{repl});
  } else {
    r = Strict                ? utf_to_utf8_scalar(p + c.i, n - c.i, c.o, strict{})
        : repl == skip_marker ? utf_to_utf8_scalar(p + c.i, n - c.i, c.o, skip{})
                              : utf_to_utf8_scalar(p + c.i, n - c.i, c.o, replace{repl});
  }
  const error_code e = c.first != error_code::none ? c.first : r.error;
  // The written count from the output pointer: written as two sums of counts, g++ 12 pairs them
  // into one vector sum, whose 16-byte load of r (two 8-byte stores by the call just returned)
  // cannot be forwarded from those stores and waits for them (10-20 cycles a call).
  return {c.i + r.read, static_cast<std::size_t>(c.o + r.written - out), e};
}

/// finish_scalar for a conversion whose UTF-16 side is in the other byte order when Swap (see
/// scalar_region_in_order).
template <bool Strict, bool Swap, class In, class Out>
inline packed_conversion finish_scalar_in_order(const In* p, std::size_t n, Out* out, transcode_cursor<Out> c,
                                                char32_t repl) noexcept {
  if constexpr (!Swap) {
    return finish_scalar<Strict>(p, n, out, c, repl);
  } else if constexpr (sizeof(In) == 2) {
    // The rest swapped 64 units at a time into a buffer, each piece through the scalar conversion
    // (finish_scalar's, not scalar_region's character by character). A high surrogate last in a
    // piece waits for the next one, where its pair (or its error) is whole.
    char16_t buf[64];
    while (c.i < n) {
      std::size_t len = n - c.i < 64 ? n - c.i : 64;
      for (std::size_t j = 0; j < len; ++j) buf[j] = swap_bytes(p[c.i + j]);
      if (c.i + len < n && (buf[len - 1] & 0xFC00u) == 0xD800u) --len;
      const packed_conversion r = finish_scalar<Strict>(buf, len, c.o, transcode_cursor<Out>{0, c.o, c.first}, repl);
      c.o += r.written;
      if (Strict && r.error != error_code::none) return {c.i + r.read, static_cast<std::size_t>(c.o - out), r.error};
      c.i += len;
      c.first = r.error;
    }
    return {n, static_cast<std::size_t>(c.o - out), c.first};
  } else {
    const packed_conversion r = finish_scalar<Strict>(p, n, out, c, repl);
    swap_units_in_place(c.o, r.written - static_cast<std::size_t>(c.o - out));
    return r;
  }
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/simd/transcode_common.hpp ----
// ---- begin utf8dfa/detail/simd/avx2/utf8_block.hpp ----
// utf8dfa: AVX2 check of one 32-byte block of UTF-8 that starts on a character boundary: the same
// nibble lookups as the AVX-512 check (tables in transcode_common.hpp).
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_UTF8_BLOCK_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_UTF8_BLOCK_HPP


#if UTF8DFA_X86_KERNELS

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

/// A 16-byte table repeated in both 128-bit lanes (for vpshufb lookups).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i lane_table(const std::uint8_t (&t)[16]) noexcept {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}

/// The block shifted towards higher addresses by N bytes, zeros shifted in.
template <int N>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i prev_bytes(__m256i v) noexcept {
  const __m256i up16 = _mm256_permute2x128_si256(v, v, 0x08);  // (0, low lane)
  return _mm256_alignr_epi8(v, up16, 16 - N);
}

/// Byte constants of the block loop of utf8_to_utf_impl (transcode.hpp), made once a call and kept
/// in registers (GCC otherwise builds each of them again in every block, three instructions apiece).
struct byte_constants {
  __m256i lead_min;   // C0 (-64): continuation bytes are below it, as signed bytes
  __m256i four_min;   // 70: a byte minus it (saturated) has bit 7 set from F0 on
  __m256i three_min;  // 60: the same from E0 on
  __m256i nibble;     // 0F
  __m256i top_bit;    // 80
};

UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE byte_constants make_byte_constants() noexcept {
  byte_constants k{_mm256_set1_epi8(-64), _mm256_set1_epi8(0x70), _mm256_set1_epi8(0x60), _mm256_set1_epi8(0x0F),
                   _mm256_set1_epi8(static_cast<char>(0x80))};
  // (Opaque to the compiler, so not rebuilt.)
  __asm__("" : "+x"(k.lead_min), "+x"(k.four_min), "+x"(k.three_min), "+x"(k.nibble), "+x"(k.top_bit));
  return k;
}

/// The errors of the 32 bytes v read as the start of a text: a byte not zero where an ill-formed
/// pair ends or a long sequence is cut before its end inside the block (a character cut by the
/// block end is no error).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i utf8_block_errors(__m256i v, const byte_constants& k) noexcept {
  const __m256i nib = k.nibble;
  const __m256i p1 = prev_bytes<1>(v);
  const __m256i e1 =
      _mm256_shuffle_epi8(lane_table(pair_error::prev_high), _mm256_and_si256(_mm256_srli_epi16(p1, 4), nib));
  const __m256i e2 = _mm256_shuffle_epi8(lane_table(pair_error::prev_low), _mm256_and_si256(p1, nib));
  const __m256i e3 =
      _mm256_shuffle_epi8(lane_table(pair_error::cur_high), _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
  const __m256i special = _mm256_and_si256(_mm256_and_si256(e1, e2), e3);
  // Bit 7 set exactly where the byte two back is E0..FF or the byte three back is F0..FF.
  const __m256i must23 =
      _mm256_or_si256(_mm256_subs_epu8(prev_bytes<2>(v), k.three_min), _mm256_subs_epu8(prev_bytes<3>(v), k.four_min));
  return _mm256_xor_si256(special, _mm256_and_si256(must23, k.top_bit));
}

/// True when the 32 bytes v, read as the start of a text, hold an error (utf8_block_errors).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf8_block_has_error(__m256i v, const byte_constants& k) noexcept {
  const __m256i err = utf8_block_errors(v, k);
  return !_mm256_testz_si256(err, err);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
#endif
// ---- end utf8dfa/detail/simd/avx2/utf8_block.hpp ----

#if UTF8DFA_X86_KERNELS
#include <atomic>

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

/// Shuffle tables, built here rather than written out, at run time: as constants they were
/// evaluated in every translation unit that includes the kernels (about 50 ms of g++'s time and
/// 150 ms of clang's). `tables` is zero until prepare_tables() fills it; every kernel entry below
/// that reads it calls prepare_tables() first (tests/first_use checks each in a fresh process).
struct shuffle_tables {
  /// For an 8-bit mask: the indices of its set bits, one per byte, lowest first (left-packing dwords).
  std::uint64_t pack_dwords[256]{};
  /// For four dwords holding UTF-8 forms of lengths 1..4, indexed by the bits of length - 1 (bit c:
  /// bit 0 of form c's, bit c + 4: bit 1 of form c's): the vpshufb control that packs their bytes,
  /// and the packed length.
  std::uint8_t pack_utf8[256][16]{};
  std::uint8_t packed_length[256]{};
  /// The same for four dwords holding a 1-byte form in byte 0, a 2-byte form in bytes 1-2 or a
  /// 3-byte form in bytes 0-2 (bit c: form c is 1 byte long, bit c + 4: at most 2 bytes); byte 15
  /// of the control is the packed length (at most 12: the shuffle's byte 15 is never kept).
  std::uint8_t pack_bmp_utf8[256][16]{};
  /// For an 8-bit mask: the vpshufb control that packs the words it selects, lowest first.
  std::uint8_t pack_words[256][16]{};
  /// For 8 words holding UTF-8 forms of 1 or 2 bytes (bit k set: word k's form is 2 bytes long):
  /// the vpshufb control that packs them (the packed length is 8 plus the set bits).
  std::uint8_t pack_short_utf8[256][16]{};
};

inline shuffle_tables build_shuffle_tables() noexcept {
  shuffle_tables t{};
  for (unsigned m = 0; m < 256; ++m) {
    unsigned k = 0;
    for (unsigned b = 0; b < 8; ++b)
      if ((m >> b) & 1u) t.pack_dwords[m] |= std::uint64_t{b} << (8 * k++);
    unsigned pos = 0;
    for (unsigned c = 0; c < 4; ++c)
      for (unsigned b = 0; b <= ((m >> c) & 1u) + 2 * ((m >> (c + 4)) & 1u); ++b)
        t.pack_utf8[m][pos++] = static_cast<std::uint8_t>(4 * c + b);
    t.packed_length[m] = static_cast<std::uint8_t>(pos);
    unsigned at = 0;
    for (unsigned c = 0; c < 4; ++c) {
      const unsigned len = ((m >> c) & 1u) != 0 ? 1 : ((m >> (c + 4)) & 1u) != 0 ? 2 : 3;
      const unsigned first = len == 2 ? 1 : 0;
      for (unsigned b = 0; b < len; ++b) t.pack_bmp_utf8[m][at++] = static_cast<std::uint8_t>(4 * c + first + b);
    }
    t.pack_bmp_utf8[m][15] = static_cast<std::uint8_t>(at);
    for (; at < 15; ++at) t.pack_bmp_utf8[m][at] = 0x80;
    unsigned w = 0;
    for (unsigned b = 0; b < 8; ++b)
      if ((m >> b) & 1u) {
        t.pack_words[m][w++] = static_cast<std::uint8_t>(2 * b);
        t.pack_words[m][w++] = static_cast<std::uint8_t>(2 * b + 1);
      }
    for (; w < 16; ++w) t.pack_words[m][w] = 0x80;
    for (; pos < 16; ++pos) t.pack_utf8[m][pos] = 0x80;  // zero
    unsigned bytes = 0;
    for (unsigned u = 0; u < 8; ++u)
      for (unsigned b = 0; b <= ((m >> u) & 1u); ++b)
        t.pack_short_utf8[m][bytes++] = static_cast<std::uint8_t>(2 * u + b);
    for (; bytes < 16; ++bytes) t.pack_short_utf8[m][bytes] = 0x80;
  }
  return t;
}

inline shuffle_tables tables{};

/// True once `tables` is filled.
inline std::atomic<bool> tables_ready{false};

/// Fills `tables`, once (a thread-safe local static). Out of line: inlined into each kernel entry,
/// its 18 KB temporary gave every call a frame of that size and six registers to save (the entries
/// of the conversions, 5-15% of the time of a 64-byte call).
UTF8DFA_NOINLINE inline void build_tables_once() noexcept {
  static const bool ready =
      (tables = build_shuffle_tables(), tables_ready.store(true, std::memory_order_release), true);
  static_cast<void>(ready);
}

/// Makes sure `tables` is filled, before the first kernel that reads them.
UTF8DFA_ALWAYS_INLINE void prepare_tables() noexcept {
  if (UTF8DFA_UNLIKELY(!tables_ready.load(std::memory_order_acquire))) build_tables_once();
}

/// w with the two bytes of each 16-bit unit exchanged when Swap (UTF-16 in the byte order opposite
/// to the host's, as loaded or to be stored): one byte shuffle.
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i in_order16(__m256i w) noexcept {
  if constexpr (Swap)
    return _mm256_shuffle_epi8(w, _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5,
                                                   4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  else
    return w;
}

template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i in_order16(__m128i w) noexcept {
  if constexpr (Swap)
    return _mm_shuffle_epi8(w, _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  else
    return w;
}

/// The 16 UTF-16 units at p in host order (exchanged as loaded when Swap).
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i load16(const char16_t* p) noexcept {
  return in_order16<Swap>(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

/// Stores the first `count` (< 8) bytes of v at o, and nothing else (in pieces of 4, 2 and 1 bytes:
/// masked stores are slow on some CPUs).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void store_bytes(unsigned char* o, __m128i v, unsigned count) noexcept {
  std::uint64_t bytes = static_cast<std::uint64_t>(_mm_cvtsi128_si64(v));
  if ((count & 4u) != 0) {
    const auto four = static_cast<std::uint32_t>(bytes);
    std::memcpy(o, &four, 4);
    o += 4;
    bytes >>= 32;
  }
  if ((count & 2u) != 0) {
    const auto two = static_cast<std::uint16_t>(bytes);
    std::memcpy(o, &two, 2);
    o += 2;
    bytes >>= 16;
  }
  if ((count & 1u) != 0) *o = static_cast<unsigned char>(bytes);
}

/// Stores the first `count` (<= 16) bytes of v at o, and nothing else: whole dwords by a masked
/// store, the last 1 to 3 bytes by store_bytes (a loop of byte stores here became a library call
/// to memcpy, with the vector registers saved around it, in g++ 12).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void store_exact(unsigned char* o, __m128i v, unsigned count) noexcept {
  const __m128i whole = _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(count / 4)), _mm_setr_epi32(0, 1, 2, 3));
  _mm_maskstore_epi32(reinterpret_cast<int*>(o), whole, v);
  if ((count & 3u) != 0) {
    alignas(16) unsigned char bytes[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(bytes), v);
    std::uint32_t last = 0;
    std::memcpy(&last, bytes + (count & ~3u), 4);
    store_bytes(o + (count & ~3u), _mm_cvtsi32_si128(static_cast<int>(last)), count & 3u);
  }
}

/// Stores the first `count` (<= 8) dwords of v at o.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void store_exact(char32_t* o, __m256i v, unsigned count) noexcept {
  const __m256i live =
      _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_epi32(reinterpret_cast<int*>(o), live, v);
}

/// Stores the first `count` (<= 8) words of v at o.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void store_exact(char16_t* o, __m128i v, unsigned count) noexcept {
  const __m128i pairs = _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(count / 2)), _mm_setr_epi32(0, 1, 2, 3));
  _mm_maskstore_epi32(reinterpret_cast<int*>(o), pairs, v);
  if ((count & 1u) != 0) {
    alignas(16) char16_t words[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(words), v);
    o[count - 1] = words[count - 1];
  }
}

/// Decodes, in each 16-bit lane holding (byte, next byte) in `pairs` and the byte after them in the
/// low byte of `thirds`, the 1-, 2- or 3-byte form starting there (meaningful at lead bytes only).
template <bool Three>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i decode_bmp(__m256i pairs, __m256i thirds) noexcept {
  // (b0 & 1F) * 64 + (b1 & 3F): the 2-byte value; a 3-byte lead has bit 4 clear, so shifting this by
  // 6 in a 16-bit lane leaves (b0 & 0F) << 12 | (b1 & 3F) << 6, and b2's payload completes it.
  const __m256i two =
      _mm256_maddubs_epi16(_mm256_and_si256(pairs, _mm256_set1_epi16(0x3F1F)), _mm256_set1_epi16(0x0140));
  const __m256i multi = _mm256_srai_epi16(_mm256_slli_epi16(pairs, 8), 15);  // b0 >= 80 (C0..EF at a lead)
  __m256i wide = two;
  if constexpr (Three) {
    const __m256i full = _mm256_or_si256(_mm256_slli_epi16(two, 6), _mm256_and_si256(thirds, _mm256_set1_epi16(0x3F)));
    wide = _mm256_blendv_epi8(two, full, _mm256_srai_epi16(_mm256_slli_epi16(pairs, 10), 15));  // bit 5: E0..EF
  } else {
    static_cast<void>(thirds);
  }
  return _mm256_blendv_epi8(_mm256_and_si256(pairs, _mm256_set1_epi16(0x7F)), wide, multi);
}

/// Writes the 8 words of `units` selected by `sel` (not 0), packed, as UTF-32 or UTF-16, with
/// full-width stores: up to 7 units past the result are overwritten. (UTF-16 with its bytes
/// exchanged when Swap, here and below.)
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* spill_short(Out* o, __m128i units, unsigned sel) noexcept {
  const __m128i packed =
      _mm_shuffle_epi8(units, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[sel])));
  if constexpr (sizeof(Out) == 2)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), in_order16<Swap>(packed));
  else
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm256_cvtepu16_epi32(packed));
  return o + _mm_popcnt_u32(sel);
}

/// Writes the BMP code points of the 8 words of `units` selected by `sel`, packed, as UTF-32 or UTF-16.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* store_short(Out* o, __m128i units, unsigned sel) noexcept {
  const __m128i packed =
      _mm_shuffle_epi8(units, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[sel])));
  const auto count = static_cast<unsigned>(__builtin_popcount(sel));
  if constexpr (sizeof(Out) == 2)
    store_exact(o, in_order16<Swap>(packed), count);
  else
    store_exact(o, _mm256_cvtepu16_epi32(packed), count);
  return o + count;
}

/// The 1..3-byte forms of the valid block v decoded at every position (meaningful at leads), in four
/// groups of 8 words: positions 0-7, 8-15, 16-23, 24-31. `next` and `after` hold the byte after
/// each position and the one after that (`after` is used only with Three).
struct bmp_groups {
  __m128i group[4];
};

template <bool Three>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bmp_groups decode_bmp_groups(__m256i v, __m256i next,
                                                                       __m256i after) noexcept {
  // Each position's (byte, next byte) as a word, and the byte after: unpacking gives positions
  // 0-7|16-23 (even) and 8-15|24-31 (odd).
  __m256i third_lo = next, third_hi = next;
  if constexpr (Three) {
    third_lo = _mm256_unpacklo_epi8(after, after);
    third_hi = _mm256_unpackhi_epi8(after, after);
  } else {
    static_cast<void>(after);
  }
  const __m256i even = decode_bmp<Three>(_mm256_unpacklo_epi8(v, next), third_lo);
  const __m256i odd = decode_bmp<Three>(_mm256_unpackhi_epi8(v, next), third_hi);
  return {{_mm256_castsi256_si128(even), _mm256_castsi256_si128(odd), _mm256_extracti128_si256(even, 1),
           _mm256_extracti128_si256(odd, 1)}};
}

/// Decodes the characters of the valid block v (forms of 1..3 bytes) that start at the positions
/// `starts` and writes them (decode_bmp_groups); `spill` allows full-width stores (see spill_short).
template <bool Three, bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* decode_bmp_forms(Out* o, __m256i v, __m256i next, __m256i after,
                                                                std::uint32_t starts, bool spill) noexcept {
  const bmp_groups g = decode_bmp_groups<Three>(v, next, after);
  const unsigned s0 = starts & 0xFFu, s1 = (starts >> 8) & 0xFFu, s2 = (starts >> 16) & 0xFFu, s3 = starts >> 24;
  if (spill) {
    if (s0 != 0) o = spill_short<Swap>(o, g.group[0], s0);
    if (s1 != 0) o = spill_short<Swap>(o, g.group[1], s1);
    if (s2 != 0) o = spill_short<Swap>(o, g.group[2], s2);
    if (s3 != 0) o = spill_short<Swap>(o, g.group[3], s3);
    return o;
  }
  o = store_short<Swap>(o, g.group[0], s0);
  o = store_short<Swap>(o, g.group[1], s1);
  o = store_short<Swap>(o, g.group[2], s2);
  return store_short<Swap>(o, g.group[3], s3);
}

/// decode_bmp_forms on the block v at p, the bytes after each position loaded (34 bytes readable).
template <bool Three, bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* decode_block_bmp(Out* o, const unsigned char* p, __m256i v,
                                                                std::uint32_t starts, bool spill) noexcept {
  const __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1));
  const __m256i after = Three ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 2)) : next;
  return decode_bmp_forms<Three, Swap>(o, v, next, after, starts, spill);
}

/// The 32 bytes of v moved down by N (bytes N..31 to positions 0..31-N), zeros shifted in: the
/// bytes after each position without a read past the block.
template <int N>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i next_bytes(__m256i v) noexcept {
  return _mm256_alignr_epi8(_mm256_permute2x128_si256(v, v, 0x81), v, N);
}

/// Writes the first `count` (1..8) code points of cp (scalar values) as UTF-32 or UTF-16; with
/// `spill`, full-width stores may write up to 8 units past the result.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* store_code_points(Out* o, __m256i cp, unsigned count,
                                                                 bool spill) noexcept {
  if constexpr (sizeof(Out) == 4) {
    if (spill)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), cp);
    else
      store_exact(o, cp, count);
    return o + count;
  } else {
    const __m256i live =
        _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i supp = _mm256_and_si256(_mm256_cmpgt_epi32(cp, _mm256_set1_epi32(0xFFFF)), live);
    if (_mm256_testz_si256(supp, supp)) {
      const __m128i words =
          in_order16<Swap>(_mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi32(cp, cp), 0x08)));
      if (spill)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(o), words);
      else
        store_exact(o, words, count);
      return o + count;
    }
    // A supplementary value becomes the dword (low surrogate << 16 | high surrogate); the words kept
    // are the first of each live dword and the second of each supplementary one.
    const __m256i high = _mm256_add_epi32(_mm256_srli_epi32(cp, 10), _mm256_set1_epi32(0xD7C0));
    const __m256i low = _mm256_or_si256(_mm256_and_si256(cp, _mm256_set1_epi32(0x3FF)), _mm256_set1_epi32(0xDC00));
    const __m256i units =
        in_order16<Swap>(_mm256_blendv_epi8(cp, _mm256_or_si256(high, _mm256_slli_epi32(low, 16)), supp));
    const __m256i keep = _mm256_or_si256(_mm256_and_si256(live, _mm256_set1_epi32(0xFFFF)),
                                         _mm256_and_si256(supp, _mm256_set1_epi32(static_cast<int>(0xFFFF0000u))));
    const auto m = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_packs_epi16(keep, keep)));
    const unsigned k0 = m & 0xFFu, k1 = (m >> 16) & 0xFFu;
    const __m128i first = _mm_shuffle_epi8(_mm256_castsi256_si128(units),
                                           _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[k0])));
    const __m128i second = _mm_shuffle_epi8(_mm256_extracti128_si256(units, 1),
                                            _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[k1])));
    const auto n0 = static_cast<unsigned>(_mm_popcnt_u32(k0)), n1 = static_cast<unsigned>(_mm_popcnt_u32(k1));
    if (spill) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o), first);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o + n0), second);
    } else {
      store_exact(o, first, n0);
      store_exact(o + n0, second, n1);
    }
    return o + n0 + n1;
  }
}

/// Copies the `n` (4 <= n <= 128) bytes at p to `to`, which has room for 128 bytes (those after the
/// copy become zero), reading nothing past p + n: masked dword loads (masked-out dwords are not
/// read) and the last n % 4 bytes merged in registers (a store of its own would delay the loads
/// that read the copy back). No library call: GCC turns copy loops into memcpy, whose AVX-512 form
/// can leave vector state that makes the SSE code after it (the caller's) slow.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void copy_short(unsigned char* to, const unsigned char* p,
                                                          std::size_t n) noexcept {
  const auto dwords = static_cast<int>(n / 4);
  const auto rest = static_cast<unsigned>(n % 4);
  std::uint32_t last = 0;
  std::memcpy(&last, p + n - 4, 4);
  const __m256i partial = _mm256_set1_epi32(rest == 0 ? 0 : static_cast<int>(last >> (8 * (4 - rest))));
  const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (int k = 0; k < 4; ++k) {
    const __m256i at = _mm256_set1_epi32(dwords - 8 * k);
    const __m256i whole =
        _mm256_maskload_epi32(reinterpret_cast<const int*>(p + 32 * k), _mm256_cmpgt_epi32(at, index));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 32 * k),
                        _mm256_blendv_epi8(whole, partial, _mm256_cmpeq_epi32(at, index)));
  }
}

/// Copies `count` units from `from` to o with vector loads and stores, writing nothing past o + count
/// (and no library call, see copy_short).
template <class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void copy_units_out(Out* o, const Out* from, std::size_t count) noexcept {
  constexpr std::size_t per = 32 / sizeof(Out);
  if (count >= per) {
    for (std::size_t j = 0; j < count - per; j += per) {
      __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + j));
      __asm__("" : "+x"(v));  // (not a memcpy)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + j), v);
    }
    // The last vector ends at o + count (overlapping the one before: the same units again).
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + count - per),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + count - per)));
    return;
  }
  const std::size_t bytes = count * sizeof(Out);
  const __m256i live =
      _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(bytes / 4)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  _mm256_maskstore_epi32(reinterpret_cast<int*>(o), live, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));
  if constexpr (sizeof(Out) == 2)
    if ((count & 1u) != 0) o[count - 1] = from[count - 1];
}

/// Decodes, from p + i on, eight 3-byte forms at a time (24 bytes, each a lead E0..EF and two
/// continuation bytes whose value is neither below U+0800 nor a surrogate) while such a run follows
/// and at least 32 bytes are left; returns the position it stopped at (i when none was taken).
/// Reads at most 28 bytes past each position it starts a group at; writes exactly what it decodes.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t decode_three_run(const unsigned char* p, std::size_t i,
                                                                       std::size_t n, Out*& o) noexcept {
  // Each lane holds four forms in bytes 0..11 (positions i..i+11, then i+12..i+23).
  const __m256i class_mask = _mm256_setr_epi8(-16, -64, -64, -16, -64, -64, -16, -64, -64, -16, -64, -64, 0, 0, 0, 0,
                                              -16, -64, -64, -16, -64, -64, -16, -64, -64, -16, -64, -64, 0, 0, 0, 0);
  const __m256i class_want =
      _mm256_setr_epi8(-32, -128, -128, -32, -128, -128, -32, -128, -128, -32, -128, -128, 0, 0, 0, 0, -32, -128, -128,
                       -32, -128, -128, -32, -128, -128, -32, -128, -128, 0, 0, 0, 0);
  // Per dword: (third byte, second byte, lead, zero).
  const __m256i gather = _mm256_setr_epi8(2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1, 2, 1, 0, -1, 5, 4, 3,
                                          -1, 8, 7, 6, -1, 11, 10, 9, -1);
  while (n - i >= 32) {
    const __m256i v =
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))),
                                _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 12)), 1);
    const __m256i shape = _mm256_cmpeq_epi8(_mm256_and_si256(v, class_mask), class_want);
    const __m256i bits = _mm256_and_si256(_mm256_shuffle_epi8(v, gather), _mm256_set1_epi32(0x000F3F3F));
    const __m256i cp =
        _mm256_madd_epi16(_mm256_maddubs_epi16(bits, _mm256_set1_epi16(0x4001)), _mm256_set1_epi32(0x10000001));
    // Overlong (below 800) or a surrogate (D800..DFFF).
    const __m256i bad =
        _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(0x800), cp),
                        _mm256_cmpeq_epi32(_mm256_and_si256(cp, _mm256_set1_epi32(0xF800)), _mm256_set1_epi32(0xD800)));
    if (static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_andnot_si256(bad, shape))) != 0xFFFFFFFFu) break;
    if constexpr (sizeof(Out) == 4) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), cp);
    } else {
      const __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(cp, cp), 0x08);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o), in_order16<Swap>(_mm256_castsi256_si128(words)));
    }
    o += 8;
    i += 24;
  }
  return i;
}

/// Bytes of zeros after the input that the blocks of utf8_to_utf_impl need (a block and the 8
/// bytes its last window may touch).
inline constexpr std::size_t utf8_block_reach = 40;

/// Bytes left below which utf8_to_utf_impl's blocks stop and finish_padded takes the rest: a block
/// more than it needs, so that every block of the loop has a next block to check and may store
/// full-width (the last blocks, in the padded copy, store full-width into its buffer).
inline constexpr std::size_t padded_below = utf8_block_reach + 32;

/// assume_valid's stand-in for utf8_block_has_error on the block at q (its first 32 bytes v; 40
/// readable), as in the NEON kernel: true when the block goes to the scalar DFA, because it holds
/// a run of continuation bytes as long as its longest form (so every piece the block loop takes,
/// a byte that is no continuation byte and those after it, has 1 to 4 bytes, and the loop
/// advances), or a byte F0..FF not followed by three continuation bytes (so a value that takes a
/// surrogate pair comes only from 4 bytes). Each piece then writes one unit, or two for 4 bytes,
/// where replace writes at least as many: unchecked, the output stays within replace's size.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf8_block_unguarded(const unsigned char* q, __m256i v,
                                                                    const byte_constants& k) noexcept {
  const __m256i limit = k.lead_min;
  const auto cont = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(limit, v)));
  const auto four = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_subs_epu8(v, k.four_min)));
  const std::uint32_t two = cont & (cont >> 1);  // bit k: bytes k, k+1 are continuation bytes
  if (four != 0) {
    const auto after = static_cast<std::uint32_t>(_mm256_movemask_epi8(
                           _mm256_cmpgt_epi8(limit, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 8))))) >>
                       24;  // bytes 32..39
    const std::uint64_t all = cont | std::uint64_t{after} << 32;
    const auto follow = static_cast<std::uint32_t>((all >> 1) & (all >> 2) & (all >> 3));
    return ((two & (two >> 2)) | (four & ~follow)) != 0;
  }
  const auto three = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_subs_epu8(v, k.three_min)));
  return (three != 0 ? two & (cont >> 2) : two) != 0;
}

/// The block test of utf8_to_utf_impl: the check, or without Check (assume_valid) the guard.
template <bool Check>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf8_block_fails(const unsigned char* q, __m256i v,
                                                                const byte_constants& k) noexcept {
  if constexpr (Check)
    return utf8_block_has_error(v, k);
  else
    return utf8_block_unguarded(q, v, k);
}

/// The block loop of utf8_to_utf_impl (with `Tail`): over a copy of the input's last `n` (< 40)
/// bytes followed by zero bytes; blocks run until they have passed the input's end. Each zero byte
/// is a character of its own (U+0000) that writes one zero unit; so when no block holds an error,
/// the input's output is the copy's less one unit per zero byte the blocks passed.
/// UTF-16 is written with the bytes of each unit exchanged when Swap. Without Check (assume_valid),
/// blocks are guarded (utf8_block_unguarded), not checked.
template <bool Strict, class Out, bool Tail = false, bool Swap = false, bool Check = true>
UTF8DFA_TARGET_AVX2 packed_conversion utf8_to_utf_impl(const unsigned char* p, std::size_t n, Out* out,
                                                       char32_t replacement) noexcept;

/// The `left` (8 to padded_below - 1) bytes at q widened into o when they are all ASCII (true);
/// false, nothing written, otherwise. Groups of 8 or 16 bytes, the last one ending at the end
/// (overlapping the one before): no read or write outside the bytes and their units.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool widen_ascii_tail(const unsigned char* q, std::size_t left,
                                                                Out* o) noexcept {
  static_assert(padded_below <= 96, "three vectors test the tail");
  if (left >= 32) {
    __m256i any = _mm256_or_si256(load(q), load(q + left - 32));
    if (left > 64) any = _mm256_or_si256(any, load(q + 32));
    if (_mm256_movemask_epi8(any) != 0) return false;
  } else {
    std::uint64_t any = load64(q) | load64(q + left - 8);
    if (left > 16) any |= load64(q + 8);
    if (left > 24) any |= load64(q + 16);
    if ((any & high_bits) != 0) return false;
  }
  if constexpr (sizeof(Out) == 4) {
    for (std::size_t k = 0; k < left; k += 8) {
      const std::size_t at = left - k >= 8 ? k : left - 8;
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + at),
                          _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + at))));
    }
  } else if (left >= 16) {
    std::size_t k = 0;
    for (; left - k >= 16; k += 16)
      _mm256_storeu_si256(
          reinterpret_cast<__m256i*>(o + k),
          in_order16<Swap>(_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + k)))));
    if (k < left)
      _mm256_storeu_si256(
          reinterpret_cast<__m256i*>(o + left - 16),
          in_order16<Swap>(_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + left - 16)))));
  } else {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o),
                     in_order16<Swap>(_mm_cvtepu8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q)))));
    _mm_storeu_si128(
        reinterpret_cast<__m128i*>(o + left - 8),
        in_order16<Swap>(_mm_cvtepu8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + left - 8)))));
  }
  return true;
}

/// The bytes of the 32 at v that are not continuation bytes (ASCII and leads), a bit each.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::uint32_t non_continuation(__m256i v, const byte_constants& k) noexcept {
  return ~static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(k.lead_min, v)));
}

/// The bytes of the 32 at v that are F0..FF, a bit each.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::uint32_t four_leads(__m256i v, const byte_constants& k) noexcept {
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_subs_epu8(v, k.four_min)));
}

/// Bytes FF at the positions from `from` (at most 31) on, 00 before.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i byte_mask_from(unsigned from) noexcept {
  const __m256i position = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                            21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
  return _mm256_cmpgt_epi8(position, _mm256_set1_epi8(static_cast<char>(static_cast<int>(from) - 1)));
}

/// True when the 32 bytes v, read as the start of a text, hold an error (utf8_block_errors) at a
/// position from `from` on.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool errors_from(__m256i v, unsigned from, const byte_constants& k) noexcept {
  return !_mm256_testz_si256(utf8_block_errors(v, k), byte_mask_from(from));
}

/// decode_bmp_forms writing exactly up to `end`: a group's 8 units in full while they end by it,
/// the group that would pass it by exact stores.
template <bool Three, bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE Out* decode_bmp_until(Out* o, __m256i v, __m256i next, __m256i after,
                                                                std::uint32_t starts, const Out* end) noexcept {
  const bmp_groups g = decode_bmp_groups<Three>(v, next, after);
  for (unsigned k = 0; k < 4; ++k) {
    const unsigned sel = (starts >> (8 * k)) & 0xFFu;
    if (sel == 0) continue;
    o = end - o >= 8 ? spill_short<Swap>(o, g.group[k], sel) : store_short<Swap>(o, g.group[k], sel);
  }
  return o;
}

/// The last bytes of a conversion (from c.i: 8 to padded_below - 1 of them, n >= 32) decoded in
/// place, with no read past the input and no write past their output: first checked whole (Check)
/// by overlapping blocks (the 32 bytes at c.i, at c.i + 29, and the input's last 32, each read from
/// its fourth byte on where the one before ends) and their units counted (one per byte that is no
/// continuation byte), then decoded by blocks, each the 32 bytes at c.i or, fewer being left, the
/// input's last 32 with their positions before c.i (characters already written) left out; the
/// bytes after each position come from the block by shifts, and the stores that would pass the
/// output's end are exact. Forms of 1 to 3 bytes only. Returns true at the input's end; false at a
/// byte F0..FF, an error, the input ending inside a character or (unchecked) a block that would not
/// advance: nothing written when checked, and the caller's padded copy or the scalar DFA takes the
/// rest from c.i (unchecked, what was written stays within the units counted, one for each piece
/// that replace writes at least one for).
template <bool Swap, bool Check, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool finish_in_place(const unsigned char* p, std::size_t n,
                                                               transcode_cursor<Out>& c,
                                                               const byte_constants& k) noexcept {
  const std::size_t left = n - c.i;
  const __m256i last = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 32));
  std::size_t units = 0;
  std::size_t covered = c.i;  // the bytes before it checked and counted
  if (left > 32) {            // (32 bytes: the last block alone, from its start)
    const __m256i first = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    if (four_leads(first, k) != 0 || (Check && errors_from(first, 0, k))) return false;
    units = static_cast<std::size_t>(_mm_popcnt_u32(non_continuation(first, k)));
    covered += 32;
    if (left > 61) {
      const __m256i middle = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 29));
      if ((four_leads(middle, k) >> 3) != 0 || (Check && errors_from(middle, 3, k))) return false;
      units += static_cast<std::size_t>(_mm_popcnt_u32(non_continuation(middle, k) >> 3));
      covered += 29;
    }
  }
  const auto s = static_cast<unsigned>(covered - (n - 32));  // (3 to 31 when the blocks before cover c.i)
  const std::uint32_t last_starts = non_continuation(last, k), tail_starts = last_starts >> s;
  if (four_leads(last, k) >> s != 0) return false;
  if constexpr (Check) {
    // Without blocks before, the bytes before c.i read as zeros: c.i starts the text checked, as
    // the first block does. (It follows whole characters here: the blocks resume after an error
    // 37 bytes or more before the end. Were it a continuation byte that the bytes before would
    // take, as after ED A0 | 80, the check would then still see it.)
    const __m256i checked = covered == c.i ? _mm256_and_si256(last, byte_mask_from(s)) : last;
    if (errors_from(checked, s, k)) return false;
  }
  units += static_cast<std::size_t>(_mm_popcnt_u32(tail_starts));
  if (last_starts != 0) {  // the input may not end inside a character (whose lead may come before s)
    const unsigned at = 31u - static_cast<unsigned>(__builtin_clz(last_starts));
    const unsigned b = p[n - 32 + at];
    if (at + (b < 0x80u ? 1u : b < 0xE0u ? 2u : 3u) > 32) return false;
  }
  const Out* const end = c.o + units;
  while (c.i < n) {
    const std::size_t at = n - c.i >= 32 ? c.i : n - 32;
    const auto from = static_cast<unsigned>(c.i - at);  // positions already written
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + at));
    const std::uint32_t leads = non_continuation(v, k) & (~std::uint32_t{0} << from);
    if (leads == 0) return false;  // (checked input never stops here, nor below)
    const unsigned last_lead = 31u - static_cast<unsigned>(__builtin_clz(leads));
    const unsigned b = p[at + last_lead];
    unsigned take = 32;
    if (last_lead + (b < 0x80u ? 1u : b < 0xE0u ? 2u : 3u) > 32) {  // a character cut by the block's end
      if (at + 32 == n) return false;
      take = last_lead;
    }
    const std::uint32_t starts = leads & static_cast<std::uint32_t>((std::uint64_t{1} << take) - 1);
    if (starts == 0) return false;
    const __m256i next = next_bytes<1>(v);
    if (_mm256_movemask_epi8(_mm256_subs_epu8(v, k.three_min)) == 0)
      c.o = decode_bmp_until<false, Swap>(c.o, v, next, next, starts, end);
    else
      c.o = decode_bmp_until<true, Swap>(c.o, v, next, next_bytes<2>(v), starts, end);
    c.i = at + take;
  }
  return true;
}

/// Finishes a conversion whose blocks stopped with fewer than padded_below bytes left: an
/// ASCII tail widened in place, other last bytes decoded in place (finish_in_place, UTF-16) or in
/// a padded copy (utf8_to_utf_impl with `Tail`; UTF-32, and from a 4-byte form on), the scalar DFA when they hold
/// an error (which says where the error is and whether the input ends inside a character).
template <bool Strict, bool Swap, bool Check, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE packed_conversion finish_padded(const unsigned char* p, std::size_t n,
                                                                          Out* out, transcode_cursor<Out> c,
                                                                          char32_t repl,
                                                                          const byte_constants& k) noexcept {
  if (n - c.i >= 8) {
    if ((load64(p + n - 8) & high_bits) == 0 && widen_ascii_tail<Swap>(p + c.i, n - c.i, c.o))
      return {n, static_cast<std::size_t>(c.o - out) + (n - c.i), c.first};
    // (UTF-16 only: for UTF-32 the padded copy was 3-4% faster at 64 and 256 bytes.)
    if constexpr (sizeof(Out) == 2)
      if (n >= 32 && finish_in_place<Swap, Check>(p, n, c, k)) return {n, static_cast<std::size_t>(c.o - out), c.first};
  }
  const std::size_t left = n - c.i;
  if (left >= 8) {
    alignas(32) unsigned char in[128];
    alignas(32) Out converted[160];
    copy_short(in, p + c.i, left);
    const packed_conversion r = utf8_to_utf_impl<true, Out, true, Swap, Check>(in, left, converted, 0);
    if (r.error == error_code::none) {
      const std::size_t written = r.written - (r.read - left);
      copy_units_out(c.o, converted, written);
      return {n, static_cast<std::size_t>(c.o - out) + written, c.first};
    }
  }
  UTF8DFA_LEAVE_AVX();
  return finish_scalar_in_order<Strict, Swap>(p, n, out, c, repl);
}

/// The 32 ASCII bytes v (read from q) widened into 32 units at o (UTF-16 in the order Swap says).
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void widen_ascii32(__m256i v, const unsigned char* q, Out* o) noexcept {
  if constexpr (sizeof(Out) == 4) {
    for (int g = 0; g < 4; ++g)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 8 * g),
                          _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + 8 * g))));
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o),
                        in_order16<Swap>(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(v))));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 16),
                        in_order16<Swap>(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1))));
  }
}

template <bool Strict, class Out, bool Tail, bool Swap, bool Check>
UTF8DFA_TARGET_AVX2 packed_conversion utf8_to_utf_impl(const unsigned char* p, std::size_t n, Out* out,
                                                       char32_t replacement) noexcept {
  transcode_cursor<Out> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  const std::size_t stop = n;  // (Tail: the input's end in the copy)
  if constexpr (Tail) n += utf8_block_reach;
  // Bytes (lead+3, lead+2, lead+1, lead) of positions 0..3 in the low lane and 4..7 in the high one.
  const __m256i window =
      _mm256_setr_epi8(3, 2, 1, 0, 4, 3, 2, 1, 5, 4, 3, 2, 6, 5, 4, 3, 7, 6, 5, 4, 8, 7, 6, 5, 9, 8, 7, 6, 10, 9, 8, 7);
  // Lead-byte high nibble C..F (taken modulo 8) -> right shift and payload mask of the gathered value.
  const __m256i shifts = _mm256_setr_epi32(0, 0, 0, 0, 12, 12, 6, 0);
  const __m256i masks = _mm256_setr_epi32(0, 0, 0, 0, 0x7FF, 0x7FF, 0xFFFF, 0x1FFFFF);
  const byte_constants k = make_byte_constants();
  bool checked = false;  // the block at c.i is known to pass the check
  // A block and the 8 bytes its last window may touch.
  while (Tail ? c.i < stop : n - c.i >= padded_below) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(v));
    if (high == 0) {
      widen_ascii32<Swap>(v, p + c.i, c.o);
      c.i += 32;
      c.o += 32;
      if constexpr (!Tail) {
        // A run of ASCII (English text, markup): 64 bytes a test while it lasts.
        while (n - c.i >= 64) {
          const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
          const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 32));
          if (_mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0) break;
          widen_ascii32<Swap>(a, p + c.i, c.o);
          widen_ascii32<Swap>(b, p + c.i + 32, c.o + 32);
          c.i += 64;
          c.o += 64;
        }
      }
      checked = false;
      continue;
    }
    if constexpr (!Tail) {
      // A run of 3-byte forms (CJK text) may start here: tried only in blocks without ASCII (text
      // with spaces between its words fails too often for the attempt to pay).
      if (high == 0xFFFFFFFFu && (p[c.i] & 0xF0u) == 0xE0u) {
        const std::size_t from = c.i;
        c.i = decode_three_run<Swap>(p, c.i, n, c.o);
        if (c.i != from) {
          checked = false;
          continue;
        }
      }
    }
    if (!checked && UTF8DFA_UNLIKELY(utf8_block_fails<Check>(p + c.i, v, k))) {
      if constexpr (Tail) return {c.i, 0, error_code::invalid_byte};  // (any error: the DFA decides)
      UTF8DFA_LEAVE_AVX();
      if (!scalar_region_in_order<Strict, Swap>(p, n, c.i + 32, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    checked = false;
    const auto cont = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(k.lead_min, v)));
    const std::uint32_t leads = ~cont;
    const unsigned last = 31u - static_cast<unsigned>(__builtin_clz(leads));
    unsigned take = 32;
    if constexpr (Tail) {  // (the test below made the 64-byte emoji calls 30% slower here)
      const unsigned b = p[c.i + last];
      const unsigned len = b < 0x80 ? 1u : b < 0xE0 ? 2u : b < 0xF0 ? 3u : 4u;
      if (last + len > 32) take = last;
    } else {
      // The block ends inside a character when byte 31 is a lead of 2 or more bytes, byte 30 one
      // of 3 or more, or byte 29 one of 4: then the block takes the bytes before that (its last)
      // lead. (Tested on v, not on the lead byte loaded again: a mispredicted branch here, which
      // on text of 3-byte forms is one block in three, costs less.)
      const __m256i cut_at = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                              -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0x70, 0x60, 0x40);
      if (_mm256_movemask_epi8(_mm256_subs_epu8(v, cut_at)) != 0) take = last;
    }
    const std::uint32_t starts = leads & static_cast<std::uint32_t>((std::uint64_t{1} << take) - 1);
    // Full-width stores write at most 8 units past the result: safe when the next block passes the
    // check, as its characters complete inside it then cover at least 29 bytes: 8 units or more.
    // (Unchecked: the next block passes the guard, so at least 8 of its bytes are leads, each of
    // which writes a unit or more, in that block or, deferred to its successor, after it.)
    checked = n - c.i - take >= 40 &&
              !utf8_block_fails<Check>(p + c.i + take,
                                       _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + take)), k);
    // (With Tail the output is finish_padded's buffer, which has room for them whatever follows.)
    const bool spill = Tail || checked;
    if (_mm256_movemask_epi8(_mm256_subs_epu8(v, k.four_min)) == 0) {  // forms of 1..3 bytes
      if (_mm256_movemask_epi8(_mm256_subs_epu8(v, k.three_min)) == 0)
        c.o = decode_block_bmp<false, Swap>(c.o, p + c.i, v, starts, spill);
      else
        c.o = decode_block_bmp<true, Swap>(c.o, p + c.i, v, starts, spill);
      c.i += take;
      continue;
    }
    if (starts == 0x11111111u &&
        static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_subs_epu8(v, k.four_min))) == starts) {
      // Eight 4-byte forms, one per dword: bytes reversed (the lead highest), payloads gathered.
      const __m256i reversed =
          _mm256_shuffle_epi8(v, _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7,
                                                  6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
      const __m256i bits = _mm256_and_si256(reversed, _mm256_set1_epi32(0x073F3F3F));
      const __m256i cp =
          _mm256_madd_epi16(_mm256_maddubs_epi16(bits, _mm256_set1_epi16(0x4001)), _mm256_set1_epi32(0x10000001));
      if constexpr (sizeof(Out) == 4) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o), cp);
        c.o += 8;
      } else {  // (low surrogate << 16 | high surrogate) per dword
        const __m256i lead = _mm256_add_epi32(_mm256_srli_epi32(cp, 10), _mm256_set1_epi32(0xD7C0));
        const __m256i trail =
            _mm256_or_si256(_mm256_and_si256(cp, _mm256_set1_epi32(0x3FF)), _mm256_set1_epi32(0xDC00));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o),
                            in_order16<Swap>(_mm256_or_si256(lead, _mm256_slli_epi32(trail, 16))));
        c.o += 16;
      }
      c.i += 32;
      continue;
    }
    for (unsigned g = 0; g < 4; ++g) {
      const unsigned sel = (starts >> (8 * g)) & 0xFFu;
      if (sel == 0) continue;
      const __m256i raw = _mm256_shuffle_epi8(
          _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + c.i + 8 * g))), window);
      const __m256i bits = _mm256_and_si256(raw, _mm256_set1_epi32(0x7F3F3F3F));
      const __m256i value =
          _mm256_madd_epi16(_mm256_maddubs_epi16(bits, _mm256_set1_epi16(0x4001)), _mm256_set1_epi32(0x10000001));
      const __m256i nibble = _mm256_srli_epi32(raw, 28);
      const __m256i multi = _mm256_and_si256(_mm256_srlv_epi32(value, _mm256_permutevar8x32_epi32(shifts, nibble)),
                                             _mm256_permutevar8x32_epi32(masks, nibble));
      const __m256i ascii = _mm256_cmpgt_epi32(raw, _mm256_set1_epi32(-1));  // lead < 0x80
      const __m256i cp = _mm256_blendv_epi8(multi, _mm256_srli_epi32(raw, 24), ascii);
      const __m256i packed = _mm256_permutevar8x32_epi32(
          cp, _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(tables.pack_dwords[sel]))));
      c.o = store_code_points<Swap>(c.o, packed, static_cast<unsigned>(_mm_popcnt_u32(sel)), spill);
    }
    c.i += take;
  }
  if constexpr (Tail)
    return {c.i, static_cast<std::size_t>(c.o - out), error_code::none};
  else
    return finish_padded<Strict, Swap, Check>(p, n, out, c, repl, k);
}

/// The vpshufb control that moves a vector's bytes up by 16 - k (k <= 16) or down by k - 16
/// (16 <= k <= 32), zeros shifted in: 16 bytes of a sliding window.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i slide_control(unsigned k) noexcept {
  alignas(16) static constexpr std::int8_t slide[48] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                                        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(slide + k));
}

/// Stores the `len` (4 to 12) bytes of v at o, and nothing at or past `end` (o + len <= end): one
/// 16-byte store when it ends by `end`, else two overlapping stores of 8 or of 4 bytes.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* put_within(unsigned char* o, __m128i v, unsigned len,
                                                                    const unsigned char* end) noexcept {
  if (end - o >= 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), v);
  } else if (len >= 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), v);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o + len - 8), _mm_shuffle_epi8(v, slide_control(len + 8)));
  } else {
    const auto first = static_cast<std::uint32_t>(_mm_cvtsi128_si32(v));
    const auto last = static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_shuffle_epi8(v, slide_control(len + 12))));
    std::memcpy(o, &first, 4);
    std::memcpy(o + len - 4, &last, 4);
  }
  return o + len;
}

/// Stores the first `a` (at most 16) bytes of `first` and then the first `b` (at most 16) of
/// `second` (the bytes after them zero; a + b >= 8) at o, and nothing past them: the 16 bytes at o
/// and the 16 that end at o + a + b, each assembled from both by shuffles (no masked store); below
/// 16 bytes in all, 8 and 8 the same way.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* put_joined(unsigned char* o, __m128i first, unsigned a,
                                                                    __m128i second, unsigned b) noexcept {
  const __m128i head = _mm_or_si128(first, _mm_shuffle_epi8(second, slide_control(16 - a)));
  if (a + b < 16) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), head);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o + a + b - 8), _mm_shuffle_epi8(head, slide_control(a + b + 8)));
    return o + a + b;
  }
  const __m128i tail =
      _mm_or_si128(_mm_shuffle_epi8(first, slide_control(a + b)), _mm_shuffle_epi8(second, slide_control(b)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o), head);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o + a + b - 16), tail);
  return o + a + b;
}

/// Packs the four 1..4-byte forms of v (one per dword, see pack_utf8).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i pack_utf8_forms(__m128i v, unsigned index) noexcept {
  return _mm_shuffle_epi8(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_utf8[index])));
}

/// The payload fields of the 4-byte forms of the 8 values of cp, first byte lowest (shorter forms
/// drop the leading ones).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i utf8_spread(__m256i cp) noexcept {
  return _mm256_or_si256(
      _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32(cp, 24), k32<0x3F000000u>()),
                      _mm256_and_si256(_mm256_slli_epi32(cp, 10), k32<0x003F0000u>())),
      _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(cp, 4), k32<0x00003F00u>()), _mm256_srli_epi32(cp, 18)));
}

/// The 4-byte forms of the 8 supplementary scalar values of cp, in place.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i four_byte_forms(__m256i cp) noexcept {
  return _mm256_or_si256(utf8_spread(cp), k32<0x808080F0u>());
}

/// Writes the UTF-8 forms of the 8 scalar values of cp; returns the new output position. With
/// `spill`, full 16-byte stores may write up to 12 bytes past the result.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* encode8(unsigned char* o, __m256i cp, bool spill) noexcept {
  const __m256i ge80 = _mm256_cmpgt_epi32(cp, k32<0x7Fu>());
  const __m256i ge800 = _mm256_cmpgt_epi32(cp, k32<0x7FFu>());
  const __m256i ge10000 = _mm256_cmpgt_epi32(cp, k32<0xFFFFu>());
  const __m256i spread = utf8_spread(cp);
  if (_mm256_movemask_ps(_mm256_castsi256_ps(ge10000)) == 0xFF) {  // 4-byte forms only: the bytes are in place
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), four_byte_forms(cp));
    return o + 32;
  }
  const __m256i shift =
      _mm256_add_epi32(k32<24u>(), _mm256_slli_epi32(_mm256_add_epi32(_mm256_add_epi32(ge80, ge800), ge10000), 3));
  __m256i tag = _mm256_and_si256(ge80, k32<0x80C0u>());
  tag = _mm256_blendv_epi8(tag, k32<0x8080E0u>(), ge800);
  tag = _mm256_blendv_epi8(tag, k32<0x808080F0u>(), ge10000);
  const __m256i bytes = _mm256_blendv_epi8(cp, _mm256_or_si256(_mm256_srlv_epi32(spread, shift), tag), ge80);
  // Length - 1 of each form as 2 bits: (ge80 ^ ge800 ^ ge10000, ge800).
  const auto a = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ge80)));
  const auto b = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ge800)));
  const auto c = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ge10000)));
  const unsigned odd = a ^ b ^ c;
  const unsigned lo = (odd & 0x0Fu) | ((b & 0x0Fu) << 4), hi = (odd >> 4) | (b & 0xF0u);
  const __m128i first = pack_utf8_forms(_mm256_castsi256_si128(bytes), lo);
  const __m128i second = pack_utf8_forms(_mm256_extracti128_si256(bytes, 1), hi);
  const unsigned len0 = tables.packed_length[lo], len1 = tables.packed_length[hi];
  if (spill) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), first);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + len0), second);
    return o + len0 + len1;
  }
  return put_joined(o, first, len0, second, len1);
}

/// Stores the 16 bytes v at o when `spill`, else only the first `count` of them; returns o + count.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* put_bytes(unsigned char* o, __m128i v, unsigned count,
                                                                   bool spill) noexcept {
  if (spill)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), v);
  else
    store_exact(o, v, count);
  return o + count;
}

/// The four 1..3-byte forms of v (one per dword) packed with the pack_bmp_utf8 row at byte offset
/// `at` (16 times its index), whose byte 15 is their length.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i bmp_group(__m128i v, unsigned at) noexcept {
  return _mm_shuffle_epi8(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(&tables.pack_bmp_utf8[0][0] + at)));
}

/// Packs the four 1..3-byte forms of v (one per dword) with the pack_bmp_utf8 row at byte offset
/// `at` (16 times its index: GCC then needs no shift) and stores them at o; returns the end.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* pack_bmp_forms(unsigned char* o, __m128i v, unsigned at,
                                                                        bool spill) noexcept {
  const unsigned char* rows = &tables.pack_bmp_utf8[0][0];
  const std::size_t i = at;  // (row + 15 then folds into the address)
  return put_bytes(o, bmp_group(v, at), rows[i + 15], spill);
}

/// The splats encode16 uses, loaded once: a loop that keeps them keeps them in registers (or on
/// its stack, read by the instructions using them), with no address computed per use.
struct unit_constants {
  __m256i ff80, f800, x7ff, x7f, x3f00, x80c0, x80e0, x3f, x80, x4000;
};

UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unit_constants load_unit_constants() noexcept {
  return {k16<0xFF80>(), k16<0xF800>(), k16<0x7FF>(), k16<0x7F>(), k16<0x3F00>(),
          k16<0x80C0>(), k16<0x80E0>(), k16<0x3F>(),  k16<0x80>(), k16<0x4000>()};
}

/// Two-byte forms of the units of w as words (lead, continuation): (110 | u >> 6, 10 | u & 3F).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i two_byte_forms(__m256i w, const unit_constants& k) noexcept {
  return _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi16(w, 6), _mm256_and_si256(_mm256_slli_epi16(w, 8), k.x3f00)),
                         k.x80c0);
}

/// The UTF-16 unit before each unit of w (0 before the first).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i prev_units(__m256i w) noexcept {
  return _mm256_alignr_epi8(w, _mm256_permute2x128_si256(w, w, 0x08), 14);
}

/// The 2 bytes each half of a surrogate pair writes, as words: the scalar value is 10000 +
/// (h & 3FF) << 10 + (l & 3FF); with v = (h & 3FF) + 40, its bytes are F0 | v >> 8, 80 | (v >> 2) & 3F
/// (the high unit's) and 80 | (v & 3) << 4 | (l & 3FF) >> 6, 80 | l & 3F (the low unit's, v & 3
/// being h & 3, taken from the unit before).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i pair_halves(__m256i w, __m256i hs) noexcept {
  const __m256i v = _mm256_add_epi16(_mm256_and_si256(w, k16<0x3FF>()), k16<0x40>());
  const __m256i high_head = _mm256_or_si256(
      _mm256_or_si256(_mm256_srli_epi16(v, 8), _mm256_and_si256(_mm256_slli_epi16(v, 6), k16<0x3F00>())),
      k16<0x80F0>());
  const __m256i low_head =
      _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(prev_units(w), 4), k16<0x30>()),
                                      _mm256_and_si256(_mm256_srli_epi16(w, 6), k16<0x0F>())),
                      _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(w, 8), k16<0x3F00>()), k16<0x8080>()));
  return _mm256_blendv_epi8(low_head, high_head, hs);
}

/// Writes the UTF-8 forms of the 16 UTF-16 units of w: BMP scalar values, and with `Pairs` also
/// surrogate pairs (high units `hs`, low units `ls`, as 16-bit masks), each pair complete inside w
/// except a high unit last, whose 2 bytes are dropped when `drop_last`. A pair's high unit writes
/// the first two bytes of its 4-byte form and its low unit the last two, so every unit gives 1..3
/// bytes. Returns the new output position; with `spill`, full 16-byte stores may write up to 12
/// bytes past the result. `k`: load_unit_constants().
template <bool Pairs>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* encode16(unsigned char* o, __m256i w, __m256i hs, __m256i ls,
                                                                  bool drop_last, bool spill,
                                                                  const unit_constants& k) noexcept {
  if (Pairs && _mm256_movemask_epi8(_mm256_or_si256(hs, ls)) == -1) {  // pairs only: 2 bytes per unit
    const __m256i bytes = pair_halves(w, hs);
    const unsigned count = drop_last ? 30u : 32u;
    if (spill) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), bytes);
    } else {
      store_exact(o, _mm256_castsi256_si128(bytes), 16);
      store_exact(o + 16, _mm256_extracti128_si256(bytes, 1), count - 16);
    }
    return o + count;
  }
  if (!Pairs && _mm256_testz_si256(w, k.f800)) {
    // Forms of 1 and 2 bytes: 8 words per 128-bit lane. The units are below 800: signed compares.
    const __m256i longer = _mm256_cmpgt_epi16(w, k.x7f);
    const __m256i words = _mm256_blendv_epi8(w, two_byte_forms(w, k), longer);
    // Bits 0-7: 2-byte units 0-7, 16-23: units 8-15; the rows are found by byte offset (16 times
    // the index: no shift of the index).
    const auto m = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_packs_epi16(longer, longer)));
    const unsigned char* rows = &tables.pack_short_utf8[0][0];
    const __m128i first = _mm_shuffle_epi8(
        _mm256_castsi256_si128(words), _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + ((m << 4) & 0xFF0u))));
    const __m128i second =
        _mm_shuffle_epi8(_mm256_extracti128_si256(words, 1),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + ((m >> 12) & 0xFF0u))));
    const unsigned a = 8u + static_cast<unsigned>(_mm_popcnt_u32(m & 0xFFu));
    const unsigned b = 8u + static_cast<unsigned>(_mm_popcnt_u32(m & 0xFF0000u));
    if (spill) return put_bytes(put_bytes(o, first, a, true), second, b, true);
    return put_joined(o, first, a, second, b);
  }
  const __m256i ascii = _mm256_cmpeq_epi16(_mm256_min_epu16(w, k.x7f), w);
  const __m256i short2 = _mm256_cmpeq_epi16(_mm256_min_epu16(w, k.x7ff), w);
  // Three-byte forms as the word (1110 | u >> 12, 10 | (u >> 6) & 3F) and the byte 10 | u & 3F.
  const __m256i three = _mm256_or_si256(
      _mm256_or_si256(_mm256_srli_epi16(w, 12), _mm256_and_si256(_mm256_slli_epi16(w, 2), k.x3f00)), k.x80e0);
  const __m256i tail = _mm256_or_si256(_mm256_and_si256(w, k.x3f), k.x80);
  if (!Pairs && _mm256_testz_si256(short2, short2)) {  // 3-byte forms only: 12 bytes per 4 units
    const __m256i drop4th = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6,
                                             8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const __m256i lo = _mm256_shuffle_epi8(_mm256_unpacklo_epi16(three, tail), drop4th);  // units 0-3 | 8-11
    const __m256i hi = _mm256_shuffle_epi8(_mm256_unpackhi_epi16(three, tail), drop4th);  // units 4-7 | 12-15
    // The first three stores spill into the next 12 bytes, which the next store writes.
    o = put_bytes(o, _mm256_castsi256_si128(lo), 12, true);
    o = put_bytes(o, _mm256_castsi256_si128(hi), 12, true);
    o = put_bytes(o, _mm256_extracti128_si256(lo, 1), 12, true);
    const __m128i last = _mm256_extracti128_si256(hi, 1);
    if (spill) return put_bytes(o, last, 12, true);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), last);
    const auto top = static_cast<std::uint32_t>(_mm_extract_epi32(last, 2));
    std::memcpy(o + 8, &top, 4);
    return o + 12;
  }
  if constexpr (!Pairs) {
    // Forms of 1, 2 and 3 bytes (CJK, Korean and Indic text with its spaces and punctuation): per
    // unit the dword (3-byte lead or ASCII, 2nd byte, 3rd byte); a 2-byte form is the last two bytes
    // of the 3-byte one with 40 added to the first of them (ASCII units take w whole).
    static_cast<void>(hs);
    static_cast<void>(ls);
    static_cast<void>(drop_last);
    const __m256i head = _mm256_blendv_epi8(_mm256_or_si256(three, _mm256_and_si256(short2, k.x4000)), w, ascii);
    const __m256i quads_lo = _mm256_unpacklo_epi16(head, tail);  // units 0-3 | 8-11, a dword each
    const __m256i quads_hi = _mm256_unpackhi_epi16(head, tail);  // units 4-7 | 12-15
    // Byte k of m: (2-byte-or-less bits << 4 | 1-byte bits) of units 4k..4k+3, the pack_bmp_utf8 index.
    const __m256i masks = _mm256_shuffle_epi8(
        _mm256_packs_epi16(ascii, short2), _mm256_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15, 0, 1,
                                                            2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15));
    const auto m = static_cast<unsigned>(_mm256_movemask_epi8(masks));
    const unsigned at0 = (m << 4) & 0xFF0u, at1 = (m >> 4) & 0xFF0u, at2 = (m >> 12) & 0xFF0u, at3 = (m >> 20) & 0xFF0u;
    if (spill) {
      o = pack_bmp_forms(o, _mm256_castsi256_si128(quads_lo), at0, true);
      o = pack_bmp_forms(o, _mm256_castsi256_si128(quads_hi), at1, true);
      o = pack_bmp_forms(o, _mm256_extracti128_si256(quads_lo, 1), at2, true);
      return pack_bmp_forms(o, _mm256_extracti128_si256(quads_hi, 1), at3, true);
    }
    // Exactly: the groups (4 to 12 bytes each) by put_within, up to the end of the last.
    const unsigned char* rows = &tables.pack_bmp_utf8[0][0];
    const unsigned char* const end = o + rows[at0 + 15] + rows[at1 + 15] + rows[at2 + 15] + rows[at3 + 15];
    o = put_within(o, bmp_group(_mm256_castsi256_si128(quads_lo), at0), rows[at0 + 15], end);
    o = put_within(o, bmp_group(_mm256_castsi256_si128(quads_hi), at1), rows[at1 + 15], end);
    o = put_within(o, bmp_group(_mm256_extracti128_si256(quads_lo, 1), at2), rows[at2 + 15], end);
    return put_within(o, bmp_group(_mm256_extracti128_si256(quads_hi, 1), at3), rows[at3 + 15], end);
  }
  __m256i twos = _mm256_andnot_si256(ascii, short2);
  // Blocks of pairs without 2-byte forms skip them (those without pairs returned above).
  const __m256i wide = _mm256_testz_si256(twos, twos) ? three : _mm256_blendv_epi8(three, two_byte_forms(w, k), short2);
  __m256i head = _mm256_blendv_epi8(wide, w, ascii);
  __m256i threes = _mm256_cmpeq_epi16(short2, _mm256_setzero_si256());
  if constexpr (Pairs) {
    head = _mm256_blendv_epi8(head, pair_halves(w, hs), _mm256_or_si256(hs, ls));
    const __m256i halves = _mm256_or_si256(hs, ls);
    twos = _mm256_or_si256(twos, halves);
    threes = _mm256_andnot_si256(halves, threes);
  } else {
    static_cast<void>(hs);
    static_cast<void>(ls);
    static_cast<void>(drop_last);
  }
  const __m256i quads_lo = _mm256_unpacklo_epi16(head, tail);  // units 0-3 | 8-11, a dword each
  const __m256i quads_hi = _mm256_unpackhi_epi16(head, tail);  // units 4-7 | 12-15
  // Bits 0-7: 2-byte units 0-7, 8-15: 3-byte units 0-7, 16-23 and 24-31 the same for units 8-15.
  const auto m = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_packs_epi16(twos, threes)));
  const unsigned i0 = (m & 0x0Fu) | ((m >> 4) & 0xF0u), i1 = ((m >> 4) & 0x0Fu) | ((m >> 8) & 0xF0u);
  const unsigned i2 = ((m >> 16) & 0x0Fu) | ((m >> 20) & 0xF0u), i3 = ((m >> 20) & 0x0Fu) | ((m >> 24) & 0xF0u);
  o = put_bytes(o, pack_utf8_forms(_mm256_castsi256_si128(quads_lo), i0), tables.packed_length[i0], spill);
  o = put_bytes(o, pack_utf8_forms(_mm256_castsi256_si128(quads_hi), i1), tables.packed_length[i1], spill);
  o = put_bytes(o, pack_utf8_forms(_mm256_extracti128_si256(quads_lo, 1), i2), tables.packed_length[i2], spill);
  const unsigned last = tables.packed_length[i3] - (Pairs && drop_last ? 2u : 0u);
  return put_bytes(o, pack_utf8_forms(_mm256_extracti128_si256(quads_hi, 1), i3), last, spill);
}

/// encode16 for BMP scalar values.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* encode16_bmp(unsigned char* o, __m256i w,
                                                                      bool spill) noexcept {
  return encode16<false>(o, w, w, w, false, spill, load_unit_constants());
}

/// encode16_bmp with full-width stores, and 16 bytes at once for ASCII units.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* encode16_ascii_or_bmp(unsigned char* o, __m256i w,
                                                                               const unit_constants& k) noexcept {
  if (_mm256_testz_si256(w, k.ff80)) {
    const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(w, w), 0x08);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), _mm256_castsi256_si128(bytes));
    return o + 16;
  }
  return encode16<false>(o, w, w, w, false, true, k);
}

/// The last units of a conversion to UTF-8, fewer than 16, with the 16 units that end the input
/// in w, none a surrogate: the block converted from the output position of its first unit, `done`
/// of them already converted (their bytes written again, the same), the last stored exactly.
/// Returns the end of the output.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* encode16_again(unsigned char* o, __m256i w,
                                                                        unsigned done) noexcept {
  // Bits 0-15: the units of 1 byte, 16-31: those of 1 or 2 bytes.
  const __m256i one = _mm256_cmpeq_epi16(_mm256_min_epu16(w, k16<0x7F>()), w);
  const __m256i upto2 = _mm256_cmpeq_epi16(_mm256_min_epu16(w, k16<0x7FF>()), w);
  const auto m =
      static_cast<unsigned>(_mm256_movemask_epi8(_mm256_permute4x64_epi64(_mm256_packs_epi16(one, upto2), 0xD8)));
  const unsigned before = (1u << done) - 1u;
  const unsigned again = 3 * done - static_cast<unsigned>(_mm_popcnt_u32(m & before)) -
                         static_cast<unsigned>(_mm_popcnt_u32((m >> 16) & before));
  return encode16_bmp(o - again, w, false);
}

/// True when one of the 16 units of w is a surrogate.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool any_surrogate(__m256i w) noexcept {
  const __m256i s = _mm256_cmpeq_epi16(_mm256_and_si256(w, k16<0xF800>()), k16<0xD800>());
  return !_mm256_testz_si256(s, s);
}

/// The high- and low-surrogate units among the 16 UTF-16 units of w: as 16-bit masks, and as
/// one bit per unit.
struct surrogates {
  __m256i hs, ls;
  unsigned high, low;
};

UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE surrogates find_surrogates(__m256i w) noexcept {
  const __m256i top = _mm256_and_si256(w, k16<0xFC00>());
  const __m256i hs = _mm256_cmpeq_epi16(top, k16<0xD800>());
  const __m256i ls = _mm256_cmpeq_epi16(top, k16<0xDC00>());
  // Bits 0-7: high units 0-7, 8-15: low units 0-7, 16-23 and 24-31 the same for units 8-15.
  const auto m = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_packs_epi16(hs, ls)));
  return {hs, ls, (m & 0xFFu) | ((m >> 8) & 0xFF00u), ((m >> 8) & 0xFFu) | ((m >> 16) & 0xFF00u)};
}

/// True when the 16 UTF-16 units at p are well-formed on their own (every surrogate paired inside
/// them): converted, they give at least 16 bytes whatever the policy.
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool pairs_complete(const char16_t* p) noexcept {
  const __m256i w = load16<Swap>(p);
  if (!any_surrogate(w)) return true;
  const surrogates s = find_surrogates(w);
  return (s.high & 0x8000u) == 0 && s.low == ((s.high << 1) & 0xFFFFu);
}

/// True when none of the 8 UTF-32 units is a surrogate or above U+10FFFF.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool all_scalar_values(__m256i cp) noexcept {
  // Surrogates: (cp ^ 0xD800) < 0x800; too large: cp > 0x10FFFF (unsigned, hence the bias).
  const __m256i bias = k32<0x80000000u>();
  const __m256i surrogate =
      _mm256_cmpgt_epi32(k32<0x80000800u>(), _mm256_xor_si256(_mm256_xor_si256(cp, k32<0xD800u>()), bias));
  const __m256i large = _mm256_cmpgt_epi32(_mm256_xor_si256(cp, bias), k32<0x8010FFFFu>());
  const __m256i bad = _mm256_or_si256(surrogate, large);
  return _mm256_testz_si256(bad, bad);
}

/// Where utf16_bulk stopped: the units read, the output end, and whether the 16 units at `i` are
/// known to hold no surrogate.
struct bulk_position {
  std::size_t i;
  unsigned char* o;
  bool plain;
};

/// The 64-unit steps of utf16_to_utf8_impl, from i while 80 units or more are left and the 64 units
/// at i are ASCII, surrogate pairs only, or free of surrogates (and so are the 16 after them). Out of
/// line, so that the constants and pointers of its loop stay in registers.
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline bulk_position utf16_bulk(const char16_t* p, std::size_t i, std::size_t n,
                                                                     unsigned char* o) noexcept {
  bool plain = false;
  const unit_constants k = load_unit_constants();
  while (n - i >= 80) {
    // Four blocks at once when they and the block after them hold no surrogate: full-width stores
    // throughout (the fifth block gives at least 16 bytes after them).
    const __m256i w0 = load16<Swap>(p + i);
    const __m256i w1 = load16<Swap>(p + i + 16);
    const __m256i w2 = load16<Swap>(p + i + 32);
    const __m256i w3 = load16<Swap>(p + i + 48);
    const __m256i all = _mm256_or_si256(_mm256_or_si256(w0, w1), _mm256_or_si256(w2, w3));
    if (_mm256_testz_si256(all, k.ff80)) {
      const __m256i b01 = _mm256_permute4x64_epi64(_mm256_packus_epi16(w0, w1), 0xD8);
      const __m256i b23 = _mm256_permute4x64_epi64(_mm256_packus_epi16(w2, w3), 0xD8);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), b01);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32), b23);
      i += 64;
      o += 64;
      plain = false;
      continue;
    }
    const __m256i w4 = load16<Swap>(p + i + 64);
    const __m256i bias = k16<0xD800>();
    const __m256i low =
        _mm256_min_epu16(_mm256_min_epu16(_mm256_min_epu16(_mm256_sub_epi16(w0, bias), _mm256_sub_epi16(w1, bias)),
                                          _mm256_min_epu16(_mm256_sub_epi16(w2, bias), _mm256_sub_epi16(w3, bias))),
                         _mm256_sub_epi16(w4, bias));
    // Every unit minus D800 is 800 or more (unsigned): no surrogate.
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_max_epu16(low, k16<0x800>()), low)) == -1) {
      o = encode16_ascii_or_bmp(o, w0, k);
      o = encode16_ascii_or_bmp(o, w1, k);
      o = encode16_ascii_or_bmp(o, w2, k);
      o = encode16_ascii_or_bmp(o, w3, k);
      i += 64;
      plain = true;
      continue;
    }
    // Surrogate pairs only, each in a dword (most emoji): 32 bytes per block, in place.
    const __m256i tops = k32<0xDC00D800u>();
    const __m256i ten = k16<0xFC00>();
    const __m256i pairs = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi16(_mm256_and_si256(w0, ten), tops),
                                                            _mm256_cmpeq_epi16(_mm256_and_si256(w1, ten), tops)),
                                           _mm256_and_si256(_mm256_cmpeq_epi16(_mm256_and_si256(w2, ten), tops),
                                                            _mm256_cmpeq_epi16(_mm256_and_si256(w3, ten), tops)));
    if (_mm256_movemask_epi8(pairs) != -1) break;
    const __m256i hs = k32<0xFFFFu>();
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), pair_halves(w0, hs));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32), pair_halves(w1, hs));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 64), pair_halves(w2, hs));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 96), pair_halves(w3, hs));
    i += 64;
    o += 128;
    plain = false;
  }
  return {i, o, plain};
}

/// UTF-16 to UTF-8: 64 units at a time when they are ASCII, surrogate pairs only, or free of
/// surrogates (and so are the 16 after them); else 16 units at a time (15 when the last is the high
/// half of a pair: the pair waits for the next block); a block holding an unpaired surrogate goes
/// scalar. With Swap, the units are stored in the byte order opposite to the host's: exchanged as loaded.
template <bool Strict, bool Swap = false>
UTF8DFA_TARGET_AVX2 packed_conversion utf16_to_utf8_impl(const char16_t* p, std::size_t n, unsigned char* out,
                                                         char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  bool plain = false;  // the block at c.i is known to hold no surrogate
  std::size_t careful_to = 0;
  while (n - c.i >= 16) {
    if (c.i >= careful_to && n - c.i >= 80) {
      const bulk_position b = utf16_bulk<Swap>(p, c.i, n, c.o);  // (leaves 16 units or more)
      if (b.i != c.i) plain = b.plain;
      c.i = b.i;
      c.o = b.o;
      if (n - c.i >= 80) careful_to = c.i + 64;  // other surrogates: block by block for a while
    }
    const __m256i w = load16<Swap>(p + c.i);
    if (_mm256_testz_si256(w, k16<0xFF80>())) {
      const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(w, w), 0x08);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o), _mm256_castsi256_si128(bytes));
      c.i += 16;
      c.o += 16;
      plain = false;
      continue;
    }
    if (plain || !any_surrogate(w)) {
      // Full-width stores spill at most 12 bytes: safe when the next block converts to at least 16.
      const bool next_plain = n - c.i >= 32 && !any_surrogate(load16<Swap>(p + c.i + 16));
      const bool spill = next_plain || (n - c.i >= 32 && pairs_complete<Swap>(p + c.i + 16));
      // (Each branch inlines the encoder with `spill` constant: no test per store.)
      c.o = spill ? encode16_bmp(c.o, w, true) : encode16_bmp(c.o, w, false);
      c.i += 16;
      plain = next_plain;
      continue;
    }
    plain = false;
    const surrogates s = find_surrogates(w);
    unsigned high = s.high;
    const unsigned low = s.low;
    unsigned take = 16;
    if ((high & 0x8000u) != 0) {  // the pair is cut by the block end
      high &= 0x7FFFu;
      take = 15;
    }
    if (UTF8DFA_UNLIKELY(low != ((high << 1) & 0xFFFFu))) {
      UTF8DFA_LEAVE_AVX();
      if (!scalar_region_in_order<Strict, Swap>(p, n, c.i + take, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    const bool spill = n - c.i >= take + 16u && pairs_complete<Swap>(p + c.i + take);
    c.o = spill ? encode16<true>(c.o, w, s.hs, s.ls, take == 15, true, load_unit_constants())
                : encode16<true>(c.o, w, s.hs, s.ls, take == 15, false, load_unit_constants());
    c.i += take;
  }
  if (c.i != n && n >= 16) {
    // Fewer than 16 units left: when the 16 that end the input are ASCII, one store of their bytes
    // ending at the end of the output (those of the units already converted are written again);
    // when none is a surrogate, encode16_again.
    const __m256i w = load16<Swap>(p + n - 16);
    if (_mm256_testz_si256(w, k16<0xFF80>())) {
      const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(w, w), 0x08);
      c.o += n - c.i;
      _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o - 16), _mm256_castsi256_si128(bytes));
      c.i = n;
    } else if (!any_surrogate(w)) {
      c.o = encode16_again(c.o, w, static_cast<unsigned>(16 - (n - c.i)));
      c.i = n;
    }
  }
  UTF8DFA_LEAVE_AVX();
  return finish_scalar_in_order<Strict, Swap>(p, n, out, c, repl);
}

/// The 8 ASCII values of cp as 8 bytes, the first lowest.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::uint64_t ascii_bytes8(__m256i cp) noexcept {
  const __m256i words = _mm256_packus_epi32(cp, cp);
  const __m256i bytes = _mm256_packus_epi16(words, words);
  return static_cast<std::uint32_t>(_mm256_cvtsi256_si32(bytes)) |
         std::uint64_t{static_cast<std::uint32_t>(_mm256_extract_epi32(bytes, 4))} << 32;
}

/// True when the 16 UTF-32 units at p are all below D800.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool all_below_surrogates(const char32_t* p) noexcept {
  const __m256i top = _mm256_max_epu32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                                       _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 8)));
  return _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_min_epu32(top, k32<0xD7FFu>()), top)) == -1;
}

/// The 64-unit steps of utf32_to_utf8_impl, from i while 80 units or more are left and the 64 units
/// at i are ASCII, BMP scalar values followed by 16 scalar values, or supplementary scalar values
/// only. Out of line, so that the constants and pointers of its loop stay in registers.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline bulk_position utf32_bulk(const char32_t* p, std::size_t i, std::size_t n,
                                                                     unsigned char* o) noexcept {
  const unit_constants k = load_unit_constants();
  while (n - i >= 80) {
    // 64 units at once: ASCII, or BMP scalar values (as UTF-16 does, with full-width stores: the
    // 16 units after them must be scalar values), or supplementary ones only.
    __m256i a[8];
    for (int j = 0; j < 8; ++j) a[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 8 * j));
    const __m256i all = _mm256_or_si256(_mm256_or_si256(_mm256_or_si256(a[0], a[1]), _mm256_or_si256(a[2], a[3])),
                                        _mm256_or_si256(_mm256_or_si256(a[4], a[5]), _mm256_or_si256(a[6], a[7])));
    if (_mm256_testz_si256(all, k32<~0x7Fu>())) {
      // Bytes of units (0-3, 8-11, 16-19, 24-27 | 4-7, 12-15, 20-23, 28-31) per 32 units.
      const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
      for (int h = 0; h < 2; ++h) {
        const __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(a[4 * h], a[4 * h + 1]),
                                                  _mm256_packus_epi32(a[4 * h + 2], a[4 * h + 3]));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32 * h), _mm256_permutevar8x32_epi32(bytes, order));
      }
      i += 64;
      o += 64;
      continue;
    }
    if (_mm256_testz_si256(all, k32<0xFFFF0000u>())) {
      __m256i w[4];
      for (int j = 0; j < 4; ++j) w[j] = _mm256_permute4x64_epi64(_mm256_packus_epi32(a[2 * j], a[2 * j + 1]), 0xD8);
      const __m256i bias = k16<0xD800>();
      const __m256i low =
          _mm256_min_epu16(_mm256_min_epu16(_mm256_sub_epi16(w[0], bias), _mm256_sub_epi16(w[1], bias)),
                           _mm256_min_epu16(_mm256_sub_epi16(w[2], bias), _mm256_sub_epi16(w[3], bias)));
      if (_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_max_epu16(low, k16<0x800>()), low)) == -1 &&
          all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 64))) &&
          all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 72)))) {
        o = encode16_ascii_or_bmp(o, w[0], k);
        o = encode16_ascii_or_bmp(o, w[1], k);
        o = encode16_ascii_or_bmp(o, w[2], k);
        o = encode16_ascii_or_bmp(o, w[3], k);
        i += 64;
        continue;
      }
    } else {
      __m256i lowest = a[0], highest = a[0];
      for (int j = 1; j < 8; ++j) {
        lowest = _mm256_min_epu32(lowest, a[j]);
        highest = _mm256_max_epu32(highest, a[j]);
      }
      const __m256i supplementary =
          _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(lowest, k32<0x10000u>()), lowest),
                           _mm256_cmpeq_epi32(_mm256_min_epu32(highest, k32<0x10FFFFu>()), highest));
      if (_mm256_movemask_epi8(supplementary) == -1) {  // 4-byte forms only, in place
        for (int j = 0; j < 8; ++j) _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32 * j), four_byte_forms(a[j]));
        i += 64;
        o += 256;
        continue;
      }
    }
    break;
  }
  return {i, o, false};
}

/// UTF-32 to UTF-8: 64 units at a time when they are ASCII, supplementary scalar values only, or
/// BMP scalar values (narrowed to UTF-16's encoder) followed by 16 scalar values; else 16 units at
/// a time when they are ASCII or BMP scalar values, else 8; blocks holding a surrogate or a value
/// above U+10FFFF go scalar.
template <bool Strict>
UTF8DFA_TARGET_AVX2 packed_conversion utf32_to_utf8_impl(const char32_t* p, std::size_t n, unsigned char* out,
                                                         char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  bool below = false;        // the 16 units at c.i are known to be below D800
  std::size_t valid_to = 0;  // [c.i, valid_to) is known to hold scalar values only
  std::size_t careful_to = 0;
  while (n - c.i >= 8) {
    if (c.i >= careful_to && n - c.i >= 80) {
      const bulk_position b = utf32_bulk(p, c.i, n, c.o);  // (leaves 16 units or more)
      if (b.i != c.i) below = false;
      c.i = b.i;
      c.o = b.o;
      if (n - c.i >= 80) careful_to = c.i + 64;  // 16 units at a time for a while
    }
    if (n - c.i >= 16) {  // 16 units of the BMP, as UTF-16 does
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 8));
      if (_mm256_testz_si256(_mm256_or_si256(a, b), k32<~0x7Fu>())) {  // ASCII
        const __m256i words = _mm256_packus_epi32(a, b);               // units 0-3 8-11 | 4-7 12-15
        const __m256i bytes = _mm256_packus_epi16(words, words);
        const __m128i ordered = _mm_unpacklo_epi32(_mm256_castsi256_si128(bytes), _mm256_extracti128_si256(bytes, 1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o), ordered);
        c.i += 16;
        c.o += 16;
        below = false;
        continue;
      }
      const __m256i w = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
      if (below || (_mm256_testz_si256(_mm256_or_si256(a, b), k32<0xFFFF0000u>()) && !any_surrogate(w))) {
        // Full-width stores spill at most 12 bytes: safe when the next 16 units are scalar values.
        const bool next_below = n - c.i >= 32 && all_below_surrogates(p + c.i + 16);
        const bool spill =
            next_below ||
            (n - c.i >= 32 && all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 16))) &&
             all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 24))));
        c.o = spill ? encode16_bmp(c.o, w, true) : encode16_bmp(c.o, w, false);
        c.i += 16;
        below = next_below;
        continue;
      }
      // Supplementary characters only (emoji): 64 bytes, in place, nothing written past them.
      const __m256i lowest = _mm256_min_epu32(a, b), highest = _mm256_max_epu32(a, b);
      const __m256i supplementary =
          _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(lowest, k32<0x10000u>()), lowest),
                           _mm256_cmpeq_epi32(_mm256_min_epu32(highest, k32<0x10FFFFu>()), highest));
      if (_mm256_movemask_epi8(supplementary) == -1) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o), four_byte_forms(a));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o + 32), four_byte_forms(b));
        c.i += 16;
        c.o += 64;
        below = false;
        continue;
      }
    }
    below = false;
    const __m256i cp = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    if (_mm256_testz_si256(cp, k32<~0x7Fu>())) {
      const std::uint64_t eight = ascii_bytes8(cp);
      std::memcpy(c.o, &eight, 8);
      c.i += 8;
      c.o += 8;
      continue;
    }
    if (c.i + 8 > valid_to) {
      if (UTF8DFA_UNLIKELY(!all_scalar_values(cp))) {
        UTF8DFA_LEAVE_AVX();
        if (!scalar_region<Strict>(p, n, c.i + 8, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
        continue;
      }
      valid_to = c.i + 8;
    }
    // Full-width stores spill at most 12 bytes: safe when the next 16 units are scalar values.
    while (valid_to < c.i + 24 && n - valid_to >= 8 &&
           all_scalar_values(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + valid_to))))
      valid_to += 8;
    const bool spill = valid_to >= c.i + 24;
    c.o = encode8(c.o, cp, spill);
    c.i += 8;
  }
  if (c.i != n && n >= 8) {
    // Fewer than 8 units left: when the 8 that end the input are ASCII, one store of their bytes
    // ending at the end of the output (those of the units already converted are written again).
    const __m256i cp = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 8));
    if (_mm256_testz_si256(cp, k32<~0x7Fu>())) {
      const std::uint64_t eight = ascii_bytes8(cp);
      c.o += n - c.i;
      std::memcpy(c.o - 8, &eight, 8);
      c.i = n;
    } else if (all_scalar_values(cp)) {
      // Else, when they are all scalar values, encode8 from the output position of the first of
      // them (the bytes of the `done` already converted written again, the same).
      const auto done = static_cast<unsigned>(8 - (n - c.i));
      const unsigned before = (1u << done) - 1u;
      const auto longer =
          static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(cp, k32<0x7Fu>()))));
      const auto three =
          static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(cp, k32<0x7FFu>()))));
      const auto four =
          static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(cp, k32<0xFFFFu>()))));
      const unsigned again = done + static_cast<unsigned>(_mm_popcnt_u32(longer & before)) +
                             static_cast<unsigned>(_mm_popcnt_u32(three & before)) +
                             static_cast<unsigned>(_mm_popcnt_u32(four & before));
      c.o = encode8(c.o - again, cp, false);
      c.i = n;
    }
  }
  UTF8DFA_LEAVE_AVX();
  return finish_scalar<Strict>(p, n, out, c, repl);
}

// The kernel-table entry points (`replacement == strict_marker` means strict).

UTF8DFA_TARGET_AVX2 inline packed_conversion utf8_to_utf32(const unsigned char* p, std::size_t n, char32_t* out,
                                                           char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char32_t, false, false, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline packed_conversion utf8_to_utf16(const unsigned char* p, std::size_t n, char16_t* out,
                                                           char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char16_t, false, false, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline packed_conversion utf16_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                                           char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf16_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf16_to_utf8_impl<false>(p, n, out, replacement);
}

// UTF-16 in the byte order opposite to the host's.

UTF8DFA_TARGET_AVX2 inline packed_conversion utf8_to_utf16_swapped(const unsigned char* p, std::size_t n, char16_t* out,
                                                                   char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true, char16_t, false, true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char16_t, false, true, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false, char16_t, false, true>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline packed_conversion utf16_swapped_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                                                   char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf16_to_utf8_impl<true, true>(p, n, out, replacement)
                                      : utf16_to_utf8_impl<false, true>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX2 inline packed_conversion utf32_to_utf8(const char32_t* p, std::size_t n, unsigned char* out,
                                                           char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf32_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf32_to_utf8_impl<false>(p, n, out, replacement);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
#endif
// ---- end utf8dfa/detail/simd/avx2/transcode.hpp ----
// ---- begin utf8dfa/detail/simd/avx2/units.hpp ----
// utf8dfa: AVX2 kernels for Latin-1 and UTF-16 / UTF-32 input. Same results as the scalar functions
// of units.hpp: a block that holds an error (or, into Latin-1, a character above U+00FF) is run
// through the scalar code up to its end and the vector loop resumes behind it. Tails are scalar;
// full-width stores go past the result only where later output of the same call overwrites them.
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_UNITS_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_UNITS_HPP


#if UTF8DFA_X86_KERNELS

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

// ---- Latin-1 to UTF-8 -----------------------------------------------------------------------

/// Writes the UTF-8 of 8 Latin-1 bytes, widened to words in `words` (two-byte forms where `high`
/// has a bit), with a 16-byte store: up to 8 bytes past the result are overwritten.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* spill_latin1_8(unsigned char* o, __m128i words,
                                                                        unsigned high) noexcept {
  const __m128i packed =
      _mm_shuffle_epi8(words, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_short_utf8[high])));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o), packed);
  return o + 8 + _mm_popcnt_u32(high);
}

/// The UTF-8 forms of the 8 Latin-1 bytes at q as words (a two-byte form where `high` has a bit).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i latin1_words8(const unsigned char* q, unsigned& high) noexcept {
  const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(q));
  high = static_cast<unsigned>(_mm_movemask_epi8(x)) & 0xFFu;
  const __m128i w = _mm_cvtepu8_epi16(x);
  const __m128i two =
      _mm_or_si128(_mm_or_si128(_mm_srli_epi16(w, 6), _mm_slli_epi16(_mm_and_si128(w, _mm_set1_epi16(0x3F)), 8)),
                   _mm_set1_epi16(static_cast<short>(0x80C0)));
  return _mm_blendv_epi8(w, two, _mm_cmpgt_epi16(w, _mm_set1_epi16(0x7F)));
}

UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t latin1_to_utf8(const unsigned char* p, std::size_t n,
                                                                       unsigned char* out) noexcept {
  prepare_tables();
  const __m256i low6 = _mm256_set1_epi16(0x3F);
  const __m256i tags = _mm256_set1_epi16(static_cast<short>(0x80C0));
  const __m256i ascii_max = _mm256_set1_epi16(0x7F);
  unsigned char* o = out;
  std::size_t i = 0;
  // At least 8 bytes follow each block, so at least 8 more output bytes cover the overwrite.
  for (; n - i >= 40; i += 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(x));
    if (high == 0) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), x);
      o += 32;
      continue;
    }
    for (unsigned h = 0; h < 2; ++h) {
      const __m256i w = _mm256_cvtepu8_epi16(h == 0 ? _mm256_castsi256_si128(x) : _mm256_extracti128_si256(x, 1));
      // The two-byte form as a little-endian word: lead C0 | c >> 6, then 80 | (c & 3F).
      const __m256i two = _mm256_or_si256(
          _mm256_or_si256(_mm256_srli_epi16(w, 6), _mm256_slli_epi16(_mm256_and_si256(w, low6), 8)), tags);
      const __m256i words = _mm256_blendv_epi8(w, two, _mm256_cmpgt_epi16(w, ascii_max));
      const unsigned bits = high >> (16 * h);
      o = spill_latin1_8(o, _mm256_castsi256_si128(words), bits & 0xFFu);
      o = spill_latin1_8(o, _mm256_extracti128_si256(words, 1), (bits >> 8) & 0xFFu);
    }
  }
  // The rest: 32 ASCII bytes copied, else 8 bytes at a time, spilling while 8 more follow, the last
  // 8 exactly (short input mixes the two forms more than the byte loop of the scalar code predicts).
  if (n - i >= 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    if (_mm256_movemask_epi8(x) == 0) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), x);
      o += 32;
      i += 32;
    }
  }
  for (; n - i >= 16; i += 8) {
    unsigned high = 0;
    const __m128i words = latin1_words8(p + i, high);  // (sets high first)
    o = spill_latin1_8(o, words, high);
  }
  if (n - i >= 8) {
    unsigned high = 0;
    const __m128i words = latin1_words8(p + i, high);
    const __m128i packed =
        _mm_shuffle_epi8(words, _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_short_utf8[high])));
    const unsigned len = 8 + static_cast<unsigned>(_mm_popcnt_u32(high));
    store_exact(o, packed, len);
    o += len;
    i += 8;
  }
  UTF8DFA_LEAVE_AVX();
  return static_cast<std::size_t>(o - out) + latin1_to_utf8_scalar(p + i, n - i, o);
}

// ---- UTF-8 to Latin-1 -----------------------------------------------------------------------

/// Stores the first `count` (<= 8) dwords of v at o, and nothing else (in pieces, as store_bytes).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void store_dwords(char32_t* o, __m256i v, unsigned count) noexcept {
  if (count == 8) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), v);
    return;
  }
  __m128i part = _mm256_castsi256_si128(v);
  if ((count & 4u) != 0) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), part);
    o += 4;
    part = _mm256_extracti128_si256(v, 1);
  }
  if ((count & 2u) != 0) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), part);
    o += 2;
    part = _mm_srli_si128(part, 8);
  }
  if ((count & 1u) != 0) *o = static_cast<char32_t>(static_cast<std::uint32_t>(_mm_cvtsi128_si32(part)));
}

/// Writes the `count` bytes of the low 8 of v at o, ending no later than `end`.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unsigned char* put_packed8(unsigned char* o, const unsigned char* end,
                                                                     __m128i v, unsigned count) noexcept {
  if (end - o >= 8)
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), v);
  else
    store_bytes(o, v, count);
  return o + count;
}

/// UTF-8 to Latin-1 under Policy: blocks of ASCII and C2/C3 pairs in vectors, the others scalar.
template <class Policy>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE packed_conversion utf8_to_latin1_by(const unsigned char* p, std::size_t n,
                                                                         unsigned char* out,
                                                                         unsigned char repl) noexcept {
  const __m256i fe = _mm256_set1_epi8(static_cast<char>(0xFE));
  const __m256i c2 = _mm256_set1_epi8(static_cast<char>(0xC2));
  const __m256i c0 = _mm256_set1_epi8(static_cast<char>(0xC0));
  const __m256i low6 = _mm256_set1_epi8(0x3F);
  latin1_progress s;
  std::size_t i = 0, w = 0;  // s.read and s.written, in registers
  // The byte after each block is read (the continuation of a pair that ends it).
  while (n - i >= 33) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(x));
    if (high == 0) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + w), x);
      i += 32;
      w += 32;
      continue;
    }
    const __m256i leads = _mm256_cmpeq_epi8(_mm256_and_si256(x, fe), c2);
    auto lead = static_cast<std::uint32_t>(_mm256_movemask_epi8(leads));
    const auto cont = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(c0, x)));  // 80..BF
    std::uint32_t live = 0xFFFFFFFFu;
    std::size_t take = 32;
    if ((lead >> 31) != 0) {  // a pair cut by the block end: the next block takes it
      take = 31;
      lead &= 0x7FFFFFFFu;
      live = 0x7FFFFFFFu;
    }
    if (UTF8DFA_UNLIKELY((high & live & ~lead & ~cont) != 0 || (std::uint64_t{lead} << 1) != (cont & live))) {
      s.read = i;
      s.written = w;
      UTF8DFA_LEAVE_AVX();
      if (!to_latin1_until<Policy>(p, n, i + take, out, s, repl)) return latin1_result(s, n, true);
      i = s.read;
      w = s.written;
      continue;
    }
    // At each lead: (lead & 3) << 6 | (next & 3F); the continuations are dropped.
    const __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 1));
    const __m256i value = _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi16(x, 6), c0), _mm256_and_si256(next, low6));
    const __m256i bytes = _mm256_blendv_epi8(x, value, leads);
    const std::uint32_t keep = live & ~cont;
    unsigned char* o = out + w;
    unsigned char* const end = o + _mm_popcnt_u32(keep);
    for (unsigned h = 0; h < 2; ++h) {
      const unsigned k16 = (keep >> (16 * h)) & 0xFFFFu;
      const __m128i lane = h == 0 ? _mm256_castsi256_si128(bytes) : _mm256_extracti128_si256(bytes, 1);
      const __m128i control =
          _mm_set_epi64x(static_cast<long long>(tables.pack_dwords[k16 >> 8] + 0x0808080808080808ull),
                         static_cast<long long>(tables.pack_dwords[k16 & 0xFFu]));
      const __m128i packed = _mm_shuffle_epi8(lane, control);
      o = put_packed8(o, end, packed, static_cast<unsigned>(_mm_popcnt_u32(k16 & 0xFFu)));
      o = put_packed8(o, end, _mm_unpackhi_epi64(packed, packed), static_cast<unsigned>(_mm_popcnt_u32(k16 >> 8)));
    }
    i += take;
    w = static_cast<std::size_t>(end - out);
  }
  s.read = i;
  s.written = w;
  UTF8DFA_LEAVE_AVX();
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

inline packed_conversion utf8_to_latin1(const unsigned char* p, std::size_t n, unsigned char* out,
                                        char32_t replacement) noexcept {
  prepare_tables();
  if (replacement == strict_marker) return utf8_to_latin1_by<strict>(p, n, out, 0);
  if (replacement == skip_marker) return utf8_to_latin1_by<skip>(p, n, out, 0);
  return utf8_to_latin1_by<replace>(p, n, out, static_cast<unsigned char>(replacement));
}

// ---- UTF-16 -----------------------------------------------------------------------------------

/// A block of 16 UTF-16 units: how many of them a vector loop takes (a high surrogate at its end
/// is left to the next block), whether it has surrogates, and whether they pair up.
struct unit_block {
  std::size_t take;
  bool plain, clean;
  std::uint32_t lows;  // the low surrogates
};

/// The surrogates among the 16 units u, a bit per unit.
struct surrogate_lanes {
  std::uint32_t any, lows, highs;
};

UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE surrogate_lanes find_surrogate_lanes(__m256i u) noexcept {
  const __m256i top = _mm256_and_si256(u, _mm256_set1_epi16(static_cast<short>(0xF800)));
  const __m256i any = _mm256_cmpeq_epi16(top, _mm256_set1_epi16(static_cast<short>(0xD800)));
  const auto any_bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(any));
  if (any_bits == 0) return {0, 0, 0};
  const __m256i low = _mm256_and_si256(any, _mm256_slli_epi16(u, 5));  // bit 10 (DC00..DFFF) to the sign bit
  const std::uint32_t lows = _pext_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(low)), 0xAAAAAAAAu);
  return {any_bits, lows, _pext_u32(any_bits, 0x55555555u) & ~lows};
}

UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE unit_block check_utf16(__m256i u, std::size_t i, std::size_t n) noexcept {
  const surrogate_lanes s = find_surrogate_lanes(u);
  if (s.any == 0) return {16, true, true, 0};
  const std::uint32_t lows = s.lows;
  std::uint32_t highs = s.highs;
  std::size_t take = 16;
  if (n - i > 16 && (highs >> 15) != 0) {
    take = 15;
    highs &= 0x7FFFu;
  }
  return {take, false, (highs << 1) == lows, lows};
}

/// The 16 UTF-16 units at p, with the bytes of each exchanged when Swap.
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i load_units(const char16_t* p) noexcept {
  const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  if constexpr (Swap)
    return _mm256_shuffle_epi8(
        u, _mm256_broadcastsi128_si256(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)));
  else
    return u;
}

/// True when none of the 64 units at p (bytes exchanged when Swap) is a surrogate.
template <bool Swap = false>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool plain64(const char16_t* p, __m256i shift, __m256i top) noexcept {
  const __m256i a = _mm256_add_epi16(load_units<Swap>(p), shift);
  const __m256i b = _mm256_add_epi16(load_units<Swap>(p + 16), shift);
  const __m256i c = _mm256_add_epi16(load_units<Swap>(p + 32), shift);
  const __m256i d = _mm256_add_epi16(load_units<Swap>(p + 48), shift);
  const __m256i m = _mm256_min_epu16(_mm256_min_epu16(a, b), _mm256_min_epu16(c, d));
  return _mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_min_epu16(m, top), m)) == 0;
}

/// The units among the 16 at p (bytes exchanged when Swap) that break the pairing: all ones where
/// a unit is a high surrogate and the unit after it (p[16] is read too) not a low one, or the other
/// way round (paired_block32's test, 16 units a vector, in either byte order without a shuffle).
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i unpaired16(const char16_t* p) noexcept {
  using S = surrogate_bits<Swap>;
  const __m256i mask = _mm256_set1_epi16(static_cast<short>(S::mask));
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1));
  return _mm256_xor_si256(_mm256_cmpeq_epi16(_mm256_and_si256(a, mask), _mm256_set1_epi16(static_cast<short>(S::high))),
                          _mm256_cmpeq_epi16(_mm256_and_si256(b, mask), _mm256_set1_epi16(static_cast<short>(S::low))));
}

/// validate_utf16 (bytes exchanged when Swap): from the start, blocks of 64 units checked pair by
/// pair (p[64] read too), which chain on from one another; then, from the character boundary
/// before the first block that fails, blocks of 16 checked for surrogates; the scalar code finds
/// the error in the first block that has one, and checks the tail.
template <bool Swap>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE packed_validation validate_utf16_by(const char16_t* p,
                                                                              std::size_t n) noexcept {
  using S = surrogate_bits<Swap>;
  std::size_t i = 0;
  if (n >= 65 && (p[0] & S::mask) != S::low) {
    while (n - i >= 65) {
      const __m256i bad = _mm256_or_si256(_mm256_or_si256(unpaired16<Swap>(p + i), unpaired16<Swap>(p + i + 16)),
                                          _mm256_or_si256(unpaired16<Swap>(p + i + 32), unpaired16<Swap>(p + i + 48)));
      if (!_mm256_testz_si256(bad, bad)) break;
      i += 64;
    }
    i = pair_boundary<Swap>(p, 0, i);
  }
  const __m256i shift = _mm256_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m256i top = _mm256_set1_epi16(0x07FF);
  while (n - i >= 16) {
    if (n - i >= 64 && plain64<Swap>(p + i, shift, top)) {
      i += 64;
      continue;
    }
    const unit_block b = check_utf16(load_units<Swap>(p + i), i, n);
    if (UTF8DFA_UNLIKELY(!b.clean)) break;  // the scalar code finds the error
    i += b.take;
  }
  UTF8DFA_LEAVE_AVX();
  const packed_validation r = Swap ? validate_utf16_swapped_scalar(p + i, n - i) : validate_utf(p + i, n - i);
  return {i + r.valid_up_to, r.error_length, r.error};
}

UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline packed_validation validate_utf16(const char16_t* p,
                                                                             std::size_t n) noexcept {
  return validate_utf16_by<false>(p, n);
}

/// to_well_formed_utf16: blocks of 16 units checked pair by pair (p[16] read too) copied as they
/// are (in place, left as they are: no store, which the next read of these units, a load one unit
/// off the stores, would wait for); a block that fails repaired by the scalar code from the
/// character boundary before it, and a low surrogate where a character starts after it replaced
/// (the check does not see it); the last 16 units copied in one store when they are well-formed
/// (in place, left as they are), else repaired.
template <bool Copy>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t to_well_formed_utf16_by(const char16_t* p, std::size_t n,
                                                                              char16_t* out) noexcept {
  using S = surrogate_bits<false>;
  std::size_t i = 0;
  while (n - i >= 17) {
    if (UTF8DFA_UNLIKELY((p[i] & S::mask) == S::low)) {  // a character cannot start with it
      out[i++] = static_cast<char16_t>(replacement_character);
      continue;
    }
    const std::size_t start = i;
    for (; n - i >= 33; i += 32) {  // two blocks a test while they pass, then one
      const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 16));
      const __m256i bad = _mm256_or_si256(unpaired16<false>(p + i), unpaired16<false>(p + i + 16));
      if (!_mm256_testz_si256(bad, bad)) break;
      if constexpr (Copy) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), u);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 16), v);
      }
    }
    for (; n - i >= 17; i += 16) {
      const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
      const __m256i bad = unpaired16<false>(p + i);
      if (!_mm256_testz_si256(bad, bad)) break;
      if constexpr (Copy) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), u);
    }
    i = pair_boundary(p, start, i);
    if (n - i < 17) break;
    UTF8DFA_LEAVE_AVX();
    i = to_well_formed_until(p, n, i, i + 16, out);
  }
  if (i < n && n >= 16) {
    // The last 16 units, when they are well-formed (a low surrogate first counts as lone): their
    // copy, the units before i among them written again as they were (in place, nothing written).
    const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 16));
    if (check_utf16(u, n - 16, n).clean) {
      if constexpr (Copy) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n - 16), u);
      return n;
    }
  }
  UTF8DFA_LEAVE_AVX();
  to_well_formed_until(p, n, i, n, out);
  return n;
}

UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t to_well_formed_utf16(const char16_t* p, std::size_t n,
                                                                             char16_t* out) noexcept {
  return out == p ? to_well_formed_utf16_by<false>(p, n, out) : to_well_formed_utf16_by<true>(p, n, out);
}

/// The 16 units u moved down one unit (unit k holds unit k + 1; the last is zero).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i units_after(__m256i u) noexcept {
  return _mm256_alignr_epi8(_mm256_permute2x128_si256(u, u, 0x81), u, 2);
}

/// Writes the code points of the units of u that `keep` selects, none a low surrogate: of each
/// high surrogate, that of the pair it starts with the unit after it (in `next`, see units_after).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE char32_t* pairs_to_utf32(char32_t* o, __m256i u, __m256i next,
                                                                   std::uint32_t keep) noexcept {
  // (hi << 10) + lo + this: the code point of the pair (hi, lo) (modulo 2^32).
  const __m256i pair_offset = _mm256_set1_epi32(static_cast<int>(0x10000u - (0xD800u << 10) - 0xDC00u));
  for (unsigned h = 0; h < 2; ++h) {
    const __m256i a = _mm256_cvtepu16_epi32(h == 0 ? _mm256_castsi256_si128(u) : _mm256_extracti128_si256(u, 1));
    const __m256i d = _mm256_cvtepu16_epi32(h == 0 ? _mm256_castsi256_si128(next) : _mm256_extracti128_si256(next, 1));
    const __m256i high = _mm256_cmpeq_epi32(_mm256_and_si256(a, _mm256_set1_epi32(0xFC00)), _mm256_set1_epi32(0xD800));
    const __m256i pair = _mm256_add_epi32(_mm256_add_epi32(_mm256_slli_epi32(a, 10), d), pair_offset);
    const __m256i cp = _mm256_blendv_epi8(a, pair, high);
    const unsigned sel = (keep >> (8 * h)) & 0xFFu;
    const __m256i order = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(tables.pack_dwords[sel])));
    const auto count = static_cast<unsigned>(_mm_popcnt_u32(sel));
    store_dwords(o, _mm256_permutevar8x32_epi32(cp, order), count);
    o += count;
  }
  return o;
}

/// UTF-16 to UTF-32: blocks of 16 units without surrogates in vectors, the others scalar.
template <bool Strict>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE packed_conversion utf16_to_utf32_by(const char16_t* p, std::size_t n,
                                                                         char32_t* out, char32_t repl) noexcept {
  transcode_cursor<char32_t> c{0, out, error_code::none};
  if (n < 16) {  // (utf16_to_utf32_short has taken those without a surrogate from 8 units)
    UTF8DFA_LEAVE_AVX();
    if (!scalar_region<Strict>(p, n, n, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
    return {n, static_cast<std::size_t>(c.o - out), c.first};
  }
  const __m256i shift = _mm256_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m256i top = _mm256_set1_epi16(0x07FF);
  bool wide = true;  // the last block of 16 had no surrogate: 32 at a time are worth a try
  while (n - c.i >= 16) {
    // 32 units at a time while they hold no surrogate.
    for (; wide && n - c.i >= 32; c.i += 32, c.o += 32) {
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
      const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 16));
      const __m256i m = _mm256_min_epu16(_mm256_add_epi16(a, shift), _mm256_add_epi16(d, shift));
      if (_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_min_epu16(m, top), m)) != 0) break;
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(a)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o + 8), _mm256_cvtepu16_epi32(_mm256_extracti128_si256(a, 1)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o + 16), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(d)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o + 24), _mm256_cvtepu16_epi32(_mm256_extracti128_si256(d, 1)));
    }
    if (n - c.i < 16) break;
    const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    const unit_block b = check_utf16(u, c.i, n);
    wide = b.plain;
    if (UTF8DFA_LIKELY(b.plain)) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(u)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o + 8), _mm256_cvtepu16_epi32(_mm256_extracti128_si256(u, 1)));
      c.o += 16;
      c.i += 16;
    } else if (b.clean) {
      // (The last block: the unit after the last one is not read, nor used, as it is no high surrogate.)
      const __m256i next =
          n - c.i >= 17 ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i + 1)) : units_after(u);
      c.o = pairs_to_utf32(c.o, u, next, ~b.lows & (b.take == 16 ? 0xFFFFu : 0x7FFFu));
      c.i += b.take;
    } else {
      UTF8DFA_LEAVE_AVX();
      if (!scalar_region<Strict>(p, n, c.i + b.take, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
    }
  }
  if (c.i < n) {  // (n >= 16)
    // The last 16 units, when none is a surrogate: the units before c.i among them wrote one value
    // each, the last before c.o, which are written again.
    const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 16));
    const surrogate_lanes sur = find_surrogate_lanes(u);
    if (sur.any == 0) {
      char32_t* const o = c.o - (16 - (n - c.i));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(u)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 8), _mm256_cvtepu16_epi32(_mm256_extracti128_si256(u, 1)));
      return {n, static_cast<std::size_t>(o + 16 - out), c.first};
    }
    // Else the units from c.i on (a character boundary: unit `from` of the 16), when their pairs
    // are complete.
    const auto from = static_cast<unsigned>(16 - (n - c.i));
    if ((sur.highs >> from) << 1 == (sur.lows >> from)) {
      c.o = pairs_to_utf32(c.o, u, units_after(u), ~sur.lows & (0xFFFFu << from) & 0xFFFFu);
      return {n, static_cast<std::size_t>(c.o - out), c.first};
    }
  }
  UTF8DFA_LEAVE_AVX();
  if (!scalar_region<Strict>(p, n, n, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  return {n, static_cast<std::size_t>(c.o - out), c.first};
}

/// UTF-16 to UTF-32 of 8 to 64 units without a surrogate (false, and nothing written, otherwise):
/// two groups of 8 below 16 units, else four of 16 that cover them, overlapping. Out of line and
/// small: no registers to save or stack to align, as utf16_to_utf32_by has.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline bool utf16_to_utf32_short(const char16_t* p, std::size_t n,
                                                                      char32_t* out) noexcept {
  if (n < 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 8));
    const __m128i top = _mm_set1_epi16(static_cast<short>(0xF800));
    const __m128i sur = _mm_set1_epi16(static_cast<short>(0xD800));
    const __m128i any =
        _mm_or_si128(_mm_cmpeq_epi16(_mm_and_si128(a, top), sur), _mm_cmpeq_epi16(_mm_and_si128(b, top), sur));
    if (!_mm_testz_si128(any, any)) return false;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_cvtepu16_epi32(a));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n - 8), _mm256_cvtepu16_epi32(b));
    return true;
  }
  const std::size_t last = n - 16, second = last < 16 ? last : 16, third = last < 32 ? last : 32;
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + second));
  const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + third));
  const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + last));
  // D800..DFFF to 0000..07FF: the least of the four below 0800 where one is a surrogate.
  const __m256i shift = _mm256_set1_epi16(0x2800), top = _mm256_set1_epi16(0x07FF);
  const __m256i m = _mm256_min_epu16(_mm256_min_epu16(_mm256_add_epi16(a, shift), _mm256_add_epi16(b, shift)),
                                     _mm256_min_epu16(_mm256_add_epi16(c, shift), _mm256_add_epi16(d, shift)));
  if (_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_min_epu16(m, top), m)) != 0) return false;
  const std::size_t at[4] = {0, second, third, last};
  const __m256i v[4] = {a, b, c, d};
  for (unsigned k = 0; k < 4; ++k) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + at[k]), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v[k])));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + at[k] + 8),
                        _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v[k], 1)));
  }
  return true;
}

inline packed_conversion utf16_to_utf32(const char16_t* p, std::size_t n, char32_t* out, char32_t repl) noexcept {
  if (n - 8 <= 64 - 8 && utf16_to_utf32_short(p, n, out)) return {n, n, error_code::none};
  prepare_tables();
  return repl == strict_marker ? utf16_to_utf32_by<true>(p, n, out, repl) : utf16_to_utf32_by<false>(p, n, out, repl);
}

/// UTF-32 to UTF-16: blocks of 16 or 8 values without an error in vectors (BMP ones packed, supplementary
/// ones split by a shuffle per lane), blocks with an error scalar.
template <bool Strict>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE packed_conversion utf32_to_utf16_by(const char32_t* p, std::size_t n,
                                                                         char16_t* out, char32_t repl) noexcept {
  const __m256i d800 = _mm256_set1_epi32(0xD800);
  const __m256i top = _mm256_set1_epi32(0x07FF);
  const __m256i f800 = _mm256_set1_epi16(static_cast<short>(0xF800));
  const __m256i d800w = _mm256_set1_epi16(static_cast<short>(0xD800));
  const __m256i plane16 = _mm256_set1_epi32(0x10), ffff = _mm256_set1_epi32(0xFFFF);
  const __m256i high_base = _mm256_set1_epi32(0xD7C0);
  const __m256i low10 = _mm256_set1_epi32(0x3FF), low_tag = _mm256_set1_epi32(0xDC00);
  transcode_cursor<char16_t> c{0, out, error_code::none};
  bool bmp = true;          // the last block was in the BMP: 16 values at a time are worth a try
  bool one_to_one = false;  // the 8 values before c.i were converted here, to a unit each
  while (n - c.i >= 8) {
    if (bmp && n - c.i >= 16) {
      // 16 values at a time while they are BMP values other than surrogates: packed to words (a value
      // above FFFF saturates, and is seen by its high half), the two vectors' lanes then put in order.
      std::size_t i = c.i;
      char16_t* o = c.o;
      do {
        const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
        const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 8));
        const __m256i w = _mm256_packus_epi32(v0, v1);
        const __m256i bad = _mm256_or_si256(_mm256_srli_epi32(_mm256_or_si256(v0, v1), 16),
                                            _mm256_cmpeq_epi16(_mm256_and_si256(w, f800), d800w));
        if (!_mm256_testz_si256(bad, bad)) break;
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm256_permute4x64_epi64(w, 0xD8));
        o += 16;
        i += 16;
      } while (n - i >= 16);
      if (i != c.i) one_to_one = true;
      c.i = i;
      c.o = o;
      if (n - c.i < 8) break;
    }
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + c.i));
    // An error: a surrogate (v - D800 below 800) or a value above 10FFFF (its high half above 10).
    const __m256i t = _mm256_sub_epi32(v, d800);
    const __m256i bad = _mm256_or_si256(_mm256_cmpeq_epi32(_mm256_min_epu32(t, top), t),
                                        _mm256_cmpgt_epi32(_mm256_srli_epi32(v, 16), plane16));
    if (UTF8DFA_UNLIKELY(!_mm256_testz_si256(bad, bad))) {
      UTF8DFA_LEAVE_AVX();
      one_to_one = false;
      if (!scalar_region<Strict>(p, n, c.i + 8, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    const __m256i supp = _mm256_cmpgt_epi32(v, ffff);
    bmp = _mm256_testz_si256(supp, supp) != 0;
    one_to_one = bmp;
    if (bmp) {
      // Lanes 0..3 and 4..7 packed to words (the values are at most FFFF), then put in order.
      const __m256i words = _mm256_packus_epi32(v, v);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o), _mm256_castsi256_si128(_mm256_permute4x64_epi64(words, 0x08)));
      c.o += 8;
      c.i += 8;
    } else {
      // Supplementary values: each value becomes a dword, the pair (high surrogate, low surrogate) or
      // the value and a word to drop; a shuffle per lane packs the words. The first lane's 8 units
      // are all the block's (each lane gives at least 4); the second lane's are stored exactly.
      const __m256i pair = _mm256_or_si256(_mm256_add_epi32(_mm256_srli_epi32(v, 10), high_base),
                                           _mm256_slli_epi32(_mm256_or_si256(_mm256_and_si256(v, low10), low_tag), 16));
      const __m256i d = _mm256_blendv_epi8(v, pair, supp);
      // Word 2j of each dword is kept, word 2j + 1 where value j is supplementary.
      const unsigned words =
          _pdep_u32(static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(supp))), 0xAAAAu) | 0x5555u;
      const __m128i lo =
          _mm_shuffle_epi8(_mm256_castsi256_si128(d),
                           _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[words & 0xFFu])));
      const __m128i hi =
          _mm_shuffle_epi8(_mm256_extracti128_si256(d, 1),
                           _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.pack_words[words >> 8])));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o), lo);
      c.o += _mm_popcnt_u32(words & 0xFFu);
      const auto count = static_cast<unsigned>(_mm_popcnt_u32(words >> 8));
      if (count == 8) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o), hi);
      } else {
        _mm_maskstore_epi32(reinterpret_cast<int*>(c.o),
                            _mm_cmpgt_epi32(_mm_set1_epi32(static_cast<int>(count / 2)), _mm_setr_epi32(0, 1, 2, 3)),
                            hi);
        if ((count & 1u) != 0) {
          alignas(16) char16_t units[8];
          _mm_store_si128(reinterpret_cast<__m128i*>(units), hi);
          c.o[count - 1] = units[count - 1];
        }
      }
      c.o += count;
      c.i += 8;
    }
  }
  if (one_to_one && c.i != n) {
    // The last 1..7 values: the 8 values ending at n, when they are BMP values other than surrogates,
    // stored over the units of the ones before them (the same units again).
    const std::size_t back = 8 - (n - c.i);
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 8));
    const __m256i words = _mm256_packus_epi32(v, v);
    const __m256i bad =
        _mm256_or_si256(_mm256_srli_epi32(v, 16), _mm256_cmpeq_epi16(_mm256_and_si256(words, f800), d800w));
    if (_mm256_testz_si256(bad, bad)) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(c.o - back),
                       _mm256_castsi256_si128(_mm256_permute4x64_epi64(words, 0x08)));
      UTF8DFA_LEAVE_AVX();
      return {n, static_cast<std::size_t>(c.o - back + 8 - out), c.first};
    }
  }
  UTF8DFA_LEAVE_AVX();
  if (!scalar_region<Strict>(p, n, n, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  return {n, static_cast<std::size_t>(c.o - out), c.first};
}

inline packed_conversion utf32_to_utf16(const char32_t* p, std::size_t n, char16_t* out, char32_t repl) noexcept {
  prepare_tables();
  return repl == strict_marker ? utf32_to_utf16_by<true>(p, n, out, repl) : utf32_to_utf16_by<false>(p, n, out, repl);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/avx2/units.hpp ----
// ---- begin utf8dfa/detail/simd/avx2/units_bulk.hpp ----
// utf8dfa: AVX2 kernels for count_utf16, validate_utf32, UTF-16 / UTF-32 to Latin-1, Latin-1 to
// UTF-16 / UTF-32 and its UTF-8 length, and byte-order changes. Same results as the scalar functions
// of units.hpp and units_kernels.hpp: a block that holds an error (or, into Latin-1, a character
// above U+00FF) is run through the scalar code and the vector loop resumes behind it. Most tails are
// scalar (Latin-1 widening and the byte-order change end with a vector over units already written);
// nothing is read past the input nor written past the output.
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_UNITS_BULK_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_UNITS_BULK_HPP


#if UTF8DFA_X86_KERNELS

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

/// Inputs of at least this many units start their vector loops at a 64-byte boundary.
inline constexpr std::size_t align_from = 2048;

/// Units of scalar work before the vector loop: to the next 64-byte boundary of `p` (so that the
/// loop's loads or stores do not straddle cache lines), none under align_from units, where that costs
/// more than it saves (the loops use unaligned loads and stores, which cost nothing more when
/// aligned).
template <class Unit>
std::size_t scalar_head(const Unit* p, std::size_t n) noexcept {
  const std::size_t head = units_to_line(p);
  return n < align_from || head > n ? 0 : head;
}

/// The pairs that start among the 16 UTF-16 units `u` (`next`: the units after each), as -1 in
/// their lanes: a high surrogate before a low one ((next & FC00) | (u >> 10) is DC00 | D800 >> 10).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i pair_starts(__m256i u, __m256i next) noexcept {
  const __m256i key =
      _mm256_or_si256(_mm256_and_si256(next, _mm256_set1_epi16(static_cast<short>(0xFC00))), _mm256_srli_epi16(u, 10));
  return _mm256_cmpeq_epi16(key, _mm256_set1_epi16(static_cast<short>(0xDC00 | (0xD800 >> 10))));
}

/// pair_starts of the 16 UTF-16 units at p (p[16] read too).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i pair_starts16(const char16_t* p) noexcept {
  return pair_starts(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                     _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1)));
}

/// The pairs that start among the 8 UTF-16 units at p (the unit after them read), 2 bits a unit.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::uint32_t pair_starts8(const char16_t* p) noexcept {
  const __m128i u = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
  const __m128i key =
      _mm_or_si128(_mm_and_si128(next, _mm_set1_epi16(static_cast<short>(0xFC00))), _mm_srli_epi16(u, 10));
  return static_cast<std::uint32_t>(
      _mm_movemask_epi8(_mm_cmpeq_epi16(key, _mm_set1_epi16(static_cast<short>(0xDC00 | (0xD800 >> 10))))));
}

/// count_utf16 of 9 to 16 units: the pairs that start among the first 8 units, and among the 8
/// before the last one past those.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t count_utf16_short(const char16_t* p, std::size_t n) noexcept {
  const std::uint32_t first = pair_starts8(p), last = pair_starts8(p + n - 9) >> (2 * (17 - n));
  return n - static_cast<std::size_t>(_mm_popcnt_u32(first) + _mm_popcnt_u32(last)) / 2;
}

/// The pairs that start among the 16 UTF-16 units at p (p[16] read too), 2 bits a unit.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::uint32_t pair_bits16(const char16_t* p) noexcept {
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(pair_starts16(p)));
}

/// Units below which count_utf16 takes the short count.
inline constexpr std::size_t count16_short_below = 1024;

/// count_utf16 of 9 to count16_short_below units, out of line (the long loop's registers stay out
/// of it): 64 units with the unit after them at a time, none counted when none is a surrogate, else
/// in blocks of 16; then the same for the last 64 (those before counted), or blocks of 16 and the
/// last 16 before the last unit, from where those ended.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t count_utf16_upto(const char16_t* p, std::size_t n) noexcept {
  if (n <= 16) return count_utf16_short(p, n);
  const __m256i shift = _mm256_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m256i top = _mm256_set1_epi16(0x07FF);
  std::size_t pairs = 0, k = 0;
  for (; n - k >= 65; k += 64)
    if (!plain64(p + k, shift, top))
      for (std::size_t j = k; j < k + 64; j += 16)
        pairs += static_cast<std::size_t>(_mm_popcnt_u32(pair_bits16(p + j)));
  if (n >= 64 && plain64(p + n - 64, shift, top)) return n - pairs / 2;
  for (; n - k >= 17; k += 16) pairs += static_cast<std::size_t>(_mm_popcnt_u32(pair_bits16(p + k)));
  if (n - k >= 2)  // [k, n - 1) left: lanes k - (n - 17) on of the block at n - 17
    pairs += static_cast<std::size_t>(_mm_popcnt_u32(pair_bits16(p + n - 17) >> (2 * (k - (n - 17)))));
  return n - pairs / 2;
}

/// count_utf16: the units less the pairs (a high surrogate right before a low one). From a 64-byte
/// boundary: 64 units without a surrogate at a time, tried again after each block of 16 without a
/// pair, the others 16 at a time against the units after them, counted in 16-bit lanes; the head
/// and the tail scalar.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t count_utf16(const char16_t* p, std::size_t n) noexcept {
  const __m256i shift = _mm256_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m256i top = _mm256_set1_epi16(0x07FF);
  if (n - 9 < count16_short_below - 9) return count_utf16_upto(p, n);
  if (n <= 8) {
    UTF8DFA_LEAVE_AVX();
    return n - pair_starts_scalar(p, n, 0, n);
  }
  std::size_t i = scalar_head(p, n);
  UTF8DFA_LEAVE_AVX();
  std::size_t pairs = pair_starts_scalar(p, n, 0, i);
  bool try_plain = true;
  while (n - i > 16) {  // the unit after the block is there
    if (try_plain && n - i >= 64) {
      if (plain64(p + i, shift, top)) {
        i += 64;
        continue;
      }
      try_plain = false;
    }
    // Up to 1024 blocks counted in 16-bit lanes (-1 a pair), summed when pairs are found.
    __m256i counts = _mm256_setzero_si256();
    const std::size_t end = n - i - 1 < 16 * 1024 ? i + (n - i - 1) / 16 * 16 : i + 16 * 1024;
    bool back = false;  // a block without a pair: back to the test for plain blocks
    // (four blocks a step while they fit, one test for them)
    for (; end - i >= 64; i += 64) {
      const __m256i s0 = pair_starts16(p + i), s1 = pair_starts16(p + i + 16);
      const __m256i s2 = pair_starts16(p + i + 32), s3 = pair_starts16(p + i + 48);
      counts = _mm256_sub_epi16(_mm256_sub_epi16(counts, _mm256_add_epi16(s0, s1)), _mm256_add_epi16(s2, s3));
      if (_mm256_testz_si256(s0, s0) | _mm256_testz_si256(s1, s1) | _mm256_testz_si256(s2, s2) |
          _mm256_testz_si256(s3, s3)) {
        i += 64;
        back = true;
        break;
      }
    }
    for (; !back && i < end; i += 16) {
      const __m256i starts = pair_starts16(p + i);
      counts = _mm256_sub_epi16(counts, starts);
      if (_mm256_testz_si256(starts, starts)) {
        i += 16;
        back = true;
        break;
      }
    }
    if (back) try_plain = true;
    const __m256i sums = _mm256_madd_epi16(counts, _mm256_set1_epi16(1));
    const __m128i half = _mm_add_epi32(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    const __m128i quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
    pairs += static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_add_epi32(quarter, _mm_srli_si128(quarter, 4))));
  }
  if (i < n && n > 16) {
    // The pairs that start in [i, n - 1): those that end among the last 16 units past i + 1.
    const std::size_t rest = n - i;  // 1..16
    const __m256i ends = pair_starts(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 17)),
                                     _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - 16)));
    const std::uint64_t bits = static_cast<std::uint32_t>(_mm256_movemask_epi8(ends));  // 2 a lane
    return n - pairs - static_cast<std::size_t>(_mm_popcnt_u64(bits >> (2 * (17 - rest)))) / 2;
  }
  UTF8DFA_LEAVE_AVX();
  return n - pairs - pair_starts_scalar(p, n, i, n);
}

/// Takes the 8 values at q into `top`, the largest of (value ^ D800) - 800: that maps D800..DFFF
/// to FFFFF800..FFFFFFFF and values above 10FFFF above 10F7FF, the scalar values to 0..10F7FF, so
/// the values taken are all scalar values exactly when top <= 10F7FF (three operations a vector,
/// one accumulator).
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void take_utf32(__m256i& top, const char32_t* q) noexcept {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
  top =
      _mm256_max_epu32(top, _mm256_sub_epi32(_mm256_xor_si256(v, _mm256_set1_epi32(0xD800)), _mm256_set1_epi32(0x800)));
}

/// A quicker filter for long input: takes the 16-bit halves of the 8 values at q, 2000 added to the
/// low ones (D800..DFFF, and only they, become F800..FFFF), into `top`, the largest of each (two
/// operations a vector). Exact for values above 10FFFF; a surrogate is flagged with every value
/// whose low half is one (U+1D800, ...), which take_utf32 clears.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void take_halves(__m256i& top, const char32_t* q) noexcept {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
  top = _mm256_max_epu16(top, _mm256_add_epi16(v, _mm256_set1_epi32(0x2000)));
}

/// True when the values take_utf32 took into `top` are all scalar values.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool utf32_top_ok(__m256i top) noexcept {
  const __m256i limit = _mm256_set1_epi32(0x10F7FF);
  return _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(top, limit), limit)) == -1;
}

/// validate_utf32: from a 64-byte boundary, blocks of up to 1024 values checked once each through
/// take_utf32; the scalar code finds the error in a block that has one, and checks the head and the
/// tail.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline packed_validation validate_utf32(const char32_t* p,
                                                                             std::size_t n) noexcept {
  if (n - 8 <= 64 - 8) {
    // 8 to 64 values: the first and the last 8, and those between in groups of 8 (the last ones
    // overlapping), as many as it takes (2, 4 or 8 groups), into two accumulators.
    const std::size_t last = n - 8;
    __m256i top = _mm256_setzero_si256(), more = top;
    take_utf32(top, p);
    take_utf32(more, p + last);
    if (n > 16) {
      take_utf32(top, p + 8);
      take_utf32(more, p + (last < 16 ? last : 16));
      if (n > 32)
        for (std::size_t k = 24; k < 56; k += 16) {
          take_utf32(top, p + (last < k ? last : k));
          take_utf32(more, p + (last < k + 8 ? last : k + 8));
        }
    }
    if (utf32_top_ok(_mm256_max_epu32(top, more))) return {n, 0, error_code::none};
    UTF8DFA_LEAVE_AVX();
    return validate_utf(p, n);
  }
  std::size_t i = scalar_head(p, n);
  UTF8DFA_LEAVE_AVX();
  packed_validation r = validate_utf(p, i);
  if (!r) return r;
  // Each 32-bit lane's high half at most 10, its low half (plus 2000) at most F7FF.
  const __m256i limit = _mm256_set1_epi32(0x0010F7FF);
  while (n - i >= 32) {
    __m256i top0 = _mm256_setzero_si256(), top1 = top0, top2 = top0, top3 = top0;
    const std::size_t step = n - i < 1024 ? (n - i) / 32 * 32 : 1024;
    for (const char32_t* q = p + i; q < p + i + step; q += 32) {
      take_halves(top0, q);
      take_halves(top1, q + 8);
      take_halves(top2, q + 16);
      take_halves(top3, q + 24);
    }
    const __m256i top = _mm256_max_epu16(_mm256_max_epu16(top0, top1), _mm256_max_epu16(top2, top3));
    if (UTF8DFA_UNLIKELY(_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_max_epu16(top, limit), limit)) != -1)) {
      // Flagged: checked exactly (a value such as U+1D800 passes).
      top0 = top1 = top2 = top3 = _mm256_setzero_si256();
      for (const char32_t* q = p + i; q < p + i + step; q += 32) {
        take_utf32(top0, q);
        take_utf32(top1, q + 8);
        take_utf32(top2, q + 16);
        take_utf32(top3, q + 24);
      }
      if (!utf32_top_ok(_mm256_max_epu32(_mm256_max_epu32(top0, top1), _mm256_max_epu32(top2, top3)))) break;
    }
    i += step;
  }
  if (n - i < 32 && n >= 8 && i < n) {
    // The rest in four groups of 8, overlapping, that end at n (read again by the scalar code when
    // one holds an error).
    const std::size_t last = n - 8;
    const char32_t* q = p + i;
    __m256i top = _mm256_setzero_si256();
    take_utf32(top, p + last);
    take_utf32(top, n - i > 8 ? q : p + last);
    take_utf32(top, n - i > 16 ? q + 8 : p + last);
    take_utf32(top, n - i > 24 ? q + 16 : p + last);
    if (utf32_top_ok(top)) return {n, 0, error_code::none};
  }
  UTF8DFA_LEAVE_AVX();
  r = validate_utf(p + i, n - i);
  return {i + r.valid_up_to, r.error_length, r.error};
}

/// The 32 bytes at q (aligned to 32 bytes if Aligned).
template <bool Aligned>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i load256(const __m256i* q) noexcept {
  return Aligned ? _mm256_load_si256(q) : _mm256_loadu_si256(q);
}

/// Writes the 32 values at p (64-byte aligned if Aligned) as bytes at o when they are all at most FF; false
/// (nothing written) when one is not.
template <bool Aligned, class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool narrow32(const In* p, unsigned char* o) noexcept {
  const auto* v = reinterpret_cast<const __m256i*>(p);
  __m256i bytes;
  if constexpr (sizeof(In) == 2) {
    const __m256i a = load256<Aligned>(v), b = load256<Aligned>(v + 1);
    if (!_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16(static_cast<short>(0xFF00)))) return false;
    // packus interleaves the 128-bit lanes: a0 b0 a1 b1, put back in order.
    bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
  } else {
    const __m256i a = load256<Aligned>(v), b = load256<Aligned>(v + 1);
    const __m256i c = load256<Aligned>(v + 2), d = load256<Aligned>(v + 3);
    if (!_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)),
                            _mm256_set1_epi32(static_cast<int>(0xFFFFFF00u))))
      return false;
    // Dwords of 4 bytes: a0 b0 c0 d0 | a1 b1 c1 d1 (by 128-bit lane), put back in order.
    const __m256i mixed = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
    bytes = _mm256_permutevar8x32_epi32(mixed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), bytes);
  return true;
}

/// 32 values at p narrowed to bytes, with their bits or'ed into `over` (in 16- or 32-bit lanes).
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i narrow_any32(const In* p, __m256i& over) noexcept {
  const auto* v = reinterpret_cast<const __m256i*>(p);
  if constexpr (sizeof(In) == 2) {
    const __m256i a = _mm256_loadu_si256(v), b = _mm256_loadu_si256(v + 1);
    over = _mm256_or_si256(over, _mm256_or_si256(a, b));
    return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
  } else {
    const __m256i a = _mm256_loadu_si256(v), b = _mm256_loadu_si256(v + 1);
    const __m256i c = _mm256_loadu_si256(v + 2), d = _mm256_loadu_si256(v + 3);
    over = _mm256_or_si256(over, _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)));
    const __m256i mixed = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
    return _mm256_permutevar8x32_epi32(mixed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  }
}

/// narrow32 of the 64 values at p, with one test: false (nothing written) when one of them is
/// above FF.
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool narrow64(const In* p, unsigned char* o) noexcept {
  __m256i over = _mm256_setzero_si256();
  const __m256i first = narrow_any32(p, over), second = narrow_any32(p + 32, over);
  const __m256i limit = sizeof(In) == 2 ? _mm256_set1_epi16(static_cast<short>(0xFF00))
                                        : _mm256_set1_epi32(static_cast<int>(0xFFFFFF00u));
  if (!_mm256_testz_si256(over, limit)) return false;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), first);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32), second);
  return true;
}

/// The 8 values at p narrowed to bytes, in the low 8 bytes, with the bits above FF of any of them
/// or'ed into `over` (In char16_t: one 16-byte load; char32_t: one 32-byte load).
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i narrow8(const In* p, __m128i& over) noexcept {
  if constexpr (sizeof(In) == 2) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    over = _mm_or_si128(over, v);
    return _mm_packus_epi16(v, v);
  } else {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    over = _mm_or_si128(over, _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
    const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return _mm_packus_epi16(words, words);
  }
}

/// Latin-1 of 8 to 31 values that are all up to FF: four groups of 8, overlapping, that cover
/// [0, n) (nothing read or written outside it); false, and nothing written, when a value is above FF.
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool narrow_short(const In* p, std::size_t n, unsigned char* out) noexcept {
  const std::size_t last = n - 8, second = last < 8 ? last : 8, third = last < 16 ? last : 16;
  __m128i over = _mm_setzero_si128();
  const __m128i a = narrow8(p, over), b = narrow8(p + second, over);
  const __m128i c = narrow8(p + third, over), d = narrow8(p + last, over);
  const __m128i limit =
      sizeof(In) == 2 ? _mm_set1_epi16(static_cast<short>(0xFF00)) : _mm_set1_epi32(static_cast<int>(0xFFFFFF00u));
  if (!_mm_testz_si128(over, limit)) return false;
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), a);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + second), b);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + third), c);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + last), d);
  return true;
}

/// UTF-16 (In char16_t) or UTF-32 to Latin-1 under Policy: blocks of 32 values up to FF from a
/// 64-byte boundary narrowed in vectors, the others scalar.
/// The output of [0, start) is written already, a byte per value.
template <class Policy, class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE packed_conversion units_to_latin1_by(const In* p, std::size_t n,
                                                                          unsigned char* out, unsigned char repl,
                                                                          std::size_t start = 0) noexcept {
  latin1_progress s;
  // s.read, and s.read - s.written (which the vector blocks leave as it is), in registers.
  std::size_t i = start, lag = 0;
  std::size_t same_lag = 0;  // where lag last changed (the output of [same_lag, i) is p's)
  const bool align = n >= align_from;
  while (n - i >= 32) {
    const std::size_t head = align ? units_to_line(p + i) : 0;
    if (head != 0) {  // scalar to the next 64-byte boundary
      s.read = i;
      s.written = i - lag;
      UTF8DFA_LEAVE_AVX();
      if (!to_latin1_until<Policy>(p, n, i + head, out, s, repl)) return latin1_result(s, n, true);
      i = s.read;
      if (i - s.written != lag) same_lag = i;
      lag = i - s.written;
      continue;
    }
    // From the boundary on, blocks of 64 and then of 32 while they fit (tight loops), then the block
    // that does not.
    while (n - i >= 64 && narrow64(p + i, out + (i - lag))) i += 64;
    if (align)
      while (n - i >= 32 && narrow32<true>(p + i, out + (i - lag))) i += 32;
    else
      while (n - i >= 32 && narrow32<false>(p + i, out + (i - lag))) i += 32;
    if (n - i < 32) break;
    s.read = i;
    s.written = i - lag;
    UTF8DFA_LEAVE_AVX();
    if (!to_latin1_until<Policy>(p, n, i + 32, out, s, repl)) return latin1_result(s, n, true);
    i = s.read;
    if (i - s.written != lag) same_lag = i;
    lag = i - s.written;
  }
  // The tail in the last 32 values, when the output before it is theirs as they are.
  if (i < n && n >= 32 && n - 32 >= same_lag && narrow32<false>(p + n - 32, out + (n - 32 - lag))) i = n;
  s.read = i;
  s.written = i - lag;
  UTF8DFA_LEAVE_AVX();
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

/// Latin-1 of 8 to 64 values when they are all up to FF (false, and nothing written, otherwise):
/// overlapping groups of 8 below 32 values, else the first 32 and the last 32.
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE bool narrow_upto64(const In* p, std::size_t n, unsigned char* out) noexcept {
  if (n < 32) return narrow_short(p, n, out);
  __m256i over = _mm256_setzero_si256();
  const __m256i first = narrow_any32(p, over), last = narrow_any32(p + n - 32, over);
  const __m256i limit = sizeof(In) == 2 ? _mm256_set1_epi16(static_cast<short>(0xFF00))
                                        : _mm256_set1_epi32(static_cast<int>(0xFFFFFF00u));
  if (!_mm256_testz_si256(over, limit)) return false;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), first);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n - 32), last);
  return true;
}

/// Latin-1 of 64 to align_from values, 32 at a time (the last 32 ending at n) while they are all
/// up to FF: returns n, or the start of the first block of 32 that is not (its output not written).
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t narrow_medium(const In* p, std::size_t n,
                                                                    unsigned char* out) noexcept {
  std::size_t i = 0;
  while (n - i >= 64 && narrow64(p + i, out + i)) i += 64;  // (the block of 32 that fails found below)
  for (; n - i >= 32; i += 32)
    if (!narrow32<false>(p + i, out + i)) return i;
  if (i != n && narrow32<false>(p + n - 32, out + n - 32)) i = n;
  return i;
}

/// units_to_latin1 of input that the entry does not take whole: from 65 to align_from units, blocks
/// from the start while they narrow; then units_to_latin1_by.
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE packed_conversion units_to_latin1_rest(const In* p, std::size_t n,
                                                                            unsigned char* out,
                                                                            char32_t replacement) noexcept {
  std::size_t start = 0;
  if (n - 65 < align_from - 65) {
    start = narrow_medium(p, n, out);
    if (start == n) return {n, n, error_code::none};
  }
  if (replacement == strict_marker) return units_to_latin1_by<strict>(p, n, out, 0, start);
  if (replacement == skip_marker) return units_to_latin1_by<skip>(p, n, out, 0, start);
  return units_to_latin1_by<replace>(p, n, out, static_cast<unsigned char>(replacement), start);
}

/// The kernel entry: 8 to 64 units narrowed here when they all are at most FF, in a function that
/// calls nothing then (so it saves no registers); anything else by a tail call.
template <class In>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALIGN_CODE packed_conversion units_to_latin1(const In* p, std::size_t n, unsigned char* out,
                                                                         char32_t replacement) noexcept {
  if (n - 8 <= 64 - 8 && narrow_upto64(p, n, out)) return {n, n, error_code::none};
  return units_to_latin1_rest(p, n, out, replacement);
}

/// The `group` (16 or 8) Latin-1 bytes at p widened into one 32-byte store at o.
template <class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void widen_group(const unsigned char* p, Out* o) noexcept {
  if constexpr (sizeof(Out) == 2)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o),
                        _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
  else
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o),
                        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}

/// Latin-1 to UTF-16 (Out char16_t) or UTF-32: 32 or 16 bytes widened a step; from align_from bytes
/// on, stored from a 64-byte boundary of the output (the two groups before it written first,
/// unaligned); the last group ends at n, over the one before. A leaf: under 8 or 4 bytes the scalar
/// loop is a tail call, so that no call saves registers or aligns the stack (which cost 2-3 cycles
/// a call, a quarter of the time of 32 bytes).
template <class Out>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE std::size_t latin1_widen(const unsigned char* p, std::size_t n,
                                                                                 Out* out) noexcept {
  constexpr std::size_t group = 32 / sizeof(Out);  // bytes a 32-byte store takes: 16 or 8
  if (n < group) {
    // group / 2 to group - 1 bytes: two groups of group / 2, overlapping (one 16-byte store each).
    if (n >= group / 2) {
      if constexpr (sizeof(Out) == 2) {
        const __m128i a = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
        const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + n - 8));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_cvtepu8_epi16(a));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - 8), _mm_cvtepu8_epi16(b));
      } else {
        std::uint32_t a, b;
        std::memcpy(&a, p, 4);
        std::memcpy(&b, p + n - 4, 4);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_cvtepu8_epi32(_mm_cvtsi32_si128(static_cast<int>(a))));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - 4),
                         _mm_cvtepu8_epi32(_mm_cvtsi32_si128(static_cast<int>(b))));
      }
      return n;
    }
    UTF8DFA_LEAVE_AVX();
    return latin1_widen_scalar(p, n, out);
  }
  std::size_t i = 0;
  if (n >= align_from) {  // units_to_line(out) < 2 * group
    widen_group(p, out);
    widen_group(p + group, out + group);
    i = units_to_line(out);
  }
  // Four groups a step (each loop test and jump spread over four stores: at 1 KiB into UTF-16 1.1x
  // as fast as by two, 256 B 1.15x; the compiler had placed that loop across a cache line), then single groups.
  for (; n - i >= 4 * group; i += 4 * group) {
    widen_group(p + i, out + i);
    widen_group(p + i + group, out + i + group);
    widen_group(p + i + 2 * group, out + i + 2 * group);
    widen_group(p + i + 3 * group, out + i + 3 * group);
  }
  for (; n - i >= group; i += group) widen_group(p + i, out + i);
  if (i < n) widen_group(p + n - group, out + n - group);
  return n;
}

/// The bytes 80..FF among the 32 at p, as -1 in their lanes.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i high_bytes(const unsigned char* p) noexcept {
  return _mm256_cmpgt_epi8(_mm256_setzero_si256(), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

/// The sum of the 32 byte lanes of `counts`.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t sum_bytes(__m256i counts) noexcept {
  const __m256i sums = _mm256_sad_epu8(counts, _mm256_setzero_si256());
  const __m128i half = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
  return static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_add_epi64(half, _mm_unpackhi_epi64(half, half))));
}

/// Bytes of the UTF-8 of Latin-1: n plus the bytes 80..FF, counted (from a 64-byte boundary for
/// long inputs) in four sets of byte lanes, up to 255 blocks of 128 between two sums; the rest 32
/// at a time, the tail in one overlapping vector (scalar under 32 bytes).
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t utf8_length_from_latin1(const unsigned char* p,
                                                                                std::size_t n) noexcept {
  std::size_t i = scalar_head(p, n);
  UTF8DFA_LEAVE_AVX();
  std::size_t total = utf8_length_from_latin1_scalar(p, i) + (n - i);
  while (n - i >= 128) {
    const std::size_t end = i + ((n - i) / 128 < 255 ? (n - i) / 128 : 255) * 128;
    __m256i c0 = _mm256_setzero_si256(), c1 = c0, c2 = c0, c3 = c0;  // -1 for each byte 80..FF
    for (; i < end; i += 128) {
      c0 = _mm256_add_epi8(c0, high_bytes(p + i));
      c1 = _mm256_add_epi8(c1, high_bytes(p + i + 32));
      c2 = _mm256_add_epi8(c2, high_bytes(p + i + 64));
      c3 = _mm256_add_epi8(c3, high_bytes(p + i + 96));
    }
    const __m256i zero = _mm256_setzero_si256();
    total += sum_bytes(_mm256_sub_epi8(zero, c0)) + sum_bytes(_mm256_sub_epi8(zero, c1)) +
             sum_bytes(_mm256_sub_epi8(zero, c2)) + sum_bytes(_mm256_sub_epi8(zero, c3));
  }
  for (; n - i >= 32; i += 32)
    total +=
        static_cast<std::size_t>(_mm_popcnt_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(high_bytes(p + i)))));
  if (n >= 32 && i < n) {  // the last 32 bytes, those before i left out
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(high_bytes(p + n - 32)));
    return total + static_cast<std::size_t>(_mm_popcnt_u64(std::uint64_t{high} >> (32 - (n - i))));
  }
  UTF8DFA_LEAVE_AVX();
  return total + utf8_length_from_latin1_scalar(p + i, n - i) - (n - i);
}

/// The byte shuffles of change_endianness: in 16 bytes, and in both lanes of 32.
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m128i unit_byte_reversal16() noexcept {
  return sizeof(Unit) == 2 ? _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)
                           : _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
}

/// Exchanges in place the bytes of the k units at o (under 32 bytes) by pieces of 16, 8, 4 and 2
/// bytes that do not overlap: the next read of these units then loads each piece from one store (a
/// load that spans two stores waits until both are written to the cache).
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void change_endianness_rest_in_place(Unit* units, std::size_t k,
                                                                               __m128i lane_order) noexcept {
  unsigned char* o = reinterpret_cast<unsigned char*>(units);
  const std::size_t rest = k * sizeof(Unit);
  if (rest & 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o),
                     _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(o)), lane_order));
    o += 16;
  }
  if (rest & 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o),
                     _mm_shuffle_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(o)), lane_order));
    o += 8;
  }
  if (rest & 4) {
    std::int32_t w;  // (memcpy and movd: _mm_loadu_si32 is missing or wrong in some GCC versions)
    std::memcpy(&w, o, 4);
    w = _mm_cvtsi128_si32(_mm_shuffle_epi8(_mm_cvtsi32_si128(w), lane_order));
    std::memcpy(o, &w, 4);
    o += 4;
  }
  if (sizeof(Unit) == 2 && (rest & 2) != 0) {
    const unsigned char b = o[0];
    o[0] = o[1];
    o[1] = b;
  }
}

/// change_endianness from unit i on (16 bytes of units at least from i to n): 128 bytes a step, then
/// 32; in place, the rest by change_endianness_rest_in_place; into another buffer, 16 bytes and the
/// last 16 bytes, stored over units before them.
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE void change_endianness_from(const Unit* p, std::size_t n, Unit* out,
                                                                      std::size_t i) noexcept {
  constexpr std::size_t lanes = 32 / sizeof(Unit), half = lanes / 2;  // units in 32 and 16 bytes
  const __m128i lane_order = unit_byte_reversal16<Unit>();
  const __m256i order = _mm256_broadcastsi128_si256(lane_order);
  for (; n - i >= 4 * lanes; i += 4 * lanes) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + lanes));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 2 * lanes));
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 3 * lanes));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_shuffle_epi8(a, order));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + lanes), _mm256_shuffle_epi8(b, order));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 2 * lanes), _mm256_shuffle_epi8(c, order));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 3 * lanes), _mm256_shuffle_epi8(d, order));
  }
  for (; n - i >= lanes; i += lanes) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_shuffle_epi8(a, order));
  }
  if (out == p) {
    change_endianness_rest_in_place<Unit>(out + i, n - i, lane_order);
    return;
  }
  const __m128i last = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - half)), lane_order);
  if (n - i >= half) {  // 16 bytes
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm_shuffle_epi8(x, lane_order));
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - half), last);
}

/// change_endianness of align_from units or more: scalar up to a 64-byte boundary of the output
/// (a vector store there, over units still to be read in place, would exchange them twice), the
/// rest from it. Out of line, so that the entry saves no registers around the scalar call.
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE std::size_t change_endianness_long(const Unit* p, std::size_t n,
                                                                        Unit* out) noexcept {
  const std::size_t i = scalar_head(out, n);
  UTF8DFA_LEAVE_AVX();
  change_endianness_scalar(p, i, out);
  change_endianness_from(p, n, out, i);
  return n;
}

/// change_endianness_utf16 / _utf32 (by Unit): one byte shuffle a vector; `out` may be `p`. Up to
/// 128 bytes: in place, whole vectors and the rest by change_endianness_rest_in_place; into another
/// buffer, two or four vectors, overlapping. Then 128 bytes a step. A leaf below align_from units (as
/// latin1_widen).
template <class Unit>
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE std::size_t change_endianness(const Unit* p, std::size_t n,
                                                                                      Unit* out) noexcept {
  constexpr std::size_t lanes = 32 / sizeof(Unit);
  constexpr std::size_t half = lanes / 2;  // units in 16 bytes
  if (n < half) {
    UTF8DFA_LEAVE_AVX();
    return change_endianness_scalar(p, n, out);
  }
  const __m128i lane_order = unit_byte_reversal16<Unit>();
  const __m256i order = _mm256_broadcastsi128_si256(lane_order);
  if (n <= 4 * lanes) {  // 16 to 128 bytes
    if (out == p) {
      // In place, stores that do not overlap: the next read of these units then loads each piece
      // from one store (a load that spans two stores waits until both are written to the cache).
      std::size_t i = 0;
      for (; n - i >= lanes; i += lanes)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                            _mm256_shuffle_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)), order));
      change_endianness_rest_in_place<Unit>(out + i, n - i, lane_order);
      return n;
    }
    // Into another buffer: two or four vectors, overlapping, all read before any store.
    if (n < lanes) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - half));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi8(a, lane_order));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + n - half), _mm_shuffle_epi8(b, lane_order));
    } else {
      const std::size_t second = n <= 2 * lanes ? n - lanes : lanes, third = n <= 2 * lanes ? 0 : n - 2 * lanes;
      const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + second));
      const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + third));
      const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + n - lanes));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_shuffle_epi8(a, order));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + second), _mm256_shuffle_epi8(b, order));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + third), _mm256_shuffle_epi8(c, order));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n - lanes), _mm256_shuffle_epi8(d, order));
    }
    return n;
  }
  if (n >= align_from) return change_endianness_long(p, n, out);
  change_endianness_from(p, n, out, 0);
  return n;
}

/// validate_utf16 on units with their bytes exchanged.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline packed_validation validate_utf16_swapped(const char16_t* p,
                                                                                     std::size_t n) noexcept {
  return validate_utf16_by<true>(p, n);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/avx2/units_bulk.hpp ----

#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

inline constexpr kernel_table table{
    "avx2",
    &validate,
    &count_leads,
    &utf16_length,
    // Short inputs: under 8 UTF-8 bytes (16 UTF-16 or UTF-32 units) the scalar DFA, and UTF-8 under
    // padded_below bytes when it is mostly ASCII (short_input.hpp). The UTF-8
    // conversions finish their last bytes in a padded copy of their own (transcode.hpp); for UTF-16
    // and UTF-32 input the blocks are shorter and the scalar tail cheaper.
    &vector_unless_mostly_ascii<char32_t, &utf8_to_utf32, scalar_utf8_to_utf32, 8, padded_below>,
    &vector_unless_mostly_ascii<char16_t, &utf8_to_utf16, scalar_utf8_to_utf16, 8, padded_below>,
    &vector_from<char16_t, unsigned char, &utf16_to_utf8, scalar_utf16_to_utf8, 16>,
    &vector_from<char32_t, unsigned char, &utf32_to_utf8, scalar_utf32_to_utf8, 16>,
    &utf16_length_from_utf8,
    &utf32_length_from_utf8,
    &utf8_length_from_utf16,
    &utf8_length_from_utf32,  // Latin-1 and UTF-16 / UTF-32 input (the tails scalar in the kernels).
    &latin1_to_utf8,
    &utf8_to_latin1,
    &validate_utf16,
    &utf16_to_utf32,
    &utf32_to_utf16,
    &to_well_formed_utf16,
    &count_utf16,
    &validate_utf32,
    &units_to_latin1<char16_t>,
    &units_to_latin1<char32_t>,
    &latin1_widen<char16_t>,
    &latin1_widen<char32_t>,
    &utf8_length_from_latin1,
    &change_endianness<char16_t>,
    &change_endianness<char32_t>,
    &validate_utf16_swapped,
    &vector_from<char16_t, unsigned char, &utf16_swapped_to_utf8, scalar_utf16_swapped_to_utf8, 16>,
    &vector_unless_mostly_ascii<char16_t, &utf8_to_utf16_swapped, scalar_utf8_to_utf16_swapped, 8, padded_below>,
};

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/avx2/kernels.hpp ----
// ---- begin utf8dfa/detail/simd/avx512/kernels.hpp ----
// utf8dfa: the AVX-512 kernel table.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_KERNELS_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_KERNELS_HPP

// ---- begin utf8dfa/detail/simd/avx512/length.hpp ----
// utf8dfa: AVX-512 output lengths of the conversions, exact on ill-formed input too: the block check
// and a count in one pass over well-formed blocks, the scalar decoder over a block that holds an
// error (length_common.hpp). Tails use masked loads: nothing is read past the input.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_LENGTH_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_LENGTH_HPP

// ---- begin utf8dfa/detail/simd/avx512/utf8_block.hpp ----
// utf8dfa: AVX-512 check of one block of UTF-8 that starts on a character boundary (the
// Keiser-Lemire idea: three nibble lookups on each pair of adjacent bytes, plus a check that the
// 3rd/4th bytes of long sequences are continuations). Used by the transcoding kernels; it says only
// whether the block holds an error, the scalar DFA says where and what.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_UTF8_BLOCK_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_UTF8_BLOCK_HPP


#if UTF8DFA_X86_KERNELS

// GCC 12's AVX-512 intrinsics seed their results with a self-initialised "undefined" vector, which
// -Wmaybe-uninitialized / -Wuninitialized report once they are inlined (GCC bug 105593); nothing
// here is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

namespace avx512 {

/// x, opaque to the compiler: a constant built before a loop stays in its register. (GCC otherwise
/// rebuilds broadcast constants inside the loop, moving a general register to a vector register
/// each time, which is slow on AMD Zen 5.)
UTF8DFA_TARGET_AVX512 inline __m512i opaque(__m512i x) noexcept {
  __asm__("" : "+v"(x));
  return x;
}

/// A 16-byte table repeated in every 128-bit lane (for vpshufb lookups).
UTF8DFA_TARGET_AVX512 inline __m512i lane_table(const std::uint8_t (&t)[16]) noexcept {
  return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}

/// The block check, its constants built once (before a loop) and kept in
/// registers (GCC otherwise rebuilds broadcast constants in every iteration, moving a general
/// register to a vector register each time, which is slow on AMD Zen 5).
struct utf8_block_checker {
  __m512i before, prev_high, prev_low, cur_high, nib, low7;

  UTF8DFA_TARGET_AVX512 utf8_block_checker() noexcept
      // The byte before each one (zero before the first, index 64: the second table): one permute,
      // with no mask (a constant mask would be rebuilt in a mask register in every iteration).
      : before(
            opaque(_mm512_set_epi8(62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42,
                                   41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21,
                                   20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 64))),
        prev_high(opaque(lane_table(pair_error::prev_high))),
        prev_low(opaque(lane_table(pair_error::prev_low))),
        cur_high(opaque(lane_table(pair_error::cur_high))),
        nib(opaque(_mm512_set1_epi8(0x0F))),
        low7(opaque(_mm512_set1_epi8(0x7F))) {}

  /// True when the 64 bytes v, read as the start of a text (preceded by a character boundary), hold
  /// an ill-formed pair or a long sequence cut before its end inside the block. A character cut by
  /// the end of the block is not an error here (bytes past the input must be loaded as zeros, so a
  /// character cut by the end of the input is one). `ge_e0` and `ge_f0` are the masks of the bytes
  /// of v at or above E0 and F0 (the callers need them too).
  UTF8DFA_TARGET_AVX512 bool has_error(__m512i v, __mmask64 ge_e0, __mmask64 ge_f0) const noexcept {
    const __m512i p1 = _mm512_permutex2var_epi8(v, before, _mm512_setzero_si512());
    const __m512i e1 = _mm512_shuffle_epi8(prev_high, _mm512_and_si512(_mm512_srli_epi16(p1, 4), nib));
    const __m512i e2 = _mm512_shuffle_epi8(prev_low, _mm512_and_si512(p1, nib));
    const __m512i e3 = _mm512_shuffle_epi8(cur_high, _mm512_and_si512(_mm512_srli_epi16(v, 4), nib));
    const __m512i special = _mm512_ternarylogic_epi32(e1, e2, e3, 0x80);  // e1 & e2 & e3
    // Bit 7 (two continuations in a row) is expected exactly 2 bytes after an E0..FF lead and 3
    // bytes after an F0..FF lead; every other bit is an error.
    const __mmask64 must23 = (ge_e0 << 2) | (ge_f0 << 3);
    return (_mm512_test_epi8_mask(special, low7) | (_mm512_movepi8_mask(special) ^ must23)) != 0;
  }
};

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif
#endif
// ---- end utf8dfa/detail/simd/avx512/utf8_block.hpp ----
// ---- begin utf8dfa/detail/simd/avx512/validate.hpp ----
// utf8dfa: AVX-512 validation and counting (64-byte vectors; tails through masked loads, which never
// touch the bytes they mask out).
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_VALIDATE_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_VALIDATE_HPP


#if UTF8DFA_X86_KERNELS
// GCC 12's AVX-512 intrinsics seed their results with a self-initialised "undefined" vector, which
// -Wmaybe-uninitialized reports once they are inlined (GCC bug 105593); nothing here is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx512 {

UTF8DFA_TARGET_AVX512 inline __m512i splat(unsigned v) noexcept {
  return _mm512_set1_epi8(static_cast<char>(v));
}

UTF8DFA_TARGET_AVX512 inline __m512i load(const void* p) noexcept {
  return _mm512_loadu_si512(p);
}

/// The first `k` (< 64) bytes at p, zeros after them; reads nothing beyond p + k.
UTF8DFA_TARGET_AVX512 inline __m512i load_first(const void* p, std::size_t k) noexcept {
  return _mm512_maskz_loadu_epi8(_bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(k)), p);
}

/// A 16-entry table in all four 128-bit lanes (vpshufb looks up within each lane). The maskz forms
/// here and below avoid a false -Wmaybe-uninitialized of GCC 12 in the unmasked intrinsics.
UTF8DFA_TARGET_AVX512 inline __m512i lanes(const std::uint8_t* table16) noexcept {
  return _mm512_maskz_broadcast_i32x4(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(table16)));
}

/// The block check with its constants loaded once (outside the loops that use it).
struct checker {
  __m512i first_high, first_low, second_high, nibble, lead3, lead4, high_bit;

  UTF8DFA_TARGET_AVX512 checker() noexcept
      : first_high(lanes(pair_lookup.first_high)),
        first_low(lanes(pair_lookup.first_low)),
        second_high(lanes(pair_lookup.second_high)),
        nibble(splat(0x0F)),
        lead3(splat(lead3_min - 0x80u)),
        lead4(splat(lead4_min - 0x80u)),
        high_bit(splat(0x80)) {}

  /// Non-zero where the pair check or the 3-/4-byte continuation check fails in `in`.
  UTF8DFA_TARGET_AVX512 __m512i operator()(__m512i in, __m512i prev) const noexcept {
    // Each 128-bit lane of `before` is the lane preceding the same lane of `in`.
    const __m512i before = _mm512_maskz_alignr_epi64(0xFF, in, prev, 6);
    const __m512i prev1 = _mm512_alignr_epi8(in, before, 15);
    const __m512i a = _mm512_shuffle_epi8(first_high, _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nibble));
    const __m512i b = _mm512_shuffle_epi8(first_low, _mm512_and_si512(prev1, nibble));
    const __m512i c = _mm512_shuffle_epi8(second_high, _mm512_and_si512(_mm512_srli_epi16(in, 4), nibble));
    // Saturating subtraction leaves bit 7 set exactly for prev2 >= lead3_min, prev3 >= lead4_min.
    const __m512i is3 = _mm512_subs_epu8(_mm512_alignr_epi8(in, before, 14), lead3);
    const __m512i is4 = _mm512_subs_epu8(_mm512_alignr_epi8(in, before, 13), lead4);
    // (a & b & c) ^ ((is3 | is4) & 0x80) in two ternary-logic steps.
    const __m512i flags = _mm512_ternarylogic_epi32(a, b, c, 0x80);
    const __m512i must_continue = _mm512_ternarylogic_epi32(is3, is4, high_bit, 0xA8);
    return _mm512_xor_si512(flags, must_continue);
  }
};

/// Non-zero when `in` (64 bytes) ends inside a character.
UTF8DFA_TARGET_AVX512 inline __m512i ends_incomplete(__m512i in) noexcept {
  const __m512i last3 = _mm512_set_epi64(
      static_cast<long long>((std::uint64_t{utf8_tail.hi} << 56) | (std::uint64_t{lead3_min - 1u} << 48) |
                             (std::uint64_t{lead4_min - 1u} << 40) | 0xFFFFFFFFFFull),
      -1, -1, -1, -1, -1, -1, -1);
  return _mm512_subs_epu8(in, last3);
}

/// The error vector of the block `in` preceded by `prev`; `incomplete` carries a cut character.
UTF8DFA_TARGET_AVX512 inline __m512i check_block(const checker& check, __m512i in, __m512i prev,
                                                 __m512i& incomplete) noexcept {
  if (_mm512_movepi8_mask(in) == 0) return incomplete;
  incomplete = ends_incomplete(in);
  return check(in, prev);
}

UTF8DFA_TARGET_AVX512 inline bool any(__m512i v) noexcept {
  return _mm512_test_epi8_mask(v, v) != 0;
}

/// The pair flags (generic.hpp) of each byte C0..FF as the first of a pair, whole: one 64-entry
/// lookup instead of two by nibbles.
struct lead_pair_table {
  std::uint8_t flags[64]{};
};

constexpr lead_pair_table build_lead_pair_table() {
  lead_pair_table t{};
  for (unsigned j = 0; j < 64; ++j)
    t.flags[j] = static_cast<std::uint8_t>(pair_lookup.first_high[(0xC0 + j) >> 4] & pair_lookup.first_low[j & 15]);
  return t;
}
inline constexpr lead_pair_table lead_pair_lookup = build_lead_pair_table();

/// What lets step_checker give every byte below C0 the flags of a continuation: such a byte has
/// no other flag than too_long (ASCII) or two_conts (a continuation), and both flag the same second
/// bytes (the continuations). After ASCII a continuation then passes only where bit 7 is expected,
/// 2 bytes after an E0..FF lead or 3 after an F0..FF lead, and there the lead's own pairs fail (a
/// lead then ASCII: too_short; or the ASCII byte, where bit 7 is expected, is not a continuation).
constexpr bool below_c0_flags_as_continuation() noexcept {
  for (unsigned b = 0; b < 0xC0; ++b)
    if ((pair_lookup.first_high[b >> 4] & pair_lookup.first_low[b & 15]) != (b < 0x80 ? pair_too_long : pair_two_conts))
      return false;
  for (unsigned h = 0; h < 16; ++h)
    if (((pair_lookup.second_high[h] & pair_too_long) != 0) != ((pair_lookup.second_high[h] & pair_two_conts) != 0))
      return false;
  return pair_two_conts == 0x80;
}
static_assert(below_c0_flags_as_continuation(), "bytes below C0 flag pairs as a continuation does");

/// The block check of the 256-byte steps (check_blocks, and the length count in length.hpp), its
/// constants kept in registers: checker's pair flags (of the byte before, a lead's looked up whole
/// and any other byte's taken as a continuation's, see above) and its 3-/4-byte continuation check,
/// on bytes read from memory before the block (loads instead of the lane shuffles that build them);
/// it counts too, with the compare masks of that check.
struct step_checker {
  __m512i lead_flags, second_high, nibbles, lead2, lead3, lead4, high_bit;

  UTF8DFA_TARGET_AVX512 step_checker() noexcept
      : lead_flags(opaque(_mm512_loadu_si512(lead_pair_lookup.flags))),
        second_high(opaque(lanes(pair_lookup.second_high))),
        // vpmultishiftqb control: byte j of each quadword takes the 8 bits from bit 8j + 4 on
        nibbles(opaque(_mm512_set1_epi64(0x3C342C241C140C04))),
        lead2(opaque(splat(0xC0))),
        lead3(opaque(splat(lead3_min))),
        lead4(opaque(splat(lead4_min))),
        high_bit(opaque(splat(0x80))) {}

  /// A vpermb index of the high nibble of each byte of v: its low 4 bits are that nibble (the bits
  /// above come from the next byte; vpermb reads 6 index bits and the tables repeat every 16 bytes).
  /// A shuffle-port operation, not a shift (the shift ports are the busier ones here).
  UTF8DFA_TARGET_AVX512 __m512i high(__m512i v) const noexcept { return _mm512_multishift_epi64_epi8(nibbles, v); }

  /// The 64 bytes from q - k: with `Start`, those of them before the d bytes before q (which alone
  /// lie in the input) as zeros, by a masked load, which touches nothing it masks out.
  template <bool Start>
  static UTF8DFA_TARGET_AVX512 __m512i before(const unsigned char* q, unsigned k, std::size_t d) noexcept {
    if (!Start) return load(q - k);
    const unsigned outside = k > d ? k - static_cast<unsigned>(d) : 0u;
    return _mm512_maskz_loadu_epi8(~std::uint64_t{0} << outside,
                                   reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(q) - k));
  }

  /// Non-zero where the 64 bytes at q (whose high nibbles are `hi`) fail the checks, the bytes
  /// before them read from memory (q - 3 lies inside the input). Without `Four` the caller knows
  /// there is no F0..FF byte in them or in the 3 before: the check that a byte 3 places after one
  /// continues is left out. Adds to `conts` the continuations of well-formed text: the bytes 1
  /// after a C0..FF lead, 2 after an E0..FF lead and (but for UTF-16, where a 4-byte lead's second
  /// unit makes up for it) 3 after an F0..FF lead; each continuation is exactly one of these.
  /// With `Start`, only the `d` bytes before q lie in the input (d < 3): those before them read as
  /// zeros, as if the text began there.
  template <bool Four, bool Utf16, bool Start = false>
  UTF8DFA_TARGET_AVX512 __m512i error(const unsigned char* q, __m512i hi, std::size_t& conts,
                                      std::size_t d = 3) const noexcept {
    const __m512i prev1 = before<Start>(q, 1, d);
    // The byte before: C0..FF told apart by 6 index bits, any other byte two_conts (bit 7).
    const __mmask64 after2 = _mm512_cmpge_epu8_mask(prev1, lead2);
    const __m512i first = _mm512_mask_permutexvar_epi8(high_bit, after2, prev1, lead_flags);
    const __m512i flags = _mm512_and_si512(first, _mm512_permutexvar_epi8(hi, second_high));
    // Bit 7 (two continuations in a row) is expected exactly 2 bytes after an E0..FF lead and 3
    // after an F0..FF lead: flip it there (subtracting 0x80 flips bit 7 only).
    const __mmask64 after3 = _mm512_cmpge_epu8_mask(before<Start>(q, 2, d), lead3);
    __mmask64 must = after3;
    conts += static_cast<std::size_t>(_mm_popcnt_u64(after2) + _mm_popcnt_u64(after3));
    if (Four) {
      const __mmask64 after4 = _mm512_cmpge_epu8_mask(before<Start>(q, 3, d), lead4);
      must |= after4;
      if (!Utf16) conts += static_cast<std::size_t>(_mm_popcnt_u64(after4));
    }
    return _mm512_mask_sub_epi8(flags, must, flags, high_bit);
  }
};

/// True when the character before q (q - 3 lies in the input) needs bytes beyond q - 1.
inline bool cut_before(const unsigned char* q) noexcept {
  return q[-1] >= 0xC0 || q[-2] >= lead3_min || q[-3] >= lead4_min;
}

/// The length of the longest prefix of [p, p+n) made of whole 64-byte blocks of ASCII: 256 bytes a
/// test, then 64.
UTF8DFA_TARGET_AVX512 inline std::size_t ascii_prefix(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; n - i >= 256; i += 256) {
    const __m512i top = _mm512_max_epu8(_mm512_max_epu8(load(p + i), load(p + i + 64)),
                                        _mm512_max_epu8(load(p + i + 128), load(p + i + 192)));
    if (_mm512_movepi8_mask(top) != 0) break;
  }
  for (; n - i >= 64; i += 64)
    if (_mm512_movepi8_mask(load(p + i)) != 0) break;
  return i;
}

/// The inputs check_blocks takes: longer than a block (validate checks shorter ones as one block).
inline constexpr std::size_t min_block_input = 65;

/// How far past the block start a failing check_blocks step reaches.
inline constexpr std::size_t block_span = 256;

/// Runs the block checks over [p, p+n) (n >= min_block_input): `blocks_pass` when they all pass
/// (the input is well-formed), else b such that [0, b) passed and [b, b + block_span) failed (a
/// failing step gives its first failing 64-byte block, so that the scalar rescan is short).
/// After a first block, 256 bytes a step with one error test (ASCII steps only checked for a
/// character cut before them, others by step_checker, its 4-byte part only when the step or the one
/// before holds an F0..FF byte), then 64-byte blocks and the last 64 bytes, all by step_checker.
/// With `Known`, after the ASCII start `ascii` (ascii_prefix(p, n)) that the caller found.
template <bool Known>
UTF8DFA_TARGET_AVX512 inline std::size_t check_blocks_from(const unsigned char* p, std::size_t n,
                                                           [[maybe_unused]] std::size_t ascii) noexcept {
  // ASCII first, 256 bytes then 64 a test, before the check's constants are built (which cost a
  // short ASCII input more than its check).
  std::size_t i = Known ? ascii : ascii_prefix(p, n);
  if (n - i < 64 && (i == n || _mm512_movepi8_mask(load_first(p + i, n - i)) == 0)) return blocks_pass;
  const step_checker sc;
  std::size_t unused = 0;
  bool four = i == 0;  // an F0..FF byte may be in the block before the step
  if (i == 0) {        // the first block: nothing before it
    if (UTF8DFA_UNLIKELY(any(sc.error<true, true, true>(p, sc.high(load(p)), unused, 0)))) return 0;
    i = 64;
  }
  for (; n - i >= 256; i += 256) {
    const __m512i in0 = load(p + i), in1 = load(p + i + 64), in2 = load(p + i + 128), in3 = load(p + i + 192);
    const __m512i top = _mm512_max_epu8(_mm512_max_epu8(in0, in1), _mm512_max_epu8(in2, in3));
    if (_mm512_movepi8_mask(top) == 0) {
      // ASCII: an error only if a character before it is cut.
      if (UTF8DFA_UNLIKELY(cut_before(p + i))) return i;
      four = false;
      continue;
    }
    const bool has4 = _mm512_cmpge_epu8_mask(top, sc.lead4) != 0;
    __m512i e0, e1, e2, e3;
    if (has4 || four) {
      e0 = sc.error<true, true>(p + i, sc.high(in0), unused);
      e1 = sc.error<true, true>(p + i + 64, sc.high(in1), unused);
      e2 = sc.error<true, true>(p + i + 128, sc.high(in2), unused);
      e3 = sc.error<true, true>(p + i + 192, sc.high(in3), unused);
    } else {
      e0 = sc.error<false, true>(p + i, sc.high(in0), unused);
      e1 = sc.error<false, true>(p + i + 64, sc.high(in1), unused);
      e2 = sc.error<false, true>(p + i + 128, sc.high(in2), unused);
      e3 = sc.error<false, true>(p + i + 192, sc.high(in3), unused);
    }
    four = has4;
    if (UTF8DFA_UNLIKELY(any(_mm512_ternarylogic_epi32(_mm512_or_si512(e0, e1), e2, e3, 0xFE))))
      return i + (any(e0) ? 0 : any(e1) ? 64 : any(e2) ? 128 : 192);  // (the scalar rescan starts there)
  }
  for (; n - i >= 64; i += 64) {
    const __m512i in = load(p + i);
    if (_mm512_movepi8_mask(in) == 0) {  // ASCII, as above
      if (UTF8DFA_UNLIKELY(cut_before(p + i))) return i;
    } else if (UTF8DFA_UNLIKELY(any(sc.error<true, true>(p + i, sc.high(in), unused)))) {
      return i;
    }
  }
  // The last 64 bytes (again, where checked ones are among them), and no character cut by their
  // end; when they are ASCII, the bytes before the unchecked ones are too (they are among them).
  const unsigned char* const q = p + n - 64;
  const __m512i last = load(q);
  if (_mm512_movepi8_mask(last) == 0) return blocks_pass;
  __m512i err = ends_incomplete(last);
  if (i < n) err = _mm512_or_si512(err, sc.error<true, true, true>(q, sc.high(last), unused, n - 64));
  if (UTF8DFA_UNLIKELY(any(err))) return n - 64;
  return blocks_pass;
}

/// check_blocks_from the start: what validate runs.
UTF8DFA_TARGET_AVX512 inline std::size_t check_blocks(const unsigned char* p, std::size_t n) noexcept {
  return check_blocks_from<false>(p, n, 0);
}

/// The longest input short_check takes.
inline constexpr std::size_t short_check_max = 256;

/// True when the n bytes at p (n <= short_check_max) are well-formed UTF-8; `ascii` gets the length
/// of their start made of whole 64-byte blocks of ASCII. Those blocks are skipped one test each,
/// the blocks from the first other one checked by checker (the lane-shuffle check) into one error
/// vector, the tail as one masked block whose zero padding makes a character cut by the end fail
/// (without a tail, ends_incomplete of the last block does). (check_blocks' constants, its 256-byte test first and its
/// loads of the bytes before each block cost such input more than they save. validate against simdutf icelake at 256 B,
/// on an AMD EPYC: 1.08x -> 1.24x over the corpora; German, its first accented letter in the last block, 0.76x ->
/// 0.94x; all-ASCII text 1.57x -> 1.40x, the one loss.)
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool short_check(const unsigned char* p, std::size_t n,
                                                             std::size_t& ascii) noexcept {
  std::size_t i = 0;
  while (n - i >= 64 && _mm512_movepi8_mask(load(p + i)) == 0) i += 64;
  ascii = i;
  if (n - i < 64 && (i == n || _mm512_movepi8_mask(load_first(p + i, n - i)) == 0)) return true;
  const checker check;
  __m512i prev = i == 0 ? _mm512_setzero_si512() : load(p + i - 64), err = _mm512_setzero_si512(), incomplete = err;
  for (; n - i >= 64; i += 64) {
    const __m512i in = load(p + i);
    err = _mm512_or_si512(err, check_block(check, in, prev, incomplete));
    prev = in;
  }
  err = _mm512_or_si512(err, i < n ? check(load_first(p + i, n - i), prev) : incomplete);
  return !any(err);
}

/// validate_scalar's answer for more than 64 bytes: up to short_check_max by short_check (its tail
/// one masked block whose zero padding makes a character cut by the end fail the pair checks),
/// longer by check_blocks.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_long(const unsigned char* p,
                                                                              std::size_t n) noexcept {
  if (n <= short_check_max) {
    std::size_t ascii = 0;
    if (UTF8DFA_LIKELY(short_check(p, n, ascii))) return {n, 0, error_code::none};
    UTF8DFA_LEAVE_AVX();
    return rescan_from(p, n, 0);
  }
  const std::size_t b = check_blocks(p, n);
  if (UTF8DFA_LIKELY(b == blocks_pass)) return {n, 0, error_code::none};
  return rescan_from(p, n, b);
}

/// The kernel entry. Up to 64 bytes, the tail block alone (a whole one also checked for a cut
/// character), in a function that calls nothing on valid input, so it saves no registers; longer
/// input by a tail call to validate_long.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE inline packed_validation validate(const unsigned char* p,
                                                                           std::size_t n) noexcept {
  if (n > 64) return validate_long(p, n);
  const __m512i in = load_first(p, n);
  if (_mm512_movepi8_mask(in) == 0) return {n, 0, error_code::none};
  const checker check;
  const __m512i err = check(in, _mm512_setzero_si512());
  if (UTF8DFA_LIKELY(!any(n == 64 ? _mm512_or_si512(err, ends_incomplete(in)) : err))) return {n, 0, error_code::none};
  UTF8DFA_LEAVE_AVX();
  return rescan_from(p, n, 0);
}

/// Bytes that are not continuation bytes (80..BF are the signed bytes below -64).
UTF8DFA_TARGET_AVX512 inline std::size_t count_leads(const unsigned char* p, std::size_t n) noexcept {
  const __m512i limit = splat(0xBF);
  std::size_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, i = 0;
  for (; n - i >= 256; i += 256) {  // four independent counts keep the loads flowing
    c0 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i), limit)));
    c1 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i + 64), limit)));
    c2 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i + 128), limit)));
    c3 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i + 192), limit)));
  }
  std::size_t count = c0 + c1 + c2 + c3;
  for (; n - i >= 64; i += 64)
    count += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i), limit)));
  if (i < n) {
    const std::uint64_t valid = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(n - i));
    count +=
        static_cast<std::size_t>(_mm_popcnt_u64(_mm512_mask_cmpgt_epi8_mask(valid, load_first(p + i, n - i), limit)));
  }
  return count;
}

/// UTF-16 units of a well-formed character by its lead's top six bits (a byte b at b >> 2): one
/// for ASCII and the leads C0..EF, two for F0..FF, none for a continuation.
struct utf16_units_table {
  std::uint8_t units[64]{};
};

constexpr utf16_units_table build_utf16_units_table() {
  utf16_units_table t{};
  for (unsigned j = 0; j < 64; ++j) {
    const auto b = static_cast<std::uint8_t>(j << 2);  // b .. b + 3 all alike
    t.units[j] = static_cast<std::uint8_t>(is_continuation(b) ? 0 : b >= lead4_min ? 2 : 1);
  }
  return t;
}
inline constexpr utf16_units_table utf16_units_lookup = build_utf16_units_table();

/// UTF-16 units of well-formed input: leads, plus one more for each 4-byte lead (F0..FF). Whole
/// vectors by one 64-entry lookup of each byte's top six bits, summed in bytes (three operations a
/// vector; two compares and their two mask moves took four, on the same two ports).
UTF8DFA_TARGET_AVX512 inline std::size_t utf16_length(const unsigned char* p, std::size_t n) noexcept {
  const __m512i cont_limit = splat(0xBF), four_min = splat(lead4_min);
  std::size_t count = 0, i = 0;
  if (n >= 128) {
    const __m512i units = opaque(_mm512_loadu_si512(utf16_units_lookup.units)), zero = _mm512_setzero_si512();
    __m512i sums = zero;
    while (n - i >= 64) {
      // Up to 127 vectors a round (at most 2 a byte each: the byte sums stay below 256).
      const std::size_t end = (n - i) / 64 < 127 ? i + (n - i) / 64 * 64 : i + 127 * 64;
      __m512i bytes = zero;
      for (; i < end; i += 64)  // (the 16-bit shift leaves each byte's top six bits in its low six)
        bytes = _mm512_add_epi8(bytes, _mm512_permutexvar_epi8(_mm512_srli_epi16(load(p + i), 2), units));
      sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, zero));
    }
    count = static_cast<std::size_t>(_mm512_reduce_add_epi64(sums));
  }
  for (; n - i >= 64; i += 64) {
    const __m512i in = load(p + i);
    count += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(in, cont_limit)) +
                                      _mm_popcnt_u64(_mm512_cmpge_epu8_mask(in, four_min)));
  }
  if (i < n) {
    const std::uint64_t valid = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(n - i));
    const __m512i in = load_first(p + i, n - i);
    count += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_mask_cmpgt_epi8_mask(valid, in, cont_limit)) +
                                      _mm_popcnt_u64(_mm512_cmpge_epu8_mask(in, four_min)));
  }
  return count;
}

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

#endif
// ---- end utf8dfa/detail/simd/avx512/validate.hpp ----

#if UTF8DFA_X86_KERNELS

// GCC 12's AVX-512 intrinsics seed their results with a self-initialised "undefined" vector, which
// -Wmaybe-uninitialized reports once they are inlined (GCC bug 105593); nothing here is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx512 {

/// Output units per UTF-8 byte of well-formed text, by its high nibble: one per lead, none per
/// continuation, and for UTF-16 two per 4-byte lead.
inline constexpr std::uint8_t utf32_units_per_nibble[16] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1};
inline constexpr std::uint8_t utf16_units_per_nibble[16] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 2};

/// Units per byte of the 64 bytes `in` (by the high nibble).
UTF8DFA_TARGET_AVX512 inline __m512i units_of(__m512i table, __m512i nibble, __m512i in) noexcept {
  return _mm512_shuffle_epi8(table, _mm512_and_si512(_mm512_srli_epi16(in, 4), nibble));
}

/// The F0..FF bytes among the 3 before p + i (i >= 3): for UTF-16, step_checker counts the second
/// unit of a 4-byte character at its 4th byte, the nibble lookup at its lead.
inline std::size_t fours_before(const unsigned char* p, std::size_t i) noexcept {
  return std::size_t{p[i - 1] >= lead4_min} + std::size_t{p[i - 2] >= lead4_min} + std::size_t{p[i - 3] >= lead4_min};
}

/// The length_segment of UTF-8 (see length_common.hpp): the block checks of validate.hpp, each block
/// that passes also counted. After a first block, 256 bytes a step with one error test: ASCII steps
/// only checked for a character cut before them; others get step_checker's check and count (the
/// 4-byte part only when the step or the one before holds an F0..FF byte); then 64-byte blocks and
/// the masked tail, counted by a nibble lookup per byte as the first block is.
template <bool Utf16>
UTF8DFA_TARGET_AVX512 std::size_t utf8_units_segment(const unsigned char* p, std::size_t n,
                                                     std::size_t& count) noexcept {
  // ASCII first, before the constants are built (as check_blocks does).
  std::size_t i = ascii_prefix(p, n), ascii = i, stop = blocks_pass;
  if (n - i < 64 && (i == n || _mm512_movepi8_mask(load_first(p + i, n - i)) == 0)) {
    count = n;
    return blocks_pass;
  }
  const checker check;
  const step_checker lc;
  const __m512i table = lanes(Utf16 ? utf16_units_per_nibble : utf32_units_per_nibble);
  const __m512i zero = _mm512_setzero_si512();
  __m512i prev = zero, incomplete = zero, sums = zero;
  bool four = i == 0;       // an F0..FF byte may be in the block before the step
  if (i == 0 && n >= 64) {  // the first block: nothing before it
    const __m512i in = load(p);
    if (UTF8DFA_UNLIKELY(any(check_block(check, in, prev, incomplete)))) {
      count = 0;
      return 0;
    }
    sums = _mm512_sad_epu8(units_of(table, check.nibble, in), zero);
    i = 64;
    if (Utf16) ascii -= fours_before(p, i);
  }
  for (; n - i >= 256; i += 256) {
    const __m512i in0 = load(p + i), in1 = load(p + i + 64), in2 = load(p + i + 128), in3 = load(p + i + 192);
    const __m512i top = _mm512_max_epu8(_mm512_max_epu8(in0, in1), _mm512_max_epu8(in2, in3));
    if (_mm512_movepi8_mask(top) == 0) {
      // ASCII: an error only if a character before it is cut.
      if (UTF8DFA_UNLIKELY(p[i - 1] >= 0xC0 || p[i - 2] >= lead3_min || p[i - 3] >= lead4_min)) break;
      ascii += 256;
      four = false;
      continue;
    }
    const __m512i hi0 = lc.high(in0), hi1 = lc.high(in1), hi2 = lc.high(in2), hi3 = lc.high(in3);
    const bool has4 = _mm512_cmpge_epu8_mask(top, lc.lead4) != 0;
    std::size_t conts = 0;
    __m512i e0, e1, e2, e3;
    if (has4 || four) {
      e0 = lc.error<true, Utf16>(p + i, hi0, conts);
      e1 = lc.error<true, Utf16>(p + i + 64, hi1, conts);
      e2 = lc.error<true, Utf16>(p + i + 128, hi2, conts);
      e3 = lc.error<true, Utf16>(p + i + 192, hi3, conts);
    } else {
      e0 = lc.error<false, Utf16>(p + i, hi0, conts);
      e1 = lc.error<false, Utf16>(p + i + 64, hi1, conts);
      e2 = lc.error<false, Utf16>(p + i + 128, hi2, conts);
      e3 = lc.error<false, Utf16>(p + i + 192, hi3, conts);
    }
    const __m512i err = _mm512_ternarylogic_epi32(_mm512_or_si512(e0, e1), e2, e3, 0xFE);  // any of them
    four = has4;
    if (UTF8DFA_UNLIKELY(any(err))) break;
    ascii += 256 - conts;
  }
  if (Utf16 && i >= 64) ascii += fours_before(p, i);
  if (n - i >= 256) {
    stop = i;
  } else {
    if (i >= 64) {  // the block before: the checks below read it
      prev = load(p + i - 64);
      incomplete = ends_incomplete(prev);
    }
    for (; n - i >= 64; i += 64) {
      const __m512i in = load(p + i);
      if (UTF8DFA_UNLIKELY(any(check_block(check, in, prev, incomplete)))) break;
      sums = _mm512_add_epi64(sums, _mm512_sad_epu8(units_of(table, check.nibble, in), zero));
      prev = in;
    }
    if (n - i >= 64) {
      stop = i;
    } else if (i < n) {
      const __m512i in = load_first(p + i, n - i);
      if (UTF8DFA_UNLIKELY(any(check_block(check, in, prev, incomplete)))) {
        stop = i;
      } else {
        const __m512i live = _mm512_maskz_mov_epi8(_bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(n - i)),
                                                   units_of(table, check.nibble, in));
        sums = _mm512_add_epi64(sums, _mm512_sad_epu8(live, zero));
      }
    } else if (UTF8DFA_UNLIKELY(any(incomplete))) {
      stop = i;
    }
  }
  count = ascii + static_cast<std::size_t>(_mm512_reduce_add_epi64(sums));
  return stop;
}

/// UTF-8 bytes less one of a UTF-16 unit w (not a surrogate), by w >> 7 below 64 (2 from 64 on).
inline constexpr std::uint8_t utf16_more_by_x[64] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2,
                                                     2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                                                     2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};

/// The constants of the UTF-16 count.
struct utf16_count_constants {
  __m512i tag, high, low, x80, x800, one, two, f800, more_low, more_high;

  UTF8DFA_TARGET_AVX512 utf16_count_constants() noexcept
      : tag(opaque(_mm512_set1_epi16(static_cast<short>(0xFC00)))),
        high(opaque(_mm512_set1_epi16(static_cast<short>(0xD800)))),
        low(opaque(_mm512_set1_epi16(static_cast<short>(0xDC00)))),
        x80(opaque(_mm512_set1_epi16(0x80))),
        x800(opaque(_mm512_set1_epi16(0x800))),
        one(opaque(_mm512_set1_epi16(1))),
        two(opaque(_mm512_set1_epi16(2))),
        f800(opaque(_mm512_set1_epi16(static_cast<short>(0xF800)))),
        more_low(opaque(_mm512_loadu_si512(utf16_more_by_x))),
        more_high(opaque(_mm512_set1_epi8(2))) {}

  /// The UTF-8 bytes less one of each unit of a and b, scalar values, one per byte (in some
  /// order): (>= 0x80) + (>= 0x800), looked up by w >> 7 narrowed to a byte with signed saturation
  /// (no compares: their masks would wait on the mask ports).
  UTF8DFA_TARGET_AVX512 __m512i more(__m512i a, __m512i b) const noexcept {
    const __m512i x = _mm512_packs_epi16(_mm512_srli_epi16(a, 7), _mm512_srli_epi16(b, 7));
    return _mm512_permutex2var_epi8(more_low, x, more_high);
  }
  /// Zero in the lanes of w that hold a surrogate.
  UTF8DFA_TARGET_AVX512 __m512i not_surrogate(__m512i w) const noexcept {
    return _mm512_ternarylogic_epi32(w, f800, high, 0x6A);  // (w & f800) ^ high
  }
};

/// Adds the UTF-8 bytes of the 32 units w, less one each, to the 16-bit lanes of acc, unless a
/// surrogate is unpaired (`next`: the units one position later; lanes past the input are zero, so
/// they add nothing and a high surrogate before them is unpaired): then returns false.
UTF8DFA_TARGET_AVX512 inline bool count_utf16_block(const utf16_count_constants& k, __m512i w, __m512i next,
                                                    __m512i& acc) noexcept {
  const __mmask32 hi = _mm512_cmpeq_epi16_mask(_mm512_and_si512(w, k.tag), k.high);
  const __mmask32 lo_next = _mm512_cmpeq_epi16_mask(_mm512_and_si512(next, k.tag), k.low);
  if (UTF8DFA_UNLIKELY(hi != lo_next)) return false;
  __m512i t = _mm512_maskz_mov_epi16(_mm512_cmpge_epu16_mask(w, k.x80), k.one);
  t = _mm512_mask_add_epi16(t, _mm512_cmpge_epu16_mask(w, k.x800), t, k.one);
  acc = _mm512_add_epi16(acc, _mm512_mask_sub_epi16(t, hi, t, k.two));
  return true;
}

/// The length_segment of UTF-16: 128 units per step while they hold no surrogate (ASCII steps only
/// checked), else 32 with the pair checks, then the masked tail. Bytes are 1 + (>= 0x80) +
/// (>= 0x800), minus 2 for a high surrogate (a pair is 1 + 3); the 16-bit lanes (at most 2 a lane
/// per 32 units) are widened before they could overflow.
UTF8DFA_TARGET_AVX512 inline std::size_t utf16_bytes_segment(const char16_t* p, std::size_t n,
                                                             std::size_t& count) noexcept {
  count = 0;
  if (n == 0) return blocks_pass;
  const utf16_count_constants k;
  const __m512i zero = _mm512_setzero_si512();
  __m512i acc = zero, bytes = zero, sums = zero;
  std::size_t i = 0, flushed = 0, extra = 0, steps = 0, stop = blocks_pass;
  for (;;) {
    // Blocks of 128 units without a surrogate: nothing to pair (a high surrogate before them was
    // checked against their first unit by the step that counted it).
    while (n - i >= 128) {
      const __m512i w0 = _mm512_loadu_si512(p + i), w1 = _mm512_loadu_si512(p + i + 32);
      const __m512i w2 = _mm512_loadu_si512(p + i + 64), w3 = _mm512_loadu_si512(p + i + 96);
      if (_mm512_cmpge_epu16_mask(_mm512_or_si512(_mm512_or_si512(w0, w1), _mm512_or_si512(w2, w3)), k.x80) != 0) {
        // Zero in the lanes of a surrogate.
        const __m512i sur = _mm512_min_epu16(_mm512_min_epu16(k.not_surrogate(w0), k.not_surrogate(w1)),
                                             _mm512_min_epu16(k.not_surrogate(w2), k.not_surrogate(w3)));
        if (_mm512_testn_epi16_mask(sur, sur) != 0) break;
        bytes = _mm512_add_epi8(bytes, _mm512_add_epi8(k.more(w0, w1), k.more(w2, w3)));
        if (++steps == 60) {  // at most 4 a lane per step
          sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, zero));
          bytes = zero;
          steps = 0;
        }
      }
      i += 128;
    }
    if (n == i) break;
    // A low surrogate first must follow a high one (only the steps below check pairs).
    if ((p[i] & 0xFC00) == 0xDC00 && (i == 0 || (p[i - 1] & 0xFC00) != 0xD800)) {
      stop = i;
      break;
    }
    if (n - i <= 32) {  // the tail, masked
      const std::size_t avail = n - i;
      const __m512i w = _mm512_maskz_loadu_epi16(_bzhi_u32(~0u, static_cast<unsigned>(avail)), p + i);
      const __m512i next = _mm512_maskz_loadu_epi16(_bzhi_u32(~0u, static_cast<unsigned>(avail - 1)), p + i + 1);
      if (count_utf16_block(k, w, next, acc))
        i = n;
      else
        stop = i;
      break;
    }
    // Up to 128 units, 32 per step, with the pair checks.
    for (const std::size_t end = i + 128; i < end && n - i > 32; i += 32)
      if (UTF8DFA_UNLIKELY(!count_utf16_block(k, _mm512_loadu_si512(p + i), _mm512_loadu_si512(p + i + 1), acc))) {
        stop = i;
        break;
      }
    if (stop != blocks_pass) break;
    if (i - flushed >= 32 * 16000) {
      extra += static_cast<std::size_t>(_mm512_reduce_add_epi32(_mm512_madd_epi16(acc, k.one)));
      acc = _mm512_setzero_si512();
      flushed = i;
    }
  }
  sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, zero));
  count = i + extra + static_cast<std::size_t>(_mm512_reduce_add_epi64(sums)) +
          static_cast<std::size_t>(_mm512_reduce_add_epi32(_mm512_madd_epi16(acc, k.one)));
  return stop;
}

/// The constants of the UTF-32 count.
struct utf32_count_constants {
  __m512i sur, sur_len, top, x80, x10000, xffff, below_sur, one, f800, high16, more_low, more_high;

  UTF8DFA_TARGET_AVX512 utf32_count_constants() noexcept
      : sur(opaque(_mm512_set1_epi32(0xD800))),
        sur_len(opaque(_mm512_set1_epi32(0x800))),
        top(opaque(_mm512_set1_epi32(0x10FFFF))),
        x80(opaque(_mm512_set1_epi32(0x80))),
        x10000(opaque(_mm512_set1_epi32(0x10000))),
        xffff(opaque(_mm512_set1_epi32(0xFFFF))),
        below_sur(opaque(_mm512_set1_epi32(0xD7FF))),
        one(opaque(_mm512_set1_epi32(1))),
        f800(opaque(_mm512_set1_epi16(static_cast<short>(0xF800)))),
        high16(opaque(_mm512_set1_epi16(static_cast<short>(0xD800)))),
        more_low(opaque(_mm512_loadu_si512(utf16_more_by_x))),
        more_high(opaque(_mm512_set1_epi8(2))) {}

  /// Whether the units narrowed to 16 bits with unsigned saturation (exact below 0x10000), ab and
  /// cd, and their greatest `highest`, say scalar values: at most 0x10FFFF, not surrogates.
  UTF8DFA_TARGET_AVX512 bool scalar_values64(__m512i ab, __m512i cd, __m512i highest) const noexcept {
    // (u & 0xF800) ^ 0xD800: zero in the lanes of a surrogate.
    const __m512i least = _mm512_min_epu16(_mm512_ternarylogic_epi32(ab, f800, high16, 0x6A),
                                           _mm512_ternarylogic_epi32(cd, f800, high16, 0x6A));
    return (_mm512_testn_epi16_mask(least, least) | _mm512_cmpgt_epu32_mask(highest, top)) == 0;
  }
  /// (>= 0x80) + (>= 0x800) for each of the units narrowed to 16 bits ab and cd, one per byte (in
  /// some order), looked up by u >> 7 narrowed to a byte with signed saturation (as for UTF-16).
  UTF8DFA_TARGET_AVX512 __m512i more64(__m512i ab, __m512i cd) const noexcept {
    const __m512i x = _mm512_packs_epi16(_mm512_srli_epi16(ab, 7), _mm512_srli_epi16(cd, 7));
    return _mm512_permutex2var_epi8(more_low, x, more_high);
  }
  /// The supplementary values among the 64 units of a, b, c, d.
  UTF8DFA_TARGET_AVX512 std::size_t supplementary64(__m512i a, __m512i b, __m512i c, __m512i d) const noexcept {
    return static_cast<std::size_t>(
        _mm_popcnt_u32(_mm512_cmpgt_epu32_mask(a, xffff)) + _mm_popcnt_u32(_mm512_cmpgt_epu32_mask(b, xffff)) +
        _mm_popcnt_u32(_mm512_cmpgt_epu32_mask(c, xffff)) + _mm_popcnt_u32(_mm512_cmpgt_epu32_mask(d, xffff)));
  }

  /// The lanes holding a surrogate or a value above 0x10FFFF.
  UTF8DFA_TARGET_AVX512 __mmask16 bad(__m512i cp) const noexcept {
    return static_cast<__mmask16>(_mm512_cmplt_epu32_mask(_mm512_sub_epi32(cp, sur), sur_len) |
                                  _mm512_cmpgt_epu32_mask(cp, top));
  }
  /// The UTF-8 bytes of each unit less one: (>= 0x80) + (>= 0x800) + (>= 0x10000).
  UTF8DFA_TARGET_AVX512 __m512i more(__m512i cp) const noexcept {
    __m512i t = _mm512_maskz_mov_epi32(_mm512_cmpge_epu32_mask(cp, x80), one);
    t = _mm512_mask_add_epi32(t, _mm512_cmpge_epu32_mask(cp, sur_len), t, one);
    return _mm512_mask_add_epi32(t, _mm512_cmpge_epu32_mask(cp, x10000), t, one);
  }
};

/// Adds the UTF-8 bytes of the 16 units cp, less one each, to acc, unless one is a surrogate or
/// above 0x10FFFF: then returns false (lanes past the input are zero: they add nothing).
UTF8DFA_TARGET_AVX512 inline bool count_utf32_block(const utf32_count_constants& k, __m512i cp, __m512i& acc) noexcept {
  if (UTF8DFA_UNLIKELY(k.bad(cp) != 0)) return false;
  acc = _mm512_add_epi32(acc, k.more(cp));
  return true;
}

/// The length_segment of UTF-32, 64 units per step while the input lasts (ASCII steps only checked),
/// then 16, then the masked tail: bytes are 1 + (>= 0x80) + (>= 0x800) + (>= 0x10000); in the big
/// steps the first two are summed in bytes (at most 2 a lane per step, widened every 64 steps) and
/// the third by popcnt; a block holding a surrogate or a value above 0x10FFFF stops it.
UTF8DFA_TARGET_AVX512 inline std::size_t utf32_bytes_segment(const char32_t* p, std::size_t n,
                                                             std::size_t& count) noexcept {
  const utf32_count_constants k;
  const __m512i zero = _mm512_setzero_si512();
  __m512i acc = zero, bytes = zero, sums = zero;
  std::size_t i = 0, steps = 0, supplementary = 0, stop = blocks_pass;
  for (; n - i >= 64; i += 64) {
    const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + 16);
    const __m512i c = _mm512_loadu_si512(p + i + 32), d = _mm512_loadu_si512(p + i + 48);
    const __m512i highest = _mm512_max_epu32(_mm512_max_epu32(a, b), _mm512_max_epu32(c, d));
    if (_mm512_cmpge_epu32_mask(highest, k.x80) == 0) continue;  // ASCII: one byte each, nothing to add
    const __m512i ab = _mm512_packus_epi32(a, b), cd = _mm512_packus_epi32(c, d);
    // Below 0xD800 (most text) they are scalar values; else a surrogate or a value above 0x10FFFF
    // anywhere stops the step (the 16-unit steps find the block).
    if (_mm512_cmpgt_epu32_mask(highest, k.below_sur) != 0 && UTF8DFA_UNLIKELY(!k.scalar_values64(ab, cd, highest)))
      break;
    bytes = _mm512_add_epi8(bytes, k.more64(ab, cd));
    if (_mm512_cmpgt_epu32_mask(highest, k.xffff) != 0) supplementary += k.supplementary64(a, b, c, d);
    if (++steps == 64) {
      sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, zero));
      bytes = zero;
      steps = 0;
    }
  }
  sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, zero));
  for (; n - i >= 16; i += 16)
    if (UTF8DFA_UNLIKELY(!count_utf32_block(k, _mm512_loadu_si512(p + i), acc))) break;
  if (n - i >= 16) {
    stop = i;
  } else if (i < n) {
    const auto live = static_cast<__mmask16>(_bzhi_u32(0xFFFFu, static_cast<unsigned>(n - i)));
    if (count_utf32_block(k, _mm512_maskz_loadu_epi32(live, p + i), acc))
      i = n;
    else
      stop = i;
  }
  // At most 4 16-unit steps (within the 64-unit block that failed, or the tail) added to acc.
  count = i + supplementary + static_cast<std::size_t>(_mm512_reduce_add_epi64(sums)) +
          static_cast<std::size_t>(_mm512_reduce_add_epi32(acc));
  return stop;
}

/// Adds to the lane counters `acc` the bytes past one a unit that utf8_length_valid (scalar.hpp)
/// counts for the UTF-32 values (32-bit lanes) in u: summed apart and then added, so that `acc`
/// waits on one add a vector, not three.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i valid_add(__m512i acc, __m512i u, char32_t) noexcept {
  const __m512i one = _mm512_set1_epi32(1);
  __m512i more = _mm512_maskz_mov_epi32(_mm512_cmpgt_epu32_mask(u, _mm512_set1_epi32(0x7F)), one);
  more = _mm512_mask_add_epi32(more, _mm512_cmpgt_epu32_mask(u, _mm512_set1_epi32(0x7FF)), more, one);
  const __mmask16 supp =
      _mm512_cmplt_epu32_mask(_mm512_sub_epi32(u, _mm512_set1_epi32(0x10000)), _mm512_set1_epi32(0x100000));
  return _mm512_add_epi32(acc, _mm512_mask_add_epi32(more, supp, more, one));
}

/// The sum of valid_add's lane counters.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t valid_sum(__m512i acc, char32_t) noexcept {
  return static_cast<unsigned>(_mm512_reduce_add_epi32(acc));
}

/// utf8_length_valid (scalar.hpp) for UTF-32, on short input (under valid_below units: the 32-bit
/// lane counters take at most 16 a lane): a vector a step, the last units by a masked load, whose
/// zeros count nothing.
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE std::size_t utf8_length_valid(const In* p, std::size_t n) noexcept {
  constexpr std::size_t step = 64 / sizeof(In);
  std::size_t i = 0;
  __m512i acc = _mm512_setzero_si512();
  for (; n - i >= step; i += step) acc = valid_add(acc, _mm512_loadu_si512(p + i), In{});
  if (i < n) {
    const std::uint64_t live = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(n - i));
    if constexpr (sizeof(In) == 2)
      acc = valid_add(acc, _mm512_maskz_loadu_epi16(static_cast<__mmask32>(live), p + i), In{});
    else
      acc = valid_add(acc, _mm512_maskz_loadu_epi32(static_cast<__mmask16>(live), p + i), In{});
  }
  return n + valid_sum(acc, In{});
}

/// For valid UTF-16, by w >> 9 of a unit w (0..127): 1 from 0x800 on but for a surrogate, whose
/// pair is 4 bytes (each of its units counts 1 + 1 with the 0x80 step of valid_more64).
struct valid_more_table {
  std::uint8_t t[128]{};
};

constexpr valid_more_table build_valid_more_table() {
  valid_more_table v{};
  for (unsigned j = 0; j < 128; ++j) v.t[j] = j >= (0x800 >> 9) && (j < (0xD800 >> 9) || j > (0xDFFF >> 9)) ? 1 : 0;
  return v;
}
inline constexpr valid_more_table valid_more_lookup = build_valid_more_table();

/// The constants of valid_more64.
struct valid16_constants {
  __m512i lo, hi, one;

  UTF8DFA_TARGET_AVX512 valid16_constants() noexcept
      : lo(opaque(_mm512_loadu_si512(valid_more_lookup.t))),
        hi(opaque(_mm512_loadu_si512(valid_more_lookup.t + 64))),
        one(opaque(_mm512_set1_epi8(1))) {}
};

/// The UTF-8 bytes less one of each unit of a and b, valid UTF-16, one per byte (in some order):
/// (>= 0x80), from w >> 7 narrowed with signed saturation and capped at 1, plus valid_more_lookup by
/// w >> 9 (no compares: their masks would wait on one port). A zero unit counts nothing.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i valid_more64(const valid16_constants& k, __m512i a,
                                                                 __m512i b) noexcept {
  const __m512i ge80 = _mm512_min_epu8(_mm512_packs_epi16(_mm512_srli_epi16(a, 7), _mm512_srli_epi16(b, 7)), k.one);
  const __m512i x = _mm512_packs_epi16(_mm512_srli_epi16(a, 9), _mm512_srli_epi16(b, 9));
  return _mm512_add_epi8(ge80, _mm512_permutex2var_epi8(k.lo, x, k.hi));
}

/// utf8_length_valid (scalar.hpp) for UTF-16 at any length: 128 units a step (an ASCII step one
/// test, the others valid_more64 summed in bytes, at most 4 a lane a step, added up every 60 steps),
/// the last units by masked loads.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t utf16_valid_bytes(const char16_t* p, std::size_t n) noexcept {
  const valid16_constants k;
  const __m512i x80 = _mm512_set1_epi16(0x80), zero = _mm512_setzero_si512();
  __m512i bytes = zero;
  std::size_t i = 0, extra = 0, steps = 0;
  for (; n - i >= 128; i += 128) {
    const __m512i w0 = _mm512_loadu_si512(p + i), w1 = _mm512_loadu_si512(p + i + 32);
    const __m512i w2 = _mm512_loadu_si512(p + i + 64), w3 = _mm512_loadu_si512(p + i + 96);
    if (_mm512_cmpge_epu16_mask(_mm512_or_si512(_mm512_or_si512(w0, w1), _mm512_or_si512(w2, w3)), x80) == 0) continue;
    bytes = _mm512_add_epi8(bytes, _mm512_add_epi8(valid_more64(k, w0, w1), valid_more64(k, w2, w3)));
    if (++steps == 60) {
      extra += static_cast<std::size_t>(_mm512_reduce_add_epi64(_mm512_sad_epu8(bytes, zero)));
      bytes = zero;
      steps = 0;
    }
  }
  if (i < n) {  // up to 127 units: up to four masked loads
    const auto r = static_cast<unsigned>(n - i);
    __m512i w[4];
    for (unsigned j = 0; j < 4; ++j)
      w[j] = r > 32 * j ? _mm512_maskz_loadu_epi16(static_cast<__mmask32>(_bzhi_u32(~0u, r - 32 * j)), p + i + 32 * j)
                        : zero;
    bytes = _mm512_add_epi8(bytes, _mm512_add_epi8(valid_more64(k, w[0], w[1]), valid_more64(k, w[2], w[3])));
  }
  return n + extra + static_cast<std::size_t>(_mm512_reduce_add_epi64(_mm512_sad_epu8(bytes, zero)));
}

// The kernel-table entry points.

/// Units below which the lengths under valid_marker take utf8_length_valid (no checks), above which
/// the replace count, whose 64-unit steps are faster from about 128 units on (at 256 they were
/// 1.3-1.5x as fast on text outside ASCII; at 64, emoji, 0.7x).
inline constexpr std::size_t valid_below = 128;

/// Input lengths (min_block_input up to this) that the validating UTF-8 lengths check with
/// validate's block checks and then count as well-formed text (after their ASCII start): at 256
/// bytes 1.2-1.3x as fast as utf8_units_segment, whose 64-byte blocks each look up and sum their
/// units. Ill-formed input is then counted by utf8_units_blocks.
inline constexpr std::size_t checked_count_below = 512;

/// The UTF-16 (Utf16) or UTF-32 length of the n bytes at p when they are well-formed, else
/// blocks_pass (out of line: the entry, which short input leaves at once, saves no registers). Up
/// to short_check_max bytes checked by short_check, as validate checks them (at 256 B, against
/// simdutf icelake's validate and length: UTF-32 1.25x [0.87] -> 1.29x [0.91]).
template <bool Utf16>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE std::size_t checked_count(const unsigned char* p, std::size_t n) noexcept {
  std::size_t ascii = 0;
  if (n <= short_check_max) {  // (as validate checks it)
    if (!short_check(p, n, ascii)) return blocks_pass;
    if (ascii == n) return n;
  } else {
    ascii = ascii_prefix(p, n);
    if (ascii == n) return n;
    if (check_blocks_from<true>(p, n, ascii) != blocks_pass) return blocks_pass;
  }
  return ascii + (Utf16 ? utf16_length(p + ascii, n - ascii) : count_leads(p + ascii, n - ascii));
}

inline std::size_t utf16_length_from_utf8(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  if (n - min_block_input < checked_count_below - min_block_input) {
    const std::size_t units = checked_count<true>(p, n);
    if (units != blocks_pass) return units;
  }
  return utf8_units_blocks<true, &utf8_units_segment<true>, 256>(p, n, repl);
}

inline std::size_t utf32_length_from_utf8(const unsigned char* p, std::size_t n, char32_t repl) noexcept {
  if (n - min_block_input < checked_count_below - min_block_input) {
    const std::size_t units = checked_count<false>(p, n);
    if (units != blocks_pass) return units;
  }
  return utf8_units_blocks<false, &utf8_units_segment<false>, 256>(p, n, repl);
}

UTF8DFA_NOINLINE inline std::size_t utf8_length_from_utf16_blocks(const char16_t* p, std::size_t n,
                                                                  char32_t repl) noexcept {
  if (repl == valid_marker) return utf16_valid_bytes(p, n);
  return utf8_bytes_blocks<char16_t, &utf16_bytes_segment, 32>(p, n, repl);
}

/// The high and the low surrogates of the UTF-16 units u and their UTF-8 bytes past one a unit (a
/// high surrogate counted as 3, as any unit from 0x800 on).
struct utf16_short_block {
  std::uint32_t high, low;
  std::size_t more;
};

UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE utf16_short_block utf16_short_counts(__m512i u) noexcept {
  const __m512i top = _mm512_and_si512(u, _mm512_set1_epi16(static_cast<short>(0xFC00)));
  const std::uint32_t high = _mm512_cmpeq_epi16_mask(top, _mm512_set1_epi16(static_cast<short>(0xD800)));
  const std::uint32_t low = _mm512_cmpeq_epi16_mask(top, _mm512_set1_epi16(static_cast<short>(0xDC00)));
  const std::uint32_t ge80 = _mm512_cmpge_epu16_mask(u, _mm512_set1_epi16(0x80));
  const std::uint32_t ge800 = _mm512_cmpge_epu16_mask(u, _mm512_set1_epi16(0x800));
  return {high, low, static_cast<std::size_t>(_mm_popcnt_u32(ge80) + _mm_popcnt_u32(ge800))};
}

/// Units up to which utf8_length_from_utf16 counts without the blocks, whose constants cost a
/// shorter input more than its count.
inline constexpr std::size_t utf16_short_count_max = 512;

/// The pair check of utf8_length_from_utf16's short count on the 32 units w, only when they hold a
/// surrogate or follow a high one (`carry`): each low one right after a high one and the other way
/// round, within 32 bits of `bad` unless Last (a high surrogate last fails: bit 32, or the zero
/// loaded after it).
template <bool Last>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void pair_check16(__m512i w, std::uint64_t& carry,
                                                              std::uint64_t& bad) noexcept {
  const __mmask32 sur = _mm512_cmpeq_epi16_mask(_mm512_and_si512(w, _mm512_set1_epi16(static_cast<short>(0xF800))),
                                                _mm512_set1_epi16(static_cast<short>(0xD800)));
  if (sur == 0 && carry == 0) return;
  const std::uint32_t low = _mm512_mask_test_epi16_mask(sur, w, _mm512_set1_epi16(0x400));
  const std::uint32_t high = sur & ~low;
  const std::uint64_t mismatch = (std::uint64_t{high} << 1 | carry) ^ low;
  bad |= Last ? mismatch : mismatch & 0xFFFFFFFFu;
  carry = high >> 31;
}

/// utf8_length_from_utf16 of 65 to utf16_short_count_max units whose surrogates pair up:
/// valid_more64 and pair_check16, 64 units a step, the last step masked (out of line: the entry
/// stays a leaf that saves no registers). Any other input by the blocks.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t utf8_length_from_utf16_medium(const char16_t* p,
                                                                                        std::size_t n,
                                                                                        char32_t repl) noexcept {
  // 64 units a step, counted as utf16_valid_bytes counts them (at most 2 a byte lane a step: 16
  // steps at most), their pairs checked; the last 1..64 units by masked loads.
  const valid16_constants k;
  __m512i bytes = _mm512_setzero_si512();
  std::uint64_t bad = 0, carry = 0;
  std::size_t i = 0;
  for (; n - i > 64; i += 64) {
    const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + 32);
    bytes = _mm512_add_epi8(bytes, valid_more64(k, a, b));
    pair_check16<false>(a, carry, bad);
    pair_check16<false>(b, carry, bad);
  }
  const auto r = static_cast<unsigned>(n - i);  // 1..64
  const __m512i a = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(_bzhi_u32(~0u, r)), p + i);
  __m512i b = _mm512_setzero_si512();
  if (r > 32) {
    b = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(_bzhi_u32(~0u, r - 32)), p + i + 32);
    pair_check16<false>(a, carry, bad);
    pair_check16<true>(b, carry, bad);
  } else {
    pair_check16<true>(a, carry, bad);
  }
  bytes = _mm512_add_epi8(bytes, valid_more64(k, a, b));
  if (UTF8DFA_LIKELY(bad == 0))
    return n + static_cast<std::size_t>(_mm512_reduce_add_epi64(_mm512_sad_epu8(bytes, _mm512_setzero_si512())));
  return utf8_length_from_utf16_blocks(p, n, repl);
}

/// The kernel entry. An input of up to utf16_short_count_max units whose surrogates pair up: its
/// bytes (n, plus 1 from 0x80 on, plus 1 from 0x800 on, less 2 a pair: a pair is 3 + 3 counted as
/// 4) from one or two masked vectors by utf16_short_counts up to 64 units (no lane sum to add up),
/// above by utf8_length_from_utf16_medium. Any other input by the blocks (or, under valid_marker,
/// utf16_valid_bytes).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE inline std::size_t utf8_length_from_utf16(const char16_t* p, std::size_t n,
                                                                                   char32_t repl) noexcept {
  if (n <= 64 && repl != valid_marker) {
    const utf16_short_block a = utf16_short_counts(
        _mm512_maskz_loadu_epi16(static_cast<__mmask32>(_bzhi_u32(~0u, static_cast<unsigned>(n))), p));
    std::uint64_t high = a.high, low = a.low;
    std::size_t more = a.more;
    if (n > 32) {
      const utf16_short_block b = utf16_short_counts(
          _mm512_maskz_loadu_epi16(static_cast<__mmask32>(_bzhi_u32(~0u, static_cast<unsigned>(n - 32))), p + 32));
      high |= std::uint64_t{b.high} << 32;
      low |= std::uint64_t{b.low} << 32;
      more += b.more;
    }
    if (UTF8DFA_LIKELY((((high << 1) ^ low) | (high >> 63)) == 0))
      return n + more - 2 * static_cast<std::size_t>(_mm_popcnt_u64(high));
  } else if (n <= utf16_short_count_max && repl != valid_marker) {
    return utf8_length_from_utf16_medium(p, n, repl);
  }
  return utf8_length_from_utf16_blocks(p, n, repl);
}

/// utf8_length_from_utf32 past its short input (and short input that is not all scalar values).
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t utf8_length_from_utf32_long(const char32_t* p, std::size_t n,
                                                                                      char32_t repl) noexcept {
  // valid_marker: on long input the replace count (U+FFFD, 3 bytes, is what it counts for an error).
  if (repl == valid_marker) {
    if (n < valid_below) return utf8_length_valid(p, n);
    repl = replacement_character;
  }
  return utf8_bytes_blocks<char32_t, &utf32_bytes_segment, 16>(p, n, repl);
}

/// The UTF-8 bytes past one a unit of the 16 UTF-32 units u when they are scalar values, and the
/// lanes of those that are not (surrogates, values above 10FFFF).
struct utf32_short_block {
  std::uint32_t bad;
  std::size_t more;
};

UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE utf32_short_block utf32_short_counts(__m512i u) noexcept {
  const std::uint32_t ge80 = _mm512_cmpge_epu32_mask(u, _mm512_set1_epi32(0x80));
  const std::uint32_t ge800 = _mm512_cmpge_epu32_mask(u, _mm512_set1_epi32(0x800));
  const std::uint32_t four = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(u, _mm512_set1_epi32(0x10000)),
                                                     _mm512_set1_epi32(0x100000));  // 10000..10FFFF
  const std::uint32_t surrogate =
      _mm512_cmplt_epu32_mask(_mm512_sub_epi32(u, _mm512_set1_epi32(0xD800)), _mm512_set1_epi32(0x800));
  const std::uint32_t over = _mm512_cmpgt_epu32_mask(u, _mm512_set1_epi32(0x10FFFF));
  return {surrogate | over,
          static_cast<std::size_t>(_mm_popcnt_u32(ge80) + _mm_popcnt_u32(ge800) + _mm_popcnt_u32(four))};
}

/// The kernel entry. Up to 64 units that are all scalar values, by masked vectors of 16 in a leaf:
/// their bytes (n, plus 1 from 0x80 on, 1 from 0x800 on, 1 from 0x10000 to 0x10FFFF); at 64 B
/// against simdutf icelake 1.17x [0.91] -> 1.77x [1.14] (up to 32 units only: 1.39x). Short input
/// under valid_marker by utf8_length_valid, which the compiler vectorises, here too; any other
/// input by utf8_length_from_utf32_long.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE inline std::size_t utf8_length_from_utf32(const char32_t* p, std::size_t n,
                                                                                   char32_t repl) noexcept {
  if (repl == valid_marker) {
    if (n < valid_below) return utf8_length_valid(p, n);
  } else if (n <= 64) {
    std::size_t more = 0;
    std::uint32_t bad = 0;
    for (std::size_t i = 0; i < n; i += 16) {
      const utf32_short_block b = utf32_short_counts(
          _mm512_maskz_loadu_epi32(static_cast<__mmask16>(_bzhi_u32(0xFFFFu, static_cast<unsigned>(n - i))), p + i));
      more += b.more;
      bad |= b.bad;
    }
    if (UTF8DFA_LIKELY(bad == 0)) return n + more;
  }
  return utf8_length_from_utf32_long(p, n, repl);
}

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif
#endif
// ---- end utf8dfa/detail/simd/avx512/length.hpp ----
// ---- begin utf8dfa/detail/simd/avx512/transcode.hpp ----
// utf8dfa: AVX-512 transcoding kernels (F/BW/VL/DQ/VBMI/VBMI2). Same results as the scalar functions
// of scalar.hpp, byte for byte, for both policies: blocks that are valid go through the vector path;
// a block holding an error is re-run through the scalar DFA (decode_at, decode_utf16_at, ...) up to
// the block end and the vector path resumes behind it. Tails use masked loads and stores: nothing is
// read past the input nor written past the exact output length.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_TRANSCODE_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_TRANSCODE_HPP


#if UTF8DFA_X86_KERNELS

// GCC 12's AVX-512 intrinsics seed their results with a self-initialised "undefined" vector, which
// -Wmaybe-uninitialized / -Wuninitialized report once they are inlined (GCC bug 105593); nothing
// here is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

namespace avx512 {

/// Bits [0, k) of a 64-bit mask (k <= 64).
inline std::uint64_t low_bits(std::size_t k) noexcept {
  return k >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;
}

/// w with the two bytes of each 16-bit unit exchanged when Swap (UTF-16 in the byte order opposite
/// to the host's, as loaded or to be stored): one rotate, no constant.
template <bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i in_order16(__m512i w) noexcept {
  if constexpr (Swap)
    return _mm512_shldi_epi16(w, w, 8);
  else
    return w;
}

template <bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m256i in_order16(__m256i w) noexcept {
  if constexpr (Swap)
    return _mm256_shldi_epi16(w, w, 8);
  else
    return w;
}

/// The bytes 0, 1, .. 63.
UTF8DFA_TARGET_AVX512 inline __m512i byte_iota() noexcept {
  return _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40,
                         39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                         15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}

/// The constants of store_code_points and decode16, built once before a loop.
struct cp_constants {
  __m512i supp, high, low_bits10, low_tag, raw_bits, raw_weights, raw_fold, quad_offsets;

  UTF8DFA_TARGET_AVX512 cp_constants() noexcept
      : supp(opaque(_mm512_set1_epi32(0x10000))),
        high(opaque(_mm512_set1_epi32(0xD7C0))),
        low_bits10(opaque(_mm512_set1_epi32(0x3FF))),
        low_tag(opaque(_mm512_set1_epi32(0xDC00))),
        raw_bits(opaque(_mm512_set1_epi32(0x7F3F3F3F))),
        raw_weights(opaque(_mm512_set1_epi16(0x4001))),
        raw_fold(opaque(_mm512_set1_epi32(0x10000001))),
        quad_offsets(opaque(_mm512_set1_epi32(0x00010203))) {}
};

/// Writes up to 16 code points (valid scalar values) as UTF-32 or UTF-16 (its bytes exchanged when Swap).
template <bool Swap = false, class Out>
UTF8DFA_TARGET_AVX512 inline Out* store_code_points(const cp_constants& k, Out* o, __m512i cp,
                                                    unsigned count) noexcept {
  const auto live = static_cast<__mmask16>(low_bits(count));
  if constexpr (sizeof(Out) == 4) {
    _mm512_mask_storeu_epi32(o, live, cp);
    return o + count;
  } else {
    const __mmask16 supp = _mm512_mask_cmpge_epu32_mask(live, cp, k.supp);
    if (supp == 0) {
      _mm256_mask_storeu_epi16(o, live, in_order16<Swap>(_mm512_cvtepi32_epi16(cp)));
      return o + count;
    }
    // A supplementary code point becomes the dword (low surrogate << 16 | high surrogate).
    const __m512i hi = _mm512_add_epi32(_mm512_srli_epi32(cp, 10), k.high);
    const __m512i lo = _mm512_or_si512(_mm512_and_si512(cp, k.low_bits10), k.low_tag);
    const __m512i words = _mm512_mask_blend_epi32(supp, cp, _mm512_or_si512(hi, _mm512_slli_epi32(lo, 16)));
    const auto keep = static_cast<__mmask32>(_pdep_u32(live, 0x55555555u) | _pdep_u32(supp, 0xAAAAAAAAu));
    const unsigned units = static_cast<unsigned>(__builtin_popcount(keep));
    _mm512_mask_storeu_epi16(o, static_cast<__mmask32>(low_bits(units)),
                             _mm512_maskz_compress_epi16(keep, in_order16<Swap>(words)));
    return o + units;
  }
}

/// Decodes the 16 characters of the valid block v whose lead positions are the bytes of `pos`
/// selected by `quads` (each dword: one index, four times).
UTF8DFA_TARGET_AVX512 inline __m512i decode16(const cp_constants& k, __m512i v, __m512i pos, __m512i quads,
                                              __m512i shifts, __m512i masks) noexcept {
  // Bytes lead+3, lead+2, lead+1, lead from low to high: the lead ends up in the top byte.
  const __m512i idx = _mm512_add_epi8(_mm512_permutexvar_epi8(quads, pos), k.quad_offsets);
  const __m512i raw = _mm512_permutexvar_epi8(idx, v);
  const __m512i bits = _mm512_and_si512(raw, k.raw_bits);
  const __m512i pairs = _mm512_maddubs_epi16(bits, k.raw_weights);  // b3 + b2 * 64
  const __m512i value = _mm512_madd_epi16(pairs, k.raw_fold);       // .. + b1b0 * 4096
  const __m512i nibble = _mm512_srli_epi32(raw, 28);
  return _mm512_and_si512(_mm512_srlv_epi32(value, _mm512_permutexvar_epi32(nibble, shifts)),
                          _mm512_permutexvar_epi32(nibble, masks));
}

/// Writes the first `count` (0..32, more is cut) of the 32 code points in cp0, cp1 (as store_code_points).
template <bool Swap = false, class Out>
UTF8DFA_TARGET_AVX512 inline Out* store_code_points2(const cp_constants& k, Out* o, __m512i cp0, __m512i cp1,
                                                     unsigned count) noexcept {
  const unsigned n0 = count < 16 ? count : 16u, n1 = count < 16 ? 0u : count < 32 ? count - 16 : 16u;
  if constexpr (sizeof(Out) == 2) {
    const __mmask16 supp = _mm512_mask_cmpge_epu32_mask(static_cast<__mmask16>(low_bits(n0)), cp0, k.supp) |
                           _mm512_mask_cmpge_epu32_mask(static_cast<__mmask16>(low_bits(n1)), cp1, k.supp);
    if (supp == 0) {  // one store of up to 32 units
      const __m512i words =
          _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(cp0)), _mm512_cvtepi32_epi16(cp1), 1);
      _mm512_mask_storeu_epi16(o, static_cast<__mmask32>(low_bits(n0 + n1)), in_order16<Swap>(words));
      return o + n0 + n1;
    }
  }
  return store_code_points<Swap>(k, store_code_points<Swap>(k, o, cp0, n0), cp1, n1);
}

/// The constants of decode_block, beyond cp_constants.
struct gather_constants {
  __m512i iota, quads, shifts, masks;

  UTF8DFA_TARGET_AVX512 gather_constants() noexcept
      : iota(byte_iota()),
        quads(_mm512_set_epi8(15, 15, 15, 15, 14, 14, 14, 14, 13, 13, 13, 13, 12, 12, 12, 12, 11, 11, 11, 11, 10, 10,
                              10, 10, 9, 9, 9, 9, 8, 8, 8, 8, 7, 7, 7, 7, 6, 6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3,
                              3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0)),
        // Lead-byte high nibble -> right shift and payload mask of the gathered value (8..B never lead).
        shifts(_mm512_setr_epi32(18, 18, 18, 18, 18, 18, 18, 18, 0, 0, 0, 0, 12, 12, 6, 0)),
        masks(_mm512_setr_epi32(0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0, 0, 0, 0, 0x7FF, 0x7FF, 0xFFFF,
                                0x1FFFFF)) {}
};

/// Writes the characters of the valid block v that start at the bits of `starts` (ASCII bytes and
/// leads), each decoded from its 4 bytes gathered into a dword (any form: the path of blocks with a
/// 4-byte one); returns the end of the output.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE Out* decode_block(const cp_constants& cpk, const gather_constants& g,
                                                              __m512i v, std::uint64_t starts, Out* o) noexcept {
  const auto chars = static_cast<unsigned>(__builtin_popcountll(starts));
  const __m512i pos = _mm512_maskz_compress_epi8(starts, g.iota);
  // Text of mostly 4-byte forms has at most 16 characters a block, one group of 16.
  if (chars <= 16) return store_code_points<Swap>(cpk, o, decode16(cpk, v, pos, g.quads, g.shifts, g.masks), chars);
  o = store_code_points2<Swap>(cpk, o, decode16(cpk, v, pos, g.quads, g.shifts, g.masks),
                               decode16(cpk, v, pos, _mm512_add_epi8(g.quads, _mm512_set1_epi8(16)), g.shifts, g.masks),
                               chars);
  if (UTF8DFA_UNLIKELY(chars > 32))
    o = store_code_points2<Swap>(
        cpk, o, decode16(cpk, v, pos, _mm512_add_epi8(g.quads, _mm512_set1_epi8(32)), g.shifts, g.masks),
        decode16(cpk, v, pos, _mm512_add_epi8(g.quads, _mm512_set1_epi8(48)), g.shifts, g.masks), chars - 32);
  return o;
}

/// The constants of decode_bmp, built once before a loop.
struct bmp_constants {
  __m512i payload, weights, low6, ascii;

  UTF8DFA_TARGET_AVX512 bmp_constants() noexcept
      : payload(opaque(_mm512_set1_epi16(0x3F1F))),
        weights(opaque(_mm512_set1_epi16(0x0140))),
        low6(opaque(_mm512_set1_epi16(0x3F))),
        ascii(opaque(_mm512_set1_epi16(0x7F))) {}
};

/// Decodes, in each 16-bit lane holding (byte, next byte) in `pairs` and the byte after them in the
/// low byte of `thirds`, the 1-, 2- or 3-byte form starting there; `multi` selects the lanes whose
/// first byte is not ASCII, `three` those whose form is 3 bytes long.
UTF8DFA_TARGET_AVX512 inline __m512i decode_bmp(const bmp_constants& k, __m512i pairs, __m512i thirds, __mmask32 multi,
                                                __mmask32 three) noexcept {
  // (b0 & 1F) * 64 + (b1 & 3F): the 2-byte value; a 3-byte lead has bit 4 clear, so shifting this by
  // 6 in a 16-bit lane leaves (b0 & 0F) << 12 | (b1 & 3F) << 6, and b2's payload completes it.
  const __m512i two = _mm512_maddubs_epi16(_mm512_and_si512(pairs, k.payload), k.weights);
  const __m512i full = _mm512_ternarylogic_epi32(_mm512_slli_epi16(two, 6), thirds, k.low6, 0xF8);  // a | b & c
  return _mm512_mask_blend_epi16(three, _mm512_mask_blend_epi16(multi, _mm512_and_si512(pairs, k.ascii), two), full);
}

/// Writes the BMP code points of the first `count` 16-bit lanes selected by `sel`, packed, as UTF-32
/// or UTF-16. (`sel` may select more lanes after those: a mask straight from a compare, taken
/// without a round trip through a general register, which is slow on AMD Zen 5.) UTF-16 has its
/// bytes exchanged when Swap.
template <bool Swap = false, class Out>
UTF8DFA_TARGET_AVX512 inline Out* store_units(Out* o, __m512i units, __mmask32 sel, unsigned count) noexcept {
  if constexpr (sizeof(Out) == 2) {
    const __m512i packed = _mm512_maskz_compress_epi16(sel, in_order16<Swap>(units));
    _mm512_mask_storeu_epi16(o, static_cast<__mmask32>(low_bits(count)), packed);
  } else {
    const __m512i packed = _mm512_maskz_compress_epi16(sel, units);
    const unsigned n0 = count < 16 ? count : 16u;
    _mm512_mask_storeu_epi32(o, static_cast<__mmask16>(low_bits(n0)),
                             _mm512_cvtepu16_epi32(_mm512_castsi512_si256(packed)));
    _mm512_mask_storeu_epi32(o + 16, static_cast<__mmask16>(low_bits(count - n0)),
                             _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(packed, 1)));
  }
  return o + count;
}

/// Widens the 32 ASCII bytes at q to 32 units at o (UTF-32, or UTF-16 with its bytes exchanged when
/// Swap). Each widening reads its bytes from memory: one load and one shuffle-port uop, where a lane
/// extract from a register would be a second.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void widen_ascii32(Out* o, const unsigned char* q) noexcept {
  if constexpr (sizeof(Out) == 4) {
    _mm512_storeu_si512(o, _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q))));
    _mm512_storeu_si512(o + 16, _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 16))));
  } else {
    _mm512_storeu_si512(
        o, in_order16<Swap>(_mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q)))));
  }
}

/// Widens the first n (at most 64) bytes of v, ASCII (`live`: their mask), to units at o with masked
/// stores: nothing is written past o + n.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void widen_ascii_first(Out* o, __m512i v, std::size_t n,
                                                                   __mmask64 live) noexcept {
  if constexpr (sizeof(Out) == 2) {
    _mm512_mask_storeu_epi16(o, static_cast<__mmask32>(live),
                             in_order16<Swap>(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(v))));
    if (n > 32)
      _mm512_mask_storeu_epi16(o + 32, static_cast<__mmask32>(live >> 32),
                               in_order16<Swap>(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1))));
  } else {
    _mm512_mask_storeu_epi32(o, static_cast<__mmask16>(live), _mm512_cvtepu8_epi32(_mm512_castsi512_si128(v)));
    if (n > 16)
      _mm512_mask_storeu_epi32(o + 16, static_cast<__mmask16>(live >> 16),
                               _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 1)));
    if (n > 32) {
      _mm512_mask_storeu_epi32(o + 32, static_cast<__mmask16>(live >> 32),
                               _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 2)));
      _mm512_mask_storeu_epi32(o + 48, static_cast<__mmask16>(live >> 48),
                               _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 3)));
    }
  }
}

/// 64-bit word e of the byte permute that puts bytes (base + j, base + j + 1) in 16-bit lane j.
constexpr long long lane_pair_word(int base, int e) noexcept {
  unsigned long long v = 0;
  for (int t = 0; t < 4; ++t) {
    const auto j = static_cast<unsigned long long>(base + 4 * e + t);
    v |= (j & 63) << (16 * t) | ((j + 1) & 63) << (16 * t + 8);
  }
  return static_cast<long long>(v);
}

/// The lane_pair_word permute of `base`.
template <int Base>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i lane_pairs() noexcept {
  return _mm512_set_epi64(lane_pair_word(Base, 7), lane_pair_word(Base, 6), lane_pair_word(Base, 5),
                          lane_pair_word(Base, 4), lane_pair_word(Base, 3), lane_pair_word(Base, 2),
                          lane_pair_word(Base, 1), lane_pair_word(Base, 0));
}

/// The leads C2..DF of v, when v (`high`: its bytes 80..FF) holds no byte E0..FF, and whether its
/// 2-byte forms are well-formed: every continuation right after a lead and every lead but one at
/// bit 63 right before one. Set in the result: the bytes that break this (a C0, C1 or F5..FF byte
/// is neither; a lead before the end of a shorter block wants the zero loaded past it).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::uint64_t two_byte_errors(__m512i v, std::uint64_t high,
                                                                          std::uint64_t& lead) noexcept {
  lead = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8(static_cast<char>(0xC2))), _mm512_set1_epi8(0x1E));
  const std::uint64_t cont = _mm512_mask_cmplt_epu8_mask(high, v, _mm512_set1_epi8(static_cast<char>(0xC0)));
  return (high & ~lead & ~cont) | ((lead << 1) ^ cont);
}

/// Decodes the block v (from a character boundary; `high` and `lead` its bytes 80..FF and its
/// leads, no byte E0..FF, well-formed by two_byte_errors) up to byte `take`: its length, less one
/// when a whole block ends in a lead (which waits for the next block; read from memory by the
/// caller, so that the next block's address waits on a short chain).
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void two_byte_block(const bmp_constants& k, __m512i v, std::uint64_t high,
                                                                std::uint64_t lead, std::size_t take,
                                                                transcode_cursor<Out>& c) noexcept {
  // The characters' first bytes: ASCII and leads, not the zeros loaded past a shorter block.
  const std::uint64_t starts = (~high | lead) & low_bits(take);
  const auto count0 = static_cast<unsigned>(_mm_popcnt_u32(static_cast<std::uint32_t>(starts)));
  const auto count1 = static_cast<unsigned>(_mm_popcnt_u32(static_cast<std::uint32_t>(starts >> 32)));
  c.o = store_units<Swap>(c.o,
                          decode_bmp(k, _mm512_permutexvar_epi8(lane_pairs<0>(), v), _mm512_setzero_si512(),
                                     static_cast<__mmask32>(high), 0),
                          static_cast<__mmask32>(starts), count0);
  c.o = store_units<Swap>(c.o,
                          decode_bmp(k, _mm512_permutexvar_epi8(lane_pairs<32>(), v), _mm512_setzero_si512(),
                                     static_cast<__mmask32>(high >> 32), 0),
                          static_cast<__mmask32>(starts >> 32), count1);
  c.i += take;
}

/// A valid input of 64 bytes or fewer, converted in one masked block without the block loop's setup
/// (which costs more than such an input). False, with nothing written, for any other input: one
/// with an error, or (unless Supplementary) with a 4-byte form. (The entry points leave 4-byte forms
/// to utf8_short_supplementary: decoding them inline made the entries save registers on every call.)
template <bool Swap, bool Supplementary, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool utf8_short_to_units(const unsigned char* p, std::size_t n, Out* out,
                                                                     packed_conversion& r) noexcept {
  if (n > 64) return false;
  const auto live = static_cast<__mmask64>(low_bits(n));
  const __m512i v = _mm512_maskz_loadu_epi8(live, p);
  const std::uint64_t high = _mm512_movepi8_mask(v);
  if (high == 0) {
    widen_ascii_first<Swap>(out, v, n, live);
    r = {n, n, error_code::none};
    return true;
  }
  const std::uint64_t ge_e0 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xE0)));
  if (ge_e0 == 0) {
    // Leads C2..DF, continuations 80..BF: each continuation right after a lead and the other way
    // round, no lead last (a lead at n - 1 wants a continuation at n, where the load put a zero).
    std::uint64_t lead;
    if ((two_byte_errors(v, high, lead) | (lead >> 63)) != 0) return false;
  } else {
    // 3- and 4-byte forms too: the block check (a form cut by the end of the input is an error there,
    // the load having put zeros after it; with 64 bytes, a lead among the last three that needs more
    // is one too).
    const std::uint64_t ge_f0 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xF0)));
    if (!Supplementary && ge_f0 != 0) return false;
    const std::uint64_t ge_c0 = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(static_cast<char>(0xC0)));
    if (((ge_c0 >> 63) | (ge_e0 >> 62) | (ge_f0 >> 61)) != 0 || utf8_block_checker().has_error(v, ge_e0, ge_f0))
      return false;
    if (Supplementary && ge_f0 != 0) {  // decoded as the block loop decodes a block with a 4-byte form
      const std::uint64_t starts = _mm512_mask_cmpge_epi8_mask(live, v, _mm512_set1_epi8(static_cast<char>(0xC0)));
      r = {n, static_cast<std::size_t>(decode_block<Swap>(cp_constants(), gather_constants(), v, starts, out) - out),
           error_code::none};
      return true;
    }
  }
  const bmp_constants k;
  // The characters' first bytes: ASCII and leads (signed, at or above C0).
  const std::uint64_t starts = _mm512_mask_cmpge_epi8_mask(live, v, _mm512_set1_epi8(static_cast<char>(0xC0)));
  const auto count0 = static_cast<unsigned>(_mm_popcnt_u32(static_cast<std::uint32_t>(starts)));
  const auto count1 = static_cast<unsigned>(_mm_popcnt_u32(static_cast<std::uint32_t>(starts >> 32)));
  const __m512i thirds0 = ge_e0 == 0 ? _mm512_setzero_si512() : _mm512_permutexvar_epi8(lane_pairs<2>(), v);
  Out* o = store_units<Swap>(out,
                             decode_bmp(k, _mm512_permutexvar_epi8(lane_pairs<0>(), v), thirds0,
                                        static_cast<__mmask32>(high), static_cast<__mmask32>(ge_e0)),
                             static_cast<__mmask32>(starts), count0);
  if (n > 32) {
    const __m512i thirds1 = ge_e0 == 0 ? _mm512_setzero_si512() : _mm512_permutexvar_epi8(lane_pairs<34>(), v);
    o = store_units<Swap>(o,
                          decode_bmp(k, _mm512_permutexvar_epi8(lane_pairs<32>(), v), thirds1,
                                     static_cast<__mmask32>(high >> 32), static_cast<__mmask32>(ge_e0 >> 32)),
                          static_cast<__mmask32>(starts >> 32), count1);
  }
  r = {n, static_cast<std::size_t>(o - out), error_code::none};
  return true;
}

/// UTF-8 to UTF-32 or UTF-16, from byte `start` on (the end of the ASCII bytes the caller has
/// written, one output unit each). Blocks of 64 bytes start on a character boundary; a valid block is
/// decoded up to its last complete character by gathering each character's 4 bytes into a dword.
/// UTF-16 is written with the bytes of each unit exchanged when Swap.
template <bool Strict, class Out, bool Swap = false>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion utf8_to_utf_impl(const unsigned char* p, std::size_t n,
                                                                          Out* out, char32_t replacement,
                                                                          std::size_t start) noexcept {
  transcode_cursor<Out> c{start, out + start, error_code::none};
  // Blocks of ASCII and 2-byte forms, then a valid rest of up to 64 bytes without a 4-byte form,
  // each before the constants of the next are built: those of the block loop took a fifth of the
  // time of a 256-byte conversion.
  const bmp_constants bmp;
  const __m512i e0 = opaque(_mm512_set1_epi8(static_cast<char>(0xE0)));
  while (n - c.i >= 64) {
    const __m512i v = _mm512_loadu_si512(p + c.i);
    const std::uint64_t high = _mm512_movepi8_mask(v);
    if (high == 0) {
      widen_ascii32<Swap>(c.o, p + c.i);
      widen_ascii32<Swap>(c.o + 32, p + c.i + 32);
      c.i += 64;
      c.o += 64;
      continue;
    }
    std::uint64_t lead;
    if (_mm512_cmpge_epu8_mask(v, e0) != 0 || two_byte_errors(v, high, lead) != 0) break;
    two_byte_block<Swap>(bmp, v, high, lead, 64u - (p[c.i + 63] >= 0xC0), c);
  }
  if (n - c.i <= 64 && c.i != 0) {  // (the entry points try an input of up to 64 bytes whole)
    if (c.i == n) return {n, static_cast<std::size_t>(c.o - out), error_code::none};
    packed_conversion r;
    if (utf8_short_to_units<Swap, false>(p + c.i, n - c.i, c.o, r))
      return {n, static_cast<std::size_t>(c.o - out) + r.written, error_code::none};
  }
  const char32_t repl = kernel_repl(replacement);
  // Byte indices (k, k+1) and (k+2, k+3) for the positions k = 0..31 and 32..63 (wrapping past 63:
  // never needed by a lead that is taken).
  const __m512i pairs_lo = lane_pairs<0>(), pairs_hi = lane_pairs<32>();
  const __m512i thirds_lo = lane_pairs<2>(), thirds_hi = lane_pairs<34>();
  // The constants of the loop's paths, built here once (see opaque).
  const utf8_block_checker checker;
  const cp_constants cpk;
  const gather_constants gather;
  const __m512i f0 = opaque(_mm512_set1_epi8(static_cast<char>(0xF0)));
  const __m512i c0 = opaque(_mm512_set1_epi8(static_cast<char>(0xC0)));
  while (c.i < n) {
    const std::size_t avail = n - c.i < 64 ? n - c.i : 64;
    const __mmask64 live = low_bits(avail);
    const __m512i v = _mm512_maskz_loadu_epi8(live, p + c.i);
    const __mmask64 high = _mm512_movepi8_mask(v);
    if (avail == 64 && static_cast<std::uint32_t>(high) == 0) {  // the first half is ASCII: widen it
      widen_ascii32<Swap>(c.o, p + c.i);
      c.o += 32;
      c.i += 32;
      if (high == 0) {  // and the second
        widen_ascii32<Swap>(c.o, p + c.i);
        c.o += 32;
        c.i += 32;
        // The ASCII run that follows, 64 bytes per step.
        for (; n - c.i >= 64; c.i += 64, c.o += 64) {
          const __m512i a = _mm512_loadu_si512(p + c.i);
          if (_mm512_movepi8_mask(a) != 0) break;
          widen_ascii32<Swap>(c.o, p + c.i);
          widen_ascii32<Swap>(c.o + 32, p + c.i + 32);
        }
      }
      continue;
    }
    if (high == 0) {  // a short ASCII tail: widen with masked stores
      widen_ascii_first<Swap>(c.o, v, avail, live);
      c.o += avail;
      c.i += avail;
      continue;
    }
    const __mmask64 ge_e0 = _mm512_cmpge_epu8_mask(v, e0);
    const __mmask64 ge_f0 = _mm512_cmpge_epu8_mask(v, f0);
    if (ge_e0 == 0) {  // 1- and 2-byte forms only: checked with masks
      std::uint64_t lead;
      if (UTF8DFA_LIKELY(two_byte_errors(v, high, lead) == 0)) {
        two_byte_block<Swap>(bmp, v, high, lead, avail == 64 ? 64u - (p[c.i + 63] >= 0xC0) : avail, c);
        continue;
      }
    } else if (UTF8DFA_LIKELY(!checker.has_error(v, ge_e0, ge_f0))) {
      // The lead bytes (with, in a final block, the zero bytes past the input: past the characters).
      const __mmask64 leads = _mm512_cmpge_epi8_mask(v, c0);
      // A character cut by the block end (a lead among the last 1..3 bytes that needs more) waits for
      // the next block; in a shorter, final block it would have been an error. Read from memory
      // rather than from the masks: the next block's address then waits on a short chain.
      std::size_t take = avail;
      if (avail == 64) {
        const unsigned b61 = p[c.i + 61], b62 = p[c.i + 62], b63 = p[c.i + 63];
        take = b63 >= 0xC0 ? 63u : b62 >= 0xE0 ? 62u : b61 >= 0xF0 ? 61u : 64u;
      }
      const __mmask64 starts = leads & low_bits(take);
      const auto count0 = static_cast<unsigned>(__builtin_popcount(static_cast<std::uint32_t>(starts)));
      const auto count1 = static_cast<unsigned>(__builtin_popcountll(starts >> 32));
      if (ge_f0 == 0) {
        // 1-, 2- and 3-byte forms only: each position's (byte, next byte) and the byte after as 16-bit
        // lanes, decoded there, and the lanes at lead positions packed.
        c.o = store_units<Swap>(
            c.o,
            decode_bmp(bmp, _mm512_permutexvar_epi8(pairs_lo, v), _mm512_permutexvar_epi8(thirds_lo, v),
                       static_cast<__mmask32>(high), static_cast<__mmask32>(ge_e0)),
            static_cast<__mmask32>(leads), count0);
        c.o = store_units<Swap>(
            c.o,
            decode_bmp(bmp, _mm512_permutexvar_epi8(pairs_hi, v), _mm512_permutexvar_epi8(thirds_hi, v),
                       static_cast<__mmask32>(high >> 32), static_cast<__mmask32>(ge_e0 >> 32)),
            static_cast<__mmask32>(leads >> 32), count1);
        c.i += take;
        continue;
      }
      // Only blocks holding a 4-byte form come here.
      c.o = decode_block<Swap>(cpk, gather, v, starts, c.o);
      c.i += take;
      continue;
    }
    UTF8DFA_LEAVE_AVX();
    if (!scalar_region_in_order<Strict, Swap>(p, n, c.i + avail, c, repl))
      return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  }
  return {n, static_cast<std::size_t>(c.o - out), c.first};
}

/// Writes the UTF-8 form of the 16 scalar values in `cp` selected by `keep`, in order.
UTF8DFA_TARGET_AVX512 inline unsigned char* encode16(unsigned char* o, __m512i cp, __mmask16 keep) noexcept {
  const __mmask16 one = _mm512_cmplt_epu32_mask(cp, _mm512_set1_epi32(0x80));
  const __mmask16 two = _mm512_cmplt_epu32_mask(cp, _mm512_set1_epi32(0x800));
  const __mmask16 three = _mm512_cmplt_epu32_mask(cp, _mm512_set1_epi32(0x10000));
  // The 4-byte payload fields, first byte lowest: cp>>18, cp>>12 & 3F, cp>>6 & 3F, cp & 3F.
  const __m512i spread =
      _mm512_or_si512(_mm512_or_si512(_mm512_and_si512(_mm512_slli_epi32(cp, 24), _mm512_set1_epi32(0x3F000000)),
                                      _mm512_and_si512(_mm512_slli_epi32(cp, 10), _mm512_set1_epi32(0x003F0000))),
                      _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(cp, 4), _mm512_set1_epi32(0x00003F00)),
                                      _mm512_srli_epi32(cp, 18)));
  // Shorter forms drop the leading fields; then the RFC 3629 tag bits.
  __m512i shift = _mm512_mask_mov_epi32(_mm512_setzero_si512(), three, _mm512_set1_epi32(8));
  shift = _mm512_mask_mov_epi32(shift, two, _mm512_set1_epi32(16));
  __m512i tag =
      _mm512_mask_mov_epi32(_mm512_set1_epi32(static_cast<int>(0x808080F0u)), three, _mm512_set1_epi32(0x008080E0));
  tag = _mm512_mask_mov_epi32(tag, two, _mm512_set1_epi32(0x000080C0));
  __m512i bytes = _mm512_or_si512(_mm512_srlv_epi32(spread, shift), tag);
  bytes = _mm512_mask_mov_epi32(bytes, one, cp);
  // Every byte of a multi-byte form is nonzero; the first byte of each dword is always kept.
  const std::uint64_t nibbles = _pdep_u64(keep, 0x1111111111111111ull) * 0xF;
  const __mmask64 sel = (_mm512_test_epi8_mask(bytes, bytes) | 0x1111111111111111ull) & nibbles;
  const unsigned count = static_cast<unsigned>(__builtin_popcountll(sel));
  _mm512_mask_storeu_epi8(o, low_bits(count), _mm512_maskz_compress_epi8(sel, bytes));
  return o + count;
}

/// The constants of the UTF-16/UTF-32 to UTF-8 encoders (16-bit lanes unless said otherwise), made
/// once per call. Each is passed through an empty asm statement, which hides its value from the
/// compiler: GCC otherwise rebuilds a vector constant at each use inside the loop from an immediate
/// (mov, vpbroadcastw: a port-5 uop, the port the permutes and compresses also need).
struct encode_consts {
  __m512i x80, x800, xD800, xFC00, xDC00;   // classification
  __m512i x80C0, x3F00, xC000, x80E0, x3F;  // tags and payload fields
  __m512i x3FF, x40, x80F0, x30, x0F;       // surrogate pairs
  __m512i dw_idx0, dw_idx1;                 // pack_triples: (first | last << 16) as dwords, units 0..15, 16..31
  __m512i even;                             // bytes 0, 2, .. 126
  __m512i x00800000;                        // pack_triples: the sign bit of each dword's third byte
  __m512i short_fields, x3F1F;              // encode_short32: multishift offsets (6, 0 of each lane), masks
  // 16 aligned pairs (encode_pairs16, 32-bit lanes): payload masks, the madd factors (1024, 1), 10000,
  // the multishift fields (18, 12, 6, 0 of each dword), the field masks and the tag bits.
  __m512i pair_payload, pair_madd, x10000, pair_fields, x3F3F3F3F, x808080F0;
};

/// 64 bytes of a vector constant, made at compile time (x86 is little-endian).
struct vector_bytes {
  unsigned char b[64];
};

/// The value v (of `width` bytes) in every lane.
constexpr vector_bytes splat_bytes(std::uint64_t v, unsigned width) noexcept {
  vector_bytes r{};
  for (unsigned i = 0; i < 64; ++i) r.b[i] = static_cast<unsigned char>(v >> (8 * (i % width)));
  return r;
}

/// pack_triples' byte indices: dword j takes the bytes 2j, 2j+1 of `first` and of `last` (+64),
/// offset by `base` units.
constexpr vector_bytes triple_indices(unsigned base) noexcept {
  vector_bytes r{};
  for (unsigned j = 0; j < 16; ++j) {
    r.b[4 * j] = static_cast<unsigned char>(2 * (base + j));
    r.b[4 * j + 1] = static_cast<unsigned char>(2 * (base + j) + 1);
    r.b[4 * j + 2] = static_cast<unsigned char>(64 + 2 * (base + j));
    r.b[4 * j + 3] = static_cast<unsigned char>(65 + 2 * (base + j));
  }
  return r;
}

/// The bytes 0, 2, .. 126.
constexpr vector_bytes even_bytes() noexcept {
  vector_bytes r{};
  for (unsigned i = 0; i < 64; ++i) r.b[i] = static_cast<unsigned char>(2 * i);
  return r;
}

/// The vector holding the bytes of v.
UTF8DFA_TARGET_AVX512 constexpr __m512i as_vector(const vector_bytes& v) noexcept {
  long long q[8]{};
  for (unsigned i = 0; i < 64; ++i)
    q[i / 8] = static_cast<long long>(static_cast<unsigned long long>(q[i / 8]) |
                                      (static_cast<unsigned long long>(v.b[i]) << (8 * (i % 8))));
  return __m512i{q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]};
}

UTF8DFA_TARGET_AVX512 constexpr __m512i splat16(std::uint16_t v) noexcept {
  return as_vector(splat_bytes(v, 2));
}

UTF8DFA_TARGET_AVX512 constexpr __m512i splat32(std::uint32_t v) noexcept {
  return as_vector(splat_bytes(v, 4));
}

/// The encoder constants, in memory. A call loads those its blocks use (loads folded into the
/// instructions, no ALU work): building all of them in registers first, and spilling them for the
/// out-of-line block functions, cost a short input more than its conversion.
inline constexpr encode_consts encode_table = {splat16(0x80),
                                               splat16(0x800),
                                               splat16(0xD800),
                                               splat16(0xFC00),
                                               splat16(0xDC00),
                                               splat16(0x80C0),
                                               splat16(0x3F00),
                                               splat16(0xC000),
                                               splat16(0x80E0),
                                               splat16(0x3F),
                                               splat16(0x3FF),
                                               splat16(0x40),
                                               splat16(0x80F0),
                                               splat16(0x30),
                                               splat16(0x0F),
                                               as_vector(triple_indices(0)),
                                               as_vector(triple_indices(16)),
                                               as_vector(even_bytes()),
                                               splat32(0x00800000),
                                               as_vector(splat_bytes(0x3036202610160006, 8)),
                                               splat16(0x3F1F),
                                               splat32(0x03FF03FF),
                                               splat32(0x00010400),
                                               splat32(0x10000),
                                               as_vector(splat_bytes(0x20262C3200060C12, 8)),
                                               splat32(0x3F3F3F3F),
                                               splat32(0x808080F0u)};

/// encode_table, its address hidden from the compiler: GCC would otherwise rebuild the values from
/// immediates (mov, vpbroadcast: a port-5 uop) instead of loading them.
inline const encode_consts& encode_constants() noexcept {
  const encode_consts* k = &encode_table;
  __asm__("" : "+r"(k));
  return *k;
}

/// Writes the UTF-8 forms of the code points below U+0800 in the first `units` 16-bit lanes of w (32
/// unless Tail; the others are zero); `two` marks the lanes at or above U+0080. One compress: the
/// bytes kept are those with the sign bit set (both bytes of a 2-byte form) and every low byte.
template <bool Tail>
UTF8DFA_TARGET_AVX512 inline unsigned char* encode_short32(unsigned char* o, __m512i w, __mmask32 two,
                                                           std::size_t units, const encode_consts& k) noexcept {
  // Per unit: lead byte low, continuation byte high (RFC 3629 section 3), or the ASCII byte.
  // One multishift puts w >> 6 (below 20 here) in the low byte and w in the high byte of each lane.
  const __m512i fields = _mm512_multishift_epi64_epi8(k.short_fields, w);
  const __m512i forms =
      _mm512_mask_blend_epi16(two, w, _mm512_ternarylogic_epi32(fields, k.x3F1F, k.x80C0, 0xEA));  // a & b | c
  // Each low byte is kept: its sign bit is forced in the copy the mask is taken from.
  __mmask64 keep = _mm512_movepi8_mask(_mm512_or_si512(forms, k.x80));
  if (Tail) keep = _kand_mask64(keep, _cvtu64_mask64(low_bits(2 * units)));
  // The byte count from `two` (known early), not from `keep`: the next block's output address then
  // does not wait for this block's multishift and mask chain (short inputs are latency-bound).
  const auto count = static_cast<unsigned>(units) + static_cast<unsigned>(__builtin_popcount(two));
  _mm512_mask_storeu_epi8(o, _bzhi_u64(~std::uint64_t{0}, count), _mm512_maskz_compress_epi8(keep, forms));
  return o + count;
}

/// Writes, for each of the first `units` (32 unless Tail) of 32 units in order, the bytes of its
/// `first` lane that have the sign bit set (low byte, then high byte) and the low byte of its `last`
/// lane: the lanes are interleaved as dwords and the bytes packed with one compress per 16 units.
template <bool Tail>
UTF8DFA_TARGET_AVX512 inline unsigned char* pack_triples(unsigned char* o, __m512i first, __m512i last,
                                                         std::size_t units, const encode_consts& k,
                                                         unsigned known0 = ~0u, unsigned known1 = ~0u) noexcept {
  const __m512i dw0 = _mm512_permutex2var_epi8(first, k.dw_idx0, last);
  const __m512i dw1 = _mm512_permutex2var_epi8(first, k.dw_idx1, last);
  // The high byte of a `last` lane is zero (never kept); its low byte is always kept: its sign bit is
  // forced in the copies the masks are taken from.
  __mmask64 keep0 = _mm512_movepi8_mask(_mm512_or_si512(dw0, k.x00800000));
  __mmask64 keep1 = _mm512_movepi8_mask(_mm512_or_si512(dw1, k.x00800000));
  if (Tail) {
    const std::size_t u0 = units < 16 ? units : 16;
    keep0 = _kand_mask64(keep0, _cvtu64_mask64(low_bits(4 * u0)));
    keep1 = _kand_mask64(keep1, _cvtu64_mask64(low_bits(4 * (units - u0))));
  }
  // The caller may know the byte counts (`known0`, `known1`) before the masks are ready.
  const auto count0 = known0 != ~0u ? known0 : static_cast<unsigned>(__builtin_popcountll(_cvtmask64_u64(keep0)));
  const auto count1 = known1 != ~0u ? known1 : static_cast<unsigned>(__builtin_popcountll(_cvtmask64_u64(keep1)));
  _mm512_mask_storeu_epi8(o, _bzhi_u64(~std::uint64_t{0}, count0), _mm512_maskz_compress_epi8(keep0, dw0));
  _mm512_mask_storeu_epi8(o + count0, _bzhi_u64(~std::uint64_t{0}, count1), _mm512_maskz_compress_epi8(keep1, dw1));
  return o + count0 + count1;
}

/// The `first` lanes of pack_triples for the BMP scalar values of w: E0 | w >> 12 low and
/// 80 | (w >> 6 & 3F) high in a 3-byte form (`three`), 0 low and C0 | w >> 6 high in a 2-byte form
/// (`two` without `three`), bytes with the sign bit clear otherwise.
UTF8DFA_TARGET_AVX512 inline __m512i first_bytes(__m512i w, __mmask32 two, __mmask32 three,
                                                 const encode_consts& k) noexcept {
  // (w >> 6 & 3F) << 8 | w >> 12: below U+0800 the low byte is zero and the high byte w >> 6.
  const __m512i bare =
      _mm512_ternarylogic_epi32(_mm512_slli_epi16(w, 2), k.x3F00, _mm512_srli_epi16(w, 12), 0xEA);  // a & b | c
  return _mm512_mask_add_epi16(_mm512_mask_add_epi16(bare, two, bare, k.xC000), three, bare, k.x80E0);
}

/// The `last` lanes of pack_triples: w itself below 80, else 80 | (w & 3F) (the smaller of the two).
UTF8DFA_TARGET_AVX512 inline __m512i last_bytes(__m512i w, const encode_consts& k) noexcept {
  return _mm512_min_epu16(w, _mm512_ternarylogic_epi32(w, k.x3F, k.x80, 0xEA));
}

/// Writes the UTF-8 forms of the BMP scalar values (no surrogates) in the first `units` 16-bit lanes of
/// w (32 unless Tail; the others are zero); `two` marks the lanes at or above U+0080, `three` those at
/// or above U+0800. Each unit becomes the dword (3-byte lead, the byte before the last, the last byte,
/// 0), built in 16-bit lanes; the bytes its form uses are packed with one compress per 16 units.
/// With `Whole3`, 32 3-byte forms skip the compress (the test is one kortest on `three`; CJK text
/// has long runs of such blocks).
template <bool Whole3, bool Tail>
UTF8DFA_TARGET_AVX512 inline unsigned char* encode_bmp32(unsigned char* o, __m512i w, __mmask32 two, __mmask32 three,
                                                         std::size_t units, const encode_consts& k) noexcept {
  const __m512i first = first_bytes(w, two, three, k);
  const __m512i last = last_bytes(w, k);
  if (Whole3 && three == 0xFFFFFFFFu) {  // 32 3-byte forms: 96 bytes in a fixed order, no compress
    const __m512i head =
        _mm512_set_epi8(42, 104, 41, 40, 102, 39, 38, 100, 37, 36, 98, 35, 34, 96, 33, 32, 94, 31, 30, 92, 29, 28, 90,
                        27, 26, 88, 25, 24, 86, 23, 22, 84, 21, 20, 82, 19, 18, 80, 17, 16, 78, 15, 14, 76, 13, 12, 74,
                        11, 10, 72, 9, 8, 70, 7, 6, 68, 5, 4, 66, 3, 2, 64, 1, 0);
    const __m512i rest = _mm512_set_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                         0, 0, 0, 0, 0, 0, 126, 63, 62, 124, 61, 60, 122, 59, 58, 120, 57, 56, 118, 55,
                                         54, 116, 53, 52, 114, 51, 50, 112, 49, 48, 110, 47, 46, 108, 45, 44, 106, 43);
    _mm512_storeu_si512(o, _mm512_permutex2var_epi8(first, head, last));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 64),
                        _mm512_castsi512_si256(_mm512_permutex2var_epi8(first, rest, last)));
    return o + 96;
  }
  // 1 + (>= 80) + (>= 800) bytes per unit (lanes past the units are zero: in neither mask).
  const std::size_t u0 = units < 16 ? units : 16;
  const auto count0 = static_cast<unsigned>(u0) + static_cast<unsigned>(__builtin_popcount(two & 0xFFFFu)) +
                      static_cast<unsigned>(__builtin_popcount(three & 0xFFFFu));
  const auto count1 = static_cast<unsigned>(units - u0) + static_cast<unsigned>(__builtin_popcount(two >> 16)) +
                      static_cast<unsigned>(__builtin_popcount(three >> 16));
  return pack_triples<Tail>(o, first, last, units, k, count0, count1);
}

/// Writes the UTF-8 forms of the first `units` units of w (the others are zero), where `high` marks the
/// high surrogates (each followed by a low one, marked by `low`, among those units) and `next` holds
/// the unit after each one; `two` and `three` as in encode_bmp32. As encode_bmp32, with the 4-byte form
/// of a pair split between its lanes: F0 | u >> 8, 80 | (u >> 2 & 3F), 80 | (u & 3) << 4 | (lo >> 6 & F)
/// in the high surrogate's (u is its payload plus 40: the plane, then the rest) and 80 | (lo & 3F) in
/// the low one's, whose `first` lane keeps no byte.
template <bool Tail>
UTF8DFA_TARGET_AVX512 inline unsigned char* encode_pairs32(unsigned char* o, __m512i w, __m512i next, __mmask32 two,
                                                           __mmask32 three, __mmask32 high, __mmask32 low,
                                                           std::size_t units, const encode_consts& k) noexcept {
  const __m512i u = _mm512_add_epi16(_mm512_and_si512(w, k.x3FF), k.x40);
  const __m512i lead =
      _mm512_ternarylogic_epi32(_mm512_slli_epi16(u, 6), k.x3F00, _mm512_or_si512(_mm512_srli_epi16(u, 8), k.x80F0),
                                0xEA);  // a & b | c
  const __m512i third = _mm512_ternarylogic_epi32(
      _mm512_slli_epi16(u, 4), k.x30, _mm512_ternarylogic_epi32(_mm512_srli_epi16(next, 6), k.x0F, k.x80, 0xEA), 0xEA);
  // A low surrogate's `first` lane, untagged, has the sign bits clear (D | (w >> 6 & 3F) << 8).
  const __m512i first = _mm512_mask_blend_epi16(high, first_bytes(w, two & ~low, three & ~low, k), lead);
  const __m512i last = _mm512_mask_blend_epi16(high, last_bytes(w, k), third);
  return pack_triples<Tail>(o, first, last, units, k);
}

/// Writes the UTF-8 forms of the 16 surrogate pairs of w (high surrogates in the even lanes): each
/// pair, a dword, becomes its code point (madd of the payloads, plus 10000) and then its 4 bytes, the
/// fields picked by one multishift. 64 bytes, no compress.
UTF8DFA_TARGET_AVX512 inline unsigned char* encode_pairs16(unsigned char* o, __m512i w,
                                                           const encode_consts& k) noexcept {
  const __m512i cp = _mm512_add_epi32(_mm512_madd_epi16(_mm512_and_si512(w, k.pair_payload), k.pair_madd), k.x10000);
  _mm512_storeu_si512(o, _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(k.pair_fields, cp), k.x3F3F3F3F,
                                                   k.x808080F0, 0xEA));  // a & b | c
  return o + 64;
}

/// Converts the block of `avail` units at p (32 unless Tail; w holds them, zero past them) that is not
/// all ASCII (`two` marks its units at or above U+0080). Returns the units converted (the block, or
/// all but its last unit when that is a high surrogate of a pair cut by the block end), or minus the
/// units to run through the scalar path when the block holds an unpaired surrogate.
template <bool Tail, bool Swap = false>
UTF8DFA_TARGET_AVX512 inline std::ptrdiff_t utf16_block(const char16_t* p, std::size_t avail, __m512i w, __mmask32 two,
                                                        unsigned char*& o, const encode_consts& k) noexcept {
  const __mmask32 three = _mm512_cmpge_epu16_mask(w, k.x800);
  if (three == 0) {  // 1- and 2-byte forms only
    o = encode_short32<Tail>(o, w, two, avail, k);
    return static_cast<std::ptrdiff_t>(avail);
  }
  if (_mm512_cmplt_epu16_mask(_mm512_sub_epi16(w, k.xD800), k.x800) == 0) {  // BMP only, no surrogates
    o = encode_bmp32<!Tail, Tail>(o, w, two, three, avail, k);
    return static_cast<std::ptrdiff_t>(avail);
  }
  const __m512i top = _mm512_and_si512(w, k.xFC00);
  auto high = static_cast<std::uint32_t>(_mm512_cmpeq_epi16_mask(top, k.xD800));
  const auto low = static_cast<std::uint32_t>(_mm512_cmpeq_epi16_mask(top, k.xDC00));
  std::size_t take = avail;
  if (!Tail && (high >> 31) != 0) {  // the pair is cut by the block end
    high &= 0x7FFFFFFFu;
    take = 31;
  }
  if (UTF8DFA_UNLIKELY(low != (high << 1))) return -static_cast<std::ptrdiff_t>(take);
  if (!Tail && high == 0x55555555u) {  // 16 pairs, as text of supplementary characters only gives
    o = encode_pairs16(o, w, k);
    return 32;
  }
  const __m512i next = in_order16<Swap>(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(low_bits(avail - 1)), p + 1));
  // A cut pair's high surrogate lies past `take`: pack_triples drops it (a tail, for it).
  if (!Tail && take == 31) {
    o = encode_pairs32<true>(o, w, next, two, three, high, low, take, k);
  } else {
    o = encode_pairs32<Tail>(o, w, next, two, three, high, low, take, k);
  }
  return static_cast<std::ptrdiff_t>(take);
}

/// After utf16_block returned `took` for the block at c.i: its units taken, or (took <= 0) the
/// units it left converted by the scalar code; false when that stopped at an error (strict).
template <bool Strict, bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool take_block(const char16_t* p, std::size_t n, std::ptrdiff_t took,
                                                            transcode_cursor<unsigned char>& c,
                                                            char32_t repl) noexcept {
  if (UTF8DFA_LIKELY(took > 0)) {
    c.i += static_cast<std::size_t>(took);
    return true;
  }
  UTF8DFA_LEAVE_AVX();
  return scalar_region_in_order<Strict, Swap>(p, n, c.i + static_cast<std::size_t>(-took), c, repl);
}

/// UTF-16 to UTF-8, 32 units at a time (surrogate pairs combined in-register; a pair cut by the
/// block end waits for the next block; a block holding an unpaired surrogate goes scalar). With Swap,
/// the units are stored in the byte order opposite to the host's: exchanged as loaded.
template <bool Strict, bool Swap = false>
UTF8DFA_TARGET_AVX512 packed_conversion utf16_to_utf8_impl(const char16_t* p, std::size_t n, unsigned char* out,
                                                           char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  // A short input (up to 64 units) block by block here, each loaded once: an ASCII one stored before
  // the constants are made (longer inputs amortise them and take the 64-unit ASCII loop below), the
  // others by utf16_block (masked for the last).
  if (n <= 64) {
    do {
      const std::size_t avail = n - c.i < 32 ? n - c.i : 32;
      const auto live = static_cast<__mmask32>(low_bits(avail));
      const __m512i w = in_order16<Swap>(_mm512_maskz_loadu_epi16(live, p + c.i));
      const __mmask32 two = _mm512_cmpge_epu16_mask(w, _mm512_set1_epi16(0x80));
      if (two == 0) {
        _mm256_mask_storeu_epi8(c.o, live, _mm512_cvtepi16_epi8(w));
        c.i += avail;
        c.o += avail;
        continue;
      }
      const encode_consts& k = encode_constants();
      // (A whole block, last or not, as in the loop below: a pair cut by its end waits.)
      const std::ptrdiff_t took = avail < 32 ? utf16_block<true, Swap>(p + c.i, avail, w, two, c.o, k)
                                             : utf16_block<false, Swap>(p + c.i, 32, w, two, c.o, k);
      if (!take_block<Strict, Swap>(p, n, took, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
    } while (c.i < n);
    return {n, static_cast<std::size_t>(c.o - out), c.first};
  }
  const encode_consts& k = encode_constants();
  while (n - c.i >= 32) {
    const __m512i w = in_order16<Swap>(_mm512_loadu_si512(p + c.i));
    const __mmask32 two = _mm512_cmpge_epu16_mask(w, k.x80);
    if (two == 0) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.o), _mm512_cvtepi16_epi8(w));
      c.i += 32;
      c.o += 32;
      // The ASCII run that follows, 64 units per step: the low bytes picked by one permute.
      while (n - c.i >= 64) {
        const __m512i w0 = in_order16<Swap>(_mm512_loadu_si512(p + c.i));
        const __m512i w1 = in_order16<Swap>(_mm512_loadu_si512(p + c.i + 32));
        if (_mm512_cmpge_epu16_mask(_mm512_or_si512(w0, w1), k.x80) != 0) break;
        _mm512_storeu_si512(c.o, _mm512_permutex2var_epi8(w0, k.even, w1));
        c.i += 64;
        c.o += 64;
      }
      continue;
    }
    const std::ptrdiff_t took = utf16_block<false, Swap>(p + c.i, 32, w, two, c.o, k);
    if (!take_block<Strict, Swap>(p, n, took, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  }
  if (c.i < n) {  // the last 1..31 units (lanes past them are zero)
    const std::size_t avail = n - c.i;
    const __m512i w = in_order16<Swap>(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(low_bits(avail)), p + c.i));
    const __mmask32 two = _mm512_cmpge_epu16_mask(w, k.x80);
    if (two == 0) {
      _mm256_mask_storeu_epi8(c.o, static_cast<__mmask32>(low_bits(avail)), _mm512_cvtepi16_epi8(w));
      c.o += avail;
    } else {
      const std::ptrdiff_t took = utf16_block<true, Swap>(p + c.i, avail, w, two, c.o, k);
      if (took <= 0 && !scalar_region_in_order<Strict, Swap>(p, n, n, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
    }
  }
  return {n, static_cast<std::size_t>(c.o - out), c.first};
}

/// True when no lane of cp is a surrogate or above U+10FFFF (zero lanes pass).
UTF8DFA_TARGET_AVX512 inline bool all_scalar_values(__m512i cp) noexcept {
  return (_mm512_cmplt_epu32_mask(_mm512_sub_epi32(cp, _mm512_set1_epi32(0xD800)), _mm512_set1_epi32(0x800)) |
          _mm512_cmpgt_epu32_mask(cp, _mm512_set1_epi32(0x10FFFF))) == 0;
}

/// UTF-32 to UTF-8, 32 units at a time; a block holding a surrogate or a value above U+10FFFF goes
/// scalar (its first 16 units, then the vector path resumes).
template <bool Strict>
UTF8DFA_TARGET_AVX512 packed_conversion utf32_to_utf8_impl(const char32_t* p, std::size_t n, unsigned char* out,
                                                           char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  // A short input that is ASCII returns before the constants are made (longer ones amortise them and
  // take the 64-unit ASCII loop below).
  while (n <= 64) {
    const std::size_t avail = n - c.i < 32 ? n - c.i : 32;
    const std::size_t a0 = avail < 16 ? avail : 16;
    const __m512i cp = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(low_bits(a0)), p + c.i);
    const __m512i cp1 = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(low_bits(avail - a0)), p + c.i + 16);
    if (_mm512_cmpge_epu32_mask(_mm512_or_si512(cp, cp1), _mm512_set1_epi32(0x80)) != 0) break;
    _mm256_mask_storeu_epi8(
        c.o, static_cast<__mmask32>(low_bits(avail)),
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_cvtepi32_epi8(cp)), _mm512_cvtepi32_epi8(cp1), 1));
    c.i += avail;
    c.o += avail;
    if (c.i == n) return {n, static_cast<std::size_t>(c.o - out), c.first};
  }
  const encode_consts& k = encode_constants();
  while (c.i < n) {
    const std::size_t avail = n - c.i < 32 ? n - c.i : 32;
    const std::size_t a0 = avail < 16 ? avail : 16;
    const auto live = static_cast<__mmask16>(low_bits(a0));
    const __m512i cp = _mm512_maskz_loadu_epi32(live, p + c.i);
    const __m512i cp1 = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(low_bits(avail - a0)), p + c.i + 16);
    const __m512i top = _mm512_max_epu32(cp, cp1);
    if (_mm512_cmpge_epu32_mask(top, _mm512_set1_epi32(0x80)) == 0) {
      _mm256_mask_storeu_epi8(
          c.o, static_cast<__mmask32>(low_bits(avail)),
          _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_cvtepi32_epi8(cp)), _mm512_cvtepi32_epi8(cp1), 1));
      c.i += avail;
      c.o += avail;
      // The ASCII run that follows, 64 units per step: the low bytes picked by byte permutes.
      const __m512i even = _mm512_add_epi8(byte_iota(), byte_iota());
      const __m512i fourth = _mm512_add_epi8(even, even);  // 0, 4, .. 124 in the low half (the rest unused)
      while (n - c.i >= 64) {
        const __m512i u0 = _mm512_loadu_si512(p + c.i), u1 = _mm512_loadu_si512(p + c.i + 16);
        const __m512i u2 = _mm512_loadu_si512(p + c.i + 32), u3 = _mm512_loadu_si512(p + c.i + 48);
        const __m512i any = _mm512_or_si512(_mm512_or_si512(u0, u1), _mm512_or_si512(u2, u3));
        if (_mm512_cmpge_epu32_mask(any, _mm512_set1_epi32(0x80)) != 0) break;
        _mm512_storeu_si512(c.o,
                            _mm512_inserti64x4(_mm512_permutex2var_epi8(u0, fourth, u1),
                                               _mm512_castsi512_si256(_mm512_permutex2var_epi8(u2, fourth, u3)), 1));
        c.i += 64;
        c.o += 64;
      }
      continue;
    }
    if (_mm512_cmpge_epu32_mask(top, _mm512_set1_epi32(0x800)) == 0) {  // 1- and 2-byte forms only
      const __m512i words =
          _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(cp)), _mm512_cvtepi32_epi16(cp1), 1);
      const __mmask32 two = _mm512_cmpge_epu16_mask(words, k.x80);
      c.o =
          avail == 32 ? encode_short32<false>(c.o, words, two, 32, k) : encode_short32<true>(c.o, words, two, avail, k);
      c.i += avail;
      continue;
    }
    if (_mm512_cmpge_epu32_mask(top, _mm512_set1_epi32(0x10000)) == 0) {  // BMP: 16-bit lanes
      const __m512i words =
          _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(cp)), _mm512_cvtepi32_epi16(cp1), 1);
      const __m512i sur = _mm512_sub_epi16(words, _mm512_set1_epi16(static_cast<short>(0xD800)));
      if (UTF8DFA_LIKELY(_mm512_cmplt_epu16_mask(sur, _mm512_set1_epi16(0x800)) == 0)) {
        const __mmask32 two = _mm512_cmpge_epu16_mask(words, k.x80);
        const __mmask32 three = _mm512_cmpge_epu16_mask(words, k.x800);
        c.o = avail == 32 ? encode_bmp32<true, false>(c.o, words, two, three, 32, k)
                          : encode_bmp32<true, true>(c.o, words, two, three, avail, k);
        c.i += avail;
        continue;
      }
    }
    if (UTF8DFA_UNLIKELY(!all_scalar_values(cp) || !all_scalar_values(cp1))) {
      UTF8DFA_LEAVE_AVX();
      if (!scalar_region<Strict>(p, n, c.i + a0, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    c.o = encode16(c.o, cp, live);
    c.o = encode16(c.o, cp1, static_cast<__mmask16>(low_bits(avail - a0)));
    c.i += avail;
  }
  return {n, static_cast<std::size_t>(c.o - out), c.first};
}

// The kernel-table entry points (`replacement == strict_marker` means strict).

/// utf8_to_utf_impl by policy, from byte `start` on.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE packed_conversion utf8_to_utf_from(const unsigned char* p, std::size_t n,
                                                                               Out* out, char32_t replacement,
                                                                               std::size_t start) noexcept {
  return replacement == strict_marker ? utf8_to_utf_impl<true, Out, Swap>(p, n, out, replacement, start)
                                      : utf8_to_utf_impl<false, Out, Swap>(p, n, out, replacement, start);
}

/// An input of up to 64 bytes that the entry points' short path does not take: one masked block with
/// a 4-byte form, or else (an error) the block loop.
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion utf8_short_supplementary(const unsigned char* p, std::size_t n,
                                                                                  Out* out,
                                                                                  char32_t replacement) noexcept {
  packed_conversion r;
  if (utf8_short_to_units<Swap, true>(p, n, out, r)) return r;
  return utf8_to_utf_from<Swap>(p, n, out, replacement, 0);
}

/// UTF-8 to UTF-32 or UTF-16 (its bytes exchanged when Swap), from the kernel table: an input of
/// up to 64 bytes in one masked block when it can, a longer one's ASCII blocks here, the rest by
/// utf8_to_utf_impl. The ASCII blocks come first, before any constant of the other paths is built
/// and with no call between the kernel table and them: each call level cost 1.5-3 ns on 256 ASCII
/// bytes, timed alone outside the benchmark (docs/performance.md, the round of the ASCII blocks of AVX-512 UTF-8
/// decoding).
template <bool Swap, class Out>
UTF8DFA_TARGET_AVX512 inline packed_conversion utf8_to_units(const unsigned char* p, std::size_t n, Out* out,
                                                             char32_t replacement) noexcept {
  std::size_t i = 0;
  if (n > 64) {
    do {
      if (_mm512_movepi8_mask(_mm512_loadu_si512(p + i)) != 0) break;
      widen_ascii32<Swap>(out + i, p + i);
      widen_ascii32<Swap>(out + i + 32, p + i + 32);
      i += 64;
    } while (n - i >= 64);
    if (i == n) return {n, n, error_code::none};
  } else {
    packed_conversion r;
    if (utf8_short_to_units<Swap, false>(p, n, out, r)) return r;
    return utf8_short_supplementary<Swap>(p, n, out, replacement);
  }
  return utf8_to_utf_from<Swap>(p, n, out, replacement, i);
}

UTF8DFA_TARGET_AVX512 inline packed_conversion utf8_to_utf32(const unsigned char* p, std::size_t n, char32_t* out,
                                                             char32_t replacement) noexcept {
  return utf8_to_units<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX512 inline packed_conversion utf8_to_utf16(const unsigned char* p, std::size_t n, char16_t* out,
                                                             char32_t replacement) noexcept {
  return utf8_to_units<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX512 inline packed_conversion utf16_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                                             char32_t replacement) noexcept {
  return replacement == strict_marker ? utf16_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf16_to_utf8_impl<false>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX512 inline packed_conversion utf32_to_utf8(const char32_t* p, std::size_t n, unsigned char* out,
                                                             char32_t replacement) noexcept {
  return replacement == strict_marker ? utf32_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf32_to_utf8_impl<false>(p, n, out, replacement);
}

// UTF-16 in the byte order opposite to the host's.

UTF8DFA_TARGET_AVX512 inline packed_conversion utf8_to_utf16_swapped(const unsigned char* p, std::size_t n,
                                                                     char16_t* out, char32_t replacement) noexcept {
  return utf8_to_units<true>(p, n, out, replacement);
}

UTF8DFA_TARGET_AVX512 inline packed_conversion utf16_swapped_to_utf8(const char16_t* p, std::size_t n,
                                                                     unsigned char* out,
                                                                     char32_t replacement) noexcept {
  return replacement == strict_marker ? utf16_to_utf8_impl<true, true>(p, n, out, replacement)
                                      : utf16_to_utf8_impl<false, true>(p, n, out, replacement);
}

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif
#endif
// ---- end utf8dfa/detail/simd/avx512/transcode.hpp ----
// ---- begin utf8dfa/detail/simd/avx512/units.hpp ----
// utf8dfa: AVX-512 kernels for Latin-1 and UTF-16 / UTF-32 input (F/BW/VL/VBMI/VBMI2). Same results
// as the scalar functions of units.hpp: a block that holds an error (or, into Latin-1, a character
// above U+00FF) is run through the scalar code up to its end and the vector loop resumes behind it.
// Tails use masked loads and stores: nothing is read past the input nor written past the output.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_UNITS_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_UNITS_HPP


#if UTF8DFA_X86_KERNELS

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx512 {

/// The low `k` bits set (k <= 255: bzhi reads the low 8 bits of its index, and leaves every bit
/// set from the width on).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __mmask16 mask16(std::size_t k) noexcept {
  return static_cast<__mmask16>(_bzhi_u32(0xFFFFu, static_cast<unsigned>(k)));
}
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __mmask32 mask32(std::size_t k) noexcept {
  return static_cast<__mmask32>(_bzhi_u32(~0u, static_cast<unsigned>(k)));
}
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __mmask64 mask64(std::size_t k) noexcept {
  return static_cast<__mmask64>(_bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(k)));
}

// ---- Latin-1 to UTF-8 -----------------------------------------------------------------------

/// 64-bit word e of the byte permute that puts byte j in byte 2j and byte 32 + j in byte 2j + 1.
constexpr long long pair_halves_word(int e) noexcept {
  unsigned long long v = 0;
  for (int t = 0; t < 4; ++t) {
    const auto j = static_cast<unsigned long long>(4 * e + t);
    v |= j << (16 * t) | (32 + j) << (16 * t + 8);
  }
  return static_cast<long long>(v);
}

/// The UTF-8 of 64 Latin-1 bytes `x` with `high` (their bytes 80..FF) not zero, with whole-vector
/// stores: the caller has at least 128 bytes of room at `o`. One byte permute pairs byte j with byte
/// 32 + j in a 16-bit lane; each half then makes every byte c a little-endian word [lead, tail]: lead
/// C2 and tail c for c < C0, lead C3 and tail c - 40 above (c's two top bits move into the lead); an
/// ASCII byte keeps only its tail, which is c itself.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE unsigned char* widen_latin1_64(unsigned char* o, __m512i x,
                                                                           std::uint64_t high) noexcept {
  const __m512i y = _mm512_permutexvar_epi8(
      _mm512_set_epi64(pair_halves_word(7), pair_halves_word(6), pair_halves_word(5), pair_halves_word(4),
                       pair_halves_word(3), pair_halves_word(2), pair_halves_word(1), pair_halves_word(0)),
      x);
  const __m512i c2 = _mm512_set1_epi16(0xC2);
  const __m512i up = _mm512_set1_epi16(1 - 0x4000);  // lead C2 -> C3, tail c -> c - 40
  const std::uint64_t top = _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(static_cast<char>(0xC0)));
  const __m512i a0 = _mm512_or_si512(_mm512_slli_epi16(y, 8), c2);
  const __m512i a = _mm512_mask_add_epi16(a0, static_cast<__mmask32>(top), a0, up);
  const __m512i b0 = _mm512_or_si512(_mm512_and_si512(y, _mm512_set1_epi16(static_cast<short>(0xFF00))), c2);
  const __m512i b = _mm512_mask_add_epi16(b0, static_cast<__mmask32>(top >> 32), b0, up);
  const auto lo = static_cast<std::uint32_t>(high), hi = static_cast<std::uint32_t>(high >> 32);
  const std::uint64_t keep_a = 0xAAAAAAAAAAAAAAAAull | _pdep_u64(lo, 0x5555555555555555ull);
  const std::uint64_t keep_b = 0xAAAAAAAAAAAAAAAAull | _pdep_u64(hi, 0x5555555555555555ull);
  _mm512_storeu_si512(o, _mm512_maskz_compress_epi8(static_cast<__mmask64>(keep_a), a));
  o += 32 + _mm_popcnt_u32(lo);
  _mm512_storeu_si512(o, _mm512_maskz_compress_epi8(static_cast<__mmask64>(keep_b), b));
  return o + 32 + _mm_popcnt_u32(hi);
}

/// widen_latin1_64 for the first `k` (<= 64) bytes of x (zero past k) with masked stores: exactly the
/// UTF-8 of those k bytes is written.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE unsigned char* widen_latin1_64_tail(unsigned char* o, __m512i x,
                                                                                std::uint64_t high,
                                                                                std::size_t k) noexcept {
  const __m512i y = _mm512_permutexvar_epi8(
      _mm512_set_epi64(pair_halves_word(7), pair_halves_word(6), pair_halves_word(5), pair_halves_word(4),
                       pair_halves_word(3), pair_halves_word(2), pair_halves_word(1), pair_halves_word(0)),
      x);
  const __m512i c2 = _mm512_set1_epi16(0xC2);
  const __m512i up = _mm512_set1_epi16(1 - 0x4000);
  const std::uint64_t top = _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(static_cast<char>(0xC0)));
  const __m512i a0 = _mm512_or_si512(_mm512_slli_epi16(y, 8), c2);
  const __m512i a = _mm512_mask_add_epi16(a0, static_cast<__mmask32>(top), a0, up);
  const auto lo = static_cast<std::uint32_t>(high), hi = static_cast<std::uint32_t>(high >> 32);
  const std::uint64_t keep_a = 0xAAAAAAAAAAAAAAAAull | _pdep_u64(lo, 0x5555555555555555ull);
  const std::size_t na = (k < 32 ? k : 32) + static_cast<std::size_t>(_mm_popcnt_u32(lo));
  _mm512_mask_storeu_epi8(o, mask64(na), _mm512_maskz_compress_epi8(static_cast<__mmask64>(keep_a), a));
  o += na;
  if (k <= 32) return o;
  const __m512i b0 = _mm512_or_si512(_mm512_and_si512(y, _mm512_set1_epi16(static_cast<short>(0xFF00))), c2);
  const __m512i b = _mm512_mask_add_epi16(b0, static_cast<__mmask32>(top >> 32), b0, up);
  const std::uint64_t keep_b = 0xAAAAAAAAAAAAAAAAull | _pdep_u64(hi, 0x5555555555555555ull);
  const std::size_t nb = (k - 32) + static_cast<std::size_t>(_mm_popcnt_u32(hi));
  _mm512_mask_storeu_epi8(o, mask64(nb), _mm512_maskz_compress_epi8(static_cast<__mmask64>(keep_b), b));
  return o + nb;
}

/// The UTF-8 of the k (1 to 64) Latin-1 bytes at p, with a masked load and masked stores: exactly
/// that UTF-8 is written at o. Returns the end of it.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE unsigned char* latin1_to_utf8_masked(const unsigned char* p, std::size_t k,
                                                                                 unsigned char* o) noexcept {
  const auto live = static_cast<__mmask64>(low_bits(k));
  const __m512i x = _mm512_maskz_loadu_epi8(live, p);
  const std::uint64_t high = _mm512_movepi8_mask(x);
  if (high == 0) {
    _mm512_mask_storeu_epi8(o, live, x);
    return o + k;
  }
  return widen_latin1_64_tail(o, x, high, k);
}

/// Latin-1 to UTF-8 of more than 64 bytes. While 128 or more input bytes remain, the output (exactly
/// sized, at least a byte per input byte) has room for two whole vectors: whole-vector loads and
/// stores; then masked ones.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t latin1_to_utf8_long(const unsigned char* p, std::size_t n,
                                                                              unsigned char* out) noexcept {
  unsigned char* o = out;
  std::size_t i = 0;
  for (; n - i >= 128; i += 64) {
    const __m512i x = _mm512_loadu_si512(p + i);
    const std::uint64_t high = _mm512_movepi8_mask(x);
    if (high == 0) {
      _mm512_storeu_si512(o, x);
      o += 64;
    } else {
      o = widen_latin1_64(o, x, high);
    }
  }
  while (i < n) {
    const std::size_t k = n - i < 64 ? n - i : 64;
    o = latin1_to_utf8_masked(p + i, k, o);
    i += k;
  }
  return static_cast<std::size_t>(o - out);
}

/// Latin-1 to UTF-8: up to 64 bytes by one masked block, in a leaf that saves no registers (the
/// loop above, which does, by a tail call).
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE inline std::size_t latin1_to_utf8(
    const unsigned char* p, std::size_t n, unsigned char* out) noexcept {
  if (n > 64) return latin1_to_utf8_long(p, n, out);
  if (n == 0) return 0;  // (a masked store of nothing can cost a fault assist)
  return static_cast<std::size_t>(latin1_to_utf8_masked(p, n, out) - out);
}

// ---- UTF-8 to Latin-1 -----------------------------------------------------------------------

/// UTF-8 to Latin-1 under Policy: blocks of ASCII and C2/C3 pairs in vectors, the others scalar.
/// A pair cut by a block's end is carried: the lead is dropped in its block, and the next block
/// writes the character at its continuation byte (80..BF, or C0..FF after a C3 lead: 40 added).
/// Every block is whole (64 bytes) but the last, so the loads stay on the alignment they started on.
/// From byte `start` on: the end of the ASCII bytes the caller has copied.
template <class Policy>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion utf8_to_latin1_by(const unsigned char* p, std::size_t n,
                                                                           unsigned char* out, unsigned char repl,
                                                                           std::size_t start) noexcept {
  // Built once (opaque: the compiler would otherwise build them again in the loop).
  const __m512i fe = opaque(_mm512_set1_epi8(static_cast<char>(0xFE)));
  const __m512i c2 = opaque(_mm512_set1_epi8(static_cast<char>(0xC2)));
  const __m512i c0 = opaque(_mm512_set1_epi8(static_cast<char>(0xC0)));
  const __m512i c3 = opaque(_mm512_set1_epi8(static_cast<char>(0xC3)));
  const __m512i x40 = opaque(_mm512_set1_epi8(0x40));
  latin1_progress s;
  std::size_t i = start, w = start;      // s.read and s.written, in registers
  std::uint64_t lead_in = 0, c3_in = 0;  // the last block ended with a lead (1), a C3 one (1)
  while (i < n) {
    const bool whole = n - i >= 64;
    const std::size_t k = whole ? 64 : n - i;
    const std::uint64_t live = whole ? ~std::uint64_t{0} : _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(k));
    const __m512i x = whole ? _mm512_loadu_si512(p + i) : _mm512_maskz_loadu_epi8(static_cast<__mmask64>(live), p + i);
    const std::uint64_t high = _mm512_movepi8_mask(x);
    // An ASCII block (not after a cut pair: its continuation comes first) is copied as it is.
    // One test (not one on lead_in first: in dense text a pair is cut at every other block end).
    if ((high | lead_in) == 0) {
      if (!whole) {
        _mm512_mask_storeu_epi8(out + w, static_cast<__mmask64>(live), x);
        w += k;
        break;
      }
      _mm512_storeu_si512(out + w, x);
      i += 64;
      w += 64;
      while (n - i >= 64) {  // the ASCII run that follows
        const __m512i a = _mm512_loadu_si512(p + i);
        if (_mm512_movepi8_mask(a) != 0) break;
        _mm512_storeu_si512(out + w, a);
        i += 64;
        w += 64;
      }
      continue;
    }
    const std::uint64_t lead = _mm512_mask_cmpeq_epi8_mask(static_cast<__mmask64>(high), _mm512_and_si512(x, fe), c2);
    const std::uint64_t cont = _mm512_mask_cmplt_epu8_mask(static_cast<__mmask64>(high), x, c0);  // 80..BF
    // Each high byte a lead or a continuation, each continuation after a lead, the other way round
    // in the block (a lead at the end of the last block is seen below).
    if (UTF8DFA_UNLIKELY(((high & ~lead & ~cont) | ((((lead << 1) | lead_in) & live) ^ cont)) != 0)) {
      s.read = i - lead_in;  // the cut pair's lead wrote nothing yet
      s.written = w;
      UTF8DFA_LEAVE_AVX();
      if (!to_latin1_until<Policy>(p, n, i + k, out, s, repl)) return latin1_result(s, n, true);
      i = s.read;
      w = s.written;
      lead_in = c3_in = 0;
      continue;
    }
    const std::uint64_t is_c3 = _mm512_cmpeq_epi8_mask(x, c3);
    const __m512i bytes = _mm512_mask_add_epi8(x, static_cast<__mmask64>(((is_c3 << 1) | c3_in) & cont), x, x40);
    const std::uint64_t keep = live & ~lead;
    const auto count = static_cast<unsigned>(_mm_popcnt_u64(keep));
    _mm512_mask_storeu_epi8(out + w, static_cast<__mmask64>(_bzhi_u64(~std::uint64_t{0}, count)),
                            _mm512_maskz_compress_epi8(static_cast<__mmask64>(keep), bytes));
    // The last byte's bit (the block is whole but at the end, where a lead is an error anyway).
    lead_in = (lead >> (k - 1)) & 1u;
    c3_in = is_c3 >> 63;
    i += k;
    w += count;
  }
  if (UTF8DFA_UNLIKELY(lead_in != 0)) {  // a lead ends the input: the scalar code says what it is
    s.read = n - 1;
    s.written = w;
    UTF8DFA_LEAVE_AVX();
    if (!to_latin1_until<Policy>(p, n, n, out, s, repl)) return latin1_result(s, n, true);
    w = s.written;
  }
  s.read = n;
  s.written = w;
  return latin1_result(s, n, false);
}

/// The kernel entry: a short input of ASCII and whole C2/C3 pairs (the same result under every
/// policy) in one masked block, a longer one's ASCII blocks here (with no call between the kernel
/// table and them), the rest by utf8_to_latin1_by.
UTF8DFA_TARGET_AVX512 inline packed_conversion utf8_to_latin1(const unsigned char* p, std::size_t n, unsigned char* out,
                                                              char32_t replacement) noexcept {
  std::size_t i = 0;
  if (n > 64) {
    do {
      const __m512i x = _mm512_loadu_si512(p + i);
      if (_mm512_movepi8_mask(x) != 0) break;
      _mm512_storeu_si512(out + i, x);
      i += 64;
    } while (n - i >= 64);
    if (i == n) return {n, n, error_code::none};
  } else {
    const __m512i x = _mm512_maskz_loadu_epi8(mask64(n), p);
    const std::uint64_t high = _mm512_movepi8_mask(x);
    if (high == 0) {
      _mm512_mask_storeu_epi8(out, mask64(n), x);
      return {n, n, error_code::none};
    }
    const std::uint64_t lead =
        _mm512_mask_cmpeq_epi8_mask(high, _mm512_and_si512(x, _mm512_set1_epi8(static_cast<char>(0xFE))),
                                    _mm512_set1_epi8(static_cast<char>(0xC2)));
    const std::uint64_t cont = _mm512_mask_cmplt_epu8_mask(high, x, _mm512_set1_epi8(static_cast<char>(0xC0)));
    // Each high byte a lead or a continuation, each continuation right after a lead, no lead last.
    if (((high & ~lead & ~cont) | ((lead << 1) ^ cont) | (lead >> 63)) == 0) {
      const std::uint64_t is_c3 = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(static_cast<char>(0xC3)));
      const __m512i bytes = _mm512_mask_add_epi8(x, is_c3 << 1, x, _mm512_set1_epi8(0x40));
      const std::uint64_t keep = mask64(n) & ~lead;
      const auto count = static_cast<std::size_t>(_mm_popcnt_u64(keep));
      _mm512_mask_storeu_epi8(out, mask64(count), _mm512_maskz_compress_epi8(keep, bytes));
      return {n, count, error_code::none};
    }
  }
  if (replacement == strict_marker) return utf8_to_latin1_by<strict>(p, n, out, 0, i);
  if (replacement == skip_marker) return utf8_to_latin1_by<skip>(p, n, out, 0, i);
  return utf8_to_latin1_by<replace>(p, n, out, static_cast<unsigned char>(replacement), i);
}

// ---- UTF-16 -----------------------------------------------------------------------------------

/// The high and the low surrogates among the n (at most 64) UTF-16 units at p, bit j for unit j.
struct surrogate_masks {
  std::uint64_t high, low;
};

/// u with the bytes of each 16-bit unit exchanged when Swap.
template <bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i swap_if(__m512i u) noexcept {
  if constexpr (Swap)
    return _mm512_shuffle_epi8(
        u, _mm512_broadcast_i32x4(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)));
  else
    return u;
}

/// Short input: one or two masked loads (nothing read past p + n), bytes exchanged when Swap.
template <bool Swap = false>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE surrogate_masks surrogates64(const char16_t* p, std::size_t n) noexcept {
  const __m512i tag = _mm512_set1_epi16(static_cast<short>(0xFC00));
  const __m512i high = _mm512_set1_epi16(static_cast<short>(0xD800));
  const __m512i low = _mm512_set1_epi16(static_cast<short>(0xDC00));
  const __m512i a = _mm512_and_si512(swap_if<Swap>(_mm512_maskz_loadu_epi16(mask32(n), p)), tag);
  std::uint64_t h = _mm512_cmpeq_epi16_mask(a, high), l = _mm512_cmpeq_epi16_mask(a, low);
  if (n > 32) {
    const __m512i b = _mm512_and_si512(swap_if<Swap>(_mm512_maskz_loadu_epi16(mask32(n - 32), p + 32)), tag);
    h |= std::uint64_t{_mm512_cmpeq_epi16_mask(b, high)} << 32;
    l |= std::uint64_t{_mm512_cmpeq_epi16_mask(b, low)} << 32;
  }
  return {h, l};
}

/// The surrogate test of UTF-16 units without exchanging their bytes: `key` maps a vector so that
/// the surrogates, and only they, become the least keys, `least` keeps the lesser of two keys lane
/// by lane, `none` says whether no key of a minimum is a surrogate's. In the host's byte order a
/// unit is a 16-bit key (D800..DFFF to 0000..07FF); with its bytes exchanged (Swap) only its high
/// byte, the first in memory, is: 28 added to each even byte takes D8..DF, and only them, to
/// 00..07, and the odd bytes (added 0) are left out of the test (no byte shuffle: the swapped tests
/// run as fast). A unit masked off (zero) is no surrogate either way.
template <bool Swap>
struct surrogate_key {
  __m512i add;
  UTF8DFA_TARGET_AVX512 surrogate_key() noexcept : add(_mm512_set1_epi16(Swap ? 0x0028 : 0x2800)) {}
  UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i key(__m512i u) const noexcept {
    return Swap ? _mm512_add_epi8(u, add) : _mm512_add_epi16(u, add);
  }
  UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE static __m512i least(__m512i a, __m512i b) noexcept {
    return Swap ? _mm512_min_epu8(a, b) : _mm512_min_epu16(a, b);
  }
  UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE static bool none(__m512i least) noexcept {
    if constexpr (Swap)
      return _mm512_mask_cmplt_epu8_mask(static_cast<__mmask64>(0x5555555555555555u), least, _mm512_set1_epi8(8)) == 0;
    else
      return _mm512_cmplt_epu16_mask(least, _mm512_set1_epi16(0x0800)) == 0;
  }
};

/// True when none of the n (at most 64) units at p is a surrogate (bytes exchanged when Swap): one
/// add a vector (surrogate_key), their minimum and one compare; nothing read past p + n.
template <bool Swap = false>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool no_surrogate64(const char16_t* p, std::size_t n) noexcept {
  const surrogate_key<Swap> s;
  __m512i least = s.key(_mm512_maskz_loadu_epi16(mask32(n), p));
  if (n > 32) least = s.least(least, s.key(_mm512_maskz_loadu_epi16(mask32(n - 32), p + 32)));
  return s.none(least);
}

/// True when the surrogates of a short input (at most 64 units) pair up: each high one followed
/// by a low one (not the last unit), each low one after a high one.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool paired64(const surrogate_masks& m) noexcept {
  return (((m.high << 1) ^ m.low) | (m.high >> 63)) == 0;
}

/// True when the surrogates of the n (at most 1024) UTF-16 units at p (bytes exchanged when Swap)
/// pair up. Vectors of 32 from the start (unaligned), the last one masked: first whether there is
/// any surrogate at all (one add and one min a vector), then, only if there is, the pairs, a vector
/// at a time (a high surrogate in the last unit of one carried to the next).
template <bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool utf16_pairs_up(const char16_t* p, std::size_t n) noexcept {
  const surrogate_key<Swap> s;
  // Two chains of minima (bound by the loads, not by one chain's latency).
  __m512i least = _mm512_set1_epi16(-1), least2 = least;
  std::size_t i = 0;
  for (; n - i > 64; i += 64) {
    least = s.least(least, s.key(_mm512_loadu_si512(p + i)));
    least2 = s.least(least2, s.key(_mm512_loadu_si512(p + i + 32)));
  }
  if (n - i > 32) {
    least = s.least(least, s.key(_mm512_loadu_si512(p + i)));
    i += 32;
  }
  least = s.least(s.least(least, least2), s.key(_mm512_maskz_loadu_epi16(mask32(n - i), p + i)));
  if (s.none(least)) return true;
  const __m512i tag = _mm512_set1_epi16(static_cast<short>(0xFC00));
  const __m512i high = _mm512_set1_epi16(static_cast<short>(0xD800));
  const __m512i low = _mm512_set1_epi16(static_cast<short>(0xDC00));
  std::uint64_t bad = 0, carry = 0;
  for (i = 0; i < n; i += 32) {
    const __m512i u =
        _mm512_and_si512(swap_if<Swap>(_mm512_maskz_loadu_epi16(mask32(n - i < 32 ? n - i : 32), p + i)), tag);
    const std::uint64_t h = _mm512_cmpeq_epi16_mask(u, high), l = _mm512_cmpeq_epi16_mask(u, low);
    // (past the input the lanes are zero: a high surrogate last in a masked vector finds no low one)
    bad |= (((h << 1) | carry) ^ l) & 0xFFFFFFFFu;
    carry = h >> 31;
  }
  return (bad | carry) == 0;
}

/// The surrogates among 32 UTF-16 units that start a pair (a high one followed by a low one), that
/// end one (a low one after a high one), and the others (`bad`: unpaired).
struct pair_lanes {
  __mmask32 starts, ends, bad;
};

/// The constants of find_pairs and of the surrogate test, built once before a loop (opaque: GCC
/// would otherwise broadcast them again in each step, on the shuffle port).
struct pair_constants {
  __m512i tag, start_key, end_key, shift, limit;
  UTF8DFA_TARGET_AVX512 pair_constants() noexcept
      : tag(opaque(_mm512_set1_epi16(static_cast<short>(0xFC00)))),
        start_key(opaque(_mm512_set1_epi16(static_cast<short>(0xD837)))),
        end_key(opaque(_mm512_set1_epi16(static_cast<short>(0xDC36)))),
        shift(opaque(_mm512_set1_epi16(0x2800))),  // D800..DFFF to 0000..07FF
        limit(opaque(_mm512_set1_epi16(0x0800))) {}
  /// The surrogates among the 32 units u.
  UTF8DFA_TARGET_AVX512 __mmask32 surrogates(__m512i u) const noexcept {
    return _mm512_cmplt_epu16_mask(_mm512_add_epi16(u, shift), limit);
  }
};

/// pair_lanes of the 32 units `cur`, from `before` and `after`, the unit before and after each (zero
/// outside the input). A fixed step: which units pair up does not wait on the block before. One
/// compare for each kind: (unit & FC00) | (unit after >> 10) is D837 exactly at a start, (unit &
/// FC00) | (unit before >> 10) DC36 exactly at an end (a high surrogate shifted is 36, a low one 37).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE pair_lanes find_pairs(const pair_constants& pc, __m512i cur, __m512i before,
                                                                  __m512i after) noexcept {
  // ternary logic 0xEC: A & C | B.
  const __mmask32 starts =
      _mm512_cmpeq_epi16_mask(_mm512_ternarylogic_epi32(cur, _mm512_srli_epi16(after, 10), pc.tag, 0xEC), pc.start_key);
  const __mmask32 ends =
      _mm512_cmpeq_epi16_mask(_mm512_ternarylogic_epi32(cur, _mm512_srli_epi16(before, 10), pc.tag, 0xEC), pc.end_key);
  return {starts, ends, static_cast<__mmask32>(pc.surrogates(cur) & ~(starts | ends))};
}

/// The units before each of the `k` (at most 32) at p + i: p[i - 1] on; before the input (i == 0)
/// a zero, from a masked load that touches nothing it masks out.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i units_before(const char16_t* p, std::size_t i,
                                                                 std::size_t k) noexcept {
  if (i != 0) return k == 32 ? _mm512_loadu_si512(p + i - 1) : _mm512_maskz_loadu_epi16(mask32(k), p + i - 1);
  return _mm512_maskz_loadu_epi16(mask32(k) & 0xFFFFFFFEu,
                                  reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) - 2));
}

/// The units after each of the `k` (at most 32) at p + i, zero past n.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i units_after(const char16_t* p, std::size_t i,
                                                                std::size_t n) noexcept {
  return n - i > 32 ? _mm512_loadu_si512(p + i + 1) : _mm512_maskz_loadu_epi16(mask32(n - i - 1), p + i + 1);
}

/// The 32 UTF-16 units at p, with the bytes of each exchanged when Swap.
template <bool Swap>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i load_units(const char16_t* p) noexcept {
  const __m512i u = _mm512_loadu_si512(p);
  if constexpr (Swap)
    return _mm512_shuffle_epi8(
        u, _mm512_broadcast_i32x4(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)));
  else
    return u;
}

/// True when none of the 128 units at p (bytes exchanged when Swap) is a surrogate.
template <bool Swap = false>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool plain128(const char16_t* p, __m512i shift, __m512i limit) noexcept {
  if constexpr (Swap) {  // (surrogate_key: no byte shuffle)
    const surrogate_key<true> s;
    const __m512i ab = s.least(s.key(_mm512_loadu_si512(p)), s.key(_mm512_loadu_si512(p + 32)));
    const __m512i cd = s.least(s.key(_mm512_loadu_si512(p + 64)), s.key(_mm512_loadu_si512(p + 96)));
    return s.none(s.least(ab, cd));
  }
  const __m512i a = _mm512_add_epi16(load_units<Swap>(p), shift);
  const __m512i b = _mm512_add_epi16(load_units<Swap>(p + 32), shift);
  const __m512i c = _mm512_add_epi16(load_units<Swap>(p + 64), shift);
  const __m512i d = _mm512_add_epi16(load_units<Swap>(p + 96), shift);
  const __m512i m = _mm512_min_epu16(_mm512_min_epu16(a, b), _mm512_min_epu16(c, d));
  return _mm512_cmplt_epu16_mask(m, limit) == 0;
}

/// Units to skip so that p + skip is on a 64-byte line when the units before hold no surrogate (a
/// whole-line load is one access, and this loop is bound by loads), else 0.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t to_line(const char16_t* p, std::size_t n, __m512i shift,
                                                                __m512i limit) noexcept {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  if (n < 256 || (at & 63) == 0 || (at & 1) != 0) return 0;
  const std::size_t head = (64 - (at & 63)) / 2;
  const __m512i u = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(low_bits(head)), p);
  return _mm512_cmplt_epu16_mask(_mm512_add_epi16(u, shift), limit) == 0 ? head : 0;
}

/// The high and the low surrogates among 32 UTF-16 units, a bit a lane.
struct surrogate_marks {
  std::uint32_t high, low;
  /// Lane j set where unit j - 1 is a high surrogate and unit j not a low one, or the other way
  /// round (`carry`: 1 when the unit before the block is a high surrogate): zero exactly where the
  /// surrogates pair up, but for a high one in the last lane, which the next block checks.
  std::uint32_t odd(std::uint32_t carry) const noexcept { return ((high << 1) | carry) ^ low; }
};

/// The constants of the UTF-16 surrogate tests, built once before a loop (opaque: GCC would
/// otherwise broadcast them again in each step, on the shuffle port).
struct surrogate_tests {
  __m512i shift, limit, tag, high, low;
  UTF8DFA_TARGET_AVX512 surrogate_tests() noexcept
      : shift(opaque(_mm512_set1_epi16(0x2800))),  // D800..DFFF to 0000..07FF
        limit(opaque(_mm512_set1_epi16(0x0800))),
        tag(opaque(_mm512_set1_epi16(static_cast<short>(0xFC00)))),
        high(opaque(_mm512_set1_epi16(static_cast<short>(0xD800)))),
        low(opaque(_mm512_set1_epi16(static_cast<short>(0xDC00)))) {}
  /// The surrogates among the 32 units u (one add, one compare).
  UTF8DFA_TARGET_AVX512 __mmask32 any(__m512i u) const noexcept {
    return _mm512_cmplt_epu16_mask(_mm512_add_epi16(u, shift), limit);
  }
  UTF8DFA_TARGET_AVX512 surrogate_marks marks(__m512i u) const noexcept {
    const __m512i t = _mm512_and_si512(u, tag);
    return {_mm512_cmpeq_epi16_mask(t, high), _mm512_cmpeq_epi16_mask(t, low)};
  }
};

/// validate_utf16 of the units at p from i on (bytes exchanged when Swap; `Scalar` the matching
/// scalar validation): 128 units without a surrogate a test, the others 32 a step, the high
/// surrogates (shifted by one lane, the last carried to the next block) against the low ones. The
/// scalar code finds the error from the block that has one, or from the unit before it when that
/// is a high surrogate.
template <bool Swap, packed_validation (*Scalar)(const char16_t*, std::size_t)>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE packed_validation validate_utf16_blocks(const char16_t* p, std::size_t n,
                                                                                    std::size_t i) noexcept {
  const surrogate_tests st;
  std::uint32_t carry = 0;  // the unit before the block is a high surrogate
  while (i < n) {
    if (n - i >= 128 && carry == 0 && plain128<Swap>(p + i, st.shift, st.limit)) {
      i += 128;
      continue;
    }
    const std::size_t k = n - i < 32 ? n - i : 32;
    const __m512i u = k == 32 ? load_units<Swap>(p + i) : swap_if<Swap>(_mm512_maskz_loadu_epi16(mask32(k), p + i));
    const surrogate_marks m = st.marks(u);
    // A lane out of pair, or a high surrogate last in the input.
    if (UTF8DFA_UNLIKELY(m.odd(carry) != 0 || (m.high >> (k - 1)) > (n - i > 32 ? 1u : 0u))) break;
    carry = m.high >> 31;
    i += k;
  }
  if (i == n) return {n, 0, error_code::none};
  UTF8DFA_LEAVE_AVX();
  i -= carry;
  const packed_validation r = Scalar(p + i, n - i);
  return {i + r.valid_up_to, r.error_length, r.error};
}

/// `Scalar` (a scalar UTF-16 validation) on the input from its start, out of line: the short
/// paths that call it keep no registers to save.
template <packed_validation (*Scalar)(const char16_t*, std::size_t)>
UTF8DFA_NOINLINE packed_validation validate_utf16_again(const char16_t* p, std::size_t n) noexcept {
  return Scalar(p, n);
}

/// validate_utf16 of more than 1024 units: to a 64-byte boundary, then validate_utf16_blocks.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_utf16_long(const char16_t* p,
                                                                                    std::size_t n) noexcept {
  const __m512i shift = _mm512_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m512i limit = _mm512_set1_epi16(0x0800);
  return validate_utf16_blocks<false, &validate_utf<char16_t>>(p, n, to_line(p, n, shift, limit));
}

/// The kernel entry: up to 1024 units without an error in a straight line of vectors (out of line
/// of the rest, so that it saves no registers); an error there: the scalar code from the start.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_utf16(const char16_t* p,
                                                                               std::size_t n) noexcept {
  if (n <= 64) {  // short input: one or two masked vectors
    if (UTF8DFA_LIKELY(no_surrogate64(p, n) || paired64(surrogates64(p, n)))) return {n, 0, error_code::none};
  } else if (n <= 1024) {  // vectors from the start, one test
    if (UTF8DFA_LIKELY(utf16_pairs_up<false>(p, n))) return {n, 0, error_code::none};
  } else {
    return validate_utf16_long(p, n);
  }
  UTF8DFA_LEAVE_AVX();
  return validate_utf16_again<&validate_utf<char16_t>>(p, n);
}

/// to_well_formed_utf16: 32 units a step, each against the unit before it (the block before's last
/// unit and its own first 31, one lane permute of the two loaded vectors: no carry from block to
/// block, and no load of the units before, which in place would wait on the store of the block
/// before): lane j is out of pair when unit j is a low surrogate and unit j - 1 not a high one, or
/// the other way round. A lone high surrogate last in a block is replaced by the next block (its
/// lane 0), last in the input at the end. In place (not Copy), a block without a replacement is
/// left as it is: no store, which the next read of these units would wait for.
template <bool Copy>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t to_well_formed_utf16_by(const char16_t* p, std::size_t n,
                                                                                char16_t* out) noexcept {
  if (n == 0) return 0;
  const __m512i tag = _mm512_set1_epi16(static_cast<short>(0xFC00));
  const __m512i high = _mm512_set1_epi16(static_cast<short>(0xD800));
  const __m512i low = _mm512_set1_epi16(static_cast<short>(0xDC00));
  // Lane j of the units before: lane 31 + j of (the block before, this block).
  const __m512i before_lanes =
      _mm512_add_epi16(_mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12,
                                        11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                       _mm512_set1_epi16(31));
  __m512i last = _mm512_setzero_si512();  // the block before (none before the input)
  for (std::size_t i = 0; i < n; i += 32) {
    const bool whole = n - i >= 32;
    const __mmask32 live = whole ? 0xFFFFFFFFu : mask32(n - i);
    const __m512i u = whole ? _mm512_loadu_si512(p + i) : _mm512_maskz_loadu_epi16(live, p + i);
    const __mmask32 is_low = _mm512_cmpeq_epi16_mask(_mm512_and_si512(u, tag), low);
    const __mmask32 after_high =
        _mm512_cmpeq_epi16_mask(_mm512_and_si512(_mm512_permutex2var_epi16(last, before_lanes, u), tag), high);
    last = u;
    __m512i v = u;
    const std::uint32_t odd = is_low ^ after_high;
    if (UTF8DFA_UNLIKELY(odd != 0)) {
      const std::uint32_t lone_high = odd & after_high;  // lane j: unit j - 1
      if (lone_high & 1u) out[i - 1] = u'\xFFFD';
      v = _mm512_mask_mov_epi16(u, (odd & is_low) | (lone_high >> 1), _mm512_set1_epi16(static_cast<short>(0xFFFD)));
    } else if (!Copy) {
      continue;
    }
    if (whole)
      _mm512_storeu_si512(out + i, v);
    else
      _mm512_mask_storeu_epi16(out + i, live, v);
  }
  if ((p[n - 1] & 0xFC00) == 0xD800) out[n - 1] = u'\xFFFD';
  return n;
}

UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t to_well_formed_utf16(const char16_t* p, std::size_t n,
                                                                               char16_t* out) noexcept {
  return out == p ? to_well_formed_utf16_by<false>(p, n, out) : to_well_formed_utf16_by<true>(p, n, out);
}

/// The 16 units at q zero-extended to 32 bits (from memory: one load and one shuffle-port operation).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i widen_units(const char16_t* q) noexcept {
  return _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(q)));
}

/// The first k (at most 32) units of u zero-extended to 32 bits, stored at o (masked stores).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void widen_units_masked(__m512i u, std::size_t k, char32_t* o) noexcept {
  _mm512_mask_storeu_epi32(o, mask16(k), _mm512_cvtepu16_epi32(_mm512_castsi512_si256(u)));
  if (k > 16) _mm512_mask_storeu_epi32(o + 16, mask16(k - 16), _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(u, 1)));
}

/// The n (at most 64) units at p zero-extended to 32 bits at out when none is a surrogate (true):
/// two masked loads, straight-line stores; false (nothing written) otherwise.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool widen_few_units(const char16_t* p, std::size_t n,
                                                                 char32_t* out) noexcept {
  const __m512i a = _mm512_maskz_loadu_epi16(mask32(n < 32 ? n : 32), p);
  const __m512i b = n > 32 ? _mm512_maskz_loadu_epi16(mask32(n - 32), p + 32) : _mm512_setzero_si512();
  const __m512i shift = _mm512_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  if (_mm512_cmplt_epu16_mask(_mm512_min_epu16(_mm512_add_epi16(a, shift), _mm512_add_epi16(b, shift)),
                              _mm512_set1_epi16(0x0800)) != 0)
    return false;
  widen_units_masked(a, n < 32 ? n : 32, out);
  if (n > 32) widen_units_masked(b, n - 32, out + 32);
  return true;
}

/// Text of supplementary characters only (emoji) from i: while the next 32 units are 16 pairs, each
/// pair one 32-bit lane (the high surrogate in its low half), written as 16 code points. A unit at i
/// that is the low half of a pair the block before wrote (a high surrogate before it) is passed
/// over first. Returns where it stopped (i when it took nothing); o moves past what it wrote. (Out
/// of line, a call in the block loop made it keep its vector constants on the stack; with every
/// other text 4-7% slower either way, at 256 B to 1 KiB, for emoji 2-3.6x as fast.)
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t pairs_only_run(const char16_t* p, std::size_t n, std::size_t i,
                                                                       char32_t*& o) noexcept {
  std::size_t j = i + std::size_t{i > 0 && (p[i] & 0xFC00u) == 0xDC00u && (p[i - 1] & 0xFC00u) == 0xD800u};
  const __m512i tags = _mm512_set1_epi32(static_cast<int>(0xFC00FC00u));
  const __m512i pair = _mm512_set1_epi32(static_cast<int>(0xDC00D800u));
  const __m512i ten = _mm512_set1_epi32(0x3FF);
  while (n - j >= 32) {
    const __m512i x = _mm512_loadu_si512(p + j);
    if (_mm512_cmpneq_epi32_mask(_mm512_and_si512(x, tags), pair) != 0) break;
    const __m512i hi = _mm512_slli_epi32(_mm512_and_si512(x, ten), 10);
    const __m512i lo = _mm512_and_si512(_mm512_srli_epi32(x, 16), ten);
    _mm512_storeu_si512(o, _mm512_add_epi32(_mm512_add_epi32(hi, lo), _mm512_set1_epi32(0x10000)));
    o += 16;
    j += 32;
    i = j;
  }
  return i;
}

/// UTF-16 to UTF-32: 64 units a step while there is no surrogate, else 32; a block with an unpaired
/// surrogate scalar (to its end, or past it to finish a pair). A pair across a block's end is
/// written by the block of its high surrogate.
template <bool Strict>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion utf16_to_utf32_by(const char16_t* p, std::size_t n,
                                                                           char32_t* out, char32_t repl) noexcept {
  const pair_constants pc;
  // (hi << 10) + lo + this: the code point of the pair (hi, lo) (modulo 2^32).
  const __m512i pair_offset = opaque(_mm512_set1_epi32(static_cast<int>(0x10000u - (0xD800u << 10) - 0xDC00u)));
  // The position in locals (in registers); the cursor only for the scalar code after an error.
  transcode_cursor<char32_t> c{0, out, error_code::none};
  std::size_t i = 0;
  char32_t* o = out;
  while (i < n) {
    // 64 units a step while neither block of 32 has a surrogate: a tight loop. On long input from
    // a 64-byte boundary of the input (its loads would otherwise cross two cache lines each).
    while (n - i >= 64 && (n - i < 256 || units_to_line(p + i) == 0)) {
      const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + 32);
      if (_mm512_cmplt_epu16_mask(_mm512_min_epu16(_mm512_add_epi16(a, pc.shift), _mm512_add_epi16(b, pc.shift)),
                                  pc.limit) != 0)
        break;
      _mm512_storeu_si512(o, _mm512_cvtepu16_epi32(_mm512_castsi512_si256(a)));
      _mm512_storeu_si512(o + 16, _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(a, 1)));
      _mm512_storeu_si512(o + 32, _mm512_cvtepu16_epi32(_mm512_castsi512_si256(b)));
      _mm512_storeu_si512(o + 48, _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(b, 1)));
      i += 64;
      o += 64;
    }
    if (n - i < 64 && widen_few_units(p + i, n - i, o)) {  // the last units, masked
      o += n - i;
      break;
    }
    // Then blocks of 32 (on long input the first up to a 64-byte boundary) up to one without a
    // surrogate (or the end).
    while (i < n) {
      if (n - i >= 33) {
        i = pairs_only_run(p, n, i, o);
        if (i == n) break;
      }
      const std::size_t head = n - i >= 256 ? units_to_line(p + i) : 0;
      const std::size_t k = head != 0 ? head : n - i < 32 ? n - i : 32;
      const bool whole = k == 32;
      const __m512i u = whole ? _mm512_loadu_si512(p + i) : _mm512_maskz_loadu_epi16(mask32(k), p + i);
      if (pc.surrogates(u) == 0) {
        if (whole) {
          _mm512_storeu_si512(o, widen_units(p + i));
          _mm512_storeu_si512(o + 16, widen_units(p + i + 16));
        } else {
          widen_units_masked(u, k, o);
        }
        o += k;
        i += k;
        break;  // back to the tight loop
      }
      const __m512i next = units_after(p, i, n);
      const pair_lanes l = find_pairs(pc, u, units_before(p, i, k), next);
      if (UTF8DFA_UNLIKELY(l.bad != 0)) {
        UTF8DFA_LEAVE_AVX();
        c.i = i + (l.ends & 1u);  // past the low half of a pair the block before wrote
        c.o = o;
        if (!scalar_region<Strict>(p, n, i + k, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
        i = c.i;
        o = c.o;
        break;
      }
      // Every unit but the low halves of pairs: a unit, or at a high surrogate the pair's code point.
      const std::uint32_t keep = static_cast<std::uint32_t>(mask32(k)) & ~static_cast<std::uint32_t>(l.ends);
      // A block of 32 units writes at least 16 values (at most every other lane ends a pair), so
      // the first half's 16 lanes may be stored whole: the second half's store writes over those
      // past the first half's values (a masked store costs more).
      const bool whole_first = k == 32;
      for (unsigned h = 0; h < 2; ++h) {
        const __m512i a = _mm512_cvtepu16_epi32(h == 0 ? _mm512_castsi512_si256(u) : _mm512_extracti64x4_epi64(u, 1));
        const __m512i d =
            _mm512_cvtepu16_epi32(h == 0 ? _mm512_castsi512_si256(next) : _mm512_extracti64x4_epi64(next, 1));
        const auto hi = static_cast<__mmask16>(l.starts >> (16 * h));
        const __m512i cp = _mm512_mask_add_epi32(a, hi, _mm512_add_epi32(_mm512_slli_epi32(a, 10), d), pair_offset);
        const auto sel = static_cast<__mmask16>(keep >> (16 * h));
        const auto count = static_cast<unsigned>(_mm_popcnt_u32(sel));
        if (h == 0 && whole_first)
          _mm512_storeu_si512(o, _mm512_maskz_compress_epi32(sel, cp));
        else
          _mm512_mask_storeu_epi32(o, static_cast<__mmask16>(low_bits(count)), _mm512_maskz_compress_epi32(sel, cp));
        o += count;
      }
      i += k;
    }
  }
  return {n, static_cast<std::size_t>(o - out), c.first};
}

/// The kernel entry: up to 64 units without a surrogate in widen_few_units (before any constant of
/// the loop is set up), other input under 16 units by the scalar code, the rest utf16_to_utf32_by.
/// (Empty input touches no memory: a masked store of nothing to a page never written costs a
/// fault assist of hundreds of nanoseconds.)
UTF8DFA_TARGET_AVX512 inline packed_conversion utf16_to_utf32(const char16_t* p, std::size_t n, char32_t* out,
                                                              char32_t repl) noexcept {
  if (n <= 64) {
    if (n == 0) return {0, 0, error_code::none};
    if (widen_few_units(p, n, out)) return {n, n, error_code::none};
    if (n < 16) {
      UTF8DFA_LEAVE_AVX();
      return scalar_utf16_to_utf32(p, n, out, repl);
    }
  }
  return repl == strict_marker ? utf16_to_utf32_by<true>(p, n, out, repl) : utf16_to_utf32_by<false>(p, n, out, repl);
}

/// Word j of the result: word 2j of the pair of vectors (the low word of value j of two vectors
/// of 32-bit values).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i low_words_index() noexcept {
  const __m512i words = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(byte_iota()));
  return _mm512_add_epi16(words, words);
}

/// The 32 values of v0 and v1 as 16-bit units into w when they are all of the BMP and none is a
/// surrogate (true); `evens` is low_words_index().
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool bmp_units(__m512i v0, __m512i v1, __m512i evens, __m512i& w) noexcept {
  w = _mm512_permutex2var_epi16(v0, evens, v1);
  return _mm512_test_epi32_mask(_mm512_or_si512(v0, v1), _mm512_set1_epi32(static_cast<int>(0xFFFF0000u))) == 0 &&
         _mm512_cmpeq_epi16_mask(_mm512_and_si512(w, _mm512_set1_epi16(static_cast<short>(0xF800))),
                                 _mm512_set1_epi16(static_cast<short>(0xD800))) == 0;
}

/// The n values at p as 16-bit units at out by blocks of 32 (the last masked), while they are of
/// the BMP and no surrogate (bmp_units): the values converted, n or a multiple of 32.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t few_bmp_units(const char32_t* p, std::size_t n, char16_t* out,
                                                                      __m512i evens) noexcept {
  std::size_t i = 0;
  __m512i w;
  for (; n - i > 32; i += 32) {
    if (!bmp_units(_mm512_loadu_si512(p + i), _mm512_loadu_si512(p + i + 16), evens, w)) return i;
    _mm512_storeu_si512(out + i, w);
  }
  const std::size_t k = n - i;
  if (!bmp_units(_mm512_maskz_loadu_epi32(mask16(k < 16 ? k : 16), p + i),
                 _mm512_maskz_loadu_epi32(mask16(k > 16 ? k - 16 : 0), p + i + 16), evens, w))
    return i;
  _mm512_mask_storeu_epi16(out + i, mask32(k), w);
  return n;
}

/// UTF-32 to UTF-16 from unit `start` on (the units before it converted one to one): blocks of
/// 32 values of the BMP in a tight loop, other blocks of 16 in vectors, blocks with an error scalar.
template <bool Strict>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion utf32_to_utf16_by(const char32_t* p, std::size_t n,
                                                                           char16_t* out, char32_t repl,
                                                                           std::size_t start) noexcept {
  const cp_constants kc;
  transcode_cursor<char16_t> c{0, out, error_code::none};
  const __m512i evens = low_words_index();
  // The position in locals (in registers); the cursor only for the scalar code after an error.
  std::size_t i = start;
  char16_t* o = out + start;
  while (i < n) {
    // 32 values of the BMP other than surrogates a step, one permute: a tight loop. On long input
    // from a 64-byte boundary of the input (a load across two lines costs a third more).
    const std::size_t from = i;
    while (n - i >= 32 && (n - i < 256 || units_to_line(p + i) == 0)) {
      __m512i w;
      if (!bmp_units(_mm512_loadu_si512(p + i), _mm512_loadu_si512(p + i + 16), evens, w)) break;
      _mm512_storeu_si512(o, w);
      o += 32;
      i += 32;
    }
    if (n - i <= 32 && i != from) {  // the last values after BMP blocks, masked
      const std::size_t done = few_bmp_units(p + i, n - i, o, evens);
      i += done;
      o += done;
      if (i == n) break;
    }
    // Then blocks of 16 of any values (on long input the first up to a 64-byte boundary), up to
    // one of the BMP only (or the end).
    while (i < n) {
      const std::size_t head = n - i >= 256 ? units_to_line(p + i) : 0;
      const std::size_t k = head != 0 ? head : n - i < 16 ? n - i : 16;
      const __m512i v = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(low_bits(k)), p + i);
      const __mmask16 sur =
          _mm512_cmplt_epu32_mask(_mm512_sub_epi32(v, _mm512_set1_epi32(0xD800)), _mm512_set1_epi32(0x800));
      const __mmask16 big = _mm512_cmpgt_epu32_mask(v, _mm512_set1_epi32(0x10FFFF));
      if (UTF8DFA_UNLIKELY((sur | big) != 0)) {
        UTF8DFA_LEAVE_AVX();
        c.i = i;
        c.o = o;
        if (!scalar_region<Strict>(p, n, i + k, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
        i = c.i;
        o = c.o;
        break;
      }
      char16_t* const next = store_code_points(kc, o, v, static_cast<unsigned>(k));
      const bool bmp = static_cast<std::size_t>(next - o) == k;  // one unit each
      o = next;
      i += k;
      if (bmp) break;  // back to the tight loop
    }
  }
  return {n, static_cast<std::size_t>(o - out), c.first};
}

/// The kernel entry: up to 16 values in one masked vector of any scalar values (an error there: the
/// scalar code); up to 256, blocks of 32 of the BMP in few_bmp_units (before any constant of the
/// loop is set up); the rest by utf32_to_utf16_by (from the first block with others on). Empty
/// input touches no memory (see utf16_to_utf32).
UTF8DFA_TARGET_AVX512 inline packed_conversion utf32_to_utf16(const char32_t* p, std::size_t n, char16_t* out,
                                                              char32_t repl) noexcept {
  std::size_t i = 0;
  if (n <= 16) {
    if (n == 0) return {0, 0, error_code::none};
    const __m512i v = _mm512_maskz_loadu_epi32(mask16(n), p);
    const __mmask16 sur =
        _mm512_cmplt_epu32_mask(_mm512_sub_epi32(v, _mm512_set1_epi32(0xD800)), _mm512_set1_epi32(0x800));
    if (UTF8DFA_LIKELY((sur | _mm512_cmpgt_epu32_mask(v, _mm512_set1_epi32(0x10FFFF))) == 0)) {
      const cp_constants kc;
      return {n, static_cast<std::size_t>(store_code_points(kc, out, v, static_cast<unsigned>(n)) - out),
              error_code::none};
    }
    UTF8DFA_LEAVE_AVX();
    return scalar_utf32_to_utf16(p, n, out, repl);
  }
  if (n <= 256) {
    i = few_bmp_units(p, n, out, low_words_index());
    if (i == n) return {n, n, error_code::none};
  }
  return repl == strict_marker ? utf32_to_utf16_by<true>(p, n, out, repl, i)
                               : utf32_to_utf16_by<false>(p, n, out, repl, i);
}

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

#endif
// ---- end utf8dfa/detail/simd/avx512/units.hpp ----
// ---- begin utf8dfa/detail/simd/avx512/units_bulk.hpp ----
// utf8dfa: AVX-512 kernels for count_utf16, validate_utf32, UTF-16 / UTF-32 to Latin-1, Latin-1 to
// UTF-16 / UTF-32 and its UTF-8 length, and byte-order changes. Same results as the scalar functions
// of units.hpp and units_kernels.hpp: a block that holds an error (or, into Latin-1, a character
// above U+00FF) is run through the scalar code and the vector loop resumes behind it. Tails use
// masked loads and stores: nothing is read past the input nor written past the output.
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_UNITS_BULK_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_UNITS_BULK_HPP


#if UTF8DFA_X86_KERNELS

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx512 {

/// The pairs ending in a block of (at most 32) UTF-16 units `u`: the low surrogates that follow a
/// high one (`carry`: 1 when the unit before the block is a high surrogate). Sets `carry` for the
/// next block.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE std::size_t pairs_ending(__m512i u, std::uint64_t& carry) noexcept {
  const __m512i top = _mm512_and_si512(u, _mm512_set1_epi16(static_cast<short>(0xFC00)));
  const std::uint64_t high = _mm512_cmpeq_epi16_mask(top, _mm512_set1_epi16(static_cast<short>(0xD800)));
  const std::uint64_t low = _mm512_cmpeq_epi16_mask(top, _mm512_set1_epi16(static_cast<short>(0xDC00)));
  const auto pairs = static_cast<std::size_t>(_mm_popcnt_u64(((high << 1) | carry) & low));
  carry = high >> 31;
  return pairs;
}

/// The lanes of the `k` (at most 32) UTF-16 units at q that end a pair, the unit before them (q[-1])
/// read: a low surrogate whose unit before is a high one. One compare a block: the key (unit & FC00)
/// | (unit before >> 10) is DC36 exactly there (a high surrogate shifted is 36, a low one 37).
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __mmask32 pair_ends(const char16_t* q, std::size_t k) noexcept {
  const auto live = static_cast<__mmask32>(low_bits(k));
  const __m512i cur = k == 32 ? _mm512_loadu_si512(q) : _mm512_maskz_loadu_epi16(live, q);
  const __m512i before = k == 32 ? _mm512_loadu_si512(q - 1) : _mm512_maskz_loadu_epi16(live, q - 1);
  // (cur & FC00) | (before >> 10): ternary logic 0xEC is A & C | B.
  const __m512i key = _mm512_ternarylogic_epi32(cur, _mm512_srli_epi16(before, 10),
                                                _mm512_set1_epi16(static_cast<short>(0xFC00)), 0xEC);
  return _mm512_cmpeq_epi16_mask(key, _mm512_set1_epi16(static_cast<short>(0xDC36)));
}

/// count_utf16: the units less the pairs (a high surrogate right before a low one). From a 64-byte
/// boundary: 128 units without a surrogate at a time, tried again after four blocks of 32 without a
/// pair, the others 32 at a time (each block reads the unit before it as well; its pairs counted by
/// a popcount of the compare's mask, which also says whether it had one: the mask added into 16-bit
/// lanes, summed at the end, cost 1 KiB of text 1.2x the time).
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t count_utf16(const char16_t* p, std::size_t n) noexcept {
  if (n <= 64) {  // short input: one or two masked vectors, the pairs by one mask shift
    const surrogate_masks m = surrogates64(p, n);
    return n - static_cast<std::size_t>(_mm_popcnt_u64((m.high << 1) & m.low));
  }
  const __m512i shift = _mm512_set1_epi16(0x2800);  // D800..DFFF to 0000..07FF
  const __m512i limit = _mm512_set1_epi16(0x0800);
  std::size_t i = units_to_line(p) < n ? units_to_line(p) : n;
  std::uint64_t carry = 0;
  // The pairs inside the head (shorter than 32 units; a pair across its end is the next block's).
  std::size_t pairs = pairs_ending(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(low_bits(i)), p), carry);
  if (i == 0 && n >= 32) {  // a first block with no unit before it
    pairs += pairs_ending(_mm512_load_si512(p), carry);
    i = 32;
  }
  while (n - i >= 32) {
    if (n - i >= 128 && plain128(p + i, shift, limit)) {
      i += 128;
      continue;
    }
    // Blocks of 32 until four in a row end no pair (then 128 without a surrogate are tried again).
    const char16_t* q = p + i;
    const char16_t* const last = p + n - 32;
    unsigned quiet = 0;  // blocks in a row without a pair
    do {
      const std::uint32_t ends = pair_ends(q, 32);
      pairs += static_cast<std::size_t>(_mm_popcnt_u32(ends));
      quiet = ends == 0 ? quiet + 1 : 0;
      q += 32;
    } while (quiet < 4 && q <= last);
    i = static_cast<std::size_t>(q - p);
  }
  if (i < n)
    pairs += i == 0 ? pairs_ending(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(low_bits(n)), p), carry)
                    : static_cast<std::size_t>(_mm_popcnt_u32(pair_ends(p + i, n - i)));
  return n - pairs;
}

/// The largest of the values and of the values plus FFFF2000 (which takes D800..DFFF, and them
/// only, to FFFFF800..FFFFFFFF) of blocks of UTF-32.
struct utf32_maxima {
  __m512i value, shifted;
};

UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void take_utf32(utf32_maxima& m, __m512i v) noexcept {
  m.value = _mm512_max_epu32(m.value, v);
  m.shifted = _mm512_max_epu32(m.shifted, _mm512_add_epi32(v, _mm512_set1_epi32(static_cast<int>(0xFFFF2000u))));
}

/// True when the values taken into `m` hold no surrogate and none above 10FFFF.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool utf32_fine(const utf32_maxima& m) noexcept {
  return (_mm512_cmpgt_epu32_mask(m.value, _mm512_set1_epi32(0x10FFFF)) |
          _mm512_cmpgt_epu32_mask(m.shifted, _mm512_set1_epi32(static_cast<int>(0xFFFFF7FFu)))) == 0;
}

/// True when the `live` lanes of the 16-value vector at q (the others not read) hold no surrogate
/// and no value above 10FFFF.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool utf32_vector_fine(const char32_t* q, __mmask16 live) noexcept {
  utf32_maxima a{_mm512_setzero_si512(), _mm512_setzero_si512()};
  take_utf32(a, _mm512_maskz_loadu_epi32(live, q));
  return utf32_fine(a);
}

/// A quicker filter for long input: the 16-bit halves of the values, 2000 added to the low ones
/// (D800..DFFF, and only they, become F800..FFFF), the largest of each kept. One add and one max a
/// vector instead of the two maxima's three operations. Exact for values above 10FFFF; a surrogate
/// is flagged with every value whose low half is one (U+1D800, ...), which the exact check clears.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i take_halves(__m512i m, __m512i v) noexcept {
  return _mm512_max_epu16(m, _mm512_add_epi16(v, _mm512_set1_epi32(0x2000)));
}

/// validate_utf32's answer from value i on (the values before it valid), by the scalar code.
UTF8DFA_NOINLINE inline packed_validation validate_utf32_from(const char32_t* p, std::size_t n,
                                                              std::size_t i) noexcept {
  const packed_validation r = validate_utf(p + i, n - i);
  return {i + r.valid_up_to, r.error_length, r.error};
}

/// validate_utf32 of more than 64 values: blocks of up to 4096 values (64-byte aligned above 1024),
/// four vectors a step, through the halves' filter (the last block with the masked rest). A block
/// the filter flags is checked exactly a vector at a time: the scalar code reports the error from
/// the first failing vector, or the blocks go on.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_utf32_long(const char32_t* p,
                                                                                    std::size_t n) noexcept {
  std::size_t i = 0;
  if (n > 1024) {  // the values before the first 64-byte boundary
    const std::size_t head = units_to_line(p);
    if (!utf32_vector_fine(p, static_cast<__mmask16>(low_bits(head)))) goto scalar;
    i = head;
  }
  {
    // Each 32-bit lane's high half at most 10, its low half (plus 2000) at most F7FF.
    const __m512i limit = _mm512_set1_epi32(0x0010F7FF);
    for (;;) {
      const std::size_t left = n - i, step = left < 4096 + 64 ? left / 64 * 64 : 4096;
      __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
      for (const char32_t *q = p + i, *const end = q + step; q != end; q += 64) {
        a = take_halves(a, _mm512_loadu_si512(q));
        b = take_halves(b, _mm512_loadu_si512(q + 16));
        c = take_halves(c, _mm512_loadu_si512(q + 32));
        d = take_halves(d, _mm512_loadu_si512(q + 48));
      }
      const std::size_t r = left - step < 64 ? left - step : 0;  // the masked rest (last block)
      if (r != 0) {
        const char32_t* q = p + i + step;
        a = take_halves(a, _mm512_maskz_loadu_epi32(mask16(r), q));
        if (r > 16) {
          b = take_halves(b, _mm512_maskz_loadu_epi32(mask16(r - 16), q + 16));
          if (r > 32) c = take_halves(c, _mm512_maskz_loadu_epi32(mask16(r - 32), q + 32));
          if (r > 48) d = take_halves(d, _mm512_maskz_loadu_epi32(mask16(r - 48), q + 48));
        }
      }
      const __m512i m = _mm512_max_epu16(_mm512_max_epu16(a, b), _mm512_max_epu16(c, d));
      const std::size_t end = i + step + r;
      if (UTF8DFA_UNLIKELY(_mm512_cmpgt_epu16_mask(m, limit) != 0)) {  // checked exactly
        for (; i < end; i += 16)
          if (!utf32_vector_fine(p + i, mask16(end - i < 16 ? end - i : 16))) goto scalar;
      }
      if (end == n) return {n, 0, error_code::none};
      i = end;
    }
  }
scalar:
  UTF8DFA_LEAVE_AVX();
  return validate_utf32_from(p, n, i);
}

/// The kernel entry: up to 64 values in masked vectors, exactly, in a function that calls nothing
/// on valid input (so it saves no registers); longer input by a tail call to validate_utf32_long.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE inline packed_validation validate_utf32(const char32_t* p,
                                                                                 std::size_t n) noexcept {
  if (n > 64) return validate_utf32_long(p, n);
  utf32_maxima a{_mm512_setzero_si512(), _mm512_setzero_si512()};
  take_utf32(a, _mm512_maskz_loadu_epi32(mask16(n), p));
  if (n > 16) {
    take_utf32(a, _mm512_maskz_loadu_epi32(mask16(n - 16), p + 16));
    if (n > 32) {
      take_utf32(a, _mm512_maskz_loadu_epi32(mask16(n - 32), p + 32));
      if (n > 48) take_utf32(a, _mm512_maskz_loadu_epi32(mask16(n - 48), p + 48));
    }
  }
  if (UTF8DFA_LIKELY(utf32_fine(a))) return {n, 0, error_code::none};
  UTF8DFA_LEAVE_AVX();
  return validate_utf32_from(p, n, 0);
}

/// Writes the 64 values at p (64-byte aligned) as bytes at o when they are all at most FF (with
/// `low_bytes`, the index of the low byte of each value in two vectors); false (nothing written)
/// when one is not.
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool narrow64(const In* p, unsigned char* o, __m512i low_bytes) noexcept {
  const __m512i* v = reinterpret_cast<const __m512i*>(p);
  __m512i bytes;
  if constexpr (sizeof(In) == 2) {
    const __m512i a = _mm512_load_si512(v), b = _mm512_load_si512(v + 1);
    if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), _mm512_set1_epi16(static_cast<short>(0xFF00))) != 0) return false;
    bytes = _mm512_permutex2var_epi8(a, low_bytes, b);
  } else {
    const __m512i a = _mm512_load_si512(v), b = _mm512_load_si512(v + 1);
    const __m512i c = _mm512_load_si512(v + 2), d = _mm512_load_si512(v + 3);
    if (_mm512_test_epi32_mask(_mm512_or_si512(_mm512_or_si512(a, b), _mm512_or_si512(c, d)),
                               _mm512_set1_epi32(static_cast<int>(0xFFFFFF00u))) != 0)
      return false;
    const __m512i ab = _mm512_permutex2var_epi8(a, low_bytes, b), cd = _mm512_permutex2var_epi8(c, low_bytes, d);
    bytes = _mm512_inserti64x4(ab, _mm512_castsi512_si256(cd), 1);
  }
  _mm512_storeu_si512(o, bytes);
  return true;
}

/// Writes the n (at most 64) values at p as bytes at out when they are all at most FF (with
/// `low_bytes` as for narrow64): straight-line masked loads and one masked store; false (nothing
/// written) when one is not.
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool narrow_short(const In* p, std::size_t n, unsigned char* out,
                                                              __m512i low_bytes) noexcept {
  if constexpr (sizeof(In) == 2) {
    const __m512i over = _mm512_set1_epi16(static_cast<short>(0xFF00));
    if (n <= 32) {
      const __m512i u = _mm512_maskz_loadu_epi16(mask32(n), p);
      if (_mm512_test_epi16_mask(u, over) != 0) return false;
      _mm256_mask_storeu_epi8(out, mask32(n), _mm512_cvtepi16_epi8(u));
      return true;
    }
    const __m512i a = _mm512_loadu_si512(p), b = _mm512_maskz_loadu_epi16(mask32(n - 32), p + 32);
    if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), over) != 0) return false;
    _mm512_mask_storeu_epi8(out, mask64(n), _mm512_permutex2var_epi8(a, low_bytes, b));
    return true;
  } else {
    const __m512i over = _mm512_set1_epi32(static_cast<int>(0xFFFFFF00u));
    if (n <= 16) {
      const __m512i v = _mm512_maskz_loadu_epi32(mask16(n), p);
      if (_mm512_test_epi32_mask(v, over) != 0) return false;
      _mm_mask_storeu_epi8(out, mask16(n), _mm512_cvtepi32_epi8(v));
      return true;
    }
    const __m512i a = _mm512_loadu_si512(p);
    if (n <= 32) {
      const __m512i b = _mm512_maskz_loadu_epi32(mask16(n - 16), p + 16);
      if (_mm512_test_epi32_mask(_mm512_or_si512(a, b), over) != 0) return false;
      _mm256_mask_storeu_epi8(out, mask32(n), _mm512_castsi512_si256(_mm512_permutex2var_epi8(a, low_bytes, b)));
      return true;
    }
    const __m512i b = _mm512_loadu_si512(p + 16), c = _mm512_maskz_loadu_epi32(mask16(n - 32), p + 32);
    const __m512i d = n > 48 ? _mm512_maskz_loadu_epi32(mask16(n - 48), p + 48) : _mm512_setzero_si512();
    if (_mm512_test_epi32_mask(_mm512_ternarylogic_epi32(_mm512_or_si512(a, b), c, d, 0xFE), over) != 0) return false;
    const __m512i ab = _mm512_permutex2var_epi8(a, low_bytes, b), cd = _mm512_permutex2var_epi8(c, low_bytes, d);
    _mm512_mask_storeu_epi8(out, mask64(n), _mm512_inserti64x4(ab, _mm512_castsi512_si256(cd), 1));
    return true;
  }
}

/// narrow64 on 64 values at any alignment.
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool narrow64u(const In* p, unsigned char* o, __m512i low_bytes) noexcept {
  __m512i bytes;
  if constexpr (sizeof(In) == 2) {
    const __m512i a = _mm512_loadu_si512(p), b = _mm512_loadu_si512(p + 32);
    if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), _mm512_set1_epi16(static_cast<short>(0xFF00))) != 0) return false;
    bytes = _mm512_permutex2var_epi8(a, low_bytes, b);
  } else {
    const __m512i a = _mm512_loadu_si512(p), b = _mm512_loadu_si512(p + 16);
    const __m512i c = _mm512_loadu_si512(p + 32), d = _mm512_loadu_si512(p + 48);
    if (_mm512_test_epi32_mask(_mm512_ternarylogic_epi32(_mm512_or_si512(a, b), c, d, 0xFE),
                               _mm512_set1_epi32(static_cast<int>(0xFFFFFF00u))) != 0)
      return false;
    const __m512i ab = _mm512_permutex2var_epi8(a, low_bytes, b), cd = _mm512_permutex2var_epi8(c, low_bytes, d);
    bytes = _mm512_inserti64x4(ab, _mm512_castsi512_si256(cd), 1);
  }
  _mm512_storeu_si512(o, bytes);
  return true;
}

/// UTF-16 (In char16_t, 32 units a vector) or UTF-32 (16) to Latin-1 under Policy: blocks of
/// values up to FF narrowed in vectors, the others scalar.
template <class Policy, class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion units_to_latin1_by(const In* p, std::size_t n,
                                                                            unsigned char* out, unsigned char repl,
                                                                            std::size_t start) noexcept {
  constexpr std::size_t lanes = 64 / sizeof(In);
  // The low byte of each 16-bit (32-bit) lane of two vectors: bytes 2j (4j; the first 32 only used).
  const __m512i twice = _mm512_add_epi8(byte_iota(), byte_iota());
  const __m512i low_bytes = sizeof(In) == 2 ? twice : _mm512_add_epi8(twice, twice);
  latin1_progress s;
  // s.read, and s.read - s.written (which the vector blocks leave as it is), in registers.
  std::size_t i = start, lag = 0;
  while (i < n) {
    // From a 64-byte boundary, blocks of 64 while they fit (a tight loop); then, or before the
    // boundary, a masked block up to it.
    std::size_t head = units_to_line(p + i);
    if (head == 0) {
      while (n - i >= 64 && narrow64(p + i, out + (i - lag), low_bytes)) i += 64;
      if (i == n) break;
      head = units_to_line(p + i);
    }
    std::size_t k = n - i < lanes ? n - i : lanes;  // to the next 64-byte boundary at most
    if (head != 0 && head < k) k = head;
    const std::uint64_t live = low_bits(k);
    bool fits = false;
    if constexpr (sizeof(In) == 2) {
      const __m512i u = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(live), p + i);
      fits = _mm512_test_epi16_mask(u, _mm512_set1_epi16(static_cast<short>(0xFF00))) == 0;
      if (fits) _mm512_mask_cvtepi16_storeu_epi8(out + (i - lag), static_cast<__mmask32>(live), u);
    } else {
      const __m512i v = _mm512_maskz_loadu_epi32(static_cast<__mmask16>(live), p + i);
      fits = _mm512_test_epi32_mask(v, _mm512_set1_epi32(static_cast<int>(0xFFFFFF00u))) == 0;
      if (fits) _mm512_mask_cvtepi32_storeu_epi8(out + (i - lag), static_cast<__mmask16>(live), v);
    }
    if (UTF8DFA_LIKELY(fits)) {
      i += k;
      continue;
    }
    s.read = i;
    s.written = i - lag;
    UTF8DFA_LEAVE_AVX();
    if (!to_latin1_until<Policy>(p, n, i + k, out, s, repl)) return latin1_result(s, n, true);
    i = s.read;
    lag = i - s.written;
  }
  s.written = i - lag;
  return latin1_result(s, n, false);
}

/// units_to_latin1 of more than 64 units, or of up to 64 that do not all narrow: up to 1024
/// units, blocks of 64 from the start (unaligned) while their values are all up to FF, then the rest
/// in straight-line masked vectors (the same result under every policy); a block with a larger
/// value, and longer input, go to units_to_latin1_by from that block (which aligns its blocks).
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE packed_conversion units_to_latin1_rest(const In* p, std::size_t n,
                                                                              unsigned char* out,
                                                                              char32_t replacement) noexcept {
  std::size_t i = 0;
  if (n - 65 < 1024 - 64) {  // 65 to 1024
    const __m512i twice = _mm512_add_epi8(byte_iota(), byte_iota());
    const __m512i low_bytes = sizeof(In) == 2 ? twice : _mm512_add_epi8(twice, twice);
    while (n - i > 64 && narrow64u(p + i, out + i, low_bytes)) i += 64;
    if (n - i <= 64 && narrow_short(p + i, n - i, out + i, low_bytes)) return {n, n, error_code::none};
  }
  if (replacement == strict_marker) return units_to_latin1_by<strict>(p, n, out, 0, i);
  if (replacement == skip_marker) return units_to_latin1_by<skip>(p, n, out, 0, i);
  return units_to_latin1_by<replace>(p, n, out, static_cast<unsigned char>(replacement), i);
}

/// The kernel entry: up to 64 units narrowed here in straight-line masked vectors when they all are
/// at most FF, in a function that calls nothing then (so it saves no registers); anything else by a
/// tail call to units_to_latin1_rest.
template <class In>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE packed_conversion units_to_latin1(const In* p, std::size_t n,
                                                                           unsigned char* out,
                                                                           char32_t replacement) noexcept {
  if (n <= 64) {
    if (n == 0) return {0, 0, error_code::none};  // (a masked store of nothing: see utf16_to_utf32)
    const __m512i twice = _mm512_add_epi8(byte_iota(), byte_iota());
    const __m512i low_bytes = sizeof(In) == 2 ? twice : _mm512_add_epi8(twice, twice);
    if (narrow_short(p, n, out, low_bytes)) return {n, n, error_code::none};
  }
  return units_to_latin1_rest(p, n, out, replacement);
}

/// Widens the k (at most 32 or 16) Latin-1 bytes at p into UTF-16 (Out char16_t) or UTF-32 at o.
template <class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void widen_masked(const unsigned char* p, std::size_t k, Out* o) noexcept {
  const std::uint64_t live = low_bits(k);
  const __m512i x = _mm512_maskz_loadu_epi8(static_cast<__mmask64>(live), p);
  if constexpr (sizeof(Out) == 2)
    _mm512_mask_storeu_epi16(o, static_cast<__mmask32>(live), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(x)));
  else
    _mm512_mask_storeu_epi32(o, static_cast<__mmask16>(live), _mm512_cvtepu8_epi32(_mm512_castsi512_si128(x)));
}

/// Widens the r (at most 64) Latin-1 bytes at p into UTF-16 (Out char16_t) or UTF-32 at o: from 32
/// bytes (UTF-16) or 8 (UTF-32) on by whole vectors, the last one ending at r over the one before;
/// below, one masked load and masked stores (against simdutf icelake at 64 B of the corpora's
/// Latin-1, UTF-32 1.09x -> 1.30x, UTF-16 1.04x -> 1.09x; whole 16-byte halves for 16-31 bytes of
/// UTF-16 were slower than one masked store).
template <class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE void widen_short(const unsigned char* p, std::size_t r, Out* o) noexcept {
  if constexpr (sizeof(Out) == 2) {
    if (r >= 32) {
      _mm512_storeu_si512(o, _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
      _mm512_storeu_si512(o + r - 32,
                          _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + r - 32))));
      return;
    }
  } else {
    if (r >= 16) {
      for (std::size_t k = 0; k + 16 < r; k += 16)
        _mm512_storeu_si512(o + k, _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k))));
      _mm512_storeu_si512(o + r - 16,
                          _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + r - 16))));
      return;
    }
    if (r >= 8) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o),
                          _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + r - 8),
                          _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + r - 8))));
      return;
    }
  }
  const __m512i x = _mm512_maskz_loadu_epi8(mask64(r), p);
  if constexpr (sizeof(Out) == 2) {
    _mm512_mask_storeu_epi16(o, mask32(r), _mm512_cvtepu8_epi16(_mm512_castsi512_si256(x)));
    if (r > 32) _mm512_mask_storeu_epi16(o + 32, mask32(r - 32), _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(x, 1)));
  } else {
    _mm512_mask_storeu_epi32(o, mask16(r), _mm512_cvtepu8_epi32(_mm512_castsi512_si128(x)));
    if (r > 16) {
      _mm512_mask_storeu_epi32(o + 16, mask16(r - 16), _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(x, 1)));
      if (r > 32) {
        _mm512_mask_storeu_epi32(o + 32, mask16(r - 32), _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(x, 2)));
        if (r > 48)
          _mm512_mask_storeu_epi32(o + 48, mask16(r - 48), _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(x, 3)));
      }
    }
  }
}

/// Latin-1 to UTF-16 (Out char16_t) or UTF-32: 32 or 16 bytes widened a vector at a time, stored
/// from a 64-byte boundary of the output on (the head and the tail masked); up to 256 bytes, from
/// the start with unaligned stores and the rest masked (UTF-32 against simdutf icelake at 256 B of
/// the corpora's Latin-1: 0.94x [0.74] -> 1.04x [1.00], by that alone).
template <class Out>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE std::size_t latin1_widen(const unsigned char* p,
                                                                                   std::size_t n, Out* out) noexcept {
  constexpr std::size_t lanes = 64 / sizeof(Out);
  if (n <= 64) {           // short input: one masked load, masked stores
    if (n == 0) return 0;  // (a masked store of nothing can cost a fault assist: see utf16_to_utf32)
    widen_short(p, n, out);
    return n;
  }
  if (n <= 256) {  // 64 bytes a step from the start (unaligned stores), the rest masked
    std::size_t i = 0;
    for (; n - i > 64; i += 64) {
      if constexpr (sizeof(Out) == 2) {
        _mm512_storeu_si512(out + i, _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i))));
        _mm512_storeu_si512(out + i + 32,
                            _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32))));
      } else {
        for (std::size_t k = 0; k < 64; k += 16)
          _mm512_storeu_si512(out + i + k,
                              _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + k))));
      }
    }
    widen_short(p + i, n - i, out + i);
    return n;
  }
  std::size_t i = units_to_line(out) < n ? units_to_line(out) : n;
  if (i != 0) widen_masked(p, i, out);          // (as change_endianness: no masked store of nothing)
  for (; n - i >= 2 * lanes; i += 2 * lanes) {  // two vectors a step
    if constexpr (sizeof(Out) == 2) {
      _mm512_store_si512(out + i, _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i))));
      _mm512_store_si512(out + i + lanes,
                         _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + lanes))));
    } else {
      _mm512_store_si512(out + i, _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))));
      _mm512_store_si512(out + i + lanes,
                         _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + lanes))));
    }
  }
  for (; i < n; i += lanes) widen_masked(p + i, n - i < lanes ? n - i : lanes, out + i);
  return n;
}

/// Bytes of the UTF-8 of Latin-1: n plus the bytes 80..FF, counted in byte lanes (up to 255
/// blocks of 64 between two sums), the rest with a masked load.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline std::size_t utf8_length_from_latin1(const unsigned char* p,
                                                                                  std::size_t n) noexcept {
  const __m512i one = _mm512_set1_epi8(1);
  std::size_t total = n;
  std::size_t i = units_to_line(p) < n ? units_to_line(p) : n;  // to a 64-byte boundary first
  total += static_cast<std::size_t>(
      _mm_popcnt_u64(_mm512_movepi8_mask(_mm512_maskz_loadu_epi8(static_cast<__mmask64>(low_bits(i)), p))));
  while (n - i >= 64) {
    const std::size_t blocks = (n - i) / 64 < 255 ? (n - i) / 64 : 255;
    __m512i counts = _mm512_setzero_si512();
    for (std::size_t b = 0; b < blocks; ++b, i += 64)
      counts = _mm512_add_epi8(counts, _mm512_and_si512(_mm512_srli_epi16(_mm512_load_si512(p + i), 7), one));
    const __m512i sums = _mm512_sad_epu8(counts, _mm512_setzero_si512());
    total += static_cast<std::size_t>(_mm512_reduce_add_epi64(sums));
  }
  const __m512i x = _mm512_maskz_loadu_epi8(static_cast<__mmask64>(low_bits(n - i)), p + i);
  return total + static_cast<std::size_t>(_mm_popcnt_u64(_mm512_movepi8_mask(x)));
}

/// The byte shuffle that reverses each unit of `Unit`'s size.
template <class Unit>
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE __m512i unit_byte_reversal() noexcept {
  if constexpr (sizeof(Unit) == 2)
    return _mm512_broadcast_i32x4(_mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
  else
    return _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
}

/// change_endianness_utf16 / _utf32 (by Unit): one byte shuffle a vector, stored from a 64-byte
/// boundary of the output on (the head and the tail masked); `out` may be `p`.
template <class Unit>
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE UTF8DFA_ALIGN_CODE std::size_t change_endianness(const Unit* p, std::size_t n,
                                                                                        Unit* out) noexcept {
  constexpr std::size_t lanes = 64 / sizeof(Unit);
  if (n == 0) return 0;  // (a masked store of nothing can cost a fault assist: see utf16_to_utf32)
  const __m512i order = unit_byte_reversal<Unit>();
  const auto masked = [&](std::size_t i, std::size_t k) UTF8DFA_TARGET_AVX512 {  // k units at i
    const auto live = static_cast<__mmask64>(low_bits(k * sizeof(Unit)));
    _mm512_mask_storeu_epi8(out + i, live, _mm512_shuffle_epi8(_mm512_maskz_loadu_epi8(live, p + i), order));
  };
  if (n * sizeof(Unit) <= 512) {  // short input: whole vectors from the start (unaligned), the rest masked
    const auto* in = reinterpret_cast<const unsigned char*>(p);
    auto* o = reinterpret_cast<unsigned char*>(out);
    const std::size_t bytes = n * sizeof(Unit);
    std::size_t j = 0;
    for (; bytes - j >= 128; j += 128) {  // (each vector read before it is stored: out may be p)
      const __m512i a = _mm512_loadu_si512(in + j), b = _mm512_loadu_si512(in + j + 64);
      _mm512_storeu_si512(o + j, _mm512_shuffle_epi8(a, order));
      _mm512_storeu_si512(o + j + 64, _mm512_shuffle_epi8(b, order));
    }
    if (bytes - j >= 64) {
      _mm512_storeu_si512(o + j, _mm512_shuffle_epi8(_mm512_loadu_si512(in + j), order));
      j += 64;
    }
    // The last bytes (under 64) masked, and only they: in place, a load of bytes that a masked store
    // wrote waits until that store completes (a whole 128 bytes of input stored as one whole vector and
    // one masked: 64 B in place 0.90x [0.53] -> 1.01x [1.00] simdutf icelake).
    const std::size_t r = bytes - j;
    if (r != 0)
      _mm512_mask_storeu_epi8(o + j, mask64(r), _mm512_shuffle_epi8(_mm512_maskz_loadu_epi8(mask64(r), in + j), order));
    return n;
  }
  std::size_t i = units_to_line(out) < n ? units_to_line(out) : n;  // stores from a 64-byte boundary
  // (Not when there is no head: in place, the next load waited for a masked store of nothing to
  // the same line to complete; at 1 KiB 0.76x simdutf icelake's speed.)
  if (i != 0) masked(0, i);
  for (; n - i >= 2 * lanes; i += 2 * lanes) {
    const __m512i a = _mm512_loadu_si512(p + i), b = _mm512_loadu_si512(p + i + lanes);
    _mm512_store_si512(out + i, _mm512_shuffle_epi8(a, order));
    _mm512_store_si512(out + i + lanes, _mm512_shuffle_epi8(b, order));
  }
  if (n - i >= lanes) {
    _mm512_store_si512(out + i, _mm512_shuffle_epi8(_mm512_loadu_si512(p + i), order));
    i += lanes;
  }
  if (i < n) masked(i, n - i);
  return n;
}

/// validate_utf16 on units with their bytes exchanged (the surrogate tests by surrogate_key, no byte
/// shuffle; the pair checks of blocks that hold a surrogate exchange the bytes as loaded).
/// validate_utf16_swapped of more than 1024 units.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_utf16_swapped_long(const char16_t* p,
                                                                                            std::size_t n) noexcept {
  return validate_utf16_blocks<true, &validate_utf16_swapped_scalar>(p, n, 0);
}

/// The kernel entry, as validate_utf16's.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_utf16_swapped(const char16_t* p,
                                                                                       std::size_t n) noexcept {
  if (n <= 64) {  // short input: one or two masked vectors
    if (UTF8DFA_LIKELY(no_surrogate64<true>(p, n) || paired64(surrogates64<true>(p, n))))
      return {n, 0, error_code::none};
  } else if (n <= 1024) {  // vectors from the start, one test
    if (UTF8DFA_LIKELY(utf16_pairs_up<true>(p, n))) return {n, 0, error_code::none};
  } else {
    return validate_utf16_swapped_long(p, n);
  }
  UTF8DFA_LEAVE_AVX();
  return validate_utf16_again<&validate_utf16_swapped_scalar>(p, n);
}

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

#endif
// ---- end utf8dfa/detail/simd/avx512/units_bulk.hpp ----

#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx512 {

inline constexpr kernel_table table{
    "avx512",
    &validate,
    &count_leads,
    &utf16_length,
    // Short inputs (under 12 UTF-8 bytes, 8 UTF-16 or UTF-32 units) go to the scalar DFA: the vector
    // path costs about 10-15 ns from one unit up, the DFA about 1 ns a byte of non-ASCII text.
    &vector_from<unsigned char, char32_t, &utf8_to_utf32, scalar_utf8_to_utf32, 12>,
    &vector_from<unsigned char, char16_t, &utf8_to_utf16, scalar_utf8_to_utf16, 12>,
    &vector_from<char16_t, unsigned char, &utf16_to_utf8, scalar_utf16_to_utf8, 8>,
    &vector_from<char32_t, unsigned char, &utf32_to_utf8, scalar_utf32_to_utf8, 8>,
    &utf16_length_from_utf8,
    &utf32_length_from_utf8,
    &utf8_length_from_utf16,
    &utf8_length_from_utf32,  // Latin-1 and UTF-16 / UTF-32 input (masked loads and stores: no size too small); the
    // conversions with a policy take the scalar code under 16 units.
    &latin1_to_utf8,
    &vector_from<unsigned char, unsigned char, &utf8_to_latin1, scalar_utf8_to_latin1, 16>,
    &validate_utf16,
    &utf16_to_utf32,  // (the scalar code under 16 units chosen inside, after a masked vector)
    &utf32_to_utf16,
    &to_well_formed_utf16,
    &count_utf16,
    &validate_utf32,
    &units_to_latin1<char16_t>,
    &units_to_latin1<char32_t>,
    &latin1_widen<char16_t>,
    &latin1_widen<char32_t>,
    &utf8_length_from_latin1,
    &change_endianness<char16_t>,
    &change_endianness<char32_t>,
    &validate_utf16_swapped,
    &vector_from<char16_t, unsigned char, &utf16_swapped_to_utf8, scalar_utf16_swapped_to_utf8, 8>,
    &vector_from<unsigned char, char16_t, &utf8_to_utf16_swapped, scalar_utf8_to_utf16_swapped, 12>,
};

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/avx512/kernels.hpp ----
// ---- begin utf8dfa/detail/simd/neon/kernels.hpp ----
// utf8dfa: the NEON kernel table (ARM64).
#ifndef UTF8DFA_DETAIL_SIMD_NEON_KERNELS_HPP
#define UTF8DFA_DETAIL_SIMD_NEON_KERNELS_HPP

// ---- begin utf8dfa/detail/simd/neon/transcode.hpp ----
// utf8dfa: NEON transcoding kernels (ARM64). Same results as the scalar functions of scalar.hpp,
// byte for byte, for every policy: what the vector steps take is well-formed, and a block holding
// an error (or a form they do not take) is re-run through the scalar decoder up to the block end.
//
// UTF-8 input: 64-byte blocks starting on a character boundary are checked as the start of a text
// would be (validate.hpp's checker); a valid block is decoded in windows of 12 bytes, each step
// taking the characters that end in the window (up to 8 of 1..3 bytes, or up to 4 of 1..4 bytes)
// by one tbl lookup indexed by the window's character ends. NEON has no masked stores: a store of a
// full vector writes past the units produced only where the rest of the checked block is known to
// produce at least as many units (its complete characters); elsewhere exactly the units produced
// are written.
#ifndef UTF8DFA_DETAIL_SIMD_NEON_TRANSCODE_HPP
#define UTF8DFA_DETAIL_SIMD_NEON_TRANSCODE_HPP


// ---- begin utf8dfa/detail/simd/neon/tables.hpp ----
// utf8dfa: the shuffle tables of the NEON transcoding kernels, built at run time on first use (as
// constants they would be evaluated in every translation unit that includes the kernels).
#ifndef UTF8DFA_DETAIL_SIMD_NEON_TABLES_HPP
#define UTF8DFA_DETAIL_SIMD_NEON_TABLES_HPP



#if UTF8DFA_NEON_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace neon {

/// Bytes of the UTF-8 window that a decoding step reads the character ends of.
inline constexpr unsigned window_bytes = 12;
/// The longest piece the windows of characters of 1..4 bytes (any) and 1..3 bytes (bmp) take: a
/// window whose first character is longer takes nothing (the unchecked decoding's guard relies on
/// these, see transcode.hpp).
inline constexpr unsigned any_longest = 4, bmp_longest = 3;

struct shuffle_tables {
  /// UTF-8 windows of characters of 1..3 bytes, indexed by the 12-bit mask of character ends (bit
  /// k: byte k is the last of a character): for up to 8 characters, the tbl controls that put in
  /// 16-bit lane j (last byte, byte before it) and (first byte of a 3-byte form, 0); then the bytes
  /// the characters take plus 256 times their count.
  std::uint8_t bmp_shuffle[4096][32];
  std::uint16_t bmp_meta[4096];
  /// The same for characters of 1..4 bytes, up to 4 of them, in 32-bit lanes (last byte first);
  /// the bytes they take, their count, their UTF-16 units and which are 4 bytes long (bit j:
  /// character j) in bytes 0..3.
  std::uint8_t any_shuffle[4096][16];
  std::uint32_t any_meta[4096];
  /// For 4 dwords each holding a unit's bytes (its low byte for a 1-byte form; else byte 1 the last
  /// byte, byte 2 a 3-byte lead, byte 3 a 2-byte lead or a 3-byte form's second byte), indexed by
  /// bit c: form c is 1 byte long, bit c + 4: at most 2 bytes: the control that packs the forms
  /// (1 byte: 0; 2: 3, 1; 3: 2, 3, 1), and the packed length.
  std::uint8_t pack_bmp_utf8[256][16];
  std::uint8_t bmp_utf8_length[256];
  /// For 8 words holding UTF-8 forms of 1 or 2 bytes (bit k: word k's form is 2 bytes long).
  std::uint8_t pack_short_utf8[256][16];
  std::uint8_t short_utf8_length[256];
  /// For 4 dwords holding one UTF-16 unit (bit c clear) or a surrogate pair (bit c set).
  std::uint8_t pack_pairs[16][16];
  /// For 8 bytes: the indices of those whose bit is set, lowest first (the rest 0xFF); the same
  /// plus 8 (for the high half of a vector); how many bits are set.
  std::uint8_t pack_bytes[256][8];
  std::uint8_t pack_high_bytes[256][8];
  std::uint8_t bit_count[256];
};

inline void build_utf8_windows(shuffle_tables& t) noexcept {
  for (unsigned m = 0; m < 4096; ++m) {
    for (unsigned any = 0; any < 2; ++any) {
      const unsigned max_len = any != 0 ? any_longest : bmp_longest, max_count = any != 0 ? 4 : 8;
      std::uint8_t* s = any != 0 ? t.any_shuffle[m] : t.bmp_shuffle[m];
      const unsigned width = any != 0 ? 16 : 32;
      for (unsigned k = 0; k < width; ++k) s[k] = 0xFF;
      unsigned start = 0, count = 0, units16 = 0, fours = 0;
      for (unsigned k = 0; k < window_bytes && count < max_count; ++k) {
        if (((m >> k) & 1u) == 0) continue;
        const unsigned len = k - start + 1;
        if (len > max_len) break;
        for (unsigned b = 0; b < len; ++b) {
          const auto at = static_cast<std::uint8_t>(k - b);  // b-th byte from the end
          if (any != 0)
            s[4 * count + b] = at;
          else if (b < 2)
            s[2 * count + b] = at;
          else
            s[16 + 2 * count] = at;
        }
        if (len == 4) fours |= 1u << count;
        units16 += len == 4 ? 2 : 1;
        ++count;
        start = k + 1;
      }
      if (any != 0) {
        t.any_meta[m] = start | count << 8 | units16 << 16 | fours << 24;
      } else {
        t.bmp_meta[m] = static_cast<std::uint16_t>(start + 256 * count);
      }
    }
  }
}

inline void build_packers(shuffle_tables& t) noexcept {
  for (unsigned m = 0; m < 256; ++m) {
    unsigned at = 0;
    for (unsigned c = 0; c < 4; ++c) {
      const unsigned len = ((m >> c) & 1u) != 0 ? 1 : ((m >> (c + 4)) & 1u) != 0 ? 2 : 3;
      static constexpr std::uint8_t order[3][3] = {{0}, {3, 1}, {2, 3, 1}};
      for (unsigned b = 0; b < len; ++b)
        t.pack_bmp_utf8[m][at++] = static_cast<std::uint8_t>(4 * c + order[len - 1][b]);
    }
    t.bmp_utf8_length[m] = static_cast<std::uint8_t>(at);
    for (; at < 16; ++at) t.pack_bmp_utf8[m][at] = 0xFF;
    unsigned bytes = 0;
    for (unsigned u = 0; u < 8; ++u)
      for (unsigned b = 0; b <= ((m >> u) & 1u); ++b)
        t.pack_short_utf8[m][bytes++] = static_cast<std::uint8_t>(2 * u + b);
    t.short_utf8_length[m] = static_cast<std::uint8_t>(bytes);
    for (; bytes < 16; ++bytes) t.pack_short_utf8[m][bytes] = 0xFF;
    unsigned kept = 0;
    for (unsigned b = 0; b < 8; ++b)
      if (((m >> b) & 1u) != 0) {
        t.pack_high_bytes[m][kept] = static_cast<std::uint8_t>(b + 8);
        t.pack_bytes[m][kept++] = static_cast<std::uint8_t>(b);
      }
    t.bit_count[m] = static_cast<std::uint8_t>(kept);
    for (; kept < 8; ++kept) t.pack_bytes[m][kept] = t.pack_high_bytes[m][kept] = 0xFF;
  }
  for (unsigned m = 0; m < 16; ++m) {
    unsigned at = 0;
    for (unsigned c = 0; c < 4; ++c)
      for (unsigned b = 0; b < (((m >> c) & 1u) != 0 ? 4u : 2u); ++b)
        t.pack_pairs[m][at++] = static_cast<std::uint8_t>(4 * c + b);
    for (; at < 16; ++at) t.pack_pairs[m][at] = 0xFF;
  }
}

inline shuffle_tables tables{};

/// Fills `tables`, once (a thread-safe local static), before the first kernel that reads them.
inline void prepare_tables() noexcept {
  static const bool ready = (build_utf8_windows(tables), build_packers(tables), true);
  static_cast<void>(ready);
}

}  // namespace neon
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/neon/tables.hpp ----
// ---- begin utf8dfa/detail/simd/neon/validate.hpp ----
// utf8dfa: NEON validation and counting for ARM64 (16-byte vectors, 64-byte blocks). NEON is always
// present on ARM64, so no run-time check or target region is needed.
#ifndef UTF8DFA_DETAIL_SIMD_NEON_VALIDATE_HPP
#define UTF8DFA_DETAIL_SIMD_NEON_VALIDATE_HPP


#if UTF8DFA_NEON_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace neon {

/// Subtracted (saturating) from the last 16 bytes: non-zero when they end inside a character.
inline constexpr std::uint8_t incomplete_limit[16] = {0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      0xFF,
                                                      static_cast<std::uint8_t>(lead4_min - 1),
                                                      static_cast<std::uint8_t>(lead3_min - 1),
                                                      utf8_tail.hi};

/// The block check with its constants loaded once.
struct checker {
  uint8x16_t first_high, first_low, second_high, nibble, lead3, lead4, high_bit, limit;

  checker() noexcept
      : first_high(vld1q_u8(pair_lookup.first_high)),
        first_low(vld1q_u8(pair_lookup.first_low)),
        second_high(vld1q_u8(pair_lookup.second_high)),
        nibble(vdupq_n_u8(0x0F)),
        lead3(vdupq_n_u8(static_cast<std::uint8_t>(lead3_min - 0x80u))),
        lead4(vdupq_n_u8(static_cast<std::uint8_t>(lead4_min - 0x80u))),
        high_bit(vdupq_n_u8(0x80)),
        limit(vld1q_u8(incomplete_limit)) {}

  /// Non-zero where the pair check or the 3-/4-byte continuation check fails in `in`.
  uint8x16_t operator()(uint8x16_t in, uint8x16_t prev) const noexcept {
    const uint8x16_t prev1 = vextq_u8(prev, in, 15);
    const uint8x16_t a = vqtbl1q_u8(first_high, vshrq_n_u8(prev1, 4));
    const uint8x16_t b = vqtbl1q_u8(first_low, vandq_u8(prev1, nibble));
    const uint8x16_t c = vqtbl1q_u8(second_high, vshrq_n_u8(in, 4));
    const uint8x16_t flags = vandq_u8(vandq_u8(a, b), c);
    // Saturating subtraction leaves bit 7 set exactly for prev2 >= lead3_min, prev3 >= lead4_min.
    const uint8x16_t is3 = vqsubq_u8(vextq_u8(prev, in, 14), lead3);
    const uint8x16_t is4 = vqsubq_u8(vextq_u8(prev, in, 13), lead4);
    return veorq_u8(flags, vandq_u8(vorrq_u8(is3, is4), high_bit));
  }
  uint8x16_t ends_incomplete(uint8x16_t in) const noexcept { return vqsubq_u8(in, limit); }
};

/// Whether a byte of v is not 0: a saturating narrowing to 64 bits (one instruction, quicker than
/// a reduction across the lanes), then a test of those.
inline bool any(uint8x16_t v) noexcept {
  return vget_lane_u64(vreinterpret_u64_u8(vqmovn_u16(vreinterpretq_u16_u8(v))), 0) != 0;
}

struct block {
  uint8x16_t v[4];
};

inline block load_block(const unsigned char* p) noexcept {
  return {{vld1q_u8(p), vld1q_u8(p + 16), vld1q_u8(p + 32), vld1q_u8(p + 48)}};
}

/// Checks the 64 bytes `b` (preceded by `prev`); returns the error vector.
inline uint8x16_t check_block(const checker& check, const block& b, uint8x16_t prev, uint8x16_t& incomplete) noexcept {
  const uint8x16_t all = vorrq_u8(vorrq_u8(b.v[0], b.v[1]), vorrq_u8(b.v[2], b.v[3]));
  if (vmaxvq_u8(all) < 0x80) return incomplete;  // ASCII: only a cut character before it fails
  uint8x16_t err = vorrq_u8(check(b.v[0], prev), check(b.v[1], b.v[0]));
  err = vorrq_u8(err, vorrq_u8(check(b.v[2], b.v[1]), check(b.v[3], b.v[2])));
  incomplete = check.ends_incomplete(b.v[3]);
  return err;
}

/// Inputs shorter than this go to the scalar DFA (the checks need 80 readable bytes).
inline constexpr std::size_t min_block_input = 80;

/// How far past the block start a failing check_blocks step reaches.
inline constexpr std::size_t block_span = 64;

/// Runs the block checks over [p, p+n) (n >= min_block_input): `blocks_pass` when they all pass
/// (the input is well-formed), else b such that [0, b) passed and [b, b + block_span) failed.
inline std::size_t check_blocks(const unsigned char* p, std::size_t n) noexcept {
  const checker check;
  uint8x16_t prev = vdupq_n_u8(0), incomplete = vdupq_n_u8(0);
  std::size_t i = 0;
  while (n - i >= 64) {
    const block b = load_block(p + i);
    // ASCII: only a character cut before it fails; then the run of ASCII blocks after it in a
    // loop of its own, with nothing else to check.
    if (vmaxvq_u8(vorrq_u8(vorrq_u8(b.v[0], b.v[1]), vorrq_u8(b.v[2], b.v[3]))) < 0x80) {
      if (UTF8DFA_UNLIKELY(any(incomplete))) return i;
      for (i += 64; n - i >= 64; i += 64) {
        const uint8x16x4_t v = vld1q_u8_x4(p + i);
        if (vmaxvq_u8(vorrq_u8(vorrq_u8(v.val[0], v.val[1]), vorrq_u8(v.val[2], v.val[3]))) >= 0x80) break;
      }
      prev = vld1q_u8(p + i - 16);
      continue;
    }
    if (UTF8DFA_UNLIKELY(any(check_block(check, b, prev, incomplete)))) return i;
    prev = b.v[3];
    i += 64;
  }
  // The last 64 bytes again (re-checking bytes that passed is harmless), then the end of input.
  uint8x16_t err = incomplete;
  if (i < n) {
    const block b = load_block(p + n - 64);
    uint8x16_t ignored = incomplete;
    err = vorrq_u8(check_block(check, b, vld1q_u8(p + n - 80), ignored), check.ends_incomplete(b.v[3]));
  }
  if (UTF8DFA_UNLIKELY(any(err))) return i;
  return blocks_pass;
}

/// validate_scalar's answer, 64 bytes per step.
inline packed_validation validate(const unsigned char* p, std::size_t n) noexcept {
  if (n < min_block_input) return validate_scalar(p, n);
  const std::size_t b = check_blocks(p, n);
  if (UTF8DFA_LIKELY(b == blocks_pass)) return {n, 0, error_code::none};
  return rescan_from(p, n, b);
}

/// Counts the lead bytes (and with `extra` also the bytes >= F0) of [i, n): 64 bytes a step in
/// byte lanes (two sums of two comparisons each, so that the accumulator's chain is two adds long),
/// flushed before a lane could wrap; then whole vectors. Advances i past what it counted.
inline std::size_t count_vectors(const unsigned char* p, std::size_t n, bool extra, std::size_t& i) noexcept {
  const int8x16_t limit = vdupq_n_s8(-65);
  const uint8x16_t four = vdupq_n_u8(lead4_min);
  std::size_t count = 0;
  // Lanes of a comparison are 0 or -1: the accumulators subtract them.
  const auto leads = [&](uint8x16_t v) { return vcgtq_s8(vreinterpretq_s8_u8(v), limit); };
  while (n - i >= 64) {
    const std::size_t most = extra ? 31 : 63;  // a lane gains 4 a step, or 8 with `extra`
    const std::size_t blocks = (n - i) / 64 < most ? (n - i) / 64 : most;
    uint8x16_t acc = vdupq_n_u8(0);
    for (std::size_t k = 0; k < blocks; ++k, i += 64) {
      const uint8x16x4_t b = vld1q_u8_x4(p + i);
      acc = vsubq_u8(acc, vaddq_u8(leads(b.val[0]), leads(b.val[1])));
      acc = vsubq_u8(acc, vaddq_u8(leads(b.val[2]), leads(b.val[3])));
      if (extra) {
        acc = vsubq_u8(acc, vaddq_u8(vcgeq_u8(b.val[0], four), vcgeq_u8(b.val[1], four)));
        acc = vsubq_u8(acc, vaddq_u8(vcgeq_u8(b.val[2], four), vcgeq_u8(b.val[3], four)));
      }
    }
    count += vaddlvq_u8(acc);
  }
  for (; n - i >= 16; i += 16) {
    const uint8x16_t in = vld1q_u8(p + i);
    uint8x16_t acc = vsubq_u8(vdupq_n_u8(0), leads(in));
    if (extra) acc = vsubq_u8(acc, vcgeq_u8(in, four));
    count += vaddvq_u8(acc);
  }
  return count;
}

/// Bytes that are not continuation bytes.
inline std::size_t count_leads(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  const std::size_t count = count_vectors(p, n, false, i);
  return count + count_leads_scalar(p + i, n - i);
}

/// UTF-16 units of well-formed input: leads, plus one more for each 4-byte lead (F0..FF).
inline std::size_t utf16_length(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  const std::size_t count = count_vectors(p, n, true, i);
  return count + utf16_length_scalar(p + i, n - i);
}

}  // namespace neon
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/neon/validate.hpp ----

#if UTF8DFA_NEON_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace neon {

/// Payload bits of a byte by its high nibble: ASCII 7, continuation 6, leads 5, 4 and 3.
inline constexpr std::uint8_t payload_masks[16] = {0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F,
                                                   0x3F, 0x3F, 0x3F, 0x3F, 0x1F, 0x1F, 0x0F, 0x07};
inline constexpr std::uint8_t bit_weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
inline constexpr std::uint16_t word_weights[8] = {1, 2, 4, 8, 16, 32, 64, 128};
inline constexpr std::uint32_t dword_weights[4] = {1, 2, 4, 8};

/// p, as a value the compiler keeps in a register rather than recomputing it from the address of
/// the table it points into (which costs two instructions a use in a loop): opaque.
template <class T>
UTF8DFA_ALWAYS_INLINE const T* in_register(const T* p) noexcept {
  return opaque(p);
}

/// v, as a value the compiler keeps in a register rather than making it again in a loop.
UTF8DFA_ALWAYS_INLINE uint8x16_t in_register(uint8x16_t v) noexcept {
#if defined(__GNUC__)
  __asm__("" : "+w"(v));
#endif
  return v;
}

/// The 64-bit mask of four 16-byte comparison results (bit k: byte k of the 64 is 0xFF).
UTF8DFA_ALWAYS_INLINE std::uint64_t bits64(uint8x16_t m0, uint8x16_t m1, uint8x16_t m2, uint8x16_t m3) noexcept {
  const uint8x16_t w = vld1q_u8(bit_weights);
  const uint8x16_t t0 = vpaddq_u8(vandq_u8(m0, w), vandq_u8(m1, w));
  const uint8x16_t t1 = vpaddq_u8(vandq_u8(m2, w), vandq_u8(m3, w));
  const uint8x16_t t2 = vpaddq_u8(t0, t1);
  return vgetq_lane_u64(vreinterpretq_u64_u8(vpaddq_u8(t2, t2)), 0);
}

UTF8DFA_ALWAYS_INLINE unsigned popcount64(std::uint64_t v) noexcept {
  return vaddv_u8(vcnt_u8(vcreate_u8(v)));
}

/// Stores the first `bytes` (0..16) bytes of v at o, and nothing else.
UTF8DFA_ALWAYS_INLINE void store_exact(unsigned char* o, uint8x16_t v, unsigned bytes) noexcept {
  if (bytes == 16) {
    vst1q_u8(o, v);
    return;
  }
  if ((bytes & 8u) != 0) {
    vst1_u8(o, vget_low_u8(v));
    o += 8;
    v = vextq_u8(v, v, 8);
  }
  if ((bytes & 4u) != 0) {
    const std::uint32_t x = vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
    std::memcpy(o, &x, 4);
    o += 4;
    v = vextq_u8(v, v, 4);
  }
  if ((bytes & 2u) != 0) {
    const std::uint16_t x = vgetq_lane_u16(vreinterpretq_u16_u8(v), 0);
    std::memcpy(o, &x, 2);
    o += 2;
    v = vextq_u8(v, v, 2);
  }
  if ((bytes & 1u) != 0) *o = vgetq_lane_u8(v, 0);
}

/// u with the two bytes of each unit exchanged when Swap (UTF-16 in the byte order opposite to the
/// host's, as loaded or to be stored): one instruction.
template <bool Swap>
UTF8DFA_ALWAYS_INLINE uint16x8_t in_order16(uint16x8_t u) noexcept {
  return Swap ? vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(u))) : u;
}

/// Stores the first `count` units of the 8 in `u` at o, as UTF-16 (in the other byte order when
/// Swap) or UTF-32 (by Out); with `spill`, all 8.
template <bool Swap = false, class Out>
UTF8DFA_ALWAYS_INLINE void put8(Out* o, uint16x8_t u, unsigned count, bool spill) noexcept {
  auto* const bytes = reinterpret_cast<unsigned char*>(o);
  if constexpr (sizeof(Out) == 2) {
    u = in_order16<Swap>(u);
    if (spill)
      vst1q_u16(reinterpret_cast<std::uint16_t*>(o), u);
    else
      store_exact(bytes, vreinterpretq_u8_u16(u), 2 * count);
  } else {
    const uint32x4_t lo = vmovl_u16(vget_low_u16(u)), hi = vmovl_high_u16(u);
    if (spill) {
      vst1q_u32(reinterpret_cast<std::uint32_t*>(o), lo);
      vst1q_u32(reinterpret_cast<std::uint32_t*>(o) + 4, hi);
    } else if (count <= 4) {
      store_exact(bytes, vreinterpretq_u8_u32(lo), 4 * count);
    } else {
      vst1q_u32(reinterpret_cast<std::uint32_t*>(o), lo);
      store_exact(bytes + 16, vreinterpretq_u8_u32(hi), 4 * (count - 4));
    }
  }
}

/// Stores the first `count` bytes of v at o; with `spill`, all 16.
UTF8DFA_ALWAYS_INLINE void put_bytes(unsigned char* o, uint8x16_t v, unsigned count, bool spill) noexcept {
  if (spill)
    vst1q_u8(o, v);
  else
    store_exact(o, v, count);
}

/// tbl controls that widen bytes 4k..4k+3 of a vector to four 32-bit lanes (k = 0..3).
inline constexpr std::uint8_t widen32_controls[64] = {
    0,  0xFF, 0xFF, 0xFF, 1,  0xFF, 0xFF, 0xFF, 2,  0xFF, 0xFF, 0xFF, 3,  0xFF, 0xFF, 0xFF,
    4,  0xFF, 0xFF, 0xFF, 5,  0xFF, 0xFF, 0xFF, 6,  0xFF, 0xFF, 0xFF, 7,  0xFF, 0xFF, 0xFF,
    8,  0xFF, 0xFF, 0xFF, 9,  0xFF, 0xFF, 0xFF, 10, 0xFF, 0xFF, 0xFF, 11, 0xFF, 0xFF, 0xFF,
    12, 0xFF, 0xFF, 0xFF, 13, 0xFF, 0xFF, 0xFF, 14, 0xFF, 0xFF, 0xFF, 15, 0xFF, 0xFF, 0xFF};

/// The 64 ASCII bytes of v widened to 64 units at o (UTF-32: each vector by four single-register
/// table lookups, which cores run two or more a cycle, rather than a tree of six widenings).
template <bool Swap, class Out>
UTF8DFA_ALWAYS_INLINE void widen64(Out* o, const uint8x16x4_t& v, const uint8x16x4_t& controls) noexcept {
  if constexpr (sizeof(Out) == 2 && Swap) {
    // (each byte after a zero byte: the unit in the other byte order)
    auto* q = reinterpret_cast<std::uint8_t*>(o);
    const uint8x16_t zero = vdupq_n_u8(0);
    for (int k = 0; k < 4; k += 2) {
      const uint8x16x4_t w = {{vzip1q_u8(zero, v.val[k]), vzip2q_u8(zero, v.val[k]), vzip1q_u8(zero, v.val[k + 1]),
                               vzip2q_u8(zero, v.val[k + 1])}};
      vst1q_u8_x4(q + 32 * k, w);
    }
  } else if constexpr (sizeof(Out) == 2) {
    auto* q = reinterpret_cast<std::uint16_t*>(o);
    for (int k = 0; k < 4; k += 2) {
      const uint16x8x4_t w = {{vmovl_u8(vget_low_u8(v.val[k])), vmovl_high_u8(v.val[k]),
                               vmovl_u8(vget_low_u8(v.val[k + 1])), vmovl_high_u8(v.val[k + 1])}};
      vst1q_u16_x4(q + 16 * k, w);
    }
  } else {
    auto* q = reinterpret_cast<std::uint8_t*>(o);
    for (int k = 0; k < 4; ++k) {
      const uint8x16x4_t w = {{vqtbl1q_u8(v.val[k], controls.val[0]), vqtbl1q_u8(v.val[k], controls.val[1]),
                               vqtbl1q_u8(v.val[k], controls.val[2]), vqtbl1q_u8(v.val[k], controls.val[3])}};
      vst1q_u8_x4(q + 64 * k, w);
    }
  }
}

/// Widens the ASCII block `first` at c.i, and the ASCII blocks after it while 80 bytes are left,
/// in a loop of their own.
template <bool Swap, class Out>
UTF8DFA_ALWAYS_INLINE void widen_ascii_blocks(const unsigned char* p, std::size_t n, const block& first,
                                              transcode_cursor<Out>& c) noexcept {
  const unsigned char* s = p + c.i;
  const unsigned char* const last = p + n - 80;
  Out* o = c.o;
  const uint8x16x4_t controls = vld1q_u8_x4(widen32_controls);
  widen64<Swap>(o, uint8x16x4_t{{first.v[0], first.v[1], first.v[2], first.v[3]}}, controls);
  for (s += 64, o += 64; s <= last; s += 64, o += 64) {
    const uint8x16x4_t v = vld1q_u8_x4(s);
    if (vmaxvq_u8(vorrq_u8(vorrq_u8(v.val[0], v.val[1]), vorrq_u8(v.val[2], v.val[3]))) >= 0x80) break;
    widen64<Swap>(o, v, controls);
  }
  c.i = static_cast<std::size_t>(s - p);
  c.o = o;
}

/// Writes the 16 units of 16 3-byte characters whose bytes are t (first, second, last).
template <bool Swap, class Out>
UTF8DFA_ALWAYS_INLINE void put_threes(Out* o, const uint8x16x3_t& t) noexcept {
  const uint8x16_t low = vsliq_n_u8(t.val[2], t.val[1], 6);                  // bbcccccc
  const uint8x16_t high = vsliq_n_u8(vshrq_n_u8(t.val[1], 2), t.val[0], 4);  // aaaabbbb
  if constexpr (sizeof(Out) == 2) {
    vst2q_u8(reinterpret_cast<std::uint8_t*>(o), Swap ? uint8x16x2_t{{high, low}} : uint8x16x2_t{{low, high}});
  } else {
    const uint8x16_t zero = vdupq_n_u8(0);
    vst4q_u8(reinterpret_cast<std::uint8_t*>(o), (uint8x16x4_t{{low, high, zero, zero}}));
  }
}

/// The ends (bits 0..14 of a window's) of five 3-byte characters, and the tbl controls that put
/// their (last byte, byte before) and their lead's bits in 16-bit lanes 0..4.
inline constexpr std::uint64_t five3_ends = 0x4924;
inline constexpr std::uint8_t five3_controls[32] = {2,    1,    5,    4,    8,    7,    11,   10,   14,   13,  0xFF,
                                                    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0,    0xFF, 3,    0xFF, 6,   0xFF,
                                                    9,    0xFF, 12,   0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

/// Decodes the characters of the block at p + start (its character ends `ends`), which passed the
/// check (or, unchecked, the guard of utf8_to_utf_impl), in windows, from c.i while the window's ends
/// lie in the block: Any, characters of 1..4 bytes; else of 1..3 (Three) or 1..2; Ascii, runs of 8
/// ASCII bytes or more 16 at a time (in a checked block, a run of ends from a character start is a
/// run of ASCII bytes; unchecked, it is a run of 1-byte pieces, written as they are).
template <bool Any, bool Three, bool Ascii, bool Swap, class Out>
UTF8DFA_ALWAYS_INLINE void decode_windows(const unsigned char* p, std::size_t start, std::uint64_t ends, Out* safe_end,
                                          transcode_cursor<Out>& c) noexcept {
  const shuffle_tables& t = tables;
  const std::uint8_t* const shuffle = in_register(Any ? &t.any_shuffle[0][0] : &t.bmp_shuffle[0][0]);
  const std::uint16_t* const bmp_meta = in_register(t.bmp_meta);
  const std::uint32_t* const any_meta = in_register(t.any_meta);
  const uint8x16_t payload = vld1q_u8(payload_masks);
  const uint8x16_t five3_low = vld1q_u8(five3_controls), five3_lead = vld1q_u8(five3_controls + 16);
  const std::size_t limit = start + 64 - window_bytes;  // window ends read in the block
  std::uint64_t e = ends >> (c.i - start);              // the ends from c.i on (none past the block)
  while (c.i < limit) {
    if (Ascii && (e & 0xFF) == 0xFF) {  // 8 ASCII characters or more: 16 units
      unsigned k = static_cast<unsigned>(__builtin_ctzll(~e));
      if (k > 16) k = 16;
      const uint8x16_t v = vld1q_u8(p + c.i);
      const bool spill = k == 16 || c.o + 16 <= safe_end;
      put8<Swap>(c.o, vmovl_u8(vget_low_u8(v)), k < 8 ? k : 8, spill);
      put8<Swap>(c.o + 8, vmovl_high_u8(v), k - 8, spill);
      c.i += k;
      c.o += k;
      e >>= k;
      continue;
    }
    const std::size_t m = static_cast<std::size_t>(e) & 0xFFFu;
    const uint8x16_t v = vld1q_u8(p + c.i);
    const uint8x16_t bits = vandq_u8(v, vqtbl1q_u8(payload, vshrq_n_u8(v, 4)));
    if constexpr (!Any) {
      // (Bit 14 of e is a byte of the block, as bit 63 of `ends` is 0: the 15 bytes are in it.)
      if (Three && (e & 0x7FFFu) == five3_ends) {
        // Five 3-byte characters: one step of 15 bytes, fixed controls.
        const uint16x8_t two = vreinterpretq_u16_u8(vqtbl1q_u8(bits, five3_low));
        const uint16x8_t cp = vmlsq_n_u16(two, vshrq_n_u16(two, 8), 192);
        put8<Swap>(c.o, vsliq_n_u16(cp, vreinterpretq_u16_u8(vqtbl1q_u8(bits, five3_lead)), 12), 5,
                   c.o + 8 <= safe_end);
        c.i += 15;
        c.o += 5;
        e >>= 15;
        continue;
      }
      // Lane j: (last byte, byte before) = lo + 256 hi -> lo + 64 hi; a 3-byte lead's 4 bits on top.
      const uint8x16x2_t controls = vld1q_u8_x2(shuffle + 32 * m);
      const uint16x8_t two = vreinterpretq_u16_u8(vqtbl1q_u8(bits, controls.val[0]));
      uint16x8_t cp = vmlsq_n_u16(two, vshrq_n_u16(two, 8), 192);
      if constexpr (Three) cp = vsliq_n_u16(cp, vreinterpretq_u16_u8(vqtbl1q_u8(bits, controls.val[1])), 12);
      const unsigned md = bmp_meta[m], count = md >> 8, taken = md & 0xFFu;
      put8<Swap>(c.o, cp, count, c.o + 8 <= safe_end);
      c.i += taken;
      c.o += count;
      e >>= taken;
      continue;
    }
    // Lane j: (last, before, before, first) bytes; two 12-bit halves as above, then joined.
    const uint16x8_t halves = vreinterpretq_u16_u8(vqtbl1q_u8(bits, vld1q_u8(shuffle + 16 * m)));
    const uint32x4_t x = vreinterpretq_u32_u16(vmlsq_n_u16(halves, vshrq_n_u16(halves, 8), 192));
    const uint32x4_t cp = vsliq_n_u32(x, vshrq_n_u32(x, 16), 12);
    const std::uint32_t md = any_meta[m];
    const unsigned taken = md & 0xFFu;
    c.i += taken;
    e >>= taken;
    if constexpr (sizeof(Out) == 4) {
      const unsigned count = (md >> 8) & 0xFFu;
      if (c.o + 4 <= safe_end)
        vst1q_u32(reinterpret_cast<std::uint32_t*>(c.o), cp);
      else
        store_exact(reinterpret_cast<unsigned char*>(c.o), vreinterpretq_u8_u32(cp), 4 * count);
      c.o += count;
    } else {
      // A supplementary value as the dword (low surrogate << 16 | high surrogate); the units kept
      // and their count come from the window's ends (two for a 4-byte form, else one), so that
      // unchecked, only a 4-byte piece writes two units whatever its value.
      const uint32x4_t supp = vcgtq_u32(cp, vdupq_n_u32(0xFFFF));
      const uint32x4_t high = vaddq_u32(vshrq_n_u32(cp, 10), vdupq_n_u32(0xD7C0));
      const uint32x4_t low = vorrq_u32(vandq_u32(cp, vdupq_n_u32(0x3FF)), vdupq_n_u32(0xDC00));
      const uint32x4_t units = vbslq_u32(supp, vsliq_n_u32(high, low, 16), cp);
      const uint8x16_t packed = vqtbl1q_u8(vreinterpretq_u8_u32(units), vld1q_u8(t.pack_pairs[md >> 24]));
      const unsigned written = (md >> 16) & 0xFFu;
      put8<Swap>(c.o, vreinterpretq_u16_u8(packed), written, c.o + 8 <= safe_end);
      c.o += written;
    }
  }
}

/// UTF-8 to UTF-32 or UTF-16 (by Out; in the byte order opposite to the host's when Swap). Without
/// Check (assume_valid) the blocks are not validated, only guarded: no run of continuation bytes as
/// long as the block's longest form (2, 3 or 4 bytes, by its largest byte). Then every piece the
/// windows take (a byte that is no continuation, or the block's first byte, and the continuation
/// bytes after it) has 1 to 4 bytes and writes one unit, or two for 4 bytes, where the replace
/// policy writes at least as many for the same bytes: the output stays within utf16/32_length_from_
/// utf8 (and the spill bound below holds), whatever the input. A block that fails the guard is
/// decoded by the scalar DFA under replace.
template <bool Strict, class Out, bool Swap = false, bool Check = true>
inline packed_conversion utf8_to_utf_impl(const unsigned char* p, std::size_t n, Out* out,
                                          char32_t replacement) noexcept {
  transcode_cursor<Out> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  [[maybe_unused]] const checker check;
  [[maybe_unused]] const uint8x16_t zero = vdupq_n_u8(0);
  const int8x16_t cont_limit = vdupq_n_s8(-65);
  while (n - c.i >= 80) {  // a block, and the 16 bytes a window load past it may touch
    const unsigned char* const b = p + c.i;
    const block bl = load_block(b);
    const std::uint8_t top = vmaxvq_u8(vmaxq_u8(vmaxq_u8(bl.v[0], bl.v[1]), vmaxq_u8(bl.v[2], bl.v[3])));
    if (top < 0x80) {
      widen_ascii_blocks<Swap>(p, n, bl, c);
      continue;
    }
    // Bit k: byte k is no continuation byte.
    const std::uint64_t heads =
        bits64(vcgtq_s8(vreinterpretq_s8_u8(bl.v[0]), cont_limit), vcgtq_s8(vreinterpretq_s8_u8(bl.v[1]), cont_limit),
               vcgtq_s8(vreinterpretq_s8_u8(bl.v[2]), cont_limit), vcgtq_s8(vreinterpretq_s8_u8(bl.v[3]), cont_limit));
    bool pass;
    if constexpr (Check) {
      pass = !any(vorrq_u8(vorrq_u8(check(bl.v[0], zero), check(bl.v[1], bl.v[0])),
                           vorrq_u8(check(bl.v[2], bl.v[1]), check(bl.v[3], bl.v[2]))));
    } else {
      // (Runs of 4, 3 or 2 fail: a piece of the windows' longest (tables.hpp) or more would stall them.)
      static_assert(any_longest == 4 && bmp_longest == 3, "the guard below fails pieces the windows do not take");
      const std::uint64_t cont = ~heads, two = cont & (cont >> 1);  // bit k: bytes k.. are 1 or 2 of them
      pass = (top >= 0xF0 ? two & (two >> 2) : top >= 0xE0 ? two & (cont >> 2) : two) == 0;
    }
    if (UTF8DFA_UNLIKELY(!pass)) {
      if (!scalar_region_in_order<Strict, Swap>(p, n, c.i + 64, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    // Bit k of `ends`: byte k + 1 is no continuation (byte k ends a character; bit 63: unknown, 0).
    const std::uint64_t ends = heads >> 1;
    // The characters that end in bytes 0..62 are complete and valid: they will be written, one
    // unit or more each, whatever comes after them; stores may spill up to there.
    Out* const safe_end = c.o + popcount64(ends);
    const std::size_t start = c.i;
    if (top >= 0xE0 && (ends & 0xFFFFFFFFFFFFu) == 0x924924924924u) {
      // Sixteen 3-byte characters (CJK text): their first, second and last bytes in three vectors
      // by one structure load; 16 units by two shift-inserts a byte.
      put_threes<Swap>(c.o, vld3q_u8(b));
      c.i += 48;
      c.o += 16;
    }
    // Runs of 8 ends (bit k: bytes k..k+7), ASCII bytes from a character start.
    std::uint64_t runs = ends & (ends >> 1);
    runs &= runs >> 2;
    runs &= runs >> 4;
    if (top >= 0xF0)
      decode_windows<true, true, true, Swap>(p, start, ends, safe_end, c);
    else if (top >= 0xE0)
      runs != 0 ? decode_windows<false, true, true, Swap>(p, start, ends, safe_end, c)
                : decode_windows<false, true, false, Swap>(p, start, ends, safe_end, c);
    else
      runs != 0 ? decode_windows<false, false, true, Swap>(p, start, ends, safe_end, c)
                : decode_windows<false, false, false, Swap>(p, start, ends, safe_end, c);
  }
  return finish_scalar_in_order<Strict, Swap>(p, n, out, c, repl);
}

/// The packing rows and lengths of encode_short8 and encode_bmp8.
struct utf8_packers {
  const std::uint8_t* short_rows;
  const std::uint8_t* short_lengths;
  const std::uint8_t* bmp_rows;
  const std::uint8_t* bmp_lengths;

  utf8_packers() noexcept
      : short_rows(in_register(&tables.pack_short_utf8[0][0])),
        short_lengths(in_register(tables.short_utf8_length)),
        bmp_rows(in_register(&tables.pack_bmp_utf8[0][0])),
        bmp_lengths(in_register(tables.bmp_utf8_length)) {}
};

/// Writes the UTF-8 forms (1 or 2 bytes) of the 8 values below 0x800 in w; with `spill`, up to 8
/// bytes past them.
UTF8DFA_ALWAYS_INLINE unsigned char* encode_short8(unsigned char* o, uint16x8_t w, bool spill,
                                                   const utf8_packers& k) noexcept {
  const uint16x8_t ge80 = vcgtq_u16(w, vdupq_n_u16(0x7F));
  // (w >> 6, w's low byte) as (lead, last byte) with their marker bits (one bit select); an ASCII
  // unit as it is.
  const uint16x8_t pair = vbslq_u16(vdupq_n_u16(0x3F1F), vsliq_n_u16(vshrq_n_u16(w, 6), w, 8), vdupq_n_u16(0x80C0));
  const unsigned m = vaddvq_u16(vandq_u16(ge80, vld1q_u16(word_weights)));
  const uint8x16_t packed =
      vqtbl1q_u8(vreinterpretq_u8_u16(vbslq_u16(ge80, pair, w)), vld1q_u8(k.short_rows + 16 * std::size_t{m}));
  const unsigned len = k.short_lengths[m];
  put_bytes(o, packed, len, spill);
  return o + len;
}

/// Bits 0..3 (8..11): units 0..3 (4..7) are ASCII; bits 4..7 (12..15): they are below 0x800.
inline constexpr std::uint16_t ascii_unit_bits[8] = {0x1, 0x2, 0x4, 0x8, 0x100, 0x200, 0x400, 0x800};
inline constexpr std::uint16_t short_unit_bits[8] = {0x10, 0x20, 0x40, 0x80, 0x1000, 0x2000, 0x4000, 0x8000};

/// Writes the UTF-8 forms of the 8 BMP scalar values in w; with `spill`, up to 12 bytes past them.
UTF8DFA_ALWAYS_INLINE unsigned char* encode_bmp8(unsigned char* o, uint16x8_t w, bool spill,
                                                 const utf8_packers& k) noexcept {
  const uint16x8_t ge80 = vcgtq_u16(w, vdupq_n_u16(0x7F));
  const uint16x8_t ge800 = vcgtq_u16(w, vdupq_n_u16(0x7FF));
  // Bytes 0, 1 of each dword: the unit's low byte (a 1-byte form), 0x80 | its low 6 bits (the
  // last byte of a longer form).
  // (Each marker bits put in by one bit select.)
  const uint16x8_t low = vsliq_n_u16(w, vbslq_u16(vdupq_n_u16(0x3F), w, vdupq_n_u16(0x80)), 8);
  // Bytes 2, 3: 0xE0 | bits 12..15 (a 3-byte lead); bits 6..11 with 0x80 (a 3-byte form's second
  // byte) or with 0xC0 (a 2-byte lead: bits 11 and up are 0).
  const uint16x8_t marker = vbslq_u16(ge800, vdupq_n_u16(0x80E0), vdupq_n_u16(0xC0E0));
  const uint16x8_t high = vbslq_u16(vdupq_n_u16(0x3F0F), vsriq_n_u16(vshlq_n_u16(w, 2), w, 12), marker);
  const uint8x16_t lo = vreinterpretq_u8_u16(vzip1q_u16(low, high));
  const uint8x16_t hi = vreinterpretq_u8_u16(vzip2q_u16(low, high));
  const unsigned m =
      vaddvq_u16(vorrq_u16(vbicq_u16(vld1q_u16(ascii_unit_bits), ge80), vbicq_u16(vld1q_u16(short_unit_bits), ge800)));
  const unsigned i0 = m & 0xFFu, i1 = m >> 8;
  const unsigned n0 = k.bmp_lengths[i0], n1 = k.bmp_lengths[i1];
  const uint8x16_t p0 = vqtbl1q_u8(lo, vld1q_u8(k.bmp_rows + 16 * i0));
  const uint8x16_t p1 = vqtbl1q_u8(hi, vld1q_u8(k.bmp_rows + 16 * i1));
  put_bytes(o, p0, n0, spill || n0 + n1 >= 16);
  put_bytes(o + n0, p1, n1, spill);
  return o + n0 + n1;
}

/// True when none of the 16 units of a and b is a surrogate.
UTF8DFA_ALWAYS_INLINE bool no_surrogate16(uint16x8_t a, uint16x8_t b) noexcept {
  const uint16x8_t bias = vdupq_n_u16(0xD800);
  return vminvq_u16(vminq_u16(vsubq_u16(a, bias), vsubq_u16(b, bias))) >= 0x800;
}

/// The 16 units at p as two vectors of 16-bit lanes (UTF-16 in host order, exchanged as loaded when
/// Swap); false (UTF-32) when one is above 0xFFFF.
template <bool Swap = false, class In>
UTF8DFA_ALWAYS_INLINE bool load16(const In* p, uint16x8_t& a, uint16x8_t& b) noexcept {
  if constexpr (sizeof(In) == 2) {
    const auto* q = reinterpret_cast<const std::uint16_t*>(p);
    a = in_order16<Swap>(vld1q_u16(q));
    b = in_order16<Swap>(vld1q_u16(q + 8));
  } else {
    const auto* q = reinterpret_cast<const std::uint32_t*>(p);
    const uint32x4_t x0 = vld1q_u32(q), x1 = vld1q_u32(q + 4), x2 = vld1q_u32(q + 8), x3 = vld1q_u32(q + 12);
    if (vmaxvq_u32(vorrq_u32(vorrq_u32(x0, x1), vorrq_u32(x2, x3))) > 0xFFFF) return false;
    a = vuzp1q_u16(vreinterpretq_u16_u32(x0), vreinterpretq_u16_u32(x1));
    b = vuzp1q_u16(vreinterpretq_u16_u32(x2), vreinterpretq_u16_u32(x3));
  }
  return true;
}

/// True when the 16 units at p are BMP scalar values.
template <class In>
UTF8DFA_ALWAYS_INLINE bool plain16(const In* p) noexcept {
  uint16x8_t a, b;
  return load16(p, a, b) && no_surrogate16(a, b);
}

/// True when the 8 units at p are BMP scalar values (UTF-16: no surrogate; UTF-32: nor above FFFF).
template <class In>
UTF8DFA_ALWAYS_INLINE bool plain8(const In* p) noexcept {
  if constexpr (sizeof(In) == 2) {
    const uint16x8_t w = vld1q_u16(reinterpret_cast<const std::uint16_t*>(p));
    return vminvq_u16(vsubq_u16(w, vdupq_n_u16(0xD800))) >= 0x800;
  } else {
    const uint32x4_t a = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p));
    const uint32x4_t b = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p) + 4);
    const uint32x4_t lo = vminq_u32(vsubq_u32(a, vdupq_n_u32(0xD800)), vsubq_u32(b, vdupq_n_u32(0xD800)));
    return vmaxvq_u32(vorrq_u32(a, b)) <= 0xFFFF && vminvq_u32(lo) >= 0x800;
  }
}

/// The 8 units at p (BMP values) as 16-bit lanes.
template <class In>
UTF8DFA_ALWAYS_INLINE uint16x8_t load8(const In* p) noexcept {
  if constexpr (sizeof(In) == 2) {
    return vld1q_u16(reinterpret_cast<const std::uint16_t*>(p));
  } else {
    const uint32x4_t a = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p));
    const uint32x4_t b = vld1q_u32(reinterpret_cast<const std::uint32_t*>(p) + 4);
    return vuzp1q_u16(vreinterpretq_u16_u32(a), vreinterpretq_u16_u32(b));
  }
}

/// Copies the ASCII units from c.i on, narrowed, 64 bytes of input a step (32 UTF-16 units, 16
/// UTF-32 ones), while they are ASCII (UTF-16 exchanged when Swap: its ASCII bytes come second).
template <bool Swap = false, class In>
UTF8DFA_ALWAYS_INLINE void ascii_runs(const In* p, std::size_t n, transcode_cursor<unsigned char>& c) noexcept {
  constexpr std::size_t step = 64 / sizeof(In);
  for (; n - c.i >= step; c.i += step, c.o += step) {
    if constexpr (sizeof(In) == 2) {
      const uint8x16x4_t v = vld1q_u8_x4(reinterpret_cast<const std::uint8_t*>(p + c.i));
      const uint16x8_t any = vreinterpretq_u16_u8(vorrq_u8(vorrq_u8(v.val[0], v.val[1]), vorrq_u8(v.val[2], v.val[3])));
      // (exchanged, an ASCII unit is its byte << 8: no bit of 0x80FF set)
      if (Swap ? vmaxvq_u16(vandq_u16(any, vdupq_n_u16(0x80FF))) != 0 : vmaxvq_u16(any) >= 0x80) return;
      vst1q_u8(c.o, Swap ? vuzp2q_u8(v.val[0], v.val[1]) : vuzp1q_u8(v.val[0], v.val[1]));
      vst1q_u8(c.o + 16, Swap ? vuzp2q_u8(v.val[2], v.val[3]) : vuzp1q_u8(v.val[2], v.val[3]));
    } else {
      const uint32x4x4_t v = vld1q_u32_x4(reinterpret_cast<const std::uint32_t*>(p + c.i));
      if (vmaxvq_u32(vorrq_u32(vorrq_u32(v.val[0], v.val[1]), vorrq_u32(v.val[2], v.val[3]))) >= 0x80) return;
      const uint16x8_t lo = vuzp1q_u16(vreinterpretq_u16_u32(v.val[0]), vreinterpretq_u16_u32(v.val[1]));
      const uint16x8_t hi = vuzp1q_u16(vreinterpretq_u16_u32(v.val[2]), vreinterpretq_u16_u32(v.val[3]));
      vst1q_u8(c.o, vuzp1q_u8(vreinterpretq_u8_u16(lo), vreinterpretq_u8_u16(hi)));
    }
  }
}

/// UTF-16 or UTF-32 (by In) to UTF-8, 16 units at a time: ASCII, or BMP scalar values (encoded 8 at
/// a time, as forms of 1 or 2 bytes when all are below 0x800); 16 units holding anything else go
/// scalar. A step that encodes loads and classifies the next 16 units (its stores may spill into
/// their output when they are BMP scalar values), and the next step takes them from there.
template <bool Strict, class In, bool Swap = false>
inline packed_conversion utf_to_utf8_impl(const In* p, std::size_t n, unsigned char* out,
                                          char32_t replacement) noexcept {
  transcode_cursor<unsigned char> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  const utf8_packers k;
  uint16x8_t a = vdupq_n_u16(0), b = vdupq_n_u16(0);
  unsigned top = 0;     // the largest of the 16 units at c.i (0xFFFF: UTF-32 above the BMP)
  bool plain = false;   // they are BMP scalar values
  bool loaded = false;  // a, b, top and plain hold the 16 units at c.i
  while (n - c.i >= 16) {
    if (!loaded) {
      const bool bmp = load16<Swap>(p + c.i, a, b);
      top = bmp ? vmaxvq_u16(vmaxq_u16(a, b)) : 0xFFFFu;
      plain = bmp && (top < 0xD800 || no_surrogate16(a, b));
    }
    loaded = false;
    if (top < 0x80) {
      vst1q_u8(c.o, vuzp1q_u8(vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b)));
      c.i += 16;
      c.o += 16;
      ascii_runs<Swap>(p, n, c);
      continue;
    }
    if (!plain) {
      if (!scalar_region_in_order<Strict, Swap>(p, n, c.i + 16, c, repl))
        return {c.i, static_cast<std::size_t>(c.o - out), c.first};
      continue;
    }
    uint16x8_t next_a = vdupq_n_u16(0), next_b = vdupq_n_u16(0);
    unsigned next_top = 0;
    bool next_plain = false;
    if (n - c.i >= 32) {
      const bool bmp = load16<Swap>(p + c.i + 16, next_a, next_b);
      next_top = bmp ? vmaxvq_u16(vmaxq_u16(next_a, next_b)) : 0xFFFFu;
      next_plain = bmp && (next_top < 0xD800 || no_surrogate16(next_a, next_b));
      loaded = true;
    }
    // A full-width store spills up to 12 bytes: safe when the next 16 units are BMP scalar values.
    if (top < 0x800) {
      // (The first half's spill is overwritten: the two write 16 bytes or more.)
      c.o = encode_short8(c.o, a, true, k);
      c.o = encode_short8(c.o, b, next_plain, k);
    } else {
      c.o = encode_bmp8(c.o, a, next_plain, k);
      c.o = encode_bmp8(c.o, b, next_plain, k);
    }
    c.i += 16;
    a = next_a;
    b = next_b;
    top = next_top;
    plain = next_plain;
  }
  return finish_scalar_in_order<Strict, Swap>(p, n, out, c, repl);
}

// The kernel-table entry points (`replacement == strict_marker` means strict).

inline packed_conversion utf8_to_utf32(const unsigned char* p, std::size_t n, char32_t* out,
                                       char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char32_t, false, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false>(p, n, out, replacement);
}

inline packed_conversion utf8_to_utf16(const unsigned char* p, std::size_t n, char16_t* out,
                                       char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char16_t, false, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false>(p, n, out, replacement);
}

inline packed_conversion utf16_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                       char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf_to_utf8_impl<false>(p, n, out, replacement);
}

/// UTF-8 to UTF-16 in the byte order opposite to the host's.
inline packed_conversion utf8_to_utf16_swapped(const unsigned char* p, std::size_t n, char16_t* out,
                                               char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker  ? utf8_to_utf_impl<true, char16_t, true>(p, n, out, replacement)
         : replacement == valid_marker ? utf8_to_utf_impl<false, char16_t, true, false>(p, n, out, replacement)
                                       : utf8_to_utf_impl<false, char16_t, true>(p, n, out, replacement);
}

/// UTF-16 in the byte order opposite to the host's to UTF-8.
inline packed_conversion utf16_swapped_to_utf8(const char16_t* p, std::size_t n, unsigned char* out,
                                               char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf_to_utf8_impl<true, char16_t, true>(p, n, out, replacement)
                                      : utf_to_utf8_impl<false, char16_t, true>(p, n, out, replacement);
}

inline packed_conversion utf32_to_utf8(const char32_t* p, std::size_t n, unsigned char* out,
                                       char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf_to_utf8_impl<true>(p, n, out, replacement)
                                      : utf_to_utf8_impl<false>(p, n, out, replacement);
}

}  // namespace neon
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/neon/transcode.hpp ----
// ---- begin utf8dfa/detail/simd/neon/units.hpp ----
// utf8dfa: NEON kernels of the Latin-1 and UTF-16 / UTF-32 operations (ARM64). Same results as the
// scalar functions of units.hpp, unit for unit: a block holding a surrogate that is not part of a
// pair, or anything else the vector step does not take, goes to the scalar code of the same
// operation, and so do the last few units.
#ifndef UTF8DFA_DETAIL_SIMD_NEON_UNITS_HPP
#define UTF8DFA_DETAIL_SIMD_NEON_UNITS_HPP



#if UTF8DFA_NEON_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace neon {

/// Latin-1 to UTF-8: 16 ASCII bytes copied, else each half of 8 bytes as 8 forms of 1 or 2 bytes.
inline std::size_t latin1_to_utf8(const unsigned char* p, std::size_t n, unsigned char* out) noexcept {
  prepare_tables();
  const shuffle_tables& t = tables;
  const uint16x8_t weights = vld1q_u16(word_weights);
  std::size_t i = 0;
  unsigned char* o = out;
  while (n - i >= 16) {
    const uint8x16_t v = vld1q_u8(p + i);
    if (vmaxvq_u8(v) < 0x80) {
      vst1q_u8(o, v);
      i += 16;
      o += 16;
      continue;
    }
    for (int h = 0; h < 2; ++h) {
      const uint16x8_t w = h == 0 ? vmovl_u8(vget_low_u8(v)) : vmovl_high_u8(v);
      const uint16x8_t ge80 = vcgtq_u16(w, vdupq_n_u16(0x7F));
      const uint16x8_t lead = vbslq_u16(ge80, vorrq_u16(vshrq_n_u16(w, 6), vdupq_n_u16(0xC0)), w);
      const uint16x8_t tail = vorrq_u16(vandq_u16(w, vdupq_n_u16(0x3F)), vdupq_n_u16(0x80));
      const unsigned m = vaddvq_u16(vandq_u16(ge80, weights));
      const uint8x16_t packed =
          vqtbl1q_u8(vreinterpretq_u8_u16(vsliq_n_u16(lead, tail, 8)), vld1q_u8(t.pack_short_utf8[m]));
      const unsigned len = 8 + static_cast<unsigned>(__builtin_popcount(m));
      // Every byte after these 8 writes one output byte or two: a spill of up to 8 is overwritten.
      put_bytes(o, packed, len, n - i - 8 * static_cast<std::size_t>(h) >= 16);
      o += len;
    }
    i += 16;
  }
  return static_cast<std::size_t>(o - out) + latin1_to_utf8_scalar(p + i, n - i, o);
}

/// UTF-8 to Latin-1 (Policy strict, replace or skip), in 16-byte vectors at fixed steps: runs of
/// 64 ASCII bytes copied; a vector of ASCII and well-formed 2-byte forms of U+0080..U+00FF only (C2
/// or C3 and a continuation; the last lead's continuation is the next vector's first byte) packed
/// in two halves; a vector holding anything else through the scalar code. A vector's packed bytes
/// are stored once the next vector passed its check (it writes 8 bytes or more, so a store may
/// spill into its output), the last exactly.
template <class Policy>
inline packed_conversion utf8_to_latin1_impl(const unsigned char* p, std::size_t n, unsigned char* out,
                                             Policy pol) noexcept {
  unsigned char repl = '?';
  if (!latin1_replacement(pol, repl)) return {0, 0, error_code::unrepresentable};
  const uint8x16_t weights = vld1q_u8(bit_weights);
  const std::uint8_t* const low_rows = in_register(&tables.pack_bytes[0][0]);
  const std::uint8_t* const high_rows = in_register(&tables.pack_high_bytes[0][0]);
  const std::uint8_t* const counts = in_register(tables.bit_count);
  const uint8x16_t lead_bits = in_register(vdupq_n_u8(0xFE)), lead_value = in_register(vdupq_n_u8(0xC2));
  const uint8x16_t c0 = in_register(vdupq_n_u8(0xC0));
  const int8x16_t cont_limit = vreinterpretq_s8_u8(in_register(vdupq_n_u8(0xC0)));  // -64
  latin1_progress s;
  std::size_t read = 0, written = 0;  // (s's, kept in registers; s is set before the scalar code runs)
  // The packed bytes of the last vector, not stored yet: `lo` (n0 of them) and `hi` (n1) end at
  // out + written.
  uint8x8_t lo = vdup_n_u8(0), hi = vdup_n_u8(0);
  unsigned n0 = 0, n1 = 0;
  const auto store_pending = [&](bool spill) {
    unsigned char* const o = out + written - n0 - n1;
    if (spill) {
      vst1_u8(o, lo);
      vst1_u8(o + n0, hi);
    } else {
      store_exact(o, vcombine_u8(lo, lo), n0);
      store_exact(o + n0, vcombine_u8(hi, hi), n1);
    }
    n0 = n1 = 0;
  };
  std::size_t i = 0;                       // the vector's start: read, or one before (`carry`)
  uint8x16_t lead_before = vdupq_n_u8(0);  // the last vector's leads
  bool carry = false;                      // the last vector ended in a lead
  while (n - i >= 32) {
    const uint8x16_t v = vld1q_u8(p + i);
    if (!carry && vmaxvq_u8(v) < 0x80) {
      // ASCII (16 bytes or more: they cover a spill of the pending bytes), then runs of 64.
      store_pending(true);
      vst1q_u8(out + written, v);
      written += 16;
      i += 16;
      for (; n - i >= 64; i += 64) {
        const uint8x16x4_t b = vld1q_u8_x4(p + i);
        if (vmaxvq_u8(vorrq_u8(vorrq_u8(b.val[0], b.val[1]), vorrq_u8(b.val[2], b.val[3]))) >= 0x80) break;
        vst1q_u8_x4(out + written, b);
        written += 64;
      }
      read = i;
      lead_before = vdupq_n_u8(0);
      continue;
    }
    const uint8x16_t next = vextq_u8(v, vld1q_u8(p + i + 16), 1);
    const uint8x16_t cont = vcltq_s8(vreinterpretq_s8_u8(v), cont_limit);
    const uint8x16_t next_cont = vcltq_s8(vreinterpretq_s8_u8(next), cont_limit);
    const uint8x16_t lead = vceqq_u8(vandq_u8(v, lead_bits), lead_value);
    // A continuation exactly after each lead, and no other byte from C0 up.
    const uint8x16_t bad =
        vorrq_u8(vorrq_u8(veorq_u8(cont, vextq_u8(lead_before, lead, 15)), vbicq_u8(lead, next_cont)),
                 vbicq_u8(vcgeq_u8(v, c0), lead));
    if (UTF8DFA_UNLIKELY(vmaxvq_u8(bad) != 0)) {
      store_pending(false);
      // (From read: after a carried lead, the vector's first byte belongs to the last one.)
      s.read = read;
      s.written = written;
      if (!to_latin1_until<Policy>(p, n, i + 16, out, s, repl)) return latin1_result(s, n, true);
      i = read = s.read;
      written = s.written;
      carry = false;
      lead_before = vdupq_n_u8(0);
      continue;
    }
    store_pending(true);
    const uint8x16_t value = vbslq_u8(lead, vsliq_n_u8(next, v, 6), v);
    const uint8x16_t keep = vbicq_u8(weights, cont);
    const std::size_t k0 = vaddv_u8(vget_low_u8(keep)), k1 = vaddv_u8(vget_high_u8(keep));
    lo = vqtbl1_u8(value, vld1_u8(low_rows + 8 * k0));
    hi = vqtbl1_u8(value, vld1_u8(high_rows + 8 * k1));
    n0 = counts[k0];
    n1 = counts[k1];
    written += n0 + n1;
    carry = vgetq_lane_u8(lead, 15) != 0;
    lead_before = lead;
    i += 16;
    read = i + (carry ? 1 : 0);
  }
  store_pending(false);
  s.read = read;
  s.written = written;
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

inline packed_conversion utf8_to_latin1(const unsigned char* p, std::size_t n, unsigned char* out,
                                        char32_t replacement) noexcept {
  prepare_tables();
  if (replacement == strict_marker) return utf8_to_latin1_impl(p, n, out, strict{});
  if (replacement == skip_marker) return utf8_to_latin1_impl(p, n, out, skip{});
  return utf8_to_latin1_impl(p, n, out, replace{replacement});
}

/// 8 UTF-16 units at q, with the bytes of each exchanged when Swap.
template <bool Swap = false>
UTF8DFA_ALWAYS_INLINE uint16x8_t load_units(const std::uint16_t* q) noexcept {
  const uint16x8_t v = vld1q_u16(q);
  return Swap ? vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(v))) : v;
}

/// For 16 UTF-16 units (a, b) that start on a character boundary: 0 when a surrogate in them is
/// not part of a pair (a high surrogate in the last unit counts as paired), else the units to take
/// (15 when the last is a high surrogate, whose pair waits for the next block).
UTF8DFA_ALWAYS_INLINE unsigned paired16(uint16x8_t a, uint16x8_t b) noexcept {
  const uint16x8_t ten = vdupq_n_u16(0xFC00);
  const uint16x8_t high_a = vceqq_u16(vandq_u16(a, ten), vdupq_n_u16(0xD800));
  const uint16x8_t high_b = vceqq_u16(vandq_u16(b, ten), vdupq_n_u16(0xD800));
  const uint16x8_t low_a = vceqq_u16(vandq_u16(a, ten), vdupq_n_u16(0xDC00));
  const uint16x8_t low_b = vceqq_u16(vandq_u16(b, ten), vdupq_n_u16(0xDC00));
  // A low surrogate exactly after each high one.
  const uint16x8_t bad =
      vorrq_u16(veorq_u16(low_a, vextq_u16(vdupq_n_u16(0), high_a, 7)), veorq_u16(low_b, vextq_u16(high_a, high_b, 7)));
  if (vmaxvq_u16(bad) != 0) return 0;
  return vgetq_lane_u16(high_b, 7) != 0 ? 15 : 16;
}

/// paired16 for the 32 units at q: 0, 31 or 32.
template <bool Swap = false>
UTF8DFA_ALWAYS_INLINE unsigned paired32(const std::uint16_t* q) noexcept {
  const uint16x8_t ten = vdupq_n_u16(0xFC00);
  uint16x8_t prev_high = vdupq_n_u16(0), bad = vdupq_n_u16(0);
  for (int k = 0; k < 4; ++k) {
    const uint16x8_t w = vandq_u16(load_units<Swap>(q + 8 * k), ten);
    const uint16x8_t high = vceqq_u16(w, vdupq_n_u16(0xD800));
    bad = vorrq_u16(bad, veorq_u16(vceqq_u16(w, vdupq_n_u16(0xDC00)), vextq_u16(prev_high, high, 7)));
    prev_high = high;
  }
  if (vmaxvq_u16(bad) != 0) return 0;
  return vgetq_lane_u16(prev_high, 7) != 0 ? 31 : 32;
}

/// True when none of the 32 units at q is a surrogate.
template <bool Swap = false>
UTF8DFA_ALWAYS_INLINE bool no_surrogate32(const std::uint16_t* q) noexcept {
  const uint16x8_t bias = vdupq_n_u16(0xD800);
  const uint16x8_t a = vminq_u16(vsubq_u16(load_units<Swap>(q), bias), vsubq_u16(load_units<Swap>(q + 8), bias));
  const uint16x8_t b = vminq_u16(vsubq_u16(load_units<Swap>(q + 16), bias), vsubq_u16(load_units<Swap>(q + 24), bias));
  return vminvq_u16(vminq_u16(a, b)) >= 0x800;
}

/// validate_utf's answer (with Swap, on the units with their bytes exchanged): 32 units without
/// surrogates at a time, else 16 whose surrogates pair up; the scalar code finds the error.
template <bool Swap>
inline packed_validation validate_utf16_impl(const char16_t* p, std::size_t n) noexcept {
  const auto* q = reinterpret_cast<const std::uint16_t*>(p);
  std::size_t i = 0;
  for (bool pass = true; pass && n - i >= 16;) {
    while (n - i >= 32 && no_surrogate32<Swap>(q + i)) i += 32;
    // Surrogates: up to 16 blocks of 32 whose surrogates pair up; when one does not, a few of 16;
    // then try again.
    unsigned take = 32;
    for (unsigned k = 0; k < 16 && n - i >= 32; ++k) {
      take = paired32<Swap>(q + i);
      if (take == 0) break;
      i += take;
    }
    if (take != 0 && n - i >= 32) continue;
    for (int k = 0; k < 4 && n - i >= 16; ++k) {
      const unsigned take = paired16(load_units<Swap>(q + i), load_units<Swap>(q + i + 8));
      if (take == 0) {
        pass = false;
        break;
      }
      i += take;
    }
  }
  packed_validation r = Swap ? validate_utf16_swapped_scalar(p + i, n - i) : validate_utf(p + i, n - i);
  r.valid_up_to += i;
  return r;
}

inline packed_validation validate_utf16(const char16_t* p, std::size_t n) noexcept {
  return validate_utf16_impl<false>(p, n);
}

/// validate_utf16 on units with their bytes exchanged: a byte reversal a vector, then the same checks.
inline packed_validation validate_utf16_swapped(const char16_t* p, std::size_t n) noexcept {
  return validate_utf16_impl<true>(p, n);
}

/// The scalar UTF-16 <-> UTF-32 conversion on the rest of the input, merged with the vector loop's.
template <bool Strict, class In, class Out>
inline packed_conversion finish_units(const In* p, std::size_t n, Out* out, transcode_cursor<Out> c,
                                      char32_t repl) noexcept {
  packed_conversion r{};
  if (Strict)
    r = utf_to_utf(p + c.i, n - c.i, c.o, strict{});
  else if (repl == skip_marker)
    r = utf_to_utf(p + c.i, n - c.i, c.o, skip{});
  else
    r = utf_to_utf(p + c.i, n - c.i, c.o, replace{repl});
  const error_code e = c.first != error_code::none ? c.first : r.error;
  // The written count from the output pointer: written as two sums of counts, g++ 12 pairs them
  // into one vector sum, whose 16-byte load of r (two 8-byte stores by the call just returned)
  // cannot be forwarded from those stores and waits for them (10-20 cycles a call).
  return {c.i + r.read, static_cast<std::size_t>(c.o + r.written - out), e};
}

/// UTF-16 to UTF-32: 16 units without surrogates widened; other blocks through the scalar decoder.
template <bool Strict>
inline packed_conversion utf16_to_utf32_impl(const char16_t* p, std::size_t n, char32_t* out,
                                             char32_t replacement) noexcept {
  transcode_cursor<char32_t> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  const auto* q = reinterpret_cast<const std::uint16_t*>(p);
  while (n - c.i >= 16) {
    const uint16x8_t a = vld1q_u16(q + c.i), b = vld1q_u16(q + c.i + 8);
    if (no_surrogate16(a, b)) {
      auto* o = reinterpret_cast<std::uint32_t*>(c.o);
      vst1q_u32(o, vmovl_u16(vget_low_u16(a)));
      vst1q_u32(o + 4, vmovl_high_u16(a));
      vst1q_u32(o + 8, vmovl_u16(vget_low_u16(b)));
      vst1q_u32(o + 12, vmovl_high_u16(b));
      c.i += 16;
      c.o += 16;
      continue;
    }
    if (!scalar_region<Strict>(p, n, c.i + 16, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  }
  return finish_units<Strict>(p, n, out, c, repl);
}

/// True when the 8 units of x and y are scalar values (no surrogate, none above 0x10FFFF).
UTF8DFA_ALWAYS_INLINE bool all_scalar_values(uint32x4_t x, uint32x4_t y) noexcept {
  const uint32x4_t bias = vdupq_n_u32(0xD800);
  const uint32x4_t off = vminq_u32(vsubq_u32(x, bias), vsubq_u32(y, bias));
  return vminvq_u32(off) >= 0x800 && vmaxvq_u32(vmaxq_u32(x, y)) <= 0x10FFFF;
}

/// Writes the 4 scalar values of cp as UTF-16 (a supplementary one as a pair); with `spill`, 8
/// units whatever their count. Returns the units of the values.
UTF8DFA_ALWAYS_INLINE unsigned put_pairs(char16_t* o, uint32x4_t cp, bool spill) noexcept {
  const uint32x4_t supp = vcgtq_u32(cp, vdupq_n_u32(0xFFFF));
  const unsigned sm = vaddvq_u32(vandq_u32(supp, vld1q_u32(dword_weights)));
  const uint32x4_t high = vaddq_u32(vshrq_n_u32(cp, 10), vdupq_n_u32(0xD7C0));
  const uint32x4_t low = vorrq_u32(vandq_u32(cp, vdupq_n_u32(0x3FF)), vdupq_n_u32(0xDC00));
  const uint32x4_t units = vbslq_u32(supp, vsliq_n_u32(high, low, 16), cp);
  const uint8x16_t packed = vqtbl1q_u8(vreinterpretq_u8_u32(units), vld1q_u8(tables.pack_pairs[sm]));
  const unsigned written = 4 + static_cast<unsigned>(__builtin_popcount(sm));
  put8(o, vreinterpretq_u16_u8(packed), written, spill);
  return written;
}

/// UTF-32 to UTF-16: 16 BMP scalar values narrowed; other blocks through the scalar decoder.
template <bool Strict>
inline packed_conversion utf32_to_utf16_impl(const char32_t* p, std::size_t n, char16_t* out,
                                             char32_t replacement) noexcept {
  transcode_cursor<char16_t> c{0, out, error_code::none};
  const char32_t repl = kernel_repl(replacement);
  while (n - c.i >= 16) {
    uint16x8_t a = vdupq_n_u16(0), b = vdupq_n_u16(0);
    if (load16(p + c.i, a, b) && no_surrogate16(a, b)) {
      vst1q_u16(reinterpret_cast<std::uint16_t*>(c.o), a);
      vst1q_u16(reinterpret_cast<std::uint16_t*>(c.o) + 8, b);
      c.i += 16;
      c.o += 16;
      continue;
    }
    // 8 scalar values, supplementary ones among them (emoji): each a unit or a pair.
    const auto* q = reinterpret_cast<const std::uint32_t*>(p + c.i);
    const uint32x4_t x = vld1q_u32(q), y = vld1q_u32(q + 4);
    if (all_scalar_values(x, y)) {
      const unsigned nx = put_pairs(c.o, x, true);  // (y writes 4 units or more over its spill)
      c.o += nx;
      c.o += put_pairs(c.o, y, false);
      c.i += 8;
      continue;
    }
    if (!scalar_region<Strict>(p, n, c.i + 16, c, repl)) return {c.i, static_cast<std::size_t>(c.o - out), c.first};
  }
  return finish_units<Strict>(p, n, out, c, repl);
}

inline packed_conversion utf16_to_utf32(const char16_t* p, std::size_t n, char32_t* out,
                                        char32_t replacement) noexcept {
  return replacement == strict_marker ? utf16_to_utf32_impl<true>(p, n, out, replacement)
                                      : utf16_to_utf32_impl<false>(p, n, out, replacement);
}

inline packed_conversion utf32_to_utf16(const char32_t* p, std::size_t n, char16_t* out,
                                        char32_t replacement) noexcept {
  prepare_tables();
  return replacement == strict_marker ? utf32_to_utf16_impl<true>(p, n, out, replacement)
                                      : utf32_to_utf16_impl<false>(p, n, out, replacement);
}

/// For 16 UTF-16 units v0, v1 (little-endian lanes): lanes 0xFF where a low surrogate is not
/// preceded by a high one or a high one is not followed by a low one, given in `high` the lanes of
/// the 16 units before (0xFF at a high surrogate), which becomes these units'. Looks at the high
/// byte of each unit only, 16 to a vector.
UTF8DFA_ALWAYS_INLINE uint8x16_t unpaired16(uint8x16_t v0, uint8x16_t v1, uint8x16_t& high) noexcept {
  const uint8x16_t w = vandq_u8(vuzp2q_u8(v0, v1), vdupq_n_u8(0xFC));
  const uint8x16_t h = vceqq_u8(w, vdupq_n_u8(0xD8));
  const uint8x16_t bad = veorq_u8(vceqq_u8(w, vdupq_n_u8(0xDC)), vextq_u8(high, h, 15));
  high = h;
  return bad;
}

/// True when a lane of the mask m (lanes 0 or 0xFF) is set: a narrowing shift to 64 bits, which is
/// quicker than a reduction across the lanes.
UTF8DFA_ALWAYS_INLINE bool any_lane(uint8x16_t m) noexcept {
  return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(m), 4)), 0) != 0;
}

/// UTF-16 with each unpaired surrogate replaced by U+FFFD (out may be p): blocks of 64 units, then
/// of 16, copied when their surrogates pair up (a high surrogate that ends a block is checked with
/// the next); a block where one does not, from the character before it on, and the last units, by
/// the scalar code.
inline std::size_t to_well_formed_utf16(const char16_t* p, std::size_t n, char16_t* out) noexcept {
  const auto* s = reinterpret_cast<const std::uint8_t*>(p);  // (the byte at p + i)
  const auto* const end = reinterpret_cast<const std::uint8_t*>(p + n);
  const std::ptrdiff_t to_out = reinterpret_cast<std::uint8_t*>(out) - s;
  uint8x16_t high = vdupq_n_u8(0);  // last lane: whether the unit before s is a high surrogate
  // After a block with an unpaired surrogate: its units from the character before it (a high
  // surrogate left open by the block before) by the scalar code, which ends after a character.
  const auto fix = [&](std::size_t units) {
    const auto i = static_cast<std::size_t>(s - reinterpret_cast<const std::uint8_t*>(p)) / 2;
    const std::size_t j = to_well_formed_until(p, n, i - (vgetq_lane_u8(high, 15) != 0 ? 1 : 0), i + units, out);
    s = reinterpret_cast<const std::uint8_t*>(p + j);
    high = vdupq_n_u8(0);
  };
  while (end - s >= 128) {
    const uint8x16x4_t a = vld1q_u8_x4(s), b = vld1q_u8_x4(s + 64);
    uint8x16_t h = high;
    const uint8x16_t b0 = unpaired16(a.val[0], a.val[1], h), b1 = unpaired16(a.val[2], a.val[3], h);
    const uint8x16_t b2 = unpaired16(b.val[0], b.val[1], h), b3 = unpaired16(b.val[2], b.val[3], h);
    if (any_lane(vorrq_u8(vorrq_u8(b0, b1), vorrq_u8(b2, b3)))) {
      fix(64);
      continue;
    }
    vst1q_u8_x4(const_cast<std::uint8_t*>(s) + to_out, a);
    vst1q_u8_x4(const_cast<std::uint8_t*>(s) + to_out + 64, b);
    high = h;
    s += 128;
  }
  while (end - s >= 32) {
    const uint8x16_t v0 = vld1q_u8(s), v1 = vld1q_u8(s + 16);
    uint8x16_t h = high;
    if (any_lane(unpaired16(v0, v1, h))) {
      fix(16);
      continue;
    }
    vst1q_u8(const_cast<std::uint8_t*>(s) + to_out, v0);
    vst1q_u8(const_cast<std::uint8_t*>(s) + to_out + 16, v1);
    high = h;
    s += 32;
  }
  // (a high surrogate that ends the blocks again, with the unit after it)
  const auto i = static_cast<std::size_t>(s - reinterpret_cast<const std::uint8_t*>(p)) / 2;
  to_well_formed_until(p, n, i - (vgetq_lane_u8(high, 15) != 0 ? 1 : 0), n, out);
  return n;
}

/// For 16 UTF-16 units given as their low and high bytes, and `sur` their surrogate lanes (all ones):
/// acc plus, in each lane, the UTF-8 bytes of the unit past its first (one more from 0x80, one more
/// from 0x800, one less for a surrogate, a half of a 4-byte form). At most 2 a lane.
UTF8DFA_ALWAYS_INLINE uint8x16_t add_utf8_extra(uint8x16_t acc, uint8x16_t lo, uint8x16_t hi, uint8x16_t sur) noexcept {
  const uint8x16_t from800 = vcgtq_u8(hi, vdupq_n_u8(7));
  // (a high byte from 2 saturates to FF, 1 gives 80: the larger of it and the low byte is 80 or
  // more exactly from 0x80)
  const uint8x16_t from80 = vcgtq_u8(vmaxq_u8(vqshlq_n_u8(hi, 7), lo), vdupq_n_u8(0x7F));
  return vaddq_u8(vsubq_u8(vsubq_u8(acc, from800), from80), sur);
}

/// add_utf8_extra of the 32 UTF-16 units loaded in v (their low and high bytes by uzp). At most 4 a lane.
UTF8DFA_ALWAYS_INLINE uint8x16_t add_utf8_extra32(uint8x16_t acc, const uint8x16x4_t& v) noexcept {
  const uint8x16_t f8 = vdupq_n_u8(0xF8), d8 = vdupq_n_u8(0xD8);
  const uint8x16_t hi0 = vuzp2q_u8(v.val[0], v.val[1]), hi1 = vuzp2q_u8(v.val[2], v.val[3]);
  acc = add_utf8_extra(acc, vuzp1q_u8(v.val[0], v.val[1]), hi0, vceqq_u8(vandq_u8(hi0, f8), d8));
  return add_utf8_extra(acc, vuzp1q_u8(v.val[2], v.val[3]), hi1, vceqq_u8(vandq_u8(hi1, f8), d8));
}

/// utf8_length_valid (scalar.hpp) for UTF-16 or UTF-32: UTF-16 32 units a step, by their low and high
/// bytes (16 to a vector), summed in byte lanes; UTF-32 4 units a vector, each test's lanes (all
/// ones where true) subtracted from counters; the last units by the scalar count.
template <class In>
std::size_t utf8_length_valid(const In* p, std::size_t n) noexcept {
  std::size_t total = n, i = 0;
  if constexpr (sizeof(In) == 2) {
    const auto* s = reinterpret_cast<const std::uint8_t*>(p);
    while (n - i >= 32) {
      const std::size_t steps = (n - i) / 32 < 63 ? (n - i) / 32 : 63;  // (4 a lane a step)
      uint8x16_t acc = vdupq_n_u8(0);
      for (std::size_t k = 0; k < steps; ++k, i += 32) acc = add_utf8_extra32(acc, vld1q_u8_x4(s + 2 * i));
      total += vaddlvq_u8(acc);
    }
  } else {
    constexpr std::size_t step = 4;
    const auto* q = reinterpret_cast<const std::uint32_t*>(p);
    while (n - i >= step) {
      const std::size_t steps = (n - i) / step < (std::size_t{1} << 14) ? (n - i) / step : std::size_t{1} << 14;
      uint32x4_t acc = vdupq_n_u32(0);
      for (std::size_t k = 0; k < steps; ++k, i += step) {
        const uint32x4_t u = vld1q_u32(q + i);
        const uint32x4_t supp = vcltq_u32(vsubq_u32(u, vdupq_n_u32(0x10000)), vdupq_n_u32(0x100000));
        acc = vsubq_u32(acc,
                        vaddq_u32(supp, vaddq_u32(vcgtq_u32(u, vdupq_n_u32(0x7F)), vcgtq_u32(u, vdupq_n_u32(0x7FF)))));
      }
      total += vaddvq_u32(acc);
    }
  }
  return total - (n - i) + detail::utf8_length_valid<In>(p + i, n - i);
}

/// UTF-8 bytes of UTF-16 after conversion (utf8_length_scalar's answer): 32 units a step whose
/// surrogates pair up, by their low and high bytes (a high surrogate that ends a step checked with
/// the next), counted in byte lanes; from a step with an unpaired surrogate, its units (from the
/// character before it) through the scalar count.
inline std::size_t utf8_length_from_utf16(const char16_t* p, std::size_t n, char32_t repl) noexcept {
  if (repl == valid_marker) return utf8_length_valid(p, n);
  const std::size_t repl_bytes = replacement_bytes(repl);
  const auto* s = reinterpret_cast<const std::uint8_t*>(p);
  uint8x16_t high = vdupq_n_u8(0);  // last lane: whether the unit before i is a high surrogate
  std::size_t i = 0, total = 0;
  const auto open_pair = [&] { return i > 0 && vgetq_lane_u8(high, 15) != 0; };
  while (n - i >= 32) {
    const std::size_t steps = (n - i) / 32 < 63 ? (n - i) / 32 : 63;  // (4 a lane a step)
    uint8x16_t acc = vdupq_n_u8(0);
    std::size_t k = 0;
    for (; k < steps; ++k, i += 32) {
      const uint8x16x4_t v = vld1q_u8_x4(s + 2 * i);
      uint8x16_t h = high;
      const uint8x16_t bad = vorrq_u8(unpaired16(v.val[0], v.val[1], h), unpaired16(v.val[2], v.val[3], h));
      if (any_lane(bad)) break;
      acc = add_utf8_extra32(acc, v);
      high = h;
    }
    total += 32 * k + vaddlvq_u8(acc);
    if (k == steps) continue;
    // A step with an unpaired surrogate: from the character before it (a high surrogate left open,
    // counted 2 bytes, decoded again with its unit) by the scalar count.
    if (open_pair()) {
      total -= 2;
      --i;
    }
    total += utf8_bytes_region(p, n, i, i + 32, repl_bytes);
    high = vdupq_n_u8(0);
  }
  if (open_pair()) {
    total -= 2;
    --i;
  }
  return total + utf8_bytes_region(p, n, i, n, repl_bytes);
}

/// UTF-8 bytes of UTF-32 after conversion: 8 scalar values a step counted in vector lanes, blocks
/// holding another value through the scalar count.
inline std::size_t utf8_length_from_utf32(const char32_t* p, std::size_t n, char32_t repl) noexcept {
  if (repl == valid_marker) return utf8_length_valid(p, n);
  const auto* q = reinterpret_cast<const std::uint32_t*>(p);
  const std::size_t repl_bytes = replacement_bytes(repl);
  uint32x4_t acc = vdupq_n_u32(0);  // bytes past one a unit (at most 6 a lane a step)
  std::size_t i = 0, total = 0, steps = 0;
  while (n - i >= 8) {
    const uint32x4_t x = vld1q_u32(q + i), y = vld1q_u32(q + i + 4);
    if (!all_scalar_values(x, y)) {
      total += utf8_bytes_region(p, n, i, i + 8, repl_bytes);
      continue;
    }
    const uint32x4_t lim80 = vdupq_n_u32(0x7F), lim800 = vdupq_n_u32(0x7FF), lim10000 = vdupq_n_u32(0xFFFF);
    const uint32x4_t ex = vaddq_u32(vaddq_u32(vcgtq_u32(x, lim80), vcgtq_u32(x, lim800)), vcgtq_u32(x, lim10000));
    const uint32x4_t ey = vaddq_u32(vaddq_u32(vcgtq_u32(y, lim80), vcgtq_u32(y, lim800)), vcgtq_u32(y, lim10000));
    acc = vsubq_u32(acc, vaddq_u32(ex, ey));
    i += 8;
    total += 8;
    if (++steps == (std::size_t{1} << 28)) {  // before a lane could wrap
      total += vaddlvq_u32(acc);
      acc = vdupq_n_u32(0);
      steps = 0;
    }
  }
  total += vaddlvq_u32(acc);
  return total + utf8_bytes_region(p, n, i, n, repl_bytes);
}

/// Latin-1 bytes widened to UTF-16 or UTF-32 (by Out), 16 at a time. Returns n.
template <class Out>
inline std::size_t latin1_widen(const unsigned char* p, std::size_t n, Out* out) noexcept {
  std::size_t i = 0;
  for (; n - i >= 16; i += 16) {
    const uint8x16_t v = vld1q_u8(p + i);
    put8(out + i, vmovl_u8(vget_low_u8(v)), 8, true);
    put8(out + i + 8, vmovl_high_u8(v), 8, true);
  }
  latin1_widen_scalar(p + i, n - i, out + i);
  return n;
}

/// Bytes of the UTF-8 of Latin-1: n, and one more for each byte 80..FF (counted in byte lanes).
inline std::size_t utf8_length_from_latin1(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0, total = n;
  while (n - i >= 16) {
    const std::size_t vectors = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
    uint8x16_t acc = vdupq_n_u8(0);
    for (std::size_t k = 0; k < vectors; ++k, i += 16) acc = vsraq_n_u8(acc, vld1q_u8(p + i), 7);
    total += vaddlvq_u8(acc);
  }
  return total + utf8_length_from_latin1_scalar(p + i, n - i) - (n - i);
}

/// The units with their bytes in the opposite order (out may be p), one instruction a vector, 64
/// bytes a step.
template <class Unit>
inline std::size_t change_endianness(const Unit* p, std::size_t n, Unit* out) noexcept {
  const auto* q = reinterpret_cast<const std::uint8_t*>(p);
  auto* o = reinterpret_cast<std::uint8_t*>(out);
  const auto rev = [](uint8x16_t v) { return sizeof(Unit) == 2 ? vrev16q_u8(v) : vrev32q_u8(v); };
  std::size_t b = 0;
  const std::size_t bytes = n * sizeof(Unit);
  for (; bytes - b >= 64; b += 64) {
    uint8x16x4_t v = vld1q_u8_x4(q + b);
    v.val[0] = rev(v.val[0]);
    v.val[1] = rev(v.val[1]);
    v.val[2] = rev(v.val[2]);
    v.val[3] = rev(v.val[3]);
    vst1q_u8_x4(o + b, v);
  }
  for (; bytes - b >= 16; b += 16) vst1q_u8(o + b, rev(vld1q_u8(q + b)));
  const std::size_t i = b / sizeof(Unit);
  change_endianness_scalar(p + i, n - i, out + i);
  return n;
}

/// Code points in UTF-16: n less the pairs (a high surrogate, then a low one). 32 units a step by
/// the high byte of each unit (16 to a vector): the low surrogates after a high one, counted in
/// byte lanes.
inline std::size_t count_utf16(const char16_t* p, std::size_t n) noexcept {
  const auto* s = reinterpret_cast<const std::uint8_t*>(p);
  const uint8x16_t fc = vdupq_n_u8(0xFC), d8 = vdupq_n_u8(0xD8), dc = vdupq_n_u8(0xDC);
  uint8x16_t high = vdupq_n_u8(0);  // last lane: whether the unit before i is a high surrogate
  std::size_t i = 0, pairs = 0;
  while (n - i >= 32) {
    const std::size_t steps = (n - i) / 32 < 127 ? (n - i) / 32 : 127;  // (2 a lane a step)
    uint8x16_t acc = vdupq_n_u8(0);
    for (std::size_t k = 0; k < steps; ++k, i += 32) {
      const uint8x16x4_t v = vld1q_u8_x4(s + 2 * i);
      const uint8x16_t w0 = vandq_u8(vuzp2q_u8(v.val[0], v.val[1]), fc);
      const uint8x16_t w1 = vandq_u8(vuzp2q_u8(v.val[2], v.val[3]), fc);
      const uint8x16_t h0 = vceqq_u8(w0, d8), h1 = vceqq_u8(w1, d8);
      acc = vsubq_u8(acc, vandq_u8(vceqq_u8(w0, dc), vextq_u8(high, h0, 15)));
      acc = vsubq_u8(acc, vandq_u8(vceqq_u8(w1, dc), vextq_u8(h0, h1, 15)));
      high = h1;
    }
    pairs += vaddlvq_u8(acc);
  }
  // (the pairs whose low surrogate is at i or after, one of them possibly starting at i - 1)
  return n - pairs - pair_starts_scalar(p, n, i == 0 ? 0 : i - 1, n);
}

/// validate_utf's answer for UTF-32: 32 units a step, each as (u ^ D800) - 800 (wrapping), which
/// takes a surrogate to FFFFF800 and up and a value above 10FFFF above 10F7FF, so that one maximum
/// tells whether all are scalar values; from a step holding another value on, the scalar code.
inline packed_validation validate_utf32(const char32_t* p, std::size_t n) noexcept {
  const auto* q = reinterpret_cast<const std::uint32_t*>(p);
  const uint32x4_t flip = vdupq_n_u32(0xD800), bias = vdupq_n_u32(0x800);
  const auto off = [&](uint32x4_t u) { return vsubq_u32(veorq_u32(u, flip), bias); };
  std::size_t i = 0;
  for (; n - i >= 32; i += 32) {
    const uint32x4x4_t a = vld1q_u32_x4(q + i), b = vld1q_u32_x4(q + i + 16);
    const uint32x4_t m0 = vmaxq_u32(vmaxq_u32(off(a.val[0]), off(a.val[1])), vmaxq_u32(off(a.val[2]), off(a.val[3])));
    const uint32x4_t m1 = vmaxq_u32(vmaxq_u32(off(b.val[0]), off(b.val[1])), vmaxq_u32(off(b.val[2]), off(b.val[3])));
    if (vmaxvq_u32(vmaxq_u32(m0, m1)) > 0x10F7FF) break;
  }
  while (n - i >= 8 && all_scalar_values(vld1q_u32(q + i), vld1q_u32(q + i + 4))) i += 8;
  packed_validation r = validate_utf(p + i, n - i);
  r.valid_up_to += i;
  return r;
}

/// UTF-16 or UTF-32 (by In) to Latin-1 (Policy strict, replace or skip): 64 bytes of units up to
/// 0xFF a step narrowed (UTF-16: then 16 units); other blocks through the scalar code.
template <class Policy, class In>
inline packed_conversion utf_to_latin1_impl(const In* p, std::size_t n, unsigned char* out, Policy pol) noexcept {
  unsigned char repl = '?';
  if (!latin1_replacement(pol, repl)) return {0, 0, error_code::unrepresentable};
  latin1_progress s;
  const auto* b = reinterpret_cast<const std::uint8_t*>(p);
  while (n - s.read >= 16) {
    if constexpr (sizeof(In) == 2) {
      // 32 units: their high bytes all zero, their low bytes the output.
      for (; n - s.read >= 32; s.read += 32, s.written += 32) {
        const uint8x16x4_t v = vld1q_u8_x4(b + 2 * s.read);
        const uint8x16_t hi = vorrq_u8(vuzp2q_u8(v.val[0], v.val[1]), vuzp2q_u8(v.val[2], v.val[3]));
        if (vmaxvq_u8(hi) != 0) break;
        vst1q_u8(out + s.written, vuzp1q_u8(v.val[0], v.val[1]));
        vst1q_u8(out + s.written + 16, vuzp1q_u8(v.val[2], v.val[3]));
      }
    } else {
      // 16 units up to 0xFF: their low bytes, taken by two narrowing steps.
      for (; n - s.read >= 16; s.read += 16, s.written += 16) {
        const uint32x4x4_t v = vld1q_u32_x4(reinterpret_cast<const std::uint32_t*>(b) + s.read);
        const uint32x4_t top = vmaxq_u32(vmaxq_u32(v.val[0], v.val[1]), vmaxq_u32(v.val[2], v.val[3]));
        if (vmaxvq_u32(top) > 0xFF) break;
        const uint16x8_t h0 = vuzp1q_u16(vreinterpretq_u16_u32(v.val[0]), vreinterpretq_u16_u32(v.val[1]));
        const uint16x8_t h1 = vuzp1q_u16(vreinterpretq_u16_u32(v.val[2]), vreinterpretq_u16_u32(v.val[3]));
        vst1q_u8(out + s.written, vuzp1q_u8(vreinterpretq_u8_u16(h0), vreinterpretq_u8_u16(h1)));
      }
    }
    if (n - s.read < 16) break;
    if constexpr (sizeof(In) == 2) {  // (the first 16 of a failing block of 32 may pass)
      const uint16x8_t lo = vld1q_u16(reinterpret_cast<const std::uint16_t*>(p + s.read));
      const uint16x8_t hi = vld1q_u16(reinterpret_cast<const std::uint16_t*>(p + s.read) + 8);
      if (vmaxvq_u16(vmaxq_u16(lo, hi)) <= 0xFF) {
        vst1q_u8(out + s.written, vuzp1q_u8(vreinterpretq_u8_u16(lo), vreinterpretq_u8_u16(hi)));
        s.read += 16;
        s.written += 16;
        continue;
      }
    }
    if (!to_latin1_until<Policy>(p, n, s.read + 16, out, s, repl)) return latin1_result(s, n, true);
  }
  const bool done = to_latin1_until<Policy>(p, n, n, out, s, repl);
  return latin1_result(s, n, !done);
}

template <class In>
inline packed_conversion utf_to_latin1(const In* p, std::size_t n, unsigned char* out, char32_t replacement) noexcept {
  if (replacement == strict_marker) return utf_to_latin1_impl(p, n, out, strict{});
  if (replacement == skip_marker) return utf_to_latin1_impl(p, n, out, skip{});
  return utf_to_latin1_impl(p, n, out, replace{replacement});
}

}  // namespace neon
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/neon/units.hpp ----

#if UTF8DFA_NEON_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace neon {

/// UTF-8 inputs shorter than this are converted in a padded copy.
inline constexpr std::size_t short_below = 256;

inline constexpr kernel_table table{
    "neon",
    &validate,
    &count_leads,
    &utf16_length,
    // UTF-8 input under 32 bytes: the scalar DFA; up to short_below bytes: in a padded copy, so
    // that the blocks cover the whole input (short_input.hpp).
    &padded_from<unsigned char, char32_t, &utf8_to_utf32, scalar_utf8_to_utf32, 32, short_below, 80>,
    &padded_from<unsigned char, char16_t, &utf8_to_utf16, scalar_utf8_to_utf16, 32, short_below, 80>,
    &vector_from<char16_t, unsigned char, &utf16_to_utf8, scalar_utf16_to_utf8, 16>,
    &vector_from<char32_t, unsigned char, &utf32_to_utf8, scalar_utf32_to_utf8, 16>,
    &utf8_units_by<true, &validate, &utf16_length>,
    &utf8_units_by<false, &validate, &count_leads>,
    &utf8_length_from_utf16,
    &utf8_length_from_utf32,
    &latin1_to_utf8,
    &utf8_to_latin1,
    &validate_utf16,
    &vector_from<char16_t, char32_t, &utf16_to_utf32, scalar_utf16_to_utf32, 16>,
    &vector_from<char32_t, char16_t, &utf32_to_utf16, scalar_utf32_to_utf16, 16>,
    &to_well_formed_utf16,
    &count_utf16,
    &validate_utf32,
    &utf_to_latin1<char16_t>,
    &utf_to_latin1<char32_t>,
    &latin1_widen<char16_t>,
    &latin1_widen<char32_t>,
    &utf8_length_from_latin1,
    &change_endianness<char16_t>,
    &change_endianness<char32_t>,
    &validate_utf16_swapped,
    &vector_from<char16_t, unsigned char, &utf16_swapped_to_utf8, scalar_utf16_swapped_to_utf8, 16>,
    &padded_from<unsigned char, char16_t, &utf8_to_utf16_swapped, scalar_utf8_to_utf16_swapped, 32, short_below, 80>,
};

}  // namespace neon
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/neon/kernels.hpp ----
// ---- begin utf8dfa/detail/simd/sse4/kernels.hpp ----
// utf8dfa: the SSE4.2 kernel table (transcoding: the scalar kernels until SIMD ones are plugged in).
#ifndef UTF8DFA_DETAIL_SIMD_SSE4_KERNELS_HPP
#define UTF8DFA_DETAIL_SIMD_SSE4_KERNELS_HPP

// ---- begin utf8dfa/detail/simd/sse4/validate.hpp ----
// utf8dfa: SSE4.2 validation and counting (16-byte vectors, 64-byte blocks).
#ifndef UTF8DFA_DETAIL_SIMD_SSE4_VALIDATE_HPP
#define UTF8DFA_DETAIL_SIMD_SSE4_VALIDATE_HPP


#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace sse4 {

UTF8DFA_TARGET_SSE4 inline __m128i splat(unsigned v) noexcept {
  return _mm_set1_epi8(static_cast<char>(v));
}

UTF8DFA_TARGET_SSE4 inline __m128i load(const void* p) noexcept {
  return _mm_loadu_si128(static_cast<const __m128i*>(p));
}

/// The block check with its constants loaded once (outside the loops that use it).
struct checker {
  __m128i first_high, first_low, second_high, nibble, lead3, lead4, high_bit;

  UTF8DFA_TARGET_SSE4 checker() noexcept
      : first_high(load(pair_lookup.first_high)),
        first_low(load(pair_lookup.first_low)),
        second_high(load(pair_lookup.second_high)),
        nibble(splat(0x0F)),
        lead3(splat(lead3_min - 0x80u)),
        lead4(splat(lead4_min - 0x80u)),
        high_bit(splat(0x80)) {}

  /// Non-zero where the pair check or the 3-/4-byte continuation check fails in `in`, given the
  /// 16 bytes before it.
  UTF8DFA_TARGET_SSE4 __m128i operator()(__m128i in, __m128i prev) const noexcept {
    const __m128i prev1 = _mm_alignr_epi8(in, prev, 15);
    const __m128i a = _mm_shuffle_epi8(first_high, _mm_and_si128(_mm_srli_epi16(prev1, 4), nibble));
    const __m128i b = _mm_shuffle_epi8(first_low, _mm_and_si128(prev1, nibble));
    const __m128i c = _mm_shuffle_epi8(second_high, _mm_and_si128(_mm_srli_epi16(in, 4), nibble));
    const __m128i flags = _mm_and_si128(_mm_and_si128(a, b), c);
    // Saturating subtraction leaves bit 7 set exactly for prev2 >= lead3_min, prev3 >= lead4_min.
    const __m128i is3 = _mm_subs_epu8(_mm_alignr_epi8(in, prev, 14), lead3);
    const __m128i is4 = _mm_subs_epu8(_mm_alignr_epi8(in, prev, 13), lead4);
    const __m128i must_continue = _mm_and_si128(_mm_or_si128(is3, is4), high_bit);
    return _mm_xor_si128(flags, must_continue);
  }
};

/// Non-zero when `in` ends inside a character.
UTF8DFA_TARGET_SSE4 inline __m128i ends_incomplete(__m128i in) noexcept {
  const __m128i limit =
      _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, static_cast<char>(lead4_min - 1),
                    static_cast<char>(lead3_min - 1), static_cast<char>(utf8_tail.hi));
  return _mm_subs_epu8(in, limit);
}

struct block {
  __m128i v[4];
};

/// Checks the 64 bytes `b` (preceded by `prev`); returns the error vector.
UTF8DFA_TARGET_SSE4 inline __m128i check_block(const checker& check, const block& b, __m128i prev,
                                               __m128i& incomplete) noexcept {
  const __m128i any = _mm_or_si128(_mm_or_si128(b.v[0], b.v[1]), _mm_or_si128(b.v[2], b.v[3]));
  if (_mm_movemask_epi8(any) == 0) return incomplete;  // ASCII: only a cut character before it fails
  __m128i err = _mm_or_si128(check(b.v[0], prev), check(b.v[1], b.v[0]));
  err = _mm_or_si128(err, _mm_or_si128(check(b.v[2], b.v[1]), check(b.v[3], b.v[2])));
  incomplete = ends_incomplete(b.v[3]);
  return err;
}

UTF8DFA_TARGET_SSE4 inline block load_block(const unsigned char* p) noexcept {
  return {{load(p), load(p + 16), load(p + 32), load(p + 48)}};
}

/// Inputs shorter than this go to the scalar DFA (the checks need 80 readable bytes).
inline constexpr std::size_t min_block_input = 80;

/// How far past the block start a failing check_blocks step reaches.
inline constexpr std::size_t block_span = 64;

/// Runs the block checks over [p, p+n) (n >= min_block_input): `blocks_pass` when they all pass
/// (the input is well-formed), else b such that [0, b) passed and [b, b + block_span) failed.
UTF8DFA_TARGET_SSE4 inline std::size_t check_blocks(const unsigned char* p, std::size_t n) noexcept {
  const checker check;
  __m128i prev = _mm_setzero_si128(), incomplete = _mm_setzero_si128();
  std::size_t i = 0;
  for (; n - i >= 64; i += 64) {
    const block b = load_block(p + i);
    const __m128i err = check_block(check, b, prev, incomplete);
    if (UTF8DFA_UNLIKELY(!_mm_testz_si128(err, err))) return i;
    prev = b.v[3];
  }
  // The last 64 bytes again (re-checking bytes that passed is harmless), then the end of input.
  __m128i err = incomplete;
  if (i < n) {
    const block b = load_block(p + n - 64);
    __m128i ignored = incomplete;
    err = _mm_or_si128(check_block(check, b, load(p + n - 80), ignored), ends_incomplete(b.v[3]));
  }
  if (UTF8DFA_UNLIKELY(!_mm_testz_si128(err, err))) return i;
  return blocks_pass;
}

/// validate_scalar's answer for n >= min_block_input, 64 bytes per step.
UTF8DFA_TARGET_SSE4 UTF8DFA_NOINLINE inline packed_validation validate_blocks(const unsigned char* p,
                                                                              std::size_t n) noexcept {
  const std::size_t b = check_blocks(p, n);
  if (UTF8DFA_LIKELY(b == blocks_pass)) return {n, 0, error_code::none};
  return rescan_from(p, n, b);
}

/// validate_scalar's answer. Short inputs take the scalar DFA: this function is plain code (no
/// target region), so they run exactly as in the scalar kernel.
inline packed_validation validate(const unsigned char* p, std::size_t n) noexcept {
  return n < min_block_input ? validate_scalar(p, n) : validate_blocks(p, n);
}

/// Bytes that are not continuation bytes (80..BF are the signed bytes below -64).
UTF8DFA_TARGET_SSE4 inline std::size_t count_leads(const unsigned char* p, std::size_t n) noexcept {
  const __m128i limit = splat(0xBF);  // -65
  std::size_t count = 0, i = 0;
  for (; n - i >= 16; i += 16) {
    const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpgt_epi8(load(p + i), limit)));
    count += static_cast<unsigned>(_mm_popcnt_u32(m));
  }
  return count + count_leads_scalar(p + i, n - i);
}

/// UTF-16 units of well-formed input: leads, plus one more for each 4-byte lead (F0..FF).
UTF8DFA_TARGET_SSE4 inline std::size_t utf16_length(const unsigned char* p, std::size_t n) noexcept {
  const __m128i cont_limit = splat(0xBF), four_limit = splat(lead4_min - 1u);
  std::size_t count = 0, i = 0;
  for (; n - i >= 16; i += 16) {
    const __m128i in = load(p + i);
    const unsigned leads = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpgt_epi8(in, cont_limit)));
    // Signed: F0..FF are -16..-1, the only negative bytes above -17.
    const unsigned fours = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(in, four_limit), in)));
    count += static_cast<unsigned>(_mm_popcnt_u32(leads) + _mm_popcnt_u32(fours));
  }
  return count + utf16_length_scalar(p + i, n - i);
}

}  // namespace sse4
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/sse4/validate.hpp ----

#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace sse4 {

inline constexpr kernel_table table{
    "sse4",
    &validate,
    &count_leads,
    &utf16_length,
    scalar_kernels.utf8_to_utf32,
    scalar_kernels.utf8_to_utf16,
    scalar_kernels.utf16_to_utf8,
    scalar_kernels.utf32_to_utf8,
    &utf8_units_by<true, &validate, &utf16_length>,
    &utf8_units_by<false, &validate, &count_leads>,
    scalar_kernels.utf8_length_from_utf16,
    scalar_kernels.utf8_length_from_utf32,
    scalar_kernels.latin1_to_utf8,
    scalar_kernels.utf8_to_latin1,
    scalar_kernels.validate_utf16,
    scalar_kernels.utf16_to_utf32,
    scalar_kernels.utf32_to_utf16,
    scalar_kernels.to_well_formed_utf16,
    scalar_kernels.count_utf16,
    scalar_kernels.validate_utf32,
    scalar_kernels.utf16_to_latin1,
    scalar_kernels.utf32_to_latin1,
    scalar_kernels.latin1_to_utf16,
    scalar_kernels.latin1_to_utf32,
    scalar_kernels.utf8_length_from_latin1,
    scalar_kernels.change_endianness_utf16,
    scalar_kernels.change_endianness_utf32,
    scalar_kernels.validate_utf16_swapped,
    scalar_kernels.utf16_swapped_to_utf8,
    scalar_kernels.utf8_to_utf16_swapped,
};

}  // namespace sse4
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
// ---- end utf8dfa/detail/simd/sse4/kernels.hpp ----

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
// ---- end utf8dfa/detail/kernel_list.hpp ----
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
// ---- end utf8dfa/detail/dispatch.hpp ----
// ---- begin utf8dfa/latin1.hpp ----
// utf8dfa: ISO-8859-1 (Latin-1), where each byte is the code point of the same value
// (U+0000..U+00FF), to and from UTF-8, UTF-16 and UTF-32. The conversions and utf8_length_from_latin1
// are kernel operations (vector code where the kernel has it).
//
// Into Latin-1, a character above U+00FF is `unrepresentable`: strict stops before it (as before
// an ill-formed subpart, whose kind is reported as usual), replace writes the policy's replacement
// for it, which must itself be Latin-1: replace{U'?'}. A replacement above U+00FF (U+FFFD, the
// default, included) is refused whatever the input: the call writes nothing and returns
// {0, 0, error_code::unrepresentable}. assume_valid writes '?' for what it cannot convert; skip
// writes nothing for it (nor for an ill-formed subpart).
#ifndef UTF8DFA_LATIN1_HPP
#define UTF8DFA_LATIN1_HPP

#include <string>

// ---- begin utf8dfa/detail/units_kernels.hpp ----
// utf8dfa: the scalar forms of the bulk operations on Latin-1, UTF-16 and UTF-32 that are kernel
// operations in their own right (counting UTF-16, validating UTF-32, Latin-1 to UTF-16 / UTF-32 and
// the UTF-8 length of Latin-1, byte-order changes): the kernel table's portable entries and the
// reference of the vector kernels. Constexpr where the public function is.
#ifndef UTF8DFA_DETAIL_UNITS_KERNELS_HPP
#define UTF8DFA_DETAIL_UNITS_KERNELS_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// The unit with its bytes in the opposite order.
constexpr char16_t swap_bytes(char16_t u) noexcept {
  return static_cast<char16_t>(((u & 0xFFu) << 8) | (u >> 8));
}
constexpr char32_t swap_bytes(char32_t u) noexcept {
  return ((u & 0xFFu) << 24) | ((u & 0xFF00u) << 8) | ((u >> 8) & 0xFF00u) | (u >> 24);
}

/// Code points in UTF-16: one per surrogate pair or other unit.
constexpr std::size_t count_utf16_scalar(const char16_t* p, std::size_t n) noexcept {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++count) i += decode_utf16_at(p, n, i).length;
  return count;
}

/// The pairs (a high surrogate, then a low one) that start in [from, to) of the `n` units at p:
/// count_utf16 is n less the pairs.
inline std::size_t pair_starts_scalar(const char16_t* p, std::size_t n, std::size_t from, std::size_t to) noexcept {
  std::size_t pairs = 0;
  for (std::size_t i = from; i < to && i + 1 < n; ++i)
    pairs += (p[i] & 0xFC00u) == 0xD800u && (p[i + 1] & 0xFC00u) == 0xDC00u;
  return pairs;
}

/// The kernel table's count_utf16: n less the pairs, counted without a branch: in blocks of 256
/// units with 16-bit sums (which the compilers vectorise in 16-bit lanes), the rest (short input
/// too) in one loop of run-time length (with g++, 64 B ran 1.6x faster than by words of four
/// units); rather than count_utf16_scalar's walk from character to character. With clang++ the
/// unit after each is read through opaque (see paired_units): 256 B 1.26x as fast.
inline std::size_t count_utf16_by_pairs(const char16_t* p, std::size_t n) noexcept {
  if (n < 2) return n;
  const char16_t* next = clang_codegen ? opaque(p + 1) : p + 1;
  const auto starts_pair = [p, next](std::size_t i) {
    return static_cast<unsigned>(((p[i] & 0xFC00u) == 0xD800u) & ((next[i] & 0xFC00u) == 0xDC00u));
  };
  std::size_t pairs = 0, i = 0;
  for (; n - i > 256; i += 256) {  // the unit after the block is read too
    std::uint16_t block = 0;
    for (std::size_t k = 0; k < 256; ++k) block = static_cast<std::uint16_t>(block + starts_pair(i + k));
    pairs += block;
  }
  // Up to 256 units left: one loop of run-time length over the units a pair can start at (all but
  // the last), on a pointer to them (through starts_pair, g++ 12 did not vectorise it: 64 B 0.22x).
  const char16_t* q = p + i;
  const char16_t* qn = next + i;
  const std::size_t m = n - i - 1;
  std::uint16_t rest = 0;
  for (std::size_t k = 0; k < m; ++k)
    rest = static_cast<std::uint16_t>(rest + (((q[k] & 0xFC00u) == 0xD800u) & ((qn[k] & 0xFC00u) == 0xDC00u)));
  return n - pairs - rest;
}

/// validate_utf16 on the `n` units at p with the bytes of each exchanged (UTF-16 in the byte order
/// opposite to the host's).
inline packed_validation validate_utf16_swapped_scalar(const char16_t* p, std::size_t n) noexcept {
  for (std::size_t i = skip_paired_blocks<true>(p, n, 0); i < n; ++i) {
    const char16_t u = swap_bytes(p[i]);
    if (u < 0xD800 || u > 0xDFFF) continue;
    if (u >= 0xDC00) return {i, 1, error_code::surrogate};
    if (i + 1 == n) return {i, 0, error_code::incomplete};
    const char16_t v = swap_bytes(p[i + 1]);
    if (v < 0xDC00 || v > 0xDFFF) return {i, 1, error_code::surrogate};
    ++i;
  }
  return {n, 0, error_code::none};
}

/// The kernel entry for UTF-32 validation.
constexpr packed_validation validate_utf32_scalar(const char32_t* p, std::size_t n) noexcept {
  return validate_utf(p, n);
}

/// The `n` units or bytes at p, each through `f`, into out (which does not overlap them): blocks
/// of 64 (the last one ending at n, written again in part, when n is 64 or more).
template <class In, class Out, class F>
void map_units(const In* p, std::size_t n, Out* out, F f) noexcept {
  constexpr std::size_t block = 64;
  if (n < block) {
    for (std::size_t i = 0; i < n; ++i) out[i] = f(p[i]);
    return;
  }
  std::size_t i = 0;
  for (; n - i >= block; i += block) map_block<block>(p + i, out + i, f);
  if (i < n) map_block<block>(p + n - block, out + n - block, f);
}

/// Latin-1 bytes to UTF-16 or UTF-32 units (one each). Returns n.
template <class Out>
std::size_t latin1_widen_scalar(const unsigned char* p, std::size_t n, Out* out) noexcept {
  // Input under 16 bytes, and input of 256 bytes or more into UTF-32, by a plain loop (which compilers
  // vectorise with a scalar tail); the rest by blocks on pointers that do not overlap, the last one
  // overlapping the one before. With g++ 12, UTF-16 output of 64 B to 1 KiB of text ran 1.2-1.4x
  // faster than by the loop (a copy of each block through the stack, which g++ 12 kept storing,
  // cost a third more at 1 KiB); UTF-32 output of ~100 KB ran by blocks at 0.7x the loop's speed
  // on an Intel Xeon (the same on an AMD EPYC).
  if (n < 16 || (sizeof(Out) == 4 && n >= 256)) {
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<Out>(p[i]);
    return n;
  }
  const auto widen = [](unsigned char b) { return static_cast<Out>(b); };
  std::size_t i = 0;
  for (; n - i >= 32; i += 32) map_block<32>(p + i, out + i, widen);
  if (n - i >= 16) {
    map_block<16>(p + i, out + i, widen);
    i += 16;
  }
  if (i < n) map_block<16>(p + n - 16, out + n - 16, widen);
  return n;
}

/// Bytes of the UTF-8 of Latin-1: one per byte, two for 80..FF.
inline std::size_t utf8_length_from_latin1_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t total = n;
  for (std::size_t i = 0; i < n; ++i) total += p[i] >> 7;
  return total;
}

/// The units with their bytes in the opposite order into `out` (which may be `p`). Returns n.
template <class Unit>
std::size_t change_endianness_scalar(const Unit* p, std::size_t n, Unit* out) noexcept {
  if (out == p) {
    // Blocks of 64 units (a loop of fixed count, which compilers unroll: the loop of run-time length
    // they vectorised one vector a step, 0.67x simdutf fallback's speed in place), then the rest.
    std::size_t i = 0;
    for (; n - i >= 64; i += 64)
      for (std::size_t k = 0; k < 64; ++k) out[i + k] = swap_bytes(out[i + k]);
    for (; i < n; ++i) out[i] = swap_bytes(out[i]);
  } else {
    map_units(p, n, out, [](Unit u) { return swap_bytes(u); });
  }
  return n;
}

/// Units of `Unit` from p to the next 64-byte boundary (0 when p is on one): the vector kernels'
/// loads from there on do not straddle cache lines.
template <class Unit>
std::size_t units_to_line(const Unit* p) noexcept {
  return (64 - reinterpret_cast<std::uintptr_t>(p) % 64) % 64 / sizeof(Unit);
}

/// The kernels' encoding of a policy into Latin-1 (strict_marker, skip_marker or the replacement
/// byte, '?' for assume_valid); false for a replacement above U+00FF.
template <class Policy>
constexpr bool latin1_kernel_replacement(const Policy& pol, char32_t& repl) noexcept {
  unsigned char byte = '?';
  if (!latin1_replacement(pol, byte)) return false;
  repl = byte;
  if constexpr (Policy::stops_on_error)
    repl = strict_marker;
  else if constexpr (skips_errors_v<Policy>)
    repl = skip_marker;
  return true;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/units_kernels.hpp ----
// ---- begin utf8dfa/transcode.hpp ----
// utf8dfa: bulk conversion between UTF-8 and UTF-16 / UTF-32, with exact output-length helpers.
#ifndef UTF8DFA_TRANSCODE_HPP
#define UTF8DFA_TRANSCODE_HPP


// ---- begin utf8dfa/dialect.hpp ----
// utf8dfa: the dialects of UTF-8 that real systems exchange, each one a grammar and a table.
//
// A dialect is a tag type passed after the other arguments of validate, is_valid, decode_next,
// encode, encoded_length and the conversions (validate(bytes, dialect::wtf8{})), and as a
// template argument of code_point_iterator, the views, validator and decoder. dialect::utf8 is the
// default everywhere and runs the strict code paths (and SIMD kernels) unchanged; the others run
// the same DFA engine on their own table, scalar.
//
// Each grammar below is the RFC 3629 ABNF with the differences written next to it; the tables are
// built from it at compile time (detail/dialect_dfa.hpp).
#ifndef UTF8DFA_DIALECT_HPP
#define UTF8DFA_DIALECT_HPP


// ---- begin utf8dfa/detail/dialect_dfa.hpp ----
// utf8dfa: the automaton builder for the grammars beyond RFC 3629 (see dialect.hpp), run by the one
// decoding engine of dfa.hpp (decode_with).
//
// dfa.hpp builds strict UTF-8 from one list of alternatives whose lead ranges never overlap, so a
// state there is one suffix of one alternative. The dialects need two more things, both still
// written as data:
//  - alternatives that share a lead byte and part ways later (CESU-8's ED 80-9F tail next to the
//    six-byte pair ED A0-AF tail ED B0-BF tail): a state is the SET of suffixes still possible;
//  - a rule across characters (WTF-8: a lead surrogate must not be followed by a trail surrogate):
//    more than one character boundary. Each alternative says at which boundaries it may start and
//    at which it ends; a boundary is an accepting state of its own.
// The build is a subset construction over those suffixes, evaluated at compile time; tests compare
// every table with a reference written from the grammars (tests/reference/dialects.hpp), and
// tests/tables_test.cpp checks that this builder, given RFC 3629, yields the table of dfa.hpp.
#ifndef UTF8DFA_DETAIL_DIALECT_DFA_HPP
#define UTF8DFA_DETAIL_DIALECT_DFA_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

inline constexpr std::size_t rule_max_length = 6;

/// Character boundaries a rule may start at (a bit mask) or ends at (an index).
inline constexpr std::uint8_t plain_boundary = 0;       // index of the ordinary boundary
inline constexpr std::uint8_t after_lead_boundary = 1;  // index: just after a lead surrogate (WTF-8)
inline constexpr std::uint8_t at_any_boundary = 3;      // mask: both
inline constexpr std::uint8_t at_plain_boundary = 1;    // mask: the ordinary boundary only

/// One alternative: `length` octet ranges (the first is the lead). A range that is not a
/// continuation range inside a sequence (ED in the CESU-8 pair) names in `outside` the error for
/// any byte it refuses; a continuation range names the error for a continuation byte it refuses.
struct dialect_rule {
  std::uint8_t length;
  octet_range seq[rule_max_length];
  std::uint8_t starts = at_any_boundary;  // mask of boundaries it may start at
  std::uint8_t ends = plain_boundary;     // boundary it leaves
};

inline constexpr std::size_t dialect_max_states = 24;
inline constexpr std::size_t dialect_max_items = 4;
inline constexpr std::uint8_t dialect_reject = 1;  // state 0 is the plain boundary, 1 reject

/// The rest of one alternative: the ranges still expected and the boundary it ends at.
struct rule_suffix {
  std::uint8_t count = 0;
  octet_range need[rule_max_length - 1]{};
  std::uint8_t ends = plain_boundary;

  constexpr bool same(const rule_suffix& o) const noexcept {
    if (count != o.count || ends != o.ends) return false;
    for (std::uint8_t k = 0; k < count; ++k)
      if (need[k].lo != o.need[k].lo || need[k].hi != o.need[k].hi || need[k].outside != o.need[k].outside)
        return false;
    return true;
  }
};

/// A state: a boundary (no items, `boundary` says which) or the set of suffixes still possible.
struct dialect_state {
  std::uint8_t items = 0;
  rule_suffix item[dialect_max_items]{};
  std::uint8_t boundary = 0;

  constexpr bool contains(const rule_suffix& s) const noexcept {
    for (std::uint8_t k = 0; k < items; ++k)
      if (item[k].same(s)) return true;
    return false;
  }
  constexpr bool same(const dialect_state& o) const noexcept {
    if (items != o.items || boundary != o.boundary) return false;
    for (std::uint8_t k = 0; k < items; ++k)
      if (!o.contains(item[k])) return false;
    return true;
  }
};

/// The automaton in plain form (a state is an index); `ok` is false when the grammar is not one
/// this builder can take (ambiguous, or too many states): static_asserts check it.
struct dialect_automaton {
  bool ok = true;
  std::size_t states = 0;
  dialect_state desc[dialect_max_states]{};
  bool is_boundary[dialect_max_states]{};
  std::uint8_t next[dialect_max_states][256]{};
  error_code kind[dialect_max_states][256]{};  // why `next` is reject
  std::uint8_t lead_mask[256]{};               // payload bits of a lead byte

  constexpr std::uint8_t intern(const dialect_state& s) {
    for (std::uint8_t k = 0; k < states; ++k)
      if (k != dialect_reject && desc[k].same(s)) return k;
    if (states == dialect_max_states) {
      ok = false;
      return dialect_reject;
    }
    desc[states] = s;
    is_boundary[states] = s.items == 0;
    return static_cast<std::uint8_t>(states++);
  }

  /// The state after byte b in state s, and the error kind when that is reject.
  constexpr std::uint8_t advance(const dialect_rule* g, std::size_t rules, std::uint8_t s, unsigned b,
                                 error_code& why) {
    const bool continuation = utf8_tail.contains(b);
    dialect_state to{};
    const dialect_state from = desc[s];
    std::uint8_t completed = 0, ends = plain_boundary;
    auto add = [&](const octet_range* rest, std::uint8_t count, std::uint8_t end) {
      if (count == 0) {
        ++completed;
        ends = end;
        return;
      }
      rule_suffix x{};
      x.count = count;
      x.ends = end;
      for (std::uint8_t k = 0; k < count; ++k) x.need[k] = rest[k];
      if (to.contains(x)) return;
      if (to.items == dialect_max_items) {
        ok = false;
        return;
      }
      to.item[to.items++] = x;
    };
    if (from.items == 0) {  // at a boundary: b must start an alternative allowed here
      for (std::size_t r = 0; r < rules; ++r)
        if ((g[r].starts >> from.boundary & 1u) != 0 && g[r].seq[0].contains(b))
          add(g[r].seq + 1, static_cast<std::uint8_t>(g[r].length - 1), g[r].ends);
      why = continuation ? error_code::unexpected_continuation : error_code::invalid_byte;
    } else {  // inside a character: b must fall in the next range of a suffix still possible
      for (std::uint8_t k = 0; k < from.items; ++k)
        if (from.item[k].need[0].contains(b))
          add(from.item[k].need + 1, static_cast<std::uint8_t>(from.item[k].count - 1), from.item[k].ends);
      const octet_range& first = from.item[0].need[0];
      why = continuation || !utf8_tail.contains(first.lo) ? first.outside : error_code::too_short;
    }
    if (completed + to.items == 0) return dialect_reject;
    why = error_code::none;
    if (completed != 0) {
      if (completed + to.items != 1) ok = false;  // a character that is also the prefix of another
      dialect_state b_state{};
      b_state.boundary = ends;
      return intern(b_state);
    }
    return intern(to);
  }
};

/// The payload bits of a lead byte, by its leading one bits (0xxxxxxx: 7 bits ... 1111110x: 1).
constexpr std::uint8_t payload_mask(unsigned b) noexcept {
  unsigned ones = 0;
  while (ones < 7 && (b << ones & 0x80u) != 0) ++ones;
  return static_cast<std::uint8_t>(ones == 0 ? 0x7F : 0x7F >> ones);
}

/// Builds the automaton of a grammar. Bytes are grouped first into the intervals between range
/// ends (every byte of an interval behaves alike), so the subset construction runs per interval.
constexpr dialect_automaton build_dialect_automaton(const dialect_rule* g, std::size_t rules) {
  dialect_automaton a{};
  a.states = 2;  // the plain boundary and reject
  a.is_boundary[0] = true;
  // Interval starts: 0, 80, C0 and every lo and hi + 1 of the grammar.
  bool cut[257]{};
  cut[0] = cut[0x80] = cut[0xC0] = cut[256] = true;
  for (std::size_t r = 0; r < rules; ++r)
    for (std::uint8_t k = 0; k < g[r].length; ++k) {
      cut[g[r].seq[k].lo] = true;
      cut[g[r].seq[k].hi + 1u] = true;
    }
  for (std::size_t s = 0; s < a.states; ++s) {  // a.states grows while new states are found
    for (unsigned b = 0; b < 256;) {
      unsigned e = b + 1;
      while (!cut[e]) ++e;
      error_code why = error_code::none;
      std::uint8_t to = dialect_reject;
      if (s != dialect_reject) to = a.advance(g, rules, static_cast<std::uint8_t>(s), b, why);
      for (; b < e; ++b) {
        a.next[s][b] = to;
        a.kind[s][b] = why;
      }
    }
  }
  for (std::size_t r = 0; r < rules; ++r)
    for (unsigned b = g[r].seq[0].lo; b <= g[r].seq[0].hi; ++b) a.lead_mask[b] = payload_mask(b);
  return a;
}

// ---------------------------------------------------------------------------------------------
// The dialects' machine: the plain form above, run by decode_with of dfa.hpp, and a shift form
// for the validation loop.

/// The shift form of a dialect table: a state is 4 * its index, and the row of a byte holds every
/// state's successor index at bit 4 * index + 2, so that one step is `(row[b] >> state) & 0x3C`:
/// a shift and a mask on the loop-carried chain (dfa.hpp's form needs 6 bits a state; this one
/// takes the up to 15 states of a dialect in 64 bits).
struct dialect_shift_table {
  std::uint64_t row[256]{};
};

constexpr dialect_shift_table build_dialect_shift(const dialect_automaton& a) {
  dialect_shift_table t{};
  for (unsigned b = 0; b < 256; ++b)
    for (std::size_t s = 0; s < a.states; ++s) t.row[b] |= std::uint64_t{a.next[s][b]} << (4 * s + 2);
  return t;
}

template <const dialect_automaton& A>
inline constexpr dialect_shift_table dialect_shift = build_dialect_shift(A);

/// The table of a grammar (an array of dialect_rule). A variable template: built the first time a
/// function that runs the dialect is instantiated, so a program that uses no dialect never pays
/// for the subset construction.
template <const auto& Grammar>
inline constexpr dialect_automaton dialect_table = build_dialect_automaton(Grammar, sizeof Grammar / sizeof Grammar[0]);

/// A dialect: the table of `Grammar`. `Pairs`: a lead byte may occur inside a character (the
/// second half of a CESU-8 surrogate pair).
template <const auto& Grammar, bool Pairs>
struct table_machine {
  using state = std::uint8_t;
  static constexpr state start = 0;
  static constexpr bool pairs = Pairs;
  static constexpr const dialect_automaton& table() noexcept {
    static_assert(dialect_table<Grammar>.ok, "the grammar is unambiguous and fits the builder");
    // The shift form: a state times 4.
    static_assert(dialect_table<Grammar>.states <= 15, "the shift form holds 15 states");
    return dialect_table<Grammar>;
  }
  static constexpr state advance(state s, std::uint8_t b) noexcept { return table().next[s][b]; }
  static constexpr bool rejected(state s) noexcept { return s == dialect_reject; }
  static constexpr bool boundary(state s) noexcept { return table().is_boundary[s]; }
  static constexpr error_code why(state s, std::uint8_t b) noexcept { return table().kind[s][b]; }
  static constexpr std::uint8_t lead_mask(std::uint8_t b) noexcept { return table().lead_mask[b]; }
  static constexpr std::uint64_t shift_step(std::uint64_t s4, std::uint8_t b) noexcept {
    return (dialect_shift<table()>.row[b] >> s4) & 0x3C;
  }
};

/// Eight steps of a dialect's shift form (s4 = 4 * state), written out.
template <class M>
UTF8DFA_ALWAYS_INLINE std::uint64_t dialect_step8(std::uint64_t s4, const unsigned char* q) noexcept {
  for (std::size_t k = 0; k < 8; ++k) s4 = M::shift_step(s4, q[k]);
  return s4;
}

/// True when the 16 bytes at p are ASCII without 00 (NulByte false: 00 is not a character).
template <bool NulByte>
UTF8DFA_ALWAYS_INLINE bool dialect_ascii16(const unsigned char* p) noexcept {
  const std::uint64_t a = load64(p), b = load64(p + 8);
  if (((a | b) & high_bits) != 0) return false;
  if constexpr (NulByte) return true;
  return (((a + 0x7F7F7F7F7F7F7F7Full) & (b + 0x7F7F7F7F7F7F7F7Full)) & high_bits) == high_bits;
}

/// One stream of dialect_two_streams_valid over [i, end) from the shift-form state s4: ASCII
/// skipped while at the plain boundary, the rest in blocks of 64 bytes; false when rejected.
template <class M, bool NulByte>
UTF8DFA_ALWAYS_INLINE bool dialect_stream_block(const unsigned char* p, std::size_t& i, std::size_t end,
                                                std::uint64_t& s4) noexcept {
  if (s4 == 4u * M::start)
    while (end - i >= 80 && dialect_ascii16<NulByte>(p + i)) i += 16;
  if (end - i < 64) return true;
  for (std::size_t k = 0; k < 64; k += 8) s4 = dialect_step8<M>(s4, p + i + k);
  i += 64;
  return !M::rejected(static_cast<typename M::state>(s4 >> 2));
}

/// True when [p, p + n) is well-formed in the dialect of machine M, checked as two interleaved
/// chains of the shift form (twice the bytes per cycle of one chain of dependent shifts), split
/// after an ASCII byte near the middle: in every dialect ASCII is a whole character that leaves
/// the plain boundary, M::start, where the second chain begins. False (no split point within 256
/// bytes of the middle, or an error) says nothing: the caller walks one stream for the answer.
template <class M, bool NulByte>
bool dialect_two_streams_valid(const unsigned char* p, std::size_t n) noexcept {
  std::size_t mid = n / 2;
  const std::size_t last = mid + 256;
  while (mid < last && p[mid - 1] >= 0x80u) ++mid;
  if (mid == last) return false;
  std::size_t a = 0, b = mid;
  std::uint64_t sa = 4u * M::start, sb = 4u * M::start;
  for (;;) {
    if (!dialect_stream_block<M, NulByte>(p, a, mid, sa) || !dialect_stream_block<M, NulByte>(p, b, n, sb))
      return false;
    if (mid - a < 64 || n - b < 64) break;
  }
  while (mid - a >= 64)
    if (!dialect_stream_block<M, NulByte>(p, a, mid, sa)) return false;
  while (n - b >= 64)
    if (!dialect_stream_block<M, NulByte>(p, b, n, sb)) return false;
  for (; a < mid; ++a) sa = M::shift_step(sa, p[a]);
  for (; b < n; ++b) sb = M::shift_step(sb, p[b]);
  return sa == 4u * M::start && M::boundary(static_cast<typename M::state>(sb >> 2));
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detail/dialect_dfa.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace dialect {
/// Strict UTF-8 (RFC 3629): scalar values only, shortest form, 1 to 4 octets. The default.
struct utf8 {};
/// WTF-8: UTF-8 plus surrogate code points as 3-octet sequences (UTF-16 with unpaired
/// surrogates, losslessly), except a lead surrogate followed by a trail surrogate.
struct wtf8 {};
/// CESU-8 (UTR #26): supplementary characters as two 3-octet surrogates (6 octets); no 4-octet
/// forms and no unpaired surrogates.
struct cesu8 {};
/// Java's Modified UTF-8: CESU-8 with U+0000 as C0 80; the octet 00 never occurs.
struct mutf8 {};
/// A reader for RFC 2279: 1 to 6 octets, values up to 0x7FFFFFFF (surrogate code points
/// included), still in shortest form only.
struct legacy {};
}  // namespace dialect

namespace detail {

inline constexpr octet_range tail = utf8_tail;  // UTF8-tail = %x80-BF

/// An octet range that refuses with `why`; a single octet when hi is left out.
constexpr octet_range octets(unsigned lo, unsigned hi, error_code why = error_code::none) noexcept {
  return {static_cast<std::uint8_t>(lo), static_cast<std::uint8_t>(hi), why};
}

// ---- WTF-8 ------------------------------------------------------------------------------------
//   WTF-8-char      = UTF8-1 / UTF8-2 / UTF8-3 / UTF8-4 / lead-surrogate / trail-surrogate
//   lead-surrogate  = %xED %xA0-AF UTF8-tail      ; U+D800..U+DBFF (new)
//   trail-surrogate = %xED %xB0-BF UTF8-tail      ; U+DC00..U+DFFF (new)
//   ; and no lead-surrogate immediately followed by a trail-surrogate: that pair is a
//   ; supplementary character, which must be a UTF8-4. After a lead surrogate the automaton
//   ; stands at a second boundary where trail-surrogate may not start; ED B0-BF there is the
//   ; error `surrogate` at the ED (the lead surrogate before it is well-formed).
inline constexpr dialect_rule wtf8_grammar[] = {
    {1, {octets(0x00, 0x7F)}},                                                         // UTF8-1
    {2, {octets(0xC2, 0xDF), tail}},                                                   // UTF8-2
    {3, {octets(0xE0, 0xE0), octets(0xA0, 0xBF, error_code::overlong), tail}},         // UTF8-3
    {3, {octets(0xE1, 0xEC), tail, tail}},                                             //
    {3, {octets(0xED, 0xED), octets(0x80, 0x9F, error_code::surrogate), tail}},        //
    {3, {octets(0xEE, 0xEF), tail, tail}},                                             //
    {4, {octets(0xF0, 0xF0), octets(0x90, 0xBF, error_code::overlong), tail, tail}},   // UTF8-4
    {4, {octets(0xF1, 0xF3), tail, tail, tail}},                                       //
    {4, {octets(0xF4, 0xF4), octets(0x80, 0x8F, error_code::too_large), tail, tail}},  //
    {3,
     {octets(0xED, 0xED), octets(0xA0, 0xAF, error_code::surrogate), tail},
     at_any_boundary,
     after_lead_boundary},  // lead-surrogate
    {3,
     {octets(0xED, 0xED), octets(0xB0, 0xBF, error_code::surrogate), tail},
     at_plain_boundary,
     plain_boundary},  // trail-surrogate, not right after a lead-surrogate
};

// ---- CESU-8 -----------------------------------------------------------------------------------
//   CESU-8-char     = UTF8-1 / UTF8-2 / UTF8-3 / surrogate-pair        ; no UTF8-4: F0-F4 invalid
//   surrogate-pair  = %xED %xA0-AF UTF8-tail %xED %xB0-BF UTF8-tail    ; U+10000..U+10FFFF (new)
//   ; An unpaired surrogate is ill-formed (`surrogate`), as in UTF-8. The maximal ill-formed
//   ; subpart of a broken pair is the longest prefix of a pair (up to 5 octets: ED A0 80 ED B0).
inline constexpr dialect_rule cesu8_grammar[] = {
    {1, {octets(0x00, 0x7F)}},                                                   // UTF8-1
    {2, {octets(0xC2, 0xDF), tail}},                                             // UTF8-2
    {3, {octets(0xE0, 0xE0), octets(0xA0, 0xBF, error_code::overlong), tail}},   // UTF8-3
    {3, {octets(0xE1, 0xEC), tail, tail}},                                       //
    {3, {octets(0xED, 0xED), octets(0x80, 0x9F, error_code::surrogate), tail}},  //
    {3, {octets(0xEE, 0xEF), tail, tail}},                                       //
    {6,
     {octets(0xED, 0xED), octets(0xA0, 0xAF, error_code::surrogate), tail, octets(0xED, 0xED, error_code::surrogate),
      octets(0xB0, 0xBF, error_code::surrogate), tail}},  // surrogate-pair
};

// ---- Modified UTF-8 ---------------------------------------------------------------------------
//   MUTF-8-char     = %x01-7F / null / UTF8-2 / UTF8-3 / surrogate-pair  ; UTF8-1 without %x00
//   null            = %xC0 %x80                                          ; U+0000 (new)
inline constexpr dialect_rule mutf8_grammar[] = {
    {1, {octets(0x01, 0x7F)}},                                                   // UTF8-1 but 00
    {2, {octets(0xC0, 0xC0), octets(0x80, 0x80, error_code::overlong)}},         // null
    {2, {octets(0xC2, 0xDF), tail}},                                             // UTF8-2
    {3, {octets(0xE0, 0xE0), octets(0xA0, 0xBF, error_code::overlong), tail}},   // UTF8-3
    {3, {octets(0xE1, 0xEC), tail, tail}},                                       //
    {3, {octets(0xED, 0xED), octets(0x80, 0x9F, error_code::surrogate), tail}},  //
    {3, {octets(0xEE, 0xEF), tail, tail}},                                       //
    {6,
     {octets(0xED, 0xED), octets(0xA0, 0xAF, error_code::surrogate), tail, octets(0xED, 0xED, error_code::surrogate),
      octets(0xB0, 0xBF, error_code::surrogate), tail}},  // surrogate-pair
};

// ---- RFC 2279 ---------------------------------------------------------------------------------
//   legacy-char = UTF8-1 / UTF8-2 / legacy-3 / legacy-4 / legacy-5 / legacy-6
//   legacy-3    = %xE0 %xA0-BF UTF8-tail / %xE1-EF 2( UTF8-tail )       ; ED A0-BF allowed
//   legacy-4    = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F7 3( UTF8-tail )  ; up to 0x1FFFFF
//   legacy-5    = %xF8 %x88-BF 3( UTF8-tail ) / %xF9-FB 4( UTF8-tail )  ; up to 0x3FFFFFF
//   legacy-6    = %xFC %x84-BF 4( UTF8-tail ) / %xFD 5( UTF8-tail )     ; up to 0x7FFFFFFF
//   ; The shortest-form rule stays (E0 80-9F, F0 80-8F, F8 80-87, FC 80-83 are `overlong`; C0, C1,
//   ; FE, FF `invalid_byte`). Surrogate code points are accepted: RFC 2279 encodes UCS-4 values and
//   ; predates their exclusion; they, and values above 0x10FFFF, are reported as read, and are
//   ; errors only where the output cannot hold them (UTF-16, UTF-8, CESU-8, MUTF-8).
inline constexpr dialect_rule legacy_grammar[] = {
    {1, {octets(0x00, 0x7F)}},                                                                    // UTF8-1
    {2, {octets(0xC2, 0xDF), tail}},                                                              // UTF8-2
    {3, {octets(0xE0, 0xE0), octets(0xA0, 0xBF, error_code::overlong), tail}},                    // legacy-3
    {3, {octets(0xE1, 0xEF), tail, tail}},                                                        //
    {4, {octets(0xF0, 0xF0), octets(0x90, 0xBF, error_code::overlong), tail, tail}},              // legacy-4
    {4, {octets(0xF1, 0xF7), tail, tail, tail}},                                                  //
    {5, {octets(0xF8, 0xF8), octets(0x88, 0xBF, error_code::overlong), tail, tail, tail}},        // legacy-5
    {5, {octets(0xF9, 0xFB), tail, tail, tail, tail}},                                            //
    {6, {octets(0xFC, 0xFC), octets(0x84, 0xBF, error_code::overlong), tail, tail, tail, tail}},  // legacy-6
    {6, {octets(0xFD, 0xFD), tail, tail, tail, tail, tail}},                                      //
};

// The tables are built from these grammars when a dialect is first used (dialect_table in
// detail/dialect_dfa.hpp); tests/tables_test.cpp pins their shapes and checks that the builder,
// given dfa.hpp's RFC 3629 grammar, yields dfa.hpp's automaton.

// ---- Writers ----------------------------------------------------------------------------------

/// Writes one 3-octet form (any value below 0x10000, surrogates included).
template <class Byte>
constexpr void put3(Byte* out, char32_t c) noexcept {
  out[0] = static_cast<Byte>(0xE0 | (c >> 12));
  out[1] = static_cast<Byte>(0x80 | ((c >> 6) & 0x3F));
  out[2] = static_cast<Byte>(0x80 | (c & 0x3F));
}

/// Writes the RFC 2279 form of c <= 0x7FFFFFFF (1..6 octets, the shortest); returns the count.
/// For values up to 0x10FFFF this is the UTF-8 bit pattern (surrogates as 3 octets).
template <class Byte>
constexpr std::size_t put_ucs4(Byte* out, char32_t c) noexcept {
  if (c < 0x80) {
    out[0] = static_cast<Byte>(c);
    return 1;
  }
  std::size_t n = c < 0x800 ? 2 : c < 0x10000 ? 3 : c < 0x200000 ? 4 : c < 0x4000000 ? 5 : 6;
  for (std::size_t k = n; k-- > 1;) {
    out[k] = static_cast<Byte>(0x80 | (c & 0x3F));
    c >>= 6;
  }
  out[0] = static_cast<Byte>((0xFF00u >> n) | c);  // n leading one bits, then the payload
  return n;
}

/// What one dialect needs beyond its table: the machine that runs it, the longest character,
/// which values it can write, and its writer.
template <class D>
struct dialect_traits;

template <>
struct dialect_traits<dialect::utf8> {
  using machine = utf8_machine;
  static constexpr std::size_t max_length = 4;
  static constexpr bool nul_byte = true;  // the octet 00 is a character
  static constexpr bool encodable(char32_t c) noexcept { return c < 0xD800 || (c > 0xDFFF && c <= 0x10FFFF); }
  static constexpr std::size_t width(char32_t c) noexcept { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }
  template <class Byte>
  static constexpr std::size_t put(Byte* out, char32_t c) noexcept {
    return put_ucs4(out, c);
  }
};

template <>
struct dialect_traits<dialect::wtf8> : dialect_traits<dialect::utf8> {
  using machine = table_machine<wtf8_grammar, false>;
  static constexpr bool encodable(char32_t c) noexcept { return c <= 0x10FFFF; }
};

template <>
struct dialect_traits<dialect::cesu8> : dialect_traits<dialect::utf8> {
  using machine = table_machine<cesu8_grammar, true>;
  static constexpr std::size_t max_length = 6;
  static constexpr std::size_t width(char32_t c) noexcept { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 6; }
  template <class Byte>
  static constexpr std::size_t put(Byte* out, char32_t c) noexcept {
    if (c < 0x10000) return put_ucs4(out, c);
    put3(out, 0xD7C0 + (c >> 10));
    put3(out + 3, 0xDC00 + (c & 0x3FF));
    return 6;
  }
};

template <>
struct dialect_traits<dialect::mutf8> : dialect_traits<dialect::cesu8> {
  using machine = table_machine<mutf8_grammar, true>;
  static constexpr bool nul_byte = false;
  static constexpr std::size_t width(char32_t c) noexcept {
    return c == 0 ? 2 : dialect_traits<dialect::cesu8>::width(c);
  }
  template <class Byte>
  static constexpr std::size_t put(Byte* out, char32_t c) noexcept {
    if (c != 0) return dialect_traits<dialect::cesu8>::put(out, c);
    out[0] = static_cast<Byte>(0xC0);
    out[1] = static_cast<Byte>(0x80);
    return 2;
  }
};

template <>
struct dialect_traits<dialect::legacy> : dialect_traits<dialect::utf8> {
  using machine = table_machine<legacy_grammar, false>;
  static constexpr std::size_t max_length = 6;
  static constexpr bool encodable(char32_t c) noexcept { return c <= 0x7FFFFFFF; }
  static constexpr std::size_t width(char32_t c) noexcept {
    return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : c < 0x200000 ? 4 : c < 0x4000000 ? 5 : 6;
  }
};

template <class D, class = void>
struct is_dialect : std::false_type {};
template <class D>
struct is_dialect<D, std::void_t<typename dialect_traits<D>::machine>> : std::true_type {};

/// True for the dialect tag types.
template <class D>
inline constexpr bool is_dialect_v = is_dialect<std::remove_cv_t<D>>::value;
template <class D>
using enable_if_dialect = std::enable_if_t<is_dialect_v<D>, int>;

template <class D>
inline constexpr bool is_strict_v = std::is_same_v<std::remove_cv_t<D>, dialect::utf8>;

template <class D>
using machine_of = typename dialect_traits<D>::machine;

/// The boundary state at `pos`, a character boundary of [p, ...): a dialect with one boundary has
/// only its start state; WTF-8's second boundary follows a character (the last lead byte before
/// pos starts it: WTF-8 has no lead byte inside a character) that leaves it there.
template <class D, class T>
constexpr typename machine_of<D>::state boundary_before(const T* p, std::size_t pos) noexcept {
  using M = machine_of<D>;
  typename M::state at = M::start;
  if constexpr (std::is_same_v<std::remove_cv_t<D>, dialect::wtf8>) {
    for (std::size_t k = 1; k <= dialect_traits<D>::max_length && k <= pos; ++k)
      if (!is_continuation(octet(p[pos - k]))) {
        typename M::state s = M::start;
        const decoded d = decode_with<M>(p, pos, pos - k, s);
        if (d.error == error_code::none && d.length == k) at = s;
        break;
      }
  } else {
    static_cast<void>(p);
    static_cast<void>(pos);
  }
  return at;
}

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/dialect.hpp ----

#if UTF8DFA_HAS_EXCEPTIONS
#include <stdexcept>
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// Overloads for the skip policy are templates on it, so that a `{}` argument still means replace{}.
template <class Policy>
using enable_if_skip = std::enable_if_t<skips_errors_v<Policy>, int>;

/// The assume_valid overloads of the length helpers are templates on it for the same reason.
template <class Policy>
using enable_if_assume_valid = std::enable_if_t<std::is_same_v<Policy, assume_valid>, int>;

/// A policy as the kernels take it (kernel_table.hpp): strict_marker, skip_marker or the replacement.
template <class Policy>
constexpr char32_t kernel_replacement([[maybe_unused]] const Policy& pol) noexcept {
  if constexpr (Policy::stops_on_error)
    return strict_marker;
  else if constexpr (skips_errors_v<Policy>)
    return skip_marker;
  else
    return pol.replacement_value();
}

/// kernel_replacement for the UTF-8 decoders (utf8_to_utf32, utf8_to_utf16 and its other byte
/// order), which take assume_valid as valid_marker: a kernel may then skip validation (NEON, AVX2).
template <class Policy>
constexpr char32_t decode_replacement(const Policy& pol) noexcept {
  if constexpr (std::is_same_v<Policy, assume_valid>)
    return valid_marker;
  else
    return kernel_replacement(pol);
}

// ---- The dialects: scalar, one character at a time on the dialect's DFA. ---------------------

/// Why `c`, read in dialect D, cannot be written as Unicode text of code unit Out (char16_t,
/// char32_t, or a dialect tag To): error_code::none when it can. UTF-16 holds WTF-8's surrogates
/// (unpaired, as read) but no other dialect's; UTF-32 holds every value read, as read.
template <class D, class Out>
constexpr error_code unrepresentable(char32_t c) noexcept {
  if constexpr (std::is_same_v<Out, char32_t>) {
    return error_code::none;
  } else if constexpr (std::is_same_v<Out, char16_t>) {
    if (c > 0x10FFFF) return error_code::too_large;
    if (c >= 0xD800 && c <= 0xDFFF && !std::is_same_v<D, dialect::wtf8>) return error_code::surrogate;
    return error_code::none;
  } else {
    if (dialect_traits<Out>::encodable(c)) return error_code::none;
    return c >= 0xD800 && c <= 0xDFFF ? error_code::surrogate : error_code::too_large;
  }
}

/// Writes code points in dialect D, or only counts the bytes (out == nullptr). WTF-8 joins a lead
/// surrogate and the trail surrogate right after it into their supplementary character (the WTF-8
/// encoding of a code point sequence), so what it writes is always well-formed WTF-8.
template <class D>
struct dialect_writer {
  unsigned char* out;
  std::size_t written = 0;
  char32_t lead = 0;  // WTF-8: the lead surrogate just written, else 0

  void put(char32_t c) noexcept {
    if constexpr (std::is_same_v<D, dialect::wtf8>) {
      if (lead != 0 && c >= 0xDC00 && c <= 0xDFFF) {
        written -= 3;  // replace the lead surrogate's 3 bytes
        c = 0x10000 + ((lead - 0xD800) << 10) + (c - 0xDC00);
        lead = 0;
      } else {
        lead = c >= 0xD800 && c <= 0xDBFF ? c : 0;
      }
    }
    if (out != nullptr) {
      written += dialect_traits<D>::put(out + written, c);
    } else {
      written += dialect_traits<D>::width(c);
    }
  }
};

/// Dialect-D bytes to UTF-32 or UTF-16 (by Out); out == nullptr only counts. A character the
/// output cannot hold (see unrepresentable) is an error at its offset, like an ill-formed one.
template <class D, class Policy, class Out>
conversion_result dialect_to_utf(const unsigned char* p, std::size_t n, Out* out,
                                 [[maybe_unused]] Policy pol) noexcept {
  using M = machine_of<D>;
  typename M::state at = M::start;
  std::size_t i = 0, o = 0;
  error_code first = error_code::none;
  while (i < n) {
    const decoded d = decode_with<M>(p, n, i, at);
    char32_t c = d.code_point;
    error_code e = d.error;
    if (e == error_code::none) e = unrepresentable<D, Out>(c);
    const piece_action a = act_on(e, first, c, pol);
    if (a == piece_action::stop) return {i, o, e};
    if (a == piece_action::write) {
      if (out != nullptr)
        o += static_cast<std::size_t>(put_unit(out + o, c) - (out + o));
      else
        o += sizeof(Out) == 2 && c >= 0x10000 ? 2 : 1;
    }
    i += d.length;
  }
  return {n, o, first};
}

/// UTF-16 or UTF-32 (by In) to dialect-D bytes; out == nullptr only counts. An unpaired UTF-16
/// surrogate is written as such where D can encode it (WTF-8, legacy), else is an error.
template <class D, class Policy, class In>
conversion_result utf_to_dialect(const In* p, std::size_t n, unsigned char* out, [[maybe_unused]] Policy pol) noexcept {
  dialect_writer<D> w{out};
  error_code first = error_code::none;
  for (std::size_t i = 0; i < n;) {
    decoded d = decode_utf_at(p, n, i);
    if (d.error != error_code::none && dialect_traits<D>::encodable(p[i]))
      d = {static_cast<char32_t>(p[i]), 1, error_code::none};
    char32_t c = d.code_point;
    if (d.error == error_code::none && !dialect_traits<D>::encodable(c)) d.error = unrepresentable<dialect::utf8, D>(c);
    const piece_action a = act_on(d.error, first, c, pol);
    if (a == piece_action::stop) return {i, w.written, d.error};
    if (a == piece_action::write) w.put(c);
    i += d.length;
  }
  return {n, w.written, first};
}

/// Dialect-From bytes to dialect-To bytes; out == nullptr only counts.
template <class From, class To, class Policy>
conversion_result recode_scalar(const unsigned char* p, std::size_t n, unsigned char* out,
                                [[maybe_unused]] Policy pol) noexcept {
  using M = machine_of<From>;
  typename M::state at = M::start;
  dialect_writer<To> w{out};
  error_code first = error_code::none;
  for (std::size_t i = 0; i < n;) {
    const decoded d = decode_with<M>(p, n, i, at);
    char32_t c = d.code_point;
    error_code e = d.error;
    if (e == error_code::none) e = unrepresentable<From, To>(c);
    const piece_action a = act_on(e, first, c, pol);
    if (a == piece_action::stop) return {i, w.written, e};
    if (a == piece_action::write) w.put(c);
    i += d.length;
  }
  return {n, w.written, first};
}

template <class Str, class Run>
Str make_string(std::size_t size, Run run, conversion_result& status) {
  Str out(size, typename Str::value_type{});
  status = run(out.data());
  out.resize(status.written);
  return out;
}

/// Where a chunk of UTF-8 that would end at `cut` (inside the input, at least 3 bytes in) ends:
/// before the lead byte of the character or maximal ill-formed subpart that `cut` falls in, so that
/// none is split. Behind a run of four continuation bytes, the one at `cut` is a stray one (a
/// subpart of its own): the chunk ends at `cut`.
inline std::size_t utf8_chunk_end(const unsigned char* p, std::size_t cut) noexcept {
  std::size_t end = cut;
  for (int k = 0; k < 3 && is_continuation(p[end]); ++k) --end;
  return is_continuation(p[end]) ? cut : end;
}

/// Where a chunk of UTF-16 ends: not between a high surrogate and the unit after it.
inline std::size_t utf16_chunk_end(const char16_t* p, std::size_t cut) noexcept {
  return (p[cut - 1] & 0xFC00) == 0xD800 ? cut - 1 : cut;
}

inline std::size_t utf32_chunk_end(const char32_t*, std::size_t cut) noexcept {
  return cut;
}

/// Converts `p[base, end)` into `o + w`, advances `base` and `w`, records the first error in
/// `status`; true when it stopped at an error (strict), `status.read` then set.
template <class Out, class In, class Convert>
bool convert_piece(const In* p, std::size_t end, const Convert& convert, Out* o, std::size_t& base, std::size_t& w,
                   conversion_result& status) noexcept {
  const std::size_t len = end - base;
  const conversion_result r = convert(p + base, len, o + w);
  w += r.written;
  if (status.error == error_code::none) status.error = r.error;
  if (r.read != len) {
    status.read = base + r.read;
    return true;
  }
  base = end;
  status.read = end;
  return false;
}

/// Where a piece that may end at `cut` is cut: a multiple of 64 input units, so that on text whose
/// characters are all one unit long the next piece starts with its input and output as aligned as
/// the first (the vector kernels slow down by up to a quarter on ASCII when their loads and stores
/// cross cache lines that one call over the whole input would not cross).
constexpr std::size_t aligned_cut(std::size_t cut) noexcept {
  return cut & ~std::size_t{63};
}

/// Converts `p[base, n)` into `o` (room for `cap` units, `w` of them written) in pieces that surely
/// fit (each input unit writes at most `per_unit`), each cut by `chunk_end`. True when done (the end
/// of the input, or under strict the first error); false when the room left surely holds too little
/// of the rest (under 1024 units of input, or under an eighth of the rest).
template <std::size_t per_unit, class Out, class In, class Convert, class ChunkEnd>
bool convert_pieces(const In* p, std::size_t n, const Convert& convert, const ChunkEnd& chunk_end, Out* o,
                    std::size_t cap, std::size_t& base, std::size_t& w, conversion_result& status) noexcept {
  while (base < n) {
    const std::size_t fits = (cap - w) / per_unit;
    std::size_t end = n;
    if (n - base > fits) {
      if (fits < 1024 || fits < (n - base) / 8) return false;
      end = chunk_end(p, aligned_cut(base + fits));
    }
    if (convert_piece(p, end, convert, o, base, w, status)) return true;
  }
  return true;
}

// Before C++23 (no resize_and_overwrite) a string's characters cannot be left unwritten by standard
// means. The compiled library (UTF8DFA_SEPARATE_COMPILATION, whose implementation unit holds the
// string conversions) does it with libstdc++ through the library's own member that sets the length,
// reached once per program in that unit (detail/string_instances.hpp): a header-only library could
// not keep to once. UTF8DFA_NO_UNINITIALIZED_STRINGS, defined where the library is compiled, makes
// it fill its strings as other C++17 builds do.
#if defined(UTF8DFA_SEPARATE_COMPILATION) && defined(__GLIBCXX__) && defined(_GLIBCXX_USE_CXX11_ABI) && \
    _GLIBCXX_USE_CXX11_ABI == 1
#define UTF8DFA_DETAIL_SET_LENGTH_UNWRITTEN 1
/// Makes the length of `s` n (n <= s.capacity()) without writing the characters it adds (a
/// terminator follows them). Defined in the UTF8DFA_IMPLEMENTATION unit.
void set_length_unwritten(std::string& s, std::size_t n) noexcept;
void set_length_unwritten(std::u16string& s, std::size_t n) noexcept;
void set_length_unwritten(std::u32string& s, std::size_t n) noexcept;
#endif
#if defined(__cpp_lib_string_resize_and_overwrite) || \
    (defined(UTF8DFA_DETAIL_SET_LENGTH_UNWRITTEN) && !defined(UTF8DFA_NO_UNINITIALIZED_STRINGS))
#define UTF8DFA_DETAIL_UNWRITTEN_STRINGS 1
/// s.resize_and_overwrite(n, op): `op(data, n)` writes after the characters `s` holds and returns
/// the new length; the characters between are never written, copied or read.
template <class Str, class Op>
void overwrite_string(Str& s, std::size_t n, Op op) {
#if defined(__cpp_lib_string_resize_and_overwrite)
  s.resize_and_overwrite(n, op);
#else
  s.reserve(n);  // (copies the characters `s` holds, nothing more)
  set_length_unwritten(s, n);
  s.resize(op(&s[0], n));
#endif
}
#endif

/// A string more than 1/4 (and 4096 units) bigger than its contents gets a copy of just its contents
/// (shrink_to_fit is only a request: libstdc++ ignores it without exceptions).
template <class Str>
void shrink_if_far_too_big(Str& out) {
  const std::size_t w = out.size();
  if (out.capacity() - w > w / 4 + 4096) out = Str(out.data(), w);
}

/// The string a kernel conversion `convert(p, n, out)` writes, for input of which each unit writes at
/// most `per_unit` output units (`length(p, n)`: at least what it writes), with no length pass:
/// - output bound within 16 KiB: one conversion into the string (C++23) or into a buffer on the stack;
/// - longer: the first 16 KiB of output, on the stack, give the ratio; the string is sized once to
///   the rest at that ratio plus 1/8 and one more piece (at most the bound), and the rest converted
///   straight into it in pieces that surely fit (a few calls). When the room left surely holds too
///   little of the rest, the rest's length is counted and the string grows only if it must.
/// Chosen by measurement (real text in cache, AVX-512 and AVX2) against the previous 16 KiB chunks
/// appended to the string (C++17) or grown into it (C++23), a length pass then one conversion (the
/// length helpers cost a third of a conversion or more: too much on the fast, mostly-ASCII text) and
/// one allocation of the upper bound (in C++17 all zero-filled; up to 4 times the output). Where a
/// string's characters cannot be left unwritten (no overwrite_string): up to 256 KiB of string, it
/// is filled once before the conversion (by memcpy appends: faster than resize's fill), which on
/// ASCII costs about half a conversion; a longer one (out of cache: a fill then a conversion would
/// pass over it twice, and filling and converting 64 KiB at a time was no faster) is reserved once
/// and the rest converted in 16 KiB chunks on the stack, each appended to it. A string more than 1/4 too big is
/// shrunk. The status is the one conversion's: `read` and `written` as if in one call; a piece's end
/// never changes what is written, only (under strict, at an error right before it) the error code,
/// which the caller may re-derive from the whole input.
template <class Str, std::size_t per_unit, class In, class Convert, class ChunkEnd, class Length>
Str convert_in_chunks(const In* p, std::size_t n, Convert convert, ChunkEnd chunk_end, Length length,
                      conversion_result& status) {
  using Out = typename Str::value_type;
  constexpr std::size_t buffer_units = 16384 / sizeof(Out);
  status = {0, 0, error_code::none};
  std::size_t base = 0, w = 0;
  alignas(64) Out buffer[buffer_units];  // not initialised: the conversion writes what is copied
  std::size_t cap = n * per_unit;
  if (n > buffer_units / per_unit) {
    const std::size_t first = chunk_end(p, aligned_cut(buffer_units / per_unit));
    if (convert_piece(p, first, convert, buffer, base, w, status)) {
      status.written = w;
      return Str(buffer, w);
    }
    // Room: what is written, the rest at the ratio so far plus 1/8, one more piece; at most the bound.
    const double rest = static_cast<double>(n - base);
    double want = static_cast<double>(w) + static_cast<double>(w) / static_cast<double>(base) * rest * 1.125 +
                  static_cast<double>(1024 * per_unit);
    const double bound = static_cast<double>(w) + rest * static_cast<double>(per_unit);
    if (want > bound) want = bound;
    const double limit = static_cast<double>(Str().max_size());
    cap = static_cast<std::size_t>(want < limit ? want : limit);
  }
#if !defined(__cpp_lib_string_resize_and_overwrite)
  if (base == 0) {  // short: on the stack, then copied at its exact size
    convert_pieces<per_unit>(p, n, convert, chunk_end, buffer, buffer_units, base, w, status);
    status.written = w;
    return Str(buffer, w);
  }
#endif
#if defined(UTF8DFA_DETAIL_UNWRITTEN_STRINGS)
  Str out;
  bool done = false;
  overwrite_string(out, cap, [&](Out* o, std::size_t) {
    Str::traits_type::copy(o, buffer, w);
    done = convert_pieces<per_unit>(p, n, convert, chunk_end, o, cap, base, w, status);
    return w;
  });
  if (!done) {  // the rest's length (an upper bound under strict): the string grows only if it must
    const std::size_t need = w + length(p + base, n - base);
    overwrite_string(out, need > cap ? need : cap, [&](Out* o, std::size_t) {
      convert_piece(p, n, convert, o, base, w, status);
      return w;
    });
  }
#else
  Str out;
  out.reserve(cap);
  out.append(buffer, w);
  if (cap > (256 << 10) / sizeof(Out)) {  // out of cache: the rest converted on the stack and appended
    const std::size_t chunk = aligned_cut(buffer_units / per_unit);
    while (base < n) {
      std::size_t chunk_written = 0;
      const bool stop = convert_piece(p, n - base <= chunk ? n : chunk_end(p, base + chunk), convert, buffer, base,
                                      chunk_written, status);
      out.append(buffer, chunk_written);
      w += chunk_written;
      if (stop) break;
    }
    shrink_if_far_too_big(out);
    status.written = w;
    return out;
  }
  // In cache: sized by appends (each a memcpy) of a zeroed buffer (the fill of resize and of the
  // (size, value) constructor goes one char16_t/char32_t at a time), then converted into.
  std::memset(buffer, 0, sizeof buffer);
  while (out.size() < cap) out.append(buffer, cap - out.size() < buffer_units ? cap - out.size() : buffer_units);
  if (!convert_pieces<per_unit>(p, n, convert, chunk_end, &out[0], cap, base, w, status)) {
    const std::size_t need = w + length(p + base, n - base);  // as above
    if (need > cap) out.resize(need);
    convert_piece(p, n, convert, &out[0], base, w, status);
  }
  out.resize(w);
#endif
  shrink_if_far_too_big(out);  // the rest wrote less than its room
  status.written = w;
  return out;
}

/// The replacement the length helpers take for `replacement` as the kernels take it: under strict,
/// U+FFFD, whose length is an upper bound of what strict writes.
constexpr char32_t length_replacement(char32_t replacement) noexcept {
  return replacement == strict_marker ? replacement_character : replacement;
}

/// UTF-8 to UTF-16 or UTF-32 (by Str) as a string, `replacement` as the kernels take it.
template <class Str>
Str utf8_to_string(const unsigned char* p, std::size_t n, char32_t replacement, conversion_result& status) {
  using Out = typename Str::value_type;
  Str out = convert_in_chunks<Str, 1>(
      p, n,
      [replacement](const unsigned char* q, std::size_t m, Out* o) {
        if constexpr (sizeof(Out) == 2)
          return kernel_fn<&kernel_table::utf8_to_utf16>()(q, m, o, replacement);
        else
          return kernel_fn<&kernel_table::utf8_to_utf32>()(q, m, o, replacement);
      },
      &utf8_chunk_end,
      [replacement](const unsigned char* q, std::size_t m) {
        if constexpr (sizeof(Out) == 2)
          return kernel_fn<&kernel_table::utf16_length_from_utf8>()(q, m, length_replacement(replacement));
        else
          return kernel_fn<&kernel_table::utf32_length_from_utf8>()(q, m, length_replacement(replacement));
      },
      status);
  // A chunk's end may have cut an incomplete character off from the byte that ends it: its error
  // code is the whole input's.
  if (status.error != error_code::none && status.read < n) status.error = decode_at(p, n, status.read).error;
  return out;
}

/// UTF-16 or UTF-32 (by In) to UTF-8 as a string.
template <class In>
std::string utf_to_utf8_string(const In* p, std::size_t n, char32_t replacement, conversion_result& status) {
  return convert_in_chunks < std::string,
         sizeof(In) == 2
             ? 3
             : 4 > (
                       p, n,
                       [replacement](const In* q, std::size_t m, char* o) {
                         if constexpr (sizeof(In) == 2)
                           return kernel_fn<&kernel_table::utf16_to_utf8>()(q, m, as_uchars(o), replacement);
                         else
                           return kernel_fn<&kernel_table::utf32_to_utf8>()(q, m, as_uchars(o), replacement);
                       },
                       [](const In* q, std::size_t cut) {
                         if constexpr (sizeof(In) == 2)
                           return utf16_chunk_end(q, cut);
                         else
                           return utf32_chunk_end(q, cut);
                       },
                       [replacement](const In* q, std::size_t m) {
                         if constexpr (sizeof(In) == 2)
                           return kernel_fn<&kernel_table::utf8_length_from_utf16>()(q, m,
                                                                                     length_replacement(replacement));
                         else
                           return kernel_fn<&kernel_table::utf8_length_from_utf32>()(q, m,
                                                                                     length_replacement(replacement));
                       },
                       status);
}

// With UTF8DFA_SEPARATE_COMPILATION the four string conversions behind the allocating helpers are
// compiled once, with the kernels (detail/string_instances.hpp, in the UTF8DFA_IMPLEMENTATION unit):
// a translation unit that includes this header neither instantiates them nor compiles them when it
// calls them. Two kinds of unit compile their own instead (both correct; the linker keeps one copy,
// as for any inline function): one whose strings have resize_and_overwrite (C++23), since the
// library, perhaps built as C++17, may fill its strings before writing them; and one built for
// libstdc++'s old string ABI (_GLIBCXX_USE_CXX11_ABI=0), whose strings are another type.
#if defined(UTF8DFA_SEPARATE_COMPILATION) && !defined(__cpp_lib_string_resize_and_overwrite) && \
    !(defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI == 0)
extern template std::u16string utf8_to_string<std::u16string>(const unsigned char*, std::size_t, char32_t,
                                                              conversion_result&);
extern template std::u32string utf8_to_string<std::u32string>(const unsigned char*, std::size_t, char32_t,
                                                              conversion_result&);
extern template std::string utf_to_utf8_string<char16_t>(const char16_t*, std::size_t, char32_t, conversion_result&);
extern template std::string utf_to_utf8_string<char32_t>(const char32_t*, std::size_t, char32_t, conversion_result&);
#endif

}  // namespace detail

// ---- Non-allocating core: the caller sizes `out` with the length helpers below. -----------------

/// UTF-8 to UTF-32 into `out`; under strict, stops before the first ill-formed subpart.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf32(const Bytes& bytes, char32_t* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf8_to_utf32>()(detail::as_uchars(s.data), s.size, out,
                                                                   detail::decode_replacement(policy));
}

/// UTF-8 to UTF-16 into `out` (supplementary characters as surrogate pairs).
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf16(const Bytes& bytes, char16_t* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf8_to_utf16>()(detail::as_uchars(s.data), s.size, out,
                                                                   detail::decode_replacement(policy));
}

/// UTF-16 to UTF-8 into `out`. Each unpaired surrogate is one error (`surrogate`, or `incomplete`
/// for a high surrogate that ends the input).
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf16_to_utf8(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf16_to_utf8>()(in.data(), in.size(), detail::as_uchars(out),
                                                                   detail::kernel_replacement(policy));
}

/// UTF-32 to UTF-8 into `out`. Surrogates (`surrogate`) and values above 0x10FFFF (`too_large`) are errors.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf32_to_utf8(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf32_to_utf8>()(in.data(), in.size(), detail::as_uchars(out),
                                                                   detail::kernel_replacement(policy));
}

// ---- Exact output sizes. ---------------------------------------------------------------------

/// char32_t units utf8_to_utf32 writes: exact for replace (with `r`'s replacement), assume_valid and
/// well-formed input; an upper bound for strict.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, replace r = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf32_length_from_utf8>()(detail::as_uchars(s.data), s.size,
                                                                            r.replacement_value());
}

/// char16_t units utf8_to_utf16 writes (same guarantees).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, replace r = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf16_length_from_utf8>()(detail::as_uchars(s.data), s.size,
                                                                            r.replacement_value());
}

/// Bytes utf16_to_utf8 writes (same guarantees).
inline std::size_t utf8_length_from_utf16(std::u16string_view in, replace r = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf16>()(in.data(), in.size(),
                                                                            r.replacement_value());
}

/// Bytes utf32_to_utf8 writes (same guarantees).
inline std::size_t utf8_length_from_utf32(std::u32string_view in, replace r = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf32>()(in.data(), in.size(),
                                                                            r.replacement_value());
}

/// char32_t units utf8_to_utf32 writes under skip (exact): utf32_length_from_utf8(bytes, skip{}).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, Skip) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf32_length_from_utf8>()(detail::as_uchars(s.data), s.size,
                                                                            detail::skip_marker);
}

/// char16_t units utf8_to_utf16 writes under skip (exact).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, Skip) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf16_length_from_utf8>()(detail::as_uchars(s.data), s.size,
                                                                            detail::skip_marker);
}

/// Bytes utf16_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf16(std::u16string_view in, Skip) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf16>()(in.data(), in.size(), detail::skip_marker);
}

/// Bytes utf32_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf32(std::u32string_view in, Skip) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf32>()(in.data(), in.size(), detail::skip_marker);
}

// Lengths of input known to be valid (assume_valid): the cost of count_code_points (no validation of
// UTF-8). Exact on well-formed input. On ill-formed input the result is the count described at each one,
// which need not be the size of any conversion's output (size buffers for such input with the
// replace overloads); nothing is read out of bounds.

/// char16_t units of valid UTF-8: its non-continuation bytes (not 80..BF), plus one for each byte
/// F0..FF.
template <class AssumeValid, class Bytes, detail::enable_if_assume_valid<AssumeValid> = 0,
          detail::enable_if_bytes<Bytes> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, AssumeValid) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::utf16_length>()(detail::as_uchars(s.data), s.size);
}

/// char32_t units of valid UTF-8: its non-continuation bytes (not 80..BF), as count_code_points.
template <class AssumeValid, class Bytes, detail::enable_if_assume_valid<AssumeValid> = 0,
          detail::enable_if_bytes<Bytes> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, AssumeValid) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::count_leads>()(detail::as_uchars(s.data), s.size);
}

/// Bytes of valid UTF-16 as UTF-8, no check made: each unit counted on its own, so on ill-formed
/// input a lone surrogate counts 2 (a pair's half).
template <class AssumeValid, detail::enable_if_assume_valid<AssumeValid> = 0>
std::size_t utf8_length_from_utf16(std::u16string_view in, AssumeValid) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf16>()(in.data(), in.size(), detail::valid_marker);
}

/// Bytes of valid UTF-32 as UTF-8, no check made: on ill-formed input, a surrogate or a value above
/// 0x10FFFF counts 3 (U+FFFD).
template <class AssumeValid, detail::enable_if_assume_valid<AssumeValid> = 0>
std::size_t utf8_length_from_utf32(std::u32string_view in, AssumeValid) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf32>()(in.data(), in.size(), detail::valid_marker);
}

// ---- Allocating helpers. ---------------------------------------------------------------------

/// UTF-8 to UTF-32, strict without exceptions: `status` reports the error; the result holds the
/// characters before it.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32(const Bytes& bytes, conversion_result& status) {
  const auto s = detail::as_span(bytes);
  return detail::utf8_to_string<std::u32string>(detail::as_uchars(s.data), s.size, detail::strict_marker, status);
}

/// UTF-8 to UTF-32, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32_lossy(const Bytes& bytes) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::utf8_to_string<std::u32string>(detail::as_uchars(s.data), s.size, replacement_character, status);
}

/// UTF-8 to UTF-16, strict without exceptions.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16(const Bytes& bytes, conversion_result& status) {
  const auto s = detail::as_span(bytes);
  return detail::utf8_to_string<std::u16string>(detail::as_uchars(s.data), s.size, detail::strict_marker, status);
}

/// UTF-8 to UTF-16, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16_lossy(const Bytes& bytes) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::utf8_to_string<std::u16string>(detail::as_uchars(s.data), s.size, replacement_character, status);
}

/// UTF-8 to UTF-32 with each maximal ill-formed subpart dropped (to_utf32_lossy(bytes, skip{})).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32_lossy(const Bytes& bytes, Skip) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::utf8_to_string<std::u32string>(detail::as_uchars(s.data), s.size, detail::skip_marker, status);
}

/// UTF-8 to UTF-16 with each maximal ill-formed subpart dropped (to_utf16_lossy(bytes, skip{})).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16_lossy(const Bytes& bytes, Skip) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::utf8_to_string<std::u16string>(detail::as_uchars(s.data), s.size, detail::skip_marker, status);
}

/// UTF-16 to UTF-8, strict without exceptions.
inline std::string to_utf8(std::u16string_view in, conversion_result& status) {
  return detail::utf_to_utf8_string(in.data(), in.size(), detail::strict_marker, status);
}

/// UTF-32 to UTF-8, strict without exceptions.
inline std::string to_utf8(std::u32string_view in, conversion_result& status) {
  return detail::utf_to_utf8_string(in.data(), in.size(), detail::strict_marker, status);
}

/// UTF-16 to UTF-8, one U+FFFD per unpaired surrogate; never fails.
inline std::string to_utf8_lossy(std::u16string_view in) {
  conversion_result status{};
  return detail::utf_to_utf8_string(in.data(), in.size(), replacement_character, status);
}

/// UTF-32 to UTF-8, one U+FFFD per surrogate or value above 0x10FFFF; never fails.
inline std::string to_utf8_lossy(std::u32string_view in) {
  conversion_result status{};
  return detail::utf_to_utf8_string(in.data(), in.size(), replacement_character, status);
}

/// UTF-16 to UTF-8 with each unpaired surrogate dropped (to_utf8_lossy(in, skip{})).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::string to_utf8_lossy(std::u16string_view in, Skip) {
  conversion_result status{};
  return detail::utf_to_utf8_string(in.data(), in.size(), detail::skip_marker, status);
}

/// UTF-32 to UTF-8 with each surrogate or value above 0x10FFFF dropped.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::string to_utf8_lossy(std::u32string_view in, Skip) {
  conversion_result status{};
  return detail::utf_to_utf8_string(in.data(), in.size(), detail::skip_marker, status);
}

// ---- The dialects (see dialect.hpp): the same functions with a dialect tag last. -------------
// dialect::utf8 runs the functions above. For the others: WTF-8 <-> UTF-16 is lossless (unpaired
// surrogates both ways); UTF-16 cannot hold a legacy value above 0x10FFFF (too_large) or a legacy
// surrogate (surrogate); UTF-32 output holds every value read, as read (WTF-8 surrogates, legacy
// values up to 0x7FFFFFFF): check them with is_scalar_value if they are to be Unicode text.

/// Dialect bytes to UTF-32 into `out` (utf8_to_utf32(bytes, out, strict{}, dialect::cesu8{})).
template <class Policy, class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf8_to_utf32(const Bytes& bytes, char32_t* out, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf8_to_utf32(bytes, out, policy);
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, out, policy);
  }
}

/// Dialect bytes to UTF-16 into `out`; WTF-8's unpaired surrogates become unpaired units.
template <class Policy, class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf8_to_utf16(const Bytes& bytes, char16_t* out, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf8_to_utf16(bytes, out, policy);
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, out, policy);
  }
}

/// UTF-16 to dialect bytes into `out`: WTF-8 (and legacy) write unpaired surrogates as 3 bytes and
/// never fail; CESU-8 and MUTF-8 write pairs as 6 bytes and refuse unpaired surrogates.
template <class Policy, class Dialect, class Byte, detail::enable_if_byte<Byte> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf16_to_utf8(std::u16string_view in, Byte* out, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf16_to_utf8(in, out, policy);
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), detail::as_uchars(out), policy);
}

/// UTF-32 to dialect bytes into `out`: a value the dialect cannot encode is an error (surrogate or
/// too_large). WTF-8 joins a lead surrogate followed by a trail surrogate into one character.
template <class Policy, class Dialect, class Byte, detail::enable_if_byte<Byte> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf32_to_utf8(std::u32string_view in, Byte* out, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf32_to_utf8(in, out, policy);
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), detail::as_uchars(out), policy);
}

/// Dialect-From bytes to dialect-To bytes into `out` (recode(bytes, out, replace{},
/// dialect::mutf8{}, dialect::utf8{})): a character To cannot encode is an error at its offset.
template <class Policy, class From, class To, class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_byte<Byte> = 0, detail::enable_if_dialect<From> = 0, detail::enable_if_dialect<To> = 0>
conversion_result recode(const Bytes& bytes, Byte* out, Policy policy, From, To) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::recode_scalar<From, To>(detail::as_uchars(s.data), s.size, detail::as_uchars(out), policy);
}

/// char32_t units utf8_to_utf32 writes in the dialect (the guarantees of utf32_length_from_utf8).
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, replace r, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf32_length_from_utf8(bytes, r);
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, static_cast<char32_t*>(nullptr), r)
        .written;
  }
}

/// char16_t units utf8_to_utf16 writes in the dialect.
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, replace r, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf16_length_from_utf8(bytes, r);
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, static_cast<char16_t*>(nullptr), r)
        .written;
  }
}

/// Bytes utf16_to_utf8 writes in the dialect.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf8_length_from_utf16(std::u16string_view in, replace r, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf8_length_from_utf16(in, r);
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), nullptr, r).written;
}

/// Bytes utf32_to_utf8 writes in the dialect.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf8_length_from_utf32(std::u32string_view in, replace r, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf8_length_from_utf32(in, r);
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), nullptr, r).written;
}

/// char32_t units utf8_to_utf32 writes in the dialect under skip (exact).
template <class Skip, class Dialect, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
std::size_t utf32_length_from_utf8(const Bytes& bytes, Skip, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf32_length_from_utf8(bytes, skip{});
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, static_cast<char32_t*>(nullptr), skip{})
        .written;
  }
}

/// char16_t units utf8_to_utf16 writes in the dialect under skip (exact).
template <class Skip, class Dialect, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
std::size_t utf16_length_from_utf8(const Bytes& bytes, Skip, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf16_length_from_utf8(bytes, skip{});
  } else {
    const auto s = detail::as_span(bytes);
    return detail::dialect_to_utf<Dialect>(detail::as_uchars(s.data), s.size, static_cast<char16_t*>(nullptr), skip{})
        .written;
  }
}

/// Bytes utf16_to_utf8 writes in the dialect under skip (exact).
template <class Skip, class Dialect, detail::enable_if_skip<Skip> = 0, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf8_length_from_utf16(std::u16string_view in, Skip, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf8_length_from_utf16(in, skip{});
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), nullptr, skip{}).written;
}

/// Bytes utf32_to_utf8 writes in the dialect under skip (exact).
template <class Skip, class Dialect, detail::enable_if_skip<Skip> = 0, detail::enable_if_dialect<Dialect> = 0>
std::size_t utf8_length_from_utf32(std::u32string_view in, Skip, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return utf8_length_from_utf32(in, skip{});
  else
    return detail::utf_to_dialect<Dialect>(in.data(), in.size(), nullptr, skip{}).written;
}

/// Bytes recode writes (exact for replace and well-formed input, an upper bound for strict).
template <class From, class To, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<From> = 0,
          detail::enable_if_dialect<To> = 0>
std::size_t recoded_length(const Bytes& bytes, replace r, From, To) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::recode_scalar<From, To>(detail::as_uchars(s.data), s.size, nullptr, r).written;
}

/// Bytes recode writes under skip (exact).
template <class Skip, class From, class To, class Bytes, detail::enable_if_skip<Skip> = 0,
          detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<From> = 0, detail::enable_if_dialect<To> = 0>
std::size_t recoded_length(const Bytes& bytes, Skip, From, To) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::recode_scalar<From, To>(detail::as_uchars(s.data), s.size, nullptr, skip{}).written;
}

/// Dialect bytes to UTF-32, strict without exceptions.
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::u32string to_utf32(const Bytes& bytes, conversion_result& status, Dialect d) {
  return detail::make_string<std::u32string>(
      utf32_length_from_utf8(bytes, replace{}, d), [&](char32_t* o) { return utf8_to_utf32(bytes, o, strict{}, d); },
      status);
}

/// Dialect bytes to UTF-32, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::u32string to_utf32_lossy(const Bytes& bytes, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::u32string>(
      utf32_length_from_utf8(bytes, replace{}, d), [&](char32_t* o) { return utf8_to_utf32(bytes, o, replace{}, d); },
      status);
}

/// Dialect bytes to UTF-16, strict without exceptions.
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::u16string to_utf16(const Bytes& bytes, conversion_result& status, Dialect d) {
  return detail::make_string<std::u16string>(
      utf16_length_from_utf8(bytes, replace{}, d), [&](char16_t* o) { return utf8_to_utf16(bytes, o, strict{}, d); },
      status);
}

/// Dialect bytes to UTF-16, one U+FFFD per maximal ill-formed subpart or unrepresentable character.
template <class Dialect, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
std::u16string to_utf16_lossy(const Bytes& bytes, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::u16string>(
      utf16_length_from_utf8(bytes, replace{}, d), [&](char16_t* o) { return utf8_to_utf16(bytes, o, replace{}, d); },
      status);
}

/// UTF-16 to dialect bytes, strict without exceptions.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8(std::u16string_view in, conversion_result& status, Dialect d) {
  return detail::make_string<std::string>(
      utf8_length_from_utf16(in, replace{}, d), [&](char* o) { return utf16_to_utf8(in, o, strict{}, d); }, status);
}

/// UTF-32 to dialect bytes, strict without exceptions.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8(std::u32string_view in, conversion_result& status, Dialect d) {
  return detail::make_string<std::string>(
      utf8_length_from_utf32(in, replace{}, d), [&](char* o) { return utf32_to_utf8(in, o, strict{}, d); }, status);
}

/// UTF-16 to dialect bytes, one U+FFFD per unit the dialect cannot write; never fails.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8_lossy(std::u16string_view in, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf16(in, replace{}, d), [&](char* o) { return utf16_to_utf8(in, o, replace{}, d); }, status);
}

/// UTF-32 to dialect bytes, one U+FFFD per value the dialect cannot write; never fails.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8_lossy(std::u32string_view in, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf32(in, replace{}, d), [&](char* o) { return utf32_to_utf8(in, o, replace{}, d); }, status);
}

/// Dialect-From bytes to dialect-To bytes, strict without exceptions (recode(bytes, status,
/// dialect::cesu8{}, dialect::utf8{})): the result holds the characters before the error.
template <class From, class To, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<From> = 0,
          detail::enable_if_dialect<To> = 0>
std::string recode(const Bytes& bytes, conversion_result& status, From from, To to) {
  return detail::make_string<std::string>(
      recoded_length(bytes, replace{}, from, to), [&](char* o) { return recode(bytes, o, strict{}, from, to); },
      status);
}

/// Dialect-From bytes to dialect-To bytes, one U+FFFD per maximal ill-formed subpart or character
/// To cannot write; never fails.
template <class From, class To, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<From> = 0,
          detail::enable_if_dialect<To> = 0>
std::string recode_lossy(const Bytes& bytes, From from, To to) {
  conversion_result status{};
  return detail::make_string<std::string>(
      recoded_length(bytes, replace{}, from, to), [&](char* o) { return recode(bytes, o, replace{}, from, to); },
      status);
}

/// Dialect bytes to UTF-32 with each error dropped (to_utf32_lossy(bytes, skip{}, d)).
template <class Skip, class Dialect, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
std::u32string to_utf32_lossy(const Bytes& bytes, Skip, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::u32string>(
      utf32_length_from_utf8(bytes, skip{}, d), [&](char32_t* o) { return utf8_to_utf32(bytes, o, skip{}, d); },
      status);
}

/// Dialect bytes to UTF-16 with each error dropped.
template <class Skip, class Dialect, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_dialect<Dialect> = 0>
std::u16string to_utf16_lossy(const Bytes& bytes, Skip, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::u16string>(
      utf16_length_from_utf8(bytes, skip{}, d), [&](char16_t* o) { return utf8_to_utf16(bytes, o, skip{}, d); },
      status);
}

/// UTF-16 to dialect bytes with each unit the dialect cannot write dropped.
template <class Skip, class Dialect, detail::enable_if_skip<Skip> = 0, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8_lossy(std::u16string_view in, Skip, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf16(in, skip{}, d), [&](char* o) { return utf16_to_utf8(in, o, skip{}, d); }, status);
}

/// UTF-32 to dialect bytes with each value the dialect cannot write dropped.
template <class Skip, class Dialect, detail::enable_if_skip<Skip> = 0, detail::enable_if_dialect<Dialect> = 0>
std::string to_utf8_lossy(std::u32string_view in, Skip, Dialect d) {
  conversion_result status{};
  return detail::make_string<std::string>(
      utf8_length_from_utf32(in, skip{}, d), [&](char* o) { return utf32_to_utf8(in, o, skip{}, d); }, status);
}

/// Dialect-From bytes to dialect-To bytes with each error dropped (recode_lossy(bytes, skip{}, from, to)).
template <class Skip, class From, class To, class Bytes, detail::enable_if_skip<Skip> = 0,
          detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<From> = 0, detail::enable_if_dialect<To> = 0>
std::string recode_lossy(const Bytes& bytes, Skip, From from, To to) {
  conversion_result status{};
  return detail::make_string<std::string>(
      recoded_length(bytes, skip{}, from, to), [&](char* o) { return recode(bytes, o, skip{}, from, to); }, status);
}

#if UTF8DFA_HAS_EXCEPTIONS

/// Thrown by the strict allocating helpers: where (input code units) and why the input is ill-formed.
class conversion_error : public std::runtime_error {
 public:
  conversion_error(const char* encoding, const char* unit, std::size_t offset, error_code code)
      : std::runtime_error(std::string("invalid ") + encoding + " at " + unit + " " + std::to_string(offset) + ": " +
                           std::string(error_name(code))),
        offset_(offset),
        code_(code) {}
  /// Offset of the first ill-formed subpart, in input code units (bytes for UTF-8).
  std::size_t offset() const noexcept { return offset_; }
  error_code code() const noexcept { return code_; }

 private:
  std::size_t offset_;
  error_code code_;
};

namespace detail {
template <class Str>
Str or_throw(Str&& s, const conversion_result& status, const char* encoding, const char* unit) {
  if (status.error != error_code::none) throw conversion_error(encoding, unit, status.read, status.error);
  return std::move(s);
}
}  // namespace detail

/// UTF-8 to UTF-32; throws conversion_error on ill-formed input.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string to_utf32(const Bytes& bytes) {
  conversion_result status{};
  return detail::or_throw(to_utf32(bytes, status), status, "UTF-8", "byte");
}

/// UTF-8 to UTF-16; throws conversion_error on ill-formed input.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string to_utf16(const Bytes& bytes) {
  conversion_result status{};
  return detail::or_throw(to_utf16(bytes, status), status, "UTF-8", "byte");
}

/// UTF-16 to UTF-8; throws conversion_error on an unpaired surrogate.
inline std::string to_utf8(std::u16string_view in) {
  conversion_result status{};
  return detail::or_throw(to_utf8(in, status), status, "UTF-16", "unit");
}

/// UTF-32 to UTF-8; throws conversion_error on a surrogate or a value above 0x10FFFF.
inline std::string to_utf8(std::u32string_view in) {
  conversion_result status{};
  return detail::or_throw(to_utf8(in, status), status, "UTF-32", "unit");
}

#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

// The explicit instantiations, in the one unit that compiles the library (<utf8dfa/src.hpp>, or the
// single header with UTF8DFA_IMPLEMENTATION).
#if defined(UTF8DFA_SEPARATE_COMPILATION) && defined(UTF8DFA_IMPLEMENTATION)
// ---- begin utf8dfa/detail/string_instances.hpp ----
// utf8dfa: the explicit instantiations of the string conversions that transcode.hpp declares
// `extern template` with UTF8DFA_SEPARATE_COMPILATION, compiled once in the UTF8DFA_IMPLEMENTATION
// unit (<utf8dfa/src.hpp> includes this after transcode.hpp, whatever was included before it).
#ifndef UTF8DFA_DETAIL_STRING_INSTANCES_HPP
#define UTF8DFA_DETAIL_STRING_INSTANCES_HPP


#if defined(UTF8DFA_SEPARATE_COMPILATION)

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

#if defined(UTF8DFA_DETAIL_SET_LENGTH_UNWRITTEN)
// libstdc++'s basic_string::_M_set_length(n) (private: it sets the length and writes the terminator)
// named in an explicit instantiation, where access is not checked ([temp.spec.general]); the
// instantiation defines a friend that hands the member out. Such an instantiation may appear once
// per program: this unit is the one.
template <class Tag, typename Tag::type Member>
struct member_access {
  friend typename Tag::type member_of(Tag) noexcept { return Member; }
};
struct set_length_8 {
  using type = void (std::string::*)(std::string::size_type);
  friend type member_of(set_length_8) noexcept;
};
struct set_length_16 {
  using type = void (std::u16string::*)(std::u16string::size_type);
  friend type member_of(set_length_16) noexcept;
};
struct set_length_32 {
  using type = void (std::u32string::*)(std::u32string::size_type);
  friend type member_of(set_length_32) noexcept;
};
template struct member_access<set_length_8, &std::string::_M_set_length>;
template struct member_access<set_length_16, &std::u16string::_M_set_length>;
template struct member_access<set_length_32, &std::u32string::_M_set_length>;

void set_length_unwritten(std::string& s, std::size_t n) noexcept {
  (s.*member_of(set_length_8{}))(n);
}
void set_length_unwritten(std::u16string& s, std::size_t n) noexcept {
  (s.*member_of(set_length_16{}))(n);
}
void set_length_unwritten(std::u32string& s, std::size_t n) noexcept {
  (s.*member_of(set_length_32{}))(n);
}
#endif

template std::u16string utf8_to_string<std::u16string>(const unsigned char*, std::size_t, char32_t, conversion_result&);
template std::u32string utf8_to_string<std::u32string>(const unsigned char*, std::size_t, char32_t, conversion_result&);
template std::string utf_to_utf8_string<char16_t>(const char16_t*, std::size_t, char32_t, conversion_result&);
template std::string utf_to_utf8_string<char32_t>(const char32_t*, std::size_t, char32_t, conversion_result&);

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif

#endif
// ---- end utf8dfa/detail/string_instances.hpp ----
#endif

#endif
// ---- end utf8dfa/transcode.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Latin-1 to UTF-8 into `out` (size it with utf8_length_from_latin1); never fails. Returns the bytes written.
template <class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_byte<Byte> = 0>
std::size_t latin1_to_utf8(const Bytes& bytes, Byte* out) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::latin1_to_utf8>()(detail::as_uchars(s.data), s.size,
                                                                    detail::as_uchars(out));
}

/// Bytes latin1_to_utf8 writes: one per byte, two for 80..FF; SIZE_MAX when that many does not fit
/// in std::size_t (where it has 32 bits: over 2 GiB of bytes 80..FF), so that allocating it fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t utf8_length_from_latin1(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  const std::size_t total =
      detail::kernel_fn<&detail::kernel_table::utf8_length_from_latin1>()(detail::as_uchars(s.data), s.size);
  // The kernels add the bytes 80..FF (at most all of them) to the count of bytes, modulo
  // std::size_t's range: a sum that went past it wrapped to less than the count.
  return total < s.size ? static_cast<std::size_t>(-1) : total;
}

/// UTF-8 to Latin-1 into `out`; a character above U+00FF is `unrepresentable` (see the header comment).
template <class Policy = strict, class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_latin1(const Bytes& bytes, Byte* out, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  char32_t kernel_repl = 0;
  if (!detail::latin1_kernel_replacement(policy, kernel_repl)) return {0, 0, error_code::unrepresentable};
  return detail::kernel_fn<&detail::kernel_table::utf8_to_latin1>()(detail::as_uchars(s.data), s.size,
                                                                    detail::as_uchars(out), kernel_repl);
}

/// Bytes utf8_to_latin1 writes: one per character or maximal ill-formed subpart. Exact for replace,
/// assume_valid and well-formed input; an upper bound for strict.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_length_from_utf8(const Bytes& bytes) noexcept {
  return utf32_length_from_utf8(bytes);
}

/// Bytes utf8_to_latin1 writes under skip (exact): the characters up to U+00FF.
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_length_from_utf8(const Bytes& bytes, Skip) noexcept {
  const auto s = detail::as_span(bytes);
  const unsigned char* p = detail::as_uchars(s.data);
  std::size_t count = 0;
  for (std::size_t i = 0; i < s.size;) {
    const decoded d = detail::decode_at(p, s.size, i);
    count += d.error == error_code::none && d.code_point <= 0xFF;
    i += d.length;
  }
  return count;
}

/// Latin-1 to UTF-16 into `out` (one unit per byte); never fails. Returns the units written.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_to_utf16(const Bytes& bytes, char16_t* out) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::latin1_to_utf16>()(detail::as_uchars(s.data), s.size, out);
}

/// Latin-1 to UTF-32 into `out` (one unit per byte); never fails. Returns the units written.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_to_utf32(const Bytes& bytes, char32_t* out) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::latin1_to_utf32>()(detail::as_uchars(s.data), s.size, out);
}

/// UTF-16 to Latin-1 into `out` (at most in.size() bytes): unpaired surrogates as in
/// utf16_to_utf8, a character above U+00FF `unrepresentable`.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf16_to_latin1(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  char32_t repl = 0;
  if (!detail::latin1_kernel_replacement(policy, repl)) return {0, 0, error_code::unrepresentable};
  return detail::kernel_fn<&detail::kernel_table::utf16_to_latin1>()(in.data(), in.size(), detail::as_uchars(out),
                                                                     repl);
}

/// UTF-32 to Latin-1 into `out` (at most in.size() bytes): surrogates and values above 0x10FFFF as
/// in utf32_to_utf8, a value above U+00FF `unrepresentable`.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf32_to_latin1(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  char32_t repl = 0;
  if (!detail::latin1_kernel_replacement(policy, repl)) return {0, 0, error_code::unrepresentable};
  return detail::kernel_fn<&detail::kernel_table::utf32_to_latin1>()(in.data(), in.size(), detail::as_uchars(out),
                                                                     repl);
}

// ---- Allocating conversions and the length helpers with a policy (the pointer forms above do
// the work, in pieces, as transcode.hpp's allocating conversions do: detail::convert_in_chunks). ----

namespace detail {

/// The bytes utf8_to_latin1 or utf16/utf32_to_latin1 (by In) writes for [p, p+n): one per character
/// or error (Skip: one per character up to U+00FF).
template <bool Skip, class In>
constexpr std::size_t latin1_units_from_utf(const In* p, std::size_t n) noexcept {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n;) {
    const decoded d = decode_utf_at(p, n, i);
    count += !Skip || (d.error == error_code::none && d.code_point <= 0xFF);
    i += d.length;
  }
  return count;
}

/// Latin-1 bytes as UTF-8, UTF-16 or UTF-32 (by Str), through the pointer conversions.
template <class Str>
Str latin1_to_string(const unsigned char* p, std::size_t n) {
  using Out = typename Str::value_type;
  conversion_result status{};
  return convert_in_chunks < Str,
         sizeof(Out) == 1 ? 2
                          : 1 > (
                                    p, n,
                                    [](const unsigned char* q, std::size_t m, Out* o) {
                                      const byte_span_range<unsigned char> in{q, m};
                                      std::size_t w = 0;
                                      if constexpr (sizeof(Out) == 1)
                                        w = utf8dfa::latin1_to_utf8(in, o);
                                      else if constexpr (sizeof(Out) == 2)
                                        w = utf8dfa::latin1_to_utf16(in, o);
                                      else
                                        w = utf8dfa::latin1_to_utf32(in, o);
                                      return conversion_result{m, w, error_code::none};
                                    },
                                    [](const unsigned char*, std::size_t cut) { return cut; },
                                    [](const unsigned char* q, std::size_t m) {
                                      if constexpr (sizeof(Out) == 1)
                                        return utf8dfa::utf8_length_from_latin1(byte_span_range<unsigned char>{q, m});
                                      else
                                        return m;
                                    },
                                    status);
}

/// UTF-8, UTF-16 or UTF-32 (by In) to Latin-1 as a string under Policy (strict, replace or skip);
/// a replacement above U+00FF is refused as the pointer forms refuse it (an empty string, status
/// {0, 0, unrepresentable}).
template <class Policy, class In>
std::string to_latin1_string(const In* p, std::size_t n, Policy pol, conversion_result& status) {
  unsigned char repl = '?';
  if (!latin1_replacement(pol, repl)) {
    status = {0, 0, error_code::unrepresentable};
    return std::string();
  }
  std::string out = convert_in_chunks<std::string, 1>(
      p, n,
      [pol](const In* q, std::size_t m, char* o) {
        if constexpr (sizeof(In) == 1)
          return utf8dfa::utf8_to_latin1(byte_span_range<unsigned char>{q, m}, o, pol);
        else if constexpr (sizeof(In) == 2)
          return utf8dfa::utf16_to_latin1(std::u16string_view(q, m), o, pol);
        else
          return utf8dfa::utf32_to_latin1(std::u32string_view(q, m), o, pol);
      },
      [](const In* q, std::size_t cut) {
        if constexpr (sizeof(In) == 1)
          return utf8_chunk_end(q, cut);
        else if constexpr (sizeof(In) == 2)
          return utf16_chunk_end(q, cut);
        else
          return utf32_chunk_end(q, cut);
      },
      [](const In* q, std::size_t m) {  // at least what the rest writes: one byte per character or error
        if constexpr (sizeof(In) == 1)
          return utf8dfa::utf32_length_from_utf8(byte_span_range<unsigned char>{q, m});
        else
          return m;
      },
      status);
  // Strict: a piece's end may have cut an incomplete character off from the byte that ends it, so
  // the kind of the error is read again from the whole input (none there: the character is above
  // U+00FF).
  if constexpr (sizeof(In) == 1) {
    if (status.error != error_code::none && status.read < n) {
      const error_code e = decode_at(p, n, status.read).error;
      status.error = e == error_code::none ? error_code::unrepresentable : e;
    }
  }
  return out;
}

// Compiled once with UTF8DFA_SEPARATE_COMPILATION (detail/latin1_instances.hpp), on the same terms
// as transcode.hpp's string conversions.
#if defined(UTF8DFA_SEPARATE_COMPILATION) && !defined(__cpp_lib_string_resize_and_overwrite) && \
    !(defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI == 0)
extern template std::string latin1_to_string<std::string>(const unsigned char*, std::size_t);
extern template std::u16string latin1_to_string<std::u16string>(const unsigned char*, std::size_t);
extern template std::u32string latin1_to_string<std::u32string>(const unsigned char*, std::size_t);
extern template std::string to_latin1_string<strict, unsigned char>(const unsigned char*, std::size_t, strict,
                                                                    conversion_result&);
extern template std::string to_latin1_string<replace, unsigned char>(const unsigned char*, std::size_t, replace,
                                                                     conversion_result&);
extern template std::string to_latin1_string<skip, unsigned char>(const unsigned char*, std::size_t, skip,
                                                                  conversion_result&);
extern template std::string to_latin1_string<strict, char16_t>(const char16_t*, std::size_t, strict,
                                                               conversion_result&);
extern template std::string to_latin1_string<replace, char16_t>(const char16_t*, std::size_t, replace,
                                                                conversion_result&);
extern template std::string to_latin1_string<skip, char16_t>(const char16_t*, std::size_t, skip, conversion_result&);
extern template std::string to_latin1_string<strict, char32_t>(const char32_t*, std::size_t, strict,
                                                               conversion_result&);
extern template std::string to_latin1_string<replace, char32_t>(const char32_t*, std::size_t, replace,
                                                                conversion_result&);
extern template std::string to_latin1_string<skip, char32_t>(const char32_t*, std::size_t, skip, conversion_result&);
#endif

}  // namespace detail

/// Bytes utf8_to_latin1(bytes, out, r) writes (exact): one per character or maximal ill-formed
/// subpart; 0 for a replacement above U+00FF (replace{} included), which is refused.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t latin1_length_from_utf8(const Bytes& bytes, replace r) noexcept {
  unsigned char repl = '?';
  return detail::latin1_replacement(r, repl) ? utf32_length_from_utf8(bytes) : 0;
}

/// Bytes utf16_to_latin1 writes: one per character or unpaired surrogate. Exact for replace,
/// assume_valid and well-formed input; an upper bound for strict.
inline std::size_t latin1_length_from_utf16(std::u16string_view in) noexcept {
  return detail::latin1_units_from_utf<false>(in.data(), in.size());
}

/// Bytes utf16_to_latin1(in, out, r) writes (exact); 0 for a replacement above U+00FF.
inline std::size_t latin1_length_from_utf16(std::u16string_view in, replace r) noexcept {
  unsigned char repl = '?';
  return detail::latin1_replacement(r, repl) ? latin1_length_from_utf16(in) : 0;
}

/// Bytes utf16_to_latin1 writes under skip (exact): the characters up to U+00FF.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t latin1_length_from_utf16(std::u16string_view in, Skip) noexcept {
  return detail::latin1_units_from_utf<true>(in.data(), in.size());
}

/// Bytes utf32_to_latin1 writes: one per unit (exact for replace, assume_valid and well-formed
/// input; an upper bound for strict).
inline std::size_t latin1_length_from_utf32(std::u32string_view in) noexcept {
  return in.size();
}

/// Bytes utf32_to_latin1(in, out, r) writes (exact); 0 for a replacement above U+00FF.
inline std::size_t latin1_length_from_utf32(std::u32string_view in, replace r) noexcept {
  unsigned char repl = '?';
  return detail::latin1_replacement(r, repl) ? in.size() : 0;
}

/// Bytes utf32_to_latin1 writes under skip (exact): the values up to U+00FF.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t latin1_length_from_utf32(std::u32string_view in, Skip) noexcept {
  return detail::latin1_units_from_utf<true>(in.data(), in.size());
}

/// Latin-1 to UTF-8 as a string; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::string latin1_to_utf8(const Bytes& bytes) {
  const auto s = detail::as_span(bytes);
  return detail::latin1_to_string<std::string>(detail::as_uchars(s.data), s.size);
}

/// Latin-1 to UTF-16 as a string (one unit per byte); never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u16string latin1_to_utf16(const Bytes& bytes) {
  const auto s = detail::as_span(bytes);
  return detail::latin1_to_string<std::u16string>(detail::as_uchars(s.data), s.size);
}

/// Latin-1 to UTF-32 as a string (one unit per byte); never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::u32string latin1_to_utf32(const Bytes& bytes) {
  const auto s = detail::as_span(bytes);
  return detail::latin1_to_string<std::u32string>(detail::as_uchars(s.data), s.size);
}

/// UTF-8 to Latin-1, strict without exceptions: `status` reports the first error (`unrepresentable`
/// for a character above U+00FF); the result holds the characters before it.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::string to_latin1(const Bytes& bytes, conversion_result& status) {
  const auto s = detail::as_span(bytes);
  return detail::to_latin1_string(detail::as_uchars(s.data), s.size, strict{}, status);
}

/// UTF-16 to Latin-1, strict without exceptions.
inline std::string to_latin1(std::u16string_view in, conversion_result& status) {
  return detail::to_latin1_string(in.data(), in.size(), strict{}, status);
}

/// UTF-32 to Latin-1, strict without exceptions.
inline std::string to_latin1(std::u32string_view in, conversion_result& status) {
  return detail::to_latin1_string(in.data(), in.size(), strict{}, status);
}

/// UTF-8 to Latin-1 with one `r.replacement` per character above U+00FF or maximal ill-formed
/// subpart; never fails. A replacement above U+00FF (replace{}'s U+FFFD included) is refused as
/// utf8_to_latin1 refuses it: the result is empty, whatever the input.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::string to_latin1_lossy(const Bytes& bytes, replace r = replace{U'?'}) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::to_latin1_string(detail::as_uchars(s.data), s.size, r, status);
}

/// UTF-16 to Latin-1 with one replacement per character above U+00FF or unpaired surrogate (a
/// replacement above U+00FF: an empty result).
inline std::string to_latin1_lossy(std::u16string_view in, replace r = replace{U'?'}) {
  conversion_result status{};
  return detail::to_latin1_string(in.data(), in.size(), r, status);
}

/// UTF-32 to Latin-1 with one replacement per value above U+00FF (a replacement above U+00FF: an
/// empty result).
inline std::string to_latin1_lossy(std::u32string_view in, replace r = replace{U'?'}) {
  conversion_result status{};
  return detail::to_latin1_string(in.data(), in.size(), r, status);
}

/// UTF-8 to Latin-1 with each character above U+00FF and maximal ill-formed subpart dropped
/// (to_latin1_lossy(bytes, skip{})).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::string to_latin1_lossy(const Bytes& bytes, Skip) {
  const auto s = detail::as_span(bytes);
  conversion_result status{};
  return detail::to_latin1_string(detail::as_uchars(s.data), s.size, skip{}, status);
}

/// UTF-16 to Latin-1 with each character above U+00FF and unpaired surrogate dropped.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::string to_latin1_lossy(std::u16string_view in, Skip) {
  conversion_result status{};
  return detail::to_latin1_string(in.data(), in.size(), skip{}, status);
}

/// UTF-32 to Latin-1 with each value above U+00FF, surrogate and value above 0x10FFFF dropped.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::string to_latin1_lossy(std::u32string_view in, Skip) {
  conversion_result status{};
  return detail::to_latin1_string(in.data(), in.size(), skip{}, status);
}

#if UTF8DFA_HAS_EXCEPTIONS

/// UTF-8 to Latin-1; throws conversion_error at the first ill-formed subpart or character above
/// U+00FF (code() == error_code::unrepresentable).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::string to_latin1(const Bytes& bytes) {
  conversion_result status{};
  return detail::or_throw(to_latin1(bytes, status), status, "UTF-8", "byte");
}

/// UTF-16 to Latin-1; throws conversion_error at an unpaired surrogate or a character above U+00FF.
inline std::string to_latin1(std::u16string_view in) {
  conversion_result status{};
  return detail::or_throw(to_latin1(in, status), status, "UTF-16", "unit");
}

/// UTF-32 to Latin-1; throws conversion_error at a surrogate or a value above U+00FF.
inline std::string to_latin1(std::u32string_view in) {
  conversion_result status{};
  return detail::or_throw(to_latin1(in, status), status, "UTF-32", "unit");
}

#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

// The explicit instantiations, in the one unit that compiles the library.
#if defined(UTF8DFA_SEPARATE_COMPILATION) && defined(UTF8DFA_IMPLEMENTATION)
// ---- begin utf8dfa/detail/latin1_instances.hpp ----
// utf8dfa: the explicit instantiations of the Latin-1 string conversions that latin1.hpp declares
// `extern template` with UTF8DFA_SEPARATE_COMPILATION, compiled once in the UTF8DFA_IMPLEMENTATION
// unit: latin1.hpp includes this at its end, and <utf8dfa/src.hpp> directly (latin1.hpp may have
// come before it, without UTF8DFA_IMPLEMENTATION). Not in string_instances.hpp: transcode.hpp
// includes that one at its end, which may be while latin1.hpp, which includes transcode.hpp, has
// not declared its own functions yet.
#ifndef UTF8DFA_DETAIL_LATIN1_INSTANCES_HPP
#define UTF8DFA_DETAIL_LATIN1_INSTANCES_HPP


#if defined(UTF8DFA_SEPARATE_COMPILATION) && defined(UTF8DFA_IMPLEMENTATION)

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

template std::string latin1_to_string<std::string>(const unsigned char*, std::size_t);
template std::u16string latin1_to_string<std::u16string>(const unsigned char*, std::size_t);
template std::u32string latin1_to_string<std::u32string>(const unsigned char*, std::size_t);
template std::string to_latin1_string<strict, unsigned char>(const unsigned char*, std::size_t, strict,
                                                             conversion_result&);
template std::string to_latin1_string<replace, unsigned char>(const unsigned char*, std::size_t, replace,
                                                              conversion_result&);
template std::string to_latin1_string<skip, unsigned char>(const unsigned char*, std::size_t, skip, conversion_result&);
template std::string to_latin1_string<strict, char16_t>(const char16_t*, std::size_t, strict, conversion_result&);
template std::string to_latin1_string<replace, char16_t>(const char16_t*, std::size_t, replace, conversion_result&);
template std::string to_latin1_string<skip, char16_t>(const char16_t*, std::size_t, skip, conversion_result&);
template std::string to_latin1_string<strict, char32_t>(const char32_t*, std::size_t, strict, conversion_result&);
template std::string to_latin1_string<replace, char32_t>(const char32_t*, std::size_t, replace, conversion_result&);
template std::string to_latin1_string<skip, char32_t>(const char32_t*, std::size_t, skip, conversion_result&);

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif

#endif
// ---- end utf8dfa/detail/latin1_instances.hpp ----
#endif

#endif
// ---- end utf8dfa/latin1.hpp ----
// ---- begin utf8dfa/utf16.hpp ----
// utf8dfa: UTF-16 and UTF-32 as inputs in their own right (validation, counting, repair, conversion
// between the two) and UTF-16 and UTF-32 stored in a stated byte order (UTF-16LE/BE, UTF-32LE/BE).
//
// One definition of an unpaired surrogate serves the whole library (detail::decode_utf16_at, also
// behind utf16_to_utf8): a surrogate that is not a high one followed by a low one. A high surrogate
// that ends the input is `incomplete` (a later chunk could pair it), every other one `surrogate`.
// Offsets and lengths are in code units. Validation, count_utf16, UTF-16 <-> UTF-32,
// to_well_formed_utf16 and the byte-order changes are kernel operations (vector code where the kernel
// has it); UTF-16 <-> UTF-8 in the other byte order are kernel operations too (the vector kernels
// exchange the bytes of each vector as loaded or stored), the other forms in the other byte order swap
// a chunk at a time with the kernel's byte shuffle and run the host-order kernel on it; the lengths
// of UTF-32 <-> UTF-16 are scalar.
#ifndef UTF8DFA_UTF16_HPP
#define UTF8DFA_UTF16_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// The kernel's change_endianness_utf16 / _utf32 (by Unit).
template <class Unit>
std::size_t swap_units(const Unit* p, std::size_t n, Unit* out) noexcept {
  if constexpr (sizeof(Unit) == 2)
    return kernel_fn<&kernel_table::change_endianness_utf16>()(p, n, out);
  else
    return kernel_fn<&kernel_table::change_endianness_utf32>()(p, n, out);
}

/// Calls f(units, count, offset) on the `n` UTF-16 or UTF-32 units (by Unit) at `p` (Src: Unit, or
/// a byte type when `p` may not be aligned for Unit), stored little-endian (Little) or big-endian:
/// put into host order a chunk at a time in a buffer (the kernel's byte shuffle, straight from `p`
/// when it holds units). A chunk ends on a value D800..DBFF only where the input does, so surrogate
/// pairs (and, in UTF-32, a lead surrogate and what follows it) stay together. f returns false to
/// stop.
template <bool Little, class Unit, class Src, class F>
void for_each_host_chunk(const Src* p, std::size_t n, F f) {
  constexpr std::size_t chunk = 8192 / sizeof(Unit);
  Unit buf[chunk];
  for (std::size_t pos = 0; pos < n;) {
    std::size_t len = n - pos < chunk ? n - pos : chunk;
    if constexpr (std::is_same_v<Src, Unit> && Little != host_little_endian) {
      swap_units(p + pos, len, buf);
    } else {
      std::memcpy(buf, reinterpret_cast<const unsigned char*>(p) + pos * sizeof(Unit), len * sizeof(Unit));
      if constexpr (Little != host_little_endian) swap_units(buf, len, buf);
    }
    if (pos + len < n && buf[len - 1] >= 0xD800 && buf[len - 1] <= 0xDBFF) --len;
    // (A chunk that then still ends on a high surrogate, one before another, meets it as
    // `incomplete`: chunk_error makes that the `surrogate` it is.)
    if (!f(static_cast<const Unit*>(buf), len, pos)) return;
    pos += len;
  }
}

/// validate_utf16 (the kernel's) or validate_utf32 (by Unit) on host-order units.
template <class Unit>
validation_result validate_units(const Unit* p, std::size_t n) noexcept {
  if constexpr (sizeof(Unit) == 2)
    return kernel_fn<&kernel_table::validate_utf16>()(p, n);
  else
    return kernel_fn<&kernel_table::validate_utf32>()(p, n);
}

/// The error `e` met in a chunk of for_each_host_chunk that ends at `end`, in the whole
/// input of `n` units: a high surrogate that ends a chunk but not the input is followed by another.
inline error_code chunk_error(error_code e, std::size_t end, std::size_t n) noexcept {
  return e == error_code::incomplete && end < n ? error_code::surrogate : e;
}

/// validate_units on the `n` units at `p` (Src: as for for_each_host_chunk), stored little-endian
/// (Little) or big-endian.
template <bool Little, class Unit, class Src>
validation_result validate_stored(const Src* p, std::size_t n) noexcept {
  validation_result r{n, 0, error_code::none};
  for_each_host_chunk<Little, Unit>(p, n, [&](const Unit* b, std::size_t len, std::size_t base) {
    const validation_result v = validate_units(b, len);
    if (v) return true;
    const error_code e = chunk_error(v.error, base + len, n);
    r = {base + v.valid_up_to, e == v.error ? v.error_length : std::size_t{1}, e};
    return false;
  });
  return r;
}

/// validate_utf16 / validate_utf32 (by Unit) on units stored little-endian (Little) or big-endian.
template <bool Little, class Unit>
validation_result validate_utf_in_order(std::basic_string_view<Unit> in) noexcept {
  if constexpr (Little == host_little_endian)
    return validate_units(in.data(), in.size());
  else if constexpr (sizeof(Unit) == 2)
    return kernel_fn<&kernel_table::validate_utf16_swapped>()(in.data(), in.size());
  else
    return validate_stored<Little, Unit>(in.data(), in.size());
}

/// The host-order UTF-16 or UTF-32 (by Unit) to UTF-8 conversion.
template <class Policy, class Unit, class Byte>
conversion_result utf_to_utf8(std::basic_string_view<Unit> in, Byte* out, Policy policy) noexcept {
  if constexpr (sizeof(Unit) == 2)
    return utf16_to_utf8(in, out, policy);
  else
    return utf32_to_utf8(in, out, policy);
}

/// utf16_to_utf8 / utf32_to_utf8 (by Unit) on units stored little-endian (Little) or big-endian.
/// UTF-16 in the other byte order is the kernel's utf16_swapped_to_utf8; UTF-32 is swapped a chunk
/// at a time.
template <bool Little, class Policy, class Unit, class Byte>
conversion_result utf_in_order_to_utf8(std::basic_string_view<Unit> in, Byte* out, Policy policy) noexcept {
  if constexpr (Little == host_little_endian) {
    return utf_to_utf8(in, out, policy);
  } else if constexpr (sizeof(Unit) == 2) {
    return kernel_fn<&kernel_table::utf16_swapped_to_utf8>()(in.data(), in.size(), as_uchars(out),
                                                             kernel_replacement(policy));
  } else {
    conversion_result r{in.size(), 0, error_code::none};
    for_each_host_chunk<Little, Unit>(in.data(), in.size(), [&](const Unit* b, std::size_t len, std::size_t base) {
      const conversion_result c = utf_to_utf8(std::basic_string_view<Unit>(b, len), out + r.written, policy);
      r.written += c.written;
      if (c.error != error_code::none) {
        if (r.error == error_code::none) r.error = chunk_error(c.error, base + len, in.size());
        if constexpr (Policy::stops_on_error) {
          r.read = base + c.read;
          return false;
        }
      }
      return true;
    });
    return r;
  }
}

/// The host-order UTF-8 to UTF-16 or UTF-32 (by Unit) conversion.
template <class Policy, class Unit, class Bytes>
conversion_result utf8_to_utf(const Bytes& bytes, Unit* out, Policy policy) noexcept {
  if constexpr (sizeof(Unit) == 2)
    return utf8_to_utf16(bytes, out, policy);
  else
    return utf8_to_utf32(bytes, out, policy);
}

/// utf8_to_utf16 / utf8_to_utf32 (by Unit) writing units little-endian (Little) or big-endian.
/// UTF-16 in the other byte order is the kernel's utf8_to_utf16_swapped. UTF-32 in the other byte
/// order: pieces of 8 KiB that end before a byte other than a continuation are
/// converted and swapped while in cache; a piece with an error (or one cut inside a character: an
/// `incomplete` error) is taken again with the rest of the input in one call, so results are those
/// of one call. (assume_valid, which reports no error, converts in one call.)
template <bool Little, class Policy, class Unit, class Bytes>
conversion_result utf8_to_utf_in_order(const Bytes& bytes, Unit* out, Policy policy) noexcept {
  if constexpr (Little != host_little_endian && sizeof(Unit) == 2) {
    const auto s = as_span(bytes);
    return kernel_fn<&kernel_table::utf8_to_utf16_swapped>()(as_uchars(s.data), s.size, out,
                                                             decode_replacement(policy));
  } else if constexpr (Little == host_little_endian || std::is_same_v<Policy, assume_valid>) {
    const conversion_result r = utf8_to_utf(bytes, out, policy);
    if constexpr (Little != host_little_endian) swap_units(out, r.written, out);
    return r;
  } else {
    const auto s = as_span(bytes);
    using Byte = std::remove_cv_t<std::remove_pointer_t<decltype(s.data)>>;
    constexpr std::size_t piece = 8192;
    std::size_t pos = 0, written = 0;
    while (s.size - pos > piece) {
      std::size_t cut = pos + piece;
      while (cut > pos + piece - 4 && (octet(s.data[cut]) & 0xC0u) == 0x80u) --cut;
      const conversion_result r = utf8_to_utf(byte_span_range<Byte>{s.data + pos, cut - pos}, out + written, policy);
      if (r.error != error_code::none) break;
      swap_units(out + written, r.written, out + written);
      written += r.written;
      pos = cut;
    }
    const conversion_result r = utf8_to_utf(byte_span_range<Byte>{s.data + pos, s.size - pos}, out + written, policy);
    swap_units(out + written, r.written, out + written);
    return {pos + r.read, written + r.written, r.error};
  }
}

/// utf8_length_from_utf16 / utf8_length_from_utf32 (by Unit) on units stored little-endian (Little)
/// or big-endian (R: replace or skip).
template <bool Little, class Unit, class R>
std::size_t utf8_length_from_utf_in_order(std::basic_string_view<Unit> in, R r) noexcept {
  const auto length = [r](std::basic_string_view<Unit> units) {
    if constexpr (sizeof(Unit) == 2)
      return utf8_length_from_utf16(units, r);
    else
      return utf8_length_from_utf32(units, r);
  };
  if constexpr (Little == host_little_endian) {
    return length(in);
  } else {
    std::size_t total = 0;
    for_each_host_chunk<Little, Unit>(in.data(), in.size(), [&](const Unit* b, std::size_t len, std::size_t) {
      total += length(std::basic_string_view<Unit>(b, len));
      return true;
    });
    return total;
  }
}

}  // namespace detail

// ---- UTF-16 and UTF-32 input (host byte order). ----------------------------------------------

/// Checks UTF-16: valid_up_to is the units before the first unpaired surrogate (error_length 1,
/// `surrogate`), or before a high surrogate that ends the input (error_length 0, `incomplete`).
constexpr validation_result validate_utf16(std::u16string_view in) noexcept {
  if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::validate_utf(in.data(), in.size());
  return detail::kernel_fn<&detail::kernel_table::validate_utf16>()(in.data(), in.size());
}

/// Checks UTF-32: a surrogate value is `surrogate`, a value above 0x10FFFF `too_large` (length 1).
constexpr validation_result validate_utf32(std::u32string_view in) noexcept {
  if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::validate_utf32_scalar(in.data(), in.size());
  return detail::kernel_fn<&detail::kernel_table::validate_utf32>()(in.data(), in.size());
}

/// Code points in UTF-16: one per surrogate pair or other unit; each unpaired surrogate counts
/// as one (the U+FFFD a lossy conversion writes for it).
constexpr std::size_t count_utf16(std::u16string_view in) noexcept {
  if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::count_utf16_scalar(in.data(), in.size());
  return detail::kernel_fn<&detail::kernel_table::count_utf16>()(in.data(), in.size());
}

/// Copies UTF-16 to `out` (in.size() units) with each unpaired surrogate replaced by U+FFFD;
/// `out` may be in.data() (in place) but must not otherwise overlap. Returns the units written.
inline std::size_t to_well_formed_utf16(std::u16string_view in, char16_t* out) noexcept {
  return detail::kernel_fn<&detail::kernel_table::to_well_formed_utf16>()(in.data(), in.size(), out);
}

/// UTF-16 to UTF-32 into `out`; an unpaired surrogate is an error (see validate_utf16). Policies
/// as for utf8_to_utf32: strict stops before it, replace writes the replacement, assume_valid.
template <class Policy = strict, detail::enable_if_policy<Policy> = 0>
conversion_result utf16_to_utf32(std::u16string_view in, char32_t* out, Policy policy = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf16_to_utf32>()(in.data(), in.size(), out,
                                                                    detail::kernel_replacement(policy));
}

/// UTF-32 to UTF-16 into `out`; surrogates (`surrogate`) and values above 0x10FFFF (`too_large`) are errors.
template <class Policy = strict, detail::enable_if_policy<Policy> = 0>
conversion_result utf32_to_utf16(std::u32string_view in, char16_t* out, Policy policy = {}) noexcept {
  return detail::kernel_fn<&detail::kernel_table::utf32_to_utf16>()(in.data(), in.size(), out,
                                                                    detail::kernel_replacement(policy));
}

/// char32_t units utf16_to_utf32 writes: exact for every policy on well-formed input and for
/// replace and assume_valid on any input; an upper bound for strict.
constexpr std::size_t utf32_length_from_utf16(std::u16string_view in, replace = {}) noexcept {
  return count_utf16(in);
}

/// char16_t units utf32_to_utf16 writes (same guarantees; replacements counted with `r`'s).
constexpr std::size_t utf16_length_from_utf32(std::u32string_view in, replace r = {}) noexcept {
  std::size_t total = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const decoded d = detail::decode_utf32_at(in.data(), in.size(), i);
    total += (d.error == error_code::none ? d.code_point : r.replacement_value()) >= 0x10000 ? 2u : 1u;
  }
  return total;
}

/// char32_t units utf16_to_utf32 writes under skip (exact): utf32_length_from_utf16(in, skip{}).
template <class Skip, detail::enable_if_skip<Skip> = 0>
constexpr std::size_t utf32_length_from_utf16(std::u16string_view in, Skip) noexcept {
  std::size_t count = 0;
  for (std::size_t i = 0; i < in.size();) {
    const decoded d = detail::decode_utf16_at(in.data(), in.size(), i);
    count += d.error == error_code::none;
    i += d.length;
  }
  return count;
}

/// char16_t units utf32_to_utf16 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
constexpr std::size_t utf16_length_from_utf32(std::u32string_view in, Skip) noexcept {
  std::size_t total = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const decoded d = detail::decode_utf32_at(in.data(), in.size(), i);
    if (d.error == error_code::none) total += d.code_point >= 0x10000 ? 2u : 1u;
  }
  return total;
}

// ---- UTF-16 and UTF-32 in a stated byte order. ----------------------------------------------
// A std::u16string_view / std::u32string_view or char16_t* / char32_t* here holds units whose bytes
// are stored in the named order (UTF-16LE, UTF-32LE: lowest byte first), whatever the host's order;
// on a host of that order these are the plain UTF-16 / UTF-32 functions.

/// True when the host stores units little-endian: host-order UTF-16 and UTF-32 (what the plain
/// functions read and write) are then UTF-16LE and UTF-32LE, else UTF-16BE and UTF-32BE.
inline constexpr bool host_is_little_endian = detail::host_little_endian;

/// Exchanges the two bytes of every unit (UTF-16LE <-> UTF-16BE) into `out` (in.size() units);
/// `out` may be in.data(). Returns the units written.
inline std::size_t change_endianness_utf16(std::u16string_view in, char16_t* out) noexcept {
  return detail::kernel_fn<&detail::kernel_table::change_endianness_utf16>()(in.data(), in.size(), out);
}

/// Reverses the four bytes of every unit (UTF-32LE <-> UTF-32BE) into `out` (in.size() units);
/// `out` may be in.data(). Returns the units written.
inline std::size_t change_endianness_utf32(std::u32string_view in, char32_t* out) noexcept {
  return detail::kernel_fn<&detail::kernel_table::change_endianness_utf32>()(in.data(), in.size(), out);
}

/// validate_utf16 on UTF-16LE.
inline validation_result validate_utf16le(std::u16string_view in) noexcept {
  return detail::validate_utf_in_order<true>(in);
}

/// validate_utf16 on UTF-16BE.
inline validation_result validate_utf16be(std::u16string_view in) noexcept {
  return detail::validate_utf_in_order<false>(in);
}

/// validate_utf32 on UTF-32LE.
inline validation_result validate_utf32le(std::u32string_view in) noexcept {
  return detail::validate_utf_in_order<true>(in);
}

/// validate_utf32 on UTF-32BE.
inline validation_result validate_utf32be(std::u32string_view in) noexcept {
  return detail::validate_utf_in_order<false>(in);
}

/// utf8_to_utf16 writing UTF-16LE (same policies and result; size `out` with utf16_length_from_utf8).
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf16le(const Bytes& bytes, char16_t* out, Policy policy = {}) noexcept {
  return detail::utf8_to_utf_in_order<true>(bytes, out, policy);
}

/// utf8_to_utf16 writing UTF-16BE.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf16be(const Bytes& bytes, char16_t* out, Policy policy = {}) noexcept {
  return detail::utf8_to_utf_in_order<false>(bytes, out, policy);
}

/// utf8_to_utf32 writing UTF-32LE (same policies and result; size `out` with utf32_length_from_utf8).
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf32le(const Bytes& bytes, char32_t* out, Policy policy = {}) noexcept {
  return detail::utf8_to_utf_in_order<true>(bytes, out, policy);
}

/// utf8_to_utf32 writing UTF-32BE.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf8_to_utf32be(const Bytes& bytes, char32_t* out, Policy policy = {}) noexcept {
  return detail::utf8_to_utf_in_order<false>(bytes, out, policy);
}

/// utf16_to_utf8 reading UTF-16LE (same policies and result; size `out` with utf8_length_from_utf16le).
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf16le_to_utf8(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::utf_in_order_to_utf8<true>(in, out, policy);
}

/// utf16_to_utf8 reading UTF-16BE.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf16be_to_utf8(std::u16string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::utf_in_order_to_utf8<false>(in, out, policy);
}

/// utf32_to_utf8 reading UTF-32LE (same policies and result; size `out` with utf8_length_from_utf32le).
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf32le_to_utf8(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::utf_in_order_to_utf8<true>(in, out, policy);
}

/// utf32_to_utf8 reading UTF-32BE.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0>
conversion_result utf32be_to_utf8(std::u32string_view in, Byte* out, Policy policy = {}) noexcept {
  return detail::utf_in_order_to_utf8<false>(in, out, policy);
}

/// Bytes utf16le_to_utf8 writes (the guarantees of utf8_length_from_utf16).
inline std::size_t utf8_length_from_utf16le(std::u16string_view in, replace r = {}) noexcept {
  return detail::utf8_length_from_utf_in_order<true>(in, r);
}

/// Bytes utf16be_to_utf8 writes.
inline std::size_t utf8_length_from_utf16be(std::u16string_view in, replace r = {}) noexcept {
  return detail::utf8_length_from_utf_in_order<false>(in, r);
}

/// Bytes utf32le_to_utf8 writes (the guarantees of utf8_length_from_utf32).
inline std::size_t utf8_length_from_utf32le(std::u32string_view in, replace r = {}) noexcept {
  return detail::utf8_length_from_utf_in_order<true>(in, r);
}

/// Bytes utf32be_to_utf8 writes.
inline std::size_t utf8_length_from_utf32be(std::u32string_view in, replace r = {}) noexcept {
  return detail::utf8_length_from_utf_in_order<false>(in, r);
}

/// Bytes utf16le_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf16le(std::u16string_view in, Skip) noexcept {
  return detail::utf8_length_from_utf_in_order<true>(in, skip{});
}

/// Bytes utf16be_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf16be(std::u16string_view in, Skip) noexcept {
  return detail::utf8_length_from_utf_in_order<false>(in, skip{});
}

/// Bytes utf32le_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf32le(std::u32string_view in, Skip) noexcept {
  return detail::utf8_length_from_utf_in_order<true>(in, skip{});
}

/// Bytes utf32be_to_utf8 writes under skip (exact).
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::size_t utf8_length_from_utf32be(std::u32string_view in, Skip) noexcept {
  return detail::utf8_length_from_utf_in_order<false>(in, skip{});
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/utf16.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

template <class T, class = void>
struct has_replacement_value : std::false_type {};
template <class T>
struct has_replacement_value<T, std::void_t<decltype(std::declval<const T&>().replacement_value())>> : std::true_type {
};

/// A scalar value at least as long, in every encoding, as what the policy writes for one error: its
/// replacement (a policy that writes less, or nothing, is bounded by it too), else the longest.
template <class Policy>
constexpr char32_t widest_write(const Policy& pol) noexcept {
  if constexpr (has_replacement_value<Policy>::value) {
    const char32_t r = pol.replacement_value();
    if (r <= 0x10FFFF && (r < 0xD800 || r > 0xDFFF)) return r;
  }
  return 0x10FFFF;
}

constexpr std::size_t utf16_units(char32_t c) noexcept {
  return c >= 0x10000 ? 2 : 1;
}

/// How the bounded driver reads an input form: `piece` decodes the character or maximal ill-formed
/// subpart at i in the whole input (a piece is never split: the calls from there on, each reading
/// from a piece's start, write what one call writes); `cut` is a piece boundary at or before c, given
/// one at `from` (from < c < n); `last_piece` is where the last piece of [begin, end) starts.
struct utf8_pieces {
  using unit = unsigned char;
  static decoded piece(const unit* p, std::size_t n, std::size_t i) noexcept { return decode_at(p, n, i); }
  static std::size_t cut(const unit* p, std::size_t, std::size_t, std::size_t c) noexcept {
    return utf8_chunk_end(p, c);
  }
  static std::size_t last_piece(const unit* p, std::size_t, std::size_t begin, std::size_t end) noexcept {
    std::size_t j = end - 1;
    while (j > begin && end - j < 4 && is_continuation(p[j])) --j;
    return j;
  }
};

struct utf16_pieces {
  using unit = char16_t;
  static decoded piece(const unit* p, std::size_t n, std::size_t i) noexcept { return decode_utf16_at(p, n, i); }
  static std::size_t cut(const unit* p, std::size_t, std::size_t, std::size_t c) noexcept {
    return (p[c - 1] & 0xFC00) == 0xD800 && (p[c] & 0xFC00) == 0xDC00 ? c - 1 : c;
  }
  static std::size_t last_piece(const unit*, std::size_t, std::size_t, std::size_t end) noexcept { return end - 1; }
};

struct utf32_pieces {
  using unit = char32_t;
  static decoded piece(const unit* p, std::size_t n, std::size_t i) noexcept { return decode_utf32_at(p, n, i); }
  static std::size_t cut(const unit*, std::size_t, std::size_t, std::size_t c) noexcept { return c; }
  static std::size_t last_piece(const unit*, std::size_t, std::size_t, std::size_t end) noexcept { return end - 1; }
};

struct latin1_pieces {
  using unit = unsigned char;
  static decoded piece(const unit* p, std::size_t, std::size_t i) noexcept { return {p[i], 1, error_code::none}; }
  static std::size_t cut(const unit*, std::size_t, std::size_t, std::size_t c) noexcept { return c; }
  static std::size_t last_piece(const unit*, std::size_t, std::size_t, std::size_t end) noexcept { return end - 1; }
};

constexpr bool is_lead_surrogate(char32_t c) noexcept {
  return c >= 0xD800 && c <= 0xDBFF;
}
constexpr bool is_trail_surrogate(char32_t c) noexcept {
  return c >= 0xDC00 && c <= 0xDFFF;
}

/// A piece that may be longer than a character (decoded's length is at most 6).
struct piece_span {
  std::size_t length;
  error_code error;
};

/// UTF-32 written as WTF-8, which joins a lead surrogate and the trail surrogate after it into one
/// character: the two values are one piece, with (Skip: skip writes nothing for them, so the writer
/// still joins) the values above 0x10FFFF between them.
template <bool Skip>
struct utf32_joined_pieces : utf32_pieces {
  static bool skipped(char32_t u) noexcept { return Skip && u > 0x10FFFF; }
  static piece_span piece(const unit* p, std::size_t n, std::size_t i) noexcept {
    if (is_lead_surrogate(p[i])) {
      std::size_t k = i + 1;
      while (k < n && skipped(p[k])) ++k;
      if (k < n && is_trail_surrogate(p[k])) return {k + 1 - i, error_code::none};
    }
    return {1, decode_utf32_at(p, n, i).error};
  }
  /// The lead surrogate whose piece ends with a trail surrogate at or after c, else c.
  static std::size_t cut(const unit* p, std::size_t n, std::size_t from, std::size_t c) noexcept {
    std::size_t k = c;
    while (k < n && skipped(p[k])) ++k;
    if (k == n || !is_trail_surrogate(p[k])) return c;
    std::size_t j = c;
    while (j > from && skipped(p[j - 1])) --j;
    return j > from && is_lead_surrogate(p[j - 1]) ? j - 1 : c;
  }
  static std::size_t last_piece(const unit* p, std::size_t n, std::size_t begin, std::size_t end) noexcept {
    return end - 1 > begin ? cut(p, n, begin, end - 1) : begin;
  }
};

/// UTF-32 stored in the other byte order than the host's.
struct swapped_utf32_pieces : utf32_pieces {
  static decoded piece(const unit* p, std::size_t, std::size_t i) noexcept {
    const char32_t u = swap_bytes(p[i]);
    return decode_utf32_at(&u, 1, 0);
  }
};

/// Dialect-D bytes, read by D's automaton from the boundary state where each piece starts. More
/// than one character or subpart is one piece where a call from the second would read or write
/// otherwise than one call:
///  - WTF-8: a lead surrogate before ED B0-BF. There the ED is refused (no trail surrogate right
///    after a lead one); read from the ED, ED B0 would begin a trail surrogate. The piece takes the
///    ED and the byte after it (a stray continuation byte either way).
///  - Written as WTF-8 (Join): a lead surrogate character, and a trail surrogate character after it
///    (legacy input), which the writer joins into one 4-byte character; under skip (Skip), which
///    writes nothing for an error, with the errors between them.
template <class D, bool Join, bool Skip>
struct dialect_pieces {
  using unit = unsigned char;
  static decoded read(const unit* p, std::size_t n, std::size_t i) noexcept {
    auto at = boundary_before<D>(p, i);
    return decode_with<machine_of<D>>(p, n, i, at);
  }
  static piece_span piece(const unit* p, std::size_t n, std::size_t i) noexcept {
    const decoded d = read(p, n, i);
    if (d.error != error_code::none || !is_lead_surrogate(d.code_point)) return {d.length, d.error};
    if constexpr (Join) {
      for (std::size_t k = i + d.length; k < n;) {
        const decoded t = read(p, n, k);
        if (t.error == error_code::none && is_trail_surrogate(t.code_point))
          return {k + t.length - i, error_code::none};
        if (!Skip || (t.error == error_code::none && t.code_point <= 0x10FFFF)) break;
        k += t.length;
      }
    }
    if constexpr (std::is_same_v<D, dialect::wtf8>) {
      const std::size_t next = i + d.length;
      if (next + 1 < n && p[next] == 0xED && (p[next + 1] & 0xF0) == 0xB0) return {d.length + 2u, error_code::none};
    }
    return {d.length, d.error};
  }
  /// Where a piece surely starts: at a byte that is neither a continuation byte nor ED (a pair or
  /// a prefix of one, in any dialect, holds only those), or after ED B0-BF and a continuation byte
  /// (a trail surrogate, the end of a pair, or stray bytes). Not so under Skip.
  static bool starts_piece(const unit* p, std::size_t j) noexcept {
    if (!is_continuation(p[j]) && p[j] != 0xED) return true;
    return j >= 3 && p[j - 3] == 0xED && (p[j - 2] & 0xF0) == 0xB0 && is_continuation(p[j - 1]);
  }
  static std::size_t cut(const unit* p, std::size_t n, std::size_t from, std::size_t c) noexcept {
    std::size_t at = from;  // pieces read forward from a nearby start, else from `from`
    if constexpr (!(Join && Skip)) {
      for (std::size_t j = c; j > from && c - j < 16; --j)
        if (starts_piece(p, j)) {
          at = j;
          break;
        }
    }
    for (std::size_t k = at; k <= c; k += piece(p, n, k).length) at = k;
    return at;
  }
  static std::size_t last_piece(const unit* p, std::size_t n, std::size_t begin, std::size_t end) noexcept {
    return end - 1 > begin ? cut(p, n, begin, end - 1) : begin;
  }
};

/// A capacity: any integer type but bool (a braced `{}` third argument stays the default policy of
/// the unbounded overload); a negative one is 0.
template <class T>
using enable_if_capacity = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int>;

template <class T>
constexpr std::size_t capacity_of(T capacity) noexcept {
  if constexpr (std::is_signed_v<T>) {
    if (capacity < 0) return 0;
  }
  return static_cast<std::size_t>(capacity);
}

/// The bounded form of `convert(q, m, o)` (a plain conversion of input [q, q+m) into o) on input
/// [p, p+n) read by Pieces: each input unit writes at most `max_out` units, each output unit takes at
/// most `max_in` input units (short of errors a policy drops), `length(q, m)` is at least what
/// convert writes (exact for replace and well-formed input).
template <class Pieces, class Out, class Convert, class Length>
conversion_result convert_bounded(const typename Pieces::unit* p, std::size_t n, Out* out, std::size_t capacity,
                                  std::size_t max_out, std::size_t max_in, Convert convert, Length length) noexcept {
  constexpr std::size_t min_chunk = 64;  // a chunk sure to fit, of fewer input units, is not worth a call
  constexpr std::size_t few = 16;        // pieces converted one at a time before chunks again
  std::size_t i = 0, o = 0;
  error_code first = error_code::none;
  constexpr std::size_t scratch_units = 16384 / sizeof(Out);
  bool tried = false;
  // The kind of an error reported at `at` by a conversion of input that ended after it: cut off by
  // a chunk's end, a piece reads as incomplete; the whole input says what it is.
  const auto kind = [&](error_code e, std::size_t at) noexcept {
    if (e != error_code::incomplete) return e;
    const error_code whole = Pieces::piece(p, n, at).error;
    return whole != error_code::none ? whole : e;
  };
  for (;;) {
    const std::size_t rest = n - i, room = capacity - o;
    std::size_t end = n;
    if (rest > room / max_out) {
      const std::size_t sure = room / max_out;
      // Once, when the rest is short and may fit: converted into a buffer, kept if it fits. (Cheaper
      // than ever smaller chunks sure to fit, or than a length pass, where the conversion is fast.)
      if (!tried && rest <= scratch_units / max_out && rest / max_in <= room) {
        tried = true;
        Out scratch[scratch_units];
        const conversion_result r = convert(p + i, rest, scratch);
        if (r.written <= room) {
          for (std::size_t k = 0; k < r.written; ++k) out[o + k] = scratch[k];
          if (r.read < rest) return {i + r.read, o + r.written, kind(r.error, i + r.read)};
          return {n, o + r.written, first != error_code::none ? first : r.error};
        }
      }
      if (sure >= min_chunk) {
        end = Pieces::cut(p, n, i, i + sure);
      } else {  // little room: the input that could fill it, halved until its output fits
        const std::size_t window = room * max_in + max_in;
        end = rest <= window ? n : Pieces::cut(p, n, i, i + window);
        while (end > i && length(p + i, end - i) > room)
          end = end - i <= few ? i : Pieces::cut(p, n, i, i + (end - i) / 2);
      }
    }
    if (end > i || rest == 0) {
      const conversion_result r = convert(p + i, end - i, out + o);
      if (r.read < end - i) return {i + r.read, o + r.written, kind(r.error, i + r.read)};  // stopped at an error
      if (first == error_code::none && r.error != error_code::none)
        first = end < n ? kind(r.error, Pieces::last_piece(p, n, i, end)) : r.error;
      o += r.written;
      i = end;
      if (i == n) return {n, o, first};
      continue;
    }
    // One piece at a time, each converted alone and kept if it fits.
    for (std::size_t k = 0; k < few && i < n; ++k) {
      const auto d = Pieces::piece(p, n, i);
      Out piece[24];  // the most a piece writes: three subparts (WTF-8), 6 units each
      const conversion_result r = convert(p + i, d.length, piece);
      if (r.written > capacity - o) return {i, o, first};
      for (std::size_t u = 0; u < r.written; ++u) out[o + u] = piece[u];
      // Stopped at an error: at the piece's start, or after the character a joined piece begins with.
      if (r.read < d.length) return {i + r.read, o + r.written, kind(r.error, i + r.read)};
      if (first == error_code::none && r.error != error_code::none) first = kind(r.error, i);
      o += r.written;
      i += d.length;
    }
    if (i == n) return {n, o, first};
  }
}

/// utf16le/be_to_utf8, bounded, for units stored in the other byte order: chunks swapped into a
/// buffer, each converted bounded, an error's kind taken from the whole input.
template <class Policy>
conversion_result swapped_utf16_to_utf8_bounded(const char16_t* p, std::size_t n, unsigned char* out,
                                                std::size_t capacity, Policy policy) noexcept {
  const auto kind = [&](error_code e, std::size_t at) noexcept {
    if (e != error_code::incomplete) return e;
    const char16_t two[2] = {swap_bytes(p[at]), at + 1 < n ? swap_bytes(p[at + 1]) : char16_t{0}};
    return decode_utf16_at(two, at + 1 < n ? 2 : 1, 0).error;
  };
  constexpr std::size_t chunk = 256;
  char16_t buf[chunk];
  std::size_t o = 0;
  error_code first = error_code::none;
  for (std::size_t pos = 0; pos < n;) {
    std::size_t len = n - pos < chunk ? n - pos : chunk;
    for (std::size_t k = 0; k < len; ++k) buf[k] = swap_bytes(p[pos + k]);
    if (pos + len < n && (buf[len - 1] & 0xFC00) == 0xD800 && (swap_bytes(p[pos + len]) & 0xFC00) == 0xDC00) --len;
    const conversion_result r = utf16_to_utf8(std::u16string_view(buf, len), out + o, capacity - o, policy);
    if (r.error != error_code::none) {
      if (r.read < len && Policy::stops_on_error) return {pos + r.read, o + r.written, kind(r.error, pos + r.read)};
      if (first == error_code::none) first = kind(r.error, pos + len - 1);  // incomplete: the chunk's last unit
    }
    o += r.written;
    if (r.read < len) return {pos + r.read, o, first};
    pos += len;
  }
  return {n, o, first};
}

}  // namespace detail

// ---- UTF-8 <-> UTF-16 / UTF-32 (transcode.hpp). ------------------------------------------------

/// utf8_to_utf32 writing at most `capacity` units into `out`. Output full: read < size, no error
/// (under strict); call again from `read`.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf32(const Bytes& bytes, char32_t* out, Size capacity, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  const char32_t w = detail::widest_write(policy);
  return detail::convert_bounded<detail::utf8_pieces>(
      detail::as_uchars(s.data), s.size, out, detail::capacity_of(capacity), 1, 4,
      [&](const unsigned char* q, std::size_t m, char32_t* o) {
        return utf8_to_utf32(detail::byte_span_range<unsigned char>{q, m}, o, policy);
      },
      [&](const unsigned char* q, std::size_t m) {
        return detail::kernel_fn<&detail::kernel_table::utf32_length_from_utf8>()(q, m, w);
      });
}

/// utf8_to_utf16 writing at most `capacity` units (a surrogate pair whole or not at all).
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf16(const Bytes& bytes, char16_t* out, Size capacity, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  const char32_t w = detail::widest_write(policy);
  return detail::convert_bounded<detail::utf8_pieces>(
      detail::as_uchars(s.data), s.size, out, detail::capacity_of(capacity), detail::utf16_units(w), 3,
      [&](const unsigned char* q, std::size_t m, char16_t* o) {
        return utf8_to_utf16(detail::byte_span_range<unsigned char>{q, m}, o, policy);
      },
      [&](const unsigned char* q, std::size_t m) {
        return detail::kernel_fn<&detail::kernel_table::utf16_length_from_utf8>()(q, m, w);
      });
}

/// utf16_to_utf8 writing at most `capacity` bytes, whole characters only (WHATWG encodeInto: a
/// fixed byte buffer filled as far as whole characters go, `read` units and `written` bytes).
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf16_to_utf8(std::u16string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  const char32_t w = detail::widest_write(policy);
  const std::size_t widest = detail::utf8_width(w) > 3 ? 4 : 3;
  return detail::convert_bounded<detail::utf16_pieces>(
      in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity), widest, 1,
      [&](const char16_t* q, std::size_t m, unsigned char* o) {
        return utf16_to_utf8(std::u16string_view(q, m), o, policy);
      },
      [&](const char16_t* q, std::size_t m) {
        return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf16>()(q, m, w);
      });
}

/// utf32_to_utf8 writing at most `capacity` bytes, whole characters only.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf32_to_utf8(std::u32string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  const char32_t w = detail::widest_write(policy);
  return detail::convert_bounded<detail::utf32_pieces>(
      in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity), 4, 1,
      [&](const char32_t* q, std::size_t m, unsigned char* o) {
        return utf32_to_utf8(std::u32string_view(q, m), o, policy);
      },
      [&](const char32_t* q, std::size_t m) {
        return detail::kernel_fn<&detail::kernel_table::utf8_length_from_utf32>()(q, m, w);
      });
}

// ---- UTF-16 <-> UTF-32 and UTF-16 in a stated byte order (utf16.hpp). -------------------------

/// utf16_to_utf32 writing at most `capacity` units.
template <class Policy = strict, detail::enable_if_policy<Policy> = 0, class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf16_to_utf32(std::u16string_view in, char32_t* out, Size capacity, Policy policy = {}) noexcept {
  return detail::convert_bounded<detail::utf16_pieces>(
      in.data(), in.size(), out, detail::capacity_of(capacity), 1, 2,
      [&](const char16_t* q, std::size_t m, char32_t* o) {
        return utf16_to_utf32(std::u16string_view(q, m), o, policy);
      },
      [](const char16_t* q, std::size_t m) { return count_utf16(std::u16string_view(q, m)); });
}

/// utf32_to_utf16 writing at most `capacity` units (a surrogate pair whole or not at all).
template <class Policy = strict, detail::enable_if_policy<Policy> = 0, class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf32_to_utf16(std::u32string_view in, char16_t* out, Size capacity, Policy policy = {}) noexcept {
  const char32_t w = detail::widest_write(policy);
  return detail::convert_bounded<detail::utf32_pieces>(
      in.data(), in.size(), out, detail::capacity_of(capacity), 2, 1,
      [&](const char32_t* q, std::size_t m, char16_t* o) {
        return utf32_to_utf16(std::u32string_view(q, m), o, policy);
      },
      [&](const char32_t* q, std::size_t m) { return utf16_length_from_utf32(std::u32string_view(q, m), replace{w}); });
}

/// utf8_to_utf16le writing at most `capacity` units.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf16le(const Bytes& bytes, char16_t* out, Size capacity, Policy policy = {}) noexcept {
  const conversion_result r = utf8_to_utf16(bytes, out, detail::capacity_of(capacity), policy);
  if constexpr (!detail::host_little_endian) change_endianness_utf16(std::u16string_view(out, r.written), out);
  return r;
}

/// utf8_to_utf16be writing at most `capacity` units.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf16be(const Bytes& bytes, char16_t* out, Size capacity, Policy policy = {}) noexcept {
  const conversion_result r = utf8_to_utf16(bytes, out, detail::capacity_of(capacity), policy);
  if constexpr (detail::host_little_endian) change_endianness_utf16(std::u16string_view(out, r.written), out);
  return r;
}

/// utf16le_to_utf8 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf16le_to_utf8(std::u16string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  if constexpr (detail::host_little_endian)
    return utf16_to_utf8(in, out, detail::capacity_of(capacity), policy);
  else
    return detail::swapped_utf16_to_utf8_bounded(in.data(), in.size(), detail::as_uchars(out),
                                                 detail::capacity_of(capacity), policy);
}

/// utf16be_to_utf8 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf16be_to_utf8(std::u16string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  if constexpr (!detail::host_little_endian)
    return utf16_to_utf8(in, out, detail::capacity_of(capacity), policy);
  else
    return detail::swapped_utf16_to_utf8_bounded(in.data(), in.size(), detail::as_uchars(out),
                                                 detail::capacity_of(capacity), policy);
}

/// utf8_to_utf32le writing at most `capacity` units.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf32le(const Bytes& bytes, char32_t* out, Size capacity, Policy policy = {}) noexcept {
  const conversion_result r = utf8_to_utf32(bytes, out, detail::capacity_of(capacity), policy);
  if constexpr (!detail::host_little_endian) change_endianness_utf32(std::u32string_view(out, r.written), out);
  return r;
}

/// utf8_to_utf32be writing at most `capacity` units.
template <class Policy = strict, class Bytes, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_utf32be(const Bytes& bytes, char32_t* out, Size capacity, Policy policy = {}) noexcept {
  const conversion_result r = utf8_to_utf32(bytes, out, detail::capacity_of(capacity), policy);
  if constexpr (detail::host_little_endian) change_endianness_utf32(std::u32string_view(out, r.written), out);
  return r;
}

namespace detail {
/// utf32le/be_to_utf8 (Little), bounded.
template <bool Little, class Policy>
conversion_result utf32_in_order_to_utf8_bounded(std::u32string_view in, unsigned char* out, std::size_t capacity,
                                                 Policy policy) noexcept {
  if constexpr (Little == host_little_endian) {
    return utf32_to_utf8(in, out, capacity, policy);
  } else {
    const char32_t w = widest_write(policy);
    return convert_bounded<swapped_utf32_pieces>(
        in.data(), in.size(), out, capacity, 4, 1,
        [&](const char32_t* q, std::size_t m, unsigned char* o) {
          return utf_in_order_to_utf8<Little>(std::u32string_view(q, m), o, policy);
        },
        [&](const char32_t* q, std::size_t m) {
          return utf8_length_from_utf_in_order<Little>(std::u32string_view(q, m), replace{w});
        });
  }
}
}  // namespace detail

/// utf32le_to_utf8 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf32le_to_utf8(std::u32string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  return detail::utf32_in_order_to_utf8_bounded<true>(in, detail::as_uchars(out), detail::capacity_of(capacity),
                                                      policy);
}

/// utf32be_to_utf8 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf32be_to_utf8(std::u32string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  return detail::utf32_in_order_to_utf8_bounded<false>(in, detail::as_uchars(out), detail::capacity_of(capacity),
                                                       policy);
}

// ---- The dialects (transcode.hpp), the capacity after `out` and the dialect tags last. --------
// A dialect's character (a CESU-8 pair, a WTF-8 surrogate, a legacy 6-byte form) is never split,
// nor a WTF-8 lead surrogate from a refused ED B0-BF after it (read alone, ED B0 could be a trail
// surrogate), nor, in WTF-8 output, a lead surrogate from the trail surrogate it joins.

/// Dialect bytes to UTF-32, at most `capacity` units (utf8_to_utf32(bytes, out, 64, replace{},
/// dialect::cesu8{})).
template <class Policy, class Dialect, class Bytes, class Size, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_capacity<Size> = 0, detail::enable_if_policy<Policy> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf8_to_utf32(const Bytes& bytes, char32_t* out, Size capacity, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf8_to_utf32(bytes, out, detail::capacity_of(capacity), policy);
  } else {
    const auto s = detail::as_span(bytes);
    const replace w{detail::widest_write(policy)};
    return detail::convert_bounded<detail::dialect_pieces<Dialect, false, false>>(
        detail::as_uchars(s.data), s.size, out, detail::capacity_of(capacity), 1, 6,
        [&](const unsigned char* q, std::size_t m, char32_t* o) {
          return detail::dialect_to_utf<Dialect>(q, m, o, policy);
        },
        [&](const unsigned char* q, std::size_t m) {
          return detail::dialect_to_utf<Dialect>(q, m, static_cast<char32_t*>(nullptr), w).written;
        });
  }
}

/// Dialect bytes to UTF-16, at most `capacity` units (a surrogate pair whole or not at all).
template <class Policy, class Dialect, class Bytes, class Size, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_capacity<Size> = 0, detail::enable_if_policy<Policy> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf8_to_utf16(const Bytes& bytes, char16_t* out, Size capacity, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf8_to_utf16(bytes, out, detail::capacity_of(capacity), policy);
  } else {
    const auto s = detail::as_span(bytes);
    const replace w{detail::widest_write(policy)};
    return detail::convert_bounded<detail::dialect_pieces<Dialect, false, false>>(
        detail::as_uchars(s.data), s.size, out, detail::capacity_of(capacity),
        detail::utf16_units(w.replacement_value()), 6,
        [&](const unsigned char* q, std::size_t m, char16_t* o) {
          return detail::dialect_to_utf<Dialect>(q, m, o, policy);
        },
        [&](const unsigned char* q, std::size_t m) {
          return detail::dialect_to_utf<Dialect>(q, m, static_cast<char16_t*>(nullptr), w).written;
        });
  }
}

/// UTF-16 to dialect bytes, at most `capacity` bytes.
template <class Policy, class Dialect, class Byte, class Size, detail::enable_if_byte<Byte> = 0,
          detail::enable_if_capacity<Size> = 0, detail::enable_if_policy<Policy> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf16_to_utf8(std::u16string_view in, Byte* out, Size capacity, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf16_to_utf8(in, out, detail::capacity_of(capacity), policy);
  } else {
    const replace w{detail::widest_write(policy)};
    const std::size_t width = detail::dialect_traits<Dialect>::width(w.replacement_value());
    const std::size_t widest = width > 3 ? width : 3;
    return detail::convert_bounded<detail::utf16_pieces>(
        in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity), widest, 1,
        [&](const char16_t* q, std::size_t m, unsigned char* o) {
          return detail::utf_to_dialect<Dialect>(q, m, o, policy);
        },
        [&](const char16_t* q, std::size_t m) { return detail::utf_to_dialect<Dialect>(q, m, nullptr, w).written; });
  }
}

/// UTF-32 to dialect bytes, at most `capacity` bytes.
template <class Policy, class Dialect, class Byte, class Size, detail::enable_if_byte<Byte> = 0,
          detail::enable_if_capacity<Size> = 0, detail::enable_if_policy<Policy> = 0,
          detail::enable_if_dialect<Dialect> = 0>
conversion_result utf32_to_utf8(std::u32string_view in, Byte* out, Size capacity, Policy policy, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return utf32_to_utf8(in, out, detail::capacity_of(capacity), policy);
  } else {
    using pieces =
        std::conditional_t<std::is_same_v<Dialect, dialect::wtf8>,
                           detail::utf32_joined_pieces<detail::skips_errors_v<Policy>>, detail::utf32_pieces>;
    const replace w{detail::widest_write(policy)};
    return detail::convert_bounded<pieces>(
        in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity),
        detail::dialect_traits<Dialect>::max_length, 1,
        [&](const char32_t* q, std::size_t m, unsigned char* o) {
          return detail::utf_to_dialect<Dialect>(q, m, o, policy);
        },
        [&](const char32_t* q, std::size_t m) { return detail::utf_to_dialect<Dialect>(q, m, nullptr, w).written; });
  }
}

/// Dialect-From bytes to dialect-To bytes, at most `capacity` bytes (recode(bytes, out, 64,
/// replace{}, dialect::mutf8{}, dialect::utf8{})).
template <class Policy, class From, class To, class Bytes, class Byte, class Size, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_byte<Byte> = 0, detail::enable_if_capacity<Size> = 0, detail::enable_if_policy<Policy> = 0,
          detail::enable_if_dialect<From> = 0, detail::enable_if_dialect<To> = 0>
conversion_result recode(const Bytes& bytes, Byte* out, Size capacity, Policy policy, From, To) noexcept {
  const auto s = detail::as_span(bytes);
  const replace w{detail::widest_write(policy)};
  // Per input byte: 00 may become C0 80 (MUTF-8), a 4-byte character a 6-byte pair, one byte a replacement.
  const std::size_t width = detail::dialect_traits<To>::width(w.replacement_value());
  const std::size_t widest = width > 2 ? width : 2;
  return detail::convert_bounded<
      detail::dialect_pieces<From, std::is_same_v<To, dialect::wtf8>, detail::skips_errors_v<Policy>>>(
      detail::as_uchars(s.data), s.size, detail::as_uchars(out), detail::capacity_of(capacity), widest, 6,
      [&](const unsigned char* q, std::size_t m, unsigned char* o) {
        return detail::recode_scalar<From, To>(q, m, o, policy);
      },
      [&](const unsigned char* q, std::size_t m) { return detail::recode_scalar<From, To>(q, m, nullptr, w).written; });
}

// ---- Latin-1 (latin1.hpp). -------------------------------------------------------------------

/// latin1_to_utf8 writing at most `capacity` bytes (80..FF take two); never fails.
template <class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_byte<Byte> = 0, class Size,
          detail::enable_if_capacity<Size> = 0>
conversion_result latin1_to_utf8(const Bytes& bytes, Byte* out, Size capacity) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::convert_bounded<detail::latin1_pieces>(
      detail::as_uchars(s.data), s.size, detail::as_uchars(out), detail::capacity_of(capacity), 2, 1,
      [](const unsigned char* q, std::size_t m, unsigned char* o) {
        return conversion_result{m, latin1_to_utf8(detail::byte_span_range<unsigned char>{q, m}, o), error_code::none};
      },
      [](const unsigned char* q, std::size_t m) {
        return utf8_length_from_latin1(detail::byte_span_range<unsigned char>{q, m});
      });
}

/// latin1_to_utf16 writing at most `capacity` units; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0, class Size, detail::enable_if_capacity<Size> = 0>
conversion_result latin1_to_utf16(const Bytes& bytes, char16_t* out, Size capacity) noexcept {
  const auto s = detail::as_span(bytes);
  const std::size_t m = s.size < detail::capacity_of(capacity) ? s.size : detail::capacity_of(capacity);
  return {m, latin1_to_utf16(detail::byte_span_range<unsigned char>{detail::as_uchars(s.data), m}, out),
          error_code::none};
}

/// latin1_to_utf32 writing at most `capacity` units; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0, class Size, detail::enable_if_capacity<Size> = 0>
conversion_result latin1_to_utf32(const Bytes& bytes, char32_t* out, Size capacity) noexcept {
  const auto s = detail::as_span(bytes);
  const std::size_t m = s.size < detail::capacity_of(capacity) ? s.size : detail::capacity_of(capacity);
  return {m, latin1_to_utf32(detail::byte_span_range<unsigned char>{detail::as_uchars(s.data), m}, out),
          error_code::none};
}

/// utf8_to_latin1 writing at most `capacity` bytes.
template <class Policy = strict, class Bytes, class Byte, detail::enable_if_bytes<Bytes> = 0,
          detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0, class Size,
          detail::enable_if_capacity<Size> = 0>
conversion_result utf8_to_latin1(const Bytes& bytes, Byte* out, Size capacity, Policy policy = {}) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::convert_bounded<detail::utf8_pieces>(
      detail::as_uchars(s.data), s.size, detail::as_uchars(out), detail::capacity_of(capacity), 1, 4,
      [&](const unsigned char* q, std::size_t m, unsigned char* o) {
        return utf8_to_latin1(detail::byte_span_range<unsigned char>{q, m}, o, policy);
      },
      [](const unsigned char* q, std::size_t m) {
        return detail::kernel_fn<&detail::kernel_table::utf32_length_from_utf8>()(q, m, replacement_character);
      });
}

/// utf16_to_latin1 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf16_to_latin1(std::u16string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  return detail::convert_bounded<detail::utf16_pieces>(
      in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity), 1, 2,
      [&](const char16_t* q, std::size_t m, unsigned char* o) {
        return utf16_to_latin1(std::u16string_view(q, m), o, policy);
      },
      [](const char16_t* q, std::size_t m) { return count_utf16(std::u16string_view(q, m)); });
}

/// utf32_to_latin1 writing at most `capacity` bytes.
template <class Policy = strict, class Byte, detail::enable_if_byte<Byte> = 0, detail::enable_if_policy<Policy> = 0,
          class Size, detail::enable_if_capacity<Size> = 0>
conversion_result utf32_to_latin1(std::u32string_view in, Byte* out, Size capacity, Policy policy = {}) noexcept {
  return detail::convert_bounded<detail::utf32_pieces>(
      in.data(), in.size(), detail::as_uchars(out), detail::capacity_of(capacity), 1, 1,
      [&](const char32_t* q, std::size_t m, unsigned char* o) {
        return utf32_to_latin1(std::u32string_view(q, m), o, policy);
      },
      [](const char32_t*, std::size_t m) { return m; });
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/bounded.hpp ----
// ---- begin utf8dfa/count.hpp ----
// utf8dfa: counting code points.
#ifndef UTF8DFA_COUNT_HPP
#define UTF8DFA_COUNT_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// Code points in well-formed UTF-8, at memory speed: the bytes that are not continuation bytes.
/// It does not validate; on ill-formed input use utf32_length_from_utf8 (the lossy decode's count).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::size_t count_code_points(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  return detail::kernel_fn<&detail::kernel_table::count_leads>()(detail::as_uchars(s.data), s.size);
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/count.hpp ----
// ---- begin utf8dfa/decode.hpp ----
// utf8dfa: decoding one character at a time, forwards (Go's DecodeRune) and backwards (DecodeLastRune).
#ifndef UTF8DFA_DECODE_HPP
#define UTF8DFA_DECODE_HPP


namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// The last character or maximal ill-formed subpart of [p, p+end): exactly the forward
/// segmentation read backwards. Every non-continuation byte starts a segment, so the segment that
/// ends at `end` starts at the last such byte within four bytes if decoding from there reaches
/// `end`, and is the single byte before `end` otherwise.
template <class T>
constexpr decoded decode_before(const T* p, std::size_t end) noexcept {
  const std::size_t lo = end >= 4 ? end - 4 : 0;
  for (std::size_t j = end; j-- > lo;) {
    if (!is_continuation(octet(p[j]))) {
      const decoded d = decode_at(p, end, j);
      if (j + d.length == end) return d;
      break;
    }
  }
  return decode_at(p, end, end - 1);
}

/// The same segment when [p, p+size) goes on after `end`: if the input continues and its byte at
/// `end` cuts that segment short, the kind is the one the forward walk reports (too_short,
/// overlong, ...) rather than incomplete.
template <class T>
constexpr decoded decode_before(const T* p, std::size_t end, std::size_t size) noexcept {
  decoded d = decode_before(p, end);
  if (d.error == error_code::incomplete && end < size) {
    const decoded whole = decode_at(p, size, end - d.length);
    if (whole.length == d.length) d.error = whole.error;
  }
  return d;
}

/// decode_before in a dialect. The window is the dialect's longest character. A lead byte starts
/// a segment, except (pair dialects) an ED that follows ED A0-AF 80-BF: the walk from that first
/// ED always takes it as the second half of a pair. The segment found starts where the state
/// before it is known (boundary_before).
template <class D, class T>
constexpr decoded decode_before_in(const T* p, std::size_t end) noexcept {
  using M = machine_of<D>;
  constexpr std::size_t window = dialect_traits<D>::max_length;
  const std::size_t lo = end >= window ? end - window : 0;
  for (std::size_t j = end; j-- > lo;) {
    if (!is_continuation(octet(p[j]))) {
      if constexpr (M::pairs) {
        if (j >= 3 && octet(p[j]) == 0xED && octet(p[j - 3]) == 0xED && octet(p[j - 2]) >= 0xA0 &&
            octet(p[j - 2]) <= 0xAF && is_continuation(octet(p[j - 1])))
          j -= 3;
      }
      typename M::state at = boundary_before<D>(p, j);
      const decoded d = decode_with<M>(p, end, j, at);
      if (j + d.length == end) return d;
      break;
    }
  }
  typename M::state at = boundary_before<D>(p, end - 1);
  return decode_with<M>(p, end, end - 1, at);
}

/// decode_before in a dialect when the input goes on after `end` (as decode_before above).
template <class D, class T>
constexpr decoded decode_before_in(const T* p, std::size_t end, std::size_t size) noexcept {
  decoded d = decode_before_in<D>(p, end);
  if (d.error == error_code::incomplete && end < size) {
    typename machine_of<D>::state at = boundary_before<D>(p, end - d.length);
    const decoded whole = decode_with<machine_of<D>>(p, size, end - d.length, at);
    if (whole.length == d.length) d.error = whole.error;
  }
  return d;
}

}  // namespace detail

/// Decodes the character at byte `pos`; on error U+FFFD with the subpart's length and kind.
/// At or past the end: {U+FFFD, 0, incomplete}.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr decoded decode_next(const Bytes& bytes, std::size_t pos) noexcept {
  const auto s = detail::as_span(bytes);
  if (pos >= s.size) return {replacement_character, 0, error_code::incomplete};
  return detail::decode_at(s.data, s.size, pos);
}

/// Decodes the character that ends just before byte `end`, segmenting [0, end) as decode_next
/// does, so that walking back from a boundary gives decode_next's segments (kinds included) in
/// reverse. At the start: {U+FFFD, 0, incomplete}.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr decoded decode_prev(const Bytes& bytes, std::size_t end) noexcept {
  const auto s = detail::as_span(bytes);
  if (end > s.size) end = s.size;
  if (end == 0) return {replacement_character, 0, error_code::incomplete};
  return detail::decode_before(s.data, end, s.size);
}

/// decode_next in a dialect (decode_next(bytes, pos, dialect::cesu8{})). `pos` must be a character
/// boundary; in WTF-8 the character before it decides whether a trail surrogate may start there.
/// Values are those the dialect encodes: surrogates (WTF-8, legacy), up to 0x7FFFFFFF (legacy).
template <class Bytes, class Dialect, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr decoded decode_next(const Bytes& bytes, std::size_t pos, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return decode_next(bytes, pos);
  } else {
    const auto s = detail::as_span(bytes);
    if (pos >= s.size) return {replacement_character, 0, error_code::incomplete};
    auto at = detail::boundary_before<Dialect>(s.data, pos);
    return detail::decode_with<detail::machine_of<Dialect>>(s.data, s.size, pos, at);
  }
}

/// decode_prev in a dialect: decode_next's segments, walking back from a boundary.
template <class Bytes, class Dialect, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr decoded decode_prev(const Bytes& bytes, std::size_t end, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return decode_prev(bytes, end);
  } else {
    const auto s = detail::as_span(bytes);
    if (end > s.size) end = s.size;
    if (end == 0) return {replacement_character, 0, error_code::incomplete};
    return detail::decode_before_in<Dialect>(s.data, end, s.size);
  }
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/decode.hpp ----
// ---- begin utf8dfa/detect.hpp ----
// utf8dfa: byte order marks and encoding detection. detect_bom reads the mark that starts some bytes;
// detect_encodings says which of the encodings the library reads the bytes are well-formed in, with
// the library's own validators (UTF-8 through the run-time dispatched kernels). Neither guesses: bytes
// valid in several encodings are reported valid in each, and the caller (or a BOM) decides.
#ifndef UTF8DFA_DETECT_HPP
#define UTF8DFA_DETECT_HPP


// ---- begin utf8dfa/validate.hpp ----
// utf8dfa: validation of UTF-8 against RFC 3629, with where and why it fails.
#ifndef UTF8DFA_VALIDATE_HPP
#define UTF8DFA_VALIDATE_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// True when the 16 bytes at p hold no 00 (p holds only ASCII there: x + 7F sets bit 7 unless x is 0).
UTF8DFA_ALWAYS_INLINE bool no_nul16(const unsigned char* p) noexcept {
  const std::uint64_t a = load64(p), b = load64(p + 8);
  return (((a + 0x7F7F7F7F7F7F7F7Full) & (b + 0x7F7F7F7F7F7F7F7Full)) & high_bits) == high_bits;
}

/// Run-time validation in a dialect other than utf8: long input first as two streams
/// (dialect_two_streams_valid, which can only say "well-formed"); else ASCII skipped 16 bytes at a
/// time at the plain boundary (where 00 is not a character, only blocks without it), the rest
/// through the shift form of the dialect's table in blocks of 64 bytes (reject absorbs, so one test
/// per block). Only when that fails, or ends inside a character, does the character-by-character
/// walk run, from the last block that began at a boundary, to say where and why.
template <class D>
validation_result validate_dialect(const unsigned char* p, std::size_t n) noexcept {
  using M = machine_of<D>;
  if (n >= 1024 && dialect_two_streams_valid<M, dialect_traits<D>::nul_byte>(p, n)) return {n, 0, error_code::none};
  std::uint64_t s4 = 4 * std::uint64_t{M::start};  // the state, shift form
  typename M::state safe_state = M::start;
  std::size_t i = 0, safe = 0;  // a block start at a boundary, and the state there
  for (;;) {
    auto st = static_cast<typename M::state>(s4 >> 2);
    if (st == M::start)
      while (n - i >= 16 && ascii16(p + i) && (dialect_traits<D>::nul_byte || no_nul16(p + i))) i += 16;
    if (M::boundary(st)) {
      safe = i;
      safe_state = st;
    }
    const std::size_t end = n - i < 64 ? n : i + 64;
    for (; i < end; ++i) s4 = M::shift_step(s4, p[i]);
    st = static_cast<typename M::state>(s4 >> 2);
    if (UTF8DFA_UNLIKELY(M::rejected(st) || (i == n && !M::boundary(st)))) break;
    if (i == n) return {n, 0, error_code::none};
  }
  for (std::size_t pos = safe; pos < n;) {  // the exact first error
    const decoded d = decode_with<M>(p, n, pos, safe_state);
    if (d.error != error_code::none)
      return {pos, d.error == error_code::incomplete ? 0u : std::size_t{d.length}, d.error};
    pos += d.length;
  }
  return {n, 0, error_code::none};  // not reached: the walk meets the error the table met
}

}  // namespace detail

/// Checks `bytes`; on failure says where the first maximal ill-formed subpart starts, its length and kind.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr validation_result validate(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::validate_from(s.data, s.size, 0);
  return detail::kernel_fn<&detail::kernel_table::validate>()(detail::as_uchars(s.data), s.size);
}

/// Same, for a pointer and a length.
template <class T, detail::enable_if_byte<T> = 0>
constexpr validation_result validate(const T* data, std::size_t size) noexcept {
  return validate(detail::byte_span_range<T>{data, size});
}

/// True when `bytes` is well-formed UTF-8.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr bool is_valid(const Bytes& bytes) noexcept {
  return validate(bytes).error == error_code::none;
}

/// Same, for a pointer and a length.
template <class T, detail::enable_if_byte<T> = 0>
constexpr bool is_valid(const T* data, std::size_t size) noexcept {
  return validate(data, size).error == error_code::none;
}

/// Checks `bytes` in a dialect (validate(bytes, dialect::wtf8{})); dialect::utf8 is validate(bytes).
/// Error lengths reach 5 in CESU-8/MUTF-8 (a broken surrogate pair) and 5 in legacy.
template <class Bytes, class Dialect, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr validation_result validate(const Bytes& bytes, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>) {
    return validate(bytes);
  } else {
    const auto s = detail::as_span(bytes);
    if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::validate_with<detail::machine_of<Dialect>>(s.data, s.size);
    return detail::validate_dialect<Dialect>(detail::as_uchars(s.data), s.size);
  }
}

/// Same, for a pointer and a length.
template <class T, class Dialect, detail::enable_if_byte<T> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr validation_result validate(const T* data, std::size_t size, Dialect d) noexcept {
  return validate(detail::byte_span_range<T>{data, size}, d);
}

/// True when `bytes` is well-formed in the dialect.
template <class Bytes, class Dialect, detail::enable_if_bytes<Bytes> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr bool is_valid(const Bytes& bytes, Dialect d) noexcept {
  return validate(bytes, d).error == error_code::none;
}

/// Same, for a pointer and a length.
template <class T, class Dialect, detail::enable_if_byte<T> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr bool is_valid(const T* data, std::size_t size, Dialect d) noexcept {
  return validate(data, size, d).error == error_code::none;
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/validate.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// The encodings detect_bom and detect_encodings name (`none`: no BOM).
enum class encoding : std::uint8_t { none, utf8, utf16le, utf16be, utf32le, utf32be, latin1 };

/// A byte order mark: which encoding it announces and its length in bytes ({none, 0} when there is none).
struct bom_result {
  utf8dfa::encoding encoding;
  std::size_t length;
};

/// The byte order mark `bytes` starts with: EF BB BF (UTF-8, 3 bytes), FF FE 00 00 (UTF-32LE, 4),
/// 00 00 FE FF (UTF-32BE, 4), FF FE (UTF-16LE, 2), FE FF (UTF-16BE, 2). FF FE 00 00 is read as
/// UTF-32LE, not as UTF-16LE's mark followed by U+0000; a mark cut short is no mark ({none, 0}).
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
constexpr bom_result detect_bom(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  const auto starts = [&s](unsigned b0, unsigned b1, unsigned b2, unsigned b3, std::size_t len) {
    const unsigned b[4] = {b0, b1, b2, b3};
    for (std::size_t i = 0; i < len; ++i)
      if (i >= s.size || detail::octet(s.data[i]) != b[i]) return false;
    return true;
  };
  if (starts(0xEF, 0xBB, 0xBF, 0, 3)) return {encoding::utf8, 3};
  if (starts(0xFF, 0xFE, 0x00, 0x00, 4)) return {encoding::utf32le, 4};
  if (starts(0x00, 0x00, 0xFE, 0xFF, 4)) return {encoding::utf32be, 4};
  if (starts(0xFF, 0xFE, 0, 0, 2)) return {encoding::utf16le, 2};
  if (starts(0xFE, 0xFF, 0, 0, 2)) return {encoding::utf16be, 2};
  return {encoding::none, 0};
}

/// Same, for a pointer and a length.
template <class T, detail::enable_if_byte<T> = 0>
constexpr bom_result detect_bom(const T* data, std::size_t size) noexcept {
  return detect_bom(detail::byte_span_range<T>{data, size});
}

/// A set of encodings (a bitmask): what detect_encodings returns.
class encoding_set {
 public:
  /// The empty set.
  constexpr encoding_set() noexcept = default;
  /// True when `e` is in the set (never for encoding::none).
  constexpr bool contains(encoding e) const noexcept { return (bits_ & bit(e)) != 0; }
  /// Adds `e` (encoding::none adds nothing).
  constexpr encoding_set& insert(encoding e) noexcept {
    bits_ = static_cast<std::uint8_t>(bits_ | bit(e));
    return *this;
  }
  constexpr bool empty() const noexcept { return bits_ == 0; }
  /// Number of encodings in the set.
  constexpr std::size_t size() const noexcept { return detail::popcount64(bits_); }
  /// The set as bits: bit k stands for the encoding of value k.
  constexpr std::uint8_t bits() const noexcept { return bits_; }
  friend constexpr bool operator==(encoding_set a, encoding_set b) noexcept { return a.bits_ == b.bits_; }
  friend constexpr bool operator!=(encoding_set a, encoding_set b) noexcept { return a.bits_ != b.bits_; }

 private:
  static constexpr std::uint8_t bit(encoding e) noexcept {
    return e == encoding::none ? std::uint8_t{0} : static_cast<std::uint8_t>(1u << static_cast<unsigned>(e));
  }
  std::uint8_t bits_ = 0;
};

/// The encodings `bytes` is well-formed in: utf8 (validate), utf16le / utf16be (an even length, no
/// unpaired surrogate), utf32le / utf32be (a length that is a multiple of 4, every unit a scalar
/// value), and latin1 always. A BOM is data here (U+FEFF is valid in each); empty input is in all six.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
encoding_set detect_encodings(const Bytes& bytes) noexcept {
  const auto s = detail::as_span(bytes);
  const unsigned char* p = detail::as_uchars(s.data);
  const std::size_t n = s.size;
  encoding_set set;
  set.insert(encoding::latin1);
  if (is_valid(bytes)) set.insert(encoding::utf8);
  if (n % 2 == 0) {
    if (detail::validate_stored<true, char16_t>(p, n / 2)) set.insert(encoding::utf16le);
    if (detail::validate_stored<false, char16_t>(p, n / 2)) set.insert(encoding::utf16be);
  }
  if (n % 4 == 0) {
    if (detail::validate_stored<true, char32_t>(p, n / 4)) set.insert(encoding::utf32le);
    if (detail::validate_stored<false, char32_t>(p, n / 4)) set.insert(encoding::utf32be);
  }
  return set;
}

/// Same, for a pointer and a length.
template <class T, detail::enable_if_byte<T> = 0>
encoding_set detect_encodings(const T* data, std::size_t size) noexcept {
  return detect_encodings(detail::byte_span_range<T>{data, size});
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/detect.hpp ----
// ---- begin utf8dfa/encode.hpp ----
// utf8dfa: encoding one Unicode scalar value as UTF-8 (RFC 3629 section 3).
#ifndef UTF8DFA_ENCODE_HPP
#define UTF8DFA_ENCODE_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// True for U+0000..U+D7FF and U+E000..U+10FFFF: the values UTF-8 can encode.
constexpr bool is_scalar_value(char32_t cp) noexcept {
  return cp < 0xD800 || (cp > 0xDFFF && cp <= 0x10FFFF);
}

/// Bytes needed to encode `cp` (1..4), or 0 for a surrogate or a value above 0x10FFFF.
constexpr std::size_t encoded_length(char32_t cp) noexcept {
  return is_scalar_value(cp) ? detail::utf8_width(cp) : 0;
}

/// Writes `cp` to out[0..3]; returns the byte count, or 0 (writing nothing) for a surrogate or > 0x10FFFF.
template <class Byte, detail::enable_if_byte<Byte> = 0>
constexpr std::size_t encode(char32_t cp, Byte* out4) noexcept {
  return is_scalar_value(cp) ? detail::put_utf8(out4, cp) : 0;
}

/// True when the dialect can encode `cp`: scalar values (utf8, cesu8, mutf8), up to 0x10FFFF with
/// surrogates (wtf8), up to 0x7FFFFFFF (legacy).
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
constexpr bool is_encodable(char32_t cp, Dialect) noexcept {
  return detail::dialect_traits<Dialect>::encodable(cp);
}

/// Bytes the dialect's form of `cp` takes (1..6), or 0 when it cannot encode it.
template <class Dialect, detail::enable_if_dialect<Dialect> = 0>
constexpr std::size_t encoded_length(char32_t cp, Dialect) noexcept {
  return detail::dialect_traits<Dialect>::encodable(cp) ? detail::dialect_traits<Dialect>::width(cp) : 0;
}

/// Writes the dialect's form of `cp` to out[0..5] (encode(cp, out, dialect::mutf8{})); returns the
/// byte count, or 0 (writing nothing) when the dialect cannot encode it. A WTF-8 caller pairing
/// surrogates itself must not write a lead surrogate before a trail one (see utf16_to_utf8).
template <class Byte, class Dialect, detail::enable_if_byte<Byte> = 0, detail::enable_if_dialect<Dialect> = 0>
constexpr std::size_t encode(char32_t cp, Byte* out6, Dialect) noexcept {
  if constexpr (detail::is_strict_v<Dialect>)
    return encode(cp, out6);
  else
    return detail::dialect_traits<Dialect>::encodable(cp) ? detail::dialect_traits<Dialect>::put(out6, cp) : 0;
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/encode.hpp ----
// ---- begin utf8dfa/iterator.hpp ----
// utf8dfa: code_point_iterator, a char32_t iterator over UTF-8 bytes.
//
// It yields the segmentation of decode_next: one code point per well-formed character and one
// U+FFFD per maximal ill-formed subpart. Backwards it yields the same sequence in reverse order
// (decode_prev's segmentation). Over contiguous bytes it runs detail::decode_at / decode_before;
// over any other iterator it runs the same DFA (detail::step) one byte at a time, never reading
// a byte before comparing its position with the end, and never consuming the byte that ends an
// ill-formed subpart (so single-pass iterators such as std::istreambuf_iterator work).
#ifndef UTF8DFA_ITERATOR_HPP
#define UTF8DFA_ITERATOR_HPP

#include <iterator>


#if UTF8DFA_HAS_RANGES
#include <memory>  // std::to_address
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

template <class It>
using iter_category_t = typename std::iterator_traits<It>::iterator_category;

/// At least a forward iterator (multi-pass: positions can be kept and revisited).
template <class It>
inline constexpr bool is_forward_iter_v = std::is_base_of_v<std::forward_iterator_tag, iter_category_t<It>>;

/// At least a bidirectional iterator.
template <class It>
inline constexpr bool is_bidi_iter_v = std::is_base_of_v<std::bidirectional_iterator_tag, iter_category_t<It>>;

/// Iterators over contiguous memory, read through a pointer: any pointer, and in C++20 every
/// std::contiguous_iterator.
template <class It>
inline constexpr bool is_contiguous_iter_v =
#if UTF8DFA_HAS_RANGES
    std::contiguous_iterator<It>;
#else
    std::is_pointer_v<It>;
#endif

template <class It>
constexpr auto to_pointer(const It& it) noexcept {
#if UTF8DFA_HAS_RANGES
  return std::to_address(it);
#else
  return it;
#endif
}

/// Decodes the character or maximal ill-formed subpart at `it` (it != last) and moves `it` past
/// it, on machine M entering in boundary state `at`: decode_iter, through a pointer when the input
/// is contiguous with a known end.
template <class M, class It, class Sent>
constexpr decoded decode_advance(It& it, const Sent& last, typename M::state& at) {
  if constexpr (is_contiguous_iter_v<It> && std::is_same_v<It, Sent>) {
    const decoded d = decode_with<M>(to_pointer(it), static_cast<std::size_t>(last - it), 0, at);
    it += d.length;
    return d;
  } else {
    return decode_iter<M>(it, last, at);
  }
}

/// The same in strict UTF-8.
template <class It, class Sent>
constexpr decoded decode_advance(It& it, const Sent& last) {
  utf8_machine::state at = utf8_machine::start;
  return decode_advance<utf8_machine>(it, last, at);
}

/// The segment that ends at `pos` (first != pos), treating [first, pos) as the whole input, as
/// decode_before does; moves `pos` to its start.
template <class It>
constexpr decoded decode_retreat(const It& first, It& pos) {
  if constexpr (is_contiguous_iter_v<It>) {
    const decoded d = decode_before(to_pointer(first), static_cast<std::size_t>(pos - first));
    pos -= d.length;
    return d;
  } else {
    // The last non-continuation byte within four bytes starts the segment if decoding from it
    // reaches `pos`; otherwise the segment is the single byte before `pos`.
    It j = pos;
    for (int k = 0; k < 4 && j != first; ++k) {
      --j;
      if (!is_continuation(octet(*j))) {
        It t = j;
        const decoded d = decode_advance(t, pos);
        if (t == pos) {
          pos = j;
          return d;
        }
        break;
      }
    }
    It start = pos;
    --start;
    It t = start;
    const decoded d = decode_advance(t, pos);
    pos = start;
    return d;
  }
}

}  // namespace detail

/// A char32_t iterator over the UTF-8 bytes [first, last): one code point per character, one
/// U+FFFD per maximal ill-formed subpart. Bidirectional over bidirectional byte iterators (going
/// back needs the `first` bound), forward over forward ones, single-pass over input iterators.
/// `Sent` may differ from `It` (e.g. null_sentinel_t for C strings). `Dialect` (dialect.hpp) reads
/// the bytes in another dialect; those iterators carry the DFA's boundary state from character to
/// character and are bidirectional only over contiguous bytes (forward over other multi-pass ones).
template <class It, class Sent = It, class Dialect = dialect::utf8>
class code_point_iterator {
  static_assert(detail::is_byte_v<typename std::iterator_traits<It>::value_type>,
                "code_point_iterator reads 1-byte elements (char, unsigned char, char8_t, std::byte)");
  static_assert(detail::is_dialect_v<Dialect>, "Dialect is one of the utf8dfa::dialect tags");
  static constexpr bool strict = detail::is_strict_v<Dialect>;
  using machine = detail::machine_of<Dialect>;
  static constexpr bool multipass = detail::is_forward_iter_v<It>;
  static constexpr bool bidirectional = detail::is_bidi_iter_v<It> && (strict || detail::is_contiguous_iter_v<It>);

 public:
  using value_type = char32_t;
  using reference = char32_t;
  using pointer = void;
  using difference_type = std::ptrdiff_t;
  using iterator_category =
      std::conditional_t<bidirectional, std::bidirectional_iterator_tag,
                         std::conditional_t<multipass, std::forward_iterator_tag, std::input_iterator_tag>>;
  using iterator_concept = iterator_category;

  constexpr code_point_iterator() = default;

  /// An iterator at the start of [pos, last); it cannot move before `pos`. For input iterators
  /// this reads the first character.
  constexpr code_point_iterator(It pos, Sent last) : first_(pos), pos_(pos), last_(last) { load(); }

  /// An iterator at `pos`, a character boundary in [first, last), that can move back to `first`.
  template <bool M = multipass, std::enable_if_t<M, int> = 0>
  constexpr code_point_iterator(It first, It pos, Sent last) : first_(first), pos_(pos), last_(last) {
    if constexpr (!strict) {  // the boundary state at pos: what the character before it left
      if (pos_ == last_) {    // the end: nothing to decode
      } else if constexpr (detail::is_contiguous_iter_v<It>) {
        at_ = detail::boundary_before<Dialect>(detail::to_pointer(first_), static_cast<std::size_t>(pos_ - first_));
      } else {
        for (It t = first_; t != pos_;) detail::decode_advance<machine>(t, pos_, at_);
      }
    }
    load();
  }

  /// The current code point, or U+FFFD for an ill-formed subpart. Not at the end.
  constexpr char32_t operator*() const noexcept { return cp_; }

  /// Multi-pass iterators: where the current character starts (the end when at the end).
  /// Input iterators: the position after the current character (the bytes consumed so far).
  constexpr It base() const { return pos_; }

  /// Bytes of the current character or ill-formed subpart (1..4); 0 at the end.
  constexpr std::size_t length() const noexcept { return len_; }

  /// Steps to the next character; at the end it stays there.
  constexpr code_point_iterator& operator++() {
    if constexpr (!strict) at_ = after_;
    if constexpr (multipass) {
      if constexpr (detail::is_contiguous_iter_v<It> ||
                    std::is_base_of_v<std::random_access_iterator_tag, detail::iter_category_t<It>>)
        pos_ += static_cast<difference_type>(len_);
      else
        for (std::uint8_t k = 0; k < len_; ++k) ++pos_;
    }
    load();
    return *this;
  }

  constexpr code_point_iterator operator++(int) {
    code_point_iterator old = *this;
    ++*this;
    return old;
  }

  /// Steps back one character; at the first position it stays there (as ++ stays at the end).
  template <bool B = bidirectional, std::enable_if_t<B, int> = 0>
  constexpr code_point_iterator& operator--() {
    if (pos_ == first_) return *this;
    if constexpr (strict) {
      const decoded d = detail::decode_retreat(first_, pos_);
      cp_ = d.code_point;
      len_ = d.length;
    } else {
      const auto* base = detail::to_pointer(first_);
      const auto end = static_cast<std::size_t>(pos_ - first_);
      const decoded d = detail::decode_before_in<Dialect>(base, end);
      pos_ -= static_cast<difference_type>(d.length);
      cp_ = d.code_point;
      len_ = d.length;
      after_ = at_;
      at_ = detail::boundary_before<Dialect>(base, end - d.length);
    }
    return *this;
  }

  template <bool B = bidirectional, std::enable_if_t<B, int> = 0>
  constexpr code_point_iterator operator--(int) {
    code_point_iterator old = *this;
    --*this;
    return old;
  }

  /// Multi-pass: same position. Single-pass: both at the end or both not (like istreambuf_iterator).
  friend constexpr bool operator==(const code_point_iterator& a, const code_point_iterator& b) {
    if constexpr (multipass)
      return a.pos_ == b.pos_;
    else
      return (a.len_ == 0) == (b.len_ == 0);
  }
  friend constexpr bool operator!=(const code_point_iterator& a, const code_point_iterator& b) { return !(a == b); }

  // Comparisons with a sentinel of another type.
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator==(const code_point_iterator& a, const S& s) {
    return a.at(s);
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator==(const S& s, const code_point_iterator& a) {
    return a.at(s);
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator!=(const code_point_iterator& a, const S& s) {
    return !a.at(s);
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator!=(const S& s, const code_point_iterator& a) {
    return !a.at(s);
  }

 private:
  constexpr bool at(const Sent& s) const {
    if constexpr (multipass)
      return pos_ == s;
    else
      return len_ == 0;
  }

  // Decodes the character at pos_ (multi-pass: pos_ stays at its start; single-pass: pos_ moves past it).
  constexpr void load() {
    if (pos_ == last_) {
      cp_ = 0;
      len_ = 0;
      return;
    }
    decoded d{};
    if constexpr (strict) {
      if constexpr (multipass) {
        It t = pos_;
        d = detail::decode_advance(t, last_);
      } else {
        d = detail::decode_advance(pos_, last_);
      }
    } else {
      typename machine::state st = at_;
      if constexpr (multipass) {
        It t = pos_;
        d = detail::decode_advance<machine>(t, last_, st);
      } else {
        d = detail::decode_advance<machine>(pos_, last_, st);
      }
      after_ = st;
    }
    cp_ = d.code_point;
    len_ = d.length;
  }

  It first_{};
  It pos_{};
  Sent last_{};
  char32_t cp_ = 0;
  std::uint8_t len_ = 0;
  std::uint8_t at_ = 0;     // dialects: the boundary state at pos_ (strict UTF-8 has one)
  std::uint8_t after_ = 0;  // dialects: the boundary state after the current character
};

/// A sentinel for null-terminated byte strings: a pointer equals it when it points at a zero byte.
/// Lets C strings be iterated without a strlen pass.
struct null_sentinel_t {
  template <class T, detail::enable_if_byte<T> = 0>
  friend constexpr bool operator==(const T* p, null_sentinel_t) noexcept {
    return detail::octet(*p) == 0;
  }
  template <class T, detail::enable_if_byte<T> = 0>
  friend constexpr bool operator==(null_sentinel_t, const T* p) noexcept {
    return detail::octet(*p) == 0;
  }
  template <class T, detail::enable_if_byte<T> = 0>
  friend constexpr bool operator!=(const T* p, null_sentinel_t) noexcept {
    return detail::octet(*p) != 0;
  }
  template <class T, detail::enable_if_byte<T> = 0>
  friend constexpr bool operator!=(null_sentinel_t, const T* p) noexcept {
    return detail::octet(*p) != 0;
  }
};

/// The null_sentinel_t value.
inline constexpr null_sentinel_t null_sentinel{};

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/iterator.hpp ----
// ---- begin utf8dfa/output.hpp ----
// utf8dfa: output iterators that encode char32_t code points as UTF-8 or UTF-16.
//
//   std::string s;
//   auto out = std::copy(u.begin(), u.end(), utf8dfa::utf8_output(std::back_inserter(s)));
//   if (!out.result()) ...  // a surrogate or a value above 0x10FFFF was rejected
//
// A value that is not a Unicode scalar value (U+D800..U+DFFF, > U+10FFFF) is an error. Under
// `strict` (the default) nothing is written for it nor for anything after it, and result() says
// how many code points were accepted and why the next was refused. Under `replace` the policy's
// replacement (U+FFFD by default) is written instead and encoding goes on; under `skip` nothing is
// written for it (it still counts as read) and encoding goes on. Output iterators are
// copied by value through algorithms: query the copy the algorithm returns.
//
// The output's code unit must fit the encoding, checked at compile time: utf8_output writes to
// byte types only (not char16_t or char32_t, though they could hold bytes: that is almost always a
// mix-up), utf16_output to integer types holding 0..0xFFFF (not char, not std::int16_t).
#ifndef UTF8DFA_OUTPUT_HPP
#define UTF8DFA_OUTPUT_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

template <class It, class = void>
struct container_value {
  using type = void;
};
template <class It>
struct container_value<It, std::void_t<typename It::container_type::value_type>> {
  using type = typename It::container_type::value_type;
};
template <class It, class = void>
struct stream_char {
  using type = void;
};
template <class It>
struct stream_char<It, std::void_t<typename It::char_type>> {
  using type = typename It::char_type;
};

/// The code-unit type an output iterator takes: its container's value type (back_inserter and
/// friends), its stream's char type (ostreambuf_iterator), its value type (pointers), else `Fallback`.
template <class It, class Fallback>
using output_unit_t = std::conditional_t<
    !std::is_void_v<typename container_value<It>::type>, typename container_value<It>::type,
    std::conditional_t<!std::is_void_v<typename stream_char<It>::type>, typename stream_char<It>::type,
                       std::conditional_t<!std::is_void_v<typename std::iterator_traits<It>::value_type>,
                                          typename std::iterator_traits<It>::value_type, Fallback>>>;

template <class Unit>
constexpr std::size_t encode_utf8_units(char32_t cp, Unit* out) noexcept {
  return put_utf8(out, cp);
}

template <class Unit>
constexpr std::size_t encode_utf16_units(char32_t cp, Unit* out) noexcept {
  if (cp < 0x10000) {
    out[0] = static_cast<Unit>(cp);
    return 1;
  }
  out[0] = static_cast<Unit>(0xD7C0 + (cp >> 10));
  out[1] = static_cast<Unit>(0xDC00 + (cp & 0x3FF));
  return 2;
}

/// Code units utf8_output may write: the byte types (char, signed/unsigned char, char8_t, std::byte).
/// Wider units would hold the bytes losslessly but are refused: UTF-8 into char16_t/char32_t is
/// almost always a mix-up with utf16_output or plain char32_t.
template <class Unit>
inline constexpr bool is_utf8_output_unit_v = is_byte_v<Unit>;

/// Code units utf16_output may write: integer types that hold every value 0..0xFFFF (char16_t,
/// std::uint16_t, char32_t, int, ...). Bytes and std::int16_t would truncate or wrap units.
template <class Unit>
inline constexpr bool is_utf16_output_unit_v =
    std::is_integral_v<Unit> && !std::is_same_v<Unit, bool> &&
    (sizeof(Unit) > 2 || (sizeof(Unit) == 2 && std::is_unsigned_v<Unit>));  // 16 value bits or more

template <class Policy>
inline constexpr bool is_output_policy_v =
    std::is_same_v<Policy, strict> || std::is_same_v<Policy, replace> || std::is_same_v<Policy, skip>;

/// Whether two functions are the same, decided by template argument matching (comparing the
/// pointers in a constant expression is refused by GCC under -fsanitize=undefined).
template <auto F, auto G>
inline constexpr bool same_function_v = false;
template <auto F>
inline constexpr bool same_function_v<F, F> = true;

/// What the UTF-8 and UTF-16 output iterators share: the policy, the progress, the error.
/// `Encode(cp, units)` writes a scalar value's code units to `units` and returns their count.
template <class OutIt, class Policy, class Unit, std::size_t (*Encode)(char32_t, Unit*) noexcept>
class encoding_output_iterator {
  static_assert(is_output_policy_v<Policy>, "output iterators take the strict, replace or skip policy");
  static_assert(!same_function_v<Encode, &encode_utf8_units<Unit>> || is_utf8_output_unit_v<Unit>,
                "utf8_output writes bytes: its output must take a byte type (char, unsigned char, char8_t, "
                "std::byte); for char16_t output use utf16_output, for char32_t store the code points");
  static_assert(!same_function_v<Encode, &encode_utf16_units<Unit>> || is_utf16_output_unit_v<Unit>,
                "utf16_output writes 16-bit units: its output must take an integer type holding 0..0xFFFF "
                "(char16_t, std::uint16_t, ...); a byte or std::int16_t output would truncate every unit");

 public:
  using iterator_category = std::output_iterator_tag;
  using value_type = void;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = void;

  constexpr encoding_output_iterator() = default;
  constexpr explicit encoding_output_iterator(OutIt out, Policy policy = {}) : out_(std::move(out)), policy_(policy) {}

  /// Encodes one code point (see the header comment for invalid values).
  constexpr encoding_output_iterator& operator=(char32_t cp) {
    if constexpr (Policy::stops_on_error) {
      if (error_ != error_code::none) return *this;
    }
    if (!is_scalar_value(cp)) {
      if (error_ == error_code::none) error_ = cp > 0x10FFFF ? error_code::too_large : error_code::surrogate;
      if constexpr (Policy::stops_on_error) {
        return *this;
      } else if constexpr (skips_errors_v<Policy>) {
        ++read_;
        return *this;
      } else {
        cp = policy_.replacement_value();
      }
    }
    Unit units[4]{};
    const std::size_t n = Encode(cp, units);
    for (std::size_t i = 0; i < n; ++i) {
      *out_ = units[i];
      ++out_;
    }
    ++read_;
    written_ += n;
    return *this;
  }

  constexpr encoding_output_iterator& operator*() noexcept { return *this; }
  constexpr encoding_output_iterator& operator++() noexcept { return *this; }
  constexpr encoding_output_iterator& operator++(int) noexcept { return *this; }

  /// The underlying output iterator, past everything written.
  constexpr OutIt base() const { return out_; }

  /// Code points accepted (under strict: before the first error), code units written, and the
  /// kind of the first invalid value (surrogate or too_large; none if there was none).
  constexpr conversion_result result() const noexcept { return {read_, written_, error_}; }

  /// The first error, error_code::none if every value was a scalar value.
  constexpr error_code error() const noexcept { return error_; }

 private:
  OutIt out_{};
  Policy policy_{};
  std::size_t read_ = 0;
  std::size_t written_ = 0;
  error_code error_ = error_code::none;
};

}  // namespace detail

/// Output iterator: char32_t in, UTF-8 out to `OutIt` as `Byte`s (by default the type `OutIt`
/// takes: char for std::back_inserter(std::string&), char8_t for a u8string, ...).
template <class OutIt, class Policy = strict, class Byte = detail::output_unit_t<OutIt, char>>
using utf8_output_iterator = detail::encoding_output_iterator<OutIt, Policy, Byte, &detail::encode_utf8_units<Byte>>;

/// Output iterator: char32_t in, UTF-16 out to `OutIt` (supplementary characters as surrogate pairs).
template <class OutIt, class Policy = strict, class Unit = detail::output_unit_t<OutIt, char16_t>>
using utf16_output_iterator = detail::encoding_output_iterator<OutIt, Policy, Unit, &detail::encode_utf16_units<Unit>>;

/// A UTF-8 output iterator writing to `out`, e.g. utf8_output(std::back_inserter(s), utf8dfa::replace{}).
template <class OutIt, class Policy = strict>
constexpr utf8_output_iterator<OutIt, Policy> utf8_output(OutIt out, Policy policy = {}) {
  return utf8_output_iterator<OutIt, Policy>(std::move(out), policy);
}

/// A UTF-16 output iterator writing to `out`.
template <class OutIt, class Policy = strict>
constexpr utf16_output_iterator<OutIt, Policy> utf16_output(OutIt out, Policy policy = {}) {
  return utf16_output_iterator<OutIt, Policy>(std::move(out), policy);
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/output.hpp ----
// ---- begin utf8dfa/stream.hpp ----
// utf8dfa: streaming validation and decoding. Input arrives in chunks of any size (0 and 1 byte
// included); the DFA state and the at most 3 bytes of an unfinished character are carried from one
// chunk to the next, so every result (code points, replacements, error offsets counted from the
// start of the stream, kinds, lengths) is the one the one-shot functions give on the whole input,
// wherever the chunks were cut.
//
// Inside a chunk the bulk (SIMD-dispatched) functions do the work; the byte-wise DFA (`detail::step`)
// runs only on the few bytes that straddle a chunk edge.
#ifndef UTF8DFA_STREAM_HPP
#define UTF8DFA_STREAM_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// Where the unfinished character at the end of [p, p+n) starts: the last lead byte, within three
/// bytes of the end, whose valid prefix runs out at the end; n when the input ends on a boundary.
/// Every non-continuation byte starts a new character or ill-formed subpart, so [0, result) ends on
/// a boundary of the whole stream's segmentation.
template <class T>
constexpr std::size_t unfinished_tail(const T* p, std::size_t n) noexcept {
  for (std::size_t k = 1; k <= 3 && k <= n; ++k)
    if (!is_continuation(octet(p[n - k]))) return decode_at(p, n, n - k).error == error_code::incomplete ? n - k : n;
  return n;
}

/// What a chunk boundary leaves behind: the DFA state, the bytes of an unfinished character, the
/// stream position and the first error. Shared by validator and decoder.
struct stream_state {
  std::uint64_t state = s_accept;  // shift-form DFA state after the pending bytes
  std::uint8_t pending[4]{};       // the unfinished character (at most 3 bytes, one spare)
  std::uint8_t npending = 0;
  std::size_t position = 0;                         // bytes consumed since the start of the stream
  validation_result first{0, 0, error_code::none};  // the first error of the stream

  void note_error(std::size_t offset, std::size_t length, error_code kind) noexcept {
    if (first.error == error_code::none) first = {offset, length, kind};
  }

  enum class edge { waiting, completed, rejected };

  /// Continues the unfinished character with p[i..n). `completed`: pending[0..npending) is now a
  /// whole character; `rejected`: the error is noted and p[i] (not consumed) must be read as a new
  /// lead; `waiting`: the chunk ran out first.
  template <class T>
  edge continue_pending(const T* p, std::size_t n, std::size_t& i) noexcept {
    while (i < n) {
      const std::uint8_t b = octet(p[i]);
      const std::uint64_t next = step(state, b) & state_mask;
      if (next == s_reject) {
        note_error(position - npending, npending, reject_kind(state, b));
        npending = 0;
        state = s_accept;
        return edge::rejected;
      }
      pending[npending++] = b;
      ++i;
      ++position;
      state = next;
      if (next == s_accept) return edge::completed;
    }
    return edge::waiting;
  }

  /// Keeps the unfinished character p[0..n) (n <= 3) for the next chunk.
  template <class T>
  void hold(const T* p, std::size_t n) noexcept {
    for (std::size_t k = 0; k < n; ++k) {
      pending[npending++] = octet(p[k]);
      state = step(state, octet(p[k])) & state_mask;
    }
  }

  /// The status of the stream so far, as validate() reports it.
  validation_result status() const noexcept {
    if (first.error != error_code::none) return first;
    return {position - npending, 0, error_code::none};
  }

  /// End of input: an unfinished character is `incomplete` (error length 0, as validate says).
  /// Returns true when there was one.
  bool end() noexcept {
    if (npending == 0) return false;
    note_error(position - npending, 0, error_code::incomplete);
    npending = 0;
    state = s_accept;
    return true;
  }
};

/// The streaming core of the dialects other than utf8: the DFA byte by byte across chunk edges,
/// exactly as decode_with walks the whole input (the byte that rejects a partial character is read
/// again as a lead). `emit(c, bytes, length, offset, error)` receives every character (error none,
/// its bytes) and every maximal ill-formed subpart (U+FFFD, its kind; an unfinished one at the end
/// is `incomplete`). Members are named as stream_state's, so the public classes use either.
template <class D>
struct dialect_stream {
  using M = machine_of<D>;
  typename M::state at = M::start;  // boundary state at the start of the pending character
  typename M::state state = M::start;
  std::uint8_t pending[dialect_traits<D>::max_length]{};
  std::uint8_t npending = 0;
  std::size_t position = 0;
  validation_result first{0, 0, error_code::none};

  void note_error(std::size_t offset, std::size_t length, error_code kind) noexcept {
    if (first.error == error_code::none) first = {offset, length, kind};
  }

  validation_result status() const noexcept {
    if (first.error != error_code::none) return first;
    return {position - npending, 0, error_code::none};
  }

  /// Runs p[0..n); with `stop`, nothing after the first error (noted here or by emit) is read.
  template <class Emit>
  void run(const unsigned char* p, std::size_t n, bool stop, Emit&& emit) {
    for (std::size_t i = 0; i < n;) {
      if (stop && first.error != error_code::none) return;
      const std::uint8_t b = p[i];
      if (npending == 0) {
        const typename M::state nx = M::advance(at, b);
        if (M::rejected(nx)) {
          note_error(position, 1, M::why(at, b));
          emit(replacement_character, p + i, std::size_t{1}, position, M::why(at, b));
          at = M::start;
        } else if (M::boundary(nx)) {
          emit(static_cast<char32_t>(b), p + i, std::size_t{1}, position, error_code::none);
          at = nx;
        } else {
          state = nx;
          pending[npending++] = b;
        }
        ++i;
        ++position;
        continue;
      }
      const typename M::state nx = M::advance(state, b);
      const std::size_t start = position - npending;
      if (M::rejected(nx)) {  // b is not consumed: it starts the next character
        const error_code e = M::why(state, b);
        note_error(start, npending, e);
        emit(replacement_character, pending, std::size_t{npending}, start, e);
        npending = 0;
        at = M::start;
        continue;
      }
      pending[npending++] = b;
      ++i;
      ++position;
      if (M::boundary(nx)) {
        typename M::state s = at;
        const decoded d = decode_with<M>(pending, npending, 0, s);
        emit(d.code_point, pending, std::size_t{npending}, start, error_code::none);
        npending = 0;
        at = nx;
      } else {
        state = nx;
      }
    }
  }

  /// End of input: an unfinished character is `incomplete` (error length 0). True when there was one.
  template <class Emit>
  bool end(Emit&& emit) {
    if (npending == 0) return false;
    const std::size_t start = position - npending;
    note_error(start, 0, error_code::incomplete);
    emit(replacement_character, pending, std::size_t{npending}, start, error_code::incomplete);
    npending = 0;
    at = M::start;
    return true;
  }
};

/// What the public classes keep between chunks: stream_state for strict UTF-8 (its bulk kernels
/// inside a chunk), dialect_stream for the others.
template <class D>
using stream_of = std::conditional_t<is_strict_v<D>, stream_state, dialect_stream<D>>;

struct ignore_emit {
  template <class... A>
  void operator()(const A&...) const noexcept {}
};

}  // namespace detail

/// Streaming validation: call feed() with consecutive chunks, then finish(). The first error stops
/// it; its `valid_up_to` is counted from the start of the stream. Results equal validate() (in
/// `Dialect`) on the concatenated input for every way of cutting it into chunks. `validator` is
/// basic_validator<dialect::utf8>.
template <class Dialect = dialect::utf8>
class basic_validator {
  static_assert(detail::is_dialect_v<Dialect>, "Dialect is one of the utf8dfa::dialect tags");

 public:
  /// Checks the next chunk. Returns the status so far: no error while everything fed is well-formed
  /// or ends inside a character more input may complete (`valid_up_to` then counts the complete
  /// characters' bytes); otherwise the first error. Input after an error is ignored.
  template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
  validation_result feed(const Bytes& bytes) noexcept {
    const auto s = detail::as_span(bytes);
    return feed_bytes(detail::as_uchars(s.data), s.size);
  }

  /// Same, for a pointer and a length.
  template <class T, detail::enable_if_byte<T> = 0>
  validation_result feed(const T* data, std::size_t size) noexcept {
    return feed_bytes(detail::as_uchars(data), size);
  }

  /// Ends the stream and returns what validate() gives on all of it: an unfinished last character
  /// is `incomplete` with error_length 0. Call reset() to start a new stream.
  validation_result finish() noexcept {
    if constexpr (detail::is_strict_v<Dialect>) {
      if (!failed() && s_.end()) s_.position = s_.first.valid_up_to;
    } else {
      if (!failed() && s_.end(detail::ignore_emit{})) s_.position = s_.first.valid_up_to;
    }
    return s_.status();
  }

  /// The status so far (what the last feed() returned).
  validation_result result() const noexcept { return s_.status(); }
  /// True once an error has been found.
  bool failed() const noexcept { return s_.first.error != error_code::none; }
  /// Bytes fed so far; once an error is found, its offset (where checking stopped).
  std::size_t position() const noexcept { return s_.position; }
  /// Bytes of an unfinished character waiting for the next chunk (0..3; 0..5 in CESU-8, MUTF-8, legacy).
  std::size_t pending() const noexcept { return s_.npending; }
  /// Forgets everything: a new stream starts at offset 0.
  void reset() noexcept { s_ = {}; }

 private:
  validation_result feed_bytes(const unsigned char* p, std::size_t n) noexcept {
    if (failed()) return s_.first;
    if constexpr (!detail::is_strict_v<Dialect>) {
      s_.run(p, n, true, detail::ignore_emit{});
      if (failed()) s_.position = s_.first.valid_up_to;
      return s_.status();
    } else {
      return feed_strict(p, n);
    }
  }

  validation_result feed_strict(const unsigned char* p, std::size_t n) noexcept {
    std::size_t i = 0;
    if (s_.npending != 0) {
      const auto e = s_.continue_pending(p, n, i);
      if (e == detail::stream_state::edge::rejected) {
        s_.position = s_.first.valid_up_to;
        return s_.first;
      }
      if (e == detail::stream_state::edge::waiting) return s_.status();
      s_.npending = 0;
    }
    p += i;
    n -= i;
    const std::size_t cut = detail::unfinished_tail(p, n);
    const validation_result v = validate(p, cut);
    if (v.error != error_code::none) {
      // An unfinished character at `cut` was broken off by the lead byte at `cut`.
      const bool cut_off = v.error == error_code::incomplete;
      s_.note_error(s_.position + v.valid_up_to, cut_off ? cut - v.valid_up_to : v.error_length,
                    cut_off ? error_code::too_short : v.error);
      s_.position += v.valid_up_to;
      return s_.first;
    }
    s_.hold(p + cut, n - cut);
    s_.position += n;
    return s_.status();
  }

  detail::stream_of<Dialect> s_;
};

/// The streaming validator of strict UTF-8.
using validator = basic_validator<>;

/// What one decoder::feed() or finish() call did.
template <class OutputIt>
struct feed_result {
  OutputIt out;         ///< one past the last unit written
  std::size_t written;  ///< units written by this call
  error_code error;     ///< the stream's first error so far (strict: the one that stopped it), or none
  constexpr explicit operator bool() const noexcept { return error == error_code::none; }
};

/// What a decoder does with a byte order mark (EF BB BF) that starts the stream.
enum class bom_handling : std::uint8_t {
  keep,  ///< U+FEFF like any other character (the default; RFC 3629 section 6)
  strip  ///< dropped, also when split across chunks (WHATWG TextDecoder with ignoreBOM false)
};

/// Streaming UTF-8 decoder to UTF-32 (Unit = char32_t), UTF-16 (Unit = char16_t) or checked UTF-8
/// (a byte type such as char: well-formed input is copied, which makes decoder<replace, char> a
/// streaming sanitizer). Feed it consecutive chunks, then call finish(). Under `strict` it stops
/// at the first error; under `replace` it writes one replacement per maximal ill-formed subpart,
/// under `skip` nothing for it.
/// The units written by all calls together, and result(), equal the one-shot utf8_to_utf32 /
/// utf8_to_utf16 output (re-encoded, for UTF-8) and validate() of the whole input, for every way
/// of cutting it into chunks. `Dialect` reads the input in another dialect (dialect.hpp): UTF-32/
/// UTF-16 output is then what utf8_to_utf32 / utf8_to_utf16 write in that dialect, and byte output
/// copies the dialect's well-formed characters (a streaming sanitizer of that dialect).
template <class Policy = strict, class Unit = char32_t, class Dialect = dialect::utf8>
class decoder {
  static_assert(sizeof(Unit) == 4 || sizeof(Unit) == 2 || detail::is_byte_v<Unit>,
                "decoder writes char32_t (UTF-32), char16_t (UTF-16) or a byte type (UTF-8)");
  static_assert(detail::is_dialect_v<Dialect>, "Dialect is one of the utf8dfa::dialect tags");

 public:
  using unit_type = Unit;

  /// A decoder at the start of a stream. With bom_handling::strip a leading EF BB BF writes nothing
  /// (offsets still count its bytes); a prefix of it followed by anything else, or by the end of the
  /// input, is decoded as without the option.
  constexpr explicit decoder(Policy policy = {}, bom_handling bom = bom_handling::keep) noexcept
      : policy_(policy), strip_bom_(bom == bom_handling::strip), bom_(strip_bom_ ? 0 : bom_done) {}

  /// Most units one feed() of `size` bytes writes through a pointer (finish(): max_output(0)).
  /// Byte output in a dialect other than utf8 allows 6 bytes per input byte (a supplementary
  /// replacement character is two 3-byte surrogates in CESU-8 and MUTF-8).
  static constexpr std::size_t max_output(std::size_t size) noexcept {
    return (size + 1) * (sizeof(Unit) == 4 ? 1 : sizeof(Unit) == 2 ? 2 : detail::is_strict_v<Dialect> ? 4 : 6);
  }

  /// Decodes the next chunk into `out`, which must have room for max_output(size) units. Under
  /// strict, input from the first error on is ignored (result() says where it is).
  template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
  feed_result<Unit*> feed(const Bytes& bytes, Unit* out) noexcept {
    const auto s = detail::as_span(bytes);
    const std::size_t w = feed_units(detail::as_uchars(s.data), s.size, out);
    return {out + w, w, s_.first.error};
  }

  /// Decodes the next chunk to any output iterator of Unit (e.g. std::back_inserter(u32string)).
  template <class Bytes, class OutputIt, detail::enable_if_bytes<Bytes> = 0>
  feed_result<OutputIt> feed(const Bytes& bytes, OutputIt out) {
    const auto s = detail::as_span(bytes);
    const unsigned char* p = detail::as_uchars(s.data);
    std::size_t n = s.size, total = 0;
    Unit buf[max_output(piece)];
    do {  // in pieces through a small buffer; cutting a chunk is as harmless as cutting the stream
      const std::size_t m = n < piece ? n : piece;
      const std::size_t w = feed_units(p, m, buf);
      for (std::size_t k = 0; k < w; ++k) *out++ = buf[k];
      total += w;
      p += m;
      n -= m;
    } while (n != 0);
    return {out, total, s_.first.error};
  }

  /// Same, for a pointer and a length (both output forms).
  template <class T, detail::enable_if_byte<T> = 0>
  feed_result<Unit*> feed(const T* data, std::size_t size, Unit* out) noexcept {
    return feed(detail::byte_span_range<T>{data, size}, out);
  }
  template <class T, class OutputIt, detail::enable_if_byte<T> = 0>
  feed_result<OutputIt> feed(const T* data, std::size_t size, OutputIt out) {
    return feed(detail::byte_span_range<T>{data, size}, out);
  }

  /// Ends the stream: an unfinished last character is an `incomplete` error (strict) or one
  /// replacement (replace). Writes at most max_output(0) units. Call reset() to start a new stream.
  template <class OutputIt>
  feed_result<OutputIt> finish(OutputIt out) {
    release_bom();
    std::size_t w = 0;
    if constexpr (!detail::is_strict_v<Dialect>) {
      if (!stopped()) {
        Unit buf[max_output(0)];
        Unit* o = buf;
        if (s_.end(emitter(o))) {
          if constexpr (Policy::stops_on_error) s_.position = s_.first.valid_up_to;
        }
        w = static_cast<std::size_t>(o - buf);
        for (std::size_t k = 0; k < w; ++k) *out++ = buf[k];
      }
    } else if (!stopped() && s_.end()) {
      if constexpr (Policy::stops_on_error) {
        s_.position = s_.first.valid_up_to;
      } else {
        Unit buf[4];
        w = static_cast<std::size_t>(put_replacement(buf, policy_) - buf);
        for (std::size_t k = 0; k < w; ++k) *out++ = buf[k];
      }
    }
    return {out, w, s_.first.error};
  }

  /// The stream's status as validate() reports it: the first error (offset from the start of the
  /// stream, length, kind), or none with `valid_up_to` counting the complete characters' bytes.
  validation_result result() const noexcept { return s_.status(); }
  /// Bytes fed so far; under strict, once an error is found, its offset (where decoding stopped).
  std::size_t position() const noexcept { return s_.position + held(); }
  /// Bytes of an unfinished character waiting for the next chunk (0..3; 0..5 in CESU-8, MUTF-8, legacy;
  /// with bom_handling::strip, also the 1 or 2 bytes of a BOM that may still be completed).
  std::size_t pending() const noexcept { return s_.npending + held(); }
  /// Forgets everything: a new stream starts at offset 0 (with the same bom_handling).
  void reset() noexcept {
    s_ = {};
    bom_ = strip_bom_ ? 0 : bom_done;
  }

 private:
  static constexpr std::size_t piece = 256;
  static constexpr std::uint8_t bom_done = 0xFF;  // bom_: the start of the stream is decided

  // BOM bytes matched and held back (0..2) while the start of the stream is undecided.
  std::size_t held() const noexcept { return bom_ == bom_done ? 0 : bom_; }

  // Hands the held BOM prefix (EF or EF BB) to the decoder: an unfinished character in every
  // dialect, so it writes nothing.
  void release_bom() noexcept {
    if (bom_ == bom_done) return;
    const std::size_t n = bom_;
    bom_ = bom_done;
    Unit none[max_output(2)];
    run(detail::bom, n, none);
  }

  // Matches the start of the stream against EF BB BF (bom_handling::strip): consumes and returns the
  // bytes of p[0..n) that belong to the BOM, or releases the held prefix when the stream turns out
  // not to start with one.
  std::size_t match_bom(const unsigned char* p, std::size_t n) noexcept {
    std::size_t i = 0;
    while (i < n && bom_ < 3 && p[i] == detail::bom[bom_]) {
      ++bom_;
      ++i;
    }
    if (bom_ == 3) {  // the whole BOM: dropped, counted in the offsets
      bom_ = bom_done;
      s_.position += 3;
    } else if (i < n) {  // a byte that is not the BOM's next one
      release_bom();
    }
    return i;
  }

  bool stopped() const noexcept { return Policy::stops_on_error && s_.first.error != error_code::none; }

  // Writes one scalar value.
  static Unit* put(Unit* o, char32_t c) noexcept {
    if constexpr (sizeof(Unit) == 1)
      return o + detail::put_utf8(o, c);
    else
      return detail::put_unit(o, c);
  }

  // Writes the replacement for one error under policy `pol` (nothing under skip).
  template <class P>
  static Unit* put_replacement(Unit* o, [[maybe_unused]] const P& pol) noexcept {
    if constexpr (detail::skips_errors_v<P>)
      return o;
    else if constexpr (sizeof(Unit) == 1 && !detail::is_strict_v<Dialect>)
      return o + detail::dialect_traits<Dialect>::put(o, pol.replacement_value());
    else
      return put(o, pol.replacement_value());
  }

  // The bulk conversion of [p, p+n) under policy `pol`, as the one-shot functions do it.
  template <class P>
  static conversion_result convert(const unsigned char* p, std::size_t n, Unit* out, P pol) noexcept {
    const detail::byte_span_range<unsigned char> in{p, n};
    if constexpr (sizeof(Unit) == 4) {
      return utf8_to_utf32(in, out, pol);
    } else if constexpr (sizeof(Unit) == 2) {
      return utf8_to_utf16(in, out, pol);
    } else {  // UTF-8: copy what validate() accepts, replace each maximal ill-formed subpart
      std::size_t i = 0;
      Unit* o = out;
      error_code first = error_code::none;
      while (i < n) {
        const validation_result v = validate(p + i, n - i);
        if (v.valid_up_to != 0) std::memcpy(o, p + i, v.valid_up_to);
        o += v.valid_up_to;
        i += v.valid_up_to;
        if (v.error == error_code::none) break;
        if constexpr (P::stops_on_error) return {i, static_cast<std::size_t>(o - out), v.error};
        if (first == error_code::none) first = v.error;
        o = put_replacement(o, pol);
        i = v.error == error_code::incomplete ? n : i + v.error_length;  // incomplete: the rest
      }
      return {n, static_cast<std::size_t>(o - out), first};
    }
  }

  // Dialects: what the stream core reports, written as units (errors and characters the output
  // cannot hold replaced, or noted and stopping under strict).
  auto emitter(Unit*& o) noexcept {
    // ([&]: `this` is used by some instantiations only, and an unused explicit capture is a warning.)
    return [&](char32_t c, const std::uint8_t* bytes, std::size_t length, std::size_t offset, error_code e) {
      if (e == error_code::none) {
        if constexpr (sizeof(Unit) == 1) {
          for (std::size_t k = 0; k < length; ++k) *o++ = static_cast<Unit>(bytes[k]);
          return;
        } else {
          e = detail::unrepresentable<Dialect, Unit>(c);
          if (e == error_code::none) {
            o = put(o, c);
            return;
          }
          s_.note_error(offset, length, e);
        }
      }
      if constexpr (!Policy::stops_on_error) o = put_replacement(o, policy_);
    };
  }

  // One chunk: the start of the stream matched against a BOM first (bom_handling::strip), then run.
  std::size_t feed_units(const unsigned char* p, std::size_t n, Unit* out) noexcept {
    if (bom_ != bom_done) {
      const std::size_t m = match_bom(p, n);
      p += m;
      n -= m;
    }
    return run(p, n, out);
  }

  // The whole algorithm: finish or break off the pending character byte by byte, hand the rest up
  // to its unfinished tail to the bulk functions, keep the tail.
  std::size_t run(const unsigned char* p, std::size_t n, Unit* out) noexcept {
    if (stopped()) return 0;
    if constexpr (!detail::is_strict_v<Dialect>) {
      Unit* o = out;
      s_.run(p, n, Policy::stops_on_error, emitter(o));
      if (stopped()) s_.position = s_.first.valid_up_to;
      return static_cast<std::size_t>(o - out);
    } else {
      return feed_strict(p, n, out);
    }
  }

  std::size_t feed_strict(const unsigned char* p, std::size_t n, Unit* out) noexcept {
    Unit* o = out;
    std::size_t i = 0;
    if (s_.npending != 0) {
      const auto e = s_.continue_pending(p, n, i);
      if (e == detail::stream_state::edge::waiting) return 0;
      if (e == detail::stream_state::edge::completed) {
        o = put(o, detail::decode_at(s_.pending, s_.npending, 0).code_point);
        s_.npending = 0;
      } else if constexpr (Policy::stops_on_error) {
        s_.position = s_.first.valid_up_to;
        return 0;
      } else {
        o = put_replacement(o, policy_);
      }
    }
    p += i;
    n -= i;
    const std::size_t cut = detail::unfinished_tail(p, n);
    std::size_t done = 0;
    if (Policy::stops_on_error || s_.first.error == error_code::none) {
      // Strict until the first error, so that it can be located and classified.
      const conversion_result r = convert(p, cut, o, strict{});
      o += r.written;
      done = r.read;
      if (r.error != error_code::none) {
        const decoded d = detail::decode_at(p, cut, r.read);
        // An unfinished character at `cut` was broken off by the lead byte at `cut`.
        s_.note_error(s_.position + r.read, d.length,
                      d.error == error_code::incomplete ? error_code::too_short : d.error);
        if constexpr (Policy::stops_on_error) {
          s_.position += r.read;
          return static_cast<std::size_t>(o - out);
        }
      }
    }
    if (done < cut) o += convert(p + done, cut - done, o, policy_).written;
    s_.hold(p + cut, n - cut);
    s_.position += n;
    return static_cast<std::size_t>(o - out);
  }

  detail::stream_of<Dialect> s_;
  Policy policy_;
  bool strip_bom_;    // bom_handling::strip
  std::uint8_t bom_;  // BOM bytes matched so far, or bom_done
};

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/stream.hpp ----
// ---- begin utf8dfa/utf_views.hpp ----
// utf8dfa: as_utf8, as_utf16, as_utf32: lazy views that transcode between any two UTF forms.
//
//   for (char16_t u : utf8dfa::as_utf16(bytes)) ...          // UTF-8 in, UTF-16 out
//   std::string s(v.begin(), v.end());                        // v = utf8dfa::as_utf8(u16string)
//
// The input is any range of UTF-8 (char, char8_t, unsigned char, std::byte), UTF-16 (char16_t, and
// wchar_t where it is 2 bytes) or UTF-32 (char32_t, wchar_t where it is 4 bytes) code units, an
// iterator pair, or a null-terminated string (read up to its terminator, without a length pass).
// Each ill-formed subpart becomes one replacement character, exactly as the bulk `_lossy`
// functions do: a maximal ill-formed subpart of UTF-8 (the well-formed characters of contiguous
// input inline, by the byte ranges of the DFA's grammar; everything else by the one DFA, through
// code_point_iterator's decode_advance / decode_retreat), an unpaired UTF-16 surrogate, a UTF-32
// surrogate or value above 0x10FFFF. Under `skip` each ill-formed subpart is dropped (nothing is
// produced for it). Under `strict` the iteration ends at the first error, and the
// iterator that reached the end says where and why. Views over bidirectional input are
// bidirectional (replace policies), over forward input forward, over input iterators single-pass.
// This header also lets null_sentinel end UTF-16 and UTF-32 strings.
#ifndef UTF8DFA_UTF_VIEWS_HPP
#define UTF8DFA_UTF_VIEWS_HPP


// ---- begin utf8dfa/views.hpp ----
// utf8dfa: code_points(bytes), a view of UTF-8 bytes as char32_t code points.
//
//   for (char32_t c : utf8dfa::code_points(text)) ...
//
// The view holds two byte iterators and hands out code_point_iterator: bidirectional over
// contiguous ranges, C strings and bidirectional iterator pairs, forward or single-pass over the
// other iterator kinds. In C++20 it is a std::ranges::view (and a borrowed range: its iterators
// do not refer to it), so it composes with std::views::reverse, take, filter, ...
#ifndef UTF8DFA_VIEWS_HPP
#define UTF8DFA_VIEWS_HPP



// The C++20 integration (std::ranges::view_interface, enable_borrowed_range). Off for clang
// before 16 with libstdc++, which cannot compile libstdc++'s ranges machinery; the view still
// works in range-for and with the classic algorithms there.
#if UTF8DFA_HAS_RANGES && !(defined(__clang__) && __clang_major__ < 16 && defined(__GLIBCXX__))
#define UTF8DFA_HAS_RANGES_VIEWS 1
#include <ranges>
#else
#define UTF8DFA_HAS_RANGES_VIEWS 0
#endif
#if UTF8DFA_HAS_SPAN
#include <span>
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// The code points of the UTF-8 bytes [first, last), as a range of char32_t (see code_points),
/// read in `Dialect` (dialect.hpp).
template <class It, class Sent = It, class Dialect = dialect::utf8>
class code_point_view
#if UTF8DFA_HAS_RANGES_VIEWS
    : public std::ranges::view_interface<code_point_view<It, Sent, Dialect>>
#endif
{
 public:
  using iterator = code_point_iterator<It, Sent, Dialect>;
  /// The end: an iterator when It and Sent are one type (a common range), else Sent itself.
  using sentinel = std::conditional_t<std::is_same_v<It, Sent>, iterator, Sent>;

  constexpr code_point_view() = default;
  constexpr code_point_view(It first, Sent last) : first_(first), last_(last) {}

  /// The first code point (for single-pass input, reading it).
  constexpr iterator begin() const {
    return iterator(first_, last_);
  }

  constexpr sentinel end() const {
    if constexpr (!std::is_same_v<It, Sent>)
      return last_;
    else if constexpr (detail::is_forward_iter_v<It>)
      return iterator(first_, last_, last_);
    else
      return iterator(last_, last_);
  }

  /// The underlying bytes' bounds.
  constexpr It bytes_begin() const {
    return first_;
  }
  constexpr Sent bytes_end() const {
    return last_;
  }

 private:
  It first_{};
  Sent last_{};
};

namespace detail {

template <class R>
using uncvref_t = std::remove_cv_t<std::remove_reference_t<R>>;

/// Types whose data outlives them (views), so code_points may take them as temporaries.
template <class R>
inline constexpr bool is_borrowed_bytes_v =
#if UTF8DFA_HAS_RANGES_VIEWS
    std::ranges::borrowed_range<R>;
#else
    false;
#endif
template <class C, class Tr>
inline constexpr bool is_borrowed_bytes_v<std::basic_string_view<C, Tr>> = true;
template <class T>
inline constexpr bool is_borrowed_bytes_v<byte_span_range<T>> = true;
#if UTF8DFA_HAS_SPAN
template <class T, std::size_t E>
inline constexpr bool is_borrowed_bytes_v<std::span<T, E>> = true;
#endif

template <class R, class = void>
struct is_iterable_bytes : std::false_type {};
template <class R>
struct is_iterable_bytes<
    R, std::void_t<decltype(std::begin(std::declval<const R&>())), decltype(std::end(std::declval<const R&>()))>>
    : std::bool_constant<
          is_byte_v<typename std::iterator_traits<decltype(std::begin(std::declval<const R&>()))>::value_type>> {};

/// Byte containers that code_points reads through their iterators (std::list<char>, std::deque, ...).
template <class R>
inline constexpr bool is_other_byte_container_v =
    !std::is_array_v<R> && !std::is_pointer_v<R> && !is_bytes_v<R> && is_iterable_bytes<R>::value;

}  // namespace detail

/// The code points of UTF-8 bytes: any contiguous range of 1-byte elements (std::string,
/// std::string_view, std::u8string(_view), std::span<const std::byte>, std::vector<unsigned char>,
/// ...) or other byte container. One U+FFFD per maximal ill-formed subpart. The view refers to the
/// bytes: a temporary container is refused (it would dangle), a temporary view is fine.
template <class R, std::enable_if_t<detail::is_byte_range<detail::uncvref_t<R>>::value ||
                                        detail::is_other_byte_container_v<detail::uncvref_t<R>>,
                                    int> = 0>
constexpr auto code_points(R&& bytes) noexcept {
  using B = detail::uncvref_t<R>;
  static_assert(std::is_lvalue_reference_v<R> || detail::is_borrowed_bytes_v<B>,
                "code_points of a temporary container would dangle: keep the container in a variable");
  if constexpr (detail::is_byte_range<B>::value) {
    const auto s = detail::as_span(bytes);
    return code_point_view<decltype(s.data)>(s.data, s.data + s.size);
  } else {
    return code_point_view<decltype(std::begin(bytes))>(std::begin(bytes), std::end(bytes));
  }
}

/// The code points of a null-terminated string (a pointer or a character array: both end at the
/// first zero byte, which is found while iterating, not by a separate strlen pass).
template <class T, detail::enable_if_byte<T> = 0>
constexpr code_point_view<const T*, null_sentinel_t> code_points(const T* c_string) noexcept {
  return {c_string, null_sentinel};
}

/// The code points of `size` bytes at `data`.
template <class T, detail::enable_if_byte<T> = 0>
constexpr code_point_view<const T*> code_points(const T* data, std::size_t size) noexcept {
  return {data, data + size};
}

/// The code points of the bytes [first, last) of any iterator pair (e.g. std::istreambuf_iterator:
/// single-pass, decoded as it is read).
template <class It, class Sent,
          std::enable_if_t<detail::is_byte_v<typename std::iterator_traits<It>::value_type> &&
                               !std::is_integral_v<Sent> && !detail::is_dialect_v<Sent>,
                           int> = 0>
constexpr code_point_view<It, Sent> code_points(It first, Sent last) {
  return {first, last};
}

/// The code points of contiguous bytes (a range, not a temporary container) read in a dialect
/// (code_points(bytes, dialect::wtf8{})): surrogates and legacy values come out as read.
template <
    class R, class Dialect,
    std::enable_if_t<detail::is_byte_range<detail::uncvref_t<R>>::value && detail::is_dialect_v<Dialect>, int> = 0>
constexpr auto code_points(R&& bytes, Dialect) noexcept {
  using B = detail::uncvref_t<R>;
  static_assert(std::is_lvalue_reference_v<R> || detail::is_borrowed_bytes_v<B>,
                "code_points of a temporary container would dangle: keep the container in a variable");
  const auto s = detail::as_span(bytes);
  return code_point_view<decltype(s.data), decltype(s.data), Dialect>(s.data, s.data + s.size);
}

/// The code points of the bytes [first, last) of any iterator pair, read in a dialect.
template <class It, class Sent, class Dialect,
          std::enable_if_t<detail::is_byte_v<typename std::iterator_traits<It>::value_type> &&
                               !std::is_integral_v<Sent> && detail::is_dialect_v<Dialect>,
                           int> = 0>
constexpr code_point_view<It, Sent, Dialect> code_points(It first, Sent last, Dialect) {
  return {first, last};
}

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if UTF8DFA_HAS_RANGES_VIEWS
namespace std::ranges {
/// The view holds only iterators, so its iterators stay valid after it is gone.
template <class It, class Sent, class Dialect>
inline constexpr bool enable_borrowed_range<utf8dfa::code_point_view<It, Sent, Dialect>> = true;
}  // namespace std::ranges
#endif

#endif
// ---- end utf8dfa/views.hpp ----

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

/// An ill-formed subpart met by a transcoding view's iterator (error()): where it starts, in input
/// code units from the start of the view's input, its length in code units (for `incomplete`, the
/// units the input ended with), and why. False (code == none) on a well-formed character.
struct input_error {
  std::size_t offset;  ///< input code units before the subpart
  std::size_t length;  ///< code units of the subpart (0 when there is none)
  error_code code;     ///< error_code::none for a well-formed character
  constexpr explicit operator bool() const noexcept { return code != error_code::none; }
};

namespace detail {

/// The UTF form of a code unit type: 8, 16 or 32; 0 for anything else.
template <class T, class U = std::remove_cv_t<T>>
inline constexpr int utf_form_v = is_byte_v<U>                                                                    ? 8
                                  : std::is_same_v<U, char16_t> || (std::is_same_v<U, wchar_t> && sizeof(U) == 2) ? 16
                                  : std::is_same_v<U, char32_t> || (std::is_same_v<U, wchar_t> && sizeof(U) == 4) ? 32
                                                                                                                  : 0;

template <class T>
inline constexpr bool is_code_unit_v = utf_form_v<T> != 0;

/// An iterator's legacy category (iterator_traits), or void where it has none (C++20 iterators that
/// are not C++17 iterators, e.g. move-only input iterators such as std::views::istream's).
template <class It, class = void>
struct legacy_category {
  using type = void;
};
template <class It>
struct legacy_category<It, std::void_t<typename std::iterator_traits<It>::iterator_category>> {
  using type = typename std::iterator_traits<It>::iterator_category;
};
template <class It, class Tag>
inline constexpr bool legacy_at_least_v = std::is_base_of_v<Tag, typename legacy_category<It>::type>;

/// What a view's iterator can do with the input's iterators: the better of the C++17 category and
/// (C++20) the iterator concept (a std::views::transform iterator is a C++17 input iterator whose
/// concept may be random access).
#if UTF8DFA_HAS_RANGES
template <class It>
inline constexpr bool view_forward_v = std::forward_iterator<It> || legacy_at_least_v<It, std::forward_iterator_tag>;
template <class It>
inline constexpr bool view_bidi_v =
    std::bidirectional_iterator<It> || legacy_at_least_v<It, std::bidirectional_iterator_tag>;
template <class It>
inline constexpr bool view_random_v =
    std::random_access_iterator<It> || legacy_at_least_v<It, std::random_access_iterator_tag>;
/// The value type of an iterator (C++20: std::iter_value_t, which needs no iterator_traits).
template <class It>
using view_unit_t = std::remove_cv_t<std::iter_value_t<It>>;
#else
template <class It>
inline constexpr bool view_forward_v = legacy_at_least_v<It, std::forward_iterator_tag>;
template <class It>
inline constexpr bool view_bidi_v = legacy_at_least_v<It, std::bidirectional_iterator_tag>;
template <class It>
inline constexpr bool view_random_v = legacy_at_least_v<It, std::random_access_iterator_tag>;
template <class It>
using view_unit_t = std::remove_cv_t<typename std::iterator_traits<It>::value_type>;
#endif

/// A UTF-16 or UTF-32 code unit's value (wchar_t may be signed: a negative value reads as above
/// 0x10FFFF, an error).
template <class T>
constexpr char32_t wide_unit(T c) noexcept {
  if constexpr (sizeof(T) == 2)
    return static_cast<char16_t>(c);
  else
    return static_cast<char32_t>(static_cast<std::make_unsigned_t<T>>(c));
}

constexpr bool is_surrogate(char32_t c) noexcept {
  return c >= 0xD800 && c <= 0xDFFF;
}

/// Decodes the UTF-16 character at `it` (it != last) and moves `it` past it, as decode_utf16_at
/// does: a high surrogate that ends the input is `incomplete`, any other unpaired surrogate one
/// `surrogate` error. A unit that does not complete a pair is not consumed.
template <class It, class Sent>
constexpr decoded utf16_advance(It& it, const Sent& last) {
  const char32_t c = wide_unit(*it);
  ++it;
  if (!is_surrogate(c)) return {c, 1, error_code::none};
  if (c <= 0xDBFF) {
    if (it == last) return {replacement_character, 1, error_code::incomplete};
    const char32_t d = wide_unit(*it);
    if (d >= 0xDC00 && d <= 0xDFFF) {
      ++it;
      return {0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00), 2, error_code::none};
    }
  }
  return {replacement_character, 1, error_code::surrogate};
}

/// The UTF-16 character that ends at `pos` (a character boundary after `first`); moves `pos` to its
/// start. The same segmentation and kinds as utf16_advance read forwards.
template <class It, class Sent>
constexpr decoded utf16_retreat(const It& first, It& pos, const Sent& last) {
  const It end = pos;
  --pos;
  const char32_t c = wide_unit(*pos);
  if (!is_surrogate(c)) return {c, 1, error_code::none};
  if (c >= 0xDC00) {
    if (pos != first) {
      It q = pos;
      --q;
      const char32_t h = wide_unit(*q);
      if (h >= 0xD800 && h <= 0xDBFF) {
        pos = q;
        return {0x10000 + ((h - 0xD800) << 10) + (c - 0xDC00), 2, error_code::none};
      }
    }
    return {replacement_character, 1, error_code::surrogate};
  }
  // A high surrogate before a boundary is unpaired; incomplete only where the input ends.
  return {replacement_character, 1, end == last ? error_code::incomplete : error_code::surrogate};
}

/// One UTF-32 unit, as decode_utf32_at reads it.
constexpr decoded utf32_unit(char32_t c) noexcept {
  if (is_surrogate(c)) return {replacement_character, 1, error_code::surrogate};
  if (c > 0x10FFFF) return {replacement_character, 1, error_code::too_large};
  return {c, 1, error_code::none};
}

/// The character at `it` (it != last) in UTF form W; moves `it` past it.
template <int W, class It, class Sent>
constexpr decoded utf_advance(It& it, const Sent& last) {
  if constexpr (W == 8) {
    return decode_advance(it, last);
  } else if constexpr (W == 16) {
    return utf16_advance(it, last);
  } else {
    const char32_t c = wide_unit(*it);
    ++it;
    return utf32_unit(c);
  }
}

/// The character that ends at the boundary `pos` (pos != first) in UTF form W; moves `pos` to its
/// start. Error kinds are the forward walk's (an incomplete UTF-8 sequence that the input goes on
/// after is re-read forwards for its kind).
template <int W, class It, class Sent>
constexpr decoded utf_retreat(const It& first, It& pos, const Sent& last) {
  if constexpr (W == 8) {
    const It end = pos;
    decoded d = decode_retreat(first, pos);
    if (d.error == error_code::incomplete && !(end == last)) {
      It t = pos;
      const decoded whole = decode_advance(t, last);
      if (whole.length == d.length) d.error = whole.error;
    }
    return d;
  } else if constexpr (W == 16) {
    return utf16_retreat(first, pos, last);
  } else {
    --pos;
    return utf32_unit(wide_unit(*pos));
  }
}

/// The range of the second byte of UTF8-3 and UTF8-4 by their lead byte (E0..F4), read off the
/// grammar: the views' fast path checks a character by these ranges (the third and fourth bytes
/// are UTF8-tail) and leaves anything else to the DFA.
struct second_byte_ranges {
  static constexpr unsigned first_lead = 0xE0, leads = 0x15;  // E0..F4
  std::uint8_t lo[leads]{}, hi[leads]{};
  std::uint8_t tails[leads]{};
};

constexpr second_byte_ranges build_second_byte_ranges() {
  second_byte_ranges t{};
  for (const sequence_rule& r : grammar)
    if (r.tails >= 2)
      for (unsigned b = r.lead.lo; b <= r.lead.hi; ++b) {
        t.lo[b - second_byte_ranges::first_lead] = r.tail[0].lo;
        t.hi[b - second_byte_ranges::first_lead] = r.tail[0].hi;
        t.tails[b - second_byte_ranges::first_lead] = r.tails;
      }
  return t;
}

inline constexpr second_byte_ranges second_byte = build_second_byte_ranges();

/// What the fast path assumes of the grammar: UTF8-2 is C2..DF then UTF8-tail, UTF8-3 has the leads
/// E0..EF and UTF8-4 F0..F4 (one rule each covers every one of them), and only the second byte's
/// range varies.
constexpr bool fast_path_fits_grammar() {
  if (!(grammar[1].lead.lo == 0xC2 && grammar[1].lead.hi == 0xDF && grammar[1].tails == 1 &&
        grammar[1].tail[0].lo == utf8_tail.lo && grammar[1].tail[0].hi == utf8_tail.hi))
    return false;
  for (unsigned k = 0; k < second_byte_ranges::leads; ++k)
    if (second_byte.tails[k] != (k < 0x10 ? 2 : 3)) return false;
  for (const sequence_rule& r : grammar)
    for (unsigned k = 1; k < r.tails; ++k)
      if (r.tail[k].lo != utf8_tail.lo || r.tail[k].hi != utf8_tail.hi) return false;
  return utf8_tail.lo == 0x80 && utf8_tail.hi == 0xBF;
}
static_assert(fast_path_fits_grammar(), "the views' fast path reads the grammar's byte ranges as laid out in RFC 3629");

/// Of the 8 bytes in `w` (code units of `unit_bytes` each, in memory order), how many lead that each
/// stand for themselves as one output unit: ASCII (`ascii`), or any unit but a surrogate (UTF-16
/// into UTF-16 or UTF-32). Where the host's byte order or compiler is not known, 0 unless all are.
template <std::size_t unit_bytes, bool ascii>
UTF8DFA_ALWAYS_INLINE unsigned leading_identity_units(std::uint64_t w) noexcept {
  constexpr unsigned lanes = 8 / unit_bytes;
  std::uint64_t m;  // the high bit of each lane that is not one
  if constexpr (ascii) {
    constexpr std::uint64_t keep = unit_bytes == 1   ? 0x8080808080808080ull
                                   : unit_bytes == 2 ? 0xFF80FF80FF80FF80ull
                                                     : 0xFFFFFF80FFFFFF80ull;
    m = w & keep;
  } else {
    // A lane is a surrogate where (unit & F800) == D800: t is 0 there; the lowest zero lane is
    // found exactly (the borrow runs only upwards from it).
    const std::uint64_t t = (w & 0xF800F800F800F800ull) ^ 0xD800D800D800D800ull;
    m = (t - 0x0001000100010001ull) & ~t & 0x8000800080008000ull;
  }
  if (m == 0) return lanes;
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return static_cast<unsigned>(__builtin_ctzll(m)) / (8 * unit_bytes);
#else
  return 0;
#endif
}

template <class P>
inline constexpr bool is_view_policy_v = std::is_same_v<P, strict> || std::is_same_v<P, replace> ||
                                         std::is_same_v<P, assume_valid> || std::is_same_v<P, skip>;

/// The replacement a view's iterator holds (none is ever used under skip).
template <class P>
constexpr char32_t view_replacement([[maybe_unused]] const P& policy) noexcept {
  if constexpr (skips_errors_v<P>)
    return replacement_character;
  else
    return policy.replacement_value();
}

}  // namespace detail

/// The iterator of a transcoding view: code units of type Out (char, char16_t or char32_t) from the
/// code units [first, last) of another (or the same) UTF form. Policy: replace (one replacement per
/// ill-formed subpart), assume_valid (the same), skip (nothing for an ill-formed subpart: the
/// iterator never stands on one), or strict (the iteration ends at the first error).
/// Bidirectional over bidirectional input unless strict, forward over forward input, single-pass
/// over input iterators (then move-only where the input's iterator is, e.g. std::views::istream's:
/// it reads each character as it steps to it, and `it++` returns nothing). Besides the values:
/// base(), length(), error(), offset().
/// Strict is forward only: its iteration ends at the first error, so its end is a position that
/// only a walk from the start finds; stepping back from the input's end would yield the characters
/// after the error, which the forward walk never reaches, and finding that end first would make
/// end() linear instead of constant time, which ranges require of it.
/// It holds the current character (its output units, input length and error), never more (over
/// contiguous UTF-8, also where the input's last 3 bytes start; over contiguous input, how many of
/// the next units are ASCII, or UTF-16 outside the surrogates into UTF-16 or UTF-32: those it steps
/// over without decoding, still one unit per increment).
template <class Out, class It, class Sent = It, class Policy = replace>
class utf_iterator {
  using in_unit = detail::view_unit_t<It>;
  static constexpr int in_form = detail::utf_form_v<in_unit>;
  static constexpr int out_form = detail::utf_form_v<Out>;
  static_assert(in_form != 0, "the input's code units are UTF-8 (1-byte), UTF-16 (char16_t) or UTF-32 (char32_t)");
  static_assert(std::is_same_v<Out, char> || std::is_same_v<Out, char16_t> || std::is_same_v<Out, char32_t>,
                "the output code unit is char, char16_t or char32_t");
  static_assert(detail::is_view_policy_v<Policy>, "Policy is strict, replace, assume_valid or skip");
  static constexpr bool stops = Policy::stops_on_error;
  static constexpr bool skips = detail::skips_errors_v<Policy>;
  static constexpr bool multipass = detail::view_forward_v<It>;
  static constexpr bool bidirectional = detail::view_bidi_v<It> && !stops;
  static constexpr bool random_access = detail::view_random_v<It> || detail::is_contiguous_iter_v<It>;
  // Single-pass iterators keep no `first` (the input's iterator may be move-only).
  struct no_first {};
  using first_type = std::conditional_t<multipass, It, no_first>;
  // The current character's units, packed: unit k at bits [k * bits, (k + 1) * bits).
  static constexpr unsigned bits = out_form == 32 ? 0 : static_cast<unsigned>(out_form);
  using packed = std::conditional_t<out_form == 32, char32_t, std::uint32_t>;
  // Contiguous UTF-8 whose end is a pointer too: the fast path of fill() applies.
  static constexpr bool fast_utf8 = in_form == 8 && detail::is_contiguous_iter_v<It> && std::is_same_v<It, Sent>;
  struct no_limit {};
  using limit = std::conditional_t<fast_utf8, It, no_limit>;
  // Contiguous input whose end is a pointer too: after a character that is one unit in and the same
  // unit out, the iterator learns from one 8-byte load how many of the next units are such too
  // (run_), and steps over those one unit at a time without decoding them.
  static constexpr bool runs = detail::is_contiguous_iter_v<It> && std::is_same_v<It, Sent>;
  // Which units stand for themselves: ASCII, or (UTF-16 into UTF-16 or UTF-32) any non-surrogate.
  static constexpr bool ascii_runs = !(in_form == 16 && out_form != 8);

 public:
  using value_type = Out;
  using reference = Out;
  using pointer = void;
  using difference_type = std::ptrdiff_t;
  using iterator_category =
      std::conditional_t<bidirectional, std::bidirectional_iterator_tag,
                         std::conditional_t<multipass, std::forward_iterator_tag, std::input_iterator_tag>>;
  using iterator_concept = iterator_category;

  constexpr utf_iterator() = default;

  /// An iterator at the start of [pos, last); it cannot move before `pos`. For input iterators this
  /// reads the first character.
  UTF8DFA_ALWAYS_INLINE constexpr utf_iterator(It pos, Sent last, Policy policy = {})
      : first_(first_of(pos)), pos_(std::move(pos)), last_(std::move(last)), repl_(detail::view_replacement(policy)) {
    start();
  }

  /// An iterator at `pos`, a character boundary in [first, last) (or last), that can move back to
  /// `first`; offsets count from `first`.
  template <bool M = multipass, std::enable_if_t<M, int> = 0>
  UTF8DFA_ALWAYS_INLINE constexpr utf_iterator(It first, It pos, Sent last, Policy policy = {})
      : first_(first), pos_(pos), last_(last), repl_(detail::view_replacement(policy)) {
    start();
  }

  /// The current code unit. Not at the end.
  UTF8DFA_ALWAYS_INLINE constexpr Out operator*() const noexcept {
    if constexpr (out_form == 32)
      return units_;
    else
      return static_cast<Out>(units_ & ((1u << bits) - 1));
  }

  /// Multi-pass: where the current character starts in the input (at the end: the end, or under
  /// strict the start of the ill-formed subpart that ended the iteration). Single-pass: the
  /// position after the current character (the input consumed so far).
  constexpr It base() const { return pos_; }

  /// Input code units of the current character or ill-formed subpart; 0 at the end.
  constexpr std::size_t length() const noexcept { return n_ == 0 ? 0 : len_; }

  /// The ill-formed subpart the current unit replaces (replace), or the one that ended the
  /// iteration (strict, at the end); code == error_code::none otherwise.
  constexpr input_error error() const {
    if (err_ == error_code::none) return {offset(), 0, error_code::none};
    return {offset(), len_, err_};
  }

  /// Input code units before the current character (at the end: before the end, or the error);
  /// counted from the view's start (linear time over multi-pass iterators that are not random-access).
  constexpr std::size_t offset() const {
    if constexpr (multipass)
#if UTF8DFA_HAS_RANGES_VIEWS
      return static_cast<std::size_t>(std::ranges::distance(first_, pos_));
#else
      return static_cast<std::size_t>(std::distance(first_, pos_));
#endif
    else
      return off_;
  }

  /// The index of the current unit within its character's encoding (0 for the first).
  constexpr std::size_t unit_index() const noexcept {
    return n_ == 0 ? 0u : n_ - 1u - rem_;
  }

  /// Steps to the next code unit; at the end it stays there.
  UTF8DFA_ALWAYS_INLINE constexpr utf_iterator& operator++() {
    // The next unit of the same character: common in UTF-8 output, so tested first there.
    if constexpr (out_form == 8) {
      if (UTF8DFA_LIKELY(rem_ != 0)) {  // (laid out straight too)
        --rem_;
        units_ >>= bits;
        return *this;
      }
    }
    // The next input unit is known to be its own output unit.
    if constexpr (runs) {
      if (UTF8DFA_LIKELY(run_ != 0)) {  // (laid out straight: a run's units cost one branch each)
        --run_;
        ++pos_;
        if constexpr (in_form == 8)
          units_ = first_byte(detail::to_pointer(pos_));
        else
          units_ = static_cast<packed>(detail::wide_unit(*pos_));
        return *this;
      }
    }
    // The low half of a surrogate pair: rare.
    if constexpr (out_form == 16) {
      if (UTF8DFA_UNLIKELY(rem_ != 0)) {
        --rem_;
        units_ >>= bits;
        return *this;
      }
    }
    if constexpr (!multipass || stops)
      if (n_ == 0) return *this;  // the end, or stopped at an error: stay
    // (At the end len_ is 0 and fill() finds the end again.)
    if constexpr (multipass) {
      if constexpr (random_access)
        pos_ += static_cast<difference_type>(len_);
      else
        for (std::uint8_t i = 0; i < len_; ++i) ++pos_;
    } else {
      off_ += len_;
    }
    fill();
    return *this;
  }

  /// The iterator before the step; nothing where the input's iterator cannot be copied.
  constexpr auto operator++(int) {
    if constexpr (std::is_copy_constructible_v<It>) {
      utf_iterator old = *this;
      ++*this;
      return old;
    } else {
      ++*this;
    }
  }

  /// Steps back one code unit; at the first position it stays there.
  template <bool B = bidirectional, std::enable_if_t<B, int> = 0>
  constexpr utf_iterator& operator--() {
    if constexpr (runs) run_ = 0;
    if (rem_ + 1 < n_) {
      ++rem_;
      units_ = full_ >> ((n_ - 1u - rem_) * bits);
      return *this;
    }
    if (pos_ == first_) return *this;
    const It at = pos_;
    decoded d = detail::utf_retreat<in_form>(first_, pos_, last_);
    if constexpr (skips) {
      while (d.error != error_code::none) {  // dropped: the character before it
        if (pos_ == first_) {                // only dropped subparts before: stay
          pos_ = at;
          return *this;
        }
        d = detail::utf_retreat<in_form>(first_, pos_, last_);
      }
    } else {
      (void)at;
    }
    hold(d);
    rem_ = 0;
    units_ = full_ >> ((n_ - 1u) * bits);
    return *this;
  }

  template <bool B = bidirectional, std::enable_if_t<B, int> = 0>
  constexpr utf_iterator operator--(int) {
    utf_iterator old = *this;
    --*this;
    return old;
  }

  /// Both at the end (or stopped), or both at the same unit of the same character. Single-pass:
  /// both at the end or both not.
  friend constexpr bool operator==(const utf_iterator& a, const utf_iterator& b) {
    if (a.n_ == 0 || b.n_ == 0) return a.n_ == b.n_;
    if constexpr (multipass)
      return a.pos_ == b.pos_ && a.rem_ == b.rem_;
    else
      return true;
  }
  friend constexpr bool operator!=(const utf_iterator& a, const utf_iterator& b) {
    return !(a == b);
  }

  // Comparisons with a sentinel of another type: true at the end (or stopped at an error).
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator==(const utf_iterator& a, const S&) {
    return a.n_ == 0;
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator==(const S&, const utf_iterator& a) {
    return a.n_ == 0;
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator!=(const utf_iterator& a, const S&) {
    return a.n_ != 0;
  }
  template <class S, std::enable_if_t<std::is_same_v<S, Sent> && !std::is_same_v<S, It>, int> = 0>
  friend constexpr bool operator!=(const S&, const utf_iterator& a) {
    return a.n_ != 0;
  }

 private:
  static constexpr first_type first_of([[maybe_unused]] const It& pos) {
    if constexpr (multipass)
      return pos;
    else
      return first_type{};
  }

  // Holds one character with its input length and error: its units, or its replacement's.
  UTF8DFA_ALWAYS_INLINE constexpr void hold(const decoded& d) {
    const char32_t c = d.error == error_code::none ? d.code_point : repl_;
    len_ = d.length;
    err_ = d.error;
    if constexpr (out_form == 32) {
      units_ = c;
      n_ = 1;
    } else if constexpr (out_form == 16) {
      if (c < 0x10000) {
        units_ = c;
        n_ = 1;
      } else {
        units_ = (0xD7C0 + (c >> 10)) | ((0xDC00 + (c & 0x3FF)) << 16);
        n_ = 2;
      }
    } else {
      if (c < 0x80) {
        units_ = c;
        n_ = 1;
      } else if (c < 0x800) {
        units_ = (0xC0 | (c >> 6)) | ((0x80 | (c & 0x3F)) << 8);
        n_ = 2;
      } else if (c < 0x10000) {
        units_ = (0xE0 | (c >> 12)) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | ((0x80 | (c & 0x3F)) << 16);
        n_ = 3;
      } else {
        units_ = (0xF0 | (c >> 18)) | ((0x80 | ((c >> 12) & 0x3F)) << 8) | ((0x80 | ((c >> 6) & 0x3F)) << 16) |
                 ((0x80u | (c & 0x3F)) << 24);
        n_ = 4;
      }
    }
    rem_ = static_cast<std::uint8_t>(n_ - 1);
    if constexpr (bidirectional) full_ = units_;
  }

  // Holds a well-formed character of L input units (UTF-8 input: its value tells its output length).
  template <int L>
  UTF8DFA_ALWAYS_INLINE constexpr void hold_valid(char32_t c) {
    if constexpr (in_form != 8 || (out_form == 16 && L == 4)) {
      hold({c, static_cast<std::uint8_t>(L), error_code::none});
    } else {
      len_ = L;
      err_ = error_code::none;
      if constexpr (out_form == 32) {
        units_ = c;
        n_ = 1;
      } else if constexpr (out_form == 16) {
        units_ = c;  // L < 4: one unit
        n_ = 1;
      } else if constexpr (L == 1) {
        units_ = c;
        n_ = 1;
      } else if constexpr (L == 2) {
        units_ = (0xC0 | (c >> 6)) | ((0x80 | (c & 0x3F)) << 8);
        n_ = 2;
      } else if constexpr (L == 3) {
        units_ = (0xE0 | (c >> 12)) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | ((0x80 | (c & 0x3F)) << 16);
        n_ = 3;
      } else {
        units_ = (0xF0 | (c >> 18)) | ((0x80 | ((c >> 12) & 0x3F)) << 8) | ((0x80 | ((c >> 6) & 0x3F)) << 16) |
                 ((0x80u | (c & 0x3F)) << 24);
        n_ = 4;
      }
      rem_ = static_cast<std::uint8_t>(n_ - 1);
      if constexpr (bidirectional) full_ = units_;
    }
  }

  // fast_utf8: the positions before lim_ have 4 bytes readable (none when the input is shorter).
  // (The test of the end first: the compiler then sees that a view's end() holds no character.)
  UTF8DFA_ALWAYS_INLINE constexpr void start() {
    if constexpr (fast_utf8) {
      lim_ = last_ - first_ >= 4 ? last_ - 3 : first_;
      if (pos_ == last_) return stop(0, error_code::none);
    }
    fill();
  }

  // The end, or (strict) stopped at an ill-formed subpart of `length` units at pos_.
  constexpr void stop(std::uint8_t length, error_code e) {
    n_ = 0;
    rem_ = 0;
    len_ = length;
    err_ = e;
  }

  // The byte at p of contiguous UTF-8. (Read through unsigned char at run time: a sign-extending
  // load of a plain char would merge into the previous character's register.)
  template <class T>
  UTF8DFA_ALWAYS_INLINE static constexpr std::uint8_t first_byte(const T* p) noexcept {
    if (UTF8DFA_IS_CONSTANT_EVALUATED()) return detail::octet(*p);
    return *detail::as_uchars(p);
  }

  // After a character of one unit that is its own output unit at pos_: how many units after it are
  // such too, from the 8 bytes after it (none when fewer are left, or in a constant expression).
  UTF8DFA_ALWAYS_INLINE constexpr void scan_run() {
    if constexpr (runs) {
      if (UTF8DFA_IS_CONSTANT_EVALUATED()) return;
      const auto* p = detail::to_pointer(pos_);
      constexpr std::ptrdiff_t lanes = 8 / sizeof(*p);
      if (detail::to_pointer(last_) - p <= lanes) return;
      run_ = static_cast<std::uint8_t>(detail::leading_identity_units<sizeof(*p), ascii_runs>(detail::load64(p + 1)));
    }
  }

  // Contiguous input: what the inline paths leave (ill-formed input, the last bytes of UTF-8) goes to
  // the general decoders out of line, so that the loop that iterates keeps its state in registers.
  UTF8DFA_NOINLINE static constexpr decoded decode_out_of_line(It pos, Sent last) {
    return detail::utf_advance<in_form>(pos, last);
  }

  // Reads from pos_ (multi-pass: pos_ stays; single-pass: pos_ moves past what is read). Under
  // skip, moves past the ill-formed subparts there first.
  UTF8DFA_ALWAYS_INLINE constexpr void fill() {
    for (;;) {
      // The common characters of contiguous input inline; the rest through the general decoders.
      if constexpr (fast_utf8) {
        // While the longest character fits, one test of the bound covers the end too, and the bytes
        // are read without bound checks. Each form is told by compares (its length a predicted
        // branch, not a table load that the next character's position would wait for); anything
        // that is not a well-formed character goes to the DFA below.
        if (UTF8DFA_LIKELY(pos_ < lim_)) {
          const auto* p = detail::to_pointer(pos_);
          const std::uint8_t b0 = first_byte(p);
          if (UTF8DFA_LIKELY(b0 < 0x80)) {
            hold_valid<1>(b0);
            return scan_run();
          }
          const std::uint8_t b1 = detail::octet(p[1]);
          // UTF8-2, both bytes tested at once (one branch).
          const bool lead2 = detail::grammar[1].lead.contains(b0), tail = detail::is_continuation(b1);
          if (UTF8DFA_LIKELY(static_cast<unsigned>(lead2) & static_cast<unsigned>(tail)))
            return hold_valid<2>(((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu));
          // UTF8-3 and UTF8-4: the second byte by its lead's range, the others as UTF8-tail.
          if (const unsigned k = b0 - detail::second_byte_ranges::first_lead; k < detail::second_byte_ranges::leads) {
            const std::uint8_t b2 = detail::octet(p[2]);
            const bool second = detail::second_byte.lo[k] <= b1 && b1 <= detail::second_byte.hi[k];
            const bool third = detail::is_continuation(b2);
            const unsigned v = ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
            if (k < 0x10) {
              if (UTF8DFA_LIKELY(static_cast<unsigned>(second) & static_cast<unsigned>(third)))
                return hold_valid<3>(((b0 & 0x0Fu) << 12) | v);
            } else {
              const std::uint8_t b3 = detail::octet(p[3]);
              const bool fourth = detail::is_continuation(b3);
              if (UTF8DFA_LIKELY(static_cast<unsigned>(second) & static_cast<unsigned>(third) &
                                 static_cast<unsigned>(fourth)))
                return hold_valid<4>(((b0 & 0x07u) << 18) | (v << 6) | (b3 & 0x3Fu));
            }
          }
        } else if (pos_ == last_) {
          return stop(0, error_code::none);
        }
      } else {
        if (pos_ == last_) return stop(0, error_code::none);
      }
      if constexpr (in_form == 8 && detail::is_contiguous_iter_v<It> && !std::is_same_v<It, Sent>) {
        const std::uint8_t b0 = first_byte(detail::to_pointer(pos_));
        if (b0 < 0x80) return hold_valid<1>(b0);
      } else if constexpr (in_form != 8 && detail::is_contiguous_iter_v<It>) {
        const char32_t c = detail::wide_unit(*detail::to_pointer(pos_));
        if (in_form == 32 ? c < 0xD800 : !detail::is_surrogate(c)) {
          hold({c, 1, error_code::none});
          if constexpr (runs) {
            if (!ascii_runs || c < 0x80) scan_run();
          }
          return;
        }
        // A well-formed surrogate pair inline (with the end a pointer too).
        if constexpr (in_form == 16 && runs) {
          if (c <= 0xDBFF && detail::to_pointer(last_) - detail::to_pointer(pos_) >= 2) {
            const char32_t d = detail::wide_unit(detail::to_pointer(pos_)[1]);
            if (UTF8DFA_LIKELY(d >= 0xDC00 && d <= 0xDFFF))
              return hold({0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00), 2, error_code::none});
          }
        }
      }
      decoded d{};
      if constexpr (runs) {
        d = decode_out_of_line(pos_, last_);
        if constexpr (skips) {
          if (d.error != error_code::none) {
            pos_ += d.length;
            continue;
          }
        }
      } else if constexpr (multipass) {
        It t = pos_;
        d = detail::utf_advance<in_form>(t, last_);
        if constexpr (skips) {
          if (d.error != error_code::none) {
            pos_ = t;
            continue;
          }
        }
      } else {
        d = detail::utf_advance<in_form>(pos_, last_);
        if constexpr (skips) {
          if (d.error != error_code::none) {
            off_ += d.length;
            continue;
          }
        }
      }
      if constexpr (stops) {
        if (d.error != error_code::none) return stop(d.length, d.error);
      }
      return hold(d);
    }
  }

  first_type first_{};
  It pos_{};
  Sent last_{};
  std::size_t off_ = 0;  // single-pass: input units consumed before the current character
  char32_t repl_ = replacement_character;
  packed units_ = 0;      // the current character's units from the current one on
  packed full_ = 0;       // bidirectional: all of them
  std::uint8_t n_ = 0;    // units of the current character; 0 at the end (or stopped)
  std::uint8_t rem_ = 0;  // units of it after the current one
  std::uint8_t len_ = 0;  // input units of the current character (stopped: of the ill-formed subpart)
  std::uint8_t run_ = 0;  // runs: units after the current one that are their own output unit
  error_code err_ = error_code::none;
  limit lim_{};  // fast_utf8: see set_limit
};

/// The code units [first, last) transcoded to Out (see utf_iterator), as a range: as_utf8,
/// as_utf16 and as_utf32 make these. In C++20 a std::ranges::view and a borrowed range (it holds
/// only iterators and the replacement).
template <class Out, class It, class Sent = It, class Policy = replace>
class utf_view
#if UTF8DFA_HAS_RANGES_VIEWS
    : public std::ranges::view_interface<utf_view<Out, It, Sent, Policy>>
#endif
{
 public:
  using iterator = utf_iterator<Out, It, Sent, Policy>;
  /// The end: an iterator when It and Sent are one type (a common range), else Sent itself.
  using sentinel = std::conditional_t<std::is_same_v<It, Sent>, iterator, Sent>;

  constexpr utf_view() = default;
  constexpr utf_view(It first, Sent last, Policy policy = {}) : first_(first), last_(last), policy_(policy) {}

  /// The first unit (for single-pass input, reading the first character).
  UTF8DFA_ALWAYS_INLINE constexpr iterator begin() const {
    return iterator(first_, last_, policy_);
  }

  UTF8DFA_ALWAYS_INLINE constexpr sentinel end() const {
    if constexpr (!std::is_same_v<It, Sent>)
      return last_;
    else if constexpr (detail::view_forward_v<It>)
      return iterator(first_, last_, last_, policy_);
    else
      return iterator(last_, last_, policy_);
  }

  /// The input's bounds.
  constexpr It base_begin() const {
    return first_;
  }
  constexpr Sent base_end() const {
    return last_;
  }

 private:
  It first_{};
  Sent last_{};
  Policy policy_{};
};

#if UTF8DFA_HAS_RANGES_VIEWS
/// A std::ranges::view V of code units transcoded to Out, holding V itself (as_utf8, as_utf16 and
/// as_utf32 make these, C++20, for views and ranges that utf_view cannot hold by their iterators:
/// a view passed as a temporary, one that can only be iterated when not const, such as
/// std::views::filter's or std::views::istream's, or one whose iterators are move-only). Its
/// iterators are utf_iterator over V's iterator and sentinel; begin() and end() are const where V
/// can be iterated as const. Over an input-only V (std::views::istream) it is an input range, read
/// as it is iterated: call begin() once. A borrowed range where V is one.
template <class Out, class V, class Policy = replace>
class utf_owning_view : public std::ranges::view_interface<utf_owning_view<Out, V, Policy>> {
  template <class R>
  using iterator_of = utf_iterator<Out, std::ranges::iterator_t<R>, std::ranges::sentinel_t<R>, Policy>;

  template <class R>
  static constexpr iterator_of<R> begin_of(R& r, const Policy& policy) {
    return iterator_of<R>(std::ranges::begin(r), std::ranges::end(r), policy);
  }

  template <class R>
  static constexpr auto end_of(R& r, const Policy& policy) {
    if constexpr (!std::ranges::common_range<R>)
      return std::ranges::end(r);
    else if constexpr (detail::view_forward_v<std::ranges::iterator_t<R>>)
      return iterator_of<R>(std::ranges::begin(r), std::ranges::end(r), std::ranges::end(r), policy);
    else
      return iterator_of<R>(std::ranges::end(r), std::ranges::end(r), policy);
  }

 public:
  using iterator = iterator_of<V>;

  constexpr utf_owning_view() requires std::default_initializable<V>
  = default;
  constexpr explicit utf_owning_view(V base, Policy policy = {}) : base_(std::move(base)), policy_(policy) {}

  /// The first unit (for single-pass input, reading the first character).
  constexpr iterator begin() { return begin_of(base_, policy_); }
  constexpr auto end() { return end_of(base_, policy_); }
  constexpr auto begin() const requires std::ranges::range<const V> { return begin_of(base_, policy_); }
  constexpr auto end() const requires std::ranges::range<const V> { return end_of(base_, policy_); }

  /// The view of the input.
  constexpr V base() const& requires std::copy_constructible<V> { return base_; }
  constexpr V base() && { return std::move(base_); }

 private:
  V base_ = V();
  Policy policy_{};
};
#endif

// ---- null-terminated UTF-16 and UTF-32 strings: null_sentinel for wide code units --------------

/// A pointer to a UTF-16 or UTF-32 unit equals null_sentinel where it points at a zero unit.
template <class T, std::enable_if_t<detail::utf_form_v<T> == 16 || detail::utf_form_v<T> == 32, int> = 0>
constexpr bool operator==(const T* p, null_sentinel_t) noexcept {
  return *p == T{};
}
template <class T, std::enable_if_t<detail::utf_form_v<T> == 16 || detail::utf_form_v<T> == 32, int> = 0>
constexpr bool operator==(null_sentinel_t, const T* p) noexcept {
  return *p == T{};
}
template <class T, std::enable_if_t<detail::utf_form_v<T> == 16 || detail::utf_form_v<T> == 32, int> = 0>
constexpr bool operator!=(const T* p, null_sentinel_t) noexcept {
  return *p != T{};
}
template <class T, std::enable_if_t<detail::utf_form_v<T> == 16 || detail::utf_form_v<T> == 32, int> = 0>
constexpr bool operator!=(null_sentinel_t, const T* p) noexcept {
  return *p != T{};
}

namespace detail {

template <class R>
using range_iter_t = decltype(std::begin(std::declval<const R&>()));
template <class R>
using range_sent_t = decltype(std::end(std::declval<const R&>()));

struct not_a_unit {};

/// The code unit of a range iterated as const with copyable iterators (what utf_view holds), else
/// not_a_unit.
template <class R, class = void>
struct range_unit {
  using type = not_a_unit;
};
template <class R>
struct range_unit<R, std::void_t<range_iter_t<R>, range_sent_t<R>>> {
  using type =
      std::conditional_t<std::is_copy_constructible_v<range_iter_t<R>>, view_unit_t<range_iter_t<R>>, not_a_unit>;
};

template <class B>
inline constexpr bool is_input_of_views_v = !std::is_array_v<B> && !std::is_pointer_v<B> && !is_view_policy_v<B>;

/// Ranges of code units iterated as const (utf_view holds their iterators).
template <class R, class B = uncvref_t<R>>
inline constexpr bool is_const_unit_range_v = is_input_of_views_v<B>&& is_code_unit_v<typename range_unit<B>::type>;

template <class R, class = void>
struct is_contiguous_units : std::false_type {};
template <class R>
struct is_contiguous_units<
    R, std::void_t<decltype(std::data(std::declval<const R&>())), decltype(std::size(std::declval<const R&>()))>>
    : std::bool_constant<std::is_pointer_v<decltype(std::data(std::declval<const R&>()))>> {};

template <class R>
inline constexpr bool is_borrowed_units_v = is_borrowed_bytes_v<R>;

/// A range utf_view can view by its iterators without dangling: an lvalue, or a borrowed range (a
/// view, a span) iterated as const.
template <class R>
inline constexpr bool is_viewable_by_iterators_v = is_const_unit_range_v<R> &&
                                                   (std::is_lvalue_reference_v<R> || is_borrowed_units_v<uncvref_t<R>>);

#if UTF8DFA_HAS_RANGES_VIEWS
/// C++20: an input range of code units (iterated as it is passed: non-const for a non-const lvalue
/// or a temporary).
template <class R>
concept unit_input_range = is_input_of_views_v<uncvref_t<R>> && std::ranges::input_range<R&> &&
    is_code_unit_v<std::remove_cv_t<std::ranges::range_value_t<R&>>>;

/// C++20: the view utf_owning_view holds for R: std::views::all's (a ref_view of an lvalue
/// container, a copy of a view, a view moved in), or a copy of a view that is a const lvalue but can
/// only be iterated when not const (std::views::all cannot take it: it is no range as const).
template <class R>
constexpr auto hold_view(R&& r) {
  if constexpr (std::ranges::viewable_range<R>)
    return std::views::all(static_cast<R&&>(r));
  else
    return uncvref_t<R>(r);
}
template <class R>
using held_view_t = decltype(hold_view(std::declval<R>()));

template <class R>
inline constexpr bool is_holdable_v = std::ranges::viewable_range<R> ||
                                      (std::is_lvalue_reference_v<R> && std::ranges::view<uncvref_t<R>> &&
                                       std::copy_constructible<uncvref_t<R>>);

/// C++20: a range whose held view (held_view_t) is a range of code units.
template <class R>
concept unit_all_range =
    is_input_of_views_v<uncvref_t<R>> && is_holdable_v<R> && std::ranges::input_range<held_view_t<R>> &&
    is_code_unit_v<std::remove_cv_t<std::ranges::range_value_t<held_view_t<R>>>>;

template <class R>
inline constexpr bool is_lvalue_or_view_v = std::is_lvalue_reference_v<R> || std::ranges::view<uncvref_t<R>>;

/// C++20: a range utf_owning_view can hold: an lvalue (through std::views::all: a ref_view, or a copy
/// of a view) or a view passed as a temporary (moved in); not a temporary container (it would
/// dangle, or be moved into the view).
template <class R>
concept unit_ownable_range = unit_all_range<R> && is_lvalue_or_view_v<R>;
#endif

/// Ranges of code units as_utf* take: containers and views of any UTF form (not arrays or pointers,
/// which are null-terminated strings).
template <class R>
inline constexpr bool is_unit_range_v = is_const_unit_range_v<R>
#if UTF8DFA_HAS_RANGES_VIEWS
                                        || unit_input_range<R> || unit_all_range<R>
#endif
    ;

/// The ranges as_utf* view: by their iterators (utf_view), or (C++20) held (utf_owning_view).
template <class R>
inline constexpr bool is_viewable_units_v = is_viewable_by_iterators_v<R>
#if UTF8DFA_HAS_RANGES_VIEWS
                                            || unit_ownable_range<R>
#endif
    ;

template <class Out, class Policy, class R>
constexpr auto make_utf_view(R&& r, Policy policy) {
  using B = uncvref_t<R>;
  if constexpr (!is_viewable_by_iterators_v<R>) {
#if UTF8DFA_HAS_RANGES_VIEWS
    return utf_owning_view<Out, held_view_t<R>, Policy>(hold_view(static_cast<R&&>(r)), policy);
#endif
  } else if constexpr (is_contiguous_units<B>::value) {
    const auto* p = std::data(r);
    using P = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
    const P* first = p;
    return utf_view<Out, const P*, const P*, Policy>(first, first + std::size(r), policy);
  } else {
    const B& c = r;
    return utf_view<Out, range_iter_t<B>, range_sent_t<B>, Policy>(std::begin(c), std::end(c), policy);
  }
}

/// An iterator pair as_utf* take: an iterator of code units that can be copied (utf_view holds the
/// pair and begins again at each begin()), and an end that compares with it.
template <class It>
inline constexpr bool is_iterator_v = !std::is_void_v<typename legacy_category<It>::type>
#if UTF8DFA_HAS_RANGES
                                      || std::input_iterator<It>
#endif
    ;
template <class It, class Sent, class = void>
struct is_unit_iterator_pair : std::false_type {};
template <class It, class Sent>
struct is_unit_iterator_pair<
    It, Sent, std::void_t<view_unit_t<It>, decltype(std::declval<const It&>() == std::declval<const Sent&>())>>
    : std::bool_constant<is_iterator_v<It> && is_code_unit_v<view_unit_t<It>> && std::is_copy_constructible_v<It> &&
                         !is_view_policy_v<Sent>> {};

}  // namespace detail

// ---- as_utf8, as_utf16, as_utf32 ----------------------------------------------------------------
// Each takes: a range of code units (std::string, std::u16string_view, std::vector<char32_t>,
// std::span<const std::byte>, std::list<char16_t>, ...; a temporary container is refused, it would
// dangle); in C++20 also any view of code units, held by value where the view cannot be viewed
// through its iterators (a temporary view such as `s | std::views::take_while(p)`, a view that is
// iterated only when not const such as std::views::filter's or the input-only
// std::views::istream<char>(in); see utf_owning_view); a null-terminated string (const CharT*, or a
// string literal); or an iterator pair (e.g. std::istreambuf_iterator<char>, read as it is decoded;
// the end may be a sentinel of another type; in C++20 the iterator may be move-only). An optional
// last argument is the policy: replace{} (the default, U+FFFD), replace{U'?'}, skip{} (errors
// dropped), or strict{}.

/// UTF-8 code units (char) of any UTF input.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_viewable_units_v<R> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf8(R&& r, Policy policy = {}) {
  return detail::make_utf_view<char>(static_cast<R&&>(r), policy);
}
/// Refused: a view of a temporary container would dangle (keep the container in a variable); a
/// view passed as an lvalue that can neither be copied nor iterated as const must be moved in.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_unit_range_v<R> && !detail::is_viewable_units_v<R>, int> = 0>
constexpr void as_utf8(R&& r, Policy policy = {}) = delete;

/// UTF-16 code units (char16_t) of any UTF input.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_viewable_units_v<R> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf16(R&& r, Policy policy = {}) {
  return detail::make_utf_view<char16_t>(static_cast<R&&>(r), policy);
}
/// Refused: a view of a temporary container would dangle (keep the container in a variable); a
/// view passed as an lvalue that can neither be copied nor iterated as const must be moved in.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_unit_range_v<R> && !detail::is_viewable_units_v<R>, int> = 0>
constexpr void as_utf16(R&& r, Policy policy = {}) = delete;

/// UTF-32 code units (char32_t) of any UTF input.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_viewable_units_v<R> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf32(R&& r, Policy policy = {}) {
  return detail::make_utf_view<char32_t>(static_cast<R&&>(r), policy);
}
/// Refused: a view of a temporary container would dangle (keep the container in a variable); a
/// view passed as an lvalue that can neither be copied nor iterated as const must be moved in.
template <class R, class Policy = replace,
          std::enable_if_t<detail::is_unit_range_v<R> && !detail::is_viewable_units_v<R>, int> = 0>
constexpr void as_utf32(R&& r, Policy policy = {}) = delete;

/// A null-terminated string (up to its first zero unit, found while iterating) as UTF-8.
template <class T, class Policy = replace,
          std::enable_if_t<detail::is_code_unit_v<T> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char, const T*, null_sentinel_t, Policy> as_utf8(const T* s, Policy policy = {}) noexcept {
  return {s, null_sentinel, policy};
}

/// A null-terminated string as UTF-16.
template <class T, class Policy = replace,
          std::enable_if_t<detail::is_code_unit_v<T> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char16_t, const T*, null_sentinel_t, Policy> as_utf16(const T* s, Policy policy = {}) noexcept {
  return {s, null_sentinel, policy};
}

/// A null-terminated string as UTF-32.
template <class T, class Policy = replace,
          std::enable_if_t<detail::is_code_unit_v<T> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char32_t, const T*, null_sentinel_t, Policy> as_utf32(const T* s, Policy policy = {}) noexcept {
  return {s, null_sentinel, policy};
}

/// The code units [first, last) of any iterator pair, as UTF-8.
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::is_unit_iterator_pair<It, Sent>::value && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char, It, Sent, Policy> as_utf8(It first, Sent last, Policy policy = {}) {
  return {first, last, policy};
}

/// The code units [first, last) of any iterator pair, as UTF-16.
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::is_unit_iterator_pair<It, Sent>::value && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char16_t, It, Sent, Policy> as_utf16(It first, Sent last, Policy policy = {}) {
  return {first, last, policy};
}

/// The code units [first, last) of any iterator pair, as UTF-32.
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::is_unit_iterator_pair<It, Sent>::value && detail::is_view_policy_v<Policy>, int> = 0>
constexpr utf_view<char32_t, It, Sent, Policy> as_utf32(It first, Sent last, Policy policy = {}) {
  return {first, last, policy};
}

#if UTF8DFA_HAS_RANGES_VIEWS
namespace detail {
/// C++20: a move-only input iterator of code units and its end (e.g. std::views::istream's), which
/// utf_view cannot hold: held as a std::ranges::subrange in a utf_owning_view, an input range.
template <class It, class Sent>
concept move_only_unit_pair = std::input_iterator<It> && !std::copy_constructible<It> && std::sentinel_for<Sent, It> &&
                              is_code_unit_v<view_unit_t<It>> && !is_view_policy_v<Sent>;
}  // namespace detail

/// The code units [first, last) of a move-only input iterator and its end, as UTF-8 (read once).
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::move_only_unit_pair<It, Sent> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf8(It first, Sent last, Policy policy = {}) {
  using S = std::ranges::subrange<It, Sent>;
  return utf_owning_view<char, S, Policy>(S(std::move(first), std::move(last)), policy);
}

/// The same as UTF-16.
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::move_only_unit_pair<It, Sent> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf16(It first, Sent last, Policy policy = {}) {
  using S = std::ranges::subrange<It, Sent>;
  return utf_owning_view<char16_t, S, Policy>(S(std::move(first), std::move(last)), policy);
}

/// The same as UTF-32.
template <class It, class Sent, class Policy = replace,
          std::enable_if_t<detail::move_only_unit_pair<It, Sent> && detail::is_view_policy_v<Policy>, int> = 0>
constexpr auto as_utf32(It first, Sent last, Policy policy = {}) {
  using S = std::ranges::subrange<It, Sent>;
  return utf_owning_view<char32_t, S, Policy>(S(std::move(first), std::move(last)), policy);
}
#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if UTF8DFA_HAS_RANGES_VIEWS
namespace std::ranges {
/// The view holds only iterators, so its iterators stay valid after it is gone.
template <class Out, class It, class Sent, class Policy>
inline constexpr bool enable_borrowed_range<utf8dfa::utf_view<Out, It, Sent, Policy>> = true;
/// The held view's iterators are the view's: borrowed where the held view is.
template <class Out, class V, class Policy>
inline constexpr bool enable_borrowed_range<utf8dfa::utf_owning_view<Out, V, Policy>> = enable_borrowed_range<V>;
}  // namespace std::ranges
#endif

#endif
// ---- end utf8dfa/utf_views.hpp ----
// ---- begin utf8dfa/wide.hpp ----
// utf8dfa: UTF-8 to and from std::wstring. wchar_t holds UTF-16 where it is 2 bytes (Windows) and
// UTF-32 where it is 4 bytes (Linux, macOS, the BSDs): each function is the UTF-16 or UTF-32 one
// of transcode.hpp with the same policies, offsets (in wchar_t units) and errors.
//
//   std::wstring w = utf8dfa::to_wstring(bytes);   // throws conversion_error on ill-formed UTF-8
//   std::string s = utf8dfa::to_utf8(w);            // throws on an unpaired surrogate (2-byte wchar_t)
//
// How: wchar_t is a type of its own, distinct from char16_t and char32_t even where it has the same
// size, so the kernels (which read and write char16_t or char32_t objects) never see wchar_t
// storage through a cast pointer, which would break the aliasing rule. The wide string is copied
// unit by unit into a std::u16string or std::u32string (a value-preserving conversion between
// integer types of one size; the compiler makes it a plain copy) and converted there, or the
// conversion's result copied into the std::wstring the same way. The copy costs one pass at memory
// speed over the wide text, and one more allocation, on top of the conversion, and needs no kernel
// or compiled-library instance of its own: with UTF8DFA_SEPARATE_COMPILATION these functions call
// the library's compiled UTF-16 and UTF-32 conversions.
#ifndef UTF8DFA_WIDE_HPP
#define UTF8DFA_WIDE_HPP



namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

static_assert(sizeof(wchar_t) == 2 || sizeof(wchar_t) == 4, "utf8dfa: wchar_t is neither UTF-16 nor UTF-32");

/// The code unit type that wchar_t's UTF form uses: char16_t or char32_t.
using wchar_utf_unit = std::conditional_t<sizeof(wchar_t) == 2, char16_t, char32_t>;
using wchar_utf_string = std::basic_string<wchar_utf_unit>;

/// The name of wchar_t's UTF form, for conversion_error's message.
constexpr const char* wide_encoding_name() noexcept {
  return sizeof(wchar_t) == 2 ? "UTF-16" : "UTF-32";
}

/// `in` as UTF-16 or UTF-32 units (a wchar_t that is negative, where it is signed, becomes a value
/// above 0x10FFFF: an error, as in the UTF-32 form).
inline wchar_utf_string wide_to_units(std::wstring_view in) {
  return wchar_utf_string(in.begin(), in.end());
}

inline std::wstring units_to_wide(const wchar_utf_string& in) {
  return std::wstring(in.begin(), in.end());
}

}  // namespace detail

/// UTF-8 to wchar_t text (UTF-16 or UTF-32), strict without exceptions: `status` reports the
/// error (offset in bytes); the result holds the characters before it.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::wstring to_wstring(const Bytes& bytes, conversion_result& status) {
  if constexpr (sizeof(wchar_t) == 2)
    return detail::units_to_wide(to_utf16(bytes, status));
  else
    return detail::units_to_wide(to_utf32(bytes, status));
}

/// UTF-8 to wchar_t text, one U+FFFD per maximal ill-formed subpart; never fails.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::wstring to_wstring_lossy(const Bytes& bytes) {
  if constexpr (sizeof(wchar_t) == 2)
    return detail::units_to_wide(to_utf16_lossy(bytes));
  else
    return detail::units_to_wide(to_utf32_lossy(bytes));
}

/// UTF-8 to wchar_t text with each maximal ill-formed subpart dropped (to_wstring_lossy(bytes, skip{})).
template <class Skip, class Bytes, detail::enable_if_skip<Skip> = 0, detail::enable_if_bytes<Bytes> = 0>
std::wstring to_wstring_lossy(const Bytes& bytes, Skip) {
  if constexpr (sizeof(wchar_t) == 2)
    return detail::units_to_wide(to_utf16_lossy(bytes, skip{}));
  else
    return detail::units_to_wide(to_utf32_lossy(bytes, skip{}));
}

/// wchar_t text to UTF-8, strict without exceptions: an unpaired surrogate (2-byte wchar_t), or a
/// surrogate or value above 0x10FFFF (4-byte wchar_t), is the error; offsets in wchar_t units.
inline std::string to_utf8(std::wstring_view in, conversion_result& status) {
  return to_utf8(detail::wide_to_units(in), status);
}

/// wchar_t text to UTF-8, one U+FFFD per unit or value that is not a character; never fails.
inline std::string to_utf8_lossy(std::wstring_view in) {
  return to_utf8_lossy(detail::wide_to_units(in));
}

/// wchar_t text to UTF-8 with each unit or value that is not a character dropped.
template <class Skip, detail::enable_if_skip<Skip> = 0>
std::string to_utf8_lossy(std::wstring_view in, Skip) {
  return to_utf8_lossy(detail::wide_to_units(in), skip{});
}

#if UTF8DFA_HAS_EXCEPTIONS

/// UTF-8 to wchar_t text; throws conversion_error (offset in bytes) on ill-formed input.
template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
std::wstring to_wstring(const Bytes& bytes) {
  conversion_result status{};
  return detail::or_throw(to_wstring(bytes, status), status, "UTF-8", "byte");
}

/// wchar_t text to UTF-8; throws conversion_error (offset in wchar_t units) on an unpaired
/// surrogate (2-byte wchar_t), or a surrogate or value above 0x10FFFF (4-byte wchar_t).
inline std::string to_utf8(std::wstring_view in) {
  conversion_result status{};
  return detail::or_throw(to_utf8(in, status), status, detail::wide_encoding_name(), "unit");
}

#endif

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
// ---- end utf8dfa/wide.hpp ----

#endif
// ---- end utf8dfa.hpp ----
