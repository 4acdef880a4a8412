//===- Format.h - .llvm_bb_addr_map format constants ------------*- C++ -*-===//
//
// The one description of the basic-block address map encoding shared by the
// plugin (which writes it) and bbmap-dump (which reads it): section types,
// feature and metadata bits, and which fields each encoding version carries.
// See docs/formats.md for the byte layout.
//
// Threading: constants and constexpr functions only: any thread may use them.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_FORMAT_H
#define BBMAP_FORMAT_H

#include <cstdint>
#include <string_view>

namespace bbmap {

/// Section name shared by every encoding.
inline constexpr std::string_view SectionName = ".llvm_bb_addr_map";
/// Legacy section type (LLVM 12-14): no version or feature bytes, no IDs,
/// block offsets measured from the function start.
inline constexpr uint32_t SHT_BB_ADDR_MAP_V0 = 0x6fff4c08;
/// Versioned section type (LLVM 15+).
inline constexpr uint32_t SHT_BB_ADDR_MAP = 0x6fff4c0a;

/// Newest version bbmap knows how to write and read.
inline constexpr unsigned MaxVersion = 5;

/// Feature bits of the per-function feature field.
namespace feature {
inline constexpr uint16_t FuncEntryCount = 1u << 0;
inline constexpr uint16_t BBFreq = 1u << 1;
inline constexpr uint16_t BrProb = 1u << 2;
inline constexpr uint16_t MultiBBRange = 1u << 3;
inline constexpr uint16_t OmitBBEntries = 1u << 4;
inline constexpr uint16_t CallsiteEndOffsets = 1u << 5;
inline constexpr uint16_t BBHash = 1u << 6;
inline constexpr uint16_t PostLinkCfg = 1u << 7;
inline constexpr uint16_t PGOMask = FuncEntryCount | BBFreq | BrProb;
inline constexpr uint16_t KnownMask = 0xff;

/// Name of a single feature bit, as in LLVM's BBAddrMap::Features.
constexpr std::string_view name(uint16_t Bit) {
  switch (Bit) {
  case FuncEntryCount:
    return "FuncEntryCount";
  case BBFreq:
    return "BBFreq";
  case BrProb:
    return "BrProb";
  case MultiBBRange:
    return "MultiBBRange";
  case OmitBBEntries:
    return "OmitBBEntries";
  case CallsiteEndOffsets:
    return "CallsiteEndOffsets";
  case BBHash:
    return "BBHash";
  case PostLinkCfg:
    return "PostLinkCfg";
  default:
    return "unknown";
  }
}
} // namespace feature

/// Metadata bits of each block entry.
namespace metadata {
inline constexpr uint32_t HasReturn = 1u << 0;
inline constexpr uint32_t HasTailCall = 1u << 1;
inline constexpr uint32_t IsEHPad = 1u << 2;
inline constexpr uint32_t CanFallThrough = 1u << 3;
inline constexpr uint32_t HasIndirectBranch = 1u << 4;
inline constexpr uint32_t KnownMask = 0x1f;
} // namespace metadata

/// An encoding: the legacy V0 section type, or a version of the versioned
/// type. Every layout question about a record is answered here.
struct Encoding {
  bool LegacyType = false;
  uint8_t Version = 2;

  static constexpr Encoding legacy() { return {true, 0}; }
  static constexpr Encoding versioned(uint8_t V) { return {false, V}; }

  uint32_t sectionType() const {
    return LegacyType ? SHT_BB_ADDR_MAP_V0 : SHT_BB_ADDR_MAP;
  }
  /// Version byte and feature field precede the function address.
  bool hasHeader() const { return !LegacyType; }
  /// Size in bytes of the feature field (u16 from version 5 on).
  unsigned featureFieldSize() const { return Version >= 5 ? 2 : 1; }
  /// Each block entry starts with its ID.
  bool hasBlockIDs() const { return !LegacyType && Version >= 2; }
  /// Block offsets are measured from the function start rather than from
  /// the end of the previous block.
  bool offsetsFromFunctionStart() const { return LegacyType || Version == 0; }
  /// Lowest version that may carry feature bit \p Bit (one of feature::*).
  /// The legacy type carries none.
  static constexpr unsigned minVersionFor(uint16_t Bit) {
    switch (Bit) {
    case feature::CallsiteEndOffsets:
      return 3;
    case feature::BBHash:
      return 4;
    case feature::PostLinkCfg:
      return 5;
    default:
      return 2;
    }
  }
  /// True if every bit of \p Features is allowed in this encoding.
  bool allowsFeatures(uint16_t Features) const {
    if (Features == 0)
      return true;
    if (LegacyType || (Features & ~feature::KnownMask) ||
        (Version < 5 && Features > 0xff))
      return false;
    for (unsigned B = 0; B < 8; ++B)
      if ((Features & (1u << B)) && Version < minVersionFor(1u << B))
        return false;
    return true;
  }
};

} // namespace bbmap

#endif // BBMAP_FORMAT_H
