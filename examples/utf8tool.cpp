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
#if defined(__unix__) || defined(__APPLE__)
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
    "       utf8tool convert [--from utf8] --to utf16le|utf16be|utf32le|utf32be [--dialect D] [--replace] [FILE]\n"
    "       utf8tool convert --from utf16le|utf16be|utf32le|utf32be [--to utf8] [--dialect D] [--replace] [FILE]\n"
    "       D: utf8 (default) | wtf8 | cesu8 | mutf8 | legacy\n";

constexpr const char* help_text =
    "\n"
    "  validate [FILE...]  check that each input is well-formed UTF-8 (RFC 3629). Every input is\n"
    "                      checked; for each ill-formed one, stderr gets one line for its first error:\n"
    "                        FILE:LINE:COLUMN: invalid UTF-8 at byte N: KIND\n"
    "  sanitize [FILE]     copy to stdout, each maximal ill-formed subpart replaced by U+FFFD\n"
    "                      (with --skip: dropped, nothing written for it)\n"
    "  convert ...         UTF-8 to UTF-16/UTF-32 or back, little or big endian, no BOM added.\n"
    "                      Strict by default: stops at the first error (the output has everything\n"
    "                      before it) and exits 1. With --replace: one U+FFFD per maximal\n"
    "                      ill-formed UTF-8 subpart, per unpaired UTF-16 surrogate, per UTF-32 unit\n"
    "                      that is a surrogate or above 0x10FFFF; at the end of the input, leftover\n"
    "                      bytes (an odd UTF-16 byte, 1-3 UTF-32 bytes) together with a high\n"
    "                      surrogate still waiting for its pair give ONE U+FFFD.\n"
    "  count [FILE]        print the number of code points of well-formed UTF-8\n"
    "  --dialect D         read (or, converting from UTF-16/UTF-32, write) the UTF-8 side in dialect D:\n"
    "                      wtf8 (unpaired surrogates allowed, WTF-8), cesu8 (supplementary characters\n"
    "                      as surrogate pairs, CESU-8), mutf8 (cesu8 with U+0000 as C0 80, Java),\n"
    "                      legacy (RFC 2279: up to 6 bytes, values up to 0x7FFFFFFF). Messages then\n"
    "                      name the dialect (invalid WTF-8 at byte N: KIND). Converting to UTF-16,\n"
    "                      values it cannot hold (legacy above 0x10FFFF or surrogates) are errors\n"
    "                      (too_large, surrogate); sanitize keeps the dialect's well-formed bytes.\n"
    "\n"
    "  FILE '-' or no FILE reads stdin (named <stdin> in messages). Encoding names ignore case,\n"
    "  '-' and '_' (UTF-16LE works). A byte order mark is data: it is kept, counted and converted\n"
    "  like any U+FEFF.\n"
    "  N is the 0-based byte offset of the first byte of the first ill-formed subpart; LINE is 1 +\n"
    "  the number of LF bytes before it; COLUMN is 1 + the number of code points between the line\n"
    "  start and it (only well-formed characters can precede the first error). KIND is one of\n"
    "  invalid_byte, unexpected_continuation, too_short, incomplete, overlong, surrogate, too_large.\n"
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
  std::uint64_t offset = 0;  // bytes read so far

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
  char_counter<D> chars;

  void add(const unsigned char* p, std::size_t n) {
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

enum class encoding { utf8, utf16le, utf16be, utf32le, utf32be };

// Encoding names as the usage shows them; case and '-'/'_' do not matter (UTF-16LE, utf_16le).
bool parse_encoding(std::string_view given, encoding& e) {
  std::string s;
  for (char c : given)
    if (c != '-' && c != '_') s += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  const std::pair<std::string_view, encoding> names[] = {{"utf8", encoding::utf8},
                                                         {"utf16le", encoding::utf16le},
                                                         {"utf16be", encoding::utf16be},
                                                         {"utf32le", encoding::utf32le},
                                                         {"utf32be", encoding::utf32be}};
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
    default:
      return "UTF-8";
  }
}

// Writes code units as bytes: UTF-8 (sanitize) as is, UTF-16/32 in the byte order.
template <class Unit>
bool emit_units(output& out, const Unit* u, std::size_t n, encoding to, std::vector<unsigned char>& bytes) {
  if constexpr (sizeof(Unit) == 1) {
    return out.write(u, n);
  } else {
    bytes.resize(sizeof(Unit) * n);
    unsigned char* b = bytes.data();
    for (std::size_t i = 0; i < n; ++i) {
      const auto v = static_cast<std::uint32_t>(u[i]);
      for (std::size_t k = 0; k < sizeof(Unit); ++k) {
        const std::size_t shift = 8 * (big_endian(to) ? sizeof(Unit) - 1 - k : k);
        *b++ = static_cast<unsigned char>(v >> shift);
      }
    }
    return out.write(bytes.data(), bytes.size());
  }
}

// Streams UTF-8 from `in` through the decoder to `to`. Strict: reports the first error and exits 1.
template <class Policy, class Unit, class D = utf8dfa::dialect::utf8>
int decode_utf8(input& in, encoding to, Policy policy) {
  using decoder = utf8dfa::decoder<Policy, Unit, D>;
  std::vector<unsigned char> buf(chunk_size), bytes;
  std::vector<Unit> units(decoder::max_output(chunk_size));
  decoder d(policy);
  line_counter<D> lines;
  output out;
  bool read_failed = false;
  for (;;) {
    const std::uint64_t start = in.offset;
    const std::size_t n = read_chunk(in, buf.data(), buf.size(), read_failed);
    if (read_failed) return exit_bad;
    const auto r = n != 0 ? d.feed(buf.data(), n, units.data()) : d.finish(units.data());
    if (!emit_units(out, units.data(), r.written, to, bytes)) return exit_bad;
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
// chunk ends; a high surrogate ending a batch waits for the next one, so that the library sees it
// paired or not (in UTF-32 too for WTF-8, which joins a lead and a trail surrogate).
template <class Policy, class Unit, class D = utf8dfa::dialect::utf8>
int encode_utf8(input& in, encoding from, Policy policy) {
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
                 static_cast<unsigned long long>(unit * width), std::string(utf8dfa::error_name(kind)).c_str());
    return exit_bad;
  };
  auto unit_of = [&](const unsigned char* b) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < width; ++k)
      v |= static_cast<std::uint32_t>(b[k]) << (8 * (big_endian(from) ? width - 1 - k : k));
    return static_cast<Unit>(v);
  };
  for (;;) {
    const std::size_t n = read_chunk(in, buf.data(), buf.size(), read_failed);
    if (read_failed) return exit_bad;
    if (n == 0) break;
    // units holds at most a held-back high surrogate here.
    std::size_t i = 0;
    while (ncarry != 0 && ncarry < width && i < n) carry[ncarry++] = buf[i++];
    if (ncarry == width) {
      units.push_back(unit_of(carry));
      ncarry = 0;
    }
    for (; n - i >= width; i += width) units.push_back(unit_of(buf.data() + i));
    while (i < n) carry[ncarry++] = buf[i++];
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

// ---- Command line ------------------------------------------------------------------------------

template <class D>
int convert(input& in, encoding from, encoding to, bool replace) {
  const bool wide =
      to == encoding::utf32le || to == encoding::utf32be || from == encoding::utf32le || from == encoding::utf32be;
  if (from == encoding::utf8) {
    if (wide)
      return replace ? decode_utf8<utf8dfa::replace, char32_t, D>(in, to, utf8dfa::replace{})
                     : decode_utf8<utf8dfa::strict, char32_t, D>(in, to, utf8dfa::strict{});
    return replace ? decode_utf8<utf8dfa::replace, char16_t, D>(in, to, utf8dfa::replace{})
                   : decode_utf8<utf8dfa::strict, char16_t, D>(in, to, utf8dfa::strict{});
  }
  if (wide)
    return replace ? encode_utf8<utf8dfa::replace, char32_t, D>(in, from, utf8dfa::replace{})
                   : encode_utf8<utf8dfa::strict, char32_t, D>(in, from, utf8dfa::strict{});
  return replace ? encode_utf8<utf8dfa::replace, char16_t, D>(in, from, utf8dfa::replace{})
                 : encode_utf8<utf8dfa::strict, char16_t, D>(in, from, utf8dfa::strict{});
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
  if ((from == encoding::utf8) == (to == encoding::utf8))
    return usage_error("convert needs utf8 on exactly one side (--from or --to)");
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
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
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
