// utf8dfa: the shuffle tables of the NEON transcoding kernels, built at run time on first use (as
// constants they would be evaluated in every translation unit that includes the kernels).
#ifndef UTF8DFA_DETAIL_SIMD_NEON_TABLES_HPP
#define UTF8DFA_DETAIL_SIMD_NEON_TABLES_HPP

#include <cstddef>
#include <cstdint>

#include "../../../config.hpp"

#if UTF8DFA_NEON_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace neon {

/// Bytes of the UTF-8 window that a decoding step reads the character ends of.
inline constexpr unsigned window_bytes = 12;
/// The longest piece the windows of characters of 1..4 bytes (any) and 1..3 bytes (bmp) take: a
/// window whose first character is longer takes nothing (the unchecked decoding's guard relies on
/// these, see transcode.hpp).
inline constexpr unsigned any_longest = 4, bmp_longest = 3;

struct shuffle_tables {
  /// UTF-8 windows of characters of 1..3 bytes, indexed by the 12-bit mask of character ends (bit
  /// k: byte k is the last of a character): for up to 8 characters, the tbl controls that put in
  /// 16-bit lane j (last byte, byte before it) and (first byte of a 3-byte form, 0); then the bytes
  /// the characters take plus 256 times their count.
  std::uint8_t bmp_shuffle[4096][32];
  std::uint16_t bmp_meta[4096];
  /// The same for characters of 1..4 bytes, up to 4 of them, in 32-bit lanes (last byte first);
  /// the bytes they take, their count, their UTF-16 units and which are 4 bytes long (bit j:
  /// character j) in bytes 0..3.
  std::uint8_t any_shuffle[4096][16];
  std::uint32_t any_meta[4096];
  /// For 4 dwords each holding a unit's bytes (its low byte for a 1-byte form; else byte 1 the last
  /// byte, byte 2 a 3-byte lead, byte 3 a 2-byte lead or a 3-byte form's second byte), indexed by
  /// bit c: form c is 1 byte long, bit c + 4: at most 2 bytes: the control that packs the forms
  /// (1 byte: 0; 2: 3, 1; 3: 2, 3, 1), and the packed length.
  std::uint8_t pack_bmp_utf8[256][16];
  std::uint8_t bmp_utf8_length[256];
  /// For 8 words holding UTF-8 forms of 1 or 2 bytes (bit k: word k's form is 2 bytes long).
  std::uint8_t pack_short_utf8[256][16];
  std::uint8_t short_utf8_length[256];
  /// For 4 dwords holding one UTF-16 unit (bit c clear) or a surrogate pair (bit c set).
  std::uint8_t pack_pairs[16][16];
  /// For 8 bytes: the indices of those whose bit is set, lowest first (the rest 0xFF); the same
  /// plus 8 (for the high half of a vector); how many bits are set.
  std::uint8_t pack_bytes[256][8];
  std::uint8_t pack_high_bytes[256][8];
  std::uint8_t bit_count[256];
};

inline void build_utf8_windows(shuffle_tables& t) noexcept {
  for (unsigned m = 0; m < 4096; ++m) {
    for (unsigned any = 0; any < 2; ++any) {
      const unsigned max_len = any != 0 ? any_longest : bmp_longest, max_count = any != 0 ? 4 : 8;
      std::uint8_t* s = any != 0 ? t.any_shuffle[m] : t.bmp_shuffle[m];
      const unsigned width = any != 0 ? 16 : 32;
      for (unsigned k = 0; k < width; ++k) s[k] = 0xFF;
      unsigned start = 0, count = 0, units16 = 0, fours = 0;
      for (unsigned k = 0; k < window_bytes && count < max_count; ++k) {
        if (((m >> k) & 1u) == 0) continue;
        const unsigned len = k - start + 1;
        if (len > max_len) break;
        for (unsigned b = 0; b < len; ++b) {
          const auto at = static_cast<std::uint8_t>(k - b);  // b-th byte from the end
          if (any != 0)
            s[4 * count + b] = at;
          else if (b < 2)
            s[2 * count + b] = at;
          else
            s[16 + 2 * count] = at;
        }
        if (len == 4) fours |= 1u << count;
        units16 += len == 4 ? 2 : 1;
        ++count;
        start = k + 1;
      }
      if (any != 0) {
        t.any_meta[m] = start | count << 8 | units16 << 16 | fours << 24;
      } else {
        t.bmp_meta[m] = static_cast<std::uint16_t>(start + 256 * count);
      }
    }
  }
}

inline void build_packers(shuffle_tables& t) noexcept {
  for (unsigned m = 0; m < 256; ++m) {
    unsigned at = 0;
    for (unsigned c = 0; c < 4; ++c) {
      const unsigned len = ((m >> c) & 1u) != 0 ? 1 : ((m >> (c + 4)) & 1u) != 0 ? 2 : 3;
      static constexpr std::uint8_t order[3][3] = {{0}, {3, 1}, {2, 3, 1}};
      for (unsigned b = 0; b < len; ++b)
        t.pack_bmp_utf8[m][at++] = static_cast<std::uint8_t>(4 * c + order[len - 1][b]);
    }
    t.bmp_utf8_length[m] = static_cast<std::uint8_t>(at);
    for (; at < 16; ++at) t.pack_bmp_utf8[m][at] = 0xFF;
    unsigned bytes = 0;
    for (unsigned u = 0; u < 8; ++u)
      for (unsigned b = 0; b <= ((m >> u) & 1u); ++b)
        t.pack_short_utf8[m][bytes++] = static_cast<std::uint8_t>(2 * u + b);
    t.short_utf8_length[m] = static_cast<std::uint8_t>(bytes);
    for (; bytes < 16; ++bytes) t.pack_short_utf8[m][bytes] = 0xFF;
    unsigned kept = 0;
    for (unsigned b = 0; b < 8; ++b)
      if (((m >> b) & 1u) != 0) {
        t.pack_high_bytes[m][kept] = static_cast<std::uint8_t>(b + 8);
        t.pack_bytes[m][kept++] = static_cast<std::uint8_t>(b);
      }
    t.bit_count[m] = static_cast<std::uint8_t>(kept);
    for (; kept < 8; ++kept) t.pack_bytes[m][kept] = t.pack_high_bytes[m][kept] = 0xFF;
  }
  for (unsigned m = 0; m < 16; ++m) {
    unsigned at = 0;
    for (unsigned c = 0; c < 4; ++c)
      for (unsigned b = 0; b < (((m >> c) & 1u) != 0 ? 4u : 2u); ++b)
        t.pack_pairs[m][at++] = static_cast<std::uint8_t>(4 * c + b);
    for (; at < 16; ++at) t.pack_pairs[m][at] = 0xFF;
  }
}

inline shuffle_tables tables{};

/// Fills `tables`, once (a thread-safe local static), before the first kernel that reads them.
inline void prepare_tables() noexcept {
  static const bool ready = (build_utf8_windows(tables), build_packers(tables), true);
  static_cast<void>(ready);
}

}  // namespace neon
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
