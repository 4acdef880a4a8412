//===- MinCostFlow.cpp - minimum-cost maximum flow, primal-dual -----------===//
//
// Potentials keep every residual arc's reduced cost non-negative, so each
// phase's Dijkstra is exact; the arcs of zero reduced cost then hold every
// shortest augmenting path, and a maximum flow over them (Dinic's levels
// and blocking flows, with an explicit stack: paths can be as long as the
// function) sends all the flow those paths can take before the next phase.
//
//===----------------------------------------------------------------------===//

#include "MinCostFlow.h"
#include <algorithm>
#include <cassert>
#include <limits>
#include <queue>

namespace bbmap {

uint32_t MinCostFlow::addEdge(uint32_t From, uint32_t To, int64_t Capacity,
                              int64_t Cost) {
  assert(From < Nodes && To < Nodes && Capacity > 0 && Cost >= 0);
  Edges.push_back({From, To, Capacity, Cost});
  return Edges.size() - 1;
}

void MinCostFlow::buildArcs() {
  First.assign(Nodes + 1, 0);
  for (const Edge &E : Edges) {
    ++First[E.From + 1];
    ++First[E.To + 1];
  }
  for (uint32_t V = 0; V < Nodes; ++V)
    First[V + 1] += First[V];
  Arcs.resize(2 * Edges.size());
  ForwardArc.resize(Edges.size());
  std::vector<uint32_t> Next(First.begin(), First.end() - 1);
  for (uint32_t I = 0; I < Edges.size(); ++I) {
    const Edge &E = Edges[I];
    uint32_t F = Next[E.From]++, B = Next[E.To]++;
    Arcs[F] = {E.To, B, E.Capacity, E.Cost};
    Arcs[B] = {E.From, F, 0, -E.Cost};
    ForwardArc[I] = F;
  }
}

/// Dijkstra from the source over reduced costs, stopped once the sink is
/// settled; every node's potential then grows by its distance, capped at
/// the sink's (which keeps the reduced costs of all residual arcs
/// non-negative, settled or not). False when the sink is out of reach.
/// The sink is mostly a few units away: distances below NearDistances are
/// kept in one bucket each (Dial's queue), the others in a heap.
bool MinCostFlow::updatePotentials() {
  constexpr int64_t Far = std::numeric_limits<int64_t>::max();
  Distance.assign(Nodes, Far);
  using Item = std::pair<int64_t, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> FarQueue;
  Near.resize(NearDistances);
  auto Reach = [&](uint32_t V, int64_t D) {
    Distance[V] = D;
    if (D < NearDistances)
      Near[D].push_back(V);
    else
      FarQueue.push({D, V});
  };
  auto Settle = [&](uint32_t V, int64_t D) {
    int64_t Base = D + Potential[V];
    for (uint32_t A = First[V]; A < First[V + 1]; ++A) {
      const Arc &Arc = Arcs[A];
      if (Arc.Residual == 0)
        continue;
      int64_t ND = Base + Arc.Cost - Potential[Arc.To];
      if (ND < Distance[Arc.To])
        Reach(Arc.To, ND);
    }
  };
  Reach(Source, 0);
  bool Reached = false;
  for (int64_t D = 0; D < NearDistances && !Reached; ++D)
    for (size_t I = 0; I < Near[D].size() && !Reached; ++I) {
      uint32_t V = Near[D][I];
      if (Distance[V] != D)
        continue;
      Reached = V == Sink;
      if (!Reached)
        Settle(V, D);
    }
  for (std::vector<uint32_t> &Bucket : Near)
    Bucket.clear();
  while (!Reached && !FarQueue.empty()) {
    auto [D, V] = FarQueue.top();
    FarQueue.pop();
    if (D != Distance[V])
      continue;
    Reached = V == Sink;
    if (!Reached)
      Settle(V, D);
  }
  if (!Reached)
    return false;
  int64_t ToSink = Distance[Sink];
  for (uint32_t V = 0; V < Nodes; ++V)
    Potential[V] += std::min(Distance[V], ToSink);
  return true;
}

/// Breadth-first levels over the admissible arcs (residual capacity, zero
/// reduced cost), no further than the sink's; true when the sink has one.
bool MinCostFlow::levelAdmissible() {
  Level.assign(Nodes, -1);
  Queue.assign(1, Source);
  Level[Source] = 0;
  for (size_t Head = 0; Head < Queue.size(); ++Head) {
    uint32_t V = Queue[Head];
    if (Level[Sink] >= 0 && Level[V] >= Level[Sink])
      break;
    int64_t Base = Potential[V];
    for (uint32_t A = First[V]; A < First[V + 1]; ++A) {
      const Arc &Arc = Arcs[A];
      if (Level[Arc.To] < 0 && Arc.Residual > 0 &&
          Base + Arc.Cost == Potential[Arc.To]) {
        Level[Arc.To] = Level[V] + 1;
        Queue.push_back(Arc.To);
      }
    }
  }
  return Level[Sink] >= 0;
}

/// A blocking flow along the levels: walk forward on admissible arcs to
/// the next level, augment at the sink and back up to the first arc that
/// filled, drop a node with no way on.
void MinCostFlow::augmentAdmissible() {
  Current.assign(First.begin(), First.end() - 1);
  Path.clear();
  uint32_t V = Source;
  while (true) {
    if (V == Sink) {
      int64_t Flow = Unbounded;
      for (uint32_t A : Path)
        Flow = std::min(Flow, Arcs[A].Residual);
      size_t Full = Path.size();
      for (size_t K = Path.size(); K-- > 0;) {
        Arc &Arc = Arcs[Path[K]];
        Arc.Residual -= Flow;
        Arcs[Arc.Reverse].Residual += Flow;
        if (Arc.Residual == 0)
          Full = K;
      }
      Path.resize(Full);
      V = Path.empty() ? Source : Arcs[Path.back()].To;
      continue;
    }
    uint32_t &A = Current[V];
    for (; A < First[V + 1]; ++A) {
      const Arc &Arc = Arcs[A];
      if (Level[Arc.To] == Level[V] + 1 && Arc.Residual > 0 &&
          Potential[V] + Arc.Cost == Potential[Arc.To])
        break;
    }
    if (A < First[V + 1]) {
      Path.push_back(A);
      V = Arcs[A].To;
      continue;
    }
    Level[V] = -1;
    if (Path.empty())
      return;
    V = Arcs[Arcs[Path.back()].Reverse].To;
    Path.pop_back();
    ++Current[V];
  }
}

void MinCostFlow::run(uint32_t From, uint32_t To) {
  Source = From;
  Sink = To;
  buildArcs();
  Potential.assign(Nodes, 0);
  while (updatePotentials())
    while (levelAdmissible())
      augmentAdmissible();
}

} // namespace bbmap
