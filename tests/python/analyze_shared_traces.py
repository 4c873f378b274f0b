"""Analyzes every OTF2 trace in shared/traces with waitscope-analyze into a directory, as
scripts/report-fingerprints.sh does (the analyzer names the trace's rank count when run on the
wrong one), and writes which traces it refused to refused.txt there.
    analyze_shared_traces.py SHARED_TRACES_DIR TOOLS_DIR OUT_DIR"""
import os
import re
import subprocess
import sys


def report_name(traces, anchor):
    return os.path.relpath(os.path.dirname(anchor), traces).replace(os.sep, "-") + ".waitscope"


def anchors(traces):
    out = []
    for root, dirs, files in os.walk(traces):
        dirs.sort()
        out += [os.path.join(root, "traces.otf2")] if "traces.otf2" in files else []
    return sorted(out)


def analyze(traces, tools, out_dir):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    analyzer = os.path.join(tools, "waitscope-analyze")
    os.makedirs(out_dir, exist_ok=True)
    refused = []
    for anchor in anchors(traces):
        report = os.path.join(out_dir, report_name(traces, anchor))
        if os.path.exists(report):
            os.remove(report)
        probe = subprocess.run(["mpiexec", "-n", "1", analyzer, "--quiet", anchor, "-o", report],
                               capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
        ranks = re.search(r"run it with mpiexec -n ([0-9]+)", probe.stdout + probe.stderr)
        if ranks:
            run = subprocess.run(["mpiexec", "--oversubscribe", "-n", ranks.group(1), analyzer, "--quiet", anchor,
                                  "-o", report], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
            ok = run.returncode == 0
        else:
            ok = probe.returncode == 0
        if not ok or not os.path.exists(report):
            refused.append(os.path.relpath(anchor, traces))
    with open(os.path.join(out_dir, "refused.txt"), "w", encoding="utf-8") as f:
        f.write("".join(r + "\n" for r in refused))
    return refused


if __name__ == "__main__":
    refused = analyze(*sys.argv[1:4])
    print(f"analyzed the shared traces into {sys.argv[3]}; refused by the analyzer: {refused or 'none'}")
