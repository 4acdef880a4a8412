//===- BATVerifier.cpp - consistency checks of a BAT table ----------------===//
//
// The checks of verifyBAT, one function per property. Duplicate function
// addresses and duplicate output offsets are reported as findings only
// where BOLT cannot produce them: deleted blocks legitimately give a BOLT
// 19/22 fragment several entries at one offset, at most the fragment size.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/BATVerifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include <map>

using namespace llvm;

namespace bbmap {

namespace {

class Verifier {
public:
  Verifier(const BATTable &T, ArrayRef<FunctionSymbol> Symbols)
      : T(T), Symbols(Symbols) {}

  std::vector<BATFinding> run();

private:
  void report(uint64_t Offset, const Twine &Msg) {
    Findings.push_back({Offset, Msg.str()});
  }
  const FunctionSymbol *symbolAt(uint64_t Address) const;
  void checkFunction(const BATFunction &F);
  void checkEntries(const BATFunction &F, const FunctionSymbol *Sym);
  void checkBlockIndices(const BATFunction &F);
  void checkColdLink(const BATColdLink &L);

  const BATTable &T;
  ArrayRef<FunctionSymbol> Symbols;
  /// Function address -> its first record, as BOLT keeps it. A std::map:
  /// addresses come from the file, and DenseMap reserves two values.
  std::map<uint64_t, const BATFunction *> ByAddress;
  std::vector<BATFinding> Findings;
};

const FunctionSymbol *Verifier::symbolAt(uint64_t Address) const {
  return bbmap::symbolAt(Symbols, Address);
}

std::vector<BATFinding> Verifier::run() {
  for (const BATFunction &F : T.Functions)
    if (!ByAddress.try_emplace(F.Address, &F).second)
      report(F.RecordOffset, "second table for the fragment at " +
                                 hex(F.Address) + " (BOLT keeps the first)");
  for (const BATFunction &F : T.Functions)
    checkFunction(F);
  std::map<uint64_t, uint64_t> Linked;
  for (const BATColdLink &L : T.ColdLinks) {
    if (!Linked.try_emplace(L.ColdAddress, L.HotAddress).second)
      report(L.RecordOffset, "second cold-to-hot link for " +
                                 hex(L.ColdAddress) +
                                 " (BOLT keeps the first)");
    checkColdLink(L);
  }
  return std::move(Findings);
}

void Verifier::checkFunction(const BATFunction &F) {
  const FunctionSymbol *Sym = symbolAt(F.Address);
  if (!Sym)
    report(F.RecordOffset,
           "table for " + hex(F.Address) + ": no function symbol starts there");
  checkEntries(F, Sym);
  if (T.Format == BATFormat::Delta)
    checkBlockIndices(F);
  for (size_t I = 1; I < F.SecondaryEntryPoints.size(); ++I)
    if (F.SecondaryEntryPoints[I] <= F.SecondaryEntryPoints[I - 1])
      report(F.RecordOffset, "table for " + hex(F.Address) +
                                 ": secondary entry points not ascending");
}

void Verifier::checkEntries(const BATFunction &F, const FunctionSymbol *Sym) {
  for (size_t I = 0; I < F.Entries.size(); ++I) {
    const BATEntry &E = F.Entries[I];
    // BOLT 19/22 map deleted blocks to the fragment's end.
    if (Sym && Sym->Size && E.OutputOffset > Sym->Size)
      report(F.RecordOffset,
             "table for " + hex(F.Address) + " (" + Sym->Name + "): entry " +
                 Twine(I) + " output offset " + hex(E.OutputOffset) +
                 " is past the function size " + hex(Sym->Size));
    if (I == 0)
      continue;
    uint64_t Prev = F.Entries[I - 1].OutputOffset;
    bool Duplicate = E.OutputOffset == Prev && T.Format == BATFormat::Fixed;
    if (E.OutputOffset < Prev || Duplicate)
      report(F.RecordOffset, "table for " + hex(F.Address) + ": entry " +
                                 Twine(I) + " output offset " +
                                 hex(E.OutputOffset) + " is not above " +
                                 hex(Prev));
  }
}

void Verifier::checkBlockIndices(const BATFunction &F) {
  uint64_t Home = F.ParentAddress.value_or(F.Address);
  auto It = ByAddress.find(Home);
  if (It == ByAddress.end() || It->second->isCold())
    return; // Reported with the cold link.
  uint64_t NumBlocks = It->second->NumBlocks;
  for (size_t I = 0; I < F.Entries.size(); ++I) {
    const BATEntry &E = F.Entries[I];
    // Blocks BOLT created have hash 0 and index 0.
    if (E.IsBranch || E.BBHash == 0 || E.BBIndex < NumBlocks)
      continue;
    report(F.RecordOffset, "table for " + hex(F.Address) + ": entry " +
                               Twine(I) + " block index " + Twine(E.BBIndex) +
                               " is not below the function's " +
                               Twine(NumBlocks) + " blocks");
  }
}

void Verifier::checkColdLink(const BATColdLink &L) {
  auto Cold = ByAddress.find(L.ColdAddress);
  if (Cold == ByAddress.end())
    report(L.RecordOffset, "cold-to-hot link " + hex(L.ColdAddress) + " -> " +
                               hex(L.HotAddress) +
                               ": no table for the cold fragment");
  auto Hot = ByAddress.find(L.HotAddress);
  if (Hot == ByAddress.end())
    report(L.RecordOffset, "cold-to-hot link " + hex(L.ColdAddress) + " -> " +
                               hex(L.HotAddress) +
                               ": no table for the hot fragment");
  else if (Hot->second->isCold())
    report(L.RecordOffset, "cold-to-hot link " + hex(L.ColdAddress) + " -> " +
                               hex(L.HotAddress) +
                               ": the parent is itself a cold fragment");
  if (!symbolAt(L.HotAddress))
    report(L.RecordOffset, "cold-to-hot link " + hex(L.ColdAddress) + " -> " +
                               hex(L.HotAddress) +
                               ": no function symbol at the parent");
}

} // namespace

std::vector<BATFinding> verifyBAT(const BATTable &T,
                                  ArrayRef<FunctionSymbol> Symbols,
                                  BATVerifyStats *Stats) {
  if (Stats) {
    Stats->Fragments = T.Functions.size();
    Stats->Entries = 0;
    for (const BATFunction &F : T.Functions)
      Stats->Entries += F.Entries.size();
    Stats->ColdLinks = T.ColdLinks.size();
  }
  return Verifier(T, Symbols).run();
}

} // namespace bbmap
