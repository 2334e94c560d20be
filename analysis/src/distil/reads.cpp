// [reader] of a distilled job: how each file is read (requests, probe, header, learned recipe, a
// multi-sample file's sample reads) and the readers' times (start-up gap each pass, start-up
// spread of the accelerators, per-sample time, warm-up of fresh workers) (sections.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dlgen/core/units.hpp"
#include "fit.hpp"
#include "sections.hpp"
#include "stats.hpp"

namespace dlgen::analysis::sections {
namespace {

// reader.startup_spread: several accelerators on one host that begin each pass apart (DDP ranks
// each fork their DataLoader workers at every epoch start, on a shared host one after another).
// Per training pass after the first (the first holds the imports and the process group's
// rendezvous) and per host, the spread = the last accelerator's first read − the first one's.
// Written when its median is at least 5 ms (below: timer and scheduler noise), as the spreads
// themselves (exact values; their 20 quantiles above 20 passes × hosts).
void distil_startup_spread(JobWriter& x) {
  const TraceSummary& s = x.s;
  std::vector<double> spreads;
  for (std::size_t pi = 1; pi < s.accelerator_starts_s.size() && pi < s.epochs.size(); ++pi) {
    if (s.epochs[pi].evaluation) continue;
    std::map<std::uint32_t, std::pair<double, double>> range;  // host → first, last start
    std::map<std::uint32_t, int> started;
    const auto& starts = s.accelerator_starts_s[pi];
    for (std::size_t a = 0; a < starts.size() && a < s.accelerators.size(); ++a) {
      if (starts[a] < 0) continue;
      const std::uint32_t h = s.accelerators[a].host;
      auto [it, fresh] = range.try_emplace(h, starts[a], starts[a]);
      if (!fresh)
        it->second = {std::min(it->second.first, starts[a]),
                      std::max(it->second.second, starts[a])};
      ++started[h];
    }
    for (const auto& [h, r] : range)
      if (started[h] >= 2) spreads.push_back(r.second - r.first);
  }
  if (spreads.empty()) return;
  std::sort(spreads.begin(), spreads.end());
  const double median = detail::percentile(spreads, 0.5);
  std::string values;
  for (std::size_t i = 0; i < spreads.size() && i < 8; ++i)
    values += (i ? ", " : "") + format_duration(spreads[i]);
  if (spreads.size() > 8) values += ", ...";
  const std::string evidence = "the accelerators of a host began " +
                               std::to_string(spreads.size()) +
                               " pass(es) after the first this far apart (last one's first read "
                               "- first one's): " +
                               values;
  if (median < 0.005) {
    x.evidence("reader.startup_spread", evidence + ": together (under 5 ms)");
    return;
  }
  auto ms = [](double seconds) { return std::round(seconds * 1e3) / 1e3; };  // 1 ms resolution
  Distribution d;
  if (spreads.size() == 1) {
    d = Distribution::fixed_at(ms(spreads[0]));
  } else {
    d.kind = DistKind::histogram;
    const std::size_t n = std::min<std::size_t>(spreads.size(), 20);
    for (std::size_t i = 0; i < n; ++i) {
      const double v = ms(spreads.size() <= 20
                              ? spreads[i]
                              : detail::percentile(spreads, (static_cast<double>(i) + 0.5) / 20.0));
      if (!d.bins.empty() && d.bins.back().lo == v)
        d.bins.back().weight += 1.0;
      else
        d.bins.push_back({v, v, 1.0});
    }
  }
  x.out.job.reader.startup_spread = d;
  x.evidence("reader.startup_spread",
             evidence + ": each one forks its DataLoader workers at every epoch start (DDP ranks)");
}

// reader.shuffle_block: samples of a multi-sample file shuffled in blocks of consecutive ones
// (OrderSummary::block_samples, stages/sample_blocks.cpp).
void shuffle_block(JobWriter& x, const DatasetSummary& d) {
  const std::uint32_t n = d.order.block_samples;
  if (n == 0) return;
  x.out.job.reader.shuffle_block = n;
  x.evidence("reader.shuffle",
             "blocks of consecutive samples of one file in a random order, reshuffled each epoch");
  x.evidence("reader.shuffle_block",
             "each reader read runs of consecutive samples of one file that began and ended on a "
             "grid of " +
                 std::to_string(n) +
                 " samples (9 in 10 runs or more): a sampler handing out blocks of " +
                 std::to_string(n) + " records");
}

// reader.stream_granule and stream_tail: a stream read in bursts (request_size 0: a streamed
// HTTP body's reads, one a burst) ends each burst on the reader's granule, and a shard's archive
// end may come as a read of its own (StreamReads, stages/stream_reads.cpp). A stream read in
// request_size fills ends on them already: neither is written.
void stream_keys(JobWriter& x, const DatasetSummary& d) {
  auto& r = x.out.job.reader;
  const StreamReads& st = d.stream;
  if (r.request_size_bytes > 0 || st.granule_bytes == 0) return;
  auto of = [](std::uint64_t n, std::uint64_t all) {
    return std::to_string(n) + " of " + std::to_string(all);
  };
  r.stream_granule_bytes = st.granule_bytes;
  x.evidence("reader.stream_granule",
             of(st.granule_reads, st.inner_reads) +
                 " reads inside shard accesses (neither a shard's first nor its last) are whole "
                 "multiples of " +
                 format_size(st.granule_bytes) +
                 ": each burst before a handover ends on the reader's own granule (a socket's or "
                 "a buffer's reads), not at a batch's last sample");
  if (st.head_bytes > 0) {
    r.stream_head_bytes = st.head_bytes;
    x.evidence("reader.stream_head",
               of(st.head_reads, st.inner_reads) + " of those reads end " +
                   std::to_string(st.head_bytes) + " B short of a multiple of " +
                   format_size(st.granule_bytes) +
                   " from the shard's start: the granule's reads began that many bytes before "
                   "the shard (an HTTP response's head came in the first)");
  }
  if (st.tail_bytes == 0) return;
  r.stream_tail_bytes = st.tail_bytes;
  x.evidence("reader.stream_tail", of(st.tails, st.accesses) +
                                       " shard accesses ended in a read of their own, shorter "
                                       "than the granule, to the shard's end (median " +
                                       format_size(st.tail_bytes) +
                                       "): the archive's end after the last sample (tar's "
                                       "end-of-archive blocks and record padding)");
}

// reader.read, request_size, probe, header_read: the read pattern most files of the training set
// share.
void request_keys(JobWriter& x, const DatasetSummary& d) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  const auto& rp = d.read;
  r.read_unit = s.stream_shards ? ReadUnit::stream : ReadUnit::file;
  if (s.stream_shards)
    x.evidence(
        "reader.read",
        "batches were handed over while a file was still open, or after it from samples read "
        "ahead: each worker streams its own shards front to back (tar/WebDataset or record "
        "files through a buffer)");
  r.request_size_bytes = rp.request_bytes;
  const std::string per_file = fmt("%.1f", rp.reads_per_access) + " data-moving reads per file";
  if (rp.request_bytes)
    x.evidence("reader.request_size", per_file + "; " + format_size(rp.request_bytes) +
                                          " requests carry most bytes (files read in chunks)");
  else
    x.evidence("reader.request_size",
               per_file + ": " + (rp.header_bytes ? "data after the header" : "whole file") +
                   " in one request");
  if (s.stream_shards) stream_keys(x, d);
  r.header_read_bytes = rp.header_bytes;
  // A probe (read at 0, then the file again from the start) is a whole-file reader's; a stream's
  // first read of a shard is its first buffer fill.
  r.probe_bytes = s.stream_shards ? 0 : rp.probe_bytes;
  if (r.probe_bytes)
    x.evidence(
        "reader.probe",
        "most files are first read " + format_size(rp.probe_bytes) +
            " at offset 0, then again from the start (numpy.load's magic probe and seek back)");
  if (rp.header_bytes)
    x.evidence("reader.header_read", "most files' first read is " + format_size(rp.header_bytes) +
                                         ", then the data follows (format header/metadata)");
}

// A start-up gap as the job keeps it: 1 ms resolution, 0 below 5 ms.
double startup_rounded(double seconds) {
  const double st = std::round(seconds * 1000.0) / 1000.0;
  return st >= 0.005 ? st : 0.0;
}

// "N training passes after the first (lo..hi)": the gaps before the passes of one kind.
std::string gaps_text(const TraceSummary& s, bool evaluation, bool both) {
  std::vector<double> gaps;
  for (std::size_t i = 0; i < s.pass_startup_s.size() && i + 1 < s.epochs.size(); ++i)
    if (!both || s.epochs[i + 1].evaluation == evaluation) gaps.push_back(s.pass_startup_s[i]);
  if (gaps.empty()) return "0 passes";
  const auto [lo, hi] = std::minmax_element(gaps.begin(), gaps.end());
  return std::to_string(gaps.size()) +
         (both ? (evaluation ? " evaluation" : " training") : std::string()) +
         " passes after the first (" + format_duration(*lo) + ".." + format_duration(*hi) + ")";
}

// Start-up gap at each epoch: PyTorch re-forks DataLoader workers each epoch (the default
// persistent_workers=False); measured from the last step (or checkpoint) before a pass to its
// first read, median over passes after the first (the first one holds the imports). Training and
// evaluation passes apart (their DataLoaders start up unlike each other): reader.eval_startup when
// the evaluation passes' median differs from the training passes' by 5 ms or more.
void startup_gap(JobWriter& x) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  if (s.pass_startup_s.empty()) {
    x.evidence("reader.startup", "one pass: no gap between passes to measure");
    return;
  }
  const bool both = s.eval_startup_apart;
  r.startup_s = startup_rounded(s.startup_s);
  const std::string first = s.dataset_in_memory ? "first batch" : "first read";
  std::string text = "median gap before a pass's " + first + " over " + gaps_text(s, false, both) +
                     ", after the previous step or checkpoint" +
                     (r.startup_s > 0 ? ": worker start-up each epoch" : ": none");
  if (both) {
    const double e = startup_rounded(s.eval_startup_s);
    const std::string eval = "median gap " + format_duration(s.eval_startup_s) +
                             " before the " + first + " of " + gaps_text(s, true, both);
    if (std::fabs(e - r.startup_s) >= 0.005 - 1e-9) {
      r.eval_startup_s = e;
      x.evidence("reader.eval_startup",
                 eval + ": the evaluation loader's own start-up, apart from training's");
    } else {
      text += "; " + eval + ", within 5 ms of it";
    }
  }
  x.evidence("reader.startup", text);
}

// Per-sample worker time (decode/augmentation): median gap between a sample's last read and the
// same reader's next sample open; replayed only when clearly above syscall noise (0.2 ms). A
// stream whose samples were counted opens shards, not samples: those gaps fall between shards.
void preprocess_time(JobWriter& x) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  if (s.stream_samples && s.preprocess_s > 0.0002)
    x.evidence("reader.preprocess",
               "not inferred: a stream's reads show no sample boundaries (the gaps between a "
               "file's last read and the next file's open, " +
                   format_duration(s.preprocess_s) + " median, fall between shards)");
  else if (s.preprocess_gaps_s.size() >= 3 && s.preprocess_s > 0.0002) {
    std::string skew_why;
    auto h = skewed_times(s.preprocess_gaps_s, &skew_why);
    r.preprocess = h ? *h : Distribution::fixed_at(std::round(s.preprocess_s * 1e5) / 1e5);
    x.evidence("reader.preprocess",
               "median gap between a sample's last read and the reader's next sample over " +
                   std::to_string(s.preprocess_gaps_s.size()) +
                   " samples (handover gaps left out): per-sample decode/transform time" +
                   (skew_why.empty() ? "" : "; " + skew_why));
  }
  if (!s.stream_samples && !s.worker_pace.empty() && r.preprocess.expected() > 0) {
    r.worker_pace = s.worker_pace;
    x.evidence("reader.worker_pace",
               "the workers of a pass did not process their samples at one speed: each one's mean "
               "per-sample time over its pass's mean (passes after the first), beyond the means' "
               "sampling noise; the slowest took " +
                   fmt("%.0f%%", (s.worker_pace.back() - 1) * 100) + " longer than their mean");
  }
  // Per-batch worker time (collate), as preprocess: above 0.2 ms, fixed at the median (the
  // batches whose worker waited for its next indices are left out by summarize).
  if (s.collate_times_s.size() >= 3 && s.collate_s > 0.0002) {
    r.collate = Distribution::fixed_at(std::round(s.collate_s * 1e5) / 1e5);
    x.evidence("reader.collate",
               "median time from a worker's first handover event of a batch to its read of its "
               "next indices, over " +
                   std::to_string(s.collate_times_s.size()) +
                   " batches (those whose indices arrived within 2 ms before that read left out: "
                   "the worker waited for them): collating the samples into a shared-memory "
                   "tensor and sending it");
  }
}

// Warm-up of fresh workers, paid once per worker per pass, delaying the pass's first batch. With
// batch receipts: a pass's first batch reached the consumer (median over passes x accelerators)
// later than the replay's would without it: reading a batch (batch x the typical sample span)
// and the consumer's own per-batch cost, which the replay spends anyway. This holds everything a
// fresh worker pays once: imports, the library's first open, the first sample's decoder set-up,
// the queue's feeder thread, the consumer's connection for the batch's descriptors. Without
// receipts: the first sample's span over the typical one, when clear (5 ms).
void warmup_time(JobWriter& x) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  // A stream's spans are its files' (a file holds samples_per_file samples).
  const double per_sample =
      s.sample_span_s /
      (s.stream_shards ? std::max<std::uint32_t>(1, x.out.job.dataset.samples_per_file) : 1);
  const double batch_read = static_cast<double>(r.batch_size) * per_sample;
  double warmup = 0;
  std::string why;
  if (!s.first_batch_s.empty()) {
    const double first = detail::percentile(s.first_batch_s, 0.5);
    warmup = first - batch_read - s.consumer_time.p50;
    why = "a pass's first batch reached the consumer " + format_duration(first) +
          " after its readers' first read (median over " + std::to_string(s.first_batch_s.size()) +
          " passes x accelerators), against " + format_duration(batch_read) + " to read a batch (" +
          std::to_string(r.batch_size) + " x " + format_duration(per_sample) + " per sample) and " +
          format_duration(s.consumer_time.p50) + " to receive one later in the pass";
  } else if (s.first_sample_spans_s.size() >= 2 && s.sample_span_s > 0) {
    const double first = detail::percentile(s.first_sample_spans_s, 0.5);
    if (first - s.sample_span_s >= 0.005) warmup = first - s.sample_span_s;
    why = "a reader's first sample of a pass took " + format_duration(first) +
          " open to next open (median over " + std::to_string(s.first_sample_spans_s.size()) +
          " reader passes), the others " + format_duration(s.sample_span_s);
  }
  warmup = std::round(warmup * 1e4) / 1e4;
  if (warmup >= 0.001) {
    r.warmup_s = warmup;
    x.evidence("reader.warmup", why + ": a fresh worker's first-use costs");
  }
}

// Archive members read through a buffered file (zipfile over Python's 4 KiB buffer): most member
// runs start with a fill smaller than a member, so each member is read in whole fills from its
// header on, the last running past its end (reader.request_size and stream_granule).
void buffered_members(JobWriter& x, const SampleFile& sf) {
  if (sf.extents.empty() || sf.request < 512 || sf.request % 512 != 0 || sf.request >= sf.stride)
    return;
  auto& r = x.out.job.reader;
  r.request_size_bytes = r.stream_granule_bytes = sf.request;
  const std::string fill = format_size(sf.request);
  x.evidence("reader.request_size", "most members' reads begin with a " + fill +
                                        " request, less than a member (" +
                                        format_size(sf.stride) + " median): a buffered reader");
  x.evidence("reader.stream_granule", "a member is read in whole " + fill +
                                          " fills from its header on, the last past its end");
}

// reader.read of a multi-sample file's samples, or the learned per-file recipe (which then stands
// for request_size, header_read and probe), or a note that files were read only in part.
void file_reads(JobWriter& x, const DatasetSummary& d) {
  const TraceSummary& s = x.s;
  auto& r = x.out.job.reader;
  const auto& rp = d.read;
  if (x.sample_file) {
    // Samples of a big file: read each sample's byte range, in a shuffled order across the file.
    const SampleFile& sf = *x.sample_file;
    r.read_unit = ReadUnit::sample;
    x.evidence("reader.read", "a sample's byte range at a time from the multi-sample file");
    // A request larger than the sample is the loading library's read-ahead (HDF5's 64 KiB sieve
    // buffer): the replay reads as much from each sample's start.
    r.request_size_bytes = 0;
    r.readahead_bytes = sf.request > sf.stride ? sf.request : 0;
    x.evidence("reader.request_size", "one request per sample");
    buffered_members(x, sf);
    if (r.readahead_bytes)
      x.evidence(
          "reader.readahead",
          format_size(sf.request) +
              " read at each sample's offset: the loading library's read-ahead (more than the " +
              format_size(sf.stride) + " sample)");
    // A second, small read per sample elsewhere in the file (a label array, metadata): replayed
    // as a header read per sample.
    const bool aux =
        sf.sample_reads > 0 && sf.aux_reads * 2 >= sf.sample_reads && sf.aux_request > 0;
    r.header_read_bytes = aux ? sf.aux_request : 0;
    x.evidence("reader.header_read",
               aux ? "besides each sample, " +
                         fmt("%.2f", double(sf.aux_reads) / double(sf.sample_reads)) +
                         " reads of " + format_size(sf.aux_request) +
                         " elsewhere in the file per sample (labels, metadata)"
                   : "none: the file's header is read once, not per sample");
    if (r.shuffle == Shuffle::file) {
      r.shuffle = Shuffle::sample;
      x.evidence("reader.shuffle",
                 "samples of the file read in a random order, reshuffled each epoch");
      shuffle_block(x, d);
    }
  } else if (const LearnedRecipe& lr = d.recipe;
             !s.stream_shards && !lr.recipe.empty() && lr.share() >= 0.25) {
    // The learned per-file recipe (analysis/recipe.hpp) says what the per-library keys said, and
    // more: the order, offsets (from the start or the end) and sizes of each file's reads.
    r.recipe = lr.recipe;
    r.request_size_bytes = r.header_read_bytes = r.probe_bytes = 0;
    x.evidence("reader.recipe",
               "how each file was read, learned from the trace: " + std::to_string(lr.explained) +
                   " of " + std::to_string(lr.accesses) + " file accesses (" +
                   pct(double(lr.explained), double(lr.accesses)) +
                   ") read their file exactly this way" +
                   (lr.merged ? " or alike (the same steps, their offsets and lengths the "
                                "commonest of theirs)"
                              : "") +
                   "; " + std::to_string(lr.templates) + " distinct patterns seen");
    for (const char* k : {"reader.request_size", "reader.header_read", "reader.probe"})
      x.evidence(k, "0: reader.recipe says how files are read");
  } else if (!rp.whole_file) {
    x.note("reader.read: only " + pct(rp.coverage, 1.0) +
           " of each file is read per access; the job reads whole files");
  }
}

}  // namespace

// [reader]: how each file is read (requests, probe, header), start-up, per-sample and warm-up
// times, O_DIRECT, and a multi-sample file's sample reads.
void distil_requests(JobWriter& x, const DatasetSummary& d) {
  auto& r = x.out.job.reader;
  const auto& rp = d.read;
  request_keys(x, d);
  startup_gap(x);
  distil_startup_spread(x);
  preprocess_time(x);
  warmup_time(x);
  r.direct = rp.direct;
  x.evidence("reader.direct",
             rp.direct ? "files opened with O_DIRECT" : "buffered reads (no O_DIRECT)");
  if (rp.mmap) x.note("reader: the files were memory-mapped; the replay reads them instead");
  file_reads(x, d);
}

}  // namespace dlgen::analysis::sections
