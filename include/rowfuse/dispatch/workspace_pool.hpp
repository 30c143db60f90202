// Where the backward ops' workspace comes from: a stream-ordered memory pool of rowfuse's own per
// device, which keeps what it has allocated instead of handing it back at every synchronisation.
#pragma once

#include <cuda_runtime.h>

namespace rowfuse::detail {

/// The pool rowfuse takes its workspaces from on `device` (cudaMallocFromPoolAsync), created on
/// first use with a release threshold of UINT64_MAX: the memory of the largest workspace in use
/// at once stays reserved until the process ends. The device's default pool hands its unused
/// memory back at every synchronisation (threshold 0), and mapping it again cost each
/// layernorm_backward call 12-18 % (bench/NOTES.md, seventh session). nullptr where the device
/// gives no pool of its own; the caller then takes the default one. Any host thread may ask.
cudaMemPool_t workspace_pool(int device);

} // namespace rowfuse::detail
