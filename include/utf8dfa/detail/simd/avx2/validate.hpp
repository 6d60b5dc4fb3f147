// utf8dfa: AVX2 validation and counting (32-byte vectors, 64-byte blocks).
#ifndef UTF8DFA_DETAIL_SIMD_AVX2_VALIDATE_HPP
#define UTF8DFA_DETAIL_SIMD_AVX2_VALIDATE_HPP

#include <cstring>

#include "../generic.hpp"
#include "../target.hpp"

#if UTF8DFA_X86_KERNELS
namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {
namespace avx2 {

UTF8DFA_TARGET_AVX2 inline __m256i splat(unsigned v) noexcept {
  return _mm256_set1_epi8(static_cast<char>(v));
}

UTF8DFA_TARGET_AVX2 inline __m256i load(const void* p) noexcept {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

/// A 16-entry table in both 128-bit lanes (vpshufb looks up within each lane).
UTF8DFA_TARGET_AVX2 inline __m256i lanes(const std::uint8_t* table16) noexcept {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(table16)));
}

/// Vector constants, every 8-, 16- or 32-bit lane V, read from memory: GCC rebuilds a splat that
/// does not stay in a register with three instructions (immediate, move, broadcast) at each use;
/// the empty asm hides the values from it, so that the load folds into the instruction using it.
template <class T>
struct alignas(32) lanes_of {
  T v[32 / sizeof(T)];
};

template <class T, T V>
constexpr lanes_of<T> make_lanes() {
  lanes_of<T> l{};
  for (T& x : l.v) x = V;
  return l;
}

template <class T, T V>
inline constexpr lanes_of<T> splat_lanes = make_lanes<T, V>();

template <class T, T V>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i splat_load() noexcept {
  const lanes_of<T>* l = &splat_lanes<T, V>;
  __asm__("" : "+r"(l));
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(l->v));
}

template <std::uint8_t V>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i k8() noexcept {
  return splat_load<std::uint8_t, V>();
}

template <std::uint16_t V>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i k16() noexcept {
  return splat_load<std::uint16_t, V>();
}

template <std::uint32_t V>
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE __m256i k32() noexcept {
  return splat_load<std::uint32_t, V>();
}

/// The block check with its constants loaded once (outside the loops that use it).
struct checker {
  __m256i first_high, first_low, second_high, nibble, lead3, lead4, high_bit;

  UTF8DFA_TARGET_AVX2 checker() noexcept
      : first_high(lanes(pair_lookup.first_high)),
        first_low(lanes(pair_lookup.first_low)),
        second_high(lanes(pair_lookup.second_high)),
        nibble(splat(0x0F)),
        lead3(splat(lead3_min - 0x80u)),
        lead4(splat(lead4_min - 0x80u)),
        high_bit(splat(0x80)) {}

  /// Non-zero where the pair check or the 3-/4-byte continuation check fails in `in`.
  UTF8DFA_TARGET_AVX2 __m256i operator()(__m256i in, __m256i prev) const noexcept {
    // The 16 bytes before each 128-bit lane of `in`, for vpalignr.
    const __m256i before = _mm256_permute2x128_si256(prev, in, 0x21);
    const __m256i prev1 = _mm256_alignr_epi8(in, before, 15);
    const __m256i a = _mm256_shuffle_epi8(first_high, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble));
    const __m256i b = _mm256_shuffle_epi8(first_low, _mm256_and_si256(prev1, nibble));
    const __m256i c = _mm256_shuffle_epi8(second_high, _mm256_and_si256(_mm256_srli_epi16(in, 4), nibble));
    const __m256i flags = _mm256_and_si256(_mm256_and_si256(a, b), c);
    // Saturating subtraction leaves bit 7 set exactly for prev2 >= lead3_min, prev3 >= lead4_min.
    const __m256i is3 = _mm256_subs_epu8(_mm256_alignr_epi8(in, before, 14), lead3);
    const __m256i is4 = _mm256_subs_epu8(_mm256_alignr_epi8(in, before, 13), lead4);
    const __m256i must_continue = _mm256_and_si256(_mm256_or_si256(is3, is4), high_bit);
    return _mm256_xor_si256(flags, must_continue);
  }
};

/// checker's error vector for the 32 bytes `in` at q, the bytes before them read from memory (q - 3
/// lies inside the input): three loads instead of the lane permute and shifts that build them.
UTF8DFA_TARGET_AVX2 inline __m256i check_at(const checker& c, const unsigned char* q, __m256i in) noexcept {
  const __m256i prev1 = load(q - 1);
  const __m256i a = _mm256_shuffle_epi8(c.first_high, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), c.nibble));
  const __m256i b = _mm256_shuffle_epi8(c.first_low, _mm256_and_si256(prev1, c.nibble));
  const __m256i d = _mm256_shuffle_epi8(c.second_high, _mm256_and_si256(_mm256_srli_epi16(in, 4), c.nibble));
  const __m256i flags = _mm256_and_si256(_mm256_and_si256(a, b), d);
  const __m256i is3 = _mm256_subs_epu8(load(q - 2), c.lead3);
  const __m256i is4 = _mm256_subs_epu8(load(q - 3), c.lead4);
  const __m256i must_continue = _mm256_and_si256(_mm256_or_si256(is3, is4), c.high_bit);
  return _mm256_xor_si256(flags, must_continue);
}

/// Non-zero when `in` ends inside a character.
UTF8DFA_TARGET_AVX2 inline __m256i ends_incomplete(__m256i in) noexcept {
  const char x = -1;
  const __m256i limit = _mm256_setr_epi8(x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x,
                                         x, x, x, static_cast<char>(lead4_min - 1), static_cast<char>(lead3_min - 1),
                                         static_cast<char>(utf8_tail.hi));
  return _mm256_subs_epu8(in, limit);
}

UTF8DFA_TARGET_AVX2 inline bool any(__m256i v) noexcept {
  return !_mm256_testz_si256(v, v);
}

/// Inputs shorter than this are checked in a padded copy (the checks need 64 readable bytes).
inline constexpr std::size_t min_block_input = 64;

/// How far past the block start a failing check_blocks step reaches.
inline constexpr std::size_t block_span = 64;

/// Where a run of ASCII from j on ends: j past every 128 bytes that are all ASCII (four vectors
/// passed by one test), while 128 are left.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t ascii_run_end(const unsigned char* p, std::size_t n,
                                                                    std::size_t j) noexcept {
  while (n - j >= 128 &&
         _mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(load(p + j), load(p + j + 32)),
                                              _mm256_or_si256(load(p + j + 64), load(p + j + 96)))) == 0)
    j += 128;
  return j;
}

/// Runs the block checks over [p, p+n) (n >= min_block_input): `blocks_pass` when they all pass
/// (the input is well-formed), else b such that [0, b) passed and [b, b + block_span) failed.
UTF8DFA_TARGET_AVX2 inline std::size_t check_blocks(const unsigned char* p, std::size_t n) noexcept {
  const checker check;
  const __m256i zero = _mm256_setzero_si256();
  __m256i incomplete = zero;
  std::size_t i = 64;
  {  // The first block, with nothing before it (out of the loop, whose blocks read the bytes before them).
    const __m256i lo = load(p), hi = load(p + 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) != 0) {
      if (UTF8DFA_UNLIKELY(any(_mm256_or_si256(check(lo, zero), check(hi, lo))))) return 0;
      incomplete = ends_incomplete(hi);
    } else {
      i = ascii_run_end(p, n, 64);
    }
  }
  for (; n - i >= 64; i += 64) {
    const __m256i lo = load(p + i), hi = load(p + i + 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0) {
      if (UTF8DFA_UNLIKELY(any(incomplete))) return i;  // a character cut before the ASCII
      i = ascii_run_end(p, n, i + 64) - 64;
      continue;
    }
    const __m256i err = _mm256_or_si256(check_at(check, p + i, lo), check_at(check, p + i + 32, hi));
    if (UTF8DFA_UNLIKELY(any(err))) return i;
    incomplete = ends_incomplete(hi);
  }
  // The last 1..63 bytes: the last 32 after the 32 before them, and those after the 32 before them
  // when more than 32 are left (then i >= 64 and n >= 96); re-checking bytes that passed is harmless.
  __m256i err = incomplete;
  if (i < n) {
    const __m256i lo = load(p + n - 64), hi = load(p + n - 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) != 0) {
      err = _mm256_or_si256(check(hi, lo), ends_incomplete(hi));
      if (n - i > 32) err = _mm256_or_si256(err, check(lo, load(p + n - 96)));
    }
  }
  if (UTF8DFA_UNLIKELY(any(err))) return i;
  return blocks_pass;
}

/// rescan_from, out of line (the scalar DFA after a failing check).
UTF8DFA_NOINLINE inline packed_validation rescan_after(const unsigned char* p, std::size_t n, std::size_t b) noexcept {
  return rescan_from(p, n, b);
}

/// validate_scalar's answer for 32 <= n < min_block_input, with no copy (a copy's stores delay the
/// loads that read it back): the first 32 bytes after zero bytes (ASCII), and the last 32 after the
/// 4 bytes before them (zero bytes where these are before the input). An input that fails is
/// validated again by the scalar DFA, which says where and why.
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline packed_validation validate_short(const unsigned char* p,
                                                                             std::size_t n) noexcept {
  const std::size_t q = n - 32;  // where the last 32 bytes start (0..31)
  std::uint32_t before = 0;      // the 4 bytes before q, the last highest
  if (q >= 4) {
    std::memcpy(&before, p + q - 4, 4);
  } else if (q > 0) {
    std::memcpy(&before, p, 4);
    before <<= 8 * (4 - q);
  }
  const checker check;
  const __m256i lo = load(p), hi = load(p + q);
  const __m256i prev = _mm256_insert_epi32(_mm256_setzero_si256(), static_cast<int>(before), 7);
  const __m256i err =
      _mm256_or_si256(_mm256_or_si256(check(lo, _mm256_setzero_si256()), check(hi, prev)), ends_incomplete(hi));
  if (UTF8DFA_LIKELY(!any(err))) return {n, 0, error_code::none};
  UTF8DFA_LEAVE_AVX();
  return validate_scalar(p, n);
}

/// validate_scalar's answer: 64-byte blocks from 64 bytes up, one block over a padded copy from 32,
/// the scalar DFA below.
UTF8DFA_TARGET_AVX2 inline packed_validation validate(const unsigned char* p, std::size_t n) noexcept {
  if (UTF8DFA_LIKELY(n >= min_block_input)) {
    const std::size_t b = check_blocks(p, n);
    if (UTF8DFA_LIKELY(b == blocks_pass)) return {n, 0, error_code::none};
    return rescan_after(p, n, b);
  }
  UTF8DFA_LEAVE_AVX();
  return n < 32 ? validate_scalar(p, n) : validate_short(p, n);
}

/// Bytes that are not continuation bytes (80..BF are the signed bytes below -64). Each compare
/// gives -1 per such byte; byte counters (two, for independent chains) subtract them for up to 127
/// steps of 128 bytes (at most 254 per counter), then vpsadbw adds the counters into 64-bit sums;
/// n is 32 or more. (The limit is loaded, not built: GCC turns a compare with a known splat into a
/// min and an equality, two instructions.)
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t count_leads_long(const unsigned char* p,
                                                                         std::size_t n) noexcept {
  const __m256i limit = k8<0xBF>(), zero = _mm256_setzero_si256();
  __m256i sums = zero;
  std::size_t i = 0;
  while (n - i >= 128) {
    const std::size_t steps = (n - i) / 128 < 127 ? (n - i) / 128 : 127;
    __m256i acc0 = zero, acc1 = zero;
    for (std::size_t s = 0; s < steps; ++s, i += 128) {
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpgt_epi8(load(p + i), limit));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpgt_epi8(load(p + i + 32), limit));
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpgt_epi8(load(p + i + 64), limit));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpgt_epi8(load(p + i + 96), limit));
    }
    sums = _mm256_add_epi64(sums, _mm256_add_epi64(_mm256_sad_epu8(acc0, zero), _mm256_sad_epu8(acc1, zero)));
  }
  const __m128i half = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
  auto count = static_cast<std::size_t>(_mm_cvtsi128_si64(half)) +
               static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(half, half)));
  for (; n - i >= 32; i += 32)
    count += static_cast<std::size_t>(
        _mm_popcnt_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(load(p + i), limit)))));
  if (i < n) {  // the last 32 bytes, those before i left out
    const auto leads = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(load(p + n - 32), limit)));
    count += static_cast<std::size_t>(_mm_popcnt_u64(std::uint64_t{leads} >> (32 - (n - i))));
  }
  return count;
}

/// count_leads: from 512 bytes count_leads_long; 65 to 511 bytes a vector a step, the last one
/// overlapping (no registers to save, no loop set-up); 32 to 64 bytes two vectors without a branch
/// (at 64 B against simdutf haswell's utf32_length_from_utf8, worst corpus 0.71-0.82x -> 0.83-0.90x);
/// below, the scalar count.
UTF8DFA_TARGET_AVX2 inline std::size_t count_leads(const unsigned char* p, std::size_t n) noexcept {
  if (n >= 512) return count_leads_long(p, n);
  if (n < 32) {
    UTF8DFA_LEAVE_AVX();
    return count_leads_scalar(p, n);
  }
  const __m256i limit = k8<0xBF>();
  if (n <= 64) {  // two vectors, the second ending at n (its bytes before 32 left out): no branch
    const auto first = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(load(p), limit)));
    const auto last = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(load(p + n - 32), limit)));
    return static_cast<std::size_t>(_mm_popcnt_u32(first)) +
           static_cast<std::size_t>(_mm_popcnt_u64(std::uint64_t{last} >> (64 - n)));
  }
  std::size_t count = 0, i = 0;
  for (; n - i >= 32; i += 32)
    count += static_cast<std::size_t>(
        _mm_popcnt_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(load(p + i), limit)))));
  if (i < n) {
    const auto leads = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(load(p + n - 32), limit)));
    count += static_cast<std::size_t>(_mm_popcnt_u64(std::uint64_t{leads} >> (32 - (n - i))));
  }
  return count;
}

/// utf16_length from i on (count: the units before i): 32 bytes a step, the last one overlapping.
UTF8DFA_TARGET_AVX2 UTF8DFA_ALWAYS_INLINE std::size_t utf16_length_from(const unsigned char* p, std::size_t n,
                                                                        std::size_t i, std::size_t count) noexcept {
  const __m256i cont_limit = k8<0xBF>(), four_limit = k8<lead4_min - 1u>();
  for (; n - i >= 32; i += 32) {
    const __m256i in = load(p + i);
    const unsigned leads = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(in, cont_limit)));
    // Signed: F0..FF are -16..-1, the only negative bytes above -17.
    const unsigned fours =
        static_cast<unsigned>(_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpgt_epi8(in, four_limit), in)));
    count += static_cast<std::size_t>(_mm_popcnt_u32(leads)) + static_cast<std::size_t>(_mm_popcnt_u32(fours));
  }
  if (i < n && n >= 32) {  // the last 32 bytes, those before i left out
    const __m256i in = load(p + n - 32);
    const std::uint64_t leads = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpgt_epi8(in, cont_limit)));
    const std::uint64_t fours =
        static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpgt_epi8(in, four_limit), in)));
    const unsigned skip = static_cast<unsigned>(32 - (n - i));
    return count + static_cast<std::size_t>(_mm_popcnt_u64(leads >> skip) + _mm_popcnt_u64(fours >> skip));
  }
  UTF8DFA_LEAVE_AVX();
  return count + utf16_length_scalar(p + i, n - i);
}

/// utf16_length of 128 bytes or more: as count_leads_long, with each byte F0..FF subtracted once
/// more (at most 4 a counter per step, so 63 steps between the sums).
UTF8DFA_TARGET_AVX2 UTF8DFA_NOINLINE inline std::size_t utf16_length_long(const unsigned char* p,
                                                                          std::size_t n) noexcept {
  const __m256i limit = k8<0xBF>(), four = splat(lead4_min), zero = _mm256_setzero_si256();
  __m256i sums = zero;
  std::size_t i = 0;
  while (n - i >= 128) {
    const std::size_t steps = (n - i) / 128 < 63 ? (n - i) / 128 : 63;
    __m256i acc0 = zero, acc1 = zero;
    for (std::size_t s = 0; s < steps; ++s, i += 128) {
      const __m256i a = load(p + i), b = load(p + i + 32), c = load(p + i + 64), d = load(p + i + 96);
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpgt_epi8(a, limit));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpgt_epi8(b, limit));
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpeq_epi8(_mm256_max_epu8(a, four), a));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpeq_epi8(_mm256_max_epu8(b, four), b));
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpgt_epi8(c, limit));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpgt_epi8(d, limit));
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpeq_epi8(_mm256_max_epu8(c, four), c));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpeq_epi8(_mm256_max_epu8(d, four), d));
    }
    sums = _mm256_add_epi64(sums, _mm256_add_epi64(_mm256_sad_epu8(acc0, zero), _mm256_sad_epu8(acc1, zero)));
  }
  const __m128i half = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
  const auto count = static_cast<std::size_t>(_mm_cvtsi128_si64(half)) +
                     static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(half, half)));
  return utf16_length_from(p, n, i, count);
}

/// UTF-16 units of well-formed input: leads, plus one more for each 4-byte lead (F0..FF).
UTF8DFA_TARGET_AVX2 inline std::size_t utf16_length(const unsigned char* p, std::size_t n) noexcept {
  if (n >= 128) return utf16_length_long(p, n);
  return utf16_length_from(p, n, 0, 0);
}

}  // namespace avx2
}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa
#endif

#endif
