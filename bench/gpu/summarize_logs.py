#!/usr/bin/python3
"""summary.txt's totals for bench/gpu/device_run.sh and device_heldout.sh.

  summarize_logs.py LOGS OUT

One line per ground-truth log LOGS/*.log (the programs' JSON lines: their summary record, and the
median CPU time of a training step from the step records), one per capture count LOGS/*.capture.json,
and OUT/step_times.json's table when it is there.
"""
import glob
import json
import os
import sys


def f(v):
    return "-" if v is None else f"{v:.4f}"


def log_line(path):
    recs = [json.loads(line) for line in open(path) if line.strip()]
    s = next((r for r in recs if r["event"] == "summary"), None)
    if not s:
        return f"{os.path.basename(path)}: no summary record"
    cpu = sorted(r["cpu_s"] for r in recs if r["event"] == "step" and r["phase"] == "train")
    line = (f"{os.path.basename(path)}: {s.get('gpu', s['device'])} steps {s['steps_per_epoch']} "
            f"val {s['val_steps_per_pass']} batch {s['batch_size']} workers {s['workers']} "
            f"compute median {f(s['compute_median_s'])} s cpu median {f(cpu[len(cpu) // 2] if cpu else None)} s "
            f"val {f(s['val_compute_median_s'])} s data wait median {f(s['data_wait_median_s'])} s "
            f"ckpt {s['checkpoint_bytes']} B wall {s['wall_s']:.2f} s")
    if "accum" in s:  # lm_shards: a step is a micro-batch
        line += (f" accum {s['accum']} optimizer steps {s['optimizer_steps']} evals after "
                 f"{s['evals_after_optimizer_steps']} params {s['params']}")
    if "checkpoints_removed" in s:  # prefetch_imagenet, heldout_gpu2's programs
        line += f" ckpts {s['checkpoints']} removed {s['checkpoints_removed']} model {s.get('model_source', '-')}"
    if "eval_passes" in s:  # heldout_gpu2's programs
        line += f" epochs {s['epochs']} eval passes {s['eval_passes']} files {s['files']}"
    return line


def capture_line(path):
    try:
        c = json.load(open(path))
    except ValueError as e:
        return f"{os.path.basename(path)}: {e}"
    return (f"{os.path.basename(path)}: events {c.get('events')} lost {c.get('lost_events')} "
            f"processes {c.get('processes')} files {c.get('files')} duration {c.get('duration_s')} s "
            f"exit {c.get('exit_status')}")


def step_times_lines(path):
    if not os.path.exists(path):
        return []
    try:
        d = json.load(open(path))
    except ValueError as e:
        return [f"step_times.json: {e}"]
    return [f"step_times {c['model']} batch {c['batch']} {c['precision']}: "
            + (f"{c['median_s']:.4f} s (min {c['min_s']:.4f}, p90 {c['p90_s']:.4f}) job {c.get('job_step_s', {})}"
               if "median_s" in c else c.get("error", "?"))
            for c in d["cases"]]


def main():
    logs, out = sys.argv[1], sys.argv[2]
    for path in sorted(glob.glob(os.path.join(logs, "*.log"))):
        print(log_line(path))
    for path in sorted(glob.glob(os.path.join(logs, "*.capture.json"))):
        print(capture_line(path))
    for line in step_times_lines(os.path.join(out, "step_times.json")):
        print(line)


if __name__ == "__main__":
    main()
