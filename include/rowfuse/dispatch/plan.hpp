// The plan: which engine runs one call, with which pack width, packs per thread, block and
// grid. Chosen on the host, once per call, from the shape, the alignment of every view and the
// device; printable, and overridable (tests force every engine on the same input).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <span>
#include <string>

#include "../detail/config.hpp"
#include "tuning.hpp"

namespace rowfuse {

enum class engine_kind {
  automatic,      // let the plan choose (the default); in a plan: nothing to launch
  warp_rows,      // a row in the registers of 1-32 lanes; several rows per block
  block_rows,     // a row in the registers of one block
  cluster_rows,   // a row in the registers of a thread-block cluster (sm_90+)
  block_smem,     // a row in shared memory (fp32), one block per row
  block_cluster,  // a row in the shared memory of a thread-block cluster (sm_90+)
  block_uncached, // a row read twice from global memory; any width
};

char const* to_string(engine_kind kind);

/// Per-call overrides, for tests and experiments. pack = 0 takes the widest the views allow;
/// pack = 1 forces scalar accesses.
struct launch_options {
  engine_kind engine = engine_kind::automatic;
  int pack = 0;
  /// Plan, check every argument, and return the plan without launching anything. Where `engine`
  /// or `pack` force what this call cannot run, the plan says why (plan::refused) instead of the
  /// call throwing: a dry run answers "which engines and packs can run this call". Bad arguments
  /// throw as in a launch.
  bool dry_run = false;
};

struct plan {
  char const* op = "";
  index_t rows = 0;
  index_t cols = 0;
  engine_kind engine = engine_kind::automatic; // automatic here means "nothing to launch"
  int pack = 1;                                // elements per vector access
  /// Register engines over rows off the 16-byte grid: each row's packs start at its first column
  /// on it, the columns before and after them are single elements (engine/phased_row.cuh).
  bool phased = false;
  int packs = 1;           // packs per thread per row (register engines)
  int group = 1;           // threads per row
  int cluster_blocks = 1;  // blocks per row (block_cluster)
  bool staged = false;     // register engines: the input travels by cp.async through shared memory
  bool persistent = false; // a grid of resident blocks looping over the tiles, not one a tile
  int shape = -1;          // register engines: the row of the tuning table (dispatch/tuning.hpp)
  /// Threads a block: the shape's, or where the shape has a sized twin and the row fills at most
  /// 5/8 of it the fewest whole warps that hold the row at `packs` a thread
  /// (tuning::register_shape::sized_at_launch).
  int block_threads = 0;
  index_t grid = 0;
  std::size_t dynamic_smem = 0;
  int device = 0;
  /// Empty, or (a dry run only) why launch_options' forced engine or pack cannot run this call:
  /// the text the launch would throw. The engine is then automatic (nothing to launch).
  std::string refused;
};

std::ostream& operator<<(std::ostream& out, plan const& p);
/// One line: "rf::softmax [4096 x 1000] warp_rows pack 8, 4 packs/thread, 32 threads/row, ...".
std::string explain(plan const& p);

/// What the plan needs to know of a device; read once per device and cached.
struct device_info {
  int id = 0;
  int multiprocessors = 0;
  int max_threads_per_multiprocessor = 0;
  std::size_t shared_memory_per_block_optin = 0;
  std::size_t shared_memory_per_multiprocessor = 0;
  int compute_capability = 0; // 90 for Hopper
  /// Peak DRAM bandwidth over the SMs' peak clocks, in bytes a cycle of all SMs together (0:
  /// unknown): the plan takes the tuning rows marked wide_memory_only from their wide_memory_from
  /// on (tuning::wide_memory_bytes_per_cycle; an H100's for those marked on_h100_too).
  double dram_bytes_per_sm_cycle = 0.0;
  std::string name;

  bool wide_memory() const {
    return dram_bytes_per_sm_cycle >= tuning::wide_memory_bytes_per_cycle;
  }
  /// Whether the plan may take `row` on this device, at some width: every row but those for
  /// devices of wide memory, which it takes from their bandwidth on
  /// (tuning::register_shape::wide_memory_from).
  bool takes(tuning::register_shape const& row) const {
    return !row.wide_memory_only || dram_bytes_per_sm_cycle >= row.wide_memory_from;
  }
  /// Whether the plan may take `row` for rows of `cols` columns: where it takes the row at all, at
  /// every width on a device of wide memory, and past the row's narrow_memory_past_cols elsewhere
  /// (tuning::on_h100_past).
  bool takes(tuning::register_shape const& row, index_t cols) const {
    return takes(row) && (wide_memory() || cols > row.narrow_memory_past_cols);
  }
};

/// The current device's properties (cached per device). Throws rowfuse::error without one.
device_info const& current_device();

namespace detail {

/// The register engine's shapes for inputs of `element_bytes` at `pack` elements a pack, for ops
/// of `family` (tuning.hpp's tables).
std::span<tuning::register_shape const> register_shapes(int element_bytes, int pack,
                                                        tuning::shape_family family);

/// Chooses engine, shape, packs per thread, group and block for `cols` with packs of `pack`
/// elements, from `shapes` (register_shapes) for the register engines. When `forced` names an
/// engine that cannot run this width (or this device), the plan's `refused` says why and its
/// engine is automatic. `cluster_cache_bytes` is what
/// block_cluster keeps a column in (4 for fp32; the input's size when the load chain is pure,
/// see engine::caches_raw_input; 8 for a gradient_op), `streaming_cache_bytes` what block_smem
/// keeps one in (4; 8 for a gradient_op, engine::cached_streams). A forced register engine takes
/// its row among those `compiled` marks (the rows whose aligned kernels the call instantiated
/// under its cols_range, compiled_rows.hpp; empty: every row); the automatic plan's row is always
/// compiled. Grid and shared memory are the launcher's (complete_plan).
plan try_plan(char const* op, index_t rows, index_t cols, int pack, engine_kind forced,
              device_info const& device, std::span<tuning::register_shape const> shapes,
              int cluster_cache_bytes = 4, int streaming_cache_bytes = 4,
              std::span<bool const> compiled = {});

/// try_plan for phased rows of packs of `pack` (plan::phased; the caller checks the views): the
/// shapes that hold a row's whole packs, at most cols / pack of them (its head and tail are single
/// elements), in registers or read back from their staging slot (column_placement::held), a row
/// spanning at least 2 x pack - 2 lanes (one edge element a lane) or a compile-time group (several
/// a lane: tuning::for_phased_rows's rows, first in a table). Where the automatic plan's
/// shape passes phased plans by (tuning::register_shape::phased_passes_by), the first block row
/// and then the first cluster row that holds the packs and has a phased kernel. On group
/// rows of a run-time group too narrow for the edges, or of 32 lanes filled to at most 5/8, the
/// group row with the most packs a lane that spans 2 x pack - 2 lanes (src/plan.cpp,
/// narrow_phased_shape). Each chooses among the rows `compiled` marks (those whose phased kernels
/// the call instantiated: under its cols_range, and where the table gives the row one,
/// tuning::register_shape::has_phased_kernel; empty: every row). Where none does, the plan is not
/// phased and says why in `refused`.
plan try_phased_plan(char const* op, index_t rows, index_t cols, int pack, engine_kind forced,
                     device_info const& device, std::span<tuning::register_shape const> shapes,
                     std::span<bool const> compiled = {});

/// try_plan, throwing rowfuse::error with the refusal.
plan choose_plan(char const* op, index_t rows, index_t cols, int pack, engine_kind forced,
                 device_info const& device, std::span<tuning::register_shape const> shapes,
                 int cluster_cache_bytes = 4, int streaming_cache_bytes = 4);

/// Throws rowfuse::error naming the op and shape if `status` (or the last launch) failed.
void check_launch(cudaError_t status, plan const& p);

} // namespace detail
} // namespace rowfuse
