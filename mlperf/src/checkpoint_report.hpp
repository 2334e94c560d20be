#pragma once
// The checkpoint workflow's words for people (checkpoint_report.cpp), shared by the workflow's
// progress lines and its summary.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "dlgen/mlperf/checkpoint_workflow.hpp"

namespace dlgen::mlperf {

std::string gib_s(double bps);  // "1.23 GiB/s"
std::string secs(double s);     // "0.123 s"

// One line on stderr for a checkpoint written or read: `n` of `of` is the checkpoint's place in
// this run (its index may start past 1); `scope` says whose ranks it counts.
// The s3 lines of a phase's requests (replay's s3_summary_lines, the first opened by `phase`),
// "" without; and the requests as the result JSON's "s3" object (replay's), as text.
std::string s3_lines(const std::optional<engine::S3Counters>& k, std::string_view phase);
std::string s3_json(const engine::S3Counters& k);

void print_progress(const char* what, const CheckpointPass& p, std::uint32_t n, std::uint32_t of,
                    const char* scope);

}  // namespace dlgen::mlperf
