// Fused pipelines. Counted bytes: the fp16 input read and the fp16 output written (and the
// residual read, the tee written, where the pipeline has them); masks computed from indices
// and per-column vectors are not counted, as in ../shared/anchors.
#include <rowfuse/rowfuse.cuh>

#include "harness.hpp"

namespace rf = rowfuse;

namespace bench {
namespace {

/// scale -> causal mask -> softmax -> dropout(0.1) -> fp16: attention probabilities, with the
/// scores viewed as [rows / q_len heads x q_len, cols] and q_len = cols (square attention).
void attention(workload const& w, cudaStream_t stream) {
  rf::softmax(rf::load(static_cast<__half const*>(w.x), w.rows, w.cols) | rf::scale(0.125f) |
                  rf::causal_mask(w.cols),
              rf::store(static_cast<__half*>(w.y)) | rf::dropout(0.1f, 2024, 0), stream);
}

}  // namespace

std::vector<variant> pipeline_variants() { return {{"attention", "fp16", 4, attention}}; }

}  // namespace bench
