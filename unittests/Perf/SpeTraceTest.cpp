//===- SpeTraceTest.cpp - ARM SPE records in perf's delivery order --------===//
//
// The time conversion (both directions, cap_user_time_short, perf's field
// widths, TIME_CONV's two forms), perf's heap with ties, and SpeStream on
// small perf.data files built here: where records are handed on between
// the kernel's, the order of queues with equal timestamps, PIDs from
// CONTEXT packets and from switch records, timeless decoding, per-thread
// queues, data without the index, and what perf 6.1 fails on.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/SpeTrace.h"
#include "TestUtil.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

using namespace bbmap;
using namespace bbmap::perf;

namespace {

using Bytes = std::vector<uint8_t>;

//===----------------------------------------------------------------------===//
// TimeConversion
//===----------------------------------------------------------------------===//

TEST(TimeConversionTest, BothDirections) {
  // A 100 MHz counter: 10 ns a cycle, as mult / 2^shift.
  TimeConversion T;
  T.TimeShift = 24;
  T.TimeMult = 10 << 24;
  T.TimeZero = 1000;
  EXPECT_EQ(T.toPerfTime(0), 1000u);
  EXPECT_EQ(T.toPerfTime(7), 1070u);
  EXPECT_EQ(T.toCounter(1070), 7u);
  // Between two counts: down.
  EXPECT_EQ(T.toCounter(1079), 7u);
  // Before time_zero the subtraction wraps, as perf's does.
  EXPECT_EQ(*T.toCounter(0),
            ((0 - 1000ULL) / (10 << 24) << 24) +
                (((0 - 1000ULL) % (10 << 24)) << 24) / (10 << 24));
  // Fractions of the multiplier: the remainder's share.
  T.TimeShift = 2;
  T.TimeMult = 5; // 1.25 ns a cycle
  T.TimeZero = 0;
  EXPECT_EQ(T.toPerfTime(4), 5u);
  EXPECT_EQ(T.toPerfTime(7), 5u + (3 * 5 >> 2));
  EXPECT_EQ(*T.toCounter(5), 4u);
  EXPECT_EQ(*T.toCounter(9), (1ULL << 2) + (4ULL << 2) / 5);
}

TEST(TimeConversionTest, ShortCounter) {
  // cap_user_time_short: the counter counts from time_cycles modulo the
  // mask.
  TimeConversion T;
  T.TimeMult = 1;
  T.TimeCycles = 1000;
  T.TimeMask = 0xffff;
  T.CapUserTimeShort = true;
  EXPECT_EQ(T.toPerfTime(1005), 1005u);
  EXPECT_EQ(T.toPerfTime(0x50000 + 1005), 1005u);
  EXPECT_EQ(T.toPerfTime(999), 1000u + 0xffff);
  T.CapUserTimeShort = false;
  EXPECT_EQ(T.toPerfTime(0x50000 + 1005), 0x50000u + 1005);
}

TEST(TimeConversionTest, MultZeroAndWideShifts) {
  TimeConversion T;
  EXPECT_FALSE(T.toCounter(5).has_value());
  EXPECT_EQ(T.toPerfTime(5), 0u);
  // Shifts of 64 and more count modulo 64, as on x86-64.
  T.TimeMult = 1;
  T.TimeShift = 65;
  EXPECT_EQ(T.toPerfTime(8), 4u);
  EXPECT_EQ(*T.toCounter(4), 8u);
}

Bytes le(uint64_t V, unsigned Size) {
  Bytes B;
  for (unsigned I = 0; I < Size; ++I)
    B.push_back(V >> (8 * I) & 0xff);
  return B;
}

Bytes operator+(Bytes A, const Bytes &B) {
  A.insert(A.end(), B.begin(), B.end());
  return A;
}

/// A record of \p Type with \p Body after its header.
Bytes recordBytes(uint32_t Type, uint16_t Misc, const Bytes &Body) {
  return le(Type, 4) + le(Misc, 2) + le(8 + Body.size(), 2) + Body;
}

TEST(TimeConversionTest, Decode) {
  Record R;
  R.Type = record::TimeConv;
  R.Offset = 0x40;
  Bytes Old = recordBytes(79, 0, le(24, 8) + le(0x1'0000'000a, 8) + le(99, 8));
  R.Bytes = Old;
  BBMAP_ASSERT_VALUE(T, TimeConversion::decode(R, ByteOrder{}));
  // perf keeps time_shift in 16 bits and time_mult in 32.
  EXPECT_EQ(T->TimeShift, 24u);
  EXPECT_EQ(T->TimeMult, 10u);
  EXPECT_EQ(T->TimeZero, 99u);
  EXPECT_FALSE(T->CapUserTimeShort);
  Bytes New = recordBytes(79, 0,
                          le(0x10002, 8) + le(3, 8) + le(4, 8) + le(5, 8) +
                              le(6, 8) + Bytes{1, 1, 0, 0, 0, 0, 0, 0});
  R.Bytes = New;
  BBMAP_ASSERT_VALUE(N, TimeConversion::decode(R, ByteOrder{}));
  EXPECT_EQ(N->TimeShift, 2u);
  EXPECT_EQ(N->TimeCycles, 5u);
  EXPECT_EQ(N->TimeMask, 6u);
  EXPECT_TRUE(N->CapUserTimeZero && N->CapUserTimeShort);
  // Big-endian.
  Bytes Big = {0, 0, 0, 79, 0, 0, 0, 32};
  for (uint64_t V : {7, 8, 9})
    for (int I = 7; I >= 0; --I)
      Big.push_back(V >> (8 * I) & 0xff);
  R.Bytes = Big;
  BBMAP_ASSERT_VALUE(B, TimeConversion::decode(R, ByteOrder{false}));
  EXPECT_EQ(B->TimeShift, 7u);
  EXPECT_EQ(B->TimeMult, 8u);
  EXPECT_EQ(B->TimeZero, 9u);
  // perf would read past a record of another size.
  Bytes Odd = recordBytes(79, 0, Bytes(32, 0));
  R.Bytes = Odd;
  Failure F = failureOf(TimeConversion::decode(R, ByteOrder{}));
  EXPECT_EQ(F.Offset, 0x40u);
  EXPECT_NE(F.Reason.find("40 bytes"), std::string::npos) << F.Reason;
}

//===----------------------------------------------------------------------===//
// AuxtraceHeap
//===----------------------------------------------------------------------===//

std::vector<uint32_t> drain(AuxtraceHeap &H) {
  std::vector<uint32_t> Order;
  while (!H.empty()) {
    Order.push_back(H.topQueue());
    H.pop();
  }
  return Order;
}

TEST(AuxtraceHeapTest, LeastFirst) {
  AuxtraceHeap H;
  uint64_t Keys[] = {50, 10, 40, 30, 20, 60, 0};
  for (uint32_t Q = 0; Q < 7; ++Q)
    H.add(Q, Keys[Q]);
  EXPECT_EQ(H.size(), 7u);
  EXPECT_EQ(H.topKey(), 0u);
  EXPECT_EQ(drain(H), (std::vector<uint32_t>{6, 1, 4, 3, 2, 0, 5}));
  H.pop();
  EXPECT_TRUE(H.empty());
}

TEST(AuxtraceHeapTest, TiesInPerfsOrder) {
  // The first added comes first; then the hole the pop leaves takes the
  // right child on a tie: 0, 2, 1.
  AuxtraceHeap H;
  for (uint32_t Q = 0; Q < 3; ++Q)
    H.add(Q, 5);
  EXPECT_EQ(drain(H), (std::vector<uint32_t>{0, 2, 1}));
  // Five of one key: 0, 2, 4, 3, 1 (worked through perf's array).
  for (uint32_t Q = 0; Q < 5; ++Q)
    H.add(Q, 7);
  EXPECT_EQ(drain(H), (std::vector<uint32_t>{0, 2, 4, 3, 1}));
  // An added key equal to the top stays below it.
  H.add(0, 5);
  H.add(1, 9);
  H.add(2, 5);
  EXPECT_EQ(H.topQueue(), 0u);
  H.pop();
  EXPECT_EQ(H.topQueue(), 2u);
}

TEST(AuxtraceHeapTest, KeysNeverDecrease) {
  AuxtraceHeap H;
  uint64_t X = 1;
  for (uint32_t Q = 0; Q < 200; ++Q) {
    X = X * 6364136223846793005ULL + 1442695040888963407ULL;
    H.add(Q, X >> 60);
    if (Q % 3 == 0) {
      uint64_t Top = H.topKey();
      H.pop();
      if (!H.empty()) {
        EXPECT_GE(H.topKey(), Top);
      }
    }
  }
  uint64_t Last = 0;
  while (!H.empty()) {
    EXPECT_GE(H.topKey(), Last);
    Last = H.topKey();
    H.pop();
  }
}

//===----------------------------------------------------------------------===//
// SpeStream on built files
//===----------------------------------------------------------------------===//

constexpr uint32_t SpePMU = 8;
constexpr uint64_t SpeID = 100, DummyID = 200;

/// SPE packets.
Bytes spePC(uint64_t A) { return Bytes{0xb0} + le(A | 1ULL << 63, 8); }
Bytes speContext(uint32_t TID) { return Bytes{0x65} + le(TID, 4); }
Bytes speTimestamp(uint64_t T) { return Bytes{0x71} + le(T, 8); }
Bytes speMispredicted() { return Bytes{0x52} + le(0x82, 2); }
/// A record at \p PC with timestamp \p T, and a CONTEXT packet of \p TID
/// unless it is -1.
Bytes speRecord(uint64_t PC, uint64_t T, int64_t TID = -1) {
  return spePC(PC) + (TID >= 0 ? speContext(TID) : Bytes{}) + speTimestamp(T);
}

/// A little-endian perf.data file: the SPE event and dummy:u (IDENTIFIER,
/// TID, TIME unless Timeless, CPU; sample_id_all), the records added in
/// order, the AUXTRACE index of the AUXTRACE records unless NoIndex. The
/// TIME_CONV is the identity (a perf time is the counter's value).
class FileBuilder {
public:
  bool Timeless = false;
  bool NoIndex = false;
  unsigned CPUs = 2;

  void timeConv(uint64_t Mult = 1) {
    Data = Data + recordBytes(record::TimeConv, 0,
                              le(0, 8) + le(Mult, 8) + le(0, 8) + le(0, 8) +
                                  le(0, 8) + le(1, 8));
  }
  void info(uint64_t PMU = SpePMU) {
    Data = Data + recordBytes(record::AuxtraceInfo, 0,
                              le(AuxtraceArmSpe, 4) + le(0, 4) + le(PMU, 8) +
                                  le(1, 8));
  }
  void comm(int32_t PID, int32_t TID, uint64_t Time, uint32_t CPU = 0) {
    side(record::Comm, 0, le(PID, 4) + le(TID, 4) + le(0x676f7270, 8), PID, TID,
         Time, CPU);
  }
  void fork(int32_t PID, int32_t TID, uint64_t Time, uint32_t CPU = 0) {
    side(record::Fork, 0,
         le(PID, 4) + le(PID, 4) + le(TID, 4) + le(PID, 4) + le(Time, 8), PID,
         TID, Time, CPU);
  }
  void exitTask(int32_t PID, int32_t TID, uint64_t Time, uint32_t CPU = 0) {
    side(record::Exit, 0,
         le(PID, 4) + le(PID, 4) + le(TID, 4) + le(PID, 4) + le(Time, 8), PID,
         TID, Time, CPU);
  }
  /// A SWITCH_CPU_WIDE out record: \p TID of \p PID runs next on \p CPU.
  void switchTo(int32_t PID, int32_t TID, uint64_t Time, uint32_t CPU) {
    side(record::SwitchCPUWide, 1 << 13, le(PID, 4) + le(TID, 4), -1, -1, Time,
         CPU);
  }
  void aux(uint32_t Idx, const Bytes &Spe, int32_t TID = -1, int32_t CPU = -2) {
    Bytes D = Spe;
    D.resize((D.size() + 7) / 8 * 8, 0);
    Index.push_back(Data.size());
    Data =
        Data +
        recordBytes(record::Auxtrace, 0,
                    le(D.size(), 8) + le(0, 8) + le(0, 8) + le(Idx, 4) +
                        le(TID, 4) + le(CPU == -2 ? Idx : CPU, 4) + le(0, 4)) +
        D;
  }
  void round() { Data = Data + recordBytes(record::FinishedRound, 0, {}); }

  /// The file.
  Bytes build() const {
    constexpr uint64_t AttrSize = 128;
    uint64_t Type = 1 | 2 | 128 | 1 << 16 | (Timeless ? 0 : 4);
    auto Attr = [&](uint32_t T, uint64_t Config) {
      Bytes A = le(T, 4) + le(AttrSize, 4) + le(Config, 8) + le(1, 8) +
                le(Type, 8) + le(0, 8) + le(1ULL << 18, 8);
      A.resize(AttrSize, 0);
      return A;
    };
    uint64_t AttrsAt = 104, IDsAt = AttrsAt + 2 * (AttrSize + 16);
    uint64_t DataAt = IDsAt + 2 * 8 * CPUs;
    Bytes F(104, 0);
    F = F + Attr(SpePMU, 0) + le(IDsAt, 8) + le(8 * CPUs, 8) + Attr(1, 9) +
        le(IDsAt + 8 * CPUs, 8) + le(8 * CPUs, 8);
    for (unsigned C = 0; C < CPUs; ++C)
      F = F + le(SpeID + C, 8);
    for (unsigned C = 0; C < CPUs; ++C)
      F = F + le(DummyID + C, 8);
    F = F + Data;
    uint64_t FeatAt = F.size();
    if (!NoIndex) {
      Bytes Idx = le(Index.size(), 8);
      for (uint64_t At : Index)
        Idx = Idx + le(DataAt + At, 8) + le(48, 8);
      F = F + le(FeatAt + 16, 8) + le(Idx.size(), 8) + Idx;
    }
    auto Put = [&](uint64_t At, uint64_t V) {
      llvm::support::endian::write64le(F.data() + At, V);
    };
    Put(0, 0x32454c4946524550ULL);
    Put(8, 104);
    Put(16, AttrSize + 16);
    Put(24, AttrsAt);
    Put(32, 2 * (AttrSize + 16));
    Put(40, DataAt);
    Put(48, Data.size());
    Put(72, NoIndex ? 0 : 1ULL << feature::Auxtrace);
    return F;
  }

private:
  void side(uint32_t Type, uint16_t Misc, const Bytes &Body, int32_t PID,
            int32_t TID, uint64_t Time, uint32_t CPU) {
    Bytes Trailer = le(uint32_t(PID), 4) + le(uint32_t(TID), 4);
    if (!Timeless)
      Trailer = Trailer + le(Time, 8);
    Trailer = Trailer + le(CPU, 4) + le(0, 4) + le(DummyID + CPU, 8);
    Data = Data + recordBytes(Type, Misc, Body + Trailer);
  }

  Bytes Data;
  std::vector<uint64_t> Index;
};

/// What SpeStream hands on, one line each: "COMM 5" (a kernel record
/// and its time), "spe q1 pc=0x10 pid/tid=4/5 cpu=1 t=7".
struct SpeRun {
  std::vector<std::string> Log;
  bool Decoding = false;
  llvm::Error Err = llvm::Error::success();
};

SpeRun run(const Bytes &File) {
  SpeRun Out;
  llvm::MemoryBufferRef Buffer(
      llvm::StringRef(reinterpret_cast<const char *>(File.data()), File.size()),
      "built");
  llvm::Expected<std::unique_ptr<PerfFile>> F = PerfFile::create(Buffer);
  if (!F) {
    Out.Err = F.takeError();
    return Out;
  }
  SpeStream Stream(**F);
  Out.Err = Stream.deliver(
      [&](const Record &R) -> llvm::Error {
        const char *Name = R.Type == record::Comm            ? "COMM"
                           : R.Type == record::Fork          ? "FORK"
                           : R.Type == record::Exit          ? "EXIT"
                           : R.Type == record::SwitchCPUWide ? "SWITCH"
                                                             : "OTHER";
        llvm::Expected<uint64_t> T = (*F)->timestamp(R);
        if (!T)
          return T.takeError();
        Out.Log.push_back(std::string(Name) + " " +
                          (*T == ~0ULL ? "-" : std::to_string(*T)));
        return llvm::Error::success();
      },
      [&](const SpeSample &S) -> llvm::Error {
        Out.Log.push_back(
            "spe q" + std::to_string(S.Queue) + " pc=0x" +
            llvm::utohexstr(S.Record.PC, /*LowerCase=*/true) +
            " pid/tid=" + std::to_string(S.PID) + "/" + std::to_string(S.TID) +
            " cpu=" + std::to_string(S.CPU) + " t=" + std::to_string(S.Time));
        return llvm::Error::success();
      });
  Out.Decoding = Stream.decoding();
  return Out;
}

#define EXPECT_LOG(R, ...)                                                     \
  do {                                                                         \
    ASSERT_FALSE(R.Err) << llvm::toString(std::move(R.Err));                   \
    EXPECT_EQ(R.Log, (std::vector<std::string>{__VA_ARGS__}));                 \
  } while (0)

TEST(SpeStreamTest, RecordsBeforeTheRecordsAfterThem) {
  // A record of timestamp t comes before a kernel record of a later time,
  // after one of time t.
  FileBuilder B;
  B.timeConv();
  B.info();
  B.comm(40, 41, 5);
  B.aux(0, speRecord(0x10, 3) + speRecord(0x14, 10) + speRecord(0x18, 12));
  B.comm(40, 42, 10);
  B.round();
  SpeRun R = run(B.build());
  EXPECT_TRUE(R.Decoding);
  EXPECT_LOG(R, "spe q0 pc=0x10 pid/tid=-1/-1 cpu=0 t=3", "COMM 5", "COMM 10",
             "spe q0 pc=0x14 pid/tid=-1/-1 cpu=0 t=10",
             "spe q0 pc=0x18 pid/tid=-1/-1 cpu=0 t=12");
}

TEST(SpeStreamTest, QueuesOfEqualTimestamps) {
  // Three CPUs with records at 10 and 20 each: perf's heap runs queue 0,
  // then 2, then 1 at 10; queue 1 goes on to 20 (its key 10 + 1 is
  // below it), then 2 and 0.
  FileBuilder B;
  B.CPUs = 3;
  B.timeConv();
  B.info();
  for (uint32_t Q = 0; Q < 3; ++Q)
    B.aux(Q, speRecord(0x100 * Q, 10) + speRecord(0x100 * Q + 4, 20));
  B.comm(1, 1, 100);
  SpeRun R = run(B.build());
  EXPECT_LOG(R, "spe q0 pc=0x0 pid/tid=-1/-1 cpu=0 t=10",
             "spe q2 pc=0x200 pid/tid=-1/-1 cpu=2 t=10",
             "spe q1 pc=0x100 pid/tid=-1/-1 cpu=1 t=10",
             "spe q1 pc=0x104 pid/tid=-1/-1 cpu=1 t=20",
             "spe q2 pc=0x204 pid/tid=-1/-1 cpu=2 t=20",
             "spe q0 pc=0x4 pid/tid=-1/-1 cpu=0 t=20", "COMM 100");
}

TEST(SpeStreamTest, ContextPacketsAndThreads) {
  // A thread first seen through a CONTEXT packet has pid -1 until a record
  // names its process; one a COMM made has its pid; a FORK makes the
  // child's thread anew.
  FileBuilder B;
  B.timeConv();
  B.info();
  B.comm(30, 30, 1);
  B.aux(1, speRecord(0x10, 2, 31) + speRecord(0x14, 3, 30) +
               speRecord(0x18, 6, 31) + speRecord(0x1c, 8, 31));
  B.comm(30, 31, 5);
  B.round();
  SpeRun R = run(B.build());
  EXPECT_LOG(R, "COMM 1", "spe q1 pc=0x10 pid/tid=-1/31 cpu=1 t=2",
             "spe q1 pc=0x14 pid/tid=30/30 cpu=1 t=3", "COMM 5",
             "spe q1 pc=0x18 pid/tid=30/31 cpu=1 t=6",
             "spe q1 pc=0x1c pid/tid=30/31 cpu=1 t=8");
}

TEST(SpeStreamTest, SwitchRecordsWithoutContext) {
  // Without CONTEXT packets a queue takes its CPU's current thread, which
  // SWITCH_CPU_WIDE out records set, before each run.
  FileBuilder B;
  B.timeConv();
  B.info();
  B.comm(50, 50, 1);
  B.switchTo(50, 50, 2, 0);
  B.aux(0, speRecord(0x10, 3) + speRecord(0x14, 5));
  B.switchTo(60, 61, 4, 0);
  B.comm(70, 70, 9);
  B.round();
  SpeRun R = run(B.build());
  EXPECT_LOG(R, "COMM 1", "SWITCH 2", "spe q0 pc=0x10 pid/tid=50/50 cpu=0 t=3",
             "SWITCH 4", "spe q0 pc=0x14 pid/tid=60/61 cpu=0 t=5", "COMM 9");
}

TEST(SpeStreamTest, Timeless) {
  // No event has TIME: every queue is read at the end in idx order, each
  // starting with a record of zeros; times are 0; CONTEXT packets are not
  // read.
  FileBuilder B;
  B.Timeless = true;
  B.timeConv();
  B.info();
  B.comm(30, 30, 0);
  B.aux(1, speRecord(0x10, 2, 30));
  B.aux(0, speRecord(0x20, 1, 30));
  B.exitTask(30, 30, 0);
  SpeRun R = run(B.build());
  EXPECT_LOG(R, "COMM -", "EXIT -", "spe q0 pc=0x0 pid/tid=-1/-1 cpu=0 t=0",
             "spe q0 pc=0x20 pid/tid=-1/-1 cpu=0 t=0",
             "spe q1 pc=0x0 pid/tid=-1/-1 cpu=1 t=0",
             "spe q1 pc=0x10 pid/tid=-1/-1 cpu=1 t=0");
}

TEST(SpeStreamTest, PerThreadQueues) {
  // A queue per thread (cpu -1): its tid, its thread's pid once known.
  FileBuilder B;
  B.timeConv();
  B.info();
  B.aux(0, speRecord(0x10, 2) + speRecord(0x14, 6), 81, -1);
  B.comm(80, 81, 4);
  B.round();
  SpeRun R = run(B.build());
  EXPECT_LOG(R, "spe q0 pc=0x10 pid/tid=-1/81 cpu=-1 t=2", "COMM 4",
             "spe q0 pc=0x14 pid/tid=80/81 cpu=-1 t=6");
}

TEST(SpeStreamTest, ContextPacketOfAPerThreadQueue) {
  FileBuilder B;
  B.timeConv();
  B.info();
  B.aux(0, speRecord(0x10, 2, 81), 81, -1);
  B.comm(80, 81, 4);
  SpeRun R = run(B.build());
  Failure F = failureOf(std::move(R.Err));
  EXPECT_NE(F.Reason.find("no CPU"), std::string::npos) << F.Reason;
}

TEST(SpeStreamTest, WithoutTheIndex) {
  // Buffers come as their AUXTRACE records are read; a queue that ran out
  // of data leaves the heap, and what comes later for it is not read.
  FileBuilder B;
  B.NoIndex = true;
  B.timeConv();
  B.info();
  B.aux(0, speRecord(0x10, 2));
  B.comm(1, 1, 4);
  // The second round delivers the COMM before the second buffer comes.
  B.round();
  B.round();
  B.aux(0, speRecord(0x14, 6));
  B.comm(1, 1, 8);
  SpeRun R = run(B.build());
  EXPECT_LOG(R, "spe q0 pc=0x10 pid/tid=-1/-1 cpu=0 t=2", "COMM 4", "COMM 8");
  // With the index, both.
  B.NoIndex = false;
  SpeRun Indexed = run(B.build());
  EXPECT_LOG(Indexed, "spe q0 pc=0x10 pid/tid=-1/-1 cpu=0 t=2", "COMM 4",
             "spe q0 pc=0x14 pid/tid=-1/-1 cpu=0 t=6", "COMM 8");
}

TEST(SpeStreamTest, MispredictedAndEndRecords) {
  FileBuilder B;
  B.timeConv();
  B.info();
  B.aux(0, spePC(0x30) + speMispredicted() + Bytes{0x01} + Bytes{0, 0} +
               speRecord(0x34, 1));
  SpeRun R = run(B.build());
  // END leaves the timestamp 0.
  EXPECT_LOG(R, "spe q0 pc=0x30 pid/tid=-1/-1 cpu=0 t=0",
             "spe q0 pc=0x34 pid/tid=-1/-1 cpu=0 t=1");
}

TEST(SpeStreamTest, NoSpeEvent) {
  // An AUXTRACE_INFO of a PMU no event has: nothing is decoded.
  FileBuilder B;
  B.timeConv();
  B.info(9);
  B.aux(0, speRecord(0x10, 2));
  B.comm(1, 1, 4);
  SpeRun R = run(B.build());
  EXPECT_FALSE(R.Decoding);
  EXPECT_LOG(R, "COMM 4");
}

TEST(SpeStreamTest, TimeConvAfterInfo) {
  // perf takes the TIME_CONV read before AUXTRACE_INFO: none, time_mult 0.
  FileBuilder B;
  B.info();
  B.timeConv();
  B.aux(0, speRecord(0x10, 2));
  B.comm(1, 1, 4);
  SpeRun R = run(B.build());
  Failure F = failureOf(std::move(R.Err));
  EXPECT_NE(F.Reason.find("time_mult 0"), std::string::npos) << F.Reason;
}

TEST(SpeStreamTest, MalformedDataIsOneError) {
  FileBuilder B;
  B.timeConv();
  B.info();
  B.aux(0, speRecord(0x10, 2) + Bytes{0x05});
  B.comm(1, 1, 4);
  SpeRun R = run(B.build());
  Failure F = failureOf(std::move(R.Err));
  EXPECT_EQ(F.Reason, "unknown SPE packet header 0x5");
  EXPECT_NE(F.Offset, UINT64_MAX);
}

} // namespace
