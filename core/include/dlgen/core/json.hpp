#pragma once
// nlohmann/json for dlgen's own code: the same library, with its parser (over a std::string, a
// const char* range, an istream) and its serializer (json, ordered_json) compiled once, in
// core/src/json_instances.cpp, instead of in every file that reads or writes JSON. At -O2 -g those
// instantiations cost ~3 CPU-s in each of the ~55 files that parse and ~0.8 s in each that dumps.
// Include this instead of <nlohmann/json.hpp>; types and behaviour are nlohmann's, unchanged.
#include <nlohmann/json.hpp>
#include <string>

namespace dlgen::json_detail {
namespace nd = nlohmann::detail;
using StringInput = nd::iterator_input_adapter<std::string::const_iterator>;
using CharInput = nd::iterator_input_adapter<const char*>;
using StreamInput = nd::input_stream_adapter;
}  // namespace dlgen::json_detail

extern template class nlohmann::detail::lexer<nlohmann::json, dlgen::json_detail::StringInput>;
extern template class nlohmann::detail::parser<nlohmann::json, dlgen::json_detail::StringInput>;
extern template class nlohmann::detail::lexer<nlohmann::json, dlgen::json_detail::CharInput>;
extern template class nlohmann::detail::parser<nlohmann::json, dlgen::json_detail::CharInput>;
extern template class nlohmann::detail::lexer<nlohmann::json, dlgen::json_detail::StreamInput>;
extern template class nlohmann::detail::parser<nlohmann::json, dlgen::json_detail::StreamInput>;
extern template class nlohmann::detail::json_sax_dom_parser<nlohmann::json>;
extern template class nlohmann::detail::json_sax_dom_callback_parser<nlohmann::json>;
extern template class nlohmann::detail::serializer<nlohmann::json>;
extern template class nlohmann::detail::serializer<nlohmann::ordered_json>;
