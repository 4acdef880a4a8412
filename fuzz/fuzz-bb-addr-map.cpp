//===- fuzz-bb-addr-map.cpp - fuzz the .llvm_bb_addr_map decoder ----------===//
//
// libFuzzer target for decodeBBAddrMap. The first input byte picks the
// decode options (byte order, address size, legacy or versioned section
// type, whether address resolution fails) and the output style; the rest is
// the section payload. Decoded maps are printed in every output style to a
// null stream, so the printers see whatever the decoder accepts.
//
//===----------------------------------------------------------------------===//

#include "JSONStylePrinter.h"
#include "LLVMStylePrinter.h"
#include "TableStylePrinter.h"
#include "bbmap/BBAddrMap/BBAddrMapDecoder.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>

using namespace llvm;
using namespace bbmap;

namespace {

/// Bits of the option byte.
enum : uint8_t {
  BigEndian = 1 << 0,
  Address32 = 1 << 1,
  LegacyType = 1 << 2,
  /// Resolving an address stored with its low bit set fails, as a missing
  /// relocation does.
  FailOddAddresses = 1 << 3,
  PrettyPGO = 1 << 4,
};

void printAll(const std::vector<FunctionMap> &Functions, bool Pretty) {
  DecodedSection Sec;
  Sec.Info.Name = ".llvm_bb_addr_map";
  Sec.Functions = Functions;
  Sec.Names.assign(Functions.size(), "");
  FileSummary Summary;
  LLVMStylePrinter Text(nulls(), Pretty);
  JSONStylePrinter JSON(nulls(), /*PrettyJSON=*/true, Pretty);
  TableStylePrinter Table(nulls());
  for (MapPrinter *P :
       {static_cast<MapPrinter *>(&Text), static_cast<MapPrinter *>(&JSON),
        static_cast<MapPrinter *>(&Table)}) {
    P->printFileSummary(Summary);
    P->printSection(Sec);
    P->endFile();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return -1;
  uint8_t Flags = Data[0];
  DecodeOptions Opts;
  Opts.IsLittleEndian = !(Flags & BigEndian);
  Opts.AddressSize = (Flags & Address32) ? 4 : 8;
  Opts.LegacyType = Flags & LegacyType;
  auto Resolve = [&](uint64_t Offset, uint64_t Stored) -> Expected<uint64_t> {
    if ((Flags & FailOddAddresses) && (Stored & 1))
      return createStringError(inconvertibleErrorCode(), "no relocation");
    return Stored;
  };
  Expected<std::vector<FunctionMap>> Functions =
      decodeBBAddrMap(ArrayRef<uint8_t>(Data + 1, Size - 1), Opts, Resolve);
  if (!Functions) {
    consumeError(Functions.takeError());
    return 0;
  }
  printAll(*Functions, Flags & PrettyPGO);
  return 0;
}
