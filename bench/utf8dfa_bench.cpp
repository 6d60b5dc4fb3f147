// utf8dfa_bench: utf8dfa against the peers found at configure time, on generated and real corpora.
//
//   utf8dfa_bench [--corpus-dir=DIR] [--sizes=small,large,tiny] [--large-mib=32] [--list-corpora]
//                 [--all-kernels (adds utf8dfa_<kernel> for every kernel the CPU runs, and with simdutf
//                  compiled in, simdutf_<implementation> on the same instruction set: icelake, haswell, ...)]
//                 [--selftest-corrupt (damages each output before its check: every check must fail)]
//                 [--misalign=N (every input and output buffer starts N bytes past a 64-byte boundary;
//                  0 by default: rows do not move with where the heap put their buffers)]
//                 [Google Benchmark flags: --benchmark_filter=..., --benchmark_format=json, ...]
//
// Benchmark names are <operation>/<library>/<corpus>; <corpus>@32M is the corpus repeated to at least
// 32 MiB, <corpus>@16B/@64B/@256B/@1024B its first bytes (--sizes=tiny, not run by default), <corpus>+errors
// has an ill-formed sequence planted about every KiB. Before a benchmark is timed, its output is
// checked once against the utf8dfa scalar path; any disagreement on well-formed input fails the run
// (exit status 1). Libraries: utf8dfa (the kernel the library dispatches to: the best one, or the one
// UTF8DFA_KERNEL names), utf8dfa_scalar (forced with select_kernel("scalar")), and the peers.
// simdutf's rows (when it was found at configure time) are timed in alternation with utf8dfa's row of
// the same operation, simdutf on the instruction set of utf8dfa's kernel (simdutf: the kernel
// utf8dfa dispatches to; simdutf_<implementation>: the utf8dfa kernel of that instruction set); their
// counter utf8dfa_vs_simdutf is utf8dfa's speed over simdutf's.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "corpus.hpp"
#include "peers.hpp"
#include "utf8dfa.hpp"

namespace utf8dfa_bench {

struct options {
  std::string corpus_dir;
  bool small = true;
  bool large = true;
  bool tiny = false;
  std::size_t large_bytes = std::size_t{32} << 20;
  bool list = false;
  bool all_kernels = false;
};

/// Kernels this build and CPU can run, found through the public select_kernel (names the dispatcher
/// may use; a name it does not know is simply not available).
std::vector<std::string> probe_kernels(const std::string& restore) {
  std::vector<std::string> found;
  for (const char* name : {"avx512", "avx2", "sse4", "neon", "scalar"})
    if (utf8dfa::select_kernel(name)) found.emplace_back(name);
  utf8dfa::select_kernel(restore);
  return found;
}

/// --selftest-corrupt: damage every output before it is checked, to prove that the checks fail.
bool& corrupt_outputs() {
  static bool on = false;
  return on;
}

// ---- The output-length helpers and the allocating conversions (utf8dfa only) ---------------------
// Length operations return the length; allocating ones keep their result in the buffers (moved in,
// so each call also frees the previous result, as a caller's temporary would) and return its size.

bool is_length_op(op o) {
  return o == op::utf16_length_from_utf8 || o == op::utf32_length_from_utf8 || o == op::utf8_length_from_utf16 ||
         o == op::utf8_length_from_utf32 || o == op::utf16_length_from_utf8_assume_valid ||
         o == op::utf32_length_from_utf8_assume_valid || o == op::utf8_length_from_utf16_assume_valid ||
         o == op::utf8_length_from_utf32_assume_valid;
}
bool is_allocating_op(op o) {
  return o == op::to_utf16 || o == op::to_utf32 || o == op::to_utf8_from_utf16 || o == op::to_utf8_from_utf32;
}

/// Changes one unit of the output (conversions, memcpy) or the result (validate, count, read).
void corrupt(op o, const std::string& library, std::size_t& r, buffers& b) {
  const bool writes =
      library == "memcpy" ||
      (library != "read" && o != op::validate && o != op::count && o != op::validate_utf16 &&
       o != op::validate_with_errors && o != op::count_utf16 && o != op::validate_utf32 && o != op::validate_utf16be);
  if (is_length_op(o)) {
    r += 1;
  } else if (is_allocating_op(o)) {
    if (!b.str16.empty()) b.str16[0] ^= 1;
    if (!b.str32.empty()) b.str32[0] ^= 1;
    if (!b.str8.empty()) b.str8[0] ^= 1;
    if (b.str16.empty() && b.str32.empty() && b.str8.empty()) r += 1;
  } else if (!writes || r == 0) {
    r += 1;
  } else if ((o == op::utf8_to_utf32 || o == op::view_utf16_to_utf32 || o == op::view_utf8_to_utf32 ||
              o == op::utf16_to_utf32 || o == op::latin1_to_utf32) &&
             library != "memcpy") {
    b.out32[r / 2] ^= 1;
  } else if ((o == op::utf8_to_utf16 || o == op::view_utf8_to_utf16 || o == op::utf8_to_utf16_bounded ||
              o == op::utf32_to_utf16 || o == op::to_well_formed_utf16 || o == op::utf8_to_utf16_assume_valid ||
              o == op::latin1_to_utf16 || o == op::utf8_to_utf16be || o == op::change_endianness_utf16) &&
             library != "memcpy") {
    b.out16[r / 2] ^= 1;
  } else {
    b.out8[r / 2] ^= 1;
  }
}

/// The kernel the library picked (the best one, or UTF8DFA_KERNEL's choice) before any forcing.
std::string& best_kernel() {
  static std::string name;
  return name;
}

/// Selects a kernel for the lifetime of the object, then restores the previous one.
class kernel_scope {
 public:
  explicit kernel_scope(const char* name) : previous_(utf8dfa::active_kernel()) { utf8dfa::select_kernel(name); }
  ~kernel_scope() { utf8dfa::select_kernel(previous_); }
  kernel_scope(const kernel_scope&) = delete;
  kernel_scope& operator=(const kernel_scope&) = delete;

 private:
  std::string previous_;
};

std::size_t len16(const input& in, buffers&) {
  return utf8dfa::utf16_length_from_utf8(in.utf8);
}
std::size_t len32(const input& in, buffers&) {
  return utf8dfa::utf32_length_from_utf8(in.utf8);
}
std::size_t len8_16(const input& in, buffers&) {
  return utf8dfa::utf8_length_from_utf16(in.utf16);
}
std::size_t len8_32(const input& in, buffers&) {
  return utf8dfa::utf8_length_from_utf32(in.utf32);
}
/// The allocating conversions first drop the previous result, as a caller that converts, uses and
/// drops each string does: assigning the new string over it would build the new one while the old
/// one is still held, two outputs in cache where the pointer conversion has one.
template <class Str>
void release(Str& s) {
  Str().swap(s);
}
std::size_t alloc16(const input& in, buffers& b) {
  release(b.str16);
  utf8dfa::conversion_result status{};
  b.str16 = utf8dfa::to_utf16(in.utf8, status);
  return status ? b.str16.size() : ~std::size_t{0};
}
std::size_t alloc16_lossy(const input& in, buffers& b) {
  release(b.str16);
  b.str16 = utf8dfa::to_utf16_lossy(in.utf8);
  return b.str16.size();
}
std::size_t alloc32(const input& in, buffers& b) {
  release(b.str32);
  utf8dfa::conversion_result status{};
  b.str32 = utf8dfa::to_utf32(in.utf8, status);
  return status ? b.str32.size() : ~std::size_t{0};
}
std::size_t alloc32_lossy(const input& in, buffers& b) {
  release(b.str32);
  b.str32 = utf8dfa::to_utf32_lossy(in.utf8);
  return b.str32.size();
}
std::size_t alloc8_16(const input& in, buffers& b) {
  release(b.str8);
  utf8dfa::conversion_result status{};
  b.str8 = utf8dfa::to_utf8(std::u16string_view(in.utf16), status);
  return status ? b.str8.size() : ~std::size_t{0};
}
std::size_t alloc8_32(const input& in, buffers& b) {
  release(b.str8);
  utf8dfa::conversion_result status{};
  b.str8 = utf8dfa::to_utf8(std::u32string_view(in.utf32), status);
  return status ? b.str8.size() : ~std::size_t{0};
}

/// The bounded conversions with a capacity of exactly the output's length (known from the corpus's
/// reference forms, as a caller would know it from the length helper): the cost of the bound.
std::size_t bounded16(const input& in, buffers& b) {
  return utf8dfa::utf8_to_utf16(in.utf8, b.out16.data(), in.utf16.size()).written;
}
std::size_t bounded8_16(const input& in, buffers& b) {
  return utf8dfa::utf16_to_utf8(std::u16string_view(in.utf16), b.out8.data(), in.utf8.size()).written;
}

/// The utf8dfa implementations of these operations (UTF-8 input ones also on ill-formed input).
std::vector<impl> length_impls() {
  std::vector<impl> v;
  for (const char* lib : {"utf8dfa", "utf8dfa_scalar"}) {
    for (const bool ill : {false, true}) {
      v.push_back({op::utf16_length_from_utf8, lib, ill, &len16});
      v.push_back({op::utf32_length_from_utf8, lib, ill, &len32});
      v.push_back({op::to_utf16, lib, ill, ill ? &alloc16_lossy : &alloc16});
      v.push_back({op::to_utf32, lib, ill, ill ? &alloc32_lossy : &alloc32});
    }
    v.push_back({op::utf8_length_from_utf16, lib, false, &len8_16});
    v.push_back({op::utf8_length_from_utf32, lib, false, &len8_32});
    v.push_back({op::to_utf8_from_utf16, lib, false, &alloc8_16});
    v.push_back({op::to_utf8_from_utf32, lib, false, &alloc8_32});
    v.push_back({op::utf8_to_utf16_bounded, lib, false, &bounded16});
    v.push_back({op::utf16_to_utf8_bounded, lib, false, &bounded8_16});
  }
  return v;
}

/// The reference for these operations: the scalar conversion's output (lossy on ill-formed input).
bool check_length_op(op o, const input& in, std::size_t r, const buffers& b) {
  if (!in.ill_formed) {
    switch (o) {
      case op::utf16_length_from_utf8:
      case op::utf16_length_from_utf8_assume_valid:
        return r == in.utf16.size();
      case op::utf32_length_from_utf8:
      case op::utf32_length_from_utf8_assume_valid:
        return r == in.utf32.size();
      case op::utf8_length_from_utf16:
      case op::utf8_length_from_utf32:
      case op::utf8_length_from_utf16_assume_valid:
      case op::utf8_length_from_utf32_assume_valid:
        return r == in.utf8.size();
      case op::to_utf16:
        return r == b.str16.size() && std::u16string_view(b.str16) == std::u16string_view(in.utf16);
      case op::to_utf32:
        return r == b.str32.size() && std::u32string_view(b.str32) == std::u32string_view(in.utf32);
      case op::to_utf8_from_utf16:
      case op::to_utf8_from_utf32:
        return r == b.str8.size() && std::string_view(b.str8) == std::string_view(in.utf8);
      default:
        return false;
    }
  }
  const kernel_scope scalar("scalar");
  std::u16string ref16(in.utf8.size() + 1, u'\0');
  ref16.resize(utf8dfa::utf8_to_utf16(in.utf8, ref16.data(), utf8dfa::replace{}).written);
  switch (o) {
    case op::utf16_length_from_utf8:
      return r == ref16.size();
    case op::utf32_length_from_utf8:
      return r == in.utf32.size();
    case op::to_utf16:
      return r == b.str16.size() && b.str16 == ref16;
    case op::to_utf32:
      return r == b.str32.size() && std::u32string_view(b.str32) == std::u32string_view(in.utf32);
    default:
      return false;
  }
}

/// The input of a corpus at one size, with its reference forms, computed by the utf8dfa scalar path.
std::unique_ptr<input> prepare(std::string text, bool ill_formed) {
  const kernel_scope scalar("scalar");
  auto in = std::make_unique<input>();
  in->utf8 = std::move(text);
  in->ill_formed = ill_formed;
  if (ill_formed) {
    in->utf32 = utf8dfa::to_utf32_lossy(in->utf8);
    for (std::size_t pos = 0; pos < in->utf8.size();) {  // one decode_next per character or subpart
      const utf8dfa::decoded d = utf8dfa::decode_next(in->utf8, pos);
      in->errors += d.error != utf8dfa::error_code::none;
      pos += d.length;
    }
    return in;
  }
  utf8dfa::conversion_result s16{}, s32{};
  in->utf16 = utf8dfa::to_utf16(in->utf8, s16);
  in->utf32 = utf8dfa::to_utf32(in->utf8, s32);
  in->code_points = utf8dfa::count_code_points(in->utf8);
  in->latin1.reserve(in->utf32.size());
  for (const char32_t c : in->utf32) in->latin1.push_back(static_cast<char>(c <= 0xFF ? c : 0x80 | (c & 0x7F)));
  in->latin1_utf8.resize(utf8dfa::utf8_length_from_latin1(in->latin1));
  const std::size_t latin1_utf8 = utf8dfa::latin1_to_utf8(in->latin1, in->latin1_utf8.data());
  // The forms of issue 33's operations, by plain loops: Latin-1 widened, UTF-16 byte-swapped.
  in->latin1_utf16.assign(in->latin1.size(), u'\0');
  in->latin1_utf32.assign(in->latin1.size(), U'\0');
  for (std::size_t i = 0; i < in->latin1.size(); ++i) {
    in->latin1_utf16[i] = static_cast<unsigned char>(in->latin1[i]);
    in->latin1_utf32[i] = static_cast<unsigned char>(in->latin1[i]);
  }
  in->utf16be = in->utf16;
  for (char16_t& u : in->utf16be) u = static_cast<char16_t>((u >> 8) | ((u & 0xFF) << 8));
  if (!s16 || !s32 || in->code_points != in->utf32.size() || latin1_utf8 != in->latin1_utf8.size()) {
    std::fprintf(stderr, "utf8dfa_bench: reference conversion failed\n");
    std::exit(1);
  }
  return in;
}

/// How a corpus is sized: as it is (in cache), repeated to at least `bytes`, or its first `bytes`
/// at most (cut back to a character boundary: the per-call cost on short strings).
enum class sizing { natural, large, tiny };

/// A corpus at one size. Large inputs are built on first use and only one is kept at a time
/// (benchmarks are registered corpus by corpus, so each is built once).
struct source {
  std::string name;
  const corpus* base;
  sizing size;
  bool ill_formed;
  std::size_t bytes;
  std::unique_ptr<input> data;

  const input& get() {
    static source* current_large = nullptr;
    if (data) return *data;
    std::string text = base->utf8;
    if (ill_formed) {
      std::size_t planted = 0;
      text = plant_errors(text, 1024, planted);
    }
    if (size == sizing::large) {
      if (current_large != nullptr) current_large->data.reset();
      current_large = this;
      text = repeat_to(text, bytes);
    } else if (size == sizing::tiny) {
      std::size_t cut = std::min(bytes, text.size());
      while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
      text.resize(cut);
    }
    data = prepare(std::move(text), ill_formed);
    return *data;
  }
};

struct bench_case {
  std::string name;
  const impl* im;
  source* src;
  bool checked = false;
  bool failed = false;
  bool partner_checked = false;  ///< a simdutf pair: utf8dfa's output under the pair's kernel checked too
  int paired_calls = 0;          ///< calls per block of run_paired, fixed at the first repetition
};

int& failures() {
  static int n = 0;
  return n;
}
int& checks_passed() {
  static int n = 0;
  return n;
}

buffers& shared_buffers() {
  static buffers b;
  return b;
}

bool is_utf8dfa(const impl& im) {
  return std::strncmp(im.library, "utf8dfa", 7) == 0;
}

/// utf8dfa in a dialect other than utf8 (utf8dfa_wtf8, ...): the scalar DFA, no kernel to select.
bool is_dialect(const impl& im) {
  for (const char* d : {"utf8dfa_wtf8", "utf8dfa_cesu8", "utf8dfa_mutf8", "utf8dfa_legacy"})
    if (std::strcmp(im.library, d) == 0) return true;
  return false;
}

std::size_t input_bytes(op o, const input& in) {
  return input_of(o, in).size();
}

/// Room for any output of any operation on `in` (UTF-32 and UTF-16 output never has more units than
/// the UTF-8 input has bytes; memcpy of the UTF-32 form needs 4 bytes per code point).
void grow(buffers& b, const input& in) {
  const std::size_t n = in.utf8.size() + 64;
  if (b.out32.size() < n) b.out32.resize(n);
  if (b.out16.size() < n) b.out16.resize(n);
  const std::size_t n8 = std::max(n, in.utf32.size() * 4 + 64);
  if (b.out8.size() < n8) b.out8.resize(n8);
}

template <class T>
bool same(const line_vector<T>& out, std::size_t written, std::basic_string_view<T> ref) {
  return written == ref.size() && std::equal(ref.begin(), ref.end(), out.begin());
}
template <class T>
bool same(const line_vector<T>& out, std::size_t written, const line_string<T>& ref) {
  return same(out, written, std::basic_string_view<T>(ref));
}
bool same_bytes(const line_vector<unsigned char>& out, std::size_t written, const void* ref, std::size_t n) {
  return written == n && std::memcmp(out.data(), ref, n) == 0;
}

/// Runs the implementation once on poisoned buffers and compares its result with the reference.
bool check(const bench_case& c, const input& in, std::string& why) {
  buffers& b = shared_buffers();
  std::fill(b.out32.begin(), b.out32.end(), U'\xDEAD');
  std::fill(b.out16.begin(), b.out16.end(), u'\xDEAD');
  std::fill(b.out8.begin(), b.out8.end(), static_cast<unsigned char>(0xEE));
  const bool in_place =
      c.im->operation == op::to_well_formed_utf16_in_place || c.im->operation == op::change_endianness_utf16_in_place;
  line_vector<char16_t>& in_place16 = c.im->operation == op::to_well_formed_utf16_in_place ? in.repair16 : in.swap16;
  if (in_place) in_place16.clear();  // (the in-place operations start from the corpus's UTF-16)
  std::size_t r = 0;
  try {
    r = c.im->run(in, b);
    if (corrupt_outputs() && in_place && r != 0 && r / 2 < in_place16.size()) in_place16[r / 2] ^= 1;
    if (corrupt_outputs()) corrupt(c.im->operation, c.im->library, r, b);
  } catch (const std::exception& e) {
    why = std::string("threw: ") + e.what();
    return false;
  }
  const op o = c.im->operation;
  bool ok = false;
  if (std::strcmp(c.im->library, "memcpy") == 0) {
    const void* src = o == op::utf16_to_utf8   ? static_cast<const void*>(in.utf16.data())
                      : o == op::utf32_to_utf8 ? static_cast<const void*>(in.utf32.data())
                                               : static_cast<const void*>(in.utf8.data());
    ok = same_bytes(b.out8, r, src, input_bytes(o, in));
  } else if (std::strcmp(c.im->library, "read") == 0) {
    ok = r == reference_checksum(std::string(input_of(o, in)));
  } else {
    switch (o) {
      case op::validate:
        ok = r == (in.ill_formed ? in.errors : 1);
        break;
      case op::validate_with_errors:
        ok = r == 1;
        break;
      case op::utf8_to_utf16_assume_valid:
        ok = same(b.out16, r, in.utf16);
        break;
      case op::utf8_to_utf32:
        ok = same(b.out32, r, in.utf32);
        break;
      case op::utf8_to_utf16:
      case op::utf8_to_utf16_bounded:
        ok = same(b.out16, r, in.utf16);
        break;
      case op::utf16_to_utf8:
      case op::utf16_to_utf8_bounded:
      case op::utf32_to_utf8:
        ok = same_bytes(b.out8, r, in.utf8.data(), in.utf8.size());
        break;
      case op::count:
        ok = r == in.code_points;
        break;
      case op::latin1_to_utf8:
        ok = same_bytes(b.out8, r, in.latin1_utf8.data(), in.latin1_utf8.size());
        break;
      case op::utf8_to_latin1:
        ok = same_bytes(b.out8, r, in.latin1.data(), in.latin1.size());
        break;
      case op::validate_utf16:
        ok = r == 1;
        break;
      case op::utf16_to_utf32:
        ok = same(b.out32, r, in.utf32);
        break;
      case op::utf32_to_utf16:
      case op::to_well_formed_utf16:
        ok = same(b.out16, r, in.utf16);
        break;
      // Issue 33's operations.
      case op::count_utf16:
        ok = r == in.code_points;
        break;
      case op::utf16_to_latin1:
      case op::utf32_to_latin1:
        ok = same_bytes(b.out8, r, in.latin1.data(), in.latin1.size());
        break;
      case op::validate_utf32:
      case op::validate_utf16be:
        ok = r == 1;
        break;
      case op::latin1_to_utf16:
        ok = same(b.out16, r, in.latin1_utf16);
        break;
      case op::latin1_to_utf32:
        ok = same(b.out32, r, in.latin1_utf32);
        break;
      case op::utf16be_to_utf8:
        ok = same_bytes(b.out8, r, in.utf8.data(), in.utf8.size());
        break;
      case op::utf8_to_utf16be:
      case op::change_endianness_utf16:
        ok = same(b.out16, r, in.utf16be);
        break;
      // In place: the buffer after one call from the corpus's UTF-16 (cleared below, so that the
      // timed calls start from it again).
      case op::to_well_formed_utf16_in_place:
        ok = same(in_place16, r, in.utf16);
        break;
      case op::change_endianness_utf16_in_place:
        ok = same(in_place16, r, in.utf16be);
        break;
      // The transcoding views.
      case op::view_utf8_to_utf16:
        ok = same(b.out16, r, in.utf16);
        break;
      case op::view_utf16_to_utf8:
        ok = same_bytes(b.out8, r, in.utf8.data(), in.utf8.size());
        break;
      case op::view_utf16_to_utf32:
      case op::view_utf8_to_utf32:
        ok = same(b.out32, r, in.utf32);
        break;
      default:
        ok = check_length_op(o, in, r, b);
        break;
    }
  }
  if (!ok) why = "result " + std::to_string(r) + " or output differs from the utf8dfa scalar path";
  if (in_place) in_place16.clear();
  return ok;
}

/// The conversion an output-length helper, allocating conversion or bounded conversion `im` is held
/// against: the pointer conversion in the same direction (same library and input kind), or null.
run_fn reference_conversion(const impl& im) {
  op ref = im.operation;
  switch (im.operation) {
    case op::to_utf16:
    case op::utf16_length_from_utf8:
    case op::utf8_to_utf16_bounded:
      ref = op::utf8_to_utf16;
      break;
    case op::to_utf32:
    case op::utf32_length_from_utf8:
      ref = op::utf8_to_utf32;
      break;
    case op::to_utf8_from_utf16:
    case op::utf8_length_from_utf16:
    case op::utf16_to_utf8_bounded:
      ref = op::utf16_to_utf8;
      break;
    case op::to_utf8_from_utf32:
    case op::utf8_length_from_utf32:
      ref = op::utf32_to_utf8;
      break;
    default:
      return nullptr;
  }
  for (const impl& p : implementations())
    if (p.operation == ref && p.on_ill_formed == im.on_ill_formed && std::strcmp(p.library, "utf8dfa") == 0)
      return p.run;
  return nullptr;
}

bool is_simdutf(const impl& im) {
  return std::strncmp(im.library, "simdutf", 7) == 0;
}

/// The utf8dfa kernel a simdutf row is held against: utf8dfa's dispatched one for "simdutf", the
/// one on the instruction set of the implementation for "simdutf_<implementation>".
std::string simdutf_partner(const impl& im) {
  if (std::strcmp(im.library, "simdutf") == 0) return best_kernel();
  for (const char* k : {"avx512", "avx2", "sse4", "neon", "scalar"}) {
    const char* pair = simdutf_pair(k);
    if (pair != nullptr && std::strcmp(pair, im.library + 8) == 0) return k;
  }
  return best_kernel();
}

/// What a simdutf row is timed in alternation with: utf8dfa's implementation of the same operation.
const impl* utf8dfa_impl_of(op o) {
  static const std::vector<impl> lengths = length_impls();
  for (const std::vector<impl>* list : {&implementations(), &lengths})
    for (const impl& p : *list)
      if (p.operation == o && !p.on_ill_formed && std::strcmp(p.library, "utf8dfa") == 0) return &p;
  return nullptr;
}

run_fn utf8dfa_of(op o) {
  const impl* p = utf8dfa_impl_of(o);
  return p != nullptr ? p->run : nullptr;
}

/// An operation timed in alternation with the conversion it is held against (`ref`, into the
/// preallocated buffers): each iteration runs a block of calls of each, the first call of a block
/// not timed, so that both see the same state of the machine, whose speed drifts over seconds on a
/// shared host. The time reported is the operation's calls' (manual time, per call); the counter
/// vs_conversion is the operation's speed over the conversion's, over the run. With `against_simdutf`
/// (own: simdutf, ref: utf8dfa), the counter is utf8dfa_vs_simdutf: utf8dfa's speed over simdutf's,
/// the median over the iterations' pairs of blocks.
void run_paired(benchmark::State& state, op o, const input& in, buffers& b, run_fn own, run_fn ref, int& calls,
                bool against_simdutf = false) {
  using clock = std::chrono::steady_clock;
  if (calls == 0) {  // about 100 us blocks; the same in every repetition (their iteration counts must agree)
    const auto start = clock::now();
    for (int i = 0; i < 4; ++i) benchmark::DoNotOptimize(ref(in, b));
    const double one = std::chrono::duration<double>(clock::now() - start).count() / 4;
    // Up to 1024 calls, so that the clock's reads stay a small part of a block of short calls.
    calls = static_cast<int>(std::clamp(100e-6 / (one > 0 ? one : 1e-9), 2.0, 1024.0));
  }
  const auto block = [&](run_fn f) {
    benchmark::DoNotOptimize(f(in, b));  // brings its own output back into cache: not timed
    const auto t0 = clock::now();
    for (int i = 1; i < calls; ++i) {
      std::size_t r = f(in, b);
      benchmark::DoNotOptimize(r);
      benchmark::ClobberMemory();
    }
    return std::chrono::duration<double>(clock::now() - t0).count();
  };
  double own_s = 0, ref_s = 0;
  std::vector<double> pair_ratios;  // per iteration: the own block's time over the ref block's
  bool ref_first = true;
  while (state.KeepRunningBatch(calls - 1)) {  // an iteration is one timed call; the order alternates
    double r = 0;
    if (ref_first) r = block(ref);
    const double t = block(own);
    if (!ref_first) r = block(ref);
    ref_first = !ref_first;
    own_s += t;
    ref_s += r;
    if (against_simdutf && r > 0) pair_ratios.push_back(t / r);
    state.SetIterationTime(t);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(input_bytes(o, in)));
  if (against_simdutf && !pair_ratios.empty()) {
    // The median of the blocks' ratios: a block that the host's other work interrupted is an outlier
    // of one pair, where it would weigh on a ratio of sums.
    const auto mid = pair_ratios.begin() + static_cast<std::ptrdiff_t>(pair_ratios.size() / 2);
    std::nth_element(pair_ratios.begin(), mid, pair_ratios.end());
    state.counters["utf8dfa_vs_simdutf"] = *mid;
  } else if (against_simdutf) {
    state.counters["utf8dfa_vs_simdutf"] = ref_s > 0 ? own_s / ref_s : 0;
  } else {
    state.counters["vs_conversion"] = own_s > 0 ? ref_s / own_s : 0;
  }
}

void run_case(benchmark::State& state, bench_case* c) {
  const input& in = c->src->get();
  const bool dfa = is_utf8dfa(*c->im);
  // utf8dfa: the dispatched kernel; utf8dfa_<name>: that kernel, forced.
  const bool dialect = is_dialect(*c->im);
  if (dfa && !dialect)
    utf8dfa::select_kernel(std::strcmp(c->im->library, "utf8dfa") == 0 ? best_kernel() : c->im->library + 8);
  const bool simd_peer = is_simdutf(*c->im);
  std::string partner;
  if (simd_peer) {  // the pair: utf8dfa's kernel and simdutf's implementation on one instruction set
    partner = simdutf_partner(*c->im);
    utf8dfa::select_kernel(partner);
    const char* name = std::strcmp(c->im->library, "simdutf") == 0 ? simdutf_pair(partner) : c->im->library + 8;
    if (name == nullptr || !select_simdutf(name)) {
      state.SkipWithError("no simdutf implementation for this kernel");
      return;
    }
  }
  buffers& b = shared_buffers();
  grow(b, in);
  if (!c->checked) {
    c->checked = true;
    std::string why;
    if (check(*c, in, why)) {
      ++checks_passed();
    } else if (in.ill_formed && !dfa) {
      // Peers may segment ill-formed input differently; that is a difference, not a bug here.
      std::fprintf(stderr, "utf8dfa_bench: note: %s disagrees on ill-formed input (%s); not timed\n", c->name.c_str(),
                   why.c_str());
      c->failed = true;
    } else {
      std::fprintf(stderr, "utf8dfa_bench: MISMATCH %s: %s\n", c->name.c_str(), why.c_str());
      c->failed = true;
      ++failures();
    }
  }
  if (c->failed) {
    state.SkipWithError("output differs from the utf8dfa scalar path");
    return;
  }
  const run_fn run = c->im->run;
  if (simd_peer && !c->partner_checked && !in.ill_formed) {
    // utf8dfa's side of the pair under the kernel it is timed with (its own rows check it too, but
    // a run filtered to the pairs would not): a mismatch fails the binary as any other.
    c->partner_checked = true;
    if (const impl* own = utf8dfa_impl_of(c->im->operation)) {
      const bench_case side{c->name, own, c->src};
      std::string why;
      if (check(side, in, why)) {
        ++checks_passed();
      } else {
        const std::string kernel(utf8dfa::active_kernel());
        std::fprintf(stderr, "utf8dfa_bench: MISMATCH %s (utf8dfa %s): %s\n", c->name.c_str(), kernel.c_str(),
                     why.c_str());
        c->failed = true;
        ++failures();
        state.SkipWithError("utf8dfa's output differs from the utf8dfa scalar path");
        return;
      }
    }
  }
  if (simd_peer) {
    if (const run_fn ref = utf8dfa_of(c->im->operation)) {
      run_paired(state, c->im->operation, in, b, run, ref, c->paired_calls, true);
      state.SetLabel(std::string(utf8dfa::active_kernel()) + " vs " +
                     (std::strcmp(c->im->library, "simdutf") == 0 ? simdutf_pair(partner) : c->im->library + 8));
      return;
    }
  }
  if (const run_fn ref = reference_conversion(*c->im)) {
    run_paired(state, c->im->operation, in, b, run, ref, c->paired_calls);
    state.SetLabel(std::string(utf8dfa::active_kernel()));
    return;
  }
  for (auto _ : state) {
    std::size_t r = run(in, b);
    benchmark::DoNotOptimize(r);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(input_bytes(c->im->operation, in)));
  if (dfa) state.SetLabel(dialect ? std::string("scalar DFA") : std::string(utf8dfa::active_kernel()));
}

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

/// Takes this program's own flags out of argv (Google Benchmark rejects flags it does not know).
options parse(int& argc, char** argv) {
  options opt;
  if (const char* env = std::getenv("UTF8DFA_CORPUS_DIR")) opt.corpus_dir = env;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (starts_with(a, "--corpus-dir=")) {
      opt.corpus_dir = std::string(a.substr(13));
    } else if (a == "--corpus-dir" && i + 1 < argc) {
      opt.corpus_dir = argv[++i];
    } else if (starts_with(a, "--sizes=")) {
      const std::string_view v = a.substr(8);
      opt.small = v.find("small") != std::string_view::npos;
      opt.large = v.find("large") != std::string_view::npos;
      opt.tiny = v.find("tiny") != std::string_view::npos;
      if (!opt.small && !opt.large && !opt.tiny) {
        std::fprintf(stderr, "utf8dfa_bench: --sizes takes a list of small, large, tiny\n");
        std::exit(2);
      }
    } else if (starts_with(a, "--large-mib=")) {
      opt.large_bytes = std::strtoull(std::string(a.substr(12)).c_str(), nullptr, 10) << 20;
      if (opt.large_bytes == 0) opt.large_bytes = std::size_t{1} << 20;
    } else if (a == "--list-corpora") {
      opt.list = true;
    } else if (a == "--all-kernels") {
      opt.all_kernels = true;
    } else if (starts_with(a, "--misalign=")) {
      buffer_offset = std::strtoull(std::string(a.substr(11)).c_str(), nullptr, 10) % 64;
    } else if (a == "--selftest-corrupt") {
      corrupt_outputs() = true;
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  return opt;
}

/// The CPU's model name (Linux), for the benchmark context; empty elsewhere.
std::string cpu_model() {
  std::FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (f == nullptr) return {};
  char line[512];
  std::string model;
  while (model.empty() && std::fgets(line, sizeof line, f) != nullptr) {
    const std::string_view l = line;
    if (starts_with(l, "model name")) {
      const std::size_t colon = l.find(':');
      if (colon != std::string_view::npos) model = std::string(l.substr(colon + 2));
    }
  }
  std::fclose(f);
  while (!model.empty() && (model.back() == '\n' || model.back() == ' ')) model.pop_back();
  return model;
}

std::string size_suffix(std::size_t bytes) {
  return bytes % (std::size_t{1} << 20) == 0 ? "@" + std::to_string(bytes >> 20) + "M"
                                             : "@" + std::to_string(bytes) + "B";
}

}  // namespace utf8dfa_bench

int main(int argc, char** argv) {
  using namespace utf8dfa_bench;
  const options opt = parse(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  best_kernel() = std::string(utf8dfa::active_kernel());

  // Corpora: generated, then the directory's files; the +errors variant of the mixed one.
  std::deque<corpus> corpora;
  for (corpus& c : generated_corpora()) corpora.push_back(std::move(c));
  if (!opt.corpus_dir.empty()) {
    const std::size_t before = corpora.size();
    for (corpus& c : load_corpus_dir(opt.corpus_dir)) corpora.push_back(std::move(c));
    if (corpora.size() == before)
      std::fprintf(stderr, "utf8dfa_bench: no *.txt corpus in %s\n", opt.corpus_dir.c_str());
  }
  const corpus* error_base = &corpora[0];
  for (const corpus& c : corpora)
    if (c.name == "gen.mixed") error_base = &c;

  if (opt.list) {
    for (const corpus& c : corpora) {
      const std::size_t cps = utf8dfa::count_code_points(c.utf8);
      std::printf("%-34s %8zu bytes %8zu code points %5.2f bytes/cp%s\n", c.name.c_str(), c.utf8.size(), cps,
                  static_cast<double>(c.utf8.size()) / static_cast<double>(cps), c.real ? "" : "  (generated)");
    }
    return 0;
  }

  std::deque<source> sources;
  if (opt.tiny)
    for (const std::size_t n : {16, 64, 256, 1024})
      for (const corpus& c : corpora) sources.push_back({c.name + size_suffix(n), &c, sizing::tiny, false, n, nullptr});
  for (const sizing size : {sizing::natural, sizing::large}) {
    if ((size == sizing::large && !opt.large) || (size == sizing::natural && !opt.small)) continue;
    const std::size_t bytes = size == sizing::large ? opt.large_bytes : 0;
    const std::string suffix = size == sizing::large ? size_suffix(bytes) : "";
    for (const corpus& c : corpora) sources.push_back({c.name + suffix, &c, size, false, bytes, nullptr});
    sources.push_back({error_base->name + "+errors" + suffix, error_base, size, true, bytes, nullptr});
  }

  std::deque<bench_case> cases;
  std::vector<impl> impls = implementations();
  const std::vector<impl> utf8dfa_only = length_impls();
  impls.insert(impls.end(), utf8dfa_only.begin(), utf8dfa_only.end());
  const std::vector<std::string> kernels = probe_kernels(best_kernel());
  std::deque<std::string> kernel_libraries;  // stable storage for the names
  if (opt.all_kernels) {
    const std::vector<impl> base(impls);
    for (const std::string& k : kernels) {
      if (k != "scalar") {  // utf8dfa_scalar is already there
        kernel_libraries.push_back("utf8dfa_" + k);
        for (const impl& im : base)
          if (std::strcmp(im.library, "utf8dfa") == 0)
            impls.push_back({im.operation, kernel_libraries.back().c_str(), im.on_ill_formed, im.run});
      }
      // simdutf on the same instruction set, when it has it and the CPU runs it.
      const char* pair = simdutf_pair(k);
      if (pair == nullptr || !select_simdutf(pair)) continue;
      kernel_libraries.push_back(std::string("simdutf_") + pair);
      for (const impl& im : base)
        if (std::strcmp(im.library, "simdutf") == 0)
          impls.push_back({im.operation, kernel_libraries.back().c_str(), im.on_ill_formed, im.run});
    }
  }
  // The simdutf rows pair simdutf with utf8dfa's dispatched kernel: none when simdutf has no
  // implementation on its instruction set, nor with --all-kernels (simdutf_<implementation> has them).
  const char* best_pair = simdutf_pair(best_kernel());
  if (have_simdutf() && (opt.all_kernels || best_pair == nullptr || !select_simdutf(best_pair))) {
    if (!opt.all_kernels)
      std::fprintf(stderr, "utf8dfa_bench: simdutf has no implementation for kernel %s: no simdutf rows\n",
                   best_kernel().c_str());
    impls.erase(std::remove_if(impls.begin(), impls.end(),
                               [](const impl& im) { return std::strcmp(im.library, "simdutf") == 0; }),
                impls.end());
  }
  constexpr op ops[] = {
      op::validate, op::utf8_to_utf32, op::utf8_to_utf16, op::utf16_to_utf8, op::utf32_to_utf8, op::count,
      op::utf16_length_from_utf8, op::utf32_length_from_utf8, op::utf8_length_from_utf16, op::utf8_length_from_utf32,
      op::to_utf16, op::to_utf32, op::to_utf8_from_utf16, op::to_utf8_from_utf32,
      // The transcoding views.
      op::view_utf8_to_utf16, op::view_utf16_to_utf8, op::view_utf16_to_utf32, op::view_utf8_to_utf32,
      // The bounded conversions.
      op::utf8_to_utf16_bounded, op::utf16_to_utf8_bounded,
      // Latin-1, and UTF-16 / UTF-32 input in its own right.
      op::latin1_to_utf8, op::utf8_to_latin1, op::validate_utf16, op::utf16_to_utf32, op::utf32_to_utf16,
      op::to_well_formed_utf16,
      // Against simdutf: the error's position, input known to be valid.
      op::validate_with_errors, op::utf8_to_utf16_assume_valid, op::utf16_length_from_utf8_assume_valid,
      op::utf32_length_from_utf8_assume_valid, op::utf8_length_from_utf16_assume_valid,
      op::utf8_length_from_utf32_assume_valid,
      // Issue 33: the UTF-16/UTF-32/Latin-1 operations with kernels of their own.
      op::count_utf16, op::utf16_to_latin1, op::utf32_to_latin1, op::validate_utf32, op::latin1_to_utf16,
      op::latin1_to_utf32, op::utf16be_to_utf8, op::utf8_to_utf16be, op::validate_utf16be, op::change_endianness_utf16,
      // In place.
      op::to_well_formed_utf16_in_place, op::change_endianness_utf16_in_place};
  for (source& s : sources)
    for (const op o : ops)
      for (const impl& im : impls) {
        if (im.operation != o || im.on_ill_formed != s.ill_formed) continue;
        cases.push_back({std::string(op_name(o)) + "/" + im.library + "/" + s.name, &im, &s});
        bench_case* c = &cases.back();
        benchmark::internal::Benchmark* r = benchmark::RegisterBenchmark(c->name.c_str(), run_case, c);
        r->Unit(benchmark::kMicrosecond);
        if (reference_conversion(im) != nullptr || is_simdutf(im)) r->UseManualTime();
      }

  benchmark::AddCustomContext("utf8dfa_version", std::to_string(UTF8DFA_VERSION));
  benchmark::AddCustomContext("utf8dfa_kernel", best_kernel());
  std::string kernel_list;
  for (const std::string& k : kernels) kernel_list += (kernel_list.empty() ? "" : ",") + k;
  benchmark::AddCustomContext("utf8dfa_kernels_available", kernel_list);
  benchmark::AddCustomContext("peers", peer_versions());
  benchmark::AddCustomContext("buffer_offset", std::to_string(buffer_offset) + " bytes past a 64-byte boundary");
#if defined(__clang__)
  benchmark::AddCustomContext("compiler", std::string("clang ") + __clang_version__);
#elif defined(__GNUC__)
  benchmark::AddCustomContext("compiler", std::string("gcc ") + __VERSION__);
#endif
  if (const std::string cpu = cpu_model(); !cpu.empty()) benchmark::AddCustomContext("cpu_model", cpu);
  benchmark::AddCustomContext("real_corpora", std::to_string(std::count_if(corpora.begin(), corpora.end(),
                                                                           [](const corpus& c) { return c.real; })));

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::fprintf(stderr, "utf8dfa_bench: %d outputs checked against the utf8dfa scalar path, %d mismatches\n",
               checks_passed() + failures(), failures());
  return failures() == 0 ? 0 : 1;
}
