// Fuzz target: the fuzzer's bytes as UTF-16 and as UTF-32 code units (copied into aligned
// buffers): strict and replace conversions to UTF-8 against a simple reference, exact lengths.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "reference.hpp"

namespace fuzz_utf16_32 {

template <class Unit>
void check(const Unit* units, std::size_t n, char32_t chosen) {
  const std::basic_string_view<Unit> in(units, n);
  const char32_t repl = fuzzref::effective_replacement(chosen);
  utf8dfa::error_code first = utf8dfa::error_code::none;
  std::size_t error_at = 0, good = 0;
  std::u32string cps, cps_chosen;
  if constexpr (sizeof(Unit) == 2) {
    cps = fuzzref::decode_utf16(units, n, 0xFFFD, first, error_at, good);
    cps_chosen = fuzzref::decode_utf16(units, n, repl, first, error_at, good);
  } else {
    cps = fuzzref::decode_utf32(units, n, 0xFFFD, first, error_at, good);
    cps_chosen = fuzzref::decode_utf32(units, n, repl, first, error_at, good);
  }
  const std::string ref8 = fuzzref::to_utf8(cps_chosen);
  const std::string ref_strict = fuzzref::to_utf8(cps.substr(0, good));

  // replace, with the chosen replacement, into a buffer of exactly the helper's size.
  const utf8dfa::replace policy{chosen};
  std::size_t len = 0;
  if constexpr (sizeof(Unit) == 2)
    len = utf8dfa::utf8_length_from_utf16(in, policy);
  else
    len = utf8dfa::utf8_length_from_utf32(in, policy);
  FUZZ_CHECK(len == ref8.size());
  std::unique_ptr<char[]> out(new char[len]);
  utf8dfa::conversion_result r{};
  if constexpr (sizeof(Unit) == 2)
    r = utf8dfa::utf16_to_utf8(in, out.get(), policy);
  else
    r = utf8dfa::utf32_to_utf8(in, out.get(), policy);
  FUZZ_CHECK(r.read == n && r.written == len && r.error == first);
  FUZZ_CHECK(std::string_view(out.get(), len) == ref8);
  FUZZ_CHECK(utf8dfa::is_valid(std::string_view(out.get(), len)));

  // strict: stops before the first error, having written the characters before it.
  std::size_t slen = 0;
  if constexpr (sizeof(Unit) == 2)
    slen = utf8dfa::utf8_length_from_utf16(in);
  else
    slen = utf8dfa::utf8_length_from_utf32(in);
  FUZZ_CHECK(slen >= ref_strict.size());
  std::unique_ptr<char[]> sout(new char[slen]);
  if constexpr (sizeof(Unit) == 2)
    r = utf8dfa::utf16_to_utf8(in, sout.get());
  else
    r = utf8dfa::utf32_to_utf8(in, sout.get());
  FUZZ_CHECK(r.read == error_at && r.error == first && r.written == ref_strict.size());
  FUZZ_CHECK(std::string_view(sout.get(), r.written) == ref_strict);

  // Allocating helpers, and back to UTF-8's inverse: the lossy output decodes to the reference.
  const std::string lossy = utf8dfa::to_utf8_lossy(in);
  FUZZ_CHECK(lossy == fuzzref::to_utf8(cps));
  FUZZ_CHECK(utf8dfa::to_utf32(lossy) == cps);
  FUZZ_CHECK(utf8dfa::to_utf16(lossy) == fuzzref::to_utf16(cps));
  utf8dfa::conversion_result status{};
  const std::string strict_str = utf8dfa::to_utf8(in, status);
  FUZZ_CHECK(status.error == first && strict_str == ref_strict);
}

}  // namespace fuzz_utf16_32

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char32_t chosen = fuzzref::pick_replacement(size);
  std::vector<char16_t> u16(size / 2);
  if (!u16.empty()) std::memcpy(u16.data(), data, u16.size() * 2);
  std::vector<char32_t> u32(size / 4);
  if (!u32.empty()) std::memcpy(u32.data(), data, u32.size() * 4);
  static const std::vector<std::string> kernels = fuzzref::kernel_names();
  for (const std::string& k : kernels) {
    FUZZ_CHECK(utf8dfa::select_kernel(k));
    fuzz_utf16_32::check(u16.data(), u16.size(), chosen);
    fuzz_utf16_32::check(u32.data(), u32.size(), chosen);
  }
  return 0;
}
