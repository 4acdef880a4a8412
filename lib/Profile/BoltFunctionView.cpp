//===- BoltFunctionView.cpp - BOLT's basic blocks of a function -----------===//
//
// Block boundaries are collected as labels (offsets where some control flow
// arrives) plus the instruction after each terminator; the successor test
// follows buildCFG()'s fall-through rule. Jump tables are not decoded: in
// a function with one, every map block that follows no call is taken for
// a possible jump-table target, and an
// indirect jump falls through to the next block when that block is a map
// block (the layout LLVM gives a jump table's first case), unless its map
// block ends in a tail call.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/BoltFunctionView.h"
#include "bbmap/Format.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/MC/MCInst.h"

using namespace llvm;

namespace bbmap {

namespace {

/// What starts a block at an offset.
struct Label {
  bool IsLandingPad = false;
  bool FromMap = false;
};

} // namespace

std::optional<BoltFunctionView>
BoltFunctionView::build(const BoltFunction &F,
                        const InstructionDecoder &Decoder,
                        ArrayRef<MapBlockStart> MapBlocks) {
  if (F.IsPseudo || F.Size == 0)
    return std::nullopt;
  BoltFunctionView V;
  V.Address = F.Address;
  V.Size = F.Size;
  // Instruction index -> condition code of the jcc there.
  DenseMap<size_t, unsigned> CondCodes;
  for (uint64_t Offset = 0; Offset < F.Size;) {
    MCInst Inst;
    std::optional<Instruction> I = Decoder.decode(F.Address + Offset, Inst);
    if (!I || I->Size == 0 || Offset + I->Size > F.Size)
      return std::nullopt;
    if (I->Kind == InstrKind::CondBranch && Inst.getNumOperands() > 0 &&
        Inst.getOperand(Inst.getNumOperands() - 1).isImm())
      CondCodes[V.Instrs.size()] =
          Inst.getOperand(Inst.getNumOperands() - 1).getImm();
    I->Address = Offset;
    Offset += I->Size;
    V.Instrs.push_back(*I);
  }
  V.MapBlocks.assign(MapBlocks.begin(), MapBlocks.end());
  V.buildBlocks(MapBlocks);
  for (Block &B : V.Blocks) {
    // The jcc ends the block or precedes its final jmp.
    auto It = CondCodes.find(B.Last);
    if (It == CondCodes.end() && B.Last > B.First)
      It = CondCodes.find(B.Last - 1);
    if (It != CondCodes.end())
      B.CondCode = It->second;
  }
  V.buildEdges();
  return V;
}

const Instruction *BoltFunctionView::instructionAt(uint64_t Offset) const {
  auto It = llvm::partition_point(
      Instrs, [&](const Instruction &I) { return I.Address < Offset; });
  return It != Instrs.end() && It->Address == Offset ? &*It : nullptr;
}

void BoltFunctionView::buildBlocks(ArrayRef<MapBlockStart> MapBlocks) {
  DenseMap<uint64_t, Label> Labels;
  Labels[0];
  for (const Instruction &I : Instrs)
    if ((I.Kind == InstrKind::CondBranch ||
         I.Kind == InstrKind::UncondBranch) &&
        I.Target && *I.Target >= Address && *I.Target - Address < Size)
      Labels[*I.Target - Address];
  // Only a jump table makes a map block a label that no branch names.
  bool HasJumpTable = llvm::any_of(MapBlocks, [](const MapBlockStart &B) {
    return (B.Metadata & metadata::HasIndirectBranch) &&
           !(B.Metadata & metadata::HasTailCall);
  });
  for (const MapBlockStart &B : MapBlocks) {
    uint64_t Offset = B.Address - Address;
    const Instruction *I = instructionAt(Offset);
    if (!I || Offset == 0)
      continue;
    bool AfterCall = std::prev(I)->isCall();
    if (B.Metadata & metadata::IsEHPad)
      Labels[Offset].IsLandingPad = true;
    else if (HasJumpTable && !AfterCall)
      Labels[Offset].FromMap = true;
  }
  for (size_t Index = 0; Index < Instrs.size(); ++Index) {
    const Instruction &I = Instrs[Index];
    auto L = Labels.find(I.Address);
    bool AfterTerminator = false;
    if (Index > 0) {
      const Instruction &Prev = Instrs[Index - 1];
      bool JoinsJcc = I.Kind == InstrKind::UncondBranch &&
                      Prev.Kind == InstrKind::CondBranch && !isTailCall(I);
      AfterTerminator = Prev.endsBlock() && !JoinsJcc;
    }
    if (Index == 0 || L != Labels.end() || AfterTerminator) {
      Block &B = Blocks.emplace_back();
      B.Start = I.Address;
      B.First = Index;
      if (L != Labels.end()) {
        B.IsLandingPad = L->second.IsLandingPad;
        B.IsMapLabel = L->second.FromMap;
      }
    }
    Blocks.back().Last = Index;
  }
}

std::optional<size_t> BoltFunctionView::blockContaining(uint64_t Offset) const {
  if (Offset >= Size || Blocks.empty())
    return std::nullopt;
  auto It = llvm::partition_point(
      Blocks, [&](const Block &B) { return B.Start <= Offset; });
  return std::prev(It) - Blocks.begin();
}

bool BoltFunctionView::isTailCall(const Instruction &I) const {
  switch (I.Kind) {
  case InstrKind::CondBranch:
  case InstrKind::UncondBranch:
    return I.Target && (*I.Target < Address || *I.Target - Address >= Size);
  case InstrKind::IndirectBranch: {
    // The map block holding I: the last one starting at or before it.
    auto It = llvm::partition_point(MapBlocks, [&](const MapBlockStart &B) {
      return B.Address <= Address + I.Address;
    });
    return It != MapBlocks.begin() &&
           (std::prev(It)->Metadata & metadata::HasTailCall);
  }
  default:
    return false;
  }
}

bool BoltFunctionView::isCall(const Instruction &I) const {
  return I.isCall() || isTailCall(I);
}

bool BoltFunctionView::isSuccessor(size_t BB, size_t Next) const {
  return llvm::is_contained(Blocks[BB].Successors, Next);
}

bool BoltFunctionView::hasFallthrough(const Block &B) const {
  const Instruction &Last = Instrs[B.Last];
  switch (B.Successors.size()) {
  case 0:
    // A conditional tail call falls through; other terminators do not.
    return !Last.endsBlock() ||
           (Last.Kind == InstrKind::CondBranch && isTailCall(Last));
  case 1:
    return Last.Kind == InstrKind::CondBranch;
  default:
    return false;
  }
}

void BoltFunctionView::addEdge(size_t From, size_t To) {
  Blocks[From].Successors.push_back(To);
  Blocks[To].Predecessors.push_back(From);
}

void BoltFunctionView::buildEdges() {
  // buildCFG() adds the taken branches sorted by (source, target) offsets
  // and without duplicates, then the fall-throughs in layout order.
  std::vector<std::pair<uint64_t, uint64_t>> Taken;
  for (const Instruction &I : Instrs) {
    if (isTailCall(I))
      continue;
    if ((I.Kind == InstrKind::CondBranch ||
         I.Kind == InstrKind::UncondBranch) &&
        I.Target)
      Taken.emplace_back(I.Address, *I.Target - Address);
    else if (I.Kind == InstrKind::IndirectBranch)
      for (const Block &B : Blocks)
        if (B.IsMapLabel)
          Taken.emplace_back(I.Address, B.Start);
  }
  llvm::sort(Taken);
  Taken.erase(std::unique(Taken.begin(), Taken.end()), Taken.end());
  for (const auto &[From, To] : Taken) {
    std::optional<size_t> FromBB = blockContaining(From);
    std::optional<size_t> ToBB = blockContaining(To);
    if (FromBB && ToBB && Blocks[*ToBB].Start == To)
      addEdge(*FromBB, *ToBB);
  }
  for (size_t BB = 0; BB + 1 < Blocks.size(); ++BB)
    if (hasFallthrough(Blocks[BB]))
      addEdge(BB, BB + 1);
}

std::vector<uint32_t> BoltFunctionView::dfs() const {
  std::vector<uint32_t> Order;
  if (Blocks.empty())
    return Order;
  std::vector<bool> Visited(Blocks.size());
  std::vector<uint32_t> Stack{0};
  while (!Stack.empty()) {
    uint32_t BB = Stack.back();
    Stack.pop_back();
    if (Visited[BB])
      continue;
    Visited[BB] = true;
    Order.push_back(BB);
    const Block &B = Blocks[BB];
    if (B.CondCode && B.Successors.size() == 2) {
      // X86's canonical condition codes (O, B, E, BE, S, P, L, LE) are the
      // even ones; their taken successor is visited last.
      bool Canonical = *B.CondCode % 2 == 0;
      Stack.push_back(B.Successors[Canonical ? 0 : 1]);
      Stack.push_back(B.Successors[Canonical ? 1 : 0]);
      continue;
    }
    llvm::append_range(Stack, B.Successors);
  }
  return Order;
}

size_t BoltFunctionView::adjustForCall(size_t FromBB, uint64_t From,
                                       TraceOrigin Origin,
                                       bool IsReturn) const {
  const Block &B = Blocks[FromBB];
  if (Origin != TraceOrigin::Outside || From != B.Start)
    return FromBB;
  bool Eligible = IsReturn ? From != 0 : !(B.Start == 0 || B.IsLandingPad);
  if (!Eligible || FromBB == 0)
    return FromBB;
  size_t Prev = FromBB - 1;
  if (isSuccessor(Prev, FromBB) && isCall(Instrs[Blocks[Prev].Last]))
    return Prev;
  return FromBB;
}

std::optional<FallthroughList>
BoltFunctionView::fallthroughs(uint64_t From, uint64_t To, TraceOrigin Origin,
                               bool IsReturn) const {
  if (From > To)
    return std::nullopt;
  std::optional<size_t> FromBB = blockContaining(From);
  std::optional<size_t> ToBB = blockContaining(To);
  if (!FromBB || !ToBB)
    return std::nullopt;
  FallthroughList Edges;
  for (size_t BB = adjustForCall(*FromBB, From, Origin, IsReturn); BB != *ToBB;
       ++BB) {
    if (!isSuccessor(BB, BB + 1))
      return std::nullopt;
    Edges.emplace_back(Instrs[Blocks[BB].Last].Address, Blocks[BB + 1].Start);
  }
  return Edges;
}

} // namespace bbmap
