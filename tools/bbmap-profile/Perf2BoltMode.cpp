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
// with the fdata dialect of the perf2bolt of the LLVM major bbmap is built
// against, and prints a summary in perf2bolt's words. perf2bolt's other
// options are refused, each by name.
//
//===----------------------------------------------------------------------===//

#include "DriverMode.h"
#include "ProfileCommand.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <memory>

using namespace llvm;

namespace bbmap {

namespace {

enum class Perf2BoltFormat { Fdata, YAML };

/// perf2bolt options bbmap-profile does not implement (LLVM 22's
/// aggregator and output options, and LLVM 19's --autofdo and
/// --use-event-pc); true for those that take a value.
constexpr std::pair<const char *, bool> NotImplemented[] = {
    {"autofdo", false},
    {"bolt-info", false},
    {"filter-mem-profile", false},
    {"ignore-interrupt-lbr", false},
    {"impute-trace-fall-through", false},
    {"itrace", true},
    {"max-samples", true},
    {"parse-mem-profile", false},
    {"pid", true},
    {"profile-use-dfs", false},
    {"show-density", false},
    {"spe", false},
    {"time-aggr", false},
    {"use-event-pc", false},
};

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
  cl::opt<bool> IgnoreBuildID{
      "ignore-build-id",
      cl::desc("Continue even if the build-ids of the binary and the "
               "profile differ"),
      cl::cat(Category)};
  cl::opt<bool> AggregateOnly{
      "aggregate-only",
      cl::desc("Exit after writing the aggregated profile (always so)"),
      cl::Hidden, cl::cat(Category)};
  std::vector<std::unique_ptr<cl::Option>> Refused;
  cl::list<std::string> Unknown{cl::Sink, cl::ReallyHidden, cl::cat(Category)};

  Perf2BoltOptions() {
    for (auto [Name, TakesValue] : NotImplemented) {
      if (TakesValue)
        Refused.push_back(std::make_unique<cl::opt<std::string>>(
            StringRef(Name), cl::ReallyHidden, cl::cat(Category)));
      else
        Refused.push_back(std::make_unique<cl::opt<bool>>(
            StringRef(Name), cl::ReallyHidden, cl::cat(Category)));
    }
  }

  /// The unimplemented option given first on the command line, if any.
  const cl::Option *refusedOption() const {
    const cl::Option *First = nullptr;
    for (const std::unique_ptr<cl::Option> &O : Refused)
      if (O->getNumOccurrences() &&
          (!First || O->getPosition() < First->getPosition()))
        First = O.get();
    return First;
  }
};

/// N, and " (P%)" of \p Total when there is a total, as perf2bolt prints
/// its diagnostics.
std::string countAndShare(uint64_t N, uint64_t Total) {
  std::string S = std::to_string(N);
  if (Total)
    S += formatv(" ({0:F1}%)", N * 100.0f / Total).str();
  return S;
}

/// perf2bolt's diagnostics: records that fell outside every function or
/// did not fit its code, among them those the readers skipped as another
/// binary's or outside this one (perf2bolt sees those too).
void printSummary(const ProfileRequest &Request, const ProfileOutcome &O) {
  raw_ostream &OS = outs();
  OS << "PERF2BOLT: read " << O.Records + O.Samples
     << " distinct records (identical ones summed)\n";
  if (Request.BasicSamples || !O.HasBranches) {
    OS << "PERF2BOLT: out of range samples recorded in unknown regions: "
       << countAndShare(O.Stats.OutOfRangeSamples + O.Skipped,
                        O.SampleCount + O.Skipped)
       << "\n";
  } else {
    uint64_t Traces = O.Stats.Traces + O.Skipped;
    OS << "PERF2BOLT: traces mismatching disassembled function contents: "
       << countAndShare(O.Stats.InvalidTraces, Traces) << "\n";
    // perf2bolt 19 capitalizes this line.
    OS << "PERF2BOLT: " << (LLVM_VERSION_MAJOR >= 22 ? "out" : "Out")
       << " of range traces involving unknown regions: "
       << countAndShare(O.Stats.OutOfRangeTraces + O.Skipped, Traces) << "\n";
  }
  for (const ProfileOutput &Out : Request.Outputs) {
    if (Out.Format == OutputFormat::Fdata)
      OS << "PERF2BOLT: wrote " << O.Objects
         << " objects and 0 memory objects to " << Out.Path << "\n";
    else
      OS << "PERF2BOLT: wrote the YAML profile to " << Out.Path << "\n";
  }
}

} // namespace

int runPerf2BoltMode(ArrayRef<const char *> Args) {
  std::string ToolName = sys::path::filename(Args[0]).str();
  keepOnlyGenericOptions();
  Perf2BoltOptions Opts;
  if (!parseDropInCommandLine(
          Args,
          "perf2bolt (bbmap-profile): a profile to BOLT's fdata or YAML\n\n"
          "  Writes what perf2bolt of LLVM " LLVM_VERSION_STRING
          " writes, reading perf.data itself.\n"
          "  EXAMPLE: perf2bolt -p perf.data executable -o data.fdata\n",
          ToolName, Opts.Unknown, "perf2bolt"))
    return 1;
  if (const cl::Option *O = Opts.refusedOption())
    return refuse(ToolName, "'--" + O->ArgStr +
                                "': perf2bolt's option is not implemented "
                                "by bbmap-profile");
  if (Opts.PerfData.empty())
    return refuse(ToolName, "expected -perfdata=<filename> option (-p FILE)");
  if (Opts.Output.empty())
    return refuse(ToolName, "expected -o=<output file> option");

  ProfileRequest Request;
  Request.ToolName = ToolName;
  Request.BinaryPath = Opts.Binary;
  for (const std::string &Path : Opts.PerfData) {
    ProfileSource S;
    S.Format = Opts.PreAggregated ? ProfileFormat::PreAggregated
                                  : ProfileFormat::PerfData;
    S.Path = Path;
    S.IgnoreBuildID = Opts.IgnoreBuildID;
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
  Request.IgnoreBuildID = Opts.IgnoreBuildID;

  std::string Inputs = join(Opts.PerfData, ", ");
  outs() << "PERF2BOLT: Starting data aggregation job for " << Inputs << "\n";
  outs().flush();
  ProfileOutcome Outcome;
  int Status = runProfile(Request, Outcome);
  if (Status == 0)
    printSummary(Request, Outcome);
  return Status;
}

} // namespace bbmap
