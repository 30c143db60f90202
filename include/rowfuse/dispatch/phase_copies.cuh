// Host side of the norms' gamma and beta copied at each phase of the pack grid
// (detail::phase_copies): for a phased kernel that reads them, the copies' stream-ordered workspace
// and the one launch that fills them, before the op's kernel on the same stream.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "../engine/phase_copies.cuh"
#include "../expr/view.hpp"
#include "../op/norm.cuh"
#include "plan.hpp"
#include "workspace_pool.hpp"

namespace rowfuse::detail {

/// Ops whose phased rows may read gamma and beta from copies at each phase (op.at_phases,
/// op::norm_detail::copies_at_phases; engine::takes_copies_at_phases says on which kernels): the
/// norms with 2-byte gamma and beta.
template <class Op>
concept reads_affine_at_phases = requires(Op& op) {
  op.affine.gamma;
  op.at_phases.gamma;
};

/// A copy of `op` whose phased rows of packs of N over `input` read gamma and beta (where given)
/// from op.at_phases: in place where every row's packs are on their grid (rows of one phase, at
/// which they are aligned), elsewhere from copies in a workspace of this object's own, which
/// constructing it fills by one launch on `stream`. The workspace is freed in the stream's order
/// when this object goes away, after every kernel launched on `stream` while it lived. Made for
/// the launch of a kernel that reads them (engine::takes_copies_at_phases), never for a dry run.
template <int N, class Op> class affine_copied_at_phases {
public:
  template <class T>
  affine_copied_at_phases(Op const& op, view<T> const& input, cudaStream_t stream, plan const& p)
      : op_(op), in_place_(in_place(op.affine, input)),
        buffer_(in_place_ ? 0 : bytes(op.affine, input.cols), stream, Op::name,
                "gamma and beta copied at each phase") {
    if (in_place_)
      op_.at_phases = {{op.affine.gamma.data, 0}, {op.affine.beta.data, 0}};
    else
      copy(op_.affine, op_.at_phases, input.cols, stream, p);
  }

  Op const& op() const { return op_; }

private:
  /// Whether `operand`'s pack at each phased row's first column is on its grid in every row: the
  /// rows start equally far off the input's grid (ld a multiple of N, or one row).
  template <class T, class P>
  static bool on_grid_in_every_row(view<T> const& input, P const* operand) {
    if (operand == nullptr)
      return true;
    if (input.rows > 1 && input.ld % N != 0)
      return false;
    auto const start = reinterpret_cast<std::uintptr_t>(input.data) / sizeof(std::remove_cv_t<T>);
    auto const first = (N - start % N) % N;
    return reinterpret_cast<std::uintptr_t>(operand + first) % pack_alignment<P, N> == 0;
  }
  template <class T, class G, class B>
  static bool in_place(affine_params<G, B> const& affine, view<T> const& input) {
    return on_grid_in_every_row(input, affine.gamma.data) &&
           on_grid_in_every_row(input, affine.beta.data);
  }

  // N copies of phase_copy_stride elements each: multiples of 16 bytes (the stride is a multiple of
  // N, and N 2-byte elements are 16 bytes), so beta's copies start on the grid after gamma's.
  template <class G, class B>
  static std::size_t gamma_bytes(affine_params<G, B> const&, index_t cols) {
    return std::size_t(N) * std::size_t(phase_copy_stride<N>(cols)) * sizeof(G);
  }
  template <class G, class B>
  static std::size_t bytes(affine_params<G, B> const& affine, index_t cols) {
    std::size_t const beta_bytes =
        affine.beta.data != nullptr
            ? std::size_t(N) * std::size_t(phase_copy_stride<N>(cols)) * sizeof(B)
            : 0;
    return gamma_bytes(affine, cols) + beta_bytes;
  }

  template <class G, class B>
  void copy(affine_params<G, B> const& affine,
            op::norm_detail::affine_at_phases<affine_params<G, B>>& at_phases, index_t cols,
            cudaStream_t stream, plan const& p) {
    auto* const memory = static_cast<unsigned char*>(buffer_.data());
    auto* const gamma_copies = reinterpret_cast<G*>(memory);
    B* const beta_copies = affine.beta.data != nullptr
                               ? reinterpret_cast<B*>(memory + gamma_bytes(affine, cols))
                               : nullptr;
    index_t const stride = phase_copy_stride<N>(cols);
    constexpr int threads = 256;
    index_t const blocks = std::min<index_t>((cols + threads - 1) / threads, 65535);
    engine::copy_at_phases_kernel<N><<<unsigned(blocks), threads, 0, stream>>>(
        affine.gamma.data, gamma_copies, affine.beta.data, beta_copies, cols, stride);
    check_launch(cudaGetLastError(), p);
    at_phases.gamma = {gamma_copies, stride + 1};
    at_phases.beta = {beta_copies, stride + 1};
  }

  Op op_;
  bool in_place_; // before buffer_: it sizes it
  stream_buffer buffer_;
};

} // namespace rowfuse::detail
