//===- BBAddrMapDecoderTest.cpp - round trips, truncation, errors ---------===//
//
// decodeBBAddrMap on sections written by an encoder of the test's own,
// made from docs/formats.md: random records of every encoding (legacy
// type, versions 0 to 5, every feature a version allows, both byte orders,
// 4- and 8-byte addresses) decode to the records they were written from;
// every proper prefix of such a section either ends at a record boundary
// and decodes to the records before it, or fails with a DecodeError whose
// offset lies in the record it cut; runs of records (RecordSpan); the
// resolver's errors; and the exact error of each malformed field.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BBAddrMap/BBAddrMapDecoder.h"
#include "TestUtil.h"
#include "llvm/Support/LEB128.h"
#include "gtest/gtest.h"
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace bbmap;

namespace {

/// Section bytes, in the byte order and address size of the options.
class Encoder {
public:
  explicit Encoder(const DecodeOptions &Opts) : Opts(Opts) {}

  std::vector<uint8_t> Bytes;

  void uleb(uint64_t V) {
    uint8_t Buf[16];
    unsigned N = encodeULEB128(V, Buf);
    Bytes.insert(Bytes.end(), Buf, Buf + N);
  }
  void fixed(uint64_t V, unsigned Size) {
    for (unsigned I = 0; I < Size; ++I) {
      unsigned Shift = 8 * (Opts.IsLittleEndian ? I : Size - 1 - I);
      Bytes.push_back(uint8_t(V >> Shift));
    }
  }

  /// Writes \p F; returns the offsets of its address fields.
  std::vector<uint64_t> record(const FunctionMap &F) {
    std::vector<uint64_t> AddressFields;
    if (!F.Enc.LegacyType) {
      fixed(F.Enc.Version, 1);
      fixed(F.Features, F.Enc.featureFieldSize());
    }
    if (F.has(feature::MultiBBRange))
      uleb(F.Ranges.size());
    for (const BlockRange &R : F.Ranges) {
      AddressFields.push_back(Bytes.size());
      fixed(R.BaseAddress, Opts.AddressSize);
      uleb(R.NumBlocks);
      uint32_t PrevEnd = 0;
      for (const BlockEntry &B : R.Blocks) {
        if (F.Enc.hasBlockIDs())
          uleb(B.ID);
        uleb(F.Enc.offsetsFromFunctionStart() ? B.Offset : B.Offset - PrevEnd);
        uint32_t LastCall = 0;
        if (F.has(feature::CallsiteEndOffsets)) {
          uleb(B.CallsiteEndOffsets.size());
          for (uint32_t End : B.CallsiteEndOffsets) {
            uleb(uint32_t(End - LastCall));
            LastCall = End;
          }
        }
        uleb(uint32_t(B.Size - LastCall));
        uleb(B.Metadata);
        if (F.has(feature::BBHash))
          fixed(B.Hash, 8);
        PrevEnd = B.Offset + B.Size;
      }
    }
    if (F.PGO) {
      if (F.has(feature::FuncEntryCount))
        uleb(F.PGO->FuncEntryCount);
      for (const PGOBlock &B : F.PGO->Blocks) {
        if (F.has(feature::BBFreq))
          uleb(B.BBFreq);
        if (F.has(feature::PostLinkCfg))
          uleb(B.PostLinkBBFreq);
        if (!F.has(feature::BrProb))
          continue;
        uleb(B.Successors.size());
        for (const PGOSuccessor &S : B.Successors) {
          uleb(S.ID);
          uleb(S.BrProb);
          if (F.has(feature::PostLinkCfg))
            uleb(S.PostLinkBrFreq);
        }
      }
    }
    return AddressFields;
  }

private:
  DecodeOptions Opts;
};

/// Random records of one encoding.
class RecordMaker {
public:
  RecordMaker(uint64_t Seed, const DecodeOptions &Opts)
      : Rng(Seed), Opts(Opts) {}

  /// A record of \p Enc with \p Features, or features at random.
  FunctionMap make(Encoding Enc, std::optional<uint16_t> Features) {
    FunctionMap F;
    F.Enc = Enc;
    if (Features)
      F.Features = *Features;
    else if (!Enc.LegacyType)
      for (unsigned Bit = 0; Bit < 8; ++Bit)
        if (Enc.allowsFeatures(1u << Bit) && below(3) == 0)
          F.Features |= 1u << Bit;
    unsigned NumRanges = F.has(feature::MultiBBRange) ? 1 + below(3) : 1;
    size_t Blocks = 0;
    for (unsigned I = 0; I < NumRanges; ++I) {
      BlockRange &R = F.Ranges.emplace_back();
      R.BaseAddress = Opts.AddressSize == 4 ? uint32_t(Rng()) : Rng();
      R.NumBlocks = below(5);
      if (F.has(feature::OmitBBEntries)) {
        R.NumBlocks = below(3) ? R.NumBlocks : uint32_t(Rng());
        continue;
      }
      uint32_t PrevEnd = 0;
      for (uint32_t ID = 0; ID < R.NumBlocks; ++ID) {
        BlockEntry &B = R.Blocks.emplace_back();
        B.ID = Enc.hasBlockIDs() ? number() : ID;
        uint32_t LastCall = 0;
        if (F.has(feature::CallsiteEndOffsets))
          for (unsigned C = below(4); C; --C)
            B.CallsiteEndOffsets.push_back(LastCall += number());
        B.Size = number() + LastCall;
        B.Offset =
            Enc.offsetsFromFunctionStart() ? number() : PrevEnd + number();
        B.Metadata = below(metadata::KnownMask + 1);
        B.Hash = F.has(feature::BBHash) ? Rng() : 0;
        PrevEnd = B.Offset + B.Size;
      }
      Blocks += R.Blocks.size();
    }
    if (F.Features & feature::PGOMask) {
      PGOAnalysis &P = F.PGO.emplace();
      if (F.has(feature::FuncEntryCount))
        P.FuncEntryCount = big();
      if (F.has(feature::BBFreq) || F.has(feature::BrProb))
        P.Blocks.resize(Blocks);
      for (PGOBlock &B : P.Blocks) {
        if (F.has(feature::BBFreq))
          B.BBFreq = big();
        if (F.has(feature::PostLinkCfg))
          B.PostLinkBBFreq = number();
        if (!F.has(feature::BrProb))
          continue;
        for (unsigned S = below(3); S; --S)
          B.Successors.push_back(
              {number(), number(), F.has(feature::PostLinkCfg) ? number() : 0});
      }
    }
    return F;
  }

  /// One of the encodings, at random.
  Encoding encoding() {
    unsigned Pick = below(MaxVersion + 2);
    return Pick > MaxVersion ? Encoding::legacy() : Encoding::versioned(Pick);
  }

private:
  uint32_t below(uint32_t N) { return Rng() % N; }
  /// Mostly small, sometimes of five ULEB bytes.
  uint32_t number() { return below(8) ? below(300) : uint32_t(Rng()); }
  uint64_t big() { return below(4) ? below(1000) : Rng(); }

  std::mt19937_64 Rng;
  DecodeOptions Opts;
};

Expected<uint64_t> identity(uint64_t, uint64_t Stored) { return Stored; }

/// Checks that \p Got is \p Want, field by field.
void expectSame(const FunctionMap &Got, const FunctionMap &Want) {
  EXPECT_EQ(Got.SectionOffset, Want.SectionOffset);
  EXPECT_EQ(Got.Enc.LegacyType, Want.Enc.LegacyType);
  EXPECT_EQ(Got.Enc.Version, Want.Enc.Version);
  EXPECT_EQ(Got.Features, Want.Features);
  ASSERT_EQ(Got.Ranges.size(), Want.Ranges.size());
  for (size_t R = 0; R < Got.Ranges.size(); ++R) {
    const BlockRange &G = Got.Ranges[R], &W = Want.Ranges[R];
    EXPECT_EQ(G.BaseAddress, W.BaseAddress) << "range " << R;
    EXPECT_EQ(G.AddressFieldOffset, W.AddressFieldOffset) << "range " << R;
    EXPECT_EQ(G.NumBlocks, W.NumBlocks) << "range " << R;
    ASSERT_EQ(G.Blocks.size(), W.Blocks.size()) << "range " << R;
    for (size_t B = 0; B < G.Blocks.size(); ++B) {
      const BlockEntry &GB = G.Blocks[B], &WB = W.Blocks[B];
      EXPECT_EQ(GB.ID, WB.ID) << "block " << B;
      EXPECT_EQ(GB.Offset, WB.Offset) << "block " << B;
      EXPECT_EQ(GB.Size, WB.Size) << "block " << B;
      EXPECT_EQ(GB.Metadata, WB.Metadata) << "block " << B;
      EXPECT_EQ(GB.Hash, WB.Hash) << "block " << B;
      EXPECT_EQ(std::vector<uint32_t>(GB.CallsiteEndOffsets.begin(),
                                      GB.CallsiteEndOffsets.end()),
                std::vector<uint32_t>(WB.CallsiteEndOffsets.begin(),
                                      WB.CallsiteEndOffsets.end()))
          << "block " << B;
    }
  }
  ASSERT_EQ(Got.PGO.has_value(), Want.PGO.has_value());
  if (!Got.PGO)
    return;
  EXPECT_EQ(Got.PGO->FuncEntryCount, Want.PGO->FuncEntryCount);
  ASSERT_EQ(Got.PGO->Blocks.size(), Want.PGO->Blocks.size());
  for (size_t B = 0; B < Got.PGO->Blocks.size(); ++B) {
    const PGOBlock &G = Got.PGO->Blocks[B], &W = Want.PGO->Blocks[B];
    EXPECT_EQ(G.BBFreq, W.BBFreq) << "PGO block " << B;
    EXPECT_EQ(G.PostLinkBBFreq, W.PostLinkBBFreq) << "PGO block " << B;
    ASSERT_EQ(G.Successors.size(), W.Successors.size()) << "PGO block " << B;
    for (size_t S = 0; S < G.Successors.size(); ++S) {
      EXPECT_EQ(G.Successors[S].ID, W.Successors[S].ID);
      EXPECT_EQ(G.Successors[S].BrProb, W.Successors[S].BrProb);
      EXPECT_EQ(G.Successors[S].PostLinkBrFreq, W.Successors[S].PostLinkBrFreq);
    }
  }
}

/// A section of random records and the records it holds.
struct Section {
  DecodeOptions Opts;
  std::vector<uint8_t> Bytes;
  std::vector<FunctionMap> Records;
  /// Where each record starts, and the section's end.
  std::vector<uint64_t> Starts;
};

/// \p NumRecords random records, all of \p Enc and with \p Features when
/// given.
Section makeSection(uint64_t Seed, const DecodeOptions &Opts,
                    unsigned NumRecords, std::optional<Encoding> Enc = {},
                    std::optional<uint16_t> Features = {}) {
  RecordMaker Maker(Seed, Opts);
  Encoder E(Opts);
  Section S;
  S.Opts = Opts;
  // The legacy type is a property of the section.
  Encoding SectionEnc = Enc ? *Enc : Maker.encoding();
  if (Opts.LegacyType)
    SectionEnc = Encoding::legacy();
  for (unsigned I = 0; I < NumRecords; ++I) {
    Encoding RecordEnc = SectionEnc;
    if (!Enc && !Opts.LegacyType)
      while ((RecordEnc = Maker.encoding()).LegacyType)
        ;
    FunctionMap F = Maker.make(RecordEnc, Features);
    F.SectionOffset = E.Bytes.size();
    S.Starts.push_back(E.Bytes.size());
    std::vector<uint64_t> Fields = E.record(F);
    for (size_t R = 0; R < F.Ranges.size(); ++R)
      F.Ranges[R].AddressFieldOffset = Fields[R];
    S.Records.push_back(std::move(F));
  }
  S.Starts.push_back(E.Bytes.size());
  S.Bytes = std::move(E.Bytes);
  return S;
}

std::vector<DecodeOptions> everyLayout() {
  std::vector<DecodeOptions> Layouts;
  for (bool LE : {true, false})
    for (uint8_t Size : {8, 4})
      for (bool Legacy : {false, true})
        Layouts.push_back({LE, Size, Legacy});
  return Layouts;
}

TEST(BBAddrMapDecoderTest, RoundTrip) {
  uint64_t Seed = 0;
  for (const DecodeOptions &Opts : everyLayout())
    for (unsigned I = 0; I < 300; ++I) {
      Section S = makeSection(++Seed, Opts, 1 + I % 4);
      SCOPED_TRACE("seed " + std::to_string(Seed));
      BBMAP_ASSERT_VALUE(Got, decodeBBAddrMap(S.Bytes, Opts, identity));
      ASSERT_EQ(Got->size(), S.Records.size());
      for (size_t R = 0; R < Got->size(); ++R) {
        SCOPED_TRACE("record " + std::to_string(R));
        expectSame((*Got)[R], S.Records[R]);
      }
      if (HasFailure())
        return;
    }
}

TEST(BBAddrMapDecoderTest, EveryEncodingWithEveryFeature) {
  // Each version with every feature it allows, with and without
  // OmitBBEntries, in both byte orders.
  for (bool LE : {true, false})
    for (uint8_t V = 0; V <= MaxVersion; ++V)
      for (bool Omit : {false, true}) {
        Encoding Enc = Encoding::versioned(V);
        uint16_t All = 0;
        for (unsigned Bit = 0; Bit < 16; ++Bit)
          if (Enc.allowsFeatures(1u << Bit) &&
              (Omit || (1u << Bit) != feature::OmitBBEntries))
            All |= 1u << Bit;
        DecodeOptions Opts;
        Opts.IsLittleEndian = LE;
        Section S = makeSection(V, Opts, 10, Enc, All);
        SCOPED_TRACE("version " + std::to_string(V) + " features " +
                     std::to_string(All));
        BBMAP_ASSERT_VALUE(Got, decodeBBAddrMap(S.Bytes, Opts, identity));
        ASSERT_EQ(Got->size(), S.Records.size());
        for (size_t R = 0; R < Got->size(); ++R)
          expectSame((*Got)[R], S.Records[R]);
      }
}

TEST(BBAddrMapDecoderTest, TruncatedAtEveryLength) {
  uint64_t Seed = 1000;
  for (const DecodeOptions &Opts : everyLayout())
    for (unsigned I = 0; I < 40; ++I) {
      Section S = makeSection(++Seed, Opts, 3);
      SCOPED_TRACE("seed " + std::to_string(Seed));
      for (size_t Len = 0; Len < S.Bytes.size(); ++Len) {
        ArrayRef<uint8_t> Prefix = ArrayRef<uint8_t>(S.Bytes).take_front(Len);
        std::vector<FunctionMap> Got;
        Error E = decodeBBAddrMap(Prefix, Opts, identity, [&](FunctionMap &F) {
          Got.push_back(F);
          return Error::success();
        });
        // The records wholly inside the prefix were handed over.
        size_t Whole = 0;
        while (S.Starts[Whole + 1] <= Len)
          ++Whole;
        ASSERT_EQ(Got.size(), Whole) << "length " << Len;
        for (size_t R = 0; R < Whole; ++R)
          expectSame(Got[R], S.Records[R]);
        if (S.Starts[Whole] == Len) {
          EXPECT_FALSE(E) << "length " << Len << ": " << toString(std::move(E));
          continue;
        }
        Failure F = failureOf(std::move(E));
        EXPECT_GE(F.Offset, S.Starts[Whole]) << "length " << Len;
        EXPECT_LE(F.Offset, Len) << "length " << Len << ": " << F.Reason;
        if (HasFailure())
          return;
      }
    }
}

TEST(BBAddrMapDecoderTest, Spans) {
  Section S = makeSection(77, DecodeOptions(), 6);
  // Each run of whole records decodes to those records alone.
  for (size_t Begin = 0; Begin < 6; ++Begin)
    for (size_t End = Begin; End <= 6; ++End) {
      std::vector<FunctionMap> Got;
      ASSERT_FALSE(bool(decodeBBAddrMap(
          S.Bytes, S.Opts, identity,
          [&](FunctionMap &F) {
            Got.push_back(F);
            return Error::success();
          },
          RecordSpan{S.Starts[Begin], S.Starts[End]})));
      ASSERT_EQ(Got.size(), End - Begin);
      for (size_t R = 0; R < Got.size(); ++R)
        expectSame(Got[R], S.Records[Begin + R]);
    }
  // A span past the end decodes nothing.
  size_t Calls = 0;
  EXPECT_FALSE(bool(decodeBBAddrMap(
      S.Bytes, S.Opts, identity,
      [&](FunctionMap &) {
        ++Calls;
        return Error::success();
      },
      RecordSpan{S.Bytes.size() + 10, UINT64_MAX})));
  EXPECT_EQ(Calls, 0u);
}

TEST(BBAddrMapDecoderTest, HandlerAndResolverErrors) {
  Section S = makeSection(5, DecodeOptions(), 3, Encoding::versioned(2));
  // The handler's error stops decoding and comes back as it is.
  unsigned Calls = 0;
  Error E = decodeBBAddrMap(S.Bytes, S.Opts, identity, [&](FunctionMap &) {
    return ++Calls == 2 ? createStringError(inconvertibleErrorCode(), "stop")
                        : Error::success();
  });
  EXPECT_EQ(toString(std::move(E)), "stop");
  EXPECT_EQ(Calls, 2u);
  // The resolver's error names the address field.
  uint64_t Second = S.Records[1].Ranges[0].AddressFieldOffset;
  auto Resolve = [&](uint64_t Offset, uint64_t Stored) -> Expected<uint64_t> {
    if (Offset == Second)
      return createStringError(inconvertibleErrorCode(), "no relocation");
    return Stored + 1;
  };
  Failure F = failureOf(decodeBBAddrMap(S.Bytes, S.Opts, Resolve));
  EXPECT_EQ(F.Offset, Second);
  EXPECT_EQ(F.Reason, "base address: no relocation");
}

/// The DecodeError of decoding \p Bytes as one versioned section.
Failure errorOf(std::vector<uint8_t> Bytes, uint8_t AddressSize = 8) {
  DecodeOptions Opts;
  Opts.AddressSize = AddressSize;
  return failureOf(decodeBBAddrMap(Bytes, Opts, identity));
}

TEST(BBAddrMapDecoderTest, MalformedFields) {
  // Version 2, no features, address 0x10 (4 bytes), one block.
  std::vector<uint8_t> Good = {2, 0, 0x10, 0, 0, 0, 1, 0, 0, 4, 1};
  DecodeOptions Opts;
  Opts.AddressSize = 4;
  BBMAP_ASSERT_VALUE(Records, decodeBBAddrMap(Good, Opts, identity));
  ASSERT_EQ(Records->size(), 1u);
  EXPECT_EQ((*Records)[0].Ranges[0].Blocks[0].Size, 4u);

  struct Case {
    std::vector<uint8_t> Bytes;
    uint64_t Offset;
    const char *Reason;
  } Cases[] = {
      {{6, 0}, 0, "unsupported version 6"},
      {{2, 0x80},
       1,
       "feature PostLinkCfg (0x80) needs version 5 or later, record has "
       "version 2"},
      {{5, 0, 1}, 1, "unknown feature bits 0x100 in feature field 0x100"},
      {{2, 0x20},
       1,
       "feature CallsiteEndOffsets (0x20) needs version 3 or later, record "
       "has version 2"},
      {{1, 0x01},
       1,
       "feature FuncEntryCount (0x1) needs version 2 or later, record has "
       "version 1"},
      {{2, 0x08, 0}, 2, "number of BB ranges is zero"},
      {{2, 0x08, 2, 0, 0, 0, 0, 0},
       2,
       "number of BB ranges 2 needs at least 10 bytes, 5 left"},
      {{2, 0, 0x10, 0, 0, 0, 1, 0, 0, 4, 0x20},
       10,
       "unknown metadata bits 0x20 in block metadata 0x20"},
      {{2, 0, 0x10, 0, 0, 0, 2, 0, 0, 4, 1},
       6,
       "number of blocks 2 needs at least 8 bytes, 4 left"},
      {{2, 0, 0x10, 0, 0}, 2, "truncated base address: needs 4 bytes, 3 left"},
      {{2, 0, 0x10, 0, 0, 0, 1, 0x80, 0x80, 0x80, 0x80, 0x10, 0, 4, 1},
       7,
       "block ID 0x100000000 exceeds UINT32_MAX"},
      {{2, 0, 0x10, 0, 0, 0, 1, 0, 0, 0x84, 0x80},
       9,
       "truncated ULEB128 block size"},
      // Version 3 with callsites: a count the bytes left cannot hold.
      {{3, 0x20, 0x10, 0, 0, 0, 1, 0, 0, 9, 0, 0},
       9,
       "number of callsites 9 needs at least 9 bytes, 2 left"},
      // Version 4 with hashes: room for the block's smallest form, the
      // hash cut short (the size takes five bytes).
      {{4, 0x40, 0x10, 0, 0, 0, 1, 0, 0, 0x84, 0x80, 0x80, 0x80, 0, 1, 1, 2, 3,
        4},
       15,
       "truncated block hash: needs 8 bytes, 4 left"},
      {{4, 0x40, 0x10, 0, 0, 0, 1, 0, 0, 4, 1, 1, 2, 3},
       6,
       "number of blocks 1 needs at least 12 bytes, 7 left"},
      // PGO: an entry count past 64 bits.
      {{2, 0x01, 0x10, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0x7f},
       7,
       "ULEB128 function entry count does not fit in 64 bits"},
      // PGO: successors that cannot fit.
      {{2, 0x04, 0x10, 0, 0, 0, 1, 0, 0, 4, 1, 3, 0, 0},
       11,
       "number of successors 3 needs at least 6 bytes, 2 left"},
  };
  for (const Case &C : Cases) {
    Failure F = errorOf(C.Bytes, 4);
    EXPECT_EQ(F.Offset, C.Offset) << C.Reason;
    EXPECT_EQ(F.Reason, C.Reason);
  }
}

} // namespace
