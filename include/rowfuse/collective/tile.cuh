// Where a tile sits in its tensor, and where its values come from and go to: the caller's
// registers, or a tile in shared memory read and written through the layout.
#pragma once

#include <type_traits>

#include "../detail/config.hpp"
#include "../detail/numeric.hpp"
#include "../detail/vector_io.hpp"
#include "layout.cuh"

namespace rowfuse::collective {

/// The tensor coordinates of a tile's element (0, 0): tile element (r, c) is tensor element
/// (row + r, col + c). Masks, the causal mask, dropout's bits and gamma / beta are addressed
/// by tensor coordinates, so a tile gets exactly what the whole-tensor op gives those elements.
struct tile_origin {
  index_t row = 0;
  index_t col = 0;
};

/// A tile in shared memory: tile element (r, c) at data[r * ld + c]. Packs of the layout are
/// read and written with vector accesses, so `data` and `ld * sizeof(T)` must be multiples of
/// min(16, Layout::pack * sizeof(T)) bytes (a 16 x 16 fp32 tile of ld 16 at a 16-byte aligned
/// address is, for every layout here).
template <class T> struct shared_tile {
  T* data;
  int ld;
};

namespace tile_detail {

/// The tile's values in the caller's registers (layout order).
template <tile_layout Layout> struct from_registers {
  float const (&values)[Layout::values];
  template <int N>
  __device__ __forceinline__ void read(int slot, int p, int, int, float (&x)[N]) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] = values[Layout::value_index(slot, p, j)];
  }
};

/// The tile's values in shared memory, widened to float.
template <class T> struct from_shared {
  shared_tile<T const> tile;
  template <int N>
  __device__ __forceinline__ void read(int, int, int row, int col, float (&x)[N]) const {
    std::remove_cv_t<T> raw[N];
    detail::load_pack<N>(tile.data + row * tile.ld + col, raw);
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] = detail::widen<float>(raw[j]);
  }
};

/// Results into the caller's registers (layout order), already rounded to T.
template <tile_layout Layout, class T> struct to_registers {
  using element_type = T;
  T (&values)[Layout::values];
  template <int N>
  __device__ __forceinline__ void write(int slot, int p, int, int, T const (&raw)[N]) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      values[Layout::value_index(slot, p, j)] = raw[j];
  }
};

/// Results into shared memory, already rounded to T.
template <class T> struct to_shared {
  using element_type = T;
  shared_tile<T> tile;
  template <int N>
  __device__ __forceinline__ void write(int, int, int row, int col, T const (&raw)[N]) const {
    detail::store_pack<N>(tile.data + row * tile.ld + col, raw);
  }
};

} // namespace tile_detail
} // namespace rowfuse::collective
