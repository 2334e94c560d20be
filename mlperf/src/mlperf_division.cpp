// MLPerf Storage's divisions for training (mlperf.hpp, check_division): a job compared with its
// workload's reference field by field, deny by default (Rules.md 3.6.2 and 3.6.3).
#include <algorithm>
#include <charconv>

#include "dlgen/mlperf/mlperf.hpp"
#include "dlgen/mlperf/provenance.hpp"

namespace dlgen::mlperf {
namespace {

// A double as the shortest text that reads back as the same double: two values that print alike
// are equal (a "%g" of 0.0035 and 0.00351 differs, one of 0.1234567 and 0.1234568 does not).
std::string exact(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// Every parameter of a distribution, exactly: the kind's own ones, the bounds, each histogram bin,
// and any other field that is set (so two distributions that print alike are equal).
std::string describe(const Distribution& d) {
  const bool spread =
      d.kind == DistKind::normal || d.kind == DistKind::lognormal || d.kind == DistKind::gamma;
  std::string s = to_string(d.kind);
  if (d.kind == DistKind::fixed || d.value != 0) s += " value " + exact(d.value);
  if (spread || d.mean != 0) s += " mean " + exact(d.mean);
  if (spread || d.stdev != 0) s += " stdev " + exact(d.stdev);
  s += " min " + exact(d.min) + " max " + exact(d.max);
  if (d.kind == DistKind::histogram || !d.bins.empty()) {
    s += " bins [";
    for (std::size_t i = 0; i < d.bins.size(); ++i)
      s += (i ? ", " : "") + exact(d.bins[i].lo) + ".." + exact(d.bins[i].hi) + " x " +
           exact(d.bins[i].weight);
    s += "]";
  }
  return s;
}

std::string yes_no(bool b) {
  return b ? "true" : "false";
}

// A job as (TOML path, exact value) pairs: every field that shapes the I/O a run does. Left out:
// the job's name (it picks the reference), description, source file and named scales, and how the
// compute time is chosen (compute.accelerator and its table: `compute.time` is the time in force).
// A checkpoint that is not enabled is the one pair `checkpoint.enabled = false` (its other fields
// do nothing). `canonical` below is the same view as a Job, for the completeness check.
using Fields = std::vector<std::pair<std::string, std::string>>;

void dataset_fields(Fields& f, const std::string& p, const DatasetSpec& d) {
  f.emplace_back(p + ".dir", d.dir.string());
  f.emplace_back(p + ".format", to_string(d.format));
  f.emplace_back(p + ".num_files", std::to_string(d.num_files));
  f.emplace_back(p + ".samples_per_file", std::to_string(d.samples_per_file));
  f.emplace_back(p + ".sample_size", describe(d.sample_size));
  f.emplace_back(p + ".seed", std::to_string(d.seed));
  f.emplace_back(p + ".files_per_dir", std::to_string(d.files_per_dir));
  f.emplace_back(p + ".file_prefix", d.file_prefix);
}

// The [checkpoint] fields (only `enabled` when none is written).
void checkpoint_fields(Fields& f, const CheckpointSpec& k) {
  f.emplace_back("checkpoint.enabled", yes_no(k.enabled));
  if (k.enabled) {
    f.emplace_back("checkpoint.every_epochs", std::to_string(k.every_epochs));
    if (!k.after_epochs.empty()) {
      std::string list;
      for (auto e : k.after_epochs) list += (list.empty() ? "" : ",") + std::to_string(e);
      f.emplace_back("checkpoint.after_epochs", list);
    }
    f.emplace_back("checkpoint.every_steps", std::to_string(k.every_steps));
    f.emplace_back("checkpoint.size", std::to_string(k.size_bytes));
    f.emplace_back("checkpoint.files", std::to_string(k.files));
    if (k.final_size_bytes > 0) {
      f.emplace_back("checkpoint.final_size", std::to_string(k.final_size_bytes));
      f.emplace_back("checkpoint.final_files", std::to_string(k.final_files));
    }
    f.emplace_back("checkpoint.write_size", std::to_string(k.write_size_bytes));
    f.emplace_back("checkpoint.read_size", std::to_string(k.read_size_bytes));
    f.emplace_back("checkpoint.part_size", std::to_string(k.part_size_bytes));
    f.emplace_back("checkpoint.serialize", exact(k.serialize_s));
    f.emplace_back("checkpoint.fsync", yes_no(k.fsync));
    f.emplace_back("checkpoint.dir", k.dir.string());
    f.emplace_back("checkpoint.restore", yes_no(k.restore));
    f.emplace_back("checkpoint.first_epoch", std::to_string(k.first_epoch));
    f.emplace_back("checkpoint.writes", std::to_string(k.writes));
    f.emplace_back("checkpoint.reads", std::to_string(k.reads));
    f.emplace_back("checkpoint.pause", exact(k.pause_s));
    f.emplace_back("checkpoint.mode", to_string(k.mode));
    f.emplace_back("checkpoint.ranks_per_host", std::to_string(k.ranks_per_host));
    f.emplace_back("checkpoint.write_call", to_string(k.write_call));
    f.emplace_back("checkpoint.direct", yes_no(k.direct));
    f.emplace_back("checkpoint.copy", to_string(k.copy));
    f.emplace_back("checkpoint.copy_every", std::to_string(k.copy_every));
  }
}

// The reader's fields, one per key.
void reader_fields(Fields& f, const ReaderSpec& r) {
  f.emplace_back("reader.batch_size",
                 r.batches_vary() ? describe(r.batch_sizes) : std::to_string(r.batch_size));
  f.emplace_back("reader.workers", std::to_string(r.workers));
  f.emplace_back("reader.prefetch", std::to_string(r.prefetch));
  f.emplace_back("reader.shuffle", to_string(r.shuffle));
  f.emplace_back("reader.shuffle_buffer", std::to_string(r.shuffle_buffer));
  f.emplace_back("reader.shuffle_block", std::to_string(r.shuffle_block));
  f.emplace_back("reader.seed", std::to_string(r.seed));
  f.emplace_back("reader.read", to_string(r.read_unit));
  f.emplace_back("reader.request_size", std::to_string(r.request_size_bytes));
  f.emplace_back("reader.header_read", std::to_string(r.header_read_bytes));
  f.emplace_back("reader.iodepth", std::to_string(r.iodepth));
  f.emplace_back("reader.direct", yes_no(r.direct));
  f.emplace_back("reader.drop_last", yes_no(r.drop_last));
  f.emplace_back("reader.startup", exact(r.startup_s));
  f.emplace_back("reader.eval_startup", r.eval_startup_s ? exact(*r.eval_startup_s) : "none");
  f.emplace_back("reader.warmup", exact(r.warmup_s));
  f.emplace_back("reader.preprocess", describe(r.preprocess));
  f.emplace_back("reader.readahead", std::to_string(r.readahead_bytes));
  f.emplace_back("reader.probe", std::to_string(r.probe_bytes));
  std::string recipe = "[";
  for (std::size_t i = 0; i < r.recipe.size(); ++i)
    recipe += (i ? ", " : "") + to_string(r.recipe[i]);
  f.emplace_back("reader.recipe", recipe + "]");
  f.emplace_back("reader.startup_spread", describe(r.startup_spread));
  f.emplace_back("reader.collate", describe(r.collate));
  std::string pace = "[";
  for (std::size_t i = 0; i < r.worker_pace.size(); ++i)
    pace += (i ? ", " : "") + exact(r.worker_pace[i]);
  f.emplace_back("reader.worker_pace", pace + "]");
  f.emplace_back("reader.stream_granule", std::to_string(r.stream_granule_bytes));
  f.emplace_back("reader.stream_tail", std::to_string(r.stream_tail_bytes));
  f.emplace_back("reader.stream_head", std::to_string(r.stream_head_bytes));
}

Fields job_fields(const Job& j) {
  Fields f;
  dataset_fields(f, "dataset", j.dataset);
  f.emplace_back("validation", j.validation ? "a dataset" : "none");
  if (j.validation) dataset_fields(f, "validation", *j.validation);
  reader_fields(f, j.reader);
  const ComputeSpec& c = j.compute;
  f.emplace_back("compute.time", describe(c.effective()));
  f.emplace_back("compute.eval_time", c.eval_time ? describe(*c.eval_time) : "none");
  f.emplace_back("compute.batch_overhead", describe(c.batch_overhead));
  f.emplace_back("compute.eval_batch_overhead",
                 c.eval_batch_overhead ? describe(*c.eval_batch_overhead) : "none");
  f.emplace_back("compute.au_threshold", exact(c.au_threshold));
  checkpoint_fields(f, j.checkpoint);
  const RunSpec& n = j.run;
  f.emplace_back("run.epochs", std::to_string(n.epochs));
  f.emplace_back("run.accelerators", std::to_string(n.accelerators));
  f.emplace_back("run.max_steps", std::to_string(n.max_steps));
  f.emplace_back("run.eval_every_epochs", std::to_string(n.eval_every_epochs));
  f.emplace_back("run.cache", to_string(n.cache));
  f.emplace_back("run.max_time", exact(n.max_seconds));
  f.emplace_back("run.train", yes_no(n.train));
  f.emplace_back("run.sync_steps", yes_no(n.sync_steps));
  f.emplace_back("model", j.model
                              ? "an LLM (" + std::to_string(j.model->num_layers) +
                                    " layers, hidden " + std::to_string(j.model->hidden_size) + ")"
                              : "none");
  return f;
}

// The job as job_fields sees it: what it leaves out cleared, the compute time in force as
// compute.time, a checkpoint that is not enabled as the default one.
Job canonical(Job j) {
  j.name.clear();
  j.description.clear();
  j.source.clear();
  j.scales.clear();
  j.compute.step_time = j.compute.effective();
  j.compute.accelerator.clear();
  j.compute.per_accelerator.clear();
  if (!j.checkpoint.enabled) j.checkpoint = CheckpointSpec{};
  return j;
}

// What a submission may change from the reference (MLPerf Storage v2.0, Rules.md 3.6.2 and
// 3.6.3). Deny by default: a field not named here must equal the reference's, else INVALID.
// `adopt` copies the field from the reference, so that what is left can be compared whole.
enum class Freedom { closed, open };
struct Allowed {
  const char* key;
  Freedom freedom;
  void (*adopt)(Job& to, const Job& from);
};

const std::vector<Allowed>& allowed() {
  static const std::vector<Allowed> a = {
      // CLOSED (3.6.2): dataset.num_files_train, num_subfolders_train, data_folder;
      // reader.read_threads, transfer_size, prefetch_size; the accelerator count, the checkpoint
      // folder; the seeds (the run rules themselves change reader.seed every run; dataset.seed
      // draws each file's size from the same distribution) and the file names.
      {"dataset.num_files", Freedom::closed,
       [](Job& t, const Job& f) { t.dataset.num_files = f.dataset.num_files; }},
      {"dataset.files_per_dir", Freedom::closed,
       [](Job& t, const Job& f) { t.dataset.files_per_dir = f.dataset.files_per_dir; }},
      {"dataset.dir", Freedom::closed, [](Job& t, const Job& f) { t.dataset.dir = f.dataset.dir; }},
      {"dataset.seed", Freedom::closed,
       [](Job& t, const Job& f) { t.dataset.seed = f.dataset.seed; }},
      {"dataset.file_prefix", Freedom::closed,
       [](Job& t, const Job& f) { t.dataset.file_prefix = f.dataset.file_prefix; }},
      {"reader.workers", Freedom::closed,
       [](Job& t, const Job& f) { t.reader.workers = f.reader.workers; }},
      {"reader.request_size", Freedom::closed,
       [](Job& t, const Job& f) { t.reader.request_size_bytes = f.reader.request_size_bytes; }},
      {"reader.prefetch", Freedom::closed,
       [](Job& t, const Job& f) { t.reader.prefetch = f.reader.prefetch; }},
      {"reader.seed", Freedom::closed, [](Job& t, const Job& f) { t.reader.seed = f.reader.seed; }},
      {"checkpoint.dir", Freedom::closed,
       [](Job& t, const Job& f) { t.checkpoint.dir = f.checkpoint.dir; }},
      {"run.accelerators", Freedom::closed,
       [](Job& t, const Job& f) { t.run.accelerators = f.run.accelerators; }},
      // OPEN (3.6.3) also: dataset.format, num_samples_per_file, and the data loader: how a
      // loader reads a sample (dlgen's read unit, requests in flight and access pattern).
      {"dataset.format", Freedom::open,
       [](Job& t, const Job& f) { t.dataset.format = f.dataset.format; }},
      {"dataset.samples_per_file", Freedom::open,
       [](Job& t, const Job& f) { t.dataset.samples_per_file = f.dataset.samples_per_file; }},
      {"reader.read", Freedom::open,
       [](Job& t, const Job& f) { t.reader.read_unit = f.reader.read_unit; }},
      {"reader.iodepth", Freedom::open,
       [](Job& t, const Job& f) { t.reader.iodepth = f.reader.iodepth; }},
      {"reader.header_read", Freedom::open,
       [](Job& t, const Job& f) { t.reader.header_read_bytes = f.reader.header_read_bytes; }},
      {"reader.probe", Freedom::open,
       [](Job& t, const Job& f) { t.reader.probe_bytes = f.reader.probe_bytes; }},
      {"reader.readahead", Freedom::open,
       [](Job& t, const Job& f) { t.reader.readahead_bytes = f.reader.readahead_bytes; }},
      {"reader.recipe", Freedom::open,
       [](Job& t, const Job& f) { t.reader.recipe = f.reader.recipe; }},
      // reader.odirect: CLOSED for unet3d, OPEN for the others (check_division).
      {"reader.direct", Freedom::open,
       [](Job& t, const Job& f) { t.reader.direct = f.reader.direct; }},
  };
  return a;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> job_parameters(const Job& job) {
  return job_fields(job);
}

DivisionCheck check_division(const Job& reference, const Job& job) {
  static const std::string kNotSet = "(not set)";
  DivisionCheck c;
  const bool unet3d = reference.name == "unet3d";
  auto freedom = [&](const std::string& key) -> const Allowed* {
    for (const Allowed& a : allowed())
      if (key == a.key) return &a;
    return nullptr;
  };
  const Fields ref = job_fields(reference), mine = job_fields(job);
  auto value_of = [](const Fields& f, const std::string& key) -> std::string {
    for (const auto& [k, v] : f)
      if (k == key) return v;
    return kNotSet;
  };
  std::vector<std::string> seen;
  auto compare = [&](const std::string& key) {
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) return;
    seen.push_back(key);
    const std::string a = value_of(ref, key), b = value_of(mine, key);
    // A field one side lacks (validation.*, checkpoint.* when not enabled): `validation` and
    // `checkpoint.enabled` already say so.
    if (a == b || a == kNotSet || b == kNotSet) return;
    const Allowed* allow = freedom(key);
    if (!allow) {  // deny by default
      c.division = Division::invalid;
      c.reasons.push_back(key + ": " + b + " (reference " + a + "): not allowed in CLOSED or OPEN");
      return;
    }
    const bool in_closed = key == "reader.direct" ? unet3d : allow->freedom == Freedom::closed;
    if (in_closed) return;
    if (c.division == Division::closed) c.division = Division::open;
    c.reasons.push_back(key + ": " + b + " (reference " + a + "): allowed in OPEN only" +
                        (key == "reader.direct" ? " (O_DIRECT is CLOSED for unet3d only)" : ""));
  };
  for (const auto& [key, _] : ref) compare(key);
  for (const auto& [key, _] : mine) compare(key);
  // Completeness: with every allowed field taken from the reference, the two jobs must be equal
  // as structs. A difference job_fields does not name (a field added to Job later) is INVALID
  // too, named by its section.
  const Job r = canonical(reference);
  Job x = canonical(job);
  for (const Allowed& a : allowed()) a.adopt(x, r);
  if (!(x == r) && c.division != Division::invalid) {
    std::string where;
    auto section = [&](const char* name, bool same) {
      if (!same) where += std::string(where.empty() ? "" : ", ") + name;
    };
    section("dataset", x.dataset == r.dataset);
    section("validation", x.validation == r.validation);
    section("reader", x.reader == r.reader);
    section("compute", x.compute == r.compute);
    section("checkpoint", x.checkpoint == r.checkpoint);
    section("run", x.run == r.run);
    section("model", x.model == r.model);
    c.division = Division::invalid;
    c.reasons.push_back("[" + where +
                        "]: differs from the reference in a field the division check does not "
                        "list: not allowed in CLOSED or OPEN");
  }
  return c;
}

}  // namespace dlgen::mlperf
