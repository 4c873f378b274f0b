"""The timeline as `waitscope-report timeline TRACE REPORT --json` computes it (docs/timeline.md):
the command builds and reuses the index REPORT.timeline beside the report, so the package does not
read the trace itself."""
import json
import os
import shutil
import subprocess

import pandas as pd

from waitscope.errors import ToolFailedError, ToolNotFoundError

TOOL = "waitscope-report"
LAYERS = ("regions", "messages", "collectives", "epochs", "transfers", "instances", "critical_path")
# Where the tools are when the package is used from the source tree (PYTHONPATH=python).
BUILD_TREE_TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "build", "analysis", "tools")


def find_tool(name=TOOL):
    """The path of a Waitscope executable: $WAITSCOPE_BIN (the directory holding it, or the file),
    else the build tree beside this package (build/analysis/tools), else PATH."""
    configured = os.environ.get("WAITSCOPE_BIN")
    if configured:
        path = configured if os.path.isfile(configured) else os.path.join(configured, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise ToolNotFoundError(f"{name} not found in WAITSCOPE_BIN={configured}; point WAITSCOPE_BIN at the "
                                f"directory that holds {name} (e.g. build/analysis/tools)")
    built = os.path.join(BUILD_TREE_TOOLS, name)
    if os.path.isfile(built) and os.access(built, os.X_OK):
        return built
    found = shutil.which(name)
    if found:
        return found
    raise ToolNotFoundError(f"{name} not found (not on PATH, no build tree beside the package); install "
                            f"waitscope-backend or set WAITSCOPE_BIN to the directory that holds {name}")


def run_tool(args):
    """Runs `waitscope-report ARGS...` (an argument list, never a shell) and returns its stdout."""
    result = subprocess.run([find_tool(), *args], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        raise ToolFailedError(lines[0] if lines else f"{TOOL} {args[0]} failed with exit status {result.returncode}")
    return result.stdout


def timeline(report, trace, t0=None, t1=None, width=1000, locations=None):
    """A DataFrame with one row per item the timeline shows: location, layer (one of LAYERS), start,
    end and the item's fields (call_path, merged, group; sender, receiver, tag, ...; metric, cause,
    count; order), with `pattern` and `path` naming metric and call path ids; attrs hold from, to
    and width."""
    # Absolute paths never start with '-', so they cannot be read as options.
    args = ["timeline", os.path.abspath(os.fspath(trace)), os.path.abspath(report.path), "--width", str(int(width)),
            "--json"]
    if t0 is not None:
        args += ["--from", repr(float(t0))]
    if t1 is not None:
        args += ["--to", repr(float(t1))]
    if locations is not None:
        args += ["--locations", ",".join(str(int(l)) for l in locations)]
    slice_ = json.loads(run_tool(args))
    rows = []
    for location in slice_["locations"]:
        for layer in LAYERS:
            for item in location.get(layer, []):
                rows.append({"location": location["location"], "layer": layer, **item})
    frame = pd.DataFrame(rows, columns=None if rows else ["location", "layer", "start", "end"])
    # Ids and counts stay integers where a layer lacks them (<NA>), instead of turning into floats.
    for column in frame.columns:
        if column not in ("start", "end") and pd.api.types.is_numeric_dtype(frame[column]):
            frame[column] = frame[column].astype("Int64")
    if "metric" in frame:
        names = report.metrics["unique_name"]
        frame["pattern"] = [names.iat[int(m)] if pd.notna(m) else None for m in frame["metric"]]
    if "call_path" in frame:
        paths = report.call_paths["path"]
        frame["path"] = [paths.iat[int(c)] if pd.notna(c) else None for c in frame["call_path"]]
    frame.attrs.update({"from": slice_["from"], "to": slice_["to"], "width": slice_["width"]})
    return frame
