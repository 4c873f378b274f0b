"""Every report of a shared Score-P trace read with the package equals the command line's view of
it: every metric's total (`print --json`) and every CSV row (`csv --by callpath|location|both`)."""
import os

import pytest

import analyze_shared_traces
import waitscope
from cli_compare import compare_with_cli
from conftest import MUST_ANALYZE, SHARED_TRACES

NAMES = [analyze_shared_traces.report_name(SHARED_TRACES, a)[:-len(".waitscope")]
         for a in analyze_shared_traces.anchors(SHARED_TRACES)]


def test_the_shared_traces_are_there():
    assert set(MUST_ANALYZE) <= set(NAMES), f"shared traces missing in {SHARED_TRACES}"


@pytest.mark.parametrize("name", NAMES)
def test_values_equal_the_command_line(name, shared_reports, tool):
    if name not in shared_reports:
        pytest.skip(f"waitscope-analyze refuses {name}")
    with waitscope.open(shared_reports[name]) as report:
        assert compare_with_cli(report, tool) > 0


@pytest.mark.parametrize("name", MUST_ANALYZE)
def test_instances_and_critical_path_are_the_reports(name, shared_reports):
    """Ids in range, times ordered, and the critical path's segments in order of start."""
    with waitscope.open(shared_reports[name]) as report:
        instances = report.instances()
        # One process cannot wait for another: a one-rank trace has no wait-state instances.
        processes = (report.locations["kind"] == "process").sum()
        assert (len(instances) > 0) == (processes > 1)
        assert (instances["end"] >= instances["start"]).all()
        assert instances["location"].between(0, len(report.locations) - 1).all()
        assert set(instances["pattern"].unique()) <= set(report.metrics["unique_name"])
        path = report.critical_path()
        assert len(path) > 0 and path["start"].is_monotonic_increasing
        assert os.path.getsize(report.path) > 0
