// A device described by its numbers, for host tests of the planner (no GPU needed).
#pragma once

#include <rowfuse/dispatch/plan.hpp>

namespace test {

/// An H100's numbers, compute capability `cc`.
inline rowfuse::device_info described_device(int cc = 90) {
  rowfuse::device_info d;
  d.id = 0;
  d.multiprocessors = 132;
  d.max_threads_per_multiprocessor = 2048;
  d.shared_memory_per_block_optin = 232448;
  d.shared_memory_per_multiprocessor = 233472;
  d.compute_capability = cc;
  d.dram_bytes_per_sm_cycle = 12.8; // 3.35 TB/s over 132 SMs at 1.98 GHz
  d.name = "described";
  return d;
}

/// An H200's numbers: an H100's SMs, wider memory (tuning::wide_memory_bytes_per_cycle).
inline rowfuse::device_info described_h200() {
  rowfuse::device_info d = described_device();
  d.dram_bytes_per_sm_cycle = 15.7; // 4.1 TB/s over the same SMs
  d.name = "described H200";
  return d;
}

/// A device of unknown memory bandwidth (device_info::dram_bytes_per_sm_cycle 0), an H100's
/// otherwise: it plans from the H100's own rows alone, none of those measured on devices of wide
/// memory (tuning::register_shape::wide_memory_only), some of which an H100 takes too.
inline rowfuse::device_info described_own_rows() {
  rowfuse::device_info d = described_device();
  d.dram_bytes_per_sm_cycle = 0.0;
  d.name = "described, memory unknown";
  return d;
}

} // namespace test
