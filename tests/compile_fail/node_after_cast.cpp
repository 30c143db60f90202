// expect: rf::cast<T> must be the last store transform
// Nothing may follow the rounding to the output type: a scale after rf::cast must not compile.
#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  __nv_bfloat16* out = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  auto store = rf::store(out) | rf::cast<__nv_bfloat16>() | rf::scale(2.0f);
#else
  auto store = rf::store(out) | rf::scale(2.0f) | rf::cast<__nv_bfloat16>();
#endif
  (void)store;
}
