//===- BBAddrMapDecoder.cpp - .llvm_bb_addr_map decoder -------------------===//
//
// Implementation of decodeBBAddrMap: a bounds-checked reader over the section
// bytes plus one decoding function per level of the record (function header,
// range, block, PGO block). Every count is checked against the bytes left
// before anything proportional to it is allocated.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BBAddrMap/BBAddrMapDecoder.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace bbmap {

namespace {

StringRef nameOf(uint16_t FeatureBit) {
  std::string_view Name = feature::name(FeatureBit);
  return StringRef(Name.data(), Name.size());
}

/// Decodes the records of one section.
class SectionDecoder {
public:
  SectionDecoder(ArrayRef<uint8_t> Contents, const DecodeOptions &Opts,
                 AddressResolver Resolve)
      : R(Contents, Opts.IsLittleEndian, Opts.AddressSize), Opts(Opts),
        Resolve(Resolve) {}

  Error run(FunctionHandler OnFunction, RecordSpan Span);

private:
  Error decodeHeader(FunctionMap &F);
  Error checkFeatures(const FunctionMap &F, uint64_t FeatureOffset);
  Expected<uint64_t> readAddress(StringRef What);
  Error decodeRanges(FunctionMap &F);
  Error decodeRange(FunctionMap &F, BlockRange &Range);
  /// What every block of a record holds, read once per range: the block
  /// loop then keeps it in registers (stores into the blocks could alias
  /// the record's byte-sized fields).
  struct BlockLayout {
    bool IDs;
    bool Callsites;
    bool Hash;
    bool OffsetsFromFunctionStart;
  };
  Error decodeBlock(const BlockLayout &L, uint32_t Index,
                    uint32_t &PrevEndOffset, BlockEntry &B);
  bool decodeBlockFast(const BlockLayout &L, uint32_t Index,
                       uint32_t &PrevEndOffset, BlockEntry &B);
  Error decodeCallsites(BlockEntry &B);
  uint64_t minBlockBytes(const FunctionMap &F) const;
  Error decodePGO(FunctionMap &F);
  Error decodePGOBlock(const FunctionMap &F, PGOBlock &B);

  ByteReader R;
  DecodeOptions Opts;
  AddressResolver Resolve;
};

Error SectionDecoder::run(FunctionHandler OnFunction, RecordSpan Span) {
  // One record object for the whole section: every field is rewritten for
  // each record, and the vectors keep their capacity.
  FunctionMap F;
  R.seek(std::min<uint64_t>(Span.Begin, R.size()));
  while (!R.atEnd() && R.tell() < Span.End) {
    F.SectionOffset = R.tell();
    if (Error E = decodeHeader(F))
      return E;
    if (Error E = decodeRanges(F))
      return E;
    if (Error E = decodePGO(F))
      return E;
    if (Error E = OnFunction(F))
      return E;
  }
  return Error::success();
}

Error SectionDecoder::decodeHeader(FunctionMap &F) {
  if (Opts.LegacyType) {
    F.Enc = Encoding::legacy();
    F.Features = 0;
    return Error::success();
  }
  uint64_t VersionOffset = R.tell();
  Expected<uint64_t> Version = R.fixed(1, "version");
  if (!Version)
    return Version.takeError();
  if (*Version > MaxVersion)
    return decodeError(VersionOffset, "unsupported version " + Twine(*Version));
  F.Enc = Encoding::versioned(*Version);
  uint64_t FeatureOffset = R.tell();
  Expected<uint64_t> Features =
      R.fixed(F.Enc.featureFieldSize(), "feature field");
  if (!Features)
    return Features.takeError();
  F.Features = *Features;
  return checkFeatures(F, FeatureOffset);
}

Error SectionDecoder::checkFeatures(const FunctionMap &F,
                                    uint64_t FeatureOffset) {
  if (uint16_t Unknown = F.Features & ~feature::KnownMask)
    return decodeError(FeatureOffset, "unknown feature bits " + hex(Unknown) +
                                          " in feature field " +
                                          hex(F.Features));
  for (unsigned Bit = 0; Bit < 16; ++Bit) {
    uint16_t Mask = 1u << Bit;
    unsigned MinVersion = Encoding::minVersionFor(Mask);
    if (F.has(Mask) && F.Enc.Version < MinVersion)
      return decodeError(FeatureOffset,
                         "feature " + nameOf(Mask) + " (" + hex(Mask) +
                             ") needs version " + Twine(MinVersion) +
                             " or later, record has version " +
                             Twine(static_cast<unsigned>(F.Enc.Version)));
  }
  return Error::success();
}

Expected<uint64_t> SectionDecoder::readAddress(StringRef What) {
  uint64_t Offset = R.tell();
  Expected<uint64_t> Stored = R.fixed(R.addressSize(), What);
  if (!Stored)
    return Stored.takeError();
  Expected<uint64_t> Address = Resolve(Offset, *Stored);
  if (!Address)
    return decodeError(Offset, What + ": " + toString(Address.takeError()));
  return *Address;
}

Error SectionDecoder::decodeRanges(FunctionMap &F) {
  uint64_t NumRanges = 1;
  if (F.has(feature::MultiBBRange)) {
    uint64_t Offset = R.tell();
    Expected<uint64_t> N = R.count("number of BB ranges", R.addressSize() + 1);
    if (!N)
      return N.takeError();
    if (*N == 0)
      return decodeError(Offset, "number of BB ranges is zero");
    NumRanges = *N;
  }
  F.Ranges.resize(NumRanges);
  for (BlockRange &Range : F.Ranges)
    if (Error E = decodeRange(F, Range))
      return E;
  return Error::success();
}

uint64_t SectionDecoder::minBlockBytes(const FunctionMap &F) const {
  // Offset, size and metadata are at least one byte each.
  uint64_t Bytes = 3;
  if (F.Enc.hasBlockIDs())
    ++Bytes;
  if (F.has(feature::CallsiteEndOffsets))
    ++Bytes;
  if (F.has(feature::BBHash))
    Bytes += 8;
  return Bytes;
}

Error SectionDecoder::decodeRange(FunctionMap &F, BlockRange &Range) {
  Range.AddressFieldOffset = R.tell();
  Expected<uint64_t> Base = readAddress("base address");
  if (!Base)
    return Base.takeError();
  Range.BaseAddress = *Base;
  bool Omit = F.has(feature::OmitBBEntries);
  Expected<uint64_t> N =
      R.count("number of blocks", Omit ? 0 : minBlockBytes(F));
  if (!N)
    return N.takeError();
  Range.NumBlocks = *N;
  if (Omit) {
    Range.Blocks.clear();
    return Error::success();
  }
  Range.Blocks.resize(Range.NumBlocks);
  const BlockLayout L{F.Enc.hasBlockIDs(), F.has(feature::CallsiteEndOffsets),
                      F.has(feature::BBHash), F.Enc.offsetsFromFunctionStart()};
  uint32_t PrevEndOffset = 0;
  for (uint32_t I = 0; I < Range.NumBlocks; ++I)
    if (!decodeBlockFast(L, I, PrevEndOffset, Range.Blocks[I]))
      if (Error E = decodeBlock(L, I, PrevEndOffset, Range.Blocks[I]))
        return E;
  return Error::success();
}

Error SectionDecoder::decodeCallsites(BlockEntry &B) {
  Expected<uint64_t> N = R.count("number of callsites", 1);
  if (!N)
    return N.takeError();
  uint32_t Last = 0;
  B.CallsiteEndOffsets.clear();
  B.CallsiteEndOffsets.reserve(*N);
  for (uint64_t I = 0; I < *N; ++I) {
    Expected<uint64_t> Delta = R.uleb("callsite end offset");
    if (!Delta)
      return Delta.takeError();
    Last += *Delta;
    B.CallsiteEndOffsets.push_back(Last);
  }
  return Error::success();
}

/// Reads a ULEB128 of at most five bytes and 32 bits at \p P, before
/// \p End. False for anything else (truncated, longer, larger): the checked
/// path then reads it and reports what is wrong.
static bool readULEB32(const uint8_t *&P, const uint8_t *End, uint64_t &V) {
  uint64_t Value = 0;
  for (unsigned Shift = 0; Shift < 35 && P != End; Shift += 7) {
    uint8_t Byte = *P++;
    Value |= uint64_t(Byte & 0x7f) << Shift;
    if (!(Byte & 0x80)) {
      V = Value;
      return Value <= UINT32_MAX;
    }
  }
  return false;
}

/// The common block, read through a local cursor that stays in a register
/// (the checked path keeps its position in memory, one dependent store and
/// load per field). Returns false, having moved nothing but B's fields, at
/// the first field that is not a plain valid value: decodeBlock then reads
/// the block again, with its checks and errors.
bool SectionDecoder::decodeBlockFast(const BlockLayout &L, uint32_t Index,
                                     uint32_t &PrevEndOffset, BlockEntry &B) {
  ArrayRef<uint8_t> Buf = R.buffer();
  const uint8_t *P = Buf.data() + R.tell();
  const uint8_t *End = Buf.data() + Buf.size();
  uint64_t ID = Index, Offset, Size, MD;
  if ((L.IDs && !readULEB32(P, End, ID)) || !readULEB32(P, End, Offset))
    return false;
  uint32_t LastCallsite = 0;
  B.CallsiteEndOffsets.clear();
  if (L.Callsites) {
    uint64_t N;
    if (!readULEB32(P, End, N) || N > uint64_t(End - P))
      return false;
    for (uint64_t I = 0; I < N; ++I) {
      uint64_t Delta;
      if (!readULEB32(P, End, Delta))
        return false;
      LastCallsite += Delta;
      B.CallsiteEndOffsets.push_back(LastCallsite);
    }
  }
  if (!readULEB32(P, End, Size) || !readULEB32(P, End, MD) ||
      (MD & ~metadata::KnownMask))
    return false;
  B.Hash = 0;
  if (L.Hash) {
    if (End - P < 8)
      return false;
    B.Hash = Opts.IsLittleEndian ? support::endian::read64le(P)
                                 : support::endian::read64be(P);
    P += 8;
  }
  B.ID = ID;
  B.Metadata = MD;
  B.Size = static_cast<uint32_t>(Size) + LastCallsite;
  B.Offset = Offset;
  if (!L.OffsetsFromFunctionStart) {
    B.Offset += PrevEndOffset;
    PrevEndOffset = B.Offset + B.Size;
  }
  R.seek(P - Buf.data());
  return true;
}

Error SectionDecoder::decodeBlock(const BlockLayout &L, uint32_t Index,
                                  uint32_t &PrevEndOffset, BlockEntry &B) {
  B.ID = Index;
  if (L.IDs) {
    Expected<uint64_t> ID = R.uleb("block ID");
    if (!ID)
      return ID.takeError();
    B.ID = *ID;
  }
  Expected<uint64_t> Offset = R.uleb("block offset");
  if (!Offset)
    return Offset.takeError();
  if (L.Callsites) {
    if (Error E = decodeCallsites(B))
      return E;
  } else {
    B.CallsiteEndOffsets.clear();
  }
  Expected<uint64_t> Size = R.uleb("block size");
  if (!Size)
    return Size.takeError();
  uint64_t MetadataOffset = R.tell();
  Expected<uint64_t> MD = R.uleb("block metadata");
  if (!MD)
    return MD.takeError();
  if (uint32_t Unknown = *MD & ~metadata::KnownMask)
    return decodeError(MetadataOffset, "unknown metadata bits " + hex(Unknown) +
                                           " in block metadata " + hex(*MD));
  B.Metadata = *MD;
  B.Hash = 0;
  if (L.Hash) {
    Expected<uint64_t> Hash = R.fixed(8, "block hash");
    if (!Hash)
      return Hash.takeError();
    B.Hash = *Hash;
  }
  // Sizes and offsets wrap at 32 bits exactly as in LLVM's decoder.
  uint32_t LastCallsite =
      B.CallsiteEndOffsets.empty() ? 0 : B.CallsiteEndOffsets.back();
  B.Size = static_cast<uint32_t>(*Size) + LastCallsite;
  B.Offset = *Offset;
  if (!L.OffsetsFromFunctionStart) {
    B.Offset += PrevEndOffset;
    PrevEndOffset = B.Offset + B.Size;
  }
  return Error::success();
}

Error SectionDecoder::decodePGO(FunctionMap &F) {
  if (!(F.Features & feature::PGOMask)) {
    F.PGO.reset();
    return Error::success();
  }
  PGOAnalysis &PGO = F.PGO ? *F.PGO : F.PGO.emplace();
  PGO.FuncEntryCount = 0;
  if (F.has(feature::FuncEntryCount)) {
    Expected<uint64_t> Count = R.uleb("function entry count", UINT64_MAX);
    if (!Count)
      return Count.takeError();
    PGO.FuncEntryCount = *Count;
  }
  if (!F.has(feature::BBFreq) && !F.has(feature::BrProb)) {
    PGO.Blocks.clear();
    return Error::success();
  }
  size_t NumBlocks = 0;
  for (const BlockRange &Range : F.Ranges)
    NumBlocks += Range.Blocks.size();
  PGO.Blocks.resize(NumBlocks);
  for (PGOBlock &B : PGO.Blocks)
    if (Error E = decodePGOBlock(F, B))
      return E;
  return Error::success();
}

Error SectionDecoder::decodePGOBlock(const FunctionMap &F, PGOBlock &B) {
  bool PostLink = F.has(feature::PostLinkCfg);
  B.BBFreq = 0;
  B.PostLinkBBFreq = 0;
  B.Successors.clear();
  if (F.has(feature::BBFreq)) {
    Expected<uint64_t> Freq = R.uleb("block frequency", UINT64_MAX);
    if (!Freq)
      return Freq.takeError();
    B.BBFreq = *Freq;
  }
  if (PostLink) {
    Expected<uint64_t> Freq = R.uleb("post-link block frequency");
    if (!Freq)
      return Freq.takeError();
    B.PostLinkBBFreq = *Freq;
  }
  if (!F.has(feature::BrProb))
    return Error::success();
  Expected<uint64_t> N =
      R.count("number of successors", PostLink ? 3 : 2, UINT64_MAX);
  if (!N)
    return N.takeError();
  B.Successors.resize(*N);
  for (PGOSuccessor &S : B.Successors) {
    Expected<uint64_t> ID = R.uleb("successor ID");
    if (!ID)
      return ID.takeError();
    Expected<uint64_t> Prob = R.uleb("branch probability");
    if (!Prob)
      return Prob.takeError();
    S.ID = *ID;
    S.BrProb = *Prob;
    if (!PostLink)
      continue;
    Expected<uint64_t> Freq = R.uleb("post-link edge frequency");
    if (!Freq)
      return Freq.takeError();
    S.PostLinkBrFreq = *Freq;
  }
  return Error::success();
}

} // namespace

Error decodeBBAddrMap(ArrayRef<uint8_t> Contents, const DecodeOptions &Opts,
                      AddressResolver Resolve, FunctionHandler OnFunction,
                      RecordSpan Span) {
  return SectionDecoder(Contents, Opts, Resolve).run(OnFunction, Span);
}

Expected<std::vector<FunctionMap>> decodeBBAddrMap(ArrayRef<uint8_t> Contents,
                                                   const DecodeOptions &Opts,
                                                   AddressResolver Resolve) {
  std::vector<FunctionMap> Functions;
  if (Error E =
          decodeBBAddrMap(Contents, Opts, Resolve, [&](const FunctionMap &F) {
            Functions.push_back(F);
            return Error::success();
          }))
    return E;
  return Functions;
}

} // namespace bbmap
