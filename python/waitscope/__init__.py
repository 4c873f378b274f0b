"""Waitscope reports from Python: `waitscope.open(path)` reads a report file (what `waitscope-analyze`
writes) into pandas DataFrames. docs/python.md has a worked example."""
from waitscope._version import __version__
from waitscope.errors import (DamagedReportError, IncompleteReportError, NotAReportError, ReportError, ToolFailedError,
                              ToolNotFoundError, UnsupportedVersionError)
from waitscope.report import Report, open  # noqa: A004 - waitscope.open, like io.open


def plot_metric_by_rank(report, metric, ax=None):
    """A bar chart of one metric (with its sub-metrics) per location; returns the Figure."""
    from waitscope.plot import plot_metric_by_rank as plot
    return plot(report, metric, ax)


def plot_timeline(report, trace, t0=None, t1=None, width=1000, ax=None):
    """The timeline of [t0, t1] as `waitscope-report timeline` computes it; returns the Figure."""
    from waitscope.plot import plot_timeline as plot
    return plot(report, trace, t0, t1, width, ax)


__all__ = ["__version__", "open", "Report", "ReportError", "NotAReportError", "IncompleteReportError",
           "UnsupportedVersionError", "DamagedReportError", "ToolNotFoundError", "ToolFailedError", "plot_metric_by_rank",
           "plot_timeline"]
