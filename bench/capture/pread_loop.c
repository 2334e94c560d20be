/* I/O-heavy microbenchmark for capture overhead: N small preads from a page-cached file, split
 * over T threads (default 1).
 * Usage: pread_loop FILE N SIZE [THREADS]
 *   -> prints "preads=N threads=T ns=T ns_per_pread=X preads_per_s=R cpu_ns=C"
 * ns is the wall time of the loops (all threads); cpu_ns the CPU this process used (user + sys,
 * which includes the tracer's BPF programs running in its threads). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int fd;
static long per_thread, size, slots;

static void *loop(void *arg) {
  static __thread char buf[65536];
  long first = (long)arg * per_thread;
  for (long i = 0; i < per_thread; i++)
    if (pread(fd, buf, size, ((first + i) % slots) * size) != size) exit(1);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: pread_loop FILE N SIZE [THREADS]\n");
    return 2;
  }
  long n = atol(argv[2]), threads = argc == 5 ? atol(argv[4]) : 1;
  size = atol(argv[3]);
  fd = open(argv[1], O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < size || size > 65536 || size <= 0) {
    perror(argv[1]);
    return 1;
  }
  if (threads < 1 || threads > 64) {
    fprintf(stderr, "pread_loop: THREADS must be 1..64\n");
    return 2;
  }
  slots = st.st_size / size;
  per_thread = n / threads;
  n = per_thread * threads;
  pthread_t tids[64];
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long t = 1; t < threads; t++) pthread_create(&tids[t], NULL, loop, (void *)t);
  loop((void *)0);
  for (long t = 1; t < threads; t++) pthread_join(tids[t], NULL);
  clock_gettime(CLOCK_MONOTONIC, &b);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
  double cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
               (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
  printf("preads=%ld threads=%ld ns=%.0f ns_per_pread=%.1f preads_per_s=%.0f cpu_ns=%.0f\n", n, threads,
         ns, ns / n, n * 1e9 / ns, cpu);
  return 0;
}
