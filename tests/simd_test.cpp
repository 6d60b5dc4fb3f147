// Every kernel the CPU supports against the scalar DFA, byte for byte: validity, error offset, kind
// and length; count_leads; utf16_length. The kernels are called directly (not through the
// UTF8DFA_KERNEL choice), so each run of this file covers all of them.
#include <utf8dfa.hpp>
// The kernels' own functions, tested directly (also with UTF8DFA_SEPARATE_COMPILATION, where
// utf8dfa.hpp only declares the dispatcher).
#include <utf8dfa/detail/cpu.hpp>
#include <utf8dfa/detail/simd/avx2/kernels.hpp>
#include <utf8dfa/detail/simd/avx512/kernels.hpp>
#include <utf8dfa/detail/simd/neon/kernels.hpp>
#include <utf8dfa/detail/simd/sse4/kernels.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "catch.hpp"

#include "guard_pages.hpp"
#define UTF8DFA_TEST_MMAP UTF8DFA_TEST_GUARD_PAGES

namespace utf8dfa_test_simd {  // the file's own names (the suite also builds as unity sources)

namespace {

namespace d = utf8dfa::detail;
using bytes = std::vector<unsigned char>;

std::vector<const d::kernel_table*> all_kernels() {
  std::size_t count = 0;
  const d::kernel_table* const* list = d::available_kernels(count);
  return {list, list + count};
}

/// A kernel's block checker alone (no scalar re-scan): it must flag exactly the ill-formed inputs,
/// and the block it blames must hold the first error. (validate() hides a checker that flags too
/// much, since the re-scan then finds nothing; this catches it.)
struct block_checker {
  const char* name;
  std::size_t (*check)(const unsigned char*, std::size_t) noexcept;
  std::size_t min_input, span;
};

std::vector<block_checker> all_block_checkers() {
  std::vector<block_checker> v;
#if UTF8DFA_X86_KERNELS
  if (d::cpu_has(d::cpu_needs_avx512))
    v.push_back({"avx512", &d::avx512::check_blocks, d::avx512::min_block_input, d::avx512::block_span});
  if (d::cpu_has(d::cpu_needs_avx2))
    v.push_back({"avx2", &d::avx2::check_blocks, d::avx2::min_block_input, d::avx2::block_span});
  if (d::cpu_has(d::cpu_needs_sse4))
    v.push_back({"sse4", &d::sse4::check_blocks, d::sse4::min_block_input, d::sse4::block_span});
#endif
#if UTF8DFA_NEON_KERNELS
  v.push_back({"neon", &d::neon::check_blocks, d::neon::min_block_input, d::neon::block_span});
#endif
  return v;
}

bool same(const utf8dfa::validation_result& a, const utf8dfa::validation_result& b) {
  return a.valid_up_to == b.valid_up_to && a.error_length == b.error_length && a.error == b.error;
}

std::string hex(const unsigned char* p, std::size_t n) {
  std::string s;
  char buf[4];
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "%02X ", p[i]);
    s += buf;
  }
  return s;
}

/// Compares every kernel with the scalar reference on [p, p+n); counts the cases.
struct agreement {
  std::vector<const d::kernel_table*> kernels = all_kernels();
  std::vector<block_checker> checkers = all_block_checkers();
  std::size_t cases = 0, failures = 0;
  std::map<std::string, std::size_t> failures_of;  // per kernel, to cap the detail

  void operator()(const unsigned char* p, std::size_t n) {
    ++cases;
    // The reference: the one-character-at-a-time decoder, which validate_scalar must match too.
    const utf8dfa::validation_result ref = d::validate_from(p, n, 0);
    // Counts the plain way: a byte at a time.
    std::size_t leads = 0, units = 0;
    for (std::size_t i = 0; i < n; ++i) leads += !d::is_continuation(p[i]);
    for (std::size_t i = 0; i < ref.valid_up_to; ++i)
      units += std::size_t{!d::is_continuation(p[i])} + std::size_t{p[i] >= 0xF0};
    for (const d::kernel_table* k : kernels) {
      const utf8dfa::validation_result got = k->validate(p, n);
      const std::size_t got_leads = k->count_leads(p, n);
      const std::size_t got_units = k->utf16_length(p, ref.valid_up_to);
      if (same(got, ref) && got_leads == leads && got_units == units) continue;
      ++failures;
      if (++failures_of[k->name] > 5) continue;  // enough detail
      INFO("kernel " << k->name << ", n = " << n << ", input: " << hex(p, n));
      INFO("expected valid_up_to " << ref.valid_up_to << " length " << ref.error_length << " kind "
                                   << utf8dfa::error_name(ref.error) << "; got " << got.valid_up_to << " "
                                   << got.error_length << " " << utf8dfa::error_name(got.error));
      INFO("count_leads " << leads << " / " << got_leads << ", utf16_length " << units << " / " << got_units);
      FAIL_CHECK("kernel disagrees with the scalar DFA");
    }
    for (const block_checker& c : checkers) {
      if (n < c.min_input) continue;
      const std::size_t b = c.check(p, n);
      const bool valid = ref.error == utf8dfa::error_code::none;
      if (valid ? b == d::blocks_pass
                : b != d::blocks_pass && d::boundary_before(p, b) <= ref.valid_up_to && ref.valid_up_to < b + c.span)
        continue;
      ++failures;
      if (++failures_of[std::string(c.name) + " blocks"] > 5) continue;
      INFO("block checker " << c.name << ", n = " << n << ", input: " << hex(p, n));
      INFO("first error at " << ref.valid_up_to << "; checker says "
                             << (b == d::blocks_pass ? std::string("pass") : std::to_string(b)));
      FAIL_CHECK("block checker disagrees with the scalar DFA");
    }
  }
  void operator()(const bytes& b) { (*this)(b.data(), b.size()); }
  void operator()(const std::string& s) { (*this)(reinterpret_cast<const unsigned char*>(s.data()), s.size()); }

  void report(const char* what, std::chrono::steady_clock::time_point start) const {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("simd_test: %-40s %9zu inputs x %zu kernels, %7.1f ms\n", what, cases, kernels.size(), ms);
    CHECK(failures == 0);
  }
};

void append_utf8(bytes& out, char32_t c) {
  unsigned char buf[4];
  const std::size_t n = utf8dfa::encode(c, reinterpret_cast<char*>(buf));
  out.insert(out.end(), buf, buf + n);
}

/// Random scalar values, weighted towards scripts and towards the encoding-length edges.
char32_t random_scalar(std::mt19937& rng) {
  static constexpr char32_t edges[] = {0x00,    0x7F,    0x80,    0x7FF,    0x800,   0xFFF,  0x1000,
                                       0xCFFF,  0xD000,  0xD7FF,  0xE000,   0xFFFD,  0xFFFF, 0x10000,
                                       0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF};
  struct range {
    char32_t lo, hi;
  };
  static constexpr range scripts[] = {{0x20, 0x7E},     {0xA0, 0x17F},      {0x370, 0x3FF},   {0x400, 0x4FF},
                                      {0x600, 0x6FF},   {0x900, 0x97F},     {0x3040, 0x30FF}, {0x4E00, 0x9FFF},
                                      {0xAC00, 0xD7A3}, {0x1F300, 0x1FAFF}, {0x0, 0xD7FF},    {0xE000, 0x10FFFF}};
  const unsigned pick = rng() % 16;
  if (pick == 0) return edges[rng() % (sizeof edges / sizeof edges[0])];
  const range r = scripts[rng() % (sizeof scripts / sizeof scripts[0])];
  return r.lo + static_cast<char32_t>(rng() % (r.hi - r.lo + 1));
}

bytes random_text(std::mt19937& rng, std::size_t min_bytes) {
  bytes out;
  // Runs of one script at a time, as real text has, with ASCII runs in between.
  while (out.size() < min_bytes) {
    const unsigned run = 1 + rng() % 40;
    const bool ascii = rng() % 3 == 0;
    for (unsigned k = 0; k < run; ++k)
      append_utf8(out, ascii ? static_cast<char32_t>(0x20 + rng() % 95) : random_scalar(rng));
  }
  return out;
}

// Ill-formed (and some well-formed) sequences, one for each way the grammar can fail.
const char* const patterns[] = {
    "\x80",      // unexpected_continuation
    "\xBF\xBF",  //
    "\xC0\x80",
    "\xC1\xBF",  // invalid_byte (overlong 2-byte leads)
    "\xF5\x80\x80\x80",
    "\xFF",  // invalid_byte
    "\xC2",
    "\xC2\xC2\x80",  // too_short (cut by what follows)
    "\xE1\x80",
    "\xE1\x41",  //
    "\xF1\x80\x80",
    "\xF4\x8F\xBF",  //
    "\xE0\x80\x80",
    "\xE0\x9F\xBF",  // overlong
    "\xF0\x80\x80\x80",
    "\xF0\x8F\xBF\xBF",
    "\xED\xA0\x80",
    "\xED\xBF\xBF",  // surrogate
    "\xF4\x90\x80\x80",
    "\xF4\xBF\xBF\xBF",  // too_large
    "\xC2\x80",
    "\xDF\xBF",  // well-formed edges
    "\xE0\xA0\x80",
    "\xED\x9F\xBF",
    "\xEF\xBF\xBF",
    "\xF0\x90\x80\x80",
    "\xF4\x8F\xBF\xBF",
    "\xF3\xBF\xBF\xBF",
};

// Fillers the patterns are planted in: ASCII and each encoding length.
const char* const fillers[] = {"a", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "a\xD0\x96\xE4\xB8\xAD"};

bytes filled(std::size_t n, const char* filler) {
  const std::size_t f = std::strlen(filler);
  bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<unsigned char>(filler[i % f]);
  return b;
}

}  // namespace

TEST_CASE("the kernel list: best first, scalar last, each name selectable") {
  const auto kernels = all_kernels();
  REQUIRE(!kernels.empty());
  CHECK(std::string(kernels.back()->name) == "scalar");
  for (const d::kernel_table* k : kernels) CHECK(d::find_kernel(k->name) == k);
  CHECK(d::find_kernel("no-such-kernel") == nullptr);
  // Under ctest each run names its kernel: it must really be the one in use.
  if (const char* env = std::getenv("UTF8DFA_KERNEL")) CHECK(utf8dfa::active_kernel() == env);
#if defined(UTF8DFA_NO_SIMD)
  CHECK(kernels.size() == 1);
#endif
  std::printf("simd_test: kernels:");
  for (const d::kernel_table* k : kernels) std::printf(" %s", k->name);
  std::printf("\n");
}

TEST_CASE("dispatch: each operation comes from the selected kernel's table") {
  // The bulk functions call kernel_fn<&kernel_table::op>() (header-only: one list per operation;
  // separate compilation: the active table); it must be the selected kernel's entry, every field.
  const std::string before(utf8dfa::active_kernel());
  for (const d::kernel_table* k : all_kernels()) {
    REQUIRE(utf8dfa::select_kernel(k->name));
    CHECK(utf8dfa::active_kernel() == k->name);
    CHECK(&d::kernels() == k);
    CHECK(d::kernel_fn<&d::kernel_table::validate>() == k->validate);
    CHECK(d::kernel_fn<&d::kernel_table::count_leads>() == k->count_leads);
    CHECK(d::kernel_fn<&d::kernel_table::utf16_length>() == k->utf16_length);
    CHECK(d::kernel_fn<&d::kernel_table::utf8_to_utf32>() == k->utf8_to_utf32);
    CHECK(d::kernel_fn<&d::kernel_table::utf8_to_utf16>() == k->utf8_to_utf16);
    CHECK(d::kernel_fn<&d::kernel_table::utf16_to_utf8>() == k->utf16_to_utf8);
    CHECK(d::kernel_fn<&d::kernel_table::utf32_to_utf8>() == k->utf32_to_utf8);
  }
  CHECK(!utf8dfa::select_kernel("no-such-kernel"));
  REQUIRE(utf8dfa::select_kernel(before));
  CHECK(utf8dfa::active_kernel() == before);
}

#if UTF8DFA_X86_KERNELS
TEST_CASE("cpu detection agrees with the compiler's own (__builtin_cpu_supports)") {
  __builtin_cpu_init();
  CHECK(d::cpu_has(d::cpu_sse42) == (__builtin_cpu_supports("sse4.2") != 0));
  CHECK(d::cpu_has(d::cpu_popcnt) == (__builtin_cpu_supports("popcnt") != 0));
  CHECK(d::cpu_has(d::cpu_avx2) == (__builtin_cpu_supports("avx2") != 0));
  CHECK(d::cpu_has(d::cpu_bmi2) == (__builtin_cpu_supports("bmi2") != 0));
  CHECK(d::cpu_has(d::cpu_avx512f) == (__builtin_cpu_supports("avx512f") != 0));
  CHECK(d::cpu_has(d::cpu_avx512bw) == (__builtin_cpu_supports("avx512bw") != 0));
  CHECK(d::cpu_has(d::cpu_avx512vl) == (__builtin_cpu_supports("avx512vl") != 0));
  CHECK(d::cpu_has(d::cpu_avx512vbmi) == (__builtin_cpu_supports("avx512vbmi") != 0));
  // The list holds exactly the kernels whose needs the CPU meets.
  const auto kernels = all_kernels();
  auto listed = [&](const char* name) {
    for (const d::kernel_table* k : kernels)
      if (std::string(k->name) == name) return true;
    return false;
  };
  CHECK(listed("avx512") == d::cpu_has(d::cpu_needs_avx512));
  CHECK(listed("avx2") == d::cpu_has(d::cpu_needs_avx2));
  CHECK(listed("sse4") == d::cpu_has(d::cpu_needs_sse4));
}
#endif

TEST_CASE("kernels agree with the DFA on random valid multilingual text") {
  const auto start = std::chrono::steady_clock::now();
  agreement check;
  std::mt19937 rng(20260101);
  for (int i = 0; i < 3000; ++i) {
    const bytes text = random_text(rng, rng() % 3000);
    check(text);
    // And a random slice of it: may begin or end inside a character.
    const std::size_t a = rng() % (text.size() + 1), b = a + rng() % (text.size() - a + 1);
    check(text.data() + a, b - a);
  }
  check.report("random valid text (and slices)", start);
}

TEST_CASE("kernels agree with the DFA on random bytes and corrupted text") {
  const auto start = std::chrono::steady_clock::now();
  agreement check;
  std::mt19937 rng(42);
  for (int i = 0; i < 3000; ++i) {
    bytes b(rng() % 600);
    const unsigned mode = rng() % 3;
    for (auto& c : b)
      c = static_cast<unsigned char>(mode == 0 ? rng() : mode == 1 ? 0x80 | rng() : rng() % 0x90 + 0x70);
    check(b);
  }
  for (int i = 0; i < 3000; ++i) {
    bytes b = random_text(rng, rng() % 2000);
    const unsigned edits = 1 + rng() % 3;
    for (unsigned e = 0; e < edits && !b.empty(); ++e) {
      const std::size_t at = rng() % b.size();
      switch (rng() % 3) {
        case 0:
          b[at] = static_cast<unsigned char>(rng());
          break;
        case 1:
          b.erase(b.begin() + static_cast<std::ptrdiff_t>(at));
          break;
        default:
          b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), static_cast<unsigned char>(0x80 | rng()));
          break;
      }
    }
    check(b);
  }
  check.report("random bytes, corrupted text", start);
}

TEST_CASE("an error of every kind at every position of a block and in the last 1..63 bytes") {
  const auto start = std::chrono::steady_clock::now();
  agreement check;
  for (const char* filler : fillers)
    for (const std::size_t n : {64, 65, 100, 127, 128, 129, 192, 200, 256}) {
      const bytes base = filled(n, filler);
      for (const char* pat : patterns) {
        const std::size_t len = std::strlen(pat);
        for (std::size_t at = 0; at + len <= n; ++at) {
          bytes b = base;
          std::memcpy(b.data() + at, pat, len);
          check(b);
        }
        // Cut by the end of input: every proper prefix of the pattern as the last bytes.
        for (std::size_t cut = 1; cut < len; ++cut) {
          bytes b = base;
          std::memcpy(b.data() + n - cut, pat, cut);
          check(b);
        }
      }
    }
  check.report("planted errors at every position", start);
}

TEST_CASE("long inputs: errors around the middle, where the scalar kernel splits into two streams") {
  const auto start = std::chrono::steady_clock::now();
  agreement check;
  for (const char* filler : fillers)
    for (const std::size_t n : {1024, 1025, 1027, 1500, 2048}) {
      const bytes base = filled(n, filler);
      check(base);
      for (const char* pat : patterns) {
        const std::size_t len = std::strlen(pat);
        for (std::size_t at :
             {std::size_t{0}, std::size_t{63}, std::size_t{64}, n / 2 - 70, n / 2 - 64, n - 70, n - 64, n - len})
          for (std::size_t d = 0; d < 12; ++d) {
            const std::size_t pos = at + d;
            if (pos + len > n) continue;
            bytes b = base;
            std::memcpy(b.data() + pos, pat, len);
            check(b);
          }
        for (std::size_t pos = n / 2 - 8; pos <= n / 2 + 8; ++pos) {
          bytes b = base;
          std::memcpy(b.data() + pos, pat, len);
          check(b);
        }
      }
    }
  check.report("long inputs, errors near the split", start);
}

/// The first and last byte of every byte class of the DFA, and 'A'.
static std::vector<unsigned char> class_edges() {
  std::vector<unsigned char> edges;
  for (unsigned b = 0; b < 256; ++b) {
    const auto c = d::byte_classes.of[b];
    const bool first = b == 0 || d::byte_classes.of[b - 1] != c;
    const bool last = b == 255 || d::byte_classes.of[b + 1] != c;
    if (first || last) edges.push_back(static_cast<unsigned char>(b));
  }
  edges.push_back(0x41);
  return edges;
}

TEST_CASE("every 1..4-byte string of the class edges, straddling 16/32/64-byte boundaries") {
  const auto start = std::chrono::steady_clock::now();
  agreement check;
  const std::vector<unsigned char> edges = class_edges();
  const std::size_t e = edges.size();
  bytes buf = filled(140, "a");
  for (std::size_t code = 0; code < e * e * e * e; ++code) {
    unsigned char s[4];
    std::size_t c = code;
    for (auto& x : s) {
      x = edges[c % e];
      c /= e;
    }
    // Across the 64-byte boundary (and so the 16- and 32-byte ones) in the middle of the input,
    // and as the very end of a 100-byte input (the tail paths).
    std::memcpy(buf.data() + 62, s, 4);
    check(buf);
    std::memcpy(buf.data() + 62, "aaaa", 4);
    std::memcpy(buf.data() + 96, s, 4);
    check(buf.data(), 100);
    std::memcpy(buf.data() + 96, "aaaa", 4);
  }
  // Every well-formed character of every length starting at each offset around each boundary.
  for (const char* pat : patterns)
    for (const char* filler : fillers)
      for (std::size_t boundary : {16, 32, 48, 64, 128, 192})
        for (std::size_t back = 0; back <= 4; ++back) {
          bytes b = filled(boundary + 70, filler);
          std::memcpy(b.data() + boundary - back, pat, std::strlen(pat));
          check(b);
        }
  check.report("class-edge strings across boundaries", start);
}

TEST_CASE("every 4-byte string of the class edges across the edges of 256-byte steps", "[simd]") {
  // The tests above stay below 320 bytes, where the avx512 kernel runs no 256-byte step (a first
  // 64-byte block, then steps while 256 bytes remain; a step's 4-byte check runs only when it or the
  // step before holds an F0..FF byte). Here 580 bytes: strings across the start of the first step
  // (64) and across the edge of two steps (320), whose bytes alone decide whether a step is ASCII
  // and whether it holds an F0..FF byte. The kernel in use against validate_scalar (all kernels
  // would cost seconds).
  const auto start = std::chrono::steady_clock::now();
  const std::vector<unsigned char> edges = class_edges();
  const std::size_t e = edges.size();
  bytes buf = filled(580, "a");
  std::size_t cases = 0, failures = 0;
  for (std::size_t code = 0; code < e * e * e * e; ++code) {
    unsigned char s[4];
    std::size_t c = code;
    for (auto& x : s) {
      x = edges[c % e];
      c /= e;
    }
    for (std::size_t at : {62, 318}) {
      std::memcpy(buf.data() + at, s, 4);
      ++cases;
      const utf8dfa::validation_result got = utf8dfa::validate(buf), ref = d::validate_scalar(buf.data(), buf.size());
      if (!same(got, ref) && ++failures <= 5) {
        INFO("kernel " << utf8dfa::active_kernel() << ", input: " << hex(buf.data(), buf.size()));
        FAIL_CHECK("kernel disagrees with validate_scalar");
      }
      std::memcpy(buf.data() + at, "aaaa", 4);
    }
  }
  std::printf("simd_test: %-40s %9zu inputs, %7.1f ms\n", "class-edge strings across 256-byte steps", cases,
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  CHECK(failures == 0);
}

TEST_CASE("every pattern at each offset around the edges of 256-byte steps, in every filler") {
  // Steps without F0..FF bytes after one that ends with a 4-byte lead, and inputs ending there.
  const auto start = std::chrono::steady_clock::now();
  agreement check;
  for (const char* pat : patterns)
    for (const char* filler : fillers)
      for (std::size_t edge : {64, 320, 576})
        for (std::size_t back = 0; back <= 4; ++back) {
          bytes b = filled(edge + 70, filler);
          std::memcpy(b.data() + edge - back, pat, std::strlen(pat));
          check(b);
          check(b.data(), edge);
          check(b.data(), edge + 1);
        }
  check.report("patterns across 256-byte steps", start);
}

TEST_CASE("every input length 0..256, valid and invalid") {
  const auto start = std::chrono::steady_clock::now();
  agreement check;
  std::mt19937 rng(7);
  const bytes text = random_text(rng, 4096);
  for (std::size_t n = 0; n <= 256; ++n) {
    for (const char* filler : fillers) {
      bytes b = filled(n, filler);
      check(b);  // whole characters, or one cut by the end
      if (n > 0) {
        b[n - 1] = 0x80;
        check(b);
        b[n / 2] = 0xFF;
        check(b);
      }
    }
    for (std::size_t off = 0; off < 64; ++off) check(text.data() + off, n);
    bytes r(n);
    for (auto& c : r) c = static_cast<unsigned char>(rng());
    check(r);
  }
  check.report("lengths 0..256", start);
}

#if UTF8DFA_TEST_MMAP
TEST_CASE("buffers that end at a page boundary before an inaccessible page") {
  const auto start = std::chrono::steady_clock::now();
  agreement check;
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  // Three pages: inaccessible, readable, inaccessible. Inputs end at the second guard page or start
  // right after the first one, so a read past either end faults.
  void* map = mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(map != MAP_FAILED);
  unsigned char* base = static_cast<unsigned char*>(map);
  REQUIRE(mprotect(base, page, PROT_NONE) == 0);
  REQUIRE(mprotect(base + 2 * page, page, PROT_NONE) == 0);
  unsigned char* mid = base + page;
  unsigned char* end = base + 2 * page;
  std::mt19937 rng(99);
  const bytes text = random_text(rng, 1024);
  for (std::size_t n = 0; n <= 256; ++n)
    for (int variant = 0; variant < 6; ++variant) {
      // The same content at the end of the page (every alignment, as n varies) and at its start.
      for (unsigned char* p : {end - n, mid}) {
        for (std::size_t i = 0; i < n; ++i) {
          switch (variant) {
            case 0:
              p[i] = 'a';
              break;
            case 1:
              p[i] = text[i];
              break;  // may end inside a character
            case 2:
              p[i] = static_cast<unsigned char>(rng());
              break;
            case 3:
              p[i] = i + 1 == n ? 0xE2 : 'a';
              break;  // incomplete at the very end
            case 4:
              p[i] = i + 2 >= n ? 0xC2 : 'a';
              break;  // too_short, then incomplete
            default:
              p[i] = text[(i + 3) % text.size()];
              break;  // another alignment of the text
          }
        }
        check(p, n);
      }
    }
  munmap(map, 3 * page);
  check.report("page-boundary buffers", start);
}
#endif

}  // namespace utf8dfa_test_simd
