// The user-space half of capture: ring-buffer records in, trace rows out. No BPF needed.
#include "interpreter.hpp"

#include <gtest/gtest.h>
#include <sys/sysmacros.h>

#include <cstring>

#include "events.h"

namespace dlgen::capture {
namespace {

using trace::Op;
constexpr std::uint64_t kStart = 1'000'000'000;

dl_io io(std::uint8_t op, std::uint32_t pid, std::uint64_t ts, std::int32_t fd = -1) {
  dl_io r{};
  r.kind = DL_K_IO;
  r.op = op;
  r.pid = r.tid = pid;
  r.ts_ns = kStart + ts;
  r.fd = fd;
  return r;
}

dl_path with_path(const dl_io& base, const char* path) {
  dl_path r{};
  r.io = base;
  r.io.kind = DL_K_PATH;
  std::strncpy(r.path, path, sizeof(r.path) - 1);
  return r;
}

dl_proc proc(std::uint8_t op, std::uint32_t pid, std::uint64_t ts, const char* comm) {
  dl_proc r{};
  r.kind = DL_K_PROC;
  r.op = op;
  r.pid = r.tid = pid;
  r.ts_ns = kStart + ts;
  std::strncpy(r.comm, comm, sizeof(r.comm) - 1);
  return r;
}

const std::uint64_t kKernelDev = (std::uint64_t{8} << 20) | 3;  // 8:3 in the kernel's encoding

TEST(Interpreter, OpenInternsThePathAndLaterIoFindsItByInode) {
  Interpreter in(kStart, false);
  auto open = io(DL_OP_OPEN, 10, 100);
  open.ret = 5;
  open.dev = kKernelDev;
  open.ino = 77;
  open.isize = 4096;
  open.flags = 0;
  auto rec = with_path(open, "/data/a.npz");
  ASSERT_TRUE(in.on_record(&rec, sizeof(rec)));
  auto rd = io(DL_OP_READ, 10, 200, 5);
  rd.dev = kKernelDev;
  rd.ino = 77;
  rd.size = rd.ret = 8;
  rd.magic = 0x0403'4b50;  // "PK\3\4": a zip (npz)
  rd.magic_len = 4;
  ASSERT_TRUE(in.on_record(&rd, sizeof(rd)));
  ASSERT_EQ(in.files().size(), 1u);
  const auto& f = in.files()[0];
  EXPECT_EQ(f.path, "/data/a.npz");
  EXPECT_EQ(f.dev, makedev(8, 3));
  EXPECT_EQ(f.ino, 77u);
  EXPECT_EQ(f.size_at_open, 4096u);
  EXPECT_EQ(f.magic, 0x0403'4b50u);
  EXPECT_EQ(f.magic_len, 4);
  auto ev = in.take_events();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].op, Op::open);
  EXPECT_EQ(ev[0].fd, 5);
  EXPECT_EQ(ev[0].ts_ns, 100u);
  EXPECT_EQ(ev[1].op, Op::read);
  EXPECT_EQ(ev[1].file, 0u);
  EXPECT_EQ(in.events_seen(), 2u);
}

// A page fault names the mapped file by dev+ino, as a block request does: the file the program
// opened (then mapped), or none for an inode it never opened (a library mapped by exec).
TEST(Interpreter, FaultsAreAttributedToTheOpenedFileByInode) {
  Interpreter in(kStart, false);
  auto open = io(DL_OP_OPEN, 10, 100);
  open.ret = 5;
  open.dev = kKernelDev;
  open.ino = 77;
  open.isize = 1 << 20;
  auto rec = with_path(open, "/data/big.npy");
  ASSERT_TRUE(in.on_record(&rec, sizeof(rec)));
  auto fault = io(DL_OP_FAULT, 11, 200);
  fault.dev = kKernelDev;
  fault.ino = 77;
  fault.offset = 16 * 4096;
  fault.size = fault.ret = 16 * 4096;
  fault.flags = 1;
  ASSERT_TRUE(in.on_record(&fault, sizeof(fault)));
  auto lib = fault;
  lib.ino = 78;  // never opened: not interned
  ASSERT_TRUE(in.on_record(&lib, sizeof(lib)));
  ASSERT_EQ(in.files().size(), 1u);
  auto ev = in.take_events();
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[1].op, Op::fault);
  EXPECT_EQ(ev[1].file, 0u);
  EXPECT_EQ(ev[1].offset, 16u * 4096);
  EXPECT_EQ(ev[1].size, 16u * 4096);
  EXPECT_EQ(ev[1].ret, 16 * 4096);
  EXPECT_EQ(ev[1].flags, 1u);
  EXPECT_EQ(ev[1].tid, 11u);
  EXPECT_EQ(ev[2].op, Op::fault);
  EXPECT_EQ(ev[2].file, trace::kNoFile);
}

TEST(Interpreter, DevShmOpensBecomeShmOpen) {
  Interpreter in(kStart, false);
  auto open = io(DL_OP_OPEN, 10, 1);
  open.ret = 3;
  open.dev = 1;
  open.ino = 2;
  auto rec = with_path(open, "/dev/shm/torch_123_456");
  in.on_record(&rec, sizeof(rec));
  auto ev = in.take_events();
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].op, Op::shm_open);
}

// path_abs 2: the kernel named the cwd/dirfd and appended the argument; "." and ".." are removed.
// path_abs 1: the kernel named the opened file; taken as is. Neither needs /proc (off here).
TEST(Interpreter, KernelResolvedPathsAreUsedAsSent) {
  Interpreter in(kStart, false);
  auto st = with_path(io(DL_OP_STAT, 10, 1), "/work/run/./train/../ckpt/model.pt");
  st.io.path_abs = 2;
  in.on_record(&st, sizeof(st));
  auto open = io(DL_OP_OPEN, 10, 2);
  open.ret = 4;
  open.dev = 1;
  open.ino = 9;
  auto rec = with_path(open, "/work/run/train/x.npz");
  rec.io.path_abs = 1;
  in.on_record(&rec, sizeof(rec));
  auto ev = in.take_events();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(in.files()[ev[0].file].path, "/work/run/ckpt/model.pt");
  EXPECT_EQ(in.files()[ev[1].file].path, "/work/run/train/x.npz");
}

TEST(Interpreter, NameOnlyFileGetsItsIdentityWhenOpenedLater) {
  Interpreter in(kStart, false);
  auto st = with_path(io(DL_OP_STAT, 10, 1), "/ckpt/model.pt");
  in.on_record(&st, sizeof(st));
  ASSERT_EQ(in.files().size(), 1u);
  EXPECT_EQ(in.files()[0].ino, 0u);
  auto open = io(DL_OP_OPEN, 10, 2);
  open.ret = 4;
  open.dev = kKernelDev;
  open.ino = 9;
  auto rec = with_path(open, "/ckpt/model.pt");
  in.on_record(&rec, sizeof(rec));
  ASSERT_EQ(in.files().size(), 1u);
  EXPECT_EQ(in.files()[0].ino, 9u);
  auto ev = in.take_events();
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].file, 0u);
  EXPECT_EQ(ev[1].file, 0u);
}

TEST(Interpreter, ReusedInodeNumberUnderANewNameIsANewFile) {
  Interpreter in(kStart, false);
  auto a = io(DL_OP_OPEN, 10, 1);
  a.ret = 4;
  a.dev = kKernelDev;
  a.ino = 55;
  auto ra = with_path(a, "/tmp/pymp-abc");
  in.on_record(&ra, sizeof(ra));
  auto b = a;
  b.ts_ns += 10;
  auto rb = with_path(b, "/out/ckpt.pt");  // /tmp/pymp-abc was removed, its inode reused
  in.on_record(&rb, sizeof(rb));
  auto w = io(DL_OP_WRITE, 10, 20, 4);
  w.dev = kKernelDev;
  w.ino = 55;
  in.on_record(&w, sizeof(w));
  ASSERT_EQ(in.files().size(), 2u);
  auto ev = in.take_events();
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(in.files()[ev[0].file].path, "/tmp/pymp-abc");
  EXPECT_EQ(in.files()[ev[1].file].path, "/out/ckpt.pt");
  EXPECT_EQ(in.files()[ev[2].file].path, "/out/ckpt.pt");
}

TEST(Interpreter, UnknownFileGetsADescriptiveName) {
  Interpreter in(kStart, false);
  auto rd = io(DL_OP_PREAD, 10, 1, 7);
  rd.dev = kKernelDev;
  rd.ino = 123;
  in.on_record(&rd, sizeof(rd));
  ASSERT_EQ(in.files().size(), 1u);
  EXPECT_EQ(in.files()[0].path, "<dev 8:3 ino 123>");
}

TEST(Interpreter, ProcessTreeFromForkThreadRenameExit) {
  Interpreter in(kStart, false);
  trace::Process root;
  root.pid = root.tgid = 100;
  root.comm = root.first_comm = "python3";
  in.add_process(root);
  auto fork = proc(DL_OP_FORK, 100, 10, "python3");
  fork.child_pid = fork.child_tgid = 101;
  auto thread = proc(DL_OP_THREAD, 100, 11, "python3");
  thread.child_pid = 102;
  thread.child_tgid = 100;
  auto rename = proc(DL_OP_TASK_RENAME, 101, 12, "pt_data_worker");
  rename.child_tgid = 101;
  auto exit_child = proc(DL_OP_EXIT, 101, 20, "pt_data_worker");
  exit_child.code = 9;  // killed by SIGKILL
  exit_child.group_dead = 1;
  auto exit_root = proc(DL_OP_EXIT, 100, 30, "python3");
  exit_root.code = 3 << 8;
  for (const dl_proc* r : {&fork, &thread, &rename, &exit_child, &exit_root})
    in.on_record(r, sizeof(*r));
  const auto& ps = in.processes();
  ASSERT_EQ(ps.size(), 3u);
  EXPECT_EQ(ps[0].pid, 100u);
  EXPECT_EQ(ps[0].exit_code, 3);
  EXPECT_EQ(ps[0].end_ns, 30u);
  EXPECT_EQ(ps[1].pid, 101u);
  EXPECT_EQ(ps[1].ppid, 100u);
  EXPECT_FALSE(ps[1].is_thread);
  EXPECT_EQ(ps[1].first_comm, "python3");
  EXPECT_EQ(ps[1].comm, "pt_data_worker");
  EXPECT_EQ(ps[1].exit_code, 128 + 9);
  EXPECT_EQ(ps[1].start_ns, 10u);
  EXPECT_EQ(ps[2].pid, 102u);
  EXPECT_EQ(ps[2].tgid, 100u);
  EXPECT_TRUE(ps[2].is_thread);
  auto ev = in.take_events();
  ASSERT_EQ(ev.size(), 5u);
  EXPECT_EQ(ev[0].op, Op::fork);
  EXPECT_EQ(ev[0].arg, 101u);
  EXPECT_EQ(ev[4].op, Op::exit);
  EXPECT_EQ(ev[4].arg, 3u);
}

TEST(Interpreter, TakeEventsReturnsAllInArrivalOrderAndEmptiesTheBuffer) {
  // Syscalls arrive at exit, stamped at entry: the capture hands them on unsorted (the reader
  // sorts by entry time), so taking events must neither drop nor reorder any.
  Interpreter in(kStart, false);
  for (std::uint64_t ts : {50, 10, 30, 70}) {
    auto r = io(DL_OP_FSYNC, 1, ts, 3);
    in.on_record(&r, sizeof(r));
  }
  auto all = in.take_events();
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].ts_ns, 50u);
  EXPECT_EQ(all[1].ts_ns, 10u);
  EXPECT_EQ(all[3].ts_ns, 70u);
  EXPECT_EQ(in.buffered(), 0u);
  auto r = io(DL_OP_FSYNC, 1, 90, 3);
  in.on_record(&r, sizeof(r));
  auto next = in.take_events();
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].ts_ns, 90u);
}

TEST(Interpreter, RejectsTruncatedRecords) {
  Interpreter in(kStart, false);
  auto r = io(DL_OP_READ, 1, 1);
  EXPECT_FALSE(in.on_record(&r, sizeof(r) - 1));
  std::uint8_t junk = 99;
  EXPECT_FALSE(in.on_record(&junk, 1));
  EXPECT_EQ(in.events_seen(), 0u);
}

// Every record the interpreter cannot use is counted (it becomes lost.malformed in the trace),
// and none of them leaves an event, a file or a process behind.
TEST(Interpreter, MalformedRecordsAreCountedAndLeaveNothing) {
  Interpreter in(kStart, false);
  auto good = io(DL_OP_READ, 1, 1, 3);
  ASSERT_TRUE(in.on_record(&good, sizeof(good)));
  in.take_events();
  const std::size_t processes = in.processes().size();

  auto truncated = io(DL_OP_READ, 1, 2);
  EXPECT_FALSE(in.on_record(&truncated, sizeof(truncated) - 1));
  std::uint8_t unknown_kind = 99;
  EXPECT_FALSE(in.on_record(&unknown_kind, 1));
  EXPECT_FALSE(in.on_record(&unknown_kind, 0));
  auto io_with_proc_op = io(DL_OP_FORK, 1, 3);  // process ops come as dl_proc only
  EXPECT_FALSE(in.on_record(&io_with_proc_op, sizeof(io_with_proc_op)));
  auto io_unknown_op = io(200, 1, 4);
  EXPECT_FALSE(in.on_record(&io_unknown_op, sizeof(io_unknown_op)));
  auto path_unknown_op = with_path(io(DL_OP_FAULT + 1, 1, 5), "/x");
  EXPECT_FALSE(in.on_record(&path_unknown_op, sizeof(path_unknown_op)));
  auto proc_with_io_op = proc(DL_OP_READ, 7, 6, "x");
  EXPECT_FALSE(in.on_record(&proc_with_io_op, sizeof(proc_with_io_op)));
  auto short_path = with_path(io(DL_OP_OPEN, 1, 7), "/y");
  EXPECT_FALSE(in.on_record(&short_path, sizeof(dl_io)));  // a path record cut to a dl_io

  EXPECT_EQ(in.malformed(), 8u);
  EXPECT_EQ(in.events_seen(), 1u);
  EXPECT_EQ(in.buffered(), 0u);
  EXPECT_TRUE(in.files().empty());
  EXPECT_EQ(in.processes().size(), processes);
}

TEST(Interpreter, CudaCallsBecomeEventsWithoutAFile) {
  Interpreter in(kStart, false);
  dl_cuda sync{};
  sync.kind = DL_K_CUDA;
  sync.op = DL_OP_CUDA_SYNC;
  sync.api = DL_CU_STREAM_SYNC;
  sync.pid = 10;
  sync.tid = 11;
  sync.ts_ns = kStart + 500;
  sync.dur_ns = 20'000'000;
  sync.handle = 0x5151;
  dl_cuda copy = sync;
  copy.op = DL_OP_CUDA_HTOD;
  copy.api = DL_CU_HTOD_ASYNC | DL_CU_PTSZ;
  copy.bytes = 1 << 20;
  copy.ret = 400;  // CUDA_ERROR_INVALID_HANDLE
  dl_cuda launch = sync;
  launch.op = DL_OP_CUDA_LAUNCH;
  launch.api = DL_CU_LAUNCH_EX;
  launch.dur_ns = 0;
  launch.func = 0xf003;
  ASSERT_TRUE(in.on_record(&sync, sizeof(sync)));
  ASSERT_TRUE(in.on_record(&copy, sizeof(copy)));
  ASSERT_TRUE(in.on_record(&launch, sizeof(launch)));
  auto ev = in.take_events();
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].op, Op::cuda_sync);
  EXPECT_EQ(ev[0].ts_ns, 500u);
  EXPECT_EQ(ev[0].dur_ns, 20'000'000u);
  EXPECT_EQ(ev[0].pid, 10u);
  EXPECT_EQ(ev[0].tid, 11u);
  EXPECT_EQ(ev[0].arg, 0x5151u);
  EXPECT_EQ(ev[0].file, trace::kNoFile);
  EXPECT_EQ(ev[0].fd, -1);
  EXPECT_EQ(ev[0].ret, 0);
  EXPECT_EQ(ev[1].op, Op::cuda_htod);
  EXPECT_EQ(ev[1].size, 1u << 20);
  EXPECT_EQ(ev[1].flags, static_cast<unsigned>(DL_CU_HTOD_ASYNC | DL_CU_PTSZ));
  EXPECT_EQ(ev[1].ret, -400);  // a failed call reads as an error, like -errno
  EXPECT_EQ(ev[2].op, Op::cuda_launch);
  EXPECT_EQ(ev[2].offset, 0xf003u);
  EXPECT_EQ(ev[2].flags, static_cast<unsigned>(DL_CU_LAUNCH_EX));

  // An op outside the CUDA range, or a driver function id beyond the table: malformed.
  dl_cuda bad = sync;
  bad.op = DL_OP_READ;
  EXPECT_FALSE(in.on_record(&bad, sizeof(bad)));
  bad = sync;
  bad.api = DL_CU_NR;
  EXPECT_FALSE(in.on_record(&bad, sizeof(bad)));
  EXPECT_FALSE(in.on_record(&sync, sizeof(sync) - 1));
  EXPECT_EQ(in.malformed(), 3u);
  EXPECT_TRUE(in.take_events().empty());
}

TEST(Interpreter, ExitStatusDecoding) {
  EXPECT_EQ(Interpreter::exit_status(0), 0);
  EXPECT_EQ(Interpreter::exit_status(5 << 8), 5);
  EXPECT_EQ(Interpreter::exit_status(2), 130);
  EXPECT_EQ(Interpreter::user_dev(kKernelDev), makedev(8, 3));
}

}  // namespace
}  // namespace dlgen::capture
