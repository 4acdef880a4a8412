//===- BoltYAMLCounts.cpp - a BOLT YAML profile on the map's blocks -------===//
//
// Per function of the file: its BOLT function by name, BOLT's blocks of it
// (numbered in layout order, or in BinaryFunction::dfs() order when the
// header says `dfs-order: true`), a check that they are the file's blocks,
// then the counts: block counts through the BOLT block that holds each map
// block's first byte, the file's successor edges and call sites, and the
// returns of blocks that end in one. Call-site offsets are from the start
// of their block, as BOLT's YAML writer gives them.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BoltYAMLCounts.h"
#include "bbmap/BoltProfile/BoltFunctionView.h"
#include "bbmap/BoltProfile/BoltRecords.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include <numeric>

using namespace llvm;

namespace bbmap {

namespace {

class YAMLCharger {
public:
  YAMLCharger(const boltyaml::Profile &P, const MappedBinary &Binary,
              const InstructionDecoder &Decoder);
  YAMLCounts charge();

private:
  /// A function of the file on BOLT's blocks of the binary.
  struct Placed {
    const boltyaml::Function &YF;
    const BoltFunction &BF;
    const BoltFunctionView &View;
    /// BOLT block index (View.blocks()) of each bid.
    std::vector<uint32_t> BlockOfID;
    /// Count of each BOLT block.
    std::vector<uint64_t> Counts;
    /// Outgoing edges of each BOLT block: (block, count, mispredictions).
    std::vector<SmallVector<std::tuple<uint32_t, uint64_t, uint64_t>, 2>> Succs;
  };

  const BoltFunction *functionNamed(StringRef Name) const;
  void chargeFunction(const boltyaml::Function &YF);
  std::optional<std::string> place(Placed &F) const;
  void countBOLTBlocks(Placed &F) const;
  std::vector<uint32_t> mapEntries(ArrayRef<MapBlockStart> Starts) const;
  size_t boltBlockAt(const BoltFunctionView &View, uint64_t Offset) const;
  bool isNoReturnCall(const Placed &F, const Instruction &I) const;
  void chargeBlocks(const Placed &F, ArrayRef<uint32_t> Entries);
  void chargeSamples(const Placed &F);
  void chargeEdges(const Placed &F);
  void chargeCalls(const Placed &F);

  const boltyaml::Profile &P;
  const MappedBinary &Binary;
  const InstructionDecoder &Decoder;
  const AddressIndex &Index;
  /// BOLT's functions and their blocks, as perf2bolt's records see them.
  BoltRecordAggregator Bolt;
  StringMap<const BoltFunction *> ByName;
  /// By fid: every uint32_t is one, DenseMap's reserved keys too.
  AnyKeyMap<uint32_t, const boltyaml::Function *> ByID;
  /// Calls to each function's primary entry, by function id.
  AnyKeyMap<uint32_t, uint64_t> CallsInto;
  YAMLCounts Out;
};

YAMLCharger::YAMLCharger(const boltyaml::Profile &P, const MappedBinary &Binary,
                         const InstructionDecoder &Decoder)
    : P(P), Binary(Binary), Decoder(Decoder), Index(Binary.index()),
      Bolt(Binary, Decoder, FdataDialect::Bolt22, /*Threads=*/1) {
  for (const BoltFunction &F : Bolt.functions().functions()) {
    ByName.try_emplace(F.Name, &F);
    ByName.try_emplace(F.BATName, &F);
  }
  for (const boltyaml::Function &F : P.Functions) {
    ByID[F.Id] = &F;
    for (const boltyaml::Block &B : F.Blocks)
      for (const boltyaml::CallSite &C : B.Calls)
        if (C.EntryDiscriminator == 0)
          CallsInto[C.CalleeId] += C.Count;
  }
  Out.Profile.Counts.assign(Index.numBlocks(), 0);
  bool LBR = P.Head.Flags & boltyaml::ProfileLBR;
  Out.Profile.Kind = LBR ? CountKind::Executions : CountKind::Samples;
}

/// Numbers \p F's BOLT blocks by the file's bids and checks that they are
/// the blocks the file counts; says why not.
std::optional<std::string> YAMLCharger::place(Placed &F) const {
  ArrayRef<BoltFunctionView::Block> Blocks = F.View.blocks();
  if (F.YF.NumBlocks != Blocks.size())
    return formatv("{0} blocks in the profile, {1} in the binary",
                   F.YF.NumBlocks, Blocks.size())
        .str();
  if (P.Head.IsDFSOrder) {
    F.BlockOfID = F.View.dfs();
  } else {
    F.BlockOfID.resize(Blocks.size());
    std::iota(F.BlockOfID.begin(), F.BlockOfID.end(), 0);
  }
  F.Counts.assign(Blocks.size(), 0);
  for (const boltyaml::Block &B : F.YF.Blocks) {
    if (B.Index >= F.BlockOfID.size())
      return formatv("block {0} is not reached from the entry in the binary",
                     B.Index)
          .str();
    const BoltFunctionView::Block &Mine = Blocks[F.BlockOfID[B.Index]];
    // BAT-mode files (perf2bolt on a BOLTed binary) give no counts: 0.
    if (B.NumInstructions && B.NumInstructions != Mine.numInstructions())
      return formatv("block {0} has {1} instructions in the profile, {2} in "
                     "the binary",
                     B.Index, B.NumInstructions, Mine.numInstructions())
          .str();
  }
  countBOLTBlocks(F);
  return std::nullopt;
}

/// Block counts as BOLT's postProcessProfile() makes them, from the edges
/// (BOLT 22 writes `exec` for entry blocks alone): a block runs as often
/// as its incoming edges say, the entry block as often as the function was
/// entered (its `exec`, or the calls to it the file lists when more: BOLT
/// 16 leaves recursive calls out of `exec`) plus its incoming edges. BOLT
/// records no fall-through from a block that ends in a call to the block the
/// call returns to (the run after the return starts there): such a block passes
/// all its count on (repaired in layout order), unless the call does not
/// return. A profile of IP samples counts the samples of each block.
void YAMLCharger::countBOLTBlocks(Placed &F) const {
  bool LBR = P.Head.Flags & boltyaml::ProfileLBR;
  size_t N = F.Counts.size();
  F.Succs.assign(N, {});
  std::vector<uint64_t> In(N), Out(N);
  for (const boltyaml::Block &B : F.YF.Blocks) {
    uint32_t K = F.BlockOfID[B.Index];
    F.Counts[K] = LBR ? B.ExecCount : B.EventCount;
    for (const boltyaml::Successor &S : B.Successors)
      if (S.Index < F.BlockOfID.size()) {
        uint32_t T = F.BlockOfID[S.Index];
        F.Succs[K].emplace_back(T, S.Count, S.Mispreds);
        In[T] += S.Count;
        Out[K] += S.Count;
      }
  }
  if (!LBR)
    return;
  F.Counts[0] = std::max(F.Counts[0], CallsInto.lookup(F.YF.Id)) + In[0];
  for (size_t K = 1; K < N; ++K)
    F.Counts[K] = std::max(F.Counts[K], In[K]);
  for (size_t K = 0; K < N; ++K) {
    const Instruction &Last = F.View.instructions()[F.View.blocks()[K].Last];
    if (!Last.isCall() || F.Succs[K].size() != 1 || Out[K] >= F.Counts[K] ||
        isNoReturnCall(F, Last))
      continue;
    auto &[T, Count, Mispreds] = F.Succs[K].front();
    uint64_t Missing = F.Counts[K] - Out[K];
    Count += Missing;
    In[T] += Missing;
    F.Counts[T] = std::max(F.Counts[T], In[T]);
  }
}

/// The map entries of the blocks that start at \p Starts, ascending.
std::vector<uint32_t>
YAMLCharger::mapEntries(ArrayRef<MapBlockStart> Starts) const {
  std::vector<uint32_t> Entries;
  for (const MapBlockStart &S : Starts) {
    uint32_t E = Index.find(S.Address, LookupSide::To);
    if (E != AddressIndex::NotFound && Index.blockStart(E) == S.Address &&
        (Entries.empty() || Entries.back() != E))
      Entries.push_back(E);
  }
  return Entries;
}

/// The BOLT block holding offset \p Offset.
size_t YAMLCharger::boltBlockAt(const BoltFunctionView &View,
                                uint64_t Offset) const {
  ArrayRef<BoltFunctionView::Block> Blocks = View.blocks();
  auto It = partition_point(Blocks, [&](const BoltFunctionView::Block &B) {
    return B.Start <= Offset;
  });
  return It == Blocks.begin() ? 0 : It - Blocks.begin() - 1;
}

/// True when \p I is a call that does not return (exit, abort): the last
/// instruction of a map block the compiler says cannot fall through. BOLT's
/// CFG knows no such calls and goes on to the next instruction.
bool YAMLCharger::isNoReturnCall(const Placed &F, const Instruction &I) const {
  if (!I.isCall())
    return false;
  uint32_t E = Index.find(F.BF.Address + I.Address);
  return E != AddressIndex::NotFound &&
         Index.blockEnd(E) == F.BF.Address + I.end() &&
         !Index.match(E).block().has(metadata::CanFallThrough);
}

/// A map block runs as often as the BOLT block holding its first byte; a
/// map block that starts inside a BOLT block is entered from the one
/// before it, as often, unless a call that does not return ends that one
/// (a jump-table target BOLT did not find, after a call to exit: only the
/// table's jump, which the file does not count, enters it); a block ending
/// in a return returns as often as it runs.
void YAMLCharger::chargeBlocks(const Placed &F, ArrayRef<uint32_t> Entries) {
  BlockProfile &Out = this->Out.Profile;
  if (Out.Kind == CountKind::Samples) {
    chargeSamples(F);
    return;
  }
  ArrayRef<Instruction> Instrs = F.View.instructions();
  size_t Current = F.View.blocks().size();
  uint64_t Count = 0;
  for (size_t I = 0; I < Entries.size(); ++I) {
    uint64_t Offset = Index.blockStart(Entries[I]) - F.BF.Address;
    size_t K = boltBlockAt(F.View, Offset);
    auto Before = partition_point(
        Instrs, [&](const Instruction &In) { return In.Address < Offset; });
    if (K != Current)
      Count = F.Counts[K];
    else if (Before != Instrs.begin() && isNoReturnCall(F, *std::prev(Before)))
      Count = 0;
    Current = K;
    Out.Counts[Entries[I]] += Count;
    if (I && F.View.blocks()[K].Start != Offset && Count &&
        Index.blockEnd(Entries[I - 1]) == Index.blockStart(Entries[I]))
      Out.Edges[{Entries[I - 1], Entries[I]}].Count += Count;
  }
  for (size_t K = 0; K < F.View.blocks().size(); ++K) {
    const Instruction &Last = F.View.instructions()[F.View.blocks()[K].Last];
    if (Last.Kind != InstrKind::Return || !F.Counts[K])
      continue;
    uint32_t E = Index.find(F.BF.Address + Last.Address);
    if (E != AddressIndex::NotFound)
      Out.Returns[E] += F.Counts[K];
  }
}

/// A block's samples go to the map block holding its first instruction in
/// a map block (BOLT's blocks keep the padding nops before them).
void YAMLCharger::chargeSamples(const Placed &F) {
  ArrayRef<BoltFunctionView::Block> Blocks = F.View.blocks();
  for (size_t K = 0; K < Blocks.size(); ++K) {
    uint32_t E = AddressIndex::NotFound;
    for (size_t I = Blocks[K].First;
         I <= Blocks[K].Last && E == AddressIndex::NotFound; ++I)
      E = Index.find(F.BF.Address + F.View.instructions()[I].Address);
    if (E != AddressIndex::NotFound)
      Out.Profile.Counts[E] += F.Counts[K];
  }
}

/// The file's successor edges, from the map block of the BOLT block's last
/// instruction to the map block that starts where the successor does.
void YAMLCharger::chargeEdges(const Placed &F) {
  ArrayRef<BoltFunctionView::Block> Blocks = F.View.blocks();
  for (size_t K = 0; K < Blocks.size(); ++K) {
    // The block's last instruction in a map block: BOLT keeps the padding
    // nops after a block in it, the map does not.
    uint32_t FromEntry = AddressIndex::NotFound;
    for (size_t I = Blocks[K].Last + 1;
         I-- > Blocks[K].First && FromEntry == AddressIndex::NotFound;)
      FromEntry = Index.find(F.BF.Address + F.View.instructions()[I].Address);
    for (const auto &[T, Count, Mispreds] : F.Succs[K]) {
      uint64_t Target = F.BF.Address + Blocks[T].Start;
      uint32_t ToEntry = Index.find(Target, LookupSide::To);
      if (FromEntry == AddressIndex::NotFound ||
          ToEntry == AddressIndex::NotFound ||
          Index.blockStart(ToEntry) != Target) {
        Out.Profile.Stats.BranchesIntoBlock += Count;
        continue;
      }
      EdgeCount &C = Out.Profile.Edges[{FromEntry, ToEntry}];
      C.Count += Count;
      C.Mispreds += Mispreds;
    }
  }
}

/// The file's call sites, at their offset in their block, to the primary
/// entry of the function the callee id names.
void YAMLCharger::chargeCalls(const Placed &F) {
  ArrayRef<BoltFunctionView::Block> Blocks = F.View.blocks();
  for (const boltyaml::Block &B : F.YF.Blocks) {
    uint64_t BlockStart = F.BF.Address + Blocks[F.BlockOfID[B.Index]].Start;
    for (const boltyaml::CallSite &C : B.Calls) {
      const boltyaml::Function *Callee = ByID.lookup(C.CalleeId);
      const BoltFunction *Target =
          Callee ? functionNamed(Callee->Name) : nullptr;
      if (!Target) {
        Out.CallsUnresolved += C.Count;
        continue;
      }
      CallKey K;
      K.Site = BlockStart + C.Offset;
      K.Callee = Target->Address;
      std::optional<Instruction> I = Decoder.decode(K.Site);
      K.TailCall = I && !I->isCall();
      EdgeCount &Count = Out.Profile.Calls[K];
      Count.Count += C.Count;
      Count.Mispreds += C.Mispreds;
      Out.Profile.Stats.Calls += C.Count;
    }
  }
}

/// The function \p Name names; BOLT 16 adds `(*N)` to the names of
/// functions with N symbols.
const BoltFunction *YAMLCharger::functionNamed(StringRef Name) const {
  if (const BoltFunction *F = ByName.lookup(Name))
    return F;
  size_t Suffix = Name.rfind("(*");
  return Suffix == StringRef::npos ? nullptr
                                   : ByName.lookup(Name.take_front(Suffix));
}

void YAMLCharger::chargeFunction(const boltyaml::Function &YF) {
  const BoltFunction *BF = functionNamed(YF.Name);
  if (!BF) {
    Out.Misfits.push_back({YF.Name, "not in the binary", YF.ExecCount});
    return;
  }
  std::vector<uint32_t> Entries = mapEntries(Bolt.mapBlocksOf(*BF));
  const BoltFunctionView *View = Bolt.viewOf(*BF);
  // Code without a map (start-up code) is not charged, as for any input.
  if (Entries.empty())
    return;
  if (!View) {
    Out.Misfits.push_back({YF.Name, "its code does not decode", YF.ExecCount});
    return;
  }
  Placed F{YF, *BF, *View, {}, {}, {}};
  if (std::optional<std::string> Why = place(F)) {
    Out.Misfits.push_back(
        {YF.Name, *Why + " (a profile of another build?)", YF.ExecCount});
    return;
  }
  ++Out.Charged;
  chargeBlocks(F, Entries);
  chargeEdges(F);
  chargeCalls(F);
}

YAMLCounts YAMLCharger::charge() {
  for (const boltyaml::Function &YF : P.Functions) {
    if (YF.Blocks.empty())
      continue;
    ++Out.Functions;
    chargeFunction(YF);
  }
  stable_sort(Out.Misfits, [](const YAMLMisfit &A, const YAMLMisfit &B) {
    return A.ExecCount > B.ExecCount;
  });
  return std::move(Out);
}

} // namespace

YAMLCounts countYAMLBlocks(const boltyaml::Profile &P,
                           const MappedBinary &Binary,
                           const InstructionDecoder &Decoder) {
  return YAMLCharger(P, Binary, Decoder).charge();
}

} // namespace bbmap
