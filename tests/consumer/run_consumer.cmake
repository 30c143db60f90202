# Builds and runs tests/consumer against rowfuse. Run by ctest as
#
#   cmake -DMODE=package|subdirectory -DCONSUMER_BINARY_DIR=<dir> [-DPREFIX=<dir>]
#         -DROWFUSE_SOURCE_DIR=... -DROWFUSE_BINARY_DIR=... -DCONSUMER_SOURCE_DIR=...
#         -DGENERATOR=... -DMAKE_PROGRAM=... -DCXX_COMPILER=... -DCUDA_COMPILER=...
#         -DCUDA_HOST_COMPILER=... -DCUDA_ARCHITECTURES=... -DCONFIG=...
#         -P run_consumer.cmake
#
# package:      install ROWFUSE_BINARY_DIR into PREFIX, then find_package(rowfuse)
# subdirectory: add_subdirectory(ROWFUSE_SOURCE_DIR) inside the consumer
# Either way: configure (fresh), build, run. Any failing step stops with a message.
cmake_minimum_required(VERSION 3.25...3.31)

foreach(var IN ITEMS MODE CONSUMER_BINARY_DIR CONSUMER_SOURCE_DIR ROWFUSE_SOURCE_DIR GENERATOR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

# Runs one step, echoing its command; stops the script if it fails.
function(step what)
  message(STATUS "consumer (${MODE}): ${what}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc COMMAND_ECHO STDOUT)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer (${MODE}): ${what} failed (${rc})")
  endif()
endfunction()

set(build_config_args "")
if(NOT "${CONFIG}" STREQUAL "")
  set(build_config_args --config "${CONFIG}")
endif()

# Settings go through an initial-cache file (-C), so values with spaces or
# semicolons (architectures "80;90") arrive intact.
set(init "")
foreach(pair IN ITEMS MAKE_PROGRAM:CMAKE_MAKE_PROGRAM CXX_COMPILER:CMAKE_CXX_COMPILER
                      CUDA_COMPILER:CMAKE_CUDA_COMPILER CUDA_HOST_COMPILER:CMAKE_CUDA_HOST_COMPILER
                      CUDA_ARCHITECTURES:CMAKE_CUDA_ARCHITECTURES CONFIG:CMAKE_BUILD_TYPE
                      MODE:ROWFUSE_CONSUMER_MODE)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 from)
  list(GET pair 1 to)
  if(NOT "${${from}}" STREQUAL "")
    string(APPEND init "set(${to} [==[${${from}}]==] CACHE STRING \"\")\n")
  endif()
endforeach()

# Start from nothing, so a stale cache or install cannot hide a broken one.
file(REMOVE_RECURSE "${CONSUMER_BINARY_DIR}")

if(MODE STREQUAL "package")
  if(NOT PREFIX OR NOT ROWFUSE_BINARY_DIR)
    message(FATAL_ERROR "run_consumer.cmake: package mode needs -DPREFIX and -DROWFUSE_BINARY_DIR")
  endif()
  file(REMOVE_RECURSE "${PREFIX}")
  step("install rowfuse into ${PREFIX}"
       "${CMAKE_COMMAND}" --install "${ROWFUSE_BINARY_DIR}" --prefix "${PREFIX}" ${build_config_args})
  string(APPEND init "set(CMAKE_PREFIX_PATH [==[${PREFIX}]==] CACHE PATH \"\")\n")
elseif(MODE STREQUAL "subdirectory")
  string(APPEND init "set(ROWFUSE_SOURCE_DIR [==[${ROWFUSE_SOURCE_DIR}]==] CACHE PATH \"\")\n")
else()
  message(FATAL_ERROR "run_consumer.cmake: MODE must be package or subdirectory, not '${MODE}'")
endif()

file(WRITE "${CONSUMER_BINARY_DIR}/init-cache.cmake" "${init}")
step("configure" "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${CONSUMER_BINARY_DIR}"
     -G "${GENERATOR}" -C "${CONSUMER_BINARY_DIR}/init-cache.cmake")
step("build" "${CMAKE_COMMAND}" --build "${CONSUMER_BINARY_DIR}" ${build_config_args})

set(exe "${CONSUMER_BINARY_DIR}/bin/consumer")
message(STATUS "consumer (${MODE}): run ${exe}")
execute_process(COMMAND "${exe}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "^rowfuse [^\n]+")
  message(FATAL_ERROR "consumer (${MODE}): running the consumer failed (exit ${rc})")
endif()
message(STATUS "consumer (${MODE}): ok")
