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

#include "ELFMapReader.h"
#include "JSONStylePrinter.h"
#include "LLVMStylePrinter.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/Error.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

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

enum class OutputStyle { LLVM, JSON };
cl::opt<OutputStyle>
    Style("output-style", cl::desc("Output style (default: llvm)"),
          cl::values(clEnumValN(OutputStyle::LLVM, "llvm",
                                "llvm-readobj's LLVM style, byte for byte"),
                     clEnumValN(OutputStyle::JSON, "json",
                                "llvm-readobj's JSON style "
                                "(--elf-output-style=JSON), byte for byte")),
          cl::init(OutputStyle::LLVM), cl::cat(DumpCategory));

cl::opt<bool> PrettyPrint("pretty-print",
                          cl::desc("Indent the JSON output, like "
                                   "llvm-readobj --pretty-print"),
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

void warnUnnamed(Diagnostics &Diag, StringRef File, const DecodedSection &Sec) {
  for (size_t I = 0; I < Sec.Functions.size(); ++I) {
    if (!Sec.Names[I].empty())
      continue;
    const FunctionMap &F = Sec.Functions[I];
    Diag.warning(File, describe(Sec.Info) + ": offset 0x" +
                           Twine::utohexstr(F.SectionOffset) +
                           ": no function symbol at address 0x" +
                           Twine::utohexstr(F.address()));
  }
}

void dumpSection(const ELFMapReader &Reader, const MapSectionInfo &Info,
                 StringRef File, LLVMStylePrinter &Printer, Diagnostics &Diag) {
  Expected<DecodedSection> Sec = Reader.decode(Info);
  if (!Sec) {
    DecodedSection Empty;
    Empty.Info = Info;
    Printer.printSection(Empty);
    Diag.error(File, describe(Info) + ": " + toString(Sec.takeError()));
    return;
  }
  Printer.printSection(*Sec);
  warnUnnamed(Diag, File, *Sec);
}

void dumpObject(const ObjectFile &Obj, StringRef File,
                LLVMStylePrinter &Printer, Diagnostics &Diag) {
  Expected<std::unique_ptr<ELFMapReader>> Reader = ELFMapReader::create(Obj);
  if (!Reader) {
    Diag.error(File, toString(Reader.takeError()));
    return;
  }
  FileSummary Summary = (*Reader)->summary();
  Summary.FileName = File.str();
  Printer.printFileSummary(Summary);
  if (!BBAddrMap)
    return Printer.endFile();
  for (const MapSectionInfo &Info : (*Reader)->mapSections())
    dumpSection(**Reader, Info, File, Printer, Diag);
  Printer.endFile();
}

/// Dumps each object member as "archive(member)", like llvm-readobj; members
/// that are not objects are skipped.
void dumpArchive(const Archive &Arc, LLVMStylePrinter &Printer,
                 Diagnostics &Diag) {
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
    dumpObject(*Obj, Name, Printer, Diag);
  }
  if (Err)
    Diag.error(Arc.getFileName(), toString(std::move(Err)));
}

void dumpFile(StringRef File, LLVMStylePrinter &Printer, Diagnostics &Diag) {
  Expected<OwningBinary<Binary>> Bin = createBinary(File);
  if (!Bin) {
    Diag.error(File, toString(Bin.takeError()));
    return;
  }
  Binary &B = *Bin->getBinary();
  if (auto *Obj = dyn_cast<ObjectFile>(&B))
    return dumpObject(*Obj, File, Printer, Diag);
  if (auto *Arc = dyn_cast<Archive>(&B))
    return dumpArchive(*Arc, Printer, Diag);
  Diag.error(File, "not an ELF object file");
}

std::unique_ptr<LLVMStylePrinter> createPrinter(raw_ostream &OS) {
  if (Style == OutputStyle::JSON)
    return std::make_unique<JSONStylePrinter>(OS, PrettyPrint,
                                              PrettyPGOAnalysisMap);
  return std::make_unique<LLVMStylePrinter>(OS, PrettyPGOAnalysisMap);
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
  std::unique_ptr<LLVMStylePrinter> Printer = createPrinter(outs());
  Diagnostics Diag;
  for (const std::string &File : InputFiles)
    dumpFile(File, *Printer, Diag);
  Printer.reset();
  outs().flush();
  return Diag.hadError() ? 1 : 0;
}
