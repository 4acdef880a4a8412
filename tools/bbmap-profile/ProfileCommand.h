//===- ProfileCommand.h - one bbmap-profile request, run --------*- C++ -*-===//
//
// What a bbmap-profile command line asks for, whichever driver mode spelled
// it (bbmap-profile's own options, perf2bolt's, create_llvm_prof's): the
// binary, the profiles to read and sum, the outputs to write. runProfile
// reads the profiles once and writes every output, so a request gets the
// same bytes whatever command line made it.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_TOOL_PROFILECOMMAND_H
#define BBMAP_PROFILE_TOOL_PROFILECOMMAND_H

#include "bbmap/BoltProfile/BoltProgramStats.h"
#include "bbmap/BoltProfile/BoltRecords.h"
#include "bbmap/Layout/BlockOrder.h"
#include "bbmap/Layout/FlowInference.h"
#include "bbmap/Layout/Layout.h"
#include "bbmap/Layout/Placement.h"
#include "bbmap/Layout/StaleMatching.h"
#include "bbmap/Profile/ProfileSource.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

enum class OutputFormat {
  Text,
  JSON,
  Fdata,
  YAML,
  PreAggregated,
  Clusters,
  SymbolOrder,
  Placement,
  BlockOrder,
  BlockSections
};

/// One file to write; "-" is standard output.
struct ProfileOutput {
  OutputFormat Format = OutputFormat::Text;
  std::string Path = "-";
};

struct ProfileRequest {
  /// Names the tool in messages ("bbmap-profile", or the name a driver
  /// mode was invoked under).
  std::string ToolName = "bbmap-profile";
  std::string BinaryPath;
  /// The binary BOLT read, when BinaryPath was BOLTed with a BAT table.
  std::string InputBinaryPath;
  /// An earlier build the profile was recorded on (a stale profile).
  std::string ProfiledBinaryPath;
  HashSource StaleHashes = HashSource::Auto;
  /// At least one profile; several are summed, a BOLT YAML profile stands
  /// alone.
  std::vector<ProfileSource> Sources;
  /// At least one. Several outputs are written from one reading of the
  /// profiles and are of one kind: perf2bolt's records (fdata, YAML) or a
  /// layout (clusters, symbol order).
  std::vector<ProfileOutput> Outputs;
  /// Write a dot picture of this function to the first output instead.
  std::string CFG;
  bool PrettyPrint = false;
  unsigned Top = 10;
  FdataDialect Dialect = FdataDialect::Bolt22;
  /// fdata and YAML of IP samples (perf2bolt --ba).
  bool BasicSamples = false;
  /// YAML of IP samples: each block's samples as `events` (bbmap-profile's
  /// own, which llvm-bolt reads), or no blocks (perf2bolt's).
  bool SampleEvents = true;
  /// The share of the samples perf2bolt's density is measured over, in
  /// millionths (its --profile-density-cutoff-hot).
  uint64_t DensityCutoff = DefaultDensityCutoff;
  /// Count the functions perf2bolt says have unknown control flow.
  bool CountUnknownControlFlow = false;
  ClusterConsumer LayoutFor = ClusterConsumer::Clang19;
  bool InferCounts = false;
  InferenceSolver Solver = InferenceSolver::PrimalDual;
  /// LayoutOptions::ColdFraction and Order.
  std::optional<double> ColdFraction;
  FunctionOrder Order = FunctionOrder::CacheDirected;
  /// --format=clusters: also one profile per compile unit in this
  /// directory (empty: none).
  std::string UnitDir;
  /// With UnitDir: a unit keeps its file while its new layout would gain
  /// at most this fraction of the whole layout's score (keepUnitLayouts);
  /// unset: any change rewrites the file.
  std::optional<double> UnitMinGain;
  /// --format=block-order: what is ordered as one graph.
  BlockOrderScope BlockScope = BlockOrderScope::Functions;
  /// --format=placement: the binary built with the layout, whose hot code
  /// is placed, and the instruction cache it is placed for (unset: the
  /// binary's architecture's, defaultCacheGeometry).
  std::string PlacedBinaryPath;
  std::optional<CacheGeometry> Cache;
  /// A perf.data of the profiled processes whose samples in the other
  /// objects the hot code is placed against; empty: the --perfdata source.
  std::string ProcessPerfData;
  bool IgnoreBuildID = false;
  /// Threads for charging records, inference, layout and BOLT's function
  /// views (0: the machine's hardware threads); the result is the same for
  /// any number.
  unsigned Threads = 0;
  /// Report each phase's time on standard error.
  bool TimePhases = false;
};

/// What a run found, for the summaries of the driver modes.
struct ProfileOutcome {
  /// The total count of the IP samples read.
  uint64_t SampleCount = 0;
  /// Records the readers skipped: of other binaries, or outside this one.
  uint64_t Skipped = 0;
  /// What the readers read, before summing.
  ReadCounts Read;
  /// The profile has branch records (not IP samples alone).
  bool HasBranches = false;
  /// The functions of the binary's BAT table (0: not BOLTed).
  uint64_t BATFunctions = 0;
  /// When perf2bolt's records were written: what aggregating them saw (and
  /// what BOLT reports of the functions then), and the lines of the last
  /// fdata file written (perf2bolt's "objects").
  FdataStats Stats;
  uint64_t Objects = 0;
};

/// Writes the --format=block-sections profile of \p BinaryPath (no profile
/// is read) to \p OutputPath; returns the exit status (1 when the binary
/// cannot be read or written).
int runBlockSections(llvm::StringRef ToolName, llvm::StringRef BinaryPath,
                     llvm::StringRef OutputPath);

/// Runs \p Request: prints warnings and errors under Request.ToolName and
/// returns the exit status (0, 1 for an error of an input, 2 for a request
/// that does not hold together).
int runProfile(const ProfileRequest &Request, ProfileOutcome &Outcome);

} // namespace bbmap

#endif // BBMAP_PROFILE_TOOL_PROFILECOMMAND_H
