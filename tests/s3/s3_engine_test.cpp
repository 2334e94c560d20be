// The S3 engine against a real S3 server (Swift + s3api, s3_server.hpp): ranged and whole GETs,
// PUTs and multipart uploads as boto3 sees them, many requests in flight on one engine, and the
// failures a user meets (a missing object, wrong credentials, no server) as -errno with a message
// that names the object.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "dlgen/engine/registry.hpp"
#include "dlgen/engine/s3.hpp"
#include "s3_server.hpp"

namespace dlgen::engine {
namespace {

using dlgen::testing::new_bucket;
using dlgen::testing::s3_check;

const auto* const kServer = ::testing::AddGlobalTestEnvironment(new dlgen::testing::S3Server);

std::unique_ptr<IoEngine> make_engine(std::uint32_t depth, std::uint64_t buffer_bytes) {
  EngineOptions o;
  o.depth = depth;
  o.buffers = depth;
  o.buffer_bytes = buffer_bytes;
  Result<std::unique_ptr<IoEngine>> e = make("s3", o);
  EXPECT_TRUE(e) << (e ? "" : e.error().message);
  return e ? std::move(*e) : nullptr;
}

// Submits every request, then reaps until all completed; the completions by user_data.
std::vector<IoCompletion> run_all(IoEngine& e, const std::vector<IoRequest>& rs) {
  std::size_t sent = 0, done = 0;
  std::vector<IoCompletion> out(rs.size());
  std::vector<IoCompletion> got(rs.size());
  while (done < rs.size()) {
    if (sent < rs.size()) {
      const int n = e.submit(std::span(rs).subspan(sent));
      EXPECT_GE(n, 0);
      sent += static_cast<std::size_t>(std::max(n, 0));
    }
    const int n = e.reap(got, 1);
    EXPECT_GE(n, 0);
    for (int i = 0; i < n; ++i) out[got[i].user_data] = got[i];
    done += static_cast<std::size_t>(std::max(n, 0));
  }
  return out;
}

bool pattern_at(const std::byte* p, std::uint64_t offset, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i)
    if (p[i] != static_cast<std::byte>((offset + i) % 251)) return false;
  return true;
}

void fill_pattern(std::byte* p, std::uint64_t offset, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) p[i] = static_cast<std::byte>((offset + i) % 251);
}

TEST(S3Engine, RangedAndWholeGetsReadTheObjectsBytes) {
  const std::string b = new_bucket();
  ASSERT_EQ(s3_check("put " + b + " ds/obj 300000").code, 0);
  auto e = make_engine(4, 512 * 1024);
  ASSERT_TRUE(e);
  int t = -1;
  ASSERT_EQ(e->open_file(("s3://" + b + "/ds/obj").c_str(), O_RDONLY, t), 0);
  // Three ranges in flight together, the last one past the end (a short read).
  const std::vector<IoRequest> ranged = {{t, IoOp::read, 0, 65536, 0, 0},
                                         {t, IoOp::read, 1, 1000, 123457, 1},
                                         {t, IoOp::read, 2, 65536, 290000, 2}};
  const std::vector<IoCompletion> c = run_all(*e, ranged);
  EXPECT_EQ(c[0].result, 65536);
  EXPECT_EQ(c[1].result, 1000);
  EXPECT_EQ(c[2].result, 10000);
  EXPECT_TRUE(pattern_at(e->buffer(0), 0, 65536));
  EXPECT_TRUE(pattern_at(e->buffer(1), 123457, 1000));
  EXPECT_TRUE(pattern_at(e->buffer(2), 290000, 10000));
  // Times to first and last byte: one each per request, the first before the last, the last at
  // most the request's latency (the engine stamps the completion after the last byte).
  const S3Counters& k = *s3_counters(*e);
  EXPECT_EQ(k.ttfb.count(), 3u);
  EXPECT_EQ(k.ttlb.count(), 3u);
  EXPECT_EQ(k.gets, 3u);
  std::int64_t longest = 0;
  for (const IoCompletion& x : c) longest = std::max(longest, x.completed_ns - x.issued_ns);
  EXPECT_GT(k.ttfb.max(), 0u);
  EXPECT_LE(k.ttfb.max(), k.ttlb.max());
  EXPECT_LE(k.ttlb.max(), static_cast<std::uint64_t>(longest));
  for (double q : {0.5, 0.9, 0.99}) EXPECT_LE(k.ttfb.percentile(q), k.ttlb.percentile(q)) << q;
  // The whole object in one request (the engine knows its size now: a plain GET), twice.
  for (std::uint64_t k = 0; k < 2; ++k) {
    const std::vector<IoCompletion> w = run_all(*e, {{t, IoOp::read, 3, 512 * 1024, 0, 0}});
    EXPECT_EQ(w[0].result, 300000);
    EXPECT_TRUE(pattern_at(e->buffer(3), 0, 300000));
  }
  // Past the end: 0 bytes, as pread says.
  EXPECT_EQ(run_all(*e, {{t, IoOp::read, 0, 100, 400000, 0}})[0].result, 0);
  EXPECT_EQ(e->close_file(t), 0);
  EXPECT_EQ(s3_counters(*e)->http_requests, 6u);
  EXPECT_EQ(s3_counters(*e)->retries, 0u);
}

TEST(S3Engine, PutIsWhatBoto3Reads) {
  const std::string b = new_bucket();
  auto e = make_engine(2, 65536);
  ASSERT_TRUE(e);
  int t = -1;
  ASSERT_EQ(e->open_file(("s3://" + b + "/out/small.bin").c_str(), O_WRONLY | O_CREAT, t), 0);
  fill_pattern(e->buffer(0), 0, 65536);
  fill_pattern(e->buffer(1), 65536, 34464);
  const auto c =
      run_all(*e, {{t, IoOp::write, 0, 65536, 0, 0}, {t, IoOp::write, 1, 34464, 65536, 1}});
  EXPECT_EQ(c[0].result, 65536);
  EXPECT_EQ(c[1].result, 34464);
  EXPECT_EQ(e->close_file(t), 0) << s3_last_error(*e);
  EXPECT_EQ(s3_check("verify " + b + " out/small.bin 100000").out, "ok\n");
  EXPECT_EQ(s3_counters(*e)->http_requests, 1u);  // one PUT, at close
}

TEST(S3Engine, LargeObjectGoesAsAMultipartUpload) {
  const std::string b = new_bucket();
  const std::uint64_t chunk = 4 << 20, size = 5 * chunk + 123;  // 3 parts of 8, 8 and 4 MiB+123
  auto e = make_engine(4, chunk);
  ASSERT_TRUE(e);
  int t = -1;
  ASSERT_EQ(e->open_file(("s3://" + b + "/ckpt/model.pt").c_str(), O_WRONLY | O_CREAT, t), 0);
  std::vector<IoRequest> rs;
  for (std::uint64_t off = 0, i = 0; off < size; off += chunk, ++i)
    rs.push_back({t, IoOp::write, static_cast<std::uint32_t>(i % 4),
                  static_cast<std::uint32_t>(std::min(chunk, size - off)), off, i});
  // Sequential writes through 4 buffers: fill each just before its request.
  for (const IoRequest& r : rs) {
    fill_pattern(e->buffer(r.buffer), r.offset, r.length);
    const auto c = run_all(*e, {IoRequest{r.target, r.op, r.buffer, r.length, r.offset, 0}});
    EXPECT_EQ(c[0].result, r.length) << s3_last_error(*e);
  }
  EXPECT_EQ(e->close_file(t), 0) << s3_last_error(*e);
  EXPECT_EQ(s3_check("verify " + b + " ckpt/model.pt " + std::to_string(size)).out, "ok\n");
  EXPECT_EQ(s3_check("uploads " + b).out, "");  // none left in progress
  // Initiate, 3 parts, complete.
  EXPECT_EQ(s3_counters(*e)->http_requests, 5u);
}

// checkpoint.part_size: a 7.5 MiB object in writes of 5 MiB goes as 2 parts of the part size
// asked (5 MiB), as boto3's upload_fileobj sends it; the engine's own part (8 MiB) PUTs it whole.
TEST(S3Engine, PartSizeAskedSplitsASmallerObject) {
  const std::string b = new_bucket();
  const std::uint64_t chunk = 5 << 20, size = chunk + (chunk >> 1);
  for (const std::uint64_t part : {std::uint64_t{0}, chunk}) {
    EngineOptions o;
    o.depth = o.buffers = 2;
    o.buffer_bytes = chunk;
    o.part_bytes = part;
    Result<std::unique_ptr<IoEngine>> e = make("s3", o);
    ASSERT_TRUE(e) << e.error().message;
    const std::string key = "ckpt/part-" + std::to_string(part) + ".pt";
    int t = -1;
    ASSERT_EQ((*e)->open_file(("s3://" + b + "/" + key).c_str(), O_WRONLY | O_CREAT, t), 0);
    for (std::uint64_t off = 0, i = 0; off < size; off += chunk, ++i) {
      const auto n = static_cast<std::uint32_t>(std::min(chunk, size - off));
      fill_pattern((*e)->buffer(0), off, n);
      const auto c = run_all(**e, {IoRequest{t, IoOp::write, 0, n, off, 0}});
      EXPECT_EQ(c[0].result, n) << s3_last_error(**e);
    }
    EXPECT_EQ((*e)->close_file(t), 0) << s3_last_error(**e);
    EXPECT_EQ(s3_check("verify " + b + " " + key + " " + std::to_string(size)).out, "ok\n");
    // One PUT; or initiate, 2 parts, complete.
    EXPECT_EQ(s3_counters(**e)->http_requests, part ? 4u : 1u) << "part " << part;
  }
}

TEST(S3Engine, ManyRequestsInFlightOnOneEngine) {
  const std::string b = new_bucket();
  constexpr int kObjects = 24;
  auto e = make_engine(16, 128 * 1024);
  ASSERT_TRUE(e);
  for (int i = 0; i < kObjects; ++i) {
    int t = -1;
    ASSERT_EQ(e->open_file(("s3://" + b + "/d/f" + std::to_string(i)).c_str(), O_WRONLY, t), 0);
    fill_pattern(e->buffer(0), 0, 128 * 1024);
    ASSERT_EQ(run_all(*e, {{t, IoOp::write, 0, 128 * 1024, 0, 0}})[0].result, 128 * 1024);
    ASSERT_EQ(e->close_file(t), 0) << s3_last_error(*e);
  }
  std::vector<int> targets(kObjects);
  std::vector<IoRequest> rs;
  for (int i = 0; i < kObjects; ++i) {
    ASSERT_EQ(
        e->open_file(("s3://" + b + "/d/f" + std::to_string(i)).c_str(), O_RDONLY, targets[i]), 0);
    rs.push_back({targets[i], IoOp::read, static_cast<std::uint32_t>(i % 16), 128 * 1024, 0,
                  static_cast<std::uint64_t>(i)});
  }
  // 24 reads through 16 buffers: the first 16 in flight at once, then the rest.
  const std::vector<IoRequest> first(rs.begin(), rs.begin() + 16), rest(rs.begin() + 16, rs.end());
  for (const auto* batch : {&first, &rest}) {
    std::vector<IoRequest> numbered = *batch;
    for (std::size_t i = 0; i < numbered.size(); ++i) numbered[i].user_data = i;
    for (const IoCompletion& c : run_all(*e, numbered)) EXPECT_EQ(c.result, 128 * 1024);
    for (const IoRequest& r : numbered) EXPECT_TRUE(pattern_at(e->buffer(r.buffer), 0, 128 * 1024));
  }
  for (int t : targets) EXPECT_EQ(e->close_file(t), 0);
  EXPECT_EQ(s3_counters(*e)->http_requests, 2u * kObjects);
}

TEST(S3Engine, MissingObjectIsEnoentNamingTheKey) {
  const std::string b = new_bucket();
  auto e = make_engine(1, 4096);
  ASSERT_TRUE(e);
  int t = -1;
  ASSERT_EQ(e->open_file(("s3://" + b + "/no/such/key").c_str(), O_RDONLY, t), 0);
  EXPECT_EQ(run_all(*e, {{t, IoOp::read, 0, 4096, 0, 0}})[0].result, -ENOENT);
  EXPECT_NE(s3_last_error(*e).find("s3://" + b + "/no/such/key: GET"), std::string::npos)
      << s3_last_error(*e);
  EXPECT_NE(s3_last_error(*e).find("HTTP 404 NoSuchKey"), std::string::npos) << s3_last_error(*e);
}

// Sets an environment variable for one scope.
struct ScopedEnv {
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* v = std::getenv(name)) old_ = v;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() { ::setenv(name_, old_.c_str(), 1); }
  const char* name_;
  std::string old_;
};

TEST(S3Engine, WrongCredentialsAreRefusedClearly) {
  const std::string b = new_bucket();
  ASSERT_EQ(s3_check("put " + b + " k 10").code, 0);
  const ScopedEnv secret("AWS_SECRET_ACCESS_KEY", "not-the-secret");
  auto e = make_engine(1, 4096);
  ASSERT_TRUE(e);
  int t = -1;
  ASSERT_EQ(e->open_file(("s3://" + b + "/k").c_str(), O_RDONLY, t), 0);
  EXPECT_EQ(run_all(*e, {{t, IoOp::read, 0, 4096, 0, 0}})[0].result, -EACCES);
  EXPECT_NE(s3_last_error(*e).find("HTTP 403"), std::string::npos) << s3_last_error(*e);
  EXPECT_EQ(s3_last_error(*e).find("not-the-secret"), std::string::npos);  // never printed
}

TEST(S3Engine, NoServerIsAnErrorNamingTheObject) {
  const ScopedEnv endpoint("AWS_ENDPOINT_URL", "http://127.0.0.1:1");
  auto e = make_engine(1, 4096);
  ASSERT_TRUE(e);
  int t = -1;
  ASSERT_EQ(e->open_file("s3://bucket/key", O_RDONLY, t), 0);
  EXPECT_EQ(run_all(*e, {{t, IoOp::read, 0, 4096, 0, 0}})[0].result, -ECONNREFUSED);
  EXPECT_NE(s3_last_error(*e).find("s3://bucket/key: GET bytes=0-4095: Couldn't connect"),
            std::string::npos)
      << s3_last_error(*e);
}

// A server that accepts and hangs up at once (one that died mid-answer): each try is a reset,
// retried with backoff, counted, and the last one's error names the object.
TEST(S3Engine, ResetsAreRetriedCountedAndNamed) {
  const int srv = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(srv, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(srv, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(srv, 16), 0);
  socklen_t len = sizeof a;
  ::getsockname(srv, reinterpret_cast<sockaddr*>(&a), &len);
  std::atomic<bool> stop{false};
  std::thread hangup([&] {
    while (!stop) {
      pollfd p{srv, POLLIN, 0};
      if (::poll(&p, 1, 50) == 1) ::close(::accept(srv, nullptr, nullptr));
    }
  });
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(a.sin_port));
  {
    const ScopedEnv endpoint("AWS_ENDPOINT_URL", url.c_str());
    auto e = make_engine(1, 4096);
    ASSERT_TRUE(e);
    int t = -1;
    ASSERT_EQ(e->open_file("s3://bucket/dies/here", O_RDONLY, t), 0);
    EXPECT_EQ(run_all(*e, {{t, IoOp::read, 0, 4096, 0, 0}})[0].result, -ECONNRESET);
    EXPECT_EQ(s3_counters(*e)->retries, 4u);
    EXPECT_EQ(s3_counters(*e)->resets, 5u);
    EXPECT_EQ(s3_counters(*e)->http_requests, 5u);
    EXPECT_NE(s3_last_error(*e).find("s3://bucket/dies/here: GET bytes=0-4095: "),
              std::string::npos)
        << s3_last_error(*e);
    EXPECT_NE(s3_last_error(*e).find("(after 5 tries)"), std::string::npos) << s3_last_error(*e);
  }
  stop = true;
  hangup.join();
  ::close(srv);
}

TEST(S3Engine, MissingCredentialsAreAnInputError) {
  const ScopedEnv id("AWS_ACCESS_KEY_ID", "");
  EngineOptions o;
  Result<std::unique_ptr<IoEngine>> e = make("s3", o);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().kind, ErrorKind::bad_input);
  EXPECT_NE(e.error().message.find("AWS_ACCESS_KEY_ID"), std::string::npos);
}

}  // namespace
}  // namespace dlgen::engine
