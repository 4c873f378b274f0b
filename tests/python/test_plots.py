"""The plot helpers return matplotlib Figures whose axes hold the report's values."""
import matplotlib

matplotlib.use("Agg")

import waitscope  # noqa: E402


def test_metric_by_rank(small_report):
    with waitscope.open(small_report) as report:
        figure = waitscope.plot_metric_by_rank(report, "mpi_latesender")
        ax = figure.axes[0]
        # Late Sender with its wrong-order part per location: 0.5 + 0.125, 0.25, 0.75.
        assert [bar.get_height() for bar in ax.patches] == [0.625, 0.25, 0.75]
        assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2"]
        assert ax.get_title() == "Late Sender [mpi_latesender]" and ax.get_ylabel() == "seconds"
        figure = waitscope.plot_metric_by_rank(report, "visits")
        assert [bar.get_height() for bar in figure.axes[0].patches] == [1.0, 1.0, 1.0]
        assert figure.axes[0].get_ylabel() == "occurrences"


def test_timeline(trace_copy):
    trace, path = trace_copy
    with waitscope.open(path) as report:
        items = report.timeline(trace, width=200)
        figure = waitscope.plot_timeline(report, trace, width=200)
        ax = figure.axes[0]
        # One bar per region span and per instance mark; a line per critical-path visit.
        regions = [c for c in ax.collections if c.get_gid() == "regions"]
        instances = [c for c in ax.collections if c.get_gid() == "instances"]
        assert sum(len(c.get_paths()) for c in regions) == (items["layer"] == "regions").sum()
        assert sum(len(c.get_paths()) for c in instances) == (items["layer"] == "instances").sum()
        path_lines = [c for c in ax.collections if c.get_gid() == "critical_path"]
        assert len(path_lines[0].get_segments()) == (items["layer"] == "critical_path").sum()
        assert [t.get_text() for t in ax.get_yticklabels()] == list(report.locations["name"])
        assert ax.get_xlim() == (items.attrs["from"], items.attrs["to"])
