//===- EventQueue.cpp - records in perf's delivery order ------------------===//
//
// The queue is a vector in arrival order, stably sorted by timestamp when
// a round is flushed: the records left from earlier rounds all arrived
// before the new ones, so ties stay in arrival order, as in perf's list.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/EventQueue.h"
#include <algorithm>
#include <cstring>

using namespace llvm;

namespace bbmap::perf {

Error EventQueue::push(const Record &R, uint64_t Time, bool Transient,
                       Deliver D) {
  if (Time == 0 || Time == ~0ULL)
    return D(R);
  // perf's queue_event: an event that goes to the tail of the sorted list
  // (or into an empty one) sets max_timestamp.
  if (Queue.empty() || Time >= QueuedMax)
    MaxTime = Time;
  QueuedMax = Queue.empty() ? Time : std::max(QueuedMax, Time);
  Entry E{Time, R, nullptr};
  if (Transient) {
    E.Copy.reset(new uint8_t[R.Bytes.size()]);
    std::memcpy(E.Copy.get(), R.Bytes.data(), R.Bytes.size());
    E.R.Bytes = ArrayRef(E.Copy.get(), R.Bytes.size());
  }
  QueuedBytes += heldBytes(E);
  Queue.push_back(std::move(E));
  if (QueuedBytes > MaxQueuedBytes)
    return flushHalf(D);
  return Error::success();
}

size_t EventQueue::heldBytes(const Entry &E) {
  return sizeof(Entry) + (E.Copy ? E.R.Bytes.size() : 0);
}

bool EventQueue::earlier(const Entry &A, const Entry &B) {
  return A.Time < B.Time;
}

Error EventQueue::flush(uint64_t Limit, Deliver D) {
  // One CPU's records, or records already in order, need no sorting.
  if (!std::is_sorted(Queue.begin(), Queue.end(), earlier))
    std::stable_sort(Queue.begin(), Queue.end(), earlier);
  auto Last =
      std::upper_bound(Queue.begin(), Queue.end(), Limit,
                       [](uint64_t L, const Entry &E) { return L < E.Time; });
  return deliverFront(Last, D);
}

Error EventQueue::flushHalf(Deliver D) {
  std::stable_sort(Queue.begin(), Queue.end(), earlier);
  return deliverFront(Queue.begin() + (Queue.size() + 1) / 2, D);
}

Error EventQueue::deliverFront(std::vector<Entry>::iterator Last, Deliver D) {
  for (auto It = Queue.begin(); It != Last; ++It) {
    if (Error E = D(It->R))
      return E;
    QueuedBytes -= heldBytes(*It);
  }
  Queue.erase(Queue.begin(), Last);
  QueuedMax = Queue.empty() ? 0 : Queue.back().Time;
  return Error::success();
}

Error EventQueue::finishRound(Deliver D) {
  if (Error E = flush(NextFlush, D))
    return E;
  NextFlush = MaxTime;
  return Error::success();
}

Error EventQueue::finish(Deliver D) { return flush(~0ULL, D); }

uint64_t EventQueue::oldestOffset() const {
  uint64_t Oldest = ~0ULL;
  for (const Entry &E : Queue)
    if (!E.Copy)
      Oldest = std::min(Oldest, E.R.Offset);
  return Oldest;
}

Error deliverInOrder(PerfFile &File, EventQueue::Deliver D,
                     function_ref<Error(const Record &)> Arrived,
                     function_ref<uint64_t()> InUse) {
  EventQueue Queue;
  uint64_t LastRelease = 0;
  if (Error E = File.forEachRecord([&](const Record &R) -> Error {
        if (Arrived)
          if (Error E = Arrived(R))
            return E;
        if (R.Type == record::FinishedRound)
          return Queue.finishRound(D);
        if (R.Type >= record::UserTypeStart)
          return Error::success();
        Expected<uint64_t> Time = File.timestamp(R);
        if (!Time)
          return Time.takeError();
        if (R.Offset - LastRelease >= PerfFile::ReleaseStep) {
          File.releaseBefore(std::min({R.Offset, Queue.oldestOffset(),
                                       InUse ? InUse() : ~uint64_t(0)}));
          LastRelease = R.Offset;
        }
        return Queue.push(R, *Time, R.Compressed, D);
      }))
    return E;
  return Queue.finish(D);
}

} // namespace bbmap::perf
