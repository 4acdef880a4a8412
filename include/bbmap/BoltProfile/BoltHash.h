//===- BoltHash.h - BOLT's function and block hashes ------------*- C++ -*-===//
//
// The hashes BOLT writes into its YAML profile, computed on BOLT's blocks of
// a function (BoltFunctionView) for the BOLT of the LLVM major bbmap is
// built against: the function hash of BinaryFunction::computeHash() (opcode
// names in layout or DFS order, operands left out) and the blended block
// hash of BinaryFunction::computeBlockHashes() (offset, loose opcode hash,
// instruction hash with operands, successor and predecessor hashes). The
// instruction hash sees operands as BOLT's symbolization leaves them:
// branch and call targets, and references to functions and jump tables,
// contribute nothing; a PC-relative reference to data, and an immediate
// or displacement an absolute relocation patches (`-Wl,-q`), contributes
// the address of the data object (ELF symbol) holding it and the addend.
// On AArch64 BOLT's symbolizer turns into a symbol reference an adr's label
// always, and with relocations (`-Wl,-q`) the operand the relocation of a
// non-branch instruction patches (adrp page, :lo12: add or load offset,
// movz/movk part); an adrp without a relocation keeps its immediate. It
// wraps the reference in the relocation's specifier: BOLT 19 hashes that
// (an MCTargetExpr) to nothing, BOLT 22 (an MCSpecifierExpr) to the
// specifier and the reference.
//
// Threading: a BoltHasher is used by one thread at a time (hash() caches the
// opcodes it looks up).
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BOLTHASH_H
#define BBMAP_BOLTPROFILE_BOLTHASH_H

#include "bbmap/BoltProfile/BoltFunctionTable.h"
#include "bbmap/BoltProfile/BoltFunctionView.h"
#include "bbmap/BoltProfile/BoltYAMLProfile.h"
#include "bbmap/Object/InstructionDecoder.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELFObjectFile.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MCInst;
} // namespace llvm

namespace bbmap {

struct BoltHashes {
  /// The function's `hash`.
  uint64_t Function = 0;
  /// Per block of the view, in layout order: the block's `hash`.
  std::vector<uint64_t> Blocks;
};

class BoltHasher {
public:
  /// \p Obj's symbols are BOLT's data objects; \p Decoder decodes \p Obj
  /// and \p Functions are its BOLT functions. All must outlive the hasher.
  BoltHasher(const llvm::object::ELFObjectFileBase &Obj,
             const InstructionDecoder &Decoder,
             const BoltFunctionTable &Functions);

  /// The hashes of \p View's function with \p Hash; \p UseDFS hashes the
  /// function's blocks in dfs() order (`dfs-order: true`).
  BoltHashes hash(const BoltFunctionView &View, boltyaml::HashFunction Hash,
                  bool UseDFS) const;

  /// Relocations of code whose addend or symbol value could not be read
  /// (left out). The symbols and relocation sections it reads are those
  /// whose problems the function table keeps.
  const WarningList &warnings() const { return Warnings; }

private:
  std::string blockString(const BoltFunctionView &View,
                          const BoltFunctionView::Block &B,
                          bool WithOperands) const;
  std::string looseBlockString(const BoltFunctionView &View,
                               const BoltFunctionView::Block &B) const;
  std::string operandString(const BoltFunctionView &View, const Instruction &I,
                            const llvm::MCInst &Inst, unsigned OpIndex,
                            int Displacement) const;
  std::string referenceString(const BoltFunctionView &View,
                              uint64_t Target) const;
  /// An AArch64 operand BOLT symbolized for relocation type \p Type (an
  /// adr's label as R_AARCH64_ADR_PREL_LO21) to \p Target.
  std::string aarch64Reference(const BoltFunctionView &View, uint64_t Type,
                               uint64_t Target) const;
  struct AArch64Relocation {
    uint64_t Type = 0;
    uint64_t Symbol = 0;
    int64_t Addend = 0;
  };
  /// The operand of instruction \p Opcode at \p Address, holding \p Imm,
  /// that relocation \p R patches.
  std::string aarch64RelocatedOperand(const BoltFunctionView &View,
                                      const AArch64Relocation &R,
                                      llvm::StringRef Opcode, uint64_t Address,
                                      int64_t Imm) const;
  /// The opcode of BOLT's MCInst for \p I, decoded as \p Inst.
  unsigned boltOpcode(const llvm::MCInst &Inst, const Instruction &I,
                      bool TailCall) const;
  void collectAbsoluteRelocations(const llvm::object::ELFObjectFileBase &Obj);
  void collectAArch64Relocations(const llvm::object::ELFObjectFileBase &Obj);
  /// An absolute relocation between \p Begin and \p End gives \p Value.
  bool isRelocated(uint64_t Begin, uint64_t End, int64_t Value) const;

  const InstructionDecoder &Decoder;
  const BoltFunctionTable &Functions;
  /// Data object address -> size (the largest symbol there).
  std::map<uint64_t, uint64_t> DataObjects;
  /// Address patched by an absolute relocation of code -> the value it
  /// gets (symbol + addend).
  std::map<uint64_t, uint64_t> AbsoluteRelocations;
  /// AArch64: address of a code instruction -> its relocation.
  std::map<uint64_t, AArch64Relocation> AArch64Relocations;
  /// AArch64: the first and last page of .got.
  std::optional<std::pair<uint64_t, uint64_t>> GOTPages;
  /// Opcodes by name, of the opcodes BOLT renames to, found once.
  mutable llvm::StringMap<unsigned> Opcodes;
  WarningList Warnings;
};

} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BOLTHASH_H
