//===- ArmSpeTest.cpp - ARM SPE packets and records -----------------------===//
//
// Every packet header of the architecture's format (short and extended,
// each payload size), every cut of every packet (one error naming the
// packet's offset), ALIGNMENT packets at every position, and records: the
// fields each packet fills, perf 6.1's address computations, END and
// TIMESTAMP ends, PAD packets around and inside, cut records and the
// reserved operation class.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/ArmSpe.h"
#include "TestUtil.h"
#include "gtest/gtest.h"
#include <vector>

using namespace bbmap;
using namespace bbmap::perf;
using llvm::ArrayRef;

namespace {

using Bytes = std::vector<uint8_t>;

/// \p Header followed by the \p Size low bytes of \p Payload, little-endian.
Bytes packet(Bytes Header, uint64_t Payload, unsigned Size) {
  for (unsigned I = 0; I < Size; ++I)
    Header.push_back(Payload >> (8 * I) & 0xff);
  return Header;
}

Bytes operator+(Bytes A, const Bytes &B) {
  A.insert(A.end(), B.begin(), B.end());
  return A;
}

SpePacket decodeOK(const Bytes &B, uint64_t AlignAt = 0) {
  llvm::Expected<SpePacket> P = decodeSpePacket(B, 0x1000, AlignAt);
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return {};
  }
  return *P;
}

struct PacketCase {
  Bytes Header;
  SpePacketKind Kind;
  uint8_t Index;
  unsigned PayloadSize;
};

/// One header of every kind and payload size.
const PacketCase PacketCases[] = {
    {{0x71}, SpePacketKind::Timestamp, 0, 8},
    {{0x42}, SpePacketKind::Events, 0, 1},
    {{0x52}, SpePacketKind::Events, 0, 2},
    {{0x62}, SpePacketKind::Events, 0, 4},
    {{0x72}, SpePacketKind::Events, 0, 8},
    {{0x43}, SpePacketKind::DataSource, 0, 1},
    {{0x53}, SpePacketKind::DataSource, 0, 2},
    {{0x63}, SpePacketKind::DataSource, 0, 4},
    {{0x73}, SpePacketKind::DataSource, 0, 8},
    {{0x64}, SpePacketKind::Context, 0, 4},
    {{0x65}, SpePacketKind::Context, 1, 4},
    {{0x66}, SpePacketKind::Context, 2, 4},
    {{0x67}, SpePacketKind::Context, 3, 4},
    {{0x48}, SpePacketKind::OpType, 0, 1},
    {{0x49}, SpePacketKind::OpType, 1, 1},
    {{0x4a}, SpePacketKind::OpType, 2, 1},
    {{0x4b}, SpePacketKind::OpType, 3, 1},
    {{0xb0}, SpePacketKind::Address, 0, 8},
    {{0xb1}, SpePacketKind::Address, 1, 8},
    {{0xb2}, SpePacketKind::Address, 2, 8},
    {{0xb3}, SpePacketKind::Address, 3, 8},
    {{0xb4}, SpePacketKind::Address, 4, 8},
    {{0xb7}, SpePacketKind::Address, 7, 8},
    {{0x98}, SpePacketKind::Counter, 0, 2},
    {{0x99}, SpePacketKind::Counter, 1, 2},
    {{0x9a}, SpePacketKind::Counter, 2, 2},
    {{0x9f}, SpePacketKind::Counter, 7, 2},
    // Extended headers: index jj:iii, the size from the second byte.
    {{0x20, 0xb0}, SpePacketKind::Address, 0, 8},
    {{0x20, 0xb4}, SpePacketKind::Address, 4, 8},
    {{0x21, 0xb1}, SpePacketKind::Address, 9, 8},
    {{0x23, 0xb7}, SpePacketKind::Address, 31, 8},
    {{0x20, 0x98}, SpePacketKind::Counter, 0, 2},
    {{0x22, 0x9b}, SpePacketKind::Counter, 19, 2},
};

TEST(ArmSpeTest, EveryHeaderAndPayloadSize) {
  for (const PacketCase &C : PacketCases) {
    SCOPED_TRACE(testing::Message() << "header " << int(C.Header[0]));
    uint64_t Payload = 0x8877665544332211ULL;
    Bytes B = packet(C.Header, Payload, C.PayloadSize) + Bytes{0xee};
    SpePacket P = decodeOK(B);
    EXPECT_EQ(P.Kind, C.Kind);
    EXPECT_EQ(P.Index, C.Index);
    EXPECT_EQ(P.Size, C.Header.size() + C.PayloadSize);
    uint64_t Mask =
        C.PayloadSize == 8 ? ~0ULL : (1ULL << (8 * C.PayloadSize)) - 1;
    EXPECT_EQ(P.Payload, Payload & Mask);
  }
}

TEST(ArmSpeTest, PadAndEnd) {
  SpePacket P = decodeOK({0x00, 0x00});
  EXPECT_EQ(P.Kind, SpePacketKind::Pad);
  EXPECT_EQ(P.Size, 1);
  P = decodeOK({0x01});
  EXPECT_EQ(P.Kind, SpePacketKind::End);
  EXPECT_EQ(P.Size, 1);
}

TEST(ArmSpeTest, EveryCutOfEveryPacket) {
  for (const PacketCase &C : PacketCases) {
    Bytes Whole = packet(C.Header, 0x0102030405060708ULL, C.PayloadSize);
    for (size_t Cut = 1; Cut < Whole.size(); ++Cut) {
      SCOPED_TRACE(testing::Message()
                   << "header " << int(C.Header[0]) << " cut at " << Cut);
      Failure F = failureOf(
          decodeSpePacket(ArrayRef(Whole).take_front(Cut), 0x2000 + Cut, 0));
      EXPECT_EQ(F.Offset, 0x2000 + Cut);
      EXPECT_NE(F.Reason.find("cut by the end of the data"), std::string::npos)
          << F.Reason;
    }
  }
}

TEST(ArmSpeTest, UnknownHeaders) {
  // Every first byte that is no packet: the short forms that are not
  // listed, and extended headers of anything but an address or counter.
  unsigned Unknown = 0;
  for (unsigned H = 0; H < 256; ++H) {
    Bytes B = {uint8_t(H), 0x98, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    llvm::Expected<SpePacket> P = decodeSpePacket(B, 7, 0);
    if (P)
      continue;
    ++Unknown;
    Failure F = failureOf(P.takeError());
    EXPECT_EQ(F.Offset, 7u);
    EXPECT_NE(F.Reason.find("unknown SPE packet header"), std::string::npos);
  }
  // 256 minus PAD, END, TIMESTAMP, 4 x 2 events/source, 4 context, 4 op
  // type, 4 extended (here with a counter), 8 address, 8 counter.
  EXPECT_EQ(Unknown, 256u - 3 - 8 - 4 - 4 - 4 - 8 - 8);
  Failure F = failureOf(decodeSpePacket(Bytes{0x20, 0x42, 0}, 9, 0));
  EXPECT_EQ(F.Offset, 9u);
  EXPECT_EQ(F.Reason, "unknown SPE packet header 0x20 0x42");
}

TEST(ArmSpeTest, Alignment) {
  // 0b001000jj 0x00 pads to the next multiple of 2 << jj, counted from
  // where the packet is; at a multiple, a whole one.
  for (unsigned J = 0; J < 4; ++J) {
    unsigned Alignment = 2u << J;
    for (unsigned At = 0; At < 2 * Alignment; ++At) {
      Bytes B(Alignment, 0);
      B[0] = 0x20 | J;
      SpePacket P = decodeOK(B, At);
      EXPECT_EQ(P.Kind, SpePacketKind::Pad);
      EXPECT_EQ(P.Size, Alignment - At % Alignment);
    }
    // perf wants the alignment's bytes there, wherever it ends.
    Bytes Short(Alignment - 1, 0);
    Short[0] = 0x20 | J;
    if (Short.size() >= 2) {
      EXPECT_NE(failureOf(decodeSpePacket(Short, 0, Alignment - 1))
                    .Reason.find("alignment"),
                std::string::npos);
    }
  }
}

Bytes pc(uint64_t A) { return packet({0xb0}, A, 8); }
Bytes ts(uint64_t T) { return packet({0x71}, T, 8); }

/// Whether \p D reads a record (true) or the end (false); a test failure
/// on an error.
bool readOne(SpeDecoder &D, SpeRecord &R) {
  llvm::Expected<bool> Read = D.next(R);
  if (!Read) {
    ADD_FAILURE() << llvm::toString(Read.takeError());
    return false;
  }
  return *Read;
}

/// The records of \p B (at file offset 0x100).
std::vector<SpeRecord> records(const Bytes &B) {
  SpeDecoder D(B, 0x100, 0x100);
  std::vector<SpeRecord> Out;
  while (true) {
    SpeRecord R;
    llvm::Expected<bool> More = D.next(R);
    if (!More) {
      ADD_FAILURE() << llvm::toString(More.takeError());
      break;
    }
    if (!*More)
      break;
    Out.push_back(R);
  }
  return Out;
}

TEST(ArmSpeTest, RecordFields) {
  Bytes B = Bytes{0, 0} + pc(0x4000 | 1ULL << 63) + packet({0x65}, 4242, 4) +
            Bytes{0x4a, 0x03} + packet({0x52}, 0xc2, 2) +
            packet({0x98}, 77, 2) + packet({0x99}, 55, 2) +
            packet({0xb1}, 0x5000, 8) +
            packet({0xb4}, 0x3000 | 2ULL << 61 | 1ULL << 63, 8) +
            packet({0xb2}, 0x7fff0010 | 0x5aULL << 56, 8) +
            packet({0xb3}, 0x1234 | 0x80ULL << 56, 8) + packet({0x43}, 9, 1) +
            Bytes{0x00} + ts(123456);
  std::vector<SpeRecord> Rs = records(B);
  ASSERT_EQ(Rs.size(), 1u);
  const SpeRecord &R = Rs[0];
  EXPECT_EQ(R.Offset, 0x102u);
  EXPECT_TRUE(R.HasPC && R.HasTarget && R.HasPrevTarget && R.HasDataVirt &&
              R.HasDataPhys && R.HasTimestamp);
  EXPECT_EQ(R.PC, 0x4000u);
  EXPECT_EQ(R.ContextID, 4242u);
  EXPECT_TRUE(R.isBranch());
  EXPECT_TRUE(R.conditional());
  EXPECT_TRUE(R.indirect());
  EXPECT_EQ(R.Events, 0xc2u);
  EXPECT_TRUE(R.mispredicted());
  EXPECT_TRUE(R.notTaken());
  EXPECT_EQ(R.TotalLatency, 77u);
  EXPECT_EQ(R.Target, 0x5000u);
  EXPECT_EQ(R.PrevTarget, 0xff00000000003000u);
  EXPECT_EQ(R.DataVirt, 0x7fff0010u);
  EXPECT_EQ(R.DataPhys, 0x1234u);
  EXPECT_EQ(R.DataSource, 9u);
  EXPECT_EQ(R.Timestamp, 123456u);
}

TEST(ArmSpeTest, InstructionAndDataAddresses) {
  struct {
    uint64_t Payload;
    uint64_t Instruction;
    uint64_t Data;
  } Cases[] = {
      // Non-secure EL0, EL1, EL2, EL3; secure EL1.
      {0x8000aaaad0001000, 0x0000aaaad0001000, 0x0000aaaad0001000},
      {0xa000800008001000, 0xff00800008001000, 0x0000800008001000},
      {0xc000800008001000, 0xff00800008001000, 0x0000800008001000},
      {0xe000800008001000, 0x0000800008001000, 0x0000800008001000},
      {0x2000800008001000, 0x0000800008001000, 0x0000800008001000},
      // A data address's tag goes; bits 55:52 all set make a kernel one.
      {0x5aff000012345678, 0x00ff000012345678, 0xffff000012345678},
      {0x5a0f000012345678, 0x000f000012345678, 0x000f000012345678},
  };
  for (const auto &C : Cases) {
    Bytes B = pc(C.Payload) + packet({0xb1}, C.Payload, 8) +
              packet({0xb2}, C.Payload, 8) + Bytes{0x01};
    std::vector<SpeRecord> Rs = records(B);
    ASSERT_EQ(Rs.size(), 1u);
    EXPECT_EQ(Rs[0].PC, C.Instruction) << std::hex << C.Payload;
    EXPECT_EQ(Rs[0].Target, C.Instruction) << std::hex << C.Payload;
    EXPECT_EQ(Rs[0].DataVirt, C.Data) << std::hex << C.Payload;
  }
}

TEST(ArmSpeTest, EndsPadsAndDefaults) {
  // END ends a record without a timestamp; a lone END is an empty record;
  // PAD and ALIGNMENT packets before, between and after records belong to
  // none; an address index the decoder does not keep is read past.
  Bytes B = pc(0x10) + Bytes{0x01} + Bytes{0x00, 0x00, 0x01} +
            Bytes{0x21, 0x00, 0, 0, 0, 0, 0, 0} +
            packet({0x21, 0xb1}, 0x99, 8) + Bytes{0x48, 0x01} + ts(5) +
            Bytes{0x00, 0x00};
  std::vector<SpeRecord> Rs = records(B);
  ASSERT_EQ(Rs.size(), 3u);
  EXPECT_EQ(Rs[0].PC, 0x10u);
  EXPECT_FALSE(Rs[0].HasTimestamp);
  EXPECT_EQ(Rs[0].Timestamp, 0u);
  EXPECT_EQ(Rs[0].ContextID, ~0ULL);
  EXPECT_EQ(Rs[0].OpClass, SpeOpClass::None);
  EXPECT_FALSE(Rs[1].HasPC);
  EXPECT_EQ(Rs[1].Offset, 0x100u + 12);
  EXPECT_FALSE(Rs[2].HasTarget);
  EXPECT_EQ(Rs[2].OpClass, SpeOpClass::Other);
  EXPECT_FALSE(Rs[2].isBranch());
  EXPECT_EQ(Rs[2].Timestamp, 5u);
  // Nothing but PADs: no record.
  EXPECT_TRUE(records(Bytes{0, 0, 0}).empty());
  EXPECT_TRUE(records(Bytes{}).empty());
}

TEST(ArmSpeTest, EventsAreOred) {
  Bytes B = packet({0x42}, 0x02, 1) + packet({0x52}, 0x80, 2) + Bytes{0x01};
  std::vector<SpeRecord> Rs = records(B);
  ASSERT_EQ(Rs.size(), 1u);
  EXPECT_EQ(Rs[0].Events, 0x82u);
  EXPECT_FALSE(Rs[0].isBranch());
  EXPECT_FALSE(Rs[0].conditional());
}

TEST(ArmSpeTest, EveryCutOfARecord) {
  Bytes Whole = pc(0x4000) + packet({0x65}, 7, 4) + Bytes{0x4a, 0x00} +
                packet({0x52}, 0x82, 2) + packet({0x98}, 7, 2) +
                packet({0x21, 0xb1}, 0x5000, 8) + ts(9);
  for (size_t Cut = 1; Cut < Whole.size(); ++Cut) {
    SCOPED_TRACE(Cut);
    SpeDecoder D(ArrayRef<uint8_t>(Whole).take_front(Cut), 0x300, 0x300);
    SpeRecord R;
    Failure F = failureOf(D.next(R));
    EXPECT_NE(F.Reason.find("cut by the end"), std::string::npos) << F.Reason;
    // The record's offset when it ends between packets, the cut packet's
    // otherwise.
    EXPECT_GE(F.Offset, 0x300u);
    EXPECT_LT(F.Offset, 0x300u + Cut);
  }
  SpeDecoder D(Whole, 0x300, 0x300);
  SpeRecord R;
  EXPECT_TRUE(readOne(D, R));
  EXPECT_FALSE(readOne(D, R));
}

TEST(ArmSpeTest, CutBetweenPacketsNamesTheRecord) {
  Bytes B = ts(1) + Bytes{0, 0} + pc(0x4000);
  SpeDecoder D(B, 0x40, 0x40);
  SpeRecord R;
  ASSERT_TRUE(readOne(D, R));
  Failure F = failureOf(D.next(R));
  EXPECT_EQ(F.Offset, 0x40u + 11);
  EXPECT_EQ(F.Reason, "SPE record is cut by the end of its data after 9 "
                      "bytes, before a timestamp or END packet");
}

TEST(ArmSpeTest, ReservedOperationClass) {
  Bytes B = pc(0x4000) + Bytes{0x4b, 0x00} + ts(1);
  SpeDecoder D(B, 0x80, 0x80);
  SpeRecord R;
  Failure F = failureOf(D.next(R));
  EXPECT_EQ(F.Offset, 0x89u);
  EXPECT_EQ(F.Reason, "SPE operation type packet of the reserved class 3");
}

TEST(ArmSpeTest, UnknownHeaderInARecord) {
  Bytes B = pc(0x4000) + Bytes{0x05} + ts(1);
  SpeDecoder D(B, 0x80, 0x80);
  SpeRecord R;
  Failure F = failureOf(D.next(R));
  EXPECT_EQ(F.Offset, 0x89u);
  EXPECT_EQ(F.Reason, "unknown SPE packet header 0x5");
}

} // namespace
