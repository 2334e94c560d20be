#pragma once
// The HTTP part of `dlgen inspect` (inspect.cpp calls these): a text line and a JSON object, both
// only for traces with HTTP requests, so other traces print as before.
#include "dlgen/core/json.hpp"
#include <string>

#include "dlgen/trace/inspect.hpp"

namespace dlgen::trace {

std::string format_http(const HttpSummary& h);  // "" when there are no requests
nlohmann::json http_json(const HttpSummary& h);

}  // namespace dlgen::trace
