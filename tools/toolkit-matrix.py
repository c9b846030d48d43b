#!/usr/bin/env python3
"""The toolkit matrix (issue #30): the catalogue's kernels assembled by the
ptxas of every CUDA release on PyPI, and each kernel's tensor-core SASS
sequence compared with CUDA 13.0's.

The PTX is written once by this machine's nvcc (its front end, cicc, for
compute_90a) from the catalogue's kernel files; each toolkit's ptxas then
assembles it for sm_90a (`ptxas -arch=sm_90a -m64`, what nvcc runs). A ptxas
reads PTX up to its own ISA version: the .version line is lowered to the one
it names (the instruction text untouched, as tools/ptxas-other.sh does), and
a kernel holding an instruction that the older ISA lacks is dropped and
recorded "not assemblable" with ptxas's reason (usually "needs PTX ISA x.y").
nvdisasm (one version for every toolkit) disassembles the cubins; per kernel
the tensor-core instructions (opcode and modifiers, in order: tools/sass_diff.py)
and a hash of the whole opcode sequence (NOPs left out) are kept.

  toolkit-matrix.py run [--toolkits 12.0,...] [--files F,...] [--kernels REGEX] [--out REC] [--keep]
      Network: pip downloads each nvidia-cuda-nvcc(-cu12) wheel (the newest
      patch of each minor release) into $TKM_CACHE (default
      /tmp/tcscope-toolkits), keeps only its ptxas, deletes the wheel; the same
      for nvidia-cuda-nvdisasm. Writes the record
      (default reports/baselines/toolkit-matrix.jsonl.xz); --keep keeps its
      other rows. TKM_JOBS assemblers at once (default 2).
  toolkit-matrix.py jit DIR [--files F,...]   (on a GPU)
      The same PTX (the record's kernel selection) compiled by the driver's
      JIT into DIR for ingest.
  toolkit-matrix.py regress --ptxas PATH [--files F,...] [--record REC]
      Your own toolkit: assembles the kernels with PATH and compares every
      kernel's tensor-core sequence with the record's CUDA 13.0 one. Needs
      nvcc and nvdisasm (NVDISASM, PATH or CUDA_HOME/bin). Exit 1 when a
      sequence differs, 0 when all are the same.
  toolkit-matrix.py ingest NAME DIR [--record REC]
      Adds (or replaces) a row from cubins made elsewhere (the driver JIT's,
      tools/device/toolkit-audit.sh): DIR/<file>.cubin, DIR/version.txt,
      DIR/failed.txt.
  toolkit-matrix.py write-doc [--doc doc/toolkits.md]   puts the table there
  toolkit-matrix.py fetch 12.4 DIR       DIR/ptxas-VERSION.xz, for a device task to carry
  toolkit-matrix.py ptxas 12.9           the path of that release's ptxas in the cache
      (downloaded once): the 12.x ptxas of `make PTXAS12=...` and of
      tools/isa-ptxas-check.py's sm_70 check (CI)
  toolkit-matrix.py drop --ptxas PATH IN.ptx OUT.ptx
      IN without the kernels PATH refuses (tools/ptxas-other.sh with
      TC_PTXAS_DROP=1: a build with an older ptxas, those kernels left out).
  toolkit-matrix.py table [--record REC]      the doc/toolkits.md table (Markdown)
  toolkit-matrix.py check [--record REC] [--doc doc/toolkits.md]
      The record's structure, and the doc's table equal to what `table` writes
      (tests/test_toolkit_matrix.c). Exit 1 naming the problem.
  toolkit-matrix.py differs [--record REC]    one line per toolkit x instruction whose sequence differs

Exit 2 on bad input or a missing tool. Python 3 standard library only.
"""
import argparse
import datetime
import hashlib
import json
import lzma
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter, OrderedDict
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "probes", "isa"))
import sass_diff  # noqa: E402  (the SASS listing parser and the tensor-core opcode set)
import isa  # noqa: E402  (the catalogue: kernel identifier -> instruction)

SCHEMA = "tcscope-toolkit-matrix/1"
RECORD = os.path.join(ROOT, "reports", "baselines", "toolkit-matrix.jsonl.xz")
DOC = os.path.join(ROOT, "doc", "toolkits.md")
REFERENCE = "13.0"
# The kernel files of the catalogue (probes/isa/gen.py's executor and timing
# files, and the hand-written wmma timing file); the others hold no catalogue kernel.
FILES = ["mma_gen", "mma_sp_gen", "wgmma_gen_f16", "wgmma_gen_fp8", "wgmma_gen_tf32", "wgmma_sp_gen",
         "timing_mma", "timing_wmma", "timing_wgmma_n8", "timing_wgmma_n16", "timing_wgmma_n32",
         "timing_wgmma_n64", "timing_wgmma_n128", "timing_wgmma_n256"]
# Every minor release 12.0 ... 13.5: (minor, PyPI package).
TOOLKITS = [("12.%d" % n, "nvidia-cuda-nvcc-cu12") for n in range(10)] + \
           [("13.%d" % n, "nvidia-cuda-nvcc") for n in range(6)]
PTXAS_ARGS = ["-arch=sm_90a", "-m64"]
PLATFORMS = ["manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux_2_27_x86_64", "manylinux_2_28_x86_64"]
KERNEL = re.compile(r"^tc[xct]_(.*?)(_i\d+|_lat)?$")


class Bad(Exception):
    """Bad input or a missing tool: exit 2 with the message."""


def cache_dir():
    d = os.environ.get("TKM_CACHE", "/tmp/tcscope-toolkits")
    os.makedirs(d, exist_ok=True)
    return d


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def tool_version(path):
    r = sh([path, "--version"])
    m = re.findall(r"V\d+\.\d+\.\d+", r.stdout)
    if r.returncode != 0 or not m:
        raise Bad("%s --version failed: %s" % (path, (r.stderr or r.stdout).strip()[:200]))
    return m[-1]


# ---- the wheels -------------------------------------------------------------

def pip_wheel(spec, into):
    """Downloads the newest wheel matching spec into the folder into; its path,
    or None when PyPI has none."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--python-version", "3.11",
           "-d", into, "--quiet", spec]
    for p in PLATFORMS:
        cmd[4:4] = ["--platform", p]
    r = sh(cmd)
    if r.returncode != 0:
        if "No matching distribution" in r.stderr:
            return None
        raise Bad("pip download %s failed: %s" % (spec, r.stderr.strip()[-400:]))
    whl = [f for f in os.listdir(into) if f.endswith(".whl")]
    if len(whl) != 1:
        raise Bad("pip download %s: expected one wheel, got %s" % (spec, whl))
    return os.path.join(into, whl[0])


def extract(whl, names, dest):
    """Copies the wheel's bin/NAME members to dest/NAME (executable)."""
    got = {}
    with zipfile.ZipFile(whl) as z:
        for m in z.namelist():
            base = os.path.basename(m)
            if base in names and m.rsplit("/", 2)[-2] == "bin":
                out = os.path.join(dest, base)
                with z.open(m) as src, open(out, "wb") as dst:
                    shutil.copyfileobj(src, dst)
                os.chmod(out, 0o755)
                got[base] = out
    missing = set(names) - set(got)
    if missing:
        raise Bad("%s has no bin/%s" % (os.path.basename(whl), ", bin/".join(sorted(missing))))
    return got


def fetch_ptxas(minor, package):
    """(exact version, ptxas path) of the newest patch of minor, downloaded
    once into the cache (the wheel deleted); (None, None) when PyPI has none."""
    base = os.path.join(cache_dir(), "ptxas")
    os.makedirs(base, exist_ok=True)
    for f in os.listdir(base):
        if f.startswith("ptxas-%s." % minor):
            return f[len("ptxas-"):], os.path.join(base, f)
    tmp = tempfile.mkdtemp(dir=cache_dir())
    try:
        whl = pip_wheel("%s==%s.*" % (package, minor), tmp)
        if whl is None:
            return None, None
        version = os.path.basename(whl).split("-")[1]
        ptxas = extract(whl, ["ptxas"], tmp)["ptxas"]
        out = os.path.join(base, "ptxas-" + version)
        os.replace(ptxas, out)
        return version, out
    finally:
        shutil.rmtree(tmp)


def find_nvdisasm(download):
    """nvdisasm: $NVDISASM, PATH, CUDA_HOME/bin, the cache, else (download)
    the PyPI wheel nvidia-cuda-nvdisasm."""
    cands = [os.environ.get("NVDISASM"), shutil.which("nvdisasm"),
             os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvdisasm"),
             os.path.join(cache_dir(), "nvdisasm", "nvdisasm")]
    for c in cands:
        if c and os.access(c, os.X_OK):
            return c
    if not download:
        raise Bad("no nvdisasm: set NVDISASM, or pip install nvidia-cuda-nvdisasm (its bin/nvdisasm)")
    dest = os.path.join(cache_dir(), "nvdisasm")
    os.makedirs(dest, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=cache_dir())
    try:
        whl = pip_wheel("nvidia-cuda-nvdisasm", tmp)
        if whl is None:
            raise Bad("no nvidia-cuda-nvdisasm wheel on PyPI")
        extract(whl, ["nvdisasm"], dest)
    finally:
        shutil.rmtree(tmp)
    return os.path.join(dest, "nvdisasm")


# ---- PTX, assembly, disassembly ---------------------------------------------

def make_ptx(files, nvcc):
    """{file: PTX path}: each kernel file through nvcc's front end, cached by
    the source's hash and the nvcc version."""
    ver = tool_version(nvcc)
    d = os.path.join(cache_dir(), "ptx")
    os.makedirs(d, exist_ok=True)
    out = {}

    def one(f):
        src = os.path.join(ROOT, "probes", "cuda", f + ".cu")
        if not os.path.exists(src):
            raise Bad("no kernel file %s" % src)
        h = hashlib.sha256(open(src, "rb").read() + ver.encode()).hexdigest()[:16]
        p = os.path.join(d, "%s-%s.ptx" % (f, h))
        if not os.path.exists(p):
            r = sh([nvcc, "-O3", "-std=c++17", "-arch=compute_90a", "-ptx", "-I" + ROOT, src, "-o", p + ".tmp"])
            if r.returncode != 0:
                raise Bad("nvcc -ptx %s failed: %s" % (src, r.stderr.strip()[-400:]))
            os.replace(p + ".tmp", p)
        return f, p

    with ThreadPoolExecutor(max_workers=jobs()) as ex:
        for f, p in ex.map(one, files):
            out[f] = p
    return ver, out


def entries(lines):
    """[(name, first line, last line)] of the PTX's .entry functions (0-based,
    inclusive): from the .entry line to the brace that closes its body (the
    body nests { } blocks; braces of an operand list close on their line)."""
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+(\w+)", lines[i])
        if m:
            j, depth, opened = i, 0, False
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                opened = opened or depth > 0
                if opened and depth <= 0:
                    break
                j += 1
            out.append((m.group(1), i, j))
            i = j
        i += 1
    return out


def select(lines, keep):
    """The PTX without the .entry functions whose name keep (a regex) does not match."""
    if not keep:
        return lines
    skip = set()
    for n, a, b in entries(lines):
        if not re.search(keep, n):
            skip.update(range(a, b + 1))
    return [l for k, l in enumerate(lines) if k not in skip]


def assemble(ptxas, ptx_path, workdir):
    """Assembles one PTX file, lowering .version and dropping the kernels
    ptxas refuses. (cubin path or None, lowered 'a -> b' or None,
    {kernel: reason} of the dropped ones, a file-level error or None)."""
    lines = select(open(ptx_path).read().split("\n"), KEEP)
    dropped, lowered = {}, None
    src = os.path.join(workdir, "in.ptx")
    cubin = os.path.join(workdir, "out.cubin")
    for _ in range(200):
        with open(src, "w") as f:
            f.write("\n".join(lines))
        r = sh([ptxas] + PTXAS_ARGS + [src, "-o", cubin])
        if r.returncode == 0:
            return cubin, lowered, dropped, None
        m = re.search(r"Unsupported \.version (\d+\.\d+); current version is '(\d+\.\d+)'", r.stderr)
        if m and lowered is None:
            lines = [(".version " + m.group(2)) if l.strip() == ".version " + m.group(1) else l for l in lines]
            lowered = "%s -> %s" % (m.group(1), m.group(2))
            continue
        spans = entries(lines)
        bad = {}
        for ln, kind, msg in re.findall(r"line (\d+); (error|fatal)\s*:\s*(.*)", r.stderr):
            tok = token(lines[int(ln) - 1])
            why = reason(tok, msg)
            # a parse error stops ptxas at its first one: every kernel with the same instruction text goes too
            hit = [(n, a, b) for n, a, b in spans if a <= int(ln) - 1 <= b]
            if kind == "fatal" and tok:
                hit += [(n, a, b) for n, a, b in spans if any(token(l) == tok for l in lines[a:b + 1])]
            for n, a, b in hit:
                bad.setdefault(n, why)
        if not bad:
            return None, lowered, dropped, r.stderr.strip()[-400:]
        skip = set()
        for n, a, b in spans:
            if n in bad:
                skip.update(range(a, b + 1))
        lines = [l for k, l in enumerate(lines) if k not in skip]
        dropped.update(bad)
        if not entries(lines):
            with open(src, "w") as f:   # what is left (no kernel), for drop
                f.write("\n".join(lines))
            return None, lowered, dropped, None
    return None, lowered, dropped, "ptxas kept refusing after 200 passes"


def token(line):
    """The PTX instruction of a line (its first word, predicate left out)."""
    w = re.sub(r"^\s*@!?%\w+\s+", "", line).split()
    return w[0].rstrip(";") if w else ""


def reason(tok, msg):
    """Why ptxas refused: the instruction it refused and its words, short
    ('needs PTX ISA 8.5' where it names the version)."""
    m = re.search(r"requires PTX ISA \.version (\d+\.\d+)", msg)
    msg = "needs PTX ISA " + m.group(1) if m else re.sub(r"\s+", " ", msg).strip()[:120]
    return "%s: %s" % (tok, msg) if tok else msg


def disassemble(nvdisasm, cubin):
    """{kernel: (tensor-core sequence, hash of the whole opcode sequence)}.
    nvdisasm -c, not cuobjdump -sass: cuobjdump 13.x says a cubin of ptxas
    12.x "does not contain device code"; nvdisasm reads both. Its section
    headers become cuobjdump's "Function :" lines for tools/sass_diff.py."""
    r = sh([nvdisasm, "-c", cubin])
    if r.returncode != 0:
        raise Bad("nvdisasm -c %s failed: %s" % (cubin, r.stderr.strip()[-300:]))
    text = re.sub(r"(?m)^//-+ \.text\.(\S+) -+$", r"\tFunction : \1", r.stdout)
    with tempfile.NamedTemporaryFile("w", suffix=".sass", delete=False) as f:
        f.write(text)
    try:
        funcs = sass_diff.listing(f.name)
    finally:
        os.unlink(f.name)
    out = {}
    for name, body in funcs.items():
        ops = [sass_diff.opcode(x) for x in body]
        tc = [o for o in ops if sass_diff.TC.match(o)]
        # NOPs left out of the hash: where ptxas pads for alignment is not other code
        # (12.9 and 13.0 differ only there in mma_sp_gen's kernels)
        real = " ".join(o for o in ops if o != "NOP")
        out[name] = (" ".join(tc), hashlib.sha256(real.encode()).hexdigest()[:10])
    return out


def jobs():
    return max(1, int(os.environ.get("TKM_JOBS", "2")))


def run_ptxas(ptxas, ptx):
    """{kernel: (tc, ophash) or reason string}, lowered, file errors, for one toolkit."""
    def one(item):
        f, p = item
        w = tempfile.mkdtemp(dir=cache_dir())
        try:
            cubin, low, dropped, err = assemble(ptxas, p, w)
            got = dict(dropped)
            if cubin:
                got.update(disassemble(DISASM, cubin))
            elif err:
                for name, a, b in entries(open(p).read().split("\n")):
                    got.setdefault(name, "file not assembled: " + reason("", err))
            return got, low
        finally:
            shutil.rmtree(w)
    kernels, lowered = {}, set()
    with ThreadPoolExecutor(max_workers=jobs()) as ex:
        for got, low in ex.map(one, sorted(ptx.items())):
            kernels.update(got)
            if low:
                lowered.add(low)
    return kernels, sorted(lowered)


DISASM = None
KEEP = None   # --kernels: a regex of the kernel names assembled (None: all)


# ---- the record ---------------------------------------------------------------

def instr_of(kernel, idents):
    m = KERNEL.match(kernel)
    return idents.get(m.group(1)) if m else None


def catalogue_idents():
    return {isa.ident(i.name): i.name for i in isa.catalogue()}


def read_record(path):
    try:
        with lzma.open(path, "rt") as f:
            rows = [json.loads(l) for l in f if l.strip()]
    except (OSError, lzma.LZMAError, ValueError) as e:
        raise Bad("%s: cannot read: %s" % (path, e))
    if len(rows) < 3 or rows[0].get("schema") != SCHEMA:
        raise Bad("%s: not a %s record" % (path, SCHEMA))
    return rows[0], rows[1], rows[2], rows[3:]


def write_record(path, header, kernels, seqs, rows):
    tmp = path + ".tmp"
    with lzma.open(tmp, "wt", preset=9 | lzma.PRESET_EXTREME) as f:
        for obj in [header, kernels, seqs] + rows:
            f.write(json.dumps(obj, separators=(",", ":")) + "\n")
    os.replace(tmp, path)


def row_from(name, version, package, tool, got, lowered, names, seqs, seconds):
    """One toolkit's line: per kernel (in the kernel list's order) the index of
    its tensor-core sequence in seqs, or the reason it was not assembled; and
    the whole-opcode hashes."""
    index = {s: i for i, s in enumerate(seqs)}
    tc, ops = [], []
    for k in names:
        v = got.get(k, "not in the cubin")
        if isinstance(v, str):
            tc.append(v)
            ops.append(None)
        else:
            if v[0] not in index:
                index[v[0]] = len(seqs)
                seqs.append(v[0])
            tc.append(index[v[0]])
            ops.append(v[1])
    return OrderedDict([("toolkit", name), ("version", version), ("package", package), ("compiler", tool),
                        ("ptx_lowered", lowered), ("seconds", seconds), ("tc", tc), ("ops", ops)])


def cmd_run(a):
    global DISASM, KEEP
    KEEP = a.kernels
    t_all = time.time()
    files = a.files.split(",") if a.files else FILES
    want = a.toolkits.split(",") if a.toolkits else [t for t, _ in TOOLKITS]
    nvcc = shutil.which("nvcc") or os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc")
    DISASM = find_nvdisasm(download=True)
    t0 = time.time()
    nvcc_ver, ptx = make_ptx(files, nvcc)
    print("PTX of %d files by nvcc %s: %.0f s" % (len(files), nvcc_ver, time.time() - t0), flush=True)
    idents = catalogue_idents()
    names = sorted({k for p in ptx.values() for k, _, _ in entries(select(open(p).read().split("\n"), KEEP))
                    if instr_of(k, idents)})
    seqs, rows = [], []
    old = {}
    if a.keep and os.path.exists(a.out):
        _, kl, sl, orows = read_record(a.out)
        if kl["kernels"] == [[k, instr_of(k, idents)] for k in names]:
            seqs = sl["seqs"]
            old = {r["toolkit"]: r for r in orows}
    for minor, package in TOOLKITS:
        if minor not in want:
            continue
        t0 = time.time()
        version, ptxas = fetch_ptxas(minor, package)
        if version is None:
            rows.append(OrderedDict([("toolkit", minor), ("package", "%s==%s.*" % (package, minor)),
                                     ("missing", "not on PyPI")]))
            print("%s: no %s==%s.* on PyPI" % (minor, package, minor), flush=True)
            continue
        t_dl = time.time() - t0
        got, lowered = run_ptxas(ptxas, ptx)
        row = row_from(minor, version, "%s==%s" % (package, version), "ptxas " + tool_version(ptxas),
                       got, lowered, names, seqs, round(time.time() - t0, 1))
        rows.append(row)
        bad = sum(1 for v in row["tc"] if isinstance(v, str))
        print("%s (%s): download %.0f s, assembled %d of %d kernels, PTX %s, %.0f s" % (
            minor, version, t_dl, len(names) - bad, len(names), ", ".join(lowered) or "as written",
            time.time() - t0), flush=True)
        if not a.keep_ptxas:
            os.unlink(ptxas)
        save(a.out, nvcc_ver, files, names, idents, seqs, rows, old, t_all)   # a stopped run keeps what it did
    save(a.out, nvcc_ver, files, names, idents, seqs, rows, old, t_all)
    print("wrote %s: %d kernels, %d toolkits, %d distinct sequences, %.0f s" % (
        a.out, len(names), len(rows), len(seqs), time.time() - t_all))
    return 0


def save(out, nvcc_ver, files, names, idents, seqs, rows, old, t_all):
    """The record of the rows so far, the old record's other rows kept (in the toolkits' order, ingested ones last)."""
    done = {r["toolkit"] for r in rows}
    order = [t for t, _ in TOOLKITS]
    keep = rows + [r for t, r in old.items() if t not in done]
    keep.sort(key=lambda r: order.index(r["toolkit"]) if r["toolkit"] in order else len(order))
    header = OrderedDict([
        ("schema", SCHEMA), ("date", datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")),
        ("host", socket.gethostname()), ("tcscope_version", git_describe()),
        ("command", "tools/toolkit-matrix.py run"),
        ("front_end", "nvcc %s: nvcc -O3 -std=c++17 -arch=compute_90a -ptx" % nvcc_ver),
        ("ptxas_args", " ".join(PTXAS_ARGS)), ("disassembler", "nvdisasm -c " + tool_version(DISASM)),
        ("reference", REFERENCE), ("files", files), ("kernels", KEEP or "all"),
        ("seconds", round(time.time() - t_all, 1))])
    write_record(out, header, {"kernels": [[k, instr_of(k, idents)] for k in names]}, {"seqs": seqs}, keep)


def git_describe():
    r = sh(["git", "-C", ROOT, "describe", "--always", "--dirty"])
    return r.stdout.strip() or "unknown"


# ---- comparing with the reference, the table ----------------------------------

# The table's instruction classes: (column, test on a catalogue instruction).
FP8 = ("e4m3", "e5m2")
CLASSES = [
    ("mma f16", lambda i: i.api == "mma" and i.a == "f16"),
    ("mma bf16", lambda i: i.api == "mma" and i.a == "bf16"),
    ("mma tf32", lambda i: i.api == "mma" and i.a == "tf32"),
    ("mma fp8", lambda i: i.api == "mma" and i.a in FP8),
    ("mma f64", lambda i: i.api == "mma" and i.a == "f64"),
    ("mma int8", lambda i: i.api == "mma" and i.a in ("s8", "u8")),
    ("mma.sp", lambda i: i.api == "mma.sp"),
    ("wmma", lambda i: i.api == "wmma"),
    ("wgmma", lambda i: i.api == "wgmma"),
    ("wgmma.sp", lambda i: i.api == "wgmma.sp"),
]


def how(ref, new):
    """What changed between two tensor-core sequences: opcodes that left and
    came (with counts), or 'order' when only the order moved."""
    a, b = Counter(ref.split()), Counter(new.split())
    if a == b:
        return "order of " + ", ".join(sorted(a))
    gone = ["%s x%d" % (o, n) for o, n in sorted((a - b).items())]
    came = ["%s x%d" % (o, n) for o, n in sorted((b - a).items())]
    return "%s -> %s" % (", ".join(gone) or "nothing", ", ".join(came) or "nothing")


TC_PTX = re.compile(r"^(mma|wmma|wgmma)\b")


def short(why):
    """A refusal with the instruction's shape and types left out, so that a
    class's refusals read as one: 'mma.sync.aligned.m16n8k32.row.col.f16.e4m3...: X'
    -> 'mma.sync.aligned.mMnNkK...: X'."""
    return re.sub(r"^(\S*?)\.m\d+n\d+k\d+\S*?:", r"\1.mMnNkK...:", why)


def instr_status(kernels, seqs, ref, row):
    """{instruction: (status, detail)} of one row against the reference row.
    'not assemblable': ptxas refused the tensor-core instruction itself;
    'differs': an assembled kernel's sequence is not the reference's; 'same';
    'not assembled': every kernel refused for other code (the front end's)."""
    per = {}
    for k, (name, instr) in enumerate(kernels):
        v, r = row["tc"][k], ref["tc"][k]
        p = per.setdefault(instr, {"tc": [], "other": [], "differs": [], "same": 0})
        if isinstance(v, str):
            p["tc" if TC_PTX.match(v) else "other"].append(short(v))
        elif isinstance(r, str) or seqs[v] == seqs[r]:
            p["same"] += 1
        else:
            p["differs"].append(how(seqs[r], seqs[v]))
    out = {}
    for instr, p in per.items():
        if p["tc"]:
            out[instr] = ("not assemblable", p["tc"][0])
        elif p["differs"]:
            out[instr] = ("differs", p["differs"][0])
        elif p["same"]:
            out[instr] = ("same", "")
        else:
            out[instr] = ("not assembled", "other code: " + p["other"][0])
    return out


def cell(statuses):
    """One table cell from the statuses of a class's instructions."""
    if not statuses:
        return "-"
    kinds = Counter(s for s, _ in statuses)
    if kinds == Counter({"same": len(statuses)}):
        return "same"
    parts = []
    for kind in ("differs", "not assemblable", "not assembled"):
        if kinds[kind]:
            details = list(OrderedDict.fromkeys(d for s, d in statuses if s == kind))
            text = "; ".join(details[:2]) + ("; ..." if len(details) > 2 else "")
            count = "" if kinds[kind] == len(statuses) else "%d of %d " % (kinds[kind], len(statuses))
            parts.append("%s%s (%s)" % (count, kind, text))
    if kinds["same"]:
        parts.append("%d same" % kinds["same"])
    return ", ".join(parts)


def reference_row(rows):
    for r in rows:
        if r.get("toolkit") == REFERENCE:
            return r
    raise Bad("the record has no %s row" % REFERENCE)


def table(path):
    header, kl, sl, rows = read_record(path)
    kernels, seqs = kl["kernels"], sl["seqs"]
    ref = reference_row(rows)
    by_name = {i.name: i for i in isa.catalogue()}
    cols = [c for c, _ in CLASSES]
    out = ["| toolkit | version | PTX .version | kernels assembled | " + " | ".join(cols) +
           " | same TC sequence, other code |",
           "|---" * (len(cols) + 5) + "|"]
    for row in rows:
        if "missing" in row:
            out.append("| %s | %s | | | %s | |" % (row["toolkit"], row["missing"], " | ".join("-" for _ in cols)))
            continue
        st = instr_status(kernels, seqs, ref, row)
        ok = sum(1 for v in row["tc"] if not isinstance(v, str))
        other = sum(1 for k in range(len(kernels)) if not isinstance(row["tc"][k], str)
                    and not isinstance(ref["tc"][k], str) and seqs[row["tc"][k]] == seqs[ref["tc"][k]]
                    and row["ops"][k] != ref["ops"][k])
        cells = []
        for _, test in CLASSES:
            cells.append("reference" if row is ref else
                         cell([st[n] for n in sorted(st) if test(by_name[n])]))
        out.append("| %s | %s | %s | %d of %d | %s | %d |" % (
            row["toolkit"], row.get("version", ""), ", ".join(row.get("ptx_lowered") or []) or "as written",
            ok, len(kernels), " | ".join(cells), other))
    foot = ("Generated by `tools/toolkit-matrix.py table` from `reports/baselines/toolkit-matrix.jsonl.xz` "
            "(%d kernels of %d instructions, %d distinct tensor-core sequences; PTX from %s; SASS by "
            "%s)." % (len(kernels), len(by_name), len(seqs), header["front_end"], header["disassembler"]))
    return "\n".join(out) + "\n\n" + foot + "\n"


def cmd_table(a):
    sys.stdout.write(table(a.record))
    return 0


BEGIN, END = "<!-- toolkit-matrix table: begin -->", "<!-- toolkit-matrix table: end -->"


def doc_table(doc):
    try:
        text = open(doc).read()
    except OSError as e:
        raise Bad("%s: %s" % (doc, e))
    if BEGIN not in text or END not in text:
        raise Bad("%s has no %s ... %s markers" % (doc, BEGIN, END))
    return text, text.index(BEGIN) + len(BEGIN), text.index(END)


def cmd_write_doc(a):
    text, i, j = doc_table(a.doc)
    with open(a.doc, "w") as f:
        f.write(text[:i] + "\n" + table(a.record) + text[j:])
    return 0


def problems(path, doc):
    """What is wrong with the record and the doc's table; [] when nothing."""
    header, kl, sl, rows = read_record(path)
    bad = []
    for key in ("date", "front_end", "ptxas_args", "disassembler", "reference", "files"):
        if key not in header:
            bad.append("header lacks %s" % key)
    kernels, seqs = kl.get("kernels", []), sl.get("seqs", [])
    idents, cat = catalogue_idents(), {i.name: i for i in isa.catalogue()}
    for name, instr in kernels:
        if instr_of(name, idents) != instr:
            bad.append("kernel %s is not of %s" % (name, instr))
    missing = set(cat) - {i for _, i in kernels}
    if missing:
        bad.append("%d catalogue instructions have no kernel (%s ...)" % (len(missing), sorted(missing)[0]))
    seen = set()
    for row in rows:
        t = row.get("toolkit")
        if t in seen:
            bad.append("toolkit %s twice" % t)
        seen.add(t)
        if "missing" in row:
            continue
        if re.match(r"^\d+\.\d+$", t) and not row.get("version", "").startswith(t + "."):
            bad.append("toolkit %s has version %s" % (t, row.get("version")))
        if len(row.get("tc", [])) != len(kernels) or len(row.get("ops", [])) != len(kernels):
            bad.append("toolkit %s: %d/%d entries for %d kernels" % (t, len(row.get("tc", [])),
                                                                 len(row.get("ops", [])), len(kernels)))
            continue
        for v in row["tc"]:
            if not isinstance(v, str) and not (isinstance(v, int) and 0 <= v < len(seqs)):
                bad.append("toolkit %s: sequence index %r out of range" % (t, v))
                break
    want = {t for t, _ in TOOLKITS}
    if not want <= seen:
        bad.append("toolkits absent: %s" % ", ".join(sorted(want - seen)))
    try:
        ref = reference_row(rows)
    except Bad as e:
        return bad + [str(e)]
    # the reference assembles every kernel, and each holds the SASS opcode its
    # catalogue row names (probes/isa/sm90a.def), as the build's own check wants
    for k, (name, instr) in enumerate(kernels):
        v = ref["tc"][k]
        if isinstance(v, str):
            bad.append("%s: %s not assembled by the reference (%s)" % (REFERENCE, name, v))
        elif instr in cat and not any(o.split(".")[0] == cat[instr].sass for o in seqs[v].split()):
            bad.append("%s: %s holds no %s (%s)" % (REFERENCE, name, cat[instr].sass, seqs[v][:60]))
    if doc:
        text, i, j = doc_table(doc)
        if text[i:j].strip() != table(path).strip():
            bad.append("%s: the table differs from `tools/toolkit-matrix.py table` (run "
                       "tools/toolkit-matrix.py write-doc)" % doc)
    return bad


def cmd_check(a):
    bad = problems(a.record, a.doc)
    for b in bad[:20]:
        print("toolkit-matrix check: " + b)
    if bad:
        return 1
    _, kl, sl, rows = read_record(a.record)
    print("toolkit-matrix check: %d kernels, %d sequences, %d toolkit rows; the doc table is current"
          % (len(kl["kernels"]), len(sl["seqs"]), len(rows)))
    return 0


def cmd_differs(a):
    _, kl, sl, rows = read_record(a.record)
    ref = reference_row(rows)
    for row in rows:
        if "missing" in row or row is ref:
            continue
        for instr, (s, d) in sorted(instr_status(kl["kernels"], sl["seqs"], ref, row).items()):
            if s == "differs":
                print("%s\t%s\t%s\t%s" % (row["toolkit"], row["version"], instr, d))
    return 0


# ---- your own toolkit, rows made elsewhere ------------------------------------

def cmd_regress(a):
    global DISASM
    if not os.access(a.ptxas, os.X_OK):
        raise Bad("%s is not an executable ptxas" % a.ptxas)
    DISASM = find_nvdisasm(download=False)
    header, kl, sl, rows = read_record(a.record)
    ref = reference_row(rows)
    global KEEP
    KEEP = None if header.get("kernels", "all") == "all" else header["kernels"]   # the record's kernels only
    files = a.files.split(",") if a.files else FILES
    nvcc = a.nvcc or shutil.which("nvcc") or os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc")
    _, ptx = make_ptx(files, nvcc)
    got, lowered = run_ptxas(a.ptxas, ptx)
    seqs = list(sl["seqs"])
    row = row_from("yours", tool_version(a.ptxas), "", "ptxas " + tool_version(a.ptxas), got, lowered,
                   [k for k, _ in kl["kernels"]], seqs, 0)
    mine = [k for k, (name, _) in enumerate(kl["kernels"]) if name in got]
    if not mine:
        raise Bad("none of the record's kernels is in %s" % ", ".join(files))
    sub = [kl["kernels"][k] for k in mine]
    pick = lambda r: dict(r, tc=[r["tc"][k] for k in mine], ops=[r["ops"][k] for k in mine])
    st = instr_status(sub, seqs, pick(ref), pick(row))
    by_name = {i.name: i for i in isa.catalogue()}
    print("ptxas %s against the record's %s (%s), %d kernels of %d instructions; PTX %s"
          % (tool_version(a.ptxas), REFERENCE, ref["version"], len(mine), len(st), ", ".join(lowered) or "as written"))
    for col, test in CLASSES:
        c = [st[n] for n in sorted(st) if test(by_name[n])]
        if c:
            print("  %-10s %s" % (col, cell(c)))
    diff = {n: s for n, s in st.items() if s[0] != "same"}
    for n, (s, d) in sorted(diff.items())[:a.list]:
        print("  %s: %s (%s)" % (n, s, d))
    return 1 if diff else 0


def cmd_ingest(a):
    global DISASM
    DISASM = find_nvdisasm(download=True)   # where the toolkit lacks one: the PyPI wheel, into the cache
    header, kl, sl, rows = read_record(a.record)
    try:
        version = open(os.path.join(a.dir, "version.txt")).read().strip()
    except OSError as e:
        raise Bad("%s: %s" % (a.dir, e))
    cubins = sorted(f for f in os.listdir(a.dir) if f.endswith(".cubin"))
    if not cubins:
        raise Bad("%s has no .cubin" % a.dir)
    got = {}
    for f in cubins:
        got.update(disassemble(DISASM, os.path.join(a.dir, f)))
    for line in open(os.path.join(a.dir, "failed.txt")).read().splitlines() if os.path.exists(
            os.path.join(a.dir, "failed.txt")) else []:
        k, _, why = line.partition("\t")
        got.setdefault(k, why or "not compiled")
    seqs = sl["seqs"]
    row = row_from(a.name, version, "", version, got, [], [k for k, _ in kl["kernels"]], seqs, None)
    rows = [r for r in rows if r["toolkit"] != a.name] + [row]
    write_record(a.record, header, kl, {"seqs": seqs}, rows)
    print("ingested %s (%s): %d cubins" % (a.name, version, len(cubins)))
    return 0


def jit_cubin(cuda, ptx_text):
    """The driver's JIT of one PTX text (cuLink*, as cuModuleLoadData would
    compile it for this GPU): (cubin bytes, None) or (None, the JIT's error log)."""
    import ctypes as C
    log = C.create_string_buffer(1 << 16)
    opts = (C.c_int * 2)(5, 6)   # CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
    vals = (C.c_void_p * 2)(C.cast(log, C.c_void_p), C.c_void_p(len(log)))
    state = C.c_void_p()
    if cuda.cuLinkCreate_v2(2, opts, vals, C.byref(state)):
        return None, "cuLinkCreate failed"
    try:
        data = ptx_text.encode() + b"\0"
        if cuda.cuLinkAddData_v2(state, 1, data, C.c_size_t(len(data)), b"kernels.ptx", 0, None, None):  # CU_JIT_INPUT_PTX
            return None, log.value.decode(errors="replace")
        out, size = C.c_void_p(), C.c_size_t()
        if cuda.cuLinkComplete(state, C.byref(out), C.byref(size)):
            return None, log.value.decode(errors="replace")
        return C.string_at(out, size.value), None
    finally:
        cuda.cuLinkDestroy(state)


def cmd_jit(a):
    """On a GPU: the catalogue's PTX (this machine's nvcc) compiled by the
    driver's JIT into DIR/<file>.cubin, DIR/version.txt, DIR/failed.txt, for ingest."""
    import ctypes as C
    global KEEP
    sel = read_record(a.record)[0].get("kernels", "all")
    KEEP = None if sel == "all" else sel
    try:
        cuda = C.CDLL("libcuda.so.1")
    except OSError as e:
        raise Bad("no CUDA driver here: %s" % e)
    dev, ctx, drv = C.c_int(), C.c_void_p(), C.c_int()
    if cuda.cuInit(0) or cuda.cuDeviceGet(C.byref(dev), 0) or cuda.cuDevicePrimaryCtxRetain(C.byref(ctx), dev):
        raise Bad("no CUDA device: cuInit/cuDeviceGet/cuDevicePrimaryCtxRetain failed")
    cuda.cuDriverGetVersion(C.byref(drv))
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    files = a.files.split(",") if a.files else FILES
    nvcc_ver, ptx = make_ptx(files, nvcc)
    os.makedirs(a.dir, exist_ok=True)
    failed = []
    # first, so that a run cut by a timeout still leaves an ingestible folder
    smi = sh(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]).stdout.strip()
    with open(os.path.join(a.dir, "version.txt"), "w") as o:
        o.write("driver JIT %s (CUDA driver API %d.%d), PTX of nvcc %s\n" % (
            smi.split(",")[-1].strip() if smi else "?", drv.value // 1000, drv.value % 1000 // 10, nvcc_ver))

    def one(item):
        cuda.cuCtxSetCurrent(ctx)
        f, p = item
        t0 = time.time()
        lines = select(open(p).read().split("\n"), KEEP)
        cubin, err = jit_cubin(cuda, "\n".join(lines))
        if cubin is None:
            failed.extend("%s\tdriver JIT refused the file: %s" % (k, re.sub(r"\s+", " ", err)[:160])
                          for k, _, _ in entries(lines))
        else:
            with open(os.path.join(a.dir, f + ".cubin"), "wb") as o:
                o.write(cubin)
        print("jit %s: %.0f s%s" % (f, time.time() - t0, "" if cubin else " FAILED"), flush=True)

    with ThreadPoolExecutor(max_workers=jobs()) as ex:
        list(ex.map(one, sorted(ptx.items())))
    with open(os.path.join(a.dir, "failed.txt"), "w") as o:
        o.write("".join(l + "\n" for l in failed))
    return 0


def cmd_drop(a):
    """For tools/ptxas-other.sh (TC_PTXAS_DROP=1): IN's PTX without the kernels
    PTXAS refuses (.version lowered as it asks) into OUT, each dropped kernel
    on stdout with the reason (all of them may go: a PTX without kernels assembles)."""
    global KEEP
    KEEP = None
    if not os.access(a.ptxas, os.X_OK) or not os.path.isfile(a.input):
        raise Bad("drop: %s is not an executable ptxas or %s not a file" % (a.ptxas, a.input))
    w = tempfile.mkdtemp()
    try:
        cubin, low, dropped, err = assemble(a.ptxas, a.input, w)
        if err:
            raise Bad("%s: %s refuses more than kernels: %s" % (a.input, a.ptxas, err))
        shutil.copyfile(os.path.join(w, "in.ptx"), a.output)   # every kernel refused: the PTX without any
    finally:
        shutil.rmtree(w)
    for k, why in sorted(dropped.items()):
        print("%s dropped: %s" % (k, why))
    return 0


def release_ptxas(toolkit):
    """(version, cached ptxas path) of one release of TOOLKITS."""
    for minor, package in TOOLKITS:
        if minor == toolkit:
            version, ptxas = fetch_ptxas(minor, package)
            if version is None:
                raise Bad("no %s==%s.* on PyPI" % (package, minor))
            return version, ptxas
    raise Bad("unknown toolkit %s (one of %s)" % (toolkit, ", ".join(t for t, _ in TOOLKITS)))


def cmd_ptxas(a):
    print(release_ptxas(a.toolkit)[1])
    return 0


def cmd_fetch(a):
    """DIR/ptxas-VERSION.xz: one release's ptxas for a device task to carry
    (tools/device/toolkit-audit.sh, tools/device/ptxas.sh)."""
    version, ptxas = release_ptxas(a.toolkit)
    os.makedirs(a.dir, exist_ok=True)
    out = os.path.join(a.dir, "ptxas-%s.xz" % version)
    with open(ptxas, "rb") as src, lzma.open(out, "wb", preset=9) as dst:
        shutil.copyfileobj(src, dst)
    print("%s: %d bytes" % (out, os.path.getsize(out)))
    return 0


def main(argv):
    p = argparse.ArgumentParser(prog="toolkit-matrix.py", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--toolkits")
    r.add_argument("--files")
    r.add_argument("--out", default=RECORD)
    r.add_argument("--keep", action="store_true", help="keep the record's other rows")
    r.add_argument("--keep-ptxas", action="store_true", help="keep each ptxas in the cache")
    r.add_argument("--kernels", help="a regex: only the kernels it matches (default all)")
    g = sub.add_parser("regress")
    g.add_argument("--ptxas", required=True)
    g.add_argument("--nvcc")
    g.add_argument("--files")
    g.add_argument("--list", type=int, default=20)
    g.add_argument("--record", default=RECORD)
    j = sub.add_parser("jit")
    j.add_argument("dir")
    j.add_argument("--files")
    j.add_argument("--record", default=RECORD)
    f = sub.add_parser("fetch")
    f.add_argument("toolkit")
    f.add_argument("dir")
    x = sub.add_parser("ptxas")
    x.add_argument("toolkit")
    d = sub.add_parser("drop")
    d.add_argument("--ptxas", required=True)
    d.add_argument("input")
    d.add_argument("output")
    i = sub.add_parser("ingest")
    i.add_argument("name")
    i.add_argument("dir")
    i.add_argument("--record", default=RECORD)
    for name in ("table", "check", "differs", "write-doc"):
        s = sub.add_parser(name)
        s.add_argument("--record", default=RECORD)
        if name in ("check", "write-doc"):
            s.add_argument("--doc", default=DOC)
    a = p.parse_args(argv)
    fn = {"run": cmd_run, "regress": cmd_regress, "ingest": cmd_ingest, "table": cmd_table, "check": cmd_check,
          "differs": cmd_differs, "write-doc": cmd_write_doc, "jit": cmd_jit,
          "drop": cmd_drop, "fetch": cmd_fetch, "ptxas": cmd_ptxas}[a.cmd]
    try:
        return fn(a)
    except Bad as e:
        sys.stderr.write("toolkit-matrix: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
