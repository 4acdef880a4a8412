//===- BoltRecords.h - perf2bolt's records of a profile ---------*- C++ -*-===//
//
// The branch, entry and sample records perf2bolt's DataAggregator makes of
// a profile for a binary, per BOLT function: each trace split into its
// taken branch (dropped when its source is a return) and its fall-through
// run; branches charged per function as intra-function branches, calls
// (with entry records in the callee) or branches to and from unknown code;
// runs turned into the fall-through edges of BOLT's blocks
// (BoltFunctionView) or, in functions BOLT moved, of the BAT table's block
// entries. Counts of equal (from, to) pairs are summed. The fdata writer
// (FdataWriter.h) and the YAML builder (BoltYAMLBuilder.h) write them.
//
// Threading: one thread drives a BoltRecordAggregator (add, viewOf); it reads
// functions on the threads it is given.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BOLTRECORDS_H
#define BBMAP_BOLTPROFILE_BOLTRECORDS_H

#include "bbmap/BoltProfile/BoltFunctionTable.h"
#include "bbmap/BoltProfile/BoltFunctionView.h"
#include "bbmap/BoltProfile/BoltProgramStats.h"
#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BranchProfile.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace bbmap {

/// Which perf2bolt's output to reproduce.
enum class FdataDialect {
  /// perf2bolt 22: an unknown end is written as `0 [unknown] 0`.
  Bolt22,
  /// perf2bolt 19: an unknown end keeps its address as the offset.
  Bolt19,
  /// perf2bolt 16: as 22, but returns are written as branches.
  Bolt16,
};

/// Records dropped while aggregating, weighted by their counts, as
/// perf2bolt counts them.
struct FdataStats {
  /// Fall-through runs seen.
  uint64_t Traces = 0;
  /// Runs with an end outside every function.
  uint64_t OutOfRangeTraces = 0;
  /// Runs spanning two functions or not matching the function's blocks.
  uint64_t InvalidTraces = 0;
  /// Those spanning two functions. perf2bolt 19 prints only these for
  /// perf.data: it finds the others after printing its counts.
  uint64_t SpanningTraces = 0;
  /// Branches dropped because their source is a return.
  uint64_t Returns = 0;
  /// Branches with both ends outside every function.
  uint64_t UnknownBranches = 0;
  /// Samples outside every function.
  uint64_t OutOfRangeSamples = 0;
  /// Set by writeFdata: the data lines written, headers aside (what
  /// perf2bolt calls the objects it wrote).
  uint64_t Objects = 0;
  /// Set by writeFdata and buildBoltYAML: what BOLT reports of the
  /// functions once the records are attached.
  BoltProgramStats Program;
};

/// A location as perf2bolt records it: known (in a BOLT function) or not,
/// the function's name and the offset. The name is one of a BoltFunction's
/// (or a literal): it lives as long as the function table it names.
using BoltLocation = std::tuple<bool, llvm::StringRef, uint64_t>;

struct BoltCounts {
  uint64_t Mispreds = 0;
  uint64_t Count = 0;

  void add(uint64_t C, uint64_t M) {
    Count += C;
    Mispreds += M;
  }
};

/// What perf2bolt records for one function (its FuncBranchData and
/// sample data).
struct BoltFunctionRecords {
  const BoltFunction *Function = nullptr;
  /// The name written in its records.
  std::string Name;
  /// (source offset, target) -> counts: intra-function branches and
  /// fall-throughs, calls and branches out of the function.
  std::map<std::pair<uint64_t, BoltLocation>, BoltCounts> Branches;
  /// (source, target offset) -> counts: branches into the function from
  /// elsewhere (calls, returns, unknown code).
  std::map<std::pair<BoltLocation, uint64_t>, BoltCounts> Entries;
  /// Offset -> samples.
  std::map<uint64_t, uint64_t> Samples;

  /// perf2bolt made a FuncBranchData for the function.
  bool hasBranchData() const { return !Branches.empty() || !Entries.empty(); }
};

class BoltRecordAggregator {
public:
  /// \p Binary is the profiled file (BOLTed ones are aggregated in BAT
  /// mode); \p Decoder must decode it. Both must outlive the aggregator.
  /// Its function table, and the functions the traces need BOLT's blocks
  /// of, are read on up to \p Threads threads (0: the machine's hardware
  /// threads); the records are the same for any number.
  BoltRecordAggregator(const MappedBinary &Binary,
                       const InstructionDecoder &Decoder, FdataDialect Dialect,
                       unsigned Threads);

  /// Adds the traces of \p Profile, or its IP samples with
  /// \p BasicSamples.
  void add(const BranchProfile &Profile, bool BasicSamples);

  bool isBAT() const { return Binary.translator() != nullptr; }
  FdataDialect dialect() const { return Dialect; }
  const BoltFunctionTable &functions() const { return Functions; }
  /// BOLT's blocks of \p F; null when BOLT has no CFG for it.
  const BoltFunctionView *viewOf(const BoltFunction &F);
  /// The map block starts within \p F's symbol, ascending.
  llvm::ArrayRef<MapBlockStart> mapBlocksOf(const BoltFunction &F) const;
  /// By primary name.
  const std::map<llvm::StringRef, BoltFunctionRecords> &records() const {
    return Data;
  }
  const FdataStats &stats() const { return Stats; }
  /// BOLT's SampleCountInBytes of \p F: count x length of the runs in it,
  /// count x the size of the block hit of its samples; a cold fragment's
  /// go to its parent.
  uint64_t executedBytes(const BoltFunction &F) const {
    return ExecutedBytes.lookup(&F);
  }
  /// The function a cold fragment of a BOLTed binary belongs to, or \p F.
  const BoltFunction *parentOf(const BoltFunction &F) const;
  /// What reading the binary went past: the function table's warnings,
  /// then code and LSDAs the functions' views could not read.
  const WarningList &warnings() const { return Warnings; }

private:
  /// One end of a branch after BOLT's handleAddress(): the function (the
  /// parent of a cold fragment) and the (translated) offset.
  struct BranchEnd {
    const BoltFunction *Function = nullptr;
    uint64_t Offset = 0;
  };

  std::optional<BoltFunctionView> buildView(const BoltFunction &F,
                                            WarningList &Warnings) const;
  /// Builds, in parallel, the views adding \p Profile's traces (or its
  /// samples, with \p BasicSamples) will ask viewOf for.
  void buildViews(const BranchProfile &Profile, bool BasicSamples);
  void addTrace(const Trace &T);
  void addSample(const Sample &S);
  bool isReturn(const Trace &T);
  /// The size of BOLT's block of \p F at \p Offset; 0 without one.
  uint64_t blockSizeAt(const BoltFunction &F, uint64_t Offset);
  BoltFunctionRecords &dataOf(const BoltFunction &F);
  /// \p Size (4 or 8) little-endian bytes of the binary at \p Address.
  std::optional<uint64_t> readData(uint64_t Address, unsigned Size,
                                   WarningList &Warnings) const;
  BoltLocation locationOf(const BranchEnd &E) const;
  BranchEnd handleAddress(uint64_t Address, bool IsFrom) const;
  void doBranch(uint64_t From, uint64_t To, uint64_t Count, uint64_t Mispreds);
  void doTrace(const Trace &T, bool IsReturn);
  std::optional<FallthroughList>
  blockFallthroughs(const BoltFunction &F, const Trace &T, bool IsReturn);
  std::optional<FallthroughList>
  batFallthroughs(uint64_t FunctionAddress, uint64_t From, uint64_t To) const;

  const MappedBinary &Binary;
  const InstructionDecoder &Decoder;
  FdataDialect Dialect;
  unsigned Threads;
  BoltFunctionTable Functions;
  /// All map block starts, ascending.
  std::vector<MapBlockStart> MapBlocks;
  WarningList Warnings;
  /// Keyed by addresses from the binary and the profile, any of which can
  /// be one of DenseMap's reserved keys: standard containers.
  std::unordered_map<uint64_t, std::optional<BoltFunctionView>> Views;
  std::unordered_set<uint64_t> ReturnSources;
  std::map<llvm::StringRef, BoltFunctionRecords> Data;
  /// Each function's entry in Data (functions of one name share one).
  llvm::DenseMap<const BoltFunction *, BoltFunctionRecords *> RecordsOf;
  llvm::DenseMap<const BoltFunction *, uint64_t> ExecutedBytes;
  FdataStats Stats;
};

} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BOLTRECORDS_H
