//===- StaleMatching.cpp - carry a profile to another build ---------------===//
//
// Per profiled function of the old build, hottest first: find the new
// function of the same name (and source file), then either copy its counts
// (every block unchanged) or match its blocks and infer the rest. Blocks
// match by the blended hashes of the maps (the plugin's and LLVM 22's
// layout: bits 0-15 the instructions before the block, 16-31 its opcodes,
// 32-47 its opcodes and operands, 48-63 its neighbours' opcodes): a block
// matches a block of equal opcode hash, the closest by operands, then
// neighbours, then position; several old blocks may match one new block.
// The matched counts become known block weights, the counted old edges
// between matched blocks known jump weights, and profi (with BOLT's
// stale-matching costs) fills in the rest over the new CFG.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Layout/StaleMatching.h"
#include "CodeHash.h"
#include "FunctionFlow.h"
#include "bbmap/Format.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace bbmap {

namespace {

/// The parts of a blended block hash.
struct BlockHash {
  uint16_t Offset = 0;
  uint16_t Opcodes = 0;
  uint16_t Instrs = 0;
  uint16_t Neighbors = 0;

  explicit BlockHash(uint64_t H)
      : Offset(H), Opcodes(H >> 16), Instrs(H >> 32), Neighbors(H >> 48) {}

  /// The hash with the position left out.
  uint64_t code() const {
    return uint64_t(Opcodes) | uint64_t(Instrs) << 16 |
           uint64_t(Neighbors) << 32;
  }

  /// How far apart two blocks of equal opcode hash are: operands first,
  /// then neighbours, then position, this block's moved by \p Shift
  /// instructions.
  uint64_t distance(const BlockHash &O, int64_t Shift) const {
    uint64_t D = Instrs != O.Instrs;
    D = (D << 1) | (Neighbors != O.Neighbors);
    int16_t Moved = int16_t(uint16_t(O.Offset - Offset - Shift));
    return (D << 16) | uint16_t(Moved < 0 ? -Moved : Moved);
  }
};

/// The costs of LLVM's sample loader (as FlowInference.cpp), which leave
/// unknown jumps free: a loop whose blocks changed must still be able to
/// carry its matched blocks' counts around it. Counts carried over are as
/// dear to lower as to raise, and so are the counts of old edges.
ProfiParams staleParams() {
  ProfiParams Params;
  Params.EvenFlowDistribution = true;
  Params.RebalanceUnknown = true;
  Params.JoinIslands = true;
  Params.CostBlockInc = Params.CostBlockDec = 10;
  Params.CostBlockEntryInc = Params.CostBlockEntryDec = 40;
  Params.CostBlockZeroInc = 11;
  Params.CostJumpInc = Params.CostJumpDec = 10;
  Params.CostJumpFTInc = Params.CostJumpFTDec = 10;
  return Params;
}

/// The compiler that built \p Binary, as its .comment section says.
std::string compilerOf(const MappedBinary &Binary) {
  for (const object::SectionRef &S : Binary.object().sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name || *Name != ".comment") {
      // A search by name; MappedBinary warns of unreadable names.
      consumeError(Name.takeError());
      continue;
    }
    if (Expected<StringRef> Contents = S.getContents())
      return Contents->str();
    else
      // A .comment that cannot be read names no compiler, as in a file
      // without one (the hashes of the code are then compared unless the
      // other build names none either).
      consumeError(Contents.takeError());
  }
  return std::string();
}

class ProfileCarrier {
public:
  ProfileCarrier(const BlockProfile &Old, Build From, Build To,
                 HashSource Source)
      : Old(Old), From(From), To(To), FromIndex(From.Binary.index()),
        ToIndex(To.Binary.index()), Source(Source),
        SameCompiler(compilerOf(From.Binary) == compilerOf(To.Binary)) {
    New.Kind = Old.Kind;
    New.Stats = Old.Stats;
    New.Counts.assign(ToIndex.numBlocks(), 0);
    for (FunctionBlocks &F : mappedFunctions(ToIndex))
      NewFunctions[F.Name].push_back(std::move(F));
  }

  Expected<CarriedProfile> carry();

private:
  /// The block hashes of a pair of functions, old and new.
  struct PairHashes {
    std::vector<uint64_t> Old, New;
  };

  const FunctionBlocks *counterpart(const FunctionBlocks &F) const;
  bool useMapHashes(const FunctionBlocks &F, const FunctionBlocks &G) const;
  PairHashes hashes(const FunctionBlocks &F, const FunctionBlocks &G,
                    bool MapHashes) const;
  bool unchanged(const FunctionBlocks &F, const FunctionBlocks &G,
                 const PairHashes &H) const;
  void copy(const FunctionBlocks &F, const FunctionBlocks &G);
  std::optional<uint64_t> newCallee(const CallKey &K, uint64_t NewSite) const;
  std::vector<int64_t> shifts(const PairHashes &H) const;
  std::vector<llvm::SmallVector<uint32_t, 1>>
  matchBlocks(const FunctionBlocks &F, const FunctionBlocks &G,
              const PairHashes &H);
  void infer(const FunctionBlocks &F, const FunctionBlocks &G,
             const PairHashes &H);

  const BlockProfile &Old;
  Build From, To;
  const AddressIndex &FromIndex, &ToIndex;
  HashSource Source;
  /// Both builds come from the same compiler (.comment), whose map hashes
  /// number opcodes alike.
  bool SameCompiler;
  StringMap<std::vector<FunctionBlocks>> NewFunctions;
  BlockProfile New;
  StaleMatchStats Stats;
};

/// The new function of \p F's name; of several, the one of \p F's source
/// file.
const FunctionBlocks *
ProfileCarrier::counterpart(const FunctionBlocks &F) const {
  auto It = NewFunctions.find(F.Name);
  if (It == NewFunctions.end())
    return nullptr;
  if (It->second.size() == 1)
    return &It->second.front();
  std::string Module = moduleOf(F, From.Binary);
  for (const FunctionBlocks &G : It->second)
    if (moduleOf(G, To.Binary) == Module)
      return &G;
  return nullptr;
}

/// Map hashes when both functions have them, from the same compiler, or
/// when asked for.
bool ProfileCarrier::useMapHashes(const FunctionBlocks &F,
                                  const FunctionBlocks &G) const {
  auto Has = [](const FunctionBlocks &X, const AddressIndex &Index) {
    return Index.match(X.Entries.front()).function().has(feature::BBHash);
  };
  bool Both = Has(F, FromIndex) && Has(G, ToIndex);
  return Source == HashSource::Map
             ? Both
             : Source == HashSource::Auto && Both && SameCompiler;
}

ProfileCarrier::PairHashes ProfileCarrier::hashes(const FunctionBlocks &F,
                                                  const FunctionBlocks &G,
                                                  bool MapHashes) const {
  auto Of = [&](const FunctionBlocks &X, Build B) {
    const AddressIndex &Index = B.Binary.index();
    if (!MapHashes)
      return codeBlockHashes(X, Index, B.Decoder);
    std::vector<uint64_t> H;
    for (uint32_t E : X.Entries)
      H.push_back(Index.match(E).block().Hash);
    return H;
  };
  return {Of(F, From), Of(G, To)};
}

/// Same blocks: the same sizes and hashes in order.
bool ProfileCarrier::unchanged(const FunctionBlocks &F, const FunctionBlocks &G,
                               const PairHashes &H) const {
  if (H.Old != H.New)
    return false;
  for (auto [E, D] : zip(F.Entries, G.Entries))
    if (FromIndex.blockEnd(E) - FromIndex.blockStart(E) !=
        ToIndex.blockEnd(D) - ToIndex.blockStart(D))
      return false;
  return true;
}

/// The new callee of the old call \p K whose site is now at \p NewSite: the
/// target of the direct call there, else the new address of the function
/// of the old callee's name.
std::optional<uint64_t> ProfileCarrier::newCallee(const CallKey &K,
                                                  uint64_t NewSite) const {
  std::optional<Instruction> I = To.Decoder.decode(NewSite);
  if (I && I->Target)
    return I->Target;
  const FunctionSymbol *Callee = symbolAt(From.Binary.symbols(), K.Callee);
  if (!Callee)
    return std::nullopt;
  Expected<uint64_t> A = To.Binary.addressOf(Callee->Name);
  if (!A) {
    // A look-up: the new build lacks the callee, or has several of it.
    consumeError(A.takeError());
    return std::nullopt;
  }
  return *A;
}

/// Copies the counts, edges, calls and returns of \p F to the same blocks
/// of \p G.
void ProfileCarrier::copy(const FunctionBlocks &F, const FunctionBlocks &G) {
  DenseMap<uint32_t, uint32_t> NewEntry;
  for (auto [E, D] : zip(F.Entries, G.Entries)) {
    NewEntry[E] = D;
    New.Counts[D] = Old.Counts[E];
  }
  for (const auto &[Key, C] : functionEdges(Old, FromIndex, F))
    New.Edges[{NewEntry[Key.first], NewEntry[Key.second]}] = C;
  for (auto It = Old.Returns.lower_bound(F.Entries.front());
       It != Old.Returns.end() && It->first <= F.Entries.back(); ++It)
    if (NewEntry.count(It->first))
      New.Returns[NewEntry[It->first]] += It->second;
  CallKey First{FromIndex.blockStart(F.Entries.front()), 0, false};
  for (auto It = Old.Calls.lower_bound(First);
       It != Old.Calls.end() &&
       It->first.Site < FromIndex.blockEnd(F.Entries.back());
       ++It) {
    // NotFound (a site between blocks) is DenseMap's empty key.
    uint32_t E = FromIndex.find(It->first.Site);
    if (E == AddressIndex::NotFound || !NewEntry.count(E))
      continue;
    CallKey K = It->first;
    K.Site =
        ToIndex.blockStart(NewEntry[E]) + (K.Site - FromIndex.blockStart(E));
    std::optional<uint64_t> Callee = newCallee(It->first, K.Site);
    if (!Callee)
      continue;
    K.Callee = *Callee;
    New.Calls[K] = It->second;
  }
}

/// Per old block, how many instructions the code before it grew or shrank
/// by: the move of the closest block at or before it whose hash, position
/// aside, is unique in both builds (an anchor; 0 before the first). A
/// patch moves every block after it; matching then prefers the block at
/// the moved position among blocks of equal code.
std::vector<int64_t> ProfileCarrier::shifts(const PairHashes &H) const {
  DenseMap<uint64_t, std::pair<uint32_t, uint32_t>> Seen;
  auto Count = [&](ArrayRef<uint64_t> Hashes, bool IsNew) {
    for (uint32_t I = 0; I < Hashes.size(); ++I) {
      auto &[Times, Where] = Seen[BlockHash(Hashes[I]).code()];
      Times += IsNew ? 0x10000 : 1;
      if (!IsNew)
        Where = I;
    }
  };
  Count(H.Old, false);
  Count(H.New, true);
  std::vector<int64_t> Shift(H.Old.size());
  int64_t Current = 0;
  for (uint32_t J = 0; J < H.New.size(); ++J) {
    auto It = Seen.find(BlockHash(H.New[J]).code());
    if (It->second.first == 0x10001)
      Shift[It->second.second] = int64_t(BlockHash(H.New[J]).Offset) -
                                 BlockHash(H.Old[It->second.second]).Offset;
  }
  for (uint32_t I = 0; I < H.Old.size(); ++I) {
    auto It = Seen.find(BlockHash(H.Old[I]).code());
    if (It->second.first == 0x10001)
      Current = Shift[I];
    Shift[I] = Current;
  }
  return Shift;
}

/// For each block of \p G, the profiled blocks of \p F that matched it.
/// Several old blocks can match one new block (a loop unrolled in the old
/// build and not in the new): their counts add up.
std::vector<SmallVector<uint32_t, 1>>
ProfileCarrier::matchBlocks(const FunctionBlocks &F, const FunctionBlocks &G,
                            const PairHashes &H) {
  std::vector<SmallVector<uint32_t, 1>> Match(G.Entries.size());
  // The opcode hashes come from the map: every uint16_t.
  AnyKeyMap<uint16_t, SmallVector<uint32_t, 2>> ByOpcodes;
  for (uint32_t J = 0; J < G.Entries.size(); ++J)
    ByOpcodes[BlockHash(H.New[J]).Opcodes].push_back(J);
  std::vector<int64_t> Shift = shifts(H);
  uint32_t OldEntry = entryPosition(F, FromIndex);
  uint32_t NewEntry = entryPosition(G, ToIndex);
  for (uint32_t I = 0; I < F.Entries.size(); ++I) {
    uint64_t Count = Old.Counts[F.Entries[I]];
    if (!Count)
      continue;
    std::optional<uint32_t> Best;
    BlockHash Hash(H.Old[I]);
    uint64_t BestDistance = UINT64_MAX;
    for (uint32_t J : ByOpcodes.lookup(Hash.Opcodes)) {
      uint64_t D = Hash.distance(BlockHash(H.New[J]), Shift[I]);
      if (D < BestDistance) {
        Best = J;
        BestDistance = D;
      }
    }
    // The entry blocks correspond whatever their code.
    if (!Best && I == OldEntry)
      Best = NewEntry;
    if (Best) {
      Match[*Best].push_back(I);
      ++Stats.BlocksMatched;
    } else {
      ++Stats.BlocksUnmatched;
      Stats.WeightUnmatched += Count;
    }
  }
  return Match;
}

/// Matched blocks of \p G weigh what their old blocks counted, and a jump
/// between two matched blocks what the old edges between them counted,
/// when they did; profi does the rest.
void ProfileCarrier::infer(const FunctionBlocks &F, const FunctionBlocks &G,
                           const PairHashes &H) {
  uint64_t LostBefore = Stats.WeightUnmatched;
  std::vector<SmallVector<uint32_t, 1>> Match = matchBlocks(F, G, H);
  if (Stats.WeightUnmatched != LostBefore)
    Stats.Partial.push_back({G.Name.str(), Stats.WeightUnmatched - LostBefore});
  bool FromMap = false;
  std::vector<CFGNode> Nodes =
      buildFunctionCFG(G, ToIndex, To.Decoder, FromMap);
  // An edge the old build took from an indirect jump between two blocks
  // that matched is one of the new CFG too, though the code does not name
  // it; the code names every other edge.
  std::vector<std::optional<uint32_t>> NewOf(F.Entries.size());
  for (uint32_t J = 0; J < G.Entries.size(); ++J)
    for (uint32_t I : Match[J])
      NewOf[I] = J;
  DenseMap<std::pair<uint32_t, uint32_t>, uint64_t> OldEdges;
  for (const auto &[Key, C] : functionEdges(Old, FromIndex, F)) {
    auto Position = [&](uint32_t E) {
      return uint32_t(lower_bound(F.Entries, E) - F.Entries.begin());
    };
    std::optional<uint32_t> S = NewOf[Position(Key.first)];
    std::optional<uint32_t> T = NewOf[Position(Key.second)];
    if (!S || !T || !C.Count)
      continue;
    if (Nodes[*S].IndirectJump)
      Nodes[*S].addSuccessor(*T);
    OldEdges[{*S, *T}] += C.Count;
  }
  std::vector<std::optional<uint64_t>> Weights(G.Entries.size());
  for (uint32_t J = 0; J < G.Entries.size(); ++J)
    for (uint32_t I : Match[J])
      Weights[J] = Weights[J].value_or(0) + Old.Counts[F.Entries[I]];
  FlowNetwork Net = flowNetwork(Nodes, entryPosition(G, ToIndex), Weights);
  if (!Net.hasExit()) {
    assignWeights(Net, Nodes, New);
    return;
  }
  for (FlowJump &J : Net.Func.Jumps) {
    if (J.Source == 0 || J.Target == Nodes.size() + 1)
      continue;
    uint64_t Count = OldEdges.lookup({J.Source - 1, J.Target - 1});
    if (!Count)
      continue;
    J.HasUnknownWeight = false;
    J.Weight = Count >> Net.Shift;
  }
  applyProfi(staleParams(), Net);
  assignFlow(Net, Nodes, New);
}

Expected<CarriedProfile> ProfileCarrier::carry() {
  for (const FunctionBlocks &F : profiledFunctions(Old, FromIndex)) {
    ++Stats.Functions;
    Stats.Weight += F.Total;
    const FunctionBlocks *G = counterpart(F);
    if (!G) {
      Stats.Missing.push_back({F.Name.str(), F.Total});
      Stats.WeightMissing += F.Total;
      continue;
    }
    bool MapHashes = useMapHashes(F, *G);
    PairHashes H = hashes(F, *G, MapHashes);
    if (unchanged(F, *G, H)) {
      ++Stats.Unchanged;
      copy(F, *G);
      continue;
    }
    ++Stats.Changed;
    ++(MapHashes ? Stats.ByMapHashes : Stats.ByCodeHashes);
    infer(F, *G, H);
  }
  if (Stats.Weight && Stats.WeightMissing * 2 > Stats.Weight)
    return createStringError(
        formatv("only {0:P} of the profile's weight is in functions of '{1}' "
                "(a profile of another program?)",
                double(Stats.Weight - Stats.WeightMissing) / Stats.Weight,
                To.Binary.path())
            .str());
  stable_sort(Stats.Partial, [](const StaleLoss &A, const StaleLoss &B) {
    return A.Weight > B.Weight;
  });
  return CarriedProfile{std::move(New), std::move(Stats)};
}

} // namespace

Expected<CarriedProfile> carryProfile(const BlockProfile &Old, Build From,
                                      Build To, HashSource Source) {
  return ProfileCarrier(Old, From, To, Source).carry();
}

} // namespace bbmap
