//===- BoltYAMLPrinter.cpp - BOLT YAML profile summaries ------------------===//
//
// The totals of a profile are computed once (Summary) and printed by the
// text and JSON styles in the same order; the function list is selected
// once (--function, --topn) for both. The YAML style hands the profile to
// writeBoltYAML.
//
//===----------------------------------------------------------------------===//

#include "BoltYAMLPrinter.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace bbmap::boltyaml;

namespace bbmap {

namespace {

struct Summary {
  uint64_t FunctionsWithBlocks = 0;
  uint64_t Blocks = 0;
  uint64_t ProfiledBlocks = 0;
  /// Saturates at 2^64-1.
  uint64_t TotalExecCount = 0;
};

/// Whether a block has a count of its own: `exec`, `events`, or the count
/// of an edge or call leaving it (perf2bolt gives only entry blocks an
/// `exec`).
bool hasCounts(const Block &B) {
  return B.ExecCount || B.EventCount ||
         any_of(B.Successors, [](const Successor &S) { return S.Count; }) ||
         any_of(B.Calls, [](const CallSite &C) { return C.Count; });
}

/// Listed blocks with counts of their own or an edge with a count into
/// them. A bid below nblocks can be DenseMap's tombstone key.
uint64_t profiledBlocks(const Function &F) {
  AnyKeySet<uint32_t> Reached;
  for (const Block &B : F.Blocks)
    for (const Successor &S : B.Successors)
      if (S.Count)
        Reached.insert(S.Index);
  return count_if(F.Blocks, [&](const Block &B) {
    return hasCounts(B) || Reached.contains(B.Index);
  });
}

Summary summarize(const Profile &P) {
  Summary S;
  for (const Function &F : P.Functions) {
    S.FunctionsWithBlocks += !F.Blocks.empty();
    S.Blocks += F.Blocks.size();
    S.ProfiledBlocks += profiledBlocks(F);
    S.TotalExecCount = SaturatingAdd(S.TotalExecCount, F.ExecCount);
  }
  return S;
}

/// The functions to list: those --function names, in file order, or the
/// TopN of the highest `exec` (ties in file order).
std::vector<const Function *> selectFunctions(const Profile &P,
                                              const BoltYAMLPrintOptions &O) {
  std::vector<const Function *> Selected;
  for (const Function &F : P.Functions)
    if (O.Functions.empty() || is_contained(O.Functions, F.Name))
      Selected.push_back(&F);
  if (O.TopN == 0)
    return Selected;
  llvm::stable_sort(Selected, [](const Function *A, const Function *B) {
    return A->ExecCount > B->ExecCount;
  });
  if (Selected.size() > O.TopN)
    Selected.resize(O.TopN);
  return Selected;
}

const char *hashFunctionName(HashFunction H) {
  return H == HashFunction::XXH3 ? "xxh3" : "std-hash";
}

std::vector<StringRef> flagNames(uint8_t Flags) {
  std::vector<StringRef> Names;
  if (Flags & ProfileLBR)
    Names.push_back("lbr");
  if (Flags & ProfileSample)
    Names.push_back("sample");
  if (Flags & ProfileMemEvent)
    Names.push_back("memevent");
  return Names;
}

std::string hex(uint64_t V) { return formatv("{0:X}", V).str(); }

class TextPrinter : public BoltYAMLPrinter {
public:
  TextPrinter(raw_ostream &OS, const BoltYAMLPrintOptions &O) : OS(OS), O(O) {}

  void printFile(StringRef Path, const Profile &P,
                 ArrayRef<FunctionProblem> Problems) override {
    OS << "File: " << Path << "\n";
    printHeader(P.Head);
    Summary S = summarize(P);
    OS << "Functions: " << P.Functions.size() << "\n"
       << "Functions with blocks: " << S.FunctionsWithBlocks << "\n"
       << "Blocks: " << S.Blocks << "\n"
       << "Profiled blocks: " << S.ProfiledBlocks << "\n"
       << "Total function exec count: " << S.TotalExecCount << "\n"
       << "Functions left out: " << Problems.size() << "\n";
    OS << formatv("{0,10}  {1,-18}  {2,12}  {3,7}  {4,6}  {5,8}  name\n", "fid",
                  "hash", "exec", "nblocks", "blocks", "profiled");
    for (const Function *F : selectFunctions(P, O))
      OS << formatv("{0,10}  {1,-18}  {2,12}  {3,7}  {4,6}  {5,8}  {6}\n",
                    F->Id, hex(F->Hash), F->ExecCount, F->NumBlocks,
                    F->Blocks.size(), profiledBlocks(*F), F->Name);
  }

private:
  void printHeader(const Header &H) {
    OS << "Header:\n"
       << "  profile-version: " << H.Version << "\n"
       << "  binary-name: " << H.BinaryName << "\n"
       << "  binary-build-id: " << H.BuildID << "\n"
       << "  profile-flags: [ " << join(flagNames(H.Flags), ", ") << " ]\n"
       << "  profile-origin: " << H.Origin << "\n"
       << "  profile-events: " << H.EventNames << "\n"
       << "  dfs-order: " << (H.IsDFSOrder ? "true" : "false")
       << (H.HasDFSOrderKey ? "" : " (no key)") << "\n"
       << "  hash-func: " << hashFunctionName(H.Hash) << "\n";
  }

  raw_ostream &OS;
  const BoltYAMLPrintOptions &O;
};

class JSONPrinter : public BoltYAMLPrinter {
public:
  JSONPrinter(raw_ostream &OS, const BoltYAMLPrintOptions &O)
      : OS(OS), O(O), J(OS, O.PrettyJSON ? 2 : 0) {
    J.arrayBegin();
  }

  void printFile(StringRef Path, const Profile &P,
                 ArrayRef<FunctionProblem> Problems) override {
    Summary S = summarize(P);
    J.object([&] {
      J.attribute("File", Path);
      J.attributeObject("Header", [&] { writeHeader(P.Head); });
      J.attribute("NumFunctions", uint64_t(P.Functions.size()));
      J.attribute("NumFunctionsWithBlocks", S.FunctionsWithBlocks);
      J.attribute("NumBlocks", S.Blocks);
      J.attribute("NumProfiledBlocks", S.ProfiledBlocks);
      J.attribute("TotalExecCount", S.TotalExecCount);
      J.attributeArray("Functions", [&] {
        for (const Function *F : selectFunctions(P, O))
          writeFunction(*F);
      });
      J.attributeArray("LeftOut", [&] {
        for (const FunctionProblem &Problem : Problems)
          J.object([&] {
            J.attribute("Name", Problem.Name);
            J.attribute("Message", Problem.Message);
          });
      });
    });
  }

  void finish() override {
    J.arrayEnd();
    OS << "\n";
  }

private:
  void writeHeader(const Header &H) {
    J.attribute("ProfileVersion", H.Version);
    J.attribute("BinaryName", H.BinaryName);
    J.attribute("BuildID", H.BuildID);
    J.attributeArray("ProfileFlags", [&] {
      for (StringRef Name : flagNames(H.Flags))
        J.value(Name);
    });
    J.attribute("Origin", H.Origin);
    J.attribute("Events", H.EventNames);
    J.attribute("DFSOrder", H.IsDFSOrder);
    J.attribute("HasDFSOrderKey", H.HasDFSOrderKey);
    J.attribute("HashFunction", hashFunctionName(H.Hash));
  }

  void writeFunction(const Function &F) {
    J.object([&] {
      J.attribute("Name", F.Name);
      J.attribute("Id", F.Id);
      J.attribute("Hash", F.Hash);
      J.attribute("ExecCount", F.ExecCount);
      J.attribute("NumBlocks", F.NumBlocks);
      J.attribute("ListedBlocks", uint64_t(F.Blocks.size()));
      J.attribute("ProfiledBlocks", profiledBlocks(F));
    });
  }

  raw_ostream &OS;
  const BoltYAMLPrintOptions &O;
  json::OStream J;
};

class YAMLPrinter : public BoltYAMLPrinter {
public:
  explicit YAMLPrinter(raw_ostream &OS) : OS(OS) {}
  void printFile(StringRef, const Profile &P,
                 ArrayRef<FunctionProblem>) override {
    writeBoltYAML(P, OS);
  }

private:
  raw_ostream &OS;
};

} // namespace

std::unique_ptr<BoltYAMLPrinter>
createBoltYAMLPrinter(raw_ostream &OS, const BoltYAMLPrintOptions &O) {
  switch (O.Style) {
  case BoltYAMLStyle::JSON:
    return std::make_unique<JSONPrinter>(OS, O);
  case BoltYAMLStyle::YAML:
    return std::make_unique<YAMLPrinter>(OS);
  case BoltYAMLStyle::Text:
    break;
  }
  return std::make_unique<TextPrinter>(OS, O);
}

} // namespace bbmap
