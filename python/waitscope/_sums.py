"""Sums added in exactly the order `analysis/report/report_queries.cpp` adds them, so that values
equal the command line's to the last bit: each sum starts at 0.0 and takes the values row by row
(the file's row order), each row from its first location to its last. numpy's sum adds pairwise
and pandas' groupby compensates, so neither gives the same doubles; np.add.accumulate adds one
value after the other."""
import numpy as np


def _rank_in_group(keys):
    """For every row, how many earlier rows have the same key."""
    n = len(keys)
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.concatenate(([0], np.flatnonzero(np.diff(sorted_keys)) + 1))
    lengths = np.diff(np.concatenate((starts, [n])))
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - np.repeat(starts, lengths)
    return rank


def _rounds(keys):
    """Row indices in rounds: round j holds every key's j-th row, so no key appears twice in one."""
    if len(keys) == 0:
        return
    rank = _rank_in_group(keys)
    for j in range(int(rank.max()) + 1):
        yield np.flatnonzero(rank == j)


def scalar_sums(keys, values, count):
    """sums[k] = 0.0 + every value of every row whose key is k (rows in order, left to right)."""
    keys = np.asarray(keys, dtype=np.int64)
    sums = np.zeros(count)
    for rows in _rounds(keys):
        k = keys[rows]
        running = np.column_stack((sums[k], values[rows]))
        sums[k] = np.add.accumulate(running, axis=1)[:, -1]
    return sums


def row_sums(keys, values, count):
    """sums[k, l] = 0.0 + values[r, l] over the rows r whose key is k, in row order."""
    keys = np.asarray(keys, dtype=np.int64)
    sums = np.zeros((count, values.shape[1]))
    for rows in _rounds(keys):
        sums[keys[rows]] += values[rows]
    return sums


def column_sums(values):
    """sums[l] = 0.0 + values[0, l] + values[1, l] + ..., one row after the other."""
    running = np.vstack((np.zeros((1, values.shape[1])), values))
    return np.add.accumulate(running, axis=0)[-1]


def tree_inclusive(exclusive, parents):
    """Adds every node's inclusive value to its parent's, children before parents (parents come first
    in the file, so from the last node to the first), as metricTotals does."""
    inclusive = [float(v) for v in exclusive]
    for i in range(len(parents) - 1, -1, -1):
        p = parents[i]
        if p >= 0:
            inclusive[p] += inclusive[i]
    return inclusive
