#pragma once
// The job of the replay's laws (tests/replay/metrics_test.cpp) and of the find-max search's tests
// (tests/mlperf/find_max_test.cpp): fixed 4 KiB samples, a 0.1 s step, AU threshold 0.9, on a
// dataset that is never read (the tests run on the null engine or a storage model).
#include <cstdint>

#include "dlgen/core/job.hpp"

namespace dlgen::testing {

struct Shape {
  std::uint32_t accelerators, workers, files, batch, epochs;
  bool eval, checkpoint_after_first_step;
  double startup_s, preprocess_s;
};

inline Job shape_job(const Shape& s) {
  Job job;
  job.name = "law";
  job.dataset.dir = "/nonexistent/law";
  job.dataset.format = Format::raw;
  job.dataset.num_files = s.files;
  job.dataset.sample_size = Distribution::fixed_at(4096);
  job.reader.batch_size = s.batch;
  job.reader.workers = s.workers;
  job.reader.prefetch = 2;
  job.reader.iodepth = 2;
  job.reader.shuffle = Shuffle::file;
  job.reader.drop_last = true;
  job.reader.startup_s = s.startup_s;
  if (s.preprocess_s > 0) job.reader.preprocess = Distribution::fixed_at(s.preprocess_s);
  job.compute.step_time = Distribution::fixed_at(0.1);
  job.compute.au_threshold = 0.9;
  job.run.accelerators = s.accelerators;
  job.run.epochs = s.epochs;
  if (s.eval) {
    DatasetSpec v = job.dataset;
    v.dir = "/nonexistent/law-eval";
    v.num_files = s.files;  // whole batches: the law below counts samples / batch as steps
    job.validation = v;
    job.run.eval_every_epochs = 1;
  }
  if (s.checkpoint_after_first_step) {
    job.checkpoint.enabled = true;
    job.checkpoint.every_steps = 1;
    job.checkpoint.size_bytes = 1;
    job.checkpoint.files = 1;
  }
  return job;
}

}  // namespace dlgen::testing
