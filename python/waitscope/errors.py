"""The ways a file can fail to be a readable report: one exception class each, all of them
ReportError, each message one line naming the file and what to do (as `waitscope-report` says it)."""


class ReportError(Exception):
    """A report that cannot be read; `path` names the file."""

    def __init__(self, path, message):
        super().__init__(f"{path}: {message}")
        self.path = str(path)


class NotAReportError(ReportError):
    """Not a Waitscope report: not an SQLite database, or another SQLite database."""


class IncompleteReportError(ReportError):
    """A report its writer never finished (interrupted analysis, a writer's temporary file)."""


class UnsupportedVersionError(ReportError):
    """A report of another format version than this package reads."""


class DamagedReportError(ReportError):
    """A truncated or corrupted report, or one whose values break the format's rules."""


class ToolNotFoundError(RuntimeError):
    """The `waitscope-report` executable a method needs was not found."""


class ToolFailedError(RuntimeError):
    """A `waitscope-report` command failed; the message is its own one-line error."""
