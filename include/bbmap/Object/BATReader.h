//===- BATReader.h - the BAT note of an ELF file ----------------*- C++ -*-===//
//
// The ELF side of BAT decoding: finds BOLT's address translation note
// (section .note.bolt_bat, or any SHT_NOTE section holding a note owned by
// "BOLT" with type NT_BOLT_BAT), checks its header and returns the
// descriptor bytes, and lists the function symbols that translation uses to
// find the fragment containing an address and to name functions.
//
// Threading: the functions keep no state: calls may run on several threads at
// once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_BATREADER_H
#define BBMAP_OBJECT_BATREADER_H

#include "bbmap/Support/Warnings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace bbmap {

/// Section name BOLT gives the note.
inline constexpr llvm::StringLiteral BATSectionName = ".note.bolt_bat";
/// Note type of the BAT note (BOLT's NT_BOLT_BAT).
inline constexpr uint32_t NT_BOLT_BAT = 1;

/// The located note.
struct BATNote {
  unsigned SectionIndex = 0;
  std::string SectionName;
  /// Offset of the descriptor within the section.
  uint64_t DescOffset = 0;
  /// The descriptor (descsz bytes, without padding).
  llvm::ArrayRef<uint8_t> Desc;
  bool IsLittleEndian = true;

  /// "section [N] NAME", for diagnostics.
  std::string describe() const;
};

/// Finds and checks the BAT note of \p Obj. Errors name the section and the
/// offset of the bad header field within it.
llvm::Expected<BATNote> findBATNote(const llvm::object::ELFObjectFileBase &Obj);

/// A defined STT_FUNC symbol.
struct FunctionSymbol {
  uint64_t Address = 0;
  uint64_t Size = 0;
  /// End of the section that holds the symbol: the symbol covers addresses
  /// up to the next function symbol, but never past its section.
  uint64_t SectionEnd = 0;
  std::string Name;
  /// For a local function: the STT_FILE name before it in the symbol table
  /// (its source file), which tells apart local functions of one name.
  /// Empty for a global one.
  std::string File;
};

/// The defined function symbols of \p Obj (.symtab, else .dynsym), sorted by
/// address; symbols at the same address keep symbol-table order. A symbol
/// that cannot be read, or whose name, address or section cannot be, is
/// left out, and the problem kept in \p Warnings.
std::vector<FunctionSymbol>
functionSymbols(const llvm::object::ELFObjectFileBase &Obj,
                WarningList &Warnings);

/// The symbols of \p Symbols (sorted by address) that start at \p Address:
/// a function and its aliases, or local functions placed together.
llvm::ArrayRef<FunctionSymbol> symbolsAt(llvm::ArrayRef<FunctionSymbol> Symbols,
                                         uint64_t Address);

/// The first of \p Symbols (sorted by address) that starts at \p Address.
const FunctionSymbol *symbolAt(llvm::ArrayRef<FunctionSymbol> Symbols,
                               uint64_t Address);

} // namespace bbmap

#endif // BBMAP_OBJECT_BATREADER_H
