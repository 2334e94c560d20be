#include "object_writes.hpp"

#include <fcntl.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "objects.hpp"

namespace dlgen::analysis {
namespace {

using trace::Event;
using trace::HttpRequest;
using trace::Op;

// Object writes get fds from here up, one per object written: above the object reads' first
// thousands (objects.cpp, from 1 << 30) and any program's own.
constexpr std::int32_t kFirstWriteFd = 3 << 29;
constexpr std::uint32_t kWriteFlags = O_WRONLY | O_CREAT | O_TRUNC;

bool has_name(const std::string& query, std::string_view name) {
  std::size_t at = 0;
  while (at <= query.size()) {
    const std::size_t amp = std::min(query.find('&', at), query.size());
    if (std::string_view(query).substr(at, amp - at) == name) return true;
    at = amp + 1;
  }
  return false;
}

bool answered(const HttpRequest& r) {
  return r.status >= 200 && r.status < 300;
}

std::uint64_t end_of(const HttpRequest& r) {
  return std::max(r.last_byte_ns, r.request_ns);
}

// One object written: its opening request, the requests carrying its bytes, the closing one.
struct Upload {
  const HttpRequest* first = nullptr;
  std::vector<const HttpRequest*> parts;
  const HttpRequest* last = nullptr;
};

// The object's open, its writes and its close, as events of file `file` on descriptor `fd`.
void add_events(const Upload& u, std::uint32_t file, std::int32_t fd, trace::Trace& out) {
  Event e;
  e.pid = u.first->pid;
  e.tid = u.first->tid;
  e.file = file;
  e.fd = fd;
  e.op = Op::open;
  e.ts_ns = u.first->request_ns;
  e.flags = kWriteFlags;
  e.ret = fd;
  out.events.push_back(e);
  e.flags = 0;
  std::uint64_t offset = 0;
  for (const HttpRequest* p : u.parts) {
    // Traces written before PUTs carried their body's length: all the bytes sent stand in.
    const std::uint64_t bytes = p->object_size ? p->object_size : p->request_bytes;
    e.tid = p->tid;
    e.op = Op::pwrite;
    e.ts_ns = p->request_ns;
    e.dur_ns = end_of(*p) - p->request_ns;
    e.offset = offset;
    e.size = bytes;
    e.ret = static_cast<std::int64_t>(bytes);
    out.events.push_back(e);
    offset += bytes;
  }
  e.tid = u.last->tid;
  e.op = Op::close;
  e.ts_ns = end_of(*u.last);
  e.dur_ns = e.offset = e.size = 0;
  e.ret = 0;
  out.events.push_back(e);
}

// The completed object writes of the trace, each with its URL, in the order they completed.
std::vector<std::pair<std::string, Upload>> uploads_of(const trace::Trace& t) {
  std::vector<std::pair<std::string, Upload>> done;
  std::map<std::pair<std::uint32_t, std::string>, Upload> open;  // (pid, URL) → upload going on
  for (const HttpRequest& r : t.http) {
    if (!answered(r) || (r.method != "PUT" && r.method != "POST")) continue;
    const std::string url = object_url(r.host, r.path);
    if (url.empty()) continue;
    const bool part = has_name(r.query, "partNumber") && has_name(r.query, "uploadId");
    if (r.method == "PUT" && r.query.empty()) {
      done.push_back({url, Upload{&r, {&r}, &r}});
    } else if (r.method == "POST" && has_name(r.query, "uploads")) {
      open[{r.pid, url}] = Upload{&r, {}, nullptr};
    } else if (r.method == "PUT" && part) {
      Upload& u = open[{r.pid, url}];
      if (!u.first) u.first = &r;
      u.parts.push_back(&r);
    } else if (r.method == "POST" && has_name(r.query, "uploadId")) {
      auto it = open.find({r.pid, url});
      if (it == open.end() || it->second.parts.empty()) continue;
      it->second.last = &r;
      done.push_back({url, it->second});
      open.erase(it);
    }
  }
  return done;
}

}  // namespace

std::optional<trace::Trace> objects_as_writes(const trace::Trace& t) {
  const auto uploads = uploads_of(t);
  if (uploads.empty()) return std::nullopt;
  trace::Trace out = t;
  std::map<std::string, std::uint32_t> file_of;
  for (const auto& f : out.files)
    if (f.path.starts_with("s3://"))
      file_of.try_emplace(f.path, static_cast<std::uint32_t>(&f - out.files.data()));
  std::int32_t fd = kFirstWriteFd;
  for (const auto& [url, u] : uploads) {
    auto [it, added] = file_of.try_emplace(url, static_cast<std::uint32_t>(out.files.size()));
    if (added) out.files.push_back(trace::File{url});
    add_events(u, it->second, fd++, out);
  }
  std::stable_sort(out.events.begin(), out.events.end(),
                   [](const Event& a, const Event& b) { return a.ts_ns < b.ts_ns; });
  return out;
}

}  // namespace dlgen::analysis
