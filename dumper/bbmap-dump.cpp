//===- dumper/bbmap-dump.cpp - bbmap-dump driver --------------------------===//
//
// Command-line entry point of bbmap-dump: parses the options, then dumps
// each input with DumpDriver in the selected output style (LLVM text or
// JSON, both as llvm-readobj prints them). Diagnostics name the file, the
// section and the offending offset; any error makes the exit status
// non-zero, but dumping continues with the next section and file.
//
//===----------------------------------------------------------------------===//

#include "DumpDriver.h"
#include "JSONStylePrinter.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

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
  DumpOptions Opts;
  Opts.BBAddrMap = BBAddrMap;
  Diagnostics Diag(outs(), errs());
  for (const std::string &File : InputFiles)
    dumpFile(File, Opts, *Printer, Diag);
  Printer.reset();
  outs().flush();
  return Diag.hadError() ? 1 : 0;
}
