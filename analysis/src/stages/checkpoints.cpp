// checkpoints: bursts of writes to checkpoint files, placed among epochs and steps; the steps whose
// interval held one are set apart. In steps: the checkpoint files' events (writes, and reads
// before training: a restore) → bursts split by training going on (CheckpointWrite) → each placed
// after so many epochs and steps → the steps that held one set apart. Evaluation passes are placed
// after so many training steps the same way.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis::stages {

using trace::Event;
using trace::Op;

namespace {

// The events on checkpoint files that write them (data, copies, syncs), in trace order, and the
// files opened with O_DIRECT. opened: per write, when the open it writes through was made (0: not
// seen), so the writes of one open file are known. companion: per write, whether its file is no
// checkpoint file but was written in a directory checkpoint files were written to (a Trainer's
// config.json, trainer_state.json, vocab.txt beside its torch.save files): it joins a checkpoint
// written in the same quiet span and is never one alone (write_groups).
struct CheckpointEvents {
  std::vector<const Event*> writes;
  std::vector<std::uint64_t> opened;
  std::vector<bool> companion;
  std::set<std::uint32_t> direct_files;
};

bool writes_data(const Event& e) {
  return trace::is_write(e.op) || e.op == Op::sendfile || e.op == Op::copy_file_range;
}
bool writes_or_syncs(const Event& e) {
  return writes_data(e) || e.op == Op::fsync || e.op == Op::fdatasync ||
         e.op == Op::sync_file_range;
}

// Per file: 1 a checkpoint file, 2 a companion (CheckpointEvents), 0 neither.
std::vector<int> checkpoint_roles(const trace::Trace& t, const Classified& cls) {
  std::vector<int> role(cls.files.size(), 0);
  std::set<std::string> dirs;
  for (std::size_t f = 0; f < cls.files.size(); ++f)
    if (cls.files[f].cls == FileClass::checkpoint) {
      role[f] = 1;
      if (cls.files[f].bytes_written > 0)
        dirs.insert(std::filesystem::path(cls.files[f].path).parent_path().string());
    }
  for (const auto& e : t.events) {
    if (e.file >= role.size() || role[e.file] != 0 || !trace::is_write(e.op) || e.ret <= 0)
      continue;
    const FileSummary& f = cls.files[e.file];
    if ((f.cls == FileClass::ignored || f.cls == FileClass::other) &&
        dirs.count(std::filesystem::path(f.path).parent_path().string()))
      role[e.file] = 2;
  }
  return role;
}

// Per file: the last read of it before training (0: none, and none without training: a
// checkpoint-only run writes what it reads back). A checkpoint file written before then is the
// restore's staging, not a checkpoint: dlgen's replay writes the checkpoint its restore reads
// when none is there (and syncs it to read storage), the original had one.
std::vector<std::uint64_t> restore_reads(const trace::Trace& t, const std::vector<int>& role,
                                         std::uint64_t first_train) {
  std::vector<std::uint64_t> last(role.size(), 0);
  if (first_train == UINT64_MAX) return last;
  for (const auto& e : t.events)
    if (e.file < role.size() && role[e.file] == 1 && trace::is_read(e.op) && e.ret > 0 &&
        e.ts_ns < first_train)
      last[e.file] = std::max(last[e.file], e.ts_ns);
  return last;
}

// The checkpoint files' writes; their reads before the first training read are a restore (counted
// into `out`).
CheckpointEvents checkpoint_events(const trace::Trace& t, const Classified& cls,
                                   const std::vector<Access>& accesses, Checkpoints& out) {
  CheckpointEvents ev;
  std::uint64_t first_train = UINT64_MAX;
  for (const auto& a : accesses)
    if (cls.files[a.file].cls == FileClass::train) first_train = std::min(first_train, a.ts);
  const std::vector<int> role = checkpoint_roles(t, cls);
  const std::vector<std::uint64_t> restore_read = restore_reads(t, role, first_train);
  std::map<std::pair<std::uint32_t, std::int32_t>, std::uint64_t> open_of;  // (pid, fd) → open
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || e.file >= role.size() || role[e.file] == 0) continue;
    if (e.op == Op::open && (e.flags & 040000) != 0) ev.direct_files.insert(e.file);  // O_DIRECT
    if (e.op == Op::open && e.ret >= 0)
      open_of[{e.pid, static_cast<std::int32_t>(e.ret)}] = e.ts_ns;
    if (writes_or_syncs(e)) {
      if (e.ts_ns < restore_read[e.file]) continue;  // the restore's staging
      ev.writes.push_back(&e);
      auto o = open_of.find({e.pid, e.fd});
      ev.opened.push_back(o == open_of.end() ? 0 : o->second);
      ev.companion.push_back(role[e.file] == 2);
    } else if (role[e.file] == 1 && trace::is_read(e.op) && e.ts_ns < first_train && e.ret > 0) {
      out.restore = true;
      out.restore_bytes += static_cast<std::uint64_t>(e.ret);
      ++out.restore_read_sizes[e.size];
    }
  }
  return ev;
}

// Accelerator 0's batch receipts, sorted; of training passes only when `training_only`.
std::vector<std::uint64_t> receipts_of_first(const Batches& bt, const Passes& p,
                                             bool training_only) {
  std::vector<std::uint64_t> receipts;
  for (const auto& b : bt.batches)
    if (b.accelerator == 0 && b.received_ns &&
        (!training_only || (b.epoch >= 0 && !p.epochs[b.epoch].evaluation)))
      receipts.push_back(b.received_ns);
  std::sort(receipts.begin(), receipts.end());
  return receipts;
}

// Which writes (indices into CheckpointEvents::writes, in trace order) make one checkpoint.
using WriteGroups = std::vector<std::vector<std::size_t>>;

// The writes as checkpoints: a batch receipt between two writes (or, without receipts, a second
// of quiet) means training went on, so a new checkpoint begins; but not within the writes of one
// open of a file (a torch.save writes its file from one open to its close). Behind a pin-memory
// thread receipts are that thread's, which receives the prefetched batches while the loop writes
// the checkpoint (4 torch.saves had been 16 checkpoints; tests/pytorch/heldout_gpu/
// prefetch_imagenet.py). A group of companions' writes alone is no checkpoint (a log or a
// metrics file written beside the checkpoints while training).
WriteGroups write_groups(const CheckpointEvents& ev, const std::vector<std::uint64_t>& receipts) {
  WriteGroups out;
  std::set<std::pair<std::uint32_t, std::uint64_t>> cur_opens;  // (file, open time) written
  std::uint64_t last_end = 0;
  for (std::size_t i = 0; i < ev.writes.size(); ++i) {
    const Event* e = ev.writes[i];
    const std::pair<std::uint32_t, std::uint64_t> open{e->file, ev.opened[i]};
    bool split = out.empty();
    if (!out.empty() && !(open.second && cur_opens.count(open))) {
      auto it = std::upper_bound(receipts.begin(), receipts.end(), last_end);
      if (it != receipts.end() && *it < e->ts_ns) split = true;
      if (receipts.empty() && e->ts_ns > last_end + 1000000000ull) split = true;
    }
    if (split) {
      if (!writes_data(*e)) continue;  // an fsync with no writes before it
      out.emplace_back();
      cur_opens.clear();
    }
    cur_opens.insert(open);
    last_end = std::max(last_end, e->ts_ns + e->dur_ns);
    out.back().push_back(i);
  }
  std::erase_if(out, [&](const std::vector<std::size_t>& g) {
    return std::all_of(g.begin(), g.end(), [&](std::size_t i) { return ev.companion[i]; });
  });
  return out;
}

// The names (no directory) of the files a group wrote data to, in the order first written.
std::vector<std::string> written_names(const CheckpointEvents& ev,
                                       const std::vector<std::size_t>& g, const Classified& cls) {
  std::vector<std::string> names;
  std::set<std::uint32_t> seen;
  for (std::size_t i : g)
    if (writes_data(*ev.writes[i]) && seen.insert(ev.writes[i]->file).second)
      names.push_back(std::filesystem::path(cls.files[ev.writes[i]->file].path).filename());
  return names;
}

// The last group split in two when it is the other groups' save (each wrote the same set of file
// names) followed, with no training between, by files of other names: a final save
// (model_final.pt after the last epoch's checkpoint.pt; a Trainer's save_model after its last
// checkpoint-N directory), a checkpoint of its own.
void split_final_save(WriteGroups& groups, const CheckpointEvents& ev, const Classified& cls) {
  if (groups.size() < 2) return;
  const auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  const std::vector<std::string> usual = sorted(written_names(ev, groups.front(), cls));
  for (std::size_t g = 1; g + 1 < groups.size(); ++g)
    if (sorted(written_names(ev, groups[g], cls)) != usual) return;
  std::vector<std::size_t>& last = groups.back();
  std::set<std::uint32_t> regular;  // the last group's files up to the usual set
  std::size_t at = last.size();
  for (std::size_t j = 0; j < last.size() && at == last.size(); ++j) {
    const Event& e = *ev.writes[last[j]];
    if (!writes_data(e) || regular.count(e.file)) continue;
    if (regular.size() == usual.size())
      at = j;
    else
      regular.insert(e.file);
  }
  std::vector<std::string> names;
  for (auto f : regular) names.push_back(std::filesystem::path(cls.files[f].path).filename());
  if (at == last.size() || sorted(names) != usual) return;
  std::vector<std::size_t> kept, final;
  for (std::size_t j = 0; j < last.size(); ++j)
    (j < at || regular.count(ev.writes[last[j]]->file) ? kept : final).push_back(last[j]);
  last = std::move(kept);
  groups.push_back(std::move(final));
}

// checkpoint.serialize: each writer thread's time from the open of the first file it wrote (or
// its first write) to the end of its last data write, less the time inside its writes and syncs
// (torch.save pickling, GPU tensors copied to the host between writes), summed over the threads.
// Copies (-best) come after and are left out.
std::uint64_t serialize_ns(const CheckpointEvents& ev, const std::vector<std::size_t>& g) {
  struct Span {
    std::uint64_t first = 0, last = 0, busy = 0;
  };
  std::map<std::uint32_t, Span> by_tid;
  const auto copy = [](const Event& e) {
    return e.op == Op::sendfile || e.op == Op::copy_file_range;
  };
  for (std::size_t i : g) {
    const Event& e = *ev.writes[i];
    if (copy(e)) continue;
    Span& s = by_tid[e.tid];
    const std::uint64_t from = ev.opened[i] > 0 && ev.opened[i] <= e.ts_ns ? ev.opened[i] : e.ts_ns;
    if (s.first == 0 || from < s.first) s.first = from;
    if (writes_data(e)) s.last = std::max(s.last, e.ts_ns + e.dur_ns);
  }
  for (std::size_t i : g) {  // the calls up to the last write (an fsync after it is not between)
    const Event& e = *ev.writes[i];
    if (Span& s = by_tid[e.tid]; !copy(e) && e.ts_ns + e.dur_ns <= s.last) s.busy += e.dur_ns;
  }
  std::uint64_t idle = 0;
  for (const auto& [tid, s] : by_tid)
    if (s.last > s.first + s.busy) idle += s.last - s.first - s.busy;
  return idle;
}

// One checkpoint from its writes.
CheckpointWrite checkpoint_of(const CheckpointEvents& ev, const std::vector<std::size_t>& g,
                              const Classified& cls) {
  CheckpointWrite c;
  std::map<Op, std::uint64_t> bytes_by_call;
  std::set<std::uint32_t> files;
  c.start_ns = ev.writes[g.front()]->ts_ns;
  for (std::size_t i : g) {
    const Event* e = ev.writes[i];
    c.end_ns = std::max(c.end_ns, e->ts_ns + e->dur_ns);
    const std::uint64_t done = e->ret > 0 ? static_cast<std::uint64_t>(e->ret) : 0;
    if (!writes_data(*e)) {
      c.fsync = true;
      continue;
    }
    if (e->op == Op::sendfile || e->op == Op::copy_file_range) {
      c.copied_bytes += done;
      if (done) c.copy_call = e->op;
    } else {
      bytes_by_call[e->op] += done;
      c.direct = c.direct || ev.direct_files.count(e->file);
      c.bytes += done;
      ++c.write_ops;
      ++c.write_sizes[e->size];
    }
    if (files.insert(e->file).second) c.paths.push_back(cls.files[e->file].path);
  }
  c.files = static_cast<std::uint32_t>(files.size());
  c.serialize_ns = serialize_ns(ev, g);
  std::uint64_t most = 0;
  for (auto [op, bytes] : bytes_by_call)
    if (bytes > most) most = bytes, c.write_call = op;
  return c;
}

// What counting the steps done before a checkpoint needs. The main thread computes each step in
// one idle gap of a typical length T (the median measured compute); counting gaps of 0.5–1.5 T
// from the start of the pass to the checkpoint gives its step within the pass (a receipt count
// would be too high: PyTorch receives out-of-order batches early and caches them). Passes
// completed before count in full. Without a main-thread timeline, batch receipts stand in.
struct StepClock {
  struct PassSpan {
    std::uint64_t first_receipt, last_receipt, steps;
  };
  double T = 0;  // typical compute, ns
  // The longest regular compute, ns (90th percentile): under gradient accumulation every k-th
  // micro-step also runs the optimizer, a longer gap that is one step all the same.
  double T_long = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> compute_gaps;  // main thread idle ≥ T/2
  std::vector<PassSpan> spans;                // training passes of accelerator 0, in time order
  std::vector<std::uint64_t> train_receipts;  // accelerator 0's, training passes, sorted
  std::vector<std::uint64_t> eval_receipts;   // accelerator 0's, evaluation passes, sorted
};

StepClock step_clock(const trace::Trace& t, const Readers& r, const Passes& p, const Batches& bt,
                     const std::vector<Step>& steps) {
  StepClock sc;
  sc.train_receipts = receipts_of_first(bt, p, true);
  for (const auto& b : bt.batches)
    if (b.accelerator == 0 && b.received_ns && b.epoch >= 0 && p.epochs[b.epoch].evaluation)
      sc.eval_receipts.push_back(b.received_ns);
  std::sort(sc.eval_receipts.begin(), sc.eval_receipts.end());
  std::vector<double> measured;
  for (const auto& st : steps)
    if (st.compute_measured && st.epoch >= 0 && !p.epochs[st.epoch].evaluation)
      measured.push_back(static_cast<double>(st.compute_ns));
  sc.T = detail::percentile(measured, 0.5);
  sc.T_long = std::max(sc.T, detail::percentile(measured, 0.9));
  if (sc.T > 0 && !r.accelerators.empty()) {
    const auto pid = r.accelerators[0].pid;
    std::uint64_t busy_until = 0;
    bool any = false;
    for (const auto& e : t.events) {
      if (e.tid != pid) continue;
      if (any && e.ts_ns > busy_until) {
        const double len = static_cast<double>(e.ts_ns - busy_until);
        if (len >= 0.5 * sc.T) sc.compute_gaps.push_back({busy_until, e.ts_ns});
      }
      busy_until = std::max(busy_until, e.ts_ns + e.dur_ns);
      any = true;
    }
  }
  for (std::size_t pi = 0; pi < p.epochs.size(); ++pi) {
    if (p.epochs[pi].evaluation) continue;
    std::uint64_t first = UINT64_MAX, last = 0, n = 0;
    for (const auto& b : bt.batches)
      if (b.accelerator == 0 && b.epoch == static_cast<std::int32_t>(pi) && b.received_ns)
        first = std::min(first, b.received_ns), last = std::max(last, b.received_ns), ++n;
    if (n) sc.spans.push_back({first, last, n});
  }
  return sc;
}

// Training steps (per accelerator) done before `t`, a checkpoint's first write or an evaluation
// pass's first read (StepClock).
std::uint64_t steps_before(const StepClock& sc, std::uint64_t t, const Passes& p) {
  if (sc.compute_gaps.empty() || sc.spans.empty() || p.from_memory)
    return static_cast<std::uint64_t>(
        std::lower_bound(sc.train_receipts.begin(), sc.train_receipts.end(), t) -
        sc.train_receipts.begin());
  const auto& spans = sc.spans;
  std::uint64_t before = 0;
  std::size_t k = 0;
  while (k + 1 < spans.size() && spans[k + 1].first_receipt < t) before += spans[k++].steps;
  std::uint64_t in_pass = 0;
  // Within the pass a step is one gap of 0.5 T to 1.5 T_long; after its last receipt the last
  // step's gap may be longer (PyTorch joins the workers before the loop ends), so any length
  // counts. (Up to 1.5 T, grad_accum.py's optimizer micro-steps, 20 ms for 12, were lost: its
  // saves every 20 micro-steps were placed after 17, 32, 60, 75, 90, 120.)
  for (const auto& g : sc.compute_gaps) {
    if (g.first < spans[k].first_receipt || g.second > t) continue;
    const double len = static_cast<double>(g.second - g.first);
    if (len <= 1.5 * sc.T_long || g.first >= spans[k].last_receipt) ++in_pass;
  }
  // After the pass: its reads are over, its last batch was received and computed on (a
  // compute gap since) before the checkpoint. Then every step of it is done, however many
  // of its gaps were out of 0.5-1.5 T (DDP: a step's gap also holds the wait for the other
  // ranks' gradients, so step gaps vary more than compute).
  bool reads_done = true;
  for (const auto& e : p.epochs)
    if (!e.evaluation && e.start_ns < t && e.end_ns > t) reads_done = false;
  const bool computed_last =
      std::any_of(sc.compute_gaps.begin(), sc.compute_gaps.end(),
                  [&](const auto& g) { return g.first >= spans[k].last_receipt && g.second <= t; });
  if (reads_done && computed_last && spans[k].last_receipt < t) in_pass = spans[k].steps;
  // An evaluation pass began after the pass's last batch and before the checkpoint: the loop had
  // finished training (it evaluates after its last step), however its gaps fell on a loaded host.
  const auto eval_after =
      std::upper_bound(sc.eval_receipts.begin(), sc.eval_receipts.end(), spans[k].last_receipt);
  if (reads_done && eval_after != sc.eval_receipts.end() && *eval_after < t)
    in_pass = spans[k].steps;
  return before + std::min(in_pass, spans[k].steps);
}

// after_epoch and at_epoch_end of `c`, whose after_step is known. `receipts`: accelerator 0's.
void place_among_epochs(CheckpointWrite& c, const Readers& r, const Passes& p, const Batches& bt,
                        const std::vector<std::uint64_t>& receipts) {
  std::uint32_t done = 0;
  bool between = true;
  for (const auto& e : p.epochs) {
    if (e.evaluation) continue;
    if (e.end_ns <= c.start_ns)
      ++done;
    else if (e.start_ns < c.start_ns)
      between = false;
  }
  c.after_epoch = done;
  // At an epoch end: all of the epoch's batches were received before the checkpoint.
  std::uint64_t steps_done = 0;
  for (std::size_t pi = 0; pi < p.epochs.size(); ++pi)
    if (!p.epochs[pi].evaluation && p.epochs[pi].end_ns <= c.start_ns)
      steps_done += bt.steps_per_pass[pi];
  const std::uint64_t per_acc =
      r.accelerators.empty() ? steps_done : steps_done / r.accelerators.size();
  // Or: no batch of the pass in progress is received after it, and the step count is within
  // one of the pass end (step counts from idle gaps can be off by one on a loaded machine).
  bool next_is_new_pass = true;
  for (const auto& b : bt.batches)
    if (b.accelerator == 0 && b.received_ns > c.end_ns && b.epoch >= 0 &&
        !p.epochs[b.epoch].evaluation) {
      std::uint32_t pass_index = 0;
      for (std::int32_t q = 0; q < b.epoch; ++q) pass_index += !p.epochs[q].evaluation;
      if (pass_index < done) next_is_new_pass = false;
    }
  const std::uint64_t diff =
      c.after_step > per_acc ? c.after_step - per_acc : per_acc - c.after_step;
  c.at_epoch_end = receipts.empty()
                       ? between
                       : (done > 0 && (c.after_step == per_acc || (diff <= 1 && next_is_new_pass)));
}

// Accelerator 0's training steps per pass (0 for an evaluation pass), in pass order.
std::vector<std::uint64_t> training_steps_of_first(const Batches& bt, const Passes& p) {
  std::vector<std::uint64_t> per(p.epochs.size(), 0);
  for (const auto& b : bt.batches)
    if (b.accelerator == 0 && b.epoch >= 0 && !p.epochs[b.epoch].evaluation) ++per[b.epoch];
  return per;
}

// after_epoch and at_epoch_end of `c` from the loop's own step count (StepLaunches: its kernel
// launches or its first touch of each batch, step_touches.cpp): the training passes whose steps
// were all taken before it, and whether it came right after a pass's last step. The passes' reads
// tell nothing here: a loader that prefetches reads an epoch long before the loop takes its steps.
void place_by_steps(CheckpointWrite& c, const std::vector<std::uint64_t>& pass_steps) {
  std::uint64_t done = 0;
  c.after_epoch = 0;
  c.at_epoch_end = false;
  for (const std::uint64_t n : pass_steps) {
    if (n == 0) continue;
    done += n;
    if (done > c.after_step) break;
    ++c.after_epoch;
    c.at_epoch_end = done == c.after_step;
  }
}

// Training steps (per accelerator) done before evaluation pass `pi` began, without the loop's
// kernel launches: one that began between two training passes (none reading at its start)
// follows every step of those before it; one that began while a training pass read (an
// evaluation every N steps, its workers living on) is placed by the main thread's gaps. The gaps
// alone miss: dlgen's replay runs each pass on threads of its own, and its evaluations after an
// epoch had been placed 3 steps into it.
std::uint64_t eval_after_step(const StepClock& sc, const Passes& p, std::size_t pi,
                              const std::vector<std::uint64_t>& pass_steps) {
  const std::uint64_t t = p.epochs[pi].start_ns;
  std::uint64_t before = 0;
  for (std::size_t q = 0; q < p.epochs.size(); ++q) {
    const EpochSummary& e = p.epochs[q];
    if (e.evaluation) continue;
    if (e.start_ns < t && e.end_ns > t) return steps_before(sc, t, p);
    if (e.end_ns <= t) before += pass_steps[q];
  }
  return before;
}

// Steps that span a checkpoint are not step times: set apart (their compute still counts in
// AU). A held step's gap also holds the wait for the checkpoint (an accelerator that did not write
// it idles until the writer is done): its compute is at most the typical one.
void set_apart_held_steps(Checkpoints& out, const Passes& p, const Steps& found) {
  auto spans_checkpoint = [&](const Step& st) {
    for (const auto& c : out.checkpoints)
      if (c.start_ns < st.end_ns && c.end_ns > st.start_ns) return true;
    return false;
  };
  const auto held = std::stable_partition(out.steps.begin(), out.steps.end(),
                                          [&](const Step& st) { return !spans_checkpoint(st); });
  out.checkpoint_steps.assign(held, out.steps.end());
  out.steps.erase(held, out.steps.end());
  for (Step& st : out.checkpoint_steps) {
    const bool eval = st.epoch >= 0 && p.epochs[st.epoch].evaluation;
    const auto typ =
        static_cast<std::uint64_t>(eval ? found.typical_eval_compute_ns : found.typical_compute_ns);
    st.compute_ns = std::min(st.compute_ns, typ);
    st.compute_measured = false;
    const std::uint64_t rest = st.end_ns - st.start_ns - st.compute_ns;
    st.consumer_ns = std::min(st.consumer_ns, rest);
    st.wait_ns = rest - st.consumer_ns;
  }
}

}  // namespace

Checkpoints find_checkpoints(const trace::Trace& t, const Classified& cls,
                             const std::vector<Access>& accesses, const Readers& r, const Passes& p,
                             const Batches& bt, const Steps& found) {
  Checkpoints out;
  out.steps = found.steps;
  const CheckpointEvents ev = checkpoint_events(t, cls, accesses, out);
  const std::vector<std::uint64_t> receipts = receipts_of_first(bt, p, false);
  WriteGroups groups = write_groups(ev, receipts);
  split_final_save(groups, ev, cls);
  for (const auto& g : groups) out.checkpoints.push_back(checkpoint_of(ev, g, cls));
  const StepClock sc = step_clock(t, r, p, bt, out.steps);
  // The loop's own steps when its kernel launches show them, or its first touch of each batch;
  // else its idle gaps (StepClock).
  const std::vector<std::uint64_t> pass_steps = training_steps_of_first(bt, p);
  std::uint64_t train_steps = 0;
  for (const std::uint64_t n : pass_steps) train_steps += n;
  StepLaunches launches = r.accelerators.empty()
                              ? StepLaunches{}
                              : step_launches(t, r.accelerators[0].pid, train_steps);
  if (launches.empty()) launches = step_touches(t, r, p, bt);
  for (auto& c : out.checkpoints) {
    if (!launches.empty()) {
      c.after_step = launches.before(c.start_ns);
      place_by_steps(c, pass_steps);
      continue;
    }
    c.after_step = steps_before(sc, c.start_ns, p);
    place_among_epochs(c, r, p, bt, receipts);
  }
  out.after_step.assign(p.epochs.size(), 0);
  for (std::size_t pi = 0; pi < p.epochs.size(); ++pi)
    if (p.epochs[pi].evaluation)
      out.after_step[pi] = launches.empty() ? eval_after_step(sc, p, pi, pass_steps)
                                            : launches.before(p.epochs[pi].start_ns);
  set_apart_held_steps(out, p, found);
  return out;
}

}  // namespace dlgen::analysis::stages
