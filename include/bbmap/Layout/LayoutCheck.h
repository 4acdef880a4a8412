//===- LayoutCheck.h - does a rebuilt binary have its layout? ---*- C++ -*-===//
//
// Compares what a cluster profile and a symbol ordering file asked for with
// the map of the binary rebuilt with them: per function, its first cluster
// as its first range (the function's own section) in the cluster's order,
// each later cluster as a range of its own, the blocks of no cluster
// outside those; and the listed symbols (functions, their `.cold` and
// `.__part.N` sections: a block order) in the listed order; and that the
// unwinder reaches every FDE (hiddenFrames). A layout the
// compiler did not realize (a stale ThinLTO cache, a profile for another
// build, a rule clang has and the layout did not follow) shows as a
// difference, never as silence.
//
// Threading: checkLayout only reads its inputs: calls may run on several
// threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LAYOUT_LAYOUTCHECK_H
#define BBMAP_LAYOUT_LAYOUTCHECK_H

#include "bbmap/Layout/ClusterProfile.h"
#include "bbmap/Object/FrameRanges.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Support/Warnings.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

/// What one `f` line of the profile became.
struct FunctionCheck {
  /// The `f` line's first name.
  std::string Name;
  /// The rebuilt binary has a function of one of the `f` line's names.
  bool Found = false;
  /// The first cluster's block IDs (clones as their block), and the block
  /// IDs of the function's first range.
  std::vector<uint32_t> Wanted, Got;
  /// Each later cluster is one of the other ranges, in its order.
  bool LaterClustersRealized = true;
  /// A range other than the clusters' holds a block of a cluster.
  bool ColdHoldsClustered = false;
  unsigned OtherRanges = 0;
  /// Bytes between consecutive blocks of the first range: alignment the
  /// compiler left between blocks the layout put side by side.
  uint64_t Padding = 0;

  bool realized() const {
    return Found && Wanted == Got && LaterClustersRealized &&
           !ColdHoldsClustered;
  }
};

struct LayoutCheckResult {
  std::vector<FunctionCheck> Functions;
  /// With a symbol order: the listed symbols the binary has (functions and
  /// their other sections: `NAME.cold`, `NAME.__part.N`), and whether their
  /// addresses ascend in the listed order.
  std::optional<size_t> OrderedSymbols;
  bool InOrder = true;
  /// With the profiled binary: blocks of the rebuilt binary whose ID its
  /// function in the profiled binary lacks (AArch64's branch relaxation
  /// adds a block for a conditional branch into another section); they
  /// take no part in the comparison.
  std::optional<unsigned> AddedBlocks;
  /// FDEs of the rebuilt binary that its .eh_frame_hdr does not reach
  /// (hiddenFrames): each is a difference, as exceptions through that code
  /// terminate the program.
  HiddenFrames Unwind;
  /// What reading the rebuilt binary's .eh_frame and symbols went past.
  WarningList Warnings;

  unsigned differences() const;
  uint64_t padding() const;
};

/// Checks \p Rebuilt against \p Profile and, when not empty, \p
/// SymbolOrder. \p Profiled, when given, is the binary the profile was
/// taken on (see LayoutCheckResult::AddedBlocks). Local functions of one
/// name are told apart by their blocks: each `f` line takes the function
/// of its names whose first range it matches, else the first one left.
/// Fails when the rebuilt binary's .eh_frame_hdr is malformed.
llvm::Expected<LayoutCheckResult> checkLayout(
    const ClusterProfile &Profile, llvm::ArrayRef<std::string> SymbolOrder,
    const MappedBinary &Rebuilt, const MappedBinary *Profiled = nullptr);

} // namespace bbmap

#endif // BBMAP_LAYOUT_LAYOUTCHECK_H
