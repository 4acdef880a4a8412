//===- BBAddrMapDecoder.h - .llvm_bb_addr_map decoder -----------*- C++ -*-===//
//
// Decodes the payload of one .llvm_bb_addr_map section (every encoding: the
// legacy V0 type and versions 0-5 of the versioned type) into bbmap's own
// data model. The decoder knows nothing about ELF; addresses that need
// relocation are resolved through a callback. Every output style (LLVM text,
// JSON, ...) prints from this model. Records can be streamed (one reused
// FunctionMap handed to a callback per record) or collected into a vector.
//
// Threading: decodeBBAddrMap keeps no state: calls may run at once, over one
// section's bytes too (each with its own handler and record).
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BBADDRMAP_BBADDRMAPDECODER_H
#define BBMAP_BBADDRMAP_BBADDRMAPDECODER_H

#include "bbmap/Format.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

/// One basic block. Offsets and sizes are decoded to absolute values (as
/// llvm-readobj prints them), not the deltas stored in the section.
struct BlockEntry {
  /// Block ID; for encodings without IDs (legacy type, versions 0 and 1) the
  /// index of the block within its range, as llvm-readobj 19 does.
  uint32_t ID = 0;
  /// Offset of the block from the start of its range.
  uint32_t Offset = 0;
  /// Size of the whole block (the raw size plus the last callsite end).
  uint32_t Size = 0;
  /// metadata::* bits.
  uint32_t Metadata = 0;
  /// End offsets of the calls in the block, relative to the block start.
  llvm::SmallVector<uint32_t, 1> CallsiteEndOffsets;
  /// Block hash; meaningful only with feature::BBHash.
  uint64_t Hash = 0;

  bool has(uint32_t MetadataBit) const { return Metadata & MetadataBit; }
};

/// A contiguous address range of a function (one per basic-block section).
struct BlockRange {
  uint64_t BaseAddress = 0;
  /// Offset of the base address field within the section (where its
  /// relocation applies in a relocatable object).
  uint64_t AddressFieldOffset = 0;
  /// Block count as written; equals Blocks.size() unless OmitBBEntries.
  uint32_t NumBlocks = 0;
  std::vector<BlockEntry> Blocks;
};

/// A successor edge of a block in the PGO analysis block.
struct PGOSuccessor {
  uint32_t ID = 0;
  /// Raw branch probability numerator over 0x80000000.
  uint32_t BrProb = 0;
  /// Post-link (Propeller) edge count; meaningful with feature::PostLinkCfg.
  uint32_t PostLinkBrFreq = 0;
};

/// Per-block PGO data, one per decoded block of the function.
struct PGOBlock {
  /// Raw BlockFrequency value; meaningful with feature::BBFreq.
  uint64_t BBFreq = 0;
  /// Post-link block count; meaningful with feature::PostLinkCfg.
  uint32_t PostLinkBBFreq = 0;
  /// Meaningful with feature::BrProb.
  std::vector<PGOSuccessor> Successors;
};

/// The PGO analysis block that follows the ranges of a function.
struct PGOAnalysis {
  /// Meaningful with feature::FuncEntryCount.
  uint64_t FuncEntryCount = 0;
  /// Present with feature::BBFreq or feature::BrProb.
  std::vector<PGOBlock> Blocks;
};

/// One per-function record of the section.
struct FunctionMap {
  /// Offset of the record within the section.
  uint64_t SectionOffset = 0;
  Encoding Enc;
  /// feature::* bits (0 for the legacy type).
  uint16_t Features = 0;
  /// Never empty: range 0 starts at the function entry.
  std::vector<BlockRange> Ranges;
  /// Set when any of feature::PGOMask is enabled.
  std::optional<PGOAnalysis> PGO;

  bool has(uint16_t FeatureBit) const { return Features & FeatureBit; }
  uint64_t address() const { return Ranges.front().BaseAddress; }
};

/// How to read a section's bytes.
struct DecodeOptions {
  bool IsLittleEndian = true;
  /// Size of an address field: 4 (ELF32) or 8 (ELF64).
  uint8_t AddressSize = 8;
  /// The section has the legacy SHT_LLVM_BB_ADDR_MAP_V0 type.
  bool LegacyType = false;
};

/// Turns the address field stored at \p Offset of the section (raw value
/// \p Stored) into the address to report, e.g. by applying relocations.
using AddressResolver = llvm::function_ref<llvm::Expected<uint64_t>(
    uint64_t Offset, uint64_t Stored)>;

/// Receives each decoded record. The same FunctionMap object is refilled for
/// the next record (its vectors keep their capacity), so a handler copies
/// what it needs to keep, or moves the record away (the next one is then
/// decoded into fresh vectors).
using FunctionHandler = llvm::function_ref<llvm::Error(FunctionMap &)>;

/// A run of whole function records: bytes [Begin, End) of a section.
struct RecordSpan {
  uint64_t Begin = 0;
  uint64_t End = UINT64_MAX;
};

/// Decodes the function records of a section's contents in order, handing
/// each to \p OnFunction as soon as it is complete. Stops with a DecodeError
/// at the first malformed record (the records before it have been handed
/// over) or with the first error \p OnFunction returns. With \p Span, only
/// the records of that run are decoded; it must start at a record (offsets
/// in errors stay relative to the section).
llvm::Error decodeBBAddrMap(llvm::ArrayRef<uint8_t> Contents,
                            const DecodeOptions &Opts, AddressResolver Resolve,
                            FunctionHandler OnFunction, RecordSpan Span = {});

/// Decodes every function record of a section's contents. Fails with a
/// DecodeError on the first malformed record; nothing partial is returned.
llvm::Expected<std::vector<FunctionMap>>
decodeBBAddrMap(llvm::ArrayRef<uint8_t> Contents, const DecodeOptions &Opts,
                AddressResolver Resolve);

} // namespace bbmap

#endif // BBMAP_BBADDRMAP_BBADDRMAPDECODER_H
