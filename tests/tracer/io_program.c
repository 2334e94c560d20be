/* Known I/O for the capture tests. Usage: io_program DIR
 * Expects DIR/data0..data3 (64 KiB each), DIR/child.bin, DIR/thread.bin, DIR/uring.bin (each
 * 64 KiB, created by the test), then does exactly:
 *   for i in 0..3: open data<i>; read 1000 (offset 0); pread 4096 at 4096*(i+1); close
 *   open out.bin (create); writev 100+200+300 bytes; fsync; close
 *   fork: the child renames itself "dl_child", opens child.bin, reads 2048 at 0, lseeks to
 *         10000, reads 512, exits 5
 *   a thread: opens thread.bin, preads 777 at 333, closes
 *   io_uring: opens uring.bin, reads 4096 at 8192 through the ring, closes
 * Exits 0 when every call did what it should, 1 otherwise.
 *
 * Two more modes provoke drops for the lost-event tests:
 *   io_program --uring-burst N: N io_uring reads of 1 byte from an empty pipe, submitted at once,
 *     so all N are in flight together; then N bytes written to the pipe complete them all.
 *   io_program --fork-burst N FILE: forks N children that all live at once (held on a pipe), then
 *     each reads 16 bytes of FILE and exits 0.
 *   io_program --lseek-burst N FILE: N lseek(fd, i, SEEK_SET) calls on FILE as fast as it can.
 *
 * And one for the page-fault programs:
 *   io_program --mmap FILE: opens FILE (64 KiB), maps it read-only, reads one byte of each 4 KiB
 *     page (faults, no syscall), unmaps it and closes it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *dir;
static char buf[65536];

static int open_in(const char *name, int flags) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  return open(path, flags, 0644);
}

#define CHECK(cond)                                               \
  do {                                                            \
    if (!(cond)) {                                                \
      fprintf(stderr, "io_program: %s failed (line %d)\n", #cond, __LINE__); \
      exit(1);                                                    \
    }                                                             \
  } while (0)

static void *thread_main(void *arg) {
  (void)arg;
  int fd = open_in("thread.bin", O_RDONLY);
  CHECK(fd >= 0);
  CHECK(pread(fd, buf, 777, 333) == 777);
  close(fd);
  return NULL;
}

static int uring_burst(int n) {
  CHECK(n > 0 && n <= 4096);
  int p[2];
  CHECK(pipe(p) == 0);
  struct io_uring ring;
  CHECK(io_uring_queue_init((unsigned)n, &ring, 0) == 0);
  for (int i = 0; i < n; i++) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
    CHECK(sqe != NULL);
    io_uring_prep_read(sqe, p[0], buf + i, 1, 0);
  }
  CHECK(io_uring_submit(&ring) == n);
  CHECK(write(p[1], buf, (size_t)n) == n);
  for (int i = 0; i < n; i++) {
    struct io_uring_cqe *cqe = NULL;
    CHECK(io_uring_wait_cqe(&ring, &cqe) == 0);
    CHECK(cqe->res == 1);
    io_uring_cqe_seen(&ring, cqe);
  }
  io_uring_queue_exit(&ring);
  return 0;
}

static int fork_burst(int n, const char *file) {
  CHECK(n > 0 && n <= 256);
  int hold[2];
  CHECK(pipe(hold) == 0);
  for (int i = 0; i < n; i++) {
    pid_t c = fork();
    CHECK(c >= 0);
    if (c == 0) {
      close(hold[1]);
      char b;
      CHECK(read(hold[0], &b, 1) == 0); /* EOF once the parent has forked them all */
      int fd = open(file, O_RDONLY);
      CHECK(fd >= 0);
      CHECK(read(fd, buf, 16) == 16);
      close(fd);
      _exit(0);
    }
  }
  close(hold[1]);
  for (int i = 0; i < n; i++) {
    int status = 0;
    CHECK(wait(&status) > 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  return 0;
}

static int lseek_burst(int n, const char *file) {
  CHECK(n > 0);
  int fd = open(file, O_RDONLY);
  CHECK(fd >= 0);
  for (int i = 0; i < n; i++)
    CHECK(lseek(fd, i, SEEK_SET) == i);
  close(fd);
  return 0;
}

static int mmap_pages(const char *file) {
  int fd = open(file, O_RDONLY);
  CHECK(fd >= 0);
  unsigned char *p = mmap(NULL, 65536, PROT_READ, MAP_SHARED, fd, 0);
  CHECK(p != MAP_FAILED);
  volatile unsigned char sink = 0; /* the loads must happen: they are the faults */
  for (int page = 0; page < 16; page++)
    sink += p[page * 4096];
  (void)sink;
  CHECK(munmap(p, 65536) == 0);
  close(fd);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--uring-burst") == 0)
    return uring_burst(atoi(argv[2]));
  if (argc == 4 && strcmp(argv[1], "--fork-burst") == 0)
    return fork_burst(atoi(argv[2]), argv[3]);
  if (argc == 4 && strcmp(argv[1], "--lseek-burst") == 0)
    return lseek_burst(atoi(argv[2]), argv[3]);
  if (argc == 3 && strcmp(argv[1], "--mmap") == 0)
    return mmap_pages(argv[2]);
  CHECK(argc == 2);
  dir = argv[1];
  for (int i = 0; i < 4; i++) {
    char name[16];
    snprintf(name, sizeof(name), "data%d", i);
    int fd = open_in(name, O_RDONLY);
    CHECK(fd >= 0);
    CHECK(read(fd, buf, 1000) == 1000);
    CHECK(pread(fd, buf, 4096, 4096 * (i + 1)) == 4096);
    close(fd);
  }

  int out = open_in("out.bin", O_WRONLY | O_CREAT | O_TRUNC);
  CHECK(out >= 0);
  struct iovec iov[3] = {{buf, 100}, {buf + 100, 200}, {buf + 300, 300}};
  CHECK(writev(out, iov, 3) == 600);
  CHECK(fsync(out) == 0);
  close(out);

  pid_t child = fork();
  CHECK(child >= 0);
  if (child == 0) {
    prctl(PR_SET_NAME, "dl_child", 0, 0, 0);
    int fd = open_in("child.bin", O_RDONLY);
    CHECK(fd >= 0);
    CHECK(read(fd, buf, 2048) == 2048);
    CHECK(lseek(fd, 10000, SEEK_SET) == 10000);
    CHECK(read(fd, buf, 512) == 512);
    close(fd);
    _exit(5);
  }
  int status = 0;
  CHECK(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 5);

  pthread_t t;
  CHECK(pthread_create(&t, NULL, thread_main, NULL) == 0);
  CHECK(pthread_join(t, NULL) == 0);

  struct io_uring ring;
  CHECK(io_uring_queue_init(4, &ring, 0) == 0);
  int ufd = open_in("uring.bin", O_RDONLY);
  CHECK(ufd >= 0);
  struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, ufd, buf, 4096, 8192);
  CHECK(io_uring_submit(&ring) == 1);
  struct io_uring_cqe *cqe = NULL;
  CHECK(io_uring_wait_cqe(&ring, &cqe) == 0);
  CHECK(cqe->res == 4096);
  io_uring_cqe_seen(&ring, cqe);
  io_uring_queue_exit(&ring);
  close(ufd);
  return 0;
}
