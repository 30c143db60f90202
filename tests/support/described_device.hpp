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
  d.name = "described";
  return d;
}

} // namespace test
