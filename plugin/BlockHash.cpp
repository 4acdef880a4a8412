//===- plugin/BlockHash.cpp - per-block hashes for stale matching ---------===//
//
// Parts of a block's hash, each folded to 16 bits:
//   offset    - number of instructions in the blocks laid out before it;
//   opcode    - chained mix of the opcodes of its non-meta, non-terminator
//               instructions;
//   instr     - the same chain with every operand's stable hash mixed in;
//   neighbour - its opcode hash mixed with those of its successors, then of
//               its predecessors.
// The mixer and the fold are part of the on-disk format: changing either
// changes every hash.
//
//===----------------------------------------------------------------------===//

#include "BlockHash.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineStableHash.h"

using namespace llvm;

namespace bbmap {
namespace {

/// Mixes two 64-bit words (the 16-byte step of LLVM's hash_combine).
uint64_t mix(uint64_t Low, uint64_t High) {
  constexpr uint64_t Mul = 0x9ddfea08eb382d69ULL;
  uint64_t A = (Low ^ High) * Mul;
  A ^= A >> 47;
  uint64_t B = (High ^ A) * Mul;
  B ^= B >> 47;
  return B * Mul;
}

uint16_t fold(uint64_t V) {
  return uint16_t(V) ^ uint16_t(V >> 16) ^ uint16_t(V >> 32) ^
         uint16_t(V >> 48);
}

uint64_t chainHash(const MachineBasicBlock &MBB, bool WithOperands) {
  uint64_t H = 0;
  for (const MachineInstr &MI : MBB) {
    if (MI.isMetaInstruction() || MI.isTerminator())
      continue;
    H = mix(H, MI.getOpcode());
    if (WithOperands)
      for (const MachineOperand &MO : MI.operands())
        H = mix(H, stableHashValue(MO));
  }
  return H;
}

struct Parts {
  uint64_t Offset, Opcode, Instr, Neighbour;
};

} // namespace

DenseMap<const MachineBasicBlock *, uint64_t>
computeBlockHashes(const MachineFunction &MF) {
  DenseMap<const MachineBasicBlock *, Parts> P;
  uint64_t InstrsBefore = 0;
  for (const MachineBasicBlock &MBB : MF) {
    P[&MBB] = {InstrsBefore, chainHash(MBB, false), chainHash(MBB, true), 0};
    InstrsBefore += MBB.size();
  }
  for (const MachineBasicBlock &MBB : MF) {
    uint64_t H = P[&MBB].Opcode;
    for (const MachineBasicBlock *Succ : MBB.successors())
      H = mix(H, P[Succ].Opcode);
    for (const MachineBasicBlock *Pred : MBB.predecessors())
      H = mix(H, P[Pred].Opcode);
    P[&MBB].Neighbour = H;
  }
  DenseMap<const MachineBasicBlock *, uint64_t> Hashes;
  for (const MachineBasicBlock &MBB : MF) {
    const Parts &Q = P[&MBB];
    Hashes[&MBB] = uint64_t(fold(Q.Neighbour)) << 48 |
                   uint64_t(fold(Q.Instr)) << 32 |
                   uint64_t(fold(Q.Opcode)) << 16 | fold(Q.Offset);
  }
  return Hashes;
}

} // namespace bbmap
