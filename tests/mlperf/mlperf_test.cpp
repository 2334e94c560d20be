// MLPerf Storage's run rules with a model runner: dataset sizing, the division from the parameters
// that differ from the reference, warm-up + N runs with new seeds, the replication check, the AU
// verdict, and the report files.
#include "dlgen/mlperf/mlperf.hpp"
#include "dlgen/mlperf/rules.hpp"

#include <gtest/gtest.h>

#include "dlgen/core/json.hpp"

#include "dlgen/core/job_io.hpp"

namespace dlgen::mlperf {
namespace {

using cluster::ClusterResult;
using cluster::RankResult;
using cluster::reduce_ranks;
using replay::Report;

Job reference(const char* workload = "cosmoflow", const char* accel = "h100") {
  Result<Job> r = mlperf_reference(workload, accel);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : Job{};
}

// A runner whose samples/s per run come from a list; AU passes when au >= threshold.
struct Model {
  std::vector<double> sps;
  std::vector<double> au;
  std::vector<std::uint64_t> seeds;
  Result<Report> operator()(const Job& j) {
    const std::size_t i = seeds.size();
    seeds.push_back(j.reader.seed);
    Report r;
    r.samples_per_s = sps[i % sps.size()];
    r.train_mib_per_s = r.samples_per_s * 2.7;
    r.au = au.empty() ? 0.99 : au[i % au.size()];
    r.passed = r.au >= j.compute.au_threshold;
    r.elapsed_s = 10;
    return r;
  }
};

TEST(Mlperf, DatasetSizeIsFiveTimesRamOrFiveHundredSteps) {
  Job j = reference("unet3d", "h100");
  j.run.accelerators = 4;
  // 500 steps x batch 7 x 4 accelerators = 14,000 samples; 5 x 24 GiB / 146,600,628 B = 879.
  MlperfSizing s = mlperf_dataset_size(j, 24ull << 30);
  EXPECT_EQ(s.samples_for_steps, 14000u);
  EXPECT_EQ(s.samples_for_memory, 879u);
  EXPECT_EQ(s.files, 14000u);
  s = mlperf_dataset_size(j, 1ull << 40, 2);  // 2 hosts of 1 TiB: memory wins
  EXPECT_EQ(s.samples_for_steps, 28000u);
  EXPECT_EQ(s.samples_for_memory, 75001u);
  EXPECT_EQ(s.files, 75001u);
  Job r = reference("resnet50", "h100");  // 1251 samples a file: files rounded up
  s = mlperf_dataset_size(r, 0);
  EXPECT_EQ(s.samples_for_steps, 200000u);
  EXPECT_EQ(s.files, 160u);  // ceil(200000 / 1251)
}

// Under mpirun: every rank's accelerators count, and the RAM is the hosts' sum (each host once):
// 3 ranks on 2 hosts of 1 TiB size as 12 accelerators and 2 TiB.
TEST(Mlperf, ClusterDatasetSizeCountsEveryRanksAcceleratorsAndTheHostsRam) {
  Job j = reference("unet3d", "h100");
  j.run.accelerators = 4;
  const MlperfSizing s = mlperf_cluster_dataset_size(j, 3, 2ull << 40);
  EXPECT_EQ(s.samples_for_steps, 3u * 14000u);
  EXPECT_EQ(s.samples_for_memory, mlperf_dataset_size(j, 1ull << 40, 2).samples_for_memory);
  EXPECT_EQ(s.files, std::max(s.samples_for_steps, s.samples_for_memory));
  EXPECT_EQ(mlperf_cluster_dataset_size(j, 1, 24ull << 30).files,
            mlperf_dataset_size(j, 24ull << 30).files);
}

// One rank's result of a training epoch of `seconds` from the common zero (cluster_report.hpp).
RankResult rank_of(std::uint32_t rank, std::string host, std::uint64_t samples, double seconds,
                   double au) {
  RankResult r;
  r.rank = rank;
  r.host = std::move(host);
  r.accelerators = 1;
  r.samples = samples;
  r.train_bytes = r.bytes_read = samples * 2831155;  // 2.7 MiB a sample
  r.train_seconds = r.elapsed_s = r.end_s = seconds;
  r.samples_per_s = static_cast<double>(samples) / seconds;
  r.train_mib_per_s = static_cast<double>(r.train_bytes) / 1048576.0 / seconds;
  r.passes.push_back({1, false, 0, seconds, 10, samples, r.train_bytes, samples, au});
  r.au = r.au_mean = au;
  r.au_threshold = 0.9;
  return r;
}

// Under mpirun each run is every rank's: the gather hook returns the ranks' results reduced
// (gather_ranks), from which the run's figures come (all ranks' samples over the cluster's
// seconds, lowest AU, first start to last end), and each rank's own row is kept in the result
// files.
TEST(Mlperf, RunsUnderMpirunAreEveryRanksReduced) {
  const Job ref = reference();
  Model m{{1000}, {0.95}, {}};
  MlperfOptions o;
  o.runs = 2;
  o.warmup = false;
  int calls = 0;
  o.gather = [&](const Report& mine) {
    ++calls;
    EXPECT_DOUBLE_EQ(mine.samples_per_s, 1000);  // this rank's own
    return reduce_ranks({rank_of(0, "node1", 10000, 10, 0.95), rank_of(1, "node2", 10800, 12, 0.91),
                         rank_of(2, "node2", 8800, 11, 0.60)});
  };
  Result<MlperfResult> r = run_mlperf(ref, &ref, std::ref(m), o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(r->ranks, 3u);
  EXPECT_EQ(r->hosts, 2u);
  ASSERT_EQ(r->runs.size(), 2u);
  for (const MlperfRun& run : r->runs) {
    // 29600 samples in the 12 s from the first rank's start to the last one's end: 2466.7/s, not
    // the 2700/s the ranks' own rates (1000 + 900 + 800) add up to.
    EXPECT_DOUBLE_EQ(run.samples_per_s, 29600.0 / 12);
    EXPECT_DOUBLE_EQ(run.mib_per_s, 29600.0 * 2831155 / 1048576.0 / 12);
    EXPECT_DOUBLE_EQ(run.au, 0.60);
    EXPECT_FALSE(run.au_passed);
    EXPECT_DOUBLE_EQ(run.elapsed_s, 12);
    ASSERT_EQ(run.per_rank.size(), 3u);
    EXPECT_EQ(run.per_rank[2].host, "node2");
    EXPECT_DOUBLE_EQ(run.per_rank[1].samples_per_s, 900);  // each rank's own
    EXPECT_FALSE(run.per_rank[2].au_passed);
  }
  EXPECT_EQ(r->division, Division::invalid);  // rank 2 missed the AU threshold
  const auto j = nlohmann::json::parse(mlperf_json(*r));
  EXPECT_EQ(j["ranks"], 3);
  EXPECT_EQ(j["runs"][0]["per_rank"].size(), 3u);
  EXPECT_EQ(j["runs"][0]["per_rank"][1]["host"], "node2");
  const std::string csv = mlperf_csv(*r);
  EXPECT_NE(csv.find("\nrun,rank,host,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("2,2,node2,800,"), std::string::npos) << csv;
  EXPECT_NE(mlperf_html(*r).find("<h2>Hosts</h2>"), std::string::npos);
}

TEST(Mlperf, ReferencesAndThresholds) {
  EXPECT_DOUBLE_EQ(reference("unet3d", "h100").compute.au_threshold, 0.90);
  EXPECT_DOUBLE_EQ(reference("cosmoflow", "a100").compute.au_threshold, 0.70);
  EXPECT_EQ(reference("unet3d", "b200").compute.effective(), Distribution::fixed_at(0.162));
  EXPECT_EQ(reference("resnet50", "a100").reader.batch_size, 400u);
  EXPECT_FALSE(mlperf_reference("unet3d", "tpu"));
  EXPECT_DOUBLE_EQ(v3_au_threshold("resnet50"), 0.90);
  EXPECT_DOUBLE_EQ(v3_au_threshold("cosmoflow"), 0.70);
  Job j = reference("unet3d", "a100");
  EXPECT_EQ(mlperf_match_accelerator(j), "a100");
  j.compute.step_time = Distribution::fixed_at(0.3);
  EXPECT_EQ(mlperf_match_accelerator(j), "");
}

TEST(Mlperf, DivisionFollowsWhatChanged) {
  const Job ref = reference();
  Job j = ref;
  j.dataset.num_files = 99;
  j.dataset.dir = "/mnt/storage/cosmo";
  j.dataset.files_per_dir = 100;
  j.reader.workers = 16;
  j.reader.prefetch = 8;
  j.reader.request_size_bytes = 1 << 20;
  j.run.accelerators = 12;
  DivisionCheck c = check_division(ref, j);
  EXPECT_EQ(c.division, Division::closed);
  EXPECT_TRUE(c.reasons.empty());

  j.dataset.format = Format::npz;
  c = check_division(ref, j);
  EXPECT_EQ(c.division, Division::open);
  ASSERT_EQ(c.reasons.size(), 1u);
  EXPECT_NE(c.reasons[0].find("dataset.format: npz (reference tfrecord): allowed in OPEN only"),
            std::string::npos);

  j.reader.batch_size = 4;
  c = check_division(ref, j);
  EXPECT_EQ(c.division, Division::invalid);
  EXPECT_EQ(c.reasons.size(), 2u);

  // O_DIRECT: CLOSED for unet3d, OPEN for the others.
  Job u = reference("unet3d", "h100");
  Job ud = u;
  ud.reader.direct = true;
  EXPECT_EQ(check_division(u, ud).division, Division::closed);
  Job cd = ref;
  cd.reader.direct = true;
  EXPECT_EQ(check_division(ref, cd).division, Division::open);
  // A lower AU threshold is not the workload.
  Job low = ref;
  low.compute.au_threshold = 0.5;
  EXPECT_EQ(check_division(ref, low).division, Division::invalid);
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

// The reason that names `key` ("key: value (reference ...): ..."), or "".
std::string reason_for(const DivisionCheck& c, const std::string& key) {
  for (const auto& r : c.reasons)
    if (r.rfind(key + ": ", 0) == 0) return r;
  return "";
}

// Deny by default: every job field takes part, not only a list of known parameters. Each of these
// changed silently before (CLOSED with no reason).
TEST(Mlperf, EveryJobFieldIsComparedAndAnUnlistedChangeIsInvalid) {
  const Job ref = reference("unet3d", "h100");
  auto check = [&](const char* key, auto&& change) {
    Job j = ref;
    change(j);
    const DivisionCheck c = check_division(ref, j);
    EXPECT_EQ(c.division, Division::invalid) << key << ":\n" << joined(c.reasons);
    const std::string why = reason_for(c, key);
    EXPECT_NE(why.find("not allowed in CLOSED or OPEN"), std::string::npos) << key << ":\n"
                                                                            << joined(c.reasons);
  };
  check("reader.startup_spread",
        [](Job& j) { j.reader.startup_spread = Distribution::fixed_at(2); });
  check("compute.batch_overhead",
        [](Job& j) { j.compute.batch_overhead = Distribution::fixed_at(0.01); });
  check("compute.eval_time", [](Job& j) { j.compute.eval_time = Distribution::fixed_at(0.1); });
  check("run.sync_steps", [](Job& j) { j.run.sync_steps = true; });
  check("run.cache", [](Job& j) { j.run.cache = CacheMode::drop_epoch; });
  check("validation", [](Job& j) { j.validation = j.dataset; });
  check("checkpoint.fsync", [](Job& j) { j.checkpoint.fsync = !j.checkpoint.fsync; });
  check("checkpoint.write_size", [](Job& j) { j.checkpoint.write_size_bytes = 1 << 20; });
  check("reader.shuffle", [](Job& j) { j.reader.shuffle = Shuffle::file; });
  check("reader.batch_size", [](Job& j) {  // batches that vary around the same mean
    j.reader.batch_sizes.kind = DistKind::uniform;
    j.reader.batch_sizes.min = 1;
    j.reader.batch_sizes.max = 2.0 * j.reader.batch_size - 1;
  });
  // How the loader reads (the data loader) is OPEN's, named.
  Job r = ref;
  r.reader.recipe = {*parse_recipe_step("0+4KiB")};
  const DivisionCheck c = check_division(ref, r);
  EXPECT_EQ(c.division, Division::open) << joined(c.reasons);
  EXPECT_NE(reason_for(c, "reader.recipe").find("allowed in OPEN only"), std::string::npos)
      << joined(c.reasons);
}

// Distributions compare exactly: every parameter, the bounds, and each histogram bin.
TEST(Mlperf, DistributionsCompareExactlyWithBoundsAndBins) {
  const Job ref = reference("unet3d", "h100");
  Job j = ref;
  j.dataset.sample_size.mean += 1;  // 146600629: "%g" printed both as 1.46601e+08
  DivisionCheck c = check_division(ref, j);
  EXPECT_EQ(c.division, Division::invalid);
  EXPECT_NE(reason_for(c, "dataset.sample_size").find("146600629"), std::string::npos)
      << joined(c.reasons);
  j = ref;
  j.dataset.sample_size.min = 4 << 20;  // the low tail cut: not the reference's sizes
  EXPECT_EQ(check_division(ref, j).division, Division::invalid);
  j = ref;
  j.dataset.sample_size.max = 200e6;
  EXPECT_EQ(check_division(ref, j).division, Division::invalid);

  Job h = ref, g = ref;
  h.dataset.sample_size = Distribution{};
  h.dataset.sample_size.kind = DistKind::histogram;
  h.dataset.sample_size.bins = {{1e6, 2e6, 1}, {2e6, 3e6, 1}};
  g.dataset.sample_size = h.dataset.sample_size;
  g.dataset.sample_size.bins[1].weight = 3;  // same number of bins, other sizes
  c = check_division(h, g);
  EXPECT_EQ(c.division, Division::invalid) << joined(c.reasons);
  EXPECT_FALSE(reason_for(c, "dataset.sample_size").empty()) << joined(c.reasons);
  // A compute time that "%g" would round alike.
  Job t = ref;
  t.compute.step_time = Distribution::fixed_at(0.3230000001);
  EXPECT_EQ(check_division(ref, t).division, Division::invalid);
}

// Every shipped MLPerf training job at full size, on every accelerator it defines, is its
// workload's reference: `dlgen mlperf jobs/<workload>.toml` can be CLOSED (the README's example).
TEST(Mlperf, ShippedJobsAreTheirReferences) {
  for (const char* w : {"unet3d", "resnet50", "cosmoflow"}) {
    const std::string path = std::string(DLGEN_SOURCE_DIR "/jobs/") + w + ".toml";
    Result<Job> base = load_job(path);
    ASSERT_TRUE(base) << base.error().message;
    ASSERT_FALSE(base->compute.per_accelerator.empty()) << w;
    for (const auto& [accelerator, time] : base->compute.per_accelerator) {
      JobLoadOptions lo;
      lo.accelerator = accelerator;
      Result<Job> j = load_job(path, lo);
      ASSERT_TRUE(j) << j.error().message;
      EXPECT_EQ(mlperf_match_accelerator(*j), accelerator) << w;
      const DivisionCheck c = check_division(reference(w, accelerator.c_str()), *j);
      EXPECT_EQ(c.division, Division::closed) << w << " on " << accelerator << ":\n"
                                              << joined(c.reasons);
      EXPECT_TRUE(c.reasons.empty()) << w << " on " << accelerator;
    }
  }
}

// CLOSED and OPEN need the warm-up and all five measured runs: one run has no spread to check.
TEST(Mlperf, FewerRunsOrNoWarmupIsInvalid) {
  const Job ref = reference();
  Model m{{1000}, {}, {}};
  MlperfOptions o;
  o.runs = 1;
  o.warmup = false;
  Result<MlperfResult> r = run_mlperf(ref, &ref, std::ref(m), o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->replicated);  // deviation 0: nothing to disagree with
  EXPECT_EQ(r->division, Division::invalid) << joined(r->reasons);
  EXPECT_NE(joined(r->reasons).find("1 measured run(s) without a warm-up"), std::string::npos)
      << joined(r->reasons);
  o.runs = 5;  // all runs, no warm-up
  r = run_mlperf(ref, &ref, std::ref(m), o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->division, Division::invalid);
  o.warmup = true;
  o.runs = 4;
  r = run_mlperf(ref, &ref, std::ref(m), o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->division, Division::invalid);
  o.runs = 5;
  r = run_mlperf(ref, &ref, std::ref(m), o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->division, Division::closed) << joined(r->reasons);
}

// A dataset sized for less RAM than the clients have is INVALID, whatever --ram said.
TEST(Mlperf, RamBelowTheMeasuredRamIsInvalid) {
  const Job ref = reference();
  Model m{{1000}, {}, {}};
  MlperfOptions o;
  o.ram_bytes = 1ull << 30;
  o.measured_ram_bytes = 24ull << 30;
  Result<MlperfResult> r = run_mlperf(ref, &ref, std::ref(m), o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->division, Division::invalid);
  EXPECT_NE(joined(r->reasons).find("the rules ask for 5x the real RAM"), std::string::npos)
      << joined(r->reasons);
  o.ram_bytes = 32ull << 30;  // more than measured (other clients' RAM): allowed
  r = run_mlperf(ref, &ref, std::ref(m), o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->division, Division::closed) << joined(r->reasons);
}

TEST(Mlperf, WarmupThenRunsWithNewSeedsAndTheirMean) {
  const Job ref = reference();
  Model m{{900, 1000, 1010, 990, 1000, 1000}, {}, {}};
  MlperfOptions o;
  Result<MlperfResult> r = run_mlperf(ref, &ref, std::ref(m), o);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->runs.size(), 6u);
  EXPECT_TRUE(r->runs[0].warmup);
  for (std::size_t i = 1; i < 6; ++i) EXPECT_FALSE(r->runs[i].warmup);
  for (std::size_t i = 0; i < 6; ++i)
    EXPECT_EQ(m.seeds[i], ref.reader.seed + i);   // a new seed each run
  EXPECT_DOUBLE_EQ(r->mean_samples_per_s, 1000);  // the warm-up's 900 is not counted
  EXPECT_NEAR(r->max_deviation, 0.01, 1e-12);
  EXPECT_TRUE(r->replicated);
  EXPECT_TRUE(r->all_passed);
  EXPECT_EQ(r->division, Division::closed);
  EXPECT_TRUE(r->reasons.empty());
}

TEST(Mlperf, RunsThatDisagreeOrMissAuAreInvalid) {
  const Job ref = reference();
  Model spread{{1000, 1000, 1100, 1000, 1000, 900}, {}, {}};
  Result<MlperfResult> r = run_mlperf(ref, &ref, std::ref(spread));
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->replicated);  // 1100 and 900 are 10% from the mean
  EXPECT_EQ(r->division, Division::invalid);
  EXPECT_NE(r->reasons.back().find("runs disagree"), std::string::npos);

  Model slow{{1000}, {0.8, 0.8, 0.8, 0.65, 0.8, 0.8}, {}};  // cosmoflow's threshold is 0.70
  r = run_mlperf(ref, &ref, std::ref(slow));
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->all_passed);
  EXPECT_DOUBLE_EQ(r->min_au, 0.65);
  EXPECT_EQ(r->division, Division::invalid);

  Model fine{{1000}, {}, {}};
  MlperfOptions small;
  small.sizing.files = ref.dataset.num_files + 1;
  r = run_mlperf(ref, &ref, std::ref(fine), small);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->division, Division::invalid);
  EXPECT_NE(r->reasons[0].find("the rules ask for"), std::string::npos);

  r = run_mlperf(ref, nullptr, std::ref(fine));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->division, Division::invalid);
}

// The multi-host seam: one rank reads 1000 samples in 10 s, another 1000 in 20 s; the run
// delivered 2000 samples in 20 s (100/s, not 100 + 50); its AU is the lowest rank's, and one rank
// below the threshold fails it.
TEST(Mlperf, RanksOfOneRunReduceToItsFigures) {
  Report rep;
  rep.samples_per_s = 100;
  rep.train_mib_per_s = 270;
  rep.au = 0.93;
  rep.elapsed_s = 12;
  rep.passed = true;
  const MlperfRun a = mlperf_run_of(rep, 7, false);
  EXPECT_EQ(a.seed, 7u);
  EXPECT_DOUBLE_EQ(a.mib_per_s, 270);
  const ClusterResult c =
      reduce_ranks({rank_of(0, "a", 1000, 10, 0.93), rank_of(1, "b", 1000, 20, 0.88)});
  const MlperfRun m = reduce_mlperf_ranks(c, 7, true);
  EXPECT_DOUBLE_EQ(m.samples_per_s, 100);
  EXPECT_DOUBLE_EQ(m.mib_per_s, 2000.0 * 2831155 / 1048576.0 / 20);
  EXPECT_DOUBLE_EQ(m.au, 0.88);  // the lowest rank's AU is the run's
  EXPECT_FALSE(m.au_passed);     // one rank below the threshold fails the run
  EXPECT_DOUBLE_EQ(m.elapsed_s, 20);
  EXPECT_EQ(m.seed, 7u);
  EXPECT_TRUE(m.warmup);
  ASSERT_EQ(m.per_rank.size(), 2u);
  EXPECT_TRUE(m.per_rank[0].au_passed);
  EXPECT_DOUBLE_EQ(m.per_rank[1].samples_per_s, 50);
  // One rank alone is its own run.
  const MlperfRun one =
      reduce_mlperf_ranks(reduce_ranks({rank_of(0, "a", 1000, 10, 0.93)}), 7, false);
  EXPECT_DOUBLE_EQ(one.samples_per_s, 100);
  EXPECT_DOUBLE_EQ(one.au, 0.93);
  EXPECT_TRUE(one.au_passed);
  EXPECT_DOUBLE_EQ(reduce_mlperf_ranks(reduce_ranks({}), 7, false).samples_per_s, 0);
}

TEST(Mlperf, ReportFiles) {
  const Job ref = reference();
  Model m{{1000, 1000, 1001, 999, 1000, 1000}, {}, {}};
  Result<MlperfResult> r = run_mlperf(ref, &ref, std::ref(m));
  ASSERT_TRUE(r);
  const auto j = nlohmann::json::parse(mlperf_json(*r));
  EXPECT_EQ(j["division"], "CLOSED");
  EXPECT_EQ(j["runs"].size(), 6u);
  EXPECT_DOUBLE_EQ(j["mean"]["samples_per_s"].get<double>(), 1000);
  const std::string csv = mlperf_csv(*r);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 8);  // header, warm-up, 5 runs, mean
  EXPECT_EQ(csv.rfind("mean,", std::string::npos) != std::string::npos, true);
  const std::string html = mlperf_html(*r);
  EXPECT_NE(html.find("<p class='verdict'>CLOSED</p>"), std::string::npos);
  EXPECT_EQ(std::count(html.begin(), html.end(), '<') - std::count(html.begin(), html.end(), '>'),
            0);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("http://") == std::string::npos ||
                html.find("xmlns='http://www.w3.org/2000/svg'") != std::string::npos,
            true);  // self-contained: no external resources
}

}  // namespace
}  // namespace dlgen::mlperf
