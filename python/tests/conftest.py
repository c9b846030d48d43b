"""Shared by the tests: the tcscope binary the answers are compared with.

The package under test is the installed one (pip install ./python); the
binary is the repository's build/tcscope (or TCSCOPE_BIN), built by make,
whose answers the package must reproduce bit for bit."""
import json
import os
import subprocess
from pathlib import Path
from typing import List

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """Runs tcscope with arguments (and stdin); its stdout's JSON objects
    (parse=False: its stdout as text)."""
    binary = Path(os.environ.get("TCSCOPE_BIN", REPO / "build" / "tcscope"))
    if not binary.is_file():
        pytest.fail(f"{binary} not built (make build/tcscope): the tests compare with it")

    def run(args: List[str], stdin: str = "", parse: bool = True):
        r = subprocess.run([str(binary)] + args, input=stdin, capture_output=True, text=True)
        assert r.returncode == 0, f"tcscope {' '.join(args)}: exit {r.returncode}: {r.stderr}"
        if not parse:
            return r.stdout
        return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]

    return run
