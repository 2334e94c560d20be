#include "objects.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <vector>

namespace dlgen::analysis {
namespace {

using trace::Event;
using trace::HttpRequest;
using trace::Op;

// Object reads get fds from here up, one per read: no program's own fd gets near (RLIMIT_NOFILE
// is far below), so the accesses stage never pairs them with a real open.
constexpr std::int32_t kFirstObjectFd = 1 << 30;

std::string percent_decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

bool read_object(const HttpRequest& r) {
  return r.method == "GET" && (r.status == 200 || r.status == 206) && r.query.empty();
}

// One read of a GET: its span and the bytes of the object it brought.
struct Piece {
  std::uint64_t ts = 0, end = 0, offset = 0, bytes = 0;
};

// Each thread's own traced events (pid << 32 | tid), their start times sorted.
using ThreadTimes = std::unordered_map<std::uint64_t, std::vector<std::uint64_t>>;
ThreadTimes thread_times(const trace::Trace& t) {
  ThreadTimes out;
  for (const auto& e : t.events) out[(std::uint64_t{e.pid} << 32) | e.tid].push_back(e.ts_ns);
  for (auto& [thread, ts] : out) std::sort(ts.begin(), ts.end());
  return out;
}

// Whether the thread began an event of its own in [from, to).
bool acted_between(const std::vector<std::uint64_t>* ts, std::uint64_t from, std::uint64_t to) {
  if (!ts) return false;
  const auto it = std::lower_bound(ts->begin(), ts->end(), from);
  return it != ts->end() && *it < to;
}

// A GET's reads: one from its send to its last byte, of Content-Length bytes at the Range's first
// byte; or, when its body came in bursts (a program streaming it: tarfile over the body), one
// per burst, at the Range's first byte plus the burst's body offset, the first from the send.
// A pause between two bursts splits them only where the thread did something of its own in it
// (handed a batch over, read its index queue: `own` holds its events' times); a pause with
// nothing between is the scheduler's or the network's (a 1 MiB body preempted mid-read on a
// loaded host), and the bursts stay one read.
std::vector<Piece> pieces_of(const HttpRequest& r, const std::vector<std::uint64_t>* own) {
  const std::uint64_t first = r.range_first == HttpRequest::kNoRange ? 0 : r.range_first;
  if (r.body.empty())
    return {Piece{r.request_ns, std::max(r.last_byte_ns, r.request_ns), first, r.content_length}};
  std::vector<Piece> out;
  std::uint64_t last_end = 0;
  for (const trace::HttpBurst& b : r.body) {
    const std::uint64_t ts = out.empty() ? r.request_ns : std::max(b.start_ns, r.request_ns);
    if (!out.empty() && !acted_between(own, last_end, b.start_ns)) {
      out.back().end = std::max(out.back().end, b.end_ns);
      out.back().bytes += b.bytes;
    } else {
      out.push_back(Piece{ts, std::max(b.end_ns, ts), first + b.offset, b.bytes});
    }
    last_end = b.end_ns;
  }
  return out;
}

}  // namespace

std::string object_url(const std::string& host_header, const std::string& path) {
  std::string host = host_header;  // without the port ("[::1]:8080" keeps its brackets' colons)
  const std::size_t colon = host.rfind(':'), bracket = host.rfind(']');
  if (colon != std::string::npos && (bracket == std::string::npos || colon > bracket))
    host.resize(colon);
  std::string bucket, key;
  const std::size_t s3 = std::min(host.find(".s3."), host.find(".s3-"));
  if (s3 != std::string::npos && s3 > 0) {  // virtual-hosted: BUCKET.s3.REGION.amazonaws.com
    bucket = host.substr(0, s3);
    key = path.size() > 1 ? path.substr(1) : "";
  } else {  // path style: /BUCKET/KEY
    const std::size_t slash = path.find('/', 1);
    if (path.empty() || path[0] != '/' || slash == std::string::npos) return "";
    bucket = path.substr(1, slash - 1);
    key = path.substr(slash + 1);
  }
  if (bucket.empty() || key.empty()) return "";
  return "s3://" + bucket + "/" + percent_decode(key);
}

std::optional<trace::Trace> objects_as_reads(const trace::Trace& t) {
  if (std::none_of(t.http.begin(), t.http.end(), read_object)) return std::nullopt;
  trace::Trace out = t;
  std::unordered_map<std::string, std::uint32_t> file_of;
  // Per thread (pid, tid), its current access: the object it last read and its close event.
  struct Access {
    std::uint32_t file = 0;
    std::size_t close = 0;
  };
  std::unordered_map<std::uint64_t, Access> access_of;
  std::uint32_t accesses = 0;
  const ThreadTimes own = thread_times(t);
  for (const HttpRequest& r : t.http) {
    const std::string url = read_object(r) ? object_url(r.host, r.path) : "";
    if (url.empty()) continue;
    auto [it, added] = file_of.try_emplace(url, static_cast<std::uint32_t>(out.files.size()));
    if (added) out.files.push_back(trace::File{url});
    trace::File& f = out.files[it->second];
    f.size_at_open = std::max(f.size_at_open, r.object_size);
    const std::uint64_t thread = (std::uint64_t{r.pid} << 32) | r.tid;
    const auto mine = own.find(thread);
    const std::vector<Piece> pieces = pieces_of(r, mine == own.end() ? nullptr : &mine->second);
    const std::uint64_t end = std::max(r.last_byte_ns, pieces.back().end);
    const auto cur = access_of.find(thread);
    const bool same = cur != access_of.end() && cur->second.file == it->second;
    Event e;
    e.pid = r.pid;
    e.tid = r.tid;
    e.file = it->second;
    e.ts_ns = r.request_ns;
    if (same) {  // the same object again, no other between: one more read of its access
      Event& close = out.events[cur->second.close];
      e.fd = close.fd;
      close.ts_ns = std::max(close.ts_ns, end);
    } else {
      e.fd = kFirstObjectFd + static_cast<std::int32_t>(accesses++ % kFirstObjectFd);
      e.op = Op::open;
      e.ret = e.fd;
      out.events.push_back(e);
    }
    e.op = Op::pread;
    for (const Piece& p : pieces) {
      e.ts_ns = p.ts;
      e.dur_ns = p.end - p.ts;
      e.offset = p.offset;
      e.size = p.bytes;
      e.ret = static_cast<std::int64_t>(p.bytes);
      out.events.push_back(e);
    }
    if (same) continue;
    e.op = Op::close;
    e.ts_ns = end;
    e.dur_ns = 0;
    e.offset = e.size = 0;
    e.ret = 0;
    access_of[thread] = Access{it->second, out.events.size()};
    out.events.push_back(e);
  }
  std::stable_sort(out.events.begin(), out.events.end(),
                   [](const Event& a, const Event& b) { return a.ts_ns < b.ts_ns; });
  return out;
}

}  // namespace dlgen::analysis
