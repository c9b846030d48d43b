#!/usr/bin/env python3
"""km_blackwell: the Khattak-Mikaitis models of two Blackwell GPUs against
tcscope's third-party profiles of them, field by field (issue #30, item 3).

MATLAB-tensor-core (github.com/north-numerical-computing/MATLAB-tensor-core,
BSD 2-Clause; read by tools/km_params.py from a checkout given with --km,
nothing copied) has B200TC.m and RTXPRO6000TC.m: parameters for the
warp-level formats (FP8, f16, bf16, tf32; no block-scaled form). This
compares them with
  - oracle/profiles/b200.profile's sections fitted on the KM B200 rows (the
    audit; a field the rows could not decide is named in its [about]
    `undecided` lines): does the KM model state the value the rows chose,
    and what does it state where the rows could not decide?
  - oracle/profiles/rtx5090.profile's warp-level mma sections (from MMA-Sim's
    "RTX Blackwell", tools/mmasim_blackwell.py): an RTX PRO 6000 is the
    same sm_120 chip family (GB202) as an RTX 5090; do the two third-party
    models agree?
Writes tools/data/km-blackwell-params.md and prints it. Stdlib only:

  git clone https://github.com/north-numerical-computing/MATLAB-tensor-core /tmp/km
  python3 tools/km_blackwell.py --km /tmp/km/models
"""
import argparse
import hashlib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import km_params  # noqa: E402
from profile_text import load_about, load_profile  # noqa: E402

FIELDS = ["block", "c_mode", "align_ref", "align_exp", "align_bits", "align_round", "acc", "align_floor",
          "a_convert", "b_convert", "a_ftz", "b_ftz", "c_ftz", "out_ftz"]


def same(field, ours, theirs, k):
    if field == "block":
        return min(int(ours), k) == int(theirs)
    return str(ours).lower() == str(theirs).lower()


def instr_formats(name):
    """(a, b, d, k) of a warp-level name: mma.m16n8k32.f32.e4m3.e4m3.f32, wmma.m16n16k8.f32.tf32.tf32.f32."""
    p = name.split(".")
    return p[3], p[4], p[2], int(re.search(r"k(\d+)", p[1]).group(1))


def compare(km_dir, gpu, prof, undecided, names):
    rows = []
    for name in names:
        a, b, d, k = instr_formats(name)
        try:
            if a != b:
                raise km_params.KMError("%sTC takes one input format for A and B" % gpu)
            stated = km_params.km_fields(km_dir, gpu, a, d, k)
        except km_params.KMError as e:
            rows.append((name, "-", "not modelled: %s" % e, "", ""))
            continue
        for field in FIELDS:
            if field not in stated:
                continue
            val, why = stated[field]
            ours = prof[name].get(field)
            if field in undecided.get(name, ()):
                verdict = "rows undecided: KM states %s" % val
            else:
                verdict = "agree" if same(field, ours, val, k) else "**disagree**"
            rows.append((name, field, verdict, ours, "%s (%s)" % (val, why)))
    return rows


def table(title, rows, ours_label):
    out = ["## %s" % title, "", "| instruction | field | verdict | %s | KM model (where read) |" % ours_label,
           "|---|---|---|---|---|"]
    out += ["| `%s` | %s | %s | %s | %s |" % r for r in rows]
    n = {v: sum(1 for r in rows if r[2].startswith(v)) for v in ("agree", "**disagree", "rows undecided", "not modelled")}
    out += ["", "agree %d, disagree %d, rows undecided %d, not modelled %d" % (
        n["agree"], n["**disagree"], n["rows undecided"], n["not modelled"]), ""]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--km", required=True, help="MATLAB-tensor-core's models/ folder")
    ap.add_argument("--out", default="tools/data/km-blackwell-params.md")
    args = ap.parse_args()
    b200 = load_profile("oracle/profiles/b200.profile")
    # The audit's [about] values are cut at 255 bytes: a cut line's last item is a prefix of a field.
    undecided = {}
    for k, v in load_about("oracle/profiles/b200.profile"):
        if k.startswith("undecided "):
            items = [x.strip() for x in v.split(",")]
            if len(v) >= 250:
                items[-1:] = [f for f in FIELDS + ["dropped_nan", "align_floor"] if f.startswith(items[-1])]
            undecided[k.split(" ", 1)[1]] = set(items)
    km_fit = [n for n in b200 if n.startswith(("mma.m", "wmma.")) and ".kind::" not in n]
    rtx = load_profile("oracle/profiles/rtx5090.profile")
    rtx_sync = [n for n in rtx if n.startswith("mma.m") and ".kind::" not in n]
    out = ["# Khattak-Mikaitis Blackwell models against tcscope's third-party profiles", "",
           "Written by `tools/km_blackwell.py --km MATLAB-tensor-core/models` (BSD 2-Clause models, read, not",
           "copied). Third-party against third-party: nothing here was measured by tcscope. A field the KM",
           "model has no parameter for is left out; \"rows undecided\": the KM B200 rows the audit fitted",
           "could not decide the field (the profile's value is then only the fit's first choice), so the",
           "model's statement is the only word on it.", "",
           "Model files read (sha256): " + ", ".join(
               "`%s` %s" % (m, hashlib.sha256(open(os.path.join(args.km, m), "rb").read()).hexdigest()[:16])
               for m in ("B200TC.m", "RTXPRO6000TC.m", "tools/GEMM.m")), ""]
    out += table("B200 (B200TC.m) against b200.profile's fit of the KM B200 rows",
                 compare(args.km, "B200", b200, undecided, km_fit), "b200.profile")
    out += table("RTX PRO 6000 (RTXPRO6000TC.m) against rtx5090.profile (MMA-Sim's RTX Blackwell)",
                 compare(args.km, "RTXPRO6000", rtx, {}, rtx_sync), "rtx5090.profile")
    text = "\n".join(out)
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
