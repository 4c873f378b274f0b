"""Compares a Report's values with what `waitscope-report print --json` and `csv` print for the
same file: every metric's total and every CSV row (callpath, location and both), as doubles read
from the tools' exact output (the shortest text that reads back as the same double)."""
import csv
import io
import json
import subprocess

import pandas as pd


def run(tool, *args):
    return subprocess.run([tool, *args], capture_output=True, text=True, check=True).stdout


def csv_rows(tool, path, metric, by):
    rows = list(csv.reader(io.StringIO(run(tool, "csv", path, "--metric", metric, "--by", by))))
    return rows[0], rows[1:]


def compare_with_cli(report, tool):
    """Asserts equality; returns how many values were compared."""
    path = report.path
    printed = json.loads(run(tool, "print", path, "--json"))
    totals = report.totals()
    assert list(totals.index) == list(printed["metrics"])
    for name, value in printed["metrics"].items():
        assert totals[name] == float(value), (path, name)
    assert report.meta == printed["meta"]
    compared = len(totals)
    for metric in report.metrics["unique_name"]:
        header, rows = csv_rows(tool, path, metric, "callpath")
        assert header == ["callpath", metric, "callpath_id", "parent_id"]
        ours = report.by_call_path(metric)
        assert len(rows) == len(ours), (path, metric)
        for row, (cp, label, parent, value) in zip(rows, ours[["call_path", "path", "parent", "value"]].itertuples(
                index=False)):
            assert row[0] == label and float(row[1]) == value and row[2] == str(cp), (path, metric, row)
            assert row[3] == ("" if pd.isna(parent) else str(parent))
        header, rows = csv_rows(tool, path, metric, "location")
        ours = report.by_location(metric)
        assert [[r[0], float(r[1])] for r in rows] == [[n, v] for n, v in zip(ours["name"], ours["value"])]
        header, rows = csv_rows(tool, path, metric, "both")
        # `both` lists the non-zero (call path, location) values, call paths depth first.
        values = report.severities(metric, inclusive=True)
        values = values[values["value"] != 0.0]
        position = {cp: i for i, cp in enumerate(report.by_call_path(metric)["call_path"])}
        values = values.assign(order=values["call_path"].map(position)).sort_values(["order", "location"],
                                                                                    kind="stable")
        labels = report.by_location(metric)["name"]
        expected = [[report.call_paths["path"].iat[cp], labels.iat[loc], value, str(cp)]
                    for cp, loc, value in zip(values["call_path"], values["location"], values["value"])]
        assert [[r[0], r[1], float(r[2]), r[3]] for r in rows] == expected, (path, metric)
        compared += len(ours) + len(report.call_paths) + len(rows)
    return compared
