// utf8dfa benchmark: the implementations (see peers.hpp). Each peer uses its fastest correct API for
// the job, writes into the pre-sized buffers and never allocates.
#include "peers.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <string_view>

#include "utf8dfa.hpp"

#if UTF8DFA_BENCH_UTFCPP
#include <utf8.h>
#endif
#if UTF8DFA_BENCH_SIMDJSON
#include <simdjson.h>
#endif
#if UTF8DFA_BENCH_ICU
#include <unicode/uchar.h>
#include <unicode/ucnv.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>
#include <unicode/uversion.h>
#endif
#if UTF8DFA_BENCH_ICONV
#include <iconv.h>
#endif
#if UTF8DFA_BENCH_SIMDUTF
#include <simdutf.h>
#endif

namespace utf8dfa_bench {

std::size_t buffer_offset = 0;

const char* op_name(op o) {
  switch (o) {
    case op::validate:
      return "validate";
    case op::utf8_to_utf32:
      return "utf8_to_utf32";
    case op::utf8_to_utf16:
      return "utf8_to_utf16";
    case op::utf16_to_utf8:
      return "utf16_to_utf8";
    case op::utf32_to_utf8:
      return "utf32_to_utf8";
    case op::count:
      return "count";
    case op::utf16_length_from_utf8:
      return "utf16_length_from_utf8";
    case op::utf32_length_from_utf8:
      return "utf32_length_from_utf8";
    case op::utf8_length_from_utf16:
      return "utf8_length_from_utf16";
    case op::utf8_length_from_utf32:
      return "utf8_length_from_utf32";
    case op::to_utf16:
      return "to_utf16";
    case op::to_utf32:
      return "to_utf32";
    case op::to_utf8_from_utf16:
      return "to_utf8_from_utf16";
    case op::to_utf8_from_utf32:
      return "to_utf8_from_utf32";
    case op::view_utf8_to_utf16:
      return "view_utf8_to_utf16";
    case op::view_utf16_to_utf8:
      return "view_utf16_to_utf8";
    case op::view_utf16_to_utf32:
      return "view_utf16_to_utf32";
    case op::view_utf8_to_utf32:
      return "view_utf8_to_utf32";
    case op::utf8_to_utf16_bounded:
      return "utf8_to_utf16_bounded";
    case op::utf16_to_utf8_bounded:
      return "utf16_to_utf8_bounded";
    case op::latin1_to_utf8:
      return "latin1_to_utf8";
    case op::utf8_to_latin1:
      return "utf8_to_latin1";
    case op::validate_utf16:
      return "validate_utf16";
    case op::utf16_to_utf32:
      return "utf16_to_utf32";
    case op::utf32_to_utf16:
      return "utf32_to_utf16";
    case op::to_well_formed_utf16:
      return "to_well_formed_utf16";
    case op::validate_with_errors:
      return "validate_with_errors";
    case op::utf8_to_utf16_assume_valid:
      return "utf8_to_utf16_assume_valid";
    case op::utf16_length_from_utf8_assume_valid:
      return "utf16_length_from_utf8_assume_valid";
    case op::utf32_length_from_utf8_assume_valid:
      return "utf32_length_from_utf8_assume_valid";
    case op::utf8_length_from_utf16_assume_valid:
      return "utf8_length_from_utf16_assume_valid";
    case op::utf8_length_from_utf32_assume_valid:
      return "utf8_length_from_utf32_assume_valid";
    case op::count_utf16:
      return "count_utf16";
    case op::utf16_to_latin1:
      return "utf16_to_latin1";
    case op::utf32_to_latin1:
      return "utf32_to_latin1";
    case op::validate_utf32:
      return "validate_utf32";
    case op::latin1_to_utf16:
      return "latin1_to_utf16";
    case op::latin1_to_utf32:
      return "latin1_to_utf32";
    case op::utf16be_to_utf8:
      return "utf16be_to_utf8";
    case op::utf8_to_utf16be:
      return "utf8_to_utf16be";
    case op::validate_utf16be:
      return "validate_utf16be";
    case op::change_endianness_utf16:
      return "change_endianness_utf16";
    case op::to_well_formed_utf16_in_place:
      return "to_well_formed_utf16_in_place";
    case op::change_endianness_utf16_in_place:
      return "change_endianness_utf16_in_place";
  }
  return "?";
}

namespace impls {

// ---- utf8dfa: the public API (the harness picks the kernel: best, or forced scalar) -------------

std::size_t dfa_validate(const input& in, buffers&) {
  return utf8dfa::is_valid(in.utf8);
}

/// Validation in a dialect that accepts the UTF-8 corpora as they are (WTF-8, RFC 2279).
template <class D>
std::size_t dfa_validate_dialect(const input& in, buffers&) {
  return utf8dfa::is_valid(in.utf8, D{});
}

/// The input re-encoded in dialect D, made once per input (CESU-8 and MUTF-8 write supplementary
/// characters as 6 bytes, so these inputs are larger than the UTF-8 the rate is computed from).
template <class D>
const std::string& recoded(const input& in) {
  static std::map<const input*, std::string> cache;
  auto it = cache.find(&in);
  if (it == cache.end()) it = cache.emplace(&in, utf8dfa::recode_lossy(in.utf8, utf8dfa::dialect::utf8{}, D{})).first;
  return it->second;
}

/// Validation in CESU-8 or MUTF-8 of the input re-encoded in it.
template <class D>
std::size_t dfa_validate_recoded(const input& in, buffers&) {
  return utf8dfa::is_valid(recoded<D>(in), D{});
}

/// Every error of the input, as a sanitizer sees them: validate, skip the maximal subpart, go on.
std::size_t dfa_validate_all(const input& in, buffers&) {
  const std::string_view s = in.utf8;
  std::size_t pos = 0, errors = 0;
  while (pos < s.size()) {
    const utf8dfa::validation_result v = utf8dfa::validate(s.substr(pos));
    if (v) break;
    ++errors;
    if (v.error_length == 0) break;  // incomplete: the input ends inside a sequence
    pos += v.valid_up_to + v.error_length;
  }
  return errors;
}

std::size_t dfa_to32(const input& in, buffers& b) {
  return utf8dfa::utf8_to_utf32(in.utf8, b.out32.data()).written;
}
std::size_t dfa_to32_lossy(const input& in, buffers& b) {
  return utf8dfa::utf8_to_utf32(in.utf8, b.out32.data(), utf8dfa::replace{}).written;
}
std::size_t dfa_to16(const input& in, buffers& b) {
  return utf8dfa::utf8_to_utf16(in.utf8, b.out16.data()).written;
}
std::size_t dfa_from16(const input& in, buffers& b) {
  return utf8dfa::utf16_to_utf8(in.utf16, b.out8.data()).written;
}
std::size_t dfa_from32(const input& in, buffers& b) {
  return utf8dfa::utf32_to_utf8(in.utf32, b.out8.data()).written;
}
std::size_t dfa_count(const input& in, buffers&) {
  return utf8dfa::count_code_points(in.utf8);
}
std::size_t dfa_latin1_to_utf8(const input& in, buffers& b) {
  return utf8dfa::latin1_to_utf8(in.latin1, b.out8.data());
}
std::size_t dfa_utf8_to_latin1(const input& in, buffers& b) {
  return utf8dfa::utf8_to_latin1(in.latin1_utf8, b.out8.data()).written;
}
std::size_t dfa_validate_utf16(const input& in, buffers&) {
  return utf8dfa::validate_utf16(in.utf16).error == utf8dfa::error_code::none;
}
std::size_t dfa_utf16_to_utf32(const input& in, buffers& b) {
  return utf8dfa::utf16_to_utf32(in.utf16, b.out32.data()).written;
}
std::size_t dfa_utf32_to_utf16(const input& in, buffers& b) {
  return utf8dfa::utf32_to_utf16(in.utf32, b.out16.data()).written;
}
std::size_t dfa_to_well_formed_utf16(const input& in, buffers& b) {
  return utf8dfa::to_well_formed_utf16(in.utf16, b.out16.data());
}
std::size_t dfa_validate_with_errors(const input& in, buffers&) {
  const utf8dfa::validation_result v = utf8dfa::validate(in.utf8);
  return v ? 1 : 2 + v.valid_up_to;
}
std::size_t dfa_to16_assume_valid(const input& in, buffers& b) {
  return utf8dfa::utf8_to_utf16(in.utf8, b.out16.data(), utf8dfa::assume_valid{}).written;
}
std::size_t dfa_len16_assume_valid(const input& in, buffers&) {
  return utf8dfa::utf16_length_from_utf8(in.utf8, utf8dfa::assume_valid{});
}
std::size_t dfa_len32_assume_valid(const input& in, buffers&) {
  return utf8dfa::utf32_length_from_utf8(in.utf8, utf8dfa::assume_valid{});
}
std::size_t dfa_len8_16_assume_valid(const input& in, buffers&) {
  return utf8dfa::utf8_length_from_utf16(in.utf16, utf8dfa::assume_valid{});
}
// Issue 33's operations.
std::size_t dfa_count_utf16(const input& in, buffers&) {
  return utf8dfa::count_utf16(in.utf16);
}
std::size_t dfa_utf16_to_latin1(const input& in, buffers& b) {
  return utf8dfa::utf16_to_latin1(in.latin1_utf16, b.out8.data()).written;
}
std::size_t dfa_utf32_to_latin1(const input& in, buffers& b) {
  return utf8dfa::utf32_to_latin1(in.latin1_utf32, b.out8.data()).written;
}
std::size_t dfa_validate_utf32(const input& in, buffers&) {
  return utf8dfa::validate_utf32(in.utf32).error == utf8dfa::error_code::none;
}
std::size_t dfa_latin1_to_utf16(const input& in, buffers& b) {
  return utf8dfa::latin1_to_utf16(in.latin1, b.out16.data());
}
std::size_t dfa_latin1_to_utf32(const input& in, buffers& b) {
  return utf8dfa::latin1_to_utf32(in.latin1, b.out32.data());
}
std::size_t dfa_utf16be_to_utf8(const input& in, buffers& b) {
  return utf8dfa::utf16be_to_utf8(in.utf16be, b.out8.data()).written;
}
std::size_t dfa_utf8_to_utf16be(const input& in, buffers& b) {
  return utf8dfa::utf8_to_utf16be(in.utf8, b.out16.data()).written;
}
std::size_t dfa_validate_utf16be(const input& in, buffers&) {
  return utf8dfa::validate_utf16be(in.utf16be).error == utf8dfa::error_code::none;
}
std::size_t dfa_change_endianness_utf16(const input& in, buffers& b) {
  return utf8dfa::change_endianness_utf16(in.utf16, b.out16.data());
}
std::size_t dfa_to_well_formed_utf16_in_place(const input& in, buffers&) {
  char16_t* p = in_place_utf16(in, in.repair16);
  return utf8dfa::to_well_formed_utf16(std::u16string_view(p, in.utf16.size()), p);
}
std::size_t dfa_change_endianness_utf16_in_place(const input& in, buffers&) {
  char16_t* p = in_place_utf16(in, in.swap16);
  return utf8dfa::change_endianness_utf16(std::u16string_view(p, in.utf16.size()), p);
}
std::size_t dfa_len8_32_assume_valid(const input& in, buffers&) {
  return utf8dfa::utf8_length_from_utf32(in.utf32, utf8dfa::assume_valid{});
}

// ---- the bandwidth ceiling ----------------------------------------------------------------------

std::size_t copy_utf8(const input& in, buffers& b) {
  std::memcpy(b.out8.data(), in.utf8.data(), in.utf8.size());
  return in.utf8.size();
}
std::size_t copy_utf16(const input& in, buffers& b) {
  std::memcpy(b.out8.data(), in.utf16.data(), in.utf16.size() * 2);
  return in.utf16.size() * 2;
}
std::size_t copy_utf32(const input& in, buffers& b) {
  std::memcpy(b.out8.data(), in.utf32.data(), in.utf32.size() * 4);
  return in.utf32.size() * 4;
}

// The read is compiled for the widest vectors the CPU has (like glibc's memcpy), so that it stays a
// ceiling for the library's run-time dispatched kernels.
#if defined(__x86_64__) && defined(__ELF__) && (defined(__clang__) || defined(__GNUC__))
#define UTF8DFA_BENCH_WIDEST __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define UTF8DFA_BENCH_WIDEST
#endif

/// A plain read of the buffer: a wrapping sum of its 8-byte words (and of the tail bytes).
UTF8DFA_BENCH_WIDEST std::size_t read_bytes(const char* p, std::size_t n) {
  std::uint64_t sum = 0;
  std::size_t i = 0;
  for (; n - i >= 8; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    sum += w;
  }
  for (; i < n; ++i) sum += static_cast<unsigned char>(p[i]);
  return static_cast<std::size_t>(sum);
}

/// read_bytes on the input of operation O.
template <op O>
std::size_t read_sum(const input& in, buffers&) {
  const std::string_view s = input_of(O, in);
  return read_bytes(s.data(), s.size());
}

#if UTF8DFA_BENCH_UTFCPP
// ---- utfcpp: the checked (validating) functions; they throw on ill-formed input -----------------

std::size_t utfcpp_validate(const input& in, buffers&) {
  return utf8::is_valid(in.utf8.begin(), in.utf8.end());
}
std::size_t utfcpp_to32(const input& in, buffers& b) {
  return static_cast<std::size_t>(utf8::utf8to32(in.utf8.begin(), in.utf8.end(), b.out32.data()) - b.out32.data());
}
std::size_t utfcpp_to16(const input& in, buffers& b) {
  return static_cast<std::size_t>(utf8::utf8to16(in.utf8.begin(), in.utf8.end(), b.out16.data()) - b.out16.data());
}
std::size_t utfcpp_from16(const input& in, buffers& b) {
  return static_cast<std::size_t>(utf8::utf16to8(in.utf16.begin(), in.utf16.end(), b.out8.data()) - b.out8.data());
}
std::size_t utfcpp_from32(const input& in, buffers& b) {
  return static_cast<std::size_t>(utf8::utf32to8(in.utf32.begin(), in.utf32.end(), b.out8.data()) - b.out8.data());
}
std::size_t utfcpp_count(const input& in, buffers&) {
  return static_cast<std::size_t>(utf8::distance(in.utf8.begin(), in.utf8.end()));
}
#endif

#if UTF8DFA_BENCH_SIMDJSON
std::size_t simdjson_validate(const input& in, buffers&) {
  return simdjson::validate_utf8(in.utf8.data(), in.utf8.size());
}
// simdjson picks its best kernel itself (and reads no environment variable to change it): with
// UTF8DFA_KERNEL=avx2, `simdjson_haswell` adds its AVX2 kernel, called through its implementation
// object, so that both libraries are also compared on the same instruction set.
const simdjson::implementation* simdjson_haswell_impl() {
  static const simdjson::implementation* impl = [] {
    const simdjson::implementation* h = simdjson::get_available_implementations()["haswell"];
    return h != nullptr && h->supported_by_runtime_system() ? h : nullptr;
  }();
  return impl;
}
std::size_t simdjson_haswell_validate(const input& in, buffers&) {
  return simdjson_haswell_impl()->validate_utf8(in.utf8.data(), in.utf8.size());
}
#endif

#if UTF8DFA_BENCH_ICU
// ---- ICU: u_strFromUTF8 / u_strToUTF8 for UTF-16; the U8_NEXT / U8_APPEND macros (ICU's fastest
// UTF-8 code, and what ICU itself uses) where ICU has no bulk function: validation and UTF-32. ------

const std::uint8_t* u8(const input& in) {
  return reinterpret_cast<const std::uint8_t*>(in.utf8.data());
}
std::int32_t len32(std::size_t n) {
  return static_cast<std::int32_t>(n);
}

std::size_t icu_validate(const input& in, buffers&) {
  const std::uint8_t* s = u8(in);
  const std::int32_t n = len32(in.utf8.size());
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c < 0) return 0;
  }
  return 1;
}
std::size_t icu_validate_all(const input& in, buffers&) {
  const std::uint8_t* s = u8(in);
  const std::int32_t n = len32(in.utf8.size());
  std::size_t errors = 0;
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    errors += c < 0;
  }
  return errors;
}
template <bool Lossy>
std::size_t icu_to32(const input& in, buffers& b) {
  const std::uint8_t* s = u8(in);
  const std::int32_t n = len32(in.utf8.size());
  char32_t* o = b.out32.data();
  std::size_t w = 0;
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c < 0) {
      if (!Lossy) return static_cast<std::size_t>(-1);
      c = 0xFFFD;
    }
    o[w++] = static_cast<char32_t>(c);
  }
  return w;
}
std::size_t icu_to16(const input& in, buffers& b) {
  UErrorCode err = U_ZERO_ERROR;
  std::int32_t len = 0;
  u_strFromUTF8(b.out16.data(), len32(b.out16.size()), &len, in.utf8.data(), len32(in.utf8.size()), &err);
  return U_FAILURE(err) ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(len);
}
std::size_t icu_from16(const input& in, buffers& b) {
  UErrorCode err = U_ZERO_ERROR;
  std::int32_t len = 0;
  u_strToUTF8(reinterpret_cast<char*>(b.out8.data()), len32(b.out8.size()), &len, in.utf16.data(),
              len32(in.utf16.size()), &err);
  return U_FAILURE(err) ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(len);
}
// Latin-1: ucnv_convertEx between the "ISO-8859-1" and "UTF-8" converters (opened once, reset by
// each call); ICU converts UTF-8 to Latin-1 directly, the other way through its UTF-16 pivot.
UConverter* icu_converter(const char* name) {
  UErrorCode err = U_ZERO_ERROR;
  UConverter* c = ucnv_open(name, &err);
  if (U_FAILURE(err)) return nullptr;
  ucnv_setFromUCallBack(c, UCNV_FROM_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &err);
  ucnv_setToUCallBack(c, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &err);
  return U_FAILURE(err) ? nullptr : c;
}
std::size_t icu_convert(UConverter* to, UConverter* from, const char* in, std::size_t n, unsigned char* out,
                        std::size_t cap) {
  if (to == nullptr || from == nullptr) return static_cast<std::size_t>(-1);
  UChar pivot[1024];
  UChar* ps = pivot;
  UChar* pt = pivot;
  char* t = reinterpret_cast<char*>(out);
  const char* s = in;
  UErrorCode err = U_ZERO_ERROR;
  ucnv_convertEx(to, from, &t, t + cap, &s, in + n, pivot, &ps, &pt, pivot + 1024, true, true, &err);
  return U_FAILURE(err) ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(t - reinterpret_cast<char*>(out));
}
std::size_t icu_latin1_to_utf8(const input& in, buffers& b) {
  static UConverter* const utf8 = icu_converter("UTF-8");
  static UConverter* const latin1 = icu_converter("ISO-8859-1");
  return icu_convert(utf8, latin1, in.latin1.data(), in.latin1.size(), b.out8.data(), b.out8.size());
}
std::size_t icu_utf8_to_latin1(const input& in, buffers& b) {
  static UConverter* const utf8 = icu_converter("UTF-8");
  static UConverter* const latin1 = icu_converter("ISO-8859-1");
  return icu_convert(latin1, utf8, in.latin1_utf8.data(), in.latin1_utf8.size(), b.out8.data(), b.out8.size());
}
/// ICU has no bulk UTF-16 check: U16_NEXT, as its own code walks UTF-16.
std::size_t icu_validate_utf16(const input& in, buffers&) {
  const char16_t* s = in.utf16.data();
  const std::int32_t n = len32(in.utf16.size());
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(s, i, n, c);
    if (U_IS_SURROGATE(c)) return 0;
  }
  return 1;
}
std::size_t icu_utf16_to_utf32(const input& in, buffers& b) {
  UErrorCode err = U_ZERO_ERROR;
  std::int32_t len = 0;
  u_strToUTF32(reinterpret_cast<UChar32*>(b.out32.data()), len32(b.out32.size()), &len, in.utf16.data(),
               len32(in.utf16.size()), &err);
  return U_FAILURE(err) ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(len);
}
std::size_t icu_utf32_to_utf16(const input& in, buffers& b) {
  UErrorCode err = U_ZERO_ERROR;
  std::int32_t len = 0;
  u_strFromUTF32(b.out16.data(), len32(b.out16.size()), &len, reinterpret_cast<const UChar32*>(in.utf32.data()),
                 len32(in.utf32.size()), &err);
  return U_FAILURE(err) ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(len);
}
/// ICU has no UTF-16 repair function: U16_NEXT and U16_APPEND_UNSAFE, U+FFFD for a lone surrogate.
std::size_t icu_to_well_formed_utf16(const input& in, buffers& b) {
  const char16_t* s = in.utf16.data();
  const std::int32_t n = len32(in.utf16.size());
  char16_t* o = b.out16.data();
  std::int32_t j = 0;
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(s, i, n, c);
    if (U_IS_SURROGATE(c)) c = 0xFFFD;
    U16_APPEND_UNSAFE(o, j, c);
  }
  return static_cast<std::size_t>(j);
}
std::size_t icu_from32(const input& in, buffers& b) {
  std::uint8_t* o = b.out8.data();
  const std::int32_t cap = len32(b.out8.size());
  std::int32_t j = 0;
  bool bad = false;
  for (const char32_t c : in.utf32) {
    U8_APPEND(o, j, cap, c, bad);
    if (bad) return static_cast<std::size_t>(-1);
  }
  return static_cast<std::size_t>(j);
}
#endif

// ---- Lazy transcoding views: one code unit at a time into the output buffer ----------------------
// The views against the peers' per-character loops (utfcpp's checked functions, ICU's U8_NEXT /
// U16_NEXT with the _APPEND_UNSAFE macros); view_utf8_to_utf32 also times code_points, the
// code_point_iterator view that as_utf32 of UTF-8 must keep up with.

template <class View, class Out>
std::size_t drain(const View& v, Out* out) {
  Out* o = out;
  for (const Out c : v) *o++ = c;
  return static_cast<std::size_t>(o - out);
}
std::size_t view_8to16(const input& in, buffers& b) {
  return drain(utf8dfa::as_utf16(in.utf8), b.out16.data());
}
std::size_t view_16to8(const input& in, buffers& b) {
  return drain(utf8dfa::as_utf8(in.utf16), reinterpret_cast<char*>(b.out8.data()));
}
std::size_t view_16to32(const input& in, buffers& b) {
  return drain(utf8dfa::as_utf32(in.utf16), b.out32.data());
}
std::size_t view_8to32(const input& in, buffers& b) {
  return drain(utf8dfa::as_utf32(in.utf8), b.out32.data());
}
std::size_t view_8to32_code_points(const input& in, buffers& b) {
  return drain(utf8dfa::code_points(in.utf8), b.out32.data());
}
#if UTF8DFA_BENCH_ICU
std::size_t icu_loop_8to16(const input& in, buffers& b) {
  const std::uint8_t* s = reinterpret_cast<const std::uint8_t*>(in.utf8.data());
  const std::int32_t n = static_cast<std::int32_t>(in.utf8.size());
  char16_t* o = b.out16.data();
  std::int32_t j = 0;
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c < 0) c = 0xFFFD;
    U16_APPEND_UNSAFE(o, j, c);
  }
  return static_cast<std::size_t>(j);
}
std::size_t icu_loop_8to32(const input& in, buffers& b) {
  const std::uint8_t* s = reinterpret_cast<const std::uint8_t*>(in.utf8.data());
  const std::int32_t n = static_cast<std::int32_t>(in.utf8.size());
  char32_t* o = b.out32.data();
  std::size_t j = 0;
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(s, i, n, c);
    o[j++] = static_cast<char32_t>(c < 0 ? 0xFFFD : c);
  }
  return j;
}
std::size_t icu_loop_16to8(const input& in, buffers& b) {
  const char16_t* s = in.utf16.data();
  const std::int32_t n = static_cast<std::int32_t>(in.utf16.size());
  std::uint8_t* o = b.out8.data();
  std::int32_t j = 0;
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(s, i, n, c);
    if (U_IS_SURROGATE(c)) c = 0xFFFD;
    U8_APPEND_UNSAFE(o, j, c);
  }
  return static_cast<std::size_t>(j);
}
std::size_t icu_loop_16to32(const input& in, buffers& b) {
  const char16_t* s = in.utf16.data();
  const std::int32_t n = static_cast<std::int32_t>(in.utf16.size());
  char32_t* o = b.out32.data();
  std::size_t j = 0;
  for (std::int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(s, i, n, c);
    o[j++] = static_cast<char32_t>(U_IS_SURROGATE(c) ? 0xFFFD : c);
  }
  return j;
}
#endif

#if UTF8DFA_BENCH_ICONV
// ---- glibc iconv: one converter per direction, opened once and reset before each call ------------

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define UTF8DFA_BENCH_ENDIAN "BE"
#else
#define UTF8DFA_BENCH_ENDIAN "LE"
#endif

iconv_t converter(const char* to, const char* from) {
  const iconv_t cd = iconv_open(to, from);
  return cd;
}

std::size_t convert(iconv_t cd, const void* in, std::size_t in_bytes, void* out, std::size_t out_bytes) {
  if (cd == reinterpret_cast<iconv_t>(-1)) return static_cast<std::size_t>(-1);
  iconv(cd, nullptr, nullptr, nullptr, nullptr);
  char* ip = const_cast<char*>(static_cast<const char*>(in));
  char* op = static_cast<char*>(out);
  std::size_t il = in_bytes, ol = out_bytes;
  if (iconv(cd, &ip, &il, &op, &ol) == static_cast<std::size_t>(-1) || il != 0) return static_cast<std::size_t>(-1);
  return out_bytes - ol;
}

std::size_t iconv_to32(const input& in, buffers& b) {
  static const iconv_t cd = converter("UTF-32" UTF8DFA_BENCH_ENDIAN, "UTF-8");
  return convert(cd, in.utf8.data(), in.utf8.size(), b.out32.data(), b.out32.size() * 4) / 4;
}
std::size_t iconv_to16(const input& in, buffers& b) {
  static const iconv_t cd = converter("UTF-16" UTF8DFA_BENCH_ENDIAN, "UTF-8");
  return convert(cd, in.utf8.data(), in.utf8.size(), b.out16.data(), b.out16.size() * 2) / 2;
}
std::size_t iconv_from16(const input& in, buffers& b) {
  static const iconv_t cd = converter("UTF-8", "UTF-16" UTF8DFA_BENCH_ENDIAN);
  return convert(cd, in.utf16.data(), in.utf16.size() * 2, b.out8.data(), b.out8.size());
}
std::size_t iconv_from32(const input& in, buffers& b) {
  static const iconv_t cd = converter("UTF-8", "UTF-32" UTF8DFA_BENCH_ENDIAN);
  return convert(cd, in.utf32.data(), in.utf32.size() * 4, b.out8.data(), b.out8.size());
}
std::size_t iconv_latin1_to_utf8(const input& in, buffers& b) {
  static const iconv_t cd = converter("UTF-8", "ISO-8859-1");
  return convert(cd, in.latin1.data(), in.latin1.size(), b.out8.data(), b.out8.size());
}
std::size_t iconv_utf8_to_latin1(const input& in, buffers& b) {
  static const iconv_t cd = converter("ISO-8859-1", "UTF-8");
  return convert(cd, in.latin1_utf8.data(), in.latin1_utf8.size(), b.out8.data(), b.out8.size());
}
std::size_t iconv_16to32(const input& in, buffers& b) {
  static const iconv_t cd = converter("UTF-32" UTF8DFA_BENCH_ENDIAN, "UTF-16" UTF8DFA_BENCH_ENDIAN);
  return convert(cd, in.utf16.data(), in.utf16.size() * 2, b.out32.data(), b.out32.size() * 4) / 4;
}
std::size_t iconv_32to16(const input& in, buffers& b) {
  static const iconv_t cd = converter("UTF-16" UTF8DFA_BENCH_ENDIAN, "UTF-32" UTF8DFA_BENCH_ENDIAN);
  return convert(cd, in.utf32.data(), in.utf32.size() * 4, b.out16.data(), b.out16.size() * 2) / 2;
}
#endif

#if UTF8DFA_BENCH_SIMDUTF
// ---- simdutf: every call through one implementation object (select_simdutf picks it, so that each
// utf8dfa kernel is held against simdutf's kernel on the same instruction set). Validating against
// validating, assume-valid against assume-valid; the allocating forms and the validating lengths as
// a simdutf user writes them: validate, size with the (assume-valid) length function, convert. ----

const simdutf::implementation*& sd() {
  static const simdutf::implementation* impl = simdutf::get_active_implementation();
  return impl;
}
const char* chars(std::string_view s) {
  return s.data();
}
template <class Str>
void release(Str& s) {
  Str().swap(s);
}
constexpr std::size_t failed = ~std::size_t{0};

std::size_t sd_validate(const input& in, buffers&) {
  return sd()->validate_utf8(chars(in.utf8), in.utf8.size());
}
std::size_t sd_validate_with_errors(const input& in, buffers&) {
  const simdutf::result r = sd()->validate_utf8_with_errors(chars(in.utf8), in.utf8.size());
  return r.error == simdutf::error_code::SUCCESS ? 1 : 2 + r.count;
}
std::size_t sd_to32(const input& in, buffers& b) {
  const std::size_t n = sd()->convert_utf8_to_utf32(chars(in.utf8), in.utf8.size(), b.out32.data());
  return n == 0 && !in.utf8.empty() ? failed : n;
}
std::size_t sd_to16(const input& in, buffers& b) {
  const std::size_t n = sd()->convert_utf8_to_utf16le(chars(in.utf8), in.utf8.size(), b.out16.data());
  return n == 0 && !in.utf8.empty() ? failed : n;
}
std::size_t sd_to16_valid(const input& in, buffers& b) {
  return sd()->convert_valid_utf8_to_utf16le(chars(in.utf8), in.utf8.size(), b.out16.data());
}
std::size_t sd_from16(const input& in, buffers& b) {
  const std::size_t n =
      sd()->convert_utf16le_to_utf8(in.utf16.data(), in.utf16.size(), reinterpret_cast<char*>(b.out8.data()));
  return n == 0 && !in.utf16.empty() ? failed : n;
}
std::size_t sd_from32(const input& in, buffers& b) {
  const std::size_t n =
      sd()->convert_utf32_to_utf8(in.utf32.data(), in.utf32.size(), reinterpret_cast<char*>(b.out8.data()));
  return n == 0 && !in.utf32.empty() ? failed : n;
}
std::size_t sd_count(const input& in, buffers&) {
  return sd()->count_utf8(chars(in.utf8), in.utf8.size());
}
std::size_t sd_latin1_to_utf8(const input& in, buffers& b) {
  return sd()->convert_latin1_to_utf8(chars(in.latin1), in.latin1.size(), reinterpret_cast<char*>(b.out8.data()));
}
std::size_t sd_utf8_to_latin1(const input& in, buffers& b) {
  const std::size_t n = sd()->convert_utf8_to_latin1(chars(in.latin1_utf8), in.latin1_utf8.size(),
                                                     reinterpret_cast<char*>(b.out8.data()));
  return n == 0 && !in.latin1_utf8.empty() ? failed : n;
}
std::size_t sd_validate_utf16(const input& in, buffers&) {
  return sd()->validate_utf16le(in.utf16.data(), in.utf16.size());
}
std::size_t sd_utf16_to_utf32(const input& in, buffers& b) {
  const std::size_t n = sd()->convert_utf16le_to_utf32(in.utf16.data(), in.utf16.size(), b.out32.data());
  return n == 0 && !in.utf16.empty() ? failed : n;
}
std::size_t sd_utf32_to_utf16(const input& in, buffers& b) {
  const std::size_t n = sd()->convert_utf32_to_utf16le(in.utf32.data(), in.utf32.size(), b.out16.data());
  return n == 0 && !in.utf32.empty() ? failed : n;
}
std::size_t sd_to_well_formed_utf16(const input& in, buffers& b) {
  sd()->to_well_formed_utf16le(in.utf16.data(), in.utf16.size(), b.out16.data());
  return in.utf16.size();
}
// The lengths: validating (validate, then the length function) and assume-valid.
std::size_t sd_len16(const input& in, buffers&) {
  return sd()->validate_utf8(chars(in.utf8), in.utf8.size())
             ? sd()->utf16_length_from_utf8(chars(in.utf8), in.utf8.size())
             : failed;
}
std::size_t sd_len32(const input& in, buffers&) {
  return sd()->validate_utf8(chars(in.utf8), in.utf8.size())
             ? sd()->utf32_length_from_utf8(chars(in.utf8), in.utf8.size())
             : failed;
}
/// simdutf's one validating length (the UTF-8 length of UTF-16 with each lone surrogate as U+FFFD).
std::size_t sd_len8_16(const input& in, buffers&) {
  return sd()->utf8_length_from_utf16le_with_replacement(in.utf16.data(), in.utf16.size()).count;
}
std::size_t sd_len8_32(const input& in, buffers&) {
  return sd()->validate_utf32(in.utf32.data(), in.utf32.size())
             ? sd()->utf8_length_from_utf32(in.utf32.data(), in.utf32.size())
             : failed;
}
std::size_t sd_len16_valid(const input& in, buffers&) {
  return sd()->utf16_length_from_utf8(chars(in.utf8), in.utf8.size());
}
std::size_t sd_len32_valid(const input& in, buffers&) {
  return sd()->utf32_length_from_utf8(chars(in.utf8), in.utf8.size());
}
std::size_t sd_len8_16_valid(const input& in, buffers&) {
  return sd()->utf8_length_from_utf16le(in.utf16.data(), in.utf16.size());
}
std::size_t sd_len8_32_valid(const input& in, buffers&) {
  return sd()->utf8_length_from_utf32(in.utf32.data(), in.utf32.size());
}
// Issue 33's operations (the conversions validating, as utf8dfa's strict ones: 0 on an error).
std::size_t sd_count_utf16(const input& in, buffers&) {
  return sd()->count_utf16le(in.utf16.data(), in.utf16.size());
}
std::size_t sd_utf16_to_latin1(const input& in, buffers& b) {
  const std::size_t n = sd()->convert_utf16le_to_latin1(in.latin1_utf16.data(), in.latin1_utf16.size(),
                                                        reinterpret_cast<char*>(b.out8.data()));
  return n == 0 && !in.latin1_utf16.empty() ? failed : n;
}
std::size_t sd_utf32_to_latin1(const input& in, buffers& b) {
  const std::size_t n = sd()->convert_utf32_to_latin1(in.latin1_utf32.data(), in.latin1_utf32.size(),
                                                      reinterpret_cast<char*>(b.out8.data()));
  return n == 0 && !in.latin1_utf32.empty() ? failed : n;
}
std::size_t sd_validate_utf32(const input& in, buffers&) {
  return sd()->validate_utf32(in.utf32.data(), in.utf32.size());
}
std::size_t sd_latin1_to_utf16(const input& in, buffers& b) {
  return sd()->convert_latin1_to_utf16le(chars(in.latin1), in.latin1.size(), b.out16.data());
}
std::size_t sd_latin1_to_utf32(const input& in, buffers& b) {
  return sd()->convert_latin1_to_utf32(chars(in.latin1), in.latin1.size(), b.out32.data());
}
std::size_t sd_utf16be_to_utf8(const input& in, buffers& b) {
  const std::size_t n =
      sd()->convert_utf16be_to_utf8(in.utf16be.data(), in.utf16be.size(), reinterpret_cast<char*>(b.out8.data()));
  return n == 0 && !in.utf16be.empty() ? failed : n;
}
std::size_t sd_utf8_to_utf16be(const input& in, buffers& b) {
  const std::size_t n = sd()->convert_utf8_to_utf16be(chars(in.utf8), in.utf8.size(), b.out16.data());
  return n == 0 && !in.utf8.empty() ? failed : n;
}
std::size_t sd_validate_utf16be(const input& in, buffers&) {
  return sd()->validate_utf16be(in.utf16be.data(), in.utf16be.size());
}
std::size_t sd_change_endianness_utf16(const input& in, buffers& b) {
  sd()->change_endianness_utf16(in.utf16.data(), in.utf16.size(), b.out16.data());
  return in.utf16.size();
}
std::size_t sd_to_well_formed_utf16_in_place(const input& in, buffers&) {
  char16_t* p = in_place_utf16(in, in.repair16);
  sd()->to_well_formed_utf16le(p, in.utf16.size(), p);
  return in.utf16.size();
}
std::size_t sd_change_endianness_utf16_in_place(const input& in, buffers&) {
  char16_t* p = in_place_utf16(in, in.swap16);
  sd()->change_endianness_utf16(p, in.utf16.size(), p);
  return in.utf16.size();
}
// The allocating conversions: the result in a string of the exact size, as utf8dfa's to_utf16 gives.
std::size_t sd_alloc16(const input& in, buffers& b) {
  release(b.str16);
  const char* p = chars(in.utf8);
  if (!sd()->validate_utf8(p, in.utf8.size())) return failed;
  std::u16string s(sd()->utf16_length_from_utf8(p, in.utf8.size()), u'\0');
  s.resize(sd()->convert_valid_utf8_to_utf16le(p, in.utf8.size(), s.data()));
  b.str16 = std::move(s);
  return b.str16.size();
}
std::size_t sd_alloc32(const input& in, buffers& b) {
  release(b.str32);
  const char* p = chars(in.utf8);
  if (!sd()->validate_utf8(p, in.utf8.size())) return failed;
  std::u32string s(sd()->utf32_length_from_utf8(p, in.utf8.size()), U'\0');
  s.resize(sd()->convert_valid_utf8_to_utf32(p, in.utf8.size(), s.data()));
  b.str32 = std::move(s);
  return b.str32.size();
}
std::size_t sd_alloc8_16(const input& in, buffers& b) {
  release(b.str8);
  const char16_t* p = in.utf16.data();
  if (!sd()->validate_utf16le(p, in.utf16.size())) return failed;
  std::string s(sd()->utf8_length_from_utf16le(p, in.utf16.size()), '\0');
  s.resize(sd()->convert_valid_utf16le_to_utf8(p, in.utf16.size(), s.data()));
  b.str8 = std::move(s);
  return b.str8.size();
}
std::size_t sd_alloc8_32(const input& in, buffers& b) {
  release(b.str8);
  const char32_t* p = in.utf32.data();
  if (!sd()->validate_utf32(p, in.utf32.size())) return failed;
  std::string s(sd()->utf8_length_from_utf32(p, in.utf32.size()), '\0');
  s.resize(sd()->convert_valid_utf32_to_utf8(p, in.utf32.size(), s.data()));
  b.str8 = std::move(s);
  return b.str8.size();
}
#endif

}  // namespace impls

const char* simdutf_pair(std::string_view kernel) {
  if (kernel == "avx512") return "icelake";
  if (kernel == "avx2") return "haswell";
  if (kernel == "sse4") return "westmere";
  if (kernel == "neon") return "arm64";
  if (kernel == "scalar") return "fallback";
  return nullptr;
}

bool have_simdutf() {
#if UTF8DFA_BENCH_SIMDUTF
  return true;
#else
  return false;
#endif
}

bool select_simdutf(std::string_view name) {
#if UTF8DFA_BENCH_SIMDUTF
  const simdutf::implementation* impl = simdutf::get_available_implementations()[std::string(name)];
  if (impl == nullptr || !impl->supported_by_runtime_system()) return false;
  impls::sd() = impl;
  return true;
#else
  (void)name;
  return false;
#endif
}

const std::vector<impl>& implementations() {
  using namespace impls;
  static const std::vector<impl> all = [] {
    std::vector<impl> v;
    for (const char* lib : {"utf8dfa", "utf8dfa_scalar"}) {
      v.push_back({op::validate, lib, false, &dfa_validate});
      v.push_back({op::validate, lib, true, &dfa_validate_all});
      v.push_back({op::utf8_to_utf32, lib, false, &dfa_to32});
      v.push_back({op::utf8_to_utf32, lib, true, &dfa_to32_lossy});
      v.push_back({op::utf8_to_utf16, lib, false, &dfa_to16});
      v.push_back({op::utf16_to_utf8, lib, false, &dfa_from16});
      v.push_back({op::utf32_to_utf8, lib, false, &dfa_from32});
      v.push_back({op::count, lib, false, &dfa_count});
      v.push_back({op::latin1_to_utf8, lib, false, &dfa_latin1_to_utf8});
      v.push_back({op::utf8_to_latin1, lib, false, &dfa_utf8_to_latin1});
      v.push_back({op::validate_utf16, lib, false, &dfa_validate_utf16});
      v.push_back({op::utf16_to_utf32, lib, false, &dfa_utf16_to_utf32});
      v.push_back({op::utf32_to_utf16, lib, false, &dfa_utf32_to_utf16});
      v.push_back({op::to_well_formed_utf16, lib, false, &dfa_to_well_formed_utf16});
      v.push_back({op::validate_with_errors, lib, false, &dfa_validate_with_errors});
      v.push_back({op::utf8_to_utf16_assume_valid, lib, false, &dfa_to16_assume_valid});
      v.push_back({op::utf16_length_from_utf8_assume_valid, lib, false, &dfa_len16_assume_valid});
      v.push_back({op::utf32_length_from_utf8_assume_valid, lib, false, &dfa_len32_assume_valid});
      v.push_back({op::utf8_length_from_utf16_assume_valid, lib, false, &dfa_len8_16_assume_valid});
      v.push_back({op::utf8_length_from_utf32_assume_valid, lib, false, &dfa_len8_32_assume_valid});
      v.push_back({op::count_utf16, lib, false, &dfa_count_utf16});
      v.push_back({op::utf16_to_latin1, lib, false, &dfa_utf16_to_latin1});
      v.push_back({op::utf32_to_latin1, lib, false, &dfa_utf32_to_latin1});
      v.push_back({op::validate_utf32, lib, false, &dfa_validate_utf32});
      v.push_back({op::latin1_to_utf16, lib, false, &dfa_latin1_to_utf16});
      v.push_back({op::latin1_to_utf32, lib, false, &dfa_latin1_to_utf32});
      v.push_back({op::utf16be_to_utf8, lib, false, &dfa_utf16be_to_utf8});
      v.push_back({op::utf8_to_utf16be, lib, false, &dfa_utf8_to_utf16be});
      v.push_back({op::validate_utf16be, lib, false, &dfa_validate_utf16be});
      v.push_back({op::change_endianness_utf16, lib, false, &dfa_change_endianness_utf16});
      v.push_back({op::to_well_formed_utf16_in_place, lib, false, &dfa_to_well_formed_utf16_in_place});
      v.push_back({op::change_endianness_utf16_in_place, lib, false, &dfa_change_endianness_utf16_in_place});
    }
    // The dialects: the same DFA engine on their own tables, scalar only (no kernel dispatch).
    v.push_back({op::validate, "utf8dfa_wtf8", false, &dfa_validate_dialect<utf8dfa::dialect::wtf8>});
    v.push_back({op::validate, "utf8dfa_legacy", false, &dfa_validate_dialect<utf8dfa::dialect::legacy>});
    v.push_back({op::validate, "utf8dfa_cesu8", false, &dfa_validate_recoded<utf8dfa::dialect::cesu8>});
    v.push_back({op::validate, "utf8dfa_mutf8", false, &dfa_validate_recoded<utf8dfa::dialect::mutf8>});
#if UTF8DFA_BENCH_UTFCPP
    v.push_back({op::validate, "utfcpp", false, &utfcpp_validate});
    v.push_back({op::utf8_to_utf32, "utfcpp", false, &utfcpp_to32});
    v.push_back({op::utf8_to_utf16, "utfcpp", false, &utfcpp_to16});
    v.push_back({op::utf16_to_utf8, "utfcpp", false, &utfcpp_from16});
    v.push_back({op::utf32_to_utf8, "utfcpp", false, &utfcpp_from32});
    v.push_back({op::count, "utfcpp", false, &utfcpp_count});
#endif
#if UTF8DFA_BENCH_ICU
    v.push_back({op::validate, "icu", false, &icu_validate});
    v.push_back({op::validate, "icu", true, &icu_validate_all});
    v.push_back({op::utf8_to_utf32, "icu", false, &icu_to32<false>});
    v.push_back({op::utf8_to_utf32, "icu", true, &icu_to32<true>});
    v.push_back({op::utf8_to_utf16, "icu", false, &icu_to16});
    v.push_back({op::utf16_to_utf8, "icu", false, &icu_from16});
    v.push_back({op::utf32_to_utf8, "icu", false, &icu_from32});
    v.push_back({op::latin1_to_utf8, "icu", false, &icu_latin1_to_utf8});
    v.push_back({op::utf8_to_latin1, "icu", false, &icu_utf8_to_latin1});
    v.push_back({op::validate_utf16, "icu", false, &icu_validate_utf16});
    v.push_back({op::utf16_to_utf32, "icu", false, &icu_utf16_to_utf32});
    v.push_back({op::utf32_to_utf16, "icu", false, &icu_utf32_to_utf16});
    v.push_back({op::to_well_formed_utf16, "icu", false, &icu_to_well_formed_utf16});
#endif
#if UTF8DFA_BENCH_SIMDJSON
    v.push_back({op::validate, "simdjson", false, &simdjson_validate});
    const char* forced = std::getenv("UTF8DFA_KERNEL");
    if (forced != nullptr && std::string_view(forced) == "avx2" && simdjson_haswell_impl() != nullptr)
      v.push_back({op::validate, "simdjson_haswell", false, &simdjson_haswell_validate});
#endif
#if UTF8DFA_BENCH_SIMDUTF
    // Every operation simdutf has, on well-formed input (its conversions stop at an error).
    v.push_back({op::validate, "simdutf", false, &sd_validate});
    v.push_back({op::validate_with_errors, "simdutf", false, &sd_validate_with_errors});
    v.push_back({op::utf8_to_utf32, "simdutf", false, &sd_to32});
    v.push_back({op::utf8_to_utf16, "simdutf", false, &sd_to16});
    v.push_back({op::utf8_to_utf16_assume_valid, "simdutf", false, &sd_to16_valid});
    v.push_back({op::utf16_to_utf8, "simdutf", false, &sd_from16});
    v.push_back({op::utf32_to_utf8, "simdutf", false, &sd_from32});
    v.push_back({op::count, "simdutf", false, &sd_count});
    v.push_back({op::latin1_to_utf8, "simdutf", false, &sd_latin1_to_utf8});
    v.push_back({op::utf8_to_latin1, "simdutf", false, &sd_utf8_to_latin1});
    v.push_back({op::validate_utf16, "simdutf", false, &sd_validate_utf16});
    v.push_back({op::utf16_to_utf32, "simdutf", false, &sd_utf16_to_utf32});
    v.push_back({op::utf32_to_utf16, "simdutf", false, &sd_utf32_to_utf16});
    v.push_back({op::to_well_formed_utf16, "simdutf", false, &sd_to_well_formed_utf16});
    v.push_back({op::utf16_length_from_utf8, "simdutf", false, &sd_len16});
    v.push_back({op::utf32_length_from_utf8, "simdutf", false, &sd_len32});
    v.push_back({op::utf8_length_from_utf16, "simdutf", false, &sd_len8_16});
    v.push_back({op::utf8_length_from_utf32, "simdutf", false, &sd_len8_32});
    v.push_back({op::utf16_length_from_utf8_assume_valid, "simdutf", false, &sd_len16_valid});
    v.push_back({op::utf32_length_from_utf8_assume_valid, "simdutf", false, &sd_len32_valid});
    v.push_back({op::utf8_length_from_utf16_assume_valid, "simdutf", false, &sd_len8_16_valid});
    v.push_back({op::utf8_length_from_utf32_assume_valid, "simdutf", false, &sd_len8_32_valid});
    v.push_back({op::to_utf16, "simdutf", false, &sd_alloc16});
    v.push_back({op::to_utf32, "simdutf", false, &sd_alloc32});
    v.push_back({op::to_utf8_from_utf16, "simdutf", false, &sd_alloc8_16});
    v.push_back({op::to_utf8_from_utf32, "simdutf", false, &sd_alloc8_32});
    v.push_back({op::count_utf16, "simdutf", false, &sd_count_utf16});
    v.push_back({op::utf16_to_latin1, "simdutf", false, &sd_utf16_to_latin1});
    v.push_back({op::utf32_to_latin1, "simdutf", false, &sd_utf32_to_latin1});
    v.push_back({op::validate_utf32, "simdutf", false, &sd_validate_utf32});
    v.push_back({op::latin1_to_utf16, "simdutf", false, &sd_latin1_to_utf16});
    v.push_back({op::latin1_to_utf32, "simdutf", false, &sd_latin1_to_utf32});
    v.push_back({op::utf16be_to_utf8, "simdutf", false, &sd_utf16be_to_utf8});
    v.push_back({op::utf8_to_utf16be, "simdutf", false, &sd_utf8_to_utf16be});
    v.push_back({op::validate_utf16be, "simdutf", false, &sd_validate_utf16be});
    v.push_back({op::change_endianness_utf16, "simdutf", false, &sd_change_endianness_utf16});
    v.push_back({op::to_well_formed_utf16_in_place, "simdutf", false, &sd_to_well_formed_utf16_in_place});
    v.push_back({op::change_endianness_utf16_in_place, "simdutf", false, &sd_change_endianness_utf16_in_place});
#endif
#if UTF8DFA_BENCH_ICONV
    v.push_back({op::utf8_to_utf32, "iconv", false, &iconv_to32});
    v.push_back({op::utf8_to_utf16, "iconv", false, &iconv_to16});
    v.push_back({op::utf16_to_utf8, "iconv", false, &iconv_from16});
    v.push_back({op::utf32_to_utf8, "iconv", false, &iconv_from32});
    v.push_back({op::latin1_to_utf8, "iconv", false, &iconv_latin1_to_utf8});
    v.push_back({op::utf8_to_latin1, "iconv", false, &iconv_utf8_to_latin1});
    v.push_back({op::utf16_to_utf32, "iconv", false, &iconv_16to32});
    v.push_back({op::utf32_to_utf16, "iconv", false, &iconv_32to16});
#endif
    // Lazy transcoding views (well-formed corpora).
    v.push_back({op::view_utf8_to_utf16, "utf8dfa", false, &view_8to16});
    v.push_back({op::view_utf16_to_utf8, "utf8dfa", false, &view_16to8});
    v.push_back({op::view_utf16_to_utf32, "utf8dfa", false, &view_16to32});
    v.push_back({op::view_utf8_to_utf32, "utf8dfa", false, &view_8to32});
    v.push_back({op::view_utf8_to_utf32, "code_points", false, &view_8to32_code_points});
#if UTF8DFA_BENCH_UTFCPP
    v.push_back({op::view_utf8_to_utf16, "utfcpp", false, &utfcpp_to16});
    v.push_back({op::view_utf16_to_utf8, "utfcpp", false, &utfcpp_from16});
    v.push_back({op::view_utf8_to_utf32, "utfcpp", false, &utfcpp_to32});
#endif
#if UTF8DFA_BENCH_ICU
    v.push_back({op::view_utf8_to_utf16, "icu", false, &icu_loop_8to16});
    v.push_back({op::view_utf16_to_utf8, "icu", false, &icu_loop_16to8});
    v.push_back({op::view_utf16_to_utf32, "icu", false, &icu_loop_16to32});
    v.push_back({op::view_utf8_to_utf32, "icu", false, &icu_loop_8to32});
#endif
    for (const bool ill : {false, true}) {
      v.push_back({op::validate, "memcpy", ill, &copy_utf8});
      v.push_back({op::utf8_to_utf32, "memcpy", ill, &copy_utf8});
    }
    v.push_back({op::count, "memcpy", false, &copy_utf8});
    v.push_back({op::utf8_to_utf16, "memcpy", false, &copy_utf8});
    v.push_back({op::utf16_to_utf8, "memcpy", false, &copy_utf16});
    v.push_back({op::utf32_to_utf8, "memcpy", false, &copy_utf32});
    v.push_back({op::count, "read", false, &read_sum<op::count>});
    for (const op o : {op::latin1_to_utf8, op::utf8_to_latin1, op::validate_utf16, op::utf16_to_utf32,
                       op::utf32_to_utf16, op::to_well_formed_utf16})
      v.push_back({o, "read", false,
                   o == op::latin1_to_utf8   ? &read_sum<op::latin1_to_utf8>
                   : o == op::utf8_to_latin1 ? &read_sum<op::utf8_to_latin1>
                   : o == op::utf32_to_utf16 ? &read_sum<op::utf32_to_utf16>
                                             : &read_sum<op::validate_utf16>});
    return v;
  }();
  return all;
}

std::string peer_versions() {
  std::string s;
#if UTF8DFA_BENCH_UTFCPP
  s += "utfcpp (header-only); ";
#endif
#if UTF8DFA_BENCH_ICU
  s += std::string("icu ") + U_ICU_VERSION + "; ";
#endif
#if UTF8DFA_BENCH_SIMDJSON
  s += "simdjson " + std::to_string(simdjson::SIMDJSON_VERSION_MAJOR) + "." +
       std::to_string(simdjson::SIMDJSON_VERSION_MINOR) + "." + std::to_string(simdjson::SIMDJSON_VERSION_REVISION) +
       " (" + simdjson::get_active_implementation()->name() + "); ";
#endif
#if UTF8DFA_BENCH_ICONV
  s += "iconv (glibc); ";
#endif
#if UTF8DFA_BENCH_SIMDUTF
  s += std::string("simdutf ") + SIMDUTF_VERSION + "; ";
#endif
  if (!s.empty()) s.resize(s.size() - 2);
  return s;
}

std::string_view input_of(op o, const input& in) {
  const auto bytes = [](const auto& s) {
    return std::string_view(reinterpret_cast<const char*>(s.data()), s.size() * sizeof(s[0]));
  };
  switch (o) {
    case op::utf16_to_utf8:
    case op::utf16_to_utf8_bounded:
    case op::utf8_length_from_utf16:
    case op::utf8_length_from_utf16_assume_valid:
    case op::to_utf8_from_utf16:
    case op::view_utf16_to_utf8:
    case op::view_utf16_to_utf32:
    case op::validate_utf16:
    case op::utf16_to_utf32:
    case op::to_well_formed_utf16:
    case op::count_utf16:
    case op::change_endianness_utf16:
    case op::to_well_formed_utf16_in_place:
    case op::change_endianness_utf16_in_place:
      return bytes(in.utf16);
    case op::utf16be_to_utf8:
    case op::validate_utf16be:
      return bytes(in.utf16be);
    case op::utf16_to_latin1:
      return bytes(in.latin1_utf16);
    case op::utf32_to_latin1:
      return bytes(in.latin1_utf32);
    case op::validate_utf32:
    case op::utf32_to_utf8:
    case op::utf8_length_from_utf32:
    case op::utf8_length_from_utf32_assume_valid:
    case op::to_utf8_from_utf32:
    case op::utf32_to_utf16:
      return bytes(in.utf32);
    case op::latin1_to_utf8:
    case op::latin1_to_utf16:
    case op::latin1_to_utf32:
      return in.latin1;
    case op::utf8_to_latin1:
      return in.latin1_utf8;
    default:
      return in.utf8;
  }
}

std::size_t reference_checksum(const std::string& bytes) {
  // The same wrapping sum, byte by byte: each full word's byte k weighs 256^k (little-endian order
  // of the word loads; big-endian loads reverse it).
  std::uint64_t sum = 0;
  const std::size_t full = bytes.size() / 8 * 8;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const std::uint64_t b = static_cast<unsigned char>(bytes[i]);
    if (i >= full) {
      sum += b;
      continue;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    sum += b << (8 * (7 - i % 8));
#else
    sum += b << (8 * (i % 8));
#endif
  }
  return static_cast<std::size_t>(sum);
}

}  // namespace utf8dfa_bench
