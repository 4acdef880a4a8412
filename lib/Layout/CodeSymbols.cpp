//===- CodeSymbols.cpp - the symbols that name code sections --------------===//
//
// Symbols that do not decode (a bad name offset, a bad section index) are
// skipped, with a warning: they name no section a linker could order.
//
//===----------------------------------------------------------------------===//

#include "CodeSymbols.h"

using namespace llvm;

namespace bbmap {

void forEachCodeSymbol(const object::ELFObjectFileBase &Obj,
                       WarningList &Warnings,
                       function_ref<void(StringRef, uint64_t)> Visit) {
  for (const object::ELFSymbolRef &S : Obj.symbols()) {
    // getELFType() aborts on a symbol its table cannot give; getType()
    // fails then, and only then.
    if (Expected<object::SymbolRef::Type> T = S.getType(); !T) {
      Warnings.add("symbol table", "unable to read the symbol table",
                   T.takeError());
      continue;
    }
    uint8_t Type = S.getELFType();
    if (Type != ELF::STT_FUNC && Type != ELF::STT_NOTYPE)
      continue;
    auto Warn = [&](StringRef What, Error E) {
      Warnings.add(("symbol " + What).str(),
                   "unable to read the " + What + " of symbol with index " +
                       Twine(S.getRawDataRefImpl().d.b),
                   std::move(E));
    };
    Expected<StringRef> Name = S.getName();
    if (!Name) {
      Warn("name", Name.takeError());
      continue;
    }
    Expected<uint64_t> Address = S.getAddress();
    if (!Address) {
      Warn("address", Address.takeError());
      continue;
    }
    Expected<object::section_iterator> Section = S.getSection();
    if (!Section) {
      Warn("section", Section.takeError());
      continue;
    }
    if (*Section != Obj.section_end() && !Name->empty())
      Visit(*Name, *Address);
  }
}

} // namespace bbmap
