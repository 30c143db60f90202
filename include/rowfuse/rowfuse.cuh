// rowfuse: fused row-wise GPU kernels written in a few lines. The one include for users.
//
//   namespace rf = rowfuse;
//   rf::softmax(rf::load(S, rows, cols) | rf::scale(0.125f) | rf::causal_mask(q_len),
//               rf::store(P) | rf::dropout(0.1f, seed, offset), stream);
#pragma once

#include "dispatch/plan.hpp"
#include "error.hpp"
#include "expr.hpp"
#include "op/affine.hpp"
#include "ops.cuh"
#include "ops_backward.cuh"
#include "version.hpp"
