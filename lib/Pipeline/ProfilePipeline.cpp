//===- ProfilePipeline.cpp - read profiles, write bbmap-profile's outputs -===//
//
// Reads the profiles of a request against the binary (sums several), then
// writes what it asks for: perf2bolt's records (fdata, YAML), the summed
// records (pre-aggregated text), or the block counts charged to the map
// (summary, JSON, dot, layout), translated through BAT or carried from an
// earlier build first when asked. Each phase returns its error; the
// outputs are committed only when every one was written.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Pipeline/ProfilePipeline.h"
#include "bbmap/BoltProfile/BATProfileTranslator.h"
#include "bbmap/BoltProfile/BoltYAML.h"
#include "bbmap/BoltProfile/BoltYAMLBuilder.h"
#include "bbmap/BoltProfile/BoltYAMLCounts.h"
#include "bbmap/BoltProfile/FdataWriter.h"
#include "bbmap/Layout/FlowInference.h"
#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Pipeline/ProfilePrinter.h"
#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Profile/PreAggregatedWriter.h"
#include "bbmap/Profile/ProcessCode.h"
#include "bbmap/Support/OutputFile.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Timer.h"
#include <algorithm>
#include <memory>
#include <optional>

using namespace llvm;

namespace bbmap {

char RequestError::ID;

std::error_code RequestError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

namespace {

/// An error of \p File: "'File': Msg".
Error fileError(StringRef File, const Twine &Msg) {
  return createFileError(
      File, make_error<StringError>(Msg, inconvertibleErrorCode()));
}

/// \p V, or its error as one of \p File.
template <class T> Expected<T> ofFile(StringRef File, Expected<T> V) {
  if (!V)
    return createFileError(File, V.takeError());
  return V;
}

Error requestError(const Twine &Msg) { return make_error<RequestError>(Msg); }

/// "N records" / "N record".
std::string records(uint64_t N) {
  return std::to_string(N) + (N == 1 ? " record" : " records");
}

/// "N.N%" of \p Total.
std::string share(uint64_t Part, uint64_t Total) {
  return formatv("{0:F1}%", Total ? 100.0 * Part / Total : 0.0).str();
}

/// What messages name the profiles by: the file, or the files joined.
ProfileSource describeSources(ArrayRef<ProfileSource> Sources) {
  ProfileSource D = Sources.front();
  for (const ProfileSource &S : Sources.drop_front()) {
    D.Path += ", " + S.Path;
    if (S.Format != D.Format)
      D.Format = ProfileFormat::Mixed;
  }
  return D;
}

StringRef formatName(ProfileFormat F) {
  switch (F) {
  case ProfileFormat::PerfData:
    return "perf.data";
  case ProfileFormat::PerfScript:
    return "perf script";
  case ProfileFormat::PreAggregated:
    return "pre-aggregated";
  case ProfileFormat::Fdata:
    return "fdata";
  case ProfileFormat::BoltYAML:
    return "BOLT YAML";
  case ProfileFormat::Mixed:
    return "mixed";
  }
  return "";
}

/// The page size loaders move objects by: a hot line's page offset is fixed
/// at the link (4 KiB pages, as Linux on x86-64 and Debian's arm64 use).
constexpr uint64_t PlacementPage = 4096;

bool isLayout(OutputFormat F) {
  return F == OutputFormat::Clusters || F == OutputFormat::SymbolOrder ||
         F == OutputFormat::Placement || F == OutputFormat::BlockOrder;
}

bool isRecords(OutputFormat F) {
  return F == OutputFormat::Fdata || F == OutputFormat::YAML;
}

/// The binary the blocks are charged to, with its decoder.
struct ChargedBinary {
  std::unique_ptr<MappedBinary> Binary;
  std::unique_ptr<InstructionDecoder> Decoder;
};

/// --time-phases: the wall and CPU time (all threads) of each phase of a
/// run, reported as LLVM's -time-passes is (llvm::TimerGroup) on \p OS
/// when the run ends.
class PhaseTimers {
public:
  explicit PhaseTimers(raw_ostream *OS) : OS(OS) {
    if (OS)
      Group =
          std::make_unique<TimerGroup>("bbmap-profile", "bbmap-profile phases");
  }
  ~PhaseTimers() {
    stop();
    Timers.clear();
    if (Group)
      Group->print(*OS);
  }
  /// Ends the current phase and starts \p Name.
  void start(StringRef Name, StringRef Description) {
    if (!Group)
      return;
    stop();
    Timers.push_back(std::make_unique<Timer>(Name, Description, *Group));
    Timers.back()->startTimer();
  }

private:
  void stop() {
    if (!Timers.empty() && Timers.back()->isRunning())
      Timers.back()->stopTimer();
  }

  raw_ostream *OS;
  std::unique_ptr<TimerGroup> Group;
  std::vector<std::unique_ptr<Timer>> Timers;
};

/// An output file's buffer: raw_fd_ostream's default is the file system's
/// block (4 KiB), which takes thousands of write calls for an fdata file of
/// a trace (17 MB).
constexpr size_t OutputBufferSize = 1 << 20;

/// One run of a request: its phases share what the earlier ones opened
/// and read; each returns its error, and the outputs are committed only
/// at the end.
class ProfileRun {
public:
  ProfileRun(const ProfileRequest &R, Diagnostics &Diags)
      : R(R), Diags(Diags), Source(describeSources(R.Sources)),
        YAMLInput(Source.Format == ProfileFormat::BoltYAML),
        Phases(R.PhaseTimes) {}
  ~ProfileRun();

  Expected<ProfileOutcome> run();

private:
  void warn(StringRef File, const Twine &Msg) const {
    Diags.warning(File, Msg);
  }
  /// Warns of what \p Warnings holds about \p File that this run has not
  /// warned of yet: a kind of problem is reported once per file, whichever
  /// reader met it first.
  void warnAll(StringRef File, const WarningList &Warnings) const;

  OutputFormat format() const { return R.Outputs.front().Format; }
  raw_ostream &out(size_t I) { return Outs[I]->os(); }
  bool writesPerf2boltOutput() const;
  bool writesPreAggregated() const {
    return format() == OutputFormat::PreAggregated && R.CFG.empty();
  }
  bool writesLayout() const { return R.CFG.empty() && isLayout(format()); }
  Error checkOutputs() const;
  Error checkBinary(const MappedBinary &Binary) const;
  Error openAndRead();
  Error readInputProfile(std::optional<Expected<BranchProfile>> Read);
  Error openOutputs();
  Error commitOutputs();
  Expected<BranchProfile> readSources(const MappedBinary &Recorded);
  void warnMisfits(const MappedBinary &Binary, const BlockProfile *Blocks,
                   bool Layout) const;
  Expected<ChargedBinary> openCharged(StringRef Path) const;
  Expected<ChargedBinary> openInput() const;
  Expected<ChargedBinary> openProfiled() const;
  Expected<boltyaml::Profile> readYAML(StringRef Path) const;
  BlockProfile chargeYAML(const boltyaml::Profile &P,
                          const MappedBinary &Binary,
                          const InstructionDecoder &Decoder) const;
  Error chargeBlocks();
  void warnStale(const StaleMatchStats &S) const;
  void warnUnattributed(ArrayRef<FunctionLayout> Layout,
                        const MappedBinary &Binary) const;
  StringRef processPerfData() const;
  Error checkPlacement() const;
  Error writeUnitProfiles(ArrayRef<FunctionLayout> Layout,
                          const MappedBinary &Binary,
                          ArrayRef<std::string> KeptUnits) const;
  BlockOrder orderBlocks(ArrayRef<FunctionLayout> Layout,
                         const MappedBinary &Binary) const;
  Expected<Placement> place(ArrayRef<FunctionLayout> Layout,
                            const MappedBinary &Profiled) const;
  Error writeRecords(const ProfileOutput &O, raw_ostream &OS);
  Error writeLayout();
  Error writeCounts();

  const ProfileRequest &R;
  Diagnostics &Diags;
  /// The warnings reported, by file (warnAll).
  mutable StringMap<WarningList> Warned;
  ProfileSource Source;
  bool YAMLInput;
  PhaseTimers Phases;
  ProfileOutcome Outcome;
  SourceFacts Facts;
  std::unique_ptr<MappedBinary> Binary;
  std::unique_ptr<InstructionDecoder> Decoder;
  std::optional<ChargedBinary> Profiled;
  std::optional<ChargedBinary> Input;
  std::optional<boltyaml::Profile> YAML;
  BranchProfile Profile;
  ProfileOrigin Origin;
  BlockProfile Blocks;
  std::vector<FunctionLayout> Layout;
  /// The binary and decoder the profile is charged to (the input binary
  /// of a BOLTed one, the profiled build of a stale profile), and the one
  /// the block counts end on (BINARY when they are carried).
  const MappedBinary *Counted = nullptr;
  const InstructionDecoder *CountedDecoder = nullptr;
  const MappedBinary *Charged = nullptr;
  std::vector<std::unique_ptr<OutputFile>> Outs;
};

/// The process ends soon after a tool's run: as clang does with
/// -disable-free, the largest structures are left allocated rather than
/// freed one by one (BuryPointer keeps them reachable for leak checkers).
ProfileRun::~ProfileRun() {
  if (!R.LeaveAllocated)
    return;
  BuryPointer(std::make_unique<BranchProfile>(std::move(Profile)));
  BuryPointer(std::make_unique<BlockProfile>(std::move(Blocks)));
  BuryPointer(std::make_unique<std::vector<FunctionLayout>>(std::move(Layout)));
  BuryPointer(std::move(Binary));
  BuryPointer(std::move(Decoder));
}

/// The output is one of perf2bolt's (fdata or YAML) of the profiled
/// binary itself, written from the profile's records. The YAML of a
/// carried profile, or of a YAML input, is written from block counts.
bool ProfileRun::writesPerf2boltOutput() const {
  bool RecordYAML = format() == OutputFormat::YAML &&
                    R.ProfiledBinaryPath.empty() && !YAMLInput;
  return (format() == OutputFormat::Fdata || RecordYAML) && R.CFG.empty();
}

/// Several outputs are written from one reading of the profiles when they
/// are of one kind: perf2bolt's records, or a layout.
Error ProfileRun::checkOutputs() const {
  if (R.Outputs.empty())
    return requestError("no output: give at least one");
  if (R.Outputs.size() == 1)
    return Error::success();
  bool Records = writesPerf2boltOutput() &&
                 llvm::all_of(R.Outputs, [](const ProfileOutput &O) {
                   return isRecords(O.Format);
                 });
  bool Layouts =
      R.CFG.empty() && llvm::all_of(R.Outputs, [](const ProfileOutput &O) {
        return isLayout(O.Format);
      });
  if (!Records && !Layouts)
    return requestError("several outputs are written only as perf2bolt's "
                        "records (fdata, YAML) or as a layout (clusters, "
                        "symbol order)");
  return Error::success();
}

/// The branch records and samples of every source, summed.
Expected<BranchProfile> ProfileRun::readSources(const MappedBinary &Recorded) {
  if (R.Sources.size() == 1)
    return readProfile(R.Sources.front(), Recorded, Facts);
  return readProfiles(R.Sources, Recorded, Facts);
}

/// The perf.data whose samples in the other objects --format=placement
/// reads: --process-perfdata, else the one --perfdata profile; empty if
/// neither.
StringRef ProfileRun::processPerfData() const {
  if (!R.ProcessPerfData.empty())
    return R.ProcessPerfData;
  if (R.Sources.size() == 1 &&
      R.Sources.front().Format == ProfileFormat::PerfData)
    return R.Sources.front().Path;
  return "";
}

/// --format=placement weighs the placed binary's hot code against the
/// other objects' code the profile saw run: a perf.data of the process.
Error ProfileRun::checkPlacement() const {
  bool Placing = llvm::any_of(R.Outputs, [](const ProfileOutput &O) {
    return O.Format == OutputFormat::Placement;
  });
  if (!Placing) {
    if (!R.PlacedBinaryPath.empty() || !R.ProcessPerfData.empty())
      return requestError("--placed-binary and --process-perfdata go with "
                          "--format=placement");
    return Error::success();
  }
  if (R.PlacedBinaryPath.empty())
    return requestError("--format=placement needs --placed-binary=FILE: the "
                        "binary built with the layout (with the plugin or "
                        "-fbasic-block-address-map, for its map)");
  if (processPerfData().empty())
    return requestError("--format=placement needs a perf.data of the whole "
                        "process, for the code it ran in the libraries: the "
                        "--perfdata profile, or --process-perfdata=FILE");
  if (!R.InputBinaryPath.empty() || !R.ProfiledBinaryPath.empty())
    return requestError("--format=placement does not go with --input-binary "
                        "or --profiled-binary");
  return Error::success();
}

/// The placement of the placed binary's hot code against the code the
/// profile ran in the other objects of its processes.
Expected<Placement> ProfileRun::place(ArrayRef<FunctionLayout> Layout,
                                      const MappedBinary &Profiled) const {
  Expected<std::unique_ptr<MappedBinary>> Placed = ofFile(
      R.PlacedBinaryPath,
      MappedBinary::open(R.PlacedBinaryPath,
                         MappedBinary::MapRequirement::Required, R.Threads));
  if (!Placed)
    return Placed.takeError();
  warnAll(R.PlacedBinaryPath, (*Placed)->warnings());
  Triple::ArchType Arch = (*Placed)->object().getArch();
  CacheGeometry Cache = R.Cache.value_or(defaultCacheGeometry(Arch));
  Expected<PlacementInput> Input =
      ofFile(R.PlacedBinaryPath, placedProgram(Layout, **Placed));
  if (!Input)
    return Input.takeError();
  StringRef Process = processPerfData();
  Expected<ProcessCode> Code = ofFile(
      Process, readProcessCode(Process, sys::path::filename(Profiled.path()),
                               Cache.LineBytes));
  if (!Code)
    return Code.takeError();
  if (!Code->BinaryWeight)
    return fileError(Process, "no sample in '" + Profiled.path() +
                                  "': the profile cannot weigh its code "
                                  "against the other objects'");
  size_t Objects = Code->Objects.size();
  double Fetches =
      addOtherObjects(*Input, std::move(*Code), Cache.LineBytes, PlacementPage);
  warnAll(Process, Input->Warnings);
  Placement P = choosePlacement(*Input, Cache, PlacementPage);
  Diags.note(
      R.PlacedBinaryPath,
      formatv("hot code at page offset {0:x} (linked at {1:x}): "
              "modelled I-cache misses {2} of its fetches ({3} as "
              "linked), against {4} lines of {5} other objects",
              P.PageOffset, P.LinkedPageOffset,
              llvm::format("%.4g", P.Cost / std::max(Fetches, 1.0)),
              llvm::format("%.4g", P.LinkedCost / std::max(Fetches, 1.0)),
              Input->Others.size(), Objects));
  return P;
}

/// Writes the per-unit profiles of \p Layout to R.UnitDir: a file whose
/// text is unchanged is left alone (its time too), so that a build
/// recompiles only the units whose layout changed, and so is the file of
/// each of \p KeptUnits (keepUnitLayouts); reports what changed (the first
/// units by name).
Error ProfileRun::writeUnitProfiles(ArrayRef<FunctionLayout> Layout,
                                    const MappedBinary &Binary,
                                    ArrayRef<std::string> KeptUnits) const {
  if (std::error_code EC = sys::fs::create_directories(R.UnitDir))
    return createFileError(R.UnitDir, EC);
  UnitProfiles Units = unitProfiles(Layout, Binary, R.LayoutFor);
  if (Units.WithoutUnit)
    warn(Binary.path(), Twine(Units.WithoutUnit) +
                            " laid-out functions have no compile unit (build "
                            "with -g) and are in no unit's profile");
  std::vector<StringRef> Changed;
  for (const auto &[Unit, Text] : Units.Files) {
    if (llvm::is_contained(KeptUnits, Unit))
      continue;
    SmallString<256> Path(R.UnitDir);
    sys::path::append(Path, unitProfileName(Unit));
    auto Old = MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (Old && (*Old)->getBuffer() == Text)
      continue;
    Expected<std::unique_ptr<OutputFile>> Out = OutputFile::create(Path);
    if (!Out)
      return Out.takeError();
    (*Out)->os() << Text;
    if (Error E = (*Out)->commit())
      return E;
    Changed.push_back(Unit);
  }
  constexpr size_t Named = 8;
  std::string Note;
  raw_string_ostream OS(Note);
  OS << Units.Files.size() << " unit profiles, " << Changed.size()
     << " changed";
  if (R.UnitMinGain)
    OS << ", " << KeptUnits.size() << " kept (each gains at most "
       << llvm::format("%g", *R.UnitMinGain * 100)
       << "% of the layout's score)";
  for (size_t I = 0; I < std::min(Changed.size(), Named); ++I)
    OS << (I ? ", " : ": ") << Changed[I];
  if (Changed.size() > Named)
    OS << " and " << Changed.size() - Named << " more";
  Diags.note(R.UnitDir, OS.str());
  return Error::success();
}

/// The block order of \p Layout, with a warning when it cannot order every
/// hot block on its own (a binary without a section per block).
BlockOrder ProfileRun::orderBlocks(ArrayRef<FunctionLayout> Layout,
                                   const MappedBinary &Binary) const {
  BlockOrder Order = blockOrder(Layout, Blocks, Binary, R.BlockScope);
  warnAll(Binary.path(), Order.Warnings);
  if (Order.SharedSections)
    warn(Binary.path(),
         Twine(Order.SharedSections) +
             " sections hold blocks that the order puts apart, which keep "
             "their order (build with a section per block: "
             "-fbasic-block-sections=all, or on AArch64 the list of "
             "--format=block-sections)");
  if (Order.EmptySections)
    warn(Binary.path(),
         Twine(Order.EmptySections) +
             " sections are empty (blocks that only mark unreachable code): "
             "lld 22 and older may keep an empty section's FDE in "
             ".eh_frame_hdr in place of the code's placed after it, and an "
             "exception through that code then terminates the program; "
             "build with -mllvm -trap-unreachable -mllvm "
             "-no-trap-after-noreturn");
  if (Order.Unnamed)
    warn(Binary.path(), Twine(Order.Unnamed) +
                            " sections have no symbol at their start and are "
                            "not ordered (a stripped binary?)");
  return Order;
}

/// Refuses a binary whose blocks the profile cannot be charged to: one
/// without a map (perf2bolt's records need only its symbols), and a BOLTed
/// one without --input-binary (its map, if BOLT copied one, still describes
/// the input's addresses).
Error ProfileRun::checkBinary(const MappedBinary &Binary) const {
  if (format() == OutputFormat::PreAggregated && R.CFG.empty()) {
    if (YAMLInput || !R.InputBinaryPath.empty() ||
        !R.ProfiledBinaryPath.empty())
      return requestError(
          "--format=pa writes the records of the profiles read: not "
          "with --yaml, --input-binary or --profiled-binary");
    // The records are the binary's addresses; no map is needed.
    return Error::success();
  }
  bool Bolted = Binary.bat() != nullptr;
  bool Fdata = writesPerf2boltOutput();
  if (YAMLInput && format() == OutputFormat::Fdata && R.CFG.empty())
    return requestError(
        "--format=fdata writes perf2bolt's records, which a YAML "
        "profile does not hold");
  if (!R.ProfiledBinaryPath.empty() && (!R.InputBinaryPath.empty() || Fdata))
    return requestError(
        "--profiled-binary carries block counts to BINARY: it does not "
        "go with --input-binary or --format=fdata (run those on the "
        "profiled binary)");
  // Before any output file is made.
  bool YAMLRecords =
      Fdata && llvm::any_of(R.Outputs, [](const ProfileOutput &O) {
        return O.Format == OutputFormat::YAML;
      });
  if (YAMLRecords)
    if (Error E = checkBoltYAMLWritable(Binary))
      return createFileError(R.BinaryPath, std::move(E));
  if (!R.InputBinaryPath.empty() && !Bolted)
    return fileError(R.BinaryPath,
                     "no BAT table (.note.bolt_bat): --input-binary needs a "
                     "binary BOLTed with --enable-bat");
  if (!R.InputBinaryPath.empty() && Fdata)
    return requestError(
        "--format=fdata writes perf2bolt's fdata of the BOLTed binary "
        "itself (for llvm-bolt on the input binary): drop "
        "--input-binary");
  if (Bolted && R.InputBinaryPath.empty() && !Fdata)
    return fileError(R.BinaryPath,
                     "optimized by BOLT (BAT table in .note.bolt_bat): its "
                     "blocks are the input binary's; give the binary BOLT "
                     "read, with its .llvm_bb_addr_map, as "
                     "--input-binary=IN");
  if (!Bolted && !Fdata && Binary.sections().empty())
    return fileError(
        R.BinaryPath,
        "no .llvm_bb_addr_map section: block counts and layouts need the "
        "map (build with -fbasic-block-address-map, or with the bbmap "
        "plugin); perf2bolt's fdata and YAML do not");
  return Error::success();
}

/// Says what of the profile does not fit the binary: per function, records
/// that do not fit its blocks (a stale profile, or another binary's) and
/// function names it lacks (a profile of another build), at most MaxShown
/// of them and a count of the rest; a collection on a BOLTed binary read
/// without its BAT table; and, unless \p Layout (where it is an error),
/// that nothing fell in the mapped code. With \p Layout, says which
/// functions the layout leaves out.
void ProfileRun::warnMisfits(const MappedBinary &Binary,
                             const BlockProfile *Blocks, bool Layout) const {
  constexpr size_t MaxShown = 20;
  size_t Shown = 0, Hidden = 0, HiddenLeftOut = 0;
  std::vector<FunctionMisfit> Misfits;
  if (Blocks)
    Misfits = misfitFunctions(*Blocks, Binary.index());
  if (Layout)
    std::stable_partition(
        Misfits.begin(), Misfits.end(),
        [](const FunctionMisfit &M) { return leftOutOfLayout(M.Fit); });
  for (const FunctionMisfit &M : Misfits) {
    bool LeftOut = Layout && leftOutOfLayout(M.Fit);
    if (Shown == MaxShown) {
      ++Hidden;
      HiddenLeftOut += LeftOut;
      continue;
    }
    ++Shown;
    warn(Source.Path,
         "function '" + M.Name + "': " + std::to_string(M.Fit.Misfits) +
             " of " + records(M.Fit.Records) +
             (M.Fit.Misfits == 1 ? " does" : " do") +
             " not start or end at a block of the map (a stale profile, or "
             "another binary's?)" +
             (LeftOut ? "; left out of the layout" : ""));
  }
  // perf2bolt names code without a function symbol itself (PLT entries,
  // its pseudo functions): no map covers it, nothing is amiss.
  for (const std::string &Name : Facts.UnresolvedNames) {
    if (StringRef(Name).ends_with("@PLT") ||
        StringRef(Name).starts_with("__BOLT_"))
      continue;
    if (Shown == MaxShown) {
      ++Hidden;
      continue;
    }
    ++Shown;
    warn(Source.Path, "function '" + Name + "' is not in '" + Binary.path() +
                          "' (a profile of another build?)");
  }
  if (Hidden)
    warn(Source.Path,
         Twine(Hidden) + " more " +
             (Hidden == 1 ? "function does" : "functions do") + " not fit '" +
             Binary.path() + "'" +
             (HiddenLeftOut ? "; " + std::to_string(HiddenLeftOut) +
                                  " of them left out of the layout"
                            : std::string()));
  if (Facts.BoltedCollection && !Binary.bat())
    warn(Source.Path, "collected on a BOLTed binary (boltedcollection), but '" +
                          Binary.path() + "' has no BAT table");
  // Records that fall in the code but do not fit it are named above.
  bool Empty = Profile.Traces.empty() && Profile.Samples.empty();
  if (Blocks && !Layout && !Empty && Misfits.empty() &&
      llvm::all_of(Blocks->Counts, [](uint64_t C) { return C == 0; }))
    warn(Source.Path, "nothing in the profile falls in the mapped code of '" +
                          Binary.path() + "': is it a profile of this binary?");
}

/// Opens \p Path, which must have a map, with its decoder: the input binary
/// of a BOLTed one, or the build a stale profile was recorded on.
Expected<ChargedBinary> ProfileRun::openCharged(StringRef Path) const {
  ChargedBinary C;
  Expected<std::unique_ptr<MappedBinary>> Opened = ofFile(
      Path, MappedBinary::open(Path, MappedBinary::MapRequirement::Required,
                               R.Threads));
  if (!Opened)
    return Opened.takeError();
  C.Binary = std::move(*Opened);
  warnAll(Path, C.Binary->warnings());
  Expected<std::unique_ptr<InstructionDecoder>> Decoder =
      ofFile(Path, InstructionDecoder::create(C.Binary->object()));
  if (!Decoder)
    return Decoder.takeError();
  C.Decoder = std::move(*Decoder);
  return C;
}

Expected<ChargedBinary> ProfileRun::openInput() const {
  Expected<ChargedBinary> In = openCharged(R.InputBinaryPath);
  if (!In)
    return In.takeError();
  if (Error E = checkBATInput(*Binary, *In->Binary, R.IgnoreBuildID))
    return createFileError(R.InputBinaryPath, std::move(E));
  return In;
}

Expected<ChargedBinary> ProfileRun::openProfiled() const {
  Expected<ChargedBinary> Old = openCharged(R.ProfiledBinaryPath);
  if (Old && Old->Binary->bat())
    return fileError(R.ProfiledBinaryPath, "optimized by BOLT: give the "
                                           "binary BOLT read as "
                                           "--profiled-binary");
  return Old;
}

Expected<boltyaml::Profile> ProfileRun::readYAML(StringRef Path) const {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!Buffer)
    return createFileError(Path, Buffer.getError());
  std::vector<boltyaml::FunctionProblem> Problems;
  Expected<boltyaml::Profile> P = ofFile(
      Path, boltyaml::readBoltYAML((*Buffer)->getMemBufferRef(), &Problems));
  if (!P)
    return P.takeError();
  for (const boltyaml::FunctionProblem &Problem : Problems)
    warn(Path, "function '" + Problem.Name + "' left out: " + Problem.Message);
  return P;
}

/// Charges a YAML profile to \p Binary's blocks, naming the functions
/// that do not fit it (at most 20, then a count).
BlockProfile ProfileRun::chargeYAML(const boltyaml::Profile &P,
                                    const MappedBinary &Binary,
                                    const InstructionDecoder &Decoder) const {
  constexpr size_t MaxShown = 20;
  YAMLCounts C = countYAMLBlocks(P, Binary, Decoder);
  for (const YAMLMisfit &M : ArrayRef(C.Misfits).take_front(MaxShown))
    warn(Source.Path, "function '" + M.Name + "' does not fit '" +
                          Binary.path() + "': " + M.Reason);
  if (C.Misfits.size() > MaxShown)
    warn(Source.Path, Twine(C.Misfits.size() - MaxShown) +
                          " more functions do not fit '" + Binary.path() + "'");
  if (!C.Functions && !P.Functions.empty())
    warn(Source.Path, "the profile lists no block counts (perf2bolt's YAML "
                      "of IP samples drops them: use its fdata, or "
                      "bbmap-profile --format=yaml)");
  if (C.CallsUnresolved)
    warn(Source.Path, Twine(C.CallsUnresolved) +
                          " calls to functions the profile does not list "
                          "(PLT entries, unknown code) are left out");
  return std::move(C.Profile);
}

/// Names what of a stale profile was lost, with its share of the weight:
/// functions BINARY lacks and profiled blocks no block matched, at most
/// MaxShown of each.
void ProfileRun::warnStale(const StaleMatchStats &S) const {
  constexpr size_t MaxShown = 20;
  auto List = [&](ArrayRef<StaleLoss> Losses, StringRef What) {
    for (const StaleLoss &L : Losses.take_front(MaxShown))
      warn(Source.Path, "function '" + L.Name + "' " + What + ": " +
                            share(L.Weight, S.Weight) +
                            " of the profile's weight lost");
    if (Losses.size() > MaxShown)
      warn(Source.Path,
           Twine(Losses.size() - MaxShown) + " more functions " + What);
  };
  List(S.Missing, "is not in '" + R.BinaryPath + "'");
  List(S.Partial, "changed, some profiled blocks match no block");
}

/// Local functions whose name others share need their compile unit's name
/// in a cluster profile, which only debug information gives.
void ProfileRun::warnUnattributed(ArrayRef<FunctionLayout> Layout,
                                  const MappedBinary &Binary) const {
  if (llvm::none_of(R.Outputs, [](const ProfileOutput &O) {
        return O.Format == OutputFormat::Clusters;
      }))
    return;
  size_t N = llvm::count_if(Layout, [](const FunctionLayout &F) {
    return F.SharedName && F.Module.empty();
  });
  if (N)
    warn(Binary.path(),
         Twine(N) + " hot local function(s) share a name with other "
                    "functions and have no debug information naming their "
                    "compile unit: the cluster profile leaves them out "
                    "(build with -g or -gline-tables-only to lay them out)");
}

/// Writes perf2bolt's records of the profile on the binary as fdata or
/// YAML.
Error ProfileRun::writeRecords(const ProfileOutput &O, raw_ostream &OS) {
  bool BasicSamples = R.BasicSamples || !Profile.HasBranches;
  bool PerfEventNames = any_of(R.Sources, [](const ProfileSource &S) {
    return S.Format == ProfileFormat::PerfData ||
           S.Format == ProfileFormat::PerfScript;
  });
  if (O.Format == OutputFormat::YAML) {
    BoltYAMLOptions Options;
    Options.Dialect = R.Dialect;
    Options.BasicSamples = BasicSamples;
    Options.SampleEvents = R.SampleEvents;
    Options.PerfEventNames = PerfEventNames;
    Options.DensityCutoff = R.DensityCutoff;
    Options.CountUnknownControlFlow = R.CountUnknownControlFlow;
    Options.Threads = R.Threads;
    WarningList Warnings;
    Expected<boltyaml::Profile> YAMLOut =
        ofFile(R.BinaryPath, buildBoltYAML(Profile, *Binary, *Decoder, Options,
                                           &Outcome.Stats, &Warnings));
    if (!YAMLOut)
      return YAMLOut.takeError();
    warnAll(R.BinaryPath, Warnings);
    boltyaml::writeBoltYAML(*YAMLOut, OS);
    return Error::success();
  }
  FdataOptions Options;
  Options.BasicSamples = BasicSamples;
  Options.PerfEventNames = PerfEventNames;
  Options.DensityCutoff = R.DensityCutoff;
  Options.CountUnknownControlFlow = R.CountUnknownControlFlow;
  auto Records = std::make_unique<BoltRecordAggregator>(*Binary, *Decoder,
                                                        R.Dialect, R.Threads);
  Expected<FdataStats> Stats =
      ofFile(R.BinaryPath, writeFdata(Profile, *Records, Options, OS));
  warnAll(R.BinaryPath, Records->warnings());
  if (R.LeaveAllocated)
    BuryPointer(std::move(Records));
  if (!Stats)
    return Stats.takeError();
  Outcome.Stats = *Stats;
  Outcome.Objects = Outcome.Stats.Objects;
  return Error::success();
}

/// Opens the binary and reads the profile: a profile that names no
/// function (all but fdata and YAML) needs only the binary's file and build
/// ID, and is read while the maps and symbols are decoded.
Error ProfileRun::openAndRead() {
  Expected<std::unique_ptr<MappedBinary>> Opened =
      ofFile(R.BinaryPath, MappedBinary::openFile(R.BinaryPath));
  if (!Opened)
    return Opened.takeError();
  Binary = std::move(*Opened);
  bool ReadBeside = R.ProfiledBinaryPath.empty() && !YAMLInput &&
                    none_of(R.Sources, [](const ProfileSource &S) {
                      return S.Format == ProfileFormat::Fdata;
                    });
  std::optional<Expected<BranchProfile>> Read;
  std::optional<Error> DecodeError;
  // A BOLTed binary needs no map: fdata goes through its BAT table, block
  // counts to the input binary's map.
  runBoth(
      R.Threads,
      [&] {
        DecodeError.emplace(
            Binary->decode(MappedBinary::MapRequirement::Optional, R.Threads));
      },
      [&] {
        if (ReadBeside)
          Read.emplace(readSources(*Binary));
      });
  if (Error E = std::move(*DecodeError)) {
    if (Read && !*Read)
      consumeError(Read->takeError()); // The binary's error comes first.
    return createFileError(R.BinaryPath, std::move(E));
  }
  warnAll(R.BinaryPath, Binary->warnings());
  if (Error E = checkBinary(*Binary)) {
    if (Read && !*Read)
      consumeError(Read->takeError());
    return E;
  }
  Expected<std::unique_ptr<InstructionDecoder>> D =
      ofFile(R.BinaryPath, InstructionDecoder::create(Binary->object()));
  if (!D)
    return D.takeError();
  Decoder = std::move(*D);
  return readInputProfile(std::move(Read));
}

/// The profile's records (\p Read if they were read beside the binary), or
/// a YAML profile; what the readers saw goes to the outcome.
Error ProfileRun::readInputProfile(
    std::optional<Expected<BranchProfile>> Read) {
  if (!R.ProfiledBinaryPath.empty()) {
    Expected<ChargedBinary> Old = openProfiled();
    if (!Old)
      return Old.takeError();
    Profiled = std::move(*Old);
  }
  if (YAMLInput) {
    Expected<boltyaml::Profile> P = readYAML(Source.Path);
    if (!P)
      return P.takeError();
    YAML = std::move(*P);
    Profile.HasBranches = YAML->Head.Flags & boltyaml::ProfileLBR;
    if (!YAML->Head.EventNames.empty())
      Profile.Events.push_back(YAML->Head.EventNames);
  } else {
    if (!Read)
      Read.emplace(readSources(Profiled ? *Profiled->Binary : *Binary));
    // Several sources' errors name their files themselves.
    if (!*Read)
      return R.Sources.size() > 1
                 ? Read->takeError()
                 : createFileError(Source.Path, Read->takeError());
    Profile = std::move(**Read);
  }
  for (const Sample &S : Profile.Samples)
    Outcome.SampleCount += S.Count;
  Outcome.Skipped = Profile.Skipped.OtherBinary + Profile.Skipped.Outside;
  Outcome.HasBranches = Profile.HasBranches;
  Outcome.Read = Profile.Read;
  if (const BATTable *BAT = Binary->bat())
    Outcome.BATFunctions = boltOrder(*BAT).size();
  return Error::success();
}

Error ProfileRun::openOutputs() {
  for (const ProfileOutput &O : R.Outputs) {
    Expected<std::unique_ptr<OutputFile>> Out =
        OutputFile::create(O.Path, OutputBufferSize);
    if (!Out)
      return Out.takeError();
    Outs.push_back(std::move(*Out));
  }
  return Error::success();
}

Error ProfileRun::commitOutputs() {
  for (std::unique_ptr<OutputFile> &Out : Outs)
    if (Error E = Out->commit())
      return E;
  return Error::success();
}

/// Charges the profile to blocks: translated through BAT to the input
/// binary's, inferred from samples when asked or needed, carried from the
/// profiled build to BINARY's.
Error ProfileRun::chargeBlocks() {
  Origin.ProfilePath = Source.Path;
  Origin.Format = formatName(Source.Format).str();
  Origin.Profile = &Profile;
  if (!R.InputBinaryPath.empty()) {
    Expected<ChargedBinary> In = openInput();
    if (!In)
      return In.takeError();
    Input = std::move(*In);
    Origin.BoltedBinary = Binary->path();
    // BOLT writes the YAML of a BOLTed binary in its input's blocks.
    if (!YAML) {
      TranslatedProfile T = translateBATProfile(
          Profile, {*Binary, *Decoder, *Input->Binary, *Input->Decoder});
      Profile = std::move(T.Profile);
      Origin.BAT = T.Stats;
    }
  }
  const ChargedBinary *CountedOn = Input      ? &*Input
                                   : Profiled ? &*Profiled
                                              : nullptr;
  Counted = CountedOn ? CountedOn->Binary.get() : Binary.get();
  CountedDecoder = CountedOn ? CountedOn->Decoder.get() : Decoder.get();
  Phases.start("count", "charge the profile to blocks");
  bool Infers = R.InferCounts || writesLayout() || Profiled;
  // SPE's branch samples say how often each branch ran, where its branch
  // records (Traces) say little more than a sample each: counts to infer
  // are inferred from them (on the binary they were recorded on).
  bool FromBranchSamples =
      !YAML && !Input && !Profile.BranchSamples.empty() && Infers;
  Blocks =
      YAML ? chargeYAML(*YAML, *Counted, *CountedDecoder)
      : FromBranchSamples
          ? countBranchSamples(Profile, *Counted, *CountedDecoder, R.Threads)
          : countBlocks(Profile, *Counted, *CountedDecoder, R.Threads);
  if (Blocks.Kind == CountKind::Samples && Infers) {
    Phases.start("infer", "infer block and edge counts");
    Origin.Inference =
        inferFlow(Blocks, *Counted, *CountedDecoder, R.Solver, R.Threads);
  }
  warnMisfits(*Counted, &Blocks, writesLayout());
  Charged = Counted;
  if (!Profiled)
    return Error::success();
  Expected<CarriedProfile> Carried =
      ofFile(Source.Path, carryProfile(Blocks, {*Counted, *CountedDecoder},
                                       {*Binary, *Decoder}, R.StaleHashes));
  if (!Carried)
    return Carried.takeError();
  warnStale(Carried->Stats);
  Blocks = std::move(Carried->Profile);
  Origin.ProfiledBinary = Counted->path();
  Origin.Stale = std::move(Carried->Stats);
  Charged = Binary.get();
  return Error::success();
}

/// Lays out the charged blocks and writes every layout output (and the
/// unit profiles); nothing to lay out is an error.
Error ProfileRun::writeLayout() {
  Phases.start("layout", "lay out blocks and functions");
  Layout =
      computeLayout(Blocks, *Charged, {R.ColdFraction, R.Threads, R.Order});
  if (Layout.empty()) {
    bool Misfit = llvm::any_of(
        Blocks.Fit, [](const auto &F) { return F.second.Misfits != 0; });
    if (Misfit)
      return fileError(Source.Path, "no function of '" + Charged->path() +
                                        "' fits the profile: no layout "
                                        "written (a stale profile, or "
                                        "another binary's?)");
    return fileError(Source.Path,
                     "nothing in the profile falls in the mapped code of '" +
                         Charged->path() +
                         "': no layout written (is it a profile of this "
                         "binary?)");
  }
  warnUnattributed(Layout, *Charged);
  std::vector<std::string> KeptUnits;
  if (!R.UnitDir.empty() && R.UnitMinGain)
    KeptUnits = keepUnitLayouts(Layout, *Charged, R.UnitDir, *R.UnitMinGain);
  std::optional<Placement> Placed;
  if (format() == OutputFormat::Placement) {
    Phases.start("place", "place the hot code against the libraries");
    Expected<Placement> P = place(Layout, *Charged);
    if (!P)
      return P.takeError();
    Placed = *P;
  }
  Phases.start("write", "write the output");
  for (size_t I = 0; I != R.Outputs.size(); ++I) {
    if (R.Outputs[I].Format == OutputFormat::Clusters)
      writeClusterProfile(Layout, R.LayoutFor, out(I));
    else if (R.Outputs[I].Format == OutputFormat::Placement)
      writePlacementAssembly(*Placed, Charged->object().getArch(),
                             PlacementPage, out(I));
    else if (R.Outputs[I].Format == OutputFormat::BlockOrder)
      writeBlockOrder(orderBlocks(Layout, *Charged), out(I));
    else
      writeSymbolOrder(Layout, out(I),
                       Placed ? StringRef(PlacementSymbol) : StringRef());
  }
  if (R.UnitDir.empty())
    return Error::success();
  return writeUnitProfiles(Layout, *Charged, KeptUnits);
}

/// Writes the block counts: a function's dot graph, BOLT's YAML, the
/// JSON or the summary.
Error ProfileRun::writeCounts() {
  Phases.start("write", "write the output");
  raw_ostream &OS = out(0);
  if (!R.CFG.empty()) {
    if (Error E = printFunctionCFG(OS, *Charged, Blocks, R.CFG))
      return createFileError(Charged->path(), std::move(E));
  } else if (format() == OutputFormat::YAML) {
    BoltYAMLOptions Options;
    Options.Dialect = R.Dialect;
    Options.Threads = R.Threads;
    WarningList Warnings;
    Expected<boltyaml::Profile> YAMLOut = ofFile(
        Charged->path(),
        buildBoltYAML(Blocks, *Charged, Profiled ? *Decoder : *CountedDecoder,
                      Options, &Warnings));
    if (!YAMLOut)
      return YAMLOut.takeError();
    warnAll(Charged->path(), Warnings);
    boltyaml::writeBoltYAML(*YAMLOut, OS);
  } else if (format() == OutputFormat::JSON) {
    printProfileJSON(OS, *Charged, Blocks, Origin, R.PrettyPrint);
  } else {
    printProfileSummary(OS, *Charged, Blocks, Origin, R.Top);
  }
  return Error::success();
}

void ProfileRun::warnAll(StringRef File, const WarningList &Warnings) const {
  WarningList &Seen = Warned[File];
  size_t Before = Seen.messages().size();
  Seen.append(Warnings);
  for (const std::string &Msg : Seen.messages().drop_front(Before))
    warn(File, Msg);
}

Expected<ProfileOutcome> ProfileRun::run() {
  if (Error E = checkOutputs())
    return E;
  if (Error E = checkPlacement())
    return E;
  Phases.start("open", "open the binary and read the profile");
  if (Error E = openAndRead())
    return E;
  if (Error E = openOutputs())
    return E;
  if (writesPreAggregated()) {
    Phases.start("write", "write the output");
    if (Error E = writePreAggregated(Profile, out(0)))
      return createFileError(Source.Path, std::move(E));
  } else if (writesPerf2boltOutput()) {
    Phases.start("records", "perf2bolt's records, written");
    warnMisfits(*Binary, nullptr, /*Layout=*/false);
    for (size_t I = 0; I != R.Outputs.size(); ++I)
      if (Error E = writeRecords(R.Outputs[I], out(I)))
        return E;
  } else {
    if (Error E = chargeBlocks())
      return E;
    if (Error E = writesLayout() ? writeLayout() : writeCounts())
      return E;
  }
  if (Error E = commitOutputs())
    return E;
  return Outcome;
}

} // namespace

Expected<ProfileOutcome> runProfile(const ProfileRequest &Request,
                                    Diagnostics &Diags) {
  return ProfileRun(Request, Diags).run();
}

Error writeBlockSectionsFile(StringRef BinaryPath, StringRef OutputPath,
                             unsigned Threads, Diagnostics &Diags) {
  Expected<std::unique_ptr<MappedBinary>> Binary =
      ofFile(BinaryPath,
             MappedBinary::open(
                 BinaryPath, MappedBinary::MapRequirement::Required, Threads));
  if (!Binary)
    return Binary.takeError();
  Diags.warnings(BinaryPath, (*Binary)->warnings());
  Expected<std::unique_ptr<OutputFile>> Out = OutputFile::create(OutputPath);
  if (!Out)
    return Out.takeError();
  writeBlockSections(everyBlock(**Binary), (*Out)->os());
  return (*Out)->commit();
}

} // namespace bbmap
