//===- RawInstrProfDecoder.cpp - raw instrumentation profile decoder ------===//
//
// One RawDecoder per profile in the file: the header (field list by
// version), the payload sections placed one after another from the header's
// sizes (each checked against the file before use), binary IDs, names, the
// data records with their counters, bitmap bytes and value data. The layout
// of a data record follows from the version and the pointer size exactly as
// the C structure of InstrProfData.inc lays it out. The profiles of a file
// go through one InstrProfBuilder, which hands each to the consumer before
// the next is decoded.
//
//===----------------------------------------------------------------------===//

#include "bbmap/InstrProf/RawInstrProfDecoder.h"
#include "InstrProfBuilder.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>

using namespace llvm;

namespace bbmap {

namespace {

constexpr uint64_t RawMagic64 = 0xff6c70726f667281ULL;
constexpr uint64_t RawMagic32 = 0xff6c70726f665281ULL;

/// The header fields of each version, in file order. Versions 8 to 10 share
/// the first part; 9 adds the bitmap fields, 10 the vtable fields
/// (InstrProfData.inc of LLVM 14, 18 and 19).
SmallVector<StringRef, 16> headerFieldNames(uint32_t Version) {
  SmallVector<StringRef, 16> Names = {"Magic",
                                      "Version",
                                      "BinaryIdsSize",
                                      "NumData",
                                      "PaddingBytesBeforeCounters",
                                      "NumCounters",
                                      "PaddingBytesAfterCounters"};
  if (Version >= 9)
    Names.append({"NumBitmapBytes", "PaddingBytesAfterBitmapBytes"});
  Names.append({"NamesSize", "CountersDelta"});
  if (Version >= 9)
    Names.push_back("BitmapDelta");
  Names.push_back("NamesDelta");
  if (Version >= 10)
    Names.append({"NumVTables", "VNamesSize"});
  Names.push_back("ValueKindLast");
  return Names;
}

/// Where the fields of a data record (INSTR_PROF_DATA) lie for one version
/// and pointer size: NameRef and FuncHash (u64), CounterPtr, BitmapPtr
/// (version 9+), FunctionPointer and Values (pointers), NumCounters (u32),
/// NumValueSites (u16 per value kind), NumBitmapBytes (u32, version 9+);
/// C alignment, the whole padded to 8 bytes.
struct RecordLayout {
  uint8_t PointerSize = 8;
  bool HasBitmap = false;
  /// Value kinds of the version's record (IPVK_Last + 1 of its LLVM).
  unsigned NumValueKinds = 2;
  uint64_t CounterPtr = 16;
  uint64_t BitmapPtr = 0;
  uint64_t FunctionPointer = 0;
  uint64_t NumCounters = 0;
  uint64_t NumValueSites = 0;
  uint64_t NumBitmapBytes = 0;
  uint64_t Size = 0;
  /// INSTR_PROF_VTABLE_DATA: u64 name hash, pointer, u32 size, padded to 8.
  uint64_t VTableRecordSize = 0;

  RecordLayout(uint32_t Version, uint8_t PointerSize)
      : PointerSize(PointerSize), HasBitmap(Version >= 9),
        NumValueKinds(Version >= 10 ? 3 : 2) {
    uint64_t Off = CounterPtr + PointerSize;
    if (HasBitmap) {
      BitmapPtr = Off;
      Off += PointerSize;
    }
    FunctionPointer = Off;
    NumCounters = Off + 2 * PointerSize;
    NumValueSites = NumCounters + 4;
    Off = NumValueSites + 2 * NumValueKinds;
    if (HasBitmap) {
      NumBitmapBytes = alignTo(Off, 4);
      Off = NumBitmapBytes + 4;
    }
    Size = alignTo(Off, 8);
    VTableRecordSize = alignTo(8 + PointerSize + 4, 8);
  }
};

/// The padding after a section of \p Size bytes (getNumPaddingBytes).
uint64_t paddingAfter(uint64_t Size) { return (8 - Size % 8) % 8; }

/// Decodes the profile at one offset of the file.
class RawDecoder {
public:
  RawDecoder(ArrayRef<uint8_t> File, uint64_t Start, bool IsLittleEndian,
             uint8_t PointerSize, InstrProfBuilder &B)
      : File(File), Start(Start), R(File, IsLittleEndian),
        IsLittleEndian(IsLittleEndian), PointerSize(PointerSize), B(B) {}

  /// Decodes the profile and passes it to the builder's consumer.
  Error run();
  /// Where the next profile may start: after the value data.
  uint64_t end() const { return ValueDataEnd; }

private:
  Error readHeader();
  Error placeSections();
  /// Appends section \p Name of \p Count items of \p ItemSize bytes at the
  /// cursor, checked against the file; \p Field sizes it.
  Error placeSection(StringRef Name, StringRef Field, uint64_t ItemSize,
                     uint64_t &Begin);
  /// Moves the cursor over \p N bytes, checked against the file.
  Error skip(uint64_t N, StringRef What, uint64_t WhatOffset);
  Error readBinaryIds(uint64_t Begin, uint64_t Size);
  Error readVTables(uint64_t Begin, uint64_t Count);
  void indexFunctionAddresses();
  Error readRecord(uint64_t Index, InstrProfFunction &F);
  Error readCounters(uint64_t Index, uint64_t RecordOffset, uint64_t CounterPtr,
                     uint32_t NumCounters, InstrProfFunction &F);
  Error readBitmap(uint64_t Index, uint64_t RecordOffset, uint64_t BitmapPtr,
                   uint32_t NumBitmapBytes, InstrProfFunction &F);
  Error readValueData(uint64_t Index, InstrProfFunction &F);
  void addTemporalTrace();
  uint64_t resolveValue(uint32_t Kind, uint64_t Value) const;
  /// "record N" or "record N (name)" for messages.
  std::string describeRecord(uint64_t Index, uint64_t NameRef);
  uint64_t field(StringRef Name) const {
    return *B.profile().Header.field(Name);
  }
  uint64_t fieldOffset(StringRef Name) const;
  /// The field of \p Size bytes (8, 4 or 2; pointers are 8 or 4) at
  /// \p Offset, which the caller checked to lie within the file.
  uint64_t word(uint64_t Offset, unsigned Size) const {
    const uint8_t *Ptr = File.data() + Offset;
    endianness E = IsLittleEndian ? endianness::little : endianness::big;
    switch (Size) {
    case 8:
      return support::endian::read64(Ptr, E);
    case 4:
      return support::endian::read32(Ptr, E);
    default:
      return support::endian::read16(Ptr, E);
    }
  }

  ArrayRef<uint8_t> File;
  uint64_t Start;
  ByteReader R;
  bool IsLittleEndian;
  uint8_t PointerSize;
  InstrProfBuilder &B;
  std::optional<RecordLayout> Layout;
  /// The section cursor while placing sections.
  uint64_t Cursor = 0;
  uint64_t DataBegin = 0, CountersBegin = 0, BitmapBegin = 0;
  uint64_t CountersSize = 0, BitmapSize = 0;
  uint64_t ValueDataBegin = 0, ValueDataEnd = 0;
  uint64_t CountersDelta = 0, BitmapDelta = 0;
  /// (function address, name MD5) by address, one per address: the
  /// smallest MD5, as LLVM's sorted symbol table gives it.
  std::vector<std::pair<uint64_t, uint64_t>> FunctionsByAddress;
  /// Vtable address ranges [begin, end) to name MD5, by begin.
  std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> VTableRanges;
};

uint64_t RawDecoder::fieldOffset(StringRef Name) const {
  for (const InstrProfField &F : B.profile().Header.Fields)
    if (F.Name == Name)
      return F.Offset;
  return Start;
}

std::string RawDecoder::describeRecord(uint64_t Index, uint64_t NameRef) {
  std::string S = "record " + std::to_string(Index);
  StringRef Name = B.nameOf(NameRef);
  if (!Name.empty())
    S += " (" + Name.str() + ")";
  return S;
}

Error RawDecoder::readHeader() {
  InstrProfHeader &H = B.begin(Start, InstrProfFormat::Raw);
  H.IsLittleEndian = IsLittleEndian;
  H.PointerSize = PointerSize;
  R.seek(Start);
  Expected<uint64_t> Magic = R.fixed(8, "raw header field Magic");
  if (!Magic)
    return Magic.takeError();
  B.addField("Magic", Start, *Magic);
  Expected<uint64_t> Version = R.fixed(8, "raw header field Version");
  if (!Version)
    return Version.takeError();
  H.VersionWord = *Version;
  B.addField("Version", Start + 8, *Version);
  if (!isSupportedRawVersion(H.version()))
    return decodeError(Start + 8, "unsupported raw profile version " +
                                      Twine(H.version()) +
                                      " (bbmap reads versions 8, 9 and 10)");
  // Magic and Version are read; the rest depends on the version.
  SmallVector<StringRef, 16> Names = headerFieldNames(H.version());
  for (StringRef Name : ArrayRef(Names).drop_front(2)) {
    uint64_t Offset = R.tell();
    Expected<uint64_t> V = R.fixed(8, ("raw header field " + Name).str());
    if (!V)
      return V.takeError();
    B.addField(Name, Offset, *V);
  }
  Layout.emplace(H.version(), PointerSize);
  CountersDelta = field("CountersDelta");
  if (Layout->HasBitmap)
    BitmapDelta = field("BitmapDelta");
  Cursor = R.tell();
  return Error::success();
}

Error RawDecoder::skip(uint64_t N, StringRef What, uint64_t WhatOffset) {
  std::optional<uint64_t> End = checkedAddUnsigned(Cursor, N);
  if (!End || *End > File.size())
    return decodeError(WhatOffset, What + " " + Twine(N) +
                                       " runs past the end of the file at " +
                                       hex(File.size()) + " (from " +
                                       hex(Cursor) + ")");
  Cursor = *End;
  return Error::success();
}

Error RawDecoder::placeSection(StringRef Name, StringRef Field,
                               uint64_t ItemSize, uint64_t &Begin) {
  uint64_t Count = field(Field);
  std::optional<uint64_t> Size = checkedMulUnsigned(Count, ItemSize);
  std::optional<uint64_t> End =
      Size ? checkedAddUnsigned(Cursor, *Size) : std::nullopt;
  if (!End || *End > File.size())
    return decodeError(
        fieldOffset(Field),
        Field + " " + Twine(Count) +
            (ItemSize == 1 ? Twine("")
                           : " (" + Twine(ItemSize) + " bytes each)") +
            " puts the " + Name + " section past the end of the file at " +
            hex(File.size()) + " (section from " + hex(Cursor) + ")");
  Begin = Cursor;
  B.addSection(Name, Cursor, *Size);
  Cursor = *End;
  return Error::success();
}

Error RawDecoder::placeSections() {
  const InstrProfHeader &H = B.profile().Header;
  uint64_t BinaryIdsSize = field("BinaryIdsSize");
  if (BinaryIdsSize % 8)
    return decodeError(fieldOffset("BinaryIdsSize"),
                       "BinaryIdsSize " + Twine(BinaryIdsSize) +
                           " is not a multiple of 8");
  uint64_t BinaryIdsBegin = 0, NamesBegin = 0, VTablesBegin = 0,
           VNamesBegin = 0;
  if (Error E = placeSection("binary IDs", "BinaryIdsSize", 1, BinaryIdsBegin))
    return E;
  if (Error E = placeSection("data", "NumData", Layout->Size, DataBegin))
    return E;
  if (Error E = skip(field("PaddingBytesBeforeCounters"),
                     "PaddingBytesBeforeCounters",
                     fieldOffset("PaddingBytesBeforeCounters")))
    return E;
  unsigned CounterSize = H.hasSingleByteCoverage() ? 1 : 8;
  if (Error E =
          placeSection("counters", "NumCounters", CounterSize, CountersBegin))
    return E;
  CountersSize = B.profile().Sections.back().Size;
  if (Error E =
          skip(field("PaddingBytesAfterCounters"), "PaddingBytesAfterCounters",
               fieldOffset("PaddingBytesAfterCounters")))
    return E;
  if (Layout->HasBitmap) {
    if (Error E = placeSection("bitmap", "NumBitmapBytes", 1, BitmapBegin))
      return E;
    BitmapSize = B.profile().Sections.back().Size;
    if (Error E = skip(field("PaddingBytesAfterBitmapBytes"),
                       "PaddingBytesAfterBitmapBytes",
                       fieldOffset("PaddingBytesAfterBitmapBytes")))
      return E;
  }
  if (Error E = placeSection("names", "NamesSize", 1, NamesBegin))
    return E;
  if (Error E = skip(paddingAfter(field("NamesSize")), "padding after names",
                     fieldOffset("NamesSize")))
    return E;
  if (H.version() >= 10) {
    if (Error E = placeSection("vtable data", "NumVTables",
                               Layout->VTableRecordSize, VTablesBegin))
      return E;
    if (Error E = skip(paddingAfter(B.profile().Sections.back().Size),
                       "padding after vtable data", fieldOffset("NumVTables")))
      return E;
    if (Error E = placeSection("vtable names", "VNamesSize", 1, VNamesBegin))
      return E;
    if (Error E = skip(paddingAfter(field("VNamesSize")),
                       "padding after vtable names", fieldOffset("VNamesSize")))
      return E;
  }
  ValueDataBegin = ValueDataEnd = Cursor;

  if (Error E = readBinaryIds(BinaryIdsBegin, BinaryIdsSize))
    return E;
  if (Error E = B.readNames(File, NamesBegin, field("NamesSize"),
                            InstrProfBuilder::NameList::Functions))
    return E;
  if (H.version() >= 10) {
    if (Error E = B.readNames(File, VNamesBegin, field("VNamesSize"),
                              InstrProfBuilder::NameList::VTables))
      return E;
    if (Error E = readVTables(VTablesBegin, field("NumVTables")))
      return E;
  }
  return Error::success();
}

Error RawDecoder::readBinaryIds(uint64_t Begin, uint64_t Size) {
  uint64_t End = Begin + Size;
  for (uint64_t Pos = Begin; Pos < End;) {
    if (End - Pos < 8)
      return decodeError(Pos, "truncated binary ID length: needs 8 bytes, " +
                                  Twine(End - Pos) + " left in the section");
    uint64_t Length = word(Pos, 8);
    if (Length == 0)
      return decodeError(Pos, "binary ID of length 0");
    uint64_t Left = End - Pos - 8;
    if (Length > Left || alignTo(Length, 8) > Left)
      return decodeError(Pos, "binary ID of " + Twine(Length) +
                                  " bytes runs past the binary IDs section (" +
                                  Twine(Left) + " bytes left)");
    B.addBinaryId(File.slice(Pos + 8, Length));
    Pos += 8 + alignTo(Length, 8);
  }
  return Error::success();
}

Error RawDecoder::readVTables(uint64_t Begin, uint64_t Count) {
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t Off = Begin + I * Layout->VTableRecordSize;
    uint64_t NameHash = word(Off, 8);
    uint64_t Address = word(Off + 8, PointerSize);
    uint64_t Size = word(Off + 8 + PointerSize, 4);
    if (Address)
      VTableRanges.emplace_back(Address, Address + Size, NameHash);
  }
  llvm::stable_sort(VTableRanges);
  return Error::success();
}

uint64_t RawDecoder::resolveValue(uint32_t Kind, uint64_t Value) const {
  if (Kind == IPVK_IndirectCallTarget) {
    auto It = llvm::partition_point(
        FunctionsByAddress, [&](const auto &F) { return F.first < Value; });
    return It == FunctionsByAddress.end() || It->first != Value ? 0
                                                                : It->second;
  }
  if (Kind == IPVK_VTableTarget) {
    for (const auto &[Begin, End, Hash] : VTableRanges)
      if (Begin <= Value && Value < End)
        return Hash;
    return 0;
  }
  return Value;
}

Error RawDecoder::readCounters(uint64_t Index, uint64_t RecordOffset,
                               uint64_t CounterPtr, uint32_t NumCounters,
                               InstrProfFunction &F) {
  uint64_t FieldOffset = RecordOffset + Layout->CounterPtr;
  auto Rec = [&] { return describeRecord(Index, F.NameMD5); };
  if (NumCounters == 0)
    return decodeError(RecordOffset + Layout->NumCounters,
                       Rec() + ": NumCounters is 0");
  // CountersDelta is the distance from the data section to the counters
  // section; each record's CounterPtr is relative to the record itself.
  uint64_t Delta = CountersDelta - Index * Layout->Size;
  int64_t Offset = PointerSize == 4 ? int64_t(int32_t(CounterPtr - Delta))
                                    : int64_t(CounterPtr - Delta);
  if (Offset < 0 || uint64_t(Offset) >= CountersSize)
    return decodeError(FieldOffset, Rec() + ": CounterPtr " + hex(CounterPtr) +
                                        " with CountersDelta " + hex(Delta) +
                                        " puts its counters at " +
                                        Twine(Offset) +
                                        ", outside the counters section (" +
                                        Twine(CountersSize) + " bytes)");
  bool SingleByte = B.profile().Header.hasSingleByteCoverage();
  uint64_t CounterSize = SingleByte ? 1 : 8;
  uint64_t Left = (CountersSize - Offset) / CounterSize;
  if (NumCounters > Left)
    return decodeError(RecordOffset + Layout->NumCounters,
                       Rec() + ": " + Twine(NumCounters) +
                           " counters at offset " + Twine(Offset) +
                           " run past the end of the counters section (" +
                           Twine(Left) + " left)");
  uint64_t Pos = CountersBegin + Offset;
  uint32_t First = 0;
  if (B.profile().Header.hasTemporalProfile()) {
    // The first counter holds the function's timestamp: 8 bytes even when
    // the other counters are single bytes.
    if (CountersSize - Offset < 8)
      return decodeError(FieldOffset,
                         Rec() + ": its timestamp at offset " + Twine(Offset) +
                             " runs past the end of the counters section");
    F.Timestamp = word(Pos, 8);
    First = SingleByte ? 8 : 1;
  }
  F.Counts.reserve(NumCounters > First ? NumCounters - First : 0);
  for (uint32_t I = First; I < NumCounters; ++I) {
    if (SingleByte)
      F.Counts.push_back(File[Pos + I] == 0 ? 1 : 0);
    else
      F.Counts.push_back(word(Pos + 8 * uint64_t(I), 8));
  }
  return Error::success();
}

Error RawDecoder::readBitmap(uint64_t Index, uint64_t RecordOffset,
                             uint64_t BitmapPtr, uint32_t NumBitmapBytes,
                             InstrProfFunction &F) {
  if (NumBitmapBytes == 0)
    return Error::success();
  auto Rec = [&] { return describeRecord(Index, F.NameMD5); };
  uint64_t Delta = BitmapDelta - Index * Layout->Size;
  int64_t Offset = PointerSize == 4 ? int64_t(int32_t(BitmapPtr - Delta))
                                    : int64_t(BitmapPtr - Delta);
  if (Offset < 0 || uint64_t(Offset) >= BitmapSize)
    return decodeError(
        RecordOffset + Layout->BitmapPtr,
        Rec() + ": BitmapPtr " + hex(BitmapPtr) + " with BitmapDelta " +
            hex(Delta) + " puts its bitmap at " + Twine(Offset) +
            ", outside the bitmap section (" + Twine(BitmapSize) + " bytes)");
  if (NumBitmapBytes > BitmapSize - Offset)
    return decodeError(RecordOffset + Layout->NumBitmapBytes,
                       Rec() + ": " + Twine(NumBitmapBytes) +
                           " bitmap bytes at offset " + Twine(Offset) +
                           " run past the end of the bitmap section (" +
                           Twine(BitmapSize - Offset) + " left)");
  ArrayRef<uint8_t> Bytes = File.slice(BitmapBegin + Offset, NumBitmapBytes);
  F.BitmapBytes.assign(Bytes.begin(), Bytes.end());
  return Error::success();
}

Error RawDecoder::readValueData(uint64_t Index, InstrProfFunction &F) {
  auto Rec = [&] { return describeRecord(Index, F.NameMD5); };
  uint64_t Begin = ValueDataEnd;
  uint64_t Left = File.size() - Begin;
  if (Left < 8)
    return decodeError(Begin, Rec() +
                                  ": truncated value profile data: needs 8 "
                                  "bytes, " +
                                  Twine(Left) + " left");
  uint64_t TotalSize = word(Begin, 4);
  uint64_t NumKinds = word(Begin + 4, 4);
  if (TotalSize > Left)
    return decodeError(Begin, Rec() + ": value profile data of " +
                                  Twine(TotalSize) +
                                  " bytes runs past the end of the file (" +
                                  Twine(Left) + " bytes left)");
  if (TotalSize % 8 || TotalSize < 8)
    return decodeError(Begin, Rec() + ": value profile data size " +
                                  Twine(TotalSize) +
                                  " is not a positive multiple of 8");
  if (NumKinds > Layout->NumValueKinds)
    return decodeError(
        Begin + 4, Rec() + ": " + Twine(NumKinds) + " value kinds (version " +
                       Twine(B.profile().Header.version()) + " has " +
                       Twine(Layout->NumValueKinds) + ")");
  uint64_t End = Begin + TotalSize;
  uint64_t Pos = Begin + 8;
  for (uint64_t K = 0; K < NumKinds; ++K) {
    if (End - Pos < 8)
      return decodeError(Pos, Rec() +
                                  ": truncated value profile record "
                                  "header: needs 8 bytes, " +
                                  Twine(End - Pos) + " left");
    uint32_t Kind = word(Pos, 4);
    uint64_t NumSites = word(Pos + 4, 4);
    if (Kind >= Layout->NumValueKinds)
      return decodeError(
          Pos, Rec() + ": unknown value kind " + Twine(Kind) + " (version " +
                   Twine(B.profile().Header.version()) + " has kinds 0 to " +
                   Twine(Layout->NumValueKinds - 1) + ")");
    uint64_t HeaderSize = alignTo(8 + NumSites, 8);
    if (HeaderSize > End - Pos)
      return decodeError(Pos + 4, Rec() + ": " + Twine(NumSites) +
                                      " value sites run past the value "
                                      "profile data");
    uint64_t NumValues = 0;
    for (uint64_t S = 0; S < NumSites; ++S)
      NumValues += File[Pos + 8 + S];
    if (NumValues * 16 > End - Pos - HeaderSize)
      return decodeError(Pos, Rec() + ": " + Twine(NumValues) +
                                  " values of kind " + Twine(Kind) +
                                  " run past the value profile data");
    std::vector<InstrProfValueSite> &Sites = F.ValueSites[Kind];
    uint64_t ValuePos = Pos + HeaderSize;
    for (uint64_t S = 0; S < NumSites; ++S) {
      InstrProfValueSite &Site = Sites.emplace_back();
      for (unsigned V = 0, N = File[Pos + 8 + S]; V < N; ++V) {
        InstrProfValue Value;
        uint64_t Recorded = word(ValuePos, 8);
        Value.Count = word(ValuePos + 8, 8);
        Value.Value = resolveValue(Kind, Recorded);
        if (Kind != IPVK_MemOPSize)
          Value.Address = Recorded;
        Site.push_back(Value);
        ValuePos += 16;
      }
    }
    Pos = ValuePos;
  }
  ValueDataEnd = End;
  return Error::success();
}

Error RawDecoder::readRecord(uint64_t Index, InstrProfFunction &F) {
  uint64_t Off = DataBegin + Index * Layout->Size;
  F.Offset = Off;
  F.NameMD5 = word(Off, 8);
  F.Hash = word(Off + 8, 8);
  F.Name = B.nameOf(F.NameMD5).str();
  uint64_t CounterPtr = word(Off + Layout->CounterPtr, PointerSize);
  F.FunctionAddress = word(Off + Layout->FunctionPointer, PointerSize);
  uint32_t NumCounters = word(Off + Layout->NumCounters, 4);
  F.ValueSites.resize(Layout->NumValueKinds);
  bool HasValueSites = false;
  for (unsigned K = 0; K < Layout->NumValueKinds; ++K)
    HasValueSites |= word(Off + Layout->NumValueSites + 2 * K, 2) != 0;
  if (Error E = readCounters(Index, Off, CounterPtr, NumCounters, F))
    return E;
  if (Layout->HasBitmap)
    if (Error E =
            readBitmap(Index, Off, word(Off + Layout->BitmapPtr, PointerSize),
                       word(Off + Layout->NumBitmapBytes, 4), F))
      return E;
  if (HasValueSites)
    return readValueData(Index, F);
  return Error::success();
}

void RawDecoder::indexFunctionAddresses() {
  FunctionsByAddress.clear();
  uint64_t NumData = field("NumData");
  FunctionsByAddress.reserve(NumData);
  for (uint64_t I = 0; I < NumData; ++I) {
    uint64_t Off = DataBegin + I * Layout->Size;
    if (uint64_t Address = word(Off + Layout->FunctionPointer, PointerSize))
      FunctionsByAddress.emplace_back(Address, word(Off, 8));
  }
  // By address, then MD5: the first of each address has the smallest MD5.
  llvm::sort(FunctionsByAddress);
  FunctionsByAddress.erase(llvm::unique(FunctionsByAddress,
                                        [](const auto &A, const auto &B) {
                                          return A.first == B.first;
                                        }),
                           FunctionsByAddress.end());
}

void RawDecoder::addTemporalTrace() {
  // The trace LLVM makes of the timestamps: called functions by timestamp.
  std::vector<std::pair<uint64_t, uint64_t>> Called;
  for (const InstrProfFunction &F : B.functions())
    if (F.Timestamp && *F.Timestamp != 0 && *F.Timestamp != UINT64_MAX)
      Called.emplace_back(*F.Timestamp, F.NameMD5);
  if (Called.empty())
    return;
  llvm::sort(Called);
  InstrProfTemporalTrace &T = B.addTemporalTrace();
  for (const auto &C : Called)
    T.FunctionNameRefs.push_back(C.second);
  B.setTemporalTraceStreamSize(1);
}

Error RawDecoder::run() {
  if (Error E = readHeader())
    return E;
  if (Error E = placeSections())
    return E;
  indexFunctionAddresses();
  uint64_t NumData = field("NumData");
  B.reserveFunctions(NumData);
  for (uint64_t I = 0; I < NumData; ++I)
    if (Error E = readRecord(I, B.addFunction()))
      return E;
  if (ValueDataEnd > ValueDataBegin)
    B.addSection("value data", ValueDataBegin, ValueDataEnd - ValueDataBegin);
  addTemporalTrace();
  B.finish();
  return Error::success();
}

/// The magic at \p Offset as (little-endian, pointer size), if it is one.
std::optional<std::pair<bool, uint8_t>> rawMagicAt(ArrayRef<uint8_t> Bytes,
                                                   uint64_t Offset) {
  if (Bytes.size() < 8 || Offset > Bytes.size() - 8)
    return std::nullopt;
  uint64_t V = 0;
  for (unsigned I = 0; I < 8; ++I)
    V |= uint64_t(Bytes[Offset + I]) << (8 * I);
  for (auto [Magic, Size] :
       {std::pair(RawMagic64, uint8_t(8)), std::pair(RawMagic32, uint8_t(4))}) {
    if (V == Magic)
      return std::pair(true, Size);
    if (V == llvm::byteswap(Magic))
      return std::pair(false, Size);
  }
  return std::nullopt;
}

} // namespace

bool isRawInstrProfile(ArrayRef<uint8_t> Bytes) {
  return rawMagicAt(Bytes, 0).has_value();
}

bool isSupportedRawVersion(uint32_t Version) {
  return Version >= 8 && Version <= 10;
}

Error decodeRawInstrProfile(ArrayRef<uint8_t> Bytes,
                            InstrProfConsumer &Consumer) {
  std::optional<std::pair<bool, uint8_t>> First = rawMagicAt(Bytes, 0);
  if (!First)
    return decodeError(0, "not a raw instrumentation profile (bad magic)");
  InstrProfBuilder Builder(Consumer);
  uint64_t Offset = 0;
  while (true) {
    RawDecoder D(Bytes, Offset, First->first, First->second, Builder);
    if (Error E = D.run())
      return E;
    // Another profile may follow after zero padding, 8-byte aligned and in
    // the same byte order.
    Offset = D.end();
    while (Offset < Bytes.size() && Bytes[Offset] == 0)
      ++Offset;
    if (Offset == Bytes.size())
      return Error::success();
    if (Offset % 8 || rawMagicAt(Bytes, Offset) != First)
      return decodeError(Offset, "bytes after the profile are neither zero "
                                 "padding nor another profile (" +
                                     hex(Bytes.size() - Offset) + " bytes)");
  }
}

Expected<InstrProfileFile> decodeRawInstrProfile(ArrayRef<uint8_t> Bytes) {
  InstrProfCollector Collector;
  if (Error E = decodeRawInstrProfile(Bytes, Collector))
    return E;
  return Collector.take();
}

} // namespace bbmap
