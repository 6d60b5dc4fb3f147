// Fuzz target: the bounded, resumable conversions and the transcoding views. The first byte picks
// one of the bounded conversions (UTF-8 <-> UTF-16/32, UTF-16 <-> UTF-32, the LE/BE forms,
// Latin-1 to and from UTF-8/16/32) or a view (as_utf8/16/32 over UTF-8, UTF-16 or UTF-32); the
// second the policy and the replacement; the rest is the input.
//  - Bounded: calls with capacities drawn from the input, each resuming at the last one's `read`:
//    each writes at most its capacity, stops only where the next character does not fit, and the
//    pieces joined equal one unbounded call and the reference (with the first error's kind).
//  - Views: the forward iteration equals the reference, with each unit's offset(), length() and
//    error() those of the reference's step; the backward iteration, reversed, equals it; with
//    replace{} and skip{} it equals the bulk _lossy function where there is one.
// Each under every kernel.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "reference_units.hpp"

namespace fuzz_bounded_views {

using fuzzref::pol;
using utf8dfa::conversion_result;
using utf8dfa::error_code;

/// The input in each form it can be read as.
struct input {
  const unsigned char* bytes;
  std::size_t size;
  std::u16string u16;
  std::u32string u32;
};

enum class form { utf8, utf16, utf32, latin1 };

/// Output units the reference writes for one step under `p` (0 for a skipped error).
template <class Out>
std::size_t step_width(const fuzzref::unit_step& s, pol p, char32_t repl, bool latin1) {
  error_code e = s.error;
  if (e == error_code::none && latin1 && s.cp > 0xFF) e = error_code::unrepresentable;
  if (e != error_code::none && p == pol::skip) return 0;
  if (latin1) return 1;
  std::basic_string<Out> t;
  fuzzref::put(t, e == error_code::none ? s.cp : repl);
  return t.size();
}

template <class Out>
Out swapped(Out u) {
  if constexpr (sizeof(Out) == 2)
    return fuzzref::swap16(u);
  else if constexpr (sizeof(Out) == 4)
    return fuzzref::swap32(u);
  else
    return u;
}

/// Calls bounded(q, m, out, cap) from each `read` on, with capacities drawn from `rng`, and checks
/// the joined output against unbounded(q, m, out) and the reference. `swap`: the output is in the
/// other byte order than the host's (the reference is in host order).
template <class Out, class In, class B, class U>
void resume(const In* p, std::size_t n, const std::vector<fuzzref::unit_step>& steps, pol policy, char32_t repl,
            bool latin1, bool swap, fuzzref::byte_rng& rng, B bounded, U unbounded) {
  const fuzzref::converted<Out> ref = fuzzref::convert<Out>(steps, n, policy, repl, latin1);
  // One unbounded call, into a buffer of a size no input reaches (4 units per input unit).
  const std::size_t most = 4 * n + 4;
  std::unique_ptr<Out[]> whole(new Out[most]);
  const conversion_result u = unbounded(p, n, whole.get());
  FUZZ_CHECK(u.read == ref.r.read && u.written == ref.r.written && u.error == ref.r.error);
  std::basic_string<Out> got(whole.get(), u.written);
  if (swap)
    for (Out& c : got) c = swapped(c);
  FUZZ_CHECK(got == ref.out);

  // Where each step starts, to find the step after a call's end.
  std::vector<std::size_t> step_at(n + 1, steps.size());
  for (std::size_t k = 0; k < steps.size(); ++k) step_at[steps[k].at] = k;

  std::basic_string<Out> joined;
  std::size_t pos = 0, calls = 0;
  bool stalled = false;
  error_code first = error_code::none;
  for (;;) {
    const unsigned v = rng.next();
    // After a call that wrote and read nothing, room for the widest character (4 units).
    const std::size_t drawn = v < 192 ? v % 9 : (v - 192) * 8;
    const std::size_t cap = stalled && drawn < 4 ? 4 : drawn;
    // A buffer of exactly the capacity: ASan sees any write past it.
    std::unique_ptr<Out[]> buf(new Out[cap]);
    const conversion_result r = bounded(p + pos, n - pos, buf.get(), cap);
    FUZZ_CHECK(r.written <= cap && r.read <= n - pos);
    joined.append(buf.get(), r.written);
    stalled = r.read == 0 && r.written == 0;
    pos += r.read;
    if (first == error_code::none) first = r.error;
    if (policy == pol::strict && r.error != error_code::none) break;
    if (pos == n) break;
    // Stopped early: at a step's start, before a step that does not fit in what was left.
    FUZZ_CHECK(step_at[pos] < steps.size());
    std::size_t k = step_at[pos];
    while (k < steps.size() && step_width<Out>(steps[k], policy, repl, latin1) == 0) ++k;
    const bool strict_error_next = policy == pol::strict && steps[step_at[pos]].error != error_code::none;
    if (k < steps.size() && !strict_error_next)
      FUZZ_CHECK(step_width<Out>(steps[k], policy, repl, latin1) > cap - r.written);
    FUZZ_CHECK(++calls <= 2 * n + 2);
  }
  FUZZ_CHECK(pos == u.read && first == u.error);
  if (swap)
    for (Out& c : joined) c = swapped(c);
  FUZZ_CHECK(joined == ref.out);
}

template <class Out, class In, class Policy, class B, class U>
void run_bounded(const input& in, form f, pol p, Policy policy, char32_t repl, bool latin1, bool swap,
                 fuzzref::byte_rng& rng, B bounded, U unbounded) {
  (void)policy;
  if constexpr (sizeof(In) == 1) {
    const auto steps =
        f == form::latin1 ? fuzzref::steps_latin1(in.bytes, in.size) : fuzzref::steps_utf8(in.bytes, in.size);
    resume<Out>(in.bytes, in.size, steps, p, repl, latin1, swap, rng, bounded, unbounded);
  } else if constexpr (sizeof(In) == 2) {
    resume<Out>(in.u16.data(), in.u16.size(), fuzzref::steps_utf16(in.u16.data(), in.u16.size()), p, repl, latin1, swap,
                rng, bounded, unbounded);
  } else {
    resume<Out>(in.u32.data(), in.u32.size(), fuzzref::steps_utf32(in.u32.data(), in.u32.size()), p, repl, latin1, swap,
                rng, bounded, unbounded);
  }
}

inline std::string_view sv(const unsigned char* q, std::size_t m) {
  return std::string_view(reinterpret_cast<const char*>(q), m);
}

/// Stored-order UTF-16/32 of host-order units (LE input when Little).
template <bool Little, class Unit>
std::basic_string<Unit> stored(const Unit* p, std::size_t n) {
  std::basic_string<Unit> t(p, n);
  if (Little != utf8dfa::host_is_little_endian)
    for (Unit& u : t) u = swapped(u);
  return t;
}

/// The bounded conversion number `op` (0..19) under Policy.
template <class Policy>
void bounded_op(unsigned op, const input& in, pol p, Policy pl, char32_t repl, fuzzref::byte_rng& rng) {
  namespace u = utf8dfa;
  const bool le_host = u::host_is_little_endian;
  switch (op) {
    case 0:
      return run_bounded<char32_t, unsigned char>(
          in, form::utf8, p, pl, repl, false, false, rng,
          [&](const unsigned char* q, std::size_t m, char32_t* o, std::size_t c) {
            return u::utf8_to_utf32(sv(q, m), o, c, pl);
          },
          [&](const unsigned char* q, std::size_t m, char32_t* o) { return u::utf8_to_utf32(sv(q, m), o, pl); });
    case 1:
      return run_bounded<char16_t, unsigned char>(
          in, form::utf8, p, pl, repl, false, false, rng,
          [&](const unsigned char* q, std::size_t m, char16_t* o, std::size_t c) {
            return u::utf8_to_utf16(sv(q, m), o, c, pl);
          },
          [&](const unsigned char* q, std::size_t m, char16_t* o) { return u::utf8_to_utf16(sv(q, m), o, pl); });
    case 2:
      return run_bounded<char, char16_t>(
          in, form::utf16, p, pl, repl, false, false, rng,
          [&](const char16_t* q, std::size_t m, char* o, std::size_t c) {
            return u::utf16_to_utf8(std::u16string_view(q, m), o, c, pl);
          },
          [&](const char16_t* q, std::size_t m, char* o) {
            return u::utf16_to_utf8(std::u16string_view(q, m), o, pl);
          });
    case 3:
      return run_bounded<char, char32_t>(
          in, form::utf32, p, pl, repl, false, false, rng,
          [&](const char32_t* q, std::size_t m, char* o, std::size_t c) {
            return u::utf32_to_utf8(std::u32string_view(q, m), o, c, pl);
          },
          [&](const char32_t* q, std::size_t m, char* o) {
            return u::utf32_to_utf8(std::u32string_view(q, m), o, pl);
          });
    case 4:
      return run_bounded<char32_t, char16_t>(
          in, form::utf16, p, pl, repl, false, false, rng,
          [&](const char16_t* q, std::size_t m, char32_t* o, std::size_t c) {
            return u::utf16_to_utf32(std::u16string_view(q, m), o, c, pl);
          },
          [&](const char16_t* q, std::size_t m, char32_t* o) {
            return u::utf16_to_utf32(std::u16string_view(q, m), o, pl);
          });
    case 5:
      return run_bounded<char16_t, char32_t>(
          in, form::utf32, p, pl, repl, false, false, rng,
          [&](const char32_t* q, std::size_t m, char16_t* o, std::size_t c) {
            return u::utf32_to_utf16(std::u32string_view(q, m), o, c, pl);
          },
          [&](const char32_t* q, std::size_t m, char16_t* o) {
            return u::utf32_to_utf16(std::u32string_view(q, m), o, pl);
          });
    case 6:
      return run_bounded<char16_t, unsigned char>(
          in, form::utf8, p, pl, repl, false, !le_host, rng,
          [&](const unsigned char* q, std::size_t m, char16_t* o, std::size_t c) {
            return u::utf8_to_utf16le(sv(q, m), o, c, pl);
          },
          [&](const unsigned char* q, std::size_t m, char16_t* o) { return u::utf8_to_utf16le(sv(q, m), o, pl); });
    case 7:
      return run_bounded<char16_t, unsigned char>(
          in, form::utf8, p, pl, repl, false, le_host, rng,
          [&](const unsigned char* q, std::size_t m, char16_t* o, std::size_t c) {
            return u::utf8_to_utf16be(sv(q, m), o, c, pl);
          },
          [&](const unsigned char* q, std::size_t m, char16_t* o) { return u::utf8_to_utf16be(sv(q, m), o, pl); });
    case 8:
    case 9: {
      // UTF-16LE / BE input: the reference reads the host-order units, the library their stored form.
      const bool little = op == 8;
      const std::u16string st =
          little ? stored<true>(in.u16.data(), in.u16.size()) : stored<false>(in.u16.data(), in.u16.size());
      return run_bounded<char, char16_t>(
          in, form::utf16, p, pl, repl, false, false, rng,
          [&](const char16_t* q, std::size_t m, char* o, std::size_t c) {
            const std::u16string_view s(st.data() + (q - in.u16.data()), m);
            return little ? u::utf16le_to_utf8(s, o, c, pl) : u::utf16be_to_utf8(s, o, c, pl);
          },
          [&](const char16_t* q, std::size_t m, char* o) {
            const std::u16string_view s(st.data() + (q - in.u16.data()), m);
            return little ? u::utf16le_to_utf8(s, o, pl) : u::utf16be_to_utf8(s, o, pl);
          });
    }
    case 10:
      return run_bounded<char32_t, unsigned char>(
          in, form::utf8, p, pl, repl, false, !le_host, rng,
          [&](const unsigned char* q, std::size_t m, char32_t* o, std::size_t c) {
            return u::utf8_to_utf32le(sv(q, m), o, c, pl);
          },
          [&](const unsigned char* q, std::size_t m, char32_t* o) { return u::utf8_to_utf32le(sv(q, m), o, pl); });
    case 11:
      return run_bounded<char32_t, unsigned char>(
          in, form::utf8, p, pl, repl, false, le_host, rng,
          [&](const unsigned char* q, std::size_t m, char32_t* o, std::size_t c) {
            return u::utf8_to_utf32be(sv(q, m), o, c, pl);
          },
          [&](const unsigned char* q, std::size_t m, char32_t* o) { return u::utf8_to_utf32be(sv(q, m), o, pl); });
    case 12:
    case 13: {
      const bool little = op == 12;
      const std::u32string st =
          little ? stored<true>(in.u32.data(), in.u32.size()) : stored<false>(in.u32.data(), in.u32.size());
      return run_bounded<char, char32_t>(
          in, form::utf32, p, pl, repl, false, false, rng,
          [&](const char32_t* q, std::size_t m, char* o, std::size_t c) {
            const std::u32string_view s(st.data() + (q - in.u32.data()), m);
            return little ? u::utf32le_to_utf8(s, o, c, pl) : u::utf32be_to_utf8(s, o, c, pl);
          },
          [&](const char32_t* q, std::size_t m, char* o) {
            const std::u32string_view s(st.data() + (q - in.u32.data()), m);
            return little ? u::utf32le_to_utf8(s, o, pl) : u::utf32be_to_utf8(s, o, pl);
          });
    }
    case 14:
      return run_bounded<char, unsigned char>(
          in, form::latin1, pol::strict, pl, repl, false, false, rng,
          [&](const unsigned char* q, std::size_t m, char* o, std::size_t c) {
            return u::latin1_to_utf8(sv(q, m), o, c);
          },
          [&](const unsigned char* q, std::size_t m, char* o) {
            return conversion_result{m, u::latin1_to_utf8(sv(q, m), o), error_code::none};
          });
    case 15:
      return run_bounded<char16_t, unsigned char>(
          in, form::latin1, pol::strict, pl, repl, false, false, rng,
          [&](const unsigned char* q, std::size_t m, char16_t* o, std::size_t c) {
            return u::latin1_to_utf16(sv(q, m), o, c);
          },
          [&](const unsigned char* q, std::size_t m, char16_t* o) {
            return conversion_result{m, u::latin1_to_utf16(sv(q, m), o), error_code::none};
          });
    case 16:
      return run_bounded<char32_t, unsigned char>(
          in, form::latin1, pol::strict, pl, repl, false, false, rng,
          [&](const unsigned char* q, std::size_t m, char32_t* o, std::size_t c) {
            return u::latin1_to_utf32(sv(q, m), o, c);
          },
          [&](const unsigned char* q, std::size_t m, char32_t* o) {
            return conversion_result{m, u::latin1_to_utf32(sv(q, m), o), error_code::none};
          });
    default:
      break;
  }
}

/// The bounded conversions into Latin-1 (ops 17..19), whose replacement must be Latin-1.
template <class Policy>
void bounded_to_latin1(unsigned op, const input& in, pol p, Policy pl, char32_t repl, fuzzref::byte_rng& rng) {
  namespace u = utf8dfa;
  if (op == 17)
    run_bounded<char, unsigned char>(
        in, form::utf8, p, pl, repl, true, false, rng,
        [&](const unsigned char* q, std::size_t m, char* o, std::size_t c) {
          return u::utf8_to_latin1(sv(q, m), o, c, pl);
        },
        [&](const unsigned char* q, std::size_t m, char* o) { return u::utf8_to_latin1(sv(q, m), o, pl); });
  else if (op == 18)
    run_bounded<char, char16_t>(
        in, form::utf16, p, pl, repl, true, false, rng,
        [&](const char16_t* q, std::size_t m, char* o, std::size_t c) {
          return u::utf16_to_latin1(std::u16string_view(q, m), o, c, pl);
        },
        [&](const char16_t* q, std::size_t m, char* o) {
          return u::utf16_to_latin1(std::u16string_view(q, m), o, pl);
        });
  else
    run_bounded<char, char32_t>(
        in, form::utf32, p, pl, repl, true, false, rng,
        [&](const char32_t* q, std::size_t m, char* o, std::size_t c) {
          return u::utf32_to_latin1(std::u32string_view(q, m), o, c, pl);
        },
        [&](const char32_t* q, std::size_t m, char* o) {
          return u::utf32_to_latin1(std::u32string_view(q, m), o, pl);
        });
}

constexpr unsigned bounded_ops = 20;

/// as_utf8, as_utf16 or as_utf32 (by Out) over an iterator pair, or over a range.
template <class Out, class... A>
auto as_utf(A&&... a) {
  if constexpr (sizeof(Out) == 1)
    return utf8dfa::as_utf8(std::forward<A>(a)...);
  else if constexpr (sizeof(Out) == 2)
    return utf8dfa::as_utf16(std::forward<A>(a)...);
  else
    return utf8dfa::as_utf32(std::forward<A>(a)...);
}

/// A view of Out over [p, p+n) under Policy, checked against the reference.
template <class Out, class In, class Policy>
void view(const In* p, std::size_t n, Policy pl, pol policy, char32_t repl) {
  std::vector<fuzzref::unit_step> steps;
  if constexpr (sizeof(In) == 1)
    steps = fuzzref::steps_utf8(reinterpret_cast<const unsigned char*>(p), n);
  else if constexpr (sizeof(In) == 2)
    steps = fuzzref::steps_utf16(p, n);
  else
    steps = fuzzref::steps_utf32(p, n);
  const fuzzref::converted<Out> ref = fuzzref::convert<Out>(steps, n, policy, repl);
  // The step of each output unit.
  std::vector<std::size_t> unit_step;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    if (policy == pol::strict && steps[k].error != error_code::none) break;
    const std::size_t w = step_width<Out>(steps[k], policy, repl, false);
    unit_step.insert(unit_step.end(), w, k);
  }
  FUZZ_CHECK(unit_step.size() == ref.out.size());
  const auto check_unit = [&](const auto& it, std::size_t i) {
    const fuzzref::unit_step& s = steps[unit_step[i]];
    FUZZ_CHECK(it.offset() == s.at && it.length() == s.length);
    const utf8dfa::input_error e = it.error();
    FUZZ_CHECK(e.code == s.error && e.offset == s.at &&
               (s.error == error_code::none ? e.length == 0 : e.length == s.length));
  };

  const auto v = as_utf<Out>(p, p + n, pl);
  std::basic_string<Out> fwd;
  std::size_t i = 0;
  auto it = v.begin();
  for (; it != v.end(); ++it, ++i) {
    FUZZ_CHECK(i < ref.out.size());
    check_unit(it, i);
    fwd.push_back(*it);
  }
  FUZZ_CHECK(fwd == ref.out);
  // The same view over the input as a range (a string_view).
  const std::basic_string_view<In> range(p, n);
  std::basic_string<Out> from_range;
  for (const Out c : as_utf<Out>(range, pl)) from_range.push_back(c);
  FUZZ_CHECK(from_range == fwd);
  if constexpr (std::is_same_v<Policy, utf8dfa::strict>) {
    // The end of a strict iteration (forward only): at the first error, which it reports.
    FUZZ_CHECK(it.offset() == ref.r.read && it.error().code == ref.r.error);
  } else {
    std::basic_string<Out> back;
    for (auto b = v.end(); b != v.begin();) {
      --b;
      FUZZ_CHECK(back.size() < ref.out.size());
      check_unit(b, ref.out.size() - 1 - back.size());
      back.push_back(*b);
    }
    std::reverse(back.begin(), back.end());
    FUZZ_CHECK(back == fwd);
    // The bulk _lossy functions with the same policy.
    [[maybe_unused]] const bool dflt = policy == pol::skip || repl == 0xFFFD;
    if constexpr (sizeof(In) == 1 && sizeof(Out) == 4) {
      const std::string_view s(p, n);
      if (policy == pol::skip)
        FUZZ_CHECK(utf8dfa::to_utf32_lossy(s, utf8dfa::skip{}) == fwd);
      else if (dflt)
        FUZZ_CHECK(utf8dfa::to_utf32_lossy(s) == fwd);
    } else if constexpr (sizeof(In) == 1 && sizeof(Out) == 2) {
      const std::string_view s(p, n);
      if (policy == pol::skip)
        FUZZ_CHECK(utf8dfa::to_utf16_lossy(s, utf8dfa::skip{}) == fwd);
      else if (dflt)
        FUZZ_CHECK(utf8dfa::to_utf16_lossy(s) == fwd);
    } else if constexpr (sizeof(In) > 1 && sizeof(Out) == 1) {
      const std::basic_string_view<In> s(p, n);
      if (policy == pol::skip)
        FUZZ_CHECK(utf8dfa::to_utf8_lossy(s, utf8dfa::skip{}) == fwd);
      else if (dflt)
        FUZZ_CHECK(utf8dfa::to_utf8_lossy(s) == fwd);
    }
  }
}

template <class In, class Policy>
void views_of(unsigned out_form, const In* p, std::size_t n, Policy pl, pol policy, char32_t repl) {
  if (out_form == 0)
    view<char>(p, n, pl, policy, repl);
  else if (out_form == 1)
    view<char16_t>(p, n, pl, policy, repl);
  else
    view<char32_t>(p, n, pl, policy, repl);
}

template <class Policy>
void view_op(unsigned op, const input& in, Policy pl, pol policy, char32_t repl) {
  const unsigned in_form = op / 3, out_form = op % 3;
  if (in_form == 0)
    views_of(out_form, reinterpret_cast<const char*>(in.bytes), in.size, pl, policy, repl);
  else if (in_form == 1)
    views_of(out_form, in.u16.data(), in.u16.size(), pl, policy, repl);
  else
    views_of(out_form, in.u32.data(), in.u32.size(), pl, policy, repl);
}

}  // namespace fuzz_bounded_views

/// Input: the operation byte (bounded conversions 0..19, views 20..28), the policy byte (strict,
/// replace or skip in its low 2 bits, the replacement in the others), then the units.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace fuzz_bounded_views;
  if (size < 2) return 0;
  const unsigned op = data[0] % (bounded_ops + 9), pbyte = data[1];
  data += 2;
  size -= 2;
  input in{data, size, std::u16string(size / 2, u'\0'), std::u32string(size / 4, U'\0')};
  if (!in.u16.empty()) std::memcpy(&in.u16[0], data, in.u16.size() * 2);
  if (!in.u32.empty()) std::memcpy(&in.u32[0], data, in.u32.size() * 4);
  const pol policy = (pbyte & 3) == 0 ? pol::strict : (pbyte & 3) == 1 ? pol::skip : pol::replace;
  const bool to_latin1 = op >= 17 && op < bounded_ops;
  // Into Latin-1 a replacement must be Latin-1 (a refused one is fuzz_latin1's).
  constexpr char32_t latin1_choices[] = {U'?', 0x00, 0xE9, 0xFF};
  const char32_t chosen = to_latin1 ? latin1_choices[(pbyte >> 2) % 4] : fuzzref::pick_replacement(pbyte >> 2);
  const char32_t repl = fuzzref::effective_replacement(chosen);
  static const std::vector<std::string> kernels = fuzzref::kernel_names();
  for (const std::string& k : kernels) {
    FUZZ_CHECK(utf8dfa::select_kernel(k));
    fuzzref::byte_rng rng{data, size};
    if (op >= bounded_ops) {
      if (policy == pol::strict)
        view_op(op - bounded_ops, in, utf8dfa::strict{}, policy, repl);
      else if (policy == pol::skip)
        view_op(op - bounded_ops, in, utf8dfa::skip{}, policy, repl);
      else
        view_op(op - bounded_ops, in, utf8dfa::replace{chosen}, policy, repl);
    } else if (to_latin1) {
      if (policy == pol::strict)
        bounded_to_latin1(op, in, policy, utf8dfa::strict{}, repl, rng);
      else if (policy == pol::skip)
        bounded_to_latin1(op, in, policy, utf8dfa::skip{}, repl, rng);
      else
        bounded_to_latin1(op, in, policy, utf8dfa::replace{chosen}, repl, rng);
    } else {
      if (policy == pol::strict)
        bounded_op(op, in, policy, utf8dfa::strict{}, repl, rng);
      else if (policy == pol::skip)
        bounded_op(op, in, policy, utf8dfa::skip{}, repl, rng);
      else
        bounded_op(op, in, policy, utf8dfa::replace{chosen}, repl, rng);
    }
  }
  return 0;
}
