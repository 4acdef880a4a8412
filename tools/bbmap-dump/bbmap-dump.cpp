//===- bbmap-dump.cpp - bbmap-dump driver ---------------------------------===//
//
// Command-line entry point of bbmap-dump: the options, and the modes built
// on DumpDriver's per-input loop. Map dumps print in the selected output
// style (LLVM text or JSON as llvm-readobj prints them, or the table);
// --verify checks the decoded maps with MapVerifier; --lookup resolves
// addresses through an AddressIndex; --bat and --translate run BAT mode
// (BATCommand); --instr-profile decodes instrumentation profiles
// (InstrProfCommand); --bolt-yaml reads BOLT YAML profiles
// (BoltYAMLCommand). --function and --demangle filter and rename the
// records.
// Diagnostics name the file, the section and the offending offset; any
// error makes the exit status non-zero, but work continues with the next
// section and file.
//
//===----------------------------------------------------------------------===//

#include "BATCommand.h"
#include "BoltYAMLCommand.h"
#include "InstrProfCommand.h"
#include "JSONStylePrinter.h"
#include "LLVMStylePrinter.h"
#include "LayoutCheckCommand.h"
#include "LookupPrinter.h"
#include "PerfDataCommand.h"
#include "SectionStreamer.h"
#include "TableStylePrinter.h"
#include "VerifyPrinter.h"
#include "bbmap/Object/AddressIndex.h"
#include "bbmap/Object/ELFMapReader.h"
#include "bbmap/Object/MapVerifier.h"
#include "bbmap/Object/ObjectVisitor.h"
#include "bbmap/Support/Parallel.h"
#include "bbmap/Support/Stopwatch.h"
#include "bbmap/Support/ToolVersion.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <chrono>

using namespace llvm;
using namespace bbmap;

namespace {

cl::OptionCategory DumpCategory("bbmap-dump options");

cl::list<std::string> InputFiles(cl::Positional, cl::OneOrMore,
                                 cl::desc("<input object files>"),
                                 cl::cat(DumpCategory));

cl::opt<bool> BBAddrMap(
    "bb-addr-map",
    cl::desc("Decode every .llvm_bb_addr_map section (legacy type and "
             "versions 0-5) and print it like `llvm-readobj --bb-addr-map`"),
    cl::cat(DumpCategory));

cl::opt<bool> PrettyPGOAnalysisMap(
    "pretty-pgo-analysis-map",
    cl::desc("With --bb-addr-map, print block frequencies relative to the "
             "entry block and branch probabilities as percentages, like "
             "llvm-readobj --pretty-pgo-analysis-map"),
    cl::cat(DumpCategory));

enum class OutputStyle { LLVM, JSON, Table, YAML };
cl::opt<OutputStyle>
    Style("output-style", cl::desc("Output style (default: llvm)"),
          cl::values(clEnumValN(OutputStyle::LLVM, "llvm",
                                "llvm-readobj's LLVM style, byte for byte"),
                     clEnumValN(OutputStyle::JSON, "json",
                                "llvm-readobj's JSON style "
                                "(--elf-output-style=JSON), byte for byte"),
                     clEnumValN(OutputStyle::Table, "table",
                                "one tab-separated line per basic block"),
                     clEnumValN(OutputStyle::YAML, "yaml",
                                "with --bolt-yaml: the profile as BOLT "
                                "writes it")),
          cl::init(OutputStyle::LLVM), cl::cat(DumpCategory));

cl::opt<bool> PrettyPrint("pretty-print",
                          cl::desc("Indent the JSON output, like "
                                   "llvm-readobj --pretty-print"),
                          cl::cat(DumpCategory));

cl::list<std::string>
    Lookups("lookup",
            cl::desc("Print the function, range and basic block that contain "
                     "ADDR[:from|:to] (hexadecimal, 0x optional; repeatable)"),
            cl::value_desc("addr"), cl::cat(DumpCategory));

cl::opt<std::string> LookupFile(
    "lookup-file",
    cl::desc("Look up every address of a file, one ADDR[:from|:to] per "
             "line ('#' starts a comment line)"),
    cl::value_desc("file"), cl::cat(DumpCategory));

cl::opt<unsigned>
    LookupRun("lookup-run",
              cl::desc("Look up and print N requests per task (for testing)"),
              cl::init(1 << 13), cl::value_desc("N"), cl::Hidden,
              cl::cat(DumpCategory));

cl::opt<bool> PrintLookupStats(
    "lookup-stats",
    cl::desc("With --lookup/--lookup-file, print the time spent parsing, "
             "indexing, looking up and printing to stderr"),
    cl::cat(DumpCategory));

// BAT mode (docs/bat.md).
cl::opt<bool> BAT("bat",
                  cl::desc("Decode the BOLT address translation note "
                           "(.note.bolt_bat, BOLT 15/16 or 19/22 format) and "
                           "print it like llvm-bat-dump --dump-all"),
                  cl::cat(DumpCategory));

cl::list<std::string>
    Translate("translate",
              cl::desc("Translate a BOLTed address to input function + offset; "
                       "ADDR:from treats it as a branch source (repeatable)"),
              cl::value_desc("addr[:from]"), cl::cat(DumpCategory));

cl::opt<std::string> TranslateFile(
    "translate-file",
    cl::desc("Translate every ADDR[:from] of a file, one per line"),
    cl::value_desc("file"), cl::cat(DumpCategory));

cl::opt<std::string> InputBinary(
    "input-binary",
    cl::desc("With --translate: also map each translated address to the "
             "basic block of this input binary's .llvm_bb_addr_map"),
    cl::value_desc("file"), cl::cat(DumpCategory));

cl::opt<bool> BATStats("bat-stats",
                       cl::desc("Print BAT decode and translation times to "
                                "stderr"),
                       cl::cat(DumpCategory));

// Instrumentation-profile mode (docs/instrprof.md).
cl::opt<bool> InstrProfileMode(
    "instr-profile",
    cl::desc("Decode each input as an LLVM instrumentation profile (raw "
             ".profraw or indexed .profdata, by its magic) and print it like "
             "`llvm-profdata show --all-functions` of the LLVM major that "
             "reads it"),
    cl::cat(DumpCategory));

cl::opt<unsigned> InstrStyle(
    "instr-style",
    cl::desc("With --instr-profile: print the text of llvm-profdata 14, 19 "
             "or 22 whatever the file's version"),
    cl::value_desc("major"), cl::cat(DumpCategory));

cl::opt<bool> InstrCounts("counts",
                          cl::desc("With --instr-profile: print the block "
                                   "counts (llvm-profdata show --counts)"),
                          cl::cat(DumpCategory));

cl::opt<bool> ICTargets("ic-targets",
                        cl::desc("With --instr-profile: print the indirect "
                                 "call targets of each function"),
                        cl::cat(DumpCategory));

cl::opt<bool> ShowVTables("show-vtables",
                          cl::desc("With --instr-profile: print the vtable "
                                   "targets of each function (the text of "
                                   "llvm-profdata 19 and 22)"),
                          cl::cat(DumpCategory));

cl::opt<bool> MemOPSizes("memop-sizes",
                         cl::desc("With --instr-profile: print the memory "
                                  "intrinsic call sizes of each function"),
                         cl::cat(DumpCategory));

cl::opt<bool> ShowCS("showcs",
                     cl::desc("With --instr-profile: print the "
                              "context-sensitive records of IR-level "
                              "profiles instead of the others"),
                     cl::cat(DumpCategory));

cl::opt<std::string> InstrBinary(
    "binary",
    cl::desc("With --instr-profile: instead of the profile, print how it "
             "fits this ELF file (binary IDs against its build ID, records "
             "against its functions); exit status 1 if it does not"),
    cl::value_desc("file"), cl::cat(DumpCategory));

// BOLT YAML profile mode (docs/dumper.md, docs/formats.md).
cl::opt<bool> BoltYAMLMode(
    "bolt-yaml",
    cl::desc("Read each input as a BOLT YAML profile (perf2bolt -w, "
             "llvm-bolt -w) and print a summary: header, totals, one line "
             "per function"),
    cl::cat(DumpCategory));

cl::opt<unsigned>
    TopN("topn",
         cl::desc("With --bolt-yaml: list only the N functions of the "
                  "highest execution count"),
         cl::value_desc("N"), cl::cat(DumpCategory));

// perf.data mode (docs/dumper.md).
cl::opt<bool> PerfDataMode(
    "perf-data",
    cl::desc("Read each input as a perf.data file (file or pipe mode) and "
             "print what perf 6.1's `perf script -F pid,event,ip "
             "--show-mmap-events --show-task-events -G --no-itrace` prints "
             "(a file with ARM SPE data: -F pid,event,ip,addr "
             "--itrace=bi1i)"),
    cl::cat(DumpCategory));
cl::opt<bool> PerfBranchStack(
    "brstack",
    cl::desc("With --perf-data: print branch stacks (perf script -F "
             "pid,event,brstack) instead of IPs"),
    cl::cat(DumpCategory));
cl::opt<bool> PerfNoItrace(
    "no-itrace",
    cl::desc("With --perf-data: do not decode ARM SPE AUX data (print what "
             "perf script --no-itrace prints; without this, a file with SPE "
             "data prints as -F pid,event,ip,addr --itrace=bi1i)"),
    cl::cat(DumpCategory));
cl::opt<uint64_t> PerfBatchBytes(
    "perf-batch-bytes",
    cl::desc("With --perf-data: format the delivered records in batches of "
             "about N bytes of records, one task each (for testing)"),
    cl::init(perf::PerfScriptOptions().BatchBytes), cl::value_desc("N"),
    cl::Hidden, cl::cat(DumpCategory));

cl::opt<bool> Verify(
    "verify",
    cl::desc("Check every decoded map against the file's symbols and "
             "sections and print a report; alone, print only the report. "
             "With --bat, check the BAT tables instead"),
    cl::cat(DumpCategory));

cl::opt<std::string> CheckLayout(
    "check-layout",
    cl::desc("Check that the input, a binary rebuilt with this cluster "
             "profile (and its map), has the layout it asks for; exit "
             "status 1 when it does not"),
    cl::value_desc("clusters"), cl::cat(DumpCategory));

cl::opt<std::string> SymbolOrder(
    "symbol-order",
    cl::desc("With --check-layout: the symbol ordering file the binary was "
             "linked with, whose symbols must lie in its order"),
    cl::value_desc("file"), cl::cat(DumpCategory));

cl::opt<std::string> CheckOrder(
    "check-order",
    cl::desc("Check that the input's symbols (functions, their .cold and "
             ".__part.N sections) lie in the order of this symbol ordering "
             "file (a block order: bbmap-profile --format=block-order); exit "
             "status 1 when they do not"),
    cl::value_desc("file"), cl::cat(DumpCategory));

cl::opt<std::string> ProfiledBinary(
    "profiled",
    cl::desc("With --check-layout: the binary the profile was taken on; "
             "blocks the compiler added after the layout (not in its map) "
             "are counted and left out of the comparison"),
    cl::value_desc("binary"), cl::cat(DumpCategory));

cl::list<std::string> FunctionNames(
    "function",
    cl::desc("Only print, verify and look up the records of this function "
             "(exact symbol name, or demangled name with --demangle; "
             "repeatable)"),
    cl::value_desc("name"), cl::cat(DumpCategory));

cl::opt<bool> Demangle("demangle", cl::desc("Demangle function names"),
                       cl::cat(DumpCategory));

cl::opt<uint64_t> SpanBytes(
    "span-bytes",
    cl::desc("With several threads, cut map sections into runs of records "
             "of about N bytes, one task each (for testing)"),
    cl::init(StreamOptions().SpanBytes), cl::value_desc("N"), cl::Hidden,
    cl::cat(DumpCategory));
cl::alias DemangleShort("C", cl::desc("Alias for --demangle"),
                        cl::aliasopt(Demangle), cl::NotHidden,
                        cl::cat(DumpCategory));

constexpr StringRef ToolName = "bbmap-dump";

/// --threads, or the machine's hardware threads; set by main.
unsigned ThreadCount = 1;

/// Whether --function selects the function named \p Name.
bool isSelected(StringRef Name) {
  if (FunctionNames.empty())
    return true;
  return !Name.empty() &&
         (llvm::is_contained(FunctionNames, Name) ||
          (Demangle &&
           llvm::is_contained(FunctionNames, llvm::demangle(Name))));
}

/// Keeps the records --function selects.
void selectFunctions(DecodedSection &Sec) {
  if (FunctionNames.empty())
    return;
  DecodedSection Kept;
  Kept.Info = Sec.Info;
  for (size_t I = 0; I < Sec.Functions.size(); ++I) {
    if (!isSelected(Sec.Names[I]))
      continue;
    Kept.Functions.push_back(std::move(Sec.Functions[I]));
    Kept.Names.push_back(std::move(Sec.Names[I]));
  }
  Sec = std::move(Kept);
}

void demangleNames(DecodedSection &Sec) {
  if (Demangle)
    for (std::string &Name : Sec.Names)
      if (!Name.empty())
        Name = llvm::demangle(Name);
}

/// Look-up mode: the requests, parsed once for all files, and the printer
/// of the output style.
struct LookupJob {
  std::vector<LookupRequest> Requests;
  std::unique_ptr<LookupPrinter> Printer;
};

std::vector<DecodedSection> decodeAll(const ELFMapReader &Reader,
                                      StringRef File, Diagnostics &Diag) {
  std::vector<DecodedSection> Sections;
  for (const MapSectionInfo &Info : Reader.mapSections()) {
    Expected<DecodedSection> Sec = Reader.decode(Info);
    if (!Sec) {
      Diag.error(File, describe(Info) + ": " + toString(Sec.takeError()));
      continue;
    }
    selectFunctions(*Sec);
    demangleNames(*Sec);
    Sections.push_back(std::move(*Sec));
  }
  return Sections;
}

/// --verify: the report printer and the totals over every file.
struct VerifyRun {
  std::unique_ptr<VerifyReportPrinter> Printer;
  VerifySummary Totals;
};

/// What a run does with each object: dump its maps with Printer and/or
/// verify them (Verify set), or, in look-up mode (Lookups set), resolve
/// addresses.
struct DumpContext {
  MapPrinter *Printer = nullptr;
  LookupJob *Lookups = nullptr;
  VerifyRun *Verify = nullptr;
  Diagnostics Diag{"bbmap-dump", outs(), errs()};
  /// Where every map printer writes.
  OrderedOutput Out{outs(), ThreadCount};
};

/// What the look-up tasks of one file count, on every thread.
struct LookupCounters {
  std::atomic<size_t> Found{0};
  /// Thread time spent in the look-up loop alone.
  std::atomic<uint64_t> LoopNanos{0};
};

/// Looks up and prints every request, a run of requests per task, the runs
/// written in order.
void lookupInOrder(const AddressIndex &Index, ArrayRef<LookupRequest> Requests,
                   StringRef File, LookupPrinter &Printer, OrderedOutput &Out,
                   LookupCounters &Counters) {
  // A task's run (--lookup-run), and the batch looked up and then printed
  // while its index entries are still in cache.
  constexpr size_t Batch = 2048;
  size_t RunRequests = std::max(1u, unsigned(LookupRun));
  Printer.beginFile(File);
  for (size_t Begin = 0; Begin < Requests.size(); Begin += RunRequests) {
    ArrayRef<LookupRequest> Run = Requests.slice(Begin).take_front(RunRequests);
    ResultPrinterFactory Fork = Printer.forkResults(/*First=*/Begin == 0);
    Out.submit([&Index, &Counters, Run, Fork](TextPiece &Text) {
      std::unique_ptr<ResultPrinter> P = Fork(Text);
      uint32_t Entries[Batch];
      for (size_t B = 0; B < Run.size(); B += Batch) {
        ArrayRef<LookupRequest> Part = Run.slice(B).take_front(Batch);
        auto Start = std::chrono::steady_clock::now();
        Counters.Found += findAll(Index, Part, Entries);
        Counters.LoopNanos +=
            std::chrono::nanoseconds(std::chrono::steady_clock::now() - Start)
                .count();
        P->print(Index, Part, ArrayRef(Entries, Part.size()));
      }
    });
  }
  if (!Requests.empty())
    Printer.resultsPrintedElsewhere();
  Printer.endFile();
  Out.finish();
}

void lookupObject(const ELFMapReader &Reader, StringRef File, LookupJob &Job,
                  DumpContext &Ctx) {
  Stopwatch Timer;
  std::vector<DecodedSection> Sections = decodeAll(Reader, File, Ctx.Diag);
  Expected<AddressIndex> Index = AddressIndex::create(Sections);
  if (!Index) {
    Ctx.Diag.error(File, toString(Index.takeError()));
    return;
  }
  double IndexTime = Timer.lap();
  LookupCounters Counters;
  lookupInOrder(*Index, Job.Requests, File, *Job.Printer, Ctx.Out, Counters);
  if (!PrintLookupStats)
    return;
  double LoopSeconds = Counters.LoopNanos / 1e9;
  errs() << formatv("{0}: '{1}': decoded and indexed {2} blocks in {3:f3} s; "
                    "{4} look-ups ({5} found): the loop {6:f3} s of thread "
                    "time ({7:f1} M/s per thread); looked up and printed in "
                    "{8:f3} s on {9} threads\n",
                    ToolName, File, Index->numBlocks(), IndexTime,
                    Job.Requests.size(), Counters.Found.load(), LoopSeconds,
                    Job.Requests.size() / LoopSeconds / 1e6, Timer.lap(),
                    Ctx.Out.threads());
}

void verifySection(const ELFMapReader &Reader, const DecodedSection &Sec,
                   StringRef File, DumpContext &Ctx, MapVerifier &V) {
  Expected<RelocationTargets> Targets = Reader.relocationTargets(Sec.Info);
  if (!Targets) {
    Ctx.Diag.error(File,
                   describe(Sec.Info) + ": " + toString(Targets.takeError()));
    V.countUndecodedSection();
    return;
  }
  V.checkSection(Sec, *Targets);
}

/// What the tasks of verifyByRuns share.
struct VerifiedSection {
  std::unique_ptr<MapSectionReader> Sec;
  RelocationTargets Targets;
};

/// --verify alone: the section is decoded a run of records at a time (in
/// parallel with several threads) and each run is checked in order as it
/// arrives, by the thread that writes it out (OrderedOutput): the report is
/// the same for every thread count, and no more than a window of runs is
/// held in memory.
void verifyByRuns(const ELFMapReader &Reader, const MapSectionInfo &Info,
                  StringRef File, DumpContext &Ctx, MapVerifier &V) {
  constexpr uint64_t RunBytes = 1 << 16;
  Expected<std::unique_ptr<MapSectionReader>> Sec = Reader.open(Info);
  Expected<std::vector<RecordSpan>> Spans =
      Sec ? (*Sec)->split(RunBytes) : Sec.takeError();
  if (!Spans) {
    Ctx.Diag.error(File, describe(Info) + ": " + toString(Spans.takeError()));
    return V.countUndecodedSection();
  }
  Expected<RelocationTargets> Targets = Reader.relocationTargets(Info);
  if (!Targets) {
    Ctx.Diag.error(File, describe(Info) + ": " + toString(Targets.takeError()));
    return V.countUndecodedSection();
  }
  auto Shared = std::make_shared<VerifiedSection>(
      VerifiedSection{std::move(*Sec), std::move(*Targets)});
  DecodedSection Header;
  Header.Info = Info;
  V.checkSectionHeader(Header);
  for (RecordSpan Span : *Spans) {
    auto Run = std::make_shared<DecodedSection>();
    Run->Info = Info;
    Ctx.Out.submit(
        [Shared, Run, Span](TextPiece &) {
          // Checked by split: cannot fail.
          cantFail(Shared->Sec->forEachFunction(
              [&](const FunctionMap &F, StringRef Name) {
                Run->Functions.push_back(F);
                Run->Names.push_back(Name.str());
                return Error::success();
              },
              Span));
        },
        [&V, Shared, Run] {
          V.checkRecords(*Run, Shared->Targets);
          *Run = DecodedSection();
        });
  }
  Ctx.Out.finish();
}

void dumpSection(const ELFMapReader &Reader, const MapSectionInfo &Info,
                 StringRef File, DumpContext &Ctx, MapVerifier *V) {
  if (V && !Ctx.Printer && FunctionNames.empty())
    return verifyByRuns(Reader, Info, File, Ctx, *V);
  if (!V && FunctionNames.empty()) {
    StreamOptions Opts;
    Opts.Demangle = Demangle;
    Opts.SpanBytes = std::max<uint64_t>(1, SpanBytes);
    return streamSection(Reader, Info, File, Opts, *Ctx.Printer, Ctx.Out,
                         Ctx.Diag);
  }
  Expected<DecodedSection> Sec = Reader.decode(Info);
  if (!Sec) {
    if (Ctx.Printer) {
      DecodedSection Empty;
      Empty.Info = Info;
      Ctx.Printer->printSection(Empty);
    }
    Ctx.Diag.error(File, describe(Info) + ": " + toString(Sec.takeError()));
    if (V)
      V->countUndecodedSection();
    return;
  }
  selectFunctions(*Sec);
  // With --function, sections without a selected record are left out.
  if (!FunctionNames.empty() && Sec->Functions.empty())
    return;
  if (V)
    verifySection(Reader, *Sec, File, Ctx, *V);
  demangleNames(*Sec);
  if (!Ctx.Printer)
    return;
  Ctx.Printer->printSection(*Sec);
  std::vector<UnnamedFunction> Unnamed;
  for (size_t I = 0; I < Sec->Functions.size(); ++I)
    if (Sec->Names[I].empty())
      Unnamed.push_back(
          {Sec->Functions[I].SectionOffset, Sec->Functions[I].address()});
  warnUnnamed(Ctx.Diag, File, Info, Unnamed);
}

void dumpMaps(const ELFMapReader &Reader, StringRef File, DumpContext &Ctx) {
  if (Ctx.Printer) {
    FileSummary Summary = Reader.summary();
    Summary.FileName = File.str();
    Ctx.Printer->printFileSummary(Summary);
  }
  std::optional<MapVerifier> V;
  if (Ctx.Verify)
    V.emplace(File.str(), Reader.facts());
  if (BBAddrMap || V)
    for (const MapSectionInfo &Info : Reader.mapSections())
      dumpSection(Reader, Info, File, Ctx, V ? &*V : nullptr);
  if (Ctx.Printer)
    Ctx.Printer->endFile();
  if (!V)
    return;
  VerifyReport Report = V->finish(isSelected);
  Ctx.Verify->Totals.add(Report);
  Ctx.Verify->Printer->printFile(Report);
}

void dumpObject(const ELFMapReader &Reader, StringRef File, DumpContext &Ctx) {
  if (Ctx.Lookups)
    return lookupObject(Reader, File, *Ctx.Lookups, Ctx);
  dumpMaps(Reader, File, Ctx);
}

void dumpFile(StringRef File, DumpContext &Ctx) {
  forEachObject(File, Ctx.Diag,
                [&](const ELFMapReader &Reader, StringRef Name) {
                  dumpObject(Reader, Name, Ctx);
                  // The object's text is out before any diagnostic of the
                  // next.
                  Ctx.Out.finish();
                });
}

std::unique_ptr<MapPrinter> createPrinter(raw_ostream &OS) {
  if (Style == OutputStyle::JSON)
    return std::make_unique<JSONStylePrinter>(OS, PrettyPrint,
                                              PrettyPGOAnalysisMap);
  if (Style == OutputStyle::Table)
    return std::make_unique<TableStylePrinter>(OS);
  return std::make_unique<LLVMStylePrinter>(OS, PrettyPGOAnalysisMap);
}

/// Appends what \p Parse makes of each request of \p Texts and \p File.
template <class RequestT>
Error readRequests(ArrayRef<std::string> Texts, StringRef File,
                   Expected<RequestT> (*Parse)(StringRef),
                   std::vector<RequestT> &Requests) {
  return readAddressRequests(Texts, File, [&](StringRef Text) -> Error {
    Expected<RequestT> R = Parse(Text);
    if (!R)
      return R.takeError();
    Requests.push_back(*R);
    return Error::success();
  });
}

int runLookups(DumpContext &Ctx) {
  if (BBAddrMap) {
    WithColor::error(errs(), ToolName)
        << "--lookup and --lookup-file cannot be combined with "
           "--bb-addr-map\n";
    return 1;
  }
  LookupJob Job;
  Stopwatch Timer;
  if (Error E =
          readLookupRequests(Lookups, LookupFile, Job.Requests, ThreadCount)) {
    WithColor::error(errs(), ToolName) << toString(std::move(E)) << "\n";
    return 1;
  }
  if (PrintLookupStats)
    errs() << formatv("{0}: parsed {1} addresses in {2:f3} s\n", ToolName,
                      Job.Requests.size(), Timer.lap());
  Job.Printer = Style == OutputStyle::JSON
                    ? createJSONLookupPrinter(Ctx.Out.stream(), PrettyPrint)
                    : createTextLookupPrinter(Ctx.Out.stream());
  Ctx.Lookups = &Job;
  for (const std::string &File : InputFiles)
    dumpFile(File, Ctx);
  Job.Printer.reset();
  Ctx.Out.finish();
  return Ctx.Diag.hadError() ? 1 : 0;
}

int runBATMode(Diagnostics &Diag) {
  BATOptions Opts;
  Opts.Dump = BAT;
  Opts.JSON = Style == OutputStyle::JSON;
  Opts.PrettyJSON = PrettyPrint;
  Opts.Verify = Verify;
  Opts.Stats = BATStats;
  Opts.InputBinary = InputBinary;
  Opts.Threads = ThreadCount;
  if (Error E = readRequests(Translate, TranslateFile, parseTranslateRequest,
                             Opts.Requests)) {
    WithColor::error(errs(), ToolName) << toString(std::move(E)) << "\n";
    return 1;
  }
  return runBAT(InputFiles, Opts, Diag) ? 0 : 1;
}

int runInstrProfileMode(Diagnostics &Diag) {
  InstrProfPrintOptions Opts;
  if (InstrStyle.getNumOccurrences()) {
    switch (InstrStyle) {
    case 14:
      Opts.Style = InstrProfTextStyle::LLVM14;
      break;
    case 19:
      Opts.Style = InstrProfTextStyle::LLVM19;
      break;
    case 22:
      Opts.Style = InstrProfTextStyle::LLVM22;
      break;
    default:
      WithColor::error(errs(), ToolName)
          << "--instr-style=" << InstrStyle << ": expected 14, 19 or 22\n";
      return 1;
    }
  }
  if (Style == OutputStyle::Table) {
    WithColor::error(errs(), ToolName)
        << "--instr-profile prints the llvm or json style, not table\n";
    return 1;
  }
  Opts.JSON = Style == OutputStyle::JSON;
  Opts.PrettyJSON = PrettyPrint;
  if (!InstrBinary.empty())
    return runInstrProfileMatch(InputFiles, InstrBinary, Opts.JSON,
                                Opts.PrettyJSON, ThreadCount, Diag);
  Opts.Counts = InstrCounts;
  Opts.ICTargets = ICTargets;
  Opts.VTables = ShowVTables;
  Opts.MemOPSizes = MemOPSizes;
  Opts.ShowCS = ShowCS;
  return runInstrProfile(InputFiles, Opts, Diag);
}

int runBoltYAMLMode(Diagnostics &Diag) {
  BoltYAMLPrintOptions Opts;
  switch (Style) {
  case OutputStyle::LLVM:
    Opts.Style = BoltYAMLStyle::Text;
    break;
  case OutputStyle::JSON:
    Opts.Style = BoltYAMLStyle::JSON;
    break;
  case OutputStyle::YAML:
    Opts.Style = BoltYAMLStyle::YAML;
    break;
  case OutputStyle::Table:
    WithColor::error(errs(), ToolName)
        << "--bolt-yaml prints the llvm, json or yaml style, not table\n";
    return 1;
  }
  Opts.PrettyJSON = PrettyPrint;
  Opts.Functions = FunctionNames;
  Opts.TopN = TopN;
  return runBoltYAML(InputFiles, Opts, Diag);
}

/// --check-layout and --check-order: one rebuilt binary, text or JSON.
int runLayoutCheckMode(Diagnostics &Diag) {
  if (InputFiles.size() != 1 || Style == OutputStyle::Table) {
    WithColor::error(errs(), ToolName)
        << "--check-layout and --check-order check one binary, in the llvm "
           "or json style\n";
    return 1;
  }
  if (!CheckOrder.empty() && (!CheckLayout.empty() || !SymbolOrder.empty())) {
    WithColor::error(errs(), ToolName)
        << "--check-order is the order alone: with a cluster profile, use "
           "--check-layout=CLUSTERS --symbol-order=FILE\n";
    return 1;
  }
  LayoutCheckOptions Opts;
  Opts.ClustersPath = CheckLayout;
  Opts.SymbolOrderPath = CheckOrder.empty() ? SymbolOrder : CheckOrder;
  Opts.ProfiledPath = ProfiledBinary;
  Opts.JSON = Style == OutputStyle::JSON;
  Opts.PrettyJSON = PrettyPrint;
  Opts.Threads = ThreadCount;
  return runLayoutCheck(InputFiles.front(), Opts, Diag);
}

/// --verify, alone or after the --bb-addr-map dump of each file. The exit
/// status is 1 when a section failed to decode or a check found an error.
int runVerify(DumpContext &Ctx) {
  if (BBAddrMap && Style == OutputStyle::JSON) {
    WithColor::error(errs(), ToolName)
        << "--verify with --output-style=json cannot be combined with "
           "--bb-addr-map\n";
    return 1;
  }
  std::unique_ptr<MapPrinter> Printer;
  if (BBAddrMap)
    Printer = createPrinter(Ctx.Out.stream());
  Ctx.Printer = Printer.get();
  VerifyRun Run;
  Run.Printer = Style == OutputStyle::JSON
                    ? createJSONReportPrinter(outs(), PrettyPrint, Demangle)
                    : createTextReportPrinter(outs(), Demangle);
  Ctx.Verify = &Run;
  for (const std::string &File : InputFiles)
    dumpFile(File, Ctx);
  Printer.reset();
  Run.Printer->finish(Run.Totals);
  outs().flush();
  return Ctx.Diag.hadError() || Run.Totals.Errors ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // libLLVM registers an undocumented --threads of its own, which nothing
  // here reads: bbmap-dump's takes its place.
  if (cl::Option *Theirs = cl::getRegisteredOptions().lookup("threads"))
    Theirs->removeArgument();
  cl::opt<unsigned> Threads(
      "threads",
      cl::desc("Decode and print maps, parse look-up files and read "
               "binaries on N threads (default: the machine's hardware "
               "threads; 1: no worker thread). The output is the same for "
               "every N"),
      cl::value_desc("N"), cl::cat(DumpCategory));
  cl::HideUnrelatedOptions(DumpCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { printToolVersion(OS, "bbmap-dump"); });
  cl::ParseCommandLineOptions(
      argc, argv,
      "bbmap-dump: basic-block address map dumper\n\n"
      "  Decodes the .llvm_bb_addr_map sections of ELF files (32/64-bit,\n"
      "  little/big endian, relocatable or linked, also inside archives),\n"
      "  every encoding from the legacy unversioned type to version 5, and\n"
      "  prints them as llvm-readobj does. Decode errors name the file, the\n"
      "  section index and the byte offset; dumping goes on with the next\n"
      "  section, and the exit status is 1 if anything failed to decode\n"
      "  (or, with --verify, if a check found an error).\n");
  if (Threads.getNumOccurrences() && Threads == 0) {
    WithColor::error(errs(), ToolName) << "--threads needs at least 1\n";
    return 1;
  }
  ThreadCount = threadCount(Threads);
  DumpContext Ctx;
  if (!InstrBinary.empty() && !InstrProfileMode) {
    WithColor::error(errs(), ToolName)
        << "--binary goes with --instr-profile (with --bat, the input "
           "binary is --input-binary)\n";
    return 1;
  }
  if (BoltYAMLMode)
    return runBoltYAMLMode(Ctx.Diag);
  if (Style == OutputStyle::YAML) {
    WithColor::error(errs(), ToolName)
        << "--output-style=yaml needs --bolt-yaml\n";
    return 1;
  }
  if (InstrProfileMode)
    return runInstrProfileMode(Ctx.Diag);
  if (!CheckLayout.empty() || !CheckOrder.empty())
    return runLayoutCheckMode(Ctx.Diag);
  if (!SymbolOrder.empty() || !ProfiledBinary.empty()) {
    WithColor::error(errs(), ToolName)
        << "--symbol-order and --profiled go with --check-layout\n";
    return 1;
  }
  if (PerfDataMode) {
    perf::PerfScriptOptions Opts;
    Opts.BranchStack = PerfBranchStack;
    Opts.DecodeSpe = !PerfNoItrace;
    Opts.BatchBytes = PerfBatchBytes;
    return runPerfData(InputFiles, Opts, Ctx.Out, Ctx.Diag);
  }
  if (BAT || !Translate.empty() || !TranslateFile.empty())
    return runBATMode(Ctx.Diag);
  if (!Lookups.empty() || !LookupFile.empty()) {
    if (Verify) {
      WithColor::error(errs(), ToolName)
          << "--verify cannot be combined with --lookup or --lookup-file\n";
      return 1;
    }
    return runLookups(Ctx);
  }
  if (Verify)
    return runVerify(Ctx);
  std::unique_ptr<MapPrinter> Printer = createPrinter(Ctx.Out.stream());
  Ctx.Printer = Printer.get();
  for (const std::string &File : InputFiles)
    dumpFile(File, Ctx);
  Printer.reset();
  outs().flush();
  return Ctx.Diag.hadError() ? 1 : 0;
}
