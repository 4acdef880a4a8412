//===- fuzz-preagg.cpp - fuzz the pre-aggregated profile reader -----------===//
//
// libFuzzer target for PreAggregatedReader. The input is the profile text,
// read twice: without a build ID (every record accepted) and as the binary
// with build ID "ab12" (records of other build IDs skipped). Errors name the
// buffer and agree between the reads (only a summed count's overflow may
// differ); on success the second read holds no more distinct records than
// the first, and both stay within the limits the reader promises: no more
// records than lines, counts within int64_t.
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
  Expected<BranchProfile> All = PreAggregatedReader::read(Buffer, "", 1);
  Expected<BranchProfile> Own = PreAggregatedReader::read(Buffer, "ab12", 1);
  // Skipping records can only avoid a summed count's overflow, never cause
  // an error; every other error is the same in both reads, unless the
  // first read stopped earlier at an overflow the second one avoided.
  if (!All || !Own) {
    std::string AllMessage = All ? "" : toString(All.takeError());
    std::string OwnMessage = Own ? "" : toString(Own.takeError());
    bool AllOverflow = StringRef(AllMessage).contains("exceeds 2^63-1");
    check(!AllMessage.empty() && StringRef(AllMessage).starts_with("fuzz:"));
    check(AllOverflow || OwnMessage == AllMessage ||
          StringRef(OwnMessage).contains("exceeds 2^63-1"));
    return 0;
  }
  size_t Lines = Text.count('\n') + 1;
  checkLimits(*All, Lines);
  checkLimits(*Own, Lines);
  check(All->Skipped.OtherBinary == 0 && All->Events == Own->Events &&
        All->HasBranches == Own->HasBranches &&
        Own->Traces.size() <= All->Traces.size() &&
        Own->Samples.size() <= All->Samples.size());
  return 0;
}
