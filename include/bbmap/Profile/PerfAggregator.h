//===- PerfAggregator.h - perf records to a BranchProfile -------*- C++ -*-===//
//
// What perf script text and perf.data have in common once read: mmap,
// fork and exec records that say where each process has the profiled
// binary, and samples (IPs or branch stacks) of processes. PerfAggregator
// keeps the mappings and turns samples into the aggregated records of a
// BranchProfile, by the rules PerfScriptReader.h documents. Both readers
// feed it, so they count alike by construction.
//
// Samples are counted in two steps so that they can be counted on many
// threads: a sample is first counted by its runtime addresses under a View
// (its process's mappings when it was delivered; views never change), in a
// RawCounts that any thread may own; RawCounts are merged, and the
// distinct runtime records are translated to the binary's addresses once,
// at the end. The result does not depend on how samples were split among
// RawCounts.
//
// Threading: a PerfBinary is only read once made; a PerfAggregator is one
// thread's, its RawCounts each one worker's at a time.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_PERFAGGREGATOR_H
#define BBMAP_PROFILE_PERFAGGREGATOR_H

#include "bbmap/Profile/BranchProfile.h"
#include "bbmap/Support/AnyKeyMap.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

/// A PT_LOAD program header of the profiled binary.
struct LoadSegment {
  uint64_t Offset = 0;
  uint64_t VAddr = 0;
  uint64_t FileSize = 0;
  uint64_t MemSize = 0;
  bool Executable = false;
};

/// What the perf readers need to know of the profiled binary.
struct PerfBinary {
  /// File name (no directories) that mmap events are matched against.
  std::string Name;
  /// The GNU build-id in lower-case hex; empty when the binary has none.
  std::string BuildID;
  /// ET_EXEC: linked at its load address, so runtime addresses are its own.
  bool FixedAddress = false;
  std::vector<LoadSegment> Segments;

  /// Describes an ELF executable or shared object; Name is the file name
  /// of \p Path.
  static llvm::Expected<PerfBinary>
  create(const llvm::object::ELFObjectFileBase &File, llvm::StringRef Path);

  /// True if Address lies in the memory image of a PT_LOAD segment.
  bool contains(uint64_t Address) const;
};

/// True when two build IDs (hex, either case) are one as perf compares
/// them: perf keeps a build ID in 20 bytes, zero-padded, so trailing zero
/// bytes do not count (a binary linked with --build-id=fast, md5 or uuid
/// has 8 or 16). An empty build ID matches none.
bool sameBuildID(llvm::StringRef A, llvm::StringRef B);

struct PerfScriptOptions {
  /// Match mmap events of this file name instead of PerfBinary::Name (the
  /// binary ran under another name).
  std::string BinaryName;
  /// Use an mmap that names the binary but carries another build-id.
  bool IgnoreBuildID = false;
  /// Select mmaps by BinaryName alone and check no build ID
  /// (create_llvm_prof's --profiled_binary_name).
  bool ByNameOnly = false;
};

/// An mmap record as both readers see it.
struct PerfMMap {
  int32_t PID = 0;
  uint64_t Start = 0;
  uint64_t Length = 0;
  uint64_t PageOffset = 0;
  bool Executable = false;
  llvm::StringRef Path;
  /// Lower-case or upper-case hex; empty for an inode mmap.
  llvm::StringRef BuildID;
};

/// One branch stack entry at runtime addresses.
struct PerfBranch {
  uint64_t From = 0;
  uint64_t To = 0;
  bool Mispred = false;
};

class PerfAggregator {
public:
  /// A process's mappings of the binary at one moment.
  using ViewID = uint32_t;

  /// Samples counted at runtime addresses; owned by one thread at a time.
  ///
  /// A branch stack entry is counted with one hash lookup, under its
  /// branch (ends and view) and the source of the next newer entry, where
  /// the fall-through after its target ends.
  class RawCounts {
  public:
    /// Counts a branch stack, newest entry first, of a process with
    /// \p View.
    void addStack(ViewID View, llvm::ArrayRef<PerfBranch> Stack);
    /// Counts an IP sample of a process with \p View.
    void addSample(ViewID View, uint64_t IP);
    /// Counts a sampled branch operation at \p PC (ARM SPE), for
    /// BranchProfile::BranchSamples, with the start of the run that ended
    /// at it (0 if unknown); its record is a stack of its own.
    void addBranchSample(ViewID View, uint64_t PC, uint64_t RunStart);
    /// A non-empty branch stack of a process known not to map the binary.
    void skipStack(uint64_t Entries) {
      HasBranches = true;
      OtherBinary += Entries;
    }
    /// Counts a sample read, as perf2bolt's summary does (ReadCounts):
    /// \p OfBinary when its process maps the binary (and, for an IP sample,
    /// its IP is not 0).
    void countRead(bool OfBinary, bool WithoutStack = false) {
      ++Read.Samples;
      Read.BinarySamples += OfBinary;
      Read.SamplesWithoutStack += OfBinary && WithoutStack;
    }

  private:
    friend class PerfAggregator;
    struct Entry {
      uint64_t From, To;
      /// The next newer entry's source, when there is one.
      uint64_t End;
      /// View << 2, | HasEnd when End is meaningful, | Duplicate on the
      /// two newest entries of a stack whose newest repeats the next. One
      /// word: as two 32-bit fields, clang compared them with one 64-bit
      /// load right after two 32-bit stores, a store-forwarding stall in
      /// every lookup.
      uint64_t ViewAndEnd;
    };
    static constexpr uint64_t HasEnd = 1, Duplicate = 2;
    struct EntryInfo {
      static Entry getEmptyKey() { return {0, 0, 0, ~0ULL}; }
      static Entry getTombstoneKey() { return {0, 0, 0, ~0ULL - 1}; }
      static unsigned getHashValue(const Entry &E);
      static bool isEqual(const Entry &A, const Entry &B) {
        return A.From == B.From && A.To == B.To && A.End == B.End &&
               A.ViewAndEnd == B.ViewAndEnd;
      }
    };
    struct Counts {
      uint64_t Count = 0;
      uint64_t Mispreds = 0;
    };

    llvm::DenseMap<Entry, Counts, EntryInfo> Entries;
    llvm::DenseMap<std::pair<ViewID, uint64_t>, uint64_t> Samples;
    llvm::DenseMap<std::tuple<ViewID, uint64_t, uint64_t>, uint64_t>
        BranchSamples;
    uint64_t OtherBinary = 0;
    bool HasBranches = false;
    ReadCounts Read;
  };

  PerfAggregator(const PerfBinary &Binary, PerfScriptOptions Options);
  ~PerfAggregator();

  /// Records the mapping if it maps the binary's code; fails on a build-id
  /// mismatch or an mmap of the binary that maps none of its code.
  llvm::Error mmap(const PerfMMap &M);
  void fork(int32_t Child, int32_t Parent);
  void exec(int32_t PID);
  /// A sample of event \p Name was seen (perf script printed its line).
  void event(llvm::StringRef Name);

  /// The view of process \p PID now; a PID-less sample (text without
  /// pids, perf.data without TID) uses the mappings of every process,
  /// those whose mappings changed last first.
  ViewID view(std::optional<int32_t> PID);
  /// True when samples of a process with view \p V cannot be of the
  /// binary: it was mapped elsewhere but not in this process.
  bool mapsNothing(ViewID V) const {
    return !Views[V].Maps && !Views[V].All && Views[V].SawBinaryMapping;
  }

  /// The counts of the samples read in order, on the caller's thread.
  RawCounts &counts() { return Counts; }

  /// Checks what an input as a whole must have, naming it \p Input: an
  /// mmap of a PIE before its samples.
  llvm::Error checkMapped(llvm::StringRef Input) const;

  /// Merges \p Others into the counts and translates them; the counts
  /// start empty again, the mappings stay.
  BranchProfile finish(std::vector<RawCounts> Others = {});

private:
  struct Mapping {
    uint64_t Start = 0;
    uint64_t End = 0;
    uint64_t VStart = 0;
  };
  /// A process's mappings of the binary, newest first. Lists never change:
  /// a new mapping is a node in front of the process's list, which it
  /// shares with the views and forked processes that had it, so each
  /// mmap record costs one node.
  struct MappingList {
    Mapping Newest;
    /// Null after the process's first mapping.
    const MappingList *Older = nullptr;
  };
  /// A change of the process table: \p PID has \p List from then on (null:
  /// no mapping). Changes are never changed either: the latest is the whole
  /// table as it is then, each process's list being its latest change's.
  struct TableChange {
    int32_t PID = 0;
    const MappingList *List = nullptr;
    const TableChange *Earlier = nullptr;
  };
  struct View {
    /// Null: the process has no mapping of the binary.
    const MappingList *Maps = nullptr;
    bool SawBinaryMapping = false;
    /// Every process's mappings (samples without a PID): the table as of
    /// change Table.
    bool All = false;
    const TableChange *Table = nullptr;
  };

  const MappingList *addMapping(const MappingList *Older, Mapping M);
  /// Gives process \p PID the mappings \p List (null: none).
  void setProcess(int32_t PID, const MappingList *List);
  std::optional<uint64_t> translate(const View &V, uint64_t Runtime) const;
  std::optional<uint64_t> check(uint64_t Address) const;

  const PerfBinary &Binary;
  PerfScriptOptions Options;
  /// By PID: every int32_t, DenseMap's reserved keys too.
  AnyKeyMap<int32_t, const MappingList *> Processes;
  /// Every mapping list ever made: views point into them.
  std::deque<MappingList> Lists;
  /// The views handed out; ViewID indexes it.
  std::vector<View> Views;
  llvm::DenseMap<std::pair<const MappingList *, unsigned>, ViewID> ViewIndex;
  /// The view of PID-less samples, made anew after each mapping change.
  std::optional<ViewID> AllView;
  /// The last process asked for and its view, until a mapping changes.
  std::optional<std::pair<int32_t, ViewID>> LastView;
  /// Every change of Processes, the latest last: PID-less views point
  /// into them.
  std::deque<TableChange> Changes;
  bool SawBinaryMapping = false;
  bool SawSamples = false;
  llvm::StringSet<> EventNames;
  std::vector<std::string> Events;
  RawCounts Counts;
};

} // namespace bbmap

#endif // BBMAP_PROFILE_PERFAGGREGATOR_H
