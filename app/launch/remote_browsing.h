#pragma once
// Browsing the file system of a profile's machine for "Analyze trace…" (over
// the same ssh connection as the analysis), and the default rank count of a
// trace (`waitscope-report stats TRACE --json` there).
#include <functional>

#include <QString>
#include <QStringList>

#include "app/launch/connection_profile.h"

class QObject;

namespace waitscope::launch {

struct DirectoryListing {
  QString path;             // absolute, as the machine names it
  QStringList directories;  // names without the trailing "/", "." and ".." left out
  QStringList files;
  QString error;            // empty on success
};

// Lists `directory` (empty: the working directory, or home). `done` runs once.
void listDirectory(const ConnectionProfile& profile, const QString& directory, QObject* context,
                   std::function<void(const DirectoryListing&)> done);

// Parses the output of the listing script (first line the path, then entries; directories end in "/").
DirectoryListing parseListing(const QByteArray& output);

// The trace's location count (its MPI ranks), or -1 and `error`.
void traceRankCount(const ConnectionProfile& profile, const QString& trace, QObject* context,
                    std::function<void(int ranks, const QString& error)> done);

// Reads "locations" from `waitscope-report stats --json` output; -1 when absent.
int parseStatsLocations(const QByteArray& json);

}  // namespace waitscope::launch
