#include "framing.hpp"

namespace dlgen::datasets::framing {

std::string npy_header(std::uint64_t n) {
  std::string dict =
      "{'descr': '|u1', 'fortran_order': False, 'shape': (" + std::to_string(n) + ",), }";
  // magic (6) + version (2) + header length (2) + dict + padding + '\n', a multiple of 64.
  const std::size_t unpadded = 10 + dict.size() + 1;
  const std::size_t total = (unpadded + 63) / 64 * 64;
  const std::size_t hlen = total - 10;
  std::string h("\x93NUMPY\x01\x00", 8);
  h.push_back(static_cast<char>(hlen & 0xff));
  h.push_back(static_cast<char>(hlen >> 8));
  h += dict;
  h.append(total - unpadded, ' ');
  h.push_back('\n');
  return h;
}

std::string npz_member_name(std::uint32_t sample) {
  return "x_" + std::to_string(sample) + ".npy";
}

namespace {
std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}
void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}
}  // namespace

std::vector<std::uint8_t> example_prefix(std::uint64_t n) {
  // Field 1, wire type 2 (length-delimited) is tag byte 0x0a; field 2 is 0x12. Inside out:
  const std::uint64_t bytes_list = 1 + varint_size(n) + n;                 // BytesList.value
  const std::uint64_t feature = 1 + varint_size(bytes_list) + bytes_list;  // Feature.bytes_list
  const std::uint64_t entry = 3 + 1 + varint_size(feature) + feature;  // map entry "x" → Feature
  const std::uint64_t features = 1 + varint_size(entry) + entry;       // Features.feature
  std::vector<std::uint8_t> out;
  out.push_back(0x0a);  // Example.features
  put_varint(out, features);
  out.push_back(0x0a);  // Features.feature (map entry)
  put_varint(out, entry);
  out.push_back(0x0a);  // entry.key
  out.push_back(0x01);
  out.push_back('x');
  out.push_back(0x12);  // entry.value
  put_varint(out, feature);
  out.push_back(0x0a);  // Feature.bytes_list
  put_varint(out, bytes_list);
  out.push_back(0x0a);  // BytesList.value
  put_varint(out, n);
  return out;
}

}  // namespace dlgen::datasets::framing
