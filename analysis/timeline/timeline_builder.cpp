// Building the timeline index: one pass over each location's events, then the
// cross-location parts (message matching, incoming transfers), the report's
// instances and critical path, and the coarser region levels.
#include <algorithm>
#include <iterator>
#include <map>
#include <tuple>
#include <unordered_map>

#include "analysis/timeline/clock_corrected_trace.h"
#include "analysis/timeline/region_group.h"
#include "analysis/timeline/region_merge.h"
#include "analysis/timeline/timeline_index.h"
#include "analysis/trace/otf2_reader.h"

namespace waitscope::timeline {

using trace::EventKind;

namespace {

// Region levels: the first at trace duration / 2^20, each next 4x coarser, kept
// only when it has at most half the points of the previous kept level (so all
// levels together hold at most as many points as level 0).
constexpr double kFinestLevelFraction = 1.0 / 1048576.0;
constexpr double kCoarsestLevelFraction = 1.0 / 64.0;
constexpr std::size_t kMinPointsForLevel = 1024;

// A send or receive record before matching. `posted` orders the ends of one
// channel as MPI matches them: a send by its record (written at posting), a
// receive by its posting, which for MPI_Irecv is its request record, not the
// completion that carries the message.
struct MessageEnd {
  double time;
  std::uint32_t sender;
  std::uint32_t receiver;
  std::uint32_t comm;
  std::uint32_t tag;
  std::uint64_t bytes;
  std::uint64_t posted = 0;
};

bool sameChannel(const MessageEnd& a, const MessageEnd& b) {
  return a.sender == b.sender && a.receiver == b.receiver && a.comm == b.comm && a.tag == b.tag;
}
bool channelLess(const MessageEnd& a, const MessageEnd& b) {
  return std::tie(a.sender, a.receiver, a.comm, a.tag) < std::tie(b.sender, b.receiver, b.comm, b.tag);
}
bool channelThenPostingLess(const MessageEnd& a, const MessageEnd& b) {
  return std::tie(a.sender, a.receiver, a.comm, a.tag, a.posted) <
         std::tie(b.sender, b.receiver, b.comm, b.tag, b.posted);
}

// What the leave of an MPI call does to the epochs of its location.
enum class LeaveAction : std::uint8_t { None, Fence, CloseAccess, CloseExposure, ReleaseLock };

struct Frame {
  double enter;
  trace::CallPathId path;
  LeaveAction action = LeaveAction::None;
  std::uint32_t window = kNoId;
  std::uint32_t remote = kNoId;  // lock target (rank in the window's communicator)
};

using ReportPathKey = std::tuple<std::uint32_t, std::uint32_t, std::string, std::uint32_t>;

std::map<ReportPathKey, std::uint32_t> reportPathKeys(const report::Report& report) {
  std::map<ReportPathKey, std::uint32_t> keys;
  for (std::size_t i = 0; i < report.callPaths.size(); ++i) {
    const report::CallPath& c = report.callPaths[i];
    keys.emplace(ReportPathKey{c.parent, c.region, c.callSiteFile, c.callSiteLine}, static_cast<std::uint32_t>(i));
  }
  return keys;
}

// The report's id of every call path of `trace` (kUnknownCallPath where it has none).
std::vector<std::uint32_t> mapCallPaths(const trace::Trace& trace, const std::map<ReportPathKey, std::uint32_t>& keys) {
  std::vector<std::uint32_t> map(trace.callTree.size(), kUnknownCallPath);
  for (std::size_t i = 0; i < trace.callTree.size(); ++i) {
    const trace::CallPath& p = trace.callTree[static_cast<trace::CallPathId>(i)];
    std::uint32_t parent = report::kNoId;
    if (p.parent != trace::kNone) {
      if (p.parent >= i || map[p.parent] == kUnknownCallPath) continue;
      parent = map[p.parent];
    }
    std::string file;
    std::uint32_t line = 0;
    if (p.callSite != trace::kNone && p.callSite < trace.defs->sourceLocations.size()) {
      file = trace.defs->sourceLocations[p.callSite].file;
      line = trace.defs->sourceLocations[p.callSite].line;
    }
    const auto it = keys.find(ReportPathKey{parent, p.region, file, line});
    if (it != keys.end()) map[i] = it->second;
  }
  return map;
}

// World rank of `rank` in `comm` as seen by location `self` (MPI_COMM_SELF: itself).
std::uint32_t worldPeer(const trace::Definitions& defs, trace::CommId comm, trace::Rank rank, std::uint32_t self) {
  if (defs.isInterComm(comm)) return defs.peerWorldRank(comm, rank, self);
  if (comm < defs.comms.size()) {
    const trace::GroupId g = defs.comms[comm].group;
    if (g < defs.groups.size() && defs.groups[g].type == trace::GroupType::CommSelf) return self;
  }
  return defs.worldRank(comm, rank);
}

std::uint32_t windowPeer(const trace::Definitions& defs, trace::WinId win, std::uint32_t remote, std::uint32_t self) {
  if (remote == trace::kNone || win >= defs.windows.size()) return kNoId;
  return worldPeer(defs, defs.windows[win].comm, remote, self);
}

class IndexBuilder {
 public:
  explicit IndexBuilder(const report::Report& report)
      : report_(report), pathKeys_(reportPathKeys(report)) {
    index_.callPathGroups = callPathGroups(report);
    index_.locations.resize(report.locations.size());
  }

  void addLocation(const trace::Trace& trace, const trace::LocationEvents& events);
  TimelineIndex finish();

 private:
  // The row (report location) of every trace location: rank r is row r, the threads and
  // streams of hybrid traces follow in the report's order; kNoId for one the report lacks.
  const std::vector<std::uint32_t>& rowsOf(const trace::Definitions& defs) {
    if (!rows_.empty() || defs.locations.empty()) return rows_;
    rows_.assign(defs.locations.size(), kNoId);
    for (std::size_t r = 0; r < defs.worldLocations.size(); ++r)
      if (defs.worldLocations[r] < rows_.size()) rows_[defs.worldLocations[r]] = static_cast<std::uint32_t>(r);
    const std::vector<trace::LocationId> others = defs.otherLocationsByRank();
    for (std::size_t k = 0; k < others.size(); ++k) {
      const std::size_t row = defs.worldLocations.size() + k;
      if (row < report_.locations.size() && report_.locations[row].kind != report::LocationKind::Process)
        rows_[others[k]] = static_cast<std::uint32_t>(row);
    }
    return rows_;
  }
  // The row of the peer `remote` of an RMA record on `win`: a rank for MPI windows; for the
  // windows of other paradigms (Score-P's CUDA memory copies) a location of that paradigm.
  std::uint32_t rmaPeer(const trace::Definitions& defs, trace::WinId win, std::uint32_t remote, std::uint32_t self);

  struct PendingTransfers {
    std::vector<std::size_t> transfers;
    bool completed = false;  // a completion was seen: a new operation with this id starts a new list
  };
  struct LocationParts {
    std::vector<Collective> collectives;
    std::vector<Epoch> epochs;
  };

  void addEpoch(std::uint32_t loc, EpochKind kind, double start, double end, std::uint32_t window,
                std::uint32_t peer, std::uint8_t lockType) {
    Epoch e;
    e.start = start;
    e.end = end;
    e.window = window;
    e.peer = peer;
    e.kind = kind;
    e.lockType = lockType;
    parts_[loc].epochs.push_back(e);
  }
  void matchMessages();
  void addReportItems();
  void buildLevels(LocationTimeline& location) const;

  const report::Report& report_;
  std::map<ReportPathKey, std::uint32_t> pathKeys_;
  TimelineIndex index_;
  std::vector<LocationParts> parts_;
  std::uint64_t postings_ = 0;  // posting order of message ends, over all locations
  std::vector<MessageEnd> sends_;
  std::vector<MessageEnd> receives_;
  std::vector<Transfer> transfers_;
  std::vector<std::uint32_t> rows_;
  bool anyEvents_ = false;
};

std::uint32_t IndexBuilder::rmaPeer(const trace::Definitions& defs, trace::WinId win, std::uint32_t remote,
                                    std::uint32_t self) {
  if (win >= defs.windows.size() || defs.isMpiWindow(win)) return windowPeer(defs, win, remote, self);
  if (remote == trace::kNone) return kNoId;
  const trace::LocationId peer = defs.locationOfCommMember(defs.windows[win].comm, remote);
  const std::vector<std::uint32_t>& rows = rowsOf(defs);
  return peer < rows.size() ? rows[peer] : kNoId;
}

void IndexBuilder::addLocation(const trace::Trace& trace, const trace::LocationEvents& events) {
  const trace::Definitions& defs = trace.defs;
  const std::vector<std::uint32_t>& rows = rowsOf(defs);
  const std::uint32_t loc = events.location < rows.size() ? rows[events.location] : kNoId;
  if (loc == kNoId) return;
  if (loc >= index_.locations.size()) index_.locations.resize(loc + 1);
  if (parts_.size() < index_.locations.size()) parts_.resize(index_.locations.size());
  const std::vector<std::uint32_t> pathMap = mapCallPaths(trace, pathKeys_);
  const auto reportPath = [&](trace::CallPathId p) { return p < pathMap.size() ? pathMap[p] : kUnknownCallPath; };
  const auto regionName = [&](trace::CallPathId p) -> const std::string& {
    static const std::string kEmpty;
    if (p >= trace.callTree.size()) return kEmpty;
    const trace::RegionId r = trace.callTree[p].region;
    return r < defs.regions.size() ? defs.regions[r].name : kEmpty;
  };

  std::vector<RegionPoint> points;
  points.reserve(events.events.size() + 1);
  const auto setRegion = [&](double time, std::uint32_t callPath) {
    if (!points.empty() && points.back().start == time) points.pop_back();  // it lasted no time
    if (points.empty() ? callPath == kNoId : points.back().callPath == callPath) return;
    points.push_back({time, callPath, 1});
  };

  std::vector<Frame> stack;
  std::map<std::uint32_t, double> lastFenceEnter;   // window -> enter of its previous fence
  std::map<std::uint32_t, double> accessOpen;       // window -> enter of MPI_Win_start
  std::map<std::uint32_t, double> exposureOpen;     // window -> enter of MPI_Win_post
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<double, std::uint8_t>> lockOpen;  // (win, remote)
  std::map<std::uint32_t, std::uint64_t> collectiveSequence;  // comm -> next sequence number
  std::unordered_map<std::uint64_t, PendingTransfers> pendingTransfers;  // (win << 40) ^ matching id
  std::unordered_map<std::uint64_t, std::uint64_t> irecvPostings;        // request id -> posting order
  double collectiveBegin = -1.0;
  LocationParts& parts = parts_[loc];

  const auto transferKey = [](std::uint32_t win, std::uint64_t id) {
    return (static_cast<std::uint64_t>(win) << 40) ^ id;
  };
  const auto setLeaveAction = [&](LeaveAction action, std::uint32_t win, std::uint32_t remote) {
    if (stack.empty()) return;
    stack.back().action = action;
    stack.back().window = win;
    stack.back().remote = remote;
  };
  const auto callEnter = [&](double fallback) { return stack.empty() ? fallback : stack.back().enter; };

  for (const trace::Event& e : events.events) {
    switch (e.kind) {
      case EventKind::Enter:
        stack.push_back({e.time, e.ref});
        setRegion(e.time, reportPath(e.ref));
        break;
      case EventKind::Leave: {
        if (stack.empty()) break;
        const Frame f = stack.back();
        stack.pop_back();
        setRegion(e.time, stack.empty() ? kNoId : reportPath(stack.back().path));
        switch (f.action) {
          case LeaveAction::None:
            break;
          case LeaveAction::Fence: {
            const auto it = lastFenceEnter.find(f.window);
            if (it != lastFenceEnter.end()) addEpoch(loc, EpochKind::Fence, it->second, e.time, f.window, kNoId, 0);
            lastFenceEnter[f.window] = f.enter;
            break;
          }
          case LeaveAction::CloseAccess:
          case LeaveAction::CloseExposure: {
            auto& open = f.action == LeaveAction::CloseAccess ? accessOpen : exposureOpen;
            const auto it = open.find(f.window);
            if (it != open.end()) {
              addEpoch(loc, f.action == LeaveAction::CloseAccess ? EpochKind::Access : EpochKind::Exposure,
                       it->second, e.time, f.window, kNoId, 0);
              open.erase(it);
            }
            break;
          }
          case LeaveAction::ReleaseLock: {
            const auto it = lockOpen.find({f.window, f.remote});
            if (it != lockOpen.end()) {
              addEpoch(loc, f.remote == trace::kNone ? EpochKind::LockAll : EpochKind::Lock, it->second.first,
                       e.time, f.window, rmaPeer(defs, f.window, f.remote, loc), it->second.second);
              lockOpen.erase(it);
            }
            break;
          }
        }
        break;
      }
      case EventKind::MpiSend:
      case EventKind::MpiIsend: {
        const trace::MessageRecord& m = events.message(e);
        sends_.push_back({e.time, loc, worldPeer(defs, m.comm, m.peer, loc), m.comm, m.tag, m.bytes, postings_++});
        break;
      }
      case EventKind::MpiIrecvRequest:
        irecvPostings[events.message(e).request] = postings_++;
        break;
      case EventKind::MpiRecv:
      case EventKind::MpiIrecv: {
        const trace::MessageRecord& m = events.message(e);
        std::uint64_t posted = postings_++;
        if (e.kind == EventKind::MpiIrecv) {
          if (const auto it = irecvPostings.find(m.request); it != irecvPostings.end()) {
            posted = it->second;
            irecvPostings.erase(it);
          }
        }
        receives_.push_back({e.time, worldPeer(defs, m.comm, m.peer, loc), loc, m.comm, m.tag, m.bytes, posted});
        break;
      }
      case EventKind::MpiCollectiveBegin:
        collectiveBegin = e.time;
        break;
      case EventKind::MpiCollectiveEnd: {
        const trace::CollectiveRecord& c = events.collective(e);
        Collective out;
        out.start = collectiveBegin >= 0.0 ? collectiveBegin : callEnter(e.time);
        out.end = e.time;
        out.comm = c.object;
        out.root = c.root;
        out.sequence = collectiveSequence[c.object]++;
        out.bytes = c.sent + c.received;
        out.op = static_cast<std::uint8_t>(c.op);
        parts.collectives.push_back(out);
        collectiveBegin = -1.0;
        break;
      }
      case EventKind::RmaCollectiveEnd: {
        const trace::CollectiveRecord& c = events.collective(e);
        if (c.op == trace::CollectiveOp::Barrier) {
          setLeaveAction(LeaveAction::Fence, c.object, trace::kNone);
        } else if (c.op == trace::CollectiveOp::DestroyHandle ||
                   c.op == trace::CollectiveOp::DestroyHandleAndDeallocate) {
          lastFenceEnter.erase(c.object);
        }
        break;
      }
      case EventKind::RmaGroupSync: {
        const trace::RmaRecord& r = events.rmaRecord(e);
        const std::string& call = stack.empty() ? std::string() : regionName(stack.back().path);
        if (call == "MPI_Win_start") {
          accessOpen[r.win] = callEnter(e.time);
        } else if (call == "MPI_Win_post") {
          exposureOpen[r.win] = callEnter(e.time);
        } else if (call == "MPI_Win_complete") {
          setLeaveAction(LeaveAction::CloseAccess, r.win, trace::kNone);
        } else if ((call == "MPI_Win_wait" || call == "MPI_Win_test") && r.syncLevel != trace::kSyncNone) {
          setLeaveAction(LeaveAction::CloseExposure, r.win, trace::kNone);
        }
        break;
      }
      case EventKind::RmaRequestLock:
      case EventKind::RmaAcquireLock:
      case EventKind::RmaTryLock: {
        const trace::RmaRecord& r = events.rmaRecord(e);
        lockOpen.try_emplace({r.win, r.remote}, callEnter(e.time), r.lockType);
        break;
      }
      case EventKind::RmaReleaseLock: {
        const trace::RmaRecord& r = events.rmaRecord(e);
        setLeaveAction(LeaveAction::ReleaseLock, r.win, r.remote);
        break;
      }
      case EventKind::RmaPut:
      case EventKind::RmaGet:
      case EventKind::RmaAtomic: {
        const trace::RmaRecord& r = events.rmaRecord(e);
        Transfer t;
        t.start = t.end = e.time;
        t.origin = loc;
        t.target = rmaPeer(defs, r.win, r.remote, loc);
        t.window = r.win;
        t.kind = e.kind == EventKind::RmaPut   ? TransferKind::Put
                 : e.kind == EventKind::RmaGet ? TransferKind::Get
                                               : TransferKind::Atomic;
        t.bytes = e.kind == EventKind::RmaGet ? std::max(r.bytes, r.received) : r.bytes;
        PendingTransfers& p = pendingTransfers[transferKey(r.win, r.matchingId)];
        if (p.completed) {
          p.transfers.clear();
          p.completed = false;
        }
        p.transfers.push_back(transfers_.size());
        transfers_.push_back(t);
        break;
      }
      case EventKind::RmaOpCompleteBlocking:
      case EventKind::RmaOpCompleteNonBlocking:
      case EventKind::RmaOpCompleteRemote: {
        const trace::RmaRecord& r = events.rmaRecord(e);
        const auto it = pendingTransfers.find(transferKey(r.win, r.matchingId));
        if (it == pendingTransfers.end()) break;
        for (std::size_t t : it->second.transfers) transfers_[t].end = std::max(transfers_[t].end, e.time);
        if (e.kind == EventKind::RmaOpCompleteRemote)
          pendingTransfers.erase(it);
        else
          it->second.completed = true;
        break;
      }
      default:
        break;
    }
  }
  if (!events.events.empty()) {
    const double first = events.events.front().time;
    const double last = events.events.back().time;
    index_.begin = anyEvents_ ? std::min(index_.begin, first) : first;
    index_.end = anyEvents_ ? std::max(index_.end, last) : last;
    anyEvents_ = true;
    // Epochs still open at the end of the trace end with it.
    for (const auto& [win, start] : accessOpen) addEpoch(loc, EpochKind::Access, start, last, win, kNoId, 0);
    for (const auto& [win, start] : exposureOpen) addEpoch(loc, EpochKind::Exposure, start, last, win, kNoId, 0);
    for (const auto& [key, open] : lockOpen)
      addEpoch(loc, key.second == trace::kNone ? EpochKind::LockAll : EpochKind::Lock, open.first, last, key.first,
               rmaPeer(defs, key.first, key.second, loc), open.second);
    if (!points.empty() && points.back().callPath != kNoId) points.push_back({last, kNoId, 1});
  }
  LocationTimeline& out = index_.locations[loc];
  out.levels.clear();
  out.levels.emplace_back(0.0, std::move(points));
}

void IndexBuilder::matchMessages() {
  // MPI's non-overtaking rule: the n-th send posted on a (sender, receiver, comm,
  // tag) channel matches the n-th receive posted on it.
  std::sort(sends_.begin(), sends_.end(), channelThenPostingLess);
  std::sort(receives_.begin(), receives_.end(), channelThenPostingLess);
  std::vector<std::vector<Message>> out(index_.locations.size()), in(index_.locations.size());
  std::size_t s = 0, r = 0;
  while (s < sends_.size() && r < receives_.size()) {
    if (channelLess(sends_[s], receives_[r])) {
      ++s;
    } else if (channelLess(receives_[r], sends_[s])) {
      ++r;
    } else {
      const MessageEnd channel = sends_[s];
      for (; s < sends_.size() && r < receives_.size() && sameChannel(sends_[s], channel) &&
             sameChannel(receives_[r], channel);
           ++s, ++r) {
        Message m;
        m.start = sends_[s].time;
        m.end = receives_[r].time;
        m.sender = channel.sender;
        m.receiver = channel.receiver;
        m.tag = channel.tag;
        m.comm = channel.comm;
        m.bytes = std::max(sends_[s].bytes, receives_[r].bytes);
        if (m.sender < out.size()) out[m.sender].push_back(m);
        if (m.receiver < in.size()) in[m.receiver].push_back(m);
      }
      // What is left of this channel on either side has no partner.
      while (s < sends_.size() && sameChannel(sends_[s], channel)) ++s;
      while (r < receives_.size() && sameChannel(receives_[r], channel)) ++r;
    }
  }
  for (std::size_t l = 0; l < index_.locations.size(); ++l) {
    index_.locations[l].sends.assign(std::move(out[l]));
    index_.locations[l].receives.assign(std::move(in[l]));
  }
  sends_ = {};
  receives_ = {};
}

void IndexBuilder::addReportItems() {
  const std::size_t n = index_.locations.size();
  std::vector<std::vector<InstanceMark>> instances(n);
  for (const report::Instance& i : report_.instances) {
    if (i.location >= n) continue;
    InstanceMark m;
    m.start = i.start;
    m.end = i.end;
    m.metric = i.metric;
    m.callPath = i.callPath;
    m.cause = i.cause;
    instances[i.location].push_back(m);
  }
  std::vector<std::uint32_t> order(report_.criticalPath.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return report_.criticalPath[a].start < report_.criticalPath[b].start;
  });
  std::vector<std::vector<PathMark>> path(n);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const report::PathSegment& s = report_.criticalPath[order[k]];
    if (s.location >= n) continue;
    path[s.location].push_back({s.start, s.end, s.callPath, static_cast<std::uint32_t>(k)});
  }
  for (std::size_t l = 0; l < n; ++l) {
    index_.locations[l].instances.assign(std::move(instances[l]));
    index_.locations[l].path.assign(std::move(path[l]));
  }
}

// Appends the spans as points: a gap point where a span does not reach the next.
void appendAsPoints(const std::vector<RegionSpan>& spans, std::vector<RegionPoint>& points) {
  for (std::size_t i = 0; i < spans.size(); ++i) {
    points.push_back({spans[i].start, spans[i].callPath, spans[i].merged});
    if (i + 1 == spans.size() || spans[i + 1].start != spans[i].end) points.push_back({spans[i].end, kNoId, 1});
  }
}

void IndexBuilder::buildLevels(LocationTimeline& location) const {
  const double duration = index_.end - index_.begin;
  if (!(duration > 0.0)) return;
  std::vector<RegionSpan> spans;
  RegionMerger merger;
  std::size_t source = 0;
  for (double resolution = duration * kFinestLevelFraction;
       location.levels[source].points().size() >= kMinPointsForLevel && resolution <= duration * kCoarsestLevelFraction;
       resolution *= 4.0) {
    const std::span<const RegionPoint> from = location.levels[source].points();
    spans.clear();
    merger.begin(&spans, index_.begin, resolution);
    for (std::size_t i = 0; i + 1 < from.size(); ++i)
      merger.add(from[i].start, from[i + 1].start, from[i].callPath, from[i].merged);
    merger.finish();
    std::vector<RegionPoint> points;
    appendAsPoints(spans, points);
    if (points.size() * 2 <= from.size()) {
      points.shrink_to_fit();
      location.levels.emplace_back(resolution, std::move(points));
      source = location.levels.size() - 1;
    }
  }
}

TimelineIndex IndexBuilder::finish() {
  parts_.resize(index_.locations.size());
  matchMessages();
  std::vector<std::vector<Transfer>> outgoing(index_.locations.size()), incoming(index_.locations.size());
  for (const Transfer& t : transfers_) {
    outgoing[t.origin].push_back(t);
    if (t.target < incoming.size() && t.target != t.origin) incoming[t.target].push_back(t);
  }
  transfers_ = {};
  for (std::size_t l = 0; l < index_.locations.size(); ++l) {
    LocationTimeline& loc = index_.locations[l];
    if (loc.levels.empty()) loc.levels.emplace_back(0.0, std::vector<RegionPoint>());
    loc.outgoing.assign(std::move(outgoing[l]));
    loc.incoming.assign(std::move(incoming[l]));
    loc.collectives.assign(std::move(parts_[l].collectives));
    loc.epochs.assign(std::move(parts_[l].epochs));
    buildLevels(loc);
  }
  addReportItems();
  buildListLevels(index_);
  return std::move(index_);
}

}  // namespace

void buildListLevels(TimelineIndex& index) {
  const double duration = index.end - index.begin;
  for (LocationTimeline& l : index.locations) {
    l.sends.buildLevels(index.begin, duration);
    l.receives.buildLevels(index.begin, duration);
    l.collectives.buildLevels(index.begin, duration);
    l.epochs.buildLevels(index.begin, duration);
    l.outgoing.buildLevels(index.begin, duration);
    l.incoming.buildLevels(index.begin, duration);
    l.instances.buildLevels(index.begin, duration);
    l.path.buildLevels(index.begin, duration);
  }
}

std::uint64_t TimelineIndex::itemCount() const {
  std::uint64_t n = 0;
  for (const LocationTimeline& l : locations) {
    for (const RegionLevel& level : l.levels) n += level.points().size();
    n += l.sends.size() + l.receives.size() + l.collectives.size() + l.epochs.size() + l.outgoing.size() +
         l.incoming.size() + l.instances.size() + l.path.size();
  }
  return n;
}

std::size_t TimelineIndex::memoryBytes() const {
  std::size_t bytes = callPathGroups.capacity();
  for (const LocationTimeline& l : locations) {
    for (const RegionLevel& level : l.levels) bytes += level.heapBytes();
    bytes += l.sends.memoryBytes() + l.receives.memoryBytes() + l.collectives.memoryBytes() +
             l.epochs.memoryBytes() + l.outgoing.memoryBytes() + l.incoming.memoryBytes() +
             l.instances.memoryBytes() + l.path.memoryBytes();
  }
  return bytes;
}

namespace {

// A rank's events with its RMA records of other paradigms (hybrid traces: the memory copies
// Score-P writes on the host thread) merged in by time, so that they become transfers too.
trace::LocationEvents withOtherParadigmRecords(const trace::LocationEvents& rank, const trace::LocationEvents& other) {
  trace::LocationEvents out = rank;
  const auto offset = static_cast<std::uint32_t>(out.rma.size());
  for (std::size_t k = 0; k < other.rma.size(); ++k) out.rma.push_back(other.rma[k]);
  std::vector<trace::Event> extra = other.events;
  for (trace::Event& e : extra) e.ref += offset;
  std::vector<trace::Event> merged;
  merged.reserve(out.events.size() + extra.size());
  std::merge(out.events.begin(), out.events.end(), extra.begin(), extra.end(), std::back_inserter(merged),
             [](const trace::Event& a, const trace::Event& b) { return a.time < b.time; });
  out.events = std::move(merged);
  return out;
}

// Every location the trace holds: the ranks, then their threads and streams.
void addLoaded(IndexBuilder& builder, const trace::Trace& trace) {
  for (std::size_t r = 0; r < trace.locations.size(); ++r) {
    if (r < trace.otherParadigmRecords.size() && !trace.otherParadigmRecords[r].events.empty())
      builder.addLocation(trace, withOtherParadigmRecords(trace.locations[r], trace.otherParadigmRecords[r]));
    else
      builder.addLocation(trace, trace.locations[r]);
  }
  for (const trace::LocationEvents& events : trace.threadLocations) builder.addLocation(trace, events);
}

}  // namespace

TimelineIndex buildTimelineIndex(const trace::Trace& trace, const report::Report& report,
                                 const std::vector<trace::LocationClockCorrection>* corrections) {
  IndexBuilder builder(report);
  if (corrections) {
    trace::Trace corrected = trace;
    applyClockCorrections(corrected, *corrections);
    addLoaded(builder, corrected);
  } else {
    addLoaded(builder, trace);
  }
  return builder.finish();
}

TimelineIndex buildTimelineIndex(const std::string& tracePath, const report::Report& report,
                                 const std::vector<trace::LocationClockCorrection>* corrections,
                                 std::size_t ranksPerRead) {
  trace::ReadOptions options;
  options.warn = [](const std::string&) {};  // the analyzer has shown the trace's warnings already
  options.definitionsOnly = true;
  const trace::Trace definitions = trace::readTrace(tracePath, options);
  options.definitionsOnly = false;
  const trace::Definitions& defs = *definitions.defs;
  const auto eventsOf = [&](trace::Rank r) {
    const trace::LocationId l = defs.worldLocations[r];
    return l < defs.locations.size() ? defs.locations[l].eventCount : 0;
  };
  IndexBuilder builder(report);
  const auto ranks = static_cast<trace::Rank>(defs.worldLocations.size());
  std::vector<trace::Rank> block;
  for (trace::Rank first = 0; first < ranks; first += static_cast<trace::Rank>(block.size())) {
    block.assign(1, first);
    std::uint64_t events = eventsOf(first);
    for (trace::Rank r = first + 1; r < ranks && block.size() < ranksPerRead; ++r) {
      if (events + eventsOf(r) > kEventsPerRead) break;
      events += eventsOf(r);
      block.push_back(r);
    }
    for (trace::Trace& one : trace::readTraceRanksEach(tracePath, block, options)) {
      if (corrections) applyClockCorrections(one, *corrections);
      addLoaded(builder, one);
    }
  }
  return builder.finish();
}

}  // namespace waitscope::timeline
