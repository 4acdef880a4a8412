//===- LookupPrinter.h - look-up results as text or JSON --------*- C++ -*-===//
//
// bbmap-dump's two look-up output styles. A LookupPrinter writes the frame
// of each file to a stream; the results, printed a run of requests at a
// time (on any thread), go through ResultPrinters it forks, whose text the
// caller writes in order between beginFile and endFile.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMP_LOOKUPPRINTER_H
#define BBMAP_DUMP_LOOKUPPRINTER_H

#include "bbmap/Object/Lookup.h"
#include "bbmap/Support/OutputBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <memory>

namespace bbmap {

/// Prints the results of runs of requests.
class ResultPrinter {
public:
  virtual ~ResultPrinter();
  /// Entries[I] is what Index.find() returned for Requests[I].
  virtual void print(const AddressIndex &Index,
                     llvm::ArrayRef<LookupRequest> Requests,
                     llvm::ArrayRef<uint32_t> Entries) = 0;
};

using ResultPrinterFactory =
    std::function<std::unique_ptr<ResultPrinter>(TextPiece &Text)>;

class LookupPrinter {
public:
  virtual ~LookupPrinter();
  /// Writes the frame before a file's results and hands it to the stream.
  virtual void beginFile(llvm::StringRef File) = 0;
  /// Between beginFile and endFile: makes printers that write results to a
  /// text as this style would next, \p First telling whether they are the
  /// file's first. Holds copies of the printer's state only.
  virtual ResultPrinterFactory forkResults(bool First) const = 0;
  /// Tells the printer that forks printed results of the current file.
  virtual void resultsPrintedElsewhere() {}
  /// Writes the frame after a file's results and hands it to the stream.
  virtual void endFile() = 0;
};

/// Text: a header comment naming the file and the columns, then
/// "ADDRESS OFFSET RANGE ID START END FUNCTION" per request ("-" in every
/// column after the address when no block matches).
std::unique_ptr<LookupPrinter> createTextLookupPrinter(llvm::raw_ostream &OS);

/// JSON: an array (closed when the printer is destroyed) of one object
/// {"File": ..., "Lookups": [...]} per file, as llvm::json::OStream writes
/// it.
std::unique_ptr<LookupPrinter> createJSONLookupPrinter(llvm::raw_ostream &OS,
                                                       bool Pretty);

} // namespace bbmap

#endif // BBMAP_DUMP_LOOKUPPRINTER_H
