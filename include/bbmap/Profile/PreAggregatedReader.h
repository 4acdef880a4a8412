//===- PreAggregatedReader.h - perf2bolt --pa -------------------*- C++ -*-===//
//
// Reads BOLT's pre-aggregated profile text, the input of `perf2bolt --pa`,
// into a BranchProfile: every entry type of BOLT 22 (E, S, T, R, B, F, f,
// r), which include the B, F and f lines of BOLT 15 to 19. The format and
// the choices made where perf2bolt is silent are in the class comment.
//
// Threading: read keeps its state in the call and parses on the threads it is
// given: calls may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_PREAGGREGATEDREADER_H
#define BBMAP_PROFILE_PREAGGREGATEDREADER_H

#include "bbmap/Profile/BranchProfile.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

namespace bbmap {

/// Reader of pre-aggregated profiles. One record per line:
///
///   E <event>                      event name           -> Events
///   S <loc> <count>                IP sample            -> Samples
///   T <from> <to> <ftend> <count>  branch, then its run  ->
///   BranchAndFallthrough R <from> <to> <ftend> <count>  return, then its run
///   -> Return B <from> <to> <count> <mispreds>  taken branch       -> Branch
///   F <start> <end> <count>        fall-through run     -> Fallthrough
///   f <start> <end> <count>        run entered from outside -> ExternalOrigin
///   r <start> <end> <count>        run entered by a return from outside
///                                                       -> ExternalReturn
///
/// A run's start is the Trace's To and its end FallthroughEnd. Identical
/// records are summed, in the order each first appears; a sum above 2^63-1
/// is an error.
///
/// A location is `[<buildid>:]<hex>`, the hex value (no `0x`) being taken
/// as an address of the profiled binary, as perf2bolt does. `X:<hex>` is a
/// location in an unknown object: the Trace end is marked external
/// (FromExternal, ToExternal; an external fall-through end marks the run,
/// i.e. ToExternal, since a run never leaves its object). A record with
/// a build ID other than BinaryBuildID (compared without regard to case) is
/// skipped and counted in Skipped.OtherBinary; with an empty BinaryBuildID
/// every build ID is accepted. A record with no end inside the binary (an
/// S line at X:, a trace whose branch ends and run are all external) is
/// skipped and counted in Skipped.Outside.
///
/// Fields are separated by runs of spaces or tabs; leading and trailing
/// blanks, a CR before the LF and a missing final LF are accepted. Blank
/// lines are skipped (perf2bolt rejects them; they carry nothing). Counts
/// are decimal, 0 to 2^63-1 (perf2bolt's int64). HasBranches is set when
/// the input has any T, R, B, F, f or r line.
class PreAggregatedReader {
public:
  /// Reads the whole of Buffer, a large one in parts on \p Threads threads
  /// (0: the machine's hardware threads; 1: the calling thread alone).
  /// BinaryBuildID is the profiled binary's build ID in hex, or empty.
  /// Errors read `<buffer identifier>:<line>: <what is wrong>`.
  static llvm::Expected<BranchProfile> read(llvm::MemoryBufferRef Buffer,
                                            llvm::StringRef BinaryBuildID,
                                            unsigned Threads);
};

} // namespace bbmap

#endif // BBMAP_PROFILE_PREAGGREGATEDREADER_H
