//===- fuzz-instrprof-raw.cpp - fuzz the raw instrumentation profile decoder
//===//
//
// libFuzzer target for readInstrProfile on raw profiles: the input is a
// whole .profraw file. It is printed as bbmap-dump prints it, profile by
// profile as decoded; a decoded file is printed again in the text style of
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

namespace {

/// Prints \p F with \p O, its profiles passed as the decoder would.
void print(const InstrProfileFile &F, const InstrProfPrintOptions &O) {
  std::unique_ptr<InstrProfPrinter> P = createInstrProfPrinter(nulls(), O);
  cantFail(P->printFile("fuzz", [&](InstrProfConsumer &C) {
    for (const InstrProfile &Profile : F.Profiles)
      C.consume(Profile);
    return Error::success();
  }));
  P->finish();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  ArrayRef<uint8_t> Bytes(Data, Size);
  // Streamed: the text of the profiles before an error, as bbmap-dump
  // prints it.
  InstrProfPrintOptions Streamed;
  Streamed.Counts = Streamed.ICTargets = Streamed.MemOPSizes = true;
  std::unique_ptr<InstrProfPrinter> P =
      createInstrProfPrinter(nulls(), Streamed);
  consumeError(P->printFile("fuzz", [&](InstrProfConsumer &C) {
    return readInstrProfile(Bytes, C);
  }));
  P->finish();

  Expected<InstrProfileFile> F = readInstrProfile(Bytes);
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
      print(*F, O);
    }
  InstrProfPrintOptions O;
  O.JSON = true;
  print(*F, O);
  return 0;
}
