//===- FlowInference.h - block and edge counts from IP samples --*- C++ -*-===//
//
// A profile of IP samples (perf without branch stacks) says where the time
// went, not which way the branches went. inferFlow turns the samples of each
// function into consistent block and edge counts: a weight per block from
// its samples per instruction, the CFG from the binary (the successor lists
// of the map's PGO analysis when the compiler wrote them, else the decoded
// instruction that ends each block), and the model of LLVM's profile
// inference ("profi", which BOLT uses for stale profiles) to find the flow
// closest to the weights: solved by solveFlow (FlowSolver.h) or by profi
// itself. docs/profile.md gives the rules.
//
// Threading: inferFlow writes its BlockProfile, on the threads it is given;
// calls on different profiles may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LAYOUT_FLOWINFERENCE_H
#define BBMAP_LAYOUT_FLOWINFERENCE_H

#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BlockProfile.h"
#include "llvm/Transforms/Utils/SampleProfileInference.h"
#include <cstdint>

namespace bbmap {

/// A block weighs this much per sample per instruction: inferred counts are
/// relative, in units of 1/SampleWeight sample per instruction.
inline constexpr uint64_t SampleWeight = 1000;

/// Who solves profi's network.
enum class InferenceSolver {
  /// solveFlow: the same least cost, a primal-dual minimum-cost flow.
  PrimalDual,
  /// LLVM's applyFlowInference, with its even flow distribution and
  /// rebalancing of unknown subgraphs.
  Profi,
};

/// The costs inferFlow solves with: those of LLVM's own sample-profile
/// loader, which infers from block weights alone as this does (all jumps
/// unknown and free, a block cheaper to raise than to lower, a block
/// without samples known to be cold but cheap to raise: a short block can
/// run without being sampled), with profi's post-processing on.
llvm::ProfiParams inferenceParams();

/// What inferFlow did, per function with samples.
struct InferenceStats {
  /// Functions whose CFG came from the map's PGO analysis (successor IDs).
  uint64_t CFGFromMap = 0;
  /// Functions whose CFG came from decoding the end of each block.
  uint64_t CFGFromCode = 0;
  /// Functions whose samples lie on no path of sampled blocks, which lose
  /// all flow when unsampled blocks count as cold: inferred again with
  /// those blocks unknown.
  uint64_t SparselySampled = 0;
  /// Functions with no way out (no return, tail call or indirect jump):
  /// no flow to infer, their blocks keep their weights and get no edges.
  uint64_t WithoutExit = 0;
  /// Sparsely sampled functions whose samples cost no more to drop than to
  /// connect even with their unsampled blocks unknown: no flow, their
  /// blocks keep their weights and get no edges.
  uint64_t WithoutFlow = 0;
};

/// Replaces the IP-sample counts of \p P (CountKind::Samples) with inferred
/// block counts, edge counts, call counts (each direct call runs as often
/// as its block) and return counts; \p P becomes CountKind::Inferred.
/// Functions are inferred by \p Solver on up to \p Threads threads (0: the
/// machine's hardware threads), the largest first; the result is the same
/// for any number.
InferenceStats inferFlow(BlockProfile &P, const MappedBinary &Binary,
                         const InstructionDecoder &Decoder,
                         InferenceSolver Solver = InferenceSolver::PrimalDual,
                         unsigned Threads = 0);

} // namespace bbmap

#endif // BBMAP_LAYOUT_FLOWINFERENCE_H
