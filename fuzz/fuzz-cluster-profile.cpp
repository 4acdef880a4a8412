//===- fuzz-cluster-profile.cpp - fuzz the cluster profile reader ---------===//
//
// libFuzzer target for readClusterProfile and readSymbolOrder (what
// bbmap-dump --check-layout reads). An error names its line, or says the
// profile is empty; what is accepted holds no more functions, clusters or
// symbols than the text has lines, and every function has a name.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Layout/ClusterProfile.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace llvm;
using namespace bbmap;

namespace {

void check(bool Condition) {
  if (!Condition)
    abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  size_t Lines = Text.count('\n') + 1;
  check(readSymbolOrder(Text).size() <= Lines);
  Expected<ClusterProfile> P = readClusterProfile(Text);
  if (!P) {
    std::string Message = toString(P.takeError());
    check(StringRef(Message).starts_with("line ") ||
          StringRef(Message).starts_with("an empty profile"));
    return 0;
  }
  size_t Clusters = 0;
  for (const ClusterFunction &F : P->Functions) {
    check(!F.Names.empty() && F.Line >= 2 && F.Line <= Lines);
    Clusters += F.Clusters.size() + F.ClonePaths.size();
  }
  check(P->Functions.size() + Clusters < Lines);
  return 0;
}
