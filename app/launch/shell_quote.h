#pragma once
// Quoting for POSIX shells. Everything that reaches a remote (or local) shell
// from a file name, path or number goes through these, so a crafted name such
// as "x'; rm -rf ~; '" stays one literal word.
#include <QString>
#include <QStringList>

namespace waitscope::launch {

// One shell word that expands to exactly `text` (single quotes; a quote becomes '\'').
// Plain words made only of [A-Za-z0-9_./:=@%+,-] stay unquoted for readable logs.
QString shellQuote(const QString& text);

// Like shellQuote, but a leading "~/" (or a lone "~") stays unquoted so the remote
// shell expands it to the home directory; the rest of the path is quoted.
QString shellQuotePath(const QString& path);

// Words quoted and joined with spaces.
QString shellJoin(const QStringList& words);

}  // namespace waitscope::launch
