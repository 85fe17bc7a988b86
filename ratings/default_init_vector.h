// A std::vector whose resize(n) leaves the new elements of a trivial type uninitialised,
// for arrays that are filled in place right after, possibly from several threads: the
// pages are then first touched, and faulted in, by the threads that fill them, rather than
// zeroed by one thread beforehand. Everything else behaves as std::vector.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace ratings {

// std::allocator, except that value-initialisation (construct without arguments) becomes
// default-initialisation: no write at all for a trivial type.
template <typename T>
class DefaultInitAllocator : public std::allocator<T> {
 public:
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };

  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}  // implicit, as std::allocator's

  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T>
using DefaultInitVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace ratings
