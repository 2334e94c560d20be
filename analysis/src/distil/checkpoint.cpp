// [checkpoint] of a distilled job, and the checkpoint-only job of a trace without training
// (sections.hpp).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dlgen/core/limits.hpp"
#include "dlgen/core/units.hpp"
#include "sections.hpp"
#include "stats.hpp"

namespace dlgen::analysis::sections {

namespace {

// The names (no directory) of the files checkpoint `c` wrote, sorted.
std::vector<std::string> file_names(const CheckpointWrite& c) {
  std::vector<std::string> names;
  for (const auto& p : c.paths) names.push_back(std::filesystem::path(p).filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// File names with their digits left out: model_epoch_1.pt and model_epoch_2.pt are one name,
// numbered.
std::vector<std::string> unnumbered(std::vector<std::string> names) {
  for (auto& n : names) std::erase_if(n, [](unsigned char ch) { return std::isdigit(ch) != 0; });
  std::sort(names.begin(), names.end());
  return names;
}

// Whether the last checkpoint is a final save (checkpoint.final_size): it came after the last
// training pass, and the ones before it all wrote one set of file names that it did not (the final
// weights, model_final.pt, after each epoch's checkpoint.pt; a Trainer's save_model after its
// checkpoint-N directories). With one save before it, the names must differ in more than their
// numbers (a save per epoch named by its epoch is no final save). It is then no part of the
// cadence, size or files.
bool final_save(const TraceSummary& s) {
  const auto& c = s.checkpoints;
  if (c.size() < 2) return false;
  std::uint32_t passes = 0;
  for (const auto& e : s.epochs) passes += !e.evaluation;
  const std::vector<std::string> usual = file_names(c.front());
  for (std::size_t i = 1; i + 1 < c.size(); ++i)
    if (file_names(c[i]) != usual) return false;
  if (c.size() == 2 && unnumbered(file_names(c.back())) == unnumbered(usual)) return false;
  return file_names(c.back()) != usual && c.back().after_epoch >= passes && passes > 0;
}

// Whether every checkpoint's directory is named by the step it follows ("checkpoint-500" after
// step 500: a Trainer's save_steps, DeepSpeed's global_step500): a step cadence, even where it
// falls on epoch ends.
bool named_by_step(const std::vector<CheckpointWrite>& cs) {
  for (const auto& c : cs) {
    const std::string dir = std::filesystem::path(c.paths.front()).parent_path().filename();
    std::size_t digits = dir.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(dir[digits - 1]))) --digits;
    if (digits == dir.size() || dir.size() - digits > 18 ||
        std::stoull(dir.substr(digits)) != c.after_step)
      return false;
  }
  return !cs.empty();
}

// What the traced checkpoints have in common, gathered in one pass over them.
struct CheckpointWrites {
  std::vector<double> bytes, files;  // per checkpoint
  std::vector<double> serialize_s;   // per checkpoint: its writers' time outside their calls
  Histogram write_sizes;             // over all checkpoints
  bool all_at_end = true, fsync = false;
  std::vector<std::uint64_t> after_epoch, after_step;  // per checkpoint
  std::uint64_t copied = 0;                            // bytes copied (sendfile, copy_file_range)
  std::uint32_t copies = 0, direct = 0;                // checkpoints copied, written with O_DIRECT
  std::map<trace::Op, std::uint64_t> by_call;          // write call → bytes it carried
  trace::Op copy_call = trace::Op::sendfile;
  bool named_by_step = false;  // each in a directory named by its step (named_by_step)
};

CheckpointWrites gather(const std::vector<CheckpointWrite>& checkpoints) {
  CheckpointWrites w;
  for (const auto& c : checkpoints) {
    if (c.copied_bytes) ++w.copies, w.copy_call = c.copy_call;
    w.direct += c.direct;
    w.by_call[c.write_call] += c.bytes;
    w.bytes.push_back(static_cast<double>(c.bytes));
    w.files.push_back(c.files);
    w.serialize_s.push_back(static_cast<double>(c.serialize_ns) * 1e-9);
    for (auto [sz, n] : c.write_sizes) w.write_sizes[sz] += n;
    w.all_at_end = w.all_at_end && c.at_epoch_end;
    w.fsync = w.fsync || c.fsync;
    w.after_epoch.push_back(c.after_epoch);
    w.after_step.push_back(c.after_step);
    w.copied += c.copied_bytes;
  }
  w.named_by_step = named_by_step(checkpoints);
  return w;
}

// Whether checkpoints after (1-based) epochs `ep` are not what every_epochs = `g` writes in a run
// of `epochs` (after g, 2g, ... up to the last): an explicit list says them then. One checkpoint
// an epoch at most (two after one epoch, a checkpoint and a final save, keep the rule).
bool irregular(const std::vector<std::uint64_t>& ep, std::uint64_t g, std::uint32_t epochs) {
  if (epochs == 0 || !std::is_sorted(ep.begin(), ep.end()) ||
      std::adjacent_find(ep.begin(), ep.end()) != ep.end())
    return false;
  std::vector<std::uint64_t> rule;
  for (std::uint64_t e = g; e <= epochs; e += g) rule.push_back(e);
  return ep != rule && ep.front() >= 1 && ep.back() <= epochs;
}

// checkpoint.every_epochs or every_steps. Step cadence: the median distance between consecutive
// checkpoints (from step 0), robust to a step index off by one; epochs are counted exactly, so
// their gcd is used.
void cadence(JobWriter& x, const CheckpointWrites& w) {
  auto& k = x.out.job.checkpoint;
  const auto& ep = w.after_epoch;
  const auto& st = w.after_step;
  std::vector<double> dsteps;
  for (std::size_t i = 0; i < st.size(); ++i)
    if (st[i] > (i ? st[i - 1] : 0))
      dsteps.push_back(static_cast<double>(st[i] - (i ? st[i - 1] : 0)));
  const std::uint64_t ge = detail::gcd_all(ep);
  const std::uint64_t gs =
      static_cast<std::uint64_t>(std::llround(detail::percentile(dsteps, 0.5)));
  const std::string count = std::to_string(w.bytes.size()) + " checkpoints";
  if (gs > 0 && w.named_by_step) {
    k.every_steps = gs;
    x.evidence("checkpoint.every_steps", count + " after steps " + comma_list(st) +
                                             ", each in a directory named by its step");
  } else if (w.all_at_end && ge > 0 && irregular(ep, ge, x.out.job.run.epochs)) {
    k.after_epochs.assign(ep.begin(), ep.end());
    x.evidence("checkpoint.after_epochs",
               count + ", each at the end of an epoch, in no every-N-epochs rhythm (after epochs " +
                   comma_list(ep) + " of " + std::to_string(x.out.job.run.epochs) +
                   "; e.g. saved only when the validation loss improved)");
  } else if (w.all_at_end && ge > 0) {
    k.every_epochs = static_cast<std::uint32_t>(ge);
    x.evidence("checkpoint.every_epochs",
               count + ", each at the end of an epoch (after epochs " + comma_list(ep) + ")");
  } else if (gs > 0) {
    k.every_steps = gs;
    x.evidence("checkpoint.every_steps", count + " after steps " + comma_list(st));
  } else {
    k.every_epochs = 1;
    x.note("checkpoint cadence: checkpoints not aligned to steps or epochs; every epoch assumed");
  }
}

// The evidence of checkpoint.size: the range of bytes per checkpoint, and with several
// accelerators, which of them wrote.
void size_evidence(JobWriter& x, const CheckpointWrites& w) {
  const TraceSummary& s = x.s;
  const std::string range =
      "median bytes written per checkpoint (" +
      format_size(static_cast<std::uint64_t>(detail::percentile(w.bytes, 0))) + ".." +
      format_size(static_cast<std::uint64_t>(detail::percentile(w.bytes, 1))) + ")";
  if (s.accelerators.size() <= 1) {
    x.evidence("checkpoint.size", range);
    return;
  }
  std::set<std::uint32_t> writers;
  for (const auto& c : s.checkpoints) writers.insert(c.writers.begin(), c.writers.end());
  std::string who;
  for (auto a : writers) who += (who.empty() ? "" : ",") + std::to_string(s.accelerators[a].pid);
  x.evidence("checkpoint.size",
             range + ", by " +
                 (writers.empty() ? std::string("no accelerator process")
                                  : std::to_string(writers.size()) + " of " +
                                        std::to_string(s.accelerators.size()) +
                                        " accelerator processes (pid " + who + ")") +
                 (writers.size() == 1 ? ": one rank saves the whole model (DDP rank 0)" : ""));
}

// How it was written: the write call that carried the most bytes, O_DIRECT, and copies.
void write_calls(JobWriter& x, const CheckpointWrites& w) {
  auto& k = x.out.job.checkpoint;
  trace::Op call = trace::Op::write;
  std::uint64_t most = 0;
  for (auto [op, b] : w.by_call)
    if (b > most) most = b, call = op;
  k.write_call = call == trace::Op::writev || call == trace::Op::pwritev ? WriteCall::writev
                 : call == trace::Op::write                              ? WriteCall::write
                                                                         : WriteCall::pwrite;
  x.evidence(
      "checkpoint.write_call",
      std::string("the write call carrying the most checkpoint bytes: ") + trace::to_string(call));
  k.direct = w.direct * 2 > w.bytes.size();
  x.evidence("checkpoint.direct", std::to_string(w.direct) + " of " +
                                      std::to_string(w.bytes.size()) +
                                      " checkpoints written to files opened with O_DIRECT");
  if (w.copies) {
    k.copy =
        w.copy_call == trace::Op::copy_file_range ? CopyCall::copy_file_range : CopyCall::sendfile;
    k.copy_every = std::max<std::uint32_t>(
        1, static_cast<std::uint32_t>(
               std::lround(static_cast<double>(w.bytes.size()) / static_cast<double>(w.copies))));
    x.evidence("checkpoint.copy",
               std::to_string(w.copies) + " of " + std::to_string(w.bytes.size()) +
                   " checkpoints copied (" + format_size(w.copied) + " with " +
                   trace::to_string(w.copy_call) + ", e.g. shutil.copyfile of a best model)");
  }
}

// checkpoint.serialize: the median time a checkpoint's writers spent outside their write calls,
// written from a millisecond on (torch.save of a GPU model: 0.11-0.15 s of 0.15-0.21 s).
void serialize_time(JobWriter& x, const CheckpointWrites& w) {
  if (w.serialize_s.empty()) return;
  const double med = detail::percentile(w.serialize_s, 0.5);
  if (med < 1e-3) return;
  x.out.job.checkpoint.serialize_s = med;
  const auto [lo, hi] = std::minmax_element(w.serialize_s.begin(), w.serialize_s.end());
  x.evidence("checkpoint.serialize",
             "median time the saving program spent outside its write calls per checkpoint, from "
             "opening it to its last write (" +
                 format_duration(*lo) + ".." + format_duration(*hi) + " over " +
                 std::to_string(w.serialize_s.size()) +
                 " checkpoints): pickling the state and copying it to the host between writes");
}

// Where the replay writes its checkpoints: checkpoints/NAME for files; for objects the traced
// program wrote to an S3 store (prepass/object_writes.hpp), a new prefix of the same bucket,
// s3://BUCKET/dlgen/checkpoints/NAME (never the traced one, as for the dataset).
// A dataset of files keeps its checkpoints in a directory (one engine replays them).
std::filesystem::path checkpoint_dir(const TraceSummary& s, const std::string& name) {
  const std::string& traced = s.checkpoints.front().paths.front();
  const int ti = train_dataset(s);
  if (!traced.starts_with("s3://") || ti < 0 || !s.datasets[ti].dir.starts_with("s3://"))
    return std::filesystem::path("checkpoints") / name;
  return traced.substr(0, traced.find('/', 5)) + "/dlgen/checkpoints/" + name;
}

// checkpoint.part_size: objects uploaded in parts (prepass/object_writes.hpp: a write per part)
// of `part` bytes, smaller than a shard, are multipart uploads of that part size; the s3 engine
// would otherwise PUT a shard up to 8 MiB whole (resume_ckpt.py: 7.5 MiB in 2 parts of 5 MiB).
void upload_parts(JobWriter& x, std::uint64_t part) {
  auto& k = x.out.job.checkpoint;
  constexpr std::uint64_t kMinPart = 5ull << 20;  // S3's smallest part but the last
  if (!k.dir.string().starts_with("s3://") || part < kMinPart || k.files < 1 ||
      part >= k.size_bytes / k.files)
    return;
  k.part_size_bytes = part;
  x.evidence("checkpoint.part_size", "each checkpoint object was a multipart upload in parts of " +
                                         format_size(part) + " (its " +
                                         format_size(k.size_bytes / k.files) + " in several)");
}

// [checkpoint] from the checkpoints the trace shows written during training.
void written_checkpoints(JobWriter& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  auto& k = job.checkpoint;
  const bool last_is_final = final_save(s);
  const std::vector<CheckpointWrite> regular(s.checkpoints.begin(),
                                             s.checkpoints.end() - (last_is_final ? 1 : 0));
  const CheckpointWrites w = gather(regular);
  k.enabled = true;
  if (last_is_final) {
    const CheckpointWrite& f = s.checkpoints.back();
    k.final_size_bytes = std::max<std::uint64_t>(f.bytes, f.files);
    k.final_files = std::max<std::uint32_t>(f.files, 1);
    x.evidence("checkpoint.final_size",
               "the last save, after the last training step, in files of other names than the " +
                   std::to_string(regular.size()) + " before it (" +
                   std::filesystem::path(f.paths.front()).filename().string() + "): a final save");
    x.evidence("checkpoint.final_files", "files of the final save");
  }
  k.size_bytes = static_cast<std::uint64_t>(detail::percentile(w.bytes, 0.5));
  k.files = std::max<std::uint32_t>(
      1, static_cast<std::uint32_t>(std::lround(detail::percentile(w.files, 0.5))));
  std::uint64_t best = 0, best_bytes = 0;
  for (auto [sz, n] : w.write_sizes)
    if (sz * n > best_bytes) best = sz, best_bytes = sz * n;
  if (best) k.write_size_bytes = best;
  k.fsync = w.fsync;
  cadence(x, w);
  size_evidence(x, w);
  x.evidence("checkpoint.files", "files written per checkpoint (median)");
  x.evidence("checkpoint.write_size", "write request size carrying the most bytes");
  x.evidence("checkpoint.fsync",
             w.fsync ? "fsync/fdatasync seen on checkpoint files" : "no fsync seen");
  k.dir = checkpoint_dir(s, job.name);
  x.evidence("checkpoint.dir",
             "synthetic checkpoints; the traced run wrote " + s.checkpoints.front().paths.front());
  upload_parts(x, best);
  write_calls(x, w);
  serialize_time(x, w);
}

// checkpoint.read_size: the restore's read request size carrying the most bytes (boto3's
// download_fileobj: ranged GETs of its multipart_chunksize), when it is not the write size, which
// the replay's reads would take otherwise (resume_ckpt.py: 4 GETs of 2 MiB, restored in GETs of
// the 5 MiB write size).
void restore_read_size(JobWriter& x) {
  auto& k = x.out.job.checkpoint;
  std::uint64_t best = 0, best_bytes = 0, reads = 0;
  for (auto [size, n] : x.s.restore_read_sizes) {
    reads += n;
    if (size * n > best_bytes) best = size, best_bytes = size * n;
  }
  best = std::min(best, limits::kMaxRequestBytes);
  if (best == 0 || best == k.write_size_bytes) return;
  k.read_size_bytes = best;
  x.evidence("checkpoint.read_size",
             "read request size carrying the most bytes of the " + std::to_string(reads) +
                 " reads of checkpoint files before training (" + format_size(x.s.restore_bytes) +
                 "; the write size is " + format_size(k.write_size_bytes) + ")");
}

}  // namespace

// [checkpoint]: the checkpoints written during training, and a restore read before it.
void distil_checkpoint(JobWriter& x) {
  const TraceSummary& s = x.s;
  Job& job = x.out.job;
  auto& k = job.checkpoint;
  if (!s.checkpoints.empty()) written_checkpoints(x);
  if (s.checkpoint_restore) {
    k.restore = true;
    if (k.dir.empty()) k.dir = std::filesystem::path("checkpoints") / job.name;
    x.evidence("checkpoint.restore",
               format_size(s.restore_bytes) + " of checkpoint files read before training");
    restore_read_size(x);
  }
}

// No training dataset, only checkpoints written and read back (DLIO's checkpointing workflow,
// MLPerf Storage's LLM checkpointing, a program that saves and loads a model): a checkpoint-only
// job (run.train = false) that writes `writes` checkpoints, then reads `reads` of them.
void distil_checkpoint_only(JobWriter& x) {
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
  k.after_epochs.clear();
  k.restore = false;
  // The workflow measures the storage alone: no program's time between writes (a training
  // job's checkpoint.serialize); the evidence written for it goes too.
  if (k.serialize_s > 0) {
    k.serialize_s = 0;
    x.out.comments.erase("checkpoint.serialize");
  }
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
  x.evidence("run.train", "no training dataset read, checkpoints written: a checkpoint-only job");
  x.evidence("checkpoint.writes",
             std::to_string(writes) + " checkpoints written (" + format_size(bytes) + " in " +
                 std::to_string(files) + " files" +
                 (writes > s.checkpoints.size() ? ", told apart by their directories" : "") + ")");
  x.evidence("checkpoint.size", "bytes written per checkpoint (mean)");
  x.evidence("checkpoint.files", "files written per checkpoint (mean)");
  x.evidence("checkpoint.reads",
             s.checkpoint_restore ? format_size(s.restore_bytes) +
                                        " of checkpoint files read back: " + std::to_string(reads) +
                                        " checkpoints' worth"
                                  : "no checkpoint read back");
  x.why("checkpoint-only: " + std::to_string(writes) + " checkpoints written, " +
        std::to_string(reads) + " read back, no dataset");
}

}  // namespace dlgen::analysis::sections
