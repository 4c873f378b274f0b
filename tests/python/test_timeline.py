"""Report.timeline runs `waitscope-report timeline` and returns what the timeline shows."""
import pytest

import waitscope


def test_instances_on_the_timeline_are_the_reports(trace_copy):
    trace, path = trace_copy
    with waitscope.open(path) as report:
        whole = report.timeline(trace, width=100)
        assert set(whole["layer"]) >= {"regions", "messages", "instances", "critical_path"}
        assert list(whole["location"].unique()) == list(range(len(report.locations)))
        t0, t1 = whole.attrs["from"], whole.attrs["to"]
        # Every instance of the report is on the timeline, merged per pixel ("count").
        marks = whole[whole["layer"] == "instances"]
        assert marks.groupby("location")["count"].sum().to_dict() == \
            report.instances(time_window=(t0, t1)).groupby("location").size().to_dict()
        assert set(marks["pattern"]) == set(report.instances()["pattern"])
        # A window: only what overlaps it.
        part = report.timeline(trace, t0 + (t1 - t0) / 2, t1, width=50, locations=[1, 2])
        assert part.attrs["from"] == t0 + (t1 - t0) / 2 and part.attrs["width"] == 50
        assert set(part["location"]) == {1, 2}
        assert (part["end"] >= part.attrs["from"]).all()
        regions = part[part["layer"] == "regions"]
        assert set(regions["path"]) <= set(report.call_paths["path"])


def test_the_tool_is_found_or_named(trace_copy, tmp_path, monkeypatch):
    trace, path = trace_copy
    with waitscope.open(path) as report:
        monkeypatch.setenv("WAITSCOPE_BIN", str(tmp_path / "nowhere"))
        with pytest.raises(waitscope.ToolNotFoundError, match="waitscope-report not found in WAITSCOPE_BIN="):
            report.timeline(trace)
        monkeypatch.delenv("WAITSCOPE_BIN")
        monkeypatch.setenv("PATH", str(tmp_path))
        monkeypatch.setattr("waitscope.timeline.BUILD_TREE_TOOLS", str(tmp_path))
        with pytest.raises(waitscope.ToolNotFoundError, match="not on PATH"):
            report.timeline(trace)


def test_the_tools_error_is_raised(trace_copy, tmp_path):
    trace, path = trace_copy
    with waitscope.open(path) as report:
        with pytest.raises(waitscope.ToolFailedError, match="--to must be after --from"):
            report.timeline(trace, 2.0, 1.0)
        with pytest.raises(waitscope.ToolFailedError, match="missing"):
            report.timeline(str(tmp_path / "missing" / "traces.otf2"))
