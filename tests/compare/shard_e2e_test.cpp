// Streamed shards end to end: a PyTorch IterableDataset reading tar shards with tarfile
// (WebDataset style: each DataLoader worker streams its own shards front to back through
// tarfile's 10 KiB records), captured, distilled, replayed under capture and compared. The
// syscalls show no sample boundaries, only batch handovers: the job must come out as
// read = "stream" with the right shards, epochs, steps and request sizes (not one "epoch" per
// shard), and the replay must read the same bytes in the same requests. Needs root (BPF).
#include <gtest/gtest.h>

#include <fstream>
#include "dlgen/core/json.hpp"

#include "compare_rows.hpp"
#include "dlgen/core/job_io.hpp"
#include "e2e_fixture.hpp"

namespace {

using dlgen::testing::Outcome;

// 12 shards of 24 samples (an image of 20-60 KB and a label each).
const char* kMakeShards = R"(import io, os, random, sys, tarfile
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = random.Random(1)
for s in range(12):
    with tarfile.open(os.path.join(out, "shard-%04d.tar" % s), "w") as tf:
        for i in range(24):
            for ext, n in (("jpg", rng.randint(20000, 60000)), ("cls", 2)):
                ti = tarfile.TarInfo("%04d_%04d.%s" % (s, i, ext))
                ti.size = n
                tf.addfile(ti, io.BytesIO(os.urandom(n)))
)";

// Each worker streams its share of the shards (reshuffled every epoch); batches of 8, 10 ms of
// compute a step, 2 epochs: 288 samples = 36 steps an epoch.
const char* kTrain = R"(import os, random, sys, tarfile, time
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info
d = sys.argv[1]
shards = sorted(os.path.join(d, f) for f in os.listdir(d))
class Shards(IterableDataset):
    epoch = 0
    def __iter__(self):
        wi = get_worker_info()
        order = list(shards)
        random.Random(self.epoch).shuffle(order)
        for p in order[wi.id::wi.num_workers]:
            with tarfile.open(p, "r|") as tf:
                sample = {}
                for m in tf:
                    sample[m.name.split(".")[1]] = tf.extractfile(m).read()
                    if len(sample) == 2:
                        x = torch.frombuffer(bytearray(sample["jpg"][:256]), dtype=torch.uint8)
                        yield x.float().mean(), int(sample["cls"][0])
                        sample = {}
ds = Shards()
for epoch in range(2):
    ds.epoch = epoch
    for x, y in DataLoader(ds, batch_size=8, num_workers=2):
        time.sleep(0.01)
)";

class ShardE2E : public dlgen::testing::SharedRun<ShardE2E> {
 protected:
  static void SetUpTestSuite() {
    make_dir("shard-e2e");
    std::ofstream(dir() / "make.py") << kMakeShards;
    std::ofstream(dir() / "train.py") << kTrain;
    Outcome m = run(DLGEN_PYTHON " make.py " + root() + "/shards");
    if (m.code != 0) return fail("make shards: " + m.out);
    if (!capture_and_distil("-o orig.h5 -- " DLGEN_PYTHON " train.py " + root() + "/shards"))
      return;
    Outcome r = dlgen("run job.toml --capture replay.h5");
    if (r.code != 0) return fail("replay: " + r.out);
    Outcome k = dlgen("compare orig.h5 replay.h5 --json");
    auto compared = dlgen::testing::parse_json(k.out);
    if (!compared) return fail("compare output is not JSON: " + k.out);
    compared_ = *compared;
  }

  static const nlohmann::json& metric(const std::string& name) {
    return dlgen::testing::compare_row(compared_, name);
  }

  static inline nlohmann::json compared_;
};

TEST_F(ShardE2E, DistilledAsStreamedShards) {
  auto job = dlgen::load_job(dir() / "job.toml");
  ASSERT_TRUE(job) << job.error().message;
  EXPECT_EQ(job->reader.read_unit, dlgen::ReadUnit::stream);
  EXPECT_EQ(job->dataset.num_files, 12u);
  EXPECT_EQ(job->run.epochs, 2u) << "one pass over the shards an epoch, not one per shard";
  EXPECT_EQ(job->reader.workers, 2u);
  // 36 batches an epoch over 12 shards: 3 batches' worth of samples a shard, a batch a step.
  EXPECT_EQ(job->dataset.samples_per_file, 3u);
  EXPECT_EQ(job->reader.batch_size, 1u);
  EXPECT_EQ(job->reader.request_size_bytes, 10240u) << "tarfile's 10 KiB records";
  EXPECT_EQ(job->reader.shuffle, dlgen::Shuffle::file);
}

TEST_F(ShardE2E, ReplayReadsTheShardsAsTheOriginalDid) {
  // Volume, order of access, steps, and timing at the 10% defaults (the workers' tar parsing and
  // the consumer's own cost per batch are in the job: reader.preprocess, compute.batch_overhead).
  for (const char* name :
       {"bytes_read", "files_read", "read_ops", "opens", "request_size", "request_size_emd",
        "epoch_bytes_read", "sequential_fraction", "reads_per_file", "readers", "epochs", "steps",
        "compute", "step_time", "epoch_time", "throughput"})
    EXPECT_EQ(metric(name)["verdict"], "PASS") << metric(name).dump();
  // Too few shards for an order statistic: not judged, said so.
  EXPECT_EQ(metric("order_vs_path")["verdict"], "SKIP");
  // And no row fails (duration, data_wait, AU, in-flight... at their defaults).
  for (const auto& m : compared_["metrics"]) EXPECT_NE(m["verdict"], "FAIL") << m.dump();
}

}  // namespace
