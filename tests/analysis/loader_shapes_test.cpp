// summarize + distil on hand-built traces of loader shapes from the held-out programs
// (tests/pytorch/heldout/README.md): images in one zip read member by member, a sampler that draws
// with replacement, and one HDF5 file whose label array is read beside every image.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/core/job.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

// A DataLoader run: a main process (pid 100) that receives batches, and per pass `workers` fresh
// worker processes (PyTorch's default, persistent_workers=False) that read samples and hand each
// batch over with sendmsg.
class Loader : public testing::TraceBuilder {
 public:
  explicit Loader(std::uint32_t workers) : workers_(workers) {
    proc(kMain, 1, "python3", false, kMain);
  }
  using testing::TraceBuilder::ev;
  using testing::TraceBuilder::file;

  // One pass: each worker reads its share of `samples` (round robin, `batch` a batch) with
  // read_sample(pid, sample) and hands each batch over; 20 ms of compute a step.
  template <class ReadSample>
  void pass(const std::vector<std::uint32_t>& samples, std::uint32_t batch,
            ReadSample read_sample) {
    std::vector<std::size_t> sizes(samples.size() / batch, batch);
    if (samples.size() % batch) sizes.push_back(samples.size() % batch);
    pass_sizes(samples, sizes, read_sample);
  }
  // One pass in batches of the given sizes (a batch sampler of its own), as pass() above.
  template <class ReadSample>
  void pass_sizes(const std::vector<std::uint32_t>& samples, const std::vector<std::size_t>& sizes,
                  ReadSample read_sample) {
    now_ += 50'000'000;  // the workers start
    std::vector<std::uint32_t> pids;
    for (std::uint32_t w = 0; w < workers_; ++w) {
      pids.push_back(next_pid_++);
      proc(pids.back(), kMain, "pt_data_worker", false, pids.back());
    }
    std::size_t next = 0;
    for (std::size_t b = 0; b < sizes.size(); ++b) {
      const std::uint32_t pid = pids[b % workers_];
      for (std::size_t i = next; i < std::min(samples.size(), next + sizes[b]); ++i)
        read_sample(pid, samples[i]);
      next += sizes[b];
      ev(now_, 10'000, pid, pid, Op::sendmsg, trace::kNoFile, 5, 0, 64, 64);
      now_ += 20'000;
      ev(now_, 10'000, kMain, kMain, Op::recvmsg, trace::kNoFile, 6, 0, 64, 64);
      now_ += 20'000'000;
    }
  }
  // `epochs` passes over samples 0..n-1, reshuffled before each (shuffle=True).
  template <class ReadSample>
  void shuffled_passes(std::uint32_t n, int epochs, std::uint32_t batch, std::mt19937& rng,
                       ReadSample read_sample) {
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    for (int epoch = 0; epoch < epochs; ++epoch) {
      std::shuffle(order.begin(), order.end(), rng);
      pass(order, batch, read_sample);
    }
  }
  // A fresh generation of workers, and `samples` read by them (`batch` a batch, round robin), for
  // a pass read in parts (an evaluation in the middle of an epoch).
  std::vector<std::uint32_t> spawn() {
    now_ += 50'000'000;
    std::vector<std::uint32_t> pids;
    for (std::uint32_t w = 0; w < workers_; ++w) {
      pids.push_back(next_pid_++);
      proc(pids.back(), kMain, "pt_data_worker", false, pids.back());
    }
    return pids;
  }
  template <class ReadSample>
  void batches(const std::vector<std::uint32_t>& pids, const std::vector<std::uint32_t>& samples,
               std::uint32_t batch, ReadSample read_sample) {
    for (std::size_t b = 0; b * batch < samples.size(); ++b) {
      const std::uint32_t pid = pids[b % pids.size()];
      for (std::size_t i = b * batch; i < std::min(samples.size(), (b + 1) * batch); ++i)
        read_sample(pid, samples[i]);
      ev(now_, 10'000, pid, pid, Op::sendmsg, trace::kNoFile, 5, 0, 64, 64);
      now_ += 20'000;
      ev(now_, 10'000, kMain, kMain, Op::recvmsg, trace::kNoFile, 6, 0, 64, 64);
      now_ += 20'000'000;
    }
  }
  // A sample file opened, read whole (`size` bytes, one read) and closed by worker `pid`, then
  // `after_ns` of its decoding.
  void read_whole(std::uint32_t pid, std::uint32_t f, std::uint64_t size, std::uint64_t after_ns) {
    ev(now_, 5'000, pid, pid, Op::open, f, -1, 0, 0, 9);
    ev(now_ + 6'000, 5'000, pid, pid, Op::read, f, 9, 0, size, static_cast<std::int64_t>(size));
    ev(now_ + 12'000, 1'000, pid, pid, Op::close, f, 9, 0, 0, 0);
    now_ += after_ns;
  }
  const trace::Trace& get() const { return t_; }
  std::uint64_t& now() { return now_; }

 private:
  static constexpr std::uint32_t kMain = 100;
  std::uint32_t workers_, next_pid_ = 200;
};

// A zip of 96 JPEG members (2.5-11.5 KiB; a 30-byte local header and a 13-byte name before each),
// then its central directory. Each process that opens it with zipfile.ZipFile reads the end
// record, the zip64 locator probe and the central directory; ZipFile.read(name) seeks to the
// member's header and reads through Python's 4 KiB buffer: a 4 KiB fill at the header, the rest
// directly in 4 KiB multiples, a last fill.
TEST(LoaderShapes, ZipMembersReadByEachWorkerAreSamples) {
  Loader b(2);
  std::mt19937 rng(3);
  std::vector<std::uint64_t> offset, size;
  std::uint64_t at = 0;
  for (int i = 0; i < 96; ++i) {
    offset.push_back(at);
    size.push_back(43 + 2560 + rng() % 9216);
    at += size.back();
  }
  const std::uint64_t cd = at, file_size = cd + 96 * 59 + 22;
  const auto zip = b.file("/data/images.zip", file_size, 0x04034b50, 4);
  std::map<std::uint32_t, bool> opened;
  auto read = [&](std::uint32_t pid, std::uint64_t off, std::uint64_t ask, std::uint64_t got) {
    b.ev(b.now(), 2'000, pid, pid, Op::read, zip, 7, off, ask, static_cast<std::int64_t>(got));
    b.now() += 3'000;
  };
  auto open_zip = [&](std::uint32_t pid) {  // ZipFile(path): the index
    b.ev(b.now(), 5'000, pid, pid, Op::open, zip, -1, 0, 0, 7);
    b.now() += 6'000;
    read(pid, file_size - 22, 4096, 22);
    read(pid, file_size - 42, 4096, 42);
    read(pid, cd, 8192, file_size - cd);
  };
  open_zip(100);  // the main process lists the members
  b.ev(b.now(), 1'000, 100, 100, Op::close, zip, 7, 0, 0, 0);
  auto read_member = [&](std::uint32_t pid, std::uint32_t m) {
    if (!opened[pid]) open_zip(pid), opened[pid] = true;
    b.ev(b.now(), 1'000, pid, pid, Op::lseek, zip, 7, offset[m], 0, 0);
    read(pid, offset[m], 4096, 4096);
    std::uint64_t left = size[m] > 4096 ? size[m] - 4096 : 0, pos = offset[m] + 4096;
    if (left >= 4096)
      read(pid, pos, left / 4096 * 4096, left / 4096 * 4096), pos += left / 4096 * 4096;
    if (left % 4096) read(pid, pos, 4096, 4096);
    b.now() += 300'000;  // decode
  };
  b.shuffled_passes(96, 2, 8, rng, read_member);
  const TraceSummary s = summarize(b.get());
  ASSERT_EQ(s.sample_files.size(), 1u);
  EXPECT_EQ(s.sample_files[0].offsets, offset) << "the central directory is not a member";
  EXPECT_EQ(s.sample_files[0].extents, size);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.dataset.num_files, 1u);
  EXPECT_EQ(d.job.dataset.samples_per_file, 96u);
  const double mean = std::accumulate(size.begin(), size.end(), 0.0) / 96;
  EXPECT_NEAR(d.job.dataset.sample_size.expected(), mean, 0.02 * mean);
  EXPECT_EQ(d.job.reader.read_unit, ReadUnit::sample);
  EXPECT_EQ(d.job.reader.shuffle, Shuffle::sample);
  EXPECT_EQ(d.job.reader.batch_size, 8u);
  EXPECT_EQ(d.job.reader.workers, 2u);
  EXPECT_EQ(d.job.run.epochs, 2u) << "each worker's open of the zip is not a pass";
  // Every member's reading starts with a 4 KiB fill: the replay reads a member in whole fills.
  EXPECT_EQ(d.job.reader.request_size_bytes, 4096u);
  EXPECT_EQ(d.job.reader.stream_granule_bytes, 4096u);
  for (const auto& problem : validate(d.job))
    ADD_FAILURE() << problem.path << ": " << problem.message;
}

// WeightedRandomSampler(num_samples=120, replacement=True) over 120 files, 2 fresh workers a pass,
// batch 10, 3 epochs: files repeat within a pass, and a pass is one generation of workers.
TEST(LoaderShapes, DrawsWithReplacementEndAPassWithItsWorkers) {
  Loader b(2);
  std::vector<std::uint32_t> files;
  for (int i = 0; i < 120; ++i)
    files.push_back(b.file("/data/common/" + std::to_string(1000 + i) + ".bin", 8192));
  std::mt19937 rng(5);
  // decode: over 1 ms, so a file drawn twice in a row is two reads
  auto read_file = [&](std::uint32_t pid, std::uint32_t f) {
    b.read_whole(pid, f, 8192, 2'000'000);
  };
  for (int epoch = 0; epoch < 3; ++epoch) {
    std::vector<std::uint32_t> draws;
    for (int i = 0; i < 120; ++i) draws.push_back(files[rng() % 120]);
    b.pass(draws, 10, read_file);
  }
  const TraceSummary s = summarize(b.get());
  ASSERT_EQ(s.epochs.size(), 3u);
  for (const auto& e : s.epochs) {
    EXPECT_EQ(e.accesses, 120u);
    EXPECT_EQ(e.steps, 12u);
  }
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.run.epochs, 3u);
  EXPECT_EQ(d.job.run.max_steps, 0u);
  EXPECT_EQ(d.job.reader.batch_size, 10u);
  EXPECT_FALSE(d.job.reader.batches_vary());
  EXPECT_EQ(d.job.reader.workers, 2u);
}

// A batch sampler of its own (a token budget): 3 epochs of 300 files in 34 batches of 2-30 files,
// in a new order each epoch. Distil writes batch_size as the histogram of the sizes seen (the
// replay draws each epoch's 34 batches from it); batches of one size scattered by a few (24-29,
// as accesses counted as samples do) stay one size.
TEST(LoaderShapes, BatchesOfVaryingSizeAreADistribution) {
  for (const bool vary : {true, false}) {
    SCOPED_TRACE(vary ? "a token budget" : "24-29 around 26");
    Loader b(2);
    auto read_file = [&](std::uint32_t pid, std::uint32_t f) {
      b.read_whole(pid, f, 900, 100'000);
    };
    std::vector<std::size_t> sizes;
    if (vary) {
      sizes.insert(sizes.end(), {20, 30, 30, 30});
      for (const std::size_t n : {2, 5, 12}) sizes.insert(sizes.end(), 10, n);
    } else {
      for (int i = 0; i < 12; ++i) sizes.push_back(24 + i % 6);  // 318 a pass
    }
    std::vector<std::uint32_t> files;
    for (std::size_t i = 0; i < std::accumulate(sizes.begin(), sizes.end(), std::size_t{0}); ++i)
      files.push_back(b.file("/data/docs/doc_" + std::to_string(1000 + i) + ".bin", 900));
    std::mt19937 rng(7);
    for (int epoch = 0; epoch < 3; ++epoch) {
      std::shuffle(sizes.begin(), sizes.end(), rng);
      std::vector<std::uint32_t> order = files;
      std::shuffle(order.begin(), order.end(), rng);
      b.pass_sizes(order, sizes, read_file);
    }
    const Distilled d = distil(summarize(b.get()));
    ASSERT_EQ(d.job.reader.batches_vary(), vary);
    if (!vary) continue;
    const Distribution& h = d.job.reader.batch_sizes;
    ASSERT_EQ(h.kind, DistKind::histogram);
    std::vector<HistogramBin> want = {
        {2, 2, 30}, {5, 5, 30}, {12, 12, 30}, {20, 20, 3}, {30, 30, 9}};
    EXPECT_EQ(h.bins, want);
    EXPECT_EQ(d.job.reader.batch_size, 9u);  // 300 / 34
    EXPECT_NE(d.comments.at("reader.batch_size").find("varies: 102 handovers"), std::string::npos)
        << d.comments.at("reader.batch_size");
  }
}

// A WeightedRandomSampler over a ConcatDataset of two folders draws nearly every file of the
// folder it favours (19 of 20 here) and half of the other (20 of 40): the listings of both folders
// (getdents64) say 60 files, and the one the favoured folder's draws missed is one of them.
TEST(LoaderShapes, FilesListedButNotDrawnCountOverTheWholeSet) {
  Loader b(2);
  std::vector<std::uint32_t> common, rare;
  for (int i = 0; i < 40; ++i)
    common.push_back(b.file("/data/common/c_" + std::to_string(10000 + i) + ".bin", 8192));
  for (int i = 0; i < 20; ++i)
    rare.push_back(b.file("/data/rare/r_" + std::to_string(10000 + i) + ".bin", 8192));
  const auto common_dir = b.file("/data/common", 4096), rare_dir = b.file("/data/rare", 4096);
  // os.listdir of each folder: one getdents64 call with the records (32 bytes each for these
  // names, 48 for "." and ".."), then one returning 0.
  for (auto [dir, n] : {std::pair{common_dir, 40}, std::pair{rare_dir, 20}}) {
    b.ev(b.now(), 1'000, 100, 100, Op::getdents, dir, 5, 0, 32768, 48 + 32 * n);
    b.ev(b.now(), 1'000, 100, 100, Op::getdents, dir, 5, 0, 32768, 0);
  }
  auto read_file = [&](std::uint32_t pid, std::uint32_t f) {
    b.read_whole(pid, f, 8192, 2'000'000);
  };
  std::vector<std::uint32_t> draws;
  for (int i = 0; i < 20; ++i) draws.push_back(common[2 * i]);
  for (int i = 0; i < 19; ++i) draws.push_back(rare[i]);
  b.pass(draws, 13, read_file);
  const TraceSummary s = summarize(b.get());
  ASSERT_GE(s.datasets.size(), 1u);
  EXPECT_EQ(s.datasets[0].files.size(), 39u);
  EXPECT_EQ(s.datasets[0].listed_files, 60u);
  EXPECT_EQ(distil(s).job.dataset.num_files, 60u);
}

// One more entry than the files read in a folder of a few (dlgen's .dlgen-manifest.json beside 6
// Parquet files, a README) is the folder's other file, not a sample the loader did not draw.
TEST(LoaderShapes, OneOtherEntryOfAFolderIsNotAFile) {
  Loader b(2);
  std::vector<std::uint32_t> files;
  for (int i = 0; i < 6; ++i)
    files.push_back(b.file("/data/pq/file_000000" + std::to_string(i) + ".bin", 8192));
  const auto dir = b.file("/data/pq", 4096);
  b.ev(b.now(), 1'000, 100, 100, Op::getdents, dir, 5, 0, 32768, 48 + 40 * 7);
  b.ev(b.now(), 1'000, 100, 100, Op::getdents, dir, 5, 0, 32768, 0);
  auto read_file = [&](std::uint32_t pid, std::uint32_t f) {
    b.read_whole(pid, f, 8192, 2'000'000);
  };
  b.pass(files, 2, read_file);
  const TraceSummary s = summarize(b.get());
  ASSERT_GE(s.datasets.size(), 1u);
  EXPECT_EQ(s.datasets[0].files.size(), 6u);
  EXPECT_EQ(distil(s).job.dataset.num_files, 6u);
}

// Fresh workers reading without replacement still end a pass at the first file read again, as
// before: an epoch's files are each read once.
TEST(LoaderShapes, WithoutReplacementAPassEndsWhenAFileRepeats) {
  Loader b(2);
  std::vector<std::uint32_t> files;
  for (int i = 0; i < 64; ++i)
    files.push_back(b.file("/data/train/" + std::to_string(1000 + i) + ".bin", 8192));
  auto read_file = [&](std::uint32_t pid, std::uint32_t f) { b.read_whole(pid, f, 8192, 200'000); };
  b.pass(files, 8, read_file);
  b.pass(files, 8, read_file);
  const TraceSummary s = summarize(b.get());
  ASSERT_EQ(s.epochs.size(), 2u);
  EXPECT_EQ(s.epochs[0].accesses, 64u);
}

// An evaluation every N steps, in the middle of an epoch: the training loader's workers live on
// through it (their read-ahead batches waiting), then read the rest of the epoch. 2 epochs of 64
// files, batch 8, an evaluation of 16 files after 4 steps of each: 2 training passes of 8 steps,
// not 4 of 4.
TEST(LoaderShapes, AnEvaluationInTheMiddleOfAnEpochDoesNotSplitIt) {
  Loader b(2);
  std::vector<std::uint32_t> train, val;
  for (int i = 0; i < 64; ++i)
    train.push_back(b.file("/data/train/" + std::to_string(1000 + i) + ".bin", 8192));
  for (int i = 0; i < 16; ++i)
    val.push_back(b.file("/data/val/" + std::to_string(1000 + i) + ".bin", 8192));
  auto read_file = [&](std::uint32_t pid, std::uint32_t f) { b.read_whole(pid, f, 8192, 200'000); };
  for (int epoch = 0; epoch < 2; ++epoch) {
    const auto workers = b.spawn();
    b.batches(workers, {train.begin(), train.begin() + 32}, 8, read_file);
    b.batches(b.spawn(), val, 8, read_file);
    b.batches(workers, {train.begin() + 32, train.end()}, 8, read_file);
  }
  const TraceSummary s = summarize(b.get());
  std::vector<std::uint64_t> train_steps, eval_steps;
  for (const auto& e : s.epochs) (e.evaluation ? eval_steps : train_steps).push_back(e.steps);
  EXPECT_EQ(train_steps, (std::vector<std::uint64_t>{8, 8}));
  EXPECT_EQ(eval_steps, (std::vector<std::uint64_t>{2, 2}));
  EXPECT_EQ(distil(s).job.run.epochs, 2u);
}

// h5py reading images[i] and labels[i] of one contiguous HDF5 file: each image through the 64 KiB
// sieve buffer, each label read of the whole label array after the images (16,000 B: more than a
// 12 KiB image slot). The label array is not a sample slot: 2,000 samples, not 2,001, and the
// repeated label reads do not end passes.
TEST(LoaderShapes, AnArrayReadBesideEverySampleIsNotASample) {
  Loader b(2);
  constexpr std::uint64_t kBase = 2048, kRow = 12288, kRows = 512;
  const std::uint64_t labels = kBase + kRows * kRow, size = labels + kRows * 8 * 4;
  const auto h5 = b.file("/data/train.h5", size, 0x0a1a0a0d46444889ull, 8);
  std::map<std::uint32_t, bool> opened;
  auto read_sample = [&](std::uint32_t pid, std::uint32_t k) {
    if (!opened[pid]) {
      b.ev(b.now(), 5'000, pid, pid, Op::open, h5, -1, 0, 0, 8);
      b.ev(b.now() + 6'000, 5'000, pid, pid, Op::pread, h5, 8, 0, 2048, 2048);
      b.now() += 12'000, opened[pid] = true;
    }
    const std::uint64_t off = kBase + k * kRow;
    b.ev(b.now(), 5'000, pid, pid, Op::pread, h5, 8, off, 65536,
         static_cast<std::int64_t>(std::min<std::uint64_t>(65536, size - off)));
    const std::uint64_t loff = labels + k * 8;
    b.ev(b.now() + 6'000, 3'000, pid, pid, Op::pread, h5, 8, loff, size - loff,
         static_cast<std::int64_t>(size - loff));
    b.now() += 150'000;
  };
  std::mt19937 rng(9);
  b.shuffled_passes(kRows, 2, 16, rng, read_sample);
  const TraceSummary s = summarize(b.get());
  ASSERT_EQ(s.sample_files.size(), 1u);
  EXPECT_EQ(s.sample_files[0].samples, kRows);
  EXPECT_EQ(s.sample_files[0].aux_reads, 2 * kRows) << "one label read a sample";
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.dataset.samples_per_file, kRows);
  EXPECT_EQ(d.job.run.epochs, 2u);
  EXPECT_EQ(d.job.reader.batch_size, 16u);
  EXPECT_EQ(d.job.reader.workers, 2u);
}

}  // namespace
}  // namespace dlgen::analysis
