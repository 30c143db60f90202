// Phased rows: a row whose start is off the 16-byte grid (an odd width, a pointer a few elements
// off) read in whole packs from its first column on the grid, and its edges as single elements.
//
// Where every view a call streams starts each row equally far off the grid (the dispatcher checks
// it: detail::row_phase), row r's columns first_r, first_r + N, ... begin a pack of N elements in
// every view at once. The register engine then moves the row's middle in packs, as on aligned
// rows, and its head (the columns before first_r) and tail (those after the last whole pack), at
// most 2N - 2 of them, as single elements spread over the row's lanes (one a lane, or several on
// narrow compile-time groups: register_config::edges_per_lane). first_r changes from row to row
// where ld is not a multiple of N, so it is worked out from each row's address.
#pragma once

#include <cstdint>

#include "../detail/config.hpp"

namespace rowfuse::engine {

/// One row of a phased call at packs of N: whole packs from column `first`, and `edges` columns
/// outside them (the head, columns 0 .. first - 1, then the tail).
template <int N> struct phased_row {
  index_t first = 0; // the first column on the grid: 0 .. N - 1, or cols where the row is shorter
  index_t packs = 0; // whole packs from `first` on
  int edges = 0;     // columns outside them: at most 2N - 2

  /// The row of `cols` elements that starts at `start`.
  template <class T> __device__ static phased_row at(T const* start, index_t cols) {
    auto const element = reinterpret_cast<std::uintptr_t>(start) / sizeof(T);
    index_t const to_grid = index_t((N - element % N) % N);
    index_t const first = to_grid < cols ? to_grid : cols;
    index_t const packs = (cols - first) / N;
    return {first, packs, int(cols - packs * N)};
  }

  /// The column of edge `edge` (< edges): the head's in order, then the tail's.
  __device__ index_t edge_column(int edge) const {
    return edge < first ? index_t(edge) : packs * N + index_t(edge);
  }
};

} // namespace rowfuse::engine
