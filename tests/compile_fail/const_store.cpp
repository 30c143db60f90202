// expect: rf::store needs a writable
// A store through a pointer to const is rejected where an op checks its store.
#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  float const* out = nullptr;
#else
  float* out = nullptr;
#endif
  auto store = rf::store(out);
  rf::detail::check_store_expr<decltype(store)>();
}
