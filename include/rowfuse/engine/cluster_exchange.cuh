// How the blocks of a thread-block cluster (sm_90+) that share a row combine their threads'
// partial statistics: one all-to-all round through distributed shared memory per reduction, with
// no block barrier, no cluster barrier and no remote read.
//
//   each warp:   reduces its lanes by shuffles, then lane r of the warp writes the warp's total
//                into slot (own rank, warp) of block r's shared memory with st.async, which also
//                credits block r's mbarrier with the bytes written;
//   each block:  one thread arms the mbarrier with the bytes the round brings (every warp of
//                every block, one slot each); every thread waits for the phase to complete,
//                then every warp folds the C x warps slots in one fixed order. On blocks the
//                launch sized below the shape's warps, the absent warps' slots hold the
//                identity, posted once (post_absent), and the round brings the present ones'.
//
// So every thread of every block ends with bit-identical totals, and a block waits only for the
// data it needs, not for every thread of the cluster to reach a barrier.
//
// Invariants the protocol rests on:
//  - slots and mbarriers alternate between two buffers from round to round. A block writes a
//    peer's buffer b for round k + 2 only after it has received round k + 1 from every warp of
//    that peer, and each of those warps sent round k + 1 after it had read (and used) the
//    peer's buffer b of round k: no slot is overwritten before it is read, and no round's
//    bytes reach an mbarrier whose previous phase is still open;
//  - the mbarrier's transaction count may go below zero: a peer's bytes may land before the
//    owner arms the phase, which then completes when the arm brings the count back to zero;
//  - peers write into a block's shared memory only after `start`'s cluster barrier, which
//    follows the mbarriers' initialisation (cluster_exchange_start / cluster_exchange_ready);
//  - a block exits only after its last round completed, that is after every write into its
//    shared memory has landed; nothing reads a peer's memory, so no barrier is needed at exit.
#pragma once

#include <cstdint>
#include <cstring>

#include "../detail/config.hpp"
#include "../detail/device_math.cuh"

namespace rowfuse::engine {

namespace cluster_detail {

__device__ __forceinline__ std::uint32_t shared_address(void const* pointer) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

/// The address of the same shared-memory location in block `rank` of the cluster.
__device__ __forceinline__ std::uint32_t peer_address(std::uint32_t local, int rank) {
  std::uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
  return remote;
}

/// The longest a waiting thread asks to be suspended (nanoseconds) before try_wait returns false:
/// suspended, a warp issues nothing until the phase completes (or the time runs out), where a
/// try-wait without the hint returns after a short, hardware-chosen time and the loop around it
/// spins (under ncu at 131072 16-bit columns, 2.2 M of the softmax kernel's 63.6 M instructions;
/// timed, the hint moved no row beyond the noise: bench/NOTES.md, sixtieth and sixty-first
/// sessions). The phase completes microseconds after the wait begins, so the bound only matters
/// if a peer never sends, which the protocol excludes.
inline constexpr std::uint32_t suspend_time_hint_ns = 10'000'000;

__device__ __forceinline__ bool phase_done(std::uint32_t barrier, int parity) {
  std::uint32_t done;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(done)
               : "r"(barrier), "r"(parity), "r"(suspend_time_hint_ns)
               : "memory");
  return done != 0;
}

} // namespace cluster_detail

/// Combines a value that is the same in every lane of a warp (a warp's total) across all warps
/// of all `ClusterBlocks` blocks of the cluster, `BlockThreads` threads each, and gives every
/// thread the total. `T` is a trivially copyable struct of 32-bit words (an op's partial).
/// Every thread of the block calls each round, in the same order in every block.
template <class T, int BlockThreads, int ClusterBlocks> struct cluster_exchange {
  static_assert(sizeof(T) % 4 == 0, "partials are made of 32-bit words");
  static constexpr int warps = BlockThreads / 32;
  static constexpr int slots = ClusterBlocks * warps; // a power of two: both factors are
  static constexpr int words = int(sizeof(T)) / 4;

  struct TempStorage {
    T posted[2][slots]; // [buffer][sender rank * warps + sender warp]
    std::uint64_t landed[2];
  };

  TempStorage& storage;
  /// The warps each block of the cluster has: `warps`, or fewer on a block the launch sized
  /// (register_config::sized_at_launch), whose absent warps never send and whose slots hold the
  /// identity (post_absent).
  int block_warps = warps;

  /// Posts `identity` (merge(x, identity) == x) in both buffers for every rank's warps at and
  /// past `block_warps`, which never send: the fold then stays one over every slot, as on blocks
  /// of the shape's threads. Only this block writes those slots; the caller orders the posts
  /// before the first round's fold with a block barrier.
  static __device__ void post_absent(TempStorage& storage, T const& identity, int block_warps) {
    for (int slot = int(threadIdx.x); slot < slots; slot += int(blockDim.x))
      if (slot % warps >= block_warps)
        storage.posted[0][slot] = storage.posted[1][slot] = identity;
  }

  /// Thread 0 initialises the mbarriers. The caller then runs cluster_exchange_start (once for
  /// every exchange of the kernel) and cluster_exchange_ready before round 0.
  __device__ void initialize() const {
    if (threadIdx.x == 0) {
      for (auto& barrier : storage.landed)
        asm volatile(
            "mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(cluster_detail::shared_address(&barrier))
            : "memory");
    }
  }

  /// Round `round` (0, 1, 2, ... in every block alike) of this exchange; `merge` is associative
  /// for the fold below to mean the total, and the fold's order is the same everywhere.
  template <class Merge> __device__ T operator()(T warp_total, int round, Merge merge) const {
    T const* const posted = gather(warp_total, round);
    return fold<T>([&](int slot) { return posted[slot]; }, merge);
  }

  /// The sending and waiting of round `round`: every warp's total, of every block, in this block's
  /// shared memory at [sender rank * warps + sender warp], for the caller to fold (fold) before
  /// the round after next.
  __device__ T const* gather(T warp_total, int round) const {
    int const buffer = round & 1;
    int const parity = (round >> 1) & 1;
    int const lane = int(threadIdx.x) & 31;
    int const warp = int(threadIdx.x) / 32;
    int const rank = int(block_rank());

    // Send: lane s (and s + 32, ...) carries word s % words of the warp's total to rank s / words.
    std::uint32_t bits[words];
    std::memcpy(bits, &warp_total, sizeof(T));
    std::uint32_t const slot = cluster_detail::shared_address(&storage.posted[buffer][0]) +
                               std::uint32_t((rank * warps + warp) * int(sizeof(T)));
    std::uint32_t const barrier = cluster_detail::shared_address(&storage.landed[buffer]);
    ROWFUSE_UNROLL
    for (int first = 0; first < ClusterBlocks * words; first += 32) {
      int const send = first + lane;
      if (send < ClusterBlocks * words) {
        int const to = send / words, word = send % words;
        std::uint32_t value = bits[0];
        ROWFUSE_UNROLL
        for (int w = 1; w < words; ++w)
          value = word == w ? bits[w] : value;
        asm volatile(
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" ::"r"(
                cluster_detail::peer_address(slot + 4u * std::uint32_t(word), to)),
            "r"(value), "r"(cluster_detail::peer_address(barrier, to))
            : "memory");
      }
    }

    // Arm this block's phase with the round's bytes (every present warp of every block), then
    // wait for them.
    if (threadIdx.x == 0)
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier),
                   "r"(ClusterBlocks * block_warps * int(sizeof(T)))
                   : "memory");
    while (!cluster_detail::phase_done(barrier, parity)) {
    }
    return storage.posted[buffer];
  }

  /// The total of `slot_value(s)` over the round's slots s by `merge`: lane l takes slots l,
  /// l + 32, ... in order, then a butterfly over the lanes that hold slots; every warp of every
  /// block runs the same sequence on the same values, so every thread ends with the same bits.
  template <class Value, class SlotValue, class Merge>
  static __device__ Value fold(SlotValue slot_value, Merge merge) {
    int const lane = int(threadIdx.x) & 31;
    constexpr int holders = slots < 32 ? slots : 32;
    Value total = slot_value(lane % holders);
    ROWFUSE_UNROLL
    for (int s = 32; s < slots; s += 32)
      total = merge(total, slot_value(s + lane));
    ROWFUSE_UNROLL
    for (int lane_mask = 1; lane_mask < holders; lane_mask *= 2)
      total = merge(total, detail::shfl_xor(total, lane_mask));
    return detail::shfl_from(total, 0);
  }

  __device__ static unsigned block_rank() {
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    return rank;
  }
};

/// After every exchange's initialize: makes the mbarriers' initialisation visible to the
/// cluster and arrives at the cluster barrier without waiting, so that the wait
/// (cluster_exchange_ready) can come after the first row's loads are issued.
__device__ __forceinline__ void cluster_exchange_start() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}

/// Before a block's first round: every block of the cluster has initialised its mbarriers.
__device__ __forceinline__ void cluster_exchange_ready() {
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}

} // namespace rowfuse::engine
