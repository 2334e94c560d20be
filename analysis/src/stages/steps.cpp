// steps: each accelerator's steps (batch received → next batch received) with their compute and
// data wait.
#include <algorithm>
#include <map>
#include <set>

#include "consumer_cost.hpp"
#include "step_gaps.hpp"
#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis::stages {
namespace {

using trace::Op;
using namespace gaps;  // NOLINT: the idle-gap reading find_steps is made of

// The threads of process `pid` other than its main thread, as its events show them.
std::set<std::uint32_t> own_threads(const trace::Trace& t, std::uint32_t pid) {
  std::set<std::uint32_t> own;
  for (const auto& e : t.events)
    if (e.pid == pid && e.tid != pid) own.insert(e.tid);
  return own;
}

// The threads whose syscall timeline shows the accelerator's steps: the main thread, except in
// a process whose readers are its own threads handing batches to a consumer thread (dlgen's
// replay: reader threads sendmsg, the accelerator thread recvmsg), where the main thread only
// waits (or loads the dataset); then the threads that receive the batches (the replay starts a
// new one each pass), and each pass is read on the one that received most in it (pass_timeline).
std::vector<std::uint32_t> timeline_threads(const trace::Trace& t, const Readers& readers,
                                            std::size_t ai) {
  const auto& acc = readers.accelerators[ai];
  const auto pid = acc.pid;
  if (acc.reads_itself || acc.readers.empty()) return {pid};
  // The readers are threads of this process whether or not they read a file (with dataset.load =
  // "memory" they read nothing); PyTorch's DataLoader workers are processes of their own.
  const std::set<std::uint32_t> own = own_threads(t, pid);
  for (auto r : acc.readers)
    if (!own.count(r)) return {pid};
  std::set<std::uint32_t> receivers;
  for (const auto& e : t.events)
    if (e.op == Op::recvmsg && e.pid == pid) receivers.insert(e.tid);
  if (receivers.empty() || receivers.count(pid)) return {pid};
  return {receivers.begin(), receivers.end()};
}

// Of `threads`, the one with most recvmsg calls in [w0, w1] (the first when none has any).
std::uint32_t pass_timeline(const trace::Trace& t, const std::vector<std::uint32_t>& threads,
                            std::uint64_t w0, std::uint64_t w1) {
  if (threads.size() == 1) return threads.front();
  std::map<std::uint32_t, std::size_t> recvs;
  for (const auto& e : t.events)
    if (e.op == Op::recvmsg && e.ts_ns + e.dur_ns >= w0 && e.ts_ns <= w1) ++recvs[e.tid];
  std::uint32_t best = threads.front();
  std::size_t most = 0;
  for (auto tid : threads)
    if (recvs[tid] > most) best = tid, most = recvs[tid];
  return best;
}

// The threads of the accelerator process that receive its workers' batches when that is not its
// main thread: PyTorch's pin-memory thread (`pt_data_pin`, one per pass) receives each batch
// (recvmsg on the workers' sockets, the /dev/shm tensors mapped) and hands it to the training loop
// through an in-process queue, so no syscall of the loop marks its steps. Empty when the main
// thread receives, or when the readers are the process's own threads (the replay's shape: its
// receiving threads are the consumers, timeline_threads).
std::vector<std::uint32_t> in_process_receivers(const trace::Trace& t, const Readers& readers,
                                                std::size_t ai) {
  const auto& acc = readers.accelerators[ai];
  const auto pid = acc.pid;
  if (acc.reads_itself || acc.readers.empty()) return {};
  const std::set<std::uint32_t> own = own_threads(t, pid);
  for (auto r : acc.readers)
    if (r == pid || own.count(r)) return {};  // it reads for itself, or its threads do
  std::set<std::uint32_t> receivers;
  for (const auto& e : t.events)
    if (e.op == Op::recvmsg && e.pid == pid) receivers.insert(e.tid);
  if (receivers.empty() || receivers.count(pid)) return {};
  return {receivers.begin(), receivers.end()};
}

// The exit of thread `tid` at or after `after` (0: none recorded).
std::uint64_t thread_exit(const trace::Trace& t, std::uint32_t tid, std::uint64_t after) {
  for (const auto& e : t.events)
    if (e.op == Op::exit && e.tid == tid && e.ts_ns >= after) return e.ts_ns;
  return 0;
}

// The steps of one pass behind an in-process hand-over (detail::fitted_compute): the pass's batches
// arrive at `receivers`' thread that received most of them, and the loop's last step ends when
// that thread exits (PyTorch stops its pin-memory thread when the loop asks for the batch after
// the last). A step that did not wait for its successor's arrival is measured compute. False
// (nothing added) when the thread does not exit after the pass's last receipt and before the
// next pass's first (a persistent thread).
// The steps of such a pass when the loop copies each batch to the GPU (cuda_htod of the loop's
// process, the same whole number k >= 1 of copies for each of the pass's n batches between its
// first receipt and the receiving thread's exit): step i starts at its batch's first copy and
// ends at the next one's, the last at that exit; the first step's wait is from its batch's
// receipt to its copy (the pin thread pinning it), and a step is measured compute when the next
// batch had been received before it began. False (nothing added) when the copies do not fit.
bool copied_steps(const trace::Trace& t, std::uint32_t pid, const std::vector<std::uint64_t>& arrivals,
                  std::uint64_t end, std::int32_t pass, std::uint32_t accelerator,
                  std::vector<Step>& steps) {
  std::vector<std::uint64_t> copies;
  for (const auto& e : t.events)
    if (e.op == Op::cuda_htod && e.pid == pid && e.ts_ns >= arrivals.front() && e.ts_ns < end)
      copies.push_back(e.ts_ns);
  const std::size_t n = arrivals.size();
  if (n < 2 || copies.empty() || copies.size() % n != 0) return false;
  const std::size_t k = copies.size() / n;
  std::sort(copies.begin(), copies.end());
  for (std::size_t i = 0; i < n; ++i)
    if (copies[k * i] < arrivals[i]) return false;  // a copy before its batch arrived: not steps
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t begin = copies[k * i];
    const bool last = i + 1 == n;
    Step st;
    st.accelerator = accelerator;
    st.epoch = pass;
    st.start_ns = i == 0 ? arrivals.front() : begin;
    st.end_ns = last ? end : copies[k * (i + 1)];
    st.wait_ns = begin - st.start_ns;
    st.compute_ns = st.end_ns - begin;
    st.compute_measured = !last && arrivals[i + 1] <= begin;
    steps.push_back(st);
  }
  return true;
}

bool handed_over_steps(const trace::Trace& t, const std::vector<std::uint32_t>& receivers,
                       std::uint32_t pid, const std::vector<const Batch*>& bs,
                       const std::map<std::int32_t, std::vector<const Batch*>>& per_pass,
                       std::int32_t pass, std::uint32_t accelerator, std::vector<Step>& steps) {
  const std::uint64_t w0 = bs.front()->received_ns, w1 = bs.back()->received_ns;
  const std::uint64_t end = thread_exit(t, pass_timeline(t, receivers, w0, w1), w1);
  if (end <= w1) return false;
  if (auto next = per_pass.upper_bound(pass);
      next != per_pass.end() && end > next->second.front()->received_ns)
    return false;
  std::vector<std::uint64_t> arrivals;
  for (const Batch* b : bs) arrivals.push_back(b->received_ns);
  if (copied_steps(t, pid, arrivals, end, pass, accelerator, steps)) return true;
  const std::uint64_t c = detail::fitted_compute(arrivals, end);
  std::uint64_t take = arrivals.front();
  for (std::size_t i = 0; i < arrivals.size(); ++i) {
    const bool last = i + 1 == arrivals.size();
    const std::uint64_t next = last ? take + c : std::max(take + c, arrivals[i + 1]);
    Step st;
    st.accelerator = accelerator;
    st.epoch = pass;
    st.start_ns = take;
    st.end_ns = next;
    st.compute_ns = c;
    // The last step runs into the pass's shut-down: a step, never a measurement.
    st.compute_measured = !last && next == take + c;
    steps.push_back(st);
    take = next;
  }
  return true;
}

// What find_steps gathers over the accelerators before it can settle the typical compute.
struct Found {
  std::vector<Step> steps;
  std::vector<double> computes_measured, eval_computes_measured;  // ns
  // Passes in which an accelerator received one batch: no gap between receipts to measure; the
  // batch is still one step (n batches are n steps, and its compute counts in AU): the main
  // thread's idle gap after the receipt when it has a typical length, else the typical length.
  struct Single {
    std::uint32_t accelerator;
    std::int32_t pass;
    std::uint64_t received_ns;
    std::uint64_t gap_end_ns;  // end of the first idle gap (≥ 0.5 ms) after the receipt, 0: none
  };
  std::vector<Single> singles;
  bool fitted = false;  // some pass's steps came from handed_over_steps
  // Steps of a consumer that loads its own batches (self_loaded_steps), their time already split
  // into compute and wait; a pass's last one (compute_measured false) waits for the typical
  // compute.
  std::vector<Step> self_loaded;
  void measured(bool eval, double compute_ns) {
    (eval ? eval_computes_measured : computes_measured).push_back(compute_ns);
  }
};

// The batches accelerator `ai` received, in receipt order.
std::vector<const Batch*> received_batches(const Batches& bt, std::size_t ai) {
  std::vector<const Batch*> got;
  for (const auto& b : bt.batches)
    if (b.accelerator == ai && b.received_ns) got.push_back(&b);
  std::sort(got.begin(), got.end(),
            [](const Batch* a, const Batch* b) { return a->received_ns < b->received_ns; });
  return got;
}

// One step per interval of `in` (pass_step_gaps); a gap is measured compute when the batch taken
// next was ready before it ended (or none began to be received right after it, receipt_starts:
// it was cached).
void gap_steps(const std::vector<Gap>& in, const std::vector<const Batch*>& bs,
               const std::vector<std::uint64_t>& starts, std::int32_t pass,
               std::uint32_t accelerator, bool eval, Found& found) {
  const std::uint64_t w1 = bs.back()->received_ns;
  for (std::size_t i = 0; i < in.size(); ++i) {
    Step st;
    st.accelerator = accelerator;
    st.epoch = pass;
    st.start_ns = in[i].first;
    st.end_ns = i + 1 < in.size() ? std::max(in[i].second, in[i + 1].first) : in[i].second;
    const std::uint64_t gap = in[i].second - in[i].first;
    // The batches received right after the gap: were they ready before it ended?
    std::uint64_t earliest_ready = UINT64_MAX;
    bool received = false;
    for (std::size_t k = 0; k < bs.size(); ++k)
      if (starts[k] >= in[i].second && starts[k] <= in[i].second + 5000000) {
        received = true;
        earliest_ready = std::min(earliest_ready, bs[k]->ready_ns);
      }
    const std::uint64_t margin = std::max<std::uint64_t>(1000000, gap / 10);
    // The gap after the pass's last receipt also holds the end of the pass (worker
    // shutdown): it counts as a step, never as a measurement.
    const bool tail = in[i].first >= w1;
    st.compute_measured = !tail && (!received || earliest_ready + margin < in[i].second);
    if (st.compute_measured) {
      st.compute_ns = gap;
      found.measured(eval, static_cast<double>(gap));
    }
    found.steps.push_back(st);
  }
}

// The steps of a consumer that loads its own batches (PyTorch num_workers=0, nanoGPT's get_batch):
// each batch is a burst of its reads (Batches::burst_starts, ready at its last read's end), and
// it computes on a batch until it loads the next. A step runs from the end of one burst to the
// end of the next in the same pass: its compute is the idle gap between the two bursts
// (measured), the next burst's loading its wait for data. A pass's last step computes until
// whatever follows the pass (an evaluation, a checkpoint, the next pass), so its gap is not a
// measurement: it gets the typical compute (find_steps, once that is known).
void self_loaded_steps(const Batches& bt, std::size_t ai, const Passes& p, Found& found) {
  std::vector<const Batch*> mine;
  for (const auto& b : bt.batches)
    if (b.accelerator == ai) mine.push_back(&b);  // ready order: the bursts' order
  const auto starts = bt.burst_starts.find(mine.empty() ? 0 : mine.front()->worker);
  if (starts == bt.burst_starts.end() || starts->second.size() != mine.size()) return;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (mine[i]->epoch < 0) continue;
    Step st;
    st.accelerator = static_cast<std::uint32_t>(ai);
    st.epoch = mine[i]->epoch;
    st.start_ns = mine[i]->ready_ns;
    const bool last = i + 1 == mine.size() || mine[i + 1]->epoch != st.epoch;
    st.end_ns = last ? st.start_ns : mine[i + 1]->ready_ns;
    if (!last) {
      const std::uint64_t next = std::max(starts->second[i + 1], st.start_ns);
      st.compute_ns = next - st.start_ns;
      st.wait_ns = st.end_ns - next;
      st.compute_measured = true;
      found.measured(p.epochs[st.epoch].evaluation, static_cast<double>(st.compute_ns));
    }
    found.self_loaded.push_back(st);
  }
}

// The steps of accelerator `ai`, pass by pass.
void accelerator_steps(const trace::Trace& t, const Readers& r, const Passes& p, const Batches& bt,
                       std::size_t ai, Found& found) {
  const auto accelerator = static_cast<std::uint32_t>(ai);
  if (bt.consumer_loads && r.accelerators[ai].reads_itself) {
    self_loaded_steps(bt, ai, p, found);
    return;
  }
  const std::vector<std::uint32_t> timelines = timeline_threads(t, r, ai);
  auto gaps_of = idle_gaps(t, timelines);
  auto queue_reads_of = pipe_reads(t, {timelines.begin(), timelines.end()});
  auto releases_of = tensor_releases(t, bt, timelines);
  std::map<std::int32_t, std::vector<const Batch*>> per_pass;
  for (const Batch* b : received_batches(bt, ai))
    if (b->epoch >= 0) per_pass[b->epoch].push_back(b);
  const std::vector<std::uint32_t> receivers = in_process_receivers(t, r, ai);
  const std::vector<Gap> no_gaps;
  for (auto& [pass, bs] : per_pass) {
    const bool eval = p.epochs[pass].evaluation;
    if (!receivers.empty() &&
        handed_over_steps(t, receivers, r.accelerators[ai].pid, bs, per_pass, pass, accelerator,
                          found.steps)) {
      for (auto it = found.steps.rbegin(); it != found.steps.rend() && it->epoch == pass; ++it)
        if (it->compute_measured) found.measured(eval, static_cast<double>(it->compute_ns));
      found.fitted = true;
      continue;
    }
    // Behind an in-process hand-over the main thread's gaps are not steps, and the receiving
    // thread's are waits for the workers: receipt to receipt.
    const std::uint32_t tid =
        pass_timeline(t, timelines, bs.front()->received_ns, bs.back()->received_ns);
    const auto& gaps = !receivers.empty() ? no_gaps : gaps_of[tid];
    const auto starts =
        receipt_starts(!receivers.empty() ? std::vector<std::uint64_t>{} : queue_reads_of[tid], bs);
    if (bs.size() == 1) {
      const std::uint64_t got_ns = bs.front()->received_ns;
      found.singles.push_back({accelerator, pass, got_ns, single_gap_end(gaps, got_ns)});
    }
    if (bs.size() < 2) continue;
    // Out-of-order batches are told apart only in an evaluation from memory: elsewhere a short
    // gap before a long one is as often a loop that queues GPU work and synchronises later.
    gap_steps(pass_step_gaps(gaps, bs, starts, releases_of[tid], eval && p.from_memory), bs,
              starts, pass, accelerator, eval, found);
  }
}

// The typical compute of a training step (ns): the median measured one; without measurements, the
// shortest gap after a single batch, or the 10th percentile of step time (upper bounds, noted).
double typical_compute(const Found& found, const Passes& p, std::vector<std::string>& notes) {
  double typical = detail::percentile(found.computes_measured, 0.5);
  std::vector<double> single_train_gaps;
  for (const auto& one : found.singles)
    if (one.gap_end_ns && !p.epochs[one.pass].evaluation)
      single_train_gaps.push_back(static_cast<double>(one.gap_end_ns - one.received_ns));
  if (found.computes_measured.empty() && !single_train_gaps.empty()) {
    // Each gap is compute plus whatever wait follows it (the next pass's start-up, another
    // rank's checkpoint): every one is an upper bound, the smallest the tightest.
    typical = detail::percentile(single_train_gaps, 0.0);
    notes.push_back(
        "accelerators got one batch per training pass: compute time is the shortest idle gap of "
        "a "
        "main process after one (an upper bound)");
  } else if (found.computes_measured.empty()) {
    std::vector<double> all;
    for (const auto& st : found.steps) all.push_back(static_cast<double>(st.end_ns - st.start_ns));
    typical = detail::percentile(all, 0.1);
    if (!all.empty())
      notes.push_back(
          "every step waited for data: compute time is an upper bound (10th percentile of step "
          "time)");
  }
  return typical;
}

// Steps per accelerator, in time order (stable).
void by_accelerator_in_time(std::vector<Step>& steps) {
  std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
    return a.accelerator != b.accelerator ? a.accelerator < b.accelerator
                                          : a.start_ns < b.start_ns;
  });
}

}  // namespace

// Steps. The main thread makes no traced syscalls while it computes (a sleep, a matmul or a
// GPU kernel), so compute shows as the idle gaps of its syscall timeline between batch
// receipts: in a training pass with n batches, the n−1 longest gaps. A gap is pure compute when
// the batch the process took next was ready before the gap ended (or was already cached, so no
// receipt follows the gap); otherwise it also holds waiting for data, and the compute in it is
// estimated by the median measured compute. Without a main-thread timeline (threaded readers),
// the receipt intervals stand in for the gaps.
Steps find_steps(const trace::Trace& t, const Readers& r, const Passes& p, const Batches& bt) {
  Found found;
  for (std::size_t ai = 0; ai < r.accelerators.size(); ++ai)
    accelerator_steps(t, r, p, bt, ai, found);
  Steps out;
  if (found.fitted)
    out.notes.push_back(
        "batches reach the training loop through a thread of its own process (pin memory): a "
        "step starts when its batch has arrived there and the previous step has ended; compute "
        "per step is fitted per pass so that the last step ends when that thread exits");
  const double typical = typical_compute(found, p, out.notes);
  // Evaluation computes less per batch (no backward pass): its own typical value when measured.
  const double typical_eval = found.eval_computes_measured.empty()
                                  ? typical
                                  : detail::percentile(found.eval_computes_measured, 0.5);
  auto is_eval = [&](std::int32_t pass) { return pass >= 0 && p.epochs[pass].evaluation; };
  out.steps = std::move(found.steps);
  for (const auto& one : found.singles) {
    Step st;
    st.accelerator = one.accelerator;
    st.epoch = one.pass;
    st.start_ns = one.received_ns;
    const double typ = is_eval(one.pass) ? typical_eval : typical;
    const double gap = static_cast<double>(one.gap_end_ns - one.received_ns);
    const bool typical_gap = one.gap_end_ns && gap >= 0.5 * typ && gap <= 1.5 * typ;
    st.end_ns = typical_gap ? one.gap_end_ns : one.received_ns + static_cast<std::uint64_t>(typ);
    out.steps.push_back(st);
  }
  if (!found.singles.empty())
    by_accelerator_in_time(out.steps);
  // The steps whose gap was not pure compute: the typical compute, the rest of the interval a wait.
  for (auto& st : out.steps) {
    if (st.compute_measured) continue;
    const auto interval = st.end_ns - st.start_ns;
    st.compute_ns = std::min<std::uint64_t>(
        interval, static_cast<std::uint64_t>(is_eval(st.epoch) ? typical_eval : typical));
    st.wait_ns = interval - st.compute_ns;
  }
  detail::split_step_time(out.steps, is_eval);
  // A self-loaded pass's last step: the typical compute after its last burst.
  for (Step st : found.self_loaded) {
    if (!st.compute_measured) {
      st.compute_ns = static_cast<std::uint64_t>(is_eval(st.epoch) ? typical_eval : typical);
      st.end_ns = st.start_ns + st.compute_ns;
    }
    out.steps.push_back(st);
  }
  if (!found.self_loaded.empty())
    by_accelerator_in_time(out.steps);
  out.typical_compute_ns = typical;
  out.typical_eval_compute_ns = typical_eval;
  return out;
}

}  // namespace dlgen::analysis::stages
