//===- dumper/BATChain.h - input-binary side of BAT look-ups ----*- C++ -*-===//
//
// The chained look-up of `bbmap-dump --translate --input-binary=FILE`: an
// input function name and offset (from BAT) become an address of the input
// binary (through its function symbols), and that address becomes a basic
// block of its .llvm_bb_addr_map (through AddressIndex).
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_BATCHAIN_H
#define BBMAP_DUMPER_BATCHAIN_H

#include "AddressIndex.h"
#include "BATReader.h"
#include "ELFMapReader.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/Binary.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

/// Where an input function offset lands in the input binary.
struct InputLocation {
  /// Set when the function was found.
  std::optional<uint64_t> Address;
  /// Set when a block of the input's maps covers Address.
  std::optional<BlockMatch> Block;
  /// Why Address or Block is missing.
  std::string Problem;
};

class InputBinary {
public:
  /// Opens \p Path, decodes all its maps and indexes their blocks.
  static llvm::Expected<std::unique_ptr<InputBinary>>
  open(llvm::StringRef Path);

  /// Resolves \p Offset within the input function \p Name.
  InputLocation resolve(llvm::StringRef Name, uint64_t Offset,
                        LookupSide Side) const;

  const std::string &path() const { return Path; }

private:
  InputBinary() = default;

  std::string Path;
  llvm::object::OwningBinary<llvm::object::Binary> Bin;
  std::vector<DecodedSection> Sections;
  std::optional<AddressIndex> Index;
  /// Function name -> the addresses of the symbols with that name.
  llvm::StringMap<llvm::SmallVector<uint64_t, 1>> ByName;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_BATCHAIN_H
