// expect: this is a load transform
// A causal mask acts on the scores before the softmax; on the store side it must not compile.
#include <rowfuse/expr.hpp>

namespace rf = rowfuse;

int main() {
  float* probs = nullptr;
#ifndef ROWFUSE_EXPECT_COMPILES // defined only when checking that the rest of the file is fine
  auto store = rf::store(probs) | rf::causal_mask(16);
#else
  auto store = rf::store(probs) | rf::dropout(0.1f, 7);
#endif
  (void)store;
}
