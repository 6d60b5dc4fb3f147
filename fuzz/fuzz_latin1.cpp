// Fuzz target: Latin-1. The first byte picks the function family and the replacement; the rest is
// Latin-1 (to UTF-8/16/32: pointer forms, utf8_length_from_latin1, allocating forms) or UTF-8,
// UTF-16 or UTF-32 (to Latin-1 under strict, replace with a Latin-1 or a refused replacement, skip
// and assume_valid: pointer forms, latin1_length_from_* with each policy, to_latin1 with a status,
// to_latin1_lossy), each under every kernel against the reference of reference_units.hpp.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "reference_units.hpp"

namespace fuzz_latin1 {

using fuzzref::pol;
using utf8dfa::conversion_result;

bool same(const conversion_result& a, const conversion_result& b) {
  return a.read == b.read && a.written == b.written && a.error == b.error;
}

/// The library's view of `n` units at `p` (UTF-8 as std::string_view).
template <class In>
auto view_of(const In* p, std::size_t n) {
  if constexpr (sizeof(In) == 1)
    return std::string_view(reinterpret_cast<const char*>(p), n);
  else
    return std::basic_string_view<In>(p, n);
}

template <class In, class... A>
conversion_result to_l1(const In* p, std::size_t n, char* out, A... a) {
  if constexpr (sizeof(In) == 1)
    return utf8dfa::utf8_to_latin1(view_of(p, n), out, a...);
  else if constexpr (sizeof(In) == 2)
    return utf8dfa::utf16_to_latin1(view_of(p, n), out, a...);
  else
    return utf8dfa::utf32_to_latin1(view_of(p, n), out, a...);
}

template <class In, class... A>
std::size_t l1_length(const In* p, std::size_t n, A... a) {
  if constexpr (sizeof(In) == 1)
    return utf8dfa::latin1_length_from_utf8(view_of(p, n), a...);
  else if constexpr (sizeof(In) == 2)
    return utf8dfa::latin1_length_from_utf16(view_of(p, n), a...);
  else
    return utf8dfa::latin1_length_from_utf32(view_of(p, n), a...);
}

template <class In>
std::vector<fuzzref::unit_step> steps_of(const In* p, std::size_t n) {
  if constexpr (sizeof(In) == 1)
    return fuzzref::steps_utf8(p, n);
  else if constexpr (sizeof(In) == 2)
    return fuzzref::steps_utf16(p, n);
  else
    return fuzzref::steps_utf32(p, n);
}

/// UTF-8, UTF-16 or UTF-32 (by In) to Latin-1 with replacement `chosen` (refused above U+00FF).
template <class In>
void to_latin1(const In* p, std::size_t n, char32_t chosen) {
  const auto steps = steps_of(p, n);
  const auto in = view_of(p, n);
  const utf8dfa::replace rp{chosen};
  const char32_t eff = rp.replacement_value();
  const bool refused = eff > 0xFF;
  const auto ref_strict = fuzzref::convert<char>(steps, n, pol::strict, 0, true);
  const auto ref_repl = fuzzref::convert<char>(steps, n, pol::replace, eff, true);
  const auto ref_q = fuzzref::convert<char>(steps, n, pol::replace, U'?', true);
  const auto ref_skip = fuzzref::convert<char>(steps, n, pol::skip, 0, true);
  const bool well_formed = fuzzref::first_error(steps, n).error == utf8dfa::error_code::none;

  // strict: into a buffer of the plain helper's size (an upper bound: one byte per step).
  const std::size_t upper = l1_length(p, n);
  FUZZ_CHECK(upper == steps.size());
  std::unique_ptr<char[]> out(new char[upper]);
  FUZZ_CHECK(same(to_l1(p, n, out.get()), ref_strict.r));
  FUZZ_CHECK(std::string_view(out.get(), ref_strict.r.written) == ref_strict.out);

  // replace{chosen}: exact size, or refused whatever the input.
  const std::size_t rlen = l1_length(p, n, rp);
  FUZZ_CHECK(rlen == (refused ? 0 : ref_repl.out.size()));
  std::unique_ptr<char[]> rout(new char[rlen]);
  const conversion_result rr = to_l1(p, n, rout.get(), rp);
  if (refused) {
    FUZZ_CHECK(same(rr, {0, 0, utf8dfa::error_code::unrepresentable}));
  } else {
    FUZZ_CHECK(same(rr, ref_repl.r));
    FUZZ_CHECK(std::string_view(rout.get(), rlen) == ref_repl.out);
  }

  // skip: exact size.
  const std::size_t slen = l1_length(p, n, utf8dfa::skip{});
  FUZZ_CHECK(slen == ref_skip.out.size());
  std::unique_ptr<char[]> sout(new char[slen]);
  FUZZ_CHECK(same(to_l1(p, n, sout.get(), utf8dfa::skip{}), ref_skip.r));
  FUZZ_CHECK(std::string_view(sout.get(), slen) == ref_skip.out);

  // assume_valid: '?' for what Latin-1 cannot hold; any input stays within the helper's size.
  std::unique_ptr<char[]> aout(new char[upper]);
  const conversion_result ar = to_l1(p, n, aout.get(), utf8dfa::assume_valid{});
  FUZZ_CHECK(ar.written <= upper);
  if (well_formed) FUZZ_CHECK(std::string_view(aout.get(), ar.written) == ref_q.out);

  // The allocating forms.
  conversion_result status{};
  FUZZ_CHECK(utf8dfa::to_latin1(in, status) == ref_strict.out);
  FUZZ_CHECK(same(status, ref_strict.r));
  FUZZ_CHECK(utf8dfa::to_latin1_lossy(in) == ref_q.out);
  FUZZ_CHECK(utf8dfa::to_latin1_lossy(in, rp) == (refused ? std::string() : ref_repl.out));
  FUZZ_CHECK(utf8dfa::to_latin1_lossy(in, utf8dfa::skip{}) == ref_skip.out);
#if UTF8DFA_HAS_EXCEPTIONS
  try {
    FUZZ_CHECK(utf8dfa::to_latin1(in) == ref_strict.out && ref_strict.r.error == utf8dfa::error_code::none);
  } catch (const utf8dfa::conversion_error& e) {
    FUZZ_CHECK(e.code() == ref_strict.r.error);
  }
#endif
}

/// Latin-1 bytes to UTF-8, UTF-16 and UTF-32, and back.
void from_latin1(const unsigned char* p, std::size_t n) {
  const auto steps = fuzzref::steps_latin1(p, n);
  const auto in = view_of(p, n);
  const std::string ref8 = fuzzref::convert<char>(steps, n, pol::strict, 0).out;
  const std::u16string ref16 = fuzzref::convert<char16_t>(steps, n, pol::strict, 0).out;
  const std::u32string ref32 = fuzzref::convert<char32_t>(steps, n, pol::strict, 0).out;

  const std::size_t len8 = utf8dfa::utf8_length_from_latin1(in);
  FUZZ_CHECK(len8 == ref8.size());
  std::unique_ptr<char[]> out8(new char[len8]);
  FUZZ_CHECK(utf8dfa::latin1_to_utf8(in, out8.get()) == len8);
  FUZZ_CHECK(std::string_view(out8.get(), len8) == ref8);
  std::unique_ptr<char16_t[]> out16(new char16_t[n]);
  FUZZ_CHECK(utf8dfa::latin1_to_utf16(in, out16.get()) == n);
  FUZZ_CHECK(std::u16string_view(out16.get(), n) == ref16);
  std::unique_ptr<char32_t[]> out32(new char32_t[n]);
  FUZZ_CHECK(utf8dfa::latin1_to_utf32(in, out32.get()) == n);
  FUZZ_CHECK(std::u32string_view(out32.get(), n) == ref32);

  FUZZ_CHECK(utf8dfa::latin1_to_utf8(in) == ref8);
  FUZZ_CHECK(utf8dfa::latin1_to_utf16(in) == ref16);
  FUZZ_CHECK(utf8dfa::latin1_to_utf32(in) == ref32);

  // Back: every form returns the bytes, with no error.
  conversion_result status{};
  FUZZ_CHECK(utf8dfa::to_latin1(ref8, status) == std::string(in));
  FUZZ_CHECK(same(status, {ref8.size(), n, utf8dfa::error_code::none}));
  FUZZ_CHECK(utf8dfa::to_latin1(ref16, status) == std::string(in) && status.error == utf8dfa::error_code::none);
  FUZZ_CHECK(utf8dfa::to_latin1(ref32, status) == std::string(in) && status.error == utf8dfa::error_code::none);
}

}  // namespace fuzz_latin1

/// Input: a selector byte (function family in its low 2 bits, the replacement in the others), then
/// the units.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned sel = data[0];
  ++data;
  --size;
  // Latin-1 replacements, then ones refused (U+FFFD, U+0100, and a surrogate read as U+FFFD).
  constexpr char32_t choices[] = {U'?', 0x00, 0xE9, 0xFF, 0xFFFD, 0x100, 0xD800, 0x1F4A9};
  const char32_t chosen = choices[(sel >> 2) % 8];
  std::vector<char16_t> u16(size / 2);
  if (!u16.empty()) std::memcpy(u16.data(), data, u16.size() * 2);
  std::vector<char32_t> u32(size / 4);
  if (!u32.empty()) std::memcpy(u32.data(), data, u32.size() * 4);
  static const std::vector<std::string> kernels = fuzzref::kernel_names();
  for (const std::string& k : kernels) {
    FUZZ_CHECK(utf8dfa::select_kernel(k));
    switch (sel & 3) {
      case 0:
        fuzz_latin1::from_latin1(data, size);
        break;
      case 1:
        fuzz_latin1::to_latin1(data, size, chosen);
        break;
      case 2:
        fuzz_latin1::to_latin1(u16.data(), u16.size(), chosen);
        break;
      default:
        fuzz_latin1::to_latin1(u32.data(), u32.size(), chosen);
        break;
    }
  }
  return 0;
}
