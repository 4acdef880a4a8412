//===- FlowSolver.cpp - profi's flow model, solved faster -----------------===//
//
// The network is profi's: block b is a node In(b) and a node Out(b); a
// block's weight w is flow already sent In -> Out, which the solver may
// raise (In -> Out, the raise cost) or lower (Out -> In, up to w, the lower
// cost), so Out(b) supplies w and In(b) asks for w, through a second source
// and sink. Jumps go Out(src) -> In(dst) at their raise cost; the entry is
// fed from a first source, exits drain to a first sink, and that sink
// feeds the source back, so any circulation is possible. The least-cost
// maximum flow from the second source to the second sink is the answer.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Layout/FlowSolver.h"
#include "MinCostFlow.h"
#include "llvm/ADT/BitVector.h"
#include <deque>
#include <optional>

using namespace llvm;

namespace bbmap {

namespace {

struct Costs {
  int64_t Raise;
  int64_t Lower;
};

/// profi's cost of raising or lowering a block's count by one.
Costs blockCosts(const ProfiParams &Params, const FlowBlock &B) {
  if (B.IsUnlikely)
    return {Params.CostUnlikely, Params.CostUnlikely};
  if (B.HasUnknownWeight)
    return {Params.CostBlockUnknownInc, 0};
  if (B.isEntry())
    return {Params.CostBlockEntryInc, Params.CostBlockEntryDec};
  if (B.Weight == 0)
    return {Params.CostBlockZeroInc, Params.CostBlockDec};
  return {Params.CostBlockInc, Params.CostBlockDec};
}

/// profi's cost of raising or lowering a jump's count by one.
Costs jumpCosts(const ProfiParams &Params, const FlowJump &J) {
  if (J.IsUnlikely)
    return {Params.CostUnlikely, Params.CostUnlikely};
  bool FallThrough = J.Source + 1 == J.Target;
  if (J.HasUnknownWeight)
    return {FallThrough ? Params.CostJumpUnknownFTInc
                        : Params.CostJumpUnknownInc,
            0};
  if (FallThrough)
    return {Params.CostJumpFTInc, Params.CostJumpFTDec};
  return {Params.CostJumpInc, Params.CostJumpDec};
}

/// A count of \p Weight that became \p Flow costs this much.
int64_t deviationCost(Costs C, uint64_t Weight, uint64_t Flow) {
  return Flow > Weight ? int64_t(Flow - Weight) * C.Raise
                       : int64_t(Weight - Flow) * C.Lower;
}

/// The network's edges that carry a block's or a jump's change of count.
struct Changes {
  uint32_t Raise = 0;
  std::optional<uint32_t> Lower;
};

class FlowModel {
public:
  FlowModel(const ProfiParams &Params, FlowFunction &Func)
      : Params(Params), Func(Func), Net(2 * Func.Blocks.size() + 4) {}

  void solve();

private:
  uint32_t in(uint64_t B) const { return 2 * B; }
  uint32_t out(uint64_t B) const { return 2 * B + 1; }
  Changes addChange(uint32_t From, uint32_t To, uint64_t Weight, Costs C);
  int64_t change(const Changes &C) const {
    return Net.flow(C.Raise) - (C.Lower ? Net.flow(*C.Lower) : 0);
  }

  const ProfiParams &Params;
  FlowFunction &Func;
  MinCostFlow Net;
  uint32_t Source = 2 * Func.Blocks.size(), Sink = Source + 1;
  uint32_t WeightSource = Source + 2, WeightSink = Source + 3;
};

/// A count of \p Weight on the way From -> To: raised along From -> To,
/// lowered back To -> From, the weight supplied at To and asked at From.
Changes FlowModel::addChange(uint32_t From, uint32_t To, uint64_t Weight,
                             Costs C) {
  Changes Ch;
  Ch.Raise = Net.addEdge(From, To, MinCostFlow::Unbounded, C.Raise);
  if (Weight) {
    Ch.Lower = Net.addEdge(To, From, Weight, C.Lower);
    Net.addEdge(WeightSource, To, Weight, 0);
    Net.addEdge(From, WeightSink, Weight, 0);
  }
  return Ch;
}

void FlowModel::solve() {
  for (uint64_t B = 0; B < Func.Blocks.size(); ++B) {
    const FlowBlock &Block = Func.Blocks[B];
    if (Block.isEntry())
      Net.addEdge(Source, in(B), MinCostFlow::Unbounded, 0);
    else if (Block.isExit())
      Net.addEdge(out(B), Sink, MinCostFlow::Unbounded, 0);
    addChange(in(B), out(B), Block.Weight, blockCosts(Params, Block));
  }
  std::vector<Changes> JumpChanges;
  for (const FlowJump &J : Func.Jumps)
    JumpChanges.push_back(
        addChange(out(J.Source), in(J.Target), J.Weight, jumpCosts(Params, J)));
  Net.addEdge(Sink, Source, MinCostFlow::Unbounded, 0);
  Net.run(WeightSource, WeightSink);

  std::vector<uint64_t> In(Func.Blocks.size()), Out(Func.Blocks.size());
  for (uint64_t I = 0; I < Func.Jumps.size(); ++I) {
    FlowJump &J = Func.Jumps[I];
    J.Flow = J.Weight + change(JumpChanges[I]);
    In[J.Target] += J.Flow;
    Out[J.Source] += J.Flow;
  }
  for (uint64_t B = 0; B < Func.Blocks.size(); ++B)
    Func.Blocks[B].Flow = std::max(In[B], Out[B]);
}

/// Marks in \p Reached the blocks that flow reaches from \p From along
/// jumps with flow, stopping at those already marked.
void reachByFlow(const FlowFunction &Func, uint64_t From, BitVector &Reached) {
  if (Reached.test(From))
    return;
  std::vector<uint64_t> Work = {From};
  Reached.set(From);
  while (!Work.empty()) {
    uint64_t B = Work.back();
    Work.pop_back();
    for (const FlowJump *J : Func.Blocks[B].SuccJumps)
      if (J->Flow && !Reached.test(J->Target)) {
        Reached.set(J->Target);
        Work.push_back(J->Target);
      }
  }
}

/// The jumps of a path from \p From (forward) or to \p From (backward) to
/// the nearest block \p IsEnd accepts, fewest jumps without flow first.
template <typename EndFn>
std::vector<FlowJump *> cheapestPath(FlowFunction &Func, uint64_t From,
                                     bool Forward, EndFn IsEnd) {
  constexpr uint64_t Far = ~uint64_t(0);
  std::vector<uint64_t> Distance(Func.Blocks.size(), Far);
  std::vector<FlowJump *> Via(Func.Blocks.size());
  std::deque<uint64_t> Queue = {From};
  Distance[From] = 0;
  while (!Queue.empty()) {
    uint64_t B = Queue.front();
    Queue.pop_front();
    if (IsEnd(B)) {
      std::vector<FlowJump *> Path;
      for (; B != From; B = Forward ? Via[B]->Source : Via[B]->Target)
        Path.push_back(Via[B]);
      return Path;
    }
    FlowBlock &Block = Func.Blocks[B];
    for (FlowJump *J : Forward ? Block.SuccJumps : Block.PredJumps) {
      uint64_t Next = Forward ? J->Target : J->Source;
      uint64_t D = Distance[B] + (J->Flow ? 0 : 1);
      if (D >= Distance[Next])
        continue;
      Distance[Next] = D;
      Via[Next] = J;
      if (J->Flow)
        Queue.push_front(Next);
      else
        Queue.push_back(Next);
    }
  }
  return {};
}

/// Flow that circulates where no flow from the entry goes (a loop whose
/// blocks' weights feed each other) gets one unit from the entry to it and
/// from it to an exit, so that its blocks are reached, as profi's
/// joinIsolatedComponents does.
void joinIslands(FlowFunction &Func) {
  BitVector Reached(Func.Blocks.size());
  reachByFlow(Func, Func.Entry, Reached);
  for (uint64_t B = 0; B < Func.Blocks.size(); ++B) {
    if (!Func.Blocks[B].Flow || Reached.test(B))
      continue;
    std::vector<FlowJump *> Path =
        cheapestPath(Func, B, /*Forward=*/false,
                     [&](uint64_t V) { return V == Func.Entry; });
    std::vector<FlowJump *> ToExit =
        cheapestPath(Func, B, /*Forward=*/true,
                     [&](uint64_t V) { return Func.Blocks[V].isExit(); });
    if (Path.empty() || (ToExit.empty() && !Func.Blocks[B].isExit()))
      continue;
    Path.insert(Path.end(), ToExit.begin(), ToExit.end());
    // The path's jumps are the only ones that gained flow: what is reached
    // now is what was, and what the path's blocks reach.
    for (FlowJump *J : Path) {
      ++J->Flow;
      ++Func.Blocks[J->Target].Flow;
    }
    ++Func.Blocks[Func.Entry].Flow;
    for (FlowJump *J : Path)
      reachByFlow(Func, J->Target, Reached);
  }
}

} // namespace

void solveFlow(const ProfiParams &Params, FlowFunction &Func) {
  bool HasWeight = false;
  for (FlowBlock &B : Func.Blocks) {
    B.Flow = B.Weight;
    HasWeight |= B.Weight > 0;
  }
  for (FlowJump &J : Func.Jumps) {
    J.Flow = J.Weight;
    HasWeight |= J.Weight > 0;
  }
  if (Func.Blocks.size() <= 1 || !HasWeight)
    return;
  FlowModel(Params, Func).solve();
  if (Params.JoinIslands)
    joinIslands(Func);
}

int64_t flowCost(const ProfiParams &Params, const FlowFunction &Func) {
  int64_t Cost = 0;
  for (const FlowBlock &B : Func.Blocks)
    Cost += deviationCost(blockCosts(Params, B), B.Weight, B.Flow);
  for (const FlowJump &J : Func.Jumps)
    Cost += deviationCost(jumpCosts(Params, J), J.Weight, J.Flow);
  return Cost;
}

} // namespace bbmap
