// distil: TraceSummary → Job. Each inferred key gets a comment with its evidence; what the trace
// cannot show becomes a note instead of a silent default.
#include "dlgen/analysis/distil.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "dlgen/core/units.hpp"
#include "dlgen/datasets/layout.hpp"
#include "stats.hpp"

namespace dlgen::analysis {
namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string pct(double part, double whole) {
  return whole > 0 ? fmt("%.0f%%", 100.0 * part / whole) : "n/a";
}

// The original run's AU as the replay reports its own (docs/metrics.md): the lowest accelerator's,
// with the spread over accelerators when there are several.
std::string original_au(const TraceSummary& s) {
  if (!s.au_measured) return "original AU not measurable (no steps)";
  std::string out = "original AU " + pct(s.au, 1.0);
  std::size_t n = 0;
  double hi = 0;
  for (const auto& a : s.accelerators)
    if (a.au_wall_s > 0) ++n, hi = std::max(hi, a.au);
  if (n > 1)
    out += " (lowest of " + std::to_string(n) + " accelerators; highest " + pct(hi, 1.0) + ")";
  return out + " = compute / wall from the first batch to the end of the run";
}

// The original's AU measured on the GPU (TraceSummary::au_gpu, docs/metrics.md) beside the one
// from the main process's compute gaps.
std::string gpu_au(const TraceSummary& s) {
  const GpuAu& g = s.au_gpu;
  if (!g.measured) return original_au(s);
  double busy = 0, wall = 0;
  for (const auto& a : g.accelerators)
    if (a.measured && a.au == g.au) busy = a.busy_s, wall = a.wall_s;
  return "original AU measured on the GPU (CUDA) " + pct(g.au, 1.0) + " = GPU busy " +
         format_duration(busy) + " / wall " + format_duration(wall) +
         " from the first batch to the end of the run; from the main process's compute gaps, " +
         original_au(s);
}

std::string sanitize(std::string s) {
  std::string out;
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_')
      out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "distilled" : out;
}

std::string default_name(const TraceSummary& s) {
  const int ti = train_dataset(s);
  if (ti >= 0) {
    std::filesystem::path dir(s.datasets[ti].dir);
    std::string leaf = dir.filename().string();
    // Split and generic names say nothing about the workload: use the parent's name.
    for (int up = 0; up < 2 && dir.has_parent_path(); ++up) {
      static const std::set<std::string> kGeneric = {"train",    "training", "data",    "dataset",
                                                     "datasets", "images",   "samples", "files",
                                                     "input",    "shards"};
      if (!kGeneric.count(leaf)) break;
      dir = dir.parent_path();
      leaf = dir.filename().string();
    }
    if (!leaf.empty()) return sanitize(leaf);
  }
  for (const auto& arg : s.command)
    if (arg.size() > 3 && arg.ends_with(".py"))
      return sanitize(std::filesystem::path(arg).stem().string());
  return "distilled";
}

// Framing bytes the generator adds around one sample of `format` (npz headers, ...), so that
// the synthetic files come out the size the traced files had.
double framing_overhead(Format format, double payload) {
  DatasetSpec spec;
  spec.format = format;
  spec.num_files = 1;
  spec.samples_per_file = 1;
  spec.sample_size = Distribution::fixed_at(std::max(1.0, std::round(payload)));
  datasets::Layout layout(spec);
  const double size = static_cast<double>(layout.file_size(0));
  return std::max(0.0, size - spec.sample_size.value);
}

// The size distribution: fixed when all equal, else the best of normal / lognormal / uniform that
// passes a Lilliefors-style KS test at 5%, else the exact empirical histogram.
Distribution fit_sizes(const std::vector<double>& v, std::string* why) {
  const Stats st = detail::make_stats(v);
  if (v.empty()) {
    *why = "no files";
    return Distribution::fixed_at(0);
  }
  if (st.max == st.min) {
    *why = "all " + std::to_string(v.size()) + " files have the same size";
    return Distribution::fixed_at(st.min);
  }
  const double crit = detail::lilliefors_critical(v.size());
  struct Cand {
    DistKind kind;
    double d;
  };
  std::vector<Cand> cands = {{DistKind::normal, detail::ks_normal(v, st.mean, st.stdev)},
                             {DistKind::lognormal, detail::ks_lognormal(v)},
                             {DistKind::uniform, detail::ks_uniform(v, st.min, st.max)}};
  std::sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) { return a.d < b.d; });
  const bool enough = v.size() >= 20;
  if (enough && cands.front().d < crit) {
    Distribution d;
    d.kind = cands.front().kind;
    d.mean = st.mean;
    d.stdev = st.stdev;
    d.min = st.min;
    d.max = st.max;
    *why = std::string(to_string(d.kind)) + " fits " + std::to_string(v.size()) +
           " file sizes (KS D=" + fmt("%.3f", cands.front().d) + " < " + fmt("%.3f", crit) +
           " at 5%)";
    return d;
  }
  // Exact empirical histogram: one bin per distinct size when few, else 32 quantile bins.
  Distribution d;
  d.kind = DistKind::histogram;
  std::map<double, double> counts;
  for (double x : v) counts[x] += 1;
  if (counts.size() <= 64) {
    for (auto [x, c] : counts) d.bins.push_back({x, x, c});
  } else {
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t nb = 32;
    for (std::size_t b = 0; b < nb; ++b) {
      const std::size_t lo = b * sorted.size() / nb, hi = (b + 1) * sorted.size() / nb;
      if (hi <= lo) continue;
      d.bins.push_back({sorted[lo], sorted[hi - 1], static_cast<double>(hi - lo)});
    }
  }
  *why = enough ? "no parametric fit passes KS at 5% (best " +
                      std::string(to_string(cands.front().kind)) +
                      " D=" + fmt("%.3f", cands.front().d) + " ≥ " + fmt("%.3f", crit) +
                      "): empirical histogram"
                : "only " + std::to_string(v.size()) + " files: empirical histogram";
  return d;
}

// Times with a long right tail (a worker or the main process descheduled on a busy machine, a
// garbage collection) have a mean well above their median, and a replay drawing around the median
// runs short by that difference on every step. When there are enough values and the mean (of the
// values up to p99: a mis-attributed gap must not count) is more than 5% above the median, this
// gives an empirical distribution: the 20 quantiles at (i + 0.5) / 20 as exact values of equal
// weight (equal neighbours merged), which keeps the median and, as a midpoint sum of the quantile
// function, the mean (uniform bins between quantiles would not: a bimodal step time would be
// smeared across the gap). Otherwise (symmetric, or too few values) nothing: the caller's usual
// form.
std::optional<Distribution> skewed_times(std::vector<double> v, std::string* why) {
  if (v.size() < 20) return std::nullopt;
  std::sort(v.begin(), v.end());
  const auto q = [&](double p) { return detail::percentile(v, p); };
  const double p50 = q(0.5), p99 = q(0.99);
  double sum = 0;
  std::size_t n = 0;
  for (double x : v)
    if (x <= p99) sum += x, ++n;
  const double mean = n ? sum / static_cast<double>(n) : 0;
  if (p50 <= 0 || mean <= 1.02 * p50) return std::nullopt;
  auto us = [](double seconds) { return std::round(seconds * 1e6) / 1e6; };  // µs resolution
  Distribution d;
  d.kind = DistKind::histogram;
  for (int i = 0; i < 20; ++i) {
    const double x = us(q((i + 0.5) / 20.0));
    if (!d.bins.empty() && d.bins.back().lo == x)
      d.bins.back().weight += 1.0;
    else
      d.bins.push_back({x, x, 1.0});
  }
  if (why)
    *why = "right-skewed: mean " + format_duration(mean) + " vs median " + format_duration(p50) +
           " (values up to p99), kept as its 20 quantiles";
  return d;
}

std::string file_prefix_of(const DatasetSummary& d, const TraceSummary& s) {
  std::string prefix;
  bool first = true;
  for (auto fi : d.files) {
    const std::string stem = std::filesystem::path(s.files[fi].path).stem().string();
    std::size_t n = 0;
    while (n < stem.size() && !std::isdigit(static_cast<unsigned char>(stem[n]))) ++n;
    std::string p = stem.substr(0, n);
    if (first)
      prefix = p, first = false;
    else if (p != prefix)
      return "";
  }
  while (!prefix.empty() && (prefix.back() == '_' || prefix.back() == '-' || prefix.back() == '.'))
    prefix.pop_back();
  return prefix;
}

struct Ctx {
  const TraceSummary& s;
  Distilled out;
  const SampleFile* sample_file = nullptr;  // the training set is samples of multi-sample files
  void c(const std::string& key, std::string text) { out.comments[key] = std::move(text); }
  void note(std::string text) { out.notes.push_back(std::move(text)); }
  void why(std::string text) { out.reasoning.push_back(std::move(text)); }
};

DatasetSpec dataset_spec(Ctx& x, const DatasetSummary& d, const std::string& key,
                         const std::filesystem::path& dir) {
  const auto& s = x.s;
  DatasetSpec spec;
  spec.dir = dir;
  x.c(key + ".dir", "synthetic copy; the traced data was " + d.dir + " (never written by dlgen)");
  spec.format = d.format.value_or(Format::raw);
  x.c(key + ".format", d.format_evidence);
  // Multi-sample files: the summary's files are virtual samples of a few real files.
  std::set<std::uint32_t> rows;
  for (auto f : d.files)
    if (auto it = s.virtual_files.find(f); it != s.virtual_files.end()) rows.insert(it->second);
  if (!rows.empty() && rows.size() <= d.files.size()) {
    std::size_t virtual_count = 0;
    for (auto f : d.files) virtual_count += s.virtual_files.count(f);
    if (virtual_count == d.files.size()) {
      const SampleFile& sf = s.sample_files[*rows.begin()];
      spec.num_files = rows.size();
      // The file's capacity (its size over the stride), or the samples read if more: a run that
      // stops early (max_steps) reads few of them, but the file, and what the page cache can hold
      // of it, is the whole one.
      std::uint64_t slots = 0;
      for (auto r : rows) slots += s.sample_files[r].samples;
      spec.samples_per_file = static_cast<std::uint32_t>(std::max<std::uint64_t>(
          {1, (d.files.size() + rows.size() / 2) / rows.size(), slots / rows.size()}));
      spec.sample_size = Distribution::fixed_at(static_cast<double>(sf.stride));
      spec.files_per_dir = 0;
      spec.file_prefix = sanitize(std::filesystem::path(sf.path).stem().string());
      x.c(key + ".num_files", std::to_string(rows.size()) + " file(s) of many samples (" + sf.path +
                                  (rows.size() > 1 ? ", ..." : "") +
                                  "), read a sample at a time at scattered offsets");
      x.c(key + ".samples_per_file", std::to_string(sf.samples) + " slots of " +
                                         format_size(sf.stride) + " in " + format_size(sf.size) +
                                         "; " + std::to_string(d.files.size()) +
                                         " distinct samples read in all");
      x.c(key + ".sample_size", "the commonest step between sample offsets (" +
                                    std::to_string(sf.reads) + " reads; samples start at byte " +
                                    std::to_string(sf.base) + ")");
      if (sf.mapped) {
        x.c(key + ".num_files", std::to_string(rows.size()) + " file(s) of many samples (" +
                                    sf.path + (rows.size() > 1 ? ", ..." : "") +
                                    "), memory-mapped and read by page faults");
        x.c(key + ".sample_size",
            "the span page faults show (" + std::to_string(sf.faults) +
                " faults; fault-around window " + format_size(sf.fault_window) +
                "): a process's first touch of each window, not each of the program's samples");
        x.note(key + ": " + sf.path +
               " was memory-mapped and read by page faults; the replay reads it with ordinary "
               "reads. Faults show a process's first touch of each fault-around window (" +
               format_size(sf.fault_window) +
               "), not each sample, so sample_size, samples_per_file, batch_size and the request "
               "size count those windows (bytes per epoch and per step are kept); a worker that "
               "keeps its mapping across epochs shows its pages once");
      }
      x.c(key + ".files_per_dir", "one directory");
      x.c(key + ".file_prefix", "the traced file's name");
      x.sample_file = &sf;
      return spec;
    }
  }
  spec.num_files = d.files.size();
  std::uint64_t max_unique = 0;
  for (const auto& e : s.epochs)
    if (e.dataset >= 0 && &s.datasets[e.dataset] == &d)
      max_unique = std::max(max_unique, e.unique_files);
  x.c(key + ".num_files", std::to_string(d.files.size()) + " distinct files read under " + d.dir +
                              " (at most " + std::to_string(max_unique) + " in one pass)");
  spec.samples_per_file = 1;
  // Streamed shards: the batches handed over per pass, over the files read in it, are the
  // samples a file holds, in batches (the syscalls show no sample boundaries; the job counts a
  // batch as a sample: reader.batch_size 1).
  std::uint64_t stream_batches = 0, stream_files = 0;
  if (s.stream_shards)
    for (const auto& e : s.epochs)
      if (!e.evaluation && e.dataset >= 0 && &s.datasets[e.dataset] == &d)
        stream_batches += e.steps, stream_files += e.unique_files;
  if (stream_batches > 0 && stream_files > 0) {
    spec.samples_per_file = static_cast<std::uint32_t>(
        std::max<std::uint64_t>(1, (stream_batches + stream_files / 2) / stream_files));
    x.c(key + ".samples_per_file",
        std::to_string(stream_batches) + " batches handed over while reading " +
            std::to_string(stream_files) +
            " shard files in the training passes: each file streams about " +
            std::to_string(spec.samples_per_file) +
            " batches (a sample here is one batch's worth; the trace shows no sample boundaries)");
  } else if ((d.files.size() < 4 && d.read.reads_per_access > 8 && !d.read.whole_file) ||
             d.read.reads_per_access > 32)
    x.note(key + ".samples_per_file: " + std::to_string(d.files.size()) +
           " file(s) read in many requests (" + fmt("%.0f", d.read.reads_per_access) +
           " per open), not on a grid of fixed-size samples: a file may hold many samples (tar or "
           "record "
           "shards streamed through a buffer); samples per file cannot be told from the trace, 1 "
           "assumed, so "
           "batch size, epochs and steps below count files, not samples: check them against the "
           "script");
  std::vector<double> sizes(d.file_sizes.begin(), d.file_sizes.end());
  const double overhead = framing_overhead(spec.format, d.size.p50);
  for (auto& v : sizes) v = std::max(1.0, (v - overhead) / spec.samples_per_file);
  std::string why;
  spec.sample_size = fit_sizes(sizes, &why);
  x.c(key + ".sample_size",
      why + "; file sizes " + format_size(static_cast<std::uint64_t>(d.size.min)) + ".." +
          format_size(static_cast<std::uint64_t>(d.size.max)) + ", mean " +
          format_size(static_cast<std::uint64_t>(d.size.mean)) +
          (overhead > 0 ? ", less " + std::to_string(static_cast<long long>(overhead)) + " B of " +
                              to_string(spec.format) + " framing"
                        : ""));
  spec.files_per_dir = d.dirs > 1 ? d.files_per_dir : 0;
  x.c(key + ".files_per_dir", d.dirs > 1 ? std::to_string(d.dirs) + " subdirectories, up to " +
                                               std::to_string(d.files_per_dir) + " files each"
                                         : "all files in one directory");
  const std::string prefix = file_prefix_of(d, s);
  if (!prefix.empty()) spec.file_prefix = prefix;
  x.c(key + ".file_prefix",
      prefix.empty() ? "file names differ: default prefix" : "common prefix of the traced names");
  return spec;
}

// The training passes (epochs), in time order.
std::vector<const EpochSummary*> training_passes(const TraceSummary& s) {
  std::vector<const EpochSummary*> out;
  for (const auto& e : s.epochs)
    if (!e.evaluation) out.push_back(&e);
  return out;
}

// [dataset] and [validation].
void distil_datasets(Ctx& x, const std::filesystem::path& data_dir) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  const int ti = train_dataset(s);
  const int vi = validation_dataset(s);
  if (ti < 0) {
    x.note("no training dataset in the trace: the dataset section is a placeholder");
    job.dataset.dir = data_dir;
  } else {
    const auto& d = s.datasets[ti];
    job.dataset = dataset_spec(x, d, "dataset", data_dir);
    x.why("training data: " + d.dir + ", " + std::to_string(d.files.size()) + " files, " +
          format_size(d.total_bytes) + ", read " + std::to_string(d.accesses) + " times in all");
  }
  // Files read besides the datasets, by directory (a segmentation mask or an annotation per
  // sample, a label file): the job does not replay them, so say so when they are a real share of
  // the reads.
  if (ti >= 0) {
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> other;  // dir → files, bytes
    for (const auto& f : s.files)
      if (f.cls == FileClass::other && f.bytes_read > 0) {
        auto& [n, b] = other[std::filesystem::path(f.path).parent_path().string()];
        ++n, b += f.bytes_read;
      }
    const std::uint64_t train_bytes = std::max<std::uint64_t>(1, s.datasets[ti].bytes_read);
    for (const auto& [dir, nb] : other)
      if (nb.second * 20 >= train_bytes)
        x.note(
            "besides the training set, " + std::to_string(nb.first) + " files under " + dir +
            " were read (" + format_size(nb.second) + ", " +
            fmt("%.0f", 100.0 * static_cast<double>(nb.second) / static_cast<double>(train_bytes)) +
            "% of the training set's bytes): not a dataset of this job, so not replayed "
            "(a second file per sample, such as a segmentation mask, is not modelled yet)");
  }
  if (vi >= 0) {
    const auto& d = s.datasets[vi];
    job.validation = dataset_spec(x, d, "validation", data_dir.string() + "-val");
    job.validation->seed = 1;
    x.why("validation data: " + d.dir + ", " + std::to_string(d.files.size()) + " files");
  }
}

// reader.startup_spread: several accelerators on one host that begin each pass apart (DDP ranks
// each fork their DataLoader workers at every epoch start, on a shared host one after another).
// Per training pass after the first (the first holds the imports and the process group's
// rendezvous) and per host, the spread = the last accelerator's first read − the first one's.
// Written when its median is at least 5 ms (below: timer and scheduler noise), as the spreads
// themselves (exact values; their 20 quantiles above 20 passes × hosts).
void distil_startup_spread(Ctx& x) {
  const TraceSummary& s = x.s;
  std::vector<double> spreads;
  for (std::size_t pi = 1; pi < s.accelerator_starts_s.size() && pi < s.epochs.size(); ++pi) {
    if (s.epochs[pi].evaluation) continue;
    std::map<std::uint32_t, std::pair<double, double>> range;  // host → first, last start
    std::map<std::uint32_t, int> started;
    const auto& starts = s.accelerator_starts_s[pi];
    for (std::size_t a = 0; a < starts.size() && a < s.accelerators.size(); ++a) {
      if (starts[a] < 0) continue;
      const std::uint32_t h = s.accelerators[a].host;
      auto [it, fresh] = range.try_emplace(h, starts[a], starts[a]);
      if (!fresh)
        it->second = {std::min(it->second.first, starts[a]),
                      std::max(it->second.second, starts[a])};
      ++started[h];
    }
    for (const auto& [h, r] : range)
      if (started[h] >= 2) spreads.push_back(r.second - r.first);
  }
  if (spreads.empty()) return;
  std::sort(spreads.begin(), spreads.end());
  const double median = detail::percentile(spreads, 0.5);
  std::string values;
  for (std::size_t i = 0; i < spreads.size() && i < 8; ++i)
    values += (i ? ", " : "") + format_duration(spreads[i]);
  if (spreads.size() > 8) values += ", ...";
  const std::string evidence = "the accelerators of a host began " +
                               std::to_string(spreads.size()) +
                               " pass(es) after the first this far apart (last one's first read "
                               "- first one's): " +
                               values;
  if (median < 0.005) {
    x.c("reader.startup_spread", evidence + ": together (under 5 ms)");
    return;
  }
  auto ms = [](double seconds) { return std::round(seconds * 1e3) / 1e3; };  // 1 ms resolution
  Distribution d;
  if (spreads.size() == 1) {
    d = Distribution::fixed_at(ms(spreads[0]));
  } else {
    d.kind = DistKind::histogram;
    const std::size_t n = std::min<std::size_t>(spreads.size(), 20);
    for (std::size_t i = 0; i < n; ++i) {
      const double v = ms(spreads.size() <= 20
                              ? spreads[i]
                              : detail::percentile(spreads, (static_cast<double>(i) + 0.5) / 20.0));
      if (!d.bins.empty() && d.bins.back().lo == v)
        d.bins.back().weight += 1.0;
      else
        d.bins.push_back({v, v, 1.0});
    }
  }
  x.out.job.reader.startup_spread = d;
  x.c("reader.startup_spread",
      evidence + ": each one forks its DataLoader workers at every epoch start (DDP ranks)");
}

// [run]: epochs, evaluation cadence, accelerators.
void distil_run(Ctx& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  // Passes.
  std::uint32_t epochs = 0, evals = 0;
  std::vector<const EpochSummary*> train_epochs;
  for (const auto& e : s.epochs) {
    if (e.evaluation)
      ++evals;
    else
      ++epochs, train_epochs.push_back(&e);
  }
  job.run.epochs = std::max<std::uint32_t>(1, epochs);
  x.c("run.epochs",
      std::to_string(epochs) + " passes over the training files (a pass ends when a file repeats)");
  if (evals > 0 && epochs > 0) {
    job.run.eval_every_epochs = std::max<std::uint32_t>(
        1, static_cast<std::uint32_t>(std::lround(static_cast<double>(epochs) / evals)));
    x.c("run.eval_every_epochs",
        std::to_string(evals) + " evaluation passes over " + std::to_string(epochs) + " epochs");
  } else {
    x.c("run.eval_every_epochs", "no evaluation passes seen");
  }
  // Accelerators per host: a job runs run.accelerators on each host (mpirun -np H dlgen run);
  // a trace merged from one capture per host has them on H hosts.
  const std::uint32_t hosts =
      std::max<std::uint32_t>(1, static_cast<std::uint32_t>(s.hosts.size()));
  job.run.accelerators =
      std::max<std::uint32_t>(1, static_cast<std::uint32_t>(s.accelerators.size()));
  {
    std::string pids;
    for (const auto& a : s.accelerators) pids += (pids.empty() ? "" : ",") + std::to_string(a.pid);
    // Each accelerator's share of the first training pass (DistributedSampler gives each rank a
    // disjoint 1/N of the files).
    std::string share;
    if (s.accelerators.size() > 1 && !train_epochs.empty()) {
      const auto first = static_cast<std::int32_t>(train_epochs.front() - s.epochs.data());
      std::vector<std::uint64_t> per(s.accelerators.size(), 0);
      for (const auto& b : s.batches)
        if (b.epoch == first && b.accelerator < per.size()) per[b.accelerator] += b.samples;
      std::string list;
      for (auto n : per) list += (list.empty() ? "" : ",") + std::to_string(n);
      share = "; each read its share of epoch 0's " +
              std::to_string(train_epochs.front()->unique_files) + " files (" + list + ")";
    }
    if (hosts > 1) {
      std::uint32_t most = 0, least = UINT32_MAX;
      std::string per_host;
      for (const auto& h : s.hosts) {
        most = std::max(most, h.accelerators), least = std::min(least, h.accelerators);
        per_host += (per_host.empty() ? "" : ", ") + h.host +
                    (h.rank >= 0 ? " rank " + std::to_string(h.rank) : "") + ": " +
                    std::to_string(h.accelerators);
      }
      job.run.accelerators = std::max<std::uint32_t>(1, most);
      x.c("run.accelerators", std::to_string(job.run.accelerators) +
                                  " per host: " + std::to_string(s.accelerators.size()) +
                                  " process(es) consuming data on " + std::to_string(hosts) +
                                  " hosts (" + per_host + "); run on " + std::to_string(hosts) +
                                  " hosts with mpirun -np " + std::to_string(hosts) + share);
      if (most != least)
        x.note("run.accelerators: the hosts ran different numbers of accelerators (" + per_host +
               "); the job runs " + std::to_string(most) + " on every host");
    } else {
      x.c("run.accelerators", std::to_string(s.accelerators.size()) +
                                  " process(es) consuming data (pid " + pids + ")" + share);
    }
  }
}

// [reader]: workers, batch size and prefetch.
void distil_loader(Ctx& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  const int ti = train_dataset(s);
  const auto train_epochs = training_passes(s);
  // Reader.
  auto& r = job.reader;
  if (!s.accelerators.empty()) {
    const auto& a = s.accelerators[0];
    r.workers = a.reads_itself ? 0 : std::max<std::uint32_t>(1, a.workers);
    std::string names;
    std::map<std::string, int> comms;
    for (const auto& p : s.processes)
      if (p.role == ProcessRole::reader_worker && p.accelerator == 0) ++comms[p.comm];
    for (auto& [c, n] : comms) names += (names.empty() ? "" : ", ") + c;
    std::uint64_t train_files = ti >= 0 ? s.datasets[ti].files.size() : 0;
    if (a.reads_itself) {
      x.c("reader.workers",
          "the main process reads its own samples (no separate workers): 0, loading and compute "
          "take turns");
    } else {
      std::uint64_t per_epoch_files = train_epochs.empty() ? 0 : train_epochs.front()->unique_files;
      x.c("reader.workers", std::to_string(a.workers) + " readers per epoch (" +
                                (names.empty() ? std::string("unnamed") : names) + ") read " +
                                std::to_string(per_epoch_files) + " of " +
                                std::to_string(train_files) + " train files in epoch 0; " +
                                std::to_string(a.readers.size()) + " distinct over the run");
    }
  }
  const auto mapped_batch = [&]() -> std::uint32_t {
    // A memory-mapped file's windows come unevenly per batch (a window another worker mapped
    // first is not seen again), so the mode would be noise: windows read per handover instead,
    // which keeps the bytes per step.
    if (!x.sample_file || !x.sample_file->mapped) return 0;
    std::uint64_t reads = 0, steps = 0;
    for (const auto* e : train_epochs) reads += e->accesses, steps += e->steps;
    return steps
               ? static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (reads + steps / 2) / steps))
               : 0;
  }();
  if (mapped_batch > 0 && !s.stream_shards) {
    r.batch_size = mapped_batch;
    x.c("reader.batch_size", "fault-around windows read per handover over the training passes (" +
                                 std::to_string(s.batches.size()) +
                                 " handovers): the memory-mapped file's samples are not seen");
  } else if (s.batch_size > 0) {
    r.batch_size = s.batch_size;
    std::uint64_t full = 0;
    for (const auto& b : s.batches) full += b.samples == s.batch_size;
    if (s.stream_shards)
      x.c("reader.batch_size",
          "1: each of the " + std::to_string(s.batches.size()) +
              " handovers is a batch, counted as one sample (the trace shows no sample "
              "boundaries in a stream); for samples/s in the script's units set batch_size to its "
              "batch and multiply dataset.samples_per_file by it, dividing sample_size");
    else
      x.c("reader.batch_size",
          std::to_string(full) + " of " + std::to_string(s.batches.size()) +
              (s.batches_from_read_bursts ? " read bursts (no handovers seen) had "
                                          : " handovers carried ") +
              std::to_string(s.batch_size) + " samples");
  } else {
    x.note(
        "reader.batch_size: no worker→main handovers (sendmsg, /dev/shm) in the trace; 1 assumed");
    x.c("reader.batch_size", "not inferred (no handovers seen)");
  }
  if (s.prefetch > 0) {
    r.prefetch = s.prefetch;
    x.c("reader.prefetch",
        "up to " + std::to_string(s.prefetch * std::max<std::uint32_t>(1, r.workers)) +
            " batches were ready ahead of the consumer (90th percentile), per worker");
  } else {
    x.c("reader.prefetch", "not inferred: default");
  }
}

// [reader]: shuffle, from the training set's order.
void distil_shuffle(Ctx& x, const DatasetSummary& d) {
  auto& r = x.out.job.reader;
  const auto train_epochs = training_passes(x.s);
  const auto& o = d.order;
  const std::string stat = "Spearman rho=" + fmt("%.2f", o.spearman) +
                           " (z=" + fmt("%.1f", o.spearman_z) +
                           "), per-reader ascending=" + fmt("%.2f", o.ascending_fraction) +
                           ", epoch-to-epoch rho=" + fmt("%.2f", o.cross_epoch_spearman);
  switch (o.kind) {
    case OrderKind::sequential:
      r.shuffle = Shuffle::none;
      x.c("reader.shuffle", "sequential path order: " + stat);
      break;
    case OrderKind::shuffled:
      r.shuffle = Shuffle::file;
      x.c("reader.shuffle", std::string(o.reshuffled ? "random permutation, reshuffled each epoch: "
                                                     : "random permutation: ") +
                                stat);
      if (!o.reshuffled && train_epochs.size() > 1)
        x.note(
            "reader.shuffle: the same permutation was used every epoch; the job reshuffles each "
            "epoch");
      break;
    case OrderKind::buffer_shuffled:
      r.shuffle = Shuffle::file;
      r.shuffle_buffer = std::max<std::uint64_t>(2, o.buffer_estimate);
      x.c("reader.shuffle", "ordered overall but locally random (shuffle buffer): " + stat);
      x.c("reader.shuffle_buffer", "stdev of displacement from path order: about " +
                                       std::to_string(o.buffer_estimate) + " samples");
      break;
    case OrderKind::unknown:
      r.shuffle = Shuffle::file;
      x.note("reader.shuffle: order not classified (" + stat + "); random assumed");
      x.c("reader.shuffle", "not classified: random assumed");
      break;
  }
}

// [reader]: how each file is read (requests, probe, header), start-up, per-sample and warm-up
// times, O_DIRECT, and a multi-sample file's sample reads.
void distil_requests(Ctx& x, const DatasetSummary& d) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  const auto& rp = d.read;
  r.read_unit = s.stream_shards ? ReadUnit::stream : ReadUnit::file;
  if (s.stream_shards)
    x.c("reader.read",
        "batches were handed over while a file was still open: each worker streams its own shards "
        "front to back (tar/WebDataset or record files through a buffer)");
  r.request_size_bytes = rp.request_bytes;
  const std::string per_file = fmt("%.1f", rp.reads_per_access) + " data-moving reads per file";
  if (rp.request_bytes)
    x.c("reader.request_size", per_file + "; " + format_size(rp.request_bytes) +
                                   " requests carry most bytes (files read in chunks)");
  else
    x.c("reader.request_size", per_file + ": " +
                                   (rp.header_bytes ? "data after the header" : "whole file") +
                                   " in one request");
  r.header_read_bytes = rp.header_bytes;
  // A probe (read at 0, then the file again from the start) is a whole-file reader's; a stream's
  // first read of a shard is its first buffer fill.
  r.probe_bytes = s.stream_shards ? 0 : rp.probe_bytes;
  if (r.probe_bytes)
    x.c("reader.probe",
        "most files are first read " + format_size(rp.probe_bytes) +
            " at offset 0, then again from the start (numpy.load's magic probe and seek back)");
  if (rp.header_bytes)
    x.c("reader.header_read", "most files' first read is " + format_size(rp.header_bytes) +
                                  ", then the data follows (format header/metadata)");
  // Start-up gap at each epoch: PyTorch re-forks DataLoader workers each epoch (the default
  // persistent_workers=False); measured from the previous pass's last step (or checkpoint) end to
  // the pass's first read, median over passes after the first (the first one holds the imports).
  if (!s.pass_startup_s.empty()) {
    const double st = std::round(s.startup_s * 1000.0) / 1000.0;
    r.startup_s = st >= 0.005 ? st : 0.0;
    std::vector<double> gaps = s.pass_startup_s;
    const auto [lo, hi] = std::minmax_element(gaps.begin(), gaps.end());
    x.c("reader.startup", "median gap before a pass's first read over " +
                              std::to_string(gaps.size()) + " passes after the first (" +
                              format_duration(*lo) + ".." + format_duration(*hi) +
                              "), after the previous step or checkpoint" +
                              (r.startup_s > 0 ? ": worker start-up each epoch" : ": none"));
  } else {
    x.c("reader.startup", "one pass: no gap between passes to measure");
  }
  distil_startup_spread(x);
  // Per-sample worker time (decode/augmentation): median gap between a sample's last read and the
  // same reader's next sample open; replayed only when clearly above syscall noise (0.2 ms).
  if (s.preprocess_gaps_s.size() >= 3 && s.preprocess_s > 0.0002) {
    std::string skew_why;
    auto h = skewed_times(s.preprocess_gaps_s, &skew_why);
    r.preprocess = h ? *h : Distribution::fixed_at(std::round(s.preprocess_s * 1e5) / 1e5);
    x.c("reader.preprocess",
        "median gap between a sample's last read and the reader's next sample over " +
            std::to_string(s.preprocess_gaps_s.size()) +
            " samples (handover gaps left out): per-sample decode/transform time" +
            (skew_why.empty() ? "" : "; " + skew_why));
  }
  // Warm-up of fresh workers, paid once per worker per pass, delaying the pass's first batch. With
  // batch receipts: a pass's first batch reached the consumer (median over passes x accelerators)
  // later than the replay's would without it: reading a batch (batch x the typical sample span)
  // and the consumer's own per-batch cost, which the replay spends anyway. This holds everything a
  // fresh worker pays once: imports, the library's first open, the first sample's decoder set-up,
  // the queue's feeder thread, the consumer's connection for the batch's descriptors. Without
  // receipts: the first sample's span over the typical one, when clear (5 ms).
  const double batch_read = static_cast<double>(r.batch_size) * s.sample_span_s;
  double warmup = 0;
  std::string why;
  if (!s.first_batch_s.empty()) {
    const double first = detail::percentile(s.first_batch_s, 0.5);
    warmup = first - batch_read - s.consumer_time.p50;
    why = "a pass's first batch reached the consumer " + format_duration(first) +
          " after its readers' first read (median over " + std::to_string(s.first_batch_s.size()) +
          " passes x accelerators), against " + format_duration(batch_read) + " to read a batch (" +
          std::to_string(r.batch_size) + " x " + format_duration(s.sample_span_s) +
          " per sample) and " + format_duration(s.consumer_time.p50) +
          " to receive one later in the pass";
  } else if (s.first_sample_spans_s.size() >= 2 && s.sample_span_s > 0) {
    const double first = detail::percentile(s.first_sample_spans_s, 0.5);
    if (first - s.sample_span_s >= 0.005) warmup = first - s.sample_span_s;
    why = "a reader's first sample of a pass took " + format_duration(first) +
          " open to next open (median over " + std::to_string(s.first_sample_spans_s.size()) +
          " reader passes), the others " + format_duration(s.sample_span_s);
  }
  warmup = std::round(warmup * 1e4) / 1e4;
  if (warmup >= 0.001) {
    r.warmup_s = warmup;
    x.c("reader.warmup", why + ": a fresh worker's first-use costs");
  }
  r.direct = rp.direct;
  x.c("reader.direct", rp.direct ? "files opened with O_DIRECT" : "buffered reads (no O_DIRECT)");
  if (rp.mmap) x.note("reader: the files were memory-mapped; the replay reads them instead");
  if (x.sample_file) {
    // Samples of a big file: read each sample's byte range, in a shuffled order across the file.
    const SampleFile& sf = *x.sample_file;
    r.read_unit = ReadUnit::sample;
    x.c("reader.read", "a sample's byte range at a time from the multi-sample file");
    // A request larger than the sample is the loading library's read-ahead (HDF5's 64 KiB sieve
    // buffer): the replay reads as much from each sample's start.
    r.request_size_bytes = 0;
    r.readahead_bytes = sf.request > sf.stride ? sf.request : 0;
    x.c("reader.request_size", "one request per sample");
    if (r.readahead_bytes)
      x.c("reader.readahead",
          format_size(sf.request) +
              " read at each sample's offset: the loading library's read-ahead (more than the " +
              format_size(sf.stride) + " sample)");
    // A second, small read per sample elsewhere in the file (a label array, metadata): replayed
    // as a header read per sample.
    const bool aux =
        sf.sample_reads > 0 && sf.aux_reads * 2 >= sf.sample_reads && sf.aux_request > 0;
    r.header_read_bytes = aux ? sf.aux_request : 0;
    x.c("reader.header_read",
        aux ? "besides each sample, " +
                  fmt("%.2f", double(sf.aux_reads) / double(sf.sample_reads)) + " reads of " +
                  format_size(sf.aux_request) +
                  " elsewhere in the file per sample (labels, metadata)"
            : "none: the file's header is read once, not per sample");
    if (r.shuffle == Shuffle::file) {
      r.shuffle = Shuffle::sample;
      x.c("reader.shuffle", "samples of the file read in a random order, reshuffled each epoch");
    }
  } else if (const LearnedRecipe& lr = d.recipe;
             !s.stream_shards && !lr.recipe.empty() && lr.share() >= 0.25) {
    // The learned per-file recipe (analysis/recipe.hpp) says what the per-library keys said, and
    // more: the order, offsets (from the start or the end) and sizes of each file's reads.
    r.recipe = lr.recipe;
    r.request_size_bytes = r.header_read_bytes = r.probe_bytes = 0;
    x.c("reader.recipe", "how each file was read, learned from the trace: " +
                             std::to_string(lr.explained) + " of " + std::to_string(lr.accesses) +
                             " file accesses (" + pct(double(lr.explained), double(lr.accesses)) +
                             ") read their file exactly this way; " + std::to_string(lr.templates) +
                             " distinct patterns seen");
    for (const char* k : {"reader.request_size", "reader.header_read", "reader.probe"})
      x.c(k, "0: reader.recipe says how files are read");
  } else if (!rp.whole_file) {
    x.note("reader.read: only " + pct(rp.coverage, 1.0) +
           " of each file is read per access; the job reads whole files");
  }
}

// [reader] drop_last or [run] max_steps, from the files read per epoch.
void distil_epoch_size(Ctx& x, const DatasetSummary& d) {
  Job& job = x.out.job;
  auto& r = job.reader;
  const auto train_epochs = training_passes(x.s);
  // drop_last and max_steps from samples per epoch.
  if (!train_epochs.empty() && r.batch_size > 0) {
    const std::uint64_t n = d.files.size();
    const std::uint64_t per_epoch = train_epochs.front()->accesses;
    const std::uint64_t hosts = std::max<std::size_t>(1, x.s.hosts.size());
    const std::uint64_t global_batch = std::uint64_t(r.batch_size) * job.run.accelerators * hosts;
    if (per_epoch >= n) {
      r.drop_last = false;
      x.c("reader.drop_last",
          "every file read each epoch (" + std::to_string(per_epoch) + " reads)");
    } else if (n - per_epoch < global_batch && per_epoch % global_batch == 0) {
      r.drop_last = true;
      x.c("reader.drop_last",
          std::to_string(n - per_epoch) + " files skipped per epoch, fewer than a batch");
    } else {
      job.run.max_steps = per_epoch / global_batch;
      x.c("run.max_steps",
          "epochs read only " + std::to_string(per_epoch) + " of " + std::to_string(n) + " files");
    }
  }
}

// [compute]: step time and evaluation step time.
// compute.batch_overhead: the consumer's own cost per batch (summarize's Step::consumer_ns) over
// the training steps: fixed at the median, or its 20 quantiles when right-skewed (as compute.time:
// an epoch's time is the sum of its steps, so the mean must survive too). Below 20 µs it is left
// out: the replay's own hand-off (a recvmsg and a wake-up) costs about that much.
void distil_batch_overhead(const TraceSummary& s, Job& job, Ctx& x) {
  if (s.batches_from_read_bursts || s.consumer_time.count == 0) return;
  if (s.consumer_time.p50 < 20e-6) return;
  std::vector<double> costs;
  for (const auto& st : s.steps)
    if (st.epoch >= 0 && !s.epochs[st.epoch].evaluation)
      costs.push_back(static_cast<double>(st.consumer_ns) * 1e-9);
  std::string skew_why;
  if (auto h = skewed_times(costs, &skew_why))
    job.compute.batch_overhead = *h;
  else
    job.compute.batch_overhead =
        Distribution::fixed_at(std::round(s.consumer_time.p50 * 1e6) / 1e6);  // µs resolution
  x.c("compute.batch_overhead",
      "the main process's own time per batch outside compute and data wait (receiving it, "
      "unpickling, collating): " +
          format_duration(s.consumer_time.p50) + " median over " +
          std::to_string(s.consumer_time.count) + " training steps (p90 " +
          format_duration(s.consumer_time.p90) + "; step time median " +
          format_duration(s.step_time.p50) + ")" + (skew_why.empty() ? "" : "; " + skew_why));
}

// The accelerator's own compute (TraceSummary::gpu) replaces the CPU's when the trace's CUDA events
// measured it: the CPU queues the GPU's work and runs ahead, so its busy time is not the step.
void distil_gpu_compute(const TraceSummary& s, Job& job, Ctx& x) {
  const GpuCompute& g = s.gpu;
  if (!g.measured) return;
  auto us = [](double seconds) { return std::round(seconds * 1e6) / 1e6; };
  std::string gpus = "a GPU";
  if (!g.devices.empty()) {
    std::map<std::string, int> n;
    for (const auto& d : g.devices) ++n[d];
    gpus.clear();
    for (const auto& [name, count] : n)
      gpus += (gpus.empty() ? "" : ", ") + std::to_string(count) + " x " + name;
    if (!g.driver.empty()) gpus += " (driver " + g.driver + ")";
  }
  const double cpu = s.compute_time.p50;
  job.compute.step_time = Distribution::fixed_at(us(g.step_s));
  const std::string bound =
      g.gpu_bound ? "; GPU-bound: the closing synchronisation found the GPU busy, so these "
                    "intervals are the GPU's own time"
                  : "; loop-bound: the GPU was busy at the closing synchronisation for only " +
                        std::to_string(g.busy_steps) + " of the " + std::to_string(g.steps) +
                        " steps, so the loop's own work per step is as long as the GPU's and the "
                        "intervals are the loop's time per step";
  x.c("compute.time",
      "measured on the GPU's timeline: " + gpus + ", " + format_duration(g.step_s) +
          " median per training step over " + std::to_string(g.steps) + " steps in " +
          std::to_string(g.intervals_s.size()) +
          " intervals between the training loop's blocking CUDA synchronisations, less its data "
          "waits inside them, over the steps whose batches were copied to the GPU in between (" +
          std::to_string(g.copies_per_step) + " host-to-device copies a step)" + bound +
          "; the CPU's own busy time per step was " + format_duration(cpu) +
          " (it queues the GPU's work and runs ahead); " + gpu_au(s));
  if (job.run.eval_every_epochs > 0 && !g.eval_intervals_s.empty() &&
      std::fabs(g.eval_step_s - g.step_s) > 0.1 * g.step_s) {
    job.compute.eval_time = Distribution::fixed_at(us(g.eval_step_s));
    x.c("compute.eval_time",
        "measured on the GPU's timeline: " + gpus + ", " + format_duration(g.eval_step_s) +
            " median per evaluation step over " + std::to_string(g.eval_intervals_s.size()) +
            " intervals (" + std::to_string(g.eval_steps) + " steps), as compute.time");
  }
}

void distil_compute(Ctx& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  // Compute.
  if (s.compute_time.count > 0) {
    const auto& c = s.compute_time;
    Distribution d;
    auto us = [](double seconds) { return std::round(seconds * 1e6) / 1e6; };  // µs resolution
    // Robust to the odd mis-attributed gap: centre on the median, spread from p50..p90
    // (z(0.9) = 1.2816 for a normal), fixed when that spread is under 5% of the median.
    const double spread = (c.p90 - c.p50) / 1.2816;
    std::vector<double> measured_s;
    for (const auto& st : s.steps)
      if (st.epoch >= 0 && !s.epochs[st.epoch].evaluation)
        measured_s.push_back(static_cast<double>(st.compute_ns) * 1e-9);
    std::string skew_why;
    const bool consumer_loads = !s.accelerators.empty() && s.accelerators[0].reads_itself;
    if (s.batches_from_read_bursts && consumer_loads) measured_s = s.burst_gaps_s;
    if (auto h = s.batches_from_read_bursts && !consumer_loads
                     ? std::nullopt
                     : skewed_times(measured_s, &skew_why)) {
      d = *h;
    } else if (c.count < 3 || spread <= 0.05 * c.p50) {
      d = Distribution::fixed_at(us(c.p50));
    } else {
      d.kind = DistKind::normal;
      d.mean = us(c.p50);
      d.stdev = us(spread);
      // No clipping at the observed minimum: sleep and scheduling overshoot skew compute to the
      // right, and a normal clipped near its centre would move its mean off the median.
      d.min = us(std::max(0.0, c.p50 - 3 * spread));
    }
    job.compute.step_time = d;
    std::uint64_t measured = 0;
    for (const auto& st : s.steps)
      measured += st.compute_measured && st.epoch >= 0 && !s.epochs[st.epoch].evaluation;
    if (s.batches_from_read_bursts && consumer_loads)
      x.c("compute.time", "idle gap before each of the main process's loading bursts: " +
                              format_duration(c.p50) + " median (it loads a batch, then computes)" +
                              (skew_why.empty() ? "" : "; " + skew_why));
    else if (s.batches_from_read_bursts)
      x.c("compute.time", "step cadence of the readers' bursts: " + format_duration(c.p50) +
                              " median (an upper bound of compute; no handovers in the trace)");
    else
      x.c("compute.time", "main process busy " + format_duration(c.p50) + " median per step (p90 " +
                              format_duration(c.p90) + ") over " + std::to_string(c.count) +
                              " steps, " + std::to_string(measured) +
                              " measured with the next batch ready; data wait median " +
                              format_duration(s.data_wait_time.p50) + ", " + original_au(s) +
                              (skew_why.empty() ? "" : "; " + skew_why));
    // Evaluation steps (a validation pass: forward only) have their own compute time when the
    // trace shows one that differs from training's by more than 10%.
    std::vector<double> eval_s;
    for (const auto& st : s.steps)
      if (st.compute_measured && st.epoch >= 0 && s.epochs[st.epoch].evaluation)
        eval_s.push_back(static_cast<double>(st.compute_ns) * 1e-9);
    if (job.run.eval_every_epochs > 0 && eval_s.size() >= 3) {
      const double e = detail::percentile(eval_s, 0.5);
      if (std::fabs(e - c.p50) > 0.1 * c.p50) {
        job.compute.eval_time = Distribution::fixed_at(us(e));
        x.c("compute.eval_time", "main process busy " + format_duration(e) +
                                     " median per evaluation step over " +
                                     std::to_string(eval_s.size()) +
                                     " measured steps (training: " + format_duration(c.p50) + ")");
      }
    }
    distil_batch_overhead(s, job, x);
    distil_gpu_compute(s, job, x);
  } else {
    job.compute.step_time = Distribution::fixed_at(0);
    x.note("compute.time: no step intervals (no batch receipts by the main process); 0 assumed");
    x.c("compute.time", "not inferred");
  }
}

// [checkpoint].
void distil_checkpoint(Ctx& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  // Checkpoints.
  auto& k = job.checkpoint;
  if (!s.checkpoints.empty()) {
    k.enabled = true;
    std::vector<double> bytes, files;
    Histogram ws;
    bool all_at_end = true, fsync = false;
    std::vector<std::uint64_t> ep, st;
    std::uint64_t copied = 0;
    std::uint32_t copies = 0, direct = 0;
    std::map<trace::Op, std::uint64_t> by_call;
    trace::Op copy_call = trace::Op::sendfile;
    for (const auto& c : s.checkpoints) {
      if (c.copied_bytes) ++copies, copy_call = c.copy_call;
      direct += c.direct;
      by_call[c.write_call] += c.bytes;
      bytes.push_back(static_cast<double>(c.bytes));
      files.push_back(c.files);
      for (auto [sz, n] : c.write_sizes) ws[sz] += n;
      all_at_end = all_at_end && c.at_epoch_end;
      fsync = fsync || c.fsync;
      ep.push_back(c.after_epoch);
      st.push_back(c.after_step);
      copied += c.copied_bytes;
    }
    k.size_bytes = static_cast<std::uint64_t>(detail::percentile(bytes, 0.5));
    k.files = std::max<std::uint32_t>(
        1, static_cast<std::uint32_t>(std::lround(detail::percentile(files, 0.5))));
    std::uint64_t best = 0, best_bytes = 0;
    for (auto [sz, n] : ws)
      if (sz * n > best_bytes) best = sz, best_bytes = sz * n;
    if (best) k.write_size_bytes = best;
    k.fsync = fsync;
    // Step cadence: the median distance between consecutive checkpoints (from step 0), robust to
    // a step index off by one; epochs are counted exactly, so their gcd is used.
    std::vector<double> dsteps;
    for (std::size_t i = 0; i < st.size(); ++i)
      if (st[i] > (i ? st[i - 1] : 0))
        dsteps.push_back(static_cast<double>(st[i] - (i ? st[i - 1] : 0)));
    const std::uint64_t ge = detail::gcd_all(ep);
    const std::uint64_t gs =
        static_cast<std::uint64_t>(std::llround(detail::percentile(dsteps, 0.5)));
    const std::string count = std::to_string(s.checkpoints.size()) + " checkpoints";
    if (all_at_end && ge > 0) {
      k.every_epochs = static_cast<std::uint32_t>(ge);
      x.c(
          "checkpoint.every_epochs", count + ", each at the end of an epoch (after epochs " + [&] {
            std::string l;
            for (auto e : ep) l += (l.empty() ? "" : ",") + std::to_string(e);
            return l;
          }() + ")");
    } else if (gs > 0) {
      k.every_steps = gs;
      x.c(
          "checkpoint.every_steps", count + " after steps " + [&] {
            std::string l;
            for (auto e : st) l += (l.empty() ? "" : ",") + std::to_string(e);
            return l;
          }());
    } else {
      k.every_epochs = 1;
      x.note("checkpoint cadence: checkpoints not aligned to steps or epochs; every epoch assumed");
    }
    x.c("checkpoint.size",
        "median bytes written per checkpoint (" +
            format_size(static_cast<std::uint64_t>(detail::percentile(bytes, 0))) + ".." +
            format_size(static_cast<std::uint64_t>(detail::percentile(bytes, 1))) + ")");
    x.c("checkpoint.files", "files written per checkpoint (median)");
    if (s.accelerators.size() > 1) {
      std::set<std::uint32_t> writers;
      for (const auto& c : s.checkpoints) writers.insert(c.writers.begin(), c.writers.end());
      std::string who;
      for (auto w : writers)
        who += (who.empty() ? "" : ",") + std::to_string(s.accelerators[w].pid);
      x.c("checkpoint.size",
          "median bytes written per checkpoint (" +
              format_size(static_cast<std::uint64_t>(detail::percentile(bytes, 0))) + ".." +
              format_size(static_cast<std::uint64_t>(detail::percentile(bytes, 1))) + "), by " +
              (writers.empty() ? std::string("no accelerator process")
                               : std::to_string(writers.size()) + " of " +
                                     std::to_string(s.accelerators.size()) +
                                     " accelerator processes (pid " + who + ")") +
              (writers.size() == 1 ? ": one rank saves the whole model (DDP rank 0)" : ""));
    }
    x.c("checkpoint.write_size", "write request size carrying the most bytes");
    x.c("checkpoint.fsync", fsync ? "fsync/fdatasync seen on checkpoint files" : "no fsync seen");
    k.dir = std::filesystem::path("checkpoints") / job.name;
    x.c("checkpoint.dir",
        "synthetic checkpoints; the traced run wrote " + s.checkpoints.front().paths.front());
    // How it was written: the write call that carried the most bytes, O_DIRECT, and copies.
    trace::Op call = trace::Op::write;
    std::uint64_t most = 0;
    for (auto [op, b] : by_call)
      if (b > most) most = b, call = op;
    k.write_call = call == trace::Op::writev || call == trace::Op::pwritev ? WriteCall::writev
                   : call == trace::Op::write                              ? WriteCall::write
                                                                           : WriteCall::pwrite;
    x.c("checkpoint.write_call",
        std::string("the write call carrying the most checkpoint bytes: ") +
            trace::to_string(call));
    k.direct = direct * 2 > s.checkpoints.size();
    x.c("checkpoint.direct", std::to_string(direct) + " of " +
                                 std::to_string(s.checkpoints.size()) +
                                 " checkpoints written to files opened with O_DIRECT");
    if (copies) {
      k.copy =
          copy_call == trace::Op::copy_file_range ? CopyCall::copy_file_range : CopyCall::sendfile;
      k.copy_every = std::max<std::uint32_t>(
          1, static_cast<std::uint32_t>(std::lround(static_cast<double>(s.checkpoints.size()) /
                                                    static_cast<double>(copies))));
      x.c("checkpoint.copy", std::to_string(copies) + " of " +
                                 std::to_string(s.checkpoints.size()) + " checkpoints copied (" +
                                 format_size(copied) + " with " + trace::to_string(copy_call) +
                                 ", e.g. shutil.copyfile of a best model)");
    }
  }
  if (s.checkpoint_restore) {
    k.restore = true;
    if (k.dir.empty()) k.dir = std::filesystem::path("checkpoints") / job.name;
    x.c("checkpoint.restore",
        format_size(s.restore_bytes) + " of checkpoint files read before training");
  }
}

// No training dataset, only checkpoints written and read back (DLIO's checkpointing workflow,
// MLPerf Storage's LLM checkpointing, a program that saves and loads a model): a checkpoint-only
// job (run.train = false) that writes `writes` checkpoints, then reads `reads` of them.
void distil_checkpoint_only(Ctx& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  auto& k = job.checkpoint;
  if (train_dataset(s) >= 0 || s.checkpoints.empty()) return;
  // Checkpoints written back to back (no training steps between to split the burst) are told
  // apart by their directories (DeepSpeed's and DLIO's global_step<N>/), when each holds the same
  // number of files.
  std::uint64_t writes = 0, files = 0, bytes = 0;
  for (const auto& c : s.checkpoints) {
    std::map<std::string, std::uint32_t> per_dir;
    for (const auto& p : c.paths) ++per_dir[std::filesystem::path(p).parent_path().string()];
    bool equal = true;
    for (const auto& [dir, n] : per_dir) equal = equal && n == per_dir.begin()->second;
    writes += per_dir.size() > 1 && equal ? per_dir.size() : 1;
    files += c.files;
    bytes += c.bytes;
  }
  job.run.train = false;
  k.enabled = false;  // checkpoints during training: none here
  if (k.copy != CopyCall::none) {
    k.copy = CopyCall::none;
    x.note(
        std::string(
            "checkpoint.copy: the checkpoint-only workflow copies nothing; the traced copies (") +
        trace::to_string(s.checkpoints.front().copy_call) + ") are left out");
  }
  job.dataset = DatasetSpec{};
  job.validation.reset();
  k.writes = static_cast<std::uint32_t>(writes);
  k.size_bytes = std::max<std::uint64_t>(1, bytes / writes);
  k.files = std::max<std::uint32_t>(1, static_cast<std::uint32_t>((files + writes / 2) / writes));
  k.size_bytes = std::max<std::uint64_t>(k.size_bytes, k.files);
  k.every_epochs = k.every_steps = 0;
  k.first_epoch = 0;
  k.restore = false;
  // Checkpoint files read in the run (summarize counts them as a restore: no training followed):
  // how many checkpoints' worth, at most those written.
  const std::uint64_t reads =
      s.checkpoint_restore
          ? std::min<std::uint64_t>(writes, (s.restore_bytes + k.size_bytes / 2) / k.size_bytes)
          : 0;
  k.reads = static_cast<std::uint32_t>(reads);
  for (const char* key : {"checkpoint.every_epochs", "checkpoint.every_steps", "checkpoint.restore",
                          "run.epochs", "run.accelerators"})
    x.out.comments.erase(key);
  std::erase_if(x.out.notes, [](const std::string& n) {
    return n.find("no training dataset") != std::string::npos ||
           n.find("checkpoint cadence") != std::string::npos ||
           n.find("compute.time") != std::string::npos;
  });
  x.c("run.train", "no training dataset read, checkpoints written: a checkpoint-only job");
  x.c("checkpoint.writes",
      std::to_string(writes) + " checkpoints written (" + format_size(bytes) + " in " +
          std::to_string(files) + " files" +
          (writes > s.checkpoints.size() ? ", told apart by their directories" : "") + ")");
  x.c("checkpoint.size", "bytes written per checkpoint (mean)");
  x.c("checkpoint.files", "files written per checkpoint (mean)");
  x.c("checkpoint.reads", s.checkpoint_restore
                              ? format_size(s.restore_bytes) + " of checkpoint files read back: " +
                                    std::to_string(reads) + " checkpoints' worth"
                              : "no checkpoint read back");
  x.why("checkpoint-only: " + std::to_string(writes) + " checkpoints written, " +
        std::to_string(reads) + " read back, no dataset");
}

}  // namespace

Distilled distil(const TraceSummary& s, const DistilOptions& options) {
  Ctx x{s, {}};
  Job& job = x.out.job;
  job.name = options.name.empty() ? default_name(s) : options.name;
  std::string cmd;
  for (const auto& a : s.command) cmd += (cmd.empty() ? "" : " ") + a;
  job.description =
      "distilled by dlgen from a trace" + (cmd.empty() ? std::string() : " of: " + cmd);
  const std::filesystem::path data_dir =
      options.dataset_dir.empty() ? std::filesystem::path("data") / job.name : options.dataset_dir;
  distil_datasets(x, data_dir);
  distil_run(x);
  distil_loader(x);
  if (const int ti = train_dataset(s); ti >= 0) {
    distil_shuffle(x, s.datasets[ti]);
    distil_requests(x, s.datasets[ti]);
    distil_epoch_size(x, s.datasets[ti]);
  }
  distil_compute(x);
  distil_checkpoint(x);
  for (const auto& n : s.notes) x.note(n);
  distil_checkpoint_only(x);
  for (const auto& dg : validate(job)) x.note("validation: " + dg.path + ": " + dg.message);
  return std::move(x.out);
}

}  // namespace dlgen::analysis
