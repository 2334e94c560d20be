#!/usr/bin/python3
"""dlgen's S3 engine against boto3, side by side, on the same server and the same objects.

Run inside a server's environment (the AWS_* variables), e.g.
  SWIFT_PROXY_WORKERS=2 tests/s3/swift_server.py run -- bench/s3/bench_s3.py build/dlgen

For each shape (128 KiB objects, 64 MiB objects) it generates the objects once with
`dlgen generate`, then reads every object EPOCHS times, whole, with THREADS threads:
  dlgen: `dlgen run` (the s3 engine; reader.workers = THREADS, one request in flight each,
         no compute), rates from its result JSON (totals.requests, totals.bytes_read,
         totals.elapsed_seconds);
  boto3: THREADS threads of get_object(...)["Body"].read() over the same keys (one client,
         max_pool_connections = THREADS), rates from its own wall clock.
Client CPU seconds = user + system of the client process (getrusage of the child), per GiB read.
Prints one line per client and shape; `--json FILE` also writes them.
"""
import argparse
import concurrent.futures
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

SHAPES = {"128KiB": (128 * 1024, 1024), "64MiB": (64 << 20, 16)}  # object size, objects


def job_text(bucket, shape, size, count, threads, epochs):
    return f"""[job]
name = "s3bench-{shape}"

[dataset]
dir = "s3://{bucket}/{shape}"
num_files = {count}
file_size = "{size}"
format = "raw"

[reader]
batch_size = 1
workers = {threads}
prefetch = 4
shuffle = "file"

[compute]
time = "0s"

[run]
epochs = {epochs}
accelerators = 1
"""


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_dlgen(dlgen, job, out):
    before = child_cpu()
    subprocess.run([dlgen, "run", job, "--no-generate", "-q", "-o", out], check=True,
                   stdout=subprocess.DEVNULL)
    cpu = child_cpu() - before
    t = json.load(open(out))["totals"]
    return t["requests"], t["bytes_read"], t["elapsed_seconds"], cpu


BOTO = r"""
import boto3, botocore.config, concurrent.futures, os, sys, time, json
bucket, prefix, threads, epochs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
s3 = boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"],
                  region_name=os.environ.get("AWS_REGION", "us-east-1"),
                  config=botocore.config.Config(max_pool_connections=threads,
                                                s3={"addressing_style": "path"}))
keys = [o["Key"] for p in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix + "/")
        for o in p.get("Contents", []) if not o["Key"].endswith(".dlgen-manifest.json")]
def get(k):
    return len(s3.get_object(Bucket=bucket, Key=k)["Body"].read())
start = time.monotonic()
n = b = 0
with concurrent.futures.ThreadPoolExecutor(threads) as pool:
    for _ in range(epochs):
        for got in pool.map(get, keys):
            n += 1; b += got
print(json.dumps({"requests": n, "bytes": b, "seconds": time.monotonic() - start}))
"""


def run_boto3(bucket, prefix, threads, epochs):
    before = child_cpu()
    out = subprocess.run([sys.executable, "-c", BOTO, bucket, prefix, str(threads), str(epochs)],
                         check=True, capture_output=True, text=True).stdout
    cpu = child_cpu() - before
    r = json.loads(out)
    return r["requests"], r["bytes"], r["seconds"], cpu


def line(client, shape, threads, requests, nbytes, seconds, cpu):
    gib = nbytes / (1 << 30)
    row = {"client": client, "shape": shape, "threads": threads, "requests": requests,
           "bytes": nbytes, "seconds": round(seconds, 3),
           "requests_per_s": round(requests / seconds, 1),
           "mib_per_s": round(nbytes / (1 << 20) / seconds, 1),
           "cpu_s_per_gib": round(cpu / gib, 2)}
    print("%-6s %-7s threads %2d: %6d requests, %8.1f MiB in %6.2f s: %8.1f req/s %8.1f MiB/s "
          "%6.2f CPU s/GiB" % (client, shape, threads, requests, nbytes / (1 << 20), seconds,
                               row["requests_per_s"], row["mib_per_s"], row["cpu_s_per_gib"]))
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dlgen")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--shapes", default="128KiB,64MiB")
    ap.add_argument("--bucket", default="dlgen-bench")
    ap.add_argument("--json")
    a = ap.parse_args()
    subprocess.run([os.path.join(os.path.dirname(__file__), "../../tests/s3/s3_check.py"), "mb",
                    a.bucket], check=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="dlgen-s3-bench-") as tmp:
        for shape in a.shapes.split(","):
            size, count = SHAPES[shape]
            job = os.path.join(tmp, shape + ".toml")
            with open(job, "w") as f:
                f.write(job_text(a.bucket, shape, shape, count, a.threads, a.epochs))
            subprocess.run([a.dlgen, "generate", job, "-q"], check=True, stdout=subprocess.DEVNULL)
            # Alternate the clients, so that a change of the machine's load hits both.
            rows.append(line("dlgen", shape, a.threads,
                             *run_dlgen(a.dlgen, job, os.path.join(tmp, "r.json"))))
            rows.append(line("boto3", shape, a.threads,
                             *run_boto3(a.bucket, shape, a.threads, a.epochs)))
    if a.json:
        json.dump(rows, open(a.json, "w"), indent=2)


if __name__ == "__main__":
    main()
