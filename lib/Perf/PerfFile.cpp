//===- PerfFile.cpp - perf.data decoder -----------------------------------===//
//
// The file header, attrs and features of a perf.data file, the header
// records of a pipe, the record stream with its zstd-compressed records,
// and the decoders of samples and of the records perf script prints. Every
// read is checked against the record or section it belongs to.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/PerfFile.h"
#include "bbmap/Support/ByteReader.h"
#include "bbmap/Support/MappedPages.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include <zstd.h>

using namespace llvm;

namespace bbmap::perf {

namespace {

/// The sample_type bits whose fields form the sample_id_all trailer.
constexpr uint64_t TrailerBits = sample::TID | sample::Time | sample::ID |
                                 sample::StreamID | sample::CPU |
                                 sample::Identifier;

/// The largest attr this decoder reads fields of (PERF_ATTR_SIZE_VER4).
constexpr uint64_t AttrSizeRead = 104;

/// The largest attr perf 6.1 reads (PERF_ATTR_SIZE_VER7); a file's attr
/// may be larger, a record's fields past it are ignored.
constexpr uint64_t MaxAttrSize = 4096;

/// Decompressed bytes produced per call to zstd.
constexpr size_t DecompressChunk = 1 << 20;

/// How far ahead of the record it reads the record walk asks for memory.
constexpr uint64_t PrefetchAhead = 4096;

/// perf's evsel->id_pos: the u64 word of a sample that holds its ID.
int sampleIDPos(uint64_t Type) {
  if (Type & sample::Identifier)
    return 0;
  if (!(Type & sample::ID))
    return -1;
  return bool(Type & sample::IP) + bool(Type & sample::TID) +
         bool(Type & sample::Time) + bool(Type & sample::Addr);
}

/// perf's evsel->is_pos: the word, counted back from a record's end, that
/// holds the ID of a sample_id_all trailer.
int trailerIDPos(uint64_t Type) {
  if (Type & sample::Identifier)
    return 1;
  if (!(Type & sample::ID))
    return -1;
  return 1 + bool(Type & sample::CPU) + bool(Type & sample::StreamID);
}

/// DenseMap keeps the two largest u64 values for itself: no event can be
/// found by them (perf never gives them out).
bool usableID(uint64_t ID) { return ID < ~0ULL - 1; }

std::string recordName(uint32_t Type) {
  return "record type " + std::to_string(Type);
}

/// A NUL-terminated string inside \p Bytes; false if there is no NUL.
bool readCString(ArrayRef<uint8_t> Bytes, StringRef &S) {
  StringRef All(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  size_t End = All.find('\0');
  if (End == StringRef::npos)
    return false;
  S = All.take_front(End);
  return true;
}

} // namespace

uint64_t ByteOrder::bitfield(uint64_t V) const {
  return Little ? V : reverseBits(V);
}

uint64_t ByteOrder::branchFlags(uint64_t V) const {
  if (Little)
    return V;
  // mispred, predicted, in_tx, abort, cycles, type, spec, new_type, priv,
  // reserved.
  static constexpr unsigned Fields[][2] = {{0, 1},  {1, 1},  {2, 1},  {3, 1},
                                           {4, 16}, {20, 4}, {24, 2}, {26, 4},
                                           {30, 3}, {33, 31}};
  uint64_t Out = 0;
  for (const auto &[Pos, Size] : Fields)
    Out |= (V >> (64 - Pos - Size) & maskTrailingOnes<uint64_t>(Size)) << Pos;
  return Out;
}

struct PerfFile::Decompressor {
  ZSTD_DStream *Stream = nullptr;
  /// Decompressed bytes not yet handed on: the start of a record whose
  /// rest is in the next compressed record.
  std::vector<uint8_t> Pending;

  Decompressor() : Stream(ZSTD_createDStream()) {}
  ~Decompressor() { ZSTD_freeDStream(Stream); }
};

PerfFile::PerfFile(MemoryBufferRef Buffer) : Buffer(Buffer) {}

PerfFile::~PerfFile() = default;

Expected<std::unique_ptr<PerfFile>> PerfFile::create(MemoryBufferRef Buffer) {
  std::unique_ptr<PerfFile> File(new PerfFile(Buffer));
  if (Error E = File->readFileHeader())
    return E;
  return File;
}

Error PerfFile::readFileHeader() {
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>(Buffer.getBufferStart()),
      Buffer.getBufferSize());
  if (Bytes.size() < PipeHeaderSize)
    return decodeError(0, "not a perf.data file: " + Twine(Bytes.size()) +
                              " bytes, shorter than a perf header");
  uint64_t MagicWord = support::endian::read64le(Bytes.data());
  if (MagicWord == MagicSwapped)
    Order.Little = false;
  else if (MagicWord != Magic)
    return decodeError(
        0, StringRef(Buffer.getBufferStart(), 8).starts_with("PERFFILE")
               ? "perf.data version 1 is not supported"
               : "not a perf.data file (no PERFILE2 magic)");
  uint64_t HeaderSize = Order.u64(Bytes.data() + 8);
  if (HeaderSize == PipeHeaderSize) {
    Pipe = true;
    DataOffset = PipeHeaderSize;
    DataSize = Bytes.size() - PipeHeaderSize;
    return Error::success();
  }
  // perf also reads the header of its first releases, without features.
  constexpr uint64_t HeaderWithoutFeatures = 72;
  if (HeaderSize != FileHeaderSize && HeaderSize != HeaderWithoutFeatures)
    return decodeError(8, "header size " + Twine(HeaderSize) +
                              " is neither a file's (104) nor a pipe's (16)");
  if (Bytes.size() < HeaderSize)
    return decodeError(0, "truncated file header: " + Twine(Bytes.size()) +
                              " bytes of " + Twine(HeaderSize));
  const uint8_t *H = Bytes.data();
  uint64_t AttrSize = Order.u64(H + 16);
  uint64_t AttrsOffset = Order.u64(H + 24), AttrsSize = Order.u64(H + 32);
  DataOffset = Order.u64(H + 40);
  DataSize = Order.u64(H + 48);
  uint64_t Bitmap[4] = {0, 0, 0, 0};
  if (HeaderSize == FileHeaderSize)
    for (unsigned I = 0; I < 4; ++I)
      Bitmap[I] = Order.u64(H + 72 + 8 * I);
  auto CheckSection = [&](uint64_t HeaderField, uint64_t Offset, uint64_t Size,
                          StringRef What) -> Error {
    if (Offset > Bytes.size() || Size > Bytes.size() - Offset)
      return decodeError(HeaderField, What + " section [" + hex(Offset) +
                                          ", +" + hex(Size) +
                                          ") runs past the end of the file (" +
                                          hex(Bytes.size()) + " bytes)");
    return Error::success();
  };
  if (Error E = CheckSection(24, AttrsOffset, AttrsSize, "attrs"))
    return E;
  if (Error E = CheckSection(40, DataOffset, DataSize, "data"))
    return E;
  if (Error E = readAttrs(AttrsOffset, AttrsSize, AttrSize))
    return E;
  return readFeatures(DataOffset + DataSize, Bitmap);
}

Expected<EventAttr> PerfFile::readAttr(uint64_t Offset,
                                       ArrayRef<uint8_t> Bytes) const {
  if (Bytes.size() < AttrSizeVer0)
    return decodeError(Offset, "perf_event_attr of " + Twine(Bytes.size()) +
                                   " bytes, shorter than the first version's " +
                                   Twine(AttrSizeVer0));
  uint8_t Field[AttrSizeRead] = {};
  std::copy_n(Bytes.begin(), std::min<size_t>(Bytes.size(), AttrSizeRead),
              Field);
  EventAttr A;
  A.Type = Order.u32(Field);
  A.Size = Order.u32(Field + 4);
  A.Config = Order.u64(Field + 8);
  A.SamplePeriod = Order.u64(Field + 16);
  A.SampleType = Order.u64(Field + 24);
  A.ReadFormat = Order.u64(Field + 32);
  A.Flags = Order.bitfield(Order.u64(Field + 40));
  // Fields past the size the attr gives itself stay zero.
  uint64_t Size = A.Size ? A.Size : AttrSizeVer0;
  auto Has = [&](uint64_t End) { return Size >= End && Bytes.size() >= End; };
  if (Has(80))
    A.BranchSampleType = Order.u64(Field + 72);
  if (Has(88))
    A.SampleRegsUser = Order.u64(Field + 80);
  if (Has(92))
    A.SampleStackUser = Order.u32(Field + 88);
  if (Has(104))
    A.SampleRegsIntr = Order.u64(Field + 96);
  if (A.SampleType & ~sample::Known)
    return decodeError(Offset + 24, "sample_type " + hex(A.SampleType) +
                                        " has bits this decoder does not know");
  return A;
}

PerfFile::FixedLayout PerfFile::fixedLayout(const EventAttr &A) {
  FixedLayout L;
  uint64_t T = A.SampleType;
  if (T & (sample::Read | sample::Callchain | sample::Raw | sample::RegsUser |
           sample::StackUser | sample::RegsIntr | sample::Aux))
    return L;
  uint16_t At = RecordHeaderSize;
  auto Take = [&](uint64_t Bit, int16_t &Field) {
    if (T & Bit) {
      Field = At;
      At += 8;
    }
  };
  Take(sample::Identifier, L.Identifier);
  Take(sample::IP, L.IP);
  Take(sample::TID, L.TID);
  Take(sample::Time, L.Time);
  Take(sample::Addr, L.Addr);
  Take(sample::ID, L.ID);
  Take(sample::StreamID, L.StreamID);
  Take(sample::CPU, L.CPU);
  Take(sample::Period, L.Period);
  if (T & sample::BranchStack) {
    L.Branch = At;
    At += 8;
    if (A.BranchSampleType & branch::HWIndex) {
      L.HWIndex = At;
      At += 8;
    }
    L.EntrySize = A.BranchSampleType & branch::Counters ? 32 : 24;
  }
  // The fixed-size fields after the branch stack.
  At += 8 * (bool(T & (sample::Weight | sample::WeightStruct)) +
             popcount(T & (sample::DataSrc | sample::Transaction |
                           sample::PhysAddr | sample::CGroup |
                           sample::DataPageSize | sample::CodePageSize)));
  L.Size = At;
  L.Valid = true;
  return L;
}

Error PerfFile::addEvent(std::unique_ptr<Event> E, uint64_t Offset) {
  if (Error Err = checkSampleIDLayout(E->Attr, Offset))
    return Err;
  for (uint64_t ID : E->IDs)
    if (usableID(ID))
      ByID.try_emplace(ID, E.get());
  E->Index = Events.size();
  Layouts.push_back(fixedLayout(E->Attr));
  Events.push_back(std::move(E));
  return Error::success();
}

Error PerfFile::checkSampleIDLayout(const EventAttr &A, uint64_t Offset) {
  if (Events.empty()) {
    IDPos = sampleIDPos(A.SampleType);
    TrailerIDPos = trailerIDPos(A.SampleType);
    return Error::success();
  }
  // Each event is checked against the first, which fixed the positions.
  const EventAttr &First = Events.front()->Attr;
  if (IDPos < 0 || TrailerIDPos < 0 || sampleIDPos(A.SampleType) != IDPos ||
      trailerIDPos(A.SampleType) != TrailerIDPos)
    return decodeError(Offset, "the events' sample_types (" +
                                   hex(First.SampleType) + ", " +
                                   hex(A.SampleType) +
                                   ") do not tell their records apart (no "
                                   "ID or IDENTIFIER at one place)");
  if (A.sampleIDAll() != First.sampleIDAll())
    return decodeError(Offset, "some events have sample_id_all, others not");
  return Error::success();
}

Error PerfFile::readAttrs(uint64_t Offset, uint64_t Size, uint64_t AttrSize) {
  constexpr uint64_t IDSection = 16;
  if (AttrSize < AttrSizeVer0 + IDSection || AttrSize > MaxAttrSize)
    return decodeError(16, "attr_size " + Twine(AttrSize) + " out of range");
  if (Size % AttrSize)
    return decodeError(32, "attrs section of " + Twine(Size) +
                               " bytes is no multiple of attr_size " +
                               Twine(AttrSize));
  if (Size == 0)
    return decodeError(32, "no events (the attrs section is empty)");
  const uint8_t *Base =
      reinterpret_cast<const uint8_t *>(Buffer.getBufferStart());
  uint64_t FileSize = Buffer.getBufferSize();
  // perf writes each attr's IDs apart: together they fit in the file. IDs
  // that overlap could make every attr hold the whole file.
  uint64_t AllIDsSize = 0;
  for (uint64_t At = Offset; At < Offset + Size; At += AttrSize) {
    auto E = std::make_unique<Event>();
    Expected<EventAttr> A =
        readAttr(At, ArrayRef(Base + At, AttrSize - IDSection));
    if (!A)
      return A.takeError();
    E->Attr = *A;
    uint64_t IDsAt = At + AttrSize - IDSection;
    uint64_t IDsOffset = Order.u64(Base + IDsAt);
    uint64_t IDsSize = Order.u64(Base + IDsAt + 8);
    if (IDsSize % 8 || IDsOffset > FileSize || IDsSize > FileSize - IDsOffset)
      return decodeError(IDsAt, "IDs [" + hex(IDsOffset) + ", +" +
                                    hex(IDsSize) +
                                    ") of an attr run past the end of the "
                                    "file or are not 8-byte words");
    AllIDsSize += IDsSize;
    if (AllIDsSize > FileSize)
      return decodeError(IDsAt, "the attrs' IDs add up to more than the " +
                                    hex(FileSize) +
                                    " bytes of the file (their sections "
                                    "overlap)");
    for (uint64_t I = 0; I < IDsSize; I += 8)
      E->IDs.push_back(Order.u64(Base + IDsOffset + I));
    if (Error Err = addEvent(std::move(E), At))
      return Err;
  }
  return Error::success();
}

Error PerfFile::readFeatures(uint64_t Offset, const uint64_t Bitmap[4]) {
  const uint8_t *Base =
      reinterpret_cast<const uint8_t *>(Buffer.getBufferStart());
  uint64_t FileSize = Buffer.getBufferSize();
  uint64_t Index = 0;
  for (unsigned Bit = 0; Bit < feature::Bits; ++Bit) {
    if (!(Bitmap[Bit / 64] >> (Bit % 64) & 1))
      continue;
    uint64_t At = Offset + 16 * Index++;
    if (At > FileSize || FileSize - At < 16)
      return decodeError(At, "the section table of feature " + Twine(Bit) +
                                 " runs past the end of the file");
    uint64_t SectionOffset = Order.u64(Base + At);
    uint64_t SectionSize = Order.u64(Base + At + 8);
    if (SectionOffset > FileSize || SectionSize > FileSize - SectionOffset)
      return decodeError(At, "feature " + Twine(Bit) + " section [" +
                                 hex(SectionOffset) + ", +" + hex(SectionSize) +
                                 ") runs past the end of the file");
    if (Error E = readFeature(Bit, SectionOffset,
                              ArrayRef(Base + SectionOffset, SectionSize)))
      return E;
  }
  return Error::success();
}

Error PerfFile::readFeature(unsigned Feature, uint64_t Offset,
                            ArrayRef<uint8_t> Bytes) {
  switch (Feature) {
  case feature::BuildID:
    HasBuildIDFeature = !Pipe;
    return readBuildIDs(Offset, Bytes);
  case feature::CmdLine:
    return readCommandLine(Offset, Bytes);
  case feature::EventDesc:
    return readEventDesc(Offset, Bytes);
  case feature::Auxtrace:
    // perf reads the index of a file only.
    return Pipe ? Error::success() : readAuxtraceIndex(Offset, Bytes);
  case feature::Compressed: {
    if (Bytes.size() < 8)
      return decodeError(Offset, "truncated COMPRESSED feature");
    CompressionType = Order.u32(Bytes.data() + 4);
    if (CompressionType != CompressionZstd)
      return decodeError(Offset + 4, "compression type " +
                                         Twine(CompressionType) +
                                         " is not zstd (1)");
    return Error::success();
  }
  default:
    return Error::success();
  }
}

namespace {

/// perf's header strings: u32 length, then that many bytes holding a
/// NUL-terminated string.
Expected<StringRef> readHeaderString(ByteReader &R, StringRef What) {
  uint64_t At = R.tell();
  Expected<uint64_t> Length = R.fixed(4, What);
  if (!Length)
    return Length.takeError();
  Expected<ArrayRef<uint8_t>> Bytes = R.bytes(*Length, What);
  if (!Bytes)
    return Bytes.takeError();
  StringRef S;
  if (!readCString(*Bytes, S))
    return decodeError(At, What + " is not NUL-terminated");
  return S;
}

} // namespace

Error PerfFile::readCommandLine(uint64_t Offset, ArrayRef<uint8_t> Bytes) {
  ByteReader R(Bytes, Order.Little);
  auto Fail = [&](Error E) {
    return decodeError(Offset + R.tell(),
                       "CMDLINE feature: " + toString(std::move(E)));
  };
  Expected<uint64_t> N = R.fixedCount(4, "argument count", 4);
  if (!N)
    return Fail(N.takeError());
  for (uint64_t I = 0; I < *N; ++I) {
    Expected<StringRef> Arg = readHeaderString(R, "argument");
    if (!Arg)
      return Fail(Arg.takeError());
    CommandLine.push_back(Arg->str());
  }
  return Error::success();
}

Error PerfFile::readAuxtraceIndex(uint64_t Offset, ArrayRef<uint8_t> Bytes) {
  // A u64 count, then that many {file offset, size} pairs of u64.
  ByteReader R(Bytes, Order.Little);
  Expected<uint64_t> N = R.fixedCount(8, "AUXTRACE index count", 16);
  if (!N)
    return decodeError(Offset + R.tell(),
                       "AUXTRACE feature: " + toString(N.takeError()));
  AuxtraceIndex.reserve(*N);
  for (uint64_t I = 0; I < *N; ++I) {
    AuxtraceIndexEntry E;
    E.Offset = Order.u64(Bytes.data() + 8 + 16 * I);
    E.Size = Order.u64(Bytes.data() + 16 + 16 * I);
    AuxtraceIndex.push_back(E);
  }
  return Error::success();
}

Error PerfFile::readEventDesc(uint64_t Offset, ArrayRef<uint8_t> Bytes) {
  ByteReader R(Bytes, Order.Little);
  auto Fail = [&](Error E) {
    return decodeError(Offset + R.tell(),
                       "EVENT_DESC feature: " + toString(std::move(E)));
  };
  Expected<uint64_t> N = R.fixedCount(4, "event count", AttrSizeVer0);
  if (!N)
    return Fail(N.takeError());
  Expected<uint64_t> AttrSize = R.fixed(4, "attr size");
  if (!AttrSize)
    return Fail(AttrSize.takeError());
  for (uint64_t I = 0; I < *N; ++I) {
    if (Expected<ArrayRef<uint8_t>> Attr = R.bytes(*AttrSize, "attr"); !Attr)
      return Fail(Attr.takeError());
    Expected<uint64_t> IDs = R.fixedCount(4, "ID count", 8);
    if (!IDs)
      return Fail(IDs.takeError());
    Expected<StringRef> Name = readHeaderString(R, "event name");
    if (!Name)
      return Fail(Name.takeError());
    if (Expected<ArrayRef<uint8_t>> Skip = R.bytes(8 * *IDs, "IDs"); !Skip)
      return Fail(Skip.takeError());
    // perf names its events by index; an event a later EVENT_UPDATE names
    // keeps that name.
    if (I < Events.size() && Events[I]->Name.empty())
      Events[I]->Name = Name->str();
  }
  return Error::success();
}

Error PerfFile::readBuildIDs(uint64_t Offset, ArrayRef<uint8_t> Bytes) {
  // struct perf_record_header_build_id: header, pid, 24 bytes (20 of build
  // ID, its size, padding), the file name up to the record's end.
  constexpr uint64_t FixedSize = 8 + 4 + 24;
  uint64_t At = 0;
  while (At < Bytes.size()) {
    if (Bytes.size() - At < FixedSize)
      return decodeError(Offset + At, "truncated build-ID record");
    const uint8_t *P = Bytes.data() + At;
    uint16_t Misc = Order.u16(P + 4);
    uint16_t Size = Order.u16(P + 6);
    if (Size < FixedSize || Size > Bytes.size() - At)
      return decodeError(Offset + At, "build-ID record size " + Twine(Size) +
                                          " out of range");
    BuildIDEntry B;
    B.PID = int32_t(Order.u32(P + 8));
    unsigned IDSize = 20;
    if (Misc & misc::BuildIDSize)
      IDSize = std::min<unsigned>(P[12 + 20], 20);
    B.ID = toHex(ArrayRef(P + 12, IDSize), /*LowerCase=*/true);
    StringRef Path;
    if (!readCString(ArrayRef(P + FixedSize, Size - FixedSize), Path))
      return decodeError(Offset + At + FixedSize,
                         "build-ID record's file name is not NUL-terminated");
    B.Path = Path.str();
    BuildIDs.push_back(std::move(B));
    At += Size;
  }
  return Error::success();
}

Error PerfFile::readUserRecord(const Record &R) {
  const uint8_t *P = R.Bytes.data();
  uint64_t Size = R.Bytes.size();
  switch (R.Type) {
  case record::HeaderAttr: {
    if (Size < RecordHeaderSize + AttrSizeVer0)
      return decodeError(R.Offset, "HEADER_ATTR record of " + Twine(Size) +
                                       " bytes holds no attr");
    uint32_t AttrSize = Order.u32(P + 12);
    if (AttrSize == 0)
      AttrSize = AttrSizeVer0;
    if (AttrSize < AttrSizeVer0 || AttrSize > Size - RecordHeaderSize ||
        (Size - RecordHeaderSize - AttrSize) % 8)
      return decodeError(R.Offset + 12, "HEADER_ATTR attr size " +
                                            Twine(AttrSize) +
                                            " does not fit its record");
    auto E = std::make_unique<Event>();
    Expected<EventAttr> A = readAttr(R.Offset + RecordHeaderSize,
                                     ArrayRef(P + RecordHeaderSize, AttrSize));
    if (!A)
      return A.takeError();
    E->Attr = *A;
    for (uint64_t At = RecordHeaderSize + AttrSize; At < Size; At += 8)
      E->IDs.push_back(Order.u64(P + At));
    return addEvent(std::move(E), R.Offset);
  }
  case record::HeaderFeature: {
    if (Size < RecordHeaderSize + 8)
      return decodeError(R.Offset, "truncated HEADER_FEATURE record");
    uint64_t Feature = Order.u64(P + 8);
    if (Feature >= feature::Bits)
      return decodeError(R.Offset + 8,
                         "feature " + Twine(Feature) + " out of range");
    return readFeature(Feature, R.Offset + 16, R.Bytes.drop_front(16));
  }
  case record::HeaderBuildID:
    return readBuildIDs(R.Offset, R.Bytes);
  case record::EventUpdate: {
    if (Size < RecordHeaderSize + 16)
      return decodeError(R.Offset, "truncated EVENT_UPDATE record");
    if (Order.u64(P + 8) != eventupdate::Name)
      return Error::success();
    const Event *Named = eventByID(Order.u64(P + 16));
    if (!Named)
      return Error::success();
    StringRef Name;
    if (!readCString(R.Bytes.drop_front(24), Name))
      return decodeError(R.Offset + 24,
                         "EVENT_UPDATE name is not NUL-terminated");
    const_cast<Event *>(Named)->Name = Name.str();
    return Error::success();
  }
  default:
    return Error::success();
  }
}

Error PerfFile::forEachRecord(function_ref<Error(const Record &)> Callback) {
  const uint8_t *Base =
      reinterpret_cast<const uint8_t *>(Buffer.getBufferStart());
  uint64_t End = DataOffset + DataSize;
  uint64_t At = DataOffset;
  while (At < End) {
    if (End - At < RecordHeaderSize)
      return decodeError(At, "truncated record header: " + Twine(End - At) +
                                 " bytes left in the data section");
    const uint8_t *P = Base + At;
    // A page ahead: its translation (a two-level walk in a virtual machine)
    // and a line of it come in while this record is read, where the
    // record walk otherwise waits for every header (10 % of bbmap-dump
    // --perf-data's CPU time on a branch-stack file).
    if (End - At > PrefetchAhead)
      __builtin_prefetch(P + PrefetchAhead);
    Record R;
    R.Type = Order.u32(P);
    R.Misc = Order.u16(P + 4);
    uint16_t Size = Order.u16(P + 6);
    R.Offset = At;
    if (Size < RecordHeaderSize)
      return decodeError(At + 6, "record size " + Twine(Size) +
                                     " is smaller than its header");
    if (Size > End - At)
      return decodeError(At + 6, recordName(R.Type) + " of " + Twine(Size) +
                                     " bytes runs past the end of the data "
                                     "section (" +
                                     Twine(End - At) + " bytes left)");
    R.Bytes = ArrayRef(P, Size);
    At += Size;
    if ((R.Type == 0 || R.Type > record::AuxOutputHWID) &&
        (R.Type < record::UserTypeStart || R.Type > record::FinishedInit))
      return decodeError(R.Offset, "unknown " + recordName(R.Type));
    // Data perf writes right after the record, outside it.
    uint64_t Trailing = 0;
    if (R.Type == record::Auxtrace) {
      if (Size < RecordHeaderSize + 8)
        return decodeError(R.Offset, "truncated AUXTRACE record");
      Trailing = Order.u64(P + 8);
    } else if (R.Type == record::HeaderTracingData && Pipe) {
      if (Size < RecordHeaderSize + 4)
        return decodeError(R.Offset, "truncated TRACING_DATA record");
      Trailing = alignTo(Order.u32(P + 8), 8);
    }
    if (Trailing > End - At)
      return decodeError(R.Offset, recordName(R.Type) + " announces " +
                                       Twine(Trailing) +
                                       " bytes of data after it, more than "
                                       "are left");
    At += Trailing;
    if (R.Type == record::Compressed) {
      if (Error E = decompress(R, Callback))
        return E;
      continue;
    }
    if (R.Type >= record::UserTypeStart)
      if (Error E = readUserRecord(R))
        return E;
    if (Error E = Callback(R))
      return E;
  }
  if (Zstd && !Zstd->Pending.empty())
    return decodeError(End, "the compressed data ends inside a record (" +
                                Twine(Zstd->Pending.size()) + " bytes left)");
  return Error::success();
}

Error PerfFile::decompress(const Record &R,
                           function_ref<Error(const Record &)> Callback) {
  if (!Zstd)
    Zstd = std::make_unique<Decompressor>();
  std::vector<uint8_t> &Pending = Zstd->Pending;
  ZSTD_inBuffer In = {R.Bytes.data() + RecordHeaderSize,
                      R.Bytes.size() - RecordHeaderSize, 0};
  // Hands on the whole records at the front of Pending.
  auto Drain = [&]() -> Error {
    size_t At = 0;
    while (Pending.size() - At >= RecordHeaderSize) {
      const uint8_t *P = Pending.data() + At;
      uint16_t Size = Order.u16(P + 6);
      if (Size < RecordHeaderSize)
        return decodeError(R.Offset, "compressed data holds a record of size " +
                                         Twine(Size) +
                                         ", smaller than its header");
      if (Size > Pending.size() - At)
        break;
      Record Inner;
      Inner.Type = Order.u32(P);
      Inner.Misc = Order.u16(P + 4);
      Inner.Offset = R.Offset;
      Inner.Compressed = true;
      Inner.Bytes = ArrayRef(P, Size);
      if (Inner.Type == record::Compressed ||
          ((Inner.Type == 0 || Inner.Type > record::AuxOutputHWID) &&
           (Inner.Type < record::UserTypeStart ||
            Inner.Type > record::FinishedInit)))
        return decodeError(R.Offset, "compressed data holds an unexpected " +
                                         recordName(Inner.Type));
      if (Inner.Type >= record::UserTypeStart)
        if (Error E = readUserRecord(Inner))
          return E;
      if (Error E = Callback(Inner))
        return E;
      At += Size;
    }
    Pending.erase(Pending.begin(), Pending.begin() + At);
    return Error::success();
  };
  while (true) {
    size_t Have = Pending.size();
    Pending.resize(Have + DecompressChunk);
    ZSTD_outBuffer Out = {Pending.data() + Have, DecompressChunk, 0};
    size_t Result = ZSTD_decompressStream(Zstd->Stream, &Out, &In);
    Pending.resize(Have + Out.pos);
    if (ZSTD_isError(Result))
      return decodeError(R.Offset, "compressed record: zstd: " +
                                       Twine(ZSTD_getErrorName(Result)));
    if (Error E = Drain())
      return E;
    // Done when zstd has taken all input and has no more output to give.
    if (In.pos == In.size && Out.pos < DecompressChunk)
      return Error::success();
  }
}

void PerfFile::releaseBefore(uint64_t Offset) {
  if (!Mapped || Offset <= Released)
    return;
  Offset = std::min<uint64_t>(Offset, Buffer.getBufferSize());
  releaseMappedPages(Buffer, Released, Offset);
  Released = Offset;
}

void PerfFile::releaseBetween(uint64_t From, uint64_t To) {
  if (Mapped)
    releaseMappedPages(Buffer, std::max(From, Released), To);
}

const Event *PerfFile::eventByID(uint64_t ID) const {
  return usableID(ID) ? ByID.lookup(ID) : nullptr;
}

void PerfFile::readValues(const Sample &S,
                          SmallVectorImpl<ReadValue> &Values) const {
  Values.clear();
  if (!S.Read)
    return;
  uint64_t F = S.Ev->Attr.ReadFormat;
  uint64_t Times =
      bool(F & readfmt::TotalTimeEnabled) + bool(F & readfmt::TotalTimeRunning);
  bool HasID = F & readfmt::ID;
  uint64_t PerValue = 1 + HasID + bool(F & readfmt::Lost);
  const uint8_t *P = S.Read;
  if (!(F & readfmt::Group)) {
    Values.push_back(
        {Order.u64(P), HasID ? Order.u64(P + 8 * (1 + Times)) : ~0ULL});
    return;
  }
  uint64_t N = Order.u64(P);
  P += 8 * (1 + Times);
  for (uint64_t I = 0; I < N; ++I, P += 8 * PerValue)
    Values.push_back({Order.u64(P), HasID ? Order.u64(P + 8) : ~0ULL});
}

const Event *PerfFile::eventOf(const Record &R) const {
  if (Events.empty())
    return nullptr;
  const Event *First = Events.front().get();
  if (Events.size() == 1)
    return First;
  if (!First->Attr.sampleIDAll() && R.Type != record::Sample)
    return First;
  uint64_t Words = (R.Bytes.size() - RecordHeaderSize) / 8;
  const uint8_t *Body = R.Bytes.data() + RecordHeaderSize;
  uint64_t ID;
  if (R.Type == record::Sample) {
    if (IDPos < 0 || uint64_t(IDPos) >= Words)
      return nullptr;
    ID = Order.u64(Body + 8 * IDPos);
  } else {
    if (TrailerIDPos < 0 || uint64_t(TrailerIDPos) > Words)
      return nullptr;
    ID = Order.u64(Body + 8 * (Words - TrailerIDPos));
  }
  // perf synthesizes records with ID 0 for the first event.
  if (ID == 0)
    return First;
  return eventByID(ID);
}

Expected<uint64_t> PerfFile::timestamp(const Record &R) const {
  const Event *E = eventOf(R);
  if (!E)
    return decodeError(R.Offset,
                       recordName(R.Type) + " names an event ID no attr has");
  const EventAttr &A = E->Attr;
  if (!A.has(sample::Time))
    return ~0ULL;
  if (R.Type != record::Sample) {
    if (!A.sampleIDAll())
      return ~0ULL;
    SampleID ID;
    if (Error Err = decodeSampleID(R, *E, ID))
      return Err;
    return ID.Time;
  }
  uint64_t Word =
      A.has(sample::Identifier) + A.has(sample::IP) + A.has(sample::TID);
  uint64_t At = RecordHeaderSize + 8 * Word;
  if (R.Bytes.size() < At + 8)
    return decodeError(R.Offset, "sample of " + Twine(R.Bytes.size()) +
                                     " bytes ends before its TIME field");
  return Order.u64(R.Bytes.data() + At);
}

Error PerfFile::decodeSampleID(const Record &R, const Event &E,
                               SampleID &ID) const {
  ID = SampleID();
  const EventAttr &A = E.Attr;
  if (!A.sampleIDAll())
    return Error::success();
  uint64_t Words = popcount(A.SampleType & TrailerBits);
  uint64_t Body = R.Bytes.size() - RecordHeaderSize;
  if (Body < 8 * Words)
    return decodeError(R.Offset,
                       recordName(R.Type) + " of " + Twine(R.Bytes.size()) +
                           " bytes is too short for its " + Twine(8 * Words) +
                           "-byte sample_id_all trailer");
  const uint8_t *P = R.Bytes.data() + R.Bytes.size() - 8 * Words;
  auto Next = [&] {
    const uint8_t *F = P;
    P += 8;
    return F;
  };
  if (A.has(sample::TID)) {
    const uint8_t *F = Next();
    ID.PID = int32_t(Order.u32(F));
    ID.TID = int32_t(Order.u32(F + 4));
  }
  if (A.has(sample::Time))
    ID.Time = Order.u64(Next());
  if (A.has(sample::ID))
    ID.ID = Order.u64(Next());
  if (A.has(sample::StreamID))
    ID.StreamID = Order.u64(Next());
  if (A.has(sample::CPU))
    ID.CPU = Order.u32(Next());
  if (A.has(sample::Identifier))
    ID.ID = Order.u64(Next());
  return Error::success();
}

bool PerfFile::decodeFixed(const Record &R, const Event &E, Sample &S) const {
  assert(E.Index < Events.size() && Events[E.Index].get() == &E &&
         "an event of another file");
  const FixedLayout &L = Layouts[E.Index];
  if (!L.Valid)
    return false;
  uint64_t Size = R.Bytes.size();
  if (Size < L.Size)
    return false;
  const uint8_t *P = R.Bytes.data();
  uint64_t Branches = 0;
  if (L.Branch >= 0) {
    Branches = Order.u64(P + L.Branch);
    if (Branches > (Size - L.Size) / L.EntrySize)
      return false;
  }
  S = Sample();
  S.Ev = &E;
  S.Order = Order;
  S.Period = E.Attr.SamplePeriod;
  auto U64 = [&](int16_t At, uint64_t &V) {
    if (At >= 0)
      V = Order.u64(P + At);
  };
  U64(L.Identifier, S.ID);
  U64(L.IP, S.IP);
  if (L.TID >= 0) {
    S.PID = int32_t(Order.u32(P + L.TID));
    S.TID = int32_t(Order.u32(P + L.TID + 4));
  }
  U64(L.Time, S.Time);
  U64(L.Addr, S.Addr);
  U64(L.ID, S.ID);
  U64(L.StreamID, S.StreamID);
  if (L.CPU >= 0)
    S.CPU = Order.u32(P + L.CPU);
  U64(L.Period, S.Period);
  if (L.Branch >= 0) {
    S.BranchCount = Branches;
    U64(L.HWIndex, S.BranchHWIndex);
    S.Branches = P + L.Branch + 8 + (L.HWIndex >= 0 ? 8 : 0);
  }
  return true;
}

Error PerfFile::decodeSample(const Record &R, const Event &E, Sample &S) const {
  // Most samples have only fixed-size fields around their branch stack;
  // the field by field walk below also finds what is wrong with a record.
  if (decodeFixed(R, E, S))
    return Error::success();
  const EventAttr &A = E.Attr;
  const uint8_t *Start = R.Bytes.data();
  const uint8_t *P = Start + RecordHeaderSize;
  const uint8_t *End = Start + R.Bytes.size();
  S = Sample();
  S.Ev = &E;
  S.Order = Order;
  S.Period = A.SamplePeriod;
  const char *Field = "";
  // Each field is checked before it is read; a count is checked against
  // the bytes left before anything proportional to it is touched.
  auto Fits = [&](uint64_t N, const char *What) {
    Field = What;
    return uint64_t(End - P) >= N;
  };
  auto Truncated = [&]() {
    return decodeError(R.Offset + (P - Start),
                       "sample of " + Twine(R.Bytes.size()) +
                           " bytes ends inside its " + Field + " field");
  };
  auto U64 = [&](const char *What, uint64_t &V) {
    if (!Fits(8, What))
      return false;
    V = Order.u64(P);
    P += 8;
    return true;
  };
  uint64_t Ignored;
  // A u64 count followed by that many items of ItemSize bytes.
  auto Array = [&](const char *What, uint64_t ItemSize, uint64_t &N) {
    if (!U64(What, N))
      return false;
    if (N > uint64_t(End - P) / ItemSize)
      return false;
    P += N * ItemSize;
    return true;
  };
  uint64_t T = A.SampleType;
  if ((T & sample::Identifier) && !U64("IDENTIFIER", S.ID))
    return Truncated();
  if ((T & sample::IP) && !U64("IP", S.IP))
    return Truncated();
  if (T & sample::TID) {
    if (!Fits(8, "TID"))
      return Truncated();
    S.PID = int32_t(Order.u32(P));
    S.TID = int32_t(Order.u32(P + 4));
    P += 8;
  }
  if ((T & sample::Time) && !U64("TIME", S.Time))
    return Truncated();
  if ((T & sample::Addr) && !U64("ADDR", S.Addr))
    return Truncated();
  if ((T & sample::ID) && !U64("ID", S.ID))
    return Truncated();
  if ((T & sample::StreamID) && !U64("STREAM_ID", S.StreamID))
    return Truncated();
  if (T & sample::CPU) {
    if (!Fits(8, "CPU"))
      return Truncated();
    S.CPU = Order.u32(P);
    P += 8;
  }
  if ((T & sample::Period) && !U64("PERIOD", S.Period))
    return Truncated();
  if (T & sample::Read) {
    S.Read = P;
    uint64_t F = A.ReadFormat;
    uint64_t Times = bool(F & readfmt::TotalTimeEnabled) +
                     bool(F & readfmt::TotalTimeRunning);
    uint64_t PerValue = 1 + bool(F & readfmt::ID) + bool(F & readfmt::Lost);
    if (F & readfmt::Group) {
      uint64_t N;
      if (!U64("READ", N) || !Fits(8 * Times, "READ"))
        return Truncated();
      P += 8 * Times;
      if (N > uint64_t(End - P) / (8 * PerValue))
        return Truncated();
      P += N * 8 * PerValue;
    } else {
      if (!Fits(8 * (Times + PerValue), "READ"))
        return Truncated();
      P += 8 * (Times + PerValue);
    }
  }
  if ((T & sample::Callchain) && !Array("CALLCHAIN", 8, S.CallchainSize))
    return Truncated();
  if (T & sample::Raw) {
    if (!Fits(4, "RAW"))
      return Truncated();
    uint32_t Size = Order.u32(P);
    P += 4;
    if (!Fits(Size, "RAW"))
      return Truncated();
    P += Size;
  }
  if (T & sample::BranchStack) {
    if (!U64("BRANCH_STACK", S.BranchCount))
      return Truncated();
    if ((A.BranchSampleType & branch::HWIndex) &&
        !U64("BRANCH_STACK", S.BranchHWIndex))
      return Truncated();
    uint64_t EntrySize = A.BranchSampleType & branch::Counters ? 32 : 24;
    if (S.BranchCount > uint64_t(End - P) / EntrySize)
      return Truncated();
    S.Branches = P;
    P += S.BranchCount * EntrySize;
  }
  auto Regs = [&](const char *What, uint64_t Mask) {
    uint64_t ABI;
    if (!U64(What, ABI))
      return false;
    if (ABI == 0)
      return true;
    uint64_t N = popcount(Mask);
    if (!Fits(8 * N, What))
      return false;
    P += 8 * N;
    return true;
  };
  if ((T & sample::RegsUser) && !Regs("REGS_USER", A.SampleRegsUser))
    return Truncated();
  if (T & sample::StackUser) {
    uint64_t Size;
    if (!U64("STACK_USER", Size) || !Fits(Size, "STACK_USER"))
      return Truncated();
    P += Size;
    if (Size && !U64("STACK_USER", Ignored))
      return Truncated();
  }
  if ((T & (sample::Weight | sample::WeightStruct)) && !U64("WEIGHT", Ignored))
    return Truncated();
  if ((T & sample::DataSrc) && !U64("DATA_SRC", Ignored))
    return Truncated();
  if ((T & sample::Transaction) && !U64("TRANSACTION", Ignored))
    return Truncated();
  if ((T & sample::RegsIntr) && !Regs("REGS_INTR", A.SampleRegsIntr))
    return Truncated();
  if ((T & sample::PhysAddr) && !U64("PHYS_ADDR", Ignored))
    return Truncated();
  if ((T & sample::CGroup) && !U64("CGROUP", Ignored))
    return Truncated();
  if ((T & sample::DataPageSize) && !U64("DATA_PAGE_SIZE", Ignored))
    return Truncated();
  if ((T & sample::CodePageSize) && !U64("CODE_PAGE_SIZE", Ignored))
    return Truncated();
  if (T & sample::Aux) {
    uint64_t Size;
    if (!U64("AUX", Size) || !Fits(Size, "AUX"))
      return Truncated();
    P += Size;
  }
  return Error::success();
}

Error PerfFile::decodeMMap(const Record &R, MMapEvent &M) const {
  M = MMapEvent();
  M.Version2 = R.Type == record::MMap2;
  const uint8_t *P = R.Bytes.data();
  uint64_t NameAt = M.Version2 ? 72 : 40;
  if (R.Bytes.size() < NameAt + 1)
    return decodeError(R.Offset, recordName(R.Type) + " of " +
                                     Twine(R.Bytes.size()) +
                                     " bytes is shorter than its fields");
  M.PID = int32_t(Order.u32(P + 8));
  M.TID = int32_t(Order.u32(P + 12));
  M.Start = Order.u64(P + 16);
  M.Length = Order.u64(P + 24);
  M.PageOffset = Order.u64(P + 32);
  if (M.Version2) {
    M.HasBuildID = R.Misc & misc::MMapBuildID;
    if (M.HasBuildID) {
      M.BuildID = ArrayRef(P + 44, std::min<uint8_t>(P[40], 20));
    } else {
      M.Major = Order.u32(P + 40);
      M.Minor = Order.u32(P + 44);
      M.Inode = Order.u64(P + 48);
      M.InodeGeneration = Order.u64(P + 56);
    }
    M.Prot = Order.u32(P + 64);
    M.MapFlags = Order.u32(P + 68);
    M.Executable = M.Prot & 4;
  } else {
    M.Executable = !(R.Misc & misc::MMapData);
  }
  if (!readCString(R.Bytes.drop_front(NameAt), M.FileName))
    return decodeError(R.Offset + NameAt, recordName(R.Type) +
                                              " file name is not "
                                              "NUL-terminated");
  return Error::success();
}

Error PerfFile::decodeComm(const Record &R, CommEvent &C) const {
  C = CommEvent();
  if (R.Bytes.size() < 17)
    return decodeError(R.Offset, "COMM record of " + Twine(R.Bytes.size()) +
                                     " bytes is shorter than its fields");
  C.PID = int32_t(Order.u32(R.Bytes.data() + 8));
  C.TID = int32_t(Order.u32(R.Bytes.data() + 12));
  C.Exec = R.Misc & misc::CommExec;
  if (!readCString(R.Bytes.drop_front(16), C.Comm))
    return decodeError(R.Offset + 16, "COMM name is not NUL-terminated");
  return Error::success();
}

Error PerfFile::decodeTask(const Record &R, TaskEvent &T) const {
  T = TaskEvent();
  if (R.Bytes.size() < 32)
    return decodeError(R.Offset, recordName(R.Type) + " of " +
                                     Twine(R.Bytes.size()) +
                                     " bytes is shorter than its fields");
  const uint8_t *P = R.Bytes.data();
  T.PID = int32_t(Order.u32(P + 8));
  T.PPID = int32_t(Order.u32(P + 12));
  T.TID = int32_t(Order.u32(P + 16));
  T.PTID = int32_t(Order.u32(P + 20));
  T.Time = Order.u64(P + 24);
  return Error::success();
}

} // namespace bbmap::perf
