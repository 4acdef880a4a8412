//===- BATDecoderTest.cpp - both formats: round trips, truncation ---------===//
//
// decodeBATAs and decodeBAT on descriptors written by an encoder of the
// test's own, made from docs/bat.md: random tables of both formats (cold
// fragments, implied entries, block hashes and indices, secondary entry
// points; both byte orders) decode to the tables they were written from,
// and the trial picks the format that parses; every proper prefix fails
// with a DecodeError at an offset within the prefix, moved by the
// descriptor's base offset; the exact error of each malformed field; and
// the order BOLT's reader keeps fragments and entries in.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BAT/BATDecoder.h"
#include "TestUtil.h"
#include "llvm/Support/LEB128.h"
#include "gtest/gtest.h"
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace bbmap;

namespace {

/// Descriptor bytes in one byte order.
struct Encoder {
  bool IsLittleEndian;
  std::vector<uint8_t> Bytes;

  void uleb(uint64_t V) {
    uint8_t Buf[16];
    Bytes.insert(Bytes.end(), Buf, Buf + encodeULEB128(V, Buf));
  }
  void sleb(int64_t V) {
    uint8_t Buf[16];
    Bytes.insert(Bytes.end(), Buf, Buf + encodeSLEB128(V, Buf));
  }
  void fixed(uint64_t V, unsigned Size) {
    for (unsigned I = 0; I < Size; ++I)
      Bytes.push_back(uint8_t(V >> 8 * (IsLittleEndian ? I : Size - 1 - I)));
  }
};

/// The BOLT 15/16 layout of \p T; sets the record offsets.
std::vector<uint8_t> encodeFixed(BATTable &T, bool IsLittleEndian) {
  Encoder E{IsLittleEndian, {}};
  E.fixed(T.Functions.size(), 4);
  for (BATFunction &F : T.Functions) {
    F.RecordOffset = E.Bytes.size();
    E.fixed(F.Address, 8);
    E.fixed(F.Entries.size(), 4);
    for (const BATEntry &En : F.Entries) {
      E.fixed(En.OutputOffset, 4);
      E.fixed(En.InputOffset | (En.IsBranch ? 0x80000000u : 0), 4);
    }
  }
  E.fixed(T.ColdLinks.size(), 4);
  for (BATColdLink &L : T.ColdLinks) {
    L.RecordOffset = E.Bytes.size();
    E.fixed(L.ColdAddress, 8);
    E.fixed(L.HotAddress, 8);
  }
  return E.Bytes;
}

/// The BOLT 19/22 layout of \p T (hot fragments first, then cold ones, as
/// its Functions are); sets the record offsets. The first \p Equal[I]
/// entries of fragment I are implied.
std::vector<uint8_t> encodeDelta(BATTable &T, bool IsLittleEndian,
                                 const std::vector<unsigned> &Equal) {
  Encoder E{IsLittleEndian, {}};
  uint64_t Running = 0;
  size_t Hot = 0;
  while (Hot < T.Functions.size() && !T.Functions[Hot].isCold())
    ++Hot;
  size_t ColdLink = 0;
  for (bool Cold : {false, true}) {
    size_t Begin = Cold ? Hot : 0, End = Cold ? T.Functions.size() : Hot;
    E.uleb(End - Begin);
    uint64_t PrevHotIndex = 0;
    for (size_t I = Begin; I < End; ++I) {
      BATFunction &F = T.Functions[I];
      F.RecordOffset = E.Bytes.size();
      E.uleb(F.Address - Running);
      Running = F.Address;
      if (Cold) {
        E.uleb(F.HotIndex - PrevHotIndex);
        PrevHotIndex = F.HotIndex;
        E.uleb(F.InputSkew);
        T.ColdLinks[ColdLink++].RecordOffset = F.RecordOffset;
      } else {
        E.fixed(F.Hash, 8);
        E.uleb(F.NumBlocks);
        E.uleb(F.SecondaryEntryPoints.size());
      }
      E.uleb(F.Entries.size());
      E.uleb(Equal[I]);
      for (unsigned J = 0; J < Equal[I]; J += 8) {
        uint8_t Bits = 0;
        for (unsigned K = J; K < std::min(J + 8, Equal[I]); ++K)
          Bits |= F.Entries[K].IsBranch << (K - J);
        E.Bytes.push_back(Bits);
      }
      uint64_t InValue = 0, BBIndex = 0;
      for (unsigned J = 0; J < F.Entries.size(); ++J) {
        const BATEntry &En = F.Entries[J];
        E.uleb(F.Address + En.OutputOffset - Running);
        Running = F.Address + En.OutputOffset;
        uint64_t Value = En.InputOffset << 1 | En.IsBranch;
        if (J >= Equal[I])
          E.sleb(int64_t(Value - InValue));
        InValue = Value;
        if (En.IsBranch)
          continue;
        E.fixed(En.BBHash, 8);
        E.uleb(En.BBIndex - BBIndex);
        BBIndex = En.BBIndex;
      }
      uint32_t Entry = 0;
      for (uint32_t Offset : F.SecondaryEntryPoints) {
        E.uleb(uint32_t(Offset - Entry));
        Entry = Offset;
      }
    }
  }
  return E.Bytes;
}

class TableMaker {
public:
  explicit TableMaker(uint64_t Seed) : Rng(Seed) {}

  /// A random table of \p Fmt; \p Equal receives each fragment's number
  /// of implied entries (delta format).
  BATTable make(BATFormat Fmt, std::vector<unsigned> &Equal) {
    BATTable T;
    T.Format = Fmt;
    if (Fmt == BATFormat::Fixed)
      return makeFixed(T);
    unsigned Hot = below(5), Cold = Hot ? below(4) : 0;
    for (unsigned I = 0; I < Hot + Cold; ++I) {
      BATFunction &F = T.Functions.emplace_back();
      F.Address = address();
      if (I >= Hot) {
        F.HotIndex = below(Hot);
        F.ParentAddress = T.Functions[F.HotIndex].Address;
        F.InputSkew = below(2) ? below(100) : below(1u << 30);
        T.ColdLinks.push_back({0, F.Address, *F.ParentAddress});
      } else {
        F.Hash = Rng();
        F.NumBlocks = below(2) ? below(50) : uint32_t(Rng());
        for (unsigned S = below(3); S; --S)
          F.SecondaryEntryPoints.push_back(uint32_t(Rng()));
      }
      unsigned N = below(12);
      Equal.push_back(below(N + 1));
      uint64_t BBIndex = 0;
      for (unsigned J = 0; J < N; ++J) {
        BATEntry &E = F.Entries.emplace_back();
        E.IsBranch = below(3) == 0;
        if (J < Equal.back()) {
          E.OutputOffset = below(1u << 30);
          E.InputOffset = E.OutputOffset + F.InputSkew;
        } else {
          E.OutputOffset = below(4) ? below(4096) : uint32_t(Rng());
          E.InputOffset = below(1u << 31);
        }
        if (!E.IsBranch) {
          E.BBHash = Rng();
          E.BBIndex = BBIndex += below(4) ? below(5) : Rng();
        }
      }
    }
    return T;
  }

private:
  BATTable &makeFixed(BATTable &T) {
    for (unsigned I = below(5); I; --I) {
      BATFunction &F = T.Functions.emplace_back();
      // Some fragments share an address.
      F.Address = below(4) || T.Functions.size() == 1
                      ? address()
                      : T.Functions.front().Address;
      for (unsigned J = below(8); J; --J)
        F.Entries.push_back(
            {uint32_t(Rng()), below(1u << 31), below(2) == 0, 0, 0});
    }
    for (unsigned I = below(4); I; --I) {
      uint64_t Cold = !T.Functions.empty() && below(3)
                          ? T.Functions[below(T.Functions.size())].Address
                          : address();
      T.ColdLinks.push_back({0, Cold, address()});
    }
    // What the decoder links: each fragment named by a pair, the last.
    for (BATFunction &F : T.Functions)
      for (const BATColdLink &L : T.ColdLinks)
        if (L.ColdAddress == F.Address)
          F.ParentAddress = L.HotAddress;
    return T;
  }

  uint32_t below(uint32_t N) { return Rng() % N; }
  uint64_t address() { return below(2) ? 0x400000 + below(1 << 20) : Rng(); }

  std::mt19937_64 Rng;
};

void expectSame(const BATTable &Got, const BATTable &Want) {
  EXPECT_EQ(Got.Format, Want.Format);
  ASSERT_EQ(Got.Functions.size(), Want.Functions.size());
  for (size_t I = 0; I < Got.Functions.size(); ++I) {
    SCOPED_TRACE("fragment " + std::to_string(I));
    const BATFunction &G = Got.Functions[I], &W = Want.Functions[I];
    EXPECT_EQ(G.RecordOffset, W.RecordOffset);
    EXPECT_EQ(G.Address, W.Address);
    EXPECT_EQ(G.ParentAddress, W.ParentAddress);
    EXPECT_EQ(G.Hash, W.Hash);
    EXPECT_EQ(G.NumBlocks, W.NumBlocks);
    EXPECT_EQ(G.SecondaryEntryPoints, W.SecondaryEntryPoints);
    EXPECT_EQ(G.HotIndex, W.HotIndex);
    EXPECT_EQ(G.InputSkew, W.InputSkew);
    ASSERT_EQ(G.Entries.size(), W.Entries.size());
    for (size_t J = 0; J < G.Entries.size(); ++J) {
      const BATEntry &GE = G.Entries[J], &WE = W.Entries[J];
      EXPECT_EQ(GE.OutputOffset, WE.OutputOffset) << "entry " << J;
      EXPECT_EQ(GE.InputOffset, WE.InputOffset) << "entry " << J;
      EXPECT_EQ(GE.IsBranch, WE.IsBranch) << "entry " << J;
      EXPECT_EQ(GE.BBHash, WE.BBHash) << "entry " << J;
      EXPECT_EQ(GE.BBIndex, WE.BBIndex) << "entry " << J;
    }
  }
  ASSERT_EQ(Got.ColdLinks.size(), Want.ColdLinks.size());
  for (size_t I = 0; I < Got.ColdLinks.size(); ++I) {
    EXPECT_EQ(Got.ColdLinks[I].RecordOffset, Want.ColdLinks[I].RecordOffset);
    EXPECT_EQ(Got.ColdLinks[I].ColdAddress, Want.ColdLinks[I].ColdAddress);
    EXPECT_EQ(Got.ColdLinks[I].HotAddress, Want.ColdLinks[I].HotAddress);
  }
}

/// A random table, encoded.
struct Descriptor {
  BATTable Table;
  std::vector<uint8_t> Bytes;
  bool IsLittleEndian;
};

Descriptor makeDescriptor(uint64_t Seed, BATFormat Fmt) {
  TableMaker Maker(Seed);
  Descriptor D;
  D.IsLittleEndian = Seed % 2;
  std::vector<unsigned> Equal;
  D.Table = Maker.make(Fmt, Equal);
  D.Bytes = Fmt == BATFormat::Fixed
                ? encodeFixed(D.Table, D.IsLittleEndian)
                : encodeDelta(D.Table, D.IsLittleEndian, Equal);
  return D;
}

/// \p T with every record offset moved by \p Base.
BATTable moved(BATTable T, uint64_t Base) {
  for (BATFunction &F : T.Functions)
    F.RecordOffset += Base;
  for (BATColdLink &L : T.ColdLinks)
    L.RecordOffset += Base;
  return T;
}

TEST(BATDecoderTest, RoundTrip) {
  for (BATFormat Fmt : {BATFormat::Fixed, BATFormat::Delta})
    for (uint64_t Seed = 0; Seed < 2000; ++Seed) {
      SCOPED_TRACE(formatName(Fmt).str() + ", seed " + std::to_string(Seed));
      Descriptor D = makeDescriptor(Seed, Fmt);
      BBMAP_ASSERT_VALUE(Got, decodeBATAs(D.Bytes, D.IsLittleEndian, Fmt));
      expectSame(*Got, D.Table);
      BBMAP_ASSERT_VALUE(At, decodeBATAs(D.Bytes, D.IsLittleEndian, Fmt, 0x14));
      expectSame(*At, moved(D.Table, 0x14));
      // The trial takes the fixed format whenever it parses.
      BATFormat Other =
          Fmt == BATFormat::Fixed ? BATFormat::Delta : BATFormat::Fixed;
      Expected<BATTable> AsOther =
          decodeBATAs(D.Bytes, D.IsLittleEndian, Other);
      BATFormat Picked = Fmt;
      if (AsOther && Other == BATFormat::Fixed)
        Picked = Other;
      consumeError(AsOther.takeError());
      BBMAP_ASSERT_VALUE(Tried, decodeBAT(D.Bytes, D.IsLittleEndian));
      EXPECT_EQ(Tried->Format, Picked);
      if (HasFailure())
        return;
    }
}

TEST(BATDecoderTest, TruncatedAtEveryLength) {
  for (BATFormat Fmt : {BATFormat::Fixed, BATFormat::Delta})
    for (uint64_t Seed = 100; Seed < 400; ++Seed) {
      SCOPED_TRACE(formatName(Fmt).str() + ", seed " + std::to_string(Seed));
      Descriptor D = makeDescriptor(Seed, Fmt);
      for (size_t Len = 0; Len < D.Bytes.size(); ++Len) {
        ArrayRef<uint8_t> Prefix = ArrayRef<uint8_t>(D.Bytes).take_front(Len);
        Failure F = failureOf(decodeBATAs(Prefix, D.IsLittleEndian, Fmt, 0x14));
        EXPECT_GE(F.Offset, 0x14u) << "length " << Len;
        EXPECT_LE(F.Offset, 0x14 + Len) << "length " << Len << ": " << F.Reason;
        // The trial gives both reasons when neither format fits.
        Expected<BATTable> Tried = decodeBAT(Prefix, D.IsLittleEndian);
        if (!Tried) {
          EXPECT_EQ(toString(Tried.takeError())
                        .rfind("neither BAT format fits the " +
                                   std::to_string(Len) +
                                   "-byte descriptor: as BOLT 15/16: offset ",
                               0),
                    0u);
        }
        if (HasFailure())
          return;
      }
    }
}

/// The DecodeError of \p Bytes as \p Fmt, little-endian.
Failure errorOf(BATFormat Fmt, std::vector<uint8_t> Bytes) {
  return failureOf(decodeBATAs(Bytes, true, Fmt));
}

TEST(BATDecoderTest, MalformedFixed) {
  // Two functions need at least 24 bytes.
  Failure F = errorOf(BATFormat::Fixed, {2, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(F.Offset, 0u);
  EXPECT_EQ(F.Reason, "number of functions 2 needs at least 24 bytes, 4 left");
  // No function, no pair, one byte too many.
  F = errorOf(BATFormat::Fixed, {0, 0, 0, 0, 0, 0, 0, 0, 7});
  EXPECT_EQ(F.Offset, 8u);
  EXPECT_EQ(F.Reason, "1 bytes left after the last table");
  F = errorOf(BATFormat::Fixed, {0, 0, 0, 0, 1, 0, 0, 0, 1, 2});
  EXPECT_EQ(F.Offset, 4u);
  EXPECT_EQ(F.Reason,
            "number of cold-to-hot pairs 1 needs at least 16 bytes, 2 left");
}

TEST(BATDecoderTest, MalformedDelta) {
  struct Case {
    std::vector<uint8_t> Bytes;
    uint64_t Offset;
    const char *Reason;
  } Cases[] = {
      // No hot function; a cold one pointing at hot index 0.
      {{0, 1, 0, 0, 0, 0, 0},
       3,
       "hot index 0 is out of range: there are 0 hot functions"},
      // One hot function, 1 entry, 2 implied.
      {{1, 0x10, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 1, 2, 0, 0},
       13,
       "number of equal offsets 2 exceeds the number of entries 1"},
      // An entry 2^32 past its function.
      {{1, 0x10, 1, 2,    3,    4,    5,    6,    7, 8, 0,
        0, 1,    0, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 0},
       14,
       "output address 0x100000010 is not within 4 GiB above the "
       "function address 0x10"},
      // An input value above UINT32_MAX (SLEB 2^32).
      {{1, 0x10, 1, 2, 3,    4,    5,    6,    7,    8, 0,
        0, 1,    0, 0, 0x80, 0x80, 0x80, 0x80, 0x10, 0},
       14,
       "input value 0x100000000 exceeds UINT32_MAX"},
      // A block entry's hash cut short.
      {{1, 0x10, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 1, 0, 0, 2, 9, 9},
       16,
       "truncated block hash: needs 8 bytes, 2 left"},
      // The implied flags' byte missing.
      {{1, 0x10, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 1, 1},
       14,
       "truncated branch entry bitmask: needs 1 bytes, 0 left"},
      // Two empty tables, then a byte.
      {{0, 0, 0}, 2, "1 bytes left after the last table"},
      {{3, 0}, 0, "number of hot functions 3 needs at least 39 bytes, 1 left"},
  };
  for (const Case &C : Cases) {
    Failure F = errorOf(BATFormat::Delta, C.Bytes);
    EXPECT_EQ(F.Offset, C.Offset) << C.Reason;
    EXPECT_EQ(F.Reason, C.Reason);
  }
}

TEST(BATDecoderTest, BoltOrder) {
  BATTable T;
  T.Format = BATFormat::Fixed;
  for (uint64_t Address : {0x30, 0x10, 0x30, 0x20}) {
    BATFunction &F = T.Functions.emplace_back();
    F.Address = Address;
    F.RecordOffset = T.Functions.size();
  }
  std::vector<uint64_t> Order;
  for (const BATFunction *F : boltOrder(T))
    Order.push_back(F->Address << 8 | F->RecordOffset);
  // Ascending, the first record of each address.
  EXPECT_EQ(Order, (std::vector<uint64_t>{0x1002, 0x2004, 0x3001}));

  BATFunction F;
  for (uint32_t Out : {8, 0, 8, 4, 0})
    F.Entries.push_back({Out, F.Entries.size(), false, 0, 0});
  auto Keys = [&](BATFormat Fmt) {
    std::vector<uint64_t> K;
    for (const BATEntry *E : boltOrder(F, Fmt))
      K.push_back(E->OutputOffset << 8 | E->InputOffset);
    return K;
  };
  // Stable by output offset: all of them (multimap) or the first (map).
  EXPECT_EQ(Keys(BATFormat::Delta),
            (std::vector<uint64_t>{0x001, 0x004, 0x403, 0x800, 0x802}));
  EXPECT_EQ(Keys(BATFormat::Fixed),
            (std::vector<uint64_t>{0x001, 0x403, 0x800}));
}

} // namespace
