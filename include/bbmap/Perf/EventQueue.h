//===- EventQueue.h - records in perf's delivery order ----------*- C++ -*-===//
//
// perf does not hand on records in file order: each CPU's ring buffer is
// written in turn, so it sorts them by timestamp (util/ordered-events.c).
// EventQueue delivers records in exactly the order perf 6.1 does:
//
//   - a record without a timestamp (~0 or 0) is delivered at once;
//   - others are queued; ties keep their order of arrival;
//   - at each FINISHED_ROUND the queued records up to the limit are
//     delivered, and the limit becomes the timestamp of the last record
//     that was queued at the tail (the greatest queued so far);
//   - at the end everything left is delivered.
//
// Memory holds the records of about two rounds, not of the file, and at
// most MaxQueuedBytes: past that, the older half of the queue is delivered
// at once, like perf's ordered events when they reach their size limit
// (OE_FLUSH__HALF). Only a file without rounds, or compressed data that
// unpacks to far more than it takes, gets there; records that arrive
// after it with an older timestamp are delivered late.
//
// deliverInOrder reads a PerfFile through an EventQueue: what every reader
// of records in perf's order (bbmap-dump's printer, the native profile
// reader) does.
//
// Threading: an EventQueue and deliverInOrder's reading are one thread's.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PERF_EVENTQUEUE_H
#define BBMAP_PERF_EVENTQUEUE_H

#include "bbmap/Perf/PerfEvent.h"
#include "bbmap/Perf/PerfFile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <vector>

namespace bbmap::perf {

class EventQueue {
public:
  /// The memory queued records may hold before the older half goes.
  static constexpr size_t MaxQueuedBytes = size_t(512) << 20;

  using Deliver = llvm::function_ref<llvm::Error(const Record &)>;

  /// Queues \p R, or delivers it when it has no timestamp. With
  /// \p Transient, the record's bytes are copied (they come from
  /// decompressed data that is reused).
  llvm::Error push(const Record &R, uint64_t Time, bool Transient, Deliver D);
  /// PERF_RECORD_FINISHED_ROUND.
  llvm::Error finishRound(Deliver D);
  /// The end of the input.
  llvm::Error finish(Deliver D);
  /// The smallest file offset of a queued record whose bytes are not a
  /// copy (~0 if none): memory before it is no longer referred to.
  uint64_t oldestOffset() const;

private:
  struct Entry {
    uint64_t Time;
    Record R;
    /// The bytes of a transient record.
    std::unique_ptr<uint8_t[]> Copy;
  };
  llvm::Error flush(uint64_t Limit, Deliver D);
  /// Delivers the older half of the queue.
  llvm::Error flushHalf(Deliver D);
  /// Delivers the sorted queue's records before \p Last.
  llvm::Error deliverFront(std::vector<Entry>::iterator Last, Deliver D);
  static size_t heldBytes(const Entry &E);
  static bool earlier(const Entry &A, const Entry &B);

  std::vector<Entry> Queue;
  /// What the queued records hold: entries and copies.
  size_t QueuedBytes = 0;
  /// The greatest timestamp queued (the tail of perf's sorted list).
  uint64_t QueuedMax = 0;
  /// perf's max_timestamp and next_flush.
  uint64_t MaxTime = 0;
  uint64_t NextFlush = 0;
};

/// Reads every record of \p File and hands those the kernel wrote to \p D
/// in perf's delivery order: each queued by its timestamp in an
/// EventQueue, rounds delivered at FINISHED_ROUND, the rest at the end.
/// \p Arrived, when given, sees each record first, as it comes in the
/// file, those perf writes for itself included. As reading goes, the
/// mapped pages of the file before both the oldest record queued and the
/// offset \p InUse returns (~0 for none; a caller that keeps records'
/// bytes past their delivery tells so) are given back.
llvm::Error
deliverInOrder(PerfFile &File, EventQueue::Deliver D,
               llvm::function_ref<llvm::Error(const Record &)> Arrived = {},
               llvm::function_ref<uint64_t()> InUse = {});

} // namespace bbmap::perf

#endif // BBMAP_PERF_EVENTQUEUE_H
