#!/usr/bin/python3
"""A real S3 server for dlgen's tests and benchmarks: OpenStack Swift with its s3api middleware
(Debian 12: python3-swift, memcached), bound to 127.0.0.1 on free ports, everything in one folder.

  swift_server.py start DIR     writes DIR (new or empty), starts memcached and the account,
                                container, object and proxy servers, waits until S3 answers,
                                writes DIR/s3.env (AWS_ENDPOINT_URL=..., one per line) and prints it
  swift_server.py stop DIR      ends every process it started (by their process groups) and
                                deletes DIR; stopping a folder that is gone is not an error
  swift_server.py run -- CMD    start in a temporary folder, run CMD with the AWS_* variables set,
                                stop; exits with CMD's status

Credentials are the test user's (tempauth test:tester / testing), region us-east-1, path-style.
SWIFT_PROXY_WORKERS (default 1) sets the proxy's worker processes (benchmarks: more).
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

PY = "/usr/bin/python3"  # Debian's python, where python3-swift lives (not a pyenv shim)
SERVERS = ("account", "container", "object", "proxy")
ACCESS_KEY, SECRET_KEY, REGION = "test:tester", "testing", "us-east-1"
PIPELINE = ("catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk s3api "
            "tempauth copy slo dlo proxy-logging proxy-server")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def user_name():
    import pwd
    return pwd.getpwuid(os.getuid()).pw_name


def write_configs(d, ports):
    etc, srv = os.path.join(d, "etc"), os.path.join(d, "srv")
    os.makedirs(etc)
    os.makedirs(os.path.join(srv, "sdb1"))
    with open(os.path.join(etc, "swift.conf"), "w") as f:
        f.write("[swift-hash]\nswift_hash_path_suffix = dlgen\nswift_hash_path_prefix = dlgen\n\n"
                "[storage-policy:0]\nname = gold\ndefault = yes\n")
    common = ("[DEFAULT]\nbind_ip = 127.0.0.1\nbind_port = {port}\nworkers = {workers}\n"
              "swift_dir = " + etc + "\ndevices = " + srv + "\nmount_check = false\n"
              "user = " + user_name() + "\nlog_level = WARNING\n\n")
    for name in ("account", "container", "object"):
        with open(os.path.join(etc, name + "-server.conf"), "w") as f:
            f.write(common.format(port=ports[name], workers=0))
            f.write("[pipeline:main]\npipeline = %s-server\n\n[app:%s-server]\nuse = egg:swift#%s\n"
                    % (name, name, name))
            if name == "container":
                f.write("\n[container-sharder]\n")
    filters = {n: n for n in ("catch_errors", "gatekeeper", "healthcheck", "listing_formats",
                               "bulk", "copy", "slo", "dlo")}
    filters["proxy-logging"] = "proxy_logging"
    with open(os.path.join(etc, "proxy-server.conf"), "w") as f:
        f.write(common.format(port=ports["proxy"],
                              workers=int(os.environ.get("SWIFT_PROXY_WORKERS", "1"))))
        f.write("[pipeline:main]\npipeline = %s\n\n" % PIPELINE)
        f.write("[app:proxy-server]\nuse = egg:swift#proxy\naccount_autocreate = true\n\n")
        f.write("[filter:tempauth]\nuse = egg:swift#tempauth\nuser_test_tester = testing .admin\n\n")
        f.write("[filter:s3api]\nuse = egg:swift#s3api\nlocation = %s\n\n" % REGION)
        f.write("[filter:cache]\nuse = egg:swift#memcache\nmemcache_servers = 127.0.0.1:%d\n\n"
                % ports["memcached"])
        for section, egg in filters.items():
            f.write("[filter:%s]\nuse = egg:swift#%s\n\n" % (section, egg))
    # One device, one replica, 2^8 partitions: each ring points at its server's port.
    from swift.common.ring import RingBuilder
    for name in ("account", "container", "object"):
        b = RingBuilder(8, 1, 1)
        b.add_dev({"id": 0, "region": 1, "zone": 1, "ip": "127.0.0.1", "port": ports[name],
                   "device": "sdb1", "weight": 100})
        b.rebalance()
        b.get_ring().save(os.path.join(etc, name + ".ring.gz"))


def spawn(d, argv, log):
    # A session of its own: stop() ends the process and any worker it forked, by group.
    with open(os.path.join(d, log), "ab") as out:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                             start_new_session=True, cwd=d)
    with open(os.path.join(d, "pids"), "a") as f:
        f.write("%d\n" % p.pid)
    return p


def wait_ready(endpoint, procs, d, timeout=60):
    """Until the proxy's healthcheck answers and an S3 request gets an S3 answer."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for p in procs:
            if p.poll() is not None:
                raise RuntimeError("a Swift server exited (%d); see %s/*.log" % (p.returncode, d))
        try:
            with urllib.request.urlopen(endpoint + "/healthcheck", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        time.sleep(0.2)
    else:
        raise RuntimeError("Swift did not answer within %d s; see %s/*.log" % (timeout, d))
    # A signed S3 request (boto3, python3-boto3) that lists the buckets: the whole pipeline is up.
    import boto3
    import botocore.config
    s3 = boto3.client("s3", endpoint_url=endpoint, region_name=REGION,
                      aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
                      config=botocore.config.Config(retries={"max_attempts": 1},
                                                    s3={"addressing_style": "path"}))
    last = None
    while time.time() < deadline:
        try:
            s3.list_buckets()
            return
        except Exception as e:  # noqa: BLE001 -- any failure: not up yet
            last = e
        time.sleep(0.2)
    raise RuntimeError("S3 did not answer within %d s (%s); see %s/*.log" % (timeout, last, d))


def start(d):
    d = os.path.abspath(d)
    if os.path.exists(os.path.join(d, "etc", "swift.conf")):
        stop(d)  # a server an earlier, interrupted run left behind
    if os.path.exists(d) and os.listdir(d):
        raise RuntimeError(d + ": exists and is not empty")
    os.makedirs(d, exist_ok=True)
    ports = {n: free_port() for n in SERVERS + ("memcached",)}
    write_configs(d, ports)
    procs = []
    try:
        mc = ["memcached", "-l", "127.0.0.1", "-p", str(ports["memcached"]), "-U", "0", "-m", "64"]
        if os.getuid() == 0:
            mc += ["-u", "root"]
        procs.append(spawn(d, mc, "memcached.log"))
        for name in SERVERS:
            code = ("import sys; from swift.common import utils; utils.set_swift_dir(sys.argv[2]); "
                    "from swift.common.wsgi import run_wsgi; sys.exit(run_wsgi(sys.argv[1], "
                    "sys.argv[3]))")
            conf = os.path.join(d, "etc", name + "-server.conf")
            procs.append(spawn(d, [PY, "-c", code, conf, os.path.join(d, "etc"), name + "-server"],
                               name + ".log"))
        endpoint = "http://127.0.0.1:%d" % ports["proxy"]
        wait_ready(endpoint, procs, d)
    except BaseException:
        stop(d, keep_logs=True)
        raise
    env = {"AWS_ENDPOINT_URL": endpoint, "AWS_REGION": REGION, "AWS_ACCESS_KEY_ID": ACCESS_KEY,
           "AWS_SECRET_ACCESS_KEY": SECRET_KEY}
    with open(os.path.join(d, "s3.env"), "w") as f:
        for k, v in env.items():
            f.write("%s=%s\n" % (k, v))
    return env


def alive(pid):
    try:
        os.killpg(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def stop(d, keep_logs=False):
    d = os.path.abspath(d)
    pids_file = os.path.join(d, "pids")
    pids = []
    if os.path.exists(pids_file):
        with open(pids_file) as f:
            pids = [int(x) for x in f.read().split()]
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        for pid in pids:
            try:
                os.killpg(pid, sig)  # the group: the server and the workers it forked
            except ProcessLookupError:
                pass
        deadline = time.time() + wait
        while time.time() < deadline and any(alive(p) for p in pids):
            for p in pids:  # reap our own children (start's failure path)
                try:
                    os.waitpid(p, os.WNOHANG)
                except ChildProcessError:
                    pass
            time.sleep(0.1)
        if not any(alive(p) for p in pids):
            break
    if keep_logs:
        for name in os.listdir(d):
            if name.endswith(".log"):
                with open(os.path.join(d, name), errors="replace") as f:
                    tail = f.read()[-2000:]
                if tail.strip():
                    sys.stderr.write("--- %s ---\n%s\n" % (name, tail))
    # Only the folder this script made: its configs, rings, objects and logs.
    if os.path.exists(os.path.join(d, "etc", "swift.conf")) or not os.listdir(d):
        shutil.rmtree(d, ignore_errors=True)


def main(argv):
    if len(argv) >= 2 and argv[0] == "start":
        env = start(argv[1])
        for k, v in env.items():
            if k != "AWS_SECRET_ACCESS_KEY":  # the credentials stay in DIR/s3.env
                print("%s=%s" % (k, v))
        return 0
    if len(argv) >= 2 and argv[0] == "stop":
        if os.path.isdir(argv[1]):
            stop(argv[1])
        return 0
    if len(argv) >= 3 and argv[0] == "run" and argv[1] == "--":
        d = tempfile.mkdtemp(prefix="dlgen-swift-")
        try:
            env = dict(os.environ, **start(d))
            return subprocess.call(argv[2:], env=env)
        finally:
            stop(d)
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
