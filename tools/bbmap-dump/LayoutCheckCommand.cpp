//===- LayoutCheckCommand.cpp - the --check-layout mode of bbmap-dump -----===//
//
// The text is one line per `f` line of the profile, then the symbol order,
// the blocks the compiler added (with --profiled) and the summary:
//   NAME: hot cluster as asked, N other ranges cold, P bytes of padding
//   symbol order: as asked (N symbols)
//   layout: as asked, P bytes of padding in hot parts
// with DIFFERS (and the block IDs wanted and found) where the binary does
// not realize the layout. docs/bbmap-check-layout.schema.json describes
// the JSON.
//
//===----------------------------------------------------------------------===//

#include "LayoutCheckCommand.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace bbmap {

namespace {

void printIDs(ArrayRef<uint32_t> IDs, raw_ostream &OS) {
  OS << "[";
  ListSeparator Sep(", ");
  for (uint32_t ID : IDs)
    OS << Sep << ID;
  OS << "]";
}

void printFunction(const FunctionCheck &F, raw_ostream &OS) {
  OS << F.Name << ": ";
  if (!F.Found) {
    OS << "not in the rebuilt binary\n";
    return;
  }
  OS << "hot cluster ";
  if (F.Wanted == F.Got) {
    OS << "as asked";
  } else {
    OS << "DIFFERS ";
    printIDs(F.Got, OS);
    OS << " != ";
    printIDs(F.Wanted, OS);
  }
  if (!F.LaterClustersRealized)
    OS << ", later clusters DIFFER";
  OS << ", " << F.OtherRanges << " other ranges "
     << (F.ColdHoldsClustered ? "HOLD HOT BLOCKS" : "cold") << ", " << F.Padding
     << " bytes of padding\n";
}

void printText(const LayoutCheckResult &R, raw_ostream &OS) {
  for (const FunctionCheck &F : R.Functions)
    printFunction(F, OS);
  if (R.OrderedSymbols)
    OS << "symbol order: " << (R.InOrder ? "as asked" : "DIFFERS") << " ("
       << *R.OrderedSymbols << " symbols)\n";
  if (R.AddedBlocks)
    OS << "blocks the compiler added: " << *R.AddedBlocks << "\n";
  if (R.Unwind.FDEs)
    OS << "unwind: " << R.Unwind.FDEs
       << " FDEs out of reach of .eh_frame_hdr, the first at 0x"
       << utohexstr(R.Unwind.First, /*LowerCase=*/true)
       << " (an FDE of no range has their address: an exception through "
          "that code terminates; an empty block section? see "
          "docs/layout.md)\n";
  OS << "layout: ";
  if (unsigned N = R.differences())
    OS << N << " differences";
  else
    OS << "as asked";
  OS << ", " << R.padding() << " bytes of padding in hot parts\n";
}

void printJSON(const LayoutCheckResult &R, bool Pretty, raw_ostream &OS) {
  json::OStream J(OS, Pretty ? 2 : 0);
  J.object([&] {
    J.attribute("Realized", R.differences() == 0);
    J.attribute("Differences", R.differences());
    J.attribute("Padding", R.padding());
    if (R.OrderedSymbols)
      J.attributeObject("SymbolOrder", [&] {
        J.attribute("Symbols", uint64_t(*R.OrderedSymbols));
        J.attribute("InOrder", R.InOrder);
      });
    if (R.AddedBlocks)
      J.attribute("AddedBlocks", *R.AddedBlocks);
    J.attribute("HiddenFDEs", R.Unwind.FDEs);
    J.attributeArray("Functions", [&] {
      for (const FunctionCheck &F : R.Functions)
        J.object([&] {
          J.attribute("Name", F.Name);
          J.attribute("Found", F.Found);
          J.attribute("Realized", F.realized());
          J.attribute("Wanted", json::Array(F.Wanted));
          J.attribute("Got", json::Array(F.Got));
          J.attribute("LaterClustersRealized", F.LaterClustersRealized);
          J.attribute("OtherRangesHoldClustered", F.ColdHoldsClustered);
          J.attribute("OtherRanges", F.OtherRanges);
          J.attribute("Padding", F.Padding);
        });
    });
  });
  OS << "\n";
}

/// The contents of \p Path, or an error naming it.
Expected<std::unique_ptr<MemoryBuffer>> readFile(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             Path + ": " + Buffer.getError().message());
  return std::move(*Buffer);
}

/// Reads every input and checks; the first input that fails is reported.
Expected<LayoutCheckResult> check(const std::string &RebuiltPath,
                                  const LayoutCheckOptions &Opts,
                                  Diagnostics &Diag) {
  ClusterProfile Profile;
  if (!Opts.ClustersPath.empty()) {
    auto Clusters = readFile(Opts.ClustersPath);
    if (!Clusters)
      return Clusters.takeError();
    Expected<ClusterProfile> Read =
        readClusterProfile((*Clusters)->getBuffer());
    if (!Read)
      return createStringError(Opts.ClustersPath + ": " +
                               toString(Read.takeError()));
    Profile = std::move(*Read);
  }
  std::vector<std::string> Order;
  if (!Opts.SymbolOrderPath.empty()) {
    auto OrderFile = readFile(Opts.SymbolOrderPath);
    if (!OrderFile)
      return OrderFile.takeError();
    Order = readSymbolOrder((*OrderFile)->getBuffer());
  }
  // The order alone needs the symbols, not the map (lld's
  // --optimize-bb-jumps leaves a map whose blocks overlap).
  auto Rebuilt = Opts.ClustersPath.empty()
                     ? MappedBinary::openFile(RebuiltPath)
                     : MappedBinary::open(
                           RebuiltPath, MappedBinary::MapRequirement::Required,
                           Opts.Threads);
  if (!Rebuilt)
    return createStringError(RebuiltPath + ": " +
                             toString(Rebuilt.takeError()));
  std::unique_ptr<MappedBinary> Profiled;
  if (!Opts.ProfiledPath.empty()) {
    auto P = MappedBinary::open(Opts.ProfiledPath,
                                MappedBinary::MapRequirement::Required,
                                Opts.Threads);
    if (!P)
      return createStringError(Opts.ProfiledPath + ": " +
                               toString(P.takeError()));
    Profiled = std::move(*P);
    Diag.warnings(Opts.ProfiledPath, Profiled->warnings());
  }
  Expected<LayoutCheckResult> Result =
      checkLayout(Profile, Order, **Rebuilt, Profiled.get());
  if (!Result)
    return createStringError(RebuiltPath + ": " + toString(Result.takeError()));
  WarningList Warnings = (*Rebuilt)->warnings();
  Warnings.append(Result->Warnings);
  Diag.warnings(RebuiltPath, Warnings);
  return Result;
}

} // namespace

void printLayoutCheck(const LayoutCheckResult &Result,
                      const LayoutCheckOptions &Opts, raw_ostream &OS) {
  if (Opts.JSON)
    printJSON(Result, Opts.PrettyJSON, OS);
  else
    printText(Result, OS);
}

int runLayoutCheck(const std::string &RebuiltPath,
                   const LayoutCheckOptions &Opts, Diagnostics &Diag) {
  Expected<LayoutCheckResult> Result = check(RebuiltPath, Opts, Diag);
  if (!Result) {
    Diag.error(toString(Result.takeError()));
    return 1;
  }
  printLayoutCheck(*Result, Opts, outs());
  outs().flush();
  return Result->differences() ? 1 : 0;
}

} // namespace bbmap
