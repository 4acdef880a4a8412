//===- bbmap-profile.cpp - profiles to basic-block counts -----------------===//
//
// bbmap-profile reads a profile of a binary that carries a basic-block
// address map (perf.data, perf script text, BOLT pre-aggregated, BOLT
// fdata) and charges it to the map's blocks: block counts, CFG edge counts
// and call counts, printed as a summary, JSON or a Graphviz picture of one
// function. docs/profile.md documents the options, rules and output.
//
// Usage: bbmap-profile prog --pa=prog.pa --format=json -o prog.json
//
//===----------------------------------------------------------------------===//

#include "ProfilePrinter.h"
#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Profile/FdataWriter.h"
#include "bbmap/Profile/ProfileSource.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace bbmap;

namespace {

constexpr StringRef ToolName = "bbmap-profile";

cl::OptionCategory ProfileCategory("bbmap-profile options");

cl::opt<std::string> BinaryPath(cl::Positional, cl::Required,
                                cl::desc("<binary with .llvm_bb_addr_map>"),
                                cl::cat(ProfileCategory));

cl::opt<std::string> PerfData("perfdata",
                              cl::desc("Read a perf.data file (runs perf)"),
                              cl::value_desc("file"), cl::cat(ProfileCategory));
cl::opt<std::string> PerfScript("perfscript",
                                cl::desc("Read `perf script` text (brstack "
                                         "or IP samples, with mmap events)"),
                                cl::value_desc("file"),
                                cl::cat(ProfileCategory));
cl::opt<std::string> PreAggregated("pa",
                                   cl::desc("Read a BOLT pre-aggregated "
                                            "profile (perf2bolt --pa)"),
                                   cl::value_desc("file"),
                                   cl::cat(ProfileCategory));
cl::opt<std::string> Fdata("fdata", cl::desc("Read a BOLT fdata profile"),
                           cl::value_desc("file"), cl::cat(ProfileCategory));

enum class OutputFormat { Text, JSON, Fdata };
cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format (default: text)"),
    cl::values(clEnumValN(OutputFormat::Text, "text",
                          "hottest functions and blocks with their share"),
               clEnumValN(OutputFormat::JSON, "json",
                          "every profiled function's blocks, edges and calls "
                          "(docs/profile.md)"),
               clEnumValN(OutputFormat::Fdata, "fdata",
                          "BOLT fdata, as perf2bolt writes it for the same "
                          "input (llvm-bolt --data)")),
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
    cl::desc("With --format=fdata, the perf2bolt to match (default: 22)"),
    cl::values(clEnumValN(FdataDialect::Bolt22, "22", "perf2bolt 22"),
               clEnumValN(FdataDialect::Bolt19, "19",
                          "perf2bolt 19: unknown ends keep their address"),
               clEnumValN(FdataDialect::Bolt16, "16",
                          "perf2bolt 16: returns are branches")),
    cl::init(FdataDialect::Bolt22), cl::cat(ProfileCategory));
cl::opt<bool> BasicSamples(
    "ba",
    cl::desc("With --format=fdata, write IP samples (a no_lbr file, as "
             "perf2bolt --ba); the default for profiles without branches"),
    cl::cat(ProfileCategory));
cl::opt<bool> IgnoreBuildID("ignore-build-id",
                            cl::desc("Read a profile recorded for another "
                                     "build ID of the binary"),
                            cl::cat(ProfileCategory));
cl::opt<std::string> PerfPath("perf",
                              cl::desc("The perf program (default: "
                                       "$BBMAP_PERF, else perf on PATH)"),
                              cl::value_desc("path"), cl::cat(ProfileCategory));

[[noreturn]] void fail(StringRef File, const Twine &Msg) {
  WithColor::error(errs(), ToolName) << "'" << File << "': " << Msg << "\n";
  exit(1);
}

template <class T> T unwrap(StringRef File, Expected<T> V) {
  if (!V)
    fail(File, toString(V.takeError()));
  return std::move(*V);
}

ProfileSource selectSource() {
  std::vector<ProfileSource> Given;
  auto Add = [&](ProfileFormat F, const std::string &Path) {
    if (Path.empty())
      return;
    ProfileSource S;
    S.Format = F;
    S.Path = Path;
    Given.push_back(S);
  };
  Add(ProfileFormat::PerfData, PerfData);
  Add(ProfileFormat::PerfScript, PerfScript);
  Add(ProfileFormat::PreAggregated, PreAggregated);
  Add(ProfileFormat::Fdata, Fdata);
  if (Given.size() != 1) {
    WithColor::error(errs(), ToolName)
        << "give exactly one profile: --perfdata, --perfscript, --pa or "
           "--fdata\n";
    exit(2);
  }
  Given.front().IgnoreBuildID = IgnoreBuildID;
  Given.front().PerfPath = PerfPath;
  return Given.front();
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
  }
  return "";
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(ProfileCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { OS << "bbmap-profile " << BBMAP_VERSION << "\n"; });
  cl::ParseCommandLineOptions(
      argc, argv,
      "bbmap-profile: charge a profile to basic blocks\n\n"
      "  Reads one profile of BINARY (perf.data, perf script text, BOLT\n"
      "  pre-aggregated or fdata) and charges it to the blocks of BINARY's\n"
      "  .llvm_bb_addr_map: block, edge and call counts.\n");
  ProfileSource Source = selectSource();

  // fdata of a BOLTed binary goes through its BAT table: no map needed.
  bool WritesFdata = Format == OutputFormat::Fdata && CFG.empty();
  std::unique_ptr<MappedBinary> Binary = unwrap(
      BinaryPath,
      MappedBinary::open(BinaryPath,
                         WritesFdata ? MappedBinary::MapRequirement::Optional
                                     : MappedBinary::MapRequirement::Required));
  // Other binaries need their map: reopen for the usual error.
  if (Binary->sections().empty() && !Binary->bat())
    Binary = unwrap(BinaryPath, MappedBinary::open(BinaryPath));
  std::unique_ptr<InstructionDecoder> Decoder =
      unwrap(BinaryPath, InstructionDecoder::create(Binary->object()));
  SourceFacts Facts;
  BranchProfile Profile =
      unwrap(Source.Path, readProfile(Source, *Binary, Facts));
  std::error_code EC;
  ToolOutputFile Out(OutputPath, EC, sys::fs::OpenFlags::OF_Text);
  if (EC)
    fail(OutputPath, EC.message());
  if (WritesFdata) {
    FdataOptions Options;
    Options.Dialect = Dialect;
    Options.BasicSamples = BasicSamples || !Profile.HasBranches;
    Options.PerfEventNames = Source.Format == ProfileFormat::PerfData ||
                             Source.Format == ProfileFormat::PerfScript;
    unwrap(BinaryPath,
           writeFdata(Profile, *Binary, *Decoder, Options, Out.os()));
    Out.keep();
    return 0;
  }
  BlockProfile Blocks = countBlocks(Profile, *Binary, *Decoder);
  ProfileOrigin Origin{Source.Path, formatName(Source.Format).str(), &Profile};
  if (!CFG.empty()) {
    if (Error E = printFunctionCFG(Out.os(), *Binary, Blocks, CFG))
      fail(BinaryPath, toString(std::move(E)));
  } else if (Format == OutputFormat::JSON) {
    printProfileJSON(Out.os(), *Binary, Blocks, Origin, PrettyPrint);
  } else {
    printProfileSummary(Out.os(), *Binary, Blocks, Origin, Top);
  }
  Out.keep();
  return 0;
}
