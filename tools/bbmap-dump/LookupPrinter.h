//===- LookupPrinter.h - look-up results as text or JSON --------*- C++ -*-===//
//
// bbmap-dump's two look-up output styles.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMP_LOOKUPPRINTER_H
#define BBMAP_DUMP_LOOKUPPRINTER_H

#include "bbmap/Object/Lookup.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

namespace bbmap {

/// Text: a header comment naming the file and the columns, then
/// "ADDRESS OFFSET RANGE ID START END FUNCTION" per request ("-" in every
/// column after the address when no block matches).
std::unique_ptr<LookupPrinter> createTextLookupPrinter(llvm::raw_ostream &OS);

/// JSON: an array (closed when the printer is destroyed) of one object
/// {"File": ..., "Lookups": [...]} per file.
std::unique_ptr<LookupPrinter> createJSONLookupPrinter(llvm::raw_ostream &OS,
                                                       bool Pretty);

} // namespace bbmap

#endif // BBMAP_DUMP_LOOKUPPRINTER_H
