#pragma once
// Profiles built as structs for the tests of the comparison: a small PyTorch-shaped run and its
// variants, and the row of a comparison by name.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <string_view>

#include "dlgen/compare/compare.hpp"

namespace dlgen::compare::profiles {

// A profile shaped like a small PyTorch run: 3 workers, 2 shuffled epochs of 100 files of ~1 MiB
// read in 256 KiB chunks, 25 steps per epoch of ~0.1 s compute, a checkpoint after each epoch.
inline Profile baseline() {
  Profile p;
  p.label = "synthetic";
  std::mt19937_64 rng(7);
  std::normal_distribution<double> jitter(1.0, 0.05);
  const int epochs = 2, files = 100, chunks = 4;
  for (int e = 0; e < epochs; ++e) {
    EpochProfile ep;
    ep.start_s = e * 3.2;
    ep.duration_s = 3.0;
    ep.files_read = files;
    ep.read_ops = files * chunks;
    ep.bytes_read = files * 1048576.0;
    ep.reads_per_file = 1;
    ep.steps = 25;
    p.epochs.push_back(ep);
  }
  p.bytes_read = epochs * files * 1048576.0;
  p.files_read = files;
  p.read_ops = epochs * files * chunks;
  p.opens = epochs * files;
  p.stats = epochs * files;
  for (int i = 0; i < epochs * files * chunks; ++i) p.request_sizes.push_back(262144);
  p.sequential_fraction = 1.0;
  p.order_vs_path = 0.02;
  p.epoch_order_similarity = -0.05;
  p.reads_per_file = 1;
  p.readers = 3;
  p.inflight = {{0, 1.0}, {1, 2.0}, {2, 1.5}, {3, 1.0}};
  p.duration_s = 6.2;
  for (int i = 0; i < 50; ++i) {
    double compute = 0.1 * jitter(rng);
    double wait = 0.02 * jitter(rng);
    p.compute_s.push_back(compute);
    p.data_wait_s.push_back(wait);
    p.step_times_s.push_back(compute + wait);
  }
  p.throughput_bin_s = 0.1;
  for (int i = 0; i < 62; ++i) {
    p.throughput_t_s.push_back(i * 0.1);
    p.throughput_mib_s.push_back(30 + 5 * std::sin(i));
  }
  p.au = 0.62;
  p.au_measured = true;
  p.accelerator_au = {0.62};
  p.checkpoints = 2;
  p.checkpoint_bytes = 8 << 20;
  p.checkpoint_start_s = {3.0, 6.2};
  p.checkpoint_write_s = {0.05, 0.06};
  p.bytes_written = 2 * (8 << 20);
  return p;
}

inline const MetricResult& metric(const Comparison& c, std::string_view name) {
  for (const auto& m : c.metrics)
    if (m.name == name) return m;
  ADD_FAILURE() << "no metric " << name;
  static MetricResult none;
  return none;
}

// Two validation passes of 20 files (1 MiB each, 3 steps of ~40 ms) after the baseline's epochs.
inline Profile with_eval(double eval_files = 20, double eval_step_s = 0.04) {
  Profile p = baseline();
  for (int e = 0; e < 2; ++e) {
    EpochProfile ep;
    ep.start_s = e * 3.2 + 3.0;
    ep.duration_s = 0.2;
    ep.files_read = eval_files;
    ep.read_ops = eval_files * 4;
    ep.bytes_read = eval_files * 1048576.0;
    ep.reads_per_file = 1;
    ep.steps = 3;
    p.eval_passes.push_back(ep);
    for (int i = 0; i < 3; ++i) p.eval_step_times_s.push_back(eval_step_s);
  }
  p.eval_files_read = eval_files;
  return p;
}

// The baseline with every host-time figure stretched by `f`: epochs, steps and compute, as a run
// on a busier host.
inline Profile stretched(double f, std::string label = "synthetic") {
  Profile p = baseline();
  p.label = std::move(label);
  for (auto& e : p.epochs) e.duration_s *= f;
  p.duration_s *= f;
  for (auto* v : {&p.step_times_s, &p.compute_s, &p.data_wait_s})
    for (double& x : *v) x *= f;
  return p;
}

}  // namespace dlgen::compare::profiles
