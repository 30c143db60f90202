// The softmax family (family.cuh) with the dropout store chain.
#include "family.cuh"

TEST_CASE("fused softmax family, dropout store, every engine") {
  check_family(hana::make_tuple(dropout_store), 737);
}
