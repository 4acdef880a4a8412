//===- plugin/MapHandler.cpp - AsmPrinter handler emitting the map --------===//
//
// Collects one FunctionMap per function with code and emits it. Mirrors the
// in-tree AsmPrinter::emitBBAddrMapSection: the same record set (functions
// with real code), block boundaries (begin after alignment padding, end after
// the last instruction), metadata bits, features and PGO analyses.
//
//===----------------------------------------------------------------------===//

#include "MapHandler.h"
#include "BlockHash.h"
#include "Targets.h"
#include "llvm/CodeGen/AsmPrinter.h"
#include "llvm/CodeGen/LazyMachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineBranchProbabilityInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace bbmap {
namespace {

/// True if the compiler writes its own map for \p MF (-fbasic-block-address-map
/// or, before LLVM 20, -fbasic-block-sections=labels). bbmap then stays out
/// of the way so no function gets two records.
bool inTreeMapEnabled(const MachineFunction &MF) {
#if LLVM_VERSION_MAJOR < 20
  if (MF.hasBBLabels())
    return true;
#endif
  return MF.getTarget().Options.BBAddrMap;
}

/// The in-tree rule for "the function has code": some instruction other than
/// a position marker, IMPLICIT_DEF, KILL or debug instruction.
bool hasRealCode(const MachineFunction &MF) {
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB)
      if (!MI.isPosition() && !MI.isImplicitDef() && !MI.isKill() &&
          !MI.isDebugInstr())
        return true;
  return false;
}

/// The compiler's own block ID (the plugin has it assigned, see
/// requestBlockIDs in Plugin.cpp), else, with -fbasic-block-sections=all or
/// labels, the block number, which is unique in the function and final by
/// the time code is printed.
uint32_t blockID(const MachineBasicBlock &MBB) {
  if (std::optional<UniqueBBID> ID = MBB.getBBID())
    return ID->BaseID;
  return MBB.getNumber();
}

/// A diagnostic from the plugin; hosts print it like any backend message
/// ("warning: bbmap: ..." in clang and llc).
class BBMapDiagnostic : public DiagnosticInfo {
public:
  BBMapDiagnostic(const Twine &Msg, DiagnosticSeverity Severity)
      : DiagnosticInfo(kind(), Severity), Msg(Msg.str()) {}
  void print(DiagnosticPrinter &DP) const override { DP << Msg; }

private:
  static int kind() {
    static const int Kind = getNextAvailablePluginDiagnosticKind();
    return Kind;
  }
  std::string Msg;
};

uint32_t blockMetadata(MachineBasicBlock &MBB) {
  const TargetInstrInfo *TII = MBB.getParent()->getSubtarget().getInstrInfo();
  bool Last = !MBB.empty();
  uint32_t M = 0;
  if (MBB.isReturnBlock())
    M |= metadata::HasReturn;
  if (Last && TII->isTailCall(MBB.back()))
    M |= metadata::HasTailCall;
  if (MBB.isEHPad())
    M |= metadata::IsEHPad;
  if (MBB.canFallThrough())
    M |= metadata::CanFallThrough;
  if (Last && MBB.back().isIndirectBranch())
    M |= metadata::HasIndirectBranch;
  return M;
}

bool hasCalls(const MachineFunction &MF) {
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB)
      if (MI.isCall())
        return true;
  return false;
}

/// Number of address ranges: the entry range plus one per basic-block
/// section that starts elsewhere.
unsigned countRanges(const MachineFunction &MF) {
  unsigned N = 1;
  for (const MachineBasicBlock &MBB : MF)
    if (MBB.isBeginSection() && !MBB.isEntryBlock())
      ++N;
  return N;
}

/// Calls \p Visit for every block of \p MF with its entry in \p F, which
/// holds one entry per block in layout order, split into ranges.
template <typename Fn>
void forEachEntry(MachineFunction &MF, FunctionMap &F, Fn Visit) {
  auto Range = F.Ranges.begin();
  auto Entry = Range->Blocks.begin();
  for (MachineBasicBlock &MBB : MF) {
    if (Entry == Range->Blocks.end())
      Entry = (++Range)->Blocks.begin();
    Visit(MBB, *Entry++);
  }
}

} // namespace

MapHandler::MapHandler(AsmPrinter &AP, Expected<MapOptions> O) : AP(AP) {
  if (!O) {
    PendingDiagnostic = toString(O.takeError());
    PendingSeverity = DS_Error;
    Active = false;
    return;
  }
  Opts = *O;
  Active = Opts.Enabled;
  if (!Active)
    return;
  if (std::optional<std::string> Why =
          uncoveredTarget(AP.TM.getTargetTriple())) {
    PendingDiagnostic = "bbmap: " + *Why;
    Active = false;
  }
}

void MapHandler::report(LLVMContext &Ctx, DiagnosticSeverity Severity,
                        const Twine &Msg) {
  Ctx.diagnose(BBMapDiagnostic(Msg, Severity));
}

void MapHandler::beginModule(Module *M) {
  if (PendingDiagnostic.empty())
    return;
  report(M->getContext(), PendingSeverity, PendingDiagnostic);
  PendingDiagnostic.clear();
}

void MapHandler::beginFunction(const MachineFunction *MF) {
  Current.reset();
  if (!Active || inTreeMapEnabled(*MF) || !hasRealCode(*MF))
    return;
  Current = collect(const_cast<MachineFunction &>(*MF));
}

void MapHandler::endFunction(const MachineFunction *MF) {
  if (!Current)
    return;
  emitFunctionMap(AP, cast<MCSectionELF>(*MF->getSection()), *Current,
                  Opts.Enc);
  Current.reset();
}

uint16_t MapHandler::featuresOf(const MachineFunction &MF,
                                unsigned NumRanges) const {
  uint16_t F = Opts.PGOFeatures;
  if (MF.hasBBSections() && NumRanges > 1)
    F |= feature::MultiBBRange;
  if (Opts.SkipBBEntries)
    F |= feature::OmitBBEntries;
  if (Opts.BlockHash)
    F |= feature::BBHash;
  // As in-tree from version 3 on: call ends are recorded whenever the
  // function makes a call (tail calls included).
  if (Opts.Enc.allowsFeatures(feature::CallsiteEndOffsets) && hasCalls(MF))
    F |= feature::CallsiteEndOffsets;
  return F;
}

std::optional<FunctionMap> MapHandler::collect(MachineFunction &MF) {
  unsigned NumRanges = countRanges(MF);
  FunctionMap F;
  F.Features = featuresOf(MF, NumRanges);
  if (!Opts.Enc.allowsFeatures(F.Features & feature::MultiBBRange)) {
    report(MF.getFunction().getContext(), DS_Warning,
           "bbmap: '" + MF.getName() + "' has " + Twine(NumRanges) +
               " address ranges, which this map encoding cannot describe; "
               "use -bbmap-version=2 or later. No record emitted");
    return std::nullopt;
  }
  DenseMap<const MachineBasicBlock *, uint64_t> Hashes;
  if (F.Features & feature::BBHash)
    Hashes = computeBlockHashes(MF);
  for (MachineBasicBlock &MBB : MF) {
    if (F.Ranges.empty() || (MBB.isBeginSection() && !MBB.isEntryBlock()))
      F.Ranges.emplace_back();
    BlockEntry &B = F.Ranges.back().Blocks.emplace_back();
    B.ID = blockID(MBB);
    B.Metadata = blockMetadata(MBB);
    B.Hash = Hashes.lookup(&MBB);
  }
  if (F.Features & feature::PGOMask)
    addPGOAnalysis(MF, F);
  placeLabels(MF, F);
  return F;
}

void MapHandler::addPGOAnalysis(MachineFunction &MF, FunctionMap &F) {
  if (std::optional<Function::ProfileCount> Count =
          MF.getFunction().getEntryCount())
    F.EntryCount = Count->getCount();
  const MachineBlockFrequencyInfo *MBFI = nullptr;
  if (F.Features & feature::BBFreq)
    if (auto *Lazy =
            AP.getAnalysisIfAvailable<LazyMachineBlockFrequencyInfoPass>())
      MBFI = &Lazy->getBFI();
  const MachineBranchProbabilityInfo *MBPI = nullptr;
  if (F.Features & feature::BrProb)
    if (auto *W = AP.getAnalysisIfAvailable<
                  MachineBranchProbabilityInfoWrapperPass>())
      MBPI = &W->getMBPI();
  forEachEntry(MF, F, [&](MachineBasicBlock &MBB, BlockEntry &B) {
    if (MBFI)
      B.Frequency = MBFI->getBlockFreq(&MBB).getFrequency();
    if (MBPI)
      for (const MachineBasicBlock *Succ : MBB.successors())
        B.Successors.emplace_back(
            blockID(*Succ),
            MBPI->getEdgeProbability(&MBB, Succ).getNumerator());
  });
}

const MCSymbol *MapHandler::functionBeginLabel() {
  // beginFunction runs right after the function's entry label is printed.
  // Like the in-tree map, refer to a local label there rather than to the
  // function symbol, so that .o files relocate against the section.
  if (MCSymbol *Begin = AP.getFunctionBegin())
    return Begin;
  MCSymbol *Begin = AP.OutContext.createTempSymbol("bbmap_func_begin");
  AP.OutStreamer->emitLabel(Begin);
  return Begin;
}

void MapHandler::placeLabels(MachineFunction &MF, FunctionMap &F) {
  MCContext &Ctx = AP.OutContext;
  auto AfterInstr = [&](MachineInstr &MI) -> const MCSymbol * {
    if (MCSymbol *S = MI.getPostInstrSymbol())
      return S;
    MCSymbol *S = Ctx.createTempSymbol();
    MI.setPostInstrSymbol(MF, S);
    return S;
  };
  auto BeforeInstr = [&](MachineInstr &MI) -> const MCSymbol * {
    if (MCSymbol *S = MI.getPreInstrSymbol())
      return S;
    MCSymbol *S = Ctx.createTempSymbol();
    MI.setPreInstrSymbol(MF, S);
    return S;
  };
  const MCSymbol *FunctionBegin = functionBeginLabel();
  const MCSymbol *PrevEnd = FunctionBegin;
  bool RecordCallsites = F.Features & feature::CallsiteEndOffsets;
  forEachEntry(MF, F, [&](MachineBasicBlock &MBB, BlockEntry &B) {
    if (MBB.isEntryBlock()) {
      B.Begin = FunctionBegin;
    } else if (MBB.isBeginSection() || !MBB.pred_empty()) {
      // The printer emits the label of every block with a predecessor once
      // asked to, and always emits section-begin labels.
      MBB.setLabelMustBeEmitted();
      B.Begin = MBB.getSymbol();
    } else if (!MBB.empty()) {
      // No predecessor: nothing makes the printer emit the block label.
      B.Begin = BeforeInstr(MBB.front());
    } else {
      // Empty and unreachable: it occupies no bytes after the previous end.
      B.Begin = PrevEnd;
    }
    if (RecordCallsites)
      for (MachineInstr &MI : MBB)
        if (MI.isCall())
          B.CallsiteEnds.push_back(AfterInstr(MI));
    B.End = MBB.empty() ? B.Begin : AfterInstr(MBB.back());
    PrevEnd = B.End;
  });
  for (BlockRange &R : F.Ranges)
    R.Base = R.Blocks.front().Begin;
}

} // namespace bbmap
