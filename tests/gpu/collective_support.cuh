// Shared by the collective tests (collective_*.cu): kernels that cut a tensor into tiles, hand
// each tile to a warp or a block in registers (laid out by the layout under test) or in shared
// memory, run one collective on it and write it back; and the host side that checks the result
// against the double reference of the same expressions over the whole tensor.
//
// Every register a layout calls padding, and every shared-memory element past the tile's
// columns, holds NaN: a collective that read one into a statistic would turn its row to NaN.
// Outputs start poisoned (support.cuh): an element never written fails.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include <rowfuse/collective.cuh>

#include "support.cuh"

namespace rfc = rowfuse::collective;

namespace ctest {

enum class row_op { softmax, log_softmax, layernorm, rmsnorm };

inline char const* name(row_op op) {
  switch (op) {
  case row_op::softmax:
    return "softmax";
  case row_op::log_softmax:
    return "log_softmax";
  case row_op::layernorm:
    return "layernorm";
  default:
    return "rmsnorm";
  }
}

/// Tiles cover the tensor row-major, `tiles_per_row` of them side by side.
template <class Layout>
__host__ __device__ rfc::tile_origin origin_of(long tile, long tiles_per_row) {
  return {tile / tiles_per_row * Layout::rows, tile % tiles_per_row * Layout::cols};
}

/// The tile of the calling warp (warp scope: every warp of the block has its own) or block.
template <class Scope> __device__ long tile_of() {
  if constexpr (std::is_same_v<Scope, rfc::warp_scope>)
    return long(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  else
    return long(blockIdx.x);
}

/// The tile's elements of x (row stride ld) into the layout's registers; padding gets NaN.
template <class Layout, class T>
__device__ void gather(float (&v)[Layout::values], T const* x, long ld, rfc::tile_origin origin,
                       int thread) {
  for (int s = 0; s < Layout::row_slots; ++s)
    for (int p = 0; p < Layout::packs_per_row; ++p)
      for (int j = 0; j < Layout::pack; ++j) {
        int const r = Layout::tile_row(thread, s), c = Layout::tile_col(thread, p) + j;
        v[Layout::value_index(s, p, j)] =
            r < Layout::rows && c < Layout::cols
                ? rf::detail::widen<float>(x[(origin.row + r) * ld + origin.col + c])
                : std::numeric_limits<float>::quiet_NaN();
      }
}

/// The layout's registers (not the padding) into y.
template <class Layout, class T>
__device__ void scatter(T const (&v)[Layout::values], T* y, long ld, rfc::tile_origin origin,
                        int thread) {
  for (int s = 0; s < Layout::row_slots; ++s)
    for (int p = 0; p < Layout::packs_per_row; ++p)
      for (int j = 0; j < Layout::pack; ++j) {
        int const r = Layout::tile_row(thread, s), c = Layout::tile_col(thread, p) + j;
        if (r < Layout::rows && c < Layout::cols)
          y[(origin.row + r) * ld + origin.col + c] = v[Layout::value_index(s, p, j)];
      }
}

/// What every kernel passes to the op besides the tile.
template <class In, class Out, class Affine> struct op_arguments {
  rfc::tile_transforms<In> in;
  rfc::tile_transforms<Out> out;
  Affine affine;
  float eps;
  rf::row_stats stats;
};

/// One op on a tile (registers or shared memory: `input` and `output` are either two register
/// arrays, the same array, or two shared_tiles).
template <row_op Op, class Layout, class Scope, class Input, class Output, class In, class Out,
          class Affine>
__device__ void apply(Input& input, Output& output, rfc::tile_origin origin,
                      op_arguments<In, Out, Affine> const& a) {
  if constexpr (Op == row_op::softmax || Op == row_op::log_softmax) {
    __shared__ typename rfc::row_softmax<Layout, Scope>::TempStorage storage;
    rfc::row_softmax<Layout, Scope> softmax(storage);
    constexpr bool in_place = std::is_same_v<Input, Output> && !std::is_class_v<Input>;
    if constexpr (in_place) {
      if constexpr (Op == row_op::softmax)
        softmax.softmax(input, origin, a.in, a.out);
      else
        softmax.log_softmax(input, origin, a.in, a.out);
    } else {
      if constexpr (Op == row_op::softmax)
        softmax.softmax(input, output, origin, a.in, a.out);
      else
        softmax.log_softmax(input, output, origin, a.in, a.out);
    }
  } else {
    __shared__ typename rfc::row_norm<Layout, Scope>::TempStorage storage;
    rfc::row_norm<Layout, Scope> norm(storage);
    constexpr bool registers = !std::is_class_v<Input>;
    if constexpr (registers) {
      if constexpr (Op == row_op::layernorm)
        norm.layernorm(input, a.affine, a.eps, origin, a.in, a.out, a.stats);
      else
        norm.rmsnorm(input, a.affine, a.eps, origin, a.in, a.out, a.stats.rstd);
    } else {
      if constexpr (Op == row_op::layernorm)
        norm.layernorm(input, output, a.affine, a.eps, origin, a.in, a.out, a.stats);
      else
        norm.rmsnorm(input, output, a.affine, a.eps, origin, a.in, a.out, a.stats.rstd);
    }
  }
}

/// Each warp (warp scope, 4 a block) or block takes one tile into registers, runs the op (in
/// place for fp32 outputs, into registers of OutT otherwise: softmax only) and writes it back.
template <class Layout, class Scope, row_op Op, class OutT, class In, class Out, class Affine>
__global__ void registers_kernel(float const* x, OutT* y, long ld, long tiles, long tiles_per_row,
                                 op_arguments<In, Out, Affine> a) {
  long const tile = tile_of<Scope>();
  if (tile >= tiles)
    return; // a whole warp (tile_of is per warp) or block
  int const thread = Scope::thread_rank();
  rfc::tile_origin const origin = origin_of<Layout>(tile, tiles_per_row);
  float v[Layout::values];
  gather<Layout>(v, x, ld, origin, thread);
  if constexpr (std::is_same_v<OutT, float>) {
    apply<Op, Layout, Scope>(v, v, origin, a);
    scatter<Layout>(v, y, ld, origin, thread);
  } else {
    OutT result[Layout::values];
    apply<Op, Layout, Scope>(v, result, origin, a);
    scatter<Layout>(result, y, ld, origin, thread);
  }
}

/// Each block (one warp for warp scope) copies its tile into shared memory of InT with row
/// stride Ld (NaN past the tile's columns), runs the op into a tile of OutT (the same tile when
/// InPlace) and copies the result out.
template <class Layout, class Scope, row_op Op, class InT, class OutT, int Ld, bool InPlace,
          class In, class Out, class Affine>
__global__ void shared_kernel(InT const* x, OutT* y, long ld, long tiles_per_row,
                              op_arguments<In, Out, Affine> a) {
  static_assert(!InPlace || std::is_same_v<InT, OutT>, "in place needs one element type");
  alignas(16) __shared__ InT input[Layout::rows * Ld];
  alignas(16) __shared__ OutT separate_output[InPlace ? 1 : Layout::rows * Ld];
  OutT* const output = InPlace ? reinterpret_cast<OutT*>(input) : separate_output;
  int const thread = Scope::thread_rank();
  rfc::tile_origin const origin = origin_of<Layout>(long(blockIdx.x), tiles_per_row);
  for (int i = thread; i < Layout::rows * Ld; i += Layout::threads) {
    int const r = i / Ld, c = i % Ld;
    input[i] = c < Layout::cols ? x[(origin.row + r) * ld + origin.col + c]
                                : rf::detail::narrow<InT>(std::numeric_limits<float>::quiet_NaN());
  }
  __syncthreads();
  rfc::shared_tile<InT> in_tile{input, Ld};
  rfc::shared_tile<OutT> out_tile{output, Ld};
  apply<Op, Layout, Scope>(in_tile, out_tile, origin, a);
  __syncthreads();
  for (int i = thread; i < Layout::rows * Layout::cols; i += Layout::threads) {
    int const r = i / Layout::cols, c = i % Layout::cols;
    y[(origin.row + r) * ld + origin.col + c] = output[r * Ld + c];
  }
}

/// Where the expressions are made: on the device (tensor coordinates through the tile's
/// origin) or for the host reference of the column block starting at `col0` (the reference sees
/// that block as a tensor of its own, so column-addressed operands start at col0).
struct chain_site {
  bool device;
  long col0;
};

/// The host reference of one op.
template <row_op Op, class L, class S, class Affine>
std::vector<double> reference(L const& load, S const& store, Affine const& affine, float eps,
                              rf::row_stats stats) {
  if constexpr (Op == row_op::softmax)
    return rf::reference::softmax(load, store);
  else if constexpr (Op == row_op::log_softmax)
    return rf::reference::log_softmax(load, store);
  else if constexpr (Op == row_op::layernorm)
    return rf::reference::layernorm(load, store, affine, eps, stats);
  else
    return rf::reference::rmsnorm(load, store, affine, eps, stats.rstd);
}

/// The bound for one output element against the exact value e, from the output type:
///  - softmax: 1e-6 relative in fp32 (the accurate exp and a correctly rounded reciprocal, as
///    rf::softmax), one ulp of a 16-bit or fp8 output (only its rounding remains);
///  - log-softmax: the same plus, in fp32, 4 ulps of the largest |x| (x - max - log(sum) is a
///    difference of terms as large as x, each rounded once in fp32): `spread` = max |x|;
///  - the norms: as the whole-tensor norm tests (norm_support.cuh): 1e-5 relative in fp32 (one
///    ulp in 16 bits) plus 16 u of the largest |e|, outputs near zero being differences.
template <row_op Op, class OutT> struct tolerance {
  double spread;
  double largest;
  double operator()(double e) const {
    constexpr bool fp32 = std::is_same_v<OutT, float>;
    if constexpr (Op == row_op::softmax)
      return test::tolerance<OutT>(e, 0.0);
    else if constexpr (Op == row_op::log_softmax)
      return test::tolerance<OutT>(e, fp32 ? 4 * 0x1p-24 * spread : 0.0);
    else
      return (fp32 ? 1e-5 * std::fabs(e) : test::ulp<OutT>(e)) + 16 * 0x1p-24 * largest;
  }
};

inline double largest_finite(std::vector<double> const& v) {
  double m = 0.0;
  for (double e : v)
    if (std::isfinite(e))
      m = std::max(m, std::fabs(e));
  return m;
}

/// Where the tile lives during the op.
enum class tile_in { registers, shared_memory };

/// The host side of one case: x [rows, cols] random in [lo, hi), tiles of Layout over it, the
/// op on every tile in registers or through shared memory of InT with row stride Ld, and every
/// output element against the reference.
///
/// `make(load, store, site)` returns {load expression, store expression, affine} built on the
/// expressions it is given: device ones (rfc::tile_load / tile_store of the whole tensor) or, for
/// each column block of tiles, host ones over that block.
template <class Layout, class Scope, row_op Op, tile_in Where, class InT = float,
          class OutT = float, int Ld = Layout::cols, bool InPlace = false, class Make>
void check(long rows, long cols, Make make, unsigned seed, float lo = -4.0f, float hi = 4.0f) {
  bool const shared = Where == tile_in::shared_memory;
  CAPTURE(name(Op));
  CAPTURE(rows);
  CAPTURE(cols);
  CAPTURE(shared);
  CAPTURE(Layout::threads_per_row);
  REQUIRE(rows % Layout::rows == 0);
  REQUIRE(cols % Layout::cols == 0);
  std::mt19937 rng(seed);
  test::mirrored<InT> x(std::size_t(rows * cols));
  test::mirrored<float> x_wide(std::size_t(rows * cols));
  test::mirrored<OutT> y(std::size_t(rows * cols)), y_ref(std::size_t(rows * cols));
  test::mirrored<float> mean{std::size_t(rows)}, rstd{std::size_t(rows)};
  test::mirrored<float> mean_ref{std::size_t(rows)}, rstd_ref{std::size_t(rows)};
  test::fill_uniform(x.host, rng, lo, hi);
  for (std::size_t i = 0; i < x.host.size(); ++i)
    x_wide.host[i] = rf::detail::widen<float>(x.host[i]);
  x.upload();
  x_wide.upload();
  test::poison(y.host);
  y.upload();
  test::poison(mean.host);
  test::poison(rstd.host);
  mean.upload();
  rstd.upload();
  float const eps = Op == row_op::layernorm ? 1e-5f : 1e-6f;

  // The reference, one column block of tiles at a time (each is its own tensor there).
  std::vector<double> exact(std::size_t(rows * cols));
  double spread = 0.0;
  for (float v : x_wide.host)
    spread = std::max(spread, double(std::fabs(v)));
  for (long col0 = 0; col0 < cols; col0 += Layout::cols) {
    auto const [load, store, affine] =
        make(rf::load(x_wide.h() + col0, rows, Layout::cols, cols),
             rf::store(y_ref.h() + col0, rows, Layout::cols, cols), chain_site{false, col0});
    auto const block =
        reference<Op>(load, store, affine, eps, rf::row_stats{mean_ref.h(), rstd_ref.h()});
    for (long r = 0; r < rows; ++r)
      for (long c = 0; c < Layout::cols; ++c)
        exact[std::size_t(r * cols + col0 + c)] = block[std::size_t(r * Layout::cols + c)];
  }

  auto const [load, store, affine] =
      make(rfc::tile_load(rows, cols), rfc::tile_store<OutT>(rows, cols), chain_site{true, 0});
  op_arguments<std::remove_cvref_t<decltype(load)>, std::remove_cvref_t<decltype(store)>,
               std::remove_cvref_t<decltype(affine)>> const arguments{
      rfc::bind(load), rfc::bind(store), affine, eps, rf::row_stats{mean.d(), rstd.d()}};
  long const tiles_per_row = cols / Layout::cols;
  long const tiles = rows / Layout::rows * tiles_per_row;
  if constexpr (Where == tile_in::shared_memory) {
    shared_kernel<Layout, Scope, Op, InT, OutT, Ld, InPlace>
        <<<unsigned(tiles), Layout::threads>>>(x.d(), y.d(), cols, tiles_per_row, arguments);
  } else {
    static_assert(std::is_same_v<InT, float>, "register tiles start from fp32 values");
    bool const warp = std::is_same_v<Scope, rfc::warp_scope>;
    unsigned const per_block = warp ? 4 : 1;
    registers_kernel<Layout, Scope, Op>
        <<<unsigned((tiles + per_block - 1) / per_block), Layout::threads * per_block>>>(
            x_wide.d(), y.d(), cols, tiles, tiles_per_row, arguments);
  }
  test::sync_and_check();
  tolerance<Op, OutT> const bound{spread, largest_finite(exact)};
  CHECK_MATCHES(test::compare_within(y.download(), exact, rows, cols, cols, 0, bound));
  if constexpr (Op == row_op::layernorm || Op == row_op::rmsnorm) {
    if (cols == Layout::cols) { // one tile a row: its statistics are the row's
      auto const got_rstd = rstd.download();
      auto const got_mean = mean.download();
      for (long r = 0; r < rows; ++r) {
        CHECK(std::fabs(got_rstd[std::size_t(r)] - rstd_ref.host[std::size_t(r)]) <=
              1e-5 * std::fabs(rstd_ref.host[std::size_t(r)]));
        if (Op == row_op::layernorm)
          CHECK(std::fabs(got_mean[std::size_t(r)] - mean_ref.host[std::size_t(r)]) <=
                0x1p-22 * std::fabs(mean_ref.host[std::size_t(r)]) +
                    1e-6 / rstd_ref.host[std::size_t(r)]);
      }
    }
  }
}

/// No transforms: the plain op.
struct plain {
  template <class L, class S> auto operator()(L const& load, S const& store, chain_site) const {
    return std::make_tuple(load, store, rf::no_affine_t{});
  }
};

} // namespace ctest
