// Out-of-bounds safety: every public function of the core reads input that ends exactly at a page
// boundary followed by an inaccessible (PROT_NONE) page, or starts right after one, and writes
// output buffers sized exactly by the length helpers that end at such a page. A read or write one
// byte too far is a SIGSEGV, not a silent pass. POSIX only.
//
// Grid: every length 0..256 and every offset 0..63 (code units). With the end flush against the
// guard page, the start's alignment is fixed by the length, and the 257 lengths cover every start
// alignment mod 64 four times; the offset then selects where in the text the slice starts (its
// phase: slices begin and end mid-character, so truncated and stray bytes are at every position
// relative to the end). With the start flush after the guard page, the offset is also the start's
// alignment (checking reads before the start: decode_prev, backward scans).
#include <utf8dfa.hpp>
#include <utf8dfa/detail/scalar_kernels.hpp>  // the scalar kernel table, also under separate compilation

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "catch.hpp"

#include "guard_pages.hpp"
#define UTF8DFA_TEST_HAVE_MMAP UTF8DFA_TEST_GUARD_PAGES
#if defined(__unix__) || defined(__APPLE__)
#define UTF8DFA_TEST_HAVE_FORK 1
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#else
#define UTF8DFA_TEST_HAVE_FORK 0
#endif

#if UTF8DFA_TEST_HAVE_MMAP

namespace utf8dfa_test_page_boundary {  // the file's own names (the suite also builds as unity sources)

namespace page_boundary {

/// Three pages: inaccessible | usable | inaccessible.
class guarded_page {
 public:
  guarded_page() {
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void* m = mmap(nullptr, 3 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(m != MAP_FAILED);
    base_ = static_cast<unsigned char*>(m);
    REQUIRE(mprotect(base_, page_, PROT_NONE) == 0);
    REQUIRE(mprotect(base_ + 2 * page_, page_, PROT_NONE) == 0);
  }
  ~guarded_page() { munmap(base_, 3 * page_); }
  guarded_page(const guarded_page&) = delete;
  guarded_page& operator=(const guarded_page&) = delete;

  std::size_t size() const { return page_; }
  unsigned char* begin() const { return base_ + page_; }
  unsigned char* end() const { return base_ + 2 * page_; }

  /// Copies `n` units of `src` so that they end exactly at the trailing guard page.
  template <class T>
  const T* at_end(const T* src, std::size_t n) const {
    T* p = reinterpret_cast<T*>(end()) - n;
    if (n != 0) std::memcpy(p, src, n * sizeof(T));
    return p;
  }
  /// Copies `n` units of `src` to start `offset` units after the leading guard page.
  template <class T>
  const T* at_start(const T* src, std::size_t n, std::size_t offset) const {
    T* p = reinterpret_cast<T*>(begin()) + offset;
    if (n != 0) std::memcpy(p, src, n * sizeof(T));
    return p;
  }
  /// An output buffer of exactly `n` units that ends at the trailing guard page.
  template <class T>
  T* out(std::size_t n) const {
    return reinterpret_cast<T*>(end()) - n;
  }

 private:
  std::size_t page_ = 0;
  unsigned char* base_ = nullptr;
};

/// First failure, for the report; counting instead of REQUIRE in the inner loops keeps it fast.
struct failures {
  std::size_t count = 0;
  std::string first;
  void expect(bool ok, const char* what, std::size_t len, std::size_t off) {
    if (ok) return;
    if (count++ == 0)
      first = std::string(what) + " (length " + std::to_string(len) + ", offset " + std::to_string(off) + ")";
  }
};

/// Mixed text: 1- to 4-byte characters; `invalid` sprinkles every kind of ill-formed sequence.
inline std::string make_text(bool invalid, std::size_t min_size) {
  const char* const valid_pieces[] = {"a",        "\xC3\xA9",     "\xE2\x82\xAC",     "\xF0\x9F\x98\x80", "bc",
                                      "\xD0\x96", "\xE4\xBD\xA0", "\xF4\x8F\xBF\xBF", "\xEF\xBF\xBD",     "/"};
  const char* const bad_pieces[] = {"\x80", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",    "\xF5",
                                    "\xFF", "\xE2\x82", "\xF0\x9F\x98", "\xC3",         "\xF8\x88\x80\x80\x80"};
  std::string s;
  std::uint32_t x = 12345;
  while (s.size() < min_size) {
    x = x * 1103515245u + 12345u;
    const std::uint32_t r = (x >> 16) & 0xFF;
    if (invalid && r % 5 == 0)
      s += bad_pieces[r % (sizeof bad_pieces / sizeof bad_pieces[0])];
    else
      s += valid_pieces[r % (sizeof valid_pieces / sizeof valid_pieces[0])];
  }
  return s;
}

/// Every UTF-8 entry point on the bytes [p, p+n); `tmp` is the output page. `ref` is the same
/// content in an ordinary buffer followed by junk bytes, so results must not depend on reads past n.
inline void check_utf8(const char* p, std::size_t n, const std::string& ref, const guarded_page& tmp, failures& f,
                       std::size_t off, bool thorough) {
  namespace u = utf8dfa;
  const std::string_view in(p, n);
  const u::validation_result v = u::validate(in);
  const u::validation_result vr = u::validate(std::string_view(ref.data(), n));
  f.expect(v.valid_up_to == vr.valid_up_to && v.error == vr.error && v.error_length == vr.error_length, "validate", n,
           off);
  f.expect(u::is_valid(p, n) == (v.error == u::error_code::none), "is_valid", n, off);
  f.expect(u::validate(reinterpret_cast<const unsigned char*>(p), n).valid_up_to == v.valid_up_to, "validate(ptr)", n,
           off);

  // decode_next at every byte (character boundary or not), decode_prev at every end.
  std::size_t segments = 0;
  for (std::size_t i = 0; thorough && i < n; ++i) {
    const u::decoded d = u::decode_next(in, i);
    f.expect(d.length >= 1 && i + d.length <= n, "decode_next", n, off);
    const u::decoded b = u::decode_prev(in, i + 1);
    f.expect(b.length >= 1 && b.length <= i + 1, "decode_prev", n, off);
  }
  for (std::size_t i = 0; i < n; i += u::decode_next(in, i).length) ++segments;
  f.expect(u::decode_next(in, n).length == 0 && u::decode_prev(in, 0).length == 0, "decode at the ends", n, off);

  const std::size_t leads = u::count_code_points(in);
  std::size_t ref_leads = 0;
  for (std::size_t i = 0; i < n; ++i) ref_leads += (static_cast<unsigned char>(p[i]) & 0xC0) != 0x80;
  f.expect(leads == ref_leads, "count_code_points", n, off);

  // Output buffers of exactly the helpers' size, flush against the guard page.
  const std::size_t n32 = u::utf32_length_from_utf8(in);
  f.expect(n32 == segments, "utf32_length_from_utf8", n, off);
  u::conversion_result r = u::utf8_to_utf32(in, tmp.out<char32_t>(n32), u::replace{});
  f.expect(r.read == n && r.written == n32, "utf8_to_utf32 replace", n, off);
  r = u::utf8_to_utf32(in, tmp.out<char32_t>(n32));
  f.expect(r.read == v.valid_up_to && r.error == v.error && r.written <= n32, "utf8_to_utf32 strict", n, off);
  r = u::utf8_to_utf32(in, tmp.out<char32_t>(n32), u::assume_valid{});
  f.expect(r.written <= n32, "utf8_to_utf32 assume_valid", n, off);

  const std::size_t n16 = u::utf16_length_from_utf8(in);
  r = u::utf8_to_utf16(in, tmp.out<char16_t>(n16), u::replace{});
  f.expect(r.read == n && r.written == n16, "utf8_to_utf16 replace", n, off);
  r = u::utf8_to_utf16(in, tmp.out<char16_t>(n16));
  f.expect(r.read == v.valid_up_to && r.error == v.error && r.written <= n16, "utf8_to_utf16 strict", n, off);
  r = u::utf8_to_utf16(in, tmp.out<char16_t>(n16), u::assume_valid{});
  f.expect(r.written <= n16, "utf8_to_utf16 assume_valid", n, off);
  // A supplementary replacement needs two UTF-16 units per error: the helper must know.
  const u::replace wide{U'\U0001F4A9'};
  const std::size_t w16 = u::utf16_length_from_utf8(in, wide);
  r = u::utf8_to_utf16(in, tmp.out<char16_t>(w16), wide);
  f.expect(r.written == w16, "utf8_to_utf16 wide replacement", n, off);

  // Allocating helpers (they run the same kernels on the same input, into heap buffers).
  if (!thorough) return;
  u::conversion_result status{};
  f.expect(u::to_utf32(in, status).size() == status.written && status.error == v.error, "to_utf32", n, off);
  f.expect(u::to_utf16(in, status).size() == status.written && status.error == v.error, "to_utf16", n, off);
  f.expect(u::to_utf32_lossy(in).size() == n32, "to_utf32_lossy", n, off);
  f.expect(u::to_utf16_lossy(in).size() == n16, "to_utf16_lossy", n, off);
#if UTF8DFA_HAS_EXCEPTIONS
  if (off != 0) return;
  bool threw = false;
  try {
    (void)u::to_utf32(in);
    (void)u::to_utf16(in);
  } catch (const u::conversion_error& e) {
    threw = e.offset() == v.valid_up_to;
  }
  f.expect(threw == (v.error != u::error_code::none), "to_utf32/to_utf16 throwing", n, off);
#endif
}

/// Every UTF-16 or UTF-32 entry point on the units [p, p+n).
template <class Unit>
void check_utf(const Unit* p, std::size_t n, const guarded_page& tmp, failures& f, std::size_t off, bool thorough) {
  namespace u = utf8dfa;
  const std::basic_string_view<Unit> in(p, n);
  std::size_t len = 0;
  if constexpr (sizeof(Unit) == 2)
    len = u::utf8_length_from_utf16(in);
  else
    len = u::utf8_length_from_utf32(in);
  const u::replace wide{U'\U0001F4A9'};
  std::size_t wlen = 0;
  u::conversion_result r{}, s{}, w{};
  if constexpr (sizeof(Unit) == 2) {
    r = u::utf16_to_utf8(in, tmp.out<char>(len), u::replace{});
    s = u::utf16_to_utf8(in, tmp.out<char>(len));
    wlen = u::utf8_length_from_utf16(in, wide);
    w = u::utf16_to_utf8(in, tmp.out<char>(wlen), wide);
  } else {
    r = u::utf32_to_utf8(in, tmp.out<char>(len), u::replace{});
    s = u::utf32_to_utf8(in, tmp.out<char>(len));
    wlen = u::utf8_length_from_utf32(in, wide);
    w = u::utf32_to_utf8(in, tmp.out<char>(wlen), wide);
  }
  f.expect(r.read == n && r.written == len, "utf16/32_to_utf8 replace", n, off);
  f.expect(s.written <= len && s.read <= n && (s.error == u::error_code::none) == (s.read == n),
           "utf16/32_to_utf8 strict", n, off);
  f.expect(w.read == n && w.written == wlen, "utf16/32_to_utf8 wide replacement", n, off);
  f.expect(s.error == r.error, "strict and replace agree on the first error", n, off);
  if (!thorough) return;
  u::conversion_result status{};
  f.expect(u::to_utf8(in, status).size() == s.written && status.error == s.error, "to_utf8", n, off);
  f.expect(u::to_utf8_lossy(in).size() == len, "to_utf8_lossy", n, off);
#if UTF8DFA_HAS_EXCEPTIONS
  if (off != 0) return;
  bool threw = false;
  try {
    (void)u::to_utf8(in);
  } catch (const u::conversion_error& e) {
    threw = e.offset() == s.read;
  }
  f.expect(threw == (s.error != u::error_code::none), "to_utf8 throwing", n, off);
#endif
}

/// The whole grid under the kernel in use.
inline failures run_grid() {
  const guarded_page input, output;
  failures f;
  for (const bool invalid : {false, true}) {
    const std::string text = make_text(invalid, 64 + 256 + 8);
    // UTF-16/32 inputs from longer text, so that every slice of 64 + 256 units exists.
    const std::string long_text = make_text(invalid, 4 * (64 + 256 + 8));
    const std::u16string t16 = utf8dfa::to_utf16_lossy(long_text);
    const std::u32string t32 = utf8dfa::to_utf32_lossy(long_text);
    REQUIRE(t16.size() >= 64 + 256);
    REQUIRE(t32.size() >= 64 + 256);
    // UTF-16/32 copies with unpaired surrogates and out-of-range values mixed in.
    std::u16string b16 = t16;
    std::u32string b32 = t32;
    for (std::size_t i = 3; i < b16.size(); i += 17) b16[i] = static_cast<char16_t>(i % 2 ? 0xD800 + i : 0xDC00 + i);
    for (std::size_t i = 5; i < b32.size(); i += 13) b32[i] = i % 2 ? char32_t(0xD800 + i) : char32_t(0x110000 + i);
    for (std::size_t len = 0; len <= 256; ++len) {
      for (std::size_t off = 0; off < 64; ++off) {
        // The per-byte decode loops and the allocating helpers on every eighth phase: they add
        // no new reads of the guarded input, only time (they are the same kernels).
        const bool thorough = off % 8 == 0;
        std::string ref = text.substr(off, len) + "\x80\xBF\xF0\x9F";  // junk after the end
        const char* p = reinterpret_cast<const char*>(input.at_end(text.data() + off, len));
        check_utf8(p, len, ref, output, f, off, thorough);
        p = reinterpret_cast<const char*>(input.at_start(text.data() + off, len, off));
        check_utf8(p, len, ref, output, f, off, thorough);
        if (off % 4 == 0) {  // UTF-16/32 inputs: every length, 16 phases each
          for (const std::u16string* s16 : {&t16, static_cast<const std::u16string*>(&b16)}) {
            check_utf(input.at_end(s16->data() + off, len), len, output, f, off, thorough);
            check_utf(input.at_start(s16->data() + off, len, off), len, output, f, off, thorough);
          }
          for (const std::u32string* s32 : {&t32, static_cast<const std::u32string*>(&b32)}) {
            check_utf(input.at_end(s32->data() + off, len), len, output, f, off, thorough);
            check_utf(input.at_start(s32->data() + off, len, off), len, output, f, off, thorough);
          }
        }
      }
    }
  }
  return f;
}

}  // namespace page_boundary

TEST_CASE("page boundary: every public function stays inside its buffers") {
  // ctest runs the suite once per kernel (UTF8DFA_KERNEL); run on its own, go through them all.
  std::vector<std::string> names;
  if (std::getenv("UTF8DFA_KERNEL") != nullptr) {
    names.emplace_back(utf8dfa::active_kernel());
  } else {
    std::size_t count = 0;
    const auto* const* list = utf8dfa::detail::available_kernels(count);
    for (std::size_t k = 0; k < count; ++k) names.emplace_back(list[k]->name);
  }
  const std::string before(utf8dfa::active_kernel());
  for (const std::string& name : names) {
    INFO("kernel " << name);
    REQUIRE(utf8dfa::select_kernel(name));
    const page_boundary::failures f = page_boundary::run_grid();
    INFO(f.first);
    CHECK(f.count == 0);
  }
  utf8dfa::select_kernel(before);
}

TEST_CASE("page boundary: the kernels' length functions read only their input") {
  // Each kernel's length functions (called through its table, so every kernel this CPU runs is
  // checked in one run) on input flush against a guard page at either end, every length 0..300,
  // well-formed and ill-formed, compared with the scalar kernel's.
  namespace d = utf8dfa::detail;
  const page_boundary::guarded_page input;
  const std::string text = page_boundary::make_text(false, 1200), bad = page_boundary::make_text(true, 1200);
  const std::u16string t16 = utf8dfa::to_utf16_lossy(text);
  std::u16string b16 = t16;
  for (std::size_t i = 3; i < b16.size(); i += 29) b16[i] = static_cast<char16_t>(i % 2 ? 0xD800 + i : 0xDC00 + i);
  const std::u32string t32 = utf8dfa::to_utf32_lossy(text);
  std::u32string b32 = t32;
  for (std::size_t i = 5; i < b32.size(); i += 31) b32[i] = i % 2 ? char32_t(0xD800 + i) : char32_t(0x110000 + i);
  REQUIRE(t16.size() > 300);
  REQUIRE(t32.size() > 300);
  std::size_t count = 0;
  const d::kernel_table* const* list = d::available_kernels(count);
  const d::kernel_table& sc = d::scalar_kernels;
  page_boundary::failures f;
  for (std::size_t len = 0; len <= 300; ++len)
    for (std::size_t k = 0; k < count; ++k) {
      const d::kernel_table& kt = *list[k];
      for (const std::string* s : {&text, &bad}) {
        const auto* src = reinterpret_cast<const unsigned char*>(s->data()) + len % 7;
        for (const unsigned char* p : {input.at_end(src, len), input.at_start(src, len, 0)}) {
          f.expect(kt.utf16_length_from_utf8(p, len, 0xFFFD) == sc.utf16_length_from_utf8(src, len, 0xFFFD), kt.name,
                   len, 0);
          f.expect(kt.utf32_length_from_utf8(p, len, 0xFFFD) == sc.utf32_length_from_utf8(src, len, 0xFFFD), kt.name,
                   len, 0);
        }
      }
      for (const std::u16string* s : {&t16, static_cast<const std::u16string*>(&b16)}) {
        const char16_t* src = s->data() + len % 5;
        for (const char16_t* p : {input.at_end(src, len), input.at_start(src, len, 0)})
          f.expect(kt.utf8_length_from_utf16(p, len, 0xFFFD) == sc.utf8_length_from_utf16(src, len, 0xFFFD), kt.name,
                   len, 1);
      }
      for (const std::u32string* s : {&t32, static_cast<const std::u32string*>(&b32)}) {
        const char32_t* src = s->data() + len % 5;
        for (const char32_t* p : {input.at_end(src, len), input.at_start(src, len, 0)})
          f.expect(kt.utf8_length_from_utf32(p, len, 0xFFFD) == sc.utf8_length_from_utf32(src, len, 0xFFFD), kt.name,
                   len, 2);
      }
    }
  INFO(f.first);
  CHECK(f.count == 0);
}

TEST_CASE("page boundary: encode writes only encoded_length bytes") {
  const page_boundary::guarded_page out;
  std::size_t bad = 0;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    const std::size_t len = utf8dfa::encoded_length(cp);
    if (len == 0) continue;  // surrogates
    char* p = out.out<char>(len);
    if (utf8dfa::encode(cp, p) != len || !utf8dfa::is_valid(p, len)) ++bad;
  }
  CHECK(bad == 0);
}

#if UTF8DFA_TEST_HAVE_FORK
TEST_CASE("page boundary: the guard pages really fault") {
  // The test above only means something if touching the page after (or before) the buffer kills
  // the process: check it in a child.
  const page_boundary::guarded_page g;
  for (const unsigned char* probe : {g.begin() - 1, g.end()}) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // Default signal handling and no stderr: the test framework's or a sanitizer's handler
      // would otherwise report the intended fault.
      std::signal(SIGSEGV, SIG_DFL);
      std::signal(SIGBUS, SIG_DFL);
      const int null = open("/dev/null", O_WRONLY);
      if (null >= 0) dup2(null, 2);
      volatile unsigned char sink = *static_cast<const volatile unsigned char*>(probe);
      (void)sink;
      _exit(0);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 0));  // killed, or a sanitizer exited non-zero
  }
  g.begin()[0] = 1;  // the usable page is usable
  g.end()[-1] = 2;
  CHECK(g.begin()[0] + g.end()[-1] == 3);
}
#endif

}  // namespace utf8dfa_test_page_boundary

#else

TEST_CASE("page boundary: skipped (needs mmap and mprotect)") {
  SUCCEED("no POSIX memory protection on this platform");
}

#endif
