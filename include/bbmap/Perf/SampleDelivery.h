//===- SampleDelivery.h - the events a sample is delivered as ---*- C++ -*-===//
//
// perf hands a sample to its tools once, as the event the sample names,
// unless the sample carries READ values (perf record -s, ':S' groups):
// then once per value, as the event whose ID the value names, with the
// value's growth since that ID's last sample as period, and not at all
// when it did not grow or names no event (perf 6.1's
// evlist__deliver_sample). The growth is state kept per ID, so samples
// must go through one SampleDelivery in perf's delivery order.
//
// Threading: a SampleDelivery keeps per-ID state: one thread's.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PERF_SAMPLEDELIVERY_H
#define BBMAP_PERF_SAMPLEDELIVERY_H

#include "bbmap/Perf/PerfFile.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace bbmap::perf {

class SampleDelivery {
public:
  explicit SampleDelivery(const PerfFile &File) : File(File) {}

  /// The events \p S is delivered as, in order.
  void deliver(const Sample &S, llvm::SmallVectorImpl<const Event *> &As);

private:
  const PerfFile &File;
  llvm::DenseMap<uint64_t, uint64_t> LastValue;
  llvm::SmallVector<ReadValue, 4> Values;
};

} // namespace bbmap::perf

#endif // BBMAP_PERF_SAMPLEDELIVERY_H
