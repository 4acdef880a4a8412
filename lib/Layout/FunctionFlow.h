//===- FunctionFlow.h - a function's CFG as a profi flow network -*- C++
//-*-===//
//
// What profile inference (FlowInference.cpp) and stale-profile matching
// (StaleMatching.cpp) share: the CFG of one mapped function (from the map's
// PGO successor lists, else from the decoded instruction that ends each
// block), the flow network LLVM's profile inference ("profi") solves over
// it, and writing the solved flow back as block, edge, call and return
// counts. Private to lib/Layout.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LIB_LAYOUT_FUNCTIONFLOW_H
#define BBMAP_LIB_LAYOUT_FUNCTIONFLOW_H

#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Profile/BlockProfile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Transforms/Utils/SampleProfileInference.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace bbmap {

/// One block of a function's CFG.
struct CFGNode {
  uint32_t Entry = 0;
  uint32_t Instructions = 0;
  /// Of them, branches: jumps, calls and returns, direct or not.
  uint32_t Branches = 0;
  /// Successor nodes, without duplicates.
  llvm::SmallVector<uint32_t, 2> Successors;
  /// Control can leave the function here (return, tail call, indirect jump,
  /// a call that does not come back, bytes that do not decode).
  bool Exits = false;
  bool Returns = false;
  /// The block ends in an indirect jump (a jump table, a computed goto):
  /// the code does not name its successors.
  bool IndirectJump = false;
  /// Direct calls and tail calls made from the block.
  llvm::SmallVector<CallKey, 1> Calls;

  void addSuccessor(uint32_t Node);
};

/// The CFG of \p F: node i is block F.Entries[i]. \p FromMap tells whether
/// the successors came from the map's PGO analysis rather than the code.
std::vector<CFGNode> buildFunctionCFG(const FunctionBlocks &F,
                                      const AddressIndex &Index,
                                      const InstructionDecoder &Decoder,
                                      bool &FromMap);

/// Profi's flow network for \p Nodes: node i is block i + 1, block 0 the
/// source (feeding \p Entry, then, in address order, each node the nodes
/// fed so far do not reach, so that every node has a path in), the last
/// block the sink (fed by every node that exits). A node with a weight has
/// that known weight; one without has an unknown weight. Weights above
/// 2^42 are scaled down by 2^Shift (profi's capacities end at 2^50);
/// assignFlow scales the flow back.
struct FlowNetwork {
  llvm::FlowFunction Func;
  unsigned Shift = 0;
  /// Control can leave the function (the sink has a way in).
  bool hasExit() const { return !Func.Blocks.back().PredJumps.empty(); }
};
FlowNetwork flowNetwork(llvm::ArrayRef<CFGNode> Nodes, uint32_t Entry,
                        llvm::ArrayRef<std::optional<uint64_t>> Weights);

/// LLVM's profile inference (applyFlowInference) over \p Net with \p
/// Params, without joining islands where a node has no way to the sink:
/// profi joins an island to an exit it assumes there is, and a loop no
/// path leaves (a server's main loop) sends it past its arrays.
void applyProfi(llvm::ProfiParams Params, FlowNetwork &Net);

/// Writes the solved flow of \p Net back into \p P: block counts, edges,
/// direct calls (as often as their block) and returns.
void assignFlow(const FlowNetwork &Net, llvm::ArrayRef<CFGNode> Nodes,
                BlockProfile &P);

/// Without a way out there is no flow: each block keeps its weight.
void assignWeights(const FlowNetwork &Net, llvm::ArrayRef<CFGNode> Nodes,
                   BlockProfile &P);

} // namespace bbmap

#endif // BBMAP_LIB_LAYOUT_FUNCTIONFLOW_H
