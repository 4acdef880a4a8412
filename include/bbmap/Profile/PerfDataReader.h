//===- PerfDataReader.h - perf.data reader ----------------------*- C++ -*-===//
//
// Reads a perf.data file into a BranchProfile, by default natively
// (bbmap/Perf: no perf process), or by running Linux perf on it and
// handing its text to PerfScriptReader. Both feed one PerfAggregator the
// same records in the same order, so both give the same profile. The perf
// way takes three runs, each with output to a temporary file:
//
//   perf evlist -v -f -i DATA         (does any event sample BRANCH_STACK?)
//   perf buildid-list -f -i DATA      (is the binary the one perf saw?)
//   perf script -f -i DATA -F pid,event,brstack|pid,event,ip
//               --show-mmap-events --show-task-events -G --no-itrace
//
// The native way answers the same questions from the file: the events'
// sample_types, the build IDs of the BUILD_ID feature (without it, or in a
// pipe: the HEADER_BUILD_ID records and the build IDs of MMAP2 records),
// and the records in perf's delivery order (EventQueue.h). Branch stacks
// are read when an event of the file records them, IP samples otherwise;
// the profile's HasBranches says which.
//
// Threading: each call reads on PerfDataOptions::Threads threads with state of
// its own: calls may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_PERFDATAREADER_H
#define BBMAP_PROFILE_PERFDATAREADER_H

#include "bbmap/Profile/BranchProfile.h"
#include "bbmap/Profile/PerfScriptReader.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <string>

namespace bbmap {

/// How a perf.data file is read.
enum class PerfDataDecoder {
  /// lib/Perf, on this process's threads.
  Native,
  /// `perf script` text, from a perf process.
  PerfScript,
};

struct PerfDataOptions {
  PerfDataDecoder Decoder = PerfDataDecoder::Native;
  /// Native: threads to count samples on (0: the machine's).
  unsigned Threads = 0;
  /// PerfScript: the perf executable; empty: $BBMAP_PERF, else perf on
  /// PATH.
  std::string PerfPath;
  /// Match mmap events of this file name instead of the binary's own, and
  /// those alone: no build ID is checked (create_llvm_prof's
  /// --profiled_binary_name).
  std::string BinaryName;
  /// Read the profile although perf recorded another build-id for the
  /// binary's name (or none of the binary's build-id).
  bool IgnoreBuildID = false;
  /// Native: read the branch records of ARM SPE AUX data, each as the
  /// branch stack perf 6.14 synthesizes for it (SpeTrace.h); else the
  /// file's SPE data is read past, as perf2bolt does without --spe.
  bool ArmSpe = true;
};

/// The perf executable: Explicit if not empty (a name without a slash is
/// looked up on PATH), else $BBMAP_PERF if set,
/// else perf on PATH.
llvm::Expected<std::string> findPerf(llvm::StringRef Explicit);

/// A build ID a perf.data file lists, and the file it names.
struct RecordedBuildID {
  std::string ID;
  std::string Path;
};

/// The options a perf.data file's events are read with (both decoders):
/// mmaps of Options.BinaryName alone when given (no build ID checked), else
/// of the binary's file name, or of the name perf knew a file with the
/// binary's build ID by. Checks \p Binary against the build IDs the file
/// lists (\p Listed); a mismatch is an error unless Options.IgnoreBuildID.
llvm::Expected<PerfScriptOptions>
scriptOptionsFor(llvm::ArrayRef<RecordedBuildID> Listed,
                 const PerfBinary &Binary, const PerfDataOptions &Options);

/// Reads a perf.data file with lib/Perf (PerfDataOptions::Decoder Native).
llvm::Expected<BranchProfile>
readPerfDataNatively(llvm::StringRef PerfData, const PerfBinary &Binary,
                     const PerfDataOptions &Options);

/// As readPerfDataNatively, for a perf.data file in memory.
llvm::Expected<BranchProfile>
readPerfDataBuffer(llvm::MemoryBufferRef PerfData, const PerfBinary &Binary,
                   const PerfDataOptions &Options);

/// Reads the samples of Binary in the perf.data file PerfData.
///
/// Build-ids: when both the binary and the file have build-ids, the file
/// must list the binary's build-id (perf buildid-list); if it lists it
/// under another file name, mmap events of that name are read, and if it
/// lists the binary's name with another build-id, or not the build-id at
/// all, reading fails unless Options.IgnoreBuildID is set.
llvm::Expected<BranchProfile> readPerfData(llvm::StringRef PerfData,
                                           const PerfBinary &Binary,
                                           const PerfDataOptions &Options = {});

} // namespace bbmap

#endif // BBMAP_PROFILE_PERFDATAREADER_H
