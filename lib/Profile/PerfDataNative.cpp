//===- PerfDataNative.cpp - perf.data to a BranchProfile without perf -----===//
//
// One thread reads the records (PerfFile), puts them in perf's delivery
// order (deliverInOrder), keeps the mappings (PerfAggregator) and cuts the
// delivered samples into batches, each sample with the view of its
// process at its delivery; the batches are counted on a thread pool into
// per-worker RawCounts, and by the reading thread itself when the workers
// have enough; the counts are summed at the end. Sums do not depend on
// how samples were batched or which worker counted them, so the profile is
// the same for every thread count. Memory holds the batches in flight, the
// queue of about two rounds and one count per distinct record.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/EventName.h"
#include "bbmap/Perf/EventQueue.h"
#include "bbmap/Perf/PerfFile.h"
#include "bbmap/Perf/SampleDelivery.h"
#include "bbmap/Perf/SpeTrace.h"
#include "bbmap/Profile/PerfAggregator.h"
#include "bbmap/Profile/PerfDataReader.h"
#include "bbmap/Support/ByteReader.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <mutex>
#include <set>

using namespace llvm;
using namespace bbmap::perf;

namespace bbmap {

namespace {

/// Samples per batch: enough to make a task worth its scheduling, few
/// enough to keep every worker busy on small files too.
constexpr size_t BatchSamples = 4096;
/// The most bytes of copied branch stacks a batch holds: batches of
/// compressed samples with stacks of any size stay small.
constexpr size_t BatchCopiedBytes = 4 << 20;

/// One delivered sample to count: an IP, a branch stack (Count entries of
/// 24 bytes at Entries), or with Entries null the stack of an ARM SPE
/// record (Count entries of Batch::Spe from First), whose newest entry's
/// source is also a sampled branch.
struct BatchItem {
  const uint8_t *Entries = nullptr;
  uint64_t IPOrCount = 0;
  uint32_t First = 0;
  PerfAggregator::ViewID View = 0;
  bool IsStack = false;
};

struct Batch {
  std::vector<BatchItem> Items;
  /// The file offset of the first record whose bytes the items point to.
  uint64_t Oldest = ~0ULL;
  /// The stacks of samples from compressed data, whose bytes do not stay.
  std::vector<std::unique_ptr<uint8_t[]>> Owned;
  size_t OwnedBytes = 0;
  /// The entries of SPE records' stacks.
  std::vector<PerfBranch> Spe;
};

/// Counts one batch of samples at runtime addresses.
void countBatch(const Batch &B, ByteOrder Order,
                PerfAggregator::RawCounts &Counts) {
  SmallVector<PerfBranch, 64> Stack;
  for (const BatchItem &Item : B.Items) {
    if (!Item.IsStack) {
      Counts.addSample(Item.View, Item.IPOrCount);
      continue;
    }
    if (!Item.Entries) {
      ArrayRef<PerfBranch> Spe(&B.Spe[Item.First], Item.IPOrCount);
      Counts.addStack(Item.View, Spe);
      Counts.addBranchSample(Item.View, Spe.front().From,
                             Spe.size() > 1 ? Spe[1].To : 0);
      continue;
    }
    Stack.resize(Item.IPOrCount);
    const uint8_t *P = Item.Entries;
    for (PerfBranch &E : Stack) {
      E.From = Order.u64(P);
      E.To = Order.u64(P + 8);
      // perf script prints 'M' for a misprediction unless it was also
      // marked predicted.
      uint64_t Flags = Order.branchFlags(Order.u64(P + 16));
      E.Mispred = (Flags & 3) == 1;
      P += 24;
    }
    Counts.addStack(Item.View, Stack);
  }
}

/// Batches counted on a thread pool into RawCounts of which each worker
/// uses one at a time. When the workers have enough batches, the reading
/// thread counts the next one itself, into counts of its own: every core
/// counts, and the batches in flight stay few.
class BatchCounter {
public:
  /// \p Threads counts the reading thread: Threads - 1 workers count.
  BatchCounter(unsigned Threads, ByteOrder Order) : Order(Order) {
    if (Threads > 1) {
      Pool = std::make_unique<DefaultThreadPool>(
          hardware_concurrency(Threads - 1));
      MaxInFlight = 2 * Pool->getMaxConcurrency() + 1;
    }
  }

  void submit(Batch B) {
    std::unique_lock<std::mutex> Lock(Mutex);
    if (InFlight == MaxInFlight) {
      Lock.unlock();
      countBatch(B, Order, Own);
      return;
    }
    auto Shared = std::make_shared<Batch>(std::move(B));
    ++InFlight;
    InFlightOldest.insert(Shared->Oldest);
    Lock.unlock();
    Pool->async([this, Shared] {
      PerfAggregator::RawCounts Counts = take();
      countBatch(*Shared, Order, Counts);
      std::lock_guard<std::mutex> Guard(Mutex);
      Free.push_back(std::move(Counts));
      InFlightOldest.erase(InFlightOldest.find(Shared->Oldest));
      --InFlight;
    });
  }

  /// The oldest file offset a batch being counted refers to.
  uint64_t oldest() {
    std::lock_guard<std::mutex> Guard(Mutex);
    return InFlightOldest.empty() ? ~0ULL : *InFlightOldest.begin();
  }

  /// Waits for every batch; the counts, in no particular order.
  std::vector<PerfAggregator::RawCounts> finish() {
    if (Pool)
      Pool->wait();
    Free.push_back(std::move(Own));
    return std::move(Free);
  }

private:
  PerfAggregator::RawCounts take() {
    std::lock_guard<std::mutex> Guard(Mutex);
    if (Free.empty())
      return {};
    PerfAggregator::RawCounts C = std::move(Free.back());
    Free.pop_back();
    return C;
  }

  ByteOrder Order;
  std::unique_ptr<DefaultThreadPool> Pool;
  std::mutex Mutex;
  /// Batches handed to the pool and not yet counted. The pool takes at
  /// most MaxInFlight (none without a pool): two per worker and one more,
  /// so that the workers still have batches when the reading thread is
  /// done counting one itself.
  unsigned InFlight = 0;
  unsigned MaxInFlight = 0;
  std::multiset<uint64_t> InFlightOldest;
  std::vector<PerfAggregator::RawCounts> Free;
  /// The reading thread's counts.
  PerfAggregator::RawCounts Own;
};

/// What a native read needs while records are delivered.
class NativeReader {
public:
  NativeReader(PerfFile &File, PerfAggregator &Aggregator, unsigned Threads,
               bool ReadSpe)
      : File(File), Aggregator(Aggregator), Delivery(File), Spe(File),
        Counter(Threads, File.order()), ReadSpe(ReadSpe) {}

  Error read() {
    auto Arrived = [&](const Record &R) -> Error {
      if (R.Type >= record::UserTypeStart)
        return checkBranchesDecided(R);
      if (!Decided)
        decideBranches();
      return Error::success();
    };
    // Batches being filled or counted point into the file's pages.
    auto InUse = [&] { return std::min(Current.Oldest, Counter.oldest()); };
    if (Error E = Spe.deliver([&](const Record &R) { return deliver(R); },
                              [&](const SpeSample &S) { return deliverSpe(S); },
                              Arrived, InUse))
      return E;
    if (!Current.Items.empty())
      Counter.submit(std::move(Current));
    return Error::success();
  }

  bool branches() const { return Branches; }
  std::vector<PerfAggregator::RawCounts> takeCounts() {
    return Counter.finish();
  }

private:
  /// perf script prints branch stacks when any event records them, or
  /// (perf2bolt --spe) the file has ARM SPE data; the events are known
  /// once the first record of the kernel's comes, after AUXTRACE_INFO.
  void decideBranches() {
    Decided = true;
    Branches = ReadSpe && Spe.decoding();
    for (const std::unique_ptr<Event> &E : File.events())
      Branches |= E->Attr.has(sample::BranchStack);
  }
  Error checkBranchesDecided(const Record &R) {
    if (R.Type != record::HeaderAttr || !Decided || Branches ||
        !File.events().back()->Attr.has(sample::BranchStack))
      return Error::success();
    return decodeError(R.Offset, "an event with branch stacks is defined "
                                 "after samples were read as IP samples");
  }

  Error deliver(const Record &R);
  Error deliverSample(const Record &R);
  Error deliverSpe(const SpeSample &S);
  void submitIfFull() {
    if (Current.Items.size() >= BatchSamples ||
        Current.OwnedBytes >= BatchCopiedBytes) {
      Counter.submit(std::move(Current));
      Current = Batch();
    }
  }
  const std::string &nameOf(const Event &E) {
    auto [It, New] = Names.try_emplace(&E);
    if (New)
      It->second = eventName(E);
    return It->second;
  }

  PerfFile &File;
  PerfAggregator &Aggregator;
  SampleDelivery Delivery;
  SpeStream Spe;
  BatchCounter Counter;
  bool ReadSpe;
  Batch Current;
  bool Decided = false;
  bool Branches = false;
  DenseMap<const Event *, std::string> Names;
  SmallVector<const Event *, 4> DeliveredAs;
  SmallPtrSet<const Event *, 4> Announced;
};

Error NativeReader::deliver(const Record &R) {
  auto Fail = [&](Error E) {
    return decodeError(R.Offset, toString(std::move(E)));
  };
  switch (R.Type) {
  case record::Sample:
    return deliverSample(R);
  case record::MMap:
  case record::MMap2: {
    MMapEvent M;
    if (Error E = File.decodeMMap(R, M))
      return E;
    std::string BuildID = toHex(M.BuildID, /*LowerCase=*/true);
    PerfMMap PM;
    PM.PID = M.PID;
    PM.Start = M.Start;
    PM.Length = M.Length;
    PM.PageOffset = M.PageOffset;
    PM.Executable = M.Executable;
    PM.Path = M.FileName;
    PM.BuildID = BuildID;
    if (Error E = Aggregator.mmap(PM))
      return Fail(std::move(E));
    return Error::success();
  }
  case record::Fork: {
    TaskEvent T;
    if (Error E = File.decodeTask(R, T))
      return E;
    Aggregator.fork(T.PID, T.PPID);
    return Error::success();
  }
  case record::Comm: {
    CommEvent C;
    if (Error E = File.decodeComm(R, C))
      return E;
    if (C.Exec)
      Aggregator.exec(C.PID);
    return Error::success();
  }
  default:
    return Error::success();
  }
}

Error NativeReader::deliverSample(const Record &R) {
  const Event *E = File.eventOf(R);
  if (!E)
    return decodeError(R.Offset, "sample names an event ID no attr has");
  perf::Sample S;
  if (Error Err = File.decodeSample(R, *E, S))
    return Err;
  Delivery.deliver(S, DeliveredAs);
  for (const Event *As : DeliveredAs) {
    // Only an event's first sample can add its name.
    if (Announced.insert(As).second)
      Aggregator.event(nameOf(*As));
    std::optional<int32_t> PID;
    if (As->Attr.has(sample::TID))
      PID = S.PID;
    BatchItem Item;
    if (Branches) {
      bool HasStack = As->Attr.has(sample::BranchStack) && S.BranchCount;
      Item.View = Aggregator.view(PID);
      bool OfBinary = !Aggregator.mapsNothing(Item.View);
      Aggregator.counts().countRead(OfBinary, !HasStack);
      if (!HasStack)
        continue;
      if (!OfBinary) {
        Aggregator.counts().skipStack(S.BranchCount);
        continue;
      }
      Item.IsStack = true;
      Item.IPOrCount = S.BranchCount;
      Item.Entries = S.Branches;
      if (!R.Compressed)
        Current.Oldest = std::min(Current.Oldest, R.Offset);
      if (R.Compressed) {
        size_t Size = 24 * S.BranchCount;
        Current.Owned.emplace_back(new uint8_t[Size]);
        Current.OwnedBytes += Size;
        std::copy_n(S.Branches, Size, Current.Owned.back().get());
        Item.Entries = Current.Owned.back().get();
      }
    } else {
      if (!As->Attr.has(sample::IP))
        continue;
      Item.IPOrCount = S.IP;
      Item.View = Aggregator.view(PID);
      Aggregator.counts().countRead(!Aggregator.mapsNothing(Item.View) && S.IP);
    }
    Current.Items.push_back(Item);
  }
  submitIfFull();
  return Error::success();
}

/// An SPE record of a branch is the branch stack perf 6.14 synthesizes for
/// it (`perf script --itrace=bl`, which perf2bolt --spe reads): the branch,
/// taken or not (its target is then the next instruction), and from the
/// previous branch target packet an entry 0 -> that target, whose run ends
/// at the branch. Records of other operations synthesize no sample there.
Error NativeReader::deliverSpe(const SpeSample &S) {
  const SpeRecord &R = S.Record;
  if (!ReadSpe || !R.isBranch())
    return Error::success();
  if (const Event *Aux = Spe.auxEvent(); Aux && Announced.insert(Aux).second)
    Aggregator.event(nameOf(*Aux));
  BatchItem Item;
  Item.View = Aggregator.view(S.PID);
  bool OfBinary = !Aggregator.mapsNothing(Item.View);
  Aggregator.counts().countRead(OfBinary);
  uint32_t Entries = R.HasPrevTarget ? 2 : 1;
  if (!OfBinary) {
    Aggregator.counts().skipStack(Entries);
    return Error::success();
  }
  Item.IsStack = true;
  Item.IPOrCount = Entries;
  Item.First = Current.Spe.size();
  Current.Spe.push_back({R.PC, R.Target, R.mispredicted()});
  if (R.HasPrevTarget)
    Current.Spe.push_back({0, R.PrevTarget, false});
  Current.Items.push_back(Item);
  submitIfFull();
  return Error::success();
}

/// The build IDs `perf buildid-list` would list: the BUILD_ID feature's,
/// or without one (and in a pipe) those of HEADER_BUILD_ID and MMAP2
/// records, read in a pass of their own that gives back the pages it read
/// when \p Mapped.
Expected<std::vector<RecordedBuildID>>
listBuildIDs(MemoryBufferRef Buffer, bool Mapped, const PerfFile &File) {
  std::vector<RecordedBuildID> IDs;
  if (File.hasBuildIDFeature()) {
    for (const BuildIDEntry &B : File.buildIDs())
      IDs.push_back({B.ID, B.Path});
    return IDs;
  }
  Expected<std::unique_ptr<PerfFile>> Scan = PerfFile::create(Buffer);
  if (!Scan)
    return Scan.takeError();
  (*Scan)->setMapped(Mapped);
  uint64_t LastRelease = 0;
  if (Error E = (*Scan)->forEachRecord([&](const Record &R) -> Error {
        if (R.Offset - LastRelease >= PerfFile::ReleaseStep) {
          (*Scan)->releaseBefore(R.Offset);
          LastRelease = R.Offset;
        }
        if (R.Type != record::MMap2 || !(R.Misc & misc::MMapBuildID))
          return Error::success();
        MMapEvent M;
        if (Error E = (*Scan)->decodeMMap(R, M))
          return E;
        IDs.push_back({toHex(M.BuildID, /*LowerCase=*/true), M.FileName.str()});
        return Error::success();
      }))
    return E;
  for (const BuildIDEntry &B : (*Scan)->buildIDs())
    IDs.push_back({B.ID, B.Path});
  return IDs;
}

Expected<BranchProfile> readNatively(MemoryBufferRef Ref, bool Mapped,
                                     const PerfBinary &Binary,
                                     const PerfDataOptions &Options);

} // namespace

Expected<BranchProfile> readPerfDataNatively(StringRef PerfData,
                                             const PerfBinary &Binary,
                                             const PerfDataOptions &Options) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(PerfData, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(), Buffer.getError().message());
  return readNatively((*Buffer)->getMemBufferRef(),
                      (*Buffer)->getBufferKind() ==
                          MemoryBuffer::MemoryBuffer_MMap,
                      Binary, Options);
}

Expected<BranchProfile> readPerfDataBuffer(MemoryBufferRef Ref,
                                           const PerfBinary &Binary,
                                           const PerfDataOptions &Options) {
  return readNatively(Ref, /*Mapped=*/false, Binary, Options);
}

namespace {

Expected<BranchProfile> readNatively(MemoryBufferRef Ref, bool Mapped,
                                     const PerfBinary &Binary,
                                     const PerfDataOptions &Options) {
  StringRef PerfData = Ref.getBufferIdentifier();
  Expected<std::unique_ptr<PerfFile>> File = PerfFile::create(Ref);
  if (!File)
    return File.takeError();

  Expected<std::vector<RecordedBuildID>> IDs =
      listBuildIDs(Ref, Mapped, **File);
  if (!IDs)
    return IDs.takeError();
  Expected<PerfScriptOptions> ScriptOptions =
      scriptOptionsFor(*IDs, Binary, Options);
  if (!ScriptOptions)
    return ScriptOptions.takeError();

  unsigned Threads = threadCount(Options.Threads);
  PerfAggregator Aggregator(Binary, *ScriptOptions);
  (*File)->setMapped(Mapped);
  NativeReader Reader(**File, Aggregator, Threads, Options.ArmSpe);
  Error E = Reader.read();
  std::vector<PerfAggregator::RawCounts> Counts = Reader.takeCounts();
  if (E)
    return E;
  if (Error E = Aggregator.checkMapped(PerfData))
    return E;
  BranchProfile Profile = Aggregator.finish(std::move(Counts));
  Profile.HasBranches = Reader.branches();
  return Profile;
}

} // namespace

} // namespace bbmap
