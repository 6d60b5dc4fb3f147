// Fuzz target: UTF-16 and UTF-32 units and the stated byte orders. The first byte picks the input
// form and the replacement; the rest is UTF-16 (validate_utf16/le/be, count_utf16,
// to_well_formed_utf16, change_endianness_utf16, utf16_to_utf32 and utf16le/be_to_utf8 under
// strict, replace and skip with their length helpers), UTF-32 (the same for UTF-32 and
// utf32_to_utf16), or UTF-8 bytes (utf8_to_utf16/32 under skip, utf8_to_utf16le/be and
// utf8_to_utf32le/be, the assume_valid length helpers, detect_bom and detect_encodings), each under
// every kernel against the reference of reference_units.hpp.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "reference_units.hpp"

namespace fuzz_units {

using fuzzref::pol;
using utf8dfa::conversion_result;
using utf8dfa::error_code;

bool same(const conversion_result& a, const conversion_result& b) {
  return a.read == b.read && a.written == b.written && a.error == b.error;
}
bool same(const utf8dfa::validation_result& a, const utf8dfa::validation_result& b) {
  return a.valid_up_to == b.valid_up_to && a.error_length == b.error_length && a.error == b.error;
}

/// Units as stored little-endian (Little) or big-endian, from host-order units.
template <bool Little, class Unit>
std::basic_string<Unit> stored(const std::basic_string<Unit>& s) {
  if (Little == utf8dfa::host_is_little_endian) return s;
  std::basic_string<Unit> t(s);
  for (Unit& u : t)
    u = sizeof(Unit) == 2 ? static_cast<Unit>(fuzzref::swap16(static_cast<char16_t>(u)))
                          : static_cast<Unit>(fuzzref::swap32(static_cast<char32_t>(u)));
  return t;
}

/// A conversion into a buffer of `len` units (ASan sees any write past it) under policy `p`,
/// compared with the reference `ref`; `in` and `out` in the byte order of `f`'s stated form.
template <class Out, class F>
void expect(std::size_t len, const fuzzref::converted<Out>& ref, F f, bool swap_out = false) {
  std::unique_ptr<Out[]> out(new Out[len]);
  const conversion_result r = f(out.get());
  FUZZ_CHECK(same(r, ref.r));
  FUZZ_CHECK(r.written <= len);
  std::basic_string<Out> got(out.get(), r.written);
  if (swap_out) {
    for (Out& u : got)
      u = sizeof(Out) == 2 ? static_cast<Out>(fuzzref::swap16(static_cast<char16_t>(u)))
                           : static_cast<Out>(fuzzref::swap32(static_cast<char32_t>(u)));
  }
  FUZZ_CHECK(got == ref.out);
}

void utf16(const std::u16string& s, char32_t chosen) {
  const std::size_t n = s.size();
  const std::u16string_view in(s);
  const auto steps = fuzzref::steps_utf16(s.data(), n);
  const utf8dfa::validation_result first = fuzzref::first_error(steps, n);
  const utf8dfa::replace rp{chosen};
  const char32_t eff = rp.replacement_value();
  FUZZ_CHECK(same(utf8dfa::validate_utf16(in), first));
  const std::u16string le = stored<true>(s), be = stored<false>(s);
  FUZZ_CHECK(same(utf8dfa::validate_utf16le(le), first));
  FUZZ_CHECK(same(utf8dfa::validate_utf16be(be), first));
  FUZZ_CHECK(utf8dfa::count_utf16(in) == steps.size());

  // to_well_formed_utf16, into another buffer and in place.
  const auto wf = fuzzref::convert<char16_t>(steps, n, pol::replace, 0xFFFD);
  FUZZ_CHECK(wf.out.size() == n);
  std::unique_ptr<char16_t[]> buf(new char16_t[n]);
  FUZZ_CHECK(utf8dfa::to_well_formed_utf16(in, buf.get()) == n);
  FUZZ_CHECK(std::u16string_view(buf.get(), n) == wf.out);
  std::u16string inplace(s);
  FUZZ_CHECK(utf8dfa::to_well_formed_utf16(inplace, inplace.data()) == n && inplace == wf.out);

  // change_endianness_utf16, into another buffer and in place (twice: back to the input).
  std::u16string swapped(s);
  for (char16_t& u : swapped) u = fuzzref::swap16(u);
  FUZZ_CHECK(utf8dfa::change_endianness_utf16(in, buf.get()) == n);
  FUZZ_CHECK(std::u16string_view(buf.get(), n) == swapped);
  std::u16string twice(s);
  utf8dfa::change_endianness_utf16(twice, twice.data());
  FUZZ_CHECK(twice == swapped);
  utf8dfa::change_endianness_utf16(twice, twice.data());
  FUZZ_CHECK(twice == s);

  // UTF-16 to UTF-32 under each policy, with the length helpers.
  const auto s32 = fuzzref::convert<char32_t>(steps, n, pol::strict, 0);
  const auto r32 = fuzzref::convert<char32_t>(steps, n, pol::replace, eff);
  const auto k32 = fuzzref::convert<char32_t>(steps, n, pol::skip, 0);
  const std::size_t up32 = utf8dfa::utf32_length_from_utf16(in);
  FUZZ_CHECK(up32 == r32.out.size() && utf8dfa::utf32_length_from_utf16(in, rp) == up32);
  FUZZ_CHECK(utf8dfa::utf32_length_from_utf16(in, utf8dfa::skip{}) == k32.out.size());
  expect<char32_t>(up32, s32, [&](char32_t* o) { return utf8dfa::utf16_to_utf32(in, o); });
  expect<char32_t>(up32, r32, [&](char32_t* o) { return utf8dfa::utf16_to_utf32(in, o, rp); });
  expect<char32_t>(k32.out.size(), k32, [&](char32_t* o) { return utf8dfa::utf16_to_utf32(in, o, utf8dfa::skip{}); });
  if (first.error == error_code::none)
    expect<char32_t>(up32, s32, [&](char32_t* o) { return utf8dfa::utf16_to_utf32(in, o, utf8dfa::assume_valid{}); });

  // UTF-16 (host order, LE, BE) to UTF-8 under each policy, with the length helpers.
  const auto s8 = fuzzref::convert<char>(steps, n, pol::strict, 0);
  const auto r8 = fuzzref::convert<char>(steps, n, pol::replace, eff);
  const auto k8 = fuzzref::convert<char>(steps, n, pol::skip, 0);
  const std::size_t rlen = r8.out.size(), klen = k8.out.size();
  const std::size_t dlen = fuzzref::convert<char>(steps, n, pol::replace, 0xFFFD).out.size();
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf16(in, rp) == rlen);
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf16(in, utf8dfa::skip{}) == klen);
  // assume_valid: each unit on its own (a surrogate 2 bytes), the conversion's length when well-formed.
  std::size_t vlen = 0;
  for (const char16_t u : in) vlen += u < 0x80 ? 1 : u < 0x800 ? 2 : (u & 0xF800) == 0xD800 ? 2 : 3;
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf16(in, utf8dfa::assume_valid{}) == vlen);
  FUZZ_CHECK(first.error != error_code::none || vlen == dlen);
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf16le(le, rp) == rlen && utf8dfa::utf8_length_from_utf16be(be, rp) == rlen);
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf16le(le) == dlen && utf8dfa::utf8_length_from_utf16be(be) == dlen);
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf16le(le, utf8dfa::skip{}) == klen);
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf16be(be, utf8dfa::skip{}) == klen);
  expect<char>(klen, k8, [&](char* o) { return utf8dfa::utf16_to_utf8(in, o, utf8dfa::skip{}); });
  FUZZ_CHECK(utf8dfa::to_utf8_lossy(in, utf8dfa::skip{}) == k8.out);
  expect<char>(dlen, s8, [&](char* o) { return utf8dfa::utf16le_to_utf8(le, o); });
  expect<char>(dlen, s8, [&](char* o) { return utf8dfa::utf16be_to_utf8(be, o); });
  expect<char>(rlen, r8, [&](char* o) { return utf8dfa::utf16le_to_utf8(le, o, rp); });
  expect<char>(rlen, r8, [&](char* o) { return utf8dfa::utf16be_to_utf8(be, o, rp); });
  expect<char>(klen, k8, [&](char* o) { return utf8dfa::utf16le_to_utf8(le, o, utf8dfa::skip{}); });
  expect<char>(klen, k8, [&](char* o) { return utf8dfa::utf16be_to_utf8(be, o, utf8dfa::skip{}); });
}

void utf32(const std::u32string& s, char32_t chosen) {
  const std::size_t n = s.size();
  const std::u32string_view in(s);
  const auto steps = fuzzref::steps_utf32(s.data(), n);
  const utf8dfa::validation_result first = fuzzref::first_error(steps, n);
  const utf8dfa::replace rp{chosen};
  const char32_t eff = rp.replacement_value();
  FUZZ_CHECK(same(utf8dfa::validate_utf32(in), first));
  const std::u32string le = stored<true>(s), be = stored<false>(s);
  FUZZ_CHECK(same(utf8dfa::validate_utf32le(le), first));
  FUZZ_CHECK(same(utf8dfa::validate_utf32be(be), first));

  std::u32string swapped(s);
  for (char32_t& u : swapped) u = fuzzref::swap32(u);
  std::unique_ptr<char32_t[]> buf(new char32_t[n]);
  FUZZ_CHECK(utf8dfa::change_endianness_utf32(in, buf.get()) == n);
  FUZZ_CHECK(std::u32string_view(buf.get(), n) == swapped);
  std::u32string twice(s);
  utf8dfa::change_endianness_utf32(twice, twice.data());
  FUZZ_CHECK(twice == swapped);
  utf8dfa::change_endianness_utf32(twice, twice.data());
  FUZZ_CHECK(twice == s);

  // UTF-32 to UTF-16 under each policy.
  const auto s16 = fuzzref::convert<char16_t>(steps, n, pol::strict, 0);
  const auto r16 = fuzzref::convert<char16_t>(steps, n, pol::replace, eff);
  const auto k16 = fuzzref::convert<char16_t>(steps, n, pol::skip, 0);
  const std::size_t d16 = fuzzref::convert<char16_t>(steps, n, pol::replace, 0xFFFD).out.size();
  FUZZ_CHECK(utf8dfa::utf16_length_from_utf32(in) == d16);
  FUZZ_CHECK(utf8dfa::utf16_length_from_utf32(in, rp) == r16.out.size());
  FUZZ_CHECK(utf8dfa::utf16_length_from_utf32(in, utf8dfa::skip{}) == k16.out.size());
  expect<char16_t>(d16, s16, [&](char16_t* o) { return utf8dfa::utf32_to_utf16(in, o); });
  expect<char16_t>(r16.out.size(), r16, [&](char16_t* o) { return utf8dfa::utf32_to_utf16(in, o, rp); });
  expect<char16_t>(k16.out.size(), k16, [&](char16_t* o) { return utf8dfa::utf32_to_utf16(in, o, utf8dfa::skip{}); });
  if (first.error == error_code::none)
    expect<char16_t>(d16, s16, [&](char16_t* o) { return utf8dfa::utf32_to_utf16(in, o, utf8dfa::assume_valid{}); });

  // UTF-32 (host order, LE, BE) to UTF-8.
  const auto s8 = fuzzref::convert<char>(steps, n, pol::strict, 0);
  const auto r8 = fuzzref::convert<char>(steps, n, pol::replace, eff);
  const auto k8 = fuzzref::convert<char>(steps, n, pol::skip, 0);
  const std::size_t rlen = r8.out.size(), klen = k8.out.size();
  const std::size_t dlen = fuzzref::convert<char>(steps, n, pol::replace, 0xFFFD).out.size();
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf32(in, utf8dfa::skip{}) == klen);
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf32(in, utf8dfa::assume_valid{}) == dlen);
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf32le(le, rp) == rlen && utf8dfa::utf8_length_from_utf32be(be, rp) == rlen);
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf32le(le) == dlen && utf8dfa::utf8_length_from_utf32be(be) == dlen);
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf32le(le, utf8dfa::skip{}) == klen);
  FUZZ_CHECK(utf8dfa::utf8_length_from_utf32be(be, utf8dfa::skip{}) == klen);
  expect<char>(klen, k8, [&](char* o) { return utf8dfa::utf32_to_utf8(in, o, utf8dfa::skip{}); });
  FUZZ_CHECK(utf8dfa::to_utf8_lossy(in, utf8dfa::skip{}) == k8.out);
  expect<char>(dlen, s8, [&](char* o) { return utf8dfa::utf32le_to_utf8(le, o); });
  expect<char>(dlen, s8, [&](char* o) { return utf8dfa::utf32be_to_utf8(be, o); });
  expect<char>(rlen, r8, [&](char* o) { return utf8dfa::utf32le_to_utf8(le, o, rp); });
  expect<char>(rlen, r8, [&](char* o) { return utf8dfa::utf32be_to_utf8(be, o, rp); });
  expect<char>(klen, k8, [&](char* o) { return utf8dfa::utf32le_to_utf8(le, o, utf8dfa::skip{}); });
  expect<char>(klen, k8, [&](char* o) { return utf8dfa::utf32be_to_utf8(be, o, utf8dfa::skip{}); });
}

/// The encodings the bytes are well-formed in, by the references (units assembled byte by byte).
utf8dfa::encoding_set ref_encodings(const unsigned char* p, std::size_t n) {
  utf8dfa::encoding_set set;
  set.insert(utf8dfa::encoding::latin1);
  if (fuzzref::validate(p, n)) set.insert(utf8dfa::encoding::utf8);
  if (n % 2 == 0) {
    std::u16string le(n / 2, u'\0'), be(n / 2, u'\0');
    for (std::size_t i = 0; i < n / 2; ++i) {
      le[i] = static_cast<char16_t>(p[2 * i] | (p[2 * i + 1] << 8));
      be[i] = static_cast<char16_t>((p[2 * i] << 8) | p[2 * i + 1]);
    }
    if (fuzzref::first_error(fuzzref::steps_utf16(le.data(), le.size()), le.size()).error == error_code::none)
      set.insert(utf8dfa::encoding::utf16le);
    if (fuzzref::first_error(fuzzref::steps_utf16(be.data(), be.size()), be.size()).error == error_code::none)
      set.insert(utf8dfa::encoding::utf16be);
  }
  if (n % 4 == 0) {
    std::u32string le(n / 4, U'\0'), be(n / 4, U'\0');
    for (std::size_t i = 0; i < n / 4; ++i) {
      const unsigned char* q = p + 4 * i;
      le[i] = q[0] | (char32_t{q[1]} << 8) | (char32_t{q[2]} << 16) | (char32_t{q[3]} << 24);
      be[i] = q[3] | (char32_t{q[2]} << 8) | (char32_t{q[1]} << 16) | (char32_t{q[0]} << 24);
    }
    if (fuzzref::first_error(fuzzref::steps_utf32(le.data(), le.size()), le.size()).error == error_code::none)
      set.insert(utf8dfa::encoding::utf32le);
    if (fuzzref::first_error(fuzzref::steps_utf32(be.data(), be.size()), be.size()).error == error_code::none)
      set.insert(utf8dfa::encoding::utf32be);
  }
  return set;
}

/// The byte order mark by the table of detect_bom's comment (longest first).
utf8dfa::bom_result ref_bom(const unsigned char* p, std::size_t n) {
  const auto starts = [&](std::initializer_list<unsigned> b) {
    if (n < b.size()) return false;
    std::size_t i = 0;
    for (unsigned v : b)
      if (p[i++] != v) return false;
    return true;
  };
  if (starts({0xEF, 0xBB, 0xBF})) return {utf8dfa::encoding::utf8, 3};
  if (starts({0xFF, 0xFE, 0x00, 0x00})) return {utf8dfa::encoding::utf32le, 4};
  if (starts({0x00, 0x00, 0xFE, 0xFF})) return {utf8dfa::encoding::utf32be, 4};
  if (starts({0xFF, 0xFE})) return {utf8dfa::encoding::utf16le, 2};
  if (starts({0xFE, 0xFF})) return {utf8dfa::encoding::utf16be, 2};
  return {utf8dfa::encoding::none, 0};
}

void utf8(const unsigned char* p, std::size_t n, char32_t chosen) {
  const std::string_view in(reinterpret_cast<const char*>(p), n);
  const auto steps = fuzzref::steps_utf8(p, n);
  const utf8dfa::replace rp{chosen};
  const char32_t eff = rp.replacement_value();
  const bool well_formed = fuzzref::first_error(steps, n).error == error_code::none;

  // skip into the host order, with the exact length helpers and the allocating forms.
  const auto k16 = fuzzref::convert<char16_t>(steps, n, pol::skip, 0);
  const auto k32 = fuzzref::convert<char32_t>(steps, n, pol::skip, 0);
  FUZZ_CHECK(utf8dfa::utf16_length_from_utf8(in, utf8dfa::skip{}) == k16.out.size());
  FUZZ_CHECK(utf8dfa::utf32_length_from_utf8(in, utf8dfa::skip{}) == k32.out.size());
  expect<char16_t>(k16.out.size(), k16, [&](char16_t* o) { return utf8dfa::utf8_to_utf16(in, o, utf8dfa::skip{}); });
  expect<char32_t>(k32.out.size(), k32, [&](char32_t* o) { return utf8dfa::utf8_to_utf32(in, o, utf8dfa::skip{}); });
  FUZZ_CHECK(utf8dfa::to_utf16_lossy(in, utf8dfa::skip{}) == k16.out);
  FUZZ_CHECK(utf8dfa::to_utf32_lossy(in, utf8dfa::skip{}) == k32.out);

  // LE and BE output under each policy (compared in host order).
  const bool swap_le = !utf8dfa::host_is_little_endian, swap_be = utf8dfa::host_is_little_endian;
  const auto s16 = fuzzref::convert<char16_t>(steps, n, pol::strict, 0);
  const auto r16 = fuzzref::convert<char16_t>(steps, n, pol::replace, eff);
  const std::size_t l16 = utf8dfa::utf16_length_from_utf8(in, rp);
  FUZZ_CHECK(l16 == r16.out.size());
  const std::size_t up16 = utf8dfa::utf16_length_from_utf8(in);
  expect<char16_t>(
      up16, s16, [&](char16_t* o) { return utf8dfa::utf8_to_utf16le(in, o); }, swap_le);
  expect<char16_t>(
      up16, s16, [&](char16_t* o) { return utf8dfa::utf8_to_utf16be(in, o); }, swap_be);
  expect<char16_t>(
      l16, r16, [&](char16_t* o) { return utf8dfa::utf8_to_utf16le(in, o, rp); }, swap_le);
  expect<char16_t>(
      l16, r16, [&](char16_t* o) { return utf8dfa::utf8_to_utf16be(in, o, rp); }, swap_be);
  expect<char16_t>(
      k16.out.size(), k16, [&](char16_t* o) { return utf8dfa::utf8_to_utf16le(in, o, utf8dfa::skip{}); }, swap_le);
  expect<char16_t>(
      k16.out.size(), k16, [&](char16_t* o) { return utf8dfa::utf8_to_utf16be(in, o, utf8dfa::skip{}); }, swap_be);
  const auto s32 = fuzzref::convert<char32_t>(steps, n, pol::strict, 0);
  const auto r32 = fuzzref::convert<char32_t>(steps, n, pol::replace, eff);
  const std::size_t l32 = utf8dfa::utf32_length_from_utf8(in, rp);
  FUZZ_CHECK(l32 == r32.out.size());
  expect<char32_t>(
      l32, s32, [&](char32_t* o) { return utf8dfa::utf8_to_utf32le(in, o); }, swap_le);
  expect<char32_t>(
      l32, s32, [&](char32_t* o) { return utf8dfa::utf8_to_utf32be(in, o); }, swap_be);
  expect<char32_t>(
      l32, r32, [&](char32_t* o) { return utf8dfa::utf8_to_utf32le(in, o, rp); }, swap_le);
  expect<char32_t>(
      l32, r32, [&](char32_t* o) { return utf8dfa::utf8_to_utf32be(in, o, rp); }, swap_be);
  expect<char32_t>(
      k32.out.size(), k32, [&](char32_t* o) { return utf8dfa::utf8_to_utf32le(in, o, utf8dfa::skip{}); }, swap_le);
  expect<char32_t>(
      k32.out.size(), k32, [&](char32_t* o) { return utf8dfa::utf8_to_utf32be(in, o, utf8dfa::skip{}); }, swap_be);

  // assume_valid lengths: the documented counts on any input, exact on well-formed input.
  std::size_t leads = 0, four = 0;
  for (std::size_t i = 0; i < n; ++i) {
    leads += p[i] < 0x80 || p[i] > 0xBF;
    four += p[i] >= 0xF0;
  }
  const std::size_t av16 = utf8dfa::utf16_length_from_utf8(in, utf8dfa::assume_valid{});
  const std::size_t av32 = utf8dfa::utf32_length_from_utf8(in, utf8dfa::assume_valid{});
  FUZZ_CHECK(av16 == leads + four && av32 == leads);
  if (well_formed) FUZZ_CHECK(av16 == s16.out.size() && av32 == s32.out.size());

  // Detection.
  const utf8dfa::bom_result bom = utf8dfa::detect_bom(in), rb = ref_bom(p, n);
  FUZZ_CHECK(bom.encoding == rb.encoding && bom.length == rb.length);
  const utf8dfa::bom_result bom2 = utf8dfa::detect_bom(p, n);
  FUZZ_CHECK(bom2.encoding == rb.encoding && bom2.length == rb.length);
  FUZZ_CHECK(utf8dfa::detect_encodings(in) == ref_encodings(p, n));
  FUZZ_CHECK(utf8dfa::detect_encodings(p, n) == ref_encodings(p, n));
}

}  // namespace fuzz_units

/// Input: a selector byte (the form in its low 2 bits: UTF-16, UTF-32, UTF-8 twice as often; the
/// replacement in the others), then the units.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned sel = data[0];
  ++data;
  --size;
  const char32_t chosen = fuzzref::pick_replacement(sel >> 2);
  std::u16string u16(size / 2, u'\0');
  if (!u16.empty()) std::memcpy(&u16[0], data, u16.size() * 2);
  std::u32string u32(size / 4, U'\0');
  if (!u32.empty()) std::memcpy(&u32[0], data, u32.size() * 4);
  static const std::vector<std::string> kernels = fuzzref::kernel_names();
  for (const std::string& k : kernels) {
    FUZZ_CHECK(utf8dfa::select_kernel(k));
    switch (sel & 3) {
      case 0:
        fuzz_units::utf16(u16, chosen);
        break;
      case 1:
        fuzz_units::utf32(u32, chosen);
        break;
      default:
        fuzz_units::utf8(data, size, chosen);
        break;
    }
  }
  return 0;
}
