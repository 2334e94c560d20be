// The checkpoint-only workflow (MLPerf Storage's LLM checkpointing on one host): the figures as
// laws over recorded per-rank passes (duration = slowest rank, throughput x duration = bytes,
// slowest-rank rate = the minimum), MLPerf's page-cache rule, and real runs in a temporary
// directory: every rank's files at the sizes core/llm gives, fresh incompressible content per
// checkpoint, reads of what was written, errors that name the path.
#include "dlgen/mlperf/checkpoint_workflow.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include "dlgen/core/json.hpp"
#include <thread>

#include "dlgen/cluster/cluster.hpp"
#include "dlgen/core/job_io.hpp"
#include "dlgen/core/llm.hpp"
#include "temp_dir.hpp"

namespace dlgen::mlperf {
namespace {

using cluster::make_thread_clusters;
using testing::TempDir;

CheckpointPass pass_of(std::uint32_t index, std::vector<RankPass> ranks) {
  CheckpointPass p;
  p.index = index;
  p.ranks = std::move(ranks);
  return p;
}

TEST(CheckpointFigures, DurationIsTheSlowestRankAndThroughputTimesDurationIsBytes) {
  const CheckpointPass p = pass_of(1, {{0, 400, 2.0}, {1, 300, 0.5}, {2, 0, 0.1}, {3, 100, 1.0}});
  const PassFigures f = pass_figures(p);
  EXPECT_EQ(f.bytes, 800u);
  EXPECT_DOUBLE_EQ(f.duration_s, 2.0);
  EXPECT_DOUBLE_EQ(f.throughput_bps * f.duration_s, 800.0);
  // Rates: 200, 600, (none: nothing written), 100 bytes/s: the slowest is rank 3.
  EXPECT_DOUBLE_EQ(f.slowest_rank_bps, 100.0);
  EXPECT_EQ(f.slowest_rank, 3u);
  // The slowest rank's rate never exceeds the aggregate rate divided by the ranks that wrote.
  EXPECT_LE(f.slowest_rank_bps, f.throughput_bps / 3 + 1e-9);
  EXPECT_EQ(pass_figures(CheckpointPass{}).throughput_bps, 0.0);
}

TEST(CheckpointFigures, PhaseMeansAndOverall) {
  const std::vector<CheckpointPass> passes = {pass_of(1, {{0, 1000, 1.0}, {1, 1000, 0.5}}),
                                              pass_of(2, {{0, 1000, 4.0}, {1, 1000, 2.0}})};
  const PhaseFigures ph = phase_figures(passes);
  EXPECT_EQ(ph.count, 2u);
  EXPECT_EQ(ph.bytes, 4000u);
  EXPECT_DOUBLE_EQ(ph.duration_s, 5.0);
  EXPECT_DOUBLE_EQ(ph.throughput_bps, 800.0);  // bytes / summed durations, not a mean of rates
  EXPECT_DOUBLE_EQ(ph.mean_duration_s, 2.5);
  EXPECT_DOUBLE_EQ(ph.mean_throughput_bps, (2000.0 + 500.0) / 2);
  EXPECT_DOUBLE_EQ(ph.stdev_throughput_bps, 750.0);
  EXPECT_DOUBLE_EQ(ph.slowest_rank_bps, 250.0);  // rank 0 of checkpoint 2
  EXPECT_EQ(phase_figures({}).count, 0u);
}

TEST(CheckpointFigures, CacheIsDroppedUnderThreeTimesRam) {
  EXPECT_TRUE(drop_cache_between(299, 100));
  EXPECT_FALSE(drop_cache_between(300, 100));
  EXPECT_FALSE(drop_cache_between(1, 0));  // RAM unknown: nothing promised
}

Job small_llm(const std::filesystem::path& dir, const std::string& extra = "") {
  const std::string toml =
      "[job]\nname = \"tiny\"\n[checkpoint]\nwrites = 2\nreads = 2\nwrite_size = \"64KiB\"\ndir = "
      "\"" +
      dir.string() + "\"\n" + extra +
      "[run]\ntrain = false\n[model]\nnum_layers = 4\nhidden_size = 128\nffn_hidden_size = 384\n"
      "vocab_size = 1000\nattention_heads = 4\nkv_heads = 2\ntensor_parallel = 2\n"
      "pipeline_parallel = 2\ndata_parallel = 2\nzero_stage = 1\n";
  Result<Job> j = parse_job(toml, "tiny.toml");
  EXPECT_TRUE(j) << (j ? "" : j.error().message);
  return j ? *j : Job{};
}

std::vector<unsigned char> slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(CheckpointWorkflow, EveryRankWritesItsShardsThenReadsThemBack) {
  TempDir tmp("dlgen-ckwf");
  const Job job = small_llm(tmp / "ck");
  Result<CheckpointRunResult> r = run_checkpoint_workflow(job);
  ASSERT_TRUE(r) << r.error().message;
  const auto shards = host_shards(job);
  ASSERT_EQ(shards.size(), 8u);
  EXPECT_EQ(r->ranks, 8u);
  EXPECT_EQ(r->checkpoint_bytes, checkpoint_bytes(shards));
  ASSERT_EQ(r->writes.size(), 2u);
  ASSERT_EQ(r->reads.size(), 2u);
  for (const auto* phase : {&r->writes, &r->reads})
    for (std::size_t i = 0; i < phase->size(); ++i) {
      const CheckpointPass& p = (*phase)[i];
      EXPECT_EQ(p.index, i + 1);
      ASSERT_EQ(p.ranks.size(), 8u);
      for (std::size_t k = 0; k < 8; ++k) {
        EXPECT_EQ(p.ranks[k].rank, shards[k].rank);
        EXPECT_EQ(p.ranks[k].bytes, shards[k].bytes());  // every byte of the shard, written or read
        EXPECT_GT(p.ranks[k].seconds, 0);
      }
      EXPECT_EQ(pass_figures(p).bytes, r->checkpoint_bytes);
    }
  // The files, at their sizes, one directory per checkpoint (DLIO's names).
  for (std::uint32_t i = 1; i <= 2; ++i)
    for (const auto& s : shards)
      for (const auto& f : s.files) {
        const auto path = tmp / "ck" / ("global_epoch1_step" + std::to_string(i)) / f.name;
        ASSERT_TRUE(std::filesystem::exists(path)) << path;
        EXPECT_EQ(std::filesystem::file_size(path), f.bytes) << path;
      }
  // ZeRO 1 with PP 2: rank 0 (dp 0) writes layer files, rank 4 (dp 1) only its optimizer state.
  EXPECT_TRUE(
      std::filesystem::exists(tmp / "ck/global_epoch1_step1/layer_0-model_0_model_states.pt"));
  EXPECT_TRUE(std::filesystem::exists(
      tmp / "ck/global_epoch1_step1/zero_pp_rank_1_mp_rank_0_optim_states.pt"));
  // Fresh content: the same file differs between checkpoints, and zlib cannot shrink it.
  const auto a = slurp(tmp / "ck/global_epoch1_step1/zero_pp_rank_0_mp_rank_0_optim_states.pt");
  const auto b = slurp(tmp / "ck/global_epoch1_step2/zero_pp_rank_0_mp_rank_0_optim_states.pt");
  ASSERT_EQ(a.size(), b.size());
  EXPECT_NE(a, b);
  uLongf n = compressBound(a.size());
  std::vector<unsigned char> z(n);
  ASSERT_EQ(compress2(z.data(), &n, a.data(), a.size(), 6), Z_OK);
  EXPECT_GT(double(n) / double(a.size()), 0.99);
  // The JSON carries the same figures.
  const auto j = nlohmann::json::parse(checkpoint_json(*r));
  EXPECT_EQ(j["write"]["count"], 2);
  EXPECT_EQ(j["read"]["bytes"].get<std::uint64_t>(), 2 * r->checkpoint_bytes);
  EXPECT_DOUBLE_EQ(j["write"]["checkpoints"][0]["duration_s"].get<double>(),
                   pass_figures(r->writes[0]).duration_s);
  EXPECT_EQ(j["config"]["ranks"], 8);
  EXPECT_NE(format_checkpoint_summary(*r).find("page cache"), std::string::npos);
}

TEST(CheckpointWorkflow, SubsetAndReadsOfCheckpointsWrittenEarlier) {
  TempDir tmp("dlgen-ckwf");
  Job job = small_llm(tmp / "ck", "mode = \"subset\"\nranks_per_host = 3\n");
  Result<CheckpointRunResult> r = run_checkpoint_workflow(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->ranks, 3u);
  EXPECT_EQ(r->world_ranks, 8u);
  ASSERT_FALSE(r->notes.empty());
  EXPECT_NE(r->notes.back().find("subset: ranks 0..2 of 8"), std::string::npos) << r->notes.back();
  // A later run that only reads finds the checkpoints and reads them (nothing rewritten).
  job.checkpoint.writes = 0;
  job.checkpoint.reads = 2;
  const auto before = std::filesystem::last_write_time(
      tmp / "ck/global_epoch1_step2/zero_pp_rank_0_mp_rank_0_optim_states.pt");
  Result<CheckpointRunResult> again = run_checkpoint_workflow(job);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->writes.empty());
  EXPECT_EQ(again->reads.size(), 2u);
  EXPECT_TRUE(again->notes.size() == 1);  // the subset note only: nothing was missing
  EXPECT_EQ(std::filesystem::last_write_time(
                tmp / "ck/global_epoch1_step2/zero_pp_rank_0_mp_rank_0_optim_states.pt"),
            before);
  // A checkpoint missing from storage is written first, untimed, and said so.
  job.checkpoint.reads = 3;
  Result<CheckpointRunResult> more = run_checkpoint_workflow(job);
  ASSERT_TRUE(more) << more.error().message;
  EXPECT_EQ(more->reads.size(), 3u);
  EXPECT_NE(more->notes.front().find("checkpoint 3 was missing"), std::string::npos);
}

TEST(CheckpointWorkflow, WithoutAModelFilesShareTheSize) {
  TempDir tmp("dlgen-ckwf");
  Result<Job> job = parse_job("[checkpoint]\nwrites = 1\nsize = 1000001\nfiles = 3\ndir = \"" +
                                  (tmp / "ck").string() + "\"\n[run]\ntrain = false\n",
                              "plain.toml");
  ASSERT_TRUE(job) << job.error().message;
  Result<CheckpointRunResult> r = run_checkpoint_workflow(*job);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->writes.size(), 1u);
  EXPECT_EQ(pass_figures(r->writes[0]).bytes, 1000001u);
  EXPECT_EQ(std::filesystem::file_size(tmp / "ck/global_epoch1_step1/checkpoint-0-of-3.dlgen"),
            333334u);
  EXPECT_EQ(std::filesystem::file_size(tmp / "ck/global_epoch1_step1/checkpoint-2-of-3.dlgen"),
            333333u);
  EXPECT_TRUE(r->reads.empty());
}

TEST(CheckpointWorkflow, ManyRanksStartTogether) {
  TempDir tmp("dlgen-ckwf");
  Job job = small_llm(tmp / "ck");
  job.model->data = 16;  // 64 ranks
  job.checkpoint.reads = 0;
  Result<CheckpointRunResult> r = run_checkpoint_workflow(job);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->ranks, 64u);
  ASSERT_EQ(r->writes.size(), 2u);
  for (const auto& p : r->writes) EXPECT_EQ(pass_figures(p).bytes, r->checkpoint_bytes);
}

TEST(CheckpointWorkflow, AnErrorNamesThePathAndStopsEveryRank) {
  TempDir tmp("dlgen-ckwf");
  std::ofstream(tmp / "file").put('x');  // the checkpoint directory's parent is a regular file
  const Job job = small_llm(tmp / "file" / "ck");
  Result<CheckpointRunResult> r = run_checkpoint_workflow(job);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find((tmp / "file" / "ck").string() +
                                   ": cannot create checkpoint directory"),
            std::string::npos)
      << r.error().message;
  // A shard path that is a directory: the rank refuses to replace it and the error names the file.
  TempDir tmp2("dlgen-ckwf");
  const Job j2 = small_llm(tmp2 / "ck");
  std::filesystem::create_directories(
      tmp2 / "ck/global_epoch1_step1/zero_pp_rank_1_mp_rank_3_optim_states.pt");
  Result<CheckpointRunResult> r2 = run_checkpoint_workflow(j2);
  ASSERT_FALSE(r2);
  EXPECT_NE(r2.error().message.find(
                "zero_pp_rank_1_mp_rank_3_optim_states.pt: exists and is not a regular file"),
            std::string::npos)
      << r2.error().message;
}

// Under mpirun the job's ranks are split evenly over the hosts, in rank order; together the hosts
// run exactly the ranks one host would. Subset mode: every host is one host of ranks_per_host.
TEST(CheckpointCluster, HostsShareTheRanksEvenlyOrAreRefused) {
  TempDir tmp("dlgen-ckwf");
  const Job job = small_llm(tmp / "ck");  // 8 ranks
  const auto all = host_shards(job);
  for (std::uint32_t hosts : {1u, 2u, 4u, 8u}) {
    std::vector<std::uint32_t> ranks;
    for (std::uint32_t h = 0; h < hosts; ++h) {
      Result<std::vector<RankShard>> s = cluster_host_shards(job, h, hosts);
      ASSERT_TRUE(s) << s.error().message;
      EXPECT_EQ(s->size(), 8u / hosts);
      for (const RankShard& r : *s) {
        ranks.push_back(r.rank);
        EXPECT_EQ(r.bytes(), all[r.rank].bytes());
        EXPECT_EQ(r.files.size(), all[r.rank].files.size());
      }
    }
    ASSERT_EQ(ranks.size(), 8u) << hosts;
    for (std::uint32_t i = 0; i < 8; ++i) EXPECT_EQ(ranks[i], i);
  }
  Result<std::vector<RankShard>> three = cluster_host_shards(job, 0, 3);
  ASSERT_FALSE(three);
  EXPECT_EQ(three.error().kind, ErrorKind::bad_input);
  EXPECT_NE(three.error().message.find("8 ranks (the model's TP x PP x DP) do not split evenly "
                                       "over 3 hosts"),
            std::string::npos)
      << three.error().message;
  // Subset: 2 ranks per host; 2 hosts run ranks 0..3, 5 hosts would need 10 of 8.
  Job subset = job;
  subset.checkpoint.mode = CheckpointMode::subset;
  subset.checkpoint.ranks_per_host = 2;
  Result<std::vector<RankShard>> h1 = cluster_host_shards(subset, 1, 2);
  ASSERT_TRUE(h1);
  ASSERT_EQ(h1->size(), 2u);
  EXPECT_EQ((*h1)[0].rank, 2u);
  EXPECT_EQ((*h1)[1].rank, 3u);
  EXPECT_FALSE(cluster_host_shards(subset, 0, 5));
  // Without a model: checkpoint.files ranks, 6 over 3 hosts.
  Job plain = job;
  plain.model.reset();
  plain.checkpoint.files = 6;
  plain.checkpoint.size_bytes = 6000;
  Result<std::vector<RankShard>> last = cluster_host_shards(plain, 2, 3);
  ASSERT_TRUE(last);
  ASSERT_EQ(last->size(), 2u);
  EXPECT_EQ((*last)[0].files[0].name, "checkpoint-4-of-6.dlgen");
  EXPECT_FALSE(cluster_host_shards(plain, 0, 4));
}

// Two hosts (ranks as threads) of four simulated ranks each write and read the same files and
// bytes as one host of eight; every host returns the same merged result, whose checkpoint lasts
// as long as the slowest rank of either host.
TEST(CheckpointCluster, TwoHostsOfFourWriteWhatOneHostOfEightWrites) {
  TempDir tmp("dlgen-ckwf");
  const Job one = small_llm(tmp / "one");
  Result<CheckpointRunResult> single = run_checkpoint_workflow(one);
  ASSERT_TRUE(single) << single.error().message;

  const Job two = small_llm(tmp / "two");
  auto cl = make_thread_clusters(2, {"a", "b"});
  std::vector<Result<CheckpointRunResult>> got(2, input_error("not run"));
  std::vector<std::thread> hosts;
  for (std::uint32_t h = 0; h < 2; ++h)
    hosts.emplace_back([&, h] {
      CheckpointRunOptions o;
      o.cluster = cl[h].get();
      got[h] = run_checkpoint_workflow(two, o);
    });
  for (auto& t : hosts) t.join();
  for (std::uint32_t h = 0; h < 2; ++h) {
    const Result<CheckpointRunResult>& r = got[h];
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->ranks, single->ranks);
    EXPECT_EQ(r->checkpoint_bytes, single->checkpoint_bytes);
    EXPECT_EQ(r->checkpoint_files, single->checkpoint_files);
    ASSERT_EQ(r->hosts.size(), 2u);
    EXPECT_EQ(r->hosts[0].host, "a");
    EXPECT_EQ(r->hosts[1].host, "b");
    EXPECT_EQ(r->hosts[1].first_rank, 4u);
    EXPECT_EQ(r->hosts[0].checkpoint_bytes + r->hosts[1].checkpoint_bytes, r->checkpoint_bytes);
    ASSERT_EQ(r->writes.size(), single->writes.size());
    ASSERT_EQ(r->reads.size(), single->reads.size());
    for (const auto& [mine, ref] :
         {std::pair{&r->writes, &single->writes}, std::pair{&r->reads, &single->reads}})
      for (std::size_t i = 0; i < mine->size(); ++i) {
        const CheckpointPass& p = (*mine)[i];
        EXPECT_EQ(p.index, (*ref)[i].index);
        ASSERT_EQ(p.ranks.size(), 8u);
        double slowest = 0;
        for (std::size_t k = 0; k < 8; ++k) {
          EXPECT_EQ(p.ranks[k].rank, k);  // both hosts' ranks, in rank order
          EXPECT_EQ(p.ranks[k].bytes, (*ref)[i].ranks[k].bytes);
          slowest = std::max(slowest, p.ranks[k].seconds);
        }
        EXPECT_DOUBLE_EQ(pass_figures(p).duration_s, slowest);
      }
    EXPECT_EQ(r->hosts.size(), nlohmann::json::parse(checkpoint_json(*r))["hosts"].size());
  }
  // The same files at the same sizes.
  std::vector<std::pair<std::string, std::uintmax_t>> a, b;
  for (const auto& e : std::filesystem::recursive_directory_iterator(tmp / "one"))
    if (e.is_regular_file())
      a.emplace_back(std::filesystem::relative(e.path(), tmp / "one").string(), e.file_size());
  for (const auto& e : std::filesystem::recursive_directory_iterator(tmp / "two"))
    if (e.is_regular_file())
      b.emplace_back(std::filesystem::relative(e.path(), tmp / "two").string(), e.file_size());
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

// One host's failure stops both hosts at the same checkpoint, each saying which host and why.
TEST(CheckpointCluster, OneHostsFailureStopsEveryHost) {
  TempDir tmp("dlgen-ckwf");
  const Job job = small_llm(tmp / "ck");
  // Rank 5 (host b's) writes zero_pp_rank_1_mp_rank_1_optim_states.pt.
  std::filesystem::create_directories(
      tmp / "ck/global_epoch1_step2/zero_pp_rank_1_mp_rank_1_optim_states.pt");
  auto cl = make_thread_clusters(2, {"a", "b"});
  std::vector<Result<CheckpointRunResult>> got(2, input_error("not run"));
  std::vector<std::thread> hosts;
  for (std::uint32_t h = 0; h < 2; ++h)
    hosts.emplace_back([&, h] {
      CheckpointRunOptions o;
      o.cluster = cl[h].get();
      got[h] = run_checkpoint_workflow(job, o);
    });
  for (auto& t : hosts) t.join();
  for (const auto& r : got) {
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("rank 1 (b): "), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(
                  "zero_pp_rank_1_mp_rank_1_optim_states.pt: exists and is not a regular file"),
              std::string::npos)
        << r.error().message;
  }
}

}  // namespace

// Issue 17 (root safety). A plain checkpoint-only job: `files` ranks, one shard each, in `dir`.
Job plain_job(const std::filesystem::path& dir, const std::string& extra = "",
              std::uint64_t size = 1000000, std::uint32_t files = 2) {
  Result<Job> job = parse_job("[checkpoint]\nsize = " + std::to_string(size) +
                                  "\nfiles = " + std::to_string(files) + "\ndir = \"" +
                                  dir.string() + "\"\n" + extra + "[run]\ntrain = false\n",
                              "plain.toml");
  EXPECT_TRUE(job) << job.error().message;
  return *job;
}

std::string text_of(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

// The fraction of the file's bytes in the page cache (mincore), measured here independently.
double resident(const std::filesystem::path& p) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  ::fstat(fd, &st);
  const std::size_t size = static_cast<std::size_t>(st.st_size), page = 4096;
  void* m = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (m == MAP_FAILED) return -1;
  std::vector<unsigned char> vec((size + page - 1) / page);
  const int rc = ::mincore(m, size, vec.data());
  ::munmap(m, size);
  if (rc != 0) return -1;
  std::size_t in = 0;
  for (unsigned char v : vec) in += v & 1;
  return double(in) / double(vec.size());
}

// A checkpoint file replaced by a symbolic link to a file outside: before the fix the shard was
// opened O_CREAT | O_TRUNC and written through the link (as root: any file). Now it is refused
// and the outside file keeps its bytes.
TEST(CheckpointSafety, ALinkPlantedAtAShardIsNotWrittenThrough) {
  TempDir tmp("dlgen-ckln");
  const std::filesystem::path outside = tmp / "outside";
  std::ofstream(outside) << "keep";
  std::filesystem::create_directories(tmp / "ck/global_epoch1_step1");
  std::filesystem::create_symlink(outside, tmp / "ck/global_epoch1_step1/checkpoint-1-of-2.dlgen");
  Result<CheckpointRunResult> r = run_checkpoint_workflow(plain_job(tmp / "ck", "writes = 1\n"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("checkpoint-1-of-2.dlgen: exists and is not a regular file"),
            std::string::npos)
      << r.error().message;
  EXPECT_EQ(text_of(outside), "keep");
}

// A checkpoint's directory replaced by a link to a directory outside: not followed.
TEST(CheckpointSafety, ALinkPlantedAtACheckpointDirectoryIsNotFollowed) {
  TempDir tmp("dlgen-ckln");
  const std::filesystem::path outside = tmp / "outside";
  std::filesystem::create_directories(outside);
  std::filesystem::create_directories(tmp / "ck");
  std::filesystem::create_directory_symlink(outside, tmp / "ck/global_epoch1_step1");
  Result<CheckpointRunResult> r = run_checkpoint_workflow(plain_job(tmp / "ck", "writes = 1\n"));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("is a symbolic link"), std::string::npos) << r.error().message;
  EXPECT_TRUE(std::filesystem::is_empty(outside));
}

// checkpoint.keep: the newest N checkpoints this run wrote stay, the older ones' files go (and
// their directories, unless something else is in them); unset, every checkpoint stays.
TEST(CheckpointSafety, KeepLeavesTheNewestCheckpointsAndOnlyDeletesWhatItWrote) {
  TempDir tmp("dlgen-ckkeep");
  Result<CheckpointRunResult> all = run_checkpoint_workflow(plain_job(tmp / "a", "writes = 3\n"));
  ASSERT_TRUE(all) << all.error().message;
  for (int i = 1; i <= 3; ++i)
    EXPECT_TRUE(std::filesystem::exists(tmp / "a" / ("global_epoch1_step" + std::to_string(i))));

  std::filesystem::create_directories(tmp / "b/global_epoch1_step1");
  std::ofstream(tmp / "b/global_epoch1_step1/notes.txt") << "someone's";
  Result<CheckpointRunResult> one =
      run_checkpoint_workflow(plain_job(tmp / "b", "writes = 3\nreads = 3\nkeep = 1\n"));
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(one->reads.size(), 3u);  // the reads came before the clean-up
  EXPECT_FALSE(std::filesystem::exists(tmp / "b/global_epoch1_step1/checkpoint-0-of-2.dlgen"));
  EXPECT_EQ(text_of(tmp / "b/global_epoch1_step1/notes.txt"), "someone's");
  EXPECT_FALSE(std::filesystem::exists(tmp / "b/global_epoch1_step2"));
  EXPECT_TRUE(std::filesystem::exists(tmp / "b/global_epoch1_step3/checkpoint-1-of-2.dlgen"));

  Result<CheckpointRunResult> none =
      run_checkpoint_workflow(plain_job(tmp / "c", "writes = 2\nkeep = 0\n"));
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(std::filesystem::is_empty(tmp / "c"));
  // A training job's checkpoints overwrite one another: keep is refused there.
  Job train = plain_job(tmp / "d", "writes = 1\n");
  train.run.train = true;
  train.checkpoint.keep = 1;
  bool refused = false;
  for (const Diagnostic& d : validate(train)) refused |= d.path == "checkpoint.keep";
  EXPECT_TRUE(refused);
}

// Free space: checkpoints that cannot fit are refused before anything is written, with the
// bytes needed and available (a 256 KiB tmpfs; root only, as mount(2) needs).
TEST(CheckpointSafety, RefusesCheckpointsLargerThanTheFreeSpace) {
  TempDir tmp("dlgen-ckfull");
  const std::filesystem::path mnt = tmp / "small";
  std::filesystem::create_directories(mnt);
  if (::mount("dlgen-test", mnt.c_str(), "tmpfs", 0, "size=256k") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs here (" << std::strerror(errno) << ")";
  struct Unmount {
    std::filesystem::path p;
    ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
  } unmount{mnt};
  Result<CheckpointRunResult> r = run_checkpoint_workflow(plain_job(mnt / "ck", "writes = 2\n"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::runtime);
  EXPECT_NE(r.error().message.find("needs "), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("are available"), std::string::npos) << r.error().message;
  std::uint64_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(mnt))
    files += e.is_regular_file();
  EXPECT_EQ(files, 0u);
}

// Issue 17, item 10: "the reads come from storage" only when they do. As root the page cache is
// dropped (drop_caches) and mincore sees none of the files resident before the reads.
TEST(CheckpointSafety, DroppedCacheIsVerifiedWithMincore) {
  if (::access("/proc/sys/vm/drop_caches", W_OK) != 0)
    GTEST_SKIP() << "/proc/sys/vm/drop_caches is not writable here (not root)";
  TempDir tmp("dlgen-ckdrop");
  CheckpointRunOptions o;
  o.ram_bytes = 1ull << 40;  // the 3 x RAM rule drops the cache
  Result<CheckpointRunResult> r =
      run_checkpoint_workflow(plain_job(tmp / "ck", "writes = 1\nreads = 1\n", 8 << 20), o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->cache_dropped);
  EXPECT_EQ(r->cache_method, "drop_caches");
  EXPECT_GE(r->resident_fraction, 0.0);
  EXPECT_LT(r->resident_fraction, 0.01);
  EXPECT_NE(r->cache_note.find("drop_caches"), std::string::npos) << r->cache_note;
  EXPECT_NE(r->cache_note.find("mincore: 0.0%"), std::string::npos) << r->cache_note;
  const nlohmann::json j = nlohmann::json::parse(checkpoint_json(*r));
  EXPECT_EQ(j["page_cache"]["method"], "drop_caches");
}

// Without drop_caches (unprivileged), the files are advised out and read with O_DIRECT: after
// the reads they are still not in the page cache. Before the fix the reads were buffered and left
// the whole checkpoint resident.
TEST(CheckpointSafety, WithoutDropCachesTheReadsBypassThePageCache) {
  TempDir tmp("dlgen-ckdirect");
  CheckpointRunOptions o;
  o.ram_bytes = 1ull << 40;
  o.drop_caches = false;
  Result<CheckpointRunResult> r = run_checkpoint_workflow(
      plain_job(tmp / "ck", "writes = 1\nreads = 1\n", (8 << 20) + 1000), o);
  ASSERT_TRUE(r) << r.error().message;
  if (r->cache_note.find("refused O_DIRECT") != std::string::npos)
    GTEST_SKIP() << "this filesystem has no O_DIRECT (" << r->cache_note << ")";
  EXPECT_EQ(r->cache_method, "O_DIRECT");
  ASSERT_EQ(r->reads.size(), 1u);
  EXPECT_EQ(pass_figures(r->reads[0]).bytes, (8u << 20) + 1000);
  for (const char* f : {"checkpoint-0-of-2.dlgen", "checkpoint-1-of-2.dlgen"})
    EXPECT_LT(resident(tmp / "ck/global_epoch1_step1" / f), 0.05) << f;
  EXPECT_NE(r->cache_note.find("O_DIRECT"), std::string::npos) << r->cache_note;
}

}  // namespace dlgen::mlperf
