// utf8dfa: streaming validation and decoding. Input arrives in chunks of any size (0 and 1 byte
// included); the DFA state and the at most 3 bytes of an unfinished character are carried from one
// chunk to the next, so every result (code points, replacements, error offsets counted from the
// start of the stream, kinds, lengths) is the one the one-shot functions give on the whole input,
// wherever the chunks were cut.
//
// Inside a chunk the bulk (SIMD-dispatched) functions do the work; the byte-wise DFA (`detail::step`)
// runs only on the few bytes that straddle a chunk edge.
#ifndef UTF8DFA_STREAM_HPP
#define UTF8DFA_STREAM_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "boundary.hpp"
#include "detail/bytes.hpp"
#include "detail/dfa.hpp"
#include "detail/scalar.hpp"
#include "dialect.hpp"
#include "error.hpp"
#include "policy.hpp"
#include "transcode.hpp"
#include "validate.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {

namespace detail {

/// Where the unfinished character at the end of [p, p+n) starts: the last lead byte, within three
/// bytes of the end, whose valid prefix runs out at the end; n when the input ends on a boundary.
/// Every non-continuation byte starts a new character or ill-formed subpart, so [0, result) ends on
/// a boundary of the whole stream's segmentation.
template <class T>
constexpr std::size_t unfinished_tail(const T* p, std::size_t n) noexcept {
  for (std::size_t k = 1; k <= 3 && k <= n; ++k)
    if (!is_continuation(octet(p[n - k]))) return decode_at(p, n, n - k).error == error_code::incomplete ? n - k : n;
  return n;
}

/// What a chunk boundary leaves behind: the DFA state, the bytes of an unfinished character, the
/// stream position and the first error. Shared by validator and decoder.
struct stream_state {
  std::uint64_t state = s_accept;  // shift-form DFA state after the pending bytes
  std::uint8_t pending[4]{};       // the unfinished character (at most 3 bytes, one spare)
  std::uint8_t npending = 0;
  std::size_t position = 0;                         // bytes consumed since the start of the stream
  validation_result first{0, 0, error_code::none};  // the first error of the stream

  void note_error(std::size_t offset, std::size_t length, error_code kind) noexcept {
    if (first.error == error_code::none) first = {offset, length, kind};
  }

  enum class edge { waiting, completed, rejected };

  /// Continues the unfinished character with p[i..n). `completed`: pending[0..npending) is now a
  /// whole character; `rejected`: the error is noted and p[i] (not consumed) must be read as a new
  /// lead; `waiting`: the chunk ran out first.
  template <class T>
  edge continue_pending(const T* p, std::size_t n, std::size_t& i) noexcept {
    while (i < n) {
      const std::uint8_t b = octet(p[i]);
      const std::uint64_t next = step(state, b) & state_mask;
      if (next == s_reject) {
        note_error(position - npending, npending, reject_kind(state, b));
        npending = 0;
        state = s_accept;
        return edge::rejected;
      }
      pending[npending++] = b;
      ++i;
      ++position;
      state = next;
      if (next == s_accept) return edge::completed;
    }
    return edge::waiting;
  }

  /// Keeps the unfinished character p[0..n) (n <= 3) for the next chunk.
  template <class T>
  void hold(const T* p, std::size_t n) noexcept {
    for (std::size_t k = 0; k < n; ++k) {
      pending[npending++] = octet(p[k]);
      state = step(state, octet(p[k])) & state_mask;
    }
  }

  /// The status of the stream so far, as validate() reports it.
  validation_result status() const noexcept {
    if (first.error != error_code::none) return first;
    return {position - npending, 0, error_code::none};
  }

  /// End of input: an unfinished character is `incomplete` (error length 0, as validate says).
  /// Returns true when there was one.
  bool end() noexcept {
    if (npending == 0) return false;
    note_error(position - npending, 0, error_code::incomplete);
    npending = 0;
    state = s_accept;
    return true;
  }
};

/// The streaming core of the dialects other than utf8: the DFA byte by byte across chunk edges,
/// exactly as decode_with walks the whole input (the byte that rejects a partial character is read
/// again as a lead). `emit(c, bytes, length, offset, error)` receives every character (error none,
/// its bytes) and every maximal ill-formed subpart (U+FFFD, its kind; an unfinished one at the end
/// is `incomplete`). Members are named as stream_state's, so the public classes use either.
template <class D>
struct dialect_stream {
  using M = machine_of<D>;
  typename M::state at = M::start;  // boundary state at the start of the pending character
  typename M::state state = M::start;
  std::uint8_t pending[dialect_traits<D>::max_length]{};
  std::uint8_t npending = 0;
  std::size_t position = 0;
  validation_result first{0, 0, error_code::none};

  void note_error(std::size_t offset, std::size_t length, error_code kind) noexcept {
    if (first.error == error_code::none) first = {offset, length, kind};
  }

  validation_result status() const noexcept {
    if (first.error != error_code::none) return first;
    return {position - npending, 0, error_code::none};
  }

  /// Runs p[0..n); with `stop`, nothing after the first error (noted here or by emit) is read.
  template <class Emit>
  void run(const unsigned char* p, std::size_t n, bool stop, Emit&& emit) {
    for (std::size_t i = 0; i < n;) {
      if (stop && first.error != error_code::none) return;
      const std::uint8_t b = p[i];
      if (npending == 0) {
        const typename M::state nx = M::advance(at, b);
        if (M::rejected(nx)) {
          note_error(position, 1, M::why(at, b));
          emit(replacement_character, p + i, std::size_t{1}, position, M::why(at, b));
          at = M::start;
        } else if (M::boundary(nx)) {
          emit(static_cast<char32_t>(b), p + i, std::size_t{1}, position, error_code::none);
          at = nx;
        } else {
          state = nx;
          pending[npending++] = b;
        }
        ++i;
        ++position;
        continue;
      }
      const typename M::state nx = M::advance(state, b);
      const std::size_t start = position - npending;
      if (M::rejected(nx)) {  // b is not consumed: it starts the next character
        const error_code e = M::why(state, b);
        note_error(start, npending, e);
        emit(replacement_character, pending, std::size_t{npending}, start, e);
        npending = 0;
        at = M::start;
        continue;
      }
      pending[npending++] = b;
      ++i;
      ++position;
      if (M::boundary(nx)) {
        typename M::state s = at;
        const decoded d = decode_with<M>(pending, npending, 0, s);
        emit(d.code_point, pending, std::size_t{npending}, start, error_code::none);
        npending = 0;
        at = nx;
      } else {
        state = nx;
      }
    }
  }

  /// End of input: an unfinished character is `incomplete` (error length 0). True when there was one.
  template <class Emit>
  bool end(Emit&& emit) {
    if (npending == 0) return false;
    const std::size_t start = position - npending;
    note_error(start, 0, error_code::incomplete);
    emit(replacement_character, pending, std::size_t{npending}, start, error_code::incomplete);
    npending = 0;
    at = M::start;
    return true;
  }
};

/// What the public classes keep between chunks: stream_state for strict UTF-8 (its bulk kernels
/// inside a chunk), dialect_stream for the others.
template <class D>
using stream_of = std::conditional_t<is_strict_v<D>, stream_state, dialect_stream<D>>;

struct ignore_emit {
  template <class... A>
  void operator()(const A&...) const noexcept {}
};

}  // namespace detail

/// Streaming validation: call feed() with consecutive chunks, then finish(). The first error stops
/// it; its `valid_up_to` is counted from the start of the stream. Results equal validate() (in
/// `Dialect`) on the concatenated input for every way of cutting it into chunks. `validator` is
/// basic_validator<dialect::utf8>.
template <class Dialect = dialect::utf8>
class basic_validator {
  static_assert(detail::is_dialect_v<Dialect>, "Dialect is one of the utf8dfa::dialect tags");

 public:
  /// Checks the next chunk. Returns the status so far: no error while everything fed is well-formed
  /// or ends inside a character more input may complete (`valid_up_to` then counts the complete
  /// characters' bytes); otherwise the first error. Input after an error is ignored.
  template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
  validation_result feed(const Bytes& bytes) noexcept {
    const auto s = detail::as_span(bytes);
    return feed_bytes(detail::as_uchars(s.data), s.size);
  }

  /// Same, for a pointer and a length.
  template <class T, detail::enable_if_byte<T> = 0>
  validation_result feed(const T* data, std::size_t size) noexcept {
    return feed_bytes(detail::as_uchars(data), size);
  }

  /// Ends the stream and returns what validate() gives on all of it: an unfinished last character
  /// is `incomplete` with error_length 0. Call reset() to start a new stream.
  validation_result finish() noexcept {
    if constexpr (detail::is_strict_v<Dialect>) {
      if (!failed() && s_.end()) s_.position = s_.first.valid_up_to;
    } else {
      if (!failed() && s_.end(detail::ignore_emit{})) s_.position = s_.first.valid_up_to;
    }
    return s_.status();
  }

  /// The status so far (what the last feed() returned).
  validation_result result() const noexcept { return s_.status(); }
  /// True once an error has been found.
  bool failed() const noexcept { return s_.first.error != error_code::none; }
  /// Bytes fed so far; once an error is found, its offset (where checking stopped).
  std::size_t position() const noexcept { return s_.position; }
  /// Bytes of an unfinished character waiting for the next chunk (0..3; 0..5 in CESU-8, MUTF-8, legacy).
  std::size_t pending() const noexcept { return s_.npending; }
  /// Forgets everything: a new stream starts at offset 0.
  void reset() noexcept { s_ = {}; }

 private:
  validation_result feed_bytes(const unsigned char* p, std::size_t n) noexcept {
    if (failed()) return s_.first;
    if constexpr (!detail::is_strict_v<Dialect>) {
      s_.run(p, n, true, detail::ignore_emit{});
      if (failed()) s_.position = s_.first.valid_up_to;
      return s_.status();
    } else {
      return feed_strict(p, n);
    }
  }

  validation_result feed_strict(const unsigned char* p, std::size_t n) noexcept {
    std::size_t i = 0;
    if (s_.npending != 0) {
      const auto e = s_.continue_pending(p, n, i);
      if (e == detail::stream_state::edge::rejected) {
        s_.position = s_.first.valid_up_to;
        return s_.first;
      }
      if (e == detail::stream_state::edge::waiting) return s_.status();
      s_.npending = 0;
    }
    p += i;
    n -= i;
    const std::size_t cut = detail::unfinished_tail(p, n);
    const validation_result v = validate(p, cut);
    if (v.error != error_code::none) {
      // An unfinished character at `cut` was broken off by the lead byte at `cut`.
      const bool cut_off = v.error == error_code::incomplete;
      s_.note_error(s_.position + v.valid_up_to, cut_off ? cut - v.valid_up_to : v.error_length,
                    cut_off ? error_code::too_short : v.error);
      s_.position += v.valid_up_to;
      return s_.first;
    }
    s_.hold(p + cut, n - cut);
    s_.position += n;
    return s_.status();
  }

  detail::stream_of<Dialect> s_;
};

/// The streaming validator of strict UTF-8.
using validator = basic_validator<>;

/// What one decoder::feed() or finish() call did.
template <class OutputIt>
struct feed_result {
  OutputIt out;         ///< one past the last unit written
  std::size_t written;  ///< units written by this call
  error_code error;     ///< the stream's first error so far (strict: the one that stopped it), or none
  constexpr explicit operator bool() const noexcept { return error == error_code::none; }
};

/// What a decoder does with a byte order mark (EF BB BF) that starts the stream.
enum class bom_handling : std::uint8_t {
  keep,  ///< U+FEFF like any other character (the default; RFC 3629 section 6)
  strip  ///< dropped, also when split across chunks (WHATWG TextDecoder with ignoreBOM false)
};

/// Streaming UTF-8 decoder to UTF-32 (Unit = char32_t), UTF-16 (Unit = char16_t) or checked UTF-8
/// (a byte type such as char: well-formed input is copied, which makes decoder<replace, char> a
/// streaming sanitizer). Feed it consecutive chunks, then call finish(). Under `strict` it stops
/// at the first error; under `replace` it writes one replacement per maximal ill-formed subpart,
/// under `skip` nothing for it.
/// The units written by all calls together, and result(), equal the one-shot utf8_to_utf32 /
/// utf8_to_utf16 output (re-encoded, for UTF-8) and validate() of the whole input, for every way
/// of cutting it into chunks. `Dialect` reads the input in another dialect (dialect.hpp): UTF-32/
/// UTF-16 output is then what utf8_to_utf32 / utf8_to_utf16 write in that dialect, and byte output
/// copies the dialect's well-formed characters (a streaming sanitizer of that dialect).
template <class Policy = strict, class Unit = char32_t, class Dialect = dialect::utf8>
class decoder {
  static_assert(sizeof(Unit) == 4 || sizeof(Unit) == 2 || detail::is_byte_v<Unit>,
                "decoder writes char32_t (UTF-32), char16_t (UTF-16) or a byte type (UTF-8)");
  static_assert(detail::is_dialect_v<Dialect>, "Dialect is one of the utf8dfa::dialect tags");

 public:
  using unit_type = Unit;

  /// A decoder at the start of a stream. With bom_handling::strip a leading EF BB BF writes nothing
  /// (offsets still count its bytes); a prefix of it followed by anything else, or by the end of the
  /// input, is decoded as without the option.
  constexpr explicit decoder(Policy policy = {}, bom_handling bom = bom_handling::keep) noexcept
      : policy_(policy), strip_bom_(bom == bom_handling::strip), bom_(strip_bom_ ? 0 : bom_done) {}

  /// Most units one feed() of `size` bytes writes through a pointer (finish(): max_output(0)).
  /// Byte output in a dialect other than utf8 allows 6 bytes per input byte (a supplementary
  /// replacement character is two 3-byte surrogates in CESU-8 and MUTF-8).
  static constexpr std::size_t max_output(std::size_t size) noexcept {
    return (size + 1) * (sizeof(Unit) == 4 ? 1 : sizeof(Unit) == 2 ? 2 : detail::is_strict_v<Dialect> ? 4 : 6);
  }

  /// Decodes the next chunk into `out`, which must have room for max_output(size) units. Under
  /// strict, input from the first error on is ignored (result() says where it is).
  template <class Bytes, detail::enable_if_bytes<Bytes> = 0>
  feed_result<Unit*> feed(const Bytes& bytes, Unit* out) noexcept {
    const auto s = detail::as_span(bytes);
    const std::size_t w = feed_units(detail::as_uchars(s.data), s.size, out);
    return {out + w, w, s_.first.error};
  }

  /// Decodes the next chunk to any output iterator of Unit (e.g. std::back_inserter(u32string)).
  template <class Bytes, class OutputIt, detail::enable_if_bytes<Bytes> = 0>
  feed_result<OutputIt> feed(const Bytes& bytes, OutputIt out) {
    const auto s = detail::as_span(bytes);
    const unsigned char* p = detail::as_uchars(s.data);
    std::size_t n = s.size, total = 0;
    Unit buf[max_output(piece)];
    do {  // in pieces through a small buffer; cutting a chunk is as harmless as cutting the stream
      const std::size_t m = n < piece ? n : piece;
      const std::size_t w = feed_units(p, m, buf);
      for (std::size_t k = 0; k < w; ++k) *out++ = buf[k];
      total += w;
      p += m;
      n -= m;
    } while (n != 0);
    return {out, total, s_.first.error};
  }

  /// Same, for a pointer and a length (both output forms).
  template <class T, detail::enable_if_byte<T> = 0>
  feed_result<Unit*> feed(const T* data, std::size_t size, Unit* out) noexcept {
    return feed(detail::byte_span_range<T>{data, size}, out);
  }
  template <class T, class OutputIt, detail::enable_if_byte<T> = 0>
  feed_result<OutputIt> feed(const T* data, std::size_t size, OutputIt out) {
    return feed(detail::byte_span_range<T>{data, size}, out);
  }

  /// Ends the stream: an unfinished last character is an `incomplete` error (strict) or one
  /// replacement (replace). Writes at most max_output(0) units. Call reset() to start a new stream.
  template <class OutputIt>
  feed_result<OutputIt> finish(OutputIt out) {
    release_bom();
    std::size_t w = 0;
    if constexpr (!detail::is_strict_v<Dialect>) {
      if (!stopped()) {
        Unit buf[max_output(0)];
        Unit* o = buf;
        if (s_.end(emitter(o))) {
          if constexpr (Policy::stops_on_error) s_.position = s_.first.valid_up_to;
        }
        w = static_cast<std::size_t>(o - buf);
        for (std::size_t k = 0; k < w; ++k) *out++ = buf[k];
      }
    } else if (!stopped() && s_.end()) {
      if constexpr (Policy::stops_on_error) {
        s_.position = s_.first.valid_up_to;
      } else {
        Unit buf[4];
        w = static_cast<std::size_t>(put_replacement(buf, policy_) - buf);
        for (std::size_t k = 0; k < w; ++k) *out++ = buf[k];
      }
    }
    return {out, w, s_.first.error};
  }

  /// The stream's status as validate() reports it: the first error (offset from the start of the
  /// stream, length, kind), or none with `valid_up_to` counting the complete characters' bytes.
  validation_result result() const noexcept { return s_.status(); }
  /// Bytes fed so far; under strict, once an error is found, its offset (where decoding stopped).
  std::size_t position() const noexcept { return s_.position + held(); }
  /// Bytes of an unfinished character waiting for the next chunk (0..3; 0..5 in CESU-8, MUTF-8, legacy;
  /// with bom_handling::strip, also the 1 or 2 bytes of a BOM that may still be completed).
  std::size_t pending() const noexcept { return s_.npending + held(); }
  /// Forgets everything: a new stream starts at offset 0 (with the same bom_handling).
  void reset() noexcept {
    s_ = {};
    bom_ = strip_bom_ ? 0 : bom_done;
  }

 private:
  static constexpr std::size_t piece = 256;
  static constexpr std::uint8_t bom_done = 0xFF;  // bom_: the start of the stream is decided

  // BOM bytes matched and held back (0..2) while the start of the stream is undecided.
  std::size_t held() const noexcept { return bom_ == bom_done ? 0 : bom_; }

  // Hands the held BOM prefix (EF or EF BB) to the decoder: an unfinished character in every
  // dialect, so it writes nothing.
  void release_bom() noexcept {
    if (bom_ == bom_done) return;
    const std::size_t n = bom_;
    bom_ = bom_done;
    Unit none[max_output(2)];
    run(detail::bom, n, none);
  }

  // Matches the start of the stream against EF BB BF (bom_handling::strip): consumes and returns the
  // bytes of p[0..n) that belong to the BOM, or releases the held prefix when the stream turns out
  // not to start with one.
  std::size_t match_bom(const unsigned char* p, std::size_t n) noexcept {
    std::size_t i = 0;
    while (i < n && bom_ < 3 && p[i] == detail::bom[bom_]) {
      ++bom_;
      ++i;
    }
    if (bom_ == 3) {  // the whole BOM: dropped, counted in the offsets
      bom_ = bom_done;
      s_.position += 3;
    } else if (i < n) {  // a byte that is not the BOM's next one
      release_bom();
    }
    return i;
  }

  bool stopped() const noexcept { return Policy::stops_on_error && s_.first.error != error_code::none; }

  // Writes one scalar value.
  static Unit* put(Unit* o, char32_t c) noexcept {
    if constexpr (sizeof(Unit) == 1)
      return o + detail::put_utf8(o, c);
    else
      return detail::put_unit(o, c);
  }

  // Writes the replacement for one error under policy `pol` (nothing under skip).
  template <class P>
  static Unit* put_replacement(Unit* o, [[maybe_unused]] const P& pol) noexcept {
    if constexpr (detail::skips_errors_v<P>)
      return o;
    else if constexpr (sizeof(Unit) == 1 && !detail::is_strict_v<Dialect>)
      return o + detail::dialect_traits<Dialect>::put(o, pol.replacement_value());
    else
      return put(o, pol.replacement_value());
  }

  // The bulk conversion of [p, p+n) under policy `pol`, as the one-shot functions do it.
  template <class P>
  static conversion_result convert(const unsigned char* p, std::size_t n, Unit* out, P pol) noexcept {
    const detail::byte_span_range<unsigned char> in{p, n};
    if constexpr (sizeof(Unit) == 4) {
      return utf8_to_utf32(in, out, pol);
    } else if constexpr (sizeof(Unit) == 2) {
      return utf8_to_utf16(in, out, pol);
    } else {  // UTF-8: copy what validate() accepts, replace each maximal ill-formed subpart
      std::size_t i = 0;
      Unit* o = out;
      error_code first = error_code::none;
      while (i < n) {
        const validation_result v = validate(p + i, n - i);
        if (v.valid_up_to != 0) std::memcpy(o, p + i, v.valid_up_to);
        o += v.valid_up_to;
        i += v.valid_up_to;
        if (v.error == error_code::none) break;
        if constexpr (P::stops_on_error) return {i, static_cast<std::size_t>(o - out), v.error};
        if (first == error_code::none) first = v.error;
        o = put_replacement(o, pol);
        i = v.error == error_code::incomplete ? n : i + v.error_length;  // incomplete: the rest
      }
      return {n, static_cast<std::size_t>(o - out), first};
    }
  }

  // Dialects: what the stream core reports, written as units (errors and characters the output
  // cannot hold replaced, or noted and stopping under strict).
  auto emitter(Unit*& o) noexcept {
    // ([&]: `this` is used by some instantiations only, and an unused explicit capture is a warning.)
    return [&](char32_t c, const std::uint8_t* bytes, std::size_t length, std::size_t offset, error_code e) {
      if (e == error_code::none) {
        if constexpr (sizeof(Unit) == 1) {
          for (std::size_t k = 0; k < length; ++k) *o++ = static_cast<Unit>(bytes[k]);
          return;
        } else {
          e = detail::unrepresentable<Dialect, Unit>(c);
          if (e == error_code::none) {
            o = put(o, c);
            return;
          }
          s_.note_error(offset, length, e);
        }
      }
      if constexpr (!Policy::stops_on_error) o = put_replacement(o, policy_);
    };
  }

  // One chunk: the start of the stream matched against a BOM first (bom_handling::strip), then run.
  std::size_t feed_units(const unsigned char* p, std::size_t n, Unit* out) noexcept {
    if (bom_ != bom_done) {
      const std::size_t m = match_bom(p, n);
      p += m;
      n -= m;
    }
    return run(p, n, out);
  }

  // The whole algorithm: finish or break off the pending character byte by byte, hand the rest up
  // to its unfinished tail to the bulk functions, keep the tail.
  std::size_t run(const unsigned char* p, std::size_t n, Unit* out) noexcept {
    if (stopped()) return 0;
    if constexpr (!detail::is_strict_v<Dialect>) {
      Unit* o = out;
      s_.run(p, n, Policy::stops_on_error, emitter(o));
      if (stopped()) s_.position = s_.first.valid_up_to;
      return static_cast<std::size_t>(o - out);
    } else {
      return feed_strict(p, n, out);
    }
  }

  std::size_t feed_strict(const unsigned char* p, std::size_t n, Unit* out) noexcept {
    Unit* o = out;
    std::size_t i = 0;
    if (s_.npending != 0) {
      const auto e = s_.continue_pending(p, n, i);
      if (e == detail::stream_state::edge::waiting) return 0;
      if (e == detail::stream_state::edge::completed) {
        o = put(o, detail::decode_at(s_.pending, s_.npending, 0).code_point);
        s_.npending = 0;
      } else if constexpr (Policy::stops_on_error) {
        s_.position = s_.first.valid_up_to;
        return 0;
      } else {
        o = put_replacement(o, policy_);
      }
    }
    p += i;
    n -= i;
    const std::size_t cut = detail::unfinished_tail(p, n);
    std::size_t done = 0;
    if (Policy::stops_on_error || s_.first.error == error_code::none) {
      // Strict until the first error, so that it can be located and classified.
      const conversion_result r = convert(p, cut, o, strict{});
      o += r.written;
      done = r.read;
      if (r.error != error_code::none) {
        const decoded d = detail::decode_at(p, cut, r.read);
        // An unfinished character at `cut` was broken off by the lead byte at `cut`.
        s_.note_error(s_.position + r.read, d.length,
                      d.error == error_code::incomplete ? error_code::too_short : d.error);
        if constexpr (Policy::stops_on_error) {
          s_.position += r.read;
          return static_cast<std::size_t>(o - out);
        }
      }
    }
    if (done < cut) o += convert(p + done, cut - done, o, policy_).written;
    s_.hold(p + cut, n - cut);
    s_.position += n;
    return static_cast<std::size_t>(o - out);
  }

  detail::stream_of<Dialect> s_;
  Policy policy_;
  bool strip_bom_;    // bom_handling::strip
  std::uint8_t bom_;  // BOM bytes matched so far, or bom_done
};

}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif
