//===- FdataReader.h - BOLT fdata profiles ----------------------*- C++ -*-===//
//-*-===//
//
// Reads BOLT's fdata profile text (what perf2bolt writes and
// `llvm-bolt --data` reads) into a BranchProfile: branch lines become
// Branch traces, sample lines of `no_lbr` files become Samples. Symbol
// names are turned into addresses by the caller, who owns the binary's
// symbol table.
//
// Threading: the reader keeps its state in the call: calls may run on several
// threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_FDATAREADER_H
#define BBMAP_PROFILE_FDATAREADER_H

#include "bbmap/Profile/BranchProfile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

/// An fdata file's records and what the model has no room for.
struct FdataProfile {
  BranchProfile Profile;
  /// The `boltedcollection` header: the profile was collected on a binary
  /// BOLT had already processed (its addresses are BOLTed addresses).
  bool BoltedCollection = false;
  /// Memory-access lines (location types 3, 4 and 5), checked and skipped.
  uint64_t MemoryRecords = 0;
  /// Symbol locations (types 1 and 2) whose name the resolver did not know,
  /// counted once per location; such an end is treated as external.
  uint64_t UnresolvedLocations = 0;
  /// Those names, each once, in the order first seen (unescaped).
  std::vector<std::string> UnresolvedNames;
};

/// Reader of fdata profiles.
///
/// Layout: optional header lines `no_lbr[ <event>...]` and
/// `boltedcollection`, then one record per line. A location is
/// `<type> <name> <hex offset>`; type 0 is a DSO or `[unknown]`, 1 a
/// global symbol, 2 a local symbol, 3 to 5 the same for memory lines.
///
///   branch  <loc> <loc> <mispreds> <count>  -> Trace, kind Branch
///   sample  <loc> <count>  (no_lbr files)   -> Sample
///   memory  <loc3-5> <loc3-5> <count>       -> counted in MemoryRecords
///
/// A symbol location's address is the resolver's address for the name plus
/// the offset. Names are passed to the resolver unescaped (`\ ` and `\\`
/// are the only escapes) and otherwise exactly as written: local symbols
/// keep their `name/file/N` or `name/N` spelling, and the resolver is
/// expected to know the binary's symbols under that spelling. A type 0
/// location, or a name the resolver does not know, is an external end
/// (FromExternal, ToExternal; the address is the offset as written). A
/// branch with neither end in the binary, and a sample outside it, are
/// skipped and counted in Skipped.Outside (BOLT ignores them too).
///
/// The headers are accepted in either order: BOLT's reader wants `no_lbr`
/// first, but perf2bolt in BAT mode writes `boltedcollection` first. Each
/// may appear once, before the first record. `no_lbr` clears HasBranches
/// and its event names go to Events. Fields are separated by runs of
/// spaces; a CR before the LF, a missing final LF and blank lines are
/// accepted (BOLT stops reading at a blank line). Counts are decimal, 0 to
/// 2^63-1. Records are kept in file order; fdata writers never repeat one.
class FdataReader {
public:
  /// Address of a symbol of the profiled binary, by its fdata name.
  using SymbolResolver =
      llvm::function_ref<std::optional<uint64_t>(llvm::StringRef Name)>;

  /// Reads the whole of Buffer. Errors read
  /// `<buffer identifier>:<line>: <what is wrong>`.
  static llvm::Expected<FdataProfile> read(llvm::MemoryBufferRef Buffer,
                                           SymbolResolver Resolve);
};

} // namespace bbmap

#endif // BBMAP_PROFILE_FDATAREADER_H
