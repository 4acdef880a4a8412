//===- FdataWriter.h - BOLT fdata from a profile ----------------*- C++ -*-===//
//
// Writes the fdata file that `perf2bolt` writes for the same profile and
// binary: branch and fall-through lines per BOLT function (LBR mode) or
// per-address sample lines (`no_lbr` mode), with BOLT's function names,
// its handling of returns, calls and unknown ends, its basic blocks for
// fall-through runs and, for a BOLTed binary, its translation through the
// BAT table (`boltedcollection`). The "19" dialect writes what LLVM 19's
// perf2bolt writes: unknown ends keep their address as offset; the "16"
// dialect (LLVM 16's perf2bolt, the one that reads BOLT 16's BAT format)
// does not drop returns.
//
// Threading: writeFdata drives the BoltRecordAggregator it is given, which is
// one thread's.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_FDATAWRITER_H
#define BBMAP_BOLTPROFILE_FDATAWRITER_H

#include "bbmap/BoltProfile/BoltProgramStats.h"
#include "bbmap/BoltProfile/BoltRecords.h"
#include "bbmap/Profile/BranchProfile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>

namespace bbmap {

struct FdataOptions {
  /// Write IP samples (`perf2bolt --ba`, a `no_lbr` file) instead of
  /// branches and fall-throughs.
  bool BasicSamples = false;
  /// The event names are perf's (perf.data, perf script): perf2bolt writes
  /// them as `perf script` prints them, with a trailing colon.
  bool PerfEventNames = false;
  /// The share of the samples the density is measured over, in millionths
  /// (perf2bolt's --profile-density-cutoff-hot).
  uint64_t DensityCutoff = DefaultDensityCutoff;
  /// Count the functions with unknown control flow
  /// (BoltProgramStats::UnknownControlFlow), which reads every function.
  bool CountUnknownControlFlow = false;
};

/// Adds \p Profile to \p Records (made for the profiled file, in the
/// dialect to write) and writes them to \p OS.
llvm::Expected<FdataStats> writeFdata(const BranchProfile &Profile,
                                      BoltRecordAggregator &Records,
                                      const FdataOptions &Options,
                                      llvm::raw_ostream &OS);

} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_FDATAWRITER_H
