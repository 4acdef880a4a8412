//===- MapVerifier.h - structural checks of decoded maps --------*- C++ -*-===//
//
// Structural checks (bbmap-dump --verify): checks the decoded maps of one
// file against its symbols and section headers (blocks inside their
// function's or function part's symbol extent, sorted and disjoint blocks,
// callsites inside their block, the SHF_LINK_ORDER target, duplicate
// records, text functions without a record) and prints the findings as
// text lines or JSON. docs/dumper.md gives the rules and the exact format.
//
// Threading: a MapVerifier is fed by one thread at a time, in section order;
// VerifyReport and VerifySummary are plain data.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_MAPVERIFIER_H
#define BBMAP_OBJECT_MAPVERIFIER_H

#include "bbmap/Object/ELFMapReader.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

enum class Severity { Error, Warning };

/// One problem found in a map section or one of its records.
struct Finding {
  Severity Sev = Severity::Error;
  unsigned SectionIndex = 0;
  std::string SectionName;
  /// Offset of the record within the section; none for section-level
  /// findings.
  std::optional<uint64_t> RecordOffset;
  /// The record's function name; empty when no symbol names it.
  std::string Function;
  std::string Message;
};

/// A text function (STT_FUNC, size > 0, executable section) no record covers.
struct UncoveredFunction {
  std::string Name;
  uint64_t Address = 0;
  uint64_t Size = 0;
  unsigned SectionIndex = 0;
  std::string SectionName;
};

/// The verification result of one file.
struct VerifyReport {
  std::string File;
  std::vector<Finding> Findings;
  std::vector<UncoveredFunction> Uncovered;
  uint64_t Functions = 0;
  uint64_t Blocks = 0;
  /// Map sections that failed to decode (reported on stderr).
  uint64_t UndecodedSections = 0;

  uint64_t count(Severity Sev) const;
  /// Error findings plus undecoded sections.
  uint64_t errors() const { return count(Severity::Error) + UndecodedSections; }
};

/// Totals over every file, printed as the summary line.
struct VerifySummary {
  uint64_t Files = 0;
  uint64_t Functions = 0;
  uint64_t Blocks = 0;
  /// Error findings plus map sections that failed to decode.
  uint64_t Errors = 0;
  uint64_t Warnings = 0;
  uint64_t Uncovered = 0;

  void add(const VerifyReport &R);
};

/// Checks the map sections of one file, then its function coverage.
class MapVerifier {
public:
  MapVerifier(std::string File, FileFacts Facts);

  /// Checks the records of one decoded section. \p Relocs tells what the
  /// relocation at each address field refers to (relocatable objects only;
  /// empty otherwise).
  void checkSection(const DecodedSection &Sec, const RelocationTargets &Relocs);
  /// checkSection in parts, for a section decoded a run of records at a
  /// time: the section's own checks once, then each run, in order. \p Sec
  /// holds the section's info and (for checkRecords) the run's records.
  void checkSectionHeader(const DecodedSection &Sec) { checkLinkOrder(Sec); }
  void checkRecords(const DecodedSection &Sec, const RelocationTargets &Relocs);
  /// Counts a map section that could not be decoded (or whose relocations
  /// could not be read) as an error.
  void countUndecodedSection() { ++Report.UndecodedSections; }
  /// Lists the text functions that no checked record covered, among those
  /// whose name \p Selected accepts, and returns the report.
  VerifyReport finish(llvm::function_ref<bool(llvm::StringRef)> Selected);

private:
  /// Symbols are looked up by (section, value) in relocatable objects and by
  /// (0, value) in linked files, where values are addresses.
  using Key = std::pair<unsigned, uint64_t>;
  /// Where the first record of a function address was found.
  struct RecordPlace {
    unsigned SectionIndex;
    uint64_t Offset;
  };
  /// The record being checked.
  struct Context {
    const DecodedSection &Sec;
    const FunctionMap &F;
    llvm::StringRef Name;
  };

  Key keyOf(unsigned Section, uint64_t Value) const;
  Key rangeKey(const BlockRange &Range, const DecodedSection &Sec,
               const RelocationTargets &Relocs) const;
  std::string describeSection(unsigned Index) const;
  void report(Severity Sev, const DecodedSection &Sec,
              std::optional<uint64_t> RecordOffset, llvm::StringRef Function,
              const llvm::Twine &Message);
  void report(Severity Sev, const Context &C, const llvm::Twine &Message) {
    report(Sev, C.Sec, C.F.SectionOffset, C.Name, Message);
  }
  void checkLinkOrder(const DecodedSection &Sec);
  void checkFunction(const Context &C, const RelocationTargets &Relocs);
  void checkLinkedSection(const Context &C, unsigned EntrySection);
  bool checkDuplicate(const Context &C, Key Entry);
  const SymbolFacts *entrySymbol(Key Entry) const;
  const SymbolFacts *partSymbol(Key Base, Key Entry) const;
  void checkRange(const Context &C, size_t RangeIndex, Key Base, Key Entry);
  void checkBlocks(const Context &C, size_t RangeIndex,
                   const SymbolFacts *Extent);

  FileFacts Facts;
  VerifyReport Report;
  /// Indices into Facts.Symbols, in symbol table order.
  std::multimap<Key, size_t> SymbolsAt;
  std::map<Key, RecordPlace> Covered;
};

} // namespace bbmap

#endif // BBMAP_OBJECT_MAPVERIFIER_H
