#pragma once
// The names classify judges files by: code, libraries and configs (never data), checkpoint names,
// dataset split names ("val", "train2017"), validation directories. Private to the stages.
#include <string>
#include <string_view>
#include <vector>

namespace dlgen::analysis::stages::names {

std::string lower(std::string s);
std::string extension_of(const std::string& path);  // lower case, with its dot
std::string parent_of(const std::string& path);
bool starts_with(const std::string& s, std::string_view p);
bool contains(const std::string& s, std::string_view p);
// Code, libraries, configs and kernel files: never data, whatever the program does with them.
bool is_ignored_path(const std::string& path);
// A checkpoint's extension, or "checkpoint"/"ckpt" in its path (an object's key, not its bucket).
bool is_checkpoint_name(const std::string& path);
// A directory name that is exactly a split's name ("val", "train"); *validation says which.
bool is_exact_split_name(const std::string& name, bool* validation);
// A directory name naming a split exactly or as one of its words ("imagenet-val", "val2017").
bool is_split_name(const std::string& name, bool* validation);
// True when a dataset directory is a validation set's by name (strictly or loosely, see .cpp).
bool mentions_validation(const std::string& path, const std::vector<std::string>& others,
                         bool strict);

}  // namespace dlgen::analysis::stages::names
