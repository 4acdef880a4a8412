//===- plugin/MapEmitter.cpp - one function's map record ------------------===//
//
// Writes a FunctionMap in any encoding: the legacy V0 type and versions 0-5.
// The field order follows docs/formats.md.
//
//===----------------------------------------------------------------------===//

#include "MapEmitter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/CodeGen/AsmPrinter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSymbolELF.h"
#include "llvm/Support/Casting.h"
#include <string>

using namespace llvm;

namespace bbmap {
namespace {

/// The map section for \p Text: linked to it, and in its COMDAT group if it
/// has one, exactly as MCObjectFileInfo::getBBAddrMapSection does in-tree.
MCSection *mapSectionFor(MCContext &Ctx, const MCSectionELF &Text,
                         Encoding Enc) {
  unsigned Flags = ELF::SHF_LINK_ORDER;
  StringRef Group;
  if (const MCSymbol *G = Text.getGroup()) {
    Group = G->getName();
    Flags |= ELF::SHF_GROUP;
  }
  return Ctx.getELFSection(SectionName.data(), Enc.sectionType(), Flags,
                           /*EntrySize=*/0, Group, /*IsComdat=*/true,
                           Text.getUniqueID(),
                           cast<MCSymbolELF>(Text.getBeginSymbol()));
}

class RecordWriter {
public:
  RecordWriter(AsmPrinter &AP, const FunctionMap &F, Encoding Enc)
      : AP(AP), OS(*AP.OutStreamer), F(F), Enc(Enc) {}

  void write() {
    writeHeader();
    for (const BlockRange &R : F.Ranges)
      writeRange(R);
    writePGOAnalysis();
  }

private:
  bool has(uint16_t Bit) const { return F.Features & Bit; }

  void uleb(uint64_t V, const char *What) {
    OS.AddComment(What);
    OS.emitULEB128IntValue(V);
  }

  void writeHeader() {
    if (!Enc.hasHeader())
      return;
    OS.AddComment("version");
    OS.emitInt8(Enc.Version);
    OS.AddComment("feature");
    if (Enc.featureFieldSize() == 2)
      OS.emitInt16(F.Features);
    else
      OS.emitInt8(F.Features);
    if (has(feature::MultiBBRange))
      uleb(F.Ranges.size(), "number of basic block ranges");
  }

  void writeRange(const BlockRange &R) {
    OS.AddComment(has(feature::MultiBBRange) ? "base address"
                                             : "function address");
    OS.emitSymbolValue(R.Base, AP.getPointerSize());
    uleb(R.Blocks.size(), "number of basic blocks");
    if (has(feature::OmitBBEntries))
      return;
    const MCSymbol *PrevEnd = R.Base;
    for (const BlockEntry &B : R.Blocks) {
      writeBlock(B, Enc.offsetsFromFunctionStart() ? R.Base : PrevEnd);
      PrevEnd = B.End;
    }
  }

  void writeBlock(const BlockEntry &B, const MCSymbol *OffsetBase) {
    if (Enc.hasBlockIDs())
      uleb(B.ID, "BB id");
    AP.emitLabelDifferenceAsULEB128(B.Begin, OffsetBase);
    const MCSymbol *SizeBase = B.Begin;
    if (has(feature::CallsiteEndOffsets)) {
      uleb(B.CallsiteEnds.size(), "number of callsites");
      for (const MCSymbol *CS : B.CallsiteEnds) {
        AP.emitLabelDifferenceAsULEB128(CS, SizeBase);
        SizeBase = CS;
      }
    }
    AP.emitLabelDifferenceAsULEB128(B.End, SizeBase);
    uleb(B.Metadata, "metadata");
    if (has(feature::BBHash)) {
      OS.AddComment("hash");
      OS.emitInt64(B.Hash);
    }
  }

  void writePGOAnalysis() {
    if (has(feature::FuncEntryCount))
      uleb(F.EntryCount, "function entry count");
    if (!has(feature::BBFreq) && !has(feature::BrProb))
      return;
    for (const BlockRange &R : F.Ranges)
      for (const BlockEntry &B : R.Blocks) {
        if (has(feature::BBFreq))
          uleb(B.Frequency, "basic block frequency");
        if (!has(feature::BrProb))
          continue;
        uleb(B.Successors.size(), "basic block successor count");
        for (auto [ID, Prob] : B.Successors) {
          uleb(ID, "successor BB ID");
          uleb(Prob, "successor branch probability");
        }
      }
  }

  AsmPrinter &AP;
  MCStreamer &OS;
  const FunctionMap &F;
  Encoding Enc;
};

#if LLVM_VERSION_MAJOR < 20
/// LLVM 19 prints the legacy type as "@llvm_bb_addr_map_v0", which its own
/// assembler rejects. For textual output, spell the section switch with the
/// numeric type, which every assembler accepts.
bool needsNumericLegacyType(const MCStreamer &OS, Encoding Enc) {
  return Enc.LegacyType && OS.hasRawTextSupport();
}

std::string legacySectionDirective(const MCSectionELF &Text) {
  const MCSymbol *Group = Text.getGroup();
  std::string D = ".pushsection " + std::string(SectionName) + ",\"o";
  D += Group ? "G\"" : "\"";
  D += ",@0x" + utohexstr(SHT_BB_ADDR_MAP_V0, /*LowerCase=*/true) + "," +
       Text.getBeginSymbol()->getName().str();
  if (Group)
    D += "," + Group->getName().str() + ",comdat";
  if (Text.getUniqueID() != MCSection::NonUniqueID)
    D += ",unique," + std::to_string(Text.getUniqueID());
  return D;
}
#endif

} // namespace

void emitFunctionMap(AsmPrinter &AP, const MCSectionELF &Text,
                     const FunctionMap &F, Encoding Enc) {
  MCStreamer &OS = *AP.OutStreamer;
#if LLVM_VERSION_MAJOR < 20
  if (needsNumericLegacyType(OS, Enc)) {
    OS.emitRawText(legacySectionDirective(Text));
    RecordWriter(AP, F, Enc).write();
    OS.emitRawText(".popsection");
    return;
  }
#endif
  OS.pushSection();
  OS.switchSection(mapSectionFor(AP.OutContext, Text, Enc));
  RecordWriter(AP, F, Enc).write();
  OS.popSection();
}

} // namespace bbmap
