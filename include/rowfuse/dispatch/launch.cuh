// From a plan to a launch: every host launch path of the engines.
//
// The kernel table is generated from the tuning data: one register_kernel per row of the
// register-shape table that applies to the call's input type and op (dispatch/tuning.hpp),
// for the widest pack and for single elements (and, for the widest pack, a twin on blocks the
// launch sizes where the row is sized_at_launch), plus the streaming and cluster engines for rows
// past the registers. The plan names its table row; the launcher instantiates exactly the rows a
// caller's column bound (cols_range) admits (compiled_rows.hpp), and completes the plan (grid,
// shared memory) before the launch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "../engine/cluster_engine.cuh"
#include "../engine/register_engine.cuh"
#include "../engine/streaming_engine.cuh"
#include "../expr/expression.hpp"
#include "../op/norm.cuh"
#include "../op/norm_backward.cuh"
#include "../op/softmax.cuh"
#include "../op/softmax_backward.cuh"
#include "cluster_sizing.hpp"
#include "compiled_rows.hpp"
#include "kernel_cache.hpp"
#include "phase_copies.cuh"
#include "plan.hpp"
#include "register_config.cuh"
#include "tuning.hpp"

namespace rowfuse::detail {

/// The widest pack for T: 16 bytes (8 fp16/bf16, 4 fp32). The narrow fallback is one element,
/// for odd widths and pointers.
template <class T> inline constexpr int widest_pack = int(16 / sizeof(T));

/// The register shapes an op takes (tuning::shapes_for): for a gradient_op (it holds a second
/// stream, which doubles the values a thread holds) softmax backward's or the norms' backward's;
/// otherwise log-softmax's, rmsnorm's, layernorm's, or softmax's (every other op).
template <class Op>
inline constexpr tuning::shape_family forward_family = tuning::shape_family::softmax;
template <bool Accurate>
inline constexpr tuning::shape_family forward_family<op::softmax<true, Accurate>> =
    tuning::shape_family::log_softmax;
template <class Affine>
inline constexpr tuning::shape_family forward_family<op::rmsnorm<Affine>> =
    tuning::shape_family::rmsnorm;
template <class Affine>
inline constexpr tuning::shape_family forward_family<op::layernorm<Affine>> =
    tuning::shape_family::layernorm;

template <class Op, class Load, class Store>
inline constexpr tuning::shape_family gradient_family = tuning::shape_family::norm_gradient;
/// Softmax's and log-softmax's backward, alone or under a chain (the attention pipeline's
/// backward), take softmax backward's shapes.
template <bool Log, class Gradient, class Load, class Store>
inline constexpr tuning::shape_family
    gradient_family<op::softmax_backward<Log, Gradient>, Load, Store> =
        tuning::shape_family::softmax_gradient;
/// The norms' backward alone (its input, gradient and output bare) takes shapes of its own at a few
/// widths (norm_alone_gradient); under a chain (the residual block's backward) the norms'
/// backward's.
template <bool Centered, class Affine, class Gradient, class Load, class Store>
inline constexpr tuning::shape_family
    gradient_family<op::norm_backward<Centered, Affine, Gradient>, Load, Store> =
        is_bare<Load>&& is_bare<Gradient>&& is_bare<Store>
            ? tuning::shape_family::norm_alone_gradient
            : tuning::shape_family::norm_gradient;

/// Softmax (not log-softmax: not measured) takes attention's shapes under a load chain that
/// masks and a store chain that drops.
template <class Op, class Load, class Store>
inline constexpr tuning::shape_family chain_family = forward_family<Op>;
template <bool Accurate, class Load, class Store>
inline constexpr tuning::shape_family chain_family<op::softmax<false, Accurate>, Load, Store> =
    masks_packs<Load>&& drops_values<Store> ? tuning::shape_family::attention
                                            : tuning::shape_family::softmax;

/// Whether a load chain's first operand stream is as wide as its input (the residual block's
/// residual): on rows read back from staging, its packs and the input's hold the chain's values
/// (engine::keeps_chain_values).
template <class Load>
inline constexpr bool streams_operand_as_wide = engine::operand_streams<Load>::first_bytes ==
                                                int(sizeof(typename Load::element_type));

/// Layernorm takes layernorm's shapes alone (no load or store nodes), layernorm_chain's under a
/// load chain (the residual block's operands and dropout: fewer values a thread on narrow rows),
/// layernorm_operand_chain's under one that streams an operand as wide as its input (the residual
/// block), layernorm_tee_chain's under one that tees (the residual block writing its pre-norm sum),
/// and layernorm_store_chain's under a store chain alone (a cast to fp8).
template <class Affine, class Load, class Store>
inline constexpr tuning::shape_family chain_family<op::layernorm<Affine>, Load, Store> =
    tees<Load>                      ? tuning::shape_family::layernorm_tee_chain
    : streams_operand_as_wide<Load> ? tuning::shape_family::layernorm_operand_chain
    : !is_bare<Load>                ? tuning::shape_family::layernorm_chain
    : is_bare<Store>                ? tuning::shape_family::layernorm
                                    : tuning::shape_family::layernorm_store_chain;

template <class Op, class Load, class Store>
inline constexpr tuning::shape_family shape_family_of =
    engine::gradient_op<Op> ? gradient_family<Op, Load, Store> : chain_family<Op, Load, Store>;

/// The register-shape table for inputs of T at packs of N, for `Op` under `Load` and `Store`
/// (tuning::shapes_for).
template <class T, int N, class Op, class Load, class Store> constexpr auto const& shape_table() {
  return tuning::shapes_for<int(sizeof(T)), N, shape_family_of<Op, Load, Store>>();
}

template <auto const& Table, std::size_t I, int N, bool Phased = false, bool Sized = false>
struct register_kernel_config {
  static constexpr tuning::register_shape shape = Table[I];
  static constexpr int min_blocks =
      Sized && shape.sized_min_blocks_per_sm > 0    ? shape.sized_min_blocks_per_sm
      : Phased&& shape.phased_min_blocks_per_sm > 0 ? shape.phased_min_blocks_per_sm
                                                    : shape.min_blocks_per_sm;
  using type = register_config<N, shape.packs, shape.block_threads, shape.whole_block, shape.staged,
                               shape.cluster_blocks, min_blocks, shape.reads_row_first,
                               shape.row_threads, shape.columns, shape.stages_operands, Phased,
                               Sized, shape.sums_from_first_row, shape.exchanges_once,
                               Phased ? shape.phased_pads_values : shape.pads_values>;
};

/// Whether table row I of packs of N has a twin kernel on blocks the launch sizes
/// (tuning::register_shape::sized_at_launch, plan::block_threads).
template <auto const& Table, std::size_t I>
inline constexpr bool sized_twin = Table[I].sized_at_launch;

/// Launches `kernel` with clusters of `cluster_blocks` (1: a plain launch) for the completed plan.
template <class Kernel, class... Args>
void launch(plan const& p, Kernel kernel, cudaStream_t stream, Args const&... args) {
  cudaLaunchAttribute cluster{};
  cudaLaunchConfig_t const config =
      launch_config({reinterpret_cast<void const*>(kernel), p.device, p.block_threads,
                     std::max(p.cluster_blocks, 1), p.dynamic_smem},
                    unsigned(p.grid), stream, cluster);
  check_launch(cudaLaunchKernelEx(&config, kernel, args...), p);
}

/// How many blocks (clusters) of the plan's kernel are resident at once, asking the cache
/// (which also opts the kernel in to its shared memory); a shape that cannot run throws.
inline index_t resident(plan const& p, void const* kernel) {
  int const units = resident_units(
      {kernel, p.device, p.block_threads, std::max(p.cluster_blocks, 1), p.dynamic_smem});
  if (units == 0) {
    char const* unit = p.cluster_blocks > 1 ? "cluster of " : "block of ";
    fail(p.op, " on [", p.rows, " x ", p.cols, "] (", to_string(p.engine), "): no ", unit,
         p.cluster_blocks, " x ", p.block_threads, " threads and ", p.dynamic_smem,
         " bytes of shared memory a block can be resident on device ", p.device);
  }
  return units;
}

/// The grid of one block (cluster) per tile, or of the resident ones for a persistent plan.
/// A grid dimension holds at most 2^31 - 1 blocks; the kernels loop over what is left.
inline void complete_grid(plan& p, void const* kernel, index_t rows_per_block) {
  index_t const tiles = (p.rows + rows_per_block - 1) / rows_per_block;
  index_t const units = resident(p, kernel);
  index_t const per_tile = std::max(p.cluster_blocks, 1);
  index_t const max_tiles = (index_t(1) << 31) / per_tile - 1;
  p.grid = std::min(p.persistent ? std::min(tiles, units) : tiles, max_tiles) * per_tile;
}

template <class Config, class Op, class Load, class Store>
void launch_register(plan& p, Op const& op, Load const& load, Store const& store,
                     cudaStream_t stream, bool dry_run) {
  using T = typename Load::element_type;
  auto kernel = engine::register_kernel<Config, Op, Load, Store>;
  if (Config::sized_at_launch ? p.block_threads % 32 != 0 || p.block_threads > Config::block_threads
                              : p.block_threads != Config::block_threads)
    fail(p.op, ": the plan's block of ", p.block_threads, " threads does not fit its kernel's ",
         Config::block_threads, Config::sized_at_launch ? " (at most)" : "");
  p.staged = Config::template staged<T> || Config::stages_flat;
  p.dynamic_smem = engine::register_shared_bytes<Config, Op, Load>(
      p.block_threads, engine::rows_per_unit(op) > 1 ? p.cols : 0,
      Config::whole_block ? 1 : p.block_threads / p.group);
  // An ordered_rows_op's unit is a chunk of rows a group (block) walks (engine::chunk_walk).
  complete_grid(p, reinterpret_cast<void const*>(kernel),
                (Config::whole_block ? 1 : p.block_threads / p.group) * engine::rows_per_unit(op));
  if (dry_run)
    return;
  int group_log2 = 0;
  while ((1 << group_log2) < p.group)
    ++group_log2;
  // A phased kernel that reads gamma and beta at each phase (engine::takes_copies_at_phases) gets
  // them in a workspace filled before it on the same stream, freed after it in the stream's order.
  if constexpr (Config::phased && reads_affine_at_phases<Op> &&
                engine::takes_copies_at_phases<Op, Config>()) {
    affine_copied_at_phases<Config::pack, Op> const copied(op, load.input, stream, p);
    launch(p, kernel, stream, copied.op(), load, store, p.rows, p.cols, group_log2);
  } else {
    launch(p, kernel, stream, op, load, store, p.rows, p.cols, group_log2);
  }
}

template <class Config, class Op, class Load, class Store>
void launch_streaming(plan& p, Op const& op, Load const& load, Store const& store,
                      cudaStream_t stream, bool dry_run) {
  auto kernel = engine::streaming_kernel<Config, Op, Load, Store>;
  p.persistent = true;
  complete_grid(p, reinterpret_cast<void const*>(kernel), engine::rows_per_unit(op));
  if (!dry_run)
    launch(p, kernel, stream, op, load, store, p.rows, p.cols, p.engine == engine_kind::block_smem);
}

/// cluster_kernel (the row in the shared memory of a cluster) in clusters of p.cluster_blocks
/// (2 to cluster_max_blocks): persistent clusters, at most `max_clusters` of them when it is not
/// 0 (tests make each cluster loop over several rows).
template <class Config, class Op, class Load, class Store>
void launch_cluster(plan& p, Op const& op, Load const& load, Store const& store,
                    cudaStream_t stream, bool dry_run, index_t max_clusters = 0) {
  constexpr int cache_bytes = engine::cluster_cache_bytes<Op, Load>;
  if (p.cluster_blocks < 2 || p.cluster_blocks > cluster_max_blocks)
    fail(p.op, ": block_cluster takes clusters of 2 to ", cluster_max_blocks,
         " blocks; the plan has cluster_blocks = ", p.cluster_blocks);
  auto kernel = engine::cluster_kernel<Config, Op, Load, Store>;
  p.pack = Config::pack;
  p.block_threads = Config::block_threads;
  p.group = Config::block_threads * p.cluster_blocks;
  p.dynamic_smem = cluster_slice_bytes(p.cols, p.cluster_blocks, p.pack, cache_bytes);
  p.persistent = true;
  complete_grid(p, reinterpret_cast<void const*>(kernel), engine::rows_per_unit(op));
  if (max_clusters > 0)
    p.grid = std::min(p.grid, max_clusters * p.cluster_blocks);
  if (!dry_run)
    launch(p, kernel, stream, op, load, store, p.rows, p.cols);
}

/// Runs `body(integral_constant<I>)` for I in [0, Count).
template <std::size_t Count, class Body> void for_each_index(Body&& body) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (body(std::integral_constant<std::size_t, I>{}), ...);
  }
  (std::make_index_sequence<Count>{});
}

/// The kernels of one pack width N: the plan's register shape, or an engine past the registers;
/// `Phased`: the register shapes on phased rows (plan::phased), which never go past them.
template <int N, cols_range Range, bool Phased, class Op, class Load, class Store>
bool launch_for_pack(plan& p, Op const& op, Load const& load, Store const& store,
                     cudaStream_t stream, bool dry_run) {
  using T = typename Load::element_type;
  static constexpr auto const& table = shape_table<T, N, Op, Load, Store>();
  bool launched = false;
  for_each_index<std::size(table)>([&](auto index) {
    constexpr std::size_t I = decltype(index)::value;
    if constexpr (compiled_row(table, I, N, Range, Phased)) {
      using config = typename register_kernel_config<table, I, N, Phased>::type;
      if (!launched && p.shape == int(I)) {
        if constexpr (sized_twin<table, I>) {
          using sized = typename register_kernel_config<table, I, N, Phased, true>::type;
          if (p.block_threads < config::block_threads)
            launch_register<sized>(p, op, load, store, stream, dry_run);
          else
            launch_register<config>(p, op, load, store, stream, dry_run);
        } else {
          launch_register<config>(p, op, load, store, stream, dry_run);
        }
        launched = true;
      }
    }
  });
  if constexpr (!Phased && past_registers<table, N, Range>()) {
    constexpr int B = tuning::streaming_block_threads;
    if (p.engine == engine_kind::block_smem || p.engine == engine_kind::block_uncached)
      launch_streaming<engine::streaming_config<N, B>>(p, op, load, store, stream, dry_run);
    else if (p.engine == engine_kind::block_cluster)
      launch_cluster<engine::cluster_config<N, tuning::cluster_block_threads>>(p, op, load, store,
                                                                               stream, dry_run);
    else
      return launched;
    return true;
  }
  return launched;
}

/// Whether packs of N can run a call on phased rows (plan::phased): the input is on its element
/// grid, and every other view and operand (a gradient_op's gradient and its chain's too) on the
/// pack grid wherever the input's row is.
template <int N, class Op, class Load, class Store>
bool phases_allow(Op const& op, Load const& load, Store const& store) {
  auto const phase = row_phase::of(load.input);
  bool gradient_allows = true;
  if constexpr (engine::gradient_op<Op>)
    gradient_allows = phase.template admits<N>(op.gradient.input) &&
                      chain_allows_phased_pack<N>(op.gradient, phase);
  return gradient_allows && phase.template admits<N>(load.input) &&
         phase.template admits<N>(store.output) && chain_allows_phased_pack<N>(load, phase) &&
         chain_allows_phased_pack<N>(store, phase);
}

/// Binds and checks the expressions, plans, completes the plan and launches its kernel (unless
/// options.dry_run). Returns the plan.
template <cols_range Range, class Op, class Load, class Store>
plan run_op(Op const& op, Load const& load_expr, Store const& store_expr, cudaStream_t stream,
            launch_options const& options) {
  using T = typename Load::element_type;
  static_assert(Range.min >= 1 && Range.min <= Range.max,
                "rowfuse: a cols_range needs 1 <= min <= max");
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
  if (options.pack != 0 && options.pack != 1 && options.pack != wide)
    fail(Op::name, ": pack = ", options.pack, " is not available; use 0, 1 or ", wide);
  if (cols != 0 && (cols < Range.min || cols > Range.max))
    fail(Op::name, ": cols = ", cols, " is outside the cols_range [", Range.min, ", ", Range.max,
         "] this call was compiled for");

  int const pack = wide_ok ? wide : 1;
  static constexpr auto compiled_wide =
      compiled_rows<shape_table<T, wide, Op, Load, Store>(), wide, Range>();
  static constexpr auto compiled_single =
      compiled_rows<shape_table<T, 1, Op, Load, Store>(), 1, Range>();
  plan p = options.pack > 1 && !wide_ok
               ? plan{.op = Op::name,
                      .rows = rows,
                      .cols = cols,
                      .device = dev.id,
                      .refused = message(Op::name, ": pack = ", options.pack,
                                         " was forced but the views or cols = ", cols,
                                         " do not allow packs of ", wide)}
               : try_plan(Op::name, rows, cols, pack, options.engine, dev,
                          register_shapes(int(sizeof(T)), pack, shape_family_of<Op, Load, Store>),
                          engine::cluster_cache_bytes<Op, Load>,
                          int(sizeof(float)) * engine::cached_streams<Op>,
                          pack == wide ? std::span<bool const>(compiled_wide)
                                       : std::span<bool const>(compiled_single));
  // Rows off the grid take phased packs where every view's rows start equally far off it and a
  // register shape holds the row's whole packs (try_phased_plan); single elements elsewhere.
  if constexpr (engine::phased_op<Op, wide>) {
    if (!wide_ok && options.pack == 0 && phases_allow<wide>(op, load, store)) {
      static constexpr auto compiled_phased =
          compiled_rows<shape_table<T, wide, Op, Load, Store>(), wide, Range, true>();
      plan const phased = try_phased_plan(
          Op::name, rows, cols, wide, options.engine, dev,
          register_shapes(int(sizeof(T)), wide, shape_family_of<Op, Load, Store>), compiled_phased);
      if (phased.phased)
        p = phased;
    }
  }
  if (!p.refused.empty() && !options.dry_run)
    throw error(p.refused);
  if (p.engine == engine_kind::automatic)
    return p; // rows == 0 or cols == 0 (nothing to do), or a dry run's refusal

  bool const launched = [&] {
    if constexpr (engine::phased_op<Op, wide>)
      if (p.phased)
        return launch_for_pack<wide, Range, true>(p, op, load, store, stream, options.dry_run);
    return pack == wide
               ? launch_for_pack<wide, Range, false>(p, op, load, store, stream, options.dry_run)
               : launch_for_pack<1, Range, false>(p, op, load, store, stream, options.dry_run);
  }();
  if (!launched) {
    std::string const why =
        message(Op::name, ": the plan ", explain(p), " needs a kernel this call's cols_range [",
                Range.min, ", ", Range.max, "] left out");
    if (!options.dry_run || options.engine == engine_kind::automatic)
      throw error(why);
    p.engine = engine_kind::automatic;
    p.refused = why;
  }
  return p;
}

} // namespace rowfuse::detail
