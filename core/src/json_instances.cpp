// The one copy of nlohmann/json's parser and serializer that dlgen/core/json.hpp declares extern.
#include "dlgen/core/json.hpp"

template class nlohmann::detail::lexer<nlohmann::json, dlgen::json_detail::StringInput>;
template class nlohmann::detail::parser<nlohmann::json, dlgen::json_detail::StringInput>;
template class nlohmann::detail::lexer<nlohmann::json, dlgen::json_detail::CharInput>;
template class nlohmann::detail::parser<nlohmann::json, dlgen::json_detail::CharInput>;
template class nlohmann::detail::lexer<nlohmann::json, dlgen::json_detail::StreamInput>;
template class nlohmann::detail::parser<nlohmann::json, dlgen::json_detail::StreamInput>;
template class nlohmann::detail::json_sax_dom_parser<nlohmann::json>;
template class nlohmann::detail::json_sax_dom_callback_parser<nlohmann::json>;
template class nlohmann::detail::serializer<nlohmann::json>;
template class nlohmann::detail::serializer<nlohmann::ordered_json>;
