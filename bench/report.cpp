#include "report.hpp"

#include <cmath>
#include <unistd.h>

#include <algorithm>
#include <string>

namespace bench {

namespace {

record const* find(case_result const& c, char const* impl) {
  for (auto const& r : c.records)
    if (r.impl == impl)
      return &r;
  return nullptr;
}

std::string fixed(double v, int digits) {
  if (std::isnan(v))
    return "";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

std::string general(double v) {
  if (std::isnan(v))
    return "";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

std::string describe_size(method const& m) {
  if (m.rows > 0)
    return std::to_string(m.rows) + " rows a case";
  long const log2 = std::lround(std::log2(double(m.elems)));
  if ((1L << log2) == m.elems)
    return "2^" + std::to_string(log2) + " elements a case";
  return std::to_string(m.elems) + " elements a case";
}

char const* layout_name(method const& m) {
  return m.misalign ? "misaligned" : "aligned";
}

std::string describe_method(method const& m) {
  std::string s = describe_size(m) + ", median of " + std::to_string(m.reps) +
                  " launches (at least 5 within " + fixed(m.budget_ms, 0) +
                  " ms), L2 flushed before each; GB/s of counted bytes";
  if (m.misalign)
    s += "; misaligned: every tensor and vector one element past a 16-byte boundary, rows "
         "cols + 1 elements apart; the copy between pointers one element off alignment";
  return s;
}

// ---- table ---------------------------------------------------------------------------------

class table_report : public report {
public:
  table_report(std::FILE* out, device_info const& d, method const& m) : out_(out) {
    std::fprintf(out_, "rowfuse-bench on %s: %d SMs, memory clock %d MHz, driver %s\n",
                 d.name.c_str(), d.sms, d.memory_clock_mhz, d.driver.c_str());
    std::fprintf(out_, "%s\n\n", describe_method(m).c_str());
    std::fprintf(out_, "%-20s %-5s %7s %8s  %10s %5s  %12s %5s  %9s  %7s  %-16s  %s\n", "op",
                 "dtype", "cols", "rows", "fused GB/s", "/copy", "unfused GB/s", "/copy",
                 "copy GB/s", "speedup", "fused vs unfused", "layout");
    std::fflush(out_);
  }

  void add(case_result const& c) override {
    record const* any = c.records.empty() ? nullptr : &c.records.front();
    if (!any)
      return;
    record const* f = find(c, "fused");
    record const* u = find(c, "unfused");
    record const* k = find(c, "copy");
    auto cell = [](record const* r, bool ratio) {
      if (!r)
        return std::string("-");
      return ratio ? (std::isnan(r->ratio_to_copy) ? "-" : fixed(r->ratio_to_copy, 2))
                   : fixed(r->gbps, 0);
    };
    std::string const speedup = f && u ? fixed(u->ms / f->ms, 1) + "x" : "-";
    std::string check = c.check.empty() ? "-" : c.check;
    if (c.check == "ok" || c.check == "FAIL")
      check += " (" + general(f ? f->check_err : NAN) + ")";
    std::fprintf(out_, "%-20s %-5s %7ld %8ld  %10s %5s  %12s %5s  %9s  %7s  %-16s  %s\n",
                 any->op.c_str(), any->dtype.c_str(), any->cols, any->rows, cell(f, false).c_str(),
                 cell(f, true).c_str(), cell(u, false).c_str(), cell(u, true).c_str(),
                 cell(k, false).c_str(), speedup.c_str(), check.c_str(), any->layout.c_str());
    std::fflush(out_);
  }

  void finish(std::vector<std::string> const& notes, int agree, int disagree) override {
    std::fprintf(out_,
                 "\nspeedup = unfused time / fused time; fused vs unfused: worst difference in "
                 "units of the tolerance (<= 1 agrees)\n");
    if (agree + disagree > 0)
      std::fprintf(out_, "cross-check, fused against unfused: %d agree, %d disagree\n", agree,
                   disagree);
    for (auto const& n : notes)
      std::fprintf(out_, "note: %s\n", n.c_str());
    std::fflush(out_);
  }

private:
  std::FILE* out_;
};

// ---- CSV -----------------------------------------------------------------------------------

std::string csv_field(std::string const& s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char ch : s)
    q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

class csv_report : public report {
public:
  csv_report(std::FILE* out, device_info const& d, method const&) : out_(out) {
    prefix_ = csv_field(d.name) + "," + std::to_string(d.sms) + "," +
              std::to_string(d.memory_clock_mhz) + "," + csv_field(d.driver) + ",";
    std::fprintf(out_, "device,sms,mem_clock_mhz,driver,op,impl,dtype,rows,cols,bytes,ms,GBps,"
                       "copy_GBps,ratio_to_copy,reps,check,check_err,layout\n");
    std::fflush(out_);
  }
  void add(case_result const& c) override {
    for (auto const& r : c.records)
      std::fprintf(out_, "%s%s,%s,%s,%ld,%ld,%.0f,%s,%s,%s,%s,%d,%s,%s,%s\n", prefix_.c_str(),
                   r.op.c_str(), r.impl.c_str(), r.dtype.c_str(), r.rows, r.cols, r.bytes,
                   fixed(r.ms, 5).c_str(), fixed(r.gbps, 1).c_str(), fixed(r.copy_gbps, 1).c_str(),
                   fixed(r.ratio_to_copy, 4).c_str(), r.reps, r.check.c_str(),
                   general(r.check_err).c_str(), r.layout.c_str());
    std::fflush(out_);
  }
  void finish(std::vector<std::string> const&, int, int) override {}

private:
  std::FILE* out_;
  std::string prefix_;
};

// ---- JSON ----------------------------------------------------------------------------------

std::string json_string(std::string const& s) {
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\')
      q += '\\', q += ch;
    else if (ch == '\n')
      q += "\\n";
    else if (static_cast<unsigned char>(ch) < 0x20)
      q += ' ';
    else
      q += ch;
  }
  return q + "\"";
}

std::string json_number(double v, int digits) {
  return std::isnan(v) || std::isinf(v) ? "null" : fixed(v, digits);
}

class json_report : public report {
public:
  json_report(std::FILE* out, device_info const& d, method const& m) : out_(out) {
    head_ = "{\n  \"device\": {\"name\": " + json_string(d.name) +
            ", \"sms\": " + std::to_string(d.sms) +
            ", \"memory_clock_mhz\": " + std::to_string(d.memory_clock_mhz) +
            ", \"driver\": " + json_string(d.driver) + "},\n" +
            "  \"method\": {\"elements\": " + std::to_string(m.elems) +
            ", \"rows\": " + (m.rows > 0 ? std::to_string(m.rows) : "null") +
            ", \"reps\": " + std::to_string(m.reps) + ", \"budget_ms\": " + fixed(m.budget_ms, 0) +
            ", \"l2_flush_bytes\": " + std::to_string(timer::flush_bytes) +
            ", \"statistic\": \"median\", \"description\": " + json_string(describe_method(m)) +
            ", \"layout\": " + json_string(layout_name(m)) + "},\n";
  }
  void add(case_result const& c) override {
    for (auto const& r : c.records) {
      std::string const check_err =
          std::isinf(r.check_err) ? "\"inf\"" : json_number(r.check_err, 6);
      results_.push_back(
          "    {\"op\": " + json_string(r.op) + ", \"impl\": " + json_string(r.impl) +
          ", \"dtype\": " + json_string(r.dtype) + ", \"rows\": " + std::to_string(r.rows) +
          ", \"cols\": " + std::to_string(r.cols) + ", \"bytes\": " + fixed(r.bytes, 0) +
          ", \"ms\": " + json_number(r.ms, 5) + ", \"GBps\": " + json_number(r.gbps, 1) +
          ", \"copy_GBps\": " + json_number(r.copy_gbps, 1) + ", \"ratio_to_copy\": " +
          json_number(r.ratio_to_copy, 4) + ", \"reps\": " + std::to_string(r.reps) +
          ", \"check\": " + (r.check.empty() ? "null" : json_string(r.check)) +
          ", \"check_err\": " + check_err + ", \"layout\": " + json_string(r.layout) + "}");
    }
    if (!c.detail.empty())
      details_.push_back(c.detail);
  }
  void finish(std::vector<std::string> const& notes, int agree, int disagree) override {
    std::string s = head_ + "  \"results\": [\n";
    for (std::size_t i = 0; i < results_.size(); ++i)
      s += results_[i] + (i + 1 < results_.size() ? ",\n" : "\n");
    s += "  ],\n  \"checks\": {\"agree\": " + std::to_string(agree) +
         ", \"disagree\": " + std::to_string(disagree) + ", \"details\": [";
    for (std::size_t i = 0; i < details_.size(); ++i)
      s += (i ? ", " : "") + json_string(details_[i]);
    s += "]},\n  \"notes\": [";
    for (std::size_t i = 0; i < notes.size(); ++i)
      s += (i ? ", " : "") + json_string(notes[i]);
    s += "]\n}\n";
    std::fputs(s.c_str(), out_);
    std::fflush(out_);
  }

private:
  std::FILE* out_;
  std::string head_;
  std::vector<std::string> results_, details_;
};

std::string clock_text(double seconds) {
  long const s = std::lround(std::max(0.0, seconds));
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%ld:%02ld", s / 60, s % 60);
  return buffer;
}

} // namespace

std::unique_ptr<report> make_report(output_format format, std::FILE* out, device_info const& d,
                                    method const& m) {
  switch (format) {
  case output_format::csv:
    return std::make_unique<csv_report>(out, d, m);
  case output_format::json:
    return std::make_unique<json_report>(out, d, m);
  case output_format::table:
    break;
  }
  return std::make_unique<table_report>(out, d, m);
}

progress::progress(int total)
    : total_(total), tty_(isatty(fileno(stderr)) != 0), start_(std::chrono::steady_clock::now()) {}

void progress::done(int index, case_result const& c) {
  int const n = index + 1;
  double const elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double const eta = elapsed / n * (total_ - n);
  record const* any = c.records.empty() ? nullptr : &c.records.front();
  std::string const what =
      any ? any->op + " " + any->dtype + " " + std::to_string(any->cols) : std::string("case");
  if (tty_) {
    constexpr int width = 30;
    int const filled = total_ > 0 ? width * n / total_ : width;
    std::string const bar =
        std::string(std::size_t(filled), '#') + std::string(std::size_t(width - filled), '.');
    std::fprintf(stderr, "\r[%s] %d/%d %-28s ETA %s\x1b[K", bar.c_str(), n, total_, what.c_str(),
                 clock_text(eta).c_str());
  } else {
    std::string line =
        "rowfuse-bench: [" + std::to_string(n) + "/" + std::to_string(total_) + "] " + what + ":";
    for (auto const& r : c.records)
      if (r.impl != "copy")
        line += " " + r.impl + " " +
                (std::isnan(r.ratio_to_copy) ? fixed(r.gbps, 0) + " GB/s"
                                             : fixed(r.ratio_to_copy, 2) + " of copy") +
                ",";
    line += " check " + (c.check.empty() ? std::string("-") : c.check);
    line += ", " + clock_text(elapsed) + " elapsed, ETA " + clock_text(eta);
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  if (!c.detail.empty()) {
    if (tty_)
      std::fputc('\n', stderr);
    std::fprintf(stderr, "rowfuse-bench: %s\n", c.detail.c_str());
  }
  std::fflush(stderr);
}

void progress::clear() {
  if (tty_)
    std::fputs("\r\x1b[K", stderr);
}

void progress::finish() {
  if (tty_)
    std::fputc('\n', stderr);
  std::fflush(stderr);
}

} // namespace bench
