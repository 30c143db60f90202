// Choosing the engine for one call. Everything here is plain host code on integers; the
// templated launcher (dispatch/launch.cuh) then finds the kernel instantiation the plan names.
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
  if (p.engine == engine_kind::automatic)
    return out << "nothing to do";
  out << to_string(p.engine) << ", pack " << p.pack;
  if (p.engine == engine_kind::warp_rows || p.engine == engine_kind::block_rows)
    out << ", " << p.packs << " packs/thread";
  out << ", " << p.group << " threads/row, block " << p.block_threads << ", grid " << p.grid;
  if (p.engine == engine_kind::block_cluster)
    out << ", cluster " << p.cluster_blocks;
  if (p.staged)
    out << ", staged";
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

bool try_warp_rows(plan& p, index_t packs_in_row) {
  if (packs_in_row > 32 * index_t(tuning::warp_rows_max_packs))
    return false;
  p.engine = engine_kind::warp_rows;
  p.block_threads = tuning::warp_rows_block_threads;
  if (packs_in_row <= 32) {
    p.packs = 1;
    p.group = next_power_of_two(packs_in_row);
  } else {
    p.group = 32;
    p.packs = next_power_of_two(ceil_div(packs_in_row, 32)); // the table has 1, 2
  }
  return true;
}

bool try_block_rows(plan& p, index_t packs_in_row) {
  for (auto const& shape : tuning::block_rows_shapes) {
    if (shape.packs * p.pack > tuning::block_rows_max_values)
      continue;
    if (packs_in_row <= index_t(shape.threads) * shape.packs) {
      p.engine = engine_kind::block_rows;
      p.block_threads = p.group = shape.threads;
      p.packs = shape.packs;
      p.staged = shape.staged;
      return true;
    }
  }
  return false;
}

std::size_t smem_row_bytes(index_t cols) {
  return std::size_t(cols) * sizeof(float);
}

bool try_streaming(plan& p, index_t cols, bool cached, device_info const& device) {
  if (cached &&
      smem_row_bytes(cols) + tuning::streaming_reserved_smem > device.shared_memory_per_block_optin)
    return false;
  p.engine = cached ? engine_kind::block_smem : engine_kind::block_uncached;
  p.block_threads = p.group = tuning::streaming_block_threads;
  p.packs = 1;
  p.dynamic_smem = cached ? smem_row_bytes(cols) : 0;
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

} // namespace

plan choose_plan(char const* op, index_t rows, index_t cols, int pack, engine_kind forced,
                 device_info const& device, int cluster_cache_bytes) {
  plan p;
  p.op = op;
  p.rows = rows;
  p.cols = cols;
  p.pack = pack;
  p.device = device.id;
  if (rows == 0 || cols == 0)
    return p;
  index_t const packs_in_row = ceil_div(cols, pack);

  bool ok = false;
  switch (forced) {
  case engine_kind::automatic:
    ok = try_warp_rows(p, packs_in_row) || try_block_rows(p, packs_in_row) ||
         try_streaming(p, cols, true, device) ||
         (cluster_cache_bytes < 4 && try_cluster(p, cols, cluster_cache_bytes, device)) ||
         try_streaming(p, cols, false, device);
    break;
  case engine_kind::warp_rows:
    ok = try_warp_rows(p, packs_in_row);
    break;
  case engine_kind::block_rows:
    ok = try_block_rows(p, packs_in_row);
    break;
  case engine_kind::block_smem:
    ok = try_streaming(p, cols, true, device);
    break;
  case engine_kind::block_cluster:
    if (device.compute_capability < 90)
      fail(op,
           ": engine block_cluster needs thread-block clusters (compute capability 9.0); "
           "device ",
           device.id, " has ", device.compute_capability);
    ok = try_cluster(p, cols, cluster_cache_bytes, device);
    break;
  case engine_kind::block_uncached:
    ok = try_streaming(p, cols, false, device);
    break;
  }
  if (!ok) {
    index_t const optin = index_t(device.shared_memory_per_block_optin);
    index_t const most =
        forced == engine_kind::warp_rows    ? 32 * tuning::warp_rows_max_packs * pack
        : forced == engine_kind::block_rows ? 1024 * tuning::block_rows_max_values
        : forced == engine_kind::block_cluster
            ? cluster_max_blocks * (optin - index_t(cluster_reserved_smem)) / cluster_cache_bytes
            : (optin - tuning::streaming_reserved_smem) / 4;
    fail(op, ": engine ", to_string(forced), " cannot run cols = ", cols, " with packs of ", pack,
         " (", to_string(forced), " holds at most ", most, " columns)");
  }
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
