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

/// (density, samples) of each profiled simple function, in address order:
/// the density of the last of the densest functions that reach \p Cutoff
/// millionths of their samples. BOLT computes the bound in float.
double densityOf(std::vector<std::pair<double, uint64_t>> List,
                 uint64_t Cutoff) {
  uint64_t Total = 0;
  for (const auto &Entry : List)
    Total += Entry.second;
  llvm::stable_sort(List, [](const auto &A, const auto &B) {
    if (A.first != B.first)
      return A.first > B.first;
    return A.second < B.second;
  });
  float Bound = Total * static_cast<float>(Cutoff) / 1000000;
  double Density = 0;
  uint64_t Accumulated = 0;
  for (size_t I = 0; I < List.size() && Accumulated < Bound; ++I) {
    Accumulated += List[I].second;
    Density = List[I].first;
  }
  return Density;
}

} // namespace

BoltProgramStats programStats(BoltRecordAggregator &Records, bool BasicSamples,
                              uint64_t Cutoff) {
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
    const BoltFunctionRecords *R = RecordsOf.lookup(&F);
    if (!R)
      continue;
    auto Fragments = FragmentSizes.find(&F);
    bool SplitParent = Fragments != FragmentSizes.end();
    bool Simple = isSimple(Records, F, SplitParent);
    if (!hasProfile(*R, Simple, BasicSamples))
      continue;
    if (!Simple) {
      ++Stats.ProfiledNotSimple;
      continue;
    }
    ++Stats.Profiled;
    uint64_t Samples = sampleCount(*R, BasicSamples);
    // perf2bolt 22 leaves functions that ran no bytes out of the density
    // (observed: their samples do not count either).
    uint64_t Bytes = Records.executedBytes(F);
    uint64_t Size = F.Size + (SplitParent ? Fragments->second : 0);
    if (Bytes && Size)
      Densities.emplace_back(double(Bytes) / Size, Samples);
  }
  Stats.Density = densityOf(std::move(Densities), Cutoff);
  return Stats;
}

} // namespace bbmap
