//===- dumper/Lookup.h - address look-up requests and results ---*- C++ -*-===//
//
// The --lookup / --lookup-file side of bbmap-dump: parses addresses
// ("ADDR[:from|:to]", hexadecimal, 0x optional), resolves them through an
// AddressIndex and prints one line (or JSON object) per address.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_LOOKUP_H
#define BBMAP_DUMPER_LOOKUP_H

#include "AddressIndex.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <vector>

namespace bbmap {

struct LookupRequest {
  uint64_t Address = 0;
  LookupSide Side = LookupSide::From;
};

/// Parses one "ADDR[:from|:to]".
llvm::Expected<LookupRequest> parseLookupRequest(llvm::StringRef Text);

/// Calls \p OnLine with each line of an address file, trimmed; blank lines
/// and lines starting with '#' are skipped. An error \p OnLine returns is
/// prefixed with "line N: " and stops the scan.
llvm::Error
forEachAddressLine(llvm::StringRef Contents,
                   llvm::function_ref<llvm::Error(llvm::StringRef)> OnLine);

/// Appends the requests of a look-up file: one per line, blank lines and
/// lines starting with '#' skipped. Errors name the line.
llvm::Error parseLookupFile(llvm::StringRef Contents,
                            std::vector<LookupRequest> &Requests);

/// Prints look-up results, file by file, in chunks.
class LookupPrinter {
public:
  virtual ~LookupPrinter();
  virtual void beginFile(llvm::StringRef File) = 0;
  /// Entries[I] is what Index.find() returned for Requests[I].
  virtual void print(const AddressIndex &Index,
                     llvm::ArrayRef<LookupRequest> Requests,
                     llvm::ArrayRef<uint32_t> Entries) = 0;
  virtual void endFile() = 0;
};

/// Text: a header comment naming the file and the columns, then
/// "ADDRESS OFFSET RANGE ID START END FUNCTION" per request ("-" in every
/// column after the address when no block matches).
std::unique_ptr<LookupPrinter> createTextLookupPrinter(llvm::raw_ostream &OS);

/// JSON: an array (closed when the printer is destroyed) of one object
/// {"File": ..., "Lookups": [...]} per file.
std::unique_ptr<LookupPrinter> createJSONLookupPrinter(llvm::raw_ostream &OS,
                                                       bool Pretty);

struct LookupStats {
  size_t Found = 0;
  /// Time spent in look-ups only, without printing.
  double LookupSeconds = 0;
};

/// Resolves and prints every request for one file, a chunk at a time so
/// that memory does not grow with the number of requests.
LookupStats lookupAll(const AddressIndex &Index,
                      llvm::ArrayRef<LookupRequest> Requests,
                      llvm::StringRef File, LookupPrinter &Printer);

} // namespace bbmap

#endif // BBMAP_DUMPER_LOOKUP_H
