//===- InstrProfile.h - instrumentation profile model -----------*- C++ -*-===//
//
// What an LLVM instrumentation (IRPGO or front-end) profile says, in one
// model that the raw (.profraw) and the indexed (.profdata) decoders fill and
// every printer reads: the header facts (container, format version, variant
// flags, byte order), the binary IDs, the profile summaries, the sections
// where they lie in the file, and one record per function (PGO name, name
// MD5, CFG hash, counters, bitmap bytes, value sites per value kind).
//
// LLVM's own readers accept only their own raw version and indexed versions
// up to their own, which is why bbmap decodes the files itself; the model
// uses LLVM's names (InstrProfData.inc, InstrProf.h) so that the fields map
// one to one. See docs/instrprof.md.
//
// Threading: plain data: const access may be concurrent, writes need one owner.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_INSTRPROF_INSTRPROFILE_H
#define BBMAP_INSTRPROF_INSTRPROFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/ProfileSummary.h"
#include "llvm/Object/BuildID.h"
#include "llvm/ProfileData/InstrProf.h"
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace bbmap {

/// The two binary containers, told apart by their magic.
enum class InstrProfFormat {
  /// What the instrumented program writes (__llvm_profile_write_file):
  /// magic 0xff6c70726f667281 (64-bit pointers) or ...52 81 (32-bit) in the
  /// program's byte order.
  Raw,
  /// What `llvm-profdata merge` writes: magic 0x8169666f72706cff,
  /// little-endian.
  Indexed,
};

/// "raw" or "indexed".
llvm::StringRef formatName(InstrProfFormat F);

/// The variant flags in the upper 32 bits of the version word
/// (VARIANT_MASK_* of InstrProfData.inc). Bit 55 is defined from LLVM 22
/// on; LLVM 19 ignores it.
enum InstrProfVariant : uint64_t {
  VariantLoopEntries = 1ULL << 55,
  VariantIR = 1ULL << 56,
  VariantContextSensitive = 1ULL << 57,
  VariantEntryFirst = 1ULL << 58,
  VariantDebugInfoCorrelate = 1ULL << 59,
  VariantSingleByteCoverage = 1ULL << 60,
  VariantFunctionEntryOnly = 1ULL << 61,
  VariantMemProf = 1ULL << 62,
  VariantTemporal = 1ULL << 63,
};

/// Each variant flag with the name the printers use, in bit order.
struct InstrProfVariantName {
  InstrProfVariant Flag;
  llvm::StringRef Name;
};
llvm::ArrayRef<InstrProfVariantName> variantNames();

/// One header field as stored: its name (InstrProfData.inc's, or the
/// indexed header's), where it is and its value. Kept so that printers and
/// diagnostics can show the header as the file has it, whatever the version.
struct InstrProfField {
  std::string Name;
  uint64_t Offset = 0;
  uint64_t Value = 0;
};

/// A part of the file that the header locates: a raw payload section (binary
/// IDs, data, counters, bitmap, names, vtable data, vtable names, value data)
/// or an indexed one (hash table, memory profile, binary IDs, temporal
/// traces, vtable names, ...). Offset and Size are in bytes from the start
/// of the file; Version is set for sections with a version of their own
/// (the indexed memory profile).
struct InstrProfSection {
  std::string Name;
  uint64_t Offset = 0;
  uint64_t Size = 0;
  std::optional<uint64_t> Version;
};

/// What every profile starts with.
struct InstrProfHeader {
  InstrProfFormat Format = InstrProfFormat::Raw;
  /// The version word as stored: the format version in the low 32 bits,
  /// InstrProfVariant flags above.
  uint64_t VersionWord = 0;
  bool IsLittleEndian = true;
  /// Raw profiles: the program's pointer size, 4 or 8 (from the magic).
  uint8_t PointerSize = 8;
  /// Indexed profiles: the name hash (IndexedInstrProf::HashT; 0 is MD5).
  std::optional<uint64_t> HashType;
  /// Every field in file order.
  std::vector<InstrProfField> Fields;

  uint32_t version() const { return uint32_t(VersionWord); }
  uint32_t variantBits() const { return uint32_t(VersionWord >> 32); }
  bool has(InstrProfVariant V) const { return VersionWord & V; }
  /// IR-level instrumentation (clang -fprofile-generate) rather than the
  /// front end's (-fprofile-instr-generate).
  bool isIRLevel() const { return has(VariantIR); }
  bool hasSingleByteCoverage() const { return has(VariantSingleByteCoverage); }
  bool hasTemporalProfile() const { return has(VariantTemporal); }
  /// The value of field \p Name, if the header has it.
  std::optional<uint64_t> field(llvm::StringRef Name) const;
};

/// One profiled value at a value site and how often it was seen. For
/// indirect-call and vtable targets, Value is the MD5 of the target's PGO
/// name (0 when the profile does not name it), as LLVM's readers give it.
struct InstrProfValue {
  uint64_t Value = 0;
  uint64_t Count = 0;
  /// Raw profiles, indirect-call and vtable targets: the address the
  /// program recorded, from which Value was resolved.
  std::optional<uint64_t> Address;
};

/// The values of one site (one indirect call, one memory intrinsic, ...),
/// in file order.
using InstrProfValueSite = std::vector<InstrProfValue>;

/// One function's record.
struct InstrProfFunction {
  /// The PGO name (`[<file>;]<name>`, the file prefix for local functions),
  /// empty when the profile holds only its MD5 (a raw profile without
  /// names, a name missing from the names section).
  std::string Name;
  /// MD5 of the PGO name (raw: NameRef; indexed: the record's key hash).
  uint64_t NameMD5 = 0;
  /// The CFG hash (FuncHash); bit 60 marks a context-sensitive record.
  uint64_t Hash = 0;
  /// One count per counter. With single-byte coverage the raw bytes are
  /// turned into LLVM's counts: 1 when covered (byte 0), else 0. With a
  /// temporal profile the raw timestamp counter is not among them.
  std::vector<uint64_t> Counts;
  /// MC/DC bitmap bytes (raw version 9+, indexed version 11+).
  std::vector<uint8_t> BitmapBytes;
  /// Value sites per value kind (index: llvm::InstrProfValueKind): as many
  /// kinds as the file has, each with the function's sites of that kind.
  std::vector<std::vector<InstrProfValueSite>> ValueSites;
  /// Raw profiles: the function's address in the profiled program
  /// (FunctionPointer; 0 when not recorded).
  std::optional<uint64_t> FunctionAddress;
  /// Raw temporal profiles: the function's first-call timestamp (0 or
  /// UINT64_MAX when it was not called).
  std::optional<uint64_t> Timestamp;
  /// Where the record starts in the file (raw: the data record; indexed:
  /// the hash table entry).
  uint64_t Offset = 0;

  /// Bit 60 of the hash (NamedInstrProfRecord::hasCSFlagInHash).
  bool isContextSensitive() const { return (Hash >> 60) & 1; }
  /// The sites of value kind \p Kind (empty if the file has no such kind).
  llvm::ArrayRef<InstrProfValueSite> sites(uint32_t Kind) const {
    return Kind < ValueSites.size() ? llvm::ArrayRef(ValueSites[Kind])
                                    : llvm::ArrayRef<InstrProfValueSite>();
  }
};

/// A profile summary as the indexed format stores it
/// (IndexedInstrProf::Summary): its fields in SummaryFieldKind order
/// (TotalNumFunctions, TotalNumBlocks, MaxFunctionCount, MaxBlockCount,
/// MaxInternalBlockCount, TotalBlockCount; as many as the file has) and the
/// detailed cutoff entries.
struct InstrProfSummary {
  /// The summary of context-sensitive records (the second summary).
  bool ContextSensitive = false;
  uint64_t Offset = 0;
  std::vector<uint64_t> Fields;
  std::vector<llvm::ProfileSummaryEntry> Cutoffs;
};

/// A temporal profile trace: function name MD5s in first-call order.
struct InstrProfTemporalTrace {
  uint64_t Weight = 1;
  std::vector<uint64_t> FunctionNameRefs;
};

/// One profile. A raw file may hold several one after another (raw
/// profiles can be concatenated; readers go on at the next 8-byte aligned
/// header); an indexed file holds one.
struct InstrProfile {
  /// Where the profile starts in the file.
  uint64_t Offset = 0;
  InstrProfHeader Header;
  std::vector<llvm::object::BuildID> BinaryIds;
  std::vector<InstrProfSection> Sections;
  /// Indexed profiles: the summary and, with context-sensitive records, the
  /// CS summary.
  std::vector<InstrProfSummary> Summaries;
  /// Temporal traces (indexed: as stored; raw: the one trace the
  /// timestamps make, in LLVM's order).
  std::vector<InstrProfTemporalTrace> TemporalTraces;
  uint64_t TemporalTraceStreamSize = 0;
  /// Function PGO names the profile carries (raw: the names section), in
  /// file order.
  std::vector<std::string> Names;
  /// Virtual table names (raw version 10+ with vtable profiling; indexed
  /// version 12+).
  std::vector<std::string> VTableNames;
  /// Records in file order (raw) or hash-table order (indexed).
  std::vector<InstrProfFunction> Functions;

  /// The function or vtable name whose MD5 is \p MD5, or an empty string.
  llvm::StringRef nameOf(uint64_t MD5) const;
  /// Builds the MD5 index nameOf() uses; decoders call it once names are
  /// final.
  void indexNames();

private:
  /// MD5 to the name's index: below Names.size() in Names, else in
  /// VTableNames. A standard hash map, since any 64-bit value (DenseMap's
  /// reserved keys too) can be a hash; indices, since the names move with
  /// the profile.
  std::unordered_map<uint64_t, size_t> NamesByMD5;
};

/// What a file holds: one or more profiles (see InstrProfile).
struct InstrProfileFile {
  InstrProfFormat Format = InstrProfFormat::Raw;
  std::vector<InstrProfile> Profiles;
};

/// Receives the profiles of a file one at a time, in file order, as the
/// decoders finish them, so that a file of many concatenated profiles is
/// never held whole.
class InstrProfConsumer {
public:
  virtual ~InstrProfConsumer() = default;
  /// One decoded profile, valid only during the call (the decoder reuses
  /// its storage for the next one).
  virtual void consume(const InstrProfile &P) = 0;
};

/// A consumer that keeps every profile: the whole file.
class InstrProfCollector : public InstrProfConsumer {
public:
  void consume(const InstrProfile &P) override { File.Profiles.push_back(P); }
  /// The profiles, and the format of the first (raw if there is none).
  InstrProfileFile take();

private:
  InstrProfileFile File;
};

} // namespace bbmap

#endif // BBMAP_INSTRPROF_INSTRPROFILE_H
