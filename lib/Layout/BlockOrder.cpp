//===- BlockOrder.cpp - a layout as a linker's order of blocks ------------===//
//
// A section is named by the symbol at its start: the function's own for
// its first range, `NAME.__part.N` (or `NAME.cold`) for the others, found
// among the binary's STT_FUNC and STT_NOTYPE symbols. A section is placed
// where its first hot block comes in the order; the laid-out functions'
// other sections follow all hot ones, so that code the profile did not see
// stays out of the hot region.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Layout/BlockOrder.h"
#include "CodeSymbols.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Transforms/Utils/CodeLayout.h"

using namespace llvm;

namespace bbmap {

namespace {

using SymbolsByAddress = AnyKeyMap<uint64_t, SmallVector<StringRef, 2>>;

/// The code symbols of \p Obj by address (CodeSymbols.h).
SymbolsByAddress codeSymbols(const object::ELFObjectFileBase &Obj,
                             WarningList &Warnings) {
  SymbolsByAddress Symbols;
  forEachCodeSymbol(Obj, Warnings, [&](StringRef Name, uint64_t Address) {
    Symbols[Address].push_back(Name);
  });
  return Symbols;
}

/// Where a block of a laid-out function is: its range, address and size.
struct BlockPlace {
  uint32_t Range = 0;
  uint64_t Address = 0;
  uint64_t Size = 0;
};

/// One laid-out function's sections in the binary.
struct FunctionSections {
  /// Per block ID, its place; per range, its symbol (empty: none).
  AnyKeyMap<uint32_t, BlockPlace> Blocks;
  std::vector<std::string> Symbols;
};

FunctionSections sectionsOf(const FunctionLayout &L, const MappedBinary &Binary,
                            const SymbolsByAddress &Symbols) {
  FunctionSections S;
  const AddressIndex &Index = Binary.index();
  uint32_t Entry = Index.find(L.Address, LookupSide::To);
  if (Entry == AddressIndex::NotFound)
    return S;
  const FunctionMap &F = Index.match(Entry).function();
  std::string Part = L.Name + ".";
  for (uint32_t R = 0; R < F.Ranges.size(); ++R) {
    for (const BlockEntry &B : F.Ranges[R].Blocks)
      S.Blocks[B.ID] = {R, F.Ranges[R].BaseAddress + B.Offset, B.Size};
    std::string Name = R == 0 ? L.Name : "";
    auto It = Symbols.find(F.Ranges[R].BaseAddress);
    if (R != 0 && It != Symbols.end())
      for (StringRef Candidate : It->second)
        if (Candidate.starts_with(Part))
          Name = Candidate.str();
    S.Symbols.push_back(std::move(Name));
  }
  return S;
}

/// A hot block: the index of its function in the layout, and its ID.
using HotBlock = std::pair<uint32_t, uint32_t>;

/// The hot blocks of \p Layout, function by function in layout order.
std::vector<HotBlock> functionOrder(ArrayRef<FunctionLayout> Layout) {
  std::vector<HotBlock> Blocks;
  for (uint32_t I = 0; I < Layout.size(); ++I)
    for (uint32_t ID : Layout[I].HotBlocks)
      Blocks.push_back({I, ID});
  return Blocks;
}

/// The hot blocks of \p Layout in one ext-TSP order over the program: the
/// layout's edges within functions and the profile's calls.
std::vector<HotBlock> programOrder(ArrayRef<FunctionLayout> Layout,
                                   ArrayRef<FunctionSections> Sections,
                                   const BlockProfile &P,
                                   const MappedBinary &Binary) {
  std::vector<HotBlock> Nodes = functionOrder(Layout);
  // DenseMap reserves pairs of reserved halves: no function index is one.
  DenseMap<HotBlock, uint64_t> NodeOf;
  for (uint64_t N = 0; N < Nodes.size(); ++N)
    NodeOf[Nodes[N]] = N;
  std::vector<uint64_t> Sizes(Nodes.size()), Counts(Nodes.size());
  std::vector<codelayout::EdgeCount> Edges;
  AnyKeyMap<uint64_t, uint32_t> FunctionAt;
  for (uint32_t I = 0; I < Layout.size(); ++I) {
    FunctionAt[Layout[I].Address] = I;
    for (const BlockFlow &B : Layout[I].Flow) {
      auto From = NodeOf.find({I, B.ID});
      if (From == NodeOf.end())
        continue;
      Counts[From->second] = B.Count;
      for (const auto &[Succ, Count] : B.Successors) {
        auto To = NodeOf.find({I, Succ});
        if (To != NodeOf.end())
          Edges.push_back({From->second, To->second, Count});
      }
    }
  }
  for (uint64_t N = 0; N < Nodes.size(); ++N)
    Sizes[N] = Sections[Nodes[N].first].Blocks.lookup(Nodes[N].second).Size;
  const AddressIndex &Index = Binary.index();
  for (const auto &[Key, C] : P.Calls) {
    uint32_t Site = Index.find(Key.Site, LookupSide::From);
    auto Callee = FunctionAt.find(Key.Callee);
    if (Site == AddressIndex::NotFound || Callee == FunctionAt.end())
      continue;
    BlockMatch M = Index.match(Site);
    auto Caller = FunctionAt.find(M.function().address());
    if (Caller == FunctionAt.end())
      continue;
    auto From = NodeOf.find({Caller->second, M.ID});
    auto To =
        NodeOf.find({Callee->second, Layout[Callee->second].HotBlocks.front()});
    if (From != NodeOf.end() && To != NodeOf.end())
      Edges.push_back({From->second, To->second, C.Count});
  }
  std::vector<HotBlock> Ordered;
  for (uint64_t N : codelayout::computeExtTspLayout(Sizes, Counts, Edges))
    Ordered.push_back(Nodes[N]);
  return Ordered;
}

} // namespace

BlockOrder blockOrder(ArrayRef<FunctionLayout> Layout, const BlockProfile &P,
                      const MappedBinary &Binary, BlockOrderScope Scope) {
  BlockOrder Order;
  SymbolsByAddress Symbols = codeSymbols(Binary.object(), Order.Warnings);
  std::vector<FunctionSections> Sections;
  for (const FunctionLayout &L : Layout)
    Sections.push_back(sectionsOf(L, Binary, Symbols));
  std::vector<HotBlock> Hot = Scope == BlockOrderScope::Program
                                  ? programOrder(Layout, Sections, P, Binary)
                                  : functionOrder(Layout);
  StringSet<> Written;
  // (function, range) of the sections placed with the hot blocks.
  DenseSet<std::pair<uint32_t, uint32_t>> HotSections;
  auto Place = [&](uint32_t F, uint32_t Range) {
    const std::string &Name = Sections[F].Symbols[Range];
    if (Name.empty())
      ++Order.Unnamed;
    else if (Written.insert(Name).second)
      Order.Symbols.push_back(Name);
  };
  // A section the order leaves and comes back to, or whose blocks it wants
  // in another order than the section's, holds blocks the order cannot
  // place (a stub that AArch64's branch relaxation adds right after its
  // block is no such case).
  DenseSet<std::pair<uint32_t, uint32_t>> Split;
  std::optional<std::pair<uint32_t, uint32_t>> Previous;
  uint64_t PreviousAddress = 0;
  for (const auto &[F, ID] : Hot) {
    auto Block = Sections[F].Blocks.find(ID);
    if (Block == Sections[F].Blocks.end())
      continue;
    std::pair<uint32_t, uint32_t> Key = {F, Block->second.Range};
    if (HotSections.insert(Key).second)
      Place(F, Key.second);
    else if (Previous != Key || Block->second.Address < PreviousAddress)
      Split.insert(Key);
    Previous = Key;
    PreviousAddress = Block->second.Address;
  }
  Order.SharedSections = Split.size();
  for (const DecodedSection &Section : Binary.sections())
    for (const FunctionMap &F : Section.Functions)
      for (const BlockRange &R : F.Ranges)
        Order.EmptySections += llvm::all_of(
            R.Blocks, [](const BlockEntry &B) { return B.Size == 0; });
  for (uint32_t F = 0; F < Sections.size(); ++F)
    for (uint32_t R = 0; R < Sections[F].Symbols.size(); ++R)
      if (!HotSections.contains({F, R}))
        Place(F, R);
  return Order;
}

void writeBlockOrder(const BlockOrder &Order, raw_ostream &OS) {
  for (const std::string &Name : Order.Symbols)
    OS << Name << "\n";
}

} // namespace bbmap
