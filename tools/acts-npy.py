#!/usr/bin/env python3
"""Writes doc/choose.md's example activations: N float32 values (default 65536),
Laplace(0, 1) with 1% of them multiplied by 50 (heavy-tailed, as activations
often are), as a little-endian .npy file. Standard library only; seed 1 by
default, so doc/choose.md's `choose --samples-file acts.npy` question is reproducible.
Usage: tools/acts-npy.py OUT.npy [N] [SEED]"""
import random
import struct
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: tools/acts-npy.py OUT.npy [N] [SEED]")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 65536
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    values = []
    for _ in range(n):
        x = rng.expovariate(1.0) - rng.expovariate(1.0)   # Laplace(0, 1)
        values.append(x * 50 if rng.random() < 0.01 else x)
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"   # .npy v1: data 64-byte aligned
    with open(sys.argv[1], "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%df" % n, *values))


main()
