//===- InstructionDecoder.cpp - one machine instruction at a time ---------===//
//
// Targets are registered once per process. The kind of an instruction comes
// from its MCInstrDesc flags through MCInstrAnalysis; no-ops are recognised
// by opcode name, which MC has no flag for (the names are looked up once,
// when the decoder is made): x86's NOOP* and AArch64's `nop`, which LLVM 22
// decodes as NOP and LLVM 19 as HINT #0 (other hints, such as bti and
// paciasp, are not no-ops to BOLT either).
//
// The MC objects are made once and only read afterwards, except the
// disassembler: getInstruction of x86 and AArch64 (LLVM 19 and 22) stores
// its comment stream in the MCDisassembler, so each thread decodes with its
// own. They share the MCContext, which the two targets' getInstruction
// does not use.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/InstructionDecoder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include <atomic>
#include <mutex>

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {

void registerTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeAllTargetInfos();
    InitializeAllTargetMCs();
    InitializeAllDisassemblers();
  });
}

/// The target-registry calls take a Triple from LLVM 21 on and a string
/// before (the string forms are deprecated in 22).
#if LLVM_VERSION_MAJOR >= 21
const Triple &registryTriple(const Triple &TT) { return TT; }
#else
const std::string &registryTriple(const Triple &TT) { return TT.getTriple(); }
#endif

/// Each decoder's ID, unique in the process.
uint64_t nextDecoderID() {
  static std::atomic<uint64_t> Next{1};
  return Next++;
}

/// A thread's cache of the disassembler it used last, and of which decoder.
struct LastDisassembler {
  uint64_t Decoder = 0;
  const MCDisassembler *Disassembler = nullptr;
};

Error setupError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot disassemble: " + Msg);
}

} // namespace

InstructionDecoder::~InstructionDecoder() = default;

Expected<std::unique_ptr<InstructionDecoder>>
InstructionDecoder::create(const ELFObjectFileBase &Obj) {
  registerTargets();
  std::unique_ptr<InstructionDecoder> D(new InstructionDecoder());
  Triple TT = Obj.makeTriple();
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(registryTriple(TT), Err);
  if (!T)
    return setupError(Err);
  Expected<SubtargetFeatures> Features = Obj.getFeatures();
  if (!Features)
    return Features.takeError();
  StringRef CPU = Obj.tryGetCPUName().value_or("");
  D->MRI.reset(T->createMCRegInfo(registryTriple(TT)));
  MCTargetOptions Options;
  D->MAI.reset(T->createMCAsmInfo(*D->MRI, registryTriple(TT), Options));
  D->STI.reset(
      T->createMCSubtargetInfo(registryTriple(TT), CPU, Features->getString()));
  D->MII.reset(T->createMCInstrInfo());
  D->AArch64 = TT.isAArch64();
  if (!D->MRI || !D->MAI || !D->STI || !D->MII)
    return setupError("no MC support for " + TT.str());
  D->Ctx =
      std::make_unique<MCContext>(TT, D->MAI.get(), D->MRI.get(), D->STI.get());
  D->TheTarget = T;
  D->ID = nextDecoderID();
  // The creating thread's disassembler, made now so that a target without
  // one fails here.
  std::unique_ptr<MCDisassembler> First(
      T->createMCDisassembler(*D->STI, *D->Ctx));
  D->Analysis.reset(T->createMCInstrAnalysis(D->MII.get()));
  D->Printer.reset(T->createMCInstPrinter(TT, D->MAI->getAssemblerDialect(),
                                          *D->MAI, *D->MII, *D->MRI));
  if (!First || !D->Analysis || !D->Printer)
    return setupError("no disassembler for " + TT.str());
  D->Disassemblers[std::this_thread::get_id()] = std::move(First);
  D->findNopOpcodes();
  for (const SectionRef &S : Obj.sections()) {
    if (!S.isText() || S.isVirtual())
      continue;
    Expected<StringRef> Contents = S.getContents();
    if (!Contents)
      return Contents.takeError();
    D->Sections.push_back({S.getAddress(), arrayRefFromStringRef(*Contents)});
  }
  llvm::sort(D->Sections, [](const CodeSection &A, const CodeSection &B) {
    return A.Address < B.Address;
  });
  return D;
}

void InstructionDecoder::findNopOpcodes() {
  NopOpcodes.resize(MII->getNumOpcodes());
  for (unsigned Op = 0; Op < MII->getNumOpcodes(); ++Op) {
    StringRef Name = MII->getName(Op);
    if (AArch64 ? Name == "NOP" : Name.starts_with("NOOP"))
      NopOpcodes.set(Op);
    if (AArch64 && Name == "HINT")
      HintOpcode = Op;
  }
}

InstrKind InstructionDecoder::classify(const MCInst &Inst) const {
  const MCInstrDesc &Desc = MII->get(Inst.getOpcode());
  if (Analysis->isCall(Inst))
    return InstrKind::Call;
  if (Analysis->isReturn(Inst))
    return InstrKind::Return;
  if (Analysis->isIndirectBranch(Inst))
    return InstrKind::IndirectBranch;
  if (Analysis->isConditionalBranch(Inst))
    return InstrKind::CondBranch;
  if (Analysis->isUnconditionalBranch(Inst))
    return InstrKind::UncondBranch;
  if (Desc.isTrap())
    return InstrKind::Trap;
  bool Nop = NopOpcodes.test(Inst.getOpcode()) ||
             (Inst.getOpcode() == HintOpcode && Inst.getNumOperands() == 1 &&
              Inst.getOperand(0).isImm() && Inst.getOperand(0).getImm() == 0);
  if (Nop)
    return InstrKind::Nop;
  return InstrKind::Other;
}

bool InstructionDecoder::isPCRelOperand(const MCInst &Inst,
                                        unsigned OpIndex) const {
  const MCInstrDesc &Desc = MII->get(Inst.getOpcode());
  return OpIndex < Desc.getNumOperands() &&
         Desc.operands()[OpIndex].OperandType == MCOI::OPERAND_PCREL;
}

const MCDisassembler &InstructionDecoder::disassembler() const {
  thread_local LastDisassembler Last;
  if (Last.Decoder == ID)
    return *Last.Disassembler;
  std::lock_guard<std::mutex> Lock(DisassemblersMutex);
  std::unique_ptr<MCDisassembler> &Own =
      Disassemblers[std::this_thread::get_id()];
  if (!Own)
    Own.reset(TheTarget->createMCDisassembler(*STI, *Ctx));
  Last = {ID, Own.get()};
  return *Own;
}

std::optional<Instruction> InstructionDecoder::decode(uint64_t Address) const {
  MCInst Inst;
  return decode(Address, Inst);
}

std::optional<Instruction> InstructionDecoder::decode(uint64_t Address,
                                                      MCInst &Inst) const {
  auto It = llvm::upper_bound(
      Sections, Address,
      [](uint64_t A, const CodeSection &S) { return A < S.Address; });
  if (It == Sections.begin())
    return std::nullopt;
  const CodeSection &S = *std::prev(It);
  if (Address - S.Address >= S.Bytes.size())
    return std::nullopt;
  uint64_t Size = 0;
  // Not the shared nulls(): AArch64's decoders may write comments, and a
  // raw_ostream is not safe to share.
  raw_null_ostream Comments;
  if (disassembler().getInstruction(
          Inst, Size, S.Bytes.drop_front(Address - S.Address), Address,
          Comments) != MCDisassembler::Success)
    return std::nullopt;
  Instruction I;
  I.Address = Address;
  I.Size = Size;
  I.Kind = classify(Inst);
  uint64_t Target = 0;
  if (I.Kind == InstrKind::Call || I.Kind == InstrKind::CondBranch ||
      I.Kind == InstrKind::UncondBranch) {
    if (Analysis->evaluateBranch(Inst, Address, Size, Target))
      I.Target = Target;
    else if (I.Kind == InstrKind::Call)
      I.Kind = InstrKind::IndirectCall;
  }
  return I;
}

StringRef InstructionDecoder::opcodeName(unsigned Opcode) const {
  return Printer->getOpcodeName(Opcode);
}

std::string InstructionDecoder::mnemonic(const MCInst &Inst) const {
  // getMnemonic takes a reference from LLVM 20 on.
#if LLVM_VERSION_MAJOR >= 20
  return Printer->getMnemonic(Inst).first;
#else
  return Printer->getMnemonic(&Inst).first;
#endif
}

} // namespace bbmap
