// DLIO workload configs (YAML) -> Job. The only translation unit that includes yaml-cpp. The key
// by key mapping, and where dlgen departs from DLIO, is written in docs/dlio.md.
#include "dlgen/dlio/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>

#include "dlgen/core/closest_key.hpp"
#include "dlgen/core/llm.hpp"
#include "dlgen/core/units.hpp"

namespace dlgen {
namespace {

// One value of the config: its dotted key below `workload`, its node and where it came from.
struct Leaf {
  std::string key;
  YAML::Node node;
  std::uint32_t line = 0;  // 1-based; 0: set by a command-line override
};

// Keys dlgen maps to their I/O meaning (or accepts as having none, with a note).
const std::set<std::string, std::less<>> kMapped = {
    "model", "model.name", "model.type", "model.model_size", "framework", "workflow.generate_data",
    "workflow.train", "workflow.evaluation", "workflow.checkpoint", "dataset.data_folder",
    "dataset.format", "dataset.num_files_train", "dataset.num_files_eval",
    "dataset.num_samples_per_file", "dataset.record_length_bytes",
    "dataset.record_length_bytes_stdev", "dataset.record_length_bytes_resize",
    "dataset.num_subfolders_train", "dataset.num_subfolders_eval", "reader.data_loader",
    "reader.batch_size", "reader.batch_size_eval", "reader.read_threads",
    "reader.computation_threads", "reader.prefetch_size", "reader.file_shuffle",
    "reader.sample_shuffle", "reader.shuffle_size", "reader.transfer_size",
    "reader.preprocess_time", "reader.preprocess_time_stdev", "reader.odirect",
    "reader.dont_use_mmap", "train.epochs", "train.computation_time",
    "train.computation_time_stdev", "train.total_training_steps", "evaluation.eval_time",
    "evaluation.eval_time_stdev", "evaluation.epochs_between_evals", "checkpoint.checkpoint_folder",
    "checkpoint.checkpoint_after_epoch", "checkpoint.epochs_between_checkpoints",
    "checkpoint.steps_between_checkpoints", "checkpoint.fsync", "metric.au",
    // LLM checkpointing (MLPerf Storage v2.0): the model sizes every rank's shards (core/llm.hpp)
    "model.num_layers", "model.model_datatype", "model.optimizer_datatype",
    "model.parallelism.tensor", "model.parallelism.pipeline", "model.parallelism.data",
    "model.parallelism.zero_stage", "model.transformer.vocab_size", "model.transformer.hidden_size",
    "model.transformer.ffn_hidden_size", "model.transformer.num_attention_heads",
    "model.transformer.num_kv_heads", "checkpoint.num_checkpoints_write",
    "checkpoint.num_checkpoints_read", "checkpoint.time_between_checkpoints", "checkpoint.type",
    "checkpoint.mode"};

// The keys that describe an LLM; any of them makes the config an LLM checkpoint workload.
const char* const kLlmKeys[] = {"model.num_layers",
                                "model.model_datatype",
                                "model.optimizer_datatype",
                                "model.parallelism.tensor",
                                "model.parallelism.pipeline",
                                "model.parallelism.data",
                                "model.parallelism.zero_stage",
                                "model.transformer.vocab_size",
                                "model.transformer.hidden_size",
                                "model.transformer.ffn_hidden_size",
                                "model.transformer.num_attention_heads",
                                "model.transformer.num_kv_heads"};

// Keys DLIO has that dlgen cannot honour yet: refused with the reason, never ignored.
const std::map<std::string, std::string, std::less<>> kRefused = {
    {"checkpoint.recovery_rank_shift",
     "reading back the shards another host wrote (recovery_rank_shift) needs multi-host runs, not "
     "built yet"},
};

// Distribution parameters DLIO accepts under a time key given as a map.
const std::set<std::string, std::less<>> kDistParams = {"mean", "stdev", "type",  "min",
                                                        "max",  "shape", "scale", "lam"};

bool is_dist_key(std::string_view key) {
  return key == "train.computation_time" || key == "reader.preprocess_time" ||
         key == "evaluation.eval_time";
}

std::string did_you_mean(std::string_view key) {
  const std::string_view best = closest_key(key, kMapped);
  return best.empty() ? "" : " (did you mean '" + std::string(best) + "'?)";
}

class Reader {
 public:
  explicit Reader(std::filesystem::path source) : source_(std::move(source)) {}

  Result<DlioJob> read(std::string_view text, const std::vector<std::string>& overrides) {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
      return input_error(source_.string() + ":" + std::to_string(e.mark.line + 1) +
                         ": not valid YAML: " + e.msg);
    }
    if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
    if (!root.IsMap())
      return input_error(source_.string() +
                         ":1: a DLIO config is a YAML mapping (model:, dataset:, reader: ...)");
    // Hydra composes the workload under `workload`; a config may be given either way.
    if (root.size() == 1 && root["workload"] && root["workload"].IsMap())
      root.reset(root["workload"]);
    for (const std::string& o : overrides)
      if (Result<void> r = apply_override(root, o); !r) return r.error();
    flatten(root, "");
    for (const Leaf& l : leaves_) take(l);
    build();
    for (const Diagnostic& d : validate(out_.job)) error_at_dlgen_key(d.path, d.message);
    if (!errors_.empty()) return input_error(join_errors());
    return std::move(out_);
  }

 private:
  // ---- overrides ------------------------------------------------------------------------------
  Result<void> apply_override(YAML::Node& root, const std::string& word) {
    std::string_view w = word;
    bool remove = false;
    if (w.rfind("++", 0) == 0)
      w.remove_prefix(2);
    else if (w.rfind("+", 0) == 0)
      w.remove_prefix(1);
    else if (w.rfind("~", 0) == 0)
      w.remove_prefix(1), remove = true;
    const std::size_t eq = w.find('=');
    if (!remove && eq == std::string_view::npos)
      return input_error(
          "override '" + word +
          "': expected key=value (Hydra style, e.g. ++workload.reader.read_threads=8)");
    std::string key(remove ? w.substr(0, eq) : w.substr(0, eq));
    if (key.rfind("workload.", 0) == 0) key.erase(0, 9);
    if (key.empty()) return input_error("override '" + word + "': empty key");
    std::vector<std::string> parts;
    for (std::size_t b = 0;;) {
      const std::size_t e = key.find('.', b);
      parts.push_back(key.substr(b, e == std::string::npos ? std::string::npos : e - b));
      if (e == std::string::npos) break;
      b = e + 1;
    }
    YAML::Node cur;
    cur.reset(root);
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      YAML::Node next = cur[parts[i]];
      if (!next.IsDefined() || next.IsNull()) {
        if (remove) return ok();
        cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
        next.reset(cur[parts[i]]);
      } else if (!next.IsMap()) {
        return input_error("override '" + word + "': " + parts[i] + " is not a section");
      }
      cur.reset(next);
    }
    if (remove) {
      cur.remove(parts.back());
      return ok();
    }
    YAML::Node value;
    try {
      value = YAML::Load(std::string(w.substr(eq + 1)));
    } catch (const YAML::Exception& e) {
      return input_error("override '" + word + "': not a YAML value: " + e.msg);
    }
    cur[parts.back()] = value;
    overridden_[key] = word;
    return ok();
  }

  // ---- the tree as dotted leaves ----------------------------------------------------------------
  void flatten(const YAML::Node& node, const std::string& prefix) {
    for (const auto& kv : node) {
      const std::string name = kv.first.as<std::string>("");
      const std::string key = prefix.empty() ? name : prefix + "." + name;
      const int mark = kv.first.Mark().line;
      const std::uint32_t line = mark >= 0 ? static_cast<std::uint32_t>(mark + 1) : 0;
      if (kv.second.IsMap() && !is_dist_key(key)) {
        flatten(kv.second, key);
      } else {
        leaves_.push_back({key, kv.second, overridden_.count(key) ? 0 : line});
      }
    }
  }

  std::string where(const Leaf& l) const {
    if (l.line == 0) {
      auto it = overridden_.find(l.key);
      return "override '" + (it != overridden_.end() ? it->second : l.key) + "'";
    }
    return source_.string() + ":" + std::to_string(l.line);
  }
  void error(const Leaf& l, const std::string& msg) {
    errors_.push_back(where(l) + ": " + l.key + ": " + msg);
  }
  void note(const std::string& msg) { out_.notes.push_back(msg); }
  // Records that dlgen key `dk` comes from DLIO leaf `l` (comments and error locations).
  void from(const std::string& dk, const Leaf& l) {
    origin_[dk] = l;
    out_.comments[dk] =
        "DLIO " + l.key + (l.line ? " (line " + std::to_string(l.line) + ")" : " (command line)");
  }
  void error_at_dlgen_key(const std::string& dk, const std::string& msg) {
    // "reader.batch_size" or a prefix of a known key ("checkpoint")
    for (std::string k = dk;; k = k.substr(0, k.rfind('.'))) {
      if (auto it = origin_.find(k); it != origin_.end()) {
        errors_.push_back(where(it->second) + ": " + it->second.key + " (dlgen " + dk +
                          "): " + msg);
        return;
      }
      if (k.find('.') == std::string::npos) break;
    }
    errors_.push_back(source_.string() + ": dlgen " + dk + ": " + msg);
  }
  std::string join_errors() const {
    std::string s;
    for (const auto& e : errors_) s += (s.empty() ? "" : "\n") + e;
    return s;
  }

  // ---- scalar values
  // ------------------------------------------------------------------------------
  std::optional<std::string> text(const Leaf& l) {
    if (!l.node.IsScalar()) {
      error(l, "must be a single value");
      return std::nullopt;
    }
    return l.node.Scalar();
  }
  std::optional<double> number(const Leaf& l) {
    auto t = text(l);
    if (!t) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(t->c_str(), &end);
    if (t->empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v)) {
      error(l, "must be a number, not \"" + *t + "\"");
      return std::nullopt;
    }
    return v;
  }
  // A count >= 0 (DLIO writes some as -1 for "not set": `allow_negative` turns those into nullopt).
  std::optional<std::uint64_t> count(const Leaf& l, bool allow_negative = false) {
    auto v = number(l);
    if (!v) return std::nullopt;
    if (*v < 0 && allow_negative) return std::nullopt;
    if (*v < 0 || *v != std::floor(*v) || *v > 9.0e15) {
      error(l, "must be a whole number >= 0");
      return std::nullopt;
    }
    return static_cast<std::uint64_t>(*v);
  }
  std::optional<std::uint32_t> count32(const Leaf& l) {
    auto v = count(l);
    if (v && *v > 0xffffffffull) {
      error(l, "is too large");
      return std::nullopt;
    }
    return v ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*v)) : std::nullopt;
  }
  std::optional<bool> boolean(const Leaf& l) {
    auto t = text(l);
    if (!t) return std::nullopt;
    std::string s = *t;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    if (s == "true" || s == "yes" || s == "on" || s == "1") return true;
    if (s == "false" || s == "no" || s == "off" || s == "0") return false;
    error(l, "must be True or False, not \"" + *t + "\"");
    return std::nullopt;
  }
  std::optional<std::string> word(const Leaf& l) {
    auto t = text(l);
    if (!t) return std::nullopt;
    std::string s = *t;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  }

  // A time given as a number, or as DLIO's map {mean, stdev, type, min, max, shape, scale, lam}.
  std::optional<Distribution> time(const Leaf& l, std::optional<double> stdev) {
    Distribution d;
    if (l.node.IsScalar()) {
      auto v = number(l);
      if (!v) return std::nullopt;
      if (*v < 0) return error(l, "must be >= 0 seconds"), std::nullopt;
      if (stdev && *stdev > 0) {
        d.kind = DistKind::normal;
        d.mean = *v;
        d.stdev = *stdev;
      } else {
        d = Distribution::fixed_at(*v);
      }
      return d;
    }
    if (!l.node.IsMap())
      return error(l, "must be a number of seconds or a map (mean, stdev, type...)"), std::nullopt;
    std::map<std::string, double> p;
    std::string type = "normal";
    for (const auto& kv : l.node) {
      const std::string k = kv.first.as<std::string>("");
      const int mark = kv.first.Mark().line;
      Leaf sub{l.key + "." + k, kv.second,
               l.line == 0 ? 0 : static_cast<std::uint32_t>(std::max(mark, 0) + 1)};
      if (!kDistParams.count(k)) {
        error(sub,
              "unknown distribution parameter (known: mean, stdev, type, min, max, shape, scale, "
              "lam)");
        continue;
      }
      if (k == "type") {
        if (auto w = word(sub)) type = *w;
        continue;
      }
      if (auto v = number(sub)) p[k] = *v;
    }
    auto need = [&](const char* k) {
      if (!p.count(k)) error(l, std::string("a ") + type + " time needs '" + k + "'");
      return p.count(k) ? p[k] : 0.0;
    };
    if (type == "normal") {
      d.kind = DistKind::normal;
      d.mean = need("mean");
      d.stdev = p.count("stdev") ? p["stdev"] : 0;
      if (d.stdev == 0) d = Distribution::fixed_at(d.mean);
    } else if (type == "uniform") {
      d.kind = DistKind::uniform;
      d.min = need("min");
      d.max = need("max");
    } else if (type == "gamma") {  // shape k, scale theta: mean k*theta, stdev sqrt(k)*theta
      const double k = need("shape"), th = need("scale");
      d.kind = DistKind::gamma;
      d.mean = k * th;
      d.stdev = std::sqrt(std::max(k, 0.0)) * th;
    } else if (type == "exponential") {  // gamma with shape 1
      d.kind = DistKind::gamma;
      d.mean = d.stdev = need("scale");
    } else if (type == "poisson") {
      error(l,
            "a poisson time draws whole seconds; dlgen does not model it (give normal, uniform, "
            "gamma or exponential)");
      return std::nullopt;
    } else {
      error(l, "unknown distribution type \"" + type + "\" (normal, uniform, gamma, exponential)");
      return std::nullopt;
    }
    if (p.count("min") && type != "uniform") d.min = p["min"];
    if (p.count("max") && type != "uniform") d.max = p["max"];
    return d;
  }

  // ---- the mapping -----------------------------------------------------------------------------
  // Pass 1 stores every leaf by key (and refuses unknown ones); pass 2 (build) sets the Job.
  void take(const Leaf& l) {
    if (auto r = kRefused.find(l.key); r != kRefused.end())
      return error(l, "not supported: " + r->second);
    const bool dist_param = [&] {
      for (const char* k :
           {"train.computation_time.", "reader.preprocess_time.", "evaluation.eval_time."})
        if (l.key.rfind(k, 0) == 0) return true;
      return false;
    }();
    if (!kMapped.count(l.key) && !dist_param)
      return error(l, "not a DLIO key dlgen knows" + did_you_mean(l.key) +
                          " (dlgen refuses what it cannot honour rather than ignoring it)");
    values_[l.key] = l;
  }
  const Leaf* get(const char* key) const {
    auto it = values_.find(key);
    return it == values_.end() ? nullptr : &it->second;
  }

  void build() {
    Job& job = out_.job;
    // DLIO's defaults (its ConfigArguments), where they differ from dlgen's.
    job.name = source_.stem().string();
    job.description = "converted from the DLIO config " + source_.filename().string();
    job.dataset.format = Format::tfrecord;
    job.dataset.num_files = 8;
    job.dataset.sample_size = Distribution::fixed_at(65536);
    job.dataset.seed = 123;
    job.reader.seed = 123;
    job.reader.shuffle = Shuffle::none;
    job.reader.prefetch = 2;
    job.compute.step_time = Distribution::fixed_at(0);
    job.checkpoint.fsync = false;
    std::filesystem::path folder = "data";

    if (const Leaf* l = get("model")) {
      if (auto t = text(*l)) job.name = *t;
    }
    if (const Leaf* l = get("model.name")) {
      if (auto t = text(*l)) job.name = *t;
      from("job.name", *l);
    }
    if (const Leaf* l = get("model.type")) text(*l);  // cnn, transformer...: no I/O meaning
    if (const Leaf* l = get("framework")) {
      auto w = word(*l);
      if (w && *w != "pytorch" && *w != "tensorflow") error(*l, "must be pytorch or tensorflow");
    }

    // dataset
    if (const Leaf* l = get("dataset.data_folder")) {
      if (auto t = text(*l)) folder = *t;
      from("dataset.dir", *l);
    }
    job.dataset.dir = folder / "train";  // DLIO's layout: <data_folder>/train and /valid
    if (const Leaf* l = get("dataset.format")) {
      from("dataset.format", *l);
      if (auto w = word(*l)) {
        if (auto f = format_from_string(*w))
          job.dataset.format = *f;
        else if (*w == "npy") {
          job.dataset.format = Format::raw;
          note(
              "dataset.format npy: written as raw bytes of the same size (read the same way: one "
              "whole file per sample)");
        } else {
          error(*l, "format \"" + *w + "\" is not supported (npz, npy, hdf5, tfrecord, jpeg)");
        }
      }
    }
    if (const Leaf* l = get("dataset.num_files_train")) {
      if (auto v = count(*l)) job.dataset.num_files = *v;
      from("dataset.num_files", *l);
    }
    if (const Leaf* l = get("dataset.num_samples_per_file")) {
      if (auto v = count32(*l)) job.dataset.samples_per_file = *v;
      from("dataset.samples_per_file", *l);
    }
    double mean = 65536, stdev = 0;
    if (const Leaf* l = get("dataset.record_length_bytes")) {
      if (auto v = number(*l)) mean = *v;
      from("dataset.sample_size", *l);
    }
    if (const Leaf* l = get("dataset.record_length_bytes_stdev")) {
      if (auto v = number(*l)) stdev = *v;
    }
    if (mean < 1) error_at_dlgen_key("dataset.sample_size", "record_length_bytes must be >= 1");
    if (stdev > 0) {
      job.dataset.sample_size = Distribution{};
      job.dataset.sample_size.kind = DistKind::normal;
      job.dataset.sample_size.mean = std::round(mean);
      job.dataset.sample_size.stdev = stdev;
      job.dataset.sample_size.min = 1;
    } else {
      job.dataset.sample_size = Distribution::fixed_at(std::round(mean));
    }
    if (const Leaf* l = get("dataset.record_length_bytes_resize")) {
      if (number(*l))
        note(
            "dataset.record_length_bytes_resize: the in-memory size after decoding; no I/O "
            "meaning, not replayed");
    }
    std::uint64_t subfolders = 0, subfolders_eval = 0;
    if (const Leaf* l = get("dataset.num_subfolders_train")) {
      subfolders = count(*l).value_or(0);
      from("dataset.files_per_dir", *l);
    }
    if (const Leaf* l = get("dataset.num_subfolders_eval")) subfolders_eval = count(*l).value_or(0);
    if (subfolders > 0)
      job.dataset.files_per_dir =
          static_cast<std::uint32_t>((job.dataset.num_files + subfolders - 1) / subfolders);

    // reader
    if (const Leaf* l = get("reader.data_loader")) {
      auto w = word(*l);
      if (w && *w != "pytorch" && *w != "tensorflow" && *w != "dali" && *w != "native_dali")
        error(*l, "must be pytorch, tensorflow, dali or native_dali");
    }
    if (const Leaf* l = get("reader.batch_size")) {
      if (auto v = count32(*l)) job.reader.batch_size = *v;
      from("reader.batch_size", *l);
    }
    if (const Leaf* l = get("reader.read_threads")) {
      if (auto v = count32(*l)) {
        job.reader.workers = *v;  // 0: the training process loads its own batches
      }
      from("reader.workers", *l);
    }
    if (const Leaf* l = get("reader.computation_threads")) {
      if (count(*l))
        note(
            "reader.computation_threads: TensorFlow's parallel decode threads; no I/O meaning, not "
            "replayed");
    }
    if (const Leaf* l = get("reader.prefetch_size")) {
      if (auto v = count32(*l)) job.reader.prefetch = std::max<std::uint32_t>(*v, 1);
      from("reader.prefetch", *l);
    }
    auto shuffle_on = [&](const char* key) {
      const Leaf* l = get(key);
      if (!l) return false;
      auto w = word(*l);
      if (!w) return false;
      if (*w == "off" || *w == "false") return false;
      if (*w == "seed" || *w == "on" || *w == "true") return true;
      if (*w == "random") {
        note(std::string(key) +
             " random: dlgen shuffles with reader.seed (reproducible); change reader.seed for a "
             "new order");
        return true;
      }
      error(*l, "must be off, seed or random");
      return false;
    };
    if (shuffle_on("reader.sample_shuffle")) {
      job.reader.shuffle = Shuffle::sample;
      from("reader.shuffle", *get("reader.sample_shuffle"));
    } else if (shuffle_on("reader.file_shuffle")) {
      job.reader.shuffle = Shuffle::file;
      from("reader.shuffle", *get("reader.file_shuffle"));
    }
    if (const Leaf* l = get("reader.shuffle_size")) {
      if (auto v = count(*l); v && job.reader.shuffle == Shuffle::sample) {
        job.reader.shuffle_buffer = *v;
        from("reader.shuffle_buffer", *l);
      }
    }
    if (const Leaf* l = get("reader.transfer_size")) {
      if (auto v = count(*l, true)) job.reader.request_size_bytes = *v;
      from("reader.request_size", *l);
    }
    std::optional<double> pre_stdev;
    if (const Leaf* l = get("reader.preprocess_time_stdev")) pre_stdev = number(*l);
    if (const Leaf* l = get("reader.preprocess_time")) {
      if (auto d = time(*l, pre_stdev)) job.reader.preprocess = *d;
      from("reader.preprocess", *l);
    }
    if (const Leaf* l = get("reader.odirect")) {
      if (auto b = boolean(*l)) job.reader.direct = *b;
      from("reader.direct", *l);
    }
    if (const Leaf* l = get("reader.dont_use_mmap")) {
      if (boolean(*l)) note("reader.dont_use_mmap: dlgen never maps files; it reads them");
    }

    // train
    if (const Leaf* l = get("train.epochs")) {
      if (auto v = count32(*l)) job.run.epochs = *v;
      from("run.epochs", *l);
    }
    std::optional<double> ct_stdev;
    if (const Leaf* l = get("train.computation_time_stdev")) ct_stdev = number(*l);
    if (const Leaf* l = get("train.computation_time")) {
      if (auto d = time(*l, ct_stdev)) job.compute.step_time = *d;
      from("compute.time", *l);
    }
    if (const Leaf* l = get("train.total_training_steps")) {
      if (auto v = count(*l, true); v && *v > 0) {
        if (job.run.epochs > 1)
          error(*l, "dlgen stops each epoch after run.max_steps; a step total over " +
                        std::to_string(job.run.epochs) +
                        " epochs is not supported (set train.epochs=1)");
        job.run.max_steps = *v;
        from("run.max_steps", *l);
      }
    }
    if (const Leaf* l = get("metric.au")) {
      if (auto v = number(*l)) job.compute.au_threshold = *v;
      from("compute.au_threshold", *l);
    }

    // workflow
    bool evaluation = false, checkpoint = false;
    if (const Leaf* l = get("workflow.generate_data")) {
      if (boolean(*l))
        note(
            "workflow.generate_data: dlgen generates a missing dataset itself (and never "
            "overwrites files it did not write)");
    }
    bool train = true;
    if (const Leaf* l = get("workflow.evaluation")) evaluation = boolean(*l).value_or(false);
    if (const Leaf* l = get("workflow.checkpoint")) {
      checkpoint = boolean(*l).value_or(false);
      from("checkpoint.enabled", *l);
    }
    if (const Leaf* l = get("workflow.train")) {
      train = boolean(*l).value_or(true);
      if (!train) {
        from("run.train", *l);
        if (!checkpoint)
          error(*l,
                "False runs nothing unless workflow.checkpoint is True (the checkpoint-only "
                "workflow); "
                "`dlgen generate` writes a dataset");
        if (evaluation) error(*l, "False with workflow.evaluation True: evaluation needs training");
      }
    }

    // evaluation
    std::uint64_t eval_files = 0;
    if (const Leaf* l = get("dataset.num_files_eval")) eval_files = count(*l).value_or(0);
    if (evaluation) {
      const Leaf* wl = get("workflow.evaluation");
      if (eval_files == 0) {
        error(*wl, "evaluation needs dataset.num_files_eval > 0");
      } else {
        DatasetSpec v = job.dataset;
        v.dir = folder / "valid";
        v.num_files = eval_files;
        v.files_per_dir =
            subfolders_eval > 0
                ? static_cast<std::uint32_t>((eval_files + subfolders_eval - 1) / subfolders_eval)
                : 0;
        job.validation = v;
        if (const Leaf* l = get("dataset.num_files_eval")) from("validation.num_files", *l);
        job.run.eval_every_epochs = 1;
        if (const Leaf* l = get("evaluation.epochs_between_evals")) {
          if (auto n = count32(*l)) job.run.eval_every_epochs = *n;
          from("run.eval_every_epochs", *l);
        }
        std::optional<double> ev_stdev;
        if (const Leaf* l = get("evaluation.eval_time_stdev")) ev_stdev = number(*l);
        // DLIO's default eval_time is 0: an evaluation pass then only reads.
        const Leaf* et = get("evaluation.eval_time");
        const std::optional<Distribution> eval_time =
            et ? time(*et, ev_stdev) : Distribution::fixed_at(0);
        if (eval_time) job.compute.eval_time = *eval_time;
        if (et) from("compute.eval_time", *et);
      }
      if (const Leaf* l = get("reader.batch_size_eval")) {
        if (auto v = count32(*l); v && *v != job.reader.batch_size)
          error(*l,
                "dlgen evaluates with reader.batch_size; a different evaluation batch size is not "
                "supported yet");
      }
    }

    // checkpoints
    CheckpointSpec& k = job.checkpoint;
    k.enabled = checkpoint;
    k.dir = "checkpoints";
    if (const Leaf* l = get("checkpoint.checkpoint_folder")) {
      if (auto t = text(*l)) k.dir = *t;
      from("checkpoint.dir", *l);
    }
    k.every_epochs = 1;
    std::uint32_t after = 1;
    if (const Leaf* l = get("checkpoint.epochs_between_checkpoints")) {
      if (auto v = count32(*l)) k.every_epochs = *v;
      from("checkpoint.every_epochs", *l);
    }
    if (const Leaf* l = get("checkpoint.checkpoint_after_epoch")) {
      if (auto v = count32(*l)) after = std::max<std::uint32_t>(*v, 1);
      from("checkpoint.first_epoch", *l);
    }
    if (const Leaf* l = get("checkpoint.steps_between_checkpoints")) {
      if (auto v = count(*l, true); v && *v > 0) {
        k.every_steps = *v;
        k.every_epochs = 0;
        from("checkpoint.every_steps", *l);
      }
    }
    if (k.every_epochs > 0) k.first_epoch = after;
    if (const Leaf* l = get("checkpoint.fsync")) {
      if (auto b = boolean(*l)) k.fsync = *b;
      from("checkpoint.fsync", *l);
    }
    const bool llm = read_llm(train, checkpoint);
    if (const Leaf* l = get("model.model_size")) {
      if (llm) {
        count(*l);
        note(
            "model.model_size: ignored for an LLM (DLIO ignores it for transformers too): the "
            "model description sizes the shards");
      } else {
        if (auto v = count(*l)) k.size_bytes = *v;
        from("checkpoint.size", *l);
        if (checkpoint)
          note("checkpoint size = model.model_size = " + std::to_string(k.size_bytes) +
               " bytes, written for real with fresh incompressible content (DLIO ignores "
               "model_size here)");
      }
    }
    if (checkpoint && !llm && k.size_bytes == 0)
      error_at_dlgen_key("checkpoint.enabled",
                         "a checkpoint needs model.model_size (bytes of one checkpoint)");
    read_checkpoint_workflow(train, checkpoint, llm);
    if (!checkpoint) {
      job.model.reset();
      k = CheckpointSpec{};
      for (const char* key :
           {"checkpoint.checkpoint_folder", "checkpoint.epochs_between_checkpoints",
            "checkpoint.steps_between_checkpoints", "checkpoint.checkpoint_after_epoch"})
        if (get(key)) {
          note(
              "the checkpoint section is not in force: workflow.checkpoint is not True (as in "
              "DLIO)");
          break;
        }
    }
    note("MiB/s counts the bytes actually read (DLIO reports samples x record_length_bytes)");
  }

  // The LLM description (model.num_layers, parallelism.*, transformer.*, datatypes) -> Job::model.
  // Returns whether the config describes an LLM. Only the checkpoint-only workflow uses it.
  bool read_llm(bool train, bool checkpoint) {
    const Leaf* first = nullptr;
    for (const char* key : kLlmKeys)
      if (const Leaf* l = get(key); l && (!first || (l->line && l->line < first->line))) first = l;
    if (!first) return false;
    if (train) {
      error(*first,
            "an LLM checkpoint during training is not built yet: dlgen runs LLM checkpoints as "
            "MLPerf Storage "
            "v2.0 does, checkpoint-only (workflow.train: False, workflow.checkpoint: True)");
      return true;
    }
    if (!checkpoint) return true;  // reported at workflow.train
    LlmModel m;
    auto whole = [&](const char* key, auto& field, bool required, const char* dk) {
      const Leaf* l = get(key);
      if (!l) {
        if (required) error(*first, std::string("an LLM description needs ") + key);
        return;
      }
      from(std::string("model.") + dk, *l);
      if (auto v = count(*l)) {
        using F = std::remove_reference_t<decltype(field)>;
        if (*v > std::numeric_limits<F>::max()) return error(*l, "is too large");
        field = static_cast<F>(*v);
      }
    };
    whole("model.num_layers", m.num_layers, true, "num_layers");
    whole("model.transformer.hidden_size", m.hidden_size, true, "hidden_size");
    whole("model.transformer.ffn_hidden_size", m.ffn_hidden_size, true, "ffn_hidden_size");
    whole("model.transformer.vocab_size", m.vocab_size, true, "vocab_size");
    whole("model.transformer.num_attention_heads", m.attention_heads, true, "attention_heads");
    m.kv_heads = m.attention_heads;
    whole("model.transformer.num_kv_heads", m.kv_heads, false, "kv_heads");
    whole("model.parallelism.tensor", m.tensor, false, "tensor_parallel");
    whole("model.parallelism.pipeline", m.pipeline, false, "pipeline_parallel");
    whole("model.parallelism.zero_stage", m.zero_stage, false, "zero_stage");
    if (!get("model.parallelism.data"))
      error(*first,
            "model.parallelism.data is needed: DLIO takes the data-parallel size from the MPI "
            "processes "
            "(processes / (tensor x pipeline)); give it, e.g. ++workload.model.parallelism.data=8");
    whole("model.parallelism.data", m.data, false, "data_parallel");
    auto type = [&](const char* key, DataType& field, const char* dk) {
      const Leaf* l = get(key);
      if (!l) return;
      from(std::string("model.") + dk, *l);
      if (auto w = word(*l)) {
        if (auto t = datatype_from_string(*w))
          field = *t;
        else
          error(*l, "unknown datatype \"" + *w + "\" (int8, uint8, fp16, bf16, fp32, fp64)");
      }
    };
    type("model.model_datatype", m.datatype, "datatype");
    type("model.optimizer_datatype", m.optimizer_datatype, "optimizer_datatype");
    out_.job.model = m;
    origin_["model"] = *first;
    return true;
  }

  // workflow.train False: num_checkpoints_write/read, time_between_checkpoints, mode, type.
  void read_checkpoint_workflow(bool train, bool checkpoint, bool llm) {
    CheckpointSpec& k = out_.job.checkpoint;
    const Leaf* w = get("checkpoint.num_checkpoints_write");
    const Leaf* r = get("checkpoint.num_checkpoints_read");
    if (train || !checkpoint) {
      for (const Leaf* l :
           {w, r, get("checkpoint.time_between_checkpoints"), get("checkpoint.mode")})
        if (l && checkpoint)
          error(*l,
                "applies to the checkpoint-only workflow (workflow.train: False); during training "
                "checkpoints "
                "follow steps_between_checkpoints / epochs_between_checkpoints");
      if (const Leaf* l = get("checkpoint.type")) check_type(*l, llm, checkpoint);
      return;
    }
    out_.job.run.train = false;
    k.enabled = false;  // no training to interleave with: writes and reads below
    k.every_epochs = k.every_steps = 0;
    k.first_epoch = 0;
    if (w) {
      if (auto v = count32(*w)) k.writes = *v;
      from("checkpoint.writes", *w);
    }
    if (r) {
      if (auto v = count32(*r)) k.reads = *v;
      from("checkpoint.reads", *r);
    }
    if (const Leaf* l = get("checkpoint.time_between_checkpoints")) {
      auto v = number(*l);
      if (v && *v > 0) k.pause_s = *v;
      from("checkpoint.pause", *l);
    }
    if (const Leaf* l = get("checkpoint.mode")) {
      from("checkpoint.mode", *l);
      if (auto m = word(*l)) {
        if (*m == "subset") {
          k.mode = CheckpointMode::subset;
          note("checkpoint.mode subset: this host simulates ranks 0.." +
               std::to_string(k.ranks_per_host - 1) +
               " of the TP x PP x DP world, each writing its own share (--set "
               "checkpoint.ranks_per_host=N for another count)");
        } else if (*m != "default") {
          error(*l, "must be default or subset");
        }
      }
    }
    if (const Leaf* l = get("checkpoint.type")) check_type(*l, llm, checkpoint);
    if (llm && k.mode == CheckpointMode::all && out_.job.model && out_.job.model->world() > 8)
      note("checkpoint.mode default: this host simulates all " +
           std::to_string(out_.job.model->world()) +
           " ranks of the model (one thread each); MLPerf Storage runs one host's share with "
           "checkpoint.mode: subset");
    note("checkpoint-only workflow: " + std::to_string(k.writes) + " checkpoint(s) written, then " +
         std::to_string(k.reads) +
         " read back, the page cache dropped between when the data is under 3x this host's RAM");
  }

  void check_type(const Leaf& l, bool llm, bool checkpoint) {
    auto t = word(l);
    if (!t) return;
    if (*t != "rank_zero" && *t != "all_ranks") return error(l, "must be rank_zero or all_ranks");
    if (!checkpoint) return;
    if (llm)
      note(
          "checkpoint.type: DLIO's LLM checkpointing writes the shards ZeRO and TP x PP give each "
          "rank whatever the "
          "type; so does dlgen");
    else if (*t == "all_ranks")
      error(l,
            "all_ranks (every rank writing its own model_size checkpoint) is not mapped; give "
            "checkpoint.size and "
            "checkpoint.files in the converted TOML job");
  }

  std::filesystem::path source_;
  DlioJob out_;
  std::vector<Leaf> leaves_;
  std::map<std::string, Leaf, std::less<>> values_;
  std::map<std::string, Leaf> origin_;
  std::map<std::string, std::string> overridden_;  // DLIO key -> the override that set it
  std::vector<std::string> errors_;
};

}  // namespace

bool is_dlio_config(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".yaml" || ext == ".yml";
}

bool is_hydra_override(std::string_view w) {
  if (w.rfind("--", 0) == 0 || w.empty()) return false;
  if (w.front() == '~') return w.size() > 1;
  const std::size_t eq = w.find('=');
  return eq != std::string_view::npos && eq > (w.rfind("++", 0) == 0 ? 2u
                                               : w.front() == '+'    ? 1u
                                                                     : 0u);
}

Result<DlioJob> parse_dlio(std::string_view yaml_text, const std::filesystem::path& source_name,
                           const std::vector<std::string>& overrides) {
  Reader r(source_name);
  Result<DlioJob> out = r.read(yaml_text, overrides);
  if (out) out->job.source = source_name;
  return out;
}

Result<DlioJob> load_dlio(const std::filesystem::path& path,
                          const std::vector<std::string>& overrides) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return input_error(path.string() + ": cannot open DLIO config: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_dlio(ss.str(), path, overrides);
}

namespace {

// Emits a time or size distribution as DLIO writes it: a number, or a map with a type.
bool emit_dist(YAML::Emitter& y, const Distribution& d) {
  switch (d.kind) {
    case DistKind::fixed:
      y << d.value;
      return true;
    case DistKind::normal:
      y << YAML::BeginMap << YAML::Key << "mean" << YAML::Value << d.mean << YAML::Key << "stdev"
        << YAML::Value << d.stdev << YAML::EndMap;
      return true;
    case DistKind::uniform:
      y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << "uniform" << YAML::Key << "min"
        << YAML::Value << d.min << YAML::Key << "max" << YAML::Value << d.max << YAML::EndMap;
      return true;
    case DistKind::gamma: {  // mean k*theta, stdev sqrt(k)*theta
      if (d.mean <= 0 || d.stdev <= 0) return false;
      const double theta = d.stdev * d.stdev / d.mean;
      y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << "gamma" << YAML::Key << "shape"
        << YAML::Value << d.mean / theta << YAML::Key << "scale" << YAML::Value << theta
        << YAML::EndMap;
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

Result<std::string> to_dlio_yaml(const Job& job, std::vector<std::string>* notes) {
  std::vector<std::string> refused;
  auto refuse = [&](const std::string& key, const std::string& why) {
    refused.push_back(key + ": " + why);
  };
  auto note = [&](const std::string& n) {
    if (notes) notes->push_back(n);
  };
  const ReaderSpec& r = job.reader;
  const DatasetSpec& d = job.dataset;
  if (!job.run.train)
    refuse("run.train", "checkpoint-only workloads are not written as DLIO configs yet");
  if (job.model) refuse("model", "LLM models are not written as DLIO configs yet");
  if (d.format == Format::raw)
    refuse("dataset.format", "raw files have no DLIO format (npz, hdf5, tfrecord, jpeg)");
  if (d.sample_size.kind != DistKind::fixed && d.sample_size.kind != DistKind::normal)
    refuse("dataset.sample_size",
           std::string("DLIO sizes records as a fixed size or mean and stdev, not ") +
               to_string(d.sample_size.kind));
  if (r.header_read_bytes || r.probe_bytes || r.readahead_bytes)
    refuse("reader.header_read/probe/readahead",
           "DLIO's readers have no library access pattern to replay");
  if (r.startup_s > 0 || r.warmup_s > 0)
    refuse("reader.startup/warmup", "DLIO has no worker start-up or warm-up time");
  if (!(r.startup_spread == Distribution{}))
    refuse("reader.startup_spread", "DLIO's accelerators start every epoch together");
  if (r.read_unit == ReadUnit::stream)
    refuse("reader.read", "DLIO's readers index samples; they do not stream shards per worker");
  if (r.read_unit == ReadUnit::sample && d.samples_per_file > 1)
    note("reader.read = sample: DLIO's reader for the format decides how a sample is read");
  if (r.iodepth > 1) refuse("reader.iodepth", "a DLIO reader has one request in flight per thread");
  if (r.drop_last) note("reader.drop_last: DLIO always drops the last partial batch");
  if (job.run.cache != CacheMode::keep) refuse("run.cache", "DLIO does not drop the page cache");
  if (job.run.max_seconds > 0) refuse("run.max_time", "DLIO has no time limit");
  if (job.run.sync_steps)
    refuse("run.sync_steps", "DLIO's simulated accelerators never wait for each other per step");
  if (job.run.max_steps > 0 && job.run.epochs > 1)
    refuse("run.max_steps",
           "DLIO's total_training_steps counts the whole run; dlgen's limit is per epoch");
  if (job.run.accelerators > 1)
    note("run.accelerators = " + std::to_string(job.run.accelerators) +
         ": in DLIO the accelerators are MPI ranks (mpirun -np " +
         std::to_string(job.run.accelerators) + ")");
  if (job.checkpoint.enabled && job.checkpoint.files > 1)
    refuse("checkpoint.files", "DLIO writes a CNN checkpoint as one file per rank");
  if (!(job.compute.batch_overhead == Distribution{}))
    refuse("compute.batch_overhead", "DLIO has no consumer cost per batch outside compute");
  if (job.checkpoint.enabled && (job.checkpoint.direct || job.checkpoint.copy != CopyCall::none))
    refuse("checkpoint.direct/copy",
           "DLIO writes checkpoints through its framework, never copies them");

  YAML::Emitter y;
  y.SetDoublePrecision(12);
  y << YAML::BeginMap;
  y << YAML::Key << "model" << YAML::Value << YAML::BeginMap << YAML::Key << "name" << YAML::Value
    << job.name;
  if (job.checkpoint.enabled)
    y << YAML::Key << "model_size" << YAML::Value << job.checkpoint.size_bytes;
  y << YAML::EndMap;
  y << YAML::Key << "framework" << YAML::Value << "pytorch";
  const bool eval = job.validation && job.run.eval_every_epochs > 0;
  y << YAML::Key << "workflow" << YAML::Value << YAML::BeginMap << YAML::Key << "generate_data"
    << YAML::Value << "False" << YAML::Key << "train" << YAML::Value << "True" << YAML::Key
    << "evaluation" << YAML::Value << (eval ? "True" : "False") << YAML::Key << "checkpoint"
    << YAML::Value << (job.checkpoint.enabled ? "True" : "False") << YAML::EndMap;

  y << YAML::Key << "dataset" << YAML::Value << YAML::BeginMap;
  std::filesystem::path folder = d.dir;
  if (d.dir.filename() == "train")
    folder = d.dir.parent_path();
  else
    note("dataset.dir " + d.dir.string() + ": DLIO reads " + (d.dir / "train").string() +
         " (data_folder/train)");
  if (eval && job.validation->dir != folder / "valid")
    note("validation.dir " + job.validation->dir.string() + ": DLIO reads " +
         (folder / "valid").string());
  y << YAML::Key << "data_folder" << YAML::Value << folder.string();
  y << YAML::Key << "format" << YAML::Value << to_string(d.format);
  y << YAML::Key << "num_files_train" << YAML::Value << d.num_files;
  if (eval) y << YAML::Key << "num_files_eval" << YAML::Value << job.validation->num_files;
  y << YAML::Key << "num_samples_per_file" << YAML::Value << d.samples_per_file;
  if (d.sample_size.kind == DistKind::normal) {
    y << YAML::Key << "record_length_bytes" << YAML::Value << d.sample_size.mean;
    y << YAML::Key << "record_length_bytes_stdev" << YAML::Value << d.sample_size.stdev;
  } else {
    y << YAML::Key << "record_length_bytes" << YAML::Value << d.sample_size.value;
  }
  if (d.files_per_dir > 0)
    y << YAML::Key << "num_subfolders_train" << YAML::Value
      << (d.num_files + d.files_per_dir - 1) / d.files_per_dir;
  if (eval && job.validation->files_per_dir > 0)
    y << YAML::Key << "num_subfolders_eval" << YAML::Value
      << (job.validation->num_files + job.validation->files_per_dir - 1) /
             job.validation->files_per_dir;
  y << YAML::EndMap;

  y << YAML::Key << "reader" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "data_loader" << YAML::Value << "pytorch";
  y << YAML::Key << "batch_size" << YAML::Value << r.batch_size;
  if (eval) y << YAML::Key << "batch_size_eval" << YAML::Value << r.batch_size;
  y << YAML::Key << "read_threads" << YAML::Value << r.workers;
  y << YAML::Key << "prefetch_size" << YAML::Value << r.prefetch;
  const char* shuffle = r.shuffle == Shuffle::none ? "off" : "seed";
  y << YAML::Key << "file_shuffle" << YAML::Value << shuffle;
  y << YAML::Key << "sample_shuffle" << YAML::Value
    << (r.shuffle == Shuffle::sample ? "seed" : "off");
  if (r.shuffle_buffer > 0) y << YAML::Key << "shuffle_size" << YAML::Value << r.shuffle_buffer;
  if (r.request_size_bytes > 0)
    y << YAML::Key << "transfer_size" << YAML::Value << r.request_size_bytes;
  if (r.direct) y << YAML::Key << "odirect" << YAML::Value << "True";
  if (!(r.preprocess == Distribution::fixed_at(0))) {
    y << YAML::Key << "preprocess_time" << YAML::Value;
    if (!emit_dist(y, r.preprocess)) {
      y << 0;
      refuse("reader.preprocess", "a histogram has no DLIO form");
    }
  }
  y << YAML::EndMap;

  y << YAML::Key << "train" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "epochs" << YAML::Value << job.run.epochs;
  y << YAML::Key << "computation_time" << YAML::Value;
  if (!emit_dist(y, job.compute.effective())) {
    y << 0;
    refuse("compute.time", "a histogram has no DLIO form");
  }
  if (job.run.max_steps > 0 && job.run.epochs == 1)
    y << YAML::Key << "total_training_steps" << YAML::Value << job.run.max_steps;
  y << YAML::EndMap;

  if (eval) {
    y << YAML::Key << "evaluation" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "eval_time" << YAML::Value;
    if (!emit_dist(y, job.compute.effective(true))) {
      y << 0;
      refuse("compute.eval_time", "a histogram has no DLIO form");
    }
    y << YAML::Key << "epochs_between_evals" << YAML::Value << job.run.eval_every_epochs
      << YAML::EndMap;
  }
  if (job.checkpoint.enabled) {
    const CheckpointSpec& k = job.checkpoint;
    y << YAML::Key << "checkpoint" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "checkpoint_folder" << YAML::Value << k.dir.string();
    if (k.every_steps > 0)
      y << YAML::Key << "steps_between_checkpoints" << YAML::Value << k.every_steps;
    if (k.every_epochs > 0) {
      y << YAML::Key << "checkpoint_after_epoch" << YAML::Value
        << (k.first_epoch > 0 ? k.first_epoch : k.every_epochs);
      y << YAML::Key << "epochs_between_checkpoints" << YAML::Value << k.every_epochs;
    }
    y << YAML::Key << "fsync" << YAML::Value << (k.fsync ? "True" : "False");
    y << YAML::EndMap;
  }
  y << YAML::Key << "metric" << YAML::Value << YAML::BeginMap << YAML::Key << "au" << YAML::Value
    << job.compute.au_threshold << YAML::EndMap;
  y << YAML::EndMap;

  if (!refused.empty()) {
    std::string msg = "cannot write " + job.name + " as a DLIO config:";
    for (const auto& s : refused) msg += "\n  " + s;
    return input_error(msg);
  }
  return std::string(y.c_str()) + "\n";
}

}  // namespace dlgen
