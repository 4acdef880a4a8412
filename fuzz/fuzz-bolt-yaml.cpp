//===- fuzz-bolt-yaml.cpp - fuzz the BOLT YAML profile reader -------------===//
//
// libFuzzer target for readBoltYAML and writeBoltYAML. An error must name
// the buffer; a profile read must keep the promises of the checks (blocks
// and successors below nblocks, each fid once), and what the writer makes
// of it must read back without error and, when the reader left nothing
// out, write back to the same bytes.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BoltYAML.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace llvm;
using namespace bbmap::boltyaml;

namespace {

void check(bool Condition) {
  if (!Condition)
    abort();
}

void checkProfile(const Profile &P) {
  bbmap::AnyKeySet<uint32_t> Ids;
  for (const Function &F : P.Functions) {
    check(Ids.insert(F.Id).second);
    for (const Block &B : F.Blocks) {
      check(B.Index < F.NumBlocks);
      for (const Successor &S : B.Successors)
        check(S.Index < F.NumBlocks);
    }
  }
}

std::string write(const Profile &P) {
  std::string Text;
  raw_string_ostream OS(Text);
  writeBoltYAML(P, OS);
  return Text;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  std::vector<FunctionProblem> Problems;
  Expected<Profile> P = readBoltYAML(MemoryBufferRef(Text, "fuzz"), &Problems);
  if (!P) {
    check(StringRef(toString(P.takeError())).starts_with("fuzz"));
    return 0;
  }
  checkProfile(*P);
  std::string Written = write(*P);
  std::vector<FunctionProblem> Again;
  Expected<Profile> Reread =
      readBoltYAML(MemoryBufferRef(Written, "written"), &Again);
  if (!Reread) {
    errs() << toString(Reread.takeError()) << "\n";
    abort();
  }
  if (Problems.empty())
    check(Again.empty() && write(*Reread) == Written);
  return 0;
}
