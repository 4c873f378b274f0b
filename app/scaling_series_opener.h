#pragma once
// Opens a scaling series (File > Open Scaling Series…, `waitscope --series`):
// reads every report, names each file that cannot be read in one line, and
// shows the others in a ScalingSeriesWindow.
#include <QStringList>

class QWidget;

namespace waitscope::views {
class ScalingSeriesWindow;
}

namespace waitscope::app {

struct CommandLine;

// A new window (a top-level window owned by `parent`) with the readable runs of `paths`.
views::ScalingSeriesWindow* openScalingSeries(const QStringList& paths, QWidget* parent);

// `waitscope --series R1 R2 … [--size WxH] [--export-png F] [--export-csv F] --quit`: the
// window rendered offscreen and exported. Each unusable file is one line on stderr; the exit
// status is 1 when no run could be used or an export failed, else 0.
int runScalingSeriesExport(const CommandLine& options);

}  // namespace waitscope::app
