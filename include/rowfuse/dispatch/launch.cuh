// From a plan to a launch. The table of kernel instantiations is generated at compile time:
// the cartesian product (Hana) of the pack widths an input type can use with the engine shapes
// of tuning.hpp. At run time the plan picks one entry; everything inside the kernel is static.
#pragma once

#include <algorithm>
#include <iterator>
#include <type_traits>
#include <utility>

#include <boost/hana/cartesian_product.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/integral_constant.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include "../engine/cluster_engine.cuh"
#include "../engine/register_engine.cuh"
#include "../engine/streaming_engine.cuh"
#include "../expr/expression.hpp"
#include "plan.hpp"
#include "tuning.hpp"

namespace rowfuse::detail {

namespace hana = boost::hana;

/// Engine shapes, without the pack width: (kind, packs per thread, block threads, blocks per row).
template <engine_kind Kind, int Packs, int BlockThreads, int ClusterBlocks = 1, bool Staged = false>
struct engine_shape {
  static constexpr engine_kind kind = Kind;
  static constexpr int packs = Packs;
  static constexpr int block_threads = BlockThreads;
  static constexpr int cluster_blocks = ClusterBlocks;
  static constexpr bool staged = Staged;
};

/// block_cluster sizes: cluster_blocks_for picks among 2, 4, 8 and 16.
template <int C>
using cluster_shape = engine_shape<engine_kind::block_cluster, 1, tuning::cluster_block_threads, C>;

template <int I>
using block_rows_shape =
    engine_shape<engine_kind::block_rows, tuning::block_rows_shapes[I].packs,
                 tuning::block_rows_shapes[I].threads, 1, tuning::block_rows_shapes[I].staged>;

static_assert(tuning::warp_rows_max_packs == 2, "engine_shapes lists warp_rows packs 1, 2");
static_assert(std::size(tuning::block_rows_shapes) == 7, "engine_shapes lists 7 block_rows shapes");

inline constexpr auto engine_shapes =
    hana::tuple_t<engine_shape<engine_kind::warp_rows, 1, tuning::warp_rows_block_threads>,
                  engine_shape<engine_kind::warp_rows, 2, tuning::warp_rows_block_threads>,
                  block_rows_shape<0>, block_rows_shape<1>, block_rows_shape<2>,
                  block_rows_shape<3>, block_rows_shape<4>, block_rows_shape<5>,
                  block_rows_shape<6>,
                  engine_shape<engine_kind::block_smem, 1, tuning::streaming_block_threads>,
                  cluster_shape<2>, cluster_shape<4>, cluster_shape<8>, cluster_shape<16>,
                  engine_shape<engine_kind::block_uncached, 1, tuning::streaming_block_threads>>;

/// The widest pack for T: 16 bytes (8 fp16/bf16, 4 fp32). The narrow fallback is one element,
/// for odd widths and pointers.
template <class T> inline constexpr int widest_pack = int(16 / sizeof(T));

template <class T> inline constexpr auto pack_widths = hana::tuple_c<int, widest_pack<T>, 1>;

template <int N, class Shape> struct kernel_for {
  static constexpr bool streaming =
      Shape::kind == engine_kind::block_smem || Shape::kind == engine_kind::block_uncached;
  static constexpr bool clustered = Shape::kind == engine_kind::block_cluster;
  /// block_rows holds at most tuning::block_rows_max_values per thread (a 1024-thread block
  /// has 64 registers a thread); the plan never picks a shape past that.
  static constexpr bool worth_instantiating =
      Shape::kind != engine_kind::block_rows || N * Shape::packs <= tuning::block_rows_max_values;
  using config = std::conditional_t<
      clustered, engine::cluster_config<N, Shape::block_threads, Shape::cluster_blocks>,
      std::conditional_t<
          streaming,
          engine::streaming_config<N, Shape::block_threads, Shape::kind == engine_kind::block_smem>,
          engine::register_config<N, Shape::packs, Shape::block_threads,
                                  Shape::kind == engine_kind::block_rows, Shape::staged>>>;
};

/// Blocks of `kernel` that fit on one SM: the persistent grid is this times the SM count.
template <class Kernel> int resident_blocks(Kernel kernel, int block_threads, std::size_t smem) {
  int blocks = 0;
  cudaError_t const s =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, smem);
  if (s != cudaSuccess)
    fail("occupancy query failed: ", cudaGetErrorString(s));
  return std::max(blocks, 1);
}

template <class Config, class Op, class Load, class Store>
void launch_engine(plan& p, Op const& op, Load const& load, Store const& store, cudaStream_t stream,
                   device_info const& dev) {
  index_t const rows_per_block = p.block_threads / p.group;
  index_t const tiles = (p.rows + rows_per_block - 1) / rows_per_block;
  if constexpr (requires { Config::cached; }) {
    auto kernel = engine::streaming_kernel<Config, Op, Load, Store>;
    // Past 48 KB (static shared memory included) a kernel must opt in; opt in to the device's
    // whole per-block limit once, so every later width fits without another call.
    static bool opted_in[64] = {};
    if (!opted_in[dev.id % 64]) {
      cudaFuncAttributes attributes{};
      check_launch(cudaFuncGetAttributes(&attributes, kernel), p);
      int const dynamic_limit =
          int(dev.shared_memory_per_block_optin) - int(attributes.sharedSizeBytes);
      check_launch(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic_limit),
          p);
      opted_in[dev.id % 64] = true;
    }
    int const blocks = resident_blocks(kernel, p.block_threads, p.dynamic_smem);
    p.grid = std::min<index_t>(tiles, index_t(blocks) * dev.multiprocessors);
    kernel<<<unsigned(p.grid), p.block_threads, p.dynamic_smem, stream>>>(op, load, store, p.rows,
                                                                          p.cols);
  } else {
    auto kernel = engine::register_kernel<Config, Op, Load, Store>;
    p.dynamic_smem = std::size_t(Config::template staging_bytes<typename Load::element_type>);
    // The occupancy query costs about as much as a launch: ask once per device and kernel
    // (opting in past 48 KB of staging first).
    static int blocks_per_device[64] = {};
    int& blocks = blocks_per_device[dev.id % 64];
    if (blocks == 0) {
      if (p.dynamic_smem > 48 * 1024)
        check_launch(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          int(p.dynamic_smem)),
                     p);
      blocks = resident_blocks(kernel, p.block_threads, p.dynamic_smem);
    }
    p.grid = std::min<index_t>(tiles, index_t(blocks) * dev.multiprocessors);
    int group_log2 = 0;
    while ((1 << group_log2) < p.group)
      ++group_log2;
    kernel<<<unsigned(p.grid), p.block_threads, p.dynamic_smem, stream>>>(op, load, store, p.rows,
                                                                          p.cols, group_log2);
  }
  check_launch(cudaSuccess, p);
}

/// Binds and checks the expressions, plans, and launches the kernel of the plan.
template <class Op, class Load, class Store>
plan run_op(Op const& op, Load const& load_expr, Store const& store_expr, cudaStream_t stream,
            launch_options const& options) {
  using T = typename Load::element_type;
  check_store_expr<Store>();
  auto const load = bind(load_expr, Op::name);
  index_t const rows = load.input.rows, cols = load.input.cols;
  auto const store = bind(store_expr, Op::name, rows, cols);
  device_info const& dev = current_device();

  constexpr int wide = widest_pack<T>;
  bool const wide_ok =
      options.pack != 1 && cols % wide == 0 && load.input.aligned_to(pack_alignment<T, wide>) &&
      chain_allows_pack<wide>(load) &&
      store.output.aligned_to(pack_alignment<typename Store::element_type, wide>) &&
      chain_allows_pack<wide>(store) && op.template aligned_for_pack<wide>();
  if (options.pack > 1 && !wide_ok)
    fail(Op::name, ": pack = ", options.pack, " was forced but the views or cols = ", cols,
         " do not allow packs of ", wide);
  if (options.pack != 0 && options.pack != 1 && options.pack != wide)
    fail(Op::name, ": pack = ", options.pack, " is not available; use 0, 1 or ", wide);

  plan p = choose_plan(Op::name, rows, cols, wide_ok ? wide : 1, options.engine, dev,
                       engine::cache_element_bytes<Load>);
  if (p.engine == engine_kind::automatic)
    return p; // rows == 0 or cols == 0: nothing to do

  bool launched = false;
  hana::for_each(hana::cartesian_product(hana::make_tuple(pack_widths<T>, engine_shapes)),
                 [&]<class Entry>(Entry) { // only the entry's type is used
                   constexpr int N = decltype(+hana::at_c<0>(std::declval<Entry>()))::value;
                   using shape = typename decltype(+hana::at_c<1>(std::declval<Entry>()))::type;
                   if constexpr (kernel_for<N, shape>::worth_instantiating) {
                     if (launched || N != p.pack || shape::kind != p.engine ||
                         shape::block_threads != p.block_threads || shape::packs != p.packs ||
                         shape::cluster_blocks != p.cluster_blocks)
                       return;
                     launched = true;
                     // (A requires-expression on the config here crashes cicc 13.0: use the
                     // kernel_for trait.)
                     using config = typename kernel_for<N, shape>::config;
                     if constexpr (kernel_for<N, shape>::clustered)
                       launch_cluster<config>(p, op, load, store, stream, dev);
                     else
                       launch_engine<config>(p, op, load, store, stream, dev);
                   }
                 });
  if (!launched)
    fail(Op::name, ": internal error: no kernel instantiated for plan ", explain(p));
  return p;
}

} // namespace rowfuse::detail
