// One operation of the AVX2 kernel as the first thing a process runs, against the scalar kernel.
// The AVX2 kernel fills its shuffle tables on first use (detail/simd/avx2/transcode.hpp), so every
// entry that reads them must fill them itself: a call that did not would read zeros here, where no
// other entry ran before it. ctest runs one process per operation (CMakeLists.txt).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "utf8dfa.hpp"

#if UTF8DFA_X86_KERNELS
namespace {

namespace d = utf8dfa::detail;

/// Text with runs of ASCII and of 2-, 3- and 4-byte forms, long enough for the vector loops.
std::string multilingual_text() {
  const char* const words[] = {"plain ascii words ",        "\xC3\xA9t\xC3\xA9 ",
                               "\xD0\x96\xD0\xB8\xD0\xB2 ", "\xE2\x82\xAC\xE4\xB8\xAD\xE6\x96\x87 ",
                               "\xED\x95\x9C\xEA\xB8\x80 ", "\xF0\x9F\x98\x80\xF0\x9F\x8E\x89 ",
                               "\xE0\xA4\xB9\xE0\xA4\xBF "};
  std::string s;
  for (unsigned i = 0; s.size() < 6000; ++i) {
    s += words[i % 7];
    if (i % 5 == 0) s += words[(i / 5) % 7];
  }
  return s;
}

template <class T>
bool same(const std::vector<T>& a, const std::vector<T>& b, const char* what) {
  if (a == b) return true;
  std::fprintf(stderr, "first_use: %s differs from the scalar kernel's\n", what);
  return false;
}

/// Runs the conversion `op` of kernel k and of the scalar kernel on `in` (room: out_per_unit
/// output units per input unit) and compares results and output.
template <class Fn, class In, class Out>
bool compare_conversion(Fn d::kernel_table::*op, const std::vector<In>& in, std::size_t out_per_unit, Out,
                        const d::kernel_table& k, const char* name, char32_t replacement = 0xFFFD) {
  std::vector<Out> want(in.size() * out_per_unit + 1), got(want.size());
  const utf8dfa::conversion_result rw = (d::scalar_kernels.*op)(in.data(), in.size(), want.data(), replacement);
  const utf8dfa::conversion_result rg = (k.*op)(in.data(), in.size(), got.data(), replacement);
  if (rw.read != rg.read || rw.written != rg.written || rw.error != rg.error) {
    std::fprintf(stderr, "first_use: %s: read %zu / %zu, written %zu / %zu, error %d / %d (scalar / avx2)\n", name,
                 rw.read, rg.read, rw.written, rg.written, static_cast<int>(rw.error), static_cast<int>(rg.error));
    return false;
  }
  return same(want, got, name);
}

}  // namespace
#endif

int main(int argc, char** argv) {
#if UTF8DFA_X86_KERNELS
  if (argc != 2) return 2;
  if (!d::cpu_has(d::cpu_needs_avx2)) return 77;  // skipped
  const d::kernel_table& k = d::avx2::table;
  const std::string op = argv[1];
  // The inputs, made with the scalar kernel only.
  const std::string text = multilingual_text();
  const std::vector<unsigned char> utf8(text.begin(), text.end());
  std::vector<char16_t> utf16(utf8.size() + 1);
  utf16.resize(d::scalar_kernels.utf8_to_utf16(utf8.data(), utf8.size(), utf16.data(), 0xFFFD).written);
  std::vector<char32_t> utf32(utf8.size() + 1);
  utf32.resize(d::scalar_kernels.utf8_to_utf32(utf8.data(), utf8.size(), utf32.data(), 0xFFFD).written);
  std::vector<unsigned char> latin1;
  for (unsigned i = 0; i < 4096; ++i) latin1.push_back(static_cast<unsigned char>(i % 7 == 0 ? 0xC0 + i % 64 : i));
  std::vector<unsigned char> latin1_utf8(2 * latin1.size());
  latin1_utf8.resize(d::scalar_kernels.latin1_to_utf8(latin1.data(), latin1.size(), latin1_utf8.data()));

  bool ok = true;
  if (op == "utf8_to_utf16") {
    ok = compare_conversion(&d::kernel_table::utf8_to_utf16, utf8, 2, char16_t{}, k, op.c_str());
  } else if (op == "utf8_to_utf32") {
    ok = compare_conversion(&d::kernel_table::utf8_to_utf32, utf8, 1, char32_t{}, k, op.c_str());
  } else if (op == "utf16_to_utf8") {
    ok = compare_conversion(&d::kernel_table::utf16_to_utf8, utf16, 4, static_cast<unsigned char>(0), k, op.c_str());
  } else if (op == "utf32_to_utf8") {
    ok = compare_conversion(&d::kernel_table::utf32_to_utf8, utf32, 4, static_cast<unsigned char>(0), k, op.c_str());
  } else if (op == "utf16_to_utf32") {
    ok = compare_conversion(&d::kernel_table::utf16_to_utf32, utf16, 1, char32_t{}, k, op.c_str());
  } else if (op == "utf32_to_utf16") {
    ok = compare_conversion(&d::kernel_table::utf32_to_utf16, utf32, 2, char16_t{}, k, op.c_str());
  } else if (op == "utf8_to_latin1") {
    ok = compare_conversion(&d::kernel_table::utf8_to_latin1, latin1_utf8, 1, static_cast<unsigned char>(0), k,
                            op.c_str(), U'?');
  } else if (op == "utf16_swapped_to_utf8") {
    std::vector<char16_t> swapped(utf16.size());
    d::scalar_kernels.change_endianness_utf16(utf16.data(), utf16.size(), swapped.data());
    ok = compare_conversion(&d::kernel_table::utf16_swapped_to_utf8, swapped, 4, static_cast<unsigned char>(0), k,
                            op.c_str());
  } else if (op == "utf8_to_utf16_swapped") {
    ok = compare_conversion(&d::kernel_table::utf8_to_utf16_swapped, utf8, 2, char16_t{}, k, op.c_str());
  } else if (op == "latin1_to_utf8") {
    std::vector<unsigned char> want(2 * latin1.size()), got(want.size());
    const std::size_t nw = d::scalar_kernels.latin1_to_utf8(latin1.data(), latin1.size(), want.data());
    const std::size_t ng = k.latin1_to_utf8(latin1.data(), latin1.size(), got.data());
    ok = nw == ng && same(want, got, op.c_str());
  } else {
    std::fprintf(stderr, "first_use: unknown operation %s\n", op.c_str());
    return 2;
  }
  if (ok) std::printf("first_use: %s agrees with the scalar kernel\n", op.c_str());
  return ok ? 0 : 1;
#else
  static_cast<void>(argc);
  static_cast<void>(argv);
  return 77;
#endif
}
