#include "views/widgets/widget_export.h"

#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

namespace waitscope::views {

QString exportPng(QWidget* widget, const QString& path) {
  const QPixmap picture = widget->grab();
  if (picture.isNull()) return QStringLiteral("%1: nothing to draw (is the window visible?)").arg(path);
  if (!picture.save(path, "PNG"))
    return QStringLiteral("%1: cannot write the PNG (check that the folder exists and is writable)").arg(path);
  return {};
}

QString exportSvg(QWidget* widget, const QString& path, const QString& title) {
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(widget->size());
  generator.setViewBox(widget->rect());
  generator.setTitle(title);
  generator.setDescription(QStringLiteral("Exported by Waitscope"));
  QPainter painter;
  if (!painter.begin(&generator))
    return QStringLiteral("%1: cannot write the SVG (check that the folder exists and is writable)").arg(path);
  widget->render(&painter);
  painter.end();
  if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0)
    return QStringLiteral("%1: cannot write the SVG (check that the folder exists and is writable)").arg(path);
  return {};
}

QString writeTextFile(const QString& text, const QString& path) {
  QSaveFile file(path);  // written completely or not at all
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text) || file.write(text.toUtf8()) < 0 || !file.commit())
    return QStringLiteral("%1: cannot write (%2)").arg(path, file.errorString());
  return {};
}

QString withDefaultSuffix(const QString& path, const QString& suffix) {
  return QFileInfo(path).suffix().isEmpty() ? path + QLatin1Char('.') + suffix : path;
}

}  // namespace waitscope::views
