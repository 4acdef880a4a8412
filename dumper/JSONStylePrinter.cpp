//===- dumper/JSONStylePrinter.cpp - llvm-readobj JSON output -------------===//
//
// JSONStylePrinter: only the per-file framing differs from the LLVM style;
// the map tree is printed by LLVMStylePrinter through a JSONScopedPrinter.
//
//===----------------------------------------------------------------------===//

#include "JSONStylePrinter.h"

using namespace llvm;

namespace bbmap {

JSONStylePrinter::JSONStylePrinter(raw_ostream &OS, bool PrettyJSON,
                                   bool PrettyPGO)
    : LLVMStylePrinter(std::make_unique<JSONScopedPrinter>(
                           OS, PrettyJSON, std::make_unique<ListScope>()),
                       PrettyPGO) {}

JSONStylePrinter::~JSONStylePrinter() {
  // Close the file object before the printer closes the array.
  FileScope.reset();
  W.reset();
}

void JSONStylePrinter::printFileSummary(const FileSummary &S) {
  FileScope = std::make_unique<DictScope>(*W);
  DictScope D(*W, "FileSummary");
  printSummaryFields(S);
}

void JSONStylePrinter::endFile() { FileScope.reset(); }

} // namespace bbmap
