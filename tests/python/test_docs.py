"""docs/python.md's example runs as written: its Python blocks, in order, in a directory holding the
casita trace and its report as traces.waitscope (and a copy as the second run). A text block right
after a Python block shows lines that block prints."""
import contextlib
import io
import os
import re
import shutil

import matplotlib

from conftest import SHARED_TRACES, SOURCE

matplotlib.use("Agg")

DOC = os.path.join(SOURCE, "docs", "python.md")


def blocks():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    # (code, the text block that follows it or None)
    found = re.findall(r"```python\n(.*?)```\n(?:```text\n(.*?)```)?", text, re.S)
    return [(code, shown or None) for code, shown in found]


def test_the_example_runs(shared_reports, tmp_path, monkeypatch):
    work = tmp_path / "example"
    shutil.copytree(os.path.join(SHARED_TRACES, "casita_4_mpi_ls_barr"), work)
    shutil.copyfile(shared_reports["casita_4_mpi_ls_barr"], work / "traces.waitscope")
    shutil.copyfile(shared_reports["casita_4_mpi_ls_barr"], work / "run2.waitscope")
    monkeypatch.chdir(work)
    found = blocks()
    assert len(found) >= 8
    namespace = {}
    for number, (code, shown) in enumerate(found, 1):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{DOC} block {number}", "exec"), namespace)
        printed = out.getvalue().splitlines()
        for line in (shown or "").splitlines():
            if line != "...":
                assert line in printed, f"block {number} does not print {line!r}:\n{out.getvalue()}"
    assert os.path.getsize(work / "late-sender-by-rank.png") > 0 and os.path.getsize(work / "timeline.png") > 0


def test_the_user_guide_links_it():
    with open(os.path.join(SOURCE, "docs", "user-guide.md"), encoding="utf-8") as f:
        assert "](python.md)" in f.read()
