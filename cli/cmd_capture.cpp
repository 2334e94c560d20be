// dlgen capture -o run.h5 [--block] [--duration S] [-p PID] [--cuda-lib PATH | --no-cuda] -- CMD
// ARGS... Exit status: the command's own (128+signal when killed); 127 when it cannot be executed;
// 2 bad usage; 77 no BPF privilege or kernel support; 1 other failures.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include "dlgen/core/json.hpp"

#include "commands.hpp"
#include "dlgen/trace/merge.hpp"
#ifdef DLGEN_WITH_BPF
#include "dlgen/capture/capture.hpp"
#endif

namespace dlgen::cli {
namespace {

struct CaptureArgs {
  std::string output;
  std::vector<std::string> command;
  std::uint32_t pid = 0;
  double duration_s = 0;
  bool block = false;
  bool verbose = false;
  bool quiet = false;
  std::uint32_t ring_mib = 32;
  std::string json_out;
  std::uint32_t inflight_entries = 65536;  // CaptureOptions' defaults
  std::uint32_t process_entries = 16384;
  std::string cuda_lib;
  bool no_cuda = false;
};

// The option groups, in the order --help lists them. What is traced and where the trace goes:
void add_target_options(CLI::App* cmd, CaptureArgs& args) {
  cmd->add_option("-o,--output", args.output,
                  "Trace file to write (HDF5); under mpirun, %r is the MPI rank and %h the host "
                  "(one trace per rank: -o trace-%r.h5)")
      ->required();
  cmd->add_option("-p,--pid", args.pid, "Attach to this running process and its descendants");
  cmd->add_option("--duration", args.duration_s, "Stop capturing after this many seconds")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--block", args.block,
                "Also record block-layer requests issued by the traced processes");
}

// The tracer's buffers and maps, and what it says.
void add_tracer_options(CLI::App* cmd, CaptureArgs& args) {
  cmd->add_option("--ring-mib", args.ring_mib, "Ring buffer size in MiB (power of two)");
  cmd->add_flag("-v,--verbose", args.verbose,
                "Print libbpf diagnostics, the fixed costs by phase and dlgen's own CPU");
  cmd->add_flag("-q,--quiet", args.quiet,
                "No summary line on stderr (a warning about lost events still shows)");
  cmd->add_option("--inflight-map-entries", args.inflight_entries,
                  "io_uring (and block) requests tracked in flight at once; beyond it they are "
                  "lost and counted")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--process-map-entries", args.process_entries,
                  "Processes traced at once; beyond it new ones are untraced and counted as lost")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
}

// The GPU side, the counts for scripts, and the command.
void add_gpu_and_command_options(CLI::App* cmd, CaptureArgs& args) {
  cmd->add_option("--cuda-lib", args.cuda_lib,
                  "The CUDA driver library whose API to probe (uprobes); default: $DLGEN_CUDA_LIB, "
                  "else the libcuda.so.1 the dynamic loader finds (none found: no probes)");
  cmd->add_flag("--no-cuda", args.no_cuda,
                "Do not probe the CUDA driver API nor ask NVML for the GPUs");
  cmd->add_option("--json-out", args.json_out,
                  "Also write the capture's counts (lost events by reason) as JSON here");
  cmd->add_option("command", args.command, "The command to run (after --)");
}

#ifdef DLGEN_WITH_BPF
// The end of a capture for scripts (--json-out): counts, and lost events by reason.
std::string capture_json(const capture::CaptureResult& r, const std::string& output) {
  nlohmann::json lost = nlohmann::json::object();
  for (const auto& reason : trace::kLostReasons) lost[reason.name] = r.lost.*reason.count;
  nlohmann::json j = {{"trace", output},
                      {"exit_status", r.exit_status},
                      {"interrupted", r.interrupted},
                      {"events", r.events},
                      {"files", r.files},
                      {"processes", r.processes},
                      {"duration_s", static_cast<double>(r.duration.count()) / 1e9},
                      {"lost_events", r.lost_events},
                      {"lost", lost}};
  return j.dump(2) + "\n";
}

capture::CaptureOptions capture_options(const CaptureArgs& args, const trace::LaunchRank& launch,
                                        const std::string& output) {
  capture::CaptureOptions o;
  o.output = output;
  o.rank = launch.rank;
  o.world_size = launch.world_size;
  o.command = args.command;
  o.attach_pid = args.pid;
  o.duration = std::chrono::nanoseconds(static_cast<std::int64_t>(args.duration_s * 1e9));
  o.block_layer = args.block;
  o.verbose = args.verbose;
  o.ring_buffer_bytes = args.ring_mib << 20;
  o.inflight_map_entries = args.inflight_entries;
  o.process_map_entries = args.process_entries;
  o.cuda = !args.no_cuda;
  if (const char* env = std::getenv("DLGEN_CUDA_LIB"); env && *env && args.cuda_lib.empty())
    o.cuda_lib = env;
  else
    o.cuda_lib = args.cuda_lib;
  return o;
}

// The summary line (unless --quiet), the warning about lost events (always) and, with
// --verbose, the lost events by reason; on stderr.
void print_capture_summary(const capture::CaptureResult& r, const CaptureArgs& args,
                           const std::string& output) {
  if (!args.quiet)
    std::fprintf(
        stderr, "dlgen: captured %llu events, %llu files, %llu processes in %.2f s%s -> %s%s\n",
        static_cast<unsigned long long>(r.events), static_cast<unsigned long long>(r.files),
        static_cast<unsigned long long>(r.processes), r.duration.count() / 1e9,
        r.lost_events ? (", " + std::to_string(r.lost_events) + " LOST").c_str() : "",
        output.c_str(), r.interrupted ? " (interrupted)" : "");
  if (r.lost_events) {
    const std::string remedy = trace::lost_remedies(r.lost);
    std::fprintf(stderr, "dlgen: WARNING: %llu events were lost, the trace is incomplete: %s%s\n",
                 static_cast<unsigned long long>(r.lost_events),
                 trace::describe_lost(r.lost_events, r.lost).c_str(),
                 remedy.empty() ? "" : (" (capture again with " + remedy + ")").c_str());
  }
  if (args.verbose) {
    std::string counts;
    for (const auto& reason : trace::kLostReasons)
      counts += std::string(counts.empty() ? "" : ", ") + reason.name + " " +
                std::to_string(r.lost.*reason.count);
    std::fprintf(stderr, "dlgen capture: lost events by reason: %s\n", counts.c_str());
  }
}

// The capture of the command or process tree; returns the exit code (the command's own).
int run_capture(const CaptureArgs& args) {
  if (args.command.empty() == (args.pid == 0))
    return report_error(input_error("capture: give either a command (after --) or -p PID"));
  // Under mpirun every rank captures its own host: -o trace-%r.h5 names one file per rank.
  const trace::LaunchRank launch = trace::launch_rank([](const char* v) { return std::getenv(v); });
  char host[256] = {};
  ::gethostname(host, sizeof(host) - 1);
  auto output = trace::expand_trace_path(args.output, launch, host);
  if (!output) return report_error(output.error());
  auto r = capture::capture(capture_options(args, launch, *output));
  if (!r) return report_error(r.error());
  if (!r->exec_error.empty()) {
    std::fprintf(stderr, "dlgen: %s\n", r->exec_error.c_str());
    return 127;
  }
  print_capture_summary(*r, args, *output);
  if (!args.json_out.empty()) {
    auto json_out = trace::expand_trace_path(args.json_out, launch, host);
    if (!json_out) return report_error(json_out.error());
    std::ofstream out(*json_out, std::ios::trunc);
    out << capture_json(*r, *output);
    if (!out) return report_error(runtime_error(*json_out + ": cannot write"));
  }
  return r->exit_status;
}
#else
int run_capture(const CaptureArgs&) {
  return report_error(unsupported_error("capture: this dlgen was built without BPF support"));
}
#endif

}  // namespace

void add_capture_commands(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("capture",
                                 "Run a command (or attach to a process tree) under the eBPF "
                                 "tracer and record its file I/O into an HDF5 trace");
  auto args = std::make_shared<CaptureArgs>();
  add_target_options(cmd, *args);
  add_tracer_options(cmd, *args);
  add_gpu_and_command_options(cmd, *args);
  cmd->footer(
      "Example: dlgen capture -o run.h5 -- python3 train.py --epochs 2\n"
      "One trace per host: mpirun -np 2 --hostfile H dlgen capture -o run-%r.h5 -- python3 "
      "train.py");
  cmd->callback([args, &action] { action = [args] { return run_capture(*args); }; });
}

}  // namespace dlgen::cli
