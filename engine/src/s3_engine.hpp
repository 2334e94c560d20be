#pragma once
// The S3 engine (private to engine/): objects of an S3 store through libcurl's multi interface,
// `depth` requests in flight on one thread, connections kept alive and reused, requests signed
// with SigV4 by libcurl (s3_client.hpp: the 7.88 quirks). Its transport is s3_transfers.hpp.
//
// Targets are indexes into the engine's open objects: open_file("s3://BUCKET/KEY", flags) sends
// nothing. A read is a GET of [offset, offset + length): ranged, or whole when the engine knows
// the object's size (learned from an earlier answer) and the request covers it (s3.cpp). Writes
// arrive front to back (an object is written whole, like a stream: offset = bytes written so far)
// and are copied into a part buffer of `part_bytes` (EngineOptions::part_bytes, else 8 MiB or
// buffer_bytes when larger); a small object goes as one PUT at
// close_file, a large one as a multipart upload whose parts are sent as they fill (the write that
// fills a part completes when that part is stored) and which close_file completes, or aborts on
// failure (s3_upload.cpp). Failures that may pass are retried (s3_transfers.hpp); the rest end
// the request with -errno and last_error() says which object, which request and what the store
// answered.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "dlgen/engine/engine.hpp"
#include "dlgen/engine/s3.hpp"
#include "s3_client.hpp"
#include "s3_transfers.hpp"

namespace dlgen::engine::s3 {

// An open object.
struct Object {
  bool open = false, writing = false;
  std::string bucket, key, shown;  // shown: "s3://BUCKET/KEY", for messages
  // Writing: bytes taken so far (the next write's offset), the part being filled, the upload.
  std::uint64_t written = 0;
  std::vector<std::byte> part;
  std::string upload_id;
  std::vector<std::string> etags;  // per part number - 1
  std::uint32_t parts_in_flight = 0;
  int error = 0;  // the first failure of a write to this object (-errno)
};

class S3Engine final : public IoEngine {
 public:
  S3Engine(const EngineOptions& o, Config cfg);
  const char* name() const override { return "s3"; }

  int submit(std::span<const IoRequest> requests) override;
  int reap(std::span<IoCompletion> out, unsigned min_complete) override;
  int open_file(const char* path, int flags, int& target) override;
  int close_file(int target) override;

  const S3Counters& counters() const { return transfers_.counters(); }
  S3Counters take_counters() { return transfers_.take_counters(); }
  const std::string& last_error() const { return last_error_; }

 private:
  bool is_open(int target) const {
    return target >= 0 && target < static_cast<int>(objects_.size()) && objects_[target].open;
  }
  std::string url_of(const Object& o, std::string_view query = {}) const {
    return object_url(cfg_, o.bucket, o.key, query);
  }

  // Reads (s3.cpp).
  void start_get(const IoRequest& r);
  // Writes (s3_upload.cpp): a write taken into the object's part, the part sent (initiating the
  // multipart upload first; nullptr on failure), the upload initiated, the object finished at
  // close (one PUT, or the last part and the upload's completion; an abort on failure).
  void take_write(const IoRequest& r);
  Transfer* send_part(int object);
  bool initiate(int object);
  int finish_upload(int object);
  int put_whole(int object);
  int complete_upload(int object);
  void abort_upload(int object);
  // A control request (initiate, complete, abort, whole PUT) waited for here; the answer's status
  // (or -errno with last_error_ set).
  int run_sync(Transfer* t);

  // Completion (s3.cpp).
  void complete(const IoRequest& r, std::int64_t result, std::int64_t issued);
  int result_of(const Transfer& t);
  void finish(Transfer* t);

  Config cfg_;  // before transfers_, which refers to it
  std::uint64_t part_bytes_;
  Transfers transfers_;
  std::vector<Object> objects_;
  std::vector<IoCompletion> ready_;
  std::uint32_t in_flight_ = 0;                           // requests taken and not yet in ready_
  std::unordered_map<std::string, std::uint64_t> sizes_;  // object sizes seen in answers
  std::string last_error_;
};

}  // namespace dlgen::engine::s3
