//===- BATTranslator.cpp - BOLTed address to input offset -----------------===//
//
// BATTranslator keeps one sorted entry array per fragment (boltOrder) so a
// translation is two binary searches (fragment, then entry). With BOLT
// 19/22's duplicate output offsets, upper_bound then one step back lands on
// the last entry at an offset, as in BOLT's std::multimap.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/BATTranslator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace bbmap {

Expected<TranslateRequest> parseTranslateRequest(StringRef Text) {
  TranslateRequest R;
  auto [AddrText, Kind] = Text.split(':');
  if (!Kind.empty()) {
    if (Kind != "from")
      return createStringError(inconvertibleErrorCode(),
                               "'" + Text + "': expected ADDR or ADDR:from");
    R.IsBranchSource = true;
  }
  AddrText.consume_front("0x") || AddrText.consume_front("0X");
  if (AddrText.empty() || AddrText.getAsInteger(16, R.Address))
    return createStringError(inconvertibleErrorCode(),
                             "'" + Text +
                                 "': not a hexadecimal address (ADDR or "
                                 "ADDR:from)");
  return R;
}

BATTranslator::BATTranslator(const BATTable &Table,
                             std::vector<FunctionSymbol> Syms)
    : Symbols(std::move(Syms)) {
  for (const BATFunction *F : boltOrder(Table)) {
    SortedMap &M = Maps.emplace_back();
    M.Address = F->Address;
    M.Function = F;
    M.Entries = boltOrder(*F, Table.Format);
    for (const BATEntry *E : M.Entries)
      M.OutputOffsets.push_back(E->OutputOffset);
  }
  for (const BATColdLink &L : Table.ColdLinks)
    Parents.emplace_back(L.ColdAddress, L.HotAddress);
  llvm::stable_sort(
      Parents, [](const auto &A, const auto &B) { return A.first < B.first; });
}

const BATTranslator::SortedMap *
BATTranslator::sortedAt(uint64_t Address) const {
  auto It = llvm::partition_point(
      Maps, [&](const SortedMap &M) { return M.Address < Address; });
  return It != Maps.end() && It->Address == Address ? &*It : nullptr;
}

const BATFunction *BATTranslator::tableAt(uint64_t Address) const {
  const SortedMap *M = sortedAt(Address);
  return M ? M->Function : nullptr;
}

std::optional<uint64_t> BATTranslator::parentOf(uint64_t Address) const {
  auto It = llvm::partition_point(
      Parents, [&](const auto &P) { return P.first < Address; });
  if (It == Parents.end() || It->first != Address)
    return std::nullopt;
  return It->second;
}

uint64_t BATTranslator::translate(uint64_t FragmentAddress, uint64_t Offset,
                                  bool IsBranchSource,
                                  const BATEntry **Used) const {
  if (Used)
    *Used = nullptr;
  const SortedMap *M = sortedAt(FragmentAddress);
  if (!M)
    return Offset;
  size_t Next =
      llvm::upper_bound(M->OutputOffsets, Offset) - M->OutputOffsets.begin();
  if (Next == 0)
    return Offset;
  const BATEntry &E = *M->Entries[Next - 1];
  if (Used)
    *Used = &E;
  if (IsBranchSource)
    return E.InputOffset;
  return Offset - E.OutputOffset + E.InputOffset;
}

const FunctionSymbol *BATTranslator::symbolAt(uint64_t Address) const {
  return bbmap::symbolAt(Symbols, Address);
}

const FunctionSymbol *BATTranslator::symbolContaining(uint64_t Address) const {
  auto It = llvm::partition_point(
      Symbols, [&](const FunctionSymbol &S) { return S.Address <= Address; });
  if (It == Symbols.begin())
    return nullptr;
  const FunctionSymbol *S = symbolAt(std::prev(It)->Address);
  return Address < S->SectionEnd ? S : nullptr;
}

BATTranslation
BATTranslator::translateAddress(const TranslateRequest &R) const {
  BATTranslation T;
  T.Fragment = symbolContaining(R.Address);
  if (!T.Fragment)
    return T;
  uint64_t Fragment = T.Fragment->Address;
  T.Map = tableAt(Fragment);
  T.InputOffset =
      translate(Fragment, R.Address - Fragment, R.IsBranchSource, &T.Entry);
  T.FunctionAddress = parentOf(Fragment).value_or(Fragment);
  T.Function = symbolAt(T.FunctionAddress);
  return T;
}

} // namespace bbmap
