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

#include "bbmap/BoltProfile/BoltFunctionView.h"
#include "bbmap/Format.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"

using namespace llvm;

namespace bbmap {

namespace {

/// What starts a block at an offset.
struct Label {
  bool IsLandingPad = false;
  bool IsEntryPoint = false;
};

/// A register operand's number (getReg() gives an MCRegister from LLVM 20
/// on, an unsigned before).
unsigned regOf(const MCOperand &Op) { return MCRegister(Op.getReg()).id(); }

/// AArch64MCPlusBuilder::isLoadFromStack(): \p Inst may load, and SP or
/// WSP is among the registers it uses.
bool loadsFromStack(const MCInst &Inst, const InstructionDecoder &Decoder) {
  const MCInstrDesc &Desc = Decoder.instrInfo().get(Inst.getOpcode());
  if (!Desc.mayLoad())
    return false;
  for (unsigned I = Desc.getNumDefs(); I < Inst.getNumOperands(); ++I) {
    const MCOperand &Op = Inst.getOperand(I);
    if (!Op.isReg())
      continue;
    StringRef Name = Decoder.registerInfo().getName(regOf(Op));
    if (Name == "SP" || Name == "WSP")
      return true;
  }
  return false;
}

/// The table of a `jmp *TABLE(,%index,8)`: no base register, scale 8.
std::optional<uint64_t> absoluteJumpTable(const MCInst &Inst) {
  if (Inst.getNumOperands() != 5)
    return std::nullopt;
  const MCOperand &Base = Inst.getOperand(0);
  const MCOperand &Scale = Inst.getOperand(1);
  const MCOperand &Index = Inst.getOperand(2);
  const MCOperand &Disp = Inst.getOperand(3);
  if (!Base.isReg() || Base.getReg() || !Scale.isImm() || Scale.getImm() != 8 ||
      !Index.isReg() || !Index.getReg() || !Disp.isImm())
    return std::nullopt;
  return uint64_t(Disp.getImm());
}

/// Follows a PIC jump table's pattern in address order: `lea T(%rip), %b`
/// (anywhere before, as BOLT looks back through the function), `movslq
/// (%b,%i,4), %r`, `add %b, %r`, `jmp *%r`.
class PicTableTracker {
public:
  /// Notes instruction \p Index, \p Inst (opcode \p Name) at \p I.
  void add(StringRef Name, const MCInst &Inst, const Instruction &I,
           size_t Index, const InstructionDecoder &Decoder) {
    if (Name == "LEA64r") {
      if (std::optional<uint64_t> T =
              Decoder.analysis().evaluateMemoryOperandAddress(
                  Inst, &Decoder.subtargetInfo(), I.Address, I.Size))
        LeaTargets[regOf(Inst.getOperand(0))] = {*T, Index};
      return;
    }
    if (Name != "MOVSX64rm32" || Inst.getOperand(2).getImm() != 4)
      return;
    // The table is the one the base register holds at the load (a later
    // lea may reuse the register before the jump).
    unsigned Dest = regOf(Inst.getOperand(0));
    auto Lea = LeaTargets.find(regOf(Inst.getOperand(1)));
    if (Lea == LeaTargets.end())
      EntryTables.erase(Dest);
    else
      EntryTables[Dest] = {Lea->second.first,
                           std::min(Lea->second.second, Index)};
  }

  /// The table whose entry register \p Reg got, and the index of the
  /// pattern's first instruction.
  std::optional<std::pair<uint64_t, size_t>> tableIn(unsigned Reg) const {
    auto It = EntryTables.find(Reg);
    if (It == EntryTables.end())
      return std::nullopt;
    return It->second;
  }

private:
  /// Register -> the last PC-relative LEA's target it got, and its index.
  DenseMap<unsigned, std::pair<uint64_t, size_t>> LeaTargets;
  /// Register -> the table whose entry it loaded, and the index of the
  /// table's LEA.
  DenseMap<unsigned, std::pair<uint64_t, size_t>> EntryTables;
};

} // namespace

std::vector<MapBlockStart> mapBlockStarts(const MappedBinary &Binary) {
  std::vector<MapBlockStart> Starts;
  for (const DecodedSection &Sec : Binary.sections())
    for (const FunctionMap &F : Sec.Functions)
      for (const BlockRange &R : F.Ranges)
        for (const BlockEntry &B : R.Blocks)
          Starts.push_back({R.BaseAddress + B.Offset, B.Metadata});
  llvm::sort(Starts, [](const MapBlockStart &A, const MapBlockStart &B) {
    return A.Address < B.Address;
  });
  return Starts;
}

void BoltFunctionView::readJumpTable(const JumpTableSite &Site,
                                     ArrayRef<JumpTableSite> Sites,
                                     const BoltCodeContext &Context) {
  // Entries run while they name an instruction of the function or its end
  // (BinaryContext::analyzeJumpTable() reads on past __builtin_unreachable
  // entries, which are no edges), up to the start of another of its jump
  // tables.
  unsigned EntrySize = Site.Relative ? 4 : 8;
  std::vector<uint64_t> &Targets = JumpTargets[Site.Jump];
  uint64_t Entry = Site.Table;
  for (;; Entry += EntrySize) {
    if (Entry != Site.Table && llvm::any_of(Sites, [&](const JumpTableSite &S) {
          return S.Table == Entry;
        }))
      break;
    std::optional<uint64_t> Value = Context.ReadData(Entry, EntrySize);
    if (!Value)
      break;
    uint64_t Target =
        Site.Relative ? Site.Table + int64_t(int32_t(*Value)) : *Value;
    if (Target == Address + Size)
      continue;
    if (Target < Address || Target - Address >= Size ||
        !instructionAt(Target - Address))
      break;
    Targets.push_back(Target - Address);
  }
  if (Entry != Site.Table)
    JumpTables.emplace_back(Site.Table, Entry);
  llvm::sort(Targets);
  Targets.erase(std::unique(Targets.begin(), Targets.end()), Targets.end());
}

void BoltFunctionView::collectReferences(const BoltCodeContext &Context) {
  for (const auto &[Jump, Targets] : JumpTargets)
    llvm::append_range(ReferencedOffsets, Targets);
  auto Claimed = [&](uint64_t Offset) {
    return llvm::any_of(JumpTargets, [&](const auto &Entry) {
      return llvm::is_contained(Entry.second, Offset);
    });
  };
  auto Begin = llvm::upper_bound(Context.DataReferences, Address);
  for (auto It = Begin;
       It != Context.DataReferences.end() && *It - Address < Size; ++It) {
    ReferencedOffsets.push_back(*It - Address);
    UnclaimedReference |= !Claimed(*It - Address);
  }
  llvm::sort(ReferencedOffsets);
  ReferencedOffsets.erase(
      std::unique(ReferencedOffsets.begin(), ReferencedOffsets.end()),
      ReferencedOffsets.end());
}

bool BoltFunctionView::inJumpTable(uint64_t A) const {
  return llvm::any_of(JumpTables, [&](const std::pair<uint64_t, uint64_t> &T) {
    return A >= T.first && A < T.second;
  });
}

bool BoltFunctionView::hasInternalReference() const {
  return !ReferencedOffsets.empty();
}

std::optional<BoltFunctionView> BoltFunctionView::build(
    const BoltFunction &F, const InstructionDecoder &Decoder,
    ArrayRef<MapBlockStart> MapBlocks, const BoltCodeContext &Context) {
  if (F.IsPseudo || F.Size == 0)
    return std::nullopt;
  BoltFunctionView V;
  V.Address = F.Address;
  V.Size = F.Size;
  // Instruction index -> condition code of the jcc there.
  DenseMap<size_t, unsigned> CondCodes;
  std::vector<JumpTableSite> Sites;
  PicTableTracker PicTables;
  for (uint64_t Offset = 0; Offset < F.Size;) {
    MCInst Inst;
    std::optional<Instruction> I = Decoder.decode(F.Address + Offset, Inst);
    if (!I || I->Size == 0 || Offset + I->Size > F.Size)
      return std::nullopt;
    if (I->Kind == InstrKind::CondBranch && Inst.getNumOperands() > 0 &&
        Inst.getOperand(Inst.getNumOperands() - 1).isImm())
      CondCodes[V.Instrs.size()] =
          Inst.getOperand(Inst.getNumOperands() - 1).getImm();
    StringRef Name = Decoder.opcodeName(Inst.getOpcode());
    if (Name == "ADR" && Inst.getNumOperands() == 2 &&
        Inst.getOperand(1).isImm()) {
      uint64_t Target = F.Address + Offset + Inst.getOperand(1).getImm();
      if (Target > F.Address && Target - F.Address < F.Size)
        V.AddressTaken.push_back(Target - F.Address);
    }
    PicTables.add(Name, Inst, *I, V.Instrs.size(), Decoder);
    if (!Decoder.isAArch64() || MapBlocks.empty())
      V.noteEpilogueShape(Name, Inst, *I, Offset, Decoder);
    if (I->Kind == InstrKind::IndirectBranch) {
      size_t Jump = V.Instrs.size();
      if (std::optional<uint64_t> Table = absoluteJumpTable(Inst))
        Sites.push_back({Jump, *Table, false, Jump});
      else if (Inst.getNumOperands() == 1 && Inst.getOperand(0).isReg())
        if (std::optional<std::pair<uint64_t, size_t>> Table =
                PicTables.tableIn(regOf(Inst.getOperand(0))))
          Sites.push_back({Jump, Table->first, true, Table->second});
    }
    I->Address = Offset;
    Offset += I->Size;
    V.Instrs.push_back(*I);
  }
  for (const JumpTableSite &Site : Sites)
    V.readJumpTable(Site, Sites, Context);
  llvm::append_range(V.AddressTaken, F.SymbolEntries);
  V.MapBlocks.assign(MapBlocks.begin(), MapBlocks.end());
  if (MapBlocks.empty())
    V.LandingPads.assign(Context.LandingPads.begin(),
                         Context.LandingPads.end());
  V.StrictMode = Context.StrictMode;
  if (V.StrictMode)
    V.collectReferences(Context);
  V.buildBlocks();
  V.findUnmatchedTables(Sites);
  if ((!Decoder.isAArch64() || MapBlocks.empty()) && !V.StrictMode)
    V.findRejectedJump();
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

void BoltFunctionView::buildBlocks() {
  DenseMap<uint64_t, Label> Labels;
  Labels[0];
  for (const Instruction &I : Instrs)
    if ((I.Kind == InstrKind::CondBranch ||
         I.Kind == InstrKind::UncondBranch) &&
        I.Target && *I.Target >= Address && *I.Target - Address < Size)
      Labels[*I.Target - Address];
  for (const auto &[Jump, Targets] : JumpTargets)
    for (uint64_t Target : Targets)
      Labels[Target];
  for (uint64_t Offset : ReferencedOffsets)
    Labels[Offset];
  for (uint64_t Offset : AddressTaken)
    if (instructionAt(Offset))
      Labels[Offset].IsEntryPoint = true;
  for (const MapBlockStart &B : MapBlocks) {
    uint64_t Offset = B.Address - Address;
    const Instruction *I = instructionAt(Offset);
    if (!I || Offset == 0)
      continue;
    if (B.Metadata & metadata::IsEHPad)
      Labels[Offset].IsLandingPad = true;
  }
  for (uint64_t Offset : LandingPads)
    if (Offset != 0 && instructionAt(Offset))
      Labels[Offset].IsLandingPad = true;
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
        B.IsEntryPoint = L->second.IsEntryPoint;
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
    // postProcessIndirectBranches(): an indirect jump of a single-block
    // function, or in strict mode of a function no data refers into, is a
    // tail call.
    if (Blocks.size() == 1 || (StrictMode && !hasInternalReference()))
      return true;
    if (!StrictMode && llvm::is_contained(UnknownJumps, I.Address))
      return llvm::is_contained(EpilogueTailCalls, I.Address);
    if (MapBlocks.empty())
      return analyzedTailCall(I);
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
  for (size_t Index = 0; Index < Instrs.size(); ++Index) {
    const Instruction &I = Instrs[Index];
    if (isTailCall(I))
      continue;
    if ((I.Kind == InstrKind::CondBranch ||
         I.Kind == InstrKind::UncondBranch) &&
        I.Target)
      Taken.emplace_back(I.Address, *I.Target - Address);
    else if (I.Kind == InstrKind::IndirectBranch && !isUnknownJump(Index))
      for (uint64_t Target : indirectTargets(Index))
        Taken.emplace_back(I.Address, Target);
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
  // postProcessIndirectBranches() gives the blocks of unknown jumps their
  // successors anew, after all other edges.
  for (size_t BB = 0; BB < Blocks.size(); ++BB) {
    size_t Last = Blocks[BB].Last;
    if (Instrs[Last].Kind != InstrKind::IndirectBranch || !isUnknownJump(Last))
      continue;
    for (uint64_t Target : indirectTargets(Last))
      if (std::optional<size_t> To = blockContaining(Target))
        if (Blocks[*To].Start == Target)
          addEdge(BB, *To);
  }
}

void BoltFunctionView::findUnmatchedTables(ArrayRef<JumpTableSite> Sites) {
  // postProcessIndirectBranches() matches each table's pattern again, now
  // only within the jump's block (analyzeIndirectBranch() from the block's
  // start): for a PIC table whose `lea` or entry load lies in an earlier
  // block (hoisted out of a dispatch loop) it rejects the function's CFG
  // without relocations; in strict mode it unsets the table and gives the
  // jump unknown control flow.
  for (const JumpTableSite &Site : Sites) {
    auto It = JumpTargets.find(Site.Jump);
    std::optional<size_t> BB = blockContaining(Instrs[Site.Jump].Address);
    if (It != JumpTargets.end() && !It->second.empty() && BB &&
        Site.PatternStart < Blocks[*BB].First)
      UnmatchedTableJumps.push_back(Site.Jump);
  }
  // With a single indirect jump and a single table in the function it sets
  // the table again, and updateJumpTableSuccessors() gives the jump the
  // table's targets anew: it becomes their last predecessor.
  size_t NumJumps = llvm::count_if(Instrs, [](const Instruction &I) {
    return I.Kind == InstrKind::IndirectBranch;
  });
  std::vector<uint64_t> Tables;
  for (const auto &[Begin, End] : JumpTables)
    Tables.push_back(Begin);
  llvm::sort(Tables);
  Tables.erase(std::unique(Tables.begin(), Tables.end()), Tables.end());
  if (StrictMode && NumJumps == 1 && Tables.size() == 1 &&
      UnmatchedTableJumps.size() == 1)
    RestoredJump = UnmatchedTableJumps.front();
}

void BoltFunctionView::noteEpilogueShape(StringRef Name, const MCInst &Inst,
                                         const Instruction &I, uint64_t Offset,
                                         const InstructionDecoder &Decoder) {
  if (Decoder.isAArch64()) {
    // isPop() is isLoadFromStack(): a load that uses SP. No indirect jump
    // gets past processIndirectBranch() (AArch64 jump tables are left to
    // relocations).
    if (loadsFromStack(Inst, Decoder))
      PopOffsets.push_back(Offset);
    if (I.Kind == InstrKind::IndirectBranch)
      UnknownJumps.push_back(Offset);
    return;
  }
  // X86MCPlusBuilder::isEpilogue(): the block has a pop or a leave.
  if ((Name.starts_with("POP") && !Name.starts_with("POPCNT")) ||
      Name.starts_with("LEAVE"))
    PopOffsets.push_back(Offset);
  if (I.Kind != InstrKind::IndirectBranch)
    return;
  // analyzeIndirectBranch() gives up (UNKNOWN) on `jmp *%r` and on a jump
  // through memory addressed by a register other than %rip.
  bool Register = Inst.getNumOperands() == 1 && Inst.getOperand(0).isReg();
  bool BaseRegister = Inst.getNumOperands() == 5 &&
                      Inst.getOperand(0).isReg() &&
                      Inst.getOperand(0).getReg() &&
                      !Decoder.analysis().evaluateMemoryOperandAddress(
                          Inst, &Decoder.subtargetInfo(), I.Address, I.Size);
  if (Register || BaseRegister)
    UnknownJumps.push_back(Offset);
}

void BoltFunctionView::findRejectedJump() {
  // Without relocations, postProcessIndirectBranches() goes through the
  // indirect jumps in layout order: a jump table it does not match in the
  // jump's block rejects the function, an unknown jump is a tail call if
  // its block is an epilogue and else rejects the function; the jumps
  // after a rejection are left as they are (no tail calls).
  if (Blocks.size() == 1)
    return;
  for (const Block &B : Blocks) {
    const Instruction &I = Instrs[B.Last];
    if (I.Kind != InstrKind::IndirectBranch)
      continue;
    auto Targets = JumpTargets.find(B.Last);
    bool HasTable = Targets != JumpTargets.end() && !Targets->second.empty();
    if (HasTable && !llvm::is_contained(UnmatchedTableJumps, B.Last))
      continue;
    if (!HasTable && !llvm::is_contained(UnknownJumps, I.Address))
      continue;
    if (HasTable || !popsBefore(I.Address)) {
      Rejected = true;
      return;
    }
    EpilogueTailCalls.push_back(I.Address);
  }
}

bool BoltFunctionView::popsBefore(uint64_t JumpOffset) const {
  std::optional<size_t> BB = blockContaining(JumpOffset);
  return BB && llvm::any_of(PopOffsets, [&](uint64_t Offset) {
           return Offset >= Blocks[*BB].Start && Offset <= JumpOffset;
         });
}

bool BoltFunctionView::analyzedTailCall(const Instruction &I) const {
  // postProcessIndirectBranches(): a jump analyzeIndirectBranch() cannot
  // analyze is a tail call when its block pops.
  if (llvm::is_contained(UnknownJumps, I.Address))
    return popsBefore(I.Address);
  // processIndirectBranch(): a jump through memory that holds no jump
  // table is one.
  const Instruction *Begin = Instrs.data();
  auto It = JumpTargets.find(&I - Begin);
  return It == JumpTargets.end() || It->second.empty();
}

bool BoltFunctionView::hasUnknownControlFlow() const {
  for (size_t I = 0; I < Instrs.size(); ++I)
    if (Instrs[I].Kind == InstrKind::IndirectBranch && isUnknownJump(I) &&
        RestoredJump != I)
      return true;
  return false;
}

bool BoltFunctionView::isUnknownJump(size_t Index) const {
  auto It = JumpTargets.find(Index);
  return StrictMode && !isTailCall(Instrs[Index]) &&
         (It == JumpTargets.end() || It->second.empty() ||
          llvm::is_contained(UnmatchedTableJumps, Index));
}

std::vector<uint64_t> BoltFunctionView::indirectTargets(size_t Index) const {
  // The jump table's entries (also of a table set again); else, in strict
  // mode, an unknown jump goes to every referenced offset.
  auto It = JumpTargets.find(Index);
  bool Unknown = isUnknownJump(Index) && RestoredJump != Index;
  if (It != JumpTargets.end() && !It->second.empty() && !Unknown)
    return It->second;
  if (StrictMode)
    return ReferencedOffsets;
  return {};
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
      // X86MCPlusBuilder::getCanonicalBranchCondCode() maps each condition
      // and its inverse to one of O, B, E, A, S, P, L, G (X86::CondCode 0,
      // 2, 4, 7, 8, 10, 12, 15); dfs() visits the fall-through of those
      // first.
      static constexpr unsigned CanonicalCodes = 1u << 0 | 1u << 2 | 1u << 4 |
                                                 1u << 7 | 1u << 8 | 1u << 10 |
                                                 1u << 12 | 1u << 15;
      bool Canonical = *B.CondCode < 16 && (CanonicalCodes >> *B.CondCode & 1);
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
  bool Eligible = IsReturn
                      ? From != 0
                      : !(B.Start == 0 || B.IsLandingPad || B.IsEntryPoint);
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
