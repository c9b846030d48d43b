"""profile_text: a profile's sections as Python dicts (oracle/profile.h syntax),
for the tools that compare third-party parameters with tcscope's profiles.
Stdlib only."""
import re
from collections import OrderedDict


def load_profile(path):
    """{instr: {field: text}} of a profile ([default] inherited)."""
    out, cur, default = OrderedDict(), None, {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            m = re.fullmatch(r"\[instr (.+)\]", line)
            if m:
                cur = out.setdefault(m.group(1), dict(default))
            elif line.startswith("["):
                cur = default if line == "[default]" else None
            elif cur is not None and "=" in line:
                k, v = (x.strip() for x in line.split("=", 1))
                cur[k] = v
    return out


def load_about(path):
    """[(key, value)] of every [about] section, in file order."""
    out, inside = [], False
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith("["):
                inside = s == "[about]"
            elif inside and "=" in s and not s.startswith("#"):
                k, v = (x.strip() for x in s.split("=", 1))
                out.append((k, v))
    return out
