//===- MapPrinter.h - output style interface --------------------*- C++ -*-===//
//
// MapPrinter is what every bbmap-dump output style implements. The driver
// streams the maps into it: a file summary, then per map section a begin,
// one call per decoded function record, an end.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_MAPPRINTER_H
#define BBMAP_DUMPER_MAPPRINTER_H

#include "bbmap/Object/ELFMapReader.h"

namespace bbmap {

class MapPrinter {
public:
  virtual ~MapPrinter();

  /// Starts the output of one file.
  virtual void printFileSummary(const FileSummary &S) = 0;
  /// Called after the last section of a file.
  virtual void endFile() {}
  virtual void beginSection(const MapSectionInfo &Info) = 0;
  /// One function record of the current section; \p Name is empty when no
  /// function symbol matches.
  virtual void printFunction(const FunctionMap &F, llvm::StringRef Name) = 0;
  virtual void endSection() = 0;

  /// A whole decoded section (beginSection, each function, endSection).
  void printSection(const DecodedSection &Sec);
};

} // namespace bbmap

#endif // BBMAP_DUMPER_MAPPRINTER_H
