#pragma once
// Pictures and tables of what a widget shows: PNG (at the screen's device
// pixel ratio, so high-DPI screens give crisp files), SVG (QSvgGenerator) and
// text files. Each returns an empty string on success, else one line naming
// the file and what went wrong.
#include <QString>

class QWidget;

namespace waitscope::views {

QString exportPng(QWidget* widget, const QString& path);
QString exportSvg(QWidget* widget, const QString& path, const QString& title);
QString writeTextFile(const QString& text, const QString& path);
// The path with ".suffix" appended when the name has none ("profile" -> "profile.csv").
QString withDefaultSuffix(const QString& path, const QString& suffix);

}  // namespace waitscope::views
