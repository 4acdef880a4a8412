//===- VerifyPrinter.h - --verify reports as text or JSON -------*- C++ -*-===//
//
// bbmap-dump's two --verify output styles; docs/dumper.md gives the format.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMP_VERIFYPRINTER_H
#define BBMAP_DUMP_VERIFYPRINTER_H

#include "bbmap/Object/MapVerifier.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

namespace bbmap {

/// Prints reports as they come, then ends the output.
class VerifyReportPrinter {
public:
  virtual ~VerifyReportPrinter();
  virtual void printFile(const VerifyReport &R) = 0;
  /// The text form prints the summary line; the JSON form closes its array.
  virtual void finish(const VerifySummary &S) = 0;
};

/// One line per finding and per uncovered function, then a summary line.
/// With \p Demangle, function names are demangled.
std::unique_ptr<VerifyReportPrinter>
createTextReportPrinter(llvm::raw_ostream &OS, bool Demangle);
/// A JSON array with one {"File": ..., "Verify": {...}} object per file.
std::unique_ptr<VerifyReportPrinter>
createJSONReportPrinter(llvm::raw_ostream &OS, bool Pretty, bool Demangle);

} // namespace bbmap

#endif // BBMAP_DUMP_VERIFYPRINTER_H
