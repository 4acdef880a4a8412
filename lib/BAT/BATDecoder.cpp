//===- BATDecoder.cpp - BOLT address translation decoder ------------------===//
//
// One decoder class per BAT encoding, both reading through ByteReader, plus
// the trial that picks the encoding. Counts are bounded by the bytes left;
// address and index deltas wrap modulo 2^64 as BOLT's writer produces them;
// offsets that BOLT keeps in 32 bits must fit in 32 bits.
//
//===----------------------------------------------------------------------===//

#include "bbmap/BAT/BATDecoder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include <algorithm>

using namespace llvm;

namespace bbmap {

StringRef formatName(BATFormat F) {
  return F == BATFormat::Fixed ? "BOLT 15/16" : "BOLT 19/22";
}

namespace {

/// Bit 31 of a fixed-format input value.
constexpr uint32_t FixedBranchEntry = 0x80000000u;

Error trailingBytes(const ByteReader &R) {
  if (R.atEnd())
    return Error::success();
  return decodeError(R.tell(),
                     Twine(R.bytesLeft()) + " bytes left after the last table");
}

/// Marks the fragments named by cold links as cold, with their parent.
void linkColdFragments(BATTable &T) {
  std::vector<std::pair<uint64_t, size_t>> ByAddress;
  ByAddress.reserve(T.Functions.size());
  for (size_t I = 0; I < T.Functions.size(); ++I)
    ByAddress.emplace_back(T.Functions[I].Address, I);
  llvm::sort(ByAddress);
  for (const BATColdLink &L : T.ColdLinks) {
    auto It =
        llvm::lower_bound(ByAddress, std::make_pair(L.ColdAddress, size_t(0)));
    for (; It != ByAddress.end() && It->first == L.ColdAddress; ++It)
      T.Functions[It->second].ParentAddress = L.HotAddress;
  }
}

/// The BOLT 15/16 layout: u32 NumFuncs, per function u64 address, u32
/// count and (u32 output offset, u32 input value) pairs, then u32 count and
/// (u64 cold, u64 hot) pairs.
class FixedDecoder {
public:
  FixedDecoder(ArrayRef<uint8_t> Desc, bool IsLittleEndian)
      : R(Desc, IsLittleEndian) {}

  Expected<BATTable> run();

private:
  Error function(BATFunction &F);
  Error coldLinks();

  ByteReader R;
  BATTable T;
};

Expected<BATTable> FixedDecoder::run() {
  T.Format = BATFormat::Fixed;
  Expected<uint64_t> N = R.fixedCount(4, "number of functions", 12);
  if (!N)
    return N.takeError();
  T.Functions.resize(*N);
  for (BATFunction &F : T.Functions)
    if (Error E = function(F))
      return E;
  if (Error E = coldLinks())
    return E;
  if (Error E = trailingBytes(R))
    return E;
  linkColdFragments(T);
  return std::move(T);
}

Error FixedDecoder::function(BATFunction &F) {
  F.RecordOffset = R.tell();
  Expected<uint64_t> Address = R.fixed(8, "function address");
  if (!Address)
    return Address.takeError();
  F.Address = *Address;
  Expected<uint64_t> N = R.fixedCount(4, "number of entries", 8);
  if (!N)
    return N.takeError();
  F.Entries.resize(*N);
  for (BATEntry &E : F.Entries) {
    Expected<uint64_t> Out = R.fixed(4, "output offset");
    if (!Out)
      return Out.takeError();
    Expected<uint64_t> In = R.fixed(4, "input offset");
    if (!In)
      return In.takeError();
    E.OutputOffset = *Out;
    E.InputOffset = *In & ~FixedBranchEntry;
    E.IsBranch = *In & FixedBranchEntry;
  }
  return Error::success();
}

Error FixedDecoder::coldLinks() {
  Expected<uint64_t> N = R.fixedCount(4, "number of cold-to-hot pairs", 16);
  if (!N)
    return N.takeError();
  T.ColdLinks.resize(*N);
  for (BATColdLink &L : T.ColdLinks) {
    L.RecordOffset = R.tell();
    Expected<uint64_t> Cold = R.fixed(8, "cold fragment address");
    if (!Cold)
      return Cold.takeError();
    Expected<uint64_t> Hot = R.fixed(8, "hot fragment address");
    if (!Hot)
      return Hot.takeError();
    L.ColdAddress = *Cold;
    L.HotAddress = *Hot;
  }
  return Error::success();
}

/// The BOLT 19/22 layout (docs/bat.md): a hot table and a cold table of
/// delta-coded records sharing one running output address.
class DeltaDecoder {
public:
  DeltaDecoder(ArrayRef<uint8_t> Desc, bool IsLittleEndian)
      : R(Desc, IsLittleEndian) {}

  Expected<BATTable> run();

private:
  Error table(bool Cold);
  Error hotHeader(BATFunction &F, uint64_t &NumSecondary);
  Error coldHeader(BATFunction &F, uint64_t &HotIndex);
  Error entries(BATFunction &F);
  /// The delta-coded values carried from one entry to the next.
  struct Running {
    uint64_t InValue = 0;
    uint64_t BBIndex = 0;
  };
  Error entry(BATFunction &F, BATEntry &E, Running &Prev,
              std::optional<bool> ImpliedBranch);
  Error secondaryEntryPoints(BATFunction &F, uint64_t N);

  ByteReader R;
  BATTable T;
  uint64_t PrevAddress = 0;
  /// Addresses of the hot table's records, which HotIndex refers to.
  std::vector<uint64_t> HotAddresses;
};

Expected<BATTable> DeltaDecoder::run() {
  T.Format = BATFormat::Delta;
  if (Error E = table(/*Cold=*/false))
    return E;
  if (Error E = table(/*Cold=*/true))
    return E;
  if (Error E = trailingBytes(R))
    return E;
  return std::move(T);
}

Error DeltaDecoder::table(bool Cold) {
  // A hot record takes at least 13 bytes (8 of them the hash), a cold one 5.
  Expected<uint64_t> N =
      R.count(Cold ? "number of cold functions" : "number of hot functions",
              Cold ? 5 : 13);
  if (!N)
    return N.takeError();
  uint64_t HotIndex = 0;
  for (uint64_t I = 0; I < *N; ++I) {
    BATFunction &F = T.Functions.emplace_back();
    F.RecordOffset = R.tell();
    Expected<uint64_t> Delta = R.uleb("function address delta", UINT64_MAX);
    if (!Delta)
      return Delta.takeError();
    F.Address = PrevAddress += *Delta;
    uint64_t NumSecondary = 0;
    if (Error E = Cold ? coldHeader(F, HotIndex) : hotHeader(F, NumSecondary))
      return E;
    if (Error E = entries(F))
      return E;
    if (Error E = secondaryEntryPoints(F, NumSecondary))
      return E;
  }
  return Error::success();
}

Error DeltaDecoder::hotHeader(BATFunction &F, uint64_t &NumSecondary) {
  HotAddresses.push_back(F.Address);
  Expected<uint64_t> Hash = R.fixed(8, "function hash");
  if (!Hash)
    return Hash.takeError();
  F.Hash = *Hash;
  Expected<uint64_t> Blocks = R.uleb("number of basic blocks");
  if (!Blocks)
    return Blocks.takeError();
  F.NumBlocks = *Blocks;
  Expected<uint64_t> N = R.count("number of secondary entry points", 1);
  if (!N)
    return N.takeError();
  NumSecondary = *N;
  return Error::success();
}

Error DeltaDecoder::coldHeader(BATFunction &F, uint64_t &HotIndex) {
  uint64_t IndexOffset = R.tell();
  Expected<uint64_t> Delta = R.uleb("hot index delta", UINT64_MAX);
  if (!Delta)
    return Delta.takeError();
  HotIndex += *Delta;
  if (HotIndex >= HotAddresses.size())
    return decodeError(IndexOffset, "hot index " + Twine(HotIndex) +
                                        " is out of range: there are " +
                                        Twine(HotAddresses.size()) +
                                        " hot functions");
  F.HotIndex = HotIndex;
  F.ParentAddress = HotAddresses[HotIndex];
  T.ColdLinks.push_back({F.RecordOffset, F.Address, *F.ParentAddress});
  Expected<uint64_t> Skew = R.uleb("cold input skew");
  if (!Skew)
    return Skew.takeError();
  F.InputSkew = *Skew;
  return Error::success();
}

Error DeltaDecoder::entries(BATFunction &F) {
  Expected<uint64_t> N = R.count("number of entries", 1);
  if (!N)
    return N.takeError();
  uint64_t EqualOffset = R.tell();
  Expected<uint64_t> Equal = R.uleb("number of equal offsets");
  if (!Equal)
    return Equal.takeError();
  if (*Equal > *N)
    return decodeError(EqualOffset, "number of equal offsets " + Twine(*Equal) +
                                        " exceeds " + "the number of entries " +
                                        Twine(*N));
  Expected<ArrayRef<uint8_t>> BranchBits =
      R.bytes((*Equal + 7) / 8, "branch entry bitmask");
  if (!BranchBits)
    return BranchBits.takeError();
  F.Entries.resize(*N);
  Running Prev;
  for (uint64_t J = 0; J < *N; ++J) {
    std::optional<bool> Implied;
    if (J < *Equal)
      Implied = ((*BranchBits)[J / 8] >> (J % 8)) & 1;
    if (Error E = entry(F, F.Entries[J], Prev, Implied))
      return E;
  }
  return Error::success();
}

Error DeltaDecoder::entry(BATFunction &F, BATEntry &E, Running &Prev,
                          std::optional<bool> ImpliedBranch) {
  uint64_t Start = R.tell();
  Expected<uint64_t> OutDelta = R.uleb("output address delta", UINT64_MAX);
  if (!OutDelta)
    return OutDelta.takeError();
  PrevAddress += *OutDelta;
  E.OutputOffset = PrevAddress - F.Address;
  if (E.OutputOffset > UINT32_MAX)
    return decodeError(Start, "output address " + hex(PrevAddress) +
                                  " is not within 4 GiB above the "
                                  "function address " +
                                  hex(F.Address));
  uint64_t &InValue = Prev.InValue;
  if (ImpliedBranch) {
    // Implied entries still update the running input value.
    InValue = ((E.OutputOffset + F.InputSkew) << 1) | *ImpliedBranch;
  } else {
    Expected<int64_t> InDelta = R.sleb("input offset delta");
    if (!InDelta)
      return InDelta.takeError();
    InValue += static_cast<uint64_t>(*InDelta);
  }
  if (InValue > UINT32_MAX)
    return decodeError(Start,
                       "input value " + hex(InValue) + " exceeds UINT32_MAX");
  E.InputOffset = InValue >> 1;
  E.IsBranch = InValue & 1;
  if (E.IsBranch)
    return Error::success();
  Expected<uint64_t> Hash = R.fixed(8, "block hash");
  if (!Hash)
    return Hash.takeError();
  E.BBHash = *Hash;
  Expected<uint64_t> IndexDelta = R.uleb("block index delta", UINT64_MAX);
  if (!IndexDelta)
    return IndexDelta.takeError();
  E.BBIndex = Prev.BBIndex += *IndexDelta;
  return Error::success();
}

Error DeltaDecoder::secondaryEntryPoints(BATFunction &F, uint64_t N) {
  // Offsets are 32-bit in BOLT; deltas wrap at 32 bits as they do there.
  uint32_t Offset = 0;
  F.SecondaryEntryPoints.reserve(N);
  for (uint64_t I = 0; I < N; ++I) {
    Expected<uint64_t> Delta =
        R.uleb("secondary entry point delta", UINT64_MAX);
    if (!Delta)
      return Delta.takeError();
    Offset += static_cast<uint32_t>(*Delta);
    F.SecondaryEntryPoints.push_back(Offset);
  }
  return Error::success();
}

} // namespace

std::vector<const BATFunction *> boltOrder(const BATTable &T) {
  std::vector<const BATFunction *> Order;
  for (const BATFunction &F : T.Functions)
    Order.push_back(&F);
  auto ByAddress = [](const BATFunction *A, const BATFunction *B) {
    return A->Address < B->Address;
  };
  llvm::stable_sort(Order, ByAddress);
  Order.erase(llvm::unique(Order,
                           [](const BATFunction *A, const BATFunction *B) {
                             return A->Address == B->Address;
                           }),
              Order.end());
  return Order;
}

std::vector<const BATEntry *> boltOrder(const BATFunction &F, BATFormat Fmt) {
  std::vector<const BATEntry *> Order;
  Order.reserve(F.Entries.size());
  for (const BATEntry &E : F.Entries)
    Order.push_back(&E);
  llvm::stable_sort(Order, [](const BATEntry *A, const BATEntry *B) {
    return A->OutputOffset < B->OutputOffset;
  });
  if (Fmt == BATFormat::Fixed)
    Order.erase(llvm::unique(Order,
                             [](const BATEntry *A, const BATEntry *B) {
                               return A->OutputOffset == B->OutputOffset;
                             }),
                Order.end());
  return Order;
}

Expected<BATTable> decodeBATAs(ArrayRef<uint8_t> Desc, bool IsLittleEndian,
                               BATFormat F, uint64_t BaseOffset) {
  Expected<BATTable> T = F == BATFormat::Fixed
                             ? FixedDecoder(Desc, IsLittleEndian).run()
                             : DeltaDecoder(Desc, IsLittleEndian).run();
  if (!T)
    return handleErrors(T.takeError(), [&](const DecodeError &E) {
      return decodeError(E.offset() + BaseOffset, E.reason());
    });
  for (BATFunction &Fn : T->Functions)
    Fn.RecordOffset += BaseOffset;
  for (BATColdLink &L : T->ColdLinks)
    L.RecordOffset += BaseOffset;
  return T;
}

Expected<BATTable> decodeBAT(ArrayRef<uint8_t> Desc, bool IsLittleEndian,
                             uint64_t BaseOffset) {
  Expected<BATTable> Fixed =
      decodeBATAs(Desc, IsLittleEndian, BATFormat::Fixed, BaseOffset);
  if (Fixed)
    return Fixed;
  Expected<BATTable> Delta =
      decodeBATAs(Desc, IsLittleEndian, BATFormat::Delta, BaseOffset);
  if (Delta) {
    // The format is told by trial: the fixed one's failure only says that
    // the table is in the other.
    consumeError(Fixed.takeError());
    return Delta;
  }
  return createStringError(
      inconvertibleErrorCode(),
      "neither BAT format fits the " + Twine(Desc.size()) +
          "-byte descriptor: as " + formatName(BATFormat::Fixed) + ": " +
          toString(Fixed.takeError()) + "; as " + formatName(BATFormat::Delta) +
          ": " + toString(Delta.takeError()));
}

} // namespace bbmap
