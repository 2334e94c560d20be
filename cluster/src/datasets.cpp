#include "dlgen/cluster/datasets.hpp"

#include <atomic>

#include "dlgen/core/storage_location.hpp"
#include "dlgen/generator/generator.hpp"

namespace dlgen::cluster {

bool dataset_ready(Cluster& cluster, const DatasetSpec& spec) {
  const bool root = cluster.rank() == 0;
  return from_rank0<std::uint8_t>(cluster, root && generator::dataset_ready(spec) ? 1 : 0) != 0;
}

Result<DatasetWrite> write_dataset(Cluster& cluster, const DatasetSpec& spec, bool progress,
                                   std::string_view engine) {
  // The generator writes local directories: a URL must never become a folder named "s3:".
  if (Result<std::filesystem::path> d = local_dir(spec.dir, "dataset.dir", "the dataset generator");
      !d)
    return d.error();
  const bool root = cluster.rank() == 0;
  generator::GenerateOptions go;
  go.engine = engine;
  go.progress = root && progress;
  std::atomic<std::uint64_t> written{0};  // the watchdog's sign of life while this rank writes
  go.written = &written;
  const ProgressScope alive(&cluster, [&written] { return written.load(); });

  // Rank 0 decides, under the directory's lock it holds until the manifest is written.
  Result<generator::PreparedDataset> prepared = generator::PreparedDataset{};
  if (root) prepared = generator::begin_dataset(spec, go);
  if (Result<void> s = agree(cluster, prepared ? ok() : Result<void>(prepared.error())); !s)
    return s.error();
  struct Decision {
    std::uint8_t reused, resume;
    double seconds;
  };
  const Decision decision =
      from_rank0(cluster, Decision{static_cast<std::uint8_t>(prepared->reused),
                                   static_cast<std::uint8_t>(prepared->resume), prepared->seconds});
  DatasetWrite out;
  if (decision.reused) {
    out.reused = true;
    out.seconds = decision.seconds;
    return out;
  }

  // Every rank its share; then rank 0 the manifest, once all have written.
  Result<generator::GenerateReport> g = generator::write_dataset_share(
      spec, decision.resume != 0, {cluster.rank(), cluster.size()}, go);
  if (Result<void> s = agree(cluster, g ? ok() : Result<void>(g.error())); !s) return s.error();
  Result<void> finished = root ? generator::finish_dataset(spec, *prepared) : ok();
  if (Result<void> s = agree(cluster, finished); !s) return s.error();
  out.files = all_sum(cluster, g->files_written);
  out.bytes = all_sum(cluster, g->bytes_written);
  out.seconds = decision.seconds + all_max(cluster, g->seconds);
  return out;
}

}  // namespace dlgen::cluster
