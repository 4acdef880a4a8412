//===- MappedBinary.h - a linked binary, its maps indexed -------*- C++ -*-===//
//
// A linked ELF file opened for profile work: every .llvm_bb_addr_map
// section decoded and indexed by address, its function symbols by address
// and by name, its build ID and, when it was BOLTed, its BAT table: what
// look-ups, BAT translation and every profile reader need of the binary a
// profile was recorded on.
//
// Threading: open, openFile and decode run on one thread (decode on the threads
// it is given); then every const member may be called concurrently.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_MAPPEDBINARY_H
#define BBMAP_OBJECT_MAPPEDBINARY_H

#include "bbmap/BAT/BATDecoder.h"
#include "bbmap/Object/AddressIndex.h"
#include "bbmap/Object/BATReader.h"
#include "bbmap/Object/BATTranslator.h"
#include "bbmap/Object/ELFMapReader.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

/// Where a function name and offset land in a MappedBinary.
struct InputLocation {
  /// Set when the function was found.
  std::optional<uint64_t> Address;
  /// Set when a block of the maps covers Address.
  std::optional<BlockMatch> Block;
  /// Why Address or Block is missing.
  std::string Problem;
};

class MappedBinary {
public:
  /// What open() requires of the file.
  enum class MapRequirement { Required, Optional };

  /// Opens \p Path, decodes all its maps and indexes their blocks. A file
  /// without a map is an error unless \p Maps is Optional (a BOLTed binary
  /// has a BAT table instead). The maps and the symbols are read at the
  /// same time unless \p Threads is 1 (0: the machine's hardware threads).
  static llvm::Expected<std::unique_ptr<MappedBinary>>
  open(llvm::StringRef Path, MapRequirement Maps = MapRequirement::Required,
       unsigned Threads = 0);

  /// open() in two steps, for a caller with other work to do meanwhile:
  /// openFile() opens \p Path as an ELF file and reads its build ID;
  /// decode() then does the rest of open(). object(), path() and buildID()
  /// are set by openFile() and left alone by decode(), so they may be read
  /// while decode() runs.
  static llvm::Expected<std::unique_ptr<MappedBinary>>
  openFile(llvm::StringRef Path);
  llvm::Error decode(MapRequirement Maps = MapRequirement::Required,
                     unsigned Threads = 0);

  const std::string &path() const { return Path; }
  const llvm::object::ELFObjectFileBase &object() const { return *Obj; }
  llvm::ArrayRef<DecodedSection> sections() const { return Sections; }
  const AddressIndex &index() const { return *Index; }
  /// Defined function symbols, sorted by address.
  llvm::ArrayRef<FunctionSymbol> symbols() const { return Symbols; }
  /// The GNU build ID as lower-case hex; empty when the file has none.
  const std::string &buildID() const { return BuildID; }
  /// The BAT table and its translator; null unless the file was BOLTed
  /// with --enable-bat.
  const BATTable *bat() const { return BAT ? &*BAT : nullptr; }
  const BATTranslator *translator() const { return Translator.get(); }

  /// What reading the file went past (ELFMapReader::warnings, then those
  /// of functionSymbols), set by decode().
  const WarningList &warnings() const { return Warnings; }

  /// The address of the function named \p Name, if exactly one function
  /// symbol has that name; else why not.
  llvm::Expected<uint64_t> addressOf(llvm::StringRef Name) const;
  /// How many function symbols are named \p Name (local functions of
  /// several files may share a name).
  size_t functionsNamed(llvm::StringRef Name) const {
    auto It = ByName.find(Name);
    return It == ByName.end() ? 0 : It->second.size();
  }
  /// Resolves \p Offset within the function \p Name to a block.
  InputLocation resolve(llvm::StringRef Name, uint64_t Offset,
                        LookupSide Side) const;

private:
  MappedBinary() = default;
  llvm::Error decodeMaps(MapRequirement Maps);
  void readSymbols();
  llvm::Error readBAT();

  std::string Path;
  llvm::object::OwningBinary<llvm::object::Binary> Bin;
  const llvm::object::ELFObjectFileBase *Obj = nullptr;
  std::vector<DecodedSection> Sections;
  std::optional<AddressIndex> Index;
  std::vector<FunctionSymbol> Symbols;
  /// Function name -> the addresses of the symbols with that name.
  llvm::StringMap<llvm::SmallVector<uint64_t, 1>> ByName;
  std::string BuildID;
  /// decodeMaps and readSymbols, which run at once, keep their own.
  WarningList Warnings, SymbolWarnings;
  std::optional<BATTable> BAT;
  std::unique_ptr<BATTranslator> Translator;
};

} // namespace bbmap

#endif // BBMAP_OBJECT_MAPPEDBINARY_H
