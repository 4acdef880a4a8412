//===- ArmSpe.cpp - ARM SPE packets and records ---------------------------===//
//
// A packet is recognized by its first header byte (and, for an extended
// header, its second), in the order the architecture's encodings allow no
// two to match: PAD, END, TIMESTAMP, then the masked forms. Every payload
// is checked against the bytes left before it is read.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Perf/ArmSpe.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace bbmap::perf {

namespace {

/// The payload size a header byte gives: 1 << bits 5:4.
unsigned payloadSize(uint8_t Header) { return 1u << (Header >> 4 & 3); }

/// An instruction address (PC, branch targets): bits 55:0, and the top
/// byte set for a non-secure EL1 or EL2 address.
uint64_t instructionAddress(uint64_t Payload) {
  uint64_t Address = Payload & ((1ULL << 56) - 1);
  bool NonSecure = Payload >> 63;
  unsigned EL = Payload >> 61 & 3;
  if (NonSecure && (EL == 1 || EL == 2))
    Address |= 0xffULL << 56;
  return Address;
}

/// A data virtual address: bits 55:0 (the top byte is a tag), the top byte
/// set when bits 55:52 are (a kernel address).
uint64_t dataAddress(uint64_t Payload) {
  uint64_t Address = Payload & ((1ULL << 56) - 1);
  if ((Address >> 52 & 0xf) == 0xf)
    Address |= 0xffULL << 56;
  return Address;
}

const char *kindName(SpePacketKind K) {
  switch (K) {
  case SpePacketKind::Pad:
    return "PAD";
  case SpePacketKind::End:
    return "END";
  case SpePacketKind::Timestamp:
    return "TIMESTAMP";
  case SpePacketKind::Address:
    return "ADDRESS";
  case SpePacketKind::Counter:
    return "COUNTER";
  case SpePacketKind::Context:
    return "CONTEXT";
  case SpePacketKind::OpType:
    return "OPERATION TYPE";
  case SpePacketKind::Events:
    return "EVENTS";
  case SpePacketKind::DataSource:
    return "DATA SOURCE";
  }
  return "?";
}

} // namespace

Expected<SpePacket> decodeSpePacket(ArrayRef<uint8_t> Bytes, uint64_t Offset,
                                    uint64_t AlignAt) {
  assert(!Bytes.empty() && "no byte to decode");
  SpePacket P;
  uint8_t H = Bytes[0];
  // The byte whose size field gives the payload's size, and the header's
  // length.
  unsigned HeaderSize = 1;
  uint8_t SizeByte = H;
  if (H == 0x00) {
    P.Size = 1;
    return P;
  }
  if (H == 0x01) {
    P.Kind = SpePacketKind::End;
    P.Size = 1;
    return P;
  }
  if (H == 0x71) {
    P.Kind = SpePacketKind::Timestamp;
  } else if ((H & 0xcf) == 0x42) {
    P.Kind = SpePacketKind::Events;
  } else if ((H & 0xcf) == 0x43) {
    P.Kind = SpePacketKind::DataSource;
  } else if ((H & 0xfc) == 0x64) {
    P.Kind = SpePacketKind::Context;
    P.Index = H & 3;
  } else if ((H & 0xfc) == 0x48) {
    P.Kind = SpePacketKind::OpType;
    P.Index = H & 3;
  } else {
    uint8_t Low = H;
    unsigned High = 0;
    if ((H & 0xfc) == 0x20) {
      if (Bytes.size() < 2)
        return decodeError(Offset, "extended SPE packet header " + hex(H) +
                                       " is cut by the end of the data");
      Low = Bytes[1];
      High = H & 3;
      HeaderSize = 2;
      SizeByte = Low;
      if (Low == 0x00) {
        // ALIGNMENT: to the next multiple of 2 << jj bytes. perf wants the
        // whole alignment's bytes to be there, and lets the packet end
        // wherever that multiple is, even within its own header.
        unsigned Alignment = 2u << High;
        if (Bytes.size() < Alignment)
          return decodeError(Offset, "SPE alignment packet to " +
                                         Twine(Alignment) +
                                         " bytes is cut by the end of the "
                                         "data");
        P.Size = Alignment - (AlignAt & (Alignment - 1));
        return P;
      }
    }
    if ((Low & 0xf8) == 0xb0)
      P.Kind = SpePacketKind::Address;
    else if ((Low & 0xf8) == 0x98)
      P.Kind = SpePacketKind::Counter;
    else
      return decodeError(Offset, "unknown SPE packet header " +
                                     (HeaderSize == 2 ? hex(H) + " " : "") +
                                     hex(Low));
    P.Index = High << 3 | (Low & 7);
  }
  unsigned PayloadSize = payloadSize(SizeByte);
  if (Bytes.size() < HeaderSize + PayloadSize)
    return decodeError(Offset, Twine("SPE ") + kindName(P.Kind) +
                                   " packet of " +
                                   Twine(HeaderSize + PayloadSize) +
                                   " bytes is cut by the end of the data (" +
                                   Twine(Bytes.size()) + " bytes left)");
  uint64_t V = 0;
  for (unsigned I = PayloadSize; I > 0; --I)
    V = V << 8 | Bytes[HeaderSize + I - 1];
  P.Payload = V;
  P.Size = HeaderSize + PayloadSize;
  return P;
}

Expected<bool> SpeDecoder::next(SpeRecord &R) {
  R = SpeRecord();
  // PAD and ALIGNMENT packets before the record belong to no record.
  bool Started = false;
  while (true) {
    if (Pos == Bytes.size()) {
      if (!Started)
        return false;
      return decodeError(R.Offset, "SPE record is cut by the end of its "
                                   "data after " +
                                       Twine(offset() - R.Offset) +
                                       " bytes, before a timestamp or END "
                                       "packet");
    }
    if (Bytes[Pos] == 0x00) {
      ++Pos;
      continue;
    }
    Expected<SpePacket> P =
        decodeSpePacket(Bytes.drop_front(Pos), offset(), AlignAt + Pos);
    if (!P)
      return P.takeError();
    uint64_t At = offset();
    Pos += P->Size;
    if (!Started && P->Kind != SpePacketKind::Pad) {
      Started = true;
      R.Offset = At;
    }
    uint64_t V = P->Payload;
    switch (P->Kind) {
    case SpePacketKind::Pad:
      break;
    case SpePacketKind::End:
      return true;
    case SpePacketKind::Timestamp:
      R.Timestamp = V;
      R.HasTimestamp = true;
      return true;
    case SpePacketKind::Address:
      switch (P->Index) {
      case speaddr::PC:
        R.PC = instructionAddress(V);
        R.HasPC = true;
        break;
      case speaddr::Target:
        R.Target = instructionAddress(V);
        R.HasTarget = true;
        break;
      case speaddr::DataVirt:
        R.DataVirt = dataAddress(V);
        R.HasDataVirt = true;
        break;
      case speaddr::DataPhys:
        R.DataPhys = V & ((1ULL << 56) - 1);
        R.HasDataPhys = true;
        break;
      case speaddr::PrevTarget:
        R.PrevTarget = instructionAddress(V);
        R.HasPrevTarget = true;
        break;
      default:
        break;
      }
      break;
    case SpePacketKind::Counter:
      if (P->Index == specounter::TotalLatency)
        R.TotalLatency = V;
      break;
    case SpePacketKind::Context:
      R.ContextID = V;
      break;
    case SpePacketKind::OpType:
      if (P->Index == 3)
        return decodeError(At, "SPE operation type packet of the reserved "
                               "class 3");
      R.OpClass = SpeOpClass(P->Index);
      R.OpSubclass = V;
      break;
    case SpePacketKind::Events:
      R.Events |= V;
      break;
    case SpePacketKind::DataSource:
      R.DataSource = V;
      break;
    }
  }
}

} // namespace bbmap::perf
