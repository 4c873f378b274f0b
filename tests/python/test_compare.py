"""Report.diff and Report.pop: on two runs built row by row, against values computed by hand from
the definitions (docs/comparing-runs.md, docs/pop.md), and on the shared traces' reports against
`waitscope-report diff A B --json` and `waitscope-report pop R... --json`."""
import itertools
import json
import math
import subprocess

import pytest

import waitscope
from cli_compare import compare_with_cli
from conftest import METRICS, SEVERITIES, write_small_report

# Run A: the small report without its 1e16 row. Run B: twice the computation, twice the
# wrong-order Late Sender, and a metric A lacks.
RUN_A = SEVERITIES[:5]
RUN_B = [(5, 0, [2.0, 4.0, 6.0]), (4, 0, [1.0, 1.0, 1.0]), (2, 2, [0.5, 0.25, 0.0]), (3, 2, [0.25, 0.0, 0.0]),
         (2, 3, [0.0, 0.0, 0.75]), (6, 0, [8.0, 8.0, 8.0])]
METRICS_B = METRICS + [("bytes", "Bytes", "bytes", None)]


@pytest.fixture
def runs(schema, tmp_path):
    a, b = str(tmp_path / "a.waitscope"), str(tmp_path / "b.waitscope")
    write_small_report(a, schema, severities=RUN_A)
    write_small_report(b, schema, metrics=METRICS_B, severities=RUN_B)
    with waitscope.open(a) as ra, waitscope.open(b) as rb:
        yield ra, rb


def test_diff_by_hand(runs):
    a, b = runs
    diff = a.diff(b)
    # Per location, A's time is comp + Late Sender: 1.625, 2.25, 3.75; B's 2.75, 4.25, 6.75.
    expected = [("time", 0, 7.625, 13.75), ("mpi", 1, 1.625, 1.75), ("mpi_latesender", 2, 1.625, 1.75),
                ("mpi_latesender_wo", 3, 0.125, 0.25), ("comp", 1, 6.0, 12.0), ("visits", 0, 3.0, 3.0),
                ("bytes", 0, 0.0, 24.0)]
    assert list(zip(diff["name"], diff["depth"], diff["a"], diff["b"])) == expected
    assert list(diff["difference"]) == [tb - ta for _, _, ta, tb in expected]
    assert list(diff["ratio"]) == [13.75 / 7.625, 1.75 / 1.625, 1.75 / 1.625, 2.0, 2.0, 1.0, math.inf]
    time = diff.iloc[0]
    assert (time.mean_a, time.min_a, time.max_a) == (7.625 / 3, 1.625, 3.75)
    assert (time.mean_b, time.min_b, time.max_b) == (13.75 / 3, 2.75, 6.75)
    assert list(diff.iloc[-1][["mean_a", "min_a", "max_a", "mean_b", "min_b", "max_b"]]) == [0, 0, 0, 8, 8, 8]
    assert diff.attrs["same_ranks"] and diff.attrs["a"] == a.path and diff.attrs["b"] == b.path


def test_pop_by_hand(runs):
    a, b = runs
    pop = a.pop(b, labels=["A", "B"])
    ra, rb = pop.iloc[0], pop.iloc[1]
    # A: time per process 1.625, 2.25, 3.75; comp 1, 2, 3; waiting (Late Sender) 0.625, 0.25, 0.75.
    assert (ra.label, ra.processes, ra.runtime, ra.useful_sum, ra.useful_mean, ra.useful_max) == \
        ("A", 3, 3.75, 6.0, 2.0, 3.0)
    assert (ra.waiting_time, ra.ideal_runtime) == (1.625, 3.0)
    assert (ra.load_balance, ra.communication_efficiency, ra.serialisation_efficiency, ra.transfer_efficiency) == \
        (2.0 / 3.0, 3.0 / 3.75, 1.0, 3.0 / 3.75)
    assert ra.parallel_efficiency == (2.0 / 3.0) * (3.0 / 3.75)
    assert all(math.isnan(ra[c]) for c in ("speedup", "scaling_efficiency", "computation_scaling",
                                           "global_efficiency"))
    # B: time 2.75, 4.25, 6.75; comp 2, 4, 6; waiting 0.75, 0.25, 0.75.
    assert (rb.runtime, rb.useful_sum, rb.useful_max, rb.waiting_time, rb.ideal_runtime) == (6.75, 12.0, 6.0, 1.75, 6.0)
    assert rb.speedup == 3.75 / 6.75 and rb.scaling_efficiency == (3.75 / 6.75) * 1.0
    assert rb.computation_scaling == 0.5
    assert rb.global_efficiency == (4.0 / 6.0) * (6.0 / 6.75) * 0.5
    assert pop.attrs["threshold"] == 0.8
    assert list(a.pop()["label"]) == [a.path]


def test_pop_needs_time_and_comp(schema, tmp_path):
    path = str(tmp_path / "no-comp.waitscope")
    write_small_report(path, schema, metrics=METRICS[:5], severities=[s for s in SEVERITIES if s[0] != 5])
    with waitscope.open(path) as report:
        with pytest.raises(ValueError, match='no "comp" metric'):
            report.pop()


def cli_json(tool, *args):
    result = subprocess.run([tool, *args, "--json"], capture_output=True, text=True)
    if result.returncode == 2 and "unknown command" in result.stderr:
        pytest.skip(f"this waitscope-report has no {args[0]} command")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def assert_same(printed, ours):
    """A JSON object of the tool against a row of ours: strings equal, numbers the same doubles,
    null where ours is not a finite number (JSON holds no infinity) or absent."""
    for key, value in printed.items():
        mine = ours[key]
        if value is None:
            assert mine is None or not math.isfinite(mine), key
        elif isinstance(value, str):
            assert value == mine, key
        else:
            assert float(value) == mine, key


def test_diff_equals_the_command_line(shared_reports, runs, tool):
    pairs = list(itertools.product(shared_reports.values(), repeat=2)) + [(runs[0].path, runs[1].path)]
    for a_path, b_path in pairs:
        printed = cli_json(tool, "diff", a_path, b_path)
        with waitscope.open(a_path) as a, waitscope.open(b_path) as b:
            ours = a.diff(b)
        assert (printed["a"], printed["b"]) == (ours.attrs["a"], ours.attrs["b"])
        assert (printed["ranks_a"], printed["ranks_b"], printed["same_ranks"]) == \
            (ours.attrs["ranks_a"], ours.attrs["ranks_b"], ours.attrs["same_ranks"])
        assert len(printed["metrics"]) == len(ours)
        for metric, row in zip(printed["metrics"], ours.to_dict("records")):
            assert_same(metric, row)


def test_pop_equals_the_command_line(shared_reports, runs, tool):
    series = [list(shared_reports.values()), [runs[0].path, runs[1].path], [runs[1].path]]
    for paths in series:
        printed = cli_json(tool, "pop", *paths)
        reports = [waitscope.open(p) for p in paths]
        ours = reports[0].pop(*reports[1:])
        assert printed["threshold"] == ours.attrs["threshold"]
        assert len(printed["runs"]) == len(ours)
        for run, row in zip(printed["runs"], ours.to_dict("records")):
            assert_same(run, {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()})
        for r in reports:
            r.close()


def test_reports_the_tool_derives(runs, tool, tmp_path):
    """The difference and mean reports `waitscope-report` writes open like any report, with the
    tool's values; the POP metrics refuse a difference, as the tool does."""
    a, b = runs
    difference, mean = str(tmp_path / "d.waitscope"), str(tmp_path / "m.waitscope")
    for command, output in (("diff", difference), ("mean", mean)):
        result = subprocess.run([tool, command, a.path, b.path, "-o", output], capture_output=True, text=True)
        if result.returncode == 2 and "unknown command" in result.stderr:
            pytest.skip(f"this waitscope-report has no {command} command")
        assert result.returncode == 0, result.stderr
    with waitscope.open(difference) as d:
        assert d.meta["kind"] == "difference"
        assert compare_with_cli(d, tool) > 0
        # B - A value by value: twice the computation minus once.
        assert d.totals()["comp"] == 12.0 - 6.0
        with pytest.raises(ValueError) as refused:
            d.pop()
        printed = subprocess.run([tool, "pop", difference], capture_output=True, text=True)
        assert printed.returncode == 1
        assert str(refused.value) == printed.stderr.strip().removeprefix("waitscope-report: error: ")
        assert "the report is the difference of two runs" in str(refused.value)
    with waitscope.open(mean) as m:
        assert m.meta["kind"] == "mean"
        assert compare_with_cli(m, tool) > 0
        assert m.totals()["comp"] == (6.0 + 12.0) / 2
        assert_same(cli_json(tool, "pop", mean)["runs"][0],
                    {k: (None if isinstance(v, float) and math.isnan(v) else v)
                     for k, v in m.pop().to_dict("records")[0].items()})
