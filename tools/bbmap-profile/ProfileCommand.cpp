//===- ProfileCommand.cpp - read profiles, write bbmap-profile's outputs --===//
//
// Reads the profiles of a request against the binary (sums several), then
// writes what it asks for: perf2bolt's records (fdata, YAML), the summed
// records (pre-aggregated text), or the block counts charged to the map
// (summary, JSON, dot, layout), translated through BAT or carried from an
// earlier build first when asked.
//
//===----------------------------------------------------------------------===//

#include "ProfileCommand.h"
#include "ProfilePrinter.h"
#include "bbmap/BoltProfile/BATProfileTranslator.h"
#include "bbmap/BoltProfile/BoltYAML.h"
#include "bbmap/BoltProfile/BoltYAMLBuilder.h"
#include "bbmap/BoltProfile/BoltYAMLCounts.h"
#include "bbmap/BoltProfile/FdataWriter.h"
#include "bbmap/Layout/FlowInference.h"
#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Profile/PreAggregatedWriter.h"
#include "bbmap/Profile/ProcessCode.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include <algorithm>
#include <memory>
#include <optional>

using namespace llvm;

namespace bbmap {

namespace {

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
/// run, reported as LLVM's -time-passes is (llvm::TimerGroup) on standard
/// error when the run ends.
class PhaseTimers {
public:
  explicit PhaseTimers(bool Enabled) {
    if (Enabled)
      Group =
          std::make_unique<TimerGroup>("bbmap-profile", "bbmap-profile phases");
  }
  ~PhaseTimers() {
    stop();
    Timers.clear();
    if (Group)
      Group->print(errs());
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

  std::unique_ptr<TimerGroup> Group;
  std::vector<std::unique_ptr<Timer>> Timers;
};

/// An output file's buffer: raw_fd_ostream's default is the file system's
/// block (4 KiB), which takes thousands of write calls for an fdata file of
/// a trace (17 MB).
constexpr size_t OutputBufferSize = 1 << 20;

/// The process ends soon after a run: as clang does with -disable-free, a
/// run leaves its largest structures allocated rather than free them one
/// by one (BuryPointer keeps them reachable for leak checkers).
template <class T> void leaveAllocated(T &Value) {
  BuryPointer(std::make_unique<T>(std::move(Value)));
}

/// One run of a request; errors of its inputs end the process.
class ProfileRun {
public:
  ProfileRun(const ProfileRequest &R, ProfileOutcome &Outcome)
      : R(R), Outcome(Outcome), Source(describeSources(R.Sources)),
        YAMLInput(Source.Format == ProfileFormat::BoltYAML),
        Phases(R.TimePhases) {}

  int run();

private:
  void warn(StringRef File, const Twine &Msg) const {
    WithColor::warning(errs(), R.ToolName)
        << "'" << File << "': " << Msg << "\n";
  }
  void printError(StringRef File, const Twine &Msg) const {
    WithColor::error(errs(), R.ToolName) << "'" << File << "': " << Msg << "\n";
  }
  [[noreturn]] void fail(StringRef File, const Twine &Msg) const {
    printError(File, Msg);
    exit(1);
  }
  /// A request that does not hold together: one line, exit 2.
  [[noreturn]] void usageError(const Twine &Msg) const {
    WithColor::error(errs(), R.ToolName) << Msg << "\n";
    exit(2);
  }
  template <class T> T unwrap(StringRef File, Expected<T> V) const {
    if (!V)
      fail(File, toString(V.takeError()));
    return std::move(*V);
  }

  OutputFormat format() const { return R.Outputs.front().Format; }
  bool writesPerf2boltOutput() const;
  void checkOutputs() const;
  void checkBinary(const MappedBinary &Binary) const;
  Expected<BranchProfile> readSources(const MappedBinary &Recorded,
                                      SourceFacts &Facts) const;
  void warnMisfits(const SourceFacts &Facts, const MappedBinary &Binary,
                   const BranchProfile &Profile, const BlockProfile *Blocks,
                   bool Layout) const;
  ChargedBinary openInput(const MappedBinary &Bolted) const;
  ChargedBinary openProfiled() const;
  boltyaml::Profile readYAML(StringRef Path) const;
  BlockProfile chargeYAML(const boltyaml::Profile &P,
                          const MappedBinary &Binary,
                          const InstructionDecoder &Decoder) const;
  void warnStale(const StaleMatchStats &S) const;
  void warnUnattributed(ArrayRef<FunctionLayout> Layout,
                        const MappedBinary &Binary) const;
  StringRef processPerfData() const;
  void checkPlacement() const;
  void writeUnitProfiles(ArrayRef<FunctionLayout> Layout,
                         const MappedBinary &Binary,
                         ArrayRef<std::string> KeptUnits) const;
  BlockOrder orderBlocks(ArrayRef<FunctionLayout> Layout,
                         const BlockProfile &Blocks,
                         const MappedBinary &Binary) const;
  Placement place(ArrayRef<FunctionLayout> Layout,
                  const MappedBinary &Profiled) const;
  void writeRecords(const ProfileOutput &O, const BranchProfile &Profile,
                    const MappedBinary &Binary,
                    const InstructionDecoder &Decoder, raw_ostream &OS);

  const ProfileRequest &R;
  ProfileOutcome &Outcome;
  ProfileSource Source;
  bool YAMLInput;
  PhaseTimers Phases;
};

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
void ProfileRun::checkOutputs() const {
  if (R.Outputs.size() == 1)
    return;
  bool Records = writesPerf2boltOutput() &&
                 llvm::all_of(R.Outputs, [](const ProfileOutput &O) {
                   return isRecords(O.Format);
                 });
  bool Layouts =
      R.CFG.empty() && llvm::all_of(R.Outputs, [](const ProfileOutput &O) {
        return isLayout(O.Format);
      });
  if (!Records && !Layouts)
    usageError("several outputs are written only as perf2bolt's records "
               "(fdata, YAML) or as a layout (clusters, symbol order)");
}

/// The branch records and samples of every source, summed.
Expected<BranchProfile> ProfileRun::readSources(const MappedBinary &Recorded,
                                                SourceFacts &Facts) const {
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
void ProfileRun::checkPlacement() const {
  bool Placing = llvm::any_of(R.Outputs, [](const ProfileOutput &O) {
    return O.Format == OutputFormat::Placement;
  });
  if (!Placing) {
    if (!R.PlacedBinaryPath.empty() || !R.ProcessPerfData.empty())
      usageError("--placed-binary and --process-perfdata go with "
                 "--format=placement");
    return;
  }
  if (R.PlacedBinaryPath.empty())
    usageError("--format=placement needs --placed-binary=FILE: the binary "
               "built with the layout (with the plugin or "
               "-fbasic-block-address-map, for its map)");
  if (processPerfData().empty())
    usageError("--format=placement needs a perf.data of the whole process, "
               "for the code it ran in the libraries: the --perfdata "
               "profile, or --process-perfdata=FILE");
  if (!R.InputBinaryPath.empty() || !R.ProfiledBinaryPath.empty())
    usageError("--format=placement does not go with --input-binary or "
               "--profiled-binary");
}

/// The placement of the placed binary's hot code against the code the
/// profile ran in the other objects of its processes.
Placement ProfileRun::place(ArrayRef<FunctionLayout> Layout,
                            const MappedBinary &Profiled) const {
  std::unique_ptr<MappedBinary> Placed =
      unwrap(R.PlacedBinaryPath, MappedBinary::open(R.PlacedBinaryPath));
  Triple::ArchType Arch = Placed->object().getArch();
  CacheGeometry Cache = R.Cache.value_or(defaultCacheGeometry(Arch));
  PlacementInput Input =
      unwrap(R.PlacedBinaryPath, placedProgram(Layout, *Placed));
  StringRef Process = processPerfData();
  ProcessCode Code = unwrap(
      Process, readProcessCode(Process, sys::path::filename(Profiled.path()),
                               Cache.LineBytes));
  if (!Code.BinaryWeight)
    fail(Process, "no sample in '" + Profiled.path() +
                      "': the profile cannot weigh its code against "
                      "the other objects'");
  size_t Objects = Code.Objects.size();
  double Fetches =
      addOtherObjects(Input, std::move(Code), Cache.LineBytes, PlacementPage);
  Placement P = choosePlacement(Input, Cache, PlacementPage);
  WithColor::note(errs(), R.ToolName)
      << "'" << R.PlacedBinaryPath << "': hot code at page offset 0x"
      << utohexstr(P.PageOffset, /*LowerCase=*/true) << " (linked at 0x"
      << utohexstr(P.LinkedPageOffset, /*LowerCase=*/true)
      << "): modelled I-cache misses "
      << llvm::format("%.4g", P.Cost / std::max(Fetches, 1.0))
      << " of its fetches ("
      << llvm::format("%.4g", P.LinkedCost / std::max(Fetches, 1.0))
      << " as linked), against " << Input.Others.size() << " lines of "
      << Objects << " other objects\n";
  BuryPointer(std::move(Placed));
  return P;
}

/// Writes the per-unit profiles of \p Layout to R.UnitDir: a file whose
/// text is unchanged is left alone (its time too), so that a build
/// recompiles only the units whose layout changed, and so is the file of
/// each of \p KeptUnits (keepUnitLayouts); reports what changed (the first
/// units by name).
void ProfileRun::writeUnitProfiles(ArrayRef<FunctionLayout> Layout,
                                   const MappedBinary &Binary,
                                   ArrayRef<std::string> KeptUnits) const {
  if (std::error_code EC = sys::fs::create_directories(R.UnitDir))
    fail(R.UnitDir, EC.message());
  UnitProfiles Units = unitProfiles(Layout, Binary, R.LayoutFor);
  if (Units.WithoutUnit)
    WithColor::warning(errs(), R.ToolName)
        << "'" << Binary.path() << "': " << Units.WithoutUnit
        << " laid-out functions have no compile unit (build with -g) and are "
           "in no unit's profile\n";
  std::vector<StringRef> Changed;
  for (const auto &[Unit, Text] : Units.Files) {
    if (llvm::is_contained(KeptUnits, Unit))
      continue;
    SmallString<256> Path(R.UnitDir);
    sys::path::append(Path, unitProfileName(Unit));
    auto Old = MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (Old && (*Old)->getBuffer() == Text)
      continue;
    std::error_code EC;
    ToolOutputFile Out(Path, EC, sys::fs::OpenFlags::OF_Text);
    if (EC)
      fail(Path, EC.message());
    Out.os() << Text;
    Out.keep();
    Changed.push_back(Unit);
  }
  constexpr size_t Named = 8;
  WithColor::note(errs(), R.ToolName)
      << "'" << R.UnitDir << "': " << Units.Files.size() << " unit profiles, "
      << Changed.size() << " changed";
  if (R.UnitMinGain)
    errs() << ", " << KeptUnits.size() << " kept (each gains at most "
           << llvm::format("%g", *R.UnitMinGain * 100)
           << "% of the layout's score)";
  for (size_t I = 0; I < std::min(Changed.size(), Named); ++I)
    errs() << (I ? ", " : ": ") << Changed[I];
  if (Changed.size() > Named)
    errs() << " and " << Changed.size() - Named << " more";
  errs() << "\n";
}

/// The block order of \p Layout, with a warning when it cannot order every
/// hot block on its own (a binary without a section per block).
BlockOrder ProfileRun::orderBlocks(ArrayRef<FunctionLayout> Layout,
                                   const BlockProfile &Blocks,
                                   const MappedBinary &Binary) const {
  BlockOrder Order = blockOrder(Layout, Blocks, Binary, R.BlockScope);
  if (Order.SharedSections)
    WithColor::warning(errs(), R.ToolName)
        << "'" << Binary.path() << "': " << Order.SharedSections
        << " sections hold blocks that the order puts apart, which keep "
           "their order (build with a section per block: "
           "-fbasic-block-sections=all, or on AArch64 the list of "
           "--format=block-sections)\n";
  if (Order.EmptySections)
    WithColor::warning(errs(), R.ToolName)
        << "'" << Binary.path() << "': " << Order.EmptySections
        << " sections are empty (blocks that only mark unreachable code): "
           "lld 22 and older may keep an empty section's FDE in "
           ".eh_frame_hdr in place of the code's placed after it, and an "
           "exception through that code then terminates the program; build "
           "with -mllvm -trap-unreachable -mllvm -no-trap-after-noreturn\n";
  if (Order.Unnamed)
    WithColor::warning(errs(), R.ToolName)
        << "'" << Binary.path() << "': " << Order.Unnamed
        << " sections have no symbol at their start and are not ordered "
           "(a stripped binary?)\n";
  return Order;
}

/// Refuses a binary whose blocks the profile cannot be charged to: one
/// without a map (perf2bolt's records need only its symbols), and a BOLTed
/// one without --input-binary (its map, if BOLT copied one, still describes
/// the input's addresses).
void ProfileRun::checkBinary(const MappedBinary &Binary) const {
  if (format() == OutputFormat::PreAggregated && R.CFG.empty()) {
    if (YAMLInput || !R.InputBinaryPath.empty() ||
        !R.ProfiledBinaryPath.empty())
      usageError("--format=pa writes the records of the profiles read: not "
                 "with --yaml, --input-binary or --profiled-binary");
    // The records are the binary's addresses; no map is needed.
    return;
  }
  bool Bolted = Binary.bat() != nullptr;
  bool Fdata = writesPerf2boltOutput();
  if (YAMLInput && format() == OutputFormat::Fdata && R.CFG.empty())
    usageError("--format=fdata writes perf2bolt's records, which a YAML "
               "profile does not hold");
  if (!R.ProfiledBinaryPath.empty() && (!R.InputBinaryPath.empty() || Fdata))
    usageError("--profiled-binary carries block counts to BINARY: it does not "
               "go with --input-binary or --format=fdata (run those on the "
               "profiled binary)");
  // Before any output file is made.
  bool YAMLRecords =
      Fdata && llvm::any_of(R.Outputs, [](const ProfileOutput &O) {
        return O.Format == OutputFormat::YAML;
      });
  if (YAMLRecords)
    if (Error E = checkBoltYAMLWritable(Binary))
      fail(R.BinaryPath, toString(std::move(E)));
  if (!R.InputBinaryPath.empty() && !Bolted)
    fail(R.BinaryPath, "no BAT table (.note.bolt_bat): --input-binary needs a "
                       "binary BOLTed with --enable-bat");
  if (!R.InputBinaryPath.empty() && Fdata)
    usageError("--format=fdata writes perf2bolt's fdata of the BOLTed binary "
               "itself (for llvm-bolt on the input binary): drop "
               "--input-binary");
  if (Bolted && R.InputBinaryPath.empty() && !Fdata)
    fail(R.BinaryPath, "optimized by BOLT (BAT table in .note.bolt_bat): its "
                       "blocks are the input binary's; give the binary BOLT "
                       "read, with its .llvm_bb_addr_map, as "
                       "--input-binary=IN");
  if (!Bolted && !Fdata && Binary.sections().empty())
    fail(R.BinaryPath,
         "no .llvm_bb_addr_map section: block counts and layouts need the "
         "map (build with -fbasic-block-address-map, or with the bbmap "
         "plugin); perf2bolt's fdata and YAML do not");
}

/// Says what of the profile does not fit the binary: per function, records
/// that do not fit its blocks (a stale profile, or another binary's) and
/// function names it lacks (a profile of another build), at most MaxShown
/// of them and a count of the rest; a collection on a BOLTed binary read
/// without its BAT table; and, unless \p Layout (where it is an error),
/// that nothing fell in the mapped code. With \p Layout, says which
/// functions the layout leaves out.
void ProfileRun::warnMisfits(const SourceFacts &Facts,
                             const MappedBinary &Binary,
                             const BranchProfile &Profile,
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

ChargedBinary ProfileRun::openInput(const MappedBinary &Bolted) const {
  ChargedBinary In;
  In.Binary = unwrap(R.InputBinaryPath,
                     MappedBinary::open(R.InputBinaryPath,
                                        MappedBinary::MapRequirement::Required,
                                        R.Threads));
  if (Error E = checkBATInput(Bolted, *In.Binary, R.IgnoreBuildID))
    fail(R.InputBinaryPath, toString(std::move(E)));
  In.Decoder = unwrap(R.InputBinaryPath,
                      InstructionDecoder::create(In.Binary->object()));
  return In;
}

ChargedBinary ProfileRun::openProfiled() const {
  ChargedBinary Old;
  Old.Binary = unwrap(R.ProfiledBinaryPath,
                      MappedBinary::open(R.ProfiledBinaryPath,
                                         MappedBinary::MapRequirement::Required,
                                         R.Threads));
  if (Old.Binary->bat())
    fail(R.ProfiledBinaryPath, "optimized by BOLT: give the binary BOLT read "
                               "as --profiled-binary");
  Old.Decoder = unwrap(R.ProfiledBinaryPath,
                       InstructionDecoder::create(Old.Binary->object()));
  return Old;
}

boltyaml::Profile ProfileRun::readYAML(StringRef Path) const {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!Buffer)
    fail(Path, Buffer.getError().message());
  std::vector<boltyaml::FunctionProblem> Problems;
  boltyaml::Profile P = unwrap(
      Path, boltyaml::readBoltYAML((*Buffer)->getMemBufferRef(), &Problems));
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

/// Writes perf2bolt's records of \p Profile on \p Binary as fdata or YAML.
void ProfileRun::writeRecords(const ProfileOutput &O,
                              const BranchProfile &Profile,
                              const MappedBinary &Binary,
                              const InstructionDecoder &Decoder,
                              raw_ostream &OS) {
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
    boltyaml::writeBoltYAML(
        unwrap(R.BinaryPath, buildBoltYAML(Profile, Binary, Decoder, Options,
                                           &Outcome.Stats)),
        OS);
    return;
  }
  FdataOptions Options;
  Options.BasicSamples = BasicSamples;
  Options.PerfEventNames = PerfEventNames;
  Options.DensityCutoff = R.DensityCutoff;
  Options.CountUnknownControlFlow = R.CountUnknownControlFlow;
  auto Records = std::make_unique<BoltRecordAggregator>(Binary, Decoder,
                                                        R.Dialect, R.Threads);
  Outcome.Stats =
      unwrap(R.BinaryPath, writeFdata(Profile, *Records, Options, OS));
  Outcome.Objects = Outcome.Stats.Objects;
  BuryPointer(std::move(Records));
}

int ProfileRun::run() {
  checkOutputs();
  checkPlacement();
  Phases.start("open", "open the binary and read the profile");
  std::unique_ptr<MappedBinary> Binary =
      unwrap(R.BinaryPath, MappedBinary::openFile(R.BinaryPath));
  // A profile that names no function (all but fdata and YAML) needs only
  // the binary's file and build ID: it is read while the maps and symbols
  // are decoded.
  bool ReadBeside = R.ProfiledBinaryPath.empty() && !YAMLInput &&
                    none_of(R.Sources, [](const ProfileSource &S) {
                      return S.Format == ProfileFormat::Fdata;
                    });
  SourceFacts Facts;
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
          Read.emplace(readSources(*Binary, Facts));
      });
  if (Error E = std::move(*DecodeError))
    fail(R.BinaryPath, toString(std::move(E)));
  checkBinary(*Binary);
  bool WritesFdata = writesPerf2boltOutput();
  std::unique_ptr<InstructionDecoder> Decoder =
      unwrap(R.BinaryPath, InstructionDecoder::create(Binary->object()));
  std::optional<ChargedBinary> Profiled;
  if (!R.ProfiledBinaryPath.empty())
    Profiled = openProfiled();
  const MappedBinary &Recorded = Profiled ? *Profiled->Binary : *Binary;
  std::optional<boltyaml::Profile> YAML;
  BranchProfile Profile;
  if (YAMLInput) {
    YAML = readYAML(Source.Path);
    Profile.HasBranches = YAML->Head.Flags & boltyaml::ProfileLBR;
    if (!YAML->Head.EventNames.empty())
      Profile.Events.push_back(YAML->Head.EventNames);
  } else {
    if (!Read)
      Read.emplace(readSources(Recorded, Facts));
    if (!*Read && R.Sources.size() > 1) {
      WithColor::error(errs(), R.ToolName)
          << toString(Read->takeError()) << "\n";
      return 1;
    }
    Profile = unwrap(Source.Path, std::move(*Read));
  }
  for (const Sample &S : Profile.Samples)
    Outcome.SampleCount += S.Count;
  Outcome.Skipped = Profile.Skipped.OtherBinary + Profile.Skipped.Outside;
  Outcome.HasBranches = Profile.HasBranches;
  Outcome.Read = Profile.Read;
  if (const BATTable *BAT = Binary->bat())
    Outcome.BATFunctions = boltOrder(*BAT).size();
  std::vector<std::unique_ptr<ToolOutputFile>> Outs;
  for (const ProfileOutput &O : R.Outputs) {
    std::error_code EC;
    Outs.push_back(std::make_unique<ToolOutputFile>(
        O.Path, EC, sys::fs::OpenFlags::OF_Text));
    if (EC)
      fail(O.Path, EC.message());
    Outs.back()->os().SetBufferSize(OutputBufferSize);
  }
  auto KeepAll = [&] {
    for (std::unique_ptr<ToolOutputFile> &Out : Outs)
      Out->keep();
    leaveAllocated(Profile);
    BuryPointer(std::move(Binary));
    BuryPointer(std::move(Decoder));
    return 0;
  };
  raw_ostream &OS = Outs.front()->os();
  if (format() == OutputFormat::PreAggregated && R.CFG.empty()) {
    Phases.start("write", "write the output");
    if (Error E = writePreAggregated(Profile, OS))
      fail(Source.Path, toString(std::move(E)));
    return KeepAll();
  }
  if (WritesFdata) {
    Phases.start("records", "perf2bolt's records, written");
    warnMisfits(Facts, *Binary, Profile, nullptr, /*Layout=*/false);
    for (size_t I = 0; I != R.Outputs.size(); ++I)
      writeRecords(R.Outputs[I], Profile, *Binary, *Decoder, Outs[I]->os());
    return KeepAll();
  }
  ProfileOrigin Origin;
  Origin.ProfilePath = Source.Path;
  Origin.Format = formatName(Source.Format).str();
  Origin.Profile = &Profile;
  std::optional<ChargedBinary> Input;
  if (!R.InputBinaryPath.empty() && YAML) {
    // BOLT writes the YAML of a BOLTed binary in its input's blocks.
    Input = openInput(*Binary);
    Origin.BoltedBinary = Binary->path();
  } else if (!R.InputBinaryPath.empty()) {
    Input = openInput(*Binary);
    TranslatedProfile T = translateBATProfile(
        Profile, {*Binary, *Decoder, *Input->Binary, *Input->Decoder});
    Profile = std::move(T.Profile);
    Origin.BoltedBinary = Binary->path();
    Origin.BAT = T.Stats;
  }
  const ChargedBinary *CountedOn = Input      ? &*Input
                                   : Profiled ? &*Profiled
                                              : nullptr;
  const MappedBinary &Counted = CountedOn ? *CountedOn->Binary : *Binary;
  const InstructionDecoder &CountedDecoder =
      CountedOn ? *CountedOn->Decoder : *Decoder;
  Phases.start("count", "charge the profile to blocks");
  BlockProfile Blocks =
      YAML ? chargeYAML(*YAML, Counted, CountedDecoder)
           : countBlocks(Profile, Counted, CountedDecoder, R.Threads);
  bool WritesLayout = R.CFG.empty() && isLayout(format());
  if (Blocks.Kind == CountKind::Samples &&
      (R.InferCounts || WritesLayout || Profiled)) {
    Phases.start("infer", "infer block and edge counts");
    Origin.Inference =
        inferFlow(Blocks, Counted, CountedDecoder, R.Solver, R.Threads);
  }
  warnMisfits(Facts, Counted, Profile, &Blocks, WritesLayout);
  if (Profiled) {
    CarriedProfile Carried =
        unwrap(Source.Path, carryProfile(Blocks, {Counted, CountedDecoder},
                                         {*Binary, *Decoder}, R.StaleHashes));
    warnStale(Carried.Stats);
    Blocks = std::move(Carried.Profile);
    Origin.ProfiledBinary = Counted.path();
    Origin.Stale = std::move(Carried.Stats);
  }
  const MappedBinary &Charged = Profiled ? *Binary : Counted;
  if (WritesLayout) {
    Phases.start("layout", "lay out blocks and functions");
    std::vector<FunctionLayout> Layout =
        computeLayout(Blocks, Charged, {R.ColdFraction, R.Threads, R.Order});
    // Nothing to lay out is an error, and no file is written (returning
    // lets Outs remove them).
    if (Layout.empty()) {
      bool Misfit = llvm::any_of(
          Blocks.Fit, [](const auto &F) { return F.second.Misfits != 0; });
      if (Misfit)
        printError(Source.Path, "no function of '" + Charged.path() +
                                    "' fits the profile: no layout written "
                                    "(a stale profile, or another binary's?)");
      else
        printError(Source.Path,
                   "nothing in the profile falls in the mapped code of '" +
                       Charged.path() +
                       "': no layout written (is it a profile of this "
                       "binary?)");
      return 1;
    }
    warnUnattributed(Layout, Charged);
    std::vector<std::string> KeptUnits;
    if (!R.UnitDir.empty() && R.UnitMinGain)
      KeptUnits = keepUnitLayouts(Layout, Charged, R.UnitDir, *R.UnitMinGain);
    std::optional<Placement> Placed;
    if (format() == OutputFormat::Placement) {
      Phases.start("place", "place the hot code against the libraries");
      Placed = place(Layout, Charged);
    }
    Phases.start("write", "write the output");
    for (size_t I = 0; I != R.Outputs.size(); ++I) {
      if (R.Outputs[I].Format == OutputFormat::Clusters)
        writeClusterProfile(Layout, R.LayoutFor, Outs[I]->os());
      else if (R.Outputs[I].Format == OutputFormat::Placement)
        writePlacementAssembly(*Placed, Charged.object().getArch(),
                               PlacementPage, Outs[I]->os());
      else if (R.Outputs[I].Format == OutputFormat::BlockOrder)
        writeBlockOrder(orderBlocks(Layout, Blocks, Charged), Outs[I]->os());
      else
        writeSymbolOrder(Layout, Outs[I]->os(),
                         Placed ? StringRef(PlacementSymbol) : StringRef());
    }
    if (!R.UnitDir.empty())
      writeUnitProfiles(Layout, Charged, KeptUnits);
    leaveAllocated(Layout);
    leaveAllocated(Blocks);
    return KeepAll();
  }
  Phases.start("write", "write the output");
  if (!R.CFG.empty()) {
    if (Error E = printFunctionCFG(OS, Charged, Blocks, R.CFG))
      fail(Charged.path(), toString(std::move(E)));
  } else if (format() == OutputFormat::YAML) {
    BoltYAMLOptions Options;
    Options.Dialect = R.Dialect;
    boltyaml::writeBoltYAML(
        unwrap(Charged.path(),
               buildBoltYAML(Blocks, Charged,
                             Profiled ? *Decoder : CountedDecoder, Options)),
        OS);
  } else if (format() == OutputFormat::JSON) {
    printProfileJSON(OS, Charged, Blocks, Origin, R.PrettyPrint);
  } else {
    printProfileSummary(OS, Charged, Blocks, Origin, R.Top);
  }
  return KeepAll();
}

} // namespace

int runBlockSections(StringRef ToolName, StringRef BinaryPath,
                     StringRef OutputPath) {
  auto Fail = [&](StringRef File, const Twine &Message) {
    WithColor::error(errs(), ToolName)
        << "'" << File << "': " << Message << "\n";
    return 1;
  };
  Expected<std::unique_ptr<MappedBinary>> Binary =
      MappedBinary::open(BinaryPath);
  if (!Binary)
    return Fail(BinaryPath, toString(Binary.takeError()));
  std::error_code EC;
  ToolOutputFile Out(OutputPath, EC, sys::fs::OpenFlags::OF_Text);
  if (EC)
    return Fail(OutputPath, EC.message());
  writeBlockSections(everyBlock(**Binary), Out.os());
  Out.keep();
  return 0;
}

int runProfile(const ProfileRequest &Request, ProfileOutcome &Outcome) {
  return ProfileRun(Request, Outcome).run();
}

} // namespace bbmap
