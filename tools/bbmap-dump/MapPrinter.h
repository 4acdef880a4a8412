//===- MapPrinter.h - output style interface --------------------*- C++ -*-===//
//
// MapPrinter is what every bbmap-dump output style implements. The driver
// streams the maps into it: a file summary, then per map section a begin,
// one call per decoded function record, an end. Runs of a section's records
// may instead go to FunctionPrinters forked from it (e.g. one per thread),
// whose text the driver writes in order.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_MAPPRINTER_H
#define BBMAP_DUMPER_MAPPRINTER_H

#include "bbmap/Object/ELFMapReader.h"
#include "bbmap/Support/OutputBuffer.h"
#include <functional>
#include <memory>

namespace bbmap {

/// Prints function records.
class FunctionPrinter {
public:
  virtual ~FunctionPrinter();
  /// One function record; \p Name is empty when no function symbol matches.
  virtual void printFunction(const FunctionMap &F, llvm::StringRef Name) = 0;
  /// Hands the buffered text to the stream.
  virtual void flush() = 0;
};

using FunctionPrinterFactory =
    std::function<std::unique_ptr<FunctionPrinter>(TextPiece &Text)>;

class MapPrinter : public FunctionPrinter {
public:
  /// Starts the output of one file.
  virtual void printFileSummary(const FileSummary &S) = 0;
  /// Called after the last section of a file.
  virtual void endFile() {}
  virtual void beginSection(const MapSectionInfo &Info) = 0;
  virtual void endSection() = 0;

  /// Makes a function that, between beginSection and endSection, makes
  /// printers writing function records to a text exactly as this printer
  /// would write them next, \p First telling whether they start the
  /// section. The function only holds copies of this printer's state and may
  /// run on any thread; this printer's own state does not move, and
  /// recordsPrintedElsewhere tells it afterwards.
  virtual FunctionPrinterFactory forkFunctions(bool First) const = 0;
  /// Tells the printer that forks printed records of the current section.
  virtual void recordsPrintedElsewhere() {}

  /// A whole decoded section (beginSection, each function, endSection).
  void printSection(const DecodedSection &Sec);
};

} // namespace bbmap

#endif // BBMAP_DUMPER_MAPPRINTER_H
