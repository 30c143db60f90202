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
#ifdef ROWFUSE_GPU_TESTS_BUILT_AS_CHECK
  // Its calls have the kernels of one row of each engine path (ROWFUSE_COMPILE_CHECK_KERNELS):
  // most plans would throw, so no case is run, and the run fails rather than passes unseen.
  std::printf("error: this suite was built to check that it compiles "
              "(ROWFUSE_GPU_TESTS_COMPILE_CHECK, on where configure finds no GPU): its calls lack "
              "most of their kernels; configure with -DROWFUSE_GPU_TESTS_COMPILE_CHECK=OFF, or "
              "cmake --preset device, to run it\n");
  return 1;
#endif
  // A suite built where configure found no GPU (the CI's settings, tests/CMakeLists.txt) still
  // runs, but what it checks is not the release build's code: say so first, so that its pass is
  // not read as one of the library's kernels (cmake --preset device builds them for a GPU).
#ifdef ROWFUSE_GPU_TESTS_BUILT_PTX_ONLY
  std::printf("note: this suite's kernels are PTX only (ROWFUSE_GPU_TESTS_PTX_ONLY): the driver "
              "compiles each at its first launch, minutes for the larger suites\n");
#endif
#ifdef ROWFUSE_GPU_TESTS_BUILT_FAST
  std::printf("note: this suite was compiled with nvcc --Ofast-compile=max "
              "(ROWFUSE_GPU_TESTS_FAST_COMPILE): its kernels are not those a release build "
              "runs\n");
#endif
  doctest::Context context(argc, argv);
  return context.run();
}
