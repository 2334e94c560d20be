#pragma once
// Memory-mapped dataset files (np.load(mmap_mode="r"), Arrow/HuggingFace datasets, LMDB): the
// program reads them by touching the mapping, so the trace shows page faults (Op::fault), not
// read syscalls. The rest of summarize reasons about reads, so this pre-pass, run before
// split_sample_files, turns the faults on such a file into reads of the pages they made present.
//
// What faults can show: a page faults once per process while it stays mapped, and the kernel maps
// the cached pages around a fault with it (fault-around, 64 KiB by default), so a process's first
// touch of each such window is seen, not every sample it reads there. So a window is the unit
// read: one read per window per epoch, by the first live process that touched it (a second
// DataLoader worker reading a neighbouring sample of the same epoch maps it again: not counted),
// so each byte of the file counts once per epoch, as the program's copy of it did. A process
// that keeps its mapping across epochs shows only its first; one that unmaps the file and maps it
// again (nanoGPT's get_batch, every call) faults its pages anew: they are read again.
#include <cstdint>
#include <optional>
#include <vector>

#include "dlgen/trace/trace.hpp"

namespace dlgen::analysis {

// A file the program mapped shared and without PROT_EXEC (data, not code: libraries are mapped
// private and executable), outside /dev/shm (tensors shared between processes), with faults.
struct MappedFile {
  std::uint32_t file = 0;           // row of the trace's files table
  std::uint64_t faults = 0;         // fault events on it
  std::uint64_t reads = 0;          // window reads made of them
  std::uint64_t bytes = 0;          // bytes of those reads
  std::uint64_t window = 0;         // the commonest fault-around extent, bytes (0: none seen)
  std::uint64_t header_reads = 0;   // read syscalls of it (a header read before mapping), dropped
  std::uint64_t lookup_faults = 0;  // faults of a look-up before the loader read it, dropped
};

// The trace with each fault on a mapped data file replaced by preads (fd: the one the file was
// first mapped through) of the fault-around windows it touched (aligned on the window, as the
// kernel's are) that no live process had read yet: a window is read once per epoch, by the
// process that touched it first, however many workers map it. The file's read syscalls, opens,
// closes and seeks (each np.load opens it and reads its header before mapping) are dropped, and
// so are the faults of a process that only looked the file up before the loader's workers read it
// (LMDB's `__len__` read in the main process).
// Other files' events are kept as they are. nullopt when no file is such.
std::optional<trace::Trace> faults_as_reads(const trace::Trace& t, std::vector<MappedFile>& found);

}  // namespace dlgen::analysis
