// checkpoint.serialize (stages/checkpoints.cpp, distil/checkpoint.cpp) on Sim traces: the time a
// checkpoint's writer spends outside its write calls, from the file's open to its last write, is
// the saving program's serializing (torch.save pickling, GPU tensors copied to the host between
// its writes); an fsync after the last write is not in it.
#include <gtest/gtest.h>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "sim.hpp"

namespace dlgen::analysis {
namespace {

using testing::Sim;
using testing::SimConfig;

TraceSummary summary_of(const SimConfig& c) {
  Sim sim(c);
  return summarize(sim.build());
}

SimConfig saves_every_epoch(std::uint64_t gap_ns) {
  SimConfig c;
  c.epochs = 3;
  c.ckpt_every_epochs = 1;
  c.ckpt_gap_ns = gap_ns;  // 8 writes of 1 MiB, 0.3 ms each: 7 gaps between them
  return c;
}

// 5 ms between each of 8 writes, 20 us from the open to the first: 35.02 ms a checkpoint.
TEST(CheckpointSerialize, TimeBetweenWritesOutsideTheCallsIsSerializing) {
  const TraceSummary s = summary_of(saves_every_epoch(5000000));
  ASSERT_EQ(s.checkpoints.size(), 3u);
  for (const auto& c : s.checkpoints) EXPECT_EQ(c.serialize_ns, 20000u + 7u * 5000000u);
  const Distilled d = distil(s);
  EXPECT_NEAR(d.job.checkpoint.serialize_s, 0.03502, 1e-9);
  EXPECT_NE(d.comments.at("checkpoint.serialize").find("outside its write calls"),
            std::string::npos);
  EXPECT_TRUE(validate(d.job).empty());
}

// Writes back to back (10 us apart): 90 us, under a millisecond, so no serialize is written.
TEST(CheckpointSerialize, WritesBackToBackSerializeNothing) {
  const TraceSummary s = summary_of(saves_every_epoch(10000));
  ASSERT_EQ(s.checkpoints.size(), 3u);
  EXPECT_EQ(s.checkpoints[0].serialize_ns, 20000u + 7u * 10000u);
  const Distilled d = distil(s);
  EXPECT_EQ(d.job.checkpoint.serialize_s, 0);
  EXPECT_EQ(d.comments.count("checkpoint.serialize"), 0u);
}

}  // namespace
}  // namespace dlgen::analysis
