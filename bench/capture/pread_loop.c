/* I/O-heavy microbenchmark for capture overhead: N small preads from a page-cached file.
 * Usage: pread_loop FILE N SIZE  -> prints "preads=N ns=T ns_per_pread=X" */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: pread_loop FILE N SIZE\n");
    return 2;
  }
  long n = atol(argv[2]), size = atol(argv[3]);
  int fd = open(argv[1], O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < size || size > 65536) {
    perror(argv[1]);
    return 1;
  }
  static char buf[65536];
  long slots = st.st_size / size;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long i = 0; i < n; i++)
    if (pread(fd, buf, size, (i % slots) * size) != size) return 1;
  clock_gettime(CLOCK_MONOTONIC, &b);
  double ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
  printf("preads=%ld ns=%.0f ns_per_pread=%.1f\n", n, ns, ns / n);
  return 0;
}
