// MLPerf Storage's reference training workloads, as its DLIO configs give them (v1.0 figures;
// unet3d on b200 from v2.0), read through the same DLIO reader as a user's config.
#include <cstdio>

#include "dlgen/dlio/config.hpp"
#include "dlgen/mlperf/mlperf.hpp"

namespace dlgen::mlperf {
namespace {

const char* kUnet3d = R"(model:
  name: unet3d
  type: cnn
  model_size: 499153191
framework: pytorch
workflow:
  generate_data: False
  train: True
  checkpoint: True
dataset:
  data_folder: data/unet3d/
  format: npz
  num_files_train: 168
  num_samples_per_file: 1
  record_length_bytes: 146600628
  record_length_bytes_stdev: 68341808
  record_length_bytes_resize: 2097152
reader:
  data_loader: pytorch
  batch_size: 7
  read_threads: 4
  file_shuffle: seed
  sample_shuffle: seed
train:
  epochs: 5
  computation_time: 0.323
checkpoint:
  checkpoint_folder: checkpoints/unet3d
  checkpoint_after_epoch: 5
  epochs_between_checkpoints: 2
metric:
  au: 0.90
)";

const char* kResnet50 = R"(model:
  name: resnet50
  type: cnn
framework: tensorflow
workflow:
  generate_data: False
  train: True
dataset:
  num_files_train: 1024
  num_samples_per_file: 1251
  record_length_bytes: 114660.07
  record_length_bytes_resize: 150528
  data_folder: data/resnet50
  format: tfrecord
train:
  computation_time: 0.224
  epochs: 5
reader:
  data_loader: tensorflow
  read_threads: 8
  computation_threads: 8
  batch_size: 400
metric:
  au: 0.90
)";

const char* kCosmoflow = R"(model:
  name: cosmoflow
  type: CNN
framework: tensorflow
workflow:
  generate_data: False
  train: True
dataset:
  data_folder: data/cosmoflow
  num_files_train: 524288
  num_samples_per_file: 1
  record_length_bytes: 2828486
  record_length_bytes_stdev: 71311
  format: tfrecord
reader:
  data_loader: tensorflow
  read_threads: 4
  batch_size: 1
  file_shuffle: seed
  sample_shuffle: seed
  shuffle_size: 2
train:
  epochs: 5
  computation_time: 0.00351
metric:
  au: 0.70
)";

struct Profile {
  const char* workload;
  const char* accelerator;
  const char* yaml;
  double compute_s;
};
const Profile kProfiles[] = {
    {"unet3d", "a100", kUnet3d, 0.636},         {"unet3d", "h100", kUnet3d, 0.323},
    {"unet3d", "b200", kUnet3d, 0.162},         {"resnet50", "a100", kResnet50, 0.435},
    {"resnet50", "h100", kResnet50, 0.224},     {"cosmoflow", "a100", kCosmoflow, 0.00551},
    {"cosmoflow", "h100", kCosmoflow, 0.00351},
};

}  // namespace

Result<Job> mlperf_reference(const std::string& workload, const std::string& accelerator) {
  std::string known;
  for (const Profile& p : kProfiles) {
    known += std::string(known.empty() ? "" : ", ") + p.workload + "/" + p.accelerator;
    if (workload != p.workload || accelerator != p.accelerator) continue;
    char set[64];
    std::snprintf(set, sizeof set, "train.computation_time=%.9g", p.compute_s);
    Result<DlioJob> d = parse_dlio(
        p.yaml, std::string("reference ") + p.workload + "_" + p.accelerator + ".yaml", {set});
    if (!d) return d.error();
    // DLIO's readers fetch each record of a multi-record file (resnet50: 1251 TFRecord records
    // a file); read = "file" would read the whole ~140 MiB file for every record.
    if (d->job.dataset.samples_per_file > 1) d->job.reader.read_unit = ReadUnit::sample;
    return d->job;
  }
  return input_error("no MLPerf Storage reference for " + workload + " on " + accelerator +
                     " (known: " + known + ")");
}

std::string mlperf_match_accelerator(const Job& job) {
  for (const Profile& p : kProfiles) {
    if (job.name != p.workload) continue;
    Result<Job> ref = mlperf_reference(p.workload, p.accelerator);
    if (ref && ref->compute.effective() == job.compute.effective() &&
        ref->reader.batch_size == job.reader.batch_size)
      return p.accelerator;
  }
  return "";
}

}  // namespace dlgen::mlperf
