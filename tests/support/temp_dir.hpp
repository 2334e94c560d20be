#pragma once
// A temporary directory removed (with its contents) when the object goes out of scope.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace dlgen::testing {

class TempDir {
 public:
  explicit TempDir(const std::string& tag = "dlgen") {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/" + tag + "-XXXXXX";
    char* p = ::mkdtemp(tmpl.data());
    path_ = p ? std::filesystem::path(p) : std::filesystem::path();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace dlgen::testing
