//===- LLVMStylePrinter.h - llvm-readobj style output -----------*- C++ -*-===//
//
// Prints decoded basic-block address maps in the layout of
// `llvm-readobj --bb-addr-map` (LLVM style), byte for byte, through
// TextWriter (the same bytes as llvm::ScopedPrinter, written directly). The
// text is handed to the stream at the end of each section and file, before
// the driver prints diagnostics about them.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_LLVMSTYLEPRINTER_H
#define BBMAP_DUMPER_LLVMSTYLEPRINTER_H

#include "MapPrinter.h"
#include "MapTree.h"
#include "bbmap/Support/TextWriter.h"

namespace bbmap {

class LLVMStylePrinter : public MapPrinter {
public:
  /// With \p PrettyPGO, block frequencies are printed relative to the first
  /// block's and branch probabilities as fractions, like llvm-readobj's
  /// --pretty-pgo-analysis-map.
  LLVMStylePrinter(llvm::raw_ostream &OS, bool PrettyPGO)
      : W(OS), Tree(W, PrettyPGO), PrettyPGO(PrettyPGO) {}

  /// The blank line and File/Format/Arch/AddressSize/LoadName header.
  void printFileSummary(const FileSummary &S) override;
  /// `BBAddrMap [ ... ]`; a section that failed to decode is printed as an
  /// empty list, as llvm-readobj does.
  void beginSection(const MapSectionInfo &Info) override;
  void printFunction(const FunctionMap &F, llvm::StringRef Name) override;
  void endSection() override;
  void endFile() override;
  void flush() override { W.flush(); }
  FunctionPrinterFactory forkFunctions(bool First) const override;

private:
  TextWriter W;
  MapTree<TextWriter> Tree;
  bool PrettyPGO;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_LLVMSTYLEPRINTER_H
