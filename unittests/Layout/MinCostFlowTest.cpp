//===- MinCostFlowTest.cpp - MinCostFlow against a slow solver ------------===//
//
// The primal-dual solver of lib/Layout (private MinCostFlow.h) on many
// random small networks of fixed seeds: its flow must respect every
// capacity, be conserved at every node but the source and sink, have no
// augmenting path left (a maximum flow) and no cycle of negative cost in
// its residual network (the cheapest such flow), and match the value and
// cost of successive shortest paths found one at a time by Bellman-Ford.
// The networks have the shapes the inference builds: parallel and
// anti-parallel edges, unbounded edges, cycles, many paths of one cost.
//
//===----------------------------------------------------------------------===//

#include "MinCostFlow.h"
#include "gtest/gtest.h"
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace bbmap;

namespace {

struct TestEdge {
  uint32_t From, To;
  int64_t Capacity, Cost;
};

struct Network {
  uint32_t Nodes = 0;
  uint32_t Source = 0, Sink = 0;
  std::vector<TestEdge> Edges;

  std::string describe() const {
    std::string S = std::to_string(Nodes) + " nodes, source " +
                    std::to_string(Source) + ", sink " + std::to_string(Sink) +
                    ":";
    for (const TestEdge &E : Edges)
      S += " " + std::to_string(E.From) + "->" + std::to_string(E.To) + "(" +
           (E.Capacity == MinCostFlow::Unbounded ? std::string("inf")
                                                 : std::to_string(E.Capacity)) +
           "," + std::to_string(E.Cost) + ")";
    return S;
  }
};

/// The residual network of a flow: an arc per edge forward (capacity left)
/// and backward (flow, at the negated cost).
struct Residual {
  struct Arc {
    uint32_t From, To;
    int64_t Left, Cost;
  };
  std::vector<Arc> Arcs;

  Residual(const Network &N, const std::vector<int64_t> &Flow) {
    for (size_t I = 0; I < N.Edges.size(); ++I) {
      const TestEdge &E = N.Edges[I];
      Arcs.push_back({E.From, E.To, E.Capacity - Flow[I], E.Cost});
      Arcs.push_back({E.To, E.From, Flow[I], -E.Cost});
    }
  }
};

constexpr int64_t Infinite = std::numeric_limits<int64_t>::max();

/// Bellman-Ford from \p From over the arcs with capacity left: distances
/// and the arc each node was last reached by.
void shortestPaths(const Network &N, const Residual &R, uint32_t From,
                   std::vector<int64_t> &Dist, std::vector<int64_t> &Via) {
  Dist.assign(N.Nodes, Infinite);
  Via.assign(N.Nodes, -1);
  Dist[From] = 0;
  for (uint32_t Round = 0; Round < N.Nodes; ++Round) {
    bool Changed = false;
    for (size_t A = 0; A < R.Arcs.size(); ++A) {
      const Residual::Arc &Arc = R.Arcs[A];
      if (Arc.Left > 0 && Dist[Arc.From] != Infinite &&
          Dist[Arc.From] + Arc.Cost < Dist[Arc.To]) {
        Dist[Arc.To] = Dist[Arc.From] + Arc.Cost;
        Via[Arc.To] = A;
        Changed = true;
      }
    }
    if (!Changed)
      return;
  }
}

/// The slow solver: augments along one cheapest path at a time.
struct Reference {
  int64_t Value = 0, Cost = 0;
};
Reference successiveShortestPaths(const Network &N) {
  std::vector<int64_t> Flow(N.Edges.size(), 0);
  Reference Ref;
  for (;;) {
    Residual R(N, Flow);
    std::vector<int64_t> Dist, Via;
    shortestPaths(N, R, N.Source, Dist, Via);
    if (Dist[N.Sink] == Infinite)
      return Ref;
    int64_t Push = Infinite;
    for (uint32_t V = N.Sink; V != N.Source; V = R.Arcs[Via[V]].From)
      Push = std::min(Push, R.Arcs[Via[V]].Left);
    for (uint32_t V = N.Sink; V != N.Source; V = R.Arcs[Via[V]].From) {
      int64_t A = Via[V];
      Flow[A / 2] += A % 2 ? -Push : Push;
    }
    Ref.Value += Push;
    Ref.Cost += Push * Dist[N.Sink];
  }
}

/// Solves \p N with MinCostFlow and checks its flow; returns the flow.
std::vector<int64_t> checkSolution(const Network &N) {
  MinCostFlow Solver(N.Nodes);
  std::vector<uint32_t> Index;
  for (const TestEdge &E : N.Edges)
    Index.push_back(Solver.addEdge(E.From, E.To, E.Capacity, E.Cost));
  Solver.run(N.Source, N.Sink);
  std::vector<int64_t> Flow;
  for (uint32_t I : Index)
    Flow.push_back(Solver.flow(I));

  std::string Where = N.describe();
  // Capacities.
  for (size_t I = 0; I < N.Edges.size(); ++I) {
    EXPECT_GE(Flow[I], 0) << "edge " << I << " of " << Where;
    EXPECT_LE(Flow[I], N.Edges[I].Capacity) << "edge " << I << " of " << Where;
  }
  // Conservation.
  std::vector<int64_t> Net(N.Nodes, 0);
  int64_t Cost = 0;
  for (size_t I = 0; I < N.Edges.size(); ++I) {
    Net[N.Edges[I].From] -= Flow[I];
    Net[N.Edges[I].To] += Flow[I];
    Cost += Flow[I] * N.Edges[I].Cost;
  }
  for (uint32_t V = 0; V < N.Nodes; ++V) {
    if (V == N.Source || V == N.Sink)
      continue;
    EXPECT_EQ(Net[V], 0) << "node " << V << " of " << Where;
  }
  EXPECT_EQ(Net[N.Sink], -Net[N.Source]) << Where;

  Residual R(N, Flow);
  // Maximum: the sink is out of reach in the residual network.
  std::vector<int64_t> Dist, Via;
  shortestPaths(N, R, N.Source, Dist, Via);
  EXPECT_EQ(Dist[N.Sink], Infinite)
      << "an augmenting path is left in " << Where;
  // Cheapest: no cycle of negative cost (Bellman-Ford from every node at
  // once still relaxes after as many rounds as nodes).
  std::vector<int64_t> Pot(N.Nodes, 0);
  bool Relaxed = true;
  for (uint32_t Round = 0; Round <= N.Nodes && Relaxed; ++Round) {
    Relaxed = false;
    for (const Residual::Arc &A : R.Arcs)
      if (A.Left > 0 && Pot[A.From] + A.Cost < Pot[A.To]) {
        Pot[A.To] = Pot[A.From] + A.Cost;
        Relaxed = true;
      }
  }
  EXPECT_FALSE(Relaxed) << "a negative cycle is left in " << Where;

  Reference Ref = successiveShortestPaths(N);
  EXPECT_EQ(-Net[N.Source], Ref.Value) << Where;
  EXPECT_EQ(Cost, Ref.Cost) << Where;
  return Flow;
}

/// Shapes of random networks.
struct Shape {
  uint32_t MaxNodes;
  uint32_t MaxEdges;
  int64_t MaxCapacity;
  int64_t MaxCost;
  /// Out of 100: edges of unbounded capacity (never out of the source),
  /// edges added with a reverse twin.
  unsigned UnboundedPercent;
  unsigned TwinPercent;
};

Network randomNetwork(std::mt19937_64 &Rng, const Shape &S) {
  auto Below = [&](uint64_t N) { return uint64_t(Rng() % N); };
  Network N;
  N.Nodes = 2 + Below(S.MaxNodes - 1);
  N.Source = Below(N.Nodes);
  N.Sink = (N.Source + 1 + Below(N.Nodes - 1)) % N.Nodes;
  uint32_t NumEdges = Below(S.MaxEdges + 1);
  auto Capacity = [&](uint32_t From) {
    if (From != N.Source && Below(100) < S.UnboundedPercent)
      return MinCostFlow::Unbounded;
    return int64_t(1 + Below(S.MaxCapacity));
  };
  for (uint32_t I = 0; I < NumEdges; ++I) {
    uint32_t From = Below(N.Nodes), To = Below(N.Nodes);
    if (From == To)
      To = (To + 1) % N.Nodes;
    N.Edges.push_back(
        {From, To, Capacity(From), int64_t(Below(S.MaxCost + 1))});
    if (Below(100) < S.TwinPercent)
      N.Edges.push_back(
          {To, From, Capacity(To), int64_t(Below(S.MaxCost + 1))});
  }
  return N;
}

void runShape(uint64_t Seed, unsigned Count, const Shape &S) {
  std::mt19937_64 Rng(Seed);
  for (unsigned I = 0; I < Count; ++I) {
    Network N = randomNetwork(Rng, S);
    SCOPED_TRACE("network " + std::to_string(I) + " of seed " +
                 std::to_string(Seed));
    checkSolution(N);
    if (::testing::Test::HasFailure())
      return;
  }
}

TEST(MinCostFlowTest, TinyNetworks) { runShape(1, 3000, {4, 6, 3, 3, 0, 20}); }

TEST(MinCostFlowTest, SmallNetworks) {
  runShape(2, 2000, {8, 20, 10, 10, 10, 30});
}

TEST(MinCostFlowTest, EqualCosts) {
  // Every edge one cost: many cheapest paths, split evenly by the solver.
  runShape(3, 2000, {10, 30, 7, 0, 20, 20});
  runShape(4, 2000, {10, 30, 7, 1, 20, 20});
}

TEST(MinCostFlowTest, FarDistances) {
  // Costs past the solver's near buckets (64): distances from its heap.
  runShape(5, 1000, {8, 20, 10, 500, 10, 30});
}

TEST(MinCostFlowTest, LargerNetworks) {
  runShape(6, 200, {40, 160, 20, 12, 15, 30});
}

TEST(MinCostFlowTest, InferenceShape) {
  // profi's network (FlowSolver.cpp): per block In -> Out, unbounded at a
  // raise cost, Out -> In up to the weight at a lower cost; weights
  // supplied and asked through a second source and sink; jumps between
  // blocks; the first sink feeding the first source.
  std::mt19937_64 Rng(7);
  auto Below = [&](uint64_t N) { return uint64_t(Rng() % N); };
  for (unsigned Case = 0; Case < 500; ++Case) {
    uint32_t Blocks = 1 + Below(10);
    Network N;
    N.Nodes = 2 * Blocks + 4;
    uint32_t Source = 2 * Blocks, Sink = Source + 1;
    N.Source = Source + 2;
    N.Sink = Source + 3;
    auto Change = [&](uint32_t From, uint32_t To, int64_t Weight, int64_t Raise,
                      int64_t Lower) {
      N.Edges.push_back({From, To, MinCostFlow::Unbounded, Raise});
      if (!Weight)
        return;
      N.Edges.push_back({To, From, Weight, Lower});
      N.Edges.push_back({N.Source, To, Weight, 0});
      N.Edges.push_back({From, N.Sink, Weight, 0});
    };
    N.Edges.push_back({Source, 0, MinCostFlow::Unbounded, 0});
    for (uint32_t B = 0; B < Blocks; ++B) {
      int64_t Weight = Below(3) ? Below(20) : 0;
      Change(2 * B, 2 * B + 1, Weight, 1 + Below(10), Below(10));
      if (B + 1 == Blocks || !Below(4))
        N.Edges.push_back({2 * B + 1, Sink, MinCostFlow::Unbounded, 0});
    }
    for (uint32_t J = 0, Jumps = Below(3 * Blocks); J < Jumps; ++J)
      Change(2 * Below(Blocks) + 1, 2 * Below(Blocks), Below(2) ? Below(20) : 0,
             1 + Below(10), Below(10));
    N.Edges.push_back({Sink, Source, MinCostFlow::Unbounded, 0});
    SCOPED_TRACE("case " + std::to_string(Case));
    checkSolution(N);
    if (HasFailure())
      return;
  }
}

TEST(MinCostFlowTest, ParallelEdgesKeepTheirOwnFlow) {
  // Three ways of one cost and a dearer one: 9 units, 2 + 3 + 4 at cost 1
  // each, none on the dearer edge.
  Network N{2, 0, 1, {{0, 1, 2, 1}, {0, 1, 3, 1}, {0, 1, 5, 4}, {0, 1, 4, 1}}};
  std::vector<int64_t> Flow = checkSolution(N);
  EXPECT_EQ(Flow, (std::vector<int64_t>{2, 3, 5, 4}));
  // The sink unreachable: no flow at all.
  Network Cut{3, 0, 2, {{0, 1, 5, 0}, {2, 1, 5, 0}}};
  EXPECT_EQ(checkSolution(Cut), (std::vector<int64_t>{0, 0}));
}

} // namespace
