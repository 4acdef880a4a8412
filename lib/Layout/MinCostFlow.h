//===- MinCostFlow.h - minimum-cost maximum flow, primal-dual ---*- C++ -*-===//
//
// The flow solver under FlowSolver.cpp: the maximum flow of least cost from
// a source to a sink over edges of non-negative cost. Primal-dual: each
// phase finds the distances from the source with Dijkstra over reduced
// costs, then saturates every shortest path at once with a maximum flow
// over the edges of zero reduced cost (Dinic's levels), sent from each of
// the source's arcs in turn and split evenly wherever several arcs lead
// on, as profi spreads flow over equally cheap paths. The phases are as
// many as the distinct lengths of augmenting paths, which small integer
// costs keep few; profi's solver (SampleProfileInference.cpp) instead runs
// a Bellman-Ford queue for every augmenting path. Private to lib/Layout.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LIB_LAYOUT_MINCOSTFLOW_H
#define BBMAP_LIB_LAYOUT_MINCOSTFLOW_H

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <vector>

namespace bbmap {

class MinCostFlow {
public:
  /// A capacity no flow reaches: the sum of all finite capacities must stay
  /// below it.
  static constexpr int64_t Unbounded = int64_t(1) << 61;

  explicit MinCostFlow(uint32_t Nodes) : Nodes(Nodes) {}

  /// Adds an edge and returns its index for flow(). \p Capacity > 0,
  /// \p Cost >= 0.
  uint32_t addEdge(uint32_t From, uint32_t To, int64_t Capacity, int64_t Cost);

  /// Sends the maximum flow from \p Source to \p Sink at the least cost.
  void run(uint32_t Source, uint32_t Sink);

  /// The flow on edge \p Edge (an index addEdge returned).
  int64_t flow(uint32_t Edge) const {
    return Arcs[Arcs[ForwardArc[Edge]].Reverse].Residual;
  }

private:
  struct Edge {
    uint32_t From, To;
    int64_t Capacity, Cost;
  };
  /// An edge is a forward arc (the capacity left) and a backward arc (the
  /// flow sent, at the negated cost), each stored with the arcs of its
  /// tail: node v's arcs are Arcs[First[v] .. First[v + 1]).
  struct Arc {
    uint32_t To;
    uint32_t Reverse;
    int64_t Residual;
    int64_t Cost;
  };

  void buildArcs();
  bool updatePotentials();
  bool levelAdmissible();
  bool onLevels(uint32_t V, const Arc &A) const;
  bool leadsOn(uint32_t V) const;
  void markAlive(llvm::ArrayRef<uint32_t> InLevelOrder);
  void send(uint32_t A, int64_t Flow);
  uint32_t ways(uint32_t V) const;
  void pushPath(uint32_t RootArc);
  void collectReach(uint32_t Root);
  int64_t evenLimit(uint32_t RootArc);
  bool sendWhole(uint32_t RootArc, int64_t Max);
  void pushEvenly(uint32_t RootArc);

  uint32_t Nodes;
  uint32_t Source = 0, Sink = 0;
  std::vector<Edge> Edges;
  std::vector<Arc> Arcs;
  std::vector<uint32_t> First, ForwardArc;
  std::vector<int64_t> Potential, Distance;
  static constexpr int64_t NearDistances = 64;
  std::vector<std::vector<uint32_t>> Near;
  std::vector<int32_t> Level;
  /// Whether the levels lead from a node to the sink.
  std::vector<uint8_t> Alive;
  /// pushEvenly's nodes (Seen == Stamp), their share of a unit of flow and
  /// the whole units they hold; the arcs it sends along, and how much.
  std::vector<uint32_t> Seen;
  uint32_t Stamp = 0;
  std::vector<double> Share;
  std::vector<int64_t> Held;
  std::vector<std::pair<uint32_t, int64_t>> Sent;
  /// Work lists, kept between phases.
  std::vector<uint32_t> Queue, Path, Reach;
};

} // namespace bbmap

#endif // BBMAP_LIB_LAYOUT_MINCOSTFLOW_H
