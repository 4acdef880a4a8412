//===- InstrProfCommand.cpp - the --instr-profile mode of bbmap-dump ------===//
//
// One pass over the inputs: map the file, decode it with readInstrProfile
// and print it profile by profile (or match it against the --binary file and
// print that). Output is flushed before an error is printed, so that
// messages appear after the text printed before them.
//
//===----------------------------------------------------------------------===//

#include "InstrProfCommand.h"
#include "InstrProfMatchPrinter.h"
#include "bbmap/InstrProf/InstrProfReader.h"
#include "bbmap/Support/MappedPages.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace bbmap {

namespace {

/// Maps \p File; failures are reported through \p Diag.
std::unique_ptr<MemoryBuffer> mapFile(const std::string &File,
                                      Diagnostics &Diag) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(File, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Diag.error(File, Buffer.getError().message());
    return nullptr;
  }
  return std::move(*Buffer);
}

ArrayRef<uint8_t> bytesOf(const MemoryBuffer &Buffer) {
  return ArrayRef(reinterpret_cast<const uint8_t *>(Buffer.getBufferStart()),
                  Buffer.getBufferSize());
}

/// Passes each profile on, then gives back to the page cache the mapped
/// pages of the file before that profile, which nothing refers to any more:
/// a file of many concatenated profiles then holds the pages of one or two.
class PageReleasingConsumer : public InstrProfConsumer {
public:
  PageReleasingConsumer(InstrProfConsumer &Next, const MemoryBuffer &Buffer)
      : Next(Next), Buffer(Buffer) {}

  void consume(const InstrProfile &P) override {
    Next.consume(P);
    releaseBefore(P.Offset);
  }

private:
  void releaseBefore(uint64_t Offset) {
    if (Buffer.getBufferKind() != MemoryBuffer::MemoryBuffer_MMap ||
        Offset <= Released)
      return;
    releaseMappedPages(Buffer.getMemBufferRef(), Released, Offset);
    Released = Offset;
  }

  InstrProfConsumer &Next;
  const MemoryBuffer &Buffer;
  uint64_t Released = 0;
};

/// Reads and decodes \p File whole; failures are reported through \p Diag.
std::optional<InstrProfileFile> decodeFile(const std::string &File,
                                           Diagnostics &Diag) {
  std::unique_ptr<MemoryBuffer> Buffer = mapFile(File, Diag);
  if (!Buffer)
    return std::nullopt;
  Expected<InstrProfileFile> Profile = readInstrProfile(bytesOf(*Buffer));
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
  for (const std::string &File : Files) {
    std::unique_ptr<MemoryBuffer> Buffer = mapFile(File, Diag);
    if (!Buffer)
      continue;
    auto Decode = [&](InstrProfConsumer &C) {
      PageReleasingConsumer Releasing(C, *Buffer);
      return readInstrProfile(bytesOf(*Buffer), Releasing);
    };
    if (Error E = Printer->printFile(File, Decode))
      Diag.error(File, toString(std::move(E)));
  }
  Printer->finish();
  outs().flush();
  return Diag.hadError() ? 1 : 0;
}

int runInstrProfileMatch(ArrayRef<std::string> Files, StringRef BinaryPath,
                         bool JSON, bool Pretty, unsigned Threads,
                         Diagnostics &Diag) {
  Expected<std::unique_ptr<MappedBinary>> Binary = MappedBinary::open(
      BinaryPath, MappedBinary::MapRequirement::Optional, Threads);
  if (!Binary) {
    Diag.error(BinaryPath, toString(Binary.takeError()));
    return 1;
  }
  Diag.warnings(BinaryPath, (*Binary)->warnings());
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
