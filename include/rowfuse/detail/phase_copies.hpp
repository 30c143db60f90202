// A per-column operand copied at each phase of the pack grid, for rows off that grid.
#pragma once

#include "config.hpp"
#include "vector_io.hpp"

namespace rowfuse::detail {

/// Elements between the copies of an operand of `cols` columns at packs of N: room for the last
/// copy's index cols + N - 2, rounded up to whole packs, so that every copy starts on the grid.
template <int N> constexpr index_t phase_copy_stride(index_t cols) {
  return (cols + 2 * N - 2) / N * N;
}

/// A per-column operand (a norm's gamma or beta) copied once per call at each of the N element
/// offsets from the grid of N-element packs. A phased row (engine/phased_row.cuh) starts its packs
/// at its own first column on the input's grid, which moves from row to row where ld is not a
/// multiple of N, so the operand's pack at a column is off the operand's grid in most rows; the
/// copy that shifts it back onto the grid gives it with one aligned vector load. Read in place it
/// took 4-5 loads and 4 shifts a pack (bench/NOTES.md, fifty-eighth session).
///
/// Copy s (0 .. N-1) holds the operand's element i - s at copies[s * (step - 1) + i], for s <= i <
/// cols + s: `step - 1` elements from one copy to the next (phase_copy_stride), so that the pack at
/// col0 in copy s is at copies + s * step + col0. step = 0 reads the operand itself (copies = its
/// data), where every row's packs are on its grid: rows of one phase, at which it is aligned.
template <class T> struct phase_copies {
  T const* copies = nullptr; // on the grid of N-element packs
  index_t step = 0;

  /// The operand's elements col0 .. col0 + N - 1 (0 <= col0, col0 + N <= cols) on a phased row
  /// whose packs start at `row_first` (col0 - row_first a multiple of N), from the copy that puts
  /// them on the grid. The copy depends on row_first alone, so that its offset is worked out once a
  /// row, not once a pack. Through the read-only path: nothing writes the copies while a kernel
  /// reads them, so the loads may be issued ahead of the row's stores.
  template <int N> __device__ word_pack<T, N> read(index_t row_first, index_t col0) const {
    static_assert((N & (N - 1)) == 0, "packs of a power of two");
    index_t const shift = index_t(int(-row_first) & (N - 1)); // (N - row_first % N) % N
    using pack = word_pack<T, N>;
    auto const* const words =
        reinterpret_cast<typename pack::word const*>(copies + shift * step + col0);
    pack loaded;
    ROWFUSE_UNROLL
    for (int i = 0; i < pack::words; ++i)
      loaded.w[i] = __ldg(words + i);
    return loaded;
  }
};

} // namespace rowfuse::detail
