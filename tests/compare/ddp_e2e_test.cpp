// DDP and multi-host captures end to end with the real binary and real PyTorch
// (tests/pytorch/train_ddp.py, gloo on CPU):
// - a DistributedDataParallel run of 2 ranks (torch.multiprocessing.spawn), each rank with its own
//   DataLoader workers and DistributedSampler share, rank 0 saving checkpoints, captured as one
//   trace: distil must find the ranks, their shares, workers, batch, epochs, shuffle and the
//   checkpoint cadence and size; its replay must compare faithfully; 3 ranks distil to 3;
// - `mpirun -np 2 dlgen capture -o mh-%r.h5` of a DDP run launched by mpirun (one rank per
//   "host", reading its DistributedSampler share in the rank itself): one trace per rank with its
//   rank recorded, distilled together to 1 accelerator per host on 2 hosts, compared against a
//   replay of 2 accelerators and against a second capture of the same run, one trace per host on
//   each side.
// Needs root (BPF): skips when capture reports 77; needs mpirun for the multi-host part.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include "dlgen/core/json.hpp"
#include <sstream>

#include "compare_rows.hpp"
#include "dlgen/core/job_io.hpp"
#include "e2e_fixture.hpp"

namespace {

using dlgen::testing::comment_of;
using dlgen::testing::compare_json;
using dlgen::testing::failed_rows;
using dlgen::testing::find_row;
using dlgen::testing::Outcome;
using dlgen::testing::sh;
using dlgen::testing::slurp;
using dlgen::testing::TempDir;

// The script's ground truth: the last output line that is a JSON object (rank 0's).
nlohmann::json truth_of(const std::string& out) {
  std::istringstream in(out);
  nlohmann::json last;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] == '{') {
      try {
        auto j = nlohmann::json::parse(line);
        if (j.value("rank", -1) == 0) last = j;
      } catch (const std::exception&) {
      }
    }
  return last;
}

// 96 raw files of 40-120 KiB: divisible by 2 and 3 ranks, so DistributedSampler pads nothing.
const char* kDataJob = R"(
[job]
name = "ddp-e2e-data"

[dataset]
dir = "train"
format = "raw"
num_files = 96
sample_size = { dist = "uniform", min = "40KiB", max = "120KiB" }
seed = 5
)";

const std::string kScript = std::string(DLGEN_SOURCE_DIR) + "/tests/pytorch/train_ddp.py";

// DDP programs are captured at their own priority, never SCHED_FIFO: gloo's ranks poll while they
// wait for each other, and real-time pollers at one priority never yield (FIFO has no time
// slices), so with more ranks than cores the rank they wait for never runs. Seen in CI: 3 ranks
// on 2 cores, two of them at 93% CPU for 10 minutes, rank 0 never scheduled. The replays stay at
// real-time priority (dlgen's threads sleep, they do not poll), and the timing rows of these
// tests are judged against the job, not against one capture's timing (see below).
constexpr dlgen::testing::Priority kRanksPriority = dlgen::testing::Priority::as_is;

// Tests that set up their own run, each in its own directory.
class E2E : public ::testing::Test {
 protected:
  static Outcome dlgen(const TempDir& dir, const std::string& args,
                       dlgen::testing::Priority priority =
                           dlgen::testing::Priority::realtime_where_allowed) {
    return dlgen::testing::dlgen_in(dir.path(), args, priority);
  }
  static bool make_data(const TempDir& dir, std::string* why) {
    return dlgen::testing::make_data(dir.path(), kDataJob, why);
  }
};

// One capture of a 2-rank DDP run, its distilled job and its dataset, shared by the tests.
class DdpE2E : public dlgen::testing::SharedRun<DdpE2E> {
 protected:
  static void SetUpTestSuite() {
    make_dir("ddp-e2e");
    if (!dlgen::testing::make_data(dir(), kDataJob, &setup_error_)) return;
    Outcome capture;
    capture_and_distil("-o orig.h5 -- " DLGEN_PYTHON " " + kScript + " --data " + root() +
                           "/train --ranks 2 --workers 2 --batch-size 4 --epochs 3"
                           " --compute-ms 40 --checkpoint-every-epochs 1 --checkpoint-dir " +
                           root() + "/ckpt",
                       &capture, kRanksPriority);
    if (capture.code == 0) truth_ = truth_of(capture.out);
  }
  static inline nlohmann::json truth_;
};

TEST_F(DdpE2E, DistilFindsRanksSharesWorkersAndRankZeroCheckpoints) {
  ASSERT_FALSE(truth_.is_null()) << "no ground truth printed by rank 0";
  auto job = dlgen::load_job(dir() / "job.toml");
  ASSERT_TRUE(job) << job.error().message;
  const std::string toml = slurp(dir() / "job.toml");
  EXPECT_EQ(job->run.accelerators, 2u) << toml;
  EXPECT_EQ(job->reader.workers, truth_["workers"].get<std::uint32_t>()) << "per rank";
  EXPECT_EQ(job->reader.batch_size, truth_["batch_size"].get<std::uint32_t>()) << "per rank";
  EXPECT_EQ(job->run.epochs, truth_["epochs"].get<std::uint32_t>());
  EXPECT_EQ(job->dataset.num_files, truth_["files"].get<std::uint64_t>());
  EXPECT_EQ(job->reader.shuffle, dlgen::Shuffle::file);
  EXPECT_EQ(job->run.max_steps, 0u) << "the ranks' shares cover the dataset each epoch";
  EXPECT_FALSE(job->reader.drop_last);
  const std::string share = "(" + std::to_string(truth_["samples_per_epoch"].get<int>()) + "," +
                            std::to_string(truth_["samples_per_epoch"].get<int>()) + ")";
  EXPECT_NE(comment_of(toml, "accelerators").find(share), std::string::npos) << toml;
  // Rank 0 alone saves, after every epoch.
  EXPECT_EQ(job->checkpoint.every_epochs, 1u) << toml;
  EXPECT_EQ(job->checkpoint.every_steps, 0u);
  const auto ckpt = truth_["checkpoints"][0].get<double>();
  EXPECT_NEAR(static_cast<double>(job->checkpoint.size_bytes), ckpt, ckpt * 0.05);
  EXPECT_NE(comment_of(toml, "size").find("by 1 of 2 accelerator processes"), std::string::npos)
      << toml;
}

TEST_F(DdpE2E, ReplayOfTheRanksComparesFaithfully) {
  Outcome r = dlgen("run job.toml --set checkpoint.dir=" + dir().string() +
                    "/replay-ckpt --capture replay.h5");
  ASSERT_EQ(r.code, 0) << r.out;
  // The replay's two accelerators are threads of one process: summarize must see two.
  Outcome s = dlgen("distil replay.h5 --json");
  ASSERT_EQ(s.code, 0) << s.out;
  const auto replay_summary = nlohmann::json::parse(s.out);
  EXPECT_EQ(replay_summary["accelerators"].size(), 2u);
  auto job = dlgen::load_job(dir() / "job.toml");
  ASSERT_TRUE(job) << job.error().message;
  const std::string toml = slurp(dir() / "job.toml");

  // Each rank forks its DataLoader workers at every epoch start on its own, so the ranks begin
  // each epoch apart; distil writes that as reader.startup_spread and the replay starts its
  // accelerators that far apart: every replayed pass's spread is one of the job's (within 25 ms
  // of scheduling), where before the replay started every accelerator at once.
  double spread_hi = 0;
  std::vector<double> spreads;
  for (const auto& b : job->reader.startup_spread.bins) spreads.push_back(b.lo);
  if (job->reader.startup_spread.kind == dlgen::DistKind::fixed)
    spreads.push_back(job->reader.startup_spread.value);
  if (!spreads.empty()) {
    spread_hi = *std::max_element(spreads.begin(), spreads.end());
  }
  // The original's spreads (passes after the first), as distil measures them: the job has them
  // when their median is 5 ms or more.
  Outcome o = dlgen("distil orig.h5 --json");
  ASSERT_EQ(o.code, 0) << o.out;
  std::vector<double> original;
  const auto starts = nlohmann::json::parse(o.out)["accelerator_starts_s"];
  for (std::size_t p = 1; p < starts.size(); ++p)
    if (starts[p].size() == 2 && starts[p][0] >= 0 && starts[p][1] >= 0)
      original.push_back(std::fabs(starts[p][0].get<double>() - starts[p][1].get<double>()));
  ASSERT_FALSE(original.empty());
  std::sort(original.begin(), original.end());
  const double median =
      original.size() % 2 ? original[original.size() / 2]
                          : (original[original.size() / 2 - 1] + original[original.size() / 2]) / 2;
  EXPECT_EQ(spread_hi > 0, median >= 0.005)
      << "original's median spread " << median << ": " << toml;
  if (spread_hi > 0) {
    for (const auto& pass : replay_summary["accelerator_starts_s"]) {
      ASSERT_EQ(pass.size(), 2u);
      const double got = std::fabs(pass[0].get<double>() - pass[1].get<double>());
      double nearest = 1e9;
      for (double want : spreads) nearest = std::min(nearest, std::fabs(got - want));
      EXPECT_LT(nearest, 0.025) << "replayed spread " << got << " s; the job's: " << toml;
    }
  }

  // Judged at the default tolerances: every volume, access and concurrency row, step_time and
  // compute; in flight among them (it was judged by direction while the replay started its
  // accelerators together: 1.31 to 1.43 against the original's 1.01, KS up to 0.42; with the
  // ranks' start-up spread modelled, 1.07-1.11, KS 0.07-0.11 over six captures, three of them
  // with a core kept busy).
  // Five rows are judged by direction, because the original is not repeatable on this 2-core
  // host: three captures of this very script, nothing else running, gave epoch_time 0.34, 0.67
  // and 0.89 s, data_wait 0.20, 0.02 and 0.05, AU 0.13, 0.10 and 0.16 (compare of one capture
  // against another fails all of them at their defaults). The ranks' start-up spread was 2 to
  // 412 ms (983 ms with a core busy) and is drawn anew each epoch, while epoch_time compares
  // epoch i with epoch i; data_wait is the first steps of epoch 0 (DDP's first all-reduce waits
  // for the later rank: 560 ms and 221 ms of that capture's 781 ms); AU counts the ~1 s between
  // the last step and rank 0's torch.save, which the job does not model.
  Outcome c = dlgen(
      "compare orig.h5 replay.h5 --json --report ddp.html --tolerance au=1"
      " --tolerance epoch_time=10 --tolerance duration=10 --tolerance throughput=10"
      " --tolerance data_wait=1");
  const nlohmann::json j = compare_json(c);
  if (j.is_null()) return;
  EXPECT_EQ(c.code, 0) << failed_rows(j);
  for (const char* name :
       {"steps", "readers", "files_read", "bytes_read", "checkpoints", "checkpoint_size", "compute",
        "step_time", "order_vs_path", "reshuffle", "inflight"}) {
    const auto* m = find_row(j, name);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_EQ((*m)["verdict"], "PASS") << name << ": " << failed_rows(j);
  }
  // epoch_time and duration against the job the replay ran, not against this one capture: three
  // captures of this script on this host gave epochs of 0.34, 0.67 and 0.89 s, and CI saw a
  // replay of 0.68 s against an original of 0.42 s (1.63x, outside any bound drawn from one
  // capture). Both rows are reading spans (an epoch's first read to its last; duration sums the
  // epochs after the first): the replay, reading from the page cache at real-time priority,
  // spends at least the compute of the steps its readers cannot run ahead of (all but the
  // workers x prefetch batches in hand and the last), and at most 1.5x the job's whole epoch
  // (steps x compute and batch overhead, the fork start-up) plus one spread and 0.2 s of
  // scheduling. A replay that ran its accelerators serially, lost its spreads' model or its
  // steps falls outside.
  Outcome p = dlgen("run job.toml --dry-run -o plan.json");
  ASSERT_EQ(p.code, 0) << p.out;
  const auto plan = nlohmann::json::parse(slurp(dir() / "plan.json"));
  const double epochs = plan["epochs"].get<double>();
  const double steps = plan["steps_per_epoch_per_accelerator"].get<double>();
  const double compute = plan["compute_step_s"].get<double>();
  const double ahead = static_cast<double>(job->reader.workers * job->reader.prefetch) + 1;
  const double least = std::max(0.0, steps - ahead) * compute * 0.95;
  const double most =
      1.5 * (steps * (compute + job->compute.batch_overhead.expected()) + job->reader.startup_s) +
      spread_hi + 0.2;
  for (const char* name : {"epoch_time", "duration"}) {
    const auto* m = find_row(j, name);
    ASSERT_NE(m, nullptr) << name;
    const double per = std::string(name) == "duration" && epochs > 1 ? epochs - 1 : 1.0;
    EXPECT_GE((*m)["replay"].get<double>(), least * per) << name << ": " << toml;
    EXPECT_LE((*m)["replay"].get<double>(), most * per)
        << name << ": the replay spent more than the job asks (" << steps << " steps of " << compute
        << " s, start-up " << job->reader.startup_s << " s, spread up to " << spread_hi
        << " s); the original: " << (*m)["original"] << "; " << toml;
  }
  for (const char* name : {"data_wait", "au"}) {
    const auto* m = find_row(j, name);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_EQ((*m)["verdict"], "PASS") << name << " must be measured on both sides";
  }
  const auto* wait = find_row(j, "data_wait");
  EXPECT_LE((*wait)["replay"].get<double>(), (*wait)["original"].get<double>() + 0.1)
      << "the replay's accelerators do not wait for each other: never the larger wait";
}

TEST_F(E2E, ThreeRanksDistilToThreeAccelerators) {
  TempDir dir("ddp3-e2e");
  std::string why;
  ASSERT_TRUE(make_data(dir, &why)) << why;
  const std::string root = dir.path().string();
  Outcome c = dlgen(dir, "capture -o three.h5 -- " DLGEN_PYTHON " " + kScript + " --data " + root +
                             "/train --ranks 3 --workers 1 --batch-size 4 --epochs 2"
                             " --compute-ms 20 --checkpoint-every-epochs 1 --checkpoint-dir " +
                             root + "/ckpt",
                    kRanksPriority);
  if (c.code == 77) GTEST_SKIP() << "capture cannot run here: " << c.out;
  ASSERT_EQ(c.code, 0) << c.out;
  Outcome d = dlgen(dir, "distil three.h5 -o job.toml");
  ASSERT_EQ(d.code, 0) << d.out;
  auto job = dlgen::load_job(dir.path() / "job.toml");
  ASSERT_TRUE(job) << job.error().message;
  const std::string toml = slurp(dir.path() / "job.toml");
  EXPECT_EQ(job->run.accelerators, 3u) << toml;
  EXPECT_EQ(job->reader.workers, 1u);
  EXPECT_EQ(job->reader.batch_size, 4u);
  EXPECT_EQ(job->run.epochs, 2u);
  EXPECT_EQ(job->checkpoint.every_epochs, 1u) << toml;
  EXPECT_NE(comment_of(toml, "accelerators").find("(32,32,32)"), std::string::npos) << toml;
}

// mpirun -np 2 dlgen capture: one trace per rank ("host"), each rank a gloo DDP rank launched
// by mpirun that reads its DistributedSampler share itself.
TEST_F(E2E, MultiHostCapturesDistilAndCompareOneTracePerHost) {
  if (sh("command -v mpirun").code != 0) GTEST_SKIP() << "no mpirun (openmpi-bin)";
  TempDir dir("multihost-e2e");
  std::string why;
  ASSERT_TRUE(make_data(dir, &why)) << why;
  const std::string root = dir.path().string();
  auto capture = [&](const std::string& prefix, int port) {
    return sh(
        "cd '" + root +
        "' && DLGEN_NO_PROGRESS=1 mpirun --allow-run-as-root --oversubscribe -np 2 '" DLGEN_BINARY
        "' capture -q -o " +
        root + "/" + prefix + "-%r.h5 -- " DLGEN_PYTHON " " + kScript + " --launcher env --port " +
        std::to_string(port) + " --data " + root +
        "/train --workers 0 --batch-size 4 --epochs 2 --compute-ms 150"
        " --checkpoint-every-epochs 1 --checkpoint-dir " +
        root + "/" + prefix + "-ckpt");
  };
  Outcome a = capture("orig", 29600 + static_cast<int>(::getpid() % 300));
  if (a.out.find("BPF") != std::string::npos && a.code == 77) GTEST_SKIP() << a.out;
  ASSERT_EQ(a.code, 0) << a.out;
  for (int r = 0; r < 2; ++r) {
    Outcome i = dlgen(dir, "inspect --json orig-" + std::to_string(r) + ".h5");
    ASSERT_EQ(i.code, 0) << i.out;
    const auto j = nlohmann::json::parse(i.out);
    EXPECT_EQ(j["rank"], r);
    EXPECT_EQ(j["world_size"], 2);
    EXPECT_FALSE(j["host"].get<std::string>().empty());
    // Two captures ran at once on this machine: each traced only its own rank's tree.
    Outcome one = dlgen(dir, "distil --json orig-" + std::to_string(r) + ".h5");
    ASSERT_EQ(one.code, 0) << one.out;
    EXPECT_EQ(nlohmann::json::parse(one.out)["accelerators"].size(), 1u) << "rank " << r;
  }
  Outcome d =
      dlgen(dir, "distil orig-0.h5 orig-1.h5 -o job.toml --dataset-dir " + root + "/replay-data");
  ASSERT_EQ(d.code, 0) << d.out;
  auto job = dlgen::load_job(dir.path() / "job.toml");
  ASSERT_TRUE(job) << job.error().message;
  const std::string toml = slurp(dir.path() / "job.toml");
  EXPECT_EQ(job->run.accelerators, 1u) << "per host: " << toml;
  EXPECT_NE(comment_of(toml, "accelerators").find("run on 2 hosts with mpirun -np 2"),
            std::string::npos)
      << toml;
  EXPECT_NE(comment_of(toml, "accelerators").find("(48,48)"), std::string::npos) << toml;
  EXPECT_EQ(job->run.epochs, 2u) << toml;
  EXPECT_EQ(job->reader.batch_size, 4u) << toml;
  EXPECT_EQ(job->run.max_steps, 0u) << toml;
  EXPECT_EQ(job->checkpoint.every_epochs, 1u) << toml;

  // The same run captured again: one trace per host on both sides.
  Outcome b = capture("again", 29900 + static_cast<int>(::getpid() % 300));
  ASSERT_EQ(b.code, 0) << b.out;
  Outcome same = dlgen(dir,
                       "compare --original orig-0.h5 orig-1.h5 --replay again-0.h5 "
                       "again-1.h5 -q --tolerance au=1");
  EXPECT_EQ(same.code, 0) << same.out
                          << dlgen(dir,
                                   "compare --original orig-0.h5 orig-1.h5 "
                                   "--replay again-0.h5 again-1.h5")
                                 .out;
  // The replay on one host with both hosts' accelerators (until `mpirun dlgen run` spreads them).
  Outcome g = dlgen(dir, "generate job.toml");
  ASSERT_EQ(g.code, 0) << g.out;
  Outcome r = dlgen(dir, "run job.toml --set run.accelerators=2 --set checkpoint.dir=" + root +
                             "/replay-ckpt --capture replay.h5");
  ASSERT_EQ(r.code, 0) << r.out;
  // In flight by its law rather than its distance: each rank loads its own batches (workers 0),
  // one request at a time, so the two replayed accelerators never have more than 2 reads in
  // flight, and no fewer than the original's ranks. How often the original's two ranks read at
  // once depends on whether both processes have a core while decoding (1.21 idle, 1.04 with two
  // busy loops on this 2-core host; the replay 1.55: KS above the default 0.40).
  Outcome c = dlgen(dir,
                    "compare --original orig-0.h5 orig-1.h5 --replay replay.h5 --json"
                    " --tolerance au=1 --tolerance inflight=1");
  const nlohmann::json j = compare_json(c);
  if (j.is_null()) return;
  EXPECT_EQ(c.code, 0) << failed_rows(j);
  const auto* inflight = find_row(j, "inflight");
  ASSERT_NE(inflight, nullptr);
  EXPECT_LE((*inflight)["replay"].get<double>(), 2.0 + 1e-9) << "2 accelerators, 1 read each";
  // Accelerators taking turns would hold exactly 1 read in flight whenever any is. How far above
  // 1 depends on the host's load as the original's does (1.55 idle; 1.27 on a loaded CI host,
  // where the original's was 1.30: the two are not ordered, so only the law is asserted).
  EXPECT_GT((*inflight)["replay"].get<double>(), 1.05)
      << "the replay's accelerators do not take turns";
  // Mixed forms are refused with the usage.
  Outcome bad = dlgen(dir, "compare orig-0.h5 --replay replay.h5");
  EXPECT_EQ(bad.code, 2) << bad.out;
}

}  // namespace
