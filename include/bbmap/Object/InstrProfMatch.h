//===- InstrProfMatch.h - instrumentation profile vs binary -----*- C++ -*-===//
//
// Ties an instrumentation profile (InstrProfile) to a linked ELF file: its
// binary IDs against the file's GNU build ID, and its function records
// against the file's function symbols by PGO name (`name` for a global
// function, `file;name` for a local one, the file as the compiler was given
// it) or, for a record that carries only the name's MD5, by the MD5 of the
// names the symbol could have. `bbmap-dump --instr-profile --binary` prints
// the result; docs/instrprof.md gives the rules.
//
// Threading: the functions only read their inputs: calls may run on several
// threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_INSTRPROFMATCH_H
#define BBMAP_OBJECT_INSTRPROFMATCH_H

#include "bbmap/InstrProf/InstrProfile.h"
#include "bbmap/Object/BATReader.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <string>
#include <vector>

namespace bbmap {

/// How the profile's binary IDs compare with the file's build ID.
enum class BinaryIDMatch {
  /// The file's build ID is among the profile's binary IDs.
  Match,
  /// Both have IDs, none equal.
  Mismatch,
  /// The profile carries no binary ID (indexed profiles of older versions,
  /// a program linked without a build ID).
  ProfileHasNone,
  /// The file has no build ID.
  BinaryHasNone,
};

/// A profile record and the function symbol it names, if any.
struct RecordMatch {
  /// Index into InstrProfile::Functions.
  size_t Record = 0;
  /// Index into the symbols given to matchInstrProfile, when found.
  std::optional<size_t> Symbol;
};

struct InstrProfMatch {
  BinaryIDMatch ID = BinaryIDMatch::ProfileHasNone;
  /// One per record, in record order.
  std::vector<RecordMatch> Records;
  /// Indexes of the symbols no record names, in address order.
  std::vector<size_t> SymbolsWithoutRecord;

  size_t matchedRecords() const;
};

/// The PGO name of \p S: its name, prefixed with `File;` for a local
/// function whose file is known.
std::string pgoName(const FunctionSymbol &S);

/// Compares \p Profile with a file whose build ID is \p BuildID (lower-case
/// hexadecimal, empty without one) and whose function symbols are
/// \p Symbols.
InstrProfMatch matchInstrProfile(const InstrProfile &Profile,
                                 llvm::StringRef BuildID,
                                 llvm::ArrayRef<FunctionSymbol> Symbols);

} // namespace bbmap

#endif // BBMAP_OBJECT_INSTRPROFMATCH_H
