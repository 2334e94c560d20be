// spooled_uploads: a checkpoint torch.save'd to a local temporary file and then sent to an S3
// store from that file (boto3's upload_fileobj with a file, s3transfer's threads reading it part
// by part). The file is written, then read back whole by threads of the same process while that
// process sends an object (prepass/object_writes.hpp made its PUTs writes of an "s3://" file):
// checkpoint traffic, not a dataset generated at the start of the run. Classify leaves it out
// of both datasets and checkpoints (the object is the checkpoint; docs/distil.md).
#include <algorithm>
#include <map>

#include "stages.hpp"

namespace dlgen::analysis::stages {
namespace {

// Reads or writes of a file, per process: the bytes and the first and last time.
struct Use {
  std::uint64_t bytes = 0, first = UINT64_MAX, last = 0;
  void add(const trace::Event& e) {
    bytes += static_cast<std::uint64_t>(e.ret);
    first = std::min(first, e.ts_ns);
    last = std::max(last, e.ts_ns + e.dur_ns);
  }
};

// A second of slack either side of the file's reads for the object's writes.
constexpr std::uint64_t kSlackNs = 1'000'000'000;

}  // namespace

std::vector<bool> spooled_uploads(const trace::Trace& t) {
  std::vector<bool> out(t.files.size(), false);
  std::map<std::uint32_t, std::vector<std::uint64_t>> sent;  // pid → its object writes' times
  std::map<std::pair<std::uint32_t, std::uint32_t>, Use> written, read;  // (file, pid)
  for (const auto& e : t.events) {
    if (e.file == trace::kNoFile || e.file >= t.files.size() || e.ret <= 0) continue;
    const bool object = t.files[e.file].path.starts_with("s3://");
    if (trace::is_write(e.op) && object) sent[e.pid].push_back(e.ts_ns);
    if (object) continue;
    if (trace::is_write(e.op)) written[{e.file, e.pid}].add(e);
    if (trace::is_read(e.op)) read[{e.file, e.pid}].add(e);
  }
  for (const auto& [key, r] : read) {
    const auto w = written.find(key);
    const auto s = sent.find(key.second);
    if (w == written.end() || s == sent.end() || r.first < w->second.last ||
        r.bytes < w->second.bytes)
      continue;  // not written first and then read back whole by its writer
    for (std::uint64_t ts : s->second)
      if (ts + kSlackNs >= r.first && ts <= r.last + kSlackNs) out[key.first] = true;
  }
  return out;
}

}  // namespace dlgen::analysis::stages
