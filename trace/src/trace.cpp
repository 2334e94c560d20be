#include "dlgen/trace/trace.hpp"

namespace dlgen::trace {

const char* to_string(Op op) {
  switch (op) {
    case Op::open:
      return "open";
    case Op::close:
      return "close";
    case Op::read:
      return "read";
    case Op::pread:
      return "pread";
    case Op::readv:
      return "readv";
    case Op::preadv:
      return "preadv";
    case Op::write:
      return "write";
    case Op::pwrite:
      return "pwrite";
    case Op::writev:
      return "writev";
    case Op::pwritev:
      return "pwritev";
    case Op::lseek:
      return "lseek";
    case Op::mmap:
      return "mmap";
    case Op::munmap:
      return "munmap";
    case Op::fsync:
      return "fsync";
    case Op::fdatasync:
      return "fdatasync";
    case Op::sync_file_range:
      return "sync_file_range";
    case Op::fallocate:
      return "fallocate";
    case Op::ftruncate:
      return "ftruncate";
    case Op::rename:
      return "rename";
    case Op::unlink:
      return "unlink";
    case Op::mkdir:
      return "mkdir";
    case Op::getdents:
      return "getdents";
    case Op::stat:
      return "stat";
    case Op::sendfile:
      return "sendfile";
    case Op::copy_file_range:
      return "copy_file_range";
    case Op::uring_read:
      return "uring_read";
    case Op::uring_write:
      return "uring_write";
    case Op::uring_other:
      return "uring_other";
    case Op::sendmsg:
      return "sendmsg";
    case Op::recvmsg:
      return "recvmsg";
    case Op::shm_open:
      return "shm_open";
    case Op::block:
      return "block";
    case Op::fork:
      return "fork";
    case Op::exec:
      return "exec";
    case Op::exit:
      return "exit";
    case Op::task_rename:
      return "task_rename";
    case Op::thread:
      return "thread";
    case Op::fault:
      return "fault";
    case Op::cuda_sync:
      return "cuda_sync";
    case Op::cuda_htod:
      return "cuda_htod";
    case Op::cuda_dtoh:
      return "cuda_dtoh";
    case Op::cuda_launch:
      return "cuda_launch";
  }
  return "unknown";
}

bool is_cuda(Op op) {
  return op == Op::cuda_sync || op == Op::cuda_htod || op == Op::cuda_dtoh || op == Op::cuda_launch;
}

bool is_read(Op op) {
  switch (op) {
    case Op::read:
    case Op::pread:
    case Op::readv:
    case Op::preadv:
    case Op::uring_read:
    case Op::sendfile:
    case Op::copy_file_range:
      return true;
    default:
      return false;
  }
}

bool is_write(Op op) {
  switch (op) {
    case Op::write:
    case Op::pwrite:
    case Op::writev:
    case Op::pwritev:
    case Op::uring_write:
      return true;
    default:
      return false;
  }
}

std::string describe_lost(std::uint64_t total, const LostEvents& by_reason) {
  std::string out;
  for (const auto& r : kLostReasons)
    if (const std::uint64_t n = by_reason.*r.count; n > 0)
      out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + r.name + " (" + r.what + ")";
  const std::uint64_t known = by_reason.total();
  if (total > known)
    out += (out.empty() ? "" : ", ") + std::to_string(total - known) +
           " unattributed (no reason recorded)";
  return out;
}

std::string lost_remedies(const LostEvents& by_reason) {
  std::string out;
  for (const auto& r : kLostReasons) {
    const std::string remedy = r.remedy;
    if (by_reason.*r.count == 0 || remedy.empty() || out.find(remedy) != std::string::npos)
      continue;
    out += (out.empty() ? "" : ", ") + remedy;
  }
  return out;
}

}  // namespace dlgen::trace
