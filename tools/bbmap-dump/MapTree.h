//===- MapTree.h - llvm-readobj's --bb-addr-map tree ------------*- C++ -*-===//
//
// The field order and conditions of `llvm-readobj --bb-addr-map`, written
// once for both writers: TextWriter (the LLVM style) and JSONWriter (the
// JSON style), each byte for byte what llvm::ScopedPrinter would write. The
// writers share one small interface (beginObject, hex, number, ...), and
// MapTree is a template over it so that no field pays a virtual call.
// TreeFunctionPrinter prints the records of a run of functions with it.
//
// Field order and conditions follow llvm-readobj 22 (which prints versions
// 0-2 like llvm-readobj 19): the callsite list only when non-empty, the hash
// whenever BBHash is on, the PostLink counts whenever PostLinkCfg is on (the
// block count only next to a block frequency). Legacy-type (V0) sections,
// which neither llvm-readobj 19 nor 22 prints, use the same layout with the
// block index as the ID.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_MAPTREE_H
#define BBMAP_DUMPER_MAPTREE_H

#include "MapPrinter.h"
#include "bbmap/Object/ELFMapReader.h"
#include "llvm/Support/BlockFrequency.h"
#include "llvm/Support/BranchProbability.h"
#include "llvm/Support/ScopedPrinter.h"
#include <string>

namespace bbmap {

template <class Writer> class MapTree {
public:
  /// With \p PrettyPGO, block frequencies are printed relative to the first
  /// block's and branch probabilities as fractions, like llvm-readobj's
  /// --pretty-pgo-analysis-map.
  MapTree(Writer &W, bool PrettyPGO) : W(W), PrettyPGO(PrettyPGO) {}

  /// The File/Format/Arch/AddressSize/LoadName fields.
  void printSummaryFields(const FileSummary &S) {
    W.string("File", S.FileName);
    W.string("Format", S.Format);
    W.string("Arch", S.Arch);
    W.string("AddressSize", std::to_string(S.AddressBits) + "bit");
    W.string("LoadName", S.LoadName);
  }

  void beginSection() { W.beginArray("BBAddrMap"); }
  void endSection() { W.endArray(); }

  void printFunction(const FunctionMap &F, llvm::StringRef Name) {
    W.beginObject("Function");
    W.hex("At", F.address());
    W.string("Name", Name.empty() ? "<?>" : Name);
    W.beginArray("BB Ranges");
    for (const BlockRange &Range : F.Ranges)
      printRange(F, Range);
    W.endArray();
    if (F.PGO)
      printPGO(F);
    W.endObject();
  }

private:
  void printRange(const FunctionMap &F, const BlockRange &Range) {
    W.beginObject();
    W.hex("Base Address", Range.BaseAddress);
    W.beginArray("BB Entries");
    for (const BlockEntry &B : Range.Blocks)
      printBlock(F, B);
    W.endArray();
    W.endObject();
  }

  void printBlock(const FunctionMap &F, const BlockEntry &B) {
    W.beginObject();
    W.number("ID", B.ID);
    W.hex("Offset", B.Offset);
    if (!B.CallsiteEndOffsets.empty())
      W.list("Callsite End Offsets", B.CallsiteEndOffsets);
    if (F.has(feature::BBHash))
      W.hex("Hash", B.Hash);
    W.hex("Size", B.Size);
    W.boolean("HasReturn", B.has(metadata::HasReturn));
    W.boolean("HasTailCall", B.has(metadata::HasTailCall));
    W.boolean("IsEHPad", B.has(metadata::IsEHPad));
    W.boolean("CanFallThrough", B.has(metadata::CanFallThrough));
    W.boolean("HasIndirectBranch", B.has(metadata::HasIndirectBranch));
    W.endObject();
  }

  void printPGO(const FunctionMap &F) {
    W.beginObject("PGO analyses");
    if (F.has(feature::FuncEntryCount))
      W.number("FuncEntryCount", F.PGO->FuncEntryCount);
    if (F.has(feature::BBFreq) || F.has(feature::BrProb)) {
      W.beginArray("PGO BB entries");
      for (const PGOBlock &B : F.PGO->Blocks)
        printPGOBlock(F, B);
      W.endArray();
    }
    W.endObject();
  }

  void printFrequency(const FunctionMap &F, const PGOBlock &B) {
    if (!PrettyPGO)
      return W.number("Frequency", B.BBFreq);
    // Relative to the first decoded block, as llvm-readobj does.
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    llvm::printRelativeBlockFreq(
        OS, llvm::BlockFrequency(F.PGO->Blocks.front().BBFreq),
        llvm::BlockFrequency(B.BBFreq));
    W.string("Frequency", OS.str());
  }

  void printPGOBlock(const FunctionMap &F, const PGOBlock &B) {
    bool PostLink = F.has(feature::PostLinkCfg);
    W.beginObject();
    if (F.has(feature::BBFreq)) {
      printFrequency(F, B);
      if (PostLink)
        W.number("PostLink Frequency", B.PostLinkBBFreq);
    }
    if (F.has(feature::BrProb)) {
      W.beginArray("Successors");
      for (const PGOSuccessor &S : B.Successors)
        printSuccessor(S, PostLink);
      W.endArray();
    }
    W.endObject();
  }

  void printSuccessor(const PGOSuccessor &S, bool PostLink) {
    W.beginObject();
    W.number("ID", S.ID);
    if (PrettyPGO)
      W.string("Probability",
               llvm::to_string(llvm::BranchProbability::getRaw(S.BrProb)));
    else
      W.hex("Probability", S.BrProb);
    if (PostLink)
      W.number("PostLink Probability", S.PostLinkBrFreq);
    W.endObject();
  }

  Writer &W;
  bool PrettyPGO;
};

/// Prints function records with a MapTree over its own Writer.
template <class Writer> class TreeFunctionPrinter : public FunctionPrinter {
public:
  template <class... WriterArgs>
  TreeFunctionPrinter(bool PrettyPGO, WriterArgs &&...Args)
      : W(std::forward<WriterArgs>(Args)...), Tree(W, PrettyPGO) {}

  void printFunction(const FunctionMap &F, llvm::StringRef Name) override {
    Tree.printFunction(F, Name);
  }
  void flush() override { W.flush(); }

private:
  Writer W;
  MapTree<Writer> Tree;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_MAPTREE_H
