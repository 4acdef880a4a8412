//===- LayoutCheck.cpp - does a rebuilt binary have its layout? -----------===//
//
// The map's ranges are the function's sections in the order the map lists
// them: the first is the section at the function's symbol. Cluster blocks
// are compared by their block IDs (a clone has its block's ID in the map).
// A symbol of the order is at the lowest address of that name (local
// symbols of one name in several files are placed together by lld).
//
//===----------------------------------------------------------------------===//

#include "bbmap/Layout/LayoutCheck.h"
#include "CodeSymbols.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace bbmap {

namespace {

using FunctionsByName = StringMap<std::vector<const FunctionMap *>>;
using RangeIDs = std::vector<std::vector<uint32_t>>;

FunctionsByName functionsByName(const MappedBinary &Binary) {
  FunctionsByName ByName;
  for (const DecodedSection &S : Binary.sections())
    for (size_t I = 0; I < S.Functions.size(); ++I)
      ByName[S.Names[I]].push_back(&S.Functions[I]);
  return ByName;
}

/// The block IDs of every function of \p Name in \p Functions.
AnyKeySet<uint32_t> knownIDs(const FunctionsByName &Functions, StringRef Name) {
  AnyKeySet<uint32_t> IDs;
  auto It = Functions.find(Name);
  if (It != Functions.end())
    for (const FunctionMap *F : It->second)
      for (const BlockRange &R : F->Ranges)
        for (const BlockEntry &B : R.Blocks)
          IDs.insert(B.ID);
  return IDs;
}

/// \p F's block IDs per range; with \p Known, only those in it, the others
/// counted in \p Added.
RangeIDs rangeIDs(const FunctionMap &F, const AnyKeySet<uint32_t> *Known,
                  unsigned &Added) {
  RangeIDs Ranges;
  for (const BlockRange &R : F.Ranges) {
    std::vector<uint32_t> IDs;
    for (const BlockEntry &B : R.Blocks) {
      if (Known && !Known->contains(B.ID))
        ++Added;
      else
        IDs.push_back(B.ID);
    }
    Ranges.push_back(std::move(IDs));
  }
  return Ranges;
}

uint64_t paddingOf(const BlockRange &R) {
  uint64_t Padding = 0;
  for (size_t I = 1; I < R.Blocks.size(); ++I) {
    uint64_t End = uint64_t(R.Blocks[I - 1].Offset) + R.Blocks[I - 1].Size;
    if (R.Blocks[I].Offset > End)
      Padding += R.Blocks[I].Offset - End;
  }
  return Padding;
}

std::vector<uint32_t> idsOf(ArrayRef<ClusterBlock> Cluster) {
  std::vector<uint32_t> IDs;
  for (const ClusterBlock &B : Cluster)
    IDs.push_back(B.ID);
  return IDs;
}

/// Compares \p Ranges with \p Clusters (block IDs) into \p C.
void compareRanges(const RangeIDs &Ranges, const RangeIDs &Clusters,
                   FunctionCheck &C) {
  C.Wanted = Clusters.empty() ? std::vector<uint32_t>() : Clusters.front();
  C.Got = Ranges.front();
  C.OtherRanges = Ranges.size() - 1;
  std::vector<bool> Taken(Ranges.size());
  Taken[0] = true;
  for (size_t K = 1; K < Clusters.size(); ++K) {
    bool Found = false;
    for (size_t J = 1; J < Ranges.size() && !Found; ++J)
      if (!Taken[J] && Ranges[J] == Clusters[K])
        Taken[J] = Found = true;
    C.LaterClustersRealized &= Found;
  }
  AnyKeySet<uint32_t> Clustered;
  for (const std::vector<uint32_t> &Cluster : Clusters)
    Clustered.insert(Cluster.begin(), Cluster.end());
  for (size_t J = 1; J < Ranges.size(); ++J)
    if (!Taken[J] && llvm::any_of(Ranges[J], [&](uint32_t ID) {
          return Clustered.contains(ID);
        }))
      C.ColdHoldsClustered = true;
}

/// The check of one `f` line; \p Used: the rebuilt functions taken by the
/// `f` lines before it.
FunctionCheck checkFunction(const ClusterFunction &Want,
                            const FunctionsByName &Rebuilt,
                            const FunctionsByName *Profiled,
                            SmallPtrSetImpl<const FunctionMap *> &Used,
                            unsigned &Added) {
  FunctionCheck C;
  C.Name = Want.Names.front();
  RangeIDs Clusters;
  for (const std::vector<ClusterBlock> &Cluster : Want.Clusters)
    Clusters.push_back(idsOf(Cluster));
  std::vector<std::pair<const FunctionMap *, StringRef>> Candidates;
  for (const std::string &Name : Want.Names) {
    auto It = Rebuilt.find(Name);
    if (It != Rebuilt.end())
      for (const FunctionMap *F : It->second)
        if (!Used.contains(F))
          Candidates.push_back({F, It->first()});
  }
  if (Candidates.empty())
    return C;
  C.Found = true;
  std::optional<std::pair<const FunctionMap *, RangeIDs>> Chosen;
  unsigned ChosenAdded = 0;
  for (const auto &[F, Name] : Candidates) {
    AnyKeySet<uint32_t> Known;
    if (Profiled)
      Known = knownIDs(*Profiled, Name);
    unsigned FAdded = 0;
    RangeIDs Ranges = rangeIDs(*F, Profiled ? &Known : nullptr, FAdded);
    bool Matches = !Clusters.empty() && Ranges.front() == Clusters.front();
    if (!Chosen || Matches) {
      Chosen = {F, std::move(Ranges)};
      ChosenAdded = FAdded;
    }
    if (Matches)
      break;
  }
  Used.insert(Chosen->first);
  Added += ChosenAdded;
  compareRanges(Chosen->second, Clusters, C);
  C.Padding = paddingOf(Chosen->first->Ranges.front());
  return C;
}

} // namespace

unsigned LayoutCheckResult::differences() const {
  unsigned N = !InOrder + Unwind.FDEs;
  for (const FunctionCheck &F : Functions)
    N += !F.realized();
  return N;
}

uint64_t LayoutCheckResult::padding() const {
  uint64_t Sum = 0;
  for (const FunctionCheck &F : Functions)
    Sum += F.Padding;
  return Sum;
}

Expected<LayoutCheckResult> checkLayout(const ClusterProfile &Profile,
                                        ArrayRef<std::string> SymbolOrder,
                                        const MappedBinary &Rebuilt,
                                        const MappedBinary *Profiled) {
  LayoutCheckResult Result;
  Expected<HiddenFrames> Unwind =
      hiddenFrames(Rebuilt.object(), Result.Warnings);
  if (!Unwind)
    return Unwind.takeError();
  FunctionsByName RebuiltFunctions = functionsByName(Rebuilt);
  std::optional<FunctionsByName> ProfiledFunctions;
  if (Profiled)
    ProfiledFunctions = functionsByName(*Profiled);
  Result.Unwind = *Unwind;
  SmallPtrSet<const FunctionMap *, 16> Used;
  unsigned Added = 0;
  for (const ClusterFunction &F : Profile.Functions)
    Result.Functions.push_back(checkFunction(
        F, RebuiltFunctions, ProfiledFunctions ? &*ProfiledFunctions : nullptr,
        Used, Added));
  if (Profiled)
    Result.AddedBlocks = Added;
  if (SymbolOrder.empty())
    return Result;
  StringMap<uint64_t> Lowest;
  forEachCodeSymbol(Rebuilt.object(), Result.Warnings,
                    [&](StringRef Name, uint64_t Address) {
                      auto [It, New] = Lowest.try_emplace(Name, Address);
                      if (!New)
                        It->second = std::min(It->second, Address);
                    });
  std::vector<uint64_t> Starts;
  for (const std::string &Name : SymbolOrder) {
    auto It = Lowest.find(Name);
    if (It != Lowest.end())
      Starts.push_back(It->second);
  }
  Result.OrderedSymbols = Starts.size();
  Result.InOrder = llvm::is_sorted(Starts);
  return Result;
}

} // namespace bbmap
