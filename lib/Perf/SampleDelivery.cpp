//===- SampleDelivery.cpp - the events a sample is delivered as -----------===//
//
// perf 6.1's deliver_sample_value, without the period it hands on.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/SampleDelivery.h"

using namespace llvm;

namespace bbmap::perf {

void SampleDelivery::deliver(const Sample &S,
                             SmallVectorImpl<const Event *> &As) {
  As.clear();
  if (!S.Ev->Attr.has(sample::Read)) {
    As.push_back(S.Ev);
    return;
  }
  File.readValues(S, Values);
  for (const ReadValue &V : Values) {
    const Event *E = File.eventByID(V.ID);
    if (!E)
      continue;
    uint64_t &Last = LastValue[V.ID];
    uint64_t Period = V.Value - Last;
    Last = V.Value;
    if (Period)
      As.push_back(E);
  }
}

} // namespace bbmap::perf
