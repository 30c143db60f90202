// view<T>: where a row-major [rows, cols] tensor lives. The op's input, its output, and the
// operands of transforms (a residual, a mask, a tee target) are all views. An operand may
// broadcast over the leading dimensions of the input: a [B,1,Q,K] mask over [B,H,Q,K] scores
// is a view whose row r maps to the mask row of (b, q) that r = (b*H + h)*Q + q names.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "../detail/config.hpp"
#include "../detail/vector_io.hpp"
#include "../error.hpp"

namespace rowfuse {

/// Up to this many leading dimensions in a broadcast shape ([B, H, Q, K] has 3 before K).
inline constexpr int max_leading_dims = 4;

namespace detail {

/// Maps a row of the op's [rows, cols] tensor to the element offset of the view's row.
/// Rank 0 is the plain case, row * ld. Otherwise the row index is decomposed into the
/// target's leading dimensions; only those the view does not broadcast over are kept.
struct row_map {
  int rank = 0;
  index_t inner[max_leading_dims] = {};  // product of the target extents after dimension i
  index_t extent[max_leading_dims] = {}; // the target extent of dimension i
  index_t stride[max_leading_dims] = {}; // elements between rows one step apart in dimension i

  ROWFUSE_HD index_t offset(index_t row, index_t ld) const {
    if (rank == 0)
      return row * ld;
    index_t result = 0;
    ROWFUSE_UNROLL
    for (int i = 0; i < max_leading_dims; ++i)
      if (i < rank)
        result += (row / inner[i]) % extent[i] * stride[i];
    return result;
  }
};

} // namespace detail

template <class T> struct view {
  using element_type = T;

  T* data = nullptr;
  index_t rows = -1; // -1: the op's rows
  index_t cols = -1; // -1: the op's cols
  index_t ld = -1;   // elements from one row to the next; -1: cols
  detail::row_map map{};
  index_t broadcast_rows = -1; // rows of the target shape of a broadcast view; -1: none

  ROWFUSE_HD T* row(index_t r) const { return data + map.offset(r, ld); }
  /// row(r) for a view without a broadcast map (the op's input and output always are): no
  /// branch on the map, whose 64-bit divisions would hold registers in every engine.
  ROWFUSE_HD T* dense_row(index_t r) const { return data + r * ld; }
  ROWFUSE_HD T& at(index_t r, index_t c) const { return row(r)[c]; }

  /// Whether every row start is aligned to `bytes`, so packs of that many bytes never fault.
  bool aligned_to(std::size_t bytes) const {
    if (reinterpret_cast<std::uintptr_t>(data) % bytes != 0)
      return false;
    if (map.rank == 0)
      return std::size_t(ld) * sizeof(T) % bytes == 0;
    for (int i = 0; i < map.rank; ++i)
      if (std::size_t(map.stride[i]) * sizeof(T) % bytes != 0)
        return false;
    return true;
  }

  /// Resolves the "same as the op" defaults against the op's shape and checks the view:
  /// a null pointer with a nonzero size, ld < cols and a shape that differs from the op's
  /// all raise rowfuse::error naming `where` and `name`.
  view bind(char const* where, char const* name, index_t op_rows, index_t op_cols) const {
    view bound = *this;
    // -1 means "the op's"; any other negative value is an error the checks below report.
    if (bound.rows == -1 && broadcast_rows < 0)
      bound.rows = op_rows;
    if (bound.cols == -1)
      bound.cols = op_cols;
    if (bound.ld == -1)
      bound.ld = bound.cols;
    if (broadcast_rows >= 0) {
      if (broadcast_rows != op_rows)
        detail::fail(where, ": ", name, " broadcasts over ", broadcast_rows,
                     " rows (the product of its target's leading dimensions), but the input has ",
                     op_rows);
      bound.rows = op_rows;
    }
    if (bound.rows != op_rows)
      detail::fail(where, ": ", name, " has rows = ", bound.rows, ", the input has ", op_rows);
    if (bound.cols != op_cols)
      detail::fail(where, ": ", name, " has cols = ", bound.cols, ", the input has ", op_cols);
    if (bound.ld < bound.cols)
      detail::fail(where, ": ", name, ".ld = ", bound.ld, " must be >= cols = ", bound.cols);
    if (bound.data == nullptr && bound.rows > 0 && bound.cols > 0)
      detail::fail(where, ": ", name, " is a null pointer with ", bound.rows, " x ", bound.cols,
                   " elements");
    return bound;
  }
};

namespace detail {

/// Where the rows of a call's input start against the grid of packs of N elements (the register
/// engine's phased rows, engine/phased_row.cuh): row r at element r * ld + start of the address
/// space in units of the input's element. Another view may be read or written in the same packs
/// when each of its rows starts as far off the grid as the input's row, in units of its own pack
/// alignment. (Per-column vectors, gamma, beta and rf::bias's, are read off their grid:
/// read_operand_off_grid.)
struct row_phase {
  std::uintptr_t start = 0; // the input's address / its element size
  index_t ld = 0;
  index_t rows = 0;

  template <class T> static row_phase of(view<T> const& input) {
    return {reinterpret_cast<std::uintptr_t>(input.data) / sizeof(T), input.ld, input.rows};
  }

  /// Whether `other`'s rows (dense: no broadcast map) start as far off its grid as the input's.
  template <int N, class T> bool admits(view<T> const& other) const {
    return other.map.rank == 0 && same_start<N>(other) &&
           (rows <= 1 || lag<N, T>(index_t(other.ld) - ld) == 0);
  }

private:
  /// Elements of T that one pack's alignment spans (a divisor of N).
  template <int N, class T>
  static constexpr index_t span = index_t(pack_alignment<std::remove_cv_t<T>, N>) /
                                  index_t(sizeof(std::remove_cv_t<T>));
  template <int N, class T> static index_t lag(index_t elements) {
    index_t const rest = elements % span<N, T>;
    return rest < 0 ? rest + span<N, T> : rest;
  }
  template <int N, class T> bool same_start(view<T> const& other) const {
    auto const address = reinterpret_cast<std::uintptr_t>(other.data);
    using element = std::remove_cv_t<T>;
    return address % sizeof(element) == 0 &&
           (address / sizeof(element) - start) % std::uintptr_t(span<N, T>) == 0;
  }
};

} // namespace detail

/// A dense row-major tensor; `ld` defaults to `cols`. Shapes left at -1 are the op's.
template <class T>
constexpr view<T> dense(T* data, index_t rows = -1, index_t cols = -1, index_t ld = -1) {
  return view<T>{data, rows, cols, ld, {}, -1};
}

/// A dense tensor of shape `shape` read as if it had shape `over`, numpy-style: each
/// dimension of `shape` is 1 (broadcast) or equal to that of `over`, and the last dimension is
/// the op's columns. `broadcast(mask, {B, 1, Q, K}, {B, H, Q, K})` lays a per-batch causal or
/// padding mask over every head of [B*H*Q, K] scores.
template <class T>
view<T> broadcast(T* data, std::initializer_list<index_t> shape,
                  std::initializer_list<index_t> over) {
  char const* where = "rf::broadcast";
  if (shape.size() != over.size())
    detail::fail(where, ": shape has ", shape.size(), " dimensions, over has ", over.size());
  if (over.size() < 1 || over.size() > std::size_t(max_leading_dims) + 1)
    detail::fail(where, ": over has ", over.size(), " dimensions; 1 to ", max_leading_dims + 1,
                 " are supported");
  index_t const* s = shape.begin();
  index_t const* o = over.begin();
  int const leading = int(over.size()) - 1;
  for (int i = 0; i < leading; ++i) {
    if (o[i] < 0)
      detail::fail(where, ": over[", i, "] = ", o[i], " must be >= 0");
    if (s[i] != o[i] && s[i] != 1)
      detail::fail(where, ": shape[", i, "] = ", s[i], " must be 1 or over[", i, "] = ", o[i]);
  }
  if (s[leading] != o[leading])
    detail::fail(where, ": shape's last dimension ", s[leading],
                 " must equal over's last dimension ", o[leading], " (the columns)");
  view<T> v{data, -1, o[leading], o[leading], {}, 1};
  // Row-major strides of the operand's own shape, in elements.
  index_t stride = s[leading];
  index_t inner = 1;
  index_t strides[max_leading_dims] = {};
  index_t inners[max_leading_dims] = {};
  for (int i = leading - 1; i >= 0; --i) {
    strides[i] = stride;
    inners[i] = inner;
    stride *= s[i];
    inner *= o[i];
  }
  v.broadcast_rows = inner;
  for (int i = 0; i < leading; ++i) {
    if (s[i] == 1 || o[i] == 1)
      continue; // broadcast dimension: adds nothing to the offset
    int const k = v.map.rank++;
    v.map.inner[k] = inners[i];
    v.map.extent[k] = o[i];
    v.map.stride[k] = strides[i];
  }
  if (v.map.rank == 0) {
    // Every leading dimension broadcasts: all rows read the same operand row.
    v.map.rank = 1;
    v.map.inner[0] = 1;
    v.map.extent[0] = 1;
    v.map.stride[0] = 0;
  }
  return v;
}

} // namespace rowfuse
