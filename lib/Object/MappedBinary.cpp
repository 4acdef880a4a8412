//===- MappedBinary.cpp - a linked binary with its maps indexed -----------===//
//
// Opening decodes every map section (a malformed one fails the whole open:
// profile work needs all blocks), reads the function symbols, the GNU build
// ID (through LLVM Object's getBuildID) and the BAT note.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Object/ObjectVisitor.h"
#include "bbmap/Support/Parallel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {

Error openError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

bool hasSection(const ELFObjectFileBase &Obj, StringRef Name) {
  for (const SectionRef &S : Obj.sections()) {
    Expected<StringRef> N = S.getName();
    if (N && *N == Name)
      return true;
    // Among the warnings of the file's ELFMapReader (decodeMaps).
    consumeError(N.takeError());
  }
  return false;
}

} // namespace

Expected<std::unique_ptr<MappedBinary>>
MappedBinary::open(StringRef Path, MapRequirement Maps, unsigned Threads) {
  Expected<std::unique_ptr<MappedBinary>> M = openFile(Path);
  if (!M)
    return M.takeError();
  if (Error E = (*M)->decode(Maps, Threads))
    return E;
  return M;
}

Expected<std::unique_ptr<MappedBinary>> MappedBinary::openFile(StringRef Path) {
  std::unique_ptr<MappedBinary> M(new MappedBinary());
  M->Path = Path.str();
  Expected<OwningBinary<Binary>> Bin = createBinary(Path);
  if (!Bin)
    return Bin.takeError();
  M->Bin = std::move(*Bin);
  M->Obj = dyn_cast<ELFObjectFileBase>(M->Bin.getBinary());
  if (!M->Obj)
    return openError("not an ELF object file");
  M->BuildID = toHex(getBuildID(M->Obj), /*LowerCase=*/true);
  return M;
}

Error MappedBinary::decode(MapRequirement Maps, unsigned Threads) {
  std::optional<Error> MapError;
  runBoth(
      Threads, [&] { MapError.emplace(decodeMaps(Maps)); },
      [&] { readSymbols(); });
  Warnings.append(SymbolWarnings);
  if (Error E = std::move(*MapError))
    return E;
  return readBAT();
}

Error MappedBinary::decodeMaps(MapRequirement Maps) {
  Expected<std::unique_ptr<ELFMapReader>> Reader = ELFMapReader::create(*Obj);
  if (!Reader)
    return Reader.takeError();
  Warnings = (*Reader)->warnings();
  for (const MapSectionInfo &Info : (*Reader)->mapSections()) {
    Expected<DecodedSection> Sec = (*Reader)->decode(Info);
    if (!Sec)
      return openError(describe(Info) + ": " + toString(Sec.takeError()));
    Sections.push_back(std::move(*Sec));
  }
  if (Sections.empty() && Maps == MapRequirement::Required)
    return openError("no .llvm_bb_addr_map section");
  Expected<AddressIndex> I = AddressIndex::create(Sections);
  if (!I)
    return I.takeError();
  Index.emplace(std::move(*I));
  return Error::success();
}

void MappedBinary::readSymbols() {
  Symbols = functionSymbols(*Obj, SymbolWarnings);
  for (const FunctionSymbol &S : Symbols) {
    SmallVector<uint64_t, 1> &Addrs = ByName[S.Name];
    if (!llvm::is_contained(Addrs, S.Address))
      Addrs.push_back(S.Address);
  }
}

Error MappedBinary::readBAT() {
  if (!hasSection(*Obj, BATSectionName))
    return Error::success();
  Expected<BATNote> Note = findBATNote(*Obj);
  if (!Note)
    return Note.takeError();
  Expected<BATTable> T =
      decodeBAT(Note->Desc, Note->IsLittleEndian, Note->DescOffset);
  if (!T)
    return openError(Note->describe() + ": " + toString(T.takeError()));
  BAT.emplace(std::move(*T));
  Translator = std::make_unique<BATTranslator>(*BAT, Symbols);
  return Error::success();
}

Expected<uint64_t> MappedBinary::addressOf(StringRef Name) const {
  auto It = ByName.find(Name);
  if (It == ByName.end())
    return openError("no function '" + Name + "'");
  if (It->second.size() > 1)
    return openError("function name '" + Name + "' is ambiguous (" +
                     Twine(It->second.size()) + " symbols)");
  return It->second.front();
}

InputLocation MappedBinary::resolve(StringRef Name, uint64_t Offset,
                                    LookupSide Side) const {
  InputLocation L;
  Expected<uint64_t> Address = addressOf(Name);
  if (!Address) {
    L.Problem = toString(Address.takeError());
    return L;
  }
  L.Address = *Address + Offset;
  L.Block = Index->lookup(*L.Address, Side);
  if (!L.Block)
    L.Problem = "no basic block covers the address";
  return L;
}

} // namespace bbmap
