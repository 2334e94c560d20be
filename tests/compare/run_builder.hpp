#pragma once
// Synthetic traces of one training run in two shapes, for compare tests:
//  - pytorch: a main process and DataLoader worker processes (forked per epoch) that open and
//    read() sample files, hand each batch over with a /dev/shm tensor and a sendmsg; the main
//    process recvmsg()s it and computes; torch.save-like checkpoint writes + fsync per epoch.
//  - replay: dlgen's engine as the tracer sees it: one process whose reader threads read the
//    same files with io_uring (uring_read, explicit offsets), no handovers, same timing model.
// Times are ns since the trace start.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "dlgen/trace/trace.hpp"
#include "trace_builder.hpp"

namespace dlgen::testing {

struct RunShape {
  std::string dir = "/data/train";
  std::uint32_t files = 48;
  std::uint64_t file_size = 192 * 1024;
  std::uint64_t chunk = 64 * 1024;  // request size; 0: one read per file
  std::uint32_t workers = 3;
  std::uint32_t prefetch = 2;
  bool shuffle = true;
  std::uint32_t epochs = 2;
  std::uint32_t batch = 4;
  std::uint64_t compute_ns = 40'000'000;
  bool checkpoint = true;  // after every epoch
  std::uint64_t checkpoint_bytes = 4 << 20;
  bool replay = false;  // the io_uring replay shape
  std::uint32_t seed = 1;
};

class RunBuilder : private testing::TraceBuilder {
 public:
  explicit RunBuilder(RunShape s) : TraceBuilder(10, 2049), s_(std::move(s)) {}

  trace::Trace build() {
    t_.meta.command = {s_.replay ? "dlgen" : "python3", s_.replay ? "run" : "train.py"};
    proc(kMain, 1, s_.replay ? "dlgen" : "python3", false, kMain);
    // Interpreter noise that compare must ignore.
    if (!s_.replay) {
      for (const char* p : {"/usr/lib/python3.11/os.py", "/home/u/train.py", "/etc/ld.so.cache"}) {
        auto f = file(p, 30000);
        now_ = read_file(now_, kMain, kMain, f, false);
      }
    }
    std::vector<std::uint32_t> ids;
    for (std::uint32_t i = 0; i < s_.files; ++i) {
      char name[64];
      std::snprintf(name, sizeof name, "/img_%05u.npz", i);
      ids.push_back(file(s_.dir + name, s_.file_size, 0x04034b50, 4));
    }
    std::mt19937 rng(s_.seed);
    for (std::uint32_t e = 0; e < s_.epochs; ++e) {
      auto order = ids;
      if (s_.shuffle) std::shuffle(order.begin(), order.end(), rng);
      epoch(order, e);
      if (s_.checkpoint) checkpoint(e);
    }
    std::stable_sort(
        t_.events.begin(), t_.events.end(),
        [](const trace::Event& a, const trace::Event& b) { return a.ts_ns < b.ts_ns; });
    t_.meta.duration_ns = now_ + 1000;
    return t_;
  }

 private:
  static constexpr std::uint32_t kMain = 100;
  static constexpr std::uint64_t kReadNsPerMiB = 4'000'000;  // 250 MiB/s

  std::uint64_t read_file(std::uint64_t ts, std::uint32_t pid, std::uint32_t tid, std::uint32_t f,
                          bool uring) {
    const std::uint64_t size = t_.files[f].size_at_open;
    // Threads of one process share its descriptor table: each reader holds its own descriptor.
    const std::int32_t fd = 7 + static_cast<std::int32_t>(tid - pid);
    ev(ts, 4000, pid, tid, trace::Op::open, f, -1, 0, 0, fd);
    ts += 5000;
    const std::uint64_t chunk = s_.chunk ? s_.chunk : size;
    for (std::uint64_t off = 0; off < size; off += chunk) {
      const std::uint64_t n = std::min(chunk, size - off);
      const std::uint64_t dur = std::max<std::uint64_t>(2000, n * kReadNsPerMiB >> 20);
      ev(ts, dur, pid, tid, uring ? trace::Op::uring_read : trace::Op::read, f, fd, off, n,
         static_cast<std::int64_t>(n));
      ts += dur + 500;
    }
    ev(ts, 1000, pid, tid, trace::Op::close, f, fd, 0, 0, 0);
    return ts + 2000;
  }

  void epoch(const std::vector<std::uint32_t>& order, std::uint32_t e) {
    std::vector<std::vector<std::uint32_t>> batches;
    for (std::size_t i = 0; i < order.size(); i += s_.batch)
      batches.emplace_back(order.begin() + static_cast<long>(i),
                           order.begin() + static_cast<long>(std::min(order.size(), i + s_.batch)));
    const std::uint32_t W = std::max<std::uint32_t>(1, s_.workers);
    std::vector<std::uint32_t> pid(W), tid(W);
    now_ += 15'000'000;  // the loader starts its workers
    for (std::uint32_t w = 0; w < W; ++w) {
      if (s_.replay) {
        pid[w] = kMain;
        tid[w] = kMain + 1 + w;
        if (e == 0) proc(tid[w], 1, "dlgen-reader", true, kMain);
      } else {
        pid[w] = tid[w] = next_pid_++;
        proc(pid[w], kMain, "pt_data_worker", false, pid[w]);
      }
    }
    std::vector<std::uint64_t> free_at(W, now_), ready(batches.size()), recv(batches.size());
    std::uint64_t main_free = now_;
    for (std::size_t i = 0; i < batches.size(); ++i) {
      const std::uint32_t w = static_cast<std::uint32_t>(i % W);
      std::uint64_t ts = free_at[w];
      if (i >= std::size_t(s_.prefetch) * W) ts = std::max(ts, recv[i - s_.prefetch * W]);
      for (auto f : batches[i]) ts = read_file(ts, pid[w], tid[w], f, s_.replay);
      if (!s_.replay) {
        ev(ts, 20000, pid[w], tid[w], trace::Op::shm_open, trace::kNoFile, -1, 0, 0, 11);
        ts += 50000;
      }
      ready[i] = ts;
      free_at[w] = ts;
      recv[i] = std::max(main_free, ready[i] + 300000);
      if (!s_.replay) {
        ev(recv[i] - 200000, 10000, pid[w], tid[w], trace::Op::sendmsg, trace::kNoFile, 5, 0, 64,
           64);
        ev(recv[i] - 190000, 10000, kMain, kMain, trace::Op::recvmsg, trace::kNoFile, 6, 0, 64, 64);
      }
      main_free = recv[i] + s_.compute_ns;
    }
    now_ = main_free;
    for (auto f : free_at) now_ = std::max(now_, f);
  }

  void checkpoint(std::uint32_t e) {
    const auto f = file("/home/u/ckpt/model_" + std::to_string(e) + ".pt", 0);
    std::uint64_t ts = now_ + 1000;
    ev(ts, 10000, kMain, kMain, trace::Op::open, f, -1, 0, 0, 9, 01 | 0100);
    ts += 20000;
    const std::uint64_t w = 1 << 20;
    for (std::uint64_t off = 0; off < s_.checkpoint_bytes; off += w) {
      const auto n = std::min(w, s_.checkpoint_bytes - off);
      ev(ts, 300000, kMain, kMain, s_.replay ? trace::Op::uring_write : trace::Op::write, f, 9, off,
         n, static_cast<std::int64_t>(n));
      ts += 310000;
    }
    ev(ts, 2000000, kMain, kMain, trace::Op::fsync, f, 9, 0, 0, 0);
    ts += 2100000;
    ev(ts, 1000, kMain, kMain, trace::Op::close, f, 9, 0, 0, 0);
    now_ = ts + 5000;
  }

  RunShape s_;
  std::uint32_t next_pid_ = 1000;
};

inline trace::Trace build_run(const RunShape& s) {
  return RunBuilder(s).build();
}

}  // namespace dlgen::testing
