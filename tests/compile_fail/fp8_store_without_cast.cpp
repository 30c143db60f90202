// expect: an fp8 output needs an explicit rf::cast
// An fp8 output without rf::cast<fp8>(scale, amax) is rejected where an op checks its store.
#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  __nv_fp8_e4m3* out = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  auto store = rf::store(out) | rf::scale(0.5f);
#else
  auto store = rf::store(out) | rf::scale(0.5f) | rf::cast<__nv_fp8_e4m3>(2.0f);
#endif
  rf::detail::check_store_expr<decltype(store)>();
}
