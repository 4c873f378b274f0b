#pragma once
// The zoom steps on a timeline's tool bar: in, out, whole, undo and redo, for
// any widget with the slots zoomIn, zoomOut, zoomToAll, undoZoom and redoZoom
// (a TimelineView, or the stacked views of two runs).
#include <QHBoxLayout>
#include <QToolButton>

namespace waitscope::views {

struct ZoomButtons {
  QToolButton* in;
  QToolButton* out;
  QToolButton* all;
  QToolButton* undo;
  QToolButton* redo;

  // Made as children of `parent` and appended to `bar`.
  ZoomButtons(QWidget* parent, QHBoxLayout* bar);

  template <class Target>
  void connectTo(Target* target) const {
    QObject::connect(in, &QToolButton::clicked, target, &Target::zoomIn);
    QObject::connect(out, &QToolButton::clicked, target, &Target::zoomOut);
    QObject::connect(all, &QToolButton::clicked, target, &Target::zoomToAll);
    QObject::connect(undo, &QToolButton::clicked, target, &Target::undoZoom);
    QObject::connect(redo, &QToolButton::clicked, target, &Target::redoZoom);
  }
};

// A tool button with its text and tool tip.
QToolButton* toolButton(QWidget* parent, const QString& text, const QString& tip);

}  // namespace waitscope::views
