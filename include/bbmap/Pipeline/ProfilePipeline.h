//===- ProfilePipeline.h - profiles in, counts and layouts out --*- C++ -*-===//
//
// The whole of bbmap-profile as one call: a ProfileRequest names the
// binary, the profiles to read and sum and the outputs to write; runProfile
// reads the profiles once, charges them to the binary's blocks (through
// BAT, inference and stale matching when asked) and writes every output.
// bbmap-profile and its perf2bolt and create_llvm_prof modes only fill a
// request, so a request gets the same bytes whatever command line made it.
//
// Outputs appear whole or not at all (OutputFile): on an error no output
// file is made and an existing one is left as it was. Warnings and notes
// go to the caller's Diagnostics; nothing ends the process.
//
// Threading: runProfile may be called from several threads at once with
// distinct requests and Diagnostics (and distinct output files); each call
// uses up to Request.Threads threads of its own.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PIPELINE_PROFILEPIPELINE_H
#define BBMAP_PIPELINE_PROFILEPIPELINE_H

#include "bbmap/BoltProfile/BoltProgramStats.h"
#include "bbmap/BoltProfile/BoltRecords.h"
#include "bbmap/Layout/BlockOrder.h"
#include "bbmap/Layout/FlowInference.h"
#include "bbmap/Layout/Layout.h"
#include "bbmap/Layout/Placement.h"
#include "bbmap/Layout/StaleMatching.h"
#include "bbmap/Profile/ProfileSource.h"
#include "bbmap/Support/Diagnostics.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
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
  /// Report each phase's wall and CPU time here when the run ends, as
  /// LLVM's -time-passes does (null: not timed).
  llvm::raw_ostream *PhaseTimes = nullptr;
  /// Leave the largest structures allocated at the end rather than free
  /// them one by one, as clang's -disable-free does: for a tool whose
  /// process ends with the run. A library caller keeps it false.
  bool LeaveAllocated = false;
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

/// A request that does not hold together (options that do not go
/// together, a missing one): the caller's mistake rather than an input's.
/// Tools exit with status 2 on it, and 1 on any other error.
class RequestError : public llvm::ErrorInfo<RequestError> {
public:
  static char ID;
  explicit RequestError(const llvm::Twine &Msg) : Msg(Msg.str()) {}
  void log(llvm::raw_ostream &OS) const override { OS << Msg; }
  std::error_code convertToErrorCode() const override;

private:
  std::string Msg;
};

/// Runs \p Request. Warnings and notes go to \p Diags. An error of an input
/// or an output is an llvm::FileError naming the file ("'file': message");
/// one of the request is a RequestError. Either way no output is written.
llvm::Expected<ProfileOutcome> runProfile(const ProfileRequest &Request,
                                          Diagnostics &Diags);

/// Writes the --format=block-sections profile of \p BinaryPath (no profile
/// is read, the binary on \p Threads threads) to \p OutputPath ("-":
/// standard output); what reading the binary went past goes to \p Diags.
llvm::Error writeBlockSectionsFile(llvm::StringRef BinaryPath,
                                   llvm::StringRef OutputPath, unsigned Threads,
                                   Diagnostics &Diags);

} // namespace bbmap

#endif // BBMAP_PIPELINE_PROFILEPIPELINE_H
