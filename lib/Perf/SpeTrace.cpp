//===- SpeTrace.cpp - ARM SPE records in perf's delivery order ------------===//
//
// SpeStream::Impl is perf 6.1's arm_spe decoder state (its queues, heap
// and time conversion) together with the part of perf's machine the
// records' PIDs come from (threads by TID, each CPU's current thread).
// deliverInOrder drives it: records arriving in file order bring the
// AUXTRACE_INFO, TIME_CONV and AUXTRACE records; each delivered record
// first runs the queues up to its time (arm_spe_process_event), is handed
// to the consumer, then updates the threads as perf script's handling of
// it does.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/SpeTrace.h"
#include "bbmap/Perf/SampleDelivery.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/ADT/Twine.h"
#include <algorithm>
#include <map>

using namespace llvm;

namespace bbmap::perf {

namespace {

/// struct perf_record_auxtrace: header, size, offset, reference, idx, tid,
/// cpu, reserved.
constexpr uint64_t AuxtraceHeaderSize = 48;
/// struct perf_record_auxtrace_info with ARM SPE's two priv words.
constexpr uint64_t SpeInfoSize = 32;
/// PERF_RECORD_MISC_SWITCH_OUT.
constexpr uint16_t MiscSwitchOut = 1 << 13;
/// PERF_RECORD_MISC_KERNEL and PERF_RECORD_MISC_GUEST_KERNEL.
constexpr uint16_t CPUModeKernel = 1, CPUModeGuestKernel = 4;

/// x86-64 shifts by the count's low six bits.
uint64_t shl(uint64_t V, unsigned S) { return V << (S & 63); }
uint64_t shr(uint64_t V, unsigned S) { return V >> (S & 63); }

} // namespace

//===----------------------------------------------------------------------===//
// TimeConversion
//===----------------------------------------------------------------------===//

Expected<TimeConversion> TimeConversion::decode(const Record &R,
                                                const ByteOrder &Order) {
  // header, time_shift, time_mult, time_zero; then time_cycles, time_mask,
  // cap_user_time_zero, cap_user_time_short (perf reads them when the
  // record is longer than 32 bytes).
  uint64_t Size = R.Bytes.size();
  if (Size != 32 && Size < 50)
    return decodeError(R.Offset, "TIME_CONV record of " + Twine(Size) +
                                     " bytes is neither the 32-byte nor the "
                                     "56-byte form");
  const uint8_t *P = R.Bytes.data();
  TimeConversion T;
  T.TimeShift = Order.u64(P + 8);
  T.TimeMult = Order.u64(P + 16);
  T.TimeZero = Order.u64(P + 24);
  if (Size > 32) {
    T.TimeCycles = Order.u64(P + 32);
    T.TimeMask = Order.u64(P + 40);
    T.CapUserTimeZero = P[48];
    T.CapUserTimeShort = P[49];
  }
  return T;
}

std::optional<uint64_t> TimeConversion::toCounter(uint64_t PerfTime) const {
  if (!TimeMult)
    return std::nullopt;
  uint64_t T = PerfTime - TimeZero;
  uint64_t Quot = T / TimeMult, Rem = T % TimeMult;
  return shl(Quot, TimeShift) + shl(Rem, TimeShift) / TimeMult;
}

uint64_t TimeConversion::toPerfTime(uint64_t Counter) const {
  if (CapUserTimeShort)
    Counter = TimeCycles + ((Counter - TimeCycles) & TimeMask);
  uint64_t Quot = shr(Counter, TimeShift);
  uint64_t Rem = Counter & (shl(1, TimeShift) - 1);
  return TimeZero + Quot * TimeMult + shr(Rem * TimeMult, TimeShift);
}

//===----------------------------------------------------------------------===//
// AuxtraceHeap
//===----------------------------------------------------------------------===//

void AuxtraceHeap::place(size_t Pos, Item I) {
  // Up while the parent's key is greater: an equal key stays below.
  while (Pos) {
    size_t Parent = (Pos - 1) / 2;
    if (Items[Parent].Key <= I.Key)
      break;
    Items[Pos] = Items[Parent];
    Pos = Parent;
  }
  Items[Pos] = I;
}

void AuxtraceHeap::add(uint32_t Queue, uint64_t Key) {
  if (Count == Items.size())
    Items.push_back({});
  place(Count++, {Queue, Key});
}

void AuxtraceHeap::pop() {
  if (!Count)
    return;
  // The hole at the top goes down the lesser child (the right one on a
  // tie) through every slot, the last item's included; the last item
  // then goes up from where the hole stopped.
  size_t Old = Count--;
  size_t Pos = 0;
  while (true) {
    size_t Left = 2 * Pos + 1;
    if (Left >= Old)
      break;
    size_t Right = Left + 1;
    if (Right >= Old) {
      Items[Pos] = Items[Left];
      return;
    }
    size_t Child = Items[Left].Key < Items[Right].Key ? Left : Right;
    Items[Pos] = Items[Child];
    Pos = Child;
  }
  place(Pos, Items[Old - 1]);
}

//===----------------------------------------------------------------------===//
// SpeStream::Impl
//===----------------------------------------------------------------------===//

namespace {

/// A thread of perf's machine.
struct Thread {
  int32_t TID;
  int32_t PID;
  int32_t CPU = -1;
};

/// The threads of perf's host machine by TID, and each CPU's current
/// thread (machine.c). A thread a FORK replaces stays, for the queues
/// that hold it.
class Machine {
public:
  Machine() { findNew(0, 0); }

  /// machine__findnew_thread.
  uint32_t findNew(int32_t PID, int32_t TID) {
    if (auto It = Live.find(TID); It != Live.end()) {
      uint32_t T = It->second;
      updatePID(T, PID);
      return T;
    }
    uint32_t T = Threads.size();
    Threads.push_back({TID, PID});
    Live[TID] = T;
    // A thread of a known process shares its leader's maps: perf makes
    // the leader.
    if (PID != -1 && PID != TID)
      findNew(PID, PID);
    return T;
  }

  /// machine__find_thread (which names a found thread's pid too).
  std::optional<uint32_t> find(int32_t PID, int32_t TID) {
    auto It = Live.find(TID);
    if (It == Live.end())
      return std::nullopt;
    updatePID(It->second, PID);
    return It->second;
  }

  void remove(uint32_t T) {
    auto It = Live.find(Threads[T].TID);
    if (It != Live.end() && It->second == T)
      Live.erase(It);
  }

  int32_t currentTID(int32_t CPU) const {
    auto It = Current.find(CPU);
    return It == Current.end() ? -1 : It->second;
  }

  /// machine__set_current_tid; false for a CPU below 0 (perf fails).
  bool setCurrentTID(int32_t CPU, int32_t PID, int32_t TID) {
    if (CPU < 0)
      return false;
    Current[CPU] = TID;
    Threads[findNew(PID, TID)].CPU = CPU;
    return true;
  }

  const Thread &operator[](uint32_t T) const { return Threads[T]; }

private:
  /// machine__update_thread_pid: a thread of pid -1 takes the first pid a
  /// record names.
  void updatePID(uint32_t T, int32_t PID) {
    Thread &Th = Threads[T];
    if (PID == Th.PID || PID == -1 || Th.PID != -1)
      return;
    Th.PID = PID;
    if (PID != Th.TID)
      findNew(PID, PID);
  }

  std::vector<Thread> Threads;
  AnyKeyMap<int32_t, uint32_t> Live;
  AnyKeyMap<int32_t, int32_t> Current;
};

/// A piece of a queue's AUX data.
struct AuxBuffer {
  uint64_t DataOffset;
  uint64_t Size;
  /// Where its first byte is for ALIGNMENT packets.
  uint64_t AlignAt;
};

/// An AUX queue (perf's auxtrace_queue) and its decoder's state (perf's
/// arm_spe_queue, which exists once Started).
struct Queue {
  std::vector<AuxBuffer> Buffers;
  /// The first buffer's tid and cpu.
  int32_t TID = -1;
  int32_t CPU = -1;
  bool Started = false;
  /// What the samples get.
  int32_t SamplePID = -1;
  int32_t SampleTID = -1;
  int32_t SampleCPU = -1;
  /// The thread the queue holds.
  std::optional<uint32_t> Held;
  /// The greatest timestamp read.
  uint64_t Timestamp = 0;
  size_t NextBuffer = 0;
  bool InBuffer = false;
  SpeDecoder Decoder;
  /// The record read last, handed on next.
  SpeRecord Current;
};

} // namespace

class SpeStream::Impl {
public:
  explicit Impl(PerfFile &File) : File(File), Delivery(File) {}

  PerfFile &File;

  Error arrived(const Record &R);
  Error beforeDelivery(const Record &R, SpeDeliver Spe);
  Error afterDelivery(const Record &R);
  Error flush(SpeDeliver Spe);
  uint64_t oldestOffset() const;

  bool Decoding = false;
  bool Timeless = false;
  const Event *AuxEvent = nullptr;

private:
  Error setUp(const Record &R);
  Error addIndexedBuffer(const AuxtraceIndexEntry &E);
  Error addBuffer(uint64_t RecordOffset, uint64_t DataOffset, uint64_t AlignAt);
  Error updateQueues();
  Error setUpQueue(uint32_t Index, Queue &Q);
  Error processQueues(uint64_t Until, SpeDeliver Spe);
  Error processTimeless(int32_t TID, SpeDeliver Spe);
  /// arm_spe_run_decoder: true when the queue ran out of data.
  Expected<bool> runDecoder(Queue &Q, uint32_t Index, uint64_t &Until,
                            SpeDeliver Spe);
  /// Reads the queue's next record into Current: false at the end.
  Expected<bool> readRecord(Queue &Q);
  void setSampleThread(Queue &Q);
  Error contextSwitch(const Record &R, int32_t CPU);

  /// Records delivered as perf script handles them, for the threads
  /// samples make.
  SampleDelivery Delivery;
  SmallVector<const Event *, 4> DeliveredAs;
  /// The sample being delivered, decoded before its delivery.
  Sample Delivered;
  /// The last TIME_CONV read, and the one AUXTRACE_INFO took.
  TimeConversion SessionTime;
  TimeConversion Time;
  /// An AUXTRACE_INFO of ARM SPE was read.
  bool InfoRead = false;
  /// Every buffer came from the index: AUXTRACE records are not added.
  bool DataQueued = false;
  bool NewData = false;
  /// A CONTEXT packet was read: queues take their CPU's current thread.
  bool UseContext = false;
  std::map<uint32_t, Queue> Queues;
  AuxtraceHeap Heap;
  Machine Threads;
};

Error SpeStream::Impl::arrived(const Record &R) {
  switch (R.Type) {
  case record::TimeConv: {
    Expected<TimeConversion> T = TimeConversion::decode(R, File.order());
    if (!T)
      return T.takeError();
    SessionTime = *T;
    return Error::success();
  }
  case record::AuxtraceInfo:
    return setUp(R);
  case record::Auxtrace:
    if (!Decoding || DataQueued)
      return Error::success();
    // A pipe's data goes to a buffer of perf's own: aligned apart from the
    // file.
    return addBuffer(R.Offset, R.Offset + R.Bytes.size(),
                     File.isPipe() ? 0 : R.Offset + R.Bytes.size());
  default:
    return Error::success();
  }
}

Error SpeStream::Impl::setUp(const Record &R) {
  const uint8_t *P = R.Bytes.data();
  if (R.Bytes.size() < 16)
    return decodeError(R.Offset, "truncated AUXTRACE_INFO record");
  if (File.order().u32(P + 8) != AuxtraceArmSpe)
    return Error::success();
  if (R.Bytes.size() < SpeInfoSize)
    return decodeError(
        R.Offset, "ARM SPE AUXTRACE_INFO record of " + Twine(R.Bytes.size()) +
                      " bytes, shorter than its " + Twine(SpeInfoSize));
  if (InfoRead)
    return decodeError(R.Offset, "a second AUXTRACE_INFO record of ARM SPE");
  InfoRead = true;
  uint64_t PMUType = File.order().u64(P + 16);
  // The conversion perf takes is the one read so far.
  Time = SessionTime;
  Timeless = true;
  for (const std::unique_ptr<Event> &E : File.events()) {
    if (E->Attr.has(sample::Time))
      Timeless = false;
    if (!AuxEvent && E->Attr.Type == PMUType)
      AuxEvent = E.get();
  }
  // Without an event of the SPE PMU perf synthesizes nothing: no record
  // is seen, and no thread changes.
  if (!AuxEvent)
    return Error::success();
  if (AuxEvent->IDs.empty())
    return decodeError(R.Offset, "the ARM SPE event has no sample ID (perf "
                                 "6.1 numbers its samples' events from "
                                 "the first)");
  Decoding = true;
  // Reading the index's records maps pages all over the file (and the
  // kernel maps the pages around each): those past the record being read
  // go back as reading goes, until the record walk or a queue comes to
  // them.
  uint64_t Walk = R.Offset + R.Bytes.size(), Released = Walk;
  for (const AuxtraceIndexEntry &E : File.auxtraceIndex()) {
    if (Error Err = addIndexedBuffer(E))
      return Err;
    if (E.Offset - Released >= PerfFile::ReleaseStep && E.Offset > Released) {
      File.releaseBetween(Walk, E.Offset);
      Released = E.Offset;
    }
  }
  File.releaseBetween(Walk, File.bytes().size());
  DataQueued = !Queues.empty();
  return Error::success();
}

Error SpeStream::Impl::addIndexedBuffer(const AuxtraceIndexEntry &E) {
  ArrayRef<uint8_t> Bytes = File.bytes();
  if (E.Offset > Bytes.size() || Bytes.size() - E.Offset < RecordHeaderSize)
    return decodeError(E.Offset, "AUXTRACE index entry points past the end "
                                 "of the file");
  const uint8_t *P = Bytes.data() + E.Offset;
  uint32_t Type = File.order().u32(P);
  uint16_t Size = File.order().u16(P + 6);
  if (Size < RecordHeaderSize || Size > Bytes.size() - E.Offset)
    return decodeError(E.Offset, "AUXTRACE index entry points to a record "
                                 "of size " +
                                     Twine(Size) +
                                     " that does not fit in the file");
  // perf skips entries of other records.
  if (Type != record::Auxtrace)
    return Error::success();
  if (Size < AuxtraceHeaderSize || Size != E.Size)
    return decodeError(E.Offset, "AUXTRACE record of " + Twine(Size) +
                                     " bytes where the index says " +
                                     Twine(E.Size) + " and perf needs " +
                                     Twine(AuxtraceHeaderSize));
  return addBuffer(E.Offset, E.Offset + Size, E.Offset + Size);
}

Error SpeStream::Impl::addBuffer(uint64_t RecordOffset, uint64_t DataOffset,
                                 uint64_t AlignAt) {
  ArrayRef<uint8_t> Bytes = File.bytes();
  if (DataOffset - RecordOffset < AuxtraceHeaderSize)
    return decodeError(
        RecordOffset, "AUXTRACE record of " + Twine(DataOffset - RecordOffset) +
                          " bytes, shorter than its " +
                          Twine(AuxtraceHeaderSize) + "-byte header");
  const uint8_t *P = Bytes.data() + RecordOffset;
  const ByteOrder &O = File.order();
  uint64_t Size = O.u64(P + 8);
  uint32_t Index = O.u32(P + 32);
  int32_t TID = int32_t(O.u32(P + 36));
  int32_t CPU = int32_t(O.u32(P + 40));
  if (DataOffset > Bytes.size() || Size > Bytes.size() - DataOffset)
    return decodeError(RecordOffset, "AUXTRACE record's " + Twine(Size) +
                                         " bytes of data run past the end "
                                         "of the file");
  auto [It, New] = Queues.try_emplace(Index);
  Queue &Q = It->second;
  if (New) {
    Q.TID = TID;
    Q.CPU = CPU;
  }
  Q.Buffers.push_back({DataOffset, Size, AlignAt});
  NewData = true;
  return Error::success();
}

Expected<bool> SpeStream::Impl::readRecord(Queue &Q) {
  ArrayRef<uint8_t> Bytes = File.bytes();
  while (true) {
    if (Q.InBuffer) {
      Expected<bool> Read = Q.Decoder.next(Q.Current);
      if (!Read || *Read)
        return Read;
      Q.InBuffer = false;
    }
    if (Q.NextBuffer == Q.Buffers.size()) {
      Q.Current = SpeRecord();
      return false;
    }
    const AuxBuffer &B = Q.Buffers[Q.NextBuffer++];
    if (!B.Size)
      continue;
    Q.Decoder =
        SpeDecoder(Bytes.slice(B.DataOffset, B.Size), B.DataOffset, B.AlignAt);
    Q.InBuffer = true;
  }
}

Error SpeStream::Impl::setUpQueue(uint32_t Index, Queue &Q) {
  if (Q.Buffers.empty() || Q.Started)
    return Error::success();
  Q.Started = true;
  // perf's record starts zeroed: a context of 0, not ~0.
  Q.Current = SpeRecord();
  Q.Current.ContextID = 0;
  if (Q.CPU != -1)
    Q.SampleCPU = Q.CPU;
  if (Timeless)
    return Error::success();
  Expected<bool> Read = readRecord(Q);
  if (!Read)
    return Read.takeError();
  if (!*Read)
    return Error::success();
  Q.Timestamp = Q.Current.Timestamp;
  Heap.add(Index, Q.Timestamp);
  return Error::success();
}

Error SpeStream::Impl::updateQueues() {
  if (!NewData)
    return Error::success();
  NewData = false;
  for (auto &[Index, Q] : Queues)
    if (Error E = setUpQueue(Index, Q))
      return E;
  return Error::success();
}

void SpeStream::Impl::setSampleThread(Queue &Q) {
  int32_t TID = Threads.currentTID(Q.SampleCPU);
  if (TID != -1) {
    Q.SampleTID = TID;
    Q.Held.reset();
  } else {
    Q.SampleTID = Q.TID;
  }
  if (!Q.Held && Q.SampleTID != -1)
    Q.Held = Threads.find(-1, Q.SampleTID);
  if (Q.Held) {
    Q.SamplePID = Threads[*Q.Held].PID;
    if (Q.CPU == -1)
      Q.SampleCPU = Threads[*Q.Held].CPU;
  }
}

Expected<bool> SpeStream::Impl::runDecoder(Queue &Q, uint32_t Index,
                                           uint64_t &Until, SpeDeliver Spe) {
  while (true) {
    const SpeRecord &R = Q.Current;
    if (!Timeless && R.ContextID != ~0ULL) {
      if (!Threads.setCurrentTID(Q.SampleCPU, -1, int32_t(R.ContextID)))
        return decodeError(R.Offset,
                           "SPE CONTEXT packet in AUX queue " + Twine(Index) +
                               ", which has no CPU (per-thread recording): "
                               "perf 6.1 fails on it");
      setSampleThread(Q);
      UseContext = true;
    }
    uint64_t When = Timeless ? 0 : Time.toPerfTime(R.Timestamp);
    SpeSample S{R, Q.SamplePID, Q.SampleTID, Q.SampleCPU, When, Index};
    if (Error E = Spe(S))
      return Expected<bool>(std::move(E));
    // perf script finds the thread of every sample it is given.
    Threads.findNew(Q.SamplePID, Q.SampleTID);
    Expected<bool> Read = readRecord(Q);
    if (!Read)
      return Read.takeError();
    if (!*Read)
      return true;
    Q.Timestamp = std::max(Q.Timestamp, Q.Current.Timestamp);
    if (!Timeless && Q.Timestamp >= Until) {
      Until = Q.Timestamp;
      return false;
    }
  }
}

Error SpeStream::Impl::processQueues(uint64_t Until, SpeDeliver Spe) {
  while (!Heap.empty() && Heap.topKey() < Until) {
    uint32_t Index = Heap.topQueue();
    Heap.pop();
    // The queue runs until it passes the next queue's key (+ 1: queues of
    // one key alternate a record at a time), or the event's time.
    uint64_t RunUntil = Until;
    if (!Heap.empty())
      RunUntil = std::min(Heap.topKey() + 1, Until);
    Queue &Q = Queues.find(Index)->second;
    if (!UseContext)
      setSampleThread(Q);
    Expected<bool> Done = runDecoder(Q, Index, RunUntil, Spe);
    if (!Done)
      return Done.takeError();
    // A queue that ran out of data leaves the heap for good.
    if (!*Done)
      Heap.add(Index, RunUntil);
  }
  return Error::success();
}

Error SpeStream::Impl::processTimeless(int32_t TID, SpeDeliver Spe) {
  for (auto &[Index, Q] : Queues) {
    if (!Q.Started || (TID != -1 && Q.SampleTID != TID))
      continue;
    setSampleThread(Q);
    uint64_t Until = 0;
    if (Expected<bool> Done = runDecoder(Q, Index, Until, Spe); !Done)
      return Done.takeError();
  }
  return Error::success();
}

Error SpeStream::Impl::contextSwitch(const Record &R, int32_t CPU) {
  if (!(R.Misc & MiscSwitchOut))
    return Error::success();
  // next_prev_pid and next_prev_tid; perf reads a SWITCH record's first
  // trailer words there.
  if (R.Bytes.size() < 16)
    return decodeError(R.Offset, "SWITCH record of " + Twine(R.Bytes.size()) +
                                     " bytes, shorter than the 16 perf "
                                     "reads");
  int32_t PID = int32_t(File.order().u32(R.Bytes.data() + 8));
  int32_t TID = int32_t(File.order().u32(R.Bytes.data() + 12));
  if (!Threads.setCurrentTID(CPU, PID, TID))
    return decodeError(R.Offset, "SWITCH record without a CPU: perf 6.1 "
                                 "fails on it when decoding ARM SPE");
  return Error::success();
}

Error SpeStream::Impl::beforeDelivery(const Record &R, SpeDeliver Spe) {
  // perf parses the record first and fails before decoding anything.
  Expected<uint64_t> When = File.timestamp(R);
  if (!When)
    return When.takeError();
  int32_t CPU = -1;
  if (const Event *E = File.eventOf(R)) {
    if (R.Type == record::Sample) {
      if (Error Err = File.decodeSample(R, *E, Delivered))
        return Err;
      CPU = int32_t(Delivered.CPU);
    } else {
      SampleID ID;
      if (Error Err = File.decodeSampleID(R, *E, ID))
        return Err;
      CPU = int32_t(ID.CPU);
    }
  }
  uint64_t Counter = 0;
  if (*When != 0 && *When != ~0ULL) {
    std::optional<uint64_t> C = Time.toCounter(*When);
    if (!C)
      return decodeError(R.Offset, "the TIME_CONV perf took at AUXTRACE_INFO "
                                   "has time_mult 0: perf 6.1 divides by "
                                   "zero converting this record's time");
    Counter = *C;
  }
  if (Counter || Timeless)
    if (Error E = updateQueues())
      return E;
  if (Timeless) {
    if (R.Type != record::Exit)
      return Error::success();
    TaskEvent T;
    if (Error E = File.decodeTask(R, T))
      return E;
    return processTimeless(T.TID, Spe);
  }
  if (!Counter)
    return Error::success();
  if (Error E = processQueues(Counter, Spe))
    return E;
  if (!UseContext &&
      (R.Type == record::SwitchCPUWide || R.Type == record::Switch))
    return contextSwitch(R, CPU);
  return Error::success();
}

Error SpeStream::Impl::afterDelivery(const Record &R) {
  // What perf script's handlers (with --show-task-events and
  // --show-mmap-events) do to the threads: the machine's processing, then
  // the printed record's thread.
  auto Printed = [&](int32_t PID, int32_t TID) {
    if (TID != -1)
      Threads.findNew(PID, TID);
  };
  switch (R.Type) {
  case record::Sample:
    Delivery.deliver(Delivered, DeliveredAs);
    if (!DeliveredAs.empty())
      Threads.findNew(Delivered.PID, Delivered.TID);
    return Error::success();
  case record::MMap:
  case record::MMap2: {
    MMapEvent M;
    if (Error Err = File.decodeMMap(R, M))
      return Err;
    unsigned Mode = R.Misc & misc::CPUModeMask;
    if (Mode != CPUModeKernel && Mode != CPUModeGuestKernel)
      Threads.findNew(M.PID, M.TID);
    Printed(M.PID, M.TID);
    return Error::success();
  }
  case record::Comm: {
    CommEvent C;
    if (Error Err = File.decodeComm(R, C))
      return Err;
    Threads.findNew(C.PID, C.TID);
    Printed(C.PID, C.TID);
    return Error::success();
  }
  case record::Fork: {
    TaskEvent T;
    if (Error Err = File.decodeTask(R, T))
      return Err;
    std::optional<uint32_t> Child = Threads.find(T.PID, T.TID);
    uint32_t Parent = Threads.findNew(T.PPID, T.PTID);
    // A thread of the parent's TID in another process was not the parent.
    if (Threads[Parent].PID != T.PPID) {
      Threads.remove(Parent);
      Threads.findNew(T.PPID, T.PTID);
    }
    if (Child)
      Threads.remove(*Child);
    Threads.findNew(T.PID, T.TID);
    Printed(T.PID, T.TID);
    return Error::success();
  }
  case record::Exit: {
    TaskEvent T;
    if (Error Err = File.decodeTask(R, T))
      return Err;
    Printed(T.PID, T.TID);
    Threads.find(T.PID, T.TID);
    return Error::success();
  }
  case record::Namespaces: {
    if (R.Bytes.size() < 16)
      return decodeError(R.Offset, "NAMESPACES record of " +
                                       Twine(R.Bytes.size()) +
                                       " bytes has no pid and tid");
    Threads.findNew(int32_t(File.order().u32(R.Bytes.data() + 8)),
                    int32_t(File.order().u32(R.Bytes.data() + 12)));
    return Error::success();
  }
  default:
    return Error::success();
  }
}

Error SpeStream::Impl::flush(SpeDeliver Spe) {
  if (!Decoding)
    return Error::success();
  if (Error E = updateQueues())
    return E;
  if (Timeless)
    return processTimeless(-1, Spe);
  return processQueues(~0ULL, Spe);
}

uint64_t SpeStream::Impl::oldestOffset() const {
  uint64_t Oldest = ~0ULL;
  for (const auto &[Index, Q] : Queues) {
    if (Q.InBuffer)
      Oldest = std::min(Oldest, Q.Decoder.offset());
    else if (Q.NextBuffer < Q.Buffers.size())
      Oldest = std::min(Oldest, Q.Buffers[Q.NextBuffer].DataOffset);
  }
  return Oldest;
}

//===----------------------------------------------------------------------===//
// SpeStream
//===----------------------------------------------------------------------===//

SpeStream::SpeStream(PerfFile &File) : I(std::make_unique<Impl>(File)) {}

SpeStream::~SpeStream() = default;

bool SpeStream::decoding() const { return I->Decoding; }
bool SpeStream::timeless() const { return I->Timeless; }
const Event *SpeStream::auxEvent() const { return I->AuxEvent; }

Error SpeStream::deliver(EventQueue::Deliver D, SpeDeliver Spe,
                         function_ref<Error(const Record &)> Arrived,
                         function_ref<uint64_t()> InUse) {
  Impl &S = *I;
  Error Err = deliverInOrder(
      S.File,
      [&](const Record &R) -> Error {
        if (S.Decoding)
          if (Error E = S.beforeDelivery(R, Spe))
            return E;
        if (Error E = D(R))
          return E;
        return S.Decoding ? S.afterDelivery(R) : Error::success();
      },
      [&](const Record &R) -> Error {
        if (Error E = S.arrived(R))
          return E;
        return Arrived ? Arrived(R) : Error::success();
      },
      [&] {
        return std::min(InUse ? InUse() : ~uint64_t(0), S.oldestOffset());
      });
  if (Err)
    return Err;
  return S.flush(Spe);
}

Error deliverInOrderWithSpe(PerfFile &File, EventQueue::Deliver D,
                            SpeDeliver Spe,
                            function_ref<Error(const Record &)> Arrived,
                            function_ref<uint64_t()> InUse) {
  return SpeStream(File).deliver(D, Spe, Arrived, InUse);
}

} // namespace bbmap::perf
