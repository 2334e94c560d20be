#pragma once
// The lexicon of the trace text format (docs/trace-format.md, "Text form"): a line's key=value
// fields and the values' forms (times, byte sizes, integers, lists, quoted strings), apart from
// trace_text.cpp's parser of the records they make.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dlgen/core/result.hpp"

namespace dlgen::trace::text {

struct Field {
  std::string key, value;
};

// Splits a line into key=value tokens; a value may be double-quoted to hold spaces, '#', or (as
// \" \\ \n) quotes, backslashes and newlines. '#' starts a comment except as a value's first
// character (file=#3) or inside quotes.
Result<std::vector<Field>> tokenize(std::string_view line);

// "1.5ms" -> 1500000. Bare numbers are nanoseconds.
Result<std::uint64_t> parse_time_ns(const std::string& s);

Result<std::uint64_t> parse_bytes(const std::string& s);

Result<std::uint64_t> parse_uint(const std::string& s);

Result<std::int64_t> parse_int(const std::string& s);

Result<bool> parse_bool(const std::string& s);

std::vector<std::string> split_words(const std::string& s);

// GPU names hold spaces ("NVIDIA H200"): lists of them are comma-separated.
std::vector<std::string> split_list(const std::string& s);

std::string join_list(const std::vector<std::string>& w);

std::string join_words(const std::vector<std::string>& w);

std::string quote(const std::string& s);

}  // namespace dlgen::trace::text
