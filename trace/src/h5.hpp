#pragma once
// Thin RAII over the HDF5 C API, private to the trace module (HDF5 types stay out of public
// headers). Each Handle owns one hid_t and closes it with the matching H5?close.
#include <hdf5.h>

#include <string>
#include <utility>

namespace dlgen::trace::h5 {

class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer close) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, -1)), close_(o.close_) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, -1);
      close_ = o.close_;
    }
    return *this;
  }
  ~Handle() { reset(); }
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = -1;
  }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  operator hid_t() const { return id_; }

 private:
  hid_t id_ = -1;
  Closer close_ = nullptr;
};

inline Handle file(hid_t id) {
  return {id, H5Fclose};
}
inline Handle group(hid_t id) {
  return {id, H5Gclose};
}
inline Handle dataset(hid_t id) {
  return {id, H5Dclose};
}
inline Handle space(hid_t id) {
  return {id, H5Sclose};
}
inline Handle type(hid_t id) {
  return {id, H5Tclose};
}
inline Handle plist(hid_t id) {
  return {id, H5Pclose};
}
inline Handle attr(hid_t id) {
  return {id, H5Aclose};
}

// Silences HDF5's default error-stack printing for the guard's lifetime; errors are reported
// through Result with a message that names the file instead.
class QuietErrors {
 public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// Native HDF5 type for a C++ arithmetic type.
template <class T>
hid_t native();
template <>
inline hid_t native<std::uint8_t>() {
  return H5T_NATIVE_UINT8;
}
template <>
inline hid_t native<std::int32_t>() {
  return H5T_NATIVE_INT32;
}
template <>
inline hid_t native<std::uint32_t>() {
  return H5T_NATIVE_UINT32;
}
template <>
inline hid_t native<std::int64_t>() {
  return H5T_NATIVE_INT64;
}
template <>
inline hid_t native<std::uint64_t>() {
  return H5T_NATIVE_UINT64;
}
template <>
inline hid_t native<float>() {
  return H5T_NATIVE_FLOAT;
}

}  // namespace dlgen::trace::h5
