// HTML pieces of the MLPerf summary pages (mlperf_html.hpp).
#include "mlperf_html.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace dlgen::mlperf::html {

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

std::string page_start(const std::string& workload, const char* heading, Division division,
                       const std::vector<std::string>& reasons, const char* all_clear) {
  const char* colour = division == Division::closed   ? "#1e8449"
                       : division == Division::open   ? "#b9770e"
                       : division == Division::whatif ? "#2e86c1"
                                                      : "#c0392b";
  std::ostringstream h;
  h << "<!doctype html><html><head><meta charset='utf-8'><title>dlgen mlperf: " << escape(workload)
    << "</title><style>body{font-family:sans-serif;margin:2em;max-width:60em}"
       "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px "
       "10px;text-align:right}.verdict{font-size:1.6em;font-weight:bold;color:"
    << colour << "}</style></head><body>";
  h << "<h1>" << heading << ": " << escape(workload) << "</h1>";
  h << "<p class='verdict'>" << to_string(division) << "</p>";
  if (reasons.empty()) {
    h << "<p>" << all_clear << "</p>";
  } else {
    h << "<ul>";
    for (const auto& s : reasons) h << "<li>" << escape(s) << "</li>";
    h << "</ul>";
  }
  return h.str();
}

std::string bars(const std::vector<double>& v, double line, const char* line_label,
                 const char* unit) {
  const double w = 640, h = 220, pad = 40, legend = 150;  // the line's label right of the plot
  double top = line;
  for (double x : v) top = std::max(top, x);
  top = top > 0 ? top * 1.15 : 1;
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w + legend << "' height='" << h
    << "' role='img'>";
  const double bw = (w - 2 * pad) / std::max<std::size_t>(v.size(), 1);
  char buf[512];
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double bh = (h - 2 * pad) * v[i] / top;
    std::snprintf(buf, sizeof buf,
                  "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='#4a7ab7'/>"
                  "<text x='%.1f' y='%.1f' font-size='11' text-anchor='middle'>%.4g</text>"
                  "<text x='%.1f' y='%.1f' font-size='11' text-anchor='middle'>run %zu</text>",
                  pad + i * bw + bw * 0.15, h - pad - bh, bw * 0.7, bh, pad + i * bw + bw / 2,
                  h - pad - bh - 4, v[i], pad + i * bw + bw / 2, h - pad + 14, i + 1);
    s << buf;
  }
  const double ly = h - pad - (h - 2 * pad) * line / top;
  std::snprintf(
      buf, sizeof buf,
      "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='#c0392b' stroke-dasharray='6 4'/>"
      "<text x='%.1f' y='%.1f' font-size='11' fill='#c0392b'>%s %.4g %s</text>",
      pad, w - pad, ly, ly, w - pad + 6, ly + 4, line_label, line, unit);
  s << buf << "<line x1='" << pad << "' x2='" << w - pad << "' y1='" << h - pad << "' y2='"
    << h - pad << "' stroke='#333'/></svg>";
  return s.str();
}

}  // namespace dlgen::mlperf::html
