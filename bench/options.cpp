#include "options.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace bench {

namespace {

constexpr char const* usage_text = R"(usage: rowfuse-bench [options]

Times each fused rowfuse op or pipeline against the same computation written as separate
Thrust/CUB kernels (unfused) and against a device-to-device copy of the same bytes (copy),
cross-checks fused against unfused, and reports GB/s and the ratio to the copy.

  --op LIST        ops and pipelines (default: all); --list shows them:
                     softmax log_softmax layernorm rmsnorm
                     attention      scale 0.125 -> causal mask -> softmax -> dropout 0.1
                     residual       bias -> dropout 0.1 -> + residual -> layernorm
                     residual_tee   the same, also writing the pre-norm sum
                     layernorm_fp8  layernorm -> fp8 e4m3 with scale and amax
                     softmax_backward log_softmax_backward layernorm_backward
                     rmsnorm_backward   the backward ops (dx; the norms' dgamma, dbeta)
                     attention_backward the attention pipeline's (dy: dropout replayed,
                                        causal mask; dx scaled)
                     residual_backward  the residual pipeline's: dx of the pre-norm sum,
                                        and through the replayed dropout of the branch
  --dtype LIST     input types: fp32,fp16,bf16 (default: all)
  --cols SPEC      widths: a:b is every power of two from a to b, mixed with plain
                   numbers: 32:1024,3000 (default 32:32768; k = x1024: 256k)
  --rows N         rows of every case, or
  --elems N        elements per case, rows = elems / cols (default 2^27)
  --variant LIST   fused,unfused,copy (default: all three)
  --format F       table, csv or json (default table)
  --out FILE       write the report to FILE; a table also goes to stdout
  --reps N         timed launches per case and implementation (default 20)
  --budget-ms MS   fewer reps (at least 5) where N would take longer (default 300)
  --no-check       skip the fused-against-unfused comparison
  --misalign       misaligned layout: every input and output (x, residual, y, the tee's h,
                   the backward rows' prepared y, bias, gamma, beta) starts one element past a 16-byte boundary and rows are
                   ld = cols + 1 elements apart, so no 16-byte access is possible (the narrow
                   and scalar fallbacks); the unfused steps read and write the same strided
                   tensors (their own temporaries stay compact); the copy is a plain
                   cudaMemcpyAsync of the same byte count between pointers one element past
                   16-byte alignment (not a 2D copy with the tensors' pitches, which is slower
                   than the fused kernels at narrow rows). Counted bytes are unchanged; the
                   report's layout column says aligned or misaligned
  --list           list ops and pipelines and exit
  -h, --help       this text

Counted bytes: each full-size input read once and each output written once; per-column
vectors and index-computed masks are not counted. The copy moves the same number of bytes
in the same run. Each timed launch follows a 256 MiB write that flushes the L2; the median
of CUDA-event timings is reported.

Exit status: 0 all good, 1 a fused result disagrees with unfused or a launch failed,
2 bad arguments or no CUDA GPU.
)";

std::vector<std::string> split(std::string const& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty())
      out.push_back(item);
  return out;
}

[[noreturn]] void bad(std::string const& message) {
  std::fprintf(stderr, "rowfuse-bench: %s (see --help)\n", message.c_str());
  std::exit(2);
}

} // namespace

long parse_count(std::string const& text) {
  std::string t = text;
  long multiplier = 1;
  if (auto caret = t.find('^'); caret != std::string::npos) {
    long const base = parse_count(t.substr(0, caret));
    long const exponent = parse_count(t.substr(caret + 1));
    if (exponent > 62)
      throw std::invalid_argument("too large: " + text);
    long v = 1;
    for (long i = 0; i < exponent; ++i)
      v *= base;
    return v;
  }
  if (!t.empty() && (t.back() == 'k' || t.back() == 'K'))
    multiplier = 1024, t.pop_back();
  else if (!t.empty() && t.back() == 'M')
    multiplier = 1L << 20, t.pop_back();
  std::size_t used = 0;
  long value = 0;
  try {
    value = std::stol(t, &used);
  } catch (std::exception const&) {
    throw std::invalid_argument("not a number: '" + text + "'");
  }
  if (used != t.size() || value < 0)
    throw std::invalid_argument("not a count: '" + text + "'");
  return value * multiplier;
}

std::vector<long> parse_cols(std::string const& spec) {
  std::vector<long> cols;
  for (std::string const& item : split(spec)) {
    if (auto colon = item.find(':'); colon != std::string::npos) {
      long const lo = parse_count(item.substr(0, colon));
      long const hi = parse_count(item.substr(colon + 1));
      if (lo < 1 || hi < lo)
        throw std::invalid_argument("bad range '" + item + "'");
      std::size_t const before = cols.size();
      for (long p = 1; p <= hi; p *= 2)
        if (p >= lo)
          cols.push_back(p);
      if (cols.size() == before)
        throw std::invalid_argument("no power of two in '" + item + "'");
    } else {
      long const c = parse_count(item);
      if (c < 1)
        throw std::invalid_argument("cols must be >= 1: '" + item + "'");
      cols.push_back(c);
    }
  }
  if (cols.empty())
    throw std::invalid_argument("no widths in '" + spec + "'");
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  return cols;
}

options parse_options(int argc, char** argv) {
  options o;
  o.cols = parse_cols("32:32768");
  for (int i = 1; i < argc; ++i) {
    std::string const a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        bad(a + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "-h" || a == "--help") {
        std::fputs(usage_text, stdout);
        std::exit(0);
      } else if (a == "--op" || a == "--ops") {
        o.ops = split(value());
      } else if (a == "--dtype" || a == "--dtypes") {
        o.dtypes = split(value());
        for (auto const& d : o.dtypes)
          if (d != "fp32" && d != "fp16" && d != "bf16")
            bad("unknown dtype '" + d + "'");
      } else if (a == "--cols") {
        o.cols = parse_cols(value());
      } else if (a == "--rows") {
        o.rows = parse_count(value());
        if (o.rows < 1)
          bad("--rows must be >= 1");
      } else if (a == "--elems") {
        o.elems = parse_count(value());
        if (o.elems < 1)
          bad("--elems must be >= 1");
      } else if (a == "--variant" || a == "--variants") {
        o.fused = o.unfused = o.copy = false;
        for (auto const& v : split(value())) {
          if (v == "fused")
            o.fused = true;
          else if (v == "unfused")
            o.unfused = true;
          else if (v == "copy")
            o.copy = true;
          else
            bad("unknown variant '" + v + "' (fused, unfused, copy)");
        }
      } else if (a == "--format") {
        std::string const f = value();
        if (f == "table")
          o.format = output_format::table;
        else if (f == "csv")
          o.format = output_format::csv;
        else if (f == "json")
          o.format = output_format::json;
        else
          bad("unknown format '" + f + "' (table, csv, json)");
      } else if (a == "--out") {
        o.out = value();
      } else if (a == "--reps") {
        o.reps = int(parse_count(value()));
        if (o.reps < 1)
          bad("--reps must be >= 1");
      } else if (a == "--budget-ms") {
        o.budget_ms = std::stod(value());
      } else if (a == "--no-check") {
        o.check = false;
      } else if (a == "--misalign") {
        o.misalign = true;
      } else if (a == "--list") {
        o.list = true;
      } else {
        bad("unknown argument '" + a + "'");
      }
    } catch (std::invalid_argument const& e) {
      bad(a + ": " + e.what());
    }
  }
  if (!o.fused && !o.unfused && !o.copy)
    bad("--variant selects nothing");
  return o;
}

} // namespace bench
