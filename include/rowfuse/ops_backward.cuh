// The backward ops a user calls: each reads the forward's output (or input) and the incoming
// gradient through load expressions and writes the input's gradient through a store expression,
// in one kernel launch (the norms add a small second kernel for dgamma and dbeta).
#pragma once

#include <cuda_runtime.h>

#include "dispatch/column_sum.cuh"
#include "dispatch/launch.cuh"
#include "dispatch/workspace_pool.hpp"
#include "error.hpp"
#include "op/affine.hpp"
#include "op/norm_backward.cuh"
#include "op/softmax_backward.cuh"
#include "ops.cuh"

namespace rowfuse {

namespace detail {

/// The incoming gradient's expression bound to the input's shape: its view is named "dy" in
/// messages (null, ld < cols, another shape), its chain's operands as in any load chain.
template <class Load, class Gradient>
Gradient bind_gradient(Load const& input, Gradient const& gradient, char const* where) {
  auto const bound_input = bind(input, where); // the input's own errors come first
  index_t const rows = bound_input.input.rows, cols = bound_input.input.cols;
  require(gradient.input.rows >= 0, where, "dy rows", gradient.input.rows, "must be >= 0");
  require(gradient.input.cols >= 0, where, "dy cols", gradient.input.cols, "must be >= 0");
  return {gradient.input.bind(where, "dy", rows, cols),
          bind_chain(gradient.nodes, where, rows, cols)};
}

/// layernorm_backward (Centered) and rmsnorm_backward: checks, the partials' workspace, the
/// kernel over the rows, then the column sums of both parameter gradients together.
template <bool Centered, cols_range Range, class LoadX, class LoadGrad, class StoreGrad,
          class Affine>
plan run_norm_backward(LoadX const& x, LoadGrad const& dy, StoreGrad const& dx,
                       Affine const& affine, float const* mean, float const* rstd,
                       affine_grads grads, cudaStream_t stream, launch_options const& options) {
  using op_t = op::norm_backward<Centered, Affine, LoadGrad>;
  char const* where = op_t::name;
  auto const gradient = bind_gradient(x, dy, where);
  index_t const rows = gradient.input.rows, cols = gradient.input.cols;
  if (rows > 0) {
    if (Centered && mean == nullptr)
      fail(where, ": mean is a null pointer with ", rows, " rows (pass the forward's saved mean)");
    if (rstd == nullptr)
      fail(where, ": rstd is a null pointer with ", rows, " rows (pass the forward's saved rstd)");
  }
  if constexpr (std::is_same_v<Affine, no_affine_t>) {
    if (grads.dgamma != nullptr)
      fail(where, ": dgamma = ", static_cast<void const*>(grads.dgamma),
           " given, but affine is rf::no_affine: there is no gamma");
  } else if (!Centered && affine.beta.data != nullptr) {
    fail(where, ": beta = ", static_cast<void const*>(affine.beta.data),
         " given, but rmsnorm has no shift: pass rf::affine(gamma) or "
         "rf::zero_centered_gamma(gamma)");
  }
  if (!Centered && grads.dbeta != nullptr)
    fail(where, ": dbeta = ", static_cast<void const*>(grads.dbeta),
         " given, but rmsnorm has no shift");
  Affine const bound_affine = bind_affine(affine, where, cols);

  bool const sums = (grads.dgamma != nullptr || grads.dbeta != nullptr) && cols > 0;
  int const chunk_log2 = op::norm_chunk_rows_log2(rows, cols);
  index_t const chunks = (rows + (index_t(1) << chunk_log2) - 1) >> chunk_log2;
  std::size_t const partial_floats = std::size_t(chunks) * std::size_t(cols);
  int const partial_rows = (grads.dgamma != nullptr) + (grads.dbeta != nullptr);
  // Both column sums run in the same launches, each with a scratch of its own.
  std::size_t const scratch_floats = column_sum_scratch_floats(chunks, cols) * partial_rows;
  stream_buffer const workspace(sums && rows > 0 && !options.dry_run
                                    ? (partial_floats * partial_rows + scratch_floats) *
                                          sizeof(float)
                                    : 0,
                                stream, where, "dgamma/dbeta partials");
  float* const partial_gamma = grads.dgamma != nullptr ? workspace.floats() : nullptr;
  float* const partial_beta = grads.dbeta != nullptr
                                  ? workspace.floats(grads.dgamma != nullptr ? partial_floats : 0)
                                  : nullptr;
  op_t const op{gradient,     bound_affine,          mean, rstd, partial_gamma,
                partial_beta, sums ? chunk_log2 : 0, cols};
  plan const p = run_op<Range>(op, x, dx, stream, options);
  if (options.dry_run || !sums)
    return p;
  float const* partials[engine::column_sum_jobs::max_jobs] = {};
  float* outs[engine::column_sum_jobs::max_jobs] = {};
  int jobs = 0;
  for (float* const out : {grads.dgamma, grads.dbeta}) {
    if (out == nullptr)
      continue;
    if (rows == 0) { // a sum over no rows
      check_launch(cudaMemsetAsync(out, 0, std::size_t(cols) * sizeof(float), stream), p);
      continue;
    }
    partials[jobs] = out == grads.dgamma ? partial_gamma : partial_beta;
    outs[jobs++] = out;
  }
  launch_column_sums(partials, outs, jobs, chunks, cols,
                     workspace.floats(partial_floats * partial_rows), stream, p);
  return p;
}

} // namespace detail

/// dx, and optionally dgamma and dbeta, of layernorm: `x` the forward's input as a load
/// expression (for the residual block, the tee'd pre-norm stream h = x + bias + residual, or the
/// same load chain again), `dy` the incoming gradient (load expression), `dx` a store expression
/// (for the residual block's backward in this one call, the forward h = dropout(branch) +
/// residual: rf::store(d_branch) | rf::tee(d_residual) | rf::dropout(p, seed, offset), the
/// forward's load-side dropout replayed on the store side, whose mask is the same function of
/// (seed, offset, row, col); or rf::apply_keep_mask(keep_mask, p) with the mask it stored),
/// `affine` the forward's (rf::affine(gamma[, beta]), rf::zero_centered_gamma(gamma),
/// rf::no_affine), `saved` the forward's mean and rstd (both needed), `grads` where dgamma and
/// dbeta go (fp32 [cols]; nullptr skips one). dgamma and dbeta are the same bits on every run and
/// every engine (op/norm_backward.cuh says how); they need a workspace of ceil(rows / R) x cols
/// floats each (R = 16 .. 256 rows, op::norm_chunk_rows_log2(rows, cols)) and, past 256 chunks, a
/// scratch row of cols floats each per slice of chunks (dispatch/column_sum.cuh), allocated and
/// freed in stream order. Returns the plan of the row kernel.
template <cols_range Range = any_cols, class LoadX, class LoadGrad, class StoreGrad, class Affine>
plan layernorm_backward(LoadX const& x, LoadGrad const& dy, StoreGrad const& dx,
                        Affine const& affine, row_stats saved, affine_grads grads = {},
                        cudaStream_t stream = nullptr, launch_options const& options = {}) {
  static_assert(detail::is_affine<Affine>,
                "rowfuse: rf::layernorm_backward's fourth argument is rf::affine(gamma, beta), "
                "rf::affine(gamma), rf::zero_centered_gamma(gamma) or rf::no_affine");
  return detail::run_norm_backward<true, Range>(x, dy, dx, affine, saved.mean, saved.rstd, grads,
                                                stream, options);
}

/// dx, and optionally dgamma, of rmsnorm: as layernorm_backward, with the forward's saved `rstd`
/// (needed) and no beta.
template <cols_range Range = any_cols, class LoadX, class LoadGrad, class StoreGrad, class Affine>
plan rmsnorm_backward(LoadX const& x, LoadGrad const& dy, StoreGrad const& dx, Affine const& affine,
                      float const* rstd, affine_grads grads = {}, cudaStream_t stream = nullptr,
                      launch_options const& options = {}) {
  static_assert(detail::is_affine<Affine>,
                "rowfuse: rf::rmsnorm_backward's fourth argument is rf::affine(gamma), "
                "rf::zero_centered_gamma(gamma) or rf::no_affine");
  return detail::run_norm_backward<false, Range>(x, dy, dx, affine, nullptr, rstd, grads, stream,
                                                 options);
}

/// dx = y * (dy - sum_row(dy * y)): the gradient of softmax's input. `y` is the forward's output
/// before any store-side dropout, as a load expression (rf::load(y, rows, cols[, ld]) and any
/// load chain); `dy` the incoming gradient as a load expression, whose chain replays the
/// forward's store-side dropout with a load-side rf::dropout(p, seed, offset) of the same seed and
/// offset (its mask is a function of (seed, offset, row, col) alone), or applies the keep mask the
/// forward stored with rf::apply_keep_mask(keep_mask, p) (the same bits); `dx` a store expression
/// (rf::store(dx) | rf::scale(s) for a forward's load-side scale | rf::cast<T>() ...). Masked
/// positions (y = 0) give dx = 0. One kernel; returns the plan.
template <cols_range Range = any_cols, class LoadY, class LoadGrad, class StoreGrad>
plan softmax_backward(LoadY const& y, LoadGrad const& dy, StoreGrad const& dx,
                      cudaStream_t stream = nullptr, launch_options const& options = {}) {
  using op_t = op::softmax_backward<false, LoadGrad>;
  return detail::run_op<Range>(op_t{detail::bind_gradient(y, dy, op_t::name)}, y, dx, stream,
                               options);
}

/// dx = dy - exp(y) * sum_row(dy): the gradient of log-softmax's input, `y` its output. Masked
/// positions (y = -inf) give dx = 0 and leave their dy out of the sum. Arguments as for
/// softmax_backward.
template <cols_range Range = any_cols, class LoadY, class LoadGrad, class StoreGrad>
plan log_softmax_backward(LoadY const& y, LoadGrad const& dy, StoreGrad const& dx,
                          cudaStream_t stream = nullptr, launch_options const& options = {}) {
  using op_t = op::softmax_backward<true, LoadGrad>;
  return detail::run_op<Range>(op_t{detail::bind_gradient(y, dy, op_t::name)}, y, dx, stream,
                               options);
}

} // namespace rowfuse
