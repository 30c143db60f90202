// Global-to-shared copies that do not hold a register while in flight (cp.async, sm_80+): an
// engine issues the next row's packs, works on the current row, and waits for them only when
// it needs them. Each thread waits for, and reads, only the copies it issued itself, so no
// barrier is involved.
#pragma once

#include <cstdint>

#include "config.hpp"

namespace rowfuse::detail {

/// Whether a pack of N elements of T can travel as one cp.async (4, 8 or 16 bytes).
template <class T, int N>
inline constexpr bool
    async_copy_size_ok = N * sizeof(T) == 4 || N * sizeof(T) == 8 || N * sizeof(T) == 16;

/// Starts copying the N * sizeof(T) bytes at `source` (aligned to that size) into `destination`.
template <int N, class T>
__device__ __forceinline__ void async_copy_pack(T* destination, T const* source) {
  static_assert(async_copy_size_ok<T, N>, "cp.async moves 4, 8 or 16 bytes");
  constexpr int bytes = N * int(sizeof(T));
  auto const shared = static_cast<std::uint32_t>(__cvta_generic_to_shared(destination));
  if constexpr (bytes == 16) // .cg: bypass L1, the row is read once
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared), "l"(source) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(shared), "l"(source), "n"(bytes)
                 : "memory");
}

/// Closes the group of copies issued since the last commit.
__device__ __forceinline__ void async_copy_commit() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}

/// Waits until at most `Pending` of this thread's committed groups are still in flight.
template <int Pending> __device__ __forceinline__ void async_copy_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

} // namespace rowfuse::detail
