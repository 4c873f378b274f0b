#include "app/launch/batch_template.h"

#include <vector>

#include <QRegularExpression>
#include <QStringList>

#include "app/launch/shell_quote.h"

namespace waitscope::launch {

namespace {

// Where a placeholder stands in the template, as a POSIX shell reads it.
enum class Context { Word, DoubleQuoted, SingleQuoted, HereDocument, Comment };

struct Occurrence {
  qsizetype at = 0;
  qsizetype length = 0;
  int value = 0;  // index into the values
  Context context = Context::Word;
};

bool isRestrictedWord(const QString& text) {
  static const QRegularExpression word(QStringLiteral("^[A-Za-z0-9_.:,+=@/-]+$"));
  return word.match(text).hasMatch();
}

bool isPlainWord(const QString& text) {
  static const QRegularExpression word(QStringLiteral("^[A-Za-z0-9_./:=@%+,~-]+$"));
  return word.match(text).hasMatch();
}

bool endsWord(QChar c) { return c.isSpace() || QStringLiteral(";&|()<>").contains(c); }

// Finds the placeholders of `text` and the quoting context of each. It follows
// quotes, escapes, $(...), ${...}, backquotes, comments and here-documents;
// it need not be a complete shell parser, since no context it may misread
// lets a value run (see the header).
class Scanner {
 public:
  Scanner(const QString& text, const QList<BatchTemplateValue>& values) : text_(text), values_(values) {}

  QList<Occurrence> scan() {
    while (i_ < text_.size()) step();
    return found_;
  }

 private:
  enum class Mode { Top, Single, AnsiC, Double, Substitution };
  struct Frame {
    Mode mode;
    QChar close;  // Substitution: ')', '}' or '`'
    int nesting = 0;
  };
  struct PendingHereDocument {
    QString delimiter;
    bool stripTabs = false;
  };

  QChar at(qsizetype k) const { return k < text_.size() ? text_[k] : QChar(); }

  // The value whose placeholder starts at k, or -1.
  int placeholderAt(qsizetype k, qsizetype* length) const {
    if (at(k) != QLatin1Char('{')) return -1;
    for (int v = 0; v < values_.size(); ++v) {
      const QString token = QLatin1Char('{') + values_[v].name + QLatin1Char('}');
      if (QStringView(text_).mid(k).startsWith(token)) {
        *length = token.size();
        return v;
      }
    }
    return -1;
  }

  Context context() const {
    switch (stack_.back().mode) {
      case Mode::Single:
      case Mode::AnsiC: return Context::SingleQuoted;
      case Mode::Double: return Context::DoubleQuoted;
      case Mode::Top:
      case Mode::Substitution: break;
    }
    return Context::Word;
  }

  // A placeholder at i_ is recorded and skipped; true when there was one.
  bool takePlaceholder(Context where) {
    qsizetype length = 0;
    const int v = placeholderAt(i_, &length);
    if (v < 0) return false;
    found_ << Occurrence{i_, length, v, where};
    i_ += length;
    return true;
  }

  // Placeholders up to the end of the line (comments, here-document lines) in `where`.
  void takeLine(Context where) {
    while (i_ < text_.size() && text_[i_] != QLatin1Char('\n'))
      if (!takePlaceholder(where)) ++i_;
  }

  void push(Mode mode, QChar close = {}) { stack_.push_back({mode, close, 0}); }

  void step() {
    if (takePlaceholder(context())) return;
    const QChar c = text_[i_];
    Frame& frame = stack_.back();
    switch (frame.mode) {
      case Mode::Single:
        if (c == QLatin1Char('\'')) stack_.pop_back();
        ++i_;
        return;
      case Mode::AnsiC:
        if (c == QLatin1Char('\\')) return skipEscaped();
        if (c == QLatin1Char('\'')) stack_.pop_back();
        ++i_;
        return;
      case Mode::Double:
        if (c == QLatin1Char('\\')) return skipEscaped();
        if (c == QLatin1Char('"')) {
          stack_.pop_back();
          ++i_;
          return;
        }
        if (startsSubstitution()) return;
        ++i_;
        return;
      case Mode::Top:
      case Mode::Substitution: break;
    }
    if (c == QLatin1Char('\\')) return skipEscaped();
    if (c == QLatin1Char('$') && at(i_ + 1) == QLatin1Char('\'')) {
      push(Mode::AnsiC);
      i_ += 2;
      return;
    }
    if (c == QLatin1Char('\'')) {
      push(Mode::Single);
      ++i_;
      return;
    }
    if (c == QLatin1Char('"')) {
      push(Mode::Double);
      ++i_;
      return;
    }
    if (frame.mode == Mode::Substitution) {
      if (c == frame.close) {
        if (frame.nesting > 0 && c != QLatin1Char('`')) {
          --frame.nesting;
        } else {
          stack_.pop_back();
        }
        ++i_;
        return;
      }
      if ((frame.close == QLatin1Char(')') && c == QLatin1Char('(')) ||
          (frame.close == QLatin1Char('}') && c == QLatin1Char('{'))) {
        ++frame.nesting;
        ++i_;
        return;
      }
    }
    if (startsSubstitution()) return;
    if (c == QLatin1Char('#') && (i_ == 0 || endsWord(text_[i_ - 1]))) {
      return takeLine(stack_.size() == 1 ? Context::Comment : Context::Word);
    }
    if (stack_.size() == 1 && c == QLatin1Char('<') && at(i_ + 1) == QLatin1Char('<') && at(i_ + 2) != QLatin1Char('<'))
      return readHereDocumentDelimiter();
    ++i_;
    if (c == QLatin1Char('\n') && stack_.size() == 1) readHereDocumentBodies();
  }

  void skipEscaped() {
    ++i_;  // the backslash
    // An escaped placeholder is still a value (never a way to make one of its characters special).
    if (!takePlaceholder(context())) ++i_;
  }

  bool startsSubstitution() {
    const QChar c = text_[i_];
    if (c == QLatin1Char('`')) {
      push(Mode::Substitution, QLatin1Char('`'));
      ++i_;
      return true;
    }
    if (c == QLatin1Char('$') && (at(i_ + 1) == QLatin1Char('(') || at(i_ + 1) == QLatin1Char('{'))) {
      push(Mode::Substitution, at(i_ + 1) == QLatin1Char('(') ? QLatin1Char(')') : QLatin1Char('}'));
      i_ += 2;
      return true;
    }
    return false;
  }

  // After "<<" (or "<<-"): the delimiter word, unquoted; the body follows the end of the line.
  void readHereDocumentDelimiter() {
    i_ += 2;
    PendingHereDocument doc;
    if (at(i_) == QLatin1Char('-')) {
      doc.stripTabs = true;
      ++i_;
    }
    while (at(i_) == QLatin1Char(' ') || at(i_) == QLatin1Char('\t')) ++i_;
    while (i_ < text_.size() && !endsWord(text_[i_])) {
      const QChar c = text_[i_];
      if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
        const qsizetype close = text_.indexOf(c, i_ + 1);
        const qsizetype end = close < 0 ? text_.size() : close;
        doc.delimiter += text_.mid(i_ + 1, end - i_ - 1);
        i_ = end + 1;
      } else if (c == QLatin1Char('\\')) {
        doc.delimiter += at(i_ + 1);
        i_ += 2;
      } else {
        doc.delimiter += c;
        ++i_;
      }
    }
    if (!doc.delimiter.isEmpty()) pending_.push_back(doc);
  }

  void readHereDocumentBodies() {
    for (const PendingHereDocument& doc : pending_) {
      while (i_ < text_.size()) {
        qsizetype end = text_.indexOf(QLatin1Char('\n'), i_);
        if (end < 0) end = text_.size();
        QString line = text_.mid(i_, end - i_);
        if (doc.stripTabs) {
          while (line.startsWith(QLatin1Char('\t'))) line.remove(0, 1);
        }
        if (line == doc.delimiter) {
          i_ = end + 1;
          break;
        }
        takeLine(Context::HereDocument);
        i_ = end + 1;
      }
    }
    pending_.clear();
  }

  const QString& text_;
  const QList<BatchTemplateValue>& values_;
  qsizetype i_ = 0;
  std::vector<Frame> stack_{{Mode::Top, QChar(), 0}};
  std::vector<PendingHereDocument> pending_;
  QList<Occurrence> found_;
};

// The text standing for a value in `context`; a null string: leave the line out.
QString rendered(const BatchTemplateValue& value, Context context) {
  if (value.kind == BatchTemplateValue::Kind::Word) return isRestrictedWord(value.text) ? value.text : QString();
  if (context == Context::Comment) return isPlainWord(value.text) ? value.text : QString();
  const QString variable = batchTemplateVariable(value.name);
  switch (context) {
    case Context::DoubleQuoted:
    case Context::HereDocument: return QStringLiteral("${%1}").arg(variable);
    case Context::Word:
    case Context::SingleQuoted:
    case Context::Comment: break;
  }
  return QStringLiteral("\"${%1}\"").arg(variable);
}

// The assignments of the Path and Program values, each quoted once for the job's shell.
QStringList assignments(const QList<BatchTemplateValue>& values) {
  QStringList lines, names;
  for (const BatchTemplateValue& v : values) {
    if (v.kind == BatchTemplateValue::Kind::Word) continue;
    QString text = v.text;
    if (v.kind == BatchTemplateValue::Kind::Path && text.startsWith(QLatin1Char('-'))) text.prepend(QStringLiteral("./"));
    const QString variable = batchTemplateVariable(v.name);
    lines << variable + QLatin1Char('=') + shellQuotePath(text);
    names << variable;
  }
  if (!names.isEmpty()) lines << QStringLiteral("export ") + names.join(QLatin1Char(' '));
  return lines;
}

bool isHeaderLine(const QString& line) {
  const QString trimmed = line.trimmed();
  return trimmed.isEmpty() || trimmed.startsWith(QLatin1Char('#'));
}

}  // namespace

QString batchTemplateVariable(const QString& name) { return QStringLiteral("WAITSCOPE_") + name.toUpper(); }

QString fillBatchTemplate(const QString& jobTemplate, const QList<BatchTemplateValue>& values) {
  const QList<Occurrence> occurrences = Scanner(jobTemplate, values).scan();
  QStringList lines;
  QString line;
  bool dropLine = false;
  qsizetype copied = 0;
  const auto copyUpTo = [&](qsizetype end) {
    for (; copied < end; ++copied) {
      if (jobTemplate[copied] != QLatin1Char('\n')) {
        line += jobTemplate[copied];
        continue;
      }
      if (!dropLine) lines << line;
      line.clear();
      dropLine = false;
    }
  };
  for (const Occurrence& o : occurrences) {
    copyUpTo(o.at);
    const QString text = rendered(values[o.value], o.context);
    if (text.isNull()) dropLine = true;
    line += text;
    copied = o.at + o.length;
  }
  copyUpTo(jobTemplate.size());
  if (!dropLine) lines << line;

  // The values go after the leading comments: #SBATCH directives must come before any command.
  qsizetype header = 0;
  while (header < lines.size() && isHeaderLine(lines[header])) ++header;
  if (header == lines.size()) {
    // Nothing but comments: keep a final empty line (the template's last newline) at the end.
    while (header > 0 && lines[header - 1].trimmed().isEmpty()) --header;
  }
  const QStringList defined = assignments(values);
  for (qsizetype k = 0; k < defined.size(); ++k) lines.insert(header + k, defined[k]);
  return lines.join(QLatin1Char('\n'));
}

}  // namespace waitscope::launch
