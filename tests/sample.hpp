// Sampling of the big [exhaustive] enumerations, for the builds where each input costs many times
// what it costs in an optimised build (the clang sanitizer leg sets UTF8DFA_TEST_SAMPLE=N in the
// environment). A sequence of three or more bytes is then checked only when its first two bytes are
// one of about one pair in N: every N-th second byte after each lead, so that every lead byte still
// meets second bytes from every range; other enumerations keep about one case in N by its index. Unset, 0 or 1: every
// input, as the optimised legs run them under every kernel.
#ifndef UTF8DFA_TESTS_SAMPLE_HPP
#define UTF8DFA_TESTS_SAMPLE_HPP

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace utf8dfa_sample {

/// N of UTF8DFA_TEST_SAMPLE (1 when unset or not a positive number).
inline unsigned divisor() {
  static const unsigned n = [] {
    const char* s = std::getenv("UTF8DFA_TEST_SAMPLE");
    const unsigned long v = s ? std::strtoul(s, nullptr, 10) : 1;
    return v == 0 || v > 256 ? 1u : static_cast<unsigned>(v);
  }();
  return n;
}

/// True when the i-th case of an enumeration is checked.
inline bool keep_index(std::size_t i, unsigned n = divisor()) {
  if (n == 1) return true;
  const std::uint32_t h = static_cast<std::uint32_t>(i + 1u) * 2654435761u;
  return (h >> 16) % n == 0;
}

/// True when inputs that start with the bytes a, b are checked: every N-th second byte, from an
/// offset that depends on a (so every run of N or more second bytes keeps some after every lead).
inline bool keep(unsigned a, unsigned b, unsigned n = divisor()) {
  if (n == 1) return true;
  const unsigned offset = static_cast<unsigned>((static_cast<std::uint32_t>((a & 0xFFu) + 1u) * 2654435761u) >> 16) % n;
  return ((b & 0xFFu) + offset) % n == 0;
}

/// How many of the 65536 leading pairs keep() keeps.
inline std::size_t kept_pairs() {
  std::size_t k = 0;
  for (unsigned a = 0; a < 256; ++a)
    for (unsigned b = 0; b < 256; ++b) k += keep(a, b);
  return k;
}

/// How many of the 256^n inputs of n bytes are checked (n <= 3).
inline std::size_t inputs_of_length(std::size_t n) {
  return n < 3 ? std::size_t{1} << (8 * n) : kept_pairs() << (8 * (n - 2));
}

}  // namespace utf8dfa_sample

#endif
