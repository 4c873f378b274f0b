#include "app/remote_timeline.h"

#include <algorithm>
#include <string_view>

#include <QEventLoop>

#include "analysis/timeline/slice_format.h"
#include "app/launch/report_tool_call.h"
#include "app/launch/shell_command.h"
#include "app/launch/shell_job.h"

namespace waitscope::app {

namespace {

// One line, ending with a full stop.
QString sentence(QString text) {
  text = text.simplified();
  if (text.isEmpty()) text = QStringLiteral("no answer");
  if (!text.endsWith(QLatin1Char('.'))) text += QLatin1Char('.');
  return text;
}

QString number(double t) { return QString::number(t, 'g', 17); }

// "0-3,7" from the locations, in increasing order.
QString locationRanges(std::vector<std::uint32_t> locations) {
  std::sort(locations.begin(), locations.end());
  locations.erase(std::unique(locations.begin(), locations.end()), locations.end());
  QString out;
  for (std::size_t i = 0; i < locations.size();) {
    std::size_t j = i;
    while (j + 1 < locations.size() && locations[j + 1] == locations[j] + 1) ++j;
    if (!out.isEmpty()) out += QLatin1Char(',');
    out += j == i ? QString::number(locations[i]) : QStringLiteral("%1-%2").arg(locations[i]).arg(locations[j]);
    i = j + 1;
  }
  return out;
}

// A file name from the origin file as one argument that is never an option.
QString operand(const QString& path) { return path.startsWith(QLatin1Char('-')) ? QStringLiteral("./") + path : path; }

timeline::Slice parse(const QByteArray& bytes) {
  return timeline::parseBinarySlice(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

}  // namespace

// ---------------------------------------------------------------- the source

RemoteSliceSource::RemoteSliceSource(ConnectionProfile profile, RemoteOrigin origin, double begin, double end,
                                     std::uint32_t locations, std::vector<timeline::RegionGroup> callPathGroups)
    : AsyncSliceSource(begin, end, locations, std::move(callPathGroups)),
      profile_(std::move(profile)),
      origin_(std::move(origin)) {}

RemoteSliceSource::~RemoteSliceSource() { launch::stopChildProcesses(this); }  // no callback into a dead source

QStringList RemoteSliceSource::arguments(const RemoteOrigin& origin, const timeline::SliceRequest& request) {
  QStringList args{QStringLiteral("timeline"), operand(origin.trace), operand(origin.report),
                   QStringLiteral("--from"),   number(request.from),   QStringLiteral("--to"),
                   number(request.to),         QStringLiteral("--width"), QString::number(request.width)};
  if (!request.locations.empty()) args << QStringLiteral("--locations") << locationRanges(request.locations);
  args << QStringLiteral("--binary");
  return args;
}

void RemoteSliceSource::startFetch(std::uint64_t ticket, const timeline::SliceRequest& request) {
  const QString host = profile_.displayHost();
  launch::runReportTool(profile_, arguments(origin_, request), sliceTimeoutMs_, this,
                        [this, ticket, host](const QByteArray& out, const QString& error) {
                          QString problem;
                          if (error.isEmpty()) {
                            try {
                              return fetchFinished(ticket, parse(out));
                            } catch (const std::exception& e) {
                              problem = QStringLiteral("the answer was damaged (%1)").arg(QString::fromStdString(e.what()));
                            }
                          } else {
                            problem = error;
                          }
                          fetchFailed(ticket, QStringLiteral("Timeline slices from %1 failed: %2 Check the connection "
                                                             "(File > Connection Profiles…), then zoom or pan to ask again.")
                                                  .arg(host, sentence(problem))
                                                  .toStdString());
                        });
}

void RemoteSliceSource::open(const ConnectionProfile& profile, const RemoteOrigin& origin,
                             std::vector<timeline::RegionGroup> callPathGroups, QObject* context, Opened done,
                             int openTimeoutMs) {
  if (const QString problem = launch::profileProblem(profile); !problem.isEmpty()) {
    done(nullptr, problem);
    return;
  }
  const QStringList args{QStringLiteral("timeline"), operand(origin.trace), operand(origin.report),
                         QStringLiteral("--width"),  QStringLiteral("1"),   QStringLiteral("--binary")};
  launch::runReportTool(
      profile, args, openTimeoutMs, context,
      [profile, origin, groups = std::move(callPathGroups), done = std::move(done)](const QByteArray& out,
                                                                                    const QString& error) {
        const QString host = profile.displayHost();
        const auto fail = [&](const QString& why) {
          done(nullptr, QStringLiteral("The timeline of %1 on %2 could not be opened: %3 Check that the trace and the "
                                       "report are still there and that the connection works (File > Connection "
                                       "Profiles…), then open the report again.")
                            .arg(origin.trace, host, sentence(why)));
        };
        if (!error.isEmpty()) return fail(error);
        try {
          const timeline::Slice whole = parse(out);
          if (!(whole.to > whole.from) || whole.locations.empty())
            return fail(QStringLiteral("the trace has no events"));
          done(std::make_shared<RemoteSliceSource>(profile, origin, whole.from, whole.to,
                                                   static_cast<std::uint32_t>(whole.locations.size()), groups),
               {});
        } catch (const std::exception& e) {
          fail(QStringLiteral("the answer was damaged (%1)").arg(QString::fromStdString(e.what())));
        }
      });
}

std::shared_ptr<RemoteSliceSource> RemoteSliceSource::openNow(const ConnectionProfile& profile,
                                                              const RemoteOrigin& origin,
                                                              std::vector<timeline::RegionGroup> callPathGroups,
                                                              QString* error, int openTimeoutMs) {
  QEventLoop loop;
  std::shared_ptr<RemoteSliceSource> opened;
  bool done = false;
  open(profile, origin, std::move(callPathGroups), &loop,
       [&](std::shared_ptr<RemoteSliceSource> source, const QString& why) {
         opened = std::move(source);
         if (error) *error = why;
         done = true;
         loop.quit();
       },
       openTimeoutMs);
  if (!done) loop.exec();  // the job's timeout ends it
  return opened;
}

}  // namespace waitscope::app
