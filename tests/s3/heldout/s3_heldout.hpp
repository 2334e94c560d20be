#pragma once
// What the held-out S3 suites share (tests/s3/heldout, tests/s3/heldout2; README.md there): a
// program that writes its dataset into a bucket of its own on the s3 fixture's Swift server
// (`PROGRAM put BUCKET ds`), then the capture of its training (`PROGRAM train BUCKET ds ...`),
// distil, generate, `run --capture` and compare, as a user would, cached in the build tree as the
// other held-out suites' loops (tests/support/heldout_program.hpp). Needs root (BPF): a suite
// skips when capture says 77.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "heldout_program.hpp"
#include "s3_server.hpp"

namespace dlgen::testing {

template <class Suite>
class HeldOutS3 : public HeldOutProgram<Suite> {
  using Base = HeldOutProgram<Suite>;

 protected:
  // `PROGRAMS/PROGRAM put BUCKET ds` (PROGRAMS: the folder, ending in '/') into a new bucket,
  // capture of `PROGRAM train BUCKET ds TRAIN_ARGS`, `distil orig.h5 -o job.toml` (the job's
  // dataset where distil puts it: objects of the same bucket), then `generate` and `run --capture`
  // with JOB_ARGS (what a user adds when the job as distilled does not run; BUCKET there is the
  // test's bucket) and compare. What dlgen itself said goes into truth_["dlgen"]: `run --dry-run`'s
  // refusal of the job as distilled ("" when it accepts it), `inspect --json`'s "http" of the
  // original ("http") and of the replay ("replay_http").
  static void s3_loop(const std::string& programs, const std::string& program,
                      const std::string& train_args, const std::string& job_args = "") {
    const auto cache =
        Base::cache_dir(program, "s3|" + programs + "|" + train_args + "|" + job_args);
    if (Base::load_cached(cache, programs + program)) return;
    run_s3_loop(programs + program, train_args, job_args);
    if (Base::setup_error_.empty() && Base::skip_.empty()) Base::save_cached(cache);
  }

  static void run_s3_loop(const std::string& path, const std::string& train_args,
                          const std::string& job_args) {
    const std::string bucket = new_bucket();
    const std::string py = std::string(DLGEN_PYTHON) + " " + path;
    if (Outcome p = Base::run(py + " put " + bucket + " ds"); p.code != 0)
      return Base::fail("put: " + p.out);
    Outcome c = dlgen_in(Base::dir(),
                         "capture -o orig.h5 -- " + py + " train " + bucket + " ds " + train_args);
    if (c.code == 77) return Base::skip("capture cannot run here: " + c.out);
    if (c.code != 0) return Base::fail("capture: " + c.out);
    auto truth = ground_truth(c.out);
    if (!truth) return Base::fail("no ground truth line in the program's output: " + c.out);
    Base::truth_ = *truth;
    std::string args = job_args;
    if (const auto at = args.find("BUCKET"); at != std::string::npos) args.replace(at, 6, bucket);
    if (!distil_and_generate(args)) return;
    auto job = load_job(Base::dir() / "job.toml");
    if (!job) return Base::fail("job.toml: " + job.error().message);
    Base::job_ = *job;
    if (!Base::replay_and_compare(args, Base::summary_, Base::compared_)) return;
    if (!said_http("replay.h5", "replay_http")) return;
  }

  // `inspect TRACE --json`'s "http" into truth_["dlgen"][KEY]; false (the suite failed) when it
  // is not JSON.
  static bool said_http(const char* trace, const char* key) {
    const auto http = parse_json(Base::dlgen(std::string("inspect ") + trace + " --json").out);
    if (!http) return Base::fail(std::string("inspect --json ") + trace + ": not JSON"), false;
    Base::truth_["dlgen"][key] = (*http)["http"];
    return true;
  }

  static bool distil_and_generate(const std::string& job_args) {
    if (Outcome d = Base::dlgen("distil orig.h5 -o job.toml"); d.code != 0)
      return Base::fail("distil: " + d.out), false;
    const Outcome dry = Base::dlgen("run job.toml --dry-run -q");
    Base::truth_["dlgen"]["run_as_distilled"] = dry.code == 0 ? "" : dry.out;
    if (!said_http("orig.h5", "http")) return false;
    if (Outcome g = Base::dlgen("generate job.toml" + job_args); g.code != 0)
      return Base::fail("generate job: " + g.out), false;
    return true;
  }

  static const nlohmann::json& said(const char* key) { return Base::truth_["dlgen"][key]; }

  // Compare's verdict on each row of NAMES is PASS.
  static void expect_pass(std::initializer_list<const char*> names) {
    for (const char* name : names) EXPECT_EQ(Base::verdict(name), "PASS") << Base::row(name).dump();
  }

  // The job's dataset: objects of the store, as many as the program read (truth `key`).
  static void expect_objects(const char* key) {
    EXPECT_EQ(Base::job_.dataset.dir.string().rfind("s3://", 0), 0u) << Base::job_.dataset.dir;
    EXPECT_EQ(Base::job_.dataset.num_files, Base::truth(key));
  }

  // The program's checkpoints (put_object, a multipart upload or a local torch.save), as found.
  static void expect_checkpoints_found() {
    EXPECT_EQ(Base::original("checkpoints"), Base::truth("checkpoints"))
        << Base::row("checkpoints").dump();
    EXPECT_TRUE(Base::job_.checkpoint.enabled);
    EXPECT_EQ(Base::job_.checkpoint.size_bytes, Base::truth("checkpoint_bytes"));
  }

  // Checkpoints the program wrote as objects: the job writes them as objects of the same store,
  // and compare counts the replay's as the original's (its PUTs, prepass/object_writes.hpp).
  static void expect_object_checkpoints_replayed() {
    EXPECT_EQ(Base::job_.checkpoint.dir.string().rfind("s3://", 0), 0u)
        << Base::job_.checkpoint.dir;
    EXPECT_EQ(Base::replay("checkpoints"), Base::truth("checkpoints"))
        << Base::row("checkpoints").dump();
  }
};

}  // namespace dlgen::testing
