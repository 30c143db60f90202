// Every op from 8 host threads on 8 streams at once: first on a cold process (no device
// properties read, no kernel attribute set or occupancy asked: the first case of this file is
// the process's first rowfuse call), then warm, at other widths. Each thread owns its buffers
// and a non-blocking stream, poisons its outputs, launches softmax, log-softmax, layernorm and
// rmsnorm on its stream, and copies the results back on it; the threads start together at a
// barrier. The main thread then checks every output, tee value, keep mask, amax and statistic
// of every thread against the host reference.
#include <barrier>
#include <memory>
#include <thread>

#include "norm_support.cuh"

namespace {

constexpr int threads = 8;

/// The widths the threads take, one each a round: every engine between them (warp_rows,
/// block_rows, cluster_rows, block_smem or block_cluster, scalar packs at the odd ones).
constexpr long widths[] = {64, 1000, 3000, 4097, 20000, 33, 70000, 131072, 513, 12288};

long rows_for(long cols) {
  long const elements = test::small_mode() ? (1L << 13) : (1L << 18);
  return std::max(2L, std::min(512L, elements / cols));
}

template <class T> void download_on(test::mirrored<T>& m, cudaStream_t stream) {
  cudaMemcpyAsync(m.host.data(), m.d(), m.host.size() * sizeof(m.host[0]), cudaMemcpyDeviceToHost,
                  stream);
}
template <class T> void poison_on(test::mirrored<T>& m, cudaStream_t stream) {
  cudaMemsetAsync(m.d(), 0xFF, m.host.size() * sizeof(m.host[0]), stream);
}

/// One thread's work at one width: four ops, their buffers and their references.
struct job {
  long rows, cols;
  // softmax: fp16 | scale | causal_mask -> fp16 | dropout (keep mask)
  test::mirrored<__half> sx, sy;
  test::mirrored<std::uint8_t> keep;
  // log-softmax: fp32 -> fp32
  test::mirrored<float> lx, ly;
  // layernorm: bf16 | bias | add | tee -> bf16, gamma and beta, mean and rstd
  test::mirrored<__nv_bfloat16> nx, residual, h, ny, gamma, beta;
  test::mirrored<float> bias, mean, rstd;
  // rmsnorm: fp16 -> fp8 e4m3 with scale and amax, zero-centred gamma, rstd
  test::mirrored<__half> rx, rgamma;
  test::mirrored<__nv_fp8_e4m3> ry;
  test::mirrored<float> amax, rrstd;

  std::vector<double> s_exact, l_exact, n_exact, r_exact;
  std::vector<std::uint8_t> keep_ref;
  std::vector<__nv_bfloat16> h_ref;
  std::vector<float> mean_ref, rstd_ref, rrstd_ref;
  float amax_ref = 0.0f;
  std::string error; // a rowfuse::error or CUDA error a thread met

  static constexpr float eps = 1e-5f;

  template <class T> static T* pick(test::mirrored<T>& m, bool host) {
    return host ? m.h() : m.d();
  }
  __nv_bfloat16 const* gamma_ptr(bool host) { return pick(gamma, host); }
  __nv_bfloat16 const* beta_ptr(bool host) { return pick(beta, host); }
  __half const* rgamma_ptr(bool host) { return pick(rgamma, host); }
  auto softmax_load(bool host) {
    return rf::load(static_cast<__half const*>(pick(sx, host)), rows, cols) | rf::scale(0.5f) |
           rf::causal_mask(7, cols - 7);
  }
  auto softmax_store(bool host) {
    return rf::store(pick(sy, host)) | rf::dropout(0.25f, 99, 1234, pick(keep, host));
  }
  auto norm_load(bool host) {
    return rf::load(static_cast<__nv_bfloat16 const*>(pick(nx, host)), rows, cols) |
           rf::bias(static_cast<float const*>(pick(bias, host))) |
           rf::add(static_cast<__nv_bfloat16 const*>(pick(residual, host))) |
           rf::tee(pick(h, host));
  }
  auto rms_store(bool host) {
    return rf::store(pick(ry, host)) | rf::cast<__nv_fp8_e4m3>(64.0f, pick(amax, host));
  }

  job(long c, unsigned seed)
      : rows(rows_for(c)), cols(c), sx(std::size_t(rows * cols)), sy(sx.host.size()),
        keep(sx.host.size()), lx(sx.host.size()), ly(sx.host.size()), nx(sx.host.size()),
        residual(sx.host.size()), h(sx.host.size()), ny(sx.host.size()), gamma(std::size_t(cols)),
        beta(std::size_t(cols)), bias(std::size_t(cols)), mean(std::size_t(rows + 1)),
        rstd(std::size_t(rows + 1)), rx(sx.host.size()), rgamma(std::size_t(cols)),
        ry(sx.host.size()), amax(1), rrstd(std::size_t(rows + 1)) {
    std::mt19937 rng(seed);
    test::fill_uniform(sx.host, rng);
    test::fill_uniform(lx.host, rng);
    test::fill_uniform(nx.host, rng);
    test::fill_uniform(residual.host, rng, -1.0f, 1.0f);
    test::fill_uniform(gamma.host, rng, -1.5f, 1.5f);
    test::fill_uniform(beta.host, rng, -1.0f, 1.0f);
    test::fill_uniform(bias.host, rng, -1.0f, 1.0f);
    test::fill_uniform(rx.host, rng);
    test::fill_uniform(rgamma.host, rng, -0.5f, 0.5f);
    for (auto* m : {&sx, &rx, &rgamma})
      m->upload();
    for (auto* m : {&nx, &residual, &gamma, &beta})
      m->upload();
    lx.upload();
    bias.upload();

    // The references, through the same expressions over host pointers.
    test::poison(keep.host);
    s_exact = rf::reference::softmax(softmax_load(true), softmax_store(true));
    keep_ref = keep.host;
    l_exact = rf::reference::log_softmax(rf::load(lx.h(), rows, cols), rf::store(ly.h()));
    test::poison(mean.host);
    test::poison(rstd.host);
    n_exact = rf::reference::layernorm(norm_load(true), rf::store(ny.h()),
                                       rf::affine(gamma_ptr(true), beta_ptr(true)), eps,
                                       rf::row_stats{mean.h(), rstd.h()});
    h_ref = h.host;
    mean_ref = mean.host;
    rstd_ref = rstd.host;
    amax.host[0] = 0.0f;
    test::poison(rrstd.host);
    r_exact = rf::reference::rmsnorm(rf::load(rx.h(), rows, cols), rms_store(true),
                                     rf::zero_centered_gamma(rgamma_ptr(true)), eps, rrstd.h());
    amax_ref = amax.host[0];
    rrstd_ref = rrstd.host;
  }

  /// The thread's part: poison, four launches on `stream`, copies back, one synchronisation.
  void run(cudaStream_t stream) {
    try {
      poison_on(sy, stream);
      poison_on(ny, stream);
      poison_on(h, stream);
      poison_on(keep, stream);
      poison_on(ly, stream);
      poison_on(mean, stream);
      poison_on(rstd, stream);
      poison_on(rrstd, stream);
      poison_on(ry, stream);
      cudaMemsetAsync(amax.d(), 0, sizeof(float), stream);
      rf::softmax(softmax_load(false), softmax_store(false), stream);
      rf::log_softmax(rf::load(static_cast<float const*>(lx.d()), rows, cols), rf::store(ly.d()),
                      stream);
      rf::layernorm(norm_load(false), rf::store(ny.d()),
                    rf::affine(gamma_ptr(false), beta_ptr(false)), eps, stream,
                    rf::row_stats{mean.d(), rstd.d()});
      rf::rmsnorm(rf::load(static_cast<__half const*>(rx.d()), rows, cols), rms_store(false),
                  rf::zero_centered_gamma(rgamma_ptr(false)), eps, stream, rrstd.d());
      download_on(sy, stream);
      download_on(ny, stream);
      download_on(h, stream);
      download_on(keep, stream);
      download_on(ly, stream);
      download_on(mean, stream);
      download_on(rstd, stream);
      download_on(rrstd, stream);
      download_on(ry, stream);
      download_on(amax, stream);
      cudaError_t const status = cudaStreamSynchronize(stream);
      if (status != cudaSuccess)
        error = cudaGetErrorString(status);
    } catch (rf::error const& e) {
      error = e.what();
    }
  }

  /// Every result of the thread's run (the host copies it made) against the references.
  void check() {
    CAPTURE(cols);
    CAPTURE(rows);
    REQUIRE(error.empty());
    CHECK_MATCHES(test::compare(sy.host, s_exact, rows, cols, cols, 0));
    CHECK(keep.host == keep_ref);
    CHECK_MATCHES(test::compare(ly.host, l_exact, rows, cols, cols, 0, 8e-6));
    CHECK_MATCHES(norm_test::compare(ny.host, n_exact, rows, cols, cols, 0,
                                     norm_test::absolute_term(n_exact)));
    std::vector<double> h_exact(h_ref.size());
    for (std::size_t i = 0; i < h_ref.size(); ++i)
      h_exact[i] = rf::detail::widen<double>(h_ref[i]);
    // The tee: x + bias + residual rounded to bf16, within an ulp of the reference's rounding.
    CHECK_MATCHES(test::compare_within(h.host, h_exact, rows, cols, cols, 0,
                                       [](double e) { return 2 * test::ulp<__nv_bfloat16>(e); }));
    CHECK_MATCHES(norm_test::compare_stats(mean.host, mean_ref, rstd.host, rstd_ref, rows));
    CHECK_MATCHES(norm_test::compare(ry.host, r_exact, rows, cols, cols, 0,
                                     norm_test::absolute_term(r_exact)));
    CHECK_MATCHES(norm_test::compare_stats({}, {}, rrstd.host, rrstd_ref, rows));
    CHECK(amax.host[0] == doctest::Approx(amax_ref).epsilon(1e-5));
  }
};

/// One round: thread t takes widths[(t + first) % size], all start at the barrier.
void round_of_threads(int first) {
  std::vector<std::unique_ptr<job>> jobs;
  for (int t = 0; t < threads; ++t)
    jobs.push_back(std::make_unique<job>(widths[std::size_t(t + first) % std::size(widths)],
                                         unsigned(100 * first + t)));
  test::sync_and_check(); // uploads done before the threads start
  std::barrier start(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      cudaStream_t stream = nullptr;
      cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
      start.arrive_and_wait();
      jobs[std::size_t(t)]->run(stream);
      cudaStreamDestroy(stream);
    });
  for (auto& thread : pool)
    thread.join();
  for (int t = 0; t < threads; ++t) {
    CAPTURE(t);
    jobs[std::size_t(t)]->check();
  }
}

} // namespace

// First in this file, so the first rowfuse calls of the process are the threads' own.
TEST_CASE("every op from 8 threads on 8 streams, cold") {
  round_of_threads(0);
}

TEST_CASE("every op from 8 threads on 8 streams, warm, other widths") {
  round_of_threads(2);
  round_of_threads(5);
}
