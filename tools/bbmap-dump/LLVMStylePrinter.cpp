//===- LLVMStylePrinter.cpp - llvm-readobj style output -------------------===//
//
// LLVMStylePrinter: the per-file header and MapTree over a TextWriter.
//
//===----------------------------------------------------------------------===//

#include "LLVMStylePrinter.h"

using namespace llvm;

namespace bbmap {

void LLVMStylePrinter::printFileSummary(const FileSummary &S) {
  W.blankLine();
  Tree.printSummaryFields(S);
}

void LLVMStylePrinter::beginSection(const MapSectionInfo &) {
  Tree.beginSection();
}

void LLVMStylePrinter::printFunction(const FunctionMap &F, StringRef Name) {
  Tree.printFunction(F, Name);
}

void LLVMStylePrinter::endSection() {
  Tree.endSection();
  // Diagnostics about the section follow on stderr.
  W.flush();
}

void LLVMStylePrinter::endFile() { W.flush(); }

FunctionPrinterFactory LLVMStylePrinter::forkFunctions(bool) const {
  return [PrettyPGO = PrettyPGO, Depth = W.depth()](TextPiece &Text) {
    return std::make_unique<TreeFunctionPrinter<TextWriter>>(PrettyPGO, Text,
                                                             Depth);
  };
}

} // namespace bbmap
