// handovers_at_index_reads (analysis/src/stages/index_queue.cpp): a DataLoader worker whose
// batches its queue's feeder thread shares into /dev/shm while the worker already reads the next.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "stages/stages.hpp"

namespace dlgen::analysis::stages {
namespace {

using Times = std::vector<std::uint64_t>;

// Index reads at 0, 10, 20; four samples a batch; the feeder shares each batch's two tensors
// (data, label) after the worker took its next indices and read a sample of the next batch.
TEST(IndexQueue, LateSharedTensorsEndTheirBatchAtTheNextIndexRead) {
  const Times accesses = {1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 24};
  const Times index_reads = {0, 10, 20, 40};
  const Times late = {11, 12, 21, 22, 30, 31};
  EXPECT_EQ(handovers_at_index_reads(accesses, index_reads, late), (Times{10, 10, 20, 20, 30, 30}));
}

// A feeder that keeps up shares each batch before the worker asks for the next: unchanged but for
// the label tensor, which joins its batch's data tensor.
TEST(IndexQueue, OnTimeSharedTensorsStay) {
  const Times accesses = {1, 2, 3, 4, 11, 12, 13, 14};
  const Times index_reads = {0, 10, 20};
  EXPECT_EQ(handovers_at_index_reads(accesses, index_reads, {5, 6, 15, 16}), (Times{5, 5, 15, 15}));
}

// Handovers that do not pair with the batches (a count that is not k a batch, or one before its
// batch's last sample) are left as they are.
TEST(IndexQueue, HandoversThatDoNotPairUpAreLeftAlone) {
  const Times accesses = {1, 2, 3, 4, 11, 12, 13, 14};
  const Times index_reads = {0, 10, 20};
  EXPECT_EQ(handovers_at_index_reads(accesses, index_reads, {5, 6, 15}), (Times{5, 6, 15}));
  EXPECT_EQ(handovers_at_index_reads(accesses, index_reads, {3, 15}), (Times{3, 15}));
  EXPECT_EQ(handovers_at_index_reads(accesses, {}, {5, 15}), (Times{5, 15}));
}

}  // namespace
}  // namespace dlgen::analysis::stages
