#include "views/source/source_pane.h"

#include <cmath>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QStackedWidget>
#include <QTextBlock>
#include <QVBoxLayout>

#include "analysis/report/source_location.h"
#include "views/model/color_scale.h"
#include "views/model/selection.h"
#include "views/model/value_mode.h"

namespace waitscope::views {

// The text, with the geometry calls the margin needs made public.
class SourceText : public QPlainTextEdit {
 public:
  using QPlainTextEdit::QPlainTextEdit;
  using QPlainTextEdit::blockBoundingGeometry;
  using QPlainTextEdit::blockBoundingRect;
  using QPlainTextEdit::contentOffset;
  using QPlainTextEdit::firstVisibleBlock;
  using QPlainTextEdit::setViewportMargins;
};

namespace {
SourceText* text(QPlainTextEdit* editor) { return static_cast<SourceText*>(editor); }
}  // namespace

// The margin left of the text: value colour box, value, line number.
class SourceMargin : public QWidget {
 public:
  explicit SourceMargin(SourcePane* pane) : QWidget(pane->editor()), pane_(pane) {
    setObjectName(QStringLiteral("sourceMargin"));
  }
  QSize sizeHint() const override { return {pane_->marginWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { pane_->paintMargin(event); }

 private:
  SourcePane* pane_;
};

SourcePane::SourcePane(Selection* selection, QWidget* parent) : QWidget(parent), selection_(selection) {
  title_ = new QLabel(this);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  editor_ = new SourceText(this);
  editor_->setReadOnly(true);
  editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
  editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  editor_->installEventFilter(this);
  margin_ = new SourceMargin(this);
  // More lines can need a wider number column.
  connect(editor_, &QPlainTextEdit::blockCountChanged, this, &SourcePane::updateMarginGeometry);
  connect(editor_, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
    if (dy)
      margin_->scroll(0, dy);
    else
      margin_->update(0, rect.y(), margin_->width(), rect.height());
  });

  auto* noticePage = new QWidget(this);
  notice_ = new QLabel(noticePage);
  notice_->setWordWrap(true);
  notice_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  findRoot_ = new QPushButton(tr("Find Source Root…"), noticePage);
  connect(findRoot_, &QPushButton::clicked, this, [this] { emit findSourceRootRequested(recordedFile_); });
  auto* noticeLayout = new QVBoxLayout(noticePage);
  noticeLayout->addWidget(notice_);
  noticeLayout->addWidget(findRoot_, 0, Qt::AlignLeft);
  noticeLayout->addStretch(1);

  stack_ = new QStackedWidget(this);
  stack_->addWidget(editor_);
  stack_->addWidget(noticePage);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(title_);
  layout->addWidget(stack_, 1);
  showNotice(tr("Select a call path to see its source."));

  for (auto changed : {&Selection::reportChanged, &Selection::metricsChanged, &Selection::callPathsChanged})
    connect(selection_, changed, this, &SourcePane::followSelection);
  connect(selection_, &Selection::reportUpdated, this, &SourcePane::followSnapshot);
}

namespace {
QString sourceRootKey(const QString& reportPath) {
  return QStringLiteral("sourceRoots/") +
         QString::fromLatin1(QCryptographicHash::hash(reportPath.toUtf8(), QCryptographicHash::Sha1).toHex());
}
}  // namespace

QStringList SourcePane::sourceRoots() const {
  const ReportDataPtr& report = selection_->report();
  return report ? QSettings().value(sourceRootKey(report->path())).toStringList() : QStringList();
}

void SourcePane::addSourceRoot(const QString& root) {
  const ReportDataPtr& report = selection_->report();
  if (!report) return;
  QStringList roots = sourceRoots();
  roots.removeAll(root);
  roots.prepend(root);
  QSettings().setValue(sourceRootKey(report->path()), roots);
  followSelection();
}

bool SourcePane::selectedSource(QString* recorded, QString* local, int* line) const {
  const ReportDataPtr& report = selection_->report();
  if (!report || selection_->flatProfile() || selection_->callPaths().size() != 1) return false;
  const report::SourcePosition position = report::sourcePosition(report->report(), selection_->callPaths().front().node);
  if (position.file.empty()) return false;
  std::vector<report::SourceRoot> roots;
  for (const QString& text : sourceRoots())
    if (const auto root = report::parseSourceRoot(text.toStdString())) roots.push_back(*root);
  *recorded = QString::fromStdString(position.file);
  *local = QString::fromStdString(report::mapSourceRoot(roots, position.file));
  // A relative path is relative to the report's folder (where the trace usually was).
  if (QFileInfo(*local).isRelative()) *local = QFileInfo(report->path()).dir().filePath(*local);
  *line = static_cast<int>(position.line);
  return true;
}

void SourcePane::followSelection() {
  const ReportDataPtr& report = selection_->report();
  QString recorded, local;
  int line = 0;
  if (!report) {
    showNotice(tr("No report."));
    return;
  }
  if (!selectedSource(&recorded, &local, &line)) {
    showNotice(selection_->callPaths().size() == 1 && !selection_->flatProfile()
                   ? tr("This call path has no source location in the trace (record with "
                        "-finstrument-functions and debug info, or select its caller).")
                   : tr("Select one call path in the call tree to see its source."));
    return;
  }
  showSource(recorded, local, line, lineValues(recorded), report->unit(selection_->metrics()));
}

// A live run's next snapshot: the file shown stays where the user scrolled it and is not read
// again; only the margin's values change. Another file or line is shown as on any pick.
void SourcePane::followSnapshot() {
  QString recorded, local;
  int line = 0;
  if (shownFile_.isEmpty() || !selectedSource(&recorded, &local, &line) || local != shownFile_ || line != line_) {
    followSelection();
    return;
  }
  setLineValues(lineValues(recorded), selection_->report()->unit(selection_->metrics()));
}

// The selected metrics per line of `recordedFile`, over every call path located in it.
std::map<std::uint32_t, double> SourcePane::lineValues(const QString& recordedFile) const {
  const ReportDataPtr& report = selection_->report();
  const std::vector<double> values = report->callPathValues(selection_->metricMask());
  std::map<std::uint32_t, double> byLine;
  const std::string file = recordedFile.toStdString();
  for (std::uint32_t c = 0; c < values.size(); ++c) {
    if (values[c] == 0.0) continue;
    const report::SourcePosition p = report::sourcePosition(report->report(), c);
    if (p.file == file && p.line > 0) byLine[p.line] += values[c];
  }
  return byLine;
}

void SourcePane::setLineValues(std::map<std::uint32_t, double> valuesByLine, report::MetricUnit unit) {
  values_ = std::move(valuesByLine);
  unit_ = unit;
  largest_ = 0.0;
  for (const auto& [l, v] : values_) largest_ = std::max(largest_, std::fabs(v));
  updateMarginGeometry();
  margin_->update();
}

// The margin and the text's left edge move together: the viewport starts where the margin
// ends, so no column of code is drawn under the margin whether it grows or shrinks.
void SourcePane::updateMarginGeometry() {
  const int width = marginWidth();
  text(editor_)->setViewportMargins(width, 0, 0, 0);
  const QRect r = editor_->contentsRect();
  margin_->setGeometry(r.left(), r.top(), width, r.height());
}

bool SourcePane::showSource(const QString& recordedFile, const QString& localFile, int line,
                            std::map<std::uint32_t, double> valuesByLine, report::MetricUnit unit) {
  recordedFile_ = recordedFile;
  QFile file(localFile);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
    showNotice(tr("%1 is not found on this machine (the trace was recorded elsewhere?). "
                  "Point Waitscope to your copy of the sources; the mapping is kept for this report.")
                   .arg(recordedFile),
               true);
    return false;
  }
  shownFile_ = localFile;
  line_ = line;
  editor_->setPlainText(QString::fromUtf8(file.readAll()));
  title_->setText(line > 0 ? QStringLiteral("%1:%2").arg(localFile).arg(line) : localFile);
  setLineValues(std::move(valuesByLine), unit);
  QList<QTextEdit::ExtraSelection> highlight;
  if (line > 0) {
    QTextEdit::ExtraSelection selection;
    selection.format.setBackground(palette().color(QPalette::Highlight).lighter(160));
    selection.format.setProperty(QTextFormat::FullWidthSelection, true);
    selection.cursor = QTextCursor(editor_->document()->findBlockByNumber(line - 1));
    highlight << selection;
    editor_->setTextCursor(selection.cursor);
    editor_->centerCursor();
  }
  editor_->setExtraSelections(highlight);
  stack_->setCurrentIndex(0);
  return true;
}

void SourcePane::showNotice(const QString& text, bool offerSourceRoot) {
  shownFile_.clear();
  line_ = 0;
  title_->clear();
  notice_->setText(text);
  findRoot_->setVisible(offerSourceRoot);
  stack_->setCurrentIndex(1);
}

QString SourcePane::notice() const { return notice_->text(); }
bool SourcePane::showsNotice() const { return stack_->currentIndex() == 1; }

QString SourcePane::marginText(int line) const {
  const auto at = values_.find(static_cast<std::uint32_t>(line));
  return at == values_.end() ? QString() : formatValue(at->second, ValueMode::Absolute, unit_);
}

int SourcePane::marginWidth() const {
  const QFontMetrics metrics(editor_->font());
  int widest = metrics.horizontalAdvance(QString::number(std::max(1, editor_->blockCount())));
  int values = 0;
  for (const auto& entry : values_)
    values = std::max(values, metrics.horizontalAdvance(marginText(static_cast<int>(entry.first))));
  return 8 + widest + (values ? values + metrics.height() + 12 : 0);
}

void SourcePane::paintMargin(QPaintEvent* event) {
  QPainter painter(margin_);
  painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
  const QFontMetrics metrics(editor_->font());
  painter.setFont(editor_->font());
  const int numbers = metrics.horizontalAdvance(QString::number(std::max(1, editor_->blockCount())));
  SourceText* source = text(editor_);
  QTextBlock block = source->firstVisibleBlock();
  int top = qRound(source->blockBoundingGeometry(block).translated(source->contentOffset()).top());
  while (block.isValid() && top <= event->rect().bottom()) {
    const int height = qRound(source->blockBoundingRect(block).height());
    const int line = block.blockNumber() + 1;
    const QString value = marginText(line);
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(margin_->width() - numbers - 4, top, numbers, height, Qt::AlignRight, QString::number(line));
    if (!value.isEmpty()) {
      const double v = values_.at(static_cast<std::uint32_t>(line));
      const int box = metrics.height() - 4;
      painter.fillRect(4, top + 2, box, box, severityColor(largest_ > 0 ? std::fabs(v) / largest_ : 0.0));
      painter.setPen(palette().color(QPalette::Text));
      painter.drawText(8 + box, top, margin_->width() - numbers - box - 16, height, Qt::AlignRight, value);
    }
    block = block.next();
    top += height;
  }
}

bool SourcePane::eventFilter(QObject* watched, QEvent* event) {
  if (watched == editor_ && (event->type() == QEvent::Resize || event->type() == QEvent::FontChange))
    updateMarginGeometry();
  return QWidget::eventFilter(watched, event);
}

}  // namespace waitscope::views
