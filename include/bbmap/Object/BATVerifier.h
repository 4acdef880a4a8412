//===- BATVerifier.h - consistency checks of a BAT table --------*- C++ -*-===//
//
// verifyBAT() checks a decoded table against the BOLTed binary's function
// symbols: every fragment starts at a function, every output offset lies
// within the fragment, entries are in output order, cold-to-hot links name
// a cold fragment and a hot parent in the table, block indices stay below
// the parent's block count. It returns findings rather than printing, so
// a shared --verify driver can report them with the map checks.
//
// Threading: verifyBAT keeps no state: calls may run on several threads at
// once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_BATVERIFIER_H
#define BBMAP_OBJECT_BATVERIFIER_H

#include "bbmap/BAT/BATDecoder.h"
#include "bbmap/Object/BATReader.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace bbmap {

/// One problem, at an offset of the note's section.
struct BATFinding {
  uint64_t Offset = 0;
  std::string Message;
};

/// What was checked, for the summary line.
struct BATVerifyStats {
  size_t Fragments = 0;
  size_t Entries = 0;
  size_t ColdLinks = 0;
};

/// Checks \p T against \p Symbols (sorted by address, as functionSymbols()
/// returns them). Findings are in table order.
std::vector<BATFinding> verifyBAT(const BATTable &T,
                                  llvm::ArrayRef<FunctionSymbol> Symbols,
                                  BATVerifyStats *Stats = nullptr);

} // namespace bbmap

#endif // BBMAP_OBJECT_BATVERIFIER_H
