//===- fuzz-lsda.cpp - fuzz the LSDA call-site table reader ---------------===//
//
// libFuzzer target for parseLandingPads, the reader of the LSDAs that give
// a function without a map its landing pads. The first byte picks the byte
// order, the address size and where in the section the LSDA starts; the
// rest is the section's contents, at an address near the top of the
// address space one time in four (pointer arithmetic that wraps). What it
// accepts is checked against what it promises: landing pads inside the
// function, ascending, without duplicates.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BoltProfile/BoltLandingPads.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace llvm;
using namespace bbmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  uint8_t Options = Data[0];
  LSDALocation L;
  L.Section = StringRef(reinterpret_cast<const char *>(Data + 1), Size - 1);
  L.LittleEndian = Options & 1;
  L.AddressSize = Options & 2 ? 8 : 4;
  L.SectionAddress = Options & 0xc ? 0x402000 : ~uint64_t(0) - 0x100;
  L.LSDAAddress = L.SectionAddress + (Options >> 4);
  L.FunctionAddress = 0x401000;
  L.FunctionSize = 0x800;
  Expected<std::vector<uint64_t>> Pads = parseLandingPads(L);
  if (!Pads) {
    consumeError(Pads.takeError());
    return 0;
  }
  for (size_t I = 0; I < Pads->size(); ++I)
    if ((*Pads)[I] >= L.FunctionSize || (I && (*Pads)[I] <= (*Pads)[I - 1]))
      abort();
  return 0;
}
