//===- Lookup.h - address look-up requests and results ----------*- C++ -*-===//
//
// Address look-ups (what bbmap-dump --lookup prints): parses addresses
// ("ADDR[:from|:to]", hexadecimal, 0x optional), a whole file at a time,
// and resolves them through an AddressIndex.
//
// Threading: the functions keep no state (parseLookupLines runs on the threads
// it is given); findAll only reads the index.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_LOOKUP_H
#define BBMAP_OBJECT_LOOKUP_H

#include "bbmap/Object/AddressIndex.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
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

/// Appends to \p Requests the requests of \p Texts, then those of each line
/// of \p File (if not empty; "-" is stdin), as readAddressRequests reads
/// them, with the same errors. The file is parsed in chunks on \p Threads
/// threads (0: the machine's hardware threads); the requests and the error
/// (the first bad line's) are the same for every thread count.
llvm::Error readLookupRequests(llvm::ArrayRef<std::string> Texts,
                               llvm::StringRef File,
                               std::vector<LookupRequest> &Requests,
                               unsigned Threads);

/// What readAddressRequests does with the lines of \p Contents, the text
/// of \p File.
llvm::Error
forEachAddressLine(llvm::StringRef Contents, llvm::StringRef File,
                   llvm::function_ref<llvm::Error(llvm::StringRef)> OnAddress);

/// What readLookupRequests does with the lines of \p Contents, the text of
/// \p File, cut into chunks of at least \p MinChunkBytes.
llvm::Error parseLookupLines(llvm::StringRef Contents, llvm::StringRef File,
                             std::vector<LookupRequest> &Requests,
                             unsigned Threads, size_t MinChunkBytes = 1 << 16);

/// Looks up every request: Entries[I] is what Index.find() returns for
/// Requests[I]. Prefetches a few requests ahead. Returns how many were
/// found.
size_t findAll(const AddressIndex &Index,
               llvm::ArrayRef<LookupRequest> Requests, uint32_t *Entries);

} // namespace bbmap

#endif // BBMAP_OBJECT_LOOKUP_H
