//===- MinCostFlow.cpp - minimum-cost maximum flow, primal-dual -----------===//
//
// Potentials keep every residual arc's reduced cost non-negative, so each
// phase's Dijkstra is exact; the arcs of zero reduced cost then hold every
// shortest augmenting path, and a maximum flow over them (Dinic's levels,
// each level graph filled root arc by root arc with even pushes, no
// recursion: paths can be as long as the function) sends all the flow
// those paths can take before the next phase. Every push fills an arc of
// the level graph, and flow there only moves to higher levels, so a level
// graph takes at most as many pushes as it has arcs.
//
//===----------------------------------------------------------------------===//

#include "MinCostFlow.h"
#include "llvm/ADT/STLExtras.h"
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

bool MinCostFlow::onLevels(uint32_t V, const Arc &A) const {
  return A.Residual > 0 && Level[A.To] == Level[V] + 1 && Alive[A.To] &&
         Potential[V] + A.Cost == Potential[A.To];
}

/// Whether the levels still lead from \p V to the sink.
bool MinCostFlow::leadsOn(uint32_t V) const {
  if (V == Sink)
    return true;
  for (uint32_t A = First[V]; A < First[V + 1]; ++A)
    if (onLevels(V, Arcs[A]))
      return true;
  return false;
}

/// Marks which of \p InLevelOrder the levels lead to the sink from, the
/// last first (a node leads on through nodes of later levels).
void MinCostFlow::markAlive(llvm::ArrayRef<uint32_t> InLevelOrder) {
  for (uint32_t V : llvm::reverse(InLevelOrder))
    Alive[V] = leadsOn(V);
}

void MinCostFlow::send(uint32_t A, int64_t Flow) {
  Arcs[A].Residual -= Flow;
  Arcs[Arcs[A].Reverse].Residual += Flow;
}

uint32_t MinCostFlow::ways(uint32_t V) const {
  uint32_t N = 0;
  for (uint32_t A = First[V]; A < First[V + 1]; ++A)
    N += onLevels(V, Arcs[A]);
  return N;
}

/// Sends what one path along the levels takes from the source through
/// \p RootArc, which fills at least one arc.
void MinCostFlow::pushPath(uint32_t RootArc) {
  Path.assign(1, RootArc);
  for (uint32_t V = Arcs[RootArc].To; V != Sink;) {
    uint32_t A = First[V];
    while (!onLevels(V, Arcs[A]))
      ++A;
    Path.push_back(A);
    V = Arcs[A].To;
  }
  int64_t Flow = Unbounded;
  for (uint32_t A : Path)
    Flow = std::min(Flow, Arcs[A].Residual);
  for (uint32_t A : Path)
    send(A, Flow);
  for (size_t K = Path.size(); K-- > 1;) {
    uint32_t V = Arcs[Arcs[Path[K]].Reverse].To;
    Alive[V] = leadsOn(V);
  }
}

/// The nodes the levels lead to from \p Root (Reach, in level order), with
/// no share or flow yet.
void MinCostFlow::collectReach(uint32_t Root) {
  ++Stamp;
  Reach.assign(1, Root);
  Seen[Root] = Stamp;
  for (size_t I = 0; I < Reach.size(); ++I) {
    uint32_t V = Reach[I];
    Share[V] = 0;
    Held[V] = 0;
    if (V == Sink)
      continue;
    for (uint32_t A = First[V]; A < First[V + 1]; ++A)
      if (onLevels(V, Arcs[A]) && Seen[Arcs[A].To] != Stamp) {
        Seen[Arcs[A].To] = Stamp;
        Reach.push_back(Arcs[A].To);
      }
  }
}

/// How much can go through \p RootArc, split evenly at every node of Reach,
/// before an arc fills: a unit split so tells each arc's share.
int64_t MinCostFlow::evenLimit(uint32_t RootArc) {
  Share[Arcs[RootArc].To] = 1.0;
  int64_t Max = Arcs[RootArc].Residual;
  for (uint32_t V : Reach) {
    if (V == Sink || Share[V] == 0)
      continue;
    double Part = Share[V] / ways(V);
    for (uint32_t A = First[V]; A < First[V + 1]; ++A) {
      if (!onLevels(V, Arcs[A]))
        continue;
      Share[Arcs[A].To] += Part;
      double Fits = double(Arcs[A].Residual) / Part;
      if (Arcs[A].Residual < Unbounded / 2 && Fits < double(Max))
        Max = int64_t(Fits);
    }
  }
  return Max;
}

/// Sends \p Max through \p RootArc in whole units, each node's rounded
/// shares taking what the arcs hold and the rest going back the way it
/// came. True when an arc filled.
bool MinCostFlow::sendWhole(uint32_t RootArc, int64_t Max) {
  uint32_t Root = Arcs[RootArc].To;
  Sent.clear();
  Held[Root] = Max;
  for (uint32_t V : Reach) {
    if (V == Sink || !Held[V])
      continue;
    uint32_t N = ways(V);
    int64_t Each = (Held[V] + N - 1) / N;
    for (uint32_t A = First[V]; A < First[V + 1] && Held[V]; ++A) {
      if (!onLevels(V, Arcs[A]))
        continue;
      int64_t F = std::min({Held[V], Each, Arcs[A].Residual});
      Held[V] -= F;
      Held[Arcs[A].To] += F;
      Sent.push_back({A, F});
    }
  }
  // What could not go on goes back the way it came, from the last node.
  for (size_t K = Sent.size(); K-- > 0;) {
    auto &[A, F] = Sent[K];
    uint32_t To = Arcs[A].To;
    int64_t Back = To == Sink ? 0 : std::min(Held[To], F);
    Held[To] -= Back;
    Held[Arcs[Arcs[A].Reverse].To] += Back;
    F -= Back;
  }
  bool Filled = false;
  for (auto [A, F] : Sent) {
    send(A, F);
    Filled |= F && !Arcs[A].Residual;
  }
  send(RootArc, Max - Held[Root]);
  return Filled || !Arcs[RootArc].Residual;
}

/// Sends flow from the source through \p RootArc along the levels, split
/// evenly at every node over the arcs that lead on, as profi augments:
/// where several ways cost the same, each gets a share, rather than one
/// all of it. When no arc filled, one more path is sent, so that every
/// call fills at least one arc.
void MinCostFlow::pushEvenly(uint32_t RootArc) {
  uint32_t Root = Arcs[RootArc].To;
  collectReach(Root);
  // Flow sent since the levels were marked may have closed ways.
  markAlive(Reach);
  if (!Alive[Root])
    return;
  bool Filled = sendWhole(RootArc, evenLimit(RootArc));
  markAlive(Reach);
  if (!Filled && onLevels(Source, Arcs[RootArc]))
    pushPath(RootArc);
}

void MinCostFlow::run(uint32_t From, uint32_t To) {
  Source = From;
  Sink = To;
  buildArcs();
  Potential.assign(Nodes, 0);
  Seen.assign(Nodes, 0);
  Share.resize(Nodes);
  Held.resize(Nodes);
  while (updatePotentials())
    while (levelAdmissible()) {
      Alive.assign(Nodes, 0);
      markAlive(Queue);
      for (uint32_t A = First[Source]; A < First[Source + 1]; ++A)
        while (onLevels(Source, Arcs[A]))
          pushEvenly(A);
    }
}

} // namespace bbmap
