// One layernorm_backward (gamma and beta) and one rmsnorm_backward (gamma) call over T, for
// ptxas -v (ptxcheck.sh) and the kernel table they instantiate.
#include <rowfuse/rowfuse.cuh>
namespace rf = rowfuse;
template <class T>
void call(T const* x, T const* dy, T* dx, T const* g, T const* b, float* mean, float* rstd,
          float* dg, float* db, long rows, long cols, cudaStream_t s) {
  rf::layernorm_backward(rf::load(x, rows, cols), rf::load(dy, rows, cols), rf::store(dx),
                         rf::affine(g, b), rf::row_stats{mean, rstd}, rf::affine_grads{dg, db}, s);
  rf::rmsnorm_backward(rf::load(x, rows, cols), rf::load(dy, rows, cols), rf::store(dx),
                       rf::affine(g), rstd, rf::affine_grads{dg, nullptr}, s);
}
template void call<__half>(__half const*, __half const*, __half*, __half const*, __half const*,
                           float*, float*, float*, float*, long, long, cudaStream_t);
template void call<float>(float const*, float const*, float*, float const*, float const*, float*,
                          float*, float*, float*, long, long, cudaStream_t);
