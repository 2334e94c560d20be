// readers: the accelerators (processes consuming batches), their reader workers (DataLoader worker
// processes, or reader threads), and every process's role.
#include <algorithm>
#include <map>
#include <set>

#include "stages.hpp"

namespace dlgen::analysis::stages {

using trace::Op;

std::uint32_t Readers::accel_of_reader(std::uint32_t reader) const {
  for (std::size_t i = 0; i < accelerators.size(); ++i) {
    const auto& r = accelerators[i].readers;
    if (std::find(r.begin(), r.end(), reader) != r.end()) return static_cast<std::uint32_t>(i);
  }
  return 0;
}

namespace {

// Hand-overs (sendmsg) by processes that read no dataset file (`readers`: the reading processes),
// and those processes: DataLoader workers serving data loaded into memory.
void count_memory_handovers(const trace::Trace& t,
                            const std::map<std::uint32_t, std::set<std::uint32_t>>& readers,
                            Readers& s) {
  std::set<std::uint32_t> pids;
  for (const auto& e : t.events)
    if (e.op == Op::sendmsg && !readers.count(e.pid)) ++s.memory_handovers, pids.insert(e.pid);
  s.memory_workers = static_cast<std::uint32_t>(pids.size());
}

}  // namespace

Readers find_readers(const trace::Trace& t, const Classified& c,
                     const std::vector<Access>& accesses) {
  Readers s;
  std::map<std::uint32_t, const trace::Process*> procs;
  for (const auto& p : t.processes) procs[p.pid] = &p;
  std::map<std::uint32_t, std::set<std::uint32_t>> tids_of;
  for (const auto& a : accesses) tids_of[a.pid].insert(a.tid);
  const std::set<std::uint32_t> workers = handing_workers(t, c.files);
  count_memory_handovers(t, tids_of, s);
  auto ppid_of = [&](std::uint32_t pid) -> std::uint32_t {
    auto it = procs.find(pid);
    return it == procs.end() ? 0 : it->second->ppid;
  };
  // Accelerator of each reading process: its parent when it hands batches over (a DataLoader
  // worker), else itself (threaded readers, or a main process that reads its own samples).
  std::map<std::uint32_t, std::uint32_t> accel_pid_of;  // reading pid → main pid
  for (auto& [pid, tids] : tids_of) {
    std::uint32_t main = pid;
    if (workers.count(pid) && ppid_of(pid) != 0) main = ppid_of(pid);
    accel_pid_of[pid] = main;
  }
  std::map<std::uint32_t, std::uint32_t> accel_index;
  for (auto& [pid, main] : accel_pid_of)
    if (!accel_index.count(main)) {
      accel_index[main] = 0;
    }
  std::uint32_t next = 0;
  for (auto& [main, idx] : accel_index) {
    idx = next++;
    Accelerator acc;
    acc.pid = main;
    s.accelerators.push_back(acc);
  }
  std::map<std::uint32_t, std::set<std::uint32_t>> readers_of;
  for (const auto& a : accesses) readers_of[accel_index[accel_pid_of[a.pid]]].insert(a.reader);
  for (auto& [idx, rs] : readers_of) {
    auto& acc = s.accelerators[idx];
    acc.readers.assign(rs.begin(), rs.end());
    acc.reads_itself = rs.size() == 1 && *rs.begin() == acc.pid;
  }
  // Process table with roles.
  std::map<std::uint32_t, std::uint32_t> reader_accel;
  for (const auto& a : accesses) reader_accel[a.reader] = accel_index[accel_pid_of[a.pid]];
  for (const auto& p : t.processes) {
    ProcessSummary ps;
    ps.pid = p.pid;
    ps.tgid = p.tgid;
    ps.ppid = p.ppid;
    ps.comm = p.comm;
    ps.is_thread = p.is_thread;
    ps.start_ns = p.start_ns;
    ps.end_ns = p.end_ns;
    if (accel_index.count(p.pid) && !p.is_thread) {
      ps.role = ProcessRole::main;
      ps.accelerator = accel_index[p.pid];
    }
    if (reader_accel.count(p.pid) &&
        !(ps.role == ProcessRole::main && s.accelerators[ps.accelerator].reads_itself)) {
      ps.role = ProcessRole::reader_worker;
      ps.accelerator = reader_accel[p.pid];
    }
    s.processes.push_back(ps);
  }
  std::map<std::uint32_t, ProcessSummary*> by_pid;
  for (auto& p : s.processes) by_pid[p.pid] = &p;
  for (const auto& a : accesses) {
    auto it = by_pid.find(a.reader);
    if (it == by_pid.end()) continue;
    it->second->bytes_read += a.bytes;
    it->second->read_ops += a.reads;
    ++it->second->samples_read;
  }
  return s;
}

}  // namespace dlgen::analysis::stages
