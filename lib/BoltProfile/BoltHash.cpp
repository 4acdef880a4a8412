//===- BoltHash.cpp - BOLT's function and block hashes --------------------===//
//
// Follows bolt/lib/Core/HashUtilities.cpp and computeHash() /
// computeBlockHashes() of BOLT 19 and 22, which agree. The instructions are
// decoded again with MC; where BOLT's MCInst differs from the decoded one
// the difference is applied by opcode name: a jcc is hashed by its short
// opcode, a tail call by the opcode convertJmpToTailCall() gives it.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BoltHash.h"
#include "llvm/ADT/Bitfields.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/Support/xxhash.h"
#include <functional>
#include <set>

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {

/// BOLT's hashInteger: the value's bytes from the least significant one,
/// a single zero byte for zero.
std::string hashInteger(uint64_t Value) {
  std::string S;
  if (Value == 0)
    S.push_back(0);
  for (; Value; Value >>= 8)
    S.push_back(char(Value & 0xff));
  return S;
}

/// The name of the opcode BOLT's MCInst has for \p I, one named \p Name
/// when decoded: getShortBranchOpcode() of a jcc, convertJmpToTailCall() of
/// a tail call.
StringRef boltOpcodeName(StringRef Name, const Instruction &I, bool TailCall) {
  static const std::pair<StringRef, StringRef> Short[] = {{"JCC_2", "JCC_1"},
                                                          {"JCC_4", "JCC_1"}};
  static const std::pair<StringRef, StringRef> Tail[] = {
      {"JMP_1", "JMP_4"},   {"JMP_2", "JMP_4"},   {"JMP16m", "JMP32m"},
      {"JMP64m", "JMP32m"}, {"JMP16r", "JMP32r"}, {"JMP64r", "JMP32r"}};
  ArrayRef<std::pair<StringRef, StringRef>> Renames;
  if (I.Kind == InstrKind::CondBranch)
    Renames = Short;
  else if (TailCall)
    Renames = Tail;
  for (const auto &[From, To] : Renames)
    if (Name == From)
      return To;
  return Name;
}

/// The index of the displacement of \p Inst's PC-relative memory
/// reference, or -1: X86 gives a memory reference as base, scale, index,
/// displacement and segment, and a PC-relative one has scale 1 and no
/// index. (LEA's operands carry no memory operand type to find it by.)
int pcRelDisplacement(const MCInst &Inst) {
  for (unsigned I = 0; I + 4 < Inst.getNumOperands(); ++I) {
    const MCOperand &Base = Inst.getOperand(I);
    const MCOperand &Scale = Inst.getOperand(I + 1);
    const MCOperand &Index = Inst.getOperand(I + 2);
    if (Base.isReg() && Scale.isImm() && Scale.getImm() == 1 && Index.isReg() &&
        !Index.getReg() && Inst.getOperand(I + 3).isImm() &&
        Inst.getOperand(I + 4).isReg())
      return I + 3;
  }
  return -1;
}

uint64_t hashString(const std::string &S, boltyaml::HashFunction Hash) {
  if (Hash == boltyaml::HashFunction::XXH3)
    return xxh3_64bits(S);
  return std::hash<std::string>{}(S);
}

/// A 64-bit hash narrowed as computeBlockHashes() narrows it: std::hash
/// values pass through llvm::hash_value first.
template <typename T> T narrow(uint64_t Value, boltyaml::HashFunction Hash) {
  if (Hash == boltyaml::HashFunction::XXH3)
    return T(Value);
  return T(hash_value(Value));
}

/// BOLT's BlendedBlockHash, combined into 64 bits.
struct BlendedHash {
  uint16_t Offset = 0;
  uint16_t OpcodeHash = 0;
  uint16_t InstrHash = 0;
  uint8_t PredHash = 0;
  uint8_t SuccHash = 0;

  uint64_t combine() const {
    uint64_t Hash = 0;
    Bitfield::set<Bitfield::Element<uint16_t, 0, 16>>(Hash, Offset);
    Bitfield::set<Bitfield::Element<uint16_t, 16, 16>>(Hash, OpcodeHash);
    Bitfield::set<Bitfield::Element<uint16_t, 32, 16>>(Hash, InstrHash);
    Bitfield::set<Bitfield::Element<uint8_t, 48, 8>>(Hash, PredHash);
    Bitfield::set<Bitfield::Element<uint8_t, 56, 8>>(Hash, SuccHash);
    return Hash;
  }
};

/// Folds the loose hashes of \p Neighbours as computeBlockHashes() does.
uint64_t neighbourHash(ArrayRef<uint32_t> Neighbours,
                       ArrayRef<uint64_t> OpcodeHashes) {
  uint64_t Hash = 0;
  for (uint32_t N : Neighbours)
    Hash = hashing::detail::hash_16_bytes(Hash, OpcodeHashes[N]);
  return Hash;
}

} // namespace

BoltHasher::BoltHasher(const ELFObjectFileBase &Obj,
                       const InstructionDecoder &Decoder,
                       const BoltFunctionTable &Functions)
    : Decoder(Decoder), Functions(Functions) {
  collectAbsoluteRelocations(Obj);
  collectAArch64Relocations(Obj);
  for (const ELFSymbolRef &Sym : Obj.symbols()) {
    Expected<SymbolRef::Type> Type = Sym.getType();
    Expected<uint32_t> Flags = Sym.getFlags();
    Expected<uint64_t> Address = Sym.getAddress();
    if (!Type || !Flags || !Address) {
      // The function table read the same symbols' flags and addresses
      // and kept the problems (BoltFunctionTable::warnings).
      consumeError(Type.takeError());
      consumeError(Flags.takeError());
      consumeError(Address.takeError());
      continue;
    }
    if (*Type == SymbolRef::ST_File || *Type == SymbolRef::ST_Debug ||
        (*Flags & SymbolRef::SF_Undefined) || *Address == 0)
      continue;
    uint64_t &Size = DataObjects[*Address];
    Size = std::max(Size, Sym.getSize());
  }
  // BOLT registers a data object for every function it makes, those
  // without a symbol of their own too (`__BOLT_FDE_FUNCat...`, and section
  // symbols' such as `.bolt.org.text/1` in a BOLTed binary).
  for (const BoltFunction &F : Functions.functions())
    if (!F.IsPseudo)
      DataObjects.try_emplace(F.Address, F.Size);
}

/// Calls \p Visit with each relocation of \p Obj that applies to a text
/// section and that \p Wanted accepts, with its symbol's value and its
/// addend; relocations whose value or addend cannot be read are left out,
/// with a warning in \p Warnings.
static void forEachTextRelocation(
    const ELFObjectFileBase &Obj, WarningList &Warnings,
    function_ref<bool(const RelocationRef &)> Wanted,
    function_ref<void(const RelocationRef &, uint64_t, int64_t)> Visit) {
  for (const SectionRef &S : Obj.sections()) {
    Expected<section_iterator> Target = S.getRelocatedSection();
    if (!Target || *Target == Obj.section_end() || !(*Target)->isText()) {
      // The function table kept this problem (hasCodeRelocations).
      consumeError(Target.takeError());
      continue;
    }
    for (const RelocationRef &R : S.relocations()) {
      if (!Wanted(R))
        continue;
      Expected<int64_t> Addend = ELFRelocationRef(R).getAddend();
      Expected<uint64_t> Value = R.getSymbol()->getValue();
      if (Addend && Value) {
        Visit(R, *Value, *Addend);
        continue;
      }
      Warnings.add("code relocation",
                   "unable to read a relocation of section [" +
                       Twine(S.getIndex()) + "] (it is left out)",
                   joinErrors(Addend.takeError(), Value.takeError()));
    }
  }
}

void BoltHasher::collectAbsoluteRelocations(const ELFObjectFileBase &Obj) {
  if (Obj.getArch() != Triple::x86_64)
    return;
  forEachTextRelocation(
      Obj, Warnings,
      [](const RelocationRef &R) {
        uint64_t Type = R.getType();
        return Type == ELF::R_X86_64_32 || Type == ELF::R_X86_64_32S ||
               Type == ELF::R_X86_64_64;
      },
      [&](const RelocationRef &R, uint64_t Value, int64_t Addend) {
        // A linked file's relocations are at addresses.
        AbsoluteRelocations[R.getOffset()] = Value + Addend;
      });
}

void BoltHasher::collectAArch64Relocations(const ELFObjectFileBase &Obj) {
  if (Obj.getArch() != Triple::aarch64)
    return;
  forEachTextRelocation(
      Obj, Warnings, [](const RelocationRef &) { return true; },
      [&](const RelocationRef &R, uint64_t Value, int64_t Addend) {
        AArch64Relocations[R.getOffset()] = {R.getType(), Value, Addend};
      });
  for (const SectionRef &S : Obj.sections()) {
    Expected<StringRef> Name = S.getName();
    if (Name && *Name == ".got" && S.getSize())
      GOTPages = {S.getAddress() & ~0xfffULL,
                  (S.getAddress() + S.getSize() - 1) & ~0xfffULL};
    // The function table kept this problem (checkSectionNames).
    consumeError(Name.takeError());
  }
}

bool BoltHasher::isRelocated(uint64_t Begin, uint64_t End,
                             int64_t Value) const {
  for (auto It = AbsoluteRelocations.lower_bound(Begin);
       It != AbsoluteRelocations.end() && It->first < End; ++It)
    if (It->second == uint64_t(Value) || int64_t(int32_t(It->second)) == Value)
      return true;
  return false;
}

unsigned BoltHasher::boltOpcode(const MCInst &Inst, const Instruction &I,
                                bool TailCall) const {
  StringRef Name = Decoder.opcodeName(Inst.getOpcode());
  StringRef BoltName = boltOpcodeName(Name, I, TailCall);
  if (BoltName == Name)
    return Inst.getOpcode();
  auto It = Opcodes.find(BoltName);
  if (It != Opcodes.end())
    return It->second;
  const MCInstrInfo &MII = Decoder.instrInfo();
  for (unsigned Opcode = 0, E = MII.getNumOpcodes(); Opcode != E; ++Opcode)
    if (MII.getName(Opcode) == BoltName)
      return Opcodes[BoltName] = Opcode;
  return Inst.getOpcode();
}

std::string BoltHasher::referenceString(const BoltFunctionView &View,
                                        uint64_t Target) const {
  // hashSymbol(): jump-table references hash to nothing.
  if (View.inJumpTable(Target))
    return std::string();
  // handleAddressRef(): an address in the function itself becomes one of
  // its labels, which hash to nothing.
  if (Target >= View.address() && Target - View.address() < View.size())
    return std::string();
  // getBinaryDataContainingAddress(): the nearest data object at or below.
  auto It = DataObjects.upper_bound(Target);
  if (It == DataObjects.begin())
    return hashInteger(Target);
  --It;
  auto [Address, Size] = *It;
  if (Target != Address && Target - Address >= Size)
    return hashInteger(Target);
  // hashSymbol(): function references hash to nothing.
  const BoltFunction *F = Functions.containing(Address);
  std::string S = F && F->Address == Address ? "" : hashInteger(Address);
  if (Target != Address)
    S += hashInteger(0) + hashInteger(Target - Address);
  return S;
}

std::string BoltHasher::aarch64Reference(const BoltFunctionView &View,
                                         uint64_t Type, uint64_t Target) const {
#if LLVM_VERSION_MAJOR >= 21
  // getTargetExprFor() wraps the reference in an MCSpecifierExpr, which
  // BOLT hashes as its specifier (AArch64MCAsmInfo.h: S_ABS 0x1, S_PAGE
  // 0x10, S_PAGEOFF 0x20, S_G0..S_G3 0x40..0x70, S_NC 0x100) and the
  // reference.
  unsigned Specifier = 0;
  switch (Type) {
  case ELF::R_AARCH64_ADR_PREL_LO21:
    Specifier = 0x001;
    break;
  case ELF::R_AARCH64_ADR_PREL_PG_HI21:
  case ELF::R_AARCH64_ADR_PREL_PG_HI21_NC:
  case ELF::R_AARCH64_ADR_GOT_PAGE:
    Specifier = 0x011;
    break;
  case ELF::R_AARCH64_ADD_ABS_LO12_NC:
  case ELF::R_AARCH64_LD64_GOT_LO12_NC:
  case ELF::R_AARCH64_LDST8_ABS_LO12_NC:
  case ELF::R_AARCH64_LDST16_ABS_LO12_NC:
  case ELF::R_AARCH64_LDST32_ABS_LO12_NC:
  case ELF::R_AARCH64_LDST64_ABS_LO12_NC:
  case ELF::R_AARCH64_LDST128_ABS_LO12_NC:
    Specifier = 0x121;
    break;
  case ELF::R_AARCH64_MOVW_UABS_G3:
    Specifier = 0x071;
    break;
  case ELF::R_AARCH64_MOVW_UABS_G2:
  case ELF::R_AARCH64_MOVW_UABS_G2_NC:
    Specifier = 0x161;
    break;
  case ELF::R_AARCH64_MOVW_UABS_G1:
  case ELF::R_AARCH64_MOVW_UABS_G1_NC:
    Specifier = 0x151;
    break;
  case ELF::R_AARCH64_MOVW_UABS_G0:
  case ELF::R_AARCH64_MOVW_UABS_G0_NC:
    Specifier = 0x141;
    break;
  default:
    return referenceString(View, Target);
  }
  return hashInteger(Specifier) + referenceString(View, Target);
#else
  // BOLT 19's AArch64MCExpr is an MCTargetExpr: it hashes to nothing.
  (void)View;
  (void)Type;
  (void)Target;
  return std::string();
#endif
}

std::string BoltHasher::aarch64RelocatedOperand(const BoltFunctionView &View,
                                                const AArch64Relocation &R,
                                                StringRef Opcode,
                                                uint64_t Address,
                                                int64_t Imm) const {
  // AArch64MCSymbolizer::adjustRelocation(): a GOT relocation of an add
  // (the linker relaxed the load) is the add's; an adrp the linker pointed
  // at the symbol's own page outside the GOT refers to the symbol; any
  // other refers to `__BOLT_got_zero` (address 0) plus the value the
  // instruction holds (a page, or a load offset scaled by 8).
  if (R.Type == ELF::R_AARCH64_LD64_GOT_LO12_NC && Opcode == "ADDXri")
    return aarch64Reference(View, ELF::R_AARCH64_ADD_ABS_LO12_NC,
                            R.Symbol + R.Addend);
  if (R.Type != ELF::R_AARCH64_ADR_GOT_PAGE &&
      R.Type != ELF::R_AARCH64_LD64_GOT_LO12_NC)
    return aarch64Reference(View, R.Type, R.Symbol + R.Addend);
  bool Page = R.Type == ELF::R_AARCH64_ADR_GOT_PAGE;
  uint64_t Value =
      Page ? (Address & ~0xfffULL) + (uint64_t(Imm) << 12) : uint64_t(Imm) * 8;
  if (Page && R.Addend == 0 && (R.Symbol & ~0xfffULL) == Value &&
      !(GOTPages && Value >= GOTPages->first && Value <= GOTPages->second))
    return aarch64Reference(View, ELF::R_AARCH64_ADR_PREL_PG_HI21, R.Symbol);
#if LLVM_VERSION_MAJOR >= 21
  return hashInteger(Page ? 0x011 : 0x121) + hashInteger(0) + hashInteger(0) +
         hashInteger(Value);
#else
  return std::string();
#endif
}

std::string BoltHasher::operandString(const BoltFunctionView &View,
                                      const Instruction &I, const MCInst &Inst,
                                      unsigned OpIndex,
                                      int Displacement) const {
  const MCOperand &Op = Inst.getOperand(OpIndex);
  // Direct branch and call targets are symbols BOLT hashes to nothing.
  bool PCRel = Decoder.isPCRelOperand(Inst, OpIndex);
  if (PCRel && I.Target)
    return std::string();
  if (Decoder.isAArch64()) {
    uint64_t Address = View.address() + I.Address;
    StringRef Name = Decoder.opcodeName(Inst.getOpcode());
    // AArch64MCSymbolizer: an adr's label always becomes a symbol
    // reference (S_ABS); a relocation of another instruction (not a
    // branch, not a hint) replaces the immediate the disassembler offers
    // it, the first.
    if (Name == "ADR" && PCRel && Op.isImm())
      return aarch64Reference(View, ELF::R_AARCH64_ADR_PREL_LO21,
                              Address + Op.getImm());
    auto Reloc = AArch64Relocations.find(Address);
    if (Reloc != AArch64Relocations.end() && !I.Target &&
        I.Kind != InstrKind::Nop && Name != "HINT" && Op.isImm() &&
        llvm::none_of(llvm::make_range(Inst.begin(), Inst.begin() + OpIndex),
                      [](const MCOperand &O) { return O.isImm(); }))
      return aarch64RelocatedOperand(View, Reloc->second, Name, Address,
                                     Op.getImm());
  }
  if (OpIndex == unsigned(Displacement)) {
    uint64_t Address = View.address() + I.Address;
    if (std::optional<uint64_t> Target =
            Decoder.analysis().evaluateMemoryOperandAddress(
                Inst, &Decoder.subtargetInfo(), Address, I.Size))
      return referenceString(View, *Target);
  }
  if (Op.isReg())
    return hashInteger(Op.getReg());
  if (!Op.isImm())
    return std::string();
  // With relocations BOLT's symbolizer turns a relocated immediate or
  // displacement into a symbol reference.
  // BOLT refers to a jump table by its symbol, with relocations or not.
  uint64_t Address = View.address() + I.Address;
  if (isRelocated(Address, Address + I.Size, Op.getImm()) ||
      (I.Kind == InstrKind::IndirectBranch && View.inJumpTable(Op.getImm())))
    return referenceString(View, Op.getImm());
  return hashInteger(Op.getImm());
  return std::string();
}

std::string BoltHasher::blockString(const BoltFunctionView &View,
                                    const BoltFunctionView::Block &B,
                                    bool WithOperands) const {
  std::string S;
  for (size_t Index = B.First; Index <= B.Last; ++Index) {
    const Instruction &I = View.instructions()[Index];
    bool TailCall = View.isTailCall(I);
    if (I.Kind == InstrKind::UncondBranch && !TailCall)
      continue;
    MCInst Inst;
    if (!Decoder.decode(View.address() + I.Address, Inst))
      continue;
    Inst.setOpcode(boltOpcode(Inst, I, TailCall));
    S += Decoder.opcodeName(Inst.getOpcode());
    if (!WithOperands)
      continue;
    int Displacement = Decoder.isAArch64() ? -1 : pcRelDisplacement(Inst);
    for (unsigned Op = 0, E = Inst.getNumOperands(); Op != E; ++Op)
      S += operandString(View, I, Inst, Op, Displacement);
  }
  return S;
}

std::string
BoltHasher::looseBlockString(const BoltFunctionView &View,
                             const BoltFunctionView::Block &B) const {
  std::set<std::string> Mnemonics;
  for (size_t Index = B.First; Index <= B.Last; ++Index) {
    const Instruction &I = View.instructions()[Index];
    if (I.Kind == InstrKind::Nop ||
        (I.Kind == InstrKind::UncondBranch && !View.isTailCall(I)))
      continue;
    if (I.Kind == InstrKind::CondBranch) {
      Mnemonics.insert("JMP");
      continue;
    }
    MCInst Inst;
    if (!Decoder.decode(View.address() + I.Address, Inst))
      continue;
    Inst.setOpcode(boltOpcode(Inst, I, View.isTailCall(I)));
    std::string Mnemonic = Decoder.mnemonic(Inst);
    llvm::erase_if(Mnemonic, [](unsigned char C) { return std::isspace(C); });
    Mnemonics.insert(Mnemonic);
  }
  std::string S;
  for (const std::string &M : Mnemonics)
    S += M;
  return S;
}

BoltHashes BoltHasher::hash(const BoltFunctionView &View,
                            boltyaml::HashFunction Hash, bool UseDFS) const {
  ArrayRef<BoltFunctionView::Block> Blocks = View.blocks();
  BoltHashes Result;
  std::string FunctionString;
  auto AddBlock = [&](uint32_t BB) {
    FunctionString += blockString(View, Blocks[BB], /*WithOperands=*/false);
  };
  if (UseDFS)
    llvm::for_each(View.dfs(), AddBlock);
  else
    for (uint32_t BB = 0; BB < Blocks.size(); ++BB)
      AddBlock(BB);
  Result.Function = Blocks.empty() ? 0 : hashString(FunctionString, Hash);

  std::vector<BlendedHash> Blended(Blocks.size());
  std::vector<uint64_t> OpcodeHashes(Blocks.size());
  for (size_t BB = 0; BB < Blocks.size(); ++BB) {
    Blended[BB].Offset = uint16_t(Blocks[BB].Start);
    Blended[BB].InstrHash = narrow<uint16_t>(
        hashString(blockString(View, Blocks[BB], /*WithOperands=*/true), Hash),
        Hash);
    OpcodeHashes[BB] = hashString(looseBlockString(View, Blocks[BB]), Hash);
    Blended[BB].OpcodeHash = narrow<uint16_t>(OpcodeHashes[BB], Hash);
  }
  for (size_t BB = 0; BB < Blocks.size(); ++BB) {
    Blended[BB].SuccHash = narrow<uint8_t>(
        neighbourHash(Blocks[BB].Successors, OpcodeHashes), Hash);
    Blended[BB].PredHash = narrow<uint8_t>(
        neighbourHash(Blocks[BB].Predecessors, OpcodeHashes), Hash);
    Result.Blocks.push_back(Blended[BB].combine());
  }
  return Result;
}

} // namespace bbmap
