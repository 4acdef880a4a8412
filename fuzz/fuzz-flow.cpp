//===- fuzz-flow.cpp - solveFlow against LLVM's profile inference ---------===//
//
// libFuzzer target, differential: the input describes a CFG (blocks, jumps,
// block weights, some unknown) of the shape bbmap's inference builds, which
// both solveFlow and LLVM's applyFlowInference solve with the sample
// loader's costs and none of profi's post-processing. Both are minimum-cost
// flows of one network, so their costs (flowCost) must be equal, and
// solveFlow's flow must be conserved at every block. Then solveFlow with
// island joining must still be conserved, and every block with flow that
// has a way out must be reached from the entry along jumps with flow.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Layout/FlowInference.h"
#include "bbmap/Layout/FlowSolver.h"
#include "llvm/ADT/BitVector.h"
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

using namespace llvm;
using namespace bbmap;

namespace {

void check(bool Condition, int Line = __builtin_LINE()) {
  if (Condition)
    return;
  fprintf(stderr, "fuzz-flow.cpp:%d: check failed\n", Line);
  abort();
}

/// Reads the input a byte at a time, zeros past its end.
struct Bytes {
  const uint8_t *Data;
  size_t Size;
  size_t Next = 0;
  uint8_t take() { return Next < Size ? Data[Next++] : 0; }
  bool done() const { return Next >= Size; }
};

/// The nodes \p From reaches along \p Jumps, marked in \p Reached.
void reach(const std::set<std::pair<uint64_t, uint64_t>> &Jumps, uint64_t From,
           std::vector<bool> &Reached) {
  std::vector<uint64_t> Work = {From};
  Reached[From] = true;
  while (!Work.empty()) {
    uint64_t B = Work.back();
    Work.pop_back();
    for (auto It = Jumps.lower_bound({B, 0});
         It != Jumps.end() && It->first == B; ++It)
      if (!Reached[It->second]) {
        Reached[It->second] = true;
        Work.push_back(It->second);
      }
  }
}

/// Shaped as flowNetwork (FunctionFlow.cpp) shapes a function: block 0 is
/// the source, feeding block 1 (the entry), then in order each block not
/// reached so far; the last block is the sink, fed by every block with no
/// other successor. Jumps are unknown, blocks unknown, known zero or known
/// positive.
FlowFunction makeFunction(Bytes &In) {
  FlowFunction Func;
  uint64_t N = 3 + In.take() % 30;
  Func.Blocks.resize(N);
  for (uint64_t B = 0; B < N; ++B) {
    Func.Blocks[B].Index = B;
    if (B == 0 || B == N - 1)
      continue;
    uint8_t W = In.take();
    if (W % 4 == 1)
      continue;
    Func.Blocks[B].HasUnknownWeight = false;
    if (W % 4 > 1)
      Func.Blocks[B].Weight = uint64_t(W) * (1 + In.take());
  }
  std::set<std::pair<uint64_t, uint64_t>> Jumps;
  while (!In.done() && Jumps.size() < 4 * N) {
    uint64_t From = 1 + In.take() % (N - 2), To = 1 + In.take() % (N - 2);
    Jumps.insert({From, In.take() % 8 ? To : N - 1});
  }
  for (uint64_t B = 1; B + 1 < N; ++B)
    if (Jumps.lower_bound({B, 0}) == Jumps.lower_bound({B + 1, 0}))
      Jumps.insert({B, N - 1});
  std::vector<bool> Reached(N);
  Jumps.insert({0, 1});
  reach(Jumps, 0, Reached);
  for (uint64_t B = 1; B + 1 < N; ++B)
    if (!Reached[B]) {
      Jumps.insert({0, B});
      reach(Jumps, B, Reached);
    }
  for (auto [From, To] : Jumps) {
    FlowJump J;
    J.Source = From;
    J.Target = To;
    Func.Jumps.push_back(J);
  }
  for (FlowJump &J : Func.Jumps) {
    Func.Blocks[J.Source].SuccJumps.push_back(&J);
    Func.Blocks[J.Target].PredJumps.push_back(&J);
  }
  return Func;
}

/// inferFlow's costs, with unknown blocks as its second inference prices
/// them (not free, so that they take part in the costs), without profi's
/// post-processing.
ProfiParams samplesParams() {
  ProfiParams Params = inferenceParams();
  Params.EvenFlowDistribution = false;
  Params.RebalanceUnknown = false;
  Params.JoinIslands = false;
  Params.CostBlockUnknownInc = 5;
  return Params;
}

void checkConserved(const FlowFunction &Func) {
  std::vector<uint64_t> In(Func.Blocks.size()), Out(Func.Blocks.size());
  for (const FlowJump &J : Func.Jumps) {
    In[J.Target] += J.Flow;
    Out[J.Source] += J.Flow;
  }
  for (const FlowBlock &B : Func.Blocks) {
    if (!B.isEntry())
      check(In[B.Index] == B.Flow);
    if (!B.isExit())
      check(Out[B.Index] == B.Flow);
  }
}

void checkReached(const FlowFunction &Func) {
  BitVector Reached(Func.Blocks.size());
  std::vector<uint64_t> Work = {Func.Entry};
  Reached.set(Func.Entry);
  while (!Work.empty()) {
    uint64_t B = Work.back();
    Work.pop_back();
    for (const FlowJump *J : Func.Blocks[B].SuccJumps)
      if (J->Flow && !Reached.test(J->Target)) {
        Reached.set(J->Target);
        Work.push_back(J->Target);
      }
  }
  // A loop with no way out (a block that only jumps to itself) cannot be
  // joined: flow into it could not leave.
  BitVector CanExit(Func.Blocks.size());
  for (const FlowBlock &B : Func.Blocks)
    if (B.isExit()) {
      CanExit.set(B.Index);
      Work.push_back(B.Index);
    }
  while (!Work.empty()) {
    uint64_t B = Work.back();
    Work.pop_back();
    for (const FlowJump *J : Func.Blocks[B].PredJumps)
      if (!CanExit.test(J->Source)) {
        CanExit.set(J->Source);
        Work.push_back(J->Source);
      }
  }
  for (const FlowBlock &B : Func.Blocks)
    check(!B.Flow || Reached.test(B.Index) || !CanExit.test(B.Index));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Bytes In{Data, Size};
  FlowFunction Mine = makeFunction(In);
  // No block exits: bbmap infers no flow there (FlowNetwork::hasExit).
  if (Mine.Blocks.back().PredJumps.empty())
    return 0;
  In.Next = 0;
  FlowFunction Profi = makeFunction(In);
  ProfiParams Params = samplesParams();
  solveFlow(Params, Mine);
  applyFlowInference(Params, Profi);
  checkConserved(Mine);
  if (getenv("FUZZ_FLOW_DUMP")) {
    for (auto *F : {&Mine, &Profi}) {
      fprintf(stderr, "cost %ld\n", (long)flowCost(Params, *F));
      for (const FlowBlock &B : F->Blocks)
        fprintf(stderr, " b%lu w=%lu%s flow=%lu\n", B.Index, B.Weight,
                B.HasUnknownWeight ? "?" : "", B.Flow);
      for (const FlowJump &J : F->Jumps)
        fprintf(stderr, " j%lu->%lu flow=%lu\n", J.Source, J.Target, J.Flow);
    }
  }
  check(flowCost(Params, Mine) == flowCost(Params, Profi));
  In.Next = 0;
  FlowFunction Joined = makeFunction(In);
  Params.JoinIslands = true;
  solveFlow(Params, Joined);
  checkConserved(Joined);
  checkReached(Joined);
  return 0;
}
