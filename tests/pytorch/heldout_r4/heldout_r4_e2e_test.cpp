// Placeholder while the programs are measured.
#include <gtest/gtest.h>
