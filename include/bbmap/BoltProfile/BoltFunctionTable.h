//===- BoltFunctionTable.h - the functions BOLT sees ------------*- C++ -*-===//
//
// The functions of a linked ELF file as BOLT's discoverFileObjects() finds
// them, for writing profiles that BOLT reads: one per address holding an
// STT_FUNC symbol in an executable section (or an untyped or section symbol
// BOLT takes for one), one per FDE without a symbol, one per PLT entry
// (`<sym>@PLT`) and a pseudo function for the PLT header
// (`__BOLT_PSEUDO_.plt`). Local symbols get BOLT's unique names
// (`name/N`) and, for functions of a known source file, the alternative
// `name/file/N` that BOLT writes for BOLTed binaries. A function covers
// the addresses up to the next function or the end of its section, or
// without relocations only its size when what follows is no padding.
//
// Threading: build reads the object on the threads it is given; a built table
// is only read, and its const members may be called concurrently.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BOLTFUNCTIONTABLE_H
#define BBMAP_BOLTPROFILE_BOLTFUNCTIONTABLE_H

#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Support/Warnings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Object/ELFObjectFile.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

struct BoltFunction {
  uint64_t Address = 0;
  /// The symbol size: where BOLT's disassembly and blocks end.
  uint64_t Size = 0;
  /// End of the addresses the function covers (next function or section
  /// end); at least Address + Size.
  uint64_t End = 0;
  /// BOLT's primary name (getOneName()).
  std::string Name;
  /// The name BOLT writes for this function in a BOLTed binary
  /// (`name/file/N` when there is one, else Name).
  std::string BATName;
  /// A PLT entry or the PLT header: no blocks, traces inside are valid.
  bool IsPseudo = false;
  /// BOLT's function number (`fid` in YAML profiles): the order in which
  /// BOLT creates functions, from 1: symbols by address, PLT entries, the
  /// PLT header, functions of unnamed FDEs.
  uint32_t Number = 0;
  /// Offsets of BOLT's secondary entry points from symbols: a local
  /// symbol without a type or size strictly inside the function (glibc's
  /// `__wrap_main` in arm64's `_start`), as adjustFunctionBoundaries()
  /// adds them. Ascending.
  std::vector<uint64_t> SymbolEntries;
  /// The LSDA its FDE (the one starting at Address) names, as
  /// CFIReaderWriter::fillCFIInfoFor() gives it to BOLT.
  std::optional<uint64_t> LSDAAddress;

  bool contains(uint64_t A) const { return A >= Address && A < End; }
};

class BoltFunctionTable {
public:
  /// Finds the functions of \p Obj, which \p Decoder decodes (PLT entries,
  /// padding). The symbols and the .eh_frame are read at the same time
  /// unless \p Threads is 1 (0: the machine's hardware threads).
  static BoltFunctionTable build(const llvm::object::ELFObjectFileBase &Obj,
                                 const InstructionDecoder &Decoder,
                                 unsigned Threads);

  /// Sorted by address.
  llvm::ArrayRef<BoltFunction> functions() const { return Functions; }
  /// The function covering \p Address, or null.
  const BoltFunction *containing(uint64_t Address) const;
  /// The file keeps relocations for its code (`-Wl,-q`): BOLT's
  /// relocation mode, strict in perf2bolt.
  bool hasRelocations() const { return HasRelocations; }
  /// Code addresses the absolute relocations of data sections refer to,
  /// ascending (with relocations only).
  llvm::ArrayRef<uint64_t> dataReferences() const { return DataReferences; }
  /// What reading the symbols, section names, relocations, code and
  /// .eh_frame went past (those left out), each kind once.
  const WarningList &warnings() const { return Warnings; }

private:
  std::vector<BoltFunction> Functions;
  bool HasRelocations = false;
  std::vector<uint64_t> DataReferences;
  WarningList Warnings;
};

} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BOLTFUNCTIONTABLE_H
