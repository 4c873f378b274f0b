"""The package on a report built row by row (conftest.py), whose values are known by construction."""
import hashlib
import os

import numpy as np
import pandas as pd
import pytest

import waitscope
from cli_compare import compare_with_cli
from conftest import (CALL_PATHS, DEEPEST, INSTANCES, LOCATIONS, METRICS, REGIONS, SEGMENTS, instance_record,
                      NO_ID)


@pytest.fixture
def report(small_report):
    with waitscope.open(small_report) as r:
        yield r


def test_tables(report):
    assert list(report.metrics["unique_name"]) == [m[0] for m in METRICS]
    assert report.metrics["parent"].tolist() == [pd.NA if p is None else p for _, _, _, p in METRICS]
    assert list(report.metrics["unit"]) == [m[2] for m in METRICS]
    assert report.call_paths.loc[2, "path"] == "main/foo/MPI_Recv"
    assert report.call_paths.loc[2, "file"] == "t.c" and report.call_paths.loc[2, "line"] == 12
    assert report.call_paths.loc[3, "path"] == "main/compute,phase"
    assert list(report.call_paths["region"]) == [REGIONS[r] for _, r in CALL_PATHS]
    assert list(report.locations["rank"]) == list(range(LOCATIONS))
    assert list(report.locations["node"]) == ["node7"] * LOCATIONS
    assert list(report.locations["thread"]) == [0] * LOCATIONS
    assert report.meta == {"format_version": "1", "trace": "/data/run 1/traces.otf2", "waitscope_version": "0.1.0"}


def test_deep_call_paths_are_labelled_as_csv_labels_them(report):
    # Call path 4 + k is main and k + 1 times recurse: k + 2 levels; deeper than 16 levels, the
    # first 4 and the last 11 regions around the number left out (docs/report-format.md).
    for k in range(DEEPEST - 3):
        levels = k + 2
        names = ["main"] + ["recurse"] * (levels - 1)
        expected = "/".join(names) if levels <= 16 else \
            "/".join(names[:4]) + f"/...({levels - 15} levels).../" + "/".join(names[-11:])
        assert report.call_paths.loc[4 + k, "path"] == expected


def test_totals_are_metric_inclusive(report):
    totals = report.totals()
    # comp 1 + 2 + 3; Late Sender 0.5 + 0.25 + 0.75 and its wrong-order part 0.125; the MPI row
    # 1e16 + 1 - 1e16 added in order is 0 (the 1 is lost, as in the tools).
    assert totals.to_dict() == {"time": 6.0 + 1.625, "mpi": 1.625, "mpi_latesender": 1.625,
                                "mpi_latesender_wo": 0.125, "visits": 3.0, "comp": 6.0}


def test_severities(report):
    exclusive = report.severities("mpi_latesender")
    assert list(exclusive["call_path"]) == [2, 2, 2, 3, 3, 3]
    assert list(exclusive["location"]) == [0, 1, 2] * 2
    assert list(exclusive["value"]) == [0.5, 0.25, 0.0, 0.0, 0.0, 0.75]
    inclusive = report.severities("mpi_latesender", inclusive=True)
    assert list(inclusive["value"]) == [0.625, 0.25, 0.0, 0.0, 0.0, 0.75]
    assert set(inclusive["metric"]) == {"mpi_latesender"}
    everything = report.severities()
    assert len(everything) == 6 * LOCATIONS
    assert everything.groupby("metric", observed=True).size().to_dict() == {
        "comp": 3, "visits": 3, "mpi_latesender": 6, "mpi_latesender_wo": 3, "mpi": 3}
    all_inclusive = report.severities(inclusive=True)
    # time covers main (comp), foo/MPI_Recv, compute,phase and the deepest call path.
    assert sorted(set(all_inclusive[all_inclusive["metric"] == "time"]["call_path"])) == [0, 2, 3, DEEPEST]
    with pytest.raises(KeyError, match="no metric 'nope'"):
        report.severities("nope")


def test_values_per_call_path_and_location(report):
    by_call_path = report.by_call_path("mpi_latesender")
    assert list(by_call_path["call_path"]) == list(range(len(CALL_PATHS)))  # depth first is index order here
    assert by_call_path.set_index("call_path")["value"].to_dict() == {
        i: {2: 0.875, 3: 0.75}.get(i, 0.0) for i in range(len(CALL_PATHS))}
    by_location = report.by_location("mpi")
    assert list(by_location["name"]) == [f"MPI Rank {i}" for i in range(LOCATIONS)]
    assert list(by_location["value"]) == [1e16, 1.25, -1e16]


def test_values_equal_the_command_line(report, tool):
    assert compare_with_cli(report, tool) > 0


def test_instances(report):
    everything = report.instances()
    assert len(everything) == INSTANCES
    expected = np.array([instance_record(i) for i in range(INSTANCES)],
                        dtype=[("m", "u4"), ("l", "u4"), ("c", "u4"), ("cause", "u4"), ("s", "f8"), ("e", "f8")])
    assert (everything["location"].to_numpy() == expected["l"]).all()
    assert (everything["start"].to_numpy() == expected["s"]).all()
    assert (everything["waiting_time"] == 0.5).all()
    assert list(everything["pattern"][:2]) == ["mpi_latesender", "mpi_latesender_wo"]
    causes = everything["cause"]
    assert causes.isna().sum() == INSTANCES // 5
    assert (causes[~causes.isna()].to_numpy() == expected["cause"][expected["cause"] != NO_ID]).all()


def test_instance_filters(report):
    # A pattern includes its sub-patterns.
    assert len(report.instances(pattern="mpi_latesender")) == INSTANCES
    assert len(report.instances(pattern="mpi_latesender_wo")) == INSTANCES // 2
    assert len(report.instances(pattern="comp")) == 0
    assert len(report.instances(location=1)) == len(range(1, INSTANCES, 3))
    assert len(report.instances(location=[0, 2])) == INSTANCES - len(range(1, INSTANCES, 3))
    # Instance i lasts from i to i + 0.5: those from 100 to 200 overlap [100, 200.25).
    window = report.instances(time_window=(100.0, 200.25))
    assert list(window["start"]) == [float(i) for i in range(100, 201)]
    both = report.instances(pattern="mpi_latesender_wo", location=1, time_window=(0, 30))
    assert list(both["start"]) == [float(i) for i in range(30) if i % 2 == 1 and i % 3 == 1]


def test_first_instances_without_reading_all(report):
    first = report.instances(limit=10)
    assert list(first["start"]) == [float(i) for i in range(10)]
    chunks = report.iter_instances()
    assert len(next(chunks)) == 65536
    assert len(next(chunks)) == INSTANCES - 65536
    assert next(chunks, None) is None
    assert len(report.instances(limit=0)) == 0


def test_critical_path(report):
    path = report.critical_path()
    assert [tuple(r) for r in path[["location", "call_path", "start", "end"]].itertuples(index=False)] == SEGMENTS
    assert list(path["duration"]) == [1.5, 2.5, 0.25]


def test_findings_and_html(report):
    top = report.findings()
    # Late Sender (with its wrong-order part) in foo/MPI_Recv, then in compute,phase, then the part.
    assert list(zip(top["pattern"], top["path"], top["seconds"])) == [
        ("mpi_latesender", "main/foo/MPI_Recv", 0.875), ("mpi_latesender", "main/compute,phase", 0.75),
        ("mpi_latesender_wo", "main/foo/MPI_Recv", 0.125)]
    assert list(top["share"]) == [0.875 / 7.625, 0.75 / 7.625, 0.125 / 7.625]
    page = report._repr_html_()
    assert "Late Sender [mpi_latesender]" in page and "main/foo/MPI_Recv" in page
    assert f"{100 * 0.875 / 7.625:.2f}%" in page
    assert page.index("main/foo/MPI_Recv") < page.index("main/compute,phase")


def test_the_file_is_not_modified(small_report):
    before = (hashlib.sha256(open(small_report, "rb").read()).hexdigest(), os.stat(small_report).st_mtime_ns)
    with waitscope.open(small_report) as r:
        r.instances()
        r.critical_path()
        r.severities(inclusive=True)
    after = (hashlib.sha256(open(small_report, "rb").read()).hexdigest(), os.stat(small_report).st_mtime_ns)
    assert before == after
    assert sorted(os.listdir(os.path.dirname(small_report))) == ["small.waitscope"]


def test_version():
    assert waitscope.__version__ == waitscope._version.__version__
