// inspect (summary, text, JSON), perfetto export and the dlgen verbs that wrap them.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <sstream>

#include "dlgen/trace/inspect.hpp"
#include "dlgen/trace/trace_io.hpp"
#include "dlgen/trace/trace_text.hpp"
#include "temp_dir.hpp"

namespace dlgen::trace {
namespace {

const char* kRun = R"(
meta command="python3 train.py" exit=0 lost=2 duration=2.5s
proc pid=100 ppid=1 comm=python3
proc pid=101 ppid=100 comm=pt_data_worker first=python3
proc pid=102 ppid=100 comm=pt_data_worker first=python3
proc pid=103 tgid=100 ppid=1 comm=pt_pin_memory
proc pid=104 tgid=100 ppid=1 comm=python3
ts=1ms dur=10us pid=101 op=open file=/data/train/a.npz fd=3 ret=3
ts=2ms dur=100us pid=101 op=read file=/data/train/a.npz fd=3 size=64KiB
ts=3ms dur=100us pid=101 op=read file=/data/train/a.npz fd=3 off=64KiB size=64KiB ret=1000
ts=4ms dur=50us pid=102 op=pread file=/data/train/b.npz fd=3 size=4096
ts=5ms dur=1us pid=102 op=read file=/data/train/c.npz size=4096 ret=-ENOENT
ts=1.2s dur=1ms pid=100 tid=104 op=write file=/ckpt/model.pt fd=7 size=1MiB
ts=1.3s pid=100 op=sendmsg size=72
ts=2.1s pid=100 op=fork arg=105
)";

Trace run_trace() {
  auto t = parse_trace_text(kRun);
  EXPECT_TRUE(t) << t.error().message;
  return *t;
}

// The CUDA summary: counts, bytes and the CPU's wait, from cuda_* events alone (no I/O figure
// moves).
TEST(Inspect, CudaCallsAreSummarisedApartFromIo) {
  auto t = parse_trace_text(R"(
meta command=train gpus="NVIDIA H200" gpu_driver=580.82.07 cuda_lib=/usr/local/nvidia/lib64/libcuda.so.1
proc pid=100 comm=python3
ts=1ms dur=2us pid=100 op=cuda_htod size=1MiB flags=4 arg=0x51
ts=2ms pid=100 op=cuda_launch off=61441 flags=7 arg=0x51
ts=3ms pid=100 op=cuda_launch off=61442 flags=8 arg=0x51
ts=4ms dur=30ms pid=100 op=cuda_sync arg=0x51
ts=40ms dur=1ms pid=100 op=cuda_dtoh size=4 flags=5
ts=50ms dur=10ms pid=100 op=cuda_sync flags=2 ret=-999
ts=60ms dur=1ms pid=100 op=read file=/data/a size=4096
)");
  ASSERT_TRUE(t) << t.error().message;
  auto r = inspect(*t);
  EXPECT_EQ(r.cuda.syncs, 2u);
  EXPECT_NEAR(r.cuda.sync_wait_s, 0.040, 1e-9);
  EXPECT_EQ(r.cuda.htod, 1u);
  EXPECT_EQ(r.cuda.htod_bytes, 1u << 20);
  EXPECT_EQ(r.cuda.dtoh, 1u);
  EXPECT_EQ(r.cuda.dtoh_bytes, 4u);
  EXPECT_EQ(r.cuda.launches, 2u);
  EXPECT_EQ(r.cuda.errors, 1u);
  EXPECT_EQ(r.bytes_read, 4096u);  // the copies are not file I/O
  EXPECT_EQ(r.bytes_written, 0u);
  ASSERT_EQ(r.processes.size(), 1u);
  EXPECT_EQ(r.processes[0].ops, 1u);
  const std::string text = format_inspect(r);
  EXPECT_NE(text.find("gpus:      1x NVIDIA H200   driver 580.82.07\n"), std::string::npos) << text;
  EXPECT_NE(text.find("cuda:      2 syncs (0.040 s waiting)   1 HtoD copies (1.0 MiB)   1 DtoH "
                      "copies (4 B)   2 launches   1 failed\n"),
            std::string::npos)
      << text;
  auto j = nlohmann::json::parse(inspect_json(r));
  EXPECT_EQ(j["cuda"]["launches"], 2);
  EXPECT_EQ(j["gpu"]["devices"][0], "NVIDIA H200");
  // A trace without CUDA events or GPU metadata prints neither line.
  const std::string plain = format_inspect(inspect(run_trace()));
  EXPECT_EQ(plain.find("cuda:"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("gpus:"), std::string::npos) << plain;
}

TEST(Inspect, RolesBytesDirsSizesAndThroughput) {
  InspectReport r = inspect(run_trace());
  EXPECT_EQ(r.events, 8u);
  EXPECT_EQ(r.files, 4u);
  EXPECT_DOUBLE_EQ(r.duration_s, 2.5);
  EXPECT_EQ(r.bytes_read, 65536u + 1000u + 4096u);
  EXPECT_EQ(r.bytes_written, 1u << 20);
  ASSERT_EQ(r.processes.size(), 5u);
  EXPECT_EQ(r.processes[0].role, Role::main);
  EXPECT_EQ(r.processes[1].role, Role::dataloader_worker);
  EXPECT_EQ(r.processes[3].role, Role::pin_memory);
  EXPECT_EQ(r.processes[4].role, Role::thread);
  EXPECT_EQ(r.processes[1].bytes_read, 66536u);
  EXPECT_EQ(r.processes[1].ops, 2u);
  EXPECT_EQ(r.processes[4].bytes_written, 1u << 20);  // attributed to the thread, not the process
  ASSERT_EQ(r.dirs.size(), 2u);
  EXPECT_EQ(r.dirs[0].dir, "/ckpt");  // most bytes first
  EXPECT_EQ(r.dirs[1].dir, "/data/train");
  EXPECT_EQ(r.dirs[1].files, 3u);
  EXPECT_EQ(r.dirs[1].reads, 4u);
  ASSERT_EQ(r.sizes.size(), 3u);
  EXPECT_EQ(r.sizes[0].lo, 4096u);
  EXPECT_EQ(r.sizes[0].hi, 8192u);
  EXPECT_EQ(r.sizes[0].reads, 2u);
  EXPECT_EQ(r.sizes[1].lo, 65536u);
  EXPECT_EQ(r.sizes[1].reads, 2u);
  EXPECT_EQ(r.sizes[2].lo, 1u << 20);
  EXPECT_EQ(r.sizes[2].writes, 1u);
  ASSERT_EQ(r.throughput.size(), 3u);
  EXPECT_EQ(r.throughput[0].ops, 4u);
  EXPECT_EQ(r.throughput[1].bytes_written, 1u << 20);
  EXPECT_EQ(r.throughput[2].ops, 0u);
  bool saw_error = false;
  for (const auto& o : r.ops)
    if (o.op == Op::read) {
      EXPECT_EQ(o.count, 3u);
      EXPECT_EQ(o.errors, 1u);
      saw_error = true;
    }
  EXPECT_TRUE(saw_error);
}

TEST(Inspect, TextNamesWhatAPersonWantsFirst) {
  std::string text = format_inspect(inspect(run_trace()));
  for (const char* want : {"python3 train.py", "dataloader_worker", "pin_memory", "/data/train",
                           "/ckpt", "lost events: 2", "64.0 KiB-128.0 KiB", "sendmsg"})
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
}

TEST(Inspect, JsonParsesAndCarriesTheNumbers) {
  auto j = nlohmann::json::parse(inspect_json(inspect(run_trace())));
  EXPECT_EQ(j["bytes_written"], 1u << 20);
  EXPECT_EQ(j["lost_events"], 2);
  EXPECT_EQ(j["processes"].size(), 5u);
  EXPECT_EQ(j["processes"][1]["role"], "dataloader_worker");
  EXPECT_EQ(j["ops"]["read"]["errors"], 1);
  EXPECT_EQ(j["dirs"][1]["dir"], "/data/train");
  EXPECT_EQ(j["throughput"].size(), 3u);
}

TEST(Export, PerfettoJsonHasTracksAndOneSlicePerIo) {
  std::ostringstream out;
  export_perfetto(run_trace(), out);
  auto j = nlohmann::json::parse(out.str());
  int process_names = 0, thread_names = 0, slices = 0, instants = 0;
  for (const auto& e : j["traceEvents"]) {
    std::string ph = e["ph"];
    if (ph == "M" && e["name"] == "process_name") process_names++;
    if (ph == "M" && e["name"] == "thread_name") thread_names++;
    if (ph == "i") instants++;
    if (ph == "X") {
      slices++;
      ASSERT_TRUE(e.contains("ts") && e.contains("dur") && e.contains("pid") && e.contains("tid"));
      if (e["name"] == "pread") {
        EXPECT_EQ(e["args"]["path"], "/data/train/b.npz");
        EXPECT_EQ(e["args"]["size"], 4096);
        EXPECT_EQ(e["args"]["ret"], 4096);
        EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 4000.0);  // microseconds
        EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 50.0);
        EXPECT_EQ(e["pid"], 102);
      }
    }
  }
  EXPECT_EQ(process_names, 3);  // 100, 101, 102
  EXPECT_EQ(thread_names, 5);
  EXPECT_EQ(slices, 7);
  EXPECT_EQ(instants, 1);  // the fork
}

std::string run_cmd(const std::string& cmd, int& rc) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = ::pclose(p);
  rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

TEST(Cli, InspectAndExportVerbs) {
  testing::TempDir dir;
  ASSERT_TRUE(write_trace(dir / "run.h5", run_trace()));
  int rc = -1;
  std::string bin = DLGEN_BINARY;
  std::string out = run_cmd(bin + " inspect " + (dir / "run.h5").string(), rc);
  EXPECT_EQ(rc, 0);
  EXPECT_NE(out.find("dataloader_worker"), std::string::npos) << out;
  out = run_cmd(bin + " inspect --json " + (dir / "run.h5").string(), rc);
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(nlohmann::json::parse(out)["events"], 8);
  run_cmd(bin + " export " + (dir / "run.h5").string() + " --format perfetto -o " +
              (dir / "run.json").string() + " 2>/dev/null",
          rc);
  EXPECT_EQ(rc, 0);
  std::ifstream in(dir / "run.json");
  EXPECT_EQ(nlohmann::json::parse(in)["traceEvents"].size(), 8u + 3u + 5u);
  run_cmd(bin + " inspect " + (dir / "missing.h5").string() + " 2>/dev/null", rc);
  EXPECT_EQ(rc, 2);
  run_cmd(bin + " export " + (dir / "run.h5").string() + " --format pprof -o x 2>/dev/null", rc);
  EXPECT_EQ(rc, 2);
}

}  // namespace
}  // namespace dlgen::trace
