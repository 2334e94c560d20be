// MLPerf Storage's reference training workloads, as its DLIO configs give them, read through the
// same DLIO reader as a user's config: v2.0's (v1.0 figures; unet3d on b200 from v2.0) and v3.0's
// (mlcommons/storage configs/dlio/workload/*.yaml of the v3.0 round: unet3d_b200, retinanet_b200
// and retinanet_mi355 CLOSED, the others `whatif` only). docs/mlperf-v3.md, "Workloads".
#include <cstdint>
#include <cstdio>
#include <vector>

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

// v3.0 (configs/dlio/workload/unet3d_b200.yaml, mlcommons/storage 0d75b417): the v2.0 workload
// with 7,200 files and no checkpoint (workflow.checkpoint False; mlpstorage takes the workflow
// from the file). Its whatif unet3d_h100.yaml (7e73663b) is this at 0.323 s with 168 files (a
// count CLOSED may change); unet3d_a100.yaml (be18c3e5) is still v2.0's, checkpoint and all.
const char* kUnet3dV3 = R"(model:
  name: unet3d
  type: cnn
  model_size: 499153191
framework: pytorch
workflow:
  generate_data: False
  train: True
  checkpoint: False
dataset:
  data_folder: data/unet3d/
  format: npz
  num_files_train: 7200
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
  computation_time: 0.162
checkpoint:
  checkpoint_folder: checkpoints/unet3d
  checkpoint_after_epoch: 5
  epochs_between_checkpoints: 2
metric:
  au: 0.90
)";

// v3.0 (retinanet_b200.yaml 11460d00, retinanet_mi355.yaml 76f45459): 1,170,301 JPEGs of
// 322,957 B, 8 epochs, AU 0.85; b200 batch 24 at 0.04755 s, mi355 batch 32 at 0.0634 s.
const char* kRetinanet = R"(model:
  name: retinanet
  type: cnn
framework: pytorch
workflow:
  generate_data: False
  train: True
  checkpoint: False
dataset:
  data_folder: data/retinanet/
  format: jpeg
  num_files_train: 1170301
  num_samples_per_file: 1
  record_length_bytes: 322957
reader:
  data_loader: pytorch
  batch_size: 24
  read_threads: 8
  file_shuffle: seed
  sample_shuffle: seed
train:
  epochs: 8
  computation_time: 0.04755
metric:
  au: 0.85
)";

// v3.0's whatif retinanet (retinanet_h100.yaml fa240126, retinanet_a100.yaml c8d70b66): another
// dataset (1,743,042 JPEGs of 153,600 +- 51,200 B), batch 16, 5 epochs.
const char* kRetinanetWhatif = R"(model:
  name: retinanet
  type: cnn
framework: pytorch
workflow:
  generate_data: False
  train: True
  checkpoint: False
dataset:
  data_folder: data/retinanet/
  format: jpeg
  num_files_train: 1743042
  num_samples_per_file: 1
  record_length_bytes: 153600
  record_length_bytes_stdev: 51200
reader:
  data_loader: pytorch
  batch_size: 16
  read_threads: 8
  file_shuffle: seed
  sample_shuffle: seed
train:
  epochs: 5
  computation_time: 0.180
metric:
  au: 0.85
)";

struct Profile {
  Round round;
  const char* workload;
  const char* accelerator;
  const char* yaml;
  double compute_s;
  std::uint32_t batch_size;  // 0: the config's
  bool whatif;               // v3.0: runs only as `whatif` (not CLOSED or OPEN)
};
const Profile kProfiles[] = {
    {Round::v2_0, "unet3d", "a100", kUnet3d, 0.636, 0, false},
    {Round::v2_0, "unet3d", "h100", kUnet3d, 0.323, 0, false},
    {Round::v2_0, "unet3d", "b200", kUnet3d, 0.162, 0, false},
    {Round::v2_0, "resnet50", "a100", kResnet50, 0.435, 0, false},
    {Round::v2_0, "resnet50", "h100", kResnet50, 0.224, 0, false},
    {Round::v2_0, "cosmoflow", "a100", kCosmoflow, 0.00551, 0, false},
    {Round::v2_0, "cosmoflow", "h100", kCosmoflow, 0.00351, 0, false},
    // v3.0: mlpstorage's "v3.0 submittable combinations" are unet3d/b200, retinanet/b200 and
    // retinanet/mi355 (there is no unet3d_mi355.yaml); the rest are whatif only.
    {Round::v3_0, "unet3d", "b200", kUnet3dV3, 0.162, 0, false},
    {Round::v3_0, "retinanet", "b200", kRetinanet, 0.04755, 24, false},
    {Round::v3_0, "retinanet", "mi355", kRetinanet, 0.0634, 32, false},
    {Round::v3_0, "unet3d", "h100", kUnet3dV3, 0.323, 0, true},
    {Round::v3_0, "unet3d", "a100", kUnet3d, 0.636, 0, true},
    {Round::v3_0, "retinanet", "h100", kRetinanetWhatif, 0.180, 0, true},
    {Round::v3_0, "retinanet", "a100", kRetinanetWhatif, 0.210, 0, true},
};

}  // namespace

const char* to_string(Round r) {
  return r == Round::v3_0 ? "v3.0" : "v2.0";
}

std::vector<MlperfProfile> mlperf_profiles(Round round) {
  std::vector<MlperfProfile> out;
  for (const Profile& p : kProfiles)
    if (p.round == round) out.push_back({p.workload, p.accelerator, p.whatif});
  return out;
}

Result<Job> mlperf_reference(const std::string& workload, const std::string& accelerator,
                             Round round) {
  std::string known;
  for (const Profile& p : kProfiles) {
    if (p.round != round) continue;
    known += std::string(known.empty() ? "" : ", ") + p.workload + "/" + p.accelerator;
    if (workload != p.workload || accelerator != p.accelerator) continue;
    std::vector<std::string> sets;
    char set[64];
    std::snprintf(set, sizeof set, "train.computation_time=%.9g", p.compute_s);
    sets.emplace_back(set);
    if (p.batch_size > 0) sets.push_back("reader.batch_size=" + std::to_string(p.batch_size));
    Result<DlioJob> d = parse_dlio(
        p.yaml, std::string("reference ") + p.workload + "_" + p.accelerator + ".yaml", sets);
    if (!d) return d.error();
    // DLIO's readers fetch each record of a multi-record file (resnet50: 1251 TFRecord records
    // a file); read = "file" would read the whole ~140 MiB file for every record.
    if (d->job.dataset.samples_per_file > 1) d->job.reader.read_unit = ReadUnit::sample;
    return d->job;
  }
  return input_error("no MLPerf Storage " + std::string(to_string(round)) + " reference for " +
                     workload + " on " + accelerator + " (known: " + known + ")");
}

std::string mlperf_match_accelerator(const Job& job, Round round) {
  for (const Profile& p : kProfiles) {
    if (p.round != round || job.name != p.workload) continue;
    Result<Job> ref = mlperf_reference(p.workload, p.accelerator, round);
    if (ref && ref->compute.effective() == job.compute.effective() &&
        ref->reader.batch_size == job.reader.batch_size)
      return p.accelerator;
  }
  return "";
}

}  // namespace dlgen::mlperf
