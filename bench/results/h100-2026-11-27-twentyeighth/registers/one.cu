#include <rowfuse/rowfuse.cuh>
namespace rf = rowfuse;
void call(__half const* x, __half* y, long rows, long cols) {
  rf::log_softmax(rf::load(x, rows, cols), rf::store(y));
}
void call2(__half const* x, __half* y, __half const* g, __half const* b, long rows, long cols) {
  rf::layernorm(rf::load(x, rows, cols), rf::store(y), rf::affine(g, b), 1e-5f);
}
