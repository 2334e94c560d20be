"""A Parquet reader in plain Python (no pyarrow: Debian 12 packages none), reading as pyarrow's
ParquetFile.iter_batches does: each file's footer from its end, then row group after row group the
selected columns' chunks, each one read at its offset (tests/analysis/distil_e2e_test).

usage: parquet_reader.py DIR [--epochs E] [--columns a,b] [--compute-ms MS]
Prints one JSON line with the ground truth: files, row groups, chunk reads and bytes per epoch.
"""
import argparse
import json
import os
import struct
import time


class Thrift:
    """The Thrift compact protocol, as much as Parquet's FileMetaData needs."""

    def __init__(self, data):
        self.data, self.at = data, 0

    def byte(self):
        b = self.data[self.at]
        self.at += 1
        return b

    def varint(self):
        v, shift = 0, 0
        while True:
            b = self.byte()
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return v

    def integer(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def read(self, t):
        if t in (1, 2):
            return t == 1
        if t == 3:
            return self.byte()
        if t in (4, 5, 6):
            return self.integer()
        if t == 7:
            self.at += 8
            return None
        if t == 8:
            n = self.varint()
            self.at += n
            return self.data[self.at - n:self.at]
        if t in (9, 10):
            h = self.byte()
            n = h >> 4 if h >> 4 != 15 else self.varint()
            return [self.read(h & 15) for _ in range(n)]
        if t == 12:
            return self.struct()
        raise ValueError("thrift type %d" % t)

    def struct(self):
        fields, last = {}, 0
        while True:
            h = self.byte()
            if h == 0:
                return fields
            last = last + (h >> 4) if h >> 4 else self.integer()
            fields[last] = self.read(h & 15)


def footer(f, size):
    f.seek(size - 8)
    tail = f.read(8)
    assert tail[4:] == b"PAR1", "not a Parquet file"
    (n,) = struct.unpack("<I", tail[:4])
    f.seek(size - 8 - n)
    return Thrift(f.read(n)).struct()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--columns", default="")
    p.add_argument("--compute-ms", type=float, default=2.0)
    a = p.parse_args()
    wanted = set(filter(None, a.columns.split(",")))
    paths = sorted(os.path.join(r, n) for r, _, ns in os.walk(a.dir) for n in ns
                   if n.endswith(".parquet"))
    truth = {"files": len(paths), "row_groups": 0, "chunk_reads": 0, "chunk_bytes": 0}
    for _ in range(a.epochs):
        groups = reads = nbytes = 0
        for path in paths:
            with open(path, "rb", buffering=0) as f:
                meta = footer(f, os.fstat(f.fileno()).st_size)
                for rg in meta[4]:
                    groups += 1
                    for chunk in rg[1]:
                        md = chunk[3]
                        name = b".".join(md[3]).decode()
                        if wanted and name not in wanted:
                            continue
                        f.seek(md[9])
                        data = f.read(md[7])
                        assert len(data) == md[7]
                        reads += 1
                        nbytes += md[7]
                    time.sleep(a.compute_ms / 1000)
        truth.update(row_groups=groups, chunk_reads=reads, chunk_bytes=nbytes)
    print(json.dumps(truth))


if __name__ == "__main__":
    main()
