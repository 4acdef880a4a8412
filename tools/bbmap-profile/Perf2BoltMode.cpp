//===- Perf2BoltMode.cpp - bbmap-profile as perf2bolt ---------------------===//
//
// perf2bolt's command line for the conversions bbmap-profile does, turned
// into the request bbmap-profile's own options make, option by option:
//   BINARY -p F -o O         BINARY --perfdata=F --format=fdata -o O
//   --pa                     --pa=F for each -p
//   --profile-format=yaml    --format=yaml
//   -w Y                     and --format=yaml -o Y, from the same reading
//   --ba, --basic-events, -nl   --ba
//   --ignore-build-id        --ignore-build-id
//   --thread-count=N, --no-threads   --threads=N, --threads=1
//   --spe                    ARM SPE records read (bbmap-profile always
//                            reads them)
// with the fdata dialect of the perf2bolt of the LLVM major bbmap is built
// against, and prints a summary in perf2bolt's words. perf2bolt's options
// that change nothing it writes are accepted and ignored; its others are
// refused, each by name.
//
//===----------------------------------------------------------------------===//

#include "DriverMode.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <memory>
#include <optional>

using namespace llvm;

namespace bbmap {

namespace {

enum class Perf2BoltFormat { Fdata, YAML };

/// A perf2bolt option bbmap-profile does not define itself: its name, and
/// whether it takes a value (else it is a flag, `--x` or `--x=true|false`).
struct ForeignOption {
  const char *Name;
  bool TakesValue;
};

/// perf2bolt options that change what is read or written and that
/// bbmap-profile does not implement: LLVM 22's aggregator, heat map, CFG
/// and YAML options, and LLVM 19's --autofdo and --use-event-pc.
constexpr ForeignOption NotImplemented[] = {
    {"allow-stripped", false},
    {"autofdo", false},
    {"block-size", true},
    {"funcs", true},
    {"funcs-file", true},
    {"funcs-no-regex", true},
    {"heatmap", true},
    {"impute-trace-fall-through", false},
    {"itrace", true},
    {"lite", false},
    {"max-address", true},
    {"max-samples", true},
    {"min-address", true},
    {"perf-script-events", true},
    {"pid", true},
    {"profile-use-dfs", false},
    {"profile-write-pseudo-probes", false},
    {"relocs", false},
    {"skip-funcs", true},
    {"skip-funcs-file", true},
    {"use-event-pc", false},
};

/// perf2bolt options that change nothing perf2bolt writes (its verbosity,
/// timers, printed CFGs and statistics, and options of the passes it never
/// runs): accepted and ignored.
constexpr ForeignOption Ignored[] = {
    {"bolt-info", false},
    {"dump-dot-all", false},
    {"dyno-stats", false},
    {"filter-mem-profile", false},
    {"print-all", false},
    {"print-cfg", false},
    {"print-disasm", false},
    {"print-mappings", false},
    {"print-profile", false},
    {"print-profile-stats", false},
    {"print-sections", false},
    {"print-unknown", false},
    {"show-density", false},
    {"time-aggr", false},
    {"time-build", false},
    {"time-opts", false},
    {"time-rewrite", false},
    {"trap-old-code", false},
    {"v", true},
};

/// perf2bolt's flags whose one value is what bbmap-profile does and whose
/// other is not implemented: --strict (perf2bolt turns it on for a binary
/// with relocations and ignores it for one without), interrupt branches
/// left out, and no memory profile read.
struct DefaultOnlyFlag {
  const char *Name;
  bool Implemented;
};
constexpr DefaultOnlyFlag DefaultOnly[] = {
    {"ignore-interrupt-lbr", true},
    {"parse-mem-profile", false},
    {"strict", true},
};

/// Whether \p Path is an AArch64 object; true when it cannot be read, which
/// the request reports.
bool isAArch64(StringRef Path) {
  Expected<object::OwningBinary<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Path);
  if (!Obj) {
    consumeError(Obj.takeError());
    return true;
  }
  return Obj->getBinary()->getArch() == Triple::aarch64;
}

struct Perf2BoltOptions {
  cl::OptionCategory Category{"perf2bolt options (bbmap-profile)"};
  cl::opt<std::string> Binary{cl::Positional, cl::Required,
                              cl::desc("<executable>"), cl::cat(Category)};
  cl::list<std::string> PerfData{
      "perfdata",
      cl::desc("<data file>: perf.data, or with --pa a pre-aggregated "
               "profile; several are summed"),
      cl::cat(Category)};
  cl::alias PerfDataAlias{"p", cl::desc("Alias for --perfdata"),
                          cl::aliasopt(PerfData), cl::cat(Category)};
  cl::opt<bool> PreAggregated{
      "pa", cl::desc("Read --perfdata as BOLT's pre-aggregated format"),
      cl::cat(Category)};
  cl::opt<std::string> Output{"o", cl::desc("<output file>"),
                              cl::cat(Category)};
  cl::opt<std::string> SaveProfile{
      "w", cl::desc("Also write the YAML profile to this file"),
      cl::cat(Category)};
  cl::opt<Perf2BoltFormat> Format{
      "profile-format", cl::desc("Format of the -o file (default: fdata)"),
      cl::values(clEnumValN(Perf2BoltFormat::Fdata, "fdata",
                            "offset-based plaintext format"),
                 clEnumValN(Perf2BoltFormat::YAML, "yaml",
                            "dense YAML representation")),
      cl::init(Perf2BoltFormat::Fdata), cl::cat(Category)};
  cl::opt<bool> BasicEvents{
      "basic-events",
      cl::desc("Aggregate basic events (IP samples, without brstack info)"),
      cl::cat(Category)};
  cl::alias BasicEventsAlias{"ba", cl::desc("Alias for --basic-events"),
                             cl::aliasopt(BasicEvents), cl::cat(Category)};
  cl::opt<bool> NoLBR{"nl",
                      cl::desc("Alias for --basic-events (perf2bolt 19's "
                               "name)"),
                      cl::cat(Category)};
  cl::opt<bool> Spe{"spe",
                    cl::desc("Read the branch records of ARM SPE data "
                             "(perf.data of arm_spe_0/branch_filter=1/), as "
                             "perf2bolt --spe reads perf 6.14's branch stacks "
                             "of them; without it they are read past"),
                    cl::cat(Category)};
  cl::opt<bool> IgnoreBuildID{
      "ignore-build-id",
      cl::desc("Continue even if the build-ids of the binary and the "
               "profile differ"),
      cl::cat(Category)};
  cl::opt<uint64_t> DensityCutoff{
      "profile-density-cutoff-hot",
      cl::desc("The share of the samples (in millionths) the density "
               "reported is measured over"),
      cl::init(DefaultDensityCutoff), cl::cat(Category)};
  cl::opt<double> DensityThreshold{
      "profile-density-threshold",
      cl::desc("The density below which a warning asks for more samples"),
      cl::init(60), cl::cat(Category)};
  cl::opt<bool> AggregateOnly{
      "aggregate-only",
      cl::desc("Exit after writing the aggregated profile (always so)"),
      cl::Hidden, cl::cat(Category)};
  cl::opt<unsigned> Threads{
      "threads",
      cl::desc("Run on N threads, as bbmap-profile --threads (default: the "
               "machine's hardware threads)"),
      cl::value_desc("N"), cl::cat(Category)};
  cl::opt<unsigned> ThreadCount{
      "thread-count",
      cl::desc("perf2bolt's --threads (0: the machine's hardware threads)"),
      cl::value_desc("N"), cl::cat(Category)};
  cl::opt<bool> NoThreads{"no-threads", cl::desc("Run on one thread"),
                          cl::cat(Category)};
  std::vector<std::unique_ptr<cl::Option>> Refused, Accepted;
  std::vector<std::pair<std::unique_ptr<cl::opt<bool>>, bool>> Defaults;
  cl::list<std::string> Unknown{cl::Sink, cl::ReallyHidden, cl::cat(Category)};

  Perf2BoltOptions() {
    for (ForeignOption O : NotImplemented)
      Refused.push_back(makeOption(O));
    for (ForeignOption O : Ignored)
      Accepted.push_back(makeOption(O));
    for (DefaultOnlyFlag F : DefaultOnly)
      Defaults.emplace_back(std::make_unique<cl::opt<bool>>(
                                StringRef(F.Name), cl::ReallyHidden,
                                cl::init(F.Implemented), cl::cat(Category)),
                            F.Implemented);
  }

  /// The unimplemented option given first on the command line, if any,
  /// as it is named in the refusal.
  std::optional<std::string> refusedOption() const {
    std::optional<std::pair<unsigned, std::string>> First;
    auto Note = [&](const cl::Option &O, std::string Spelling) {
      if (O.getNumOccurrences() && (!First || O.getPosition() < First->first))
        First.emplace(O.getPosition(), std::move(Spelling));
    };
    for (const std::unique_ptr<cl::Option> &O : Refused)
      Note(*O, "--" + O->ArgStr.str());
    for (const auto &[O, Implemented] : Defaults)
      if (*O != Implemented)
        Note(*O, "--" + O->ArgStr.str() + "=" + (*O ? "1" : "0"));
    if (!First)
      return std::nullopt;
    return First->second;
  }

  /// The threads asked for: --no-threads, else --threads, else
  /// --thread-count (0: the machine's hardware threads).
  unsigned threads() const {
    if (NoThreads)
      return 1;
    return Threads.getNumOccurrences() ? Threads : ThreadCount;
  }

private:
  std::unique_ptr<cl::Option> makeOption(ForeignOption O) {
    if (O.TakesValue)
      return std::make_unique<cl::opt<std::string>>(
          StringRef(O.Name), cl::ReallyHidden, cl::cat(Category));
    return std::make_unique<cl::opt<bool>>(StringRef(O.Name), cl::ReallyHidden,
                                           cl::cat(Category));
  }
};

/// The first argument that names no option perf2bolt mode defines, if
/// any. cl would read an unknown `--print-foo` as the group `-p rint-foo`
/// and fail on it ("may not occur within a group"), or an unknown `--hm`
/// as `-h` and print the help, before the sink sees either.
std::optional<StringRef> firstUnknownOption(ArrayRef<const char *> Args) {
  const auto &Registered = cl::getRegisteredOptions();
  for (StringRef Arg : Args.drop_front()) {
    if (Arg == "--")
      return std::nullopt;
    if (Arg.size() < 2 || Arg[0] != '-')
      continue;
    StringRef Name = Arg.ltrim('-').split('=').first;
    if (!Name.empty() && !Registered.count(Name))
      return Arg.split('=').first;
  }
  return std::nullopt;
}

/// N, and " (P%)" of \p Total when there is a total, as perf2bolt prints
/// its diagnostics.
std::string countAndShare(uint64_t N, uint64_t Total) {
  std::string S = std::to_string(N);
  if (Total)
    S += formatv(" ({0:F1}%)", N * 100.0f / Total).str();
  return S;
}

/// perf2bolt 19 words some lines differently (docs/profile.md, "perf2bolt
/// mode").
constexpr bool Words19 = LLVM_VERSION_MAJOR < 22;
constexpr const char *StackWord = Words19 ? "LBR" : "brstack";

/// perf2bolt's share: N * 100 / Total in float, "%.1f".
float percent(uint64_t N, uint64_t Total) { return N * 100.0f / Total; }

/// perf2bolt's warning after a share above its limit (19 ends it with a
/// period).
void printMismatchWarning(raw_ostream &OS) {
  OS << "\n !! WARNING !! This high mismatch ratio indicates the input "
        "binary is probably not the same binary used during profiling "
        "collection. The generated data may be ineffective for improving "
        "performance"
     << (Words19 ? "." : "") << "\n\n";
}

/// Writes \p Line to standard error between lines of standard output.
void printError(const Twine &Line) {
  outs().flush();
  errs() << Line << "\n";
}

/// What perf2bolt says of the BAT table of a BOLTed binary.
void printBAT(const ProfileOutcome &O) {
  if (!O.BATFunctions)
    return;
  outs() << "BOLT-INFO: Parsed " << O.BATFunctions << " BAT entries\n"
         << "BOLT-INFO: profile collection done on a binary already "
            "processed by BOLT\n";
}

/// Pre-aggregated input: the records (lines) read.
void printPreAggregatedRead(const ProfileOutcome &O) {
  outs() << "PERF2BOLT: parsing pre-aggregated profile...\n";
  if (Words19)
    outs() << "PERF2BOLT: processing pre-aggregated profile...\n";
  outs() << "PERF2BOLT: read " << O.Read.Lines << " aggregated " << StackWord
         << " entries\n";
}

/// perf.data of branch stacks (with \p Spe, of ARM SPE records, as perf2bolt
/// --spe reads perf 6.14's stacks of them): the samples read and those of
/// other processes.
void printStacksRead(const ProfileOutcome &O, bool Spe) {
  const ReadCounts &R = O.Read;
  outs() << "PERF2BOLT: parse "
         << (Spe ? "SPE branch events in brstack-format" : "branch events")
         << "...\n";
  // perf 6.14's entry of a previous branch target has no prediction flag.
  if (Spe && R.StackEntries > R.BinarySamples - R.SamplesWithoutStack)
    printError("PERF2BOLT-WARNING: misprediction bit is missing in profile");
  outs() << "PERF2BOLT: read " << R.BinarySamples << " samples and "
         << R.StackEntries << " " << StackWord << " entries\n";
  if (!R.Samples)
    return;
  if (R.BinarySamples && R.SamplesWithoutStack == R.BinarySamples) {
    if (Spe) {
      printError("PERF2BOLT-WARNING: All recorded samples for this binary "
                 "lack SPE brstack entries. Make sure you are running Linux "
                 "perf 6.14 or later, otherwise you get zero samples. Record "
                 "the profile with: perf record -e "
                 "'arm_spe_0/branch_filter=1/'.");
      return;
    }
    printError(Words19
                   ? "PERF2BOLT-WARNING: all recorded samples for this binary "
                     "lack LBR. Record profile with perf record -j any or run "
                     "perf2bolt in no-LBR mode with -nl (the performance "
                     "improvement in -nl mode may be limited)"
                   : "PERF2BOLT-WARNING: all recorded samples for this binary "
                     "lack brstack. Record profile with perf record -j any or "
                     "run perf2bolt in non-brstack mode with -ba (the "
                     "performance improvement in -ba mode may be limited)");
    return;
  }
  uint64_t Ignored = R.Samples - R.BinarySamples;
  if (Words19)
    outs() << "PERF2BOLT: " << Ignored << " samples"
           << formatv(" ({0:F1}%)", percent(Ignored, R.Samples))
           << " were ignored\n";
  else
    outs() << "PERF2BOLT: ignored samples: "
           << countAndShare(Ignored, R.Samples) << "\n";
  if (percent(Ignored, R.Samples) > 50)
    printError("PERF2BOLT-WARNING: less than 50% of all recorded samples "
               "were attributed to the input binary");
}

/// perf.data of IP samples: the samples read (19 says so after processing).
void printSamplesRead(const ProfileOutcome &O) {
  StringRef Mode = Words19 ? "(without LBR)" : "(without brstack)";
  outs() << "PERF2BOLT: parsing basic events " << Mode << "...\n";
  if (Words19)
    outs() << "PERF2BOLT: processing basic events " << Mode << "...\n"
           << "PERF2BOLT: read " << O.Read.BinarySamples << " samples\n";
  else
    outs() << "PERF2BOLT: read " << O.Read.BinarySamples << " basic samples\n"
           << "PERF2BOLT: processing basic events " << Mode << "...\n";
}

/// Traces that fell outside every function or did not fit its code. Among
/// them, perf2bolt counts the runs of perf.data's stacks that leave the
/// binary, and the records of pre-aggregated text the readers skipped as
/// another binary's or outside this one. perf2bolt 19 prints its counts of
/// perf.data before it looks for the runs' blocks, and capitalizes the
/// out-of-range line for pre-aggregated input (\p CapitalOut).
void printTraceDiagnostics(const ProfileOutcome &O, bool CapitalOut) {
  raw_ostream &OS = outs();
  bool PerfData = O.Read.Samples;
  uint64_t Outside = PerfData ? O.Read.ExternalRuns : O.Skipped;
  uint64_t Traces = O.Stats.Traces + Outside;
  uint64_t Invalid =
      Words19 && PerfData ? O.Stats.SpanningTraces : O.Stats.InvalidTraces;
  OS << "PERF2BOLT: traces mismatching disassembled function contents: "
     << countAndShare(Invalid, Traces) << "\n";
  if (Traces && percent(Invalid, Traces) > 10)
    printMismatchWarning(OS);
  OS << "PERF2BOLT: " << (CapitalOut ? "Out" : "out")
     << " of range traces involving unknown regions: "
     << countAndShare(O.Stats.OutOfRangeTraces + Outside, Traces) << "\n";
}

/// IP samples outside every function. perf2bolt counts the samples of
/// the binary's processes in perf.data, every sample of pre-aggregated
/// text.
void printSampleDiagnostics(const ProfileOutcome &O) {
  uint64_t Total = O.SampleCount + O.Skipped;
  uint64_t Outside = O.Stats.OutOfRangeSamples + O.Skipped;
  if (O.Read.Samples) {
    Total = O.Read.BinarySamples;
    Outside = O.Stats.OutOfRangeSamples + Total - O.SampleCount;
  }
  outs() << "PERF2BOLT: out of range samples recorded in unknown regions: "
         << countAndShare(Outside, Total) << "\n";
  if (Total && percent(Outside, Total) > 80)
    printMismatchWarning(outs());
}

/// What BOLT's PrintProgramStats says once the profile is attached (BOLT 19
/// prints no density).
void printProgramStats(const BoltProgramStats &S, uint64_t Cutoff,
                       double Threshold) {
  raw_ostream &OS = outs();
  OS << "BOLT-INFO: " << S.Profiled << " out of " << S.Functions
     << " functions in the binary ("
     << format("%.1f", S.Profiled / float(S.Functions) * 100.0f)
     << "%) have non-empty execution profile\n";
  if (S.ProfiledNotSimple)
    OS << "BOLT-INFO: " << S.ProfiledNotSimple << " function"
       << (S.ProfiledNotSimple == 1 ? "" : "s")
       << " with profile could not be optimized\n";
  if (S.UnknownControlFlow)
    OS << "BOLT-INFO: " << S.UnknownControlFlow
       << " functions have instructions with unknown control flow. Use "
          "-print-unknown to see the list.\n";
  if (Words19)
    return;
  if (S.Density == 0)
    printError("BOLT-WARNING: the output profile is empty or the "
               "--profile-density-cutoff-hot option is set too low. Please "
               "check your command.");
  else if (S.Density < Threshold)
    printError("BOLT-WARNING: BOLT is estimated to optimize better with " +
               formatv("{0:F1}", Threshold / S.Density) +
               "x more samples. Please consider increasing sampling rate or "
               "profiling for longer duration to get more samples.");
  OS << "BOLT-INFO: Functions with density >= " << format("%.1f", S.Density)
     << " account for " << format("%.2f", Cutoff / 10000.0)
     << "% total sample counts.\n";
}

/// perf2bolt's summary, line for line (docs/profile.md, "perf2bolt mode").
void printSummary(const ProfileRequest &Request, const ProfileOutcome &O,
                  double DensityThreshold) {
  bool Basic = Request.BasicSamples || !O.HasBranches;
  bool PreAggregated =
      Request.Sources.front().Format == ProfileFormat::PreAggregated;
  printBAT(O);
  if (PreAggregated)
    printPreAggregatedRead(O);
  else if (Basic)
    printSamplesRead(O);
  else
    printStacksRead(O, Request.Sources.front().ArmSpe);
  if (Basic) {
    if (PreAggregated && !Words19)
      outs() << "PERF2BOLT: processing basic events (without brstack)...\n";
    printSampleDiagnostics(O);
  } else {
    if (!Words19)
      outs() << "PERF2BOLT: processing branch events...\n";
    printTraceDiagnostics(O, Words19 && PreAggregated);
    // perf2bolt 19 says so after its diagnostics, and only for perf.data.
    if (Words19 && !PreAggregated)
      outs() << "PERF2BOLT: processing branch events...\n";
  }
  for (const ProfileOutput &Out : Request.Outputs)
    if (Out.Format == OutputFormat::Fdata)
      outs() << "PERF2BOLT: wrote " << O.Objects
             << " objects and 0 memory objects to " << Out.Path << "\n";
  printProgramStats(O.Stats.Program, Request.DensityCutoff, DensityThreshold);
}

} // namespace

int runPerf2BoltMode(ArrayRef<const char *> Args) {
  std::string ToolName = sys::path::filename(Args[0]).str();
  keepOnlyGenericOptions();
  Perf2BoltOptions Opts;
  if (std::optional<StringRef> Unknown = firstUnknownOption(Args))
    return refuse(ToolName, "'" + *Unknown +
                                "' is not an option of perf2bolt that "
                                "bbmap-profile knows (see --help)");
  if (!parseDropInCommandLine(
          Args,
          "perf2bolt (bbmap-profile): a profile to BOLT's fdata or YAML\n\n"
          "  Writes what perf2bolt of LLVM " LLVM_VERSION_STRING
          " writes, reading perf.data itself.\n"
          "  EXAMPLE: perf2bolt -p perf.data executable -o data.fdata\n",
          ToolName, Opts.Unknown, "perf2bolt"))
    return 1;
  if (std::optional<std::string> O = Opts.refusedOption())
    return refuse(ToolName, "'" + *O +
                                "': perf2bolt's option is not implemented "
                                "by bbmap-profile");
  if (Opts.PerfData.empty())
    return refuse(ToolName, "expected -perfdata=<filename> option (-p FILE)");
  if (Opts.Output.empty())
    return refuse(ToolName, "expected -o=<output file> option");
  if (Opts.Threads.getNumOccurrences() && Opts.Threads == 0)
    return refuse(ToolName, "--threads needs at least 1");

  if (Opts.Spe && !isAArch64(Opts.Binary))
    return refuse(ToolName, "-spe is available only on AArch64.");

  ProfileRequest Request;
  Request.LeaveAllocated = true;
  Request.BinaryPath = Opts.Binary;
  for (const std::string &Path : Opts.PerfData) {
    ProfileSource S;
    S.Format = Opts.PreAggregated ? ProfileFormat::PreAggregated
                                  : ProfileFormat::PerfData;
    S.Path = Path;
    S.IgnoreBuildID = Opts.IgnoreBuildID;
    S.ArmSpe = Opts.Spe;
    S.Threads = Opts.threads();
    Request.Sources.push_back(S);
  }
  Request.Outputs.push_back({Opts.Format == Perf2BoltFormat::YAML
                                 ? OutputFormat::YAML
                                 : OutputFormat::Fdata,
                             Opts.Output});
  if (!Opts.SaveProfile.empty())
    Request.Outputs.push_back({OutputFormat::YAML, Opts.SaveProfile});
  Request.Dialect =
      LLVM_VERSION_MAJOR >= 22 ? FdataDialect::Bolt22 : FdataDialect::Bolt19;
  Request.BasicSamples = Opts.BasicEvents || Opts.NoLBR;
  Request.SampleEvents = false;
  Request.DensityCutoff = Opts.DensityCutoff;
  Request.CountUnknownControlFlow = true;
  Request.IgnoreBuildID = Opts.IgnoreBuildID;
  Request.Threads = Opts.threads();

  std::string Inputs = join(Opts.PerfData, ", ");
  outs() << "PERF2BOLT: Starting data aggregation job for " << Inputs << "\n";
  outs().flush();
  ProfileOutcome Outcome;
  int Status = runRequest(Request, ToolName, Outcome);
  if (Status == 0)
    printSummary(Request, Outcome, Opts.DensityThreshold);
  return Status;
}

} // namespace bbmap
