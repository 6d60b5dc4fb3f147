// Fuzz target: streaming (validator, decoder under strict and replace, to UTF-32, UTF-16 and
// UTF-8) under fuzzer-chosen chunking gives exactly the one-shot results. The first byte picks
// the chunking; the rest is the stream. Each feed() writes into a heap buffer of exactly
// max_output(chunk) units, so ASan sees any overrun of the documented bound.
#include <utf8dfa/stream.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference.hpp"

namespace fuzz_stream {

/// Chunk sizes from a seed: a run of sizes in [0, max], with max itself from the seed.
inline std::vector<std::size_t> chunking(std::uint8_t seed, std::size_t size) {
  constexpr std::size_t maxima[] = {1, 2, 3, 4, 5, 7, 16, 63, 64, 65, 1000};
  const std::size_t max = maxima[seed % (sizeof maxima / sizeof maxima[0])];
  std::vector<std::size_t> cuts;
  std::uint32_t x = seed * 2654435761u + 1;
  for (std::size_t done = 0; done < size;) {
    x = x * 1103515245u + 12345u;
    std::size_t c = (x >> 8) % (max + 1);
    if (c > size - done) c = size - done;
    cuts.push_back(c);  // zero-length chunks included
    done += c;
  }
  return cuts;
}

template <class Policy, class Unit>
std::basic_string<Unit> run(const unsigned char* p, const std::vector<std::size_t>& cuts,
                            utf8dfa::validation_result& result) {
  utf8dfa::decoder<Policy, Unit> dec;
  std::basic_string<Unit> out;
  std::size_t at = 0;
  for (std::size_t c : cuts) {
    const std::size_t room = utf8dfa::decoder<Policy, Unit>::max_output(c);
    std::unique_ptr<Unit[]> buf(new Unit[room]);
    const auto r = dec.feed(p + at, c, buf.get());
    FUZZ_CHECK(r.written <= room && r.out == buf.get() + r.written);
    out.append(buf.get(), r.written);
    at += c;
  }
  std::vector<Unit> tail;
  dec.finish(std::back_inserter(tail));
  FUZZ_CHECK(tail.size() <= utf8dfa::decoder<Policy, Unit>::max_output(0));
  out.append(tail.begin(), tail.end());
  result = dec.result();
  return out;
}

inline bool same(const utf8dfa::validation_result& a, const utf8dfa::validation_result& b) {
  return a.valid_up_to == b.valid_up_to && a.error_length == b.error_length && a.error == b.error;
}

}  // namespace fuzz_stream

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::vector<std::size_t> cuts = fuzz_stream::chunking(data[0], size - 1);
  const unsigned char* p = data + 1;
  const std::size_t n = size - 1;
  const std::string_view text(reinterpret_cast<const char*>(p), n);
  const utf8dfa::validation_result ref = fuzzref::validate(p, n);
  const std::u32string lossy = fuzzref::decode_lossy(p, n);
  std::size_t good = 0;
  for (std::size_t i = 0; i < ref.valid_up_to; ++good) i += fuzzref::decode(p, n, i).length;

  static const std::vector<std::string> kernels = fuzzref::kernel_names();
  for (const std::string& k : kernels) {
    FUZZ_CHECK(utf8dfa::select_kernel(k));
    utf8dfa::validator v;
    std::size_t at = 0;
    for (std::size_t c : cuts) {
      v.feed(p + at, c);
      at += c;
    }
    FUZZ_CHECK(fuzz_stream::same(v.finish(), ref));

    utf8dfa::validation_result r{};
    FUZZ_CHECK((fuzz_stream::run<utf8dfa::replace, char32_t>(p, cuts, r)) == lossy);
    FUZZ_CHECK(fuzz_stream::same(r, ref));
    FUZZ_CHECK((fuzz_stream::run<utf8dfa::replace, char16_t>(p, cuts, r)) == fuzzref::to_utf16(lossy));
    FUZZ_CHECK(fuzz_stream::same(r, ref));
    FUZZ_CHECK((fuzz_stream::run<utf8dfa::replace, char>(p, cuts, r)) == fuzzref::to_utf8(lossy));
    FUZZ_CHECK((fuzz_stream::run<utf8dfa::strict, char32_t>(p, cuts, r)) == lossy.substr(0, good));
    FUZZ_CHECK(fuzz_stream::same(r, ref));
    FUZZ_CHECK((fuzz_stream::run<utf8dfa::strict, char16_t>(p, cuts, r)) == fuzzref::to_utf16(lossy.substr(0, good)));
    (void)text;
  }
  return 0;
}
