#pragma once
// DLIO's summary.json, so scripts written for DLIO / MLPerf Storage read dlgen's results: the same
// metric names and shapes (per-epoch lists, means, standard deviations), plus what dlgen measures
// that DLIO does not, under "dlgen". Definitions: docs/dlio.md ("summary.json").
#include <string>

#include "dlgen/core/job.hpp"
#include "dlgen/replay/report.hpp"

namespace dlgen::dlio {

struct DlioSummaryContext {
  std::string hostname;
  std::string start, end;  // local time, DLIO's "%Y-%m-%dT%H:%M:%S.%f"
  std::uint32_t hosts = 1;
};

// The mean sample size the job configures (DLIO's record_length): what DLIO multiplies
// samples/s by to print its "MB/s".
double nominal_record_bytes(const Distribution& sample_size);

std::string dlio_summary_json(const Job& job, const replay::Report& report,
                              const DlioSummaryContext& context);

}  // namespace dlgen::dlio
