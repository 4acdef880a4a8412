//===- PerfFormat.h - perf.data format constants ----------------*- C++ -*-===//
//
// The numbers of the perf.data format the decoder reads: record types,
// sample_type, read_format and branch_sample_type bits, header features,
// and the sizes of the fixed parts of the file header and of records. The
// kernel's include/uapi/linux/perf_event.h and perf's util/header.h and
// util/event.h define them; docs/profile.md ("perf.data without perf") says
// what bbmap reads of each.
//
// Threading: constants only.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PERF_PERFFORMAT_H
#define BBMAP_PERF_PERFFORMAT_H

#include <cstdint>

namespace bbmap::perf {

/// "PERFILE2" read as a little-endian u64.
inline constexpr uint64_t Magic = 0x32454c4946524550ULL;
/// The same bytes read with the other byte order.
inline constexpr uint64_t MagicSwapped = 0x50455246494c4532ULL;

/// The file header of a perf.data file: magic, size, attr_size, the attrs,
/// data and event_types sections ({offset, size} each) and the 256-bit
/// feature bitmap.
inline constexpr uint64_t FileHeaderSize = 104;
/// The header of a pipe: magic and size.
inline constexpr uint64_t PipeHeaderSize = 16;
/// struct perf_event_header: u32 type, u16 misc, u16 size.
inline constexpr uint64_t RecordHeaderSize = 8;
/// The first published perf_event_attr (PERF_ATTR_SIZE_VER0).
inline constexpr uint64_t AttrSizeVer0 = 64;

namespace record {
enum : uint32_t {
  MMap = 1,
  Lost = 2,
  Comm = 3,
  Exit = 4,
  Throttle = 5,
  Unthrottle = 6,
  Fork = 7,
  Read = 8,
  Sample = 9,
  MMap2 = 10,
  Aux = 11,
  ItraceStart = 12,
  LostSamples = 13,
  Switch = 14,
  SwitchCPUWide = 15,
  Namespaces = 16,
  KSymbol = 17,
  BPFEvent = 18,
  CGroup = 19,
  TextPoke = 20,
  AuxOutputHWID = 21,
  /// Records perf itself writes start here.
  UserTypeStart = 64,
  HeaderAttr = 64,
  HeaderEventType = 65,
  HeaderTracingData = 66,
  HeaderBuildID = 67,
  FinishedRound = 68,
  IDIndex = 69,
  AuxtraceInfo = 70,
  Auxtrace = 71,
  AuxtraceError = 72,
  ThreadMap = 73,
  CPUMap = 74,
  StatConfig = 75,
  Stat = 76,
  StatRound = 77,
  EventUpdate = 78,
  TimeConv = 79,
  HeaderFeature = 80,
  Compressed = 81,
  FinishedInit = 82,
};
} // namespace record

/// perf_event_header.misc bits.
namespace misc {
enum : uint16_t {
  CPUModeMask = 7,
  /// MMAP: a data mapping (perf record -d).
  MMapData = 1 << 13,
  /// COMM: the comm changed by exec.
  CommExec = 1 << 13,
  /// MMAP2: build ID instead of device and inode.
  MMapBuildID = 1 << 14,
  /// HEADER_BUILD_ID: the size byte is valid.
  BuildIDSize = 1 << 15,
};
} // namespace misc

/// perf_event_attr.sample_type bits, in the order the kernel writes the
/// fields of a sample.
namespace sample {
enum : uint64_t {
  IP = 1 << 0,
  TID = 1 << 1,
  Time = 1 << 2,
  Addr = 1 << 3,
  Read = 1 << 4,
  Callchain = 1 << 5,
  ID = 1 << 6,
  CPU = 1 << 7,
  Period = 1 << 8,
  StreamID = 1 << 9,
  Raw = 1 << 10,
  BranchStack = 1 << 11,
  RegsUser = 1 << 12,
  StackUser = 1 << 13,
  Weight = 1 << 14,
  DataSrc = 1 << 15,
  Identifier = 1 << 16,
  Transaction = 1 << 17,
  RegsIntr = 1 << 18,
  PhysAddr = 1 << 19,
  Aux = 1 << 20,
  CGroup = 1 << 21,
  DataPageSize = 1 << 22,
  CodePageSize = 1 << 23,
  WeightStruct = 1 << 24,
  /// Bits this decoder knows; a sample_type with others is rejected.
  Known = (1 << 25) - 1,
};
} // namespace sample

/// perf_event_attr.read_format bits.
namespace readfmt {
enum : uint64_t {
  TotalTimeEnabled = 1 << 0,
  TotalTimeRunning = 1 << 1,
  ID = 1 << 2,
  Group = 1 << 3,
  Lost = 1 << 4,
};
} // namespace readfmt

/// perf_event_attr.branch_sample_type bits the sample layout depends on.
namespace branch {
enum : uint64_t {
  /// The stack starts with the hardware index (u64) after its count.
  HWIndex = 1 << 17,
  /// Each entry has a counters word after the stack (Linux 6.8).
  Counters = 1 << 19,
};
} // namespace branch

/// The flag bits of perf_event_attr (the u64 after read_format), as a
/// little-endian host numbers them.
namespace attrflag {
enum : uint64_t {
  ExcludeUser = 1 << 4,
  ExcludeKernel = 1 << 5,
  ExcludeHV = 1 << 6,
  PreciseIPShift = 15,
  PreciseIPMask = 3ULL << 15,
  SampleIDAll = 1ULL << 18,
  ExcludeHost = 1ULL << 19,
  ExcludeGuest = 1ULL << 20,
};
} // namespace attrflag

/// Header features: bit numbers of the feature bitmap, and the order of
/// the feature sections after the data section.
namespace feature {
enum : unsigned {
  TracingData = 1,
  BuildID = 2,
  CmdLine = 11,
  EventDesc = 12,
  /// The file offsets and sizes of the AUXTRACE records.
  Auxtrace = 18,
  Compressed = 27,
  /// The bitmap's size in bits.
  Bits = 256,
};
} // namespace feature

/// PERF_RECORD_EVENT_UPDATE types.
namespace eventupdate {
enum : uint64_t { Unit = 0, Scale = 1, Name = 2, CPUs = 3 };
} // namespace eventupdate

/// HEADER_COMPRESSED's type for zstd.
inline constexpr uint32_t CompressionZstd = 1;

} // namespace bbmap::perf

#endif // BBMAP_PERF_PERFFORMAT_H
