//===- fuzz-bat.cpp - fuzz the BOLT address translation decoder -----------===//
//
// libFuzzer target for decodeBAT and what consumes its result. The first
// input byte picks the byte order and whether the format is detected or
// forced; the rest is the note's descriptor. A decoded table is printed as
// text and JSON, verified against function symbols made from its own
// fragments (with fuzzed sizes), and every entry is translated back as a
// block start and as a branch source.
//
//===----------------------------------------------------------------------===//

#include "BATPrinter.h"
#include "bbmap/BAT/BATDecoder.h"
#include "bbmap/Object/BATTranslator.h"
#include "bbmap/Object/BATVerifier.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstddef>
#include <cstdint>

using namespace llvm;
using namespace bbmap;

namespace {

/// Bits of the option byte.
enum : uint8_t {
  BigEndian = 1 << 0,
  ForceFormat = 1 << 1,
  /// With ForceFormat: the delta format, else the fixed one.
  DeltaFormat = 1 << 2,
};

/// One function symbol per fragment, sized by the option byte so that both
/// in-range and out-of-range offsets reach the verifier.
std::vector<FunctionSymbol> symbolsFor(const BATTable &T, uint8_t Flags) {
  std::vector<FunctionSymbol> Symbols;
  for (const BATFunction &F : T.Functions)
    Symbols.push_back({F.Address, uint64_t(Flags) << 4,
                       F.Address + (uint64_t(Flags) << 5), "f"});
  llvm::stable_sort(Symbols,
                    [](const FunctionSymbol &A, const FunctionSymbol &B) {
                      return A.Address < B.Address;
                    });
  return Symbols;
}

void exercise(const BATTable &T, uint8_t Flags) {
  printBATText(nulls(), T);
  json::OStream J(nulls());
  J.object([&] { writeBATJSON(J, T); });
  std::vector<FunctionSymbol> Symbols = symbolsFor(T, Flags);
  BATVerifyStats Stats;
  std::vector<BATFinding> Findings = verifyBAT(T, Symbols, &Stats);
  printFindingsText(nulls(), Findings, Stats);
  BATTranslator Translator(T, std::move(Symbols));
  for (const BATFunction &F : T.Functions)
    for (const BATEntry &E : F.Entries)
      for (bool Branch : {false, true})
        (void)Translator.translateAddress({F.Address + E.OutputOffset, Branch});
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return -1;
  uint8_t Flags = Data[0];
  ArrayRef<uint8_t> Desc(Data + 1, Size - 1);
  bool Little = !(Flags & BigEndian);
  Expected<BATTable> T =
      (Flags & ForceFormat)
          ? decodeBATAs(Desc, Little,
                        (Flags & DeltaFormat) ? BATFormat::Delta
                                              : BATFormat::Fixed)
          : decodeBAT(Desc, Little);
  if (!T) {
    consumeError(T.takeError());
    return 0;
  }
  exercise(*T, Flags);
  return 0;
}
