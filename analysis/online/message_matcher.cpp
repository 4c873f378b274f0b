#include "analysis/online/message_matcher.h"

#include <algorithm>

namespace waitscope::online {

using metrics::Metric;

void MessageMatcher::add(const Event& e, bool isSend) {
  const Key key = isSend ? Key{e.comm, e.rank, static_cast<std::uint32_t>(e.peer), e.tag}
                         : Key{e.comm, static_cast<std::uint32_t>(e.peer), e.rank, e.tag};
  auto [it, added] = table_.try_emplace(key);
  Queue& q = it->second;
  if (q.items.empty() || q.sends == isSend) {
    q.sends = isSend;
    q.items.push_back(e);
    ++unmatched_;
    return;
  }
  const Event other = q.items.front();
  q.items.pop_front();
  --unmatched_;
  if (q.items.empty()) table_.erase(it);
  if (isSend) matched(e, other);
  else matched(other, e);
}

void MessageMatcher::matched(const Event& send, const Event& recv) {
  // Late Receiver: a blocking send that returned only after the receive was posted waited
  // from its enter to the posting.
  if (send.blocking && recv.t0 > send.t0 && recv.t0 < send.t1)
    totals_.add(Metric::MpiLateReceiver, send.rank, send.node, recv.t0 - send.t0);
  if (recv.group <= 1) {
    lateSender(recv, send.t0);
    return;
  }
  const std::uint64_t call = static_cast<std::uint64_t>(recv.rank) << 40 ^ recv.seq;
  auto [it, added] = openCalls_.try_emplace(call, OpenCall{recv.group, -1e300});
  it->second.latestSend = std::max(it->second.latestSend, send.t0);
  if (--it->second.remaining > 0) return;
  lateSender(recv, it->second.latestSend);
  openCalls_.erase(it);
}

// The receiving call (enter t1, leave t2) waited for the send to start, at most until it left.
void MessageMatcher::lateSender(const Event& recv, double sendEnter) {
  if (sendEnter > recv.t1) totals_.add(Metric::MpiLateSender, recv.rank, recv.node, std::min(sendEnter, recv.t2) - recv.t1);
}

}  // namespace waitscope::online
