//===- fuzz-perf-data.cpp - fuzz the perf.data decoder --------------------===//
//
// libFuzzer target for lib/Perf and the native perf.data reader. The input
// is a perf.data file, file or pipe mode (seeds: fuzz/seeds/fuzz-perf-data,
// recorded and generated files and cut or corrupted variants of them). It
// is printed as perf script text (-F ip and -F brstack, printPerfScript:
// on the calling thread, and on two threads with one record per batch) and
// read into a BranchProfile for a PIE named "loops-switch" with a build ID
// and for the same binary linked at 0x400000, on one thread and on two;
// every profile read is walked. The lines its processes ran in every
// object (ProcessCode.h, what --format=placement reads) are read too.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/PerfScript.h"
#include "bbmap/Profile/PerfDataReader.h"
#include "bbmap/Profile/ProcessCode.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>

using namespace llvm;
using namespace bbmap;

namespace {

/// The layout of loops-switch.c built by clang-22 -O2.
PerfBinary makeBinary(bool Fixed) {
  uint64_t Base = Fixed ? 0x400000 : 0;
  PerfBinary B;
  B.Name = "loops-switch";
  B.BuildID = Fixed ? "" : "5cda1d9f0c2ad8c1a0bd2a2c1d4b7d2b1a3e9f10";
  B.FixedAddress = Fixed;
  B.Segments = {{0x0, Base, 0x5d0, 0x5d0, false},
                {0x1000, Base + 0x1000, 0x495, 0x495, true},
                {0x2000, Base + 0x2000, 0x104, 0x104, false},
                {0x2de8, Base + 0x3de8, 0x250, 0x258, false}};
  return B;
}

uint64_t walk(const BranchProfile &P) {
  uint64_t Sum = P.Skipped.OtherBinary + P.Skipped.Outside + P.HasBranches;
  for (const Trace &T : P.Traces)
    Sum += T.From + T.To + T.FallthroughEnd + T.Count + T.Mispreds;
  for (const Sample &S : P.Samples)
    Sum += S.Address + S.Count;
  for (const std::string &E : P.Events)
    Sum += E.size();
  return Sum;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const PerfBinary PIE = makeBinary(false);
  static const PerfBinary Fixed = makeBinary(true);
  MemoryBufferRef Buffer(StringRef(reinterpret_cast<const char *>(Data), Size),
                         "fuzz");
  static OrderedOutput OneThread(nulls(), 1), TwoThreads(nulls(), 2);
  for (bool BranchStack : {false, true})
    for (OrderedOutput *Out : {&OneThread, &TwoThreads}) {
      Expected<std::unique_ptr<perf::PerfFile>> File =
          perf::PerfFile::create(Buffer);
      if (!File) {
        consumeError(File.takeError());
        break;
      }
      perf::PerfScriptOptions Opts;
      Opts.BranchStack = BranchStack;
      Opts.BatchBytes = Out == &TwoThreads ? 0 : Opts.BatchBytes;
      consumeError(perf::printPerfScript(**File, Opts, *Out));
    }
  for (const PerfBinary *Binary : {&PIE, &Fixed})
    for (unsigned Threads : {1U, 2U}) {
      PerfDataOptions Options;
      Options.Threads = Threads;
      Options.IgnoreBuildID = Threads == 2;
      Expected<BranchProfile> P = readPerfDataBuffer(Buffer, *Binary, Options);
      if (!P) {
        consumeError(P.takeError());
        continue;
      }
      volatile uint64_t Sink = walk(*P);
      (void)Sink;
    }
  Expected<ProcessCode> Code = readProcessCodeBuffer(Buffer, PIE.Name, 64);
  if (!Code) {
    consumeError(Code.takeError());
    return 0;
  }
  volatile uint64_t Sink = Code->BinaryWeight + Code->OtherLines.size();
  (void)Sink;
  return 0;
}
