# CMake 3.25 (the CI machine's) does not know that nvcc >= 12 accepts -std=c++20,
# so it rejects the cuda_std_20 compile feature ("not known to CUDA compiler").
# Teach it, in the calling directory scope, when CUDA is enabled there. Newer
# CMake (4.x on the GPU machine) already knows: the option is then defined and
# this file does nothing.
#
# Included by rowfuse's top-level CMakeLists.txt and by the installed
# rowfuseConfig.cmake, because the exported rowfuse::rowfuse target carries the
# cuda_std_20 feature into the consumer. A consumer must therefore enable CUDA
# before find_package(rowfuse) when it runs on CMake 3.25.
if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA"
   AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0
   AND NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
  list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
  set(ROWFUSE_CUDA20_PATCHED TRUE)
endif()
