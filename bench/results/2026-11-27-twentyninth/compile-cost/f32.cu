#include <rowfuse/rowfuse.cuh>
namespace rf = rowfuse;
void call(float const* x, float* y, rf::index_t rows, rf::index_t cols, cudaStream_t stream) {
  rf::softmax(rf::load(x, rows, cols), rf::store(y), stream);
}
