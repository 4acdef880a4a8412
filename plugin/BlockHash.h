//===- plugin/BlockHash.h - per-block hashes for stale matching -*- C++ -*-===//
//
// The 64-bit "blended" block hash that LLVM 22 writes with -emit-bb-hash:
// four 16-bit parts (neighbour hash, instruction hash, opcode hash, offset).
// Computing it here lets LLVM 19 emit version 4/5 hashes as well.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PLUGIN_BLOCKHASH_H
#define BBMAP_PLUGIN_BLOCKHASH_H

#include "llvm/ADT/DenseMap.h"
#include <cstdint>

namespace llvm {
class MachineBasicBlock;
class MachineFunction;
} // namespace llvm

namespace bbmap {

/// Hash of every block of \p MF.
llvm::DenseMap<const llvm::MachineBasicBlock *, uint64_t>
computeBlockHashes(const llvm::MachineFunction &MF);

} // namespace bbmap

#endif // BBMAP_PLUGIN_BLOCKHASH_H
