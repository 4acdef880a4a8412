//===- bbmap-profile.cpp - profiles to basic-block counts -----------------===//
//
// bbmap-profile reads a profile of a binary that carries a basic-block
// address map (perf.data, perf script text, BOLT pre-aggregated, BOLT
// fdata) and charges it to the map's blocks: block counts, CFG edge counts
// and call counts, printed as a summary, JSON or a Graphviz picture of one
// function. A profile of a BOLTed binary with a BAT table is charged to the
// blocks of the input binary BOLT read (--input-binary). Called as
// perf2bolt or create_llvm_prof, it reads their command lines instead
// (DriverMode.h). docs/profile.md documents the options, rules and output.
//
// Usage: bbmap-profile prog --pa=prog.pa --format=json -o prog.json
//        bbmap-profile prog.bolt --pa=bolted.pa --input-binary=prog
//
//===----------------------------------------------------------------------===//

#include "DriverMode.h"
#include "bbmap/Profile/ProfileSource.h"
#include "bbmap/Support/ToolVersion.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace bbmap;

namespace {

constexpr StringRef ToolName = "bbmap-profile";

cl::OptionCategory ProfileCategory("bbmap-profile options");

cl::opt<std::string> BinaryPath(cl::Positional, cl::Required,
                                cl::desc("<binary>"), cl::cat(ProfileCategory));
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
               clEnumValN(OutputFormat::BlockOrder, "block-order",
                          "for a binary built with a section per block "
                          "(-fbasic-block-sections=all): the symbol ordering "
                          "file that places its blocks (a relink applies "
                          "the layout; docs/layout.md)"),
               clEnumValN(OutputFormat::BlockSections, "block-sections",
                          "no profile read: a basic-block-sections profile "
                          "that gives every block of BINARY's mapped functions "
                          "a section of its own (the per-block build of a "
                          "relinked layout on AArch64; docs/layout.md)"),
               clEnumValN(OutputFormat::Placement, "placement",
                          "an assembly file whose page-aligned padding "
                          "places the hot code of --placed-binary against "
                          "the libraries' hot code (docs/layout.md)"),
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
cl::opt<std::string> SymbolOrderPath(
    "symbol-order",
    cl::desc("With --format=clusters or placement, also write the symbol "
             "ordering file of the same layout to this file (one run for "
             "both; with placement, the padding's symbol first)"),
    cl::value_desc("file"), cl::cat(ProfileCategory));
cl::opt<bool> TimePhases(
    "time-phases",
    cl::desc("Report the wall and CPU time of each phase (open, read, "
             "count, infer, layout, perf2bolt's records, write) on standard "
             "error"),
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
cl::opt<double> ColdFraction(
    "cold-fraction",
    cl::desc("With a layout format: a block that ran fewer than F times as "
             "often as its function's hottest block goes to the function's "
             ".cold part with the blocks that never ran (default: 0.00003 "
             "with branch records or traces, 0 with IP samples, whose small "
             "inferred counts are estimates; 0 keeps every block that ran "
             "in the hot cluster)"),
    cl::value_desc("F"), cl::cat(ProfileCategory));
cl::opt<FunctionOrder> Order(
    "function-order",
    cl::desc("With a layout format, the order of the hot functions (default: "
             "cdsort)"),
    cl::values(clEnumValN(FunctionOrder::CacheDirected, "cdsort",
                          "LLVM's cache-directed sort of the profile's calls "
                          "(BOLT's -reorder-functions=cdsort)"),
               clEnumValN(FunctionOrder::ExecCount, "exec-count",
                          "the most executed function first"),
               clEnumValN(FunctionOrder::None, "none",
                          "the binary's order: hot functions first, in the "
                          "order of their addresses")),
    cl::init(FunctionOrder::CacheDirected), cl::cat(ProfileCategory));
cl::opt<std::string> UnitDir(
    "unit-dir",
    cl::desc("With --format=clusters, also write one profile per compile "
             "unit (the binary's DWARF) to this directory, leaving the files "
             "whose text did not change untouched: a build that depends on "
             "them recompiles only the units whose layout changed "
             "(docs/layout.md)"),
    cl::value_desc("dir"), cl::cat(ProfileCategory));
cl::opt<double> UnitMinGain(
    "unit-min-gain",
    cl::desc("With --unit-dir: a unit keeps its file, and its functions "
             "their clusters there, unless the new layout of the unit "
             "raises the whole layout's ext-TSP score on the new counts by "
             "more than F (a fraction of it, say 0.005), so that the "
             "profile of another run recompiles only the units it improves "
             "(default: any change rewrites)"),
    cl::value_desc("F"), cl::cat(ProfileCategory));
cl::opt<BlockOrderScope> BlockScope(
    "block-scope",
    cl::desc("With --format=block-order, what one order covers (default: "
             "functions)"),
    cl::values(clEnumValN(BlockOrderScope::Functions, "functions",
                          "each hot function's blocks together, in the "
                          "function order (a recompile's layout)"),
               clEnumValN(BlockOrderScope::Program, "program",
                          "all hot blocks in one ext-TSP order, calls as "
                          "edges: functions may interleave")),
    cl::init(BlockOrderScope::Functions), cl::cat(ProfileCategory));
cl::opt<std::string> PlacedBinaryPath(
    "placed-binary",
    cl::desc("With --format=placement: the binary built with the layout "
             "(with the plugin or -fbasic-block-address-map), whose hot code "
             "is placed"),
    cl::value_desc("file"), cl::cat(ProfileCategory));
cl::opt<std::string> ProcessPerfData(
    "process-perfdata",
    cl::desc("With --format=placement: a perf.data of the profiled "
             "processes, whose samples in the other objects (the C "
             "library...) the hot code is placed against (default: the "
             "--perfdata profile)"),
    cl::value_desc("file"), cl::cat(ProfileCategory));
cl::opt<std::string>
    ICache("icache",
           cl::desc("With --format=placement: the instruction cache, as "
                    "SIZE,WAYS,LINE in bytes (default: 32768,8,64 for x86-64, "
                    "65536,4,64 for AArch64)"),
           cl::value_desc("size,ways,line"), cl::cat(ProfileCategory));
cl::opt<bool> InferCounts(
    "infer-counts",
    cl::desc("With a profile of IP samples alone, infer block and edge "
             "counts from the samples and the CFG (the model of LLVM's "
             "profile inference); always done for --format=clusters and "
             "symbol-order"),
    cl::cat(ProfileCategory));
cl::opt<InferenceSolver> Solver(
    "inference-solver",
    cl::desc("Who solves the inference's flow network (default: "
             "primal-dual)"),
    cl::values(clEnumValN(InferenceSolver::PrimalDual, "primal-dual",
                          "bbmap's minimum-cost flow: profi's costs, "
                          "several times faster"),
               clEnumValN(InferenceSolver::Profi, "profi",
                          "LLVM's applyFlowInference, which also spreads "
                          "flow evenly over equal paths")),
    cl::init(InferenceSolver::PrimalDual), cl::cat(ProfileCategory));
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

/// The profiles given, in the order of the options' kinds; each option
/// may be repeated (all but --yaml, which stands alone). None when they do
/// not hold together (said on standard error).
std::optional<std::vector<ProfileSource>> selectSources() {
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
    return std::nullopt;
  }
  return Given;
}

/// True when \p Opt was not given, or is a fraction from 0 to 1 where it
/// is \p Allowed; else an error that names it (\p Needs: what it goes
/// with).
bool isFractionOption(const cl::opt<double> &Opt, bool Allowed = true,
                      StringRef Needs = "") {
  if (!Opt.getNumOccurrences() || (Allowed && Opt >= 0 && Opt <= 1))
    return true;
  WithColor::error(errs(), ToolName)
      << "--" << Opt.ArgStr << "=" << format("%g", double(Opt))
      << ": give a fraction from 0 to 1" << Needs << "\n";
  return false;
}

/// bbmap-profile's own command line.
int runBBMapProfileMode(ArrayRef<const char *> Args) {
  // libLLVM registers an undocumented --threads of its own, which nothing
  // here reads: bbmap-profile's takes its place.
  if (cl::Option *Theirs = cl::getRegisteredOptions().lookup("threads"))
    Theirs->removeArgument();
  cl::opt<unsigned> Threads(
      "threads",
      cl::desc("Read the binary, perf.data and pre-aggregated text, charge "
               "records to blocks, infer counts, lay out functions and read "
               "BOLT's view of them on N threads (default: the machine's "
               "hardware threads). The result is the same for every N"),
      cl::value_desc("N"), cl::cat(ProfileCategory));
  cl::HideUnrelatedOptions(ProfileCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { printToolVersion(OS, "bbmap-profile"); });
  cl::ParseCommandLineOptions(
      Args.size(), Args.data(),
      "bbmap-profile: charge a profile to basic blocks\n\n"
      "  Reads one profile of BINARY (perf.data, perf script text, BOLT\n"
      "  pre-aggregated, fdata or YAML) and charges it to the blocks of "
      "BINARY's\n"
      "  .llvm_bb_addr_map: block, edge and call counts. For a BOLTed\n"
      "  BINARY with a BAT table, --input-binary names the binary BOLT read,\n"
      "  whose blocks are charged. For a profile of an earlier build,\n"
      "  --profiled-binary names that build; its counts are carried to\n"
      "  BINARY's blocks. perf2bolt's fdata and YAML (--format=fdata|yaml)\n"
      "  need no map. Called as perf2bolt or create_llvm_prof (or with\n"
      "  --driver-mode=perf2bolt|create_llvm_prof), it reads their command\n"
      "  lines (docs/profile.md, \"Drop-in\").\n");
  if (Threads.getNumOccurrences() && Threads == 0) {
    WithColor::error(errs(), ToolName) << "--threads needs at least 1\n";
    return 2;
  }
  ThreadCount = Threads;

  if (Format == OutputFormat::BlockSections) {
    Diagnostics Diags(ToolName, outs(), errs());
    if (Error E = writeBlockSectionsFile(BinaryPath, OutputPath, ThreadCount,
                                         Diags)) {
      WithColor::error(errs(), ToolName) << toString(std::move(E)) << "\n";
      return 1;
    }
    return 0;
  }
  ProfileRequest Request;
  Request.BinaryPath = BinaryPath;
  Request.InputBinaryPath = InputBinaryPath;
  Request.ProfiledBinaryPath = ProfiledBinaryPath;
  Request.StaleHashes = StaleHashes;
  std::optional<std::vector<ProfileSource>> Sources = selectSources();
  if (!Sources)
    return 2;
  Request.Sources = std::move(*Sources);
  Request.Outputs.push_back({Format, OutputPath});
  if (!isFractionOption(ColdFraction))
    return 2;
  if (ColdFraction.getNumOccurrences())
    Request.ColdFraction = ColdFraction;
  Request.Order = Order;
  Request.BlockScope = BlockScope;
  if (!UnitDir.empty() && Format != OutputFormat::Clusters) {
    WithColor::error(errs(), ToolName)
        << "--unit-dir goes with --format=clusters\n";
    return 2;
  }
  Request.UnitDir = UnitDir;
  if (!isFractionOption(UnitMinGain, !UnitDir.empty(), ", with --unit-dir"))
    return 2;
  if (UnitMinGain.getNumOccurrences())
    Request.UnitMinGain = UnitMinGain;
  if (!SymbolOrderPath.empty()) {
    if (Format != OutputFormat::Clusters && Format != OutputFormat::Placement) {
      WithColor::error(errs(), ToolName)
          << "--symbol-order goes with --format=clusters or placement\n";
      return 2;
    }
    Request.Outputs.push_back({OutputFormat::SymbolOrder, SymbolOrderPath});
  }
  Request.PlacedBinaryPath = PlacedBinaryPath;
  Request.ProcessPerfData = ProcessPerfData;
  if (!ICache.empty()) {
    Expected<CacheGeometry> Cache = parseCacheGeometry(ICache);
    if (!Cache) {
      WithColor::error(errs(), ToolName)
          << "--icache=" << toString(Cache.takeError()) << "\n";
      return 2;
    }
    Request.Cache = *Cache;
  }
  Request.CFG = CFG;
  Request.PrettyPrint = PrettyPrint;
  Request.Top = Top;
  Request.Dialect = Dialect;
  Request.BasicSamples = BasicSamples;
  Request.LayoutFor = LayoutFor;
  Request.InferCounts = InferCounts;
  Request.Solver = Solver;
  Request.IgnoreBuildID = IgnoreBuildID;
  Request.Threads = ThreadCount;
  if (TimePhases)
    Request.PhaseTimes = &errs();
  Request.LeaveAllocated = true;
  ProfileOutcome Outcome;
  return runRequest(Request, ToolName, Outcome);
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  SmallVector<const char *> Args(argv, argv + argc);
  Expected<DriverMode> Mode = selectDriverMode(Args);
  if (!Mode) {
    WithColor::error(errs(), ToolName) << toString(Mode.takeError()) << "\n";
    return 2;
  }
  switch (*Mode) {
  case DriverMode::Perf2Bolt:
    return runPerf2BoltMode(Args);
  case DriverMode::CreateLLVMProf:
    return runCreateLLVMProfMode(Args);
  case DriverMode::BBMapProfile:
    break;
  }
  return runBBMapProfileMode(Args);
}
