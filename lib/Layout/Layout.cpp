//===- Layout.cpp - code layout from a block profile ----------------------===//
//
// Block order: ext-TSP over the blocks of the function (all its ranges)
// that ran often enough to be in its hot cluster, the entry block as node
// 0 so that it stays first; the cluster is the blocks in that order.
// Function order (LayoutOptions::Order): by default the cache-directed sort
// over the profiled functions, with the call counts and call-site offsets
// of the profile. Functions whose records mostly do not fit their blocks
// take no part in either. Each function's block order, the function order
// and the compile units of functions that share a name are independent
// items on the threads (the largest first).
//
//===----------------------------------------------------------------------===//

#include "bbmap/Layout/Layout.h"
#include "bbmap/Format.h"
#include "bbmap/Layout/ClusterProfile.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/DebugInfo/DWARF/DWARFCompileUnit.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/CodeLayout.h"
#include <limits>
#include <map>
#include <numeric>

using namespace llvm;

namespace bbmap {

namespace {

/// The node of entry \p E among \p Nodes, which lists the function's
/// entries with its entry block first and the rest ascending.
uint64_t nodeOf(ArrayRef<uint32_t> Nodes, uint32_t E) {
  if (Nodes.front() == E)
    return 0;
  return llvm::lower_bound(Nodes.drop_front(), E) - Nodes.begin();
}

/// Some of the blocks \p Entries ends in an indirect branch (a jump table
/// on AArch64: its targets stay in the jump's section).
bool anyIndirectBranch(ArrayRef<uint32_t> Entries, const AddressIndex &Index) {
  return llvm::any_of(Entries, [&](uint32_t E) {
    return Index.match(E).block().has(metadata::HasIndirectBranch);
  });
}

/// Appends to \p Cluster the blocks of \p F it does not hold, in address
/// order.
void appendOthers(const FunctionBlocks &F, const AddressIndex &Index,
                  std::vector<uint32_t> &Cluster) {
  AnyKeySet<uint32_t> In(Cluster.begin(), Cluster.end());
  for (uint32_t E : F.Entries)
    if (!In.contains(Index.idOf(E)))
      Cluster.push_back(Index.idOf(E));
}

/// \p FunctionEdges: the edges from \p F's blocks (functionEdges);
/// \p ColdFraction: LayoutOptions::ColdFraction. \p KeepsJumpTableTargets:
/// clang keeps the targets of a jump table in the jump's section (AArch64,
/// whose tables address them from there), whatever the cluster says; so
/// when a block that ends in an indirect branch is in the cluster, every
/// block of the function is, the others after the hot ones in address
/// order, which is what clang then realizes.
std::vector<uint32_t> hotBlocks(const FunctionBlocks &F, const BlockProfile &P,
                                const AddressIndex &Index,
                                ArrayRef<BlockEdge> FunctionEdges,
                                double ColdFraction,
                                bool KeepsJumpTableTargets) {
  uint64_t Hottest = 0;
  for (uint32_t E : F.Entries)
    Hottest = std::max(Hottest, P.Counts[E]);
  // The entry block (the one at the function's address) is in the cluster,
  // as node 0, whatever its count. The blocks that stay out of the cluster
  // are left out of ext-TSP's input, which is what its time grows with.
  uint32_t Entry = F.Entries[entryPosition(F, Index)];
  auto InCluster = [&](uint32_t E) {
    return E == Entry || (P.Counts[E] && P.Counts[E] >= ColdFraction * Hottest);
  };
  std::vector<uint32_t> Nodes = {Entry};
  for (uint32_t E : F.Entries)
    if (E != Entry && InCluster(E))
      Nodes.push_back(E);
  std::vector<uint64_t> Sizes, Counts;
  for (uint32_t E : Nodes) {
    Sizes.push_back(Index.blockEnd(E) - Index.blockStart(E));
    Counts.push_back(P.Counts[E]);
  }
  std::vector<codelayout::EdgeCount> Edges;
  for (const auto &[Key, C] : FunctionEdges)
    if (InCluster(Key.first) && InCluster(Key.second))
      Edges.push_back(
          {nodeOf(Nodes, Key.first), nodeOf(Nodes, Key.second), C.Count});
  std::vector<uint64_t> Order =
      codelayout::computeExtTspLayout(Sizes, Counts, Edges);
  // clang keeps a function's landing pads in one section: when the hot
  // cluster holds only some of them, it moves them all to a section of
  // their own. So either all are in the cluster or none is.
  auto IsEHPad = [&](uint32_t E) {
    return Index.match(E).block().Metadata & metadata::IsEHPad;
  };
  bool SomeEHPadCold = llvm::any_of(
      F.Entries, [&](uint32_t E) { return !InCluster(E) && IsEHPad(E); });
  std::vector<uint32_t> Hot;
  for (uint64_t N : Order)
    if (N == 0 || !(SomeEHPadCold && IsEHPad(Nodes[N])))
      Hot.push_back(Index.match(Nodes[N]).ID);
  if (KeepsJumpTableTargets && anyIndirectBranch(Nodes, Index))
    appendOthers(F, Index, Hot);
  return Hot;
}

/// The blocks of \p F that ran, with their outgoing edges (\p
/// FunctionEdges, in the order of their source blocks as F.Entries).
std::vector<BlockFlow> flowOf(const FunctionBlocks &F, const BlockProfile &P,
                              const AddressIndex &Index,
                              ArrayRef<BlockEdge> FunctionEdges) {
  std::vector<BlockFlow> Flow;
  const BlockEdge *Edge = FunctionEdges.begin();
  for (uint32_t E : F.Entries) {
    while (Edge != FunctionEdges.end() && Edge->first.first < E)
      ++Edge;
    if (!P.Counts[E])
      continue;
    BlockFlow B;
    B.ID = Index.match(E).ID;
    B.Count = P.Counts[E];
    for (; Edge != FunctionEdges.end() && Edge->first.first == E; ++Edge)
      B.Successors.push_back(
          {Index.match(Edge->first.second).ID, Edge->second.Count});
    Flow.push_back(std::move(B));
  }
  return Flow;
}

/// The hashes of \p F's blocks, when its map has them.
std::vector<std::pair<uint32_t, uint64_t>> hashesOf(const FunctionBlocks &F,
                                                    const AddressIndex &Index) {
  std::vector<std::pair<uint32_t, uint64_t>> Hashes;
  if (!Index.match(F.Entries.front()).function().has(feature::BBHash))
    return Hashes;
  for (uint32_t E : F.Entries) {
    BlockMatch M = Index.match(E);
    Hashes.push_back({M.ID, M.block().Hash});
  }
  return Hashes;
}

/// The cache-directed function order of \p Functions.
std::vector<uint64_t> cacheDirectedOrder(ArrayRef<FunctionBlocks> Functions,
                                         const BlockProfile &P,
                                         const AddressIndex &Index) {
  std::map<uint64_t, uint64_t> ByAddress;
  std::vector<uint64_t> Sizes, Counts;
  for (const FunctionBlocks &F : Functions) {
    ByAddress[F.Address] = Sizes.size();
    uint64_t Size = 0;
    for (uint32_t E : F.Entries)
      Size += Index.blockEnd(E) - Index.blockStart(E);
    Sizes.push_back(Size);
    Counts.push_back(F.Total);
  }
  std::vector<codelayout::EdgeCount> Calls;
  std::vector<uint64_t> Offsets;
  for (const auto &[Key, C] : P.Calls) {
    uint32_t Site = Index.find(Key.Site, LookupSide::From);
    if (Site == AddressIndex::NotFound)
      continue;
    uint64_t Caller = Index.match(Site).function().address();
    auto From = ByAddress.find(Caller), To = ByAddress.find(Key.Callee);
    if (From == ByAddress.end() || To == ByAddress.end())
      continue;
    Calls.push_back({From->second, To->second, C.Count});
    Offsets.push_back(Key.Site - Caller);
  }
  return codelayout::computeCacheDirectedLayout(Sizes, Counts, Calls, Offsets);
}

/// The order \p Order of \p Functions (profiledFunctions: hottest first).
std::vector<uint64_t> functionOrder(ArrayRef<FunctionBlocks> Functions,
                                    const BlockProfile &P,
                                    const AddressIndex &Index,
                                    FunctionOrder Order) {
  if (Order == FunctionOrder::CacheDirected)
    return cacheDirectedOrder(Functions, P, Index);
  std::vector<uint64_t> Positions(Functions.size());
  std::iota(Positions.begin(), Positions.end(), 0);
  if (Order == FunctionOrder::None)
    llvm::stable_sort(Positions, [&](uint64_t A, uint64_t B) {
      return Functions[A].Address < Functions[B].Address;
    });
  return Positions;
}

/// The names of the other function symbols at \p F's address.
std::vector<std::string> aliasesOf(const FunctionBlocks &F,
                                   const MappedBinary &Binary) {
  std::vector<std::string> Aliases;
  for (const FunctionSymbol &S : symbolsAt(Binary.symbols(), F.Address))
    if (S.Name != F.Name && !llvm::is_contained(Aliases, S.Name))
      Aliases.push_back(S.Name);
  return Aliases;
}

/// The DWARF compile-unit names of code addresses, read on first use.
class CompileUnitNames {
public:
  explicit CompileUnitNames(const object::ObjectFile &Obj) : Obj(Obj) {}

  /// DW_AT_name of the compile unit covering \p Address; empty if none
  /// (no debug information, or information that does not decode).
  std::string at(uint64_t Address) {
    DWARFCompileUnit *CU = context().getCompileUnitForCodeAddress(Address);
    if (!CU)
      return std::string();
    return dwarf::toString(CU->getUnitDIE().find(dwarf::DW_AT_name), "");
  }

  /// DW_AT_name of every compile unit that has one.
  std::vector<std::string> all() {
    std::vector<std::string> Names;
    for (const std::unique_ptr<DWARFUnit> &CU : context().compile_units()) {
      std::string Name =
          dwarf::toString(CU->getUnitDIE().find(dwarf::DW_AT_name), "");
      if (!Name.empty())
        Names.push_back(std::move(Name));
    }
    return Names;
  }

private:
  DWARFContext &context() {
    // Debug information that does not decode names no unit (see at());
    // computeLayout and unitProfiles have no warning list to keep why.
    if (!Context)
      Context = DWARFContext::create(
          Obj, DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
          consumeError, consumeError);
    return *Context;
  }

  const object::ObjectFile &Obj;
  std::unique_ptr<DWARFContext> Context;
};

/// The compile unit of each of \p Functions that shares its name with
/// another function (empty for the others).
std::vector<std::string> sharedNameModules(ArrayRef<FunctionBlocks> Functions,
                                           const MappedBinary &Binary) {
  CompileUnitNames Units(Binary.object());
  std::vector<std::string> Modules(Functions.size());
  for (size_t I = 0; I < Functions.size(); ++I)
    if (Binary.functionsNamed(Functions[I].Name) > 1)
      Modules[I] = Units.at(Functions[I].Address);
  return Modules;
}

/// \p F's names in a layout: its symbol, address and aliases, and whether
/// other functions share its name (its Module is sharedNameModules').
FunctionLayout namedLayout(const FunctionBlocks &F,
                           const MappedBinary &Binary) {
  FunctionLayout L;
  L.Name = F.Name.str();
  L.Address = F.Address;
  L.Aliases = aliasesOf(F, Binary);
  L.SharedName = Binary.functionsNamed(F.Name) > 1;
  return L;
}

/// \p F's layout but for its Module (sharedNameModules).
/// \p AllEdges: P.Edges as a vector (sortedEdges).
FunctionLayout layoutOf(const FunctionBlocks &F, const BlockProfile &P,
                        ArrayRef<BlockEdge> AllEdges,
                        const MappedBinary &Binary, double ColdFraction) {
  const AddressIndex &Index = Binary.index();
  FunctionLayout L = namedLayout(F, Binary);
  std::vector<BlockEdge> Edges = functionEdges(AllEdges, Index, F);
  L.HotBlocks = hotBlocks(F, P, Index, Edges, ColdFraction,
                          Binary.object().getArch() == Triple::aarch64);
  L.HasColdBlocks = L.HotBlocks.size() < F.Entries.size();
  L.Flow = flowOf(F, P, Index, Edges);
  L.Hashes = hashesOf(F, Index);
  return L;
}

} // namespace

std::vector<FunctionLayout> computeLayout(const BlockProfile &P,
                                          const MappedBinary &Binary,
                                          const LayoutOptions &Options) {
  const AddressIndex &Index = Binary.index();
  std::vector<FunctionBlocks> Functions = profiledFunctions(P, Index);
  llvm::erase_if(Functions, [&](const FunctionBlocks &F) {
    auto Fit = P.Fit.find(F.Address);
    return Fit != P.Fit.end() && leftOutOfLayout(Fit->second);
  });
  double ColdFraction = Options.ColdFraction.value_or(
      P.Kind == CountKind::Executions ? DefaultColdFraction : 0);
  std::vector<BlockEdge> AllEdges = sortedEdges(P);
  // Two more items, taken first: the function order and the compile units
  // of functions that share their name (DWARF, read on one thread). They
  // run beside the functions' block orders, which depend on neither.
  std::vector<FunctionLayout> ByFunction(Functions.size());
  std::vector<uint64_t> Order;
  std::vector<std::string> Modules;
  std::vector<uint64_t> Costs;
  for (const FunctionBlocks &F : Functions)
    Costs.push_back(F.Entries.size());
  Costs.push_back(std::numeric_limits<uint64_t>::max());
  Costs.push_back(std::numeric_limits<uint64_t>::max());
  forEachInOrder(costliestFirst(Costs), Options.Threads, [&](uint32_t I) {
    if (I == Functions.size())
      Order = functionOrder(Functions, P, Index, Options.Order);
    else if (I == Functions.size() + 1)
      Modules = sharedNameModules(Functions, Binary);
    else
      ByFunction[I] = layoutOf(Functions[I], P, AllEdges, Binary, ColdFraction);
  });
  std::vector<FunctionLayout> Layout;
  for (uint64_t I : Order) {
    ByFunction[I].Module = std::move(Modules[I]);
    Layout.push_back(std::move(ByFunction[I]));
  }
  return Layout;
}

/// \p F's `m` line (when others share its name and \p ModuleLine) and
/// `f` line (its name and aliases); false, and nothing written, for a
/// function of a shared name without a Module, which no line can name.
static bool writeNames(const FunctionLayout &F, raw_ostream &OS,
                       bool ModuleLine = true) {
  if (F.SharedName && F.Module.empty())
    return false;
  if (F.SharedName && ModuleLine)
    OS << "m " << F.Module << "\n";
  OS << "f " << F.Name;
  for (const std::string &Alias : F.Aliases)
    OS << " " << Alias;
  OS << "\n";
  return true;
}

/// \p F's `c` line, and for clang 22 its `g` line (per block `ID:count` and
/// `,succ:count` per outgoing edge) and `h` line (per block `ID:hash`, the
/// hash in hexadecimal).
static void writeClusters(const FunctionLayout &F, ClusterConsumer Consumer,
                          raw_ostream &OS) {
  OS << "c";
  for (uint32_t ID : F.HotBlocks)
    OS << " " << ID;
  OS << "\n";
  if (Consumer != ClusterConsumer::Clang22)
    return;
  if (!F.Flow.empty()) {
    OS << "g";
    for (const BlockFlow &B : F.Flow) {
      OS << " " << B.ID << ":" << B.Count;
      for (const auto &[Succ, Count] : B.Successors)
        OS << "," << Succ << ":" << Count;
    }
    OS << "\n";
  }
  if (!F.Hashes.empty()) {
    OS << "h";
    for (const auto &[ID, Hash] : F.Hashes)
      OS << " " << ID << ":" << utohexstr(Hash, /*LowerCase=*/true);
    OS << "\n";
  }
}

/// The compile unit whose profile lays out \p F: its Module (a function
/// whose name others share) or the unit covering its address; empty when
/// none does.
static std::string unitOf(const FunctionLayout &F, CompileUnitNames &Units) {
  return F.Module.empty() ? Units.at(F.Address) : F.Module;
}

UnitProfiles unitProfiles(ArrayRef<FunctionLayout> Layout,
                          const MappedBinary &Binary,
                          ClusterConsumer Consumer) {
  CompileUnitNames Units(Binary.object());
  std::map<std::string, std::string> Texts;
  for (std::string &Unit : Units.all())
    Texts[std::move(Unit)] = "v1\n";
  UnitProfiles Result;
  for (const FunctionLayout &F : Layout) {
    if (F.HotBlocks.empty())
      continue;
    std::string Unit = unitOf(F, Units);
    if (Unit.empty()) {
      ++Result.WithoutUnit;
      continue;
    }
    std::string &Text = Texts[Unit];
    if (Text.empty())
      Text = "v1\n";
    raw_string_ostream OS(Text);
    // A unit's local functions have names of their own: no `m` line.
    writeNames(F, OS, /*ModuleLine=*/false);
    writeClusters(F, Consumer, OS);
  }
  for (auto &[Unit, Text] : Texts)
    Result.Files.push_back({Unit, std::move(Text)});
  return Result;
}

std::string unitProfileName(StringRef Unit) {
  std::string Name = Unit.str();
  std::replace(Name.begin(), Name.end(), '/', '%');
  return Name + ".clusters";
}

namespace {

/// The blocks of the function at \p Address in the map's order (that of
/// their addresses in a build without sections per block), and their sizes.
struct MapBlocks {
  std::vector<uint32_t> Order;
  AnyKeyMap<uint32_t, uint64_t> Sizes;
};
MapBlocks mapBlocks(const MappedBinary &Binary, uint64_t Address) {
  MapBlocks Blocks;
  uint32_t Entry = Binary.index().find(Address);
  if (Entry == AddressIndex::NotFound)
    return Blocks;
  for (const BlockRange &R : Binary.index().match(Entry).function().Ranges)
    for (const BlockEntry &B : R.Blocks) {
      Blocks.Order.push_back(B.ID);
      Blocks.Sizes[B.ID] = B.Size;
    }
  return Blocks;
}

/// The ext-TSP score of the blocks \p Order (IDs of \p Sizes) laid out in
/// that order, on the counts of \p Flow: the edges between them only.
double extTspScore(ArrayRef<uint32_t> Order,
                   const AnyKeyMap<uint32_t, uint64_t> &Sizes,
                   ArrayRef<BlockFlow> Flow) {
  AnyKeyMap<uint32_t, uint64_t> NodeOf;
  std::vector<uint64_t> Nodes(Order.size()), NodeSizes,
      NodeCounts(Order.size());
  std::iota(Nodes.begin(), Nodes.end(), 0);
  for (uint32_t ID : Order) {
    NodeOf[ID] = NodeSizes.size();
    NodeSizes.push_back(Sizes.lookup(ID));
  }
  std::vector<codelayout::EdgeCount> Edges;
  for (const BlockFlow &B : Flow) {
    auto From = NodeOf.find(B.ID);
    if (From == NodeOf.end())
      continue;
    NodeCounts[From->second] = B.Count;
    for (const auto &[Succ, Count] : B.Successors)
      if (auto To = NodeOf.find(Succ); To != NodeOf.end())
        Edges.push_back({From->second, To->second, Count});
  }
#if LLVM_VERSION_MAJOR >= 20
  return codelayout::calcExtTspScore(Nodes, NodeSizes, Edges);
#else
  return codelayout::calcExtTspScore(Nodes, NodeSizes, NodeCounts, Edges);
#endif
}

/// The hot blocks an earlier profile gave a function of the blocks \p
/// Sizes, whose entry block is \p EntryID: its one `c` line, when that
/// names blocks of the function once each, the entry block first, and
/// clones none; empty otherwise.
std::vector<uint32_t>
earlierHotBlocks(const ClusterFunction &Earlier,
                 const AnyKeyMap<uint32_t, uint64_t> &Sizes, uint32_t EntryID) {
  if (Earlier.Clusters.size() != 1 || !Earlier.ClonePaths.empty())
    return {};
  std::vector<uint32_t> Hot;
  AnyKeySet<uint32_t> Seen;
  for (const ClusterBlock &B : Earlier.Clusters.front()) {
    if (B.Clone || !Sizes.contains(B.ID) || !Seen.insert(B.ID).second)
      return {};
    Hot.push_back(B.ID);
  }
  if (Hot.empty() || Hot.front() != EntryID)
    return {};
  return Hot;
}

/// The layout a unit's earlier profile gave the functions a new layout
/// lays out in it (keepUnitLayouts).
struct EarlierLayout {
  /// Per function, its hot blocks there; empty when the profile does not
  /// name it (it was compiled whole).
  std::vector<std::vector<uint32_t>> HotBlocks;
  /// The ext-TSP score of that layout on the new counts.
  double Score = 0;
};

/// The layout the unit profile \p Text gives the functions \p Members of
/// \p Layout (whose blocks are \p Maps); none when it does not read, or
/// gives one of them a layout not of its blocks.
std::optional<EarlierLayout> earlierLayout(StringRef Text,
                                           ArrayRef<size_t> Members,
                                           ArrayRef<FunctionLayout> Layout,
                                           ArrayRef<MapBlocks> Maps) {
  Expected<ClusterProfile> Profile = readClusterProfile(Text);
  if (!Profile) {
    // The unit's file is bbmap's own output: one that does not read is
    // written anew, as a unit without an earlier layout is.
    consumeError(Profile.takeError());
    return std::nullopt;
  }
  StringMap<const ClusterFunction *> ByName;
  for (const ClusterFunction &F : Profile->Functions)
    if (!F.Names.empty())
      ByName[F.Names.front()] = &F;
  EarlierLayout Earlier;
  for (size_t I : Members) {
    const FunctionLayout &F = Layout[I];
    const MapBlocks &Map = Maps[I];
    std::vector<uint32_t> Hot;
    if (auto It = ByName.find(F.Name); It != ByName.end()) {
      Hot = earlierHotBlocks(*It->second, Map.Sizes, F.HotBlocks.front());
      if (Hot.empty())
        return std::nullopt;
    }
    Earlier.Score +=
        extTspScore(Hot.empty() ? Map.Order : Hot, Map.Sizes, F.Flow);
    Earlier.HotBlocks.push_back(std::move(Hot));
  }
  return Earlier;
}

} // namespace

std::vector<std::string> keepUnitLayouts(std::vector<FunctionLayout> &Layout,
                                         const MappedBinary &Binary,
                                         StringRef Dir, double MinGain) {
  CompileUnitNames Units(Binary.object());
  std::map<std::string, std::vector<size_t>> Members;
  for (std::string &Unit : Units.all())
    Members[std::move(Unit)];
  // Each function's blocks and the score of its new layout, once.
  std::vector<MapBlocks> Maps;
  std::vector<double> NewScores;
  double Total = 0;
  for (size_t I = 0; I < Layout.size(); ++I) {
    const FunctionLayout &F = Layout[I];
    Maps.push_back(mapBlocks(Binary, F.Address));
    NewScores.push_back(extTspScore(F.HotBlocks, Maps.back().Sizes, F.Flow));
    Total += NewScores.back();
    if (std::string Unit = unitOf(F, Units); !Unit.empty())
      Members[Unit].push_back(I);
  }
  std::vector<std::string> Kept;
  for (const auto &[Unit, Functions] : Members) {
    SmallString<256> Path(Dir);
    sys::path::append(Path, unitProfileName(Unit));
    auto Text = MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Text)
      continue;
    std::optional<EarlierLayout> Earlier =
        earlierLayout((*Text)->getBuffer(), Functions, Layout, Maps);
    double NewScore = 0;
    for (size_t I : Functions)
      NewScore += NewScores[I];
    if (!Earlier || NewScore - Earlier->Score > MinGain * Total)
      continue;
    for (size_t K = 0; K < Functions.size(); ++K) {
      FunctionLayout &F = Layout[Functions[K]];
      F.HotBlocks = std::move(Earlier->HotBlocks[K]);
      F.HasColdBlocks = !F.HotBlocks.empty() &&
                        F.HotBlocks.size() < Maps[Functions[K]].Order.size();
    }
    Kept.push_back(Unit);
  }
  return Kept;
}

void writeClusterProfile(ArrayRef<FunctionLayout> Layout,
                         ClusterConsumer Consumer, raw_ostream &OS) {
  OS << "v1\n";
  for (const FunctionLayout &F : Layout)
    if (!F.HotBlocks.empty() && writeNames(F, OS))
      writeClusters(F, Consumer, OS);
}

std::vector<FunctionLayout> everyBlock(const MappedBinary &Binary) {
  const AddressIndex &Index = Binary.index();
  std::vector<FunctionBlocks> Functions = mappedFunctions(Index);
  std::vector<std::string> Modules = sharedNameModules(Functions, Binary);
  bool AArch64 = Binary.object().getArch() == Triple::aarch64;
  std::vector<FunctionLayout> Layout;
  for (size_t I = 0; I < Functions.size(); ++I) {
    const FunctionBlocks &F = Functions[I];
    FunctionLayout L = namedLayout(F, Binary);
    L.Module = std::move(Modules[I]);
    uint32_t Entry = F.Entries[entryPosition(F, Index)];
    L.HotBlocks.push_back(Index.idOf(Entry));
    for (uint32_t E : F.Entries)
      if (E != Entry)
        L.HotBlocks.push_back(Index.idOf(E));
    L.OneSection = AArch64 && anyIndirectBranch(F.Entries, Index);
    Layout.push_back(std::move(L));
  }
  return Layout;
}

void writeBlockSections(ArrayRef<FunctionLayout> Layout, raw_ostream &OS) {
  OS << "v1\n";
  for (const FunctionLayout &F : Layout) {
    if (!writeNames(F, OS))
      continue;
    if (F.OneSection) {
      writeClusters(F, ClusterConsumer::Clang19, OS);
      continue;
    }
    for (uint32_t ID : F.HotBlocks)
      OS << "c " << ID << "\n";
  }
}

void writeSymbolOrder(ArrayRef<FunctionLayout> Layout, raw_ostream &OS,
                      StringRef First) {
  if (!First.empty())
    OS << First << "\n";
  // lld places every symbol of a name at that name's first line (local
  // functions of one name too) and warns about a name listed twice.
  StringSet<> Written;
  for (const FunctionLayout &F : Layout)
    if (Written.insert(F.Name).second)
      OS << F.Name << "\n";
  for (const FunctionLayout &F : Layout)
    if (F.HasColdBlocks && Written.insert(F.Name + ".cold").second)
      OS << F.Name << ".cold\n";
}

} // namespace bbmap
