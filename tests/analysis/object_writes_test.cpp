// Objects written to an S3 store (analysis/src/prepass/object_writes.hpp): a PUT, or the parts of
// a completed multipart upload, become the writes of a file named by the object's URL, so the
// checkpoints stage finds checkpoints sent with put_object or upload_fileobj; a local file
// spooled for such an upload is neither data nor a checkpoint (stages/spooled_uploads.cpp).
#include "prepass/object_writes.hpp"

#include <gtest/gtest.h>

#include <map>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/trace/trace_text.hpp"
#include "sim.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

std::vector<trace::Event> on_file(const trace::Trace& t, const std::string& path) {
  std::vector<trace::Event> out;
  for (const auto& e : t.events)
    if (e.file < t.files.size() && t.files[e.file].path == path) out.push_back(e);
  return out;
}

// A PUT: open, pwrite of its body at 0, close; a multipart upload whose parts two threads send:
// one open at the initiation, a pwrite a part at the offsets in sending order, a close at the
// completion's last byte; an upload never completed, a failed PUT and a GET write nothing.
TEST(ObjectWrites, PutsAndCompletedMultipartUploadsBecomeWrites) {
  auto t = trace::parse_trace_text(
      "proc pid=100 comm=python3\n"
      "http pid=100 tid=100 fd=5 method=PUT host=h path=/b/ckpt/e1.pt status=200 object=120KiB "
      "sent=121KiB ts=1ms first=3ms last=3ms\n"
      "http pid=100 tid=100 fd=5 method=POST host=h path=/b/model/final.pt query=uploads "
      "status=200 ts=10ms first=11ms last=11ms\n"
      "http pid=100 tid=201 fd=6 method=PUT host=h path=/b/model/final.pt "
      "query=partNumber&uploadId status=200 object=5MiB ts=12ms first=20ms last=20ms\n"
      "http pid=100 tid=202 fd=7 method=PUT host=h path=/b/model/final.pt "
      "query=partNumber&uploadId status=200 object=2MiB ts=13ms first=18ms last=18ms\n"
      "http pid=100 tid=100 fd=5 method=POST host=h path=/b/model/final.pt query=uploadId "
      "status=200 ts=21ms first=22ms last=23ms\n"
      "http pid=100 tid=201 fd=6 method=PUT host=h path=/b/cut/x.pt query=partNumber&uploadId "
      "status=200 object=5MiB ts=30ms last=31ms\n"
      "http pid=100 tid=100 fd=5 method=PUT host=h path=/b/ckpt/e2.pt status=503 ts=40ms\n"
      "http pid=100 tid=100 fd=5 method=GET host=h path=/b/ckpt/e1.pt status=200 length=120KiB "
      "ts=50ms last=51ms\n");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_FALSE(objects_as_writes(trace::Trace{}));
  const auto out = objects_as_writes(*t);
  ASSERT_TRUE(out);
  const auto put = on_file(*out, "s3://b/ckpt/e1.pt");
  ASSERT_EQ(put.size(), 3u);
  EXPECT_EQ(put[0].op, Op::open);
  EXPECT_EQ(put[1].op, Op::pwrite);
  EXPECT_EQ(put[1].ret, 120 * 1024);
  EXPECT_EQ(put[1].dur_ns, 2'000'000u);
  EXPECT_EQ(put[2].op, Op::close);
  const auto mp = on_file(*out, "s3://b/model/final.pt");
  ASSERT_EQ(mp.size(), 4u);
  EXPECT_EQ(mp[0].op, Op::open);
  EXPECT_EQ(mp[0].ts_ns, 10'000'000u);
  EXPECT_EQ(mp[1].tid, 201u);
  EXPECT_EQ(mp[1].offset, 0u);
  EXPECT_EQ(mp[2].tid, 202u);
  EXPECT_EQ(mp[2].offset, 5u << 20);
  EXPECT_EQ(mp[1].fd, mp[2].fd);
  EXPECT_EQ(mp[3].op, Op::close);
  EXPECT_EQ(mp[3].ts_ns, 23'000'000u);
  EXPECT_TRUE(on_file(*out, "s3://b/cut/x.pt").empty());
  EXPECT_TRUE(on_file(*out, "s3://b/ckpt/e2.pt").empty());
}

// The simulated training of a dataset of objects whose rank saves a checkpoint after each epoch;
// `as_http` sends each checkpoint instead: a PUT, or (multipart) a 2-part upload.
trace::Trace training(bool multipart, const std::string& spool = "") {
  testing::SimConfig c;
  c.data_dir = "s3://bkt/train";
  c.workers = 2;
  c.epochs = 3;
  c.ckpt_every_epochs = 1;
  c.ckpt_size = 6 << 20;
  c.size = 16 * 1024;  // a dataset of fewer bytes (3 MiB in all) than the checkpoints (18 MiB)
  c.noise = false;
  trace::Trace t = testing::Sim(c).build();
  std::map<std::uint32_t, std::pair<std::uint64_t, std::uint64_t>> span;  // file → open, close
  std::vector<trace::Event> kept;
  for (const auto& e : t.events) {
    const bool ckpt = e.file < t.files.size() && t.files[e.file].path.ends_with(".pt");
    if (!ckpt) {
      kept.push_back(e);
      continue;
    }
    auto& s = span[e.file];
    if (e.op == Op::open) s.first = e.ts_ns;
    if (e.op == Op::close) s.second = e.ts_ns;
    if (spool.empty()) continue;
    trace::Event local = e;  // the spooled file: written, then read back whole by the uploader
    kept.push_back(local);
    if (trace::is_write(e.op)) {
      local.op = Op::pread;
      local.tid = 300;
      local.ts_ns = s.first + 40'000'000 + (e.offset >> 10);
      kept.push_back(local);
    }
  }
  t.events = kept;
  for (const auto& [f, s] : span) {
    const std::string key = "/bkt/ckpt/" + std::filesystem::path(t.files[f].path).filename().string();
    std::uint64_t ts = s.second + (spool.empty() ? 0 : 40'000'000);
    auto row = [&](const char* method, const char* query, std::uint64_t bytes) {
      trace::HttpRequest r;
      r.pid = r.tid = 100;
      r.method = method;
      r.host = "127.0.0.1:8080";
      r.path = key;
      r.query = query;
      r.status = 200;
      r.object_size = bytes;
      r.request_ns = ts;
      r.first_byte_ns = r.last_byte_ns = ts += 1'000'000;
      t.http.push_back(r);
    };
    if (!multipart) {
      row("PUT", "", 6 << 20);
      continue;
    }
    row("POST", "uploads", 0);
    row("PUT", "partNumber&uploadId", 5 << 20);
    row("PUT", "partNumber&uploadId", 1 << 20);
    row("POST", "uploadId", 0);
  }
  // No local checkpoint file left; or the spooled one, a tempfile's name (no checkpoint's).
  for (auto& f : t.files)
    if (f.path.ends_with(".pt")) f.path = spool.empty() ? "/nowhere" : "/tmp/tmpq" + f.path.substr(f.path.size() - 4, 1);
  std::stable_sort(t.events.begin(), t.events.end(),
                   [](const auto& a, const auto& b) { return a.ts_ns < b.ts_ns; });
  return t;
}

void expect_object_checkpoints(const trace::Trace& t) {
  const TraceSummary s = summarize(t);
  ASSERT_EQ(s.checkpoints.size(), 3u);
  EXPECT_EQ(s.checkpoints[0].paths.front(), "s3://bkt/ckpt/model_0.pt");
  const Distilled d = distil(s);
  EXPECT_TRUE(d.job.checkpoint.enabled);
  EXPECT_EQ(d.job.checkpoint.every_epochs, 1u);
  EXPECT_EQ(d.job.checkpoint.size_bytes, 6u << 20);
  EXPECT_EQ(d.job.checkpoint.files, 1u);
  EXPECT_EQ(d.job.checkpoint.dir.string().rfind("s3://bkt/dlgen/checkpoints/", 0), 0u)
      << d.job.checkpoint.dir;
  EXPECT_EQ(d.job.dataset.dir.string().rfind("s3://bkt/", 0), 0u) << d.job.dataset.dir;
  EXPECT_EQ(d.job.dataset.num_files, 64u);
  for (const auto& problem : validate(d.job)) ADD_FAILURE() << problem.path << problem.message;
}

TEST(ObjectWrites, CheckpointsPutAfterEachEpochAreFound) {
  expect_object_checkpoints(training(false));
}

TEST(ObjectWrites, MultipartCheckpointsAreFound) {
  expect_object_checkpoints(training(true));
}

// Each 6 MiB object uploaded as 5 MiB + 1 MiB: the replay uploads in parts of 5 MiB (its own
// part, 8 MiB, would PUT each whole); an object PUT whole sets no part size.
TEST(ObjectWrites, MultipartCheckpointsKeepTheirPartSize) {
  const Distilled parts = distil(summarize(training(true)));
  EXPECT_EQ(parts.job.checkpoint.part_size_bytes, 5u << 20);
  EXPECT_EQ(parts.comments.count("checkpoint.part_size"), 1u);
  EXPECT_EQ(distil(summarize(training(false))).job.checkpoint.part_size_bytes, 0u);
}

// The checkpoint a run resumes from, restored before training as boto3's download_fileobj reads
// it: ranged GETs of `chunk` bytes of its 7,868,575 B on as many threads (the last shorter).
trace::Trace restored(std::uint64_t chunk) {
  trace::Trace t = training(true);
  const std::uint64_t size = 7'868'575;
  for (std::uint64_t first = 0, i = 0; first < size; first += chunk, ++i) {
    trace::HttpRequest r;
    r.pid = 100;
    r.tid = 400 + static_cast<std::uint32_t>(i);
    r.fd = 20 + static_cast<std::int32_t>(i);
    r.method = "GET";
    r.host = "127.0.0.1:8080";
    r.path = "/bkt/ckpt/step-00000040.pt";
    r.status = 206;
    r.range_first = first;
    r.range_last = std::min(first + chunk, size) - 1;
    r.content_length = r.range_last - first + 1;
    r.object_size = size;
    r.request_ns = 1'000'000 + i * 10'000;
    r.first_byte_ns = r.request_ns + 500'000;
    r.last_byte_ns = r.request_ns + 5'000'000;
    t.http.insert(t.http.begin() + static_cast<std::ptrdiff_t>(i), r);
  }
  return t;
}

// Restored in 2 MiB GETs (3 of 2 MiB, one of 1,577,119 B) while the checkpoints are written in
// 5 MiB parts: the job reads checkpoints back in 2 MiB requests (it had read them in its 5 MiB
// write size: 2 GETs for the original's 4). A restore read in the write size sets none.
TEST(ObjectWrites, TheRestoresReadSize) {
  const TraceSummary s = summarize(restored(2 << 20));
  EXPECT_TRUE(s.checkpoint_restore);
  EXPECT_EQ(s.restore_bytes, 7'868'575u);
  EXPECT_EQ(s.restore_read_sizes, (Histogram{{1'577'119, 1}, {2u << 20, 3}}));
  const Distilled d = distil(s);
  EXPECT_TRUE(d.job.checkpoint.restore);
  EXPECT_EQ(d.job.checkpoint.write_size_bytes, 5u << 20);
  EXPECT_EQ(d.job.checkpoint.read_size_bytes, 2u << 20);
  EXPECT_EQ(d.job.checkpoint.read_request_bytes(), 2u << 20);
  EXPECT_NE(d.comments.at("checkpoint.read_size").find("of the 4 reads"), std::string::npos)
      << d.comments.at("checkpoint.read_size");
  EXPECT_TRUE(validate(d.job).empty());
  const Distilled same = distil(summarize(restored(5 << 20)));
  EXPECT_EQ(same.job.checkpoint.read_size_bytes, 0u);
  EXPECT_EQ(same.job.checkpoint.read_request_bytes(), 5u << 20);
  EXPECT_EQ(distil(summarize(training(true))).job.checkpoint.read_size_bytes, 0u);
}

// torch.save to a local file, read back whole by the upload's thread while its parts go out: the
// local file is staging, not the dataset (nor a second checkpoint file).
TEST(ObjectWrites, ASpooledCheckpointIsNeitherDataNorASecondFile) {
  expect_object_checkpoints(training(true, "spool"));
}

}  // namespace
}  // namespace dlgen::analysis
