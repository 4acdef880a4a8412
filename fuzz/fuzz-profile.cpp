//===- fuzz-profile.cpp - fuzz bbmap-profile's charging and writing -------===//
//
// libFuzzer target for what consumes a profile: the input is read as a
// pre-aggregated profile of a real program with a map (built with the
// fuzz tree's compiler, path in BBMAP_FUZZ_PROFILE_BINARY), then charged to
// its blocks, judged for records that do not fit, inferred (IP samples
// alone; by both solvers), laid out, and written as fdata in both dialects
// and in sample mode, so that arbitrary addresses, ranges and counts reach
// BlockProfile, FlowInference, Layout, BoltFunctionView and FdataWriter.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/FdataWriter.h"
#include "bbmap/Layout/FlowInference.h"
#include "bbmap/Layout/Layout.h"
#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Profile/PreAggregatedReader.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace llvm;
using namespace bbmap;

namespace {

std::unique_ptr<MappedBinary> Binary;
std::unique_ptr<InstructionDecoder> Decoder;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  Expected<std::unique_ptr<MappedBinary>> B =
      MappedBinary::open(BBMAP_FUZZ_PROFILE_BINARY);
  if (!B) {
    errs() << "fuzz-profile: " << toString(B.takeError()) << "\n";
    abort();
  }
  Binary = std::move(*B);
  Expected<std::unique_ptr<InstructionDecoder>> D =
      InstructionDecoder::create(Binary->object());
  if (!D) {
    errs() << "fuzz-profile: " << toString(D.takeError()) << "\n";
    abort();
  }
  Decoder = std::move(*D);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Expected<BranchProfile> P =
      PreAggregatedReader::read(MemoryBufferRef(Text, "fuzz"), "", 1);
  if (!P) {
    consumeError(P.takeError());
    return 0;
  }
  BlockProfile Blocks = countBlocks(*P, *Binary, *Decoder, /*Threads=*/1);
  (void)profiledFunctions(Blocks, Binary->index());
  (void)misfitFunctions(Blocks, Binary->index());
  if (Blocks.Kind == CountKind::Samples) {
    BlockProfile ByProfi = Blocks;
    inferFlow(ByProfi, *Binary, *Decoder, InferenceSolver::Profi,
              /*Threads=*/1);
    inferFlow(Blocks, *Binary, *Decoder, InferenceSolver::PrimalDual,
              /*Threads=*/1);
  }
  LayoutOptions Layout;
  Layout.Threads = 1;
  writeClusterProfile(computeLayout(Blocks, *Binary, Layout),
                      ClusterConsumer::Clang22, nulls());
  for (FdataDialect D : {FdataDialect::Bolt22, FdataDialect::Bolt19})
    for (bool Samples : {false, true}) {
      FdataOptions Options;
      Options.BasicSamples = Samples;
      BoltRecordAggregator Records(*Binary, *Decoder, D, /*Threads=*/1);
      Expected<FdataStats> S = writeFdata(*P, Records, Options, nulls());
      if (!S)
        consumeError(S.takeError());
    }
  return 0;
}
