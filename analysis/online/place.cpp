#include "analysis/online/place.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "analysis/online/channel_selection.h"
#include "analysis/online/collective_aggregation.h"
#include "analysis/online/live_report.h"
#include "analysis/online/message_matcher.h"
#include "analysis/online/tree_layout.h"
#include "analysis/online/wait_totals.h"
#include "analysis/report/timestamped_name.h"
#include "analysis/report/report_io.h"

namespace waitscope::online {
namespace {

double seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void mergeStats(PlaceStats& into, const PlaceStats& s) {
  into.peakMemory = std::max(into.peakMemory, s.peakMemory);
  into.peakMatching = std::max(into.peakMatching, s.peakMatching);
  into.messages += s.messages;
  into.emptyProbes += s.emptyProbes;
  into.pauseRequests += s.pauseRequests;
}

class Place {
 public:
  Place(const Config& c, MPI_Comm tool, int worldRank)
      : config_(c),
        layout_(c.appRanks, c.fanIn),
        tool_(tool),
        me_(layout_.placeOfWorldRank(worldRank)),
        first_(layout_.firstLayer(me_)),
        root_(me_ == layout_.root()),
        children_(layout_.children(me_)),
        selector_(c.selection, c.alpha, c.beta, channels()),
        matcher_(totals_),
        pauseLevel_(c.sigma) {
    childDone_.assign(children_.size(), false);
    childStats_.assign(children_.size(), PlaceStats{});
    intraOut_.resize(static_cast<std::size_t>(layout_.firstLayerPlaces()));
    if (root_) trees_.resize(static_cast<std::size_t>(c.appRanks));
    output_ = c.output.empty() ? report::timestampedName("waitscope-online-%Y%m%d-%H%M%S.waitscope") : c.output;
  }

  int run() {
    start_ = lastSnapshot_ = seconds();
    if (root_) writeStatus("running", "");
    unsigned sleepUs = 0;
    while (!done_) {
      const Channel& ch = selector_.channels()[selector_.next()];
      // Between its pause request and the pause, a place takes nothing more from its application
      // ranks: their channels fill and block them, and what it holds can drain (docs/online.md).
      const bool holding = first_ && requested_ && !pausedSeen_ && ch.direction == Direction::Application;
      if (!holding && receive(ch)) {
        sleepUs = 0;
      } else {
        ++stats_.emptyProbes;
        selector_.empty();
        if (selector_.idle()) {
          checkMemory();
          progress();
          // Nothing anywhere: give the (possibly oversubscribed) cores to the application.
          sleepUs = std::min(1000u, sleepUs ? sleepUs * 2 : 20u);
          usleep(sleepUs);
        }
      }
      if (seconds() - lastSnapshot_ >= config_.snapshotSeconds) snapshot();
      progress();
      completeSends(false);
    }
    completeSends(true);
    return root_ ? finish() : 0;
  }

 private:
  // --- channels and receiving -----------------------------------------------------------------
  std::vector<Channel> channels() const {
    std::vector<Channel> out;
    for (const int c : children_)
      out.push_back(first_ ? Channel{Direction::Application, c, MPI_ANY_TAG}
                           : Channel{Direction::Application, layout_.worldRankOfPlace(c), kTagUp});
    if (first_ && layout_.firstLayerPlaces() > 1) out.push_back({Direction::Intralayer, MPI_ANY_SOURCE, kTagIntra});
    if (!root_) out.push_back({Direction::Root, layout_.worldRankOfPlace(layout_.parent(me_)), kTagDown});
    return out;
  }

  bool receive(const Channel& ch) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(ch.source, ch.tag, tool_, &flag, &st);
    if (!flag) return false;
    int bytes = 0;
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    buf_.resize(static_cast<std::size_t>(bytes));
    MPI_Recv(buf_.data(), bytes, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, tool_, MPI_STATUS_IGNORE);
    ++stats_.messages;
    const std::size_t before = memory();
    raisedEvents_ = 0;
    switch (st.MPI_TAG) {
      case kTagEvents: onEvents(st.MPI_SOURCE); break;
      case kTagTree: forwardTree(static_cast<std::uint32_t>(st.MPI_SOURCE), buf_.data(), buf_.size()); break;
      case kTagUp: onUp(st.MPI_SOURCE); break;
      case kTagDown: onDown(); break;
      case kTagIntra: onIntra(); break;
      default: break;
    }
    flush();
    // alpha per event that raised memory (the paper counts events; a batch carries many)
    selector_.delivered(raisedEvents_ ? raisedEvents_ : (memory() > before ? 1 : 0));
    checkMemory();
    return true;
  }

  template <class T>
  const T* items(std::size_t& count) const {
    count = (buf_.size() - sizeof(PacketHeader)) / sizeof(T);
    return reinterpret_cast<const T*>(buf_.data() + sizeof(PacketHeader));
  }
  PacketHeader header() const {
    PacketHeader h{};
    if (buf_.size() >= sizeof h) std::memcpy(&h, buf_.data(), sizeof h);
    return h;
  }

  void onEvents(int app) {
    const std::size_t n = buf_.size() / sizeof(Event);
    const Event* ev = reinterpret_cast<const Event*>(buf_.data());
    for (std::size_t i = 0; i < n; ++i) {
      const Event& e = ev[i];
      const std::size_t before = memory();
      switch (e.kind) {
        case EventKind::Send: {
          if (e.peer < 0 || e.peer >= config_.appRanks) break;
          const int dest = layout_.placeOfApp(e.peer);
          if (dest == me_) matcher_.send(e);
          else intraOut_[static_cast<std::size_t>(dest)].push_back(e);
          break;
        }
        case EventKind::Recv:
          matcher_.receive(e);
          break;
        case EventKind::Collective:
          collectives_.addMember(e);
          break;
        case EventKind::Finish:
          childDone_[childIndex(app)] = true;
          ++appsFinished_;
          break;
      }
      if (memory() > before) ++raisedEvents_;
    }
    sendRaw(app, kTagAck, {});  // the channel slot is free again
  }

  void forwardTree(std::uint32_t app, const char* data, std::size_t size) {
    if (root_) trees_[app].assign(data, size);
    else sendPacket(parentWorld(), kTagUp, PacketKind::Tree, app, data, size);
  }

  void onUp(int source) {
    const PacketHeader h = header();
    const char* payload = buf_.data() + sizeof h;
    const std::size_t size = buf_.size() - sizeof h;
    const std::size_t child = childIndex(layout_.placeOfWorldRank(source));
    switch (h.kind) {
      case PacketKind::Partial: {
        std::size_t n = 0;
        const Partial* p = items<Partial>(n);
        if (root_) complete(p, n);
        else for (std::size_t i = 0; i < n; ++i) collectives_.addPartial(p[i]);
        break;
      }
      case PacketKind::Tree: forwardTree(h.count, payload, size); break;
      case PacketKind::Metrics:
      case PacketKind::FinalMetrics: {
        PlaceStats s;
        std::memcpy(&s, payload, sizeof s);
        childStats_[child] = s;
        const auto* v = reinterpret_cast<const MetricValue*>(payload + sizeof s);
        for (std::size_t i = 0; i < (size - sizeof s) / sizeof(MetricValue); ++i) totals_.add(v[i]);
        if (h.kind == PacketKind::FinalMetrics) ++finals_;
        break;
      }
      case PacketKind::PauseRequest: requestPause(); break;
      case PacketKind::ResumeRequest: requestResume(); break;
      case PacketKind::SubtreeDone: childDone_[child] = true; ++childrenDone_; break;
      default: break;
    }
  }

  void onDown() {
    const PacketHeader h = header();
    switch (h.kind) {
      case PacketKind::Result: {
        std::size_t n = 0;
        const Partial* p = items<Partial>(n);
        apply(p, n);
        break;
      }
      case PacketKind::Pause: paused(true); break;
      case PacketKind::Resume: paused(false); break;
      case PacketKind::Shutdown:
        if (!first_) forwardDown(PacketKind::Shutdown, nullptr, 0);
        shutdown_ = true;
        break;
      default: break;
    }
  }

  void onIntra() {
    const PacketHeader h = header();
    if (h.kind == PacketKind::IntraDone) {
      ++intraDone_;
      return;
    }
    std::size_t n = 0;
    const Event* e = items<Event>(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t before = memory();
      matcher_.send(e[i]);
      if (memory() > before) ++raisedEvents_;
    }
  }

  // --- collective instances -------------------------------------------------------------------
  // The root merges deltas; complete instances go down to every member's place.
  void complete(const Partial* p, std::size_t n) {
    std::vector<Partial> done;
    for (std::size_t i = 0; i < n; ++i) {
      Partial total;
      if (completion_.add(p[i], total)) done.push_back(total);
    }
    if (!done.empty()) apply(done.data(), done.size());
  }

  void apply(const Partial* p, std::size_t n) {
    if (first_) {
      for (std::size_t i = 0; i < n; ++i) collectives_.applyResult(p[i], totals_);
    } else {
      forwardDown(PacketKind::Result, p, n * sizeof(Partial));
    }
  }

  // --- sending --------------------------------------------------------------------------------
  struct Pending {
    MPI_Request request;
    std::vector<char> data;
  };

  void sendRaw(int dest, int tag, std::vector<char> data) {
    pending_.push_back({MPI_REQUEST_NULL, std::move(data)});
    Pending& p = pending_.back();
    MPI_Isend(p.data.data(), static_cast<int>(p.data.size()), MPI_BYTE, dest, tag, tool_, &p.request);
  }

  void sendPacket(int dest, int tag, PacketKind kind, std::uint32_t count, const void* payload, std::size_t bytes,
                  const void* prefix = nullptr, std::size_t prefixBytes = 0) {
    std::vector<char> data(sizeof(PacketHeader) + prefixBytes + bytes);
    const PacketHeader h{kind, count};
    std::memcpy(data.data(), &h, sizeof h);
    if (prefixBytes) std::memcpy(data.data() + sizeof h, prefix, prefixBytes);
    if (bytes) std::memcpy(data.data() + sizeof h + prefixBytes, payload, bytes);
    sendRaw(dest, tag, std::move(data));
  }

  void forwardDown(PacketKind kind, const void* payload, std::size_t bytes) {
    for (const int c : children_)
      sendPacket(layout_.worldRankOfPlace(c), kTagDown, kind, static_cast<std::uint32_t>(bytes), payload, bytes);
  }

  void completeSends(bool all) {
    while (!pending_.empty()) {
      int flag = 0;
      if (all) MPI_Wait(&pending_.front().request, MPI_STATUS_IGNORE), flag = 1;
      else MPI_Test(&pending_.front().request, &flag, MPI_STATUS_IGNORE);
      if (!flag) return;
      pending_.pop_front();
    }
  }

  // What the last message produced for others: sends for other places' matching, and
  // collective partials for the parent (the root completes them itself).
  void flush() {
    for (std::size_t p = 0; p < intraOut_.size(); ++p) {
      auto& out = intraOut_[p];
      if (out.empty()) continue;
      sendPacket(layout_.worldRankOfPlace(static_cast<int>(p)), kTagIntra, PacketKind::Sends,
                 static_cast<std::uint32_t>(out.size()), out.data(), out.size() * sizeof(Event));
      out.clear();
    }
    const std::vector<Partial> deltas = collectives_.takeDeltas();
    if (deltas.empty()) return;
    if (root_) complete(deltas.data(), deltas.size());
    else sendPacket(parentWorld(), kTagUp, PacketKind::Partial, static_cast<std::uint32_t>(deltas.size()), deltas.data(),
                    deltas.size() * sizeof(Partial));
  }

  // --- application pause (Hilbrich et al., EASC 2014, section 5) ------------------------------
  std::size_t memory() const { return matcher_.entries() + collectives_.entries() + completion_.entries(); }

  void checkMemory() {
    const std::size_t m = memory();
    stats_.peakMemory = std::max<std::uint64_t>(stats_.peakMemory, m);
    stats_.peakMatching = std::max<std::uint64_t>(stats_.peakMatching, matcher_.entries());
    if (!requested_) {
      if (m < static_cast<std::size_t>(config_.sigmaResume)) pauseLevel_ = config_.sigma;
      if (m > static_cast<std::size_t>(pauseLevel_) && !sentSubtreeDone_) {
        requested_ = true;
        ++stats_.pauseRequests;
        requestPause();
      }
      return;
    }
    // Resume below sigma'; or when the paused application has left nothing to receive: what
    // the place still holds are operations only the application can complete.
    const bool drained = pausedSeen_ && selector_.idle();
    if (m < static_cast<std::size_t>(config_.sigmaResume) || drained) {
      requested_ = false;
      if (m >= static_cast<std::size_t>(config_.sigmaResume))
        pauseLevel_ = std::max<long>(config_.sigma, static_cast<long>(m) + (config_.sigma - config_.sigmaResume));
      requestResume();
    }
  }

  void requestPause() {
    if (!root_) {
      sendPacket(parentWorld(), kTagUp, PacketKind::PauseRequest, 0, nullptr, 0);
      return;
    }
    if (++requests_ - resumes_ == 1) {
      ++pauses_;
      paused(true);
    }
  }

  void requestResume() {
    if (!root_) {
      sendPacket(parentWorld(), kTagUp, PacketKind::ResumeRequest, 0, nullptr, 0);
      return;
    }
    if (++resumes_ == requests_) paused(false);
  }

  // The root's decision travels down the tree to the application ranks.
  void paused(bool pause) {
    pausedSeen_ = pause;
    if (!first_) {
      forwardDown(pause ? PacketKind::Pause : PacketKind::Resume, nullptr, 0);
      return;
    }
    const std::uint32_t kind = static_cast<std::uint32_t>(pause ? PacketKind::Pause : PacketKind::Resume);
    for (std::size_t i = 0; i < children_.size(); ++i) {
      if (childDone_[i]) continue;  // it reads nothing more from us after its last acknowledgement
      std::vector<char> data(sizeof kind);
      std::memcpy(data.data(), &kind, sizeof kind);
      sendRaw(children_[i], kTagControl, std::move(data));
    }
  }

  // --- the end of the run ---------------------------------------------------------------------
  // Application ranks finish -> first-layer places tell each other (intralayer) -> subtrees
  // report done up the tree -> the root sends Shutdown down (after every result) -> places
  // send their last totals up -> the root writes the final report.
  void progress() {
    if (first_ && !sentIntraDone_ && appsFinished_ == static_cast<int>(children_.size())) {
      flush();
      for (int p = 0; p < layout_.firstLayerPlaces(); ++p)
        if (p != me_) sendPacket(layout_.worldRankOfPlace(p), kTagIntra, PacketKind::IntraDone, 0, nullptr, 0);
      sentIntraDone_ = true;
    }
    const bool subtreeDone = first_ ? sentIntraDone_ && intraDone_ == layout_.firstLayerPlaces() - 1
                                    : childrenDone_ == static_cast<int>(children_.size());
    if (subtreeDone && !sentSubtreeDone_) {
      flush();
      if (requested_) {
        requested_ = false;
        requestResume();
      }
      sentSubtreeDone_ = true;
      if (root_) {
        if (!first_) forwardDown(PacketKind::Shutdown, nullptr, 0);
        shutdown_ = true;
      } else {
        sendPacket(parentWorld(), kTagUp, PacketKind::SubtreeDone, 0, nullptr, 0);
      }
    }
    const int childPlaces = first_ ? 0 : static_cast<int>(children_.size());
    if (shutdown_ && finals_ == childPlaces && !done_) {
      if (!root_) sendMetrics(PacketKind::FinalMetrics);
      done_ = true;
    }
  }

  PlaceStats subtreeStats() const {
    PlaceStats s = stats_;
    s.peakMemory = std::max<std::uint64_t>(s.peakMemory, memory());
    if (!first_)
      for (const PlaceStats& c : childStats_) mergeStats(s, c);
    return s;
  }

  void sendMetrics(PacketKind kind) {
    const PlaceStats s = subtreeStats();
    const std::vector<MetricValue> v = totals_.take();
    sendPacket(parentWorld(), kTagUp, kind, static_cast<std::uint32_t>(v.size()), v.data(), v.size() * sizeof(MetricValue),
               &s, sizeof s);
  }

  void snapshot() {
    lastSnapshot_ = seconds();
    if (!root_) {
      if (!sentSubtreeDone_ || !done_) sendMetrics(PacketKind::Metrics);
      return;
    }
    if (std::none_of(trees_.begin(), trees_.end(), [](const std::string& t) { return !t.empty(); })) return;
    ++snapshots_;
    write("running");
  }

  void write(const char* state) {
    const PlaceStats s = subtreeStats();
    const double elapsed = seconds() - start_;
    std::vector<std::pair<std::string, std::string>> meta = {
        {"online_state", state},
        {"online_snapshot", std::to_string(snapshots_)},
        {"online_elapsed_seconds", std::to_string(elapsed)},
        {"online_selection", selectionName(config_.selection)},
        {"online_alpha", std::to_string(config_.alpha)},
        {"online_beta", std::to_string(config_.beta)},
        {"online_sigma", std::to_string(config_.sigma)},
        {"online_sigma_resume", std::to_string(config_.sigmaResume)},
        {"online_channel_capacity", std::to_string(config_.channelCapacity)},
        {"online_batch_events", std::to_string(config_.batchEvents)},
        {"online_tree", layout_.describe()},
        {"online_pauses", std::to_string(pauses_)},
        {"online_pause_requests", std::to_string(s.pauseRequests)},
        {"online_peak_queue", std::to_string(s.peakMemory)},
        {"online_peak_matching", std::to_string(s.peakMatching)},
        {"online_messages", std::to_string(s.messages)},
        {"online_empty_probes", std::to_string(s.emptyProbes)},
    };
    report::writeReport(buildOnlineReport(trees_, totals_.values(), std::move(meta)), output_);
    writeStatus(state, "");
  }

  void writeStatus(const char* state, const std::string& message) {
    LiveStatus st;
    st.state = state;
    st.snapshot = snapshots_;
    st.elapsedSeconds = seconds() - start_;
    st.pauses = pauses_;
    st.peakQueue = subtreeStats().peakMemory;
    st.intervalSeconds = config_.snapshotSeconds;
    st.message = message;
    writeLiveStatus(output_, st);
  }

  int finish() {
    try {
      ++snapshots_;
      write("finished");
      if (!std::getenv("WAITSCOPE_QUIET"))
        std::fprintf(stderr, "waitscope: online analysis written to %s (%ld pauses)\n", output_.c_str(), pauses_);
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "waitscope: %s\n", e.what());
      try {
        writeStatus("failed", e.what());
      } catch (const std::exception&) {
      }
      return 1;
    }
  }

  int parentWorld() const { return layout_.worldRankOfPlace(layout_.parent(me_)); }
  std::size_t childIndex(int child) const {
    return static_cast<std::size_t>(std::find(children_.begin(), children_.end(), child) - children_.begin());
  }

  const Config config_;
  const TreeLayout layout_;
  MPI_Comm tool_;
  const int me_;
  const bool first_, root_;
  const std::vector<int> children_;  // application ranks (first layer) or places
  ChannelSelector selector_;
  WaitTotals totals_;  // the root: everything; other places: what is not yet sent up
  MessageMatcher matcher_;
  CollectiveTable collectives_;
  CollectiveCompletion completion_;
  std::vector<std::vector<Event>> intraOut_;
  std::deque<Pending> pending_;
  std::vector<char> buf_;
  std::vector<bool> childDone_;
  std::vector<PlaceStats> childStats_;
  std::vector<std::string> trees_;  // the root: every application rank's latest call tree
  PlaceStats stats_;
  std::string output_;
  double start_ = 0, lastSnapshot_ = 0;
  long snapshots_ = 0, pauses_ = 0, requests_ = 0, resumes_ = 0, pauseLevel_;
  std::size_t raisedEvents_ = 0;  // events of the current message that raised memory
  int appsFinished_ = 0, intraDone_ = 0, childrenDone_ = 0, finals_ = 0;
  bool requested_ = false, pausedSeen_ = false, sentIntraDone_ = false, sentSubtreeDone_ = false, shutdown_ = false,
       done_ = false;
};

}  // namespace

int runPlace(const Config& config, MPI_Comm tool, int worldRank) {
  try {
    Place place(config, tool, worldRank);
    return place.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "waitscope: online place %d: %s\n", worldRank, e.what());
    return 1;
  }
}

}  // namespace waitscope::online
