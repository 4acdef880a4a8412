//===- fuzz/fuzz-preagg.cpp - fuzz the pre-aggregated profile reader ------===//
//
// libFuzzer target for PreAggregatedReader. The input is the profile text,
// read twice: without a build ID (every record accepted) and as the binary
// with build ID "ab12" (records of other build IDs skipped). Both reads
// must fail with the same message, naming the buffer, or both succeed with
// the same records except the skipped ones, within the limits the reader
// promises: no more records than lines, counts within int64_t.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PreAggregatedReader.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>

using namespace llvm;
using namespace bbmap;

namespace {

constexpr uint64_t MaxCount = std::numeric_limits<int64_t>::max();

void check(bool Condition) {
  if (!Condition)
    abort();
}

void checkLimits(const BranchProfile &P, size_t Lines) {
  check(P.Traces.size() + P.Samples.size() + P.Events.size() +
            P.Skipped.OtherBinary + P.Skipped.Outside <=
        Lines);
  for (const Trace &T : P.Traces)
    check(T.Count <= MaxCount && T.Mispreds <= MaxCount &&
          (T.hasBranch() || !T.FromExternal) &&
          !(T.FromExternal && T.ToExternal));
  for (const Sample &S : P.Samples)
    check(S.Count <= MaxCount);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  MemoryBufferRef Buffer(Text, "fuzz");
  Expected<BranchProfile> All = PreAggregatedReader::read(Buffer, "");
  Expected<BranchProfile> Own = PreAggregatedReader::read(Buffer, "ab12");
  check(!All == !Own);
  if (!All) {
    std::string Message = toString(All.takeError());
    check(StringRef(Message).starts_with("fuzz:"));
    check(Message == toString(Own.takeError()));
    return 0;
  }
  size_t Lines = Text.count('\n') + 1;
  checkLimits(*All, Lines);
  checkLimits(*Own, Lines);
  check(All->Skipped.OtherBinary == 0 && All->Events == Own->Events &&
        All->HasBranches == Own->HasBranches &&
        All->Traces.size() + All->Samples.size() + All->Skipped.Outside ==
            Own->Traces.size() + Own->Samples.size() + Own->Skipped.Outside +
                Own->Skipped.OtherBinary);
  return 0;
}
