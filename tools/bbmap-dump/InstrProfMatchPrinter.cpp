//===- InstrProfMatchPrinter.cpp - profile vs binary report ---------------===//
//
// The text names at most 20 records without a function and 20 functions
// without a record, then counts the rest; JSON lists them all.
//
//===----------------------------------------------------------------------===//

#include "InstrProfMatchPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace bbmap {

namespace {

constexpr size_t MaxListed = 20;

StringRef idMatchName(BinaryIDMatch M) {
  switch (M) {
  case BinaryIDMatch::Match:
    return "match";
  case BinaryIDMatch::Mismatch:
    return "mismatch";
  case BinaryIDMatch::ProfileHasNone:
    return "profile-has-none";
  case BinaryIDMatch::BinaryHasNone:
    return "binary-has-none";
  }
  llvm_unreachable("unknown binary ID match");
}

std::string hexIDs(const InstrProfile &P) {
  std::string IDs;
  for (const object::BuildID &ID : P.BinaryIds)
    IDs += (IDs.empty() ? "" : ", ") + toHex(ID, /*LowerCase=*/true);
  return IDs;
}

/// A record's name, or its MD5 when the profile does not name it.
std::string recordName(const InstrProfFunction &F) {
  if (!F.Name.empty())
    return F.Name;
  return "md5:0x" + utohexstr(F.NameMD5, /*LowerCase=*/true);
}

void printIDs(raw_ostream &OS, const InstrProfile &P,
              const MappedBinary &Binary, BinaryIDMatch M) {
  OS << "  binary IDs: ";
  switch (M) {
  case BinaryIDMatch::Match:
    OS << hexIDs(P) << ": match\n";
    return;
  case BinaryIDMatch::Mismatch:
    OS << hexIDs(P) << ": MISMATCH, '" << Binary.path() << "' has "
       << Binary.buildID() << "\n";
    return;
  case BinaryIDMatch::ProfileHasNone:
    OS << "none in the profile\n";
    return;
  case BinaryIDMatch::BinaryHasNone:
    OS << hexIDs(P) << ": '" << Binary.path() << "' has no build ID\n";
    return;
  }
}

std::string verdict(const InstrProfMatch &M) {
  size_t Unnamed = M.Records.size() - M.matchedRecords();
  std::vector<std::string> Why;
  if (M.ID == BinaryIDMatch::Mismatch)
    Why.push_back("another binary's build ID");
  if (Unnamed)
    Why.push_back(utostr(Unnamed) + " record" + (Unnamed == 1 ? "" : "s") +
                  " name no function");
  return Why.empty() ? "match" : "MISMATCH: " + join(Why, "; ");
}

} // namespace

bool isMatch(const InstrProfMatch &M) {
  return M.ID != BinaryIDMatch::Mismatch &&
         M.matchedRecords() == M.Records.size();
}

void printMatchText(raw_ostream &OS, StringRef ProfilePath,
                    const InstrProfile &P, const MappedBinary &Binary,
                    const InstrProfMatch &M) {
  OS << ProfilePath << ": " << formatName(P.Header.Format)
     << " profile version " << P.Header.version() << " against '"
     << Binary.path() << "' (build ID "
     << (Binary.buildID().empty() ? "none" : Binary.buildID()) << ")\n";
  printIDs(OS, P, Binary, M.ID);
  size_t Matched = M.matchedRecords();
  OS << "  records: " << M.Records.size() << " (" << Matched
     << " name a function of '" << Binary.path() << "', "
     << M.Records.size() - Matched << " name none)\n";
  size_t Listed = 0;
  for (const RecordMatch &R : M.Records) {
    if (R.Symbol || Listed++ == MaxListed)
      continue;
    const InstrProfFunction &F = P.Functions[R.Record];
    OS << "    no function: " << recordName(F) << " (hash "
       << format_hex(F.Hash, 18) << ")\n";
  }
  if (Listed > MaxListed)
    OS << "    and " << Listed - MaxListed << " more\n";
  OS << "  functions of '" << Binary.path()
     << "' without a record: " << M.SymbolsWithoutRecord.size() << "\n";
  for (size_t S : ArrayRef(M.SymbolsWithoutRecord).take_front(MaxListed))
    OS << "    " << pgoName(Binary.symbols()[S]) << "\n";
  if (M.SymbolsWithoutRecord.size() > MaxListed)
    OS << "    and " << M.SymbolsWithoutRecord.size() - MaxListed << " more\n";
  OS << "  result: " << verdict(M) << "\n";
}

void printMatchJSON(json::OStream &J, StringRef ProfilePath,
                    const InstrProfile &P, const MappedBinary &Binary,
                    const InstrProfMatch &M) {
  ArrayRef<FunctionSymbol> Symbols = Binary.symbols();
  J.object([&] {
    J.attribute("Profile", ProfilePath);
    J.attribute("Binary", Binary.path());
    J.attribute("BuildID", Binary.buildID());
    J.attributeArray("BinaryIDs", [&] {
      for (const object::BuildID &ID : P.BinaryIds)
        J.value(toHex(ID, /*LowerCase=*/true));
    });
    J.attribute("IDMatch", idMatchName(M.ID));
    J.attributeArray("Records", [&] {
      for (const RecordMatch &R : M.Records)
        J.object([&] {
          const InstrProfFunction &F = P.Functions[R.Record];
          J.attribute("Name", F.Name);
          J.attribute("NameMD5", F.NameMD5);
          J.attribute("Hash", F.Hash);
          if (R.Symbol) {
            J.attribute("Function", Symbols[*R.Symbol].Name);
            J.attribute("Address", Symbols[*R.Symbol].Address);
          }
        });
    });
    J.attributeArray("FunctionsWithoutRecord", [&] {
      for (size_t S : M.SymbolsWithoutRecord)
        J.value(pgoName(Symbols[S]));
    });
    J.attribute("Match", isMatch(M));
  });
}

} // namespace bbmap
