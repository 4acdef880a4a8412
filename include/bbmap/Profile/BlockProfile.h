//===- BlockProfile.h - per-block and per-edge counts -----------*- C++ -*-===//
//
// Block and edge counts: what a BranchProfile and the binary's maps give:
// for every basic block of the maps, how often its first byte executed (or,
// for IP samples, how many samples fell in it); for every CFG edge between
// two blocks of one function, how often it was taken; for every call site,
// its callee and count. Blocks are named by their AddressIndex entry, which
// numbers all blocks by ascending address; docs/profile.md gives the rules.
//
// Threading: countBlocks charges on the threads it is given; a BlockProfile is
// plain data, written by one owner.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_BLOCKPROFILE_H
#define BBMAP_PROFILE_BLOCKPROFILE_H

#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BranchProfile.h"
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace bbmap {

struct EdgeCount {
  uint64_t Count = 0;
  uint64_t Mispreds = 0;

  EdgeCount &operator+=(const EdgeCount &O) {
    Count += O.Count;
    Mispreds += O.Mispreds;
    return *this;
  }
};

/// A call (or tail call) from an instruction of a mapped block.
struct CallKey {
  /// The calling instruction's address.
  uint64_t Site = 0;
  /// The callee's entry address.
  uint64_t Callee = 0;
  /// A jump to another function's entry rather than a call instruction.
  bool TailCall = false;
  bool operator<(const CallKey &O) const {
    return std::tie(Site, Callee, TailCall) <
           std::tie(O.Site, O.Callee, O.TailCall);
  }
};

/// Records that were not charged, by reason; each is reported.
struct MappingStats {
  /// Branches whose source is a return instruction (not CFG edges).
  uint64_t Returns = 0;
  /// Calls and tail calls (call-graph edges, not CFG edges).
  uint64_t Calls = 0;
  /// Branches with an end outside every map (PLT, libraries, start-up code).
  uint64_t BranchesOutside = 0;
  /// Jumps into the middle of a block or into another function's body.
  uint64_t BranchesIntoBlock = 0;
  /// Fall-through runs that start or end outside every map.
  uint64_t RunsOutside = 0;
  /// Runs that go backwards.
  uint64_t RunsBackwards = 0;
  /// Runs that leave their function or function part.
  uint64_t RunsAcrossRanges = 0;
  /// Runs the code cannot run through: a call, return, jump or trap
  /// before their end, or a block left by falling through that cannot
  /// fall through (perf2bolt's traces mismatching the function's code).
  uint64_t RunsMismatchingCode = 0;
  /// Newest branch stack entries that repeat the next one where the run
  /// between the two cannot run (an LBR quirk): neither the repeated
  /// branch nor that run is charged.
  uint64_t RepeatedEntries = 0;
  /// IP samples outside every block.
  uint64_t SamplesOutside = 0;

  MappingStats &operator+=(const MappingStats &O) {
    Returns += O.Returns;
    Calls += O.Calls;
    BranchesOutside += O.BranchesOutside;
    BranchesIntoBlock += O.BranchesIntoBlock;
    RunsOutside += O.RunsOutside;
    RunsBackwards += O.RunsBackwards;
    RunsAcrossRanges += O.RunsAcrossRanges;
    RunsMismatchingCode += O.RunsMismatchingCode;
    RepeatedEntries += O.RepeatedEntries;
    SamplesOutside += O.SamplesOutside;
    return *this;
  }
};

/// What the counts of a BlockProfile are.
enum class CountKind {
  /// Executions, from branch records.
  Executions,
  /// IP samples per block; no edges.
  Samples,
  /// Block and edge counts inferred from IP samples (inferFlow): relative,
  /// in units of 1/SampleWeight sample per instruction.
  Inferred,
};

/// How the records of a profile fit the blocks of one mapped function. A
/// record (one aggregated trace or sample) counts once for each function
/// that one of its ends lies in, and is a misfit there when such an end is
/// not where the function's code lets a record start or end: a jump or a
/// call that does not land at a block or function entry, a branch source
/// or run end that is no branch instruction, a run that starts inside a
/// block other than after a call or that leaves its function part, a sample
/// that is not at an instruction. A profile of the binary has (almost)
/// none; a stale profile, or another binary's, has them where the code
/// differs (docs/profile.md, "Records that do not fit"). The records of a
/// translated profile (BranchProfile::Translated) are not judged.
struct FunctionFit {
  uint64_t Records = 0;
  uint64_t Misfits = 0;
};

/// The operations the samples of a CountKind::Samples profile were taken
/// at: what a block's samples are divided by before inference.
enum class SampledOperation {
  /// Any instruction (IP samples): a block weighs its samples per
  /// instruction.
  Instruction,
  /// Branch instructions alone (ARM SPE with its branch filter): a block
  /// weighs its samples per branch instruction, and one without a branch
  /// has no weight (it is never sampled, whatever its count).
  Branch,
  /// Branch instructions, with the run before each (SPE's previous branch
  /// target): a block without a branch weighs the samples of the branch
  /// its executions fall through to.
  BranchAndRun,
};

struct BlockProfile {
  CountKind Kind = CountKind::Executions;
  /// With Kind Samples: what was sampled.
  SampledOperation Sampled = SampledOperation::Instruction;
  /// Indexed by AddressIndex entry.
  std::vector<uint64_t> Counts;
  /// (from entry, to entry) -> count; fall-throughs and taken branches alike.
  std::map<std::pair<uint32_t, uint32_t>, EdgeCount> Edges;
  std::map<CallKey, EdgeCount> Calls;
  /// Returns executed from each block (AddressIndex entry -> count).
  std::map<uint32_t, uint64_t> Returns;
  MappingStats Stats;
  /// Per mapped function that a record touches, by the function's address.
  std::map<uint64_t, FunctionFit> Fit;
};

/// The blocks of one mapped function.
struct FunctionBlocks {
  llvm::StringRef Name;
  uint64_t Address = 0;
  /// AddressIndex entries in address order.
  std::vector<uint32_t> Entries;
  /// The entry count (its entry block's count) and the sum over blocks.
  uint64_t EntryCount = 0;
  uint64_t Total = 0;
};

/// The position in \p F.Entries of its entry block: the first block at the
/// function's address (0 if none starts there).
uint32_t entryPosition(const FunctionBlocks &F, const AddressIndex &Index);

/// An edge as BlockProfile::Edges holds it: (from entry, to entry), count.
using BlockEdge = std::pair<std::pair<uint32_t, uint32_t>, EdgeCount>;

/// The edges of \p F (every edge stays within its function).
std::vector<BlockEdge> functionEdges(const BlockProfile &P,
                                     const AddressIndex &Index,
                                     const FunctionBlocks &F);
/// As functionEdges, from \p Edges, P.Edges as a vector (sortedEdges): for
/// the edges of many functions, found faster there than in the map.
std::vector<BlockEdge> functionEdges(llvm::ArrayRef<BlockEdge> Edges,
                                     const AddressIndex &Index,
                                     const FunctionBlocks &F);
/// \p P.Edges, in key order.
std::vector<BlockEdge> sortedEdges(const BlockProfile &P);

/// Every mapped function, by section and then map order; no counts.
std::vector<FunctionBlocks> mappedFunctions(const AddressIndex &Index);

/// The source file of \p F when it is a local function (its symbol's
/// STT_FILE), else an empty string.
std::string moduleOf(const FunctionBlocks &F, const MappedBinary &Binary);

/// Every mapped function with a non-zero count, hottest (by Total) first.
std::vector<FunctionBlocks> profiledFunctions(const BlockProfile &P,
                                              const AddressIndex &Index);

/// A function some of whose records do not fit its blocks.
struct FunctionMisfit {
  llvm::StringRef Name;
  uint64_t Address = 0;
  FunctionFit Fit;
};

/// Every function of \p P.Fit with a misfit record, the most misfits first
/// (then by address).
std::vector<FunctionMisfit> misfitFunctions(const BlockProfile &P,
                                            const AddressIndex &Index);

/// Block counts of a profile of branches alone (fdata, `B` records), which
/// charges no fall-through run: each block ran as often as the larger of
/// the flow that entered it (edges, calls to it) and the flow that left it
/// (edges, returns, tail calls). countBlocks applies it to such profiles.
void countFromFlow(BlockProfile &P, const AddressIndex &Index);

/// Charges \p Profile to the blocks of \p Binary's maps. A large profile is
/// cut into parts charged on up to \p Threads threads (0: the machine's
/// hardware threads) and summed: the result is the same for any number.
BlockProfile countBlocks(const BranchProfile &Profile,
                         const MappedBinary &Binary,
                         const InstructionDecoder &Decoder,
                         unsigned Threads = 0);

/// Charges the BranchSamples of \p Profile (ARM SPE) to the blocks of
/// \p Binary's maps as samples of branch operations, ready for inferFlow:
/// Kind Samples, each sample to its branch's block and, when it knows the
/// start of its run, to each block without a branch of that run that
/// falls through to the branch's block with no branch between (every
/// execution of such a block reaches that branch), scaled up by the share
/// of samples that know their run (SampledOperation::BranchAndRun; Branch
/// when none does). Counts are in units of 1/BranchSampleUnit sample.
inline constexpr uint64_t BranchSampleUnit = 16;
BlockProfile countBranchSamples(const BranchProfile &Profile,
                                const MappedBinary &Binary,
                                const InstructionDecoder &Decoder,
                                unsigned Threads = 0);

} // namespace bbmap

#endif // BBMAP_PROFILE_BLOCKPROFILE_H
