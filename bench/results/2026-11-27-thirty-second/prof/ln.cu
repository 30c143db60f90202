#include <rowfuse/rowfuse.cuh>
namespace rf = rowfuse;
void call(__half const* x, __half* y, __half const* g, __half const* b, long rows, long cols,
          cudaStream_t s) {
  rf::layernorm(rf::load(x, rows, cols), rf::store(y), rf::affine(g, b), 1e-5f, s);
}
