#pragma once
// Learning a dataset's access recipe (core/recipe.hpp) from the reads of its sample files: each
// access (an open of a file and its data-moving reads, in order) becomes a template relative to
// its file; the template most accesses share wins. Pure.
#include <cstdint>
#include <string>
#include <vector>

#include "dlgen/core/recipe.hpp"

namespace dlgen::analysis {

// One data-moving read of an access: where, how much was asked and how much came back (> 0).
struct AccessRead {
  std::uint64_t offset = 0, asked = 0, moved = 0;
};

// One access of a sample file: its size and its reads in issue order.
struct AccessReads {
  std::uint64_t file_size = 0;
  std::vector<AccessRead> reads;
};

struct LearnedRecipe {
  Recipe recipe;                // empty: nothing learned (no accesses, or too many steps)
  std::uint64_t accesses = 0;   // accesses seen
  // ... whose own template is `recipe`, or (a merged recipe) whose template has its shape
  std::uint64_t explained = 0;
  std::uint64_t templates = 0;  // distinct templates seen
  bool merged = false;          // `recipe` merges the templates of one shape
  double share() const {
    return accesses ? static_cast<double>(explained) / static_cast<double>(accesses) : 0.0;
  }
};

// One access as a template. Rules, in order:
// - reads in pieces between multiples of ALIGN, each piece started with a BLOCK-byte read, to the
//   end: one step "@ALIGN~BLOCK" (numpy's 256 KiB reads of an .npz member through a 4 KiB buffer);
// - contiguous reads asking the same size form one step, read in requests of that size (/CHUNK)
//   when there are several of them or the last asked more than the file had left;
// - a read that fills its request exactly, followed by one that starts at the next BLOCK boundary
//   and reaches the end asking BLOCK bytes, is one step "~BLOCK" (a buffered reader's large read);
// - a step that reaches the end of the file has the length "rest"; one from the first half that
//   reads most of the file but stops short of the end, "rest-N" (N bytes before the end);
// - a step's offset counts from the end of the file when it lies in the file's second half.
Recipe access_template(const AccessReads& access);

// The template most accesses share (ties: the one seen first), and how many it explains. When
// that is under a quarter of the accesses, the commonest shape's templates (the same steps, by
// kind, differing in their offsets, lengths and gaps before the end) merged into one instead,
// each number the commonest of its step's, when more accesses than the top template's are alike
// (each of their numbers within 512 bytes of the merged one's).
LearnedRecipe learn_recipe(const std::vector<AccessReads>& accesses);

// "0+4KiB, end-22+22, ..." for messages and job comments.
std::string recipe_text(const Recipe& recipe);

}  // namespace dlgen::analysis
