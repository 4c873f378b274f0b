"""Fixtures of the Python package's tests: the built tools, the reports of the shared Score-P traces
(analyzed by the ctest fixture python_shared_reports, or here when run by hand), and a small report
built row by row whose values are known by construction."""
import os
import shutil
import sqlite3
import struct
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "python"))
sys.path.insert(0, HERE)

import analyze_shared_traces  # noqa: E402

SHARED_TRACES = os.path.join(os.environ.get("WAITSCOPE_SHARED_DIR", os.path.join(SOURCE, "..", "shared")), "traces")
TOOLS = os.environ.get("WAITSCOPE_BIN", os.path.join(SOURCE, "build", "analysis", "tools"))
# The traces the analyzer must take: all of them, the hybrid CUDA and Xeon Phi ones included.
MUST_ANALYZE = ("pipit_ping-pong-otf2", "casita_4_mpi_ls_barr", "scorep-rma-fence", "scorep-rma-gats",
                "scorep-rma-lock", "scorep-rma-misc", "casita_2_cuda_simple", "casita_1_xeonphi_jacobi_01")


@pytest.fixture(scope="session")
def tool():
    return os.path.join(TOOLS, "waitscope-report")


@pytest.fixture(scope="session")
def shared_reports(tmp_path_factory):
    """name -> report path of every shared trace the analyzer takes."""
    out = os.environ.get("WAITSCOPE_TEST_REPORTS")
    if not out or not os.path.exists(os.path.join(out, "refused.txt")):
        out = str(tmp_path_factory.mktemp("shared-reports"))
        analyze_shared_traces.analyze(SHARED_TRACES, TOOLS, out)
    reports = {name[:-len(".waitscope")]: os.path.join(out, name)
               for name in sorted(os.listdir(out)) if name.endswith(".waitscope")}
    for name in MUST_ANALYZE:
        assert name in reports, f"the analyzer made no report of {name} (in {out})"
    return reports


@pytest.fixture(scope="session")
def schema(shared_reports):
    """The CREATE statements of a report written by waitscope-analyze."""
    con = sqlite3.connect(next(iter(shared_reports.values())))
    try:
        return [sql for (sql,) in con.execute("SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
    finally:
        con.close()


NO_ID = 0xFFFFFFFF
# metrics: (unique name, display name, unit, parent)
METRICS = [("time", "Time", "sec", None), ("mpi", "MPI", "sec", 0), ("mpi_latesender", "Late Sender", "sec", 1),
           ("mpi_latesender_wo", "Messages in Wrong Order", "sec", 2), ("visits", "Visits", "occ", None),
           ("comp", "Computation", "sec", 0)]
REGIONS = ["main", "foo", "MPI_Recv", "compute,phase", "recurse"]
DEEP_LEVELS = 20  # call paths 4..23: main/recurse/.../recurse, deeper than `csv` writes whole
# (parent, region) of call paths 0..3, then the recursion.
CALL_PATHS = [(None, 0), (0, 1), (1, 2), (0, 3)] + [(0 if i == 0 else 3 + i, 4) for i in range(DEEP_LEVELS)]
LOCATIONS = 3
DEEPEST = 3 + DEEP_LEVELS
# (metric, call path, values per location), in file order.
SEVERITIES = [
    (5, 0, [1.0, 2.0, 3.0]),          # comp in main
    (4, 0, [1.0, 1.0, 1.0]),          # visits of main
    (2, 2, [0.5, 0.25, 0.0]),         # Late Sender in main/foo/MPI_Recv
    (3, 2, [0.125, 0.0, 0.0]),        # its wrong-order part
    (2, 3, [0.0, 0.0, 0.75]),         # Late Sender in "compute,phase" (a name with a comma)
    # Added one by one the 1.0 is lost (1e16 + 1 is 1e16); another order would keep it.
    (1, DEEPEST, [1e16, 1.0, -1e16]),
]
INSTANCES = 70000  # more than one chunk of 65536 records
SEGMENTS = [(0, 2, 0.0, 1.5), (2, 3, 1.5, 4.0), (1, DEEPEST, 4.0, 4.25)]


def instance_record(i):
    """Instance i: Late Sender (even) or its wrong-order part (odd), on location i % 3, from i to
    i + 0.5 s, caused by location (i + 1) % 3, or by none when i % 5 == 0."""
    return (2 if i % 2 == 0 else 3, i % 3, 2, NO_ID if i % 5 == 0 else (i + 1) % 3, float(i), i + 0.5)


def write_small_report(path, schema, meta=None, metrics=METRICS, severities=SEVERITIES):
    con = sqlite3.connect(path)
    with con:
        for sql in schema:
            con.execute(sql)
        rows = {"format_version": "1", "trace": "/data/run 1/traces.otf2", "waitscope_version": "0.1.0"}
        rows.update(meta or {})
        con.executemany("INSERT INTO meta VALUES (?, ?)", list(rows.items()))
        con.executemany("INSERT INTO metrics VALUES (?, ?, ?, ?, ?, ?)",
                        [(i, u, d, f"{d} (test)", unit, p) for i, (u, d, unit, p) in enumerate(metrics)])
        con.executemany("INSERT INTO regions VALUES (?, ?, ?, ?, ?, ?)",
                        [(i, n, "t.c" if n == "foo" else "", 10 * i, 10 * i + 5, "user") for i, n in enumerate(REGIONS)])
        con.executemany("INSERT INTO callpaths VALUES (?, ?, ?, ?, ?)",
                        [(i, p, r, "t.c" if i == 2 else "", 12 if i == 2 else 0) for i, (p, r) in enumerate(CALL_PATHS)])
        con.executemany("INSERT INTO system_nodes VALUES (?, ?, ?, ?)", [(0, "cluster", "machine", None),
                                                                         (1, "node7", "node", 0)])
        con.executemany("INSERT INTO locations VALUES (?, ?, ?, ?)",
                        [(i, f"MPI Rank {i}", i, 1) for i in range(LOCATIONS)])
        con.executemany("INSERT INTO severities VALUES (?, ?, ?)",
                        [(m, c, struct.pack(f"<{LOCATIONS}d", *v)) for m, c, v in severities])
        records = [struct.pack("<4I2d", *instance_record(i)) for i in range(INSTANCES)]
        con.executemany("INSERT INTO instances VALUES (?, ?)",
                        [(k, b"".join(records[k * 65536:(k + 1) * 65536])) for k in range((INSTANCES + 65535) // 65536)])
        con.execute("INSERT INTO critical_path VALUES (0, ?)", (b"".join(struct.pack("<2I2d", *s) for s in SEGMENTS),))
    with con:
        con.execute("INSERT INTO meta VALUES ('complete', '1')")
    con.close()


@pytest.fixture(scope="session")
def small_report(schema, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("small") / "small.waitscope")
    write_small_report(path, schema)
    return path


@pytest.fixture
def copy_of(tmp_path):
    """copy_of(report, name): a copy in this test's directory, to break or to keep a timeline index."""
    def copy(report, name="copy.waitscope"):
        target = tmp_path / name
        shutil.copyfile(report, target)
        return str(target)
    return copy


@pytest.fixture
def trace_copy(shared_reports, tmp_path):
    """The casita Late Sender trace and its report in a directory of their own (the command writes
    its index REPORT.timeline beside the report)."""
    source = os.path.join(SHARED_TRACES, "casita_4_mpi_ls_barr")
    shutil.copytree(source, tmp_path / "trace")
    report = tmp_path / "trace" / "casita.waitscope"
    shutil.copyfile(shared_reports["casita_4_mpi_ls_barr"], report)
    return str(tmp_path / "trace" / "traces.otf2"), str(report)
