// Trace file size per 1M events of a realistic mix, and time to load 1M events from C++ and
// from h5py. Usage: trace_file_bench [events=1000000] [dir=/tmp]. Prints one line per figure.
// `trace_file_bench --load FILE` only times read_trace on an existing trace (any version), wall
// and CPU seconds, so versions can be compared on a busy machine.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>

#include "dlgen/trace/trace_io.hpp"
#include "synthetic_trace.hpp"

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int load_only(const char* path) {
  double best_wall = 1e9, best_cpu = 1e9;
  std::size_t n = 0;
  for (int i = 0; i < 5; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    auto t = dlgen::trace::read_trace(path);
    double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    double wall = seconds_since(t0);
    if (!t) {
      std::fprintf(stderr, "%s\n", t.error().message.c_str());
      return 1;
    }
    n = t->events.size();
    best_wall = std::min(best_wall, wall);
    best_cpu = std::min(best_cpu, cpu);
  }
  std::printf("events %zu  C++ load s %.3f wall, %.3f CPU (best of 5)\n", n, best_wall, best_cpu);
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 2 && std::string(argv[1]) == "--load") return load_only(argv[2]);
  std::size_t n = argc > 1 ? std::stoull(argv[1]) : 1000000;
  std::filesystem::path dir = argc > 2 ? argv[2] : "/tmp";
  auto path = dir / ("dlgen-trace-bench-" + std::to_string(::getpid()) + ".h5");
  auto trace = dlgen::trace::synthetic::make_trace(n);

  auto t0 = std::chrono::steady_clock::now();
  std::clock_t c0 = std::clock();
  if (auto r = dlgen::trace::write_trace(path, trace); !r) {
    std::fprintf(stderr, "%s\n", r.error().message.c_str());
    return 1;
  }
  double write_s = seconds_since(t0);
  double write_cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  auto bytes = std::filesystem::file_size(path);

  double best_load = 1e9;
  for (int i = 0; i < 3; ++i) {
    t0 = std::chrono::steady_clock::now();
    auto back = dlgen::trace::read_trace(path);
    double s = seconds_since(t0);
    if (!back || back->events.size() != n) {
      std::fprintf(stderr, "read back failed\n");
      return 1;
    }
    best_load = std::min(best_load, s);
  }
  std::printf("events            %zu\n", n);
  std::printf("file bytes        %ju (%.2f MB per 1M events, %.2f B/event)\n",
              static_cast<std::uintmax_t>(bytes), bytes / 1e6 * 1e6 / n, double(bytes) / n);
  std::printf("write s           %.3f wall, %.3f CPU\n", write_s, write_cpu);
  std::printf("C++ load s        %.3f (best of 3)\n", best_load);

  std::string py =
      std::string(DLGEN_PYTHON) +
      " -c \"import time,h5py,numpy as np\n"
      "best=1e9\n"
      "for _ in range(3):\n"
      "  t=time.perf_counter()\n"
      "  f=h5py.File('" +
      path.string() +
      "','r')\n"
      "  ev={k: v[:] for k, v in f['events'].items()}\n"
      "  unit=int(f['events'].attrs['ts_unit_ns'])\n"
      "  ts=np.cumsum(ev['ts_delta'])*unit\n"
      "  ret=ev['ret_delta']+ev['size'].astype(np.int64)\n"
      "  adv=np.r_[0,ret[:-1]]; x=ev['offset_delta']+np.maximum(adv,0); cs=np.cumsum(x)\n"
      "  st=np.maximum.accumulate(np.where(adv>0,0,np.arange(len(x)))); off=cs-cs[st]+x[st]\n"
      "  o=np.argsort(ts,kind='stable')\n"
      "  ev={k: v[o] for k, v in ev.items()}; ts=ts[o]; ret=ret[o]; off=off[o]\n"
      "  paths=f['files/path'].asstr()[:]\n"
      "  f.close(); best=min(best,time.perf_counter()-t)\n"
      "assert len(ts)==" +
      std::to_string(n) +
      "\n"
      "print('h5py load s       %.3f (best of 3)' % best)\"";
  int rc = std::system(py.c_str());
  if (!std::getenv("DLGEN_BENCH_KEEP")) std::filesystem::remove(path);
  return rc == 0 ? 0 : 1;
}
