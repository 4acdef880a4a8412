//===- ClusterProfile.h - basic-block-sections profiles, read ---*- C++ -*-===//
//
// Reads what clang's -fbasic-block-sections=list=FILE reads (version 1:
// `v1`, `m`, `f`, `c`, `p`, and clang 22's `g` and `h`), the format
// bbmap-profile --format=clusters writes, and lld's symbol ordering files:
// what a layout asked for, for a check of what a rebuilt binary has
// (LayoutCheck.h).
//
// Threading: the readers keep no state: calls may run on several threads at
// once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LAYOUT_CLUSTERPROFILE_H
#define BBMAP_LAYOUT_CLUSTERPROFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace bbmap {

/// A block of a `c` line: `ID`, or `ID.CLONE` for a path clone.
struct ClusterBlock {
  uint32_t ID = 0;
  uint32_t Clone = 0;
};

/// One `f` line and what follows it up to the next.
struct ClusterFunction {
  /// The function's name and its aliases.
  std::vector<std::string> Names;
  /// The `m` line right before the `f` line (its compile unit), if any.
  std::string Module;
  /// The `c` lines: the first is the function's hot section.
  std::vector<std::vector<ClusterBlock>> Clusters;
  /// The `p` lines: paths of block IDs to clone.
  std::vector<std::vector<uint32_t>> ClonePaths;
  /// The line number of the `f` line (1-based).
  unsigned Line = 0;
};

struct ClusterProfile {
  std::vector<ClusterFunction> Functions;
};

/// Parses a version 1 profile. An error names the line ("line N: ...").
/// `g` and `h` lines (clang 22's counts and hashes) are read past.
llvm::Expected<ClusterProfile> readClusterProfile(llvm::StringRef Text);

/// The symbols of a symbol ordering file, in order, as lld reads it: one
/// per line, from `#` on a comment, blanks around it dropped, empty lines
/// skipped.
std::vector<std::string> readSymbolOrder(llvm::StringRef Text);

} // namespace bbmap

#endif // BBMAP_LAYOUT_CLUSTERPROFILE_H
