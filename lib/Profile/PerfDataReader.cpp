//===- PerfDataReader.cpp - perf.data reader ------------------------------===//
//
// Runs perf as a child process (llvm::sys::ExecuteAndWait, stdout and
// stderr to temporary files), reads the event list and build-id list it
// prints, and feeds its perf script text to PerfScriptReader.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PerfDataReader.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include <memory>

using namespace llvm;

namespace bbmap {

namespace {

constexpr StringLiteral PerfEnvironment = "BBMAP_PERF";

Error makeError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// Output of one perf run, named after its command line.
struct PerfOutput {
  std::unique_ptr<MemoryBuffer> Buffer;
  std::string Command;
  MemoryBufferRef ref() const { return {Buffer->getBuffer(), Command}; }
};

Expected<PerfOutput> runPerf(StringRef Perf, ArrayRef<StringRef> Args) {
  PerfOutput Output;
  Output.Command = "perf";
  for (StringRef A : Args)
    Output.Command += (" " + A).str();

  SmallString<128> OutPath, ErrPath;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("bbmap-perf", "out", OutPath))
    return makeError("cannot create a temporary file: " + EC.message());
  FileRemover RemoveOut(OutPath);
  if (std::error_code EC =
          sys::fs::createTemporaryFile("bbmap-perf", "err", ErrPath))
    return makeError("cannot create a temporary file: " + EC.message());
  FileRemover RemoveErr(ErrPath);

  SmallVector<StringRef, 16> Argv{Perf};
  Argv.append(Args.begin(), Args.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(OutPath),
                                          StringRef(ErrPath)};
  std::string Message;
  bool Failed = false;
  int Status = sys::ExecuteAndWait(Perf, Argv, /*Env=*/std::nullopt, Redirects,
                                   /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                   &Message, &Failed);
  if (Failed || Status < 0)
    return makeError("cannot run " + Perf + ": " + Message);
  if (Status != 0) {
    std::string Detail;
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> Err =
            MemoryBuffer::getFile(ErrPath, /*IsText=*/true))
      Detail = (*Err)->getBuffer().trim().take_front(2000).str();
    return makeError(Output.Command + " failed with exit status " +
                     Twine(Status) + (Detail.empty() ? "" : ":\n") + Detail);
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Out =
      MemoryBuffer::getFile(OutPath, /*IsText=*/true);
  if (!Out)
    return makeError("cannot read the output of " + Output.Command + ": " +
                     Out.getError().message());
  Output.Buffer = std::move(*Out);
  return Output;
}

/// True if `perf evlist -v` output names an ARM SPE event
/// (`arm_spe_0/branch_filter=1/u: type: 8, ...`).
bool hasArmSpeEvent(StringRef EventList) {
  SmallVector<StringRef, 8> Lines;
  EventList.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  return llvm::any_of(
      Lines, [](StringRef Line) { return Line.starts_with("arm_spe"); });
}

/// True if an event in `perf evlist -v` output samples branch stacks:
///   cycles: type: 0, ..., sample_type: IP|TID|...|BRANCH_STACK, ...
bool hasBranchStack(StringRef EventList) {
  SmallVector<StringRef, 8> Lines;
  EventList.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    size_t Pos = Line.find("sample_type: ");
    if (Pos == StringRef::npos)
      continue;
    StringRef Flags = Line.drop_front(Pos).split(": ").second.split(',').first;
    SmallVector<StringRef, 16> Bits;
    Flags.split(Bits, '|');
    for (StringRef Bit : Bits)
      if (Bit.trim() == "BRANCH_STACK")
        return true;
  }
  return false;
}

/// The lines "HEX PATH" of `perf buildid-list`; lines of files without a
/// build ID (only the path) are left out.
std::vector<RecordedBuildID> parseBuildIDList(StringRef List) {
  SmallVector<StringRef, 16> Lines;
  List.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::vector<RecordedBuildID> IDs;
  for (StringRef Line : Lines) {
    auto [ID, Path] = Line.trim().split(' ');
    Path = Path.trim();
    if (!ID.empty() && !Path.empty())
      IDs.push_back({ID.str(), Path.str()});
  }
  return IDs;
}

/// Checks \p Binary against the build IDs a perf.data file lists and
/// returns the file name perf knew the binary by when it differs from
/// \p Name (else empty).
Expected<std::string> checkRecordedBuildID(ArrayRef<RecordedBuildID> Listed,
                                           const PerfBinary &Binary,
                                           StringRef Name, bool Ignore) {
  if (Binary.BuildID.empty())
    return "";
  std::string Recorded;
  for (const RecordedBuildID &R : Listed) {
    StringRef File = sys::path::filename(R.Path);
    if (sameBuildID(R.ID, Binary.BuildID))
      return File == Name ? "" : File.str();
    if (File == Name)
      Recorded = R.ID;
  }
  // perf record --no-buildid: nothing to check against.
  if (Listed.empty() || Ignore)
    return "";
  if (!Recorded.empty())
    return makeError("build-id mismatch: perf recorded " + Name +
                     " with build-id " + Recorded + ", the binary has " +
                     Binary.BuildID +
                     " (rebuild the profile, or ignore the build-id)");
  return makeError("the perf data lists no file with the binary's build-id " +
                   Binary.BuildID + " and no file named " + Name +
                   " (ignore the build-id to read it anyway)");
}

} // namespace

Expected<PerfScriptOptions> scriptOptionsFor(ArrayRef<RecordedBuildID> Listed,
                                             const PerfBinary &Binary,
                                             const PerfDataOptions &Options) {
  PerfScriptOptions ScriptOptions;
  ScriptOptions.BinaryName =
      Options.BinaryName.empty() ? Binary.Name : Options.BinaryName;
  ScriptOptions.IgnoreBuildID = Options.IgnoreBuildID;
  ScriptOptions.ByNameOnly = !Options.BinaryName.empty();
  Expected<std::string> RecordedName =
      checkRecordedBuildID(Listed, Binary, ScriptOptions.BinaryName,
                           Options.IgnoreBuildID || ScriptOptions.ByNameOnly);
  if (!RecordedName)
    return RecordedName.takeError();
  if (!RecordedName->empty() && !ScriptOptions.ByNameOnly)
    ScriptOptions.BinaryName = *RecordedName;
  return ScriptOptions;
}

Expected<std::string> findPerf(StringRef Explicit) {
  std::string Path = Explicit.str();
  if (Path.empty())
    if (std::optional<std::string> Env = sys::Process::GetEnv(PerfEnvironment))
      Path = *Env;
  if (!Path.empty()) {
    // A bare name is looked up on PATH, as a shell would.
    if (!StringRef(Path).contains('/'))
      if (ErrorOr<std::string> Found = sys::findProgramByName(Path))
        Path = *Found;
    if (!sys::fs::can_execute(Path))
      return makeError("perf not found: " + Path + " is not executable");
    return Path;
  }
  ErrorOr<std::string> Found = sys::findProgramByName("perf");
  if (!Found)
    return makeError("perf not found: install Debian's linux-perf package "
                     "(apt-get install linux-perf) or set " +
                     PerfEnvironment);
  return *Found;
}

Expected<BranchProfile> readPerfData(StringRef PerfData,
                                     const PerfBinary &Binary,
                                     const PerfDataOptions &Options) {
  if (Options.Decoder == PerfDataDecoder::Native)
    return readPerfDataNatively(PerfData, Binary, Options);
  Expected<std::string> Perf = findPerf(Options.PerfPath);
  if (!Perf)
    return Perf.takeError();
  if (!sys::fs::exists(PerfData))
    return makeError(PerfData + ": no such file");

  Expected<PerfOutput> Events =
      runPerf(*Perf, {"evlist", "-v", "-f", "-i", PerfData});
  if (!Events)
    return Events.takeError();
  bool Branches = hasBranchStack(Events->Buffer->getBuffer());
  if (Options.ArmSpe && hasArmSpeEvent(Events->Buffer->getBuffer()))
    return makeError("ARM SPE data, whose branch records perf script "
                     "prints from perf 6.14 on only: read it natively "
                     "(--perf-decoder=native)");

  Expected<PerfOutput> IDs =
      runPerf(*Perf, {"buildid-list", "-f", "-i", PerfData});
  if (!IDs)
    return IDs.takeError();
  Expected<PerfScriptOptions> ScriptOptions = scriptOptionsFor(
      parseBuildIDList(IDs->Buffer->getBuffer()), Binary, Options);
  if (!ScriptOptions)
    return ScriptOptions.takeError();

  Expected<PerfOutput> Script = runPerf(
      *Perf, {"script", "-f", "-i", PerfData, "-F",
              Branches ? "pid,event,brstack" : "pid,event,ip",
              "--show-mmap-events", "--show-task-events", "-G", "--no-itrace"});
  if (!Script)
    return Script.takeError();
  Expected<BranchProfile> Profile =
      PerfScriptReader::read(Script->ref(), Binary, *ScriptOptions);
  if (Profile)
    Profile->HasBranches = Branches;
  return Profile;
}

} // namespace bbmap
