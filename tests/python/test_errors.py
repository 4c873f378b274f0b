"""Files that are no readable report: one exception class each (all ReportError), one line naming the
file and saying what to do, as the command line says it; the file is never changed."""
import os
import shutil
import sqlite3
import subprocess
import threading

import pytest

import waitscope
from conftest import SHARED_TRACES


def open_error(path, kind):
    with pytest.raises(kind) as caught:
        waitscope.open(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    assert isinstance(caught.value, waitscope.ReportError) and caught.value.path == str(path)
    return message


def cli_error(tool, path):
    """The one line `waitscope-report print` writes for the file, without its prefix."""
    result = subprocess.run([tool, "print", str(path)], capture_output=True, text=True)
    assert result.returncode == 1
    return result.stderr.strip().removeprefix("waitscope-report: error: ")


def test_not_an_sqlite_database(tmp_path, tool):
    text = tmp_path / "notes.waitscope"
    text.write_text("not a report\n" * 20)
    assert open_error(text, waitscope.NotAReportError) == cli_error(tool, text) == \
        f"{text}: not a Waitscope report (not an SQLite database)"
    empty = tmp_path / "empty.waitscope"
    empty.write_bytes(b"")
    assert open_error(empty, waitscope.NotAReportError) == cli_error(tool, empty) == \
        f"{empty}: not a Waitscope report (the file is empty)"


def test_a_trace_is_not_a_report(tool):
    anchor = os.path.join(SHARED_TRACES, "scorep-rma", "fence", "traces.otf2")
    message = open_error(anchor, waitscope.NotAReportError)
    assert message == cli_error(tool, anchor)
    assert message.endswith("(an OTF2 trace); analyze it with waitscope-analyze first")


def test_another_sqlite_database(tmp_path, tool):
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    assert open_error(other, waitscope.NotAReportError) == cli_error(tool, other) == \
        f"{other}: not a Waitscope report (no table meta)"


def test_a_newer_format_version(small_report, copy_of, tool):
    path = copy_of(small_report)
    with sqlite3.connect(path) as con:
        con.execute("UPDATE meta SET value = '3' WHERE key = 'format_version'")
    con.close()
    message = open_error(path, waitscope.UnsupportedVersionError)
    assert message.startswith(f"{path}: report format version 3 is not supported")
    assert "open it with the Waitscope that wrote it, or analyze the trace again" in message


def test_an_incomplete_report(small_report, copy_of, tool):
    path = copy_of(small_report)
    with sqlite3.connect(path) as con:
        con.execute("DELETE FROM meta WHERE key = 'complete'")
    con.close()
    assert open_error(path, waitscope.IncompleteReportError) == cli_error(tool, path) == \
        f"{path}: report is incomplete (the analyzer was interrupted?); run waitscope-analyze again"
    # A writer's temporary file is incomplete whatever it holds.
    temporary = copy_of(small_report, "r.waitscope.tmp-4242-0")
    assert open_error(temporary, waitscope.IncompleteReportError) == cli_error(tool, temporary)


def test_a_truncated_report(shared_reports, copy_of, tool):
    for name, report in shared_reports.items():
        path = copy_of(report, f"{name}.waitscope")
        size = os.path.getsize(path)
        for keep in (size // 2, size - 1, 4096, 200):
            with open(path, "r+b") as f:
                f.truncate(keep)
            message = open_error(path, waitscope.DamagedReportError)
            assert message.endswith("; run waitscope-analyze again")
            # The tools refuse it too (in their own words: SQLite's, or the broken rule).
            assert cli_error(tool, path).startswith(f"{path}: ")


def test_broken_values(small_report, copy_of):
    path = copy_of(small_report)
    with sqlite3.connect(path) as con:
        con.execute("UPDATE severities SET vals = x'00' WHERE rowid = 1")
    con.close()
    assert "vals does not hold one value per location" in open_error(path, waitscope.DamagedReportError)
    path = copy_of(small_report, "chunks.waitscope")
    with sqlite3.connect(path) as con:
        con.execute("UPDATE instances SET data = substr(data, 1, 40) WHERE chunk = 1")
    con.close()
    with waitscope.open(path) as report:  # instances are read when asked for
        assert len(report.instances(limit=5)) == 5
        with pytest.raises(waitscope.DamagedReportError, match="instances row 1: data does not hold whole records"):
            report.instances()


def test_what_cannot_be_opened(tmp_path):
    missing = tmp_path / "missing.waitscope"
    assert open_error(missing, waitscope.ReportError) == f"{missing}: cannot open: no such file"
    assert open_error(tmp_path, waitscope.ReportError) == f"{tmp_path}: cannot open: it is a directory"
    fifo = tmp_path / "fifo.waitscope"
    os.mkfifo(fifo)
    # SQLite would wait forever for a writer: the type is checked first.
    done = []
    thread = threading.Thread(target=lambda: done.append(open_error(fifo, waitscope.ReportError)), daemon=True)
    thread.start()
    thread.join(60)
    assert done == [f"{fifo}: cannot open: it is a FIFO (named pipe), not a file"]


def test_the_classes():
    for kind in (waitscope.NotAReportError, waitscope.IncompleteReportError, waitscope.UnsupportedVersionError,
                 waitscope.DamagedReportError):
        assert issubclass(kind, waitscope.ReportError)
    assert len({waitscope.NotAReportError, waitscope.IncompleteReportError, waitscope.UnsupportedVersionError,
                waitscope.DamagedReportError}) == 4


def test_a_report_in_a_read_only_directory(small_report, tmp_path):
    directory = tmp_path / "ro"
    directory.mkdir()
    shutil.copyfile(small_report, directory / "r.waitscope")
    os.chmod(directory, 0o555)
    try:
        with waitscope.open(directory / "r.waitscope") as report:
            assert report.totals()["comp"] == 6.0
        assert os.listdir(directory) == ["r.waitscope"]
    finally:
        os.chmod(directory, 0o755)
