// MLPerf Storage v3.0's rules (rules.hpp): the CLOSED workload x accelerator table and WHATIF,
// the AU minima applied over the job's own threshold, the checkpointing rules (exact processes,
// subset only for 8B on 8, accelerator memory x processes >= the checkpoint, one or two
// invocations, 10 + 10), rule 4.7.1's 30-second window, and provenance.json. Each test fails if
// its rule is wrong; v2.0's own tests (mlperf_test, mlperf_checkpoint_test) are unchanged.
#include <gtest/gtest.h>

#include "dlgen/core/json.hpp"

#include "dlgen/core/job_io.hpp"
#include "dlgen/mlperf/mlperf_checkpoint.hpp"
#include "dlgen/mlperf/provenance.hpp"
#include "dlgen/mlperf/rules.hpp"

namespace dlgen::mlperf {
namespace {

using replay::Report;

bool has_reason(const std::vector<std::string>& reasons, const std::string& part) {
  for (const auto& r : reasons)
    if (r.find(part) != std::string::npos) return true;
  return false;
}

std::string joined(const std::vector<std::string>& reasons) {
  std::string s;
  for (const auto& r : reasons) s += r + "\n";
  return s;
}

TEST(RulesV3, VersionsParseAndV3IsTheDefault) {
  EXPECT_EQ(kDefaultRules, Round::v3_0);
  EXPECT_EQ(*parse_rules_version("v3.0"), Round::v3_0);
  EXPECT_EQ(*parse_rules_version("2.0"), Round::v2_0);
  Result<Round> bad = parse_rules_version("v1.0");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("expected v3.0 or v2.0"), std::string::npos);
  EXPECT_STREQ(to_string(Round::v2_0), "v2.0");
}

// editions.yaml, edition 3.0: CLOSED training = {unet3d, retinanet} x {b200, mi355}; the rest
// (h100, a100, cosmoflow, resnet50, flux, dlrm) only whatif.
TEST(RulesV3, ClosedTrainingIsUnet3dAndRetinanetOnB200AndMi355) {
  for (const char* w : {"unet3d", "retinanet"})
    for (const char* a : {"b200", "mi355"}) EXPECT_TRUE(v3_closed_training(w, a)) << w << a;
  for (const char* w : {"unet3d", "retinanet"})
    for (const char* a : {"h100", "a100", "", "B200"})
      EXPECT_FALSE(v3_closed_training(w, a)) << w << a;
  for (const char* w : {"cosmoflow", "resnet50", "flux", "dlrm", "llama3-8b"})
    for (const char* a : {"b200", "mi355", "h100"})
      EXPECT_FALSE(v3_closed_training(w, a)) << w << a;
}

TEST(RulesV3, TablesOfAuMemoryAndCheckpoints) {
  EXPECT_DOUBLE_EQ(v3_au_threshold("unet3d"), 0.90);
  EXPECT_DOUBLE_EQ(v3_au_threshold("retinanet"), 0.85);
  EXPECT_DOUBLE_EQ(v3_au_threshold("dlrm"), 0.70);
  EXPECT_DOUBLE_EQ(v3_au_threshold("cosmoflow"), 0.70);
  EXPECT_DOUBLE_EQ(v3_au_threshold("nosuch"), 0);
  EXPECT_DOUBLE_EQ(v3_accelerator_memory_gb("b200"), 180);
  EXPECT_DOUBLE_EQ(v3_accelerator_memory_gb("mi355"), 288);
  EXPECT_DOUBLE_EQ(v3_accelerator_memory_gb("h100"), 80);
  EXPECT_DOUBLE_EQ(v3_accelerator_memory_gb("a100"), 80);
  EXPECT_DOUBLE_EQ(v3_accelerator_memory_gb("v100"), 0);
  EXPECT_DOUBLE_EQ(v3_checkpoint_size_gb("llama3-8b"), 105);
  EXPECT_DOUBLE_EQ(v3_checkpoint_size_gb("llama3-70b"), 912);
  EXPECT_EQ(v3_checkpoint_processes("llama3-405b"), 512u);
  EXPECT_EQ(v3_checkpoint_processes("llama3-1t"), 1024u);
}

TEST(RulesV3, CategoryTurnsClosedOrOpenIntoWhatifButLeavesInvalid) {
  for (Division d : {Division::closed, Division::open}) {
    Division x = d;
    std::vector<std::string> why;
    apply_v3_category(false, "unet3d on h100", x, why);
    EXPECT_EQ(x, Division::whatif);
    EXPECT_TRUE(has_reason(why, "unet3d on h100: MLPerf Storage v3.0 runs it only as whatif"));
    x = d;
    apply_v3_category(true, "unet3d on b200", x, why);
    EXPECT_EQ(x, d);
  }
  Division x = Division::invalid;
  std::vector<std::string> why;
  apply_v3_category(false, "x", x, why);
  EXPECT_EQ(x, Division::invalid);
  EXPECT_TRUE(why.empty());
  EXPECT_STREQ(to_string(Division::whatif), "WHATIF");
}

// A runner whose every run keeps AU `au` and the same samples/s.
struct Steady {
  double au;
  Result<Report> operator()(const Job& j) const {
    Report r;
    r.samples_per_s = 100;
    r.train_mib_per_s = 100;
    r.au = au;
    r.passed = au >= j.compute.au_threshold;
    r.elapsed_s = 1;
    return r;
  }
};

MlperfOptions v3_options(const std::string& accelerator) {
  MlperfOptions o;
  o.v3 = true;
  o.accelerator = accelerator;
  return o;
}

TEST(RulesV3, TrainingVerdictFollowsTheAcceleratorTable) {
  Result<Job> b200 = mlperf_reference("unet3d", "b200"), h100 = mlperf_reference("unet3d", "h100");
  ASSERT_TRUE(b200 && h100);
  Result<MlperfResult> closed = run_mlperf(*b200, &*b200, Steady{0.95}, v3_options("b200"));
  ASSERT_TRUE(closed);
  EXPECT_EQ(closed->division, Division::closed) << joined(closed->reasons);
  EXPECT_EQ(closed->rules, "v3.0");
  EXPECT_EQ(closed->accelerator, "b200");
  // The same run on h100: CLOSED under v2.0, WHATIF under v3.0.
  Result<MlperfResult> v2 = run_mlperf(*h100, &*h100, Steady{0.95}, MlperfOptions{});
  ASSERT_TRUE(v2);
  EXPECT_EQ(v2->division, Division::closed) << joined(v2->reasons);
  EXPECT_TRUE(v2->rules.empty());
  Result<MlperfResult> whatif = run_mlperf(*h100, &*h100, Steady{0.95}, v3_options("h100"));
  ASSERT_TRUE(whatif);
  EXPECT_EQ(whatif->division, Division::whatif);
  EXPECT_TRUE(has_reason(whatif->reasons, "unet3d on h100"));
  // A failed run is INVALID in every category.
  Result<MlperfResult> low = run_mlperf(*h100, &*h100, Steady{0.5}, v3_options("h100"));
  ASSERT_TRUE(low);
  EXPECT_EQ(low->division, Division::invalid);
  EXPECT_TRUE(has_reason(low->reasons, "kept AU below 90%"));
}

// v3.0's minimum holds even when the job asks for less (Rules.md 3.3.2: a template with a lowered
// threshold cannot pass); v2.0 judges the job's own threshold.
TEST(RulesV3, AuMinimumOfTheEditionOverridesALowerJobThreshold) {
  Result<Job> ref = mlperf_reference("unet3d", "b200");
  ASSERT_TRUE(ref);
  Job lowered = *ref;
  lowered.compute.au_threshold = 0.5;
  Result<MlperfResult> v3 = run_mlperf(lowered, &*ref, Steady{0.8}, v3_options("b200"));
  ASSERT_TRUE(v3);
  EXPECT_DOUBLE_EQ(v3->au_threshold, 0.90);
  EXPECT_FALSE(v3->all_passed);
  EXPECT_TRUE(has_reason(v3->reasons, "kept AU below 90% (lowest 80.0%)")) << joined(v3->reasons);
  Result<MlperfResult> v2 = run_mlperf(lowered, &*ref, Steady{0.8}, MlperfOptions{});
  ASSERT_TRUE(v2);
  EXPECT_DOUBLE_EQ(v2->au_threshold, 0.5);
  EXPECT_TRUE(v2->all_passed);
  EXPECT_FALSE(has_reason(v2->reasons, "kept AU below"));
}

Job ck_reference(const char* w) {
  Result<Job> r = mlperf_checkpoint_reference(w);
  EXPECT_TRUE(r);
  return r ? *r : Job{};
}

TEST(RulesV3, CheckpointDivisionAsTheReferenceOnB200IsClosed) {
  const Job r = ck_reference("llama3-8b");
  const DivisionCheck c = check_checkpoint_division_v3(r, r, 1, "b200", 1);
  EXPECT_EQ(c.division, Division::closed) << joined(c.reasons);
  // v2.0's default of 10 runs is OPEN under v3.0: one or two invocations (2.1.23).
  const DivisionCheck ten = check_checkpoint_division_v3(r, r, 10, "b200", 1);
  EXPECT_EQ(ten.division, Division::open);
  EXPECT_TRUE(has_reason(ten.reasons, "10 invocations"));
  // Each phase alone is CLOSED; other counts OPEN (Table 3).
  Job write_phase = r;
  write_phase.checkpoint.reads = 0;
  EXPECT_EQ(check_checkpoint_division_v3(r, write_phase, 1, "mi355", 1).division, Division::closed);
  Job five = r;
  five.checkpoint.writes = five.checkpoint.reads = 5;
  const DivisionCheck f = check_checkpoint_division_v3(r, five, 1, "b200", 1);
  EXPECT_EQ(f.division, Division::open);
  EXPECT_TRUE(has_reason(f.reasons, "checkpoint.writes/reads: 5/5"));
  Job nofsync = r;
  nofsync.checkpoint.fsync = false;
  EXPECT_EQ(check_checkpoint_division_v3(r, nofsync, 1, "b200", 1).division, Division::invalid);
}

TEST(RulesV3, CheckpointNeedsAKnownAcceleratorWithEnoughMemory) {
  const Job r = ck_reference("llama3-8b");
  const DivisionCheck none = check_checkpoint_division_v3(r, r, 1, "", 1);
  EXPECT_EQ(none.division, Division::invalid);
  EXPECT_TRUE(has_reason(none.reasons, "rule 4.3.4 needs one"));
  EXPECT_EQ(check_checkpoint_division_v3(r, r, 1, "v100", 1).division, Division::invalid);
  // 70B on 8 processes (DP 1): 8 x 80 GB = 640 < 912 on h100; 8 x 288 = 2304 on mi355 (OPEN:
  // fewer processes than CLOSED's 64, a multiple of TP x PP = 8).
  const Job r70 = ck_reference("llama3-70b");
  Job dp1 = r70;
  dp1.model->data = 1;
  const DivisionCheck h100 = check_checkpoint_division_v3(r70, dp1, 1, "h100", 1);
  EXPECT_EQ(h100.division, Division::invalid);
  EXPECT_TRUE(has_reason(h100.reasons,
                         "8 x h100 at 80 GB = 640 GB, below the llama3-70b "
                         "checkpoint of 912 GB (rule 4.3.4)"))
      << joined(h100.reasons);
  const DivisionCheck mi355 = check_checkpoint_division_v3(r70, dp1, 1, "mi355", 1);
  EXPECT_EQ(mi355.division, Division::open) << joined(mi355.reasons);
  EXPECT_TRUE(has_reason(mi355.reasons, "CLOSED runs exactly 64"));
  // The full 70B on 64 h100s: 5120 GB, enough.
  EXPECT_EQ(check_checkpoint_division_v3(r70, r70, 1, "h100", 1).division, Division::closed);
}

// Rule 4.3.5 as v3.0 states it: subset mode only for 8B, on exactly 8 processes (v2.0 had it the
// other way round: not for 8B).
TEST(RulesV3, SubsetModeOnlyFor8bOnEightProcesses) {
  const Job r8 = ck_reference("llama3-8b"), r70 = ck_reference("llama3-70b");
  Job s8 = r8;
  s8.checkpoint.mode = CheckpointMode::subset;
  s8.checkpoint.ranks_per_host = 8;
  EXPECT_EQ(check_checkpoint_division_v3(r8, s8, 1, "b200", 1).division, Division::closed);
  EXPECT_EQ(check_checkpoint_division(r8, s8, 10).division, Division::invalid);  // v2.0
  Job s70 = r70;
  s70.checkpoint.mode = CheckpointMode::subset;
  s70.checkpoint.ranks_per_host = 8;
  const DivisionCheck c = check_checkpoint_division_v3(r70, s70, 1, "mi355", 1);
  EXPECT_EQ(c.division, Division::invalid);
  EXPECT_TRUE(has_reason(c.reasons, "subset mode is defined for llama3-8b only"));
  Job s8x4 = s8;
  s8x4.checkpoint.ranks_per_host = 4;
  EXPECT_TRUE(has_reason(check_checkpoint_division_v3(r8, s8x4, 1, "b200", 1).reasons,
                         "exactly 8 processes"));
}

TEST(RulesV3, MoreThanFourProcessesPerHost) {
  const Job r8 = ck_reference("llama3-8b");
  const DivisionCheck two = check_checkpoint_division_v3(r8, r8, 1, "b200", 2);  // 4 a host
  EXPECT_EQ(two.division, Division::invalid);
  EXPECT_TRUE(has_reason(two.reasons, "processes per host: 4"));
}

// A runner of checkpoint runs: every rank 1000 bytes in 1 s.
Result<CheckpointRunResult> steady_checkpoints(const Job& j, std::uint32_t first) {
  CheckpointRunResult r;
  r.ranks = 8;
  for (std::uint32_t i = 0; i < j.checkpoint.writes + j.checkpoint.reads; ++i) {
    CheckpointPass p;
    p.index = first + i % std::max(1u, j.checkpoint.writes);
    for (std::uint32_t k = 0; k < 8; ++k) p.ranks.push_back({k, 1000, 1.0});
    (i < j.checkpoint.writes ? r.writes : r.reads).push_back(p);
  }
  return r;
}

TEST(RulesV3, CheckpointRunsOnH100AreWhatifAndOnB200Closed) {
  const Job r = ck_reference("llama3-8b");
  MlperfCheckpointOptions o;
  o.runs = 1;
  o.v3 = true;
  o.accelerator = "h100";
  Result<MlperfCheckpointResult> h = run_mlperf_checkpoint(r, &r, steady_checkpoints, o);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->division, Division::whatif) << joined(h->reasons);
  EXPECT_EQ(h->runs.size(), 1u);
  EXPECT_EQ(h->runs[0].write.checkpoints, 10u);
  const auto j = nlohmann::json::parse(mlperf_checkpoint_json(*h));
  EXPECT_EQ(j["division"], "WHATIF");
  EXPECT_EQ(j["rules"], "v3.0");
  EXPECT_EQ(j["accelerator"], "h100");
  o.accelerator = "b200";
  Result<MlperfCheckpointResult> b = run_mlperf_checkpoint(r, &r, steady_checkpoints, o);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->division, Division::closed) << joined(b->reasons);
  // v2.0's result has no rules or accelerator keys (its results.json is unchanged).
  o.v3 = false;
  o.runs = 10;
  Result<MlperfCheckpointResult> v2 = run_mlperf_checkpoint(r, &r, steady_checkpoints, o);
  ASSERT_TRUE(v2);
  EXPECT_FALSE(nlohmann::json::parse(mlperf_checkpoint_json(*v2)).contains("rules"));
}

TEST(RulesV3, ReadPhaseWithinThirtySecondsOfTheWritePhase) {
  PhaseRecord w;
  w.workload = "llama3-8b";
  w.end_unix_s = 1000;
  w.end_text = "2026-11-26T12:00:00.000000";
  w.writes = 10;
  Result<PhaseRecord> back = parse_phase_record(phase_record_json(w), "p.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_DOUBLE_EQ(back->end_unix_s, 1000);
  EXPECT_EQ(back->writes, 10u);
  EXPECT_FALSE(parse_phase_record("{}", "p.json"));
  EXPECT_FALSE(parse_phase_record("not json", "p.json"));

  auto judge = [&](const PhaseRecord* rec, double start) {
    Division d = Division::closed;
    std::vector<std::string> why;
    const double gap = judge_phase_gap(rec, start, "ck/dlgen-checkpoint-phase.json", d, why);
    return std::tuple{d, why, gap};
  };
  auto [d29, w29, g29] = judge(&w, 1029.5);
  EXPECT_EQ(d29, Division::closed);
  EXPECT_DOUBLE_EQ(g29, 29.5);
  EXPECT_TRUE(w29.empty());
  auto [d31, w31, g31] = judge(&w, 1030.5);
  EXPECT_EQ(d31, Division::invalid);
  EXPECT_TRUE(has_reason(w31, "30.5 s after the write phase ended"));
  auto [dneg, wneg, gneg] = judge(&w, 990);
  EXPECT_EQ(dneg, Division::closed);  // clock skew: noted, not a violation
  EXPECT_TRUE(has_reason(wneg, "clocks disagree"));
  auto [dnone, wnone, gnone] = judge(nullptr, 990);
  EXPECT_EQ(dnone, Division::invalid);
  EXPECT_TRUE(has_reason(wnone, "read phase without a write phase"));
}

TEST(Provenance, HoldsToolHostJobAndEveryParameter) {
  Result<Job> job = mlperf_reference("unet3d", "b200");
  ASSERT_TRUE(job);
  const Provenance p = make_provenance(*job, "v3.0", "dlgen mlperf x.toml");
  EXPECT_EQ(p.tool, "dlgen");
  EXPECT_EQ(p.version, DLGEN_VERSION);
  EXPECT_FALSE(p.commit.empty());  // a commit, or "unknown" outside a git checkout
  EXPECT_TRUE(p.commit == "unknown" || p.commit.size() == 40) << p.commit;
  EXPECT_FALSE(p.host.name.empty());
  EXPECT_FALSE(p.host.kernel.empty());
  EXPECT_GT(p.host.cpus, 0u);
  EXPECT_GT(p.host.ram_bytes, 0u);
  EXPECT_EQ(p.job_toml, to_toml(*job));
  EXPECT_EQ(p.job_hash, job_text_hash(to_toml(*job)));
  EXPECT_EQ(p.job_hash.size(), 16u);
  // The hash changes with any parameter.
  Job other = *job;
  other.reader.batch_size = 8;
  EXPECT_NE(make_provenance(other, "v3.0", "").job_hash, p.job_hash);
  bool batch = false;
  for (const auto& [k, v] : p.parameters)
    if (k == "reader.batch_size") batch = v == "7";
  EXPECT_TRUE(batch);
  EXPECT_EQ(p.parameters.size(), job_parameters(*job).size());

  Provenance q = p;
  q.start = "2026-11-26T12:00:00.000000";
  q.end = "2026-11-26T12:01:00.000000";
  q.run = 2;
  q.accelerator = "b200";
  Result<Provenance> back = parse_provenance(provenance_json(q), "provenance.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->job_hash, q.job_hash);
  EXPECT_EQ(back->host.cpus, q.host.cpus);
  EXPECT_EQ(back->host.ram_bytes, q.host.ram_bytes);
  EXPECT_EQ(back->parameters.size(), q.parameters.size());
  EXPECT_EQ(back->run, 2u);
  EXPECT_EQ(back->accelerator, "b200");
  EXPECT_EQ(back->start, q.start);
  // A missing field is named.
  auto j = nlohmann::json::parse(provenance_json(q));
  j["host"].erase("kernel");
  Result<Provenance> bad = parse_provenance(j.dump(), "run/provenance.json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("run/provenance.json: host.kernel"), std::string::npos);
}

}  // namespace
}  // namespace dlgen::mlperf
