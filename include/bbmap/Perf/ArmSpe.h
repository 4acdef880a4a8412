//===- ArmSpe.h - ARM SPE packets and records -------------------*- C++ -*-===//
//
// The Statistical Profiling Extension of the Arm architecture writes, for
// each sampled operation, a record of packets into the AUX buffer: one or
// two header bytes, then a little-endian payload of 1, 2, 4 or 8 bytes
// (the size field, bits 5:4 of the last header byte). The packets:
//
//   0x00             PAD (one byte)
//   0x01             END: ends a record that has no timestamp
//   0x71             TIMESTAMP (8 bytes): ends a record
//   0b01ss0010       EVENTS (bit 1 retired, 2/3 L1D access/refill, 4/5 TLB
//                    access/walk, 6 not taken, 7 mispredicted, ...)
//   0b01ss0011       DATA SOURCE
//   0b011001ii       CONTEXT (4 bytes): CONTEXTIDR_EL1 (ii 0) or _EL2 (1)
//   0b010010cc       OPERATION TYPE (1 byte): class cc 0 other, 1 load or
//                    store, 2 branch (payload bit 0 conditional, bit 1
//                    indirect), 3 reserved
//   0b10110iii       ADDRESS (8 bytes): index 0 PC, 1 branch target,
//                    2 data virtual, 3 data physical, 4 previous branch
//                    target (FEAT_SPEv1p2)
//   0b10011iii       COUNTER (2 bytes): index 0 total latency, 1 issue,
//                    2 translation
//   0b001000jj, hdr  EXTENDED: the address or counter header hdr with
//                    index jj:iii; a second byte of 0 is an ALIGNMENT
//                    packet, padding to 2 << jj bytes
//
// An instruction address (indexes 0, 1, 4) keeps bits 55:0 of its payload
// and gets 0xff as top byte when it is non-secure (bit 63) at EL1 or EL2
// (bits 62:61); a data virtual address keeps bits 55:0 (the top byte is a
// tag) and gets 0xff when bits 55:52 are all set; a physical one keeps
// bits 55:0. A record is the packets up to a TIMESTAMP or an END packet;
// PAD packets may come anywhere. This is what perf 6.1 reads
// (util/arm-spe-decoder), with FEAT_SPEv1p2's previous branch target on
// top (perf 6.1 ignores it); what perf skips a byte at a time (an unknown
// header, a payload past the end, an operation of the reserved class) is
// one DecodeError here, naming the file offset, and so is a record the end
// of its data cuts. Address packets of other indexes and counters other
// than the total latency are read and not kept, as perf does.
//
// Threading: decodeSpePacket keeps no state; an SpeDecoder is one
// thread's, and distinct decoders may read the same bytes at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PERF_ARMSPE_H
#define BBMAP_PERF_ARMSPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace bbmap::perf {

enum class SpePacketKind : uint8_t {
  Pad,
  End,
  Timestamp,
  Address,
  Counter,
  Context,
  OpType,
  Events,
  DataSource,
};

/// The indexes of ADDRESS packets.
namespace speaddr {
enum : uint8_t {
  PC = 0,
  Target = 1,
  DataVirt = 2,
  DataPhys = 3,
  PrevTarget = 4,
};
} // namespace speaddr

/// The indexes of COUNTER packets.
namespace specounter {
enum : uint8_t { TotalLatency = 0, IssueLatency = 1, TranslationLatency = 2 };
} // namespace specounter

/// The bits of an EVENTS packet's payload.
namespace speevent {
enum : uint64_t {
  ExceptionGen = 1 << 0,
  Retired = 1 << 1,
  L1DAccess = 1 << 2,
  L1DRefill = 1 << 3,
  TLBAccess = 1 << 4,
  TLBWalk = 1 << 5,
  NotTaken = 1 << 6,
  Mispredicted = 1 << 7,
  LLCAccess = 1 << 8,
  LLCMiss = 1 << 9,
  RemoteAccess = 1 << 10,
  Alignment = 1 << 11,
  PartialPredicate = 1 << 17,
  EmptyPredicate = 1 << 18,
};
} // namespace speevent

/// The class of an OPERATION TYPE packet (its header's low bits), None
/// when a record has none.
enum class SpeOpClass : uint8_t { Other = 0, LoadStore = 1, Branch = 2, None };

struct SpePacket {
  SpePacketKind Kind = SpePacketKind::Pad;
  /// ADDRESS and COUNTER: the index (five bits with an extended header);
  /// CONTEXT: the exception level's index; OPERATION TYPE: the class.
  uint8_t Index = 0;
  /// The bytes the packet takes, header included.
  uint8_t Size = 0;
  uint64_t Payload = 0;
};

/// Decodes the packet at the start of \p Bytes, which are at file offset
/// \p Offset (errors name it). \p AlignAt is where the first byte is for an
/// ALIGNMENT packet (the low bits of its address in perf's buffer: the
/// file offset for a file, the offset in the AUX data for a pipe).
llvm::Expected<SpePacket> decodeSpePacket(llvm::ArrayRef<uint8_t> Bytes,
                                          uint64_t Offset, uint64_t AlignAt);

/// One SPE record, the packets up to a TIMESTAMP or END packet.
struct SpeRecord {
  /// Addresses as perf computes them (see the file comment).
  uint64_t PC = 0;
  uint64_t Target = 0;
  uint64_t PrevTarget = 0;
  uint64_t DataVirt = 0;
  uint64_t DataPhys = 0;
  /// The TIMESTAMP packet's counter value; 0 for a record ended by END.
  uint64_t Timestamp = 0;
  /// The CONTEXT packet's payload (the thread's ID with
  /// CONFIG_PID_IN_CONTEXTIDR); ~0 if none.
  uint64_t ContextID = ~0ULL;
  uint64_t TotalLatency = 0;
  /// The EVENTS packets' bits (speevent), or-ed.
  uint64_t Events = 0;
  /// The DATA SOURCE packet's payload.
  uint64_t DataSource = 0;
  SpeOpClass OpClass = SpeOpClass::None;
  /// The OPERATION TYPE packet's payload (the subclass).
  uint8_t OpSubclass = 0;
  bool HasPC = false;
  bool HasTarget = false;
  bool HasPrevTarget = false;
  bool HasDataVirt = false;
  bool HasDataPhys = false;
  /// Ended by a TIMESTAMP packet (not END).
  bool HasTimestamp = false;
  /// The file offset of its first packet (PAD packets before it aside).
  uint64_t Offset = 0;

  bool isBranch() const { return OpClass == SpeOpClass::Branch; }
  bool conditional() const { return isBranch() && (OpSubclass & 1); }
  bool indirect() const { return isBranch() && (OpSubclass & 2); }
  bool notTaken() const { return Events & speevent::NotTaken; }
  bool mispredicted() const { return Events & speevent::Mispredicted; }
};

/// Reads the records of one piece of AUX data in order.
class SpeDecoder {
public:
  /// \p Bytes are at file offset \p Offset; \p AlignAt as for
  /// decodeSpePacket.
  SpeDecoder(llvm::ArrayRef<uint8_t> Bytes, uint64_t Offset, uint64_t AlignAt)
      : Bytes(Bytes), Offset(Offset), AlignAt(AlignAt) {}
  SpeDecoder() = default;

  /// Decodes the next record into \p R: true, or false when nothing but
  /// PAD packets is left. Fails on a malformed packet and on a record the
  /// end of the data cuts.
  llvm::Expected<bool> next(SpeRecord &R);
  /// The file offset of the next byte to read.
  uint64_t offset() const { return Offset + Pos; }
  bool atEnd() const { return Pos == Bytes.size(); }

private:
  llvm::ArrayRef<uint8_t> Bytes;
  size_t Pos = 0;
  uint64_t Offset = 0;
  uint64_t AlignAt = 0;
};

} // namespace bbmap::perf

#endif // BBMAP_PERF_ARMSPE_H
