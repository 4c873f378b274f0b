"""A Waitscope report file as pandas DataFrames. The file is opened read-only and checked as the
command-line tools check it; values are summed in the tools' order, so totals and per-call-path or
per-location values equal `waitscope-report print --json` and `csv` to the last bit."""
import os
import sqlite3

import numpy as np
import pandas as pd

from waitscope import _database, _sums
from waitscope.errors import DamagedReportError

NO_ID = 0xFFFFFFFF
RECORDS_PER_CHUNK = 65536
# Packed records of the `instances` and `critical_path` tables (docs/report-format.md).
INSTANCE_DTYPE = np.dtype([("metric", "<u4"), ("location", "<u4"), ("call_path", "<u4"), ("cause", "<u4"),
                           ("start", "<f8"), ("end", "<f8")])
SEGMENT_DTYPE = np.dtype([("location", "<u4"), ("call_path", "<u4"), ("start", "<f8"), ("end", "<f8")])
UNITS = ("sec", "occ", "bytes")
# Call paths deeper than this are labelled by their first and last regions, as `waitscope-report csv`
# labels them, so that a label's length does not grow with the depth.
WHOLE_LEVELS, HEAD_LEVELS, TAIL_LEVELS = 16, 4, 11


class _Damaged(Exception):
    """A broken rule of the format, turned into DamagedReportError naming the file."""


def _ids(values, what, column, nullable=False):
    """Integer ids of a column as int64 (-1 for NULL where allowed)."""
    out = np.empty(len(values), dtype=np.int64)
    for i, v in enumerate(values):
        if v is None and nullable:
            out[i] = -1
        elif type(v) is not int or v < 0 or v >= NO_ID:
            raise _Damaged(f"{what} row {i}: {column} is not an id")
        else:
            out[i] = v
    return out


def _texts(values, what, column):
    for i, v in enumerate(values):
        if not isinstance(v, str):
            raise _Damaged(f"{what} row {i}: {column} is not text")
    return list(values)


def _check_dense(ids, what):
    bad = np.flatnonzero(ids != np.arange(len(ids)))
    if len(bad):
        raise _Damaged(f"{what} row {bad[0]}: id does not follow the previous one")


def _check_parents(parents, what):
    bad = np.flatnonzero(parents >= np.arange(len(parents)))
    if len(bad):
        raise _Damaged(f"{what} {bad[0]}: parent {parents[bad[0]]} is not before it")


def _nullable(ids):
    """Ids with <NA> for none (a root's parent, no system node)."""
    return pd.arrays.IntegerArray(np.where(ids < 0, 0, ids).astype(np.int64), ids < 0)


def _depth_first(parents):
    """Node indices depth first, roots and siblings in index order (as the tools print trees)."""
    children = [[] for _ in parents]
    roots = []
    for i, p in enumerate(parents):
        (children[p] if p >= 0 else roots).append(i)
    out, stack = [], list(reversed(roots))
    while stack:
        i = stack.pop()
        out.append(i)
        stack.extend(reversed(children[i]))
    return out


class Report:
    """One report file. Small tables (metrics, call paths, locations, severities) are read and
    checked when it opens; wait-state instances and critical-path segments when asked for."""

    def __init__(self, path):
        self.path = os.fspath(path)
        self._con = _database.connect(self.path)
        try:
            self.meta = _database.read_meta(self._con, self.path)
            self._read_trees()
            self._read_severities()
        except sqlite3.Error as e:
            self._con.close()
            raise _database.translate(self.path, e) from None
        except _Damaged as e:
            self._con.close()
            raise DamagedReportError(self.path, f"damaged report ({e})" + _database.AGAIN) from None
        except BaseException:
            self._con.close()
            raise

    # -- reading -------------------------------------------------------------------------------

    def _rows(self, sql):
        return list(zip(*self._con.execute(sql).fetchall()))

    def _read_trees(self):
        cols = self._rows("SELECT id, unique_name, display_name, description, unit, parent FROM metrics ORDER BY id")
        cols = cols or [()] * 6
        ids = _ids(cols[0], "metrics", "id")
        _check_dense(ids, "metrics")
        names = _texts(cols[1], "metrics", "unique_name")
        for i, unit in enumerate(_texts(cols[4], "metrics", "unit")):
            if unit not in UNITS:
                raise _Damaged(f"metrics row {i}: unit is not sec, occ or bytes")
        parents = _ids(cols[5], "metrics", "parent", nullable=True)
        _check_parents(parents, "metric")
        if len(set(names)) != len(names):
            raise _Damaged("metric names are not unique")
        self._metric_parent = parents
        self._metric_names = names
        self._metric_index = {n: i for i, n in enumerate(names)}
        self.metrics = pd.DataFrame({
            "unique_name": names, "display_name": _texts(cols[2], "metrics", "display_name"),
            "unit": list(cols[4]), "parent": _nullable(parents),
            "description": _texts(cols[3], "metrics", "description")}, index=pd.RangeIndex(len(names), name="id"))

        cols = self._rows("SELECT id, name, file, begin_line, end_line, paradigm FROM regions ORDER BY id") or [()] * 6
        _check_dense(_ids(cols[0], "regions", "id"), "regions")
        region_names = _texts(cols[1], "regions", "name")
        self.regions = pd.DataFrame({
            "name": region_names, "file": _texts(cols[2], "regions", "file"),
            "begin_line": _ids(cols[3], "regions", "begin_line"), "end_line": _ids(cols[4], "regions", "end_line"),
            "paradigm": _texts(cols[5], "regions", "paradigm")}, index=pd.RangeIndex(len(region_names), name="id"))

        cols = self._rows("SELECT id, parent, region, call_site_file, call_site_line FROM callpaths ORDER BY id")
        cols = cols or [()] * 5
        _check_dense(_ids(cols[0], "callpaths", "id"), "callpaths")
        parents = _ids(cols[1], "callpaths", "parent", nullable=True)
        _check_parents(parents, "call path")
        regions = _ids(cols[2], "callpaths", "region")
        if len(regions) and regions.max() >= len(region_names):
            raise _Damaged(f"call path {int(np.argmax(regions >= len(region_names)))}: region out of range")
        self._call_path_parent = parents
        self._call_path_order = None  # depth first, made when first needed
        labels, depths = self._call_path_labels(parents, [region_names[r] for r in regions])
        self.call_paths = pd.DataFrame({
            "parent": _nullable(parents), "region": [region_names[r] for r in regions],
            "file": _texts(cols[3], "callpaths", "call_site_file"), "line": _ids(cols[4], "callpaths", "call_site_line"),
            "path": labels, "depth": depths}, index=pd.RangeIndex(len(parents), name="id"))

        cols = self._rows("SELECT id, name, class, parent FROM system_nodes ORDER BY id") or [()] * 4
        _check_dense(_ids(cols[0], "system_nodes", "id"), "system_nodes")
        node_names = _texts(cols[1], "system_nodes", "name")
        _check_parents(_ids(cols[3], "system_nodes", "parent", nullable=True), "system node")

        cols = self._rows("SELECT id, name, rank, system_node FROM locations ORDER BY id") or [()] * 4
        _check_dense(_ids(cols[0], "locations", "id"), "locations")
        nodes = _ids(cols[3], "locations", "system_node", nullable=True)
        if len(nodes) and nodes.max() >= len(node_names):
            raise _Damaged("a location's system node is out of range")
        names = _texts(cols[1], "locations", "name")
        ranks = _ids(cols[2], "locations", "rank")
        # A process per MPI rank first; a hybrid run's threads and accelerator streams follow,
        # each with its process's rank (table location_kinds, format version 2).
        kinds = ["process"] * len(names)
        if self.meta.get("format_version") == _database.LOCATION_KINDS_FORMAT_VERSION:
            for location, kind in self._con.execute("SELECT location, kind FROM location_kinds ORDER BY location"):
                if not isinstance(location, int) or not 0 <= location < len(names) or \
                        kind not in ("thread", "accelerator", "metric"):
                    raise _Damaged("a row of location_kinds names no location or kind")
                kinds[location] = kind
        threads, seen = [], {}
        for rank in ranks:  # the process is thread 0 of its rank; the others count on from 1
            threads.append(seen.get(int(rank), 0))
            seen[int(rank)] = threads[-1] + 1
        self.locations = pd.DataFrame({
            "name": names, "rank": ranks, "kind": kinds,
            "thread": np.asarray(threads, dtype=np.int64),
            "node": [node_names[n] if n >= 0 else None for n in nodes]},
            index=pd.RangeIndex(len(names), name="id"))
        # As `waitscope-report csv` names a location.
        self._location_labels = [n if n else f"rank {r}" for n, r in zip(names, ranks)]

    @staticmethod
    def _call_path_labels(parents, regions):
        """"main/foo/MPI_Recv" per call path; deeper than WHOLE_LEVELS levels, the first HEAD_LEVELS
        and last TAIL_LEVELS regions around "...(N levels)...", as `waitscope-report csv` writes them."""
        labels, depths, heads, tails = [], [], [], []
        for i, parent in enumerate(parents):
            if parent < 0:
                depth, head, tail = 0, (regions[i],), (regions[i],)
            else:
                depth = depths[parent] + 1
                head = heads[parent] if depth >= HEAD_LEVELS else heads[parent] + (regions[i],)
                tail = (tails[parent] + (regions[i],))[-WHOLE_LEVELS:]
            levels = depth + 1
            if levels <= WHOLE_LEVELS:
                labels.append("/".join(tail))
            else:
                left = levels - HEAD_LEVELS - TAIL_LEVELS
                labels.append("/".join(head) + f"/...({left} levels).../" + "/".join(tail[-TAIL_LEVELS:]))
            depths.append(depth)
            heads.append(head)
            tails.append(tail)
        return labels, depths

    def _read_severities(self):
        n_locations = len(self.locations)
        metric_ids, call_path_ids, blobs = [], [], []
        for i, (metric, call_path, vals) in enumerate(
                self._con.execute("SELECT metric, callpath, vals FROM severities ORDER BY rowid")):
            if type(metric) is not int or not 0 <= metric < len(self._metric_names):
                raise _Damaged(f"severities row {i}: metric out of range")
            if type(call_path) is not int or not 0 <= call_path < len(self.call_paths):
                raise _Damaged(f"severities row {i}: callpath out of range")
            if not isinstance(vals, bytes):
                raise _Damaged(f"severities row {i}: vals is not a blob")
            if len(vals) != 8 * n_locations:
                raise _Damaged(f"severities row {i}: vals does not hold one value per location")
            metric_ids.append(metric)
            call_path_ids.append(call_path)
            blobs.append(vals)
        values = np.frombuffer(b"".join(blobs), dtype="<f8").astype(np.float64).reshape(len(blobs), n_locations)
        if not np.isfinite(values).all():
            raise _Damaged(f"severities row {int(np.argmin(np.isfinite(values).all(axis=1)))}: a value is not finite")
        self._sev_metric = np.array(metric_ids, dtype=np.int64)
        self._sev_call_path = np.array(call_path_ids, dtype=np.int64)
        self._sev_values = values
        pairs = self._sev_metric * max(len(self.call_paths), 1) + self._sev_call_path
        if len(np.unique(pairs)) != len(pairs):
            raise _Damaged("two severities rows for one metric and call path")

    # -- metrics and values --------------------------------------------------------------------

    def metric_id(self, metric):
        """The id of a metric given by unique name (or id); KeyError naming the report otherwise."""
        if isinstance(metric, (int, np.integer)) and 0 <= metric < len(self._metric_names):
            return int(metric)
        try:
            return self._metric_index[metric]
        except (KeyError, TypeError):
            raise KeyError(f"{self.path}: no metric {metric!r} in this report; the names are in "
                           "report.metrics.unique_name") from None

    def _subtree(self, metric):
        """inside[m] is True for `metric` and every metric below it (parents come first)."""
        inside = np.zeros(len(self._metric_names), dtype=bool)
        inside[metric] = True
        for i in range(metric + 1, len(inside)):
            p = self._metric_parent[i]
            inside[i] = p >= 0 and inside[p]
        return inside

    def totals(self):
        """Every metric's metric-inclusive total over all call paths and locations, by unique name
        (what `waitscope-report print --json` prints)."""
        exclusive = _sums.scalar_sums(self._sev_metric, self._sev_values, len(self._metric_names))
        inclusive = _sums.tree_inclusive(exclusive, self._metric_parent)
        return pd.Series(inclusive, index=pd.Index(self._metric_names, name="metric"), name="total", dtype=float)

    def severities(self, metric=None, inclusive=False):
        """Values as a long DataFrame (metric, call_path, location, value); ids index
        `call_paths` and `locations`. Exclusive (default): the stored values, which exclude
        sub-metrics and callees. inclusive=True: each metric with its sub-metrics (still exclusive
        of callees), as `waitscope-report csv --by both`. Every (metric, call path) with a value
        is listed with all locations, zeros included; the rest is zero."""
        metrics = range(len(self._metric_names)) if metric is None else [self.metric_id(metric)]
        n_locations = len(self.locations)
        codes, call_paths, blocks = [], [], []
        if not inclusive:
            rows = np.flatnonzero(np.isin(self._sev_metric, list(metrics)))
            codes, call_paths, values = self._sev_metric[rows], self._sev_call_path[rows], self._sev_values[rows]
        else:
            for m in metrics:
                rows = np.flatnonzero(self._subtree(m)[self._sev_metric])
                if not len(rows):
                    continue
                present, keys = np.unique(self._sev_call_path[rows], return_inverse=True)
                blocks.append(_sums.row_sums(keys, self._sev_values[rows], len(present)))
                codes.append(np.full(len(present), m))
                call_paths.append(present)
            codes = np.concatenate(codes) if codes else np.zeros(0, dtype=np.int64)
            call_paths = np.concatenate(call_paths) if call_paths else np.zeros(0, dtype=np.int64)
            values = np.vstack(blocks) if blocks else np.zeros((0, n_locations))
        return pd.DataFrame({
            "metric": pd.Categorical.from_codes(np.repeat(codes, n_locations), categories=self._metric_names),
            "call_path": np.repeat(call_paths, n_locations),
            "location": np.tile(np.arange(n_locations), len(codes)),
            "value": values.ravel()})

    def by_call_path(self, metric):
        """One metric with its sub-metrics, summed over locations, per call path (exclusive of
        callees), call paths depth first: the rows of `waitscope-report csv --metric NAME`."""
        m = self.metric_id(metric)
        rows = np.flatnonzero(self._subtree(m)[self._sev_metric])
        values = _sums.scalar_sums(self._sev_call_path[rows], self._sev_values[rows], len(self.call_paths))
        if self._call_path_order is None:
            self._call_path_order = _depth_first(self._call_path_parent)
        order = self._call_path_order
        return pd.DataFrame({
            "call_path": np.array(order, dtype=np.int64), "path": self.call_paths["path"].to_numpy()[order],
            "parent": self.call_paths["parent"].array[order], "value": values[order]})

    def by_location(self, metric):
        """One metric with its sub-metrics, summed over call paths, per location: the rows of
        `waitscope-report csv --metric NAME --by location`."""
        m = self.metric_id(metric)
        rows = np.flatnonzero(self._subtree(m)[self._sev_metric])
        return pd.DataFrame({"location": np.arange(len(self.locations)), "name": self._location_labels,
                             "rank": self.locations["rank"].to_numpy(),
                             "value": _sums.column_sums(self._sev_values[rows])})

    # -- instances and the critical path ------------------------------------------------------

    def _chunks(self, table, dtype):
        """The packed records of `table`, chunk by chunk, checked as readReport checks them."""
        try:
            cursor = self._con.execute(f"SELECT chunk, data FROM {table} ORDER BY chunk")
            for i, (chunk, data) in enumerate(cursor):
                if chunk != i or type(chunk) is not int:
                    raise _Damaged(f"{table} row {i}: id does not follow the previous one")
                if not isinstance(data, bytes) or not data or len(data) % dtype.itemsize or \
                        len(data) > dtype.itemsize * RECORDS_PER_CHUNK:
                    raise _Damaged(f"{table} row {i}: data does not hold whole records")
                records = np.frombuffer(data, dtype=dtype)
                self._check_records(table, i, records)
                yield records
        except sqlite3.Error as e:
            raise _database.translate(self.path, e) from None
        except _Damaged as e:
            raise DamagedReportError(self.path, f"damaged report ({e})" + _database.AGAIN) from None

    def _check_records(self, table, chunk, records):
        limits = {"metric": len(self._metric_names), "location": len(self.locations),
                  "call_path": len(self.call_paths)}
        for field, limit in limits.items():
            if field in records.dtype.names and len(records) and records[field].max() >= limit:
                raise _Damaged(f"{table} chunk {chunk}: {field} out of range")
        if "cause" in records.dtype.names:
            causes = records["cause"]
            if ((causes != NO_ID) & (causes >= len(self.locations))).any():
                raise _Damaged(f"{table} chunk {chunk}: cause out of range")
        if not (np.isfinite(records["start"]).all() and np.isfinite(records["end"]).all()):
            raise _Damaged(f"{table} chunk {chunk}: a time is not finite")

    def _instance_filter(self, pattern, location, time_window):
        metrics = None
        if pattern is not None:
            names = [pattern] if isinstance(pattern, (str, int, np.integer)) else list(pattern)
            inside = np.zeros(len(self._metric_names), dtype=bool)
            for name in names:
                inside |= self._subtree(self.metric_id(name))
            metrics = np.flatnonzero(inside)
        locations = None
        if location is not None:
            locations = np.atleast_1d(np.asarray(location, dtype=np.int64))
        if time_window is not None:
            t0, t1 = (float(t) for t in time_window)

        def keep(records):
            mask = np.ones(len(records), dtype=bool)
            if metrics is not None:
                mask &= np.isin(records["metric"], metrics)
            if locations is not None:
                mask &= np.isin(records["location"], locations)
            if time_window is not None:
                mask &= (records["start"] < t1) & (records["end"] > t0)
            return records[mask]
        return keep

    def _instance_frame(self, records):
        causes = records["cause"].astype(np.int64)
        unknown = records["cause"] == NO_ID
        return pd.DataFrame({
            "location": records["location"].astype(np.int64),
            "call_path": records["call_path"].astype(np.int64),
            "pattern": pd.Categorical.from_codes(records["metric"].astype(np.int64), categories=self._metric_names),
            "start": records["start"].astype(np.float64),
            "end": records["end"].astype(np.float64),
            "waiting_time": records["end"] - records["start"],
            "cause": pd.arrays.IntegerArray(np.where(unknown, 0, causes), unknown)})

    def iter_instances(self, pattern=None, location=None, time_window=None):
        """The wait-state instances as DataFrames of up to 65536 rows each, in the file's order, read
        chunk by chunk, so the first rows come before the rest is read. Filters as `instances`."""
        keep = self._instance_filter(pattern, location, time_window)
        for records in self._chunks("instances", INSTANCE_DTYPE):
            kept = keep(records)
            if len(kept):
                yield self._instance_frame(kept)

    def instances(self, pattern=None, location=None, time_window=None, limit=None):
        """Wait-state instances: location, call_path, pattern (the metric's unique name), start, end,
        waiting_time (end - start, seconds), cause (the location that caused it; <NA> when unknown).
        pattern: a unique name or a list of them, sub-patterns included; location: an id or a list;
        time_window: (t0, t1), instances that overlap it; limit: at most this many rows (reading stops
        there)."""
        frames, rows = [], 0
        for frame in self.iter_instances(pattern, location, time_window):
            if limit is not None and rows + len(frame) >= limit:
                frames.append(frame.iloc[:max(limit - rows, 0)])
                break
            frames.append(frame)
            rows += len(frame)
        if not frames:
            return self._instance_frame(np.zeros(0, dtype=INSTANCE_DTYPE))
        return pd.concat(frames, ignore_index=True)

    def critical_path(self):
        """The critical path's segments, one per visit to a location, in order of start: location,
        call_path (active at the visit's end), start, end, duration."""
        chunks = list(self._chunks("critical_path", SEGMENT_DTYPE))
        records = np.concatenate(chunks) if chunks else np.zeros(0, dtype=SEGMENT_DTYPE)
        return pd.DataFrame({
            "location": records["location"].astype(np.int64), "call_path": records["call_path"].astype(np.int64),
            "start": records["start"].astype(np.float64), "end": records["end"].astype(np.float64),
            "duration": records["end"] - records["start"]})

    # -- comparing and showing -----------------------------------------------------------------

    def diff(self, other):
        """This run (A) against `other` (B) metric by metric, as `waitscope-report diff A B --json`:
        inclusive totals a and b, difference, ratio, per-rank mean, min and max (waitscope.compare)."""
        from waitscope.compare import compare_metrics
        return compare_metrics(self, other)

    def pop(self, *others, labels=None):
        """The POP efficiency metrics of this run and `others`, one row each (this run is the
        reference of the scaling metrics), as `waitscope-report pop --json` (waitscope.pop)."""
        from waitscope.pop import pop_series
        return pop_series([self, *others], labels)

    def timeline(self, trace, t0=None, t1=None, width=1000, locations=None):
        """What the timeline shows of [t0, t1] at `width` pixels: one row per item (regions merged
        per pixel, messages, collectives, epochs, transfers, instances, critical path), from
        `waitscope-report timeline TRACE REPORT --json`."""
        from waitscope.timeline import timeline
        return timeline(self, trace, t0, t1, width, locations)

    def findings(self, count=10):
        """The largest wait states: per wait-state pattern and call path, the value summed over
        locations (the pattern with its sub-patterns) and its share of the total time, largest first."""
        from waitscope.findings import findings
        return findings(self, count)

    def _repr_html_(self):
        from waitscope.findings import findings_html
        return findings_html(self)

    def __repr__(self):
        return (f"<waitscope.Report {self.path!r}: {len(self.metrics)} metrics, {len(self.call_paths)} call paths, "
                f"{len(self.locations)} locations>")

    def close(self):
        self._con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open(path):  # noqa: A001 - waitscope.open, like io.open
    """Opens a report file (read-only); raises a ReportError subclass naming the file otherwise."""
    return Report(path)
