/* Records sent from the BPF side (the tracer's program files and cuda.bpf.c) to user space
 * (tracer/src) through one ring buffer. Shared by both sides: C, fixed-width types only. Every
 * record starts with `kind`.
 * Times are CLOCK_MONOTONIC nanoseconds (bpf_ktime_get_ns), sizes bytes. */
#ifndef DLGEN_TRACER_EVENTS_H
#define DLGEN_TRACER_EVENTS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define DL_PATH_MAX 256
#define DL_COMM_LEN 16
/* dl_io.arg of path-based ops holds the directory fd the path is relative to; AT_FDCWD: cwd. */
#define DL_AT_FDCWD ((__u64)(__s64)-100)

enum dl_kind {
  DL_K_IO = 1,   /* struct dl_io: one syscall, io_uring request or block request */
  DL_K_PATH = 2, /* struct dl_path: a dl_io plus the path argument (open, stat, unlink, ...) */
  DL_K_PROC = 3, /* struct dl_proc: fork/thread/exec/exit/rename */
  DL_K_CUDA = 4, /* struct dl_cuda: a CUDA driver API call (cuda.bpf.c) */
  DL_K_NET = 5,  /* struct dl_net: a send or receive on a TCP socket (net.bpf.h) */
};

/* Why the kernel side dropped something: the index into the per-CPU `lost` counters, which user
 * space sums at the end into trace::LostEvents (tracer/src/bpf_session.cpp maps each one). */
enum dl_lost_reason {
  DL_LOST_RINGBUF = 0,      /* ring buffer reserve failed: the record is gone */
  DL_LOST_URING_MAP = 1,    /* uring_reqs full: the io_uring request's event is gone */
  DL_LOST_BLOCK_MAP = 2,    /* block_reqs full: the block request's event is gone */
  DL_LOST_PROCESS_MAP = 3,  /* tgids full: a new process is not traced (counted once) */
  DL_LOST_TASK_STORAGE = 4, /* no task storage for a traced thread: the syscall is not recorded */
  DL_LOST_CUDA_MAP = 5,     /* cuda_calls full: a CUDA driver call is not recorded */
  DL_LOST_NR = 6,
};

/* Op codes: the same values as dlgen::trace::Op (trace.hpp), so user space copies them. */
enum dl_op {
  DL_OP_OPEN = 0, DL_OP_CLOSE = 1, DL_OP_READ = 2, DL_OP_PREAD = 3, DL_OP_READV = 4, DL_OP_PREADV = 5,
  DL_OP_WRITE = 6, DL_OP_PWRITE = 7, DL_OP_WRITEV = 8, DL_OP_PWRITEV = 9, DL_OP_LSEEK = 10,
  DL_OP_MMAP = 11, DL_OP_MUNMAP = 12, DL_OP_FSYNC = 13, DL_OP_FDATASYNC = 14,
  DL_OP_SYNC_FILE_RANGE = 15, DL_OP_FALLOCATE = 16, DL_OP_FTRUNCATE = 17, DL_OP_RENAME = 18,
  DL_OP_UNLINK = 19, DL_OP_MKDIR = 20, DL_OP_GETDENTS = 21, DL_OP_STAT = 22, DL_OP_SENDFILE = 23,
  DL_OP_COPY_FILE_RANGE = 24, DL_OP_URING_READ = 25, DL_OP_URING_WRITE = 26, DL_OP_URING_OTHER = 27,
  DL_OP_SENDMSG = 28, DL_OP_RECVMSG = 29, DL_OP_SHM_OPEN = 30, DL_OP_BLOCK = 31, DL_OP_FORK = 32,
  DL_OP_EXEC = 33, DL_OP_EXIT = 34, DL_OP_TASK_RENAME = 35, DL_OP_THREAD = 36, DL_OP_FAULT = 37,
  DL_OP_CUDA_SYNC = 38, DL_OP_CUDA_HTOD = 39, DL_OP_CUDA_DTOH = 40, DL_OP_CUDA_LAUNCH = 41,
};

/* Page size of the page-cache index in the filemap tracepoints (x86_64). */
#define DL_PAGE_SHIFT 12

/* One I/O. For fd-based ops the file identity (dev, ino, i_size, i_mode) is read from the struct
 * file behind the fd in the kernel, so user space needs no fd table for them; dev/ino are 0 when
 * unknown (io_uring submit before the file is assigned, name-based ops). For io_uring `flags` holds
 * the IORING_OP_* opcode; for block requests `flags` holds the REQ_OP (0 read, 1 write). Page
 * faults (DL_OP_FAULT) carry the mapped file's identity, offset = first page index << DL_PAGE_SHIFT,
 * size = ret = the pages' bytes, fd -1, dur 0; `flags` 0 for a fault that had to bring its page in
 * (mm_filemap_fault), 1 for pages mapped around a fault from the page cache (mm_filemap_map_pages). */
struct dl_io {
  __u8 kind;
  __u8 op;
  __u8 magic_len; /* bytes valid in `magic` (first bytes of a read at offset 0) */
  __u8 path_abs; /* dl_path: 1 when `path` is the absolute path built in the kernel from the opened file */
  __s32 fd;
  __u32 pid; /* tgid */
  __u32 tid;
  __u32 flags;
  __u32 mode; /* i_mode of the file (S_IFREG, S_IFSOCK, ...), 0 unknown */
  __u64 ts_ns;
  __u64 dur_ns;
  __u64 offset;
  __u64 size;
  __s64 ret;
  __u64 arg; /* op-specific: dirfd (path ops), iov count, whence, out fd (sendfile, copy_file_range), mmap prot */
  __u64 dev;
  __u64 ino;
  __u64 isize;
  __u64 magic;
};

/* A dl_io carrying its path argument, read from user memory at syscall exit. Sent for every
 * open and name-based op (stat, unlink, mkdir, rename: the new name). */
struct dl_path {
  struct dl_io io;
  char path[DL_PATH_MAX];
};

/* A process event. fork/thread: pid/tid are the parent, child_* the new task. exec: child_pid is the
 * pid before exec. exit: code is task->exit_code (wait status encoding), group_dead set when the
 * last thread of the process exits. rename/exec/fork: comm is the (new) name. */
struct dl_proc {
  __u8 kind;
  __u8 op;
  __u8 group_dead;
  __u8 pad;
  __u32 pid;
  __u32 tid;
  __u32 child_pid;
  __u32 child_tgid;
  __s32 code;
  __u64 ts_ns;
  char comm[DL_COMM_LEN];
};

/* The CUDA driver functions probed (cuda.bpf.c), passed to the programs as the attach cookie:
 * the low byte is this id, DL_CU_PTSZ marks the per-thread-default-stream twin (`..._ptsz`). The
 * id fixes which arguments are read and the record's op; user space stores it in Event.flags. */
enum dl_cuda_api {
  DL_CU_STREAM_SYNC = 0, /* cuStreamSynchronize(stream) */
  DL_CU_EVENT_SYNC = 1,  /* cuEventSynchronize(event) */
  DL_CU_CTX_SYNC = 2,    /* cuCtxSynchronize(void) */
  DL_CU_HTOD = 3,        /* cuMemcpyHtoD_v2(dst, src, bytes) */
  DL_CU_HTOD_ASYNC = 4,  /* cuMemcpyHtoDAsync_v2(dst, src, bytes, stream) */
  DL_CU_DTOH = 5,        /* cuMemcpyDtoH_v2(dst, src, bytes) */
  DL_CU_DTOH_ASYNC = 6,  /* cuMemcpyDtoHAsync_v2(dst, src, bytes, stream) */
  DL_CU_LAUNCH = 7,      /* cuLaunchKernel(f, grid xyz, block xyz, shared, stream, params, extra) */
  DL_CU_LAUNCH_EX = 8,   /* cuLaunchKernelEx(config, f, params, extra): stream in config */
  DL_CU_NR = 9,
};
#define DL_CU_PTSZ 0x100

/* One CUDA driver call of a traced thread. Synchronisations and copies are sent at the call's
 * return (uretprobe): ts_ns is the entry, dur_ns entry to return, ret the CUresult. Launches are
 * sent at entry (dur_ns 0, ret 0): their return says nothing the GPU's timing needs. */
struct dl_cuda {
  __u8 kind;
  __u8 op;   /* DL_OP_CUDA_* */
  __u16 api; /* enum dl_cuda_api | DL_CU_PTSZ */
  __u32 pid; /* tgid */
  __u32 tid;
  __s32 ret;
  __u64 ts_ns;
  __u64 dur_ns;
  __u64 bytes;  /* copies: bytes asked for */
  __u64 handle; /* the CUstream (syncs, async copies, launches) or CUevent (event sync), 0: none */
  __u64 func;   /* launches: the CUfunction */
};

/* Sends and receives on TCP sockets (AF_INET, AF_INET6) of a traced thread: sendto, recvfrom,
 * sendmsg, recvmsg (what Python's socket module and libcurl call). The head of a send that starts
 * with an HTTP method and of a receive that starts with "HTTP/" is copied (up to DL_NET_DATA - 1
 * bytes: a request line and headers, a status line and headers), so that user space can pair
 * requests and responses (tracer/src/http_tracker.cpp); other transfers send the record without
 * `data` (DL_NET_HEAD bytes). The copied bytes never reach the trace: user space keeps the
 * method, target, Host, Range and the response's status and lengths, and drops the rest
 * (credentials among it). */
#define DL_NET_DATA 2048
enum dl_net_op {
  DL_NET_SEND = 1,
  DL_NET_RECV = 2,
};
struct dl_net {
  __u8 kind;
  __u8 op;        /* enum dl_net_op */
  __u16 family;   /* AF_INET (2) or AF_INET6 (10) */
  __u16 port;     /* the peer's port, host byte order */
  __u16 data_len; /* bytes valid in `data`; 0 in a record without data */
  __s32 fd;
  __u32 pid; /* tgid */
  __u32 tid;
  __u32 flags; /* MSG_* flags of the call */
  __u64 ts_ns;
  __u64 dur_ns;
  __s64 ret;     /* bytes moved or -errno */
  __u64 sock;    /* the struct sock: names the connection while it lives */
  __u8 addr[16]; /* the peer's address, network order (IPv4: the first 4 bytes) */
  char data[DL_NET_DATA];
};
#define DL_NET_HEAD ((unsigned long)&((struct dl_net *)0)->data)

#endif
