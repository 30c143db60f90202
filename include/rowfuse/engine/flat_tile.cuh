// Flat tiles: a block's tile of consecutive rows of single elements, staged in shared memory as
// the one span of memory they cover, so that rows off the 16-byte grid (odd widths, pointers a few
// elements off, ld = cols + 1) travel in 16-byte cp.async copies as aligned rows do. Rows of
// packs on groups of 2-16 lanes take them too (register_config::stages_flat): each lane's own
// loads of a pack would touch 32 / group rows a warp instruction and a sector or two of each line,
// where the tile's copies fill lines (bench/NOTES.md, fifty-second session). Their rows may be
// phased (engine/phased_row.cuh): the slot keeps each element's offset from the 16-byte grid
// (`first`), so a pack that starts on the grid in global memory starts on it in the slot too.
//
// Rows of a few dozen single elements are bound by the bytes a warp has in flight: read element
// by element, a warp holds a few hundred bytes of loads at once, and an SM needs some 16 KB in
// flight to stream at a copy's speed (bench/NOTES.md, thirty-fifth session). Rows r0 .. r0 + R - 1
// of a view of leading dimension ld cover the span from row r0's first element to row r0 + R - 1's
// last: R x ld elements at most, the gaps between rows (ld > cols) included. The span's whole
// 16-byte chunks go by cp.async, issued by every thread of the block; the elements before its first
// chunk and after its last (its head and tail: fewer than 16 bytes each) are read by one thread an
// element into a register and written to the tile when it lands (`land`), so that no thread waits
// on a load while the tile is in flight. Threads then read any row's elements from the tile
// (`at`): each thread reads what others copied, so a barrier separates the copies from the reads,
// and the reads of one tile from the copies of the next into the same slot.
#pragma once

#include <cstdint>

#include "../detail/async_copy.cuh"
#include "../detail/config.hpp"

namespace rowfuse::engine {

/// A flat tile of up to `Rows` rows of T whose leading dimension is at most `MaxLd` (wider strides
/// are read from global memory: `fits`), staged into one slot of `slot_elements`.
template <class T, int Rows, int MaxLd> struct flat_tile {
  /// Elements of a 16-byte chunk.
  static constexpr int chunk = int(16 / sizeof(T));
  /// A slot's elements: the span of Rows rows of MaxLd, starting up to a chunk before the tile's
  /// first element, in whole chunks.
  static constexpr int slot_elements = (Rows * MaxLd + 2 * chunk - 1) / chunk * chunk;
  static constexpr int slot_bytes = slot_elements * int(sizeof(T));
  static_assert(2 * chunk - 2 <= 32, "a warp holds the head and tail elements");

  /// Whether a view of leading dimension `ld` is staged flat; uniform over the grid.
  static __device__ bool fits(index_t ld) { return ld <= MaxLd; }

  T* slot = nullptr;   // the tile's slot in shared memory
  int first = 0;       // where the tile's first element lies in the slot: 0 .. chunk - 1
  int ld = 0;          // the view's
  T pending = T();     // this thread's head or tail element, read ahead
  int pending_at = -1; // its place in the slot; -1: none

  /// Starts copying rows r0 .. r0 + rows - 1 (1 <= rows <= Rows) of a view of leading dimension
  /// `view_ld` (fits) whose row r0 begins at `start` into `slot_memory`, with the block's
  /// `threads` threads; the copies are committed as one group. Thread `thread` < 2 x chunk - 2
  /// reads one head or tail element ahead, if the span has it.
  static __device__ flat_tile stage(T* slot_memory, T const* start, index_t view_ld, index_t cols,
                                    index_t rows, int thread, int threads) {
    flat_tile tile;
    tile.slot = slot_memory;
    tile.ld = int(view_ld);
    tile.first = int(reinterpret_cast<std::uintptr_t>(start) % 16 / sizeof(T));
    T const* const base = start - tile.first; // the chunk that holds the first element
    int const end = tile.first + int(rows - 1) * tile.ld + int(cols); // past the last element
    // Whole chunks lie in [lo, hi); the head is [first, min(lo, end)), the tail [max(hi, lo), end).
    int const lo = (tile.first + chunk - 1) / chunk * chunk;
    int const hi = end / chunk * chunk;
    for (int at = lo + thread * chunk; at < hi; at += threads * chunk)
      detail::async_copy_pack<chunk>(tile.slot + at, base + at);
    detail::async_copy_commit();
    int const head_end = lo < end ? lo : end;
    int const tail = hi > lo ? hi : lo;
    int const mine = thread < chunk - 1 ? tile.first + thread : tail + thread - (chunk - 1);
    bool const in_head = thread < chunk - 1 && mine < head_end;
    bool const in_tail = thread >= chunk - 1 && thread < 2 * chunk - 2 && mine < end;
    if (in_head || in_tail) {
      tile.pending_at = mine;
      tile.pending = base[mine];
    }
    return tile;
  }

  /// Writes this thread's head or tail element into the slot. The tile is whole once every thread
  /// has landed its element and waited for its copies, and the block has passed a barrier.
  __device__ void land() const {
    if (pending_at >= 0)
      slot[pending_at] = pending;
  }

  /// The tile's row `row` (its first element, in shared memory).
  __device__ T const* row(int row) const { return slot + first + row * ld; }
};
} // namespace rowfuse::engine
