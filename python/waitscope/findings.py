"""The largest wait states of a report, for a quick look (and a notebook's view of a Report)."""
import html

import pandas as pd

from waitscope.patterns import WAIT_STATE_PATTERNS


def findings(report, count=10):
    """Per (wait-state pattern, call path): seconds summed over locations (sub-patterns included) and
    their share of the total time (0..1), largest first; at most `count` rows (None: all)."""
    totals = report.totals()
    time = totals.get("time", 0.0)
    rows = []
    for name in WAIT_STATE_PATTERNS:
        if name not in report._metric_index:
            continue
        m = report._metric_index[name]
        if report.metrics["unit"].iat[m] != "sec":
            continue
        values = report.by_call_path(m)
        for cp, path, value in zip(values["call_path"], values["path"], values["value"]):
            if value > 0.0:
                rows.append((name, report.metrics["display_name"].iat[m], int(cp), path, float(value),
                             value / time if time > 0.0 else 0.0))
    frame = pd.DataFrame(rows, columns=["pattern", "display_name", "call_path", "path", "seconds", "share"])
    frame = frame.sort_values("seconds", ascending=False, kind="stable").reset_index(drop=True)
    return frame if count is None else frame.head(count)


def findings_html(report, count=10):
    """An HTML summary: the run, its total time, and the largest wait states with their share of it."""
    e = html.escape
    totals = report.totals()
    time = totals.get("time", 0.0)
    top = findings(report, count)
    parts = [f"<div><b>Waitscope report</b> {e(report.path)}<br>",
             f"{len(report.locations)} locations, time {time:.6f} s"]
    if "trace" in report.meta:
        parts.append(f", trace {e(report.meta['trace'])}")
    parts.append("</div>")
    if top.empty:
        parts.append("<p>No wait states.</p>")
        return "".join(parts)
    parts.append("<table><thead><tr><th>wait state</th><th>call path</th><th>seconds</th><th>share of time</th>"
                 "</tr></thead><tbody>")
    for row in top.itertuples():
        parts.append(f"<tr><td>{e(row.display_name)} [{e(row.pattern)}]</td><td>{e(row.path)}</td>"
                     f"<td>{row.seconds:.6f}</td><td>{100.0 * row.share:.2f}%</td></tr>")
    parts.append("</tbody></table>")
    return "".join(parts)
