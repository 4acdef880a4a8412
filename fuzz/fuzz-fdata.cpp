//===- fuzz-fdata.cpp - fuzz the fdata profile reader ---------------------===//
//
// libFuzzer target for FdataReader. Symbol names resolve through a hash of
// the name: one name in four is unknown and one in sixteen lies near the
// top of the address space, so that unresolved names and address overflow
// are reached as well as ordinary symbols. What the reader accepts is
// checked against the limits it promises.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/FdataReader.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/xxhash.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>

using namespace llvm;
using namespace bbmap;

namespace {

constexpr uint64_t MaxCount = std::numeric_limits<int64_t>::max();

void check(bool Condition) {
  if (!Condition)
    abort();
}

std::optional<uint64_t> resolve(StringRef Name) {
  uint64_t Hash = xxh3_64bits(Name);
  if ((Hash & 3) == 0)
    return std::nullopt;
  if ((Hash & 15) == 1)
    return ~uint64_t(0) - (Hash >> 56);
  return Hash >> 16;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Expected<FdataProfile> R =
      FdataReader::read(MemoryBufferRef(Text, "fuzz"), resolve);
  if (!R) {
    check(StringRef(toString(R.takeError())).starts_with("fuzz:"));
    return 0;
  }
  const BranchProfile &P = R->Profile;
  size_t Lines = Text.count('\n') + 1;
  check(P.Traces.size() + P.Samples.size() + R->MemoryRecords +
            P.Skipped.Outside <=
        Lines);
  check(R->UnresolvedNames.size() <= R->UnresolvedLocations);
  check(P.HasBranches || P.Traces.empty());
  for (const Trace &T : P.Traces)
    check(T.Kind == TraceKind::Branch && T.Count <= MaxCount &&
          T.Mispreds <= MaxCount && !(T.FromExternal && T.ToExternal));
  for (const Sample &S : P.Samples)
    check(S.Count <= MaxCount);
  return 0;
}
