//===- InstrProfBuilder.h - build InstrProfile models -----------*- C++ -*-===//
//
// The one way the raw and the indexed decoders fill the InstrProfile model:
// a profile is begun, its header fields, sections, names and records are
// added, and finish() hands it to an InstrProfConsumer. The builder keeps one
// profile and reuses its storage for the next, so that decoding a file of
// many concatenated profiles takes the memory of one; names read from the
// same bytes as the previous profile's (every run of one program) keep their
// MD5 index instead of being inflated and hashed again.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LIB_INSTRPROF_INSTRPROFBUILDER_H
#define BBMAP_LIB_INSTRPROF_INSTRPROFBUILDER_H

#include "bbmap/InstrProf/InstrProfile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>

namespace bbmap {

class InstrProfBuilder {
public:
  /// The two name lists of a profile.
  enum class NameList { Functions, VTables };

  explicit InstrProfBuilder(InstrProfConsumer &Consumer) : Consumer(Consumer) {}

  /// Starts the profile at \p Offset of the file, empty but for the storage
  /// the previous one leaves.
  InstrProfHeader &begin(uint64_t Offset, InstrProfFormat Format);
  /// The profile being built.
  const InstrProfile &profile() const { return P; }

  void addField(llvm::StringRef Name, uint64_t Offset, uint64_t Value);
  void addSection(llvm::StringRef Name, uint64_t Offset, uint64_t Size,
                  std::optional<uint64_t> Version = std::nullopt);
  void addBinaryId(llvm::ArrayRef<uint8_t> Id);
  /// Reads list \p Which from the name blocks in [Begin, Begin + Size) of
  /// \p File (see NameBlocks.h), unless the previous profile read it from
  /// bytes equal to these.
  llvm::Error readNames(llvm::ArrayRef<uint8_t> File, uint64_t Begin,
                        uint64_t Size, NameList Which);
  /// Appends a function name (the indexed profile's hash table keys).
  void addName(llvm::StringRef Name);
  InstrProfSummary &addSummary(bool ContextSensitive, uint64_t Offset);
  InstrProfTemporalTrace &addTemporalTrace();
  void setTemporalTraceStreamSize(uint64_t Size) {
    P.TemporalTraceStreamSize = Size;
  }
  /// Makes room for \p N records.
  void reserveFunctions(size_t N);
  /// A new, empty record at the end of the profile's records. The reference
  /// is valid until the next call.
  InstrProfFunction &addFunction();
  /// The records added so far.
  llvm::ArrayRef<InstrProfFunction> functions() const {
    return llvm::ArrayRef(P.Functions).take_front(NumFunctions);
  }
  /// The function or vtable name of \p MD5 (or an empty string), once every
  /// name of the profile is added.
  llvm::StringRef nameOf(uint64_t MD5);
  /// Ends the profile: sections in file order, names indexed, and the
  /// profile passed to the consumer.
  void finish();

private:
  /// Where each name list was last read from, if it was read from bytes of
  /// the file and its names are intact.
  struct NameSource {
    std::optional<llvm::ArrayRef<uint8_t>> Bytes;
    /// Set or read for the profile being built.
    bool Current = false;
  };
  std::vector<std::string> &list(NameList Which) {
    return Which == NameList::Functions ? P.Names : P.VTableNames;
  }
  NameSource &source(NameList Which) {
    return Sources[Which == NameList::Functions ? 0 : 1];
  }
  /// Empties the lists this profile did not set.
  void dropStaleNames();
  /// Brings the MD5 index up to date with the names.
  void indexNames();

  InstrProfConsumer &Consumer;
  InstrProfile P;
  size_t NumFunctions = 0;
  NameSource Sources[2];
  /// Whether the names changed since the MD5 index was built.
  bool NamesChanged = true;
};

} // namespace bbmap

#endif // BBMAP_LIB_INSTRPROF_INSTRPROFBUILDER_H
