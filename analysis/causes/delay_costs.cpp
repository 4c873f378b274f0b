// Root causes of wait states (Hermanns, Miklosch, Böhme, Wolf, EuroMPI 2013, after Böhme et al.,
// ICPP 2010): delay costs (short-term and long-term, per family) and the classification of wait
// states (direct/indirect, propagating/terminal). docs/causes-delay.md has the definitions; in
// short:
//
// * Every wait state W of this location with a remote cause c (the forward
//   patterns' instances of p2p, collective and RMA active-target families; a
//   sub-pattern contained in another instance of the same call is the same
//   wait) is an edge of the synchronization graph. Its synchronization point on
//   c is the time t_S = W.end (c's arrival: the send enter of a Late Sender, the
//   last enter of a collective, the post of a Late Post, the last complete of an
//   Early Wait).
// * Synchronization interval: on each side, from the synchronization time
//   (enter, or the end of its own wait state) of the latest synchronizing call
//   involving the other location (a message with it, a
//   collective, fence, window create/free on a communicator containing both,
//   a post/start/complete/wait whose group names it, MPI_Init/Finalize, or the
//   start of the trace) up to the waiter's enter of W, or up to t_S on c.
// * Time profiles per call path over those intervals exclude the time of the
//   analyzed wait states. Delay d(p) = max(0, t_c(p) - t_w(p)); the wait states
//   of c inside its interval count with their waiting time v_k. D = sum d + sum v.
// * W explains its waiting time omega plus the cost phi propagated to it from
//   later wait states, kept per family of the wait state it came from. Path p on
//   c gets omega*d(p)/D short-term in W's family and phi_f*d(p)/D long-term in
//   family f (as Scalasca files long-term costs: under the wait state the delay
//   caused in the end); wait state k on c gets omega*v_k/D in W's family plus
//   phi_f*v_k/D in each family f as its own phi, which it passes on when the
//   backward replay reaches it. So the delay costs add up exactly to the
//   waiting time of all analyzed wait states (Wait at Finalize is none: Scalasca
//   charges it to no delay).
// * Indirect part of W: omega * sum v / D (direct: the rest). Propagating part
//   of a wait state: min(omega, sum of omega'*v/D over the later wait states it
//   explains); terminal: the rest.
//
// The pieces, in the order they run: the analyzed wait states (analyzed_waits.h), the
// synchronization index (sync_index.h), the interval profiles (interval_profile.h) and their
// exchange (profile_exchange.h) into the charges of the wait states this rank caused
// (caused_waits.h), and the propagation and charging in backward order (delay_propagation.h).
//
// Exchange (docs/causes-delay.md "Exchange"): the graph edges with the waiters'
// interval profiles in batched all-to-all rounds (they do not depend on the
// backward order); each cause prepares its charges but for the propagated cost
// phi. Only phi follows the backward order: rank 0 replays all ranks' item
// sequences (without profiles, streamed to it in chunks as it needs them) in the order of the distributed
// backward replay and scatters phi back; one all-to-all then carries phi to
// the causes and the direct/indirect split back to the waiters, and each rank
// charges its items in backward order.
#include <optional>

#include "analysis/causes/analyzed_waits.h"
#include "analysis/causes/caused_waits.h"
#include "analysis/causes/causes.h"
#include "analysis/causes/delay_propagation.h"
#include "analysis/causes/interval_profile.h"
#include "analysis/causes/profile_exchange.h"
#include "analysis/causes/sync_index.h"

namespace waitscope::causes {

void analyzeDelays(replay::ReplayContext& ctx, replay::LocalResult& result, const std::function<void()>& payloadsRead,
                   const std::function<void()>& eventsRead) {
  // The exchange's own communicator.
  const std::unique_ptr<replay::LocationComm> own = ctx.comms.world().dup();
  const replay::LocationComm& comm = *own;
  delay::AnalyzedWaits waits = delay::collectWaits(result.severities, ctx.worldRank, ctx.worldSize);
  std::optional<delay::SyncIndex> syncs(std::in_place, ctx, waits.waits);
  if (payloadsRead) payloadsRead();  // the index was their last reader
  std::optional<delay::IntervalProfile> profile(std::in_place, ctx, waits.waits);
  delay::CausedWaits caused(waits.waits, *syncs, *profile);
  delay::ProfileExchange(ctx, comm, waits, *syncs, *profile, caused).run();
  // The charges are prepared (CausedWaits::prepare, the only user of the index and the
  // profiles): their memory goes before the propagation allocates its own.
  syncs.reset();
  profile.reset();
  if (eventsRead) eventsRead();  // the profiles were their last reader
  delay::DelayPropagation(ctx, comm, waits, caused).run();
}

}  // namespace waitscope::causes
