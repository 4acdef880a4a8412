//===- FlowInference.cpp - block and edge counts from IP samples ----------===//
//
// Per function with samples: profi's flow network over the function's CFG
// (FunctionFlow.h) with blocks weighing their samples per instruction
// (empty blocks are unknown), solved with the sample loader's costs by
// solveFlow or profi. The functions are solved on several threads, the
// largest first.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Layout/FlowInference.h"
#include "FunctionFlow.h"
#include "bbmap/Layout/FlowSolver.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/Support/MathExtras.h"
#include <mutex>

using namespace llvm;

namespace bbmap {

namespace {

/// A block weighs its samples per instruction it could be sampled at
/// (every instruction, or with \p Sampled Branch its branches, with
/// BranchAndRun at least one); with
/// \p UnsampledUnknown, blocks without samples have an unknown weight (free
/// to raise) rather than a known zero. A block with no instruction to
/// sample has an unknown weight.
std::vector<std::optional<uint64_t>> sampleWeights(ArrayRef<CFGNode> Nodes,
                                                   ArrayRef<uint64_t> Samples,
                                                   SampledOperation Sampled,
                                                   bool UnsampledUnknown) {
  std::vector<std::optional<uint64_t>> Weights(Nodes.size());
  for (uint32_t Node = 0; Node < Nodes.size(); ++Node) {
    uint32_t Sampleable = Nodes[Node].Instructions;
    if (Sampled == SampledOperation::Branch)
      Sampleable = Nodes[Node].Branches;
    // A block without a branch is sampled through the branch it reaches.
    else if (Sampled == SampledOperation::BranchAndRun)
      Sampleable =
          std::min<uint32_t>(Sampleable, std::max(Nodes[Node].Branches, 1u));
    uint64_t S = Samples[Node];
    if (!Sampleable || (!S && UnsampledUnknown))
      continue;
    Weights[Node] = S ? std::max<uint64_t>(
                            1, SaturatingMultiply(S, SampleWeight) / Sampleable)
                      : 0;
  }
  return Weights;
}

} // namespace

ProfiParams inferenceParams() {
  ProfiParams Params;
  Params.EvenFlowDistribution = true;
  Params.RebalanceUnknown = true;
  Params.JoinIslands = true;
  Params.CostBlockInc = 10;
  Params.CostBlockDec = 20;
  Params.CostBlockEntryInc = 40;
  Params.CostBlockEntryDec = 10;
  Params.CostBlockZeroInc = 11;
  Params.CostBlockUnknownInc = 0;
  return Params;
}

namespace {

/// One function's CFG and its solved flow network.
struct InferredFunction {
  std::vector<CFGNode> Nodes;
  FlowNetwork Net;
  bool FromMap = false;
  /// Inferred a second time with unsampled blocks unknown.
  bool Sparse = false;
};

void solve(InferenceSolver Solver, const ProfiParams &Params,
           FlowNetwork &Net) {
  if (Solver == InferenceSolver::PrimalDual)
    solveFlow(Params, Net.Func);
  else
    applyProfi(Params, Net);
}

InferredFunction inferFunction(const FunctionBlocks &F, const BlockProfile &P,
                               const AddressIndex &Index,
                               const InstructionDecoder &Decoder,
                               InferenceSolver Solver) {
  InferredFunction R;
  R.Nodes = buildFunctionCFG(F, Index, Decoder, R.FromMap);
  std::vector<uint64_t> Samples;
  for (uint32_t E : F.Entries)
    Samples.push_back(P.Counts[E]);
  uint32_t Entry = entryPosition(F, Index);
  R.Net = flowNetwork(R.Nodes, Entry,
                      sampleWeights(R.Nodes, Samples, P.Sampled, false));
  if (!R.Net.hasExit())
    return R;
  ProfiParams Params = inferenceParams();
  solve(Solver, Params, R.Net);
  // A function sampled so sparsely that its samples lie on no path of
  // sampled blocks loses all flow (dropping its weights is cheaper than
  // raising the cold blocks between them): it ran, so infer it again with
  // its unsampled blocks unknown, cheaper to raise than the entry to
  // lower, but not free (free blocks would take any circulation).
  if (R.Net.Func.Blocks.front().Flow == 0) {
    R.Sparse = true;
    R.Net = flowNetwork(R.Nodes, Entry,
                        sampleWeights(R.Nodes, Samples, P.Sampled, true));
    Params.CostBlockUnknownInc = 5;
    solve(Solver, Params, R.Net);
  }
  return R;
}

} // namespace

InferenceStats inferFlow(BlockProfile &P, const MappedBinary &Binary,
                         const InstructionDecoder &Decoder,
                         InferenceSolver Solver, unsigned Threads) {
  const AddressIndex &Index = Binary.index();
  std::vector<FunctionBlocks> Functions = profiledFunctions(P, Index);
  std::vector<uint64_t> Blocks;
  for (const FunctionBlocks &F : Functions)
    Blocks.push_back(F.Entries.size());
  InferenceStats Stats;
  std::mutex Lock;
  // Each function reads and writes only its own blocks' counts; the
  // shared edge, call and return tables are written under the lock, in
  // sums that do not depend on the order.
  forEachInOrder(costliestFirst(Blocks), Threads, [&](uint32_t I) {
    InferredFunction R = inferFunction(Functions[I], P, Index, Decoder, Solver);
    std::lock_guard<std::mutex> Guard(Lock);
    ++(R.FromMap ? Stats.CFGFromMap : Stats.CFGFromCode);
    if (!R.Net.hasExit()) {
      ++Stats.WithoutExit;
      assignWeights(R.Net, R.Nodes, P);
      return;
    }
    Stats.SparselySampled += R.Sparse;
    // Even with its unsampled blocks unknown, dropping the samples can
    // cost no more than connecting them (a tie the solver may take): the
    // function ran, so its blocks keep their weights.
    if (R.Net.Func.Blocks.front().Flow == 0) {
      ++Stats.WithoutFlow;
      assignWeights(R.Net, R.Nodes, P);
      return;
    }
    assignFlow(R.Net, R.Nodes, P);
  });
  P.Kind = CountKind::Inferred;
  return Stats;
}

} // namespace bbmap
