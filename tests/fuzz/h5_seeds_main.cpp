// fuzz_h5_seeds TEXT_DIR OUT_DIR: writes the HDF5 trace target's seed corpus (h5_seeds.hpp).
#include <cstdio>

#include "h5_seeds.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fuzz_h5_seeds TEXT_DIR OUT_DIR\n");
    return 2;
  }
  const int n = dlgen::fuzz::make_h5_seeds(argv[1], argv[2]);
  std::fprintf(stderr, "fuzz_h5_seeds: %d seed(s) in %s\n", n, argv[2]);
  return n > 0 ? 0 : 1;
}
