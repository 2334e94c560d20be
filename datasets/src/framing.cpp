#include "framing.hpp"

#include <algorithm>

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

namespace {
// An octal field of `width` bytes: width - 1 digits and a NUL, as tar writes numbers.
void put_octal(std::vector<std::uint8_t>& h, std::size_t at, std::size_t width, std::uint64_t v) {
  for (std::size_t i = width - 1; i-- > 0; v >>= 3)
    h[at + i] = static_cast<std::uint8_t>('0' + (v & 7));
  h[at + width - 1] = 0;
}
}  // namespace

std::vector<std::uint8_t> tar_header(const std::string& name, std::uint64_t size) {
  std::vector<std::uint8_t> h(kTarBlock, 0);
  std::copy_n(name.begin(), std::min<std::size_t>(name.size(), 99), h.begin());
  put_octal(h, 100, 8, 0644);  // mode
  put_octal(h, 108, 8, 0);     // uid
  put_octal(h, 116, 8, 0);     // gid
  if (size < (std::uint64_t{1} << 33)) {
    put_octal(h, 124, 12, size);
  } else {  // past 11 octal digits (8 GiB): GNU's base-256, a leading 0x80, big-endian
    h[124] = 0x80;
    for (int i = 0; i < 8; ++i) h[135 - i] = static_cast<std::uint8_t>(size >> (8 * i));
  }
  put_octal(h, 136, 12, 0);  // mtime
  h[156] = '0';              // a regular file
  const char magic[] = "ustar\0" "00";
  std::copy_n(magic, 8, h.begin() + 257);
  // The checksum: the header's bytes summed with its own field as spaces, 6 digits, NUL, space.
  std::fill_n(h.begin() + 148, 8, ' ');
  std::uint64_t sum = 0;
  for (std::uint8_t b : h) sum += b;
  put_octal(h, 148, 7, sum);
  h[155] = ' ';
  return h;
}

}  // namespace dlgen::datasets::framing
