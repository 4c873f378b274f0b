"""Two runs metric by metric, as `waitscope-report diff A B --json` compares them
(compareMetrics in analysis/report/report_algebra.cpp, docs/comparing-runs.md): metrics match by
unique name; each metric's inclusive total, per-rank mean, min and max come from each run as it is,
summed in the same order as the tools, so the values are the same doubles."""
import numpy as np
import pandas as pd

from waitscope import _sums
from waitscope.report import _depth_first

COLUMNS = ["name", "display_name", "unit", "depth", "a", "b", "difference", "ratio", "mean_a", "min_a", "max_a",
           "mean_b", "min_b", "max_b"]


def inclusive_by_location(report):
    """values[m, l]: metric m with its sub-metrics at location l, over all call paths (the rows of each
    metric first, then each metric added to its parent, last to first)."""
    values = _sums.row_sums(report._sev_metric, report._sev_values, len(report._metric_names))
    for m in range(len(report._metric_names) - 1, -1, -1):
        parent = report._metric_parent[m]
        if parent >= 0:
            values[parent] += values[m]
    return values


def summarize(per_rank):
    """(total, mean, min, max) over the ranks, the total added rank by rank."""
    if len(per_rank) == 0:
        return 0.0, 0.0, 0.0, 0.0
    total = float(_sums.column_sums(np.asarray(per_rank).reshape(-1, 1))[0])
    low = high = float(per_rank[0])
    for v in per_rank:
        low, high = min(low, float(v)), max(high, float(v))
    return total, total / len(per_rank), low, high


def _per_process(run, values):
    """Values per location folded per process: a hybrid run's threads and streams added to their
    process, so that per-rank summaries are about ranks."""
    kinds = run.locations["kind"].to_numpy()
    processes = int((kinds == "process").sum())
    if processes == len(kinds):
        return values
    ranks = run.locations["rank"].to_numpy()
    process_of_rank = {int(ranks[p]): p for p in range(processes)}
    folded = []
    for v in values:
        out = np.array(v[:processes], dtype=np.float64)
        for loc in range(processes, len(kinds)):
            p = process_of_rank.get(int(ranks[loc]))
            if p is not None:
                out[p] += v[loc]
        folded.append(out)
    return folded


def same_ranks(a, b):
    """Both runs have the same ranks, each once: their per-rank values compare."""
    processes = [r.locations[r.locations["kind"] == "process"] for r in (a, b)]
    ra, rb = sorted(processes[0]["rank"]), sorted(processes[1]["rank"])
    return ra == rb and len(set(ra)) == len(ra)


def ratio(total_a, total_b):
    """B / A; 0 when both are 0; infinity (with B's sign) when only A is."""
    if total_a == 0.0:
        return 0.0 if total_b == 0.0 else (np.inf if total_b > 0.0 else -np.inf)
    return total_b / total_a


def compare_metrics(a, b):
    """One row per metric of the union of both metric trees, depth first: name, display_name, unit,
    depth, a and b (inclusive totals), difference (b - a), ratio (b / a), and per rank mean_a, min_a,
    max_a, mean_b, min_b, max_b. attrs: a, b (the report files), ranks_a, ranks_b, same_ranks."""
    names, display, units, parents, index = [], [], [], [], {}
    maps = []
    for run in (a, b):
        mapping = []
        for m, name in enumerate(run._metric_names):
            if name not in index:
                index[name] = len(names)
                parent = run._metric_parent[m]
                names.append(name)
                display.append(run.metrics["display_name"].iat[m])
                units.append(run.metrics["unit"].iat[m])
                parents.append(mapping[parent] if parent >= 0 else -1)
            mapping.append(index[name])
        maps.append(mapping)
    summaries = []
    for run, mapping in zip((a, b), maps):
        values = _per_process(run, inclusive_by_location(run))
        per_metric = [(0.0, 0.0, 0.0, 0.0)] * len(names)
        for m in range(len(run._metric_names)):
            per_metric[mapping[m]] = summarize(values[m])
        summaries.append(per_metric)
    depth = [0] * len(names)
    for i, p in enumerate(parents):
        depth[i] = depth[p] + 1 if p >= 0 else 0
    rows = []
    for i in _depth_first(parents):
        (ta, ma, lo_a, hi_a), (tb, mb, lo_b, hi_b) = summaries[0][i], summaries[1][i]
        rows.append((names[i], display[i], units[i], depth[i], ta, tb, tb - ta, ratio(ta, tb), ma, lo_a, hi_a, mb,
                     lo_b, hi_b))
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame.attrs.update({"a": a.path, "b": b.path, "ranks_a": int((a.locations["kind"] == "process").sum()),
                        "ranks_b": int((b.locations["kind"] == "process").sum()),
                        "same_ranks": same_ranks(a, b)})
    return frame
