// The HDF5 trace writer (format: h5_schema.hpp, docs/trace-format.md): whole traces
// (write_trace) and the streaming TraceWriter that the capture appends to in chunks.
// Crash safety: the writer touches the file only inside flush()/finish() (and when its in-memory
// buffer grows past kAutoWriteEvents, followed at once by H5Fflush), so a capture killed between
// flushes leaves the state of the last flush. The reader takes the shortest /events column as the
// event count, so a kill in the middle of an append still reads back consistently.
#include <hdf5.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "chunk_writer.hpp"
#include "dlgen/trace/trace_io.hpp"
#include "h5.hpp"
#include "h5_schema.hpp"
#include "h5_table.hpp"

namespace dlgen::trace {
namespace {

using h5::comm_type;
using h5::create_column;
using h5::kCommLen;
using h5::set_attr;
using h5::set_attr_string;
using h5::set_attr_strings;
using h5::vlen_string_type;
using h5::write_rows;
using namespace schema;

constexpr std::size_t kAutoWriteEvents = 1 << 18;

Error h5_error(const std::filesystem::path& path, const std::string& what) {
  return runtime_error(path.string() + ": " + what);
}

class H5TraceWriter final : public TraceWriter {
 public:
  static Result<std::unique_ptr<H5TraceWriter>> open(const std::filesystem::path& path) {
    h5::QuietErrors quiet;
    auto w = std::unique_ptr<H5TraceWriter>(new H5TraceWriter(path));
    w->file_ = h5::file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    if (!w->file_.valid()) return h5_error(path, "cannot create trace file");
    w->events_ = h5::group(H5Gcreate2(w->file_, "events", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    w->files_ = h5::group(H5Gcreate2(w->file_, "files", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    w->procs_ = h5::group(H5Gcreate2(w->file_, "processes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!w->events_.valid() || !w->files_.valid() || !w->procs_.valid())
      return h5_error(path, "cannot create groups");
    bool ok = true;
    for (const auto& c : event_columns())
      ok &= create_column(w->events_, c.name, c.file_type, kChunk, true).valid();
    for (const auto& c : event_columns()) {
      w->columns_.push_back(h5::dataset(H5Dopen2(w->events_, c.name, H5P_DEFAULT)));
      ok &= w->columns_.back().valid();
      if (ok) w->chunks_.emplace_back(w->columns_.back(), H5Tget_size(c.file_type), true, kChunk);
    }
    ok &= set_attr<std::uint64_t>(w->events_, "ts_unit_ns", kTsUnitNs);
    ok &= set_attr<std::uint32_t>(w->events_, "dur_significant_bits", kDurSignificantBits);
    h5::Handle vs = vlen_string_type(), cs = comm_type();
    ok &= create_column(w->files_, "path", vs, kTableChunk).valid();
    for (const char* n : {"dev", "ino", "size_at_open", "magic"})
      ok &= create_column(w->files_, n, H5T_STD_U64LE, kTableChunk).valid();
    ok &= create_column(w->files_, "magic_len", H5T_STD_U8LE, kTableChunk).valid();
    for (const char* n : {"pid", "tgid", "ppid"})
      ok &= create_column(w->procs_, n, H5T_STD_U32LE, kTableChunk).valid();
    ok &= create_column(w->procs_, "comm", cs, kTableChunk).valid();
    ok &= create_column(w->procs_, "first_comm", cs, kTableChunk).valid();
    ok &= create_column(w->procs_, "start_ns", H5T_STD_U64LE, kTableChunk).valid();
    ok &= create_column(w->procs_, "end_ns", H5T_STD_U64LE, kTableChunk).valid();
    ok &= create_column(w->procs_, "exit_code", H5T_STD_I32LE, kTableChunk).valid();
    ok &= create_column(w->procs_, "is_thread", H5T_STD_U8LE, kTableChunk).valid();
    if (!ok) return h5_error(path, "cannot create datasets");
    Meta m;
    m.complete = false;
    if (!w->write_meta(m) || H5Fflush(w->file_, H5F_SCOPE_GLOBAL) < 0)
      return h5_error(path, "cannot write metadata");
    return w;
  }

  ~H5TraceWriter() override {
    if (file_.valid() && !finished_) {
      h5::QuietErrors quiet;
      Meta m = last_meta_;
      m.complete = false;
      (void)flush_all(m, last_files_, last_procs_);
    }
  }

  Result<void> append(const std::vector<Event>& events) override {
    if (finished_) return h5_error(path_, "append after finish");
    pending_.insert(pending_.end(), events.begin(), events.end());
    if (pending_.size() >= kAutoWriteEvents) {
      h5::QuietErrors quiet;
      if (!write_pending(false) || H5Fflush(file_, H5F_SCOPE_GLOBAL) < 0)
        return h5_error(path_, "cannot write events");
    }
    return ok();
  }

  Result<void> append_http(std::vector<HttpRequest> rows) override {
    if (finished_) return h5_error(path_, "append after finish");
    http_pending_.insert(http_pending_.end(), std::make_move_iterator(rows.begin()),
                         std::make_move_iterator(rows.end()));
    return ok();
  }

  Result<void> flush(const Meta& meta, const std::vector<File>& files,
                     const std::vector<Process>& processes) override {
    if (finished_) return h5_error(path_, "flush after finish");
    h5::QuietErrors quiet;
    last_meta_ = meta;
    last_files_ = files;
    last_procs_ = processes;
    Meta m = meta;
    m.complete = false;
    if (!flush_all(m, files, processes)) return h5_error(path_, "cannot flush trace");
    return ok();
  }

  Result<void> finish(const Meta& meta, const std::vector<File>& files,
                      const std::vector<Process>& processes) override {
    if (finished_) return h5_error(path_, "finish called twice");
    h5::QuietErrors quiet;
    finished_ = true;
    bool good = flush_all(meta, files, processes, true);
    chunks_.clear();
    columns_.clear();  // every object must be closed, or H5Fclose leaves the file open
    events_.reset();
    files_.reset();
    procs_.reset();
    http_.reset();
    http_body_.reset();
    good &= H5Fclose(file_.get()) >= 0;
    file_ = h5::Handle();
    if (!good) return h5_error(path_, "cannot finish trace");
    return ok();
  }

  // Writes events straight from the caller's storage (write_trace), no copy.
  bool write_events(const Event* ev, std::size_t n) {
    for (std::size_t done = 0; done < n;) {
      std::size_t k = std::min<std::size_t>(n - done, kChunk * 4);
      const Event* block = ev + done;
      group_by_thread(block, k, order_);
      cols_.fill(block, order_, last_q_, last_end_);
      auto vs = cols_.views();
      hsize_t total = written_ + k;
      for (std::size_t c = 0; c < vs.size(); ++c)
        if (H5Dset_extent(columns_[c], &total) < 0 ||
            !chunks_[c].append(vs[c].second, k, deflater_))
          return false;
      written_ = total;
      done += k;
    }
    return true;
  }

 private:
  explicit H5TraceWriter(std::filesystem::path p) : path_(std::move(p)) {}

  // Writes the buffered events and the columns' incomplete last chunks (compressed if `final`).
  bool write_pending(bool final) {
    bool good = write_events(pending_.data(), pending_.size());
    pending_.clear();
    for (auto& c : chunks_) good &= c.write_partial(deflater_, final);
    return good;
  }

  bool flush_all(const Meta& meta, const std::vector<File>& files,
                 const std::vector<Process>& procs, bool final = false) {
    bool good = write_pending(final);
    good &= write_files(files);
    good &= write_processes(procs);
    good &= write_http();
    good &= write_meta(meta);
    good &= H5Fflush(file_, H5F_SCOPE_GLOBAL) >= 0;
    return good;
  }

  // Paths never change once interned, so only new rows are written (variable-length strings
  // rewritten in place would leak heap space on every flush). Numeric columns are written from
  // the first row that changed since the last flush (a capture with thousands of files flushes
  // every 2 s; rewriting, i.e. recompressing, all rows each time was most of its idle CPU).
  bool write_files(const std::vector<File>& files) {
    const hsize_t n = files.size();
    hsize_t first = std::min<hsize_t>(fdev_.size(), n);
    for (hsize_t i = 0; i < first; ++i) {
      const File& f = files[i];
      if (f.dev != fdev_[i] || f.ino != fino_[i] || f.size_at_open != fsz_[i] ||
          f.magic != fmagic_[i] || f.magic_len != fmlen_[i]) {
        first = i;
        break;
      }
    }
    fdev_.resize(n);
    fino_.resize(n);
    fsz_.resize(n);
    fmagic_.resize(n);
    fmlen_.resize(n);
    std::vector<const char*> paths;
    for (hsize_t i = first; i < n; ++i) {
      fdev_[i] = files[i].dev;
      fino_[i] = files[i].ino;
      fsz_[i] = files[i].size_at_open;
      fmagic_[i] = files[i].magic;
      fmlen_[i] = files[i].magic_len;
    }
    for (hsize_t i = std::min<hsize_t>(paths_written_, n); i < n; ++i)
      paths.push_back(files[i].path.c_str());
    h5::Handle vs = vlen_string_type();
    hsize_t start = std::min<hsize_t>(paths_written_, n);
    const hsize_t k = n - first;
    bool good = write_rows(files_, "path", vs, paths.data(), start, n - start, n);
    good &= write_rows(files_, "dev", H5T_NATIVE_UINT64, fdev_.data() + first, first, k, n);
    good &= write_rows(files_, "ino", H5T_NATIVE_UINT64, fino_.data() + first, first, k, n);
    good &= write_rows(files_, "size_at_open", H5T_NATIVE_UINT64, fsz_.data() + first, first, k, n);
    good &= write_rows(files_, "magic", H5T_NATIVE_UINT64, fmagic_.data() + first, first, k, n);
    good &= write_rows(files_, "magic_len", H5T_NATIVE_UINT8, fmlen_.data() + first, first, k, n);
    if (good) {
      paths_written_ = n;
    } else {
      fdev_.clear();  // unknown state on disk: rewrite everything next time
    }
    return good;
  }

  bool write_processes(const std::vector<Process>& procs) {
    hsize_t n = procs.size();
    std::vector<std::uint32_t> pid(n), tgid(n), ppid(n);
    std::vector<char> comm(n * kCommLen, '\0'), first(n * kCommLen, '\0');
    std::vector<std::uint64_t> start(n), end(n);
    std::vector<std::int32_t> code(n);
    std::vector<std::uint8_t> thread(n);
    for (hsize_t i = 0; i < n; ++i) {
      const Process& p = procs[i];
      pid[i] = p.pid;
      tgid[i] = p.tgid;
      ppid[i] = p.ppid;
      std::memcpy(&comm[i * kCommLen], p.comm.data(), std::min(p.comm.size(), kCommLen));
      std::memcpy(&first[i * kCommLen], p.first_comm.data(),
                  std::min(p.first_comm.size(), kCommLen));
      start[i] = p.start_ns;
      end[i] = p.end_ns;
      code[i] = p.exit_code;
      thread[i] = p.is_thread;
    }
    h5::Handle cs = comm_type();
    bool good = write_rows(procs_, "pid", H5T_NATIVE_UINT32, pid.data(), 0, n, n);
    good &= write_rows(procs_, "tgid", H5T_NATIVE_UINT32, tgid.data(), 0, n, n);
    good &= write_rows(procs_, "ppid", H5T_NATIVE_UINT32, ppid.data(), 0, n, n);
    good &= write_rows(procs_, "comm", cs, comm.data(), 0, n, n);
    good &= write_rows(procs_, "first_comm", cs, first.data(), 0, n, n);
    good &= write_rows(procs_, "start_ns", H5T_NATIVE_UINT64, start.data(), 0, n, n);
    good &= write_rows(procs_, "end_ns", H5T_NATIVE_UINT64, end.data(), 0, n, n);
    good &= write_rows(procs_, "exit_code", H5T_NATIVE_INT32, code.data(), 0, n, n);
    good &= write_rows(procs_, "is_thread", H5T_NATIVE_UINT8, thread.data(), 0, n, n);
    return good;
  }

  // /http: rows are final when appended (complete requests), so each is written once, at the
  // end of the table. The group appears with the first row: a trace without HTTP has none.
  bool write_http() {
    if (http_pending_.empty()) return true;
    if (!http_.valid() && !create_http()) return false;
    const hsize_t k = http_pending_.size(), start = http_written_, n = start + k;
    std::vector<std::uint32_t> pid(k), tid(k);
    std::vector<std::int32_t> fd(k);
    std::vector<std::uint16_t> status(k);
    std::vector<std::vector<std::uint64_t>> nums(std::size(kHttpNumbers),
                                                 std::vector<std::uint64_t>(k));
    std::vector<std::vector<const char*>> strs(std::size(kHttpStrings), std::vector<const char*>(k));
    for (hsize_t i = 0; i < k; ++i) {
      const HttpRequest& r = http_pending_[i];
      pid[i] = r.pid;
      tid[i] = r.tid;
      fd[i] = r.fd;
      status[i] = r.status;
      for (std::size_t c = 0; c < std::size(kHttpNumbers); ++c) nums[c][i] = r.*kHttpNumbers[c].field;
      for (std::size_t c = 0; c < std::size(kHttpStrings); ++c)
        strs[c][i] = (r.*kHttpStrings[c].field).c_str();
    }
    h5::Handle vs = vlen_string_type();
    bool good = write_rows(http_, "pid", H5T_NATIVE_UINT32, pid.data(), start, k, n);
    good &= write_rows(http_, "tid", H5T_NATIVE_UINT32, tid.data(), start, k, n);
    good &= write_rows(http_, "fd", H5T_NATIVE_INT32, fd.data(), start, k, n);
    good &= write_rows(http_, "status", H5T_NATIVE_UINT16, status.data(), start, k, n);
    for (std::size_t c = 0; c < std::size(kHttpNumbers); ++c)
      good &=
          write_rows(http_, kHttpNumbers[c].name, H5T_NATIVE_UINT64, nums[c].data(), start, k, n);
    for (std::size_t c = 0; c < std::size(kHttpStrings); ++c)
      good &= write_rows(http_, kHttpStrings[c].name, vs, strs[c].data(), start, k, n);
    good &= write_http_body(start);
    if (good) {
      http_written_ = n;
      http_pending_.clear();
    }
    return good;
  }

  // /http_body: the bursts of the pending rows (the first at /http row `first_row`), appended.
  bool write_http_body(hsize_t first_row) {
    std::vector<std::uint64_t> request;
    std::vector<std::vector<std::uint64_t>> cols(std::size(kHttpBurstColumns));
    for (std::size_t i = 0; i < http_pending_.size(); ++i)
      for (const HttpBurst& b : http_pending_[i].body) {
        request.push_back(first_row + i);
        for (std::size_t c = 0; c < cols.size(); ++c)
          cols[c].push_back(b.*kHttpBurstColumns[c].field);
      }
    if (request.empty()) return true;
    if (!http_body_.valid()) {
      http_body_ = h5::group(H5Gcreate2(file_, "http_body", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
      if (!http_body_.valid()) return false;
      bool good = create_column(http_body_, "request", H5T_STD_U64LE, kTableChunk).valid();
      for (const auto& c : kHttpBurstColumns)
        good &= create_column(http_body_, c.name, H5T_STD_U64LE, kTableChunk).valid();
      if (!good) return false;
    }
    const hsize_t k = request.size(), start = http_body_written_, n = start + k;
    bool good = write_rows(http_body_, "request", H5T_NATIVE_UINT64, request.data(), start, k, n);
    for (std::size_t c = 0; c < cols.size(); ++c)
      good &= write_rows(http_body_, kHttpBurstColumns[c].name, H5T_NATIVE_UINT64,
                         cols[c].data(), start, k, n);
    if (good) http_body_written_ = n;
    return good;
  }

  bool create_http() {
    http_ = h5::group(H5Gcreate2(file_, "http", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!http_.valid()) return false;
    h5::Handle vs = vlen_string_type();
    bool good = create_column(http_, "pid", H5T_STD_U32LE, kTableChunk).valid();
    good &= create_column(http_, "tid", H5T_STD_U32LE, kTableChunk).valid();
    good &= create_column(http_, "fd", H5T_STD_I32LE, kTableChunk).valid();
    good &= create_column(http_, "status", H5T_STD_U16LE, kTableChunk).valid();
    for (const auto& c : kHttpNumbers)
      good &= create_column(http_, c.name, H5T_STD_U64LE, kTableChunk).valid();
    for (const auto& c : kHttpStrings)
      good &= create_column(http_, c.name, vs, kTableChunk).valid();
    return good;
  }

  bool write_meta(const Meta& m) {
    hid_t root = file_;
    bool good = set_attr_string(root, "format", kFormatName);
    good &= set_attr<std::uint32_t>(root, "format_version", kFormatVersion);
    good &= set_attr_strings(root, "command", m.command);
    good &= set_attr<std::int64_t>(root, "start_wall_ns", m.start_wall_ns);
    good &= set_attr<std::uint64_t>(root, "start_mono_ns", m.start_mono_ns);
    good &= set_attr<std::uint64_t>(root, "duration_ns", m.duration_ns);
    good &= set_attr_string(root, "host", m.host);
    good &= set_attr<std::int32_t>(root, "rank", m.rank);
    good &= set_attr<std::int32_t>(root, "world_size", m.world_size);
    good &= set_attr_string(root, "kernel", m.kernel);
    good &= set_attr_string(root, "dlgen_version", m.dlgen_version);
    good &= set_attr<std::uint64_t>(root, "lost_events", m.lost_events);
    for (const auto& r : kLostReasons)
      good &=
          set_attr<std::uint64_t>(root, (std::string("lost_") + r.name).c_str(), m.lost.*r.count);
    good &= set_attr<std::int32_t>(root, "exit_status", m.exit_status);
    good &= set_attr<std::uint8_t>(root, "block_layer", m.block_layer ? 1 : 0);
    good &= set_attr<std::uint8_t>(root, "complete", m.complete ? 1 : 0);
    good &= set_attr_strings(root, "gpu_devices", m.gpu.devices);
    good &= set_attr_string(root, "gpu_driver", m.gpu.driver);
    good &= set_attr_string(root, "cuda_lib", m.gpu.cuda_lib);
    good &= set_attr_strings(root, "cuda_probes", m.gpu.cuda_probes);
    good &= set_attr_string(root, "gpu_note", m.gpu.note);
    good &= set_attr<std::uint64_t>(root, "event_count", written_);
    return good;
  }

  std::filesystem::path path_;
  h5::Handle file_, events_, files_, procs_, http_, http_body_;
  std::vector<HttpRequest> http_pending_;  // appended, not yet written
  hsize_t http_written_ = 0, http_body_written_ = 0;
  std::vector<Event> pending_;
  EventColumns cols_;                 // reused by write_events
  std::vector<std::uint32_t> order_;  // ...
  std::vector<h5::Handle> columns_;   // the /events datasets, in event_columns() order
  std::vector<ChunkColumn> chunks_;   // ... and their chunk writers
  Deflater deflater_;
  hsize_t written_ = 0;
  hsize_t paths_written_ = 0;
  // /files numeric columns as last written (write_files rewrites only from the first change).
  std::vector<std::uint64_t> fdev_, fino_, fsz_, fmagic_;
  std::vector<std::uint8_t> fmlen_;
  std::uint64_t last_q_ = 0;    // quantised ts of the last row written
  std::uint64_t last_end_ = 0;  // row_end() of the last row written
  bool finished_ = false;
  Meta last_meta_;
  std::vector<File> last_files_;
  std::vector<Process> last_procs_;
};

}  // namespace

Result<std::unique_ptr<TraceWriter>> TraceWriter::create(const std::filesystem::path& path) {
  auto w = H5TraceWriter::open(path);
  if (!w) return w.error();
  return std::unique_ptr<TraceWriter>(std::move(*w));
}

Result<void> write_trace(const std::filesystem::path& path, const Trace& trace) {
  auto w = H5TraceWriter::open(path);
  if (!w) return w.error();
  {
    h5::QuietErrors quiet;
    if (!(*w)->write_events(trace.events.data(), trace.events.size()))
      return h5_error(path, "cannot write events");
  }
  if (auto r = (*w)->append_http(trace.http); !r) return r;
  return (*w)->finish(trace.meta, trace.files, trace.processes);
}

}  // namespace dlgen::trace
