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
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace bbmap {

struct LookupRequest {
  uint64_t Address = 0;
  LookupSide Side = LookupSide::From;
};

/// Parses one "ADDR[:from|:to]".
llvm::Expected<LookupRequest> parseLookupRequest(llvm::StringRef Text);

/// Appends the requests of a look-up file: one per line, blank lines and
/// lines starting with '#' skipped. Errors name the line.
llvm::Error parseLookupFile(llvm::StringRef Contents,
                            std::vector<LookupRequest> &Requests);

/// Resolves every request; results are parallel to \p Requests.
std::vector<std::optional<BlockMatch>>
resolveAll(const AddressIndex &Index, llvm::ArrayRef<LookupRequest> Requests);

/// Prints results as text: a header comment naming \p File and the columns,
/// then "ADDRESS RANGE ID START END OFFSET FUNCTION" per request ("-" in
/// every column after the address when nothing covers it).
void printLookupText(llvm::raw_ostream &OS, llvm::StringRef File,
                     llvm::ArrayRef<LookupRequest> Requests,
                     llvm::ArrayRef<std::optional<BlockMatch>> Results);

/// Writes results as one JSON object {"File": ..., "Lookups": [...]}.
void printLookupJSON(llvm::json::OStream &J, llvm::StringRef File,
                     llvm::ArrayRef<LookupRequest> Requests,
                     llvm::ArrayRef<std::optional<BlockMatch>> Results);

} // namespace bbmap

#endif // BBMAP_DUMPER_LOOKUP_H
