//===- profile-json.cpp - a perf.data charged to blocks, as JSON ----------===//
//
// The library's profile path step by step, as a program outside bbmap uses
// it: open the binary (its maps, symbols and build ID), read a perf.data
// of it natively, charge the branch records or samples to its blocks and
// print the block counts as bbmap-profile's JSON (docs/api.md). The output
// is bbmap-profile --format=json's for the same files.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Pipeline/ProfilePrinter.h"
#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Profile/ProfileSource.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

/// Block counts of the perf.data \p Profile of \p Binary, printed as JSON.
static Error printBlockCounts(StringRef Binary, StringRef Profile) {
  Expected<std::unique_ptr<bbmap::MappedBinary>> Mapped =
      bbmap::MappedBinary::open(Binary);
  if (!Mapped)
    return createFileError(Binary, Mapped.takeError());
  Expected<std::unique_ptr<bbmap::InstructionDecoder>> Decoder =
      bbmap::InstructionDecoder::create((*Mapped)->object());
  if (!Decoder)
    return createFileError(Binary, Decoder.takeError());

  bbmap::ProfileSource Source;
  Source.Format = bbmap::ProfileFormat::PerfData;
  Source.Path = Profile.str();
  bbmap::SourceFacts Facts;
  Expected<bbmap::BranchProfile> Records =
      bbmap::readProfile(Source, **Mapped, Facts);
  if (!Records)
    return createFileError(Profile, Records.takeError());

  bbmap::BlockProfile Blocks =
      bbmap::countBlocks(*Records, **Mapped, **Decoder);
  bbmap::ProfileOrigin Origin;
  Origin.ProfilePath = Source.Path;
  Origin.Format = "perf.data";
  Origin.Profile = &*Records;
  bbmap::printProfileJSON(outs(), **Mapped, Blocks, Origin, /*Pretty=*/false);
  return Error::success();
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  if (argc != 3) {
    errs() << "usage: profile-json <binary> <perf.data>\n";
    return 2;
  }
  if (Error E = printBlockCounts(argv[1], argv[2])) {
    errs() << "profile-json: error: " << toString(std::move(E)) << "\n";
    return 1;
  }
  return 0;
}
