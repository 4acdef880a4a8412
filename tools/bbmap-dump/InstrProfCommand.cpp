//===- InstrProfCommand.cpp - the --instr-profile mode of bbmap-dump ------===//
//
// One pass over the inputs: map the file, decode it with readInstrProfile,
// print it (or match it against the --binary file and print that). Output of
// earlier files is flushed before an error is printed, so that messages appear
// after the text of the files before them.
//
//===----------------------------------------------------------------------===//

#include "InstrProfCommand.h"
#include "InstrProfMatchPrinter.h"
#include "bbmap/InstrProf/InstrProfReader.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace bbmap {

namespace {

/// Reads and decodes \p File; failures are reported through \p Diag.
std::optional<InstrProfileFile> decodeFile(const std::string &File,
                                           Diagnostics &Diag) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(File, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Diag.error(File, Buffer.getError().message());
    return std::nullopt;
  }
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>((*Buffer)->getBufferStart()),
      (*Buffer)->getBufferSize());
  Expected<InstrProfileFile> Profile = readInstrProfile(Bytes);
  if (!Profile) {
    Diag.error(File, toString(Profile.takeError()));
    return std::nullopt;
  }
  return std::move(*Profile);
}

} // namespace

int runInstrProfile(ArrayRef<std::string> Files,
                    const InstrProfPrintOptions &Opts, Diagnostics &Diag) {
  std::unique_ptr<InstrProfPrinter> Printer =
      createInstrProfPrinter(outs(), Opts);
  for (const std::string &File : Files)
    if (std::optional<InstrProfileFile> Profile = decodeFile(File, Diag))
      Printer->printFile(File, *Profile);
  Printer->finish();
  outs().flush();
  return Diag.hadError() ? 1 : 0;
}

int runInstrProfileMatch(ArrayRef<std::string> Files, StringRef BinaryPath,
                         bool JSON, bool Pretty, Diagnostics &Diag) {
  Expected<std::unique_ptr<MappedBinary>> Binary =
      MappedBinary::open(BinaryPath, MappedBinary::MapRequirement::Optional);
  if (!Binary) {
    Diag.error(BinaryPath, toString(Binary.takeError()));
    return 1;
  }
  bool AllMatch = true;
  json::OStream J(outs(), Pretty ? 2 : 0);
  auto PrintAll = [&] {
    for (const std::string &File : Files) {
      std::optional<InstrProfileFile> Profile = decodeFile(File, Diag);
      if (!Profile)
        continue;
      for (const InstrProfile &P : Profile->Profiles) {
        InstrProfMatch M =
            matchInstrProfile(P, (*Binary)->buildID(), (*Binary)->symbols());
        AllMatch &= isMatch(M);
        if (JSON)
          printMatchJSON(J, File, P, **Binary, M);
        else
          printMatchText(outs(), File, P, **Binary, M);
      }
    }
  };
  if (JSON) {
    J.array(PrintAll);
    outs() << "\n";
  } else {
    PrintAll();
  }
  outs().flush();
  return Diag.hadError() || !AllMatch ? 1 : 0;
}

} // namespace bbmap
