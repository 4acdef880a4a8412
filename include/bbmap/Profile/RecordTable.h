//===- RecordTable.h - identical profile records, summed --------*- C++ -*-===//
//
// The one table through which the readers that sum identical records as
// they read them (pre-aggregated text; perf's branch stacks and IP samples,
// PerfAggregator) find a record's earlier copy in the BranchProfile they
// fill, so that the profile holds each distinct record once. Two traces are
// the same record when their kind, ends, run end and flags agree; two samples
// when their addresses do. Records stay in the order they were first added. The
// table finds and appends; the counts are the caller's to add, so that each
// reader keeps its own rule for sums that overflow.
//
// Threading: a RecordTable and the profile it indexes are one thread's.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_RECORDTABLE_H
#define BBMAP_PROFILE_RECORDTABLE_H

#include "bbmap/Profile/BranchProfile.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <utility>

namespace bbmap {

class RecordTable {
public:
  /// The trace of \p P that is the same record as \p T: found, or appended
  /// as a copy of \p T (counts included). The flag is true when appended.
  /// The reference lasts until the next record is appended to \p P.
  std::pair<Trace &, bool> addTrace(BranchProfile &P, const Trace &T);
  /// As addTrace, for the sample of \p P at \p S's address.
  std::pair<Sample &, bool> addSample(BranchProfile &P, const Sample &S);

private:
  /// What makes two records the same record. Kind is a TraceKind, or
  /// SampleKind for a sample; the table's own keys use kinds no record
  /// has, so any address can be a key.
  struct Key {
    uint64_t From, To, End;
    uint8_t Kind, Flags;
    bool operator==(const Key &O) const {
      return From == O.From && To == O.To && End == O.End && Kind == O.Kind &&
             Flags == O.Flags;
    }
  };
  static constexpr uint8_t SampleKind = 0x80;
  struct KeyInfo {
    static Key getEmptyKey() { return {0, 0, 0, 0xff, 0}; }
    static Key getTombstoneKey() { return {0, 0, 0, 0xfe, 0}; }
    static unsigned getHashValue(const Key &K);
    static bool isEqual(const Key &A, const Key &B) { return A == B; }
  };

  /// Where each distinct record is in P.Traces or P.Samples.
  llvm::DenseMap<Key, uint32_t, KeyInfo> Index;
};

} // namespace bbmap

#endif // BBMAP_PROFILE_RECORDTABLE_H
