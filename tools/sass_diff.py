#!/usr/bin/env python3
"""Compares two `cuobjdump -sass` listings of the same kernels, built by two
compilers (issue #16): per kernel, whether the tensor-core instructions
(opcode and modifiers, in order) are the same, whether the whole opcode
sequence is, and whether the text is (registers and scheduling included).
Addresses and encodings are ignored; kernels are matched by name.

usage: tools/sass_diff.py OLD.sass[.gz] NEW.sass[.gz] [--list N]
Prints a summary and up to N kernels of each kind of difference, with the
first differing tensor-core instruction as evidence. Exit 0 always (a report)."""
import gzip, re, sys
from collections import Counter

TC = re.compile(r'^(HMMA|HGMMA|IMMA|IGMMA|QMMA|QGMMA|DMMA|BMMA|OMMA|UTCHMMA|HFMA2\.MMA)\b')

def listing(path):
    op = gzip.open if path.endswith('.gz') else open
    funcs, name, body = {}, None, []
    with op(path, 'rt', errors='replace') as f:
        for line in f:
            m = re.search(r'Function : (\S+)', line)
            if m:
                if name: funcs[name] = body
                name, body = m.group(1), []
                continue
            m = re.match(r'\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;', line)
            if m and name:
                body.append(m.group(1))
    if name: funcs[name] = body
    return funcs

def opcode(ins):
    ins = re.sub(r'^@!?U?P\w+\s+', '', ins)       # predicate
    return ins.split()[0] if ins else ''

def main():
    args = sys.argv[1:]
    n = 5
    if '--list' in args:
        i = args.index('--list'); n = int(args[i + 1]); del args[i:i + 2]
    old, new = listing(args[0]), listing(args[1])
    both = sorted(set(old) & set(new))
    kinds = Counter(); shown = Counter()
    for k in both:
        a, b = old[k], new[k]
        ta = [opcode(x) for x in a if TC.match(opcode(x))]
        tb = [opcode(x) for x in b if TC.match(opcode(x))]
        if a == b: kind = 'same text'
        elif [opcode(x) for x in a] == [opcode(x) for x in b]: kind = 'same opcodes, other registers/operands'
        elif ta == tb: kind = 'same tensor-core instructions, other scheduling or non-MMA code'
        else: kind = 'TENSOR-CORE INSTRUCTIONS DIFFER'
        kinds[kind] += 1
        if kind != 'same text' and shown[kind] < n:
            shown[kind] += 1
            ca, cb = Counter(ta), Counter(tb)
            ev = ''
            if ca != cb:
                ev = f"  tensor-core opcodes {dict(ca)} -> {dict(cb)}"
            print(f"{kind}: {k} ({len(a)} -> {len(b)} instructions){ev}")
    print(f"# {len(both)} kernels in both ({len(old)} in OLD, {len(new)} in NEW)")
    for kind, c in kinds.most_common():
        print(f"#   {c:6d} {kind}")

if __name__ == '__main__':
    main()
