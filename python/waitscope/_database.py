"""Opens a report file read-only and checks it as `readReport()` (analysis/report/report_reader.cpp)
does, with the same one-line messages: the file may be anything (a trace, a half-copied report, a
file edited by hand). docs/report-format.md describes the schema."""
import os
import re
import sqlite3
import stat
import urllib.parse

from waitscope.errors import (DamagedReportError, IncompleteReportError, NotAReportError, ReportError,
                              UnsupportedVersionError)

FORMAT_VERSION = "1"
# Version 2: version 1 plus table location_kinds (threads and accelerator streams of hybrid runs).
LOCATION_KINDS_FORMAT_VERSION = "2"
TABLES = ("meta", "metrics", "regions", "callpaths", "system_nodes", "locations", "severities", "instances",
          "critical_path")
AGAIN = "; run waitscope-analyze again"
_SQLITE_MAGIC = b"SQLite format 3\x00"


def _file_problem(path):
    """Why `path` is no regular file to read, or None: SQLite would wait forever on a FIFO."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except PermissionError:
        return "Permission denied"
    except OSError as e:
        return e.strerror or str(e)
    if stat.S_ISDIR(mode):
        return "it is a directory"
    if stat.S_ISFIFO(mode):
        return "it is a FIFO (named pipe), not a file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a file"
    if not os.access(path, os.R_OK):
        return "Permission denied"
    return None


def _is_writers_temporary_file(path):
    """writeReport builds PATH.tmp-PID-N and renames it when whole: such a name is a stopped writer's."""
    return re.search(r"\.tmp-[0-9]+-[0-9]+$", os.path.basename(path)) is not None


def _check_header(path):
    """The first bytes: an SQLite database, and not cut short (the header's page count is the
    database's size whenever the header says it is valid)."""
    with open(path, "rb") as f:
        header = f.read(100)
    if not header:
        raise NotAReportError(path, "not a Waitscope report (the file is empty)")
    if not header.startswith(_SQLITE_MAGIC) or len(header) < 100:
        if path.endswith(".otf2"):
            raise NotAReportError(path, "not a Waitscope report (an OTF2 trace); analyze it with waitscope-analyze first")
        raise NotAReportError(path, "not a Waitscope report (not an SQLite database)")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    size_valid = header[24:28] == header[92:96] and pages > 0
    size = os.path.getsize(path)
    if size_valid and size < pages * page_size:
        raise DamagedReportError(path, f"damaged report (the file is cut short: {size} of {pages * page_size} bytes)"
                                 + AGAIN)


def connect(path):
    """An SQLite connection to the report, read-only, after the checks that need no SQL."""
    problem = _file_problem(path)
    if problem:
        raise ReportError(path, "cannot open: " + problem)
    if _is_writers_temporary_file(path):
        raise IncompleteReportError(path, "report is incomplete (a temporary file its writer never renamed: it was "
                                    "stopped while writing)" + AGAIN)
    _check_header(path)
    # mode=ro: the file is never written; immutable=1: no locks and no look at -journal or -wal
    # files beside it, where a FIFO would block.
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro&immutable=1"
    try:
        con = sqlite3.connect(uri, uri=True, check_same_thread=False)
        # The file is untrusted: no functions reached through its schema.
        con.execute("PRAGMA trusted_schema = OFF")
    except sqlite3.Error as e:
        raise translate(path, e) from None
    return con


def translate(path, error):
    """The ReportError for an SQLite error met while reading `path`."""
    text = " ".join(str(error).split())
    if isinstance(error, sqlite3.DatabaseError) and "not a database" in text:
        return NotAReportError(path, "not a Waitscope report (not an SQLite database)")
    if isinstance(error, sqlite3.DatabaseError) and ("malformed" in text or "corrupt" in text):
        return DamagedReportError(path, f"damaged report ({text})" + AGAIN)
    if isinstance(error, sqlite3.OperationalError) and "no such" in text:
        return NotAReportError(path, f"not a Waitscope report ({text})")
    return DamagedReportError(path, f"damaged report ({text})" + AGAIN)


def read_meta(con, path):
    """The meta table as a dict (without the `complete` marker), after the checks readReport makes
    first: our tables, our format version, a finished write."""
    tables = {name for (name,) in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")}
    if "meta" not in tables:
        raise NotAReportError(path, "not a Waitscope report (no table meta)")
    meta, complete = {}, False
    for key, value in con.execute("SELECT key, value FROM meta ORDER BY rowid"):
        if not isinstance(key, str) or not isinstance(value, str):
            raise DamagedReportError(path, "damaged report (meta: key or value is not text)" + AGAIN)
        if key == "complete":
            complete = value == "1"
        else:
            meta[key] = value
    version = meta.get("format_version", "")
    if not version:
        raise NotAReportError(path, "not a Waitscope report (no format_version in table meta)")
    if version not in (FORMAT_VERSION, LOCATION_KINDS_FORMAT_VERSION):
        shown = "".join(c if c.isprintable() else "?" for c in version[:40]) + ("..." if len(version) > 40 else "")
        raise UnsupportedVersionError(
            path, f"report format version {shown} is not supported (this waitscope package reads versions "
            f"{FORMAT_VERSION} and {LOCATION_KINDS_FORMAT_VERSION}); open it with the Waitscope that wrote it, "
            "or analyze the trace again")
    if not complete:
        raise IncompleteReportError(path, "report is incomplete (the analyzer was interrupted?)" + AGAIN)
    for table in TABLES + (("location_kinds",) if version == LOCATION_KINDS_FORMAT_VERSION else ()):
        if table not in tables:
            raise NotAReportError(path, f"not a Waitscope report (no table {table})")
    return meta
