//===- fuzz-instrprof-raw.cpp - fuzz the raw instrumentation profile decoder
//===//
//
// libFuzzer target for readInstrProfile on raw profiles: the input is a
// whole .profraw file. A decoded profile is printed in the text style of
// each llvm-profdata major (every option on, with and without --showcs)
// and as JSON, so that printers meet whatever the decoder accepts.
//
//===----------------------------------------------------------------------===//

#include "InstrProfPrinter.h"
#include "bbmap/InstrProf/InstrProfReader.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>

using namespace llvm;
using namespace bbmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Expected<InstrProfileFile> F = readInstrProfile(ArrayRef(Data, Size));
  if (!F) {
    consumeError(F.takeError());
    return 0;
  }
  for (InstrProfTextStyle Style :
       {InstrProfTextStyle::LLVM14, InstrProfTextStyle::LLVM19,
        InstrProfTextStyle::LLVM22})
    for (bool ShowCS : {false, true}) {
      InstrProfPrintOptions O;
      O.Style = Style;
      O.Counts = O.ICTargets = O.VTables = O.MemOPSizes = true;
      O.ShowCS = ShowCS;
      std::unique_ptr<InstrProfPrinter> P = createInstrProfPrinter(nulls(), O);
      P->printFile("fuzz", *F);
      P->finish();
    }
  InstrProfPrintOptions O;
  O.JSON = true;
  std::unique_ptr<InstrProfPrinter> P = createInstrProfPrinter(nulls(), O);
  P->printFile("fuzz", *F);
  P->finish();
  return 0;
}
