// The scopes a collective runs in, and the one reduction every collective is built from: for
// each row slot of a thread, a value merged across the threads that share the row.
#pragma once

#include <type_traits>

#include "../detail/config.hpp"
#include "../detail/device_math.cuh"
#include "layout.cuh"

namespace rowfuse::collective {

/// A warp: the layout spans the 32 lanes of the calling warp (threads are lanes, %laneid), and
/// all 32 must call, converged (the shuffles name every lane).
struct warp_scope {
  template <class Layout> static constexpr bool admits = Layout::threads == 32;
  static __device__ __forceinline__ int thread_rank() {
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    return int(lane);
  }
};

/// A block: the layout spans every thread of the block (Layout::threads must equal the block's
/// size; threads are numbered x fastest, as warps are), and every thread must call.
struct block_scope {
  template <class Layout> static constexpr bool admits = Layout::threads % 32 == 0;
  static __device__ __forceinline__ int thread_rank() {
    return int(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  }
};

/// Merges, for each row slot, `value[slot]` across the threads that share the slot's row:
/// every one of them gets the same total, bit for bit (the butterfly merges the same pairs in
/// the same order on every lane, and warps' posts are folded in warp order).
///
/// Within a warp (Layout::threads_per_row <= 32): log2(threads_per_row) shuffle rounds, all
/// slots' shuffles of a round issued together; no shared memory, no barrier. Rows that span
/// warps (block layouts only) then post each warp's total to shared memory and fold the posts
/// after one __syncthreads. The posts go to `buffer` (0 .. Buffers-1): a caller reusing the
/// storage before the next barrier of its own alternates buffers, so that a fast warp's new
/// post never overwrites one a slow warp has still to read.
template <tile_layout Layout, class T, int Buffers = 1> struct row_allreduce {
  static constexpr bool spans_warps = Layout::threads_per_row > 32;
  static constexpr int warps = Layout::threads / 32;
  static constexpr int warps_per_row = spans_warps ? Layout::threads_per_row / 32 : 1;

  struct posts {
    T posted[Buffers][Layout::row_slots][warps];
  };
  struct nothing {};
  /// Shared memory of the cross-warp step; empty when rows stay inside warps.
  using TempStorage = std::conditional_t<spans_warps, posts, nothing>;

  template <class Merge>
  static __device__ __forceinline__ void run(T (&value)[Layout::row_slots], Merge merge,
                                             TempStorage& storage, int thread, int buffer = 0) {
    constexpr int lanes = spans_warps ? 32 : Layout::threads_per_row;
    ROWFUSE_UNROLL
    for (int lane_mask = lanes / 2; lane_mask > 0; lane_mask /= 2) {
      ROWFUSE_UNROLL
      for (int s = 0; s < Layout::row_slots; ++s)
        value[s] = merge(value[s], detail::shfl_xor(value[s], lane_mask));
    }
    if constexpr (spans_warps) {
      int const warp = thread / 32;
      if (thread % 32 == 0) {
        ROWFUSE_UNROLL
        for (int s = 0; s < Layout::row_slots; ++s)
          storage.posted[buffer][s][warp] = value[s];
      }
      __syncthreads();
      int const first_warp = warp / warps_per_row * warps_per_row;
      ROWFUSE_UNROLL
      for (int s = 0; s < Layout::row_slots; ++s) {
        T total = storage.posted[buffer][s][first_warp];
        ROWFUSE_UNROLL
        for (int w = 1; w < warps_per_row; ++w)
          total = merge(total, storage.posted[buffer][s][first_warp + w]);
        value[s] = total;
      }
    } else {
      (void)storage;
      (void)thread;
      (void)buffer;
    }
  }
};

} // namespace rowfuse::collective
