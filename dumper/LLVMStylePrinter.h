//===- dumper/LLVMStylePrinter.h - llvm-readobj style output ----*- C++ -*-===//
//
// Prints decoded basic-block address maps in the layout of
// `llvm-readobj --bb-addr-map` (LLVM style), byte for byte, using
// llvm::ScopedPrinter as llvm-readobj does. JSONStylePrinter reuses the same
// tree through llvm::JSONScopedPrinter.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_LLVMSTYLEPRINTER_H
#define BBMAP_DUMPER_LLVMSTYLEPRINTER_H

#include "ELFMapReader.h"
#include "llvm/Support/ScopedPrinter.h"
#include <memory>

namespace bbmap {

class LLVMStylePrinter {
public:
  /// With \p PrettyPGO, block frequencies are printed relative to the first
  /// block's and branch probabilities as fractions, like llvm-readobj's
  /// --pretty-pgo-analysis-map.
  LLVMStylePrinter(llvm::raw_ostream &OS, bool PrettyPGO)
      : LLVMStylePrinter(std::make_unique<llvm::ScopedPrinter>(OS), PrettyPGO) {
  }
  virtual ~LLVMStylePrinter();

  /// The blank line and File/Format/Arch/AddressSize/LoadName header.
  virtual void printFileSummary(const FileSummary &S);
  /// Called after the last section of a file.
  virtual void endFile() {}
  /// One `BBAddrMap [ ... ]` list. A section that failed to decode is
  /// printed as an empty list, as llvm-readobj does.
  void printSection(const DecodedSection &Sec);

protected:
  /// For output styles that print the same tree through another
  /// ScopedPrinter (llvm::JSONScopedPrinter).
  LLVMStylePrinter(std::unique_ptr<llvm::ScopedPrinter> W, bool PrettyPGO)
      : W(std::move(W)), PrettyPGO(PrettyPGO) {}
  void printSummaryFields(const FileSummary &S);

  std::unique_ptr<llvm::ScopedPrinter> W;

private:
  void printFunction(const FunctionMap &F, llvm::StringRef Name);
  void printRange(const FunctionMap &F, const BlockRange &Range);
  void printBlock(const FunctionMap &F, const BlockEntry &B);
  void printPGO(const FunctionMap &F);
  void printPGOBlock(const FunctionMap &F, const PGOBlock &B);
  void printFrequency(const FunctionMap &F, const PGOBlock &B);

  bool PrettyPGO;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_LLVMSTYLEPRINTER_H
