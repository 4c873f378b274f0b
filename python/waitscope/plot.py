"""matplotlib figures of a report: one metric per rank, and the timeline. Each function returns the
Figure (and draws into `ax` when one is given), so notebooks show it and scripts save it."""
import matplotlib.pyplot as plt
from matplotlib.collections import LineCollection

# A colour per region group of the timeline (docs/timeline.md).
GROUP_COLORS = {"user": "#9ecae1", "mpi_p2p": "#fdae6b", "mpi_collective": "#fd8d3c", "rma_sync": "#a1d99b",
                "rma_comm": "#74c476", "mpi_other": "#bcbddc"}
INSTANCE_COLOR = "#d62728"
PATH_COLOR = "#000000"


def _axes(ax, size):
    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=size)
    return fig, ax


def plot_metric_by_rank(report, metric, ax=None):
    """One bar per location: `metric` with its sub-metrics, summed over call paths."""
    m = report.metric_id(metric)
    values = report.by_location(m)
    fig, ax = _axes(ax, (max(4.0, 0.4 * len(values) + 2.0), 3.5))
    ax.bar([str(r) for r in values["rank"]], values["value"], color="#3182bd")
    row = report.metrics.iloc[m]
    ax.set_title(f"{row.display_name} [{row.unique_name}]")
    ax.set_xlabel("rank")
    ax.set_ylabel({"sec": "seconds", "occ": "occurrences", "bytes": "bytes"}[row.unit])
    fig.tight_layout()
    return fig


def plot_timeline(report, trace, t0=None, t1=None, width=1000, ax=None):
    """Rows per location: region bands (coloured by group), wait-state instances in red on top, the
    critical path as a black line, messages as lines from sender to receiver."""
    items = report.timeline(trace, t0, t1, width)
    locations = sorted(items["location"].unique()) if len(items) else []
    row_of = {loc: i for i, loc in enumerate(locations)}
    fig, ax = _axes(ax, (10.0, 0.5 * len(locations) + 1.5))
    for layer, height, offset in (("regions", 0.8, 0.1), ("instances", 0.4, 0.3)):
        part = items[items["layer"] == layer]
        for loc, rows in part.groupby("location"):
            bars = list(zip(rows["start"], rows["end"] - rows["start"]))
            colors = ([GROUP_COLORS.get(g, "#cccccc") for g in rows["group"]] if layer == "regions"
                      else INSTANCE_COLOR)
            ax.broken_barh(bars, (row_of[loc] + offset, height), facecolors=colors, label=layer, gid=layer)
    path = items[items["layer"] == "critical_path"]
    if len(path):
        ax.add_collection(LineCollection([[(s, row_of[l] + 0.95), (e, row_of[l] + 0.95)]
                                          for l, s, e in zip(path["location"], path["start"], path["end"])],
                                         colors=PATH_COLOR, linewidths=2, gid="critical_path"))
    messages = items[items["layer"] == "messages"]
    if len(messages):
        ax.add_collection(LineCollection([[(s, row_of.get(a, 0) + 0.5), (e, row_of.get(b, 0) + 0.5)]
                                          for s, e, a, b in zip(messages["start"], messages["end"],
                                                                messages["sender"], messages["receiver"])
                                          if a in row_of and b in row_of],
                                         colors="#444444", linewidths=0.5, gid="messages"))
    ax.set_xlim(items.attrs.get("from", 0.0), items.attrs.get("to", 1.0))
    ax.set_ylim(len(locations), 0)
    ax.set_yticks([i + 0.5 for i in range(len(locations))])
    ax.set_yticklabels([report.locations["name"].iat[int(l)] for l in locations])
    ax.set_xlabel("time [s]")
    fig.tight_layout()
    return fig
