//===- PerfFile.h - perf.data decoder ---------------------------*- C++ -*-===//
//
// Decodes a perf.data file without perf: the file header, the attrs and
// their IDs, the header features bbmap uses (BUILD_ID, CMDLINE,
// EVENT_DESC, COMPRESSED), and the records of the data section, in file
// order. A pipe (`perf record -o -`) carries the same facts as records
// (HEADER_ATTR, HEADER_FEATURE, HEADER_BUILD_ID, EVENT_UPDATE), which the
// record stream reads into the model as they come. PERF_RECORD_COMPRESSED
// records (`perf record -z`) are decompressed as one zstd stream, as perf
// writes them; the records in them are handed on as if they stood in the
// file. Files of either byte order are read.
//
// Nothing is read past the buffer, and every malformed structure is one
// DecodeError naming its file offset and what is wrong; memory grows with
// the number of attrs and features, never with the data section.
//
// Threading: a PerfFile and its record stream are read by one thread at a
// time; distinct files may be read at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PERF_PERFFILE_H
#define BBMAP_PERF_PERFFILE_H

#include "bbmap/Perf/PerfEvent.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <memory>
#include <string>
#include <vector>

namespace bbmap::perf {

class PerfFile {
public:
  /// Reads the header (file or pipe) and, for a file, the attrs and the
  /// features. \p Buffer must outlive the PerfFile.
  static llvm::Expected<std::unique_ptr<PerfFile>>
  create(llvm::MemoryBufferRef Buffer);

  bool isPipe() const { return Pipe; }
  const ByteOrder &order() const { return Order; }
  llvm::StringRef name() const { return Buffer.getBufferIdentifier(); }

  /// The events, in the order of the file's attrs (or HEADER_ATTR records
  /// read so far). Pointers to them stay valid.
  llvm::ArrayRef<std::unique_ptr<Event>> events() const { return Events; }
  llvm::ArrayRef<BuildIDEntry> buildIDs() const { return BuildIDs; }
  /// Whether the file header has the BUILD_ID feature (a pipe never has).
  bool hasBuildIDFeature() const { return HasBuildIDFeature; }
  llvm::ArrayRef<std::string> commandLine() const { return CommandLine; }
  /// The AUXTRACE feature of a file: every AUXTRACE record, in the order
  /// perf wrote them (empty for a pipe and a file without the feature).
  llvm::ArrayRef<AuxtraceIndexEntry> auxtraceIndex() const {
    return AuxtraceIndex;
  }
  /// The whole buffer (a record's Offset is an index into it).
  llvm::ArrayRef<uint8_t> bytes() const {
    return llvm::ArrayRef(
        reinterpret_cast<const uint8_t *>(Buffer.getBufferStart()),
        Buffer.getBufferSize());
  }

  /// Calls \p Callback with every record of the data section (or pipe) in
  /// order, records of compressed ones included. Records perf writes for
  /// itself are read into the model first (HEADER_ATTR, HEADER_FEATURE,
  /// HEADER_BUILD_ID, EVENT_UPDATE); PERF_RECORD_COMPRESSED is never
  /// passed on, its records are. The bytes of a record taken from
  /// compressed data are valid only during the call. Stops at the first
  /// error, the callback's or a malformed record's.
  llvm::Error
  forEachRecord(llvm::function_ref<llvm::Error(const Record &)> Callback);

  /// Tells that the buffer maps the file's pages (MemoryBuffer_MMap), so
  /// that releaseBefore may give them back.
  void setMapped(bool IsMapped) { Mapped = IsMapped; }
  /// Gives back to the page cache the mapped pages before file offset
  /// \p Offset, which the caller no longer refers to: reading a file of any
  /// size then holds only the pages of the records in use. Nothing happens
  /// for a buffer that is not a mapping.
  void releaseBefore(uint64_t Offset);
  /// Gives back the mapped pages within [\p From, \p To) (a reader that
  /// looked ahead, into pages the record walk comes to later).
  void releaseBetween(uint64_t From, uint64_t To);
  /// How far a reader goes between two calls of releaseBefore: often
  /// enough to bound memory, seldom enough to cost nothing.
  static constexpr uint64_t ReleaseStep = 64 << 20;

  /// The event a record belongs to (perf's evlist__event2evsel): the only
  /// one, else the one whose ID the record carries; null if it names an ID
  /// no event has.
  const Event *eventOf(const Record &R) const;

  /// The timestamp perf orders a record by: the sample's TIME, or the
  /// sample_id_all trailer's; ~0 when it has none (perf delivers those at
  /// once). Fails on a sample too short to hold it.
  llvm::Expected<uint64_t> timestamp(const Record &R) const;

  /// Decodes a PERF_RECORD_SAMPLE of \p E (eventOf) into \p S: every
  /// sample_type field is checked against the record's size.
  llvm::Error decodeSample(const Record &R, const Event &E, Sample &S) const;
  /// Decodes the sample_id_all trailer of a record other than a sample;
  /// leaves \p ID at its defaults when the event has none.
  llvm::Error decodeSampleID(const Record &R, const Event &E,
                             SampleID &ID) const;
  /// The READ values of a sample decodeSample accepted.
  void readValues(const Sample &S,
                  llvm::SmallVectorImpl<ReadValue> &Values) const;
  /// The event whose instance has sample ID \p ID, or null.
  const Event *eventByID(uint64_t ID) const;
  llvm::Error decodeMMap(const Record &R, MMapEvent &M) const;
  llvm::Error decodeComm(const Record &R, CommEvent &C) const;
  llvm::Error decodeTask(const Record &R, TaskEvent &T) const;

  ~PerfFile();

private:
  explicit PerfFile(llvm::MemoryBufferRef Buffer);

  llvm::Error readFileHeader();
  llvm::Error readAttrs(uint64_t Offset, uint64_t Size, uint64_t AttrSize);
  llvm::Error readFeatures(uint64_t Offset, const uint64_t Bitmap[4]);
  llvm::Error readFeature(unsigned Feature, uint64_t Offset,
                          llvm::ArrayRef<uint8_t> Bytes);
  llvm::Error readBuildIDs(uint64_t Offset, llvm::ArrayRef<uint8_t> Bytes);
  llvm::Error readEventDesc(uint64_t Offset, llvm::ArrayRef<uint8_t> Bytes);
  llvm::Error readCommandLine(uint64_t Offset, llvm::ArrayRef<uint8_t> Bytes);
  llvm::Error readAuxtraceIndex(uint64_t Offset, llvm::ArrayRef<uint8_t> Bytes);
  llvm::Expected<EventAttr> readAttr(uint64_t Offset,
                                     llvm::ArrayRef<uint8_t> Bytes) const;
  /// Records perf writes for itself: read into the model.
  llvm::Error readUserRecord(const Record &R);
  llvm::Error addEvent(std::unique_ptr<Event> E, uint64_t Offset);
  /// Checks that an event with \p A agrees with the events read before on
  /// where a record's ID is.
  llvm::Error checkSampleIDLayout(const EventAttr &A, uint64_t Offset);
  /// Where the fields of an event's samples are when none has a variable
  /// size (READ, CALLCHAIN, RAW, REGS_*, STACK_USER, AUX): offsets in the
  /// record, -1 for a field the sample_type lacks.
  struct FixedLayout {
    bool Valid = false;
    int16_t Identifier = -1, IP = -1, TID = -1, Time = -1, Addr = -1, ID = -1,
            StreamID = -1, CPU = -1, Period = -1, Branch = -1, HWIndex = -1;
    uint16_t EntrySize = 24;
    /// The record's size without branch stack entries.
    uint16_t Size = 0;
  };
  static FixedLayout fixedLayout(const EventAttr &A);
  /// decodeSample for an event with a FixedLayout and a record that holds
  /// it; false when the field by field walk has to decide.
  bool decodeFixed(const Record &R, const Event &E, Sample &S) const;
  llvm::Error decompress(const Record &R,
                         llvm::function_ref<llvm::Error(const Record &)> F);

  llvm::MemoryBufferRef Buffer;
  bool Mapped = false;
  /// Pages before this offset were given back.
  uint64_t Released = 0;
  ByteOrder Order;
  bool Pipe = false;
  uint64_t DataOffset = 0;
  uint64_t DataSize = 0;
  std::vector<std::unique_ptr<Event>> Events;
  std::vector<BuildIDEntry> BuildIDs;
  std::vector<std::string> CommandLine;
  std::vector<AuxtraceIndexEntry> AuxtraceIndex;
  llvm::DenseMap<uint64_t, const Event *> ByID;
  /// Each event's FixedLayout, by Event::Index.
  std::vector<FixedLayout> Layouts;
  /// Where a sample's ID is (u64 words after the header), and a trailer's
  /// (words before the end); -1 when the events have none.
  int IDPos = -1;
  int TrailerIDPos = -1;
  /// HEADER_COMPRESSED: the compression type (0 when the file has none).
  uint32_t CompressionType = 0;
  bool HasBuildIDFeature = false;
  /// zstd's decompression state, alive from the first compressed record.
  struct Decompressor;
  std::unique_ptr<Decompressor> Zstd;
};

} // namespace bbmap::perf

#endif // BBMAP_PERF_PERFFILE_H
