// The cluster engine (Hopper, sm_90+): a thread-block cluster of C blocks owns one row at a
// time and keeps the whole row on chip, spread over the shared memory of its C blocks, so rows
// too wide for one block's shared memory still read global memory once and write it once.
//
//   row:    | slice of rank 0 | slice of rank 1 | ... | slice of rank C-1 (shorter or empty) |
//   pass 1: each block brings its slice into its own shared memory and reduces the op's partial
//           over its threads (CUB BlockReduce);
//   swap:   each block puts its partial into a slot of its shared memory, one cluster barrier,
//           then every warp of every block reads the C slots through distributed shared memory
//           and folds them in one fixed order, so every block finishes from bit-identical
//           statistics;
//   pass 2: each block finishes its slice from its own shared memory and stores it.
//
// The cache holds one of two things (caches_raw_input), and for a gradient_op (common.cuh) the
// second: its prepared values, then its gradient's values in a second fp32 cache:
//  - the raw input, when the load chain is pure (scale, causal_mask, user functors): copied
//    global -> shared by cp.async with the whole slice in flight and no registers held, the
//    next row's copies issued during this row's pass 2; the chain runs on both passes. fp16 and
//    bf16 rows then take 2 bytes a column, half the blocks of an fp32 cache;
//  - the transformed values as fp32, when the chain reads operands or tees: loaded through the
//    chain into registers, 16 values a thread at a time, so operands are read and tee written
//    once.
//
// Clusters are persistent: the grid is as many clusters as are resident at once (occupancy
// query), and cluster k runs rows k, k + clusters, ... The loop bound depends only on the
// cluster, so every block of a cluster reaches every barrier the same number of times.
//
// Why: past ~56K fp32 columns block_smem no longer fits and block_uncached reads each row twice
// from global memory (0.33-0.63 of copy on the H200 at 64K-256K columns). Here the only
// cross-block cost is one cluster barrier and C small remote loads per row, which the other
// cluster sharing the SM hides (see cluster_blocks_for).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>

#include "../detail/config.hpp"
#include "../detail/numeric.hpp"
#include "../detail/vector_io.hpp"
#include "../expr/expression.hpp"
#include "cluster_slices.hpp"
#include "common.cuh"
#include "pure_chain.hpp"

namespace rowfuse::engine {

/// The cluster engine's compile-time shape: packs of N and blocks of BlockThreads. The cluster's
/// size (2-16 blocks) is the launch's (plan::cluster_blocks), read in the kernel from the cluster
/// itself: it only sizes the slices and the exchange, which run once a row, so one kernel serves
/// every size (three fewer kernels a pack width in every call; bench/NOTES.md, twenty-sixth
/// session).
template <int N, int BlockThreads> struct cluster_config {
  static_assert(BlockThreads % 32 == 0 && BlockThreads <= 1024);
  static_assert(N >= 1 && N <= 16 && 16 % N == 0);
  static constexpr int pack = N;
  static constexpr int block_threads = BlockThreads;
  /// Packs a thread works on at once: 16 values (8 single elements for the pack-1 fallback).
  /// One op.local and one merge per group, not per pack: a softmax merge costs two exps, a
  /// quarter more exps in pass 1 if paid per 8-element pack. And few enough registers for the
  /// 64-register cap below: ptxas (CUDA 13.0, sm_90) spilled 128-300 bytes holding 32 values
  /// (4 packs of 8 fp16 widened), 12-84 bytes holding 16 single elements on the register path.
  static constexpr int unroll = N == 1 ? 8 : 16 / N;
  /// Packs a thread loads through registers before it uses the first, on the paths that cannot
  /// copy asynchronously (see cluster_kernel). For a 16-bit input in packs of 8 that is only 32
  /// bytes a thread, 32 KB per SM with two 512-thread blocks, near the ~29 KB a 4.8 TB/s,
  /// ~0.8 us-latency H200 needs; but those chains read an operand too (add, mask), which
  /// doubles it, and 4 packs spilled (bf16 | add | tee: 96 bytes).
  static constexpr int load_unroll = unroll;
  /// Register budget: 1024 resident threads per SM whatever the block size (two blocks of 512,
  /// four of 256) caps ptxas at 64 registers a thread, so shared memory alone decides how many
  /// blocks share an SM.
  static constexpr int min_blocks_per_sm = BlockThreads >= 1024 ? 1 : 1024 / BlockThreads;
};

// ---- what the cache holds --------------------------------------------------------------------

/// Whether the cluster engine caches the row as the raw input and runs the load chain again
/// in pass 2, rather than caching the transformed values as fp32. Only for pure chains: one that
/// reads an operand (bias, add, mask) would read it twice, one that tees would write twice;
/// those cache fp32 so that every operand is read once, as counted. What it buys:
///  - 16-bit inputs: half the shared memory, so half the blocks a row needs (262144 fp16
///    columns: 8 blocks of 64 KB, two clusters per SM, instead of 8 blocks of 128 KB, one);
///  - every input with a 4-, 8- or 16-byte pack: the slice goes from global to shared memory by
///    cp.async, not through registers (see cluster_kernel), fp32 included.
template <class Load> inline constexpr bool caches_raw_input = pure_load_chain<Load>;

template <class Load>
using cache_element =
    std::conditional_t<caches_raw_input<Load>, typename Load::element_type, float>;

/// Bytes of shared memory a cached column takes for a one-stream op.
template <class Load> inline constexpr int cache_element_bytes = int(sizeof(cache_element<Load>));

/// Whether cluster_kernel caches the raw input for `Op`: a gradient_op (common.cuh) caches the
/// values its prepare made, fp32, and its gradient's after them in a second fp32 cache.
template <class Op, class Load>
inline constexpr bool caches_raw_for = caches_raw_input<Load> && !gradient_op<Op>;

/// Bytes of shared memory a cached column takes for `Op`, every cache: what the plan passes to
/// cluster_fits.
template <class Op, class Load>
inline constexpr int cluster_cache_bytes = gradient_op<Op> ? 8 : cache_element_bytes<Load>;

/// A block's slice of the row in shared memory, pack p of the slice at a fixed place; each
/// thread reads back only the packs it wrote.
///
/// A pack wider than 16 bytes (8 fp16 inputs widened to 32 bytes of fp32) is split into
/// 16-byte words kept in separate planes, word w of pack p at plane w, index p. Storing the 32
/// bytes contiguously would have thread t write 16 bytes at t * 32: each quarter warp's 128-byte
/// wavefront would span 256 bytes, a two-way bank conflict on every store and load. With planes
/// consecutive threads touch consecutive 16-byte words, conflict-free.
template <int N, class S> struct slice_cache {
  static constexpr int pack_bytes = N * int(sizeof(S));
  static constexpr int words = pack_bytes > 16 ? pack_bytes / 16 : 1;
  static constexpr int word_elements = N / words;
  static_assert(words * word_elements == N);

  S* base;
  int slice_packs;

  __device__ S* word(int p, int w) const { return base + (w * slice_packs + p) * word_elements; }

  __device__ void put(int p, S const (&v)[N]) const {
    ROWFUSE_UNROLL
    for (int w = 0; w < words; ++w) {
      S part[word_elements];
      ROWFUSE_UNROLL
      for (int j = 0; j < word_elements; ++j)
        part[j] = v[w * word_elements + j];
      detail::store_pack<word_elements>(word(p, w), part);
    }
  }

  __device__ void get(int p, S (&v)[N]) const {
    ROWFUSE_UNROLL
    for (int w = 0; w < words; ++w) {
      S part[word_elements];
      detail::load_pack<word_elements>(word(p, w), part);
      ROWFUSE_UNROLL
      for (int j = 0; j < word_elements; ++j)
        v[w * word_elements + j] = part[j];
    }
  }
};

namespace cluster_detail {

/// Copies `Bytes` (4, 8 or 16) from global to shared memory without passing through registers
/// (LDGSTS); 16-byte copies skip L1 (.cg), the data is used once from shared memory.
template <int Bytes> __device__ __forceinline__ void copy_async(void* shared, void const* global) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
  auto const to = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  auto const from = __cvta_generic_to_global(global);
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(from) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(to), "l"(from), "n"(Bytes)
                 : "memory");
}

/// Waits for this thread's copies; they are then visible to this thread (and only it: each
/// thread reads back its own packs). The memory clobber keeps the compiler from hoisting the
/// shared loads that follow above the wait, which CUDA's __pipeline_wait_prior does not.
__device__ __forceinline__ void wait_async_copies() {
  asm volatile("cp.async.wait_all;" ::: "memory");
}

} // namespace cluster_detail

template <class Config, class Op, class Load, class Store>
__global__ void __launch_bounds__(Config::block_threads, Config::min_blocks_per_sm)
    cluster_kernel(Op op, Load load, Store store, index_t rows, index_t cols) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  // Built for an older architecture too (CMAKE_CUDA_ARCHITECTURES="80;90"): never launched
  // there, launch_cluster refuses devices below compute capability 9.0.
  __trap();
#else
  namespace cg = cooperative_groups;
  // A gradient_op holds two streams: half the packs of each (ptxas, sm_90: 176 bytes spilled
  // under the 64-register cap at the full unroll for an fp16 softmax backward).
  constexpr int stream_divisor = gradient_op<Op> && Config::unroll > 1 ? 2 : 1;
  constexpr int pack_width = Config::pack, block_threads = Config::block_threads,
                unroll = Config::unroll / stream_divisor,
                load_unroll = Config::load_unroll / stream_divisor;
  using input_t = typename Load::element_type;
  constexpr bool raw_cache = caches_raw_for<Op, Load>;
  constexpr bool two_streams = gradient_op<Op>;
  using cache_t = std::conditional_t<raw_cache, input_t, float>;
  using partial = typename Op::partial;
  using block_reduce = cub::BlockReduce<partial, block_threads>;
  // Raw packs cp.async can move (4, 8, 16 bytes: not single fp16 elements) are copied straight
  // into the cache: no registers held while they fly, so a thread has its whole slice in flight
  // (262144 fp16 columns over 8 blocks of 512 threads: 8 x 16 bytes a thread, 128 KB per SM)
  // instead of the 16 values the register path can afford under 64 registers.
  constexpr int pack_bytes = pack_width * int(sizeof(input_t));
  constexpr bool async_fill = raw_cache && (pack_bytes == 4 || pack_bytes == 8 || pack_bytes == 16);
  static_assert(load_unroll % unroll == 0 || unroll % load_unroll == 0,
                "packs per op.local must tile the loaded packs");

  __shared__ typename block_reduce::TempStorage reduce_storage;
  // Double-buffered: row i's partial goes to slots[i % 2]. A block writes slots[i % 2] again
  // only for row i + 2, after passing row i + 1's barrier; every peer arrives there only after
  // it has read (and used) row i's slots, and barrier.cluster.arrive has release semantics, so
  // the overwrite cannot reach a peer still reading. One barrier per row instead of two.
  __shared__ partial slots[2];
  extern __shared__ float4 dynamic_shared[];

  cg::cluster_group const cluster = cg::this_cluster();
  int const rank = int(cluster.block_rank());
  int const cluster_blocks = int(cluster.num_blocks()); // the launch's cluster size, 2-16
  // The grid is 1-D in clusters of (cluster_blocks, 1, 1): cluster k is blocks cluster_blocks * k
  // to cluster_blocks * (k + 1) - 1.
  index_t const cluster_id = blockIdx.x / cluster_blocks;
  index_t const clusters = gridDim.x / cluster_blocks;

  // Every count below fits in int: a slice is at most 227 KB / sizeof(cache_t) elements.
  int const slice_packs = int(detail::cluster_slice_packs(cols, pack_width, cluster_blocks));
  // The dispatcher picks pack_width > 1 only where pack_width divides cols.
  index_t const packs_in_row = (cols + pack_width - 1) / pack_width;
  int const own_packs = int(std::min<index_t>(
      std::max<index_t>(packs_in_row - index_t(rank) * slice_packs, 0), slice_packs));
  index_t const col_begin = index_t(rank) * slice_packs * pack_width;
  slice_cache<pack_width, cache_t> const cache{reinterpret_cast<cache_t*>(dynamic_shared),
                                               slice_packs};
  // A gradient_op's gradient values, after the input's (both fp32: slice_packs * pack_width * 4
  // bytes keeps the second cache's packs aligned).
  [[maybe_unused]] slice_cache<pack_width, float> const gradient_cache{
      reinterpret_cast<float*>(dynamic_shared) + index_t(slice_packs) * pack_width, slice_packs};

  // Lane r < cluster_blocks of every warp reads rank r's slot; mapped once, one pointer a lane.
  int const lane = int(threadIdx.x) % 32;
  partial const* const peer_slots =
      cluster.map_shared_rank(&slots[0], lane < cluster_blocks ? lane : 0);

  // One pass over the input: tee writes happen here, exactly once.
  load_context load_ctx{true, cols};
  store_context<float> store_ctx{cols, 0.0f};

  // The value the load chain gives for cached pack p (for a raw cache, the chain runs here).
  auto const cached_values = [&](index_t row, int p, float(&v)[pack_width]) {
    cache_t held[pack_width];
    cache.get(p, held);
    ROWFUSE_UNROLL
    for (int j = 0; j < pack_width; ++j)
      v[j] = detail::widen<float>(held[j]);
    if constexpr (raw_cache)
      detail::apply_chain(load.nodes, v, row, col_begin + index_t(p) * pack_width, load_ctx);
  };

  // Starts copying `row`'s packs first, first + block_threads, ... (at most `count` of them) into
  // the cache.
  [[maybe_unused]] auto const copy_packs = [&](index_t row, int first, int count) {
    if constexpr (async_fill) {
      static_assert(slice_cache<pack_width, cache_t>::words == 1,
                    "a raw pack is one 16-byte word at most");
      input_t const* const input = load.input.dense_row(row) + col_begin;
      for (int k = 0, p = first; k < count && p < own_packs; ++k, p += block_threads)
        cluster_detail::copy_async<pack_bytes>(cache.word(p, 0), input + index_t(p) * pack_width);
    }
  };

  // Rows cluster_id, + clusters, ...; an ordered_rows_op's chunks instead, each by one cluster in
  // row order (common.cuh, chunk_walk), whose rows increase with the step: the loop ends at the
  // first row past the last, the same step in every block of the cluster.
  [[maybe_unused]] chunk_walk walk{};
  [[maybe_unused]] index_t step = 0;
  if constexpr (ordered_rows_op<Op>) {
    static_assert(!async_fill, "the copy of the next row assumes rows cluster_id + k * clusters");
    walk = chunk_walk{cluster_id, clusters, op.chunk_log2()};
  }
  auto const next_row = [&](index_t row) {
    if constexpr (ordered_rows_op<Op>)
      return walk.row(++step);
    else
      return row + clusters;
  };
  int parity = 0;
  for (index_t row = ordered_rows_op<Op> ? walk.row(0) : cluster_id; row < rows;
       row = next_row(row), parity ^= 1) {
    // ---- pass 1: the slice into the cache, and its partial --------------------------------
    partial part = op.identity();
    if constexpr (async_fill) {
      // The cluster's first row is copied here; every later one was copied during the pass 2
      // of the row before (below), so its loads overlapped that pass 2.
      if (row == cluster_id)
        copy_packs(row, int(threadIdx.x), own_packs);
      cluster_detail::wait_async_copies();
      for (int p0 = int(threadIdx.x); p0 < own_packs; p0 += block_threads * unroll) {
        float x[unroll * pack_width];
        int valid = 0; // a thread's valid packs are a prefix
        ROWFUSE_UNROLL
        for (int u = 0; u < unroll; ++u) {
          int const p = p0 + u * block_threads;
          float v[pack_width] = {};
          if (p < own_packs) {
            cached_values(row, p, v);
            valid = u + 1;
          }
          ROWFUSE_UNROLL
          for (int j = 0; j < pack_width; ++j)
            x[u * pack_width + j] = v[j];
        }
        part = op.merge(part, op.local(x, valid * pack_width));
      }
    } else {
      for (int p0 = int(threadIdx.x); p0 < own_packs; p0 += block_threads * load_unroll) {
        // All load_unroll packs are loaded before any is used.
        [[maybe_unused]] input_t raw[load_unroll][pack_width];
        [[maybe_unused]] float v[load_unroll][pack_width];
        [[maybe_unused]] float gv[two_streams ? load_unroll : 1][pack_width];
        ROWFUSE_UNROLL
        for (int u = 0; u < load_unroll; ++u) {
          int const p = p0 + u * block_threads;
          if (p < own_packs) {
            index_t const col0 = col_begin + index_t(p) * pack_width;
            if constexpr (raw_cache)
              detail::load_pack<pack_width>(load.input.dense_row(row) + col0, raw[u]);
            else if constexpr (two_streams)
              load_pair<pack_width>(op, load, row, col0, v[u], gv[u], load_ctx);
            else
              load.template load<pack_width>(row, col0, v[u], load_ctx);
          }
        }
        // Packs a call of op.local takes.
        constexpr int local_packs = load_unroll < unroll ? load_unroll : unroll;
        ROWFUSE_UNROLL
        for (int g = 0; g < load_unroll; g += local_packs) {
          float x[local_packs * pack_width];
          [[maybe_unused]] float gx[two_streams ? local_packs * pack_width : 1];
          int valid = 0;
          ROWFUSE_UNROLL
          for (int u = g; u < g + local_packs; ++u) {
            int const p = p0 + u * block_threads;
            if (p < own_packs) {
              if constexpr (raw_cache) {
                cache.put(p, raw[u]);
                ROWFUSE_UNROLL
                for (int j = 0; j < pack_width; ++j)
                  v[u][j] = detail::widen<float>(raw[u][j]);
                detail::apply_chain(load.nodes, v[u], row, col_begin + index_t(p) * pack_width,
                                    load_ctx);
              } else {
                cache.put(p, v[u]);
                if constexpr (two_streams)
                  gradient_cache.put(p, gv[u]);
              }
              valid = u - g + 1;
            }
            ROWFUSE_UNROLL
            for (int j = 0; j < pack_width; ++j)
              x[(u - g) * pack_width + j] = p < own_packs ? v[u][j] : 0.0f;
            if constexpr (two_streams) {
              ROWFUSE_UNROLL
              for (int j = 0; j < pack_width; ++j)
                gx[(u - g) * pack_width + j] = p < own_packs ? gv[u][j] : 0.0f;
            }
          }
          if (valid > 0) {
            if constexpr (two_streams)
              part = op.merge(part, op.local(x, gx, valid * pack_width));
            else
              part = op.merge(part, op.local(x, valid * pack_width));
          }
        }
      }
    }

    // ---- the block's partial, then the cluster's -------------------------------------------
    // Only thread 0 gets CUB's total, and it alone writes the slot. No __syncthreads around it:
    // the cluster barrier below orders this block's threads as well, and the next row's Reduce
    // cannot overwrite reduce_storage before thread 0 has read it, since every other thread
    // first passes this row's barrier, which thread 0 reaches after its Reduce.
    partial const block_total = block_reduce(reduce_storage).Reduce(part, merge_partials<Op>{op});
    if (threadIdx.x == 0)
      slots[parity] = block_total;
    // barrier.cluster.arrive (release) + wait (acquire): every block's slot is ready.
    cluster.sync();

    // Lanes 0 .. cluster_blocks - 1 of every warp fetch the cluster_blocks partials and fold them
    // by a butterfly over lanes (lanes past cluster_blocks hold the identity), then every lane
    // takes lane 0's result. Lane 0 folds in one fixed order, ((p0 + p1) + (p2 + p3)) + ..., in
    // every warp of every block, so all blocks finish from bit-identical statistics;
    // log2(cluster_blocks) dependent merges instead of cluster_blocks - 1 (15 softmax merges, 30
    // exps in a chain, for cluster_blocks = 16).
    partial total = lane < cluster_blocks ? peer_slots[parity] : op.identity();
    for (int lane_mask = 1; lane_mask < cluster_blocks; lane_mask *= 2)
      total = op.merge(total, detail::shfl_xor(total, lane_mask));
    total = detail::shfl_from(total, 0);
    auto const stats = op.finalize(total, cols);
    if (rank == 0 && threadIdx.x == 0)
      op.save(row, stats);

    // ---- pass 2: finish from the cache ----------------------------------------------------
    for (int p0 = int(threadIdx.x); p0 < own_packs; p0 += block_threads * unroll) {
      float y[unroll][pack_width];
      [[maybe_unused]] float gy[two_streams ? unroll : 1][pack_width];
      ROWFUSE_UNROLL
      for (int u = 0; u < unroll; ++u) {
        if (p0 + u * block_threads < own_packs) {
          cached_values(row, p0 + u * block_threads, y[u]);
          if constexpr (two_streams)
            gradient_cache.get(p0 + u * block_threads, gy[u]);
        }
      }
      ROWFUSE_UNROLL
      for (int u = 0; u < unroll; ++u) {
        int const p = p0 + u * block_threads;
        if (p < own_packs) {
          index_t const col0 = col_begin + index_t(p) * pack_width;
          if constexpr (two_streams)
            op.template finish<pack_width>(y[u], gy[u], stats, row, col0);
          else
            op.template finish<pack_width>(y[u], stats, row, col0);
          store.template store<pack_width, masks_packs<Load>>(row, col0, y[u], store_ctx);
        }
      }
      // The cluster's next row goes into the packs just finished. Only this thread reads them,
      // and it has: the stores above consume the values it read, and instructions issue in
      // order, so the shared loads have returned before a copy can overwrite their source. The
      // memory clobber of the copy keeps the compiler from moving those loads past it.
      if constexpr (async_fill)
        if (row + clusters < rows)
          copy_packs(row + clusters, p0, unroll);
    }
  }
  flush_amax(store, store_ctx, &reduce_storage);
  // A block's shared memory goes away when it exits: none may leave while a peer can still be
  // reading its slots for the last row.
  cluster.sync();
#endif
}

} // namespace rowfuse::engine
