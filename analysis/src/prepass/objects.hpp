#pragma once
// Objects of an S3 store read over plain HTTP (a Dataset calling boto3's get_object; dlgen's own
// s3 engine in a replay): the trace's /http table, not its file events, shows those reads. The
// rest of summarize reasons about files, so this pre-pass, run first, turns each GET answered
// with 200 or 206 into an open, a pread and a close of a file named "s3://BUCKET/KEY" by the
// thread that sent it: the pread from the request's send to the response's last byte, at the
// Range's first byte (0 for a whole object), of Content-Length bytes. GETs one thread sends to
// one object one after another (no other object's between: a sample fetched as several ranges)
// are one access, one open, a pread per GET and one close at the last one's last byte, as a file
// opened once and read in several requests. A GET whose body came in bursts (/http_body: a
// program streaming it, tarfile over a tar shard's body between batch handovers) is a pread per
// burst, at the Range's first byte plus the burst's body offset, the first from the send, so the
// shard is read front to back in pieces as a local one is. The object's size is the
// file's (Content-Range's total, or a whole-object 200's length). So the stages see a dataset
// directory "s3://BUCKET/PREFIX", its files' sizes, the read size, the readers, and distil writes
// an S3 job (docs/distil.md, "Datasets read from S3").
#include <optional>
#include <string>

#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis {

// "s3://BUCKET/KEY" of a request's Host header and target: virtual-hosted style when the host is
// "BUCKET.s3.<...>" or "BUCKET.s3-<...>", else path style ("/BUCKET/KEY"); the key
// percent-decoded. "" when the target names no object (a bucket, the service).
std::string object_url(const std::string& host, const std::string& path);

// The trace with the object reads added as file events (fds above any real one), files appended;
// nullopt when the trace has no successful GET.
std::optional<trace::Trace> objects_as_reads(const trace::Trace& t);

}  // namespace dlgen::analysis
