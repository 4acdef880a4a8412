//===- Placement.cpp - where the hot code starts in its page --------------===//
//
// The candidates are the page offsets PlacementGranule bytes apart within
// the period the sets repeat with (at most a page). Each candidate's cost is
// the sum over sets of the fetches of the lines beyond the set's ways, the
// lines ranked by fetches. Moving the code by whole lines only moves its
// lines to other sets, so the lines are made and grouped by set once per
// offset within the line, and each candidate merges two sorted lists per
// set.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Layout/Placement.h"
#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <functional>

using namespace llvm;

namespace bbmap {

Expected<CacheGeometry> parseCacheGeometry(StringRef Text) {
  SmallVector<StringRef, 3> Parts;
  Text.split(Parts, ',');
  CacheGeometry G;
  if (Parts.size() != 3 || Parts[0].getAsInteger(10, G.Size) ||
      Parts[1].getAsInteger(10, G.Ways) ||
      Parts[2].getAsInteger(10, G.LineBytes))
    return createStringError("'" + Text +
                             "': want SIZE,WAYS,LINE (bytes, ways, bytes)");
  if (!G.Size || !G.Ways || !isPowerOf2_64(G.LineBytes) ||
      G.Size % (G.Ways * G.LineBytes) || !isPowerOf2_64(G.sets()))
    return createStringError("'" + Text +
                             "': the line size and the number of sets "
                             "(SIZE / (WAYS * LINE)) must be powers of two");
  return G;
}

CacheGeometry defaultCacheGeometry(Triple::ArchType Arch) {
  if (Arch == Triple::aarch64)
    return {65536, 4, 64};
  return {32768, 8, 64};
}

namespace {

/// Fetches, most first.
using Ranked = std::vector<double>;

/// The fetches of the lines beyond the first \p Ways of \p A and \p B
/// merged (both most first).
double overflow(const Ranked &A, const Ranked &B, uint64_t Ways) {
  double Kept = 0, All = 0;
  size_t I = 0, J = 0;
  for (uint64_t W = 0; W < Ways && (I < A.size() || J < B.size()); ++W) {
    if (J == B.size() || (I < A.size() && A[I] >= B[J]))
      Kept += A[I++];
    else
      Kept += B[J++];
  }
  for (double F : A)
    All += F;
  for (double F : B)
    All += F;
  return All - Kept;
}

/// \p Lines grouped by the slot of the period their address falls in, each
/// group most fetched first.
std::vector<Ranked> bySlot(ArrayRef<LineWeight> Lines, uint64_t LineBytes,
                           uint64_t Slots) {
  std::vector<Ranked> Groups(Slots);
  for (const LineWeight &L : Lines)
    Groups[(L.Address / LineBytes) % Slots].push_back(L.Fetches);
  for (Ranked &G : Groups)
    llvm::sort(G, std::greater<double>());
  return Groups;
}

} // namespace

std::vector<LineWeight> programLines(ArrayRef<BlockWeight> Blocks,
                                     uint64_t LineBytes, uint64_t Shift) {
  AnyKeyMap<uint64_t, double> Lines;
  for (const BlockWeight &B : Blocks)
    for (uint64_t A = alignDown(B.Start + Shift, LineBytes); A < B.End + Shift;
         A += LineBytes)
      Lines[A] += B.Count;
  std::vector<LineWeight> Sorted;
  for (const auto &[Address, Fetches] : Lines)
    Sorted.push_back({Address.Value, Fetches});
  llvm::sort(Sorted, [](const LineWeight &A, const LineWeight &B) {
    return A.Address < B.Address;
  });
  return Sorted;
}

Placement choosePlacement(const PlacementInput &Input,
                          const CacheGeometry &Cache, uint64_t PageBytes) {
  uint64_t Line = Cache.LineBytes;
  uint64_t Slots =
      std::min(Cache.sets(), std::max<uint64_t>(PageBytes / Line, 1));
  uint64_t Ways = Cache.Ways * (Cache.sets() / Slots);
  std::vector<Ranked> Others = bySlot(Input.Others, Line, Slots);
  // Moving the code by K lines puts the lines of slot S - K in slot S.
  auto CostAt = [&](const std::vector<Ranked> &Program, uint64_t K) {
    double Cost = 0;
    for (uint64_t S = 0; S != Slots; ++S)
      Cost += overflow(Program[(S + Slots - K) % Slots], Others[S], Ways);
    return Cost;
  };
  Placement P;
  P.HotStart = Input.HotStart;
  P.LinkedPageOffset = P.PageOffset = Input.HotStart % PageBytes;
  uint64_t Granule = std::min(PlacementGranule, Line);
  for (uint64_t Within = 0; Within < Line; Within += Granule) {
    std::vector<Ranked> Program =
        bySlot(programLines(Input.Program, Line, Within), Line, Slots);
    for (uint64_t K = 0; K != Slots; ++K) {
      double Cost = CostAt(Program, K);
      if (!Within && !K) {
        P.LinkedCost = P.Cost = Cost;
      } else if (Cost < P.Cost * (1 - 1e-9)) {
        P.Cost = Cost;
        P.PageOffset = (Input.HotStart + Within + K * Line) % (Slots * Line);
      }
    }
  }
  return P;
}

Expected<PlacementInput> placedProgram(ArrayRef<FunctionLayout> Layout,
                                       const MappedBinary &Placed) {
  const AddressIndex &Index = Placed.index();
  StringMap<FunctionBlocks> ByName;
  StringMap<unsigned> Seen;
  for (FunctionBlocks &F : mappedFunctions(Index)) {
    if (++Seen[F.Name] == 1)
      ByName[F.Name] = std::move(F);
    else
      ByName.erase(F.Name);
  }
  PlacementInput Input;
  Input.HotStart = UINT64_MAX;
  for (const FunctionLayout &L : Layout) {
    auto It = ByName.find(L.Name);
    if (It == ByName.end())
      continue;
    const FunctionBlocks &F = It->second;
    Input.HotStart = std::min(Input.HotStart, F.Address);
    AnyKeyMap<uint32_t, uint64_t> Counts;
    for (const BlockFlow &B : L.Flow)
      Counts[B.ID] = B.Count;
    for (uint32_t E : F.Entries) {
      auto C = Counts.find(Index.idOf(E));
      if (C != Counts.end() && Index.blockEnd(E) > Index.blockStart(E))
        Input.Program.push_back(
            {Index.blockStart(E), Index.blockEnd(E), double(C->second)});
    }
  }
  if (Input.HotStart == UINT64_MAX)
    return createStringError("'" + Placed.path() +
                             "' has none of the laid-out functions in its "
                             "map (is it the binary built with the layout, "
                             "with the plugin or -fbasic-block-address-map?)");
  return Input;
}

double addOtherObjects(PlacementInput &Input, ProcessCode Code,
                       uint64_t LineBytes, uint64_t PageBytes) {
  if (!Code.HasBranches)
    spreadOverFunctions(Code, LineBytes);
  Input.Warnings.append(Code.Warnings);
  double Fetches = 0;
  for (const LineWeight &L : programLines(Input.Program, LineBytes))
    Fetches += L.Fetches;
  double Scale = Fetches / double(Code.BinaryWeight);
  for (const auto &[Line, Weight] : Code.OtherLines)
    Input.Others.push_back({Line.second % PageBytes, Weight * Scale});
  return Fetches;
}

void writePlacementAssembly(const Placement &P, Triple::ArchType Arch,
                            uint64_t PageBytes, raw_ostream &OS) {
  // int3 on x86; on AArch64 zero words are permanently undefined (udf #0).
  unsigned Fill = Arch == Triple::x86_64 || Arch == Triple::x86 ? 0xcc : 0;
  OS << "// bbmap placement: the hot code starts at page offset 0x"
     << utohexstr(P.PageOffset, /*LowerCase=*/true) << " (linked at 0x"
     << utohexstr(P.LinkedPageOffset, /*LowerCase=*/true)
     << "); link this file's object with the symbol order that lists "
     << PlacementSymbol << " first\n"
     << "\t.section .text.bbmap.placement,\"ax\",%progbits\n"
     << "\t.p2align " << Log2_64(PageBytes) << "\n"
     << "\t.globl " << PlacementSymbol << "\n"
     << "\t.hidden " << PlacementSymbol << "\n"
     << "\t.type " << PlacementSymbol << ",%function\n"
     << PlacementSymbol << ":\n"
     << "\t.fill " << P.PageOffset << ", 1, " << Fill << "\n"
     << "\t.size " << PlacementSymbol << ", " << P.PageOffset << "\n";
}

} // namespace bbmap
