// utf8dfa: a constant-initialised value that threads load and store atomically (the kernel in use,
// the CPU features). GCC and Clang: a plain object read and written with the compiler's __atomic
// built-ins, so that no header needs <atomic> (a few thousand lines in every including unit);
// other compilers: std::atomic.
#ifndef UTF8DFA_DETAIL_SLOT_HPP
#define UTF8DFA_DETAIL_SLOT_HPP

#if !(defined(__GNUC__) || defined(__clang__))
#include <atomic>
#endif

#include "../config.hpp"

namespace utf8dfa {
inline namespace UTF8DFA_ABI_NAMESPACE {
namespace detail {

/// A T (a pointer or an integer) with acquire loads and release stores.
template <class T>
class atomic_slot {
 public:
  constexpr atomic_slot() noexcept = default;
  atomic_slot(const atomic_slot&) = delete;
  atomic_slot& operator=(const atomic_slot&) = delete;

#if defined(__GNUC__) || defined(__clang__)
  T load() const noexcept {
    return __atomic_load_n(&value_, __ATOMIC_ACQUIRE);
  }
  void store(T v) noexcept {
    __atomic_store_n(&value_, v, __ATOMIC_RELEASE);
  }

 private:
  T value_{};
#else
  T load() const noexcept {
    return value_.load(std::memory_order_acquire);
  }
  void store(T v) noexcept {
    value_.store(v, std::memory_order_release);
  }

 private:
  std::atomic<T> value_{};
#endif
};

}  // namespace detail
}  // namespace UTF8DFA_ABI_NAMESPACE
}  // namespace utf8dfa

#endif  // UTF8DFA_DETAIL_SLOT_HPP
