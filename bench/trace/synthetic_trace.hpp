#pragma once
// A synthetic trace with the mix a PyTorch DataLoader run produces: a main process and several
// worker processes, each opening a file from a few hundred, stat-ing it, reading it sequentially in
// requests of 4 KiB-1 MiB until EOF, closing it, and handing batches over with sendmsg/recvmsg.
// Deterministic for a given seed, so sizes can be compared across changes.
#include <algorithm>
#include <random>

#include "dlgen/trace/trace.hpp"

namespace dlgen::trace::synthetic {

inline Trace make_trace(std::size_t n_events, std::uint32_t seed = 42, int workers = 8,
                        int n_files = 400) {
  std::mt19937_64 rng(seed);
  Trace t;
  t.meta.command = {"python3", "train.py", "--epochs", "2"};
  t.meta.host = "synthetic";
  t.meta.dlgen_version = "bench";
  for (int i = 0; i < n_files; ++i) {
    File f;
    f.path = "/data/imagenet/train/n0" + std::to_string(1440000 + i % 20) + "/img_" +
             std::to_string(i) + ".JPEG";
    f.dev = 2049;
    f.ino = 100000 + static_cast<std::uint64_t>(i) * 7;
    f.size_at_open = std::uniform_int_distribution<std::uint64_t>(64 << 10, 4 << 20)(rng);
    f.magic = 0xe0ffd8ff;
    f.magic_len = 4;
    t.files.push_back(f);
  }
  const std::uint32_t main_pid = 4000;
  t.processes.push_back({main_pid, main_pid, 1, "python3", "python3", 0, 0, 0, false});
  for (int w = 0; w < workers; ++w)
    t.processes.push_back({main_pid + 10 + w, main_pid + 10 + w, main_pid, "pt_data_worker",
                           "python3", 1000000, 0, 0, false});
  const std::uint64_t req_sizes[] = {4096, 65536, 131072, 262144, 1048576};
  std::discrete_distribution<int> pick_req({1, 6, 2, 1, 1});
  std::lognormal_distribution<double> dur_us(3.0, 1.0);
  std::exponential_distribution<double> gap_us(1.0 / 15.0);
  std::uniform_int_distribution<int> pick_file(0, n_files - 1);

  // Each worker walks through its own file; events interleave across workers by time.
  struct Cursor {
    std::uint32_t file = kNoFile;
    std::uint64_t off = 0;
    int fd = 0;
    int phase = 0;
  };
  std::vector<Cursor> cur(workers);
  std::uint64_t ts = 2000000;
  t.events.reserve(n_events);
  while (t.events.size() < n_events) {
    ts += static_cast<std::uint64_t>(gap_us(rng) * 1000) + 1;
    int w = static_cast<int>(rng() % (workers + 1));
    Event e;
    e.ts_ns = ts;
    e.dur_ns = static_cast<std::uint64_t>(dur_us(rng) * 1000);
    if (w == workers) {  // main process: batch handover
      e.pid = e.tid = main_pid;
      e.op = rng() % 2 ? Op::recvmsg : Op::sendmsg;
      e.fd = 5;
      e.size = e.ret = 72;
      t.events.push_back(e);
      continue;
    }
    Cursor& c = cur[w];
    e.pid = e.tid = main_pid + 10 + w;
    if (c.phase == 0) {
      c.file = static_cast<std::uint32_t>(pick_file(rng));
      c.off = 0;
      c.fd = 20 + w;
      e.op = Op::open;
      e.file = c.file;
      e.ret = e.fd = c.fd;
      e.flags = 0x80000;  // O_CLOEXEC|O_RDONLY
      c.phase = 1;
    } else if (c.phase == 1) {
      e.op = Op::stat;
      e.file = c.file;
      e.fd = c.fd;
      c.phase = 2;
    } else if (c.phase == 2) {
      std::uint64_t fsize = t.files[c.file].size_at_open;
      e.op = Op::read;
      e.file = c.file;
      e.fd = c.fd;
      e.offset = c.off;
      e.size = req_sizes[pick_req(rng)];
      std::uint64_t got = std::min(e.size, fsize - c.off);
      e.ret = static_cast<std::int64_t>(got);
      c.off += got;
      if (got == 0) c.phase = 3;
    } else {
      e.op = Op::close;
      e.file = c.file;
      e.fd = c.fd;
      c.phase = 0;
    }
    t.events.push_back(e);
  }
  t.meta.duration_ns = ts + 1000000;
  return t;
}

}  // namespace dlgen::trace::synthetic
