//===- fuzz-spe.cpp - fuzz the ARM SPE decoders ---------------------------===//
//
// libFuzzer target for lib/Perf's ARM SPE decoding. The input is an
// option byte and AUX data (seeds: the AUX data of spe-scenario.py's
// files, fuzz/make-corpus.sh). Bits 0-3 of the option byte are where the
// data is for ALIGNMENT packets. Checked:
//  - decodeSpePacket at every offset: a packet fits in the bytes left, an
//    error names the offset it was given;
//  - SpeDecoder over the whole data: each record starts after the last,
//    within the data, the decoder always moves on, an error names an
//    offset within the data;
//  - with bit 4, the data is split in two AUX queues (at the offset bits
//    5-7 pick) of a perf.data file built here (a CPU each, COMM records
//    between, the AUXTRACE index; with bit 7 without TIME), printed by
//    printPerfScript and read by deliverInOrderWithSpe: the records
//    handed on are those of the data, PIDs and CPUs in range.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/ArmSpe.h"
#include "bbmap/Perf/PerfScript.h"
#include "bbmap/Perf/SpeTrace.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

using namespace llvm;
using namespace bbmap;
using namespace bbmap::perf;

namespace {

/// Where the data starts in the files built here (for the checks).
constexpr uint64_t DataAt = 0x10000;

void check(bool Holds) {
  if (!Holds)
    std::abort();
}

void fuzzPackets(ArrayRef<uint8_t> Data, uint64_t AlignAt) {
  for (size_t At = 0; At < Data.size(); ++At) {
    Expected<SpePacket> P =
        decodeSpePacket(Data.drop_front(At), DataAt + At, AlignAt + At);
    if (P) {
      check(P->Size >= 1 && P->Size <= Data.size() - At);
      continue;
    }
    handleAllErrors(P.takeError(), [&](const DecodeError &E) {
      check(E.offset() == DataAt + At);
    });
  }
}

void fuzzRecords(ArrayRef<uint8_t> Data, uint64_t AlignAt) {
  SpeDecoder D(Data, DataAt, AlignAt);
  uint64_t Last = DataAt;
  while (true) {
    uint64_t Before = D.offset();
    SpeRecord R;
    Expected<bool> More = D.next(R);
    if (!More) {
      handleAllErrors(More.takeError(), [&](const DecodeError &E) {
        check(E.offset() >= Before && E.offset() < DataAt + Data.size());
      });
      return;
    }
    if (!*More) {
      check(D.atEnd());
      return;
    }
    check(R.Offset >= Last && R.Offset >= Before);
    check(D.offset() > R.Offset && D.offset() <= DataAt + Data.size());
    Last = D.offset();
  }
}

/// \p Size bytes of \p V, little-endian (zeros past its eight).
void put(std::vector<uint8_t> &B, uint64_t V, unsigned Size) {
  for (unsigned I = 0; I < Size; ++I)
    B.push_back(I < 8 ? V >> (8 * I) & 0xff : 0);
}

void record(std::vector<uint8_t> &B, uint32_t Type, uint16_t Misc,
            const std::vector<uint8_t> &Body) {
  put(B, Type, 4);
  put(B, Misc, 2);
  put(B, 8 + Body.size(), 2);
  B.insert(B.end(), Body.begin(), Body.end());
}

/// A little-endian perf.data file: an SPE event and dummy:u on two CPUs,
/// TIME_CONV, AUXTRACE_INFO, \p Data in two AUXTRACE records (split at
/// \p Split) with COMM records between, the AUXTRACE index. The data
/// section starts at DataAt.
std::vector<uint8_t> buildFile(ArrayRef<uint8_t> Data, size_t Split,
                               bool Timeless) {
  constexpr uint64_t AttrSize = 128;
  uint64_t Type = 1 | 2 | 128 | 1 << 16 | (Timeless ? 0 : 4);
  std::vector<uint8_t> F(DataAt, 0);
  auto Attr = [&](uint64_t At, uint32_t T, uint64_t Config, uint64_t IDsAt) {
    support::endian::write32le(&F[At], T);
    support::endian::write32le(&F[At + 4], AttrSize);
    support::endian::write64le(&F[At + 8], Config);
    support::endian::write64le(&F[At + 24], Type);
    support::endian::write64le(&F[At + 40], 1ULL << 18);
    support::endian::write64le(&F[At + AttrSize], IDsAt);
    support::endian::write64le(&F[At + AttrSize + 8], 16);
  };
  Attr(104, 8, 0, 512);
  Attr(104 + AttrSize + 16, 1, 9, 528);
  for (unsigned I = 0; I < 4; ++I)
    support::endian::write64le(&F[512 + 8 * I], 100 + I);
  std::vector<uint8_t> Body;
  put(Body, 0, 8);
  put(Body, 1, 8);
  put(Body, 0, 24);
  put(Body, 1, 8);
  record(F, 79, 0, Body);
  Body.clear();
  put(Body, 4, 8);
  put(Body, 8, 8);
  put(Body, 1, 8);
  record(F, 70, 0, Body);
  std::vector<uint64_t> Index;
  auto Comm = [&](uint32_t ID, uint64_t Time) {
    std::vector<uint8_t> C;
    put(C, ID, 4);
    put(C, ID, 4);
    put(C, 0x66, 8);
    put(C, ID, 4);
    put(C, ID, 4);
    if (!Timeless)
      put(C, Time, 8);
    put(C, ID & 1, 8);
    put(C, 102 + (ID & 1), 8);
    record(F, 3, 0, C);
  };
  auto Aux = [&](uint32_t CPU, ArrayRef<uint8_t> Piece) {
    Index.push_back(F.size());
    std::vector<uint8_t> A;
    put(A, Piece.size(), 8);
    put(A, 0, 16);
    put(A, CPU, 4);
    put(A, uint32_t(-1), 4);
    put(A, CPU, 8);
    record(F, 71, 0, A);
    F.insert(F.end(), Piece.begin(), Piece.end());
  };
  Comm(7, 1);
  Aux(0, Data.take_front(Split));
  Comm(8, 1000);
  Aux(1, Data.drop_front(Split));
  Comm(9, 1ULL << 40);
  record(F, 68, 0, {});
  Comm(10, ~0ULL - 1);
  uint64_t DataSize = F.size() - DataAt;
  uint64_t FeatAt = F.size();
  put(F, FeatAt + 16, 8);
  put(F, 8 + 16 * Index.size(), 8);
  put(F, Index.size(), 8);
  for (uint64_t At : Index) {
    put(F, At, 8);
    put(F, 48, 8);
  }
  support::endian::write64le(&F[0], 0x32454c4946524550ULL);
  support::endian::write64le(&F[8], 104);
  support::endian::write64le(&F[16], AttrSize + 16);
  support::endian::write64le(&F[24], 104);
  support::endian::write64le(&F[32], 2 * (AttrSize + 16));
  support::endian::write64le(&F[40], DataAt);
  support::endian::write64le(&F[48], DataSize);
  support::endian::write64le(&F[72], 1ULL << 18);
  return F;
}

void fuzzStream(ArrayRef<uint8_t> Data, size_t Split, bool Timeless) {
  std::vector<uint8_t> Bytes = buildFile(Data, Split, Timeless);
  MemoryBufferRef Buffer(
      StringRef(reinterpret_cast<const char *>(Bytes.data()), Bytes.size()),
      "fuzz");
  static OrderedOutput Out(nulls(), 1);
  Expected<std::unique_ptr<PerfFile>> File = PerfFile::create(Buffer);
  check(bool(File));
  consumeError(printPerfScript(**File, PerfScriptOptions(), Out));
  File = PerfFile::create(Buffer);
  check(bool(File));
  uint64_t End = Bytes.size();
  Error E = deliverInOrderWithSpe(
      **File, [](const Record &) { return Error::success(); },
      [&](const SpeSample &S) {
        check(S.Queue < 2 && S.CPU == int32_t(S.Queue));
        check(S.Record.Offset < End);
        check(!Timeless || S.Time == 0);
        return Error::success();
      });
  consumeError(std::move(E));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  uint8_t Options = Data[0];
  ArrayRef<uint8_t> Spe(Data + 1, Size - 1);
  uint64_t AlignAt = DataAt + (Options & 15);
  fuzzPackets(Spe, AlignAt);
  fuzzRecords(Spe, AlignAt);
  if (Options & 16)
    fuzzStream(Spe, Spe.size() * (Options >> 5 & 3) / 4, Options & 128);
  return 0;
}
