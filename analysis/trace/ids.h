#pragma once
// Identifiers and small enumerations of the trace model. Enumerations mirror
// OTF2's numeric values (checked by static_asserts in the OTF2 reader and writer)
// so that the model itself needs no OTF2 header.
#include <cstdint>
#include <limits>

namespace waitscope::trace {

inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

using StringId = std::uint32_t;
using RegionId = std::uint32_t;
using CallPathId = std::uint32_t;
using SourceLocationId = std::uint32_t;
using LocationId = std::uint32_t;   // index into Definitions::locations
using GroupId = std::uint32_t;
using CommId = std::uint32_t;
using WinId = std::uint32_t;
using Rank = std::uint32_t;         // rank within a communicator

enum class CollectiveOp : std::uint8_t {
  Barrier = 0, Bcast, Gather, Gatherv, Scatter, Scatterv, Allgather, Allgatherv, Alltoall, Alltoallv,
  Alltoallw, Allreduce, Reduce, ReduceScatter, Scan, Exscan, ReduceScatterBlock, CreateHandle,
  DestroyHandle, Allocate, Deallocate, CreateHandleAndAllocate, DestroyHandleAndDeallocate,
};

// Bits of the synchronization level of RMA collective and group-sync records.
enum RmaSyncLevel : std::uint8_t { kSyncNone = 0, kSyncProcess = 1, kSyncMemory = 2 };

enum class RmaLockType : std::uint8_t { Exclusive = 0, Shared = 1 };

enum class RmaAtomicType : std::uint8_t {
  Accumulate = 0, Increment, TestAndSet, CompareAndSwap, Swap, FetchAndAdd, FetchAndIncrement,
  FetchAndAccumulate,
};

enum class RmaSyncType : std::uint8_t { Memory = 0, NotifyIn, NotifyOut };

// OTF2 region roles and paradigms, as far as the analysis distinguishes them.
enum class RegionRole : std::uint8_t {
  Unknown = 0, Function = 1, Wrapper = 2, Loop = 3, Code = 4, Atomic = 14, Barrier = 15, ImplicitBarrier = 16,
  CollOne2All = 23, CollAll2One = 24, CollAll2All = 25, CollOther = 26, FileIo = 27, Point2Point = 28,
  Rma = 29, DataTransfer = 30, Artificial = 31, Allocate = 35, Deallocate = 36, FileIoMetadata = 38,
};

enum class Paradigm : std::uint8_t {
  Unknown = 0, User = 1, Compiler = 2, OpenMp = 3, Mpi = 4, Cuda = 5, MeasurementSystem = 6, Pthread = 7,
};

enum class LocationType : std::uint8_t { Unknown = 0, CpuThread = 1, AcceleratorStream = 2, Metric = 3 };

enum class GroupType : std::uint8_t {
  Unknown = 0, Locations = 1, Regions = 2, Metric = 3, CommLocations = 4, CommGroup = 5, CommSelf = 6,
};

}  // namespace waitscope::trace
