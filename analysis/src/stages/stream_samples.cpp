// stream_samples: the samples in each batch of a stream (tar/WebDataset shards, record files read
// through a buffer), whose reads show no sample boundaries, from the sizes of the /dev/shm tensors
// the batch was handed over in.
#include <algorithm>

#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis::stages {

std::uint32_t samples_of_tensors(const std::vector<std::uint64_t>& bytes) {
  if (bytes.size() < 2) return 0;
  const auto least_at = std::min_element(bytes.begin(), bytes.end());
  const std::uint64_t least = *least_at;
  if (least == 0 || least % 8 != 0) return 0;
  const std::uint64_t n = least / 8;
  bool larger = false;  // a tensor of at least 8 bytes a sample beside the int64 ones
  for (auto it = bytes.begin(); it != bytes.end(); ++it) {
    if (it == least_at || *it == least) continue;  // another int64 a sample (sizes, indices)
    if (*it < 8 * least || *it % n != 0) return 0;
    larger = true;
  }
  return larger ? static_cast<std::uint32_t>(n) : 0;
}

std::map<std::uint32_t, std::uint64_t> shm_tensor_bytes(const trace::Trace& t,
                                                        const std::vector<FileSummary>& files) {
  std::map<std::uint32_t, std::uint64_t> out;
  for (const auto& e : t.events)
    if (e.op == trace::Op::ftruncate && e.file < files.size() &&
        files[e.file].cls == FileClass::shm)
      out[e.file] = e.size;
  return out;
}

void count_stream_samples(const std::vector<StreamBatch>& made,
                          const std::map<std::uint32_t, std::uint64_t>& tensor_bytes, Batches& s) {
  std::vector<std::uint32_t> counted(made.size(), 0);
  std::vector<std::uint64_t> known;
  for (std::size_t i = 0; i < made.size(); ++i) {
    std::vector<std::uint64_t> bytes;
    for (auto f : made[i].tensors) {
      const auto it = tensor_bytes.find(f);
      bytes.push_back(it == tensor_bytes.end() ? 0 : it->second);
    }
    counted[i] = samples_of_tensors(bytes);
    if (counted[i] > 0) known.push_back(counted[i]);
  }
  if (known.empty() || 4 * known.size() < 3 * made.size()) return;
  const auto usual = static_cast<std::uint32_t>(detail::mode(known));
  for (std::size_t i = 0; i < made.size(); ++i)
    s.batches[made[i].batch].samples = counted[i] > 0 ? counted[i] : usual;
  s.stream_samples = true;
}

}  // namespace dlgen::analysis::stages
