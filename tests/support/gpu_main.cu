// main() for the GPU tests, compiled once and linked into every gpu_<stem>.
// Without a usable CUDA device it exits with 77, which ctest reports as "skipped"
// (SKIP_RETURN_CODE 77), so the GPU tests can be built and listed on the CI machine.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdio>

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess || devices == 0) {
    std::printf("skipped: no CUDA device\n");
    std::printf("  (cudaGetDeviceCount: %s)\n",
                err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
