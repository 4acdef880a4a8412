//===- CodeHash.cpp - block hashes computed from machine code -------------===//
//
// Per block: the sorted opcode names of its instructions (nops and
// unconditional jumps left out, every conditional jump one "JCC", as BOLT's
// loose hash does, so that a changed layout or schedule keeps the hash),
// the same names in order with their operands, and the opcode hashes of
// its CFG neighbours (FunctionFlow.h), each folded to 16 bits of xxh3.
//
//===----------------------------------------------------------------------===//

#include "CodeHash.h"
#include "FunctionFlow.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <string>

using namespace llvm;

namespace bbmap {

namespace {

uint16_t fold(uint64_t H) { return H ^ (H >> 16) ^ (H >> 32) ^ (H >> 48); }

uint16_t hash16(StringRef S) { return fold(xxh3_64bits(S)); }

/// A deterministic mix of one value (splitmix64's finalizer).
uint64_t mix(uint64_t X) {
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ULL;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebULL;
  return X ^ (X >> 31);
}

/// The opcode and operand text of one block.
struct BlockText {
  std::vector<std::string> Opcodes;
  std::string Instrs;
  uint32_t Count = 0;
};

/// Appends \p Inst's operands, leaving out immediates of instructions that
/// address memory relative to the PC (x86's RIP) or branch: those are
/// addresses.
void appendOperands(const MCInst &Inst, const Instruction &I,
                    const MCRegisterInfo &MRI, std::string &Out) {
  bool PCRelative = I.Target.has_value();
  for (const MCOperand &Op : Inst)
    if (Op.isReg() && is_contained({StringRef("RIP"), StringRef("EIP")},
                                   StringRef(MRI.getName(Op.getReg()))))
      PCRelative = true;
  for (const MCOperand &Op : Inst) {
    if (Op.isReg())
      Out += std::string(MRI.getName(Op.getReg())) + ",";
    else if (Op.isImm() && !PCRelative)
      Out += std::to_string(Op.getImm()) + ",";
  }
  Out += ";";
}

BlockText blockText(uint64_t Start, uint64_t End,
                    const InstructionDecoder &Decoder) {
  BlockText T;
  const MCInstrInfo &MII = Decoder.instrInfo();
  for (uint64_t A = Start; A < End;) {
    MCInst Inst;
    std::optional<Instruction> I = Decoder.decode(A, Inst);
    if (!I)
      break;
    A = I->end();
    ++T.Count;
    if (I->Kind == InstrKind::Nop ||
        (I->Kind == InstrKind::UncondBranch && I->Target))
      continue;
    std::string Name = I->Kind == InstrKind::CondBranch
                           ? std::string("JCC")
                           : MII.getName(Inst.getOpcode()).str();
    T.Instrs += Name + " ";
    appendOperands(Inst, *I, Decoder.registerInfo(), T.Instrs);
    T.Opcodes.push_back(std::move(Name));
  }
  llvm::sort(T.Opcodes);
  return T;
}

} // namespace

std::vector<uint64_t> codeBlockHashes(const FunctionBlocks &F,
                                      const AddressIndex &Index,
                                      const InstructionDecoder &Decoder) {
  size_t N = F.Entries.size();
  std::vector<uint16_t> Opcodes(N);
  std::vector<uint64_t> Hashes(N);
  uint64_t Before = 0;
  for (size_t I = 0; I < N; ++I) {
    BlockText T = blockText(Index.blockStart(F.Entries[I]),
                            Index.blockEnd(F.Entries[I]), Decoder);
    Opcodes[I] = hash16(join(T.Opcodes, " "));
    Hashes[I] = uint64_t(hash16(T.Instrs)) << 32 | uint64_t(Opcodes[I]) << 16 |
                uint16_t(Before);
    Before += T.Count;
  }
  bool FromMap = false;
  std::vector<CFGNode> Nodes = buildFunctionCFG(F, Index, Decoder, FromMap);
  std::vector<uint64_t> Neighbours(N);
  for (size_t I = 0; I < N; ++I)
    for (uint32_t S : Nodes[I].Successors) {
      // Order-free: successors and predecessors add up their opcode hashes,
      // each side mixed apart.
      Neighbours[I] += mix(Opcodes[S]);
      Neighbours[S] += mix(Opcodes[I] + 0x10000u);
    }
  for (size_t I = 0; I < N; ++I)
    Hashes[I] |= uint64_t(fold(Neighbours[I])) << 48;
  return Hashes;
}

} // namespace bbmap
