#pragma once
// A synthetic PyTorch-like training run as a Trace, for unit tests of summarize/distil. It models
// what the tracer records for a DataLoader: worker processes (forked per epoch) open and read
// sample files, collate into /dev/shm tensors, the main process receives each batch with recvmsg,
// computes for a fixed time, and writes checkpoints with writes and an fsync. Times are ns.
// With `accelerators` > 1 it is a DistributedDataParallel run: one main process per accelerator
// (rank), each with its own workers, each pass's files sharded over the ranks as
// DistributedSampler does; rank 0 writes the checkpoints while the others wait for it. The Sim
// keeps the ground truth of every rank's steps (truth()) for tests of the AU arithmetic.
#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dlgen/trace/trace.hpp"
#include "trace_builder.hpp"

namespace dlgen::testing {

enum class SimOrder { sequential, shuffled, buffer };

struct SimConfig {
  std::string data_dir = "/mnt/datasets/unet/train";
  std::string ext = ".npz";
  std::uint64_t magic = 0x04034b50;  // PK\3\4
  std::uint8_t magic_len = 4;
  std::uint32_t files = 64;
  std::uint32_t files_per_dir = 0;   // 0: flat
  std::vector<std::uint64_t> sizes;  // per file; empty: fixed `size`
  std::uint64_t size = 256 * 1024;
  std::uint64_t chunk = 0;   // 0: one read of the whole file (+ an EOF read); else chunks
  std::uint64_t header = 0;  // a first read of this size before the chunks (PIL: 4096)
  std::uint64_t probe = 0;   // numpy.load: a read at 0 first, then the file again from 0
  std::uint64_t startup_ns = 20'000'000;  // each pass: iterator start until the workers read
  std::uint64_t preprocess_ns = 0;  // per sample after its reads (decode/transform in the worker)
  // Worker w's preprocess is preprocess_ns x worker_pace[w % size] (empty: all at 1).
  std::vector<double> worker_pace;
  std::uint64_t header_gap_ns = 0;  // the worker's time between the header read and the rest
  // Per batch after its samples, from its first handover event on (default_collate stacking the
  // samples into the /dev/shm tensor), before the worker takes its next indices.
  std::uint64_t collate_ns = 0;
  // Each worker process reads its batches' indices from a pipe (its index queue) before each
  // batch, which the main process writes: at the pass's start for the first `prefetch` batches a
  // worker, then each time it receives a batch (PyTorch's _try_put_index).
  bool index_queue = false;
  std::uint64_t warmup_ns = 0;      // more on each worker's first sample of a pass (fresh process)
  // More between a worker's first batch of a pass being ready and the consumer receiving it
  // (PyTorch: the worker's queue feeder thread starts, the consumer connects to receive the
  // batch's shared-memory descriptors).
  std::uint64_t first_handover_ns = 0;
  std::uint32_t workers = 2;    // 0: the main process reads itself
  bool thread_readers = false;  // readers are threads of the main process, no handovers
  // Each batch handed over as /dev/shm tensor files (PyTorch's file_descriptor sharing: the data,
  // then the labels), which the main process maps when it receives the batch and first touches
  // (page faults of its main thread) when its step computes on it: the data at the step's start
  // and again half-way (a second fault-around window), the labels at the loss.
  bool shm_tensors = false;
  // With shm_tensors, PyTorch's file_descriptor sharing in full: the main thread closes each
  // tensor's received descriptor right after mapping it, and closes the one it kept when it lets
  // the batch go, as the next step begins (the loop rebinds its batch). Every `late_release_every`
  // training step (0: none) it idles `late_release_ns` between the receipt and letting the batch
  // before go: descheduled on a busy host, or holding a batch that arrived out of order.
  bool tensor_releases = false;
  std::uint32_t late_release_every = 0;
  std::uint64_t late_release_ns = 0;
  std::uint32_t batch = 8;
  std::uint32_t epochs = 3;
  std::uint32_t prefetch = 2;
  std::vector<std::uint32_t> prefetch_per_accelerator;  // empty: `prefetch` for every rank
  std::uint32_t accelerators = 1;                       // main processes (DDP ranks)
  bool drop_last = false;
  SimOrder order = SimOrder::sequential;
  std::uint32_t buffer = 16;
  std::uint64_t compute_ns = 50'000'000;
  // The main process's own cost per batch after receiving it (PyTorch: map the /dev/shm tensors,
  // unpickle, collate), before compute: a few syscalls spread over that time. 0: none.
  std::uint64_t consumer_ns = 0;
  // The main thread's compute touches memory as PyTorch's CPU compute does (the round 6 held-out
  // programs): a page fault on the batch's tensor at its start, one on the labels 45% in (the
  // loss), and on every 4th step a munmap of a freed 2 MiB buffer 70% in. None is a system call
  // that ends the compute.
  bool compute_faults = false;
  // The training step of this index (counted from 0 over the run) loads a shared library 30% into
  // its compute, as oneDNN does on its first use in the first step: the dynamic loader opens and
  // maps its cache, then looks for the library in 20 directories (a failed stat of the directory
  // and a failed open of the library in each, 3 µs apart) and finds none. -1: none.
  std::int64_t library_search_step = -1;
  // The main thread reads each batch's message from the result queue (a pipe), then waits this
  // long, in calls the trace does not see, for the worker to pass the tensors' descriptors before
  // its recvmsgs (PyTorch's resource-sharer connection on a busy host). 0: no message read.
  std::uint64_t descriptor_wait_ns = 0;
  // A right tail (a busy machine descheduling the process): every Nth step computes, and every
  // Nth sample preprocesses, `tail_factor` times longer. 0: no tail.
  // One HDF5-like file of `one_file_samples` samples of `sample_stride` bytes (after a 2 KiB
  // header) instead of a file per sample: each worker opens it once per pass and reads a sample as
  // one `sample_readahead` pread at its offset (a library read-ahead) plus a small label read.
  std::uint32_t one_file_samples = 0;
  // Every Nth sample a 2616-byte metadata block lies between two samples (HDF5 B-tree nodes among
  // a chunked dataset's chunks), read with the sample after it: the samples are off one grid.
  std::uint32_t sample_gap_every = 0;
  std::uint64_t sample_stride = 16384;
  std::uint64_t sample_readahead = 65536;
  // The one file is memory-mapped instead (np.load(mmap_mode="r"): a .npy with a 128-byte
  // header): each worker opens it, reads the header, maps it shared and read-only, and each
  // sample's bytes are page faults as the kernel reports them: one per `fault_window` (aligned)
  // that the worker's process has not mapped yet. Workers exit at the end of their pass.
  bool mapped = false;
  std::uint64_t fault_window = 65536;
  std::uint32_t compute_tail_every = 0;
  std::uint32_t preprocess_tail_every = 0;
  std::uint32_t tail_factor = 4;
  std::uint64_t read_ns_per_mib = 2'000'000;
  std::uint32_t cold_factor = 1;  // epoch 0 reads this many times slower (cold page cache)
  std::uint32_t ckpt_every_epochs = 0;
  std::vector<std::uint32_t> ckpt_after_epochs;  // and after these (1-based) epochs
  std::uint64_t ckpt_delay_ns = 1000;  // from the step's end to the checkpoint's open (serialising)
  std::uint32_t ckpt_every_steps = 0;
  std::uint64_t ckpt_size = 8 << 20;
  std::uint64_t ckpt_write = 1 << 20;
  std::uint64_t ckpt_gap_ns = 10000;  // between a checkpoint's writes (torch.save pickling)
  // A checkpoint of named files instead of model_N.pt: a name ending .json is a 300-byte file
  // (a Trainer's config.json), the others share ckpt_size; no fsync. With ckpt_dir_by_step, in
  // checkpoint-<steps>/ (a Trainer's save_steps directories).
  std::vector<std::string> ckpt_names;
  bool ckpt_dir_by_step = false;
  // After the last epoch, a final save of this many bytes (model_final.pt) right after the
  // epoch's checkpoint. 0: none.
  std::uint64_t final_save_bytes = 0;
  // Gradient accumulation: every Nth training step also runs the optimizer, `accum_extra_ns`
  // longer. 0: none.
  std::uint32_t accum_every = 0;
  std::uint64_t accum_extra_ns = 0;
  // Before training, the checkpoint the run resumes from is read (restore_bytes, 0: none); with
  // restore_staged it is first written there and fdatasync'd (dlgen's replay does so when none
  // is there for its restore to read).
  std::uint64_t restore_bytes = 0;
  bool restore_staged = false;
  bool noise = true;    // python imports, shared libraries, a config file
  std::string val_dir;  // "" : no validation; else one pass after each epoch
  std::uint32_t val_files = 16;
  std::uint32_t seed = 7;
};

// What one rank did, in the Sim's own times (the tracer sees a receipt ~130 us before it, when
// the main process's last recvmsg for the batch returns).
struct SimTruth {
  std::uint64_t first_batch_ns = 0;      // the run's first batch handed to it
  std::uint64_t compute_ns = 0;          // Σ compute over every step it took (train and eval)
  std::uint64_t consumer_ns = 0;         // Σ the consumer's own per-batch cost over those steps
  std::uint64_t steps = 0, samples = 0;  // train and eval
};

class Sim : private testing::TraceBuilder {
 public:
  explicit Sim(SimConfig c) : c_(std::move(c)), rng_(c_.seed) {}

  trace::Trace build() {
    t_.meta.command = {"python3", "train.py"};
    truth_.assign(std::max<std::uint32_t>(1, c_.accelerators), SimTruth{});
    for (std::uint32_t a = 0; a < truth_.size(); ++a)
      proc(main_pid(a), 1, "python3", false, main_pid(a));
    if (c_.noise) noise();
    if (c_.restore_bytes > 0) restore();
    std::vector<std::uint32_t> train;
    if (c_.one_file_samples && c_.mapped) {
      big_ =
          file(c_.data_dir + "/train.npy",
               128 + std::uint64_t{c_.one_file_samples} * c_.sample_stride, 0x0059504d554e93ull, 6);
      for (std::uint32_t i = 0; i < c_.one_file_samples; ++i) train.push_back(i);
    } else if (c_.one_file_samples) {
      big_ = file(c_.data_dir + "/train.h5",
                  2048 + c_.one_file_samples * (c_.sample_stride + 8) +
                      (c_.sample_gap_every ? c_.one_file_samples / c_.sample_gap_every * 2616 : 0),
                  0x0a1a0a0d46444889ull, 8);
      for (std::uint32_t i = 0; i < c_.one_file_samples; ++i) train.push_back(i);  // sample indices
    } else {
      train = dataset(c_.data_dir, c_.files, "sample_");
    }
    std::vector<std::uint32_t> val;
    if (!c_.val_dir.empty()) val = dataset(c_.val_dir, c_.val_files, "sample_");
    for (std::uint32_t e = 0; e < c_.epochs; ++e) {
      pass(train, e, false);
      const auto& listed = c_.ckpt_after_epochs;
      if ((c_.ckpt_every_epochs && (e + 1) % c_.ckpt_every_epochs == 0) ||
          std::find(listed.begin(), listed.end(), e + 1) != listed.end())
        checkpoint();
      if (c_.final_save_bytes > 0 && e + 1 == c_.epochs) final_save();
      if (!val.empty()) pass(val, e, true);
    }
    std::stable_sort(
        t_.events.begin(), t_.events.end(),
        [](const trace::Event& a, const trace::Event& b) { return a.ts_ns < b.ts_ns; });
    t_.meta.duration_ns = now_ + 1000;
    return t_;
  }

  std::uint32_t checkpoints_written() const { return ckpts_; }
  std::uint64_t steps_done() const { return steps_; }  // training steps per rank
  const std::vector<SimTruth>& truth() const { return truth_; }
  // The run's end: the last step's end on any rank or the last checkpoint's end, whichever is
  // later.
  std::uint64_t run_end_ns() const { return run_end_; }

 private:
  static constexpr std::uint32_t kMain = 100;
  static std::uint32_t main_pid(std::uint32_t rank) { return kMain + 100 * rank; }

  // One sample of the memory-mapped one-file dataset: the faults of its first touch of each
  // fault-around window, as the kernel reports them.
  std::uint64_t fault_sample(std::uint64_t ts, std::uint32_t pid, std::uint32_t tid,
                             std::uint32_t k) {
    const std::uint64_t size = t_.files[big_].size_at_open;
    if (opened_.insert(pid).second) {  // np.load: open, read the header, mmap, close
      const std::int32_t fd = 7;
      ev(ts, 5000, pid, tid, trace::Op::open, big_, -1, 0, 0, fd);
      ev(ts + 6000, 3000, pid, tid, trace::Op::read, big_, fd, 0, 4096, 4096);
      ev(ts + 10000, 3000, pid, tid, trace::Op::mmap, big_, fd, 0, size, 0x7f0000000000, 0x01);
      t_.events.back().arg = 0x1;  // PROT_READ
      ev(ts + 14000, 1000, pid, tid, trace::Op::close, big_, fd, 0, 0, 0);
      ts += 16000;
    }
    const std::uint64_t off = 128 + std::uint64_t{k} * c_.sample_stride;
    for (std::uint64_t w = off / c_.fault_window; w * c_.fault_window < off + c_.sample_stride;
         ++w) {
      if (!mapped_.insert({pid, w}).second) continue;
      const std::uint64_t start = w * c_.fault_window;
      const std::uint64_t n = std::min(c_.fault_window, (size + 4095) / 4096 * 4096 - start);
      ev(ts, 0, pid, tid, trace::Op::fault, big_, -1, start, n, static_cast<std::int64_t>(n), 1);
      ts += 3000;
    }
    ++samples_read_;
    return ts + 20000 + c_.preprocess_ns;
  }

  // One sample of the one-file dataset: its pread (with read-ahead) and a label read.
  std::uint64_t read_sample(std::uint64_t ts, std::uint32_t pid, std::uint32_t tid,
                            std::uint32_t k) {
    if (c_.mapped) return fault_sample(ts, pid, tid, k);
    const std::int32_t fd = 7 + static_cast<std::int32_t>(tid % 50);
    if (opened_.insert(pid).second) {
      ev(ts, 5000, pid, tid, trace::Op::open, big_, -1, 0, 0, fd);
      ts += 6000;
    }
    const std::uint64_t size = t_.files[big_].size_at_open;
    const std::uint64_t gaps = c_.sample_gap_every ? k / c_.sample_gap_every : 0;
    const std::uint64_t off = 2048 + std::uint64_t{k} * c_.sample_stride + gaps * 2616;
    if (c_.sample_gap_every && k % c_.sample_gap_every == 0 && k > 0) {
      ev(ts, 3000, pid, tid, trace::Op::pread, big_, fd, off - 2616, 2616, 2616);
      ts += 4000;
    }
    const std::uint64_t n = std::min(c_.sample_readahead, size - off);
    ev(ts, 20000, pid, tid, trace::Op::pread, big_, fd, off, c_.sample_readahead,
       static_cast<std::int64_t>(n));
    ts += 21000;
    const std::uint64_t labels =
        2048 + std::uint64_t{c_.one_file_samples} * c_.sample_stride +
        (c_.sample_gap_every ? c_.one_file_samples / c_.sample_gap_every * 2616 : 0);
    ev(ts, 3000, pid, tid, trace::Op::pread, big_, fd, labels + (k / 512) * 4096, 4096, 4096);
    ts += 4000;
    ++samples_read_;
    return ts + 2000 + c_.preprocess_ns;
  }

  // Reads one whole file as Python does; returns the time after it.
  // A worker's handover of a batch of `n` samples: its tensors' /dev/shm files (with shm_tensors:
  // the data and the labels, created and sized; else two anonymous ones). Returns the files.
  std::vector<std::uint32_t> hand_over(std::uint64_t ts, std::uint32_t pid, std::size_t n) {
    if (!c_.shm_tensors) {
      ev(ts, 20000, pid, pid, trace::Op::shm_open, trace::kNoFile, -1, 0, 0, 11);
      ev(ts + 30000, 20000, pid, pid, trace::Op::shm_open, trace::kNoFile, -1, 0, 0, 12);
      return {};
    }
    std::vector<std::uint32_t> files;
    for (const std::uint64_t bytes : {std::uint64_t{n} * 12288, std::uint64_t{n} * 8}) {
      const std::string name = "/dev/shm/torch_" + std::to_string(pid) + "_" +
                               std::to_string(tensors_++);
      files.push_back(file(name, 0));
      const std::uint64_t at = ts + 30000 * (files.size() - 1);
      ev(at, 20000, pid, pid, trace::Op::shm_open, files.back(), -1, 0, 0, 11);
      ev(at + 22000, 3000, pid, pid, trace::Op::ftruncate, files.back(), 11, 0, bytes, 0);
    }
    return files;
  }

  // The main process maps a batch's tensors when it receives it (`recv`) and touches them when
  // its step computes on it (from `begin`, for `compute`): a page fault each.
  void touch(std::uint64_t recv, std::uint64_t begin, std::uint64_t compute, std::uint32_t main,
             const std::vector<std::uint32_t>& files) {
    for (std::size_t j = 0; j < files.size(); ++j)
      ev(recv - 100000 + 10000 * j, 5000, main, main, trace::Op::mmap, files[j], 20, 0, 4096,
         0x7f0000000000);
    ev(begin, 2000, main, main, trace::Op::fault, files[0], -1, 0, 65536, 65536);
    ev(begin + compute / 2, 2000, main, main, trace::Op::fault, files[0], -1, 65536, 28672, 28672);
    ev(begin + compute * 3 / 4, 2000, main, main, trace::Op::fault, files[1], -1, 0, 4096, 4096);
  }

  // The worker's read of batch i's indices from its index queue (written by the main process when
  // it received batch i - prefetch x workers, or at the pass's start): when it may begin batch i.
  template <typename Rank>
  std::uint64_t take_indices(const Rank& k, std::size_t i, std::uint32_t main, std::uint32_t pid,
                             std::uint64_t start) {
    auto [it, fresh] = index_pipes_.try_emplace(pid, 0);
    if (fresh) it->second = file("pipe:[" + std::to_string(70000 + pid) + "]", 0);
    const std::size_t window = std::size_t(k.prefetch) * k.pids.size();
    const std::uint64_t sent = i < window ? k.pass_start : k.recv[i - window] + 20000;
    ev(sent, 5000, main, main, trace::Op::write, it->second, 30, 0, 64, 64);
    const std::uint64_t read = std::max(start, sent + 10000);
    ev(read, 3000, pid, pid, trace::Op::read, it->second, 4, 0, 64, 64);
    return read + 5000;
  }

  // The dynamic loader looking for a library that is not there (SimConfig::library_search_step).
  void library_search(std::uint64_t ts, std::uint32_t tid) {
    const auto cache = file("/etc/ld.so.cache", 60000);
    ev(ts, 2000, tid, tid, trace::Op::open, cache, 30, 0, 0, 30);
    ev(ts + 3000, 1000, tid, tid, trace::Op::stat, cache, 30, 0, 0, 0);
    ev(ts + 5000, 4000, tid, tid, trace::Op::mmap, cache, 30, 0, 60000, 60000);
    ev(ts + 10000, 1000, tid, tid, trace::Op::close, cache, 30, 0, 0, 0);
    for (int d = 0; d < 20; ++d) {
      const std::string dir = "/usr/lib/x86_64-linux-gnu/tls" + std::to_string(d);
      ts += 6000;
      ev(ts + 10000, 1000, tid, tid, trace::Op::stat, file(dir, 0), -1, 0, 0, -2);
      ev(ts + 13000, 1500, tid, tid, trace::Op::open, file(dir + "/libJitPI.so", 0), -1, 0, 0, -2);
    }
  }

  std::uint64_t read_file(std::uint64_t ts, std::uint32_t pid, std::uint32_t tid, std::uint32_t f) {
    if (c_.one_file_samples) return read_sample(ts, pid, tid, f);
    const std::uint64_t size = t_.files[f].size_at_open;
    const std::int32_t fd = 7 + static_cast<std::int32_t>(tid % 50);  // fds are per process
    ev(ts, 5000, pid, tid, trace::Op::open, f, -1, 0, 0, fd);
    ts += 6000;
    if (c_.probe) {
      ev(ts, 2000, pid, tid, trace::Op::read, f, fd, 0, c_.probe,
         static_cast<std::int64_t>(std::min(c_.probe, size)));
      ev(ts + 2500, 500, pid, tid, trace::Op::lseek, f, fd, 0, 0, 0);
      ts += 3500;
    }
    const std::uint64_t chunk = c_.chunk ? c_.chunk : size + 1;
    for (std::uint64_t off = 0; off < size;) {
      const std::uint64_t ask = off == 0 && c_.header ? c_.header : chunk;
      const std::uint64_t n = std::min(ask, size - off);
      const std::uint64_t dur =
          std::max<std::uint64_t>(1000, (n * c_.read_ns_per_mib >> 20) * slow_);
      ev(ts, dur, pid, tid, trace::Op::read, f, fd, off, ask, static_cast<std::int64_t>(n));
      ts += dur + 500 + (off == 0 && c_.header ? c_.header_gap_ns : 0);
      off += n;
    }
    ev(ts, 500, pid, tid, trace::Op::read, f, fd, size, chunk, 0);  // EOF probe
    ts += 1000;
    ev(ts, 1000, pid, tid, trace::Op::close, f, fd, 0, 0, 0);
    ++samples_read_;
    const bool tail = c_.preprocess_tail_every && samples_read_ % c_.preprocess_tail_every == 0;
    return ts + 2000 +
           static_cast<std::uint64_t>(static_cast<double>(c_.preprocess_ns) * pace_) *
               (tail ? c_.tail_factor : 1);
  }

  void noise() {
    static const char* kPaths[] = {"/usr/lib/python3.11/os.py",
                                   "/usr/lib/python3/dist-packages/numpy/core/"
                                   "_multiarray_umath.cpython-311-x86_64-linux-gnu.so",
                                   "/home/u/proj/train.py",
                                   "/home/u/proj/config.yaml",
                                   "/home/u/proj/__pycache__/model.cpython-311.pyc",
                                   "/proc/self/maps",
                                   "/etc/ld.so.cache",
                                   "/home/u/proj/libtorch_cpu.so.2"};
    for (const char* p : kPaths) {
      const auto f = file(p, 40000);
      now_ = read_file(now_, kMain, kMain, f);
    }
  }

  std::vector<std::uint32_t> dataset(const std::string& dir, std::uint32_t n,
                                     const std::string& prefix) {
    std::vector<std::uint32_t> ids;
    std::normal_distribution<double> jitter(0, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
      std::string sub = c_.files_per_dir ? "/c" + std::to_string(i / c_.files_per_dir) : "";
      char name[32];
      std::snprintf(name, sizeof name, "%05u", i);
      const std::uint64_t size =
          c_.sizes.empty() || dir != c_.data_dir ? c_.size : c_.sizes[i % c_.sizes.size()];
      ids.push_back(file(dir + sub + "/" + prefix + name + c_.ext, size, c_.magic, c_.magic_len));
    }
    return ids;
  }

  std::vector<std::uint32_t> order(std::vector<std::uint32_t> ids) {
    if (c_.order == SimOrder::shuffled) {
      std::shuffle(ids.begin(), ids.end(), rng_);
    } else if (c_.order == SimOrder::buffer) {
      std::vector<std::uint32_t> buf, out;
      for (auto id : ids) {
        buf.push_back(id);
        if (buf.size() >= c_.buffer) {
          std::uniform_int_distribution<std::size_t> pick(0, buf.size() - 1);
          const auto k = pick(rng_);
          out.push_back(buf[k]);
          buf.erase(buf.begin() + static_cast<long>(k));
        }
      }
      std::shuffle(buf.begin(), buf.end(), rng_);
      out.insert(out.end(), buf.begin(), buf.end());
      ids = out;
    }
    return ids;
  }

  // One file of `bytes` written from `ts` by the main process, in ckpt_write requests, closed;
  // the time after its close.
  std::uint64_t write_whole(std::uint32_t f, std::uint64_t bytes, std::uint64_t ts) {
    ev(ts, 10000, kMain, kMain, trace::Op::open, f, -1, 0, 0, 9, 01 | 0100);
    ts += 20000;
    for (std::uint64_t off = 0; off < bytes; off += c_.ckpt_write) {
      const auto n = std::min(c_.ckpt_write, bytes - off);
      ev(ts, 300000, kMain, kMain, trace::Op::write, f, 9, off, n, static_cast<std::int64_t>(n));
      ts += 310000;
    }
    ev(ts, 1000, kMain, kMain, trace::Op::close, f, 9, 0, 0, 0);
    return ts + 5000;
  }

  // A checkpoint of c_.ckpt_names (SimConfig).
  void named_checkpoint() {
    const std::string dir = c_.ckpt_dir_by_step
                                ? "/home/u/proj/out/checkpoint-" + std::to_string(steps_) + "/"
                                : std::string("/home/u/proj/out/");
    std::uint64_t large = 0;
    for (const auto& n : c_.ckpt_names) large += !n.ends_with(".json");
    std::uint64_t ts = now_ + c_.ckpt_delay_ns;
    for (const auto& n : c_.ckpt_names)
      ts = write_whole(file(dir + n, 0),
                       n.ends_with(".json") ? 300 : c_.ckpt_size / std::max<std::uint64_t>(large, 1),
                       ts);
    now_ = ts;
    run_end_ = std::max(run_end_, ts);
    ++ckpts_;
  }

  void restore() {
    const auto f = file("/home/u/proj/out/last.pt", c_.restore_bytes);
    if (c_.restore_staged) {
      now_ = write_whole(f, c_.restore_bytes, now_);
      ev(now_, 2000000, kMain, kMain, trace::Op::fdatasync, f, 9, 0, 0, 0);
      now_ += 2100000;
    }
    now_ = read_file(now_, kMain, kMain, f);
  }

  void final_save() {
    now_ = write_whole(file("/home/u/proj/out/model_final.pt", 0), c_.final_save_bytes,
                       now_ + 1000);
    run_end_ = std::max(run_end_, now_);
  }

  void checkpoint() {
    if (!c_.ckpt_names.empty()) return named_checkpoint();
    const auto f = file("/home/u/proj/ckpt/model_" + std::to_string(ckpts_) + ".pt", 0);
    std::uint64_t ts = now_ + c_.ckpt_delay_ns;
    ev(ts, 10000, kMain, kMain, trace::Op::open, f, -1, 0, 0, 9, 01 | 0100);
    ts += 20000;
    for (std::uint64_t off = 0; off < c_.ckpt_size; off += c_.ckpt_write) {
      const auto n = std::min(c_.ckpt_write, c_.ckpt_size - off);
      ev(ts, 300000, kMain, kMain, trace::Op::write, f, 9, off, n, static_cast<std::int64_t>(n));
      ts += 300000 + c_.ckpt_gap_ns;
    }
    ev(ts, 2000000, kMain, kMain, trace::Op::fsync, f, 9, 0, 0, 0);
    ts += 2100000;
    ev(ts, 1000, kMain, kMain, trace::Op::close, f, 9, 0, 0, 0);
    now_ = ts + 5000;
    run_end_ = std::max(run_end_, ts - 100000);  // the fsync's end: the checkpoint's last write
    ++ckpts_;
  }

  // One pass: each rank takes its shard of the files (DistributedSampler: rank r reads positions
  // r, r+N, ...); its batches go round-robin to its workers, each worker at most `prefetch` batches
  // ahead of consumption; its main process receives them in order and computes. The ranks start
  // the pass together and meet at every checkpoint (rank 0 writes it, the others wait).
  void pass(const std::vector<std::uint32_t>& ids, std::uint32_t epoch, bool eval) {
    auto seq = order(ids);
    slow_ = epoch == 0 ? c_.cold_factor : 1;
    const std::uint32_t N = static_cast<std::uint32_t>(truth_.size());
    const std::uint32_t W = std::max<std::uint32_t>(1, c_.workers);
    now_ += c_.startup_ns;  // iterator start: workers fork
    struct Rank {
      std::vector<std::vector<std::uint32_t>> batches;
      std::vector<std::uint32_t> pids;
      std::vector<std::uint64_t> worker_free, ready, recv;
      std::uint64_t main_free = 0, pass_start = 0;
      std::uint32_t prefetch = 0;
      std::vector<std::uint32_t> held;  // the tensors of the batch the loop holds
    };
    std::vector<Rank> ranks(N);
    std::size_t most = 0;
    for (std::uint32_t r = 0; r < N; ++r) {
      Rank& k = ranks[r];
      std::vector<std::uint32_t> shard;
      for (std::size_t i = r; i < seq.size(); i += N) shard.push_back(seq[i]);
      for (std::size_t i = 0; i < shard.size(); i += c_.batch) {
        std::vector<std::uint32_t> b(
            shard.begin() + static_cast<long>(i),
            shard.begin() + static_cast<long>(std::min(shard.size(), i + c_.batch)));
        if (b.size() < c_.batch && c_.drop_last) break;
        k.batches.push_back(b);
      }
      most = std::max(most, k.batches.size());
      k.prefetch =
          r < c_.prefetch_per_accelerator.size() ? c_.prefetch_per_accelerator[r] : c_.prefetch;
      k.pids.resize(W);
      const std::uint32_t main = main_pid(r);
      for (std::uint32_t w = 0; w < W; ++w) {
        if (c_.workers == 0) {
          k.pids[w] = main;
        } else if (c_.thread_readers) {
          k.pids[w] = main + 1 + w;
          if (epoch == 0 && !eval) proc(k.pids[w], 1, "reader", true, main);
        } else {
          k.pids[w] = next_pid_++;
          proc(k.pids[w], main, "python3", false, k.pids[w]);
        }
      }
      k.worker_free.assign(W, now_);
      k.ready.resize(k.batches.size());
      k.recv.resize(k.batches.size());
      k.main_free = now_;
      k.pass_start = now_;
    }
    const bool inline_reads = c_.workers == 0;
    for (std::size_t i = 0; i < most; ++i) {
      for (std::uint32_t r = 0; r < N; ++r) {
        Rank& k = ranks[r];
        if (i >= k.batches.size()) continue;
        const std::uint32_t main = main_pid(r);
        const std::uint32_t w = static_cast<std::uint32_t>(i % W);
        std::uint64_t start = k.worker_free[w];
        if (inline_reads)
          start = std::max(start, k.main_free);
        else if (i >= std::size_t(k.prefetch) * W)
          start = std::max(start, k.recv[i - k.prefetch * W]);
        const std::uint32_t tgid = c_.thread_readers ? main : k.pids[w];
        if (c_.index_queue && c_.workers > 0 && !c_.thread_readers)
          start = take_indices(k, i, main, k.pids[w], start);
        for (std::size_t j = 0; j < k.batches[i].size(); ++j) {
          pace_ = c_.worker_pace.empty() ? 1.0 : c_.worker_pace[w % c_.worker_pace.size()];
          start = read_file(start, tgid, k.pids[w], k.batches[i][j]);
          pace_ = 1.0;
          if (i < W && j == 0) start += c_.warmup_ns;  // the worker's first sample of this pass
        }
        std::vector<std::uint32_t> tensors;
        if (c_.workers > 0 && !c_.thread_readers) {
          tensors = hand_over(start, k.pids[w], k.batches[i].size());
          start += 100000 + c_.collate_ns;
        }
        k.ready[i] = start;
        k.worker_free[w] = start;
        k.recv[i] = std::max(k.main_free, k.ready[i] + 300000 + (i < W ? c_.first_handover_ns : 0));
        if (c_.descriptor_wait_ns > 0) {
          const std::uint64_t wait = c_.descriptor_wait_ns + 200000;
          k.recv[i] = std::max(k.recv[i], k.main_free + wait) + (k.recv[i] > k.main_free ? wait : 0);
          if (!result_queue_) result_queue_ = file("pipe:[69999]", 0);
          ev(k.recv[i] - wait, 3000, main, main, trace::Op::read, result_queue_, 9, 0, 480, 480);
        }
        if (c_.workers > 0 && !c_.thread_readers) {
          for (int m = 0; m < 2; ++m) {
            ev(k.recv[i] - 200000 + m * 50000, 10000, k.pids[w], k.pids[w] + 500,
               trace::Op::sendmsg, trace::kNoFile, 5, 0, 64, 64);
            ev(k.recv[i] - 190000 + m * 50000, 10000, main, main, trace::Op::recvmsg,
               trace::kNoFile, 6, 0, 64, 64);
          }
        }
        const bool tail =
            !eval && c_.compute_tail_every && (steps_ + 1) % c_.compute_tail_every == 0;
        const bool optimizer = !eval && c_.accum_every && (steps_ + 1) % c_.accum_every == 0;
        const std::uint64_t extra = optimizer ? c_.accum_extra_ns : 0;
        const std::uint64_t compute =
            eval ? c_.compute_ns / 3 : c_.compute_ns * (tail ? c_.tail_factor : 1) + extra;
        // mmap of the tensors, then the previous batch's freed as PyTorch frees a received
        // storage: close of its descriptor, munmap.
        if (c_.consumer_ns > 0) {
          ev(k.recv[i] + c_.consumer_ns / 2, 5000, main, main, trace::Op::mmap, trace::kNoFile, -1,
             0, 4096, 4096);
          ev(k.recv[i] + c_.consumer_ns - 10000, 4000, main, main, trace::Op::close,
             trace::kNoFile, 7, 0, 0, 0);
          ev(k.recv[i] + c_.consumer_ns - 5000, 5000, main, main, trace::Op::munmap, trace::kNoFile,
             -1, 0, 4096, 0);
        }
        // The loop lets the batch before go as it begins this step (tensor_releases), late on
        // every late_release_every-th training step.
        const bool late = !eval && c_.late_release_every &&
                          (steps_ + 1) % c_.late_release_every == 0;
        const std::uint64_t begin = k.recv[i] + c_.consumer_ns + (late ? c_.late_release_ns : 0);
        if (c_.tensor_releases) {
          for (std::size_t j = 0; j < tensors.size(); ++j)  // the received duplicates
            ev(k.recv[i] - 90000 + 10000 * j, 2000, main, main, trace::Op::close, tensors[j], 21,
               0, 0, 0);
          for (std::size_t j = 0; j < k.held.size(); ++j)
            ev(begin - 40000 + 15000 * j, 3000, main, main, trace::Op::close, k.held[j], 20, 0, 0,
               0);
          k.held = tensors;
        }
        if (c_.compute_faults) {  // the batch faulted in, the labels at the loss, a free
          const std::uint64_t at = begin;
          ev(at + 100000, 0, main, main, trace::Op::fault, trace::kNoFile, -1, 0, 65536, 65536, 1);
          ev(at + compute * 45 / 100, 0, main, main, trace::Op::fault, trace::kNoFile, -1, 0, 4096,
             4096, 0);
          if (i % 4 == 1)
            ev(at + compute * 7 / 10, 20000, main, main, trace::Op::munmap, trace::kNoFile, -1, 0,
               1 << 21, 0);
        }
        if (!eval && static_cast<std::int64_t>(steps_) == c_.library_search_step)
          library_search(begin + compute * 3 / 10, main);
        if (!tensors.empty()) touch(k.recv[i], begin, compute, main, tensors);
        k.main_free = begin + compute;
        SimTruth& t = truth_[r];
        if (t.steps == 0) t.first_batch_ns = k.recv[i];
        ++t.steps;
        t.samples += k.batches[i].size();
        t.compute_ns += compute;
        t.consumer_ns += begin - k.recv[i];
        run_end_ = std::max(run_end_, k.main_free);
      }
      if (!eval) {
        ++steps_;
        if (c_.ckpt_every_steps && steps_ % c_.ckpt_every_steps == 0) {
          for (const Rank& k : ranks) now_ = std::max(now_, k.main_free);
          checkpoint();
          for (Rank& k : ranks) k.main_free = now_;
        }
      }
    }
    for (const Rank& k : ranks) {
      now_ = std::max(now_, k.main_free);
      for (auto f : k.worker_free) now_ = std::max(now_, f);
    }
    if (c_.mapped)  // the workers exit with their pass (their mappings with them)
      for (const Rank& k : ranks)
        for (auto& p : t_.processes)
          if (std::find(k.pids.begin(), k.pids.end(), p.pid) != k.pids.end() && !p.is_thread)
            p.end_ns = now_;
  }

  SimConfig c_;
  std::mt19937 rng_;
  std::uint32_t next_pid_ = 1000;
  std::uint32_t ckpts_ = 0;
  std::uint32_t tensors_ = 0;  // /dev/shm tensor files made
  std::uint64_t steps_ = 0;
  std::uint64_t samples_read_ = 0;
  double pace_ = 1.0;  // the reading worker's worker_pace factor
  std::uint32_t big_ = 0;                                     // the one-file dataset's file
  std::set<std::uint32_t> opened_;                            // processes that opened it
  std::set<std::pair<std::uint32_t, std::uint64_t>> mapped_;  // (pid, window) in its page tables
  std::map<std::uint32_t, std::uint32_t> index_pipes_;          // worker pid → its index queue
  std::uint32_t result_queue_ = 0;                              // descriptor_wait_ns's pipe
  std::uint32_t slow_ = 1;
  std::vector<SimTruth> truth_;
  std::uint64_t run_end_ = 0;
};

}  // namespace dlgen::testing
