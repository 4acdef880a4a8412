//===- BATDecoder.h - BOLT address translation decoder ----------*- C++ -*-===//
//
// Decodes the descriptor of BOLT's `.note.bolt_bat` note into bbmap's own
// model. Two incompatible encodings exist and carry no version field: the
// fixed-width tables of BOLT 15/16 and the ULEB/SLEB delta tables of BOLT
// 19/22 (function and block hashes, block indices, secondary entry points,
// cold fragments linked to their parent by index). The format is chosen by
// trial: the one that parses to exactly the descriptor's size.
// See docs/bat.md.
//
// Threading: the decoders keep no state: calls may run on several threads at
// once; a decoded table is plain data.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BAT_BATDECODER_H
#define BBMAP_BAT_BATDECODER_H

#include "bbmap/Support/ByteReader.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace bbmap {

enum class BATFormat {
  /// BOLT 15/16: fixed-width u32/u64 fields, BRANCHENTRY in bit 31.
  Fixed,
  /// BOLT 19/22: ULEB/SLEB deltas, BRANCHENTRY in the LSB, hashes.
  Delta,
};

/// Name used in diagnostics and output ("BOLT 15/16", "BOLT 19/22").
llvm::StringRef formatName(BATFormat F);

/// One translation entry: an output offset of a fragment and the input
/// offset (within the whole original function) it came from.
struct BATEntry {
  uint64_t OutputOffset = 0;
  /// Without the BRANCHENTRY flag.
  uint64_t InputOffset = 0;
  /// A branch or call source that does not start a block.
  bool IsBranch = false;
  /// Delta format, block entries only: the input block's hash and index.
  uint64_t BBHash = 0;
  uint64_t BBIndex = 0;
};

/// The translation table of one output fragment (a hot function or one of
/// its cold fragments).
struct BATFunction {
  /// Offset of the record within the descriptor.
  uint64_t RecordOffset = 0;
  /// Output address of the fragment.
  uint64_t Address = 0;
  /// Set for a cold fragment: the output address of its parent (the main
  /// fragment of the original function).
  std::optional<uint64_t> ParentAddress;
  /// Delta format, hot fragments: function hash, number of input blocks and
  /// input offsets of the secondary entry points.
  uint64_t Hash = 0;
  uint64_t NumBlocks = 0;
  std::vector<uint32_t> SecondaryEntryPoints;
  /// Delta format, cold fragments: index of the parent among the hot
  /// fragments, and the input offset implied entries are skewed by.
  uint64_t HotIndex = 0;
  uint64_t InputSkew = 0;
  /// In descriptor order (ascending output offset in what BOLT writes).
  std::vector<BATEntry> Entries;

  bool isCold() const { return ParentAddress.has_value(); }
};

/// A cold-to-hot link: a cold fragment's address and its parent's address.
struct BATColdLink {
  /// Offset of the pair (fixed format) or the cold record (delta format).
  uint64_t RecordOffset = 0;
  uint64_t ColdAddress = 0;
  uint64_t HotAddress = 0;
};

/// A decoded table.
struct BATTable {
  BATFormat Format = BATFormat::Delta;
  /// In descriptor order: every fragment (fixed format), or the hot table
  /// followed by the cold table (delta format).
  std::vector<BATFunction> Functions;
  /// The fixed format's cold-to-hot pairs; for the delta format, one link
  /// per cold record, derived from its HotIndex.
  std::vector<BATColdLink> ColdLinks;
};

/// The fragments as BOLT's reader keeps them: ascending address, the first
/// record of each address only.
std::vector<const BATFunction *> boltOrder(const BATTable &T);

/// A fragment's entries as BOLT's reader keeps them: stably sorted by output
/// offset; for the fixed format only the first entry at each offset
/// (std::map), for the delta format all of them (std::multimap).
std::vector<const BATEntry *> boltOrder(const BATFunction &F, BATFormat Fmt);

/// Decodes \p Desc in format \p F. Fails with a DecodeError on the first
/// malformed field, including bytes left over after the last table. Error
/// offsets and RecordOffsets are \p BaseOffset plus the descriptor offset
/// (pass the descriptor's offset within its section).
llvm::Expected<BATTable> decodeBATAs(llvm::ArrayRef<uint8_t> Desc,
                                     bool IsLittleEndian, BATFormat F,
                                     uint64_t BaseOffset = 0);

/// Decodes \p Desc in whichever format parses to exactly its size (fixed
/// format first). When neither does, the error gives both formats' reasons.
llvm::Expected<BATTable> decodeBAT(llvm::ArrayRef<uint8_t> Desc,
                                   bool IsLittleEndian,
                                   uint64_t BaseOffset = 0);

} // namespace bbmap

#endif // BBMAP_BAT_BATDECODER_H
