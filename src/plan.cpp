// Choosing the engine for one call. Everything here is plain host code on integers; the
// templated launcher (dispatch/launch.cuh) then finds the kernel instantiation the plan names.
#include <algorithm>
#include <ostream>
#include <sstream>

#include "rowfuse/dispatch/cluster_sizing.hpp"
#include "rowfuse/dispatch/plan.hpp"
#include "rowfuse/dispatch/tuning.hpp"
#include "rowfuse/error.hpp"

namespace rowfuse {

char const* to_string(engine_kind kind) {
  switch (kind) {
  case engine_kind::automatic:
    return "automatic";
  case engine_kind::warp_rows:
    return "warp_rows";
  case engine_kind::block_rows:
    return "block_rows";
  case engine_kind::cluster_rows:
    return "cluster_rows";
  case engine_kind::block_smem:
    return "block_smem";
  case engine_kind::block_cluster:
    return "block_cluster";
  case engine_kind::block_uncached:
    return "block_uncached";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& out, plan const& p) {
  out << p.op << " [" << p.rows << " x " << p.cols << "] ";
  if (!p.refused.empty())
    return out << "refused (" << p.refused << ")";
  if (p.engine == engine_kind::automatic)
    return out << "nothing to do";
  out << to_string(p.engine) << ", pack " << p.pack;
  if (p.phased)
    out << " phased";
  if (p.shape >= 0)
    out << ", " << p.packs << " packs/thread";
  out << ", " << p.group << " threads/row, block " << p.block_threads << ", grid " << p.grid;
  if (p.cluster_blocks > 1)
    out << ", cluster " << p.cluster_blocks;
  if (p.staged)
    out << ", staged";
  if (p.persistent)
    out << ", persistent";
  if (p.dynamic_smem)
    out << ", " << p.dynamic_smem << " B shared";
  return out << ", device " << p.device;
}

std::string explain(plan const& p) {
  std::ostringstream s;
  s << p;
  return s.str();
}

namespace detail {

namespace {

int next_power_of_two(index_t n) {
  int p = 1;
  while (p < n)
    p *= 2;
  return p;
}

index_t ceil_div(index_t a, index_t b) {
  return (a + b - 1) / b;
}

/// The register engine a shape runs on: group rows, whole-block rows or rows over a cluster.
engine_kind engine_of(tuning::register_shape const& s) {
  return !s.whole_block         ? engine_kind::warp_rows
         : s.cluster_blocks > 1 ? engine_kind::cluster_rows
                                : engine_kind::block_rows;
}

/// The threads a block of shape `s` takes for `cols` columns in packs of `pack`: on a
/// sized_at_launch shape and a row that fills at most sized_fill_eighths / 8 of it, the fewest
/// whole warps a block that hold the row's packs at s.packs a thread over the shape's blocks (the
/// launcher's twin kernel: dispatch/launch.cuh, sized_twin); the shape's otherwise.
int launch_block_threads(tuning::register_shape const& s, index_t cols, int pack) {
  index_t const packs = ceil_div(cols, pack);
  // The packs one thread index holds over the row's blocks (one, or a cluster's).
  index_t const packs_over_blocks = index_t(s.packs) * s.cluster_blocks;
  if (!s.sized_at_launch ||
      8 * packs > tuning::sized_fill_eighths * packs_over_blocks * s.block_threads)
    return s.block_threads;
  return int(ceil_div(ceil_div(packs, packs_over_blocks), 32) * 32);
}

/// Takes row i of `shapes` (of engine `kind`) for the plan.
void take_shape(plan& p, engine_kind kind, std::span<tuning::register_shape const> shapes,
                std::size_t i) {
  tuning::register_shape const& s = shapes[i];
  p.engine = kind;
  p.shape = int(i);
  p.packs = s.packs;
  p.block_threads = s.block_threads;
  p.cluster_blocks = s.cluster_blocks;
  p.staged = s.staged; // the launcher clears it where the pack cannot travel by cp.async
  p.persistent = s.persistent;
  if (s.whole_block) {
    p.block_threads = launch_block_threads(s, p.cols, p.pack);
    p.group = p.block_threads * s.cluster_blocks;
  } else if (s.row_threads > 0) {
    p.group = s.row_threads; // the kernel's compile-time group
  } else {
    index_t const packs_in_row = ceil_div(p.cols, p.pack);
    p.group = std::min(32, next_power_of_two(ceil_div(packs_in_row, s.packs)));
  }
}

/// A phased row on group rows of a run-time group (the automatic plan `p` for its whole packs),
/// where that group cannot phase the row (fewer than 2 x pack - 2 lanes: one edge element a lane)
/// or is a 32-lane group filled to at most 5/8: the table's run-time-group row with the most
/// packs a lane that holds the packs at 2 x pack - 2 lanes or more. A 300-column 16-bit row
/// (37 packs) on softmax's 2-pack row is one warp's work with 27 of its 64 pack slots empty, and
/// issue-bound (ncu: the row's fixed work, its phase, edges and reductions, on every warp); on the
/// 4-pack row two rows share a warp. Layernorm's 4-pack row leaves rows of 17-32 packs (136-263
/// columns) 8 lanes, single elements; its 2-pack row phases them. bench/NOTES.md, twenty-sixth
/// session.
plan narrow_phased_shape(plan p, int pack, std::span<tuning::register_shape const> shapes,
                         std::span<bool const> compiled) {
  if (p.engine != engine_kind::warp_rows || shapes[std::size_t(p.shape)].row_threads > 0)
    return p;
  index_t const packs = ceil_div(p.cols, pack);
  int const lanes_needed = 2 * pack - 2;
  bool const too_few_lanes = p.group < lanes_needed;
  bool const sparse = p.group == 32 && 8 * packs <= 5 * 32 * index_t(p.packs);
  if (!too_few_lanes && !sparse)
    return p;
  plan best = p;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    tuning::register_shape const& s = shapes[i];
    if (s.whole_block || s.row_threads > 0 || s.wide_memory_only ||
        tuning::capacity(s, pack) < p.cols || (!compiled.empty() && !compiled[i]))
      continue;
    plan candidate = p;
    take_shape(candidate, engine_kind::warp_rows, shapes, i);
    bool const better =
        too_few_lanes ? best.group < lanes_needed || s.packs > best.packs : s.packs > best.packs;
    if (candidate.group >= lanes_needed && better)
      best = candidate;
  }
  return best;
}

/// Whether the plan may take row `s` on `device` for rows of `cols` columns: rows for devices of
/// wide memory (tuning::register_shape::wide_memory_only) on a device that takes them at that width
/// (device_info::takes), for rows on the 16-byte grid (a phased plan takes one only as the row of
/// its whole packs on the grid: try_phased_plan); rows for phased plans
/// (tuning::register_shape::phased_only) in those alone; every other row everywhere.
bool row_for(tuning::register_shape const& s, device_info const& device, bool phased,
             index_t cols) {
  if (s.phased_only)
    return phased;
  return !s.wide_memory_only || (!phased && device.takes(s, cols));
}

/// The first shape of `shapes`, in table order, that is for this device (row_for) and holds
/// `cols`: for the automatic plan (`kind` automatic) the first of any register engine whose
/// max_cols reaches cols, so that a row takes the widths above the row before it whatever their
/// engines (as compiled_rows.hpp's admitted() compiles them; a row for devices of wide memory may
/// then stand before an H100 row of another engine at its width); for a forced engine the first
/// of that engine whose capacity does, among the rows `compiled` marks (empty: every row).
bool try_register(plan& p, engine_kind kind, std::span<tuning::register_shape const> shapes,
                  device_info const& device, bool phased, std::span<bool const> compiled) {
  bool const automatic = kind == engine_kind::automatic;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    tuning::register_shape const& s = shapes[i];
    engine_kind const of = engine_of(s);
    if ((!automatic && (of != kind || (!compiled.empty() && !compiled[i]))) ||
        (of == engine_kind::cluster_rows && device.compute_capability < 90) ||
        !row_for(s, device, phased, p.cols))
      continue;
    if (automatic ? s.max_cols < p.cols : tuning::capacity(s, p.pack) < p.cols)
      continue;
    take_shape(p, of, shapes, i);
    return true;
  }
  return false;
}

/// For a phased row whose automatic shape passes phased plans by (tuning::register_shape::
/// phased_passes_by): the first shape of `kind` for this device (row_for) whose capacity holds the
/// plan's whole packs and that has a phased kernel, among the rows `compiled` marks (empty: every
/// row that has one).
bool take_phased_shape(plan& p, engine_kind kind, std::span<tuning::register_shape const> shapes,
                       std::span<bool const> compiled, device_info const& device) {
  if (kind == engine_kind::cluster_rows && device.compute_capability < 90)
    return false;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    tuning::register_shape const& s = shapes[i];
    if (engine_of(s) != kind || !s.has_phased_kernel || !row_for(s, device, true, p.cols) ||
        tuning::capacity(s, p.pack) < p.cols || (!compiled.empty() && !compiled[i]))
      continue;
    take_shape(p, kind, shapes, i);
    return true;
  }
  return false;
}

/// block_smem's cache of one row at `cache_bytes` a column.
std::size_t smem_row_bytes(index_t cols, int cache_bytes) {
  return std::size_t(cols) * std::size_t(cache_bytes);
}

bool try_streaming(plan& p, index_t cols, bool cached, int cache_bytes, device_info const& device) {
  if (cached && smem_row_bytes(cols, cache_bytes) + tuning::streaming_reserved_smem >
                    device.shared_memory_per_block_optin)
    return false;
  p.engine = cached ? engine_kind::block_smem : engine_kind::block_uncached;
  p.block_threads = p.group = tuning::streaming_block_threads;
  p.packs = 1;
  p.dynamic_smem = cached ? smem_row_bytes(cols, cache_bytes) : 0;
  return true;
}

/// The automatic plan takes block_cluster only when it caches a column in 2 bytes (a 16-bit
/// input under a pure load chain). Measured on the H200 (softmax, ratio to copy, 2026-11-22,
/// bench/experiments/engines.cu): fp16 at 65536 / 131072 / 262144 columns 0.49 / 0.47 / 0.36
/// against block_uncached's 0.43 / 0.34 / 0.33; fp32, which needs twice the clusters, 0.59 /
/// 0.53 / 0.43 against block_uncached's 0.63 / 0.63 / 0.63.
bool try_cluster(plan& p, index_t cols, int cache_bytes, device_info const& device) {
  int const blocks = cluster_blocks_for(cols, device, p.pack, cache_bytes);
  if (blocks == 0)
    return false;
  p.engine = engine_kind::block_cluster;
  p.cluster_blocks = blocks;
  p.block_threads = tuning::cluster_block_threads;
  p.group = p.block_threads * blocks;
  p.packs = 1;
  p.dynamic_smem = cluster_slice_bytes(cols, blocks, p.pack, cache_bytes);
  return true;
}

/// tuning::shapes_for's table for `family` at run time.
template <int ElementBytes, int Pack>
std::span<tuning::register_shape const> table_of(tuning::shape_family family) {
  using tuning::shape_family;
  using tuning::shapes_for;
  switch (family) {
  case shape_family::softmax:
    return shapes_for<ElementBytes, Pack, shape_family::softmax>();
  case shape_family::log_softmax:
    return shapes_for<ElementBytes, Pack, shape_family::log_softmax>();
  case shape_family::rmsnorm:
    return shapes_for<ElementBytes, Pack, shape_family::rmsnorm>();
  case shape_family::layernorm:
    return shapes_for<ElementBytes, Pack, shape_family::layernorm>();
  case shape_family::layernorm_chain:
    return shapes_for<ElementBytes, Pack, shape_family::layernorm_chain>();
  case shape_family::layernorm_operand_chain:
    return shapes_for<ElementBytes, Pack, shape_family::layernorm_operand_chain>();
  case shape_family::layernorm_tee_chain:
    return shapes_for<ElementBytes, Pack, shape_family::layernorm_tee_chain>();
  case shape_family::layernorm_store_chain:
    return shapes_for<ElementBytes, Pack, shape_family::layernorm_store_chain>();
  case shape_family::attention:
    return shapes_for<ElementBytes, Pack, shape_family::attention>();
  case shape_family::softmax_gradient:
    return shapes_for<ElementBytes, Pack, shape_family::softmax_gradient>();
  case shape_family::norm_alone_gradient:
    return shapes_for<ElementBytes, Pack, shape_family::norm_alone_gradient>();
  case shape_family::norm_gradient:
    break;
  }
  return shapes_for<ElementBytes, Pack, shape_family::norm_gradient>();
}

/// A plan that cannot run: nothing to launch, and why.
template <class... Parts> plan refuse(plan p, Parts const&... parts) {
  p.engine = engine_kind::automatic;
  p.refused = message(parts...);
  return p;
}

} // namespace

std::span<tuning::register_shape const> register_shapes(int element_bytes, int pack,
                                                        tuning::shape_family family) {
  if (element_bytes == 4)
    return pack == 1 ? table_of<4, 1>(family) : table_of<4, 4>(family);
  return pack == 1 ? table_of<2, 1>(family) : table_of<2, 8>(family);
}

namespace {

/// try_plan, for rows on the 16-byte grid or (`phased`) for the whole packs of a phased row.
plan plan_of(char const* op, index_t rows, index_t cols, int pack, engine_kind forced,
             device_info const& device, std::span<tuning::register_shape const> shapes,
             int cluster_cache_bytes, int streaming_cache_bytes, bool phased,
             std::span<bool const> compiled) {
  plan p;
  p.op = op;
  p.rows = rows;
  p.cols = cols;
  p.pack = pack;
  p.device = device.id;
  if (rows == 0 || cols == 0)
    return p;

  bool ok = false;
  switch (forced) {
  case engine_kind::automatic:
    ok = try_register(p, engine_kind::automatic, shapes, device, phased, compiled) ||
         try_streaming(p, cols, true, streaming_cache_bytes, device) ||
         (cluster_cache_bytes < 4 && try_cluster(p, cols, cluster_cache_bytes, device)) ||
         try_streaming(p, cols, false, streaming_cache_bytes, device);
    break;
  case engine_kind::warp_rows:
  case engine_kind::block_rows:
  case engine_kind::cluster_rows:
    if (forced == engine_kind::cluster_rows && device.compute_capability < 90)
      return refuse(p, op,
                    ": engine cluster_rows needs thread-block clusters (compute "
                    "capability 9.0); device ",
                    device.id, " has ", device.compute_capability);
    ok = try_register(p, forced, shapes, device, phased, compiled);
    break;
  case engine_kind::block_smem:
    ok = try_streaming(p, cols, true, streaming_cache_bytes, device);
    break;
  case engine_kind::block_cluster:
    if (device.compute_capability < 90)
      return refuse(p, op,
                    ": engine block_cluster needs thread-block clusters (compute "
                    "capability 9.0); device ",
                    device.id, " has ", device.compute_capability);
    ok = try_cluster(p, cols, cluster_cache_bytes, device);
    break;
  case engine_kind::block_uncached:
    ok = try_streaming(p, cols, false, streaming_cache_bytes, device);
    break;
  }
  if (!ok) {
    index_t const optin = index_t(device.shared_memory_per_block_optin);
    bool const register_engine = forced == engine_kind::warp_rows ||
                                 forced == engine_kind::block_rows ||
                                 forced == engine_kind::cluster_rows;
    index_t widest_register_row = 0;
    for (auto const& s : shapes)
      if ((forced == engine_kind::warp_rows) == !s.whole_block &&
          (forced == engine_kind::cluster_rows) == (s.cluster_blocks > 1) &&
          row_for(s, device, phased, cols))
        widest_register_row = std::max(widest_register_row, tuning::capacity(s, pack));
    if (register_engine && !compiled.empty() && widest_register_row >= cols)
      return refuse(p, op, ": engine ", to_string(forced), " holds cols = ", cols,
                    " with packs of ", pack, " only on rows this call's cols_range left out");
    index_t const most =
        register_engine ? widest_register_row
        : forced == engine_kind::block_cluster
            ? cluster_max_blocks * (optin - index_t(cluster_reserved_smem)) / cluster_cache_bytes
            : (optin - tuning::streaming_reserved_smem) / streaming_cache_bytes;
    return refuse(p, op, ": engine ", to_string(forced), " cannot run cols = ", cols,
                  " with packs of ", pack, " (", to_string(forced), " holds at most ", most,
                  " columns)");
  }
  return p;
}

} // namespace

plan try_plan(char const* op, index_t rows, index_t cols, int pack, engine_kind forced,
              device_info const& device, std::span<tuning::register_shape const> shapes,
              int cluster_cache_bytes, int streaming_cache_bytes, std::span<bool const> compiled) {
  return plan_of(op, rows, cols, pack, forced, device, shapes, cluster_cache_bytes,
                 streaming_cache_bytes, false, compiled);
}

plan try_phased_plan(char const* op, index_t rows, index_t cols, int pack, engine_kind forced,
                     device_info const& device, std::span<tuning::register_shape const> shapes,
                     std::span<bool const> compiled) {
  index_t const whole = cols / pack * pack;
  plan p = plan_of(op, rows, whole, pack, forced, device, shapes, 4, 4, true, {});
  // The row the whole packs take on the grid, where it is one for devices of wide memory with a
  // phased kernel (tuning::for_wide_memory_phased) and so one this device takes: the same widths
  // as on the grid.
  if (forced == engine_kind::automatic) {
    plan const on_grid = plan_of(op, rows, whole, pack, forced, device, shapes, 4, 4, false, {});
    if (on_grid.shape >= 0) {
      auto const row = std::size_t(on_grid.shape);
      if (shapes[row].wide_memory_only && shapes[row].has_phased_kernel &&
          (compiled.empty() || compiled[row]))
        p = on_grid;
    }
  }
  if (forced == engine_kind::automatic && p.shape >= 0 &&
      shapes[std::size_t(p.shape)].phased_passes_by)
    for (engine_kind const instead : {engine_kind::block_rows, engine_kind::cluster_rows})
      if (take_phased_shape(p, instead, shapes, compiled, device))
        break;
  if (forced == engine_kind::automatic && p.refused.empty())
    p = narrow_phased_shape(p, pack, shapes, compiled);
  p.cols = cols;
  if (!p.refused.empty())
    return p;
  bool const register_engine = p.engine == engine_kind::warp_rows ||
                               p.engine == engine_kind::block_rows ||
                               p.engine == engine_kind::cluster_rows;
  // Edges one a lane on groups the launch chooses; a compile-time group narrower than
  // 2 x pack - 2 lanes holds several a lane (register_config::edges_per_lane).
  bool const edges_held =
      p.group >= 2 * pack - 2 || (p.shape >= 0 && shapes[std::size_t(p.shape)].row_threads > 0);
  if (whole == 0 || !register_engine || !edges_held)
    return refuse(p, op, ": phased rows of packs of ", pack, " need a register shape that holds ",
                  "the row and spans at least ", 2 * pack - 2, " lanes for cols = ", cols);
  if (!shapes[std::size_t(p.shape)].has_phased_kernel ||
      (!compiled.empty() && !compiled[std::size_t(p.shape)]))
    return refuse(p, op, ": the register shape for cols = ", cols,
                  " has no phased kernel in this call");
  p.phased = true;
  return p;
}

plan choose_plan(char const* op, index_t rows, index_t cols, int pack, engine_kind forced,
                 device_info const& device, std::span<tuning::register_shape const> shapes,
                 int cluster_cache_bytes, int streaming_cache_bytes) {
  plan p = try_plan(op, rows, cols, pack, forced, device, shapes, cluster_cache_bytes,
                    streaming_cache_bytes);
  if (!p.refused.empty())
    throw error(p.refused);
  return p;
}

void check_launch(cudaError_t status, plan const& p) {
  if (status == cudaSuccess)
    status = cudaGetLastError();
  if (status != cudaSuccess)
    fail(p.op, " on [", p.rows, " x ", p.cols, "] (", to_string(p.engine), "): CUDA error ",
         cudaGetErrorName(status), ": ", cudaGetErrorString(status));
}

} // namespace detail
} // namespace rowfuse
