// Device properties, read once per device: the plan consults them on every call.
#include <array>
#include <mutex>

#include "rowfuse/dispatch/plan.hpp"
#include "rowfuse/error.hpp"

namespace rowfuse {

device_info const& current_device() {
  constexpr int max_devices = 64;
  static std::array<device_info, max_devices> cache;
  static std::array<std::once_flag, max_devices> filled;

  int id = 0;
  cudaError_t status = cudaGetDevice(&id);
  if (status != cudaSuccess)
    detail::fail("no usable CUDA device: ", cudaGetErrorString(status));
  if (id < 0 || id >= max_devices)
    detail::fail("CUDA device id ", id, " is out of range");

  std::call_once(filled[std::size_t(id)], [id] {
    cudaDeviceProp prop{};
    cudaError_t const s = cudaGetDeviceProperties(&prop, id);
    if (s != cudaSuccess)
      detail::fail("cudaGetDeviceProperties(", id, ") failed: ", cudaGetErrorString(s));
    device_info& info = cache[std::size_t(id)];
    info.id = id;
    info.multiprocessors = prop.multiProcessorCount;
    info.max_threads_per_multiprocessor = prop.maxThreadsPerMultiProcessor;
    info.shared_memory_per_block_optin = prop.sharedMemPerBlockOptin;
    info.shared_memory_per_multiprocessor = prop.sharedMemPerMultiprocessor;
    info.compute_capability = prop.major * 10 + prop.minor;
    info.name = prop.name;
    // Two transfers a memory clock (DDR), bus_bits / 8 bytes each, against every SM's cycles.
    int memory_khz = 0, bus_bits = 0, sm_khz = 0;
    if (cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, id) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, id) == cudaSuccess &&
        cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, id) == cudaSuccess && sm_khz > 0 &&
        info.multiprocessors > 0)
      info.dram_bytes_per_sm_cycle =
          2.0 * double(memory_khz) * (bus_bits / 8) / (double(sm_khz) * info.multiprocessors);
  });
  return cache[std::size_t(id)];
}

} // namespace rowfuse
