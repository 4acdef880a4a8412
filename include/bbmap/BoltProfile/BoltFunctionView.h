//===- BoltFunctionView.h - BOLT's blocks of a function ---------*- C++ -*-===//
//
// Rebuilds the basic blocks BOLT's buildCFG() makes of one function, from a
// linear disassembly of its symbol extent and, where a .llvm_bb_addr_map
// covers the function, its map blocks: a block starts at the entry, at
// direct branch and jump-table targets, at landing pads (map blocks with
// IsEHPad; without a map, the LSDA's, BoltLandingPads.h), in
// strict relocation mode at offsets data refers to, and after every
// terminator, except that a jmp right after a jcc stays in the jcc's block
// (unless it is a tail call). Calls do not end blocks; padding nops after a
// terminator form a block of their own. As in BOLT, a tail call (a jump or
// jcc to another function, an indirect jump BOLT takes for one) counts as a
// call. Successors and predecessors are kept in
// the order buildCFG() adds them (taken branches by source and target
// offset, then the fall-through), and dfs() orders the blocks as
// BinaryFunction::dfs(). On these blocks it answers what BOLT's
// DataAggregator::getFallthroughsInTrace() answers: the fall-through edges
// a trace crosses, each from the offset of a block's last instruction.
//
// Threading: a view is built once and then only read: its const members may be
// called concurrently; mapBlockStarts only reads the binary.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BOLTFUNCTIONVIEW_H
#define BBMAP_BOLTPROFILE_BOLTFUNCTIONVIEW_H

#include "bbmap/BoltProfile/BoltFunctionTable.h"
#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <map>
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

/// Every block start of \p Binary's maps, ascending.
std::vector<MapBlockStart> mapBlockStarts(const MappedBinary &Binary);

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

/// What BOLT learns about a function from the rest of the file.
struct BoltCodeContext {
  /// perf2bolt reads the file in strict relocation mode: the file keeps
  /// relocations for its code.
  bool StrictMode = false;
  /// Code addresses absolute relocations of data refer to, ascending.
  llvm::ArrayRef<uint64_t> DataReferences;
  /// Reads \p Size (4 or 8) little-endian bytes of the file's data at
  /// \p Address; none outside it.
  llvm::function_ref<std::optional<uint64_t>(uint64_t Address, unsigned Size)>
      ReadData;
  /// For a function no map covers: its landing pads (offsets, ascending)
  /// from its LSDA.
  llvm::ArrayRef<uint64_t> LandingPads;
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
    /// A secondary entry point of BOLT's: a symbol inside the function
    /// (BoltFunction::SymbolEntries) or, on AArch64, an address an adr
    /// takes of the function's own code (handleAddressRef() takes it for
    /// an escaped address, as the first target of a jump table).
    bool IsEntryPoint = false;
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
        llvm::ArrayRef<MapBlockStart> MapBlocks,
        const BoltCodeContext &Context);

  /// The instruction starting at offset \p Offset, if any.
  const Instruction *instructionAt(uint64_t Offset) const;
  /// The block holding offset \p Offset, if any.
  std::optional<size_t> blockContaining(uint64_t Offset) const;
  /// Where block \p BB ends: the next block's start, or the function's end.
  uint64_t blockEnd(size_t BB) const {
    return BB + 1 < Blocks.size() ? Blocks[BB + 1].Start : Size;
  }

  uint64_t address() const { return Address; }
  /// The symbol size: the extent of the disassembly.
  uint64_t size() const { return Size; }
  /// Addresses are offsets from address().
  llvm::ArrayRef<Instruction> instructions() const { return Instrs; }
  llvm::ArrayRef<Block> blocks() const { return Blocks; }
  /// Block indices in BinaryFunction::dfs() order (from the entry; landing
  /// pads are not known to the view, so blocks only they reach are left
  /// out).
  std::vector<uint32_t> dfs() const;
  /// BOLT keeps the function simple: postProcessIndirectBranches() does
  /// not reject it (without relocations, a jump table it no longer matches
  /// in the jump's block does). BOLT 19's aggregator takes no trace through
  /// a function that is not.
  bool isSimple() const { return !Rejected; }
  /// In strict mode, data refers into the function elsewhere than to its
  /// jump tables' targets: validateExternallyReferencedOffsets() fails, and
  /// BOLT does not optimize the function (a computed goto's label table).
  bool hasUnclaimedReference() const { return UnclaimedReference; }
  /// In strict mode, an indirect jump BOLT can follow neither as a tail
  /// call nor through a jump table, other than the one whose table BOLT
  /// sets again (hasUnknownControlFlow()).
  bool hasUnknownControlFlow() const;
  /// \p Address lies in one of the function's jump tables.
  bool inJumpTable(uint64_t Address) const;
  /// BOLT takes \p I for a tail call: a direct jump or jcc out of the
  /// function, an indirect jump of a single-block function or (strict
  /// mode) of a function nothing refers into, or one its map block marks
  /// HasTailCall; without a map, one BOLT's own analysis takes for a tail
  /// call (analyzedTailCall()).
  bool isTailCall(const Instruction &I) const;

  /// The fall-through edges of the run from offset \p From to offset
  /// \p To; none when BOLT rejects the trace.
  std::optional<FallthroughList> fallthroughs(uint64_t From, uint64_t To,
                                              TraceOrigin Origin,
                                              bool IsReturn) const;

private:
  BoltFunctionView() = default;
  struct JumpTableSite {
    /// Index of the indirect jump.
    size_t Jump = 0;
    uint64_t Table = 0;
    /// Entries are 4-byte offsets from the table (PIC) rather than 8-byte
    /// addresses.
    bool Relative = false;
    /// Index of the first instruction of the pattern that names the table
    /// (the jump itself, or a PIC table's `lea` or entry load).
    size_t PatternStart = 0;
  };

  void readJumpTable(const JumpTableSite &Site,
                     llvm::ArrayRef<JumpTableSite> Sites,
                     const BoltCodeContext &Context);
  void collectReferences(const BoltCodeContext &Context);
  void findUnmatchedTables(llvm::ArrayRef<JumpTableSite> Sites);
  void noteEpilogueShape(llvm::StringRef Name, const llvm::MCInst &Inst,
                         const Instruction &I, uint64_t Offset,
                         const InstructionDecoder &Decoder);
  void findRejectedJump();
  bool popsBefore(uint64_t JumpOffset) const;
  bool analyzedTailCall(const Instruction &I) const;
  bool hasInternalReference() const;
  void buildBlocks();
  void buildEdges();
  bool hasFallthrough(const Block &B) const;
  std::vector<uint64_t> indirectTargets(size_t Index) const;
  /// In strict mode, instruction \p Index is an indirect jump that is no
  /// tail call and has no jump table, or one BOLT unsets
  /// (UnmatchedTableJumps).
  bool isUnknownJump(size_t Index) const;
  void addEdge(size_t From, size_t To);
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
  /// Without map blocks: the LSDA's landing pads (offsets).
  std::vector<uint64_t> LandingPads;
  bool StrictMode = false;
  /// Indirect jump index -> the offsets its jump table holds.
  std::map<size_t, std::vector<uint64_t>> JumpTargets;
  /// The jump tables' address ranges [begin, end).
  std::vector<std::pair<uint64_t, uint64_t>> JumpTables;
  /// Indirect jumps whose PIC table pattern starts before their block,
  /// which postProcessIndirectBranches() does not match.
  llvm::SmallVector<size_t, 1> UnmatchedTableJumps;
  /// The one of them whose table BOLT sets again (the function's only
  /// indirect jump and table): its targets are added after all other
  /// edges.
  std::optional<size_t> RestoredJump;
  /// x86-64: offsets of pops and leaves, and of the indirect jumps
  /// analyzeIndirectBranch() cannot analyze (through a register, or memory
  /// addressed by one). AArch64, without a map: offsets of loads from the
  /// stack (AArch64MCPlusBuilder::isPop()) and of every indirect jump (it
  /// matches none).
  std::vector<uint64_t> PopOffsets;
  std::vector<uint64_t> UnknownJumps;
  /// Without relocations: those of them BOLT takes for tail calls (their
  /// block pops), and whether it rejects the function's CFG.
  std::vector<uint64_t> EpilogueTailCalls;
  bool Rejected = false;
  /// Offsets of secondary entry points (Block::IsEntryPoint).
  std::vector<uint64_t> AddressTaken;
  /// BOLT's ExternallyReferencedOffsets in strict mode: jump-table targets
  /// and offsets data relocations refer to, ascending.
  std::vector<uint64_t> ReferencedOffsets;
  bool UnclaimedReference = false;
};

} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BOLTFUNCTIONVIEW_H
