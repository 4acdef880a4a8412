//===- BATProfileTranslator.h - BOLTed profiles as input --------*- C++ -*-===//
//
// Turns a profile collected on a BOLT-optimized binary that carries a BAT
// table (.note.bolt_bat) into the same execution written in the addresses
// of the input binary BOLT read, so that countBlocks() charges it to the
// input's .llvm_bb_addr_map. Branch ends go through BAT as perf2bolt takes
// them (cold fragments to their parent, function names to the input's
// symbols); each fall-through run of the BOLTed binary is cut at BOLT's
// block boundaries into straight runs of the input, joined by the jumps the
// input executed where BOLT's layout falls through (and the other way
// round), found by decoding the input's instructions. Branches keep the
// classification of the BOLTed instruction (BranchSource). See
// docs/profile.md, "Profiles of BOLTed binaries".
//
// Threading: the functions only read their inputs: calls may run on several
// threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BATPROFILETRANSLATOR_H
#define BBMAP_BOLTPROFILE_BATPROFILETRANSLATOR_H

#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BranchProfile.h"
#include "llvm/Support/Error.h"
#include <cstdint>

namespace bbmap {

/// The BOLTed binary (with its BAT table) and the input binary BOLT read,
/// each with a decoder of its code.
struct BATBinaries {
  const MappedBinary &Bolted;
  const InstructionDecoder &BoltedCode;
  const MappedBinary &Input;
  const InstructionDecoder &InputCode;
};

/// What translating a profile met; each count is reported.
struct BATTranslationStats {
  /// Records of the BOLTed profile.
  uint64_t Records = 0;
  /// Records dropped because an end lies in a function the input binary has
  /// no unique symbol for.
  uint64_t UnknownFunction = 0;
  /// Runs dropped because their ends lie in different functions or
  /// fragments of the BOLTed binary (no straight code does that).
  uint64_t RunsAcrossFragments = 0;
  /// Transitions between BOLT blocks where one binary falls through and the
  /// other jumps (a jump BOLT removed, inverted or added).
  uint64_t LayoutJumps = 0;
  /// Transitions the input's code does not explain (neither a fall-through
  /// nor a jump to the translated block); charged as a jump.
  uint64_t Unexplained = 0;
  /// IP samples in a function the input binary has no unique symbol for.
  uint64_t SamplesDropped = 0;
};

struct TranslatedProfile {
  BranchProfile Profile;
  BATTranslationStats Stats;
};

/// Checks that \p Input is the binary \p Bolted was produced from: BOLT sets
/// the output's GNU build ID to the input's with the last bit flipped
/// (skipped with \p IgnoreBuildID or when either has none), and every
/// function with a BAT table must name a function of \p Input whose size
/// holds the table's input offsets.
llvm::Error checkBATInput(const MappedBinary &Bolted, const MappedBinary &Input,
                          bool IgnoreBuildID);

/// \p Profile (addresses of B.Bolted) in the addresses of B.Input. B.Bolted
/// must have a BAT table.
TranslatedProfile translateBATProfile(const BranchProfile &Profile,
                                      const BATBinaries &B);

} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BATPROFILETRANSLATOR_H
