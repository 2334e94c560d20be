// The running tree of -p, read from /proc.
#include "attach_tree.hpp"

#include <dirent.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace dlgen::capture {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// pid -> ppid for every process now in /proc.
std::map<std::uint32_t, std::uint32_t> proc_parents() {
  std::map<std::uint32_t, std::uint32_t> out;
  DIR* d = ::opendir("/proc");
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    char* end = nullptr;
    unsigned long pid = std::strtoul(e->d_name, &end, 10);
    if (!end || *end || pid == 0) continue;
    std::string stat = read_file("/proc/" + std::string(e->d_name) + "/stat");
    auto rp = stat.rfind(')');
    if (rp == std::string::npos) continue;
    std::istringstream rest(stat.substr(rp + 2));
    std::string state;
    std::uint32_t ppid = 0;
    rest >> state >> ppid;
    out[static_cast<std::uint32_t>(pid)] = ppid;
  }
  ::closedir(d);
  return out;
}

// The threads of process `pid` other than its main thread, as process-table rows.
void add_threads(std::uint32_t pid, Interpreter& interp) {
  DIR* d = ::opendir(("/proc/" + std::to_string(pid) + "/task").c_str());
  if (!d) return;
  while (dirent* t = ::readdir(d)) {
    std::uint32_t tid = static_cast<std::uint32_t>(std::strtoul(t->d_name, nullptr, 10));
    if (tid == 0 || tid == pid) continue;
    trace::Process th;
    th.pid = tid;
    th.tgid = th.ppid = pid;
    th.is_thread = true;
    th.comm = th.first_comm =
        trim(read_file("/proc/" + std::to_string(pid) + "/task/" + t->d_name + "/comm"));
    interp.add_process(th);
  }
  ::closedir(d);
}

}  // namespace

Result<std::uint64_t> trace_running_tree(std::uint32_t root, BpfSession& bpf, Interpreter& interp) {
  std::uint64_t untraced = 0;
  auto parents = proc_parents();
  std::vector<std::uint32_t> todo{root};
  while (!todo.empty()) {
    std::uint32_t pid = todo.back();
    todo.pop_back();
    if (!bpf.trace_tgid(pid)) {
      if (pid == root)
        return runtime_error("capture: cannot add process " + std::to_string(pid) +
                             " to the traced set: " + std::strerror(errno));
      ++untraced;  // counted as lost; its descendants are still tried
    }
    trace::Process p;
    p.pid = p.tgid = pid;
    p.ppid = parents.count(pid) ? parents[pid] : 0;
    p.comm = p.first_comm = trim(read_file("/proc/" + std::to_string(pid) + "/comm"));
    interp.add_process(p);
    add_threads(pid, interp);
    for (auto& [c, pp] : parents)
      if (pp == pid) todo.push_back(c);
  }
  return untraced;
}

std::vector<std::string> command_line_of(std::uint32_t pid) {
  std::vector<std::string> out;
  std::string cmdline = read_file("/proc/" + std::to_string(pid) + "/cmdline");
  std::string arg;
  for (char ch : cmdline) {
    if (ch == 0) {
      out.push_back(arg);
      arg.clear();
    } else
      arg += ch;
  }
  if (!arg.empty()) out.push_back(arg);
  return out;
}

}  // namespace dlgen::capture
