// rowfuse-bench: fused rowfuse kernels against the same work as separate Thrust/CUB kernels and
// against a device-to-device copy of the same bytes, all measured in the same run, with every
// fused result cross-checked against the unfused one. `rowfuse-bench --help` says how to use it;
// bench/NOTES.md says how it measures and why.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "device.hpp"
#include "family.hpp"
#include "harness.hpp"
#include "options.hpp"
#include "report.hpp"

namespace bench {

std::vector<variant>& registry() {
  static std::vector<variant> variants;
  return variants;
}

registrar::registrar(std::vector<variant> family) {
  for (auto& v : family)
    registry().push_back(std::move(v));
}

} // namespace bench

namespace {

using namespace bench;

/// Report order: the ops alone, then the pipelines built on them; then their backwards.
constexpr char const* op_order[] = {"softmax",
                                    "log_softmax",
                                    "layernorm",
                                    "rmsnorm",
                                    "attention",
                                    "residual",
                                    "residual_tee",
                                    "layernorm_fp8",
                                    "softmax_backward",
                                    "log_softmax_backward",
                                    "layernorm_backward",
                                    "rmsnorm_backward",
                                    "attention_backward",
                                    "residual_backward"};

int rank_of_op(std::string const& op) {
  auto const it = std::find(std::begin(op_order), std::end(op_order), op);
  return int(it - std::begin(op_order));
}

int rank_of_dtype(dtype t, std::vector<std::string> const& asked) {
  auto const it = std::find(asked.begin(), asked.end(), name(t));
  return it == asked.end() ? int(t) : int(it - asked.begin());
}

bool wanted(std::vector<std::string> const& list, std::string const& item) {
  return list.empty() || std::find(list.begin(), list.end(), item) != list.end();
}

/// Device memory for every case of the run, allocated once for the largest.
struct arena {
  std::vector<void*> owned;
  void* get(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, std::max<std::size_t>(bytes, 16)), "cudaMalloc");
    owned.push_back(p);
    return p;
  }
  ~arena() {
    for (void* p : owned)
      cudaFree(p);
  }
};

struct job {
  variant const* v;
  long rows, cols;
  long ld; // cols, or cols + 1 with --misalign
};

/// --misalign: each tensor and vector starts one element of its own type past the 16-byte-
/// aligned allocation (cudaMalloc's are 256-byte aligned), and rows are ld = cols + 1 elements
/// apart, so that no row of any view allows a 16-byte (or any wider than one element) access.
void* shifted(void* base, std::size_t bytes) {
  return static_cast<char*>(base) + bytes;
}

/// The bytes the copy ceiling copies: half of the counted bytes (it reads and writes them).
std::size_t copy_bytes(job const& j) {
  return std::size_t(double(j.rows) * double(j.cols) * j.v->bytes_per_element / 2);
}

void list_ops() {
  std::vector<variant> sorted = registry();
  std::stable_sort(sorted.begin(), sorted.end(), [](variant const& a, variant const& b) {
    return rank_of_op(a.op) != rank_of_op(b.op) ? rank_of_op(a.op) < rank_of_op(b.op) : a.in < b.in;
  });
  std::printf("%-20s counted bytes per element, by input type\n", "op");
  for (std::size_t i = 0; i < sorted.size();) {
    std::string line;
    std::size_t j = i;
    for (; j < sorted.size() && sorted[j].op == sorted[i].op; ++j)
      line += std::string(line.empty() ? "" : ", ") + name(sorted[j].in) + " " +
              std::to_string(int(sorted[j].bytes_per_element));
    if (sorted[i].out != sorted[i].in)
      line += std::string(" (") + name(sorted[i].out) + " out)";
    std::printf("%-20s %s\n", sorted[i].op.c_str(), line.c_str());
    i = j;
  }
}

int run(options const& o) {
  std::vector<variant const*> chosen;
  for (auto const& v : registry())
    if (wanted(o.ops, v.op) && wanted(o.dtypes, name(v.in)))
      chosen.push_back(&v);
  std::stable_sort(chosen.begin(), chosen.end(), [&](variant const* a, variant const* b) {
    if (rank_of_op(a->op) != rank_of_op(b->op))
      return rank_of_op(a->op) < rank_of_op(b->op);
    return rank_of_dtype(a->in, o.dtypes) < rank_of_dtype(b->in, o.dtypes);
  });

  // Ops asked for (or all) without a variant for an asked type: say so rather than skip quietly.
  std::vector<std::string> missing;
  for (auto const& v : registry()) {
    if (!wanted(o.ops, v.op))
      continue;
    for (char const* t : {"fp32", "fp16", "bf16"}) {
      bool const has = std::any_of(registry().begin(), registry().end(), [&](variant const& w) {
        return w.op == v.op && std::string(name(w.in)) == t;
      });
      std::string const item = v.op + " " + t;
      if (!has && wanted(o.dtypes, t) &&
          std::find(missing.begin(), missing.end(), item) == missing.end())
        missing.push_back(item);
    }
  }

  std::vector<job> jobs;
  // lead: the elements before each tensor or vector (one with --misalign). max_span: the most
  // elements a [rows, cols] tensor occupies from its allocation's start, lead and padding in.
  long const lead = o.misalign ? 1 : 0;
  long max_span = 0, max_rows = 0, max_cols = 0;
  std::size_t max_copy_bytes = 0;
  for (variant const* v : chosen)
    for (long cols : o.cols) {
      long const rows = o.rows > 0 ? o.rows : o.elems / cols;
      if (rows < 1)
        continue;
      jobs.push_back({v, rows, cols, o.misalign ? cols + 1 : cols});
      max_span = std::max(max_span, lead + rows * jobs.back().ld);
      max_rows = std::max(max_rows, rows);
      max_cols = std::max(max_cols, cols);
      max_copy_bytes = std::max(max_copy_bytes, copy_bytes(jobs.back()));
    }
  if (jobs.empty()) {
    std::fprintf(stderr, "rowfuse-bench: nothing to run (every width has more columns than "
                         "--elems elements)\n");
    return 2;
  }

  device_info const device = query_device();
  arena mem;
  std::size_t const full = std::size_t(max_span) * 4; // any input or output type
  // The allocations; each case's pointers are these, or one element past them (--misalign).
  void* const x = mem.get(full);
  void* const residual = mem.get(full);
  void* const y_fused = mem.get(full);
  void* const y_unfused = mem.get(full);
  void* const h_fused = mem.get(full);
  void* const h_unfused = mem.get(full);
  void* const t1 = mem.get(full); // the unfused temporaries: compact and aligned in every layout
  void* const t2 = mem.get(full);
  long const vector_span = lead + max_cols;
  void* const bias = mem.get(std::size_t(vector_span) * 4);
  void* const gamma = mem.get(std::size_t(vector_span) * 4);
  void* const beta = mem.get(std::size_t(vector_span) * 4);
  auto* const row_a = static_cast<float*>(mem.get(std::size_t(max_rows) * 4));
  auto* const row_b = static_cast<float*>(mem.get(std::size_t(max_rows) * 4));
  auto* const amax = static_cast<float*>(mem.get(2 * sizeof(float)));
  // The backward variants' inputs made by their prepare step, their parameter gradients (fused
  // and unfused apart) and the unfused column sums' partials: fp32 and aligned in every layout
  // but `prepared`, a [rows, cols] tensor like x.
  void* const prepared = mem.get(full);
  auto* const saved_mean = static_cast<float*>(mem.get(std::size_t(max_rows) * 4));
  auto* const saved_rstd = static_cast<float*>(mem.get(std::size_t(max_rows) * 4));
  auto* const param_grads = static_cast<float*>(mem.get(std::size_t(max_cols) * 4 * 4));
  auto* const column_partials =
      static_cast<float*>(mem.get(2 * std::size_t(std::max(column_partials_size, max_cols)) * 4));
  // 16 spare bytes: room for the lead of --misalign (one element, at most 4 bytes).
  void* const copy_from = o.copy ? mem.get(max_copy_bytes + 16) : nullptr;
  void* const copy_to = o.copy ? mem.get(max_copy_bytes + 16) : nullptr;
  scratch cub;
  timer t;

  // Reports: the chosen format to --out or stdout; with --out, a table on stdout as well.
  method const m{o.rows > 0 ? 0 : o.elems, o.rows, o.reps, o.budget_ms, o.misalign};
  char const* const layout = o.misalign ? "misaligned" : "aligned";
  std::FILE* file = nullptr;
  if (!o.out.empty()) {
    file = std::fopen(o.out.c_str(), "w");
    if (!file)
      throw std::runtime_error("cannot write " + o.out + ": " + std::strerror(errno));
  }
  std::vector<std::unique_ptr<report>> reports;
  reports.push_back(make_report(o.format, file ? file : stdout, device, m));
  if (file)
    reports.push_back(make_report(output_format::table, stdout, device, m));

  std::set<std::string> notes;
  if (!missing.empty()) {
    std::string n = "not in this build:";
    for (auto const& m : missing)
      n += " " + m + ",";
    n.back() = ';';
    n += " configure with -DROWFUSE_BENCH_FP32_PIPELINES=ON for the fp32 pipelines";
    notes.insert(n);
    std::fprintf(stderr, "rowfuse-bench: %s\n", n.c_str());
  }
  int agree = 0, disagree = 0, failed = 0;
  dtype filled = dtype::fp8_e4m3; // no input has this type: the first job fills
  progress bar(int(jobs.size()));
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    job const& j = jobs[i];
    variant const& v = *j.v;
    case_result c;
    try {
      if (v.in != filled) {
        // Scores and activations in [-4, 4); per-column parameters as a trained model has them.
        // The whole allocation, the lead and the padding of --misalign included.
        fill_uniform(v.in, x, max_span, -4.0f, 4.0f, 1);
        fill_uniform(v.in, residual, max_span, -4.0f, 4.0f, 2);
        fill_uniform(v.in, bias, vector_span, -0.5f, 0.5f, 3);
        fill_uniform(v.in, gamma, vector_span, 0.5f, 1.5f, 4);
        fill_uniform(v.in, beta, vector_span, -0.5f, 0.5f, 5);
        filled = v.in;
      }
      long const n = j.rows * j.cols;
      // Every tensor and vector `lead` elements of its own type into its allocation.
      std::size_t const in_lead = std::size_t(lead) * size_of(v.in);
      std::size_t const out_lead = std::size_t(lead) * size_of(v.out);
      buffers common{j.rows,
                     j.cols,
                     j.ld,
                     shifted(x, in_lead),
                     shifted(residual, in_lead),
                     shifted(bias, in_lead),
                     shifted(gamma, in_lead),
                     shifted(beta, in_lead)};
      common.prepared = shifted(prepared, in_lead);
      common.saved_mean = saved_mean, common.saved_rstd = saved_rstd;
      buffers fb = common, ub = common;
      fb.dgamma = param_grads, fb.dbeta = param_grads + max_cols;
      ub.dgamma = param_grads + 2 * max_cols, ub.dbeta = param_grads + 3 * max_cols;
      ub.column_partials = column_partials;
      fb.y = shifted(y_fused, out_lead), fb.h = shifted(h_fused, in_lead), fb.amax = amax;
      ub.y = shifted(y_unfused, out_lead), ub.h = shifted(h_unfused, in_lead), ub.amax = amax + 1;
      ub.t1 = t1, ub.t2 = t2, ub.row_a = row_a, ub.row_b = row_b, ub.cub = &cub;
      double const counted = double(n) * v.bytes_per_element;
      if (!v.note.empty() && o.fused)
        notes.insert(v.note);
      bool const fused = o.fused && v.fused != nullptr; // a build without the op's fused call
      if (v.prepare) {
        v.prepare(ub, nullptr);
        check(cudaDeviceSynchronize(), "prepare");
      }

      double check_err = NAN;
      if (o.check && fused && o.unfused) {
        // Poisoned outputs (all-ones bytes are NaN in every output type): an element that
        // either side leaves unwritten fails the comparison. With --misalign the poison also
        // covers the lead and the row padding, which must come back untouched.
        std::size_t const span = std::size_t(lead + j.rows * j.ld);
        std::size_t const y_bytes = span * size_of(v.out);
        std::size_t const h_bytes = span * size_of(v.in);
        check(cudaMemset(y_fused, 0xFF, y_bytes), "poison");
        check(cudaMemset(y_unfused, 0xFF, y_bytes), "poison");
        if (v.writes_h) {
          check(cudaMemset(h_fused, 0xFF, h_bytes), "poison");
          check(cudaMemset(h_unfused, 0xFF, h_bytes), "poison");
        }
        check(cudaMemset(amax, 0, 2 * sizeof(float)), "amax");
        v.fused(fb, nullptr);
        check(cudaGetLastError(), "fused launch");
        v.unfused(ub, nullptr);
        check(cudaDeviceSynchronize(), "fused and unfused runs");

        std::string const where = v.op + " " + name(v.in) + " cols " + std::to_string(j.cols) +
                                  (o.misalign ? " (misaligned)" : "");
        auto explain = [&](char const* what, mismatch const& d) {
          return where + ": " + what + " differs at row " + std::to_string(d.index / j.cols) +
                 " col " + std::to_string(d.index % j.cols) + ": fused " + std::to_string(d.fused) +
                 ", unfused " + std::to_string(d.unfused) + " (" + std::to_string(d.worst) +
                 " x the tolerance)";
        };
        mismatch const dy =
            compare(v.out, fb.y, ub.y, j.rows, j.cols, j.ld, v.y_tolerance, common.prepared);
        check_err = dy.worst;
        if (dy.worst > 1)
          c.detail = explain("y", dy);
        if (v.writes_h) {
          mismatch const dh = compare(v.in, fb.h, ub.h, j.rows, j.cols, j.ld, v.h_tolerance);
          check_err = std::max(check_err, dh.worst);
          if (dh.worst > 1 && c.detail.empty())
            c.detail = explain("h (tee)", dh);
        }
        // A write into the lead or the row padding (--misalign) fails the case outright.
        auto outside = [&](char const* what, dtype t, void const* base) {
          long const k = first_write_outside(t, base, lead, j.rows, j.cols, j.ld);
          if (k < 0)
            return;
          check_err = INFINITY;
          if (!c.detail.empty())
            return;
          long const pad = j.ld - j.cols;
          c.detail = where + ": " + what + " wrote outside its view, " +
                     (k < lead ? "before its first element"
                               : "after row " + std::to_string((k - lead) / pad) + " (col " +
                                     std::to_string(j.cols + (k - lead) % pad) + ")");
        };
        outside("fused y", v.out, y_fused);
        outside("unfused y", v.out, y_unfused);
        if (v.writes_h) {
          outside("fused h (tee)", v.in, h_fused);
          outside("unfused h", v.in, h_unfused);
        }
        if (v.writes_amax) {
          float a[2];
          check(cudaMemcpy(a, amax, sizeof a, cudaMemcpyDeviceToHost), "amax");
          double const allowed = tolerances::amax(v.in).rtol * std::fabs(a[1]);
          double const err = a[0] == a[1] ? 0 : std::fabs(a[0] - a[1]) / allowed;
          check_err = std::max(check_err, err);
          if (err > 1 && c.detail.empty())
            c.detail = where + ": amax differs: fused " + std::to_string(a[0]) + ", unfused " +
                       std::to_string(a[1]);
        }
        c.check = check_err <= 1 ? "ok" : "FAIL";
        (check_err <= 1 ? agree : disagree) += 1;
      }

      auto add = [&](char const* impl, double ms, int used) {
        record r;
        r.op = v.op, r.impl = impl, r.dtype = name(v.in);
        r.rows = j.rows, r.cols = j.cols, r.bytes = counted;
        r.ms = ms, r.gbps = counted / ms / 1e6, r.reps = used;
        r.copy_gbps = r.ratio_to_copy = NAN;
        r.check = std::string(impl) == "copy" ? "" : c.check;
        r.check_err = std::string(impl) == "copy" ? NAN : check_err;
        r.layout = layout;
        c.records.push_back(r);
      };
      // The time first, then the record: `used` is set by median_ms, and a function's arguments
      // are evaluated in no set order (add(..., t.median_ms(..., used), used) read it first).
      int used = 0;
      if (fused) {
        double const ms = t.median_ms([&] { v.fused(fb, nullptr); }, o.reps, o.budget_ms, used);
        add("fused", ms, used);
      }
      if (o.unfused) {
        double const ms = t.median_ms([&] { v.unfused(ub, nullptr); }, o.reps, o.budget_ms, used);
        add("unfused", ms, used);
      }
      if (o.copy) {
        // The ceiling: a copy that reads and writes as many bytes in all as the case counts,
        // one cudaMemcpyAsync of half of them. With --misalign the same byte count with source
        // and destination one element of the input type past 16-byte alignment, as the tensors
        // start. Not a cudaMemcpy2DAsync with the tensors' pitches: on an H100 the driver's 2D
        // copy of fp16 rows ld = cols + 1 apart ran at 200 GB/s (33 columns), 790 (128) and
        // 1500-1700 (1K-16K) against 2900 for this copy, below the fused kernels themselves at
        // narrow rows, so it would be no ceiling; the plain copy, at aligned speed, keeps the
        // ratio to copy comparable between the layouts.
        void* const to = shifted(copy_to, in_lead);
        void const* const from = shifted(copy_from, in_lead);
        std::size_t const bytes = copy_bytes(j);
        double const ms = t.median_ms(
            [&] { check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice), "copy"); },
            o.reps, o.budget_ms, used);
        add("copy", ms, used);
        double const copy_gbps = c.records.back().gbps;
        for (auto& r : c.records) {
          r.copy_gbps = copy_gbps;
          r.ratio_to_copy = r.gbps / copy_gbps;
        }
      }
      check(cudaGetLastError(), "timed launches");
    } catch (std::exception const& e) {
      c.check = "error";
      c.detail = v.op + " " + name(v.in) + " cols " + std::to_string(j.cols) + ": " + e.what();
      ++failed;
      // A fault poisons the context: what follows would only repeat it.
      if (cudaDeviceSynchronize() != cudaSuccess) {
        bar.clear();
        for (auto& r : reports)
          r->add(c);
        bar.done(int(i), c);
        std::fprintf(stderr, "rowfuse-bench: the device is in an error state; stopping\n");
        break;
      }
    }
    bar.clear();
    for (auto& r : reports)
      r->add(c);
    bar.done(int(i), c);
  }
  bar.finish();

  std::vector<std::string> const note_list(notes.begin(), notes.end());
  for (auto& r : reports)
    r->finish(note_list, agree, disagree + failed);
  if (file)
    std::fclose(file);
  if (agree + disagree > 0)
    std::fprintf(stderr,
                 "rowfuse-bench: cross-check fused against unfused: %d agree, %d disagree\n", agree,
                 disagree);
  if (failed)
    std::fprintf(stderr, "rowfuse-bench: %d case%s failed to run\n", failed,
                 failed == 1 ? "" : "s");
  return disagree + failed > 0 ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
  options const o = parse_options(argc, argv);
  if (o.list) {
    list_ops();
    return 0;
  }
  for (auto const& op : o.ops)
    if (std::none_of(registry().begin(), registry().end(),
                     [&](variant const& v) { return v.op == op; })) {
      std::fprintf(stderr, "rowfuse-bench: unknown op '%s' (--list shows them)\n", op.c_str());
      return 2;
    }
  if (!has_gpu()) {
    std::fprintf(stderr,
                 "rowfuse-bench: no CUDA GPU found on this machine; the benchmark needs one "
                 "(the tests run without: cmake --workflow --preset ci)\n");
    return 2;
  }
#ifdef ROWFUSE_BENCH_BUILT_FAST
  // Timings are only worth the library's kernels; a build without a GPU at configure (the CI's)
  // skips nvcc's device optimisation. Exit 2, as without a GPU: nothing was measured.
  std::fprintf(stderr,
               "rowfuse-bench: this binary was compiled with nvcc --Ofast-compile=max "
               "(ROWFUSE_BENCH_FAST_COMPILE, on where configure finds no GPU), so it would time "
               "slower kernels than the library's; build it with -DROWFUSE_BENCH_FAST_COMPILE=OFF "
               "(on a GPU machine by default, elsewhere with cmake --preset device)\n");
  return 2;
#elif defined(ROWFUSE_BENCH_BUILT_PTX_ONLY)
  std::fprintf(stderr, "rowfuse-bench: this binary's kernels are PTX only "
                       "(ROWFUSE_BENCH_PTX_ONLY): the driver compiles each at its first launch, "
                       "before its timing, which can take minutes in all\n");
#endif
  try {
    return run(o);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "rowfuse-bench: %s\n", e.what());
    return 1;
  }
}
