// Instruction-count driver: runs one operation of utf8dfa (or, built with UTF8DFA_INSN_SIMDUTF and
// simdutf, of simdutf) ITERS times on the text of one UTF-8 file, for counting the instructions it
// executes under an emulator (tools/arm_ipb.sh): the count at ITERS less the count at 0, divided by
// ITERS times the input bytes it prints, is the operation's instructions per input byte. Every
// input form is prepared from the file before the loop.
//   insn_driver LIB OP FILE ITERS     LIB: utf8dfa | simdutf; OP: see `ops` below
// Latin-1 input is the file's code points, each above U+00FF replaced by 0x80 | (its low 7 bits).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <utf8dfa.hpp>
#ifdef UTF8DFA_INSN_SIMDUTF
#include "simdutf.h"
#endif

namespace {

const char* const ops[] = {"validate",
                           "count",
                           "utf8_to_utf16",
                           "utf8_to_utf32",
                           "utf16_to_utf8",
                           "utf32_to_utf8",
                           "validate_utf16",
                           "utf16_to_utf32",
                           "utf32_to_utf16",
                           "latin1_to_utf8",
                           "utf8_to_latin1",
                           "to_well_formed_utf16",
                           "validate_utf16_swapped",
                           "utf8_to_utf16_assume_valid",
                           "utf8_to_utf32_assume_valid",
                           "utf16_length_from_utf8",
                           "utf16_length_from_utf8_assume_valid",
                           "utf32_length_from_utf8_assume_valid",
                           "utf8_length_from_utf16",
                           "utf8_length_from_utf16_assume_valid",
                           "utf8_length_from_utf32_assume_valid",
                           "utf8_length_from_latin1",
                           "count_utf16",
                           "validate_utf32",
                           "utf16_to_latin1",
                           "utf32_to_latin1",
                           "latin1_to_utf16",
                           "latin1_to_utf32",
                           "utf16_swapped_to_utf8",
                           "utf8_to_utf16_swapped",
                           "change_endianness_utf16"};

struct inputs {
  std::string u8, latin1, latin1_u8;
  std::u16string u16, u16_swapped, latin1_u16;  // (the second with the bytes of each unit exchanged)
  std::u32string u32, latin1_u32;
};

/// One run of `op`: returns something of the result (so that no run is optimised away) and sets
/// `bytes` to the input size.
std::size_t run(bool ours, const std::string& op, const inputs& in, std::vector<char>& o8, std::vector<char16_t>& o16,
                std::vector<char32_t>& o32, std::size_t& bytes) {
  static_cast<void>(ours);
#ifdef UTF8DFA_INSN_SIMDUTF
#define UTF8DFA_PICK(a, b) (ours ? (a) : (b))
#else
#define UTF8DFA_PICK(a, b) (a)
#endif
  const std::string& u8 = in.u8;
  const std::u16string& u16 = in.u16;
  const std::u32string& u32 = in.u32;
  bytes = u8.size();
  if (op == "validate") return UTF8DFA_PICK(utf8dfa::is_valid(u8), simdutf::validate_utf8(u8.data(), u8.size()));
  if (op == "count") return UTF8DFA_PICK(utf8dfa::count_code_points(u8), simdutf::count_utf8(u8.data(), u8.size()));
  if (op == "utf8_to_utf16")
    return UTF8DFA_PICK(utf8dfa::utf8_to_utf16(u8, o16.data()).written,
                        simdutf::convert_utf8_to_utf16le(u8.data(), u8.size(), o16.data()));
  if (op == "utf8_to_utf32")
    return UTF8DFA_PICK(utf8dfa::utf8_to_utf32(u8, o32.data()).written,
                        simdutf::convert_utf8_to_utf32(u8.data(), u8.size(), o32.data()));
  if (op == "utf8_to_utf16_assume_valid")
    return UTF8DFA_PICK(utf8dfa::utf8_to_utf16(u8, o16.data(), utf8dfa::assume_valid{}).written,
                        simdutf::convert_valid_utf8_to_utf16le(u8.data(), u8.size(), o16.data()));
  if (op == "utf8_to_utf32_assume_valid")
    return UTF8DFA_PICK(utf8dfa::utf8_to_utf32(u8, o32.data(), utf8dfa::assume_valid{}).written,
                        simdutf::convert_valid_utf8_to_utf32(u8.data(), u8.size(), o32.data()));
  // The validating lengths against simdutf's validation followed by its length (which assumes valid
  // input); the assume_valid ones against its length alone.
  if (op == "utf16_length_from_utf8")
    return UTF8DFA_PICK(utf8dfa::utf16_length_from_utf8(u8), simdutf::validate_utf8(u8.data(), u8.size())
                                                                 ? simdutf::utf16_length_from_utf8(u8.data(), u8.size())
                                                                 : 0);
  if (op == "utf16_length_from_utf8_assume_valid")
    return UTF8DFA_PICK(utf8dfa::utf16_length_from_utf8(u8, utf8dfa::assume_valid{}),
                        simdutf::utf16_length_from_utf8(u8.data(), u8.size()));
  if (op == "utf32_length_from_utf8_assume_valid")
    return UTF8DFA_PICK(utf8dfa::utf32_length_from_utf8(u8, utf8dfa::assume_valid{}),
                        simdutf::utf32_length_from_utf8(u8.data(), u8.size()));
  if (op == "utf8_to_utf16_swapped")
    return UTF8DFA_PICK(utf8dfa::host_is_little_endian ? utf8dfa::utf8_to_utf16be(u8, o16.data()).written
                                                       : utf8dfa::utf8_to_utf16le(u8, o16.data()).written,
                        utf8dfa::host_is_little_endian
                            ? simdutf::convert_utf8_to_utf16be(u8.data(), u8.size(), o16.data())
                            : simdutf::convert_utf8_to_utf16le(u8.data(), u8.size(), o16.data()));
  if (op == "utf8_to_latin1") {
    bytes = in.latin1_u8.size();
    return UTF8DFA_PICK(utf8dfa::utf8_to_latin1(in.latin1_u8, o8.data()).written,
                        simdutf::convert_utf8_to_latin1(in.latin1_u8.data(), in.latin1_u8.size(), o8.data()));
  }
  if (op == "latin1_to_utf8") {
    bytes = in.latin1.size();
    return UTF8DFA_PICK(utf8dfa::latin1_to_utf8(in.latin1, o8.data()),
                        simdutf::convert_latin1_to_utf8(in.latin1.data(), in.latin1.size(), o8.data()));
  }
  bytes = in.latin1.size();
  if (op == "utf8_length_from_latin1")
    return UTF8DFA_PICK(utf8dfa::utf8_length_from_latin1(in.latin1),
                        simdutf::utf8_length_from_latin1(in.latin1.data(), in.latin1.size()));
  if (op == "latin1_to_utf16")
    return UTF8DFA_PICK(utf8dfa::latin1_to_utf16(in.latin1, o16.data()),
                        simdutf::convert_latin1_to_utf16le(in.latin1.data(), in.latin1.size(), o16.data()));
  if (op == "latin1_to_utf32")
    return UTF8DFA_PICK(utf8dfa::latin1_to_utf32(in.latin1, o32.data()),
                        simdutf::convert_latin1_to_utf32(in.latin1.data(), in.latin1.size(), o32.data()));
  bytes = in.latin1_u16.size() * 2;
  if (op == "utf16_to_latin1")
    return UTF8DFA_PICK(utf8dfa::utf16_to_latin1(in.latin1_u16, o8.data()).written,
                        simdutf::convert_utf16le_to_latin1(in.latin1_u16.data(), in.latin1_u16.size(), o8.data()));
  bytes = in.latin1_u32.size() * 4;
  if (op == "utf32_to_latin1")
    return UTF8DFA_PICK(utf8dfa::utf32_to_latin1(in.latin1_u32, o8.data()).written,
                        simdutf::convert_utf32_to_latin1(in.latin1_u32.data(), in.latin1_u32.size(), o8.data()));
  bytes = u16.size() * 2;
  if (op == "utf8_length_from_utf16")
    return UTF8DFA_PICK(utf8dfa::utf8_length_from_utf16(u16),
                        simdutf::validate_utf16le(u16.data(), u16.size())
                            ? simdutf::utf8_length_from_utf16le(u16.data(), u16.size())
                            : 0);
  if (op == "utf8_length_from_utf16_assume_valid")
    return UTF8DFA_PICK(utf8dfa::utf8_length_from_utf16(u16, utf8dfa::assume_valid{}),
                        simdutf::utf8_length_from_utf16le(u16.data(), u16.size()));
  if (op == "count_utf16")
    return UTF8DFA_PICK(utf8dfa::count_utf16(u16), simdutf::count_utf16le(u16.data(), u16.size()));
  if (op == "utf16_swapped_to_utf8") {
    const std::u16string& s = in.u16_swapped;
    return UTF8DFA_PICK(utf8dfa::host_is_little_endian ? utf8dfa::utf16be_to_utf8(s, o8.data()).written
                                                       : utf8dfa::utf16le_to_utf8(s, o8.data()).written,
                        utf8dfa::host_is_little_endian
                            ? simdutf::convert_utf16be_to_utf8(s.data(), s.size(), o8.data())
                            : simdutf::convert_utf16le_to_utf8(s.data(), s.size(), o8.data()));
  }
  if (op == "change_endianness_utf16") {
    UTF8DFA_PICK(utf8dfa::change_endianness_utf16(u16, o16.data()),
                 (simdutf::change_endianness_utf16(u16.data(), u16.size(), o16.data()), std::size_t{0}));
    return o16[0];
  }
  if (op == "utf16_to_utf8")
    return UTF8DFA_PICK(utf8dfa::utf16_to_utf8(u16, o8.data()).written,
                        simdutf::convert_utf16le_to_utf8(u16.data(), u16.size(), o8.data()));
  if (op == "validate_utf16")
    return UTF8DFA_PICK(utf8dfa::validate_utf16(u16).valid_up_to, simdutf::validate_utf16le(u16.data(), u16.size()));
  if (op == "validate_utf16_swapped") {
    const std::u16string& s = in.u16_swapped;
    return UTF8DFA_PICK(utf8dfa::host_is_little_endian ? utf8dfa::validate_utf16be(s).valid_up_to
                                                       : utf8dfa::validate_utf16le(s).valid_up_to,
                        utf8dfa::host_is_little_endian ? simdutf::validate_utf16be(s.data(), s.size())
                                                       : simdutf::validate_utf16le(s.data(), s.size()));
  }
  if (op == "utf16_to_utf32")
    return UTF8DFA_PICK(utf8dfa::utf16_to_utf32(u16, o32.data()).written,
                        simdutf::convert_utf16le_to_utf32(u16.data(), u16.size(), o32.data()));
  if (op == "to_well_formed_utf16") {
    UTF8DFA_PICK(utf8dfa::to_well_formed_utf16(u16, o16.data()),
                 (simdutf::to_well_formed_utf16le(u16.data(), u16.size(), o16.data()), std::size_t{0}));
    return o16[0];
  }
  bytes = u32.size() * 4;
  if (op == "utf32_to_utf8")
    return UTF8DFA_PICK(utf8dfa::utf32_to_utf8(u32, o8.data()).written,
                        simdutf::convert_utf32_to_utf8(u32.data(), u32.size(), o8.data()));
  if (op == "utf8_length_from_utf32_assume_valid")
    return UTF8DFA_PICK(utf8dfa::utf8_length_from_utf32(u32, utf8dfa::assume_valid{}),
                        simdutf::utf8_length_from_utf32(u32.data(), u32.size()));
  if (op == "validate_utf32")
    return UTF8DFA_PICK(utf8dfa::validate_utf32(u32).valid_up_to, simdutf::validate_utf32(u32.data(), u32.size()));
  if (op == "utf32_to_utf16")
    return UTF8DFA_PICK(utf8dfa::utf32_to_utf16(u32, o16.data()).written,
                        simdutf::convert_utf32_to_utf16le(u32.data(), u32.size(), o16.data()));
#undef UTF8DFA_PICK
  std::fprintf(stderr, "unknown operation %s\n", op.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: insn_driver LIB OP FILE ITERS\nOP:");
    for (const char* op : ops) std::fprintf(stderr, " %s", op);
    std::fprintf(stderr, "\n");
    return 2;
  }
  const std::string lib = argv[1], op = argv[2];
#ifndef UTF8DFA_INSN_SIMDUTF
  if (lib != "utf8dfa") {
    std::fprintf(stderr, "built without simdutf\n");
    return 2;
  }
#endif
  std::ifstream f(argv[3], std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  inputs in;
  in.u8 = ss.str();
  in.u16 = utf8dfa::to_utf16(in.u8);
  in.u16_swapped.resize(in.u16.size());
  utf8dfa::change_endianness_utf16(in.u16, &in.u16_swapped[0]);
  in.u32 = utf8dfa::to_utf32(in.u8);
  for (const char32_t c : in.u32) in.latin1 += static_cast<char>(c <= 0xFF ? c : 0x80 | (c & 0x7F));
  for (const char c : in.latin1) {
    in.latin1_u16 += static_cast<char16_t>(static_cast<unsigned char>(c));
    in.latin1_u32 += static_cast<char32_t>(static_cast<unsigned char>(c));
  }
  in.latin1_u8.resize(in.latin1.size() * 2);
  in.latin1_u8.resize(utf8dfa::latin1_to_utf8(in.latin1, in.latin1_u8.data()));
  const long iters = std::atol(argv[4]);
  std::vector<char> o8(in.u8.size() * 4 + in.latin1.size() * 2 + 64);
  std::vector<char16_t> o16(in.u8.size() + 64);
  std::vector<char32_t> o32(in.u8.size() + 64);
  std::size_t sink = 0, bytes = 0;
  run(lib == "utf8dfa", op, in, o8, o16, o32, bytes);  // the operation is known before counting
  for (long i = 0; i < iters; ++i) sink += run(lib == "utf8dfa", op, in, o8, o16, o32, bytes);
  std::printf("%s %s %zu bytes %zu\n", lib.c_str(), op.c_str(), bytes, sink);
  return 0;
}
