"""The steps of a device task (tools/device-env.sh's device_step): each
line of R/times.txt (name, exit status, wall seconds) with, from the step's
log R/NAME.log, its last elements/s figure and "# stages:" line. Read by the
summaries of tools/device/model-gpu.sh and stages.sh."""
import os
import re


def read(R, name):
    """R/name's text, or "" when it is not there."""
    try:
        return open(os.path.join(R, name)).read()
    except OSError:
        return ""


def steps(R, exit_as=str):
    """{name: {exit, wall_s[, elements_per_s][, stages]}} in times.txt's order."""
    out = {}
    for line in read(R, "times.txt").splitlines():
        name, rc, wall = line.split()
        st = out[name] = {"exit": exit_as(rc), "wall_s": float(wall)}
        log = read(R, name + ".log")
        m = re.findall(r"\(([0-9.e+]+) elements/s\)", log)
        if m:
            st["elements_per_s"] = float(m[-1])
        s = [l for l in log.splitlines() if l.startswith("# stages:")]
        if s:
            st["stages"] = s[-1][2:]
    return out
