// utf8dfa benchmark: the inputs. Built-in generated corpora (deterministic, so a run is reproducible
// anywhere), real text files from a directory, repetition to a large size, and planted errors.
#ifndef UTF8DFA_BENCH_CORPUS_HPP
#define UTF8DFA_BENCH_CORPUS_HPP

#include <cstddef>
#include <string>
#include <vector>

namespace utf8dfa_bench {

/// One input text. `real` marks files read from the corpus directory (the geometric means use them).
struct corpus {
  std::string name;  ///< "gen.cyrillic", "lipsum.Arabic-Lipsum", "wikipedia_mars.greek", ...
  std::string utf8;  ///< the bytes
  bool real = false;
};

/// The generated corpora (ASCII prose, accented Latin, Cyrillic, Greek, Arabic, Hindi, CJK, emoji,
/// mixed), about `target_bytes` each, identical on every machine and every run.
std::vector<corpus> generated_corpora(std::size_t target_bytes = 100 * 1024);

/// Every `*.txt` file under `dir` (recursively, sorted by path), named by its relative path without
/// the extension(s), '/' replaced by '.'. Files that are not well-formed UTF-8 are skipped with a warning.
std::vector<corpus> load_corpus_dir(const std::string& dir);

/// Whole copies of `text` concatenated until the result has at least `min_bytes`.
std::string repeat_to(const std::string& text, std::size_t min_bytes);

/// `text` with an ill-formed sequence inserted at a character boundary about every `spacing` bytes,
/// cycling through every error kind (invalid byte, stray continuation, truncated sequence, overlong,
/// surrogate, above U+10FFFF). Returns the number of errors planted in `planted`.
std::string plant_errors(const std::string& text, std::size_t spacing, std::size_t& planted);

}  // namespace utf8dfa_bench

#endif
