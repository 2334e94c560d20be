#pragma once
// A dataset's files as the replay sees them: the file table its workers read from, and dropping
// the dataset's pages from the page cache (run.cache). Private to the replay library.
#include <string>
#include <vector>

#include "dlgen/datasets/layout.hpp"
#include "worker.hpp"

namespace dlgen::replay {

// Every file of the layout, resolved once before the threads start. The table points to `layout`,
// which must outlive it.
FileTable make_table(const datasets::Layout& layout);

// Advises the dataset's pages out of the page cache (POSIX_FADV_DONTNEED); `globally` (and root)
// also drops the whole page cache (/proc/sys/vm/drop_caches), warning once when it cannot.
void drop_dataset_cache(const FileTable& files, bool globally, std::vector<std::string>& warnings);

}  // namespace dlgen::replay
