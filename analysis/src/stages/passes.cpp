// passes: the epochs and evaluation passes, and per dataset how its files are read (read pattern)
// and in which order (order statistics).
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "stages.hpp"
#include "stats.hpp"

namespace dlgen::analysis::stages {

Passes find_passes(const Classified& c, const std::vector<Access>& accesses, const Readers& r) {
  Passes s;
  s.workers.resize(r.accelerators.size());
  // Each pass's head is its first access (accesses are in start order, passes numbered in it).
  for (const auto& a : accesses) {
    if (a.pass < static_cast<std::int32_t>(s.epochs.size())) continue;
    EpochSummary e;
    e.dataset = a.dataset;
    e.start_ns = a.ts;
    s.epochs.push_back(e);
  }
  // A pass that reads the validation set is an evaluation, whatever it read first (nanoGPT's
  // estimate_loss reads training batches first: evaluation_reads_of_training).
  for (const auto& a : accesses)
    if (c.datasets[a.dataset].cls == FileClass::validation) s.epochs[a.pass].dataset = a.dataset;
  std::uint32_t train_index = 0, eval_index = 0;
  for (auto& e : s.epochs) {
    e.evaluation = c.datasets[e.dataset].cls == FileClass::validation;
    e.index = e.evaluation ? eval_index++ : train_index++;
  }
  std::vector<std::set<std::uint32_t>> readers(s.epochs.size()), uniq(s.epochs.size());
  for (const auto& a : accesses) {
    auto& e = s.epochs[a.pass];
    e.end_ns = std::max(e.end_ns, a.end);
    ++e.accesses;
    e.bytes_read += a.bytes;
    e.read_ops += a.reads;
    if (!e.read_counts.count(a.rank)) e.order.push_back(a.rank);
    ++e.read_counts[a.rank];
    readers[a.pass].insert(a.reader);
    uniq[a.pass].insert(a.file);
  }
  for (std::size_t i = 0; i < s.epochs.size(); ++i) {
    s.epochs[i].reader_count = static_cast<std::uint32_t>(readers[i].size());
    s.epochs[i].unique_files = uniq[i].size();
  }
  // Workers per accelerator: the median number of its readers active in a training pass.
  for (std::size_t ai = 0; ai < r.accelerators.size(); ++ai) {
    std::vector<double> counts;
    for (std::size_t pi = 0; pi < s.epochs.size(); ++pi) {
      if (s.epochs[pi].evaluation) continue;
      std::set<std::uint32_t> rs;
      for (const auto& a : accesses)
        if (a.pass == static_cast<std::int32_t>(pi) && r.accel_of_reader(a.reader) == ai)
          rs.insert(a.reader);
      if (!rs.empty()) counts.push_back(static_cast<double>(rs.size()));
    }
    s.workers[ai] = static_cast<std::uint32_t>(std::lround(detail::percentile(counts, 0.5)));
  }
  return s;
}

namespace {

// How the multi-read accesses of dataset `di` (`d`) split their requests: a probe read first, a
// header, and the request size that carries most bytes. first_sizes: first read size asked →
// accesses (of those with ≥ 2 reads, `multi` of them).
void request_shape(const DatasetSummary& d, const std::vector<Access>& accesses, std::size_t di,
                   std::map<std::uint64_t, std::uint64_t> first_sizes, std::uint64_t multi,
                   ReadPattern& rp) {
  // Probe: most multi-read accesses read at offset 0, then start again inside what they read
  // (numpy.load: a 4 KiB buffered read of the magic, a seek back, the header, the data). That
  // first read is set apart, and the rest is analysed as the access's reads.
  auto probed = [](const Access& a) {
    return a.offsets.size() >= 3 && a.offsets[0] == 0 && a.offsets[1] < a.moved[0];
  };
  std::map<std::uint64_t, std::uint64_t> probe_sizes;
  std::uint64_t n_probed = 0;
  for (const auto& a : accesses)
    if (a.dataset == static_cast<std::int32_t>(di) && a.reads >= 2 && probed(a))
      ++probe_sizes[a.sizes[0]], ++n_probed;
  const bool probing = n_probed * 10 >= multi * 6 && n_probed > 0;
  if (probing) {
    std::uint64_t c = 0;
    for (auto [sz, k] : probe_sizes)
      if (k > c) rp.probe_bytes = sz, c = k;
    first_sizes.clear();
    for (const auto& a : accesses)
      if (a.dataset == static_cast<std::int32_t>(di) && a.reads >= 2)
        ++first_sizes[probed(a) ? a.sizes[1] : a.first_read];
  }
  auto skip_of = [&](const Access& a) -> std::size_t { return probing && probed(a) ? 1 : 0; };
  // The request size (asked) that moved the most bytes, over each access's reads from `skip`
  // on.
  auto dominant = [&](std::size_t skip, std::uint64_t* share_total) {
    std::map<std::uint64_t, std::uint64_t> by_size;
    std::uint64_t total = 0;
    for (const auto& a : accesses) {
      if (a.dataset != static_cast<std::int32_t>(di)) continue;
      for (std::size_t i = skip + skip_of(a); i < a.sizes.size(); ++i)
        by_size[a.sizes[i]] += a.moved[i], total += a.moved[i];
    }
    std::uint64_t best = 0, best_bytes = 0;
    for (auto [sz, b] : by_size)
      if (b > best_bytes) best = sz, best_bytes = b;
    *share_total = total;
    return std::make_pair(best, best_bytes);
  };
  // Header: most multi-read accesses start with the same small read (PIL's 4 KiB buffered
  // header parse, numpy.load's magic+header, h5py's superblock), then the data follows.
  std::uint64_t header = 0, header_count = 0;
  for (auto [sz, c] : first_sizes)
    if (c > header_count) header = sz, header_count = c;
  const bool header_like = header_count * 10 >= multi * 6 && header > 0 && header <= 65536 &&
                           static_cast<double>(header) < d.size.p50 / 4;
  std::uint64_t total = 0;
  auto [best, best_bytes] = dominant(header_like ? 1 : 0, &total);
  if (header_like && best != header) {
    rp.header_bytes = header;
  } else {
    std::tie(best, best_bytes) = dominant(0, &total);  // every read is a chunk of one size
  }
  // Chunked: one size carries most data and some file needs more than one request of it
  // (a size at least the largest file is the same as "rest in one request").
  if (best > 0 && best_bytes * 2 >= total && static_cast<double>(best) < d.size.max)
    rp.request_bytes = best;
}

// Dataset `di`'s reads: their count and bytes, the histogram of bytes moved, the learned recipe,
// and the read pattern (reads per access, coverage, O_DIRECT, mmap, request shape).
void dataset_reads(const Classified& c, const std::vector<Access>& accesses, std::size_t di,
                   DatasetReads& out) {
  const auto& d = c.datasets[di];
  auto& pd = out.datasets[di];
  auto& rp = pd.read;
  std::vector<double> reads, coverage;
  std::uint64_t n = 0, direct = 0, mapped = 0;
  // First read size asked → accesses, over the accesses with ≥ 2 reads (`multi` of them).
  std::map<std::uint64_t, std::uint64_t> first_sizes;
  std::uint64_t multi = 0;
  for (const auto& a : accesses) {
    if (a.dataset != static_cast<std::int32_t>(di)) continue;
    ++n;
    pd.bytes_read += a.bytes;
    reads.push_back(static_cast<double>(a.reads));
    const auto fsize = c.files[a.file].size_bytes;
    coverage.push_back(
        fsize ? std::min(1.0, static_cast<double>(a.bytes) / static_cast<double>(fsize)) : 1.0);
    if (a.reads >= 2) ++first_sizes[a.first_read], ++multi;
    direct += a.direct;
    mapped += a.mmap;
    // Histogram of bytes moved, not asked: Python asks a full chunk at the end of a file
    // (PIL's read(61440) returning the last 39 KiB) and a replay asks only what is left; the
    // storage sees the same request either way.
    for (auto got : a.moved) {
      ++rp.request_sizes[got];
      ++out.request_sizes[got];
    }
    out.dataset_bytes_read += a.bytes;
    out.dataset_read_ops += a.reads;
  }
  pd.accesses = n;
  if (n == 0) return;
  std::vector<AccessReads> in;  // each access's reads, for the recipe learner (recipe.hpp)
  for (const auto& a : accesses) {
    if (a.dataset != static_cast<std::int32_t>(di)) continue;
    AccessReads& ar = in.emplace_back();
    ar.file_size = c.files[a.file].size_bytes;
    for (std::size_t k = 0; k < a.offsets.size(); ++k)
      ar.reads.push_back({a.offsets[k], a.sizes[k], a.moved[k]});
  }
  pd.recipe = learn_recipe(in);
  rp.reads_per_access = std::accumulate(reads.begin(), reads.end(), 0.0) / static_cast<double>(n);
  rp.coverage = std::accumulate(coverage.begin(), coverage.end(), 0.0) / static_cast<double>(n);
  rp.whole_file = detail::percentile(coverage, 0.5) >= 0.9;
  rp.direct = direct * 2 > n;
  rp.mmap = mapped * 2 > n;
  if (detail::percentile(reads, 0.5) < 2) return;  // one request per file
  request_shape(d, accesses, di, std::move(first_sizes), multi, rp);
}

}  // namespace

DatasetReads read_patterns(const Classified& c, const std::vector<Access>& accesses) {
  DatasetReads out;
  out.datasets.resize(c.datasets.size());
  for (std::size_t di = 0; di < c.datasets.size(); ++di) dataset_reads(c, accesses, di, out);
  return out;
}

std::vector<OrderSummary> order_stats(const Classified& c, const std::vector<Access>& accesses,
                                      const Passes& p) {
  std::vector<OrderSummary> out(c.datasets.size());
  for (std::size_t di = 0; di < c.datasets.size(); ++di) {
    auto& o = out[di];
    std::vector<double> rhos, zs, ascs, sds, cross;
    std::vector<std::size_t> passes;
    o.each_file_once = true;
    for (std::size_t pi = 0; pi < p.epochs.size(); ++pi) {
      const auto& e = p.epochs[pi];
      if (e.dataset != static_cast<std::int32_t>(di)) continue;
      passes.push_back(pi);
      for (auto [r, c] : e.read_counts)
        if (c > 1) o.each_file_once = false;
      const auto n = e.order.size();
      if (n < 8) continue;
      std::vector<double> pos(n), rk(n);
      for (std::size_t i = 0; i < n; ++i) pos[i] = static_cast<double>(i), rk[i] = e.order[i];
      const double rho = detail::spearman(pos, rk);
      rhos.push_back(rho);
      zs.push_back(rho * std::sqrt(static_cast<double>(n - 1)));
      // Displacement from path order, using ranks within this pass (subset-safe).
      std::vector<std::uint32_t> sorted = e.order;
      std::sort(sorted.begin(), sorted.end());
      std::vector<double> disp;
      for (std::size_t i = 0; i < n; ++i) {
        const auto r = std::lower_bound(sorted.begin(), sorted.end(), e.order[i]) - sorted.begin();
        disp.push_back(static_cast<double>(i) - static_cast<double>(r));
      }
      sds.push_back(detail::make_stats(disp).stdev);
      // Per reader: fraction of consecutive first reads in increasing path order.
      std::map<std::uint32_t, std::uint32_t> last;
      std::uint64_t up = 0, pairs = 0;
      std::set<std::uint32_t> first_seen;
      for (const auto& a : accesses) {
        if (a.pass != static_cast<std::int32_t>(pi) || !first_seen.insert(a.rank).second) continue;
        auto it = last.find(a.reader);
        if (it != last.end()) {
          ++pairs;
          up += a.rank > it->second;
        }
        last[a.reader] = a.rank;
      }
      if (pairs) ascs.push_back(static_cast<double>(up) / static_cast<double>(pairs));
    }
    // Cross-pass: positions of common files in consecutive passes.
    for (std::size_t k = 1; k < passes.size(); ++k) {
      const auto& a = p.epochs[passes[k - 1]].order;
      const auto& b = p.epochs[passes[k]].order;
      std::map<std::uint32_t, double> pa;
      for (std::size_t i = 0; i < a.size(); ++i) pa[a[i]] = static_cast<double>(i);
      std::vector<double> x, y;
      for (std::size_t i = 0; i < b.size(); ++i)
        if (pa.count(b[i])) x.push_back(pa[b[i]]), y.push_back(static_cast<double>(i));
      if (x.size() >= 8) cross.push_back(detail::spearman(x, y));
    }
    auto mean = [](const std::vector<double>& v) {
      return v.empty() ? 0.0
                       : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    };
    if (rhos.empty()) continue;
    o.spearman = mean(rhos);
    o.spearman_z = mean(zs);
    o.ascending_fraction = mean(ascs);
    o.cross_epoch_spearman = cross.empty() ? 1.0 : mean(cross);
    if (o.spearman >= 0.9 && o.ascending_fraction >= 0.9) {
      o.kind = OrderKind::sequential;
    } else if (std::fabs(o.spearman_z) < 3.0) {
      o.kind = OrderKind::shuffled;
    } else if (o.spearman > 0 && o.ascending_fraction < 0.8) {
      o.kind = OrderKind::buffer_shuffled;
      o.buffer_estimate = static_cast<std::uint64_t>(std::lround(mean(sds)));
    } else {
      o.kind = OrderKind::unknown;
    }
    o.reshuffled =
        !cross.empty() && o.cross_epoch_spearman < 0.9 && o.kind != OrderKind::sequential;
  }
  return out;
}

}  // namespace dlgen::analysis::stages
