"""The POP Centre of Excellence's efficiency metrics of runs, as `waitscope-report pop R... --json`
computes them (analysis/report/pop_metrics.h, docs/pop.md): U_p the computation time ("comp") and
T_p the time ("time") of process p, W_p its time in wait-state patterns; the values are the same
doubles as the tools'."""
import numpy as np
import pandas as pd

from waitscope import _sums
from waitscope.patterns import waiting_metrics

THRESHOLD = 0.8  # POP's "needs attention" line
COLUMNS = ["label", "processes", "runtime", "useful_mean", "useful_max", "useful_sum", "waiting_time",
           "ideal_runtime", "load_balance", "communication_efficiency", "serialisation_efficiency",
           "transfer_efficiency", "parallel_efficiency", "speedup", "scaling_efficiency", "computation_scaling",
           "global_efficiency"]


def _ratio(numerator, denominator):
    """numerator / denominator; 0 when there is nothing to divide by (no process, no computation)."""
    return numerator / denominator if denominator != 0.0 else 0.0


def _require(report, name, what):
    if name not in report._metric_index:
        raise ValueError(f'{report.path}: the report has no "{name}" metric ({what}), which the POP metrics need; '
                         "use a report of waitscope-analyze")


def pop_metrics(report, label):
    """One run's metrics as a dict keyed like COLUMNS (the scaling ones None)."""
    # A difference or ratio of runs has time and comp too, but no runtime of any run.
    kind = report.meta.get("kind")
    if kind in ("difference", "ratio"):
        raise ValueError(f"{report.path}: the report is the {kind} of two runs; the POP metrics need the report "
                         "of a run (or a mean of runs)")
    _require(report, "time", "the time of every process")
    _require(report, "comp", "the computation time")
    total_time = report.by_location("time")["value"].to_numpy()
    useful = report.by_location("comp")["value"].to_numpy()
    waiting = np.asarray(waiting_metrics(report), dtype=bool)
    waited = _sums.column_sums(report._sev_values[waiting[report._sev_metric]]) if len(report._sev_metric) else \
        np.zeros(len(report.locations))
    runtime = useful_max = useful_sum = waiting_time = ideal = 0.0
    # Per process: a hybrid run's threads and streams (listed after the processes) are no processes.
    processes = int((report.locations["kind"] == "process").sum())
    for p in range(processes):
        runtime = max(runtime, float(total_time[p]))
        useful_max = max(useful_max, float(useful[p]))
        useful_sum += float(useful[p])
        waiting_time += float(waited[p])
        ideal = max(ideal, float(total_time[p]) - float(waited[p]))
    useful_mean = _ratio(useful_sum, processes)
    load_balance = _ratio(useful_mean, useful_max)
    communication = _ratio(useful_max, runtime)
    return {"label": label, "processes": processes, "runtime": runtime, "useful_mean": useful_mean,
            "useful_max": useful_max, "useful_sum": useful_sum, "waiting_time": waiting_time, "ideal_runtime": ideal,
            "load_balance": load_balance, "communication_efficiency": communication,
            "serialisation_efficiency": _ratio(useful_max, ideal), "transfer_efficiency": _ratio(ideal, runtime),
            "parallel_efficiency": load_balance * communication, "speedup": None, "scaling_efficiency": None,
            "computation_scaling": None, "global_efficiency": None}


def pop_series(reports, labels=None):
    """A DataFrame with one row per run (columns COLUMNS); the first run is the reference of speedup,
    scaling_efficiency, computation_scaling and global_efficiency (NaN for itself). Labels default
    to the report files. attrs["threshold"]: the value below which POP says a metric needs attention."""
    labels = [r.path for r in reports] if labels is None else list(labels)
    if len(labels) != len(reports):
        raise ValueError("pop: one label per run")
    series = []
    for i, (report, label) in enumerate(zip(reports, labels)):
        m = pop_metrics(report, label)
        if i > 0:
            ref = series[0]
            m["speedup"] = _ratio(ref["runtime"], m["runtime"])
            m["scaling_efficiency"] = m["speedup"] * _ratio(ref["processes"], m["processes"])
            m["computation_scaling"] = _ratio(ref["useful_sum"], m["useful_sum"])
            m["global_efficiency"] = m["parallel_efficiency"] * m["computation_scaling"]
        series.append(m)
    frame = pd.DataFrame(series, columns=COLUMNS)
    for column in ("speedup", "scaling_efficiency", "computation_scaling", "global_efficiency"):
        frame[column] = frame[column].astype(float)
    frame.attrs["threshold"] = THRESHOLD
    return frame
