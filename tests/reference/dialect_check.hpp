// Shared by the dialect tests: the library's dialect tags mapped to the reference's, and the
// comparison of validate / is_valid / decode_next / decode_prev with tests/reference/dialects.hpp.
#ifndef UTF8DFA_TESTS_REFERENCE_DIALECT_CHECK_HPP
#define UTF8DFA_TESTS_REFERENCE_DIALECT_CHECK_HPP

#include <cstddef>
#include <string>
#include <type_traits>

#include <utf8dfa.hpp>

#include "check.hpp"
#include "dialects.hpp"

namespace utf8dfa_dialect_check {

namespace dref = utf8dfa_dialect_ref;
namespace dialect = utf8dfa::dialect;
using utf8dfa::error_code;
using utf8dfa_check::bytes;
using utf8dfa_check::hex;
using utf8dfa_check::tally;
using utf8dfa_check::to_ref;

template <class D>
constexpr dref::dialect ref_of() {
  if constexpr (std::is_same_v<D, dialect::utf8>) return dref::dialect::utf8;
  if constexpr (std::is_same_v<D, dialect::wtf8>) return dref::dialect::wtf8;
  if constexpr (std::is_same_v<D, dialect::cesu8>) return dref::dialect::cesu8;
  if constexpr (std::is_same_v<D, dialect::mutf8>) return dref::dialect::mutf8;
  return dref::dialect::legacy;
}

inline std::string fail(const unsigned char* p, std::size_t n, const std::string& what) {
  std::string s(1, '[');
  s += hex(p, n);
  s += "] ";
  s += what;
  return s;
}

inline std::string num(std::size_t v) {
  return std::to_string(v);
}

/// validate, is_valid and the decode_next walk (and, with `backwards`, decode_prev's) against the
/// reference. The reference's segments give the verdict too: the first one that is not a character.
template <class D>
std::string check_input(const unsigned char* p, std::size_t n, bool backwards) {
  dref::verdict r{n, 0, utf8dfa_ref::error::none};
  std::size_t lengths[8]{}, count = 0;
  bool decode_ok = true;
  dref::for_each_segment(ref_of<D>(), p, n, [&](std::size_t pos, const dref::segment& s) {
    if (s.kind != utf8dfa_ref::error::none && r.kind == utf8dfa_ref::error::none)
      r = {pos, s.kind == utf8dfa_ref::error::incomplete ? 0 : s.length, s.kind};
    lengths[count++] = s.length;
    const utf8dfa::decoded d = utf8dfa::decode_next(bytes{p, n}, pos, D{});
    const char32_t want = s.kind == utf8dfa_ref::error::none ? static_cast<char32_t>(s.value) : U'\uFFFD';
    if (d.length != s.length || to_ref(d.error) != s.kind || d.code_point != want) decode_ok = false;
  });
  const utf8dfa::validation_result v = utf8dfa::validate(bytes{p, n}, D{});
  if (v.valid_up_to != r.valid_up_to || v.error_length != r.error_length || to_ref(v.error) != r.kind)
    return fail(p, n,
                "validate: library " + num(v.valid_up_to) + "/" + num(v.error_length) + "/" +
                    std::string(utf8dfa::error_name(v.error)) + ", reference " + num(r.valid_up_to) + "/" +
                    num(r.error_length) + "/" + utf8dfa_ref::name(r.kind));
  if (utf8dfa::is_valid(p, n, D{}) != (r.kind == utf8dfa_ref::error::none)) return fail(p, n, "is_valid");
  if (!decode_ok) return fail(p, n, "decode_next");
  if (backwards) {  // from the end: the same segments in reverse
    std::size_t end = n;
    for (std::size_t k = count; k-- > 0;) {
      const utf8dfa::decoded d = utf8dfa::decode_prev(bytes{p, n}, end, D{});
      if (d.length != lengths[k]) return fail(p, n, "decode_prev at " + num(end));
      end -= d.length;
    }
  }
  return {};
}

}  // namespace utf8dfa_dialect_check

#endif
