//===- fuzz-perfscript.cpp - fuzz the perf script reader ------------------===//
//
// libFuzzer target for PerfScriptReader. The input is perf script text
// (seeds: fuzz/corpus-seeds/perfscript). It is read three ways: whole,
// for a position-independent binary named "prog" with a build-id; whole,
// for the same binary linked at 0x400000 (ET_EXEC, so samples without an
// mmap event are read too); and split at its middle line into two parse()
// calls that share the mmap state. Every read profile is walked.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PerfScriptReader.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstddef>
#include <cstdint>

using namespace llvm;
using namespace bbmap;

namespace {

/// The layout of a small clang-built program: R, R+X, R and RW segments.
PerfBinary makeBinary(bool Fixed) {
  uint64_t Base = Fixed ? 0x400000 : 0;
  PerfBinary B;
  B.Name = "prog";
  B.BuildID = "03ee79d72da56d015c9867a352f528e14c4ff6c9";
  B.FixedAddress = Fixed;
  B.Segments = {{0x0, Base, 0x668, 0x668, false},
                {0x1000, Base + 0x1000, 0x2a9, 0x2a9, true},
                {0x2000, Base + 0x2000, 0x11c, 0x11c, false},
                {0x2db0, Base + 0x3db0, 0x270, 0x278, false}};
  return B;
}

/// Touches every record so that the sanitizers see what the reader built.
uint64_t walk(const BranchProfile &P) {
  uint64_t Sum = P.Skipped.OtherBinary + P.Skipped.Outside;
  for (const Trace &T : P.Traces)
    Sum += T.From + T.To + T.FallthroughEnd + T.Count + T.Mispreds +
           T.hasBranch() + T.hasFallthrough();
  for (const Sample &S : P.Samples)
    Sum += S.Address + S.Count;
  for (const std::string &E : P.Events)
    Sum += E.size();
  return Sum;
}

void readWhole(StringRef Text, const PerfBinary &Binary) {
  Expected<BranchProfile> P =
      PerfScriptReader::read(MemoryBufferRef(Text, "fuzz"), Binary);
  if (!P) {
    consumeError(P.takeError());
    return;
  }
  volatile uint64_t Sink = walk(*P);
  (void)Sink;
}

void readSplit(StringRef Text, const PerfBinary &Binary) {
  size_t Middle = Text.find('\n', Text.size() / 2);
  if (Middle == StringRef::npos)
    return;
  PerfScriptOptions Options;
  Options.IgnoreBuildID = true;
  PerfScriptReader Reader(Binary, Options);
  for (StringRef Part :
       {Text.take_front(Middle + 1), Text.drop_front(Middle + 1)})
    if (Error E = Reader.parse(MemoryBufferRef(Part, "fuzz"))) {
      consumeError(std::move(E));
      return;
    }
  volatile uint64_t Sink = walk(Reader.takeProfile());
  (void)Sink;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const PerfBinary PIE = makeBinary(false);
  static const PerfBinary Fixed = makeBinary(true);
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  readWhole(Text, PIE);
  readWhole(Text, Fixed);
  readSplit(Text, PIE);
  return 0;
}
