//===- BoltProgramStats.cpp - what perf2bolt reports of a profile ---------===//
//
// Follows PrintProgramStats::runOnFunctions() of BOLT 22 for a run that only
// aggregates: which functions count, which have a profile (recordEntry()
// and recordExit() of the DataAggregator give one), and the density of
// --show-density, which perf2bolt 22 always prints.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BoltProgramStats.h"
#include "bbmap/BoltProfile/BoltRecords.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include <functional>
#include <utility>
#include <vector>

using namespace llvm;

namespace bbmap {

namespace {

/// BOLT leaves PLT entries (not its pseudo function of the PLT header) out
/// of its statistics.
bool isPLTEntry(const BoltFunction &F) {
  return F.IsPseudo && StringRef(F.Name).ends_with("@PLT");
}

/// BOLT keeps \p F simple: it has BOLT's blocks, BOLT does not reject them
/// and data refers into them only to jump-table targets. In a BOLTed binary
/// the hot fragment of a function BOLT split counts as simple
/// (\p SplitParent), as PrintProgramStats says, and for BOLT 19 every
/// function does (observed).
bool isSimple(BoltRecordAggregator &Records, const BoltFunction &F,
              bool SplitParent) {
  if (SplitParent ||
      (Records.isBAT() && Records.dialect() == FdataDialect::Bolt19))
    return true;
  if (F.IsPseudo)
    return false;
  const BoltFunctionView *View = Records.viewOf(F);
  return View && View->isSimple() && !View->hasUnclaimedReference();
}

/// PrintProgramStats counts the simple functions with an indirect jump
/// BOLT cannot follow, profiled or not.
bool hasUnknownControlFlow(BoltRecordAggregator &Records, const BoltFunction &F,
                           bool SplitParent) {
  if (F.IsPseudo || !isSimple(Records, F, SplitParent))
    return false;
  const BoltFunctionView *View = Records.viewOf(F);
  return View && View->hasUnknownControlFlow();
}

/// BOLT gives a function a profile when a branch enters it from elsewhere
/// (recordEntry()) or, in a simple function, when any record is its
/// (recordExit(), its branches and runs); with IP samples, when it has
/// samples.
bool hasProfile(const BoltFunctionRecords &R, bool Simple, bool BasicSamples) {
  if (BasicSamples)
    return !R.Samples.empty();
  return Simple ? R.hasBranchData() : !R.Entries.empty();
}

/// BOLT's RawBranchCount: the counts of the function's branches and runs,
/// or of its samples.
uint64_t sampleCount(const BoltFunctionRecords &R, bool BasicSamples) {
  uint64_t N = 0;
  if (BasicSamples) {
    for (const auto &Entry : R.Samples)
      N += Entry.second;
    return N;
  }
  for (const auto &Entry : R.Branches)
    N += Entry.second.Count;
  return N;
}

/// (density, samples) of each profiled simple function: the density of the
/// last of the densest functions whose samples reach \p Cutoff millionths
/// of the samples of those that ran any bytes. BOLT computes that bound in
/// float and rounds it down, and of equal densities takes the function with
/// more samples first.
double densityOf(std::vector<std::pair<double, uint64_t>> List,
                 uint64_t Cutoff) {
  uint64_t Total = 0;
  for (const auto &[Density, Samples] : List)
    if (Density != 0)
      Total += Samples;
  llvm::sort(List, std::greater<>());
  auto Bound = static_cast<uint64_t>(float(Total) * Cutoff / 1000000);
  double Density = 0;
  uint64_t Accumulated = 0;
  for (const auto &[FunctionDensity, Samples] : List) {
    if (Accumulated >= Bound)
      break;
    Accumulated += Samples;
    Density = FunctionDensity;
  }
  return Density;
}

} // namespace

BoltProgramStats programStats(BoltRecordAggregator &Records, bool BasicSamples,
                              uint64_t Cutoff, bool CountUnknownControlFlow) {
  ArrayRef<BoltFunction> Functions = Records.functions().functions();
  // A split function's executed bytes are spread over all its fragments.
  DenseMap<const BoltFunction *, uint64_t> FragmentSizes;
  for (const BoltFunction &F : Functions)
    if (const BoltFunction *Parent = Records.parentOf(F); Parent != &F)
      FragmentSizes[Parent] += F.Size;
  DenseMap<const BoltFunction *, const BoltFunctionRecords *> RecordsOf;
  for (const auto &Entry : Records.records())
    RecordsOf[Entry.second.Function] = &Entry.second;

  BoltProgramStats Stats;
  std::vector<std::pair<double, uint64_t>> Densities;
  for (const BoltFunction &F : Functions) {
    if (isPLTEntry(F))
      continue;
    ++Stats.Functions;
    auto Fragments = FragmentSizes.find(&F);
    bool SplitParent = Fragments != FragmentSizes.end();
    if (CountUnknownControlFlow && Records.functions().hasRelocations())
      Stats.UnknownControlFlow +=
          hasUnknownControlFlow(Records, F, SplitParent);
    const BoltFunctionRecords *R = RecordsOf.lookup(&F);
    if (!R)
      continue;
    bool Simple = isSimple(Records, F, SplitParent);
    if (!hasProfile(*R, Simple, BasicSamples))
      continue;
    if (!Simple) {
      ++Stats.ProfiledNotSimple;
      continue;
    }
    ++Stats.Profiled;
    uint64_t Samples = sampleCount(*R, BasicSamples);
    uint64_t Size = F.Size + (SplitParent ? Fragments->second : 0);
    if (Size)
      Densities.emplace_back(double(Records.executedBytes(F)) / Size, Samples);
  }
  Stats.Density = densityOf(std::move(Densities), Cutoff);
  return Stats;
}

} // namespace bbmap
