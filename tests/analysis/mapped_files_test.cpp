// The memory-mapped dataset pre-pass (analysis/src/mapped_files.hpp) on hand-built traces: which
// files' faults become reads, and which pages count (once per epoch, as the program copied them).
#include "prepass/mapped_files.hpp"

#include <gtest/gtest.h>

#include "dlgen/analysis/summary.hpp"
#include "trace_builder.hpp"

namespace dlgen::analysis {
namespace {

using trace::Op;

constexpr std::uint32_t kMapShared = 0x01, kMapPrivate = 0x02;
constexpr std::uint64_t kProtRead = 0x1, kProtExec = 0x4;
constexpr std::uint64_t kWindow = 65536;

class Mapped : public testing::TraceBuilder {
 public:
  Mapped() {
    proc(100, 1, "python3", false, 100);
    proc(101, 100, "pt_data_worker", false, 101);
    proc(102, 100, "pt_data_worker", false, 102);
  }
  std::uint32_t add(const std::string& path) { return file(path, 32 << 20); }
  void map(std::uint32_t pid, std::uint32_t f, std::int32_t fd, std::uint32_t flags,
           std::uint64_t prot) {
    ev(now_, 1000, pid, pid, Op::mmap, f, fd, 0, 32 << 20, 0x7f0000000000, flags);
    t_.events.back().arg = prot;
    now_ += 2000;
  }
  void fault(std::uint32_t pid, std::uint32_t f, std::uint64_t off, std::uint64_t size,
             std::uint32_t around = 1) {
    ev(now_, 0, pid, pid, Op::fault, f, -1, off, size, static_cast<std::int64_t>(size), around);
    now_ += 1000;
  }
  void end(std::uint32_t pid) {
    for (auto& p : t_.processes)
      if (p.pid == pid) p.end_ns = now_++;
  }
  void spawn(std::uint32_t pid) {
    proc(pid, 100, "pt_data_worker", false, pid);
    now_ += 1000;
  }
  const trace::Trace& get() const { return t_; }
  std::uint64_t now() { return now_++; }
  using testing::TraceBuilder::ev;
};

std::vector<trace::Event> with_op(const trace::Trace& t, Op op) {
  std::vector<trace::Event> out;
  for (const auto& e : t.events)
    if (e.op == op) out.push_back(e);
  return out;
}

TEST(MappedFiles, FaultsOfASharedDataMappingBecomeReadsOncePerLiveProcessTree) {
  Mapped b;
  const auto data = b.add("/data/big.npy");
  b.ev(b.now(), 1000, 101, 101, Op::open, data, -1, 0, 0, 7);  // np.load: open, read the header
  b.ev(b.now(), 1000, 101, 101, Op::read, data, 7, 0, 4096, 4096);
  b.map(101, data, 7, kMapShared, kProtRead);
  b.map(102, data, 9, kMapShared, kProtRead);
  b.fault(101, data, 4096, 4096, 0);       // a miss: one page brought in
  b.fault(101, data, 0, kWindow);          // the window around it, from the page cache
  b.fault(102, data, 0, kWindow);          // worker 102 maps the same window: already read
  b.fault(102, data, 0, 2 * kWindow + 8);  // three windows, two of them new
  b.end(101);
  b.end(102);
  b.spawn(103);  // the next epoch's worker maps it again: read again
  b.fault(103, data, 0, kWindow);
  std::vector<MappedFile> found;
  const auto out = faults_as_reads(b.get(), found);
  ASSERT_TRUE(out);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].file, data);
  EXPECT_EQ(found[0].faults, 5u);
  EXPECT_EQ(found[0].window, kWindow);
  EXPECT_TRUE(with_op(*out, Op::fault).empty());
  const auto reads = with_op(*out, Op::pread);
  ASSERT_EQ(reads.size(), 4u);
  // The first touch of window 0 is the read of the whole window, by the process that made it.
  EXPECT_EQ(reads[0].pid, 101u);
  EXPECT_EQ(reads[0].offset, 0u);
  EXPECT_EQ(reads[0].size, kWindow);
  EXPECT_EQ(reads[0].ret, static_cast<std::int64_t>(kWindow));
  EXPECT_EQ(reads[0].fd, 7) << "the fd the file was first mapped through";
  EXPECT_EQ(reads[1].pid, 102u);
  EXPECT_EQ(reads[1].offset, kWindow);
  EXPECT_EQ(reads[2].pid, 102u);
  EXPECT_EQ(reads[2].offset, 2 * kWindow);
  EXPECT_EQ(reads[3].pid, 103u);
  EXPECT_EQ(reads[3].offset, 0u);
  EXPECT_EQ(found[0].reads, 4u);
  EXPECT_EQ(found[0].bytes, 4 * kWindow);
  EXPECT_EQ(found[0].header_reads, 1u);
  EXPECT_TRUE(with_op(*out, Op::read).empty()) << "the header read is not a sample's";
  EXPECT_TRUE(with_op(*out, Op::open).empty()) << "nor is np.load's open";
  EXPECT_EQ(with_op(*out, Op::mmap).size(), 2u);
}

// Pages cached in 2 MiB folios are mapped without a filemap tracepoint: when the faults show less
// of the file than one read of it, summarize says what is missing instead of guessing.
TEST(MappedFiles, FaultsShowingLessThanTheFileAreNoted) {
  Mapped b;
  const auto data = b.add("/data/big.npy");
  b.map(101, data, 7, kMapShared, kProtRead);
  b.fault(101, data, 0, kWindow);
  b.fault(101, data, 16 * kWindow, kWindow);
  const TraceSummary s = summarize(b.get());
  bool noted = false;
  for (const auto& n : s.notes)
    noted |= n.find(
                 "/data/big.npy: page faults on the memory-mapped file showed 131072 of its "
                 "33554432 bytes") != std::string::npos;
  EXPECT_TRUE(noted);
}

// LMDB's "ImageNet as LMDB" Dataset: the main process opens the environment only to read its
// `__len__` key (the meta window and a leaf) and closes it before the workers start. Those faults
// are a look-up, not sample reads: dropped, so the workers read those windows like any other
// (kept, the main process owned them for the whole run, and they became a validation set).
TEST(MappedFiles, AMainProcessLookUpBeforeTheWorkersIsNotARead) {
  Mapped b;
  const auto data = b.add("/data/train.lmdb/data.mdb");
  b.map(100, data, 3, kMapShared, kProtRead);
  b.fault(100, data, 0, kWindow);             // meta pages
  b.fault(100, data, 40 * kWindow, kWindow);  // the leaf holding __len__
  b.ev(b.now(), 1000, 100, 100, Op::munmap, data, -1, 0, 32 << 20, 0);
  b.map(101, data, 5, kMapShared, kProtRead);
  b.map(102, data, 5, kMapShared, kProtRead);
  for (std::uint64_t w = 0; w < 256; ++w) b.fault(w % 2 ? 102 : 101, data, w * kWindow, kWindow);
  std::vector<MappedFile> found;
  const auto out = faults_as_reads(b.get(), found);
  ASSERT_TRUE(out);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].lookup_faults, 2u);
  const auto reads = with_op(*out, Op::pread);
  ASSERT_EQ(reads.size(), 256u) << "every window read once, by a worker";
  for (const auto& r : reads) EXPECT_NE(r.pid, 100u);
  EXPECT_EQ(reads[0].offset, 0u);
  EXPECT_EQ(reads[40].offset, 40 * kWindow);
}

// A lone reader (num_workers=0) faulting a little first is no look-up: nobody else read the file.
TEST(MappedFiles, ALoneReaderIsNeverALookUp) {
  Mapped b;
  const auto data = b.add("/data/train.lmdb/data.mdb");
  b.map(100, data, 3, kMapShared, kProtRead);
  b.fault(100, data, 0, kWindow);
  std::vector<MappedFile> found;
  const auto out = faults_as_reads(b.get(), found);
  ASSERT_TRUE(out);
  EXPECT_EQ(found[0].lookup_faults, 0u);
  EXPECT_EQ(with_op(*out, Op::pread).size(), 1u);
}

TEST(MappedFiles, LibrariesTensorsAndPrivateMappingsKeepTheirFaults) {
  Mapped b;
  const auto lib = b.add("/usr/lib/libtorch_cpu.so");
  const auto locale = b.add("/usr/lib/locale/locale-archive");
  const auto shm = b.add("/dev/shm/torch_1_2");
  b.map(100, lib, 3, kMapPrivate, kProtRead | kProtExec);
  b.map(100, locale, 4, kMapPrivate, kProtRead);
  b.map(101, shm, 5, kMapShared, kProtRead | 0x2);
  b.fault(100, lib, 0, kWindow);
  b.fault(100, locale, 0, kWindow);
  b.fault(101, shm, 0, kWindow);
  std::vector<MappedFile> found;
  EXPECT_FALSE(faults_as_reads(b.get(), found));
  EXPECT_TRUE(found.empty());
}

}  // namespace
}  // namespace dlgen::analysis
