// AsyncWriter: blocks reach the underlying writer in order, on another thread; errors come back.
#include "async_writer.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace dlgen::capture {
namespace {

// Records calls in order; fails the append whose first event has ts_ns == fail_at.
class Recorder : public trace::TraceWriter {
 public:
  std::vector<std::string> calls;
  std::vector<std::thread::id> threads;
  std::uint64_t fail_at = UINT64_MAX;
  Result<void> append(const std::vector<trace::Event>& events) override {
    threads.push_back(std::this_thread::get_id());
    if (!events.empty() && events.front().ts_ns == fail_at) return runtime_error("disk full");
    calls.push_back("append " + std::to_string(events.size()));
    return ok();
  }
  Result<void> append_http(std::vector<trace::HttpRequest> rows) override {
    calls.push_back("http " + std::to_string(rows.size()));
    return ok();
  }
  Result<void> flush(const trace::Meta& m, const std::vector<trace::File>& f,
                     const std::vector<trace::Process>&) override {
    calls.push_back("flush " + std::to_string(m.duration_ns) + " " + std::to_string(f.size()));
    return ok();
  }
  Result<void> finish(const trace::Meta& m, const std::vector<trace::File>&,
                      const std::vector<trace::Process>&) override {
    calls.push_back("finish " + std::to_string(m.duration_ns));
    return ok();
  }
};

std::vector<trace::Event> events(std::size_t n, std::uint64_t ts) {
  std::vector<trace::Event> v(n);
  for (auto& e : v) e.ts_ns = ts;
  return v;
}

TEST(AsyncWriter, KeepsOrderAndWritesOnAnotherThread) {
  Recorder rec;
  {
    AsyncWriter w(rec, 2);
    trace::Meta m;
    std::vector<trace::File> files(3);
    for (int i = 1; i <= 20; ++i) {
      ASSERT_TRUE(w.append(events(static_cast<std::size_t>(i), 1)));
      m.duration_ns = static_cast<std::uint64_t>(i);
      ASSERT_TRUE(w.flush(m, files, {}));
    }
    m.duration_ns = 99;
    ASSERT_TRUE(w.finish(m, files, {}));
  }
  ASSERT_EQ(rec.calls.size(), 41u);
  for (int i = 1; i <= 20; ++i) {
    EXPECT_EQ(rec.calls[2 * (i - 1)], "append " + std::to_string(i));
    EXPECT_EQ(rec.calls[2 * (i - 1) + 1], "flush " + std::to_string(i) + " 3");
  }
  EXPECT_EQ(rec.calls.back(), "finish 99");
  for (auto id : rec.threads) EXPECT_NE(id, std::this_thread::get_id());
}

TEST(AsyncWriter, AnErrorOfTheWriterIsReturned) {
  Recorder rec;
  rec.fail_at = 7;
  AsyncWriter w(rec, 4);
  ASSERT_TRUE(w.append(events(1, 1)));
  (void)w.append(events(1, 7));
  auto r = w.finish({}, {}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "disk full");
  EXPECT_EQ(rec.calls, std::vector<std::string>{"append 1"});  // finish not reached
}

}  // namespace
}  // namespace dlgen::capture
