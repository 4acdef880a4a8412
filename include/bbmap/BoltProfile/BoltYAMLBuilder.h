//===- BoltYAMLBuilder.h - the YAML profile perf2bolt writes ----*- C++ -*-===//
//
// Builds the YAML profile `perf2bolt --profile-format=yaml` writes for a
// profile and the binary it was collected on: perf2bolt's records
// (BoltRecords.h) attached to BOLT's CFG of each function as the
// DataAggregator attaches them (entry counts, branch and fall-through edge
// counts, call-site counts), with BOLT's function numbers, function and
// block hashes (BoltHash.h) and block instruction counts. IP samples give
// every block its sample count as `events` (perf2bolt drops them), which
// llvm-bolt reads as it reads a no_lbr fdata file. For a BOLTed binary
// (BAT mode) the functions BOLT moved are written in the input binary's
// blocks, with the BAT table's hashes, as perf2bolt's writeBATYAML() does.
// The writer is BoltYAML.h; docs/profile.md describes the output.
//
// Threading: each call builds with an aggregator of its own, on
// BoltYAMLOptions::Threads: calls may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BOLTYAMLBUILDER_H
#define BBMAP_BOLTPROFILE_BOLTYAMLBUILDER_H

#include "bbmap/BoltProfile/BoltProgramStats.h"
#include "bbmap/BoltProfile/BoltRecords.h"
#include "bbmap/BoltProfile/BoltYAMLProfile.h"
#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Profile/BranchProfile.h"
#include "llvm/Support/Error.h"

namespace bbmap {

struct BoltYAMLOptions {
  /// Whose perf2bolt's records to reproduce (returns, unknown ends).
  FdataDialect Dialect = FdataDialect::Bolt22;
  /// Use the IP samples instead of the traces.
  bool BasicSamples = false;
  /// With BasicSamples: give each block its samples as `events`, which
  /// llvm-bolt reads; perf2bolt lists the functions without blocks.
  bool SampleEvents = true;
  /// Name the events as perf prints them, with a colon (the profile came
  /// from perf.data or perf script), as perf2bolt does.
  bool PerfEventNames = false;
  /// FdataOptions::DensityCutoff and CountUnknownControlFlow.
  uint64_t DensityCutoff = DefaultDensityCutoff;
  bool CountUnknownControlFlow = false;
  /// The hash function of the function and block hashes (`hash-func`).
  boltyaml::HashFunction Hash = boltyaml::HashFunction::XXH3;
  /// Number blocks and hash the function in DFS order (`dfs-order`).
  bool UseDFS = false;
  /// Threads that read BOLT's view of the profiled functions (0: the
  /// machine's hardware threads); the output is the same for any number.
  unsigned Threads = 0;
};

/// Fails for a binary the YAML profile is not written for: one BOLTed by
/// BOLT 15/16, whose BAT table has no hashes.
llvm::Error checkBoltYAMLWritable(const MappedBinary &Binary);

/// The YAML profile of \p Profile on \p Binary, which \p Decoder decodes;
/// \p Stats, if given, receives what attaching the records saw (as
/// writeFdata returns it), \p Warnings what reading the binary's functions
/// went past (BoltRecordAggregator::warnings).
llvm::Expected<boltyaml::Profile>
buildBoltYAML(const BranchProfile &Profile, const MappedBinary &Binary,
              const InstructionDecoder &Decoder, const BoltYAMLOptions &Options,
              FdataStats *Stats = nullptr, WarningList *Warnings = nullptr);

/// The YAML profile of the block counts \p Blocks of \p Binary (a profile
/// carried from another build, or inferred from IP samples), as perf2bolt
/// would write it for a run with those counts: each edge and call a
/// branch record, attached to BOLT's CFG as the other overload does.
llvm::Expected<boltyaml::Profile>
buildBoltYAML(const BlockProfile &Blocks, const MappedBinary &Binary,
              const InstructionDecoder &Decoder, const BoltYAMLOptions &Options,
              WarningList *Warnings = nullptr);

} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BOLTYAMLBUILDER_H
