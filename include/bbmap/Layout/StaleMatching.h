//===- StaleMatching.h - carry a profile to another build -------*- C++ -*-===//
//
// A profile is almost always of last week's binary, not of the one being
// built. carryProfile moves the block counts of a profile of one build (the
// profiled binary) to the blocks of another (the binary being optimized):
// functions are matched by name (and source file, for local ones), blocks
// by the hashes both maps carry (the plugin's -bbmap-bb-hash, or LLVM 22's
// -emit-bb-hash) or else hashes of their decoded code, and the counts of blocks
// nothing matched are inferred from the matched ones over the new CFG with
// LLVM's profile inference. A function whose blocks all match unchanged keeps
// its counts as they are. docs/profile.md ("Stale profiles") gives the rules.
//
// Threading: carryProfile only reads its inputs: calls may run on several
// threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LAYOUT_STALEMATCHING_H
#define BBMAP_LAYOUT_STALEMATCHING_H

#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BlockProfile.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace bbmap {

/// One build, with the decoder of its code.
struct Build {
  const MappedBinary &Binary;
  const InstructionDecoder &Decoder;
};

/// A profiled function of the old build the new one lacks, or one whose
/// blocks did not all match, with the profile weight (sum of block counts)
/// that was lost.
struct StaleLoss {
  std::string Name;
  uint64_t Weight = 0;
};

/// What carryProfile did. Weights are sums of the old profile's block
/// counts.
struct StaleMatchStats {
  /// Profiled functions of the old build.
  uint64_t Functions = 0;
  /// ... found by name in the new build with every block matched
  /// unchanged (same hashes, or the same blocks when the maps carry no
  /// hashes): counts copied.
  uint64_t Unchanged = 0;
  /// ... found by name but changed: blocks matched by hash, the rest
  /// inferred.
  uint64_t Changed = 0;
  /// Blocks of changed functions matched by their hash (opcode part equal),
  /// and the profiled ones that found no block.
  uint64_t BlocksMatched = 0;
  uint64_t BlocksUnmatched = 0;
  uint64_t Weight = 0;
  /// Weight of functions not found, and of unmatched blocks of changed
  /// functions.
  uint64_t WeightMissing = 0;
  uint64_t WeightUnmatched = 0;
  /// The functions not found, heaviest first.
  std::vector<StaleLoss> Missing;
  /// Changed functions with unmatched profiled blocks, the most weight
  /// lost first.
  std::vector<StaleLoss> Partial;
  /// Changed functions whose blocks were matched by the maps' hashes, and
  /// by hashes of their code.
  uint64_t ByMapHashes = 0;
  uint64_t ByCodeHashes = 0;
};

struct CarriedProfile {
  BlockProfile Profile;
  StaleMatchStats Stats;
};

/// Which block hashes match the blocks of changed functions.
enum class HashSource {
  /// The maps' when both functions have them and both builds come from the
  /// same compiler (.comment), else those of the code.
  Auto,
  /// The maps' when both functions have them, else those of the code.
  Map,
  /// Hashes of the decoded code (opcode and register names, immediates),
  /// which any two builds of one target share.
  Code,
};

/// Carries \p Old, a profile of \p From's blocks, to the blocks of \p To.
/// Fails, naming the share matched, when less than half of the profile's
/// weight lies in functions \p To has: a profile of another program.
llvm::Expected<CarriedProfile> carryProfile(const BlockProfile &Old, Build From,
                                            Build To, HashSource Source);

} // namespace bbmap

#endif // BBMAP_LAYOUT_STALEMATCHING_H
