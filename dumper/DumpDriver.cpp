//===- dumper/DumpDriver.cpp - dump the maps of one input -----------------===//
//
// Opens one input (ELF object or archive of them), decodes its map sections
// and prints them. Errors are reported per section and per archive member;
// dumping continues with the next one.
//
//===----------------------------------------------------------------------===//

#include "DumpDriver.h"
#include "ELFMapReader.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/Error.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {

constexpr StringRef ToolName = "bbmap-dump";

std::string describe(const MapSectionInfo &Info) {
  return ("section [" + Twine(Info.Index) + "] " + Info.Name).str();
}

void warnUnnamed(Diagnostics &Diag, StringRef File, const DecodedSection &Sec) {
  for (size_t I = 0; I < Sec.Functions.size(); ++I) {
    if (!Sec.Names[I].empty())
      continue;
    const FunctionMap &F = Sec.Functions[I];
    Diag.warning(File, describe(Sec.Info) + ": offset 0x" +
                           Twine::utohexstr(F.SectionOffset) +
                           ": no function symbol at address 0x" +
                           Twine::utohexstr(F.address()));
  }
}

void dumpSection(const ELFMapReader &Reader, const MapSectionInfo &Info,
                 StringRef File, LLVMStylePrinter &Printer, Diagnostics &Diag) {
  Expected<DecodedSection> Sec = Reader.decode(Info);
  if (!Sec) {
    DecodedSection Empty;
    Empty.Info = Info;
    Printer.printSection(Empty);
    Diag.error(File, describe(Info) + ": " + toString(Sec.takeError()));
    return;
  }
  Printer.printSection(*Sec);
  warnUnnamed(Diag, File, *Sec);
}

void dumpObject(const ObjectFile &Obj, StringRef File, const DumpOptions &Opts,
                LLVMStylePrinter &Printer, Diagnostics &Diag) {
  Expected<std::unique_ptr<ELFMapReader>> Reader = ELFMapReader::create(Obj);
  if (!Reader) {
    Diag.error(File, toString(Reader.takeError()));
    return;
  }
  FileSummary Summary = (*Reader)->summary();
  Summary.FileName = File.str();
  Printer.printFileSummary(Summary);
  if (!Opts.BBAddrMap)
    return Printer.endFile();
  for (const MapSectionInfo &Info : (*Reader)->mapSections())
    dumpSection(**Reader, Info, File, Printer, Diag);
  Printer.endFile();
}

/// Dumps each object member as "archive(member)", like llvm-readobj; members
/// that are not objects are skipped.
void dumpArchive(const Archive &Arc, const DumpOptions &Opts,
                 LLVMStylePrinter &Printer, Diagnostics &Diag) {
  Error Err = Error::success();
  StringRef Whole = Arc.getData();
  for (const Archive::Child &C : Arc.children(Err)) {
    // A corrupt size field can make the last member reach past the archive;
    // reading it would read past the buffer.
    Expected<StringRef> Data = C.getBuffer();
    if (!Data || Data->data() < Whole.data() ||
        Data->data() + Data->size() > Whole.data() + Whole.size()) {
      consumeError(Data.takeError());
      Expected<StringRef> Name = C.getName();
      Diag.error(Arc.getFileName(),
                 "member '" + (Name ? *Name : StringRef("<?>")) +
                     "' extends past the end of the archive");
      if (!Name)
        consumeError(Name.takeError());
      continue;
    }
    Expected<std::unique_ptr<Binary>> Member = C.getAsBinary();
    if (!Member) {
      if (Error E = isNotObjectErrorInvalidFileType(Member.takeError()))
        Diag.error(Arc.getFileName(), toString(std::move(E)));
      continue;
    }
    const auto *Obj = dyn_cast<ObjectFile>(Member->get());
    if (!Obj) {
      Diag.warning(Arc.getFileName(),
                   (*Member)->getFileName() + " has an unsupported file type");
      continue;
    }
    std::string Name =
        (Arc.getFileName() + "(" + Obj->getFileName() + ")").str();
    dumpObject(*Obj, Name, Opts, Printer, Diag);
  }
  if (Err)
    Diag.error(Arc.getFileName(), toString(std::move(Err)));
}

} // namespace

void Diagnostics::error(StringRef File, const Twine &Msg) {
  Out.flush();
  WithColor::error(Err, ToolName) << "'" << File << "': " << Msg << "\n";
  HadError = true;
}

void Diagnostics::warning(StringRef File, const Twine &Msg) {
  Out.flush();
  WithColor::warning(Err, ToolName) << "'" << File << "': " << Msg << "\n";
}

void dumpBuffer(MemoryBufferRef Buffer, const DumpOptions &Opts,
                LLVMStylePrinter &Printer, Diagnostics &Diag) {
  StringRef File = Buffer.getBufferIdentifier();
  Expected<std::unique_ptr<Binary>> Bin = createBinary(Buffer);
  if (!Bin) {
    Diag.error(File, toString(Bin.takeError()));
    return;
  }
  if (auto *Obj = dyn_cast<ObjectFile>(Bin->get()))
    return dumpObject(*Obj, File, Opts, Printer, Diag);
  if (auto *Arc = dyn_cast<Archive>(Bin->get()))
    return dumpArchive(*Arc, Opts, Printer, Diag);
  Diag.error(File, "not an ELF object file");
}

void dumpFile(StringRef Path, const DumpOptions &Opts,
              LLVMStylePrinter &Printer, Diagnostics &Diag) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Diag.error(Path, Buffer.getError().message());
    return;
  }
  dumpBuffer((*Buffer)->getMemBufferRef(), Opts, Printer, Diag);
}

} // namespace bbmap
