// The type level: what `|` builds (node types, element types, has_cast), that building is
// constexpr, that expressions are trivially copyable kernel parameters, which spellings the
// concepts reject, and a Hana-generated family of chains checked against their composition.
#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include <boost/hana/at.hpp>
#include <boost/hana/cartesian_product.hpp>
#include <boost/hana/equal.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/length.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <rowfuse/expr.hpp>
#include <rowfuse/reference.hpp>

namespace rf = rowfuse;
namespace hana = boost::hana;
using rf::index_t;

namespace {

constexpr float const* no_input = nullptr;
constexpr float* no_output = nullptr;

struct twice {
  constexpr float operator()(float x) const { return 2.0f * x; }
};
struct with_coordinates {
  float slope;
  constexpr float operator()(float x, index_t row, index_t col) const {
    return x + slope * float(col - row);
  }
};

using plain_load = decltype(rf::load(no_input, 4, 8));
using scaled_mapped = decltype(rf::load(no_input, 4, 8) | rf::scale(2.f) | twice{});
using dropout_cast =
    decltype(rf::store(static_cast<__half*>(nullptr)) | rf::dropout(0.1f, 1) | rf::cast<__half>());

} // namespace

// ---- node types ----------------------------------------------------------------------------

static_assert(scaled_mapped::node_types == hana::tuple_t<rf::scale_node, rf::map_node<twice>>);
static_assert(
    std::is_same_v<scaled_mapped::nodes_type, hana::tuple<rf::scale_node, rf::map_node<twice>>>);
static_assert(plain_load::node_types == hana::tuple_t<>);
static_assert(dropout_cast::node_types == hana::tuple_t<rf::dropout_node, rf::cast_node<__half>>);

TEST_CASE("node_types lists the nodes in the order they were piped, with lambdas wrapped") {
  auto f = [](float x) { return x + 1.0f; };
  using E =
      decltype(rf::load(no_input, 1, 1) | rf::scale(2.f) | f | rf::causal_mask(4) | rf::scale(3.f));
  static_assert(E::node_types == hana::tuple_t<rf::scale_node, rf::map_node<decltype(f)>,
                                               rf::causal_mask_node, rf::scale_node>);
  static_assert(hana::length(E::node_types) == hana::size_c<4>);
  // rf::map(f) is the same node as piping f itself.
  using M = decltype(rf::load(no_input, 1, 1) | rf::map(f));
  static_assert(M::node_types == hana::tuple_t<rf::map_node<decltype(f)>>);
  // The node each spelling builds, and its operand type.
  static_assert(
      std::is_same_v<decltype(rf::bias(static_cast<float*>(nullptr))), rf::bias_node<float const>>);
  static_assert(std::is_same_v<decltype(rf::add(static_cast<__half const*>(nullptr))),
                               rf::add_node<__half const>>);
  static_assert(std::is_same_v<decltype(rf::add(rf::dense(static_cast<float*>(nullptr)))),
                               rf::add_node<float const>>);
  static_assert(
      std::is_same_v<decltype(rf::mask(static_cast<bool*>(nullptr))), rf::mask_node<bool const>>);
  static_assert(std::is_same_v<decltype(rf::mask(static_cast<std::uint8_t const*>(nullptr))),
                               rf::mask_node<std::uint8_t const>>);
  static_assert(std::is_same_v<decltype(rf::tee(static_cast<__nv_bfloat16*>(nullptr))),
                               rf::tee_node<__nv_bfloat16>>);
  static_assert(std::is_same_v<decltype(rf::cast<__nv_fp8_e4m3>()), rf::cast_node<__nv_fp8_e4m3>>);
  static_assert(std::is_same_v<decltype(rf::causal_mask(2)), rf::causal_mask_node>);
  static_assert(std::is_same_v<decltype(rf::dropout(0.5f, 1)), rf::dropout_node>);
  static_assert(std::is_same_v<rf::cast_node<__half>::target_type, __half>);
}

TEST_CASE("where each node may be piped: load_side / store_side flags and builtin_node") {
  static_assert(rf::scale_node::load_side && rf::scale_node::store_side);
  static_assert(rf::map_node<twice>::load_side && rf::map_node<twice>::store_side);
  static_assert(rf::bias_node<float const>::load_side && !rf::bias_node<float const>::store_side);
  static_assert(rf::add_node<float const>::load_side && !rf::add_node<float const>::store_side);
  static_assert(rf::mask_node<bool const>::load_side && !rf::mask_node<bool const>::store_side);
  static_assert(rf::causal_mask_node::load_side && !rf::causal_mask_node::store_side);
  static_assert(rf::tee_node<float>::load_side && rf::tee_node<float>::store_side); // both sides
  static_assert(rf::dropout_node::load_side && rf::dropout_node::store_side);       // both sides
  static_assert(!rf::cast_node<float>::load_side && rf::cast_node<float>::store_side);
  static_assert(rf::builtin_node<rf::scale_node> && rf::builtin_node<rf::dropout_node>);
  static_assert(!rf::builtin_node<twice> && !rf::builtin_node<float>);
  static_assert(rf::is_cast_node<rf::cast_node<__half>> && !rf::is_cast_node<rf::scale_node>);
  CHECK(std::string(rf::dropout_node::name) == "dropout");
  CHECK(std::string(rf::tee_node<float>::name) == "tee");
  CHECK(std::string(rf::map_node<twice>::name) == "user transform");
}

// ---- has_cast, saturates, amax_output, element types ---------------------------------------

TEST_CASE("store_expr::has_cast, saturates() and amax_output()") {
  float amax = 0;
  auto const plain = rf::store(no_output);
  auto const scaled = rf::store(no_output) | rf::scale(2.f);
  auto const cast = rf::store(no_output) | rf::scale(2.f) | rf::cast<float>(0.5f, &amax);
  auto const raw = rf::store(no_output) | rf::cast<float>(1.f, nullptr, false);
  static_assert(!decltype(plain)::has_cast);
  static_assert(!decltype(scaled)::has_cast);
  static_assert(decltype(cast)::has_cast);
  static_assert(dropout_cast::has_cast);
  static_assert(!decltype(rf::store(no_output) | rf::dropout(0.1f, 1))::has_cast);
  CHECK_FALSE(plain.saturates());
  CHECK_FALSE(scaled.saturates());
  CHECK(cast.saturates());
  CHECK_FALSE(raw.saturates());
  CHECK(plain.amax_output() == nullptr);
  CHECK(cast.amax_output() == &amax);
  CHECK(raw.amax_output() == nullptr);
}

TEST_CASE("element types of load and store expressions and their views") {
  static_assert(std::is_same_v<plain_load::element_type, float>);
  static_assert(std::is_same_v<decltype(plain_load::input), rf::view<float const>>);
  // A non-const pointer is read through a const view.
  using L16 = decltype(rf::load(static_cast<__half*>(nullptr), 1, 1));
  static_assert(std::is_same_v<L16::element_type, __half>);
  static_assert(std::is_same_v<decltype(L16::input), rf::view<__half const>>);
  using Lb = decltype(rf::load(static_cast<__nv_bfloat16 const*>(nullptr), 1, 1) | rf::scale(1));
  static_assert(std::is_same_v<Lb::element_type, __nv_bfloat16>);
  using S8 = decltype(rf::store(static_cast<__nv_fp8_e5m2*>(nullptr)) | rf::cast<__nv_fp8_e5m2>());
  static_assert(std::is_same_v<S8::element_type, __nv_fp8_e5m2>);
  static_assert(std::is_same_v<decltype(S8::output), rf::view<__nv_fp8_e5m2>>);
  static_assert(std::is_same_v<dropout_cast::element_type, __half>);
  CHECK(true);
}

// ---- constexpr building --------------------------------------------------------------------

TEST_CASE("`|` is constexpr: chains over a null pointer are built at compile time") {
  constexpr auto load = rf::load(no_input, 4, 8, 16) | rf::scale(2.f) | rf::causal_mask(3, 1) |
                        twice{} | with_coordinates{0.5f} | rf::add(no_input) | rf::bias(no_input);
  static_assert(load.input.rows == 4 && load.input.cols == 8 && load.input.ld == 16);
  static_assert(hana::at_c<0>(load.nodes).factor == 2.f);
  static_assert(hana::at_c<1>(load.nodes).q_len == 3 && hana::at_c<1>(load.nodes).offset == 1);
  static_assert(hana::at_c<3>(load.nodes).f.slope == 0.5f);
  static_assert(hana::at_c<4>(load.nodes).operand.ld == -1); // resolved at bind
  static_assert(hana::at_c<3>(load.nodes).f(1.f, 2, 6) == 3.f);
  constexpr auto ld_default = rf::load(no_input, 4, 8);
  static_assert(ld_default.input.ld == 8);

  constexpr auto store =
      rf::store(no_output, 12) | rf::scale(0.5f) | rf::cast<float>(2.f, nullptr, false);
  static_assert(store.output.ld == 12);
  static_assert(hana::at_c<0>(store.nodes).factor == 0.5f);
  static_assert(hana::at_c<1>(store.nodes).scale == 2.f && !hana::at_c<1>(store.nodes).saturate);
  constexpr auto shaped = rf::store(no_output, 3, 5, 7);
  static_assert(shaped.output.rows == 3 && shaped.output.cols == 5 && shaped.output.ld == 7);

  // The constexpr chain is usable at run time like any other.
  float const x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  constexpr auto chain = rf::scale(2.f);
  auto const e = rf::detail::bind(rf::load(x, 2, 4) | chain | twice{}, "test");
  rf::load_context context;
  double v[1];
  e.load<1>(1, 2, v, context);
  CHECK(v[0] == 28.0);
}

TEST_CASE("piping leaves the left-hand expression unchanged (value semantics)") {
  auto const a = rf::load(no_input, 2, 2) | rf::scale(2.f);
  auto const b = a | rf::scale(3.f);
  static_assert(hana::length(decltype(a.nodes){}) == hana::size_c<1>);
  static_assert(hana::length(decltype(b.nodes){}) == hana::size_c<2>);
  CHECK(hana::at_c<0>(a.nodes).factor == 2.f);
  CHECK(hana::at_c<0>(b.nodes).factor == 2.f);
  CHECK(hana::at_c<1>(b.nodes).factor == 3.f);
}

// ---- trivially copyable kernel parameters --------------------------------------------------

TEST_CASE("expressions, nodes and views are trivially copyable (they are kernel parameters)") {
  float s = 0.5f;
  auto capture = [s](float x) { return x * s; };
  using Full = decltype(rf::load(no_input, 1, 1) | rf::scale(1) | rf::bias(no_input) |
                        rf::add(no_input) | rf::mask(static_cast<bool const*>(nullptr)) |
                        rf::causal_mask(1) | rf::tee(no_output) | capture | with_coordinates{1});
  static_assert(std::is_trivially_copyable_v<Full>);
  static_assert(std::is_trivially_copyable_v<Full::nodes_type>);
  static_assert(std::is_trivially_copyable_v<dropout_cast>);
  static_assert(std::is_trivially_copyable_v<decltype(rf::store(no_output) | rf::scale(2) |
                                                      rf::cast<float>())>);
  static_assert(std::is_trivially_copyable_v<rf::view<float const>>);
  static_assert(std::is_trivially_copyable_v<rf::dropout_node>);
  static_assert(std::is_trivially_copyable_v<rf::affine_params<float, __half>>);
  static_assert(std::is_trivially_copyable_v<rf::row_stats>);
  // A byte copy is a working copy.
  float const x[4] = {1, 2, 3, 4};
  auto const e = rf::detail::bind(rf::load(x, 1, 4) | rf::scale(3.f) | capture, "test");
  alignas(decltype(e)) unsigned char bytes[sizeof e];
  std::memcpy(bytes, &e, sizeof e);
  auto const* copy = reinterpret_cast<decltype(e) const*>(bytes);
  rf::load_context context;
  double v[1];
  copy->load<1>(0, 3, v, context);
  CHECK(v[0] == 6.0);
}

// ---- what the concepts reject (SFINAE-friendly, so testable with requires) -----------------

template <class T>
concept loadable = requires(T const* p) {
  rf::load(p, 1, 1);
};
template <class T>
concept storable = requires(T* p) {
  rf::store(p);
};
template <class T>
concept maskable = requires(T const* p) {
  rf::mask(p);
};
template <class T>
concept castable = requires {
  rf::cast<T>();
};

TEST_CASE("the element concepts decide which pointers each spelling accepts") {
  static_assert(loadable<float> && loadable<__half> && loadable<__nv_bfloat16>);
  static_assert(!loadable<__nv_fp8_e4m3> && !loadable<double> && !loadable<int>);
  static_assert(storable<float> && storable<__nv_fp8_e4m3> && storable<__nv_fp8_e5m2>);
  static_assert(!storable<double> && !storable<std::int8_t>);
  static_assert(maskable<bool> && maskable<std::uint8_t>);
  static_assert(!maskable<float> && !maskable<int>);
  static_assert(castable<__half> && castable<__nv_fp8_e4m3> && !castable<double>);
  CHECK(true);
}

// ---- a family of chains generated with Hana ------------------------------------------------

TEST_CASE("every pair from two transform sets, generated with hana::cartesian_product, composes "
          "in order") {
  float const x[12] = {1.5f, -2, 3, 0.25f, -1, 2, 3.5f, -4, 0.5f, 1, -3, 2.5f};
  float const a[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  // Each transform paired with what it does to element (r, c), written out by hand.
  auto scale_by_two =
      hana::make_tuple(rf::scale(2.f), [](double v, index_t, index_t) { return 2 * v; });
  auto add_a = hana::make_tuple(rf::add(a),
                                [&](double v, index_t r, index_t c) { return v + a[r * 4 + c]; });
  auto plus_col = hana::make_tuple(
      with_coordinates{1.f}, [](double v, index_t r, index_t c) { return v + double(c - r); });
  auto square = [](float v) { return v * v; };
  auto squared = hana::make_tuple(square, [](double v, index_t, index_t) { return v * v; });
  auto const firsts = hana::make_tuple(scale_by_two, add_a);
  auto const seconds = hana::make_tuple(plus_col, squared, scale_by_two);
  int combinations = 0;
  hana::for_each(hana::cartesian_product(hana::make_tuple(firsts, seconds)), [&](auto pair) {
    auto const first = hana::at_c<0>(pair);
    auto const second = hana::at_c<1>(pair);
    auto const expr = rf::load(x, 3, 4) | hana::at_c<0>(first) | hana::at_c<0>(second);
    static_assert(hana::length(decltype(expr)::node_types) == hana::size_c<2>);
    auto const bound = rf::detail::bind(expr, "test");
    rf::load_context context;
    for (index_t r = 0; r < 3; ++r)
      for (index_t c = 0; c < 4; ++c) {
        double v[1];
        bound.template load<1>(r, c, v, context);
        double const want =
            hana::at_c<1>(second)(hana::at_c<1>(first)(double(x[r * 4 + c]), r, c), r, c);
        REQUIRE(v[0] == want);
      }
    ++combinations;
  });
  CHECK(combinations == 6);
}
