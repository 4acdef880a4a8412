//===- TableStylePrinter.h - one line per basic block -----------*- C++ -*-===//
//
// The table output style (--output-style=table): one tab-separated line per
// basic block, for grep, awk and scripts. Columns (docs/dumper.md):
//   file  function  range_base  block_id  start  end  flags
// after a "# " header line naming them. Addresses are "0x" and lower-case
// hex; start is range_base + offset, end is start + size; flags has one
// letter or '-' per metadata bit, in the order R (HasReturn), T
// (HasTailCall), E (IsEHPad), F (CanFallThrough), I (HasIndirectBranch).
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_TABLESTYLEPRINTER_H
#define BBMAP_DUMPER_TABLESTYLEPRINTER_H

#include "MapPrinter.h"
#include "bbmap/Support/OutputBuffer.h"
#include <string>

namespace bbmap {

class TableStylePrinter : public MapPrinter {
public:
  /// Writes the header line.
  explicit TableStylePrinter(llvm::raw_ostream &OS);

  void printFileSummary(const FileSummary &S) override;
  void endFile() override;
  void beginSection(const MapSectionInfo &Info) override {}
  void printFunction(const FunctionMap &F, llvm::StringRef Name) override;
  /// Hands the lines to the stream before any diagnostic about the section.
  void endSection() override;
  void flush() override { Out.flush(); }
  FunctionPrinterFactory forkFunctions(bool First) const override;

private:
  /// A printer of rows alone, of file \p FileName.
  TableStylePrinter(TextPiece &Text, llvm::StringRef FileName)
      : Out(Text), FileName(FileName) {}

  void printBlock(llvm::StringRef Name, uint64_t Base, const BlockEntry &B);

  OutputBuffer Out;
  std::string FileName;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_TABLESTYLEPRINTER_H
