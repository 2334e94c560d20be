#pragma once
// Objects written to an S3 store over plain HTTP (a checkpoint sent with boto3's put_object or
// upload_fileobj; dlgen's own s3 engine writing a replay's checkpoints): the trace's /http table,
// not its file events, shows those writes. As objects.hpp does for GETs, this pre-pass turns them
// into file events of "s3://BUCKET/KEY", so the checkpoints stage finds them as it finds files
// written by torch.save:
//   * a PUT answered 2xx (no query: not a part) is an open by the sending thread at its send, a
//     pwrite of the object's bytes (the row's object_size: the request's Content-Length) at 0
//     from the send to the response's last byte, and a close at that last byte;
//   * a multipart upload (POST ?uploads, PUT ?partNumber&uploadId per part, POST ?uploadId to
//     complete) is one open at the initiation (or the first part) by its thread, a pwrite per
//     part by the thread that sent it, at the offsets of the parts in the order they were sent,
//     and a close at the completion's last byte by its thread; parts of an upload never completed
//     (aborted, failed, or cut off by the end of the capture) write no object and are left out.
// Uploads are told apart per process and object (upload ids are not stored in the trace).
#include <optional>

#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis {

// The trace with the object writes added as file events (fds above any real one), files
// appended; nullopt when the trace has no completed object write.
std::optional<trace::Trace> objects_as_writes(const trace::Trace& t);

}  // namespace dlgen::analysis
