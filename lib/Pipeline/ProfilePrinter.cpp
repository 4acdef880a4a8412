//===- ProfilePrinter.cpp - block profiles as JSON, text or dot -----------===//
//
// JSON through llvm::json::OStream, one object per profiled function with
// its blocks (all of them, in address order), edges and call sites. The dot
// picture fills each block with a colour from white (cold) to red (the
// function's hottest block).
//
//===----------------------------------------------------------------------===//

#include "bbmap/Pipeline/ProfilePrinter.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <algorithm>

using namespace llvm;

namespace bbmap {

namespace {

/// A call site and its count, as BlockProfile::Calls holds them.
using CallCount = std::pair<CallKey, EdgeCount>;

/// Edges and calls of one function, found through their source entries.
struct FunctionView {
  const FunctionBlocks &F;
  std::vector<BlockEdge> Edges;
  std::vector<CallCount> Calls;
};

/// The calls made from each of \p Functions (those whose site is in one of
/// its blocks), each in BlockProfile::Calls order: one pass over the calls
/// for all functions.
std::vector<std::vector<CallCount>>
callsByFunction(ArrayRef<FunctionBlocks> Functions, const BlockProfile &P,
                const AddressIndex &Index) {
  constexpr uint32_t NoFunction = UINT32_MAX;
  std::vector<uint32_t> Owner(Index.numBlocks(), NoFunction);
  for (uint32_t I = 0; I < Functions.size(); ++I)
    for (uint32_t E : Functions[I].Entries)
      Owner[E] = I;
  std::vector<std::vector<CallCount>> Calls(Functions.size());
  for (const auto &[Key, C] : P.Calls) {
    uint32_t E = Index.find(Key.Site, LookupSide::From);
    if (E != AddressIndex::NotFound && Owner[E] != NoFunction)
      Calls[Owner[E]].push_back({Key, C});
  }
  return Calls;
}

std::string calleeName(const MappedBinary &Binary, uint64_t Address) {
  if (const FunctionSymbol *S = symbolAt(Binary.symbols(), Address))
    return S->Name;
  return "0x" + utohexstr(Address, /*LowerCase=*/true);
}

void printFunctionJSON(json::OStream &J, const MappedBinary &Binary,
                       const BlockProfile &P, const FunctionView &V) {
  const AddressIndex &Index = Binary.index();
  J.attribute("Name", V.F.Name);
  J.attribute("Address", V.F.Address);
  J.attribute("EntryCount", V.F.EntryCount);
  J.attribute("Total", V.F.Total);
  J.attributeArray("Blocks", [&] {
    for (uint32_t E : V.F.Entries)
      J.object([&] {
        BlockMatch M = Index.match(E);
        J.attribute("ID", M.ID);
        J.attribute("Range", M.Range);
        J.attribute("Address", M.BlockStart);
        J.attribute("Size", M.BlockEnd - M.BlockStart);
        J.attribute("Count", P.Counts[E]);
        auto Ret = P.Returns.find(E);
        J.attribute("Returns", Ret == P.Returns.end() ? 0 : Ret->second);
      });
  });
  J.attributeArray("Edges", [&] {
    for (const auto &[Key, C] : V.Edges)
      J.object([&] {
        J.attribute("From", Index.match(Key.first).ID);
        J.attribute("To", Index.match(Key.second).ID);
        J.attribute("Count", C.Count);
        J.attribute("Mispreds", C.Mispreds);
      });
  });
  J.attributeArray("Calls", [&] {
    for (const auto &[Key, C] : V.Calls)
      J.object([&] {
        J.attribute("Site", Key.Site);
        J.attribute("Block",
                    Index.match(Index.find(Key.Site, LookupSide::From)).ID);
        J.attribute("Callee", calleeName(Binary, Key.Callee));
        J.attribute("CalleeAddress", Key.Callee);
        J.attribute("TailCall", Key.TailCall);
        J.attribute("Count", C.Count);
        J.attribute("Mispreds", C.Mispreds);
      });
  });
}

void printStatsJSON(json::OStream &J, const MappingStats &S) {
  J.attribute("Calls", S.Calls);
  J.attribute("Returns", S.Returns);
  J.attribute("BranchesOutside", S.BranchesOutside);
  J.attribute("BranchesIntoBlock", S.BranchesIntoBlock);
  J.attribute("RunsOutside", S.RunsOutside);
  J.attribute("RunsBackwards", S.RunsBackwards);
  J.attribute("RunsAcrossRanges", S.RunsAcrossRanges);
  J.attribute("RunsMismatchingCode", S.RunsMismatchingCode);
  J.attribute("RepeatedEntries", S.RepeatedEntries);
  J.attribute("SamplesOutside", S.SamplesOutside);
}

void printBATJSON(json::OStream &J, const ProfileOrigin &Origin) {
  const BATTranslationStats &S = *Origin.BAT;
  J.attribute("BoltedBinary", Origin.BoltedBinary);
  J.attribute("Records", S.Records);
  J.attribute("UnknownFunction", S.UnknownFunction);
  J.attribute("RunsAcrossFragments", S.RunsAcrossFragments);
  J.attribute("LayoutJumps", S.LayoutJumps);
  J.attribute("Unexplained", S.Unexplained);
  J.attribute("SamplesDropped", S.SamplesDropped);
}

void printBATSummary(raw_ostream &OS, const ProfileOrigin &Origin) {
  const BATTranslationStats &S = *Origin.BAT;
  OS << formatv("translated from {0} through BAT: {1} records, {2} jumps "
                "BOLT's layout removed, inverted or added, {3} transitions "
                "unexplained, dropped: {4} records in unknown functions, {5} "
                "runs across fragments, {6} samples\n",
                Origin.BoltedBinary, S.Records, S.LayoutJumps, S.Unexplained,
                S.UnknownFunction, S.RunsAcrossFragments, S.SamplesDropped);
}

void printInferenceJSON(json::OStream &J, const InferenceStats &S) {
  J.attribute("CFGFromMap", S.CFGFromMap);
  J.attribute("CFGFromCode", S.CFGFromCode);
  J.attribute("SparselySampled", S.SparselySampled);
  J.attribute("WithoutExit", S.WithoutExit);
  J.attribute("WithoutFlow", S.WithoutFlow);
}

void printInferenceSummary(raw_ostream &OS, const InferenceStats &S) {
  OS << formatv("inferred from IP samples: the CFG of {0} functions from the "
                "map's PGO analysis, of {1} from the code; {2} sampled too "
                "sparsely for a path of sampled blocks (inferred again with "
                "their unsampled blocks unknown); {3} without an exit and {4} "
                "without a flow even then kept their sample weights\n",
                S.CFGFromMap, S.CFGFromCode, S.SparselySampled, S.WithoutExit,
                S.WithoutFlow);
}

void printStaleJSON(json::OStream &J, const ProfileOrigin &Origin) {
  const StaleMatchStats &S = *Origin.Stale;
  J.attribute("ProfiledBinary", Origin.ProfiledBinary);
  J.attribute("ByMapHashes", S.ByMapHashes);
  J.attribute("ByCodeHashes", S.ByCodeHashes);
  J.attribute("Functions", S.Functions);
  J.attribute("Unchanged", S.Unchanged);
  J.attribute("Changed", S.Changed);
  J.attribute("Missing", S.Missing.size());
  J.attribute("BlocksMatched", S.BlocksMatched);
  J.attribute("BlocksUnmatched", S.BlocksUnmatched);
  J.attribute("Weight", S.Weight);
  J.attribute("WeightMissing", S.WeightMissing);
  J.attribute("WeightUnmatched", S.WeightUnmatched);
  auto Losses = [&](StringRef Key, ArrayRef<StaleLoss> List) {
    J.attributeArray(Key, [&] {
      for (const StaleLoss &L : List)
        J.object([&] {
          J.attribute("Name", L.Name);
          J.attribute("Weight", L.Weight);
        });
    });
  };
  Losses("MissingFunctions", S.Missing);
  Losses("PartialFunctions", S.Partial);
}

void printStaleSummary(raw_ostream &OS, const ProfileOrigin &Origin) {
  const StaleMatchStats &S = *Origin.Stale;
  auto Pct = [&](uint64_t W) { return S.Weight ? 100.0 * W / S.Weight : 0; };
  OS << formatv("carried from {0}: {1} functions, {2} unchanged, {3} changed "
                "({4} by map hashes, {5} by code hashes; {6} profiled blocks "
                "matched, {7} not: {8:f1}% of the weight lost), {9} missing "
                "({10:f1}% of the weight lost)\n",
                Origin.ProfiledBinary, S.Functions, S.Unchanged, S.Changed,
                S.ByMapHashes, S.ByCodeHashes, S.BlocksMatched,
                S.BlocksUnmatched, Pct(S.WeightUnmatched), S.Missing.size(),
                Pct(S.WeightMissing));
}

uint64_t totalCount(const BlockProfile &P) {
  uint64_t Sum = 0;
  for (uint64_t C : P.Counts)
    Sum += C;
  return Sum;
}

/// The JSON name of the counts' kind, and their unit in the summary.
StringRef kindName(CountKind K) {
  switch (K) {
  case CountKind::Executions:
    return "executions";
  case CountKind::Samples:
    return "samples";
  case CountKind::Inferred:
    return "inferred";
  }
  llvm_unreachable("unknown count kind");
}

StringRef unitName(CountKind K) {
  switch (K) {
  case CountKind::Executions:
    return "block executions";
  case CountKind::Samples:
    return "samples";
  case CountKind::Inferred:
    return "inferred block counts";
  }
  llvm_unreachable("unknown count kind");
}

double share(uint64_t Part, uint64_t Whole) {
  return Whole ? 100.0 * Part / Whole : 0;
}

} // namespace

void printProfileJSON(raw_ostream &OS, const MappedBinary &Binary,
                      const BlockProfile &P, const ProfileOrigin &Origin,
                      bool Pretty) {
  json::OStream J(OS, Pretty ? 2 : 0);
  J.object([&] {
    J.attribute("Binary", Binary.path());
    J.attribute("BuildID", Binary.buildID());
    J.attributeObject("Profile", [&] {
      J.attribute("File", Origin.ProfilePath);
      J.attribute("Format", Origin.Format);
      J.attribute("Kind", kindName(P.Kind));
      J.attributeArray("Events", [&] {
        for (const std::string &E : Origin.Profile->Events)
          J.value(E);
      });
      J.attribute("SkippedOtherBinary", Origin.Profile->Skipped.OtherBinary);
      J.attribute("SkippedOutside", Origin.Profile->Skipped.Outside);
    });
    if (Origin.BAT)
      J.attributeObject("BAT", [&] { printBATJSON(J, Origin); });
    if (Origin.Inference)
      J.attributeObject("Inference",
                        [&] { printInferenceJSON(J, *Origin.Inference); });
    if (Origin.Stale)
      J.attributeObject("Stale", [&] { printStaleJSON(J, Origin); });
    J.attributeObject("Stats", [&] { printStatsJSON(J, P.Stats); });
    J.attributeArray("Functions", [&] {
      const AddressIndex &Index = Binary.index();
      std::vector<FunctionBlocks> Functions = profiledFunctions(P, Index);
      std::vector<std::vector<CallCount>> Calls =
          callsByFunction(Functions, P, Index);
      for (size_t I = 0; I < Functions.size(); ++I)
        J.object([&] {
          const FunctionBlocks &F = Functions[I];
          printFunctionJSON(
              J, Binary, P,
              {F, functionEdges(P, Index, F), std::move(Calls[I])});
        });
    });
  });
  OS << "\n";
}

void printProfileSummary(raw_ostream &OS, const MappedBinary &Binary,
                         const BlockProfile &P, const ProfileOrigin &Origin,
                         unsigned Top) {
  const AddressIndex &Index = Binary.index();
  uint64_t Total = totalCount(P);
  std::vector<FunctionBlocks> Functions = profiledFunctions(P, Index);
  StringRef Unit = unitName(P.Kind);
  OS << formatv("{0}: {1} {2} in {3} function{4} (profile {5}, {6})\n",
                Binary.path(), Total, Unit, Functions.size(),
                Functions.size() == 1 ? "" : "s", Origin.ProfilePath,
                Origin.Format);
  if (Origin.BAT)
    printBATSummary(OS, Origin);
  if (Origin.Inference)
    printInferenceSummary(OS, *Origin.Inference);
  if (Origin.Stale)
    printStaleSummary(OS, Origin);
  OS << "\nhottest functions:\n  share       count  entries  function\n";
  for (const FunctionBlocks &F : ArrayRef(Functions).take_front(Top))
    OS << formatv("  {0,5:f1}% {1,11} {2,8}  {3}\n", share(F.Total, Total),
                  F.Total, F.EntryCount, F.Name);
  std::vector<uint32_t> Hot;
  for (uint32_t E = 0; E < P.Counts.size(); ++E)
    if (P.Counts[E])
      Hot.push_back(E);
  llvm::stable_sort(
      Hot, [&](uint32_t A, uint32_t B) { return P.Counts[A] > P.Counts[B]; });
  OS << "\nhottest blocks:\n  share       count  address             id  "
        "function\n";
  for (uint32_t E : ArrayRef(Hot).take_front(Top)) {
    BlockMatch M = Index.match(E);
    OS << formatv("  {0,5:f1}% {1,11}  {2,-18} {3,3}  {4}\n",
                  share(P.Counts[E], Total), P.Counts[E],
                  "0x" + utohexstr(M.BlockStart, /*LowerCase=*/true), M.ID,
                  M.name());
  }
  const MappingStats &S = P.Stats;
  OS << formatv("\nnot charged to blocks: {0} calls, {1} returns, {2} "
                "branches and {3} runs outside the maps, {4} branches into a "
                "block, {5} backward runs, {6} runs across functions, {7} "
                "runs the code cannot run through, {8} samples outside\n",
                S.Calls, S.Returns, S.BranchesOutside, S.RunsOutside,
                S.BranchesIntoBlock, S.RunsBackwards, S.RunsAcrossRanges,
                S.RunsMismatchingCode, S.SamplesOutside);
  if (S.RepeatedEntries)
    OS << "dropped: " << S.RepeatedEntries
       << " repeated newest branch stack entries (an LBR quirk)\n";
}

Error printFunctionCFG(raw_ostream &OS, const MappedBinary &Binary,
                       const BlockProfile &P, StringRef Function) {
  const AddressIndex &Index = Binary.index();
  FunctionBlocks F;
  for (uint32_t E = 0; E < Index.numBlocks(); ++E) {
    BlockMatch M = Index.match(E);
    if (M.name() != Function ||
        (!F.Entries.empty() && !Index.sameFunction(E, F.Entries.front())))
      continue;
    F.Name = M.name();
    F.Address = M.function().address();
    F.Entries.push_back(E);
  }
  if (F.Entries.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no mapped function named '" + Function + "'");
  uint64_t Max = 1;
  for (uint32_t E : F.Entries)
    Max = std::max(Max, P.Counts[E]);
  OS << "digraph \"" << Function << "\" {\n"
     << "  node [shape=box, style=filled, fontname=monospace];\n";
  for (uint32_t E : F.Entries) {
    BlockMatch M = Index.match(E);
    // White (cold) through yellow to red (hottest), in HSV.
    double Heat = double(P.Counts[E]) / Max;
    OS << formatv("  b{0} [label=\"{0}\\n0x{1}\\n{2}\", fillcolor=\"{3:f3} "
                  "{4:f3} 1.000\"];\n",
                  M.ID, utohexstr(M.BlockStart, /*LowerCase=*/true),
                  P.Counts[E], 0.17 * (1 - Heat), Heat);
  }
  for (const auto &[Key, C] : functionEdges(P, Index, F))
    OS << formatv("  b{0} -> b{1} [label=\"{2}\", penwidth={3:f2}];\n",
                  Index.match(Key.first).ID, Index.match(Key.second).ID,
                  C.Count, 1 + 4.0 * C.Count / Max);
  OS << "}\n";
  return Error::success();
}

} // namespace bbmap
