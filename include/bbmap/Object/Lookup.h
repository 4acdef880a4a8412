//===- Lookup.h - address look-up requests and results ----------*- C++ -*-===//
//
// Address look-ups (bbmap-dump --lookup / --lookup-file): parses addresses
// ("ADDR[:from|:to]", hexadecimal, 0x optional), resolves them through an
// AddressIndex and hands the results to a printer the tool supplies.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_LOOKUP_H
#define BBMAP_OBJECT_LOOKUP_H

#include "bbmap/Object/AddressIndex.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace bbmap {

struct LookupRequest {
  uint64_t Address = 0;
  LookupSide Side = LookupSide::From;
};

/// Parses one "ADDR[:from|:to]".
llvm::Expected<LookupRequest> parseLookupRequest(llvm::StringRef Text);

/// Hands \p OnAddress each address request of a run, in order: the
/// command-line texts \p Texts, then each line of \p File (if not empty;
/// "-" is stdin), trimmed, skipping blank lines and lines starting with '#'.
/// Errors from a file line name the file and the line. Serves --lookup-file
/// and --translate-file alike.
llvm::Error
readAddressRequests(llvm::ArrayRef<std::string> Texts, llvm::StringRef File,
                    llvm::function_ref<llvm::Error(llvm::StringRef)> OnAddress);

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

#endif // BBMAP_OBJECT_LOOKUP_H
