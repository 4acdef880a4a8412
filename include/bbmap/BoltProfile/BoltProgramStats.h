//===- BoltProgramStats.h - what perf2bolt reports of a profile -*- C++ -*-===//
//
// What BOLT's PrintProgramStats pass reports once perf2bolt has attached
// the records (BoltRecords.h) to its functions: how many functions have a
// profile, how many of those BOLT cannot optimize, and the profile's
// density, the executed bytes per byte of code of the least dense of the
// densest profiled functions that hold 99% of the samples.
//
// Threading: programStats drives its BoltRecordAggregator, which is one
// thread's.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BOLTPROGRAMSTATS_H
#define BBMAP_BOLTPROFILE_BOLTPROGRAMSTATS_H

#include <cstdint>

namespace bbmap {

class BoltRecordAggregator;

struct BoltProgramStats {
  /// BOLT's functions, PLT entries aside.
  uint64_t Functions = 0;
  /// Simple functions with a profile.
  uint64_t Profiled = 0;
  /// Functions with a profile that are not simple (BOLT cannot optimize
  /// them).
  uint64_t ProfiledNotSimple = 0;
  /// Simple functions, profiled or not, with an indirect jump BOLT cannot
  /// follow (strict mode, a binary with relocations); counted when asked.
  uint64_t UnknownControlFlow = 0;
  /// The density; 0 when no function has samples.
  double Density = 0;
};

/// perf2bolt's default share of the samples the density is measured over,
/// in millionths (--profile-density-cutoff-hot).
constexpr uint64_t DefaultDensityCutoff = 990000;

/// What BOLT reports of \p Records' functions (IP samples with
/// \p BasicSamples), the density over \p Cutoff millionths of the samples.
/// Builds BOLT's blocks of the profiled functions, and with
/// \p CountUnknownControlFlow of every function of a binary with
/// relocations (as BOLT disassembles them all there).
BoltProgramStats programStats(BoltRecordAggregator &Records, bool BasicSamples,
                              uint64_t Cutoff = DefaultDensityCutoff,
                              bool CountUnknownControlFlow = false);

} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BOLTPROGRAMSTATS_H
