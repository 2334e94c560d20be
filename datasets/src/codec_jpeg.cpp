// JPEG files of an exact byte size: a real image (libjpeg-turbo, baseline, 4:2:0, quality 90) a
// little smaller than the target, encoded once per (width, height, variant) and cached, then
// brought to the exact size with a comment (COM) segment of random length after the JFIF header
// and random bytes after the end-of-image marker. The COM length differs per file, so the image
// bytes of two files never share a 4 KiB alignment and block deduplication gains little.
#include <turbojpeg.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "codecs.hpp"
#include "dlgen/datasets/content.hpp"
#include "framing.hpp"

namespace dlgen::datasets::detail {
namespace {

constexpr int kQuality = 90;
constexpr int kVariants = 4;             // distinct images per dimension
constexpr double kBytesPerPixel = 1.35;  // measured for the pattern below at kQuality
constexpr std::uint64_t kHeaderBytes = 700;

using Image = std::shared_ptr<const std::vector<std::uint8_t>>;

struct Compressor {
  tjhandle h = tjInitCompress();
  ~Compressor() {
    if (h) tjDestroy(h);
  }
};

// A photo-like pattern: smooth colour gradients plus noise, so the encoder does real work and the
// bytes-per-pixel ratio is in the range of natural images.
Result<Image> encode(std::uint64_t seed, int w, int h, int variant) {
  thread_local Compressor c;
  if (!c.h) return runtime_error(std::string("turbojpeg: ") + tjGetErrorStr());
  ContentStream noise(seed ^ 0x6a706567ull, (static_cast<std::uint64_t>(w) << 40) ^
                                                (static_cast<std::uint64_t>(h) << 16) ^ variant);
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(w) * h * 3);
  const double phase = variant * 1.7;
  std::size_t i = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::uint64_t r = noise.next();
      const double base = 96 + 64 * std::sin(x * 0.05 + phase) * std::cos(y * 0.04);
      for (int ch = 0; ch < 3; ++ch) {
        const int v =
            static_cast<int>(base + ch * 24) + static_cast<int>((r >> (8 * ch)) & 0x3f) - 32;
        rgb[i++] = static_cast<std::uint8_t>(std::clamp(v, 0, 255));
      }
    }
  }
  unsigned char* out = nullptr;
  unsigned long size = 0;
  if (tjCompress2(c.h, rgb.data(), w, 0, h, TJPF_RGB, &out, &size, TJSAMP_420, kQuality, 0) != 0)
    return runtime_error(std::string("turbojpeg: ") + tjGetErrorStr2(c.h));
  auto image = std::make_shared<const std::vector<std::uint8_t>>(out, out + size);
  tjFree(out);
  return image;
}

Result<Image> cached(std::uint64_t seed, int w, int h, int variant) {
  static std::mutex mu;
  static std::map<std::tuple<std::uint64_t, int, int, int>, Image> cache;
  const auto key = std::make_tuple(seed, w, h, variant);
  {
    std::lock_guard lock(mu);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  auto image = encode(seed, w, h, variant);  // outside the lock; a rare duplicate is harmless
  if (!image) return image;
  std::lock_guard lock(mu);
  return cache.emplace(key, *image).first->second;
}

}  // namespace

Result<void> encode_jpeg(const Layout& layout, std::uint64_t file, Sink& sink) {
  const std::uint64_t target = layout.file_size(file);
  ContentStream content(layout.spec().seed, file);
  const int variant = static_cast<int>(content.next() % kVariants);
  // Aim at ~90% of the target so every file carries some per-file random padding.
  const double budget = std::max(0.0, 0.9 * static_cast<double>(target) - kHeaderBytes);
  int w = std::max(16, static_cast<int>(std::sqrt(budget / kBytesPerPixel * 4.0 / 3.0)) / 16 * 16);
  int h = std::max(16, w * 3 / 4 / 16 * 16);
  Image image;
  for (;;) {
    auto r = cached(layout.spec().seed, w, h, variant);
    if (!r) return r.error();
    image = *r;
    if (image->size() <= target || (w == 16 && h == 16)) break;
    w = std::max(16, w - 16);
    h = std::max(16, h - 16);
  }
  if (image->size() > target)
    return runtime_error(layout.relative_path(file).string() + ": smallest JPEG exceeds " +
                         std::to_string(target) + " bytes");
  const std::vector<std::uint8_t>& jpg = *image;
  const std::uint64_t pad = target - jpg.size();
  // The COM segment goes after SOI and the JFIF APP0 segment, which must come first.
  std::size_t at = 2;
  if (jpg.size() > 6 && jpg[2] == 0xff && jpg[3] == 0xe0) at = 4 + ((jpg[4] << 8) | jpg[5]);
  std::uint64_t com = 0;
  if (pad >= 4) com = 4 + content.next() % std::min<std::uint64_t>(pad - 3, 4096);
  if (auto r = sink.write(std::span(jpg.data(), at)); !r) return r;
  if (com > 0) {
    const std::uint64_t len = com - 2;  // the length field counts itself, not the marker
    const std::uint8_t marker[4] = {0xff, 0xfe, static_cast<std::uint8_t>(len >> 8),
                                    static_cast<std::uint8_t>(len & 0xff)};
    if (auto r = sink.write(marker); !r) return r;
    std::vector<std::uint8_t> text(com - 4);
    content.fill(text.data(), text.size());
    if (auto r = sink.write(text); !r) return r;
  }
  if (auto r = sink.write(std::span(jpg.data() + at, jpg.size() - at)); !r) return r;
  std::vector<std::uint8_t> tail(pad - com);
  content.fill(tail.data(), tail.size());
  return sink.write(tail);
}

}  // namespace dlgen::datasets::detail
