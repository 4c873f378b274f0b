#pragma once
// The batch job script: a template ({ranks} {trace} ...) filled in one pass.
//
// File names never become script text. Each path value is quoted once, in an
// exported assignment placed after the template's leading comment block
// (#!, #SBATCH):
//   WAITSCOPE_TRACE='run 1/traces.otf2'
// and each of its placeholders becomes a reference to that variable, written
// for the quoting context it stands in:
//   a word, or inside $(...) / `...`   "${WAITSCOPE_TRACE}"
//   inside "..." or a here-document    ${WAITSCOPE_TRACE}
//   inside '...'                       "${WAITSCOPE_TRACE}" (literal here; a shell
//                                       that runs the string, sh -c '...', expands it)
// The expansion of a variable is never parsed as code, so whatever a name
// holds (quotes, $(), backquotes, ;, newlines, another {placeholder}) and
// whatever the context, it cannot run anything: at worst a misread context
// gives a wrong argument. Values are never scanned for placeholders.
//
// Comment lines (#SBATCH directives are read by Slurm, not by a shell) take
// a value only when it is a plain word ([A-Za-z0-9_./:=@%+,~-]); otherwise the
// line is left out, as is any line whose placeholder has an empty value
// (#SBATCH --account={account} with no account).
#include <QList>
#include <QString>

namespace waitscope::launch {

struct BatchTemplateValue {
  enum class Kind {
    Word,     // a number or a restricted word ([A-Za-z0-9_.:,+=@/-]); anything else counts as empty
    Path,     // a file name: a leading "~/" is the home directory, a leading "-" gets "./"
    Program,  // a program's path: a leading "~/" is the home directory
  };
  QString name;  // without the braces: "trace"
  QString text;
  Kind kind = Kind::Word;
};

// The variable that holds a Path or Program value: WAITSCOPE_ + the name in capitals.
QString batchTemplateVariable(const QString& name);

QString fillBatchTemplate(const QString& jobTemplate, const QList<BatchTemplateValue>& values);

}  // namespace waitscope::launch
