"""Reports of hybrid traces (MPI + OpenMP + CUDA): threads and streams are locations of their own,
after the processes (format version 2), and per-rank views stay about the processes."""
import subprocess

import numpy as np

import waitscope
from waitscope.compare import compare_metrics
from waitscope.pop import pop_metrics


def test_threads_and_streams_follow_their_processes(shared_reports):
    with waitscope.open(shared_reports["casita_2_cuda_simple"]) as report:
        assert report.meta["format_version"] == "2"
        locations = report.locations
        processes = locations[locations["kind"] == "process"]
        assert list(processes.index) == [0, 1] and list(processes["rank"]) == [0, 1]
        others = locations.iloc[2:]
        assert set(others["kind"]) == {"thread", "accelerator"}
        # Each named "<process> / <location>", with its process's rank, thread 1, 2, ... of it.
        for _, row in others.iterrows():
            assert row["name"].startswith(f"MPI Rank {row['rank']} / ")
        assert sorted(others["thread"]) == [1, 1, 2, 2]
        # Time at a thread is its own: every location has some, the sum is the whole.
        time = report.by_location("time")["value"].to_numpy()
        assert (time > 0).all()
        assert np.isclose(time.sum(), report.totals()["time"])


def test_pop_and_comparisons_count_processes(shared_reports):
    with waitscope.open(shared_reports["casita_2_cuda_simple"]) as report:
        assert pop_metrics(report, "run")["processes"] == 2
        frame = compare_metrics(report, report)
        assert frame.attrs["ranks_a"] == 2 and frame.attrs["same_ranks"]
        # Per rank: a thread's time counts towards its process, so the mean is the total over 2.
        time = frame[frame["name"] == "time"].iloc[0]
        assert np.isclose(time["mean_a"] * 2, time["a"])


def test_print_names_the_paradigms_without_wait_state_analysis(shared_reports, tool):
    path = shared_reports["casita_2_cuda_simple"]
    out = subprocess.run([tool, "print", path], capture_output=True, text=True, check=True).stdout
    with waitscope.open(path) as report:
        line = report.meta["unanalyzed_paradigms"]
    assert line.endswith(": time metrics only, no wait-state analysis") and "CUDA" in line and "OpenMP" in line
    assert f"note: {line}\n" in out
