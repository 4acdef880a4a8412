//===- JSONStylePrinter.h - llvm-readobj JSON output ------------*- C++ -*-===//
//
// Prints decoded basic-block address maps like
// `llvm-readobj --elf-output-style=JSON [--pretty-print] --bb-addr-map`:
// the LLVM-style tree (MapTree) through a JSONWriter, one object per file
// with a "FileSummary" member, inside one top-level array.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_JSONSTYLEPRINTER_H
#define BBMAP_DUMPER_JSONSTYLEPRINTER_H

#include "MapPrinter.h"
#include "MapTree.h"
#include "bbmap/Support/JSONWriter.h"

namespace bbmap {

class JSONStylePrinter : public MapPrinter {
public:
  /// The array is closed when the printer is destroyed.
  JSONStylePrinter(llvm::raw_ostream &OS, bool PrettyJSON, bool PrettyPGO);
  ~JSONStylePrinter() override;

  void printFileSummary(const FileSummary &S) override;
  void endFile() override;
  void beginSection(const MapSectionInfo &Info) override;
  void printFunction(const FunctionMap &F, llvm::StringRef Name) override;
  void endSection() override;
  void flush() override { W.flush(); }
  FunctionPrinterFactory forkFunctions(bool First) const override;
  void recordsPrintedElsewhere() override { W.setHasElements(); }

private:
  JSONWriter W;
  MapTree<JSONWriter> Tree;
  bool PrettyJSON;
  bool PrettyPGO;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_JSONSTYLEPRINTER_H
