// utf8dfa benchmark: every library's implementation of every operation, behind one signature.
#ifndef UTF8DFA_BENCH_PEERS_HPP
#define UTF8DFA_BENCH_PEERS_HPP

#include <cstddef>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace utf8dfa_bench {

/// Bytes past a 64-byte boundary at which every input and output buffer of the benchmark starts
/// (--misalign; 0 by default). Fixed, so that a row does not move with where the heap placed its
/// buffers (a load or store across two cache lines costs more, for every library alike).
extern std::size_t buffer_offset;

/// Allocates every buffer `buffer_offset` bytes past a 64-byte boundary.
template <class T>
struct line_allocator {
  using value_type = T;
  line_allocator() noexcept = default;
  template <class U>
  line_allocator(const line_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    auto* base = static_cast<unsigned char*>(::operator new (n * sizeof(T) + 64 + buffer_offset, std::align_val_t{64}));
    return reinterpret_cast<T*>(base + buffer_offset);
  }
  void deallocate(T* p, std::size_t) noexcept {
    ::operator delete (reinterpret_cast<unsigned char*>(p) - buffer_offset, std::align_val_t{64});
  }
  template <class U>
  bool operator==(const line_allocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const line_allocator<U>&) const noexcept {
    return false;
  }
};

/// A string or vector whose buffer starts buffer_offset bytes past a 64-byte boundary.
template <class C>
using line_string = std::basic_string<C, std::char_traits<C>, line_allocator<C>>;
template <class T>
using line_vector = std::vector<T, line_allocator<T>>;

/// The operations, named as in the benchmark names.
enum class op {
  validate,
  utf8_to_utf32,
  utf8_to_utf16,
  utf16_to_utf8,
  utf32_to_utf8,
  count,
  // The output-length helpers and the allocating conversions (utf8dfa only).
  utf16_length_from_utf8,
  utf32_length_from_utf8,
  utf8_length_from_utf16,
  utf8_length_from_utf32,
  to_utf16,
  to_utf32,
  to_utf8_from_utf16,
  to_utf8_from_utf32,
  // Lazy transcoding views (utf_views.hpp) iterated into the buffers, against the peers' per-character loops.
  view_utf8_to_utf16,
  view_utf16_to_utf8,
  view_utf16_to_utf32,
  view_utf8_to_utf32,
  // The bounded conversions (bounded.hpp) given exactly the room the output needs (utf8dfa only).
  utf8_to_utf16_bounded,
  utf16_to_utf8_bounded,
  // Latin-1 and UTF-16/UTF-32 input in its own right (well-formed corpora).
  latin1_to_utf8,
  utf8_to_latin1,
  validate_utf16,
  utf16_to_utf32,
  utf32_to_utf16,
  to_well_formed_utf16,
  // The comparison with simdutf (issue 29): validation that reports where the error is, the
  // conversion for input known to be valid, and the lengths of input known to be valid
  // (assume_valid, what simdutf's length functions compute).
  validate_with_errors,
  utf8_to_utf16_assume_valid,
  utf16_length_from_utf8_assume_valid,
  utf32_length_from_utf8_assume_valid,
  utf8_length_from_utf16_assume_valid,
  utf8_length_from_utf32_assume_valid,
  // Issue 33: the UTF-16/UTF-32/Latin-1 operations with kernels of their own, each against simdutf's
  // (the UTF-16BE ones on byte-swapped input; Latin-1 output from each corpus's Latin-1 form).
  count_utf16,
  utf16_to_latin1,
  utf32_to_latin1,
  validate_utf32,
  latin1_to_utf16,
  latin1_to_utf32,
  utf16be_to_utf8,
  utf8_to_utf16be,
  validate_utf16be,
  change_endianness_utf16,
  // In place (the output over the input): the repair of UTF-16 and the byte-order change, whose
  // kernels must not read what they have just written (a load of a unit stored by the step before
  // waits on the store).
  to_well_formed_utf16_in_place,
  change_endianness_utf16_in_place,
};
const char* op_name(op o);

/// One prepared input: the UTF-8 text and its UTF-16/UTF-32 forms (made by the utf8dfa scalar path,
/// which is the reference every output is checked against).
struct input {
  line_string<char> utf8;
  line_string<char16_t> utf16;  ///< empty when `errors` (the UTF-16/32 operations skip those inputs)
  line_string<char32_t> utf32;  ///< for ill-formed input: the lossy (U+FFFD) decode
  std::size_t code_points = 0;
  bool ill_formed = false;  ///< a "+errors" corpus: validate scans for every error, decoding replaces
  std::size_t errors = 0;   ///< maximal ill-formed subparts in utf8
  /// The Latin-1 form of a well-formed corpus (characters up to U+00FF as they are, each other one
  /// mapped to the byte 80..FF with its low 7 bits), and that text as UTF-8; empty when `ill_formed`.
  line_string<char> latin1;
  line_string<char> latin1_utf8;
  line_string<char16_t> latin1_utf16;  ///< `latin1` widened to UTF-16 (and UTF-32): one unit per byte
  line_string<char32_t> latin1_utf32;
  line_string<char16_t> utf16be;  ///< `utf16` with the two bytes of each unit exchanged (UTF-16BE on this host)
  /// The buffers of the in-place operations, one each (the repair, the byte-order change): `utf16`
  /// copied when the buffer is not that size (so on the first call, and after a check, which
  /// clears it); the byte-order change leaves its buffer in either order.
  mutable line_vector<char16_t> repair16, swap16;
};

/// One of input's in-place buffers, filled from utf16 when it does not hold it.
inline char16_t* in_place_utf16(const input& in, line_vector<char16_t>& buffer) {
  if (buffer.size() != in.utf16.size()) buffer.assign(in.utf16.begin(), in.utf16.end());
  return buffer.data();
}

/// Output space, grown once and reused, so that the timed loops never allocate.
struct buffers {
  line_vector<char32_t> out32;
  line_vector<char16_t> out16;
  line_vector<unsigned char> out8;
  // The last result of an allocating conversion (to_utf16, ...), kept for its check.
  std::u16string str16;
  std::u32string str32;
  std::string str8;
};

/// One call of the operation. Returns: validate: 1 if valid (on ill-formed input: the number of
/// errors found); conversions: output units written, or a value that differs from the reference on
/// failure; count: the count; memcpy: bytes copied; read: a checksum of the bytes.
using run_fn = std::size_t (*)(const input&, buffers&);

struct impl {
  op operation;
  const char*
      library;  ///< "utf8dfa", "utf8dfa_scalar", "utfcpp", "icu", "simdjson", "simdutf", "iconv", "memcpy", "read"
  bool on_ill_formed;  ///< true: the lossy / scan-everything form for "+errors" inputs
  run_fn run;
};

/// Every implementation compiled into this binary (peers found at configure time only).
const std::vector<impl>& implementations();

/// The simdutf implementation that uses the instruction set of utf8dfa's kernel `kernel` (avx512:
/// icelake, avx2: haswell, sse4: westmere, neon: arm64, scalar: fallback); null when there is none.
const char* simdutf_pair(std::string_view kernel);

/// Makes the simdutf rows call simdutf's implementation `name`; false when simdutf is not compiled
/// in, or has no such implementation that this CPU runs.
bool select_simdutf(std::string_view name);

/// Whether simdutf is compiled in.
bool have_simdutf();

/// Names and versions of the peers, for the benchmark context.
std::string peer_versions();

/// The checksum the `read` implementation computes, by a plain byte loop (for its check).
std::size_t reference_checksum(const std::string& bytes);

/// The bytes operation `o` reads from `in` (UTF-8, Latin-1, UTF-16 or UTF-32), for `read` and the rates.
std::string_view input_of(op o, const input& in);

}  // namespace utf8dfa_bench

#endif
