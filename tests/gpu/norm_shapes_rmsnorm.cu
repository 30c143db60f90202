// rmsnorm over the whole width grid: fp32/fp16/bf16 in and out, without affine, with gamma and
// with zero-centred gamma (fp32, fp16 or bf16), dense and with ld > cols and every view one
// element off its alignment; the automatic plan and every engine that can run each width,
// forced; outputs and rstd poisoned before every run and every element checked against
// rf::reference::rmsnorm (tolerances: norm_support.cuh).
#include "norm_support.cuh"

namespace {

namespace hana = boost::hana;
using norm_test::check_all_widths;
using norm_test::rmsnorm_op;

auto const no_affine = [](auto const*, auto const*) { return rf::no_affine; };
auto const gamma_only = [](auto const* g, auto const*) { return rf::affine(g); };
auto const zero_centered = [](auto const* g, auto const*) { return rf::zero_centered_gamma(g); };

auto const all_variants = hana::make_tuple(no_affine, gamma_only, zero_centered);
auto const affine_variants = hana::make_tuple(gamma_only, zero_centered);

} // namespace

TEST_CASE("rmsnorm fp32 -> fp32, fp32 gamma, every width and engine") {
  check_all_widths<rmsnorm_op, float, float, float, float>(all_variants, 51);
}
TEST_CASE("rmsnorm fp16 -> fp16, fp16 gamma, every width and engine") {
  check_all_widths<rmsnorm_op, __half, __half, __half, __half>(all_variants, 52);
}
TEST_CASE("rmsnorm bf16 -> bf16, bf16 gamma, every width and engine") {
  check_all_widths<rmsnorm_op, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16>(
      all_variants, 53);
}
TEST_CASE("rmsnorm bf16 -> fp32, fp32 gamma, every width and engine") {
  check_all_widths<rmsnorm_op, __nv_bfloat16, float, float, float>(affine_variants, 54);
}
TEST_CASE("rmsnorm fp32 -> fp16, bf16 gamma, every width and engine") {
  check_all_widths<rmsnorm_op, float, __half, __nv_bfloat16, __nv_bfloat16>(affine_variants, 55);
}
TEST_CASE("rmsnorm fp16 -> bf16, fp16 gamma, every width and engine") {
  check_all_widths<rmsnorm_op, __half, __nv_bfloat16, __half, __half>(affine_variants, 56);
}
