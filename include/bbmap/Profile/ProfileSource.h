//===- ProfileSource.h - read any profile input -----------------*- C++ -*-===//
//
// Reads any profile of a binary through one call: a perf.data file,
// `perf script` text, a BOLT pre-aggregated profile or BOLT fdata, each
// read by its own reader into a BranchProfile of the profiled binary.
//
// Threading: readProfile and readProfiles read on each source's threads with
// state of their own: calls may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_PROFILESOURCE_H
#define BBMAP_PROFILE_PROFILESOURCE_H

#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BranchProfile.h"
#include "bbmap/Profile/PerfDataReader.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace bbmap {

enum class ProfileFormat {
  PerfData,
  PerfScript,
  PreAggregated,
  Fdata,
  /// BOLT YAML: block counts rather than records (BoltYAMLCounts.h), which
  /// readProfile does not read.
  BoltYAML,
  /// Several profiles of different formats, summed.
  Mixed,
};

struct ProfileSource {
  ProfileFormat Format = ProfileFormat::PreAggregated;
  std::string Path;
  /// Read a perf profile although its build ID is not the binary's.
  bool IgnoreBuildID = false;
  /// perf.data and perf script: the file name of the binary's mmap events,
  /// when it ran under another name (empty: the binary's own); given, it
  /// alone selects them and no build ID is checked.
  std::string BinaryName;
  /// perf.data only: read natively or through perf script; the perf
  /// executable for the latter (empty: $BBMAP_PERF or PATH).
  PerfDataDecoder Decoder = PerfDataDecoder::Native;
  std::string PerfPath;
  /// perf.data: read the branch records of ARM SPE data (perf2bolt reads
  /// them with --spe alone).
  bool ArmSpe = true;
  /// The threads perf.data and pre-aggregated text are read on (0: the
  /// machine's hardware threads).
  unsigned Threads = 0;
};

/// What reading a source gives besides the profile.
struct SourceFacts {
  /// fdata: the `boltedcollection` header.
  bool BoltedCollection = false;
  /// fdata: the function names the binary's symbol table does not define,
  /// each once.
  std::vector<std::string> UnresolvedNames;
};

/// Reads \p Source as a profile of \p Binary. Errors name the file and,
/// for text formats, the line.
llvm::Expected<BranchProfile> readProfile(const ProfileSource &Source,
                                          const MappedBinary &Binary,
                                          SourceFacts &Facts);

/// Reads every source and sums them into one profile (mergeProfile): the
/// same records whatever the order of \p Sources. Profiles with branch
/// records and profiles of IP samples alone count different things and do
/// not mix. Errors name the source they come from.
llvm::Expected<BranchProfile>
readProfiles(llvm::ArrayRef<ProfileSource> Sources, const MappedBinary &Binary,
             SourceFacts &Facts);

} // namespace bbmap

#endif // BBMAP_PROFILE_PROFILESOURCE_H
