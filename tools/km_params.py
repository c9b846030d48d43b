#!/usr/bin/env python3
"""km_params: the parameters of a Khattak-Mikaitis tensor-core model, read
from its MATLAB files (MATLAB-tensor-core, github.com/north-numerical-computing/
MATLAB-tensor-core, BSD 2-Clause; nothing of it is copied here), and what
they say in tcscope's field vocabulary (oracle/model_fields.h).

A model file (models/H100TC.m) sets `def_params.NAME = VALUE;` inside
`if ismember(informat, {...})` branches and calls GEMM (models/tools/GEMM.m),
which sets the input conversion (`def_inopts`) the same way; H200TC.m only
calls H100TC. This reads them with a small evaluator of exactly that subset
of MATLAB (if/elseif/else/end, switch/case, ismember, exist, ~, string,
number and cell values, calls of another model) for one pair of formats.
A condition it cannot evaluate skips its branch; an assignment of a
parameter inside such a branch is an error, never a guess. Stdlib only.

  python3 tools/km_params.py MODELS_DIR H100 fp16 fp32     # the raw parameters and the fields
"""
import os
import re
import sys


class KMError(Exception):
    pass


def _strip(line):
    """The statement without its comment (no '%' occurs inside the strings these files use)."""
    q = False
    for i, ch in enumerate(line):
        if ch == "'":
            q = not q
        elif ch == "%" and not q:
            return line[:i].strip()
    return line.strip()


def _value(s, env):
    s = s.strip().rstrip(";").strip()
    if re.fullmatch(r"-?\d+(\.\d+)?", s):
        return float(s) if "." in s else int(s)
    if re.fullmatch(r"'[^']*'", s):
        return s[1:-1]
    if s.startswith("{") and s.endswith("}"):
        return [x.strip()[1:-1].lower() for x in s[1:-1].replace("...", "").split(",") if x.strip()]
    if s in env:
        return env[s]
    raise KMError("value not understood: %r" % s)


def _cond(c, env):
    """True, False, or None (not decidable here)."""
    c = c.strip()
    while c.startswith("(") and c.endswith(")") and c.count("(") == c.count(")"):
        c = c[1:-1].strip()
    for op, short in (("||", True), ("&&", False)):
        if op in c:
            vs = [_cond(x, env) for x in c.split(op)]
            if short in vs:  # MATLAB's short circuit: one decisive part decides
                return short
            return None if None in vs else not short
    if c.startswith("~"):
        v = _cond(c[1:], env)
        return None if v is None else not v
    m = re.fullmatch(r"exist\('(\w+)',\s*'var'\)", c)
    if m:
        return m.group(1) in env
    m = re.fullmatch(r"isfield\((\w+),\s*'(\w+)'\)", c)
    if m and isinstance(env.get(m.group(1)), dict):
        return m.group(2) in env[m.group(1)]
    m = re.fullmatch(r"ismember\((?:lower\()?(\w+)\)?,\s*(\{[^}]*\}|\w+)\)", c)
    if m and m.group(1) in env:
        return str(env[m.group(1)]).lower() in _value(m.group(2), env)
    return None


def _read(path):
    try:
        with open(path, encoding="utf-8-sig") as f:
            return f.read()
    except OSError as e:
        raise KMError("%s: %s" % (path, e.strerror))


def _run(path, env, params, inopts, models_dir, depth=0, text=None):
    """Evaluates one file's statements (or text, named path) into params/inopts until a call of GEMM."""
    if depth > 4:
        raise KMError("models call each other too deep")
    text = _read(path) if text is None else text
    text = re.sub(r"\.\.\.\s*\n", " ", text)  # continuation lines
    stack = []  # per block: [this branch active, a branch already taken, parent active]
    active = True
    for ln, raw in enumerate(text.splitlines(), 1):
        st = _strip(raw)
        if not st:
            continue
        word = re.match(r"\w+", st)
        word = word.group(0) if word else ""
        if word in ("if", "switch", "for", "parfor", "while"):
            if word == "if":
                v = _cond(st[2:], env) if active else False
                stack.append([v is True, v is True, active, v is None])
            elif word == "switch":
                stack.append([False, False, active, False, st[6:].strip()])
            else:
                stack.append([active, True, active, False])
            active = stack[-1][0] and active
            continue
        if word in ("elseif", "case", "otherwise", "else"):
            if not stack:
                raise KMError("%s:%d: %s outside a block" % (path, ln, word))
            b = stack[-1]
            if word == "elseif":
                v = _cond(st[6:], env) if b[2] and not b[1] else False
            elif word == "case":
                sel = env.get(b[4]) if len(b) > 4 else None
                v = None if sel is None else str(sel).lower() in _value(st[4:], env)
            else:
                v = True
            b[3] = b[3] or v is None
            b[0] = bool(v) and not b[1] and b[2]
            b[1] = b[1] or b[0]
            active = b[0]
            continue
        if word == "end" and re.fullmatch(r"end\s*;?", st):
            if not stack:
                continue  # the end of a function
            active = stack.pop()[2]
            continue
        m = re.fullmatch(r"def_(params|inopts|outopts)\.(\w+)\s*=\s*(.+?);?", st)
        if m:
            undecided = any(b[3] and not b[1] for b in stack)
            if active:
                (params if m.group(1) == "params" else inopts.setdefault(m.group(1), {}))[m.group(2)] = _value(m.group(3), env)
            elif undecided and m.group(1) != "outopts":
                raise KMError("%s:%d: %s set under a condition this reader cannot decide" % (path, ln, m.group(2)))
            continue
        if not active:
            continue
        m = re.fullmatch(r"(\w+)\s*=\s*(\{.*\}|'[^']*')\s*;?", st)
        if m:
            env[m.group(1)] = _value(m.group(2), env)
            continue
        m = re.fullmatch(r"D\s*=\s*(\w+)\(.*\)\s*;?", st)
        if m:
            if m.group(1) == "GEMM":
                return
            _run(os.path.join(models_dir, m.group(1) + ".m"), env, params, inopts, models_dir, depth + 1)
            return
        if st.startswith("error("):
            raise KMError("the model refuses these formats (%s:%d)" % (path, ln))
    raise KMError("%s: no call of GEMM" % path)


def _gemm_inopts(models_dir, informat, outformat, params):
    """GEMM.m's input and output conversions (def_inopts, def_outopts) before it calls cpfloat."""
    path = os.path.join(models_dir, "tools", "GEMM.m")
    text = _read(path)
    cut = text.find("if exist('cpfloat'")
    if cut < 0:
        raise KMError("%s: the cpfloat call was not found" % path)
    inopts = {}
    body = text[text.index("\n") + 1:cut] + "\nD = GEMM(alpha);\n"
    env = {"informat": informat, "outformat": outformat, "params": params}
    _run(path, env, {}, inopts, models_dir, text=body)
    return inopts


def km_params(models_dir, gpu, informat, outformat):
    """(def_params, {'inopts': .., 'outopts': ..}) of model GPU for these formats."""
    env = {"informat": informat, "outformat": outformat, "alpha": 1}
    params, inopts = {}, {}
    _run(os.path.join(models_dir, gpu + "TC.m"), env, params, inopts, models_dir)
    return params, _gemm_inopts(models_dir, informat, env["outformat"], params), env["outformat"]


# cpfloat's round codes (cpfloat documentation: 1 nearest even, 2 up, 3 down, 4 toward zero)
CPFLOAT_ROUND = {1: "rne", 2: "ru", 3: "rd", 4: "rz"}
MBITS = {"fp32": 23, "fp16": 10}
EBITS = {"fp32": 8, "fp16": 5}
KM_FMT = {"f16": "fp16", "bf16": "bf16", "tf32": "tf32", "e4m3": "fp8-e4m3", "e5m2": "fp8-e5m2", "f32": "fp32"}


def km_fields(models_dir, gpu, a, d, k):
    """tcscope fields a KM model states for inputs a (both operands) and output d
    (tcscope format names), K = k: {field: (value, why)}, or raises KMError."""
    if a not in KM_FMT or d not in ("f32", "f16"):
        raise KMError("the model has no %s -> %s" % (a, d))
    p, opts, out = km_params(models_dir, gpu, KM_FMT[a], KM_FMT[d])
    need = ("fma", "neab", "frmode", "stkbitenabled", "global_alignment", "late_partial_sum",
            "odd_even_grouping", "pair_wise_sum", "denorm_prd", "min_exp_limit", "in_subnormals",
            "out_subnormals", "correct_rounding")
    miss = [n for n in need if n not in p]
    if miss:
        raise KMError("%sTC sets no %s" % (gpu, ", ".join(miss)))
    if p["correct_rounding"] or p["pair_wise_sum"] or p["odd_even_grouping"] or not p["global_alignment"]:
        raise KMError("not the global-alignment path")
    f = {}
    src = lambda *names: ", ".join("%s=%s" % (n, p[n]) for n in names)
    f["block"] = (min(p["fma"], k), src("fma"))
    f["step_split"] = ("contiguous", "GEMM.m: blocks of fma in K order")
    f["c_mode"] = ("last" if p["late_partial_sum"] else "first", src("late_partial_sum"))
    f["align_ref"] = ("all", src("global_alignment"))
    f["align_exp"] = ("nominal" if p["denorm_prd"] else "normalized", src("denorm_prd"))
    bits = 23 + p["neab"]
    f["align_bits"] = (bits, src("neab") + " (23+neab)")
    f["align_round"] = ("trunc" if not p["stkbitenabled"] else "sticky", src("stkbitenabled"))
    mb = MBITS[out] + (p["neab"] if p["neab"] < 0 else 0)
    accfmt = {("fp32", 23): "f32", ("fp16", 10): "f16"}.get((out, mb), "e%dm%d" % (EBITS[out], mb))
    f["acc"] = ("%s:%s" % (accfmt, p["frmode"]), src("frmode", "neab") + ", out " + out)
    f["align_floor"] = (p["min_exp_limit"] - bits, src("min_exp_limit") + " - (23+neab)")
    for w in ("a_ftz", "b_ftz"):
        f[w] = ("no" if p["in_subnormals"] else "yes", src("in_subnormals"))
    for w in ("c_ftz", "out_ftz"):
        f[w] = ("no" if p["out_subnormals"] else "yes", src("out_subnormals"))
    io = opts.get("inopts", {})
    if a == "tf32":
        r = CPFLOAT_ROUND.get(io.get("round"))
        if r is None:
            raise KMError("GEMM.m: tf32 input rounding %r unknown" % io.get("round"))
        cv = ("tf32:%s" % r, "GEMM.m def_inopts.round=%s (cpfloat)" % io.get("round"))
    else:
        cv = ("none", "GEMM.m: inputs rounded to their own format (exact)")
    f["a_convert"] = f["b_convert"] = cv
    return f


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: km_params.py MODELS_DIR GPU INFORMAT OUTFORMAT")
    try:
        print(km_params(*sys.argv[1:]))
    except KMError as e:
        print("km_params:", e, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
