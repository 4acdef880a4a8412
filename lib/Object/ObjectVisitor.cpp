//===- ObjectVisitor.cpp - open inputs, name sections ---------------------===//
//
// Opens one input (ELF object or archive of them) and visits its objects.
// Errors are reported per archive member; the caller goes on with the next
// one.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/ObjectVisitor.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/Error.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {

void visitObject(const ObjectFile &Obj, StringRef Name, Diagnostics &Diag,
                 ObjectHandler OnObject) {
  Expected<std::unique_ptr<ELFMapReader>> Reader = ELFMapReader::create(Obj);
  if (!Reader) {
    Diag.error(Name, toString(Reader.takeError()));
    return;
  }
  Diag.warnings(Name, (*Reader)->warnings());
  OnObject(**Reader, Name);
}

/// Visits each object member as "archive(member)"; members that are not
/// objects are skipped.
void visitArchive(const Archive &Arc, Diagnostics &Diag,
                  ObjectHandler OnObject) {
  Error Err = Error::success();
  StringRef Whole = Arc.getData();
  for (const Archive::Child &C : Arc.children(Err)) {
    // A corrupt size field can make the last member reach past the archive;
    // reading it would read past the buffer.
    Expected<StringRef> Data = C.getBuffer();
    if (!Data || Data->data() < Whole.data() ||
        Data->data() + Data->size() > Whole.data() + Whole.size()) {
      // Both cases are the one error below; a member name that cannot be
      // read is <?> in it.
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
    visitObject(*Obj, Name, Diag, OnObject);
  }
  if (Err)
    Diag.error(Arc.getFileName(), toString(std::move(Err)));
}

} // namespace

std::string describeSection(unsigned Index, StringRef Name) {
  return ("section [" + Twine(Index) + "] " + Name).str();
}

void warnUnnamed(Diagnostics &Diag, StringRef File, const MapSectionInfo &Info,
                 ArrayRef<UnnamedFunction> Unnamed) {
  for (const UnnamedFunction &F : Unnamed)
    Diag.warning(File, describe(Info) + ": offset 0x" +
                           Twine::utohexstr(F.SectionOffset) +
                           ": no function symbol at address 0x" +
                           Twine::utohexstr(F.Address));
}

void forEachObject(MemoryBufferRef Buffer, Diagnostics &Diag,
                   ObjectHandler OnObject) {
  StringRef File = Buffer.getBufferIdentifier();
  Expected<std::unique_ptr<Binary>> Bin = createBinary(Buffer);
  if (!Bin) {
    Diag.error(File, toString(Bin.takeError()));
    return;
  }
  if (auto *Obj = dyn_cast<ObjectFile>(Bin->get()))
    return visitObject(*Obj, File, Diag, OnObject);
  if (auto *Arc = dyn_cast<Archive>(Bin->get()))
    return visitArchive(*Arc, Diag, OnObject);
  Diag.error(File, "not an ELF object file");
}

void forEachObject(StringRef Path, Diagnostics &Diag, ObjectHandler OnObject) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Diag.error(Path, Buffer.getError().message());
    return;
  }
  forEachObject((*Buffer)->getMemBufferRef(), Diag, OnObject);
}

} // namespace bbmap
