/* Opens files by every kind of name whose absolute path the tracer must still get right, then
 * exits at once (so /proc/PID/cwd and /proc/PID/fd are gone before user space could look):
 *   argv[1]: a scratch directory holding train/x.bin, other/y.bin, old.bin (made by the test)
 *   argv[2]: a name under /dev/shm to create, open again and unlink
 * 1. chdir(argv[1]) then open("train/x.bin")                         (relative to the cwd)
 * 2. openat(fd of argv[1]/other, "y.bin")                            (relative to a dirfd)
 * 3. open("/dev/shm/NAME", O_CREAT), write, close, open again, unlink (a removed tmpfs file)
 * 4. rename("old.bin", "new.bin") then open("new.bin")               (a renamed file)
 * 5. mkdir("gone"), chdir("gone"), open("z.bin", O_CREAT), chdir(".."), unlink + rmdir
 *    (a file in a directory that no longer exists, like PyTorch's /tmp/pymp-*) */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int check(int ok, const char *what)
{
  if (!ok)
    perror(what);
  return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: %s DIR SHM_NAME\n", argv[0]);
    return 2;
  }
  int bad = 0;
  char buf[16];
  bad |= check(chdir(argv[1]) == 0, "chdir");

  int fd = open("train/x.bin", O_RDONLY);
  bad |= check(fd >= 0 && read(fd, buf, sizeof buf) >= 0, "train/x.bin");
  close(fd);

  int dfd = open("other", O_RDONLY | O_DIRECTORY);
  fd = openat(dfd, "y.bin", O_RDONLY);
  bad |= check(fd >= 0 && read(fd, buf, sizeof buf) >= 0, "other/y.bin");
  close(fd);
  close(dfd);

  char shm[256];
  snprintf(shm, sizeof shm, "/dev/shm/%s", argv[2]);
  fd = open(shm, O_RDWR | O_CREAT | O_TRUNC, 0600);
  bad |= check(fd >= 0 && write(fd, "shm", 3) == 3, "shm create");
  close(fd);
  fd = open(shm, O_RDONLY);
  bad |= check(fd >= 0 && read(fd, buf, sizeof buf) == 3, "shm reopen");
  close(fd);
  unlink(shm);

  bad |= check(rename("old.bin", "new.bin") == 0, "rename");
  fd = open("new.bin", O_RDONLY);
  bad |= check(fd >= 0 && read(fd, buf, sizeof buf) >= 0, "new.bin");
  close(fd);

  bad |= check(mkdir("gone", 0700) == 0 && chdir("gone") == 0, "gone");
  fd = open("z.bin", O_WRONLY | O_CREAT, 0600);
  bad |= check(fd >= 0 && write(fd, "z", 1) == 1, "z.bin");
  close(fd);
  bad |= check(chdir("..") == 0 && unlink("gone/z.bin") == 0 && rmdir("gone") == 0, "rmdir gone");
  return bad;
}
