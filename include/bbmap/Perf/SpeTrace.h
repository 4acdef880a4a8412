//===- SpeTrace.h - ARM SPE records in perf's delivery order ----*- C++ -*-===//
//
// A perf.data file of `perf record -e arm_spe_0//` holds the SPE records
// as AUX data: PERF_RECORD_AUXTRACE records (a 48-byte header: size,
// offset, reference, idx, tid, cpu; the data follows the record, outside
// its header's size), one queue per idx (per-CPU recording: idx is the
// CPU, tid -1; per-thread: a queue per thread, cpu -1), which
// PERF_RECORD_AUXTRACE_INFO announces (type 4, priv[0] the SPE PMU's type,
// priv[1] per-CPU). perf 6.1 (`perf script --itrace`, util/arm-spe.c and
// util/auxtrace.c) turns each SPE record into synthesized samples, handed
// to the tool between the kernel's records; SpeStream hands the records
// on at the same points, with the PID, TID, CPU and time perf gives those
// samples, to every consumer alike (bbmap-dump's printer, the native
// profile reader):
//
//  - the data: in a file with the AUXTRACE feature, every queue's data is
//    known from the start (perf reads the index); otherwise (a pipe, a
//    file without the index) a queue gets each buffer when its AUXTRACE
//    record is read. Nothing is copied: buffers are offsets into the
//    file's buffer, decoded as perf decodes them.
//  - timed decoding (some event has PERF_SAMPLE_TIME): before each record
//    perf delivers (deliverInOrder's order) whose time t is set (not 0 or
//    ~0), every queue not yet started reads its first record and enters a
//    heap keyed by that record's timestamp; then, while the heap's least
//    key is below t's counter value (TimeConversion::toCounter), that
//    queue hands on its records up to one whose timestamp (the greatest
//    seen in the queue) reaches the next queue's key + 1 (or t's), and goes
//    back into the heap with it; the heap is perf's auxtrace_heap, ties
//    included. At the end every queue is drained in the heap's order. A
//    queue that ran out of data leaves the heap for good (perf's decoder
//    then never reads what a later AUXTRACE record adds to it).
//  - timeless decoding (no event has TIME): every queue is read at the end
//    (or at an EXIT of the thread it was last given), in idx order, each
//    starting with one record of zeros as perf 6.1 does; times are 0.
//  - PID, TID and CPU, as perf 6.1 resolves them: a record's CONTEXT
//    packet (timed decoding only) makes its TID the current thread of the
//    queue's CPU (a CONTEXT packet in a queue without a CPU is an error,
//    as perf 6.1 fails there); once any record had one, a queue's TID is
//    its CPU's current thread, else (no CONTEXT packet so far) it is
//    looked up before each run: the CPU's current thread (set by
//    SWITCH_CPU_WIDE/SWITCH out records) or the queue's tid; the PID is
//    that thread's pid in perf's model of the machine's threads (machine.c):
//    threads are made and named by the COMM, MMAP/MMAP2, FORK, EXIT and
//    NAMESPACES records and the samples delivered so far (perf script
//    with --show-task-events --show-mmap-events, which make each printed
//    record's thread too), a thread first made by a CONTEXT packet has pid
//    -1 until a record names its pid, and a FORK replaces its child's
//    thread. A queue keeps the thread it looked up until the current
//    thread changes, as perf does. The CPU is the queue's.
//
// The model starts at the first AUXTRACE_INFO of ARM SPE (perf record
// writes it before any record of the kernel) whose PMU type an event of
// the file has (perf synthesizes no sample without one): records
// delivered before it are not seen. AUXTRACE_INFO of other types (Intel
// PT, CoreSight) is left alone. Malformed AUX data (ArmSpe.h), an
// AUXTRACE record or index entry perf cannot read, and what perf 6.1 fails
// on (a TIME_CONV of time_mult 0 when times are converted, a CONTEXT
// packet or SWITCH record without a CPU) is one DecodeError naming the
// file offset.
//
// Threading: an SpeStream and its callbacks are one thread's; the
// TimeConversion and AuxtraceHeap are plain values.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PERF_SPETRACE_H
#define BBMAP_PERF_SPETRACE_H

#include "bbmap/Perf/ArmSpe.h"
#include "bbmap/Perf/EventQueue.h"
#include "bbmap/Perf/PerfFile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace bbmap::perf {

/// PERF_RECORD_AUXTRACE_INFO's type for ARM SPE.
inline constexpr uint32_t AuxtraceArmSpe = 4;

/// perf's conversion between its times (ns) and the counter SPE
/// timestamps count (util/tsc.c), from PERF_RECORD_TIME_CONV, with perf's
/// field widths (time_shift u16, time_mult u32); shifts wrap at 64 as on
/// the x86-64 machines perf 6.1 runs on.
struct TimeConversion {
  uint16_t TimeShift = 0;
  uint32_t TimeMult = 0;
  uint64_t TimeZero = 0;
  uint64_t TimeCycles = 0;
  uint64_t TimeMask = 0;
  bool CapUserTimeZero = false;
  bool CapUserTimeShort = false;

  /// Decodes a TIME_CONV record (the 32-byte form of perf before 5.11, or
  /// the one with time_cycles, time_mask and the two flags).
  static llvm::Expected<TimeConversion> decode(const Record &R,
                                               const ByteOrder &Order);
  /// perf_time_to_tsc; none when TimeMult is 0 (perf divides by zero).
  std::optional<uint64_t> toCounter(uint64_t PerfTime) const;
  /// tsc_to_perf_time, with cap_user_time_short's wrap of the counter.
  uint64_t toPerfTime(uint64_t Counter) const;
};

/// perf's auxtrace_heap: a binary min-heap of queue numbers by a key, in
/// the array layout perf keeps, so that queues of equal keys come out in
/// perf's order.
class AuxtraceHeap {
public:
  void add(uint32_t Queue, uint64_t Key);
  /// Removes the least; nothing if empty.
  void pop();
  bool empty() const { return Count == 0; }
  size_t size() const { return Count; }
  uint32_t topQueue() const { return Items[0].Queue; }
  uint64_t topKey() const { return Items[0].Key; }

private:
  struct Item {
    uint32_t Queue;
    uint64_t Key;
  };
  void place(size_t Pos, Item I);
  std::vector<Item> Items;
  size_t Count = 0;
};

/// An SPE record handed on, with what perf 6.1 gives the samples it
/// synthesizes from it (arm_spe_prep_sample). Record is valid during the
/// call only.
struct SpeSample {
  const SpeRecord &Record;
  int32_t PID;
  int32_t TID;
  int32_t CPU;
  /// The perf time of the record's timestamp; 0 in timeless decoding.
  uint64_t Time;
  /// The AUX queue (idx) it came from.
  uint32_t Queue;
};

using SpeDeliver = llvm::function_ref<llvm::Error(const SpeSample &)>;

class SpeStream {
public:
  explicit SpeStream(PerfFile &File);
  ~SpeStream();

  /// Reads every record of the file as deliverInOrder does, handing the
  /// records of the kernel to \p D in perf's delivery order (and every
  /// record to \p Arrived as it is read), and each SPE record to \p Spe
  /// just before the record whose delivery makes perf 6.1 synthesize its
  /// samples, or after the last one for those perf synthesizes at the end.
  /// \p InUse as for deliverInOrder; the AUX data the queues have still to
  /// read is kept as well.
  llvm::Error
  deliver(EventQueue::Deliver D, SpeDeliver Spe,
          llvm::function_ref<llvm::Error(const Record &)> Arrived = {},
          llvm::function_ref<uint64_t()> InUse = {});

  /// Whether SPE records are decoded: an AUXTRACE_INFO of ARM SPE was read
  /// and an event has its PMU type. Callbacks may ask.
  bool decoding() const;
  /// Whether decoding is timeless (no event had TIME at AUXTRACE_INFO).
  bool timeless() const;
  /// The event of the SPE PMU's type (perf's first), or null.
  const Event *auxEvent() const;

private:
  class Impl;
  std::unique_ptr<Impl> I;
};

/// SpeStream(File).deliver(D, Spe, Arrived, InUse).
llvm::Error deliverInOrderWithSpe(
    PerfFile &File, EventQueue::Deliver D, SpeDeliver Spe,
    llvm::function_ref<llvm::Error(const Record &)> Arrived = {},
    llvm::function_ref<uint64_t()> InUse = {});

} // namespace bbmap::perf

#endif // BBMAP_PERF_SPETRACE_H
