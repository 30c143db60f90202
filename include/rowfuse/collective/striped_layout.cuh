// The general register layout of a tile: rows dealt to groups of consecutive threads, each row's
// columns dealt to the threads of its group in packs.
#pragma once

#include "../detail/config.hpp"
#include "layout.cuh"

namespace rowfuse::collective {

namespace layout_detail {

/// The fewest threads a row that still puts every thread to work when the tile has few rows:
/// threads / rows rounded up to a power of two (two lanes a row for 16 rows in a warp).
constexpr int default_threads_per_row(int rows, int threads) {
  int per_row = 1;
  while (per_row * rows < threads && per_row < threads)
    per_row *= 2;
  return per_row;
}

/// The widest pack, up to 8 columns (two 16-byte fp32 or one 16-byte fp16 access, and one
/// Philox block of dropout bits), that divides the row and still gives every thread of the row
/// a pack.
constexpr int default_pack(int cols, int threads_per_row) {
  for (int pack = 8; pack > 1; pack /= 2)
    if (cols % pack == 0 && cols / pack >= threads_per_row)
      return pack;
  return 1;
}

} // namespace layout_detail

/// Rows x Cols over `Threads` threads (32: a warp; more: a block), `ThreadsPerRow` consecutive
/// threads a row. With G = Threads / ThreadsPerRow rows at a time, thread t holds
///   slot s:  tile row s * G + t / ThreadsPerRow,
///   pack p:  tile columns (p * ThreadsPerRow + t % ThreadsPerRow) * Pack .. + Pack - 1,
///   register (s * packs_per_row + p) * Pack + j for column j of pack p.
/// Consecutive threads of a row hold consecutive packs, so a warp's accesses to a row in shared
/// memory are contiguous. Any Rows and Cols: slots and packs past them are padding (layout.cuh).
/// Cols must be a multiple of Pack.
///
/// For a 16 x 16 tile in a warp the default is two lanes a row and packs of 8: one pass over
/// all 16 rows, one shuffle per reduction. `striped_layout<16, 16, 32, 16>` is the 16-lanes-a-
/// row shape (two rows per instruction, eight slots a lane, four shuffles per reduction).
template <int Rows, int Cols, int Threads = 32,
          int ThreadsPerRow = layout_detail::default_threads_per_row(Rows, Threads),
          int Pack = layout_detail::default_pack(Cols, ThreadsPerRow)>
struct striped_layout {
  static_assert(Threads >= 32 && Threads % 32 == 0, "a layout spans a warp or a whole block");
  static_assert(ThreadsPerRow >= 1 && ThreadsPerRow <= Threads &&
                    (ThreadsPerRow & (ThreadsPerRow - 1)) == 0 && Threads % ThreadsPerRow == 0,
                "ThreadsPerRow: a power of two that divides Threads");
  static_assert(ThreadsPerRow <= 32 || ThreadsPerRow % 32 == 0,
                "a row spans part of a warp or whole warps");
  static_assert(Pack >= 1 && Cols % Pack == 0, "Cols must be a multiple of Pack");

  static constexpr int rows = Rows;
  static constexpr int cols = Cols;
  static constexpr int threads = Threads;
  static constexpr int threads_per_row = ThreadsPerRow;
  static constexpr int pack = Pack;
  static constexpr int rows_per_pass = Threads / ThreadsPerRow;
  static constexpr int row_slots = (Rows + rows_per_pass - 1) / rows_per_pass;
  static constexpr int packs_per_row = (Cols / Pack + ThreadsPerRow - 1) / ThreadsPerRow;
  static constexpr int values = row_slots * packs_per_row * Pack;

  static constexpr int value_index(int slot, int p, int j) {
    return (slot * packs_per_row + p) * Pack + j;
  }
  ROWFUSE_HD static int tile_row(int thread, int slot) {
    return slot * rows_per_pass + thread / ThreadsPerRow;
  }
  ROWFUSE_HD static int tile_col(int thread, int p) {
    return (p * ThreadsPerRow + thread % ThreadsPerRow) * Pack;
  }
};

} // namespace rowfuse::collective
