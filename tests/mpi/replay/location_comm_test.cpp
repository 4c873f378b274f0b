// replay::LocationComm between held locations (M < N): an all-to-all's blocks arrive whole and
// in place, between the locations of one process and across processes, for uneven and empty
// blocks, on the world and on a communicator whose members are out of world order, call after
// call, on two communicators of the same name in turn, and with a type whose elements have
// gaps; all-reductions and broadcasts give every member the result, from every root; the
// all-to-all of bytes with 64-bit counts works held and with a location per process. Run at 1
// to 3 processes holding 7 locations.
#include "analysis/replay/location_comm.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "analysis/replay/fibers.h"

namespace waitscope::replay {
namespace {

constexpr int kLocations = 7;

// How many ints member `from` sends to member `to` in call `call` (some none).
int count(int from, int to, int call) { return (from * 3 + to + call) % 4; }
int value(int from, int to, int k, int call) { return from * 1000000 + to * 1000 + k * 10 + call; }

// Runs body(location, world) on a fiber per location this process holds.
void onEveryLocation(const std::function<void(int, const HeldLocations&)>& body) {
  const HeldLocations held(MPI_COMM_WORLD, kLocations, false);
  Fibers::run(
      static_cast<std::size_t>(held.held()),
      [&](std::size_t i) { body(static_cast<int>(held.first() + i), held); }, false);
}

// Every member sends count(...) ints to every member, `calls` times in a row; returns, per
// call, what each member received, laid out by sender with the displacements it passed.
struct Received {
  std::vector<int> displs;
  std::vector<int> data;
};

Received allToAll(const LocationComm& comm, int call) {
  const int n = comm.size(), me = comm.rank();
  std::vector<int> sendCounts(static_cast<std::size_t>(n)), sendDispls(sendCounts.size());
  std::vector<int> recvCounts(sendCounts.size()), recvDispls(sendCounts.size());
  std::vector<int> out;
  int in = 0;
  for (int r = 0; r < n; ++r) {
    const auto k = static_cast<std::size_t>(r);
    sendDispls[k] = static_cast<int>(out.size());
    sendCounts[k] = count(me, r, call);
    for (int j = 0; j < sendCounts[k]; ++j) out.push_back(value(me, r, j, call));
    // The receive side in reverse order and with a gap: displacements are honoured.
    recvCounts[k] = count(r, me, call);
  }
  for (int r = n - 1; r >= 0; --r) {
    recvDispls[static_cast<std::size_t>(r)] = in;
    in += recvCounts[static_cast<std::size_t>(r)] + 1;
  }
  Received got{recvDispls, std::vector<int>(static_cast<std::size_t>(in) + 1, -1)};
  comm.alltoallv(out.data(), sendCounts.data(), sendDispls.data(), MPI_INT, got.data.data(), recvCounts.data(),
                 recvDispls.data(), MPI_INT);
  return got;
}

void expectReceived(const Received& got, int n, int me, int call) {
  for (int from = 0; from < n; ++from) {
    const auto at = static_cast<std::size_t>(got.displs[static_cast<std::size_t>(from)]);
    const int c = count(from, me, call);
    for (int j = 0; j < c; ++j)
      EXPECT_EQ(got.data[at + static_cast<std::size_t>(j)], value(from, me, j, call))
          << "member " << me << " from " << from << " element " << j << " call " << call;
    EXPECT_EQ(got.data[at + static_cast<std::size_t>(c)], -1) << "member " << me << " past the block from " << from;
  }
}

TEST(LocationCommHeld, AlltoallvBetweenEveryPairCallAfterCall) {
  auto everyone = std::make_shared<std::vector<trace::Rank>>();
  for (trace::Rank r = 0; r < kLocations; ++r) everyone->push_back(r);
  std::vector<std::vector<Received>> got(kLocations);
  onEveryLocation([&](int location, const HeldLocations& held) {
    const LocationComm world(held, everyone, location, 0);
    for (int call = 0; call < 3; ++call) got[static_cast<std::size_t>(location)].push_back(allToAll(world, call));
  });
  const HeldLocations held(MPI_COMM_WORLD, kLocations, false);
  for (int location = held.first(); location < static_cast<int>(held.first()) + held.held(); ++location) {
    ASSERT_EQ(got[static_cast<std::size_t>(location)].size(), 3U);
    for (int call = 0; call < 3; ++call)
      expectReceived(got[static_cast<std::size_t>(location)][static_cast<std::size_t>(call)], kLocations, location,
                     call);
  }
}

// Two communicators of one group, context and size (the world and a copy with the same
// numbers) in turn: each call meets its own members, also when the last of one call's
// members have not yet left it as the first of the next arrive.
TEST(LocationCommHeld, TwoCommunicatorsOfTheSameNameInTurn) {
  auto everyone = std::make_shared<std::vector<trace::Rank>>();
  for (trace::Rank r = 0; r < kLocations; ++r) everyone->push_back(r);
  std::vector<std::vector<Received>> got(kLocations);
  onEveryLocation([&](int location, const HeldLocations& held) {
    const LocationComm first(held, everyone, location, 0), second(held, everyone, location, 0);
    for (int call = 0; call < 4; ++call)
      got[static_cast<std::size_t>(location)].push_back(allToAll(call % 2 == 0 ? first : second, call));
  });
  const HeldLocations held(MPI_COMM_WORLD, kLocations, false);
  for (int location = held.first(); location < static_cast<int>(held.first()) + held.held(); ++location)
    for (int call = 0; call < 4; ++call)
      expectReceived(got[static_cast<std::size_t>(location)][static_cast<std::size_t>(call)], kLocations, location,
                     call);
}

// The odd locations, last first: members held by several processes, not in world order.
TEST(LocationCommHeld, AlltoallvOnASubsetOutOfWorldOrder) {
  auto odd = std::make_shared<std::vector<trace::Rank>>();
  for (trace::Rank r = kLocations - 1; r >= 1; --r)
    if (r % 2 == 1) odd->push_back(r);
  std::vector<Received> got(kLocations);
  std::vector<int> memberOf(kLocations, -1);
  onEveryLocation([&](int location, const HeldLocations& held) {
    for (std::size_t m = 0; m < odd->size(); ++m)
      if ((*odd)[m] == static_cast<trace::Rank>(location)) {
        const LocationComm sub(held, odd, static_cast<int>(m), 1);
        memberOf[static_cast<std::size_t>(location)] = static_cast<int>(m);
        got[static_cast<std::size_t>(location)] = allToAll(sub, 5);
      }
  });
  for (int location = 0; location < kLocations; ++location)
    if (const int m = memberOf[static_cast<std::size_t>(location)]; m >= 0)
      expectReceived(got[static_cast<std::size_t>(location)], static_cast<int>(odd->size()), m, 5);
}

// Elements with gaps between them (an int every 8 bytes) take the path of a message per pair.
TEST(LocationCommHeld, AlltoallWithAGappedType) {
  MPI_Datatype gapped = MPI_DATATYPE_NULL;
  MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &gapped);
  MPI_Type_commit(&gapped);
  auto everyone = std::make_shared<std::vector<trace::Rank>>();
  for (trace::Rank r = 0; r < kLocations; ++r) everyone->push_back(r);
  std::vector<std::vector<int>> got(kLocations);
  onEveryLocation([&](int location, const HeldLocations& held) {
    const LocationComm world(held, everyone, location, 0);
    std::vector<int> out(2 * kLocations, -2), in(2 * kLocations, -1);
    for (int r = 0; r < kLocations; ++r) out[static_cast<std::size_t>(2 * r)] = value(location, r, 0, 9);
    world.alltoall(out.data(), 1, gapped, in.data(), 1, gapped);
    got[static_cast<std::size_t>(location)] = in;
  });
  MPI_Type_free(&gapped);
  const HeldLocations held(MPI_COMM_WORLD, kLocations, false);
  for (int location = held.first(); location < static_cast<int>(held.first()) + held.held(); ++location)
    for (int from = 0; from < kLocations; ++from) {
      EXPECT_EQ(got[static_cast<std::size_t>(location)][static_cast<std::size_t>(2 * from)], value(from, location, 0, 9));
      EXPECT_EQ(got[static_cast<std::size_t>(location)][static_cast<std::size_t>(2 * from + 1)], -1) << "the gap";
    }
}

std::shared_ptr<std::vector<trace::Rank>> everyLocation() {
  auto everyone = std::make_shared<std::vector<trace::Rank>>();
  for (trace::Rank r = 0; r < kLocations; ++r) everyone->push_back(r);
  return everyone;
}

std::shared_ptr<std::vector<trace::Rank>> oddLocationsLastFirst() {
  auto odd = std::make_shared<std::vector<trace::Rank>>();
  for (trace::Rank r = kLocations - 1; r >= 1; --r)
    if (r % 2 == 1) odd->push_back(r);
  return odd;
}

// The member number of `location` in `members`, or -1.
int memberNumber(const std::vector<trace::Rank>& members, int location) {
  for (std::size_t m = 0; m < members.size(); ++m)
    if (members[m] == static_cast<trace::Rank>(location)) return static_cast<int>(m);
  return -1;
}

// Sums and maxima with their location, in place and not, call after call, on the world and on
// the odd locations out of order.
TEST(LocationCommHeld, AllreduceGivesEveryMemberTheResult) {
  for (const auto& members : {everyLocation(), oddLocationsLastFirst()}) {
    const int n = static_cast<int>(members->size());
    std::vector<std::vector<long long>> sums(kLocations);
    std::vector<std::vector<double>> maxima(kLocations);
    std::vector<std::vector<int>> where(kLocations);
    onEveryLocation([&](int location, const HeldLocations& held) {
      const int m = memberNumber(*members, location);
      if (m < 0) return;
      const LocationComm comm(held, members, m, members->size() == kLocations ? 0 : 1);
      for (int call = 0; call < 3; ++call) {
        std::vector<long long> own{location + 1LL, call * 100LL + location, -location * 1LL};
        std::vector<long long> sum(3, -7);
        if (call % 2 == 0) comm.allreduce(own.data(), sum.data(), 3, MPI_LONG_LONG, MPI_SUM);
        else {
          sum = own;
          comm.allreduce(MPI_IN_PLACE, sum.data(), 3, MPI_LONG_LONG, MPI_SUM);
        }
        sums[static_cast<std::size_t>(location)].insert(sums[static_cast<std::size_t>(location)].end(), sum.begin(),
                                                        sum.end());
        // MPI_DOUBLE_INT has a gap after the int: the result is copied element by element.
        struct { double value; int rank; } mine{static_cast<double>((location * 5 + call) % kLocations), m}, best{};
        comm.allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC);
        maxima[static_cast<std::size_t>(location)].push_back(best.value);
        where[static_cast<std::size_t>(location)].push_back(best.rank);
      }
    });
    for (int location = 0; location < kLocations; ++location) {
      if (memberNumber(*members, location) < 0 || sums[static_cast<std::size_t>(location)].empty()) continue;
      for (int call = 0; call < 3; ++call) {
        long long first = 0, second = 0, third = 0;
        double top = -1;
        int topMember = -1;
        for (int k = 0; k < n; ++k) {
          const int other = static_cast<int>((*members)[static_cast<std::size_t>(k)]);
          first += other + 1;
          second += call * 100LL + other;
          third -= other;
          const double v = (other * 5 + call) % kLocations;
          if (v > top || (v == top && k < topMember)) top = v, topMember = k;
        }
        const auto at = static_cast<std::size_t>(3 * call);
        EXPECT_EQ(sums[static_cast<std::size_t>(location)][at], first) << "location " << location << " call " << call;
        EXPECT_EQ(sums[static_cast<std::size_t>(location)][at + 1], second);
        EXPECT_EQ(sums[static_cast<std::size_t>(location)][at + 2], third);
        EXPECT_EQ(maxima[static_cast<std::size_t>(location)][static_cast<std::size_t>(call)], top);
        EXPECT_EQ(where[static_cast<std::size_t>(location)][static_cast<std::size_t>(call)], topMember);
      }
    }
  }
}

// From every root in turn, on the world and on the odd locations out of order; a type with
// gaps leaves the receivers' gaps alone.
TEST(LocationCommHeld, BcastFromEveryRoot) {
  MPI_Datatype gapped = MPI_DATATYPE_NULL;
  MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &gapped);
  MPI_Type_commit(&gapped);
  for (const auto& members : {everyLocation(), oddLocationsLastFirst()}) {
    const int n = static_cast<int>(members->size());
    std::vector<std::vector<int>> got(kLocations);
    onEveryLocation([&](int location, const HeldLocations& held) {
      const int m = memberNumber(*members, location);
      if (m < 0) return;
      const LocationComm comm(held, members, m, members->size() == kLocations ? 0 : 1);
      for (int root = 0; root < n; ++root) {
        std::vector<int> buffer(4, -1);
        if (m == root) buffer = {value(root, 0, 0, 1), -2, value(root, 1, 0, 1), -2};
        comm.bcast(buffer.data(), 2, gapped, root);
        got[static_cast<std::size_t>(location)].insert(got[static_cast<std::size_t>(location)].end(), buffer.begin(),
                                                       buffer.end());
      }
    });
    for (int location = 0; location < kLocations; ++location) {
      const int m = memberNumber(*members, location);
      const std::vector<int>& all = got[static_cast<std::size_t>(location)];
      if (m < 0 || all.empty()) continue;
      ASSERT_EQ(all.size(), static_cast<std::size_t>(4 * n));
      for (int root = 0; root < n; ++root) {
        const auto at = static_cast<std::size_t>(4 * root);
        EXPECT_EQ(all[at], value(root, 0, 0, 1)) << "member " << m << " from root " << root;
        EXPECT_EQ(all[at + 2], value(root, 1, 0, 1)) << "member " << m << " from root " << root;
        EXPECT_EQ(all[at + 1], m == root ? -2 : -1) << "a gap written, member " << m << " root " << root;
      }
    }
  }
  MPI_Type_free(&gapped);
}

// Bytes with 64-bit counts and displacements, uneven and empty blocks, received in reverse
// order: `count` bytes from member i to member j, each byte naming both.
std::vector<std::byte> bytesAllToAll(const LocationComm& comm) {
  const auto n = static_cast<std::size_t>(comm.size());
  const int me = comm.rank();
  std::vector<std::size_t> sendCounts(n), sendDispls(n), recvCounts(n), recvDispls(n);
  std::vector<std::byte> out;
  for (std::size_t r = 0; r < n; ++r) {
    sendDispls[r] = out.size();
    sendCounts[r] = static_cast<std::size_t>(count(me, static_cast<int>(r), 7)) * 3;
    for (std::size_t k = 0; k < sendCounts[r]; ++k) out.push_back(static_cast<std::byte>(me * 16 + static_cast<int>(r)));
    recvCounts[r] = static_cast<std::size_t>(count(static_cast<int>(r), me, 7)) * 3;
  }
  std::size_t in = 0;
  for (std::size_t r = n; r-- > 0;) {
    recvDispls[r] = in;
    in += recvCounts[r];
  }
  std::vector<std::byte> got(in, std::byte{0xff});
  comm.alltoallvBytes(out.data(), sendCounts.data(), sendDispls.data(), got.data(), recvCounts.data(),
                      recvDispls.data());
  return got;
}

void expectBytes(const std::vector<std::byte>& got, int n, int me) {
  std::size_t at = 0;
  for (int from = n - 1; from >= 0; --from)
    for (int k = 0; k < count(from, me, 7) * 3; ++k, ++at)
      EXPECT_EQ(static_cast<int>(got.at(at)), from * 16 + me) << "member " << me << " from " << from << " byte " << k;
  EXPECT_EQ(at, got.size());
}

TEST(LocationCommHeld, AlltoallvBytes) {
  std::vector<std::vector<std::byte>> got(kLocations);
  onEveryLocation([&](int location, const HeldLocations& held) {
    const LocationComm world(held, everyLocation(), location, 0);
    got[static_cast<std::size_t>(location)] = bytesAllToAll(world);
  });
  const HeldLocations held(MPI_COMM_WORLD, kLocations, false);
  for (int location = held.first(); location < static_cast<int>(held.first()) + held.held(); ++location)
    expectBytes(got[static_cast<std::size_t>(location)], kLocations, location);
}

TEST(LocationCommOnePerProcess, AlltoallvBytes) {
  const LocationComm world(MPI_COMM_WORLD, false);
  expectBytes(bytesAllToAll(world), world.size(), world.rank());
}

// Two communicators with different members whose group numbers lie 2000 apart, each held by
// the same two processes, which reach them in opposite orders: location 0 (first process)
// and location 5 (last) yield a while first. Their meetings' messages must not meet each other's.
TEST(LocationCommHeld, MeetingsOfDifferentMembersInDifferentOrders) {
  const auto a = std::make_shared<std::vector<trace::Rank>>(std::vector<trace::Rank>{0, 6});
  const auto b = std::make_shared<std::vector<trace::Rank>>(std::vector<trace::Rank>{1, 5});
  std::vector<long long> got(kLocations, -1);
  onEveryLocation([&](int location, const HeldLocations& held) {
    if (location == 0 || location == 5)
      for (int turn = 0; turn < 20; ++turn) Fibers::yield();
    for (const auto& [members, group] : {std::pair{a, 1}, std::pair{b, 2001}}) {
      const int m = memberNumber(*members, location);
      if (m < 0) continue;
      const LocationComm comm(held, members, m, group);
      long long mine = 1LL << (10 * group / 2000 + location), sum = 0;
      comm.allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM);
      got[static_cast<std::size_t>(location)] = sum;
    }
  });
  const auto expected = [](int group, const std::vector<trace::Rank>& members) {
    long long sum = 0;
    for (const trace::Rank r : members) sum += 1LL << (10 * group / 2000 + static_cast<int>(r));
    return sum;
  };
  const HeldLocations held(MPI_COMM_WORLD, kLocations, false);
  for (int location = held.first(); location < static_cast<int>(held.first()) + held.held(); ++location) {
    if (memberNumber(*a, location) >= 0) {
      EXPECT_EQ(got[static_cast<std::size_t>(location)], expected(1, *a)) << "location " << location;
    }
    if (memberNumber(*b, location) >= 0) {
      EXPECT_EQ(got[static_cast<std::size_t>(location)], expected(2001, *b)) << "location " << location;
    }
  }
}

}  // namespace
}  // namespace waitscope::replay
