// Access recipes: text form, and the pure arithmetic that turns a recipe and a file size into
// requests (the replay's worker uses step_range; tests use recipe_requests).
#include "dlgen/core/recipe.hpp"

#include <algorithm>
#include <tuple>

#include "dlgen/core/units.hpp"

namespace dlgen {

StepRange step_range(const RecipeStep& step, std::uint64_t file_size) {
  StepRange r;
  const std::uint64_t off = std::min(step.offset, file_size);
  r.begin = step.from_end ? file_size - off : off;
  r.end = step.to_end ? std::max(r.begin, file_size - std::min(step.end_gap, file_size))
                      : std::min(file_size, r.begin + std::min(step.length, file_size));
  r.cut = r.end;
  if (step.block > 0) {
    const std::uint64_t aligned = r.end / step.block * step.block;
    if (aligned > r.begin) r.cut = aligned;
  }
  return r;
}

std::uint64_t request_end(const RecipeStep& s, const StepRange& r, std::uint64_t at) {
  std::uint64_t end = r.end;
  if (s.chunk > 0) end = std::min(end, at + s.chunk);
  if (s.align > 0) {
    end = std::min(end, (at / s.align + 1) * s.align);
    if (s.block > 0 && at % s.align == 0) end = std::min(end, at + s.block);
  }
  if (at < r.cut) end = std::min(end, r.cut);
  return end;
}

std::vector<RecipeRequest> recipe_requests(const Recipe& recipe, std::uint64_t file_size,
                                           std::uint64_t max_request) {
  std::vector<RecipeRequest> out;
  for (const RecipeStep& s : recipe) {
    const StepRange r = step_range(s, file_size);
    std::uint64_t at = r.begin;
    while (at < r.end) {
      std::uint64_t end = request_end(s, r, at);
      if (max_request > 0) end = std::min(end, at + max_request);
      out.push_back({at, end - at});
      at = end;
    }
  }
  return out;
}

namespace {

// Exact and short: "4KiB", "60KiB", "22", "1MiB".
std::string size_word(std::uint64_t b) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (b == 0) return "0";
  std::string unit;
  for (const char* u : kUnits) {
    if (b % 1024 != 0) break;
    b /= 1024;
    unit = u;
  }
  return std::to_string(b) + unit;
}

Result<std::uint64_t> size_part(std::string_view text, std::string_view what,
                                std::string_view whole) {
  auto v = parse_size(text);
  if (!v)
    return input_error("\"" + std::string(whole) + "\": " + std::string(what) + " \"" +
                       std::string(text) + "\": " + v.error().message);
  return *v;
}

}  // namespace

Result<RecipeStep> parse_recipe_step(std::string_view text) {
  const std::string whole(text);
  const auto bad = [&](const std::string& why) -> Result<RecipeStep> {
    return input_error("\"" + whole + "\": " + why +
                       " (a step is OFFSET+LENGTH[/CHUNK|~BLOCK], e.g. \"0+4KiB\", "
                       "\"end-22+22\", \"4KiB+rest/64KiB\")");
  };
  RecipeStep s;
  std::string_view t = text;
  if (t.substr(0, 4) == "end-") {
    s.from_end = true;
    t.remove_prefix(4);
  }
  const std::size_t plus = t.find('+');
  if (plus == std::string_view::npos || plus == 0) return bad("no OFFSET+LENGTH");
  auto off = size_part(t.substr(0, plus), "offset", whole);
  if (!off) return off.error();
  s.offset = *off;
  t.remove_prefix(plus + 1);
  const std::size_t sep = t.find_first_of("/@~");
  const std::string_view len = t.substr(0, sep);
  if (len.substr(0, 4) == "rest") {
    s.to_end = true;
    if (len.size() > 4) {
      if (len[4] != '-') return bad("LENGTH is \"rest\" or \"rest-N\"");
      auto g = size_part(len.substr(5), "gap before the end", whole);
      if (!g) return g.error();
      s.end_gap = *g;
    }
  } else {
    if (len.empty()) return bad("no LENGTH");
    auto l = size_part(len, "length", whole);
    if (!l) return l.error();
    if (*l == 0) return bad("a LENGTH of 0 reads nothing");
    s.length = *l;
  }
  // Modifiers, in this order: /CHUNK, @ALIGN, ~BLOCK.
  std::string_view rest = sep == std::string_view::npos ? std::string_view() : t.substr(sep);
  for (const auto& [mark, field, what] :
       {std::tuple{'/', &s.chunk, "chunk"}, {'@', &s.align, "align"}, {'~', &s.block, "block"}}) {
    if (rest.empty() || rest[0] != mark) continue;
    const std::size_t next = rest.find_first_of("/@~", 1);
    auto v =
        size_part(rest.substr(1, next == std::string_view::npos ? next : next - 1), what, whole);
    if (!v) return v.error();
    if (*v == 0) return bad(std::string("a ") + what + " of 0");
    *field = *v;
    rest = next == std::string_view::npos ? std::string_view() : rest.substr(next);
  }
  if (!rest.empty()) return bad("unexpected \"" + std::string(rest) + "\"");
  return s;
}

std::string to_string(const RecipeStep& s) {
  std::string out = (s.from_end ? "end-" : "") + size_word(s.offset) + "+" +
                    (s.to_end ? std::string("rest") : size_word(s.length));
  if (s.to_end && s.end_gap > 0) out += "-" + size_word(s.end_gap);
  if (s.chunk > 0) out += "/" + size_word(s.chunk);
  if (s.align > 0) out += "@" + size_word(s.align);
  if (s.block > 0) out += "~" + size_word(s.block);
  return out;
}

Recipe legacy_recipe(std::uint64_t probe_bytes, std::uint64_t header_bytes,
                     std::uint64_t request_bytes) {
  Recipe r;
  if (probe_bytes > 0) r.push_back({false, 0, false, probe_bytes, 0, 0, 0, 0});
  if (header_bytes > 0) r.push_back({false, 0, false, header_bytes, 0, 0, 0, 0});
  r.push_back({false, header_bytes, true, 0, request_bytes, 0, 0, 0});
  return r;
}

}  // namespace dlgen
