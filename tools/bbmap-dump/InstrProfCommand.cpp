//===- InstrProfCommand.cpp - the --instr-profile mode of bbmap-dump ------===//
//
// One pass over the inputs: map the file, decode it with readInstrProfile,
// print it. Output of earlier files is flushed before an error is printed,
// so that messages appear after the text of the files before them.
//
//===----------------------------------------------------------------------===//

#include "InstrProfCommand.h"
#include "bbmap/InstrProf/InstrProfReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace bbmap {

int runInstrProfile(ArrayRef<std::string> Files,
                    const InstrProfPrintOptions &Opts, Diagnostics &Diag) {
  std::unique_ptr<InstrProfPrinter> Printer =
      createInstrProfPrinter(outs(), Opts);
  for (const std::string &File : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFileOrSTDIN(File, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      Diag.error(File, Buffer.getError().message());
      continue;
    }
    ArrayRef<uint8_t> Bytes(
        reinterpret_cast<const uint8_t *>((*Buffer)->getBufferStart()),
        (*Buffer)->getBufferSize());
    Expected<InstrProfileFile> Profile = readInstrProfile(Bytes);
    if (!Profile) {
      Diag.error(File, toString(Profile.takeError()));
      continue;
    }
    Printer->printFile(File, *Profile);
  }
  Printer->finish();
  outs().flush();
  return Diag.hadError() ? 1 : 0;
}

} // namespace bbmap
