#pragma once
// The ops table of each engine file, for the registry's table (registry.cpp).
#include "dlgen/engine/registry.hpp"

namespace dlgen::engine {

const EngineOps& uring_ops();
const EngineOps& pread_ops();
const EngineOps& null_ops();
const EngineOps& s3_ops();

}  // namespace dlgen::engine
