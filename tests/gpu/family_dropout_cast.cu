// The softmax family (family.cuh) with the dropout + cast store chain.
#include "family.cuh"

TEST_CASE("fused softmax family, dropout + cast store, every engine") {
  check_family(hana::make_tuple(dropout_cast_store), 515);
}
