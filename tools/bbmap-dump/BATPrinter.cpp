//===- BATPrinter.cpp - BAT table and translation output ------------------===//
//
// The text follows what BOLT prints from its parsed containers, so records
// are shown in BOLT's order (boltOrder) rather than descriptor order, and a
// cold fragment's block hashes come from its parent's hash map (the first
// hash seen for an input offset, hot table first), as in BOLT 19's dump().
// JSON shows the descriptor as it is: every record in descriptor order.
//
//===----------------------------------------------------------------------===//

#include "BATPrinter.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include <map>

using namespace llvm;

namespace bbmap {

namespace {

std::string hexNoPrefix(uint64_t V) { return Twine::utohexstr(V).str(); }

/// (parent address, input offset) -> block hash, first one wins. A
/// std::map: the keys come from the file, and DenseMap reserves two values.
using BlockHashMap = std::map<std::pair<uint64_t, uint64_t>, uint64_t>;

BlockHashMap blockHashes(const BATTable &T) {
  BlockHashMap Hashes;
  for (const BATFunction &F : T.Functions)
    for (const BATEntry &E : F.Entries)
      if (!E.IsBranch)
        Hashes.try_emplace({F.ParentAddress.value_or(F.Address), E.InputOffset},
                           E.BBHash);
  return Hashes;
}

void printFunction(raw_ostream &OS, const BATTable &T, const BATFunction &F,
                   const BlockHashMap &Hashes) {
  bool Delta = T.Format == BATFormat::Delta;
  OS << "Function Address: " << hex(F.Address);
  if (Delta && !F.isCold())
    OS << ", hash: " << hex(F.Hash);
  OS << "\nBB mappings:\n";
  uint64_t Home = F.ParentAddress.value_or(F.Address);
  for (const BATEntry *E : boltOrder(F, T.Format)) {
    OS << hex(E->OutputOffset) << " -> " << hex(E->InputOffset);
    if (E->IsBranch)
      OS << " (branch)";
    else if (Delta)
      // blockHashes has a key for every non-branch entry.
      OS << " hash: " << hex(Hashes.find({Home, E->InputOffset})->second);
    OS << "\n";
  }
  if (Delta && !F.isCold())
    OS << "NumBlocks: " << F.NumBlocks << "\n";
  if (!F.SecondaryEntryPoints.empty()) {
    OS << F.SecondaryEntryPoints.size() << " secondary entry points:\n";
    for (uint32_t Offset : F.SecondaryEntryPoints)
      OS << hex(Offset) << "\n";
  }
  OS << "\n";
}

/// The cold-to-hot links as BOLT keeps them: by cold address, first wins.
std::vector<const BATColdLink *> linkOrder(const BATTable &T) {
  std::vector<const BATColdLink *> Links;
  for (const BATColdLink &L : T.ColdLinks)
    Links.push_back(&L);
  llvm::stable_sort(Links, [](const BATColdLink *A, const BATColdLink *B) {
    return A->ColdAddress < B->ColdAddress;
  });
  Links.erase(llvm::unique(Links,
                           [](const BATColdLink *A, const BATColdLink *B) {
                             return A->ColdAddress == B->ColdAddress;
                           }),
              Links.end());
  return Links;
}

} // namespace

void printBATText(raw_ostream &OS, const BATTable &T) {
  std::vector<const BATFunction *> Functions = boltOrder(T);
  OS << "BOLT-INFO: Parsed " << Functions.size() << " BAT entries\n";
  if (T.Format == BATFormat::Fixed)
    OS << "BOLT-INFO: Parsed " << T.ColdLinks.size()
       << " BAT cold-to-hot entries\n";
  OS << "BAT tables for " << Functions.size() << " functions:\n";
  BlockHashMap Hashes;
  if (T.Format == BATFormat::Delta)
    Hashes = blockHashes(T);
  for (const BATFunction *F : Functions)
    printFunction(OS, T, *F, Hashes);
  std::vector<const BATColdLink *> Links = linkOrder(T);
  if (Links.empty())
    return;
  OS << Links.size() << " cold mappings:\n";
  for (const BATColdLink *L : Links)
    OS << hex(L->ColdAddress) << " -> " << hexNoPrefix(L->HotAddress) << "\n";
  OS << "\n";
}

namespace {

void writeEntryJSON(json::OStream &J, BATFormat Fmt, const BATEntry &E) {
  J.object([&] {
    J.attribute("OutputOffset", E.OutputOffset);
    J.attribute("InputOffset", E.InputOffset);
    J.attribute("Branch", E.IsBranch);
    if (Fmt == BATFormat::Delta && !E.IsBranch) {
      J.attribute("BBHash", E.BBHash);
      J.attribute("BBIndex", E.BBIndex);
    }
  });
}

void writeFunctionJSON(json::OStream &J, BATFormat Fmt, const BATFunction &F) {
  J.object([&] {
    J.attribute("RecordOffset", F.RecordOffset);
    J.attribute("Address", F.Address);
    J.attribute("Cold", F.isCold());
    if (F.isCold())
      J.attribute("ParentAddress", *F.ParentAddress);
    if (Fmt == BATFormat::Delta && F.isCold()) {
      J.attribute("HotIndex", F.HotIndex);
      J.attribute("InputSkew", F.InputSkew);
    }
    if (Fmt == BATFormat::Delta && !F.isCold()) {
      J.attribute("Hash", F.Hash);
      J.attribute("NumBlocks", F.NumBlocks);
      J.attributeArray("SecondaryEntryPoints", [&] {
        for (uint32_t Offset : F.SecondaryEntryPoints)
          J.value(Offset);
      });
    }
    J.attributeArray("Entries", [&] {
      for (const BATEntry &E : F.Entries)
        writeEntryJSON(J, Fmt, E);
    });
  });
}

} // namespace

void writeBATJSON(json::OStream &J, const BATTable &T) {
  J.attribute("Format", formatName(T.Format));
  J.attributeArray("Functions", [&] {
    for (const BATFunction &F : T.Functions)
      writeFunctionJSON(J, T.Format, F);
  });
  J.attributeArray("ColdLinks", [&] {
    for (const BATColdLink &L : T.ColdLinks)
      J.object([&] {
        J.attribute("RecordOffset", L.RecordOffset);
        J.attribute("ColdAddress", L.ColdAddress);
        J.attribute("HotAddress", L.HotAddress);
      });
  });
}

namespace {

StringRef functionName(const BATTranslation &T) {
  return T.Function ? StringRef(T.Function->Name) : StringRef("<unnamed>");
}

void printInputText(raw_ostream &OS, const InputLocation &In) {
  OS << " -> input ";
  if (!In.Address) {
    OS << "<" << In.Problem << ">";
    return;
  }
  OS << hex(*In.Address) << ": ";
  if (!In.Block) {
    OS << "<" << In.Problem << ">";
    return;
  }
  StringRef Name = In.Block->name();
  OS << (Name.empty() ? StringRef("<unnamed>") : Name) << " BB "
     << In.Block->block().ID << " + "
     << hex(*In.Address - In.Block->BlockStart);
}

} // namespace

void printTranslationText(raw_ostream &OS, const TranslationResult &R) {
  const BATTranslation &T = R.Translation;
  OS << hex(R.Request.Address) << (R.Request.IsBranchSource ? ":from" : "")
     << " -> ";
  if (!T.Fragment) {
    OS << "<not in a function>\n";
    return;
  }
  OS << functionName(T) << " + " << hex(T.InputOffset);
  if (!T.Map)
    OS << " (no BAT table)";
  if (R.Input)
    printInputText(OS, *R.Input);
  OS << "\n";
}

void writeTranslationJSON(json::OStream &J, const TranslationResult &R) {
  const BATTranslation &T = R.Translation;
  J.object([&] {
    J.attribute("Address", R.Request.Address);
    J.attribute("BranchSource", R.Request.IsBranchSource);
    if (!T.Fragment)
      return;
    J.attribute("Fragment", T.Fragment->Name);
    J.attribute("FragmentAddress", T.Fragment->Address);
    J.attribute("HasTable", T.Map != nullptr);
    J.attribute("Function", functionName(T));
    J.attribute("FunctionAddress", T.FunctionAddress);
    J.attribute("InputOffset", T.InputOffset);
    if (T.Entry)
      J.attributeObject("Entry", [&] {
        J.attribute("OutputOffset", T.Entry->OutputOffset);
        J.attribute("InputOffset", T.Entry->InputOffset);
        J.attribute("Branch", T.Entry->IsBranch);
      });
    if (!R.Input)
      return;
    const InputLocation &In = *R.Input;
    J.attributeObject("Input", [&] {
      if (In.Address)
        J.attribute("Address", *In.Address);
      if (In.Block) {
        J.attribute("Function", In.Block->name());
        J.attribute("Range", In.Block->Range);
        J.attribute("BlockID", In.Block->block().ID);
        J.attribute("BlockOffset", *In.Address - In.Block->BlockStart);
      }
      if (!In.Problem.empty())
        J.attribute("Problem", In.Problem);
    });
  });
}

void printFindingsText(raw_ostream &OS, ArrayRef<BATFinding> Findings,
                       const BATVerifyStats &Stats) {
  for (const BATFinding &F : Findings)
    OS << "verify: offset " << hex(F.Offset) << ": " << F.Message << "\n";
  OS << "verify: " << Stats.Fragments << " fragments, " << Stats.Entries
     << " entries, " << Stats.ColdLinks << " cold-to-hot links: ";
  if (Findings.empty())
    OS << "OK\n";
  else
    OS << Findings.size() << " problems\n";
}

void writeFindingsJSON(json::OStream &J, ArrayRef<BATFinding> Findings,
                       const BATVerifyStats &Stats) {
  J.attributeObject("Verify", [&] {
    J.attribute("Fragments", Stats.Fragments);
    J.attribute("Entries", Stats.Entries);
    J.attribute("ColdLinks", Stats.ColdLinks);
    J.attributeArray("Findings", [&] {
      for (const BATFinding &F : Findings)
        J.object([&] {
          J.attribute("Offset", F.Offset);
          J.attribute("Message", F.Message);
        });
    });
  });
}

} // namespace bbmap
