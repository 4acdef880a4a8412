//===- BATReader.cpp - the BAT note of an ELF file ------------------------===//
//
// Locates the BAT note through the generic ELFObjectFileBase interface (all
// four ELF flavours) and reads the note header with ByteReader in the file's
// byte order. BOLT's own reader reads past descsz into the padding; here the
// descriptor is exactly descsz bytes and must fit in the section.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/BATReader.h"
#include "bbmap/Object/ObjectVisitor.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

std::string BATNote::describe() const {
  return describeSection(SectionIndex, SectionName);
}

namespace {

/// One note of a note section.
struct RawNote {
  uint64_t Offset = 0;
  uint32_t Type = 0;
  StringRef Name;
  uint64_t DescOffset = 0;
  ArrayRef<uint8_t> Desc;
};

/// Reads the note at the reader's position and moves past its padding.
Expected<RawNote> readNote(ByteReader &R, ArrayRef<uint8_t> Bytes) {
  RawNote N;
  N.Offset = R.tell();
  Expected<uint64_t> NameSize = R.fixed(4, "note name size");
  if (!NameSize)
    return NameSize.takeError();
  Expected<uint64_t> DescSize = R.fixed(4, "note descriptor size");
  if (!DescSize)
    return DescSize.takeError();
  Expected<uint64_t> Type = R.fixed(4, "note type");
  if (!Type)
    return Type.takeError();
  N.Type = *Type;
  Expected<ArrayRef<uint8_t>> Name = R.bytes(*NameSize, "note name");
  if (!Name)
    return Name.takeError();
  N.Name = toStringRef(*Name);
  N.DescOffset = alignTo(R.tell(), 4);
  if (Error E =
          R.bytes(N.DescOffset - R.tell(), "note name padding").takeError())
    return E;
  Expected<ArrayRef<uint8_t>> Desc = R.bytes(*DescSize, "note descriptor");
  if (!Desc)
    return Desc.takeError();
  N.Desc = *Desc;
  // The padding after the last note may be missing.
  uint64_t Next = std::min<uint64_t>(alignTo(R.tell(), 4), Bytes.size());
  cantFail(R.bytes(Next - R.tell(), "note padding").takeError());
  return N;
}

bool isBOLTName(StringRef Name) { return Name.starts_with("BOLT"); }

Error checkBATNote(const RawNote &N) {
  if (!isBOLTName(N.Name))
    return decodeError(N.Offset + 12, "note owner '" +
                                          N.Name.split('\0').first +
                                          "' is not BOLT");
  if (N.Type != NT_BOLT_BAT)
    return decodeError(N.Offset + 8, "note type " + Twine(N.Type) +
                                         " is not NT_BOLT_BAT (1)");
  return Error::success();
}

Error inSection(const BATNote &Note, Error E) {
  return createStringError(inconvertibleErrorCode(),
                           Note.describe() + ": " + toString(std::move(E)));
}

/// The first note of \p Bytes (the named section), which must be BAT's.
Error readNamedSection(ArrayRef<uint8_t> Bytes, BATNote &Note) {
  ByteReader R(Bytes, Note.IsLittleEndian);
  Expected<RawNote> N = readNote(R, Bytes);
  if (!N)
    return N.takeError();
  if (Error E = checkBATNote(*N))
    return E;
  Note.DescOffset = N->DescOffset;
  Note.Desc = N->Desc;
  return Error::success();
}

/// A BAT note anywhere in an SHT_NOTE section; malformed sections are
/// skipped, as they may be anybody's.
bool findInNoteSection(ArrayRef<uint8_t> Bytes, BATNote &Note) {
  ByteReader R(Bytes, Note.IsLittleEndian);
  while (!R.atEnd()) {
    Expected<RawNote> N = readNote(R, Bytes);
    if (!N) {
      // A search among anybody's notes: a malformed one ends it.
      consumeError(N.takeError());
      return false;
    }
    if (isBOLTName(N->Name) && N->Type == NT_BOLT_BAT) {
      Note.DescOffset = N->DescOffset;
      Note.Desc = N->Desc;
      return true;
    }
  }
  return false;
}

} // namespace

Expected<BATNote> findBATNote(const ELFObjectFileBase &Obj) {
  std::optional<BATNote> ByType;
  for (ELFSectionRef Sec : Obj.sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name) {
      // A search: such a section is not the named BAT section. The file's
      // ELFMapReader and MappedBinary warn of unreadable section names.
      consumeError(Name.takeError());
      continue;
    }
    bool Named = *Name == BATSectionName;
    if (!Named && (ByType || Sec.getType() != ELF::SHT_NOTE))
      continue;
    BATNote Note;
    Note.SectionIndex = Sec.getIndex();
    Note.SectionName = Name->str();
    Note.IsLittleEndian = Obj.isLittleEndian();
    Expected<StringRef> Contents = Sec.getContents();
    if (!Contents)
      return inSection(Note, Contents.takeError());
    ArrayRef<uint8_t> Bytes = arrayRefFromStringRef(*Contents);
    if (Named) {
      if (Error E = readNamedSection(Bytes, Note))
        return inSection(Note, std::move(E));
      return Note;
    }
    if (findInNoteSection(Bytes, Note))
      ByType = Note;
  }
  if (ByType)
    return *ByType;
  return createStringError(inconvertibleErrorCode(),
                           "no BAT note: no section " + BATSectionName +
                               " and no note owned by BOLT with type "
                               "NT_BOLT_BAT (1)");
}

std::vector<FunctionSymbol> functionSymbols(const ELFObjectFileBase &Obj,
                                            WarningList &Warnings) {
  std::vector<FunctionSymbol> Syms;
  std::string File;
  auto Warn = [&](StringRef What, const ELFSymbolRef &S, Error E) {
    Warnings.add(("symbol " + What).str(),
                 "unable to read the " + What + " of symbol with index " +
                     Twine(S.getRawDataRefImpl().d.b),
                 std::move(E));
  };
  auto Add = [&](const ELFSymbolRef &S) {
    // Most symbols of a large program are data: only file and function
    // symbols are read further.
    // An ELF symbol's type fails only when the symbol cannot be read from
    // its table.
    Expected<SymbolRef::Type> Type = S.getType();
    if (!Type)
      return Warnings.add("symbol table", "unable to read the symbol table",
                          Type.takeError());
    if (*Type != SymbolRef::ST_File && *Type != SymbolRef::ST_Function)
      return;
    Expected<StringRef> Name = S.getName();
    if (!Name)
      return Warn("name", S, Name.takeError());
    if (*Type == SymbolRef::ST_File) {
      File = Name->str();
      return;
    }
    Expected<uint64_t> Addr = S.getAddress();
    if (!Addr)
      return Warn("address", S, Addr.takeError());
    Expected<section_iterator> Sec = S.getSection();
    if (!Sec)
      return Warn("section", S, Sec.takeError());
    if (*Sec == Obj.section_end())
      return;
    bool Local = S.getBinding() == ELF::STB_LOCAL;
    Syms.push_back({*Addr, S.getSize(),
                    (*Sec)->getAddress() + (*Sec)->getSize(), Name->str(),
                    Local ? File : std::string()});
  };
  for (const ELFSymbolRef &S : Obj.symbols())
    Add(S);
  if (Syms.empty())
    for (const ELFSymbolRef &S : Obj.getDynamicSymbolIterators())
      Add(S);
  llvm::stable_sort(Syms, [](const FunctionSymbol &A, const FunctionSymbol &B) {
    return A.Address < B.Address;
  });
  return Syms;
}

ArrayRef<FunctionSymbol> symbolsAt(ArrayRef<FunctionSymbol> Symbols,
                                   uint64_t Address) {
  auto Begin = llvm::partition_point(
      Symbols, [&](const FunctionSymbol &S) { return S.Address < Address; });
  auto End = std::find_if(Begin, Symbols.end(), [&](const FunctionSymbol &S) {
    return S.Address != Address;
  });
  return ArrayRef<FunctionSymbol>(Begin, End);
}

const FunctionSymbol *symbolAt(ArrayRef<FunctionSymbol> Symbols,
                               uint64_t Address) {
  ArrayRef<FunctionSymbol> At = symbolsAt(Symbols, Address);
  return At.empty() ? nullptr : &At.front();
}

} // namespace bbmap
