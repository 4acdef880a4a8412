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

std::unique_ptr<FunctionPrinter>
LLVMStylePrinter::forkFunctions(TextPiece &Text, bool) const {
  return std::make_unique<TreeFunctionPrinter<TextWriter>>(PrettyPGO, Text,
                                                           W.depth());
}

} // namespace bbmap
