//===- CodeSymbols.h - the symbols that name code sections ------*- C++ -*-===//
//
// A linker orders sections by the symbols in them: a function's own
// (STT_FUNC) and those of its other sections (STT_NOTYPE `NAME.cold`,
// `NAME.__part.N`). Block orders are written in these names and checked by
// their addresses.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LIB_LAYOUT_CODESYMBOLS_H
#define BBMAP_LIB_LAYOUT_CODESYMBOLS_H

#include "bbmap/Support/Warnings.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ELFObjectFile.h"
#include <cstdint>

namespace bbmap {

/// Calls \p Visit with the name and address of each defined STT_FUNC and
/// STT_NOTYPE symbol of \p Obj that lies in a section (in symbol-table
/// order; the names live as long as \p Obj). Symbols whose name, address
/// or section cannot be read are left out, the problem kept in
/// \p Warnings.
void forEachCodeSymbol(
    const llvm::object::ELFObjectFileBase &Obj, WarningList &Warnings,
    llvm::function_ref<void(llvm::StringRef Name, uint64_t Address)> Visit);

} // namespace bbmap

#endif // BBMAP_LIB_LAYOUT_CODESYMBOLS_H
