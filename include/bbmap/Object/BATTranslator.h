//===- BATTranslator.h - BOLTed address to input offset ---------*- C++ -*-===//
//
// Translates addresses of a BOLT-optimized binary to input function offsets
// with the semantics of BOLT's BoltAddressTranslation::translate(): the
// entry at or before the offset is used; a branch source maps to the input
// offset of that entry (the start of its block), any other address keeps
// its distance from the entry; a fragment without a table, or an offset
// before its first entry, keeps the offset unchanged. Cold fragments use
// their own table (whose input offsets are relative to the whole original
// function) and are reported against their parent.
//
// Threading: a translator is only read once made: its const members may be
// called from several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_BATTRANSLATOR_H
#define BBMAP_OBJECT_BATTRANSLATOR_H

#include "bbmap/BAT/BATDecoder.h"
#include "bbmap/Object/BATReader.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <vector>

namespace bbmap {

/// "ADDR[:from]": an address, and whether it is a branch source.
struct TranslateRequest {
  uint64_t Address = 0;
  bool IsBranchSource = false;
};

/// Parses "ADDR" or "ADDR:from" (hexadecimal, 0x optional).
llvm::Expected<TranslateRequest> parseTranslateRequest(llvm::StringRef Text);

/// The outcome of translating one address.
struct BATTranslation {
  /// The function symbol (fragment) containing the address; null if none,
  /// in which case nothing else is set.
  const FunctionSymbol *Fragment = nullptr;
  /// The fragment's table; null when it has none (offset kept unchanged).
  const BATFunction *Map = nullptr;
  /// The entry used; null when the offset precedes every entry.
  const BATEntry *Entry = nullptr;
  /// Output address of the function the input offset is relative to: the
  /// parent for a cold fragment, else the fragment itself.
  uint64_t FunctionAddress = 0;
  /// The symbol at FunctionAddress (may be null for a parent without one).
  const FunctionSymbol *Function = nullptr;
  uint64_t InputOffset = 0;
};

class BATTranslator {
public:
  /// \p Table must outlive the translator.
  BATTranslator(const BATTable &Table, std::vector<FunctionSymbol> Symbols);

  /// BOLT's translate(FragmentAddress, Offset, IsBranchSrc); \p Used, if
  /// given, receives the entry used (null if none).
  uint64_t translate(uint64_t FragmentAddress, uint64_t Offset,
                     bool IsBranchSource,
                     const BATEntry **Used = nullptr) const;
  /// The table of the fragment at \p Address (the first record with that
  /// address, as BOLT keeps it).
  const BATFunction *tableAt(uint64_t Address) const;
  /// The parent of the cold fragment at \p Address.
  std::optional<uint64_t> parentOf(uint64_t Address) const;
  /// The first function symbol at \p Address.
  const FunctionSymbol *symbolAt(uint64_t Address) const;
  /// The function symbol with the greatest address at or below \p Address
  /// within its section.
  const FunctionSymbol *symbolContaining(uint64_t Address) const;

  BATTranslation translateAddress(const TranslateRequest &R) const;

private:
  /// A fragment's entries sorted by output offset as BOLT's maps order
  /// them; OutputOffsets and Entries are parallel.
  struct SortedMap {
    uint64_t Address = 0;
    const BATFunction *Function = nullptr;
    std::vector<uint64_t> OutputOffsets;
    std::vector<const BATEntry *> Entries;
  };

  const SortedMap *sortedAt(uint64_t Address) const;

  std::vector<SortedMap> Maps;
  /// (cold address, hot address), sorted by cold address; first link wins.
  std::vector<std::pair<uint64_t, uint64_t>> Parents;
  std::vector<FunctionSymbol> Symbols;
};

} // namespace bbmap

#endif // BBMAP_OBJECT_BATTRANSLATOR_H
