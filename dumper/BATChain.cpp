//===- dumper/BATChain.cpp - input-binary side of BAT look-ups ------------===//
//
// InputBinary: opens the input binary once, decodes every map section with
// ELFMapReader, indexes the blocks with AddressIndex and the function
// symbols by name. A name that several symbols at different addresses
// share (local functions of different files) is reported as ambiguous
// rather than guessed.
//
//===----------------------------------------------------------------------===//

#include "BATChain.h"
#include "DumpDriver.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {
Error inputError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "input binary: " + Msg);
}
} // namespace

Expected<std::unique_ptr<InputBinary>> InputBinary::open(StringRef Path) {
  std::unique_ptr<InputBinary> In(new InputBinary());
  In->Path = Path.str();
  Expected<OwningBinary<Binary>> Bin = createBinary(Path);
  if (!Bin)
    return inputError(toString(Bin.takeError()));
  In->Bin = std::move(*Bin);
  const auto *Obj = dyn_cast<ELFObjectFileBase>(In->Bin.getBinary());
  if (!Obj)
    return inputError("not an ELF object file");
  Expected<std::unique_ptr<ELFMapReader>> Reader = ELFMapReader::create(*Obj);
  if (!Reader)
    return inputError(toString(Reader.takeError()));
  for (const MapSectionInfo &Info : (*Reader)->mapSections()) {
    Expected<DecodedSection> Sec = (*Reader)->decode(Info);
    if (!Sec)
      return inputError(describe(Info) + ": " + toString(Sec.takeError()));
    In->Sections.push_back(std::move(*Sec));
  }
  if (In->Sections.empty())
    return inputError("no .llvm_bb_addr_map section");
  Expected<AddressIndex> Index = AddressIndex::create(In->Sections);
  if (!Index)
    return inputError(toString(Index.takeError()));
  In->Index.emplace(std::move(*Index));
  for (const FunctionSymbol &S : functionSymbols(*Obj)) {
    SmallVector<uint64_t, 1> &Addrs = In->ByName[S.Name];
    if (!llvm::is_contained(Addrs, S.Address))
      Addrs.push_back(S.Address);
  }
  return In;
}

InputLocation InputBinary::resolve(StringRef Name, uint64_t Offset,
                                   LookupSide Side) const {
  InputLocation L;
  auto It = ByName.find(Name);
  if (It == ByName.end()) {
    L.Problem = "no function '" + Name.str() + "' in the input binary";
    return L;
  }
  if (It->second.size() > 1) {
    L.Problem = "function name '" + Name.str() + "' is ambiguous (" +
                std::to_string(It->second.size()) + " symbols)";
    return L;
  }
  L.Address = It->second.front() + Offset;
  L.Block = Index->lookup(*L.Address, Side);
  if (!L.Block)
    L.Problem = "no basic block covers the address";
  return L;
}

} // namespace bbmap
