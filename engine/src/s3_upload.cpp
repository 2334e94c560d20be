// The S3 engine's writes (s3_engine.hpp): an object written front to back is gathered into parts;
// a small object goes as one PUT at close, a large one as a multipart upload (initiate, a PUT per
// part as it fills, complete at close; abort on failure, so that no parts are left behind).
#include <cerrno>
#include <string>

#include "s3_engine.hpp"

namespace dlgen::engine::s3 {

void S3Engine::take_write(const IoRequest& r) {
  Object& o = objects_[r.target];
  const std::int64_t now = clock().now_ns();
  if (!o.writing || o.error != 0 || r.offset != o.written) {
    if (o.writing && o.error == 0) {
      last_error_ = o.shown + ": write at " + std::to_string(r.offset) +
                    ": an object is written front to back (expected offset " +
                    std::to_string(o.written) + ")";
      o.error = -EINVAL;
    }
    complete(r, o.writing ? o.error : -EBADF, now);
    return;
  }
  Transfer* part = nullptr;
  if (!o.part.empty() && o.part.size() + r.length > part_bytes_) {
    part = send_part(r.target);  // the part this write does not fit in
    if (!part) {
      complete(r, o.error, now);
      return;
    }
  }
  if (o.part.capacity() < part_bytes_) o.part.reserve(part_bytes_);
  const std::byte* src = buffer(r.buffer);
  o.part.insert(o.part.end(), src, src + r.length);
  o.written += r.length;
  if (part) {  // completes when its part is stored
    part->has_request = true;
    part->request = r;
    part->request.length = r.length;
  } else {
    complete(r, r.length, now);
  }
}

Transfer* S3Engine::send_part(int object) {
  Object& o = objects_[object];
  if (o.upload_id.empty() && !initiate(object)) return nullptr;
  Transfer* t = transfers_.acquire(Kind::part, object);
  t->data.swap(o.part);
  o.part.clear();
  transfers_.take_spare(o.part);
  t->part_number = static_cast<std::uint32_t>(o.etags.size()) + 1;
  o.etags.emplace_back();
  t->method = "PUT";
  // Query parameters sorted and %-encoded: libcurl 7.88 signs the query as it is written.
  t->url = url_of(o, "partNumber=" + std::to_string(t->part_number) +
                         "&uploadId=" + uri_encode(o.upload_id, false));
  t->src = t->data.data();
  t->len = t->data.size();
  ++o.parts_in_flight;
  transfers_.send(t);
  return t;
}

int S3Engine::run_sync(Transfer* t) {
  t->sync = true;
  transfers_.send(t);
  transfers_.drive([t] { return t->done; });
  return result_of(*t);
}

bool S3Engine::initiate(int object) {
  Object& o = objects_[object];
  Transfer* t = transfers_.acquire(Kind::control, object);
  t->method = "POST";
  t->url = url_of(o, "uploads=");
  const int rc = run_sync(t);
  o.upload_id = xml_field(t->answer, "UploadId");
  if (rc >= 0 && o.upload_id.empty()) {
    last_error_ = o.shown + ": POST ?uploads: no UploadId in the answer";
    o.error = -EIO;
  } else if (rc < 0) {
    o.error = rc;
  }
  transfers_.release(t);
  return o.error == 0;
}

int S3Engine::finish_upload(int object) {
  Object& o = objects_[object];
  if (o.error == 0 && o.upload_id.empty()) return put_whole(object);
  if (o.error == 0 && !o.part.empty()) send_part(object);
  transfers_.drive([&o] { return o.parts_in_flight == 0; });
  if (o.error == 0) {
    const int rc = complete_upload(object);
    if (rc >= 0) return 0;
    o.error = rc;
  }
  if (!o.upload_id.empty()) abort_upload(object);
  return o.error;
}

// One PUT of the whole object (it never filled a part).
int S3Engine::put_whole(int object) {
  Object& o = objects_[object];
  Transfer* t = transfers_.acquire(Kind::put, object);
  t->method = "PUT";
  t->url = url_of(o);
  t->src = o.part.data();
  t->len = o.part.size();
  const int rc = run_sync(t);
  transfers_.release(t);
  return rc < 0 ? rc : 0;
}

// POST ?uploadId with every part's ETag: the status, or -errno with last_error_ set.
int S3Engine::complete_upload(int object) {
  Object& o = objects_[object];
  Transfer* t = transfers_.acquire(Kind::control, object);
  t->method = "POST";
  t->url = url_of(o, "uploadId=" + uri_encode(o.upload_id, false));
  t->body = "<CompleteMultipartUpload>";
  for (std::size_t i = 0; i < o.etags.size(); ++i)
    t->body += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" + o.etags[i] +
               "</ETag></Part>";
  t->body += "</CompleteMultipartUpload>";
  int rc = run_sync(t);
  // S3 may answer 200 and put the failure in the body.
  if (rc >= 0 && t->answer.find("<Error>") != std::string::npos) {
    last_error_ = o.shown + ": POST ?uploadId: " + xml_field(t->answer, "Code") + " " +
                  xml_field(t->answer, "Message");
    rc = -EIO;
  }
  transfers_.release(t);
  return rc;
}

// DELETE ?uploadId: leaves no parts behind. The first error stands in last_error_.
void S3Engine::abort_upload(int object) {
  Object& o = objects_[object];
  const std::string first = last_error_;
  Transfer* t = transfers_.acquire(Kind::control, object);
  t->method = "DELETE";
  t->url = url_of(o, "uploadId=" + uri_encode(o.upload_id, false));
  (void)run_sync(t);
  transfers_.release(t);
  last_error_ = first;
}

}  // namespace dlgen::engine::s3
