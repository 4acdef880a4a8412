//===- bbmap-profile.cpp - profiles to basic-block counts -----------------===//
//
// bbmap-profile reads a profile of a binary that carries a basic-block
// address map (perf.data, perf script text, BOLT pre-aggregated, BOLT
// fdata) and charges it to the map's blocks: block counts, CFG edge counts
// and call counts, printed as a summary, JSON or a Graphviz picture of one
// function. A profile of a BOLTed binary with a BAT table is charged to the
// blocks of the input binary BOLT read (--input-binary). docs/profile.md
// documents the options, rules and output.
//
// Usage: bbmap-profile prog --pa=prog.pa --format=json -o prog.json
//        bbmap-profile prog.bolt --pa=bolted.pa --input-binary=prog
//
//===----------------------------------------------------------------------===//

#include "ProfilePrinter.h"
#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BATProfileTranslator.h"
#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Profile/BoltYAML.h"
#include "bbmap/Profile/BoltYAMLBuilder.h"
#include "bbmap/Profile/BoltYAMLCounts.h"
#include "bbmap/Profile/FdataWriter.h"
#include "bbmap/Profile/FlowInference.h"
#include "bbmap/Profile/Layout.h"
#include "bbmap/Profile/PreAggregatedWriter.h"
#include "bbmap/Profile/ProfileSource.h"
#include "bbmap/Profile/StaleMatching.h"
#include "bbmap/Support/ToolVersion.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include <algorithm>

using namespace llvm;
using namespace bbmap;

namespace {

constexpr StringRef ToolName = "bbmap-profile";

cl::OptionCategory ProfileCategory("bbmap-profile options");

cl::opt<std::string> BinaryPath(cl::Positional, cl::Required,
                                cl::desc("<binary with .llvm_bb_addr_map>"),
                                cl::cat(ProfileCategory));
cl::opt<std::string>
    InputBinaryPath("input-binary",
                    cl::desc("BINARY was BOLTed with --enable-bat: charge "
                             "the profile to the blocks of this binary, the "
                             "one BOLT read"),
                    cl::value_desc("file"), cl::cat(ProfileCategory));

cl::opt<std::string> ProfiledBinaryPath(
    "profiled-binary",
    cl::desc("The profile was recorded on this earlier build of BINARY: "
             "charge it to this build's blocks, then carry the counts to "
             "BINARY's blocks by function name and block hashes (a stale "
             "profile)"),
    cl::value_desc("file"), cl::cat(ProfileCategory));

cl::opt<HashSource> StaleHashes(
    "stale-hashes",
    cl::desc("With --profiled-binary, the block hashes that match the "
             "blocks of changed functions (default: auto)"),
    cl::values(clEnumValN(HashSource::Auto, "auto",
                          "the maps' when both builds come from the same "
                          "compiler, else the code's"),
               clEnumValN(HashSource::Map, "map",
                          "the maps' (-bbmap-bb-hash, -emit-bb-hash) when "
                          "both have them"),
               clEnumValN(HashSource::Code, "code",
                          "hashes of the decoded instructions")),
    cl::init(HashSource::Auto), cl::cat(ProfileCategory));

cl::list<std::string> PerfData("perfdata",
                               cl::desc("Read a perf.data file (file or pipe "
                                        "mode; perf is not needed)"),
                               cl::value_desc("file"),
                               cl::cat(ProfileCategory));
cl::opt<PerfDataDecoder> PerfDecoder(
    "perf-decoder",
    cl::desc("How --perfdata is read (default: native; perf-script when "
             "--perf is given)"),
    cl::values(clEnumValN(PerfDataDecoder::Native, "native",
                          "bbmap's own decoder, on every core"),
               clEnumValN(PerfDataDecoder::PerfScript, "perf-script",
                          "the text of `perf script`, from a perf process")),
    cl::init(PerfDataDecoder::Native), cl::cat(ProfileCategory));
cl::list<std::string> PerfScript("perfscript",
                                 cl::desc("Read `perf script` text (brstack "
                                          "or IP samples, with mmap events)"),
                                 cl::value_desc("file"),
                                 cl::cat(ProfileCategory));
cl::list<std::string> PreAggregated("pa",
                                    cl::desc("Read a BOLT pre-aggregated "
                                             "profile (perf2bolt --pa)"),
                                    cl::value_desc("file"),
                                    cl::cat(ProfileCategory));
cl::list<std::string> Fdata("fdata", cl::desc("Read a BOLT fdata profile"),
                            cl::value_desc("file"), cl::cat(ProfileCategory));
cl::opt<std::string>
    BoltYAMLPath("yaml",
                 cl::desc("Read a BOLT YAML profile (perf2bolt -w or "
                          "--profile-format=yaml, llvm-bolt -w): block counts "
                          "of BOLT's blocks, charged to the map's"),
                 cl::value_desc("file"), cl::cat(ProfileCategory));

enum class OutputFormat {
  Text,
  JSON,
  Fdata,
  YAML,
  PreAggregated,
  Clusters,
  SymbolOrder
};
cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format (default: text)"),
    cl::values(clEnumValN(OutputFormat::Text, "text",
                          "hottest functions and blocks with their share"),
               clEnumValN(OutputFormat::JSON, "json",
                          "every profiled function's blocks, edges and calls "
                          "(docs/profile.md)"),
               clEnumValN(OutputFormat::Clusters, "clusters",
                          "a basic-block-sections profile (clang "
                          "-fbasic-block-sections=list=FILE): hot blocks in "
                          "ext-TSP order"),
               clEnumValN(OutputFormat::SymbolOrder, "symbol-order",
                          "a symbol ordering file (ld.lld "
                          "--symbol-ordering-file): hot functions in "
                          "cache-directed order"),
               clEnumValN(OutputFormat::Fdata, "fdata",
                          "BOLT fdata, as perf2bolt writes it for the same "
                          "input (llvm-bolt --data)"),
               clEnumValN(OutputFormat::YAML, "yaml",
                          "BOLT YAML, as perf2bolt --profile-format=yaml "
                          "writes it for the same input (llvm-bolt --data)"),
               clEnumValN(OutputFormat::PreAggregated, "pa",
                          "the summed records as BOLT pre-aggregated text "
                          "(perf2bolt-22 --pa, bbmap-profile --pa): the "
                          "same bytes for any order of the same inputs")),
    cl::init(OutputFormat::Text), cl::cat(ProfileCategory));
cl::opt<std::string> OutputPath("o", cl::desc("Output file (default: -)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(ProfileCategory));
cl::opt<bool> PrettyPrint("pretty-print", cl::desc("Indent the JSON output"),
                          cl::cat(ProfileCategory));
cl::opt<unsigned> Top("top",
                      cl::desc("Functions and blocks in the text summary "
                               "(default: 10)"),
                      cl::init(10), cl::cat(ProfileCategory));
cl::opt<std::string> CFG("cfg",
                         cl::desc("Write a Graphviz dot picture of this "
                                  "function's blocks and edges instead"),
                         cl::value_desc("function"), cl::cat(ProfileCategory));
cl::opt<FdataDialect> Dialect(
    "fdata-dialect",
    cl::desc("With --format=fdata or yaml, the perf2bolt to match (default: "
             "22)"),
    cl::values(clEnumValN(FdataDialect::Bolt22, "22", "perf2bolt 22"),
               clEnumValN(FdataDialect::Bolt19, "19",
                          "perf2bolt 19: unknown ends keep their address"),
               clEnumValN(FdataDialect::Bolt16, "16",
                          "perf2bolt 16: returns are branches")),
    cl::init(FdataDialect::Bolt22), cl::cat(ProfileCategory));
cl::opt<bool> BasicSamples(
    "ba",
    cl::desc("With --format=fdata or yaml, write IP samples (a no_lbr file, "
             "as perf2bolt --ba); the default for profiles without branches"),
    cl::cat(ProfileCategory));
cl::opt<ClusterConsumer> LayoutFor(
    "layout-for",
    cl::desc("With --format=clusters, the clang that reads the profile "
             "(default: 19, which both majors read)"),
    cl::values(clEnumValN(ClusterConsumer::Clang19, "19",
                          "v1, m, f and c lines only"),
               clEnumValN(ClusterConsumer::Clang22, "22",
                          "also g lines: block and edge counts")),
    cl::init(ClusterConsumer::Clang19), cl::cat(ProfileCategory));
cl::opt<bool> InferCounts(
    "infer-counts",
    cl::desc("With a profile of IP samples alone, infer block and edge "
             "counts from the samples and the CFG (LLVM's profile "
             "inference); always done for --format=clusters and "
             "symbol-order"),
    cl::cat(ProfileCategory));
cl::opt<bool> IgnoreBuildID("ignore-build-id",
                            cl::desc("Read a profile recorded for another "
                                     "build ID of the binary; with "
                                     "--input-binary, accept an input binary "
                                     "of another build ID"),
                            cl::cat(ProfileCategory));
cl::opt<std::string> PerfPath("perf",
                              cl::desc("Read --perfdata through `perf script` "
                                       "of this perf program (with "
                                       "--perf-decoder=perf-script: default "
                                       "$BBMAP_PERF, else perf on PATH)"),
                              cl::value_desc("path"), cl::cat(ProfileCategory));

/// --threads, or the machine's hardware threads; set by main.
unsigned ThreadCount = 0;

void warn(StringRef File, const Twine &Msg) {
  WithColor::warning(errs(), ToolName) << "'" << File << "': " << Msg << "\n";
}

/// "N records" / "N record".
std::string records(uint64_t N) {
  return std::to_string(N) + (N == 1 ? " record" : " records");
}

/// Says what of the profile does not fit the binary: per function, records
/// that do not fit its blocks (a stale profile, or another binary's) and
/// function names it lacks (a profile of another build), at most MaxShown
/// of them and a count of the rest; a collection on a BOLTed binary read
/// without its BAT table; and, unless \p Layout (where it is an error),
/// that nothing fell in the mapped code. With \p Layout, says which
/// functions the layout leaves out.
void warnMisfits(const ProfileSource &Source, const SourceFacts &Facts,
                 const MappedBinary &Binary, const BranchProfile &Profile,
                 const BlockProfile *Blocks, bool Layout) {
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

void printError(StringRef File, const Twine &Msg) {
  WithColor::error(errs(), ToolName) << "'" << File << "': " << Msg << "\n";
}

[[noreturn]] void fail(StringRef File, const Twine &Msg) {
  printError(File, Msg);
  exit(1);
}

template <class T> T unwrap(StringRef File, Expected<T> V) {
  if (!V)
    fail(File, toString(V.takeError()));
  return std::move(*V);
}

/// The profiles given, in the order of the options' kinds; each option
/// may be repeated (all but --yaml, which stands alone).
std::vector<ProfileSource> selectSources() {
  std::vector<ProfileSource> Given;
  auto Add = [&](ProfileFormat F, ArrayRef<std::string> Paths) {
    for (const std::string &Path : Paths) {
      ProfileSource S;
      S.Format = F;
      S.Path = Path;
      S.IgnoreBuildID = IgnoreBuildID;
      S.PerfPath = PerfPath;
      S.Decoder = PerfDecoder.getNumOccurrences() || PerfPath.empty()
                      ? PerfDecoder
                      : PerfDataDecoder::PerfScript;
      S.Threads = ThreadCount;
      Given.push_back(S);
    }
  };
  Add(ProfileFormat::PerfData, PerfData);
  Add(ProfileFormat::PerfScript, PerfScript);
  Add(ProfileFormat::PreAggregated, PreAggregated);
  Add(ProfileFormat::Fdata, Fdata);
  if (!BoltYAMLPath.empty())
    Add(ProfileFormat::BoltYAML, {BoltYAMLPath});
  bool YAMLWithOthers = !BoltYAMLPath.empty() && Given.size() > 1;
  if (Given.empty() || YAMLWithOthers) {
    WithColor::error(errs(), ToolName)
        << "give a profile: --perfdata, --perfscript, --pa or --fdata (each "
           "may be repeated; the profiles are summed), or one --yaml\n";
    exit(2);
  }
  return Given;
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

/// The output is one of perf2bolt's (fdata or YAML) of the profiled
/// binary itself, written from the profile's records. The YAML of a
/// carried profile, or of a YAML input, is written from block counts.
bool writesPerf2boltOutput() {
  bool RecordYAML = Format == OutputFormat::YAML &&
                    ProfiledBinaryPath.empty() && BoltYAMLPath.empty();
  return (Format == OutputFormat::Fdata || RecordYAML) && CFG.empty();
}

/// Refuses a binary whose blocks the profile cannot be charged to: one
/// without a map, and a BOLTed one without --input-binary (its map, if BOLT
/// copied one, still describes the input's addresses).
void checkBinary(const MappedBinary &Binary) {
  if (Format == OutputFormat::PreAggregated && CFG.empty()) {
    if (!BoltYAMLPath.empty() || !InputBinaryPath.empty() ||
        !ProfiledBinaryPath.empty()) {
      WithColor::error(errs(), ToolName)
          << "--format=pa writes the records of the profiles read: not with "
             "--yaml, --input-binary or --profiled-binary\n";
      exit(2);
    }
    // The records are the binary's addresses; no map is needed.
    return;
  }
  bool Bolted = Binary.bat() != nullptr;
  bool Fdata = writesPerf2boltOutput();
  if (!BoltYAMLPath.empty() && Fdata) {
    WithColor::error(errs(), ToolName)
        << "--format=fdata writes perf2bolt's records, which a YAML profile "
           "does not hold\n";
    exit(2);
  }
  if (!ProfiledBinaryPath.empty() && (!InputBinaryPath.empty() || Fdata)) {
    WithColor::error(errs(), ToolName)
        << "--profiled-binary carries block counts to BINARY: it does not go "
           "with --input-binary or --format=fdata (run those on the profiled "
           "binary)\n";
    exit(2);
  }
  if (!InputBinaryPath.empty() && !Bolted)
    fail(BinaryPath, "no BAT table (.note.bolt_bat): --input-binary needs a "
                     "binary BOLTed with --enable-bat");
  if (!InputBinaryPath.empty() && Fdata) {
    WithColor::error(errs(), ToolName)
        << "--format=fdata writes perf2bolt's fdata of the BOLTed binary "
           "itself (for llvm-bolt on the input binary): drop --input-binary\n";
    exit(2);
  }
  if (Bolted && InputBinaryPath.empty() && !Fdata)
    fail(BinaryPath, "optimized by BOLT (BAT table in .note.bolt_bat): its "
                     "blocks are the input binary's; give the binary BOLT "
                     "read, with its .llvm_bb_addr_map, as --input-binary=IN");
  if (!Bolted && Binary.sections().empty())
    fail(BinaryPath, "no .llvm_bb_addr_map section");
}

/// The binary the blocks are charged to, with its decoder.
struct ChargedBinary {
  std::unique_ptr<MappedBinary> Binary;
  std::unique_ptr<InstructionDecoder> Decoder;
};

ChargedBinary openInput(const MappedBinary &Bolted) {
  ChargedBinary In;
  In.Binary = unwrap(InputBinaryPath, MappedBinary::open(InputBinaryPath));
  if (Error E = checkBATInput(Bolted, *In.Binary, IgnoreBuildID))
    fail(InputBinaryPath, toString(std::move(E)));
  In.Decoder =
      unwrap(InputBinaryPath, InstructionDecoder::create(In.Binary->object()));
  return In;
}

boltyaml::Profile readYAML(StringRef Path) {
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
BlockProfile chargeYAML(const ProfileSource &Source, const boltyaml::Profile &P,
                        const MappedBinary &Binary,
                        const InstructionDecoder &Decoder) {
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

ChargedBinary openProfiled() {
  ChargedBinary Old;
  Old.Binary =
      unwrap(ProfiledBinaryPath, MappedBinary::open(ProfiledBinaryPath));
  if (Old.Binary->bat())
    fail(ProfiledBinaryPath, "optimized by BOLT: give the binary BOLT read "
                             "as --profiled-binary");
  Old.Decoder = unwrap(ProfiledBinaryPath,
                       InstructionDecoder::create(Old.Binary->object()));
  return Old;
}

/// "N.N%" of \p Total.
std::string share(uint64_t Part, uint64_t Total) {
  return formatv("{0:F1}%", Total ? 100.0 * Part / Total : 0.0).str();
}

/// Names what of a stale profile was lost, with its share of the weight:
/// functions BINARY lacks and profiled blocks no block matched, at most
/// MaxShown of each.
void warnStale(const ProfileSource &Source, const StaleMatchStats &S) {
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
  List(S.Missing, "is not in '" + BinaryPath + "'");
  List(S.Partial, "changed, some profiled blocks match no block");
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // libLLVM registers an undocumented --threads of its own, which nothing
  // here reads: bbmap-profile's takes its place.
  if (cl::Option *Theirs = cl::getRegisteredOptions().lookup("threads"))
    Theirs->removeArgument();
  cl::opt<unsigned> Threads(
      "threads",
      cl::desc("Read perf.data on N threads (default: the machine's "
               "hardware threads). The result is the same for every N"),
      cl::value_desc("N"), cl::cat(ProfileCategory));
  cl::HideUnrelatedOptions(ProfileCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { printToolVersion(OS, "bbmap-profile"); });
  cl::ParseCommandLineOptions(
      argc, argv,
      "bbmap-profile: charge a profile to basic blocks\n\n"
      "  Reads one profile of BINARY (perf.data, perf script text, BOLT\n"
      "  pre-aggregated, fdata or YAML) and charges it to the blocks of "
      "BINARY's\n"
      "  .llvm_bb_addr_map: block, edge and call counts. For a BOLTed\n"
      "  BINARY with a BAT table, --input-binary names the binary BOLT read,\n"
      "  whose blocks are charged. For a profile of an earlier build,\n"
      "  --profiled-binary names that build; its counts are carried to\n"
      "  BINARY's blocks.\n");
  if (Threads.getNumOccurrences() && Threads == 0) {
    WithColor::error(errs(), ToolName) << "--threads needs at least 1\n";
    return 2;
  }
  ThreadCount = Threads;
  std::vector<ProfileSource> Sources = selectSources();
  ProfileSource Source = describeSources(Sources);

  // A BOLTed binary needs no map: fdata goes through its BAT table, block
  // counts to the input binary's map.
  std::unique_ptr<MappedBinary> Binary = unwrap(
      BinaryPath,
      MappedBinary::open(BinaryPath, MappedBinary::MapRequirement::Optional));
  checkBinary(*Binary);
  bool WritesFdata = writesPerf2boltOutput();
  std::unique_ptr<InstructionDecoder> Decoder =
      unwrap(BinaryPath, InstructionDecoder::create(Binary->object()));
  std::optional<ChargedBinary> Profiled;
  if (!ProfiledBinaryPath.empty())
    Profiled = openProfiled();
  const MappedBinary &Recorded = Profiled ? *Profiled->Binary : *Binary;
  SourceFacts Facts;
  std::optional<boltyaml::Profile> YAML;
  BranchProfile Profile;
  if (Source.Format == ProfileFormat::BoltYAML) {
    YAML = readYAML(Source.Path);
    Profile.HasBranches = YAML->Head.Flags & boltyaml::ProfileLBR;
    if (!YAML->Head.EventNames.empty())
      Profile.Events.push_back(YAML->Head.EventNames);
  } else {
    Expected<BranchProfile> Read =
        Sources.size() == 1 ? readProfile(Sources.front(), Recorded, Facts)
                            : readProfiles(Sources, Recorded, Facts);
    if (!Read && Sources.size() > 1) {
      WithColor::error(errs(), ToolName) << toString(Read.takeError()) << "\n";
      return 1;
    }
    Profile = unwrap(Source.Path, std::move(Read));
  }
  std::error_code EC;
  ToolOutputFile Out(OutputPath, EC, sys::fs::OpenFlags::OF_Text);
  if (EC)
    fail(OutputPath, EC.message());
  if (Format == OutputFormat::PreAggregated && CFG.empty()) {
    if (Error E = writePreAggregated(Profile, Out.os()))
      fail(Source.Path, toString(std::move(E)));
    Out.keep();
    return 0;
  }
  if (WritesFdata && Format == OutputFormat::YAML) {
    warnMisfits(Source, Facts, *Binary, Profile, nullptr, /*Layout=*/false);
    BoltYAMLOptions Options;
    Options.Dialect = Dialect;
    Options.BasicSamples = BasicSamples || !Profile.HasBranches;
    boltyaml::writeBoltYAML(
        unwrap(BinaryPath, buildBoltYAML(Profile, *Binary, *Decoder, Options)),
        Out.os());
    Out.keep();
    return 0;
  }
  if (WritesFdata) {
    warnMisfits(Source, Facts, *Binary, Profile, nullptr, /*Layout=*/false);
    FdataOptions Options;
    Options.Dialect = Dialect;
    Options.BasicSamples = BasicSamples || !Profile.HasBranches;
    Options.PerfEventNames = any_of(Sources, [](const ProfileSource &S) {
      return S.Format == ProfileFormat::PerfData ||
             S.Format == ProfileFormat::PerfScript;
    });
    unwrap(BinaryPath,
           writeFdata(Profile, *Binary, *Decoder, Options, Out.os()));
    Out.keep();
    return 0;
  }
  ProfileOrigin Origin;
  Origin.ProfilePath = Source.Path;
  Origin.Format = formatName(Source.Format).str();
  Origin.Profile = &Profile;
  std::optional<ChargedBinary> Input;
  if (!InputBinaryPath.empty() && YAML) {
    // BOLT writes the YAML of a BOLTed binary in its input's blocks.
    Input = openInput(*Binary);
    Origin.BoltedBinary = Binary->path();
  } else if (!InputBinaryPath.empty()) {
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
  BlockProfile Blocks = YAML
                            ? chargeYAML(Source, *YAML, Counted, CountedDecoder)
                            : countBlocks(Profile, Counted, CountedDecoder);
  bool WritesLayout = CFG.empty() && (Format == OutputFormat::Clusters ||
                                      Format == OutputFormat::SymbolOrder);
  if (Blocks.Kind == CountKind::Samples &&
      (InferCounts || WritesLayout || Profiled))
    Origin.Inference = inferFlow(Blocks, Counted, CountedDecoder);
  warnMisfits(Source, Facts, Counted, Profile, &Blocks, WritesLayout);
  if (Profiled) {
    CarriedProfile Carried =
        unwrap(Source.Path, carryProfile(Blocks, {Counted, CountedDecoder},
                                         {*Binary, *Decoder}, StaleHashes));
    warnStale(Source, Carried.Stats);
    Blocks = std::move(Carried.Profile);
    Origin.ProfiledBinary = Counted.path();
    Origin.Stale = std::move(Carried.Stats);
  }
  const MappedBinary &Charged = Profiled ? *Binary : Counted;
  std::vector<FunctionLayout> Layout;
  if (WritesLayout) {
    Layout = computeLayout(Blocks, Charged);
    // Nothing to lay out is an error, and no file is written (returning
    // lets Out remove it).
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
  }
  if (!CFG.empty()) {
    if (Error E = printFunctionCFG(Out.os(), Charged, Blocks, CFG))
      fail(Charged.path(), toString(std::move(E)));
  } else if (Format == OutputFormat::Clusters) {
    writeClusterProfile(Layout, LayoutFor, Out.os());
  } else if (Format == OutputFormat::SymbolOrder) {
    writeSymbolOrder(Layout, Out.os());
  } else if (Format == OutputFormat::YAML) {
    BoltYAMLOptions Options;
    Options.Dialect = Dialect;
    boltyaml::writeBoltYAML(
        unwrap(Charged.path(),
               buildBoltYAML(Blocks, Charged,
                             Profiled ? *Decoder : CountedDecoder, Options)),
        Out.os());
  } else if (Format == OutputFormat::JSON) {
    printProfileJSON(Out.os(), Charged, Blocks, Origin, PrettyPrint);
  } else {
    printProfileSummary(Out.os(), Charged, Blocks, Origin, Top);
  }
  Out.keep();
  return 0;
}
