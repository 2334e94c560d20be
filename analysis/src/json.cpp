// The summary as JSON: every field, names as in summary.hpp, histograms as [value, count] pairs.
#include "dlgen/core/json.hpp"

#include "dlgen/analysis/distil.hpp"

namespace dlgen::analysis {
namespace {

using nlohmann::json;

json hist(const Histogram& h) {
  json a = json::array();
  for (auto [v, c] : h) a.push_back({v, c});
  return a;
}

template <class K>
json hist_map(const std::map<K, std::uint64_t>& h) {
  json a = json::array();
  for (auto [v, c] : h) a.push_back({v, c});
  return a;
}

json stats(const Stats& s) {
  return {{"count", s.count}, {"min", s.min}, {"max", s.max}, {"mean", s.mean},
          {"stdev", s.stdev}, {"p50", s.p50}, {"p90", s.p90}, {"p99", s.p99}};
}

// The dataset's layout, how it was read (with the learned recipe) and in what order.
json dataset(const DatasetSummary& d) {
  json o = {{"kind", to_string(d.order.kind)},
            {"spearman", d.order.spearman},
            {"spearman_z", d.order.spearman_z},
            {"ascending_fraction", d.order.ascending_fraction},
            {"cross_epoch_spearman", d.order.cross_epoch_spearman},
            {"reshuffled", d.order.reshuffled},
            {"buffer_estimate", d.order.buffer_estimate},
            {"each_file_once", d.order.each_file_once}};
  if (d.order.block_samples > 0) o["block_samples"] = d.order.block_samples;
  json r = {{"reads_per_access", d.read.reads_per_access},
            {"coverage", d.read.coverage},
            {"whole_file", d.read.whole_file},
            {"request_bytes", d.read.request_bytes},
            {"header_bytes", d.read.header_bytes},
            {"direct", d.read.direct},
            {"mmap", d.read.mmap},
            {"request_sizes", hist(d.read.request_sizes)}};
  json steps = json::array();
  for (const RecipeStep& st : d.recipe.recipe) steps.push_back(to_string(st));
  r["recipe"] = {{"steps", steps},
                 {"accesses", d.recipe.accesses},
                 {"explained", d.recipe.explained},
                 {"templates", d.recipe.templates}};
  json j = {{"dir", d.dir},
            {"class", to_string(d.cls)},
            {"files", d.files.size()},
            {"file_sizes", d.file_sizes},
            {"size", stats(d.size)},
            {"total_bytes", d.total_bytes},
            {"extension", d.extension},
            {"format", d.format ? to_string(*d.format) : "unknown"},
            {"format_evidence", d.format_evidence},
            {"dirs", d.dirs},
            {"files_per_dir", d.files_per_dir},
            {"depth", d.depth},
            {"read", r},
            {"order", o},
            {"accesses", d.accesses},
            {"bytes_read", d.bytes_read}};
  // Samples of several files: the key only then, so one-file samples read as before.
  if (d.files_per_sample > 1) j["files_per_sample"] = d.files_per_sample;
  if (d.listed_files > d.files.size()) j["listed_files"] = d.listed_files;
  // A stream's granule and tail: only where one was found, so other datasets read as before.
  if (d.stream.granule_bytes > 0)
    j["stream"] = {{"granule_bytes", d.stream.granule_bytes}, {"inner_reads", d.stream.inner_reads},
                   {"granule_reads", d.stream.granule_reads}, {"tail_bytes", d.stream.tail_bytes},
                   {"accesses", d.stream.accesses},           {"tails", d.stream.tails}};
  return j;
}

// The traced command, its duration, lost events and hosts.
void add_run(json& j, const TraceSummary& s) {
  j["command"] = s.command;
  j["duration_ns"] = s.duration_ns;
  j["lost_events"] = s.lost_events;
  j["complete"] = s.complete;
  j["hosts"] = json::array();
  for (const auto& h : s.hosts)
    j["hosts"].push_back({{"host", h.host},
                          {"rank", h.rank},
                          {"source", h.source},
                          {"accelerators", h.accelerators}});
}

// Every process and thread, with its role.
void add_processes(json& j, const TraceSummary& s) {
  for (const auto& p : s.processes)
    j["processes"].push_back({{"pid", p.pid},
                              {"tgid", p.tgid},
                              {"ppid", p.ppid},
                              {"comm", p.comm},
                              {"is_thread", p.is_thread},
                              {"role", to_string(p.role)},
                              {"accelerator", p.accelerator},
                              {"bytes_read", p.bytes_read},
                              {"read_ops", p.read_ops},
                              {"samples_read", p.samples_read},
                              {"handovers", p.handovers}});
}

// How many files of each class, and the files read or written besides the datasets.
void add_files(json& j, const TraceSummary& s) {
  std::map<std::string, std::uint64_t> classes;
  for (const auto& f : s.files) ++classes[to_string(f.cls)];
  j["file_classes"] = classes;
  for (const auto& f : s.files)
    if (f.cls != FileClass::ignored && f.cls != FileClass::train && f.cls != FileClass::validation)
      j["other_files"].push_back({{"path", f.path},
                                  {"class", to_string(f.cls)},
                                  {"bytes_read", f.bytes_read},
                                  {"bytes_written", f.bytes_written}});
}

// The accelerators (processes that consume batches) and their readers.
void add_accelerators(json& j, const TraceSummary& s) {
  for (const auto& a : s.accelerators)
    j["accelerators"].push_back({{"pid", a.pid},
                                 {"host", a.host},
                                 {"readers", a.readers},
                                 {"workers", a.workers},
                                 {"reads_itself", a.reads_itself}});
}

// The passes, the batches handed over and the accelerators' steps.
void add_timeline(json& j, const TraceSummary& s) {
  for (const auto& e : s.epochs) {
    json rc = json::array();
    for (auto [rank, n] : e.read_counts) rc.push_back({rank, n});
    j["epochs"].push_back({{"index", e.index},
                           {"dataset", e.dataset},
                           {"evaluation", e.evaluation},
                           {"start_ns", e.start_ns},
                           {"end_ns", e.end_ns},
                           {"accesses", e.accesses},
                           {"unique_files", e.unique_files},
                           {"bytes_read", e.bytes_read},
                           {"read_ops", e.read_ops},
                           {"steps", e.steps},
                           {"after_step", e.after_step},
                           {"reader_count", e.reader_count},
                           {"order", e.order},
                           {"read_counts", rc}});
  }
  for (const auto& b : s.batches)
    j["batches"].push_back({{"ready_ns", b.ready_ns},
                            {"received_ns", b.received_ns},
                            {"worker", b.worker},
                            {"accelerator", b.accelerator},
                            {"samples", b.samples},
                            {"epoch", b.epoch}});
  const auto step = [](const Step& st) {
    return json{{"accelerator", st.accelerator},         {"start_ns", st.start_ns},
                {"end_ns", st.end_ns},                   {"compute_ns", st.compute_ns},
                {"wait_ns", st.wait_ns},                 {"compute_measured", st.compute_measured},
                {"epoch", st.epoch}};
  };
  for (const auto& st : s.steps) j["steps"].push_back(step(st));
  // The steps whose interval held a checkpoint (left out of step time, computed on all the same).
  for (const auto& st : s.checkpoint_steps) j["checkpoint_steps"].push_back(step(st));
}

// The checkpoints written, and a restore read before training.
void add_checkpoints(json& j, const TraceSummary& s) {
  for (const auto& c : s.checkpoints)
    j["checkpoints"].push_back({{"start_ns", c.start_ns},
                                {"end_ns", c.end_ns},
                                {"bytes", c.bytes},
                                {"files", c.files},
                                {"write_ops", c.write_ops},
                                {"fsync", c.fsync},
                                {"copied_bytes", c.copied_bytes},
                                {"after_epoch", c.after_epoch},
                                {"after_step", c.after_step},
                                {"at_epoch_end", c.at_epoch_end},
                                {"paths", c.paths},
                                {"writers", c.writers},
                                {"write_sizes", hist(c.write_sizes)}});
  j["checkpoint_restore"] = s.checkpoint_restore;
  j["restore_bytes"] = s.restore_bytes;
  j["restore_read_sizes"] = hist(s.restore_read_sizes);
}

// Whole-run totals, request and block sizes, reads in flight, per-second buckets.
void add_totals(json& j, const TraceSummary& s) {
  j["totals"] = {{"bytes_read", s.bytes_read},
                 {"bytes_written", s.bytes_written},
                 {"read_ops", s.read_ops},
                 {"write_ops", s.write_ops},
                 {"opens", s.opens},
                 {"stats", s.stats},
                 {"dataset_bytes_read", s.dataset_bytes_read},
                 {"dataset_read_ops", s.dataset_read_ops},
                 {"block_bytes", s.block_bytes},
                 {"block_requests", s.block_requests}};
  j["request_sizes"] = hist(s.request_sizes);
  j["block_sizes"] = hist(s.block_sizes);
  j["concurrency"] = {{"inflight_ns", hist_map(s.concurrency.inflight_ns)},
                      {"readers_ns", hist_map(s.concurrency.readers_ns)},
                      {"max_inflight", s.concurrency.max_inflight},
                      {"mean_inflight", s.concurrency.mean_inflight},
                      {"max_readers", s.concurrency.max_readers}};
  for (const auto& b : s.per_second)
    j["per_second"].push_back({{"bytes_read", b.bytes_read},
                               {"bytes_written", b.bytes_written},
                               {"read_ops", b.read_ops},
                               {"write_ops", b.write_ops}});
}

// Batch size, prefetch, step/compute/wait statistics and AU.
void add_timing(json& j, const TraceSummary& s) {
  j["batch_size"] = s.batch_size;
  j["prefetch"] = s.prefetch;
  j["step_time_s"] = stats(s.step_time);
  j["compute_time_s"] = stats(s.compute_time);
  j["data_wait_time_s"] = stats(s.data_wait_time);
  // AU as the replay defines it (docs/metrics.md): the lowest accelerator's, their mean, and each.
  j["au"] = {{"measured", s.au_measured},
             {"au", s.au},
             {"mean", s.au_mean},
             {"run_begin_ns", s.run_begin_ns},
             {"run_end_ns", s.run_end_ns}};
  for (const auto& a : s.accelerators)
    j["au"]["per_accelerator"].push_back({{"pid", a.pid},
                                          {"au", a.au},
                                          {"compute_s", a.au_compute_s},
                                          {"wall_s", a.au_wall_s},
                                          {"first_wait_s", a.first_wait_s},
                                          {"prefetch", a.prefetch}});
  // Per pass, per accelerator: seconds from the pass's first dataset read to the accelerator's
  // (-1: none); reader.startup_spread is distilled from these.
  j["accelerator_starts_s"] = s.accelerator_starts_s;
}

// The compute measured on the GPU's timeline, and the AU it gives.
void add_gpu(json& j, const TraceSummary& s) {
  j["gpu_compute"] = {{"measured", s.gpu.measured},
                      {"step_s", s.gpu.step_s},
                      {"eval_step_s", s.gpu.eval_step_s},
                      {"intervals_s", s.gpu.intervals_s},
                      {"eval_intervals_s", s.gpu.eval_intervals_s},
                      {"steps", s.gpu.steps},
                      {"eval_steps", s.gpu.eval_steps},
                      {"copies_per_step", s.gpu.copies_per_step},
                      {"gpu_bound", s.gpu.gpu_bound},
                      {"eval_gpu_bound", s.gpu.eval_gpu_bound},
                      {"busy_steps", s.gpu.busy_steps},
                      {"data_wait_s", s.gpu.data_wait_s},
                      {"devices", s.gpu.devices},
                      {"driver", s.gpu.driver}};
  // The original's AU measured on the GPU (docs/metrics.md): null without CUDA events.
  if (s.au_gpu.measured) {
    j["au_gpu"] = {{"source", s.au_gpu.source}, {"au", s.au_gpu.au}, {"mean", s.au_gpu.au_mean}};
    for (const auto& a : s.au_gpu.accelerators)
      j["au_gpu"]["per_accelerator"].push_back({{"measured", a.measured},
                                                {"au", a.au},
                                                {"busy_s", a.busy_s},
                                                {"wall_s", a.wall_s},
                                                {"steps", a.steps},
                                                {"eval_steps", a.eval_steps},
                                                {"seen_steps", a.seen_steps},
                                                {"seen_s", a.seen_s}});
  } else {
    j["au_gpu"] = nullptr;
  }
}

}  // namespace

std::string to_json(const TraceSummary& s) {
  json j;
  add_run(j, s);
  add_processes(j, s);
  add_files(j, s);
  add_accelerators(j, s);
  for (const auto& d : s.datasets) j["datasets"].push_back(dataset(d));
  add_timeline(j, s);
  add_checkpoints(j, s);
  add_totals(j, s);
  add_timing(j, s);
  add_gpu(j, s);
  j["notes"] = s.notes;
  return j.dump(2);
}

}  // namespace dlgen::analysis
