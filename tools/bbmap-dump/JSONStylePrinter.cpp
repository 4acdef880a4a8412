//===- JSONStylePrinter.cpp - llvm-readobj JSON output --------------------===//
//
// JSONStylePrinter: only the per-file framing differs from the LLVM style;
// the map tree is MapTree's, written by a JSONWriter.
//
//===----------------------------------------------------------------------===//

#include "JSONStylePrinter.h"

using namespace llvm;

namespace bbmap {

JSONStylePrinter::JSONStylePrinter(raw_ostream &OS, bool PrettyJSON,
                                   bool PrettyPGO)
    : W(OS, PrettyJSON), Tree(W, PrettyPGO), PrettyJSON(PrettyJSON),
      PrettyPGO(PrettyPGO) {
  W.beginArray();
}

JSONStylePrinter::~JSONStylePrinter() {
  W.endArray();
  W.flush();
}

void JSONStylePrinter::printFileSummary(const FileSummary &S) {
  W.beginObject();
  W.beginObject("FileSummary");
  Tree.printSummaryFields(S);
  W.endObject();
}

void JSONStylePrinter::endFile() {
  W.endObject();
  W.flush();
}

void JSONStylePrinter::beginSection(const MapSectionInfo &) {
  Tree.beginSection();
}

void JSONStylePrinter::printFunction(const FunctionMap &F, StringRef Name) {
  Tree.printFunction(F, Name);
}

void JSONStylePrinter::endSection() {
  Tree.endSection();
  // Diagnostics about the section follow on stderr.
  W.flush();
}

FunctionPrinterFactory JSONStylePrinter::forkFunctions(bool First) const {
  return [PrettyPGO = PrettyPGO, PrettyJSON = PrettyJSON, Depth = W.depth(),
          First](TextPiece &Text) {
    return std::make_unique<TreeFunctionPrinter<JSONWriter>>(
        PrettyPGO, Text, PrettyJSON, Depth, !First);
  };
}

} // namespace bbmap
