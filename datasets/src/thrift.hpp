#pragma once
// The Thrift compact protocol, as much of it as Parquet's metadata needs: a writer of structs,
// lists, integers and strings, and a reader that walks a struct field by field and skips what it
// does not ask for. Parquet's FileMetaData and PageHeader are written with it (parquet.cpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dlgen::datasets::thrift {

enum Type : std::uint8_t {
  kStop = 0,
  kTrue = 1,
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12
};

class Writer {
 public:
  explicit Writer(std::vector<std::uint8_t>& out) : out_(out) { last_.push_back(0); }
  void i32(std::int16_t id, std::int32_t v) {
    field(id, kI32);
    varint(zigzag(v));
  }
  void i64(std::int16_t id, std::int64_t v) {
    field(id, kI64);
    varint(zigzag(v));
  }
  void i16(std::int16_t id, std::int16_t v) {
    field(id, kI16);
    varint(zigzag(v));
  }
  void binary(std::int16_t id, std::string_view s) {
    field(id, kBinary);
    bytes(s);
  }
  // A struct field; end it with end().
  void begin(std::int16_t id) {
    field(id, kStruct);
    last_.push_back(0);
  }
  // A list field of n elements of `elem`; struct elements each begin with element() and end().
  void list(std::int16_t id, Type elem, std::size_t n) {
    field(id, kList);
    if (n < 15) {
      out_.push_back(static_cast<std::uint8_t>(n << 4 | elem));
    } else {
      out_.push_back(static_cast<std::uint8_t>(0xf0 | elem));
      varint(n);
    }
  }
  void element() { last_.push_back(0); }
  void element_i32(std::int32_t v) { varint(zigzag(v)); }
  void element_binary(std::string_view s) { bytes(s); }
  void end() {
    out_.push_back(kStop);
    last_.pop_back();
  }

 private:
  static std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  }
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<std::uint8_t>(v));
  }
  void bytes(std::string_view s) {
    varint(s.size());
    out_.insert(out_.end(), s.begin(), s.end());
  }
  void field(std::int16_t id, Type t) {
    const int delta = id - last_.back();
    if (delta > 0 && delta <= 15) {
      out_.push_back(static_cast<std::uint8_t>(delta << 4 | t));
    } else {
      out_.push_back(t);
      varint(zigzag(id));
    }
    last_.back() = id;
  }
  std::vector<std::uint8_t>& out_;
  std::vector<std::int16_t> last_;  // the last field id of each open struct
};

// Reads a struct's fields in order: next() gives each field's id and type (false at its end);
// the caller reads the value (i64, binary, list, a nested struct with enter()/next()) or skips it.
class Reader {
 public:
  Reader(const std::uint8_t* p, const std::uint8_t* end) : p_(p), end_(end) { last_.push_back(0); }
  bool ok() const { return ok_; }
  bool next(std::int16_t& id, Type& type) {
    const std::uint8_t b = byte();
    if (!ok_ || b == kStop) return false;
    type = static_cast<Type>(b & 0x0f);
    if (b >> 4)
      id = static_cast<std::int16_t>(last_.back() + (b >> 4));
    else
      id = static_cast<std::int16_t>(unzigzag(varint()));
    last_.back() = id;
    return ok_;
  }
  std::int64_t integer() { return unzigzag(varint()); }
  std::string binary() {
    const std::uint64_t n = varint();
    if (!ok_ || n > static_cast<std::uint64_t>(end_ - p_)) return fail(), std::string();
    std::string s(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return s;
  }
  // A list header: its element type and count.
  std::uint64_t list(Type& elem) {
    const std::uint8_t b = byte();
    elem = static_cast<Type>(b & 0x0f);
    return (b >> 4) == 0x0f ? varint() : (b >> 4);
  }
  void enter() { last_.push_back(0); }
  void leave() { last_.pop_back(); }
  void skip(Type t, int depth = 0) {
    if (depth > 32) return fail();
    switch (t) {
      case kTrue:
      case kFalse:
        return;
      case kByte:
        (void)byte();
        return;
      case kI16:
      case kI32:
      case kI64:
        (void)varint();
        return;
      case kDouble:
        p_ += std::min<std::ptrdiff_t>(8, end_ - p_);
        return;
      case kBinary:
        (void)binary();
        return;
      case kList:
      case kSet: {
        Type e{};
        const std::uint64_t n = list(e);
        for (std::uint64_t i = 0; i < n && ok_; ++i) skip_element(e, depth + 1);
        return;
      }
      case kMap: {
        const std::uint64_t n = varint();
        if (n == 0) return;
        const std::uint8_t kv = byte();
        for (std::uint64_t i = 0; i < n && ok_; ++i) {
          skip(static_cast<Type>(kv >> 4), depth + 1);
          skip(static_cast<Type>(kv & 0x0f), depth + 1);
        }
        return;
      }
      case kStruct: {
        enter();
        std::int16_t id = 0;
        Type ft{};
        while (next(id, ft)) skip(ft, depth + 1);
        leave();
        return;
      }
      default:
        return fail();
    }
  }
  // List elements of bool type are one byte each (unlike bool fields).
  void skip_element(Type t, int depth) {
    if (t == kTrue || t == kFalse) return (void)byte();
    skip(t, depth);
  }

 private:
  void fail() {
    ok_ = false;
    p_ = end_;
  }
  std::uint8_t byte() {
    if (p_ >= end_) return fail(), 0;
    return *p_++;
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const std::uint8_t b = byte();
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    return fail(), 0;
  }
  static std::int64_t unzigzag(std::uint64_t v) {
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }
  const std::uint8_t* p_;
  const std::uint8_t* end_;
  bool ok_ = true;
  std::vector<std::int16_t> last_;
};

}  // namespace dlgen::datasets::thrift
