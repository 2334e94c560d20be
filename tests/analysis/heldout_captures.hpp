#pragma once
// What the tests of the held-out GPU captures share (tests/data/gpu/heldout*/README.md): a
// program's own ground truth (NAME.truth.jsonl: its summary record and its torch.save sizes) and
// its capture summarised and distilled, with the per-pass step counts and checkpoint sizes the
// tests compare.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include "dlgen/core/json.hpp"
#include <string>
#include <vector>

#include "dlgen/analysis/distil.hpp"
#include "dlgen/analysis/summary.hpp"
#include "dlgen/trace/trace_io.hpp"

namespace dlgen::analysis {

struct HeldOutTruth {
  nlohmann::json summary;
  std::vector<std::uint64_t> saves;         // the bytes of each torch.save
  std::vector<nlohmann::json> checkpoints;  // every checkpoint record, whatever its kind
  // The training steps (DataLoader batches) taken before each torch.save and each evaluation
  // pass: the program's `step`, or its optimizer steps times the micro-steps of one.
  std::vector<std::uint64_t> save_steps, eval_steps;
};

inline HeldOutTruth truth_of(const std::string& dir, const std::string& name) {
  HeldOutTruth t;
  std::ifstream in(dir + name + ".truth.jsonl");
  std::vector<nlohmann::json> records;
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    const std::string event = j.value("event", "");
    if (event == "summary") t.summary = j;
    if (event == "checkpoint") t.checkpoints.push_back(j);
    if (event == "checkpoint" && j.value("kind", "") == "torch.save")
      t.saves.push_back(j.at("bytes").get<std::uint64_t>());
    records.push_back(j);
  }
  const std::uint64_t accum = t.summary.value("accum", std::uint64_t{1});
  for (const auto& j : records) {
    const std::string event = j.value("event", "");
    if (event == "checkpoint" && j.value("kind", "") == "torch.save" &&
        (j.contains("step") || j.contains("optimizer_step")))
      t.save_steps.push_back(j.contains("step")
                                 ? j.at("step").get<std::uint64_t>()
                                 : j.at("optimizer_step").get<std::uint64_t>() * accum);
    if (event == "epoch" && j.value("phase", "") == "val" && j.contains("after_optimizer_step"))
      t.eval_steps.push_back(j.at("after_optimizer_step").get<std::uint64_t>() * accum);
  }
  EXPECT_FALSE(t.summary.is_null()) << name << ".truth.jsonl has no summary record";
  return t;
}

struct HeldOutCapture {
  TraceSummary summary;
  Distilled distilled;
};

inline HeldOutCapture capture_of(const std::string& dir, const std::string& name) {
  auto t = trace::read_trace(dir + name + ".h5");
  EXPECT_TRUE(t) << t.error().message;
  HeldOutCapture c;
  if (!t) return c;
  c.summary = summarize(*t);
  c.distilled = distil(c.summary);
  return c;
}

inline std::vector<std::uint64_t> pass_steps(const TraceSummary& s, bool evaluation) {
  std::vector<std::uint64_t> steps;
  for (const auto& e : s.epochs)
    if (e.evaluation == evaluation) steps.push_back(e.steps);
  return steps;
}

inline std::vector<std::uint64_t> checkpoint_bytes(const TraceSummary& s) {
  std::vector<std::uint64_t> bytes;
  for (const auto& k : s.checkpoints) bytes.push_back(k.bytes);
  return bytes;
}

inline std::vector<std::uint64_t> counts(const nlohmann::json& j) {
  return j.get<std::vector<std::uint64_t>>();
}

}  // namespace dlgen::analysis
