//===- InstrProfMatch.cpp - does an instrumentation profile fit a binary --===//
//
// Symbols are indexed by the names a record could give them: a global
// function by its name, a local one by (file base name, name), since the
// compiler prefixes a local function's PGO name with the source file as it
// was given (`dir/a.c;helper`) while the STT_FILE symbol holds its base
// name (`a.c`). IR instrumentation separates the two with `;`, clang's
// front-end instrumentation and older IR profiles with `:`. Records that
// carry only the MD5 are looked up by the MD5 of each name a symbol could
// have (`name`, `file;name`, `file:name`).
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/InstrProfMatch.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace llvm;

namespace bbmap {

namespace {

/// Where a record's name says its function is.
struct NameParts {
  /// The source file of a local function; empty for a global one.
  StringRef File;
  StringRef Function;
};

NameParts splitPGOName(StringRef Name) {
  for (char Delimiter : {';', ':'}) {
    auto [File, Function] = Name.rsplit(Delimiter);
    if (!Function.empty() && Function.size() != Name.size())
      return {File, Function};
  }
  return {StringRef(), Name};
}

class SymbolIndex {
public:
  explicit SymbolIndex(ArrayRef<FunctionSymbol> Symbols) {
    for (size_t I = 0; I < Symbols.size(); ++I) {
      const FunctionSymbol &S = Symbols[I];
      if (S.File.empty()) {
        Globals.try_emplace(S.Name, I);
        ByMD5.emplace(MD5Hash(S.Name), I);
        continue;
      }
      Locals.try_emplace(localKey(S.File, S.Name), I);
      for (StringRef Delimiter : {";", ":"})
        ByMD5.emplace(MD5Hash((S.File + Delimiter + S.Name).str()), I);
    }
  }

  std::optional<size_t> find(const InstrProfFunction &R) const {
    if (R.Name.empty()) {
      auto It = ByMD5.find(R.NameMD5);
      return It == ByMD5.end() ? std::nullopt : std::optional(It->second);
    }
    NameParts P = splitPGOName(R.Name);
    const StringMap<size_t> &Map = P.File.empty() ? Globals : Locals;
    auto It = Map.find(P.File.empty()
                           ? P.Function.str()
                           : localKey(sys::path::filename(P.File), P.Function));
    return It == Map.end() ? std::nullopt : std::optional(It->second);
  }

private:
  static std::string localKey(StringRef File, StringRef Function) {
    return (File + Twine('\0') + Function).str();
  }

  StringMap<size_t> Globals;
  StringMap<size_t> Locals;
  std::map<uint64_t, size_t> ByMD5;
};

BinaryIDMatch compareIDs(const InstrProfile &Profile, StringRef BuildID) {
  if (Profile.BinaryIds.empty())
    return BinaryIDMatch::ProfileHasNone;
  if (BuildID.empty())
    return BinaryIDMatch::BinaryHasNone;
  for (const object::BuildID &ID : Profile.BinaryIds)
    if (toHex(ID, /*LowerCase=*/true) == BuildID)
      return BinaryIDMatch::Match;
  return BinaryIDMatch::Mismatch;
}

} // namespace

size_t InstrProfMatch::matchedRecords() const {
  return llvm::count_if(Records, [](const RecordMatch &R) { return R.Symbol; });
}

std::string pgoName(const FunctionSymbol &S) {
  return S.File.empty() ? S.Name : S.File + ";" + S.Name;
}

InstrProfMatch matchInstrProfile(const InstrProfile &Profile, StringRef BuildID,
                                 ArrayRef<FunctionSymbol> Symbols) {
  InstrProfMatch M;
  M.ID = compareIDs(Profile, BuildID);
  SymbolIndex Index(Symbols);
  std::vector<bool> Named(Symbols.size());
  for (size_t R = 0; R < Profile.Functions.size(); ++R) {
    std::optional<size_t> S = Index.find(Profile.Functions[R]);
    M.Records.push_back({R, S});
    if (S)
      Named[*S] = true;
  }
  for (size_t S = 0; S < Symbols.size(); ++S)
    if (!Named[S])
      M.SymbolsWithoutRecord.push_back(S);
  return M;
}

} // namespace bbmap
