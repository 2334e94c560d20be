// DLIO workload configs read into a Job: the MLPerf Storage-style configs in tests/data/dlio (our
// own copies; their keys and values are the published ones), Hydra-style overrides, every key
// mapped or refused with file:line, time distributions, and the converted TOML reading back to the
// same Job.
#include <gtest/gtest.h>

#include <string>

#include "dlgen/core/job_io.hpp"
#include "dlgen/core/limits.hpp"
#include "dlgen/dlio/config.hpp"

namespace dlgen {
namespace {

const std::filesystem::path kDir = std::filesystem::path(DLGEN_SOURCE_DIR) / "tests/data/dlio";

Job must_load(const std::string& name, const std::vector<std::string>& overrides = {}) {
  Result<DlioJob> d = load_dlio(kDir / name, overrides);
  EXPECT_TRUE(d) << (d ? "" : d.error().message);
  return d ? d->job : Job{};
}

std::string error_of(std::string_view yaml, const std::vector<std::string>& overrides = {}) {
  Result<DlioJob> d = parse_dlio(yaml, "w.yaml", overrides);
  EXPECT_FALSE(d) << "expected an error";
  return d ? "" : d.error().message;
}

TEST(Dlio, Unet3dH100MapsEveryKey) {
  const Job j = must_load("unet3d_h100.yaml");
  EXPECT_EQ(j.name, "unet3d");
  EXPECT_EQ(j.dataset.dir, std::filesystem::path("data/unet3d/train"));
  EXPECT_EQ(j.dataset.format, Format::npz);
  EXPECT_EQ(j.dataset.num_files, 168u);
  EXPECT_EQ(j.dataset.samples_per_file, 1u);
  EXPECT_EQ(j.dataset.sample_size.kind, DistKind::normal);
  EXPECT_EQ(j.dataset.sample_size.mean, 146600628);
  EXPECT_EQ(j.dataset.sample_size.stdev, 68341808);
  EXPECT_EQ(j.reader.batch_size, 7u);
  EXPECT_EQ(j.reader.workers, 4u);
  EXPECT_EQ(j.reader.shuffle, Shuffle::sample);
  EXPECT_EQ(j.run.epochs, 5u);
  EXPECT_EQ(j.compute.step_time, Distribution::fixed_at(0.323));
  EXPECT_DOUBLE_EQ(j.compute.au_threshold, 0.90);
  // model.model_size sets the checkpoint size; after epoch 5, then every 2: with 5 epochs, one.
  EXPECT_TRUE(j.checkpoint.enabled);
  EXPECT_EQ(j.checkpoint.size_bytes, 499153191u);
  EXPECT_EQ(j.checkpoint.dir, std::filesystem::path("checkpoints/unet3d"));
  EXPECT_FALSE(j.checkpoint.fsync);  // DLIO's default; `checkpoint.fsync: True` turns it on
  for (std::uint32_t e = 1; e <= 4; ++e) EXPECT_FALSE(j.checkpoint.after_epoch(e)) << e;
  EXPECT_TRUE(j.checkpoint.after_epoch(5));
  EXPECT_FALSE(j.checkpoint.after_epoch(6));
  EXPECT_TRUE(j.checkpoint.after_epoch(7));
  EXPECT_EQ(must_load("unet3d_a100.yaml").compute.step_time, Distribution::fixed_at(0.636));
}

TEST(Dlio, Resnet50AndCosmoflow) {
  const Job r = must_load("resnet50_h100.yaml");
  EXPECT_EQ(r.dataset.format, Format::tfrecord);
  EXPECT_EQ(r.dataset.num_files, 1024u);
  EXPECT_EQ(r.dataset.samples_per_file, 1251u);
  EXPECT_EQ(r.dataset.sample_size, Distribution::fixed_at(114660));  // 114660.07 bytes, rounded
  EXPECT_EQ(r.reader.batch_size, 400u);
  EXPECT_EQ(r.reader.workers, 8u);
  EXPECT_EQ(r.reader.shuffle, Shuffle::none);  // DLIO's default: no shuffle
  EXPECT_FALSE(r.checkpoint.enabled);
  EXPECT_EQ(must_load("resnet50_a100.yaml").compute.step_time, Distribution::fixed_at(0.435));
  const Job c = must_load("cosmoflow_h100.yaml");
  EXPECT_EQ(c.dataset.num_files, 524288u);
  EXPECT_EQ(c.reader.batch_size, 1u);
  EXPECT_EQ(c.reader.shuffle_buffer, 2u);
  EXPECT_DOUBLE_EQ(c.compute.au_threshold, 0.70);
  EXPECT_EQ(c.compute.step_time, Distribution::fixed_at(0.00351));
  EXPECT_EQ(must_load("cosmoflow_a100.yaml").compute.step_time, Distribution::fixed_at(0.00551));
}

TEST(Dlio, HydraOverridesInBothForms) {
  const Job j = must_load("unet3d_h100.yaml", {"++workload.dataset.num_files_train=64",
                                               "workload.reader.read_threads=8",
                                               "+workload.train.epochs=2", "~workload.checkpoint"});
  EXPECT_EQ(j.dataset.num_files, 64u);
  EXPECT_EQ(j.reader.workers, 8u);
  EXPECT_EQ(j.run.epochs, 2u);
  EXPECT_EQ(j.checkpoint.first_epoch,
            1u);  // the checkpoint section is gone; workflow.checkpoint stays
  EXPECT_TRUE(j.checkpoint.enabled);
  EXPECT_EQ(j.checkpoint.every_epochs, 1u);  // DLIO's defaults
  // An override that makes the job invalid is named in the error.
  const std::string e = error_of("reader:\n  batch_size: 4\n", {"++workload.reader.batch_size=0"});
  EXPECT_NE(e.find("override '++workload.reader.batch_size=0'"), std::string::npos) << e;
  EXPECT_NE(e.find("must be >= 1"), std::string::npos) << e;
  EXPECT_TRUE(is_hydra_override("++workload.a.b=1"));
  EXPECT_TRUE(is_hydra_override("workload.a.b=1"));
  EXPECT_TRUE(is_hydra_override("~workload.a"));
  EXPECT_FALSE(is_hydra_override("--set"));
  EXPECT_FALSE(is_hydra_override("job.toml"));
  EXPECT_FALSE(is_hydra_override("=1"));
}

TEST(Dlio, UnknownAndUnsupportedKeysAreRefusedWithFileAndLine) {
  std::string e = error_of("dataset:\n  num_files_train: 4\n  num_file_eval: 2\n");
  EXPECT_NE(e.find("w.yaml:3: dataset.num_file_eval: not a DLIO key"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'dataset.num_files_eval'"), std::string::npos) << e;
  e = error_of("model:\n  name: x\n  parallelism:\n    tensor: 8\nworkflow:\n  checkpoint: True\n");
  EXPECT_NE(e.find("w.yaml:4: model.parallelism.tensor: an LLM description needs model.num_layers"),
            std::string::npos)
      << e;
  e = error_of("train:\n  computation_time:\n    type: poisson\n    lam: 2\n");
  EXPECT_NE(e.find("w.yaml:2: train.computation_time"), std::string::npos) << e;
  e = error_of("dataset:\n  format: png\n");
  EXPECT_NE(e.find("w.yaml:2: dataset.format"), std::string::npos) << e;
  e = error_of("reader:\n  batch_size: many\n");
  EXPECT_NE(e.find("w.yaml:2: reader.batch_size: must be a number"), std::string::npos) << e;
  e = error_of("reader: [1, 2\n");
  EXPECT_NE(e.find("w.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("not valid YAML"), std::string::npos) << e;
  // Every problem at once.
  e = error_of("reader:\n  batch_size: 0\n  read_threads: -1\n");
  EXPECT_NE(e.find("w.yaml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("w.yaml:3:"), std::string::npos) << e;
  // Evaluation steps have their own compute time (DLIO's eval_time, default 0).
  Result<DlioJob> ev = parse_dlio(
      "workflow:\n  evaluation: True\ndataset:\n  num_files_eval: 4\ntrain:\n  computation_time: "
      "0.1\nevaluation:\n  eval_time: 0.05\n",
      "w.yaml");
  ASSERT_TRUE(ev) << ev.error().message;
  EXPECT_EQ(ev->job.compute.effective(true), Distribution::fixed_at(0.05));
  EXPECT_EQ(ev->job.compute.effective(false), Distribution::fixed_at(0.1));
}

TEST(Dlio, TimeDistributions) {
  auto t = [](const std::string& body) {
    Result<DlioJob> d = parse_dlio("train:\n  computation_time:\n" + body, "t.yaml");
    EXPECT_TRUE(d) << (d ? "" : d.error().message);
    return d ? d->job.compute.step_time : Distribution{};
  };
  Distribution n = t("    mean: 0.2\n    stdev: 0.01\n");
  EXPECT_EQ(n.kind, DistKind::normal);
  EXPECT_DOUBLE_EQ(n.mean, 0.2);
  EXPECT_DOUBLE_EQ(n.stdev, 0.01);
  Distribution u = t("    type: uniform\n    min: 0.1\n    max: 0.3\n");
  EXPECT_EQ(u.kind, DistKind::uniform);
  EXPECT_DOUBLE_EQ(u.min, 0.1);
  EXPECT_DOUBLE_EQ(u.max, 0.3);
  Distribution g =
      t("    type: gamma\n    shape: 4\n    scale: 0.05\n");  // mean k*theta, stdev sqrt(k)*theta
  EXPECT_EQ(g.kind, DistKind::gamma);
  EXPECT_DOUBLE_EQ(g.mean, 0.2);
  EXPECT_DOUBLE_EQ(g.stdev, 0.1);
  Distribution x = t("    type: exponential\n    scale: 0.3\n");
  EXPECT_EQ(x.kind, DistKind::gamma);
  EXPECT_DOUBLE_EQ(x.mean, 0.3);
  EXPECT_DOUBLE_EQ(x.stdev, 0.3);
  Result<DlioJob> s =
      parse_dlio("train:\n  computation_time: 0.2\n  computation_time_stdev: 0.02\n", "s.yaml");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->job.compute.step_time.kind, DistKind::normal);
  EXPECT_DOUBLE_EQ(s->job.compute.step_time.stdev, 0.02);
}

TEST(Dlio, ConvertedTomlReadsBackToTheSameJob) {
  for (const char* name : {"unet3d_h100.yaml", "resnet50_h100.yaml", "cosmoflow_h100.yaml"}) {
    Result<DlioJob> d = load_dlio(kDir / name);
    ASSERT_TRUE(d) << d.error().message;
    Result<Job> back = parse_job(to_toml(d->job, d->comments), "converted.toml");
    ASSERT_TRUE(back) << back.error().message;
    Job a = d->job, b = *back;
    a.source.clear();
    b.source.clear();
    EXPECT_EQ(a, b) << name << "\n" << to_toml(a) << "\n---\n" << to_toml(b);
  }
}

TEST(Dlio, EvaluationAndSubfolders) {
  Result<DlioJob> d = parse_dlio(
      "workflow:\n  evaluation: True\ndataset:\n  data_folder: /d\n  num_files_train: 100\n  "
      "num_files_eval: 10\n"
      "  num_subfolders_train: 4\n  num_subfolders_eval: 2\nevaluation:\n  epochs_between_evals: "
      "2\n",
      "e.yaml");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->job.dataset.dir, std::filesystem::path("/d/train"));
  EXPECT_EQ(d->job.dataset.files_per_dir, 25u);
  ASSERT_TRUE(d->job.validation);
  EXPECT_EQ(d->job.validation->dir, std::filesystem::path("/d/valid"));
  EXPECT_EQ(d->job.validation->num_files, 10u);
  EXPECT_EQ(d->job.validation->files_per_dir, 5u);
  EXPECT_EQ(d->job.run.eval_every_epochs, 2u);
  EXPECT_EQ(d->job.compute.effective(true), Distribution::fixed_at(0));  // DLIO's default eval_time
  // compute.eval_time round-trips through TOML.
  Result<Job> back = parse_job(to_toml(d->job), "e.toml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->compute.eval_time, d->job.compute.eval_time);
}

// dlgen convert --to dlio: a job written as a DLIO config reads back as the same job; what DLIO
// cannot express is refused with the key and the reason.
TEST(Dlio, JobsWriteBackAsDlioConfigs) {
  for (const char* name : {"unet3d_h100.yaml", "resnet50_h100.yaml", "cosmoflow_a100.yaml"}) {
    Result<DlioJob> d = load_dlio(kDir / name);
    ASSERT_TRUE(d) << d.error().message;
    Result<std::string> yaml = to_dlio_yaml(d->job);
    ASSERT_TRUE(yaml) << yaml.error().message;
    Result<DlioJob> back = parse_dlio(*yaml, name);
    ASSERT_TRUE(back) << back.error().message << "\n" << *yaml;
    Job a = d->job, b = back->job;
    a.source.clear();
    b.source.clear();
    b.description = a.description;
    // dlgen writes file_shuffle with sample_shuffle; reading them back gives the same shuffle.
    EXPECT_EQ(a, b) << name << "\n" << *yaml;
  }
  Job j = must_load("unet3d_h100.yaml");
  j.reader.probe_bytes = 4096;
  j.reader.warmup_s = 0.1;
  j.dataset.format = Format::raw;
  j.compute.batch_overhead = Distribution::fixed_at(0.002);
  j.run.sync_steps = true;
  j.reader.startup_spread = Distribution::fixed_at(0.1);
  j.checkpoint.enabled = true;
  j.checkpoint.every_epochs = 1;
  j.checkpoint.copy = CopyCall::sendfile;
  j.checkpoint.final_size_bytes = 1000;
  j.reader.shuffle = Shuffle::sample;
  j.reader.shuffle_block = 40;
  j.reader.batch_sizes.kind = DistKind::uniform;  // batches of 2 to 6 samples
  j.reader.batch_sizes.min = 2;
  j.reader.batch_sizes.max = 6;
  j.dataset.sample_end = 2;  // training and validation as ranges of one file's samples
  Result<std::string> bad = to_dlio_yaml(j);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("reader.header_read/probe/readahead"), std::string::npos)
      << bad.error().message;
  EXPECT_NE(bad.error().message.find("reader.startup/warmup"), std::string::npos);
  EXPECT_NE(bad.error().message.find("dataset.format"), std::string::npos);
  EXPECT_NE(bad.error().message.find("compute.batch_overhead"), std::string::npos);
  EXPECT_NE(bad.error().message.find("run.sync_steps"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("reader.startup_spread"), std::string::npos);
  EXPECT_NE(bad.error().message.find("checkpoint.direct/copy"), std::string::npos);
  EXPECT_NE(bad.error().message.find("checkpoint.final_size"), std::string::npos)
      << bad.error().message;
  EXPECT_NE(bad.error().message.find("reader.shuffle_block"), std::string::npos)
      << bad.error().message;
  EXPECT_NE(bad.error().message.find("dataset.sample_range"), std::string::npos);
  EXPECT_NE(bad.error().message.find("reader.batch_size: DLIO's batches"), std::string::npos)
      << bad.error().message;
}

}  // namespace
}  // namespace dlgen

namespace dlgen {
namespace {

// MLPerf Storage v3.0's Parquet workloads (configs/dlio/workload/flux_b200.yaml, dlrm_b200.yaml).
TEST(DlioParquet, FluxAndDlrmMapTheirColumnsAndRowGroups) {
  const Job flux = must_load("flux_b200.yaml");
  EXPECT_EQ(flux.dataset.format, Format::parquet);
  EXPECT_EQ(flux.dataset.num_files, 4296u);
  EXPECT_EQ(flux.dataset.samples_per_file, 256u);
  ASSERT_EQ(flux.dataset.parquet.columns.size(), 5u);
  EXPECT_EQ(flux.dataset.parquet.columns[0].name, "t5_encodings");
  EXPECT_EQ(flux.dataset.parquet.columns[0].size, 524328u);
  EXPECT_EQ(flux.dataset.sample_size, Distribution::fixed_at(2164832));  // = record_length
  EXPECT_EQ(flux.dataset.parquet.row_group_size, 256u);  // pyarrow's default, all the rows
  EXPECT_EQ(flux.reader.read_unit, ReadUnit::row_group);
  EXPECT_EQ(flux.reader.batch_size, 64u);
  EXPECT_EQ(flux.reader.workers, 8u);
  EXPECT_EQ(flux.compute.step_time, Distribution::fixed_at(1.8));

  // At full size: 4 Gi rows, planned by arithmetic (row-group reads in file order), so the plan
  // needs under a MiB and every limit passes on a 4 GiB host (issue 20).
  Result<DlioJob> d = load_dlio(kDir.parent_path() / "dlio-parquet/dlrm_b200.yaml", {});
  ASSERT_TRUE(d) << d.error().message;
  const Job dlrm = d->job;
  EXPECT_EQ(dlrm.dataset.samples_per_file, 4194304u);
  EXPECT_EQ(dlrm.dataset.num_files, 1024u);
  EXPECT_TRUE(limits::plans_by_arithmetic(dlrm.dataset, dlrm.reader));
  EXPECT_TRUE(limits::check_limits(dlrm, 4ull << 30).empty());
  ASSERT_TRUE(limits::plan_memory_bytes(dlrm));
  EXPECT_LT(*limits::plan_memory_bytes(dlrm), 1u << 20);
  EXPECT_EQ(dlrm.dataset.sample_size, Distribution::fixed_at(160));
  EXPECT_EQ(dlrm.dataset.parquet.row_group_size, 8192u);
  EXPECT_EQ(dlrm.dataset.parquet.compression, ParquetCompression::none);
  EXPECT_TRUE(dlrm.dataset.parquet.read_columns.empty());
  EXPECT_EQ(dlrm.reader.read_unit, ReadUnit::row_group);
  EXPECT_EQ(dlrm.reader.batch_size, 16384u);
  // The converted TOML reads back to the same Job.
  for (const Job& j : {flux, dlrm}) {
    Result<Job> back = parse_job(to_toml(j), "back.toml");
    ASSERT_TRUE(back) << back.error().message << "\n" << to_toml(j);
    EXPECT_EQ(back->dataset, j.dataset);
    EXPECT_EQ(back->reader, j.reader);
  }
}

constexpr std::string_view kParquetHead =
    "dataset:\n  format: parquet\n  num_files_train: 2\n  num_samples_per_file: 100\n";

TEST(DlioParquet, ReadFalseColumnsAreWrittenNotRead) {
  const std::string yaml = std::string(kParquetHead) +
                           "  compression: zstd\n"
                           "  record_length_bytes: 761\n"
                           "  parquet:\n    row_group_size: 30\n    columns:\n"
                           "      - {name: a, dtype: float16, read: false}\n"
                           "      - {name: b, dtype: int8}\n"
                           "      - {name: c, dtype: float64, size: 4, read: true}\n";
  Result<DlioJob> d = parse_dlio(yaml, "w.yaml", {});
  ASSERT_TRUE(d) << d.error().message;
  const ParquetSpec& q = d->job.dataset.parquet;
  ASSERT_EQ(q.columns.size(), 3u);
  EXPECT_EQ(q.columns[0].size, 1u);  // size defaults to one value
  EXPECT_EQ(q.read_columns, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(q.compression, ParquetCompression::zstd);
  EXPECT_EQ(q.row_group_size, 30u);
  // The columns' 2 + 1 + 32 bytes win over record_length_bytes, with a note.
  EXPECT_EQ(d->job.dataset.sample_size, Distribution::fixed_at(35));
  bool noted = false;
  for (const auto& n : d->notes) noted = noted || n.find("761") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(DlioParquet, UnsupportedParquetKeysAreRefusedWithTheirLine) {
  EXPECT_NE(error_of(std::string(kParquetHead) + "  compression: gzip\n").find("gzip"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kParquetHead) + "  parquet:\n    partition_by: day\n")
                .find("w.yaml:6: dataset.parquet.partition_by"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kParquetHead) +
                     "  parquet:\n    columns:\n      - {name: s, dtype: string}\n")
                .find("dtype \"string\""),
            std::string::npos);
  EXPECT_NE(error_of("dataset:\n  format: npz\n  parquet:\n    row_group_size: 4\n")
                .find("applies to dataset.format parquet only"),
            std::string::npos);
}

}  // namespace
}  // namespace dlgen
