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
// Memory holds the records of about two rounds, not of the file.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PERF_EVENTQUEUE_H
#define BBMAP_PERF_EVENTQUEUE_H

#include "bbmap/Perf/PerfEvent.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <vector>

namespace bbmap::perf {

class EventQueue {
public:
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

  std::vector<Entry> Queue;
  /// The greatest timestamp queued (the tail of perf's sorted list).
  uint64_t QueuedMax = 0;
  /// perf's max_timestamp and next_flush.
  uint64_t MaxTime = 0;
  uint64_t NextFlush = 0;
};

} // namespace bbmap::perf

#endif // BBMAP_PERF_EVENTQUEUE_H
