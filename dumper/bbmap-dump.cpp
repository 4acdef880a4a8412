//===- dumper/bbmap-dump.cpp - bbmap-dump driver --------------------------===//
//
// Command-line entry point of bbmap-dump: opens each input, decodes its
// basic-block address maps with ELFMapReader and prints them with the
// selected output style (LLVM text or JSON, both as llvm-readobj prints
// them). Diagnostics name the file, the section and the
// offending offset; any error makes the exit status non-zero, but dumping
// continues with the next section and file.
//
//===----------------------------------------------------------------------===//

#include "AddressIndex.h"
#include "ELFMapReader.h"
#include "JSONStylePrinter.h"
#include "LLVMStylePrinter.h"
#include "Lookup.h"
#include "TableStylePrinter.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/Error.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace llvm;
using namespace llvm::object;
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

enum class OutputStyle { LLVM, JSON, Table };
cl::opt<OutputStyle>
    Style("output-style", cl::desc("Output style (default: llvm)"),
          cl::values(clEnumValN(OutputStyle::LLVM, "llvm",
                                "llvm-readobj's LLVM style, byte for byte"),
                     clEnumValN(OutputStyle::JSON, "json",
                                "llvm-readobj's JSON style "
                                "(--elf-output-style=JSON), byte for byte"),
                     clEnumValN(OutputStyle::Table, "table",
                                "one tab-separated line per basic block")),
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

cl::opt<bool> LookupStats(
    "lookup-stats",
    cl::desc("With --lookup/--lookup-file, print the time spent parsing, "
             "indexing, looking up and printing to stderr"),
    cl::cat(DumpCategory));

constexpr StringRef ToolName = "bbmap-dump";

/// Collects diagnostics and remembers whether any was an error.
class Diagnostics {
public:
  void error(StringRef File, const Twine &Msg) {
    outs().flush();
    WithColor::error(errs(), ToolName) << "'" << File << "': " << Msg << "\n";
    HadError = true;
  }
  void warning(StringRef File, const Twine &Msg) {
    outs().flush();
    WithColor::warning(errs(), ToolName) << "'" << File << "': " << Msg << "\n";
  }
  bool hadError() const { return HadError; }

private:
  bool HadError = false;
};

std::string describe(const MapSectionInfo &Info) {
  return ("section [" + Twine(Info.Index) + "] " + Info.Name).str();
}

/// A function record whose address matches no function symbol.
struct UnnamedFunction {
  uint64_t SectionOffset;
  uint64_t Address;
};

void warnUnnamed(Diagnostics &Diag, StringRef File, const MapSectionInfo &Info,
                 ArrayRef<UnnamedFunction> Unnamed) {
  for (const UnnamedFunction &F : Unnamed)
    Diag.warning(File, describe(Info) + ": offset 0x" +
                           Twine::utohexstr(F.SectionOffset) +
                           ": no function symbol at address 0x" +
                           Twine::utohexstr(F.Address));
}

/// Streams one section into the printer. llvm-readobj prints a section with
/// a malformed record as an empty list, so a first pass checks the whole
/// section before the second prints it; no decoded record is kept.
void dumpSection(const ELFMapReader &Reader, const MapSectionInfo &Info,
                 StringRef File, MapPrinter &Printer, Diagnostics &Diag) {
  Printer.beginSection(Info);
  Error E = Reader.check(Info);
  std::vector<UnnamedFunction> Unnamed;
  if (!E)
    E = Reader.forEachFunction(Info, [&](const FunctionMap &F, StringRef Name) {
      Printer.printFunction(F, Name);
      if (Name.empty())
        Unnamed.push_back({F.SectionOffset, F.address()});
      return Error::success();
    });
  Printer.endSection();
  if (E)
    Diag.error(File, describe(Info) + ": " + toString(std::move(E)));
  warnUnnamed(Diag, File, Info, Unnamed);
}

/// Look-up mode: the requests, parsed once for all files, and the JSON
/// writer with --output-style=json.
struct LookupJob {
  std::vector<LookupRequest> Requests;
  std::unique_ptr<json::OStream> JSON;
};

/// Measures the phases of a look-up run for --lookup-stats.
class PhaseTimer {
public:
  double lap() {
    auto Now = std::chrono::steady_clock::now();
    double Seconds = std::chrono::duration<double>(Now - Start).count();
    Start = Now;
    return Seconds;
  }

private:
  std::chrono::steady_clock::time_point Start =
      std::chrono::steady_clock::now();
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
    Sections.push_back(std::move(*Sec));
  }
  return Sections;
}

void lookupObject(const ELFMapReader &Reader, StringRef File, LookupJob &Job,
                  Diagnostics &Diag) {
  PhaseTimer Timer;
  std::vector<DecodedSection> Sections = decodeAll(Reader, File, Diag);
  Expected<AddressIndex> Index = AddressIndex::create(Sections);
  if (!Index) {
    Diag.error(File, toString(Index.takeError()));
    return;
  }
  double IndexTime = Timer.lap();
  std::vector<std::optional<BlockMatch>> Results =
      resolveAll(*Index, Job.Requests);
  double LookupTime = Timer.lap();
  if (Job.JSON)
    printLookupJSON(*Job.JSON, File, Job.Requests, Results);
  else
    printLookupText(outs(), File, Job.Requests, Results);
  outs().flush();
  if (!LookupStats)
    return;
  size_t Found = llvm::count_if(Results, [](const auto &R) { return R; });
  errs() << formatv("{0}: '{1}': decoded and indexed {2} blocks in {3:f3} s; "
                    "{4} look-ups ({5} found) in {6:f3} s ({7:f1} M/s); "
                    "printed in {8:f3} s\n",
                    ToolName, File, Index->numBlocks(), IndexTime,
                    Job.Requests.size(), Found, LookupTime,
                    Job.Requests.size() / LookupTime / 1e6, Timer.lap());
}

/// What a run does with each object: dump its maps with Printer, or, in
/// look-up mode (Lookups set), resolve addresses.
struct DumpContext {
  MapPrinter *Printer = nullptr;
  LookupJob *Lookups = nullptr;
  Diagnostics Diag;
};

void dumpMaps(const ELFMapReader &Reader, StringRef File, DumpContext &Ctx) {
  FileSummary Summary = Reader.summary();
  Summary.FileName = File.str();
  Ctx.Printer->printFileSummary(Summary);
  if (BBAddrMap)
    for (const MapSectionInfo &Info : Reader.mapSections())
      dumpSection(Reader, Info, File, *Ctx.Printer, Ctx.Diag);
  Ctx.Printer->endFile();
}

void dumpObject(const ObjectFile &Obj, StringRef File, DumpContext &Ctx) {
  Expected<std::unique_ptr<ELFMapReader>> Reader = ELFMapReader::create(Obj);
  if (!Reader) {
    Ctx.Diag.error(File, toString(Reader.takeError()));
    return;
  }
  if (Ctx.Lookups)
    return lookupObject(**Reader, File, *Ctx.Lookups, Ctx.Diag);
  dumpMaps(**Reader, File, Ctx);
}

/// Dumps each object member as "archive(member)", like llvm-readobj; members
/// that are not objects are skipped.
void dumpArchive(const Archive &Arc, DumpContext &Ctx) {
  Diagnostics &Diag = Ctx.Diag;
  Error Err = Error::success();
  StringRef Whole = Arc.getData();
  for (const Archive::Child &C : Arc.children(Err)) {
    // A corrupt size field can make the last member reach past the archive;
    // reading it would read past the buffer.
    Expected<StringRef> Data = C.getBuffer();
    if (!Data || Data->data() < Whole.data() ||
        Data->data() + Data->size() > Whole.data() + Whole.size()) {
      consumeError(Data.takeError());
      Expected<StringRef> Name = C.getName();
      Diag.error(Arc.getFileName(),
                 "member '" + (Name ? *Name : StringRef("<?>")) +
                     "' extends past the end of the archive");
      if (!Name)
        consumeError(Name.takeError());
      continue;
    }
    Expected<std::unique_ptr<Binary>> Member = C.getAsBinary();
    if (!Member) {
      if (Error E = isNotObjectErrorInvalidFileType(Member.takeError()))
        Diag.error(Arc.getFileName(), toString(std::move(E)));
      continue;
    }
    const auto *Obj = dyn_cast<ObjectFile>(Member->get());
    if (!Obj) {
      Diag.warning(Arc.getFileName(),
                   (*Member)->getFileName() + " has an unsupported file type");
      continue;
    }
    std::string Name =
        (Arc.getFileName() + "(" + Obj->getFileName() + ")").str();
    dumpObject(*Obj, Name, Ctx);
  }
  if (Err)
    Diag.error(Arc.getFileName(), toString(std::move(Err)));
}

void dumpFile(StringRef File, DumpContext &Ctx) {
  Expected<OwningBinary<Binary>> Bin = createBinary(File);
  if (!Bin) {
    Ctx.Diag.error(File, toString(Bin.takeError()));
    return;
  }
  Binary &B = *Bin->getBinary();
  if (auto *Obj = dyn_cast<ObjectFile>(&B))
    return dumpObject(*Obj, File, Ctx);
  if (auto *Arc = dyn_cast<Archive>(&B))
    return dumpArchive(*Arc, Ctx);
  Ctx.Diag.error(File, "not an ELF object file");
}

std::unique_ptr<MapPrinter> createPrinter(raw_ostream &OS) {
  if (Style == OutputStyle::JSON)
    return std::make_unique<JSONStylePrinter>(OS, PrettyPrint,
                                              PrettyPGOAnalysisMap);
  if (Style == OutputStyle::Table)
    return std::make_unique<TableStylePrinter>(OS);
  return std::make_unique<LLVMStylePrinter>(OS, PrettyPGOAnalysisMap);
}

/// Reads the --lookup and --lookup-file requests, in that order.
Error readLookupRequests(std::vector<LookupRequest> &Requests) {
  for (const std::string &Text : Lookups) {
    Expected<LookupRequest> R = parseLookupRequest(Text);
    if (!R)
      return R.takeError();
    Requests.push_back(*R);
  }
  if (LookupFile.empty())
    return Error::success();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(LookupFile);
  if (!Buf)
    return createFileError(LookupFile, Buf.getError());
  if (Error E = parseLookupFile((*Buf)->getBuffer(), Requests))
    return createFileError(LookupFile, std::move(E));
  return Error::success();
}

int runLookups(DumpContext &Ctx) {
  if (BBAddrMap) {
    WithColor::error(errs(), ToolName)
        << "--lookup and --lookup-file cannot be combined with "
           "--bb-addr-map\n";
    return 1;
  }
  LookupJob Job;
  PhaseTimer Timer;
  if (Error E = readLookupRequests(Job.Requests)) {
    WithColor::error(errs(), ToolName) << toString(std::move(E)) << "\n";
    return 1;
  }
  if (LookupStats)
    errs() << formatv("{0}: parsed {1} addresses in {2:f3} s\n", ToolName,
                      Job.Requests.size(), Timer.lap());
  if (Style == OutputStyle::JSON) {
    Job.JSON = std::make_unique<json::OStream>(outs(), PrettyPrint ? 2 : 0);
    Job.JSON->arrayBegin();
  }
  Ctx.Lookups = &Job;
  for (const std::string &File : InputFiles)
    dumpFile(File, Ctx);
  if (Job.JSON) {
    Job.JSON->arrayEnd();
    outs() << "\n";
  }
  outs().flush();
  return Ctx.Diag.hadError() ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(DumpCategory);
  cl::SetVersionPrinter(
      [](raw_ostream &OS) { OS << "bbmap-dump " << BBMAP_VERSION << "\n"; });
  cl::ParseCommandLineOptions(
      argc, argv,
      "bbmap-dump: basic-block address map dumper\n\n"
      "  Decodes the .llvm_bb_addr_map sections of ELF files (32/64-bit,\n"
      "  little/big endian, relocatable or linked, also inside archives),\n"
      "  every encoding from the legacy unversioned type to version 5, and\n"
      "  prints them as llvm-readobj does. Decode errors name the file, the\n"
      "  section index and the byte offset; dumping goes on with the next\n"
      "  section, and the exit status is 1 if anything failed to decode.\n");
  DumpContext Ctx;
  if (!Lookups.empty() || !LookupFile.empty())
    return runLookups(Ctx);
  std::unique_ptr<MapPrinter> Printer = createPrinter(outs());
  Ctx.Printer = Printer.get();
  for (const std::string &File : InputFiles)
    dumpFile(File, Ctx);
  Printer.reset();
  outs().flush();
  return Ctx.Diag.hadError() ? 1 : 0;
}
