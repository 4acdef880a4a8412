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
  for (uint64_t Offset = 0; Offset < F.Size;) {
    std::optional<Instruction> I = Decoder.decode(F.Address + Offset);
    if (!I || I->Size == 0 || Offset + I->Size > F.Size)
      return std::nullopt;
    I->Address = Offset;
    Offset += I->Size;
    V.Instrs.push_back(*I);
  }
  V.MapBlocks.assign(MapBlocks.begin(), MapBlocks.end());
  V.buildBlocks(MapBlocks);
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
  const Instruction &Last = Instrs[Blocks[BB].Last];
  uint64_t NextAddress = Address + Blocks[Next].Start;
  switch (Last.Kind) {
  case InstrKind::Return:
  case InstrKind::Trap:
    return false;
  case InstrKind::IndirectBranch:
    return !isTailCall(Last) && Blocks[Next].IsMapLabel;
  case InstrKind::UncondBranch: {
    if (Last.Target == NextAddress)
      return true;
    size_t Index = Blocks[BB].Last;
    const Instruction *Jcc = Index > 0 ? &Instrs[Index - 1] : nullptr;
    return Jcc && Jcc->Kind == InstrKind::CondBranch &&
           Jcc->Target == NextAddress;
  }
  default:
    return true;
  }
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
