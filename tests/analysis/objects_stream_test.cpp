// Tar shards streamed from S3 (WebDataset's pattern: a whole-object GET a shard, tarfile reading
// the body as the DataLoader worker iterates): the objects pre-pass (analysis/src/prepass/
// objects.hpp) turns a GET whose body came in bursts (/http_body) into one open, a read per
// burst and one close, so summarize sees each shard read front to back in pieces between the
// worker's handovers, as a local tar shard is, and distil writes a stream job.
#include <gtest/gtest.h>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/datasets/layout.hpp"
#include "distil/fit.hpp"
#include "dlgen/trace/trace_text.hpp"
#include "prepass/objects.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

std::vector<trace::Event> of_op(const trace::Trace& t, Op op) {
  std::vector<trace::Event> out;
  for (const auto& e : t.events)
    if (e.op == op) out.push_back(e);
  return out;
}

// A whole-object GET read in three bursts, and a ranged one in two, the worker handing a batch
// over (a /dev/shm tensor) between each two: a read per burst at the range's first byte plus the
// burst's body offset, the first from the request's send (its wait for the first byte is the
// read's), each to its burst's end; one open and one close a GET.
TEST(ObjectsStream, AGetReadInBurstsIsOneAccessWithAReadPerBurst) {
  auto t = trace::parse_trace_text(
      "proc pid=101 comm=pt_data_worker\n"
      "ts=20ms pid=101 op=shm_open size=11\n"
      "ts=60ms pid=101 op=shm_open size=11\n"
      "ts=120ms pid=101 op=shm_open size=11\n"
      "http pid=101 fd=5 method=GET host=h path=/b/shards/0.tar status=200 length=300000 "
      "object=300000 ts=1ms first=3ms last=90ms burst=3ms-5ms@0+100000 "
      "burst=40ms-42ms@100000+100000 burst=88ms-90ms@200000+100000\n"
      "http pid=101 fd=5 method=GET host=h path=/b/shards/1.tar range=1000-200999 status=206 "
      "length=200000 object=900000 ts=100ms first=101ms last=150ms burst=101ms-102ms@0+120000 "
      "burst=149ms-150ms@120000+80000\n");
  ASSERT_TRUE(t) << t.error().message;
  const auto out = objects_as_reads(*t);
  ASSERT_TRUE(out);
  EXPECT_EQ(of_op(*out, Op::open).size(), 2u);
  const auto reads = of_op(*out, Op::pread);
  ASSERT_EQ(reads.size(), 5u);
  EXPECT_EQ(reads[0].ts_ns, 1'000'000u);
  EXPECT_EQ(reads[0].dur_ns, 4'000'000u);
  EXPECT_EQ(reads[1].ts_ns, 40'000'000u);
  EXPECT_EQ(reads[1].dur_ns, 2'000'000u);
  const std::vector<std::uint64_t> offsets = {0, 100000, 200000, 1000, 121000};
  for (std::size_t i = 0; i < reads.size(); ++i) {
    EXPECT_EQ(reads[i].offset, offsets[i]) << i;
    EXPECT_EQ(reads[i].ret, static_cast<std::int64_t>(reads[i].size)) << i;
    EXPECT_EQ(reads[i].fd, reads[i < 3 ? 0 : 3].fd) << i;
  }
  EXPECT_EQ(reads[4].size, 80000u);
  const auto closes = of_op(*out, Op::close);
  ASSERT_EQ(closes.size(), 2u);
  EXPECT_EQ(closes[0].ts_ns, 90'000'000u);
  EXPECT_EQ(closes[1].ts_ns, 150'000'000u);
}

// A pause in a body with nothing of the thread's own in it (a 1 MiB block preempted mid-read on a
// loaded host, or another thread's event) is no boundary: the bursts stay one read, so the
// request size is the GET's whatever the host's load.
TEST(ObjectsStream, BurstsWithNothingOfTheThreadsBetweenAreOneRead) {
  auto t = trace::parse_trace_text(
      "proc pid=101 comm=pt_data_worker\n"
      "ts=4ms pid=101 tid=109 op=sendmsg size=64\n"
      "http pid=101 fd=5 method=GET host=h path=/b/data.bin range=0-1048575 status=206 "
      "length=1048576 object=8388608 ts=1ms first=2ms last=9ms burst=2ms-3ms@0+655360 "
      "burst=6ms-9ms@655360+393216\n");
  ASSERT_TRUE(t) << t.error().message;
  const auto out = objects_as_reads(*t);
  ASSERT_TRUE(out);
  const auto reads = of_op(*out, Op::pread);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0].size, 1048576u);
  EXPECT_EQ(reads[0].ts_ns, 1'000'000u);
  EXPECT_EQ(reads[0].dur_ns, 8'000'000u);
}

// Two DataLoader workers, each streaming its own 2 shards of 4 batches (64 KiB each) with one
// GET a shard, 2 ms of reading a batch, batches handed over as PyTorch does (/dev/shm tensors,
// sendmsg from the worker's queue feeder thread), 20 ms of compute a step, 2 epochs.
class StreamedShards : public testing::TraceBuilder {
 public:
  static constexpr std::uint64_t kBatch = 64 << 10, kCompute = 20'000'000;
  static constexpr std::uint32_t kMain = 100, kShards = 4, kBatchesPerShard = 4;

  trace::Trace build(bool bursts) {
    proc(kMain, 1, "python3", false, kMain);
    for (std::uint32_t epoch = 0; epoch < 2; ++epoch) pass(200 + 10 * epoch, bursts);
    t_.meta.duration_ns = now_;
    return t_;
  }
  // As a socket-read client (http.client's 8 KiB reads) streams a tar shard: batches of
  // `batch` bytes, each burst ending on the first multiple of `granule` past its batch's last
  // byte, and `tail` bytes past the last batch (the archive's end) read after its handover.
  // With `head`, the granule's grid starts that many bytes before the shard (a response's head
  // read with the body).
  trace::Trace build_granular(std::uint64_t batch, std::uint64_t granule, std::uint64_t tail,
                              std::uint64_t head = 0) {
    batch_ = batch, granule_ = granule, tail_ = tail, head_ = head;
    return build(true);
  }

 private:
  // One pass: step k comes from worker k % 2; a worker reads at most 2 batches ahead.
  void pass(std::uint32_t first_pid, bool bursts) {
    now_ += 20'000'000;
    std::uint64_t main_free = now_, worker_free[2] = {now_, now_};
    std::vector<std::uint64_t> recv;
    trace::HttpRequest get[2];
    for (std::uint32_t w = 0; w < 2; ++w)
      proc(first_pid + w, kMain, "python3", false, first_pid + w);
    for (std::uint32_t k = 0; k < kShards * kBatchesPerShard; ++k) {
      const std::uint32_t w = k % 2, pid = first_pid + w, j = k / 2;  // the worker's j-th batch
      std::uint64_t start = worker_free[w];
      if (k >= 4) start = std::max(start, recv[k - 4]);
      const std::uint32_t shard = w + 2 * (j / kBatchesPerShard), i = j % kBatchesPerShard;
      if (i == 0) get[w] = begin_get(pid, shard, start);
      const std::uint64_t ready = start + 2'000'000;
      const std::uint64_t at = i == 0 ? 0 : burst_end(shard, i - 1);
      if (bursts) get[w].body.push_back({start, ready, at, burst_end(shard, i) - at});
      get[w].last_byte_ns = ready;
      if (i == kBatchesPerShard - 1) {
        if (const std::uint64_t end = burst_end(shard, i); end < shard_bytes(shard))
          get[w].body.push_back({ready + 100'000, ready + 110'000, end, shard_bytes(shard) - end});
        t_.http.push_back(get[w]);
      }
      ev(ready, 20000, pid, pid, Op::shm_open, trace::kNoFile, -1, 0, 0, 11);
      worker_free[w] = ready + 100'000;
      recv.push_back(std::max(main_free, ready + 300'000));
      ev(recv[k] - 200'000, 10000, pid, pid + 500, Op::sendmsg, trace::kNoFile, 5, 0, 64, 64);
      ev(recv[k] - 190'000, 10000, kMain, kMain, Op::recvmsg, trace::kNoFile, 6, 0, 64, 64);
      main_free = recv[k] + kCompute;
    }
    now_ = main_free;
  }
  std::uint64_t batch_ = kBatch, granule_ = 0, tail_ = 0, head_ = 0;

  // The end of batch i's last sample in a shard: with a granule, batches of batch_ +- 12,000 B
  // (samples differ in size), else of batch_ exactly.
  std::uint64_t batch_end(std::uint32_t shard, std::uint32_t i) const {
    std::uint64_t end = 0;
    for (std::uint32_t j = 0; j <= i; ++j)
      end += granule_ ? batch_ + (shard * kBatchesPerShard + j) * 7919 % 24000 - 12000 : batch_;
    return end;
  }
  std::uint64_t shard_bytes(std::uint32_t shard) const {
    return batch_end(shard, kBatchesPerShard - 1) + tail_;
  }
  // Where the burst of the shard's batch i ends.
  std::uint64_t burst_end(std::uint32_t shard, std::uint32_t i) const {
    const std::uint64_t end = batch_end(shard, i), g = granule_ ? granule_ : 1;
    return std::min(shard_bytes(shard), (end + head_ + g - 1) / g * g - head_);
  }

  trace::HttpRequest begin_get(std::uint32_t pid, std::uint32_t shard, std::uint64_t ts) {
    trace::HttpRequest r;
    r.pid = r.tid = pid;
    r.fd = 9;
    r.method = "GET";
    r.host = "127.0.0.1:8080";
    r.path = "/bkt/shards/shard-000" + std::to_string(shard) + ".tar";
    r.status = 200;
    r.content_length = r.object_size = shard_bytes(shard);
    r.request_ns = ts;
    r.first_byte_ns = ts + 500'000;
    return r;
  }
};

// Summarize sees each shard read front to back in a read a batch, by its worker, handing batches
// over while it is open: a stream of 4 batches a shard, 16 steps a pass, 20 ms of compute.
// Without the bursts each shard is one read of 256 KiB.
TEST(ObjectsStream, ShardsStreamedInBurstsAreReadInPiecesAndDistilledAsAStream) {
  const TraceSummary s = summarize(StreamedShards().build(true));
  ASSERT_EQ(s.epochs.size(), 2u);
  for (const auto& e : s.epochs) {
    EXPECT_EQ(e.accesses, 4u);
    EXPECT_EQ(e.read_ops, 16u);
    EXPECT_EQ(e.bytes_read, 4u * 4 * StreamedShards::kBatch);
    EXPECT_EQ(e.steps, 16u);
    EXPECT_EQ(e.reader_count, 2u);
  }
  EXPECT_TRUE(s.stream_shards);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.dataset.dir.string().rfind("s3://bkt/", 0), 0u) << d.job.dataset.dir;
  EXPECT_EQ(d.job.dataset.num_files, 4u);
  EXPECT_EQ(d.job.dataset.samples_per_file, 4u);
  EXPECT_EQ(d.job.reader.read_unit, ReadUnit::stream);
  EXPECT_EQ(d.job.reader.workers, 2u);
  EXPECT_EQ(d.job.run.epochs, 2u);
  EXPECT_NEAR(s.compute_time.p50, 0.020, 0.001);

  const TraceSummary whole = summarize(StreamedShards().build(false));
  ASSERT_EQ(whole.epochs.size(), 2u);
  EXPECT_EQ(whole.epochs[0].read_ops, 4u);
}

// Batches of 48,000-72,000 B read through 8 KiB socket reads: each burst ends on the first 8 KiB
// boundary past its batch's last sample (49,152-73,728 B), and a shard's last 1,266-7,970 B (its
// 9,000 B past the last sample, less what the last burst took) come as a read of their own after
// the last handover. The summary finds the granule in the 24 reads inside the 8 shard accesses
// and the tail in all 8 (the lower median, 2,754 B); distil writes both for the replay
// (docs/distil.md, "Read granule and tail of a stream"). Without them the replay read each
// batch's bytes exactly, to the shard's end.
TEST(ObjectsStream, TheStreamsGranuleAndTailAreLearned) {
  const TraceSummary s = summarize(StreamedShards().build_granular(60000, 8192, 9000));
  ASSERT_TRUE(s.stream_shards);
  ASSERT_FALSE(s.datasets.empty());
  const StreamReads& st = s.datasets[0].stream;
  EXPECT_EQ(st.inner_reads, 24u);
  EXPECT_EQ(st.granule_reads, 24u);
  EXPECT_EQ(st.granule_bytes, 8192u);
  EXPECT_EQ(st.accesses, 8u);
  EXPECT_EQ(st.tails, 8u);
  EXPECT_EQ(st.tail_bytes, 2754u);
  EXPECT_EQ(st.head_bytes, 0u) << "the bursts end on the grid from the shard's start";
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.reader.read_unit, ReadUnit::stream);
  EXPECT_EQ(d.job.reader.request_size_bytes, 0u);
  EXPECT_EQ(d.job.reader.stream_granule_bytes, 8192u);
  EXPECT_EQ(d.job.reader.stream_tail_bytes, 2754u);
  EXPECT_NE(d.comments.at("reader.stream_granule").find("24 of 24 reads"), std::string::npos)
      << d.comments.at("reader.stream_granule");

  // Batches of whole bytes with no granule (the builder's 64 KiB, each burst its batch): the
  // inner reads are all 64 KiB, so 64 KiB is their granule, the batch itself: the replay's
  // bursts end where they did.
  const TraceSummary exact = summarize(StreamedShards().build(true));
  EXPECT_EQ(exact.datasets[0].stream.granule_bytes, StreamedShards::kBatch);
  EXPECT_EQ(exact.datasets[0].stream.tail_bytes, 0u);
}

// Shards named .tar are tar archives (format = "tar"): the generator writes a member a sample and
// the archive's end (two zero blocks padded to the 10 KiB record), the bytes a WebDataset reader
// reads after a shard's last sample, in the last batch's burst or in a read of its own. Each
// shard's sample size is what it holds less that framing, so the generated shards keep the
// traced ones' bytes; the learned tail stays a read of its own at the archive's end.
TEST(ObjectsStream, TarShardsAreGeneratedAsTarWithTheirTrailer) {
  // tests/pytorch/s3_tar_shards.py's shard: 64 samples of a 16 KiB .bin and its .cls (17,920 B
  // of members each, headers and padding with them), 10,240 B of end: 1,157,120 B. As one
  // member a sample: 17,408 B each, exactly.
  EXPECT_EQ(sections::sample_payload(Format::tar, 1'157'120, 64), 17408.0);
  EXPECT_EQ(sections::sample_payload(Format::tar, 1'157'119, 64), 16896.0);  // a record less

  // The bursts of an HTTP body whose socket reads took the response's 413 B head first: each
  // inner read ends 413 B short of the 8 KiB grid, the replay's too (reader.stream_head).
  const TraceSummary s = summarize(StreamedShards().build_granular(60000, 8192, 9000, 413));
  EXPECT_EQ(s.datasets[0].stream.head_bytes, 413u);
  EXPECT_EQ(s.datasets[0].stream.head_reads, 24u);
  EXPECT_EQ(s.datasets[0].stream.granule_bytes, 8192u);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.reader.stream_head_bytes, 413u);
  ASSERT_EQ(d.job.dataset.format, Format::tar) << to_string(d.job.dataset.format);
  EXPECT_EQ(d.job.reader.stream_tail_bytes, 2754u + 413);  // the last burst ends 413 B sooner
  EXPECT_NE(d.comments.at("dataset.sample_size").find("10 KiB record"), std::string::npos)
      << d.comments.at("dataset.sample_size");
  const datasets::Layout l(d.job.dataset);
  double traced = 0;
  for (auto v : s.datasets[0].file_sizes) traced += static_cast<double>(v);
  EXPECT_NEAR(static_cast<double>(l.total_bytes()), traced, 0.03 * traced);
  for (std::uint64_t f = 0; f < l.num_files(); ++f) {
    const auto last = l.sample_extent(f, d.job.dataset.samples_per_file - 1);
    EXPECT_EQ(l.file_size(f) % 10240, 0u) << f;
    EXPECT_GE(l.file_size(f) - (last.offset + last.length), 1024u) << f;
  }
}

}  // namespace
}  // namespace dlgen::analysis
