//===- JSONStylePrinter.cpp - llvm-readobj JSON output --------------------===//
//
// JSONStylePrinter: only the per-file framing differs from the LLVM style;
// the map tree is MapTree's, written through a JSONScopedPrinter.
//
//===----------------------------------------------------------------------===//

#include "JSONStylePrinter.h"

using namespace llvm;

namespace bbmap {

JSONStylePrinter::JSONStylePrinter(raw_ostream &OS, bool PrettyJSON,
                                   bool PrettyPGO)
    : Printer(std::make_unique<JSONScopedPrinter>(
          OS, PrettyJSON, std::make_unique<ListScope>())),
      W(*Printer), Tree(W, PrettyPGO) {}

JSONStylePrinter::~JSONStylePrinter() {
  // Close the file object before the printer closes the array.
  FileScope.reset();
  Printer.reset();
}

void JSONStylePrinter::printFileSummary(const FileSummary &S) {
  FileScope = std::make_unique<DictScope>(*Printer);
  DictScope D(*Printer, "FileSummary");
  Tree.printSummaryFields(S);
}

void JSONStylePrinter::endFile() { FileScope.reset(); }

void JSONStylePrinter::beginSection(const MapSectionInfo &) {
  Tree.beginSection();
}

void JSONStylePrinter::printFunction(const FunctionMap &F, StringRef Name) {
  Tree.printFunction(F, Name);
}

void JSONStylePrinter::endSection() { Tree.endSection(); }

} // namespace bbmap
