//===- plugin/MapEmitter.h - one function's map record ----------*- C++ -*-===//
//
// The record of one function, as collected by the handler while the function
// is printed, and its encoding into the .llvm_bb_addr_map section linked to
// the function's text section. Offsets and sizes are emitted as label
// differences, so the assembler computes them from the final layout.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PLUGIN_MAPEMITTER_H
#define BBMAP_PLUGIN_MAPEMITTER_H

#include "bbmap/Format.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <utility>

namespace llvm {
class AsmPrinter;
class MCSectionELF;
class MCSymbol;
} // namespace llvm

namespace bbmap {

struct BlockEntry {
  uint32_t ID = 0;
  const llvm::MCSymbol *Begin = nullptr;
  const llvm::MCSymbol *End = nullptr;
  /// Labels just past each call in the block, in order.
  llvm::SmallVector<const llvm::MCSymbol *, 1> CallsiteEnds;
  uint32_t Metadata = 0;
  uint64_t Hash = 0;
  /// PGO analyses: raw block frequency and {successor ID, probability
  /// numerator over 2^31}.
  uint64_t Frequency = 0;
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 2> Successors;
};

/// A contiguous address range of the function: the entry range, or one
/// basic-block section (a -fbasic-block-sections part or the .cold split).
struct BlockRange {
  const llvm::MCSymbol *Base = nullptr;
  llvm::SmallVector<BlockEntry, 8> Blocks;
};

struct FunctionMap {
  uint16_t Features = 0;
  uint64_t EntryCount = 0;
  llvm::SmallVector<BlockRange, 1> Ranges;
};

/// Appends \p F to the map section of \p Text in encoding \p Enc.
void emitFunctionMap(llvm::AsmPrinter &AP, const llvm::MCSectionELF &Text,
                     const FunctionMap &F, Encoding Enc);

} // namespace bbmap

#endif // BBMAP_PLUGIN_MAPEMITTER_H
