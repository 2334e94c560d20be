#pragma once
// The DLIO config reader: the YAML tree (after Hydra overrides) as dotted leaves, each refused or
// stored by key (pass 1, reader.cpp), then the Job set from them section by section (pass 2,
// mapping.cpp; the LLM checkpoint workflow in mapping_llm.cpp). Every error names the file and
// line, or the override, of the DLIO key it is about; they are all returned at once.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlgen/core/llm.hpp"
#include "dlgen/dlio/config.hpp"

namespace dlgen::dlio {

// One value of the config: its dotted key below `workload`, its node and where it came from.
struct Leaf {
  std::string key;
  YAML::Node node;
  std::uint32_t line = 0;  // 1-based; 0: set by a command-line override
};

class Reader {
 public:
  Reader(std::filesystem::path source, const DlioContext& context)
      : source_(std::move(source)), context_(context) {}

  Result<DlioJob> read(std::string_view text, const std::vector<std::string>& overrides);

 private:
  // Which of DLIO's workflows the config asks for (workflow.*).
  struct Workflow {
    bool train = true, evaluation = false, checkpoint = false;
  };

  // ---- locations and messages (reader.cpp)
  void flatten(const YAML::Node& node, const std::string& prefix);
  std::string where(const Leaf& l) const;
  void error(const Leaf& l, const std::string& msg);
  void note(const std::string& msg) { out_.notes.push_back(msg); }
  // Records that dlgen key `dk` comes from DLIO leaf `l` (comments and error locations).
  void from(const std::string& dk, const Leaf& l);
  void error_at_dlgen_key(const std::string& dk, const std::string& msg);
  std::string join_errors() const;

  // ---- scalar values (reader.cpp); each reports its own error and returns nullopt
  std::optional<std::string> text(const Leaf& l);
  std::optional<double> number(const Leaf& l);
  // A count >= 0 (DLIO writes some as -1 for "not set": `allow_negative` turns those into nullopt).
  std::optional<std::uint64_t> count(const Leaf& l, bool allow_negative = false);
  std::optional<std::uint32_t> count32(const Leaf& l);
  std::optional<bool> boolean(const Leaf& l);
  std::optional<std::string> word(const Leaf& l);
  // A time given as a number, or as DLIO's map {mean, stdev, type, min, max, shape, scale, lam}.
  std::optional<Distribution> time(const Leaf& l, std::optional<double> stdev);
  std::optional<Distribution> time_from_map(const Leaf& l);

  // ---- pass 1: every leaf stored by key, unknown and refused keys reported (reader.cpp)
  void take(const Leaf& l);
  const Leaf* get(const char* key) const;

  // ---- pass 2: the Job, section by section, in DLIO's order (mapping.cpp)
  void build();
  void set_dlio_defaults();
  void read_model_and_framework();
  void read_dataset();
  void read_listing();
  void read_indexed_binary(const std::string& format);
  void read_sample_size();
  // ---- Parquet (mapping_parquet.cpp)
  void read_parquet();
  void read_parquet_columns();
  bool read_parquet_column(const Leaf& l, const YAML::Node& n, std::size_t i, ParquetColumn& c,
                           bool& read);
  // ---- object storage (mapping_s3.cpp)
  void read_storage();
  void read_storage_root();
  void read_storage_options();
  void read_checkpoint_location(bool checkpoint);
  void read_reader();
  void read_shuffle();
  void read_train();
  Workflow read_workflow();
  void read_evaluation(const Workflow& flow);
  void read_checkpoint_cadence(bool checkpoint);
  void read_checkpoint_size(bool checkpoint, bool llm);
  void drop_checkpoint_out_of_force();

  // ---- the LLM checkpoint-only workflow (mapping_llm.cpp)
  bool read_llm(bool train, bool checkpoint);
  void read_data_parallel(const Leaf& first, LlmModel& m, bool train);
  void read_checkpoint_workflow(bool train, bool checkpoint, bool llm);
  void check_type(const Leaf& l, bool llm, bool checkpoint);

  std::filesystem::path source_;
  DlioContext context_;
  DlioJob out_;
  std::vector<Leaf> leaves_;
  std::map<std::string, Leaf, std::less<>> values_;
  std::map<std::string, Leaf> origin_;
  std::map<std::string, std::string> overridden_;  // DLIO key -> the override that set it
  std::vector<std::string> errors_;
  std::filesystem::path folder_ = "data";  // dataset.data_folder: holds train/ and valid/
  // With storage_type s3: "s3://" + storage_root (the data folder's bucket without one), the
  // namespace DLIO's pt_s3_save writes checkpoint_folder below; empty on files.
  std::string s3_root_;
  std::uint64_t subfolders_eval_ = 0;  // dataset.num_subfolders_eval
};

}  // namespace dlgen::dlio
