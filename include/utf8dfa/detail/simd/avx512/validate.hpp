// utf8dfa: AVX-512 validation and counting (64-byte vectors; tails through masked loads, which never
// touch the bytes they mask out).
#ifndef UTF8DFA_DETAIL_SIMD_AVX512_VALIDATE_HPP
#define UTF8DFA_DETAIL_SIMD_AVX512_VALIDATE_HPP

#include "../generic.hpp"
#include "../target.hpp"
#include "utf8_block.hpp"

#if UTF8DFA_X86_KERNELS
// GCC 12's AVX-512 intrinsics seed their results with a self-initialised "undefined" vector, which
// -Wmaybe-uninitialized reports once they are inlined (GCC bug 105593); nothing here is uninitialised.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx512 {

UTF8DFA_TARGET_AVX512 inline __m512i splat(unsigned v) noexcept {
  return _mm512_set1_epi8(static_cast<char>(v));
}

UTF8DFA_TARGET_AVX512 inline __m512i load(const void* p) noexcept {
  return _mm512_loadu_si512(p);
}

/// The first `k` (< 64) bytes at p, zeros after them; reads nothing beyond p + k.
UTF8DFA_TARGET_AVX512 inline __m512i load_first(const void* p, std::size_t k) noexcept {
  return _mm512_maskz_loadu_epi8(_bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(k)), p);
}

/// A 16-entry table in all four 128-bit lanes (vpshufb looks up within each lane). The maskz forms
/// here and below avoid a false -Wmaybe-uninitialized of GCC 12 in the unmasked intrinsics.
UTF8DFA_TARGET_AVX512 inline __m512i lanes(const std::uint8_t* table16) noexcept {
  return _mm512_maskz_broadcast_i32x4(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(table16)));
}

/// The block check with its constants loaded once (outside the loops that use it).
struct checker {
  __m512i first_high, first_low, second_high, nibble, lead3, lead4, high_bit;

  UTF8DFA_TARGET_AVX512 checker() noexcept
      : first_high(lanes(pair_lookup.first_high)),
        first_low(lanes(pair_lookup.first_low)),
        second_high(lanes(pair_lookup.second_high)),
        nibble(splat(0x0F)),
        lead3(splat(lead3_min - 0x80u)),
        lead4(splat(lead4_min - 0x80u)),
        high_bit(splat(0x80)) {}

  /// Non-zero where the pair check or the 3-/4-byte continuation check fails in `in`.
  UTF8DFA_TARGET_AVX512 __m512i operator()(__m512i in, __m512i prev) const noexcept {
    // Each 128-bit lane of `before` is the lane preceding the same lane of `in`.
    const __m512i before = _mm512_maskz_alignr_epi64(0xFF, in, prev, 6);
    const __m512i prev1 = _mm512_alignr_epi8(in, before, 15);
    const __m512i a = _mm512_shuffle_epi8(first_high, _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nibble));
    const __m512i b = _mm512_shuffle_epi8(first_low, _mm512_and_si512(prev1, nibble));
    const __m512i c = _mm512_shuffle_epi8(second_high, _mm512_and_si512(_mm512_srli_epi16(in, 4), nibble));
    // Saturating subtraction leaves bit 7 set exactly for prev2 >= lead3_min, prev3 >= lead4_min.
    const __m512i is3 = _mm512_subs_epu8(_mm512_alignr_epi8(in, before, 14), lead3);
    const __m512i is4 = _mm512_subs_epu8(_mm512_alignr_epi8(in, before, 13), lead4);
    // (a & b & c) ^ ((is3 | is4) & 0x80) in two ternary-logic steps.
    const __m512i flags = _mm512_ternarylogic_epi32(a, b, c, 0x80);
    const __m512i must_continue = _mm512_ternarylogic_epi32(is3, is4, high_bit, 0xA8);
    return _mm512_xor_si512(flags, must_continue);
  }
};

/// Non-zero when `in` (64 bytes) ends inside a character.
UTF8DFA_TARGET_AVX512 inline __m512i ends_incomplete(__m512i in) noexcept {
  const __m512i last3 = _mm512_set_epi64(
      static_cast<long long>((std::uint64_t{utf8_tail.hi} << 56) | (std::uint64_t{lead3_min - 1u} << 48) |
                             (std::uint64_t{lead4_min - 1u} << 40) | 0xFFFFFFFFFFull),
      -1, -1, -1, -1, -1, -1, -1);
  return _mm512_subs_epu8(in, last3);
}

/// The error vector of the block `in` preceded by `prev`; `incomplete` carries a cut character.
UTF8DFA_TARGET_AVX512 inline __m512i check_block(const checker& check, __m512i in, __m512i prev,
                                                 __m512i& incomplete) noexcept {
  if (_mm512_movepi8_mask(in) == 0) return incomplete;
  incomplete = ends_incomplete(in);
  return check(in, prev);
}

UTF8DFA_TARGET_AVX512 inline bool any(__m512i v) noexcept {
  return _mm512_test_epi8_mask(v, v) != 0;
}

/// The pair flags (generic.hpp) of each byte C0..FF as the first of a pair, whole: one 64-entry
/// lookup instead of two by nibbles.
struct lead_pair_table {
  std::uint8_t flags[64]{};
};

constexpr lead_pair_table build_lead_pair_table() {
  lead_pair_table t{};
  for (unsigned j = 0; j < 64; ++j)
    t.flags[j] = static_cast<std::uint8_t>(pair_lookup.first_high[(0xC0 + j) >> 4] & pair_lookup.first_low[j & 15]);
  return t;
}
inline constexpr lead_pair_table lead_pair_lookup = build_lead_pair_table();

/// What lets step_checker give every byte below C0 the flags of a continuation: such a byte has
/// no other flag than too_long (ASCII) or two_conts (a continuation), and both flag the same second
/// bytes (the continuations). After ASCII a continuation then passes only where bit 7 is expected,
/// 2 bytes after an E0..FF lead or 3 after an F0..FF lead, and there the lead's own pairs fail (a
/// lead then ASCII: too_short; or the ASCII byte, where bit 7 is expected, is not a continuation).
constexpr bool below_c0_flags_as_continuation() noexcept {
  for (unsigned b = 0; b < 0xC0; ++b)
    if ((pair_lookup.first_high[b >> 4] & pair_lookup.first_low[b & 15]) != (b < 0x80 ? pair_too_long : pair_two_conts))
      return false;
  for (unsigned h = 0; h < 16; ++h)
    if (((pair_lookup.second_high[h] & pair_too_long) != 0) != ((pair_lookup.second_high[h] & pair_two_conts) != 0))
      return false;
  return pair_two_conts == 0x80;
}
static_assert(below_c0_flags_as_continuation(), "bytes below C0 flag pairs as a continuation does");

/// The block check of the 256-byte steps (check_blocks, and the length count in length.hpp), its
/// constants kept in registers: checker's pair flags (of the byte before, a lead's looked up whole
/// and any other byte's taken as a continuation's, see above) and its 3-/4-byte continuation check,
/// on bytes read from memory before the block (loads instead of the lane shuffles that build them);
/// it counts too, with the compare masks of that check.
struct step_checker {
  __m512i lead_flags, second_high, nibbles, lead2, lead3, lead4, high_bit;

  UTF8DFA_TARGET_AVX512 step_checker() noexcept
      : lead_flags(opaque(_mm512_loadu_si512(lead_pair_lookup.flags))),
        second_high(opaque(lanes(pair_lookup.second_high))),
        // vpmultishiftqb control: byte j of each quadword takes the 8 bits from bit 8j + 4 on
        nibbles(opaque(_mm512_set1_epi64(0x3C342C241C140C04))),
        lead2(opaque(splat(0xC0))),
        lead3(opaque(splat(lead3_min))),
        lead4(opaque(splat(lead4_min))),
        high_bit(opaque(splat(0x80))) {}

  /// A vpermb index of the high nibble of each byte of v: its low 4 bits are that nibble (the bits
  /// above come from the next byte; vpermb reads 6 index bits and the tables repeat every 16 bytes).
  /// A shuffle-port operation, not a shift (the shift ports are the busier ones here).
  UTF8DFA_TARGET_AVX512 __m512i high(__m512i v) const noexcept { return _mm512_multishift_epi64_epi8(nibbles, v); }

  /// The 64 bytes from q - k: with `Start`, those of them before the d bytes before q (which alone
  /// lie in the input) as zeros, by a masked load, which touches nothing it masks out.
  template <bool Start>
  static UTF8DFA_TARGET_AVX512 __m512i before(const unsigned char* q, unsigned k, std::size_t d) noexcept {
    if (!Start) return load(q - k);
    const unsigned outside = k > d ? k - static_cast<unsigned>(d) : 0u;
    return _mm512_maskz_loadu_epi8(~std::uint64_t{0} << outside,
                                   reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(q) - k));
  }

  /// Non-zero where the 64 bytes at q (whose high nibbles are `hi`) fail the checks, the bytes
  /// before them read from memory (q - 3 lies inside the input). Without `Four` the caller knows
  /// there is no F0..FF byte in them or in the 3 before: the check that a byte 3 places after one
  /// continues is left out. Adds to `conts` the continuations of well-formed text: the bytes 1
  /// after a C0..FF lead, 2 after an E0..FF lead and (but for UTF-16, where a 4-byte lead's second
  /// unit makes up for it) 3 after an F0..FF lead; each continuation is exactly one of these.
  /// With `Start`, only the `d` bytes before q lie in the input (d < 3): those before them read as
  /// zeros, as if the text began there.
  template <bool Four, bool Utf16, bool Start = false>
  UTF8DFA_TARGET_AVX512 __m512i error(const unsigned char* q, __m512i hi, std::size_t& conts,
                                      std::size_t d = 3) const noexcept {
    const __m512i prev1 = before<Start>(q, 1, d);
    // The byte before: C0..FF told apart by 6 index bits, any other byte two_conts (bit 7).
    const __mmask64 after2 = _mm512_cmpge_epu8_mask(prev1, lead2);
    const __m512i first = _mm512_mask_permutexvar_epi8(high_bit, after2, prev1, lead_flags);
    const __m512i flags = _mm512_and_si512(first, _mm512_permutexvar_epi8(hi, second_high));
    // Bit 7 (two continuations in a row) is expected exactly 2 bytes after an E0..FF lead and 3
    // after an F0..FF lead: flip it there (subtracting 0x80 flips bit 7 only).
    const __mmask64 after3 = _mm512_cmpge_epu8_mask(before<Start>(q, 2, d), lead3);
    __mmask64 must = after3;
    conts += static_cast<std::size_t>(_mm_popcnt_u64(after2) + _mm_popcnt_u64(after3));
    if (Four) {
      const __mmask64 after4 = _mm512_cmpge_epu8_mask(before<Start>(q, 3, d), lead4);
      must |= after4;
      if (!Utf16) conts += static_cast<std::size_t>(_mm_popcnt_u64(after4));
    }
    return _mm512_mask_sub_epi8(flags, must, flags, high_bit);
  }
};

/// True when the character before q (q - 3 lies in the input) needs bytes beyond q - 1.
inline bool cut_before(const unsigned char* q) noexcept {
  return q[-1] >= 0xC0 || q[-2] >= lead3_min || q[-3] >= lead4_min;
}

/// The length of the longest prefix of [p, p+n) made of whole 64-byte blocks of ASCII: 256 bytes a
/// test, then 64.
UTF8DFA_TARGET_AVX512 inline std::size_t ascii_prefix(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; n - i >= 256; i += 256) {
    const __m512i top = _mm512_max_epu8(_mm512_max_epu8(load(p + i), load(p + i + 64)),
                                        _mm512_max_epu8(load(p + i + 128), load(p + i + 192)));
    if (_mm512_movepi8_mask(top) != 0) break;
  }
  for (; n - i >= 64; i += 64)
    if (_mm512_movepi8_mask(load(p + i)) != 0) break;
  return i;
}

/// The inputs check_blocks takes: longer than a block (validate checks shorter ones as one block).
inline constexpr std::size_t min_block_input = 65;

/// How far past the block start a failing check_blocks step reaches.
inline constexpr std::size_t block_span = 256;

/// Runs the block checks over [p, p+n) (n >= min_block_input): `blocks_pass` when they all pass
/// (the input is well-formed), else b such that [0, b) passed and [b, b + block_span) failed (a
/// failing step gives its first failing 64-byte block, so that the scalar rescan is short).
/// After a first block, 256 bytes a step with one error test (ASCII steps only checked for a
/// character cut before them, others by step_checker, its 4-byte part only when the step or the one
/// before holds an F0..FF byte), then 64-byte blocks and the last 64 bytes, all by step_checker.
/// With `Known`, after the ASCII start `ascii` (ascii_prefix(p, n)) that the caller found.
template <bool Known>
UTF8DFA_TARGET_AVX512 inline std::size_t check_blocks_from(const unsigned char* p, std::size_t n,
                                                           [[maybe_unused]] std::size_t ascii) noexcept {
  // ASCII first, 256 bytes then 64 a test, before the check's constants are built (which cost a
  // short ASCII input more than its check).
  std::size_t i = Known ? ascii : ascii_prefix(p, n);
  if (n - i < 64 && (i == n || _mm512_movepi8_mask(load_first(p + i, n - i)) == 0)) return blocks_pass;
  const step_checker sc;
  std::size_t unused = 0;
  bool four = i == 0;  // an F0..FF byte may be in the block before the step
  if (i == 0) {        // the first block: nothing before it
    if (UTF8DFA_UNLIKELY(any(sc.error<true, true, true>(p, sc.high(load(p)), unused, 0)))) return 0;
    i = 64;
  }
  for (; n - i >= 256; i += 256) {
    const __m512i in0 = load(p + i), in1 = load(p + i + 64), in2 = load(p + i + 128), in3 = load(p + i + 192);
    const __m512i top = _mm512_max_epu8(_mm512_max_epu8(in0, in1), _mm512_max_epu8(in2, in3));
    if (_mm512_movepi8_mask(top) == 0) {
      // ASCII: an error only if a character before it is cut.
      if (UTF8DFA_UNLIKELY(cut_before(p + i))) return i;
      four = false;
      continue;
    }
    const bool has4 = _mm512_cmpge_epu8_mask(top, sc.lead4) != 0;
    __m512i e0, e1, e2, e3;
    if (has4 || four) {
      e0 = sc.error<true, true>(p + i, sc.high(in0), unused);
      e1 = sc.error<true, true>(p + i + 64, sc.high(in1), unused);
      e2 = sc.error<true, true>(p + i + 128, sc.high(in2), unused);
      e3 = sc.error<true, true>(p + i + 192, sc.high(in3), unused);
    } else {
      e0 = sc.error<false, true>(p + i, sc.high(in0), unused);
      e1 = sc.error<false, true>(p + i + 64, sc.high(in1), unused);
      e2 = sc.error<false, true>(p + i + 128, sc.high(in2), unused);
      e3 = sc.error<false, true>(p + i + 192, sc.high(in3), unused);
    }
    four = has4;
    if (UTF8DFA_UNLIKELY(any(_mm512_ternarylogic_epi32(_mm512_or_si512(e0, e1), e2, e3, 0xFE))))
      return i + (any(e0) ? 0 : any(e1) ? 64 : any(e2) ? 128 : 192);  // (the scalar rescan starts there)
  }
  for (; n - i >= 64; i += 64) {
    const __m512i in = load(p + i);
    if (_mm512_movepi8_mask(in) == 0) {  // ASCII, as above
      if (UTF8DFA_UNLIKELY(cut_before(p + i))) return i;
    } else if (UTF8DFA_UNLIKELY(any(sc.error<true, true>(p + i, sc.high(in), unused)))) {
      return i;
    }
  }
  // The last 64 bytes (again, where checked ones are among them), and no character cut by their
  // end; when they are ASCII, the bytes before the unchecked ones are too (they are among them).
  const unsigned char* const q = p + n - 64;
  const __m512i last = load(q);
  if (_mm512_movepi8_mask(last) == 0) return blocks_pass;
  __m512i err = ends_incomplete(last);
  if (i < n) err = _mm512_or_si512(err, sc.error<true, true, true>(q, sc.high(last), unused, n - 64));
  if (UTF8DFA_UNLIKELY(any(err))) return n - 64;
  return blocks_pass;
}

/// check_blocks_from the start: what validate runs.
UTF8DFA_TARGET_AVX512 inline std::size_t check_blocks(const unsigned char* p, std::size_t n) noexcept {
  return check_blocks_from<false>(p, n, 0);
}

/// The longest input short_check takes.
inline constexpr std::size_t short_check_max = 256;

/// True when the n bytes at p (n <= short_check_max) are well-formed UTF-8; `ascii` gets the length
/// of their start made of whole 64-byte blocks of ASCII. Those blocks are skipped one test each,
/// the blocks from the first other one checked by checker (the lane-shuffle check) into one error
/// vector, the tail as one masked block whose zero padding makes a character cut by the end fail
/// (without a tail, ends_incomplete of the last block does). (check_blocks' constants, its 256-byte test first and its
/// loads of the bytes before each block cost such input more than they save. validate against simdutf icelake at 256 B,
/// on an AMD EPYC: 1.08x -> 1.24x over the corpora; German, its first accented letter in the last block, 0.76x ->
/// 0.94x; all-ASCII text 1.57x -> 1.40x, the one loss.)
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool short_check(const unsigned char* p, std::size_t n,
                                                             std::size_t& ascii) noexcept {
  std::size_t i = 0;
  while (n - i >= 64 && _mm512_movepi8_mask(load(p + i)) == 0) i += 64;
  ascii = i;
  if (n - i < 64 && (i == n || _mm512_movepi8_mask(load_first(p + i, n - i)) == 0)) return true;
  const checker check;
  __m512i prev = i == 0 ? _mm512_setzero_si512() : load(p + i - 64), err = _mm512_setzero_si512(), incomplete = err;
  for (; n - i >= 64; i += 64) {
    const __m512i in = load(p + i);
    err = _mm512_or_si512(err, check_block(check, in, prev, incomplete));
    prev = in;
  }
  err = _mm512_or_si512(err, i < n ? check(load_first(p + i, n - i), prev) : incomplete);
  return !any(err);
}

/// validate_scalar's answer for more than 64 bytes: up to short_check_max by short_check (its tail
/// one masked block whose zero padding makes a character cut by the end fail the pair checks),
/// longer by check_blocks.
UTF8DFA_TARGET_AVX512 UTF8DFA_NOINLINE inline packed_validation validate_long(const unsigned char* p,
                                                                              std::size_t n) noexcept {
  if (n <= short_check_max) {
    std::size_t ascii = 0;
    if (UTF8DFA_LIKELY(short_check(p, n, ascii))) return {n, 0, error_code::none};
    UTF8DFA_LEAVE_AVX();
    return rescan_from(p, n, 0);
  }
  const std::size_t b = check_blocks(p, n);
  if (UTF8DFA_LIKELY(b == blocks_pass)) return {n, 0, error_code::none};
  return rescan_from(p, n, b);
}

/// True when the n (<= 64) bytes loaded in `in` (zero past n) are well-formed UTF-8, by one block
/// check: the zero padding makes a character cut by the end fail, ends_incomplete a whole block's.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALWAYS_INLINE bool block_well_formed(__m512i in, std::size_t n) noexcept {
  const checker check;
  const __m512i err = check(in, _mm512_setzero_si512());
  return !any(n == 64 ? _mm512_or_si512(err, ends_incomplete(in)) : err);
}

/// The kernel entry. Up to 64 bytes, the tail block alone (a whole one also checked for a cut
/// character), in a function that calls nothing on valid input, so it saves no registers; longer
/// input by a tail call to validate_long.
UTF8DFA_TARGET_AVX512 UTF8DFA_ALIGN_CODE inline packed_validation validate(const unsigned char* p,
                                                                           std::size_t n) noexcept {
  if (n > 64) return validate_long(p, n);
  const __m512i in = load_first(p, n);
  if (_mm512_movepi8_mask(in) == 0) return {n, 0, error_code::none};
  if (UTF8DFA_LIKELY(block_well_formed(in, n))) return {n, 0, error_code::none};
  UTF8DFA_LEAVE_AVX();
  return rescan_from(p, n, 0);
}

/// Bytes that are not continuation bytes (80..BF are the signed bytes below -64).
UTF8DFA_TARGET_AVX512 inline std::size_t count_leads(const unsigned char* p, std::size_t n) noexcept {
  const __m512i limit = splat(0xBF);
  std::size_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, i = 0;
  for (; n - i >= 256; i += 256) {  // four independent counts keep the loads flowing
    c0 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i), limit)));
    c1 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i + 64), limit)));
    c2 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i + 128), limit)));
    c3 += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i + 192), limit)));
  }
  std::size_t count = c0 + c1 + c2 + c3;
  for (; n - i >= 64; i += 64)
    count += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(load(p + i), limit)));
  if (i < n) {
    const std::uint64_t valid = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(n - i));
    count +=
        static_cast<std::size_t>(_mm_popcnt_u64(_mm512_mask_cmpgt_epi8_mask(valid, load_first(p + i, n - i), limit)));
  }
  return count;
}

/// UTF-16 units of a well-formed character by its lead's top six bits (a byte b at b >> 2): one
/// for ASCII and the leads C0..EF, two for F0..FF, none for a continuation.
struct utf16_units_table {
  std::uint8_t units[64]{};
};

constexpr utf16_units_table build_utf16_units_table() {
  utf16_units_table t{};
  for (unsigned j = 0; j < 64; ++j) {
    const auto b = static_cast<std::uint8_t>(j << 2);  // b .. b + 3 all alike
    t.units[j] = static_cast<std::uint8_t>(is_continuation(b) ? 0 : b >= lead4_min ? 2 : 1);
  }
  return t;
}
inline constexpr utf16_units_table utf16_units_lookup = build_utf16_units_table();

/// UTF-16 units of well-formed input: leads, plus one more for each 4-byte lead (F0..FF). Whole
/// vectors by one 64-entry lookup of each byte's top six bits, summed in bytes (three operations a
/// vector; two compares and their two mask moves took four, on the same two ports).
UTF8DFA_TARGET_AVX512 inline std::size_t utf16_length(const unsigned char* p, std::size_t n) noexcept {
  const __m512i cont_limit = splat(0xBF), four_min = splat(lead4_min);
  std::size_t count = 0, i = 0;
  if (n >= 128) {
    const __m512i units = opaque(_mm512_loadu_si512(utf16_units_lookup.units)), zero = _mm512_setzero_si512();
    __m512i sums = zero;
    while (n - i >= 64) {
      // Up to 127 vectors a round (at most 2 a byte each: the byte sums stay below 256).
      const std::size_t end = (n - i) / 64 < 127 ? i + (n - i) / 64 * 64 : i + 127 * 64;
      __m512i bytes = zero;
      for (; i < end; i += 64)  // (the 16-bit shift leaves each byte's top six bits in its low six)
        bytes = _mm512_add_epi8(bytes, _mm512_permutexvar_epi8(_mm512_srli_epi16(load(p + i), 2), units));
      sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, zero));
    }
    count = static_cast<std::size_t>(_mm512_reduce_add_epi64(sums));
  }
  for (; n - i >= 64; i += 64) {
    const __m512i in = load(p + i);
    count += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(in, cont_limit)) +
                                      _mm_popcnt_u64(_mm512_cmpge_epu8_mask(in, four_min)));
  }
  if (i < n) {
    const std::uint64_t valid = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(n - i));
    const __m512i in = load_first(p + i, n - i);
    count += static_cast<std::size_t>(_mm_popcnt_u64(_mm512_mask_cmpgt_epi8_mask(valid, in, cont_limit)) +
                                      _mm_popcnt_u64(_mm512_cmpge_epu8_mask(in, four_min)));
  }
  return count;
}

}  // namespace avx512
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

#endif
