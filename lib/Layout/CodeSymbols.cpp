//===- CodeSymbols.cpp - the symbols that name code sections --------------===//
//
// Symbols that do not decode (a bad name offset, a bad section index) are
// skipped: they name no section a linker could order.
//
//===----------------------------------------------------------------------===//

#include "CodeSymbols.h"

using namespace llvm;

namespace bbmap {

void forEachCodeSymbol(const object::ELFObjectFileBase &Obj,
                       function_ref<void(StringRef, uint64_t)> Visit) {
  for (const object::ELFSymbolRef &S : Obj.symbols()) {
    uint8_t Type = S.getELFType();
    if (Type != ELF::STT_FUNC && Type != ELF::STT_NOTYPE)
      continue;
    Expected<StringRef> Name = S.getName();
    Expected<uint64_t> Address = S.getAddress();
    Expected<object::section_iterator> Section = S.getSection();
    if (Name && Address && Section && *Section != Obj.section_end() &&
        !Name->empty())
      Visit(*Name, *Address);
    consumeError(Name.takeError());
    consumeError(Address.takeError());
    consumeError(Section.takeError());
  }
}

} // namespace bbmap
