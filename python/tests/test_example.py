"""docs/PYTHON.md's worked example, run as written (the code block under "Worked
example"): it prints a leaderboard in the true order of its simulated models (by
construction, strengths 0, 40, ..., 360) and writes the plot."""
import contextlib
import io
import os
import re

import pytest

from conftest import REPO


def test_the_documented_example_runs(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib", reason="the example plots with matplotlib")
    text = open(os.path.join(REPO, "docs", "PYTHON.md")).read()
    section = text[text.index("## Worked example"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/PYTHON.md", "exec"), {})
    agents = re.findall(r"model-\d", out.getvalue())
    assert agents == ["model-%d" % i for i in range(9, -1, -1)]
    assert os.path.getsize(tmp_path / "python-example.png") > 1000
