// The access-recipe learner (analysis/recipe.hpp): one access → a template relative to its file;
// the commonest template wins.
#include "dlgen/analysis/recipe.hpp"

#include <algorithm>
#include <map>

namespace dlgen::analysis {

namespace {

// Reads from r[i] on as pieces between multiples of ALIGN, each started with a BLOCK-byte head
// (numpy reading an .npz member in 256 KiB reads through Python's 4 KiB buffer: 252 KiB, 4 KiB,
// 252 KiB, ..., the tail). The guess (ALIGN from the heads' spacing, BLOCK from a head's size; with
// a single head, as in a member of 256-512 KiB, ALIGN is the head's offset when that is a power of
// two of at least 64 KiB) is replayed with the applier and kept when it gives the reads that
// follow (the last one may be missing: the member can end before the file does). Returns the reads
// it explains, 0: none.
std::size_t aligned_pieces(const std::vector<AccessRead>& r, std::size_t i, std::uint64_t fsize,
                           Recipe& out) {
  if (i + 2 >= r.size()) return 0;
  auto try_align = [&](std::uint64_t align, std::size_t at_least) -> std::size_t {
    RecipeStep g;
    g.offset = r[i].offset;
    g.to_end = true;
    g.block = r[i + 1].asked;
    g.align = align;
    if (g.block == 0 || g.align <= g.block || r[i + 1].offset % g.align != 0 ||
        r[i + 1].offset <= g.offset || fsize - g.offset < g.offset)
      return 0;
    const std::vector<RecipeRequest> want = recipe_requests({g}, fsize);
    std::size_t k = 0;
    while (k < want.size() && i + k < r.size() && want[k].offset == r[i + k].offset &&
           want[k].length == r[i + k].moved)
      ++k;
    if (k < at_least || k + 1 < want.size()) return 0;
    out.push_back(g);
    return k;
  };
  if (i + 3 < r.size() && r[i + 3].offset > r[i + 1].offset)
    if (const std::size_t k = try_align(r[i + 3].offset - r[i + 1].offset, 4); k > 0) return k;
  const std::uint64_t head = r[i + 1].offset;
  if (head >= (64u << 10) && (head & (head - 1)) == 0) return try_align(head, 3);
  return 0;
}

// A template's shape: its steps' kinds (from the end or not, to the end or not, with a gap before
// the end or not, chunk, block, align), without their offsets, lengths and gaps.
std::string shape_of(const Recipe& r) {
  std::string out;
  for (const RecipeStep& s : r)
    out += std::to_string(s.from_end) + std::to_string(s.to_end) + std::to_string(s.end_gap > 0) +
           "/" + std::to_string(s.chunk) + "/" + std::to_string(s.block) + "/" +
           std::to_string(s.align) + ";";
  return out;
}

std::uint64_t commonest(const std::vector<std::uint64_t>& v) {
  std::map<std::uint64_t, std::size_t> n;
  for (const std::uint64_t x : v) ++n[x];
  std::uint64_t best = 0;
  std::size_t most = 0;
  for (const auto& [x, c] : n)
    if (c > most) best = x, most = c;
  return best;
}

// Whether template `t` of `m`'s shape is alike: each offset, length and gap within 512 bytes of
// `m`'s (a few bytes of a zip directory or a header, not a window read anywhere in the file).
bool alike(const Recipe& t, const Recipe& m) {
  auto near = [](std::uint64_t a, std::uint64_t b) { return (a > b ? a - b : b - a) <= 512; };
  for (std::size_t i = 0; i < t.size(); ++i)
    if (!near(t[i].offset, m[i].offset) || !near(t[i].length, m[i].length) ||
        !near(t[i].end_gap, m[i].end_gap))
      return false;
  return true;
}

// The templates of one shape merged: each step's offset, length and gap the commonest among them
// (torch.load of files of many sizes: its zip directory reads and the gap after the tensor's
// record differ by a few bytes from file to file).
Recipe merged(const std::vector<Recipe>& same_shape) {
  Recipe out = same_shape.front();
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::vector<std::uint64_t> offsets, lengths, gaps;
    for (const Recipe& r : same_shape)
      offsets.push_back(r[i].offset), lengths.push_back(r[i].length), gaps.push_back(r[i].end_gap);
    out[i].offset = commonest(offsets);
    out[i].length = commonest(lengths);
    out[i].end_gap = commonest(gaps);
  }
  return out;
}

}  // namespace

Recipe access_template(const AccessReads& access) {
  const auto& r = access.reads;
  std::uint64_t fsize = access.file_size;
  for (const AccessRead& x : r) fsize = std::max(fsize, x.offset + x.moved);
  Recipe out;
  std::size_t i = 0;
  while (i < r.size()) {
    if (const std::size_t k = aligned_pieces(r, i, fsize, out); k > 0) {
      i += k;
      continue;
    }
    const std::uint64_t o = r[i].offset;
    const std::uint64_t asked = r[i].asked;
    std::uint64_t total = r[i].moved;
    std::size_t j = i + 1;
    // Contiguous reads of one asked size, each but the last filled: requests of that size.
    while (j < r.size() && r[j].asked == asked && r[j - 1].moved == r[j - 1].asked &&
           r[j].offset == r[j - 1].offset + r[j - 1].moved)
      total += r[j++].moved;
    RecipeStep st;
    if (j - i >= 2) st.chunk = asked;
    // A buffered reader's large read: the whole blocks in one request that it fills, then the
    // tail through its buffer (asking a block, reaching the end of the file).
    if (j == i + 1 && j < r.size() && r[i].moved == asked && r[j].offset == o + total &&
        r[j].asked > 0 && r[j].asked < asked && (o + total) % r[j].asked == 0 &&
        r[j].moved <= r[j].asked && o + total + r[j].moved >= fsize) {
      st.block = r[j].asked;
      total += r[j++].moved;
    }
    const bool at_end = o + total >= fsize;
    // One read asking more than the file had left (beyond Python's readall size + 1): the reader
    // reads in requests of that size.
    if (j == i + 1 && at_end && asked > r[i].moved + 1) st.chunk = asked;
    st.to_end = at_end;
    st.length = at_end ? 0 : total;
    // Most of the file from the first half on, short of the end: up to that many bytes before
    // the end (torch.load's tensor record, followed by the zip's directory).
    if (!at_end && 2 * total > fsize && fsize - o >= o) {
      st.to_end = true;
      st.length = 0;
      st.end_gap = fsize - (o + total);
    }
    st.from_end = fsize - o < o;
    st.offset = st.from_end ? fsize - o : o;
    // From the end, to the end, in one request: the same as a fixed length ("end-22+22").
    if (st.from_end && st.to_end && st.block == 0 && (st.chunk == 0 || st.chunk >= st.offset)) {
      st.chunk = 0;
      st.to_end = false;
      st.length = st.offset;
    }
    out.push_back(st);
    i = j;
  }
  return out;
}

std::string recipe_text(const Recipe& recipe) {
  std::string out;
  for (const RecipeStep& s : recipe) out += (out.empty() ? "" : ", ") + to_string(s);
  return out;
}

LearnedRecipe learn_recipe(const std::vector<AccessReads>& accesses) {
  LearnedRecipe best;
  struct Seen {
    std::uint64_t count = 0;
    std::size_t first = 0;
    Recipe recipe;
  };
  std::map<std::string, Seen> seen;
  std::map<std::string, std::vector<Recipe>> shapes;
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    if (accesses[i].reads.empty()) continue;
    ++best.accesses;
    Recipe t = access_template(accesses[i]);
    shapes[shape_of(t)].push_back(t);
    Seen& s = seen[recipe_text(t)];
    if (s.count++ == 0) {
      s.first = i;
      s.recipe = std::move(t);
    }
  }
  best.templates = seen.size();
  const Seen* win = nullptr;
  for (const auto& [text, s] : seen)
    if (!win || s.count > win->count || (s.count == win->count && s.first < win->first)) win = &s;
  if (win && win->recipe.size() <= kMaxRecipeSteps) {
    best.recipe = win->recipe;
    best.explained = win->count;
  }
  // No template explains a quarter of the accesses (too few for distil to use it): the commonest
  // shape's templates merged, when that shape holds more of them.
  const std::vector<Recipe>* most = nullptr;
  for (const auto& [shape, rs] : shapes)
    if (!most || rs.size() > most->size()) most = &rs;
  if (most && 4 * best.explained < best.accesses && most->size() > best.explained &&
      most->front().size() <= kMaxRecipeSteps) {
    const Recipe m = merged(*most);
    const auto n = static_cast<std::uint64_t>(
        std::count_if(most->begin(), most->end(), [&](const Recipe& t) { return alike(t, m); }));
    if (n > best.explained) best.recipe = m, best.explained = n, best.merged = true;
  }
  return best;
}

}  // namespace dlgen::analysis
