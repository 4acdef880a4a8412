//===- dumper/LLVMStylePrinter.cpp - llvm-readobj style output ------------===//
//
// Field order and conditions follow llvm-readobj 22 (which prints versions
// 0-2 like llvm-readobj 19): the callsite list only when non-empty, the hash
// whenever BBHash is on, the PostLink counts whenever PostLinkCfg is on (the
// block count only next to a block frequency). Legacy-type (V0) sections,
// which neither llvm-readobj 19 nor 22 prints, use the same layout with the
// block index as the ID.
//
//===----------------------------------------------------------------------===//

#include "LLVMStylePrinter.h"
#include "llvm/Support/BlockFrequency.h"
#include "llvm/Support/BranchProbability.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace bbmap {

LLVMStylePrinter::~LLVMStylePrinter() = default;

void LLVMStylePrinter::printFileSummary(const FileSummary &S) {
  W->startLine() << "\n";
  printSummaryFields(S);
}

void LLVMStylePrinter::printSummaryFields(const FileSummary &S) {
  W->printString("File", S.FileName);
  W->printString("Format", S.Format);
  W->printString("Arch", S.Arch);
  W->printString("AddressSize", formatv("{0}bit", S.AddressBits).str());
  W->printString("LoadName", S.LoadName);
}

void LLVMStylePrinter::printSection(const DecodedSection &Sec) {
  ListScope L(*W, "BBAddrMap");
  for (size_t I = 0; I < Sec.Functions.size(); ++I) {
    StringRef Name = Sec.Names[I];
    printFunction(Sec.Functions[I], Name.empty() ? "<?>" : Name);
  }
}

void LLVMStylePrinter::printFunction(const FunctionMap &F, StringRef Name) {
  DictScope D(*W, "Function");
  W->printHex("At", F.address());
  W->printString("Name", Name);
  {
    ListScope Ranges(*W, "BB Ranges");
    for (const BlockRange &Range : F.Ranges)
      printRange(F, Range);
  }
  if (F.PGO)
    printPGO(F);
}

void LLVMStylePrinter::printRange(const FunctionMap &F,
                                  const BlockRange &Range) {
  DictScope D(*W);
  W->printHex("Base Address", Range.BaseAddress);
  ListScope Blocks(*W, "BB Entries");
  for (const BlockEntry &B : Range.Blocks)
    printBlock(F, B);
}

void LLVMStylePrinter::printBlock(const FunctionMap &F, const BlockEntry &B) {
  DictScope D(*W);
  W->printNumber("ID", B.ID);
  W->printHex("Offset", B.Offset);
  if (!B.CallsiteEndOffsets.empty())
    W->printList("Callsite End Offsets", B.CallsiteEndOffsets);
  if (F.has(feature::BBHash))
    W->printHex("Hash", B.Hash);
  W->printHex("Size", B.Size);
  W->printBoolean("HasReturn", B.has(metadata::HasReturn));
  W->printBoolean("HasTailCall", B.has(metadata::HasTailCall));
  W->printBoolean("IsEHPad", B.has(metadata::IsEHPad));
  W->printBoolean("CanFallThrough", B.has(metadata::CanFallThrough));
  W->printBoolean("HasIndirectBranch", B.has(metadata::HasIndirectBranch));
}

void LLVMStylePrinter::printPGO(const FunctionMap &F) {
  DictScope D(*W, "PGO analyses");
  if (F.has(feature::FuncEntryCount))
    W->printNumber("FuncEntryCount", F.PGO->FuncEntryCount);
  if (!F.has(feature::BBFreq) && !F.has(feature::BrProb))
    return;
  ListScope L(*W, "PGO BB entries");
  for (const PGOBlock &B : F.PGO->Blocks)
    printPGOBlock(F, B);
}

void LLVMStylePrinter::printFrequency(const FunctionMap &F, const PGOBlock &B) {
  if (!PrettyPGO) {
    W->printNumber("Frequency", B.BBFreq);
    return;
  }
  // Relative to the first decoded block, as llvm-readobj does.
  std::string Text;
  raw_string_ostream OS(Text);
  printRelativeBlockFreq(OS, BlockFrequency(F.PGO->Blocks.front().BBFreq),
                         BlockFrequency(B.BBFreq));
  W->printString("Frequency", OS.str());
}

void LLVMStylePrinter::printPGOBlock(const FunctionMap &F, const PGOBlock &B) {
  bool PostLink = F.has(feature::PostLinkCfg);
  DictScope D(*W);
  if (F.has(feature::BBFreq)) {
    printFrequency(F, B);
    if (PostLink)
      W->printNumber("PostLink Frequency", B.PostLinkBBFreq);
  }
  if (!F.has(feature::BrProb))
    return;
  ListScope L(*W, "Successors");
  for (const PGOSuccessor &S : B.Successors) {
    DictScope SD(*W);
    W->printNumber("ID", S.ID);
    if (PrettyPGO)
      W->printObject("Probability", BranchProbability::getRaw(S.BrProb));
    else
      W->printHex("Probability", S.BrProb);
    if (PostLink)
      W->printNumber("PostLink Probability", S.PostLinkBrFreq);
  }
}

} // namespace bbmap
