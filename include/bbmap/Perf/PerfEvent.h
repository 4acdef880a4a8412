//===- PerfEvent.h - the model of a perf.data file --------------*- C++ -*-===//
//
// What the decoder reads from a perf.data file or pipe: the events (their
// perf_event_attr, sample IDs and names), the header features bbmap uses
// (build IDs, command line), and the decoded forms of the records perf
// script prints or bbmap-profile needs: samples with their branch stacks,
// MMAP/MMAP2, COMM, FORK/EXIT, and the sample_id_all trailer of the others.
// Strings and branch stacks are views into the record they came from.
//
// Threading: the decoded records are plain data, views into a buffer that
// must outlive them.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PERF_PERFEVENT_H
#define BBMAP_PERF_PERFEVENT_H

#include "bbmap/Perf/PerfFormat.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Endian.h"
#include <cstdint>
#include <string>
#include <vector>

namespace bbmap::perf {

/// The fields of perf_event_attr that decoding and naming depend on, in
/// host byte order. Flags holds the attr's bit field numbered as on a
/// little-endian host (attrflag), whatever the file's byte order.
struct EventAttr {
  uint32_t Type = 0;
  uint32_t Size = 0;
  uint64_t Config = 0;
  uint64_t SamplePeriod = 0;
  uint64_t SampleType = 0;
  uint64_t ReadFormat = 0;
  uint64_t Flags = 0;
  uint64_t BranchSampleType = 0;
  uint64_t SampleRegsUser = 0;
  uint32_t SampleStackUser = 0;
  uint64_t SampleRegsIntr = 0;

  bool sampleIDAll() const { return Flags & attrflag::SampleIDAll; }
  bool has(uint64_t SampleBit) const { return SampleType & SampleBit; }
};

/// One event (perf's evsel): its attr, the sample IDs the kernel gave its
/// instances, and the name the file gives it (EVENT_DESC, EVENT_UPDATE),
/// empty if none.
struct Event {
  EventAttr Attr;
  std::vector<uint64_t> IDs;
  std::string Name;
  /// Its position in PerfFile::events().
  size_t Index = 0;
};

/// A build ID perf recorded for a file (the BUILD_ID feature, or a
/// HEADER_BUILD_ID record in a pipe).
struct BuildIDEntry {
  int32_t PID = 0;
  /// Lower-case hex.
  std::string ID;
  std::string Path;
};

/// An entry of the AUXTRACE feature: where perf record wrote a
/// PERF_RECORD_AUXTRACE (its data follows it) and the record's size.
struct AuxtraceIndexEntry {
  uint64_t Offset = 0;
  uint64_t Size = 0;
};

/// One record of the data section (or pipe), its header included.
struct Record {
  uint32_t Type = 0;
  uint16_t Misc = 0;
  /// File offset of the record; for a record inside the decompressed data
  /// of a PERF_RECORD_COMPRESSED, the offset of that record.
  uint64_t Offset = 0;
  llvm::ArrayRef<uint8_t> Bytes;
  /// Taken from compressed data: the bytes are reused after the callback
  /// that receives the record returns.
  bool Compressed = false;
};

/// Reads fixed-width fields in a file's byte order.
struct ByteOrder {
  bool Little = true;

  uint64_t u64(const uint8_t *P) const {
    return Little ? llvm::support::endian::read64le(P)
                  : llvm::support::endian::read64be(P);
  }
  uint32_t u32(const uint8_t *P) const {
    return Little ? llvm::support::endian::read32le(P)
                  : llvm::support::endian::read32be(P);
  }
  uint16_t u16(const uint8_t *P) const {
    return Little ? llvm::support::endian::read16le(P)
                  : llvm::support::endian::read16be(P);
  }
  /// perf_event_attr's flags numbered as on a little-endian host: a
  /// big-endian compiler allocates bit fields from the most significant
  /// bit (perf reverses all 64 bits, right for its one-bit fields).
  uint64_t bitfield(uint64_t V) const;
  /// A branch entry's flags numbered as on a little-endian host: each
  /// field moved from its big-endian place, its bits kept in order (perf's
  /// evsel__bitfield_swap_branch_flags).
  uint64_t branchFlags(uint64_t V) const;
};

/// perf's branch_flags bit field, unpacked.
struct BranchFlags {
  bool Mispred = false;
  bool Predicted = false;
  bool InTx = false;
  bool Abort = false;
  uint16_t Cycles = 0;
  uint8_t Type = 0;
  uint8_t SpecBits = 0;
  uint8_t NewType = 0;
  uint8_t Privilege = 0;
};

/// One entry of a branch stack: a taken branch From -> To.
struct BranchEntry {
  uint64_t From = 0;
  uint64_t To = 0;
  /// The raw flags word, bit field numbered as on a little-endian host.
  uint64_t Flags = 0;

  bool mispredicted() const { return Flags & 1; }
  /// Inline: a printer unpacks the flags of every entry, and the struct
  /// returned through memory costs a store-forwarding stall per call.
  BranchFlags flags() const {
    BranchFlags F;
    F.Mispred = Flags & 1;
    F.Predicted = Flags >> 1 & 1;
    F.InTx = Flags >> 2 & 1;
    F.Abort = Flags >> 3 & 1;
    F.Cycles = Flags >> 4 & 0xffff;
    F.Type = Flags >> 20 & 0xf;
    F.SpecBits = Flags >> 24 & 3;
    F.NewType = Flags >> 26 & 0xf;
    F.Privilege = Flags >> 30 & 7;
    return F;
  }
};

/// The fields of a PERF_RECORD_SAMPLE. Absent fields keep perf's defaults
/// (-1 for PID, TID and CPU, ~0 for Time, ID and StreamID, the attr's
/// period for Period).
struct Sample {
  const Event *Ev = nullptr;
  uint64_t IP = 0;
  int32_t PID = -1;
  int32_t TID = -1;
  uint64_t Time = ~0ULL;
  uint64_t Addr = 0;
  uint64_t ID = ~0ULL;
  uint64_t StreamID = ~0ULL;
  uint32_t CPU = ~0U;
  uint64_t Period = 0;
  /// READ: where its values start (in file byte order).
  const uint8_t *Read = nullptr;
  /// CALLCHAIN: the number of entries.
  uint64_t CallchainSize = 0;
  /// BRANCH_STACK: the number of entries, the hardware index (~0 without
  /// HW_INDEX), and the entries' bytes (24 each, in file byte order).
  uint64_t BranchCount = 0;
  uint64_t BranchHWIndex = ~0ULL;
  const uint8_t *Branches = nullptr;
  ByteOrder Order;

  BranchEntry branch(uint64_t I) const {
    const uint8_t *P = Branches + 24 * I;
    return {Order.u64(P), Order.u64(P + 8),
            Order.branchFlags(Order.u64(P + 16))};
  }
};

/// One value of a sample's READ field: the counter and its sample ID (~0
/// without PERF_FORMAT_ID).
struct ReadValue {
  uint64_t Value = 0;
  uint64_t ID = ~0ULL;
};

/// The sample_id_all trailer of a record other than a sample.
struct SampleID {
  int32_t PID = -1;
  int32_t TID = -1;
  uint64_t Time = ~0ULL;
  uint64_t ID = ~0ULL;
  uint64_t StreamID = ~0ULL;
  uint32_t CPU = ~0U;
};

/// PERF_RECORD_MMAP and PERF_RECORD_MMAP2.
struct MMapEvent {
  bool Version2 = false;
  int32_t PID = 0;
  int32_t TID = 0;
  uint64_t Start = 0;
  uint64_t Length = 0;
  uint64_t PageOffset = 0;
  /// MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID: the build ID; else the
  /// device, inode and generation.
  bool HasBuildID = false;
  llvm::ArrayRef<uint8_t> BuildID;
  uint32_t Major = 0;
  uint32_t Minor = 0;
  uint64_t Inode = 0;
  uint64_t InodeGeneration = 0;
  uint32_t Prot = 0;
  uint32_t MapFlags = 0;
  /// MMAP: not PERF_RECORD_MISC_MMAP_DATA.
  bool Executable = false;
  llvm::StringRef FileName;
};

/// PERF_RECORD_COMM.
struct CommEvent {
  int32_t PID = 0;
  int32_t TID = 0;
  bool Exec = false;
  llvm::StringRef Comm;
};

/// PERF_RECORD_FORK and PERF_RECORD_EXIT.
struct TaskEvent {
  int32_t PID = 0;
  int32_t PPID = 0;
  int32_t TID = 0;
  int32_t PTID = 0;
  uint64_t Time = 0;
};

} // namespace bbmap::perf

#endif // BBMAP_PERF_PERFEVENT_H
