// rowfuse's row operations as collectives inside a kernel of your own: softmax, log-softmax,
// layernorm and rmsnorm of the rows of a tile held in registers or shared memory by a warp or
// a block, the online softmax of a flash-attention loop, and rowfuse's load and store
// transforms applied on the way. The one include for them (no engines, no dispatch).
//
//   namespace rfc = rowfuse::collective;
//   rfc::warp_row_softmax<rfc::mma_accumulator_layout<16, 16>>().softmax(s, origin, in, out);
#pragma once

#include "collective/layout.cuh"
#include "collective/mma_layout.cuh"
#include "collective/online_softmax.cuh"
#include "collective/row_norm.cuh"
#include "collective/row_reduce.cuh"
#include "collective/row_softmax.cuh"
#include "collective/striped_layout.cuh"
#include "collective/tile.cuh"
#include "collective/transforms.cuh"
#include "expr.hpp"
#include "op/affine.hpp"
