//===- IndexedInstrProfDecoder.cpp - indexed profile decoder --------------===//
//
// The indexed layout as LLVM's InstrProfWriter writes it, every field a
// little-endian u64 unless said otherwise:
//
//   header    Magic, Version (variant flags in the upper half), Unused,
//             HashType, HashOffset: 40 bytes up to version 7; then
//             MemProfOffset (8+), BinaryIdOffset (9+),
//             TemporalProfTracesOffset (10+), VTableNamesOffset (12+)
//   summary   version 4+: NumSummaryFields, NumCutoffEntries, the fields,
//             the entries (Cutoff, MinBlockCount, NumBlocks); a second one
//             for context-sensitive records when the CS variant flag is set
//   payload   the hash table's entries bucket by bucket: a u16 entry count,
//             then per entry the key hash (MD5 of the name), the key and
//             data lengths, the name, the records
//   buckets   at HashOffset: NumBuckets (a power of two), NumEntries, one
//             payload offset per bucket (0 for an empty one); an entry is in
//             bucket Hash & (NumBuckets - 1)
//   memprof   version 8+ with the memory-profile flag: its own version word
//             (none in its version 0) and the offsets of its tables
//   binary IDs  version 9+: their size, then per ID its length and bytes
//             padded to 8
//   vtable names  version 12+: a length, then name blocks (ULEB128 sizes,
//             zlib or plain, names separated by \x01), padded to 8
//   traces    version 10+ with the temporal flag: NumTraces,
//             TraceStreamSize, then per trace Weight, a count, name MD5s
//
// A record is its CFG hash, the number of counters (version 2+; the one
// record of a version 1 entry has all the data as counters), the counters,
// the number of bitmap bytes and a u64 per byte (version 11+), and value
// data (version 3+): TotalSize and NumValueKinds (u32), then per kind Kind
// and NumValueSites (u32), a count byte per site padded to 8, and a
// (Value, Count) pair per value.
//
//===----------------------------------------------------------------------===//

#include "bbmap/InstrProf/IndexedInstrProfDecoder.h"
#include "InstrProfBuilder.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MathExtras.h"
#include <map>
#include <optional>

using namespace llvm;

namespace bbmap {

namespace {

/// IndexedInstrProf::Magic: "\xfflprofi\x81".
constexpr uint64_t IndexedMagic = 0x8169666f72706cffULL;
constexpr uint32_t LastIndexedVersion = 13;
/// The least an entry takes in the payload: hash, key and data lengths.
constexpr uint64_t MinEntryBytes = 24;

/// The header fields in file order and the version that added each.
struct HeaderFieldInfo {
  StringRef Name;
  uint32_t SinceVersion;
};
constexpr HeaderFieldInfo HeaderFieldInfos[] = {
    {"Magic", 1},
    {"Version", 1},
    {"Unused", 1},
    {"HashType", 1},
    {"HashOffset", 1},
    {"MemProfOffset", 8},
    {"BinaryIdOffset", 9},
    {"TemporalProfTracesOffset", 10},
    {"VTableNamesOffset", 12},
};

/// The offsets a memory profile header holds after its version word, per
/// memory profile version (IndexedMemProfReader::deserialize*).
SmallVector<StringRef, 5> memProfHeaderFields(uint64_t Version) {
  switch (Version) {
  case 0:
  case 1:
    return {"RecordTableOffset", "FramePayloadOffset", "FrameTableOffset"};
  case 2:
    return {"RecordTableOffset", "FramePayloadOffset", "FrameTableOffset",
            "CallStackPayloadOffset", "CallStackTableOffset"};
  case 3:
    return {"CallStackPayloadOffset", "RecordPayloadOffset",
            "RecordTableOffset"};
  default:
    return {"CallStackPayloadOffset", "RecordPayloadOffset",
            "RecordTableOffset", "DataAccessProfOffset"};
  }
}

/// The payload offsets of one bucket's entries.
struct Bucket {
  uint64_t Offset = 0;
  /// Each entry's offset and key hash.
  SmallVector<std::pair<uint64_t, uint64_t>, 1> Entries;
  /// The bucket array slot that points here, once found.
  std::optional<uint64_t> Slot;
};

class IndexedDecoder {
public:
  IndexedDecoder(ArrayRef<uint8_t> File, InstrProfBuilder &B)
      : File(File), B(B) {}

  /// Decodes the profile and passes it to the builder's consumer.
  Error run();

private:
  /// A cursor over [Begin, End) of the file; its offsets are the file's.
  ByteReader readerAt(uint64_t Begin, uint64_t End) const;
  uint64_t field(StringRef Name) const {
    return *B.profile().Header.field(Name);
  }
  uint64_t fieldOffset(StringRef Name) const;

  Error readHeader();
  Error readSummary(bool ContextSensitive);
  Error readHashTable();
  Error readBucket(ByteReader &R, uint64_t EntriesLeft, uint64_t NumEntries);
  Error readRecords(StringRef Name, uint64_t NameMD5, uint64_t EntryOffset,
                    uint64_t Begin, uint64_t End);
  Error readValueData(ByteReader &R, InstrProfFunction &F);
  Error checkBuckets(uint64_t BucketsBegin, uint64_t NumBuckets);
  /// The offset header field \p Field gives section \p Section, checked to
  /// lie after the summaries with \p MinSize bytes in the file.
  Expected<uint64_t> sectionStart(StringRef Field, StringRef Section,
                                  uint64_t MinSize) const;
  Error readMemProf();
  Error readBinaryIds();
  Error readVTableNames();
  Error readTemporalTraces();

  ArrayRef<uint8_t> File;
  InstrProfBuilder &B;
  /// Where the summaries end and the hash table payload begins, and where
  /// its last entry ends.
  uint64_t PayloadBegin = 0;
  uint64_t PayloadEnd = 0;
  /// The payload's buckets in file order.
  std::vector<Bucket> Buckets;
};

ByteReader IndexedDecoder::readerAt(uint64_t Begin, uint64_t End) const {
  assert(Begin <= End && End <= File.size() && "range outside the file");
  ByteReader R(File.take_front(End), /*IsLittleEndian=*/true);
  R.seek(Begin);
  return R;
}

uint64_t IndexedDecoder::fieldOffset(StringRef Name) const {
  for (const InstrProfField &F : B.profile().Header.Fields)
    if (F.Name == Name)
      return F.Offset;
  llvm_unreachable("no such header field");
}

Error IndexedDecoder::readHeader() {
  InstrProfHeader &H = B.begin(0, InstrProfFormat::Indexed);
  ByteReader R(File, /*IsLittleEndian=*/true);
  for (const HeaderFieldInfo &Info : HeaderFieldInfos) {
    // The version is known once a field that needs it is reached.
    if (Info.SinceVersion > 1 && Info.SinceVersion > H.version())
      break;
    uint64_t Offset = R.tell();
    Expected<uint64_t> Value =
        R.fixed(8, ("indexed header field " + Info.Name).str());
    if (!Value)
      return Value.takeError();
    B.addField(Info.Name, Offset, *Value);
    if (Info.Name == "Magic" && *Value != IndexedMagic)
      return decodeError(Offset, "not an indexed profile: magic " +
                                     hex(*Value) + " is not " +
                                     hex(IndexedMagic));
    if (Info.Name == "Version") {
      H.VersionWord = *Value;
      if (!isSupportedIndexedVersion(H.version()))
        return decodeError(Offset, "unknown indexed profile version " +
                                       Twine(H.version()) + " (versions 1 to " +
                                       Twine(LastIndexedVersion) +
                                       " are known)");
    }
    if (Info.Name == "HashType") {
      H.HashType = *Value;
      if (*Value != 0)
        return decodeError(Offset, "unknown hash type " + Twine(*Value) +
                                       " (0, MD5, is the only one)");
    }
  }
  PayloadBegin = R.tell();
  return Error::success();
}

Error IndexedDecoder::readSummary(bool ContextSensitive) {
  std::string What = ContextSensitive ? "context-sensitive summary" : "summary";
  uint64_t Begin = PayloadBegin;
  ByteReader R = readerAt(Begin, File.size());
  Expected<uint64_t> NumFields = R.fixed(8, What + " field count");
  if (!NumFields)
    return NumFields.takeError();
  Expected<uint64_t> NumEntries = R.fixed(8, What + " cutoff count");
  if (!NumEntries)
    return NumEntries.takeError();
  uint64_t Left = R.bytesLeft();
  if (*NumFields > Left / 8 || *NumEntries > Left / 24 ||
      *NumFields * 8 + *NumEntries * 24 > Left)
    return decodeError(Begin, What + " of " + Twine(*NumFields) +
                                  " fields and " + Twine(*NumEntries) +
                                  " cutoff entries runs past the end of the "
                                  "file (" +
                                  Twine(Left) + " bytes left)");
  InstrProfSummary &S = B.addSummary(ContextSensitive, Begin);
  S.Fields.reserve(*NumFields);
  for (uint64_t I = 0; I < *NumFields; ++I)
    S.Fields.push_back(cantFail(R.fixed(8, "field")));
  S.Cutoffs.reserve(*NumEntries);
  for (uint64_t I = 0; I < *NumEntries; ++I) {
    uint64_t Offset = R.tell();
    uint64_t Cutoff = cantFail(R.fixed(8, "cutoff"));
    uint64_t MinCount = cantFail(R.fixed(8, "minimum count"));
    uint64_t NumCounts = cantFail(R.fixed(8, "count"));
    if (Cutoff > UINT32_MAX)
      return decodeError(Offset, What + " cutoff " + hex(Cutoff) +
                                     " exceeds UINT32_MAX");
    S.Cutoffs.emplace_back(uint32_t(Cutoff), MinCount, NumCounts);
  }
  B.addSection(What, Begin, R.tell() - Begin);
  PayloadBegin = R.tell();
  return Error::success();
}

Error IndexedDecoder::readHashTable() {
  uint64_t HashOffset = field("HashOffset");
  if (HashOffset < PayloadBegin || HashOffset > File.size())
    return decodeError(fieldOffset("HashOffset"),
                       "HashOffset " + hex(HashOffset) +
                           " is outside the hash table's space from the end "
                           "of the summaries at " +
                           hex(PayloadBegin) + " to the end of the file at " +
                           hex(File.size()));
  ByteReader T = readerAt(HashOffset, File.size());
  Expected<uint64_t> NumBuckets = T.fixed(8, "hash table bucket count");
  if (!NumBuckets)
    return NumBuckets.takeError();
  Expected<uint64_t> NumEntries = T.fixed(8, "hash table entry count");
  if (!NumEntries)
    return NumEntries.takeError();
  if (!isPowerOf2_64(*NumBuckets))
    return decodeError(HashOffset, "hash table bucket count " +
                                       Twine(*NumBuckets) +
                                       " is not a power of two");
  if (*NumBuckets > T.bytesLeft() / 8)
    return decodeError(HashOffset,
                       "hash table of " + Twine(*NumBuckets) +
                           " buckets runs past the end of the file (" +
                           Twine(T.bytesLeft()) + " bytes left for offsets)");
  uint64_t PayloadSize = HashOffset - PayloadBegin;
  if (*NumEntries > PayloadSize / MinEntryBytes)
    return decodeError(
        HashOffset + 8,
        "hash table entry count " + Twine(*NumEntries) + " needs at least " +
            Twine(*NumEntries * MinEntryBytes) +
            " bytes of payload, which has " + Twine(PayloadSize) + " (" +
            hex(PayloadBegin) + " to " + hex(HashOffset) + ")");

  ByteReader R = readerAt(PayloadBegin, HashOffset);
  for (uint64_t Left = *NumEntries; Left;) {
    uint64_t Before = B.profile().Names.size();
    if (Error E = readBucket(R, Left, *NumEntries))
      return E;
    Left -= B.profile().Names.size() - Before;
  }
  PayloadEnd = R.tell();
  B.addSection("hash table payload", PayloadBegin, PayloadEnd - PayloadBegin);
  B.addSection("hash table buckets", HashOffset, 16 + *NumBuckets * 8);
  return checkBuckets(HashOffset + 16, *NumBuckets);
}

Error IndexedDecoder::readBucket(ByteReader &R, uint64_t EntriesLeft,
                                 uint64_t NumEntries) {
  Bucket Current;
  Current.Offset = R.tell();
  Expected<uint64_t> Count = R.fixed(2, "bucket entry count");
  if (!Count)
    return Count.takeError();
  if (*Count == 0 || *Count > EntriesLeft)
    return decodeError(Current.Offset,
                       "bucket of " + Twine(*Count) + " entries where " +
                           Twine(EntriesLeft) + " of the table's " +
                           Twine(NumEntries) + " entries are left");
  for (uint64_t I = 0; I < *Count; ++I) {
    uint64_t EntryOffset = R.tell();
    Expected<uint64_t> Hash = R.fixed(8, "entry hash");
    if (!Hash)
      return Hash.takeError();
    Expected<uint64_t> KeyLength = R.fixed(8, "entry key length");
    if (!KeyLength)
      return KeyLength.takeError();
    Expected<uint64_t> DataLength = R.fixed(8, "entry data length");
    if (!DataLength)
      return DataLength.takeError();
    if (*KeyLength > R.bytesLeft() || *DataLength > R.bytesLeft() - *KeyLength)
      return decodeError(EntryOffset + 8,
                         "entry of a " + Twine(*KeyLength) + "-byte name and " +
                             Twine(*DataLength) +
                             " bytes of records runs past the hash table "
                             "payload, which ends at " +
                             hex(R.size()) + " (" + Twine(R.bytesLeft()) +
                             " bytes left)");
    StringRef Name = toStringRef(cantFail(R.bytes(*KeyLength, "key")));
    uint64_t NameMD5 = MD5Hash(Name);
    if (*Hash != NameMD5)
      return decodeError(EntryOffset, "entry hash " + hex(*Hash) +
                                          " is not the MD5 of its name '" +
                                          Name + "' (" + hex(NameMD5) + ")");
    uint64_t DataBegin = R.tell();
    cantFail(R.bytes(*DataLength, "records").takeError());
    if (Error E = readRecords(Name, NameMD5, EntryOffset, DataBegin, R.tell()))
      return handleErrors(std::move(E), [&](const DecodeError &D) {
        return decodeError(D.offset(), "entry '" + Name + "': " + D.reason());
      });
    B.addName(Name);
    Current.Entries.emplace_back(EntryOffset, NameMD5);
  }
  Buckets.push_back(std::move(Current));
  return Error::success();
}

Error IndexedDecoder::readRecords(StringRef Name, uint64_t NameMD5,
                                  uint64_t EntryOffset, uint64_t Begin,
                                  uint64_t End) {
  uint32_t Version = B.profile().Header.version();
  if (Begin == End)
    return decodeError(EntryOffset, "no records");
  if ((End - Begin) % 8)
    return decodeError(EntryOffset, "records take " + Twine(End - Begin) +
                                        " bytes, not a multiple of 8");
  ByteReader R = readerAt(Begin, End);
  while (!R.atEnd()) {
    InstrProfFunction &F = B.addFunction();
    F.Name = Name.str();
    F.NameMD5 = NameMD5;
    F.Offset = EntryOffset;
    Expected<uint64_t> Hash = R.fixed(8, "CFG hash");
    if (!Hash)
      return Hash.takeError();
    F.Hash = *Hash;
    // Version 1 stores no count: its one record's counters fill the data.
    uint64_t NumCounts = R.bytesLeft() / 8;
    if (Version >= 2) {
      Expected<uint64_t> N = R.fixedCount(8, "counter count", 8);
      if (!N)
        return N.takeError();
      NumCounts = *N;
    }
    F.Counts.reserve(NumCounts);
    for (uint64_t I = 0; I < NumCounts; ++I)
      F.Counts.push_back(cantFail(R.fixed(8, "counter")));
    if (Version >= 11) {
      Expected<uint64_t> NumBytes = R.fixedCount(8, "bitmap byte count", 8);
      if (!NumBytes)
        return NumBytes.takeError();
      F.BitmapBytes.reserve(*NumBytes);
      for (uint64_t I = 0; I < *NumBytes; ++I) {
        uint64_t Offset = R.tell();
        uint64_t Byte = cantFail(R.fixed(8, "bitmap byte"));
        if (Byte > UINT8_MAX)
          return decodeError(Offset, "bitmap byte " + Twine(I) + " is " +
                                         hex(Byte) + ", more than a byte");
        F.BitmapBytes.push_back(uint8_t(Byte));
      }
    }
    if (Version >= 3)
      if (Error E = readValueData(R, F))
        return E;
  }
  return Error::success();
}

Error IndexedDecoder::readValueData(ByteReader &R, InstrProfFunction &F) {
  uint64_t Begin = R.tell();
  Expected<uint64_t> TotalSize = R.fixed(4, "value data size");
  if (!TotalSize)
    return TotalSize.takeError();
  Expected<uint64_t> NumKinds = R.fixed(4, "value kind count");
  if (!NumKinds)
    return NumKinds.takeError();
  if (*TotalSize < 8 || *TotalSize % 8)
    return decodeError(Begin, "value data size " + Twine(*TotalSize) +
                                  " is not a multiple of 8 of at least 8");
  if (*TotalSize - 8 > R.bytesLeft())
    return decodeError(Begin, "value data of " + Twine(*TotalSize) +
                                  " bytes runs past its record (" +
                                  Twine(R.bytesLeft() + 8) + " bytes left)");
  if (*NumKinds > IPVK_Last + 1)
    return decodeError(Begin + 4, "value kind count " + Twine(*NumKinds) +
                                      " exceeds " + Twine(IPVK_Last + 1));
  ByteReader V = readerAt(R.tell(), Begin + *TotalSize);
  cantFail(R.bytes(*TotalSize - 8, "value data").takeError());
  for (uint64_t K = 0; K < *NumKinds; ++K) {
    uint64_t KindOffset = V.tell();
    Expected<uint64_t> Kind = V.fixed(4, "value kind");
    if (!Kind)
      return Kind.takeError();
    if (*Kind > IPVK_Last)
      return decodeError(KindOffset, "unknown value kind " + Twine(*Kind));
    Expected<uint64_t> NumSites = V.fixedCount(4, "value site count", 1);
    if (!NumSites)
      return NumSites.takeError();
    ArrayRef<uint8_t> SiteCounts = cantFail(V.bytes(*NumSites, "site counts"));
    uint64_t Padding = alignTo(8 + *NumSites, 8) - (8 + *NumSites);
    if (Error E = V.bytes(Padding, "value site padding").takeError())
      return E;
    uint64_t NumValues = 0;
    for (uint8_t N : SiteCounts)
      NumValues += N;
    if (NumValues > V.bytesLeft() / 16)
      return decodeError(KindOffset, Twine(NumValues) + " values of kind " +
                                         Twine(*Kind) +
                                         " run past the value data (" +
                                         Twine(V.bytesLeft()) + " bytes left)");
    if (F.ValueSites.size() <= *Kind)
      F.ValueSites.resize(*Kind + 1);
    std::vector<InstrProfValueSite> &Sites = F.ValueSites[*Kind];
    Sites.reserve(Sites.size() + SiteCounts.size());
    for (uint8_t N : SiteCounts) {
      InstrProfValueSite &Site = Sites.emplace_back();
      Site.reserve(N);
      for (uint8_t I = 0; I < N; ++I) {
        uint64_t Value = cantFail(V.fixed(8, "value"));
        uint64_t Count = cantFail(V.fixed(8, "count"));
        Site.push_back({Value, Count, std::nullopt});
      }
    }
  }
  return Error::success();
}

Error IndexedDecoder::checkBuckets(uint64_t BucketsBegin, uint64_t NumBuckets) {
  std::map<uint64_t, size_t> BucketAt;
  for (size_t I = 0; I < Buckets.size(); ++I)
    BucketAt.emplace(Buckets[I].Offset, I);
  ByteReader R = readerAt(BucketsBegin, BucketsBegin + NumBuckets * 8);
  for (uint64_t Slot = 0; Slot < NumBuckets; ++Slot) {
    uint64_t SlotOffset = R.tell();
    uint64_t Offset = cantFail(R.fixed(8, "bucket offset"));
    if (Offset == 0)
      continue;
    std::string Which =
        ("bucket " + Twine(Slot) + " offset " + hex(Offset)).str();
    auto It = BucketAt.find(Offset);
    if (Offset < PayloadBegin || Offset >= PayloadEnd)
      return decodeError(SlotOffset, Which +
                                         " is outside the hash table payload "
                                         "from " +
                                         hex(PayloadBegin) + " to " +
                                         hex(PayloadEnd));
    if (It == BucketAt.end())
      return decodeError(SlotOffset,
                         Which + " is not where a bucket's entries start");
    Bucket &Found = Buckets[It->second];
    if (Found.Slot)
      return decodeError(SlotOffset, Which + " names the entries of bucket " +
                                         Twine(*Found.Slot) + " too");
    Found.Slot = Slot;
    for (const auto &[EntryOffset, Hash] : Found.Entries)
      if ((Hash & (NumBuckets - 1)) != Slot)
        return decodeError(
            EntryOffset, "entry of hash " + hex(Hash) + " belongs in bucket " +
                             Twine(Hash & (NumBuckets - 1)) + ", but bucket " +
                             Twine(Slot) + " holds it");
  }
  for (const Bucket &Walked : Buckets)
    if (!Walked.Slot)
      return decodeError(Walked.Offset,
                         "no bucket of the hash table leads to the " +
                             Twine(Walked.Entries.size()) + " entries here");
  return Error::success();
}

Expected<uint64_t> IndexedDecoder::sectionStart(StringRef Field,
                                                StringRef Section,
                                                uint64_t MinSize) const {
  uint64_t Offset = field(Field);
  if (Offset < PayloadBegin)
    return decodeError(fieldOffset(Field),
                       Field + " " + hex(Offset) + " puts the " + Section +
                           " section before the end of the summaries at " +
                           hex(PayloadBegin));
  if (Offset > File.size() || File.size() - Offset < MinSize)
    return decodeError(fieldOffset(Field),
                       Field + " " + hex(Offset) + " puts the " + Section +
                           " section past the end of the file at " +
                           hex(File.size()));
  return Offset;
}

Error IndexedDecoder::readMemProf() {
  Expected<uint64_t> Begin = sectionStart("MemProfOffset", "memory profile", 8);
  if (!Begin)
    return Begin.takeError();
  // The section ends where the next one begins (InstrProfWriter writes the
  // binary IDs, vtable names and traces after it), or at the end of the
  // file.
  const InstrProfHeader &H = B.profile().Header;
  uint64_t End = File.size();
  for (StringRef Next :
       {"BinaryIdOffset", "VTableNamesOffset", "TemporalProfTracesOffset"})
    if (std::optional<uint64_t> Offset = H.field(Next))
      if (*Offset > *Begin && *Offset < End &&
          (Next != "TemporalProfTracesOffset" || H.hasTemporalProfile()))
        End = *Offset;
  ByteReader R = readerAt(*Begin, End);
  if (End - *Begin < 8)
    return decodeError(*Begin, "memory profile of " + Twine(End - *Begin) +
                                   " bytes before the next section at " +
                                   hex(End) + " has no room for its version");
  uint64_t First = cantFail(R.fixed(8, "memory profile version"));
  // Version 0 has no version word: it starts with its record table offset,
  // which is at least 24 (IndexedMemProfReader's test).
  uint64_t Version = First;
  if (First >= 24) {
    Version = 0;
    R = readerAt(*Begin, End);
  } else if (First < 1 || First > 4) {
    return decodeError(*Begin, "memory profile starts with " + Twine(First) +
                                   ", neither a version from 1 to 4 nor the "
                                   "record table offset of version 0");
  }
  for (StringRef Name : memProfHeaderFields(Version)) {
    uint64_t Offset = R.tell();
    Expected<uint64_t> Value = R.fixed(8, ("memory profile " + Name).str());
    if (!Value)
      return Value.takeError();
    bool Optional = Name == "DataAccessProfOffset" && *Value == 0;
    if (!Optional && (*Value < *Begin || *Value >= End))
      return decodeError(Offset, "memory profile " + Name + " " + hex(*Value) +
                                     " is outside its section from " +
                                     hex(*Begin) + " to " + hex(End));
  }
  B.addSection("memory profile", *Begin, End - *Begin, Version);
  return Error::success();
}

Error IndexedDecoder::readBinaryIds() {
  Expected<uint64_t> Begin = sectionStart("BinaryIdOffset", "binary IDs", 8);
  if (!Begin)
    return Begin.takeError();
  ByteReader R = readerAt(*Begin, File.size());
  uint64_t Size = cantFail(R.fixed(8, "binary IDs size"));
  if (Size % 8)
    return decodeError(*Begin, "binary IDs size " + Twine(Size) +
                                   " is not a multiple of 8");
  if (Size > R.bytesLeft())
    return decodeError(*Begin, "binary IDs section of " + Twine(Size) +
                                   " bytes runs past the end of the file (" +
                                   Twine(R.bytesLeft()) + " bytes left)");
  R = readerAt(*Begin + 8, *Begin + 8 + Size);
  while (!R.atEnd()) {
    uint64_t Offset = R.tell();
    Expected<uint64_t> Length = R.fixed(8, "binary ID length");
    if (!Length)
      return Length.takeError();
    if (*Length == 0)
      return decodeError(Offset, "binary ID of length 0");
    if (alignTo(*Length, 8) > R.bytesLeft() || *Length > R.bytesLeft())
      return decodeError(Offset, "binary ID of " + Twine(*Length) +
                                     " bytes runs past the binary IDs "
                                     "section (" +
                                     Twine(R.bytesLeft()) + " bytes left)");
    ArrayRef<uint8_t> Id = cantFail(R.bytes(alignTo(*Length, 8), "binary ID"));
    B.addBinaryId(Id.take_front(*Length));
  }
  B.addSection("binary IDs", *Begin, 8 + Size);
  return Error::success();
}

Error IndexedDecoder::readVTableNames() {
  Expected<uint64_t> Begin =
      sectionStart("VTableNamesOffset", "vtable names", 8);
  if (!Begin)
    return Begin.takeError();
  ByteReader R = readerAt(*Begin, File.size());
  uint64_t Size = cantFail(R.fixed(8, "vtable names size"));
  if (Size > R.bytesLeft())
    return decodeError(*Begin, "vtable names of " + Twine(Size) +
                                   " bytes run past the end of the file (" +
                                   Twine(R.bytesLeft()) + " bytes left)");
  if (Error E = B.readNames(File, *Begin + 8, Size,
                            InstrProfBuilder::NameList::VTables))
    return E;
  uint64_t Padded = std::min(alignTo(Size, 8), R.bytesLeft());
  B.addSection("vtable names", *Begin, 8 + Padded);
  return Error::success();
}

Error IndexedDecoder::readTemporalTraces() {
  Expected<uint64_t> Begin =
      sectionStart("TemporalProfTracesOffset", "temporal profile traces", 16);
  if (!Begin)
    return Begin.takeError();
  ByteReader R = readerAt(*Begin, File.size());
  uint64_t NumTraces = cantFail(R.fixed(8, "temporal trace count"));
  B.setTemporalTraceStreamSize(cantFail(R.fixed(8, "trace stream size")));
  if (NumTraces > R.bytesLeft() / 16)
    return decodeError(*Begin, "temporal trace count " + Twine(NumTraces) +
                                   " needs at least " + Twine(NumTraces * 16) +
                                   " bytes, " + Twine(R.bytesLeft()) + " left");
  for (uint64_t I = 0; I < NumTraces; ++I) {
    InstrProfTemporalTrace &T = B.addTemporalTrace();
    Expected<uint64_t> Weight = R.fixed(8, "temporal trace weight");
    if (!Weight)
      return Weight.takeError();
    T.Weight = *Weight;
    Expected<uint64_t> N = R.fixedCount(8, "temporal trace function count", 8);
    if (!N)
      return N.takeError();
    T.FunctionNameRefs.reserve(*N);
    for (uint64_t J = 0; J < *N; ++J)
      T.FunctionNameRefs.push_back(cantFail(R.fixed(8, "name")));
  }
  B.addSection("temporal profile traces", *Begin, R.tell() - *Begin);
  return Error::success();
}

Error IndexedDecoder::run() {
  if (Error E = readHeader())
    return E;
  const InstrProfHeader &H = B.profile().Header;
  uint32_t Version = H.version();
  if (Version >= 4) {
    if (Error E = readSummary(/*ContextSensitive=*/false))
      return E;
    if (H.has(VariantContextSensitive))
      if (Error E = readSummary(/*ContextSensitive=*/true))
        return E;
  }
  if (Error E = readHashTable())
    return E;
  if (Version >= 8 && H.has(VariantMemProf))
    if (Error E = readMemProf())
      return E;
  if (Version >= 9)
    if (Error E = readBinaryIds())
      return E;
  if (Version >= 12)
    if (Error E = readVTableNames())
      return E;
  if (Version >= 10 && H.hasTemporalProfile())
    if (Error E = readTemporalTraces())
      return E;
  B.finish();
  return Error::success();
}

} // namespace

bool isIndexedInstrProfile(ArrayRef<uint8_t> Bytes) {
  return Bytes.size() >= 8 &&
         support::endian::read64le(Bytes.data()) == IndexedMagic;
}

bool isSupportedIndexedVersion(uint32_t Version) {
  return Version >= 1 && Version <= LastIndexedVersion;
}

Error decodeIndexedInstrProfile(ArrayRef<uint8_t> Bytes,
                                InstrProfConsumer &Consumer) {
  InstrProfBuilder Builder(Consumer);
  return IndexedDecoder(Bytes, Builder).run();
}

Expected<InstrProfileFile> decodeIndexedInstrProfile(ArrayRef<uint8_t> Bytes) {
  InstrProfCollector Collector;
  if (Error E = decodeIndexedInstrProfile(Bytes, Collector))
    return E;
  return Collector.take();
}

} // namespace bbmap
