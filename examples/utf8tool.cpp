// utf8tool: validate, sanitize, convert and count UTF-8 from the command line. It streams its input
// in fixed-size chunks through utf8dfa's streaming validator and decoder, so memory use does not
// depend on the input size and no result depends on where a chunk ends. Public API only.
#include <utf8dfa.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#endif
#if defined(__unix__) || defined(__APPLE__) || defined(__wasi__)  // (WASI has read and poll too)
#include <poll.h>
#include <unistd.h>
#define UTF8TOOL_POSIX 1
#else
#define UTF8TOOL_POSIX 0
#endif

namespace utf8tool {

constexpr const char* usage_text =
    "usage: utf8tool validate [--dialect D] [FILE...] | sanitize [--dialect D] [--skip] [FILE]\n"
    "       utf8tool count [--dialect D] [FILE]\n"
    "       utf8tool convert [--from utf8] --to utf16le|utf16be|utf32le|utf32be|latin1 [--dialect D] [--replace]\n"
    "                        [FILE]\n"
    "       utf8tool convert --from utf16le|utf16be|utf32le|utf32be|latin1|auto [--to utf8] [--dialect D] [--replace]\n"
    "                        [FILE]\n"
    "       D: utf8 (default) | wtf8 | cesu8 | mutf8 | legacy\n";

constexpr const char* help_text =
    "\n"
    "  validate [FILE...]  check that each input is well-formed UTF-8 (RFC 3629). Every input is\n"
    "                      checked; for each ill-formed one, stderr gets one line for its first error:\n"
    "                        FILE:LINE:COLUMN: invalid UTF-8 at byte N: KIND\n"
    "  sanitize [FILE]     copy to stdout, each maximal ill-formed subpart replaced by U+FFFD\n"
    "                      (with --skip: dropped, nothing written for it)\n"
    "  convert ...         UTF-8 to UTF-16/UTF-32 or back, little or big endian, no BOM added; UTF-8\n"
    "                      to Latin-1 (ISO-8859-1: latin1 or iso-8859-1) or back.\n"
    "                      Strict by default: stops at the first error (the output has everything\n"
    "                      before it) and exits 1. With --replace: one U+FFFD per maximal\n"
    "                      ill-formed UTF-8 subpart, per unpaired UTF-16 surrogate, per UTF-32 unit\n"
    "                      that is a surrogate or above 0x10FFFF; at the end of the input, leftover\n"
    "                      bytes (an odd UTF-16 byte, 1-3 UTF-32 bytes) together with a high\n"
    "                      surrogate still waiting for its pair give ONE U+FFFD.\n"
    "                      To Latin-1, a character above U+00FF is an error (KIND unrepresentable)\n"
    "                      or, with --replace, '?' (as is each maximal ill-formed subpart). From\n"
    "                      Latin-1, every byte is the character of the same value: nothing fails.\n"
    "  --from auto         the input's byte order mark decides: EF BB BF UTF-8, FF FE UTF-16LE, FE FF\n"
    "                      UTF-16BE, FF FE 00 00 UTF-32LE, 00 00 FE FF UTF-32BE; without one, UTF-8\n"
    "                      (copied as checked UTF-8 or, with --replace, sanitized). The output is\n"
    "                      UTF-8; the BOM is not copied and not counted in COLUMN; N, a byte offset\n"
    "                      in the input, counts it.\n"
    "  count [FILE]        print the number of code points of well-formed UTF-8\n"
    "  --dialect D         read (or, converting from UTF-16/UTF-32/Latin-1, write) the UTF-8 side in D:\n"
    "                      wtf8 (unpaired surrogates allowed, WTF-8), cesu8 (supplementary characters\n"
    "                      as surrogate pairs, CESU-8), mutf8 (cesu8 with U+0000 as C0 80, Java),\n"
    "                      legacy (RFC 2279: up to 6 bytes, values up to 0x7FFFFFFF). Messages then\n"
    "                      name the dialect (invalid WTF-8 at byte N: KIND). Converting to UTF-16,\n"
    "                      values it cannot hold (legacy above 0x10FFFF or surrogates) are errors\n"
    "                      (too_large, surrogate); sanitize keeps the dialect's well-formed bytes.\n"
    "\n"
    "  FILE '-' or no FILE reads stdin (named <stdin> in messages). Encoding names ignore case,\n"
    "  '-' and '_' (UTF-16LE works). A byte order mark is data: it is kept, counted and converted\n"
    "  like any U+FEFF (except by --from auto).\n"
    "  N is the 0-based byte offset of the first byte of the first ill-formed subpart; LINE is 1 +\n"
    "  the number of LF bytes before it; COLUMN is 1 + the number of code points between the line\n"
    "  start and it (only well-formed characters can precede the first error). KIND is one of\n"
    "  invalid_byte, unexpected_continuation, too_short, incomplete, overlong, surrogate, too_large\n"
    "  (and unrepresentable, converting to Latin-1).\n"
    "  UTF-16/UTF-32 input errors read: FILE: invalid UTF-16LE at byte N: KIND.\n"
    "\n"
    "  Exit status: 0 success; 1 ill-formed input, an input that cannot be read (validate goes on\n"
    "  with the other inputs), or an output that cannot be written (stdout closed, disk full); 2\n"
    "  usage error. sanitize exits 0 on any input it can read. Like other filters, utf8tool ends\n"
    "  by SIGPIPE when its reader goes away (e.g. | head).\n"
    "  count and convert report ill-formed UTF-8 in the same FILE:LINE:COLUMN form as validate; CR\n"
    "  is not a line break.\n"
    "  Input is read in chunks of at most UTF8TOOL_CHUNK_SIZE bytes (default 65536), processed as\n"
    "  they arrive; memory use does not depend on the input size.\n";

constexpr int exit_ok = 0, exit_bad = 1, exit_usage = 2;

int usage_error(const std::string& why) {
  std::fprintf(stderr, "utf8tool: %s\n%s", why.c_str(), usage_text);
  return exit_usage;
}

// ---- Input and output ---------------------------------------------------------------------------

struct input {
  std::string name;  // as printed in messages
  std::FILE* file = nullptr;
  bool owned = false;
  std::uint64_t offset = 0;           // bytes read so far
  std::vector<unsigned char> unread;  // bytes looked at (--from auto) and given back, read first

  ~input() {
    if (owned) std::fclose(file);
  }
};

// Opens FILE ('-' is stdin); prints the reason and returns false when it cannot.
bool open_input(const std::string& path, input& in) {
  if (path == "-") {
    in.name = "<stdin>";
    in.file = stdin;
    return true;
  }
  in.name = path;
  in.file = std::fopen(path.c_str(), "rb");
  if (in.file == nullptr) {
    std::fprintf(stderr, "utf8tool: %s: %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  in.owned = true;
  return true;
}

// Reads the next chunk: whatever is available, up to `size` bytes (so that a pipe is processed as
// data arrives); returns its size, 0 at the end. A read error is reported and sets `failed`.
std::size_t read_chunk(input& in, unsigned char* buf, std::size_t size, bool& failed) {
  if (!in.unread.empty()) {
    const std::size_t n = std::min(size, in.unread.size());
    std::memcpy(buf, in.unread.data(), n);
    in.unread.erase(in.unread.begin(), in.unread.begin() + static_cast<std::ptrdiff_t>(n));
    in.offset += n;
    return n;
  }
#if UTF8TOOL_POSIX
  for (;;) {
    const ssize_t n = ::read(fileno(in.file), buf, size);
    if (n >= 0) {
      in.offset += static_cast<std::uint64_t>(n);
      return static_cast<std::size_t>(n);
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK) {  // a non-blocking stdin: wait for data
      pollfd pfd{fileno(in.file), POLLIN, 0};
      ::poll(&pfd, 1, -1);
    } else if (errno != EINTR) {
      break;
    }
  }
#elif defined(_WIN32)
  // _read, unlike fread, returns what a pipe holds without waiting for `size` bytes (binary mode:
  // no translation).
  const int n = _read(_fileno(in.file), buf, static_cast<unsigned>(size));
  if (n >= 0) {
    in.offset += static_cast<std::uint64_t>(n);
    return static_cast<std::size_t>(n);
  }
#else
  const std::size_t n = std::fread(buf, 1, size, in.file);
  if (n == size || !std::ferror(in.file)) {
    in.offset += n;
    return n;
  }
#endif
  std::fprintf(stderr, "utf8tool: %s: %s\n", in.name.c_str(), std::strerror(errno));
  failed = true;
  return 0;
}

// stdout; a failed write is reported once and ends the command with exit status 1.
struct output {
  bool failed = false;
  // Writes and flushes (one call per chunk), so that output follows input through a pipe.
  bool write(const void* p, std::size_t n) {
    if (!failed && n != 0 && (std::fwrite(p, 1, n, stdout) != n || std::fflush(stdout) != 0)) fail();
    return !failed;
  }
  bool flush() {
    if (!failed && (std::fflush(stdout) != 0 || std::ferror(stdout))) fail();
    return !failed;
  }
  void fail() {
    failed = true;
    std::fprintf(stderr, "utf8tool: write error: %s\n", std::strerror(errno));
  }
};

std::size_t chunk_size = 65536;

// ---- Where an error is, in lines and columns ------------------------------------------------------

// ---- Dialects ------------------------------------------------------------------------------------

enum class dialect_id { utf8, wtf8, cesu8, mutf8, legacy };

bool parse_dialect(std::string_view s, dialect_id& d) {
  const std::pair<std::string_view, dialect_id> names[] = {{"utf8", dialect_id::utf8},
                                                           {"wtf8", dialect_id::wtf8},
                                                           {"cesu8", dialect_id::cesu8},
                                                           {"mutf8", dialect_id::mutf8},
                                                           {"legacy", dialect_id::legacy}};
  for (const auto& n : names)
    if (s == n.first) {
      d = n.second;
      return true;
    }
  return false;
}

template <class D>
constexpr const char* dialect_name() {
  if constexpr (std::is_same_v<D, utf8dfa::dialect::wtf8>) return "WTF-8";
  if constexpr (std::is_same_v<D, utf8dfa::dialect::cesu8>) return "CESU-8";
  if constexpr (std::is_same_v<D, utf8dfa::dialect::mutf8>) return "MUTF-8";
  if constexpr (std::is_same_v<D, utf8dfa::dialect::legacy>) return "legacy UTF-8";
  return "UTF-8";
}

// Calls f(D{}) with the dialect tag of `d`.
template <class F>
int with_dialect(dialect_id d, F f) {
  switch (d) {
    case dialect_id::wtf8:
      return f(utf8dfa::dialect::wtf8{});
    case dialect_id::cesu8:
      return f(utf8dfa::dialect::cesu8{});
    case dialect_id::mutf8:
      return f(utf8dfa::dialect::mutf8{});
    case dialect_id::legacy:
      return f(utf8dfa::dialect::legacy{});
    default:
      return f(utf8dfa::dialect::utf8{});
  }
}

// Code points in well-formed text fed in pieces: its lead bytes, less (CESU-8, MUTF-8) the second
// lead of each surrogate pair, an ED after ED A0..AF 80..BF (the last 3 bytes are kept across pieces).
template <class D>
struct char_counter {
  static constexpr bool pairs =
      std::is_same_v<D, utf8dfa::dialect::cesu8> || std::is_same_v<D, utf8dfa::dialect::mutf8>;
  unsigned char last[3]{};  // the 3 bytes before the next piece (0 where none)

  std::uint64_t count(const unsigned char* p, std::size_t n) {
    std::uint64_t c = utf8dfa::count_code_points(std::string_view(reinterpret_cast<const char*>(p), n));
    if constexpr (pairs) {
      for (std::size_t i = 0; i < n; ++i) {
        if (p[i] == 0xED && last[0] == 0xED && last[1] >= 0xA0 && last[1] <= 0xAF && (last[2] & 0xC0) == 0x80) --c;
        last[0] = last[1];
        last[1] = last[2];
        last[2] = p[i];
      }
    }
    return c;
  }
};

// Counts LF bytes and the code points since the last one, over the input read so far.
template <class D = utf8dfa::dialect::utf8>
struct line_counter {
  std::uint64_t lines = 0;   // LF bytes seen
  std::uint64_t column = 0;  // code points since the last LF
  std::uint64_t seen = 0;    // bytes counted
  std::uint64_t skip = 0;    // bytes still to pass over uncounted (a BOM --from auto drops)
  char_counter<D> chars;

  void add(const unsigned char* p, std::size_t n) {
    if (skip != 0) {
      const std::size_t k = n < skip ? n : static_cast<std::size_t>(skip);
      p += k;
      n -= k;
      skip -= k;
      seen += k;
    }
    const unsigned char* end = p + n;
    const unsigned char* last = end;
    for (const unsigned char* q = end; q != p;)
      if (*--q == '\n') {
        last = q;
        break;
      }
    if (last != end) {
      lines += static_cast<std::uint64_t>(std::count(p, last + 1, '\n'));
      chars.count(p, static_cast<std::size_t>(last + 1 - p));  // keeps the bytes before the line
      column = 0;
      p = last + 1;
    }
    column += chars.count(p, static_cast<std::size_t>(end - p));
    seen += n;
  }

  // Reports the error at byte `at`, given the current chunk (which starts at byte `chunk_start`).
  void report(const input& in, std::uint64_t at, const unsigned char* chunk, std::uint64_t chunk_start,
              utf8dfa::error_code kind) {
    std::uint64_t col;
    if (at >= seen) {
      add(chunk + (seen - chunk_start), static_cast<std::size_t>(at - seen));
      col = column + 1;
    } else {
      col = column;  // the error started before this chunk: the counted bytes [at, seen) are its
                     // unfinished character, one lead byte and its continuation bytes
    }
    std::fprintf(stderr, "%s:%llu:%llu: invalid %s at byte %llu: %s\n", in.name.c_str(),
                 static_cast<unsigned long long>(lines + 1), static_cast<unsigned long long>(col), dialect_name<D>(),
                 static_cast<unsigned long long>(at), std::string(utf8dfa::error_name(kind)).c_str());
  }
};

// ---- validate and count ------------------------------------------------------------------------

// Validates one input; prints its first error. `count` receives the number of code points.
// Returns exit_ok, or exit_bad after reporting an ill-formed or unreadable input.
template <class D>
int check_input(input& in, std::uint64_t* count) {
  std::vector<unsigned char> buf(chunk_size);
  utf8dfa::basic_validator<D> v;
  line_counter<D> lines;
  char_counter<D> chars;
  std::uint64_t code_points = 0;
  bool read_failed = false;
  for (;;) {
    const std::uint64_t start = in.offset;
    const std::size_t n = read_chunk(in, buf.data(), buf.size(), read_failed);
    if (read_failed) return exit_bad;
    const utf8dfa::validation_result r = n != 0 ? v.feed(buf.data(), n) : v.finish();
    if (!r) {
      lines.report(in, r.valid_up_to, buf.data(), start, r.error);
      return exit_bad;
    }
    if (n == 0) break;
    lines.add(buf.data(), n);
    if (count != nullptr) code_points += chars.count(buf.data(), n);
  }
  if (count != nullptr) *count = code_points;
  return exit_ok;
}

template <class D>
int cmd_validate(const std::vector<std::string>& files) {
  int status = exit_ok;
  for (const std::string& f : files) {
    input in;
    if (!open_input(f, in) || check_input<D>(in, nullptr) != exit_ok) status = exit_bad;
  }
  return status;
}

template <class D>
int cmd_count(const std::string& file) {
  input in;
  if (!open_input(file, in)) return exit_bad;
  std::uint64_t n = 0;
  if (check_input<D>(in, &n) != exit_ok) return exit_bad;
  output out;
  const std::string text = std::to_string(n) + "\n";
  out.write(text.data(), text.size());
  return out.flush() ? exit_ok : exit_bad;
}

// ---- UTF-8 to UTF-8 (sanitize), UTF-16, UTF-32 ------------------------------------------------------

enum class encoding { utf8, utf16le, utf16be, utf32le, utf32be, latin1, automatic };

// Encoding names as the usage shows them; case and '-'/'_' do not matter (UTF-16LE, utf_16le).
bool parse_encoding(std::string_view given, encoding& e) {
  std::string s;
  for (char c : given)
    if (c != '-' && c != '_') s += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  const std::pair<std::string_view, encoding> names[] = {{"utf8", encoding::utf8},       {"utf16le", encoding::utf16le},
                                                         {"utf16be", encoding::utf16be}, {"utf32le", encoding::utf32le},
                                                         {"utf32be", encoding::utf32be}, {"latin1", encoding::latin1},
                                                         {"iso88591", encoding::latin1}, {"auto", encoding::automatic}};
  for (const auto& n : names)
    if (s == n.first) {
      e = n.second;
      return true;
    }
  return false;
}

bool big_endian(encoding e) {
  return e == encoding::utf16be || e == encoding::utf32be;
}

const char* display_name(encoding e) {
  switch (e) {
    case encoding::utf16le:
      return "UTF-16LE";
    case encoding::utf16be:
      return "UTF-16BE";
    case encoding::utf32le:
      return "UTF-32LE";
    case encoding::utf32be:
      return "UTF-32BE";
    case encoding::latin1:
      return "Latin-1";
    default:
      return "UTF-8";
  }
}

// Writes code units as bytes: UTF-8 (sanitize) as is; UTF-16/32 units, which the decoder writes in
// the host's byte order, in the order of `to` (the library exchanges their bytes where they differ).
template <class Unit>
bool emit_units(output& out, Unit* u, std::size_t n, encoding to) {
  if constexpr (sizeof(Unit) == 1) {
    return out.write(u, n);
  } else {
    if (big_endian(to) == utf8dfa::host_is_little_endian) {
      if constexpr (sizeof(Unit) == 2)
        utf8dfa::change_endianness_utf16(std::u16string_view(u, n), u);
      else
        utf8dfa::change_endianness_utf32(std::u32string_view(u, n), u);
    }
    return out.write(u, n * sizeof(Unit));
  }
}

// Streams UTF-8 from `in` through the decoder to `to`. Strict: reports the first error and exits 1.
// `bom`: the length of a UTF-8 BOM the input starts with that the decoder is to drop (--from auto).
template <class Policy, class Unit, class D = utf8dfa::dialect::utf8>
int decode_utf8(input& in, encoding to, Policy policy, std::size_t bom = 0) {
  using decoder = utf8dfa::decoder<Policy, Unit, D>;
  std::vector<unsigned char> buf(chunk_size);
  std::vector<Unit> units(decoder::max_output(chunk_size));
  decoder d(policy, bom != 0 ? utf8dfa::bom_handling::strip : utf8dfa::bom_handling::keep);
  line_counter<D> lines;
  lines.skip = bom;
  output out;
  bool read_failed = false;
  for (;;) {
    const std::uint64_t start = in.offset;
    const std::size_t n = read_chunk(in, buf.data(), buf.size(), read_failed);
    if (read_failed) return exit_bad;
    const auto r = n != 0 ? d.feed(buf.data(), n, units.data()) : d.finish(units.data());
    if (!emit_units(out, units.data(), r.written, to)) return exit_bad;
    if (Policy::stops_on_error && !r) {
      if (!out.flush()) return exit_bad;
      lines.report(in, d.result().valid_up_to, buf.data(), start, r.error);
      return exit_bad;
    }
    if (n == 0) break;
    if (Policy::stops_on_error) lines.add(buf.data(), n);
  }
  return out.flush() ? exit_ok : exit_bad;
}

template <class D>
int cmd_sanitize(const std::string& file, bool skip) {
  input in;
  if (!open_input(file, in)) return exit_bad;
  if (skip) return decode_utf8<utf8dfa::skip, unsigned char, D>(in, encoding::utf8, utf8dfa::skip{});
  return decode_utf8<utf8dfa::replace, unsigned char, D>(in, encoding::utf8, utf8dfa::replace{});
}

// ---- UTF-16 / UTF-32 to UTF-8 -------------------------------------------------------------------------

// Streams UTF-16 or UTF-32 (by Unit) from `in` to UTF-8 in dialect D. Units are assembled across
// chunk ends and brought to the host's byte order by the library; a high surrogate ending a batch
// waits for the next one, so that the library sees it paired or not (in UTF-32 too for WTF-8, which
// joins a lead and a trail surrogate). `base`: input bytes before the first unit (a BOM --from auto
// dropped), counted in the offsets of messages.
template <class Policy, class Unit, class D = utf8dfa::dialect::utf8>
int encode_utf8(input& in, encoding from, Policy policy, std::uint64_t base = 0) {
  constexpr bool writes_surrogates = utf8dfa::is_encodable(0xD800, D{});
  constexpr std::size_t width = sizeof(Unit);
  std::vector<unsigned char> buf(chunk_size), bytes;
  std::vector<Unit> units;
  units.reserve(chunk_size / width + 2);
  unsigned char carry[width];  // bytes of an unfinished code unit
  std::size_t ncarry = 0;
  std::uint64_t first_unit = 0;  // index in the stream of units[0]
  output out;
  bool read_failed = false;
  auto fail = [&](std::uint64_t unit, utf8dfa::error_code kind) {
    if (!out.flush()) return exit_bad;
    std::fprintf(stderr, "%s: invalid %s at byte %llu: %s\n", in.name.c_str(), display_name(from),
                 static_cast<unsigned long long>(base + unit * width), std::string(utf8dfa::error_name(kind)).c_str());
    return exit_bad;
  };
  const bool swap = big_endian(from) == utf8dfa::host_is_little_endian;  // `from` is not the host's order
  for (;;) {
    const std::size_t n = read_chunk(in, buf.data(), buf.size(), read_failed);
    if (read_failed) return exit_bad;
    if (n == 0) break;
    // units holds at most a held-back high surrogate here.
    // The units of this chunk, as stored (a unit begun in the last chunk first), then in host order.
    const std::size_t first_new = units.size();
    std::size_t i = 0;
    while (ncarry != 0 && ncarry < width && i < n) carry[ncarry++] = buf[i++];
    if (ncarry == width) {
      units.emplace_back();
      std::memcpy(&units.back(), carry, width);
      ncarry = 0;
    }
    const std::size_t whole = (n - i) / width;
    units.resize(units.size() + whole);
    std::memcpy(units.data() + units.size() - whole, buf.data() + i, whole * width);
    i += whole * width;
    while (i < n) carry[ncarry++] = buf[i++];
    if (swap) {
      using view = std::basic_string_view<Unit>;
      const view fresh(units.data() + first_new, units.size() - first_new);
      if constexpr (width == 2)
        utf8dfa::change_endianness_utf16(fresh, units.data() + first_new);
      else
        utf8dfa::change_endianness_utf32(fresh, units.data() + first_new);
    }
    bool held = false;  // a high surrogate ends the batch: it waits for the next one
    Unit high{};
    if ((width == 2 || std::is_same_v<D, utf8dfa::dialect::wtf8>)&&!units.empty() && units.back() >= 0xD800 &&
        units.back() <= 0xDBFF) {
      held = true;
      high = units.back();
      units.pop_back();
    }
    bytes.resize(6 * units.size());
    using view = std::basic_string_view<Unit>;
    utf8dfa::conversion_result r;
    if constexpr (width == 2)
      r = utf8dfa::utf16_to_utf8(view(units.data(), units.size()), bytes.data(), policy, D{});
    else
      r = utf8dfa::utf32_to_utf8(view(units.data(), units.size()), bytes.data(), policy, D{});
    if (!out.write(bytes.data(), r.written)) return exit_bad;
    // A high surrogate that ends the batch is followed by the held one: not `incomplete` but unpaired.
    if (Policy::stops_on_error && !r)
      return fail(first_unit + r.read,
                  r.error == utf8dfa::error_code::incomplete ? utf8dfa::error_code::surrogate : r.error);
    first_unit += units.size();
    units.clear();
    if (held) units.push_back(high);
  }
  // End of input: a waiting high surrogate and leftover bytes are one error. A dialect that writes
  // unpaired surrogates writes a waiting one; leftover bytes alone are then the error.
  if constexpr (writes_surrogates) {
    if (!units.empty()) {
      unsigned char lone[6];
      if (!out.write(lone, utf8dfa::encode(static_cast<char32_t>(units.back()), lone, D{}))) return exit_bad;
      first_unit += 1;
      units.clear();
    }
  }
  if (!units.empty() || ncarry != 0) {
    if (Policy::stops_on_error) return fail(first_unit, utf8dfa::error_code::incomplete);
    unsigned char rep[6];
    if (!out.write(rep, utf8dfa::encode(policy.replacement_value(), rep, D{}))) return exit_bad;
  }
  return out.flush() ? exit_ok : exit_bad;
}

// ---- Latin-1 -------------------------------------------------------------------------------------

// Streams Latin-1 from `in` to UTF-8 in dialect D: each byte is the character of its value, so
// nothing fails (MUTF-8 writes U+0000 as C0 80; the other dialects as UTF-8).
template <class D>
int latin1_to_utf8(input& in) {
  std::vector<unsigned char> buf(chunk_size), bytes(2 * chunk_size);
  std::vector<char32_t> wide;
  output out;
  bool read_failed = false;
  for (;;) {
    const std::size_t n = read_chunk(in, buf.data(), buf.size(), read_failed);
    if (read_failed) return exit_bad;
    if (n == 0) break;
    const std::string_view chunk(reinterpret_cast<const char*>(buf.data()), n);
    std::size_t w = 0;
    if constexpr (std::is_same_v<D, utf8dfa::dialect::utf8>) {
      w = utf8dfa::latin1_to_utf8(chunk, bytes.data());
    } else {
      wide.resize(n);
      utf8dfa::latin1_to_utf32(chunk, wide.data());
      w = utf8dfa::utf32_to_utf8(std::u32string_view(wide.data(), n), bytes.data(), utf8dfa::strict{}, D{}).written;
    }
    if (!out.write(bytes.data(), w)) return exit_bad;
  }
  return out.flush() ? exit_ok : exit_bad;
}

// Streams UTF-8 in dialect D from `in` to Latin-1: the decoder (to UTF-32), then utf32_to_latin1.
// Strict: the first ill-formed subpart, or character above U+00FF (unrepresentable), is reported at
// its byte offset and ends the output; with replace{U'?'} each becomes '?'.
template <class Policy, class D>
int utf8_to_latin1(input& in, Policy policy) {
  using decoder = utf8dfa::decoder<Policy, char32_t, D>;
  std::vector<unsigned char> buf(chunk_size), bytes(decoder::max_output(chunk_size));
  std::vector<char32_t> units(decoder::max_output(chunk_size));
  decoder d(policy);
  line_counter<D> lines;
  output out;
  bool read_failed = false;
  std::uint64_t decoded = 0;  // strict: input bytes of the characters decoded before this chunk
  for (;;) {
    const std::uint64_t start = in.offset;
    const std::size_t n = read_chunk(in, buf.data(), buf.size(), read_failed);
    if (read_failed) return exit_bad;
    const auto r = n != 0 ? d.feed(buf.data(), n, units.data()) : d.finish(units.data());
    const utf8dfa::conversion_result c =
        utf8dfa::utf32_to_latin1(std::u32string_view(units.data(), r.written), bytes.data(), policy);
    if (!out.write(bytes.data(), c.written)) return exit_bad;
    if constexpr (Policy::stops_on_error) {
      if (!c || !r) {
        if (!out.flush()) return exit_bad;
        std::uint64_t at = d.result().valid_up_to;
        if (!c) {  // a character the decoder wrote: its offset is the bytes of those before it
          at = decoded;
          for (std::size_t k = 0; k < c.read; ++k) at += utf8dfa::encoded_length(units[k], D{});
        }
        lines.report(in, at, buf.data(), start, !c ? c.error : r.error);
        return exit_bad;
      }
      decoded = d.result().valid_up_to;
      lines.add(buf.data(), n);
    }
    if (n == 0) break;
  }
  return out.flush() ? exit_ok : exit_bad;
}

// ---- Command line ------------------------------------------------------------------------------

// --from auto: reads the input's first bytes (at most 4) and returns the encoding its byte order mark
// names (UTF-8 without one) and the mark's length; the bytes are given back to be read again.
bool detect_input(input& in, encoding& from, std::size_t& bom) {
  unsigned char head[4];
  std::size_t have = 0;
  bool read_failed = false;
  while (have < sizeof head) {
    const std::size_t n = read_chunk(in, head + have, std::min(sizeof head - have, chunk_size), read_failed);
    if (read_failed) return false;
    if (n == 0) break;
    have += n;
  }
  const utf8dfa::bom_result b = utf8dfa::detect_bom(head, have);
  switch (b.encoding) {
    case utf8dfa::encoding::utf16le:
      from = encoding::utf16le;
      break;
    case utf8dfa::encoding::utf16be:
      from = encoding::utf16be;
      break;
    case utf8dfa::encoding::utf32le:
      from = encoding::utf32le;
      break;
    case utf8dfa::encoding::utf32be:
      from = encoding::utf32be;
      break;
    default:
      from = encoding::utf8;
  }
  bom = b.length;
  in.unread.assign(head, head + have);
  in.offset = 0;
  return true;
}

template <class D>
int convert(input& in, encoding from, encoding to, bool replace) {
  std::size_t bom = 0;
  if (from == encoding::automatic) {
    if (!detect_input(in, from, bom)) return exit_bad;
    if (from != encoding::utf8) {  // UTF-16/32: the BOM is passed over here, UTF-8's by the decoder
      in.unread.erase(in.unread.begin(), in.unread.begin() + static_cast<std::ptrdiff_t>(bom));
      in.offset = bom;
    }
  }
  if (to == encoding::latin1)
    return replace ? utf8_to_latin1<utf8dfa::replace, D>(in, utf8dfa::replace{U'?'})
                   : utf8_to_latin1<utf8dfa::strict, D>(in, utf8dfa::strict{});
  if (from == encoding::latin1) return latin1_to_utf8<D>(in);
  const bool wide =
      to == encoding::utf32le || to == encoding::utf32be || from == encoding::utf32le || from == encoding::utf32be;
  if (from == encoding::utf8) {
    if (to == encoding::utf8)  // --from auto: checked UTF-8 (or sanitized, with --replace)
      return replace ? decode_utf8<utf8dfa::replace, unsigned char, D>(in, to, utf8dfa::replace{}, bom)
                     : decode_utf8<utf8dfa::strict, unsigned char, D>(in, to, utf8dfa::strict{}, bom);
    if (wide)
      return replace ? decode_utf8<utf8dfa::replace, char32_t, D>(in, to, utf8dfa::replace{})
                     : decode_utf8<utf8dfa::strict, char32_t, D>(in, to, utf8dfa::strict{});
    return replace ? decode_utf8<utf8dfa::replace, char16_t, D>(in, to, utf8dfa::replace{})
                   : decode_utf8<utf8dfa::strict, char16_t, D>(in, to, utf8dfa::strict{});
  }
  if (wide)
    return replace ? encode_utf8<utf8dfa::replace, char32_t, D>(in, from, utf8dfa::replace{}, bom)
                   : encode_utf8<utf8dfa::strict, char32_t, D>(in, from, utf8dfa::strict{}, bom);
  return replace ? encode_utf8<utf8dfa::replace, char16_t, D>(in, from, utf8dfa::replace{}, bom)
                 : encode_utf8<utf8dfa::strict, char16_t, D>(in, from, utf8dfa::strict{}, bom);
}

// --dialect D or --dialect=D at args[i] (advancing i past a separate value); false with `error` set
// when it is not one.
bool dialect_option(const std::vector<std::string>& args, std::size_t& i, dialect_id& d, std::string& error) {
  const std::string& a = args[i];
  std::string value;
  if (a.rfind("--dialect=", 0) == 0) {
    value = a.substr(10);
  } else if (i + 1 < args.size()) {
    value = args[++i];
  } else {
    error = "--dialect needs a dialect";
    return false;
  }
  if (!parse_dialect(value, d)) {
    error = "unknown dialect '" + value + "'";
    return false;
  }
  return true;
}

int cmd_convert(const std::vector<std::string>& args) {
  encoding from = encoding::utf8, to = encoding::utf8;
  dialect_id dialect = dialect_id::utf8;
  bool have_to = false, have_from = false, replace = false, options_done = false;
  std::vector<std::string> files;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (options_done || a == "-" || a.empty() || a[0] != '-') {
      files.push_back(a);
      continue;
    }
    if (a == "--dialect" || a.rfind("--dialect=", 0) == 0) {
      std::string error;
      if (!dialect_option(args, i, dialect, error)) return usage_error(error);
    } else if (a == "--") {
      options_done = true;
    } else if (a == "--replace") {
      replace = true;
    } else if (a == "--to" || a == "--from" || a.rfind("--to=", 0) == 0 || a.rfind("--from=", 0) == 0) {
      const bool is_to = a.rfind("--to", 0) == 0;
      std::string value;
      const std::size_t eq = a.find('=');
      if (eq != std::string::npos) {
        value = a.substr(eq + 1);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return usage_error(a + " needs an encoding");
      }
      if (!parse_encoding(value, is_to ? to : from)) return usage_error("unknown encoding '" + value + "'");
      (is_to ? have_to : have_from) = true;
    } else {
      return usage_error("unknown option '" + a + "'");
    }
  }
  if (files.size() > 1) return usage_error("convert reads one FILE");
  if (!have_to && !have_from) return usage_error("convert needs --to or --from");
  if (from == encoding::automatic ? to != encoding::utf8 : (from == encoding::utf8) == (to == encoding::utf8))
    return usage_error(from == encoding::automatic ? "--from auto converts to utf8"
                                                   : "convert needs utf8 on exactly one side (--from or --to)");
  if (to == encoding::automatic) return usage_error("auto is an input encoding (--from auto)");
  input in;
  if (!open_input(files.empty() ? "-" : files[0], in)) return exit_bad;
  return with_dialect(dialect, [&](auto d) { return convert<decltype(d)>(in, from, to, replace); });
}

// FILE arguments and --dialect of validate/sanitize/count (and --skip of sanitize, where `skip` is
// not null): '--' ends options, '-' is stdin, other options are errors (`error` says why).
bool plain_files(const std::vector<std::string>& args, std::vector<std::string>& files, dialect_id& d,
                 std::string& error, bool* skip = nullptr) {
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!options_done && a == "--") {
      options_done = true;
    } else if (!options_done && (a == "--dialect" || a.rfind("--dialect=", 0) == 0)) {
      if (!dialect_option(args, i, d, error)) return false;
    } else if (!options_done && skip != nullptr && a == "--skip") {
      *skip = true;
    } else if (!options_done && a.size() > 1 && a[0] == '-') {
      error = "unknown option '" + a + "'";
      return false;
    } else {
      files.push_back(a);
    }
  }
  return true;
}

}  // namespace utf8tool

using namespace utf8tool;

int main(int argc, char** argv) {
#if defined(_WIN32)
  // Bytes as they are: in text mode the C runtime would turn CR LF into LF (and end the input at a
  // Ctrl-Z byte) on stdin, and LF into CR LF on stdout; messages on stderr end in LF everywhere.
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
#endif
  if (const char* env = std::getenv("UTF8TOOL_CHUNK_SIZE")) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(env, &end, 10);
    if (errno != 0 || end == env || *end != '\0' || v == 0 || v > (1ull << 24))
      return usage_error("UTF8TOOL_CHUNK_SIZE must be a number of bytes from 1 to 16777216");
    chunk_size = static_cast<std::size_t>(v);
  }
  if (argc < 2) return usage_error("missing command");
  const std::string cmd = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::fputs(usage_text, stdout);
    std::fputs(help_text, stdout);
    return std::fflush(stdout) == 0 ? exit_ok : exit_bad;
  }
  if (cmd == "--version") {
    std::printf("utf8tool (utf8dfa) %d.%d.%d\n", UTF8DFA_VERSION_MAJOR, UTF8DFA_VERSION_MINOR, UTF8DFA_VERSION_PATCH);
    return std::fflush(stdout) == 0 ? exit_ok : exit_bad;
  }
  if (cmd == "convert") return cmd_convert(args);
  std::vector<std::string> files;
  std::string error;
  dialect_id dialect = dialect_id::utf8;
  bool skip = false;
  if (cmd == "validate" || cmd == "sanitize" || cmd == "count") {
    if (!plain_files(args, files, dialect, error, cmd == "sanitize" ? &skip : nullptr)) return usage_error(error);
    if (cmd == "validate") {
      if (files.empty()) files.push_back("-");
      return with_dialect(dialect, [&](auto d) { return cmd_validate<decltype(d)>(files); });
    }
    if (files.size() > 1) return usage_error(cmd + " reads one FILE");
    const std::string file = files.empty() ? "-" : files[0];
    return with_dialect(dialect, [&](auto d) {
      return cmd == "sanitize" ? cmd_sanitize<decltype(d)>(file, skip) : cmd_count<decltype(d)>(file);
    });
  }
  return usage_error("unknown command '" + cmd + "'");
}
