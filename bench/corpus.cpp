// utf8dfa benchmark: corpus generator and loader (see corpus.hpp).
#include "corpus.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "utf8dfa.hpp"

namespace utf8dfa_bench {

namespace gen {

// splitmix64: small, fast, and the same sequence everywhere.
struct rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  std::uint32_t in(std::uint32_t lo, std::uint32_t hi) {
    return lo + static_cast<std::uint32_t>(next() % (hi - lo + 1));
  }
  /// True with probability percent/100.
  bool chance(unsigned percent) { return next() % 100 < percent; }
};

void put(std::string& s, char32_t c) {
  char buf[4];
  const std::size_t n = utf8dfa::encode(c, buf);
  s.append(buf, n);
}

void put(std::string& s, const char32_t* cs) {
  for (; *cs != 0; ++cs) put(s, *cs);
}

// English letter frequencies, roughly: the more often a letter appears here, the more often it is drawn.
constexpr char english[] =
    "eeeeeeeeeeeettttttttttaaaaaaaaoooooooiiiiiiinnnnnnnsssssshhhhhhrrrrrrddddllllcccuuummmwwffggyyppbbvkjxqz";

char32_t ascii_letter(rng& r) {
  return static_cast<unsigned char>(english[r.in(0, sizeof english - 2)]);
}

constexpr char32_t latin_accents[] = {U'é', U'è', U'ê', U'à', U'â', U'ç', U'ô', U'û', U'ü', U'ö', U'ä',
                                      U'ß', U'ñ', U'í', U'ó', U'ú', U'å', U'ø', U'æ', U'ë', U'ï', U'ã',
                                      U'õ', U'č', U'š', U'ž', U'ř', U'ł', U'ą', U'ę', U'ő', U'ű'};

/// What one writing system looks like to the generator.
enum class script { ascii, latin, cyrillic, greek, arabic, hindi, cjk, emoji };

char32_t letter(script k, rng& r, bool capital) {
  switch (k) {
    case script::ascii:
      return ascii_letter(r) - (capital ? 32 : 0);
    case script::latin:
      if (!capital && r.chance(9)) return latin_accents[r.in(0, std::size(latin_accents) - 1)];
      return ascii_letter(r) - (capital ? 32 : 0);
    case script::cyrillic: {
      if (r.chance(1)) return capital ? U'Ё' : U'ё';
      const char32_t c = U'а' + r.in(0, 31);
      return capital ? c - 0x20 : c;
    }
    case script::greek: {
      if (!capital && r.chance(10)) {
        constexpr char32_t tonos[] = {U'ά', U'έ', U'ή', U'ί', U'ό', U'ύ', U'ώ'};
        return tonos[r.in(0, 6)];
      }
      char32_t c = U'α' + r.in(0, 24);
      if (c == U'ς') c = U'σ';
      return capital ? c - 0x20 : c;
    }
    case script::arabic:
      return U'\u0627' + r.in(0, 0x064A - 0x0627);
    case script::hindi:
      return U'\u0915' + r.in(0, 0x0939 - 0x0915);
    case script::cjk:
      if (r.chance(25)) return U'\u3041' + r.in(0, 0x3093 - 0x3041);  // kana
      {
        // Skewed towards the first characters of the block, as real text is towards common ones.
        const std::uint32_t a = r.in(0, 2999), b = r.in(0, 2999);
        return U'\u4E00' + std::min(a, b) * 7;
      }
    case script::emoji:
      return ascii_letter(r) - (capital ? 32 : 0);
  }
  return U'?';
}

void emoji(std::string& s, rng& r) {
  switch (r.in(0, 9)) {
    case 0:  // family: a ZWJ sequence
      put(s, U"\U0001F468\u200D\U0001F469\u200D\U0001F467");
      break;
    case 1:  // a flag: two regional indicators
      put(s, U'\U0001F1E6' + r.in(0, 25));
      put(s, U'\U0001F1E6' + r.in(0, 25));
      break;
    case 2:  // a symbol with the emoji variation selector
      put(s, U"\u2764\uFE0F");
      break;
    case 3:  // with a skin tone
      put(s, U'\U0001F44B' + r.in(0, 4));
      put(s, U'\U0001F3FB' + r.in(0, 4));
      break;
    case 4:
    case 5:
      put(s, U'\U0001F300' + r.in(0, 0xFF));
      break;
    case 6:
      put(s, U'\U0001F680' + r.in(0, 0x4F));
      break;
    default:
      put(s, U'\U0001F600' + r.in(0, 0x4F));
      break;
  }
}

void word(std::string& s, script k, rng& r, bool capital) {
  if (k == script::hindi) {  // syllables: consonant, then usually a vowel sign or a virama cluster
    const std::uint32_t syllables = r.in(1, 4);
    for (std::uint32_t i = 0; i < syllables; ++i) {
      put(s, letter(k, r, false));
      if (r.chance(10)) {
        put(s, U'\u094D');  // virama: a conjunct with the next consonant
        put(s, letter(k, r, false));
      }
      if (r.chance(65)) put(s, U'\u093E' + r.in(0, 0x094C - 0x093E));
      if (r.chance(8)) put(s, U'\u0902');  // anusvara
    }
    return;
  }
  const std::uint32_t len = k == script::cjk ? r.in(1, 4) : r.in(1, 10);
  for (std::uint32_t i = 0; i < len; ++i) put(s, letter(k, r, capital && i == 0));
}

/// One paragraph of `k` text, about `sentences` sentences long.
void paragraph(std::string& s, script k, rng& r, std::uint32_t sentences) {
  const bool cjk = k == script::cjk;
  const bool caps =
      k == script::ascii || k == script::latin || k == script::cyrillic || k == script::greek || k == script::emoji;
  for (std::uint32_t n = 0; n < sentences; ++n) {
    const std::uint32_t words = r.in(4, 16);
    for (std::uint32_t w = 0; w < words; ++w) {
      if (r.chance(2)) {
        s += std::to_string(r.in(1, 2100));
      } else if (k == script::emoji && r.chance(30)) {
        emoji(s, r);
      } else {
        word(s, k, r, caps && w == 0);
      }
      if (w + 1 == words) break;
      if (r.chance(7)) put(s, k == script::arabic ? U'،' : cjk ? U'，' : U',');
      if (!cjk || r.chance(5)) s += ' ';
    }
    if (k == script::emoji && r.chance(40)) {
      s += ' ';
      emoji(s, r);
    }
    put(s, k == script::hindi ? U'।' : cjk ? U'。' : r.chance(10) ? U'?' : U'.');
    if (!cjk) s += ' ';
  }
  s += '\n';
  s += '\n';
}

/// Web-ish ASCII that real mixed documents carry: markup, links, numbers.
void ascii_noise(std::string& s, rng& r) {
  switch (r.in(0, 3)) {
    case 0:
      s += "<p class=\"note\">";
      break;
    case 1:
      s += "https://example.org/wiki/page_" + std::to_string(r.in(1, 99999)) + "?lang=xx ";
      break;
    case 2:
      s += "[" + std::to_string(r.in(1, 300)) + "] ";
      break;
    default:
      s += "2026-11-" + std::to_string(r.in(10, 28)) + " 12:" + std::to_string(r.in(10, 59)) + " ";
      break;
  }
}

std::string generate(script k, bool mixed, std::uint64_t seed, std::size_t target) {
  rng r{seed};
  std::string s;
  s.reserve(target + 1024);
  while (s.size() < target) {
    script here = k;
    if (mixed) {
      here = static_cast<script>(r.in(0, 7));
      if (r.chance(30)) ascii_noise(s, r);
    }
    paragraph(s, here, r, r.in(2, 7));
  }
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace gen

using namespace gen;

std::vector<corpus> generated_corpora(std::size_t target_bytes) {
  struct spec {
    const char* name;
    script k;
    bool mixed;
  };
  constexpr spec specs[] = {
      {"ascii", script::ascii, false}, {"latin", script::latin, false},   {"cyrillic", script::cyrillic, false},
      {"greek", script::greek, false}, {"arabic", script::arabic, false}, {"hindi", script::hindi, false},
      {"cjk", script::cjk, false},     {"emoji", script::emoji, false},   {"mixed", script::ascii, true},
  };
  std::vector<corpus> out;
  std::uint64_t seed = 0x7574663864666100ull;  // fixed: the corpora never change
  for (const spec& sp : specs) {
    corpus c;
    c.name = std::string("gen.") + sp.name;
    c.utf8 = generate(sp.k, sp.mixed, seed++, target_bytes);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<corpus> load_corpus_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".txt") files.push_back(it->path());
  if (ec)
    std::fprintf(stderr, "utf8dfa_bench: cannot read corpus directory %s: %s\n", dir.c_str(), ec.message().c_str());
  std::sort(files.begin(), files.end());
  std::vector<corpus> out;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    corpus c;
    c.utf8 = buf.str();
    c.real = true;
    std::string name = fs::relative(f, dir).generic_string();
    for (const char* ext : {".txt", ".utf8"})
      if (ends_with(name, ext)) name.resize(name.size() - std::char_traits<char>::length(ext));
    std::replace(name.begin(), name.end(), '/', '.');
    c.name = name;
    const utf8dfa::validation_result v = utf8dfa::validate(c.utf8);
    if (!v) {
      std::fprintf(stderr, "utf8dfa_bench: skipping %s: ill-formed UTF-8 at byte %zu\n", f.string().c_str(),
                   v.valid_up_to);
      continue;
    }
    if (c.utf8.empty()) continue;
    out.push_back(std::move(c));
  }
  return out;
}

std::string repeat_to(const std::string& text, std::size_t min_bytes) {
  std::string out;
  if (text.empty()) return out;
  const std::size_t copies = (min_bytes + text.size() - 1) / text.size();
  out.reserve(copies * text.size());
  for (std::size_t i = 0; i < copies; ++i) out += text;
  return out;
}

std::string plant_errors(const std::string& text, std::size_t spacing, std::size_t& planted) {
  // One of each error kind, in turn: FF (invalid_byte), 80 (unexpected_continuation), E2 82 + next
  // character (too_short), C0 AF (overlong), ED A0 80 (surrogate), F4 90 80 80 (too_large).
  constexpr const char* errors[] = {"\xFF", "\x80", "\xE2\x82", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80"};
  std::string out;
  out.reserve(text.size() + text.size() / spacing * 4 + 4);
  planted = 0;
  std::size_t next = spacing;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (i >= next && (b & 0xC0) != 0x80) {  // a character boundary
      out += errors[planted % std::size(errors)];
      ++planted;
      next = i + spacing;
    }
    out += text[i];
  }
  return out;
}

}  // namespace utf8dfa_bench
