//===- BoltFunctionView.h - BOLT's blocks of a function ---------*- C++ -*-===//
//
// Rebuilds the basic blocks BOLT's buildCFG() makes of one function, from a
// linear disassembly of its symbol extent and the function's
// .llvm_bb_addr_map blocks: a block starts at the entry, at direct branch
// targets, at landing pads, at map blocks that do not follow a call (jump
// table targets) and after every terminator, except that a jmp right after
// a jcc stays in the jcc's block (unless it is a tail call). Calls do not end
// blocks; padding nops stay in the block they follow. As in BOLT, a tail call
// (a jump or jcc to another function, an indirect jump of a map block with
// HasTailCall) counts as a call. Successors and predecessors are kept in
// the order buildCFG() adds them (taken branches by source and target
// offset, then the fall-through), and dfs() orders the blocks as
// BinaryFunction::dfs(). On these blocks it answers what BOLT's
// DataAggregator::getFallthroughsInTrace() answers: the fall-through edges
// a trace crosses, each from the offset of a block's last instruction.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_BOLTFUNCTIONVIEW_H
#define BBMAP_PROFILE_BOLTFUNCTIONVIEW_H

#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Profile/BoltFunctionTable.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace bbmap {

/// A block of the function's .llvm_bb_addr_map.
struct MapBlockStart {
  uint64_t Address = 0;
  /// metadata::* bits.
  uint32_t Metadata = 0;
};

/// Where the trace's run was entered from, as getFallthroughsInTrace()
/// distinguishes it.
enum class TraceOrigin {
  /// An `F` record: no branch known.
  FallthroughOnly,
  /// A branch from outside this function (another function, outside the
  /// binary, a return from elsewhere).
  Outside,
  /// A branch inside this function.
  Inside,
};

/// Fall-through edges (from offset, to offset) within one function.
using FallthroughList = llvm::SmallVector<std::pair<uint64_t, uint64_t>, 16>;

class BoltFunctionView {
public:
  /// One of BOLT's basic blocks; blocks are numbered in layout order, which
  /// is address order for an input binary.
  struct Block {
    /// Offset from the function's start.
    uint64_t Start = 0;
    /// Indices into instructions() of the block's first and last
    /// instruction.
    size_t First = 0;
    size_t Last = 0;
    bool IsLandingPad = false;
    /// Starts a map block that follows no call (a jump-table target).
    bool IsMapLabel = false;
    /// The condition code of a jcc ending the block (before a jmp or not).
    std::optional<unsigned> CondCode;
    llvm::SmallVector<uint32_t, 2> Successors;
    llvm::SmallVector<uint32_t, 2> Predecessors;

    size_t numInstructions() const { return Last - First + 1; }
  };

  /// Disassembles \p F; none when BOLT would have no CFG for it (empty, or
  /// an instruction does not decode). \p MapBlocks are the map's block
  /// starts within the function, ascending.
  static std::optional<BoltFunctionView>
  build(const BoltFunction &F, const InstructionDecoder &Decoder,
        llvm::ArrayRef<MapBlockStart> MapBlocks);

  /// The instruction starting at offset \p Offset, if any.
  const Instruction *instructionAt(uint64_t Offset) const;

  uint64_t address() const { return Address; }
  /// Addresses are offsets from address().
  llvm::ArrayRef<Instruction> instructions() const { return Instrs; }
  llvm::ArrayRef<Block> blocks() const { return Blocks; }
  /// Block indices in BinaryFunction::dfs() order (from the entry; landing
  /// pads are not known to the view, so blocks only they reach are left
  /// out).
  std::vector<uint32_t> dfs() const;

  /// The fall-through edges of the run from offset \p From to offset
  /// \p To; none when BOLT rejects the trace.
  std::optional<FallthroughList> fallthroughs(uint64_t From, uint64_t To,
                                              TraceOrigin Origin,
                                              bool IsReturn) const;

private:
  BoltFunctionView() = default;
  void buildBlocks(llvm::ArrayRef<MapBlockStart> MapBlocks);
  void buildEdges();
  bool hasFallthrough(const Block &B) const;
  void addEdge(size_t From, size_t To);
  std::optional<size_t> blockContaining(uint64_t Offset) const;
  bool isTailCall(const Instruction &I) const;
  bool isCall(const Instruction &I) const;
  bool isSuccessor(size_t BB, size_t Next) const;
  size_t adjustForCall(size_t FromBB, uint64_t From, TraceOrigin Origin,
                       bool IsReturn) const;

  uint64_t Address = 0;
  uint64_t Size = 0;
  /// Addresses are offsets from Address here.
  std::vector<Instruction> Instrs;
  std::vector<Block> Blocks;
  /// The function's map blocks (addresses).
  std::vector<MapBlockStart> MapBlocks;
};

} // namespace bbmap

#endif // BBMAP_PROFILE_BOLTFUNCTIONVIEW_H
