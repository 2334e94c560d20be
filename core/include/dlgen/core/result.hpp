#pragma once
// Result<T>: a small std::expected look-alike (GCC 12 has no <expected>), so a later move to C++23
// is a rename. Errors carry a message with context and an exit-code category.
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace dlgen {

// Exit codes shared by every verb: 0 ok, 1 runtime failure, 2 bad usage/input, 77 cannot run here.
enum class ErrorKind { runtime = 1, bad_input = 2, unsupported = 77 };

struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::runtime;
  int exit_code() const { return static_cast<int>(kind); }
};

inline Error runtime_error(std::string m) {
  return {std::move(m), ErrorKind::runtime};
}
inline Error input_error(std::string m) {
  return {std::move(m), ErrorKind::bad_input};
}
inline Error unsupported_error(std::string m) {
  return {std::move(m), ErrorKind::unsupported};
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}
  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & {
    assert(has_value());
    return std::get<0>(v_);
  }
  const T& value() const& {
    assert(has_value());
    return std::get<0>(v_);
  }
  T&& value() && {
    assert(has_value());
    return std::get<0>(std::move(v_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const {
    assert(!has_value());
    return std::get<1>(v_);
  }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}
  bool has_value() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const {
    assert(!ok_);
    return error_;
  }

 private:
  Error error_;
  bool ok_ = true;
};

inline Result<void> ok() {
  return {};
}

}  // namespace dlgen
