#!/usr/bin/env python3
"""Expected values for tests/test_backend.c's exact chain, by a second method.

Exact rational arithmetic (fractions.Fraction) and the IEEE rules written out
here, sharing nothing with tcscope's C code: for mma.m16n8k16.f32.bf16.bf16.f32
chains D_i = X_{i-1} B_i + C_i (M x K = 16 x 16, B_i 16 x 16, C_i 16 x 16 f32),
each D_i the exact sum rounded once to f32 (nearest, ties to even), and
X_i = D_i converted to bf16 toward zero (saturating; no overflow occurs here).
Writes tests/data/chain/exact-bf16-rz.txt (committed; the test needs no Python):

    python3 tools/chain_expect.py > tests/data/chain/exact-bf16-rz.txt
"""
import random
from fractions import Fraction

NCH, LEN, M, K = 2, 4, 16, 16


def decode(bits, ebits, mbits):
    """The value of a finite IEEE-style pattern (bias 2^(ebits-1) - 1)."""
    bias = (1 << (ebits - 1)) - 1
    s = -1 if bits >> (ebits + mbits) & 1 else 1
    e = bits >> mbits & ((1 << ebits) - 1)
    m = bits & ((1 << mbits) - 1)
    assert e != (1 << ebits) - 1, "no Inf/NaN in this data"
    if e == 0:
        return s * Fraction(m, 1 << mbits) * Fraction(2) ** (1 - bias)
    return s * (1 + Fraction(m, 1 << mbits)) * Fraction(2) ** (e - bias)


def encode(x, ebits, mbits, mode):
    """x rounded to the format ('rne' or 'rz'), finite results only."""
    bias = (1 << (ebits - 1)) - 1
    sign = 1 if x < 0 else 0
    a = abs(x)
    if a == 0:
        return sign << (ebits + mbits)
    e = 0
    while a >= Fraction(2) ** (e + 1):
        e += 1
    while a < Fraction(2) ** e:
        e -= 1
    e = max(e, 1 - bias)                     # subnormals share emin's ulp
    ulp = Fraction(2) ** (e - mbits)
    q, r = divmod(a, ulp)                    # a = q * ulp + r, 0 <= r < ulp
    q = int(q)
    if mode == "rne" and (r > ulp / 2 or (r == ulp / 2 and q & 1)):
        q += 1
    v = q * ulp
    if v == 0:
        return sign << (ebits + mbits)
    E = 0
    while v >= Fraction(2) ** (E + 1):
        E += 1
    while v < Fraction(2) ** E:
        E -= 1
    if E < 1 - bias:                         # subnormal
        field, frac = 0, int(v / Fraction(2) ** (1 - bias - mbits))
    else:
        field, frac = E + bias, int((v / Fraction(2) ** E - 1) * (1 << mbits))
    assert field < (1 << ebits) - 1, "overflow: not in this data"
    return sign << (ebits + mbits) | field << mbits | frac


def rand_bf16(rng, lo, hi):
    e = rng.randint(lo, hi) + 127
    return rng.randint(0, 1) << 15 | e << 7 | rng.randint(0, 127)


def main():
    rng = random.Random(20261122)
    A0 = [rand_bf16(rng, -2, 1) for _ in range(NCH * M * K)]
    B = [rand_bf16(rng, -4, 0) for _ in range(NCH * LEN * K * K)]
    C = [rng.randint(0, 1) << 31 | (rng.randint(-6, 2) + 127) << 23 | rng.getrandbits(23)
         for _ in range(NCH * LEN * M * K)]
    X, D = [], []
    for c in range(NCH):
        x = A0[c * M * K:(c + 1) * M * K]
        for i in range(LEN):
            s = c * LEN + i
            X += x
            d = []
            for r in range(M):
                for j in range(K):
                    acc = decode(C[s * M * K + r * K + j], 8, 23)
                    for kk in range(K):
                        acc += decode(x[r * K + kk], 8, 7) * decode(B[s * K * K + kk * K + j], 8, 7)
                    d.append(encode(acc, 8, 23, "rne"))
            D += d
            x = [encode(decode(v, 8, 23), 8, 7, "rz") for v in d]
    print("# tools/chain_expect.py: exact chains of mma.m16n8k16.f32.bf16.bf16.f32, D rounded to f32 RNE,")
    print("# X_i = D_i to bf16 RZ (sat). Counts, then A0, B, C, X (inputs used), D, in hex.")
    print(NCH, LEN, M, K)
    for name, arr in (("A0", A0), ("B", B), ("C", C), ("X", X), ("D", D)):
        print(name)
        for i in range(0, len(arr), 16):
            print(" ".join("%x" % v for v in arr[i:i + 16]))


if __name__ == "__main__":
    main()
