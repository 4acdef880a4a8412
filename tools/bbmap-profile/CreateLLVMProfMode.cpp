//===- CreateLLVMProfMode.cpp - bbmap-profile as create_llvm_prof ---------===//
//
// The Propeller mode of create_llvm_prof (google/autofdo), turned into the
// request bbmap-profile's own options make:
//
//   create_llvm_prof --format=propeller --binary=B --profile=perf.data
//       --out=CLUSTERS --propeller_symorder=ORDER
//   bbmap-profile B --perfdata=perf.data --format=clusters -o CLUSTERS
//   bbmap-profile B --perfdata=perf.data --format=symbol-order -o ORDER
//
// (one reading of the profile, both files), with --profile's lists
// (`a;b`, `@FILE`) summed, --profiled_binary_name naming the binary's mmap
// events, --ignore_build_id, and bbmap-profile's --threads. The flags are
// spelled as absl spells them
// (`--flag=value`, `--flag value`, one or two dashes, `--noflag`).
// AutoFDO formats and Propeller's layout tuning are refused by name.
//
//===----------------------------------------------------------------------===//

#include "DriverMode.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include <memory>

using namespace llvm;

namespace bbmap {

namespace {

/// create_llvm_prof flags bbmap-profile does not implement: AutoFDO's and
/// Propeller's layout tuning (bbmap lays out with LLVM's ext-TSP and
/// cache-directed sort); true for boolean flags, which absl also spells
/// --noNAME.
constexpr std::pair<const char *, bool> NotImplemented[] = {
    {"http", true},
    {"prefetch_hints", false},
    {"prof_sym_list", true},
    {"propeller_backward_jump_distance", false},
    {"propeller_call_chain_clustering", true},
    {"propeller_cfg_dump_dir", false},
    {"propeller_chain_split", true},
    {"propeller_chain_split_threshold", false},
    {"propeller_forward_jump_distance", false},
    {"propeller_inter_function_ordering", true},
    {"propeller_layout_only", true},
    {"propeller_split_only", true},
    {"propeller_verbose_cluster_output", true},
};

/// Propeller's cluster encoding versions (llvm_propeller_options.proto):
/// VERSION_0 is the old `!` format, VERSION_1 (LATEST) the `v1` format
/// bbmap writes.
constexpr int ClusterEncodingV0 = 1, ClusterEncodingV1 = 2;

/// A boolean flag and absl's negation of it.
struct AbslBool {
  cl::opt<bool> Set;
  cl::opt<bool> Unset;

  AbslBool(const char *Name, const char *Desc, cl::OptionCategory &Category,
           StringSaver &Names)
      : Set(StringRef(Name), cl::desc(Desc), cl::cat(Category)),
        Unset(Names.save("no" + Twine(Name)), cl::ReallyHidden,
              cl::cat(Category)) {}
  /// The flag's value after its last occurrence of either spelling.
  bool value() const {
    if (!Unset.getNumOccurrences())
      return Set;
    if (!Set.getNumOccurrences() || Unset.getPosition() > Set.getPosition())
      return !Unset;
    return Set;
  }
};

struct CreateLLVMProfOptions {
  /// The names of the --noNAME flags.
  BumpPtrAllocator Allocator;
  StringSaver Names{Allocator};
  cl::OptionCategory Category{"create_llvm_prof options (bbmap-profile)"};
  cl::opt<std::string> Format{
      "format",
      cl::desc("Profile format to write: propeller (bbmap writes no "
               "AutoFDO profile; create_llvm_prof's default is text)"),
      cl::init("text"), cl::cat(Category)};
  cl::opt<std::string> Binary{"binary",
                              cl::desc("Binary file name (default: a.out)"),
                              cl::init("a.out"), cl::cat(Category)};
  cl::opt<std::string> Profile{
      "profile",
      cl::desc("perf.data file (default: perf.data); several joined by ';' "
               "are summed, and @FILE names a file listing one per line"),
      cl::init("perf.data"), cl::cat(Category)};
  cl::opt<std::string> Profiler{
      "profiler", cl::desc("Input profile type: perf (the only one read)"),
      cl::init("perf"), cl::cat(Category)};
  cl::opt<std::string> Out{
      "out", cl::desc("Output file: the basic-block-sections profile"),
      cl::cat(Category)};
  cl::opt<std::string> Gcov{"gcov", cl::desc("Alias for --out"),
                            cl::cat(Category)};
  cl::opt<std::string> SymOrder{
      "propeller_symorder",
      cl::desc("Output file: the symbol ordering file (ld.lld "
               "--symbol-ordering-file)"),
      cl::cat(Category)};
  cl::opt<std::string> ProfiledBinaryName{
      "profiled_binary_name",
      cl::desc("Match the profile's mmap events by this file name (the "
               "binary ran under another name)"),
      cl::cat(Category)};
  AbslBool IgnoreBuildID{"ignore_build_id",
                         "Read a profile whose build id is not the binary's",
                         Category, Names};
  AbslBool OutputModuleName{
      "propeller_output_module_name",
      "Accepted: bbmap writes module names where local functions' names "
      "clash",
      Category, Names};
  cl::opt<unsigned> Threads{
      "threads",
      cl::desc("Run on N threads, as bbmap-profile --threads (default: the "
               "machine's hardware threads)"),
      cl::value_desc("N"), cl::cat(Category)};
  cl::opt<int> ClusterEncoding{
      "propeller_cluster_encoding_version",
      cl::desc("Cluster profile encoding: 2 (v1, the default; 1, the old "
               "format, is not written)"),
      cl::init(ClusterEncodingV1), cl::cat(Category)};
  std::vector<std::unique_ptr<cl::Option>> Refused;
  cl::list<std::string> Positional{cl::Positional, cl::ReallyHidden,
                                   cl::cat(Category)};
  cl::list<std::string> Unknown{cl::Sink, cl::ReallyHidden, cl::cat(Category)};

  CreateLLVMProfOptions() {
    for (auto [Name, Boolean] : NotImplemented) {
      if (!Boolean) {
        Refused.push_back(std::make_unique<cl::opt<std::string>>(
            StringRef(Name), cl::ReallyHidden, cl::cat(Category)));
        continue;
      }
      Refused.push_back(std::make_unique<cl::opt<bool>>(
          StringRef(Name), cl::ReallyHidden, cl::cat(Category)));
      Refused.push_back(std::make_unique<cl::opt<bool>>(
          Names.save("no" + Twine(Name)), cl::ReallyHidden, cl::cat(Category)));
    }
  }

  /// The unimplemented flag given first on the command line, if any.
  const cl::Option *refusedOption() const {
    const cl::Option *First = nullptr;
    for (const std::unique_ptr<cl::Option> &O : Refused)
      if (O->getNumOccurrences() &&
          (!First || O->getPosition() < First->getPosition()))
        First = O.get();
    return First;
  }
};

/// The perf.data files --profile names: `a;b;c`, or `@FILE`, a file with
/// one name per line (empty lines and `#` comments skipped).
Expected<std::vector<std::string>> profileFiles(StringRef Spec) {
  std::vector<std::string> Files;
  if (Spec.consume_front("@")) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> List =
        MemoryBuffer::getFile(Spec, /*IsText=*/true);
    if (!List)
      return createFileError(Spec, List.getError());
    SmallVector<StringRef> Lines;
    (*List)->getBuffer().split(Lines, '\n');
    for (StringRef Line : Lines) {
      Line = Line.trim();
      if (!Line.empty() && !Line.starts_with("#"))
        Files.push_back(Line.str());
    }
    return Files;
  }
  SmallVector<StringRef> Names;
  Spec.split(Names, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Name : Names)
    Files.push_back(Name.str());
  return Files;
}

} // namespace

int runCreateLLVMProfMode(ArrayRef<const char *> Args) {
  std::string ToolName = sys::path::filename(Args[0]).str();
  keepOnlyGenericOptions();
  CreateLLVMProfOptions Opts;
  if (!parseDropInCommandLine(
          Args,
          "create_llvm_prof (bbmap-profile): a Propeller layout from "
          "perf.data\n\n"
          "  Writes the basic-block-sections profile and symbol order a "
          "stock\n"
          "  clang and lld apply, as bbmap-profile --format=clusters and\n"
          "  --format=symbol-order write them.\n"
          "  EXAMPLE: create_llvm_prof --format=propeller --binary=prog "
          "--profile=perf.data\n"
          "           --out=prog.clusters --propeller_symorder=prog.order\n",
          ToolName, Opts.Unknown, "create_llvm_prof"))
    return 1;
  if (const cl::Option *O = Opts.refusedOption())
    return refuse(ToolName, "'--" + O->ArgStr +
                                "': create_llvm_prof's flag is not "
                                "implemented by bbmap-profile");
  if (!Opts.Positional.empty())
    return refuse(ToolName, "unexpected argument '" + Opts.Positional.front() +
                                "': create_llvm_prof takes flags only");
  if (Opts.Threads.getNumOccurrences() && Opts.Threads == 0)
    return refuse(ToolName, "--threads needs at least 1");
  StringRef Format = Opts.Format;
  if (Format == "text" || Format == "binary" || Format == "extbinary")
    return refuse(ToolName, "--format=" + Format +
                                ": AutoFDO profiles are not implemented by "
                                "bbmap-profile; it writes --format=propeller");
  if (Format != "propeller")
    return refuse(ToolName, "--format=" + Format +
                                " is not a create_llvm_prof format; "
                                "bbmap-profile writes --format=propeller");
  if (Opts.Profiler != "perf")
    return refuse(ToolName, "--profiler=" + Opts.Profiler +
                                " is not implemented by bbmap-profile; it "
                                "reads perf.data (--profiler=perf)");
  if (Opts.ClusterEncoding == ClusterEncodingV0)
    return refuse(ToolName, "--propeller_cluster_encoding_version=1 (the "
                            "old '!' format) is not implemented by "
                            "bbmap-profile; it writes version 2 (v1)");
  if (Opts.ClusterEncoding != ClusterEncodingV1)
    return refuse(ToolName, "--propeller_cluster_encoding_version=" +
                                Twine(Opts.ClusterEncoding) +
                                " is not a Propeller cluster encoding (1 or "
                                "2)");
  std::string Out = Opts.Out;
  if (!Opts.Gcov.empty()) {
    if (!Out.empty() && Out != Opts.Gcov)
      return refuse(ToolName, "--out and --gcov name different files: give "
                              "one of them");
    Out = Opts.Gcov;
  }
  if (Out.empty())
    return refuse(ToolName, "no output file: give --out=FILE");
  Expected<std::vector<std::string>> Files = profileFiles(Opts.Profile);
  if (!Files)
    return refuse(ToolName, toString(Files.takeError()));
  if (Files->empty())
    return refuse(ToolName,
                  "--profile=" + Opts.Profile + " names no perf.data file");

  ProfileRequest Request;
  Request.LeaveAllocated = true;
  Request.BinaryPath = Opts.Binary;
  for (const std::string &Path : *Files) {
    ProfileSource S;
    S.Format = ProfileFormat::PerfData;
    S.Path = Path;
    S.IgnoreBuildID = Opts.IgnoreBuildID.value();
    S.BinaryName = sys::path::filename(Opts.ProfiledBinaryName).str();
    S.Threads = Opts.Threads;
    Request.Sources.push_back(S);
  }
  Request.Outputs.push_back({OutputFormat::Clusters, Out});
  if (!Opts.SymOrder.empty())
    Request.Outputs.push_back({OutputFormat::SymbolOrder, Opts.SymOrder});
  Request.IgnoreBuildID = Opts.IgnoreBuildID.value();
  Request.Threads = Opts.Threads;
  ProfileOutcome Outcome;
  return runRequest(Request, ToolName, Outcome);
}

} // namespace bbmap
