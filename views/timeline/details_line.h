#pragma once
// One line of details under the timeline (what the pointer is over): always
// exactly one text line high, so hovering never moves the plot; a text too long
// for the width is elided, and the whole of it is the line's tooltip.
#include <QLabel>
#include <QString>

namespace waitscope::views {

class DetailsLine : public QLabel {
  Q_OBJECT

 public:
  explicit DetailsLine(QWidget* parent = nullptr);
  // Shows `text` (its lines joined with " · "), elided to the width.
  void setDetails(const QString& text);
  void clearDetails() { setDetails({}); }
  // The whole text, as in the tooltip.
  const QString& details() const { return details_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void elide();
  QString details_;
};

}  // namespace waitscope::views
