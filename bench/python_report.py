#!/usr/bin/env python3
"""The Python package on the benchmark's largest report: severities into a DataFrame (target < 2 s)
and the first rows of the wait-state instances (target < 0.2 s), each from opening the file, printed
beside what `waitscope-report print` takes on the same report (which reads the whole report).

    bench/python_report.py [--build BUILD] [--report FILE | --keep DIR] [--events N] [--locations L] [--repeat R]

Without --report, the synthetic trace of waitscope-bench-gen-trace (default 16M events, 16 locations)
is generated into DIR (--keep; a temporary directory otherwise) and analyzed with
`mpiexec -n L waitscope-analyze`; a DIR that already holds traces.otf2 and traces.waitscope is reused.
Figures are the best of R runs (default 3); the exit status is 0 whatever they are."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

import waitscope  # noqa: E402

FIRST_ROWS = 1000


def count(text):
    scale = {"k": 1000, "M": 1000000}.get(text[-1:], 1)
    return int(text[:-1] if scale > 1 else text) * scale


def make_report(build, directory, events, locations):
    trace = os.path.join(directory, "traces.otf2")
    report = os.path.join(directory, "traces.waitscope")
    if not os.path.exists(trace):
        print(f"generating {events} events over {locations} locations into {directory}", flush=True)
        subprocess.run([os.path.join(build, "bench", "waitscope-bench-gen-trace"), directory, "--events", str(events),
                        "--locations", str(locations)], check=True, stdout=subprocess.DEVNULL)
    if not os.path.exists(report):
        print(f"analyzing it with {locations} ranks", flush=True)
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        subprocess.run(["mpiexec", "--oversubscribe", "-n", str(locations),
                        os.path.join(build, "analysis", "tools", "waitscope-analyze"), "--quiet", trace, "-o", report],
                       check=True, env=env, stdin=subprocess.DEVNULL)
    return report


def best(repeat, run):
    """The shortest wall time of `repeat` runs, and what the last one returned."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    parser.add_argument("--report")
    parser.add_argument("--keep")
    parser.add_argument("--events", type=count, default=16000000)
    parser.add_argument("--locations", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    scratch = None
    if args.report:
        report_path = args.report
    else:
        directory = args.keep or tempfile.mkdtemp(prefix="waitscope-bench-python-")
        scratch = None if args.keep else directory
        os.makedirs(directory, exist_ok=True)
        report_path = make_report(args.build, directory, args.events, args.locations)
    try:
        tool = os.path.join(args.build, "analysis", "tools", "waitscope-report")

        def cli_print():
            subprocess.run([tool, "print", report_path], check=True, stdout=subprocess.DEVNULL)

        def severities():
            with waitscope.open(report_path) as report:
                return report.severities()

        def first_instances():
            with waitscope.open(report_path) as report:
                return report.instances(limit=FIRST_ROWS)

        def all_instances():
            with waitscope.open(report_path) as report:
                return report.instances()

        def totals():
            with waitscope.open(report_path) as report:
                return report.totals()

        t_print, _ = best(args.repeat, cli_print)
        t_severities, frame = best(args.repeat, severities)
        t_first, first = best(args.repeat, first_instances)
        t_all, instances = best(args.repeat, all_instances)
        t_totals, _ = best(args.repeat, totals)
        with waitscope.open(report_path) as report:
            shape = (f"{len(report.metrics)} metrics, {len(report.call_paths)} call paths, "
                     f"{len(report.locations)} locations")
        print(f"report {report_path} ({os.path.getsize(report_path) / 1e6:.1f} MB): {shape}, "
              f"{len(frame)} severity values, {len(instances)} instances; best of {args.repeat}")
        print(f"  waitscope-report print                     {t_print:8.3f} s")
        rows = [("severities() into a DataFrame", t_severities, 2.0),
                (f"first {len(first)} instances (limit=)", t_first, 0.2),
                ("totals() (as print computes them)", t_totals, None),
                ("every instance into a DataFrame", t_all, None)]
        for label, seconds, target in rows:
            verdict = "" if target is None else f"  target < {target:g} s: {'PASS' if seconds < target else 'MISS'}"
            print(f"  open + {label:36s} {seconds:8.3f} s  {seconds / t_print:6.2f} x print{verdict}")
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
