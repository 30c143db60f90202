// What a tile layout is: which element of a tile each thread of a warp or block holds, and in
// which of its registers. Every collective takes its layout as a type; the values themselves
// are a plain `float values[Layout::values]` array of the caller's (registers), or a tile in
// shared memory read and written through the same map.
#pragma once

#include <concepts>

#include "../detail/config.hpp"

namespace rowfuse::collective {

/// A layout spreads a tile of `rows` x `cols` elements over `threads` threads (32: a warp; a
/// multiple of 32: a block), each holding `values` of them:
///  - the threads that share a tile row are `threads_per_row` consecutive threads (a power of
///    two; consecutive lanes, or consecutive warps past 32), the reductions' butterfly group;
///  - a thread holds `row_slots` rows, slot s being tile row `tile_row(thread, s)`;
///  - in each slot, `packs_per_row` packs of `pack` consecutive columns, pack p starting at tile
///    column `tile_col(thread, p)` (the same in every slot, increasing in p);
///  - element j of pack p of slot s is register `value_index(s, p, j)`.
/// Slots past the tile's rows and packs past its columns are padding: the collectives neither
/// read nor write them through a shared-memory tile, count them in no statistic, and leave
/// their registers unspecified. Because tile_col increases in p, a thread's real packs in a
/// slot are a prefix (the ops' reductions take them as a count).
template <class Layout>
concept tile_layout = requires(int thread, int slot, int pack) {
  requires Layout::rows >= 1 && Layout::cols >= 1;
  requires Layout::threads >= 32 && Layout::threads % 32 == 0;
  requires Layout::threads_per_row >= 1 &&
      (Layout::threads_per_row & (Layout::threads_per_row - 1)) == 0;
  requires Layout::pack >= 1 && Layout::row_slots >= 1 && Layout::packs_per_row >= 1;
  requires Layout::values == Layout::row_slots* Layout::packs_per_row* Layout::pack;
  { Layout::value_index(slot, pack, 0) } -> std::same_as<int>;
  { Layout::tile_row(thread, slot) } -> std::same_as<int>;
  { Layout::tile_col(thread, pack) } -> std::same_as<int>;
};

/// Whether slot `slot` of `thread` is a row of the tile.
template <tile_layout Layout> ROWFUSE_HD bool holds_row(int thread, int slot) {
  return Layout::tile_row(thread, slot) < Layout::rows;
}

/// How many of `thread`'s packs in each slot are columns of the tile (a prefix).
template <tile_layout Layout> ROWFUSE_HD int packs_held(int thread) {
  int held = 0;
  ROWFUSE_UNROLL
  for (int p = 0; p < Layout::packs_per_row; ++p)
    if (Layout::tile_col(thread, p) < Layout::cols)
      held = p + 1;
  return held;
}

/// Two layouts put the same tile rows in the same slots of the same threads: an accumulator
/// laid out by one (attention's O) can be rescaled row by row with statistics of the other (the
/// scores S).
template <class A, class B>
inline constexpr bool same_rows =
    A::rows == B::rows&& A::threads == B::threads&& A::threads_per_row ==
    B::threads_per_row&& A::row_slots == B::row_slots;

} // namespace rowfuse::collective
