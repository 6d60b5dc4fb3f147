// Inaccessible pages around a test buffer, so that a read past its end faults: the POSIX calls
// (mmap, mprotect, munmap, sysconf(_SC_PAGESIZE)) on Unix, and on Windows the few of them the tests
// use (anonymous private mappings only) over VirtualAlloc, VirtualProtect and VirtualFree.
// UTF8DFA_TEST_GUARD_PAGES is 1 where either is available.
#ifndef UTF8DFA_TESTS_GUARD_PAGES_HPP
#define UTF8DFA_TESTS_GUARD_PAGES_HPP

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#define UTF8DFA_TEST_GUARD_PAGES 1
#elif defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

#include <cstddef>
#define UTF8DFA_TEST_GUARD_PAGES 1
#ifndef PROT_NONE
#define PROT_NONE 0
#define PROT_READ 1
#define PROT_WRITE 2
#define MAP_PRIVATE 2
#define MAP_ANONYMOUS 0x20
#define MAP_FAILED (reinterpret_cast<void*>(-1))
#define _SC_PAGESIZE 30
#endif

inline long sysconf(int) {
  SYSTEM_INFO info;
  GetSystemInfo(&info);
  return static_cast<long>(info.dwPageSize);
}

inline DWORD utf8dfa_test_page_protection(int prot) {
  if (prot & PROT_WRITE) return PAGE_READWRITE;
  return prot & PROT_READ ? PAGE_READONLY : PAGE_NOACCESS;
}

/// An anonymous private mapping (the only kind the tests ask for): committed pages, zero-filled.
inline void* mmap(void*, std::size_t size, int prot, int, int, long) {
  void* p = VirtualAlloc(nullptr, size, MEM_RESERVE | MEM_COMMIT, utf8dfa_test_page_protection(prot));
  return p != nullptr ? p : MAP_FAILED;
}

inline int mprotect(void* p, std::size_t size, int prot) {
  DWORD old = 0;
  return VirtualProtect(p, size, utf8dfa_test_page_protection(prot), &old) ? 0 : -1;
}

/// Releases a whole mapping (VirtualFree cannot release part of one; the tests never ask it to).
inline int munmap(void* p, std::size_t) {
  return VirtualFree(p, 0, MEM_RELEASE) ? 0 : -1;
}
#else
#define UTF8DFA_TEST_GUARD_PAGES 0
#endif

#endif
