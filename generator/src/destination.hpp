#pragma once
// Where the writer (writer.hpp) creates a dataset file and how the file becomes final. Two kinds,
// chosen by the engine's capabilities, never by its name:
//  - engines with POSIX descriptors (Capabilities::posix_fd: uring, pread): dlgen creates the file
//    itself, below the dataset directory's descriptor, with every safety rule of safety.hpp: the
//    parent directory reached without following links, the file created under its temporary name
//    "<name>.dlgen-tmp" with O_CREAT | O_EXCL | O_NOFOLLOW (nothing planted there is opened; a
//    temporary of an interrupted run is dlgen's and is unlinked first), O_DIRECT for large files
//    where the engine and the filesystem take it, and renamed into place once complete; requests
//    address that descriptor.
//  - engines without them (an object store): the engine opens the file by its path (open_file)
//    and makes it durable and visible at close_file, which is where an object store completes its
//    upload; there is no temporary name, so a file is either complete or absent.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>

#include "dlgen/core/result.hpp"
#include "dlgen/datasets/layout.hpp"
#include "dlgen/engine/engine.hpp"

namespace dlgen::generator {

// A file being written.
struct OpenFile {
  std::uint64_t file = 0;  // index in the layout
  int target = -1;         // what the engine's requests address
  bool direct = false;     // opened with O_DIRECT: requests are whole, aligned blocks
  bool padded = false;     // the last block was written whole: cut the file to its size at commit
  int parent = -1;         // POSIX destinations: the directory's descriptor (the destination's)
};

class Destination {
 public:
  virtual ~Destination() = default;
  // Creates file `file` for writing; `direct`: asks for O_DIRECT (the answer is in OpenFile).
  virtual Result<OpenFile> create(std::uint64_t file, bool direct) = 0;
  // All of the file's writes completed: makes it final (and durable when it was direct, or when
  // the engine's close says so: *synced).
  virtual Result<void> commit(OpenFile& f, bool* synced) = 0;
  // A failed file: closes it and removes what create made.
  virtual void abandon(OpenFile& f) = 0;
  // A direct write the filesystem refused (EINVAL): the file goes on buffered. False when the
  // destination cannot switch (then the write fails).
  virtual bool drop_direct(OpenFile& f) = 0;
  // HDF5 only: writes the library's skeleton into the created file and returns the offset of row 0
  // (POSIX destinations; the others return an error naming the engine).
  virtual Result<std::uint64_t> hdf5_skeleton(OpenFile& f) = 0;
};

// Makes one thread's destination, around that thread's engine.
using DestinationFactory = std::function<std::unique_ptr<Destination>(engine::IoEngine&)>;

// Files below `root` (the dataset directory `dir`, opened by open_root), created by dlgen.
DestinationFactory posix_destination(int root, std::filesystem::path dir,
                                     const datasets::Layout& layout);
// Files opened by the engine at `dir` / relative path.
DestinationFactory engine_destination(std::filesystem::path dir, const datasets::Layout& layout);

}  // namespace dlgen::generator
