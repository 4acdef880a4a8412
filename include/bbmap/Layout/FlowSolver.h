//===- FlowSolver.h - profi's flow model, solved faster ---------*- C++ -*-===//
//
// solveFlow finds the same least-cost flow as LLVM's profile inference
// (applyFlowInference, "profi") over a FlowFunction: the same network of
// raised and lowered block and jump counts with profi's costs, solved by
// a primal-dual minimum-cost flow instead of profi's one Bellman-Ford
// search per augmenting path, which dominates inference on functions of
// thousands of blocks. Like profi's, its augmentations split the flow
// evenly where equally cheap ways part. Of profi's post-processing it
// keeps joining the islands (flow that circulates in a loop no flow enters
// from the entry gets a path from the entry and to an exit, where there is
// one); it does not rebalance unknown subgraphs. Where several flows cost
// the same it may pick another one than profi. docs/profile.md gives the
// measurements.
//
// Threading: solveFlow writes only the FlowFunction it is given: calls on
// different functions may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LAYOUT_FLOWSOLVER_H
#define BBMAP_LAYOUT_FLOWSOLVER_H

#include "llvm/Transforms/Utils/SampleProfileInference.h"
#include <cstdint>

namespace bbmap {

/// Sets every block's and jump's Flow in \p Func as applyFlowInference
/// does, for the cost parameters of \p Params and its JoinIslands (flow is
/// always spread evenly; RebalanceUnknown is not applied).
void solveFlow(const llvm::ProfiParams &Params, llvm::FlowFunction &Func);

/// The cost of \p Func's flow under \p Params: per block and jump, the
/// count raised or lowered from its weight times profi's cost of doing so.
/// Two solutions of one network are equally good when these are equal.
int64_t flowCost(const llvm::ProfiParams &Params,
                 const llvm::FlowFunction &Func);

} // namespace bbmap

#endif // BBMAP_LAYOUT_FLOWSOLVER_H
