// The /events encodings of the HDF5 trace format (h5_schema.hpp).
#include "h5_schema.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace dlgen::trace::schema {

std::array<ColumnSpec, 12> event_columns() {
  return {{{"ts_delta", H5T_STD_I64LE},
           {"dur_ns", H5T_IEEE_F32LE},
           {"pid", H5T_STD_U32LE},
           {"tid", H5T_STD_U32LE},
           {"op", H5T_STD_U8LE},
           {"file", H5T_STD_U32LE},
           {"fd", H5T_STD_I32LE},
           {"offset_delta", H5T_STD_I64LE},
           {"size", H5T_STD_U64LE},
           {"ret_delta", H5T_STD_I64LE},
           {"flags", H5T_STD_U32LE},
           {"arg", H5T_STD_U64LE}}};
}

float encode_dur(std::uint64_t d) {
  int bits = 64 - std::countl_zero(d);
  if (bits <= kDurSignificantBits) return static_cast<float>(d);
  int shift = bits - kDurSignificantBits;
  std::uint64_t q = (d >> shift) + ((d >> (shift - 1)) & 1);  // round half up
  return std::ldexp(static_cast<float>(q), shift);
}

void EventColumns::fill(const Event* ev, const std::vector<std::uint32_t>& order,
                        std::uint64_t& last_q, std::uint64_t& last_end) {
  std::size_t n = order.size();
  ts_delta.resize(n);
  dur.resize(n);
  offset_delta.resize(n);
  size.resize(n);
  arg.resize(n);
  pid.resize(n);
  tid.resize(n);
  file.resize(n);
  flags.resize(n);
  op.resize(n);
  fd.resize(n);
  ret_delta.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Event& e = ev[order[i]];
    std::uint64_t q = quantise_ts(e.ts_ns);
    ts_delta[i] = static_cast<std::int64_t>(q - last_q);
    last_q = q;
    dur[i] = encode_dur(e.dur_ns);
    pid[i] = e.pid;
    tid[i] = e.tid;
    op[i] = static_cast<std::uint8_t>(e.op);
    file[i] = e.file;
    fd[i] = e.fd;
    size[i] = e.size;
    offset_delta[i] = static_cast<std::int64_t>(e.offset - last_end);
    last_end = row_end(e.offset, e.ret);
    ret_delta[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(e.ret) - e.size);
    flags[i] = e.flags;
    arg[i] = e.arg;
  }
}

std::array<std::pair<hid_t, const void*>, 12> EventColumns::views() const {
  return {{{H5T_NATIVE_INT64, ts_delta.data()},
           {H5T_NATIVE_FLOAT, dur.data()},
           {H5T_NATIVE_UINT32, pid.data()},
           {H5T_NATIVE_UINT32, tid.data()},
           {H5T_NATIVE_UINT8, op.data()},
           {H5T_NATIVE_UINT32, file.data()},
           {H5T_NATIVE_INT32, fd.data()},
           {H5T_NATIVE_INT64, offset_delta.data()},
           {H5T_NATIVE_UINT64, size.data()},
           {H5T_NATIVE_INT64, ret_delta.data()},
           {H5T_NATIVE_UINT32, flags.data()},
           {H5T_NATIVE_UINT64, arg.data()}}};
}

void group_by_thread(const Event* ev, std::size_t n, std::vector<std::uint32_t>& order) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> counts;  // (tid, rows), then (tid, start)
  std::unordered_map<std::uint32_t, std::uint32_t> slot;        // tid -> index in counts
  std::vector<std::uint32_t> slot_of(n);
  std::uint32_t last_tid = 0, last_slot = UINT32_MAX;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t tid = ev[i].tid;
    if (tid != last_tid || last_slot == UINT32_MAX) {
      auto [it, added] = slot.try_emplace(tid, static_cast<std::uint32_t>(counts.size()));
      if (added) counts.emplace_back(tid, 0);
      last_tid = tid;
      last_slot = it->second;
    }
    ++counts[last_slot].second;
    slot_of[i] = last_slot;
  }
  std::vector<std::uint32_t> by_tid(counts.size());
  std::iota(by_tid.begin(), by_tid.end(), 0u);
  std::sort(by_tid.begin(), by_tid.end(),
            [&](std::uint32_t a, std::uint32_t b) { return counts[a].first < counts[b].first; });
  std::uint32_t start = 0;
  for (std::uint32_t s : by_tid) start += std::exchange(counts[s].second, start);
  order.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    order[counts[slot_of[i]].second++] = static_cast<std::uint32_t>(i);
}

}  // namespace dlgen::trace::schema
