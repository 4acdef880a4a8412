//===- ProfileSource.cpp - read any profile input into one model ----------===//
//
// Dispatches to the reader of each format. fdata names are resolved through
// the binary's function symbols; a name fdata writes with a `/N` or
// `/file/N` suffix for a local symbol resolves through its plain name when
// that is unique.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/ProfileSource.h"
#include "bbmap/Profile/FdataReader.h"
#include "bbmap/Profile/PerfDataReader.h"
#include "bbmap/Profile/PerfScriptReader.h"
#include "bbmap/Profile/PreAggregatedReader.h"
#include "bbmap/Profile/PreAggregatedWriter.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace bbmap {

namespace {

Expected<std::unique_ptr<MemoryBuffer>> openText(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createFileError(Path, Buf.getError());
  return std::move(*Buf);
}

std::optional<uint64_t> resolveFdataName(const MappedBinary &Binary,
                                         StringRef Name) {
  Expected<uint64_t> Address = Binary.addressOf(Name);
  if (!Address) {
    // A look-up, not a problem of the file: the name is tried without its
    // `/N` suffix, and one that names nothing is an unresolved name.
    consumeError(Address.takeError());
    if (Name.contains('/'))
      return resolveFdataName(Binary, Name.substr(0, Name.find('/')));
    return std::nullopt;
  }
  return *Address;
}

Expected<BranchProfile> readFdata(const MemoryBuffer &Text,
                                  const MappedBinary &Binary,
                                  SourceFacts &Facts) {
  Expected<FdataProfile> P =
      FdataReader::read(Text.getMemBufferRef(), [&](StringRef Name) {
        return resolveFdataName(Binary, Name);
      });
  if (!P)
    return P.takeError();
  Facts.BoltedCollection = P->BoltedCollection;
  Facts.UnresolvedNames = std::move(P->UnresolvedNames);
  return std::move(P->Profile);
}

Expected<BranchProfile> readPerf(const ProfileSource &Source,
                                 const MappedBinary &Binary) {
  Expected<PerfBinary> PB = PerfBinary::create(Binary.object(), Binary.path());
  if (!PB)
    return PB.takeError();
  if (Source.Format == ProfileFormat::PerfData) {
    PerfDataOptions Options;
    Options.Decoder = Source.Decoder;
    Options.Threads = Source.Threads;
    Options.PerfPath = Source.PerfPath;
    Options.IgnoreBuildID = Source.IgnoreBuildID;
    Options.BinaryName = Source.BinaryName;
    Options.ArmSpe = Source.ArmSpe;
    return readPerfData(Source.Path, *PB, Options);
  }
  Expected<std::unique_ptr<MemoryBuffer>> Text = openText(Source.Path);
  if (!Text)
    return Text.takeError();
  PerfScriptOptions Options;
  Options.IgnoreBuildID = Source.IgnoreBuildID;
  Options.BinaryName = Source.BinaryName;
  Options.ByNameOnly = !Source.BinaryName.empty();
  return PerfScriptReader::read((*Text)->getMemBufferRef(), *PB, Options);
}

} // namespace

Expected<BranchProfile> readProfile(const ProfileSource &Source,
                                    const MappedBinary &Binary,
                                    SourceFacts &Facts) {
  if (Source.Format == ProfileFormat::PerfData ||
      Source.Format == ProfileFormat::PerfScript)
    return readPerf(Source, Binary);
  if (Source.Format == ProfileFormat::BoltYAML)
    return createStringError("a BOLT YAML profile holds block counts, not "
                             "branch records (countYAMLBlocks reads it)");
  Expected<std::unique_ptr<MemoryBuffer>> Text = openText(Source.Path);
  if (!Text)
    return Text.takeError();
  if (Source.Format == ProfileFormat::Fdata)
    return readFdata(**Text, Binary, Facts);
  return PreAggregatedReader::read(
      (*Text)->getMemBufferRef(),
      Source.IgnoreBuildID ? StringRef() : Binary.buildID(), Source.Threads);
}

Expected<BranchProfile> readProfiles(ArrayRef<ProfileSource> Sources,
                                     const MappedBinary &Binary,
                                     SourceFacts &Facts) {
  BranchProfile Sum;
  std::optional<std::string> BranchInput, SampleInput;
  for (const ProfileSource &Source : Sources) {
    SourceFacts F;
    Expected<BranchProfile> P = readProfile(Source, Binary, F);
    if (!P)
      return createFileError(Source.Path, P.takeError());
    // A profile of branch records counts executions, one of IP samples
    // time: they cannot be summed.
    bool Branches = !P->Traces.empty() || P->HasBranches;
    bool SamplesOnly = !Branches && !P->Samples.empty();
    if (Branches && !BranchInput)
      BranchInput = Source.Path;
    if (SamplesOnly && !SampleInput)
      SampleInput = Source.Path;
    if (BranchInput && SampleInput)
      return createStringError(inconvertibleErrorCode(),
                               "'" + *BranchInput +
                                   "' has branch records and '" + *SampleInput +
                                   "' IP samples alone: the two do not add up");
    Facts.BoltedCollection |= F.BoltedCollection;
    append_range(Facts.UnresolvedNames, F.UnresolvedNames);
    if (Error E = mergeProfile(Sum, std::move(*P)))
      return createFileError(Source.Path, std::move(E));
  }
  llvm::sort(Facts.UnresolvedNames);
  Facts.UnresolvedNames.erase(
      std::unique(Facts.UnresolvedNames.begin(), Facts.UnresolvedNames.end()),
      Facts.UnresolvedNames.end());
  return Sum;
}

} // namespace bbmap
